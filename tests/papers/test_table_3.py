"""Table 3 of Møllersen & Holsbø (§5.1.1, Multi-Class Prediction of Obesity Risk): SOTA estimates.

The competition: n = 13,840 test items, m = 3,498 teams above chance, best observed accuracy
θ̂_max = 0.9116. What can be recomputed without the leaderboard is recomputed here:

* the "no mult." row: the 95 % Clopper-Pearson interval (0.9067, 0.9162) of one classifier with score
  θ̂_max, through :func:`clopper_pearson` and through :func:`leaderboard` (its ``naive_ci``) on a
  synthetic leaderboard whose best team has the paper's θ̂_max. 0.9116 n = 12,616.5 lies halfway between
  two lattice points, and both 12,616 / 13,840 = 0.911561 and 12,617 / 13,840 = 0.911633 round to
  0.9116; only 12,616 reproduces the printed interval (12,617 gives (0.9068, 0.9163)), so the winning
  team had 12,616 items right (Kaggle shows 0.91156);
* the structure of the table on a synthetic leaderboard at the paper's n: the cropping row's E equals
  θ̂_max to the printed 4 decimals, the conservative row's upper limit is θ̂_max, and the rows are
  ordered as printed (conservative SOTA < cropping SOTA < θ̂_max < E of the Kaggle accuracies).

What cannot be recomputed: every other number of Table 3 and of the text around it, because each depends
on the 3,498 observed accuracies of the real Obesity leaderboard, which is not available to us. The
"Kaggle accuracies" row (interval (0.9128, 0.9191), E = 0.9159) is the best-of distribution of those
accuracies themselves; the cropping row (SOTA 0.9062, interval (0.9084, 0.9148), 1,134 teams above) and
the conservative row (SOTA 0.9026, interval (0.9050, θ̂_max), E = 0.9083, 1,844 teams above) crop them;
and the 920 teams inside the naive interval (§5.1.1) are a count over them. The expected best score is
governed by how many teams sit near the top and how close, which no summary in the paper pins down.
"""

import numpy as np

from benchtrust.sota import clopper_pearson, leaderboard

N = 13_840
PRINTED_MAX = 0.9116
NO_MULT_CI = (0.9067, 0.9162)
WINNER = 12_616  # items the winning team got right: the count whose interval is the printed one


def agrees_to(value, printed, decimals):
    """``value`` rounds to ``printed`` at ``decimals`` places: within half a unit in the last place."""
    return abs(value - printed) <= 0.5 * 10.0**-decimals + 1e-12


def rounded(interval):
    return round(interval[0], 4), round(interval[1], 4)


def test_table_3_both_neighbouring_counts_print_as_the_observed_max():
    assert abs(PRINTED_MAX * N - 12_616.544) < 1e-6
    for correct in (WINNER, WINNER + 1):
        assert agrees_to(correct / N, PRINTED_MAX, 4)
    assert not agrees_to((WINNER - 1) / N, PRINTED_MAX, 4)
    assert not agrees_to((WINNER + 2) / N, PRINTED_MAX, 4)


def test_table_3_no_mult_row_clopper_pearson():
    """ "The 95% (not multiplicity-corrected) CI for θ̂_max is (0.9067, 0.9162)"."""
    assert rounded(clopper_pearson(WINNER / N, test_size=N)) == NO_MULT_CI
    # The other count that prints as 0.9116 gives another interval: the paper's winner had 12,616 right.
    assert rounded(clopper_pearson((WINNER + 1) / N, test_size=N)) == (0.9068, 0.9163)
    # 0.9116 itself is taken as its nearest lattice point, 12,617 / 13,840.
    assert clopper_pearson(PRINTED_MAX, test_size=N) == clopper_pearson((WINNER + 1) / N, test_size=N)


def synthetic_obesity(winner):
    """A leaderboard at the paper's n whose best team has ``winner`` items right, as Kaggle writes it.

    40 teams, the others spread below the best; scores are written with 5 decimals (Kaggle's format),
    each with five significant decimals.
    """
    others = np.round(np.linspace(12_300, winner - 20, 60)).astype(int)
    texts = [f"{k / N:.5f}" for k in others]
    texts = [t for t in texts if not t.endswith("0")][:39]
    assert len(texts) == 39
    return np.array([float(t) for t in [f"{winner / N:.5f}", *texts]])


def test_table_3_no_mult_row_through_leaderboard():
    scores = synthetic_obesity(WINNER)
    assert scores[0] == 0.91156
    result = leaderboard(scores, test_size=N, direction="higher", correlation=0.0, resamples=0)
    assert result.observed_max == WINNER / N
    assert agrees_to(result.observed_max, PRINTED_MAX, 4)
    assert rounded(result.naive_ci) == NO_MULT_CI
    assert result.naive_ci == tuple(clopper_pearson(WINNER / N, test_size=N))
    assert result.to_dict()["naive_ci"] == list(result.naive_ci)


def test_table_3_no_mult_row_with_the_nearest_lattice_point():
    """The lattice point nearest 0.9116 (12,617 right) does not give the printed interval."""
    result = leaderboard(
        synthetic_obesity(WINNER + 1), test_size=N, direction="higher", correlation=0.0, resamples=0
    )
    assert result.observed_max == (WINNER + 1) / N
    assert rounded(result.naive_ci) == (0.9068, 0.9163) != NO_MULT_CI


def test_table_3_structure_on_a_synthetic_leaderboard():
    """The rows' defining properties and order at the paper's n (independent teams, to stay fast)."""
    result = leaderboard(synthetic_obesity(WINNER), test_size=N, direction="higher", correlation=0.0)
    top = result.observed_max
    # Kaggle accuracies: θ̂_SOTA = θ̂_max, E above it.
    assert result.plugin.sota == top < result.plugin.expected_max
    # cropping: E(θ̂_max) printed as θ̂_max.
    assert round(result.cropped.expected_max, 4) == round(top, 4)
    assert result.cropped.sota <= top
    # conservative: the upper limit of the interval is at most θ̂_max.
    assert result.conservative.ci[1] <= top
    assert result.conservative.sota < result.cropped.sota
    assert result.conservative.expected_max < top
