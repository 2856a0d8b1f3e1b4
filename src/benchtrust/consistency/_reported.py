"""Reported scores as intervals of the values they stand for (paper §2, numerical uncertainty).

A value v reported with d decimals stands for the interval [v - ε, v + ε]: ε = ½·10^-d when the authors
rounded (``rounding="round"``), ε = 10^-d when they may have floored or ceiled (``"floor-or-ceil"``), or ε as
given. Each interval is then widened outward by ``TOLERANCE`` (relative to the value, at least absolute), so
that the rounding of floating point arithmetic in the score formulas can never push a true value outside:
an "inconsistent" verdict stays a statement about integers.

A :class:`Reported` keeps the score as it was written too (its name, the value's text, how ε was found),
so that a result shows the scores as the paper printed them, whichever front end it was computed from.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import re
from collections.abc import Mapping
from typing import Literal

from benchtrust._interval import Interval
from benchtrust._io import InputError
from benchtrust.consistency._scores import score as _score

#: Outward widening of every interval, relative to max(1, |v|). Floating-point evaluation of any score here
#: errs by a few units in the 16th digit; 1e-9 is far above that and far below any reported precision.
#:
#: See Also
#: --------
#: reported_scores : Reported scores as intervals (§2).
#: Reported : One reported score and the interval it stands for.
#:
#: References
#: ----------
#: .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for binary
#:        classification problems", arXiv preprint, 2023. arXiv:2310.12527. §2 and Eq. (1) (the interval
#:        [v - ε, v + ε] it widens); the widening itself is benchtrust's.
TOLERANCE = 1e-9

_ROUNDING = ("round", "floor-or-ceil")
_DECIMAL = re.compile(r"^[+-]?(\d+)?(?:\.(\d*))?$")


@dataclasses.dataclass(frozen=True)
class Reported:
    """One reported score and the interval of values it stands for.

    Attributes
    ----------
    score : str
        Canonical abbreviation of the score.
    value : float
        The value as reported.
    eps : float
        ε, the numerical uncertainty (given, or inferred from the decimals as written).
    interval : Interval
        The interval of true values the report stands for: [value - ε, value + ε] widened by
        :data:`TOLERANCE`.
    name : str
        The score's name as written, such as ``"f1"`` or ``"accuracy"``.
    text : str
        The value as written: the text given (``"0.9400"`` keeps its decimals), or a number's shortest
        form.
    rounding : str or None
        How ε was inferred from the decimals as written (``"round"``: ½·10^-d, ``"floor-or-ceil"``:
        10^-d); None when ε was given.

    See Also
    --------
    reported_scores : Reported scores as intervals (§2).
    decimals : The decimals of a reported value as written.
    TOLERANCE : The outward widening of every interval.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §2 (the numerical
           uncertainty: ε = 10^-d/2 for rounding, 10^-d when flooring and ceiling are allowed) and Eq. (1);
           the widening by TOLERANCE is benchtrust's.
    """

    score: str
    value: float
    eps: float
    interval: Interval
    name: str
    text: str
    rounding: str | None

    def to_dict(self) -> dict[str, str | float]:
        """As plain JSON types: ``score``, ``value``, ``eps`` and the interval's ends ``low`` and ``high``."""
        low, high = self.interval
        return {"score": self.score, "value": self.value, "eps": self.eps, "low": low, "high": high}


def decimals(value: str | float) -> int:
    """Decimals of a reported value as written: of the text itself, or of the float's shortest repr.

    See Also
    --------
    reported_scores : Reported scores as intervals (§2).
    Reported : One reported score and the interval it stands for.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §2 (ε from the decimals of
           a reported figure).

    Examples
    --------
    >>> decimals("0.9400"), decimals(0.94), decimals("1"), decimals(1e-05)
    (4, 2, 0, 5)
    """
    if isinstance(value, str):
        text = value.strip()
    else:
        text = str(value) if isinstance(value, numbers.Integral) else repr(float(value))
    match = _DECIMAL.match(text)
    if match:
        return len(match[2] or "")
    mantissa, _, exponent = text.lower().partition("e")
    if exponent:
        return max(decimals(mantissa) - int(exponent), 0)
    raise InputError(f"{value!r} is not a number")


