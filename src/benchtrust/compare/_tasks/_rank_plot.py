"""The critical-difference diagram of Demšar (2006), §3.2.2, Fig. 1 and 2: average ranks on one axis, the
critical difference (CD) above it, and thick bars joining the methods a post-hoc test does not tell apart.

One layout (:func:`_layout`: every line, bar and text, in inches) and two renderers: matplotlib
(:func:`plot_critical_difference`, for files and further drawing) and a small SVG writer
(:func:`critical_difference_svg`, for the report: no matplotlib, a fraction of a millisecond)."""

from __future__ import annotations

import dataclasses
import html
import re
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._io import InputError

if TYPE_CHECKING:
    from matplotlib.axes import Axes

    from benchtrust.compare import RankResult

# Layout, in inches (the vertical unit of the diagram; the horizontal unit is one rank).
_WIDTH = 4.5  # of the axis of ranks, in a new figure
_ROW = 0.2  # between two methods' labels
_BAR = 0.09  # between two group bars
_CHAR = 0.085  # estimated width of one character of a label, at the default font size
_BOLD = 1.15  # how much wider a bold label is
_GAP = 0.1  # between the end of an elbow and its label
_TOP = 0.6  # of the diagram above the axis of ranks: the ranks, and the CD bar
# Font sizes in points: matplotlib's "medium" and "small" at its default font.size of 10.
_MEDIUM = 10.0
_SMALL = 8.33
# Line widths in points.
_THIN = 0.8
_THICK = 3.5

_POINTS = 72.0  # per inch
# The baseline of a line of DejaVu Sans above a text's anchor (in ems), by vertical alignment, and how much
# of the extra height of several lines it lifts; lines 1.2 em apart (matplotlib's metrics).
_BASELINE = {"bottom": (0.24, 1.0), "center": (-0.26, 0.5)}
_LINE = 1.2
_ANCHOR = {"left": "start", "center": "middle", "right": "end"}
_FONT = "'DejaVu Sans', 'Bitstream Vera Sans', Verdana, sans-serif"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")  # characters XML 1.0 does not allow


@dataclasses.dataclass(frozen=True)
class _Text:
    """A text anchored at (x, y), aligned as matplotlib's ``ha`` and ``va``, of `size` points."""

    x: float
    y: float
    text: str
    ha: str
    va: str
    size: float
    weight: str = "normal"


@dataclasses.dataclass(frozen=True)
class _Layout:
    """The diagram in inches: x from the figure's left edge, y above the axis of ranks.

    The figure is `width` × `height`, its lower edge at y = `bottom`; the diagram spans y from `bottom` to
    `top`, the title (if any) is above it. Rank r is at x = ``one + (r - 1) * step``. `lines` are polylines
    drawn thin, `bars` the thick bars joining the groups, each a tuple of (x, y) points."""

    width: float
    height: float
    bottom: float
    top: float
    one: float
    step: float
    lines: tuple[tuple[tuple[float, float], ...], ...]
    bars: tuple[tuple[tuple[float, float], ...], ...]
    texts: tuple[_Text, ...]


def _sides(result, best_right):
    """The methods' indices on the left and on the right of the diagram, the outermost first."""
    screen = result.order[::-1] if best_right else result.order  # left to right on the diagram
    half = (len(screen) + 1) // 2
    return screen[:half], screen[half:][::-1]


def _label(result, i):
    return f"{result.methods[i]} ({result.average_ranks[i]:.2f})"


def _label_width(result, i):
    """The estimated width of method i's label, in inches."""
    bold = _BOLD if result.methods[i] == result.control else 1.0
    return _CHAR * bold * len(_label(result, i))


def _test_label(result):
    """What the bar above the axis stands for: ``CD = 0.830 (Nemenyi test, α = 0.05)``."""
    test = result.test_name + ("" if result.control is None else f" against {result.control}")
    alpha = f"\N{GREEK SMALL LETTER ALPHA} = {result.alpha:g}"
    if np.isnan(result.critical_difference):
        return f"{test}, {alpha}: no single critical difference"
    return f"CD = {result.critical_difference:.3f} ({test}, {alpha})"


def _title(result):
    """The default title: a warning when the Friedman test does not reject, else none."""
    if result.rejected:
        return None
    return f"Friedman test not significant (p = {result.iman_davenport_p_value:.3g}): bars not to be read"


