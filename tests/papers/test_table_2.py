"""Table 2 of Møllersen & Holsbø (§3.4, §4.1-4.3): upper 95 % limit, E and SD of the best accuracy.

m = 1000 classifiers, n = 3000 items; θ = 0.9 (identical) or 1000 equally spaced accuracies from 0.875 to
0.90 (non-identical); dependent rows use ρ = 0.6 with a reference classifier of accuracy θ0 = 0.90. The
upper limit and E are compared at the printed 4 decimals; the SD within 5e-5, because the paper's
dependent rows are simulated (100,000 repetitions) while benchtrust computes them exactly.
"""

import numpy as np
import pytest

from benchtrust.sota import best_of

M, N = 1000, 3000
NON_IDENTICAL = np.linspace(0.875, 0.90, 1000)

# (section, keyword arguments, model, printed upper 95 % CI, printed E, printed SD)
TABLE_2 = [
    ("3.4", {"accuracy": 0.9, "classifiers": M}, "independent, identical", 0.9213, 0.9173, 0.001817),
    (
        "4.1 random Y0",
        {"accuracy": 0.9, "classifiers": M, "correlation": 0.6, "reference_accuracy": 0.9},
        "dependent, identical, random reference",
        0.9207,
        0.9140,
        0.003481,
    ),
    (
        "4.1 fixed y0",
        {
            "accuracy": 0.9,
            "classifiers": M,
            "correlation": 0.6,
            "reference_accuracy": 0.9,
            "fixed_reference": True,
        },
        "dependent, identical, fixed reference",
        0.9173,
        0.9140,
        0.001484,
    ),
    ("4.2", {"accuracy": NON_IDENTICAL}, "independent, non-identical", 0.9177, 0.9130, 0.002129),
    (
        "4.3",
        {"accuracy": NON_IDENTICAL, "correlation": 0.6, "reference_accuracy": 0.9},
        "dependent, non-identical, random reference",
        0.9173,
        0.9101,
        0.003649,
    ),
]


def agrees_to(value, printed, decimals):
    """``value`` rounds to ``printed`` at ``decimals`` places: within half a unit in the last place."""
    return abs(value - printed) <= 0.5 * 10.0**-decimals + 1e-12


@pytest.mark.parametrize(
    ("kwargs", "model", "upper", "expected", "sd"),
    [row[1:] for row in TABLE_2],
    ids=[row[0] for row in TABLE_2],
)
def test_table_2_row(kwargs, model, upper, expected, sd):
    r = best_of(test_size=N, **kwargs)
    assert r.model == model
    assert r.classifiers == M
    assert r.dropped == 0
    assert r.alpha == 0.05
    assert agrees_to(r.ci[1], upper, 4), r.ci
    assert agrees_to(r.expected_max, expected, 4), r.expected_max
    assert abs(r.sd_max - sd) <= 5e-5, r.sd_max


def test_table_2_random_and_fixed_reference_have_the_same_expected_value():
    """§4.1: "they have the same expected value" (random Y0 vs. fixed y0), to the printed 4 decimals."""
    common = {"classifiers": M, "test_size": N, "correlation": 0.6, "reference_accuracy": 0.9}
    random_y0 = best_of(0.9, **common)
    fixed_y0 = best_of(0.9, fixed_reference=True, **common)
    assert round(random_y0.expected_max, 4) == round(fixed_y0.expected_max, 4) == 0.9140
    # ... but a fixed reference removes the training-set randomness: a narrower distribution (Table 2).
    assert fixed_y0.sd_max < random_y0.sd_max
    assert fixed_y0.ci[1] < random_y0.ci[1]


def test_table_2_dependence_and_spread_of_accuracies_reduce_the_bias():
    """Table 2's message: every non-i.i.d. row has a smaller E than the i.i.d. row, all above θ = 0.90."""
    expected = [best_of(test_size=N, **row[1]).expected_max for row in TABLE_2]
    iid = expected[0]
    assert all(0.90 < e < iid for e in expected[1:])
