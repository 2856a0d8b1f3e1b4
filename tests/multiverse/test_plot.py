"""plot_rank_distribution (Fig. 2), plot_stepwise (Fig. 3) and plot_unfolding (Fig. 4) of Nießl et al.:
drawn on the Axes given (or a new figure's) and returned, nothing written, shapes checked, every variant
draws; benchtrust.save_figure writes them."""

import itertools
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from benchtrust import InputError, save_figure
from benchtrust.multiverse import plot_rank_distribution, plot_stepwise, plot_unfolding
from benchtrust.multiverse._maps import _default_pairs

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _average_ranks(scores):
    """Ranks of each row's scores (1 = smallest), ties sharing their average rank."""
    return np.vstack([pd.Series(row).rank(method="average").to_numpy() for row in scores])


@pytest.fixture(scope="module")
def rank_case():
    rng = np.random.default_rng(0)
    scores = np.round(rng.normal(size=(48, 7)) + np.arange(7) * 0.3, 1)  # rounding makes ties
    return _average_ranks(scores), [f"method {j}" for j in range(7)]


@pytest.fixture(scope="module")
def step_case():
    steps = pd.DataFrame(
        {
            "method": ["A"] * 4 + ["B"] * 4 + ["C"] * 4,
            "step": [0, 1, 2, 3] * 3,
            "choice": [None, "imputation", "aggregation", "measure"] * 3,
            "option": [
                *("threshold", "mean", "median", "cindex"),
                *("threshold", "threshold", "mean", "ibrier"),  # never changes
                *("threshold", "mean", "trimmed", "ibrier"),  # a change that keeps the rank
            ],
            "rank": [5, 3, 2.5, 1, 1, 1, 1, 1, 3, 3, 3, 3],
            "changed": [False, True, True, True, False, False, False, False, False, True, False, False],
        }
    )
    return steps, {"A": (1, 6), "B": (1, 4), "C": (2, 5.5)}


def _product_case(levels, M, seed):
    """A full product of options (choice k has levels[k] options) with random ideal and method points."""
    rng = np.random.default_rng(seed)
    names = [f"choice {k}" for k in range(len(levels))]
    combos = pd.DataFrame(
        list(itertools.product(*[[f"c{k}-o{o}" for o in range(n)] for k, n in enumerate(levels)])),
        columns=names,
    )
    defaults = {name: f"c{k}-o0" for k, name in enumerate(names)}
    C = len(combos)
    return rng.normal(size=(C, 2)), rng.normal(size=(M, 2)), [f"m{j}" for j in range(M)], combos, defaults


@pytest.fixture(scope="module")
def unfolding_case():
    return _product_case([3, 2, 2], 5, seed=1)


def _draw(which, case, **kwargs):
    if which == "ranks":
        ranks, methods = case
        return plot_rank_distribution(ranks, methods, **kwargs)
    if which == "steps":
        steps, rank_range = case
        return plot_stepwise(steps, rank_range, **kwargs)
    return plot_unfolding(*case, **kwargs)


FIXTURES = {"ranks": "rank_case", "steps": "step_case", "unfolding": "unfolding_case"}
#: The figure size each plot makes for its case: Fig. 2's 7 methods in 2 x 4 panels, Fig. 3's 3 methods,
#: Fig. 4's 3 choices in 2 x 2 panels.
SIZES = {"ranks": (10.4, 4.6), "steps": (6.0, 5.0), "unfolding": (12.8, 10.5)}


@pytest.mark.parametrize("which", list(FIXTURES))
def test_returns_the_axes_of_a_new_figure_and_writes_nothing(tmp_path, monkeypatch, which, request):
    monkeypatch.chdir(tmp_path)
    ax = _draw(which, request.getfixturevalue(FIXTURES[which]))
    assert isinstance(ax, Axes)
    assert tuple(ax.figure.get_size_inches()) == pytest.approx(SIZES[which])
    assert list(tmp_path.iterdir()) == []
    written = save_figure(ax, tmp_path / "fig.png")
    data = written.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 1000