def _check(result):
    # Checked by what the diagram reads, not by type: the result's own section draws it (no import cycle).
    if not all(hasattr(result, name) for name in ("average_ranks", "methods", "enough_data", "rejected")):
        raise InputError(f"result: expected a RankResult (from rank_test), got {type(result).__name__}")
    if not result.enough_data:
        raise InputError(
            "result: a critical-difference diagram needs at least two methods and two data sets, got "
            f"{len(result.methods)} and {len(result.tasks)}"
        )


def _axis(k, at):
    """The axis of ranks at y = 0 (`at` maps a rank to x): the integer ranks above it; its line and ticks
    at every half rank."""
    texts = [_Text(at(r), 0.09, str(r), "center", "bottom", _SMALL) for r in range(1, k + 1)]
    ticks = [((at(r), 0.0), (at(r), 0.07 if r % 1 == 0 else 0.04)) for r in np.arange(1.0, k + 0.5, 0.5)]
    return texts, [((at(1.0), 0.0), (at(float(k)), 0.0)), *ticks]


def _elbows(result, sides, first_row, at):
    """Each method's line from its average rank down to its row and out to its label; labels and lines."""
    texts, lines = [], []
    for methods, end, outward, align in sides:
        for row, i in enumerate(methods):
            y = first_row - _ROW * row
            x = at(float(result.average_ranks[i]))
            elbow = end + outward * 0.5 * _GAP
            lines.append(((x, 0.0), (x, y), (elbow, y)))
            weight = "bold" if result.methods[i] == result.control else "normal"
            texts.append(
                _Text(elbow + outward * 0.5 * _GAP, y, _label(result, i), align, "center", _MEDIUM, weight)
            )
    return texts, lines


def _cd_bar(result, start, per_rank):
    """The bar of length CD above the axis from its screen-left end `start` (none for Holm), followed by
    what it stands for (`per_rank` inches to a rank); its label and lines."""
    cd = result.critical_difference
    stop = start if np.isnan(cd) else start + cd * per_rank
    where = start if np.isnan(cd) else stop + 0.02 * len(result.methods) * per_rank
    text = _Text(where, 0.45, _test_label(result), "left", "center", _SMALL)
    if np.isnan(cd):
        return [text], []
    return [text], [
        ((start, 0.45), (stop, 0.45)),
        ((start, 0.41), (start, 0.49)),
        ((stop, 0.41), (stop, 0.49)),
    ]


def _group_bars(result, at):
    """The thick bars joining each group of methods not significantly different, one row each."""
    reach = 0.02 * (len(result.methods) - 1)  # a bar sticks out a little beyond its methods
    bars = []
    for row, group in enumerate(result.groups):
        ranks = result.average_ranks[[result.methods.index(name) for name in group]]
        y = -0.17 - _BAR * row
        bars.append(((at(float(ranks.min()) - reach), y), (at(float(ranks.max()) + reach), y)))
    return bars


def _layout(result, title=None, *, width=None):
    """Every line, bar and text of the diagram of `result`, in a figure `width` inches wide (default: the
    axis of ranks 4.5 inches plus the labels on either side) as tall as the methods, bars and title need.

    The axis of ranks spans the width less the widest label (and a gap) on either side, at least an inch;
    it runs to the right (rank 1 on the left) for lower-is-better scores, to the left for higher."""
    _check(result)
    k = len(result.methods)
    sign = -1.0 if result.direction == "higher" else 1.0  # ranks grow to the right (+1) or to the left (-1)
    left, right = _sides(result, sign < 0)
    margin = _GAP + max(_label_width(result, i) for i in range(k))  # inches beside the axis
    width = _WIDTH + 2 * margin if width is None else width
    length = max(width - 2 * margin, 1.0)  # of the axis
    step = sign * length / (k - 1)
    one = margin if sign > 0 else margin + length

    def at(rank):
        return one + (rank - 1.0) * step

    title = _title(result) if title is None else title
    first_row = -0.25 - _BAR * len(result.groups)
    bottom = first_row - _ROW * (len(left) - 1) - 0.2
    above = 0.05 if title is None else 0.15 + 0.2 * (title.count("\n") + 1)  # room for the title

    ranks, axis = _axis(k, at)
    sides = ((left, margin, -1.0, "right"), (right, margin + length, 1.0, "left"))
    labels, elbows = _elbows(result, sides, first_row, at)
    cd_label, cd_bar = _cd_bar(result, margin, abs(step))
    titles = [] if title is None else [_Text(width / 2, _TOP, title, "center", "bottom", _MEDIUM)]
    return _Layout(
        width=width,
        height=_TOP - bottom + above,
        bottom=bottom,
        top=_TOP,
        one=one,
        step=step,
        lines=tuple(axis + elbows + cd_bar),
        bars=tuple(_group_bars(result, at)),
        texts=tuple(ranks + labels + cd_label + titles),
    )


