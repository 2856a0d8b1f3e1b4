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
classifiers share each. Only the window of z where F is neither 0 nor 1 (up to 1e-15) is evaluated.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy import stats

from benchtrust._io import InputError, check_count, check_probability
from benchtrust.sota import _dependence, _two_binomials

#: Probability mass allowed outside the evaluated window of z, at each end: the error bound of the exact
#: distributions (every reported probability is within it; doubles resolve 1.1e-16 near 1).
WINDOW_TAIL = 1e-15


@dataclasses.dataclass(frozen=True, eq=False)
class BestOfResult:
    """Distribution of the best observed accuracy among m classifiers on one test set of n items.

    Attributes
    ----------
    accuracy : numpy.ndarray
        Possible best accuracies (n - z) / n, ascending, over the window where the distribution lives.
    pmf : numpy.ndarray
        P(best accuracy = accuracy).
    cdf : numpy.ndarray
        P(best accuracy <= accuracy).
    expected_max : float
        E(θ̂_max), the expected best accuracy.
    sd_max : float
        Standard deviation of the best accuracy.
    ci : tuple of float
        Central (1 - α) interval: the smallest accuracy a with P(best <= a) >= α/2, and the largest a with
        P(best >= a) >= α/2 (the paper's "upper 95 % CI": the smallest z with F(z) >= α/2).
    alpha : float
        α.
    classifiers : int
        m, the number of classifiers used (after any dropped by Eq. 12).
    test_size : int
        n.
    top_accuracy : float
        The largest θ_j.
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
        "exact", or "monte carlo, R repetitions".
    """

    accuracy: np.ndarray
    pmf: np.ndarray
    cdf: np.ndarray
    expected_max: float
    sd_max: float
    ci: tuple[float, float]
    alpha: float
    classifiers: int
    test_size: int
    top_accuracy: float
    correlation: float
    reference_accuracy: float | None
    fixed_reference: bool
    dropped: int
    model: str
    method: str

    def __repr__(self):
        low, high = self.ci
        level = f"{100 * (1 - self.alpha):g}%"
        return (
            f"BestOfResult(model={self.model!r}, method={self.method!r}, classifiers={self.classifiers}, "
            f"test_size={self.test_size}, expected_max={self.expected_max:.6f}, sd_max={self.sd_max:.6f}, "
            f"ci{level}=({low:.6f}, {high:.6f}), dropped={self.dropped})"
        )

    def to_dict(self, *, distribution=False):
        """The result as plain JSON types; with ``distribution`` also the accuracy grid, pmf and cdf."""
        out = {
            "model": self.model,
            "method": self.method,
            "classifiers": self.classifiers,
            "test_size": self.test_size,
            "top_accuracy": self.top_accuracy,
            "correlation": self.correlation,
            "reference_accuracy": self.reference_accuracy,
            "fixed_reference": self.fixed_reference,
            "dropped": self.dropped,
            "alpha": self.alpha,
            "expected_max": self.expected_max,
            "sd_max": self.sd_max,
            "ci": [self.ci[0], self.ci[1]],
        }
        if distribution:
            out["distribution"] = {
                "accuracy": self.accuracy.tolist(),
                "pmf": self.pmf.tolist(),
                "cdf": self.cdf.tolist(),
            }
        return out


@dataclasses.dataclass(frozen=True)
class _Model:
    """Validated description of the classifiers: distinct accuracies and how many share each."""

    theta: np.ndarray  # distinct θ_j, ascending
    counts: np.ndarray  # classifiers with each θ_j
    test_size: int
    correlation: float
    reference_accuracy: float | None
    fixed_reference: bool
    dropped: int
    alpha: float

    @property
    def classifiers(self):
        return int(self.counts.sum())

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
        # P(K < low) < WINDOW_TAIL and P(K > high) < WINDOW_TAIL (upper end from n - K ~ B(n, 1 - θ0)).
        low = int(stats.binom.ppf(WINDOW_TAIL, n, t0))
        high = n - int(stats.binom.ppf(WINDOW_TAIL, n, 1.0 - t0))
        k = np.arange(low, high + 1)
        weights = stats.binom.pmf(k, n, t0)
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
    accuracy,
    *,
    test_size,
    classifiers=None,
    correlation=0.0,
    reference_accuracy=None,
    fixed_reference=False,
    alpha=0.05,
    invalid="raise",
):
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
    if model.correlation > 0:
        z0, cdf = _dependent_failures_cdf(model)
    else:
        z0, cdf = _independent_failures_cdf(model)
    return _result(model, z0, cdf, method="exact")


