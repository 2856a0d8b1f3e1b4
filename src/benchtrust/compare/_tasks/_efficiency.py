"""Sample-efficiency curves: an aggregate over many tasks, with its stratified bootstrap interval, at every
training step (Agarwal et al. 2021, §4.3 and Fig. 8: IQM against the number of frames).

The table has one row per method × task × run × step. At each step the runs' scores form one table of task
scores, and :func:`~benchtrust.compare.aggregate` gives the estimate (IQM by default; mean, median or
optimality gap) and its interval there, as rliable's ``get_interval_estimates`` does for the sample
efficiency plots of its documentation (a ``func`` that returns the estimate at every step of a
runs × tasks × steps array).
"""

from __future__ import annotations

import dataclasses
import numbers
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

import numpy as np

from benchtrust._io import MAX_MEMORY, Direction, InputError, Seed, check_seed
from benchtrust._result import Description, Result
from benchtrust._words import aligned, interval_cell, level_text, listed, paragraph
from benchtrust.compare._tasks._aggregate import (
    _ESTIMATES,
    PAPER,
    aggregate,
    check_task_bootstrap,
    resampling_words,
)
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    normalisation_words,
    read_task_scores,
    scores_files,
    scores_words,
)

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

__all__ = ["EfficiencyResult", "plot_sample_efficiency", "sample_efficiency", "simulated_learning_curves"]

_SOURCE = (
    f"{PAPER}, deep reinforcement learning at the edge of the statistical precipice, §4.3 (aggregate "
    "estimates), Fig. 8 (sample-efficiency curves) and §4.1 (stratified bootstrap intervals)"
)
#: The most steps the text table shows (to_frame has them all).
_SHOWN = 5


