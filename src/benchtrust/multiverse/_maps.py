"""The maps of Nießl et al. (2022) drawn from an unfolding: Fig. 4, the solution coloured by the options of
each choice (§4.2); Fig. 5, the distances between the ideal points of default and alternative options as
box plots (§4.2); and Fig. 6 / Fig. S3, the unfolding of the rankings on subsamples of the data sets (§4.2).

Nießl, C., Herrmann, M., Wiedemann, C., Casalicchio, G. & Boulesteix, A.-L. (2022). Over-optimism in
benchmark studies and the multiplicity of design and analysis options when interpreting their results.
WIREs Data Mining and Knowledge Discovery 12(2), e1441.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._figures import axes_for
from benchtrust._io import InputError
from benchtrust.multiverse._plot import (
    _draw_columns,
    _finite_matrix,
    _marker_size,
    _names,
    _panel_grid,
    _panels,
    _square,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

#: Fig. 4 colours of the alternative options (the default option is grey): tab10 without its grey, then
#: the lighter tab20 shades.
_OPTION_COLORS = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#bcbd22",
    "#17becf",
    "#aec7e8",
    "#ffbb78",
    "#98df8a",
    "#ff9896",
    "#c5b0d5",
    "#c49c94",
    "#f7b6d2",
    "#dbdb8d",
    "#9edae5",
)
_DEFAULT_COLOR = "0.55"


def _default_pairs(options, position, default):
    """Row pairs (default, alternative) of ``options`` that differ only in column ``position``.

    ``options`` is a DataFrame of strings with columns 0..K-1 (the choices); returns two integer arrays of
    row positions: rows with the default option of the choice and rows with another option of it but the
    same options of every other choice.
    """
    others = [column for column in options.columns if column != position and column != "row"]
    is_default = (options[position] == default).to_numpy()
    left = options.loc[is_default, [*others, "row"]]
    right = options.loc[~is_default, [*others, "row"]]
    if others:
        pairs = left.merge(right, on=others, suffixes=("_default", "_other"))
    else:
        pairs = left.merge(right, how="cross", suffixes=("_default", "_other"))
    return pairs["row_default"].to_numpy(dtype=int), pairs["row_other"].to_numpy(dtype=int)


def plot_unfolding(
    row_points: ArrayLike,
    column_points: ArrayLike,
    methods: Sequence[str],
    combinations: pd.DataFrame,
    defaults: Mapping[str, object],
    *,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Draw an unfolding solution once per choice, coloured by the choice's options, as in the paper's Fig. 4.

    One panel per choice (column of `combinations`). In each, the ideal points of the combinations are
    circles coloured by their option of the choice (the default option grey, the others from a
    qualitative palette, with a legend); thin grey lines connect each ideal point with the default option
    to the ideal points that differ from it only in this choice (same options of every other choice); the
    methods are black triangles labelled with their names. All panels have the same, equal-aspect axes.
    The panels take the place of `ax` (the first choice's panel is `ax` itself); the title is the
    figure's.

    Drawn without a display; nothing is written: save the figure with :func:`benchtrust.save_figure`.

    Parameters
    ----------
    row_points : array_like
        C x 2 ideal points of the combinations (for instance ``UnfoldingResult.row_points``).
    column_points : array_like
        M x 2 points of the methods (for instance ``UnfoldingResult.column_points``).
    methods : sequence of str
        The M method names, in the order of `column_points`.
    combinations : pandas.DataFrame
        C rows, in the order of `row_points`, and one column per choice holding each combination's option
        (compared as strings).
    defaults : dict
        Choice → its default option; needed for every column of `combinations`.
    ax : matplotlib.axes.Axes, optional
        The subplot to divide into the panels; default: a new figure's, of a size that fits the panels.
    title : str, optional
        Figure title; default: the numbers of combinations and methods.

    Returns
    -------
    matplotlib.axes.Axes
        The first choice's panel (`ax`, if given).

    Raises
    ------
    benchtrust.InputError
        If the points are not finite C x 2 and M x 2 arrays, `methods` does not have M names,
        `combinations` does not have C rows and at least one column, or `defaults` does not name an option
        that occurs for each choice (or names a choice that is not a column).

    See Also
    --------
    unfold : Non-metric unfolding by penalised stress.
    UnfoldingResult : A fitted unfolding: points, disparities, stress.
    default_distances : How far one alternative option moves an ideal point.
    plot_default_distances : Draw those distances as box plots (Fig. 5).
    plot_subsample : Draw an unfolding of the rankings on subsamples (Fig. 6, Fig. S3).

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2, Fig. 4 (the
       unfolding coloured by the options of each choice).
    .. [2] F. M. T. A. Busing, P. J. F. Groenen and W. J. Heiser, "Avoiding degeneracy in multidimensional
       unfolding by penalizing on the coefficient of variation", Psychometrika 70(1), 71-98, 2005.
       doi:10.1007/s11336-001-0908-1. The unfolding drawn.

    Examples
    --------
    >>> import itertools
    >>> import numpy as np, pandas as pd
    >>> from benchtrust.multiverse import plot_unfolding
    >>> combos = pd.DataFrame(list(itertools.product(["ibrier", "cindex"], ["mean", "median", "rank"])),
    ...                       columns=["measure", "aggregation"])
    >>> rng = np.random.default_rng(0)
    >>> ax = plot_unfolding(rng.normal(size=(6, 2)), rng.normal(size=(3, 2)), ["A", "B", "C"], combos,
    ...                     {"measure": "ibrier", "aggregation": "mean"})
    >>> [panel.get_title() for panel in ax.figure.axes]
    ['measure', 'aggregation']
    """
    import pandas as pd

    X = _finite_matrix(row_points, "row_points", columns=2)
    Y = _finite_matrix(column_points, "column_points", columns=2)
    C, M = X.shape[0], Y.shape[0]
    names = _names(methods, "methods", M, f"column_points (shape {Y.shape})")
    if not isinstance(combinations, pd.DataFrame):
        raise InputError(f"combinations must be a pandas DataFrame, got {type(combinations).__name__}")
    if len(combinations) != C:
        raise InputError(f"combinations has {len(combinations)} rows but row_points has {C} ideal points")
    if combinations.shape[1] == 0:
        raise InputError("combinations has no columns (choices)")
    choices = list(combinations.columns)
    if not isinstance(defaults, dict):
        raise InputError(f"defaults must be a dict choice -> default option, got {type(defaults).__name__}")
    unknown = [choice for choice in defaults if choice not in choices]
    if unknown:
        raise InputError(f"defaults names choice(s) that are not columns of combinations: {unknown!r}")

    # Positional column names, so that choice names cannot clash with the helper column "row".
    options = pd.DataFrame(
        {k: combinations[choice].astype(str).to_numpy() for k, choice in enumerate(choices)}
    )
    options["row"] = np.arange(C)
    panels = []
    for k, choice in enumerate(choices):
        if choice not in defaults:
            raise InputError(f"defaults has no default option for the choice {choice!r}")
        default = str(defaults[choice])
        values = options[k].to_numpy()
        levels = list(dict.fromkeys(values))  # order of first appearance
        if default not in levels:
            raise InputError(
                f"defaults[{choice!r}] = {default!r} is not an option of {choice!r} in combinations "
                f"(options: {', '.join(levels[:10])}{' ...' if len(levels) > 10 else ''})"
            )
        alternatives = [level for level in levels if level != default]
        panels.append((k, choice, default, values, alternatives))

    from matplotlib import colormaps
    from matplotlib.collections import LineCollection

    square, size = _square(X, Y), _marker_size(C)

    rows, columns = _panel_grid(len(choices), 2)
    ax = axes_for(ax, (6.4 * columns, 5.0 * rows + 0.5))
    axes = _panels(ax, rows, columns)
    for panel, (k, choice, default, values, alternatives) in zip(axes, panels, strict=False):
        first, second = _default_pairs(options, k, default)
        if first.size:
            segments = list(np.stack([X[first], X[second]], axis=1))  # one line per pair: its two ends
            panel.add_collection(LineCollection(segments, colors="0.6", linewidths=0.5, zorder=1))
        palette: Sequence[str | tuple[float, ...]]
        if len(alternatives) <= len(_OPTION_COLORS):
            palette = _OPTION_COLORS
        else:
            palette = [colormaps["turbo"](t) for t in np.linspace(0.05, 0.95, len(alternatives))]
        styles: list[tuple[str, str | tuple[float, ...], str]] = [
            (default, _DEFAULT_COLOR, f"{default} (default)")
        ]
        styles += [(level, palette[i], level) for i, level in enumerate(alternatives)]
        for level, color, label in styles:
            mask = values == level
            panel.scatter(
                X[mask, 0],
                X[mask, 1],
                s=size,
                marker="o",
                color=color,
                edgecolors="white",
                linewidths=0.3,
                alpha=0.9,
                zorder=2,
                label=label,
            )
        _draw_columns(panel, Y, names, square)
        panel.set_title(str(choice), fontsize="medium")
        panel.legend(
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            fontsize="x-small",
            frameon=False,
            title=str(choice),
            title_fontsize="x-small",
            markerscale=max(1.0, 22.0 / size),
        )
    for panel in axes[len(choices) :]:
        panel.set_visible(False)
    if title is None:
        title = (
            f"Unfolding of the rankings of {C} combinations of options (circles) regarding {M} methods "
            "(triangles)\n"
            "(Nie\N{LATIN SMALL LETTER SHARP S}l et al., Fig. 4)"
        )
    ax.figure.suptitle(title, fontsize="medium")
    return ax


