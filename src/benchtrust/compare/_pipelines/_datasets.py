"""Many pipelines and several data sets (paper §6).

* :func:`pairwise`: the matrix of P(A > B) (Eq. 9) for every pair of several pipelines' paired runs, each
  with its percentile-bootstrap interval (appendix C.5) at the Bonferroni-adjusted level 1 - α/m, m the
  number of pairs, and the decision of appendix C.6 (lower end > 0.5 and upper end > γ).
* :func:`wilcoxon_datasets` and :func:`friedman_datasets`: Demšar's (2006) tests over one score per data
  set (scipy.stats).
* :func:`better_everywhere`: Dror et al.'s (2017) "better on every data set": a one-sided test per data set,
  Holm's step-down correction over the data sets, and A is better everywhere only if every data set's
  null hypothesis is rejected.

P(A > B) counts a tie as one half and its percentile-bootstrap interval is read off the exact bootstrap
distribution, as in :func:`benchtrust.compare.probability_of_outperforming` (whose private helper this
module uses): the limit of appendix C.5's procedure as the number K of bootstrap groups grows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from benchtrust._interval import Interval
from benchtrust._io import InputError, check_number, check_probability
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA, GAMMA
from benchtrust.compare._pipelines import _datasets_text
from benchtrust.compare._pipelines._outperform import _exact_interval, direction_of
from benchtrust.compare._pipelines._text import COMPARE_QUESTION, SOURCE

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

    from benchtrust._io import Direction

#: The per-data-set tests :func:`better_everywhere` offers.
_TESTS = ("wilcoxon", "t")


def _runs_array(values: ArrayLike, name: str) -> np.ndarray:
    """A 1-d float array of finite numbers, or an InputError naming `name`."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"{name}: expected a list of numbers, got {values!r:.60}") from None
    if array.ndim != 1 or array.size == 0:
        raise InputError(f"{name}: expected a non-empty list of numbers")
    if not np.isfinite(array).all():
        raise InputError(f"{name}: expected finite numbers, got {array[~np.isfinite(array)][0]!r}")
    return array


def _items(mapping: object, name: str) -> list[tuple[str, Any]]:
    """(key, value) pairs of a dict-like (dict, pandas DataFrame), or an InputError naming `name`."""
    if isinstance(mapping, (str, bytes)) or not hasattr(mapping, "items"):
        raise InputError(f"{name}: expected a dict of name -> list of scores, got {type(mapping).__name__}")
    return [(str(key), value) for key, value in mapping.items()]


def _level(alpha: float, name: str = "alpha") -> float:
    return check_probability(alpha, name)


