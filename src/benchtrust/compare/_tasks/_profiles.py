"""Performance profiles: the run-score distributions of several methods over many tasks, with stratified
bootstrap bands (Agarwal et al. 2021, §4.2).

The performance profile of a method (its run-score distribution) is, for every threshold τ, the fraction of
its runs that score better than τ, averaged over the tasks:

    F(τ) = (1/M) Σ_m (1/N_m) Σ_n [x_{m,n} > τ]     (for "lower is better": [x_{m,n} < τ])

over the M tasks and the N_m runs on task m. With the same number of runs on every task it is the fraction
of all runs, as rliable's ``create_performance_profile`` (its default ``use_score_distribution=True``)
computes it; every task weighs the same when some runs are missing. A profile above another at every τ
(stochastic dominance) is better whatever the threshold. The band at each τ is the stratified bootstrap
percentile interval (§4.1; rliable's defaults ``method="percentile"``, ``task_bootstrap=False``).

``kind="tasks"`` gives the other profile of rliable (``use_score_distribution=False``), the average-score
distribution: the fraction of the tasks whose mean score over the runs is better than τ. ``task_bootstrap``
draws the tasks again too (:func:`~benchtrust.compare._tasks._aggregate.bootstrap_chunks`).
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import numpy as np

from benchtrust._io import MAX_MEMORY, InputError, Seed, check_memory, check_probability, check_seed
from benchtrust._result import Description, Result
from benchtrust._words import TIMES, aligned, interval_text, level_text, listed, paragraph
from benchtrust.compare._bootstrap import (
    check_progress,
    check_resamples,
    group_progress,
    method_groups,
    percentile_interval,
    replicates_memory,
    stratified_values,
)
from benchtrust.compare._tasks._aggregate import (
    bootstrap_chunks,
    check_task_bootstrap,
    copy_sums,
    resampling_words,
)
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    normalisation_words,
    scores_files,
    scores_words,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from numpy.typing import ArrayLike

__all__ = ["ProfileResult", "performance_profile", "plot_performance_profile"]

PAPER = "Agarwal et al. 2021"
_SOURCE = (
    f"{PAPER}, deep reinforcement learning at the edge of the statistical precipice, §4.2 (performance "
    "profiles) and §4.1 (stratified bootstrap bands)"
)
#: The thresholds of the default profile: evenly spaced from the lowest score to the highest.
THRESHOLDS = 101
#: The most thresholds the text table shows (to_frame has them all).
_SHOWN = 5


@dataclasses.dataclass(frozen=True, eq=False)
class ProfileResult(Result):
    """Performance profiles with stratified bootstrap bands (Agarwal et al. 2021, §4.1-4.2).

    Attributes
    ----------
    methods : tuple of str
        The methods, in the order of :attr:`TaskScores.methods`.
    thresholds : numpy.ndarray
        τ, increasing.
    fraction : numpy.ndarray
        Shape (methods, thresholds): for ``kind="runs"``, the fraction of each method's runs better than τ
        (above τ for ``"higher"``, below for ``"lower"``), averaged over the tasks; for ``kind="tasks"``,
        the fraction of the tasks whose mean score over the method's runs is better than τ.
    low, high : numpy.ndarray
        The ends of the stratified bootstrap percentile band at each τ, same shape; NaN when
        ``resamples == 0``.
    runs : numpy.ndarray
        Each method's number of runs, over all tasks.
    single_run : numpy.ndarray
        True for a method with one run on every task (and, with the task bootstrap, one task): nothing to
        resample, its band is its profile.
    tasks : int
        The number of tasks.
    alpha : float
        α: the bands have level 1 - α at each threshold (pointwise, not for the whole curve).
    resamples : int
        The number of stratified bootstrap resamples (0: no bands).
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
    kind : {"runs", "tasks"}
        The score distribution (runs) or the average-score distribution (tasks' mean scores).
    task_bootstrap : bool
        True when the resamples drew the tasks again as well as the runs (rliable's ``task_bootstrap``).

    See Also
    --------
    performance_profile : Run-score distributions with stratified bootstrap bands.
    plot_performance_profile : Draw the performance profiles with their bands.
    aggregate : Mean, median, IQM and optimality gap over many tasks, with intervals.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1-4.2.
    """

    methods: tuple[str, ...]
    thresholds: np.ndarray
    fraction: np.ndarray
    low: np.ndarray
    high: np.ndarray
    runs: np.ndarray
    single_run: np.ndarray
    tasks: int
    alpha: float
    resamples: int
    seed: int | None
    direction: str
    normalisation: str
    normalisation_text: str
    missing: int
    kind: str = "runs"
    task_bootstrap: bool = False

    @property
    def what(self) -> str:
        """What the profile counts: ``"runs"``, or ``"tasks' mean scores"``."""
        return "runs" if self.kind == "runs" else "tasks' mean scores"

    def __repr__(self) -> str:
        return (
            f"ProfileResult(methods={len(self.methods)}, tasks={self.tasks}, "
            f"thresholds={self.thresholds.size}, direction={self.direction!r}, "
            f"normalisation={self.normalisation!r}, resamples={self.resamples})"
        )

    @property
    def better(self) -> str:
        """What a fraction counts, in words: ``score > τ`` or ``score < τ``."""
        return "score > τ" if self.direction == "higher" else "score < τ"

    @property
    def order(self) -> np.ndarray:
        """The methods by the mean of their profile over the thresholds, the largest first."""
        return np.argsort(-self.fraction.mean(axis=1), kind="stable")

    @property
    def on_top(self) -> tuple[str, ...]:
        """The methods whose profile is never below another's at any threshold (none when they cross)."""
        return tuple(self.methods[i] for i in self.order if (self.fraction[i] >= self.fraction).all())

    def _shown(self):
        """The indices of the thresholds the text table shows: at most 5, evenly spread."""
        count = min(self.thresholds.size, _SHOWN)
        return np.unique(np.linspace(0, self.thresholds.size - 1, count).round().astype(int))

    def _rows(self):
        rows = []
        for k in self._shown():
            for i in self.order:
                band = "-" if np.isnan(self.low[i, k]) else interval_text((self.low[i, k], self.high[i, k]))
                rows.append(
                    (f"{self.thresholds[k]:.4g}", self.methods[i], f"{self.fraction[i, k]:.4f}", band)
                )
        return rows

    def _columns(self):
        fraction = f"fraction of {self.what} with {self.better}"
        return ("τ", "method", fraction, f"{level_text(self.alpha)} band")

    def _band_words(self):
        if not self.resamples:
            return "none (resamples=0)"
        return (
            f"pointwise {level_text(self.alpha)} stratified bootstrap percentile intervals ({PAPER} §4.1: "
            f"{resampling_words(self.task_bootstrap)}), {self.resamples:,} resamples"
        )

    def describe(self) -> Description:
        """The profiles at up to 5 thresholds, with their bands, then the verdict (Agarwal et al. 2021,
        §4.2)."""
        verdict = self.verdict
        rows = self._rows()
        text = [
            paragraph(
                f"Performance profiles over {self.tasks} tasks ({PAPER} §4.2): at each threshold τ, "
                f"{self._profile_words()} ({scores_words(self.normalisation)}; {self.direction} is "
                f"better); {self.thresholds.size} thresholds "
                f"from {self.thresholds[0]:.4g} to {self.thresholds[-1]:.4g} (to_frame() has them all); "
                f"normalisation: {self.normalisation_text}. Bands: {self._band_words()}."
            ),
            "",
            *aligned([self._columns(), *rows]),
            "",
            paragraph(verdict),
        ]
        methods, k = len(self.methods), self.thresholds.size
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(text),
            data={
                "tasks": self.tasks,
                "direction": self.direction,
                "normalisation": self.normalisation,
                "alpha": self.alpha,
                "resamples": self.resamples,
                "seed": self.seed,
                "missing": self.missing,
                "kind": self.kind,
                "task_bootstrap": self.task_bootstrap,
                "thresholds": self.thresholds,
                "on_top": self.on_top,
                "methods": [
                    {
                        "method": method,
                        "runs": self.runs[i],
                        "single_run": self.single_run[i],
                        "fraction": self.fraction[i],
                        "low": self.low[i],
                        "high": self.high[i],
                    }
                    for i, method in enumerate(self.methods)
                ],
            },
            columns=self._columns(),
            rows=tuple(rows),
            frame={
                "method": np.repeat(np.asarray(self.methods, dtype=object), k),
                "threshold": np.tile(self.thresholds, methods),
                "fraction": self.fraction.ravel(),
                "low": self.low.ravel(),
                "high": self.high.ravel(),
            },
            notes=(f"{self.thresholds.size} thresholds; the table shows at most {_SHOWN}.",),
            figure=lambda: plot_performance_profile(self),
            assumptions=(
                ("direction", f"{self.direction} is better"),
                ("normalisation", self.normalisation_text),
                ("missing runs", "every task weighs the same" if self.missing else "none"),
                ("bands", self._band_words()),
                ("seed", "none given" if self.seed is None else str(self.seed)),
            ),
            source=_SOURCE,
            inputs=self.inputs,
            analysis="compare profile",
        )

    def _profile_words(self):
        if self.kind == "runs":
            return f"the fraction of a method's runs with {self.better}, averaged over the tasks"
        return (
            f"the fraction of the tasks on which the mean of a method's runs has {self.better}, the "
            "average-score distribution"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words: whether one profile is on top at every threshold, and where the
        bands of the two best methods separate."""
        missing = (
            f" {self.missing} method {TIMES} task pairs have missing runs; every task weighs the same."
            if self.missing
            else ""
        )
        span = f"{self.thresholds.size} thresholds from {self.thresholds[0]:.4g} to {self.thresholds[-1]:.4g}"
        if len(self.methods) == 1:
            head = (
                f"One method, {self.methods[0]}: the fraction of its {self.what} with {self.better} goes "
                f"from {self.fraction[0, 0]:.4g} to {self.fraction[0, -1]:.4g} over {span}; nothing to "
                "compare it with."
            )
        else:
            head = self._dominance_words(span)
        return " ".join(part for part in (head + missing, self._noise_words()) if part)

    def _dominance_words(self, span):
        top = self.on_top
        if len(top) == len(self.methods):
            return f"All {len(self.methods)} profiles are equal at the {span}."
        if top:
            has = "s are" if len(top) > 1 else " is"
            return (
                f"{listed(top)}'s profile{has} never below another method's at the {span}: whatever the "
                f"threshold, at least as large a fraction of {'their' if len(top) > 1 else 'its'} "
                f"{self.what} has {self.better} ({self.direction} is better)."
            )
        return (
            f"The profiles cross at the {span}: no method has at least as large a fraction of {self.what} "
            f"with {self.better} at every threshold, so which is better depends on the threshold (see the "
            "plot)."
        )

    def _noise_words(self):
        if not self.resamples:
            return (
                "Without bands (resamples=0) nothing says whether the differences exceed the noise of the "
                "runs."
            )
        words = []
        single = [self.methods[i] for i in self.order if self.single_run[i]]
        if single:
            has = "has" if len(single) == 1 else "have"
            words.append(
                f"{listed(single)} {has} one run per task: the stratified bootstrap has nothing to "
                "resample, so the bands are the profiles themselves and say nothing about the noise of the "
                "runs."
            )
        if len(self.methods) > 1 and len(single) < len(self.methods):
            first, second = self.order[0], self.order[1]
            apart = (self.low[first] > self.high[second]) | (self.low[second] > self.high[first])
            words.append(
                f"The bands of {self.methods[first]} and {self.methods[second]} (the two largest profiles "
                f"on average) are apart at {int(apart.sum())} of the {self.thresholds.size} thresholds; "
                "where they overlap, these runs do not separate the two (which does not show them equal)."
            )
        return " ".join(words)


def _thresholds(thresholds: ArrayLike | None, scores: TaskScores) -> np.ndarray:
    """τ as an increasing array without repeats; by default 101 from the lowest score to the highest."""
    if thresholds is None:
        return np.linspace(np.nanmin(scores.scores), np.nanmax(scores.scores), THRESHOLDS)
    try:
        values = np.asarray(thresholds, dtype=np.float64).ravel()
    except (TypeError, ValueError):
        values = np.array([np.nan])
    if values.size == 0 or not np.isfinite(values).all():
        raise InputError(f"thresholds: expected finite numbers, got {thresholds!r:.60}")
    return np.unique(values)


def _worse_counts(values, thresholds):
    """How many of each task's runs (oriented scores, increasing, NaN last) are not better than each
    (oriented) τ, the runs x <= τ: shape (tasks, thresholds)."""
    return np.array([np.searchsorted(row[~np.isnan(row)], thresholds, side="right") for row in values])


def _fractions(worse, runs):
    """The profile, (..., thresholds), from the runs not better than τ, (..., tasks, thresholds), and the
    runs per task (..., tasks): the fraction of better runs of each task, averaged over the tasks."""
    return (1.0 - worse / runs[..., None]).mean(axis=-2)


def _task_fractions(means, thresholds):
    """The average-score profile, (..., thresholds): the fraction of the task means (..., tasks), oriented,
    above each oriented τ (strictly, as rliable's ``mean_score_deviation``)."""
    return (means[..., None] > thresholds).mean(axis=-2)


def _resampled(values, runs_per_task, thresholds, resamples, rng, progress, kind, task_bootstrap):
    """The profile of every resample, shape (resamples, methods, thresholds) (Agarwal et al. 2021, §4.1),
    from the scores and thresholds oriented so that higher is better (:func:`stratified_values`); with
    `task_bootstrap` the tasks are drawn again too (:func:`bootstrap_chunks`), each copy of a task counted
    as a task."""
    out = np.empty((resamples, values.shape[0], thresholds.size))
    groups = method_groups(runs_per_task)
    for number, (runs, members) in enumerate(groups):
        cuts = [_worse_counts(v, thresholds) for v in values[members]]
        own = values[members][:, :, : runs.max()]
        per_task = np.where(np.isnan(own), 0.0, own) / runs[:, None]  # each task's mean, from its counts
        first = 0
        report = group_progress(progress, number, len(groups), resamples)
        cells = runs.size * thresholds.size * (len(members) if kind == "tasks" else 1)
        chunks = bootstrap_chunks(
            runs, resamples, rng, task_bootstrap=task_bootstrap, progress=report, cells=cells
        )
        for _, copies, counts in chunks:
            rows = slice(first, first + counts.shape[0])
            first = rows.stop
            if kind == "tasks":
                out[rows, members] = _task_fractions(copy_sums(copies, counts, per_task), thresholds)
                continue
            cumulative = np.concatenate([np.zeros((*counts.shape[:2], 1)), counts.cumsum(axis=2)], axis=2)
            tasks = np.arange(runs.size)[:, None]
            resample = np.arange(counts.shape[0])[:, None, None]
            copy_runs = runs if copies is None else runs[copies]
            for member, cut in zip(members, cuts, strict=True):
                # run k of a task is its k-th worst: the resampled runs not better than τ are the draws
                # of its `cut` worst runs (on each copy of a task drawn, with the task bootstrap)
                if copies is None:
                    worse = cumulative[:, tasks, cut]
                else:
                    worse = cumulative[resample, tasks, cut[copies]]
                out[rows, member] = _fractions(worse, copy_runs)
    return out


def performance_profile(
    scores: TaskScores,
    *,
    thresholds: ArrayLike | None = None,
    kind: Literal["runs", "tasks"] = "runs",
    alpha: float = 0.05,
    resamples: int = 10_000,
    seed: Seed = None,
    task_bootstrap: bool = False,
    progress: Callable[[int, int], object] | None = None,
    max_memory: float = MAX_MEMORY,
) -> ProfileResult:
    """The performance profile (run-score distribution) of each method, with stratified bootstrap bands
    (Agarwal et al. 2021, §4.1-4.2).

    At each threshold τ: the fraction of a method's runs with a score better than τ on each task (strictly
    above τ for ``direction="higher"``, as rliable's ``score > tau``; strictly below for ``"lower"``),
    averaged over the tasks. With the same runs on every task this is rliable's
    ``create_performance_profile(score_dict, tau_list)`` (``use_score_distribution=True``, its default).
    The band at each τ is the stratified bootstrap percentile interval of the fraction (§4.1: the runs of
    each task drawn again with replacement, every task kept), pointwise: it is not a band for the whole
    curve at once. It takes the runs of a task to be independent (seeds), as the intervals of
    :func:`aggregate`.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`.
    thresholds : array_like, optional
        τ, in the units of the (normalised) scores; default: 101 evenly spaced from the lowest score of any
        run to the highest.
    kind : {"runs", "tasks"}, default "runs"
        ``"runs"``: the score distribution above. ``"tasks"``: the average-score distribution, the fraction
        of the tasks whose mean score over the method's runs is better than τ (rliable's
        ``use_score_distribution=False``); its band resamples the runs behind each task mean. The paper
        recommends the score distribution: its bands are narrower for the same runs (§4.2).
    alpha : float, default 0.05
        α: the bands have level 1 - α.
    resamples : int, default 10,000
        The number of stratified bootstrap resamples; 0 for no bands (rliable's default is 2,000).
        At least 1 + 2/α (41 at α = 0.05: :func:`~benchtrust.compare._bootstrap.minimum_resamples`), else an
        InputError naming the minimum.
    seed : int or numpy.random.Generator, optional
        The randomness of the resamples; an int reproduces them.
    task_bootstrap : bool, default False
        Draw the tasks again too (rliable's ``task_bootstrap=True``; see :func:`aggregate`): each copy of a
        task drawn counts as a task. Needs the same runs of a method on every task.
    progress : callable, optional
        Called as ``progress(done, total)`` as the resamples are drawn (``total`` = `resamples`), after
        each chunk of them (a few MB: the chunks never change the result).
    max_memory : int, default 2e9
        The most bytes the resampled profiles may take (all are kept for the percentiles: 8 × `resamples`
        × (methods × thresholds + 1)); more is refused with an InputError naming this option, before any
        draw.

    Returns
    -------
    ProfileResult

    See Also
    --------
    ProfileResult : Performance profiles with their bands.
    plot_performance_profile : Draw the performance profiles with their bands.
    aggregate : Mean, median, IQM and optimality gap over many tasks, with intervals.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1 (stratified bootstrap), §4.2
       (performance profiles).

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> atari = bundled_task_scores("atari100k")
    >>> profile = performance_profile(atari, thresholds=[0.5, 1.0], resamples=1000, seed=0)
    >>> frame = profile.to_frame()
    >>> frame[frame.method == "SPR"].round(3)
      method  threshold  fraction    low   high
    8    SPR        0.5     0.376  0.366  0.387
    9    SPR        1.0     0.214  0.206  0.224
    """
    check_task_scores(scores)
    thresholds = _thresholds(thresholds, scores)
    alpha = check_probability(alpha, "alpha")
    resamples = check_resamples(resamples, alpha)
    if kind not in ("runs", "tasks"):
        raise InputError(
            f"kind: expected 'runs' (score distribution) or 'tasks' (average scores), got {kind!r:.60}"
        )
    rng = check_seed(seed)
    task_bootstrap = check_task_bootstrap(task_bootstrap, scores)
    progress = check_progress(progress)
    n = len(scores.methods)
    check_memory(
        replicates_memory(resamples, n * thresholds.size),
        max_memory,
        f"resamples={resamples:,} of {n} profiles {TIMES} {thresholds.size} thresholds",
    )

    values, runs_per_task = stratified_values(scores)
    oriented = thresholds if scores.direction == "higher" else -thresholds
    if kind == "runs":
        fraction = np.array(
            [_fractions(_worse_counts(v, oriented), n) for v, n in zip(values, runs_per_task, strict=True)]
        )
    else:
        fraction = _task_fractions(np.nanmean(values, axis=2), oriented)
    single_run = (runs_per_task == 1).all(axis=1) & (not task_bootstrap or len(scores.tasks) == 1)
    low = high = np.full_like(fraction, np.nan)
    if resamples:
        replicates = _resampled(
            values, runs_per_task, oriented, resamples, rng, progress, kind, task_bootstrap
        )
        low, high = percentile_interval(replicates, alpha)
        # nothing to resample: the band is the profile (not the profile up to rounding)
        low, high = (np.where(single_run[:, None], fraction, end) for end in (low, high))
    return ProfileResult(
        methods=scores.methods,
        thresholds=thresholds,
        fraction=fraction,
        low=low,
        high=high,
        runs=runs_per_task.sum(axis=1),
        single_run=single_run,
        tasks=len(scores.tasks),
        alpha=alpha,
        resamples=resamples,
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        direction=scores.direction,
        normalisation=scores.normalisation,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        missing=len(scores.missing),
        kind=kind,
        task_bootstrap=task_bootstrap,
        inputs=scores_files(scores),
    )


def plot_performance_profile(result: ProfileResult, ax: Axes | None = None) -> Axes:
    """Draw the performance profiles with their bands, as in Agarwal et al. (2021), Fig. 5.

    One line per method, the fraction of its runs better than τ against τ, with its stratified bootstrap
    band shaded (none when ``resamples == 0``).

    Parameters
    ----------
    result : ProfileResult
        From :func:`performance_profile`.
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; default: those of a new 7 x 4.5 inch figure (drawn without a display, pyplot's
        global state untouched).

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Nothing is written: save the figure with :func:`benchtrust.save_figure`.

    See Also
    --------
    performance_profile : Run-score distributions with stratified bootstrap bands.
    ProfileResult : Performance profiles with their bands.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.2, Fig. 5.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> atari = bundled_task_scores("atari100k")
    >>> ax = plot_performance_profile(performance_profile(atari, resamples=200, seed=0))
    >>> ax.get_ylabel()
    'fraction of runs with score > τ'
    """
    from benchtrust._figures import axes_for

    if not isinstance(result, ProfileResult):
        raise InputError(
            f"result: expected ProfileResult (from performance_profile), got {type(result).__name__}"
        )
    ax = axes_for(ax, (7, 4.5))
    for i in result.order:
        (line,) = ax.plot(result.thresholds, result.fraction[i], label=result.methods[i])
        if result.resamples:
            ax.fill_between(
                result.thresholds,
                result.low[i],
                result.high[i],
                color=line.get_color(),
                alpha=0.2,
                linewidth=0,
            )
    ax.set_xlabel(f"threshold τ ({scores_words(result.normalisation)}; {result.direction} is better)")
    ax.set_ylabel(f"fraction of {result.what} with {result.better}")
    ax.set_ylim(-0.02, 1.02)
    band = f", {level_text(result.alpha)} bands" if result.resamples else ""
    ax.set_title(f"Performance profiles over {result.tasks} tasks{band} ({PAPER}, §4.2)")
    ax.legend(loc="best", fontsize="small", frameon=False)
    return ax
