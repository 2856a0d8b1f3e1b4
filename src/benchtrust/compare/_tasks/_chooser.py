"""Which analysis fits the data: a test chooser in words, from the shape of a table of task scores.

:func:`choose_analysis` reads the shape of a :class:`~benchtrust.compare.TaskScores` (how many methods,
tasks, runs and folds; whether the runs are paired; whether the scores are on a common scale) and says
which of benchtrust's comparisons fit and why, and which do not. It follows the advice of the papers the
analyses come from:

* Demšar (2006), §3.2 and §4: across several data sets, rank-based tests (Wilcoxon signed-rank for two
  methods, Friedman with a post-hoc test for more), since scores on different data sets are not
  commensurable and their differences not normal; few data sets leave the tests little power.
* Benavoli, Corani and Mangili (2016): after the Friedman test, pairwise Wilcoxon signed-rank (or sign)
  tests with Holm's correction rather than post-hoc tests on mean ranks, whose verdict on two methods
  depends on which other methods are compared.
* Benavoli et al. (2017): the Bayesian signed-rank test across data sets and, on one data set's
  cross-validation, the correlated t-test (the folds share training data, so their scores are correlated:
  Nadeau and Bengio's correction), each with a region of practical equivalence.
* Herbold (2020): autorank's automatic path, in which checks of normality and of equal variances choose
  between repeated-measures ANOVA with Tukey's HSD and Friedman with Nemenyi's test.
* Corani et al. (2017): the hierarchical Bayesian test, which uses every fold of every data set's
  cross-validation rather than only the data sets' means.
* Agarwal et al. (2021), §4: with several runs per task on many tasks, aggregate estimates (IQM) with
  stratified bootstrap intervals, performance profiles and the probability of improvement, on scores
  normalised to a common scale.
* Dror et al. (2019): almost stochastic order between two methods' sets of runs (seeds).
* Bouthillier et al. (2021), §4.1: on one task, the probability that A outperforms B over runs that
  randomise the sources of variance, paired where the runs share their seeds.
"""

from __future__ import annotations

import dataclasses

from benchtrust._result import Description, Result
from benchtrust._words import TIMES, paragraph
from benchtrust.compare._tasks._scores import TASKS_QUESTION, TaskScores, check_task_scores, scores_files

__all__ = ["ChoiceResult", "choose_analysis"]

#: Fewest tasks for the tests across data sets to say much (Demšar 2006, §3.2.2 and §4: the Friedman
#: statistic's chi-square approximation needs N > 10 for k > 5 or so; the Wilcoxon test needs N >= 6 to
#: reject at 0.05 at all, two-sided).
_FEW_TASKS = 6
#: Fewest runs per task for a bootstrap over runs to mean anything.
_FEW_RUNS = 2


@dataclasses.dataclass(frozen=True)
class Analysis:
    """One analysis and why it fits (or not)."""

    name: str
    command: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True, eq=False)
