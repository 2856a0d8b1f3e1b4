"""Scores reported for k-fold cross-validation: could the experiment have produced them? (paper §4)

The experiment: each of one or more data sets (p positives, n negatives) is cut into k folds, the whole
repeated ``repeats`` times, and the scores are aggregated over all folds of all data sets and repeats in
one of two ways (§4.1):

* score of means (``"score_of_means"``, SoM, §4.2, §4.4.1): the scores of the summed counts, which is a
  single test set of p' = repeats·Σp positives and n' = repeats·Σn negatives; the folds do not matter and
  every score of :data:`~benchtrust.consistency.SCORES` can be tested (:func:`check_test_set`);
* mean of scores (``"mean_of_scores"``, MoS, §4.3, §4.4.2): the mean of the folds' scores, for the scores
  linear in the counts (:mod:`._mean_of_scores`). The folds' class counts matter. They are those
  scikit-learn's stratified k-fold makes (``"stratified"``, the same in every repeat;
  :func:`stratified_folds`), given explicitly, or unknown: then every fold configuration of §4.4.3 is
  tried (:func:`fold_configurations`), for every (data set, repeat) independently, so the search space is
  the product of their configuration sets; the search stops at the first combination whose per-fold
  counts can give the scores.

Folds without positives (or negatives)
--------------------------------------
The paper assumes every training set holds both classes and drops the configurations where a reported
score is undefined in some fold (§4.4.1, §4.4.3). scikit-learn users are not bound by that:
``StratifiedKFold`` with fewer positives than folds, unshuffled ``KFold`` on sorted data and small
classes all give such folds, and scikit-learn still prints a mean. So the check has two tiers:

1. the paper's configurations (its counts stay visible: 918 for the EHG case of §5.2);
2. the configurations the fold sizes allow beyond them (a fold without positives or without negatives,
   or one fold holding all of a class), where a score with a zero denominator is undefined in that fold
   and the conventions people use are tried (``zero_division``; see the module notes of
   :mod:`._mean_constraints`): counted as 0 (scikit-learn's default), counted as 1, left out of the mean.
   With ``zero_division="any"`` each score may follow its own convention (scikit-learn's
   ``recall_score`` counts an undefined recall as 0 while ``balanced_accuracy_score`` leaves it out).

"inconsistent" means that no configuration of either tier fits under any convention tried. Stratified
and explicit folds are one configuration, in the first tier or the second.

Fold sizes
----------
The paper's folds differ in size by at most one (§4.4.3), as scikit-learn's ``KFold`` and
``StratifiedKFold`` make them; that is the default, and an "inconsistent" verdict then says it is about
such splits only. ``GroupKFold``, ``LeaveOneGroupOut``, ``PredefinedSplit`` and custom splits make folds of
other sizes: ``fold_sizes`` gives them (every split of the classes into folds of those sizes is tried,
:func:`~._folds.sized_chunks`), or ``"any"`` tries every composition of the items into k non-empty folds.
``TimeSeriesSplit`` tests k folds of equal size but never the first chunk: with ``partial=True`` the sizes
may sum to less than p + n, and every number of positives the folds can hold is tried.

The search is in :mod:`._fold_search`. Identities every configuration of a kind obeys rule out many at
once (the accuracy of folds of given sizes; mean bacc against mean sens and spec, with the folds lacking a
class counted); the exact search decides at most ``max_work`` of the rest and HiGHS gets 10 s per
program: past either, the verdict is undecided (``consistent=None``, ``undecided`` says why), never
"inconsistent". Configurations are tried in the order of the paper's generator, with the ones a random
split makes most often tried after its first 1,024 (:mod:`._fold_search`), in growing batches (1, 2, 4,
... then 256 configurations) of one exact search each. Before any is tried,
a necessary condition shared by all is checked once: the reported accuracy (or error rate) must be
reachable from folds of the given sizes at all, whatever their class counts, since the accuracy of a
fold only depends on its size. Where it fails (e.g. §5.2, five folds of 60 items whose mean accuracy is
a whole number over 300), every configuration of both tiers is inconsistent at once.
"""

from __future__ import annotations

