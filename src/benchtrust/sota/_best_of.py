"""The exact distribution of the best accuracy among m classifiers on one test set (paper §3.3, §4).

Z is the smallest number of failures among the m classifiers, and the best observed accuracy is
(n - Z) / n. Its cdf F(z) = P(Z <= z) is

* identical, independent classifiers (Eq. 2): F(z) = 1 - (1 - P_z)^m, with P_z = P(X <= z);
* non-identical, independent (Eq. 8): F(z) = 1 - prod_j (1 - P(X_j <= z));
* dependent through a latent reference classifier Y0 (§4.1, §4.3): given the number k of items Y0 gets
  right, the classifiers are independent and X_j = Bin(k, 1 - P(Y_j | Y0=1)) + Bin(n - k, 1 - P(Y_j | Y0=0))
  (Eq. 10-11), so F(z) = sum_k P(K = k) [1 - prod_j (1 - P(X_j <= z | k))], with K ~ Bin(n, θ0) for a
  random Y0 or K = round(θ0 n) for a fixed one.

Products over classifiers are sums of log1p(-P) over the distinct accuracies, weighted by how many
classifiers share each. Only the window of z where F is neither 0 nor 1 (up to 1e-15) is evaluated. On
test sets of LARGE_TEST_SET items and more the dependent model is computed on a lattice of counts, within
a bound the result states (``error_bound``; :mod:`benchtrust.sota._characteristic`).
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, Any, Literal

import numpy as np

from benchtrust._interval import Interval
from benchtrust._io import InputError, check_count, check_probability
from benchtrust._result import Description, Result, jsonable
from benchtrust._words import ALPHA, RHO, interval_text, level_text
from benchtrust.sota import _binomial, _characteristic, _conditional, _dependence, _text
from benchtrust.sota._plot import plot_best_of

if TYPE_CHECKING:
    import numpy.typing as npt

#: Probability mass allowed outside the evaluated window of z, at each end: the error bound of the exact
#: distributions (every reported probability is within it; doubles resolve 1.1e-16 near 1). In the
#: dependent model a conditional cdf summed in floating point may stop short of 1 by up to 1e-12: its k
#: is then finished there (:mod:`benchtrust.sota._conditional`).
WINDOW_TAIL = 1e-15
#: From this test size on, the dependent model is computed on a lattice of counts from
#: characteristic functions (:mod:`benchtrust.sota._characteristic`), within a stated bound, instead of
#: exactly step by step. Below it the step-by-step computation is as fast on boards of thousands of
#: distinct accuracies and stays exact (the paper's boards: n <= 13,840); above it, its time grows with
#: n and with how deep the bootstrap scans (300 teams on n = 20,000: 12 s, against 4 s on the lattice).
LARGE_TEST_SET = 15_000


@dataclasses.dataclass(frozen=True, eq=False)
class BestOfResult(Result):
    """Distribution of the best observed score (accuracy or AUC) among m classifiers on one test set.

    ``str(result)`` is what ``benchtrust sota best-of`` prints, its verdict last; ``to_frame()`` the
    distribution, one row per possible best score (columns ``score``, ``pmf`` and ``cdf``).

    Attributes
    ----------
    score : numpy.ndarray
        Possible best scores, ascending, over the window where the distribution lives: accuracies
        (n - z) / n, or AUCs U / (n+ n-). Computed on a lattice of L counts (``error_bound`` > 0), the
        middles of its cells: (n - z + (L - 1) / 2) / n at every L-th z.
    pmf : numpy.ndarray
        P(best score = score).
    cdf : numpy.ndarray
        P(best score <= score).
    expected_max : float
        E(θ̂_max), the expected best score.
    sd_max : float
        Standard deviation of the best score.
    ci : benchtrust.Interval
        Central (1 - α) interval ``(low, high)``: the smallest score a with P(best <= a) >= α/2, and the
        largest a with P(best >= a) >= α/2 (the paper's "upper 95 % CI": the smallest z with F(z) >= α/2).
    alpha : float
        α.
    classifiers : int
        m, the number of classifiers used (after any dropped by Eq. 12).
    test_size : int
        n.
    top_score : float
        The largest true score θ_j (accuracy or AUC).
    lowest_score : float
        The smallest true score θ_j (``top_score`` when the classifiers share one).
    correlation : float
        ρ (0: independent classifiers).
    reference_accuracy : float or None
        θ0 of the latent reference classifier (None when independent).
    fixed_reference : bool
        Whether Y0 is fixed (exactly round(θ0 n) items right) rather than random.
    dropped : int
        Classifiers left out because Eq. 12 does not admit their accuracy.
    model : str
        Which model: "independent, identical", "dependent, non-identical, random reference", ...
    method : str
        "exact", or "monte carlo, R simulations".
    metric : str
        "accuracy" or "auc".
    positives : int or None
        n+, positive items in the test set (AUC only).
    error_bound : float
        How far ``expected_max`` and each end of ``ci`` may be from their exact values: 0 where the
        distribution is exact (up to rounding); for the dependent model on a test set of at least
        ``LARGE_TEST_SET`` items, the bound of its computation on a lattice of counts
        (:mod:`benchtrust.sota._characteristic`).
    inputs : tuple of str
        The file the true scores θ_j were read from, if any (``--accuracies``), named in the text.

    See Also
    --------
    best_of : The exact distribution of the best of m accuracies.
    simulate_best_of : The same by Monte Carlo, a cross-check.
    best_of_auc : The best of m AUCs.
    plot_best_of : Draw an accuracy result as the paper's Fig. 1.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §3.3, Eq. (2)-(3) (the cdf F(z)
       and pmf f(z) of the smallest number of failures Z); §3.4, Fig. 1-3 and Table 1 (E(θ̂_max), its
       standard deviation and the multiplicity-adjusted upper limit θ^m_{1-α/2}); §4, Table 2
       (dependent and non-identical classifiers); §5.2.1, Fig. 11 (AUC).

    Examples
    --------
    >>> r = best_of([0.875, 0.9], test_size=300)
    >>> print(str(r).splitlines()[4])
      accuracy θ            0.875 to 0.9
    >>> frame = r.to_frame()
    >>> list(frame.columns), round(float(frame["pmf"].sum()), 12)
    (['score', 'pmf', 'cdf'], 1.0)
    """

    score: np.ndarray
    pmf: np.ndarray
    cdf: np.ndarray
    expected_max: float
    sd_max: float
    ci: Interval
    alpha: float
    classifiers: int
    test_size: int
    top_score: float
    lowest_score: float
    correlation: float
    reference_accuracy: float | None
    fixed_reference: bool
    dropped: int
    model: str
    method: str
    metric: str = "accuracy"
    positives: int | None = None
    error_bound: float = 0.0

    def __repr__(self) -> str:
        low, high = self.ci
        level = f"{100 * (1 - self.alpha):g}%"
        return (
            f"BestOfResult(metric={self.metric!r}, model={self.model!r}, method={self.method!r}, "
            f"classifiers={self.classifiers}, test_size={self.test_size}, "
            f"expected_max={self.expected_max:.6f}, sd_max={self.sd_max:.6f}, "
            f"ci{level}=({low:.6f}, {high:.6f}), dropped={self.dropped})"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words: where luck alone puts the best of m scores (paper §3-4, Fig. 1)."""
        return _text.best_of_verdict(self)

    def describe(self) -> Description:
        """The best of m as every view shows it: its text and verdict, its numbers, the assumptions (the
        model, m, n, θ, ρ, α) and the paper's Fig. 1 (for accuracy)."""
        auc = self.metric == "auc"
        n = self.test_size
        low, high = self.ci
        rows = [
            ("expected best E", f"{self.expected_max:.6f}"),
            ("SD of the best", f"{self.sd_max:#.4g}"),
            (f"{level_text(self.alpha)} central interval of the best", interval_text(self.ci, 6)),
        ]
        if not auc:
            rows.append(("items right, interval", f"{round(low * n)} to {round(high * n)} of {n}"))
            rows.append(("classifiers dropped (Eq. 12)", f"{self.dropped}"))
        assumptions = [
            ("model", f"{self.model} ({self.method})"),
            ("classifiers m", f"{self.classifiers}"),
            ("test size n", f"{n}" + (f" ({self.positives} positive)" if auc else "")),
            ("true AUC" if auc else "true accuracy θ", _text.true_scores_text(self)),
            (f"correlation {RHO}", f"{self.correlation:g}"),
        ]
        if self.correlation > 0:
            reference = "fixed: exactly θ0·n items right" if self.fixed_reference else "random"
            assumptions.append(("reference θ0", f"{self.reference_accuracy:g} ({reference})"))
        assumptions.append((ALPHA, f"{self.alpha:g}"))
        return Description(
            question=_text.SOTA_QUESTION,
            verdict=self.verdict,
            text=_text.best_of_text(self),
            data={
                "metric": self.metric,
                "model": self.model,
                "method": self.method,
                "classifiers": self.classifiers,
                "test_size": self.test_size,
                "positives": self.positives,
                "top_score": self.top_score,
                "correlation": self.correlation,
                "reference_accuracy": self.reference_accuracy,
                "fixed_reference": self.fixed_reference,
                "dropped": self.dropped,
                "alpha": self.alpha,
                "expected_max": self.expected_max,
                "sd_max": self.sd_max,
                "ci": self.ci,
                "error_bound": self.error_bound,
            },
            columns=("quantity", "value"),
            rows=tuple(rows),
            frame={"score": self.score, "pmf": self.pmf, "cdf": self.cdf},
            assumptions=tuple(assumptions),
            source=f"{_text.SOURCE}, {'§5.2.1' if auc else '§3-4, Table 2, Fig. 1'}",
            inputs=tuple(os.fspath(name) for name in self.inputs),
            analysis="sota best-of",
            figure=None if auc else lambda: plot_best_of(self),
        )

    def to_dict(self, *, distribution: bool = False) -> dict[str, Any]:
        """The result as plain JSON types (:meth:`Result.to_dict`); with ``distribution`` also the score
        grid, pmf and cdf."""
        data = super().to_dict()
        if distribution:
            data["distribution"] = jsonable({"score": self.score, "pmf": self.pmf, "cdf": self.cdf})
        return data