def _new_axes(size, height):
    """The Axes of a new figure of `size` inches, spanning its width and the bottom `height` of it (no
    layout engine, which would draw the figure twice: the diagram is placed by hand, to the inch)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size)
    FigureCanvasAgg(figure)
    return figure.add_axes((0.0, 0.0, 1.0, height))


def plot_critical_difference(result: RankResult, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw the critical-difference diagram of a rank test (Demšar 2006, §3.2.2, Fig. 1 and 2).

    The axis holds the average ranks 1 to k. It runs the way the scores do on a number line: with higher
    scores better, the best rank (1) is on the right; with lower scores better (errors, losses), on the
    left. Each method is named with its average rank at the end of a line from its place on the axis, half
    of them on each side. Above the axis, a bar of length CD (Nemenyi, Bonferroni-Dunn) shows how far apart
    two average ranks must be to differ significantly, labelled with its value, the test and α (for Holm's
    procedure, which has no single CD, the label alone). Below it, thick bars join the methods the post-hoc
    test does not tell apart (:attr:`RankResult.groups`): for Nemenyi, the largest runs of methods whose
    average ranks are less than CD apart; for Holm's procedure, those whose adjusted p-values all exceed
    α; against a control (shown in bold), the control and the methods not different from it. When the
    Friedman test does not reject, a title says the bars are not to be read.

    The same diagram, without matplotlib and much faster, as SVG text: :func:`critical_difference_svg`.

    Parameters
    ----------
    result : RankResult
        From :func:`rank_test`, with at least two methods and two data sets.
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on (its frame and ticks are turned off; its data coordinates are ranks across and,
        in a new figure, inches up from the axis of ranks); default: those of a new figure, 4.5 inches wide
        plus the labels, tall enough for the methods and bars (drawn without a display, pyplot's global
        state untouched).
    title : str, optional
        A title, written above the diagram (the last of ``ax.texts``); default: none, except the warning
        when the Friedman test does not reject.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Nothing is written: save the figure with :func:`benchtrust.save_figure`.

    See Also
    --------
    rank_test : The Friedman test and its post-hoc tests over data sets.
    RankResult : Average ranks, the Friedman test and a post-hoc test.
    critical_difference_svg : The critical-difference diagram as SVG text.

    References
    ----------
    .. [1] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.2, Fig. 1-2.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> from benchtrust.compare import rank_test
    >>> uci = bundled_task_scores("uci")
    >>> ax = plot_critical_difference(rank_test(uci))
    >>> for text in ax.texts[5:]:  # after the ranks 1 to 5 on the axis
    ...     print(text.get_text())
    nbc (3.69)
    j48 (3.25)
    j48gr (2.92)
    aode (2.44)
    hnb (2.70)
    CD = 0.830 (Nemenyi test, α = 0.05)
    >>> import pathlib, tempfile
    >>> from benchtrust import save_figure
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = save_figure(ax, pathlib.Path(folder, "cd.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    cd.png True
    """
    from matplotlib.collections import LineCollection
    from matplotlib.figure import Figure

    width = None
    if ax is not None:  # the Axes' width in inches; a subfigure's Axes are placed within the subfigure
        figure = ax.figure
        inches = figure.get_figwidth() if isinstance(figure, Figure) else figure.bbox.width / figure.dpi
        width = ax.get_position().width * inches
    layout = _layout(result, title, width=width)
    if ax is None:
        ax = _new_axes((layout.width, layout.height), (layout.top - layout.bottom) / layout.height)

    def rank(x):  # inches from the left edge -> the data coordinates, ranks
        return 1.0 + (x - layout.one) / layout.step

    ax.set_xlim(rank(0.0), rank(layout.width))
    ax.set_ylim(layout.bottom, layout.top)
    ax.set_axis_off()
    for text in layout.texts:
        ax.text(
            rank(text.x),
            text.y,
            text.text,
            ha=text.ha,
            va=text.va,
            fontsize=text.size,
            fontweight=text.weight,
        )
    for lines, linewidth in ((layout.lines, _THIN), (layout.bars, _THICK)):
        segments = [[(rank(x), y) for x, y in line] for line in lines]
        ax.add_collection(LineCollection(segments, colors="black", linewidths=linewidth, capstyle="butt"))
    return ax