class ChoiceResult(Result):
    """The analyses that fit a table of task scores, and those that do not, with the reasons.

    Attributes
    ----------
    methods : int
        k, the number of methods.
    tasks : int
        N, the number of tasks (data sets, games).
    runs : tuple of int
        The fewest and the most runs of a method on a task (runs × folds with a fold column).
    folds : int or None
        k-fold cross-validation per run, when the table says so (:attr:`TaskScores.folds`).
    paired : bool
        Every method has the same run labels on every task, so runs can be paired across methods.
    common_scale : bool
        The scores are normalised per task (min-max or reference), so they can be pooled across tasks.
    fits : tuple of Analysis
        The analyses that fit, the first being the main one.
    not_fitting : tuple of Analysis
        Analyses that do not fit this data, and why.

    See Also
    --------
    choose_analysis : Which analyses fit a table of task scores, and why.
    read_task_scores : Read the scores of several methods on many tasks.

    References
    ----------
    .. [1] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2, §4.
    .. [2] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §3-4.
    .. [3] Claude Nadeau and Yoshua Bengio, "Inference for the generalization error", Machine Learning 52(3),
       239-281, 2003. doi:10.1023/A:1024068626366.
    .. [4] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.
    .. [5] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1.
    .. [6] Alessio Benavoli, Giorgio Corani and Francesca Mangili, "Should we really use post-hoc tests based
       on mean-ranks?", Journal of Machine Learning Research 17(5), 1-10, 2016.
       https://jmlr.org/papers/v17/benavoli16a.html.
    .. [7] Steffen Herbold, "Autorank: a Python package for automated ranking of classifiers", Journal of
       Open Source Software 5(48), 2173, 2020. doi:10.21105/joss.02173.
    .. [8] Giorgio Corani, Alessio Benavoli, Janez Demšar, Francesca Mangili and Marco Zaffalon,
       "Statistical comparison of classifiers through Bayesian hierarchical modelling", Machine Learning
       106, 1817-1837, 2017. doi:10.1007/s10994-017-5641-9.
    .. [9] Rotem Dror, Segev Shlomov and Roi Reichart, "Deep dominance - how to properly compare deep neural
       models", Proceedings of ACL 2019, 2773-2785. doi:10.18653/v1/P19-1266.
    """

    methods: int
    tasks: int
    runs: tuple[int, int]
    folds: int | None
    paired: bool
    common_scale: bool
    fits: tuple[Analysis, ...]
    not_fitting: tuple[Analysis, ...]

    def __repr__(self) -> str:
        return (
            f"ChoiceResult(methods={self.methods}, tasks={self.tasks}, runs={self.runs}, "
            f"paired={self.paired}, fits={[a.name for a in self.fits]})"
        )

    @property
    def shape_text(self) -> str:
        """The data's shape in words."""
        low, high = self.runs
        runs = f"{low}" if low == high else f"{low} to {high}"
        unit = "runs" if self.folds is None else f"fold scores ({self.folds}-fold cross-validation)"
        paired = (
            "paired (every method has the same run labels on every task)"
            if self.paired
            else "not paired (the run labels differ between methods)"
        )
        scale = (
            "normalised to a common scale"
            if self.common_scale
            else "as read (not normalised: their scales may differ from task to task)"
        )
        return (
            f"{self.methods} methods {TIMES} {self.tasks} task{'s' * (self.tasks != 1)} {TIMES} {runs} "
            f"{unit} per method and task; the runs are {paired}; the scores are {scale}."
        )

    @property
    def verdict(self) -> str:
        """The main analysis, and why, in plain words."""
        if not self.fits:
            return f"No comparison fits this data: {self.not_fitting[0].reason}"
        main = self.fits[0]
        others = ""
        if len(self.fits) > 1:
            others = " Also fitting: " + "; ".join(a.name for a in self.fits[1:]) + "."
        return f"Use {main.name} ({main.command}): {main.reason}{others}"

    def describe(self) -> Description:
        """The data's shape, the analyses that fit and those that do not, then the verdict."""
        verdict = self.verdict
        lines = [paragraph(f"The data: {self.shape_text}"), "", "Analyses that fit, the main one first:", ""]
        lines += [paragraph(f"- {a.name} ({a.command}): {a.reason}") for a in self.fits] or ["- none"]
        if self.not_fitting:
            lines += ["", "Analyses that do not fit:", ""]
            lines += [paragraph(f"- {a.name}: {a.reason}") for a in self.not_fitting]
        lines += ["", paragraph(verdict)]
        every = [(a, True) for a in self.fits] + [(a, False) for a in self.not_fitting]
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(lines),
            data={
                "methods": self.methods,
                "tasks": self.tasks,
                "runs": self.runs,
                "folds": self.folds,
                "paired": self.paired,
                "common_scale": self.common_scale,
                "verdict": verdict,
                "fits": [a.to_dict() for a in self.fits],
                "not_fitting": [a.to_dict() for a in self.not_fitting],
            },
            columns=("analysis", "command", "why"),
            rows=tuple((a.name, a.command, a.reason) for a in self.fits),
            frame={
                "analysis": [a.name for a, _ in every],
                "command": [a.command for a, _ in every],
                "fits": [fits for _, fits in every],
                "reason": [a.reason for a, _ in every],
            },
            tables=(
                (
                    "Analyses that do not fit",
                    ("analysis", "why not"),
                    tuple((a.name, a.reason) for a in self.not_fitting),
                ),
            )
            if self.not_fitting
            else (),
            notes=(self.shape_text,),
            source=(
                "Demšar 2006; Benavoli et al. 2017; Herbold 2020; Corani et al. 2017; Agarwal et al. 2021; "
                "Dror et al. 2019; Bouthillier et al. 2021"
            ),
            inputs=self.inputs,
            analysis="compare choose",
        )


