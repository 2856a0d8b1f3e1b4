"""plot_leaderboard: the paper's Fig. 7a for a leaderboard result, written safely, for accuracy and AUC."""

import dataclasses

import numpy as np
import pytest

from benchtrust import InputError
from benchtrust.sota import leaderboard, plot_leaderboard
from benchtrust.sota._plot import _leaderboard_bins, _leaderboard_title, _score_label

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def board():
    """30 teams on a test set of 500 items; independent teams keep the exact computation fast."""
    rng = np.random.default_rng(7)
    correct = np.sort(rng.integers(380, 431, size=30))
    return leaderboard(correct / 500, test_size=500, correlation=0)


@pytest.fixture(scope="module")
def auc_board(board):
    """The same numbers read as AUCs (a real AUC leaderboard is simulated and slow; the plot only reads)."""
    return dataclasses.replace(board, metric="auc", positives=100, correlation=0.0)


def test_writes_a_png_and_returns_its_path(tmp_path, board):
    target = tmp_path / "fig7.png"
    written = plot_leaderboard(board, target)
    assert written == target
    data = target.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) > 5000
    assert [p.name for p in tmp_path.iterdir()] == ["fig7.png"]  # no temporary file left


def test_accepts_a_string_path_and_replaces_a_file(tmp_path, board):
    target = tmp_path / "fig7.png"
    target.write_bytes(b"old")
    plot_leaderboard(board, str(target), title="custom")
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert [p.name for p in tmp_path.iterdir()] == ["fig7.png"]


def test_format_follows_the_suffix(tmp_path, board):
    target = plot_leaderboard(board, tmp_path / "fig7.svg")
    assert b"<svg" in target.read_bytes()[:1000]


def test_auc_plots_with_an_auc_axis(tmp_path, auc_board):
    target = plot_leaderboard(auc_board, tmp_path / "fig.png")
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert [p.name for p in tmp_path.iterdir()] == ["fig.png"]
    assert _score_label(auc_board).startswith("AUC")
    assert "n+ = 100" in _leaderboard_title(auc_board, 30)


def test_dependent_teams_plot(tmp_path):
    scores = np.arange(400, 431, 2) / 500
    result = leaderboard(scores, test_size=500, correlation=0.6, bootstrap=0)
    target = plot_leaderboard(result, tmp_path / "fig.png")
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert "\N{GREEK SMALL LETTER RHO} = 0.6" in _leaderboard_title(result, 16)


def test_accuracy_axis_and_title(board):
    assert _score_label(board).startswith("accuracy")
    title = _leaderboard_title(board, 25)
    for part in ["25 of 30 teams shown", "n = 500", "\N{GREEK SMALL LETTER RHO} = 0", "Fig. 7"]:
        assert part in title


def test_zoom_holds_every_mark_and_the_top_teams(board):
    edges = _leaderboard_bins(board)
    marks = [
        board.observed_max,
        *board.naive_ci,
        board.plugin.expected_max,
        board.cropped.sota,
        board.conservative.sota,
    ]
    assert edges[0] < min(marks) and max(marks) < edges[-1]
    widths = np.diff(edges)
    np.testing.assert_allclose(widths, widths[0])
    steps = widths[0] * 500
    assert steps == pytest.approx(round(steps))  # whole lattice steps per bar
    # No score sits on an edge (edges are half a step off the lattice).
    offsets = np.abs((board.scores[:, None] - edges[None, :]) * 500)
    assert offsets.min() == pytest.approx(0.5)
    counts, _ = np.histogram(board.scores, bins=edges)
    assert counts.sum() >= int(np.ceil(0.9 * board.teams)) - 1  # at most the lowest tenth left out
    assert counts.sum() == np.count_nonzero(board.scores > edges[0])


def test_zoom_leaves_out_a_long_lower_tail():
    scores = np.concatenate([np.arange(430, 451) / 500, [0.3, 0.32, 0.34]])
    result = leaderboard(scores, test_size=500, correlation=0)
    edges = _leaderboard_bins(result)
    assert edges[0] > 0.5
    counts, _ = np.histogram(result.scores, bins=edges)
    assert counts.sum() == 21


def test_missing_folder_is_an_input_error(tmp_path, board):
    with pytest.raises(InputError, match="does not exist"):
        plot_leaderboard(board, tmp_path / "no" / "fig.png")
    assert list(tmp_path.iterdir()) == []


def test_unknown_format_is_an_input_error(tmp_path, board):
    with pytest.raises(InputError, match=r"'\.txt' is not an image format"):
        plot_leaderboard(board, tmp_path / "fig.txt")
    assert list(tmp_path.iterdir()) == []
