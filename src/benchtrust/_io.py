"""Reading user files and writing outputs safely.

Everything benchtrust reads from a user's file goes through this module, so that every mistake in a file
is reported the same way: an :class:`InputError` naming the file, the 1-based line number and, for
tables, the column. :func:`read_numbers` reads one column of numbers; :func:`read_leaderboard` reads the
teams' best scores from a leaderboard (Kaggle's raw download, a CSV/TSV table or a DataFrame), and
:func:`bundled_leaderboard` locates the Kaggle Titanic leaderboard shipped with benchtrust.

The argument checks shared by the analysis functions (:func:`check_count`, :func:`check_probability`) live
here too, so that every argument mistake reads the same way; checks that depend on an analysis's meaning
belong to that analysis.

Outputs are written next to their target under a temporary name and renamed into place
(:func:`write_atomic`, :func:`atomic_path`), so a reader never sees a half-written file.

Only the standard library is imported at module level; numpy and pandas are imported inside the functions
that need them, which keeps ``import benchtrust`` cheap.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import numbers
import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "InputError",
    "Leaderboard",
    "atomic_path",
    "bundled_leaderboard",
    "check_count",
    "check_probability",
    "read_leaderboard",
    "read_numbers",
    "write_atomic",
]

#: Delimiters recognised in a table's header line, in order of preference when counts tie.
_DELIMITERS = (",", "\t", ";")
_DELIMITER_NAMES = {",": "comma", "\t": "tab", ";": "semicolon"}
_UTF8_BOM = b"\xef\xbb\xbf"


class InputError(ValueError):
    """A mistake in what the user gave benchtrust: a file, a row, a column or an argument.

    The message names the file, row, column or argument at fault and says what was expected, in one line,
    so the command line can print it as ``benchtrust: error: <message>`` without a traceback.

    Examples
    --------
    >>> raise InputError("scores.csv, line 4, column 'accuracy': 'abc' is not a number")
    Traceback (most recent call last):
        ...
    benchtrust.InputError: scores.csv, line 4, column 'accuracy': 'abc' is not a number
    """


# Shown as ``benchtrust.InputError``, where users import it from (``benchtrust`` re-exports it).
InputError.__module__ = "benchtrust"


def _number(value, name):
    """``value`` as a finite float, or an InputError naming the argument."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise InputError(f"{name}: expected a number, got {value!r}")
    number = float(value)
    if not math.isfinite(number):
        raise InputError(f"{name}: expected a finite number, got {value!r}")
    return number


def check_seed(seed):
    """A numpy Generator from `seed`: None (fresh entropy), a non-negative int, or a Generator (used as is).

    The one check of a ``seed`` argument, so every function accepts and refuses the same values.

    Examples
    --------
    >>> float(check_seed(0).random()) == float(check_seed(0).random())
    True
    >>> check_seed(True)
    Traceback (most recent call last):
    ...
    benchtrust.InputError: seed: expected a non-negative int or a numpy.random.Generator, got True
    """
    import numpy as np

    if seed is None or isinstance(seed, np.random.Generator):
        return np.random.default_rng(seed)
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= 0:
        return np.random.default_rng(int(seed))
    raise InputError(f"seed: expected a non-negative int or a numpy.random.Generator, got {seed!r:.60}")


def check_count(value, name):
    """A positive whole number (an int, or a float such as 1e6 with no fractional part).

    Examples
    --------
    >>> check_count(1e6, "test_size")
    1000000
    >>> check_count(2.5, "classifiers")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: classifiers: expected a positive whole number, got 2.5
    """
    number = _number(value, name)
    if number < 1 or not number.is_integer():
        raise InputError(f"{name}: expected a positive whole number, got {value!r}")
    return int(number)


def check_probability(value, name, *, closed=False, upper_open=None):
    """A probability in (0, 1), or in [0, 1] when ``closed``; ``upper_open`` overrides the upper end.

    Examples
    --------
    >>> check_probability(0.9, "accuracy")
    0.9
    >>> check_probability(1.0, "accuracy")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: accuracy: expected a value strictly between 0 and 1, got 1.0
    """
    number = _number(value, name)
    low_ok = number >= 0 if closed else number > 0
    high_open = (not closed) if upper_open is None else upper_open
    high_ok = number < 1 if high_open else number <= 1
    if not (low_ok and high_ok):
        interval = ("[0" if closed else "(0") + (", 1)" if high_open else ", 1]")
        words = {
            "(0, 1)": "strictly between 0 and 1",
            "[0, 1]": "between 0 and 1",
            "[0, 1)": "in [0, 1)",
            "(0, 1]": "in (0, 1]",
        }[interval]
        raise InputError(f"{name}: expected a value {words}, got {value!r}")
    return number


