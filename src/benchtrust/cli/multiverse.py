"""``benchtrust multiverse``: would the ranking survive other reasonable design and analysis choices?

``run`` (a study from a results table and a spec) and ``example`` (Nießl et al.'s bundled study) parse their
options, run their analysis of the table (:mod:`benchtrust._report.analyses`: ``multiverse``, ``multiverse
example``), write its tables and figures to ``--out DIR``, and print the result (its text, or ``--json``),
with an optional HTML report. ``unfold`` unfolds any table of ranks or preferences (``multiverse unfold``),
with ``--plot`` and ``--report``.
"""

import dataclasses

import typer

from benchtrust._io import InputError
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _SCHEDULER_OPTION,
    _check_report_path,
    _count,
    _count_or_zero,
    _group,
    _jobs,
    _number_or_zero,
    _on_scheduler,
    _one_line_errors,
    _one_of,
    _positive_number,
    _with_progress,
    probability,
    run_analysis_command,
    show_result,
    typed_option,
)


def _refits(text: str, option: str) -> int:
    """``--permutations``: a number of refits, 0 (no permutation test) or more."""
    try:
        return _count_or_zero(text, option)
    except InputError:
        raise InputError(f"{option}: expected 0 or more refits, got {text!r}") from None


multiverse_app: typer.Typer = _group(
    "multiverse", "Would the ranking survive other reasonable design and analysis choices?"
)


_OUT_OPTION = typer.Option(
    None,
    "--out",
    metavar="DIR",
    help="Folder for the tables (CSV) and figures (PNG); created if missing. Files of the same names in it "
    "are refused, unless --force.",
)


_PERMUTATIONS_OPTION = typed_option(
    "0",
    "--permutations",
    metavar="N",
    parse=_refits,
    help="Test the unfolding's fit against N refits on ranks permuted within rows (the paper: 500).",
)
_SEED_OPTION = typed_option(
    "0", "--seed", metavar="S", parse=_count_or_zero, help="Seed of the permutations and of random orders."
)
_SUBSAMPLE_HELP = (
    "Rank the subsamples by this measure instead of the default (cindex: the paper's Fig. S3), or by several "
    "(ibrier,cindex), each with its files; all: every measure of the spec, the default first."
)
_SUBSAMPLE_MEASURE_OPTION = typer.Option(None, "--subsample-measure", metavar="MEASURE", help=_SUBSAMPLE_HELP)