@dataclasses.dataclass(frozen=True, eq=False)
class _Model:
    """Validated description of the classifiers: distinct accuracies and how many share each."""

    theta: np.ndarray  # distinct θ_j, ascending
    counts: np.ndarray  # classifiers with each θ_j (a crop's weights can be fractional)
    test_size: int
    correlation: float
    reference_accuracy: float | None
    fixed_reference: bool
    dropped: int
    alpha: float

    @property
    def classifiers(self):
        return round(float(self.counts.sum()))

    @property
    def name(self):
        parts = ["dependent" if self.correlation > 0 else "independent"]
        parts.append("identical" if self.theta.size == 1 else "non-identical")
        if self.correlation > 0:
            parts.append("fixed reference" if self.fixed_reference else "random reference")
        return ", ".join(parts)

    def reference_counts(self):
        """Values k of K (items the reference classifier gets right) and their probabilities."""
        n, t0 = self.test_size, self.reference_accuracy
        if self.fixed_reference:
            return np.array([int(np.floor(t0 * n + 0.5))]), np.ones(1)
        # P(K < low) and P(K > high) at most WINDOW_TAIL.
        k, weights = _binomial.central(n, t0, WINDOW_TAIL)
        return k, weights / weights.sum()


def _prepare(
    accuracy, *, test_size, classifiers, correlation, reference_accuracy, fixed_reference, alpha, invalid
):
    """Check the arguments of :func:`best_of` and :func:`simulate_best_of` and build a :class:`_Model`."""
    n = check_count(test_size, "test_size")
    alpha = check_probability(alpha, "alpha")
    rho = check_probability(correlation, "correlation", closed=True, upper_open=True)
    if invalid not in ("raise", "drop"):
        raise InputError(f"invalid: expected 'raise' or 'drop', got {invalid!r}")
    try:
        theta = np.atleast_1d(np.asarray(accuracy))
    except (TypeError, ValueError):
        theta = np.array([None])
    if theta.dtype.kind not in "iuf":
        raise InputError(f"accuracy: expected a number or a list of numbers, got {accuracy!r:.60}")
    theta = theta.astype(float)
    if theta.ndim != 1 or theta.size == 0:
        raise InputError("accuracy: expected one accuracy or a non-empty list of accuracies")
    bad = np.flatnonzero(~((theta > 0) & (theta < 1)))
    if bad.size:
        raise InputError(
            f"accuracy: expected values strictly between 0 and 1, got {theta[bad[0]]!r}"
            + (f" (classifier {bad[0] + 1})" if theta.size > 1 else "")
        )
    if theta.size == 1:
        if classifiers is None:
            raise InputError("classifiers: give the number of classifiers m with a single accuracy")
        values, counts = theta, np.array([check_count(classifiers, "classifiers")])
    else:
        if classifiers is not None and check_count(classifiers, "classifiers") != theta.size:
            raise InputError(f"classifiers={classifiers} but {theta.size} accuracies were given")
        values, counts = np.unique(theta, return_counts=True)
    if reference_accuracy is not None:
        check_probability(reference_accuracy, "reference_accuracy")
    t0 = None
    dropped = 0
    if rho > 0:
        t0 = float(values[-1] if reference_accuracy is None else reference_accuracy)
        ok = _dependence.admissible(
            values, counts=counts, reference_accuracy=t0, correlation=rho, drop=invalid == "drop"
        )
        dropped = int(counts[~ok].sum())
        values, counts = values[ok], counts[ok]
    return _Model(values, counts, n, rho, t0, bool(fixed_reference) and rho > 0, dropped, alpha)


