"""The statistics of autorank's automatic path (Herbold 2020) that :mod:`._ranks` does not have: the
studentized range with finite degrees of freedom (Tukey's HSD), the repeated-measures ANOVA, and the effect
sizes autorank reports (Cohen's d, Cliff's δ, Akinshin's γ) with their magnitude words.
"""

from __future__ import annotations

import functools

import numpy as np

from benchtrust._distributions import f_sf, median
from benchtrust._words import GAMMA
from benchtrust.compare._tasks._ranks import range_quantile, range_tail

#: Step of the trapezoid rule over log S, S = sqrt(χ²_ν / ν), in units of 1/sqrt(ν) (the spread of log S).
_STEP = 0.3
#: MAD to the standard deviation of a normal: 1 / Φ⁻¹(3/4), as autorank's Akinshin's γ scales it.
MAD_SCALE = 1.4826
#: Lower ends of |effect| for small, medium and large effects, as autorank words them: Cohen 1988 for d and
#: Akinshin's γ (which is consistent with d), Romano et al. 2006 for Cliff's δ.
THRESHOLDS = {
    "cohen_d": (0.2, 0.5, 0.8),
    "akinshin_gamma": (0.2, 0.5, 0.8),
    "cliff_delta": (0.147, 0.33, 0.474),
}
DELTA = "\N{GREEK SMALL LETTER DELTA}"
EFFECT_NAMES = {
    "cohen_d": "Cohen's d",
    "cliff_delta": f"Cliff's {DELTA}",
    "akinshin_gamma": f"Akinshin's {GAMMA}",
}


@functools.cache
def _scale_nodes(df):
    """Nodes s and weights of E[f(S)], S = sqrt(χ²_ν / ν): the trapezoid rule in t = log S, whose density
    ν^(ν/2) e^(νt - ν e^(2t)/2) / (2^(ν/2 - 1) Γ(ν/2)) is smooth and decays fast both ways (so the rule
    converges geometrically), over the t where it is above e^-60 of its peak at t = 0; the weights are
    normalised to sum to 1. The step, 0.3/sqrt(ν), makes the error below 1e-12 for every ν >= 1."""
    reach = np.sqrt(60.0 / df)
    t = np.arange(-max(reach, 60.0 / df), max(reach, 0.5 * np.log1p(300.0 / df)), _STEP / np.sqrt(df))
    log_density = df * t - df * np.expm1(2 * t) / 2
    weight = np.exp(log_density - log_density.max())
    return np.exp(t), weight / weight.sum()


def studentized_range_tail(q, k, df):
    """P(Q > q) and the density of Q at q, Q the studentized range of k means with `df` degrees of freedom:
    Q = W / S, W the range of k standard normals (:func:`range_tail`) and S = sqrt(χ²_ν / ν) independent, so
    P(Q > q) = E_S[P(W > q S)] and the density is E_S[S f_W(q S)]; the expectation over S by Gauss-Legendre
    quadrature (:func:`_scale_nodes`; agrees with :data:`scipy.stats.studentized_range`, faster)."""
    s, weight = _scale_nodes(float(df))
    q = np.asarray(q, dtype=float)
    tail, density = range_tail(q[..., None] * s, k)
    return (tail * weight).sum(axis=-1), (density * s * weight).sum(axis=-1)


def studentized_range_quantile(alpha, k, df):
    """The q with P(Q > q) = α (:func:`studentized_range_tail`), by Newton's method on log P(Q > q) from the
    quantile with infinite degrees of freedom."""
    q = range_quantile(alpha, k)
    for _ in range(50):
        tail, density = studentized_range_tail(q, k, df)
        step = (np.log(tail) - np.log(alpha)) * tail / density
        q += float(step)
        if abs(step) <= 1e-12 * q:
            break
    return q


def repeated_measures_anova(x):
    """F, its degrees of freedom and p-value of the one-way repeated-measures ANOVA of x (k, N): methods as
    the treatment, data sets as the subjects, without a correction for sphericity (as statsmodels'
    ``AnovaRM``, which autorank reports): F = MS_methods / MS_error, (k - 1, (k - 1)(N - 1)) df."""
    k, n = x.shape
    grand = x.mean()
    between = n * np.square(x.mean(axis=1) - grand).sum()
    subjects = k * np.square(x.mean(axis=0) - grand).sum()
    error = np.square(x - grand).sum() - between - subjects
    df1, df2 = k - 1, (k - 1) * (n - 1)
    f = (between / df1) / (error / df2) if error > 0 else np.inf
    return float(f), (df1, df2), f_sf(f, df1, df2)


def cohen_d(reference, x):
    """Cohen's d of the reference against each row of x: (mean_ref - mean_x) / s_pooled, s_pooled² the
    mean of the two variances (ddof 1; equal sample sizes)."""
    pooled = np.sqrt((reference.var(ddof=1) + x.var(axis=1, ddof=1)) / 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (reference.mean() - x.mean(axis=1)) / pooled


def cliff_delta(reference, x):
    """Cliff's δ of the reference against each row of x, over all pairs of their values:
    (#(ref > x) - #(ref < x)) / N²."""
    difference = reference[None, :, None] - x[:, None, :]
    return (np.sign(difference).sum(axis=(1, 2))) / reference.size**2


def median_absolute_deviation(x):
    """The median of |x - median(x)| along the last axis (unscaled, as autorank reports the MAD)."""
    return median(np.abs(x - median(x, axis=-1, keepdims=True)), axis=-1)


def akinshin_gamma(reference, x):
    """Akinshin's γ of the reference against each row of x, at the median (Akinshin 2020), as autorank
    computes it: (median_ref - median_x) / (1.4826 × sqrt((MAD_ref² + MAD_x²) / 2)), the pooled MAD scaled
    to be consistent with the standard deviation of a normal (so γ is consistent with Cohen's d)."""
    pooled = MAD_SCALE * np.sqrt(
        (median_absolute_deviation(reference) ** 2 + median_absolute_deviation(x) ** 2) / 2
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        return (median(reference) - median(x, axis=1)) / pooled


EFFECTS = {"cohen_d": cohen_d, "cliff_delta": cliff_delta, "akinshin_gamma": akinshin_gamma}


def magnitude(effect, name):
    """autorank's magnitude words of |effect|: negligible, small, medium or large (:data:`THRESHOLDS`)."""
    words = np.array(["negligible", "small", "medium", "large"], dtype=object)
    return tuple(words[np.searchsorted(THRESHOLDS[name], np.abs(effect), side="right")])
