"""Aggregate performance of several methods over many tasks, with stratified bootstrap intervals (Agarwal et
al. 2021, §4.1 and §4.3).

:func:`aggregate` gives the estimates of Agarwal et al., "Deep reinforcement learning at the edge of the
statistical precipice" (NeurIPS 2021; the rliable library): the mean and the median of each method's
per-task mean scores, and the interquartile mean (IQM) and the optimality gap of its (normalised) scores,
every run on every task pooled; and their 95% stratified bootstrap percentile intervals (§4.1), as rliable's
``get_interval_estimates`` computes them: the runs of each task are drawn again with replacement, every task
kept, and each estimate's interval is read off its resampled values (:mod:`benchtrust.compare._bootstrap`).
With ``task_bootstrap=True`` the tasks are drawn again too (:func:`bootstrap_chunks`), as rliable's
``task_bootstrap``; :mod:`._profiles`, :mod:`._improvement` and :mod:`._efficiency` share that resampling.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable

import numpy as np

from benchtrust._exact import exact_mean
from benchtrust._interval import Interval
from benchtrust._io import (
    MAX_MEMORY,
    InputError,
    Seed,
    check_memory,
    check_number,
    check_probability,
    check_seed,
)
from benchtrust._result import Description, Result
from benchtrust._words import (
    GAMMA,
    TIMES,
    aligned,
    interval_cell,
    interval_text,
    level_text,
    listed,
    paragraph,
)
from benchtrust.compare._bootstrap import (
    CHUNK_CELLS,
    FEW_RUNS,
    check_progress,
    check_resamples,
    group_progress,
    method_groups,
    percentile_interval,
    replicates_memory,
    resample_counts,
    stratified_values,
    trim_plan,
    trimmed_means,
)
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    normalisation_words,
    scores_files,
    scores_words,
)

__all__ = ["AggregateResult", "aggregate"]

PAPER = "Agarwal et al. 2021"
_SOURCE = (
    f"{PAPER}, deep reinforcement learning at the edge of the statistical precipice, §4.3 (estimates) and "
    "§4.1 (stratified bootstrap intervals)"
)
#: The estimates, in the order of the table, with their headers.
_ESTIMATES = {"mean": "mean", "median": "median", "iqm": "IQM", "optimality_gap": "optimality gap"}
#: rliable's number of resamples for interval estimates (``get_interval_estimates(reps=50000)``).
RESAMPLES = 50_000


@dataclasses.dataclass(frozen=True, eq=False)
class AggregateResult(Result):
    """Aggregate performance of each method over many tasks (Agarwal et al. 2021, §4.1, §4.3).

    Attributes
    ----------
    methods : tuple of str
        The methods, in the order of :attr:`TaskScores.methods`.
    mean, median, iqm, optimality_gap : numpy.ndarray
        One value per method: the mean and the median of its per-task mean scores; the IQM and the
        optimality gap of all its runs on all tasks pooled. ``optimality_gap`` is NaN where no target γ
        applies (raw scores and no `gamma` given).
    mean_ci, median_ci, iqm_ci, optimality_gap_ci : Interval
        The stratified bootstrap percentile interval of each estimate, ``(low, high)`` arrays with one end
        per method; NaN when ``resamples == 0`` (and for the optimality gap when it is not computed).
    rank : numpy.ndarray
        Each method's rank by IQM, 1 = best in `direction`; tied methods share the best of their ranks.
    runs : numpy.ndarray
        Each method's number of runs, over all tasks.
    single_run : numpy.ndarray
        True for a method with one run on every task (and, with the task bootstrap, one task): the bootstrap
        has nothing to resample, and its intervals are its point estimates.
    tasks : int
        The number of tasks.
    gamma : float or None
        γ, the target of the optimality gap; None when it is not computed.
    alpha : float
        α: the intervals have level 1 - α.
    resamples : int
        The number of stratified bootstrap resamples (0: point estimates only).
    seed : int or None
        The seed of the resamples, when one was given as an int.
    direction : {"higher", "lower"}
        Which scores are better.
    normalisation : {"none", "minmax", "reference"}
        How the scores were normalised (:func:`read_task_scores`).
    normalisation_text : str
        The normalisation in words.
    missing : int
        The number of (method, task) pairs with missing runs (see :attr:`TaskScores.missing`).
    task_bootstrap : bool
        True when the resamples drew the tasks again as well as the runs (rliable's ``task_bootstrap``).

    See Also
    --------
    aggregate : Mean, median, IQM and optimality gap over many tasks, with intervals.
    performance_profile : Run-score distributions with stratified bootstrap bands.
    improvement_probabilities : The probability of improvement of every method over every other.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1, §4.3.
    """

    methods: tuple[str, ...]
    mean: np.ndarray
    median: np.ndarray
    iqm: np.ndarray
    optimality_gap: np.ndarray
    mean_ci: Interval
    median_ci: Interval
    iqm_ci: Interval
    optimality_gap_ci: Interval
    rank: np.ndarray
    runs: np.ndarray
    single_run: np.ndarray
    tasks: int
    gamma: float | None
    alpha: float
    resamples: int
    seed: int | None
    direction: str
    normalisation: str
    normalisation_text: str
    missing: int
    task_bootstrap: bool = False

    @property
    def leaders(self) -> tuple[str, ...]:
        """The method(s) with the best IQM (more than one when tied)."""
        return tuple(m for m, r in zip(self.methods, self.rank, strict=True) if r == 1)

    def __repr__(self) -> str:
        iqm = ", ".join(f"{m}: {v:.4g}" for m, v in zip(self.methods, self.iqm, strict=True))
        return (
            f"AggregateResult(methods={len(self.methods)}, tasks={self.tasks}, direction={self.direction!r}, "
            f"normalisation={self.normalisation!r}, iqm={{{iqm}}}, leaders={list(self.leaders)}, "
            f"resamples={self.resamples})"
        )

    def _order(self):
        return np.argsort(self.rank, kind="stable")

    def _interval(self, key, i):
        ci = getattr(self, f"{key}_ci")
        return float(ci.low[i]), float(ci.high[i])

    def _gap_words(self):
        if self.gamma is None:
            return "optimality gap not computed (raw scores have no target; pass gamma)"
        if self.direction == "higher":
            return f"optimality gap = mean of max(0, {GAMMA} - score), {GAMMA} = {self.gamma:g}"
        return f"optimality gap = mean of max(0, score - {GAMMA}), {GAMMA} = {self.gamma:g}"

    def _interval_words(self):
        if not self.resamples:
            return "none (resamples=0): point estimates only"
        return (
            f"{level_text(self.alpha)} stratified bootstrap percentile intervals ({PAPER} §4.1: "
            f"{resampling_words(self.task_bootstrap)}), {self.resamples:,} resamples"
        )

    def describe(self) -> Description:
        """The estimates of every method, best IQM first, their intervals, then the verdict (Agarwal et al.
        2021, §4.1, §4.3)."""
        order = self._order()
        verdict = self.verdict
        level = f" [{level_text(self.alpha)} interval]" if self.resamples else ""
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text=self._text(order, verdict),
            data=self._data(order),
            columns=("rank", "method", "runs", *(f"{name}{level}" for name in _ESTIMATES.values())),
            rows=tuple(self._row(i) for i in order),
            frame=self._frame(order),
            assumptions=(
                ("direction", f"{self.direction} is better"),
                ("normalisation", self.normalisation_text),
                (f"{GAMMA}, optimality gap", "not computed" if self.gamma is None else f"{self.gamma:g}"),
                ("missing runs", "every method keeps the runs it has" if self.missing else "none"),
                ("intervals", self._interval_words()),
                ("seed", "none given" if self.seed is None else str(self.seed)),
            ),
            source=_SOURCE,
            inputs=self.inputs,
            analysis="compare aggregate",
        )

    def _text(self, order, verdict):
        """What the command prints: the estimates, their intervals and the verdict."""
        rows = [("rank", "method", "runs", *_ESTIMATES.values())]
        for i in order:
            cells = [_number(getattr(self, key)[i]) for key in _ESTIMATES]
            rows.append((str(int(self.rank[i])), self.methods[i], str(int(self.runs[i])), *cells))
        lines = [
            paragraph(
                f"Aggregate performance over {self.tasks} tasks ({PAPER} §4.3): mean and median of the "
                "per-task means; IQM = mean of the middle 50% of every run on every task pooled; "
                f"{self._gap_words()}; {self.direction} is better; normalisation: "
                f"{self.normalisation_text}. Intervals: {self._interval_words()}."
            ),
            "",
            *aligned(rows),
        ]
        if self.resamples:
            intervals = [(f"{level_text(self.alpha)} intervals", *_ESTIMATES.values())]
            for i in order:
                intervals.append((self.methods[i], *(self._interval_cell(key, i) for key in _ESTIMATES)))
            lines += ["", *aligned(intervals)]
        lines += ["", paragraph(verdict)]
        return "\n".join(lines)

    def _interval_cell(self, key, i):
        return interval_cell(*self._interval(key, i))

    def _iqm_words(self, i):
        """A method's IQM, with its interval when there is one: ``0.3366 (95% interval [0.3257, 0.3485])``."""
        if not self.resamples:
            return f"{self.iqm[i]:.4g}"
        return (
            f"{self.iqm[i]:.4g} ({level_text(self.alpha)} interval {interval_text(self._interval('iqm', i))})"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words: which method leads on IQM, and whether its interval overlaps the
        next method's (or that there are no intervals, or nothing to resample)."""
        what = f"IQM of the {scores_words(self.normalisation)}"
        missing = (
            f" {self.missing} method {TIMES} task pairs have missing runs; every method keeps the runs it "
            "has."
            if self.missing
            else ""
        )
        order = self._order()
        leader = order[0]
        if len(self.methods) == 1:
            head = (
                f"One method, {self.methods[leader]}: {what} {self._iqm_words(leader)} over {self.tasks} "
                f"tasks; nothing to compare it with."
            )
        else:
            head = self._lead_words(what, order)
        return " ".join(part for part in (head + missing, self._noise_words(order)) if part)

    def _lead_words(self, what, order):
        leaders = self.leaders
        setting = f"({len(self.methods)} methods, {self.tasks} tasks; {self.direction} is better)."
        best = float(self.iqm[order[0]])
        if len(leaders) == len(self.methods):
            return f"All {len(self.methods)} methods tie on the {what}: {best:.4g} {setting}"
        if len(leaders) > 1:
            return f"{listed(leaders)} tie for the lead on the {what}: {best:.4g} {setting}"
        leader, runner = order[0], order[1]
        return (
            f"{self.methods[leader]} leads on the {what}: {self._iqm_words(leader)}, against "
            f"{self._iqm_words(runner)} for {self.methods[runner]}, the next {setting}"
        )

    def _noise_words(self, order):
        """What the intervals say about the lead, in words."""
        if not self.resamples:
            return (
                "These are point estimates (resamples=0): without the stratified bootstrap intervals "
                f"({PAPER} §4.1) nothing says whether the differences exceed the noise of the runs."
            )
        single = [self.methods[i] for i in order if self.single_run[i]]
        words = []
        if single:
            has = "has" if len(single) == 1 else "have"
            words.append(
                f"{listed(single)} {has} one run per task: the stratified bootstrap has nothing to "
                "resample, so the intervals are single points that say nothing about the noise of the "
                "runs; more runs per task are needed to judge it."
            )
        if len(self.methods) > 1 and len(single) < len(self.methods):
            few = [self.methods[i] for i in order[:2] if self.runs[i] < FEW_RUNS]
            words.append(self._few_words(few) if few else self._overlap_words(order))
        return " ".join(words)

    def _few_words(self, few):
        counts = ", ".join(f"{name} {int(self.runs[self.methods.index(name)])}" for name in few)
        return (
            f"Too few runs to judge the lead ({counts} in all, fewer than {FEW_RUNS}): the bootstrap "
            "intervals are too rough to say whether it exceeds the noise of the runs; more runs are needed."
        )

    def _overlap_words(self, order):
        first, second = order[0], order[1]
        (low1, high1), (low2, high2) = self._interval("iqm", first), self._interval("iqm", second)
        names = f"{self.methods[first]} and {self.methods[second]}"
        if max(low1, low2) <= min(high1, high2):
            return (
                f"The IQM intervals of {names} overlap: these runs do not settle which of the two is "
                "better (overlapping intervals do not show that they are equal either). The probability "
                "of improvement (compare improvement) compares the two directly."
            )
        if self.task_bootstrap:
            noise = (
                f"the lead exceeds the noise of the runs and of the choice of tasks (the intervals resample "
                f"the {self.tasks} tasks as well as their runs)"
            )
        else:
            noise = (
                f"the lead exceeds the noise of the runs on these {self.tasks} tasks (the intervals "
                "resample runs, not tasks: other tasks could rank them differently)"
            )
        return (
            f"The IQM intervals of {names} do not overlap: {noise}. The probability of improvement "
            f"(compare improvement) says how often {self.methods[first]} beats {self.methods[second]} on a "
            "task."
        )

    def _row(self, i):
        """Method i's row of the section: each estimate with its interval."""

        def cell(key):
            value = _number(getattr(self, key)[i])
            interval = self._interval_cell(key, i) if self.resamples else "-"
            return value if interval == "-" else f"{value} {interval}"

        return (str(int(self.rank[i])), self.methods[i], str(int(self.runs[i])), *map(cell, _ESTIMATES))

    def _frame(self, order):
        """The columns of ``to_frame()``: one row per method, best IQM first: ``method``, ``runs``, each
        estimate followed by the ends of its interval (``mean``, ``mean_low``, ``mean_high``, ...
        ``optimality_gap_high``) and ``rank``."""
        columns = {"method": [self.methods[i] for i in order], "runs": self.runs[order]}
        for key in _ESTIMATES:
            ci = getattr(self, f"{key}_ci")
            columns.update(
                {key: getattr(self, key)[order], f"{key}_low": ci.low[order], f"{key}_high": ci.high[order]}
            )
        columns["rank"] = self.rank[order]
        return columns

    def _data(self, order):
        """``to_dict()`` before :func:`~benchtrust._result.jsonable` (None for what is not computed: an
        optimality gap without a target, the interval ends without resamples)."""
        return {
            "tasks": self.tasks,
            "direction": self.direction,
            "normalisation": self.normalisation,
            "gamma": self.gamma,
            "alpha": self.alpha,
            "resamples": self.resamples,
            "seed": self.seed,
            "missing": self.missing,
            "task_bootstrap": self.task_bootstrap,
            "leaders": list(self.leaders),
            "methods": [
                {
                    "method": self.methods[i],
                    "runs": self.runs[i],
                    "single_run": self.single_run[i],
                    **{
                        name: value
                        for key in _ESTIMATES
                        for name, value in zip(
                            (key, f"{key}_low", f"{key}_high"),
                            (getattr(self, key)[i], *self._interval(key, i)),
                            strict=True,
                        )
                    },
                    "rank": self.rank[i],
                }
                for i in order
            ],
        }


def resampling_words(task_bootstrap: bool) -> str:
    """What a resample draws, in words."""
    if task_bootstrap:
        return (
            "the tasks drawn again with replacement (task bootstrap), then the runs of each task drawn, "
            "with replacement"
        )
    return "the runs of every task drawn again with replacement, every task kept"


def _number(value) -> str:
    return "-" if np.isnan(value) else f"{value:.4f}"


def check_task_bootstrap(task_bootstrap: object, scores: TaskScores) -> bool:
    """`task_bootstrap` as a bool; an InputError when it is True and a method's runs differ from task to
    task (rliable's runs × tasks matrices have none: a resampled task copy must bring as many runs as the
    task it replaces, so that every resample pools as many runs)."""
    if not isinstance(task_bootstrap, (bool, np.bool_)):
        raise InputError(f"task_bootstrap: expected True or False, got {task_bootstrap!r:.60}")
    if task_bootstrap and scores.missing:
        first = scores.missing[0]
        raise InputError(
            f"task_bootstrap: method {first.method!r} has {first.runs} runs on task {first.task!r} and "
            f"{first.expected} on others; resampling tasks needs the same runs of a method on every task "
            f"(as rliable's runs {TIMES} tasks matrices): drop task_bootstrap, or give every task the same "
            "runs"
        )
    return bool(task_bootstrap)


def bootstrap_chunks(runs, resamples, rng, *, task_bootstrap=False, progress=None, cells=None):
    """Stratified bootstrap resamples, of runs within tasks or of tasks and then of runs within each task
    drawn (Agarwal et al. 2021, §4.1; rliable's ``task_bootstrap``), in chunks.

    Parameters
    ----------
    runs, resamples, rng, progress, cells
        As :func:`~benchtrust.compare._bootstrap.resample_counts`.
    task_bootstrap : bool, default False
        False: every task kept, its runs drawn again (``resample_counts``). True: the M tasks are drawn M
        times with replacement, then on each task drawn, as many runs as it has, with replacement, each copy
        of a task drawn on its own (as rliable's ``StratifiedBootstrap(task_bootstrap=True)``: a resampled
        column holds runs of one task, drawn with replacement).

    Yields
    ------
    counts : numpy.ndarray
        Shape (r, tasks, max n_t): how many times run k of task t is drawn in resample i, over every copy
        of the task (the pooled resample, for statistics of all runs pooled).
    copies : numpy.ndarray or None
        Shape (r, tasks): the task of each of the M draws of a resample; None without `task_bootstrap`.
    copy_counts : numpy.ndarray
        Shape (r, tasks, max n_t): the runs drawn on each task copy (`counts` without `task_bootstrap`).

    Examples
    --------
    >>> chunks = bootstrap_chunks([2, 2, 2], 3, np.random.default_rng(1), task_bootstrap=True)
    >>> counts, copies, copy_counts = next(chunks)
    >>> counts.sum(axis=(1, 2)).tolist(), copy_counts.sum(axis=2).tolist()[0]
    ([6.0, 6.0, 6.0], [2.0, 2.0, 2.0])
    """
    if not task_bootstrap:
        for counts in resample_counts(runs, resamples, rng, progress=progress, cells=cells):
            yield counts, None, counts
        return
    runs = np.asarray(runs, dtype=np.int64)
    tasks, width = runs.size, int(runs.max())
    rows = max(1, min(resamples, CHUNK_CELLS // max(tasks * width, cells or 0)))
    slot = np.arange(width)
    for first in range(0, resamples, rows):
        size = min(rows, resamples - first)
        copies = rng.integers(0, tasks, size=(size, tasks))
        drawn = copy_counts(runs[copies], width, rng)
        task_cell = ((np.arange(size)[:, None] * tasks + copies) * width)[..., None] + slot
        counts = np.bincount(task_cell.ravel(), drawn.ravel(), minlength=size * tasks * width)
        yield counts.reshape(size, tasks, width), copies, drawn
        if progress is not None:
            progress(first + size, resamples)


def copy_counts(runs, width, rng):
    """The runs drawn on each task copy: float64 counts of shape (*runs.shape, width), ``runs[..., c]`` of
    the `width` slots drawn with replacement, as many times (zero past them)."""
    runs = np.asarray(runs, dtype=np.int64)[..., None]
    drawn = rng.integers(0, np.broadcast_to(runs, (*runs.shape[:-1], width)))  # draw j: a run < n
    used = np.arange(width) < runs  # a copy draws as many runs as its task has
    cell = (np.arange(drawn.size // width) * width).reshape(*runs.shape[:-1], 1) + drawn
    counts = np.bincount(cell[used], minlength=drawn.size)
    return counts.reshape(drawn.shape).astype(np.float64)


def copy_sums(copies, copy_counts, values):
    """Σ_k c_k v_k on every task copy of every resample, for the values of several methods: shape (r,
    methods, tasks) from `values` (methods, tasks, max n_t) (zero past a task's runs) and a chunk of
    :func:`bootstrap_chunks`."""
    if copies is None:
        return np.einsum("rtw,mtw->rmt", copy_counts, values)
    return np.einsum("rcw,mrcw->rmc", copy_counts, values[:, copies])


def _resampled(scores, target, resamples, rng, progress, task_bootstrap=False):
    """The four estimates of every resample, of the scores oriented so that higher is better: shape
    (resamples, methods, 4) (Agarwal et al. 2021, §4.1; see :func:`stratified_values`).

    Methods with the same runs on every task share the resampled counts: each method's resamples are still
    a stratified bootstrap of its own runs (the intervals are per method), drawn once for all. With
    `task_bootstrap` the tasks are drawn again too (:func:`bootstrap_chunks`): the mean and median are then
    over the task copies drawn, the IQM and optimality gap over the runs of every copy pooled.
    """
    oriented, runs_per_task = stratified_values(scores)
    if target is not None and scores.direction == "lower":
        target = -target  # max(0, x - γ) = max(0, (-γ) - (-x))
    out = np.empty((resamples, len(scores.methods), 4))  # filled chunk by chunk: no page touched before
    groups = method_groups(runs_per_task)
    for number, (runs, members) in enumerate(groups):
        values = oriented[members][:, :, : runs.max()]  # (members, tasks, width)
        present = ~np.isnan(values)
        plans = [trim_plan(v) for v in values]
        if task_bootstrap:  # the plan's borders assume the tasks kept: drawn tasks move the cuts far more
            plans = [plan.exact() for plan in plans]
        per_task = np.where(present, values, 0.0) / runs[:, None]  # each task's mean, from its counts
        columns = [plan.weights for plan in plans]
        if target is not None:
            gaps = np.where(present, np.maximum(0.0, target - values), 0.0)  # NaN runs: no weight
            columns += [gap[..., None] for gap in gaps]
        weights = np.concatenate(columns, axis=2)
        weights = weights.reshape(-1, weights.shape[2])  # (tasks × width, 3 per plan + 1 per gap)
        first = 0
        report = group_progress(progress, number, len(groups), resamples)
        cells = len(members) * runs.size * int(runs.max()) if task_bootstrap else None
        chunks = bootstrap_chunks(
            runs, resamples, rng, task_bootstrap=task_bootstrap, progress=report, cells=cells
        )
        for counts, copies, copy_counts in chunks:
            rows = slice(first, first + counts.shape[0])
            sums = np.einsum("rk,kc->rc", counts.reshape(counts.shape[0], -1), weights)
            task_means = copy_sums(copies, copy_counts, per_task)
            out[rows, members, 0] = task_means.mean(axis=2)
            out[rows, members, 1] = np.median(task_means, axis=2)
            for j, (member, plan) in enumerate(zip(members, plans, strict=True)):
                out[rows, member, 2] = trimmed_means(plan, counts, sums[:, 3 * j : 3 * j + 3])
                gap = sums[:, 3 * len(plans) + j] / plan.runs if target is not None else np.nan
                out[rows, member, 3] = gap
            first = rows.stop
    return out


def _intervals(replicates, alpha, direction):
    """The percentile intervals of the oriented replicates, (low, high) arrays of shape (methods, 4), in
    the scores' units: for ``"lower"`` the location estimates are negated back, their ends swapped."""
    low, high = percentile_interval(replicates, alpha)
    if direction == "lower":
        location = slice(0, 3)  # mean, median, IQM; the optimality gap is not negated
        low[:, location], high[:, location] = -high[:, location], -low[:, location]
    return low, high


def aggregate(
    scores: TaskScores,
    *,
    gamma: float | None = None,
    alpha: float = 0.05,
    resamples: int = RESAMPLES,
    seed: Seed = None,
    task_bootstrap: bool = False,
    progress: Callable[[int, int], object] | None = None,
    max_memory: float = MAX_MEMORY,
) -> AggregateResult:
    """Mean, median, interquartile mean and optimality gap of each method, with stratified bootstrap
    intervals (Agarwal et al. 2021, §4.1, §4.3).

    As in the paper and its library rliable, for each method:

    * mean and median: of its per-task mean scores (the mean over its runs on each task), so that every
      task weighs the same;
    * IQM: the interquartile mean of its scores x on every run of every task pooled (rliable's runs × tasks
      matrix, flattened): the mean of the middle 50% (:func:`scipy.stats.trim_mean` with proportion 0.25:
      ⌊n/4⌋ scores cut from each end);
    * optimality gap: the mean over the pooled scores of max(0, γ - x) = γ - mean(min(x, γ)), the amount
      by which the method falls short of the target γ (lower is better). For ``direction="lower"`` it is
      the mean of max(0, x - γ), the amount by which the scores exceed the target.

    The default γ is the best normalised score: 1 for ``"reference"`` normalisation (human level) and for
    ``"minmax"`` with ``"higher"`` (the best run on the task), 0 for ``"minmax"`` with ``"lower"``. Raw
    scores (``"none"``) have no natural target: the gap is computed only when `gamma` is given.

    Intervals (§4.1): the stratified bootstrap of rliable's ``get_interval_estimates`` (its defaults:
    ``method="percentile"``, ``task_bootstrap=False``). A resample draws, on every task, as many runs as the
    method has there, with replacement, from that task's runs; every task is kept. The interval of an
    estimate is the α/2 and 1 - α/2 percentiles (linear interpolation, as :func:`numpy.percentile`) of its
    values over the resamples. It measures how much the estimate would move with other runs of the same
    methods on the same tasks, not with other tasks, and it takes the runs of a task to be independent
    (seeds): the folds of one cross-validation share their training data, and their intervals come out too
    narrow. A method with one run on every task has nothing to
    resample: its intervals are its point estimates. The resamples are computed without building a
    resampled data set (:mod:`benchtrust.compare._bootstrap`); methods with the same runs per task share
    them (each method's interval is still its own stratified bootstrap).

    Methods are ranked by IQM (the paper's recommended aggregate), the best in the scores' direction first.
    A method with missing runs on some tasks (see :func:`read_task_scores`) is aggregated over the runs it
    has, and resampled within them: its mean and median still weigh every task the same, while in its IQM
    and optimality gap a task with fewer runs weighs less.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`.
    gamma : float, optional
        γ, the target of the optimality gap, in the units of the (normalised) scores.
    alpha : float, default 0.05
        α: the intervals have level 1 - α.
    resamples : int, default 50,000
        The number of stratified bootstrap resamples (rliable's default); 0 for point estimates only.
        At least 1 + 2/α (41 at α = 0.05: :func:`~benchtrust.compare._bootstrap.minimum_resamples`), else an
        InputError naming the minimum.
    seed : int or numpy.random.Generator, optional
        The randomness of the resamples; an int reproduces them.
    task_bootstrap : bool, default False
        Draw the tasks again too (rliable's ``task_bootstrap=True``): each resample draws M tasks from the
        M with replacement, then the runs of each task drawn, with replacement, as above. The interval then
        also measures how much the estimate would move on another set of tasks from the same population;
        a method with one run per task gets an interval too. Needs the same runs of a method on every task.
    progress : callable, optional
        Called as ``progress(done, total)`` as the resamples are drawn (``total`` = `resamples`), after
        each chunk of them (a few MB: the chunks never change the result).
    max_memory : int, default 2e9
        The most bytes the resampled estimates may take (all are kept for the percentiles: 8 × `resamples`
        × (4 × methods + 1)); more is refused with an InputError naming this option, before any draw.

    Returns
    -------
    AggregateResult

    See Also
    --------
    AggregateResult : Mean, median, IQM and optimality gap of each method, with intervals.
    performance_profile : Run-score distributions with stratified bootstrap bands.
    improvement_probabilities : The probability of improvement of every method over every other.
    read_task_scores : Read the scores of several methods on many tasks.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1 (stratified bootstrap intervals),
       §4.3 (IQM, optimality gap).

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> atari = bundled_task_scores("atari100k")
    >>> result = aggregate(atari, resamples=2000, seed=0)
    >>> result.to_frame()[["method", "runs", "iqm", "iqm_low", "iqm_high", "rank"]].round(2).head(3)
         method  runs   iqm  iqm_low  iqm_high  rank
    0       SPR  2600  0.34     0.33      0.35     1
    1  DrQ(eps)  2600  0.28     0.27      0.29     2
    2       DrQ  2600  0.22     0.22      0.23     3
    >>> result.leaders
    ('SPR',)
    """
    check_task_scores(scores)
    if gamma is not None:
        target = check_number(gamma, "gamma")
    elif scores.normalisation == "none":
        target = None  # raw scores: no natural target
    else:
        target = 1.0 if scores.direction == "higher" else 0.0
    alpha = check_probability(alpha, "alpha")
    resamples = check_resamples(resamples, alpha)
    rng = check_seed(seed)
    task_bootstrap = check_task_bootstrap(task_bootstrap, scores)
    progress = check_progress(progress)
    n = len(scores.methods)
    check_memory(
        replicates_memory(resamples, 4 * n),
        max_memory,
        f"resamples={resamples:,} of {4 * n} estimates ({n} methods {TIMES} 4)",
    )
    if progress is not None and resamples:
        progress(0, resamples)  # counted from the start
    estimates = {key: np.full(n, np.nan) for key in _ESTIMATES}
    # sums correctly rounded (exact_mean): equal runs in another order give equal estimates, exactly
    task_means = exact_mean(scores.scores, axis=2)  # every method has a run on every task
    estimates["mean"] = exact_mean(task_means, axis=1)
    estimates["median"] = np.median(task_means, axis=1)
    runs = np.zeros(n, dtype=np.int64)
    for i in range(n):  # a few methods; each pooled over its runs × tasks
        x = np.sort(scores.scores[i][~np.isnan(scores.scores[i])])
        runs[i] = x.size
        cut = x.size // 4  # as scipy.stats.trim_mean(x, 0.25)
        estimates["iqm"][i] = exact_mean(x[cut : x.size - cut])
        if target is not None:
            shortfall = target - x if scores.direction == "higher" else x - target
            estimates["optimality_gap"][i] = exact_mean(np.maximum(0.0, shortfall))
    iqm = -estimates["iqm"] if scores.direction == "higher" else estimates["iqm"]  # the lowest is the best
    # as scipy.stats.rankdata(iqm, method="min"): 1 + the number of methods strictly better
    rank = np.searchsorted(np.sort(iqm), iqm, side="left").astype(np.int64) + 1
    # nothing to resample: one run on every task, and one task or the tasks kept
    fixed = (scores.runs_per_task == 1).all(axis=1) & (not task_bootstrap or len(scores.tasks) == 1)

    intervals = {key: Interval(np.full(n, np.nan), np.full(n, np.nan)) for key in _ESTIMATES}
    if resamples:
        replicates = _resampled(scores, target, resamples, rng, progress, task_bootstrap)
        low, high = _intervals(replicates, alpha, scores.direction)
        for k, key in enumerate(_ESTIMATES):
            point = estimates[key]
            # nothing to resample: the interval is the point (not the point up to rounding)
            ends = [np.where(fixed, point, end[:, k]) for end in (low, high)]
            intervals[key] = Interval(*ends)
    return AggregateResult(
        methods=scores.methods,
        mean=estimates["mean"],
        median=estimates["median"],
        iqm=estimates["iqm"],
        optimality_gap=estimates["optimality_gap"],
        mean_ci=intervals["mean"],
        median_ci=intervals["median"],
        iqm_ci=intervals["iqm"],
        optimality_gap_ci=intervals["optimality_gap"],
        rank=rank,
        runs=runs,
        single_run=fixed,
        tasks=len(scores.tasks),
        gamma=target,
        alpha=alpha,
        resamples=resamples,
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        direction=scores.direction,
        normalisation=scores.normalisation,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        missing=len(scores.missing),
        task_bootstrap=task_bootstrap,
        inputs=scores_files(scores),
    )
