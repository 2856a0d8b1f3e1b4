"""The stratified bootstrap of Agarwal et al. (2021, §4.1), vectorised over resamples.

A stratified bootstrap resample draws, on every task, as many runs as the task has, with replacement, from
that task's runs alone: every task is kept, and only the runs vary. A resample is therefore fully described
by its counts: how many times each run was drawn. :func:`resample_counts` draws them for many resamples at
once (in chunks, to bound the memory), as an array of shape (resamples, tasks, runs), and every statistic of
:func:`~benchtrust.compare.aggregate` and :func:`~benchtrust.compare.performance_profile` is read off the
counts without building or sorting a single resampled data set:

* a mean over the runs of a task, a mean over all runs or any other sum of a fixed function of the scores is
  linear in the counts (one matrix product for many methods and statistics together);
* the interquartile mean (IQM, the 25% trimmed mean of all runs of all tasks pooled) is the weighted sum
  of the sorted scores whose weights are the resampled copies that fall in the middle 50%: with the counts
  in sorted order and their cumulative sums C, run k keeps ``clip(min(C_k, N - g) - max(C_k - c_k, g), 0)``
  of its c_k copies (g = ⌊N/4⌋ cut from each end). Only the runs whose sorted position can border a cut
  need their counts one by one (:class:`TrimPlan` finds them from the variance of the counts below each
  position); the others enter through three sums. A resample whose cut falls outside those runs, which the
  plan makes very unlikely, is computed with every run, so the result is always exact;
* a fraction of runs above a threshold, per task, is a cumulative count in sorted order.

A percentile interval is read off the resampled statistics as rliable does (through arch's
``IIDBootstrap.conf_int(method="percentile")``): :func:`numpy.percentile` with linear interpolation at
100·α/2 and 100·(1 - α/2).
"""

from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np

from benchtrust._io import MAX_COUNT, InputError
from benchtrust._words import ALPHA

__all__ = [
    "FEW_RUNS",
    "TrimPlan",
    "check_progress",
    "check_resamples",
    "group_progress",
    "method_groups",
    "minimum_resamples",
    "percentile_interval",
    "replicates_memory",
    "resample_counts",
    "stratified_values",
    "trim_plan",
    "trimmed_means",
]

#: The most count cells (resamples × tasks × runs) a chunk of resamples holds: 4 MB of float64, so that a
#: chunk's draws and counts stay in the processor's cache (larger chunks are slower).
CHUNK_CELLS = 1 << 19
#: Fewest runs of a method, pooled over the tasks, for its stratified bootstrap interval to be read as the
#: noise of its runs (a rule of thumb): from fewer, a percentile interval is too coarse (its ends move in
#: steps of 1/n) and too narrow to decide on, and the verdicts say so instead of deciding.
FEW_RUNS = 10
#: Slack under an integer before rounding 2/α up (2/0.05 is 40 up to rounding, not 40.000...1).
_ROUNDING = 1e-9
#: How many standard deviations of the count below a sorted position the bordering runs cover (speed only:
#: a resample outside them, about 1 in 10,000 at 4, is computed with every run).
_BORDER_SDS = 4.0


def minimum_resamples(alpha) -> int:
    """The fewest resamples K from which a percentile interval of level 1 - α says anything: K >= 1 + 2/α.

    The ends are :func:`numpy.percentile` at α/2 and 1 - α/2 of the K sorted replicates x_(0) <= ... <=
    x_(K-1) (linear interpolation: the lower end sits at position h = (K - 1) α/2). For the lower end to be
    an order statistic with at least one replicate below it, rather than the smallest replicate (or a
    point between the smallest two), h >= 1, that is K >= 1 + 2/α; the upper end is then symmetric, with a
    replicate above it, and the two ends are distinct positions (K - 1)(1 - α) >= 2 - α apart. With fewer
    resamples the interval is bounded by the extremes of the draws: at K = 1 its width is zero and the
    estimate may fall outside it. 41 at α = 0.05, 201 at α = 0.01. It is the least for the interval to be
    defined, not for it to be precise: its ends still move by about sqrt(α/2 (1 - α/2) / K) /
    density from one seed to another, hence the thousands of resamples by default.

    References
    ----------
    B. Efron and R. J. Tibshirani, An Introduction to the Bootstrap, Chapman & Hall (1993), §13.3 (the
    percentile interval from B replicates) and §19.3 (B needed for percentiles); doi:10.1201/9780429246593.

    Examples
    --------
    >>> minimum_resamples(0.05), minimum_resamples(0.01), minimum_resamples(0.5)
    (41, 201, 5)
    """
    return 1 + math.ceil(2.0 / alpha - _ROUNDING)


