"""Reading the tables of ``benchtrust compare``: runs of two pipelines (RUNS.csv) and a benchmark's history
(HISTORY.csv), each from a file or a pandas DataFrame.

RUNS.csv is in long format, one run per row: a column naming the pipeline (``algorithm`` unless told
otherwise), a column of scores (``score``) and, for paired runs (paper appendix C.2), a column such as
``seed`` or ``split`` whose value identifies the run's split and seeds. HISTORY.csv holds one published
result per row: a column of dates (``date``) and one of scores (``score``). Column names are matched without
regard to case; blank lines and lines starting with ``#`` are skipped; the delimiter (comma, tab or
semicolon) is read off the header line.

Every mistake raises :class:`benchtrust.InputError` naming the file, the 1-based line and the column (for a
DataFrame: the row's label and the column).
"""

from __future__ import annotations

import dataclasses
import datetime
import os
import re
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._io import InputError, is_number, table_of

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["PairedRuns", "read_history", "read_runs"]


@dataclasses.dataclass(frozen=True, eq=False)
class PairedRuns:
    """The scores of algorithms A and B read from a runs table.

    Attributes
    ----------
    a, b : numpy.ndarray
        The scores of the runs of A and of B. When paired, ``a[i]`` and ``b[i]`` share ``keys[i]``.
    names : tuple of str
        The names of A and B as written in the table.
    pair_by : str or None
        The column the runs were paired by (as written in the header); None: unpaired.
    keys : tuple of str
        The values of the pairing column, one per pair, in the order of A's runs (empty when unpaired).
    algorithms : tuple of str
        Every algorithm named in the table, in order of first appearance.
    source : str or None
        The file's name; None for a DataFrame.
    """

    a: np.ndarray
    b: np.ndarray
    names: tuple[str, str]
    pair_by: str | None
    keys: tuple[str, ...]
    algorithms: tuple[str, ...]
    source: str | None

    @property
    def paired(self) -> bool:
        return self.pair_by is not None


def _column_name(value: object, name: str) -> str:
    """`value`, the name of a column given as argument `name`, or an InputError."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{name}: expected the name of a column, got {value!r}")
    return value.strip()


def _source(source: object) -> str | None:
    """The file name of a table read from a path; None for a DataFrame."""
    return os.fspath(source) if isinstance(source, (str, os.PathLike)) else None


def _row(table, k):
    """Where row `k` of `table` is, without the table's name: ``line 5`` (a file) or ``row 3`` (a frame)."""
    return table.where(k)[len(table.name) + 2 :]


def read_runs(
    runs: str | os.PathLike[str] | pd.DataFrame,
    *,
    a: str,
    b: str,
    pair_by: str | None = None,
    algorithm_column: str = "algorithm",
    score_column: str = "score",
) -> PairedRuns:
    """Read the runs of algorithms ``a`` and ``b`` from a long-format table (one run per row).

    Parameters
    ----------
    runs : str, os.PathLike or pandas.DataFrame
        A CSV/TSV file, or a DataFrame, with columns `algorithm_column` and `score_column` and, to pair,
        column `pair_by`; other columns are ignored.
    a, b : str
        The two algorithms to compare, as named in column `algorithm_column`.
    pair_by : str, optional
        The column whose values pair the runs (paper C.2): each of its values must appear exactly once for
        A and once for B. None: the runs are not paired.
    algorithm_column, score_column : str
        The columns naming each run's algorithm and holding its score (any case).

    Returns
    -------
    PairedRuns

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "runs.csv")
    ...     _ = path.write_text("algorithm,seed,score\\nA,1,0.9\\nB,1,0.8\\nB,2,0.85\\nA,2,0.91\\n")
    ...     runs = read_runs(path, a="A", b="B", pair_by="seed")
    >>> runs.a.tolist(), runs.b.tolist(), runs.keys
    ([0.9, 0.91], [0.8, 0.85], ('1', '2'))
    """
    for option, value in (("a", a), ("b", b)):
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{option}: expected the name of an algorithm, got {value!r}")
    a, b = a.strip(), b.strip()
    if a == b:
        raise InputError(f"a, b: both name {a!r}; compare two different algorithms")
    algorithm_column = _column_name(algorithm_column, "algorithm_column")
    score_column = _column_name(score_column, "score_column")
    if pair_by is not None:
        pair_by = _column_name(pair_by, "pair_by")
    table = table_of(runs, example=f"{algorithm_column},seed,{score_column}")
    name = table.name
    kind = "table" if _source(runs) is None else "file"
    algorithm = table.column(algorithm_column)
    score = table.column(score_column)
    key = None if pair_by is None else table.column(pair_by, purpose=" to pair the runs by")
    names = table.texts(algorithm, "an algorithm name")
    scores = table.numbers(score)
    present = tuple(dict.fromkeys(names))
    rows = {}
    for wanted in (a, b):
        if wanted not in present:
            listed = ", ".join(repr(found) for found in present)
            raise InputError(
                f"{name}: no runs of algorithm {wanted!r}; the algorithms in the {kind} are {listed}"
            )
        rows[wanted] = [k for k, found in enumerate(names) if found == wanted]
        if len(rows[wanted]) < 2:
            raise InputError(
                f"{name}: algorithm {wanted!r} has {len(rows[wanted])} run ({_row(table, rows[wanted][0])}); "
                "at least 2 runs of each are needed"
            )
    if key is None:
        return PairedRuns(
            a=scores[rows[a]],
            b=scores[rows[b]],
            names=(a, b),
            pair_by=None,
            keys=(),
            algorithms=present,
            source=_source(runs),
        )
    column = table.header[key]
    values = table.texts(key, f"a value of {column!r} to pair the runs by")
    positions = {}
    for wanted in (a, b):
        seen: dict[str, int] = {}
        for k in rows[wanted]:
            if values[k] in seen:
                raise InputError(
                    f"{table.where(k)}: algorithm {wanted!r} has a second run with {column} "
                    f"{values[k]!r} (the first is on {_row(table, seen[values[k]])}); to pair the runs "
                    f"each value of {column!r} must appear once for each algorithm"
                )
            seen[values[k]] = k
        positions[wanted] = seen
    for one, other in ((a, b), (b, a)):
        missing = [value for value in positions[one] if value not in positions[other]]
        if missing:
            k = positions[one][missing[0]]
            more = f" (and {len(missing) - 1} more values)" if len(missing) > 1 else ""
            raise InputError(
                f"{table.where(k)}: {column} {missing[0]!r} has a run of {one!r} but none of "
                f"{other!r}{more}; to pair the runs every value of {column!r} must appear once for each "
                "algorithm"
            )
    keys = tuple(positions[a])
    return PairedRuns(
        a=scores[[positions[a][value] for value in keys]],
        b=scores[[positions[b][value] for value in keys]],
        names=(a, b),
        pair_by=column,
        keys=keys,
        algorithms=present,
        source=_source(runs),
    )


