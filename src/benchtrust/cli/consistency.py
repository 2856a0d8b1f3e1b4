"""``benchtrust consistency``: could these reported scores have come from the experiment described?

``test-set`` (one test set, paper §3), ``kfold`` (k-fold cross-validation, §4), ``multiclass`` (averaged
one-vs-rest scores, of one test set or, with ``--folds``, of k folds) and ``batch`` (a table of claims)
parse their options into the arguments of their analysis in the table of analyses
(:mod:`benchtrust._report.analyses`), run it, and print the result (its text, or ``--json``), with an
optional HTML report. ``datasets`` lists the named test sets that ``--dataset NAME`` takes instead of the
counts.
"""

import contextlib
import dataclasses
import math
import os
import re
from collections.abc import Sequence

import typer

from benchtrust._io import InputError, json_text
from benchtrust._report.analyses import run_analysis
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _SCHEDULER_OPTION,
    _check_report_path,
    _choice,
    _count,
    _count_or_zero,
    _group,
    _jobs,
    _number,
    _number_or_zero,
    _on_scheduler,
    _one_line_errors,
    _one_of,
    _positive_number,
    _with_progress,
    _write_report,
    show_result,
    typed_option,
)

consistency_app: typer.Typer = _group(
    "consistency", "Could these reported scores have come from the experiment described?"
)


# --- the options' parsers -----------------------------------------------------------------------------------


def _aggregation(text: str, option: str) -> str:
    """``--aggregation``: mean_of_scores or score_of_means (the paper's mos, som)."""
    value = _choice(text, option, ("mean_of_scores", "score_of_means", "mos", "som"))
    return {"mos": "mean_of_scores", "som": "score_of_means"}.get(value, value)


def _folding(text: str, option: str) -> str:
    """``--folding``: stratified or unknown (any case), or the name of a file of folds, as typed."""
    word = text.strip().lower()
    if not word:
        raise InputError(f"{option}: expected stratified, unknown or a CSV file of the folds, got ''")
    return word if word in ("stratified", "unknown") else text


def _class_counts(text: str, option: str) -> list[int]:
    """``--class-counts``: positive whole numbers separated by commas (``50,30,20``)."""
    counts = [part.strip() for part in text.split(",")]
    if not all(counts):
        raise InputError(f"{option}: expected whole numbers separated by commas, got {text!r}")
    return [_count(count, option) for count in counts]


# --- what the commands share --------------------------------------------------------------------------------

_SCORE_OPTION = typer.Option(
    None,
    "--score",
    metavar="NAME=VALUE",
    help="A reported score, as printed (e.g. acc=0.9400: 4 decimals); repeat for each score.",
)
_EPS_OPTION = typed_option(
    None,
    "--eps",
    metavar="E",
    parse=_number_or_zero,
    help="ε, the numerical uncertainty of every score (default: from the decimals as written).",
)
_ROUNDING_OPTION = typed_option(
    "round",
    "--rounding",
    metavar="round|floor-or-ceil",
    parse=_one_of("round", "floor-or-ceil"),
    help="How the scores were shortened, for ε from the decimals: ½·10^-d or 10^-d.",
)
_BETA_OPTION = typed_option(
    None, "--beta", metavar="B", parse=_positive_number, help="β of the F-beta scores."
)
_MAX_WORK_OPTION = typed_option(
    "5e9",
    "--max-work",
    metavar="W",
    parse=_count,
    help="Refuse a check estimated to take more than W score evaluations (some 50 million a second); "
    "scores linear in tp and tn, or ratios of such counts (acc, sens, spec, bacc, f1, ppv, ...), need none.",
)
#: A check estimated to take more score evaluations than this (some 2 s) shows a progress bar (on a
#: terminal, without --json).
_QUICK_WORK = 10**8
_DATASET_HELP = "A named test set instead of the counts (benchtrust consistency datasets lists them)"

