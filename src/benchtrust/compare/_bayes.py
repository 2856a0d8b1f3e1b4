"""Bayesian comparison of two methods (Benavoli, Corani, Demšar & Zaffalon 2017).

Benavoli et al., "Time for a change: a tutorial for comparing multiple classifiers through Bayesian
analysis", JMLR 18 (2017), replace the p-values of the usual tests with posterior probabilities of three
outcomes: method a is practically better than b, the two are practically equivalent (their difference
lies within a region of practical equivalence, the ROPE ±r), or b is practically better.

* :func:`correlated_t_test` (§3): on one data set, from the paired runs × folds of a repeated
  cross-validation; the posterior of the mean difference is a Student t whose scale carries the
  Nadeau-Bengio correction for the overlap of the training sets. Its probabilities are exact.
* :func:`signed_rank_test` (§4): across data sets, from one value per data set (the mean of its runs);
  the posterior is a Dirichlet process, sampled. Each sample costs O(n) for n data sets, not O(n²).

Both follow the conventions of the baycomp library (its ``two_on_single`` and ``two_on_multiple``, with
``x`` = a and ``y`` = b for higher-is-better scores), learned from its documentation and outputs and
recorded in ``benchmarks/BAYCOMP_FACTS.md``.
"""

from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np

from benchtrust._io import InputError, check_count, check_number, check_seed
from benchtrust._words import RHO, paragraph
from benchtrust.compare._tasks import check_task_scores
from benchtrust.compare._text import aligned, listed

__all__ = ["CorrelatedTResult", "SignedRankResult", "correlated_t_test", "signed_rank_test"]

PAPER = "Benavoli et al. 2017"
_TITLE = "time for a change: comparing classifiers through Bayesian analysis"
_SOURCE_T = f"{PAPER}, {_TITLE}, §3 (Bayesian correlated t-test)"
_SOURCE_SIGNED_RANK = f"{PAPER}, {_TITLE}, §4 (Bayesian signed-rank test)"
#: The probability one outcome must exceed to decide, as in the paper.
THRESHOLD = 0.95
#: Posterior samples of θ whose values are this close (θ lie in [0, 1]) are ties, shared equally.
_TIE = 1e-9
#: At most this many numbers (samples × data sets) are drawn at once.
_CHUNK = 1 << 16
#: The decisions, in the order of the outcomes (a better, practically equivalent, b better).
_DECISIONS = ("a_better", "equivalent", "b_better")


# ---------------------------------------------------------------------------------------------------------
# Words shared by both results


def _outcomes(a, b, rope):
    """The three outcomes in words, in the order (a better, practically equivalent, b better)."""
    if rope == 0:
        return (f"{a} better", "equivalent (no ROPE: never)", f"{b} better")
    return (f"{a} practically better", "practically equivalent", f"{b} practically better")


def _short_outcomes(a, b):
    """The headers of the three probabilities in a table."""
    return (f"P({a} better)", "P(equivalent)", f"P({b} better)")


def _advantage_words(a, b, direction):
    """What the difference d is, in words."""
    return (
        f"d = {a} - {b} (higher is better)" if direction == "higher" else f"d = {b} - {a} (lower is better)"
    )


def _rope_words(rope):
    return f"ROPE ±{rope:g}" if rope > 0 else "no ROPE (r = 0)"


def _decision(probabilities, threshold):
    """The outcome whose probability exceeds `threshold` ("a_better", "equivalent", "b_better"), or
    "undecided"."""
    above = np.flatnonzero(np.asarray(probabilities) > threshold)
    return _DECISIONS[above[0]] if above.size else "undecided"


def _decision_words(decision, a, b):
    """A decision in a table cell: "aode better", "equivalent", "undecided", "too few runs"."""
    return {"a_better": f"{a} better", "b_better": f"{b} better"}.get(decision, decision.replace("_", " "))


def _decided_words(decision, a, b, rope, probability):
    """A decision reached, in words: "nbc is practically better than aode with probability 0.97"."""
    practically = "practically " if rope > 0 else ""
    if decision == "equivalent":
        return (
            f"{a} and {b} are practically equivalent (their difference lies within ±{rope:g}) with "
            f"probability {probability:.3f}"
        )
    better, worse = (a, b) if decision == "a_better" else (b, a)
    return f"{better} is {practically}better than {worse} with probability {probability:.3f}"


