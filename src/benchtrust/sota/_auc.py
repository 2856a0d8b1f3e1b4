"""The best of m observed AUCs: the binormal score model and an exact sampler of the empirical AUC (§5.2).

A classifier's scores are normal within each class (Eq. 13-14), S+ ~ N(μ+, σ+²) and S- ~ N(μ-, σ-²), so
its true AUC = P(S- < S+) = Φ((μ+ - μ-) / sqrt(σ+² + σ-²)) (Eq. 15). On a test set of n items, n+ of them
positive and n- = n - n+ negative, the empirical AUC is U / (n+ n-), where the Mann-Whitney U counts the
(positive, negative) pairs whose positive scores higher (continuous scores: no ties).

Sampling U without drawing and sorting n scores. Let the smaller class have s members and the larger L.
Only the ranks of the large class among the s sorted small-class scores t_1 < ... < t_s matter:

* s + 1 standard exponentials E_0, ..., E_s give s sorted uniforms by their cumulative sums over the total,
  u_k = (E_0 + ... + E_{k-1}) / (E_0 + ... + E_s) (exponential spacings), and t_k = F_small^-1(u_k) are
  the small class's order statistics, drawn without sorting;
* given them, the L large-class scores fall independently into the s + 1 cells between consecutive t_k, so
  the cell counts N_0, ..., N_s are multinomial with cell probabilities from the large class's cdf,
  c_k = F_large(t_k), p_j = c_{j+1} - c_j (c_0 = 0, c_{s+1} = 1).

Both cases are laid out so the large class fills the low cells: with the positives as the small class a
negative in cell j lies below s - j positives; with the negatives as the small class the scores are
mirrored (s -> -s), and a positive in cell j then lies above s - j negatives. Either way U = Σ_j (s - j) N_j,
and 1 - c_k = Φ(-(μ+ - μ-) / σ_large - (σ_small / σ_large) Φ^-1(u_k)), computed as an upper tail so it
keeps its precision where c_k is near 1. The multinomial draws its cells one by one as conditional
binomials and stops once every large-class item is placed, so the low-to-high layout skips the empty top
cells. A draw costs about s + 1 binomial draws, s normal quantiles and s normal cdfs: it depends on n
only through the binomial sampler, whose time grows with small cell counts.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
from scipy import fft, special

from benchtrust._io import InputError, Seed, check_count, check_probability, check_seed
from benchtrust.sota._best_of import BestOfResult, _summarise

if TYPE_CHECKING:
    import numpy.typing as npt

#: Multinomial cells (draws x (s + 1)) generated at once: bounds the sampler's memory to about 70 MB.
_CELLS_PER_CHUNK = 2_000_000
#: Multinomial cells (simulations x classifiers x (s + 1)) drawn per batch by :func:`best_of_auc`.
_CELLS_PER_BATCH = 1_000_000
#: How far a :class:`Binormal` given by hand may be from Eq. 15.
_EQ15_TOLERANCE = 1e-9
#: Latin-hypercube replicates of the large class by default in :func:`auc_pmf` (see its error bound).
_REPLICATES = 256
#: Bytes of one block of transforms of the replicates in :func:`auc_pmf` (see :func:`_pmf_memory`).
_FFT_BYTES = 2**25
#: Probability each conditional distribution of U in :func:`auc_pmf` may leave out: outside the window
#: that its Chernoff bound gives, and in the frequencies where its characteristic function is below it.
_NEGLIGIBLE = 1e-40
#: Multiples of the normal limit's best exponent tried in the Chernoff bound of :func:`_window`.
_CHERNOFF_FACTORS = (0.5, 1.0, 2.0)
#: Values of K summed by one matrix product in the direct transform of :func:`_sum_of_counts`.
_TERMS = 128
#: The most entries of the matrix of the direct transform at the low frequencies (:func:`_band`).
_BAND_ENTRIES = 2**21
#: The direct transform at the low frequencies is worth it up to this times N log2 N / w of them.
_DIRECT_WORTH = 1.0
#: Frequencies of one matrix product of the direct transform (:func:`_direct`): with _GROUP rows and
#: _TERMS terms, 2^17 multiply-adds. OpenBLAS runs products under 2^18 on one thread; its other threads
#: wait for work by spinning, which made the direct transforms take 30 times the CPU time on two cores.
_COLUMNS = 64
#: Replicates whose band of low frequencies :func:`_sum_of_counts` looks for together, and rows of one
#: matrix product of the direct transform.
_GROUP = 16

_PARAMETERS = ("positive_mean", "positive_sd", "negative_mean", "negative_sd")


@dataclasses.dataclass(frozen=True)
class Binormal:
    """Normal class-conditional scores of one classifier (paper §5.2, Eq. 13-15).

    Build it with :func:`binormal`, which solves Eq. 15 for the parameter left out.

    Attributes
    ----------
    auc : float
        The true AUC, Φ((μ+ - μ-) / sqrt(σ+² + σ-²)) (Eq. 15), in (0.5, 1).
    positive_mean, positive_sd : float
        μ+ and σ+ of the positive scores S+ (Eq. 13).
    negative_mean, negative_sd : float
        μ- and σ- of the negative scores S- (Eq. 14).

    See Also
    --------
    binormal : Build the model for a true AUC (Eq. 15 solved for the parameter left out).
    sample_auc : Draws of the empirical AUC of a classifier with this model.
    best_of_auc : The best of m empirical AUCs under the binormal model.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5.2, Eq. (13)-(15) (the
       class-conditional scores and their AUC) and Eq. (16)-(18) (the density, mean and variance of the
       mixed scores: ``score_pdf``, ``score_mean``, ``score_variance``), Fig. 10a; §5.2.1 (μ- = 0,
       σ- = σ+ = 1).

    Examples
    --------
    The paper's choice in §5.2.1, μ- = 0 and σ- = σ+ = 1, for AUC = 0.9:

    >>> model = binormal(0.9)
    >>> round(model.positive_mean, 4)
    1.8124
    >>> round(model.score_mean(0.017), 4), round(model.score_variance(0.017), 4)
    (0.0308, 1.0549)
    """

    auc: float
    positive_mean: float
    positive_sd: float
    negative_mean: float
    negative_sd: float

    def __post_init__(self) -> None:
        for name in ("auc", *_PARAMETERS):
            object.__setattr__(self, name, _finite(getattr(self, name), name))
        _check_auc_value(self.auc, "auc")
        for name in ("positive_sd", "negative_sd"):
            if getattr(self, name) <= 0:
                raise InputError(f"{name}: expected a standard deviation > 0, got {getattr(self, name)!r}")
        implied = _eq15(self.positive_mean, self.positive_sd, self.negative_mean, self.negative_sd)
        if abs(implied - self.auc) > _EQ15_TOLERANCE:
            raise InputError(
                f"auc: {self.auc!r} does not match the means and SDs, which give AUC {implied:.12g} "
                "(Eq. 15); build the model with benchtrust.sota.binormal"
            )

    def score_mean(self, prevalence: float) -> float:
        """μ = π μ+ + (1 - π) μ-, the mean score of an item that is positive with probability π (Eq. 17).

        Examples
        --------
        >>> binormal(0.9).score_mean(0.5)  # doctest: +ELLIPSIS
        0.906...
        """
        pi = check_probability(prevalence, "prevalence", closed=True)
        return pi * self.positive_mean + (1 - pi) * self.negative_mean

    def score_variance(self, prevalence: float) -> float:
        """σ² = π(σ+² + μ+²) + (1 - π)(σ-² + μ-²) - μ², the variance of the mixed scores (Eq. 18).

        Examples
        --------
        >>> binormal(0.9).score_variance(0.0)
        1.0
        """
        pi = check_probability(prevalence, "prevalence", closed=True)
        positive = self.positive_sd**2 + self.positive_mean**2
        negative = self.negative_sd**2 + self.negative_mean**2
        return pi * positive + (1 - pi) * negative - self.score_mean(pi) ** 2

    def score_pdf(self, s: npt.ArrayLike, prevalence: float) -> float | np.ndarray:
        """π f+(s) + (1 - π) f-(s), the density of the scores of all items at ``s`` (Eq. 16).

        Parameters
        ----------
        s : float or array_like
            Scores.
        prevalence : float
            π, the probability that an item is positive (n+ / n for a test set).

        Returns
        -------
        float or numpy.ndarray
            The density, shaped like ``s``.

        Examples
        --------
        >>> round(float(binormal(0.9).score_pdf(0.0, 0.0)), 6)  # the standard normal density at 0
        0.398942
        """
        pi = check_probability(prevalence, "prevalence", closed=True)
        s = np.asarray(s, dtype=float)
        density = pi * _normal_pdf(s, self.positive_mean, self.positive_sd) + (1 - pi) * _normal_pdf(
            s, self.negative_mean, self.negative_sd
        )
        return density if density.ndim else float(density)

    def to_dict(self) -> dict[str, float]:
        """The AUC and the four parameters as plain floats."""
        return {name: getattr(self, name) for name in ("auc", *_PARAMETERS)}


def _finite(value, name):
    """``value`` as a finite float, or an InputError naming the argument."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{name}: expected a number, got {value!r:.60}")
    if not math.isfinite(value):
        raise InputError(f"{name}: expected a finite number, got {value!r}")
    return float(value)