import dataclasses
import numbers
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from benchtrust._interval import Interval
from benchtrust._io import InputError, check_count
from benchtrust._result import Description, Result
from benchtrust.consistency import _text
from benchtrust.consistency._folds import (
    check_folding,
    stratified_folds,
)
from benchtrust.consistency._reported import reported_scores
from benchtrust.consistency._solver._fold_search import FoldSearch, Shape, unknown_folds
from benchtrust.consistency._solver._highs import TIME_LIMIT
from benchtrust.consistency._solver._mean_constraints import CONVENTIONS, constraints
from benchtrust.consistency._solver._mean_of_scores import MAX_STATES
from benchtrust.consistency._test_set import check_test_set, matrices_columns

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from benchtrust.consistency._reported import Reported

#: Default ``max_work``: combinations of fold configurations the exact search may decide (a few
#: milliseconds each) before the check stops undecided.
MAX_WORK = 50_000

#: How the folds' scores are aggregated (§4.1): their mean, or the score of their summed counts.
AGGREGATIONS = ("mean_of_scores", "score_of_means")
#: The paper's acronyms of the aggregations, accepted for them.
ACRONYMS = {"mos": "mean_of_scores", "som": "score_of_means"}
_FOLDINGS = ("stratified", "unknown")
_ZERO_DIVISION = (*CONVENTIONS, "any")


def aggregation_name(aggregation: str) -> str:
    """`aggregation` spelled out: ``"mean_of_scores"`` or ``"score_of_means"``, the paper's acronyms ``"mos"``
    and ``"som"`` accepted for them; InputError for another value.

    Examples
    --------
    >>> aggregation_name("mos"), aggregation_name("score_of_means")
    ('mean_of_scores', 'score_of_means')
    """
    name = ACRONYMS.get(aggregation, aggregation) if isinstance(aggregation, str) else aggregation
    if name not in AGGREGATIONS:
        raise InputError(
            f"aggregation: expected one of {', '.join(AGGREGATIONS)} (or the paper's mos, som), "
            f"got {aggregation!r}"
        )
    return name


