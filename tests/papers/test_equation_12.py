"""Eq. 10-12 of Møllersen & Holsbø (§4.3): dependence on a latent reference classifier Y0.

Eq. 12 is the range of accuracies θ_j for which Eq. 11 (P(Y_j = 1 | Y0 = 0)) is a probability; its twin
from Eq. 10 (P(Y_j = 1 | Y0 = 1) <= 1) bounds θ_j from above.
"""

import numpy as np
import pytest

from benchtrust import InputError
from benchtrust.sota import best_of
from benchtrust.sota._dependence import accuracy_bounds, conditional_accuracies

THETA0, RHO = 0.9, 0.6


def test_equation_12_lower_bound_as_printed():
    """θ_j >= ρ² θ0/(1-θ0) / (1 + ρ² θ0/(1-θ0)), written exactly as in the paper."""
    odds = RHO**2 * THETA0 / (1 - THETA0)
    low, high = accuracy_bounds(THETA0, RHO)
    assert low == pytest.approx(odds / (1 + odds), rel=1e-14)
    assert round(low, 4) == 0.7642
    assert low < THETA0 < high < 1


@pytest.mark.parametrize(("theta0", "rho"), [(0.9, 0.6), (0.75, 0.3), (0.6, 0.9), (0.99, 0.1)])
def test_equation_12_bounds_make_eq_10_and_11_zero_or_one(theta0, rho):
    """At the lower bound Eq. 11 is 0; at the upper bound Eq. 10 is 1 (up to a few units of rounding:
    the bounds themselves are rounded to doubles, so e.g. (0.75, 0.3) gives Eq. 11 = 2.8e-17)."""
    low, high = accuracy_bounds(theta0, rho)
    odds = rho**2 * theta0 / (1 - theta0)
    assert low == pytest.approx(odds / (1 + odds), rel=1e-14)
    right, wrong = conditional_accuracies(np.array([low, high]), reference_accuracy=theta0, correlation=rho)
    eps = np.finfo(float).eps
    assert 0.0 <= wrong[0] <= 4 * eps
    assert 1.0 - 4 * eps <= right[1] <= 1.0
    # Inside the bounds both are probabilities, and Eq. 10 and 11 average back to θ_j (law of total
    # probability: θ0 P(Y_j | Y0 = 1) + (1 - θ0) P(Y_j | Y0 = 0) = θ_j).
    theta = np.linspace(low, high, 11)
    right, wrong = conditional_accuracies(theta, reference_accuracy=theta0, correlation=rho)
    assert np.all((right >= 0) & (right <= 1) & (wrong >= 0) & (wrong <= 1))
    np.testing.assert_allclose(theta0 * right + (1 - theta0) * wrong, theta, rtol=1e-12)


def test_equation_10_and_11_printed_example():
    """θ = θ0 = 0.9, ρ = 0.6: sqrt(θ(1-θ)θ0(1-θ0)) = 0.09, so Eq. 10 = (0.054 + 0.81)/0.9 = 0.96 and
    Eq. 11 = (-0.054 + 0.09)/0.1 = 0.36."""
    right, wrong = conditional_accuracies(0.9, reference_accuracy=0.9, correlation=0.6)
    assert float(right) == pytest.approx(0.96, abs=1e-12)
    assert float(wrong) == pytest.approx(0.36, abs=1e-12)


def test_equation_12_violation_raises_naming_eq_12_and_the_count():
    accuracy = [0.5, 0.7, 0.8, 0.85, 0.9]  # 0.5 and 0.7 are below the Eq. 12 bound 0.7642
    with pytest.raises(InputError, match=r"Eq\. 12") as caught:
        best_of(accuracy, test_size=300, correlation=RHO, reference_accuracy=THETA0)
    assert "2 of 5" in str(caught.value)


def test_equation_12_violation_by_identical_classifiers_counts_them_all():
    with pytest.raises(InputError, match=r"Eq\. 12") as caught:
        best_of(0.5, classifiers=40, test_size=300, correlation=RHO, reference_accuracy=THETA0)
    assert "40 of 40" in str(caught.value)


def test_equation_12_drop_leaves_out_inadmissible_classifiers():
    accuracy = [0.5, 0.7, 0.8, 0.85, 0.9]
    kwargs = {"test_size": 300, "correlation": RHO, "reference_accuracy": THETA0}
    dropped = best_of(accuracy, invalid="drop", **kwargs)
    assert dropped.dropped == 2
    assert dropped.classifiers == 3
    kept = best_of([0.8, 0.85, 0.9], **kwargs)
    assert kept.dropped == 0
    np.testing.assert_array_equal(dropped.score, kept.score)
    np.testing.assert_allclose(dropped.pmf, kept.pmf, rtol=0, atol=1e-15)
    assert dropped.expected_max == pytest.approx(kept.expected_max, abs=1e-15)


def test_equation_12_drop_of_every_classifier_is_an_error():
    with pytest.raises(InputError, match=r"Eq\. 12"):
        best_of([0.5, 0.6], test_size=300, correlation=RHO, reference_accuracy=THETA0, invalid="drop")


def test_equation_12_upper_twin_from_eq_10():
    """An accuracy above θ0 / (θ0 + ρ²(1-θ0)) makes Eq. 10 exceed 1: rejected as well."""
    _, high = accuracy_bounds(0.8, 0.6)
    too_high = (high + 1) / 2
    with pytest.raises(InputError, match=r"Eq\. 12"):
        best_of([0.8, too_high], test_size=300, correlation=0.6, reference_accuracy=0.8)
    r = best_of([0.8, too_high], test_size=300, correlation=0.6, reference_accuracy=0.8, invalid="drop")
    assert (r.dropped, r.classifiers, r.top_score) == (1, 1, 0.8)
