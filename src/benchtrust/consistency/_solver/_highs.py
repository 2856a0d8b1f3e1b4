"""The mixed-integer solver HiGHS (``scipy.optimize.milp``) for a mean-of-scores problem too large for the
exact search (paper §4.3): the mean rows widened outward by :data:`MARGIN`, a solution rounded and checked
exactly; see the module notes of :mod:`._mean_of_scores` for what its "infeasible" rests on.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import sys
from fractions import Fraction

import numpy as np

from benchtrust._io import InputError
from benchtrust.consistency._solver._mean_constraints import verified
from benchtrust.consistency._solver._state_search import OverBudgetError, search

#: Outward widening of the mean rows given to HiGHS (score units); see the module notes.
MARGIN = 1e-5

#: Seconds HiGHS gets per program; one it cannot settle in that time raises :class:`UnsettledError`.
TIME_LIMIT = 10.0


class UnsettledError(Exception):
    """HiGHS ran out of :data:`TIME_LIMIT` on a problem: it found neither counts nor that none exist."""


def by_solver(piece, max_states):
    """HiGHS on a single problem (module notes): verified counts in sorted order, None if infeasible.

    When neither HiGHS's solution nor that of the narrowed problem passes the exact check, the exact
    search decides with at most ``max_states`` states per step; past that, an InputError names it. When
    HiGHS runs out of time with no solution, :class:`UnsettledError` is raised: the problem is left undecided.
    """
    p, n = piece.p[0], piece.n[0]
    status, counts = milp_counts(piece, MARGIN)
    if status == 2:
        return None
    if status == 1 and counts is None:
        raise UnsettledError
    if counts is not None and verified(p, n, counts, piece.given):
        return counts
    narrowest = min(Fraction(int(hi - lo), int(unit)) for lo, hi, unit in _columns(piece))
    _, counts = milp_counts(piece, -min(MARGIN, float(narrowest) / 4))
    if counts is not None and verified(p, n, counts, piece.given):
        return counts
    try:
        found = search(piece, max_states)
    except OverBudgetError:
        raise InputError(
            f"max_states={max_states:,}: deciding these {piece.p.shape[1]} sets exactly takes more states "
            "per step (HiGHS's answer failed the exact check); raise max_states"
        ) from None
    return None if found is None else found[1]


def _columns(piece):
    """(low, high, unit) of each column of a single problem: its sum over unit is a mean, less a constant."""
    return zip(piece.low[0], piece.high[0], piece.unit[0], strict=True)


def milp_counts(piece, widen):
    """HiGHS's status and rounded solution with the mean rows widened by ``widen`` (narrowed if < 0)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    sets = piece.p.shape[1]
    rows, low, high = [], [], []
    for j, (lo, hi, unit) in enumerate(_columns(piece)):
        coefficients = np.concatenate([piece.tp_coef[0, :, j], piece.tn_coef[0, :, j]])
        rows.append([float(Fraction(int(value), int(unit))) for value in coefficients])
        low.append(float(Fraction(int(lo), int(unit))) - widen)
        high.append(float(Fraction(int(hi), int(unit))) + widen)
    diagonal = np.arange(sets)
    for cx, cy, lo, hi in piece.couplings:
        block = np.zeros((sets, 2 * sets))
        block[diagonal, diagonal], block[diagonal, sets + diagonal] = cx[0], cy[0]
        rows.extend(block)
        low.extend(lo[0] - 0.5)
        high.extend(hi[0] + 0.5)
    lower = np.concatenate([piece.tp_low[0], piece.tn_low[0]])
    upper = np.concatenate([piece.tp_high[0], piece.tn_high[0]])
    for presolve in (True, False):
        # Presolve settles the dense problems (many folds, scores far from 0 and 1) ten times faster, but
        # HiGHS 1.x's fails ("Solve error", status 4) on some tiny problems: those run again without it.
        with quiet_stdout():  # HiGHS prints debug lines with C's printf, even with disp off
            result = milp(
                np.zeros(2 * sets),
                constraints=LinearConstraint(np.array(rows), low, high),
                integrality=np.ones(2 * sets),
                bounds=Bounds(lower, upper),
                options={"presolve": presolve, "time_limit": TIME_LIMIT},
            )
        if result.status in (0, 1, 2):
            break
    if result.x is None:
        return result.status, None
    x = np.clip(np.round(result.x), lower, upper).astype(np.int64)
    return result.status, np.stack([x[:sets], x[sets:]], axis=1)


def _flush_c_stdout():
    """Flush the C library's buffered output (what the solver printed but did not write out yet)."""
    with contextlib.suppress(OSError, AttributeError):  # no C library to call: nothing of it to flush
        ctypes.CDLL(None).fflush(None)


@contextlib.contextmanager
def quiet_stdout():
    """Run the block (a solver call) with file descriptor 1 on the null device.

    Examples
    --------
    >>> with quiet_stdout():
    ...     _ = os.write(1, b"solver banner")
    """
    sys.stdout.flush()
    _flush_c_stdout()
    try:
        saved = os.dup(1)
    except OSError:  # no file descriptor 1 (a closed or replaced stdout): nothing to protect
        yield
        return
    try:
        with open(os.devnull, "wb") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        _flush_c_stdout()
        os.dup2(saved, 1)
        os.close(saved)