def check_resamples(value, alpha, name="resamples", *, zero=True) -> int:
    """The number of resamples of a percentile interval of level 1 - α: a whole number, 0 (no interval)
    when `zero`, else at least :func:`minimum_resamples` (an InputError naming `name` and the minimum).

    Examples
    --------
    >>> check_resamples(2000, 0.05), check_resamples(0, 0.05)
    (2000, 0)
    >>> check_resamples(-1, 0.05)
    Traceback (most recent call last):
    ...
    benchtrust.InputError: resamples: expected a whole number >= 0, got -1
    >>> check_resamples(1, 0.05)
    Traceback (most recent call last):
    ...
    benchtrust.InputError: resamples: a 95% percentile interval needs at least 41 resamples (K >= 1 + \
2/α, so that 2.5% of them fall below its lower end and 2.5% above its upper end), got 1; or 0 for \
point estimates only
    """
    whole = isinstance(value, numbers.Real) and not isinstance(value, bool) and float(value).is_integer()
    least = 0 if zero else 1
    if not whole or value < least or value > MAX_COUNT:
        expected = "a whole number >= 0" if zero else "a positive whole number"
        if whole and value > MAX_COUNT:
            expected = f"at most {MAX_COUNT:.0e} resamples"
        raise InputError(f"{name}: expected {expected}, got {value!r:.60}")
    value = int(value)
    fewest = minimum_resamples(alpha)
    if 0 < value < fewest:
        tail = f"{100 * alpha / 2:g}%"
        none = "; or 0 for point estimates only" if zero else ""
        raise InputError(
            f"{name}: a {100 * (1 - alpha):g}% percentile interval needs at least {fewest} resamples "
            f"(K >= 1 + 2/{ALPHA}, so that {tail} of them fall below its lower end and {tail} above its "
            f"upper end), got {value}{none}"
        )
    return value


def check_progress(progress):
    """`progress`, a callable ``progress(done, total)`` or None; an InputError otherwise."""
    if progress is not None and not callable(progress):
        raise InputError(f"progress: expected a callable progress(done, total) or None, got {progress!r:.60}")
    return progress


def stratified_values(scores):
    """A :class:`TaskScores`' scores as the resamples read them, and the runs per task in the same order.

    The scores are oriented so that higher is better (negated for ``"lower"``), the tasks put in the order
    of their names and each task's runs in increasing order, NaN after them. The runs of a task are
    exchangeable in a stratified bootstrap, so this changes no statistic, but it makes the resamples drawn
    from a seed independent of the order of the tasks, the methods and the runs in the table, and the same
    for negated scores of the opposite direction: run k of a task is its k-th worst in either.

    Returns
    -------
    values : numpy.ndarray
        Shape (methods, tasks, runs).
    runs : numpy.ndarray
        Shape (methods, tasks): each method's runs on each task.
    """
    order = sorted(range(len(scores.tasks)), key=scores.tasks.__getitem__)
    sign = 1.0 if scores.direction == "higher" else -1.0
    return np.sort(sign * scores.scores[:, order, :], axis=-1), scores.runs_per_task[:, order]


def method_groups(runs_per_task):
    """The methods with the same runs on every task, which share resampled counts: (runs, members) pairs,
    in the order of the runs (not of the methods)."""
    groups = {}
    for i, runs in enumerate(runs_per_task):
        groups.setdefault(tuple(runs.tolist()), []).append(i)
    return [(np.array(key), groups[key]) for key in sorted(groups)]


def group_progress(progress, group, groups, resamples):
    """The progress of one group's resamples as a share of all groups': ``progress(done, resamples)``."""
    if progress is None:
        return None
    return lambda done, _total: progress(round((group * resamples + done) / groups), resamples)


