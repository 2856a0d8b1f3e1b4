"""Table 1 of Møllersen & Holsbø: E and SD of the best accuracy of m independent, identical classifiers.

Every row is recomputed with :func:`benchtrust.sota.best_of` (the exact distribution, Eq. 2-3) and compared
with the printed numbers at their printed precision: E to 4 decimals, SD to 6 decimals.
"""

import pytest

from benchtrust.sota import best_of

# (m, n, θ, E(θ̂_max), σ(θ̂_max)) as printed in Table 1.
TABLE_1 = [
    (1000, 3000, 0.85, 0.8707, 0.002197),
    (1000, 3000, 0.90, 0.9173, 0.001817),
    (1000, 3000, 0.95, 0.9624, 0.001277),
    (100, 3000, 0.90, 0.9135, 0.002250),
    (500, 3000, 0.90, 0.9163, 0.001923),
    (1000, 1000, 0.90, 0.9294, 0.003007),
    (1000, 10000, 0.90, 0.9096, 0.001022),
]


def agrees_to(value, printed, decimals):
    """``value`` rounds to ``printed`` at ``decimals`` places: within half a unit in the last place."""
    return abs(value - printed) <= 0.5 * 10.0**-decimals + 1e-12


@pytest.mark.parametrize(("m", "n", "theta", "expected", "sd"), TABLE_1)
def test_table_1_row(m, n, theta, expected, sd):
    r = best_of(theta, classifiers=m, test_size=n)
    assert r.model == "independent, identical"
    assert r.method == "exact"
    assert (r.classifiers, r.test_size) == (m, n)
    assert agrees_to(r.expected_max, expected, 4), r.expected_max
    assert agrees_to(r.sd_max, sd, 6), r.sd_max
