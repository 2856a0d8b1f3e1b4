"""plot_leaderboard: the paper's Fig. 7a for a leaderboard result, drawn on an Axes, for accuracy and AUC."""

import dataclasses

import numpy as np
import pytest

from benchtrust import save_figure
from benchtrust.sota import leaderboard, plot_leaderboard
from benchtrust.sota._plot import _leaderboard_bins, _leaderboard_title, _score_label

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def board():
    """30 teams on a test set of 500 items; independent teams keep the exact computation fast."""
    rng = np.random.default_rng(7)
    correct = np.sort(rng.integers(380, 431, size=30))
    return leaderboard(correct / 500, test_size=500, direction="higher", correlation=0)


@pytest.fixture(scope="module")
def auc_board(board):
    """The same numbers read as AUCs (a real AUC leaderboard is simulated and slow; the plot only reads)."""
    return dataclasses.replace(board, metric="auc", positives=100, correlation=0.0)


def test_draws_a_new_figure_of_the_papers_size_and_writes_nothing(tmp_path, monkeypatch, board):
    monkeypatch.chdir(tmp_path)
    ax = plot_leaderboard(board)
    assert tuple(ax.figure.get_size_inches()) == (9, 6.5)
    assert list(tmp_path.iterdir()) == []
    marks = [line.get_xdata()[0] for line in ax.lines]
    assert marks == pytest.approx(
        [board.observed_max, board.plugin.expected_max, board.cropped.sota, board.conservative.sota]
    )
    legend = " ".join(text.get_text() for text in ax.get_legend().get_texts())
    assert f"observed max = {board.observed_max:.4f}" in legend and "conservative SOTA" in legend


def test_draws_on_the_axes_it_is_given(board):
    from matplotlib.figure import Figure

    figure = Figure(figsize=(12, 4))
    left, right = figure.subplots(1, 2)
    assert plot_leaderboard(board, ax=right, title="custom") is right
    assert right.get_title() == "custom"
    assert not left.has_data() and right.has_data()


def test_saved_as_png_or_svg(tmp_path, board):
    ax = plot_leaderboard(board)
    data = save_figure(ax, tmp_path / "fig7.png").read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 5000
    assert b"<svg" in save_figure(ax, tmp_path / "fig7.svg").read_bytes()[:1000]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig7.png", "fig7.svg"]


def test_auc_plots_with_an_auc_axis(auc_board):
    ax = plot_leaderboard(auc_board)
    assert ax.get_xlabel() == _score_label(auc_board)
    assert _score_label(auc_board).startswith("AUC")
    assert "n+ = 100" in _leaderboard_title(auc_board, 30)


def test_dependent_teams_plot():
    scores = np.arange(400, 431, 2) / 500
    result = leaderboard(scores, test_size=500, direction="higher", correlation=0.6, resamples=0)
    ax = plot_leaderboard(result)
    assert "\N{GREEK SMALL LETTER RHO} = 0.6" in ax.get_title()
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
    result = leaderboard(scores, test_size=500, direction="higher", correlation=0)
    edges = _leaderboard_bins(result)
    assert edges[0] > 0.5
    counts, _ = np.histogram(result.scores, bins=edges)
    assert counts.sum() == 21
