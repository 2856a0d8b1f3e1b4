"""The Bayesian correlated t-test of two methods on one data set's cross-validation (Benavoli et al. 2017 §3).

:func:`correlated_t_test`: from the paired runs × folds of a repeated cross-validation, the posterior of the
mean difference is a Student t whose scale carries the Nadeau-Bengio correction for the overlap of the
training sets; the probabilities of the three outcomes (a practically better, practically equivalent, b
practically better) are exact. The words and checks it shares with the signed-rank test are in
:mod:`benchtrust.compare._tasks._bayes`.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchtrust._distributions import t_cdf, t_sf
from benchtrust._exact import exact_mean, exact_variance, power_of_two_scale
from benchtrust._io import InputError
from benchtrust._result import Description, Result
from benchtrust._words import RHO, aligned, listed, paragraph
from benchtrust.compare._tasks._bayes import (
    _DECISIONS,
    _TITLE,
    PAPER,
    THRESHOLD,
    _advantage_words,
    _check_folds,
    _check_rope,
    _check_threshold,
    _decided_words,
    _decision,
    _decision_words,
    _outcomes,
    _probabilities_words,
    _probability_text,
    _rope_words,
    _short_outcomes,
    _task_indices,
)
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    method_pair,
    scores_files,
)

__all__ = ["CorrelatedTResult", "correlated_t_test"]

_SOURCE_T = f"{PAPER}, {_TITLE}, §3 (Bayesian correlated t-test)"


# ---------------------------------------------------------------------------------------------------------
# Bayesian correlated t-test (§3)


@dataclasses.dataclass(frozen=True, eq=False)
class CorrelatedTResult(Result):
    """The Bayesian correlated t-test of a against b on each task (Benavoli et al. 2017, §3).

    Attributes
    ----------
    a, b : str
        The two methods compared.
    tasks : tuple of str
        The tasks (data sets) tested, one by one.
    runs : numpy.ndarray
        n, the paired runs of each task (repetitions × folds).
    folds : int
        k, the folds of each cross-validation; the correlation ρ = 1/k.
    mean : numpy.ndarray
        The location of each task's posterior: the mean difference d̄, d the advantage of a (a - b when
        higher is better, b - a when lower is better). NaN with fewer than two runs.
    scale : numpy.ndarray
        The scale of each posterior, sqrt((1/n + ρ/(1 - ρ)) s²), s² the variance of the differences; 0
        where every difference is the same (`degenerate`).
    p_a_better, p_rope, p_b_better : numpy.ndarray
        Per task, the posterior probabilities that the mean difference exceeds r (a better), lies within
        ±r (practically equivalent; 0 when r = 0) and is below -r (b better). NaN with fewer than two runs.
    degenerate : numpy.ndarray
        Bool per task: every difference is the same, so the posterior is a point at d̄.
    rope : float
        r, the half-width of the ROPE, in the units of the scores.
    threshold : float
        The probability an outcome must exceed to be decided.
    direction : {"higher", "lower"}
        Which scores are better.

    See Also
    --------
    correlated_t_test : The Bayesian correlated t-test on a cross-validation.
    signed_rank_test : The Bayesian signed-rank test across data sets.

    References
    ----------
    .. [1] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §3.
    .. [2] Claude Nadeau and Yoshua Bengio, "Inference for the generalization error", Machine Learning 52(3),
       239-281, 2003. doi:10.1023/A:1024068626366.
    """

    a: str
    b: str
    tasks: tuple[str, ...]
    runs: np.ndarray
    folds: int
    mean: np.ndarray
    scale: np.ndarray
    p_a_better: np.ndarray
    p_rope: np.ndarray
    p_b_better: np.ndarray
    degenerate: np.ndarray
    rope: float
    threshold: float
    direction: str

    @property
    def df(self) -> np.ndarray:
        """The degrees of freedom of each posterior, n - 1."""
        return self.runs - 1

    @property
    def decisions(self) -> tuple[str, ...]:
        """Per task: "a_better", "equivalent", "b_better", "undecided", or "too_few_runs" (n < 2)."""
        return tuple(
            "too_few_runs" if np.isnan(p[0]) else _decision(p, self.threshold)
            for p in zip(self.p_a_better, self.p_rope, self.p_b_better, strict=True)
        )

    def __repr__(self) -> str:
        if len(self.tasks) == 1:
            shown = (
                f"task={self.tasks[0]!r}, p_a_better={self.p_a_better[0]:.4g}, p_rope={self.p_rope[0]:.4g}, "
                f"p_b_better={self.p_b_better[0]:.4g}"
            )
        else:
            counts = {d: self.decisions.count(d) for d in (*_DECISIONS, "undecided")}
            shown = f"tasks={len(self.tasks)}, decisions={counts}"
        return (
            f"CorrelatedTResult(a={self.a!r}, b={self.b!r}, rope={self.rope:g}, folds={self.folds}, "
            f"direction={self.direction!r}, {shown})"
        )

    def _task_verdict(self, j):
        a, b, task = self.a, self.b, self.tasks[j]
        n = int(self.runs[j])
        if np.isnan(self.p_a_better[j]):
            return (
                f"On task {task}, {a} and {b} have {n} paired run{'s' if n != 1 else ''}: the correlated "
                "t-test needs at least two, so nothing can be said."
            )
        probabilities = (self.p_a_better[j], self.p_rope[j], self.p_b_better[j])
        decision = _decision(probabilities, self.threshold)
        design = f"{n} paired runs of {self.folds}-fold cross-validation, {_rope_words(self.rope)}"
        where = f"On task {task} ({design})"
        if self.degenerate[j]:
            head = (
                f"{where}, every difference {_advantage_words(a, b, self.direction)} equals "
                f"{self.mean[j]:.6g}: with no variance the posterior degenerates to a point, which "
                "measures no uncertainty"
            )
            if decision == "undecided":
                return (
                    f"{head}; with no ROPE, 0 lies on the boundary of the two sides, each given ½ (as in "
                    "baycomp). The data cannot decide."
                )
            return (
                f"{head}; the outcome the point falls in gets probability 1 (as in baycomp): "
                f"{_decided_words(decision, a, b, self.rope, 1.0)}, but only on this task's runs."
            )
        if decision == "undecided":
            return (
                f"{where}, the data cannot decide: {_probabilities_words(a, b, self.rope, probabilities)}; "
                f"none exceeds {self.threshold:g}."
            )
        k = _DECISIONS.index(decision)
        return f"{where}, {_decided_words(decision, a, b, self.rope, probabilities[k])}."

    @property
    def verdict(self) -> str:
        """The result in plain words: the decision on the task, or the count of each decision over the
        tasks."""
        if len(self.tasks) == 1:
            return self._task_verdict(0)
        decisions = self.decisions
        names = _outcomes(self.a, self.b, self.rope)
        counts = [
            f"{names[0]} on {decisions.count('a_better')}",
            f"{names[2]} on {decisions.count('b_better')}",
        ]
        if self.rope > 0:
            counts.append(f"{names[1]} on {decisions.count('equivalent')}")
        counts.append(f"undecided on {decisions.count('undecided')}")
        if decisions.count("too_few_runs"):
            counts.append(f"too few runs (< 2) on {decisions.count('too_few_runs')}")
        degenerate = int(self.degenerate.sum())
        flat = (
            f" On {degenerate} of them every difference is the same: there the posterior degenerates to a "
            "point (zero variance) and its probabilities (0, ½ or 1) measure no uncertainty."
            if degenerate
            else ""
        )
        return (
            f"Tested one task at a time (Bayesian correlated t-test, {_rope_words(self.rope)}, decided when "
            f"a probability exceeds {self.threshold:g}), over {len(self.tasks)} tasks: {listed(counts)}."
            f"{flat} Each answer is about one task's runs; whether {self.a} is better than {self.b} across "
            "tasks is the question of the Bayesian signed-rank test (signed_rank_test)."
        )

    def _rows(self):
        header = ("task", "runs", "mean d", "scale", *_short_outcomes(self.a, self.b))
        rows = []
        for j, decision in enumerate(self.decisions):
            rows.append(
                (
                    self.tasks[j],
                    str(int(self.runs[j])),
                    "-" if np.isnan(self.mean[j]) else f"{self.mean[j]:+.4g}",
                    "-" if np.isnan(self.scale[j]) else f"{self.scale[j]:.4g}",
                    _probability_text(self.p_a_better[j]),
                    _probability_text(self.p_rope[j]),
                    _probability_text(self.p_b_better[j]),
                    _decision_words(decision, self.a, self.b)
                    + (" (degenerate)" if self.degenerate[j] else ""),
                )
            )
        return (*header, "decision"), rows

    def _explanation(self):
        return (
            f"Bayesian correlated t-test ({PAPER} §3) of {self.a} against {self.b} on each task: "
            f"{_advantage_words(self.a, self.b, self.direction)} on each of the n paired runs (repetitions "
            f"x {self.folds} folds); the posterior of the mean difference is a Student t with n - 1 degrees "
            f"of freedom, location the mean d and scale sqrt((1/n + {RHO}/(1 - {RHO})) s²), {RHO} = 1/"
            f"{self.folds} (Nadeau-Bengio correction), s² the variance of d; the probabilities are exact "
            f"(Student t distribution function); {_rope_words(self.rope)}."
        )

    def describe(self) -> Description:
        """The explanation, the table of tasks and the verdict (Benavoli et al. 2017, §3)."""
        verdict = self.verdict
        header, rows = self._rows()
        decisions = self.decisions
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(
                [paragraph(self._explanation()), "", *aligned([header, *rows]), "", paragraph(verdict)]
            ),
            data={
                "test": "correlated_t",
                "a": self.a,
                "b": self.b,
                "direction": self.direction,
                "rope": self.rope,
                "folds": self.folds,
                "threshold": self.threshold,
                "tasks": [
                    {
                        "task": self.tasks[j],
                        "runs": self.runs[j],
                        "mean": self.mean[j],
                        "scale": self.scale[j],
                        "df": self.df[j],
                        "p_a_better": self.p_a_better[j],
                        "p_rope": self.p_rope[j],
                        "p_b_better": self.p_b_better[j],
                        "decision": decision,
                        "degenerate": self.degenerate[j],
                    }
                    for j, decision in enumerate(decisions)
                ],
            },
            columns=header,
            rows=tuple(rows),
            frame={
                "task": list(self.tasks),
                "runs": self.runs,
                "mean": self.mean,
                "scale": self.scale,
                "df": self.df,
                "p_a_better": self.p_a_better,
                "p_rope": self.p_rope,
                "p_b_better": self.p_b_better,
                "decision": list(decisions),
                "degenerate": self.degenerate,
            },
            assumptions=(
                ("methods", f"a = {self.a}, b = {self.b}"),
                ("difference", _advantage_words(self.a, self.b, self.direction)),
                ("ROPE", f"±{self.rope:g} (units of the scores)"),
                (f"{RHO}, correlation of the folds", f"1/{self.folds}"),
                ("decision threshold", f"{self.threshold:g}"),
            ),
            source=_SOURCE_T,
            inputs=self.inputs,
            analysis="compare bayes (correlated t-test)",
        )


def _paired_differences(scores, i, k, j):
    """The differences a - b of the runs of task j, paired by run label (a missing run drops its pair
    only if both miss it)."""
    labels_a, labels_b = scores.run_labels[i, j], scores.run_labels[k, j]
    if not np.array_equal(labels_a, labels_b):
        raise InputError(
            f"task {scores.tasks[j]!r}: {scores.methods[i]} and {scores.methods[k]} have different runs; the "
            "correlated t-test pairs each run (fold) of a with the run of b of the same label"
        )
    x, y = scores.scores[i, j], scores.scores[k, j]
    kept = ~np.isnan(x)
    return x[kept] - y[kept]


def _summary(differences):
    """n, the mean, the standard deviation (ddof 1) and whether every difference is the same (zero
    variance). Independent of the order of the differences (:mod:`benchtrust._exact`) and scale-free: the
    deviation is computed on the differences over a power of two above the largest (exact), so that
    differences near 1e300 do not overflow their squares, nor those near 1e-300 underflow them."""
    n = differences.size
    if n < 2:
        return n, float(exact_mean(differences)) if n else np.nan, np.nan, False
    flat = bool(np.ptp(differences) == 0)
    if flat:
        return n, float(differences[0]), 0.0, True
    unit = float(power_of_two_scale(differences))
    return n, float(exact_mean(differences)), unit * float(np.sqrt(exact_variance(differences / unit))), False


def _t_probabilities(mean, scale, df, rope):
    """P(mean difference > r), P(|.| <= r), P(< -r) under Student t posteriors, exactly (vectorised;
    `scale` > 0). The rope's probability is a difference of two tails on the same side, so it stays
    accurate when it is tiny. Student's t is :mod:`benchtrust._distributions`' (within 5e-13 of scipy's):
    importing ``scipy.stats`` would take longer than the whole command."""
    low, high = (-rope - mean) / scale, (rope - mean) / scale
    above = t_sf(high, df)
    below = t_cdf(low, df)
    inside = np.where(low > 0, t_sf(low, df) - above, t_cdf(high, df) - below)
    return above, inside, below


def correlated_t_test(
    scores: TaskScores,
    a: str,
    b: str,
    *,
    task: str | None = None,
    rope: float = 0.0,
    folds: int | None = None,
    threshold: float = THRESHOLD,
) -> CorrelatedTResult:
    """The Bayesian correlated t-test of a against b on one task, or on each task (Benavoli et al. 2017,
    §3).

    A task's runs are the n = repetitions × k folds of a repeated k-fold cross-validation, the same folds
    for both methods (paired by run label). Their differences d_i (the advantage of a: a - b when higher
    is better, b - a when lower is better) are correlated, because the training sets overlap; with the
    correlation ρ = n_test/n_total = 1/k, the posterior of the mean difference μ (under the paper's
    non-informative prior) is a Student t with n - 1 degrees of freedom, location d̄ (the mean of the d_i)
    and scale² = (1/n + ρ/(1 - ρ)) s², s² the sample variance of the d_i: the Nadeau-Bengio correction.
    The probabilities of the three outcomes are exact (the Student t distribution function):

    * P(a practically better) = P(μ > r); P(b practically better) = P(μ < -r);
    * P(practically equivalent) = P(-r <= μ <= r), zero when r = 0.

    These equal baycomp's ``two_on_single(x, y, rope=r, runs=n/k)`` with ``x`` = a, ``y`` = b for higher-is-
    better scores (p_left = a better). When every difference is the same, the variance is zero and the
    posterior degenerates to a point at d̄: as in baycomp, its outcome (the ROPE closed, ±r included) gets
    probability 1, and both sides ½ when r = 0 and d̄ = 0; the verdict says this measures no uncertainty.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`; on each task, the runs of a and b must have the same labels.
    a, b : str
        The two methods.
    task : str, optional
        The task to test; by default every task, one by one (a table).
    rope : float, default 0
        r, the half-width of the region of practical equivalence, in the units of the scores (the UCI
        accuracies are in percent: ``rope=1`` is the paper's 0.01).
    folds : int, optional
        k, the folds of each cross-validation (>= 2); required unless the scores know it (``scores.folds``).
    threshold : float, default 0.95
        The probability in [0.5, 1) an outcome must exceed to be decided.

    Returns
    -------
    CorrelatedTResult

    See Also
    --------
    CorrelatedTResult : The posterior probabilities of the correlated t-test, per task.
    signed_rank_test : The Bayesian signed-rank test across data sets.
    read_task_scores : Read the scores of several methods on many tasks.

    References
    ----------
    .. [1] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §3 (the Bayesian
       correlated t-test).
    .. [2] Claude Nadeau and Yoshua Bengio, "Inference for the generalization error", Machine Learning 52(3),
       239-281, 2003. doi:10.1023/A:1024068626366.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> uci = bundled_task_scores("uci")
    >>> result = correlated_t_test(uci, "nbc", "aode", task="0", rope=1, folds=10)
    >>> print(f"{result.p_a_better[0]:.3g} {result.p_rope[0]:.4f} {result.p_b_better[0]:.4f}")
    3.02e-07 0.0457 0.9543
    >>> result.decisions
    ('b_better',)
    >>> correlated_t_test(uci, "nbc", "aode", rope=1, folds=10).to_frame().decision.value_counts().to_dict()
    {'undecided': 33, 'b_better': 14, 'equivalent': 7}
    """
    scores = check_task_scores(scores)
    i, k = method_pair(scores, a, b)
    rope, threshold = _check_rope(rope), _check_threshold(threshold)
    folds = _check_folds(scores, folds)
    indices = _task_indices(scores, task)
    sign = 1.0 if scores.direction == "higher" else -1.0
    differences = [sign * _paired_differences(scores, i, k, j) for j in indices]

    runs, mean, deviation, degenerate = (
        np.array(column) for column in zip(*map(_summary, differences), strict=True)
    )
    enough = runs >= 2
    rho = 1.0 / folds
    scale = np.full(runs.size, np.nan)
    scale[enough] = np.sqrt(1.0 / runs[enough] + rho / (1.0 - rho)) * deviation[enough]
    regular = enough & ~degenerate
    probabilities = np.full((3, runs.size), np.nan)
    probabilities[:, regular] = _t_probabilities(mean[regular], scale[regular], runs[regular] - 1, rope)
    point = mean[degenerate]
    tie = 0.5 * ((rope == 0) & (point == 0))
    probabilities[:, degenerate] = (
        (point > rope) + tie,
        (np.abs(point) <= rope) & (rope > 0),
        (point < -rope) + tie,
    )
    return CorrelatedTResult(
        a=a,
        b=b,
        tasks=tuple(scores.tasks[j] for j in indices),
        runs=runs,
        folds=folds,
        mean=mean,
        scale=scale,
        p_a_better=probabilities[0],
        p_rope=probabilities[1],
        p_b_better=probabilities[2],
        degenerate=degenerate,
        rope=rope,
        threshold=threshold,
        direction=scores.direction,
        inputs=scores_files(scores),
    )