def read_numbers(
    path: str | os.PathLike[str], *, column: str = "accuracy", what: str = "accuracy"
) -> np.ndarray:
    """Read a column of numbers from a plain text file or a CSV/TSV table.

    Two layouts are accepted:

    * plain text, one number per line;
    * a table whose first line is a header naming its columns, one of them `column`. The delimiter is
      taken from the header line: comma, tab or semicolon (the most frequent of them; a header without any
      is a one-column table). Fields may be quoted as in CSV, but a quoted field cannot span lines.

    In both layouts blank lines and lines starting with ``#`` are skipped. The file must be UTF-8, with or
    without a byte-order mark. The file is only read, never modified.

    Parameters
    ----------
    path : str or os.PathLike
        The file to read.
    column : str, default "accuracy"
        Header name of the column to read from a table (ignored for plain text).
    what : str, default "accuracy"
        What the numbers are, in words, used in error messages ("no accuracy values found").

    Returns
    -------
    numpy.ndarray
        The numbers in file order, float64, one-dimensional, all finite, at least one.

    Raises
    ------
    InputError
        If the file is missing, a folder, unreadable, not UTF-8, empty, holds only a header, lacks `column`,
        has a row with the wrong number of fields, or holds a value that is not a finite number. The message
        names the file and the 1-based line number, and for a table the column.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "accuracies.csv")
    ...     _ = path.write_text("model,accuracy\\nA,0.91\\nB,0.875\\n", encoding="utf-8")
    ...     read_numbers(path)
    array([0.91 , 0.875])
    >>> read_numbers("no-such-file.txt")
    Traceback (most recent call last):
        ...
    benchtrust.InputError: no-such-file.txt: no such file
    """
    name = os.fspath(path)
    lines = _read_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [
        (number, line)
        for number, line in enumerate(lines, start=1)
        if (stripped := line.strip()) and not stripped.startswith("#")
    ]
    if not numbered:
        raise InputError(
            f"{name}: no {what} values found (the file is empty or holds only blank and comment lines); "
            f"expected one number per line, or a table with a column {column!r}"
        )
    first = numbered[0][1]
    if not any(d in first for d in _DELIMITERS) and _is_number(first):
        numbers = [number for number, _ in numbered]
        tokens = [line.strip() for _, line in numbered]
        return _to_floats(tokens, [f"{name}, line {number}" for number in numbers])
    return _read_table_column(name, numbered, column=column, what=what)


def _read_table_column(name: str, numbered: list[tuple[int, str]], *, column: str, what: str) -> np.ndarray:
    """Read `column` of a table given as (line number, line) pairs, the first being the header."""
    import csv

    first_number, first = numbered[0]
    delimiter, layout = _sniff_delimiter(first)
    if delimiter is not None:
        rows = [next(csv.reader([line], delimiter=delimiter), []) for _, line in numbered]
    else:  # a one-column table: never split its rows, so "0,93" is reported rather than misread
        rows = [[line] for _, line in numbered]
    header = [field.strip() for field in rows[0]]
    found = header.count(column)
    if found == 0:
        listed = ", ".join(repr(field) for field in header)
        raise InputError(
            f"{name}, line {first_number}: expected a number or a header with a column {column!r}; "
            f"found {listed} (read as {layout})"
        )
    if found > 1:
        raise InputError(f"{name}, line {first_number}: the header names column {column!r} {found} times")
    if len(rows) == 1:
        raise InputError(f"{name}: no {what} values below the header (line {first_number})")
    index = header.index(column)
    numbers = [number for number, _ in numbered[1:]]
    data = rows[1:]
    bad = next((k for k, row in enumerate(data) if len(row) != len(header)), None)
    if bad is not None:
        raise InputError(
            f"{name}, line {numbers[bad]}: {len(data[bad])} fields, but the header (line {first_number}) "
            f"has {len(header)}; quote fields that contain the delimiter"
        )
    tokens = [row[index].strip() for row in data]
    return _to_floats(tokens, [f"{name}, line {number}, column {column!r}" for number in numbers])


def _sniff_delimiter(line: str) -> tuple[str | None, str]:
    """The delimiter of a table whose header line is `line` (None: one column), and the layout in words.

    The most frequent of comma, tab and semicolon in `line`; ties go to the first in that order.
    """
    present = [d for d in _DELIMITERS if d in line]
    if not present:
        return None, "one column"
    delimiter = max(present, key=line.count)
    return delimiter, f"{_DELIMITER_NAMES[delimiter]}-separated"


