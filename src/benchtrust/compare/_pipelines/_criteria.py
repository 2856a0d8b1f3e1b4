"""The common criteria for "A is better than B" that the paper compares P(A > B) with (paper §4.1, §4.2).

* single point: one run of each, A is better when its score is (Figure 6, green line);
* average difference: A is better when its mean score exceeds B's by more than a threshold δ (§4.1);
* t-test: a one-sided paired or Welch t-test at level α (§4.2: "a t-test only differs from an average in
  that the threshold is computed based on the variance of the model performances and the sample size").
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._exact import exact_mean
from benchtrust._io import InputError, check_number, check_probability
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA
from benchtrust.compare._pipelines import _text
from benchtrust.compare._pipelines._outperform import _runs, direction_of
from benchtrust.compare._pipelines._text import COMPARE_QUESTION, SOURCE

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from benchtrust._io import Direction


@dataclasses.dataclass(frozen=True, eq=False)
class CriterionResult(Result):
    """The decision of one comparison criterion.

    Attributes
    ----------
    criterion : str
        "single point", "average difference", "paired t-test" or "Welch t-test".
    a_is_better : bool
        The criterion's verdict: A is better than B.
    improvement : float
        How much better A scores than B: a - b (one run each) or mean(a) - mean(b), with the sign flipped
        when lower is better, so that a positive improvement always favours A.
    threshold : float or None
        δ of the average difference.
    p_value : float or None
        One-sided p-value of the t-test (H0: A is not better than B); None when undefined (no variance).
    statistic : float or None
        The t statistic, signed like ``improvement``.
    alpha : float or None
        α of the t-test.
    n_a, n_b : int
        Runs of A and of B.
    direction : {"higher", "lower"}
        Which scores are better (:attr:`lower_is_better`, the old spelling, is ``direction == "lower"``).
    conclusion : str
        The decision in plain words.

    See Also
    --------
    single_point : The single-point criterion: one run of each.
    average_difference : The average-difference criterion, with a threshold δ.
    t_test : The one-sided t-test of A against B.
    error_rates : The detection rates of the conclusion criteria, simulated.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1-4.2, Fig. 6.
    """

    criterion: str
    a_is_better: bool
    improvement: float
    threshold: float | None
    p_value: float | None
    statistic: float | None
    alpha: float | None
    n_a: int
    n_b: int
    direction: Direction
    conclusion: str

    def __repr__(self) -> str:
        extra = ""
        if self.threshold is not None:
            extra += f", threshold={self.threshold:g}"
        if self.alpha is not None:
            p = "None" if self.p_value is None else f"{self.p_value:.4g}"
            extra += f", p_value={p}, alpha={self.alpha:g}"
        return (
            f"CriterionResult(criterion={self.criterion!r}, a_is_better={self.a_is_better}, "
            f"improvement={self.improvement:.6g}{extra}, n_a={self.n_a}, n_b={self.n_b})"
        )

    @property
    def verdict(self) -> str:
        """The criterion's decision in plain words: :attr:`conclusion`."""
        return self.conclusion

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower score is better: ``direction == "lower"`` (the old spelling, for old code)."""
        return self.direction == "lower"

    def describe(self) -> Description:
        """The criterion, the runs, the improvement and its threshold or test, then the decision (paper
        §4.1-4.2); its section and its data."""
        rows = [
            ("runs of A, of B", f"{self.n_a}, {self.n_b}"),
            ("improvement of A", f"{self.improvement:+.4g}"),
        ]
        assumptions: list[tuple[str, str]] = [("better scores", self.direction)]
        if self.threshold is not None:
            assumptions.append(("threshold δ", f"{self.threshold:g}"))
        if self.alpha is not None:
            defined = self.p_value is not None
            rows.append(("t statistic", f"{self.statistic:.4g}" if defined else "undefined"))
            rows.append(("one-sided p-value", f"{self.p_value:.4g}" if defined else "undefined"))
            assumptions.append((ALPHA, f"{self.alpha:g}"))
        rows.append(("A is better", "yes" if self.a_is_better else "no"))
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_text.criterion_text(self),
            data={
                "criterion": self.criterion,
                "a_is_better": self.a_is_better,
                "improvement": self.improvement,
                "threshold": self.threshold,
                "p_value": self.p_value,
                "statistic": self.statistic,
                "alpha": self.alpha,
                "n_a": self.n_a,
                "n_b": self.n_b,
                "direction": self.direction,
                "conclusion": self.conclusion,
            },
            columns=("quantity", "value"),
            rows=tuple(rows),
            assumptions=tuple(assumptions),
            source=f"{SOURCE}, §4.1-4.2",
            inputs=self.inputs,
            analysis=f"compare {self.criterion}",
        )


def _check_flag(value: object, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InputError(f"{name}: expected True or False, got {value!r}")
    return bool(value)


def _verdict(better: bool) -> str:
    return "A is better than B" if better else "no conclusion that A is better than B"


def single_point(
    a: float, b: float, *, direction: Direction = "higher", lower_is_better: bool | None = None
) -> CriterionResult:
    """Compare one run of A with one run of B: A is better when it scores better (paper §4.1-4.2).

    The weakest criterion of the paper's Figure 6: it ignores every source of variance. With the threshold
    δ = 1.9952σ of §4.2 it concludes in 7.9 % of the benchmarks where P(A > B) = 0.5 and misses 76.9 %
    where P(A > B) = γ = 0.75 (the paper reads ≈ 10 % and ≈ 75 % off its figure; ``compare error-rates``);
    without a threshold, as here, it concludes in half of those where A and B are equally good.

    Parameters
    ----------
    a, b : float
        The score of the single run of A and of B.
    direction : {"higher", "lower"}, default "higher"
        Which scores are better: "lower" for an error rate or a loss.
    lower_is_better : bool, optional
        Deprecated: the old spelling of `direction` (True is ``direction="lower"``).

    Returns
    -------
    CriterionResult

    See Also
    --------
    average_difference : The average-difference criterion, with a threshold δ.
    t_test : The one-sided t-test of A against B.
    CriterionResult : The decision of one common criterion.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    error_rates : The detection rates of the conclusion criteria, simulated.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1-4.2, Fig. 6 (the single-point comparison, green).

    Examples
    --------
    >>> single_point(0.82, 0.81).a_is_better
    True
    >>> single_point(0.12, 0.10, direction="lower").a_is_better
    False
    """
    x = check_number(a, "a")
    y = check_number(b, "b")
    direction = direction_of(direction, lower_is_better)
    improvement = (y - x) if direction == "lower" else (x - y)
    better = bool(improvement > 0)
    return CriterionResult(
        criterion="single point",
        a_is_better=better,
        improvement=float(improvement),
        threshold=None,
        p_value=None,
        statistic=None,
        alpha=None,
        n_a=1,
        n_b=1,
        direction=direction,
        conclusion=f"One run each: A {'beats' if better else 'does not beat'} B by {improvement:+.4g}; "
        f"{_verdict(better)} (variance ignored).",
    )


def average_difference(
    a: ArrayLike,
    b: ArrayLike,
    *,
    threshold: float = 0.0,
    direction: Direction = "higher",
    lower_is_better: bool | None = None,
) -> CriterionResult:
    """A is better when its mean score exceeds B's by more than δ: mean(a) - mean(b) > δ (paper §4.1).

    The prevalent criterion in the literature; it does not account for variance, so it cannot tell a
    true improvement from chance (§4.1). The paper sets δ = 1.9952 σ in its simulations (§4.2), σ the
    standard deviation of the scores, to match the improvements published on paperswithcode.com.

    Parameters
    ----------
    a, b : array_like of float
        Scores of the runs of A and of B (at least one each; any lengths).
    threshold : float, default 0.0
        δ >= 0, in the scores' units.
    direction : {"higher", "lower"}, default "higher"
        Which scores are better: with "lower", A is better when mean(b) - mean(a) > δ.
    lower_is_better : bool, optional
        Deprecated: the old spelling of `direction` (True is ``direction="lower"``).

    Returns
    -------
    CriterionResult

    See Also
    --------
    single_point : The single-point criterion: one run of each.
    t_test : The one-sided t-test of A against B.
    CriterionResult : The decision of one common criterion.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    error_rates : The detection rates of the conclusion criteria, simulated.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1 ('Comparing the average difference'); §4.2 (δ = 1.9952σ), Fig. 6.

    Examples
    --------
    >>> r = average_difference([0.82, 0.84, 0.83], [0.80, 0.81, 0.82], threshold=0.01)
    >>> r.a_is_better, round(r.improvement, 4)
    (True, 0.02)
    """
    x = _runs(a, "a", minimum=1)
    y = _runs(b, "b", minimum=1)
    delta = check_number(threshold, "threshold")
    if delta < 0:
        raise InputError(f"threshold: expected a non-negative number, got {threshold!r}")
    direction = direction_of(direction, lower_is_better)
    improvement = (
        float(exact_mean(y) - exact_mean(x)) if direction == "lower" else float(exact_mean(x) - exact_mean(y))
    )
    better = bool(improvement > delta)
    return CriterionResult(
        criterion="average difference",
        a_is_better=better,
        improvement=improvement,
        threshold=delta,
        p_value=None,
        statistic=None,
        alpha=None,
        n_a=int(x.size),
        n_b=int(y.size),
        direction=direction,
        conclusion=f"A's mean is better by {improvement:+.4g}, "
        f"{'above' if better else 'not above'} the threshold {delta:g}: {_verdict(better)}.",
    )


def t_test(
    a: ArrayLike,
    b: ArrayLike,
    *,
    paired: bool = True,
    alpha: float = 0.05,
    direction: Direction = "higher",
    lower_is_better: bool | None = None,
) -> CriterionResult:
    """One-sided t-test of "A scores better than B on average" at level α (paper §4.2).

    Paired: Student's t-test on the differences a_i - b_i (``scipy.stats.ttest_rel``); unpaired: Welch's
    t-test, with unequal variances (``scipy.stats.ttest_ind(equal_var=False)``). The alternative is that
    A's mean score is higher (lower when ``direction="lower"``); A is better when p < α. It tests
    significance only, not whether P(A > B) reaches γ; ``compare error-rates`` gives its error rates next
    to the other criteria of Fig. 6.

    Parameters
    ----------
    a, b : array_like of float
        Scores of the runs of A and of B, at least two each; the same length when paired.
    paired : bool, default True
        Whether a[i] and b[i] share their sources of variation (paper C.2).
    alpha : float, default 0.05
        α in (0, 1).
    direction : {"higher", "lower"}, default "higher"
        Which scores are better: "lower" for an error rate or a loss.
    lower_is_better : bool, optional
        Deprecated: the old spelling of `direction` (True is ``direction="lower"``).

    Returns
    -------
    CriterionResult
        ``p_value`` and ``statistic`` are None (and A is not better) when the test is undefined: scores
        without any variance.

    See Also
    --------
    single_point : The single-point criterion: one run of each.
    average_difference : The average-difference criterion, with a threshold δ.
    CriterionResult : The decision of one common criterion.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    error_rates : The detection rates of the conclusion criteria, simulated.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.2 (a t-test is an average whose threshold follows the variance), Fig. 6; appendix
       C.2 (pairing).

    Examples
    --------
    >>> a = [0.81, 0.83, 0.80, 0.85, 0.82, 0.84, 0.79, 0.86, 0.83, 0.82]
    >>> b = [0.80, 0.81, 0.81, 0.82, 0.80, 0.84, 0.78, 0.83, 0.80, 0.81]
    >>> r = t_test(a, b)
    >>> r.a_is_better, round(r.p_value, 4)
    (True, 0.0033)
    >>> round(t_test(a, b, paired=False).p_value, 3)
    0.052
    """
    from scipy import stats

    x = _runs(a, "a")
    y = _runs(b, "b")
    paired = _check_flag(paired, "paired")
    alpha = check_probability(alpha, "alpha")
    direction = direction_of(direction, lower_is_better)
    if paired and x.size != y.size:
        raise InputError(
            f"b: paired runs need as many runs as a (a has {x.size}, b has {y.size}); "
            "pass paired=False for unpaired runs"
        )
    if direction == "lower":
        x, y = -x, -y
    with _quiet():
        if paired:
            result = stats.ttest_rel(x, y, alternative="greater")
        else:
            result = stats.ttest_ind(x, y, equal_var=False, alternative="greater")
    p = float(result.pvalue)
    t = float(result.statistic)
    improvement = float(exact_mean(x) - exact_mean(y))
    defined = not math.isnan(p)
    better = bool(defined and p < alpha)
    criterion = "paired t-test" if paired else "Welch t-test"
    if defined:
        conclusion = (
            f"{criterion}: A's mean is better by {improvement:+.4g}, one-sided p = {p:.3g} "
            f"{'<' if better else '>='} alpha = {alpha:g}: {_verdict(better)}."
        )
    else:
        conclusion = f"{criterion}: undefined (the scores have no variance): {_verdict(False)}."
    return CriterionResult(
        criterion=criterion,
        a_is_better=better,
        improvement=improvement,
        threshold=None,
        p_value=p if defined else None,
        statistic=t if defined else None,
        alpha=alpha,
        n_a=int(x.size),
        n_b=int(y.size),
        direction=direction,
        conclusion=conclusion,
    )


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence scipy's precision-loss warning on nearly identical scores (the p-value says it all)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        yield