def plot_subsample(
    row_points: ArrayLike,
    column_points: ArrayLike,
    methods: Sequence[str],
    nrdatasets: ArrayLike,
    *,
    ax: Axes | None = None,
    title: str | None = None,
) -> Axes:
    """Draw an unfolding of the rankings on subsamples of the data sets, as in the paper's Fig. 6 / Fig. S3.

    The ideal points of the rankings are circles coloured by the number of data sets each ranking uses (a
    sequential colour map, with a colour bar), those with the most data sets (all of them) ringed in black
    and drawn last; the methods are black triangles labelled with their names; the axes have equal aspect.
    Nießl et al. (2022), §4.2: the fewer the data sets, the more the rankings scatter. The colour bar is
    drawn beside `ax`, on its figure; the title is the figure's.

    Drawn without a display; nothing is written: save the figure with :func:`benchtrust.save_figure`.

    Parameters
    ----------
    row_points : array_like
        K x 2 ideal points of the rankings (for instance ``UnfoldingResult.row_points`` of
        ``unfold(SubsampleResult.ranks)``).
    column_points : array_like
        M x 2 points of the methods.
    methods : sequence of str
        The M method names, in the order of `column_points`.
    nrdatasets : array_like
        K numbers: how many data sets each ranking uses (``SubsampleResult.table["nrdatasets"]``).
    ax : matplotlib.axes.Axes, optional
        Where to draw the map; default: a new figure's Axes.
    title : str, optional
        Figure title; default: the numbers of rankings and methods.

    Returns
    -------
    matplotlib.axes.Axes
        The map's Axes (`ax`, if given).

    Raises
    ------
    benchtrust.InputError
        If the points are not finite K x 2 and M x 2 arrays, `methods` does not have M names, or
        `nrdatasets` is not K finite numbers.

    See Also
    --------
    subsample : Rank the methods on the first data sets of orders of the data sets.
    SubsampleResult : The distinct rankings on subsamples of the data sets.
    unfold : Non-metric unfolding by penalised stress.
    plot_unfolding : Draw an unfolding coloured by the options of each choice (Fig. 4).

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2, Fig. 6 (774
       rankings on subsamples of the data sets, ibrier); supplement, Fig. S3 (the same with the cindex).

    Examples
    --------
    >>> import numpy as np
    >>> from benchtrust.multiverse import plot_subsample
    >>> rng = np.random.default_rng(0)
    >>> ax = plot_subsample(rng.normal(size=(20, 2)), rng.normal(size=(3, 2)), ["A", "B", "C"],
    ...                     rng.integers(1, 6, size=20))
    >>> [text.get_text() for text in ax.texts]
    ['A', 'B', 'C']
    """
    X = _finite_matrix(row_points, "row_points", columns=2)
    Y = _finite_matrix(column_points, "column_points", columns=2)
    K, M = X.shape[0], Y.shape[0]
    names = _names(methods, "methods", M, f"column_points (shape {Y.shape})")
    try:
        sizes = np.asarray(nrdatasets, dtype=float)
    except (TypeError, ValueError) as error:
        raise InputError(f"nrdatasets must be numbers: {error}") from None
    if sizes.shape != (K,):
        raise InputError(
            f"nrdatasets must hold {K} numbers, one per row of row_points, got shape {sizes.shape}"
        )
    if not np.isfinite(sizes).all():
        raise InputError("nrdatasets contains NaN or infinite values")

    from matplotlib.colors import Normalize
    from matplotlib.ticker import MaxNLocator

    size = _marker_size(K)
    norm = Normalize(float(sizes.min()), float(max(sizes.max(), sizes.min() + 1)))
    order = np.argsort(sizes, kind="stable")  # the rankings with more data sets on top

    ax = axes_for(ax, (7.6, 6.2))
    figure = ax.figure
    drawn = ax.scatter(
        X[order, 0],
        X[order, 1],
        c=sizes[order],
        cmap="viridis",
        norm=norm,
        s=size,
        marker="o",
        edgecolors="white",
        linewidths=0.3,
        alpha=0.9,
        zorder=2,
    )
    full = sizes == sizes.max()
    ax.scatter(
        X[full, 0],
        X[full, 1],
        c=sizes[full],
        cmap="viridis",
        norm=norm,
        s=size * 3,
        marker="o",
        edgecolors="black",
        linewidths=1.2,
        zorder=3,
        label=f"{sizes.max():g} data sets",
    )
    _draw_columns(ax, Y, names, _square(X, Y))
    ax.legend(loc="best", fontsize="x-small", frameon=False)
    bar = figure.colorbar(drawn, ax=ax, shrink=0.85)
    bar.set_label("number of data sets", fontsize="small")
    bar.ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    bar.ax.tick_params(labelsize="x-small")
    if title is None:
        title = (
            f"Unfolding of {K} rankings on subsamples of the data sets (circles) regarding {M} methods "
            "(triangles)\n"
            "(Nie\N{LATIN SMALL LETTER SHARP S}l et al., Fig. 6)"
        )
    figure.suptitle(title, fontsize="medium")
    return ax