def _read_text(path: str | os.PathLike[str]) -> str:
    """Return the file's text, decoded as UTF-8 with an optional byte-order mark, or raise InputError."""
    name = os.fspath(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, expected a file") from None
    except PermissionError:
        raise InputError(f"{name}: cannot read the file (permission denied)") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    raw = raw.removeprefix(_UTF8_BOM)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"{name}, line {line}: not UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8"
        ) from None


def _is_number(token: str) -> bool:
    """Whether ``float`` accepts `token`."""
    try:
        float(token)
    except ValueError:
        return False
    return True


def _to_floats(tokens: list[str], places: list[str]) -> np.ndarray:
    """Convert `tokens` to finite floats; on failure name the first bad token's place."""
    import numpy as np

    try:
        values = np.array(tokens, dtype=np.float64)
    except ValueError:
        k = next(k for k, token in enumerate(tokens) if not _is_number(token))
        raise InputError(f"{places[k]}: {_describe_non_number(tokens[k])}") from None
    not_finite = ~np.isfinite(values)
    if not_finite.any():
        k = int(np.argmax(not_finite))
        raise InputError(f"{places[k]}: {tokens[k]!r} is not a finite number")
    return values


def _describe_non_number(token: str) -> str:
    """Say why `token` is not a number, with a hint for the usual slips."""
    if not token:
        return "empty, expected a number"
    if "," in token and _is_number(token.replace(",", ".", 1)):
        return f"{token!r} is not a number (use '.' as the decimal mark)"
    return f"{token!r} is not a number"


# ---------------------------------------------------------------------------------------------------------
# Leaderboards

#: Score column names found by default, compared case-insensitively.
_SCORE_NAMES = ("score", "accuracy", "auc")
#: Score cells that mean "no score", compared case-insensitively after stripping blanks.
_MISSING = frozenset({"", "nan", "na", "null", "none"})
#: What a DataFrame is called in messages, and in :attr:`Leaderboard.source`.
_TABLE = "<table>"
_LEADERBOARD_HEADER = "TeamId,TeamName,SubmissionDate,Score"
#: The Kaggle Titanic leaderboard shipped in ``benchtrust/data`` (see its README for the source).
_BUNDLED_LEADERBOARD = "titanic-2019-11-22.csv"
#: The bundled leaderboard's path once known (extracted to a temporary file if benchtrust is zipped).
_bundled_path: Path | None = None


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Leaderboard:
    """The teams' scores read from a leaderboard, after the filters of :func:`read_leaderboard`.

    Attributes
    ----------
    scores : numpy.ndarray
        One score per kept team (its best valid score), float64, read-only, in the file order of each
        team's first row.
    excluded : dict of str to int
        Teams removed by each filter, in the order applied: ``"broken"`` (no valid nonzero score),
        ``"chance"`` (best score at or below the chance level), ``"implausible"`` (best score above
        ``max_plausible``). A filter that is off counts 0.
    rows : int
        Data rows read (submissions, for a Kaggle download), blank lines not counted.
    teams : int
        Teams read, before the filters: distinct ``TeamId`` values, or rows when there is no such column.
    column : str
        The name of the score column used, as written in the header.
    source : str
        The path as given, or ``"<table>"`` for a DataFrame.

    Examples
    --------
    >>> import numpy as np
    >>> board = Leaderboard(
    ...     scores=np.array([0.8, 0.75]), excluded={"broken": 1, "chance": 0, "implausible": 0},
    ...     rows=4, teams=3, column="Score", source="lb.csv",
    ... )
    >>> board
    Leaderboard(source='lb.csv', column='Score', rows=4, teams=3, kept=2, broken=1, chance=0, implausible=0)
    >>> board.to_dict()["kept"]
    2
    """

    scores: np.ndarray
    excluded: dict[str, int]
    rows: int
    teams: int
    column: str
    source: str

    def to_dict(self) -> dict[str, object]:
        """The counts, column and source as plain JSON types (the scores themselves are left out)."""
        return {
            "source": self.source,
            "column": self.column,
            "rows": int(self.rows),
            "teams": int(self.teams),
            "kept": len(self.scores),
            "excluded": {key: int(count) for key, count in self.excluded.items()},
        }

    def __repr__(self) -> str:
        counts = ", ".join(f"{key}={count}" for key, count in self.excluded.items())
        return (
            f"Leaderboard(source={self.source!r}, column={self.column!r}, rows={self.rows}, "
            f"teams={self.teams}, kept={len(self.scores)}, {counts})"
        )


