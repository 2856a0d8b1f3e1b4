"""Crop levels of an AUC leaderboard and the best of m AUCs at each, tabulated (paper §5.2, Fig. 12).

:class:`_AucModel` is the AUC counterpart of :class:`benchtrust.sota._crop._AccuracyModel`; it lives apart
so that accuracy boards never load the AUC tables' scipy modules.
"""

from __future__ import annotations

import numpy as np
from scipy import special
from scipy.interpolate import PchipInterpolator

from benchtrust._io import InputError
from benchtrust.sota import _auc
from benchtrust.sota._best_of import BestOfResult
from benchtrust.sota._crop import _Levels

#: Spacing in Φ^-1(AUC) of the true AUCs at which the AUC distribution is tabulated (:class:`_AucModel`).
_GRID_STEP = 0.05
#: Replicates of the larger class per tabulated AUC (:func:`benchtrust.sota._auc.auc_pmf`).
_REPLICATES = 128
#: Values of U handled at once when the tabulated distributions are combined for a crop value.
_CHUNK = 4096
#: Default of ``max_memory`` (bytes): the most the AUC tables may take (issue 29: every board under 2 GB).
MAX_MEMORY = 2 * 10**9
#: Arrays of (tabulated AUCs) x (values of U) the tables hold at their peak (pmf, tails, spectra).
_TABLES = 5
#: Upper tails below this are 0 to the table (log-tail interpolation needs finite values).
_TINY = 1e-300
#: log P(best <= u) below this is 0: the lower end of the best's distribution is reached.
_LOG_NEGLIGIBLE = -800.0


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

    def __init__(self, values, n, positives, alpha, resamples, seed, max_memory=MAX_MEMORY):
        super().__init__(values, resamples)
        self.n, self.positives, self.alpha = n, positives, alpha
        self.lattice = positives * (n - positives)
        top = float(self.levels[-1])
        high = float(special.ndtri(top))
        low = min(float(special.ndtri(0.5 + 1.0 / self.lattice)), high / 2)
        grid = special.ndtr(np.linspace(low, high, max(2, int(np.ceil((high - low) / _GRID_STEP)) + 1)))
        grid[-1] = top
        need = _TABLES * 8 * grid.size * (self.lattice + 1)
        if need > max_memory:
            raise InputError(
                f"max_memory={max_memory:.3g}: the AUC tables of a test set of {positives} positives and "
                f"{n - positives} negatives would take about {need / 1e9:.2g} GB ({grid.size} AUCs x "
                f"{self.lattice + 1:,} values of U); raise it to run anyway"
            )
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
            # In place: each array is levels x _CHUNK (tens of MB for a board of thousands of teams).
            tail = PchipInterpolator(self.grid, self.log_tail[:, lo:hi], axis=0)(self.levels)
            np.exp(tail, out=tail)
            log_cdf = np.minimum(tail, 1.0)
            with np.errstate(divide="ignore"):
                np.log1p(np.negative(log_cdf, out=log_cdf), out=log_cdf)
            weights = self.counts[:, None]
            for values in (tail, log_cdf):
                np.multiply(values, weights, out=values)
                np.cumsum(values, axis=0, out=values)
            self._chunks.append((lo, hi, tail, log_cdf))
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
