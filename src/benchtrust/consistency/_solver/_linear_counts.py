"""Exact counts of the confusion matrices that give scores whose intervals are linear inequalities (§3).

A score linear in tp and tn (accuracy, sensitivity, specificity, balanced accuracy and their complements)
lies in its interval [low, high] exactly when a + b·tp + g·tn >= low and <= high: a band between two
parallel lines of the (tp, tn) plane (the interval inversion of paper Eq. 3, in closed form). A score that
is a ratio of two such forms with a denominator >= 0 (precision, npv, F1, F-beta, Jaccard and their
complements, see :attr:`Score.ratio`) lies in [low, high] exactly when num - low·den >= 0 and
high·den - num >= 0, wherever den > 0: a wedge. The denominators here vanish on the test set's box only
at a corner ((0, n) for precision: no positive prediction), where the score is undefined; that point is
taken out.

The consistent pairs are then the whole points of a convex polygon: the box 0 <= tp <= p, 0 <= tn <= n
cut by these half-planes, with integer coefficients (every bound is rounded to the whole number the
integer side can reach). For each tp the feasible tn run from ceil(max of the lower lines) to floor(min of
the upper lines); the lines that bind change only where two of them cross, so the rows split into at most
a few pieces on which the count is

    sum over tp of floor((q + s·tp)/d) - ceil((q' + s'·tp)/d') + 1,

a sum of floors of a linear function, computed in O(log) steps (:func:`floor_sum`, Euclid-like). All of it
is integer arithmetic on Python ints: the count is exact for any p and n, and nothing grows with them.
The pairs are compared with the interval ends as the exact rationals their floats are, which is the
statement "inconsistent" stands on; the listed pairs are checked again with :func:`exact_value`.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from fractions import Fraction

from benchtrust.consistency._scores import SCORES

#: Rows listed one by one once a run of rows is this short, when looking for the first solutions.
_ROWS_LISTED = 32


def countable(score):
    """Whether the intervals of ``score`` are linear inequalities in (tp, tn): linear, or a ratio."""
    return score.linear or score.ratio is not None


def exact_value(name, tp, tn, p, n, beta):
    """The score ``name`` of (tp, tn) as an exact :class:`~fractions.Fraction`; ``None`` where undefined.

    Examples
    --------
    >>> exact_value("f1p", 3, 5, 4, 6, None), exact_value("ppv", 0, 6, 4, 6, None)
    (Fraction(3, 4), None)
    """
    numerator, denominator = _ratio(SCORES[name], Fraction(tp), Fraction(tn), Fraction(p), Fraction(n), beta)
    return None if denominator == 0 else numerator / denominator


def _ratio(score, tp, tn, p, n, beta):
    """(numerator, denominator) of a countable score in exact arithmetic (the denominator 1 if linear)."""
    exact_beta = None if beta is None else Fraction(beta)
    if score.ratio is None:
        return score.formula(tp, tn, p, n, exact_beta), Fraction(1)
    return score.ratio(tp, tn, p, n, exact_beta)


def _linear_forms(score, p, n, beta):
    """The numerator and the denominator of a countable score, both times one whole number, as integer
    coefficients (c0, c1, c2) of c0 + c1·tp + c2·tn."""
    p, n = Fraction(p), Fraction(n)
    at = [_ratio(score, Fraction(tp), Fraction(tn), p, n, beta) for tp, tn in ((0, 0), (1, 0), (0, 1))]
    forms = [(at[0][k], at[1][k] - at[0][k], at[2][k] - at[0][k]) for k in (0, 1)]
    scale = math.lcm(*(value.denominator for form in forms for value in form))
    return tuple(tuple(int(value * scale) for value in form) for form in forms)


def half_planes(reported, p, n, beta):
    """The countable reported scores as integer half-planes a·tp + b·tn >= c, and their undefined points.

    Parameters
    ----------
    reported : sequence of Reported
        Scores for which :func:`countable` holds.
    p, n : int
        The test set.
    beta : float or None
        β of the F-beta scores.

    Returns
    -------
    planes : list of (int, int, int)
        (a, b, c) for each inequality.
    undefined : set of (int, int)
        The corners of the box where a score's denominator is 0.
    """
    planes, undefined = [], set()
    for rep in reported:
        score = SCORES[rep.score]
        numerator, denominator = _linear_forms(score, p, n, beta)
        corners = {
            (tp, tn): denominator[0] + denominator[1] * tp + denominator[2] * tn
            for tp, tn in ((0, 0), (p, 0), (0, n), (p, n))
        }
        zero = {corner for corner, at in corners.items() if at == 0}
        if min(corners.values()) < 0 or len(zero) > 1:  # >= 0 on the box, 0 at one point at most
            raise AssertionError(f"internal error: the denominator of {score.name} is not a ratio score's")
        undefined |= zero
        for sign, end in ((1, rep.interval.low), (-1, rep.interval.high)):
            top, bottom = float(end).as_integer_ratio()  # sign·(bottom·num - top·den) >= 0
            c0, c1, c2 = (sign * (bottom * a - top * b) for a, b in zip(numerator, denominator, strict=True))
            common = math.gcd(c1, c2) or 1  # c1·tp + c2·tn is a multiple of it: round the bound up to one
            planes.append((c1 // common, c2 // common, _ceil_div(-c0, common)))
    return planes, undefined


def _floor_div(a, b):
    return a // b


def _ceil_div(a, b):
    return -(-a // b)


@dataclasses.dataclass(frozen=True)
class Line:
    """tn = (q + s·tp) / d, with d > 0."""

    q: int
    s: int
    d: int

    def at(self, t):
        return Fraction(self.q + self.s * t, self.d)

    def floor_sum(self, first, last):
        """The sum of floor(line) over the whole tp = first..last."""
        return floor_sum(last - first + 1, self.d, self.s, self.q + self.s * first)

    def crossing(self, other):
        """The tp where the two lines meet, or None if they are parallel."""
        slope = self.s * other.d - other.s * self.d
        if slope == 0:
            return None
        return Fraction(other.q * self.d - self.q * other.d, slope)


def floor_sum(count, m, a, b):
    """sum_{i=0}^{count-1} floor((a·i + b) / m) for whole numbers, m > 0, in O(log) steps.

    Examples
    --------
    >>> floor_sum(10, 3, -7, 5) == sum((-7 * i + 5) // 3 for i in range(10))
    True
    """
    if count <= 0:
        return 0
    total = 0
    while True:  # the classic Euclid-like reduction; a // m floors, so negative a and b are fine
        if not 0 <= a < m:
            total += count * (count - 1) // 2 * (a // m)
            a %= m
        if not 0 <= b < m:
            total += count * (b // m)
            b %= m
        top = a * count + b
        if top < m:
            return total
        count, b, m, a = top // m, top % m, a, m


@dataclasses.dataclass(frozen=True)
class LatticePolygon:
    """The whole points (tp, tn) of a convex polygon, row by row (rows tp = ``first``..``last``).

    Row tp holds tn = ceil(max of ``lower`` at tp) .. floor(min of ``upper`` at tp), less ``excluded``.
    ``pieces`` are (first row, last row, lower line, upper line): on each, those two lines bind.
    """

    first: int
    last: int
    lower: tuple
    upper: tuple
    pieces: tuple
    excluded: frozenset

    def row(self, t):
        """(first tn, last tn) of row t (an empty run when the first is larger)."""
        low = max(_ceil_div(line.q + line.s * t, line.d) for line in self.lower)
        high = min(_floor_div(line.q + line.s * t, line.d) for line in self.upper)
        return low, high

    def count_upto(self, t):
        """The number of points on the rows first..t, excluded points included."""
        total = 0
        for a, b, lower, upper in self.pieces:
            if a > t:
                break
            b = min(b, t)
            floors = upper.floor_sum(a, b)
            ceils = -Line(-lower.q, -lower.s, lower.d).floor_sum(a, b)
            total += floors - ceils + (b - a + 1)
        return total

    def size(self):
        """The number of points."""
        return self.count_upto(self.last) - len(self.excluded)

    def first_points(self, count):
        """The first ``count`` points in lexicographic (tp, tn) order."""
        found = []

        def visit(a, b):
            if len(found) >= count or a > b or self.count_upto(b) == self.count_upto(a - 1):
                return
            if b - a < _ROWS_LISTED:
                for t in range(a, b + 1):
                    low, high = self.row(t)
                    for u in range(low, min(high, low + count + len(self.excluded)) + 1):
                        if len(found) == count:
                            return
                        if (t, u) not in self.excluded:
                            found.append((t, u))
                return
            middle = (a + b) // 2
            visit(a, middle)
            visit(middle + 1, b)

        visit(self.first, self.last)
        return found


def lattice_polygon(planes, p, n, undefined=frozenset()):
    """The :class:`LatticePolygon` of the points of the box [0, p] × [0, n] meeting every half-plane.

    Parameters
    ----------
    planes : iterable of (int, int, int)
        (a, b, c): a·tp + b·tn >= c.
    p, n : int
        The box.
    undefined : set of (int, int)
        Points to take out (where a score is undefined).

    Examples
    --------
    tp + tn >= 3 and tp - tn >= 0 in the box [0, 2] × [0, 2]: (2, 1) and (2, 2).

    >>> polygon = lattice_polygon([(1, 1, 3), (1, -1, 0)], 2, 2)
    >>> polygon.size(), polygon.first_points(5)
    (2, [(2, 1), (2, 2)])
    """
    first, last = 0, p
    lower, upper = [Line(0, 0, 1)], [Line(n, 0, 1)]
    for a, b, c in planes:
        if b > 0:  # tn >= (c - a·tp) / b
            lower.append(Line(c, -a, b))
        elif b < 0:  # tn <= (a·tp - c) / -b
            upper.append(Line(-c, a, -b))
        else:
            first, last = _row_bound(a, c, first, last)
    for up in upper:  # the rows where every lower line is below every upper line
        for down in lower:
            slope, at0 = up.s * down.d - down.s * up.d, down.q * up.d - up.q * down.d
            first, last = _row_bound(slope, at0, first, last)
    pieces = []
    if first <= last:
        cuts = sorted(
            {first, last + 1}
            | {
                math.floor(x) + 1
                for lines in (lower, upper)
                for i, one in enumerate(lines)
                for other in lines[i + 1 :]
                if (x := one.crossing(other)) is not None and first < math.floor(x) + 1 <= last
            }
        )
        for a, b in itertools.pairwise(cuts):
            down = max(lower, key=lambda line: (line.at(a), line.at(b - 1)))
            up = min(upper, key=lambda line: (line.at(a), line.at(b - 1)))
            pieces.append((a, b - 1, down, up))
    polygon = LatticePolygon(first, last, tuple(lower), tuple(upper), tuple(pieces), frozenset())
    inside = frozenset(
        (t, u)
        for t, u in undefined
        if polygon.first <= t <= polygon.last and polygon.row(t)[0] <= u <= polygon.row(t)[1]
    )
    return dataclasses.replace(polygon, excluded=inside)


def _row_bound(a, c, first, last):
    """The rows first..last narrowed to those where a·tp >= c."""
    if a > 0:
        return max(first, _ceil_div(c, a)), last
    if a < 0:
        return first, min(last, _floor_div(c, a))
    return (first, last) if c <= 0 else (first, first - 1)
