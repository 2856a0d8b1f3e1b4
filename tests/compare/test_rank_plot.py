"""The critical-difference diagram (benchtrust.compare.plot_critical_difference and critical_difference_svg;
Demšar 2006, §3.2.2)."""

import io
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust._html import _clean_svg, prefix_ids
from benchtrust._words import ALPHA
from benchtrust.compare import bundled_results, read_task_scores
from benchtrust.compare._tasks._rank_plot import _layout, critical_difference_svg, plot_critical_difference
from benchtrust.compare._tasks._ranks import rank_test

UCI = {
    "method_column": "classifier",
    "task_column": "dataset_index",
    "run_column": "score_index",
    "score_column": "accuracy_percent",
}


def task_scores(values, *, direction="higher", methods=None):
    """TaskScores from an array of shape (methods, tasks), one run each."""
    values = np.asarray(values, dtype=float)
    k, n = values.shape
    methods = methods or [f"m{i}" for i in range(k)]
    i, j = np.meshgrid(np.arange(k), np.arange(n), indexing="ij")
    table = pd.DataFrame(
        {
            "method": np.asarray(methods, dtype=object)[i.ravel()],
            "task": [f"t{x}" for x in j.ravel()],
            "run": 0,
            "score": values.ravel(),
        }
    )
    return read_task_scores(table, direction=direction)


@pytest.fixture(scope="module")
def uci_lower():
    return read_task_scores(bundled_results("uci"), direction="lower", **UCI)


def labels(ax, result):
    """The text of each method's label, by method."""
    texts = {text.get_text(): text for text in ax.texts}
    return {m: texts[f"{m} ({r:.2f})"] for m, r in zip(result.methods, result.average_ranks, strict=True)}


def screen_x(ax, x):
    return ax.transData.transform((x, 0))[0]


def thin_lines(ax):
    return ax.collections[0].get_segments()


def group_bars(ax):
    return ax.collections[1].get_segments()


SVG = "{http://www.w3.org/2000/svg}"
ANCHOR = {"left": "start", "center": "middle", "right": "end"}


def svg_texts(svg):
    """Each ``<text>`` of an SVG diagram: (its text, x in points, text-anchor, font-size, font-weight)."""
    root = ET.fromstring(svg)
    return [
        (
            "\n".join(t.itertext()),
            float(t.get("x")),
            t.get("text-anchor"),
            float(t.get("font-size")),
            t.get("font-weight", "normal"),
        )
        for t in root.iter(f"{SVG}text")
    ]


@pytest.mark.parametrize(("direction", "best_side"), [("higher", "right"), ("lower", "left")])
def test_best_rank_on_the_side_the_direction_makes_natural(uci_runs, uci_lower, direction, best_side):
    result = rank_test(uci_runs if direction == "higher" else uci_lower)
    ax = plot_critical_difference(result)
    one, k = screen_x(ax, 1.0), screen_x(ax, len(result.methods))
    assert (one > k) == (best_side == "right")
    best = result.methods[result.order[0]]
    label = labels(ax, result)[best]
    assert label.get_ha() == ("left" if best_side == "right" else "right")


def test_direction_flip_keeps_methods_in_place_and_mirrors_the_axis(uci_runs, uci_lower):
    # the same scores read as lower-is-better: ranks r -> k + 1 - r, and the axis turns with them
    higher, lower = rank_test(uci_runs), rank_test(uci_lower)
    np.testing.assert_allclose(lower.average_ranks, 6 - higher.average_ranks)
    ax_higher, ax_lower = plot_critical_difference(higher), plot_critical_difference(lower)
    width = ax_higher.figure.bbox.width
    for method in higher.methods:
        a, b = labels(ax_higher, higher)[method], labels(ax_lower, lower)[method]
        assert screen_x(ax_higher, a.get_position()[0]) == pytest.approx(
            screen_x(ax_lower, b.get_position()[0])
        )
        assert a.get_ha() == b.get_ha()
    for r in range(1, 6):
        assert screen_x(ax_higher, r) == pytest.approx(width - screen_x(ax_lower, r))


def test_cd_bar_has_the_length_of_cd(uci_runs):
    result = rank_test(uci_runs)
    ax = plot_critical_difference(result)
    bar = [s for s in thin_lines(ax) if len(s) == 2 and s[0][1] == s[1][1] == 0.45]
    assert len(bar) == 1
    assert abs(bar[0][1][0] - bar[0][0][0]) == pytest.approx(result.critical_difference)
    assert any(t.get_text() == f"CD = 0.830 (Nemenyi test, {ALPHA} = 0.05)" for t in ax.texts)