def read_leaderboard(
    source,
    *,
    score_column: str | None = None,
    classes: int | None = None,
    max_plausible: float | None = None,
    lower_bound: float | None = None,
) -> Leaderboard:
    """Read a leaderboard's team scores from a Kaggle download, a CSV/TSV table or a DataFrame.

    Each team's score is its best (largest) valid score. When the table has a ``TeamId`` column (any case,
    also ``team_id``), rows are grouped by it: Kaggle's raw leaderboard download (header
    ``TeamId,TeamName,SubmissionDate,Score``) has one row per submission that improved the team's best.
    Without it, every row is a team.

    The score column is `score_column` if given; otherwise the private one of a private/public pair of
    columns (names containing ``private`` and ``public``, such as ``PrivateScore``/``PublicScore``: the
    hidden test set that decided the ranking); otherwise the one column named ``score``, ``accuracy`` or
    ``auc``, in any case.

    Teams are then removed by three filters, in this order, and counted in
    :attr:`Leaderboard.excluded`:

    * ``"broken"``: no valid nonzero score. A cell that is empty, ``nan``, ``NA``, ``null`` or ``None``
      (any case), or exactly 0 (what Kaggle shows for a submission it could not score), is not an error,
      just not a valid score.
    * ``"chance"``: best score at or below the chance level, ``max(1/classes, lower_bound)`` for the
      arguments given (e.g. ``classes=2`` drops accuracy <= 0.5; ``lower_bound=0.5`` for AUC).
    * ``"implausible"``: best score strictly above `max_plausible` (``max_plausible=0.999`` drops perfect
      scores, which on a public test set are usually leakage rather than skill).

    A file is read as UTF-8, with or without a byte-order mark, and never modified. The delimiter is taken
    from the header line as in :func:`read_numbers` (comma, tab or semicolon). Fields may be quoted as in
    CSV, with ``""`` for a quote inside a quoted field; a quoted field may span lines. Blank lines are
    skipped, and lines starting with ``#`` before the header; after the header such a line is data (a team
    may be called ``#1``).

    Parameters
    ----------
    source : str, os.PathLike or pandas.DataFrame
        The leaderboard file, or a table with one row per team or per submission.
    score_column : str, optional
        The score column's name (matched exactly, else case-insensitively).
    classes : int, optional
        Number of classes C for accuracy: scores <= 1/C are at or below chance and excluded.
    max_plausible : float, optional
        Scores strictly above it are excluded as implausible; in (0, 1].
    lower_bound : float, optional
        Scores <= it are excluded as at or below chance too (0.5 for AUC); in [0, 1).

    Returns
    -------
    Leaderboard
        The kept teams' scores and the counts of rows, teams and excluded teams.

    Raises
    ------
    InputError
        If the file is missing, a folder, unreadable, not UTF-8 or empty; if it has no header line, no score
        column or no rows; if a row has the wrong number of fields or an empty ``TeamId``; if a score is not
        a number or not between 0 and 1; or if an argument is out of range. The message names the file (or
        ``<table>``), the 1-based line number (the DataFrame's row label) and the column, or the argument.

    Examples
    --------
    A Kaggle download: team 1 improved twice, team 5's only submission scored 0.

    >>> import pathlib, tempfile
    >>> kaggle = (
    ...     "\\ufeffTeamId,TeamName,SubmissionDate,Score\\n"
    ...     '1,"Ann, Bo",2019-01-02,0.00000\\n'
    ...     '1,"Ann, Bo",2019-01-03,0.77511\\n'
    ...     "2,Zoë,2019-01-04,0.80382\\n"
    ...     '3,"The ""best"" team",2019-01-05,0.47368\\n'
    ...     '1,"Ann, Bo",2019-01-06,0.78468\\n'
    ...     "4,leak,2019-01-07,1.00000\\n"
    ...     "5,oops,2019-01-08,0.00000\\n"
    ... )
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "leaderboard.csv")
    ...     _ = path.write_text(kaggle, encoding="utf-8")
    ...     board = read_leaderboard(path, classes=2, max_plausible=0.999)
    >>> board.scores
    array([0.78468, 0.80382])
    >>> board.excluded
    {'broken': 1, 'chance': 1, 'implausible': 1}
    >>> board.rows, board.teams, board.column
    (7, 5, 'Score')

    A DataFrame with a private/public pair: the private score is used.

    >>> import pandas as pd
    >>> table = pd.DataFrame({"model": ["a", "b"], "PrivateScore": [0.91, 0.88], "PublicScore": [0.9, 0.93]})
    >>> board = read_leaderboard(table)
    >>> board.column, board.scores
    ('PrivateScore', array([0.91, 0.88]))
    """
    import numpy as np

    chance = _chance_level(classes, lower_bound)
    if max_plausible is not None:
        max_plausible = check_probability(max_plausible, "max_plausible", upper_open=False)
        if max_plausible <= chance:
            raise InputError(
                f"max_plausible: expected a value above the chance level {chance:g} set by classes and "
                f"lower_bound (no score could be kept), got {max_plausible!r}"
            )
    if score_column is not None and not isinstance(score_column, str):
        raise InputError(f"score_column: expected a column name, got {score_column!r}")
    if isinstance(source, (str, os.PathLike)):
        table = read_table(source, example=_LEADERBOARD_HEADER, what="a leaderboard table")
    else:
        table = _frame_table(source)
    team, score = _choose_columns(table, score_column)
    values = table.scores(score)
    rows = len(values)
    broken_rows = np.isnan(values) | (values == 0)
    values[broken_rows] = np.nan
    if team is None:
        best = values
    else:
        ids = table.team_ids(team)
        _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        codes = np.empty_like(order)
        codes[order] = np.arange(len(order))
        best = np.full(len(order), np.nan)
        np.fmax.at(best, codes[inverse.reshape(-1)], values)
    broken = np.isnan(best)
    below = ~broken & (best <= chance)
    above = ~broken & ~below & (best > (math.inf if max_plausible is None else max_plausible))
    scores = best[~(broken | below | above)]
    scores.flags.writeable = False
    return Leaderboard(
        scores=scores,
        excluded={"broken": int(broken.sum()), "chance": int(below.sum()), "implausible": int(above.sum())},
        rows=rows,
        teams=len(best),
        column=table.header[score],
        source=table.name,
    )


