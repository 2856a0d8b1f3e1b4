"""``benchtrust consistency``: could these reported scores have come from the experiment described?

``test-set`` (one test set, paper §3), ``kfold`` (k-fold cross-validation, §4), ``multiclass`` (averaged
one-vs-rest scores, of one test set or, with ``--folds``, of k folds) and ``batch`` (a table of claims)
check their options, call :mod:`benchtrust.consistency`, and print the result (its text, or ``--json``),
with an optional HTML report. ``datasets`` lists the named test sets that ``--dataset NAME`` takes instead
of the counts.
"""

import dataclasses

import typer

from benchtrust._io import InputError, json_text
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _check_report_path,
    _count,
    _count_or_zero,
    _group,
    _jobs,
    _number,
    _one_line_errors,
    _print_result,
    _with_progress,
    _write_report,
)

consistency_app = _group(
    "consistency", "Could these reported scores have come from the experiment described?"
)


# The options every consistency command shares.
_SCORE_OPTION = typer.Option(
    None,
    "--score",
    metavar="NAME=VALUE",
    help="A reported score, as printed (e.g. acc=0.9400: 4 decimals); repeat for each score.",
)
_EPS_OPTION = typer.Option(
    None,
    "--eps",
    metavar="E",
    help="ε, the numerical uncertainty of every score (default: from the decimals as written).",
)
_ROUNDING_OPTION = typer.Option(
    "round",
    "--rounding",
    metavar="round|floor-or-ceil",
    help="How the scores were shortened, for ε from the decimals: ½·10^-d or 10^-d.",
)
_BETA_OPTION = typer.Option(None, "--beta", metavar="B", help="β of the F-beta scores.")
_MAX_WORK_OPTION = typer.Option(
    "5e9",
    "--max-work",
    metavar="W",
    help="Refuse a check estimated to take more than W score evaluations (some 50 million a second); "
    "scores linear in tp and tn, or ratios of such counts (acc, sens, spec, bacc, f1, ppv, ...), need none.",
)
#: A check estimated to take more score evaluations than this (some 2 s) shows a progress bar (on a
#: terminal, without --json).
_QUICK_WORK = 10**8
_DATASET_HELP = "A named test set instead of the counts (benchtrust consistency datasets lists them)"

# The options of cross-validation: kfold's, and multiclass's with --folds.
_FOLDS_OPTION = typer.Option(None, "--folds", metavar="K", help="k, the number of folds.")
_REPEATS_OPTION = typer.Option(None, "--repeats", metavar="R", help="Repetitions of the k folds.")
_AGGREGATION_OPTION = typer.Option(
    None,
    "--aggregation",
    metavar="mean_of_scores|score_of_means",
    help="Mean of the folds' scores, or score of the summed counts (the paper's mos, som).",
)
_MAX_STATES_OPTION = typer.Option(
    None,
    "--max-states",
    metavar="S",
    help="The most states a step of the exact search may hold when HiGHS's answer needs checking.",
)


def _named_dataset(name: str):
    """The :class:`~benchtrust.consistency.TestSetCounts` named by ``--dataset``."""
    from benchtrust.consistency import dataset

    try:
        return dataset(name)
    except InputError as exc:
        raise InputError(f"--{exc}" if str(exc).startswith("dataset:") else str(exc)) from None


def _counts_or_dataset(positives, negatives, dataset) -> None:
    """InputError unless the test set is given one way: --dataset NAME, or --positives and --negatives."""
    if dataset is not None and (positives is not None or negatives is not None):
        raise InputError("--dataset gives the counts: give it or --positives and --negatives, not both")
    if dataset is None:
        for option, value in {"--positives": positives, "--negatives": negatives}.items():
            if value is None:
                raise InputError(f"{option} is required (the counts of the test set), or --dataset NAME")


def _choice(text: str, option: str, choices: tuple[str, ...]) -> str:
    """`text` given to `option`, if it is one of `choices` (any case)."""
    if text.strip().lower() not in choices:
        raise InputError(f"{option}: expected {' or '.join(choices)}, got {text!r}")
    return text.strip().lower()


