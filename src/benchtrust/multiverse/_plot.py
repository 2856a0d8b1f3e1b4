"""Figures of Nießl et al. (2022): Fig. 2, the rank distribution of the methods over all combinations of
options (§4.1); Fig. 3, the step-wise optimisation of each method's rank (§4.1); and Fig. 4, the unfolding
solution coloured by the options of each choice (§4.2).

Nießl, C., Herrmann, M., Wiedemann, C., Casalicchio, G. & Boulesteix, A.-L. (2022). Over-optimism in
benchmark studies and the multiplicity of design and analysis options when interpreting their results.
WIREs Data Mining and Knowledge Discovery 12(2), e1441.
"""

from __future__ import annotations

import math

import numpy as np

from benchtrust._figures import image_format, new_figure, write_figure
from benchtrust._io import InputError

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

_STEPS_COLUMNS = ("method", "step", "choice", "option", "rank", "changed")


def _finite_matrix(values, name, *, columns=None):
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


def _names(values, name, count, what):
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


def plot_rank_distribution(ranks, methods, path, *, title=None):
    """Draw the distribution of each method's rank over the combinations, as in the paper's Fig. 2.

    One panel per method, in the order of their mean rank (best first): a bar chart of the share of
    combinations (percent) giving the method each rank value that occurs (average ranks of ties, such as
    12.5, get their own bars). All panels share the x axis (ranks 1 to M) and the y scale; each panel's
    title is the method's name and the range of its ranks, best–worst.

    The figure is written with matplotlib's Agg renderer (no display needed, pyplot's global state is not
    touched) to a temporary file in the target folder, then renamed onto `path`. The format follows the
    file's suffix (``.png`` when it has none).

    Parameters
    ----------
    ranks : array_like
        C x M ranks of the M methods in C combinations (1 = best), each between 1 and M.
    methods : sequence of str
        The M method names, in the order of the columns of `ranks`.
    path : str or os.PathLike
        The image file to create or replace; its folder must exist.
    title : str, optional
        Figure title; default: the numbers of methods and combinations.

    Returns
    -------
    pathlib.Path
        `path`.

    Raises
    ------
    benchtrust.InputError
        If `ranks` is not a finite C x M array of ranks between 1 and M, `methods` does not have M names,
        the folder does not exist or cannot be written to, or the suffix is not an image format matplotlib
        writes.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from benchtrust.multiverse._plot import plot_rank_distribution
    >>> ranks = [[1, 2, 3], [1.5, 1.5, 3], [2, 1, 3], [1, 3, 2]]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = plot_rank_distribution(ranks, ["A", "B", "C"], pathlib.Path(folder, "fig2.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    fig2.png True
    ['fig2.png']
    """
    image_format(path)  # before drawing
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
    figure = new_figure((2.5 * columns + 0.4, 1.9 * rows + 0.8))
    axes = figure.subplots(rows, columns, sharex=True, sharey=True, squeeze=False).ravel()
    for ax, (j, values, share) in zip(axes, bars, strict=False):
        ax.bar(values, share, width=0.45, color="0.35")
        ax.set_title(f"{names[j]} ({values[0]:g}\N{EN DASH}{values[-1]:g})", fontsize="small")
        ax.grid(axis="y", color="0.9", linewidth=0.6)
        ax.set_axisbelow(True)
        ax.tick_params(labelsize="x-small")
    for ax in axes[M:]:
        ax.set_visible(False)
    for ax in axes[max(M - columns, 0) : M]:  # the bottom panel of each column shows its x labels
        ax.xaxis.set_tick_params(labelbottom=True)

    first = axes[0]
    first.set_xlim(0.5, M + 0.5)
    if M <= 15:
        first.set_xticks(range(1, M + 1))
    else:
        first.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=8))
    first.set_ylim(0, top * 1.08)
    figure.supxlabel("rank", fontsize="medium")
    figure.supylabel("share of combinations (%)", fontsize="medium")
    if title is None:
        title = (
            f"Rank distribution of {M} methods generated by {C} combinations of options "
            "(Nie\N{LATIN SMALL LETTER SHARP S}l et al., Fig. 2)"
        )
    figure.suptitle(title, fontsize="medium")
    return write_figure(figure, path)