def _independent_failures_cdf(model):
    """F(z) = 1 - prod_j (1 - P(X_j <= z)), X_j ~ B(n, 1 - θ_j) (Eq. 2 and 8), over its window.

    Evaluated in blocks of z upwards from where F is negligible, until F is 1 within WINDOW_TAIL. In
    each block only the classifiers whose cdf at the block's end exceeds WINDOW_TAIL / (m · blocks) take
    part: the others change log(1 - F) by less than that in total. Returns the first z and F there.
    """
    n, theta, counts = model.test_size, model.theta, model.counts
    m = model.classifiers
    # Below z_low, F <= sum_j c_j P(X_j <= z) <= m P(X_top <= z) <= WINDOW_TAIL / 2.
    z_low = max(int(stats.binom.ppf(WINDOW_TAIL / (2 * m), n, 1.0 - theta[-1])) - 1, 0)
    # From z_high on, 1 - F <= P(X_top > z)^c_top < WINDOW_TAIL (n - X_top ~ B(n, θ_top) gives the tail).
    z_high = n - int(stats.binom.ppf(WINDOW_TAIL ** (1.0 / counts[-1]), n, theta[-1]))
    size = max(256, min(4096, -(-4_000_000 // theta.size)))
    blocks = -(-(z_high - z_low + 1) // size)
    negligible = WINDOW_TAIL / (2 * m * blocks)
    pieces = []
    for first in range(z_low, z_high + 1, size):
        z = np.arange(first, min(first + size, z_high + 1))
        part = np.flatnonzero(stats.binom.cdf(z[-1], n, 1.0 - theta) > negligible)
        with np.errstate(divide="ignore"):
            log_none = counts[part] @ np.log1p(-stats.binom.cdf(z, n, 1.0 - theta[part, None]))
        pieces.append(-np.expm1(log_none))
        if pieces[-1][-1] >= 1.0 - WINDOW_TAIL:
            break
    return z_low, np.concatenate(pieces)


def _dependent_failures_cdf(model):
    """F(z) = sum_k P(K=k) [1 - prod_j (1 - P(X_j <= z | k))] (§4.1, §4.3), over its window.

    Returns the first z of the window and F there.
    """
    n, counts = model.test_size, model.counts
    right, wrong = _dependence.conditional_accuracies(
        model.theta, reference_accuracy=model.reference_accuracy, correlation=model.correlation
    )
    k, weights = model.reference_counts()
    # Each k needs its conditional cdf only to within WINDOW_TAIL / (K P(K = k)) for the mixture to be
    # within WINDOW_TAIL.
    start, values = _conditional_cdfs(
        k, WINDOW_TAIL / (weights * k.size), 1.0 - right, 1.0 - wrong, counts, n
    )
    offset = start - start.min()
    where = offset[:, None] + np.arange(values.shape[1])
    size = offset.max() + values.shape[1] + 1
    cdf = np.bincount(where.ravel(), (weights[:, None] * values).ravel(), minlength=size)
    # Past its last evaluated z, each k's conditional cdf is 1 (to within its tolerance).
    cdf += np.cumsum(np.bincount(offset + values.shape[1], weights, minlength=size))
    return int(start.min()), cdf[:-1]


def _conditional_cdfs(k, tolerance, q1, q0, counts, n):
    """1 - prod_j (1 - P(X_j <= z | k)) for each k, from its own start until it is 1 within tolerance.

    ``q1`` and ``q0`` are the failure probabilities of each distinct classifier given that the reference
    is right or wrong. Returns the start z of each k and a (k, step) array of the conditional cdf at
    start + step (1 once a k is finished).
    """
    classes = q1.size
    # One pair per (distinct classifier, value of k), laid out classifier-major.
    n1 = np.tile(k, classes).astype(float)
    n0 = n - n1
    q1 = np.repeat(q1, k.size)
    q0 = np.repeat(q0, k.size)
    # Start each k where all classifiers' cdfs add up to at most its tolerance: a normal guess, checked
    # with the exact mass below the start (or a bound on it), and moved down where it fails.
    mean = (n1 * q1 + n0 * q0).reshape(classes, -1)
    sd = np.sqrt(n1 * q1 * (1 - q1) + n0 * q0 * (1 - q0)).reshape(classes, -1)
    reach = np.sqrt(2 * np.log(counts.sum() / tolerance))
    start = np.maximum(np.floor((mean - reach * sd).min(axis=0)), 0.0)
    while True:
        below, steps = _two_binomials.cdf_steps(np.tile(start, classes), n1, q1, n0, q0)
        low = (counts @ np.minimum(below, 1.0).reshape(classes, -1) > tolerance) & (start > 0)
        if not low.any():
            break
        start[low] = np.maximum(start[low] - np.ceil(sd.min(axis=0)[low]), 0.0)

    log_tolerance = np.log(tolerance)
    running = np.arange(k.size)  # the k of each column of the pairs still computed
    finished = np.zeros(k.size, bool)
    rows = []
    partial, kept = next(steps)
    while True:
        if kept is not None:
            columns = kept.reshape(classes, -1)[0]
            running, finished = running[columns], finished[columns]
        np.minimum(partial, 1.0, out=partial)
        np.negative(partial, out=partial)
        with np.errstate(divide="ignore"):  # a cdf of 1 makes log(1 - F) -inf, as it should
            log_none = counts @ np.log1p(partial, out=partial).reshape(classes, -1)
        row = np.ones(k.size)
        row[running[~finished]] = -np.expm1(log_none[~finished])
        rows.append(row)
        newly = ~finished & (log_none <= log_tolerance[running])
        finished |= newly
        if finished.all() or start.min() + len(rows) > n:
            break
        partial, kept = steps.send(np.tile(finished, classes) if newly.any() else None)
    return start.astype(int), np.array(rows).T


def _result(model, z0, failures_cdf, *, method):
    """Turn F(z) on z0, z0+1, ... into a :class:`BestOfResult` (accuracy ascending)."""
    n, alpha = model.test_size, model.alpha
    # A cdf: rounding in the sums behind it may not make it decrease or leave [0, 1].
    failures_cdf = np.maximum.accumulate(np.clip(failures_cdf, 0.0, 1.0))
    z = z0 + np.arange(failures_cdf.size)
    pmf_z = np.diff(failures_cdf, prepend=0.0)
    mean_z = float(pmf_z @ z) / max(float(pmf_z.sum()), 1e-300)
    var_z = float(pmf_z @ (z - mean_z) ** 2) / max(float(pmf_z.sum()), 1e-300)
    # Upper limit: the smallest z with F(z) >= α/2. Lower limit: the largest z with P(Z >= z) >= α/2,
    # i.e. F(z - 1) <= 1 - α/2.
    z_up = z[np.argmax(failures_cdf >= alpha / 2)]
    z_low = z0 + int(np.count_nonzero(failures_cdf <= 1 - alpha / 2))
    z_low = min(z_low, int(z[-1]))
    accuracy = (n - z[::-1]) / n
    pmf = pmf_z[::-1]
    # P(best <= (n - z)/n) = P(Z >= z) = 1 - F(z - 1)
    cdf = (1.0 - np.concatenate([[0.0], failures_cdf[:-1]]))[::-1]
    return BestOfResult(
        accuracy=accuracy,
        pmf=pmf,
        cdf=cdf,
        expected_max=float(n - mean_z) / n,
        sd_max=float(np.sqrt(var_z)) / n,
        ci=(float(n - z_low) / n, float(n - z_up) / n),
        alpha=alpha,
        classifiers=model.classifiers,
        test_size=n,
        top_accuracy=float(model.theta[-1]),
        correlation=model.correlation,
        reference_accuracy=model.reference_accuracy,
        fixed_reference=model.fixed_reference,
        dropped=model.dropped,
        model=model.name,
        method=method,
    )