@pytest.mark.parametrize("which", list(FIXTURES))
def test_draws_on_the_axes_it_is_given(which, request):
    figure = Figure(figsize=(9, 7))
    given = figure.add_subplot(1, 2, 2)  # the right half: the panels go there, the left stays empty
    ax = _draw(which, request.getfixturevalue(FIXTURES[which]), ax=given, title="custom")
    assert ax is given and ax.figure is figure
    assert ax.has_data()
    assert tuple(figure.get_size_inches()) == (9, 7)
    assert all(panel.get_position().x0 > 0.5 for panel in figure.axes)  # every panel in the right half
    titled = ax.get_title() if which == "steps" else figure.get_suptitle()
    assert titled == "custom"


@pytest.mark.parametrize("which", ["ranks", "unfolding"])
def test_panels_need_an_axes_of_a_grid(which, request):
    figure = Figure()
    with pytest.raises(InputError, match="ax: expected an Axes in a grid of subplots"):
        _draw(which, request.getfixturevalue(FIXTURES[which]), ax=figure.add_axes((0, 0, 1, 1)))


def test_svg_keeps_text_as_text(tmp_path, rank_case):
    ranks, methods = rank_case
    written = save_figure(plot_rank_distribution(ranks, methods), tmp_path / "fig.svg")
    assert b"<svg" in written.read_bytes()[:1000]


def test_rank_distribution_checks_its_arguments(rank_case):
    ranks, methods = rank_case
    with pytest.raises(InputError, match="methods"):
        plot_rank_distribution(ranks, methods[:-1])
    with pytest.raises(InputError, match="ranks"):
        plot_rank_distribution(ranks[0], methods)  # 1-D
    with pytest.raises(InputError, match="ranks"):
        plot_rank_distribution(ranks + 1, methods)  # a rank above M
    bad = ranks.copy()
    bad[0, 0] = np.nan
    with pytest.raises(InputError, match="ranks"):
        plot_rank_distribution(bad, methods)


def test_rank_distribution_variants():
    one = plot_rank_distribution([[1.0]], ["alone"])
    assert one.get_title() == "alone (1\N{EN DASH}1)"
    rng = np.random.default_rng(3)
    many = _average_ranks(rng.integers(0, 5, size=(30, 18)))  # many ties, 18 methods: 5 columns, 4 rows
    ax = plot_rank_distribution(many, [f"m{j}" for j in range(18)])
    assert len(ax.figure.axes) == 20 and sum(panel.get_visible() for panel in ax.figure.axes) == 18


def test_stepwise_checks_its_arguments(step_case):
    steps, rank_range = step_case
    with pytest.raises(InputError, match="rank_range"):
        plot_stepwise(steps, {"A": (1, 6), "B": (1, 4)})
    with pytest.raises(InputError, match="rank_range"):
        plot_stepwise(steps, {**rank_range, "C": (2,)})
    with pytest.raises(InputError, match="changed"):
        plot_stepwise(steps.drop(columns="changed"), rank_range)
    with pytest.raises(InputError, match="step 0"):
        plot_stepwise(steps[steps["step"] > 0], rank_range)
    with pytest.raises(InputError, match="DataFrame"):
        plot_stepwise(steps.to_dict("list"), rank_range)


def test_stepwise_with_methods_that_never_change():
    steps = pd.DataFrame(
        {
            "method": ["A", "A", "B", "B"],
            "step": [0, 1, 0, 1],
            "choice": ["", "data sets", "", "data sets"],
            "option": ["all", "all", "all", "all"],
            "rank": [1.5, 1.5, 1.5, 1.5],
            "changed": [False, False, False, False],
        }
    )
    ax = plot_stepwise(steps, {"A": (1, 2), "B": (1, 2)})
    assert not ax.patches and not ax.texts  # no arrows: nothing changed
    only_defaults = steps[steps["step"] == 0]
    ax = plot_stepwise(only_defaults, {"A": (1, 2), "B": (1, 2)})
    assert ax.get_title().endswith("no steps")


