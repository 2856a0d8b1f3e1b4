"""plot_error_rates (Fig. 6) and plot_history (Fig. 3): they draw on an Axes (a new 8 x 5 inch figure's, or
the one given) and return it, write no file, and every variant draws; save_figure writes them."""

import subprocess
import sys

import pytest
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from benchtrust import InputError, save_figure
from benchtrust.compare._pipelines._error_rates import error_rates
from benchtrust.compare._pipelines._history import history
from benchtrust.compare._pipelines._plot import plot_error_rates, plot_history

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def rates():
    return error_rates(0.01, conditional_sd=0.008, bias_sd=0.004, simulations=100, seed=0)


@pytest.fixture(scope="module")
def past():
    return history(
        ["2015-02-01", "2016-05-01", "2016-09-01", "2017-08-01", "2018-12-01"],
        [0.91, 0.935, 0.94, 0.938, 0.962],
        test_size=10_000,
    )


PLOTS = {"rates": plot_error_rates, "past": plot_history}


@pytest.mark.parametrize("which", ["rates", "past"])
def test_draws_on_a_new_figure_of_the_old_size_and_writes_nothing(tmp_path, monkeypatch, which, request):
    monkeypatch.chdir(tmp_path)
    ax = PLOTS[which](request.getfixturevalue(which))
    assert isinstance(ax, Axes)
    assert tuple(ax.figure.get_size_inches()) == (8.0, 5.0)
    assert ax.get_title() and ax.get_xlabel() and ax.lines + ax.collections
    assert list(tmp_path.iterdir()) == []  # drawing writes no file


@pytest.mark.parametrize("which", ["rates", "past"])
def test_draws_on_the_axes_it_is_given(which, request):
    figure = Figure(figsize=(4, 3))
    FigureCanvasAgg(figure)
    left, right = figure.subplots(1, 2)
    assert PLOTS[which](request.getfixturevalue(which), ax=right, title="custom") is right
    assert right.get_title() == "custom" and not left.has_data() and right.has_data()


@pytest.mark.parametrize("which", ["rates", "past"])
def test_saved_as_png_or_svg_by_the_suffix(tmp_path, which, request):
    ax = PLOTS[which](request.getfixturevalue(which))
    png, svg = tmp_path / "fig.png", tmp_path / "fig.svg"
    svg.write_bytes(b"old")
    assert save_figure(ax, png) == png and save_figure(ax, str(svg)) == svg
    data = png.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 1000
    assert b"<svg" in svg.read_bytes()[:1000]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.png", "fig.svg"]  # no temporary file left
    with pytest.raises(InputError, match="not an image format"):
        save_figure(ax, tmp_path / "fig.docx")


def test_variants_plot():
    ideal_only = error_rates(0.01, probabilities=[0.3, 0.6, 0.9], simulations=60, seed=1)
    assert len(plot_error_rates(ideal_only).lines) == 7  # 5 criteria, ideal only; 2 region lines
    one = plot_history(history([2019.5], [0.9], sigma=0.01))
    assert "0 of 0 increments significant" in one.get_title()
    errors = history([2018.1, 2019.5, 2020.2], [0.2, 0.15, 0.14], sigma=0.01, direction="lower")
    assert plot_history(errors).get_ylabel() == "score (lower is better)"


def test_importing_the_modules_does_not_load_matplotlib():
    code = (
        "import sys; from benchtrust.compare._pipelines import _plot, _error_rates, _datasets, _history; "
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
