"""Scores as counts out of the test size: the lattice k/n, how scores were shortened, and inferring n.

An accuracy on a test set of n items is k/n. A leaderboard prints it shortened to d decimals, so a score
s printed with d decimals (u = 10^-d) stands for a value in

* ``"round"``: [s - u/2, s + u/2] (rounded to the nearest);
* ``"truncate"``: [s, s + u) (cut after d decimals, as Kaggle often displays scores);
* ``"either"``: [s - u/2, s + u) (either of the two; the default).

An error rate (a leaderboard whose lower scores are better) may also have been written as the complement
1 - a of an accuracy a shortened this way: 1 minus a truncated accuracy stands for (s - u, s]. For such
boards (``complement=True``) ``"either"`` is read as (s - u, s + u), every one of these readings.

The decimals are those of each score on its own: 1.00000 in a file is read as 1.0 and is exact.

Inferring n (:func:`infer_test_size`) is integer reasoning, as in :mod:`benchtrust.consistency`: n fits
when every distinct score's range holds a multiple of 1/n, i.e. ceil(n lo) <= floor(n hi). Once
1/n <= u every range holds one, so only n < 10^d (d the most decimals of any score) can say anything,
and from about 10^d / 2 up sizes fit through the decimals themselves: with scores k/n0 truncated to
multiples a/10^d, the mediant (a + k) / (10^d + n0) lies in every score's range, so 10^d + n0 fits every
score, and so can its halves. Sizes are therefore searched below 10^d / 2, and fits from 10^d / 10 up
that are not multiples of a smaller fit (such as (2 10^d + 5 n0) / 5) are taken for such artefacts.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from benchtrust._io import InputError

ROUNDINGS = ("either", "round", "truncate")
#: A size whose fit chance alone gives with probability above this is not evidence for it.
_CHANCE = 1e-6
#: Distinct scores tried first against every size (the most decimals first); survivors meet all of them.
_SCREEN = 64
#: The largest test size searched (scores with more than 6 decimals fit too many sizes to list).
_MAX_SEARCH = 10**6
_EPS = 1e-9


def check_rounding(rounding):
    """``rounding`` if it is one of :data:`ROUNDINGS`, else an InputError naming the choices."""
    if rounding not in ROUNDINGS:
        raise InputError(f"rounding: expected one of {', '.join(map(repr, ROUNDINGS))}, got {rounding!r:.60}")
    return rounding


def decimals(value):
    """Decimals a score was written with: the fewest d (up to 12) with round(value, d) == value."""
    for d in range(13):
        if round(value, d) == value:
            return d
    return 12


def ranges(values, rounding, *, complement=False):
    """The range [lo, hi] each score stands for (hi open for ``"truncate"``, see the module), and u;
    with `complement`, ``"either"`` also holds the complements of shortened accuracies."""
    distinct, where = np.unique(values, return_inverse=True)
    unit = (10.0 ** -np.array([decimals(v) for v in distinct], dtype=float))[where.reshape(-1)]
    below = 0.0 if rounding == "truncate" else 1.0 if complement and rounding == "either" else 0.5
    above = 0.5 if rounding == "round" else 1.0
    return values - below * unit, values + above * unit, unit


def _counts(lo, hi, n, open_high):
    """The smallest and largest k with lo <= k/n <= hi (< hi when ``open_high``), broadcast over n."""
    low = np.ceil(lo * n - _EPS)
    high = np.ceil(hi * n - _EPS) - 1 if open_high else np.floor(hi * n + _EPS)
    return low, high


def on_lattice(values, lattice, rounding, source, *, test_size, complement=False):
    """The scores as multiples of 1/lattice, checked to be such (shortened as ``rounding`` says).

    Each score becomes the multiple in its range nearest to it: the only one when 1/lattice is coarser
    than u (every Kaggle score of a test set up to 10^4 items), else the best guess, at most 1/(2 lattice)
    away. A score with no multiple in its range means the test size (or the rounding) is wrong.
    `complement` is for error rates (:func:`ranges`).
    """
    lo, hi, _ = ranges(values, rounding, complement=complement)
    low, high = _counts(np.maximum(lo, 0.0), np.minimum(hi, 1.0 + _EPS), lattice, rounding == "truncate")
    bad = np.flatnonzero(low > high)
    if bad.size:
        value = values[bad[0]]
        raise InputError(
            f"{source}: score {value:g} is not a whole number of correct items out of "
            f"test_size={test_size} when scores are {rounding_text(rounding)} ({bad.size} such "
            f"score{'s' * (bad.size > 1)}); is the test size right? test_size=auto infers it from the scores"
        )
    return np.clip(np.round(values * lattice), low, high) / lattice


def rounding_text(rounding):
    """How the scores were read, in words."""
    return {"either": "rounded or truncated", "round": "rounded", "truncate": "truncated"}[rounding]


@dataclasses.dataclass(frozen=True)
class TestSizeInference:
    """The test size inferred from the scores (:func:`infer_test_size`).

    Attributes
    ----------
    test_size : int
        The size used: the smallest that fits every score, beyond chance.
    candidates : tuple of int
        Every size below ``searched`` that fits every score (the chosen one included).
    searched : int
        Sizes from 1 to ``searched - 1`` were tried (10^d / 2 for scores with d decimals).
    rule : str
        Why ``test_size`` was chosen, in words.
    """

    __test__ = False  # not a pytest test class

    test_size: int
    candidates: tuple[int, ...]
    searched: int
    rule: str

    def to_dict(self) -> dict[str, Any]:
        """The inference as plain JSON types."""
        return {**dataclasses.asdict(self), "candidates": list(self.candidates)}


def infer_test_size(values, rounding="either", source="scores", *, complement=False):
    """The test size n whose lattice k/n holds every score, by integer reasoning (see the module).

    Rule: the smallest n that fits every distinct score, provided chance alone would make it fit with
    probability below 1e-6 (a range of width w holds a multiple of 1/n with probability about min(1, n w),
    independently over the scores). Its multiples fit too (k/n = 2k/2n), but the true size is a multiple
    only if every team's count is a multiple as well: with the number of distinct scores such a size
    needs, that is less likely than chance. Sizes that fit and are not multiples of the smallest are
    another reading of the scores, and the user must pick, unless they are 10^d / 10 or more (artefacts of
    the decimals, see the module).

    Parameters
    ----------
    values : array_like
        The teams' scores (accuracies, in [0, 1]).
    rounding : {"either", "round", "truncate"}
        How the scores were shortened.
    source : str
        Names the scores in messages.
    complement : bool, default False
        The scores are error rates, perhaps complements of shortened accuracies (:func:`ranges`).

    Returns
    -------
    TestSizeInference

    Raises
    ------
    InputError
        If no size fits, none fits beyond chance, or sizes that are not multiples of each other do.

    Examples
    --------
    Scores k/868 truncated to five decimals (as on a real Kaggle board):

    >>> counts = (850, 801, 777, 760, 700, 655, 600, 512, 433, 301, 250, 199)
    >>> scores = [int(k / 868 * 1e5) / 1e5 for k in counts]
    >>> inferred = infer_test_size(scores, "truncate")
    >>> inferred.test_size, inferred.candidates[:3]
    (868, (868, 1736, 2604))
    """
    rounding = check_rounding(rounding)
    values = np.unique(np.asarray(values, dtype=float))
    if values.size == 0:
        raise InputError(f"{source}: no scores to infer the test size from")
    lo, hi, unit = ranges(values, rounding, complement=complement)
    lo, hi = np.maximum(lo, 0.0), np.minimum(hi, 1.0 + _EPS)
    searched = int(min(round(0.5 / unit.min()), _MAX_SEARCH))
    sizes = np.arange(1, searched)
    screen = np.argsort(unit, kind="stable")[:_SCREEN]
    for part in (screen, np.arange(values.size)):
        for first in range(0, part.size, 16):
            rows = part[first : first + 16]
            low, high = _counts(lo[rows, None], hi[rows, None], sizes[None, :], rounding == "truncate")
            sizes = sizes[(low <= high).all(axis=0)]
    what = f"{source}: {values.size} distinct score{'s' * (values.size != 1)} {rounding_text(rounding)}"
    if sizes.size == 0:
        raise InputError(
            f"{what}: no test size below {searched} fits them all, and {decimals_text(unit)} cannot tell "
            f"sizes from {searched} up apart; give the test size"
        )
    width = hi - lo
    chance = np.array([np.minimum(1.0, n * width).prod() for n in sizes[:1000]])
    informative = sizes[: chance.size][chance < _CHANCE]
    listed = ", ".join(map(str, sizes[:6])) + (", ..." if sizes.size > 6 else "")
    if informative.size == 0:
        raise InputError(
            f"{what}: they fit {sizes.size} test size{'s' * (sizes.size != 1)} below {searched} ({listed}), "
            "but so few or so coarse scores would fit them by chance; give the test size"
        )
    smallest = int(informative[0])
    others = [int(n) for n in informative if n % smallest and n < searched / 5]
    if others:
        raise InputError(
            f"{what}: they fit test sizes {smallest} and {', '.join(map(str, others[:5]))}, which are not "
            "multiples of each other; pick one and give it as the test size"
        )
    multiples = int(np.count_nonzero(sizes % smallest == 0))
    rule = (
        f"inferred: the smallest size whose lattice k/n holds all {values.size} distinct scores; "
        f"{multiples} of the {sizes.size} that do below {searched} are its multiples ({listed})"
    )
    return TestSizeInference(smallest, tuple(int(n) for n in sizes), searched, rule)


def decimals_text(unit):
    """The most decimals any score was written with, in words ("5 decimals")."""
    d = round(float(-np.log10(unit.min())))
    return f"{d} decimal{'s' * (d != 1)}"
