"""Averaged multiclass scores reported for k-fold cross-validation: could the experiment give them? (§4)

The experiment: a data set of C classes (r_1..r_C items) cut into k folds, each fold's one-vs-rest scores
averaged over the classes (micro or macro, as :func:`~benchtrust.consistency.check_multiclass` on one test
set), then aggregated over the folds:

* score of means (``"score_of_means"``, SoM, §4.2): the scores of the summed confusion matrices, which is
  one multiclass test set of the pooled class counts whatever the folds (any score;
  :func:`check_multiclass`);
* mean of scores (``"mean_of_scores"``, MoS, §4.3): the mean of the folds' averaged scores. Micro: exact,
  from the fold sizes alone; macro: an integer program over the folds' diagonals and column sums (module
  notes of :mod:`._multiclass_folds`), per configuration of the folds' class counts.

Configurations, in two tiers (as for two classes, :mod:`._kfold`): first those where every reported score
is defined for every class of every fold, then the others, where a class without items in a fold (or one
filling it) has an undefined score and ``zero_division`` says how the fold's mean treats it.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from benchtrust._io import InputError, check_count
from benchtrust._result import Description, Result
from benchtrust._words import paragraph
from benchtrust.consistency import _multiclass_folds as folds_of
from benchtrust.consistency import _text
from benchtrust.consistency._kfold import aggregation_name
from benchtrust.consistency._multiclass import CELL_WORK, _class_counts, check_multiclass
from benchtrust.consistency._one_vs_rest import SKLEARN_ACCURACY, multiclass_reported
from benchtrust.consistency._solver import _macro_witness as witness
from benchtrust.consistency._solver._mean_of_scores import MAX_STATES
from benchtrust.consistency._test_set import MAX_WORK, check_work, matrices_columns
from benchtrust.consistency._text import AGGREGATION_WORDS, CERTAIN, COULD, PAPER

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    import numpy.typing as npt

    from benchtrust.consistency._multiclass import MulticlassResult
    from benchtrust.consistency._reported import Reported

_AVERAGES = ("micro", "macro")
_FOLDINGS = ("stratified", "unknown")
_ZERO_DIVISION = ("any", "0", "1", "skip")
#: Default ``max_configurations``: the macro mean over unknown folds solves one integer program each.
MAX_CONFIGURATIONS = 1000
#: The most folds over all repeats.
MOST_FOLDS = 10**5
#: Folds the micro verdict lists one by one.
LISTED = 10

_FOLDING_WORDS = {
    "stratified": "stratified: scikit-learn's StratifiedKFold, every order of the classes (§4.4.2)",
    "unknown": "unknown: KFold's fold sizes, every configuration of class counts (§4.4.3)",
    "explicit": "as given: the class counts of every fold",
}
_UNDEFINED_WORDS = {
    "any": "left out of the fold's mean or counted as 0 or as 1, fold by fold",
    "0": "counted as 0 in a mean over all classes",
    "1": "counted as 1 in a mean over all classes",
    "skip": "left out of the fold's mean",
}


def _fitted_conventions(fit, config):
    """The conventions of a fit, for the base scores undefined for some class of some fold of ``config``."""
    return {
        base: rule for base, rule in fit.conventions.items() if not folds_of.fully_defined(config, [base])
    } or None


@dataclasses.dataclass(frozen=True, eq=False)
class MulticlassKFoldResult(Result):
    """Whether averaged multiclass scores fit k-fold cross-validation of a data set (paper §4).

    Attributes
    ----------
    consistent : bool or None
        ``False`` only when certain: no folds and confusion matrices of the experiment give the scores.
        None when HiGHS could not decide a configuration within its time limit and none was found to fit.
    average : str
        ``"micro"`` or ``"macro"``: how each fold's one-vs-rest scores were averaged over the classes.
    aggregation : str
        ``"mean_of_scores"`` (mean of the folds' scores, §4.3) or ``"score_of_means"`` (scores of the
        summed matrices, §4.2).
    folding : str
        ``"stratified"``, ``"unknown"`` or ``"explicit"``.
    class_counts : tuple of int
        r_1..r_C, the items of each class in the whole data set.
    folds, repeats : int
        k, and how many times the k-fold split was repeated.
    scores : tuple of Reported
        The reported scores with their intervals.
    zero_division : str
        How a score undefined for a class in a fold entered the fold's mean (module notes).
    configurations : dict
        Fold configurations (class counts of the folds) tried per tier, ``{"paper": ..., "beyond": ...}``;
        the micro mean depends on the fold sizes only (one configuration).
    tier : str or None
        The tier of the configuration that fits, None when inconsistent or for the score of means.
    fold_counts : list of list of int or None
        The class counts of the folds that fit (macro), or the fold sizes (micro, one per fold).
    correct : list of int or None
        Micro mean of scores: the items classified correctly in each fold.
    matrices : list or None
        Macro mean of scores: a confusion matrix per fold (rows true classes), verified exactly; None when
        inconsistent or when no matrices could be verified.
    conventions : dict or None
        Beyond the first tier: per base score undefined for some class of some fold, the convention that
        fits (``"0"``, ``"1"``, ``"skip"``, or ``"any"``: fold by fold, as ``choices`` says).
    choices : dict or None
        Where the convention is ``"any"``: per score and fold, (classes counted, of them counted as 1)
        among the classes where the score is undefined.
    pooled : MulticlassResult or None
        Score of means: the check of the pooled test set.
    inputs : tuple of str
        The file the folds' class counts were read from (:func:`read_class_folds`), if they were.

    Its table (``to_frame()``) is the evidence. Micro mean of scores: one row per fold, ``fold``, ``size``,
    ``correct`` and the fold's pooled one-vs-rest ``tp``, ``tn``, ``fn``, ``fp`` with every reported score.
    Macro: one row per fold and class, ``fold``, ``class``, its ``positives``, ``negatives``, ``tp``,
    ``tn``, ``fn``, ``fp`` and scores (``nan`` where undefined). Score of means: the pooled check's table.
    No rows without evidence.

    See Also
    --------
    check_multiclass_kfold : Averaged multiclass scores of k-fold cross-validation.
    MulticlassResult : The result of check_multiclass.
    KFoldResult : The result of check_kfold.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. The paper treats two
           classes; this extends §4.2-4.4 (Eq. (5)-(9), the fold configurations of §4.4.2-4.4.3) to C classes,
           each fold's one-vs-rest scores averaged over the classes.
    """

    consistent: bool | None
    average: str
    aggregation: str
    folding: str
    class_counts: tuple[int, ...]
    folds: int
    repeats: int
    scores: tuple[Reported, ...]
    zero_division: str
    configurations: dict[str, int]
    tier: str | None = None
    fold_counts: list[list[int]] | list[int] | None = None
    correct: list[int] | None = None
    matrices: list[list[list[int]]] | None = None
    conventions: dict[str, str] | None = None
    choices: dict[str, dict[int, tuple[int, int]]] | None = None
    pooled: MulticlassResult | None = None

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §4.2-4.4, the classes averaged within each fold)."""
        return _verdict(self)

    def describe(self) -> Description:
        """The result's description (paper §4.2-4.4, the classes averaged within each fold): its text with
        the folds' confusion matrices, its section, data and evidence."""
        lines = [
            _experiment(self),
            f"  {_how(self)}",
            *_text.scores_table(self.scores),
            "",
            paragraph(self.verdict),
        ]
        if self.matrices is not None:
            lines.append("confusion matrices of the folds (rows: true classes, columns: predictions):")
            lines += [
                f"  fold {f + 1}: " + "; ".join(" ".join(map(str, row)) for row in matrix)
                for f, matrix in enumerate(self.matrices)
            ]
        assumptions = [("experiment", _experiment(self)), ("averaging", _how(self))]
        if self.aggregation == "mean_of_scores":
            assumptions.append(("folding", _FOLDING_WORDS[self.folding]))
            assumptions.append(("fold configurations tried", _tried(self)))
            if self.average == "macro":
                assumptions.append(("undefined class scores", _UNDEFINED_WORDS[self.zero_division]))
        assumptions.append(_text.epsilon_assumption(self.scores))
        return Description(
            question=_text.QUESTION,
            verdict=_text.capital(self.verdict),
            text="\n".join(lines),
            data={
                "consistent": self.consistent,
                "average": self.average,
                "aggregation": self.aggregation,
                "folding": self.folding,
                "class_counts": self.class_counts,
                "folds": self.folds,
                "repeats": self.repeats,
                "scores": [rep.to_dict() for rep in self.scores],
                "zero_division": self.zero_division,
                "configurations": self.configurations,
                "tier": self.tier,
                "fold_counts": self.fold_counts,
                "correct": self.correct,
                "matrices": self.matrices,
                "conventions": self.conventions,
                "choices": None
                if self.choices is None
                else {
                    base: {str(f + 1): pair for f, pair in per.items()} for base, per in self.choices.items()
                },
                "pooled": None if self.pooled is None else self.pooled.describe().data,
                "verdict": self.verdict,
            },
            columns=_text.SCORE_COLUMNS,
            rows=_text.score_rows(self.scores),
            frame=self._evidence_columns(),
            assumptions=tuple(assumptions),
            source=f"{_text.SOURCE}, {'§4.2' if self.aggregation == 'score_of_means' else '§4.3-4.4'}",
            inputs=self.inputs,
            analysis="consistency multiclass",
        )

    def _evidence_columns(self) -> Mapping[str, Any] | None:
        """The columns of the table of the evidence: per fold (micro), per fold and class (macro), or the
        pooled check's (score of means)."""
        if self.pooled is not None:
            return self.pooled.describe().frame
        binary = tuple(rep for rep in self.scores if rep.score != SKLEARN_ACCURACY)
        classes = len(self.class_counts)
        if self.average == "micro":
            correct = np.array(self.correct or [], dtype=np.int64)
            size = np.array(self.fold_counts if self.correct else [], dtype=np.int64)
            leading = {"fold": np.arange(1, correct.size + 1), "size": size, "correct": correct}
            return matrices_columns(
                leading, correct, (classes - 2) * size + correct, size, (classes - 1) * size, binary, None
            )
        matrices = np.array(self.matrices or [], dtype=np.int64).reshape(-1, classes, classes)
        counts = np.array(self.fold_counts if self.matrices else [], dtype=np.int64).reshape(-1, classes)
        folds = len(matrices)
        positives = counts.reshape(-1)
        negatives = np.repeat(counts.sum(axis=1), classes) - positives
        tp = np.diagonal(matrices, axis1=1, axis2=2).reshape(-1)
        predicted = matrices.sum(axis=1).reshape(-1)
        leading = {
            "fold": np.repeat(np.arange(1, folds + 1), classes),
            "class": np.tile(np.arange(1, classes + 1), folds),
            "positives": positives,
            "negatives": negatives,
        }
        with np.errstate(divide="ignore", invalid="ignore"):
            return matrices_columns(
                leading, tp, negatives - predicted + tp, positives, negatives, binary, None
            )


