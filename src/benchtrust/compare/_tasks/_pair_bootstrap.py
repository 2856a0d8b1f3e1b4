"""The stratified bootstrap of P(X > Y) for pairs of methods, resampled or exact (Agarwal et al. 2021, §4.1).

Each resample draws the runs of every method on every task again and recomputes P(X > Y) of every pair:
:func:`pair_estimates` gives the per-task estimates and the percentile interval of their average, shared by
:func:`~benchtrust.compare.improvement_probabilities` and :func:`~benchtrust.compare.effect_sizes`.

When run k of every method on a task shares its data split or seed (the folds of a cross-validation, say),
the runs can be compared in pairs instead: P(X_m > Y_m) = (1/K_m) Σ_k S(x_{m,k}, y_{m,k}), the P(A > B) of
Bouthillier et al. (2021, Eq. 9) on each task. The stratified bootstrap then draws the K_m pairs of each
task again, and the distribution of the resampled average is known exactly: on task m the mean of K_m draws
of the win (1), tie (1/2) and loss (0) indicators is S_m / (2 K_m), where S_m has the generating function
(l_m + t_m z + w_m z²)^{K_m} (l_m, t_m, w_m: the shares of losses, ties and wins), and the tasks are drawn
independently, so the generating function of the average is the product over tasks. The product is
evaluated at the roots of unity and one inverse FFT turns it into the probability of every attainable
average: the interval read off it is the limit of the resampled interval as the resamples grow.
"""

from __future__ import annotations

import math

import numpy as np

from benchtrust._io import MAX_MEMORY, InputError, check_memory
from benchtrust.compare._bootstrap import percentile_interval, replicates_memory, resample_counts
from benchtrust.compare._pipelines._outperform import TAIL_TOLERANCE
from benchtrust.compare._tasks._scores import TaskScores

#: Resamples of the stratified bootstrap when its interval is not computed exactly (all pairs of runs).
RESAMPLES = 10_000
#: Most elements of the arrays one chunk of resamples holds.
_CHUNK_ELEMENTS = 2**21
#: Most attainable averages for the exact distribution of paired runs; beyond, it is resampled.
_LATTICE_LIMIT = 2**22


def check_paired(paired):
    """`paired`: None, True or False, or an InputError."""
    if paired is not None and not isinstance(paired, (bool, np.bool_)):
        raise InputError(f"paired: expected None, True or False, got {paired!r}")
    return None if paired is None else bool(paired)


def require_pairs(scores: TaskScores, methods) -> None:
    """An InputError unless `methods` (indices) have the same run labels on every task."""
    labels = scores.run_labels[list(methods)]
    for i, j in np.argwhere(np.any(labels != labels[:1], axis=2)):
        first, other = scores.methods[methods[0]], scores.methods[methods[i]]
        raise InputError(
            f"paired: the runs of {other!r} on task {scores.tasks[j]!r} do not have the same labels as those "
            f"of {first!r}; paired runs need the same run labels for every method on each task (run k of "
            "every method shares its data split or seed); pass paired=False to compare all pairs of runs"
        )


def oriented(scores: TaskScores) -> np.ndarray:
    """The scores with higher = better: negated when lower is better."""
    return scores.scores if scores.direction == "higher" else -scores.scores


