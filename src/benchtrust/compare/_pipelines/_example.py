"""The worked example of ``benchtrust.compare``: two scikit-learn classifiers, compared as the paper says.

Logistic regression (A) and a small random forest (B) on scikit-learn's breast cancer data (569 tumours,
30 features, shipped with scikit-learn: no download). Each pipeline is a :class:`~benchtrust.compare.Study`
whose sources of variation are randomised (paper §2, C.1): the data split (a stratified out-of-bootstrap
split, appendix B) and the model's own randomness ('init': the forest's bootstrap samples and feature
draws; logistic regression, fitted by a deterministic solver, has none). Both pipelines are run with the
same study seed, so run *i* of A and run *i* of B see the same split: the runs are paired (C.2).

The example then reports the variance of each pipeline's accuracy by source (§2.2, Fig. 1), P(A > B) with
its percentile-bootstrap interval and the decision (§4.1, C.4-C.6), and the number of runs the test needs
(C.3), as an :class:`ExampleResult` that explains itself. scikit-learn is needed only here (the ``test``
extra installs it).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchtrust._io import InputError, check_count
from benchtrust._result import Description, Result, plain_data
from benchtrust._words import ALPHA, BETA, GAMMA, aligned, interval_text, level_text, paragraph
from benchtrust.compare._pipelines._estimators import SourceVariances, source_variances
from benchtrust.compare._pipelines._outperform import (
    OutperformResult,
    probability_of_outperforming,
    sample_size,
)
from benchtrust.compare._pipelines._study import Study
from benchtrust.compare._pipelines._text import COMPARE_QUESTION, SOURCE

__all__ = ["ExampleResult", "sklearn_example"]

#: The sources of variation randomised in the example's studies.
SOURCES = ("split", "init")
#: Trees of the example's random forest: few, to keep the example fast.
TREES = 25
#: The data the example reads, as its section names it.
DATA = "scikit-learn's breast cancer data (bundled with scikit-learn)"


def _data():
    from sklearn.datasets import load_breast_cancer

    return load_breast_cancer(return_X_y=True)


def _fit_and_score(model):
    """``fit_and_score(train, test, hyperparameters, seeds)`` of the pipeline named ``model``."""
    features, labels = _data()

    def fit_and_score(train, test, hyperparameters, seeds):
        from sklearn.ensemble import RandomForestClassifier
        from sklearn.linear_model import LogisticRegression
        from sklearn.pipeline import make_pipeline
        from sklearn.preprocessing import StandardScaler

        if model == "logistic":
            estimator = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
        else:
            estimator = RandomForestClassifier(
                n_estimators=TREES, random_state=seeds["init"] % 2**32, n_jobs=1
            )
        estimator.fit(features[train], labels[train])
        return float(estimator.score(features[test], labels[test]))

    return fit_and_score, labels


@dataclasses.dataclass(frozen=True, eq=False)
class ExampleResult(Result):
    """What the worked example found: two scikit-learn pipelines compared as the paper says (§2-4).

    Attributes
    ----------
    dataset : str
        The data set, in words.
    names : tuple of str
        The pipelines A and B.
    runs : int
        k, paired runs of each pipeline (and runs per source in ``variances``).
    seed : int
        The study seed shared by A and B.
    scores_a, scores_b : tuple of float
        The accuracies of A's and B's runs, run *i* of both on the same split.
    variances : dict
        ``variances[name]``: the :class:`~benchtrust.compare.SourceVariances` of pipeline
        ``name``, each source randomised alone over ``runs`` runs (Fig. 1).
    outperform : OutperformResult
        P(A > B) over the paired runs, its interval and the decision.
    runs_needed : int
        N of :func:`~benchtrust.compare.sample_size` at the result's γ (29 at γ = 0.75).
    inputs : tuple of str
        The data read, in words (scikit-learn's breast cancer data).

    See Also
    --------
    sklearn_example : The worked example: logistic regression against a random forest.
    OutperformResult : P(A > B), its interval and the decision.
    SourceVariances : The variance due to each source of variation.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 1 (variance by source); §4.1 and appendix B, C.1-C.6 (the test).
    """

    dataset: str
    names: tuple[str, str]
    runs: int
    seed: int
    scores_a: tuple[float, ...]
    scores_b: tuple[float, ...]
    variances: dict[str, SourceVariances]
    outperform: OutperformResult
    runs_needed: int

    def __repr__(self) -> str:
        result = self.outperform
        return (
            f"ExampleResult({self.names[0]} vs {self.names[1]}, runs={self.runs}, "
            f"p_a_beats_b={result.p_a_beats_b:.4f}, ci=({result.ci[0]:.4f}, {result.ci[1]:.4f}), "
            f"significant={result.significant}, meaningful={result.meaningful}, "
            f"runs_needed={self.runs_needed})"
        )

    @property
    def enough_runs(self) -> bool:
        """Whether the example's runs reach :attr:`runs_needed`, the test's stated power (C.3)."""
        return self.runs >= self.runs_needed

    @property
    def verdict(self) -> str:
        """The decision on P(A > B) in plain words (paper C.6)."""
        return self.outperform.conclusion

    def source_sd(self, name: str, source: str) -> float:
        """The standard deviation of pipeline `name`'s accuracy with only `source` randomised (Fig. 1)."""
        return float(np.sqrt(self.variances[name].variances[source]))

    def describe(self) -> Description:
        """The example's report (sources of variance, P(A > B), the decision and the runs needed), its
        section and its data. Its table is the paired runs as a runs table, one row per run: columns
        ``algorithm``, ``run`` and ``score``, which :func:`~benchtrust.compare.outperform` takes as it is
        (``pair_by="run"``)."""
        result = self.outperform
        scores_a, scores_b = np.array(self.scores_a), np.array(self.scores_b)
        rows = [
            (
                f"SD of the accuracy, {source} randomised",
                *(f"{self.source_sd(name, source):.4f}" for name in self.names),
            )
            for source in (*SOURCES, "none")
        ]
        rows += [
            (
                "SD of the accuracy, all randomised",
                f"{scores_a.std(ddof=1):.4f}",
                f"{scores_b.std(ddof=1):.4f}",
            ),
            ("mean accuracy", f"{scores_a.mean():.4f}", f"{scores_b.mean():.4f}"),
        ]
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_example_text(self),
            data={
                "dataset": self.dataset,
                "names": self.names,
                "runs": self.runs,
                "seed": self.seed,
                "scores_a": self.scores_a,
                "scores_b": self.scores_b,
                "variances": {name: plain_data(value) for name, value in self.variances.items()},
                "outperform": plain_data(result),
                "runs_needed": self.runs_needed,
            },
            columns=("", f"A = {self.names[0]}", f"B = {self.names[1]}"),
            rows=tuple(rows),
            frame={
                "algorithm": [self.names[0]] * self.runs + [self.names[1]] * self.runs,
                "run": [*range(self.runs), *range(self.runs)],
                "score": [*self.scores_a, *self.scores_b],
            },
            notes=(
                f"P(A > B) = {result.p_a_beats_b:.4f}, {level_text(result.alpha)} interval "
                f"{interval_text(result.ci)} ({result.method}); A wins {result.wins}, ties {result.ties}, "
                f"loses {result.losses} of {result.n_pairs} pairs.",
                f"Runs needed (C.3): {self.runs_needed}; this study used {self.runs}, {_runs_words(self)}.",
            ),
            assumptions=(
                ("data", self.dataset),
                ("runs", f"{self.runs} paired runs (same split and seed for run i of A and B, C.2)"),
                ("sources of variance randomised", ", ".join(SOURCES)),
                (GAMMA, f"{result.gamma:g}"),
                (ALPHA, f"{result.alpha:g}"),
                ("study seed", f"{self.seed}"),
            ),
            source=f"{SOURCE}, §2-4, appendix B, C.1-C.6",
            inputs=self.inputs,
            analysis="compare example",
        )


