"""The mixed-integer solver HiGHS (``scipy.optimize.milp``) for a mean-of-scores problem too large for the
exact search (paper §4.3): the mean rows widened outward by :data:`MARGIN`, a solution rounded and checked
exactly; see the module notes of :mod:`._mean_of_scores` for what its "infeasible" rests on.
"""

from __future__ import annotations

import numpy as np

from benchtrust.consistency._mean_constraints import verified
from benchtrust.consistency._state_search import search

#: Outward widening of the mean rows given to HiGHS (score units); see the module notes.
MARGIN = 1e-5


def by_solver(piece):
    """HiGHS on a single problem (module notes): verified counts in sorted order, None if infeasible."""
    p, n = piece.p[0], piece.n[0]
    status, counts = milp_counts(piece, MARGIN)
    if status == 2:
        return None
    if counts is not None and verified(p, n, counts, piece.given):
        return counts
    narrowest = min(hi - lo for lo, hi in piece.means.values())
    _, counts = milp_counts(piece, -min(MARGIN, float(narrowest) / 4))
    if counts is not None and verified(p, n, counts, piece.given):
        return counts
    found = search(piece, None)
    return None if found is None else found[1]


def milp_counts(piece, widen):
    """HiGHS's status and rounded solution with the mean rows widened by ``widen`` (narrowed if < 0)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    p, n = piece.p[0].astype(float), piece.n[0].astype(float)
    sets = len(p)
    zero = np.zeros(sets)
    rows, low, high = [], [], []
    for base, (lo, hi) in piece.means.items():
        if base == "sens":
            rows.append(np.concatenate([1 / (sets * p), zero]))
        elif base == "spec":
            rows.append(np.concatenate([zero, 1 / (sets * n)]))
        elif base == "acc":
            rows.append(np.concatenate([1 / (sets * (p + n))] * 2))
        else:
            rows.append(np.concatenate([1 / (2 * sets * p), 1 / (2 * sets * n)]))
        low.append(float(lo) - widen)
        high.append(float(hi) + widen)
    diagonal = np.arange(sets)
    for cx, cy, lo, hi in piece.couplings:
        block = np.zeros((sets, 2 * sets))
        block[diagonal, diagonal], block[diagonal, sets + diagonal] = cx[0], cy[0]
        rows.extend(block)
        low.extend(lo[0] - 0.5)
        high.extend(hi[0] + 0.5)
    lower = np.concatenate([piece.tp_low[0], piece.tn_low[0]])
    upper = np.concatenate([piece.tp_high[0], piece.tn_high[0]])
    result = milp(
        np.zeros(2 * sets),
        constraints=LinearConstraint(np.array(rows), low, high),
        integrality=np.ones(2 * sets),
        bounds=Bounds(lower, upper),
        options={"presolve": False},  # HiGHS 1.x presolve fails ("Solve error") on some tiny problems
    )
    if result.x is None:
        return result.status, None
    x = np.clip(np.round(result.x), lower, upper).astype(np.int64)
    return result.status, np.stack([x[:sets], x[sets:]], axis=1)