def check_multiclass_kfold(
    scores: Mapping[str, str | float],
    *,
    class_counts: Sequence[int],
    folds: int,
    average: Literal["micro", "macro"],
    repeats: int = 1,
    aggregation: Literal["mean_of_scores", "score_of_means", "mos", "som"] = "mean_of_scores",
    folding: Literal["stratified", "unknown"] | npt.ArrayLike = "unknown",
    eps: float | Mapping[str, float] | None = None,
    rounding: Literal["round", "floor-or-ceil"] = "round",
    beta: float | None = None,
    zero_division: Literal["any", "0", "1", "skip"] = "any",
    max_configurations: int = MAX_CONFIGURATIONS,
    max_states: int = MAX_STATES,
    max_work: int = MAX_WORK,
) -> MulticlassKFoldResult:
    """Could k-fold cross-validation of a multiclass data set give these averaged scores? (paper §4)

    Parameters
    ----------
    scores : mapping
        Score name (any alias) -> reported value, a number or its text as printed; ``accuracy_score`` is
        scikit-learn's accuracy (as for :func:`check_multiclass`).
    class_counts : sequence of int
        r_1..r_C, the items of each class in the data set (C >= 2); for stratified folds in the order the
        classes first appear in ``y`` if known (every order is tried anyway, up to 7 classes).
    folds : int
        k, the number of folds (2 <= k <= N).
    average : {"micro", "macro"}
        How each fold's one-vs-rest scores were averaged over the classes.
    repeats : int, default 1
        Repetitions of the k-fold split; the means are over all k·repeats folds. Stratified and explicit
        folds are the same in every repeat; unknown folds may differ (every multiset of configurations).
    aggregation : {"mean_of_scores", "score_of_means"}
        Mean of the folds' scores (§4.3) or the scores of the summed confusion matrices (§4.2); the
        paper's acronyms ``"mos"`` and ``"som"`` are accepted for them.
    folding : "stratified", "unknown" or array_like
        The folds' class counts (mean of scores): scikit-learn's ``StratifiedKFold``; unknown (every
        configuration with ``KFold``'s fold sizes); or explicit, k rows of C counts
        (:func:`read_class_folds` reads them from a CSV file).
    eps, rounding, beta
        As for :func:`check_multiclass` (β for the score of means).
    zero_division : {"any", "0", "1", "skip"}
        How a score undefined for a class in a fold enters the fold's macro mean (module notes of
        :mod:`._multiclass_folds`); the default ``"any"`` covers scikit-learn's behaviours.
    max_configurations : int, default 1000
        Macro mean over unknown folds: the most configurations of the folds' class counts to try.
    max_states : int, default 2**22
        As for :func:`check_kfold`, for the micro mean's exact search.
    max_work : int
        As for :func:`check_multiclass` (per configuration).

    Returns
    -------
    MulticlassKFoldResult

    See Also
    --------
    MulticlassKFoldResult : The result of check_multiclass_kfold.
    check_multiclass : Averaged one-vs-rest scores of one multiclass test set.
    check_kfold : Scores reported for k-fold cross-validation (§4).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. The paper treats two
           classes; this extends §4.2-4.4 (Eq. (5)-(9), the fold configurations of §4.4.2-4.4.3) to C classes,
           each fold's one-vs-rest scores averaged over the classes.

    Examples
    --------
    Iris (three classes of 50), stratified 5-fold cross-validation, micro-averaged F1 (scikit-learn's
    ``f1_score(average="micro")``) of each fold, then its mean:

    >>> r = check_multiclass_kfold({"f1": "0.9533"}, class_counts=[50, 50, 50], folds=5, average="micro")
    >>> r.consistent, r.correct
    (True, [29, 29, 29, 28, 28])

    Macro-averaged sensitivity and specificity over explicit folds:

    >>> folds = [[2, 2, 1], [2, 1, 2]]
    >>> r = check_multiclass_kfold(
    ...     {"sens": "0.50", "spec": "0.75"}, class_counts=[4, 3, 3], folds=2, average="macro", folding=folds
    ... )
    >>> r.consistent, len(r.matrices)
    (True, 2)
    """
    for name, value, allowed in (
        ("average", average, _AVERAGES),
        ("zero_division", zero_division, _ZERO_DIVISION),
    ):
        if value not in allowed:
            raise InputError(f"{name}: expected one of {', '.join(allowed)}, got {value!r}")
    spelled = aggregation_name(aggregation)
    counts = _class_counts(class_counts)
    k = check_count(folds, "folds")
    if not 2 <= k <= sum(counts):
        raise InputError(f"folds: expected 2 <= k <= {sum(counts)} (the items), got {k}")
    times = check_count(repeats, "repeats")
    if not 1 <= times <= MOST_FOLDS // k:
        raise InputError(
            f"repeats: expected 1 to {MOST_FOLDS // k:,} ({MOST_FOLDS:,} folds in all), got {times}"
        )
    reported = multiclass_reported(scores, eps=eps, rounding=rounding, beta=beta)
    common: dict[str, Any] = {
        "average": average,
        "aggregation": spelled,
        "class_counts": counts,
        "folds": k,
        "repeats": times,
        "scores": reported,
        "zero_division": zero_division,
    }
    explicit = _explicit(folding, counts, k)
    label = "explicit" if explicit is not None else str(folding)
    if explicit is None and folding not in _FOLDINGS:
        raise InputError(
            f"folding: expected stratified, unknown or k rows of class counts, got {folding!r:.80}"
        )
    if spelled == "score_of_means":
        pooled = check_multiclass(
            scores, class_counts=counts, average=average, eps=eps, rounding=rounding, beta=beta
        )
        return MulticlassKFoldResult(
            consistent=pooled.consistent,
            folding=label,
            configurations={"paper": 1, "beyond": 0},
            pooled=pooled,
            **common,
        )
    if average == "micro":
        sizes = np.tile(
            explicit.sum(axis=1) if explicit is not None else folds_of.fold_sizes(sum(counts), k), times
        )
        consistent, correct = folds_of.micro_mean(reported, sizes, len(counts), max_states)
        return MulticlassKFoldResult(
            consistent=consistent,
            folding=label,
            configurations={"paper": 1, "beyond": 0},
            tier="paper" if consistent else None,
            fold_counts=sizes.tolist() if consistent else None,
            correct=correct,
            **common,
        )
    unknown = [rep.score for rep in reported if rep.score not in folds_of.MACRO_BASES]
    if unknown:
        raise InputError(
            f"scores: a macro mean over folds takes the scores linear in tp and tn "
            f"({', '.join(folds_of.MACRO_BASES)}); got {', '.join(unknown)}"
        )
    check_work(
        CELL_WORK * k * times * len(counts) ** 2, check_count(max_work, "max_work"), "this macro check"
    )
    limit = check_count(max_configurations, "max_configurations")
    if explicit is not None:
        configs = [np.tile(explicit, (times, 1))]
    elif folding == "stratified":
        configs = [np.tile(config, (times, 1)) for config in folds_of.stratified_class_counts(counts, k)]
    else:
        configs = folds_of.repeated(folds_of.fold_class_counts(counts, k, limit), times, limit)
    return MulticlassKFoldResult(folding=label, **_macro_search(reported, configs, zero_division), **common)


