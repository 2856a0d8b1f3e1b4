"""Scores as counts out of the test size: rounding or truncation, and the test size inferred from the scores.

Boards are built the way Kaggle writes them: each team's count k of n items right, its accuracy k/n
shortened to five decimals (rounded, or truncated as Kaggle often displays scores) and written as text.
"""

import numpy as np
import pandas as pd
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from benchtrust import InputError
from benchtrust.cli import app
from benchtrust.sota import bundled_leaderboard, leaderboard, read_leaderboard
from benchtrust.sota._lattice import infer_test_size, on_lattice


def written(counts, n, rounding, decimals=5):
    """Scores k/n as a board prints them with ``decimals`` decimals (then read back as numbers)."""
    scale = 10**decimals
    exact = np.asarray(counts) * scale
    shortened = exact // n if rounding == "truncate" else np.floor(exact / n + 0.5)
    return np.array([float(f"{v / scale:.{decimals}f}") for v in shortened])


def board(n, teams, seed):
    """Counts of ``teams`` teams on n items, accuracies spread over 0.5-0.99."""
    rng = np.random.default_rng(seed)
    return rng.binomial(n, rng.uniform(0.5, 0.99, teams))


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(40, 20_000),
    rounding=st.sampled_from(["round", "truncate"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_test_size_is_recovered_from_a_board_of_many_teams(n, rounding, seed):
    counts = board(n, 400, seed)
    scores = written(counts, n, rounding)
    # Read back as numbers, k/n loses its trailing zeros: with n = 50 every score has 2 decimals, and
    # sizes from 10^d / 2 up fit d decimals through the decimals themselves (see the module).
    assume(n < 10 ** max(len(f"{v:.5f}".rstrip("0").split(".")[1]) for v in scores) / 2)
    for reading in (rounding, "either"):
        inferred = infer_test_size(scores, reading)
        assert inferred.test_size == n
        assert inferred.candidates[0] == n
        # its multiples fit too (k/n = 2k/2n), and are listed
        assert set(range(n, inferred.searched, n)) <= set(inferred.candidates)
        np.testing.assert_allclose(
            on_lattice(scores, n, reading, "board", test_size=n) * n, counts, atol=1e-9
        )


def test_a_kaggle_board_truncated_to_five_decimals():
    """The issue's board: 3,469 test images, a private share of 868, scores truncated to 5 decimals."""
    counts = board(868, 580, 7)
    scores = written(counts, 868, "truncate")
    with pytest.raises(InputError, match="is not a whole number of correct items out of test_size=3469"):
        on_lattice(scores, 3469, "truncate", "board", test_size=3469)
    with pytest.raises(InputError, match="scores rounded: no test size below 50000 fits them all"):
        infer_test_size(scores, "round")  # truncated scores do not fit as rounded ones
    inferred = infer_test_size(scores, "truncate")
    assert inferred.test_size == 868
    assert inferred.candidates[:4] == (868, 1736, 2604, 3472)
    assert "smallest" in inferred.rule and "868, 1736" in inferred.rule


def test_sizes_the_decimals_cannot_tell_apart_are_not_searched():
    """The mediant (a + k) / (10^5 + n) of a truncated score a / 10^5 and k / n lies in its range: such
    sizes fit every score through the decimals alone, so the search stops below 10^5 / 2."""
    scores = written(board(868, 580, 7), 868, "truncate")
    inferred = infer_test_size(scores, "truncate")
    assert inferred.searched == 50_000
    assert all(size % 868 == 0 for size in inferred.candidates)


def test_no_verdict_without_evidence():
    with pytest.raises(InputError, match="no scores to infer the test size from"):
        infer_test_size([], "round")
    # too few distinct scores: many sizes fit by chance
    with pytest.raises(InputError, match="by chance; give the test size"):
        infer_test_size([0.5, 0.75], "round")
    # a test set larger than four-decimal scores can tell apart (Cassava: about 15,000 images)
    cassava = read_leaderboard(bundled_leaderboard("cassava"), direction="higher", classes=5).scores
    with pytest.raises(InputError, match="no test size below 5000 fits them all"):
        infer_test_size(cassava, "either")


def test_sizes_that_are_not_multiples_of_each_other_make_the_user_pick():
    # 1/2 and 1/3 and 2/3 ... fit both 6 and its multiples; 0.5 and 0.4 fit 10; with few scores, refuse
    scores = written([1, 2, 3, 4, 5], 6, "round", decimals=2)
    with pytest.raises(InputError):
        infer_test_size(scores, "round")


def test_titanic_public_share():
    """Kaggle's Titanic public leaderboard: 50 % of 418 passengers, n = 209."""
    scores = read_leaderboard(bundled_leaderboard(), direction="higher", max_plausible=0.999).scores
    assert infer_test_size(scores).test_size == 209


def test_leaderboard_says_which_size_and_rounding_it_used(tmp_path):
    counts = board(868, 300, 3)
    path = tmp_path / "board.csv"
    pd.DataFrame(
        {"TeamId": range(counts.size), "Score": [f"{s:.5f}" for s in written(counts, 868, "truncate")]}
    ).to_csv(path, index=False)
    auto = leaderboard(
        path, test_size="auto", direction="higher", rounding="truncate", classes=10, correlation=0
    )
    given_size = leaderboard(
        path, test_size=868, direction="higher", rounding="truncate", classes=10, correlation=0
    )
    assert auto.test_size == 868 and auto.inferred.test_size == 868 and given_size.inferred is None
    assert auto.plugin == given_size.plugin and auto.cropped == given_size.cropped
    assert auto.rounding == "truncate" and auto.to_dict()["inferred"]["test_size"] == 868
    text = str(auto)
    assert "868 (inferred: the smallest" in text and "truncated to the decimals written" in text
    with pytest.raises(InputError, match="'auto' is for accuracy"):
        leaderboard(path, test_size="auto", direction="higher", metric="auc", positives=10)
    with pytest.raises(InputError, match="rounding: expected one of"):
        leaderboard(path, test_size=868, direction="higher", rounding="nearest")

    runner = CliRunner()
    command = ["sota", "leaderboard", str(path), "--direction", "higher"]
    result = runner.invoke(app, [*command, "--test-size", "auto", "--rounding", "truncate"])
    assert result.exit_code == 0, result.output
    assert "868 (inferred" in result.output and "truncated" in result.output
    bad = runner.invoke(app, [*command, "--test-size", "3469"])
    assert bad.exit_code == 2 and "test size right? --test-size=auto infers it" in bad.output
    assert len(bad.output.strip().splitlines()) == 1