def run_codes(values):
    """Integer codes of the runs, sorted within each (method, task): (methods, tasks, runs) int64.

    Equal scores on a task share a code and a better score has a larger one; every code of task j is below
    every code of task j + 1, and a missing run gets the top code of its task (above every run), so that
    the runs of one method, flattened task after task, are sorted.
    """
    n_methods, n_tasks, n_runs = values.shape
    pooled = values.transpose(1, 0, 2).reshape(n_tasks, -1)
    order = np.argsort(pooled, axis=1, kind="stable")  # NaN last
    ranked = np.take_along_axis(pooled, order, axis=1)
    new = np.ones(ranked.shape, dtype=np.int64)
    new[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
    dense = np.empty(pooled.shape, dtype=np.int64)
    np.put_along_axis(dense, order, np.cumsum(new, axis=1) - 1, axis=1)
    top = pooled.shape[1]
    dense[np.isnan(pooled)] = top
    codes = dense + (top + 1) * np.arange(n_tasks)[:, None]
    return np.sort(codes.reshape(n_tasks, n_methods, n_runs).transpose(1, 0, 2), axis=2)


def run_positions(x, y):
    """For each run of X (its codes, tasks × runs): the runs of Y on its task below it, and at most it.

    Both are counts of Y's sorted runs, so they are positions in Y's sorted runs: 0 .. runs.
    """
    n_tasks, n_runs = y.shape
    flat = y.ravel()  # sorted: codes grow from task to task, and within a task
    start = (n_runs * np.arange(n_tasks))[:, None]
    return np.searchsorted(flat, x, side="left") - start, np.searchsorted(flat, x, side="right") - start


def _resampled_counts(runs, size, rng):
    """How often each run of each cell (a method on a task; or a task, its pairs drawn together) is drawn in
    `size` stratified bootstrap resamples: float64 (size, cells, most runs), every cell its own stratum."""
    return np.concatenate(list(resample_counts(runs, size, rng)))


def _chunks(resamples, per_resample):
    """Sizes of the chunks of resamples, each at most :data:`_CHUNK_ELEMENTS` elements."""
    step = max(1, _CHUNK_ELEMENTS // per_resample)
    return [min(step, resamples - first) for first in range(0, resamples, step)]


def _unpaired_resamples(codes, runs, pairs, resamples, rng, report):
    """P(X > Y) over all pairs of runs of every pair (X, Y), on each stratified bootstrap resample.

    Each resample draws the runs of every method on every task again (one draw serves all pairs); P(X > Y)
    of a resample is (1/M) Σ_m Σ_p c_p F*(x_p) / (N_m K_m), the c_p the times X's sorted run p was drawn
    and F*(x) the drawn runs of Y below x plus half those equal to it, read off Y's cumulative counts at
    :func:`run_positions`. Returns (pairs, resamples).
    """
    n_methods, n_tasks, n_runs = codes.shape
    # Flat positions in Y's cumulative counts of one resample, (tasks, runs + 1) flattened.
    start = ((n_runs + 1) * np.arange(n_tasks))[:, None]
    positions = []
    for i, j in pairs:
        lower, upper = run_positions(codes[i], codes[j])
        positions.append(np.concatenate([(lower + start).ravel(), (upper + start).ravel()]))
    weight = 0.5 / (runs[:, None, :] * runs[None, :, :])  # (methods, methods, tasks)
    out = np.empty((len(pairs), resamples))
    first = 0
    sizes = _chunks(resamples, 3 * n_methods * n_tasks * (n_runs + 1))
    for done, size in enumerate(sizes, start=1):
        drawn = _resampled_counts(runs.ravel(), size, rng).reshape(size, n_methods, n_tasks, n_runs)
        below = np.zeros((size, n_methods, n_tasks, n_runs + 1))
        np.cumsum(drawn, axis=3, out=below[..., 1:])
        below = below.reshape(size, n_methods, -1)
        for k, (i, j) in enumerate(pairs):
            both = np.take(below[:, j], positions[k], axis=1).reshape(size, 2, n_tasks, n_runs)
            per_task = np.einsum("str,sqtr->st", drawn[:, i], both, dtype=np.float64)
            out[k, first : first + size] = (per_task * weight[i, j]).mean(axis=1)
        first += size
        report(done, len(sizes))
    return out


def _paired_halves(values, pairs):
    """The win (2), tie (1) and loss (0) indicators in halves of every pair, run by run: int8 array."""
    x = values[[i for i, _ in pairs]]
    y = values[[j for _, j in pairs]]
    return (2 * (x > y) + (x == y)).astype(np.int8)


def _paired_resamples(halves, runs, resamples, rng, report):
    """P(X > Y) over paired runs of every pair, on each stratified bootstrap resample: (pairs, resamples).

    Each resample draws the pairs of runs of each task again, the same draws for every pair of methods.
    """
    n_pairs, n_tasks, n_runs = halves.shape
    out = np.empty((n_pairs, resamples))
    first = 0
    sizes = _chunks(resamples, (n_pairs + 1) * n_tasks * n_runs)
    for done, size in enumerate(sizes, start=1):
        drawn = _resampled_counts(runs, size, rng)
        per_task = np.einsum("str,ptr->pst", drawn, halves, dtype=np.float64)
        out[:, first : first + size] = (per_task / (2 * runs)).mean(axis=2)
        first += size
        report(done, len(sizes))
    return out


def lattice_top(runs) -> int:
    """d = 2 M lcm(K_m): the averages over tasks of paired indicators are s / d, s = 0..d (a Python int:
    the lcm of many different K_m can exceed int64)."""
    return 2 * math.lcm(*(int(k) for k in np.unique(runs))) * len(runs)


def paired_distributions(wins, ties, runs, report=None):
    """The exact distributions of the stratified bootstrap average over tasks of paired indicators.

    Parameters
    ----------
    wins, ties : array_like of int, shape (pairs, tasks)
        W_m and T_m of each pair of methods on each task: the pairs of runs won and tied.
    runs : array_like of int, shape (tasks,)
        K_m, the pairs of runs on each task.
    report : callable, optional
        Called as ``report(done, total)`` after each pair.

    Yields
    ------
    numpy.ndarray
        For each pair, P(average = s / d), s = 0..d, with d = :func:`lattice_top` (runs).

    Notes
    -----
    With D = lcm(K_m), the resampled mean of task m, S_m / (2 K_m), is (D / K_m) S_m / (2 D), so the
    average over the M tasks is Σ_m (D / K_m) S_m / d. Its generating function is
    Π_m (l_m + t_m u_m + w_m u_m²)^{K_m}, u_m = z^{D/K_m}, a polynomial of degree d. At the d + 1 roots of
    unity z_k = exp(-2πik / (d + 1)) its values are the discrete Fourier transform of the probabilities,
    which ``numpy.fft.irfft`` inverts. Each factor is raised to its power K_m by repeated squaring: the
    factors have modulus at most 1, so nothing overflows, and what underflows (below 1e-308) weighs nothing
    in the probabilities. The rounding errors of the FFT (about 1e-16 times the largest probability) are
    clipped at 0.
    """
    wins, ties = (np.atleast_2d(np.asarray(v, dtype=np.int64)) for v in (wins, ties))
    runs = np.asarray(runs, dtype=np.int64)
    top = lattice_top(runs)
    length = top + 1
    k = np.arange(length // 2 + 1)
    common = top // (2 * runs.size)
    # u = z^(D/K) for each distinct K, and the tasks with that K.
    groups = [
        ((int(K), np.exp(((common // K) * k % length) * (-2j * np.pi / length))), np.flatnonzero(runs == K))
        for K in np.unique(runs)
    ]
    block = max(1, _CHUNK_ELEMENTS // k.size)
    for p in range(wins.shape[0]):
        transform = np.ones(k.size, dtype=complex)
        for (K, u), tasks in groups:
            for first in range(0, tasks.size, block):  # tasks in blocks, to bound memory
                part = tasks[first : first + block]
                w, t = wins[p, part][:, None] / K, ties[p, part][:, None] / K
                transform *= _power((1 - w - t) + u * (t + w * u), K).prod(axis=0)
        if report is not None:
            report(p + 1, wins.shape[0])
        yield np.clip(np.fft.irfft(transform, n=length), 0.0, None)


def _power(base, exponent):
    """`base` ** `exponent` (a positive int) by repeated squaring, element by element."""
    result = None
    while exponent:
        if exponent & 1:
            result = base if result is None else result * base
        exponent >>= 1
        if exponent:
            base = base * base
    return result


def lattice_interval(pmf, top, alpha):
    """The percentile interval of the distribution P(s / top) = pmf[s]: the smallest x with P(<= x) >= α/2
    and the largest with P(>= x) >= α/2 (α/2 lowered by the relative TAIL_TOLERANCE, so that rounding can
    only widen it)."""
    target = alpha / 2 * (1 - TAIL_TOLERANCE)
    below = np.cumsum(pmf)
    above = np.cumsum(pmf[::-1])[::-1]
    low = int(np.argmax(below >= target))
    high = top - int(np.argmax(above[::-1] >= target))
    return low / top, high / top


def pair_estimates(values, runs, pairs, *, paired, alpha, resamples, rng, report, max_memory=MAX_MEMORY):
    """P(X > Y) of each pair (x, y) of `pairs` on each task, and the ends of the interval of its average.

    Parameters
    ----------
    values : numpy.ndarray
        The scores, higher = better, (methods, tasks, runs), NaN for missing runs (paired: none, and the
        runs aligned).
    runs : numpy.ndarray
        The runs of each method on each task, (methods, tasks).
    pairs : list of (int, int)
        Indices of the methods X and Y.
    paired : bool
        Compare run k with run k (True) or all pairs of runs (False).
    alpha, resamples, rng, report
        As :func:`improvement_probabilities` takes them (`report` is its `progress`, or a no-op).
    max_memory : int, default 2e9
        The most bytes the resampled averages may take (all are kept for the percentiles: 8 × B ×
        (pairs + 1)); more is refused with an InputError naming it, before any draw.

    Returns
    -------
    task_p : numpy.ndarray
        (pairs, tasks).
    lows, highs : numpy.ndarray
        (pairs,); NaN where there is one run of each method on every task (one pair of runs, paired).
    resamples : int or None
        B, the resamples drawn; None for the exact interval (see :func:`method_words`).
    """
    values = values[:, :, : int(runs.max())]  # no room for runs that only other methods have
    if paired:
        halves = _paired_halves(values, pairs)
        task_p = halves.sum(axis=2) / (2 * runs[0])
        lows, highs, resamples = _paired_intervals(halves, runs[0], alpha, resamples, rng, report, max_memory)
        little = np.full(len(pairs), bool(np.all(runs[0] == 1)))
    else:
        codes = run_codes(values)
        task_p = np.empty((len(pairs), values.shape[1]))
        valid = np.arange(codes.shape[2]) < runs[:, :, None]  # (methods, tasks, runs)
        for k, (i, j) in enumerate(pairs):
            lower, upper = run_positions(codes[i], codes[j])
            task_p[k] = ((lower + upper) * valid[i]).sum(axis=1) / (2 * runs[i] * runs[j])
        resamples = RESAMPLES if resamples is None else resamples
        _check_memory(resamples, len(pairs), max_memory)
        lows, highs = percentile_interval(
            _unpaired_resamples(codes, runs, pairs, resamples, rng, report).T, alpha
        )
        single = np.all(runs == 1, axis=1)
        little = np.array([single[i] and single[j] for i, j in pairs], dtype=bool)
    return task_p, np.where(little, np.nan, lows), np.where(little, np.nan, highs), resamples


def _paired_intervals(halves, runs, alpha, resamples, rng, report, max_memory):
    """The intervals of every pair of paired runs, and the resamples drawn: exact (None) when `resamples`
    is None and the lattice fits."""
    if resamples is None and lattice_top(runs) <= _LATTICE_LIMIT:
        top = lattice_top(runs)
        wins, ties = (halves == 2).sum(axis=2), (halves == 1).sum(axis=2)
        ends = [lattice_interval(pmf, top, alpha) for pmf in paired_distributions(wins, ties, runs, report)]
        lows, highs = np.array(ends).reshape(-1, 2).T
        return lows, highs, None
    resamples = RESAMPLES if resamples is None else resamples
    _check_memory(resamples, halves.shape[0], max_memory)
    lows, highs = percentile_interval(_paired_resamples(halves, runs, resamples, rng, report).T, alpha)
    return lows, highs, resamples


def _check_memory(resamples, pairs, max_memory):
    """InputError naming ``max_memory`` when the resampled averages of `pairs` pairs exceed it."""
    what = f"resamples={resamples:,} of {pairs} pair{'s' * (pairs != 1)} of methods"
    check_memory(replicates_memory(resamples, pairs), max_memory, what)


def method_words(resamples) -> str:
    """How an interval was computed: ``"exact"`` (`resamples` None) or ``"resampled, B resamples"``."""
    return "exact" if resamples is None else f"resampled, {resamples:,} resamples"