# The options of cross-validation: kfold's, and multiclass's with --folds.
_FOLDS_OPTION = typed_option(None, "--folds", metavar="K", parse=_count, help="k, the number of folds.")
_REPEATS_OPTION = typed_option(
    None, "--repeats", metavar="R", parse=_count, help="Repetitions of the k folds."
)
_AGGREGATION_OPTION = typed_option(
    None,
    "--aggregation",
    metavar="mean_of_scores|score_of_means",
    parse=_aggregation,
    help="Mean of the folds' scores, or score of the summed counts (the paper's mos, som).",
)
_MAX_STATES_OPTION = typed_option(
    None,
    "--max-states",
    metavar="S",
    parse=_count,
    help="The most states a step of the exact search may hold when HiGHS's answer needs checking.",
)
_ZERO_DIVISION = _one_of("0", "1", "skip", "any")
# kfold's counts, given once per data set.
_DATA_SETS_POSITIVES_OPTION = typed_option(
    None,
    "--positives",
    metavar="P",
    parse=_count,
    help="p, positives in the data set; repeat for several data sets.",
)
_DATA_SETS_NEGATIVES_OPTION = typed_option(
    None, "--negatives", metavar="N", parse=_count, help="n, negatives in the data set; one per --positives."
)

_DATASET = (r"^dataset(?=:)", "--dataset")
#: analysis -> what the library calls the values of its command's options, where that is not the option's
#: name (which ``_error_line`` writes as typed): a pattern of an error message, and the option it stands for.
_OPTIONS = {
    "consistency test-set": (_DATASET,),
    "consistency kfold": (
        _DATASET,
        (r"^folds(?= is required)", "--folds"),
        (r"^partial(?=:)|partial=True", "--partial-folds"),
        (r"(?<![\w./\\-])fold_sizes(?![\w.-])", "--fold-sizes"),  # not in a file's name
    ),
    "consistency protocols": (_DATASET, (r"^candidates\['(\w+)'\](?=:)", r"--\1")),
    "consistency regression": ((r"target_variance", "--variance"),),
    "consistency batch": ((r"^out(?=: cannot write)", "--out"),),
}


@contextlib.contextmanager
def _options_named(name: str):
    """An InputError raised in the block, by the analysis `name`, names the options as typed
    (:data:`_OPTIONS`)."""
    try:
        yield
    except InputError as exc:
        message = str(exc)
        for pattern, option in _OPTIONS.get(name, ()):
            message = re.sub(pattern, option, message)
        raise InputError(message) from None


def _analysis(name: str, arguments: dict, progress=None):
    """The analysis `name` run on `arguments` (:func:`run_analysis`), its errors naming the options."""
    with _options_named(name):
        return run_analysis(name, arguments, progress=progress)


def _scores(texts, own=()) -> dict:
    """The ``--score NAME=VALUE`` options as the ``scores`` of an analysis: name -> value as typed (its
    decimals give its ε), each a known score (or one of `own`, the command's own, such as multiclass's
    accuracy_score), none twice under two names."""
    from benchtrust.consistency import score

    if not texts:
        raise InputError("give the reported scores: --score NAME=VALUE for each, such as --score acc=0.94")
    scores: dict[str, str] = {}
    canonical: dict[str, str] = {}  # a score's canonical name -> its name as given
    for text in texts:
        name, equals, value = (part.strip() for part in text.partition("="))
        if not (equals and name and value):
            raise InputError(f"--score: expected NAME=VALUE, such as acc=0.94, got {text!r}")
        try:
            key = name.lower().replace("-", "_")
            found = key if key in own else score(name).name
        except InputError as exc:
            raise InputError(f"--score {text}: {exc}") from None
        if found in canonical:
            same = "given twice" if canonical[found] == name else f"the same score as {canonical[found]}"
            raise InputError(f"--score {text}: {name} is {same} ({found})")
        canonical[found] = name
        if not math.isfinite(_number(value, f"--score {name}")):
            raise InputError(f"--score {name}: expected a finite number, got {value!r}")
        scores[name] = value
    return scores


def _aggregation_given(aggregation) -> None:
    """InputError unless ``--aggregation`` is given: cross-validation needs it."""
    if aggregation is None:
        raise InputError(
            "--aggregation is required: mean_of_scores (mean of the folds' scores) or score_of_means "
            "(score of means)"
        )


def _dataset_alone(positives, negatives, dataset) -> None:
    """InputError if ``--dataset NAME`` is given with the counts it gives."""
    if dataset is not None and (positives or negatives):
        raise InputError("--dataset gives the counts: give it or --positives and --negatives, not both")