@dataclasses.dataclass(frozen=True, eq=False)
class KFoldResult(Result):
    """Whether scores reported for k-fold cross-validation could come from it (paper §4).

    Attributes
    ----------
    consistent : bool or None
        Whether per-fold counts exist that give every reported score. ``False`` is certain about the
        folds described (``fold_sizes``; see the notes of :func:`check_kfold`); None: undecided, the
        search stopped first (``undecided`` says why).
    fold_sizes : str or tuple of tuple of int
        The folds' sizes the verdict covers (mean of scores): ``"equal"``, within one of each other (KFold,
        StratifiedKFold: §4.4.3); ``"any"``, every composition of the items into k non-empty folds; or the
        sizes given, a tuple of k sizes per data set.
    partial : bool
        Whether the folds hold only part of each data set (their sizes sum to less, as
        ``TimeSeriesSplit``'s test folds).
    undecided : str or None
        Why the search stopped before deciding (``max_work``); None when decided.
    aggregation : str
        ``"mean_of_scores"`` (mean of the folds' scores) or ``"score_of_means"`` (score of the summed
        counts).
    folding : str
        ``"stratified"``, ``"unknown"`` or ``"explicit"`` (folds given).
    positives, negatives : tuple of int
        p and n of each data set.
    folds, repeats : int
        k and the number of repetitions.
    configurations_tested : int
        Fold configurations (combinations over data sets and repeats) the verdict covers: all of them
        when inconsistent, up to and including the first feasible one when consistent; 1 for stratified
        or explicit folds, 0 for the score of means (folds are irrelevant).
    configurations : dict
        The same by tier (module notes): ``{"paper": ..., "beyond": ...}``, the paper's configurations
        (§4.4.3) and those beyond them; empty for the score of means.
    tier : str or None
        The tier of the folds that fit (``"paper"`` or ``"beyond"``); None when inconsistent or for the
        score of means.
    order : str or None
        With unknown folds, how the folds that fit were found: ``"generator"``, in the order of the
        paper's generator (§4.4.3), or ``"likely"``, among the configurations a random split makes most
        often, tried after the first 1,024 of a tier (:mod:`._fold_search`); with repeats of one data set
        ``"alike"`` or ``"alike-likely"``: the same among the configurations repeated alike in every
        repeat, tried before the other combinations (``configurations`` then counts those); None
        otherwise.
    zero_division : str
        How undefined fold scores were allowed to enter the means: ``"0"``, ``"1"``, ``"skip"`` or
        ``"any"`` (module notes).
    conventions : dict
        Base score (``sens``, ``spec``, ``bacc``) -> the convention under which the evidence fits, for the
        scores undefined in some fold of the evidence; empty otherwise.
    evidence : dict or None
        None when inconsistent. For the mean of scores: ``{"configuration": [[p_i, n_i], ...], "counts":
        [[tp_i, tn_i], ...]}`` over every fold, data set by data set, repeat by repeat, fold by fold; for the
        score of means:
        ``{"positives": p', "negatives": n', "n_solutions": ..., "solutions": [[tp, tn], ...]}``.
    scores : tuple of Reported
        The reported scores with their intervals.
    beta : float or None
        β of the F-beta scores (score of means).
    bounds : dict of str to Interval
        The smallest and largest fold score reported (Eq. 10, mean of scores), by the score's name as given:
        ``Interval(min, max)``, the ends as given (text keeps the decimals that give their ε); empty
        when none were reported.
    inputs : tuple of str
        The file the folds were read from (:func:`read_folding`), if they were.

    Its table (``to_frame()``) is the evidence: for the mean of scores one row per fold, ``dataset``,
    ``repeat``, ``fold`` (numbered from 1), the fold's ``positives`` and ``negatives``, its ``tp``, ``tn``,
    ``fn``, ``fp``, and one column per reported score holding the fold's score (their means are the
    reported scores); for the score of means the listed confusion matrices of the pooled test set, as
    :class:`TestSetResult` lists them. No rows when inconsistent.

    See Also
    --------
    check_kfold : Scores reported for k-fold cross-validation (§4).
    TestSetResult : The result of check_test_set.
    MulticlassKFoldResult : The result of check_multiclass_kfold.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §4.1-4.4, Eq. (5)-(10):
           the score of means by §4.2 and Eq. (7), the mean of scores by §4.3.2 and Eq. (9)-(10), stratified
           folds by §4.4.2, unknown folds by §4.4.3 and Algorithm 2; extends §4.4.3 to folds without a class
           (``zero_division``) and to folds of other sizes (``fold_sizes``, ``partial``).
    """

    consistent: bool | None
    aggregation: str
    folding: str
    positives: tuple[int, ...]
    negatives: tuple[int, ...]
    folds: int
    repeats: int
    configurations_tested: int
    evidence: dict[str, Any] | None
    scores: tuple[Reported, ...]
    beta: float | None
    bounds: dict[str, Interval]
    configurations: dict[str, int] = dataclasses.field(default_factory=dict)
    tier: str | None = None
    order: str | None = None
    zero_division: str = "any"
    conventions: dict[str, str] = dataclasses.field(default_factory=dict)
    fold_sizes: str | tuple[tuple[int, ...], ...] = "equal"
    partial: bool = False
    undecided: str | None = None

    def __repr__(self) -> str:
        data = ", ".join(f"(p={p}, n={n})" for p, n in zip(self.positives, self.negatives, strict=True))
        shown = ", ".join(f"{rep.score}={rep.value!r}±{rep.eps:g}" for rep in self.scores)
        if self.evidence is None:
            evidence = "None"
        elif self.aggregation == "mean_of_scores":
            evidence = ", ".join(
                f"({p},{n})->({tp},{tn})"
                for (p, n), (tp, tn) in zip(
                    self.evidence["configuration"], self.evidence["counts"], strict=True
                )
            )
            evidence = f"[{evidence}]"
        else:
            evidence = (
                f"{self.evidence['n_solutions']} (tp, tn) of p'={self.evidence['positives']}, "
                f"n'={self.evidence['negatives']}"
            )
        return (
            f"KFoldResult(consistent={self.consistent}, aggregation={self.aggregation!r}, "
            f"folding={self.folding!r}, data sets [{data}], folds={self.folds}, repeats={self.repeats}, "
            f"fold_sizes={self.fold_sizes!r}, configurations_tested={self.configurations_tested}, "
            f"tier={self.tier!r}, "
            f"conventions={self.conventions!r}, evidence={evidence}, scores=[{shown}])"
        )

    @property
    def pooled_positives(self) -> int:
        """p' = repeats·Σp, the positives of the pooled test set the score of means is computed on (§4.2)."""
        return self.repeats * sum(self.positives)

    @property
    def pooled_negatives(self) -> int:
        """n' = repeats·Σn, the negatives of the pooled test set (§4.2)."""
        return self.repeats * sum(self.negatives)

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §4.2-4.4): the folds and per-fold counts that give every score,
        or that none do."""
        return _text.kfold_verdict(self)

    def describe(self) -> Description:
        """The result's description (paper §4): its text, section, data and evidence."""
        verdict = _text.kfold_verdict(self)
        return Description(
            question=_text.QUESTION,
            verdict=_text.capital(verdict),
            text=_text.kfold_text(self),
            data={
                "consistent": self.consistent,
                "aggregation": self.aggregation,
                "folding": self.folding,
                "positives": self.positives,
                "negatives": self.negatives,
                "folds": self.folds,
                "repeats": self.repeats,
                "configurations_tested": self.configurations_tested,
                "configurations": self.configurations,
                "tier": self.tier,
                "order": self.order,
                "zero_division": self.zero_division,
                "conventions": self.conventions,
                "fold_sizes": self.fold_sizes,
                "partial": self.partial,
                "undecided": self.undecided,
                "evidence": self.evidence,
                "scores": [reported.to_dict() for reported in self.scores],
                "beta": self.beta,
                "bounds": {name: [float(low), float(high)] for name, (low, high) in self.bounds.items()},
            },
            columns=_text.SCORE_COLUMNS,
            rows=_text.score_rows(self.scores),
            frame=self._evidence_columns(),
            assumptions=_text.kfold_assumptions(self),
            source=f"{_text.SOURCE}, {'§4.2' if self.aggregation == 'score_of_means' else '§4.3-4.4'}",
            inputs=self.inputs,
            analysis="consistency kfold",
        )

    def _evidence_columns(self) -> dict[str, Any]:
        """The columns of the table of the evidence: per-fold (mean of scores) or pooled matrices."""
        evidence = self.evidence
        if self.aggregation == "score_of_means":
            pairs = np.array(evidence["solutions"] if evidence else [], dtype=np.int64).reshape(-1, 2)
            p, n = self.pooled_positives, self.pooled_negatives
            return matrices_columns({}, pairs[:, 0], pairs[:, 1], p, n, self.scores, self.beta)
        configuration = np.array(evidence["configuration"] if evidence else [], dtype=np.int64).reshape(-1, 2)
        counts = np.array(evidence["counts"] if evidence else [], dtype=np.int64).reshape(-1, 2)
        row = np.arange(len(counts))
        leading = {
            "dataset": row // (self.repeats * self.folds) + 1,
            "repeat": row // self.folds % self.repeats + 1,
            "fold": row % self.folds + 1,
            "positives": configuration[:, 0],
            "negatives": configuration[:, 1],
        }
        return matrices_columns(
            leading, counts[:, 0], counts[:, 1], configuration[:, 0], configuration[:, 1], self.scores, None
        )


