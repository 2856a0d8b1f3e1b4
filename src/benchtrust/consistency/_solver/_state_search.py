"""The exact search for per-set counts (paper §4.3): a dynamic programme over the sets whose states are
the partial column sums, the positives and the negatives searched apart and joined; see the module notes
of :mod:`._mean_of_scores`. Its "no counts" is a theorem, in exact integer arithmetic.
"""

from __future__ import annotations

import math

import numpy as np


class OverBudgetError(Exception):
    """The exact search would outgrow its budget."""


def search(piece, budget):
    """The exact search (the module notes of :mod:`._mean_of_scores`) on a piece of problems: (problem,
    counts in sorted set order) or None; raises OverBudgetError if a step would create more than
    ``budget`` states (None: no limit)."""
    problems = len(piece.p)
    sides = [2] if piece.joint else sorted((0, 1), key=lambda side: _expected_states(piece, side))
    spans = [_span(piece, side) for side in sides]
    zero = np.zeros_like(piece.low)
    found, start = [], np.arange(problems)
    for k, side in enumerate(sides):
        other_low = sum((s[0] for s in spans[k + 1 :]), zero)
        other_high = sum((s[1] for s in spans[k + 1 :]), zero)
        if found:
            cfg, states = found[-1][:2]
            other_low, other_high = (
                other_low + _per_problem(np.minimum, cfg, states, zero),
                other_high + _per_problem(np.maximum, cfg, states, zero),
            )
        cfg, states, trace = _reach(piece, side, start, other_low, other_high, budget)
        if not len(cfg):
            return None
        found.append((cfg, states, trace))
        start = np.unique(cfg)
    if len(sides) == 1:
        pair = (0,)  # the first state of the first problem with any: it is inside every window
    else:
        shared = np.flatnonzero(
            np.any(piece.tp_coef != 0, axis=(0, 1)) & np.any(piece.tn_coef != 0, axis=(0, 1))
        )
        pair = _join(piece, found[0][:2], found[1][:2], shared, budget)
        if pair is None:
            return None
    problem = int(found[0][0][pair[0]])
    picks = [_trace_back(problem, trace, index) for (_, _, trace), index in zip(found, pair, strict=True)]
    return problem, piece.counts(problem, sides, picks)


def _expected_states(piece, side):
    """A rough log-count of the states a side leads to, to search the smaller side first (order only).

    The box of counts, times the share of it near the corner the side's own score points to: with the
    mean at distance d from 0 or 1, the counts' shortfalls over N_e sets sum to about N_e·d, a simplex of
    volume (N_e·d)^N_e / N_e! of the unit box.
    """
    tp_low, tp_high, tn_low, tn_high = piece.ranges(side)
    size = np.log1p(tp_high - tp_low).sum() + np.log1p(tn_high - tn_low).sum()
    own = "sens" if side == 0 else "spec"
    if own in piece.means:
        sets = piece.p.shape[1]
        lo, hi = piece.means[own]
        reach = sets * max(float(min(hi, 1 - lo)), 1e-12)
        size += len(piece.p) * min(0.0, sets * math.log(reach) - math.lgamma(sets + 1))
    return size


def _span(piece, side):
    """The least and most each column can receive from a side, per problem: (problems, columns)."""
    tp_low, tp_high, tn_low, tn_high = piece.ranges(side)
    low = (tp_low[..., None] * piece.tp_coef + tn_low[..., None] * piece.tn_coef).sum(axis=1)
    high = (tp_high[..., None] * piece.tp_coef + tn_high[..., None] * piece.tn_coef).sum(axis=1)
    return low, high


def _per_problem(reduce, cfg, states, like):
    """``reduce`` (np.minimum or np.maximum) of the states of each problem; ``like`` where it has none."""
    out = like.copy()
    starts = np.flatnonzero(np.r_[True, cfg[1:] != cfg[:-1]])
    out[cfg[starts]] = reduce.reduceat(states, starts, axis=0)
    return out