@dataclasses.dataclass(frozen=True, eq=False)
class PairwiseResult(Result):
    """P(A > B) for every ordered pair of pipelines, with Bonferroni-adjusted decisions (paper §6, C.5-C.6).

    Attributes
    ----------
    names : tuple of str
        The pipelines, in the order of the matrices' rows and columns.
    probabilities : numpy.ndarray
        ``probabilities[i, j]`` is P(row i > column j), Eq. 9 on the paired runs (NaN on the diagonal).
    interval : benchtrust.Interval
        The percentile-bootstrap intervals at level ``level``: ``interval.low[i, j]`` and
        ``interval.high[i, j]`` are the ends for row i against column j (NaN on the diagonal).
    better : numpy.ndarray
        ``better[i, j]``: row i is better than column j (lower > 0.5 and upper > γ).
    runs : int
        N, paired runs per pipeline.
    comparisons : int
        m = n(n - 1)/2, the number of pairs of pipelines.
    level : float
        1 - α/m, the Bonferroni-adjusted interval level.
    alpha : float
        α, the family-wise error rate.
    gamma : float
        γ, the threshold of a meaningful P(A > B).

    See Also
    --------
    pairwise : P(A > B) of every pair of pipelines, Bonferroni-adjusted.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §6 ('Benchmarks and competitions with many contestants'); §4.1, Eq. (9); appendix
       C.5-C.6.
    """

    names: tuple[str, ...]
    probabilities: np.ndarray
    interval: Interval
    better: np.ndarray
    runs: int
    comparisons: int
    level: float
    alpha: float
    gamma: float

    @property
    def better_pairs(self) -> tuple[tuple[str, str], ...]:
        """The (better, worse) pairs of pipelines the decision finds, in the matrices' order."""
        rows, columns = np.nonzero(self.better)
        return tuple((self.names[i], self.names[j]) for i, j in zip(rows, columns, strict=True))

    def __repr__(self) -> str:
        wins = [f"{winner} > {loser}" for winner, loser in self.better_pairs]
        return (
            f"PairwiseResult(pipelines={list(self.names)}, runs={self.runs}, comparisons={self.comparisons}, "
            f"level={self.level:.6g}, gamma={self.gamma:g}, better={wins})"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words: which pipelines are better than which (paper §6, C.6)."""
        return _datasets_text.pairwise_verdict(self)

    def describe(self) -> Description:
        """P(A > B) of every pair as a matrix with its intervals, then the verdict (paper §6, C.5-C.6); its
        section and its data (None on the matrices' diagonals; ``interval`` holds the matrices of the
        intervals' ``low`` and ``high`` ends). Its table, in long form, has one row per ordered pair of
        pipelines: ``a``, ``b`` (the row and column of the matrices), ``p_a_beats_b``, ``low`` and ``high``
        (the interval's ends at level ``level``) and ``better`` (a is better than b)."""
        n = len(self.names)
        rows, columns = np.nonzero(~np.eye(n, dtype=bool))
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_datasets_text.pairwise_text(self),
            data={
                "names": self.names,
                "runs": self.runs,
                "comparisons": self.comparisons,
                "level": self.level,
                "alpha": self.alpha,
                "gamma": self.gamma,
                "probabilities": self.probabilities.astype(float),
                "interval": {
                    "low": self.interval.low.astype(float),
                    "high": self.interval.high.astype(float),
                },
                "better": np.asarray(self.better, dtype=bool),
            },
            columns=("P(row > column)", *self.names),
            rows=tuple(
                (self.names[i], *(_datasets_text.pairwise_cell(self, i, j) for j in range(n)))
                for i in range(n)
            ),
            frame={
                "a": [self.names[i] for i in rows],
                "b": [self.names[j] for j in columns],
                "p_a_beats_b": self.probabilities[rows, columns],
                "low": self.interval.low[rows, columns],
                "high": self.interval.high[rows, columns],
                "better": self.better[rows, columns],
            },
            notes=(f"* the row is better: lower end > 0.5 and upper end > {GAMMA}.",),
            assumptions=(
                ("paired runs of each pipeline", f"{self.runs}"),
                (GAMMA, f"{self.gamma:g}"),
                (f"{ALPHA}, family-wise", f"{self.alpha:g}"),
                (
                    "interval level",
                    f"{_datasets_text.pairwise_level(self)} (Bonferroni, {self.comparisons} pairs)",
                ),
            ),
            source=f"{SOURCE}, §6, appendix C.5-C.6",
            inputs=self.inputs,
            analysis="compare pairwise",
        )


def pairwise(
    runs: Mapping[str, ArrayLike] | pd.DataFrame,
    *,
    gamma: float = 0.75,
    alpha: float = 0.05,
    direction: Direction = "higher",
    lower_is_better: bool | None = None,
) -> PairwiseResult:
    """P(A > B) for all pairs of several pipelines, with a Bonferroni-adjusted decision (paper §6).

    For pipelines i and j with N paired runs (run r of every pipeline shares its data split and seeds,
    appendix C.2), P(i > j) = (1/N) Σ_r I{R_ir > R_jr} (Eq. 9), a tie counting one half, so that
    P(i > j) + P(j > i) = 1. Its interval is the percentile bootstrap of appendix C.5, read off its exact
    bootstrap distribution (as :func:`benchtrust.compare.probability_of_outperforming` does), at level
    1 - α/m with m = n(n - 1)/2 the number of pairs: Bonferroni's
    correction, the multiple-comparison adjustment §6 suggests. Row i is declared better than column j when
    the interval's lower end exceeds 0.5 (significant) and its upper end exceeds γ (meaningful), as in
    appendix C.6.

    Parameters
    ----------
    runs : dict of str to sequence of float, or pandas.DataFrame
        Pipeline name -> its N paired performances (the same N for all; a DataFrame's columns are the
        pipelines). At least two pipelines.
    gamma : float, default 0.75
        γ, the threshold of a meaningful P(A > B) (§4.2).
    alpha : float, default 0.05
        α, the family-wise rate of false detections over all pairs.
    direction : {"higher", "lower"}, default "higher"
        Which scores are better: "lower" for errors or losses, where the smaller value wins.
    lower_is_better : bool, optional
        Deprecated: the old spelling of `direction` (True is ``direction="lower"``).

    Returns
    -------
    PairwiseResult

    See Also
    --------
    PairwiseResult : P(A > B) of every pair of pipelines, with Bonferroni-adjusted decisions.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    wilcoxon_datasets : The Wilcoxon signed-rank test over data sets.
    friedman_datasets : The Friedman test over one score per data set.
    better_everywhere : Whether A is better than B on every data set, Holm-corrected.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §6 ('Benchmarks and competitions with many contestants'); §4.1, Eq. (9); appendix
       C.2, C.5-C.6.

    Examples
    --------
    >>> from benchtrust.compare._pipelines._datasets import pairwise
    >>> r = pairwise({"A": [0.91, 0.92, 0.93, 0.90, 0.94, 0.92, 0.93, 0.95, 0.91, 0.92],
    ...               "B": [0.89, 0.90, 0.92, 0.88, 0.91, 0.90, 0.91, 0.92, 0.92, 0.90],
    ...               "C": [0.90, 0.93, 0.90, 0.91, 0.92, 0.93, 0.90, 0.91, 0.94, 0.91]})
    >>> r.comparisons, round(r.level, 4)
    (3, 0.9833)
    >>> float(r.probabilities[0, 1]), float(r.interval.low[0, 1]), bool(r.better[0, 1])
    (0.9, 0.6, True)
    >>> r.better_pairs
    (('A', 'B'),)
    """
    items = _items(runs, "runs")
    if len(items) < 2:
        raise InputError(f"runs: expected at least two pipelines, got {len(items)}")
    names = tuple(name for name, _ in items)
    if len(set(names)) != len(names):
        raise InputError("runs: pipeline names must be distinct")
    arrays = [_runs_array(values, f"runs[{name!r}]") for name, values in items]
    sizes = {a.size for a in arrays}
    if len(sizes) != 1:
        detail = ", ".join(f"{name}: {a.size}" for name, a in zip(names, arrays, strict=True))
        raise InputError(f"runs: paired runs need the same number of runs for every pipeline ({detail})")
    gamma = check_probability(gamma, "gamma")
    alpha = _level(alpha)
    direction = direction_of(direction, lower_is_better)

    scores = np.stack(arrays)  # (pipelines, runs)
    if direction == "lower":
        scores = -scores
    n, N = scores.shape
    wins = (scores[:, None, :] > scores[None, :, :]).sum(axis=2)
    ties = (scores[:, None, :] == scores[None, :, :]).sum(axis=2)
    comparisons = n * (n - 1) // 2
    level_alpha = alpha / comparisons
    probabilities = (wins + 0.5 * ties) / N
    lower = np.full((n, n), np.nan)
    upper = np.full((n, n), np.nan)
    for i in range(n):  # a few pipelines: n(n - 1) exact intervals
        for j in range(n):
            if i != j:
                lower[i, j], upper[i, j] = _exact_interval(N, int(wins[i, j]), int(ties[i, j]), level_alpha)
    diagonal = np.eye(n, dtype=bool)
    probabilities[diagonal] = np.nan
    better = (lower > 0.5) & (upper > gamma) & ~diagonal
    return PairwiseResult(
        names=names,
        probabilities=probabilities,
        interval=Interval(lower, upper),
        better=better,
        runs=int(N),
        comparisons=comparisons,
        level=1.0 - level_alpha,
        alpha=alpha,
        gamma=gamma,
    )


# ---------------------------------------------------------------------------------------------------------
# Several data sets


def _per_dataset(values: Any, name: str) -> tuple[list[str], np.ndarray]:
    """Labels and scores of one score per data set: a sequence, or a dict data set -> score."""
    if hasattr(values, "items") and not isinstance(values, (str, bytes)):
        labels = [str(k) for k in values]
        scores = _runs_array([check_number(v, f"{name}[{k!r}]") for k, v in values.items()], name)
        return labels, scores
    scores = _runs_array(values, name)
    return [str(i + 1) for i in range(scores.size)], scores


@dataclasses.dataclass(frozen=True, eq=False)
class DatasetTestResult(Result):
    """A test over one score per data set: Wilcoxon signed-rank or Friedman (paper §6, Demšar 2006).

    Attributes
    ----------
    test : str
        "wilcoxon signed-rank" or "friedman".
    statistic : float
        The test statistic as scipy.stats reports it.
    p_value : float
        Its p-value.
    datasets : tuple of str
        The data sets (the sample of the test).
    algorithms : tuple of str
        The algorithms compared.
    alternative : str
        "two-sided", "greater" or "less" (Wilcoxon; Friedman is always "two-sided").

    See Also
    --------
    wilcoxon_datasets : The Wilcoxon signed-rank test over data sets.
    friedman_datasets : The Friedman test over one score per data set.
    rank_test : The Friedman test and its post-hoc tests over data sets.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §6 ('Comparisons across multiple dataset').
    .. [2] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.1.3 (Wilcoxon), §3.2.2
       (Friedman).
    """

    test: str
    statistic: float
    p_value: float
    datasets: tuple[str, ...]
    algorithms: tuple[str, ...]
    alternative: str

    def __repr__(self) -> str:
        return (
            f"DatasetTestResult(test={self.test!r}, statistic={self.statistic:.6g}, "
            f"p_value={self.p_value:.6g}, "
            f"datasets={len(self.datasets)}, algorithms={list(self.algorithms)}, "
            f"alternative={self.alternative!r})"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words: the test, the hypothesis tested and its p-value (paper §6)."""
        return _datasets_text.dataset_test_verdict(self)

    def describe(self) -> Description:
        """The test, its statistic and p-value, and the data sets, in words (paper §6); its section and its
        data."""
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_datasets_text.dataset_test_text(self),
            data={
                "test": self.test,
                "statistic": self.statistic,
                "p_value": self.p_value,
                "datasets": self.datasets,
                "algorithms": self.algorithms,
                "alternative": self.alternative,
            },
            columns=("quantity", "value"),
            rows=(("statistic", f"{self.statistic:.6g}"), ("p-value", f"{self.p_value:.4g}")),
            assumptions=(
                ("algorithms", ", ".join(self.algorithms)),
                ("data sets", ", ".join(self.datasets)),
                ("alternative", self.alternative),
            ),
            source=f"{SOURCE}, §6 (Demšar 2006)",
            inputs=self.inputs,
            analysis=f"compare {self.test} test over data sets",
        )


def wilcoxon_datasets(
    scores_a: ArrayLike | Mapping[str, float],
    *,
    scores_b: ArrayLike | Mapping[str, float],
    alternative: Literal["two-sided", "greater", "less"] = "two-sided",
) -> DatasetTestResult:
    """Wilcoxon signed-rank test of two algorithms over several data sets (paper §6, Demšar 2006).

    The sample is the data sets: one score per data set for each algorithm (e.g. its mean over runs). The
    test is :func:`scipy.stats.wilcoxon` on the differences A - B (zero differences dropped, exact null
    distribution for small samples without ties). §6 warns that with the 3 to 5 data sets of a typical paper
    this test has little power.

    Parameters
    ----------
    scores_a : sequence of float or dict of str to float
        Algorithm A's score on each data set (a dict names the data sets).
    scores_b : sequence of float or dict of str to float
        Algorithm B's, on the same data sets (same order, or same keys).
    alternative : {"two-sided", "greater", "less"}
        "greater": A scores higher than B.

    Returns
    -------
    DatasetTestResult

    See Also
    --------
    DatasetTestResult : A Wilcoxon signed-rank or Friedman test over data sets.
    friedman_datasets : The Friedman test over one score per data set.
    better_everywhere : Whether A is better than B on every data set, Holm-corrected.
    pairwise : P(A > B) of every pair of pipelines, Bonferroni-adjusted.
    signed_rank_test : The Bayesian signed-rank test across data sets.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §6 ('Comparisons across multiple dataset').
    .. [2] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.1.3 (the Wilcoxon
       signed-ranks test).

    Examples
    --------
    >>> from benchtrust.compare._pipelines._datasets import wilcoxon_datasets
    >>> r = wilcoxon_datasets([0.81, 0.92, 0.75, 0.68, 0.88, 0.95],
    ...                       scores_b=[0.80, 0.90, 0.765, 0.65, 0.84, 0.90], alternative="greater")
    >>> float(r.statistic), r.p_value  # T+ = 1 + 3 + 4 + 5 + 6; P(T- <= 2) = 3/64
    (19.0, 0.046875)
    """
    from scipy import stats

    labels_a, a = _per_dataset(scores_a, "scores_a")
    labels_b, b = _per_dataset(scores_b, "scores_b")
    if isinstance(scores_a, dict) and isinstance(scores_b, dict):
        if set(labels_a) != set(labels_b):
            raise InputError("scores_b: expected the same data sets as scores_a")
        b = np.array([float(scores_b[k]) for k in scores_a])
        labels_b = labels_a
    if a.size != b.size:
        raise InputError(f"scores_b: expected {a.size} scores (one per data set of scores_a), got {b.size}")
    if alternative not in ("two-sided", "greater", "less"):
        raise InputError(f"alternative: expected 'two-sided', 'greater' or 'less', got {alternative!r}")
    if np.all(a == b):
        raise InputError(
            "scores_b: equal to scores_a on every data set; the signed-rank test needs a difference"
        )
    result = stats.wilcoxon(a, b, alternative=alternative)
    return DatasetTestResult(
        test="wilcoxon signed-rank",
        statistic=float(result.statistic),
        p_value=float(result.pvalue),
        datasets=tuple(labels_a),
        algorithms=("A", "B"),
        alternative=alternative,
    )


def friedman_datasets(
    scores: Mapping[str, ArrayLike | Mapping[str, float]] | pd.DataFrame,
) -> DatasetTestResult:
    """Friedman test of several algorithms over several data sets (paper §6, Demšar 2006).

    Each algorithm has one score per data set; the algorithms are ranked within each data set and
    :func:`scipy.stats.friedmanchisquare` tests whether their mean ranks differ (its statistic corrected
    for ties). :func:`benchtrust.compare.rank_test` is the whole of Demšar's procedure on a long table of
    runs: his χ²_F (without that correction) and Iman and Davenport's F_F, the post-hoc tests and the
    critical-difference diagram.

    Parameters
    ----------
    scores : dict of str to (sequence of float or dict of str to float), or pandas.DataFrame
        Algorithm -> its score on each data set (at least three algorithms, the same data sets for each).

    Returns
    -------
    DatasetTestResult

    See Also
    --------
    DatasetTestResult : A Wilcoxon signed-rank or Friedman test over data sets.
    wilcoxon_datasets : The Wilcoxon signed-rank test over data sets.
    rank_test : The Friedman test and its post-hoc tests over data sets.
    pairwise : P(A > B) of every pair of pipelines, Bonferroni-adjusted.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §6 ('Comparisons across multiple dataset').
    .. [2] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.2 (the Friedman test).

    Examples
    --------
    >>> from benchtrust.compare._pipelines._datasets import friedman_datasets
    >>> r = friedman_datasets({"A": [0.81, 0.92, 0.75, 0.68], "B": [0.80, 0.90, 0.76, 0.65],
    ...                        "C": [0.70, 0.85, 0.70, 0.60]})
    >>> float(r.statistic), round(r.p_value, 4)
    (6.5, 0.0388)
    """
    from scipy import stats

    items = _items(scores, "scores")
    if len(items) < 3:
        raise InputError(f"scores: the Friedman test needs at least three algorithms, got {len(items)}")
    names = tuple(name for name, _ in items)
    first = items[0][1]
    if hasattr(first, "items") and all(hasattr(values, "items") for _, values in items):
        keys = list(first)  # dicts data set -> score: align every algorithm on the first one's data sets
        for name, values in items:
            if set(values) != set(keys):
                raise InputError(f"scores[{name!r}]: expected the same data sets as scores[{items[0][0]!r}]")
        items = [(name, {k: values[k] for k in keys}) for name, values in items]
    columns = [_per_dataset(values, f"scores[{name!r}]") for name, values in items]
    labels = columns[0][0]
    sizes = {c[1].size for c in columns}
    if len(sizes) != 1:
        raise InputError("scores: expected one score per data set, the same data sets, for every algorithm")
    if columns[0][1].size < 2:
        raise InputError("scores: the Friedman test needs at least two data sets")
    result = stats.friedmanchisquare(*(c[1] for c in columns))
    return DatasetTestResult(
        test="friedman",
        statistic=float(result.statistic),
        p_value=float(result.pvalue),
        datasets=tuple(labels),
        algorithms=names,
        alternative="two-sided",
    )


def holm(p_values: ArrayLike, *, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down correction: adjusted p-values and which hypotheses are rejected.

    Sort the m p-values, p_(1) <= ... <= p_(m); reject H_(1), ..., H_(i) as long as p_(j) <= α/(m - j + 1)
    for every j <= i, and stop at the first failure. Equivalently the adjusted p-value of H_(i) is
    max_{j <= i} min(1, (m - j + 1) p_(j)), and H_(i) is rejected when it is <= α.

    See Also
    --------
    better_everywhere : Whether A is better than B on every data set, Holm-corrected.
    EverywhereResult : Whether A is better than B on every data set.
    rank_test : The Friedman test and its post-hoc tests over data sets.

    References
    ----------
    .. [1] Sture Holm, "A simple sequentially rejective multiple test procedure", Scandinavian Journal of
       Statistics 6(2), 65-70, 1979. https://www.jstor.org/stable/4615733.
    .. [2] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §6 (Dror et al.'s test over data sets, as in better_everywhere).
    .. [3] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.2 (Holm's step-down
       procedure as a post-hoc test).

    Examples
    --------
    >>> adjusted, rejected = holm([0.01, 0.04, 0.03], alpha=0.05)
    >>> adjusted.tolist(), rejected.tolist()
    ([0.03, 0.06, 0.06], [True, False, False])
    """
    p = np.asarray(p_values, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted, adjusted <= alpha


@dataclasses.dataclass(frozen=True, eq=False)
class EverywhereResult(Result):
    """Is A better than B on every data set? (paper §6, Dror et al. 2017)

    Attributes
    ----------
    datasets : tuple of str
        The data sets.
    p_values : numpy.ndarray
        One-sided p-value of "A better than B" on each data set.
    adjusted_p_values : numpy.ndarray
        Holm-adjusted p-values.
    rejected : numpy.ndarray
        Data sets where "A is not better" is rejected (adjusted p-value <= α).
    better_everywhere : bool
        Every data set rejected.
    test : str
        The per-data-set test: "wilcoxon" (one-sided signed-rank on the paired runs) or "t" (one-sided
        paired t-test).
    alpha : float
        α, the family-wise error rate over the data sets.

    See Also
    --------
    better_everywhere : Whether A is better than B on every data set, Holm-corrected.
    holm : Holm's step-down correction of p-values.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §6 ('Comparisons across multiple dataset').
    .. [2] Rotem Dror, Gili Baumer, Marina Bogomolov and Roi Reichart, "Replicability analysis for natural
       language processing: testing significance with multiple datasets", Transactions of the Association for
       Computational Linguistics 5, 471-486, 2017. doi:10.1162/tacl_a_00074.
    .. [3] Sture Holm, "A simple sequentially rejective multiple test procedure", Scandinavian Journal of
       Statistics 6(2), 65-70, 1979. https://www.jstor.org/stable/4615733.
    """

    datasets: tuple[str, ...]
    p_values: np.ndarray
    adjusted_p_values: np.ndarray
    rejected: np.ndarray
    better_everywhere: bool
    test: str
    alpha: float

    def __repr__(self) -> str:
        return (
            f"EverywhereResult(better_everywhere={self.better_everywhere}, "
            f"rejected={int(self.rejected.sum())}/{len(self.datasets)}, test={self.test!r}, "
            f"alpha={self.alpha:g})"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words: better on every data set, or where it is not shown (paper §6)."""
        return _datasets_text.everywhere_verdict(self)

    def describe(self) -> Description:
        """The p-values of every data set, Holm-adjusted, then the verdict (paper §6); its section and its
        data. Its table has one row per data set: ``dataset``, ``p_value``, ``adjusted_p_value`` (Holm) and
        ``rejected``."""
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_datasets_text.everywhere_text(self),
            data={
                "better_everywhere": self.better_everywhere,
                "test": self.test,
                "alpha": self.alpha,
                "datasets": self.datasets,
                "p_values": self.p_values,
                "adjusted_p_values": self.adjusted_p_values,
                "rejected": np.asarray(self.rejected, dtype=bool),
            },
            columns=("data set", "p-value", "Holm-adjusted", "rejected"),
            rows=tuple(
                (name, f"{p:.4g}", f"{adjusted:.4g}", "yes" if rejected else "no")
                for name, p, adjusted, rejected in zip(
                    self.datasets, self.p_values, self.adjusted_p_values, self.rejected, strict=True
                )
            ),
            frame={
                "dataset": list(self.datasets),
                "p_value": self.p_values,
                "adjusted_p_value": self.adjusted_p_values,
                "rejected": self.rejected,
            },
            assumptions=(
                ("test on each data set", _datasets_text.EVERYWHERE_TESTS[self.test]),
                (f"{ALPHA}, family-wise", f"{self.alpha:g}"),
            ),
            source=f"{SOURCE}, §6 (Dror et al. 2017)",
            inputs=self.inputs,
            analysis="compare better everywhere",
        )


def better_everywhere(
    runs_a: Mapping[str, ArrayLike],
    *,
    runs_b: Mapping[str, ArrayLike],
    alpha: float = 0.05,
    test: Literal["wilcoxon", "t"] = "wilcoxon",
    direction: Direction = "higher",
    lower_is_better: bool | None = None,
) -> EverywhereResult:
    """Whether A is better than B on every data set, with Holm's correction (paper §6, Dror et al. 2017).

    On each data set d, the paired runs of A and B (run r of both shares its split and seeds) give a
    one-sided p-value for H0_d: "A is not better than B on d":

    * ``test="wilcoxon"`` (default): the one-sided Wilcoxon signed-rank test of the differences A - B
      (:func:`scipy.stats.wilcoxon`, ``alternative="greater"``), which does not assume normal performances;
    * ``test="t"``: the one-sided paired t-test (:func:`scipy.stats.ttest_rel`, ``alternative="greater"``).

    A data set where every difference is zero gives p = 1 (no evidence). Holm's step-down procedure (see
    :func:`holm`) then controls the family-wise error rate α over the data sets, and A is declared better
    on every data set only if all the H0_d are rejected (Dror et al.'s replicability analysis, §6: it works
    with few data sets, and grows strict with many).

    Parameters
    ----------
    runs_a : dict of str to sequence of float
        Data set -> A's paired runs on it.
    runs_b : dict of str to sequence of float
        Data set -> B's runs, the same data sets and as many runs as A on each.
    alpha : float, default 0.05
        Family-wise error rate.
    test : {"wilcoxon", "t"}
        The per-data-set test.
    direction : {"higher", "lower"}, default "higher"
        Which scores are better: "lower" for errors or losses.
    lower_is_better : bool, optional
        Deprecated: the old spelling of `direction` (True is ``direction="lower"``).

    Returns
    -------
    EverywhereResult

    See Also
    --------
    EverywhereResult : Whether A is better than B on every data set.
    holm : Holm's step-down correction of p-values.
    wilcoxon_datasets : The Wilcoxon signed-rank test over data sets.
    pairwise : P(A > B) of every pair of pipelines, Bonferroni-adjusted.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §6 ('Comparisons across multiple dataset').
    .. [2] Rotem Dror, Gili Baumer, Marina Bogomolov and Roi Reichart, "Replicability analysis for natural
       language processing: testing significance with multiple datasets", Transactions of the Association for
       Computational Linguistics 5, 471-486, 2017. doi:10.1162/tacl_a_00074.
    .. [3] Sture Holm, "A simple sequentially rejective multiple test procedure", Scandinavian Journal of
       Statistics 6(2), 65-70, 1979. https://www.jstor.org/stable/4615733.

    Examples
    --------
    >>> from benchtrust.compare._pipelines._datasets import better_everywhere
    >>> a = {"cifar": [0.91, 0.92, 0.93, 0.90, 0.94, 0.92], "sst2": [0.85, 0.86, 0.84, 0.88, 0.87, 0.86]}
    >>> b = {"cifar": [0.89, 0.90, 0.92, 0.88, 0.91, 0.90], "sst2": [0.83, 0.84, 0.83, 0.85, 0.85, 0.84]}
    >>> r = better_everywhere(a, runs_b=b)
    >>> r.p_values.tolist(), r.adjusted_p_values.tolist(), r.better_everywhere
    ([0.015625, 0.015625], [0.03125, 0.03125], True)
    """
    from scipy import stats

    items_a = _items(runs_a, "runs_a")
    items_b = dict(_items(runs_b, "runs_b"))
    if not items_a:
        raise InputError("runs_a: expected at least one data set")
    if set(items_b) != {name for name, _ in items_a}:
        raise InputError("runs_b: expected the same data sets as runs_a")
    alpha = _level(alpha)
    if test not in _TESTS:
        raise InputError(f"test: expected one of {', '.join(map(repr, _TESTS))}, got {test!r}")
    direction = direction_of(direction, lower_is_better)

    names, p_values = [], []
    for name, values in items_a:
        a = _runs_array(values, f"runs_a[{name!r}]")
        b = _runs_array(items_b[name], f"runs_b[{name!r}]")
        if a.size != b.size:
            raise InputError(f"runs_b[{name!r}]: expected {a.size} paired runs (as in runs_a), got {b.size}")
        diff = b - a if direction == "lower" else a - b
        if test == "t" and a.size < 2:
            raise InputError(f"runs_a[{name!r}]: the t-test needs at least two runs")
        if np.all(diff == 0):
            p = 1.0
        elif test == "wilcoxon":
            p = float(stats.wilcoxon(diff, alternative="greater").pvalue)
        elif np.all(diff == diff[0]):  # no spread: the t statistic is ±infinite
            p = 0.0 if diff[0] > 0 else 1.0
        else:
            p = float(stats.ttest_1samp(diff, 0.0, alternative="greater").pvalue)
        names.append(name)
        p_values.append(p)
    p_array = np.array(p_values)
    adjusted, rejected = holm(p_array, alpha=alpha)
    return EverywhereResult(
        datasets=tuple(names),
        p_values=p_array,
        adjusted_p_values=adjusted,
        rejected=rejected,
        better_everywhere=bool(rejected.all()),
        test=test,
        alpha=alpha,
    )
