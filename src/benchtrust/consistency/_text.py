"""The words about the consistency of reported scores (Fazekas & Kovács): the readable summaries of the
test-set, k-fold, multiclass and batch results, their verdicts in plain words, and the pieces of their
report sections (the question, the table of reported scores, the ε assumed), from which each result's
``describe()`` makes what ``str(result)``, ``benchtrust consistency`` and the HTML report show.

Every "inconsistent" verdict is worded as what it is, a certain conclusion about integers; a "consistent"
one says only that the scores could come from the experiment.
"""

from __future__ import annotations

from benchtrust._words import EPSILON, paragraph
from benchtrust.consistency._reported import decimals
from benchtrust.consistency._solver._fold_search import HEAD

__all__ = [
    "AGGREGATION_WORDS",
    "CERTAIN",
    "CONVENTION_WORDS",
    "COULD",
    "FOLDING_WORDS",
    "LISTED",
    "PAPER",
    "QUESTION",
    "SCORE_COLUMNS",
    "SOURCE",
    "ZERO_DIVISION_WORDS",
    "batch_counts",
    "batch_text",
    "batch_verdict",
    "capital",
    "claim_message",
    "epsilon_assumption",
    "kfold_assumptions",
    "kfold_experiment",
    "kfold_splits",
    "kfold_text",
    "kfold_tried",
    "kfold_verdict",
    "multiclass_text",
    "multiclass_verdict",
    "pairs_text",
    "score_label",
    "score_rows",
    "scores_table",
    "solutions_verdict",
    "test_set_text",
    "test_set_verdict",
]

#: The paper, as the text names it.
PAPER = "Fazekas & Kovács"
#: What an "inconsistent" verdict is.
CERTAIN = "a certain conclusion about integers, not a statistical test"
#: What a "consistent" verdict says, and does not.
COULD = "The scores could come from this experiment (which does not show that they did)."

#: The question every consistency analysis answers, the title of its section.
QUESTION = "Could these reported scores have come from the experiment described?"
#: The paper, as a section names its source.
SOURCE = "Fazekas & Kovács, testing the consistency of performance scores"
#: The header of a section's table of reported scores (:func:`score_rows`).
SCORE_COLUMNS = ("score", "reported", EPSILON, "interval of true values")
#: How the scores of the folds were aggregated, in words with the paper's section.
AGGREGATION_WORDS = {
    "mean_of_scores": "mean of scores (MoS, §4.3)",
    "score_of_means": "score of means (SoM, §4.2)",
}
#: How the folds were formed, in words with the paper's section.
FOLDING_WORDS = {
    "stratified": "stratified: the folds of p and n as even as they can be (§4.4.2)",
    "unknown": "unknown: every fold configuration is tried (§4.4.3)",
    "explicit": "as given: the positives and negatives of every fold",
}
#: How a score undefined in a fold entered the mean, per base score and convention (``zero_division``).
CONVENTION_WORDS = {
    "sens": {
        "0": "folds without positives count sensitivity as 0, as scikit-learn does by default",
        "1": "folds without positives count sensitivity as 1 (zero_division=1)",
        "skip": "folds without positives are left out of the mean sensitivity (zero_division=nan, nanmean)",
    },
    "spec": {
        "0": "folds without negatives count specificity as 0, as scikit-learn does by default",
        "1": "folds without negatives count specificity as 1 (zero_division=1)",
        "skip": "folds without negatives are left out of the mean specificity (zero_division=nan, nanmean)",
    },
    "bacc": {
        "skip": "a fold with one class takes the recall of that class as its balanced accuracy, as "
        "scikit-learn's balanced_accuracy_score does",
        "0": "a fold with one class counts the other class's recall as 0 in its balanced accuracy",
        "1": "a fold with one class counts the other class's recall as 1 in its balanced accuracy",
    },
}
#: The conventions allowed (``zero_division``), in words.
ZERO_DIVISION_WORDS = {
    "any": "counted as 0, as 1 or left out of the mean, each score on its own",
    "0": "counted as 0",
    "1": "counted as 1",
    "skip": "left out of the mean",
}
#: Rows listed one by one in the readable batch summary; beyond it only the rows that are not consistent.
LISTED = 20