@dataclasses.dataclass(frozen=True, eq=False)
class EfficiencyResult(Result):
    """An aggregate of each method over many tasks at every training step, with intervals (Agarwal et al.
    2021, §4.1, §4.3, Fig. 8).

    Attributes
    ----------
    methods : tuple of str
        The methods, in the order of the table.
    steps : numpy.ndarray
        The training steps (frames), increasing: integers when every step is a whole number.
    estimate : {"iqm", "mean", "median", "optimality_gap"}
        The aggregate (see :func:`aggregate`).
    value, low, high : numpy.ndarray
        Shape (methods, steps): the estimate and the ends of its interval at each step (NaN ends when
        ``resamples == 0``).
    runs : numpy.ndarray
        Each method's runs at each step, over all tasks.
    tasks : int
        The number of tasks.
    gamma : float or None
        γ, the target of the optimality gap; None when it is not computed.
    alpha : float
        α: the intervals have level 1 - α, pointwise (at each step, not for the whole curve).
    resamples : int
        The stratified bootstrap resamples at each step (0: point estimates only).
    seed : int or None
        The seed of the resamples, when one was given as an int.
    task_bootstrap : bool
        True when the resamples drew the tasks again as well as the runs.
    direction : {"higher", "lower"}
        Which scores are better.
    normalisation : {"none", "minmax", "reference"}
        How the scores were normalised (:func:`read_task_scores`).
    normalisation_text : str
        The normalisation in words.

    See Also
    --------
    sample_efficiency : An aggregate with its interval at every training step.
    plot_sample_efficiency : Draw the curves with their bands.
    aggregate : Mean, median, IQM and optimality gap over many tasks, with intervals.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1, §4.3, Fig. 8.
    """

    methods: tuple[str, ...]
    steps: np.ndarray
    estimate: str
    value: np.ndarray
    low: np.ndarray
    high: np.ndarray
    runs: np.ndarray
    tasks: int
    gamma: float | None
    alpha: float
    resamples: int
    seed: int | None
    task_bootstrap: bool
    direction: str
    normalisation: str
    normalisation_text: str

    @property
    def better(self) -> str:
        """Which estimates are better: the optimality gap is better low, the others in `direction`."""
        return "lower" if (self.estimate == "optimality_gap") != (self.direction == "lower") else "higher"

    def _best_first(self, column):
        """The methods' indices, best estimate at step `column` first."""
        key = self.value[:, column]
        return np.argsort(-key if self.better == "higher" else key, kind="stable")

    def _shown(self):
        count = min(self.steps.size, _SHOWN)
        return np.unique(np.linspace(0, self.steps.size - 1, count).round().astype(int))

    def _name(self):
        return _ESTIMATES[self.estimate]

    def _columns(self):
        level = f" [{level_text(self.alpha)} interval]" if self.resamples else ""
        return ("step", "method", f"{self._name()}{level}")

    def _rows(self):
        rows = []
        for k in self._shown():
            for i in self._best_first(k):
                cell = f"{self.value[i, k]:.4f}"
                if self.resamples:
                    cell += f" {interval_cell(self.low[i, k], self.high[i, k])}"
                rows.append((_step(self.steps[k]), self.methods[i], cell))
        return rows

    def _interval_words(self):
        if not self.resamples:
            return "none (resamples=0): point estimates only"
        return (
            f"pointwise {level_text(self.alpha)} stratified bootstrap percentile intervals at each step "
            f"({PAPER} §4.1: {resampling_words(self.task_bootstrap)}), {self.resamples:,} resamples per step"
        )

    def describe(self) -> Description:
        """The estimate of every method at up to 5 steps, best first, with intervals, then the verdict."""
        verdict = self.verdict
        rows = self._rows()
        text = [
            paragraph(
                f"Sample efficiency over {self.tasks} tasks ({PAPER} §4.3, Fig. 8): the {self._name()} of "
                f"the {scores_words(self.normalisation)} at each of {self.steps.size} steps from "
                f"{_step(self.steps[0])} to {_step(self.steps[-1])} (to_frame() has them all); "
                f"{self.better} is better; normalisation: {self.normalisation_text}. Intervals: "
                f"{self._interval_words()}."
            ),
            "",
            *aligned([self._columns(), *rows]),
            "",
            paragraph(verdict),
        ]
        methods, k = len(self.methods), self.steps.size
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(text),
            data={
                "estimate": self.estimate,
                "tasks": self.tasks,
                "direction": self.direction,
                "normalisation": self.normalisation,
                "gamma": self.gamma,
                "alpha": self.alpha,
                "resamples": self.resamples,
                "seed": self.seed,
                "task_bootstrap": self.task_bootstrap,
                "steps": self.steps,
                "methods": [
                    {
                        "method": method,
                        "runs": self.runs[i],
                        "value": self.value[i],
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
                "step": np.tile(self.steps, methods),
                self.estimate: self.value.ravel(),
                "low": self.low.ravel(),
                "high": self.high.ravel(),
            },
            notes=(f"{self.steps.size} steps; the table shows at most {_SHOWN}.",),
            figure=lambda: plot_sample_efficiency(self),
            assumptions=(
                ("direction", f"{self.direction} is better"),
                ("normalisation", self.normalisation_text),
                ("estimate", f"{self._name()}, {self.better} is better"),
                ("intervals", self._interval_words()),
                ("seed", "none given" if self.seed is None else str(self.seed)),
            ),
            source=_SOURCE,
            inputs=self.inputs,
            analysis="compare efficiency",
        )

    @property
    def verdict(self) -> str:
        """The result in plain words: who leads at the last step, whether its interval is apart from the
        next method's there, and at how many steps the same method leads."""
        last = self.steps.size - 1
        what = f"{self._name()} of the {scores_words(self.normalisation)}"
        order = self._best_first(last)
        first = order[0]
        at = f"at the last step ({_step(self.steps[-1])})"
        if len(self.methods) == 1:
            return (
                f"One method, {self.methods[first]}: {what} {self.value[first, 0]:.4g} at the first step "
                f"and {self.value[first, last]:.4g} {at}; nothing to compare it with."
            )
        second = order[1]
        leads = int(sum(self._best_first(k)[0] == first for k in range(self.steps.size)))
        head = (
            f"{self.methods[first]} leads on the {what} {at}: {self.value[first, last]:.4g}, against "
            f"{self.value[second, last]:.4g} for {self.methods[second]}, the next ({self.better} is better); "
            f"it leads at {leads} of the {self.steps.size} steps."
        )
        if self.value[first, last] == self.value[second, last]:
            head = f"{listed([self.methods[first], self.methods[second]])} tie on the {what} {at}."
        if not self.resamples:
            return (
                f"{head} These are point estimates (resamples=0): nothing says whether the differences "
                "exceed the noise of the runs."
            )
        apart = (self.low[first] > self.high[second]) | (self.low[second] > self.high[first])
        at_last = " (the last included)" if apart[-1] else ""
        return (
            f"{head} The intervals of {self.methods[first]} and {self.methods[second]} are apart at "
            f"{int(apart.sum())} of the {self.steps.size} steps{at_last}; "
            "where they overlap, these runs do not separate the two (which does not show them equal)."
        )


def _step(value) -> str:
    """A step as written: ``600000``, ``2.5``."""
    return str(value) if isinstance(value, (int, np.integer)) else f"{value:g}"


def simulated_learning_curves(
    *, methods: int = 3, tasks: int = 8, runs: int = 5, steps: int = 6, seed: int = 0
) -> pd.DataFrame:
    """A seeded table of simulated learning curves (method, task, run, step, score): no real per-step data
    is bundled with benchtrust, so this stands in for one in the examples and tests.

    Method m (named ``A``, ``B``, ...) reaches on task t the level L_mt = h_t (0.6 + 0.25 m) · e_mt, with
    a task difficulty h_t ~ Uniform(0.5, 2) and e_mt ~ LogNormal(0, 0.2); its score at step s of S (steps
    1, ..., S in units of 100k frames) is L_mt (1 - exp(-3 s / S · (1 + 0.3 m))) + ε, with run noise
    ε ~ Normal(0, 0.15 h_t). Scores are rounded to 4 decimals. Higher is better; the scores are already on
    a common scale (no normalisation needed).

    Parameters
    ----------
    methods, tasks, runs, steps : int
        The size of the table.
    seed : int, default 0
        The seed of :func:`numpy.random.default_rng`.

    Returns
    -------
    pandas.DataFrame
        Columns ``method``, ``task``, ``run``, ``step``, ``score``; one row per method × task × run × step.

    See Also
    --------
    sample_efficiency : An aggregate with its interval at each step.
    plot_sample_efficiency : Draw the sample-efficiency curves.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.3, Fig. 8 (the sample-efficiency
       curves these tables stand in for).

    Examples
    --------
    >>> table = simulated_learning_curves()
    >>> table.shape, table.step.unique().tolist()
    ((720, 5), [100000, 200000, 300000, 400000, 500000, 600000])
    """
    import pandas as pd

    rng = np.random.default_rng(seed)
    m = np.arange(methods)[:, None, None, None]
    hardness = rng.uniform(0.5, 2.0, size=(1, tasks, 1, 1))
    level = hardness * (0.6 + 0.25 * m) * rng.lognormal(0.0, 0.2, size=(methods, tasks, 1, 1))
    s = np.arange(1, steps + 1)[None, None, None, :]
    mean = level * (1 - np.exp(-3 * s / steps * (1 + 0.3 * m)))
    score = mean + rng.normal(0.0, 0.15, size=(methods, tasks, runs, steps)) * hardness
    index = np.indices(score.shape).reshape(4, -1)
    return pd.DataFrame(
        {
            "method": np.array([chr(ord("A") + i) for i in range(methods)])[index[0]],
            "task": np.array([f"task{j + 1:02d}" for j in range(tasks)])[index[1]],
            "run": index[2] + 1,
            "step": (index[3] + 1) * 100_000,
            "score": score.ravel().round(4),
        }
    )


def _per_step(scores, step_column):
    """The steps and the :class:`TaskScores` at each, from a table read with the step as its fold
    column: every run of every method on every task needs a score at every step of the table."""
    name = scores.source or "<table>"
    folds = scores.folds
    parts = np.array(
        [None if label is None else str(label).rpartition("/")[2] for label in scores.run_labels.ravel()],
        dtype=object,
    ).reshape(scores.run_labels.shape)
    names = parts[0, 0, :folds]
    present = scores.run_labels != None  # noqa: E711 (elementwise, on an object array)
    wrong = present & (parts != np.tile(names, parts.shape[2] // folds))
    uneven = scores.runs_per_task % folds != 0
    if wrong.any() or uneven.any():
        i, j = np.argwhere(wrong.any(axis=2) | uneven)[0]
        raise InputError(
            f"{name}: method {scores.methods[i]!r} on task {scores.tasks[j]!r} has a run without a score at "
            f"some step (column {step_column!r}); every run of every method on every task needs a score at "
            f"every step of the table ({', '.join(map(str, names))})"
        )
    try:
        steps = np.array([float(step) for step in names])
        if (steps == np.round(steps)).all() and np.abs(steps).max() < 2**53:
            steps = steps.astype(np.int64)  # frames and updates are counts
    except ValueError:
        bad = next(step for step in names if not _is_number(step))
        raise InputError(
            f"{name}, column {step_column!r}: expected numbers (training steps or frames), got {bad!r}"
        ) from None
    shape = (*scores.scores.shape[:2], -1, folds)
    arrays = (scores.scores, scores.raw_scores, scores.run_labels)
    by_step = zip(*(np.moveaxis(a.reshape(shape), 3, 0) for a in arrays), strict=True)
    tables = [
        dataclasses.replace(scores, scores=s, raw_scores=raw, run_labels=labels, folds=None)
        for s, raw, labels in by_step
    ]
    return steps, tables


def _is_number(text) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def sample_efficiency(
    table: str | os.PathLike[str] | pd.DataFrame,
    *,
    direction: Direction,
    step_column: str = "step",
    method_column: str = "method",
    task_column: str = "task",
    run_column: str = "run",
    score_column: str = "score",
    normalise: Literal["none", "minmax", "reference"] = "none",
    reference: str | os.PathLike[str] | pd.DataFrame | None = None,
    reference_task_column: str | None = None,
    estimate: Literal["iqm", "mean", "median", "optimality_gap"] = "iqm",
    gamma: float | None = None,
    alpha: float = 0.05,
    resamples: int = 10_000,
    seed: Seed = None,
    task_bootstrap: bool = False,
    progress: Callable[[int, int], object] | None = None,
    max_memory: float = MAX_MEMORY,
) -> EfficiencyResult:
    """Sample-efficiency curves: an aggregate of each method over many tasks, with its stratified bootstrap
    interval, at every training step (Agarwal et al. 2021, §4.3, Fig. 8).

    At each step, the estimate and its interval are those of :func:`aggregate` on the scores of that step
    (the IQM by default: the mean of the middle 50% of every run on every task pooled), as rliable's
    ``get_interval_estimates`` gives them for its sample-efficiency plots. Each step's interval is its own
    stratified bootstrap of the runs at that step, pointwise: it is not a band for the whole curve at once.

    Parameters
    ----------
    table : str, os.PathLike or pandas.DataFrame
        One row per method × task × run × step (long format), read as :func:`read_task_scores` reads a
        table; every run of every method on every task needs a score at every step.
    direction : {"higher", "lower"}
        Which scores are better (required: never guessed).
    step_column : str, default "step"
        The column of the training step (frames, updates): numbers.
    method_column, task_column, run_column, score_column, normalise, reference, reference_task_column
        As :func:`read_task_scores`; the normalisation is per task over every step.
    estimate : {"iqm", "mean", "median", "optimality_gap"}, default "iqm"
        The aggregate (:func:`aggregate`).
    gamma, alpha, task_bootstrap, max_memory
        As :func:`aggregate`.
    resamples : int, default 10,000
        The stratified bootstrap resamples at each step (0: point estimates only).
    seed : int or numpy.random.Generator, optional
        The randomness of the resamples, drawn step after step; an int reproduces them.
    progress : callable, optional
        Called as ``progress(done, total)`` after each step (``total`` = the number of steps).

    Returns
    -------
    EfficiencyResult

    See Also
    --------
    EfficiencyResult : An aggregate with its interval at every training step.
    plot_sample_efficiency : Draw the curves with their bands.
    aggregate : Mean, median, IQM and optimality gap over many tasks, with intervals.
    simulated_learning_curves : A seeded table of simulated learning curves.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1, §4.3, Fig. 8.

    Examples
    --------
    >>> curves = sample_efficiency(simulated_learning_curves(), direction="higher", resamples=1000, seed=0)
    >>> curves.to_frame().query("step == 600000").round(3)
       method    step    iqm    low   high
    5       A  600000  0.588  0.522  0.660
    11      B  600000  1.092  1.032  1.150
    17      C  600000  1.392  1.326  1.467
    """
    if estimate not in _ESTIMATES:
        raise InputError(f"estimate: expected one of {', '.join(_ESTIMATES)}, got {estimate!r:.60}")
    scores = read_task_scores(
        table,
        direction=direction,
        method_column=method_column,
        task_column=task_column,
        run_column=run_column,
        score_column=score_column,
        fold_column=step_column,
        normalise=normalise,
        reference=reference,
        reference_task_column=reference_task_column,
    )
    steps, tables = _per_step(scores, step_column)
    task_bootstrap = check_task_bootstrap(task_bootstrap, tables[0])
    rng = check_seed(seed)
    results = []
    for done, step_scores in enumerate(tables, start=1):
        results.append(
            aggregate(
                step_scores,
                gamma=gamma,
                alpha=alpha,
                resamples=resamples,
                seed=rng,
                task_bootstrap=task_bootstrap,
                max_memory=max_memory,
            )
        )
        if progress is not None:
            progress(done, len(tables))
    order = np.argsort(steps, kind="stable")
    first = results[0]
    return EfficiencyResult(
        methods=first.methods,
        steps=steps[order],
        estimate=estimate,
        value=np.array([getattr(r, estimate) for r in results]).T[:, order],
        low=np.array([getattr(r, f"{estimate}_ci").low for r in results]).T[:, order],
        high=np.array([getattr(r, f"{estimate}_ci").high for r in results]).T[:, order],
        runs=first.runs,
        tasks=first.tasks,
        gamma=first.gamma,
        alpha=first.alpha,
        resamples=first.resamples,
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        task_bootstrap=task_bootstrap,
        direction=first.direction,
        normalisation=first.normalisation,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        inputs=scores_files(scores),
    )


def plot_sample_efficiency(result: EfficiencyResult, ax: Axes | None = None) -> Axes:
    """Draw the sample-efficiency curves with their bands, as in Agarwal et al. (2021), Fig. 8.

    One line per method, its estimate against the training step, its interval shaded (none when
    ``resamples == 0``).

    Parameters
    ----------
    result : EfficiencyResult
        From :func:`sample_efficiency`.
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; default: those of a new 7 x 4.5 inch figure.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Nothing is written: save the figure with :func:`benchtrust.save_figure`.

    See Also
    --------
    sample_efficiency : An aggregate with its interval at every training step.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. Fig. 8.

    Examples
    --------
    >>> result = sample_efficiency(simulated_learning_curves(), direction="higher", resamples=100, seed=0)
    >>> plot_sample_efficiency(result).get_xlabel()
    'step'
    """
    from benchtrust._figures import axes_for

    if not isinstance(result, EfficiencyResult):
        raise InputError(
            f"result: expected EfficiencyResult (from sample_efficiency), got {type(result).__name__}"
        )
    ax = axes_for(ax, (7, 4.5))
    for i in result._best_first(result.steps.size - 1):
        (line,) = ax.plot(result.steps, result.value[i], marker="o", markersize=3, label=result.methods[i])
        if result.resamples:
            ax.fill_between(
                result.steps, result.low[i], result.high[i], color=line.get_color(), alpha=0.2, linewidth=0
            )
    ax.set_xlabel("step")
    ax.set_ylabel(f"{_ESTIMATES[result.estimate]} ({scores_words(result.normalisation)})")
    band = f", {level_text(result.alpha)} intervals" if result.resamples else ""
    ax.set_title(f"Sample efficiency over {result.tasks} tasks{band} ({PAPER}, Fig. 8)")
    ax.legend(loc="best", fontsize="small", frameon=False)
    return ax
