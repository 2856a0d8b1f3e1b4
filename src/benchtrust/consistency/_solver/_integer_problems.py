"""Mean-of-scores problems in integers (paper §4.3): many problems of the same shape, such as the fold
configurations of §4.4.3, as the per-set ranges of the counts, the couplings of bounds (Eq. 10), and one
integer column per reported mean with its window (Eq. 9); see the module notes of
:mod:`._mean_of_scores`.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from benchtrust.consistency._solver._mean_constraints import BASES, Constraints, base_intervals

#: Problems searched together at most (split further when a step would outgrow the budget).
PIECE = 256

_lcm = np.frompyfunc(math.lcm, 2, 1)


@dataclasses.dataclass(frozen=True, eq=False)
class Batch:
    """Problems of the same shape in integers: per-set ranges and couplings, the columns and windows.

    Each problem's sets are sorted by (p_i, n_i) (``order`` maps back), so identical sets are adjacent;
    ``weight`` is the number of identical sets at the first of them and 0 at the others (1 everywhere
    when bounds couple tp_i and tn_i, which are then searched together: ``joint``).
    """

    given: Constraints
    means: dict  # base score -> exact (lo, hi) of the mean
    order: np.ndarray  # (problems, sets)
    p: np.ndarray
    n: np.ndarray
    alive: np.ndarray  # (problems,): not already ruled out (undefined score, empty window or range)
    tp_low: np.ndarray
    tp_high: np.ndarray
    tn_low: np.ndarray
    tn_high: np.ndarray
    couplings: tuple  # of (cx, cy, low, high), each (problems, sets): low <= cx·tp + cy·tn <= high
    weight: np.ndarray
    tp_coef: np.ndarray  # (problems, sets, columns)
    tn_coef: np.ndarray
    low: np.ndarray  # (problems, columns)
    high: np.ndarray
    unit: np.ndarray  # (problems, columns): a column's sum over this is its mean, less a constant
    big: np.ndarray  # (problems,): needs Python integers

    @property
    def joint(self):
        return bool(self.couplings)

    @classmethod
    def build(cls, p, n, given):
        order = np.argsort(p * (int(n.max()) + 1) + n, axis=1, kind="stable")
        p, n = np.take_along_axis(p, order, axis=1), np.take_along_axis(n, order, axis=1)
        problems, sets = p.shape
        c = p + n
        means = base_intervals((rep.score, *rep.interval) for rep in given.means)
        each = base_intervals(given.each)
        alive = np.ones(problems, dtype=bool)
        missing = {"sens": p == 0, "spec": n == 0, "acc": np.zeros(p.shape, dtype=bool)}
        missing["bacc"] = missing["sens"] | missing["spec"]
        for base in set(means) | set(each):
            if given.convention(base) is None:
                alive &= ~missing[base].any(axis=1)
        tp_low, tp_high, tn_low, tn_high = np.zeros_like(p), p, np.zeros_like(n), n
        if "sens" in each:
            tp_low, tp_high = (
                np.maximum(tp_low, _ceil(each["sens"][0], p)),
                np.minimum(p, _floor(each["sens"][1], p)),
            )
        if "spec" in each:
            tn_low, tn_high = (
                np.maximum(tn_low, _ceil(each["spec"][0], n)),
                np.minimum(n, _floor(each["spec"][1], n)),
            )
        for base in {"sens", "spec"} & set(each):
            value = given.convention(base)
            if value in ("0", "1"):  # the undefined score takes this value, which must lie in the bounds
                lo, hi = each[base]
                alive &= ~(missing[base] & (not lo <= int(value) <= hi)).any(axis=1)
        if "bacc" in each and given.convention("bacc") is not None:
            # where a class is missing, the bounds fall on the recall of the class the set holds
            lo, hi = each["bacc"]
            value = given.convention("bacc")
            lo, hi = (lo, hi) if value == "skip" else (2 * lo - int(value), 2 * hi - int(value))
            tn_low = np.where(missing["sens"], np.maximum(tn_low, _ceil(lo, n)), tn_low)
            tn_high = np.where(missing["sens"], np.minimum(tn_high, _floor(hi, n)), tn_high)
            tp_low = np.where(missing["spec"], np.maximum(tp_low, _ceil(lo, p)), tp_low)
            tp_high = np.where(missing["spec"], np.minimum(tp_high, _floor(hi, p)), tp_high)
        alive &= ((tp_low <= tp_high) & (tn_low <= tn_high)).all(axis=1)
        couplings = []
        if "acc" in each:
            lo, hi = each["acc"]
            couplings.append((np.ones_like(p), np.ones_like(p), _ceil(lo, c), _floor(hi, c)))
        if "bacc" in each:
            lo, hi = each["bacc"]
            couplings.append((n, p, _ceil(2 * lo, p * n), _floor(2 * hi, p * n)))
        for _, _, lo, hi in couplings:
            alive &= (lo <= hi).all(axis=1)
        if couplings:
            weight = np.ones_like(p)
        else:
            start = np.ones(p.shape, dtype=bool)
            start[:, 1:] = (p[:, 1:] != p[:, :-1]) | (n[:, 1:] != n[:, :-1])
            first = np.maximum.accumulate(np.where(start, np.arange(sets), 0), axis=1)
            weight = np.zeros_like(p)
            np.add.at(weight, (np.arange(problems)[:, None], first), 1)
        tp_coef, tn_coef, low, high, units, scales = [], [], [], [], [], []
        safe_p, safe_n = np.where(p > 0, p, 1).astype(object), np.where(n > 0, n, 1).astype(object)
        lcm_p = _lcm.reduce(safe_p, axis=1) if {"sens", "bacc"} & set(means) else None
        lcm_n = _lcm.reduce(safe_n, axis=1) if {"spec", "bacc"} & set(means) else None
        for base in (b for b in BASES if b in means):
            lo, hi = means[base]
            if base == "acc":
                common = _lcm.reduce(c.astype(object), axis=1)
            elif base == "bacc":
                common = _lcm(lcm_p, lcm_n)
            else:
                common = lcm_p if base == "sens" else lcm_n
            zero = np.zeros(p.shape, dtype=object)
            per_p = common[:, None] // (c.astype(object) if base == "acc" else safe_p)
            per_n = common[:, None] // (c.astype(object) if base == "acc" else safe_n)
            convention, undefined = given.convention(base), missing[base].sum(axis=1).astype(object)
            counted, shift = np.full(problems, sets, dtype=object), 0
            if convention == "1":  # each undefined set adds 1 to the sum of the scores
                shift = undefined * common
            elif convention == "skip" and base == "bacc":  # the recall of the class the set holds
                per_p = np.where(missing["spec"], 2 * per_p, per_p)
                per_n = np.where(missing["sens"], 2 * per_n, per_n)
            elif convention == "skip":  # the mean is over the sets where the score is defined
                counted = counted - undefined
                alive &= counted > 0
            tp_coef.append(zero if base == "spec" else per_p)
            tn_coef.append(zero if base == "sens" else per_n)
            unit = counted * (2 if base == "bacc" else 1) * common
            low.append(-((-lo.numerator * unit) // lo.denominator) - shift)
            high.append((hi.numerator * unit) // hi.denominator - shift)
            units.append(unit)
            scales.append(common)
        low, high = np.stack(low, axis=1), np.stack(high, axis=1)
        alive &= (low <= high).all(axis=1)
        big = np.max(np.stack(scales, axis=1), axis=1) * (16 * sets * PIECE) >= 2**62
        return cls(
            given=given,
            means=means,
            order=order,
            p=p,
            n=n,
            alive=alive,
            tp_low=tp_low,
            tp_high=tp_high,
            tn_low=tn_low,
            tn_high=tn_high,
            couplings=tuple(tuple(np.asarray(v, dtype=np.int64) for v in row) for row in couplings),
            weight=weight,
            tp_coef=np.stack(tp_coef, axis=2),
            tn_coef=np.stack(tn_coef, axis=2),
            low=low,
            high=high,
            unit=np.stack(units, axis=1),
            big=big.astype(bool),
        )

    def select(self, rows):
        """The problems ``rows``, in int64 unless one needs Python integers."""
        dtype = object if self.big[rows].any() else np.int64
        pick = {
            field.name: getattr(self, field.name)[rows]
            for field in dataclasses.fields(self)
            if isinstance(getattr(self, field.name), np.ndarray)
        }
        for name in ("tp_coef", "tn_coef", "low", "high"):
            pick[name] = pick[name].astype(dtype)
        couplings = tuple(tuple(v[rows] for v in row) for row in self.couplings)
        return dataclasses.replace(self, couplings=couplings, **pick)

    def ranges(self, side):
        """(tp low, tp high, tn low, tn high) of every stage of a side: 0 positives, 1 negatives, 2 both."""
        zero = np.zeros_like(self.p)
        if side == 0:
            return self.weight * self.tp_low, self.weight * self.tp_high, zero, zero
        if side == 1:
            return zero, zero, self.weight * self.tn_low, self.weight * self.tn_high
        return self.tp_low, self.tp_high, self.tn_low, self.tn_high

    def counts(self, problem, sides, picks):
        """Per-set (tp_i, tn_i) of one problem from the totals picked at each stage of each side."""
        out = np.zeros((self.p.shape[1], 2), dtype=np.int64)
        for side, (tp, tn) in zip(sides, picks, strict=True):
            if side == 2:
                out[:, 0], out[:, 1] = tp, tn
                continue
            low, high = (self.tp_low, self.tp_high) if side == 0 else (self.tn_low, self.tn_high)
            total = tp if side == 0 else tn
            for j in np.flatnonzero(self.weight[problem]):
                m, lo, room = self.weight[problem, j], low[problem, j], high[problem, j] - low[problem, j]
                out[j : j + m, side] = lo + np.clip(total[j] - m * lo - room * np.arange(m), 0, room)
        return out


def _ceil(fraction, values):
    """⌈fraction·v⌉ for every v in ``values``, exactly (int64 result)."""
    return (-((-fraction.numerator * values.astype(object)) // fraction.denominator)).astype(np.int64)


def _floor(fraction, values):
    """⌊fraction·v⌋ for every v in ``values``, exactly (int64 result)."""
    return ((fraction.numerator * values.astype(object)) // fraction.denominator).astype(np.int64)


def live_runs(batch):
    """Row indices of the live problems, in order, in runs of one kind: int64 or Python integers."""
    rows = np.flatnonzero(batch.alive)
    if len(rows):
        yield from np.split(rows, np.flatnonzero(np.diff(batch.big[rows].astype(np.int8))) + 1)


def unsort(counts, order):
    out = np.empty_like(counts)
    out[order] = counts
    return out