def best_of(
    accuracy: npt.ArrayLike,
    *,
    test_size: int,
    classifiers: int | None = None,
    correlation: float = 0.0,
    reference_accuracy: float | None = None,
    fixed_reference: bool = False,
    alpha: float = 0.05,
    invalid: Literal["raise", "drop"] = "raise",
) -> BestOfResult:
    """Exact distribution of the best observed accuracy among m classifiers (paper §3.3, §4.1-4.3).

    Parameters
    ----------
    accuracy : float or array_like
        θ, the true accuracy shared by all classifiers, or θ_j for each of the m classifiers.
    test_size : int
        n, the number of test items.
    classifiers : int, optional
        m; required with a single accuracy, checked against the length of a list.
    correlation : float, default 0
        ρ = corr(Y0, Y_j) with a latent reference classifier Y0 (Boland et al.; Eq. 10-11). 0 means
        independent classifiers (Eq. 2 and 8).
    reference_accuracy : float, optional
        θ0, accuracy of the reference classifier; default: the largest θ_j (as in paper §5.1.1).
    fixed_reference : bool, default False
        Y0 gets exactly round(θ0 n) items right ("fixed y0" of §4.1) instead of a random number.
    alpha : float, default 0.05
        The central interval has probability 1 - α.
    invalid : {"raise", "drop"}, default "raise"
        Classifiers whose θ_j puts Eq. 10 or 11 outside [0, 1] (Eq. 12): raise an InputError listing
        them, or leave them out and count them in ``dropped`` (the paper's behaviour).

    Returns
    -------
    BestOfResult

    See Also
    --------
    simulate_best_of : The same distribution by Monte Carlo, a cross-check.
    plot_best_of : Draw the result as the paper's Fig. 1.
    BestOfResult : The result: distribution, E(θ̂_max), its standard deviation and interval.
    best_of_auc : The best of m AUCs instead of accuracies.
    prob_any_reaches : The chance that at least one of m classifiers reaches a given accuracy.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §3.3, Eq. (1)-(3) (identical,
       independent classifiers) and §3.4, Table 1; §4.2, Eq. (7)-(9) (non-identical); §4.1 and §4.3,
       Eq. (10)-(12) (dependent through a reference classifier Y0) and Table 2.
    .. [2] P. J. Boland, F. Proschan and Y. L. Tong, "Modelling dependence in simple and indirect majority
       systems", Journal of Applied Probability 26, 81-88, 1989. doi:10.2307/3214318.

    Examples
    --------
    Table 1 of the paper, bold row:

    >>> r = best_of(0.9, classifiers=1000, test_size=3000)
    >>> round(r.expected_max, 4), round(r.sd_max, 6), round(r.ci[1], 4)
    (0.9173, 0.001817, 0.9213)

    Dependent classifiers (Table 2, row 2):

    >>> r = best_of(0.9, classifiers=1000, test_size=3000, correlation=0.6)
    >>> round(r.expected_max, 4), round(r.ci[1], 4)
    (0.914, 0.9207)
    """
    model = _prepare(
        accuracy,
        test_size=test_size,
        classifiers=classifiers,
        correlation=correlation,
        reference_accuracy=reference_accuracy,
        fixed_reference=fixed_reference,
        alpha=alpha,
        invalid=invalid,
    )
    return _exact(model)


