"""Aggregate performance of several methods over many tasks (Agarwal et al. 2021, §4.3).

:func:`aggregate` gives the point estimates of Agarwal et al., "Deep reinforcement learning at the edge of
the statistical precipice" (NeurIPS 2021; the rliable library): the mean and the median of each method's
per-task mean scores, and the interquartile mean (IQM) and the optimality gap of its (normalised) scores,
every run on every task pooled. The stratified bootstrap intervals of these estimates (§4.1) come in a
later step.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchtrust._io import InputError, check_number
from benchtrust._words import GAMMA, TIMES, paragraph
from benchtrust.compare._tasks import TaskScores, normalisation_words, scores_words
from benchtrust.compare._text import aligned, listed

__all__ = ["AggregateResult", "aggregate"]

PAPER = "Agarwal et al. 2021"
_SOURCE = f"{PAPER}, deep reinforcement learning at the edge of the statistical precipice, §4.3"
#: The estimates, in the order of the table, with their headers.
_ESTIMATES = {"mean": "mean", "median": "median", "iqm": "IQM", "optimality_gap": "optimality gap"}


@dataclasses.dataclass(frozen=True, eq=False)
class AggregateResult:
    """Aggregate performance of each method over many tasks (Agarwal et al. 2021, §4.3).

    Attributes
    ----------
    methods : tuple of str
        The methods, in the order of :attr:`TaskScores.methods`.
    mean, median, iqm, optimality_gap : numpy.ndarray
        One value per method: the mean and the median of its per-task mean scores; the IQM and the
        optimality gap of all its runs on all tasks pooled. ``optimality_gap`` is NaN where no target γ
        applies (raw scores and no `gamma` given).
    rank : numpy.ndarray
        Each method's rank by IQM, 1 = best in `direction`; tied methods share the best of their ranks.
    runs : numpy.ndarray
        Each method's number of runs, over all tasks.
    tasks : int
        The number of tasks.
    gamma : float or None
        γ, the target of the optimality gap; None when it is not computed.
    direction : {"higher", "lower"}
        Which scores are better.
    normalisation : {"none", "minmax", "reference"}
        How the scores were normalised (:func:`read_task_scores`).
    normalisation_text : str
        The normalisation in words.
    missing : int
        The number of (method, task) pairs with missing runs (see :attr:`TaskScores.missing`).
    """

    methods: tuple[str, ...]
    mean: np.ndarray
    median: np.ndarray
    iqm: np.ndarray
    optimality_gap: np.ndarray
    rank: np.ndarray
    runs: np.ndarray
    tasks: int
    gamma: float | None
    direction: str
    normalisation: str
    normalisation_text: str
    missing: int

    @property
    def leaders(self) -> tuple[str, ...]:
        """The method(s) with the best IQM (more than one when tied)."""
        return tuple(m for m, r in zip(self.methods, self.rank, strict=True) if r == 1)

    def __repr__(self):
        iqm = ", ".join(f"{m}: {v:.4g}" for m, v in zip(self.methods, self.iqm, strict=True))
        return (
            f"AggregateResult(methods={len(self.methods)}, tasks={self.tasks}, direction={self.direction!r}, "
            f"normalisation={self.normalisation!r}, iqm={{{iqm}}}, leaders={list(self.leaders)})"
        )

    def _order(self):
        return np.argsort(self.rank, kind="stable")

    def _gap_words(self):
        if self.gamma is None:
            return "optimality gap not computed (raw scores have no target; pass gamma)"
        if self.direction == "higher":
            return f"optimality gap = mean of max(0, {GAMMA} - score), {GAMMA} = {self.gamma:g}"
        return f"optimality gap = mean of max(0, score - {GAMMA}), {GAMMA} = {self.gamma:g}"

    def __str__(self):
        """The estimates of every method, best IQM first, then the verdict (Agarwal et al. 2021, §4.3)."""
        rows = [("rank", "method", "runs", *_ESTIMATES.values())]
        for i in self._order():
            cells = [_number(getattr(self, key)[i]) for key in _ESTIMATES]
            rows.append((str(int(self.rank[i])), self.methods[i], str(int(self.runs[i])), *cells))
        lines = [
            paragraph(
                f"Aggregate performance over {self.tasks} tasks ({PAPER} §4.3): mean and median of the "
                "per-task means; IQM = mean of the middle 50% of every run on every task pooled; "
                f"{self._gap_words()}; {self.direction} is better; normalisation: "
                f"{self.normalisation_text}."
            ),
            "",
            *aligned(rows),
            "",
            paragraph(self.verdict),
        ]
        return "\n".join(lines)

    @property
    def verdict(self) -> str:
        """The result in plain words: which method leads on IQM, and by how much (point estimates)."""
        what = f"IQM of the {scores_words(self.normalisation)}"
        later = (
            "These are point estimates: the stratified bootstrap intervals (Agarwal et al. 2021, §4.1) that "
            "say whether such differences exceed the noise of the runs come in a later step."
        )
        missing = (
            f" {self.missing} method {TIMES} task pairs have missing runs; every method keeps the runs it "
            "has."
            if self.missing
            else ""
        )
        leaders = self.leaders
        best = float(self.iqm[self.methods.index(leaders[0])])
        if len(self.methods) == 1:
            return (
                f"One method, {leaders[0]}: {what} {best:.4g} over {self.tasks} tasks; nothing to compare it "
                f"with.{missing}"
            )
        if len(leaders) == len(self.methods):
            lead = f"All {len(self.methods)} methods tie on the {what}: {best:.4g}"
        elif len(leaders) > 1:
            lead = f"{listed(leaders)} tie for the lead on the {what}: {best:.4g}"
        else:
            order = self._order()
            runner = order[1]
            lead = (
                f"{leaders[0]} leads on the {what}: {best:.4g}, against {self.iqm[runner]:.4g} for "
                f"{self.methods[runner]}, the next"
            )
        return (
            f"{lead} ({len(self.methods)} methods, {self.tasks} tasks; {self.direction} is better).{missing} "
            f"{later}"
        )

    def _repr_html_(self):
        from benchtrust._html import Section, section_html
        from benchtrust.compare._section import COMPARE_QUESTION

        rows = tuple(
            (
                str(int(self.rank[i])),
                self.methods[i],
                str(int(self.runs[i])),
                *(_number(getattr(self, key)[i]) for key in _ESTIMATES),
            )
            for i in self._order()
        )
        return section_html(
            Section(
                title=COMPARE_QUESTION,
                analysis="compare aggregate over tasks",
                verdict=self.verdict,
                columns=("rank", "method", "runs", *_ESTIMATES.values()),
                rows=rows,
                assumptions=(
                    ("direction", f"{self.direction} is better"),
                    ("normalisation", self.normalisation_text),
                    (f"{GAMMA}, optimality gap", "not computed" if self.gamma is None else f"{self.gamma:g}"),
                    ("missing runs", "every method keeps the runs it has" if self.missing else "none"),
                ),
                source=_SOURCE,
            )
        )

    def to_frame(self):
        """One row per method, best IQM first: ``method``, ``runs``, ``mean``, ``median``, ``iqm``,
        ``optimality_gap`` and ``rank``."""
        import pandas as pd

        order = self._order()
        return pd.DataFrame(
            {
                "method": [self.methods[i] for i in order],
                "runs": self.runs[order],
                "mean": self.mean[order],
                "median": self.median[order],
                "iqm": self.iqm[order],
                "optimality_gap": self.optimality_gap[order],
                "rank": self.rank[order],
            }
        )

    def to_dict(self):
        """The result as plain JSON types (None for an optimality gap not computed)."""
        return {
            "tasks": self.tasks,
            "direction": self.direction,
            "normalisation": self.normalisation,
            "gamma": self.gamma,
            "missing": self.missing,
            "leaders": list(self.leaders),
            "methods": [
                {
                    "method": self.methods[i],
                    "runs": int(self.runs[i]),
                    **{key: _plain(getattr(self, key)[i]) for key in _ESTIMATES},
                    "rank": int(self.rank[i]),
                }
                for i in self._order()
            ],
        }


def _number(value) -> str:
    return "-" if np.isnan(value) else f"{value:.4f}"


def _plain(value):
    return None if np.isnan(value) else float(value)


def aggregate(scores, *, gamma=None) -> AggregateResult:
    """Mean, median, interquartile mean and optimality gap of each method (Agarwal et al. 2021, §4.3).

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

    Methods are ranked by IQM (the paper's recommended aggregate), the best in the scores' direction first.
    A method with missing runs on some tasks (see :func:`read_task_scores`) is aggregated over the runs it
    has: its mean and median still weigh every task the same, while in its IQM and optimality gap a task
    with fewer runs weighs less.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`.
    gamma : float, optional
        γ, the target of the optimality gap, in the units of the (normalised) scores.

    Returns
    -------
    AggregateResult

    Examples
    --------
    >>> from benchtrust.compare import bundled_results, read_task_scores
    >>> atari = read_task_scores(bundled_results("atari100k"), direction="higher", method_column="algorithm",
    ...                          task_column="game", normalise="reference",
    ...                          reference=bundled_results("atari_reference"))
    >>> result = aggregate(atari)
    >>> result.to_frame().round(4).head(3)
         method  runs    mean  median     iqm  optimality_gap  rank
    0       SPR  2600  0.6158  0.3956  0.3366          0.5773     1
    1  DrQ(eps)  2600  0.4647  0.3129  0.2796          0.6305     2
    2       DrQ  2600  0.3691  0.2120  0.2236          0.6917     3
    >>> result.leaders
    ('SPR',)
    """
    from scipy import stats

    if not isinstance(scores, TaskScores):
        raise InputError(
            "scores: expected TaskScores (from benchtrust.compare.read_task_scores), got "
            f"{type(scores).__name__}"
        )
    if gamma is not None:
        target = check_number(gamma, "gamma")
    elif scores.normalisation == "none":
        target = None  # raw scores: no natural target
    else:
        target = 1.0 if scores.direction == "higher" else 0.0

    n = len(scores.methods)
    estimates = {key: np.full(n, np.nan) for key in _ESTIMATES}
    task_means = np.nanmean(scores.scores, axis=2)  # every method has a run on every task
    estimates["mean"] = task_means.mean(axis=1)
    estimates["median"] = np.median(task_means, axis=1)
    runs = np.zeros(n, dtype=np.int64)
    for i in range(n):  # a few methods; each pooled over its runs × tasks
        x = scores.scores[i][~np.isnan(scores.scores[i])]
        runs[i] = x.size
        estimates["iqm"][i] = stats.trim_mean(x, 0.25)
        if target is not None:
            shortfall = target - x if scores.direction == "higher" else x - target
            estimates["optimality_gap"][i] = np.maximum(0.0, shortfall).mean()
    key = -estimates["iqm"] if scores.direction == "higher" else estimates["iqm"]
    rank = stats.rankdata(key, method="min").astype(np.int64)
    return AggregateResult(
        methods=scores.methods,
        **estimates,
        rank=rank,
        runs=runs,
        tasks=len(scores.tasks),
        gamma=target,
        direction=scores.direction,
        normalisation=scores.normalisation,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        missing=len(scores.missing),
    )
