"""Means and variances whose value depends only on the values, never on their order.

Floating-point addition is not associative: ``(0.1 + 0.2) + 0.3`` is 0.6000000000000001 but
``(0.3 + 0.2) + 0.1`` is 0.6. A mean summed in the order of the runs therefore gives two methods with the
same runs in another order means that differ in the last bit, and a rank, a tie or a comparison that
should not depend on that order does. Numpy's sums do not help: their pairwise blocks depend on the order
and on the length of the row (NaN padding included).

:func:`exact_mean` and :func:`exact_variance` sum with :func:`math.fsum`, the correctly rounded sum
(Shewchuk 1997): the float nearest the exact real sum of the values, a function of their multiset alone.
Equal multisets give equal means, exactly, whatever their order and whatever the padding; the mean is
also the most accurate a float can be (one rounding in the sum, one in the division). The loop is over the
cells (method × task), each summed in C: about 10 times the time of :func:`numpy.nanmean`, a millisecond
for a few thousand cells; no hot path (no resample) uses it. Many short rows (the two million cells of a
table of 20 million runs) are summed together in numpy instead, with the rounding errors kept exactly, and
each sum is proved to be the one :func:`math.fsum` returns (the few that cannot be are summed by it).

References
----------
J. R. Shewchuk, "Adaptive precision floating-point arithmetic and fast robust geometric predicates",
Discrete & Computational Geometry 18 (1997), 305-363, doi:10.1007/PL00009321 (the algorithm of
:func:`math.fsum`).
"""

from __future__ import annotations

import math
import warnings

import numpy as np

__all__ = ["exact_mean", "exact_sum", "exact_variance", "power_of_two_scale"]

#: Rows per value of a row from which :func:`exact_sum` adds the rows together, a column at a time, in
#: numpy (:func:`_compensated_sums`), instead of each with :func:`math.fsum`: many short rows, as the
#: cells (method × task) of a long table.
_ROWS_PER_VALUE = 8


def _fsum(values) -> float:
    """The correctly rounded sum of `values`; ±inf when it is beyond the floats (:func:`exact_mean` then
    sums the values scaled by 2^-64), NaN for inf + -inf."""
    try:
        return math.fsum(values)
    except OverflowError:  # an intermediate sum beyond 1.8e308
        return math.copysign(math.inf, math.fsum(math.ldexp(v, -64) for v in values))
    except ValueError:  # inf + -inf
        return math.nan


def exact_sum(values, axis=-1) -> np.ndarray:
    """The correctly rounded sum along `axis`, NaN skipped (0.0 for no value), independent of the order.

    Parameters
    ----------
    values : array_like
        Floats; NaN marks a missing value.
    axis : int, default -1
        The axis summed over.

    Returns
    -------
    numpy.ndarray
        The sums, float64, of the shape of `values` without `axis` (a 0-d array for a 1-d input).

    References
    ----------
    J. R. Shewchuk (1997), Discrete & Computational Geometry 18, 305-363, doi:10.1007/PL00009321.

    See Also
    --------
    exact_mean

    Examples
    --------
    >>> float(np.sum([0.1, 0.2, 0.3])) == float(np.sum([0.3, 0.2, 0.1]))
    False
    >>> float(exact_sum([0.1, 0.2, 0.3])) == float(exact_sum([0.3, 0.2, np.nan, 0.1]))
    True
    """
    array = np.moveaxis(np.asarray(values, dtype=float), axis, -1)
    # NaN adds as 0.0, exactly (a sum of -0.0 alone becomes 0.0, which compares equal)
    rows = np.where(np.isnan(array), 0.0, array).reshape(math.prod(array.shape[:-1]), array.shape[-1])
    if rows.shape[0] < _ROWS_PER_VALUE * max(rows.shape[1], 1):  # few long rows: math.fsum's C loop
        return np.fromiter(map(_fsum, rows), dtype=float, count=rows.shape[0]).reshape(array.shape[:-1])
    total, proved = _compensated_sums(rows)
    rest = np.flatnonzero(~proved)
    total[rest] = np.fromiter(map(_fsum, rows[rest]), dtype=float, count=rest.size)
    return total.reshape(array.shape[:-1])