def _probabilities_words(a, b, rope, probabilities):
    """The three probabilities, in words."""
    names = _outcomes(a, b, rope)
    shown = [0, 2] if rope == 0 else [0, 1, 2]
    return ", ".join(f"P({names[k]}) = {probabilities[k]:.3f}" for k in shown)


def _plain(value):
    return None if np.isnan(value) else float(value)


def _probability_text(value):
    return "-" if np.isnan(value) else f"{value:.4f}"


# ---------------------------------------------------------------------------------------------------------
# Checking the arguments


def _method_index(scores, method, name):
    if method not in scores.methods:
        known = ", ".join(repr(m) for m in scores.methods)
        raise InputError(f"{name}: expected one of the methods {known}, got {method!r}")
    return scores.methods.index(method)


def _pair(scores, a, b):
    """The indices of methods `a` and `b` in `scores`."""
    i, k = _method_index(scores, a, "a"), _method_index(scores, b, "b")
    if i == k:
        raise InputError(f"b: expected a method other than a ({a!r}), got {b!r}")
    return i, k


def _check_rope(rope):
    rope = check_number(rope, "rope")
    if rope < 0:
        raise InputError(f"rope: expected a half-width >= 0 in the units of the scores, got {rope!r}")
    return rope


def _check_threshold(threshold):
    threshold = check_number(threshold, "threshold")
    if not 0.5 <= threshold < 1:
        raise InputError(f"threshold: expected a probability in [0.5, 1), got {threshold!r}")
    return threshold


def _check_folds(scores, folds):
    """k, the number of folds of each cross-validation: the argument, else ``scores.folds``."""
    known = getattr(scores, "folds", None)
    if folds is None:
        if known is None:
            raise InputError(
                "folds: expected the number of folds k of each cross-validation (the runs of a task are "
                "runs x folds; the correlated t-test's correlation is 1/k); the scores do not say it"
            )
        folds = known
    if check_count(folds, "folds") < 2:
        raise InputError(f"folds: expected a whole number of folds >= 2, got {folds!r}")
    if known is not None and folds != known:
        raise InputError(f"folds: the scores were read with {known} folds, got {folds!r}")
    return int(folds)


def _task_indices(scores, task):
    if task is None:
        return list(range(len(scores.tasks)))
    if task not in scores.tasks:
        shown = ", ".join(repr(t) for t in scores.tasks[:5])
        more = ", ..." if len(scores.tasks) > 5 else ""
        raise InputError(f"task: expected one of the tasks {shown}{more}, got {task!r}")
    return [scores.tasks.index(task)]


# ---------------------------------------------------------------------------------------------------------
# Bayesian correlated t-test (§3)


@dataclasses.dataclass(frozen=True, eq=False)
class CorrelatedTResult:
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

    def __repr__(self):
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

    def __str__(self):
        """The explanation, the table of tasks and the verdict."""
        header, rows = self._rows()
        return "\n".join(
            [paragraph(self._explanation()), "", *aligned([header, *rows]), "", paragraph(self.verdict)]
        )

    def _section(self):
        """The report's section of this result (also shown by ``_repr_html_``)."""
        from benchtrust._html import Section
        from benchtrust.compare._section import COMPARE_QUESTION

        header, rows = self._rows()
        return Section(
            title=COMPARE_QUESTION,
            analysis="compare bayes (correlated t-test)",
            verdict=self.verdict,
            columns=header,
            rows=tuple(rows),
            assumptions=(
                ("methods", f"a = {self.a}, b = {self.b}"),
                ("difference", _advantage_words(self.a, self.b, self.direction)),
                ("ROPE", f"±{self.rope:g} (units of the scores)"),
                (f"{RHO}, correlation of the folds", f"1/{self.folds}"),
                ("decision threshold", f"{self.threshold:g}"),
            ),
            source=_SOURCE_T,
        )

    def _repr_html_(self):
        from benchtrust._html import section_html

        return section_html(self._section())

    def to_frame(self):
        """One row per task: ``task``, ``runs``, ``mean``, ``scale``, ``df``, ``p_a_better``, ``p_rope``,
        ``p_b_better``, ``decision`` and ``degenerate``."""
        import pandas as pd

        return pd.DataFrame(
            {
                "task": list(self.tasks),
                "runs": self.runs,
                "mean": self.mean,
                "scale": self.scale,
                "df": self.df,
                "p_a_better": self.p_a_better,
                "p_rope": self.p_rope,
                "p_b_better": self.p_b_better,
                "decision": list(self.decisions),
                "degenerate": self.degenerate,
            }
        )

    def to_dict(self):
        """The result as plain JSON types (None where a task has fewer than two runs)."""
        return {
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
                    "runs": int(self.runs[j]),
                    "mean": _plain(self.mean[j]),
                    "scale": _plain(self.scale[j]),
                    "df": int(self.df[j]),
                    "p_a_better": _plain(self.p_a_better[j]),
                    "p_rope": _plain(self.p_rope[j]),
                    "p_b_better": _plain(self.p_b_better[j]),
                    "decision": decision,
                    "degenerate": bool(self.degenerate[j]),
                }
                for j, decision in enumerate(self.decisions)
            ],
        }


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
    """n, the mean, the variance (ddof 1) and whether every difference is the same (zero variance)."""
    n = differences.size
    if n < 2:
        return n, differences.mean() if n else np.nan, np.nan, False
    flat = bool(np.ptp(differences) == 0)
    return n, differences[0] if flat else differences.mean(), 0.0 if flat else differences.var(ddof=1), flat


