"""Figures of the paper: Fig. 1, the best of m accuracies against one classifier's (§3.4), and Fig. 7a,
a leaderboard's scores with its state-of-the-art estimates (§5.1.1)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from benchtrust._figures import axes_for
from benchtrust.sota._text import better_words, score_name

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from benchtrust.sota import BestOfResult, LeaderboardResult

#: Probability left out of the drawn range at each end of each distribution.
_DRAWN_TAIL = 1e-6

#: Fig. 7: at most this many histogram bars over the drawn range of scores (fewer for few teams).
_LEADERBOARD_BARS = 80
#: Fig. 7: scores below this quantile are left out of the drawn range, unless near the estimates ...
_ZOOM_QUANTILE = 0.1
#: ... and so are scores more than this many times the spread of the estimates below the lowest of them.
_ZOOM_SPREADS = 3.0


def plot_best_of(result: BestOfResult, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw the distribution of the best accuracy over that of one classifier, as in the paper's Fig. 1.

    The paper's Fig. 1 (§3.4) shows the pmf of one classifier's observed accuracy θ̂ = (n - X) / n,
    X ~ B(n, 1 - θ), and marks E(θ̂_max) and the multiplicity-adjusted upper limit θ^m_{1-α/2} of the best
    of m such classifiers. This figure draws, on one accuracy axis:

    * the pmf of one classifier with the largest accuracy θ (``result.top_score``) on the n test items
      (grey), over the range holding all but 1e-6 of its probability at each end;
    * the pmf of the best observed accuracy among the m classifiers (``result.score``, ``result.pmf``;
      blue), over the same kind of range;
    * vertical lines at E(θ̂_max) (``result.expected_max``) and at both ends of the central (1 - α)
      interval (``result.ci``).

    Nothing is written: save the figure with :func:`benchtrust.save_figure`. Without `ax`, the figure is a
    new one of 8 x 5 inches, drawn with matplotlib's Agg renderer (no display needed, pyplot's global
    state is not touched).

    Parameters
    ----------
    result : BestOfResult
        From :func:`benchtrust.sota.best_of` or :func:`benchtrust.sota.simulate_best_of`.
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; default: those of a new figure.
    title : str, optional
        The title; default: m, n, θ (or the largest θ_j), ρ and θ0 when dependent, and the model.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.

    See Also
    --------
    best_of : The exact distribution of the best of m accuracies, to draw.
    simulate_best_of : The same by Monte Carlo.
    BestOfResult : The result drawn.
    plot_leaderboard : The figure of a leaderboard's estimates (Fig. 7a).
    benchtrust.save_figure : Write the figure to a file.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §3.4, Fig. 1 (the pmf of one
       classifier, E(θ̂_max) and θ^m_{1-α/2}); the pmf of the best of m is that of Fig. 3 (Eq. (3)).

    Examples
    --------
    The example of §3.4 (m = 1000, n = 3000, θ = 0.9), saved as a PNG file:

    >>> import pathlib, tempfile
    >>> from benchtrust import save_figure
    >>> from benchtrust.sota import best_of, plot_best_of
    >>> ax = plot_best_of(best_of(0.9, classifiers=1000, test_size=3000))
    >>> ax.get_xlabel(), [round(x, 4) for x in ax.lines[0].get_xdata()]
    ('accuracy', [0.9173, 0.9173])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = save_figure(ax, pathlib.Path(folder, "fig1.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    fig1.png True
    """
    import numpy as np
    from scipy import stats

    ax = axes_for(ax, (8, 5))
    n, theta = result.test_size, result.top_score

    # One classifier: correct count K ~ B(n, θ), accuracy K / n.
    k_low = int(stats.binom.ppf(_DRAWN_TAIL, n, theta))
    k_high = int(stats.binom.isf(_DRAWN_TAIL, n, theta)) + 1
    k = np.arange(max(k_low, 0), min(k_high, n) + 1)
    _bars(
        ax,
        k / n,
        stats.binom.pmf(k, n, theta),
        n,
        color="0.55",
        alpha=0.6,
        label=f"one classifier, θ = {theta:.4g}",
    )

    # The best of m, over the part of its window holding all but _DRAWN_TAIL at each end.
    below = result.cdf - result.pmf  # P(best < a)
    shown = (result.cdf >= _DRAWN_TAIL) & (below <= 1.0 - _DRAWN_TAIL)
    if not shown.any():
        shown = result.pmf > 0
    _bars(
        ax,
        result.score[shown],
        result.pmf[shown],
        n,
        color="tab:blue",
        alpha=0.6,
        label=f"best of m = {result.classifiers}",
    )

    level = f"{100 * (1 - result.alpha):g}%"
    low, high = result.ci
    ax.axvline(
        result.expected_max, color="black", linestyle="--", label=f"E(best) = {result.expected_max:.4f}"
    )
    interval = f"{level} central interval of best: [{low:.4f}, {high:.4f}]"
    ax.axvline(low, color="tab:red", linestyle=":", label=interval)
    ax.axvline(high, color="tab:red", linestyle=":")

    ax.set_xlabel("accuracy")
    ax.set_ylabel("probability")
    ax.set_ylim(bottom=0)
    ax.legend(loc="best", fontsize="small", frameon=False)
    ax.set_title(title if title is not None else _default_title(result), fontsize="medium")
    return ax


