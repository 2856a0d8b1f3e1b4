"""Would the ranking survive other reasonable design and analysis choices? (Nießl et al., 2022).

A benchmark's ranking of methods rests on choices: which data sets, which performance measure, how failed
resampling iterations are imputed, how values are aggregated over data sets. :func:`rankings` ranks the
methods under every combination of the options a spec declares (§3.1); :func:`rank_distribution` gives
each method's best and worst rank and the share at each rank (Fig. 2); :func:`stepwise` optimises each
method's rank one choice at a time (Fig. 3); :func:`impact` counts how often one choice alone changes the
ranking (§4.2); :func:`unfold` places combinations and methods in a plane by non-metric unfolding with
penalised stress (§3.2, Busing, Groenen & Heiser 2005; Fig. 4). :func:`study` does all of it, and
:func:`bundled_study` points at the paper's data and spec.
"""

from benchtrust.multiverse._analyses import (
    Impact,
    RankDistribution,
    Stepwise,
    impact,
    rank_distribution,
    stepwise,
)
from benchtrust.multiverse._options import register_option
from benchtrust.multiverse._plot import plot_rank_distribution, plot_stepwise, plot_unfolding
from benchtrust.multiverse._rankings import Multiverse, rankings
from benchtrust.multiverse._spec import Spec, read_spec
from benchtrust.multiverse._study import Study, bundled_study, study
from benchtrust.multiverse._unfolding import Unfolding, unfold

__all__ = [
    "Impact",
    "Multiverse",
    "RankDistribution",
    "Spec",
    "Stepwise",
    "Study",
    "Unfolding",
    "bundled_study",
    "impact",
    "plot_rank_distribution",
    "plot_stepwise",
    "plot_unfolding",
    "rank_distribution",
    "rankings",
    "read_spec",
    "register_option",
    "stepwise",
    "study",
    "unfold",
]