def _t_probabilities(mean, scale, df, rope):
    """P(mean difference > r), P(|.| <= r), P(< -r) under Student t posteriors, exactly (vectorised;
    `scale` > 0). The rope's probability is a difference of two tails on the same side, so it stays
    accurate when it is tiny."""
    from scipy import stats

    low, high = (-rope - mean) / scale, (rope - mean) / scale
    above = stats.t.sf(high, df)
    below = stats.t.cdf(low, df)
    inside = np.where(low > 0, stats.t.sf(low, df) - above, stats.t.cdf(high, df) - below)
    return above, inside, below


def correlated_t_test(scores, a, b, *, task=None, rope=0.0, folds=None, threshold=THRESHOLD):
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

    Examples
    --------
    >>> from benchtrust.compare import bundled_results, read_task_scores
    >>> uci = read_task_scores(bundled_results("uci"), direction="higher", method_column="classifier",
    ...                        task_column="dataset_index", run_column="score_index",
    ...                        score_column="accuracy_percent")
    >>> result = correlated_t_test(uci, "nbc", "aode", task="0", rope=1, folds=10)
    >>> print(f"{result.p_a_better[0]:.3g} {result.p_rope[0]:.4f} {result.p_b_better[0]:.4f}")
    3.02e-07 0.0457 0.9543
    >>> result.decisions
    ('b_better',)
    >>> correlated_t_test(uci, "nbc", "aode", rope=1, folds=10).to_frame().decision.value_counts().to_dict()
    {'undecided': 33, 'b_better': 14, 'equivalent': 7}
    """
    scores = check_task_scores(scores)
    i, k = _pair(scores, a, b)
    rope, threshold = _check_rope(rope), _check_threshold(threshold)
    folds = _check_folds(scores, folds)
    indices = _task_indices(scores, task)
    sign = 1.0 if scores.direction == "higher" else -1.0
    differences = [sign * _paired_differences(scores, i, k, j) for j in indices]

    runs, mean, variance, degenerate = (
        np.array(column) for column in zip(*map(_summary, differences), strict=True)
    )
    enough = runs >= 2
    rho = 1.0 / folds
    scale = np.full(runs.size, np.nan)
    scale[enough] = np.sqrt((1.0 / runs[enough] + rho / (1.0 - rho)) * variance[enough])
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
    )


# ---------------------------------------------------------------------------------------------------------
# Bayesian signed-rank test (§4)


@dataclasses.dataclass(frozen=True, eq=False)
class SignedRankResult:
    """The Bayesian signed-rank test of a against b across tasks (Benavoli et al. 2017, §4).

    Attributes
    ----------
    a, b : str
        The two methods compared.
    tasks : tuple of str
        The tasks (data sets), each one observation.
    mean_a, mean_b : numpy.ndarray
        Each method's mean score on each task (the mean of its runs).
    differences : numpy.ndarray
        d, the advantage of a on each task: ``mean_a - mean_b`` when higher is better, ``mean_b -
        mean_a`` when lower is better.
    posterior : numpy.ndarray
        The posterior samples of θ = (θ_a, θ_rope, θ_b), shape (samples, 3), each row summing to 1: the
        probabilities, under one draw of the Dirichlet process, that the mean of two tasks' differences
        exceeds r (a better), lies within ±r, or is below -r (b better).
    p_a_better, p_rope, p_b_better : float
        The posterior probabilities that θ_a, θ_rope, θ_b is the largest of the three (the fraction of
        samples; exact ties shared).
    standard_errors : numpy.ndarray
        The Monte Carlo standard errors of the three probabilities, sqrt(p(1 - p)/samples).
    posterior_mean : numpy.ndarray
        The posterior means of θ_a, θ_rope, θ_b, exact (a finite sum, not sampled).
    rope : float
        r, the half-width of the ROPE, in the units of the scores.
    prior_strength : float
        s, the weight of the Dirichlet process's prior pseudo-observation at d = 0.
    threshold : float
        The probability an outcome must exceed to be decided.
    seed : int or None
        The seed given (None for fresh entropy or a Generator).
    direction : {"higher", "lower"}
        Which scores are better.
    missing : int
        The number of (method, task) pairs with missing runs (every method keeps the runs it has).
    """

    a: str
    b: str
    tasks: tuple[str, ...]
    mean_a: np.ndarray
    mean_b: np.ndarray
    differences: np.ndarray
    posterior: np.ndarray
    p_a_better: float
    p_rope: float
    p_b_better: float
    standard_errors: np.ndarray
    posterior_mean: np.ndarray
    rope: float
    prior_strength: float
    threshold: float
    seed: int | None
    direction: str
    missing: int

    @property
    def probabilities(self) -> np.ndarray:
        """(P(a better), P(practically equivalent), P(b better))."""
        return np.array([self.p_a_better, self.p_rope, self.p_b_better])

    @property
    def samples(self) -> int:
        """The number of posterior samples."""
        return self.posterior.shape[0]

    @property
    def decision(self) -> str:
        """ "a_better", "equivalent", "b_better", or "undecided" (no probability exceeds the threshold)."""
        return _decision(self.probabilities, self.threshold)

    def __repr__(self):
        return (
            f"SignedRankResult(a={self.a!r}, b={self.b!r}, tasks={len(self.tasks)}, rope={self.rope:g}, "
            f"p_a_better={self.p_a_better:.4g}, p_rope={self.p_rope:.4g}, p_b_better={self.p_b_better:.4g}, "
            f"decision={self.decision!r})"
        )

    @property
    def verdict(self) -> str:
        """The decision in plain words, with what is uncertain: the Monte Carlo error near the threshold,
        and too few tasks."""
        a, b, n = self.a, self.b, len(self.tasks)
        across = f"across these {n} tasks" if n > 1 else "on this one task"
        decision = self.decision
        if n == 1:
            probabilities = _probabilities_words(a, b, self.rope, self.probabilities)
            return (
                "One task is too little for a test across tasks, so nothing is decided: the posterior "
                f"mostly reflects the prior ({probabilities}). The Bayesian correlated t-test "
                "(correlated_t_test) compares two methods on one task's runs."
            )
        if decision == "undecided":
            text = (
                f"The data cannot decide {across}: "
                f"{_probabilities_words(a, b, self.rope, self.probabilities)}; none exceeds "
                f"{self.threshold:g}."
            )
        else:
            k = _DECISIONS.index(decision)
            text = f"{_decided_words(decision, a, b, self.rope, self.probabilities[k])} {across}."
        top = int(np.argmax(self.probabilities))
        if abs(self.probabilities[top] - self.threshold) < 4 * self.standard_errors[top]:
            text += (
                f" The largest probability is within 4 Monte Carlo standard errors "
                f"({self.standard_errors[top]:.2g}) of {self.threshold:g}: more samples would settle the "
                "decision."
            )
        if self.missing:
            text += (
                f" {self.missing} method x task pairs have missing runs; each task's mean uses the runs it "
                "has."
            )
        return text

    def _rows(self):
        names = _outcomes(self.a, self.b, self.rope)
        sides = (
            int(np.sum(self.differences > self.rope)),
            int(np.sum(np.abs(self.differences) <= self.rope)),
            int(np.sum(self.differences < -self.rope)),
        )
        header = ("outcome", "probability", "Monte Carlo SE", "posterior mean of θ", "tasks on that side")
        rows = [
            (
                names[k],
                f"{self.probabilities[k]:.4f}",
                f"{self.standard_errors[k]:.4f}",
                f"{self.posterior_mean[k]:.4f}",
                str(sides[k]),
            )
            for k in range(3)
        ]
        return header, rows

    def _explanation(self):
        seed = f"seed {self.seed}" if self.seed is not None else "no fixed seed"
        return (
            f"Bayesian signed-rank test ({PAPER} §4) of {self.a} against {self.b} over {len(self.tasks)} "
            "tasks: one value per task, the mean of its runs, "
            f"{_advantage_words(self.a, self.b, self.direction)}. "
            f"The posterior of the distribution of d is a Dirichlet process (prior strength s = "
            f"{self.prior_strength:g} at d = 0); each draw gives θ, the probabilities that the mean of two "
            f"tasks' d is above r, within ±r or below -r ({_rope_words(self.rope)}); the probability of an "
            f"outcome is the posterior probability that its θ is the largest, from {self.samples:,} samples "
            f"({seed}), with its Monte Carlo standard error."
        )

    def __str__(self):
        """The explanation, the table of outcomes and the verdict."""
        header, rows = self._rows()
        return "\n".join(
            [paragraph(self._explanation()), "", *aligned([header, *rows]), "", paragraph(self.verdict)]
        )

    def _section(self):
        """The report's section of this result (also shown by ``_repr_html_``)."""
        from benchtrust._html import Section, svg_of
        from benchtrust.compare._bayes_plot import plot_simplex
        from benchtrust.compare._section import COMPARE_QUESTION

        header, rows = self._rows()
        return Section(
            title=COMPARE_QUESTION,
            analysis="compare bayes (signed-rank test)",
            verdict=self.verdict,
            columns=header,
            rows=tuple(rows),
            figure_svg=svg_of(plot_simplex(self)),
            assumptions=(
                ("methods", f"a = {self.a}, b = {self.b}"),
                ("difference", _advantage_words(self.a, self.b, self.direction)),
                ("ROPE", f"±{self.rope:g} (units of the scores)"),
                ("prior", f"strength s = {self.prior_strength:g}, pseudo-observation at d = 0"),
                (
                    "posterior samples",
                    f"{self.samples:,}" + (f", seed {self.seed}" if self.seed is not None else ""),
                ),
                ("decision threshold", f"{self.threshold:g}"),
            ),
            source=_SOURCE_SIGNED_RANK,
        )

    def _repr_html_(self):
        from benchtrust._html import section_html

        return section_html(self._section())

    def to_frame(self):
        """One row per task: ``task``, ``mean_a``, ``mean_b`` and ``difference`` (the advantage of a)."""
        import pandas as pd

        return pd.DataFrame(
            {
                "task": list(self.tasks),
                "mean_a": self.mean_a,
                "mean_b": self.mean_b,
                "difference": self.differences,
            }
        )

    def to_dict(self):
        """The result as plain JSON types (without the posterior samples)."""
        return {
            "test": "signed_rank",
            "a": self.a,
            "b": self.b,
            "direction": self.direction,
            "rope": self.rope,
            "prior_strength": self.prior_strength,
            "samples": self.samples,
            "seed": self.seed,
            "threshold": self.threshold,
            "tasks": len(self.tasks),
            "missing": self.missing,
            "p_a_better": self.p_a_better,
            "p_rope": self.p_rope,
            "p_b_better": self.p_b_better,
            "standard_errors": self.standard_errors.tolist(),
            "posterior_mean": self.posterior_mean.tolist(),
            "decision": self.decision,
            "differences": dict(zip(self.tasks, self.differences.tolist(), strict=True)),
        }