def plot_leaderboard(result: LeaderboardResult, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw a leaderboard's scores with its state-of-the-art estimates, as in the paper's Fig. 7a.

    The paper's Fig. 7a (§5.1.1, Multi-Class Prediction of Obesity Risk) is the histogram of the teams'
    observed accuracies θ̂_j, zoomed in on the best teams, with the interval of θ̂_max that ignores
    multiplicity as a red line; Table 3 lists the estimates of the state of the art. This figure draws,
    on one score axis:

    * the histogram of the teams' scores (``result.scores``; number of teams per bar), zoomed in on the
      upper part: from the 10 % quantile of the scores (but at most three times the spread of the
      marked values below the lowest of them, and at least a little below it) to a little above the
      highest marked value. The title says how many of the teams are drawn;
    * the observed maximum θ̂_max (solid black) and its (1 - α) interval ignoring multiplicity
      (``result.naive_ci``, shaded red), with the number of teams inside it;
    * the plug-in expected best score E(θ̂_max) when the scores are taken as the true ones (dotted);
    * the cropped SOTA estimate s, the observed score whose E_s(θ̂_max) is nearest θ̂_max (dashed blue),
      and the conservative one, the highest whose upper interval limit is at most θ̂_max (dash-dotted
      purple), each with the number of teams above it.

    Nothing is written: save the figure with :func:`benchtrust.save_figure`. Without `ax`, the figure is a
    new one of 9 x 6.5 inches, drawn with matplotlib's Agg renderer (no display needed, pyplot's global
    state is not touched).

    Parameters
    ----------
    result : LeaderboardResult
        From :func:`benchtrust.sota.leaderboard` (accuracy or AUC).
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; default: those of a new figure.
    title : str, optional
        The title; default: teams drawn of all, n (and n+ for AUC), ρ, α and the figure's source.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on.

    See Also
    --------
    leaderboard : The estimates to draw.
    LeaderboardResult : The result drawn.
    SotaEstimate : Each marked estimate.
    plot_best_of : The figure of the best of m classifiers (Fig. 1).
    benchtrust.save_figure : Write the figure to a file.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5.1.1, Fig. 7a (the
       competition observations and the interval of θ̂_max ignoring multiplicity) and Table 3 (the
       estimates marked).
    .. [2] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
       case of the binomial", Biometrika 26(4), 404-413, 1934. doi:10.1093/biomet/26.4.404. The interval
       ignoring multiplicity drawn for accuracy.

    Examples
    --------
    Twenty teams on a test set of 500 items, drawn beside each other with and without dependence:

    >>> from matplotlib.figure import Figure
    >>> from benchtrust.sota import leaderboard, plot_leaderboard
    >>> scores = [0.862, 0.858, 0.856, 0.854, 0.85, 0.85, 0.848, 0.846, 0.844, 0.84,
    ...           0.838, 0.836, 0.83, 0.828, 0.82, 0.81, 0.8, 0.79, 0.75, 0.7]
    >>> figure = Figure(figsize=(18, 6.5), layout="constrained")
    >>> left, right = figure.subplots(1, 2)
    >>> independent = leaderboard(scores, test_size=500, direction="higher", correlation=0)
    >>> ax = plot_leaderboard(independent, ax=left)
    >>> ax is left, ax.get_xlabel()
    (True, 'accuracy on the hidden test set (one per team)')
    >>> dependent = leaderboard(scores, test_size=500, direction="higher", resamples=0)
    >>> ax = plot_leaderboard(dependent, ax=right, title="ρ = 0.6")
    >>> ax.get_title()
    'ρ = 0.6'
    """
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    ax = axes_for(ax, (9, 6.5))

    edges = _leaderboard_bins(result)
    counts, _ = np.histogram(result.scores, bins=edges)
    width = edges[1] - edges[0]
    _bars(ax, edges[:-1] + width / 2, counts, 1.0 / width, color="0.6", label="teams' observed scores")

    level = f"{100 * (1 - result.alpha):g}%"
    above = better_words(result)["above"]
    top = result.observed_max
    best = "observed min" if result.direction == "lower" else "observed max"
    low, high = result.naive_ci
    ax.axvspan(
        low,
        high,
        color="tab:red",
        alpha=0.15,
        linewidth=0,
        zorder=0,
        label=f"{level} interval of the best ignoring multiplicity: [{low:.4f}, {high:.4f}] "
        f"({_teams(result.teams_in_naive_ci)} inside)",
    )
    ax.axvline(top, color="black", label=f"{best} = {top:.4f} ({_teams(result.teams_at_max)})")
    plugin = result.plugin
    ax.axvline(
        plugin.expected_max,
        color="0.3",
        linestyle=":",
        label=f"plug-in E(best) = {plugin.expected_max:.4f}, "
        f"{level} [{plugin.ci[0]:.4f}, {plugin.ci[1]:.4f}] (scores taken as true)",
    )
    cropped, conservative = result.cropped, result.conservative
    ax.axvline(
        cropped.sota,
        color="tab:blue",
        linestyle="--",
        label=f"cropped SOTA = {cropped.sota:.4f} (E(best) nearest the {best}; "
        f"{_teams(cropped.teams_above)} {above})",
    )
    ax.axvline(
        conservative.sota,
        color="tab:purple",
        linestyle="-.",
        label=f"conservative SOTA = {conservative.sota:.4f} "
        f"({'lower' if result.direction == 'lower' else 'upper'} {level} limit "
        f"{'>=' if result.direction == 'lower' else '<='} {best}; "
        f"{_teams(conservative.teams_above)} {above})",
    )

    ax.set_xlim(edges[0], edges[-1])
    ax.set_xlabel(_score_label(result))
    ax.set_ylabel("teams")
    ax.set_ylim(bottom=0)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), fontsize="small", frameon=False)
    ax.set_title(title if title is not None else _leaderboard_title(result, counts.sum()), fontsize="medium")
    return ax


def _bars(ax, accuracy, pmf, n, **style):
    """A histogram with one bar of width 1/n centred on each accuracy (drawn as a single outline)."""
    import numpy as np

    edges = np.concatenate([accuracy - 0.5 / n, [accuracy[-1] + 0.5 / n]])
    ax.stairs(pmf, edges, fill=True, **style)


def _default_title(result):
    """m, n, θ, the dependence parameters and the model, in the paper's symbols."""
    identical = "non-identical" not in result.model
    parts = [f"m = {result.classifiers}", f"n = {result.test_size}"]
    parts.append(f"θ = {result.top_score:.4g}" if identical else f"max θ = {result.top_score:.4g}")
    if result.correlation > 0:
        parts.append(f"\N{GREEK SMALL LETTER RHO} = {result.correlation:g}")
        parts.append(f"θ0 = {result.reference_accuracy:.4g}")
    first = "Best accuracy of m classifiers vs. one classifier (Møllersen & Holsbø, Fig. 1)"
    return f"{first}\n{', '.join(parts)}\n{result.model} ({result.method})"