def _aggregation(text: str | None) -> str:
    """``--aggregation``, required by cross-validation: mean_of_scores or score_of_means (mos, som)."""
    if text is None:
        raise InputError(
            "--aggregation is required: mean_of_scores (mean of the folds' scores) or score_of_means "
            "(score of means)"
        )
    value = _choice(text, "--aggregation", ("mean_of_scores", "score_of_means", "mos", "som"))
    return {"mos": "mean_of_scores", "som": "score_of_means"}.get(value, value)


def _quick_or_with_progress(description: str, json_output: bool, max_work: int, check):
    """``check(max_work, progress)``, with a progress bar (unless `json_output`) only when the check says
    it needs more than :data:`_QUICK_WORK` score evaluations: it is tried with that budget first, which it
    refuses before it starts."""
    try:
        return _with_progress(description, True, lambda progress: check(min(max_work, _QUICK_WORK), progress))
    except InputError:
        if max_work <= _QUICK_WORK:
            raise
    return _with_progress(description, json_output, lambda progress: check(max_work, progress))


def _reported_options(score_texts, eps, rounding, beta, own=()) -> dict:
    """The options shared by every consistency command, checked: scores (name -> text as typed), ε, ...

    ``own`` names scores of the command's own, not aliases of a binary one (multiclass: accuracy_score).
    """
    import math

    from benchtrust.consistency import score

    if not score_texts:
        raise InputError("give the reported scores: --score NAME=VALUE for each, such as --score acc=0.94")
    scores, canonical = {}, {}
    for text in score_texts:
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
    options = {"rounding": _choice(rounding, "--rounding", ("round", "floor-or-ceil"))}
    if eps is not None:
        options["eps"] = _number(eps, "--eps")
        if not 0 <= options["eps"] < math.inf:
            raise InputError(f"--eps: expected a number >= 0, got {eps!r}")
    if beta is not None:
        options["beta"] = _number(beta, "--beta")
        if not 0 < options["beta"] < math.inf:
            raise InputError(f"--beta: expected a positive number, got {beta!r}")
    return {"scores": scores, **options}


