"""Monte Carlo counterpart of :func:`benchtrust.sota.best_of`, an independent check of the exact results.

Each simulation draws every classifier's number of correct items on the test set and records the best.
Dependent classifiers (§4.1, §4.3) first draw the number K of items the reference classifier gets right,
then, given K, each classifier's correct count as Bin(K, P(Y_j | Y0 = 1)) + Bin(n - K, P(Y_j | Y0 = 0)),
which has the same distribution as drawing all n items one by one (the items are exchangeable).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import numpy as np

from benchtrust._io import Seed, check_count, check_seed
from benchtrust.sota import _dependence
from benchtrust.sota._best_of import BestOfResult, _prepare, _result

if TYPE_CHECKING:
    import numpy.typing as npt

_DRAWS_PER_CHUNK = 4_000_000  # binomial draws held in memory at once


def simulate_best_of(
    accuracy: npt.ArrayLike,
    *,
    test_size: int,
    classifiers: int | None = None,
    correlation: float = 0.0,
    reference_accuracy: float | None = None,
    fixed_reference: bool = False,
    alpha: float = 0.05,
    invalid: Literal["raise", "drop"] = "raise",
    simulations: int = 100_000,
    seed: Seed = None,
) -> BestOfResult:
    """Simulated distribution of the best observed accuracy among m classifiers.

    Parameters
    ----------
    accuracy, test_size, classifiers, correlation, reference_accuracy, fixed_reference, alpha, invalid
        As for :func:`benchtrust.sota.best_of`.
    simulations : int, default 100000
        Number of simulated test sets.
    seed : int or numpy.random.Generator, optional
        Source of randomness; the same seed gives the same result.

    Returns
    -------
    BestOfResult
        The empirical distribution, with ``method`` "monte carlo, R simulations".

    See Also
    --------
    best_of : The exact distribution this simulation checks.
    plot_best_of : Draw the result as the paper's Fig. 1.
    BestOfResult : The result: distribution, E(θ̂_max), its standard deviation and interval.
    best_of_auc : The best of m AUCs; its ``simulations`` runs the paper's direct simulation.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §4.1-4.3: the simulations
       (100,000 repetitions) of dependent (Fig. 4) and non-identical (Fig. 5-6) classifiers, Table 2;
       the conditional accuracies given the reference classifier Y0, Eq. (10)-(11).
    .. [2] P. J. Boland, F. Proschan and Y. L. Tong, "Modelling dependence in simple and indirect majority
       systems", Journal of Applied Probability 26, 81-88, 1989. doi:10.2307/3214318.

    Examples
    --------
    >>> r = simulate_best_of(0.9, classifiers=1000, test_size=3000, simulations=2000, seed=1)
    >>> abs(r.expected_max - 0.9173) < 0.0005
    True
    """
    model = _prepare(
        accuracy,
        test_size=test_size,
        classifiers=classifiers,
        correlation=correlation,
        reference_accuracy=reference_accuracy,
        fixed_reference=fixed_reference,
        alpha=alpha,
        invalid=invalid,
    )
    reps = check_count(simulations, "simulations")
    rng = check_seed(seed)
    n, m = model.test_size, model.classifiers
    theta = np.repeat(model.theta, model.counts)
    if model.correlation > 0:
        right, wrong = _dependence.conditional_accuracies(
            theta, reference_accuracy=model.reference_accuracy, correlation=model.correlation
        )
    best = np.empty(reps, dtype=np.int64)
    chunk = max(1, _DRAWS_PER_CHUNK // m)
    for first in range(0, reps, chunk):
        size = min(chunk, reps - first)
        if model.correlation == 0:
            correct = rng.binomial(n, theta, size=(size, m))
        else:
            if model.fixed_reference:
                k = np.full(size, int(np.floor(model.reference_accuracy * n + 0.5)))
            else:
                k = rng.binomial(n, model.reference_accuracy, size=size)
            correct = rng.binomial(k[:, None], right, size=(size, m))
            correct += rng.binomial((n - k)[:, None], wrong, size=(size, m))
        best[first : first + size] = correct.max(axis=1)
    failures = n - best
    z0 = int(failures.min())
    cdf = np.cumsum(np.bincount(failures - z0)) / reps
    return _result(model, z0 + np.arange(cdf.size), cdf, method=f"monte carlo, {reps} simulations")