def check_kfold(
    scores: Mapping[str, str | float],
    *,
    positives: int | Sequence[int],
    negatives: int | Sequence[int],
    folds: int,
    repeats: int = 1,
    aggregation: Literal["mean_of_scores", "score_of_means", "mos", "som"] = "mean_of_scores",
    folding: Literal["stratified", "unknown"]
    | Sequence[Sequence[int]]
    | Sequence[Sequence[Sequence[int]]] = "unknown",
    eps: float | Mapping[str, float] | None = None,
    rounding: Literal["round", "floor-or-ceil"] = "round",
    beta: float | None = None,
    bounds: Mapping[str, Sequence[str | float]] | None = None,
    zero_division: Literal["any", "0", "1", "skip", 0, 1] = "any",
    fold_sizes: Literal["equal", "any"] | Sequence[int] | Sequence[Sequence[int]] | None = None,
    partial: bool = False,
    max_configurations: int = 10**7,
    max_work: int | None = MAX_WORK,
    max_states: int = MAX_STATES,
    progress: Callable[[int, int], object] | None = None,
) -> KFoldResult:
    """Could the scores come from (repeated) k-fold cross-validation of these data sets? (paper §4)

    Parameters
    ----------
    scores : mapping
        Score name (any alias) -> reported value, a number or its text as printed.
    positives, negatives : int or sequence of int
        p and n of the data set, or of each of several data sets (equal lengths); the scores are then
        aggregated over the folds of all of them.
    folds : int
        k, the number of folds (2 <= k <= p + n).
    repeats : int, default 1
        Repetitions of the k-fold split (repeated k-fold cross-validation).
    aggregation : {"mean_of_scores", "score_of_means"}
        Mean of the folds' scores (§4.3; acc, sens, spec, bacc and the complements err, fnr, fpr only), or
        the scores of the summed counts (§4.2, any score); the paper's acronyms ``"mos"`` and ``"som"``
        are accepted for them.
    folding : "stratified", "unknown" or list
        The folds' class counts (mean of scores only): those of scikit-learn's ``StratifiedKFold``
        (:func:`stratified_folds`, the same in every repeat); unknown, so every configuration of §4.4.3 is
        tried; or explicit: a list of (p_i, n_i) of the k folds, or one such list per data set (the same in
        every repeat); :func:`read_folding` reads such a list from a CSV file.
    eps : float or mapping, optional
        ε, the numerical uncertainty, for all scores or per score; inferred from the decimals otherwise.
    rounding : {"round", "floor-or-ceil"}
        How the values were cut to their decimals, when ε is inferred.
    beta : float, optional
        β of the F-beta scores (score of means).
    bounds : mapping, optional
        Score name -> (min, max) over the folds, when reported (Eq. 10, mean of scores only): every fold's
        score then lies in [min - ε, max + ε].
    zero_division : {"any", "0", "1", "skip"}
        How a score undefined in a fold (sensitivity without positives, specificity without negatives)
        enters the mean, in the folds beyond the paper's (module notes): counted as 0 (scikit-learn's
        default), as 1, left out of the mean, or any of these, each score on its own (the default).
    fold_sizes : None, "any" or sequence of int
        With unknown folds (mean of scores), the sizes of the folds the configurations are drawn from.
        None: sizes within one of each other, as ``KFold`` and ``StratifiedKFold`` make (§4.4.3); the
        verdict is then about such splits only. A sequence of k whole numbers >= 1 (in any order; or one
        sequence per data set): folds of those sizes, as ``GroupKFold``, ``LeaveOneGroupOut`` or
        ``PredefinedSplit`` make them; every split of the positives and negatives into them is tried.
        ``"any"``: every composition of the p + n items into k non-empty folds.
    partial : bool, default False
        The folds hold part of the data set only: sizes summing to less than p + n are allowed, and the
        positives in them range over every count they allow (``TimeSeriesSplit``, whose first chunk is
        never a test fold: give k sizes of ``n_samples // (k + 1)``, or its ``test_size``).
    max_configurations : int, default 10**7
        With unknown folds, the most combinations of configurations (over data sets and repeats) to try,
        in each tier; a larger search space is refused before the search starts. With repeats of one data
        set, the configurations repeated alike in every repeat are tried first (if no more than this):
        one that fits gives the verdict, and the refusal comes only when none does.
    max_work : int or None, default 50,000
        With unknown folds, the most combinations the exact search may decide (those the identities of
        the notes rule out at once are not counted); past it the check stops undecided
        (``consistent=None``), never "inconsistent". None: no limit.
    progress : callable, optional
        ``progress(done, total)``, called as combinations of fold configurations are decided.
    max_states : int, default 2**22
        The most states one step of the exact search may create when it must decide a problem HiGHS
        could not (see the notes); past it the check stops with an InputError naming ``max_states``.

    Returns
    -------
    KFoldResult

    See Also
    --------
    KFoldResult : The result of check_kfold.
    check_test_set : Scores reported for one test set (§3).
    check_multiclass_kfold : Averaged multiclass scores of k-fold cross-validation.
    fold_configurations : Every fold configuration of k-fold cross-validation (§4.4.3).
    stratified_folds : The folds of scikit-learn's StratifiedKFold (§4.4.2).
    check_protocols : Every candidate evaluation protocol of the scores, each checked (§5.1).
    check_batch : Many claims at once, one per row of a table.

    Notes
    -----
    An "inconsistent" verdict is about the folds described: with ``fold_sizes=None`` it says that no split
    into folds of near-equal size gives the scores, which says nothing of splits with other fold sizes
    (``GroupKFold``, ``LeaveOneGroupOut``, ``TimeSeriesSplit``, ``PredefinedSplit``, custom folds); the
    verdict's words say which.

    With the score of means the verdict is that of :func:`check_test_set` (exact). With the mean of
    scores every configuration is decided by an exact search in integer arithmetic, so that
    "inconsistent" is a theorem; only problems too large for it (many folds with many distinct class
    counts) are handed to HiGHS, whose "infeasible" on intervals widened by 1e-5 is then trusted (see
    :mod:`~benchtrust.consistency._solver._mean_of_scores`). Evidence is checked exactly with fractions
    before it is returned.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §4.1-4.4, Eq. (5)-(10):
           the score of means by §4.2 and Eq. (7), the mean of scores by §4.3.2 and Eq. (9)-(10), stratified
           folds by §4.4.2, unknown folds by §4.4.3 and Algorithm 2; extends §4.4.3 to folds without a class
           (``zero_division``) and to folds of other sizes (``fold_sizes``, ``partial``). The first examples
           are those of §5.2.

    Examples
    --------
    §5.2: a paper reports mean accuracy 0.9447, sensitivity 0.9139 and specificity 0.9733 from 5-fold
    cross-validation of the EHG data (38 positives, 262 negatives). No configuration of the folds gives
    them; with the positives oversampled to 244 before splitting, the 963rd does:

    >>> scores = {"acc": 0.9447, "sens": 0.9139, "spec": 0.9733}
    >>> r = check_kfold(scores, positives=38, negatives=262, folds=5, eps=1e-4)
    >>> r.consistent, r.configurations
    (False, {'paper': 918, 'beyond': 551})
    >>> r = check_kfold(scores, positives=244, negatives=262, folds=5, eps=1e-4)
    >>> r.consistent, r.configurations_tested, r.evidence["configuration"]
    (True, 963, [[1, 101], [4, 97], [40, 61], [99, 2], [100, 1]])
    >>> r.evidence["counts"]
    [[1, 96], [3, 92], [38, 59], [90, 2], [96, 1]]

    The evidence as a table, one row per fold; their mean accuracy is the one reported:

    >>> frame = r.to_frame()
    >>> frame[["fold", "positives", "negatives", "tp", "tn"]]
       fold  positives  negatives  tp  tn
    0     1          1        101   1  96
    1     2          4         97   3  92
    2     3         40         61  38  59
    3     4         99          2  90   2
    4     5        100          1  96   1
    >>> round(float(frame["acc"].mean()), 4)
    0.9447

    The paper's 918 configurations are the first tier; the 551 with a fold without positives are the
    second, where no convention for the undefined sensitivities helps either. A perfect classifier
    scored by scikit-learn on stratified folds of 3 positives in 5 folds: two folds have no positives,
    and their sensitivity counts as 0:

    >>> r = check_kfold({"sens": "0.6", "acc": "1.0"}, positives=3, negatives=20, folds=5,
    ...                 folding="stratified")
    >>> r.consistent, r.tier, r.conventions
    (True, 'beyond', {'sens': '0'})

    With stratified folds, or the score of means:

    >>> check_kfold(scores, positives=38, negatives=262, folds=5, eps=1e-4, folding="stratified").consistent
    False
    >>> check_kfold({"acc": "0.95", "f1": "0.80"}, positives=38, negatives=262, folds=5,
    ...             aggregation="score_of_means").evidence["n_solutions"]
    4
    """
    reported = reported_scores(scores, eps=eps, rounding=rounding, beta=beta)
    p, n = _data_sets(positives, negatives)
    k = check_count(folds, "folds")
    for p_d, n_d in zip(p, n, strict=True):
        check_folding(p_d, n_d, k)
    r = check_count(repeats, "repeats")
    spelled = aggregation_name(aggregation)
    convention = str(zero_division).strip().lower()
    if convention not in _ZERO_DIVISION:
        raise InputError(f"zero_division: expected one of {', '.join(_ZERO_DIVISION)}, got {convention!r}")
    explicit = _explicit(folding, p, n, k)
    name = "explicit" if explicit is not None else folding
    limit = check_count(max_configurations, "max_configurations")
    work = check_count(max_states, "max_states")
    most = None if max_work is None else check_count(max_work, "max_work")
    sizes = _fold_sizes(fold_sizes, partial, p, n, k)
    if (fold_sizes is not None or partial) and (spelled != "mean_of_scores" or name != "unknown"):
        raise InputError(
            f"{'fold_sizes' if fold_sizes is not None else 'partial'}: describes the folds the "
            "configurations are drawn from, for the mean of scores (aggregation=mean_of_scores) with unknown "
            "folds (folding=unknown) only"
        )
    result = {
        "aggregation": spelled,
        "folding": name,
        "positives": p,
        "negatives": n,
        "folds": k,
        "repeats": r,
        "beta": None if beta is None else float(beta),
        "bounds": {},
        "zero_division": convention,
        "fold_sizes": sizes if isinstance(sizes, str) else tuple(tuple(s) for s in sizes),
        "partial": bool(partial),
    }
    if spelled == "score_of_means":
        if bounds is not None:
            raise InputError("bounds: the min and max over folds (Eq. 10) apply to the mean of scores only")
        return _score_of_means(scores, reported, r, eps, rounding, beta, result)
    given = constraints(reported, bounds, eps=eps, rounding=rounding)
    if bounds is not None:
        result["bounds"] = {str(name).strip(): Interval(*pair) for name, pair in bounds.items()}
    search = FoldSearch(given, convention, k, work)
    if name == "unknown":
        units = [
            Shape(p_d, n_d, k, sizes if isinstance(sizes, str) else sizes[d], bool(partial))
            for d, (p_d, n_d) in enumerate(zip(p, n, strict=True))
            for _ in range(r)
        ]
        found, tried, tier, order, stopped = unknown_folds(
            search, units, limit, max_work=most, progress=progress
        )
        return _mean_of_scores(found, tried, tier, reported, dict(result, order=order), stopped)
    per_set = (
        explicit
        if explicit is not None
        else [stratified_folds(p_d, n_d, k) for p_d, n_d in zip(p, n, strict=True)]
    )
    configuration = np.concatenate([np.tile(f, (r, 1)) for f in per_set])
    sizes = configuration.sum(axis=1)[None]
    rows = configuration[None, :, 0]
    tier = "paper" if search.paper(rows, sizes)[0] else "beyond"
    unsettled: set[int] = set()
    found = search.first(rows, sizes, unsettled)
    tried = {"paper": int(tier == "paper"), "beyond": int(tier == "beyond")}
    stopped = None
    if unsettled and found is None:
        stopped = (
            f"HiGHS could not settle these folds within {TIME_LIMIT:g} s (the exact search is too large)"
        )
    return _mean_of_scores(found and found[1:], tried, tier, reported, result, stopped)


