"""One small instance of every public result of benchtrust.multiverse, for the protocol test
(``tests/test_protocol.py``): each from the bundled Herrmann et al. (2021) results and Nießl et al.'s spec
of 288 combinations (``bundled_study()``), ranking five of the 13 methods (the figures draw a panel per
method, and the unfolding of these five converges in about 100 iterations), the permutation test with two
refits in this process. The rankings and their unfolding are computed once and shared.
"""

import functools

import yaml

from benchtrust.multiverse import (
    bundled_orders,
    bundled_study,
    impact,
    permutation_test,
    rank_distribution,
    rankings,
    stepwise,
    study,
    subsample,
    unfold,
)

METHODS = ["Kaplan-Meier", "Lasso", "glmboost", "CoxBoost", "Clinical only"]


@functools.cache
def _files() -> dict:
    files = bundled_study()
    spec = yaml.safe_load(files["spec"].read_text(encoding="utf-8"))
    return {**files, "spec": {**spec, "methods": METHODS}}


@functools.cache
def _multiverse():
    return rankings(**_files())


@functools.cache
def _unfolding():
    return unfold(_multiverse().ranks)


EXAMPLES = {
    "ImpactResult": lambda: impact(_multiverse()),
    "MultiverseResult": _multiverse,
    "MultiverseStudyResult": lambda: study(**_files()),
    "PermutationTestResult": lambda: permutation_test(
        _multiverse().ranks, permutations=2, seed=0, n_jobs=1, fitted=_unfolding()
    ),
    "RankDistributionResult": lambda: rank_distribution(_multiverse()),
    "StepwiseResult": lambda: stepwise(_multiverse()),
    "SubsampleResult": lambda: subsample(**_files(), orders=bundled_orders()),
    "UnfoldingResult": _unfolding,
}
