"""One small example of every public result of the analyses over many tasks, for ``tests/test_protocol.py``.

Each is made from the bundled data (:func:`benchtrust.compare.bundled_task_scores`: the Atari 100k runs of
Agarwal et al. 2021, the UCI accuracies of Benavoli et al. 2017), read once, with few resamples.
"""

import functools

from benchtrust.compare import (
    aggregate,
    almost_stochastic_order,
    automatic_test,
    bundled_task_scores,
    choose_analysis,
    correlated_t_test,
    effect_sizes,
    hierarchical_test,
    improvement_probabilities,
    performance_profile,
    rank_test,
    sample_efficiency,
    signed_rank_test,
    simulated_learning_curves,
)

atari = functools.cache(lambda: bundled_task_scores("atari100k"))
uci = functools.cache(lambda: bundled_task_scores("uci"))

EXAMPLES = {
    "AggregateResult": lambda: aggregate(atari(), resamples=100, seed=0),
    "AsoResult": lambda: almost_stochastic_order(atari(), "SPR", "DER", resamples=100, seed=0),
    "AutomaticResult": lambda: automatic_test(uci()),
    "ChoiceResult": lambda: choose_analysis(uci()),
    "CorrelatedTResult": lambda: correlated_t_test(uci(), "nbc", "aode", task="7", folds=10, rope=1.0),
    "EffectSizeResult": lambda: effect_sizes(uci(), "nbc", "aode", paired=True),
    "EfficiencyResult": lambda: sample_efficiency(
        simulated_learning_curves(tasks=4, runs=3, steps=3), direction="higher", resamples=100, seed=0
    ),
    "HierarchicalResult": lambda: hierarchical_test(
        uci(), "nbc", "aode", rope=1.0, folds=10, samples=200, chains=20, burn_in=50, seed=0
    ),
    "ImprovementResult": lambda: improvement_probabilities(atari(), resamples=100, seed=0),
    "ProfileResult": lambda: performance_profile(atari(), resamples=100, seed=0),
    "RankResult": lambda: rank_test(uci()),
    "SignedRankResult": lambda: signed_rank_test(uci(), "nbc", "aode", rope=1.0, samples=1000, seed=0),
}
