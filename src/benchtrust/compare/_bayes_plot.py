"""The simplex plot of the Bayesian signed-rank test's posterior (Benavoli et al. 2017, §4, Fig. 6-8)."""

from __future__ import annotations

import math

import numpy as np

from benchtrust._figures import axes_for
from benchtrust._io import InputError

__all__ = ["plot_simplex"]

#: Most posterior samples drawn as points (the first ones: the samples are independent).
_POINTS = 10_000
#: The corners of the triangle, in the order (a better, practically equivalent, b better).
_CORNERS = np.array([[0.0, 0.0], [0.5, math.sqrt(3) / 2], [1.0, 0.0]])


def plot_simplex(result, ax=None):
    """The posterior samples of θ = (θ_a, θ_rope, θ_b) in the barycentric triangle (Benavoli et al. 2017, §4).

    Each sample is the point whose barycentric coordinates are its three probabilities: the nearer a
    corner, the larger that outcome's θ. The lines from the centre to the middle of each side split the
    triangle into three regions, as in baycomp's and the paper's plots: in each, one θ is the largest, so
    the share of the samples in a region is the probability of its outcome, written at its corner. At most
    the first 10,000 samples are drawn. With no ROPE (r = 0), θ_rope is 0 and every sample lies on the
    bottom side.

    Parameters
    ----------
    result : SignedRankResult
        From :func:`signed_rank_test`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; by default a new figure's.

    Returns
    -------
    matplotlib.axes.Axes

    See Also
    --------
    signed_rank_test : The Bayesian signed-rank test across data sets.
    SignedRankResult : The posterior of the Bayesian signed-rank test.

    References
    ----------
    .. [1] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §4, Fig. 6-8.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores, signed_rank_test
    >>> uci = bundled_task_scores("uci")
    >>> ax = plot_simplex(signed_rank_test(uci, "nbc", "aode", rope=1, samples=2000, seed=1))
    >>> [text.get_text().splitlines()[0] for text in ax.texts]
    ['nbc better', 'practically equivalent', 'aode better']
    """
    posterior = getattr(result, "posterior", None)
    if not isinstance(posterior, np.ndarray) or posterior.ndim != 2 or posterior.shape[1] != 3:
        raise InputError(
            f"result: expected a SignedRankResult (from signed_rank_test), got {type(result).__name__}"
        )
    ax = axes_for(ax, (5.0, 4.6))
    points = posterior[:_POINTS] @ _CORNERS
    centre = _CORNERS.mean(axis=0)
    ax.fill(*_CORNERS.T, facecolor="none", edgecolor="0.35", linewidth=1.0)
    for k in range(3):
        middle = (_CORNERS[k] + _CORNERS[(k + 1) % 3]) / 2
        ax.plot([centre[0], middle[0]], [centre[1], middle[1]], color="0.35", linewidth=0.8)
    ax.scatter(*points.T, s=2, alpha=0.15, color="C0", linewidths=0, rasterized=True)
    names = (f"{result.a} better", "practically equivalent", f"{result.b} better")
    places = (("right", "top", -0.02), ("center", "bottom", 0.03), ("left", "top", -0.02))
    for k, (name, (horizontal, vertical, shift)) in enumerate(zip(names, places, strict=True)):
        x, y = _CORNERS[k]
        ax.text(
            x,
            y + shift,
            f"{name}\nP = {result.probabilities[k]:.3f}",
            ha=horizontal,
            va=vertical,
            fontsize=9,
        )
    ax.set_aspect("equal")
    ax.set_xlim(-0.35, 1.35)
    ax.set_ylim(-0.15, 1.0)
    ax.set_axis_off()
    ax.set_title(f"Bayesian signed-rank test, {result.a} vs {result.b}: posterior of θ", fontsize=10)
    return ax