def _across_tasks(k, n, paired, common_scale, runs, folds):
    """The analyses across tasks (n >= 2): (fitting, not fitting)."""
    fits, not_fitting = [], []
    few = n < _FEW_TASKS
    caveat = (
        f" With only {n} tasks the tests have little power: a 'no difference' says little (Demšar 2006, §4)."
        if few
        else ""
    )
    if k >= 3:
        fits.append(
            Analysis(
                "Friedman test with post-hoc tests and the critical-difference diagram",
                "compare rank",
                f"{k} methods ranked on each of {n} tasks: ranks need no common scale and no normality "
                f"(Demšar 2006, §3.2.2). To say which pairs differ, Benavoli et al. (2016) recommend the "
                "pairwise Wilcoxon signed-rank (or sign) tests with Holm's correction (--posthoc wilcoxon) "
                "over the tests on mean ranks (Nemenyi, Holm, Conover), whose verdict on a pair depends on "
                f"the other methods compared.{caveat}",
            )
        )
    fits.append(
        Analysis(
            "autorank's automatic path",
            "compare auto",
            "the path autorank takes: checks of normality (Shapiro-Wilk) and of equal variances choose "
            "repeated-measures ANOVA with Tukey's HSD or the Friedman test with Nemenyi's (for two methods, "
            f"a paired t-test or Wilcoxon's), with effect sizes and a LaTeX table (Herbold 2020).{caveat}",
        )
    )
    fits.append(
        Analysis(
            "Bayesian signed-rank test with a region of practical equivalence",
            "compare bayes",
            f"one pair of methods over {n} tasks: P(one is practically better), P(practically equivalent), "
            f"on the per-task mean scores (Benavoli et al. 2017, §4).{caveat}"
            + (" Run it per pair." if k > 2 else ""),
        )
    )
    if runs[0] >= _FEW_RUNS and common_scale:
        fits.insert(
            0,
            Analysis(
                "aggregate performance (IQM) with stratified bootstrap intervals",
                "compare aggregate",
                f"{runs[0]} or more runs per task on {n} tasks of a common scale: the IQM pools every run of "
                "every task, robust to outlying tasks, and the stratified bootstrap keeps every task in each "
                "resample (Agarwal et al. 2021, §4.1, §4.3); see also the performance profiles "
                "(compare profile) and the probability of improvement (compare improvement).",
            ),
        )
    elif runs[0] >= _FEW_RUNS:
        fits.append(
            Analysis(
                "probability of improvement",
                "compare improvement",
                "per task P(X > Y) over the runs, averaged over tasks: needs no common scale "
                "(Agarwal et al. 2021, §4.3).",
            )
        )
        not_fitting.append(
            Analysis(
                "aggregate performance and performance profiles",
                "compare aggregate",
                "they pool scores across tasks, which needs a common scale: normalise the scores per "
                "task (min-max, or a reference table of random and human scores) first.",
            )
        )
    else:
        not_fitting.append(
            Analysis(
                "stratified bootstrap intervals over runs",
                "compare aggregate",
                "some method has a single run on a task: there is nothing to resample within a task.",
            )
        )
    if folds is not None and paired:
        fits.append(
            Analysis(
                "hierarchical Bayesian test",
                "compare hierarchical",
                f"one pair of methods over {n} tasks, each a {folds}-fold cross-validation: one posterior "
                "over every fold of every task, not only the tasks' means, each task's difference shrunk "
                "towards the others' (Corani et al. 2017)." + (" Run it per pair." if k > 2 else ""),
            )
        )
        fits.append(
            Analysis(
                "Bayesian correlated t-test, task by task",
                "compare bayes --task",
                f"on one task's {folds}-fold cross-validation the fold scores are correlated "
                "(Benavoli et al. 2017, §3; Nadeau and Bengio's correction).",
            )
        )
    elif paired and runs[0] >= _FEW_RUNS:
        not_fitting.append(
            Analysis(
                "hierarchical Bayesian test",
                "compare hierarchical",
                "it models each task's runs as the folds of a cross-validation, whose scores are correlated: "
                "say how many folds (--fold-col, or --folds K) if the runs are cross-validation folds.",
            )
        )
    if runs[0] >= _FEW_RUNS:
        fits.append(_ASO)
    return fits, not_fitting


#: Almost stochastic order, wherever each method has several runs on each task.
_ASO = Analysis(
    "almost stochastic order of two sets of runs",
    "compare aso",
    "two methods' runs (seeds) on a task: how far the score distribution of one is from stochastically "
    "dominating the other's, per task, as deepsig (Dror et al. 2019; del Barrio et al. 2018). One-sided: "
    "run it both ways.",
)


def _one_task(k, paired, runs, folds):
    """The analyses on a single task: (fitting, not fitting)."""
    fits = []
    if runs[0] < _FEW_RUNS:
        return [], [
            Analysis(
                "any comparison",
                "-",
                "one task and a single run of some method: one score each says nothing about the variance "
                "of the runs; run each method several times (Bouthillier et al. 2021, §4.1).",
            )
        ]
    if folds is not None and paired:
        fits.append(
            Analysis(
                "Bayesian correlated t-test",
                "compare bayes",
                f"{folds}-fold cross-validation on one data set: its fold scores share training data, so a "
                "plain t-test is overconfident; the correlated t-test corrects for it (Benavoli et al. "
                "2017, §3; Nadeau and Bengio).",
            )
        )
    how = "paired by run" if paired else "unpaired"
    fits.append(
        Analysis(
            "probability of outperforming, P(A > B)",
            "compare outperform" if k == 2 else "compare improvement",
            f"runs {how} on one task: the probability that A's run beats B's, with its interval "
            "(Bouthillier et al. 2021, §4.1); with its effect size (compare effect).",
        )
    )
    fits.append(_ASO)
    not_fitting = [
        Analysis(
            "tests across data sets (Friedman, signed-rank)",
            "compare rank",
            "they need several tasks: each task is one observation.",
        )
    ]
    return fits, not_fitting


