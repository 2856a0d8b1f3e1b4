"""Crop levels of a leaderboard and the best of m at each (paper §5.1.1, Table 3; AUC: §5.2, Fig. 12).

Cropping at a level s leaves out the teams scoring above s and draws m teams (as many as the board has)
from those kept. The levels are the board's distinct scores. For each level index i, :class:`_Levels`
gives the best score's distribution without the bootstrap over teams (:meth:`_Levels.plain`: each kept
team weighs m / kept) and with it, exactly (:meth:`_Levels.pooled`: its B -> infinity limit), each
computed only when a search asks for it; :class:`_AccuracyModel` computes them exactly (§4.3's dependence
model with θ0 = s), :class:`benchtrust.sota._auc_levels._AucModel` from AUC distributions tabulated
once. :func:`_closest_level` searches the levels for the crop equations of
:func:`benchtrust.sota.leaderboard`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from benchtrust._interval import Interval
from benchtrust.sota._best_of import BestOfResult, _exact, _prepare, _summarise


@dataclasses.dataclass(frozen=True)
class SotaEstimate:
    """One approach's estimate of the state of the art (a row of the paper's Table 3).

    Attributes
    ----------
    sota : float
        The SOTA estimate: the highest true score kept, θ̂_max (plug-in) or the crop level s.
    expected_max : float
        E(θ̂_max) under the approach's true scores.
    ci : benchtrust.Interval
        Central (1 - α) interval ``(low, high)`` of the best score, bootstrapped over teams.
    teams_above : int
        Teams whose observed score is above ``sota``.
    dropped : int
        Teams left out by Eq. 12 for the approach's θ0 and ρ (accuracy with ρ > 0 only).

    See Also
    --------
    leaderboard : Computes the estimates.
    LeaderboardResult : Holds them (``plugin``, ``cropped``, ``conservative``).
    plot_leaderboard : Draw them over the leaderboard's scores.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5.1.1 and Table 3 (the
       approaches "Kaggle accuracies" and "cropping", with their SOTA estimate, 95 % interval, E(θ̂_max)
       and number of teams above); §5.2.1, Fig. 12 (AUC).
    """

    sota: float
    expected_max: float
    ci: Interval
    teams_above: int
    dropped: int

    def to_dict(self) -> dict[str, Any]:
        """The estimate as plain JSON types."""
        out = dataclasses.asdict(self)
        out["ci"] = list(self.ci)
        return out


def _closest_level(f, levels, guess, *, below=False):
    """Index i of the level whose f(i) is nearest 0, for f increasing in i (the crop searches); with
    ``below``, the highest level where f(i) <= 0 (the lowest level if there is none).

    The top level is taken when f is not positive there. Otherwise the search starts from the level
    nearest ``guess``, moves down along the line through the last two points until f <= 0 (or the lowest
    level), then narrows the bracket lo < hi with f(lo) <= 0 < f(hi) by false position in the level's
    value (f is nearly linear in it; the level nearest the crossing), bisecting the indices when one end
    stalls, until lo and hi are neighbours.
    """
    hi = levels.size - 1
    f_hi = f(hi)
    if f_hi <= 0 or hi == 0:
        return hi
    lo = min(max(int(np.searchsorted(levels, guess)), 0), hi - 1)
    f_lo = f(lo)
    while f_lo > 0:
        if lo == 0:
            return 0
        # Down to the level at or below where the line through both points crosses 0 (twice the gap if
        # f did not grow), and at least one level down.
        rise = f_hi - f_lo
        gap = (levels[hi] - levels[lo]) * (f_lo / rise if rise > 0 else 2.0)
        hi, f_hi = lo, f_lo
        lo = max(min(int(np.searchsorted(levels, levels[hi] - gap, side="right")) - 1, hi - 1), 0)
        f_lo = f(lo)
    moved = bisect = None
    while hi - lo > 1:
        if bisect:
            mid = (lo + hi) // 2
        else:
            x = levels[lo] + (levels[hi] - levels[lo]) * -f_lo / (f_hi - f_lo)
            above = int(np.searchsorted(levels, x))  # the levels nearest x are above - 1 and above
            mid = above - 1 if above > 0 and x - levels[above - 1] < levels[above] - x else above
            mid = min(max(mid, lo + 1), hi - 1)
        f_mid = f(mid)
        bisect = (f_mid <= 0) == moved  # the same end moved twice running: bisect next
        moved = f_mid <= 0
        if moved:
            lo, f_lo = mid, f_mid
        else:
            hi, f_hi = mid, f_mid
    return lo if below or -f_lo < f_hi else hi


def _prob_at_least(result, value, step):
    """P(best score >= value) from a :class:`BestOfResult`."""
    below = result.score < value - step / 2
    return float(1.0 - result.cdf[below][-1]) if below.any() else 1.0


class _Levels:
    """The crop levels of a board: its distinct scores, and for each level i the teams kept (at most it).

    The models below give, for a level index i, the best of m = all teams drawn from the teams kept
    (:meth:`plain` and :meth:`pooled`) and the :class:`SotaEstimate` of cropping there.
    """

    def __init__(self, values, resamples):
        self.values = values
        self.teams = values.size
        self.levels, self.counts = np.unique(values, return_counts=True)
        self.kept = np.cumsum(self.counts)
        self.use_bootstrap = resamples > 0
        self.bootstrap = "exact (B -> infinity)" if resamples else "none"
        self._cache = {}

    def plain(self, i):
        """The best of m draws, each kept team weighing m / (teams kept): no bootstrap over teams."""
        return self._result(i, False)

    def pooled(self, i):
        """The best of m teams resampled from those kept (the bootstrap, exactly), or :meth:`plain`
        without resamples."""
        return self._result(i, self.use_bootstrap)

    def _result(self, i, pooled):
        """The cached result at level i; each kind is computed only when asked for (the crop search needs
        the plain one, the conservative search the pooled one)."""
        if (i, pooled) not in self._cache:
            self._cache[i, pooled] = self._compute(i, pooled)
        return self._cache[i, pooled]

    def error_bound(self):
        """The largest ``error_bound`` of the results computed: 0 when all are exact."""
        return max((result.error_bound for result in self._cache.values()), default=0.0)

    def estimate(self, i):
        plain, pooled = self.plain(i), self.pooled(i)
        level = float(self.levels[i])
        return SotaEstimate(
            sota=level,
            expected_max=plain.expected_max,
            ci=pooled.ci,
            teams_above=int(np.count_nonzero(self.values > level)),
            dropped=plain.dropped,
        )


class _AccuracyModel(_Levels):
    """Exact best-of-m accuracies at each crop level s: the teams scoring at most s, θ0 = s (§5.1.1).

    With ρ > 0, Eq. 12 leaves out the teams too weak for θ0 = s (always among those kept): the board then
    has m - dropped teams, and that many are drawn from the teams kept and admitted. ``progress(done,
    total)``, if given, is told how far each computation is (:func:`benchtrust.sota._best_of._exact`).
    """

    def __init__(self, values, n, rho, alpha, resamples, progress=None):
        super().__init__(values, resamples)
        self.n, self.rho, self.alpha, self.progress = n, rho, alpha, progress

    def _compute(self, i, pooled):
        level = float(self.levels[i])
        if level >= 1.0:  # teams with a perfect score and true accuracy 1 always score 1
            return _certain(self.teams, self.alpha)
        model = _prepare(
            self.values[self.values <= level],
            test_size=self.n,
            classifiers=int(self.kept[i]),
            correlation=self.rho,
            reference_accuracy=level if self.rho > 0 else None,
            fixed_reference=False,
            alpha=self.alpha,
            invalid="drop",
        )
        # m - dropped draws (the board after Eq. 12's exclusions) from the teams kept and admitted.
        weight = (self.teams - model.dropped) / model.counts.sum()
        model = dataclasses.replace(model, counts=model.counts * weight)
        return _exact(model, pooled=pooled, progress=self.progress)


def _certain(m, alpha):
    """The best score when some team's true score is 1: it is 1 for sure."""
    one = np.ones(1)
    return BestOfResult(
        **_summarise(one, one, alpha),
        alpha=alpha,
        classifiers=m,
        test_size=1,
        top_score=1.0,
        lowest_score=1.0,
        correlation=0.0,
        reference_accuracy=None,
        fixed_reference=False,
        dropped=0,
        model="a true score of 1",
        method="exact",
    )
