"""Effect sizes of one method against another, task by task and over all tasks, with intervals.

Two effect sizes, each with its conventional magnitude words:

* Vargha and Delaney's A (A₁₂; Vargha & Delaney 2000, "A critique and improvement of the CL common language
  effect size statistics of McGraw and Wong", J. Educ. Behav. Stat. 25(2)): A = P(a > b) + ½ P(a = b),
  the chance that a run of `a` scores better than a run of `b`, and Cliff's δ = 2A - 1 (Cliff 1993), the
  same information on [-1, 1]. Magnitude (Vargha & Delaney 2000): max(A, 1 - A) below 0.56 negligible,
  below 0.64 small, below 0.71 medium, else large.
* Hedges' g (Hedges 1981): the standardised mean difference (mean_a - mean_b) / s_pooled times the exact
  bias correction J(ν) = Γ(ν/2) / (sqrt(ν/2) Γ((ν - 1)/2)), ν = n_a + n_b - 2. Magnitude (Cohen 1988):
  |g| below 0.2 negligible, below 0.5 small, below 0.8 medium, else large.

Both are signed so that positive values favour `a` in the scores' direction.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._exact import exact_mean
from benchtrust._interval import Interval
from benchtrust._io import MAX_MEMORY, Seed, check_probability, check_seed
from benchtrust._result import Description, Result
from benchtrust._words import aligned, interval_cell, level_text, paragraph
from benchtrust.compare._bootstrap import FEW_RUNS, check_progress, check_resamples
from benchtrust.compare._pipelines._outperform import _exact_interval
from benchtrust.compare._tasks._effect_stats import brunner_munzel, hedges_g
from benchtrust.compare._tasks._pair_bootstrap import (
    check_paired,
    method_words,
    oriented,
    pair_estimates,
    require_pairs,
)
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    method_pair,
    normalisation_words,
    scores_files,
)

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = ["EffectSizeResult", "cohen_magnitude", "effect_sizes", "vargha_delaney_magnitude"]

_SOURCE = (
    "Vargha & Delaney 2000 (A and its thresholds); Cliff 1993 (δ); Brunner & Munzel 2000 (interval of A); "
    "Hedges 1981 and Steiger & Fouladi 1997 (g and its noncentral t interval); Cohen 1988 (thresholds of g); "
    "Agarwal et al. 2021, §4.1 and §4.3 (A averaged over tasks, stratified bootstrap)"
)
_PAIRED_SOURCE = "; paired runs: Bouthillier et al. 2021, Eq. 9 and appendix C.5 (exact bootstrap interval)"

#: Lower ends of max(A, 1 - A) for small, medium and large effects (Vargha & Delaney 2000).
VD_THRESHOLDS = (0.56, 0.64, 0.71)
#: Lower ends of |g| for small, medium and large effects (Cohen 1988, ch. 2).
COHEN_THRESHOLDS = (0.2, 0.5, 0.8)
#: Slack for rounding when a size is compared with a threshold (0.71 - 0.5 != 0.21 in floating point).
_SLACK = 1e-12
_MAGNITUDES = ("negligible", "small", "medium", "large")


def _magnitude(size: ArrayLike, thresholds: tuple[float, float, float]) -> np.ndarray:
    size = np.asarray(size, dtype=float)
    words = np.array(_MAGNITUDES, dtype=object)[np.searchsorted(thresholds, size + _SLACK, side="right")]
    return np.where(np.isnan(size), "", words)


def vargha_delaney_magnitude(a12: ArrayLike) -> np.ndarray:
    """The magnitude of A in words (Vargha & Delaney 2000): negligible below 0.56 (or above 0.44), small
    below 0.64, medium below 0.71, else large.

    See Also
    --------
    effect_sizes : Vargha and Delaney's A, Cliff's δ and Hedges' g, per task and over tasks.
    EffectSizeResult : A, Cliff's δ and Hedges' g, per task and over all tasks.
    cohen_magnitude : Cohen's words for a standardised mean difference.

    References
    ----------
    .. [1] András Vargha and Harold D. Delaney, "A critique and improvement of the CL common language effect
       size statistics of McGraw and Wong", Journal of Educational and Behavioral Statistics 25(2), 101-132,
       2000. doi:10.3102/10769986025002101.

    Examples
    --------
    >>> vargha_delaney_magnitude([0.5, 0.58, 0.3, 0.71]).tolist()
    ['negligible', 'small', 'medium', 'large']
    """
    a12 = np.asarray(a12, dtype=float)
    return _magnitude(np.maximum(a12, 1 - a12), VD_THRESHOLDS)


def cohen_magnitude(g: ArrayLike) -> np.ndarray:
    """The magnitude of a standardised mean difference in words (Cohen 1988): negligible below 0.2,
    small below 0.5, medium below 0.8, else large.

    See Also
    --------
    effect_sizes : Vargha and Delaney's A, Cliff's δ and Hedges' g, per task and over tasks.
    EffectSizeResult : A, Cliff's δ and Hedges' g, per task and over all tasks.
    vargha_delaney_magnitude : Vargha and Delaney's words for A.

    References
    ----------
    .. [1] Jacob Cohen, "Statistical power analysis for the behavioral sciences", 2nd ed., Lawrence Erlbaum,
       Hillsdale NJ, 1988.
    .. [2] Larry V. Hedges, "Distribution theory for Glass's estimator of effect size and related estimators",
       Journal of Educational Statistics 6(2), 107-128, 1981. doi:10.3102/10769986006002107.

    Examples
    --------
    >>> cohen_magnitude([0.1, -0.3, 0.5, 2.0]).tolist()
    ['negligible', 'small', 'medium', 'large']
    """
    return _magnitude(np.abs(np.asarray(g, dtype=float)), COHEN_THRESHOLDS)


def _span(low, high, centre, words) -> str:
    """What an interval says about the magnitude, in words: ``as is the whole interval``, ``the interval
    spans small to large effects`` or ``the interval contains <centre>``."""
    if (low - centre) * (high - centre) <= 0:
        return f"the interval contains {centre:g}"
    ends = sorted({str(words(low)), str(words(high))}, key=_MAGNITUDES.index)
    if len(ends) == 1:
        return "as is the whole interval"
    return f"the interval spans {ends[0]} to {ends[1]} effects"


@dataclasses.dataclass(frozen=True, eq=False)
class EffectSizeResult(Result):
    """How much better one method is than another, task by task and over all tasks.

    Attributes
    ----------
    a, b : str
        The two methods; positive effects favour `a`.
    tasks : tuple of str
        The tasks.
    runs_a, runs_b : numpy.ndarray
        Their runs on each task.
    mean_a, mean_b : numpy.ndarray
        Their mean (normalised) score on each task.
    a12, a12_low, a12_high : numpy.ndarray
        Vargha and Delaney's A on each task, P(a > b) + ½ P(a = b), and its interval at level 1 - α
        (Brunner-Munzel for all pairs of runs; the exact bootstrap for paired runs). NaN ends where
        there is no interval (see :attr:`notes`).
    g, g_low, g_high : numpy.ndarray
        Hedges' g on each task and the noncentral t interval of δ.
    notes : tuple of str
        Why a task has no interval ("" where it has both).
    overall_a12 : float
        A averaged over tasks: the probability of improvement of Agarwal et al. (2021).
    overall_a12_ci : benchtrust.Interval
        Its stratified bootstrap interval (exact for paired runs); NaN ends with one run on every task.
    overall_g : float
        Hedges' g averaged over the tasks where it is defined.
    overall_g_ci : benchtrust.Interval
        Its normal interval, overall_g ± z_{1-α/2} sqrt(Σ var(g_m)) / M (tasks fixed).
    g_tasks : int
        The tasks g is averaged over.
    alpha : float
        α; every interval's level is 1 - α.
    paired : bool
        Whether run k of `a` was compared with run k of `b` (same labels) rather than all pairs of runs.
    method : str
        How the interval of overall_a12 was computed: ``"exact"`` or ``"resampled, B resamples"``.
    seed : int or None
        The seed given as a number.
    direction : {"higher", "lower"}
        Which scores are better.
    normalisation_text : str
        How the scores were normalised, in words.

    See Also
    --------
    effect_sizes : Vargha and Delaney's A, Cliff's δ and Hedges' g, per task and over tasks.
    vargha_delaney_magnitude : Vargha and Delaney's words for A.
    cohen_magnitude : Cohen's words for a standardised mean difference.

    References
    ----------
    .. [1] András Vargha and Harold D. Delaney, "A critique and improvement of the CL common language effect
       size statistics of McGraw and Wong", Journal of Educational and Behavioral Statistics 25(2), 101-132,
       2000. doi:10.3102/10769986025002101.
    .. [2] Norman Cliff, "Dominance statistics: ordinal analyses to answer ordinal questions", Psychological
       Bulletin 114(3), 494-509, 1993. doi:10.1037/0033-2909.114.3.494.
    .. [3] Larry V. Hedges, "Distribution theory for Glass's estimator of effect size and related estimators",
       Journal of Educational Statistics 6(2), 107-128, 1981. doi:10.3102/10769986006002107.
    .. [4] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.3.
    """

    a: str
    b: str
    tasks: tuple[str, ...]
    runs_a: np.ndarray
    runs_b: np.ndarray
    mean_a: np.ndarray
    mean_b: np.ndarray
    a12: np.ndarray
    a12_low: np.ndarray
    a12_high: np.ndarray
    g: np.ndarray
    g_low: np.ndarray
    g_high: np.ndarray
    notes: tuple[str, ...]
    overall_a12: float
    overall_a12_ci: Interval
    overall_g: float
    overall_g_ci: Interval
    g_tasks: int
    alpha: float
    paired: bool
    method: str
    seed: int | None
    direction: str
    normalisation_text: str

    @property
    def delta(self) -> np.ndarray:
        """Cliff's δ on each task: 2A - 1."""
        return 2 * self.a12 - 1

    @property
    def overall_delta(self) -> float:
        """Cliff's δ of the average A: 2A - 1."""
        return 2 * self.overall_a12 - 1

    @property
    def overall_delta_ci(self) -> Interval:
        """The interval of the overall δ: 2 (interval of A) - 1."""
        return Interval(2 * self.overall_a12_ci.low - 1, 2 * self.overall_a12_ci.high - 1)

    def __repr__(self) -> str:
        return (
            f"EffectSizeResult(a={self.a!r}, b={self.b!r}, tasks={len(self.tasks)}, paired={self.paired}, "
            f"overall_a12={self.overall_a12:.4f}, overall_g={self.overall_g:.4g}, method={self.method!r})"
        )

    def _calls(self):
        """Each task's call: which method is better, or why nothing is decided."""
        calls = []
        for k in range(len(self.tasks)):
            if self.notes[k]:
                calls.append(self.notes[k])
            elif self.a12_low[k] > 0.5:
                calls.append(f"{self.a} better")
            elif self.a12_high[k] < 0.5:
                calls.append(f"{self.b} better")
            else:
                calls.append("cannot tell")
        return calls

    def _columns(self):
        level = level_text(self.alpha)
        return ("task", "runs", "A", f"{level} interval", "size", "g", f"{level} interval", "size", "")

    def _rows(self):
        a_words = vargha_delaney_magnitude(self.a12)
        g_words = cohen_magnitude(self.g)
        return [
            (
                self.tasks[k],
                f"{self.runs_a[k]}, {self.runs_b[k]}",
                f"{self.a12[k]:.3f}",
                interval_cell(self.a12_low[k], self.a12_high[k], 3),
                a_words[k],
                _number(self.g[k]),
                interval_cell(self.g_low[k], self.g_high[k], 3),
                g_words[k],
                call,
            )
            for k, call in enumerate(self._calls())
        ]

    def _overall_rows(self):
        level = level_text(self.alpha)
        low, high = self.overall_a12_ci
        return [
            ("effect over all tasks", "estimate", f"{level} interval", "size"),
            (
                "A (probability of improvement)",
                f"{self.overall_a12:.4f}",
                interval_cell(low, high, 3),
                str(vargha_delaney_magnitude(self.overall_a12)),
            ),
            (
                "Cliff's δ = 2A - 1",
                f"{self.overall_delta:+.4f}",
                interval_cell(*self.overall_delta_ci, 3),
                str(vargha_delaney_magnitude(self.overall_a12)),
            ),
            (
                f"Hedges' g, mean of {self.g_tasks} tasks",
                _number(self.overall_g),
                interval_cell(*self.overall_g_ci, 3),
                str(cohen_magnitude(self.overall_g)),
            ),
        ]

    def _runs_words(self):
        if self.paired:
            return f"run k of {self.a} against run k of {self.b}, paired by their labels"
        return f"every run of {self.a} against every run of {self.b}"

    def describe(self) -> Description:
        """Effect sizes task by task, over all tasks, then the verdict."""
        verdict = self.verdict
        overall = self._overall_rows()
        frame = self._frame()
        text = [
            paragraph(
                f"Effect sizes of {self.a} against {self.b} on {len(self.tasks)} tasks; {self.direction} is "
                f"better, positive effects favour {self.a}. A = P({self.a} > {self.b}) + ½ P(=) (Vargha & "
                f"Delaney 2000), {self._runs_words()}; Cliff's δ = 2A - 1; Hedges' g = "
                "bias-corrected standardised mean difference (Hedges 1981). Intervals: A per task "
                f"{self._a_interval_words()}, A over tasks {self._overall_interval_words()}, g per task "
                "noncentral t (Steiger & Fouladi 1997), g over tasks normal (tasks fixed)."
            ),
            "",
            *aligned([self._columns(), *self._rows()]),
            "",
            *aligned(overall),
            "",
            paragraph(verdict),
        ]
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(text),
            data={
                "a": self.a,
                "b": self.b,
                "alpha": self.alpha,
                "paired": self.paired,
                "method": self.method,
                "direction": self.direction,
                "overall": {
                    "a12": self.overall_a12,
                    "a12_ci": self.overall_a12_ci,
                    "delta": self.overall_delta,
                    "delta_ci": self.overall_delta_ci,
                    "g": self.overall_g,
                    "g_ci": self.overall_g_ci,
                    "g_tasks": self.g_tasks,
                    "a12_size": str(vargha_delaney_magnitude(self.overall_a12)),
                    "g_size": str(cohen_magnitude(self.overall_g)),
                },
                "tasks": [{key: values[k] for key, values in frame.items()} for k in range(len(self.tasks))],
            },
            columns=self._columns(),
            rows=tuple(self._rows()),
            frame=frame,
            tables=(("Over all tasks", overall[0], tuple(overall[1:])),),
            assumptions=(
                ("direction", f"{self.direction} is better; positive effects favour {self.a}"),
                ("runs compared", self._runs_words()),
                ("interval of A per task", self._a_interval_words()),
                ("interval of A over tasks", self._overall_interval_words()),
                ("interval of g", "noncentral t per task; normal over tasks, tasks fixed"),
                ("magnitudes", "A: 0.56 / 0.64 / 0.71 (Vargha & Delaney); g: 0.2 / 0.5 / 0.8 (Cohen)"),
                ("normalisation", self.normalisation_text),
            ),
            source=_SOURCE + (_PAIRED_SOURCE if self.paired else ""),
            inputs=self.inputs,
            analysis="compare effect",
        )

    def _a_interval_words(self):
        return "exact bootstrap of the paired runs" if self.paired else "Brunner-Munzel"

    def _overall_interval_words(self):
        how = "exact" if self.method == "exact" else self.method
        return f"stratified bootstrap ({how})"

    @property
    def verdict(self) -> str:
        """Which method is better over all tasks and by how much, with the magnitude words, then task by
        task; says when the data decide nothing."""
        level = level_text(self.alpha)
        low, high = self.overall_a12_ci
        a12 = self.overall_a12
        head = (
            f"Over {len(self.tasks)} tasks, {self.a} scores better than {self.b} with probability A = "
            f"{a12:.2f}"
        )
        runs = min(int(self.runs_a.sum()), int(self.runs_b.sum()))
        if np.isnan(low):
            overall = (
                f"{head}, but with one run of each on every task there is no interval: the runs' noise is "
                "unknown, so nothing is decided."
            )
        elif runs < FEW_RUNS:
            overall = (
                f"{head}, from only {runs} runs of a method in all (fewer than {FEW_RUNS}): too few to "
                "read its interval as the noise of the runs, so nothing is decided; more runs are needed."
            )
        else:
            ci = f"{level} interval [{low:.2f}, {high:.2f}]; Cliff's δ = {self.overall_delta:+.2f}"
            if low > 0.5 or high < 0.5:
                winner = self.a if low > 0.5 else self.b
                span = _span(low, high, 0.5, vargha_delaney_magnitude)
                overall = (
                    f"{head} ({ci}): {winner} is better, a {vargha_delaney_magnitude(a12)} effect by Vargha "
                    f"and Delaney's thresholds, {span}."
                )
            else:
                overall = f"{head} ({ci}): cannot tell which is better, the interval contains 0.5."
        g_low, g_high = self.overall_g_ci
        if np.isnan(self.overall_g):
            g_text = "Hedges' g is not defined on any task (fewer than 4 runs in all, or no spread)."
        else:
            g_text = (
                f"Hedges' g averaged over {self.g_tasks} tasks: {self.overall_g:+.2f} ({level} interval "
                f"[{g_low:.2f}, {g_high:.2f}]), {cohen_magnitude(self.overall_g)} by Cohen's thresholds, "
                f"{_span(g_low, g_high, 0.0, cohen_magnitude)}."
            )
        return f"{overall} {g_text} {self._task_words()}"

    def _task_words(self):
        calls = self._calls()
        counts = {call: calls.count(call) for call in dict.fromkeys(calls)}
        order = [f"{self.a} better", f"{self.b} better", "cannot tell"]
        parts = [f"{call} on {counts[call]}" for call in order if call in counts]
        parts += [f"{call} on {n}" for call, n in counts.items() if call not in order]
        return f"Task by task (A's interval): {'; '.join(parts)}."

    def _frame(self):
        """The columns of ``to_frame()``, one row per task: ``task``, ``runs_a``, ``runs_b``, ``mean_a``,
        ``mean_b``, ``a12``, ``a12_low``, ``a12_high``, ``delta``, ``g``, ``g_low``, ``g_high``, ``a12_size``,
        ``g_size`` (magnitude words) and ``note``."""
        return {
            "task": list(self.tasks),
            "runs_a": self.runs_a,
            "runs_b": self.runs_b,
            "mean_a": self.mean_a,
            "mean_b": self.mean_b,
            "a12": self.a12,
            "a12_low": self.a12_low,
            "a12_high": self.a12_high,
            "delta": self.delta,
            "g": self.g,
            "g_low": self.g_low,
            "g_high": self.g_high,
            "a12_size": vargha_delaney_magnitude(self.a12),
            "g_size": cohen_magnitude(self.g),
            "note": list(self.notes),
        }


