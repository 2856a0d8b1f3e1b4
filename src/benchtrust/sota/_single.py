"""One classifier on one test set, and the chance that any of m reaches a value (paper §3.2 and §3.4).

Notation of the paper (§3.1): n test items, accuracy θ, X ~ B(n, 1 - θ) failures, θ̂ = (n - X) / n.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from benchtrust._interval import Interval
from benchtrust._io import InputError, check_count, check_probability
from benchtrust.sota import _binomial

if TYPE_CHECKING:
    import numpy.typing as npt


def _correct_count(value: float, test_size: int) -> np.ndarray:
    """Smallest number of correct items whose accuracy is at least ``value`` (a value on the grid k/n is
    taken as that grid point, allowing for rounding in the last digits)."""
    scaled = value * test_size
    nearest = np.round(scaled)
    return np.where(np.abs(scaled - nearest) <= 1e-9 * test_size, nearest, np.ceil(scaled))


def clopper_pearson(accuracy: float, *, test_size: int, alpha: float = 0.05) -> Interval:
    """Clopper-Pearson (exact binomial) interval for one classifier's accuracy (paper §3.4).

    Parameters
    ----------
    accuracy : float
        Observed accuracy θ̂; taken as the nearest whole number of correct items out of ``test_size``.
    test_size : int
        n, the number of test items.
    alpha : float, default 0.05
        1 - confidence level; the interval is two-sided with α/2 in each tail.

    Returns
    -------
    Interval
        (θ_{α/2}, θ_{1-α/2}).

    See Also
    --------
    prob_beats : The chance that a classifier of given true accuracy reaches a value.
    prob_any_reaches : The chance that at least one of m classifiers reaches a value.
    leaderboard : Its ``naive_ci``, this interval around a leaderboard's best accuracy.

    References
    ----------
    .. [1] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
       case of the binomial", Biometrika 26(4), 404-413, 1934. doi:10.1093/biomet/26.4.404.
    .. [2] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §3.4: the 95 % interval
       (θ_{α/2}, θ_{1-α/2}) = (0.8887, 0.9105) for θ̂ = 0.90, n = 3,000, drawn in Fig. 1.

    Examples
    --------
    >>> low, high = clopper_pearson(0.9, test_size=3000)
    >>> round(low, 4), round(high, 4)
    (0.8887, 0.9105)
    """
    n = check_count(test_size, "test_size")
    check_probability(accuracy, "accuracy", closed=True)
    check_probability(alpha, "alpha")
    correct = round(accuracy * n)
    return Interval(*_binomial.clopper_pearson_limits(correct, n, alpha))


def prob_beats(value: float, *, test_size: int, accuracy: float) -> float:
    """P(θ̂ >= value) for one classifier with true accuracy θ on n items (paper §3.4, Fig. 1).

    Parameters
    ----------
    value : float
        The accuracy to reach. A value within rounding of a grid point k/n counts as that point.
    test_size : int
        n.
    accuracy : float
        θ, the classifier's true accuracy (θ' of a new classifier in the paper).

    Returns
    -------
    float

    See Also
    --------
    clopper_pearson : The interval whose upper limit is the paper's new classifier's θ'.
    prob_any_reaches : The chance that at least one of m classifiers reaches ``value``.
    best_of : The distribution of the best of m, whose E(θ̂_max) and upper limit are the values to beat.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §3.4, Fig. 1:
       P(θ̂_{m+1} >= θ^m_{1-α/2}) = 0.0190 (red area) and P(θ̂_{m+1} >= E(θ̂_max)) = 0.0996 (blue and red).

    Examples
    --------
    The paper's new classifier with θ' = 0.9105 (the upper Clopper-Pearson limit) against the
    multiplicity-adjusted limit 0.9213 of 1,000 classifiers:

    >>> theta_new = clopper_pearson(0.9, test_size=3000).high
    >>> round(prob_beats(2764 / 3000, test_size=3000, accuracy=theta_new), 4)
    0.019
    """
    n = check_count(test_size, "test_size")
    check_probability(accuracy, "accuracy", closed=True)
    check_probability(value, "value", closed=True)
    needed = _correct_count(value, n)
    return float(_binomial.sf(needed - 1, n, accuracy))


def prob_any_reaches(
    value: float, *, test_size: int, accuracy: npt.ArrayLike, classifiers: int | None = None
) -> float:
    """P(at least one of m classifiers has θ̂ >= value), Eq. 1-2 (identical) and Eq. 7-8 (non-identical).

    Parameters
    ----------
    value : float
        The accuracy to reach; a value within rounding of a grid point k/n counts as that point.
    test_size : int
        n.
    accuracy : float or array_like
        θ shared by all m classifiers, or one θ_j per classifier.
    classifiers : int, optional
        m; required when ``accuracy`` is a single value.

    Returns
    -------
    float
        1 - prod_j P(θ̂_j < value), computed in log space.

    See Also
    --------
    single_tail_for_any : The inverse: the single-classifier tail that gives a chance for any of m.
    prob_beats : The same chance for one classifier.
    best_of : The whole distribution of the best of m.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §3.2 (the coin-flip examples:
       0.8765 and 0.1823); §3.3, Eq. (1)-(2) (identical classifiers); §4.2, Eq. (7)-(8) (non-identical).

    Examples
    --------
    Twenty fair coin flips, 100 guessers, at least 15 right (paper §3.2):

    >>> round(prob_any_reaches(0.75, test_size=20, accuracy=0.5, classifiers=100), 4)
    0.8765
    """
    n = check_count(test_size, "test_size")
    check_probability(value, "value", closed=True)
    theta = np.atleast_1d(np.asarray(accuracy, dtype=float))
    for t in np.unique(theta):
        check_probability(float(t), "accuracy", closed=True)
    if theta.size == 1:
        if classifiers is None:
            raise InputError("classifiers: give the number of classifiers m with a single accuracy")
        weights = np.array([check_count(classifiers, "classifiers")])
    else:
        if classifiers is not None and check_count(classifiers, "classifiers") != theta.size:
            raise InputError(f"classifiers={classifiers} but {theta.size} accuracies were given")
        weights = np.ones(theta.size)
    needed = _correct_count(value, n)
    # log prod_j P(θ̂_j < value) = sum_j log(1 - P(correct_j >= needed))
    log_none = np.sum(weights * np.log1p(-_binomial.sf(needed - 1, n, theta)))
    return float(-np.expm1(log_none))


def single_tail_for_any(probability: float, *, classifiers: int) -> float:
    """The P_x for which 1 - (1 - P_x)^m equals ``probability`` (paper §3.4, Eq. 2 inverted).

    Parameters
    ----------
    probability : float
        Probability that at least one of m classifiers has at most x failures.
    classifiers : int
        m.

    Returns
    -------
    float

    See Also
    --------
    prob_any_reaches : The forward direction: the chance that at least one of m classifiers reaches a value.
    best_of : Its ``ci`` holds the multiplicity-adjusted upper limit θ^m_{1-α/2} this P_x leads to.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §3.4: P_x = 0.00002532 for
       α/2 = 0.025 and m = 1,000, the tail of θ^m_{1-α/2} = 0.9213; Eq. (2).

    Examples
    --------
    With α/2 = 0.025 and m = 1000 the paper reports P_x = 0.00002532:

    >>> f"{single_tail_for_any(0.025, classifiers=1000):.4g}"
    '2.532e-05'
    """
    m = check_count(classifiers, "classifiers")
    check_probability(probability, "probability")
    return float(-np.expm1(np.log1p(-probability) / m))