def plot_stepwise(steps, rank_range, path, *, title=None):
    """Draw the step-wise optimisation of each method's rank, as in the paper's Fig. 3.

    One column per method, ordered by its rank with the default options (best first). A black dot marks
    that default rank; each step that changed the option of its choice is an arrow from the rank before
    the step to the rank after it, coloured by the choice (blue, pink, green, yellow, ... in the order of
    the steps); a step that changed the option without changing the rank is a coloured dot. A dotted
    segment spans the best and worst ranks the method gets over all combinations. The rank axis points
    down: rank 1 is at the top.

    The figure is written with matplotlib's Agg renderer to a temporary file in the target folder, then
    renamed onto `path`. The format follows the file's suffix (``.png`` when it has none).

    Parameters
    ----------
    steps : pandas.DataFrame
        One row per method and step, with columns ``method``, ``step`` (0 for the default options, then
        1..K in the order of the optimisation), ``choice`` (the choice optimised in the step; ignored for
        step 0), ``option`` (the option selected), ``rank`` (the method's rank after the step) and
        ``changed`` (whether the step changed the option). Each method has exactly one step 0.
    rank_range : dict
        Method name → (best, worst) rank over all combinations; needed for every method in `steps`.
    path : str or os.PathLike
        The image file to create or replace; its folder must exist.
    title : str, optional
        Figure title; default: the order of the choices.

    Returns
    -------
    pathlib.Path
        `path`.

    Raises
    ------
    benchtrust.InputError
        If `steps` lacks a column, has non-finite ranks or not exactly one step 0 per method, `rank_range`
        lacks a method of `steps` or is not a pair of numbers, the folder does not exist or cannot be
        written to, or the suffix is not an image format matplotlib writes.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import pandas as pd
    >>> from benchtrust.multiverse._plot import plot_stepwise
    >>> steps = pd.DataFrame({
    ...     "method": ["A", "A", "A", "B", "B", "B"],
    ...     "step": [0, 1, 2, 0, 1, 2],
    ...     "choice": [None, "imputation", "measure", None, "imputation", "measure"],
    ...     "option": ["mean", "median", "cindex", "mean", "mean", "ibrier"],
    ...     "rank": [3, 2, 1, 1, 1, 1],
    ...     "changed": [False, True, True, False, False, False],
    ... })
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = plot_stepwise(steps, {"A": (1, 3), "B": (1, 2)}, pathlib.Path(folder, "fig3.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    fig3.png True
    ['fig3.png']
    """
    import pandas as pd

    image_format(path)  # before drawing
    if not isinstance(steps, pd.DataFrame):
        raise InputError(f"steps must be a pandas DataFrame, got {type(steps).__name__}")
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

    figure = new_figure((max(6.0, 0.55 * len(methods) + 3.0), 5.0))
    ax = figure.add_subplot()
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
    return write_figure(figure, path)


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