def _number(value):
    return "-" if np.isnan(value) else f"{value:+.3f}"


def _notes(a12, a_low, runs_a, runs_b, paired, a_name, b_name):
    """Why a task has no interval of A: too few runs, every pair of runs decided the same way, or no
    spread (every run equal: Brunner-Munzel's variance is 0)."""
    notes = []
    for value, low, na, nb in zip(a12, a_low, runs_a, runs_b, strict=True):
        if (nb if paired else min(na, nb)) < 2:
            notes.append("too few runs")
        elif value == 1:
            notes.append(f"{a_name} always better")
        elif value == 0:
            notes.append(f"{b_name} always better")
        elif np.isnan(low):
            notes.append("no spread")
        else:
            notes.append("")
    return tuple(notes)


def effect_sizes(
    scores: TaskScores,
    a: str,
    b: str,
    *,
    alpha: float = 0.05,
    paired: bool | None = None,
    resamples: int | None = None,
    seed: Seed = None,
    progress: Callable[[int, int], object] | None = None,
    max_memory: float = MAX_MEMORY,
) -> EffectSizeResult:
    """Vargha and Delaney's A, Cliff's δ and Hedges' g of `a` against `b`, per task and over all tasks.

    On each task (see the module's notes for the definitions and magnitude words):

    * A = P(a > b) + ½ P(a = b), over all pairs of runs (the Mann-Whitney U statistic over n_a n_b) with
      the Brunner-Munzel interval (Brunner & Munzel 2000; a t interval on the placements, valid without
      equal variances or continuous scores); or, for paired runs (``paired=True``), over the pairs of runs
      k, with the interval read off the exact bootstrap distribution of the mean of the win, tie and loss
      indicators (as :func:`probability_of_outperforming`; Bouthillier et al. 2021, C.5). Cliff's δ =
      2A - 1, its interval likewise. No interval where a method has fewer than 2 runs (pairs), or where
      every pair of runs goes the same way (A = 0 or 1: the variance estimate is 0).
    * Hedges' g with the noncentral t interval of δ (Steiger & Fouladi 1997), from the runs as two
      independent samples (for paired runs this ignores the pairing, the usual between-runs g).

    Over all tasks: A averaged over the tasks is the probability of improvement of Agarwal et al. (2021,
    §4.3), with the same interval as :func:`improvement_probabilities` (stratified bootstrap; exact for
    paired runs); Hedges' g averaged over the tasks where it is defined, with the normal interval
    mean ± z_{1-α/2} sqrt(Σ_m var(g_m)) / M, var(g_m) the large-sample variance of g (Borenstein et al.
    2009, ch. 4), the tasks held fixed as the stratified bootstrap holds them.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`.
    a, b : str
        The two methods; positive effects favour `a` in the scores' direction.
    alpha : float, default 0.05
        α in (0, 1); every interval's level is 1 - α.
    paired : bool, optional
        True: compare run k of `a` with run k of `b` (they need the same run labels on every task); False
        or None (default): all pairs of runs. Pairing is never inferred from the labels.
    resamples : int, optional
        B, the stratified bootstrap resamples of the interval of A over tasks; default as
        :func:`improvement_probabilities`.
        At least 1 + 2/α (41 at α = 0.05: :func:`~benchtrust.compare._bootstrap.minimum_resamples`), else
        an InputError naming the minimum.
    seed : int or numpy.random.Generator, optional
        Randomness of the resamples.
    progress : callable, optional
        Called as ``progress(done, total)`` after each chunk of resamples, as by
        :func:`improvement_probabilities`.
    max_memory : int, default 2e9
        The most bytes the resampled values of A over tasks may take (8 × B × 2); more is refused with an
        InputError naming this option, before any draw.

    Returns
    -------
    EffectSizeResult

    See Also
    --------
    EffectSizeResult : A, Cliff's δ and Hedges' g, per task and over all tasks.
    vargha_delaney_magnitude : Vargha and Delaney's words for A.
    cohen_magnitude : Cohen's words for a standardised mean difference.
    improvement_probabilities : The probability of improvement of every method over every other.

    References
    ----------
    .. [1] András Vargha and Harold D. Delaney, "A critique and improvement of the CL common language effect
       size statistics of McGraw and Wong", Journal of Educational and Behavioral Statistics 25(2), 101-132,
       2000. doi:10.3102/10769986025002101.
    .. [2] Norman Cliff, "Dominance statistics: ordinal analyses to answer ordinal questions", Psychological
       Bulletin 114(3), 494-509, 1993. doi:10.1037/0033-2909.114.3.494.
    .. [3] Larry V. Hedges, "Distribution theory for Glass's estimator of effect size and related estimators",
       Journal of Educational Statistics 6(2), 107-128, 1981. doi:10.3102/10769986006002107.
    .. [4] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.3 (A averaged over tasks: the
       probability of improvement).
    .. [5] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. Appendix C.5 (the interval of paired runs).

    Examples
    --------
    The UCI accuracies of Benavoli et al. (2017), whose 100 runs per data set are the same folds for every
    classifier (paired):

    >>> from benchtrust.compare import bundled_task_scores
    >>> uci = bundled_task_scores("uci")
    >>> result = effect_sizes(uci, "hnb", "nbc", paired=True)
    >>> print(result.verdict)  # doctest: +NORMALIZE_WHITESPACE
    Over 54 tasks, hnb scores better than nbc with probability A = 0.66 (95% interval [0.65, 0.67]; Cliff's
    δ = +0.31): hnb is better, a medium effect by Vargha and Delaney's thresholds, as is the whole interval.
    Hedges' g averaged over 54 tasks: +1.29 (95% interval [1.24, 1.35]), large by Cohen's thresholds, as is
    the whole interval. Task by task (A's interval): hnb better on 19; nbc better on 12; cannot tell on 13;
    hnb always better on 10.
    >>> result.to_frame()[["task", "a12", "a12_low", "a12_high", "g", "g_low", "g_high"]].round(3).head(2)
      task    a12  a12_low  a12_high      g  g_low  g_high
    0    0  0.885    0.830     0.935  1.243  0.943   1.549
    1    1  0.635    0.565     0.705  0.282  0.004   0.562

    The Atari 100k runs (independent trainings: all pairs of runs, Brunner-Munzel intervals per game):

    >>> atari = bundled_task_scores("atari100k")
    >>> spr = effect_sizes(atari, "SPR", "DER", resamples=1000, seed=0)
    >>> round(spr.overall_a12, 4), [round(end, 4) for end in spr.overall_a12_ci]
    (0.6858, [0.6725, 0.6987])
    """
    scores = check_task_scores(scores)
    ia, ib = method_pair(scores, a, b)
    alpha = check_probability(alpha, "alpha")
    if resamples is not None:
        resamples = check_resamples(resamples, alpha, zero=False)
    paired = bool(check_paired(paired))
    progress = check_progress(progress)
    rng = check_seed(seed)
    if paired:
        require_pairs(scores, [ia, ib])
    values = oriented(scores)[[ia, ib]]
    runs = scores.runs_per_task[[ia, ib]]
    task_p, lows, highs, used = pair_estimates(
        values,
        runs,
        [(0, 1)],
        paired=paired,
        alpha=alpha,
        resamples=resamples,
        rng=rng,
        report=progress or (lambda done, total: None),
        max_memory=max_memory,
    )
    a12 = task_p[0]
    if paired:
        x, y = values
        wins, ties = (x > y).sum(axis=1), (x == y).sum(axis=1)
        ends = np.array(
            [
                _exact_interval(int(n), int(w), int(t), alpha)
                for n, w, t in zip(runs[0], wins, ties, strict=True)
            ]
        )
        a_low, a_high = ends.T
    else:
        _, a_low, a_high = brunner_munzel(values[0], values[1], alpha)
    notes = _notes(a12, a_low, runs[0], runs[1], paired, a, b)
    no_interval = np.array([bool(note) for note in notes])
    a_low = np.where(no_interval, np.nan, a_low)
    a_high = np.where(no_interval, np.nan, a_high)
    g, g_low, g_high, variance = hedges_g(values[0], values[1], alpha)
    overall_g, overall_g_ci, g_tasks = _overall_g(g, variance, alpha)
    return EffectSizeResult(
        a=a,
        b=b,
        tasks=scores.tasks,
        runs_a=runs[0],
        runs_b=runs[1],
        mean_a=exact_mean(scores.scores[ia], axis=1),
        mean_b=exact_mean(scores.scores[ib], axis=1),
        a12=a12,
        a12_low=a_low,
        a12_high=a_high,
        g=g,
        g_low=g_low,
        g_high=g_high,
        notes=notes,
        overall_a12=float(exact_mean(a12)),
        overall_a12_ci=Interval(float(lows[0]), float(highs[0])),
        overall_g=overall_g,
        overall_g_ci=overall_g_ci,
        g_tasks=g_tasks,
        alpha=alpha,
        paired=paired,
        method=method_words(used),
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        direction=scores.direction,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        inputs=scores_files(scores),
    )


def _overall_g(g, variance, alpha):
    """Hedges' g averaged over the tasks where it is defined, with its normal interval (tasks fixed)."""
    from scipy.stats import norm

    defined = ~np.isnan(g)
    count = int(defined.sum())
    if not count:
        return float("nan"), Interval(float("nan"), float("nan")), 0
    mean = float(exact_mean(g))  # over the tasks where g is defined (NaN skipped)
    half = float(norm.ppf(1 - alpha / 2) * np.sqrt(variance[defined].sum()) / count)
    return mean, Interval(mean - half, mean + half), count