def _score_lattice(result):
    """The step 1/n (accuracy) or 1/(n+ n-) (AUC) between possible scores."""
    if result.metric == "auc":
        return 1.0 / (result.positives * (result.test_size - result.positives))
    return 1.0 / result.test_size


def _leaderboard_bins(result):
    """Edges of the histogram bars of Fig. 7: equal widths, a whole number of lattice steps each.

    The spread is the range of the marked values (observed maximum, naive interval, plug-in E, both crop
    values). The drawn range starts at the 10 % quantile of the scores, but no lower than
    ``_ZOOM_SPREADS`` spreads below the lowest marked value and no higher than a quarter spread below
    it, and ends an eighth of a spread above the highest. About 2 sqrt(m) bars (10 to 80); each edge
    lies half a lattice step off the lattice, so that no score sits on an edge. For a lower-is-better
    board all of this is done on 1 - score and the edges mirrored: the figure zooms on the best teams.
    """
    import numpy as np

    step = _score_lattice(result)
    gain = result._gain
    estimates = [
        gain(result.observed_max),
        *map(gain, result.naive_ci),
        gain(result.plugin.expected_max),
        gain(result.cropped.sota),
        gain(result.conservative.sota),
    ]
    low, high = min(estimates), max(estimates)
    spread = max(high - low, 10 * step)
    start = min(
        max(float(np.quantile(gain(result.scores), _ZOOM_QUANTILE)), low - _ZOOM_SPREADS * spread),
        low - spread / 4,
    )
    stop = high + spread / 8
    bars = min(_LEADERBOARD_BARS, max(10, int(2 * np.sqrt(result.scores.size))))
    steps_per_bar = max(1, int(np.ceil((stop - start) / step / bars)))
    width = steps_per_bar * step
    first = np.floor(start / step) * step - step / 2
    bars = int(np.ceil((stop - first) / width))
    return np.sort(gain(first + width * np.arange(bars + 1)))


def _score_label(result):
    """The x axis of Fig. 7."""
    return f"{score_name(result)} on the hidden test set (one per team)"


def _teams(count):
    return f"{count} team{'s' * (count != 1)}"


def _leaderboard_title(result, shown):
    """Teams drawn, n (n+), ρ and α, and the figure's source."""
    first = "Leaderboard and state-of-the-art estimates (Møllersen & Holsbø, Fig. 7a, Table 3)"
    parts = [f"{shown} of {result.teams} teams shown", f"n = {result.test_size}"]
    if result.metric == "auc":
        parts.append(f"n+ = {result.positives}")
    else:
        parts.append(f"\N{GREEK SMALL LETTER RHO} = {result.correlation:g}")
    parts.append(f"\N{GREEK SMALL LETTER ALPHA} = {result.alpha:g}")
    return f"{first}\n{', '.join(parts)}"