def _exact(model, *, pooled=False, progress=None):
    """The exact :class:`BestOfResult` of a model; ``pooled``: of the bootstrap over its classifiers.

    The bootstrap over classifiers (paper §5.1.1) draws m classifiers with replacement from the m given,
    then draws their accuracies on the test set. Pooled over all resamples, the best accuracy is that of m
    classifiers each drawn independently from the mixture that gives θ_j weight c_j / m. Given K = k these
    m classifiers are independent and identically distributed, so

        F(z) = sum_k P(K=k) [1 - (1 - sum_j (c_j/m) P(X_j <= z | k))^m],

    which is what the paper's B resamples approximate, exactly (B -> infinity), in one computation.
    ``progress(done, total)``, if given, is told how far the dependent model's computation is.
    """
    method = "exact, bootstrap over classifiers" if pooled else "exact"
    if model.correlation > 0 and model.test_size >= LARGE_TEST_SET:
        return _dependent_on_lattice(model, pooled=pooled, progress=progress, method=method)
    if model.correlation > 0:
        z0, cdf = _dependent_failures_cdf(model, pooled=pooled, progress=progress)
    else:
        z0, cdf = _independent_failures_cdf(model, pooled=pooled)
    return _result(model, z0 + np.arange(cdf.size), cdf, method=method)


