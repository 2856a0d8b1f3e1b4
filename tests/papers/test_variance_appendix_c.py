"""Bouthillier et al. (2021), appendix C (and §4.1): the numbers and rules the paper publishes.

* C.3 / Figure C.1: with γ = 0.75 and α = β = 0.05, Noether's formula asks for 29 runs; below γ = 0.55 more
  than 700; the minimal sample size quickly moves above 500 when detecting P(A > B) below 0.6.
* C.4 / Eq. 9: P(A > B) is the proportion of pairs in which A wins.
* C.6: the three scenarios of the decision.
"""

import math

import numpy as np
import pytest
from scipy.special import ndtri

from benchtrust.compare import probability_of_outperforming, sample_size


def test_c3_sample_size_29_for_gamma_075_alpha_beta_005():
    """C.3: N >= ((Φ⁻¹(1 - α) - Φ⁻¹(β)) / (√6 (1/2 - γ)))², computed here from the printed formula."""
    gamma, alpha, beta = 0.75, 0.05, 0.05
    bound = ((ndtri(1 - alpha) - ndtri(beta)) / (math.sqrt(6) * (0.5 - gamma))) ** 2
    assert 28 < bound < 29  # 28.86: the paper rounds up to 29 trainings
    assert sample_size(gamma, alpha=alpha, beta=beta) == math.ceil(bound) == 29


def test_figure_c1_more_than_700_runs_below_gamma_055():
    """C.3: "Detecting P(A > B) below γ = 0.6 is unpractical, requiring more than 700 trainings below
    0.55"."""
    assert sample_size(0.55) > 700
    assert all(sample_size(g) > 700 for g in np.linspace(0.51, 0.55, 9))


def test_figure_c1_caption_sizes_move_above_500_below_gamma_06():
    """Figure C.1: "detecting reliably P(A > B) < 0.6 is unpractical with minimal sample sizes quickly
    moving above 500"; at γ = 0.6 itself far fewer runs suffice."""
    assert sample_size(0.56) > 500
    assert sample_size(0.6) < 200


def test_c3_beta_range_005_to_02():
    """C.3: β ranges from 0.05 to 0.2; weaker power needs fewer runs than the recommended β = 0.05."""
    assert sample_size(0.75, beta=0.2) < sample_size(0.75, beta=0.05) == 29


def test_equation_9_proportion_of_successes():
    a = np.array([0.91, 0.90, 0.93, 0.89, 0.92])
    b = np.array([0.90, 0.91, 0.92, 0.88, 0.90])
    assert probability_of_outperforming(a, b).p_a_beats_b == pytest.approx(np.mean(a > b))


@pytest.mark.parametrize(
    ("wins", "losses", "significant", "meaningful"),
    [
        (18, 11, False, True),  # CI_min <= 0.5: not significant, no conclusion
        (400, 300, True, False),  # CI_min > 0.5 but CI_max <= γ: not meaningful
        (25, 4, True, True),  # CI_min > 0.5 and CI_max > γ: A is better than B
    ],
)
def test_c6_three_scenarios(wins, losses, significant, meaningful):
    b = np.linspace(0.5, 0.9, wins + losses)
    a = b + np.concatenate([np.full(wins, 0.01), np.full(losses, -0.01)])
    r = probability_of_outperforming(a, b, gamma=0.75)
    low, high = r.ci
    assert r.significant is significant is (low > 0.5)
    assert r.meaningful is meaningful is (high > 0.75)
    assert ("A is better than B in the conditions" in r.conclusion) is (significant and meaningful)