def _explicit(folding, counts, k):
    """The explicit k × C class counts of the folds, checked against the class counts; None if named."""
    if isinstance(folding, str):
        return None
    try:
        table = np.asarray(folding)
        whole = table.ndim == 2 and table.size and np.issubdtype(table.dtype, np.number)
        whole = whole and bool((table == np.rint(table)).all() and (table >= 0).all())
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise InputError(f"folding: expected k rows of C whole class counts >= 0, got {folding!r:.80}")
    table = table.astype(np.int64)
    if table.shape != (k, len(counts)):
        raise InputError(
            f"folding: expected {k} rows (folds) of {len(counts)} class counts, got shape {table.shape}"
        )
    if table.sum(axis=0).tolist() != list(counts):
        raise InputError(
            f"folding: the folds' class counts sum to {table.sum(axis=0).tolist()}, "
            f"not the class counts {list(counts)}"
        )
    if (table.sum(axis=1) == 0).any():
        raise InputError(f"folding: fold {int(np.argmin(table.sum(axis=1))) + 1} holds no items")
    return table


def _macro_search(reported, configs, zero_division):
    """The first configuration, tier by tier, whose folds can give every macro mean (module notes)."""
    bases = {folds_of.MACRO_BASES[rep.score][0] for rep in reported}
    tiers = {"paper": [], "beyond": []}
    for config in configs:
        tiers["paper" if folds_of.fully_defined(config, bases) else "beyond"].append(config)
    tried = {"paper": len(tiers["paper"]), "beyond": len(tiers["beyond"])}
    # the identity of _macro_witness for the accuracy holds in every tier (accuracy is defined everywhere):
    # its mean needs whole numbers correct in folds of these sizes (the same in every configuration)
    found = witness.windows(reported, configs[0].sum(axis=1), len(configs[0][0]))
    if found is None:
        return {"consistent": False, "configurations": tried}
    verdict = False
    for tier, conventions in (
        ("paper", dict.fromkeys(bases, "0")),
        ("beyond", dict.fromkeys(bases, zero_division)),
    ):
        for config in tiers[tier]:
            settled = None
            if tier == "paper" and folds_of.fully_defined(config, ["bacc"]):
                settled = witness.settle(reported, config, found)
            consistent, fit = settled or folds_of.macro_mean(reported, config, conventions)
            if consistent and fit is not None:
                return {
                    "consistent": True,
                    "configurations": tried,
                    "tier": tier,
                    "fold_counts": config.tolist(),
                    "matrices": fit.matrices,
                    "conventions": _fitted_conventions(fit, config) if tier == "beyond" else None,
                    "choices": fit.choices or None,
                }
            verdict = folds_of.either(verdict, consistent)
    return {"consistent": verdict, "configurations": tried}