def score_label(item) -> str:
    """A reported score's name: its abbreviation, with the name as written when that differs.

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> [score_label(item) for item in reported_scores({"acc": "0.9", "f1": "0.4"})]
    ['acc', 'f1p (f1)']
    """
    return item.score if item.name.lower() == item.score else f"{item.score} ({item.name})"


def score_rows(reported) -> tuple:
    """The rows of a section's table of reported scores: (score, reported, ε, interval of true values).

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> score_rows(reported_scores({"acc": "0.94"}))
    (('acc', '0.94', '0.005', '[0.935, 0.945]'),)
    """
    return tuple(
        (score_label(item), item.text, f"{item.eps:g}", "[{:.6g}, {:.6g}]".format(*item.interval))
        for item in reported
    )


def epsilon_assumption(reported) -> tuple[str, str]:
    """The ε a section assumes: each score's ε, given or from its decimals as written."""
    eps = ", ".join(f"{item.score} {item.eps:g}" for item in reported)
    rounding = reported[0].rounding  # ε is inferred for every score of a result, or given for every one
    how = f"from the decimals as written ({rounding})" if rounding else "as given"
    return (f"numerical uncertainty {EPSILON}", f"{eps}: {how}; intervals widened outward by a tolerance")


def capital(text: str) -> str:
    """`text` with its first letter in upper case, as a section shows a verdict."""
    return text[:1].upper() + text[1:]


def scores_table(reported) -> list[str]:
    """The lines of the table of reported scores, their ε and the intervals of true values they stand for.

    Parameters
    ----------
    reported : sequence of Reported
        The reported scores with their intervals, as a result holds them; each is shown as written.

    Returns
    -------
    list of str
        A header line and one line per score, each indented by two spaces; the intervals get one decimal
        more than ε (or the score as written) has.

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> print("\\n".join(scores_table(reported_scores({"acc": "0.94"}))))
      score  reported  ε      interval of true values
      acc    0.94      0.005  [0.9350, 0.9450]
    """
    rows = [("score", "reported", EPSILON, "interval of true values")]
    for item in reported:
        digits = min(decimals(f"{item.eps:g}") if item.eps > 0 else decimals(item.text), 15) + 1
        low, high = item.interval
        rows.append((score_label(item), item.text, f"{item.eps:g}", f"[{low:.{digits}f}, {high:.{digits}f}]"))
    widths = [max(len(row[k]) for row in rows) for k in range(3)]
    return [
        "  " + "  ".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=False)) + "  " + row[3]
        for row in rows
    ]


def pairs_text(pairs) -> str:
    """Pairs of numbers in words: ``[[1, 65], [2, 64]]`` as ``(1, 65), (2, 64)``.

    Examples
    --------
    >>> pairs_text([[1, 65], [2, 64]])
    '(1, 65), (2, 64)'
    """
    return ", ".join(f"({a}, {b})" for a, b in pairs)


def _matrices(count: int) -> str:
    """ "1 confusion matrix", "2 confusion matrices", ..."""
    return "1 confusion matrix" if count == 1 else f"{count} confusion matrices"


def solutions_verdict(n_solutions: int, solutions, where: str, section: str) -> str:
    """The verdict of a test of one (possibly pooled) confusion matrix in plain words (paper §3, §4.2).

    Parameters
    ----------
    n_solutions : int
        How many pairs (tp, tn) give every score.
    solutions : sequence of (int, int)
        The first of them.
    where : str
        The test set, in words ("100 positives and 200 negatives").
    section : str
        The paper's section the test comes from ("§3").

    Returns
    -------
    str
        One unwrapped paragraph starting with "consistent" or "inconsistent".

    Examples
    --------
    >>> solutions_verdict(0, [], "10 positives and 20 negatives", "§3")  # doctest: +ELLIPSIS
    'inconsistent: no confusion matrix of 10 positives and 20 negatives gives all these scores: ...§3).'
    """
    if n_solutions == 0:
        return (
            f"inconsistent: no confusion matrix of {where} gives all these scores: the scores cannot come "
            f"from this experiment ({CERTAIN}; {PAPER} {section})."
        )
    among = "" if len(solutions) == n_solutions else "among them "
    gives = "gives" if n_solutions == 1 else "give"
    return (
        f"consistent: {_matrices(n_solutions)} of {where} {gives} every score: {among}(tp, tn) = "
        f"{pairs_text(solutions)}. {COULD}"
    )