def _normal_pdf(s, mean, sd):
    return np.exp(-0.5 * ((s - mean) / sd) ** 2) / (sd * math.sqrt(2 * math.pi))


def _eq15(positive_mean, positive_sd, negative_mean, negative_sd):
    """AUC = Φ((μ+ - μ-) / sqrt(σ+² + σ-²)) (Eq. 15)."""
    return float(special.ndtr((positive_mean - negative_mean) / math.hypot(positive_sd, negative_sd)))


def _check_auc_value(value, name):
    if not 0.5 < value < 1:
        raise InputError(f"{name}: expected an AUC strictly between 0.5 and 1, got {value!r}")


def binormal(
    auc: float,
    *,
    positive_mean: float | None = None,
    positive_sd: float | None = None,
    negative_mean: float | None = None,
    negative_sd: float | None = None,
) -> Binormal:
    """The binormal score model with a given true AUC, solving Eq. 15 for the parameter left out (§5.2).

    AUC = Φ((μ+ - μ-) / sqrt(σ+² + σ-²)) (Eq. 15), with S+ ~ N(μ+, σ+²) and S- ~ N(μ-, σ-²)
    (Eq. 13-14). Any three of the four parameters fix the fourth in closed form. With none given, the
    paper's choice of §5.2.1 is used: μ- = 0, σ- = σ+ = 1, so μ+ = sqrt(2) Φ^-1(AUC).

    Parameters
    ----------
    auc : float
        The true AUC, strictly between 0.5 and 1.
    positive_mean, positive_sd, negative_mean, negative_sd : float, optional
        μ+, σ+, μ-, σ-: give none of them, or exactly three. Standard deviations must be > 0.

    Returns
    -------
    Binormal

    Raises
    ------
    InputError
        If ``auc`` is outside (0.5, 1), a standard deviation is not positive, one, two or four
        parameters are given, or no model with positive standard deviations has this AUC (a standard
        deviation is solved for and the means are too close, or in the wrong order, for it).

    See Also
    --------
    Binormal : The model returned, with the mixed scores' density, mean and variance.
    sample_auc : Draws of the empirical AUC under the model (its ``model`` argument).
    best_of_auc : The best of m empirical AUCs under the paper's default model.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5.2, Eq. (13)-(15) (three of the
       four parameters fix the fourth for a given AUC); §5.2.1 (μ- = 0, σ- = σ+ = 1, μ+ solved for).

    Examples
    --------
    >>> model = binormal(0.9)
    >>> model.negative_mean, model.negative_sd, model.positive_sd, round(model.positive_mean, 6)
    (0.0, 1.0, 1.0, 1.812388)

    Solve for a standard deviation instead:

    >>> model = binormal(0.9, positive_mean=3.0, negative_mean=0.0, negative_sd=1.0)
    >>> round(model.positive_sd, 4)
    2.1166
    >>> binormal(0.9, positive_mean=1.0, negative_mean=0.0, negative_sd=1.0)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    benchtrust.InputError: positive_sd: no binormal model with AUC 0.9 and these means and ...
    """
    auc = _finite(auc, "auc")
    _check_auc_value(auc, "auc")
    given = {
        "positive_mean": positive_mean,
        "positive_sd": positive_sd,
        "negative_mean": negative_mean,
        "negative_sd": negative_sd,
    }
    known = {name: value for name, value in given.items() if value is not None}
    for name, value in known.items():
        known[name] = _finite(value, name)
        if name.endswith("_sd") and value <= 0:
            raise InputError(f"{name}: expected a standard deviation > 0, got {value!r}")
    if not known:
        return Binormal(auc, math.sqrt(2) * float(special.ndtri(auc)), 1.0, 0.0, 1.0)
    if len(known) != 3:
        names = ", ".join(known)
        raise InputError(
            "give none or exactly three of positive_mean, positive_sd, negative_mean, negative_sd; "
            f"got {len(known)} ({names})"
        )
    (unknown,) = (name for name in given if name not in known)
    z = float(special.ndtri(auc))  # > 0
    values = dict(known)
    if unknown.endswith("_mean"):
        gap = z * math.hypot(known["positive_sd"], known["negative_sd"])  # μ+ - μ-
        if unknown == "positive_mean":
            values[unknown] = known["negative_mean"] + gap
        else:
            values[unknown] = known["positive_mean"] - gap
    else:
        other = "negative_sd" if unknown == "positive_sd" else "positive_sd"
        gap = known["positive_mean"] - known["negative_mean"]
        # (μ+ - μ-) / z = sqrt(σ+² + σ-²) > the other σ.
        if gap <= z * known[other]:
            raise InputError(
                f"{unknown}: no binormal model with AUC {auc!r} and these means and {other} exists; "
                f"it needs positive_mean - negative_mean > Φ^-1(AUC) {other} = {z * known[other]:.6g}"
            )
        total = gap / z
        values[unknown] = math.sqrt((total - known[other]) * (total + known[other]))
    return Binormal(auc, **{name: values[name] for name in _PARAMETERS})


