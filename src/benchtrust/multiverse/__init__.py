"""Would the ranking survive other reasonable design and analysis choices? (Nießl et al., 2022).

A benchmark's ranking of methods rests on choices: which data sets, which performance measure, how failed
resampling iterations are imputed, how values are aggregated over data sets. :func:`rankings` ranks the
methods under every combination of the options a spec declares (§3.1); :func:`rank_distribution` gives
each method's best and worst rank and the share at each rank (Fig. 2); :func:`stepwise` optimises each
method's rank one choice at a time (Fig. 3); :func:`impact` counts how often one choice alone changes the
ranking (§4.2); :func:`unfold` places combinations and methods in a plane by non-metric unfolding with
penalised stress (§3.2, Busing, Groenen & Heiser 2005; Fig. 4); :func:`permutation_test` and
:func:`congruence` judge its fit, :func:`default_distances` measures how far each alternative option moves
a combination's ideal point (Fig. 5); :func:`subsample` ranks the methods on growing subsets of the data
sets (Fig. 6, Fig. S3). :func:`study` does all of it (a :class:`MultiverseStudyResult`), and
:func:`bundled_study` and :func:`bundled_orders` point at the paper's data, spec and orders of the data
sets. The ``plot_*`` functions draw the paper's figures on a matplotlib Axes and return it; save one with
:func:`benchtrust.save_figure`. Every result explains itself from one ``describe()``: its ``verdict`` in
words, ``str(result)`` (what the command prints), ``to_dict()``, ``to_frame()`` and its HTML section in a
notebook. The results' names before they took the
``Result`` suffix (``Impact``, ``Multiverse``, ``MultiverseStudy``, ``PermutationTest``,
``RankDistribution``, ``Stepwise``, ``Subsample``, ``Unfolding``) still import, as aliases.
"""

from benchtrust.multiverse._analyses import (
    ImpactResult,
    RankDistributionResult,
    StepwiseResult,
    impact,
    rank_distribution,
    stepwise,
)
from benchtrust.multiverse._fit import (
    PermutationTestResult,
    congruence,
    default_distance_summary,
    default_distances,
    permutation_test,
)
from benchtrust.multiverse._maps import plot_default_distances, plot_subsample, plot_unfolding
from benchtrust.multiverse._options import register_option
from benchtrust.multiverse._plot import plot_rank_distribution, plot_stepwise, plot_unfolding_map
from benchtrust.multiverse._rankings import MultiverseResult, rankings
from benchtrust.multiverse._spec import Spec, read_spec
from benchtrust.multiverse._study import MultiverseStudyResult, bundled_study, study, study_files
from benchtrust.multiverse._subsample import SubsampleResult, bundled_orders, subsample
from benchtrust.multiverse._unfolding import UnfoldingResult, unfold

#: The names before the ``Result`` suffix, kept importable (not in ``__all__``).
Impact = ImpactResult
Multiverse = MultiverseResult
MultiverseStudy = MultiverseStudyResult
PermutationTest = PermutationTestResult
RankDistribution = RankDistributionResult
Stepwise = StepwiseResult
Subsample = SubsampleResult
Unfolding = UnfoldingResult

__all__ = [
    "ImpactResult",
    "MultiverseResult",
    "MultiverseStudyResult",
    "PermutationTestResult",
    "RankDistributionResult",
    "Spec",
    "StepwiseResult",
    "SubsampleResult",
    "UnfoldingResult",
    "bundled_orders",
    "bundled_study",
    "congruence",
    "default_distance_summary",
    "default_distances",
    "impact",
    "permutation_test",
    "plot_default_distances",
    "plot_rank_distribution",
    "plot_stepwise",
    "plot_subsample",
    "plot_unfolding",
    "plot_unfolding_map",
    "rank_distribution",
    "rankings",
    "read_spec",
    "register_option",
    "stepwise",
    "study",
    "study_files",
    "subsample",
    "unfold",
]
