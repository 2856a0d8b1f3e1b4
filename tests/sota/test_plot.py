"""plot_best_of: the paper's Fig. 1 written safely, for every model, without loading matplotlib early."""

import json
import subprocess
import sys

import numpy as np
import pytest

from benchtrust import InputError
from benchtrust.sota import best_of, plot_best_of
from benchtrust.sota._plot import _default_title

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def paper():
    """§3.4: m = 1000, n = 3000, θ = 0.9."""
    return best_of(0.9, classifiers=1000, test_size=3000)


def test_writes_a_png_and_returns_its_path(tmp_path, paper):
    target = tmp_path / "fig1.png"
    written = plot_best_of(paper, target)
    assert written == target
    data = target.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) > 1000
    assert [p.name for p in tmp_path.iterdir()] == ["fig1.png"]  # no temporary file left


def test_accepts_a_string_path_and_replaces_a_file(tmp_path, paper):
    target = tmp_path / "fig1.png"
    target.write_bytes(b"old")
    plot_best_of(paper, str(target), title="custom")
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert [p.name for p in tmp_path.iterdir()] == ["fig1.png"]


def test_format_follows_the_suffix(tmp_path, paper):
    target = plot_best_of(paper, tmp_path / "fig1.svg")
    assert b"<svg" in target.read_bytes()[:1000]


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
def test_every_model_plots(tmp_path, options):
    options = {"test_size": 3000, **options}
    target = plot_best_of(best_of(**options), tmp_path / "fig.png")
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert [p.name for p in tmp_path.iterdir()] == ["fig.png"]


def test_default_title_states_m_n_theta_and_the_model(paper):
    title = _default_title(paper)
    for part in ["m = 1000", "n = 3000", "θ = 0.9", "independent, identical", "exact", "Fig. 1"]:
        assert part in title
    dependent = _default_title(
        best_of(np.linspace(0.875, 0.90, 20), test_size=3000, correlation=0.6, reference_accuracy=0.9)
    )
    for part in ["m = 20", "max θ = 0.9", "\N{GREEK SMALL LETTER RHO} = 0.6", "θ0 = 0.9", "random reference"]:
        assert part in dependent


def test_missing_folder_is_an_input_error(tmp_path, paper):
    with pytest.raises(InputError, match="does not exist"):
        plot_best_of(paper, tmp_path / "no" / "fig.png")
    assert list(tmp_path.iterdir()) == []


def test_unknown_format_is_an_input_error(tmp_path, paper):
    with pytest.raises(InputError, match=r"'\.txt' is not an image format"):
        plot_best_of(paper, tmp_path / "fig.txt")
    assert list(tmp_path.iterdir()) == []


def test_importing_sota_does_not_load_matplotlib():
    code = "import sys, json, benchtrust.sota; print(json.dumps('matplotlib' in sys.modules))"
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(completed.stdout) is False
