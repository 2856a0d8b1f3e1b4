"""Figures of the rankings of Nießl et al. (2022): Fig. 2, the rank distribution of the methods over all
combinations of options (§4.1), and Fig. 3, the step-wise optimisation of each method's rank (§4.1). The
maps drawn from an unfolding (Fig. 4-6) are in :mod:`benchtrust.multiverse._maps`.

Nießl, C., Herrmann, M., Wiedemann, C., Casalicchio, G. & Boulesteix, A.-L. (2022). Over-optimism in
benchmark studies and the multiplicity of design and analysis options when interpreting their results.
WIREs Data Mining and Knowledge Discovery 12(2), e1441.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._figures import axes_for
from benchtrust._io import InputError
from benchtrust.multiverse._data import read_frame

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

    from benchtrust.multiverse import UnfoldingResult

#: Fig. 3 colours of the optimisation steps, in the order of the choices: blue, pink, green, yellow as in
#: the paper, then further distinct colours for more choices.
_STEP_COLORS = (
    "#1f77b4",
    "#e377c2",
    "#2ca02c",
    "#dbb40c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#17becf",
    "#d62728",
    "#bcbd22",
)

_STEPS_COLUMNS = ("method", "step", "choice", "option", "rank", "changed")


def _finite_matrix(values: object, name: str, *, columns: int | None = None) -> np.ndarray:
    """``values`` as a finite 2-D float array (with ``columns`` columns if given); InputError otherwise."""
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as error:
        raise InputError(f"{name} must be an array of numbers: {error}") from None
    if array.ndim != 2:
        raise InputError(f"{name} must be a 2-D array, got {array.ndim} dimension(s)")
    if columns is not None and array.shape[1] != columns:
        raise InputError(f"{name} must have {columns} columns, got shape {array.shape}")
    if array.size == 0:
        raise InputError(f"{name} is empty (shape {array.shape})")
    if not np.isfinite(array).all():
        raise InputError(f"{name} contains NaN or infinite values")
    return array


def _names(values: Sequence[object], name: str, count: int, what: str) -> list[str]:
    """``values`` as a list of ``count`` strings; InputError naming ``name`` otherwise."""
    if isinstance(values, str):
        raise InputError(f"{name} must be a sequence of {count} names, got a single string")
    names = [str(value) for value in values]
    if len(names) != count:
        raise InputError(f"{name} has {len(names)} names but there are {count} {what}")
    return names


def _panel_grid(count, columns):
    columns = max(1, min(count, columns))
    return math.ceil(count / columns), columns


def _panels(ax, rows, columns, *, share=(), width_ratios=None):
    """A grid of `rows` x `columns` panels in the place of `ax`, which becomes the first (top left) one.

    The other panels are new Axes of ``ax.figure``; ``share`` names the axes ("x", "y") they share with the
    first, whose inner tick labels are then hidden, as ``Figure.subplots`` does.
    """
    spec = ax.get_subplotspec()
    if spec is None:
        raise InputError(
            "ax: expected an Axes in a grid of subplots (from Figure.add_subplot or subplots), to divide "
            "into panels"
        )
    grid = spec.subgridspec(rows, columns, width_ratios=width_ratios)
    ax.set_subplotspec(grid[0, 0])
    panels = [ax]
    for k in range(1, rows * columns):
        panels.append(
            ax.figure.add_subplot(
                grid[k // columns, k % columns],
                sharex=ax if "x" in share else None,
                sharey=ax if "y" in share else None,
            )
        )
    if share:
        for panel in panels:
            panel.label_outer()
    return np.array(panels)


def plot_rank_distribution(
    ranks: ArrayLike, methods: Sequence[str], *, ax: Axes | None = None, title: str | None = None
) -> Axes:
    """Draw the distribution of each method's rank over the combinations, as in the paper's Fig. 2.

    One panel per method, in the order of their mean rank (best first): a bar chart of the share of
    combinations (percent) giving the method each rank value that occurs (average ranks of ties, such as
    12.5, get their own bars). All panels share the x axis (ranks 1 to M) and the y scale; each panel's
    title is the method's name and the range of its ranks, best–worst. The panels take the place of `ax`
    (the first method's panel is `ax` itself); the axis labels and the title are the figure's.

    Drawn without a display (matplotlib's Agg renderer; pyplot's global state is not touched); nothing is
    written: save the figure with :func:`benchtrust.save_figure`.

    Parameters
    ----------
    ranks : array_like
        C x M ranks of the M methods in C combinations (1 = best), each between 1 and M.
    methods : sequence of str
        The M method names, in the order of the columns of `ranks`.
    ax : matplotlib.axes.Axes, optional
        The subplot to divide into the panels; default: a new figure's, of a size that fits the panels.
    title : str, optional
        Figure title; default: the numbers of methods and combinations.

    Returns
    -------
    matplotlib.axes.Axes
        The first panel (`ax`, if given).

    Raises
    ------
    benchtrust.InputError
        If `ranks` is not a finite C x M array of ranks between 1 and M, or `methods` does not have M names.

    See Also
    --------
    rank_distribution : Each method's best and worst rank and its share of combinations at each rank.
    RankDistributionResult : Each method's ranks over all combinations.
    plot_stepwise : Draw the step-wise optimisation (Fig. 3).

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.1, Fig. 2 (the
       rank distribution of the methods over all combinations).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from benchtrust import save_figure
    >>> from benchtrust.multiverse import plot_rank_distribution
    >>> ranks = [[1, 2, 3], [1.5, 1.5, 3], [2, 1, 3], [1, 3, 2]]
    >>> ax = plot_rank_distribution(ranks, ["A", "B", "C"])
    >>> ax.get_title()
    'A (1–2)'
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = save_figure(ax, pathlib.Path(folder, "fig2.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    fig2.png True
    """
    ranks = _finite_matrix(ranks, "ranks")
    C, M = ranks.shape
    names = _names(methods, "methods", M, f"columns in ranks (shape {ranks.shape})")
    if ranks.min() < 1 or ranks.max() > M:
        raise InputError(
            f"ranks must lie between 1 and the number of methods ({M}); "
            f"got values from {ranks.min():g} to {ranks.max():g}"
        )

    from matplotlib.ticker import MaxNLocator

    ranks = np.round(ranks, 6)  # average ranks computed in floating point: 12.499999999 is 12.5
    order = np.argsort(ranks.mean(axis=0), kind="stable")
    bars = []
    for j in order:
        values, counts = np.unique(ranks[:, j], return_counts=True)
        bars.append((j, values, 100.0 * counts / C))
    top = max(float(share.max()) for _, _, share in bars)

    rows, columns = _panel_grid(M, 5 if M > 12 else 4)
    ax = axes_for(ax, (2.5 * columns + 0.4, 1.9 * rows + 0.8))
    figure = ax.figure
    axes = _panels(ax, rows, columns, share=("x", "y"))
    for panel, (j, values, share) in zip(axes, bars, strict=False):
        panel.bar(values, share, width=0.45, color="0.35")
        panel.set_title(f"{names[j]} ({values[0]:g}\N{EN DASH}{values[-1]:g})", fontsize="small")
        panel.grid(axis="y", color="0.9", linewidth=0.6)
        panel.set_axisbelow(True)
        panel.tick_params(labelsize="x-small")
    for panel in axes[M:]:
        panel.set_visible(False)
    for panel in axes[max(M - columns, 0) : M]:  # the bottom panel of each column shows its x labels
        panel.xaxis.set_tick_params(labelbottom=True)

    ax.set_xlim(0.5, M + 0.5)
    if M <= 15:
        ax.set_xticks(range(1, M + 1))
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=8))
    ax.set_ylim(0, top * 1.08)
    figure.supxlabel("rank", fontsize="medium")
    figure.supylabel("share of combinations (%)", fontsize="medium")
    if title is None:
        title = (
            f"Rank distribution of {M} methods generated by {C} combinations of options "
            "(Nie\N{LATIN SMALL LETTER SHARP S}l et al., Fig. 2)"
        )
    figure.suptitle(title, fontsize="medium")
    return ax


def plot_stepwise(
    steps: pd.DataFrame | str | os.PathLike[str],
    rank_range: Mapping[str, Sequence[float]],
    *,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Draw the step-wise optimisation of each method's rank, as in the paper's Fig. 3.

    One column per method, ordered by its rank with the default options (best first). A black dot marks
    that default rank; each step that changed the option of its choice is an arrow from the rank before
    the step to the rank after it, coloured by the choice (blue, pink, green, yellow, ... in the order of
    the steps); a step that changed the option without changing the rank is a coloured dot. A dotted
    segment spans the best and worst ranks the method gets over all combinations. The rank axis points
    down: rank 1 is at the top.

    Drawn without a display; nothing is written: save the figure with :func:`benchtrust.save_figure`.

    Parameters
    ----------
    steps : pandas.DataFrame, str or os.PathLike
        The steps of :func:`~benchtrust.multiverse.stepwise` (``StepwiseResult.steps``), or their CSV file
        (``stepwise.csv``): one row per method and step, with columns ``method``, ``step`` (0 for the
        default options, then 1..K in the order of the optimisation), ``choice`` (the choice optimised in
        the step; ignored for step 0), ``option`` (the option selected), ``rank`` (the method's rank after
        the step) and ``changed`` (whether the step changed the option). Each method has exactly one step
        0.
    rank_range : dict
        Method name → (best, worst) rank over all combinations; needed for every method in `steps`.
    ax : matplotlib.axes.Axes, optional
        Where to draw; default: a new figure's Axes, of a width that fits the methods.
    title : str, optional
        The title of the Axes; default: the order of the choices.

    Returns
    -------
    matplotlib.axes.Axes
        `ax`, or the new figure's Axes.

    Raises
    ------
    benchtrust.InputError
        If `steps` lacks a column, has non-finite ranks or not exactly one step 0 per method, or
        `rank_range` lacks a method of `steps` or is not a pair of numbers.

    See Also
    --------
    stepwise : Optimise each method's rank one choice at a time.
    StepwiseResult : The step-wise optimisation of each method's rank.
    plot_rank_distribution : Draw the rank distribution (Fig. 2).

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.1, Fig. 3
       (step-wise optimisation from the default options); supplement, Fig. S1-S2 (another default measure,
       another order).

    Examples
    --------
    >>> import pandas as pd
    >>> from benchtrust.multiverse import plot_stepwise
    >>> steps = pd.DataFrame({
    ...     "method": ["A", "A", "A", "B", "B", "B"],
    ...     "step": [0, 1, 2, 0, 1, 2],
    ...     "choice": [None, "imputation", "measure", None, "imputation", "measure"],
    ...     "option": ["mean", "median", "cindex", "mean", "mean", "ibrier"],
    ...     "rank": [3, 2, 1, 1, 1, 1],
    ...     "changed": [False, True, True, False, False, False],
    ... })
    >>> ax = plot_stepwise(steps, {"A": (1, 3), "B": (1, 2)})
    >>> [label.get_text() for label in ax.get_xticklabels()]
    ['B', 'A']
    """
    import pandas as pd

    steps = read_frame(
        steps,
        what="a table of optimisation steps",
        example=",".join(_STEPS_COLUMNS),
        numbers=("step", "rank"),
        flags=("changed",),
    )
    if not isinstance(steps, pd.DataFrame):
        raise InputError(
            f"steps must be a pandas DataFrame or a path to its CSV file, got {type(steps).__name__}"
        )
    missing = [column for column in _STEPS_COLUMNS if column not in steps.columns]
    if missing:
        raise InputError(
            f"steps lacks the column(s) {', '.join(missing)}; it needs {', '.join(_STEPS_COLUMNS)}"
        )
    if steps.empty:
        raise InputError("steps has no rows")
    table = steps.loc[:, list(_STEPS_COLUMNS)].copy()
    try:
        table["step"] = pd.to_numeric(table["step"]).astype(int)
        table["rank"] = pd.to_numeric(table["rank"]).astype(float)
    except (TypeError, ValueError) as error:
        raise InputError(f"steps: 'step' and 'rank' must be numbers: {error}") from None
    if not np.isfinite(table["rank"].to_numpy()).all():
        raise InputError("steps: 'rank' contains NaN or infinite values")
    table["changed"] = table["changed"].fillna(False).astype(bool)
    table = table.sort_values(["method", "step"], kind="stable")

    defaults = table[table["step"] == 0]
    methods = list(dict.fromkeys(table["method"]))
    per_method = defaults["method"].value_counts()
    wrong = [m for m in methods if per_method.get(m, 0) != 1]
    if wrong:
        raise InputError(
            f"steps must have exactly one step 0 (default options) per method; not so for "
            f"{', '.join(map(str, wrong[:5]))}{' ...' if len(wrong) > 5 else ''}"
        )
    ranges = {}
    for method in methods:
        if method not in rank_range:
            raise InputError(f"rank_range has no (best, worst) ranks for the method {method!r}")
        try:
            best, worst = (float(value) for value in rank_range[method])
        except (TypeError, ValueError):
            raise InputError(
                f"rank_range[{method!r}] must be a pair of numbers (best, worst), got {rank_range[method]!r}"
            ) from None
        ranges[method] = (min(best, worst), max(best, worst))

    default_rank = defaults.set_index("method")["rank"]
    methods.sort(key=lambda m: default_rank[m])  # stable: ties keep their order of appearance
    later = table[table["step"] > 0]
    if later["choice"].isna().any():
        raise InputError("steps: every step after 0 needs its 'choice'")
    choice_order = later.groupby("choice", sort=False)["step"].min().sort_values(kind="stable")
    colors = {choice: _STEP_COLORS[k % len(_STEP_COLORS)] for k, choice in enumerate(choice_order.index)}

    from matplotlib.lines import Line2D
    from matplotlib.ticker import MaxNLocator, MultipleLocator

    ax = axes_for(ax, (max(6.0, 0.55 * len(methods) + 3.0), 5.0))
    lowest = max(max(worst for _, worst in ranges.values()), float(table["rank"].max()))
    for x, method in enumerate(methods):
        best, worst = ranges[method]
        ax.plot([x, x], [best, worst], color="0.3", linestyle=":", linewidth=1.2, zorder=1)
        previous = float(default_rank[method])
        ax.plot([x], [previous], "o", color="black", markersize=6, zorder=4)
        for row in later[later["method"] == method].itertuples(index=False):
            rank = float(row.rank)
            if row.changed:
                color = colors[row.choice]
                if rank != previous:
                    ax.annotate(
                        "",
                        xy=(x, rank),
                        xytext=(x, previous),
                        arrowprops={
                            "arrowstyle": "-|>",
                            "color": color,
                            "linewidth": 2.2,
                            "mutation_scale": 14,
                            "shrinkA": 0,
                            "shrinkB": 0,
                        },
                        zorder=3,
                    )
                else:
                    ax.plot([x], [rank], "o", color=color, markersize=4, zorder=5)
            previous = rank

    ax.set_xticks(range(len(methods)))
    ax.set_xticklabels([str(m) for m in methods], rotation=45, ha="right", fontsize="small")
    ax.set_xlim(-0.6, len(methods) - 0.4)
    ax.set_ylim(math.ceil(lowest) + 0.5, 0.5)  # inverted: rank 1 at the top
    if lowest <= 25:
        ax.yaxis.set_major_locator(MultipleLocator(1))
    else:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.grid(axis="y", color="0.92", linewidth=0.6)
    ax.set_axisbelow(True)
    ax.set_ylabel("rank")

    handles = [Line2D([], [], marker="o", color="black", linestyle="none", label="default options")]
    handles += [
        Line2D([], [], color=color, linewidth=2.2, label=f"({k}) {choice}")
        for k, (choice, color) in enumerate(colors.items(), start=1)
    ]
    handles.append(Line2D([], [], color="0.3", linestyle=":", label="best\N{EN DASH}worst possible rank"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", frameon=False)
    if title is None:
        order = ", ".join(f"({k}) {choice}" for k, choice in enumerate(colors, start=1)) or "no steps"
        title = (
            "Step-wise optimisation of method ranks (Nie\N{LATIN SMALL LETTER SHARP S}l et al., Fig. 3)\n"
            + order
        )
    ax.set_title(title, fontsize="medium")
    return ax


def _marker_size(count):
    """The area of the circles of `count` ideal points: smaller when there are many."""
    return 22.0 if count <= 500 else max(3.0, 22.0 * math.sqrt(500 / count))


def _square(X, Y):
    """(centre, half width) of the square that holds every point, with a margin."""
    points = np.vstack([X, Y])
    low, high = points.min(axis=0), points.max(axis=0)
    return (low + high) / 2, max(float((high - low).max()) / 2, 1e-9) * 1.08


def _draw_columns(ax, Y, names, square):
    """The column points as black triangles labelled with `names`, on equal-aspect axes of the `square`."""
    ax.scatter(Y[:, 0], Y[:, 1], s=40, marker="^", color="black", zorder=4)
    for name, (x, y) in zip(names, Y, strict=True):
        ax.annotate(name, (x, y), xytext=(3, 3), textcoords="offset points", fontsize="x-small", zorder=5)
    centre, half = square
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_aspect("equal", adjustable="box")
    ax.tick_params(labelsize="x-small")


def plot_unfolding_map(result: UnfoldingResult, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw any fitted unfolding: the row points (ideal points) as circles, the column points as triangles.

    The map of :func:`unfold` on any table of ranks or preferences: a row lies close to the columns it
    ranks first (Busing, Groenen & Heiser 2005; Nießl et al. 2022, §3.2). The circles are labelled with
    the rows' labels when there are at most 30 rows and the result has labels (a DataFrame's index); the
    triangles with the columns' labels (else their 1-based positions). The first two dimensions are drawn
    (a one-dimensional fit along the x axis), on equal-aspect axes. A degenerate fit (some column points
    coincide, :meth:`UnfoldingResult.coincident_columns`) says so in the title.

    Drawn without a display; nothing is written: save the figure with :func:`benchtrust.save_figure`.

    Parameters
    ----------
    result : UnfoldingResult
        The fit to draw.
    ax : matplotlib.axes.Axes, optional
        Where to draw the map; default: a new figure's Axes.
    title : str, optional
        Axes title; default: the numbers of rows and columns, the stress and whether the fit is degenerate.

    Returns
    -------
    matplotlib.axes.Axes
        The map's Axes (`ax`, if given).

    Raises
    ------
    benchtrust.InputError
        If `result` is not an :class:`UnfoldingResult`.

    See Also
    --------
    unfold : Non-metric unfolding by penalised stress.
    UnfoldingResult : A fitted unfolding: points, disparities, stress.
    plot_unfolding : Draw an unfolding coloured by the options of each choice (Fig. 4).
    plot_subsample : Draw an unfolding of the rankings on subsamples (Fig. 6, Fig. S3).

    References
    ----------
    .. [1] F. M. T. A. Busing, P. J. F. Groenen and W. J. Heiser, "Avoiding degeneracy in multidimensional
       unfolding by penalizing on the coefficient of variation", Psychometrika 70(1), 71-98, 2005.
       doi:10.1007/s11336-001-0908-1. The unfolding drawn (its joint plot of rows and columns).
    .. [2] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3.2 (how an
       unfolding map of rankings is read).

    Examples
    --------
    >>> from benchtrust.multiverse import plot_unfolding_map, unfold
    >>> ax = plot_unfolding_map(unfold([[1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 1, 2], [4, 3, 2, 1]]))
    >>> [text.get_text() for text in ax.texts]
    ['1', '2', '3', '4']
    """
    if not all(hasattr(result, name) for name in ("row_points", "column_points", "coincident_columns")):
        raise InputError(f"result: expected an UnfoldingResult (from unfold), got {type(result).__name__}")
    X, Y = (
        np.column_stack([points[:, 0], points[:, 1:2].sum(axis=1)])
        for points in (result.row_points, result.column_points)
    )  # the first two dimensions; one on the x axis
    n, m = len(X), len(Y)
    columns = result.column_labels or [str(k + 1) for k in range(m)]
    ax = axes_for(ax, (6.4, 5.6))
    ax.scatter(
        X[:, 0],
        X[:, 1],
        s=_marker_size(n),
        marker="o",
        color="#1f77b4",
        edgecolors="white",
        linewidths=0.3,
        alpha=0.9,
        zorder=2,
    )
    if result.row_labels is not None and n <= 30:
        for name, (x, y) in zip(result.row_labels, X, strict=True):
            ax.annotate(
                name,
                (x, y),
                xytext=(3, -8),
                textcoords="offset points",
                fontsize="xx-small",
                color="#1f77b4",
                zorder=3,
            )
    _draw_columns(ax, Y, columns, _square(X, Y))
    if title is None:
        fit = f"stress {result.stress:.4f}" + ("" if result.converged else ", not converged")
        if result.degenerate:
            fit += f"; degenerate: {result.coincident_columns()} column points coincide"
        title = f"Unfolding of {n} rows (circles) and {m} columns (triangles)\n({fit})"
    ax.set_title(title, fontsize="medium")
    return ax