def _independent_failures_cdf(model, *, pooled=False):
    """F(z) = 1 - prod_j (1 - P(X_j <= z)), X_j ~ B(n, 1 - θ_j) (Eq. 2 and 8), over its window.

    With ``pooled``: F(z) = 1 - (1 - sum_j (c_j/m) P(X_j <= z))^m (see :func:`_exact`).

    Evaluated in blocks of z upwards from where F is negligible, until F is 1 within WINDOW_TAIL. In
    each block only the classifiers whose cdf at the block's end exceeds WINDOW_TAIL / (m · blocks) take
    part: the others change log(1 - F) by less than that in total. Returns the first z and F there.
    """
    n, theta, counts = model.test_size, model.theta, model.counts
    m = model.classifiers
    # Below z_low, F <= sum_j c_j P(X_j <= z) <= m P(X_top <= z) <= WINDOW_TAIL / 2.
    z_low = max(int(_binomial.ppf(WINDOW_TAIL / (2 * m), n, 1.0 - theta[-1])) - 1, 0)
    # From z_high on, 1 - F <= P(X_top > z)^c_top < WINDOW_TAIL (n - X_top ~ B(n, θ_top) gives the tail).
    # Pooled, F may reach 1 later (a resample may miss the top classifiers): stop where it does.
    z_high = n if pooled else n - int(_binomial.ppf(WINDOW_TAIL ** (1.0 / counts[-1]), n, theta[-1]))
    size = max(256, min(4096, -(-4_000_000 // theta.size)))
    blocks = -(-(z_high - z_low + 1) // size)
    negligible = WINDOW_TAIL / (2 * m * blocks)
    pieces = []
    for first in range(z_low, z_high + 1, size):
        z = np.arange(first, min(first + size, z_high + 1))
        part = np.flatnonzero(_binomial.cdf(z[-1], n, 1.0 - theta) > negligible)
        cdfs = _binomial.cdf(z, n, 1.0 - theta[part, None])
        with np.errstate(divide="ignore"):
            if pooled:
                log_none = m * np.log1p(-np.minimum(counts[part] @ cdfs / m, 1.0))
            else:
                log_none = counts[part] @ np.log1p(-cdfs)
        pieces.append(-np.expm1(log_none))
        if pieces[-1][-1] >= 1.0 - WINDOW_TAIL:
            break
    return z_low, np.concatenate(pieces)


def _dependent_failures_cdf(model, *, pooled=False, progress=None):
    """F(z) = sum_k P(K=k) [1 - prod_j (1 - P(X_j <= z | k))] (§4.1, §4.3), over its window.

    With ``pooled``, the product is that of :func:`_exact`. Returns the first z of the window and F there.
    """
    n, counts = model.test_size, model.counts
    right, wrong = _dependence.conditional_accuracies(
        model.theta, reference_accuracy=model.reference_accuracy, correlation=model.correlation
    )
    k, weights = model.reference_counts()
    # Each k needs its conditional cdf only to within WINDOW_TAIL / (K P(K = k)) for the mixture to be
    # within WINDOW_TAIL.
    return _conditional.conditional_cdfs(
        k,
        weights,
        WINDOW_TAIL / (weights * k.size),
        1.0 - right,
        1.0 - wrong,
        counts,
        n,
        pooled=pooled,
        progress=progress,
    )


def _dependent_on_lattice(model, *, pooled, progress, method):
    """The dependent model's result on a lattice of counts (:mod:`benchtrust.sota._characteristic`).

    Each lattice cell of L counts is reported at its middle, with the middle of the bracket on F. The
    bound (``error_bound``) covers E and the interval's ends: half a cell, plus for E half the bracket's
    width and for each end how far it moves between the bracket's two cdfs (the exact cdf lies between).
    """
    n = model.test_size
    right, wrong = _dependence.conditional_accuracies(
        model.theta, reference_accuracy=model.reference_accuracy, correlation=model.correlation
    )
    k, weights = model.reference_counts()
    got = _characteristic.lattice_cdf(
        k, weights, 1.0 - right, 1.0 - wrong, model.counts, n, pooled=pooled, progress=progress
    )
    z = got.z - (got.spacing - 1) / 2
    low, middle, high = (
        _result(model, z, cdf, method=method) for cdf in (got.low, (got.low + got.high) / 2, got.high)
    )
    ends = max(abs(a - b) for bound in (low.ci, high.ci) for a, b in zip(bound, middle.ci, strict=True))
    bound = (got.spacing - 1) / (2 * n) + max(abs(high.expected_max - low.expected_max) / 2, ends)
    if bound > 0:
        lattice = f"on a lattice of {got.spacing} counts, within {bound:.1e} of exact"
        method = f"bootstrap over classifiers, {lattice}" if pooled else lattice
    return dataclasses.replace(middle, method=method, error_bound=bound)


def _summarise(score, upper_tail, alpha):
    """Distribution, E, SD and central interval of a best score from its upper tail.

    ``score`` holds the possible values ascending and ``upper_tail`` P(best >= score) at each (non-increasing,
    1 at the first value up to the mass below the window). Returns the :class:`BestOfResult` fields
    ``score``, ``pmf``, ``cdf``, ``expected_max``, ``sd_max`` and ``ci``: the lower limit is the smallest
    value a with P(best <= a) >= α/2, the upper the largest a with P(best >= a) >= α/2.
    """
    # A tail: rounding in the sums behind it may not make it increase or leave [0, 1].
    upper_tail = np.minimum.accumulate(np.clip(upper_tail, 0.0, 1.0))
    above = np.append(upper_tail[1:], 0.0)  # P(best > score)
    pmf = upper_tail - above
    total = max(float(pmf.sum()), 1e-300)
    mean = float(pmf @ score) / total
    sd = float(np.sqrt(pmf @ (score - mean) ** 2 / total))
    cdf = 1.0 - above
    low = score[min(int(np.count_nonzero(cdf < alpha / 2)), score.size - 1)]
    high = score[max(int(np.count_nonzero(upper_tail >= alpha / 2)) - 1, 0)]
    return {
        "score": score,
        "pmf": pmf,
        "cdf": cdf,
        "expected_max": mean,
        "sd_max": sd,
        "ci": Interval(float(low), float(high)),
    }


def _result(model, z, failures_cdf, *, method):
    """Turn F at the counts z (ascending) into a :class:`BestOfResult` (accuracy ascending)."""
    n = model.test_size
    # P(best accuracy >= (n - z)/n) = P(Z <= z) = F(z)
    return BestOfResult(
        **_summarise((n - z[::-1]) / n, failures_cdf[::-1], model.alpha),
        alpha=model.alpha,
        classifiers=model.classifiers,
        test_size=n,
        top_score=float(model.theta[-1]),
        lowest_score=float(model.theta[0]),
        correlation=model.correlation,
        reference_accuracy=model.reference_accuracy,
        fixed_reference=model.fixed_reference,
        dropped=model.dropped,
        model=model.name,
        method=method,
    )