def test_default_pairs_differ_only_in_their_choice(unfolding_case):
    *_, combos, defaults = unfolding_case
    options = pd.DataFrame({k: combos[c].to_numpy() for k, c in enumerate(combos.columns)})
    options["row"] = np.arange(len(combos))
    for k, choice in enumerate(combos.columns):
        first, second = _default_pairs(options, k, defaults[choice])
        levels = combos[choice].nunique()
        # Every default row pairs with each alternative option once: 12 / levels * (levels - 1) pairs.
        assert first.size == len(combos) // levels * (levels - 1)
        a, b = combos.iloc[first].reset_index(drop=True), combos.iloc[second].reset_index(drop=True)
        assert (a[choice] == defaults[choice]).all() and (b[choice] != defaults[choice]).all()
        others = [c for c in combos.columns if c != choice]
        assert a[others].equals(b[others])


def test_default_pairs_of_a_single_choice_connect_everything():
    options = pd.DataFrame({0: ["x", "y", "x", "z"], "row": np.arange(4)})
    first, second = _default_pairs(options, 0, "x")
    assert sorted(zip(first.tolist(), second.tolist(), strict=True)) == [(0, 1), (0, 3), (2, 1), (2, 3)]


def test_unfolding_checks_its_arguments(unfolding_case):
    X, Y, methods, combos, defaults = unfolding_case
    with pytest.raises(InputError, match="methods"):
        plot_unfolding(X, Y, methods[:-1], combos, defaults)
    with pytest.raises(InputError, match="combinations"):
        plot_unfolding(X[:-1], Y, methods, combos, defaults)
    with pytest.raises(InputError, match="row_points"):
        plot_unfolding(np.hstack([X, X]), Y, methods, combos, defaults)
    with pytest.raises(InputError, match="column_points"):
        plot_unfolding(X, Y[:, :1], methods, combos, defaults)
    with pytest.raises(InputError, match="defaults"):
        plot_unfolding(X, Y, methods, combos, {"choice 0": "c0-o0"})
    with pytest.raises(InputError, match="defaults"):
        plot_unfolding(X, Y, methods, combos, {**defaults, "choice 1": "nowhere"})
    with pytest.raises(InputError, match="defaults"):
        plot_unfolding(X, Y, methods, combos, {**defaults, "other": "x"})


def test_unfolding_variants():
    single = _product_case([4], 3, seed=2)  # one choice: one panel, every default/alternative pair
    ax = plot_unfolding(*single)
    assert [panel.get_visible() for panel in ax.figure.axes] == [True]
    X, Y, methods, combos, _ = _product_case([3, 2], 3, seed=4)
    combos = combos.set_index(np.arange(10, 10 + len(combos)))  # the index is not used
    combos["choice 1"] = combos["choice 1"].map({"c1-o0": 0, "c1-o1": 1})  # options compared as strings
    ax = plot_unfolding(X, Y, methods, combos, {"choice 0": "c0-o0", "choice 1": 0})
    legend = [text.get_text() for text in ax.figure.axes[1].get_legend().get_texts()]
    assert legend == ["0 (default)", "1"]


def test_unfolding_of_a_large_multiverse(tmp_path):
    X, Y, methods, combos, defaults = _product_case([10, 2, 4, 5, 5], 20, seed=5)
    assert len(combos) == 2000
    written = save_figure(plot_unfolding(X, Y, methods, combos, defaults), tmp_path / "large.png")
    assert written.read_bytes().startswith(PNG_SIGNATURE)


def test_importing_the_modules_does_not_load_matplotlib():
    modules = "benchtrust.multiverse._plot, benchtrust.multiverse._maps"
    code = f"import sys, {modules}; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