def test_group_bars_span_each_group(uci_runs):
    result = rank_test(uci_runs)
    ax = plot_critical_difference(result)
    bars = group_bars(ax)
    assert len(bars) == len(result.groups) == 2
    for bar, group in zip(bars, result.groups, strict=True):
        ranks = [result.average_ranks[result.methods.index(m)] for m in group]
        low, high = sorted((bar[0][0], bar[1][0]))
        assert low < min(ranks) and high > max(ranks)
        others = [r for m, r in zip(result.methods, result.average_ranks, strict=True) if m not in group]
        assert not any(low < r < high for r in others)  # a bar joins only its group's methods


def test_holm_has_no_cd_bar(uci_runs):
    result = rank_test(uci_runs, posthoc="holm")
    ax = plot_critical_difference(result)
    assert not [s for s in thin_lines(ax) if len(s) == 2 and s[0][1] == s[1][1] == 0.45]
    assert any("no single critical difference" in t.get_text() for t in ax.texts)
    assert len(group_bars(ax)) == len(result.groups)


def test_control_in_bold_with_its_group(uci_runs):
    result = rank_test(uci_runs, posthoc="bonferroni-dunn", control="nbc")
    ax = plot_critical_difference(result)
    names = labels(ax, result)
    assert names["nbc"].get_fontweight() == "bold" and names["aode"].get_fontweight() == "normal"
    assert len(group_bars(ax)) == 1 and result.groups == (("j48", "nbc"),)


def test_not_rejected_warns_in_the_title():
    result = rank_test(task_scores([[1, 2, 3, 1, 2, 3], [2, 3, 1, 2, 3, 1], [3, 1, 2, 3, 1, 2]]))
    ax = plot_critical_difference(result)
    assert ax.texts[-1].get_text().startswith("Friedman test not significant (p = ")


@pytest.mark.parametrize("k", [2, 20])
def test_readable_from_2_to_20_methods(k):
    rng = np.random.default_rng(k)
    names = [("a-rather-long-method-name-" if i % 3 == 0 else "m") + str(i) for i in range(k)]
    values = rng.normal(np.arange(k)[:, None] / 4, 1, size=(k, 25))
    result = rank_test(task_scores(values, methods=names), posthoc="holm", control=names[0])
    ax = plot_critical_difference(result)
    figure = ax.figure
    renderer = figure.canvas.get_renderer()
    box = figure.bbox
    found = labels(ax, result)
    extents = [text.get_window_extent(renderer) for text in found.values()]
    for extent in extents:  # every label inside the figure
        assert extent.x0 >= box.x0 and extent.x1 <= box.x1 and extent.y0 >= box.y0 and extent.y1 <= box.y1
    for i, a in enumerate(extents):  # no two labels overlap
        for b in extents[i + 1 :]:
            assert not a.overlaps(b)
    figure.savefig(io.StringIO(), format="svg")


def test_draws_on_given_axes(uci_runs):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 3))
    ax = figure.add_subplot()
    assert plot_critical_difference(rank_test(uci_runs), ax=ax, title="UCI") is ax
    assert ax.texts[-1].get_text() == "UCI" and not ax.axison


def test_bad_input(uci_runs):
    with pytest.raises(InputError, match="result: expected a RankResult"):
        plot_critical_difference(uci_runs)
    with pytest.raises(InputError, match="needs at least two methods and two data sets, got 3 and 1"):
        plot_critical_difference(rank_test(task_scores([[1.0], [2.0], [3.0]])))
    with pytest.raises(InputError, match="result: expected a RankResult"):
        critical_difference_svg(uci_runs)
    with pytest.raises(InputError, match="needs at least two methods and two data sets, got 2 and 1"):
        critical_difference_svg(rank_test(task_scores([[1.0], [2.0]])))


def test_svg_names_every_method_with_its_rank_and_the_cd(uci_runs):
    result = rank_test(uci_runs)
    svg = critical_difference_svg(result)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("viewBox").startswith("0 0 ")
    texts = [text for text, *_ in svg_texts(svg)]
    for method, rank in zip(result.methods, result.average_ranks, strict=True):
        assert f"{method} ({rank:.2f})" in texts
    assert f"CD = 0.830 (Nemenyi test, {ALPHA} = 0.05)" in texts
    assert len(root.findall(f"{SVG}path")) == 2  # the thin lines, and the group bars
    assert critical_difference_svg(result) == svg  # the same text every time