def plot_default_distances(
    table: pd.DataFrame | str | os.PathLike[str], *, ax: Axes | None = None, title: str | None = None
) -> Axes:
    """Draw the distances between ideal points of default and alternative options as box plots, as in the
    paper's Fig. 5.

    One panel per choice, in the order of `table`, with one box per alternative option of the choice,
    labelled "default – alternative"; each box summarises the distances between the ideal points of the
    combinations with that alternative option and of their partners with the default option and the same
    options of every other choice (Nießl et al. 2022, §4.2, Fig. 5; the grey lines of Fig. 4). Panel widths
    follow their numbers of boxes and all panels share the distance axis. Boxes span the quartiles, with
    the median marked; whiskers reach the most extreme distances within 1.5 times the interquartile range
    of the box, and distances beyond are drawn as points (Tukey's box plot, as the paper's ggplot2 draws).
    The panels take the place of `ax` (the first choice's panel is `ax` itself); the x label and the title
    are the figure's.

    Drawn without a display; nothing is written: save the figure with :func:`benchtrust.save_figure`.

    Parameters
    ----------
    table : pandas.DataFrame, str or os.PathLike
        One row per pair, with columns ``choice``, ``option`` (the alternative option) and ``distance``,
        and optionally ``default`` (the choice's default option, for the labels): the table of
        :func:`benchtrust.multiverse.default_distances`, or its CSV file (``default_distances.csv``).
    ax : matplotlib.axes.Axes, optional
        The subplot to divide into the panels; default: a new figure's, of a width that fits the boxes.
    title : str, optional
        Figure title; default: the paper's caption in short.

    Returns
    -------
    matplotlib.axes.Axes
        The first choice's panel (`ax`, if given).

    Raises
    ------
    benchtrust.InputError
        If `table` is not a table with those columns and at least one row, or a distance is negative,
        NaN or infinite (naming the file, line and column of a file's bad cell).

    See Also
    --------
    default_distances : How far one alternative option moves an ideal point.
    default_distance_summary : Count, quartiles and range of those distances.
    plot_unfolding : Draw an unfolding coloured by the options of each choice (Fig. 4).

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2, Fig. 5 (the
       distances between ideal points of default and alternative options).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import pandas as pd
    >>> from benchtrust import save_figure
    >>> from benchtrust.multiverse import plot_default_distances
    >>> table = pd.DataFrame({"choice": ["measure"] * 3 + ["aggregation"] * 4,
    ...                       "default": ["ibrier"] * 3 + ["mean"] * 4,
    ...                       "option": ["cindex"] * 3 + ["median", "median", "rank", "rank"],
    ...                       "distance": [0.9, 1.1, 1.0, 0.3, 0.1, 0.0, 0.05]})
    >>> ax = plot_default_distances(table)
    >>> [panel.get_title() for panel in ax.figure.axes]
    ['measure', 'aggregation']
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = save_figure(ax, pathlib.Path(folder, "fig5.svg"))
    ...     print(written.name, b"<svg" in written.read_bytes())
    fig5.svg True
    """
    import pandas as pd

    from benchtrust.multiverse._fit import distance_table

    table = distance_table(table)
    if table.empty:
        raise InputError("table has no rows")
    distances = _finite_matrix(
        pd.to_numeric(table["distance"], errors="coerce").to_numpy()[:, None], "table['distance']"
    )[:, 0]
    if (distances < 0).any():
        raise InputError(f"table['distance'] must be non-negative, got {distances.min():g}")

    choices = list(dict.fromkeys(table["choice"].astype(str)))
    panels = []
    for choice in choices:
        rows = (table["choice"].astype(str) == choice).to_numpy()
        options = table["option"].astype(str).to_numpy()[rows]
        default = None
        if "default" in table.columns:
            default = str(table.loc[rows, "default"].iloc[0])
        boxes = [(option, distances[rows][options == option]) for option in dict.fromkeys(options)]
        panels.append((choice, default, boxes))

    widths = [len(boxes) + 0.6 for _, _, boxes in panels]
    ax = axes_for(ax, (max(5.0, 0.75 * sum(widths) + 1.5), 4.6))
    figure = ax.figure
    axes = _panels(ax, 1, len(panels), share=("y",), width_ratios=widths)
    for panel, (choice, default, boxes) in zip(axes, panels, strict=True):
        labels = [option if default is None else f"{default} \N{EN DASH} {option}" for option, _ in boxes]
        panel.boxplot(
            [values for _, values in boxes],
            tick_labels=labels,
            whis=1.5,
            widths=0.6,
            medianprops={"color": "black", "linewidth": 1.4},
            boxprops={"color": "0.2"},
            whiskerprops={"color": "0.2"},
            capprops={"color": "0.2"},
            flierprops={"marker": "o", "markersize": 3, "markerfacecolor": "0.2", "markeredgecolor": "none"},
        )
        panel.set_title(str(choice), fontsize="medium")
        panel.tick_params(axis="x", labelrotation=30, labelsize="small")
        for label in panel.get_xticklabels():
            label.set_horizontalalignment("right")
        panel.grid(axis="y", color="0.92", linewidth=0.6)
        panel.set_axisbelow(True)
    ax.set_ylim(bottom=0)
    ax.set_ylabel("distance between ideal points")
    figure.supxlabel("default option \N{EN DASH} alternative option", fontsize="medium")
    if title is None:
        title = (
            "Distances between ideal points of default and alternative options of one choice, the other "
            "choices unchanged\n(Nie\N{LATIN SMALL LETTER SHARP S}l et al., Fig. 5)"
        )
    figure.suptitle(title, fontsize="medium")
    return ax