def bundled_leaderboard() -> Path:
    """The path of the Kaggle Titanic leaderboard bundled with benchtrust.

    The public leaderboard of Kaggle's "Titanic: Machine Learning from Disaster" competition on 2019-11-22,
    as Kaggle's raw download writes it (32,578 submissions of 16,273 teams; source in
    ``benchtrust/data/README.md``). Each score is an accuracy on 209 test passengers.

    Returns
    -------
    pathlib.Path
        The file inside the installed package; read it, never write it.

    Examples
    --------
    >>> board = read_leaderboard(bundled_leaderboard(), classes=2)
    >>> board.rows, board.teams, board.column
    (32578, 16273, 'Score')
    >>> board.excluded
    {'broken': 39, 'chance': 57, 'implausible': 0}
    """
    global _bundled_path
    if _bundled_path is None:
        from importlib import resources

        resource = resources.files("benchtrust") / "data" / _BUNDLED_LEADERBOARD
        if isinstance(resource, Path):
            _bundled_path = resource
        else:  # benchtrust is installed as a zip: extract the file once; it is removed at exit
            import atexit

            stack = contextlib.ExitStack()
            atexit.register(stack.close)
            _bundled_path = Path(stack.enter_context(resources.as_file(resource)))
    return _bundled_path


def _chance_level(classes, lower_bound) -> float:
    """The chance level set by `classes` and `lower_bound`, ``-inf`` when neither is given."""
    levels = []
    if classes is not None:
        number = _number(classes, "classes")
        if number < 2 or not number.is_integer():
            raise InputError(f"classes: expected a whole number of at least 2, got {classes!r}")
        levels.append(1 / int(number))
    if lower_bound is not None:
        levels.append(check_probability(lower_bound, "lower_bound", closed=True, upper_open=True))
    return max(levels, default=-math.inf)


class _Columns:
    """Finding columns and reading their cells as numbers or names, for a file's table or a DataFrame.

    Subclasses provide ``header``, ``header_place``, ``layout``, ``cells(column)`` and ``where(k)``.
    """

    def column(self, wanted: str, *, purpose: str = "") -> int:
        """The index of column ``wanted`` (any case), or an InputError listing the columns found."""
        lowered = [name.lower() for name in self.header]
        if lowered.count(wanted.lower()) > 1:
            raise InputError(f"{self.header_place}: the header names column {wanted!r} twice")
        if wanted.lower() not in lowered:
            found = ", ".join(repr(name) for name in self.header)
            raise InputError(
                f"{self.header_place}: no column {wanted!r}{purpose}; found {found}{self.layout}"
            )
        return lowered.index(wanted.lower())

    def numbers(self, column: int, *, missing: bool = False) -> np.ndarray:
        """The column's cells as finite floats; with ``missing``, empty or NA cells are nan.

        An InputError names the first cell that is not a number (or is infinite).
        """
        import numpy as np

        cells = self.cells(column)
        if missing:
            cells = ["nan" if cell.lower() in _MISSING else cell for cell in cells]
        try:
            values = np.array(cells, dtype=np.float64)
        except ValueError:
            values = None
        bad = (
            range(len(cells))
            if values is None
            else np.flatnonzero(~np.isfinite(values) & ~(np.isnan(values) if missing else False))
        )
        for k in bad:
            where = f"{self.where(k)}, column {self.header[column]!r}"
            if not _is_number(cells[k]):
                raise InputError(f"{where}: {_describe_non_number(cells[k])}")
            value = float(cells[k])
            if not (np.isfinite(value) or (missing and np.isnan(value))):
                raise InputError(f"{where}: {cells[k]!r} is not a finite number")
        return values

    def texts(self, column: int, what: str) -> list[str]:
        """The column's cells, none of them empty."""
        cells = self.cells(column)
        if "" in cells:
            k = cells.index("")
            raise InputError(f"{self.where(k)}, column {self.header[column]!r}: empty, expected {what}")
        return cells


