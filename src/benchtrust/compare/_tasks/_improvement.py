"""Average probability of improvement of every method over every other (Agarwal et al. 2021, §4.3).

For two methods X and Y scored on tasks m = 1..M, the probability of improvement of Agarwal et al., "Deep
reinforcement learning at the edge of the statistical precipice" (NeurIPS 2021; the rliable library), is

    P(X > Y) = (1/M) Σ_m P(X_m > Y_m),   P(X_m > Y_m) = (1 / (N_m K_m)) Σ_i Σ_j S(x_{m,i}, y_{m,j}),

where S(x, y) is 1 if x is better than y, 1/2 if they are equal and 0 otherwise, over all N_m K_m pairs of a
run of X and a run of Y on task m: the Mann-Whitney U statistic divided by N_m K_m. Its interval is the
percentile interval of the stratified bootstrap (§4.1): the runs of each method on each task are drawn
again with replacement, P(X > Y) is computed again, many times.

Runs compared in pairs, and the exact interval of their stratified bootstrap, are in
:mod:`benchtrust.compare._tasks._pair_bootstrap`.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._exact import exact_mean
from benchtrust._interval import Interval
from benchtrust._io import MAX_MEMORY, InputError, Seed, check_memory, check_probability, check_seed
from benchtrust._result import Description, Result
from benchtrust._words import aligned, interval_cell, level_text, listed, paragraph
from benchtrust.compare._bootstrap import (
    CHUNK_CELLS,
    FEW_RUNS,
    check_resamples,
    percentile_interval,
    replicates_memory,
)
from benchtrust.compare._tasks._aggregate import check_task_bootstrap, copy_counts, copy_sums
from benchtrust.compare._tasks._effect import vargha_delaney_magnitude
from benchtrust.compare._tasks._pair_bootstrap import (
    RESAMPLES,
    _paired_halves,
    check_paired,
    method_words,
    oriented,
    pair_estimates,
    require_pairs,
    run_codes,
    run_positions,
)
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    normalisation_words,
    scores_files,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["ImprovementResult", "improvement_probabilities", "plot_improvement"]

PAPER = "Agarwal et al. 2021"
_SOURCE = (
    f"{PAPER}, deep reinforcement learning at the edge of the statistical precipice, §4.3 (probability of "
    "improvement) and §4.1 (stratified bootstrap)"
)
_PAIRED_SOURCE = "; runs compared in pairs: Bouthillier et al. 2021, Eq. 9"

#: Most pairs the verdict names in one sentence.
_LISTED = 8


@dataclasses.dataclass(frozen=True, eq=False)
class ImprovementResult(Result):
    """The average probability of improvement of every method over every other (Agarwal et al. 2021, §4.3).

    Attributes
    ----------
    methods : tuple of str
        The methods, in the order of :attr:`TaskScores.methods`.
    probability : numpy.ndarray
        P(row > column), shape (methods, methods): the chance that a run of the row's method scores better
        than a run of the column's on the same task, a tie counting one half, averaged over the tasks. NaN
        on the diagonal. ``probability + probability.T == 1`` off it.
    low, high : numpy.ndarray
        The ends of its percentile interval at level 1 - α (stratified bootstrap), same shape; NaN on the
        diagonal and for pairs with too little data (one run each on every task).
    task_probability : numpy.ndarray
        P(row > column) on each task, shape (methods, methods, tasks).
    tasks : tuple of str
        The tasks.
    runs : numpy.ndarray
        The runs of each method on each task, shape (methods, tasks).
    alpha : float
        α; each interval's level is 1 - α, for its pair alone.
    paired : bool
        True: run k of X is compared with run k of Y on each task (same labels); False: all pairs of runs.
    method : str
        How the intervals were computed: ``"exact"`` or ``"resampled, B resamples"``.
    resamples : int or None
        B, the bootstrap resamples; None for the exact interval.
    seed : int or None
        The seed given as a number; None for a Generator or no seed.
    labels_match : bool
        Whether every method has the same run labels on each task (so ``paired=True`` is possible).
    paired_given : bool or None
        The `paired` argument: None when the pairing was not declared.
    direction : {"higher", "lower"}
        Which scores are better.
    normalisation : {"none", "minmax", "reference"}
        How the scores were normalised (:func:`read_task_scores`); P(X > Y) does not depend on it.
    normalisation_text : str
        The normalisation in words.
    missing : int
        The number of (method, task) pairs with missing runs.
    task_bootstrap : bool
        True when the resamples drew the tasks again as well as the runs (rliable's ``task_bootstrap``).

    See Also
    --------
    improvement_probabilities : The probability of improvement of every method over every other.
    plot_improvement : Draw P(X > Y) of every pair with its interval.
    effect_sizes : Vargha and Delaney's A, Cliff's δ and Hedges' g, per task and over tasks.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1, §4.3.
    .. [2] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. Eq. (9) (the runs compared in pairs).
    """

    methods: tuple[str, ...]
    probability: np.ndarray
    low: np.ndarray
    high: np.ndarray
    task_probability: np.ndarray
    tasks: tuple[str, ...]
    runs: np.ndarray
    alpha: float
    paired: bool
    method: str
    resamples: int | None
    seed: int | None
    labels_match: bool
    paired_given: bool | None
    direction: str
    normalisation: str
    normalisation_text: str
    missing: int
    task_bootstrap: bool = False

    @property
    def ci(self) -> Interval:
        """(low, high): the interval ends of every ordered pair, as two arrays."""
        return Interval(self.low, self.high)

    def pairs(self) -> list[tuple[int, int]]:
        """Each pair of methods once, as (x, y) indices with P(x > y) >= 1/2, the highest first."""
        n = len(self.methods)
        found = []
        for i in range(n):
            for j in range(i + 1, n):
                found.append((i, j) if self.probability[i, j] >= 0.5 else (j, i))
        return sorted(found, key=lambda pair: -self.probability[pair])

    @property
    def better(self) -> tuple[tuple[str, str], ...]:
        """The pairs (X, Y) whose interval of P(X > Y) lies above 1/2: X is likely better than Y."""
        return tuple((self.methods[i], self.methods[j]) for i, j in self.pairs() if self.low[i, j] > 0.5)

    def __repr__(self) -> str:
        return (
            f"ImprovementResult(methods={len(self.methods)}, tasks={len(self.tasks)}, paired={self.paired}, "
            f"method={self.method!r}, alpha={self.alpha:g}, better={len(self.better)} of {len(self.pairs())} "
            "pairs)"
        )

    def _call(self, i, j) -> str:
        if np.isnan(self.low[i, j]):
            return "too little data"
        return f"{self.methods[i]} better" if self.low[i, j] > 0.5 else "cannot tell"

    def _rows(self):
        return [
            (
                self.methods[i],
                self.methods[j],
                f"{self.probability[i, j]:.4f}",
                interval_cell(self.low[i, j], self.high[i, j]),
                self._call(i, j),
            )
            for i, j in self.pairs()
        ]

    def _columns(self):
        return ("X", "Y", "P(X > Y)", f"{level_text(self.alpha)} interval", "")

    def _pairing_words(self):
        if self.paired:
            return (
                "run k of X against run k of Y, paired by their labels as in Bouthillier et al. 2021, Eq. 9"
            )
        return "every run of X against every run of Y"

    def _interval_words(self):
        how = (
            "its exact distribution"
            if self.method == "exact"
            else f"{self.resamples:,} resamples" + ("" if self.seed is None else f", seed {self.seed}")
        )
        redrawn = "pairs of runs" if self.paired else "runs"
        if self.task_bootstrap:
            return (
                f"percentile interval of the stratified bootstrap, the tasks redrawn (task bootstrap), then "
                f"the {redrawn} within each task drawn ({how})"
            )
        return f"percentile interval of the stratified bootstrap, {redrawn} redrawn within each task ({how})"

    @property
    def pairing_hint(self) -> str:
        """A note when the runs could be compared in pairs but the pairing was not declared; else ''."""
        if self.paired_given is not None or not self.labels_match or self.paired:
            return ""
        return (
            "Every method has the same run labels on each task. If run k of every method shares its data "
            "split or seed (the folds of a cross-validation, say), pass paired=True to compare the runs in "
            "pairs (Bouthillier et al. 2021, Eq. 9; exact intervals); labels alone do not say it, so all "
            "pairs of runs were compared, as rliable does."
        )

    def describe(self) -> Description:
        """The pairs, most probable improvement first, then the verdict (Agarwal et al. 2021, §4.3)."""
        verdict = self.verdict
        rows = self._rows()
        lines = [
            paragraph(
                f"Probability of improvement ({PAPER} §4.3): P(X > Y) is the chance that X scores better "
                f"than Y on a task ({self._pairing_words()}), a tie counting one half, averaged over "
                f"{len(self.tasks)} tasks; {self.direction} is better. Intervals: "
                f"{level_text(self.alpha)} {self._interval_words()}."
            ),
            "",
        ]
        if len(self.methods) > 1:
            lines += [*aligned([self._columns(), *rows]), ""]
        lines.append(paragraph(verdict))
        if self.pairing_hint:
            lines += ["", paragraph(self.pairing_hint)]
        frame = self._frame()
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(lines),
            data={
                "tasks": len(self.tasks),
                "direction": self.direction,
                "normalisation": self.normalisation,
                "alpha": self.alpha,
                "paired": self.paired,
                "method": self.method,
                "resamples": self.resamples,
                "seed": self.seed,
                "missing": self.missing,
                "task_bootstrap": self.task_bootstrap,
                "better": self.better,
                "pairs": [
                    {key: values[k] for key, values in frame.items()} for k in range(len(frame["method_x"]))
                ],
            },
            columns=self._columns(),
            rows=tuple(rows),
            frame=frame,
            figure=(lambda: plot_improvement(self)) if len(self.methods) > 1 else None,
            notes=(self.pairing_hint,) if self.pairing_hint else (),
            assumptions=(
                ("direction", f"{self.direction} is better"),
                ("runs compared", self._pairing_words()),
                ("interval", f"{level_text(self.alpha)} {self._interval_words()}, each pair alone"),
                ("tasks", f"{len(self.tasks)}, each weighing the same"),
                ("normalisation", f"{self.normalisation_text} (P(X > Y) does not depend on it)"),
                (
                    "missing runs",
                    f"{self.missing} method-task pairs; all runs used" if self.missing else "none",
                ),
            ),
            source=_SOURCE + (_PAIRED_SOURCE if self.paired else ""),
            inputs=self.inputs,
            analysis="compare improvement",
        )

    @property
    def verdict(self) -> str:
        """The pairs whose interval lies above 1/2, those that cannot be told apart, and those with too
        little data, in plain words."""
        if len(self.methods) == 1:
            return f"One method, {self.methods[0]}: nothing to compare it with."
        pairs = self.pairs()
        level = level_text(self.alpha)
        pooled = self.runs.sum(axis=1)
        few = [
            (i, j) for i, j in pairs if min(pooled[i], pooled[j]) < FEW_RUNS and not np.isnan(self.low[i, j])
        ]
        better = [(i, j) for i, j in pairs if self.low[i, j] > 0.5 and (i, j) not in few]
        unclear = [(i, j) for i, j in pairs if self.low[i, j] <= 0.5 and (i, j) not in few]
        little = [(i, j) for i, j in pairs if np.isnan(self.low[i, j])]
        sentences = []
        if better:
            sentences.append(
                f"Better beyond the noise of the runs{' and of the choice of tasks' * self.task_bootstrap} "
                f"({level} interval of P(X > Y) above 0.5; the size "
                f"in Vargha and Delaney's words): {self._listed(better, ' > ')}."
            )
        if unclear:
            sentences.append(
                f"{'Cannot be told apart' if better else 'No pair can be told apart'} (interval "
                f"containing 0.5): {self._listed(unclear, ' vs ')}."
            )
        if few:
            sentences.append(
                f"Too few runs to decide (fewer than {FEW_RUNS} of a method in all): "
                f"{self._listed(few, ' vs ')}; their intervals are too rough to be read as the noise of the "
                "runs: more runs are needed."
            )
        if little:
            sentences.append(
                f"Too little data for an interval (one run on every task): {self._listed(little, ' vs ')}; "
                "the bootstrap has nothing to redraw, so nothing is decided: more runs per task are needed."
            )
        if len(pairs) > 1 and len(little) != len(pairs):
            sentences.append(
                f"Each interval holds for its pair alone; for all {len(pairs)} pairs at once, use "
                f"alpha={self.alpha:g}/{len(pairs)} (Bonferroni)."
            )
        return " ".join(sentences)

    def _listed(self, pairs, between):
        words = [
            f"{self.methods[i]}{between}{self.methods[j]} ({self.probability[i, j]:.2f}"
            + (
                ""
                if np.isnan(self.low[i, j])
                else f" {interval_cell(self.low[i, j], self.high[i, j], 2)}, "
                f"{vargha_delaney_magnitude(self.probability[i, j])}"
            )
            + ")"
            for i, j in pairs[:_LISTED]
        ]
        if len(pairs) > _LISTED:
            words.append(f"{len(pairs) - _LISTED} more")
        return listed(words)

    def _frame(self):
        """The columns of ``to_frame()``, one row per ordered pair of methods: ``method_x``, ``method_y``,
        ``probability`` (P(X > Y)), ``low`` and ``high``."""
        i, j = np.nonzero(~np.eye(len(self.methods), dtype=bool))
        names = np.asarray(self.methods, dtype=object)
        return {
            "method_x": names[i],
            "method_y": names[j],
            "probability": self.probability[i, j],
            "low": self.low[i, j],
            "high": self.high[i, j],
        }


def improvement_probabilities(
    scores: TaskScores,
    *,
    alpha: float = 0.05,
    resamples: int | None = None,
    seed: Seed = None,
    paired: bool | None = None,
    task_bootstrap: bool = False,
    progress: Callable[[int, int], object] | None = None,
    max_memory: float = MAX_MEMORY,
) -> ImprovementResult:
    """The average probability of improvement P(X > Y) of every method over every other, with intervals.

    Implements the probability of improvement of Agarwal et al. (2021, §4.3; rliable's
    ``metrics.probability_of_improvement``) and its stratified bootstrap interval (§4.1; rliable's
    ``get_interval_estimates`` on pairs of methods): on each task, the chance that X scores better than Y, a
    tie counting one half, averaged over the tasks, so that every task weighs the same (see the module's
    notes). "Better" follows the scores' direction.

    Which runs are compared:

    * all pairs of runs (``paired=False``, and the default ``None``): every run of X with every run of Y on
      the task, as rliable does (the Mann-Whitney U statistic over N_m K_m). The interval comes from
      `resamples` stratified bootstrap resamples (10,000 by default), each drawing the runs of
      every method on every task again with replacement.
    * paired runs (``paired=True``): run k of X with run k of Y, for methods whose runs carry the same
      labels on each task and share their data split or seed (Bouthillier et al. 2021, Eq. 9, C.2). The
      interval is computed from the exact distribution of the stratified bootstrap that draws the pairs of
      each task again (unless `resamples` is given, or the attainable averages exceed
      ``_pair_bootstrap._LATTICE_LIMIT``, when they are resampled).

    Labels alone do not tell whether runs are paired: Atari's runs 1..100 of two agents are independent
    trainings, a cross-validation's runs 1..100 the same folds. So pairing is never inferred; with the
    default ``None`` all pairs of runs are compared (what rliable computes), and the result says when
    ``paired=True`` would be possible (:attr:`ImprovementResult.pairing_hint`).

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`. Methods may have different numbers of runs, and missing runs on some
        tasks (all pairs of runs only).
    alpha : float, default 0.05
        α in (0, 1); each interval's level is 1 - α. The intervals are not adjusted for the number of pairs.
    resamples : int, optional
        B, the bootstrap resamples. Default: the exact interval for paired runs, 10,000 for all
        pairs of runs.
        At least 1 + 2/α (41 at α = 0.05: :func:`~benchtrust.compare._bootstrap.minimum_resamples`), else
        an InputError naming the minimum.
    seed : int or numpy.random.Generator, optional
        Randomness of the resamples.
    paired : bool, optional
        True: compare run k with run k (same labels needed on every task); False or None: all pairs of runs.
    task_bootstrap : bool, default False
        Draw the tasks again too (rliable's ``task_bootstrap=True``): each resample draws M tasks from the M
        with replacement, the same for every method, then the runs (or pairs of runs) of each task drawn,
        with replacement, each copy of a task on its own; P(X > Y) is averaged over the copies. Always
        resampled (10,000 by default). Needs the same runs of a method on every task.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk of resamples (or pair, for exact intervals).

    Returns
    -------
    ImprovementResult

    See Also
    --------
    ImprovementResult : P(X > Y) of every pair of methods, with intervals.
    plot_improvement : Draw P(X > Y) of every pair with its interval.
    effect_sizes : Vargha and Delaney's A, Cliff's δ and Hedges' g, per task and over tasks.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    aggregate : Mean, median, IQM and optimality gap over many tasks, with intervals.

    Notes
    -----
    The bootstrap treats the runs of a task as independent draws. The folds of repeated cross-validation
    are not (their training sets overlap), so on them the intervals are too narrow (Nadeau & Bengio 2003;
    Benavoli et al. 2017 correct for this with the correlated t-test).

    The resampled interval is ``numpy.quantile(values, [α/2, 1 - α/2])`` (numpy's default 'linear'
    method) of the B resampled averages; every resample draws the runs of every method on every task
    again (``rng.integers`` per group of cells with the same number of runs), and all pairs are computed
    on the same resamples. P(Y > X) = 1 - P(X > Y) exactly, and its interval is 1 minus that of
    P(X > Y), the ends swapped.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1 (stratified bootstrap), §4.3
       (probability of improvement).
    .. [2] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. Eq. (9) (the runs compared in pairs, paired=True).
    .. [3] Claude Nadeau and Yoshua Bengio, "Inference for the generalization error", Machine Learning 52(3),
       239-281, 2003. doi:10.1023/A:1024068626366.
    .. [4] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §3.

    Examples
    --------
    The Atari 100k runs of Agarwal et al. (2021), every run of an agent against every run of another, as
    rliable compares them:

    >>> from benchtrust.compare import bundled_task_scores
    >>> atari = bundled_task_scores("atari100k")
    >>> result = improvement_probabilities(atari, resamples=1000, seed=0)
    >>> result.to_frame().query("method_x == 'SPR'").round(4).head(3)
       method_x  method_y  probability     low    high
    24      SPR       DER       0.6858  0.6737  0.6985
    25      SPR       DrQ       0.7309  0.7181  0.7429
    26      SPR  DrQ(eps)       0.6170  0.6040  0.6305
    >>> len(result.better), result.better[0]
    (20, ('SPR', 'OTRainbow'))

    The UCI accuracies of Benavoli et al. (2017): 10 runs of 10-fold cross-validation on the same folds for
    every classifier, so the runs can be compared in pairs, with exact intervals:

    >>> uci = bundled_task_scores("uci")
    >>> paired = improvement_probabilities(uci, paired=True)
    >>> paired.method
    'exact'
    >>> paired.to_frame().round(4).head(2)
      method_x method_y  probability     low    high
    0      nbc     aode       0.3285  0.3216  0.3355
    1      nbc      hnb       0.3431  0.3349  0.3514
    """
    scores = check_task_scores(scores)
    alpha = check_probability(alpha, "alpha")
    if resamples is not None:
        resamples = check_resamples(resamples, alpha, zero=False)
    paired_given = check_paired(paired)
    if progress is not None and not callable(progress):
        raise InputError(f"progress: expected a callable progress(done, total), got {progress!r}")
    report = progress or (lambda done, total: None)
    rng = check_seed(seed)
    n = len(scores.methods)
    if paired_given:
        require_pairs(scores, list(range(n)))
    task_bootstrap = check_task_bootstrap(task_bootstrap, scores)
    runs = scores.runs_per_task
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if task_bootstrap:
        used = RESAMPLES if resamples is None else resamples
        check_memory(
            replicates_memory(used, len(pairs)), max_memory, f"resamples={used:,} of {len(pairs)} pairs"
        )
        task_p, replicates = _task_bootstrap(
            oriented(scores), runs, pairs, paired=bool(paired_given), resamples=used, rng=rng, report=report
        )
        lows, highs = percentile_interval(replicates.T, alpha)
        if len(scores.tasks) == 1:  # one task, one run of each method: nothing to draw
            lows, highs = (np.where((runs[:, 0] == 1).all(), np.nan, end) for end in (lows, highs))
    else:
        task_p, lows, highs, used = pair_estimates(
            oriented(scores),
            runs,
            pairs,
            paired=bool(paired_given),
            alpha=alpha,
            resamples=resamples,
            rng=rng,
            report=report,
            max_memory=max_memory,
        )
    return ImprovementResult(
        methods=scores.methods,
        **_matrices(n, pairs, task_p, lows, highs),
        tasks=scores.tasks,
        runs=runs,
        alpha=alpha,
        paired=bool(paired_given),
        method=method_words(used),
        resamples=used,
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        labels_match=scores.labels_match,
        paired_given=paired_given,
        direction=scores.direction,
        normalisation=scores.normalisation,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        missing=len(scores.missing),
        task_bootstrap=task_bootstrap,
        inputs=scores_files(scores),
    )


def _task_bootstrap(values, runs, pairs, *, paired, resamples, rng, report):
    """P(X > Y) of every pair on each task, (pairs, tasks), and its average over the tasks on each resample
    of the task bootstrap, (pairs, resamples) (Agarwal et al. 2021, §4.1; rliable's ``task_bootstrap``).

    A resample draws M task copies from the M tasks with replacement, the same for every method (as
    rliable draws them for the pair it is given); on each copy the runs of each method (paired: the pairs
    of runs) are drawn again with replacement, and P(X > Y) of the copy is read off the counts as
    :mod:`._pair_bootstrap` reads it on a task: all pairs of runs through Y's cumulative counts at
    :func:`run_positions`, paired runs as the drawn wins and ties. The resample's value is the mean over the
    copies.
    """
    values = values[:, :, : int(runs.max())]
    n_methods, n_tasks, width = values.shape
    if paired:
        halves = _paired_halves(values, pairs).astype(np.float64)
        task_p = halves.sum(axis=2) / (2 * runs[0])
        per_resample = (len(pairs) + 1) * n_tasks * width
    else:
        codes = run_codes(values)
        positions = [run_positions(codes[i], codes[j]) for i, j in pairs]
        valid = np.arange(width) < runs[:, :, None]
        task_p = np.array(
            [
                ((lower + upper) * valid[i]).sum(axis=1) / (2 * runs[i] * runs[j])
                for (i, j), (lower, upper) in zip(pairs, positions, strict=True)
            ]
        )
        per_resample = 3 * n_methods * n_tasks * (width + 1)
    out = np.empty((len(pairs), resamples))
    step = max(1, CHUNK_CELLS // per_resample)
    sizes = [min(step, resamples - first) for first in range(0, resamples, step)]
    first = 0
    for done, size in enumerate(sizes, start=1):
        rows = slice(first, first + size)
        first += size
        copies = rng.integers(0, n_tasks, size=(size, n_tasks))
        if paired:
            drawn = copy_counts(runs[0][copies], width, rng)  # (r, copies, width), shared by the pairs
            out[:, rows] = (
                (copy_sums(copies, drawn, halves) / (2 * runs[0][copies])[:, None, :]).mean(axis=2).T
            )
            report(done, len(sizes))
            continue
        drawn = copy_counts(runs[:, copies], width, rng)  # (methods, r, copies, width)
        below = np.zeros((*drawn.shape[:3], width + 1))
        np.cumsum(drawn, axis=3, out=below[..., 1:])
        for k, ((i, j), (lower, upper)) in enumerate(zip(pairs, positions, strict=True)):
            # Y's drawn runs below each run of X, plus half those equal to it, on X's copy of the task
            both = np.take_along_axis(below[j], lower[copies], 2) + np.take_along_axis(
                below[j], upper[copies], 2
            )
            wins = (drawn[i] * both).sum(axis=2) / (2 * runs[i][copies] * runs[j][copies])
            out[k, rows] = wins.mean(axis=1)
        report(done, len(sizes))
    return task_p, out


def _matrices(n, pairs, task_p, lows, highs):
    """The (methods, methods) matrices from the values of the pairs (i, j), i < j, mirrored: P(Y > X) =
    1 - P(X > Y), and the interval of P(Y > X) is 1 minus that of P(X > Y), its ends swapped."""
    probability = np.full((n, n), np.nan)
    low, high = probability.copy(), probability.copy()
    per_task = np.full((n, n, task_p.shape[1]), np.nan)
    for k, (i, j) in enumerate(pairs):
        per_task[i, j], per_task[j, i] = task_p[k], 1 - task_p[k]
        probability[i, j] = exact_mean(task_p[k])  # the same for every order of the tasks
        probability[j, i] = 1 - probability[i, j]
        low[i, j], high[i, j] = lows[k], highs[k]
        low[j, i], high[j, i] = 1 - highs[k], 1 - lows[k]
    return {"probability": probability, "low": low, "high": high, "task_probability": per_task}


def plot_improvement(result: ImprovementResult, *, ax: Axes | None = None, title: str | None = None) -> Axes:
    """Draw P(X > Y) of every pair with its interval, as rliable's probability-of-improvement plot.

    One row per pair of methods, the one more likely better (X, left) against the other (Y, right), the
    highest probability at the top: a bar spans the interval, a tick marks P(X > Y), and a dashed line
    marks 1/2, no improvement. Pairs whose interval lies above 1/2 are drawn in a darker colour.

    Parameters
    ----------
    result : ImprovementResult
        From :func:`improvement_probabilities`.
    ax : matplotlib.axes.Axes, optional
        The Axes to draw on; default: those of a new figure, 0.35 inch high per pair.
    title : str, optional
        The title; default: the interval's level and how it was computed.

    Returns
    -------
    matplotlib.axes.Axes
        The Axes drawn on. Nothing is written: save the figure with :func:`benchtrust.save_figure`.

    See Also
    --------
    improvement_probabilities : The probability of improvement of every method over every other.
    ImprovementResult : P(X > Y) of every pair of methods, with intervals.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.3.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> uci = bundled_task_scores("uci")
    >>> ax = plot_improvement(improvement_probabilities(uci, paired=True))
    >>> ax.get_xlabel(), [label.get_text() for label in ax.get_yticklabels()][:2]
    ('P(X > Y)', ['aode', 'hnb'])
    """
    from benchtrust._figures import axes_for

    pairs = result.pairs()
    ax = axes_for(ax, (6.5, 1.0 + 0.35 * max(1, len(pairs))))
    rows = np.arange(len(pairs))[::-1]
    for row, (i, j) in zip(rows, pairs, strict=True):
        low, high = result.low[i, j], result.high[i, j]
        colour = "tab:blue" if low > 0.5 else "tab:gray"
        if not np.isnan(low):
            ax.barh(row, high - low, left=low, height=0.6, color=colour, alpha=0.35, linewidth=0)
        ax.plot([result.probability[i, j]] * 2, [row - 0.3, row + 0.3], color=colour, linewidth=2)
    ax.axvline(0.5, color="black", linestyle="--", linewidth=1)
    ax.set_yticks(rows, [result.methods[i] for i, _ in pairs])
    right = ax.secondary_yaxis("right")
    right.set_yticks(rows, [result.methods[j] for _, j in pairs])
    ax.set_ylabel("X")
    right.set_ylabel("Y")
    ax.set_ylim(-0.6, len(pairs) - 0.4)
    ax.set_xlabel("P(X > Y)")
    if title is None:
        title = f"probability of improvement, {level_text(result.alpha)} intervals ({result.method})"
    ax.set_title(title, fontsize="medium")
    return ax
