"""plot_best_of: the paper's Fig. 1 drawn on an Axes, for every model, without loading matplotlib early."""

import json
import subprocess
import sys

import numpy as np
import pytest

from benchtrust import save_figure
from benchtrust.sota import best_of, plot_best_of
from benchtrust.sota._plot import _default_title

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def paper():
    """§3.4: m = 1000, n = 3000, θ = 0.9."""
    return best_of(0.9, classifiers=1000, test_size=3000)


def new_axes():
    from matplotlib.figure import Figure

    return Figure(figsize=(4, 3)).add_subplot()


def test_draws_a_new_figure_of_the_papers_size_and_writes_nothing(tmp_path, monkeypatch, paper):
    monkeypatch.chdir(tmp_path)
    ax = plot_best_of(paper)
    assert tuple(ax.figure.get_size_inches()) == (8, 5)
    assert list(tmp_path.iterdir()) == []
    # E(best) and both ends of the interval are marked, and the legend names them
    marks = [line.get_xdata()[0] for line in ax.lines]
    assert marks == pytest.approx([paper.expected_max, *paper.ci])
    legend = [text.get_text() for text in ax.get_legend().get_texts()]
    assert "best of m = 1000" in legend and f"E(best) = {paper.expected_max:.4f}" in legend
    assert ax.get_title() == _default_title(paper)


def test_draws_on_the_axes_it_is_given(paper):
    ax = new_axes()
    assert plot_best_of(paper, ax=ax, title="custom") is ax
    assert ax.get_title() == "custom"
    assert tuple(ax.figure.get_size_inches()) == (4, 3)
    assert len(ax.patches) == 2  # one classifier and the best of m


def test_saved_as_png_or_svg(tmp_path, paper):
    ax = plot_best_of(paper)
    assert save_figure(ax, tmp_path / "fig1.png").read_bytes().startswith(PNG_SIGNATURE)
    assert b"<svg" in save_figure(ax, tmp_path / "fig1.svg").read_bytes()[:1000]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig1.png", "fig1.svg"]


@pytest.mark.parametrize(
    "options",
    [
        {"accuracy": np.linspace(0.875, 0.90, 50)},
        {"accuracy": 0.9, "classifiers": 100, "correlation": 0.6},
        {"accuracy": 0.9, "classifiers": 100, "correlation": 0.6, "fixed_reference": True},
        {"accuracy": 0.9, "classifiers": 5, "test_size": 10},
    ],
    ids=["non-identical", "dependent", "fixed reference", "tiny test set"],
)
def test_every_model_plots(options):
    options = {"test_size": 3000, **options}
    result = best_of(**options)
    ax = plot_best_of(result)
    low, high = ax.get_xlim()
    assert low < result.ci[0] <= result.ci[1] < high
    assert ax.get_ylim()[0] == 0


def test_default_title_states_m_n_theta_and_the_model(paper):
    title = _default_title(paper)
    for part in ["m = 1000", "n = 3000", "θ = 0.9", "independent, identical", "exact", "Fig. 1"]:
        assert part in title
    dependent = _default_title(
        best_of(np.linspace(0.875, 0.90, 20), test_size=3000, correlation=0.6, reference_accuracy=0.9)
    )
    for part in ["m = 20", "max θ = 0.9", "\N{GREEK SMALL LETTER RHO} = 0.6", "θ0 = 0.9", "random reference"]:
        assert part in dependent


def test_importing_sota_does_not_load_matplotlib():
    code = "import sys, json, benchtrust.sota; print(json.dumps('matplotlib' in sys.modules))"
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(completed.stdout) is False


def test_saved_from_an_axes_of_a_subfigure(tmp_path, paper):
    """The whole figure is written, as for any Axes (an Axes's figure is then the subfigure)."""
    from matplotlib.figure import Figure

    ax = Figure(figsize=(8, 3)).subfigures(1, 2)[1].add_subplot()
    plot_best_of(paper, ax=ax)
    assert save_figure(ax, tmp_path / "fig1.png").read_bytes().startswith(PNG_SIGNATURE)
