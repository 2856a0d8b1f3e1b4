"""The one interval type of benchtrust's results: a confidence or central interval, ``(low, high)``.

It is a named tuple, so ``low, high = result.ci`` and ``result.ci[0]`` work as for a plain pair, JSON
writes it as a two-element list, and ``result.ci.low`` says which end is meant. The ends are floats, or
arrays of them when a result holds one interval per pair of methods.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Interval"]


class Interval(NamedTuple):
    """A confidence or central interval, ``(low, high)``.

    Examples
    --------
    >>> from benchtrust import Interval
    >>> ci = Interval(0.8887, 0.9105)
    >>> ci.low, ci[1]
    (0.8887, 0.9105)
    >>> low, high = ci
    >>> ci.high - ci.low > 0
    True
    """

    low: Any
    high: Any
