"""Crop levels of a leaderboard and the best of m at each (paper §5.1.1, Table 3; AUC: §5.2, Fig. 12).

Cropping at a level s leaves out the teams scoring above s and draws m teams (as many as the board has)
from those kept. The levels are the board's distinct scores. For each level index i, :class:`_Levels`
gives the best score's distribution without the bootstrap over teams (:meth:`_Levels.plain`: each kept
team weighs m / kept) and with it, exactly (:meth:`_Levels.pooled`: its B -> infinity limit), each
computed only when a search asks for it; :class:`_AccuracyModel` computes them exactly (§4.3's dependence
model with θ0 = s), :class:`_AucModel` from AUC distributions tabulated once. :func:`_closest_level`
searches the levels for the crop equations of :func:`benchtrust.sota.leaderboard`.
"""

from __future__ import annotations

import dataclasses

import numpy as np
from scipy import special
from scipy.interpolate import PchipInterpolator

from benchtrust._interval import Interval
from benchtrust.sota import _auc
from benchtrust.sota._best_of import BestOfResult, _exact, _prepare, _summarise

#: Spacing in Φ^-1(AUC) of the true AUCs at which the AUC distribution is tabulated (:class:`_AucModel`).
_GRID_STEP = 0.05
#: Replicates of the larger class per tabulated AUC (:func:`benchtrust.sota._auc.auc_pmf`).
_REPLICATES = 128
#: Values of U handled at once when the tabulated distributions are combined for a crop value.
_CHUNK = 4096
#: Upper tails below this are 0 to the table (log-tail interpolation needs finite values).
_TINY = 1e-300
#: log P(best <= u) below this is 0: the lower end of the best's distribution is reached.
_LOG_NEGLIGIBLE = -800.0


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
    """

    sota: float
    expected_max: float
    ci: Interval
    teams_above: int
    dropped: int

    def to_dict(self):
        """The estimate as plain JSON types."""
        out = dataclasses.asdict(self)
        out["ci"] = list(self.ci)
        return out


def _closest_level(f, levels, guess, *, below=False):
    """Index i of the level whose f(i) is nearest 0, for f increasing in i (the crop searches); with
    ``below``, the highest level where f(i) <= 0 (the lowest level if there is none).

    The top level is taken when f is not positive there. Otherwise the search starts from the level
    nearest ``guess``, widens downwards until f <= 0 (or the lowest level), then narrows the bracket
    lo < hi with f(lo) <= 0 < f(hi) by false position in the level's value (f is nearly linear in it),
    bisecting the indices when one end stalls, until lo and hi are neighbours.
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
        gap = 2 * (levels[hi] - levels[lo])
        hi, f_hi = lo, f_lo
        lo = min(int(np.searchsorted(levels, levels[hi] - gap)), hi - 1)
        f_lo = f(lo)
    moved = bisect = None
    while hi - lo > 1:
        if bisect:
            mid = (lo + hi) // 2
        else:
            x = levels[lo] + (levels[hi] - levels[lo]) * -f_lo / (f_hi - f_lo)
            mid = min(max(int(np.searchsorted(levels, x)), lo + 1), hi - 1)
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
    has m - dropped teams, and that many are drawn from the teams kept and admitted.
    """

    def __init__(self, values, n, rho, alpha, resamples):
        super().__init__(values, resamples)
        self.n, self.rho, self.alpha = n, rho, alpha

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
        return _exact(dataclasses.replace(model, counts=model.counts * weight), pooled=pooled)


def _certain(m, alpha):
    """The best score when some team's true score is 1: it is 1 for sure."""
    one = np.ones(1)
    return BestOfResult(
        **_summarise(one, one, alpha),
        alpha=alpha,
        classifiers=m,
        test_size=1,
        top_score=1.0,
        correlation=0.0,
        reference_accuracy=None,
        fixed_reference=False,
        dropped=0,
        model="a true score of 1",
        method="exact",
    )