def reported_scores(
    scores: Mapping[str, str | float],
    *,
    eps: float | Mapping[str, float] | None = None,
    rounding: Literal["round", "floor-or-ceil"] = "round",
    beta: float | None = None,
) -> tuple[Reported, ...]:
    """The reported scores as intervals (the numerical uncertainty of paper §2).

    Parameters
    ----------
    scores : mapping
        Score name (any alias) -> reported value, a number or its text as printed. Give text to keep
        trailing zeros ("0.9400" has 4 decimals, the float 0.94 only 2) when ε is inferred.
    eps : float or mapping, optional
        ε for every score, or per score name. Without it ε comes from the decimals as written.
    rounding : {"round", "floor-or-ceil"}
        How the authors turned values into decimals, when ε is inferred: ½·10^-d or 10^-d.
    beta : float, optional
        β of the F-beta scores; required when one is reported.

    Returns
    -------
    tuple of Reported
        In the order given.

    See Also
    --------
    Reported : One reported score and the interval it stands for.
    decimals : The decimals of a reported value as written.
    TOLERANCE : The outward widening of every interval.
    score : One score by its abbreviation or an alias.
    check_test_set : Scores reported for one test set (§3).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §2 (the numerical
           uncertainty: ε = 10^-d/2 for rounding, 10^-d when flooring and ceiling are allowed) and Eq. (1).

    Examples
    --------
    >>> [r.score for r in reported_scores({"accuracy": "0.6821", "npv": 0.9401, "f1": 0.4004})]
    ['acc', 'npv', 'f1p']
    >>> r = reported_scores({"acc": "0.90"})[0]
    >>> r.eps, round(r.interval.low, 6), round(r.interval.high, 6), r.text, r.rounding
    (0.005, 0.895, 0.905, '0.90', 'round')
    >>> reported_scores({"acc": "0.9"}, rounding="floor-or-ceil")[0].eps
    0.1
    """
    if rounding not in _ROUNDING:
        raise InputError(f"rounding: expected one of {', '.join(_ROUNDING)}, got {rounding!r}")
    if not hasattr(scores, "items") or not scores:
        raise InputError(f"scores: expected one or more name=value pairs, got {scores!r:.80}")
    per_score = eps if isinstance(eps, Mapping) else {}
    if per_score:
        unknown = set(_canonical(name) for name in per_score) - set(_canonical(name) for name in scores)
        if unknown:
            raise InputError(f"eps: given for {', '.join(sorted(unknown))}, which is not reported")
        per_score = {_canonical(name): value for name, value in per_score.items()}
    out: list[Reported] = []
    seen: dict[str, str] = {}
    for name, value in scores.items():
        found = _score(name)
        if found.name in seen:
            raise InputError(f"scores: {name!r} and {seen[found.name]!r} are the same score ({found.name})")
        seen[found.name] = name
        if found.needs_beta and beta is None:
            raise InputError(f"{name}: {found.title} needs beta (β), and none was given")
        number = _value(name, value)
        if per_score:
            given = per_score.get(found.name)
            if given is None:
                raise InputError(f"eps: none given for {name}")
            uncertainty = _eps(given, f"eps for {name}")
        elif eps is not None:
            uncertainty = _eps(eps, "eps")
        else:
            uncertainty = (0.5 if rounding == "round" else 1.0) * 10.0 ** -decimals(value)
        margin = TOLERANCE * max(1.0, abs(number))
        out.append(
            Reported(
                score=found.name,
                value=number,
                eps=uncertainty,
                interval=Interval(number - uncertainty - margin, number + uncertainty + margin),
                name=str(name).strip(),
                text=_written(value),
                rounding=None if eps is not None else rounding,
            )
        )
    if beta is not None:
        _beta(beta)
    return tuple(out)


def _written(value):
    """A reported value as written: its text, or a number's shortest form (as :func:`decimals` reads it)."""
    if isinstance(value, str):
        return value.strip()
    return str(value) if isinstance(value, numbers.Integral) else repr(float(value))


def _canonical(name):
    return _score(name).name


def _value(name, value):
    if isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise InputError(f"{name}: expected a number, got {value!r}") from None
    elif isinstance(value, numbers.Real) and not isinstance(value, bool):
        number = float(value)
    else:
        raise InputError(f"{name}: expected a number, got {value!r}")
    if not math.isfinite(number):
        raise InputError(f"{name}: expected a finite number, got {value!r}")
    return number


def _eps(value, what):
    if isinstance(value, str):
        value = _value(what, value)
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not (0 <= value < math.inf):
        raise InputError(f"{what}: expected a number >= 0, got {value!r}")
    return float(value)


def _beta(beta):
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real) or not (0 < beta < math.inf):
        raise InputError(f"beta: expected a positive number, got {beta!r}")
    return float(beta)
