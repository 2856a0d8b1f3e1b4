"""Is A really better than B, given all the sources of variance? (Bouthillier et al., 2021).

The probability that A outperforms B over runs with randomised sources of variance, its exact
percentile-bootstrap interval and the paper's decision (§4.1, appendix C.4-C.6), from two lists of scores or
a runs table (a file or a DataFrame); the number of runs the
test needs (C.3); the common criteria the paper compares it with (§4.1: one run each, the average
difference with a threshold, a one-sided t-test) and their error rates (§4.2, Fig. 6); many pipelines and
several data sets (§6); published improvements against the noise of the test set (Fig. 3); and the study
harness that measures the variance of each source (§2-3, Algorithms 1 and 2, appendices B and E), with a
worked example on two scikit-learn classifiers (:func:`sklearn_example`).

Several methods over many tasks, from one long table read by :func:`read_task_scores` (method, task, run,
score; the direction declared): :func:`choose_analysis` says which analysis fits; :func:`aggregate` (mean,
median, IQM, optimality gap), :func:`performance_profile` and :func:`improvement_probabilities` with
stratified bootstrap intervals (Agarwal et al. 2021, §4); :func:`rank_test` with the critical-difference
diagram (Demšar 2006); :func:`correlated_t_test` and :func:`signed_rank_test` with a region of practical
equivalence (Benavoli et al. 2017); :func:`effect_sizes` (Vargha-Delaney A, Cliff's δ, Hedges' g);
:func:`almost_stochastic_order` (almost stochastic order of two sets of seeds, as deepsig; Dror et al. 2019).

Every result explains itself: ``result.verdict`` (its answer in words), ``str(result)`` (what the command
prints), ``_repr_html_`` (the report's section, in a notebook), ``to_dict()`` and, where it holds a table,
``to_frame()``. Plots draw on an Axes and return it; save them with :func:`benchtrust.save_figure`.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

#: Where each public name lives. The names are imported on first use (PEP 562), so that a command loads
#: only the modules it runs: importing them all took about as long as importing numpy.
_MODULES = {
    "_pipelines._criteria": ("CriterionResult", "average_difference", "single_point", "t_test"),
    "_pipelines._datasets": (
        "DatasetTestResult",
        "EverywhereResult",
        "PairwiseResult",
        "better_everywhere",
        "friedman_datasets",
        "holm",
        "pairwise",
        "wilcoxon_datasets",
    ),
    "_pipelines._error_rates": ("ErrorRatesResult", "error_rates"),
    "_pipelines._estimators": (
        "Estimate",
        "SourceVariances",
        "TestSetVariance",
        "average_correlation",
        "binomial_variance",
        "fixed_hopt_estimate",
        "ideal_estimate",
        "mean_variance",
        "source_variances",
        "test_set_variance",
    ),
    "_pipelines._example": ("ExampleResult", "sklearn_example"),
    "_pipelines._history": ("HistoryResult", "history"),
    "_pipelines._outperform": (
        "OutperformResult",
        "SampleSizeResult",
        "outperform",
        "probability_of_outperforming",
        "runs_needed",
        "sample_size",
    ),
    "_pipelines._plot": ("plot_error_rates", "plot_history"),
    "_pipelines._study": ("NoisyGridSearch", "RandomSearch", "Run", "Runs", "Study", "out_of_bootstrap"),
    "_tasks._aggregate": ("AggregateResult", "aggregate"),
    "_tasks._aso": ("AsoResult", "almost_stochastic_order"),
    "_tasks._automatic": ("AutomaticResult", "automatic_test"),
    "_tasks._chooser": ("ChoiceResult", "choose_analysis"),
    "_tasks._correlated_t": ("CorrelatedTResult", "correlated_t_test"),
    "_tasks._effect": ("EffectSizeResult", "cohen_magnitude", "effect_sizes", "vargha_delaney_magnitude"),
    "_tasks._efficiency": (
        "EfficiencyResult",
        "plot_sample_efficiency",
        "sample_efficiency",
        "simulated_learning_curves",
    ),
    "_tasks._hierarchical": ("HierarchicalResult", "hierarchical_test", "plot_hierarchical"),
    "_tasks._improvement": ("ImprovementResult", "improvement_probabilities", "plot_improvement"),
    "_tasks._profiles": ("ProfileResult", "performance_profile", "plot_performance_profile"),
    "_tasks._rank_plot": ("critical_difference_svg", "plot_critical_difference"),
    "_tasks._ranks": ("RankResult", "rank_test"),
    "_tasks._scores": (
        "MissingRuns",
        "TaskScores",
        "bundled_results",
        "bundled_task_scores",
        "read_task_scores",
    ),
    "_tasks._signed_rank": ("SignedRankResult", "plot_simplex", "signed_rank_test"),
}
_WHERE = {name: module for module, names in _MODULES.items() for name in names}

if TYPE_CHECKING:  # what type checkers see: the same names, where they live (tests/test_typing.py)
    from benchtrust.compare._pipelines._criteria import (
        CriterionResult,
        average_difference,
        single_point,
        t_test,
    )
    from benchtrust.compare._pipelines._datasets import (
        DatasetTestResult,
        EverywhereResult,
        PairwiseResult,
        better_everywhere,
        friedman_datasets,
        holm,
        pairwise,
        wilcoxon_datasets,
    )
    from benchtrust.compare._pipelines._error_rates import ErrorRatesResult, error_rates
    from benchtrust.compare._pipelines._estimators import (
        Estimate,
        SourceVariances,
        TestSetVariance,
        average_correlation,
        binomial_variance,
        fixed_hopt_estimate,
        ideal_estimate,
        mean_variance,
        source_variances,
        test_set_variance,
    )
    from benchtrust.compare._pipelines._example import ExampleResult, sklearn_example
    from benchtrust.compare._pipelines._history import HistoryResult, history
    from benchtrust.compare._pipelines._outperform import (
        OutperformResult,
        SampleSizeResult,
        outperform,
        probability_of_outperforming,
        runs_needed,
        sample_size,
    )
    from benchtrust.compare._pipelines._plot import plot_error_rates, plot_history
    from benchtrust.compare._pipelines._study import (
        NoisyGridSearch,
        RandomSearch,
        Run,
        Runs,
        Study,
        out_of_bootstrap,
    )
    from benchtrust.compare._tasks._aggregate import AggregateResult, aggregate
    from benchtrust.compare._tasks._aso import AsoResult, almost_stochastic_order
    from benchtrust.compare._tasks._automatic import AutomaticResult, automatic_test
    from benchtrust.compare._tasks._chooser import ChoiceResult, choose_analysis
    from benchtrust.compare._tasks._correlated_t import CorrelatedTResult, correlated_t_test
    from benchtrust.compare._tasks._effect import (
        EffectSizeResult,
        cohen_magnitude,
        effect_sizes,
        vargha_delaney_magnitude,
    )
    from benchtrust.compare._tasks._efficiency import (
        EfficiencyResult,
        plot_sample_efficiency,
        sample_efficiency,
        simulated_learning_curves,
    )
    from benchtrust.compare._tasks._hierarchical import (
        HierarchicalResult,
        hierarchical_test,
        plot_hierarchical,
    )
    from benchtrust.compare._tasks._improvement import (
        ImprovementResult,
        improvement_probabilities,
        plot_improvement,
    )
    from benchtrust.compare._tasks._profiles import (
        ProfileResult,
        performance_profile,
        plot_performance_profile,
    )
    from benchtrust.compare._tasks._rank_plot import critical_difference_svg, plot_critical_difference
    from benchtrust.compare._tasks._ranks import RankResult, rank_test
    from benchtrust.compare._tasks._scores import (
        MissingRuns,
        TaskScores,
        bundled_results,
        bundled_task_scores,
        read_task_scores,
    )
    from benchtrust.compare._tasks._signed_rank import SignedRankResult, plot_simplex, signed_rank_test

__all__ = [
    "AggregateResult",
    "AsoResult",
    "AutomaticResult",
    "ChoiceResult",
    "CorrelatedTResult",
    "CriterionResult",
    "DatasetTestResult",
    "EffectSizeResult",
    "EfficiencyResult",
    "ErrorRatesResult",
    "Estimate",
    "EverywhereResult",
    "ExampleResult",
    "HierarchicalResult",
    "HistoryResult",
    "ImprovementResult",
    "MissingRuns",
    "NoisyGridSearch",
    "OutperformResult",
    "PairwiseResult",
    "ProfileResult",
    "RandomSearch",
    "RankResult",
    "Run",
    "Runs",
    "SampleSizeResult",
    "SignedRankResult",
    "SourceVariances",
    "Study",
    "TaskScores",
    "TestSetVariance",
    "aggregate",
    "almost_stochastic_order",
    "automatic_test",
    "average_correlation",
    "average_difference",
    "better_everywhere",
    "binomial_variance",
    "bundled_results",
    "bundled_task_scores",
    "choose_analysis",
    "cohen_magnitude",
    "correlated_t_test",
    "critical_difference_svg",
    "effect_sizes",
    "error_rates",
    "fixed_hopt_estimate",
    "friedman_datasets",
    "hierarchical_test",
    "history",
    "holm",
    "ideal_estimate",
    "improvement_probabilities",
    "mean_variance",
    "out_of_bootstrap",
    "outperform",
    "pairwise",
    "performance_profile",
    "plot_critical_difference",
    "plot_error_rates",
    "plot_hierarchical",
    "plot_history",
    "plot_improvement",
    "plot_performance_profile",
    "plot_sample_efficiency",
    "plot_simplex",
    "probability_of_outperforming",
    "rank_test",
    "read_task_scores",
    "runs_needed",
    "sample_efficiency",
    "sample_size",
    "signed_rank_test",
    "simulated_learning_curves",
    "single_point",
    "sklearn_example",
    "source_variances",
    "t_test",
    "test_set_variance",
    "vargha_delaney_magnitude",
    "wilcoxon_datasets",
]


def __getattr__(name: str) -> object:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | _WHERE.keys())