def _test_set_where(result) -> str:
    return f"{result.positives} positives and {result.negatives} negatives"


def test_set_verdict(result) -> str:
    """The verdict on scores reported for one test set in plain words (paper §3).

    Parameters
    ----------
    result : TestSetResult

    Returns
    -------
    str
        One unwrapped paragraph: the confusion matrices that give every score, or that none does.

    Examples
    --------
    >>> from benchtrust.consistency import check_test_set
    >>> result = check_test_set({"acc": 0.8967, "sens": 0.85, "ppv": 0.8416}, positives=100, negatives=200)
    >>> print(test_set_verdict(result))  # doctest: +NORMALIZE_WHITESPACE
    consistent: 1 confusion matrix of 100 positives and 200 negatives gives every score: (tp, tn) = (85,
    184). The scores could come from this experiment (which does not show that they did).
    """
    return solutions_verdict(result.n_solutions, result.solutions, _test_set_where(result), "§3")


def test_set_text(result) -> str:
    """The readable summary of a test-set result (paper §3): the test set, the intervals, the verdict.

    Parameters
    ----------
    result : TestSetResult

    Returns
    -------
    str
        Lines without a trailing newline; the verdict wrapped to 100 characters.
    """
    lines = [f"one test set of {_test_set_where(result)} ({PAPER} §3)"]
    lines += scores_table(result.scores)
    lines += ["", paragraph(test_set_verdict(result))]
    return "\n".join(lines)


# Not pytest tests despite their names, should a test module import them.
vars(test_set_verdict)["__test__"] = vars(test_set_text)["__test__"] = False


def kfold_experiment(result) -> str:
    """The experiment of a k-fold result in words: folds, data set(s) and repetitions (paper §4)."""
    data = list(zip(result.positives, result.negatives, strict=True))
    if len(data) == 1:
        p, n = data[0]
        what = f"{p} positive{'s' * (p != 1)} and {n} negative{'s' * (n != 1)}"
    else:
        what = f"{len(data)} data sets of (p, n) = {pairs_text(data)}"
    repeated = f", repeated {result.repeats} times" if result.repeats > 1 else ""
    return f"{result.folds}-fold cross-validation of {what}{repeated}"


def kfold_text(result) -> str:
    """The readable summary of a k-fold result (paper §4): the experiment, the bounds on the folds' scores
    (Eq. 10), the intervals, the verdict.

    Parameters
    ----------
    result : KFoldResult

    Returns
    -------
    str
        Lines without a trailing newline; the verdict wrapped to 100 characters.
    """
    lines = [
        f"{kfold_experiment(result)} ({PAPER} §4)",
        f"  aggregation  {AGGREGATION_WORDS[result.aggregation]}",
    ]
    if result.aggregation == "mean_of_scores":
        lines.append(f"  folding      {FOLDING_WORDS[result.folding]}")
        if result.folding == "unknown":
            lines.append(f"  fold sizes   {kfold_splits(result)}")
        lines.append(f"  tried        {kfold_tried(result)}")
        if result.configurations.get("beyond") or result.zero_division != "any":
            lines.append(f"  undefined    fold scores {ZERO_DIVISION_WORDS[result.zero_division]}")
    for name, (low, high) in result.bounds.items():
        lines.append(f"  fold bounds  every fold's {name} from {low} to {high}, as reported (Eq. 10)")
    lines += scores_table(result.scores)
    lines.append("")
    lines.append(paragraph(kfold_verdict(result)))
    return "\n".join(lines)