def choose_analysis(scores: TaskScores) -> ChoiceResult:
    """Which comparisons fit a table of task scores, and why, from the data's shape alone.

    The rules follow the papers the analyses implement (see the module's description): several tasks call
    for rank-based or Bayesian tests over tasks (Demšar 2006; Benavoli et al. 2017), and, with several
    runs per task on normalised scores, for aggregate estimates with stratified bootstrap intervals
    (Agarwal et al. 2021, §4); one task with several runs calls for P(A > B) (Bouthillier et al. 2021,
    §4.1) or, on a cross-validation, the correlated t-test. Which analysis answers the user's question is
    theirs to judge: the result names the assumptions each one makes.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`.

    Returns
    -------
    ChoiceResult

    See Also
    --------
    ChoiceResult : The analyses that fit a table of task scores, and the reasons.
    read_task_scores : Read the scores of several methods on many tasks.
    aggregate : Mean, median, IQM and optimality gap over many tasks, with intervals.
    rank_test : The Friedman test and its post-hoc tests over data sets.
    signed_rank_test : The Bayesian signed-rank test across data sets.
    correlated_t_test : The Bayesian correlated t-test on a cross-validation.
    improvement_probabilities : The probability of improvement of every method over every other.
    automatic_test : autorank's automatic path: assumption checks, then the parametric or rank-based tests.
    hierarchical_test : The hierarchical Bayesian test over data sets × folds.
    almost_stochastic_order : Almost stochastic order of two methods' runs, task by task.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.

    References
    ----------
    .. [1] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2, §4.
    .. [2] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §3-4.
    .. [3] Claude Nadeau and Yoshua Bengio, "Inference for the generalization error", Machine Learning 52(3),
       239-281, 2003. doi:10.1023/A:1024068626366.
    .. [4] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.
    .. [5] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §4.1.
    .. [6] Alessio Benavoli, Giorgio Corani and Francesca Mangili, "Should we really use post-hoc tests based
       on mean-ranks?", Journal of Machine Learning Research 17(5), 1-10, 2016.
       https://jmlr.org/papers/v17/benavoli16a.html.
    .. [7] Steffen Herbold, "Autorank: a Python package for automated ranking of classifiers", Journal of
       Open Source Software 5(48), 2173, 2020. doi:10.21105/joss.02173.
    .. [8] Giorgio Corani, Alessio Benavoli, Janez Demšar, Francesca Mangili and Marco Zaffalon,
       "Statistical comparison of classifiers through Bayesian hierarchical modelling", Machine Learning
       106, 1817-1837, 2017. doi:10.1007/s10994-017-5641-9.
    .. [9] Rotem Dror, Segev Shlomov and Roi Reichart, "Deep dominance - how to properly compare deep neural
       models", Proceedings of ACL 2019, 2773-2785. doi:10.18653/v1/P19-1266.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> uci = bundled_task_scores("uci")
    >>> choice = choose_analysis(uci)
    >>> [a.command for a in choice.fits]
    ['compare rank', 'compare auto', 'compare bayes', 'compare improvement', 'compare aso']
    >>> [a.name for a in choice.not_fitting]
    ['aggregate performance and performance profiles', 'hierarchical Bayesian test']
    """
    check_task_scores(scores)
    k, n = len(scores.methods), len(scores.tasks)
    counts = scores.runs_per_task
    runs = (int(counts.min()), int(counts.max()))
    paired = scores.labels_match
    common_scale = scores.normalisation != "none"
    if k < 2:
        fits, not_fitting = (
            [],
            [Analysis("any comparison", "-", "the table holds one method: there is nothing to compare.")],
        )
    elif n == 1:
        fits, not_fitting = _one_task(k, paired, runs, scores.folds)
    else:
        fits, not_fitting = _across_tasks(k, n, paired, common_scale, runs, scores.folds)
    return ChoiceResult(
        methods=k,
        tasks=n,
        runs=runs,
        folds=scores.folds,
        paired=paired,
        common_scale=common_scale,
        fits=tuple(fits),
        not_fitting=tuple(not_fitting),
        inputs=scores_files(scores),
    )