def sklearn_example(*, runs: int = 29, seed: int = 0, gamma: float = 0.75) -> ExampleResult:
    """Compare logistic regression (A) with a random forest (B) on the breast cancer data, as §4 says.

    Runs both pipelines ``runs`` times, paired, with the split and the model's seed randomised; measures
    the variance of each source alone (``runs`` runs per source and pipeline); computes P(A > B), its exact
    percentile-bootstrap interval and the decision; and the runs the test needs at ``gamma``.

    Parameters
    ----------
    runs : int, default 29
        k, the paired runs (29 is what the paper's γ = 0.75, α = β = 0.05 need, C.3); at least 2.
    seed : int, default 0
        The study seed, shared by A and B.
    gamma : float, default 0.75
        γ of the decision and of the sample size.

    Returns
    -------
    ExampleResult
        Its ``inputs`` name the data read; ``str(result)`` is the example's report.

    See Also
    --------
    ExampleResult : What the worked example found.
    Study : Train a pipeline many times, each source of variation fixed or randomised.
    source_variances : The variance due to each source of variation alone.
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 1; §4.1; appendix B (out-of-bootstrap splits), C.1-C.6.
    .. [2] W. H. Wolberg, W. N. Street and O. L. Mangasarian, the Breast Cancer Wisconsin (Diagnostic) data
       set, as scikit-learn ships it: https://scikit-learn.org/stable/datasets/toy_dataset.html.

    Examples
    --------
    Two paired runs (a few seconds) are too few for the test's stated power (29, C.3):

    >>> result = sklearn_example(runs=2, seed=0)
    >>> result.runs, result.runs_needed, result.enough_runs
    (2, 29, False)
    >>> result.verdict.startswith("Too few runs to conclude")
    True
    """
    from threadpoolctl import threadpool_limits  # installed with scikit-learn

    runs = check_count(runs, "runs")
    if runs < 2:
        raise InputError(f"runs: expected at least 2 runs, got {runs}")
    names = ("LogisticRegression (standardised)", f"RandomForestClassifier ({TREES} trees)")
    studies = {}
    for name, model in zip(names, ("logistic", "forest"), strict=True):
        fit_and_score, labels = _fit_and_score(model)
        studies[name] = Study(fit_and_score, labels=labels, sources=SOURCES)
    # One BLAS thread: on a problem this small (569 x 30), OpenBLAS's threads only wait on each other. A
    # logistic regression fitted in 19 ms instead of 70 (two shared cores), the scores the same.
    with threadpool_limits(limits=1, user_api="blas"):
        scores = {name: study.run(runs, seed=seed).scores for name, study in studies.items()}
        variances = {name: source_variances(study, runs=runs, seed=seed) for name, study in studies.items()}
    result = probability_of_outperforming(
        scores[names[0]], scores[names[1]], paired=True, gamma=gamma, names=names
    )
    features, labels = _data()
    return ExampleResult(
        dataset=(
            f"scikit-learn's breast cancer data ({features.shape[0]} tumours, {features.shape[1]} features, "
            f"{int(labels.sum())} benign)"
        ),
        names=names,
        runs=runs,
        seed=seed,
        scores_a=tuple(float(x) for x in scores[names[0]]),
        scores_b=tuple(float(x) for x in scores[names[1]]),
        variances=variances,
        outperform=result,
        runs_needed=sample_size(gamma),
        inputs=(DATA,),
    )