def _fold_sizes(fold_sizes, partial, p, n, k):
    """``fold_sizes`` checked: "equal" (None), "any", or per data set k whole numbers >= 1, nonincreasing,
    summing to p + n (or at most that, ``partial``)."""
    if not isinstance(partial, bool | np.bool_):
        raise InputError(f"partial: expected True or False, got {partial!r}")
    if fold_sizes is None or (isinstance(fold_sizes, str) and fold_sizes.strip().lower() in ("equal", "any")):
        word = "equal" if fold_sizes is None else fold_sizes.strip().lower()
        if partial:
            raise InputError(
                "partial: folds covering part of the data set need their sizes (fold_sizes), k whole "
                "numbers (TimeSeriesSplit: k times n_samples // (k + 1))"
            )
        return word
    if isinstance(fold_sizes, str | bytes) or not hasattr(fold_sizes, "__len__"):
        raise InputError(
            f"fold_sizes: expected 'any' or {k} whole numbers >= 1 (one per fold), got {fold_sizes!r:.80}"
        )
    nested = len(fold_sizes) > 0 and all(hasattr(v, "__len__") and not isinstance(v, str) for v in fold_sizes)
    per_set = list(fold_sizes) if nested else [fold_sizes] * len(p)
    if len(per_set) != len(p):
        raise InputError(
            f"fold_sizes: expected one list of {k} sizes per data set ({len(p)}), got {len(per_set)}"
        )
    out = []
    for d, sizes in enumerate(per_set):
        where = f"fold_sizes[{d}]" if nested else "fold_sizes"
        if len(sizes) != k or not all(
            isinstance(v, numbers.Integral | float) and not isinstance(v, bool) and v >= 1 and v == int(v)
            for v in sizes
        ):
            raise InputError(
                f"{where}: expected {k} whole numbers >= 1, one per fold (folds: {k}), "
                f"got {list(sizes)!r:.80}"
            )
        sizes = sorted((int(v) for v in sizes), reverse=True)
        total, items = sum(sizes), p[d] + n[d]
        if total > items or (total != items and not partial):
            allowed = "at most" if partial else "exactly"
            hint = "" if partial or total > items else "; folds covering part of it need partial=True"
            raise InputError(
                f"{where}: the folds hold {total} items, the data set {items} (p={p[d]}, n={n[d]}); "
                f"expected sizes summing to {allowed} {items}{hint}"
            )
        out.append(tuple(sizes))
    return out