def _pair_classes(z, rope):
    """For the observations z sorted, with the prior's pseudo-observation 0 among them: per observation i,
    the numbers of j with z_i + z_j < -2r, <= -2r, < 2r and <= 2r (each a prefix of the sorted z, as a
    rounded sum is monotone in z_j); the sorted z; and the position of the pseudo-observation."""
    z = np.sort(np.append(z, 0.0))
    sums = z[:, None] + z[None, :]
    below = [(sums < limit).sum(axis=1) for limit in (-2 * rope, 2 * rope)]
    at_most = [(sums <= limit).sum(axis=1) for limit in (-2 * rope, 2 * rope)]
    counts = (below[0], at_most[0], below[1], at_most[1])
    return counts, z, int(np.searchsorted(z, 0.0))


def _posterior_samples(z, rope, prior_strength, samples, rng):
    """Samples of (θ_left, θ_rope, θ_right) for the observations z (§4; z = -d, as in baycomp, so that
    left = a better).

    θ_left = Σ_ij w_i w_j 1[z_i + z_j < -2r] (½ where = -2r), θ_right likewise above 2r, θ_rope the rest,
    over every pair (i, j) including i = j, of the Dirichlet weights w ~ Dir(s, 1, ..., 1) of the prior's
    pseudo-observation 0 and the observations. With z sorted, Σ_j w_j 1[z_i + z_j < t] is a prefix sum
    of w, so each sample costs O(n): the weights are unnormalised gamma variates G (w = G/ΣG), their
    prefix sums C, and θ_left = ½ Σ_i G_i (C[#{j: z_i + z_j < -2r}] + C[#{j: <= -2r}]) / (ΣG)².
    """
    (left_lt, left_le, right_lt, right_le), z, prior_at = _pair_classes(z, rope)
    theta = np.empty((samples, 3))
    chunk = min(samples, max(1, _CHUNK // z.size))
    # buffers reused by every chunk (fresh arrays would cost as much as the arithmetic); each chunk draws
    # `chunk` samples, of which the last chunk keeps what is needed
    G = np.empty((z.size, chunk))
    C = np.zeros((z.size + 1, chunk))
    ends, other = np.empty((z.size, chunk)), np.empty((z.size, chunk))
    for start in range(0, samples, chunk):
        rng.standard_exponential(out=G)  # Gamma(1) for each observation
        G[prior_at] = rng.standard_gamma(prior_strength, chunk)
        for i in range(z.size):  # prefix sums, a row at a time: 3x faster than np.cumsum along axis 0
            np.add(C[i], G[i], out=C[i + 1])
        total = C[-1] ** 2
        # the counts index C within bounds; mode='clip' spares numpy's buffered copy of `out`
        np.add(
            np.take(C, left_lt, axis=0, out=ends, mode="clip"),
            np.take(C, left_le, axis=0, out=other, mode="clip"),
            out=ends,
        )
        left = 0.5 * np.einsum("ij,ij->j", G, ends)
        np.add(
            np.take(C, right_lt, axis=0, out=ends, mode="clip"),
            np.take(C, right_le, axis=0, out=other, mode="clip"),
            out=ends,
        )
        right = total - 0.5 * np.einsum("ij,ij->j", G, ends)
        size = min(chunk, samples - start)
        block = theta[start : start + size]
        block[:, 0], block[:, 2] = left[:size], right[:size]
        block[:, 1] = total[:size] - block[:, 0] - block[:, 2]
        block /= total[:size, None]
    return theta


def _posterior_mean(z, rope, prior_strength):
    """E[θ_left], E[θ_rope], E[θ_right], exactly: Σ_ij E[w_i w_j] times the pair's indicator, with
    E[w_i w_j] = (α_i α_j + [i = j] α_i) / (α_0 (α_0 + 1)) for w ~ Dir(α)."""
    z = np.append(z, 0.0)
    alpha = np.append(np.ones(z.size - 1), prior_strength)
    total = alpha.sum()
    weights = (np.outer(alpha, alpha) + np.diag(alpha)) / (total * (total + 1))
    sums = z[:, None] + z[None, :]
    left = (sums < -2 * rope) + 0.5 * (sums == -2 * rope)
    right = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    means = np.array([(weights * left).sum(), 0.0, (weights * right).sum()])
    means[1] = 1.0 - means[0] - means[2]
    return means


def _largest_shares(theta):
    """Per sample, 1 for the largest θ (1/m each for m tied within _TIE); their mean and standard error."""
    wins = theta >= theta.max(axis=1, keepdims=True) - _TIE
    shares = wins / wins.sum(axis=1, keepdims=True)
    return shares.mean(axis=0), shares.std(axis=0) / math.sqrt(theta.shape[0])


def signed_rank_test(
    scores, a, b, *, rope=0.0, prior_strength=0.5, samples=50_000, threshold=THRESHOLD, seed=None
) -> SignedRankResult:
    """The Bayesian signed-rank test of a against b across tasks (Benavoli et al. 2017, §4).

    Each task (data set) gives one observation: d_i, the advantage of a on task i (the mean of a's runs
    minus the mean of b's when higher is better, the reverse when lower is better). The distribution of d
    gets a Dirichlet process prior of strength s with its pseudo-observation at d = 0 (in the ROPE); its
    posterior puts weights w ~ Dirichlet(s, 1, ..., 1) on (0, d_1, ..., d_n). Each draw gives

    * θ_a = Σ_ij w_i w_j 1[(d_i + d_j)/2 > r], θ_b = Σ_ij w_i w_j 1[(d_i + d_j)/2 < -r],
      θ_rope = 1 - θ_a - θ_b, over all pairs including i = j (the Walsh averages of the signed-rank test);
      a pair mean exactly at ±r counts ½ on each side of the boundary;
    * and P(a practically better) is the posterior probability that θ_a is the largest of the three
      (likewise P(practically equivalent), P(b practically better)), the fraction of `samples` draws.

    These are baycomp's conventions (``two_on_multiple(x, y, rope=r)`` with ``x`` = a, ``y`` = b for
    higher-is-better scores: p_left = a better; its default prior is 0.5 at 0 and 50,000 samples), learned
    from its documentation and its outputs (``benchmarks/BAYCOMP_FACTS.md``); the answers agree within the
    Monte Carlo error. The estimator is the same (the indicator of the largest θ, averaged over the
    samples), so its standard error sqrt(p(1 - p)/samples) is baycomp's at equal samples; each sample
    costs O(n) instead of O(n²) (prefix sums of the sorted weights). The posterior means of θ need no
    sampling: :attr:`SignedRankResult.posterior_mean` is exact.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`.
    a, b : str
        The two methods.
    rope : float, default 0
        r, the half-width of the region of practical equivalence, in the units of the scores (the UCI
        accuracies are in percent: ``rope=1`` is the paper's 0.01).
    prior_strength : float, default 0.5
        s > 0, the prior's weight, a pseudo-observation at d = 0 (baycomp's ``prior``).
    samples : int, default 50,000
        The posterior samples drawn (baycomp's ``nsamples``).
    threshold : float, default 0.95
        The probability in [0.5, 1) an outcome must exceed to be decided.
    seed : int or numpy.random.Generator, optional
        For the samples; None draws fresh entropy.

    Returns
    -------
    SignedRankResult

    Examples
    --------
    >>> from benchtrust.compare import bundled_results, read_task_scores
    >>> uci = read_task_scores(bundled_results("uci"), direction="higher", method_column="classifier",
    ...                        task_column="dataset_index", run_column="score_index",
    ...                        score_column="accuracy_percent")
    >>> result = signed_rank_test(uci, "nbc", "aode", rope=1, seed=1)
    >>> result.probabilities.round(2).tolist(), result.decision
    ([0.0, 0.13, 0.87], 'undecided')
    >>> result.posterior_mean.round(4).tolist()
    [0.0324, 0.3983, 0.5693]
    >>> signed_rank_test(uci, "j48", "j48gr", rope=1, seed=1).decision
    'equivalent'
    """
    scores = check_task_scores(scores)
    i, k = _pair(scores, a, b)
    rope, threshold = _check_rope(rope), _check_threshold(threshold)
    prior_strength = check_number(prior_strength, "prior_strength")
    if prior_strength <= 0:
        raise InputError(f"prior_strength: expected a weight > 0, got {prior_strength!r}")
    samples = check_count(samples, "samples")
    rng = check_seed(seed)

    mean_a, mean_b = np.nanmean(scores.scores[[i, k]], axis=2)
    differences = mean_a - mean_b if scores.direction == "higher" else mean_b - mean_a
    theta = _posterior_samples(-differences, rope, prior_strength, samples, rng)
    probabilities, errors = _largest_shares(theta)
    return SignedRankResult(
        a=a,
        b=b,
        tasks=scores.tasks,
        mean_a=mean_a,
        mean_b=mean_b,
        differences=differences,
        posterior=theta,
        p_a_better=float(probabilities[0]),
        p_rope=float(probabilities[1]),
        p_b_better=float(probabilities[2]),
        standard_errors=errors,
        posterior_mean=_posterior_mean(-differences, rope, prior_strength),
        rope=rope,
        prior_strength=prior_strength,
        threshold=threshold,
        seed=seed if isinstance(seed, numbers.Integral) else None,
        direction=scores.direction,
        missing=len(scores.missing),
    )