def plot_unfolding(row_points, column_points, methods, combinations, defaults, path, *, title=None):
    """Draw an unfolding solution once per choice, coloured by the choice's options, as in the paper's Fig. 4.

    One panel per choice (column of `combinations`). In each, the ideal points of the combinations are
    circles coloured by their option of the choice (the default option grey, the others from a
    qualitative palette, with a legend); thin grey lines connect each ideal point with the default option
    to the ideal points that differ from it only in this choice (same options of every other choice); the
    methods are black triangles labelled with their names. All panels have the same, equal-aspect axes.

    The figure is written with matplotlib's Agg renderer to a temporary file in the target folder, then
    renamed onto `path`. The format follows the file's suffix (``.png`` when it has none).

    Parameters
    ----------
    row_points : array_like
        C x 2 ideal points of the combinations (for instance ``Unfolding.row_points``).
    column_points : array_like
        M x 2 points of the methods (for instance ``Unfolding.column_points``).
    methods : sequence of str
        The M method names, in the order of `column_points`.
    combinations : pandas.DataFrame
        C rows, in the order of `row_points`, and one column per choice holding each combination's option
        (compared as strings).
    defaults : dict
        Choice → its default option; needed for every column of `combinations`.
    path : str or os.PathLike
        The image file to create or replace; its folder must exist.
    title : str, optional
        Figure title; default: the numbers of combinations and methods.

    Returns
    -------
    pathlib.Path
        `path`.

    Raises
    ------
    benchtrust.InputError
        If the points are not finite C x 2 and M x 2 arrays, `methods` does not have M names,
        `combinations` does not have C rows and at least one column, `defaults` does not name an option
        that occurs for each choice (or names a choice that is not a column), the folder does not exist or
        cannot be written to, or the suffix is not an image format matplotlib writes.

    Examples
    --------
    >>> import itertools, pathlib, tempfile
    >>> import numpy as np, pandas as pd
    >>> from benchtrust.multiverse._plot import plot_unfolding
    >>> combos = pd.DataFrame(list(itertools.product(["ibrier", "cindex"], ["mean", "median", "rank"])),
    ...                       columns=["measure", "aggregation"])
    >>> rng = np.random.default_rng(0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = plot_unfolding(rng.normal(size=(6, 2)), rng.normal(size=(3, 2)), ["A", "B", "C"],
    ...                              combos, {"measure": "ibrier", "aggregation": "mean"},
    ...                              pathlib.Path(folder, "fig4.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    fig4.png True
    ['fig4.png']
    """
    import pandas as pd

    image_format(path)  # before drawing
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

    points = np.vstack([X, Y])
    low, high = points.min(axis=0), points.max(axis=0)
    centre, half = (low + high) / 2, max(float((high - low).max()) / 2, 1e-9) * 1.08
    size = 22.0 if C <= 500 else max(3.0, 22.0 * math.sqrt(500 / C))

    rows, columns = _panel_grid(len(choices), 2)
    figure = new_figure((6.4 * columns, 5.0 * rows + 0.5))
    axes = figure.subplots(rows, columns, squeeze=False).ravel()
    for ax, (k, choice, default, values, alternatives) in zip(axes, panels, strict=False):
        first, second = _default_pairs(options, k, default)
        if first.size:
            segments = np.stack([X[first], X[second]], axis=1)
            ax.add_collection(LineCollection(segments, colors="0.6", linewidths=0.5, zorder=1))
        if len(alternatives) <= len(_OPTION_COLORS):
            palette = _OPTION_COLORS
        else:
            palette = [colormaps["turbo"](t) for t in np.linspace(0.05, 0.95, len(alternatives))]
        styles = [(default, _DEFAULT_COLOR, f"{default} (default)")]
        styles += [(level, palette[i], level) for i, level in enumerate(alternatives)]
        for level, color, label in styles:
            mask = values == level
            ax.scatter(
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
        ax.scatter(Y[:, 0], Y[:, 1], s=40, marker="^", color="black", zorder=4)
        for name, (x, y) in zip(names, Y, strict=True):
            ax.annotate(name, (x, y), xytext=(3, 3), textcoords="offset points", fontsize="x-small", zorder=5)
        ax.set_xlim(centre[0] - half, centre[0] + half)
        ax.set_ylim(centre[1] - half, centre[1] + half)
        ax.set_aspect("equal", adjustable="box")
        ax.set_title(str(choice), fontsize="medium")
        ax.tick_params(labelsize="x-small")
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            fontsize="x-small",
            frameon=False,
            title=str(choice),
            title_fontsize="x-small",
            markerscale=max(1.0, 22.0 / size),
        )
    for ax in axes[len(choices) :]:
        ax.set_visible(False)
    if title is None:
        title = (
            f"Unfolding of the rankings of {C} combinations of options (circles) regarding {M} methods "
            "(triangles)\n"
            "(Nie\N{LATIN SMALL LETTER SHARP S}l et al., Fig. 4)"
        )
    figure.suptitle(title, fontsize="medium")
    return write_figure(figure, path)


def plot_subsample(row_points, column_points, methods, nrdatasets, path, *, title=None):
    """Draw an unfolding of the rankings on subsamples of the data sets, as in the paper's Fig. 6 / Fig. S3.

    The ideal points of the rankings are circles coloured by the number of data sets each ranking uses (a
    sequential colour map, with a colour bar), those with the most data sets (all of them) ringed in black
    and drawn last; the methods are black triangles labelled with their names; the axes have equal aspect.
    Nießl et al. (2022), §4.3: the fewer the data sets, the more the rankings scatter.

    The figure is written with matplotlib's Agg renderer to a temporary file in the target folder, then
    renamed onto `path`. The format follows the file's suffix (``.png`` when it has none).

    Parameters
    ----------
    row_points : array_like
        K x 2 ideal points of the rankings (for instance ``Unfolding.row_points`` of
        ``unfold(Subsample.ranks)``).
    column_points : array_like
        M x 2 points of the methods.
    methods : sequence of str
        The M method names, in the order of `column_points`.
    nrdatasets : array_like
        K numbers: how many data sets each ranking uses (``Subsample.table["nrdatasets"]``).
    path : str or os.PathLike
        The image file to create or replace; its folder must exist.
    title : str, optional
        Figure title; default: the numbers of rankings and methods.

    Returns
    -------
    pathlib.Path
        `path`.

    Raises
    ------
    benchtrust.InputError
        If the points are not finite K x 2 and M x 2 arrays, `methods` does not have M names,
        `nrdatasets` is not K finite numbers, the folder does not exist or cannot be written to, or the
        suffix is not an image format matplotlib writes.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import numpy as np
    >>> from benchtrust.multiverse._plot import plot_subsample
    >>> rng = np.random.default_rng(0)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = plot_subsample(rng.normal(size=(20, 2)), rng.normal(size=(3, 2)), ["A", "B", "C"],
    ...                              rng.integers(1, 6, size=20), pathlib.Path(folder, "fig6.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    fig6.png True
    ['fig6.png']
    """
    image_format(path)  # before drawing
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

    points = np.vstack([X, Y])
    low, high = points.min(axis=0), points.max(axis=0)
    centre, half = (low + high) / 2, max(float((high - low).max()) / 2, 1e-9) * 1.08
    size = 22.0 if K <= 500 else max(3.0, 22.0 * math.sqrt(500 / K))
    norm = Normalize(float(sizes.min()), float(max(sizes.max(), sizes.min() + 1)))
    order = np.argsort(sizes, kind="stable")  # the rankings with more data sets on top

    figure = new_figure((7.6, 6.2))
    ax = figure.subplots()
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
    ax.scatter(Y[:, 0], Y[:, 1], s=40, marker="^", color="black", zorder=4)
    for name, (x, y) in zip(names, Y, strict=True):
        ax.annotate(name, (x, y), xytext=(3, 3), textcoords="offset points", fontsize="x-small", zorder=5)
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_aspect("equal", adjustable="box")
    ax.tick_params(labelsize="x-small")
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
    return write_figure(figure, path)