class _Table(_Columns):
    """A table's header and string cells, read from a file, with the places to name in messages.

    ``lines[k]`` is the 1-based line of row ``k`` in the file; ``layout`` says how the file was split.
    """

    def __init__(self, name, header, rows, lines, header_line, layout):
        self.name = name
        self.header = header
        self.rows = rows
        self.lines = lines
        self.header_line = header_line
        self.header_place = f"{name}, line {header_line}"
        self.layout = f" (read as {layout})"

    def where(self, k: int) -> str:
        return f"{self.name}, line {self.lines[k]}"

    def cells(self, column: int) -> list[str]:
        return [row[column].strip() for row in self.rows]

    def scores(self, column: int) -> np.ndarray:
        return _parse_scores(self.cells(column), self, column)

    def team_ids(self, column: int) -> np.ndarray:
        import numpy as np

        return np.array(self.texts(column, "a team id"))


class _FrameTable(_Columns):
    """The same interface as :class:`_Table` for a pandas DataFrame, whose cells may be numbers."""

    def __init__(self, frame):
        self.name = _TABLE
        self.header = [str(label) for label in frame.columns]
        self._frame = frame
        self.header_place = _TABLE
        self.layout = ""

    def where(self, k: int) -> str:
        label = self._frame.index[k]
        return f"{_TABLE}, row {label if isinstance(label, numbers.Integral) else repr(label)}"

    def cells(self, column: int) -> list[str]:
        """The column's cells as text: numbers as Python writes them, missing values as ''."""
        import pandas as pd

        def text(cell):
            if isinstance(cell, str):
                return cell.strip()
            if cell is None or cell is pd.NA or cell is pd.NaT or (isinstance(cell, float) and cell != cell):
                return ""
            if isinstance(cell, numbers.Integral) and not isinstance(cell, bool):
                return str(int(cell))
            if isinstance(cell, numbers.Real) and not isinstance(cell, bool):
                return repr(float(cell))
            return str(cell)

        return [text(cell) for cell in self._frame.iloc[:, column].tolist()]

    def scores(self, column: int) -> np.ndarray:
        import numpy as np
        import pandas as pd

        series = self._frame.iloc[:, column]
        if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
            values = series.to_numpy(dtype=np.float64, na_value=np.nan, copy=True)
            return _check_range(values, None, self, column)
        tokens = []
        for k, cell in enumerate(series.tolist()):
            if isinstance(cell, str):
                tokens.append(cell.strip())
            elif isinstance(cell, numbers.Real) and not isinstance(cell, bool):
                tokens.append(repr(float(cell)))  # NaN becomes "nan", a missing score
            elif cell is None or cell is pd.NA or cell is pd.NaT:
                tokens.append("")
            else:
                raise InputError(
                    f"{self.where(k)}, column {self.header[column]!r}: expected a number, got {cell!r}"
                )
        return _parse_scores(tokens, self, column)

    def team_ids(self, column: int) -> np.ndarray:
        import numpy as np

        series = self._frame.iloc[:, column]
        missing = series.isna().to_numpy()
        if missing.any():
            k = int(np.argmax(missing))
            raise InputError(f"{self.where(k)}, column {self.header[column]!r}: empty, expected a team id")
        return series.astype(str).to_numpy(dtype=str)