class _AucModel(_Levels):
    """Best-of-m AUCs at each crop level from tabulated AUC distributions (binormal, independent teams; §5.2).

    The distribution F_a of one classifier's empirical AUC is tabulated once by :func:`_auc.auc_pmf` on
    a grid of true AUCs from just above 0.5 to θ̂_max, uniform in Φ^-1(AUC) (the binormal mean shift,
    spacing _GRID_STEP: about a third of the empirical AUC's SD near the top of a typical board, half of
    it lower down), with common random numbers, so that F_a is ordered in a. The log upper tail
    log P(U > u) is interpolated from the grid to the board's distinct scores by a monotone cubic (PCHIP)
    in a, which keeps that order. Every crop level reuses the table through prefix sums over the distinct
    scores in ascending order: with K teams kept at level i and m teams in all,

    * plain: log P(best <= u) = (m / K) Σ_kept log F_j(u);
    * pooled (the bootstrap over teams, exactly: its B -> infinity limit): m log(mean_kept F_j(u)).

    Both grow with the level, so the searches are stable. As for accuracy, the plain distribution gives
    the expected best (the crop equation) and the pooled one the interval; with many teams kept their
    expectations agree closely (Melanoma's crop: 0.948989 and 0.948985).
    Error: the table's Monte Carlo error (see :func:`_auc.auc_pmf`; the same replicates for every level)
    and the interpolation's, which tests/sota/test_auc.py bounds against distributions computed at the
    scores themselves.
    """

    def __init__(self, values, n, positives, alpha, resamples, seed):
        super().__init__(values, resamples)
        self.n, self.positives, self.alpha = n, positives, alpha
        self.lattice = positives * (n - positives)
        top = float(self.levels[-1])
        high = float(special.ndtri(top))
        low = min(float(special.ndtri(0.5 + 1.0 / self.lattice)), high / 2)
        grid = special.ndtr(np.linspace(low, high, max(2, int(np.ceil((high - low) / _GRID_STEP)) + 1)))
        grid[-1] = top
        pmf = _auc.auc_pmf(grid, test_size=n, positives=positives, replicates=_REPLICATES, seed=seed)
        self.top_pmf = pmf[-1]
        above = np.cumsum(pmf[:, :0:-1], axis=1)[:, ::-1]  # P(U > u) for u = 0..lattice - 1
        self.grid = grid
        self.log_tail = np.log(np.maximum(above, _TINY))
        self._chunks = []

    def single_interval(self, auc):
        """Central interval of one classifier's empirical AUC when its true AUC is θ̂_max (the top row)."""
        log_cdf = _auc._log_cdf(self.top_pmf[None])[0]
        return _auc._best_from_log_cdf(log_cdf, self.lattice, self.alpha)["ci"]

    def _chunk(self, index):
        """Prefix sums over the distinct scores, Σ count P(U > u) and Σ count log F(u), for block ``index``.

        Block i covers u in [hi - _CHUNK, hi) with hi = lattice - i _CHUNK.
        """
        while len(self._chunks) <= index:
            hi = self.lattice - len(self._chunks) * _CHUNK
            lo = max(hi - _CHUNK, 0)
            tail = np.exp(PchipInterpolator(self.grid, self.log_tail[:, lo:hi], axis=0)(self.levels))
            with np.errstate(divide="ignore"):
                log_cdf = np.log1p(-np.minimum(tail, 1.0))
            weights = self.counts[:, None]
            self._chunks.append(
                (lo, hi, np.cumsum(weights * tail, axis=0), np.cumsum(weights * log_cdf, axis=0))
            )
        return self._chunks[index]

    def _log_cdfs(self, i):
        """log P(best <= u), u = 0..lattice, plain and pooled, at level i (-inf where below e^-800)."""
        kept, m = self.kept[i], self.teams
        plain = np.full(self.lattice + 1, -np.inf)
        pooled = np.full(self.lattice + 1, -np.inf)
        plain[-1] = pooled[-1] = 0.0  # P(U <= lattice) = 1
        index = 0
        while True:
            lo, hi, tail_sums, log_sums = self._chunk(index)
            plain[lo:hi] = (m / kept) * log_sums[i]
            with np.errstate(divide="ignore"):
                pooled[lo:hi] = m * np.log1p(-np.minimum(tail_sums[i] / kept, 1.0))
            index += 1
            if lo == 0 or max(plain[lo], pooled[lo]) < _LOG_NEGLIGIBLE:
                return plain, pooled

    def _compute(self, i, pooled):
        level = float(self.levels[i])
        log_cdf = self._log_cdfs(i)[int(pooled)]
        return BestOfResult(
            **_auc._best_from_log_cdf(log_cdf, self.lattice, self.alpha),
            alpha=self.alpha,
            classifiers=self.teams,
            test_size=self.n,
            top_score=level,
            correlation=0.0,
            reference_accuracy=None,
            fixed_reference=False,
            dropped=0,
            model=f"independent, binormal, {'bootstrap over teams' if pooled else 'teams kept'}",
            method=f"tabulated, {_REPLICATES} replicates, {self.grid.size} AUCs",
            metric="auc",
            positives=self.positives,
        )
