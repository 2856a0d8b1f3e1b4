"""§3.2 of Møllersen & Holsbø, two coin-flip examples: n = 20 flips of a fair coin (θ = 0.5)."""

import pytest

from benchtrust.sota import best_of, prob_any_reaches, prob_beats, single_tail_for_any

N, THETA = 20, 0.5


def test_section_3_2_one_experiment_reaches_075():
    """P(θ̂ >= 0.75) = P(X <= 5) = 0.02069."""
    assert round(prob_beats(0.75, test_size=N, accuracy=THETA), 5) == 0.02069


def test_section_3_2_one_of_100_experiments_reaches_075():
    """P(at least one of m = 100 has θ̂ >= 0.75) = 0.8765."""
    assert round(prob_any_reaches(0.75, test_size=N, accuracy=THETA, classifiers=100), 4) == 0.8765


def test_section_3_2_one_of_1000_guessers_reaches_090():
    """P(at least one of m = 1000 has θ̂ >= 0.90) = 0.1823, with P_x = P(X <= 2) = 0.00020."""
    p_any = prob_any_reaches(0.90, test_size=N, accuracy=THETA, classifiers=1000)
    assert round(p_any, 4) == 0.1823
    p_x = prob_beats(0.90, test_size=N, accuracy=THETA)
    assert round(p_x, 5) == 0.00020
    # The two printed numbers are linked by Eq. 2: P_x is the single tail that gives 0.1823 for m = 1000.
    assert single_tail_for_any(p_any, classifiers=1000) == pytest.approx(p_x, rel=1e-9)


def test_section_3_2_best_of_guessers_has_the_same_tail():
    """The exact distribution of the best of 100 guessers gives the same 0.8765 as its upper tail."""
    r = best_of(THETA, classifiers=100, test_size=N)
    tail = float(r.pmf[r.score >= 0.75 - 1e-12].sum())
    assert round(tail, 4) == 0.8765
