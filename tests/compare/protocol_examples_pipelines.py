"""One small instance of every public result of the family of two pipelines (``compare._pipelines``), for
``tests/test_protocol.py``: each made in well under a second, from the data the tests and docs use."""

import numpy as np

from benchtrust.compare import (
    ExampleResult,
    Study,
    better_everywhere,
    error_rates,
    friedman_datasets,
    history,
    ideal_estimate,
    pairwise,
    probability_of_outperforming,
    runs_needed,
    source_variances,
    t_test,
    test_set_variance,
)

A = [0.81, 0.83, 0.80, 0.85, 0.82, 0.84, 0.79, 0.86, 0.83, 0.82]
B = [0.80, 0.81, 0.81, 0.82, 0.80, 0.84, 0.78, 0.83, 0.80, 0.81]


def _fit_and_score(train, test, hyperparameters, seeds):
    return 0.8 + np.random.default_rng(seeds["init"]).normal(0, 0.01) + len(test) / 10_000


def _study():
    return Study(_fit_and_score, data_size=50, sources=("split", "init"))


def _example():
    """The worked example's result, made from given scores (the example itself trains scikit-learn)."""
    names = ("logistic", "forest")
    variances = {name: source_variances(_study(), runs=3, seed=k) for k, name in enumerate(names)}
    return ExampleResult(
        dataset="ten paired runs",
        names=names,
        runs=len(A),
        seed=0,
        scores_a=tuple(A),
        scores_b=tuple(B),
        variances=variances,
        outperform=probability_of_outperforming(A, B, names=names),
        runs_needed=29,
    )


EXAMPLES = {
    "OutperformResult": lambda: probability_of_outperforming(A * 3, B * 3),
    "SampleSizeResult": lambda: runs_needed(0.75),
    "CriterionResult": lambda: t_test(A, B),
    "ErrorRatesResult": lambda: error_rates(0.01, runs=5, simulations=60, probabilities=[0.4, 0.9], seed=1),
    "HistoryResult": lambda: history([2019, 2020, 2021], [0.8, 0.85, 0.851], test_size=1000),
    "PairwiseResult": lambda: pairwise({"A": A, "B": B, "C": B[::-1]}),
    "DatasetTestResult": lambda: friedman_datasets({"A": A[:4], "B": B[:4], "C": B[4:8]}),
    "EverywhereResult": lambda: better_everywhere({"d1": A, "d2": B}, runs_b={"d1": B, "d2": A}),
    "Estimate": lambda: ideal_estimate(_study(), runs=5, seed=0),
    "SourceVariances": lambda: source_variances(_study(), runs=5, seed=0),
    "TestSetVariance": lambda: test_set_variance(_study().run(5, seed=0)),
    "Runs": lambda: _study().run(5, seed=0),
    "ExampleResult": _example,
}
