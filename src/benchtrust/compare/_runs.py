"""Reading the files of ``benchtrust compare``: runs of two pipelines (RUNS.csv) and a benchmark's history
(HISTORY.csv).

RUNS.csv is in long format, one run per row: a column ``algorithm`` naming the pipeline, a column ``score``
and, for paired runs (paper appendix C.2), a column such as ``seed`` or ``split`` whose value identifies
the run's split and seeds. HISTORY.csv holds one published result per row: columns ``date`` and ``score``.
Column names are matched without regard to case; blank lines and lines starting with ``#`` are skipped;
the delimiter (comma, tab or semicolon) is read off the header line.

Every mistake raises :class:`benchtrust.InputError` naming the file, the 1-based line and the column.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from benchtrust._io import InputError, is_number, read_table

__all__ = ["PairedRuns", "read_history", "read_runs"]


@dataclasses.dataclass(frozen=True, eq=False)
class PairedRuns:
    """The scores of algorithms A and B read from a runs file.

    Attributes
    ----------
    a, b : numpy.ndarray
        The scores of the runs of A and of B. When paired, ``a[i]`` and ``b[i]`` share ``keys[i]``.
    names : tuple of str
        The names of A and B as written in the file.
    pair_by : str or None
        The column the runs were paired by (as written in the header); None: unpaired.
    keys : tuple of str
        The values of the pairing column, one per pair, in the order of A's runs (empty when unpaired).
    algorithms : tuple of str
        Every algorithm named in the file, in order of first appearance.
    source : str
        The file's name.
    """

    a: np.ndarray
    b: np.ndarray
    names: tuple[str, str]
    pair_by: str | None
    keys: tuple[str, ...]
    algorithms: tuple[str, ...]
    source: str

    @property
    def paired(self) -> bool:
        return self.pair_by is not None


def read_runs(path, *, a, b, pair_by=None) -> PairedRuns:
    """Read the runs of algorithms ``a`` and ``b`` from a long-format table (one run per row).

    Parameters
    ----------
    path : str or os.PathLike
        A CSV/TSV file with columns ``algorithm`` and ``score`` and, to pair, column ``pair_by``.
    a, b : str
        The two algorithms to compare, as named in column ``algorithm``.
    pair_by : str, optional
        The column whose values pair the runs (paper C.2): each of its values must appear exactly once for
        A and once for B. None: the runs are not paired.

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
    table = read_table(path, example="algorithm,seed,score")
    name = table.name
    for option, value in (("a", a), ("b", b)):
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{option}: expected the name of an algorithm, got {value!r}")
    a, b = a.strip(), b.strip()
    if a == b:
        raise InputError(f"a, b: both name {a!r}; compare two different algorithms")
    algorithm = table.column("algorithm")
    score = table.column("score")
    key = None if pair_by is None else table.column(pair_by, purpose=" to pair the runs by")
    names = table.texts(algorithm, "an algorithm name")
    scores = table.numbers(score)
    present = tuple(dict.fromkeys(names))
    rows = {}
    for wanted in (a, b):
        if wanted not in present:
            listed = ", ".join(repr(found) for found in present)
            raise InputError(
                f"{name}: no runs of algorithm {wanted!r}; the algorithms in the file are {listed}"
            )
        rows[wanted] = [k for k, found in enumerate(names) if found == wanted]
        if len(rows[wanted]) < 2:
            raise InputError(
                f"{name}: algorithm {wanted!r} has {len(rows[wanted])} run (line "
                f"{table.lines[rows[wanted][0]]}); at least 2 runs of each are needed"
            )
    if key is None:
        return PairedRuns(
            a=scores[rows[a]],
            b=scores[rows[b]],
            names=(a, b),
            pair_by=None,
            keys=(),
            algorithms=present,
            source=name,
        )
    column = table.header[key]
    values = table.texts(key, f"a value of {column!r} to pair the runs by")
    positions = {}
    for wanted in (a, b):
        seen = {}
        for k in rows[wanted]:
            if values[k] in seen:
                raise InputError(
                    f"{name}, line {table.lines[k]}: algorithm {wanted!r} has a second run with {column} "
                    f"{values[k]!r} (the first is on line {table.lines[seen[values[k]]]}); to pair the runs "
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
                f"{name}, line {table.lines[k]}: {column} {missing[0]!r} has a run of {one!r} but none of "
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
        source=name,
    )


def read_history(path) -> tuple[list[str], np.ndarray]:
    """Read a benchmark's history: the dates (as written) and scores of its published results.

    Parameters
    ----------
    path : str or os.PathLike
        A CSV/TSV file with columns ``date`` (ISO dates such as 2019-05-28, or numbers such as 2019.4) and
        ``score``, one published result per row; other columns are ignored.

    Returns
    -------
    (list, numpy.ndarray)
        The dates (strings as written, or floats when every date is a number) and the scores, in the
        file's order.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "history.csv")
    ...     _ = path.write_text("date,score,paper\\n2018-01-02,0.91,X\\n2019-03-04,0.93,Y\\n")
    ...     read_history(path)
    (['2018-01-02', '2019-03-04'], array([0.91, 0.93]))
    """
    table = read_table(path, example="date,score")
    date = table.column("date")
    score = table.column("score")
    dates = table.texts(date, "a date such as 2019-05-28")
    numeric = is_number(dates[0])
    for cell, line in zip(dates, table.lines, strict=True):
        where = f"{table.name}, line {line}, column {table.header[date]!r}"
        if not _is_date(cell):
            raise InputError(
                f"{where}: {cell!r} is not a date; expected an ISO date such as 2019-05-28, or a number "
                "such as 2019.4"
            )
        if is_number(cell) != numeric:
            first = "numbers" if numeric else "dates"
            raise InputError(f"{where}: {cell!r}, but the first rows hold {first}; use one kind throughout")
    scores = table.numbers(score)
    if numeric:
        return [float(cell) for cell in dates], scores
    return dates, scores


def _is_date(text: str) -> bool:
    """Whether ``text`` is a number or a date numpy reads (ISO: 2019, 2019-05, 2019-05-28)."""
    if is_number(text):
        return True
    try:
        np.datetime64(text, "D")
    except ValueError:
        return False
    return True
