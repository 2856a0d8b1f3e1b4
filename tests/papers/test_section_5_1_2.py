"""Møllersen & Holsbø §5.1.2 (Fig. 8): the Cassava Leaf Disease Classification leaderboard, recomputed from
the final board (bundled, from mle-bench; see src/benchtrust/data/README.md).

The paper: a test set of about 15,000 images; 3,752 teams above chance (1/5); the winner's 0.9132 has the
95 % interval (0.9086, 0.9177) without multiplicity, and no other team is in it; with the teams' scores as
their accuracies the expected best equals the observed best, so multiplicity does not explain the winner
(an outlier).
"""

import pytest

from benchtrust.sota import bundled_leaderboard, clopper_pearson, leaderboard, read_leaderboard

PAPER_TEAMS = 3752
PAPER_INTERVAL = (0.9086, 0.9177)


@pytest.fixture(scope="module")
def cassava():
    return leaderboard(str(bundled_leaderboard("cassava")), test_size=15_000, direction="higher", classes=5)


def test_teams_above_chance():
    board = read_leaderboard(bundled_leaderboard("cassava"), direction="higher", classes=5)
    assert len(board.scores) == 3755  # this snapshot of the final board
    assert abs(len(board.scores) - PAPER_TEAMS) <= 5, "the paper's snapshot differs by a few teams at most"
    assert board.scores.max() == 0.9132


def test_the_winner_s_interval_holds_no_other_team(cassava):
    low, high = clopper_pearson(0.9132, test_size=15_000)
    assert (round(low, 4), round(high, 4)) == PAPER_INTERVAL
    assert (round(cassava.naive_ci.low, 4), round(cassava.naive_ci.high, 4)) == PAPER_INTERVAL
    assert cassava.teams_in_naive_ci == 1, "only the winner is in its own interval"
    assert sorted(cassava.scores)[-2] < cassava.naive_ci.low


def test_multiplicity_does_not_explain_the_winner(cassava):
    assert cassava.observed_max == pytest.approx(0.9132)
    assert abs(cassava.plugin.expected_max - cassava.observed_max) < 1e-4
    assert cassava.stands_out and cassava.top_reading == "stands out"
    assert "Multiplicity does not explain it" in cassava.verdict
    assert cassava.cropped.teams_above == 0, "a state of the art at the observed best has no team above it"