def resample_counts(runs, resamples, rng, *, progress=None, cells=None):
    """Stratified bootstrap resamples of runs within tasks, as counts, in chunks (Agarwal et al. 2021, §4.1).

    Parameters
    ----------
    runs : array_like of int
        n_t, the number of runs of each task (each >= 1).
    resamples : int
        How many resamples to draw in all.
    rng : numpy.random.Generator
        The randomness; the chunks are drawn from it in order, so a seeded generator reproduces them.
    progress : callable, optional
        Called as ``progress(done, resamples)`` after each chunk.
    cells : int, optional
        The values the caller computes per resample from a chunk, when more than the counts' (tasks × max
        n_t): the chunks are made smaller, so that neither exceeds :data:`CHUNK_CELLS` per chunk. The
        chunks are drawn from `rng` in order, so their size never changes the resamples.

    Yields
    ------
    numpy.ndarray
        float64 counts of shape (r, tasks, max n_t) for the next r resamples: ``counts[i, t, k]`` is how
        many times run k of task t is drawn in resample i, a multinomial draw of n_t over the task's n_t
        runs (zero past n_t).

    Examples
    --------
    >>> chunks = list(resample_counts([3, 1], 4, np.random.default_rng(0)))
    >>> [chunk.shape for chunk in chunks]
    [(4, 2, 3)]
    >>> chunks[0].sum(axis=2).tolist()  # every resample draws each task's number of runs
    [[3.0, 1.0], [3.0, 1.0], [3.0, 1.0], [3.0, 1.0]]
    """
    runs = np.asarray(runs, dtype=np.int64)
    tasks, width = runs.size, int(runs.max())
    task_of = np.repeat(np.arange(tasks), runs)  # the task of each draw of a resample
    high = int(runs[0]) if (runs == runs[0]).all() else runs[task_of]
    cells, held = tasks * width, max(tasks * width, cells or 0)
    rows = max(1, min(resamples, CHUNK_CELLS // held))
    base = (np.arange(rows) * cells)[:, None] + task_of * width  # draw (i, p) -> cell (i, task of p, 0)
    for first in range(0, resamples, rows):
        size = min(rows, resamples - first)
        bins = rng.integers(0, high, size=(size, task_of.size))
        bins += base[:size]
        counts = np.bincount(bins.ravel(), minlength=size * cells)
        yield counts.reshape(size, tasks, width).astype(np.float64)
        if progress is not None:
            progress(first + size, resamples)


def percentile_interval(replicates, alpha):
    """The percentile bootstrap interval of each column of `replicates`, as rliable (arch) computes it.

    The ends are :func:`numpy.percentile` with linear interpolation at 100·α/2 and 100·(1 - α/2) of the
    resampled values (axis 0). The columns are taken one at a time: the memory beyond `replicates` is one
    column's copy (see :func:`replicates_memory`), and a signal is honoured between columns.

    Examples
    --------
    >>> percentile_interval(np.arange(101.0), 0.05)
    (np.float64(2.5), np.float64(97.5))
    >>> [end.shape for end in percentile_interval(np.ones((50, 3, 2)), 0.05)]
    [(3, 2), (3, 2)]
    """
    replicates = np.asarray(replicates, dtype=np.float64)
    columns = replicates.reshape(replicates.shape[0], -1)
    ends = np.empty((2, columns.shape[1]))
    levels = [100 * alpha / 2, 100 * (1 - alpha / 2)]
    for j in range(columns.shape[1]):
        ends[:, j] = np.percentile(columns[:, j], levels)
    low, high = ends.reshape(2, *replicates.shape[1:])
    return (low[()], high[()]) if replicates.ndim == 1 else (low, high)


def replicates_memory(resamples, columns) -> int:
    """The bytes a percentile interval of `columns` statistics over `resamples` resamples holds at once:
    every resampled value (float64), and the copy of one column that :func:`percentile_interval` sorts.

    >>> replicates_memory(10**6, 3)
    32000000
    """
    return 8 * resamples * (columns + 1)


@dataclasses.dataclass(frozen=True, eq=False)
class TrimPlan:
    """How to read the pooled trimmed mean (the IQM for 25%) of a method's resamples off their counts.

    Attributes
    ----------
    cut : int
        g = ⌊proportion · N⌋, the runs cut from each end of the N runs pooled.
    task, run, value : numpy.ndarray
        The task, the run index and the score of every run, in sorted order of the scores.
    border : numpy.ndarray
        The sorted positions of the runs that may border a cut, in order.
    border_high : numpy.ndarray
        For each of them, True if it borders the upper cut (it comes after the middle runs).
    split : bool
        Whether middle runs (always kept whole) separate the lower border from the upper one.
    weights : numpy.ndarray
        Shape (tasks, max runs, 3): for each run, its score if it is a middle run, and indicators of lying
        below all bordering runs and above them (always cut); zero past each task's runs.
    """

    cut: int
    task: np.ndarray
    run: np.ndarray
    value: np.ndarray
    border: np.ndarray
    border_high: np.ndarray
    split: bool
    weights: np.ndarray

    @property
    def runs(self) -> int:
        """N, the runs pooled."""
        return self.value.size

    def exact(self) -> TrimPlan:
        """The same plan with every run bordering: no shortcut, for resamples the borders miss."""
        N = self.runs
        return dataclasses.replace(
            self,
            border=np.arange(N),
            border_high=np.zeros(N, dtype=bool),
            split=False,
            weights=np.zeros_like(self.weights),
        )


def trim_plan(values, proportion=0.25) -> TrimPlan:
    """The :class:`TrimPlan` of one method's scores, shape (tasks, max runs) with NaN past a task's runs.

    A run at sorted position p can border a cut if X_p, the number of resampled runs below p, can reach the
    cut g. X_p has mean p and variance Σ_t k_t (n_t - k_t) / n_t, where k_t of task t's n_t runs lie below
    p (a sum of independent binomials, one per task). The runs are bordering where X_p is within 4 standard
    deviations of g (or of N - g): beyond that a resample is recomputed exactly (:func:`trimmed_means`), so
    this choice sets the speed only, never the result.

    Examples
    --------
    >>> plan = trim_plan(np.array([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, np.nan]]))
    >>> plan.cut, plan.runs, plan.value.tolist()
    (1, 7, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0])
    """
    tasks, width = values.shape
    present = ~np.isnan(values)
    task, run = np.nonzero(present)
    order = np.argsort(values[task, run], kind="stable")
    task, run = task[order], run[order]
    value = values[task, run]
    N = value.size
    g = int(proportion * N)
    n_t = present.sum(axis=1)[task]
    # k: how many runs of the same task come before each run in sorted order
    by_task = np.argsort(task, kind="stable")
    k = np.empty(N, dtype=np.int64)
    k[by_task] = np.arange(N) - np.searchsorted(task[by_task], task[by_task])
    sd = np.sqrt(np.maximum(np.concatenate([[0.0], np.cumsum((n_t - 2 * k - 1) / n_t)]), 0.0))
    sd[-1] = 0.0  # every run below: no variance (not a rounding error's worth), so the borders below exist
    p = np.arange(N + 1)
    low0 = int(np.flatnonzero(p + _BORDER_SDS * sd <= g)[-1])
    low1 = int(np.flatnonzero(p - _BORDER_SDS * sd >= g)[0])
    high0 = int(np.flatnonzero(p + _BORDER_SDS * sd <= N - g)[-1])
    high1 = int(np.flatnonzero(p - _BORDER_SDS * sd >= N - g)[0])
    split = low1 < high0
    if not split:  # the two borders meet: one border, no middle runs
        low1 = high0 = high1 = max(low1, high1)
    border = np.concatenate([np.arange(low0, low1), np.arange(high0, high1)])
    weights = np.zeros((tasks, width, 3))
    weights[task[low1:high0], run[low1:high0], 0] = value[low1:high0]
    weights[task[:low0], run[:low0], 1] = 1.0
    weights[task[high1:], run[high1:], 2] = 1.0
    return TrimPlan(
        cut=g,
        task=task,
        run=run,
        value=value,
        border=border,
        border_high=border >= high0 if split else np.zeros(border.size, dtype=bool),
        split=split,
        weights=weights,
    )


def trimmed_means(plan, counts, sums):
    """The trimmed mean of every resample in `counts` (r, tasks, max runs).

    ``sums`` (r, 3) are the counts summed with ``plan.weights``: the middle runs' resampled scores, the
    resampled runs below the bordering runs and above them. Of the resampled runs in sorted order, those
    at positions g to N - g are kept: with D = clip(C, g, N - g), C the resampled runs up to and including
    a run, the run keeps D - D_before of its copies, and the kept sum of a segment of consecutive bordering
    runs is Σ D_k (v_k - v_k+1) - v_first D_before_first (summation by parts; v_last+1 = 0).
    """
    N, g = plan.runs, plan.cut
    middle, below, above = sums[:, 0], sums[:, 1], sums[:, 2]
    low = int((~plan.border_high).sum())
    # C order (the gather comes out transposed): each row is then summed on its own, pairwise, the same
    # whatever the other rows of the chunk
    cumulative = np.cumsum(np.ascontiguousarray(counts[:, plan.task[plan.border], plan.run[plan.border]]), 1)
    low_part = cumulative[:, low - 1].copy() if low else np.zeros_like(below)
    high = plan.border.size > low  # a segment of runs bordering the upper cut
    high_part = cumulative[:, -1] - low_part if high else np.zeros_like(below)
    between = N - below - above - low_part - high_part  # the resampled middle runs
    before_high = below + low_part + between
    cumulative += below[:, None]
    cumulative[:, low:] += between[:, None]
    np.clip(cumulative, g, N - g, out=cumulative)
    value = plan.value[plan.border]
    step = value - np.append(value[1:], 0.0)
    if low:
        step[low - 1] = value[low - 1]
    kept = (cumulative * step).sum(axis=1) - (value[0] * np.clip(below, g, N - g) if low else 0.0)
    if high:
        kept -= value[low] * np.clip(before_high, g, N - g)
    means = (middle + kept) / (N - 2 * g)
    missed = (below > g) | (above > g)
    if plan.split:
        missed |= (below + low_part < g) | (above + high_part < g)
    if missed.any():
        exact = plan.exact()
        means[missed] = trimmed_means(exact, counts[missed], np.zeros((int(missed.sum()), 3)))
    return means