def kfold_verdict(result) -> str:
    """The verdict on scores reported for k-fold cross-validation in plain words (paper §4.2-4.4).

    The score of means is the test of the pooled confusion matrix (§4.2); the mean of scores names the
    folds and per-fold counts that give every score, or says that no fold configuration does (§4.3).

    Parameters
    ----------
    result : KFoldResult

    Returns
    -------
    str
        One unwrapped paragraph starting with "consistent" or "inconsistent".
    """
    if result.aggregation == "score_of_means":
        evidence = result.evidence or {"n_solutions": 0, "solutions": []}
        where = f"the pooled {result.pooled_positives} positives and {result.pooled_negatives} negatives"
        return solutions_verdict(evidence["n_solutions"], evidence["solutions"], where, "§4.2")
    tried = result.configurations
    if result.consistent:
        configuration = pairs_text(result.evidence["configuration"])
        counts = pairs_text(result.evidence["counts"])
        found = ""
        if result.folding == "unknown":
            place = (
                "in the order of §4.4.3" if result.tier == "paper" else "beyond the paper's, in that order"
            )
            if result.order == "likely":
                place = (
                    f"{'of the paper' if result.tier == 'paper' else 'beyond the paper'}'s: after the first "
                    f"{HEAD:,} of the order of §4.4.3, those a random split makes most often are tried"
                )
            elif result.order in ("alike", "alike-likely"):
                tier = "the paper's" if result.tier == "paper" else "those beyond the paper's"
                place = f"of {tier} used alike in every repeat, tried before those differing between repeats"
            found = f" (fold configuration {tried[result.tier]:,} {place})"
        condition = ""
        if result.tier == "beyond":
            words = [CONVENTION_WORDS[base][value] for base, value in result.conventions.items()]
            condition = f", if {' and '.join(words)}" if words else ""
            condition += (
                " (folds beyond the paper's configurations, where a fold lacks a class a reported score "
                "needs or a training set misses a class, §4.4.3)"
            )
        return (
            f"consistent: the folds (p_i, n_i) = {configuration}{found}, with the per-fold counts "
            f"(tp_i, tn_i) = {counts}, give every score as a mean over the folds{condition}. {COULD}"
        )
    undefined = ZERO_DIVISION_WORDS[result.zero_division]
    beyond = f"(folds without positives or negatives, undefined fold scores {undefined})"
    if result.consistent is None:
        return (
            f"undecided: {result.undecided}. No per-fold counts were found among the "
            f"{tried['paper'] + tried['beyond']:,} fold configurations covered, which proves nothing about "
            f"those left open: the scores may or may not come from {kfold_splits(result, article='a')}."
        )
    where = {
        "unknown": (
            f"of any of the {tried['paper']:,} fold configurations of the paper (§4.4.3), nor of the "
            f"{tried['beyond']:,} beyond them {beyond}"
            if tried["paper"]
            else f"of any of the {tried['beyond']:,} fold configurations the fold sizes allow, all beyond "
            f"the paper's (§4.4.3) {beyond}"
        ),
        "stratified": "of the stratified folds",
        "explicit": "of the folds given",
    }[result.folding]
    if result.folding != "unknown" and tried.get("beyond"):
        where += f" (some without positives or negatives: undefined fold scores {undefined})"
    source = {"stratified": "the stratified folds", "explicit": "the folds given"}.get(result.folding)
    if source is None:
        source = kfold_splits(result, article="no")
        verdict = (
            f"inconsistent: {source} gives these scores: no per-fold confusion matrices {where} give them "
            f"all as means over the folds ({CERTAIN}; {PAPER} §4.3)."
        )
        if result.fold_sizes == "equal":
            verdict += (
                " Splits with other fold sizes (GroupKFold, LeaveOneGroupOut, TimeSeriesSplit, "
                "PredefinedSplit, custom folds) are not covered: give their fold sizes, or ask for any sizes "
                "(--fold-sizes 4,2 or any; fold_sizes= in Python)."
            )
        return verdict
    return (
        f"inconsistent: no per-fold confusion matrices {where} give all these scores as means over the "
        f"folds: the scores cannot come from {source} ({CERTAIN}; {PAPER} §4.3)."
    )


