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
import math
import numbers

import numpy as np
from scipy import special

from benchtrust._io import InputError, check_count, check_probability, check_seed
from benchtrust.sota._best_of import BestOfResult, _summarise

#: Multinomial cells (draws x (s + 1)) generated at once: bounds the sampler's memory to about 70 MB.
_CELLS_PER_CHUNK = 2_000_000
#: Draws (simulations x classifiers) of U held at once by :func:`best_of_auc`.
_DRAWS_PER_BATCH = 1_000_000
#: How far a :class:`Binormal` given by hand may be from Eq. 15.
_EQ15_TOLERANCE = 1e-9

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

    def __post_init__(self):
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

    def score_mean(self, prevalence):
        """μ = π μ+ + (1 - π) μ-, the mean score of an item that is positive with probability π (Eq. 17).

        Examples
        --------
        >>> binormal(0.9).score_mean(0.5)  # doctest: +ELLIPSIS
        0.906...
        """
        pi = check_probability(prevalence, "prevalence", closed=True)
        return pi * self.positive_mean + (1 - pi) * self.negative_mean

    def score_variance(self, prevalence):
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

    def score_pdf(self, s, prevalence):
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

    def to_dict(self):
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


def binormal(auc, *, positive_mean=None, positive_sd=None, negative_mean=None, negative_sd=None):
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


def sample_auc(auc, *, test_size, positives, size, seed=None, model=None):
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


def best_of_auc(auc, *, test_size, positives, classifiers=None, alpha=0.05, simulations=10_000, seed=None):
    """Simulated distribution of the best observed AUC among m independent classifiers (paper §5.2.1).

    Each simulation is one competition: every classifier's empirical AUC on the same test set design (n
    items, n+ positives) is drawn exactly from the binormal model of §5.2.1 (μ- = 0, σ- = σ+ = 1, μ+
    solved from Eq. 15 for its true AUC; see :func:`sample_auc`), independently of the others, and the
    largest is kept.

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
    simulations : int, default 10000
        Number of simulated competitions (the paper's 10,000 repetitions).
    seed : int or numpy.random.Generator, optional
        Source of randomness; the same seed gives the same result.

    Returns
    -------
    BestOfResult
        With ``metric`` "auc", ``method`` "monte carlo, R simulations", the distribution on the AUC values
        U / (n+ n-) that occurred. ``best_of_auc(a, classifiers=1, ...).ci`` is the central interval of a
        single classifier's empirical AUC.

    Examples
    --------
    §5.2.1 with fewer simulations (the paper: E = 0.9562, 95 % interval (0.9486, 0.9662)):

    >>> r = best_of_auc(0.9, classifiers=1000, test_size=3000, positives=52, simulations=100, seed=1)
    >>> round(r.expected_max, 2), r.model
    (0.96, 'independent, identical (binormal)')
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
    else:
        m = values.size
        if classifiers is not None and check_count(classifiers, "classifiers") != m:
            raise InputError(f"classifiers={classifiers} but {m} AUCs were given")
    alpha = check_probability(alpha, "alpha")
    reps = check_count(simulations, "simulations")
    rng = check_seed(seed)
    identical = bool(np.all(values == values[0]))
    positive_mean = math.sqrt(2) * special.ndtri(values[0] if identical else values)
    best = np.empty(reps, dtype=np.int64)
    batch = max(1, _DRAWS_PER_BATCH // m)
    for first in range(0, reps, batch):
        count = min(batch, reps - first)
        u = _mann_whitney_u(
            positive_mean, 1.0, 0.0, 1.0, positives=n_pos, negatives=n - n_pos, rng=rng, size=(count, m)
        )
        best[first : first + count] = u.max(axis=1)
    u_values, counts = np.unique(best, return_counts=True)
    upper_tail = np.cumsum(counts[::-1])[::-1] / reps  # P(best >= value)
    return BestOfResult(
        **_summarise(u_values / (n_pos * (n - n_pos)), upper_tail, alpha),
        alpha=alpha,
        classifiers=m,
        test_size=n,
        top_score=float(values.max()),
        correlation=0.0,
        reference_accuracy=None,
        fixed_reference=False,
        dropped=0,
        model=f"independent, {'identical' if identical else 'non-identical'} (binormal)",
        method=f"monte carlo, {reps} simulations",
        metric="auc",
        positives=n_pos,
    )
