"""Figures of the paper: Fig. 6, detection rates of the conclusion criteria (§4.2), and Fig. 3, published
improvements against the benchmark's noise (§2.2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchtrust._figures import axes_for

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from benchtrust.compare import ErrorRatesResult, HistoryResult

#: Fig. 6 colours: oracle blue, single point green, average orange, probability of outperforming purple;
#: the t-test of §4.2 (not drawn in Fig. 6) grey.
_CRITERION_STYLE = {
    "oracle": ("tab:blue", "oracle"),
    "single_point": ("tab:green", "single point"),
    "average": ("tab:orange", "average"),
    "t_test": ("tab:gray", "t-test"),
    "probability_of_outperforming": ("tab:purple", "P(A > B)"),
}
_ESTIMATOR_STYLE = {"ideal": ("-", "ideal estimator"), "biased": ("--", "biased estimator")}


def plot_error_rates(result: ErrorRatesResult, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw the detection rates of the criteria against the true P(A > B), as in the paper's Fig. 6.

    The x axis is the true probability that A outperforms B; the y axis the rate at which each criterion
    concludes that A is better. Lines: the oracle, which knows the variance (blue, ideal estimator), single
    point (green), average with threshold δ (orange), the t-test of §4.2 (grey) and the
    probability-of-outperforming test (purple); solid for the ideal estimator, dashed for the biased one.
    The three regions of §4.2 are marked: H0 true (P(A > B) <= 0.5, a detection is a false positive),
    significant but not meaningful (0.5 < P(A > B) < γ, grey), and H1 true (P(A > B) >= γ, a missed
    detection is a false negative).

    Parameters
    ----------
    result : ErrorRatesResult
        From :func:`error_rates`.
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; default: those of a new 8 x 5 inch figure (drawn without a display, pyplot's
        global state untouched).
    title : str, optional
        The title; default: k, the number of simulations, δ/σ and γ.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Nothing is written: save the figure with :func:`benchtrust.save_figure`.

    See Also
    --------
    error_rates : The detection rates of the conclusion criteria, simulated.
    ErrorRatesResult : The detection rates of the criteria against the true P(A > B).
    plot_history : Draw published results against the benchmark's noise.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.2, Fig. 6.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from benchtrust import save_figure
    >>> from benchtrust.compare import error_rates, plot_error_rates
    >>> r = error_rates(0.01, conditional_sd=0.008, bias_sd=0.004, simulations=200, seed=0)
    >>> ax = plot_error_rates(r)
    >>> ax.get_xlabel()
    'true P(A > B)'
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = save_figure(ax, pathlib.Path(folder, "fig6.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    fig6.png True
    """
    ax = axes_for(ax, (8, 5))

    p = result.probabilities
    low = min(float(p.min()), 0.5)
    ax.axvspan(0.5, result.gamma, color="0.85", linewidth=0, zorder=0, label="significant, not meaningful")
    ax.axvline(0.5, color="0.5", linewidth=0.8)
    ax.axvline(result.gamma, color="0.5", linewidth=0.8)
    for criterion, (color, name) in _CRITERION_STYLE.items():
        for estimator, rates in result.rates[criterion].items():
            style, what = _ESTIMATOR_STYLE[estimator]
            ax.plot(p, rates, color=color, linestyle=style, marker=".", label=f"{name}, {what}")
    ax.text(low + 0.005, 1.02, "H0 true", fontsize="small", va="bottom")
    ax.text(result.gamma + 0.005, 1.02, "H1 true", fontsize="small", va="bottom")

    ax.set_xlim(low, max(float(p.max()), result.gamma))
    ax.set_ylim(-0.02, 1.1)
    ax.set_xlabel("true P(A > B)")
    ax.set_ylabel("rate of detections (A better than B)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    if title is None:
        title = (
            "Rate of detections of comparison methods (Bouthillier et al., Fig. 6)\n"
            f"k = {result.runs} runs, {result.simulations} simulations per point, "
            f"\N{GREEK SMALL LETTER DELTA} = {result.delta / result.sigma:.4g}\N{GREEK SMALL LETTER SIGMA}, "
            f"\N{GREEK SMALL LETTER GAMMA} = {result.gamma:g}, "
            f"\N{GREEK SMALL LETTER ALPHA} = {result.alpha:g}"
        )
    ax.set_title(title, fontsize="medium")
    return ax


def plot_history(result: HistoryResult, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw successive state-of-the-art results against the benchmark's noise, as in the paper's Fig. 3.

    Dots are the results over time. Above (or, for errors, below) the prior state of the art, a red band
    spans σ and a yellow band the significance threshold z_{1-α} sqrt(σ² + σ_prior²); results beyond the
    threshold are green circles (likely significant), the others red crosses; the first result, with
    nothing to improve on, is black.

    Parameters
    ----------
    result : HistoryResult
        From :func:`history`.
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; default: those of a new 8 x 5 inch figure (drawn without a display, pyplot's
        global state untouched).
    title : str, optional
        The title; default: σ (or n) and α.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Nothing is written: save the figure with :func:`benchtrust.save_figure`.

    See Also
    --------
    history : Which state-of-the-art increments exceed the benchmark's noise.
    HistoryResult : Which published improvements exceed the benchmark's noise.
    plot_error_rates : Draw the detection rates of the criteria.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 3.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from benchtrust import save_figure
    >>> from benchtrust.compare import history, plot_history
    >>> r = history(["2017-01-10", "2018-03-01", "2018-11-20", "2019-06-01"],
    ...             [0.80, 0.83, 0.84, 0.87], sigma=0.01)
    >>> ax = plot_history(r)
    >>> ax.get_xlabel()
    'date of publication'
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = save_figure(ax, pathlib.Path(folder, "fig3.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    fig3.png True
    """
    import numpy as np

    ax = axes_for(ax, (8, 5))

    x = result.dates
    if x.dtype.kind == "M":
        from matplotlib import dates as mdates

        x = mdates.date2num(x.astype("datetime64[D]").astype(object))
        ax.xaxis_date()
    x = np.asarray(x, dtype=float)
    y = result.scores
    sign = -1.0 if result.direction == "lower" else 1.0
    n = y.size

    # The state of the art over time (a step from each new best result to the next), and above it the σ
    # band and the threshold a next result with the same σ would have to pass: z √2 σ.
    if n > 1:
        signed = sign * y
        holder = np.flatnonzero(np.concatenate([[True], signed[1:] > np.maximum.accumulate(signed)[:-1]]))
        edges = np.append(x[holder], x[-1])
        keep = np.diff(edges) > 0
        edges = np.append(edges[:-1][keep], edges[-1])
        level, sigma = y[holder][keep], result.sigma[holder][keep]
        if level.size:
            threshold = result.z * np.sqrt(2.0) * sigma
            ax.stairs(level, edges, baseline=None, color="black", linewidth=1, label="state of the art")
            ax.stairs(
                level + sign * threshold,
                edges,
                baseline=level,
                fill=True,
                color="gold",
                alpha=0.35,
                label=f"significance threshold z√2\N{GREEK SMALL LETTER SIGMA} (z = {result.z:.3g})",
            )
            ax.stairs(
                level + sign * sigma,
                edges,
                baseline=level,
                fill=True,
                color="tab:red",
                alpha=0.3,
                label="\N{GREEK SMALL LETTER SIGMA}",
            )

    first = np.zeros(n, dtype=bool)
    first[0] = True
    later = ~first
    ax.scatter(x[first], y[first], color="black", zorder=3, label="first result")
    good = later & result.significant
    bad = later & ~result.significant
    ax.scatter(x[good], y[good], color="tab:green", zorder=3, label="likely significant")
    ax.scatter(x[bad], y[bad], color="tab:red", marker="x", zorder=3, label="not significant")

    ax.margins(x=0.04, y=0.08)
    ax.set_xlabel("date of publication")
    ax.set_ylabel("score" + (" (lower is better)" if result.direction == "lower" else ""))
    ax.legend(loc="best", fontsize="small", frameon=False)
    if title is None:
        source = (
            f"binomial \N{GREEK SMALL LETTER SIGMA}, n = {result.test_size}"
            if result.test_size is not None
            else f"\N{GREEK SMALL LETTER SIGMA} = {result.sigma[0]:.4g}"
        )
        title = (
            "Published improvements compared to benchmark variance (Bouthillier et al., Fig. 3)\n"
            f"{source}, \N{GREEK SMALL LETTER ALPHA} = {result.alpha:g}; "
            f"{result.significant_increments} of {result.compared} increments significant"
        )
    ax.set_title(title, fontsize="medium")
    return ax