def _data_sets(positives, negatives):
    """p and n of every data set, as tuples of ints."""
    many = [not isinstance(v, numbers.Number | str) and hasattr(v, "__len__") for v in (positives, negatives)]
    if many[0] != many[1]:
        raise InputError(
            "positives, negatives: give both as whole numbers (one data set) or both as sequences of the "
            f"same length (several data sets), got {positives!r} and {negatives!r}"
        )
    if not many[0]:
        return (check_count(positives, "positives"),), (check_count(negatives, "negatives"),)
    if len(positives) != len(negatives) or not len(positives):
        raise InputError(
            f"positives, negatives: expected sequences of the same length >= 1 (one entry per data set), "
            f"got {len(positives)} and {len(negatives)} entries"
        )
    p = tuple(check_count(v, f"positives[{i}]") for i, v in enumerate(positives))
    n = tuple(check_count(v, f"negatives[{i}]") for i, v in enumerate(negatives))
    return p, n


def _explicit(folding, p, n, k):
    """The folds of each data set as (k, 2) arrays when ``folding`` lists them; None for a named folding."""
    if isinstance(folding, str):
        if folding not in _FOLDINGS:
            raise InputError(
                f"folding: expected {', '.join(_FOLDINGS)} or a list of (positives, negatives) per fold, "
                f"got {folding!r}"
            )
        return None
    try:
        array = np.array(folding, dtype=object)
    except ValueError:
        array = None
    if array is not None and array.ndim == 2:
        array = array[None]
    if array is None or array.ndim != 3 or array.shape[1:] != (k, 2) or array.shape[0] != len(p):
        raise InputError(
            f"folding: expected {k} pairs (positives, negatives), one per fold"
            + (f", for each of the {len(p)} data sets" if len(p) > 1 else "")
            + f", got {folding!r:.120}"
        )
    out = []
    for d, folds in enumerate(array):
        where = f"folding[{d}]" if len(p) > 1 else "folding"
        # Plain whole numbers (the usual case) pass at once; otherwise the first bad fold is named.
        plain = {type(v) for v in folds.flat} <= {int, np.int64} and (folds >= 0).all()
        for i, (p_i, n_i) in enumerate(() if plain and (folds.sum(axis=1) >= 1).all() else folds):
            if (
                not all(
                    isinstance(v, numbers.Integral | float)
                    and not isinstance(v, bool)
                    and v >= 0
                    and v == int(v)
                    for v in (p_i, n_i)
                )
                or p_i + n_i < 1
            ):
                raise InputError(
                    f"{where}: fold {i} must hold whole numbers >= 0 of positives and negatives, not both 0; "
                    f"got {(p_i, n_i)!r}"
                )
        folds = folds.astype(np.int64)
        if folds[:, 0].sum() != p[d] or folds[:, 1].sum() != n[d]:
            raise InputError(
                f"{where}: the folds hold {folds[:, 0].sum()} positives and {folds[:, 1].sum()} negatives, "
                f"the data set {p[d]} and {n[d]}"
            )
        out.append(folds)
    return out