def _experiment(result) -> str:
    counts = result.class_counts
    repeated = f"{result.repeats} repeats of " if result.repeats > 1 else ""
    return (
        f"{repeated}{result.folds}-fold cross-validation of {len(counts)} classes of "
        f"{', '.join(map(str, counts))} items (N = {sum(counts)})"
    )


def _how(result) -> str:
    within = "micro-averaged (pooled one-vs-rest matrix)" if result.average == "micro" else "macro-averaged"
    return f"{within} on each fold; {AGGREGATION_WORDS[result.aggregation]}"


def _tried(result) -> str:
    paper, beyond = result.configurations["paper"], result.configurations["beyond"]
    if result.average == "micro":
        return "the fold sizes (the micro mean depends on nothing else)"
    total = paper + beyond
    return (
        f"{total:,} configuration{'s' if total != 1 else ''} of the folds' class counts ({paper:,} where "
        f"every score is defined for every class, {beyond:,} where a class has none in some fold)"
    )


def _verdict(result) -> str:
    if result.pooled is not None:
        return (
            f"{result.pooled.verdict} (The summed confusion matrices of the folds are one test set of the "
            f"pooled class counts, {PAPER} §4.2, whatever the folds.)"
        )
    if result.consistent and result.correct is not None:
        pairs = list(zip(result.correct, result.fold_counts, strict=True))
        sizes = ", ".join(f"{k} of {n}" for k, n in pairs[:LISTED])
        more = (
            f" and {len(pairs) - LISTED:,} more folds (to_frame() lists them)" if len(pairs) > LISTED else ""
        )
        return (
            f"consistent: the folds' micro-averaged scores average to every reported score when the folds "
            f"have these items classified correctly: {sizes}{more}. {COULD}"
        )
    if result.consistent and result.matrices is not None:
        counts = "; ".join(" ".join(map(str, row)) for row in result.fold_counts)
        beyond = "; ".join(
            f"a class without {base} in a fold is {_UNDEFINED_WORDS[rule]}"
            for base, rule in (result.conventions or {}).items()
        )
        beyond = f", where {beyond}" if beyond else ""
        return (
            f"consistent: with folds of class counts {counts}{beyond}, the confusion matrices below, "
            f"checked in exact arithmetic, give every mean. {COULD}"
        )
    if result.consistent:
        return (
            "consistent: no inconsistency can be proved (the integer program is feasible), though no "
            "confusion matrices could be verified exactly to give every score."
        )
    if result.consistent is None:
        return (
            f"undecided: HiGHS could not settle every configuration within {folds_of.TIME_LIMIT:g} s per "
            "integer program, and none was found to fit: neither an inconsistency nor confusion matrices "
            "giving the means could be shown."
        )
    if result.average == "micro":
        what = "no numbers of correctly classified items in folds of these sizes give"
    else:
        what = f"in none of the {_tried(result)} do confusion matrices give"
    source = {"stratified": "the stratified folds", "explicit": "the folds given"}.get(result.folding)
    if source is None:  # unknown folds: those of KFold and StratifiedKFold only (issue 29)
        ends = sorted(
            {sum(result.class_counts) // result.folds, -(-sum(result.class_counts) // result.folds)}
        )
        sizes = " or ".join(map(str, ends[::-1]))
        source = (
            f"a split into {result.folds} folds of near-equal size ({sizes} items, as KFold and "
            "StratifiedKFold make)"
        )
        return (
            f"inconsistent: {what} all these means: the scores cannot come from {source} ({CERTAIN}). "
            "Splits with other fold sizes (GroupKFold, LeaveOneGroupOut, TimeSeriesSplit, PredefinedSplit, "
            "custom folds) are not covered: give the folds (folding) to check them."
        )
    return f"inconsistent: {what} all these means: the scores cannot come from {source} ({CERTAIN})."
