"""Dependence on a latent reference classifier (Boland et al. 1989; paper §4.1 and §4.3, Eq. 10-12).

Every classifier j is correlated with a latent reference classifier Y0 (accuracy θ0) with correlation ρ,
and the classifiers are independent given Y0. On one test item,

    P(Y_j = 1 | Y0 = 1) = (ρ sqrt(θ_j (1-θ_j) θ0 (1-θ0)) + θ_j θ0) / θ0              (Eq. 10)
    P(Y_j = 1 | Y0 = 0) = (-ρ sqrt(θ_j (1-θ_j) θ0 (1-θ0)) + θ_j (1-θ0)) / (1-θ0)      (Eq. 11)

Both must be probabilities. Eq. 11 >= 0 gives the paper's Eq. 12, θ_j >= ρ² θ0 / (1 - θ0 + ρ² θ0); Eq. 10
<= 1 gives θ_j <= θ0 / (θ0 + ρ² (1 - θ0)) (it holds for every θ_j <= θ0).
"""

from __future__ import annotations

import numpy as np

from benchtrust._io import InputError


def accuracy_bounds(reference_accuracy, correlation):
    """Range of accuracies θ_j for which Eq. 10 and 11 are probabilities (Eq. 12 and its twin).

    Parameters
    ----------
    reference_accuracy : float
        θ0, accuracy of the latent reference classifier.
    correlation : float
        ρ, correlation of each classifier with the reference, in [0, 1).

    Returns
    -------
    tuple of float
        The smallest and largest admissible θ_j.

    Examples
    --------
    >>> low, high = accuracy_bounds(0.9, 0.6)
    >>> round(low, 4), round(high, 4)
    (0.7642, 0.9615)
    """
    rho2 = correlation**2
    low = rho2 * reference_accuracy / (1.0 - reference_accuracy + rho2 * reference_accuracy)
    high = reference_accuracy / (reference_accuracy + rho2 * (1.0 - reference_accuracy))
    return low, high


def conditional_accuracies(accuracy, *, reference_accuracy, correlation):
    """P(Y_j = 1 | Y0 = 1) and P(Y_j = 1 | Y0 = 0), Eq. 10 and 11.

    Parameters
    ----------
    accuracy : array_like
        θ_j of each classifier, inside the bounds of :func:`accuracy_bounds`.
    reference_accuracy : float
        θ0.
    correlation : float
        ρ.

    Returns
    -------
    tuple of numpy.ndarray
        (P(Y_j = 1 | Y0 = 1), P(Y_j = 1 | Y0 = 0)), clipped to [0, 1] against rounding.

    Examples
    --------
    >>> right, wrong = conditional_accuracies(0.9, reference_accuracy=0.9, correlation=0.6)
    >>> round(float(right), 12), round(float(wrong), 12)
    (0.96, 0.36)
    """
    theta = np.asarray(accuracy, dtype=float)
    t0 = reference_accuracy
    shared = correlation * np.sqrt(theta * (1.0 - theta) * t0 * (1.0 - t0))
    right = (shared + theta * t0) / t0
    wrong = (-shared + theta * (1.0 - t0)) / (1.0 - t0)
    return np.clip(right, 0.0, 1.0), np.clip(wrong, 0.0, 1.0)


def admissible(accuracy, *, reference_accuracy, correlation, drop, counts=None):
    """Check Eq. 12 for every classifier; raise, or drop the inadmissible ones as the paper does (§5.1.1).

    Parameters
    ----------
    accuracy : numpy.ndarray
        θ_j of each classifier (or of each group of classifiers sharing one θ).
    reference_accuracy, correlation : float
        θ0 and ρ.
    drop : bool
        False: raise an InputError naming the offenders. True: leave them out.
    counts : numpy.ndarray, optional
        How many classifiers share each accuracy (default: one each).

    Returns
    -------
    numpy.ndarray of bool
        Which accuracies are admissible.

    Raises
    ------
    benchtrust.InputError
        When ``drop`` is False and some θ_j lies outside the bounds, or when nothing is left.

    Examples
    --------
    >>> admissible(np.array([0.5, 0.8, 0.9]), reference_accuracy=0.9, correlation=0.6, drop=True)
    array([False,  True,  True])
    """
    counts = np.ones(accuracy.size, dtype=int) if counts is None else counts
    low, high = accuracy_bounds(reference_accuracy, correlation)
    slack = 1e-12  # accuracies on a bound up to rounding are admissible
    ok = (accuracy >= low - slack) & (accuracy <= high + slack)
    if ok.all():
        return ok
    setting = (
        f"with correlation {correlation:g} and reference accuracy {reference_accuracy:.6g}, "
        f"Eq. 12 admits accuracies in [{low:.6g}, {high:.6g}]"
    )
    outside = int(counts[~ok].sum())
    if not drop:
        examples = ", ".join(f"{value:.6g}" for value in accuracy[~ok][:3])
        raise InputError(
            f"{setting}; {outside} of {int(counts.sum())} classifiers fall outside (accuracy {examples}"
            f"{', ...' if (~ok).sum() > 3 else ''}); drop them as the paper does with invalid='drop' "
            "(CLI: --drop-invalid)"
        )
    if not ok.any():
        raise InputError(f"{setting}; none of the {int(counts.sum())} classifiers is inside it")
    return ok