def _counts_or_dataset(positives, negatives, dataset) -> None:
    """InputError unless the test set is given one way: --dataset NAME, or --positives and --negatives."""
    _dataset_alone(positives, negatives, dataset)
    if dataset is None:
        for option, value in {"--positives": positives, "--negatives": negatives}.items():
            if value is None:
                raise InputError(f"{option} is required (the counts of the test set), or --dataset NAME")


def _quick_or_with_progress(name: str, description: str, arguments: dict, json_output: bool):
    """The analysis `name` run on `arguments`, with a progress bar (unless `json_output`) only when it
    says it needs more than :data:`_QUICK_WORK` score evaluations: it is run with that budget first, which
    it refuses before it starts, then with its ``max_work``."""

    def run(budget, progress):
        return _analysis(name, {**arguments, "max_work": budget}, progress)

    max_work = arguments["max_work"]
    try:
        return _with_progress(description, True, lambda progress: run(min(max_work, _QUICK_WORK), progress))
    except InputError:
        if max_work <= _QUICK_WORK:
            raise
    return _with_progress(description, json_output, lambda progress: run(max_work, progress))


# --- the commands -------------------------------------------------------------------------------------------


@consistency_app.command("test-set")
def test_set_command(
    positives: int | None = typed_option(
        None, "--positives", metavar="P", parse=_count, help="p, positives in the test set."
    ),
    negatives: int | None = typed_option(
        None, "--negatives", metavar="N", parse=_count, help="n, negatives in the test set."
    ),
    scores: list[str] | None = _SCORE_OPTION,
    eps: float | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: float | None = _BETA_OPTION,
    dataset: str | None = typer.Option(
        None, "--dataset", metavar="NAME", help=_DATASET_HELP + "; the images of a collection are pooled."
    ),
    examples: int = typed_option(
        "10", "--examples", metavar="K", parse=_count_or_zero, help="List at most K of the matrices found."
    ),
    max_work: int = _MAX_WORK_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Could the scores come from one test set of p positives and n negatives? (paper §3)"""

    def command():
        _counts_or_dataset(positives, negatives, dataset)
        arguments = {
            "scores": _scores(scores),
            "dataset": dataset,
            "positives": positives,
            "negatives": negatives,
            "eps": eps,
            "rounding": rounding,
            "beta": beta,
            "examples": examples,
            "max_work": max_work,
        }
        if report is not None:
            _check_report_path(report)
        result = _quick_or_with_progress(
            "consistency test-set", "searching the confusion matrices", arguments, json_output
        )
        show_result(result, json_output=json_output, report=report)

    _one_line_errors(command)


@consistency_app.command("kfold")
def kfold_command(
    positives: list[int] | None = _DATA_SETS_POSITIVES_OPTION,
    negatives: list[int] | None = _DATA_SETS_NEGATIVES_OPTION,
    folds: int | None = _FOLDS_OPTION,
    repeats: int | None = _REPEATS_OPTION,
    aggregation: str | None = _AGGREGATION_OPTION,
    folding: str | None = typed_option(
        None,
        "--folding",
        metavar="stratified|unknown|FILE",
        parse=_folding,
        help="The folds' counts (mean of scores): stratified, unknown (all tried), or a CSV of "
        "positives,negatives.",
    ),
    fold_sizes: list[str] | None = typer.Option(
        None,
        "--fold-sizes",
        metavar="S1,S2,...|any",
        help="With unknown folds (mean of scores): the folds' sizes, e.g. 4,2 (GroupKFold, LeaveOneGroupOut, "
        "PredefinedSplit; repeat per data set), or any (every split into k non-empty folds). Default: sizes "
        "within one of each other (KFold, StratifiedKFold).",
    ),
    partial_folds: bool = typer.Option(
        False,
        "--partial-folds",
        help="The --fold-sizes cover part of the data set (TimeSeriesSplit: k folds of n_samples // (k+1)).",
    ),
    max_configurations: int = typed_option(
        "10000000",
        "--max-configurations",
        metavar="M",
        parse=_count,
        help="With unknown folds: refuse to try more than M.",
    ),
    max_work: int = typed_option(
        "50000",
        "--max-work",
        metavar="W",
        parse=_count,
        help="With unknown folds: stop undecided after the exact search has decided W fold configurations.",
    ),
    max_states: int | None = _MAX_STATES_OPTION,
    zero_division: str = typed_option(
        "any",
        "--zero-division",
        metavar="0|1|skip|any",
        parse=_ZERO_DIVISION,
        help="A fold score undefined in a fold (no positives or negatives) counted as 0 (scikit-learn's "
        "default), 1, left out of the mean, or any of these (mean of scores).",
    ),
    bounds: list[str] | None = typer.Option(
        None,
        "--bound",
        metavar="NAME=MIN:MAX",
        help="The smallest and largest fold score reported (mean of scores).",
    ),
    dataset: str | None = typer.Option(
        None,
        "--dataset",
        metavar="NAME",
        help=_DATASET_HELP + "; the images of a collection are its folds.",
    ),
    scores: list[str] | None = _SCORE_OPTION,
    eps: float | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: float | None = _BETA_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Could the scores come from k-fold cross-validation of these data sets? (paper §4)"""

    def command():
        reported = _scores(scores)
        _aggregation_given(aggregation)
        _dataset_alone(positives, negatives, dataset)
        if dataset is None:
            _kfold_counts(positives, negatives, folds, folding)
        arguments = {
            "scores": reported,
            "dataset": dataset,
            "positives": _one_or_all(positives),
            "negatives": _one_or_all(negatives),
            "folds": folds,
            "repeats": repeats,
            "aggregation": aggregation,
            "folding": folding,
            "eps": eps,
            "rounding": rounding,
            "beta": beta,
            "bounds": _bounds(bounds) if bounds else None,
            "zero_division": zero_division,
            "fold_sizes": _fold_sizes(fold_sizes) if fold_sizes else None,
            "partial": partial_folds or None,
            "max_configurations": max_configurations,
            "max_work": max_work,
            "max_states": max_states,
        }
        if report is not None:
            _check_report_path(report)
        slow = aggregation == "mean_of_scores" and (folding or "unknown") == "unknown"
        result = _with_progress(
            "trying every fold configuration",
            json_output or not slow,
            lambda progress: _analysis("consistency kfold", arguments, progress),
        )
        show_result(result, json_output=json_output, report=report)

    _one_line_errors(command)


def _one_or_all(values):
    """The values of a repeated option: None (not given), the one value, or the list of them."""
    if not values:
        return None
    return values[0] if len(values) == 1 else list(values)


def _kfold_counts(positives, negatives, folds, folding) -> None:
    """InputError unless ``consistency kfold`` has its data sets: --positives and --negatives, one of each
    per data set, and --folds; a --folding FILE gives all three when none is given (the sums of its folds
    and their number, for each data set)."""
    if positives and negatives and len(positives) != len(negatives):
        raise InputError(
            f"--positives is given {len(positives)} times and --negatives {len(negatives)}: "
            "give one of each per data set"
        )
    if folding in (None, "stratified", "unknown") or positives or negatives or folds is not None:
        for option, value in {"--positives": positives, "--negatives": negatives, "--folds": folds}.items():
            if not value:
                raise InputError(f"{option} is required (or --folding FILE, whose folds give it)")


def _fold_sizes(texts: list[str]):
    """``--fold-sizes``: ``any``, or per data set the sizes as whole numbers >= 1 (``4,2``)."""
    if len(texts) == 1 and texts[0].strip().lower() == "any":
        return "any"
    out = []
    for text in texts:
        if text.strip().lower() == "any":
            raise InputError("--fold-sizes: any stands alone; give it once, not with sizes")
        out.append([_count(part, "--fold-sizes") for part in text.split(",")])
    return out[0] if len(out) == 1 else out


def _bounds(texts) -> dict:
    """``--bound NAME=MIN:MAX`` options as {name: (min, max)}, the numbers kept as typed."""
    from benchtrust.consistency import score

    out, seen = {}, {}
    for text in texts:
        name, equals, interval = (part.strip() for part in text.partition("="))
        low, colon, high = (part.strip() for part in interval.partition(":"))
        if not (equals and colon and name and low and high):
            raise InputError(f"--bound: expected NAME=MIN:MAX, such as acc=0.91:0.97, got {text!r}")
        try:
            found = score(name).name
        except InputError as exc:
            raise InputError(f"--bound {text}: {exc}") from None
        if found in seen:
            raise InputError(f"--bound {text}: a bound for {found} is given twice")
        seen[found] = name
        if not _number(low, f"--bound {name}") <= _number(high, f"--bound {name}"):
            raise InputError(f"--bound {text}: MIN is above MAX")
        out[name] = (low, high)  # as typed: their decimals give their ε
    return out


@consistency_app.command("multiclass")
def multiclass_command(
    class_counts: Sequence[int] | None = typed_option(
        None,
        "--class-counts",
        metavar="N1,N2,...",
        parse=_class_counts,
        help="Items of each class in the test set (in the data set, with --folds), such as 50,30,20.",
    ),
    average: str | None = typed_option(
        None,
        "--average",
        metavar="micro|macro",
        parse=_one_of("micro", "macro"),
        help="How the classes' one-vs-rest scores were averaged.",
    ),
    scores: list[str] | None = _SCORE_OPTION,
    eps: float | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: float | None = _BETA_OPTION,
    examples: int | None = typed_option(
        None,
        "--examples",
        metavar="K",
        parse=_count_or_zero,
        help="List at most K of the solutions found (one test set; 10).",
    ),
    max_work: int = _MAX_WORK_OPTION,
    folds: int | None = _FOLDS_OPTION,
    repeats: int | None = _REPEATS_OPTION,
    aggregation: str | None = _AGGREGATION_OPTION,
    folding: str | None = typed_option(
        None,
        "--folding",
        metavar="stratified|unknown|FILE",
        parse=_folding,
        help="The folds' class counts (mean of scores): stratified, unknown (all tried), or a CSV with a "
        "header naming the classes and a line of class counts per fold.",
    ),
    zero_division: str | None = typed_option(
        None,
        "--zero-division",
        metavar="0|1|skip|any",
        parse=_ZERO_DIVISION,
        help="Macro mean of scores: a class's score undefined in a fold (no items of the class, or only "
        "them) counted as 0, 1, left out of the fold's mean, or any of these (the default).",
    ),
    max_configurations: int | None = typed_option(
        None,
        "--max-configurations",
        metavar="M",
        parse=_count,
        help="Macro mean of scores with unknown folds: refuse to try more than M configurations (default "
        "1000).",
    ),
    max_states: int | None = _MAX_STATES_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Could the averaged scores come from a multiclass test set, or k folds, with these class counts?"""

    def command():
        reported = _scores(scores, own=("accuracy_score",))
        if class_counts is None:
            raise InputError("--class-counts is required: the items of each class, such as 50,30,20")
        if average is None:
            raise InputError("--average is required: micro or macro")
        of_folds = {
            "--folds": folds,
            "--repeats": repeats,
            "--aggregation": aggregation,
            "--folding": folding,
            "--zero-division": zero_division,
            "--max-configurations": max_configurations,
            "--max-states": max_states,
        }
        if folds is None:
            for option, value in of_folds.items():
                if value is not None:
                    raise InputError(f"{option}: describes the folds; give --folds K too, or leave it out")
        elif examples is not None:
            raise InputError("--examples: lists the solutions of one test set; leave it out with --folds")
        else:
            _aggregation_given(aggregation)
        arguments = {
            "scores": reported,
            "class_counts": class_counts,
            "average": average,
            "eps": eps,
            "rounding": rounding,
            "beta": beta,
            "examples": examples,
            "max_work": max_work,
            **{option[2:].replace("-", "_"): value for option, value in of_folds.items()},
        }
        if report is not None:
            _check_report_path(report)
        if folds is None:
            result = _quick_or_with_progress(
                "consistency multiclass", "checking every number of correct items", arguments, json_output
            )
        else:
            slow = (aggregation, average, folding or "unknown") == ("mean_of_scores", "macro", "unknown")
            result = _with_progress(
                "trying every fold configuration",
                json_output or not slow,
                lambda progress: _analysis("consistency multiclass", arguments, progress),
            )
        show_result(result, json_output=json_output, report=report)

    _one_line_errors(command)


@consistency_app.command("datasets")
def datasets_command(
    pattern: str | None = typer.Argument(
        None, metavar="[TEXT]", help="List only the names containing TEXT (any case), such as drive."
    ),
    json_output: bool = _JSON_OPTION,
) -> None:
    """List the named test sets that --dataset takes, with their counts."""

    def command():
        from benchtrust.consistency import dataset, dataset_names

        wanted = "" if pattern is None else pattern.strip().lower()
        found = [dataset(name) for name in dataset_names() if wanted in name.lower()]
        if not found:
            raise InputError(f"no named test set contains {pattern!r}")
        if json_output:
            from benchtrust import __version__

            datasets = [counts.to_dict() for counts in found]
            typer.echo(json_text({"datasets": datasets, "benchtrust_version": __version__}))
            return
        width = max(len(counts.name) for counts in found)
        typer.echo(f"{'name':<{width}}  {'items':>6}  {'positives':>12}  {'negatives':>13}")
        for counts in found:
            items = len(counts.folds) or ""
            typer.echo(
                f"{counts.name:<{width}}  {items:>6}  {counts.positives:>12,}  {counts.negatives:>13,}"
            )
        typer.echo(
            f"{len(found)} test sets. Items: the images (or batches) of a per-image collection, its "
            "folds for the mean of scores; their counts are summed for one test set."
        )

    _one_line_errors(command)


@consistency_app.command("batch")
def batch_command(
    claims: str = typer.Argument(
        ...,
        metavar="CLAIMS.csv",
        help="One claim per row: positives, negatives (or dataset), optionally folds, protocols (the "
        "candidates, such as region=fov|all;aggregation=mean_of_scores|pooled, or all) and more, one column "
        "per score.",
    ),
    id_column: str = typer.Option("id", "--id-column", metavar="NAME", help="The column naming each claim."),
    positives_column: str = typer.Option(
        "positives", "--positives-column", metavar="NAME", help="The column holding p, the positives."
    ),
    negatives_column: str = typer.Option(
        "negatives", "--negatives-column", metavar="NAME", help="The column holding n, the negatives."
    ),
    folds_column: str = typer.Option(
        "folds", "--folds-column", metavar="NAME", help="The column holding k (empty: one test set)."
    ),
    dataset_column: str = typer.Option(
        "dataset",
        "--dataset-column",
        metavar="NAME",
        help="The column naming a test set instead of its counts (benchtrust consistency datasets).",
    ),
    out: str | None = typer.Option(
        None, "--out", metavar="FILE.csv|FILE.json", help="Write every row's verdict to FILE (by its suffix)."
    ),
    jobs: int = typed_option(
        "-1",
        "--jobs",
        metavar="N",
        parse=_jobs,
        help="Workers checking the rows, once the first half-second of them is done, if the rest would take "
        "over 5 s more (-1, the default: one per CPU; at most one per CPU; 1: all in this process). The "
        "output is the same.",
    ),
    scheduler: str | None = _SCHEDULER_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Check every claim of a table: one test set (§3), k folds (§4) or which protocol fits (§5.1)."""

    def command():
        if report is not None:
            _check_report_path(report)
        arguments = {
            "claims": claims,
            "id_column": id_column,
            "positives_column": positives_column,
            "negatives_column": negatives_column,
            "folds_column": folds_column,
            "dataset_column": dataset_column,
            "n_jobs": -1 if scheduler is not None else jobs,  # every thread of the scheduler's workers
            "out": out,  # checked before any claim (that it is no input: see _common)
        }
        with _on_scheduler(scheduler):
            result = _with_progress(
                "checking claims",
                json_output,
                lambda progress: _analysis("consistency batch", arguments, progress),
            )
        result = dataclasses.replace(result, every_row=_EVERY_ROW)
        show_result(result, json_output=json_output)
        if out is not None:
            typer.echo(f"verdicts written to {os.fspath(out)}", err=json_output)
        _write_report(report, result.section(), json_output)

    _one_line_errors(command)


#: What the readable batch summary says when it leaves out rows that are not consistent.
_EVERY_ROW = "--out FILE.csv writes every row"
