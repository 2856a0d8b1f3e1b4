"""plot_error_rates (Fig. 6) and plot_history (Fig. 3): written atomically, every variant draws."""

import subprocess
import sys

import pytest

from benchtrust import InputError
from benchtrust.compare._error_rates import error_rates
from benchtrust.compare._history import history
from benchtrust.compare._plot import plot_error_rates, plot_history

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


@pytest.mark.parametrize("which", ["rates", "past"])
def test_writes_a_png_and_returns_its_path(tmp_path, which, request):
    result = request.getfixturevalue(which)
    plot = plot_error_rates if which == "rates" else plot_history
    target = tmp_path / "fig.png"
    written = plot(result, target)
    assert written == target
    data = target.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 1000
    assert [p.name for p in tmp_path.iterdir()] == ["fig.png"]  # no temporary file left


@pytest.mark.parametrize("which", ["rates", "past"])
def test_replaces_a_file_and_follows_the_suffix(tmp_path, which, request):
    result = request.getfixturevalue(which)
    plot = plot_error_rates if which == "rates" else plot_history
    target = tmp_path / "fig.svg"
    target.write_bytes(b"old")
    plot(result, str(target), title="custom")
    assert b"<svg" in target.read_bytes()[:1000]
    assert [p.name for p in tmp_path.iterdir()] == ["fig.svg"]


@pytest.mark.parametrize("which", ["rates", "past"])
def test_bad_paths_raise_input_error_and_leave_nothing(tmp_path, which, request):
    result = request.getfixturevalue(which)
    plot = plot_error_rates if which == "rates" else plot_history
    with pytest.raises(InputError, match="not an image format"):
        plot(result, tmp_path / "fig.docx")
    with pytest.raises(InputError):
        plot(result, tmp_path / "missing" / "fig.png")
    assert list(tmp_path.iterdir()) == []


def test_variants_plot(tmp_path):
    ideal_only = error_rates(0.01, probabilities=[0.3, 0.6, 0.9], simulations=50, seed=1)
    plot_error_rates(ideal_only, tmp_path / "ideal.png")
    plot_history(history([2019.5], [0.9], sigma=0.01), tmp_path / "one.png")
    errors = history([2018.1, 2019.5, 2020.2], [0.2, 0.15, 0.14], sigma=0.01, lower_is_better=True)
    plot_history(errors, tmp_path / "errors.png")
    for name in ("ideal.png", "one.png", "errors.png"):
        assert (tmp_path / name).read_bytes().startswith(PNG_SIGNATURE)


def test_importing_the_modules_does_not_load_matplotlib():
    code = (
        "import sys; import benchtrust.compare._plot, benchtrust.compare._error_rates, "
        "benchtrust.compare._many, benchtrust.compare._history; print('matplotlib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