def _svg_text(text, point):
    """`text` as an SVG ``<text>`` element (one ``<tspan>`` a line if several), `point` mapping inches to
    the SVG's coordinates."""
    lines = _NOT_XML.sub("\N{REPLACEMENT CHARACTER}", text.text).split("\n")
    em = text.size / _POINTS  # inches
    baseline, lift = _BASELINE[text.va]
    first = text.y + (baseline + lift * _LINE * (len(lines) - 1)) * em  # the first line's baseline
    places = [point(text.x, first - _LINE * em * row) for row in range(len(lines))]
    body = html.escape(lines[0], quote=False)
    if len(lines) > 1:
        body = "".join(
            f'<tspan x="{a}" y="{b}">{html.escape(t, quote=False)}</tspan>'
            for (a, b), t in zip(places, lines, strict=True)
        )
    weight = ' font-weight="bold"' if text.weight == "bold" else ""
    style = f'font-size="{text.size:g}" text-anchor="{_ANCHOR[text.ha]}"{weight}'
    return f'<text x="{places[0][0]}" y="{places[0][1]}" {style}>{body}</text>'


def critical_difference_svg(result: RankResult, *, title: str | None = None) -> str:
    """The critical-difference diagram of a rank test as SVG text (Demšar 2006, §3.2.2, Fig. 1 and 2).

    The diagram of :func:`plot_critical_difference` (the same lines, bars and texts at the same places),
    written directly: no matplotlib, a fraction of a millisecond. Sizes are in points; the texts are text,
    in DejaVu Sans (matplotlib's font) or another sans-serif font, every name escaped; the same result
    always gives the same text, without ids.

    Parameters
    ----------
    result : RankResult
        From :func:`rank_test`, with at least two methods and two data sets.
    title : str, optional
        A title, written above the diagram; default: none, except the warning when the Friedman test does
        not reject.

    Returns
    -------
    str
        A standalone ``<svg>`` element (with its namespace), white behind the diagram.

    See Also
    --------
    rank_test : The Friedman test and its post-hoc tests over data sets.
    RankResult : Average ranks, the Friedman test and a post-hoc test.
    plot_critical_difference : Draw the critical-difference diagram.

    References
    ----------
    .. [1] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.2, Fig. 1-2.

    Examples
    --------
    >>> import re
    >>> from benchtrust.compare import bundled_task_scores, rank_test
    >>> from benchtrust.compare import critical_difference_svg
    >>> uci = bundled_task_scores("uci")
    >>> svg = critical_difference_svg(rank_test(uci))
    >>> print(svg[: svg.index(" font-family")])
    <svg xmlns="http://www.w3.org/2000/svg" width="485.28pt" height="120.96pt" viewBox="0 0 485.28 120.96"
    >>> for text in re.findall(r">([^<>]+)</text>", svg)[5:]:  # after the ranks 1 to 5 on the axis
    ...     print(text)
    nbc (3.69)
    j48 (3.25)
    j48gr (2.92)
    aode (2.44)
    hnb (2.70)
    CD = 0.830 (Nemenyi test, α = 0.05)
    """
    layout = _layout(result, title)
    top = layout.bottom + layout.height  # the figure's upper edge

    def point(x, y):
        return f"{_POINTS * x:.2f}", f"{_POINTS * (top - y):.2f}"

    def path(lines, linewidth):
        d = " ".join("M " + " L ".join(" ".join(point(x, y)) for x, y in line) for line in lines)
        return f'<path d="{d}" fill="none" stroke="#000" stroke-width="{linewidth}" stroke-linejoin="round"/>'

    width, height = point(layout.width, layout.bottom)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}pt" height="{height}pt" '
        f'viewBox="0 0 {width} {height}" font-family="{_FONT}">'
    )
    lines = [
        path(lines, linewidth) for lines, linewidth in ((layout.lines, _THIN), (layout.bars, _THICK)) if lines
    ]
    texts = [_svg_text(text, point) for text in layout.texts]
    return "\n".join(
        [head, f'<rect width="{width}" height="{height}" fill="#fff"/>', *lines, *texts, "</svg>"]
    )