def _example_text(example: ExampleResult) -> str:
    """The worked example's report (paper §2-4, C.1-C.6): sources of variance, P(A > B), the decision and
    the runs needed, in lines of at most 100 characters."""
    a, b = example.names
    result = example.outperform
    scores_a, scores_b = np.array(example.scores_a), np.array(example.scores_b)
    lines = [
        f"A = {a}",
        f"B = {b}",
        f"on {example.dataset}.",
        f"{example.runs} paired runs: run i of A and of B share a new stratified out-of-bootstrap split",
        "(appendix B) and a new 'init' seed (C.1-C.2).",
        "",
        f"Standard deviation of the accuracy, one source randomised at a time ({example.runs} runs each, "
        "§2.2):",
    ]
    table: list[tuple[str, ...]] = [("source", "A", "B")]
    for source in (*SOURCES, "none"):
        table.append((source, *(f"{example.source_sd(name, source):.4f}" for name in example.names)))
    table.append(("all", f"{scores_a.std(ddof=1):.4f}", f"{scores_b.std(ddof=1):.4f}"))
    lines += aligned(table)
    lines += [
        "  ('none': nothing randomised, numerical noise; 'all': the paired runs below)",
        "",
        f"Mean accuracy: A {scores_a.mean():.4f}, B {scores_b.mean():.4f}; "
        f"A wins {result.wins}, ties {result.ties}, loses {result.losses} of {result.n_pairs} pairs.",
        f"P(A > B) = {result.p_a_beats_b:.4f}, {level_text(result.alpha)} CI "
        f"[{result.ci[0]:.4f}, {result.ci[1]:.4f}] (percentile bootstrap, {result.method}; §4.1, C.5)",
        paragraph("Decision (C.6): " + result.conclusion),
        paragraph(
            f"Runs needed (C.3, {GAMMA} = {result.gamma:g}, {ALPHA} = {BETA} = 0.05): {example.runs_needed}; "
            f"this example used {example.runs}, {_runs_words(example)}."
        ),
    ]
    return "\n".join(lines)


def _runs_words(example: ExampleResult) -> str:
    """Whether the example's runs are enough for the test's stated power (C.3), in words."""
    return "enough" if example.enough_runs else "too few for the test's stated power"
