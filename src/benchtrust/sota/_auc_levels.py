"""Crop levels of an AUC leaderboard and the best of m AUCs at each, tabulated (paper §5.2, Fig. 12).

:class:`_AucModel` is the AUC counterpart of :class:`benchtrust.sota._crop._AccuracyModel`; it lives apart
so that accuracy boards never load the AUC tables' scipy modules.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import special
from scipy.interpolate import PchipInterpolator

from benchtrust._io import MAX_MEMORY, check_memory
from benchtrust.sota import _auc
from benchtrust.sota._best_of import BestOfResult
from benchtrust.sota._crop import _Levels

#: Spacing in Φ^-1(AUC) of the true AUCs at which the AUC distribution is tabulated (:class:`_AucModel`).
_GRID_STEP = 0.05
#: Replicates of the larger class per tabulated AUC (:func:`benchtrust.sota._auc.auc_pmf`).
_REPLICATES = 128
#: The most values of U in one block of prefix sums (crop levels x values of U, :meth:`_AucModel._block`).
_CHUNK = 4096
#: The most bytes of one block of prefix sums, with the interpolation that builds it: fewer values of U a
#: block on boards of many distinct scores.
_BLOCK_BYTES = 2**26
#: The most bytes of blocks kept for reuse: the top of the lattice, which every crop level scans; the
#: blocks below are built again when a level reaches them.
_KEPT_BYTES = 2**29
#: Upper tails below this are 0 to the table (log-tail interpolation needs finite values).
_TINY = 1e-300
#: log P(best <= u) below this is 0: the lower end of the best's distribution is reached. Below -38,
#: 1 - e^x rounds to 1 in double precision, so the tail P(best >= u) the results come from is already 1.
_LOG_NEGLIGIBLE = -40.0


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

    Memory. The prefix sums are built in blocks of values of U, from the top of the lattice down as far
    as a level's distribution reaches. A block keeps them only at every k-th level (k about the square
    root of the number of levels); a level's own sums start from the nearest of these below it and add
    its few levels again, in the same order, so they are the same numbers. The top blocks, which every
    level scans, are kept up to _KEPT_BYTES; deeper ones are built anew when reached. ``max_memory`` is
    compared with the most all of this holds at once (the tables being built, then the log tails with
    the blocks) before the tables are computed.
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
        levels = self.levels.size
        self.group = math.isqrt(levels - 1) + 1  # k: levels between kept prefix sums
        stored = 16 * -(-levels // self.group)  # bytes a value of U of a block keeps: two sums a group
        # A group's two arrays, and the interpolation's (slice, slopes, coefficients, their temporaries).
        working = 16 * self.group + 96 * grid.size
        self.width = int(max(1, min(_CHUNK, self.lattice, _BLOCK_BYTES // (stored + working))))
        self.kept_blocks = int(max(1, _KEPT_BYTES // (stored * self.width)))
        blocks = min(self.kept_blocks, -(-self.lattice // self.width)) + 1  # + one built and dropped
        # At its peak: the tables being built (auc_pmf); the pmf and its tails; then the log tails with the
        # blocks and one level's log cdfs, plain and pooled, and the arrays summarising them (eight of U).
        table = 8 * grid.size * (self.lattice + 1)
        scans = table + (blocks * stored + working) * self.width + 64 * (self.lattice + 1)
        need = max(_auc._pmf_memory(grid.size, n, positives, _REPLICATES), 2 * table, scans)
        check_memory(
            need,
            max_memory,
            f"the AUC tables of a test set of {positives} positives and {n - positives} negatives "
            f"({grid.size} AUCs x {self.lattice + 1:,} values of U, {self.levels.size:,} crop levels)",
        )
        pmf = _auc.auc_pmf(grid, test_size=n, positives=positives, replicates=_REPLICATES, seed=seed)
        self.top_pmf = pmf[-1].copy()
        above = np.cumsum(pmf[:, :0:-1], axis=1)[:, ::-1]  # P(U > u) for u = 0..lattice - 1
        del pmf
        np.maximum(above, _TINY, out=above)
        self.log_tail = np.log(above, out=above)
        self.grid = grid
        self._blocks = []

    def single_interval(self, auc):
        """Central interval of one classifier's empirical AUC when its true AUC is θ̂_max (the top row)."""
        log_cdf = _auc._log_cdf(self.top_pmf[None])[0]
        return _auc._best_from_log_cdf(log_cdf, self.lattice, self.alpha)["ci"]

    def _block(self, index):
        """Block ``index``: u in [lo, hi), hi = lattice - index width, and there the prefix sums
        Σ count P(U > u) and Σ count log F(u) over the levels up to each k-th one.

        The first ``kept_blocks`` are kept (every level starts its scan at the top); deeper ones are built
        anew each time, so the memory stays within the estimate whatever depth a level reaches.
        """
        if index < len(self._blocks):
            return self._blocks[index]
        hi = self.lattice - index * self.width
        lo = max(hi - self.width, 0)
        spline = self._spline(lo, hi)
        sums = [np.empty((-(-self.levels.size // self.group), hi - lo)) for _ in range(2)]
        carry = None
        for g, first in enumerate(range(0, self.levels.size, self.group)):
            for total, last in zip(sums, self._prefix(spline, first, first + self.group, carry), strict=True):
                total[g] = last
            carry = (sums[0][g], sums[1][g])
        block = (lo, hi, *sums)
        if index == len(self._blocks) and index < self.kept_blocks:
            self._blocks.append(block)
        return block

    def _spline(self, lo, hi):
        """log P(U > u), u in [lo, hi), as a function of the true AUC: monotone cubic (PCHIP) on the grid."""
        return PchipInterpolator(self.grid, self.log_tail[:, lo:hi], axis=0)

    def _prefix(self, spline, first, last, carry):
        """Σ count P(U > u) and Σ count log F(u) over the levels up to last - 1 (at most the top one),
        summed one level at a time from ``carry``, the sums up to first - 1 (None for first = 0)."""
        tail = spline(self.levels[first:last])
        np.exp(tail, out=tail)
        log_cdf = np.minimum(tail, 1.0)
        with np.errstate(divide="ignore"):
            np.log1p(np.negative(log_cdf, out=log_cdf), out=log_cdf)
        weights = self.counts[first:last, None]
        sums = []
        for values, before in zip((tail, log_cdf), carry or (None, None), strict=True):
            np.multiply(values, weights, out=values)
            total = values[0]
            if before is not None:
                total += before
            for level in values[1:]:  # as np.cumsum(axis=0) adds, 20 times faster (its steps are strided)
                total += level
            sums.append(total)
        return sums

    def _log_cdfs(self, i):
        """log P(best <= u), u = 0..lattice, plain and pooled, at level i (-inf where below e^-40)."""
        kept, m = self.kept[i], self.teams
        plain = np.full(self.lattice + 1, -np.inf)
        pooled = np.full(self.lattice + 1, -np.inf)
        plain[-1] = pooled[-1] = 0.0  # P(U <= lattice) = 1
        index = 0
        while True:
            lo, hi, tail_sums, log_sums = self._block(index)
            g = i // self.group
            carry = (tail_sums[g - 1], log_sums[g - 1]) if g else None
            del tail_sums, log_sums  # a block not kept is freed before the next is built
            tail_sum, log_sum = self._prefix(self._spline(lo, hi), g * self.group, i + 1, carry)
            del carry
            plain[lo:hi] = (m / kept) * log_sum
            with np.errstate(divide="ignore"):
                pooled[lo:hi] = m * np.log1p(-np.minimum(tail_sum / kept, 1.0))
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
            lowest_score=float(self.levels[0]),
            correlation=0.0,
            reference_accuracy=None,
            fixed_reference=False,
            dropped=0,
            model=f"independent, binormal, {'bootstrap over teams' if pooled else 'teams kept'}",
            method=f"tabulated, {_REPLICATES} replicates, {self.grid.size} AUCs",
            metric="auc",
            positives=self.positives,
        )
