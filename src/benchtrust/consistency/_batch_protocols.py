"""A claims row that asks which protocol fits (the audit of paper §5.1): its ``protocols`` cell read, the row
checked by :func:`~benchtrust.consistency.check_protocols`, and the result as a row of a batch.

A ``protocols`` cell is ``all`` (every protocol that applies to the row's test set), or one or more
families separated by ``;``, each ``FAMILY=VALUE|VALUE...``:
``region=fov|all;aggregation=mean_of_scores|pooled``. A family left out takes every value that applies, as in
:func:`check_protocols`, which also takes the paper's ``mos`` and ``som`` for ``mean_of_scores`` and
``score_of_means``.
"""

from __future__ import annotations

import re

from benchtrust._io import InputError
from benchtrust.consistency._protocols import FAMILIES, check_protocols, protocol_value
from benchtrust.consistency._records import _real, _RowError, _whole

__all__ = ["SYNTAX", "check_protocols_row", "protocols_row", "read_candidates"]

#: What a ``protocols`` cell holds, for messages.
SYNTAX = "all, or FAMILY=VALUE|VALUE;... such as region=fov|all;aggregation=mean_of_scores|pooled"
#: A message of :func:`check_protocols` about the candidates: "candidates['region']: ...".
_CANDIDATES = re.compile(r"^candidates(?:\['(\w+)'\])?: ")
#: The options of a claims row that a ``protocols`` row cannot take.
_NOT_WITH_PROTOCOLS = ("aggregation", "folding", "repeats", "zero_division")


def read_candidates(text: str, column: str = "protocols") -> dict[str, tuple[str, ...]]:
    """The candidate protocols a ``protocols`` cell asks for: family -> values; ``{}`` for ``all``.

    Parameters
    ----------
    text : str
        The cell: ``all``, or families separated by ``;``, each ``FAMILY=VALUE|VALUE...``; any case, blank
        parts skipped.
    column : str
        The cell's column, as the table names it, for messages.

    Returns
    -------
    dict
        The ``candidates`` of :func:`~benchtrust.consistency.check_protocols`.

    Raises
    ------
    _RowError
        Naming `column`: not the syntax above, an unknown family or value, a family given twice.

    Examples
    --------
    >>> read_candidates("region=fov;Aggregation=mos|pooled")
    {'region': ('fov',), 'aggregation': ('mean_of_scores', 'pooled')}
    >>> read_candidates("all")
    {}
    """
    if text.strip().lower() == "all":
        return {}
    chosen = {}
    for part in filter(str.strip, text.lower().split(";")):
        family, equals, values = (piece.strip() for piece in part.partition("="))
        if not (equals and family):
            raise _RowError(column, f"expected {SYNTAX}, got {text!r}")
        if family not in FAMILIES:
            raise _RowError(column, f"unknown family {family!r}; the families are {', '.join(FAMILIES)}")
        if family in chosen:
            raise _RowError(column, f"family {family!r} given twice in {text!r}")
        found = []
        for value in (value.strip() for value in values.split("|")):
            try:
                found.append(protocol_value(family, value))
            except InputError:
                expected = "|".join(FAMILIES[family])
                raise _RowError(
                    column, f"{family}: expected {expected} or some of them, got {value!r}"
                ) from None
        chosen[family] = tuple(found)
    if not chosen:
        raise _RowError(column, f"expected {SYNTAX}, got {text!r}")
    return chosen


def check_protocols_row(cells: dict[str, str], scores: dict[str, str], names, named):
    """Check one claim under each candidate protocol of its ``protocols`` cell (paper §3-4, §5.1).

    Parameters
    ----------
    cells : dict
        The row's non-empty option cells (option -> text), ``protocols`` among them.
    scores : dict
        The row's reported scores (column as written -> text).
    names : dict
        Each claims column as the table names it (option -> name), for messages.
    named : TestSetCounts or None
        The test set of the row's ``dataset`` cell, or None when the row gives the counts.

    Returns
    -------
    ProtocolsResult

    Raises
    ------
    _RowError
        For a cell at fault: the ``protocols`` cell (its syntax, or a family that does not apply to the
        test set), an option a protocols row cannot take, a count or number that cannot be read.
    InputError
        From :func:`check_protocols`, for the scores, ``folds`` or the other arguments it names.
    """
    column = names["protocols"]
    candidates = read_candidates(cells["protocols"], column)
    for option in _NOT_WITH_PROTOCOLS:
        if option in cells:
            how = (
                f"name it in {column}, such as {option}={'|'.join(FAMILIES[option])}"
                if option in FAMILIES
                else f"each protocol is checked with the default {option}; leave it empty"
            )
            raise _RowError(option, f"given with {column}: {how}")
    if named:
        options = {"dataset": named.name}
    else:
        options = {option: _whole(cells.get(option), option) for option in ("positives", "negatives")}
    if "folds" in cells:
        options["folds"] = _whole(cells["folds"], "folds")
    rounding = cells.get("rounding", "").lower()
    if rounding and "rounding" in candidates:
        raise _RowError("rounding", f"given here and in {column}; give the rounding rules once")
    if rounding and rounding not in FAMILIES["rounding"]:
        expected = ", ".join(FAMILIES["rounding"])
        raise _RowError("rounding", f"expected {expected}, got {cells['rounding']!r}")
    if "eps" in cells:  # the rounding rule then plays no part, as in the other rows
        options["eps"] = _real(cells["eps"], "eps")
    elif rounding:
        options["rounding"] = rounding
    if "beta" in cells:
        options["beta"] = _real(cells["beta"], "beta")
    try:
        return check_protocols(scores, candidates=candidates, **options)
    except InputError as exc:
        about = _CANDIDATES.match(str(exc))
        if about is None:
            raise
        family = f"{about[1]}: " if about[1] else ""
        raise _RowError("protocols", family + str(exc)[about.end() :]) from None


def protocols_row(result) -> dict:
    """The verdict of a :class:`ProtocolsResult` as a row of a batch: ``verdict`` (consistent, inconsistent
    or undecided), ``consistent``, ``detail`` (the number of protocols consistent with the scores),
    ``message`` (the conclusion sentence) and ``protocols`` (the result's rows).

    Examples
    --------
    >>> from benchtrust.consistency import check_protocols
    >>> row = protocols_row(check_protocols({"acc": "0.9"}, positives=10, negatives=10, rounding="round"))
    >>> row["verdict"], row["consistent"], row["detail"], row["protocols"][0]["evidence"]
    ('consistent', True, 1, '9 confusion matrices')
    """
    return {
        "verdict": {True: "consistent", False: "inconsistent", None: "undecided"}[result.consistent],
        "consistent": result.consistent,
        "detail": sum(row["verdict"] == "consistent" for row in result.rows),
        "message": result.verdict,
        "protocols": [dict(row) for row in result.rows],
    }