def read_table(path, *, example: str, what: str = "a table") -> _Table:
    """Read the table in file `path` as strings, with the 1-based line number of each data row.

    The delimiter (comma, tab or semicolon) is read off the header line; blank lines and lines starting
    with ``#`` before the header are skipped. ``example`` is a header line shown when the file has none.
    """
    import csv

    name = os.fspath(path)
    lines = _read_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = next(
        (k for k, line in enumerate(lines) if (stripped := line.strip()) and not stripped.startswith("#")),
        None,
    )
    if start is None:
        raise InputError(
            f"{name}: empty (no lines other than blank or comment lines); expected {what} with a header "
            f"line naming its columns, such as {example}"
        )
    delimiter, layout = _sniff_delimiter(lines[start])
    records: list[list[str]] = []
    numbers: list[int] = []
    if delimiter is None:
        # a one-column table: never split its rows, so "0,93" is reported rather than misread
        for number, line in enumerate(lines[start:], start=start + 1):
            if line.strip():
                records.append([line])
                numbers.append(number)
    else:
        reader = csv.reader((line + "\n" for line in lines[start:]), delimiter=delimiter, strict=True)
        while True:
            number = start + reader.line_num + 1
            try:
                record = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                if "end of data" in str(exc):
                    raise InputError(
                        f"{name}, line {number}: a quoted field is not closed before the end of the file"
                    ) from None
                raise InputError(
                    f"{name}, line {start + reader.line_num}: {exc} (a quoted field must end at a "
                    'delimiter; write a quote inside quotes as "")'
                ) from None
            if any(field.strip() for field in record):
                records.append(record)
                numbers.append(number)
    if not records:  # the only non-blank line held nothing but delimiters
        raise InputError(f"{name}, line {start + 1}: expected a header line naming the columns, found none")
    header = [field.strip() for field in records[0]]
    if all(_is_number(field) for field in header if field):
        raise InputError(
            f"{name}, line {numbers[0]}: expected a header line naming the columns, such as {example}; "
            f"found {lines[numbers[0] - 1].strip()!r}"
        )
    if len(records) == 1:
        raise InputError(f"{name}: no rows below the header (line {numbers[0]})")
    bad = next((k for k, record in enumerate(records) if len(record) != len(header)), None)
    if bad is not None:
        raise InputError(
            f"{name}, line {numbers[bad]}: {len(records[bad])} fields, but the header (line {numbers[0]}) "
            f"has {len(header)}; quote fields that contain the delimiter"
        )
    return _Table(name, header, records[1:], numbers[1:], numbers[0], layout)


def table_of(source, *, example: str, what: str = "a table") -> _Table | _FrameTable:
    """The table in file `source` (see :func:`read_table`), or `source` itself if it is a DataFrame."""
    if isinstance(source, (str, os.PathLike)):
        return read_table(source, example=example, what=what)
    return _frame_table(source)


def _frame_table(frame) -> _FrameTable:
    """Wrap a DataFrame, or raise InputError if `frame` is neither a path nor a DataFrame."""
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"source: expected a file path or a pandas DataFrame, got {type(frame).__name__}")
    if len(frame) == 0:
        raise InputError(f"{_TABLE}: no rows")
    return _FrameTable(frame)


def _choose_columns(table, score_column: str | None) -> tuple[int | None, int]:
    """The indices of the team id column (None if absent) and of the score column in `table`'s header."""
    header = table.header
    lowered = [field.lower() for field in header]
    found = ", ".join(repr(field) for field in header) + table.layout
    teams = [k for k, field in enumerate(lowered) if field.replace("_", "").replace(" ", "") == "teamid"]
    if len(teams) > 1:
        raise InputError(f"{table.header_place}: several team id columns ({_names(header, teams)})")
    team = teams[0] if teams else None
    if score_column is not None:
        matches = [k for k, field in enumerate(header) if field == score_column] or [
            k for k, field in enumerate(lowered) if field == score_column.lower()
        ]
        if not matches:
            raise InputError(
                f"{table.header_place}: no column {score_column!r} (score_column); found {found}"
            )
    else:
        private = [k for k, field in enumerate(lowered) if "private" in field]
        if private and any("public" in field for field in lowered):
            if len(private) > 1:
                private = [k for k in private if "score" in lowered[k]] or private
            matches = private
            if len(matches) > 1:
                raise InputError(
                    f"{table.header_place}: several private score columns ({_names(header, matches)}); "
                    "choose one with score_column"
                )
        else:
            matches = [k for k, field in enumerate(lowered) if field in _SCORE_NAMES]
            if not matches:
                raise InputError(
                    f"{table.header_place}: no score column; expected one named 'score', 'accuracy' or "
                    "'auc' (any case), a private/public pair such as 'PrivateScore','PublicScore', or "
                    f"score_column; found {found}"
                )
            if len({lowered[k] for k in matches}) > 1:
                raise InputError(
                    f"{table.header_place}: several score columns ({_names(header, matches)}); "
                    "choose one with score_column"
                )
    if len(matches) > 1:
        raise InputError(
            f"{table.header_place}: the header names column {header[matches[0]]!r} {len(matches)} times"
        )
    return team, matches[0]


