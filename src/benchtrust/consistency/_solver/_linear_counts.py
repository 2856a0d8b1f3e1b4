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
statement "inconsistent" stands on; the listed pairs are checked again with :func:`exact_value`. Even
the forms are found in whole numbers: the score's formula runs once on :class:`_Affine` unknowns tp and
tn (a common denominator, no :class:`~fractions.Fraction`, which took half the time of a batch of
test-set claims).
"""

from __future__ import annotations

import dataclasses
import functools
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
    tp, tn = int(tp), int(tn)
    forms = _linear_forms(name, int(p), int(n), None if beta is None else float(beta))
    numerator, denominator = (c0 + c1 * tp + c2 * tn for c0, c1, c2 in forms)
    return None if denominator == 0 else Fraction(numerator, denominator)


class _Affine:
    """(c0 + c1·tp + c2·tn) / d in whole numbers, d > 0: what a countable score's formula gives when tp and
    tn are unknowns. It takes the formulas' operations: sums of such forms, and products and quotients by
    whole numbers or by the :class:`~fractions.Fraction` of β²; a product of two forms is not linear.

    Examples
    --------
    >>> tp, tn = _Affine(0, 1, 0), _Affine(0, 0, 1)
    >>> form = (tp / 4 + tn / 6) / 2  # balanced accuracy with p = 4, n = 6
    >>> form.c0, form.c1, form.c2, form.d
    (0, 6, 4, 48)
    """

    __slots__ = ("c0", "c1", "c2", "d")

    def __init__(self, c0, c1, c2, d=1):
        self.c0, self.c1, self.c2, self.d = c0, c1, c2, d

    @staticmethod
    def _number(x):
        """A whole number or a Fraction as (numerator, denominator > 0); None for anything else."""
        if isinstance(x, int):
            return x, 1
        if isinstance(x, Fraction):
            return x.numerator, x.denominator
        return None

    def __add__(self, other):
        if isinstance(other, _Affine):
            u, v = other.d, self.d
            return _Affine(
                self.c0 * u + other.c0 * v, self.c1 * u + other.c1 * v, self.c2 * u + other.c2 * v, u * v
            )
        if (number := self._number(other)) is None:
            return NotImplemented
        top, bottom = number
        return _Affine(self.c0 * bottom + top * self.d, self.c1 * bottom, self.c2 * bottom, self.d * bottom)

    __radd__ = __add__

    def __neg__(self):
        return _Affine(-self.c0, -self.c1, -self.c2, self.d)

    def __sub__(self, other):
        return self + -other

    def __rsub__(self, other):
        return -self + other

    def __mul__(self, other):
        if (number := self._number(other)) is None:
            return NotImplemented
        top, bottom = number
        return _Affine(self.c0 * top, self.c1 * top, self.c2 * top, self.d * bottom)

    __rmul__ = __mul__

    def __truediv__(self, other):
        if (number := self._number(other)) is None:
            return NotImplemented
        top, bottom = number
        if top == 0:
            raise ZeroDivisionError("a score's formula divides by zero")
        if top < 0:
            top, bottom = -top, -bottom
        return _Affine(self.c0 * bottom, self.c1 * bottom, self.c2 * bottom, self.d * top)


@functools.lru_cache(maxsize=256)
def _linear_forms(name, p, n, beta):
    """The numerator and the denominator of the countable score ``name``, both times one positive whole
    number, as integer coefficients (c0, c1, c2) of c0 + c1·tp + c2·tn: the score's formula (or ratio)
    evaluated once on :class:`_Affine` unknowns, in whole numbers. Kept for the checks of the pairs found
    (:func:`exact_value`), which ask for the same forms again.

    Examples
    --------
    >>> _linear_forms("f1p", 4, 6, None)  # 2·tp / (2·tp + (p - tp) + (n - tn))
    ((0, 2, 0), (10, 1, -1))

    Every countable score's forms give exactly what its formula gives on Fraction counts:

    >>> import random
    >>> rng = random.Random(0)
    >>> def agrees(name, p, n, beta):
    ...     (a0, a1, a2), (b0, b1, b2) = _linear_forms(name, p, n, beta)
    ...     tp, tn = rng.randint(1, p - 1), rng.randint(1, n - 1)
    ...     exact = SCORES[name].formula(*map(Fraction, (tp, tn, p, n, beta)))
    ...     return Fraction(a0 + a1 * tp + a2 * tn, b0 + b1 * tp + b2 * tn) == exact
    >>> all(
    ...     agrees(name, rng.randint(2, 10**rng.randint(1, 9)), rng.randint(2, 10**6), rng.choice([0.5, 1.7]))
    ...     for name, score in SCORES.items()
    ...     if countable(score)
    ...     for _ in range(50)
    ... )
    True
    """
    score = SCORES[name]
    tp, tn, zero = _Affine(0, 1, 0), _Affine(0, 0, 1), _Affine(0, 0, 0)
    exact_beta = None if beta is None else Fraction(beta)
    if score.ratio is None:
        forms = score.formula(tp, tn, p, n, exact_beta), zero + 1
    else:
        forms = tuple(zero + form for form in score.ratio(tp, tn, p, n, exact_beta))
    scale = math.lcm(*(form.d for form in forms))
    whole = [(f.c0 * (scale // f.d), f.c1 * (scale // f.d), f.c2 * (scale // f.d)) for f in forms]
    common = math.gcd(*whole[0], *whole[1]) or 1
    return tuple(tuple(a // common for a in form) for form in whole)


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
        forms = _linear_forms(score.name, int(p), int(n), None if beta is None else float(beta))
        numerator, denominator = forms
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

    def floor_sum(self, first, last):
        """The sum of floor(line) over the whole tp = first..last."""
        return floor_sum(last - first + 1, self.d, self.s, self.q + self.s * first)

    def crossing_row(self, other):
        """The last whole tp at or before the one where the two lines meet, or None if they are parallel."""
        slope = self.s * other.d - other.s * self.d
        if slope == 0:
            return None
        return (other.q * self.d - self.q * other.d) // slope  # floor division: the floor for either sign


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
                x + 1
                for lines in (lower, upper)
                for i, one in enumerate(lines)
                for other in lines[i + 1 :]
                if (x := one.crossing_row(other)) is not None and first < x + 1 <= last
            }
        )
        for a, b in itertools.pairwise(cuts):
            pieces.append((a, b - 1, _binding(lower, a, b - 1, max), _binding(upper, a, b - 1, min)))
    polygon = LatticePolygon(first, last, tuple(lower), tuple(upper), tuple(pieces), frozenset())
    inside = frozenset(
        (t, u)
        for t, u in undefined
        if polygon.first <= t <= polygon.last and polygon.row(t)[0] <= u <= polygon.row(t)[1]
    )
    return dataclasses.replace(polygon, excluded=inside)


def _binding(lines, a, b, pick):
    """The line of `lines` that `pick` (max or min) chooses by its value at tp = a, then at tp = b: the
    values compared as whole numbers over the lines' common denominator."""
    common = math.lcm(*(line.d for line in lines))
    return pick(
        lines,
        key=lambda line: (
            (line.q + line.s * a) * (common // line.d),
            (line.q + line.s * b) * (common // line.d),
        ),
    )


def _row_bound(a, c, first, last):
    """The rows first..last narrowed to those where a·tp >= c."""
    if a > 0:
        return max(first, _ceil_div(c, a)), last
    if a < 0:
        return first, min(last, _floor_div(c, a))
    return (first, last) if c <= 0 else (first, first - 1)