def kfold_splits(result, article: str = "") -> str:
    """The splits the mean-of-scores search of a k-fold result covers, in words: the folds' sizes.

    With ``article`` ("no", "a") the words start with it, as a verdict uses them; without, they describe
    the sizes alone, as the summary's line does.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> r = SimpleNamespace(folds=2, positives=(2,), negatives=(4,), fold_sizes="equal", partial=False)
    >>> kfold_splits(r, article="no")
    'no split into 2 folds of near-equal size (3 items each, as KFold and StratifiedKFold make)'
    >>> kfold_splits(SimpleNamespace(**(vars(r) | {"fold_sizes": ((4, 2),)})), article="no")
    'no split into 2 folds of 4 and 2 items'
    """
    k = result.folds
    prefix = f"{article} split into {k} folds of " if article else ""
    if result.fold_sizes == "any":
        return f"{prefix}any sizes (every composition of the items into {k} non-empty folds)"
    if result.fold_sizes == "equal":
        sizes = sorted(
            {
                size
                for p, n in zip(result.positives, result.negatives, strict=True)
                for size in _even(p + n, k)
            },
            reverse=True,
        )
        how = f"{sizes[0]} items each" if len(sizes) == 1 else " or ".join(map(str, sizes)) + " items"
        return f"{prefix}near-equal size ({how}, as KFold and StratifiedKFold make)"
    listed = [_and(sizes) for sizes in result.fold_sizes]
    words = (
        listed[0]
        if len(set(listed)) == 1
        else "; ".join(f"data set {d + 1}: {text}" for d, text in enumerate(listed))
    )
    part = ""
    if result.partial:
        part = ", part of the data set (the other items in no test fold)"
    return f"{prefix}{words} items{part}" if article else f"{words} items{part}, as given"