def _names(header: list[str], indices: list[int]) -> str:
    return ", ".join(repr(header[k]) for k in indices)


def _parse_scores(tokens: list[str], table, column: int) -> np.ndarray:
    """Stripped score cells as floats, NaN for a missing cell; InputError on anything else not a score."""
    import numpy as np

    cleaned = ["nan" if token.lower() in _MISSING else token for token in tokens]
    try:
        values = np.array(cleaned, dtype=np.float64)
    except ValueError:
        k = next(k for k, token in enumerate(cleaned) if not _is_number(token))
        hint = ""
        if "," in tokens[k] and _is_number(tokens[k].replace(",", ".", 1)):
            hint = " (use '.' as the decimal mark)"
        raise InputError(
            f"{table.where(k)}, column {table.header[column]!r}: expected a number, got {tokens[k]!r}{hint}"
        ) from None
    return _check_range(values, tokens, table, column)


def _check_range(values: np.ndarray, tokens: list[str] | None, table, column: int) -> np.ndarray:
    """`values`, if each is NaN (missing) or in [0, 1]; else InputError naming the first that is not."""
    import numpy as np

    outside = ~np.isnan(values) & ((values < 0) | (values > 1))
    if outside.any():
        k = int(np.argmax(outside))
        hint = " (a percentage? divide by 100)" if 1 < values[k] <= 100 else ""
        raise InputError(
            f"{table.where(k)}, column {table.header[column]!r}: expected a score between 0 and 1, "
            f"got {tokens[k] if tokens is not None else float(values[k])!r}{hint}"
        )
    return values


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write `data` to `path` so that `path` is either unchanged or complete, never partial.

    The data go to a new temporary file in the target's folder, are flushed to disk, and the temporary file
    is renamed over `path` (:func:`os.replace`, atomic on POSIX and Windows). On any error the temporary
    file is removed and `path` is left as it was.

    Parameters
    ----------
    path : str or os.PathLike
        The file to create or replace. Its folder must exist.
    data : bytes or str
        The content; a ``str`` is encoded as UTF-8, with line endings written as given.

    Raises
    ------
    InputError
        If the folder does not exist, cannot be written to, or `path` is a folder.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = pathlib.Path(folder, "result.json")
    ...     write_atomic(target, '{"ok": true}\\n')
    ...     print(target.read_text(encoding="utf-8"), end="")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    {"ok": true}
    ['result.json']
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    with atomic_path(path) as temporary, open(temporary, "wb") as stream:
        stream.write(payload)
        stream.flush()
        os.fsync(stream.fileno())


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path next to `path`; rename it onto `path` if the block succeeds, else delete it.

    For writers that want a file name rather than bytes, such as matplotlib's ``savefig``. The temporary
    file already exists (empty) when yielded, is hidden (its name starts with ``.``) and ends with the
    target's suffix, so writers that infer the format from the extension pick the right one.

    Parameters
    ----------
    path : str or os.PathLike
        The file to create or replace. Its folder must exist.

    Yields
    ------
    pathlib.Path
        The temporary file to write.

    Raises
    ------
    InputError
        If the folder does not exist, cannot be written to, or `path` is a folder.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     target = pathlib.Path(folder, "plot.png")
    ...     with atomic_path(target) as temporary:
    ...         print(temporary.parent == target.parent, temporary.suffix)
    ...         _ = temporary.write_bytes(b"not really a png")
    ...     target.read_bytes()
    True .png
    b'not really a png'
    """
    target = Path(path)
    temporary = _create_sibling(target)
    try:
        yield temporary
        try:
            os.replace(temporary, target)
        except IsADirectoryError:
            raise InputError(f"cannot write {os.fspath(path)}: it is a folder") from None
        except PermissionError:
            raise InputError(f"cannot write {os.fspath(path)}: permission denied") from None
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
        raise


def _create_sibling(target: Path) -> Path:
    """Create a new, empty, hidden file in `target`'s folder and return its path.

    Created with mode 0o666 so the process umask applies, as for any ordinary new file.
    """
    while True:
        candidate = target.with_name(f".{target.name}.{os.urandom(4).hex()}.tmp{target.suffix}")
        try:
            descriptor = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        except FileExistsError:
            continue
        except FileNotFoundError:
            raise InputError(f"cannot write {target}: folder '{target.parent}' does not exist") from None
        except NotADirectoryError:
            raise InputError(f"cannot write {target}: '{target.parent}' is not a folder") from None
        except PermissionError:
            raise InputError(
                f"cannot write {target}: permission denied in folder '{target.parent}'"
            ) from None
        os.close(descriptor)
        return candidate