def _mann_whitney_u(
    positive_mean, positive_sd, negative_mean, negative_sd, *, positives, negatives, rng, size=None
):
    """Draws of the Mann-Whitney U of one classifier on n+ positives and n- negatives, one per row.

    Exact in distribution under the binormal model (see the module docstring for the method). The four
    parameters broadcast against each other and against ``size`` (a shape); row i of the result uses the
    parameters at i. ``positives`` and ``negatives`` are >= 1, the SDs > 0. Returns int64 U with the
    broadcast shape; the empirical AUC is U / (n+ n-). Memory is bounded by drawing _CELLS_PER_CHUNK
    multinomial cells at a time.
    """
    mu_pos, sd_pos, mu_neg, sd_neg = np.broadcast_arrays(
        *(np.asarray(p, dtype=float) for p in (positive_mean, positive_sd, negative_mean, negative_sd))
    )
    shape = mu_pos.shape if size is None else np.broadcast_shapes(mu_pos.shape, tuple(size))
    if positives <= negatives:
        small, large, sd_small, sd_large = positives, negatives, sd_pos, sd_neg
    else:  # mirrored: the negatives are the small class
        small, large, sd_small, sd_large = negatives, positives, sd_neg, sd_pos
    shift = (mu_pos - mu_neg) / sd_large
    scale = sd_small / sd_large
    rows = math.prod(shape)
    per_row = shift.ndim > 0 or scale.ndim > 0
    if per_row:  # sliced per chunk through .flat, so a broadcast is never copied whole
        unit_scale = bool(np.all(scale == 1.0))
        shift = np.broadcast_to(shift, shape)
        scale = np.broadcast_to(scale, shape)
    else:
        shift, scale = float(shift), float(scale)
        unit_scale = scale == 1.0
    weights = np.arange(small, -1, -1, dtype=np.int64)  # s - j for cell j
    out = np.empty(rows, dtype=np.int64)
    chunk = max(1, _CELLS_PER_CHUNK // (small + 1))
    for first in range(0, rows, chunk):
        last = min(first + chunk, rows)
        count = last - first
        # Sorted uniforms from exponential spacings; the buffer is reused for the cell probabilities.
        cells = rng.standard_exponential((count, small + 1))
        np.cumsum(cells, axis=1, out=cells)
        edges = cells[:, :small] * (1.0 / cells[:, small:])
        # q_k = 1 - c_k = Φ(-(shift + scale Φ^-1(u_k))): the large class's upper tail at the small class's
        # order statistics, decreasing in k. Upper tails keep their precision where c_k is near 1.
        special.ndtri(edges, out=edges)
        if per_row:
            if not unit_scale:
                edges *= scale.flat[first:last][:, None]
            np.subtract(-shift.flat[first:last][:, None], edges, out=edges)
        else:
            if not unit_scale:
                edges *= scale
            np.subtract(-shift, edges, out=edges)
        special.ndtr(edges, out=edges)
        # p_j = q_j - q_{j+1} (q_0 = 1, q_{s+1} = 0): nonnegative up to rounding in ndtr and ndtri, so
        # clipped at 0 to keep each row a valid probability vector (its sum stays 1 within rounding).
        np.subtract(1.0, edges[:, 0], out=cells[:, 0])
        np.subtract(edges[:, :-1], edges[:, 1:], out=cells[:, 1:small])
        cells[:, small] = edges[:, -1]
        np.maximum(cells, 0.0, out=cells)
        out[first:last] = rng.multinomial(large, cells) @ weights
    return out.reshape(shape)


def _check_test_set(test_size, positives):
    n = check_count(test_size, "test_size")
    n_pos = check_count(positives, "positives")
    if n_pos > n - 1:
        raise InputError(
            f"positives: expected between 1 and test_size - 1 = {n - 1} (both classes present), "
            f"got {positives!r}"
        )
    return n, n_pos


def _auc_array(auc, what):
    """``auc`` as a float array of values in (0.5, 1), or an InputError naming the bad one."""
    try:
        values = np.asarray(auc)
    except (TypeError, ValueError):
        values = np.array(None)
    if values.dtype.kind not in "iuf" or values.size == 0:
        raise InputError(f"auc: expected {what}, got {auc!r:.60}")
    values = values.astype(float)
    bad = np.flatnonzero(~((values > 0.5) & (values < 1)))
    if bad.size:
        where = f" (value {bad[0] + 1})" if values.size > 1 else ""
        raise InputError(
            f"auc: expected values strictly between 0.5 and 1, got {float(values.flat[bad[0]])!r}{where}"
        )
    return values


def sample_auc(
    auc: npt.ArrayLike | None,
    *,
    test_size: int,
    positives: int,
    size: int | tuple[int, ...] | None,
    seed: Seed = None,
    model: Binormal | None = None,
) -> float | np.ndarray:
    """Draws of one classifier's empirical AUC on a test set, exact under the binormal model (§5.2).

    The empirical AUC is U / (n+ n-), U the number of (positive, negative) pairs in which the positive
    item scores higher, with S+ ~ N(μ+, σ+²) and S- ~ N(μ-, σ-²) (Eq. 13-14). By default the model is
    the paper's of §5.2.1 (μ- = 0, σ- = σ+ = 1, μ+ from Eq. 15). Each draw costs about n_small + 1
    binomial draws, n_small the size of the smaller class; the n scores are never drawn or sorted.

    Parameters
    ----------
    auc : float or array_like or None
        The true AUC, in (0.5, 1); an array gives each draw its own AUC and broadcasts against
        ``size``. May be None when ``model`` is given.
    test_size : int
        n, the number of test items.
    positives : int
        n+, the positive items among them (1 <= n+ <= n - 1); n- = n - n+.
    size : int or tuple of int or None
        Shape of the result; None: the shape of ``auc`` (one draw for a single AUC).
    seed : int or numpy.random.Generator, optional
        Source of randomness; the same seed gives the same draws.
    model : Binormal, optional
        The score model to use instead of the default one for ``auc`` (then ``auc`` must be None or
        ``model.auc``).

    Returns
    -------
    numpy.ndarray or float
        Empirical AUCs, on the lattice U / (n+ n-), shaped ``size``.

    See Also
    --------
    binormal : Build a score model other than the default one (``model``).
    Binormal : The score model.
    best_of_auc : The best of m such empirical AUCs.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5.2, Eq. (13)-(15) and
       Fig. 10 (n = 3,000 items, 52 positive, AUC 0.90); §5.2.1 (the default model).
    .. [2] J. A. Hanley and B. J. McNeil, "The meaning and use of the area under a receiver operating
       characteristic (ROC) curve", Radiology 143(1), 29-36, 1982. doi:10.1148/radiology.143.1.7063747.
       The AUC as P(S- < S+), estimated by the Wilcoxon (Mann-Whitney) statistic U / (n+ n-).

    Examples
    --------
    The setting of Figure 10 (§5.2): n = 3000 items, 52 of them positive, true AUC 0.9.

    >>> draws = sample_auc(0.9, test_size=3000, positives=52, size=20_000, seed=1)
    >>> bool(abs(draws.mean() - 0.9) < 0.001), round(float(draws.std()), 2)
    (True, 0.02)
    """
    n, n_pos = _check_test_set(test_size, positives)
    if size is not None:
        try:
            size = tuple(check_count(k, "size") for k in np.atleast_1d(size))
        except (TypeError, ValueError) as error:
            if isinstance(error, InputError):
                raise
            raise InputError(f"size: expected a whole number or a tuple of them, got {size!r}") from None
    if model is not None:
        if not isinstance(model, Binormal):
            raise InputError(f"model: expected a benchtrust.sota.Binormal, got {model!r:.60}")
        if auc is not None and (
            np.ndim(auc) != 0 or abs(float(_auc_array(auc, "a number")) - model.auc) > 1e-12
        ):
            raise InputError(f"auc: {auc!r:.60} differs from model.auc = {model.auc!r}; give one of them")
        params = (model.positive_mean, model.positive_sd, model.negative_mean, model.negative_sd)
    elif auc is None:
        raise InputError("auc: give the true AUC, or a model")
    else:
        values = _auc_array(auc, "an AUC or an array of AUCs")
        params = (math.sqrt(2) * special.ndtri(values), 1.0, 0.0, 1.0)
    shape = np.shape(params[0])
    if size is not None:
        try:
            if np.broadcast_shapes(shape, size) != size:
                raise ValueError
        except ValueError:
            raise InputError(f"auc: shape {shape} does not broadcast to size {size}") from None
    u = _mann_whitney_u(*params, positives=n_pos, negatives=n - n_pos, rng=check_seed(seed), size=size)
    return (u / (n_pos * (n - n_pos)))[()]


def auc_pmf(auc, *, test_size, positives, replicates=_REPLICATES, seed=None):
    """Distribution of the Mann-Whitney U for each true AUC, by exact integration over one class (§5.2).

    The model is the paper's of §5.2.1 (μ- = 0, σ- = σ+ = 1, μ+ = sqrt(2) Φ^-1(AUC), Eq. 15). Let the
    smaller class have s members and the larger L. Given the L sorted scores y_(1) < ... < y_(L) of the
    larger class, the s scores of the smaller class are independent, and each one's count K of
    larger-class items below it has the exact pmf P(K = k) = P(y_(k) < S < y_(k+1)), from normal tails
    (scores mirrored when the negatives are the smaller class). U is the sum of s such counts, so its
    conditional pmf is the s-fold convolution of that pmf: the pmf's characteristic function raised to
    the s-th power and transformed back (:func:`_sum_of_counts`), on the window of values that a Chernoff
    bound leaves all but 1e-40 of the mass in (a circular transform of that length, about 30 standard
    deviations of U, instead of s L + 1), and, when s is large, at the few lowest frequencies where the
    power is not below 1e-40 (a direct transform there, the others 0). Each value moves by at most
    1e-40 a replicate; the rest is rounding: within 1e-15 of direct convolution (tests/sota/test_auc.py)
    and 2e-16 of the full-length transform at n+ = 560, n- = 971. The distribution of U is the mean of
    these conditional pmfs over ``replicates`` draws of the larger class. The smaller class's randomness,
    which dominates the variance of the empirical AUC (about L / s times the larger class's share), is
    thus integrated exactly.

    The larger-class draws are a Latin hypercube: in column j, the R replicates' uniforms fall one in each
    of R equal strata, in an independent random order per column, so each replicate on its own is L
    independent standard normals (the estimate is unbiased) while the additive part of the replicates'
    effect (the conditional mean of U, a sum over the L items) almost cancels.

    Common random numbers: every AUC uses the same draws, and for each draw the conditional pmf is
    stochastically increasing in μ+, so the returned distributions are ordered in the AUC exactly:
    P(U <= u) is non-increasing in the AUC for every u.

    Error bound. The result is exact in expectation; its error is that of a mean of R independent
    conditional cdfs. Each lies in [0, 1], so by Hoeffding's inequality every tabulated cdf value is
    within sqrt(log(2/δ) / (2R)) of the truth with probability 1 - δ (0.085 for R = 256, δ = 0.05:
    loose, since the conditional cdfs vary far less than [0, 1]). Through F^m an error ε in F(x) moves
    P(best <= x) by at most m ε F^(m-1), so what matters is the relative error of the upper tail 1 - F at
    the level 1/m, which the replicates estimate with a relative standard error of about 0.4 / sqrt(R) for
    independent draws and much less with the Latin hypercube. Measured for §5.2.1 (m = 1000, n = 3000,
    52 positives, AUC 0.9, R = 256): E(best) varies by about 3e-5 from seed to seed, the Monte Carlo
    error of some 10^4 simulated competitions. The larger class matters more when the classes are less
    unequal: for m = 50, n = 300, 30 positives, AUC 0.8 the seed-to-seed SD of E(best) is 4.4e-4 at
    R = 256 (3 % of the SD of the best, as noisy as some 1,000 simulated competitions), 1.5e-4 at
    R = 1024 and 9e-5 at R = 4096 (independent replicates: 7.6e-4 and 4.9e-4 at R = 256 and 1024), with
    no bias measurable at R >= 256; raise ``replicates`` there. The tests compare it to the direct
    simulation.

    Parameters
    ----------
    auc : float or array_like
        True AUCs in (0.5, 1), one distribution per value.
    test_size, positives : int
        n and n+ (1 <= n+ <= n - 1).
    replicates : int, default 256
        R, draws of the larger class. The cost per AUC is R transforms: FFTs of length N, about 30
        standard deviations of U (at most s L + 1), or, where it is cheaper, a direct transform at a few
        hundred frequencies and an FFT of length about 8 L that bounds the others.
    seed : int or numpy.random.Generator, optional
        Source of randomness; the same seed gives the same distributions.

    Returns
    -------
    numpy.ndarray
        Shape ``(len(auc), n+ n- + 1)``: row i is P(U = u) for u = 0..n+ n-, the empirical AUC being
        U / (n+ n-).

    Examples
    --------
    A single classifier with true AUC 0.9 on 3000 items, 52 positive (paper: 95 % interval
    (0.8558, 0.9376), §5.2.1):

    >>> pmf = auc_pmf([0.85, 0.9], test_size=3000, positives=52, seed=1)
    >>> auc = np.arange(pmf.shape[1]) / (52 * 2948)
    >>> [round(float(row @ auc), 4) for row in pmf]
    [0.85, 0.9]
    >>> cdf = np.cumsum(pmf, axis=1)
    >>> bool(np.all(cdf[1] <= cdf[0] + 1e-12))  # ordered in the AUC
    True
    """
    n, n_pos = _check_test_set(test_size, positives)
    values = _auc_array(auc, "an AUC or an array of AUCs").reshape(-1)
    reps = check_count(replicates, "replicates")
    rng = check_seed(seed)
    n_neg = n - n_pos
    small, large = min(n_pos, n_neg), max(n_pos, n_neg)
    # The smaller class's scores relative to the larger's, standardised: N(shift, 1). When the negatives
    # are the smaller class the scores are mirrored (s -> -s): a negative's count of positives above it
    # is then its count of larger-class items below, and U is again the sum of the counts.
    shift = math.sqrt(2) * special.ndtri(values)
    strata = np.argsort(rng.random((reps, large)), axis=0)
    larger = np.sort(special.ndtri((strata + rng.random((reps, large))) / reps), axis=1)
    pmf = np.zeros((values.size, small * large + 1))
    try:
        _each_auc(pmf, shift, larger, small)
    finally:
        _unit_roots.cache_clear()  # the direct transforms' matrices serve one call
    pmf /= pmf.sum(axis=1, keepdims=True)
    return pmf


def _each_auc(pmf, shift, larger, small):
    """Add to each row of ``pmf`` its AUC's sum of the replicates' conditional pmfs (:func:`auc_pmf`)."""
    reps, large = larger.shape
    for row, value in zip(pmf, shift, strict=True):
        # q_k = P(S > y_(k)): upper tails, so cells near the top keep their precision.
        tail = special.ndtr(value - larger)
        cells = np.empty((reps, large + 1))
        np.subtract(1.0, tail[:, 0], out=cells[:, 0])
        np.subtract(tail[:, :-1], tail[:, 1:], out=cells[:, 1:large])
        cells[:, large] = tail[:, -1]
        del tail
        np.maximum(cells, 0.0, out=cells)
        _sum_of_counts(cells, small, row)


def _power(z, exponent):
    """``z ** exponent`` for a whole exponent >= 1, by repeated squaring in place (``z`` is overwritten).

    numpy raises complex numbers to an integer power by exp and log from exponent 100 on, and element by
    element below it (426 ns an element at 560, 30 ns at 52, against about 1 ns for a product of two
    arrays); squaring takes about 2·log2(exponent) products, exact to a few units of the last place.

    Examples
    --------
    >>> z = np.array([0.6 + 0.8j, -0.5j, 1.0])
    >>> bool(np.allclose(_power(z.copy(), 53), z**53, rtol=1e-13, atol=0))
    True
    """
    result = None
    while True:
        if exponent & 1:
            result = z.copy() if result is None else np.multiply(result, z, out=result)
        exponent >>= 1
        if not exponent:
            return result
        np.multiply(z, z, out=z)


def _sum_of_counts(cells, count, out):
    """Add to ``out`` the pmf of the sum of ``count`` independent draws from each row of ``cells``.

    ``cells`` holds R pmfs on 0..w - 1 (the rows), ``out`` the values 0..count (w - 1). Each row's sum is
    the ``count``-th power of its characteristic function φ, transformed back; the transform is linear,
    so the R powers are summed first and one inverse serves them all. Two exact reductions make it cheap:

    * the window. By the Chernoff bound P(S - count μ >= t) <= exp(count log E e^{λ(K - μ)} - λ t),
      λ > 0 (and its mirror image), each row's sum lies in a window [lo, hi] but for probability
      _NEGLIGIBLE on each side (:func:`_window`). A circular convolution of any length N >= hi - lo + 1
      then gives the pmf on the window, with the mass outside folded in: the transforms have length N,
      about 30 standard deviations of the sum, instead of count (w - 1) + 1. A window of more than half
      of the values saves little and is not taken: the transforms are then of length >= count (w - 1) + 1,
      and their rounding is that of a transform without the window (the tails near 1e-12 that
      tests/sota/test_auc.py interpolates are at its level). The lengths are 2^a 5^b (:func:`_length`).
    * the band. |φ|^count is below _NEGLIGIBLE at all but the lowest frequencies once ``count`` is large
      (:func:`_band` bounds it everywhere); there φ is the direct sum of the w terms, a matrix product
      (:func:`_direct`), and the other frequencies are 0. The band is looked for in groups of _GROUP rows
      of like roughness, so that the rows whose few heavy cells keep |φ| up at every frequency (the top
      of the larger class when its top order statistics are far apart) do not hold back the others.

    Each reduction moves a value of the pmf by at most _NEGLIGIBLE (per row); what remains is rounding
    (tests/sota/test_auc.py compares it with direct convolution). The rows without a band (few draws, or a
    band too wide for the direct sums to be cheaper) are transformed at all N frequencies by FFTs of a
    divisor of N (:func:`_fft_powers`). Which rows take which path is a cost choice only.
    """
    reps, width = cells.shape
    values = np.arange(width)
    mean = np.einsum("rk,k->r", cells, values)  # not a threaded BLAS product (see _COLUMNS)
    centred = values - mean[:, None]
    full = count * (width - 1) + 1
    # The window's bounds are not computed when the normal limit's (sqrt(2 c count) σ either side of the
    # means, c = -log _NEGLIGIBLE) is already more than half of the values: a cost estimate only.
    reach = math.sqrt(-2 * math.log(_NEGLIGIBLE) * count) * np.sqrt(np.einsum("rk,rk->r", cells, centred**2))
    if 2 * count * (np.max(mean + reach / count) - np.min(mean - reach / count)) > full:
        lo, hi = 0, full - 1
    else:
        lo, hi = _window(cells, centred, mean, count)
    if 2 * (hi - lo + 1) > full:  # little saved: all the values, as the plain convolution theorem has it
        lo, hi = 0, full - 1
    length = _length(max(hi - lo + 1, width))  # at least w: the rows are not cut short
    # The direct transform costs about w operations a frequency and row, the FFT and its power about
    # N log2 N: the band is worth it up to _DIRECT_WORTH N log2 N / w frequencies (measured).
    limit = _DIRECT_WORTH * length * math.log2(length) / width
    # Rows in groups of like roughness, each group's band looked for on its own: Σ_k P(K = k)² is the
    # mean of |φ|² over the N frequencies (Parseval), so a group of smooth rows is not held back by a rough
    # one (a few heavy cells keep |φ| up at every frequency). A row whose band is at most ``limit`` has
    # |φ| <= 1 at the 2 limit lowest frequencies (either sign) and below _NEGLIGIBLE^(1 / count) at the
    # others: rows rougher than that mean allows go to the FFT unsearched.
    roughness = np.einsum("rk,rk->r", cells, cells)
    order = np.argsort(roughness, kind="stable")
    smooth = np.count_nonzero(roughness < 2 * limit / length + _NEGLIGIBLE ** (2 / count))
    bands = np.zeros(reps, dtype=np.int64)  # 0: the FFT
    for first in range(0, smooth, _GROUP):  # the rougher groups by the FFT once one is (a cost choice)
        group = order[first : first + _GROUP]
        bands[group] = _band(cells[group], centred[group], count, length, limit) or 0
        if not bands[group[0]]:
            break
    total = np.zeros(length // 2 + 1, dtype=complex)
    by_fft = order[bands[order] == 0]
    if by_fft.size:
        _fft_powers(cells[by_fft], count, length, total)
    direct = order[bands[order] > 0]
    if direct.size:
        _direct(cells[direct], bands[direct], count, length, total)
    folded = fft.irfft(total, n=length, workers=-1)
    out[lo : hi + 1] += np.maximum(folded[np.arange(lo, hi + 1) % length], 0.0)


def _fft_powers(cells, count, length, total):
    """Add to ``total`` the ``count``-th powers of the rows' transforms at the N / 2 + 1 frequencies
    2π j / N, j = 0..N / 2, N = ``length``, by FFTs of length Q, a divisor of N at least w.

    A row has w <= Q values, so with j = P c + r (N = P Q, r < P, c < Q) its transform
    X(j) = Σ_k x_k e^{-2πi k r / N} e^{-2πi k c / Q} is, for each r, the FFT of length Q of the row turned by
    e^{-2πi k r / N} (the twiddles of one step of a mixed-radix FFT; their angles are exact products, as
    in :func:`_direct`). The rows are real, so X(N - j) is the conjugate of X(j) and the residues
    r <= P / 2 give the others. That is P Q log2 Q operations instead of P Q log2 (P Q), in short FFTs:
    at w = 2,949 and N = 156,250 (Q = 3,125) a row's twiddles, FFTs and power take 1.6 ms against about
    3 ms by the real FFT of length N (measured). The rows are taken one at a time in the same arrays.
    """
    width = cells.shape[1]
    period = _period(length, width)
    parts = length // period
    half = parts // 2 + 1
    angle = np.outer(np.arange(half), np.arange(width)) % length * (-2 * math.pi / length)
    turn = np.cos(angle) + 1j * np.sin(angle)
    del angle
    powers = np.zeros((half, period), dtype=complex)
    turned = np.zeros((half, period), dtype=complex)  # zero past w: the row padded
    for row in cells:  # one at a time: the same arrays each time, no fresh pages to fault in
        np.multiply(row, turn, out=turned[:, :width])
        turned[:, width:] = 0.0
        powers += _power(fft.fft(turned, axis=-1, overwrite_x=True), count)  # too short for threads
    # X(P c + r) for r > P / 2 is the conjugate of X(P (Q - 1 - c) + P - r).
    layout = np.empty((period, parts), dtype=complex)
    layout[:, :half] = powers.T
    layout[:, half:] = np.conj(powers[parts - np.arange(half, parts), ::-1]).T
    total += layout.reshape(-1)[: length // 2 + 1]


def _period(length, width):
    """Q, the least divisor 2^a 5^b of N = ``length`` (itself 2^x 5^y, :func:`_length`) that is >= ``width``.

    >>> _period(156_250, 2_949), _period(160_000, 2_949), _period(1024, 3)
    (3125, 3200, 4)
    """
    best, five = length, 1
    while length % five == 0:
        twos = -(-width // five)
        power = 1 << (twos - 1).bit_length()
        if (length // five) % power == 0:
            best = min(best, power * five)
        five *= 5
    return best


def _direct(cells, bands, count, length, total):
    """Add to ``total`` the ``count``-th powers of the rows' transforms at the lowest frequencies 2π j / N,
    j < ``bands`` (row by row; a row may take a few more), by their direct sums.

    The sums are matrix products with the cosines and sines of 2π j k / N, k the w values
    (:func:`_unit_roots`), in blocks of at most _BAND_ENTRIES entries of frequencies; each product sums
    _TERMS values of K, and these are summed: its rounding is then as small as the FFT's (one product of
    all w values rounds about twice as much, measured).
    """
    width = cells.shape[1]
    step = max(1, _BAND_ENTRIES // width)
    for start in range(0, int(bands.max()), step):
        needed = bands > start
        stop = min(start + step, int(bands[needed].max()))
        cosine, sine = _unit_roots(width, length, start, start + step)
        block_rows = np.flatnonzero(needed)
        for first in range(0, block_rows.size, _GROUP):
            block = cells[block_rows[first : first + _GROUP]]
            spectrum = np.zeros((len(block), stop - start), dtype=complex)
            for low in range(start, stop, _COLUMNS):
                columns = slice(low - start, min(low + _COLUMNS, stop) - start)
                real, imag = spectrum.real[:, columns], spectrum.imag[:, columns]
                for term in range(0, width, _TERMS):
                    part = block[:, term : term + _TERMS]
                    real += part @ cosine[term : term + _TERMS, columns]
                    imag += part @ sine[term : term + _TERMS, columns]
            total[start:stop] += _power(spectrum, count).sum(axis=0)


@functools.lru_cache(maxsize=2)
def _unit_roots(width, length, start, stop):
    """cos and sin of -2π j k / N, k = 0..w - 1 (rows), j = start..stop - 1 (columns), N = ``length``.

    Taken from a table of one period by j k mod N: the same numbers as their direct evaluation. Kept for
    the next AUCs of an :func:`auc_pmf` call (their w and N are the same), which clears them at its end.
    """
    angle = np.arange(length) * (-2 * math.pi / length)  # exact products
    index = np.outer(np.arange(width), np.arange(start, stop)) % length
    cosine, sine = np.cos(angle)[index], np.sin(angle)[index]
    cosine.flags.writeable = sine.flags.writeable = False
    return cosine, sine


def _length(size):
    """The least N = 2^a 5^b >= size, the length of :func:`_sum_of_counts`'s transforms.

    Lengths with factors 3 round more: at n+ = 60, n- = 540 the pmf from a transform of length
    24,300 = 2^2 3^5 5^2 is 5e-18 from direct convolution (root mean square), from one of 25,000 = 2^3 5^5
    or 32,768 = 2^15 2e-18; its tails near 1e-12 are 0.1 % off, against 0.01-0.02 %.

    >>> [_length(size) for size in (1, 3, 24_000, 24_301, 32_001)]
    [1, 4, 25000, 25000, 32768]
    """
    best, five = 1 << (size - 1).bit_length(), 1
    while five < size:
        best = min(best, five << (-(-size // five) - 1).bit_length())
        five *= 5
    return min(best, five)


def _window(cells, centred, mean, count):
    """[lo, hi]: every row's sum of ``count`` draws lies in it but for probability _NEGLIGIBLE a side.

    Two bounds of each tail, the lesser taken (c = -log _NEGLIGIBLE, K - μ between -a and b, variance
    σ², a sum S of ``count`` = s draws):

    * Bernstein: P(S - s μ >= t) <= exp(-t² / (2 (s σ² + b t / 3))), below c at
      t = b c / 3 + sqrt((b c / 3)² + 2 c s σ²);
    * Chernoff: P(S - s μ >= t) <= exp(s Λ(λ) - λ t) for every λ > 0, Λ the log moment generating function
      of K - μ, so t = (s Λ(λ) + c) / λ at a few λ (_CHERNOFF_FACTORS times the normal limit's best,
      sqrt(2 c / s) / σ).

    Likewise below (a, and λ < 0).
    """
    reps, width = cells.shape
    log_small = math.log(_NEGLIGIBLE)
    variance = np.einsum("rk,rk->r", cells, centred * centred)
    support = cells > 0
    # The most K - μ can be on each side: the top and the bottom of the support.
    ends = centred[
        np.arange(reps), [width - 1 - np.argmax(support[:, ::-1], axis=1), np.argmax(support, axis=1)]
    ]
    linear = np.abs(ends) * (-log_small / 3)
    reach = linear + np.sqrt(linear * linear - 2 * log_small * count * variance)  # Bernstein, both sides
    best = math.sqrt(-2 * log_small / count) / np.maximum(np.sqrt(variance), 1e-3)
    exponent = np.empty_like(centred)
    for factor in _CHERNOFF_FACTORS:
        for side, sign in enumerate((1.0, -1.0)):
            slope = sign * factor * best
            # exp(λ (K - μ) - λ end) <= 1 where K has probability: no overflow, the largest term kept.
            np.multiply(centred, slope[:, None], out=exponent)
            top = slope * ends[side]
            np.subtract(exponent, top[:, None], out=exponent)
            np.exp(np.minimum(exponent, 0.0, out=exponent), out=exponent)
            log_mgf = np.log(np.einsum("rk,rk->r", cells, exponent)) + top
            np.minimum(reach[side], (count * log_mgf - log_small) / (factor * best), out=reach[side])
    mean = mean * count
    lo = max(0, math.floor(float(np.min(mean - reach[1]))) - 1)
    hi = min(count * (width - 1), math.ceil(float(np.max(mean + reach[0]))) + 1)
    return lo, hi


def _band(cells, centred, count, length, limit):
    """How many of the lowest frequencies 2π j / N, j = 0, 1, ..., carry every row's |φ|^count above
    _NEGLIGIBLE; None if more than ``limit``.

    |φ| is computed at the M / 2 + 1 frequencies 2π m / M of a real FFT of length M (2 w to 32 w and at
    most N / 4; where it can, fine enough for the slack below to be a quarter of ρ = _NEGLIGIBLE^(1 / count)
    and of 1 - ρ), and bounded between them: ||φ(ω)| - |φ(ω')|| <= |ω - ω'| E|K - μ| (the derivative of
    φ(ω) e^{iωμ}, which has the same modulus, is at most E|K - μ|), so within π / M of 2π m / M,
    |φ| <= |φ(2π m / M)| + (π / M) E|K - μ|. Beyond the last m where that bound raised to ``count``
    reaches _NEGLIGIBLE, no frequency does. The band is not looked for when twice that of the normal
    limit (|φ| = exp(-σ² ω² / 2)) is past ``limit``: a cost estimate only.
    """
    reps, width = cells.shape
    threshold = _NEGLIGIBLE ** (1 / count)
    sd = float(np.mean(np.sqrt(np.einsum("rk,rk->r", cells, centred * centred))))
    if math.sqrt(-2 * math.log(threshold)) * length / (math.pi * max(sd, 1e-3)) > limit:
        return None
    spread = np.einsum("rk,rk->r", cells, np.abs(centred))
    fine = 4 * math.pi * float(spread.max()) / min(threshold, 1 - threshold)  # the slack below
    coarse = fft.next_fast_len(int(min(max(fine, 2 * width), 32 * width, length // 4)), real=True)
    if length <= coarse:
        return None
    spread *= math.pi / coarse
    last = 0
    rows = max(1, _FFT_BYTES // (16 * coarse))
    for first in range(0, reps, rows):
        modulus = np.abs(fft.rfft(cells[first : first + rows], n=coarse, axis=-1, workers=-1))
        modulus += spread[first : first + rows, None]
        above = np.flatnonzero(np.any(modulus >= threshold, axis=0))
        last = max(last, int(above[-1]))
    band = min(length // 2, math.ceil((last + 0.5) * length / coarse)) + 1
    return band if band <= limit else None


def _pmf_memory(aucs, test_size, positives, replicates):
    """Bytes :func:`auc_pmf` holds at its peak for `aucs` AUCs on a test set of n items, n+ positive.

    The pmfs returned (one row of n+ n- + 1 values per AUC), and the most of either: the draws of the
    larger class (L values per replicate) and what sorts them (four arrays of replicates x L); or, for one
    AUC, the replicates' cell pmfs, the arrays of the same shape the bounds use (five) and the rows taken
    by each transform (two), the transforms of one block of replicates (at most _FFT_BYTES, or one row;
    four such arrays), the direct transform's matrices (:func:`_unit_roots`: cosines and sines of two
    blocks, and the indices that give them) and the arrays of about the transform's length N <= the padded
    n+ n- + 1 (the sum of the spectra, the FFTs' twiddles, their powers and the layout that unfolds them,
    the inverse transform, its indices and the values taken from it, a period of cosines and sines).

    >>> round(_pmf_memory(34, 1531, 560, 128) / 1e9, 2)  # the 34 AUCs of a board of n = 1,531, 560 positive
    0.48
    """
    small = min(positives, test_size - positives)
    large = test_size - small
    size = small * large + 1
    length = _length(size)
    block = min(_FFT_BYTES, 16 * replicates * length) + 16 * length
    matrix = 40 * min(_BAND_ENTRIES, (large + 1) * length)
    working = 56 * replicates * (large + 1) + 4 * block + matrix + 104 * length
    return 8 * aucs * size + max(32 * replicates * large, working)


def _log_cdf(pmf):
    """log P(U <= u) for each row of a pmf, from the upper tail where it is small (log1p of -tail)."""
    upper = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]  # P(U >= u)
    above = np.concatenate([upper[:, 1:], np.zeros((pmf.shape[0], 1))], axis=1)  # P(U > u)
    with np.errstate(divide="ignore"):
        return np.log1p(-np.minimum(above, 1.0))


def _best_from_log_cdf(log_cdf, lattice, alpha):
    """:func:`_summarise` fields of a best score whose log P(best <= u / lattice) is ``log_cdf``.

    Kept: the window of u where P(best >= u) is neither 1 nor 0 to double precision (it starts at 1).
    """
    upper_tail = -np.expm1(np.concatenate([[-np.inf], log_cdf[:-1]]))  # P(best >= u)
    first = max(int(np.count_nonzero(upper_tail >= 1.0)) - 1, 0)
    last = max(int(np.count_nonzero(upper_tail > 0.0)), first + 1)
    tail = upper_tail[first:last].copy()
    tail[0] = 1.0
    return _summarise(np.arange(first, last) / lattice, tail, alpha)


def best_of_auc(
    auc: npt.ArrayLike,
    *,
    test_size: int,
    positives: int,
    classifiers: int | None = None,
    alpha: float = 0.05,
    simulations: int | None = None,
    replicates: int = _REPLICATES,
    seed: Seed = None,
    progress: Callable[[int, int], object] | None = None,
) -> BestOfResult:
    """Distribution of the best observed AUC among m independent classifiers (paper §5.2.1).

    Every classifier's empirical AUC on the same test set design (n items, n+ positives) follows the
    binormal model of §5.2.1 (μ- = 0, σ- = σ+ = 1, μ+ solved from Eq. 15 for its true AUC),
    independently of the others, so P(best <= x) = Π_j F_{a_j}(x). By default each distinct true AUC's
    F_a is computed once by :func:`auc_pmf` (exact integration over the smaller class, R Latin-hypercube
    replicates of the larger; its docstring gives the error bound) and the product is summed in log
    space, counts times log F_a. With ``simulations`` given, the paper's direct simulation is run
    instead (R competitions of m draws from :func:`sample_auc`), kept as an independent cross-check.

    Parameters
    ----------
    auc : float or array_like
        The true AUC a shared by all classifiers, or a_j for each of the m classifiers; in (0.5, 1).
    test_size : int
        n, the number of test items.
    positives : int
        n+, the positive items among them (1 <= n+ <= n - 1).
    classifiers : int, optional
        m; required with a single AUC, checked against the length of a list.
    alpha : float, default 0.05
        The central interval has probability 1 - α.
    simulations : int, optional
        Simulate this many competitions directly instead (the paper used 10,000).
    replicates : int, default 256
        R of :func:`auc_pmf`, without ``simulations``.
    seed : int or numpy.random.Generator, optional
        Source of randomness; the same seed gives the same result.
    progress : callable, optional
        With ``simulations``: ``progress(done, total)``, competitions simulated so far, after each batch.

    Returns
    -------
    BestOfResult
        With ``metric`` "auc", the distribution on the AUC lattice U / (n+ n-); ``method`` says which
        computation ran. ``best_of_auc(a, classifiers=1, ...).ci`` is the central interval of a single
        classifier's empirical AUC.

    See Also
    --------
    sample_auc : Draws of one classifier's empirical AUC, which the direct simulation uses.
    binormal : The score model for a true AUC.
    Binormal : The score model.
    BestOfResult : The result: distribution, E(best AUC), its standard deviation and interval.
    best_of : The best of m accuracies.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5.2, Eq. (13)-(15) (the
       binormal model); §5.2.1 and Fig. 11 (10,000 simulated competitions: E = 0.9562, SD = 0.004459,
       95 % interval (0.9486, 0.9662)).
    .. [2] J. A. Hanley and B. J. McNeil, "The meaning and use of the area under a receiver operating
       characteristic (ROC) curve", Radiology 143(1), 29-36, 1982. doi:10.1148/radiology.143.1.7063747.
       The AUC as P(S- < S+), estimated by the Wilcoxon (Mann-Whitney) statistic U / (n+ n-).

    Examples
    --------
    §5.2.1 (the paper, from 10,000 simulations: E = 0.9562, SD = 0.004459, 95 % interval
    (0.9486, 0.9662)):

    >>> r = best_of_auc(0.9, classifiers=1000, test_size=3000, positives=52, seed=1)
    >>> round(r.expected_max, 4), round(r.sd_max, 4), r.model
    (0.9562, 0.0044, 'independent, identical (binormal)')
    >>> round(r.ci[0], 3), round(r.ci[1], 3)
    (0.949, 0.966)
    """
    n, n_pos = _check_test_set(test_size, positives)
    values = _auc_array(auc, "an AUC or a list of AUCs")
    if values.ndim > 1:
        raise InputError("auc: expected one AUC or a flat list of AUCs")
    values = values.reshape(-1)
    if values.size == 1:
        if classifiers is None:
            raise InputError("classifiers: give the number of classifiers m with a single AUC")
        m = check_count(classifiers, "classifiers")
        counts = np.array([m])
    else:
        m = values.size
        if classifiers is not None and check_count(classifiers, "classifiers") != m:
            raise InputError(f"classifiers={classifiers} but {m} AUCs were given")
        values, counts = np.unique(values, return_counts=True)
    alpha = check_probability(alpha, "alpha")
    rng = check_seed(seed)
    identical = values.size == 1
    lattice = n_pos * (n - n_pos)
    if simulations is None:
        reps = check_count(replicates, "replicates")
        log_cdf = counts @ _log_cdf(auc_pmf(values, test_size=n, positives=n_pos, replicates=reps, seed=rng))
        fields = _best_from_log_cdf(log_cdf, lattice, alpha)
        method = f"exact over the positives, {reps} replicates of the negatives"
    else:
        reps = check_count(simulations, "simulations")
        fields = _simulate_best(np.repeat(values, counts), m, n, n_pos, reps, rng, alpha, progress)
        method = f"monte carlo, {reps} simulations"
    return BestOfResult(
        **fields,
        alpha=alpha,
        classifiers=m,
        test_size=n,
        top_score=float(values.max()),
        lowest_score=float(values.min()),
        correlation=0.0,
        reference_accuracy=None,
        fixed_reference=False,
        dropped=0,
        model=f"independent, {'identical' if identical else 'non-identical'} (binormal)",
        method=method,
        metric="auc",
        positives=n_pos,
    )


def _simulate_best(values, m, n, n_pos, reps, rng, alpha, progress=None):
    """:func:`_summarise` fields of the best of m AUCs from ``reps`` directly simulated competitions;
    ``progress(done, reps)`` after each batch, if given."""
    positive_mean = math.sqrt(2) * special.ndtri(values[0] if values.size == 1 else values)
    best = np.empty(reps, dtype=np.int64)
    # Competitions at a time: _CELLS_PER_BATCH multinomial cells (a second or so), so progress moves.
    batch = max(1, _CELLS_PER_BATCH // (m * (min(n_pos, n - n_pos) + 1)))
    for first in range(0, reps, batch):
        count = min(batch, reps - first)
        u = _mann_whitney_u(
            positive_mean, 1.0, 0.0, 1.0, positives=n_pos, negatives=n - n_pos, rng=rng, size=(count, m)
        )
        best[first : first + count] = u.max(axis=1)
        if progress is not None:
            progress(first + count, reps)
    u_values, hits = np.unique(best, return_counts=True)
    upper_tail = np.cumsum(hits[::-1])[::-1] / reps  # P(best >= value)
    return _summarise(u_values / (n_pos * (n - n_pos)), upper_tail, alpha)