def _even(total: int, k: int) -> set[int]:
    """The sizes of k near-equal folds of ``total`` items."""
    return {total // k, -(-total // k)}


def _and(values) -> str:
    """Numbers in words: "4 and 2", "3, 3 and 2"."""
    values = [str(v) for v in values]
    return values[0] if len(values) == 1 else f"{', '.join(values[:-1])} and {values[-1]}"


def kfold_tried(result) -> str:
    """The fold configurations a k-fold result covers, by tier, in words (module notes of ``_kfold``)."""
    paper, beyond = result.configurations["paper"], result.configurations["beyond"]
    if result.folding != "unknown":
        return f"1 fold configuration, {'among' if paper else 'beyond'} the paper's (§4.4.3)"
    tried = f"{paper:,} of the paper's fold configurations (§4.4.3)"
    tried = tried if result.tier == "paper" or not beyond else f"{tried}, then {beyond:,} beyond them"
    return tried + (", some left open (undecided)" if result.consistent is None else "")


def kfold_assumptions(result) -> tuple:
    """The assumptions of a k-fold result, as its section names them (paper §4.2-4.4): the experiment,
    the aggregation, for the mean of scores the folds and the conventions tried, the bounds on the folds'
    scores (Eq. 10) when they were reported, and ε."""
    assumptions = [
        ("experiment", kfold_experiment(result)),
        ("aggregation", AGGREGATION_WORDS[result.aggregation]),
    ]
    if result.aggregation == "mean_of_scores":
        assumptions.append(("folding", FOLDING_WORDS[result.folding]))
        if result.folding == "unknown":
            assumptions.append(("fold sizes", kfold_splits(result)))
        assumptions.append(("fold configurations tried", kfold_tried(result)))
        assumptions.append(("undefined fold scores", ZERO_DIVISION_WORDS[result.zero_division]))
    for name, (low, high) in result.bounds.items():
        assumptions.append(("fold bounds", f"every fold's {name} from {low} to {high} (Eq. 10)"))
    assumptions.append(epsilon_assumption(result.scores))
    return tuple(assumptions)


def multiclass_text(result) -> str:
    """The readable summary of a multiclass result: the test set, the averaging (paper §4.2 micro, §4.3
    macro, the classes taking the place of folds), the intervals, the verdict.

    Parameters
    ----------
    result : MulticlassResult

    Returns
    -------
    str
        Lines without a trailing newline; the verdict wrapped to 100 characters.
    """
    counts = result.class_counts
    total, classes = sum(counts), len(counts)
    how = (
        f"micro-averaged: the scores of the pooled one-vs-rest confusion matrix ({PAPER} §4.2)"
        if result.average == "micro"
        else f"macro-averaged: the mean of the classes' one-vs-rest scores ({PAPER} §4.3)"
    )
    lines = [
        f"one multiclass test set of {classes} classes of {', '.join(map(str, counts))} items (N = {total})",
        f"  {how}",
        *scores_table(result.scores),
        "",
    ]
    lines.append(paragraph(multiclass_verdict(result)))
    return "\n".join(lines)


def multiclass_verdict(result) -> str:
    """The verdict on averaged multiclass scores in plain words (paper §4.2-4.3, classes as folds).

    Parameters
    ----------
    result : MulticlassResult

    Returns
    -------
    str
        One unwrapped paragraph starting with "consistent" or "inconsistent": for a micro average the
        numbers of correctly classified items that give every score, for a macro average a confusion
        matrix verified in exact arithmetic when there is one.
    """
    total = sum(result.class_counts)
    if result.consistent and result.average == "micro":
        listed = ", ".join(map(str, result.solutions))
        pooled = pairs_text(result.pooled)
        such_as = "" if len(result.solutions) == result.n_solutions else "such as "
        numbers = "1 number" if result.n_solutions == 1 else f"{result.n_solutions} numbers"
        gives = "gives" if result.n_solutions == 1 else "give"
        return (
            f"consistent: {numbers} of correctly classified items {gives} every score: {such_as}k = {listed} "
            f"of {total} (pooled (tp, tn) = {pooled}). {COULD}"
        )
    if result.consistent and result.evidence is not None:
        return (
            "consistent: this confusion matrix (rows: true classes, columns: predictions), checked in exact "
            "arithmetic, gives every score: "
            + "; ".join(" ".join(map(str, row)) for row in result.evidence)
            + f". {COULD}"
        )
    if result.consistent:
        return (
            "consistent: no inconsistency can be proved (the integer program is feasible), though no "
            "confusion matrix could be verified exactly to give every score."
        )
    what = "number of correctly classified items" if result.average == "micro" else "confusion matrix"
    return (
        f"inconsistent: no {what} of a test set with these class counts gives all these scores: the "
        f"scores cannot come from this experiment ({CERTAIN})."
    )


def claim_message(result) -> str:
    """A claim's verdict in a few words, as one row of a batch shows it (paper §3-4).

    Parameters
    ----------
    result : TestSetResult or KFoldResult
        The check of the claim.

    Returns
    -------
    str
        One line: the folds and counts (mean of scores), or the confusion matrices that give every score,
        or that none do.

    Examples
    --------
    >>> from benchtrust.consistency import check_test_set
    >>> claim_message(check_test_set({"acc": "0.8967", "sens": "0.85", "ppv": "0.8416"},
    ...                              positives=100, negatives=200))
    '1 confusion matrix of 100 positives and 200 negatives gives every score: (tp, tn) = (85, 184)'
    """
    if getattr(result, "aggregation", None) == "mean_of_scores":
        tested = f"tested {kfold_tried(result)}"
        if result.consistent is None:
            return f"undecided: {result.undecided} ({tested}; mean of scores)"
        if not result.consistent:
            splits = f"; {kfold_splits(result)}" if result.folding == "unknown" else ""
            return f"no per-fold confusion matrices give all these scores ({tested}{splits}; mean of scores)"
        words = [CONVENTION_WORDS[base][value] for base, value in result.conventions.items()]
        condition = f", if {' and '.join(words)}" if words else ""
        return (
            f"the folds (p, n) {pairs_text(result.evidence['configuration'])} with per-fold (tp, tn) "
            f"{pairs_text(result.evidence['counts'])} give every score{condition} (mean of scores; {tested})"
        )
    if hasattr(result, "aggregation"):  # score of means: the pooled test set
        evidence = result.evidence or {"n_solutions": 0, "solutions": []}
        count, solutions = evidence["n_solutions"], evidence["solutions"]
        where = (
            f"the pooled {result.pooled_positives} positives and {result.pooled_negatives} negatives "
            "(score of means)"
        )
    else:
        count, solutions = result.n_solutions, result.solutions
        where = f"{result.positives} positives and {result.negatives} negatives"
    if count == 1:
        return f"1 confusion matrix of {where} gives every score: (tp, tn) = {pairs_text(solutions)}"
    if count:
        return (
            f"{count} confusion matrices of {where} give every score, such as (tp, tn) = "
            f"{pairs_text(solutions[:1])}"
        )
    return f"no confusion matrix of {where} gives all these scores"


def batch_counts(result) -> dict[str, int]:
    """The rows per verdict of a batch that its summaries show: every verdict, ``undecided`` (a
    ``protocols`` row only) only when some row is.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> batch_counts(SimpleNamespace(counts={"consistent": 2, "inconsistent": 1, "undecided": 0, "error": 0}))
    {'consistent': 2, 'inconsistent': 1, 'error': 0}
    """
    return {verdict: count for verdict, count in result.counts.items() if count or verdict != "undecided"}


def batch_text(result) -> str:
    """The readable summary of a batch of claims (paper §3-4): the counts, the rows (or, when there are
    more than :data:`LISTED`, those not consistent), the verdict in words.

    When rows that are not consistent are left out of the listing, it says how to see them all, as
    ``result.every_row`` says.

    Parameters
    ----------
    result : BatchResult

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    total = len(result.rows)
    summary = ", ".join(f"{count} {verdict}" for verdict, count in batch_counts(result).items())
    lines = [
        f"claims in {result.source}, each checked as one test set ({PAPER} §3), k folds (§4) or candidate "
        f"protocols (§5.1): {total} rows, {summary}"
    ]
    rows = result.rows
    if total > LISTED:
        rows = [row for row in rows if row["verdict"] != "consistent"]
    shown = rows[:LISTED]
    table = [("line", "id", "check", "verdict")] + [
        (str(row["line"]), row["id"] or "", row["check"], row["verdict"]) for row in shown
    ]
    messages = ["message"] + [row["message"] for row in shown]
    widths = [max(len(row[k]) for row in table) for k in range(4)]
    for row, message in zip(table, messages, strict=True):
        lines.append(
            "  "
            + "  ".join(f"{cell:<{width}}" for cell, width in zip(row, widths, strict=True))
            + "  "
            + message
        )
    if len(shown) < total:
        rest = "all consistent" if len(shown) == len(rows) else result.every_row
        lines.append(f"  ({total - len(shown)} more rows not listed: {rest})")
    lines.append("")
    lines += batch_verdict(result)
    return "\n".join(lines)


def batch_verdict(result, *, wrap: bool = True) -> list[str]:
    """The verdict on a batch of claims in plain words (paper §3-4).

    Parameters
    ----------
    result : BatchResult
    wrap : bool
        Wrap each paragraph to 100 characters, as the command prints them.

    Returns
    -------
    list of str
        Paragraphs: how many claims are inconsistent (a certain conclusion), how many are undecided (no
        candidate protocol consistent, some not checked), how many rows could not be checked, or that
        every claim could come from its experiment.
    """
    counts = result.counts
    total = len(result.rows)
    paragraphs = []
    if counts["inconsistent"] == 1:
        paragraphs.append(
            f"1 claim is inconsistent: its scores cannot come from the experiment described ({CERTAIN})."
        )
    elif counts["inconsistent"]:
        paragraphs.append(
            f"{counts['inconsistent']} claims are inconsistent: their scores cannot come from the "
            f"experiments described ({CERTAIN})."
        )
    if counts["undecided"]:
        claims = "1 claim is" if counts["undecided"] == 1 else f"{counts['undecided']} claims are"
        paragraphs.append(
            f"{claims} undecided: no candidate protocol tried is consistent with the scores, and some could "
            "not be checked (each row's protocols, with the reasons, are in the JSON output)."
        )
    if counts["error"]:
        rows_were = "1 row was" if counts["error"] == 1 else f"{counts['error']} rows were"
        paragraphs.append(f"{rows_were} not checked: the message says what is wrong.")
    if counts["consistent"] == total:
        paragraphs.append(
            "Every claim could come from the experiment described (which does not show that it did)."
        )
    return [paragraph(text) for text in paragraphs] if wrap else paragraphs