def _compensated_sums(rows):
    """Each row's sum by error-free transformations, and whether it is proved the correctly rounded sum.

    The values of all rows are added a column at a time; each addition's exact rounding error is kept
    (Knuth's TwoSum), and so is each rounding error of the sum c of those errors: the exact sum is
    s + c + Σ e'_i, the e'_i the second errors, |Σ e'_i| <= B = Σ|e'_i| (about n u of it more as computed,
    u = 2^-53, n values a row). With r = fl(s + c) and s + c = r + d exactly (TwoSum again), the exact sum
    lies within |d| + B of r: when that is below half the gap to either neighbour of r (by a margin for
    the rounding of this test), r is the nearest float to it; when B = 0 the exact sum is r + d and r is
    its rounding, ties to even as well. Either way r is what :func:`math.fsum` returns. Other rows (a sum
    of 0, overflow, a sum too close to halfway) are not proved; :func:`exact_sum` sums them with it.
    """
    columns = np.ascontiguousarray(rows.T)
    total = np.zeros(rows.shape[0])
    errors = np.zeros(rows.shape[0])
    size = np.zeros(rows.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):
        for column in columns:
            new = total + column
            back = new - total
            error = (total - (new - back)) + (column - back)
            total = new
            new = errors + error
            back = new - errors
            size += np.abs((errors - (new - back)) + (error - back))
            errors = new
        rounded = total + errors
        back = rounded - total
        rest = np.abs((total - (rounded - back)) + (errors - back))
        half_gap = 0.5 * np.minimum(
            np.nextafter(rounded, np.inf) - rounded, rounded - np.nextafter(rounded, -np.inf)
        )
        slack = rest + size * (1 + 2.0**-40)
        nearest = (slack < half_gap * (1 - 2.0**-50)) | ((size == 0) & (rest <= half_gap))
        proved = np.isfinite(rounded) & np.isfinite(slack) & (rounded != 0) & nearest
    return rounded, proved


def exact_mean(values, axis=-1) -> np.ndarray:
    """The mean along `axis` of the values that are not NaN, its sum correctly rounded, so that it depends
    only on the multiset of values: the same for every order of them (NaN where there is none). It never
    leaves [min, max] of the values: n equal values have that value as mean (3 × 0.4 summed and divided
    by 3 is 0.39999999999999997 in floats), so their variance is 0, not 1e-33.

    Parameters
    ----------
    values : array_like
        Floats; NaN marks a missing value (as the padding of :class:`~benchtrust.compare.TaskScores`).
    axis : int, default -1
        The axis averaged over.

    Returns
    -------
    numpy.ndarray
        The means, float64, of the shape of `values` without `axis`.

    References
    ----------
    J. R. Shewchuk (1997), Discrete & Computational Geometry 18, 305-363, doi:10.1007/PL00009321.

    See Also
    --------
    exact_sum, exact_variance

    Examples
    --------
    Two methods with the same runs in another order have the same mean, exactly:

    >>> runs = np.array([[0.1, 0.2, 0.3], [0.3, 0.2, 0.1]])
    >>> bool(runs.mean(axis=1)[0] == runs.mean(axis=1)[1])
    False
    >>> means = exact_mean(runs)
    >>> bool(means[0] == means[1])
    True
    """
    array = np.asarray(values, dtype=float)
    count = np.count_nonzero(~np.isnan(array), axis=axis)
    total = exact_sum(array, axis=axis)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        mean = total / count
    # a sum scaled back past 1.8e308 (mean finite): divide before scaling
    big = np.isinf(mean) & (count > 0)
    if big.any():
        scaled = exact_sum(np.ldexp(array, -64), axis=axis)
        mean = np.where(big, np.ldexp(scaled / np.maximum(count, 1), 64), mean)
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN rows: no mean
        low, high = np.nanmin(array, axis=axis), np.nanmax(array, axis=axis)
    # within the values, as the exact mean is: equal values have their value as mean (variance 0)
    return np.where(count > 0, np.clip(mean, low, high), np.nan)


def exact_variance(values, axis=-1, *, ddof=1) -> np.ndarray:
    """The variance along `axis` of the values that are not NaN, Σ (x - mean)² / (n - ddof), with the mean
    and the sum of squares of :func:`exact_mean`: independent of the order of the values. NaN where
    n <= ddof. Squares of values beyond 1e154 overflow: scale first (see :func:`power_of_two_scale`).

    References
    ----------
    J. R. Shewchuk (1997), Discrete & Computational Geometry 18, 305-363, doi:10.1007/PL00009321.

    See Also
    --------
    exact_mean, power_of_two_scale

    Examples
    --------
    >>> float(exact_variance([1.0, 2.0, 3.0, np.nan]))
    1.0
    """
    array = np.moveaxis(np.asarray(values, dtype=float), axis, -1)
    mean = exact_mean(array, axis=-1)
    count = np.count_nonzero(~np.isnan(array), axis=-1)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        squares = exact_sum(np.square(array - mean[..., None]), axis=-1)
        return np.where(count > ddof, squares / (count - ddof), np.nan)


def power_of_two_scale(values, axis=-1) -> np.ndarray:
    """The least power of two 2^e above the largest absolute value along `axis` (NaN skipped; 1 where
    every value is 0, NaN or infinite): dividing by it is exact (barring values below 1e-290 of the
    largest) and brings the values into [-1, 1], so squares and their sums neither overflow nor
    underflow.

    Examples
    --------
    >>> float(power_of_two_scale([3e300, -1e300])) == 2.0 ** 999
    True
    >>> float(power_of_two_scale([0.0, np.nan]))
    1.0
    """
    with np.errstate(invalid="ignore"):
        largest = np.nanmax(np.abs(np.where(np.isnan(values), 0.0, values)), axis=axis)
    usable = np.isfinite(largest) & (largest > 0)
    _, exponent = np.frexp(np.where(usable, largest, 1.0))
    return np.where(usable, np.ldexp(1.0, exponent), 1.0)