def test_svg_escapes_names_and_title():
    name = 'a<b&"c"'
    values = [[3, 2, 3, 3, 2, 3], [2, 3, 2, 2, 3, 2], [1, 1, 1, 1, 1, 1]]
    result = rank_test(task_scores(values, methods=[name, "m1", "m2"]))
    svg = critical_difference_svg(result, title="x < y & z\nsecond line")
    assert "a<b" not in svg and "x < y" not in svg
    texts = [text for text, *_ in svg_texts(svg)]
    rank = result.average_ranks[result.methods.index(name)]
    assert f"{name} ({rank:.2f})" in texts and texts[-1] == "x < y & z\nsecond line"
    # the report's treatment: the namespace (a URL) goes, there are no ids to prefix
    shown = prefix_ids(_clean_svg(svg), "f1-")
    assert shown == svg.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1) and "http" not in shown
    ET.fromstring(shown)


@pytest.mark.parametrize("case", ["nemenyi", "control", "title"])
def test_matplotlib_and_svg_draw_the_same_layout(uci_runs, uci_lower, case):
    result = {
        "nemenyi": lambda: rank_test(uci_runs),
        "control": lambda: rank_test(uci_lower, posthoc="bonferroni-dunn", control="nbc"),
        "title": lambda: rank_test(uci_runs, posthoc="holm"),
    }[case]()
    title = "UCI\nten-fold cross-validation" if case == "title" else None
    layout = _layout(result, title)
    ax = plot_critical_difference(result, title=title)
    assert tuple(ax.figure.get_size_inches()) == pytest.approx((layout.width, layout.height))
    dpi = ax.figure.dpi
    drawn = svg_texts(critical_difference_svg(result, title=title))
    assert len(layout.texts) == len(ax.texts) == len(drawn)
    for planned, text, (svg_text, x, anchor, size, weight) in zip(layout.texts, ax.texts, drawn, strict=True):
        where = ax.transData.transform(text.get_position()) / dpi  # inches from the figure's corner
        assert tuple(where) == pytest.approx((planned.x, planned.y - layout.bottom))
        assert (text.get_text(), text.get_ha(), text.get_va()) == (planned.text, planned.ha, planned.va)
        assert (text.get_fontsize(), text.get_fontweight()) == (planned.size, planned.weight)
        assert (svg_text, anchor, size, weight) == (
            planned.text,
            ANCHOR[planned.ha],
            planned.size,
            planned.weight,
        )
        assert x == pytest.approx(72 * planned.x, abs=0.005)
    for lines, collection in zip((layout.lines, layout.bars), ax.collections, strict=True):
        segments = [ax.transData.transform(segment) / dpi for segment in collection.get_segments()]
        assert len(segments) == len(lines)
        for segment, line in zip(segments, lines, strict=True):
            np.testing.assert_allclose(segment, np.asarray(line) - (0.0, layout.bottom), atol=1e-9)


@pytest.mark.parametrize("direction", ["higher", "lower"])
def test_svg_puts_the_best_rank_where_matplotlib_does(uci_runs, uci_lower, direction):
    result = rank_test(uci_runs if direction == "higher" else uci_lower)
    texts = {text: (x, anchor) for text, x, anchor, *_ in svg_texts(critical_difference_svg(result))}
    best = result.order[0]
    best_right = direction == "higher"
    assert (texts["1"][0] > texts["5"][0]) == best_right
    assert texts[f"{result.methods[best]} ({result.average_ranks[best]:.2f})"][1] == (
        "start" if best_right else "end"
    )
    label = labels(plot_critical_difference(result), result)[result.methods[best]]
    assert label.get_ha() == ("left" if best_right else "right")


@pytest.mark.parametrize("k", [2, 20])
def test_svg_from_2_to_20_methods(k):
    rng = np.random.default_rng(k)
    names = [f"m{i}" for i in range(k)]
    result = rank_test(task_scores(rng.normal(np.arange(k)[:, None] / 4, 1, size=(k, 25)), methods=names))
    root = ET.fromstring(critical_difference_svg(result))
    width, height = (float(v) for v in root.get("viewBox").split()[2:])
    texts = svg_texts(critical_difference_svg(result))
    assert len(texts) == 2 * k + 1 + (not result.rejected)  # ranks, labels, CD (and the warning)
    for text in root.iter(f"{SVG}text"):
        assert 0 < float(text.get("x")) < width and 0 < float(text.get("y")) < height


def test_drawn_on_an_axes_of_a_subfigure(uci_runs):
    from matplotlib.figure import Figure

    ax = Figure(figsize=(10, 3)).subfigures(1, 2)[0].add_subplot()
    result = rank_test(uci_runs)
    assert plot_critical_difference(result, ax=ax) is ax
    assert set(labels(ax, result)) == set(result.methods)  # each method labelled with its rank