def plot_default_distances(table, path, *, title=None):
    """Draw the distances between ideal points of default and alternative options as box plots, as in the
    paper's Fig. 5.

    One panel per choice, in the order of `table`, with one box per alternative option of the choice,
    labelled "default – alternative"; each box summarises the distances between the ideal points of the
    combinations with that alternative option and of their partners with the default option and the same
    options of every other choice (Nießl et al. 2022, §4.2, Fig. 5; the grey lines of Fig. 4). Panel widths
    follow their numbers of boxes and all panels share the distance axis. Boxes span the quartiles, with
    the median marked; whiskers reach the most extreme distances within 1.5 times the interquartile range
    of the box, and distances beyond are drawn as points (Tukey's box plot, as the paper's ggplot2 draws).

    The figure is written with matplotlib's Agg renderer to a temporary file in the target folder, then
    renamed onto `path`. The format follows the file's suffix (``.png`` when it has none).

    Parameters
    ----------
    table : pandas.DataFrame
        One row per pair, with columns ``choice``, ``option`` (the alternative option) and ``distance``,
        and optionally ``default`` (the choice's default option, for the labels): the table of
        :func:`benchtrust.multiverse._fit.default_distances`.
    path : str or os.PathLike
        The image file to create or replace; its folder must exist.
    title : str, optional
        Figure title; default: the paper's caption in short.

    Returns
    -------
    pathlib.Path
        `path`.

    Raises
    ------
    benchtrust.InputError
        If `table` is not a DataFrame with those columns and at least one row, a distance is negative,
        NaN or infinite, the folder does not exist or cannot be written to, or the suffix is not an image
        format matplotlib writes.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import pandas as pd
    >>> from benchtrust.multiverse._plot import plot_default_distances
    >>> table = pd.DataFrame({"choice": ["measure"] * 3 + ["aggregation"] * 4,
    ...                       "default": ["ibrier"] * 3 + ["mean"] * 4,
    ...                       "option": ["cindex"] * 3 + ["median", "median", "rank", "rank"],
    ...                       "distance": [0.9, 1.1, 1.0, 0.3, 0.1, 0.0, 0.05]})
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = plot_default_distances(table, pathlib.Path(folder, "fig5.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    fig5.png True
    ['fig5.png']
    """
    import pandas as pd

    from benchtrust.multiverse._fit import check_distance_table

    image_format(path)  # before drawing
    check_distance_table(table)
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
    figure = new_figure((max(5.0, 0.75 * sum(widths) + 1.5), 4.6))
    axes = figure.subplots(1, len(panels), sharey=True, squeeze=False, width_ratios=widths)[0]
    for ax, (choice, default, boxes) in zip(axes, panels, strict=True):
        labels = [option if default is None else f"{default} \N{EN DASH} {option}" for option, _ in boxes]
        ax.boxplot(
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
        ax.set_title(str(choice), fontsize="medium")
        ax.tick_params(axis="x", labelrotation=30, labelsize="small")
        for label in ax.get_xticklabels():
            label.set_horizontalalignment("right")
        ax.grid(axis="y", color="0.92", linewidth=0.6)
        ax.set_axisbelow(True)
    axes[0].set_ylim(bottom=0)
    axes[0].set_ylabel("distance between ideal points")
    figure.supxlabel("default option \N{EN DASH} alternative option", fontsize="medium")
    if title is None:
        title = (
            "Distances between ideal points of default and alternative options of one choice, the other "
            "choices unchanged\n(Nie\N{LATIN SMALL LETTER SHARP S}l et al., Fig. 5)"
        )
    figure.suptitle(title, fontsize="medium")
    return write_figure(figure, path)