def _score_of_means(scores, reported, r, eps, rounding, beta, result):
    """§4.2, §4.4.1: one pooled test set of repeats·Σp positives and repeats·Σn negatives."""
    pooled_p, pooled_n = r * sum(result["positives"]), r * sum(result["negatives"])
    found = check_test_set(
        scores, positives=pooled_p, negatives=pooled_n, eps=eps, rounding=rounding, beta=beta
    )
    evidence = None
    if found.consistent:
        evidence = {
            "positives": pooled_p,
            "negatives": pooled_n,
            "n_solutions": found.n_solutions,
            "solutions": [[tp, tn] for tp, tn in found.solutions],
        }
    return KFoldResult(
        consistent=found.consistent, configurations_tested=0, evidence=evidence, scores=reported, **result
    )


def _mean_of_scores(found, configurations, tier, reported, result, stopped=None):
    """The result of a mean-of-scores search; ``found``: (the folds' (p_i, n_i), counts, conventions);
    ``stopped``: why the search ended undecided, or None."""
    evidence, conventions = None, {}
    if found is not None:
        configuration, counts, conventions = found
        evidence = {"configuration": configuration.tolist(), "counts": counts.tolist()}
    return KFoldResult(
        consistent=True if found is not None else (None if stopped else False),
        undecided=stopped,
        configurations_tested=sum(configurations.values()),
        configurations=configurations,
        tier=None if found is None else tier,
        conventions=conventions,
        evidence=evidence,
        scores=reported,
        **result,
    )