@consistency_app.command("test-set")
def test_set_command(
    positives: str | None = typer.Option(
        None, "--positives", metavar="P", help="p, positives in the test set."
    ),
    negatives: str | None = typer.Option(
        None, "--negatives", metavar="N", help="n, negatives in the test set."
    ),
    scores: list[str] | None = _SCORE_OPTION,
    eps: str | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: str | None = _BETA_OPTION,
    dataset: str | None = typer.Option(
        None, "--dataset", metavar="NAME", help=_DATASET_HELP + "; the images of a collection are pooled."
    ),
    examples: str = typer.Option(
        "10", "--examples", metavar="K", help="List at most K of the matrices found."
    ),
    max_work: str = _MAX_WORK_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Could the scores come from one test set of p positives and n negatives? (paper §3)"""

    def command():
        _counts_or_dataset(positives, negatives, dataset)
        options = _reported_options(scores, eps, rounding, beta)
        if dataset is None:
            p = _count(positives, "--positives")
            n = _count(negatives, "--negatives")
        else:
            named = _named_dataset(dataset)
            p, n = named.positives, named.negatives
        shown = _count_or_zero(examples, "--examples")
        if report is not None:
            _check_report_path(report)

        work = _count(max_work, "--max-work")

        from benchtrust.consistency import check_test_set

        reported = options.pop("scores")
        result = _quick_or_with_progress(
            "searching the confusion matrices",
            json_output,
            work,
            lambda budget, progress: check_test_set(
                reported,
                positives=p,
                negatives=n,
                examples=shown,
                max_work=budget,
                progress=progress,
                **options,
            ),
        )
        _print_result(result, json_output, lambda: str(result))
        if report is not None:
            _write_report(report, result.section(), json_output)

    _one_line_errors(command)


@consistency_app.command("kfold")
def kfold_command(
    positives: list[str] | None = typer.Option(
        None, "--positives", metavar="P", help="p, positives in the data set; repeat for several data sets."
    ),
    negatives: list[str] | None = typer.Option(
        None, "--negatives", metavar="N", help="n, negatives in the data set; one per --positives."
    ),
    folds: str | None = _FOLDS_OPTION,
    repeats: str | None = _REPEATS_OPTION,
    aggregation: str | None = _AGGREGATION_OPTION,
    folding: str | None = typer.Option(
        None,
        "--folding",
        metavar="stratified|unknown|FILE",
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
    max_configurations: str = typer.Option(
        "10000000", "--max-configurations", metavar="M", help="With unknown folds: refuse to try more than M."
    ),
    max_work: str = typer.Option(
        "50000",
        "--max-work",
        metavar="W",
        help="With unknown folds: stop undecided after the exact search has decided W fold configurations.",
    ),
    max_states: str | None = _MAX_STATES_OPTION,
    zero_division: str = typer.Option(
        "any",
        "--zero-division",
        metavar="0|1|skip|any",
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
    eps: str | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: str | None = _BETA_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Could the scores come from k-fold cross-validation of these data sets? (paper §4)"""

    def command():
        options = _reported_options(scores, eps, rounding, beta)
        options["aggregation"] = _aggregation(aggregation)
        read = folding is not None and folding.strip().lower() not in ("stratified", "unknown")
        if dataset is None:
            options.update(_kfold_counts(positives, negatives, folds, folding))
        else:
            options.update(_dataset_counts(dataset, positives, negatives, folds, folding))
        if repeats is not None:
            options["repeats"] = _count(repeats, "--repeats")
        if bounds:
            options["bounds"] = _bounds(bounds)
        options["max_configurations"] = _count(max_configurations, "--max-configurations")
        options["max_work"] = _count(max_work, "--max-work")
        if fold_sizes:
            options["fold_sizes"] = _fold_sizes(fold_sizes)
        if partial_folds:
            options["partial"] = True
        options["zero_division"] = _choice(zero_division, "--zero-division", ("0", "1", "skip", "any"))
        if max_states is not None:
            options["max_states"] = _count(max_states, "--max-states")
        if report is not None:
            _check_report_path(report)

        from benchtrust.consistency import check_kfold

        reported = options.pop("scores")
        slow = options["aggregation"] == "mean_of_scores" and options.get("folding", "unknown") == "unknown"
        result = _with_progress(
            "trying every fold configuration",
            json_output or not slow,
            lambda progress: _options_named(lambda: check_kfold(reported, progress=progress, **options)),
        )
        if read:
            result = dataclasses.replace(result, inputs=(folding,))
        _print_result(result, json_output, lambda: str(result))
        if report is not None:
            _write_report(report, result.section(), json_output)

    _one_line_errors(command)


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


def _options_named(check):
    """``check()``, its errors naming ``fold_sizes`` and ``partial`` as the options typed."""
    import re

    try:
        return check()
    except InputError as exc:
        text = str(exc).replace("partial=True", "--partial-folds")
        text = re.sub(r"\bfold_sizes\b", "--fold-sizes", text)
        raise InputError(re.sub(r"^partial:", "--partial-folds:", text)) from None


def _kfold_counts(positives, negatives, folds, folding) -> dict:
    """positives, negatives, folds and folding of ``consistency kfold``, checked.

    A FILE of folds is read; without --positives, --negatives and --folds they are taken from it: the sums
    of its folds and their number, for each data set.
    """
    out = {}
    if folding is not None and folding.strip().lower() in ("stratified", "unknown"):
        out["folding"] = folding.strip().lower()
    elif folding is not None:
        from benchtrust.consistency import read_folding

        out["folding"] = read_folding(folding)
        sets = out["folding"] if isinstance(out["folding"][0], list) else [out["folding"]]
        if not (positives or negatives or folds):
            if len({len(folds_of_set) for folds_of_set in sets}) > 1:
                raise InputError(f"--folding {folding}: the data sets have different numbers of folds")
            positives = [str(sum(p for p, _ in folds_of_set)) for folds_of_set in sets]
            negatives = [str(sum(n for _, n in folds_of_set)) for folds_of_set in sets]
            folds = str(len(sets[0]))
    if positives and negatives and len(positives) != len(negatives):
        raise InputError(
            f"--positives is given {len(positives)} times and --negatives {len(negatives)}: "
            "give one of each per data set"
        )
    for option, values in {"--positives": positives, "--negatives": negatives, "--folds": folds}.items():
        if not values:
            raise InputError(f"{option} is required (or --folding FILE, whose folds give it)")
    p = [_count(text, "--positives") for text in positives]
    n = [_count(text, "--negatives") for text in negatives]
    out.update(
        positives=p[0] if len(p) == 1 else p,
        negatives=n[0] if len(n) == 1 else n,
        folds=_count(folds, "--folds"),
    )
    return out


def _dataset_counts(name, positives, negatives, folds, folding) -> dict:
    """positives, negatives, folds and folding of ``consistency kfold --dataset NAME``, checked.

    The images of a per-image collection are its folds (--folding cannot be given); one test set is cut
    into --folds folds, as with its counts given.
    """
    if positives or negatives:
        raise InputError("--dataset gives the counts: give it or --positives and --negatives, not both")
    named = _named_dataset(name)
    if not named.folds:
        return _kfold_counts([str(named.positives)], [str(named.negatives)], folds, folding)
    if folding is not None:
        raise InputError(
            f"--folding: the {len(named.folds)} {named.item_word} of {named.name} are its folds; "
            "leave --folding out"
        )
    return named.kfold_options(None if folds is None else _count(folds, "--folds"))


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
    class_counts: str | None = typer.Option(
        None,
        "--class-counts",
        metavar="N1,N2,...",
        help="Items of each class in the test set (in the data set, with --folds), such as 50,30,20.",
    ),
    average: str | None = typer.Option(
        None, "--average", metavar="micro|macro", help="How the classes' one-vs-rest scores were averaged."
    ),
    scores: list[str] | None = _SCORE_OPTION,
    eps: str | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    beta: str | None = _BETA_OPTION,
    examples: str | None = typer.Option(
        None, "--examples", metavar="K", help="List at most K of the solutions found (one test set; 10)."
    ),
    max_work: str = _MAX_WORK_OPTION,
    folds: str | None = _FOLDS_OPTION,
    repeats: str | None = _REPEATS_OPTION,
    aggregation: str | None = _AGGREGATION_OPTION,
    folding: str | None = typer.Option(
        None,
        "--folding",
        metavar="stratified|unknown|FILE",
        help="The folds' class counts (mean of scores): stratified, unknown (all tried), or a CSV with a "
        "header naming the classes and a line of class counts per fold.",
    ),
    zero_division: str | None = typer.Option(
        None,
        "--zero-division",
        metavar="0|1|skip|any",
        help="Macro mean of scores: a class's score undefined in a fold (no items of the class, or only "
        "them) counted as 0, 1, left out of the fold's mean, or any of these (the default).",
    ),
    max_configurations: str | None = typer.Option(
        None,
        "--max-configurations",
        metavar="M",
        help="Macro mean of scores with unknown folds: refuse to try more than M configurations (default "
        "1000).",
    ),
    max_states: str | None = _MAX_STATES_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Could the averaged scores come from a multiclass test set, or k folds, with these class counts?"""

    def command():
        options = _reported_options(scores, eps, rounding, beta, own=("accuracy_score",))
        if class_counts is None:
            raise InputError("--class-counts is required: the items of each class, such as 50,30,20")
        counts = [part.strip() for part in class_counts.split(",")]
        if not all(counts):
            raise InputError(
                f"--class-counts: expected whole numbers separated by commas, got {class_counts!r}"
            )
        options["class_counts"] = [_count(text, "--class-counts") for text in counts]
        if average is None:
            raise InputError("--average is required: micro or macro")
        options["average"] = _choice(average, "--average", ("micro", "macro"))
        given = {
            "--folds": folds,
            "--repeats": repeats,
            "--aggregation": aggregation,
            "--folding": folding,
            "--zero-division": zero_division,
            "--max-configurations": max_configurations,
            "--max-states": max_states,
        }
        if folds is None:
            for option, value in given.items():
                if value is not None:
                    raise InputError(f"{option}: describes the folds; give --folds K too, or leave it out")
        elif examples is not None:
            raise InputError("--examples: lists the solutions of one test set; leave it out with --folds")
        if report is not None:
            _check_report_path(report)

        work = _count(max_work, "--max-work")
        if folds is not None:
            _multiclass_kfold(options, given, work, json_output, report)
            return
        shown = _count_or_zero("10" if examples is None else examples, "--examples")

        from benchtrust.consistency import check_multiclass

        reported = options.pop("scores")
        result = _quick_or_with_progress(
            "checking every number of correct items",
            json_output,
            work,
            lambda budget, progress: check_multiclass(
                reported, examples=shown, max_work=budget, progress=progress, **options
            ),
        )
        _print_result(result, json_output, lambda: str(result))
        if report is not None:
            _write_report(report, result.section(), json_output)

    _one_line_errors(command)


def _multiclass_kfold(options, given, max_work, json_output, report) -> None:
    """``multiclass --folds K``: the options of the folds (``given``, option -> text) checked, the k-fold
    check run and printed (paper §4); a ``--folding FILE`` is read as its reader says."""
    options["folds"] = _count(given["--folds"], "--folds")
    options["aggregation"] = _aggregation(given["--aggregation"])
    if given["--repeats"] is not None:
        options["repeats"] = _count(given["--repeats"], "--repeats")
    folding = given["--folding"]
    read = folding is not None and folding.strip().lower() not in ("stratified", "unknown")
    if not read and folding is not None:
        options["folding"] = folding.strip().lower()
    elif read:
        if not folding.strip():
            raise InputError("--folding: expected stratified, unknown or a CSV file of the folds, got ''")
        from benchtrust.consistency import read_class_folds

        options["folding"] = read_class_folds(
            folding, class_counts=options["class_counts"], folds=options["folds"]
        )
    if given["--zero-division"] is not None:
        options["zero_division"] = _choice(
            given["--zero-division"], "--zero-division", ("0", "1", "skip", "any")
        )
    for option in ("--max-configurations", "--max-states"):
        if given[option] is not None:
            options[option[2:].replace("-", "_")] = _count(given[option], option)

    from benchtrust.consistency import check_multiclass_kfold

    reported = options.pop("scores")
    slow = (options["aggregation"], options["average"], options.get("folding", "unknown")) == (
        "mean_of_scores",
        "macro",
        "unknown",
    )
    result = _with_progress(
        "trying every fold configuration",
        json_output or not slow,
        lambda progress: check_multiclass_kfold(reported, max_work=max_work, **options),
    )
    if read:
        result = dataclasses.replace(result, inputs=(folding,))
    _print_result(result, json_output, lambda: str(result))
    if report is not None:
        _write_report(report, result.section(), json_output)


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
            typer.echo(json_text({"datasets": [counts.to_dict() for counts in found]}))
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
    jobs: str = typer.Option(
        "1", "--jobs", metavar="N", help="Rows checked in parallel (-1: one per CPU; at most one per CPU)."
    ),
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Check every claim of a table: one test set (§3), k folds (§4) or which protocol fits (§5.1)."""

    def command():
        import os
        import re

        n_jobs = _jobs(jobs)
        if report is not None:
            _check_report_path(report)

        from benchtrust.consistency import check_batch

        columns = {
            "id_column": id_column,
            "positives_column": positives_column,
            "negatives_column": negatives_column,
            "folds_column": folds_column,
            "dataset_column": dataset_column,
        }
        try:
            result = _with_progress(
                "checking claims",
                json_output,
                lambda progress: check_batch(claims, **columns, n_jobs=n_jobs, progress=progress, out=out),
            )
        except InputError as exc:  # --out is checked before any claim (that it is no input: see _common)
            raise InputError(re.sub(r"^out: cannot write", "--out: cannot write", str(exc))) from None
        result = dataclasses.replace(result, every_row=_EVERY_ROW)
        _print_result(result, json_output, lambda: str(result))
        if out is not None:
            typer.echo(f"verdicts written to {os.fspath(out)}", err=json_output)
        if report is not None:
            _write_report(report, result.section(), json_output)

    _one_line_errors(command)


#: What the readable batch summary says when it leaves out rows that are not consistent.
_EVERY_ROW = "--out FILE.csv writes every row"