def _reach(piece, side, start, other_low, other_high, budget):
    """The distinct column sums of a side reachable set by set, each kept only if it can still make it.

    Returns the problem and column sums of every final state (sorted by problem), and the trace: the
    order of the sets per problem and per step the (parent, tp, tn) of every state kept.
    """
    tp_low, tp_high, tn_low, tn_high = piece.ranges(side)
    # Sets with few choices first: the states multiply slowest, and the last steps, where the window
    # leaves each state few useful counts, take the sets with many.
    steps = np.argsort((tp_high - tp_low + 1) * (tn_high - tn_low + 1), axis=1, kind="stable")
    tp_low, tp_high, tn_low, tn_high = (
        np.take_along_axis(v, steps, axis=1) for v in (tp_low, tp_high, tn_low, tn_high)
    )
    tp_coef = (
        np.take_along_axis(piece.tp_coef, steps[..., None], axis=1)
        if side != 1
        else np.zeros_like(piece.tp_coef)
    )
    tn_coef = (
        np.take_along_axis(piece.tn_coef, steps[..., None], axis=1)
        if side != 0
        else np.zeros_like(piece.tn_coef)
    )
    couplings = [tuple(np.take_along_axis(v, steps, axis=1) for v in row) for row in piece.couplings]
    # Only the columns this side adds to; the others stay 0 and are put back at the end.
    active = np.flatnonzero(np.any((tp_coef != 0) | (tn_coef != 0), axis=(0, 1)))
    tp_coef, tn_coef = tp_coef[..., active], tn_coef[..., active]
    window_low, window_high = piece.low[:, active], piece.high[:, active]
    other_low, other_high = other_low[:, active], other_high[:, active]
    stage_low = tp_low[..., None] * tp_coef + tn_low[..., None] * tn_coef
    stage_high = tp_high[..., None] * tp_coef + tn_high[..., None] * tn_coef
    # rest_*[:, j]: what the stages after j and the other side can add at least / at most.
    rest_low = np.cumsum(stage_low[:, ::-1], axis=1)[:, ::-1] - stage_low + other_low[:, None]
    rest_high = np.cumsum(stage_high[:, ::-1], axis=1)[:, ::-1] - stage_high + other_high[:, None]
    cfg = np.asarray(start)
    states = np.zeros((len(cfg), len(active)), dtype=piece.low.dtype)
    trace = []
    for j in range(piece.p.shape[1]):
        low, high = window_low[cfg], window_high[cfg]
        floor_low, floor_high = states + rest_low[cfg, j], states + rest_high[cfg, j]
        need_low, need_high = low - floor_high, high - floor_low
        a_tp, a_tn = tp_coef[cfg, j], tn_coef[cfg, j]
        x0, x1 = tp_low[cfg, j], tp_high[cfg, j]  # one side's other count is fixed at 0
        if side != 1:
            x0, x1 = _useful(
                a_tp,
                need_low - a_tn * tn_high[cfg, j][:, None],
                need_high - a_tn * tn_low[cfg, j][:, None],
                x0,
                x1,
            )
        y0, y1 = tn_low[cfg, j], tn_high[cfg, j]
        if side != 0:
            y0, y1 = _useful(a_tn, need_low - a_tp * x1[:, None], need_high - a_tp * x0[:, None], y0, y1)
        width = np.maximum(y1 - y0 + 1, 0)
        count = np.maximum(x1 - x0 + 1, 0) * width
        total = int(count.sum())
        if budget is not None and total > budget:
            raise OverBudgetError
        parent = np.repeat(np.arange(len(cfg)), count)
        offset = np.arange(total) - np.repeat(np.cumsum(count) - count, count)
        tp = x0[parent] + offset // width[parent]
        tn = y0[parent] + offset % width[parent]
        owner = cfg[parent]
        grown = states[parent] + tp[:, None] * tp_coef[owner, j] + tn[:, None] * tn_coef[owner, j]
        if side == 2:
            ok = np.all(
                (grown + rest_low[owner, j] <= high[parent]) & (grown + rest_high[owner, j] >= low[parent]),
                axis=1,
            )
            for cx, cy, lo, hi in couplings:
                row = cx[owner, j] * tp + cy[owner, j] * tn
                ok &= (row >= lo[owner, j]) & (row <= hi[owner, j])
            keep = np.flatnonzero(ok)
            keep = keep[_distinct(owner[keep], grown[keep])]
        elif count.max(initial=0) > 1:
            keep = _distinct(owner, grown)
        else:
            keep = np.arange(total)
        cfg, states = owner[keep], grown[keep]
        trace.append((parent[keep], tp[keep], tn[keep]))
        if not len(cfg):
            break
    full = np.zeros((len(cfg), piece.low.shape[1]), dtype=piece.low.dtype)
    full[:, active] = states
    return cfg, full, (steps, trace)