@multiverse_app.command("run")
def multiverse_run_command(
    results: str = typer.Argument(
        ...,
        metavar="RESULTS.csv",
        help="One row per data set, method and iteration, one column per measure (empty = failed).",
    ),
    spec: str | None = typer.Option(
        None, "--spec", metavar="SPEC.yaml", help="Measures, choices, options and defaults (required)."
    ),
    characteristics: str | None = typer.Option(
        None, "--characteristics", metavar="FILE", help="One row per data set: the characteristics rules use."
    ),
    characteristics_dataset_column: str | None = typer.Option(
        None,
        "--characteristics-dataset-column",
        metavar="NAME",
        help="The column of --characteristics naming the data sets (default: the results' data-set column).",
    ),
    orders: str | None = typer.Option(
        None,
        "--orders",
        metavar="ORDERS.csv",
        help="Orders of the data sets (rep, pos1, pos2, ...): rank on the first l of each (Fig. 6).",
    ),
    orders_label_column: str | None = typer.Option(
        None,
        "--orders-label-column",
        metavar="NAME",
        help="The column of --orders labelling each order (default: rep, if there is one).",
    ),
    random_orders: int | None = typed_option(
        None,
        "--random-orders",
        metavar="N",
        parse=_count,
        help="Like --orders, with N seeded random orders.",
    ),
    subsample_measure: str | None = _SUBSAMPLE_MEASURE_OPTION,
    permutations: int = _PERMUTATIONS_OPTION,
    seed: int = _SEED_OPTION,
    jobs: int = typed_option(
        "-1",
        "--jobs",
        metavar="N",
        parse=_jobs,
        help="Workers for the rankings of a large multiverse (over 5e7 combinations x data sets x methods) "
        "and the permutation refits (-1, the default: one per CPU; 1: all in this process). The output is "
        "the same.",
    ),
    scheduler: str | None = _SCHEDULER_OPTION,
    out: str | None = _OUT_OPTION,
    force: bool = _FORCE_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Rank the methods under every combination of options and analyse how the ranking moves (§3-4).

    The spec names the columns of RESULTS.csv (its columns: and measures: keys)."""

    def command():
        if spec is None:
            raise InputError("--spec SPEC.yaml is required (the measures, choices and options to combine)")
        if orders is not None and random_orders is not None:
            raise InputError("--orders and --random-orders: give one of them, not both")
        arguments = {
            "results": results,
            "spec": spec,
            "characteristics": characteristics,
            "characteristics_dataset_column": characteristics_dataset_column,
            "orders": orders,
            "orders_label_column": orders_label_column,
            "n_orders": random_orders,
            "subsample_measure": subsample_measure,
            "permutations": permutations,
            "seed": seed,
            "n_jobs": -1 if scheduler is not None else jobs,  # every thread of the scheduler's workers
        }
        _study(
            "multiverse",
            arguments,
            spec=spec,
            subsample=orders is not None or random_orders is not None,
            out=out,
            force=force,
            json_output=json_output,
            report=report,
            scheduler=scheduler,
        )

    _one_line_errors(command)


@multiverse_app.command("example")
def multiverse_example_command(
    subsample_measure: str = typer.Option(
        "all", "--subsample-measure", metavar="MEASURE", help=_SUBSAMPLE_HELP
    ),
    permutations: int = _PERMUTATIONS_OPTION,
    out: str | None = _OUT_OPTION,
    force: bool = _FORCE_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
) -> None:
    """Nießl et al.'s study: 288 combinations of the Herrmann et al. (2021) results and the rankings on
    the first data sets of the paper's 50 orders by ibrier and by cindex (Fig. 6 and Fig. S3), all bundled."""

    def command():
        from benchtrust.multiverse import bundled_study

        arguments = {"subsample_measure": subsample_measure, "permutations": permutations}
        _study(
            "multiverse example",
            arguments,
            spec=bundled_study()["spec"],
            subsample=True,
            out=out,
            force=force,
            json_output=json_output,
            report=report,
        )

    _one_line_errors(command)


def _study(analysis, arguments, *, spec, subsample, out, force, json_output, report, scheduler=None) -> None:
    """Run the study `analysis` of the table on `arguments`, write its files to `out` and print it.

    `spec` and `subsample` (whether it ranks subsamples of the data sets) name the files it writes, which
    are checked before the study (it may take long) and again before they are written; `scheduler` is
    the address of a dask.distributed scheduler to run its parallel work on."""
    if out is None:
        raise InputError("--out DIR is required (the folder to write the tables and figures to)")
    if report is not None:
        _check_report_path(report)
    from benchtrust._report.analyses import run_analysis
    from benchtrust._write import check_folder
    from benchtrust.multiverse import study_files

    permutations = arguments["permutations"]
    names = study_files(
        spec, permutations=permutations, subsample=subsample, subsample_measure=arguments["subsample_measure"]
    )
    check_folder(out, names, force=force, option="--out")  # before the study: it may take long
    with _on_scheduler(scheduler):
        result = _with_progress(
            "ranking and unfolding" + (" (permutation test)" if permutations else ""),
            json_output,
            lambda progress: run_analysis(analysis, arguments, progress=progress),
        )
    check_folder(out, names, force=force, option="--out")  # again: a file may have appeared since
    written = tuple(result.write(out, force=True))
    show_result(dataclasses.replace(result, written=written), json_output=json_output, report=report)


@multiverse_app.command("unfold")
def multiverse_unfold_command(
    ranks: str = typer.Argument(
        ...,
        metavar="RANKS.csv",
        help="Ranks or dissimilarities (1 = most preferred; ties allowed): one row per subject (judge, data "
        "set, combination), one column per object, every column numbers, the header the objects' names; "
        "a column of row labels only if --row-labels names it (else the rows are numbered 1, 2, ...).",
    ),
    row_labels: str | None = typer.Option(
        None,
        "--row-labels",
        metavar="COLUMN",
        help="The column of RANKS.csv that labels the rows (text); the other columns are the table.",
    ),
    dimensions: int = typed_option(
        "2", "--dimensions", metavar="P", parse=_count, help="Dimensions of the map, fewer than the columns."
    ),
    conditionality: str = typed_option(
        "unconditional",
        "--conditionality",
        metavar="unconditional|row",
        parse=_one_of("unconditional", "row"),
        help="One transformation for the whole table, or one per row.",
    ),
    transformation: str = typed_option(
        "ordinal",
        "--transformation",
        metavar="ordinal|interval|ratio",
        parse=_one_of("ordinal", "interval", "ratio"),
        help="How the disparities follow the ranks: any order-preserving function (non-metric), a + b·rank, "
        "or b·rank (b >= 0).",
    ),
    ties: str = typed_option(
        "primary",
        "--ties",
        metavar="primary|secondary",
        parse=_one_of("primary", "secondary"),
        help="Tied ranks may get different disparities (primary) or equal ones (secondary); ordinal only.",
    ),
    penalty_strength: float = typed_option(
        "0.5",
        "--penalty-strength",
        metavar="λ",
        parse=probability(upper_open=False),
        help="λ in (0, 1], the power of the normalised stress in the penalised stress.",
    ),
    penalty_range: float = typed_option(
        "1",
        "--penalty-range",
        metavar="ω",
        parse=_positive_number,
        help="ω > 0, the weight of the penalty on disparities that are nearly constant.",
    ),
    tolerance: float = typed_option(
        "1e-6",
        "--tolerance",
        metavar="TOL",
        parse=_number_or_zero,
        help="Stop when the penalised stress falls by a relative amount of at most TOL.",
    ),
    max_iterations: int = typed_option(
        "10000",
        "--max-iterations",
        metavar="N",
        parse=_count,
        help="Stop after N iterations; the result then says it did not converge.",
    ),
    force: bool = _FORCE_OPTION,
    json_output: bool = _JSON_OPTION,
    plot: str | None = typer.Option(
        None,
        "--plot",
        metavar="FILE.png",
        help="Write the map (rows: circles, columns: triangles) to FILE.png.",
    ),
    report: str | None = _REPORT_OPTION,
) -> None:
    """Place the rows and columns of any table of ranks or preferences in a map (non-metric unfolding with
    penalised stress, Busing, Groenen & Heiser 2005): a row lies close to the columns it ranks first."""

    def command():
        arguments = {
            "dissimilarities": ranks,
            "row_labels": row_labels,
            "dimensions": dimensions,
            "conditionality": conditionality,
            "transformation": transformation,
            "ties": ties,
            "penalty_strength": penalty_strength,
            "penalty_range": penalty_range,
            "tolerance": tolerance,
            "max_iterations": max_iterations,
        }
        try:
            run_analysis_command(
                "multiverse unfold",
                arguments,
                json_output=json_output,
                label="unfolding",
                report=report,
                plot=plot,
            )
        except InputError as exc:  # the library's names of options its checks of the file's columns name
            message = f"--{exc}" if str(exc).startswith("dimensions:") else str(exc)
            raise InputError(message.replace("(row_labels)", "(--row-labels)")) from None

    _one_line_errors(command)
