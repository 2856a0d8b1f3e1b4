"""``benchtrust consistency protocols``: under which evaluation protocol could these scores have come out?

The command checks its options, calls :func:`benchtrust.consistency.check_protocols` (every combination of
the chosen regions, aggregations, foldings and rounding rules, each checked by the one-test-set or k-fold
check), and prints the table of protocols and the conclusion (its text, or ``--json``), with an optional
HTML report. It joins the group of :mod:`benchtrust.cli.consistency`.
"""

import re

import typer

from benchtrust._io import InputError
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _check_report_path,
    _count,
    _one_line_errors,
    _print_result,
    _with_progress,
    _write_report,
)
from benchtrust.cli.consistency import (
    _BETA_OPTION,
    _DATASET_HELP,
    _EPS_OPTION,
    _SCORE_OPTION,
    _counts_or_dataset,
    _reported_options,
    consistency_app,
)


def _family_option(family: str, values: str, what: str):
    return typer.Option(
        None, f"--{family}", metavar=values, help=f"{what} Default: every value that applies."
    )


def _values(text: str) -> list[str]:
    """The comma-separated values of a ``--FAMILY`` option (checked by the library, which names them)."""
    return [part.strip().lower() for part in text.split(",")]


@consistency_app.command("protocols")
def protocols_command(
    dataset: str | None = typer.Option(
        None, "--dataset", metavar="NAME", help=_DATASET_HELP + "; its fov/all siblings are the regions."
    ),
    positives: str | None = typer.Option(None, "--positives", metavar="P", help="p, instead of --dataset."),
    negatives: str | None = typer.Option(None, "--negatives", metavar="N", help="n, instead of --dataset."),
    folds: str | None = typer.Option(
        None, "--folds", metavar="K", help="k, the folds one test set was cut into (mean or score of means)."
    ),
    scores: list[str] | None = _SCORE_OPTION,
    region: str | None = _family_option(
        "region", "fov,all", "Pixels in the field of view, all pixels (a named retinal set)."
    ),
    aggregation: str | None = _family_option(
        "aggregation",
        "mean_of_scores,pooled,score_of_means",
        "Mean of per-image (per-fold) scores, one test set of the pooled counts, score of means (the "
        "paper's mos, som).",
    ),
    folding: str | None = _family_option(
        "folding", "stratified,unknown", "The folds' class counts, for the mean of scores over --folds."
    ),
    rounding: str | None = _family_option(
        "rounding", "round,floor-or-ceil", "How the scores were cut to their decimals (ε ½·10^-d or 10^-d)."
    ),
    eps: str | None = _EPS_OPTION,
    beta: str | None = _BETA_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Which evaluation protocols could give the scores? Each candidate checked (paper §3-4, §5.1)"""

    def command():
        options = _reported_options(scores, eps, "round", beta)
        del options["rounding"]  # here a family of candidates, not one rule
        _counts_or_dataset(positives, negatives, dataset)
        if dataset is None:
            options.update(
                positives=_count(positives, "--positives"), negatives=_count(negatives, "--negatives")
            )
        else:
            options["dataset"] = dataset
        if folds is not None:
            options["folds"] = _count(folds, "--folds")
        chosen = {"region": region, "aggregation": aggregation, "folding": folding, "rounding": rounding}
        options["candidates"] = {family: _values(text) for family, text in chosen.items() if text is not None}
        if report is not None:
            _check_report_path(report)

        from benchtrust.consistency import check_protocols

        try:
            result = _with_progress(
                "checking every protocol", json_output, lambda progress: check_protocols(**options)
            )
        except InputError as exc:
            message = re.sub(r"^(candidates\['(\w+)'\]|dataset)(?=:)", _option, str(exc))
            raise InputError(message) from None
        _print_result(result, json_output, lambda: str(result))
        if report is not None:
            _write_report(report, result.section(), json_output)

    _one_line_errors(command)


def _option(match) -> str:
    """The option a library argument named in an error message stands for."""
    return f"--{match[2] or match[1]}"