def read_history(
    history: str | os.PathLike[str] | pd.DataFrame, *, date_column: str = "date", score_column: str = "score"
) -> tuple[list[str] | list[float], np.ndarray]:
    """Read a benchmark's history: the dates (as written) and scores of its published results.

    Parameters
    ----------
    history : str, os.PathLike or pandas.DataFrame
        A CSV/TSV file, or a DataFrame, with columns `date_column` (ISO dates such as 2019-05-28, or
        numbers such as 2019.4) and `score_column`, one published result per row; other columns are
        ignored.
    date_column, score_column : str
        The columns holding the dates and the scores (any case).

    Returns
    -------
    (list, numpy.ndarray)
        The dates (strings as written, or floats when every date is a number) and the scores, in the
        table's order.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "history.csv")
    ...     _ = path.write_text("date,score,paper\\n2018-01-02,0.91,X\\n2019-03-04,0.93,Y\\n")
    ...     read_history(path)
    (['2018-01-02', '2019-03-04'], array([0.91, 0.93]))
    """
    date_column = _column_name(date_column, "date_column")
    score_column = _column_name(score_column, "score_column")
    table = table_of(history, example=f"{date_column},{score_column}")
    date = table.column(date_column)
    score = table.column(score_column)
    dates = table.texts(date, "a date such as 2019-05-28")
    numeric = is_number(dates[0])
    for k, cell in enumerate(dates):
        number = is_number(cell)
        if number == numeric and (number or _is_date(cell)):
            continue
        where = f"{table.where(k)}, column {table.header[date]!r}"
        if not _is_date(cell):
            raise InputError(
                f"{where}: {cell!r} is not a date; expected an ISO date such as 2019-05-28, or a number "
                "such as 2019.4"
            )
        first = "numbers" if numeric else "dates"
        raise InputError(f"{where}: {cell!r}, but the first rows hold {first}; use one kind throughout")
    scores = table.numbers(score)
    if numeric:
        return [float(cell) for cell in dates], scores
    return dates, scores


def _is_date(text: str) -> bool:
    """Whether ``text`` is a number or an ISO date (2019, 2019-05, 2019-05-28: :func:`iso_date`)."""
    return is_number(text) or iso_date(text) is not None


#: An ISO date (a year, a month or a day), maybe followed by a time of day.
_ISO_DATE = re.compile(r"\s*([0-9]{4})(?:-([0-9]{2})(?:-([0-9]{2}))?)?(?:[T ](\S+))?\s*")


def iso_date(text: str) -> np.datetime64 | None:
    """The day an ISO date names, or None if `text` is none: a year (``2019``, its first day), a month
    (``2019-05``) or a day (``2019-05-28``), maybe followed by a time of day that is ignored
    (``2019-05-28T10:00+02:00``). Days that do not exist, years beyond 4 digits, and what numpy reads as
    dates but are none (``NaT``, ``today``) are not dates.

    Examples
    --------
    >>> iso_date("2019-05-28T10:00Z"), iso_date("2019")
    (np.datetime64('2019-05-28'), np.datetime64('2019-01-01'))
    >>> iso_date("2019-02-30"), iso_date("today"), iso_date("NaT"), iso_date("99999-01-01")
    (None, None, None, None)
    """
    match = _ISO_DATE.fullmatch(text)
    if match is None:
        return None
    year, month, day = (int(part) if part else 1 for part in match.groups()[:3])
    try:
        datetime.date(year, month, day)
        if match[4] is not None:
            datetime.time.fromisoformat(match[4].replace("Z", "+00:00"))
    except ValueError:
        return None
    return np.datetime64(f"{year:04d}-{month:02d}-{day:02d}", "D")