def _useful(a, need_low, need_high, low, high):
    """The whole numbers v in [low, high] with need_low <= a·v <= need_high in every column (a >= 0)."""
    if not a.shape[1]:
        return low, high
    positive = a > 0
    safe = np.where(positive, a, 1)
    top = np.min(np.where(positive, need_high // safe, high[:, None]), axis=1)
    bottom = np.max(np.where(positive, -((-need_low) // safe), low[:, None]), axis=1)
    blocked = np.any(~positive & ((need_low > 0) | (need_high < 0)), axis=1)
    bottom = np.minimum(np.maximum(low, bottom), high + 1)
    top = np.where(blocked, bottom - 1, np.minimum(high, top))
    return bottom.astype(np.int64), np.maximum(top, bottom - 1).astype(np.int64)


def _distinct(owner, rows):
    """Indices of one row of each distinct (owner, row), sorted by owner."""
    order = np.lexsort([rows[:, k] for k in range(rows.shape[1] - 1, -1, -1)] + [owner])
    ordered, owners = rows[order], owner[order]
    new = np.ones(len(order), dtype=bool)
    new[1:] = np.any(ordered[1:] != ordered[:-1], axis=1) | (owners[1:] != owners[:-1])
    return order[new]


def _join(piece, first, second, shared, budget):
    """Indices (i, j) of a first-side and a second-side state of the same problem, the first problem
    possible, whose sums are inside the window on every column; None if there are none.

    A column only one side touches is inside already (each side's search added the other's span, zero
    there). The join sorts the first side by (problem, one shared column), finds for each state of the
    second side the run of partners inside the window on that column by binary search, and checks the
    other shared columns pair by pair, at most ``budget`` pairs at a time.
    """
    (cfg_a, a), (cfg_b, b) = first, second
    if not len(shared):
        common = np.intersect1d(cfg_a, cfg_b)
        if not len(common):
            return None
        return int(np.searchsorted(cfg_a, common[0])), int(np.searchsorted(cfg_b, common[0]))
    column, rest = shared[0], shared[1:]
    zero = np.zeros(len(piece.p), dtype=a.dtype)
    least = _per_problem(np.minimum, cfg_a, a[:, column], zero)
    span = int(np.max(a[:, column] - least[cfg_a])) + 1
    key = cfg_a.astype(a.dtype) * span + (a[:, column] - least[cfg_a])
    order = np.argsort(key, kind="stable")
    key = key[order]
    base = cfg_b.astype(a.dtype) * span
    want_low = np.maximum(piece.low[cfg_b, column] - b[:, column] - least[cfg_b], 0)
    want_high = np.minimum(piece.high[cfg_b, column] - b[:, column] - least[cfg_b], span - 1)
    begin = np.searchsorted(key, base + want_low, side="left")
    count = np.maximum(np.searchsorted(key, base + want_high, side="right") - begin, 0)
    count[want_low > want_high] = 0
    rows = np.flatnonzero(count > 0)
    if not len(rest):
        return (int(order[begin[rows[0]]]), int(rows[0])) if len(rows) else None
    if budget is not None and count.sum() > 8 * budget:
        raise OverBudgetError
    if not len(rows):
        return None
    ends = np.cumsum(count[rows])
    step = budget or int(ends[-1])
    done = 0
    while done < len(rows):
        stop = max(int(np.searchsorted(ends, ends[done] - count[rows[done]] + step, side="right")), done + 1)
        block = rows[done:stop]
        size = count[block]
        j = np.repeat(block, size)
        i = order[np.repeat(begin[block], size) + np.arange(len(j)) - np.repeat(np.cumsum(size) - size, size)]
        total = a[i][:, rest] + b[j][:, rest]
        owner = cfg_b[j]
        ok = np.flatnonzero(
            np.all((total >= piece.low[owner][:, rest]) & (total <= piece.high[owner][:, rest]), axis=1)
        )
        if len(ok):
            return int(i[ok[0]]), int(j[ok[0]])
        done = stop
    return None


def _trace_back(problem, trace, index):
    """(tp per set, tn per set) of one problem: the choices that lead to final state ``index``."""
    steps, kept = trace
    tp, tn = np.zeros(len(kept), dtype=np.int64), np.zeros(len(kept), dtype=np.int64)
    for j in range(len(kept) - 1, -1, -1):
        parent, tp_choice, tn_choice = kept[j]
        tp[steps[problem, j]], tn[steps[problem, j]] = tp_choice[index], tn_choice[index]
        index = parent[index]
    return tp, tn
