"""Reading user files and writing outputs safely.

Everything benchtrust reads from a user's file goes through this module, so that every mistake in a file
is reported the same way: an :class:`InputError` naming the file, the 1-based line number and, for
tables, the column. :func:`read_numbers` reads one column of numbers, :func:`read_table` a table whose
columns the analyses choose (:func:`table_of` takes a DataFrame as well); the readers of one analysis's
tables, such as :func:`benchtrust.sota.read_leaderboard`, build on them.

The argument checks shared by the analysis functions (:func:`check_count`, :func:`check_probability`,
:func:`check_memory`) live here too, so that every argument mistake reads the same way; checks that depend
on an analysis's meaning belong to that analysis.

Outputs are written safely by :mod:`benchtrust._write`; :func:`json_text` is the one JSON layout of them all.

Only the standard library is imported at module level; numpy and pandas are imported inside the functions
that need them, which keeps ``import benchtrust`` cheap.
"""

from __future__ import annotations

import math
import numbers
import operator
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeAlias

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DIRECTIONS",
    "MAX_MEMORY",
    "Direction",
    "InputError",
    "Progress",
    "Seed",
    "check_count",
    "check_direction",
    "check_memory",
    "check_number",
    "check_probability",
    "check_seed",
    "find_column",
    "frame_table",
    "is_number",
    "json_text",
    "long_table_of",
    "read_numbers",
    "read_table",
    "read_text",
    "same_name_message",
    "sniff_delimiter",
    "table_of",
]

# The annotations of arguments many analyses take alike.
#: A score's declared direction (:func:`check_direction`).
Direction: TypeAlias = Literal["higher", "lower"]
#: A seed (:func:`check_seed`): None for fresh entropy, a non-negative int, or a numpy Generator.
Seed: TypeAlias = "int | np.random.Generator | None"
#: A progress callback that names its steps, ``progress(done, total=None, description=None)``, as the
#: command line's progress bar is (sota's leaderboard); most analyses call ``progress(done, total)``.
Progress: TypeAlias = Callable[..., object]

#: Delimiters recognised in a table's header line, in order of preference when counts tie.
_DELIMITERS = (",", "\t", ";")
_DELIMITER_NAMES = {",": "comma", "\t": "tab", ";": "semicolon"}
_UTF8_BOM = b"\xef\xbb\xbf"
#: Files of a long table at least this large (bytes) are read column by column by pandas' C parser
#: (:func:`long_table_of`); smaller ones line by line, without importing pandas, which costs more than
#: their reading.
COLUMNAR_BYTES = 6 * 2**20
#: Bytes of a long table checked at once before its columnar reading (whole lines; one line may be longer).
_SCAN_BYTES = 16 * 2**20
#: Rows of a long table converted at once by the columnar reading.
_CHUNK_ROWS = 2**19


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


def check_number(value, name):
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


#: The largest count benchtrust takes (10^15): counts, their sums and their ratios stay exact in float64
#: (whole numbers up to 2^53 ≈ 9·10^15 are), which the exact arithmetic of every analysis relies on.
MAX_COUNT = 10**15
#: Default of every ``max_memory`` (bytes): the most a computation may hold at once (issue 29: under 2 GB).
MAX_MEMORY = 2 * 10**9


def check_count(value, name):
    """A positive whole number up to :data:`MAX_COUNT` (an int, or a float such as 1e6 with no fractional
    part).

    Examples
    --------
    >>> check_count(1e6, "test_size")
    1000000
    >>> check_count(2.5, "classifiers")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: classifiers: expected a positive whole number, got 2.5
    >>> check_count(10**23, "classifiers")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: classifiers: expected at most 10^15 (beyond exact float64 counts), got 1e+23
    """
    number = check_number(value, name)
    if number < 1 or not number.is_integer():
        raise InputError(f"{name}: expected a positive whole number, got {value!r:.60}")
    if number > MAX_COUNT:
        raise InputError(f"{name}: expected at most 10^15 (beyond exact float64 counts), got {number:.6g}")
    return int(number)


def check_memory(need, max_memory, what) -> None:
    """InputError naming ``max_memory`` when `what` would hold about `need` bytes, more than `max_memory`.

    The one check of every computation whose memory grows with its arguments (issue 29: under 2 GB on
    every real input): the bytes it must hold at once are estimated before the work starts, and a
    computation that needs more is refused with one line naming the option that allows more, as
    ``max_work`` does for the searches of :mod:`benchtrust.consistency`.

    Parameters
    ----------
    need : int or float
        The bytes that must be held at once (estimated before the work starts).
    max_memory : int
        The most allowed, a positive whole number of bytes (an InputError otherwise); by default
        :data:`MAX_MEMORY`.
    what : str
        What holds them, in words ("the 3,000,000 resampled values of 16 estimates").

    Examples
    --------
    >>> check_memory(10**6, MAX_MEMORY, "a small table")
    >>> check_memory(1.3e10, MAX_MEMORY, "the 1e8 resampled values of 16 estimates")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: max_memory=2e+09: the 1e8 resampled values of 16 estimates would take about \
13 GB of memory; raise it to run anyway
    """
    limit = check_count(max_memory, "max_memory")
    if need > limit:
        raise InputError(
            f"max_memory={limit:.3g}: {what} would take about {need / 1e9:.2g} GB of memory; raise it to run "
            "anyway"
        )


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
    number = check_number(value, name)
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


#: The declared directions of a score: which values are better, never guessed.
DIRECTIONS = ("higher", "lower")


def check_direction(value, name="direction"):
    """A declared score direction, ``"higher"`` or ``"lower"`` (:data:`DIRECTIONS`).

    Examples
    --------
    >>> check_direction("lower")
    'lower'
    >>> check_direction("up", "--direction")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: --direction: expected one of 'higher', 'lower', got 'up'
    """
    if not isinstance(value, str) or value not in DIRECTIONS:
        raise InputError(f"{name}: expected one of {', '.join(map(repr, DIRECTIONS))}, got {value!r:.60}")
    return value


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
        Header name of the column to read from a table, in any case (ignored for plain text).
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
    lines = read_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n")
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
    if not any(d in first for d in _DELIMITERS) and is_number(first):
        numbers = [number for number, _ in numbered]
        tokens = [line.strip() for _, line in numbered]
        return _to_floats(tokens, [f"{name}, line {number}" for number in numbers])
    return _read_table_column(name, numbered, column=column, what=what)


def _read_table_column(name: str, numbered: list[tuple[int, str]], *, column: str, what: str) -> np.ndarray:
    """Read `column` of a table given as (line number, line) pairs, the first being the header."""
    import csv

    first_number, first = numbered[0]
    delimiter, layout = sniff_delimiter(first)
    if delimiter is not None:
        rows = [next(csv.reader([line], delimiter=delimiter), []) for _, line in numbered]
    else:  # a one-column table: never split its rows, so "0,93" is reported rather than misread
        rows = [[line] for _, line in numbered]
    header = [field.strip() for field in rows[0]]
    index = find_column(header, column, f"{name}, line {first_number}")
    if index is None:
        listed = ", ".join(repr(field) for field in header)
        raise InputError(
            f"{name}, line {first_number}: expected a number or a header with a column {column!r}; "
            f"found {listed} (read as {layout})"
        )
    if len(rows) == 1:
        raise InputError(f"{name}: no {what} values below the header (line {first_number})")
    numbers = [number for number, _ in numbered[1:]]
    data = rows[1:]
    bad = next((k for k, row in enumerate(data) if len(row) != len(header)), None)
    if bad is not None:
        raise InputError(
            f"{name}, line {numbers[bad]}: {len(data[bad])} fields, but the header (line {first_number}) "
            f"has {len(header)}; quote fields that contain the delimiter"
        )
    tokens = [row[index].strip() for row in data]
    return _to_floats(tokens, [f"{name}, line {number}, column {header[index]!r}" for number in numbers])


def find_column(header: list[str], wanted: str, place: str) -> int | None:
    """The index of the column named `wanted` in `header`, in any case (``Accuracy`` for ``accuracy``), or
    None if there is none: the one way every table reader looks a column up by its name.

    Raises
    ------
    InputError
        At `place` (the header's file and line), if more than one column has that name: the same name
        twice, or names that differ only in case (which one was meant cannot be told).

    Examples
    --------
    >>> find_column(["model", "Accuracy"], "accuracy", "a.csv, line 1")
    1
    >>> find_column(["model", "acc"], "accuracy", "a.csv, line 1") is None
    True
    >>> find_column(["Score", "score"], "score", "a.csv, line 1")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: a.csv, line 1: columns 'Score' and 'score' differ only in case; rename one
    """
    matches = [k for k, name in enumerate(header) if name.strip().lower() == wanted.strip().lower()]
    if len(matches) > 1:
        raise InputError(same_name_message(place, [header[k] for k in matches]))
    return matches[0] if matches else None


def same_name_message(place: str, names: list[str]) -> str:
    """The message for a header whose columns `names` have one name, in any case: named twice (or more),
    or differing only in case.

    Examples
    --------
    >>> same_name_message("a.csv, line 1", ["acc", "acc"])
    "a.csv, line 1: the header names column 'acc' 2 times"
    """
    if len(set(names)) == 1:
        return f"{place}: the header names column {names[0]!r} {len(names)} times"
    listed = ", ".join(repr(name) for name in names[:-1]) + f" and {names[-1]!r}"
    return f"{place}: columns {listed} differ only in case; rename one"


def sniff_delimiter(line: str) -> tuple[str | None, str]:
    """The delimiter of a table whose header line is `line` (None: one column), and the layout in words.

    The most frequent of comma, tab and semicolon in `line`; ties go to the first in that order.
    """
    present = [d for d in _DELIMITERS if d in line]
    if not present:
        return None, "one column"
    delimiter = max(present, key=line.count)
    return delimiter, f"{_DELIMITER_NAMES[delimiter]}-separated"


def read_text(path: str | os.PathLike[str]) -> str:
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


#: Each bundled data file's path once known (extracted to a temporary file if benchtrust is zipped).
_bundled_paths: dict[str, Path] = {}


def bundled_file(filename: str) -> Path:
    """The path of a data file shipped in ``benchtrust/data`` (sources in its README): read it, never write.

    Where benchtrust is installed as a zip, the file is extracted once, and removed at exit.
    """
    if filename not in _bundled_paths:
        from importlib import resources

        resource = resources.files("benchtrust") / "data" / filename
        if isinstance(resource, Path):
            _bundled_paths[filename] = resource
        else:
            import atexit
            import contextlib

            stack = contextlib.ExitStack()
            atexit.register(stack.close)
            _bundled_paths[filename] = Path(stack.enter_context(resources.as_file(resource)))
    return _bundled_paths[filename]


def input_name(path) -> str:
    """A file as a result names it among its inputs: as given, except a bundled data file (from
    :func:`bundled_file`), named ``benchtrust/data/NAME`` on every machine.

    Examples
    --------
    >>> input_name("results.csv"), input_name(bundled_file("atari100k_runs.csv"))
    ('results.csv', 'benchtrust/data/atari100k_runs.csv')
    """
    text = os.fspath(path)
    for name, bundled in _bundled_paths.items():
        if os.fspath(bundled) == text:
            return f"benchtrust/data/{name}"
    return text


def json_text(data) -> str:
    """`data` as ``json.dumps(data, indent=2)`` writes it, character for character, in a fraction of its
    time when `data` holds long lists: the layout of every JSON output (``--json``, the batch's file).

    With an indent, :func:`json.dumps` formats every value in Python, one at a time (about 4 s a million
    numbers); without, in C. Here the containers are laid out in Python and each list of plain values (a
    result's scores, dates, teams) is encoded by the C encoder in one call, its item separator carrying the
    line break and the indent.

    Examples
    --------
    >>> print(json_text({"best": 0.9, "scores": [0.9, 0.8], "teams": {"a": [1, 2]}, "none": []}))
    {
      "best": 0.9,
      "scores": [
        0.9,
        0.8
      ],
      "teams": {
        "a": [
          1,
          2
        ]
      },
      "none": []
    }
    """
    parts: list[str] = []
    _json_parts(data, "\n", parts)
    return "".join(parts)


def _json_parts(value, newline: str, parts: list[str]) -> None:
    """Append the parts of `value`'s indented JSON to `parts`; `newline` starts a line at its depth."""
    import json

    inner = newline + "  "
    if isinstance(value, dict) and value:
        for i, (key, item) in enumerate(value.items()):
            head = json.dumps({key: None})[1:-7]  # the key as JSON writes it (numbers, True, None as text)
            parts.append(("{" if i == 0 else ",") + inner + head + ": ")
            _json_parts(item, inner, parts)
        parts.append(newline + "}")
    elif isinstance(value, (list, tuple)) and value:
        if not any(issubclass(kind, (dict, list, tuple)) for kind in set(map(type, value))):
            items = json.dumps(value, separators=("," + inner, ": "))[1:-1]
            parts.append("[" + inner + items + newline + "]")
            return
        for i, item in enumerate(value):
            parts.append(("[" if i == 0 else ",") + inner)
            _json_parts(item, inner, parts)
        parts.append(newline + "]")
    else:
        parts.append(json.dumps(value))


def is_number(token: str) -> bool:
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
        k = next(k for k, token in enumerate(tokens) if not is_number(token))
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
    if "," in token and is_number(token.replace(",", ".", 1)):
        return f"{token!r} is not a number (use '.' as the decimal mark)"
    return f"{token!r} is not a number"


# ---------------------------------------------------------------------------------------------------------
# Tables

#: Score cells that mean "no score", compared case-insensitively after stripping blanks.
_MISSING = frozenset({"", "nan", "na", "null", "none"})
#: What a DataFrame is called in messages, and in :attr:`Leaderboard.source`.
_TABLE = "<table>"


class _Columns:
    """Finding columns and reading their cells as numbers or names, for a file's table or a DataFrame.

    Subclasses provide ``header``, ``header_place``, ``layout``, ``cells(column)`` and ``where(k)``.
    """

    name: str  # the file's name, or "<table>" for a DataFrame, for messages
    header: list[str]  # the column names
    header_place: str  # where the header is, for messages: "runs.csv, line 1"
    layout: str  # how the file was read, for messages: " (read as comma-separated)", or ""

    def cells(self, column: int) -> list[str]:
        """The column's cells as text."""
        raise NotImplementedError

    def where(self, k: int) -> str:
        """Where the k-th cell of a column is, for messages: "runs.csv, line 3"."""
        raise NotImplementedError

    def column(self, wanted: str, *, purpose: str = "") -> int:
        """The index of column ``wanted`` (any case, :func:`find_column`), or an InputError listing the
        columns found."""
        index = find_column(self.header, wanted, self.header_place)
        if index is None:
            found = ", ".join(repr(name) for name in self.header)
            raise InputError(
                f"{self.header_place}: no column {wanted!r}{purpose}; found {found}{self.layout}"
            )
        return index

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
            else np.flatnonzero(~np.isfinite(values) & ~(np.isnan(values) if missing else False)).tolist()
        )
        for k in bad:
            where = f"{self.where(k)}, column {self.header[column]!r}"
            if not is_number(cells[k]):
                raise InputError(f"{where}: {_describe_non_number(cells[k])}")
            value = float(cells[k])
            if not (np.isfinite(value) or (missing and np.isnan(value))):
                raise InputError(f"{where}: {cells[k]!r} is not a finite number")
        assert values is not None  # every cell was checked above
        return values

    def texts(self, column: int, what: str) -> list[str]:
        """The column's cells, none of them empty."""
        cells = self.cells(column)
        if "" in cells:
            k = cells.index("")
            raise InputError(f"{self.where(k)}, column {self.header[column]!r}: empty, expected {what}")
        return cells

    def load(self, labels: list[int], numbers: list[int]) -> _Columns:
        """The table with the columns `labels` (names) and `numbers` (finite numbers) at hand: itself, for
        a table whose cells are already read (:class:`_LongTable` reads them column by column)."""
        return self

    def labels(self, column: int, what: str) -> tuple[np.ndarray, tuple[str, ...]]:
        """The column's cells (none of them empty, :meth:`texts`) as codes: each cell's index among the
        distinct cells in the order they first appear (the order of :func:`pandas.factorize`), and those
        distinct cells."""
        import numpy as np

        cells = self.texts(column, what)
        distinct = tuple(dict.fromkeys(cells))
        position = {label: p for p, label in enumerate(distinct)}
        return np.array(list(map(position.__getitem__, cells)), dtype=np.int64), distinct


class _Table(_Columns):
    """A table's header and string cells, read from a file, with the places to name in messages.

    ``columns[j]`` holds column ``j``'s cells as read (blanks around them kept); ``lines[k]`` is the
    1-based line of row ``k`` in the file; ``layout`` says how the file was split.
    """

    def __init__(self, name, header, columns, lines, header_line, layout):
        self.name = name
        self.header = header
        self.columns = columns
        self.lines = lines
        self.header_line = header_line
        self.header_place = f"{name}, line {header_line}"
        self.layout = f" (read as {layout})"

    def where(self, k: int) -> str:
        return f"{self.name}, line {self.lines[k]}"

    def cells(self, column: int) -> list[str]:
        return list(map(str.strip, self.columns[column]))

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

    name = os.fspath(path)
    lines = read_text(path).replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = next(
        (k for k, line in enumerate(lines) if (stripped := line.strip()) and not stripped.startswith("#")),
        None,
    )
    if start is None:
        raise InputError(
            f"{name}: empty (no lines other than blank or comment lines); expected {what} with a header "
            f"line naming its columns, such as {example}"
        )
    delimiter, layout = sniff_delimiter(lines[start])
    plain = None if delimiter is None else _plain_columns(lines, start, delimiter)
    if plain is not None:
        header, columns, numbers = plain
        return _Table(name, header, columns, numbers[1:], numbers[0], layout)
    records: list[list[str]] | None
    if delimiter is None:
        # a one-column table: never split its rows, so "0,93" is reported rather than misread
        numbers = [number for number, line in enumerate(lines[start:], start=start + 1) if line.strip()]
        records = [[lines[number - 1]] for number in numbers]
    else:
        records, numbers = _csv_records(lines, start, delimiter)
        if records is None:  # a malformed or multi-line record: read line by line, to name the line
            records, numbers = _csv_records_by_line(lines, start, delimiter, name)
    if not records:  # the only non-blank line held nothing but delimiters
        raise InputError(f"{name}, line {start + 1}: expected a header line naming the columns, found none")
    header = [field.strip() for field in records[0]]
    if all(is_number(field) for field in header if field):
        raise InputError(
            f"{name}, line {numbers[0]}: expected a header line naming the columns, such as {example}; "
            f"found {lines[numbers[0] - 1].strip()!r}"
        )
    if len(records) == 1:
        raise InputError(f"{name}: no rows below the header (line {numbers[0]})")
    if set(map(len, records)) != {len(header)}:
        bad = next(k for k, record in enumerate(records) if len(record) != len(header))
        raise InputError(
            f"{name}, line {numbers[bad]}: {len(records[bad])} fields, but the header (line {numbers[0]}) "
            f"has {len(header)}; quote fields that contain the delimiter"
        )
    return _Table(name, header, list(zip(*records[1:], strict=True)), numbers[1:], numbers[0], layout)


def _plain_columns(lines: list[str], start: int, delimiter: str):
    """The header, the columns and the 1-based line numbers (header first) of the table in ``lines[start:]``
    when no field is quoted, every row has the header's number of fields, and the header names its columns
    above at least one row: split at `delimiter` column by column in a few calls over the whole text (no
    list per row). None otherwise: the csv module reads the table then, and names what is wrong.

    Blank lines are skipped, as the csv path skips them; a line of delimiters and blanks alone goes to the
    csv path."""
    body = lines[start:]
    while not body[-1].strip():  # the line after the last line break
        body.pop()
    stripped = list(map(str.strip, body))
    if sum(map(bool, stripped)) < 2:
        return None
    if all(stripped):
        kept, numbers = body, list(range(start + 1, start + 1 + len(body)))
    else:
        keep = [k for k, line in enumerate(stripped) if line]
        kept, numbers = [body[k] for k in keep], [start + 1 + k for k in keep]
        stripped = [stripped[k] for k in keep]
    text = "\n".join(kept)
    if '"' in text or "\0" in text or f"\n{delimiter}" in "\n" + "\n".join(stripped):
        return None
    if len(set(map(operator.methodcaller("count", delimiter), kept))) != 1:
        return None
    width = kept[0].count(delimiter) + 1
    fields = text.replace("\n", delimiter).split(delimiter)
    header = [field.strip() for field in fields[:width]]
    if all(is_number(field) for field in header if field):
        return None
    return header, [fields[width + j :: width] for j in range(width)], numbers


def _csv_records(lines: list[str], start: int, delimiter: str) -> tuple[list[list[str]] | None, list[int]]:
    """The non-blank records of ``lines[start:]`` and their 1-based line numbers, parsed by the csv module
    in one call (a million rows in about a second); ``(None, [])`` when a record is malformed or spans
    lines, whose line numbers only a line-by-line reading gives.

    The garbage collector is paused meanwhile: the records (lists of strings) hold no cycles, and
    collections triggered by a million new lists took two thirds of the time.
    """
    import csv
    import gc
    import io

    reader = csv.reader(io.StringIO("\n".join(lines[start:]) + "\n"), delimiter=delimiter, strict=True)
    collecting = gc.isenabled()
    gc.disable()
    try:
        rows = list(reader)
    except csv.Error:
        return None, []
    finally:
        if collecting:
            gc.enable()
    if reader.line_num != len(rows):  # a quoted field holds a line break
        return None, []
    texts = list(map(str.strip, map("".join, rows)))  # "" for a blank record
    if all(texts):
        return rows, list(range(start + 1, start + 1 + len(rows)))
    kept = [k for k, text in enumerate(texts) if text]
    return [rows[k] for k in kept], [start + 1 + k for k in kept]


def _csv_records_by_line(
    lines: list[str], start: int, delimiter: str, name: str
) -> tuple[list[list[str]], list[int]]:
    """As :func:`_csv_records`, one record at a time, so that a malformed one is named by its line."""
    import csv

    records: list[list[str]] = []
    numbers: list[int] = []
    reader = csv.reader((line + "\n" for line in lines[start:]), delimiter=delimiter, strict=True)
    while True:
        number = start + reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            return records, numbers
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


def table_of(source, *, example: str, what: str = "a table") -> _Table | _FrameTable:
    """The table in file `source` (see :func:`read_table`), or `source` itself if it is a DataFrame."""
    if isinstance(source, (str, os.PathLike)):
        return read_table(source, example=example, what=what)
    return frame_table(source)


def long_table_of(source, *, example: str, what: str = "a table") -> _Columns:
    """As :func:`table_of`, for a long table (one row per observation, millions of rows): a file of at
    least :data:`COLUMNAR_BYTES` bytes is read column by column (:class:`_LongTable`), in bounded memory.

    The result is the same, and so is every message about a mistake in the file: the columnar reading
    takes only files that :func:`read_table` reads without a remark (UTF-8, no blank line below the
    header, every record on one line with the header's number of fields, quotes as the csv module's
    strict reading wants them) and cells that it converts the same way; any other file, and any file
    with a cell that is not as expected, is read by :func:`read_table`, which names the line and the
    column at fault. Ask for the columns with :meth:`_Columns.load` before reading them, then read them
    with :meth:`_Columns.labels` and :meth:`_Columns.numbers`.

    Examples
    --------
    >>> import pandas as pd
    >>> table = long_table_of(pd.DataFrame({"method": ["a", "b", "a"]}), example="method")
    >>> codes, names = table.load([0], []).labels(0, "a method name")
    >>> codes.tolist(), names
    ([0, 1, 0], ('a', 'b'))
    """
    if isinstance(source, (str, os.PathLike)):
        try:
            large = os.path.getsize(source) >= COLUMNAR_BYTES
        except OSError:  # read_table names what is wrong with the file
            large = False
        table = _LongTable.open(source, example=example, what=what) if large else None
        return read_table(source, example=example, what=what) if table is None else table
    return frame_table(source)


class _LongTable(_Columns):
    """A long table in a file, read column by column by pandas' C parser (:func:`long_table_of`).

    :meth:`open` reads the header as :func:`read_table` does and checks the whole file in blocks of
    :data:`_SCAN_BYTES` without keeping it: UTF-8, no NUL character, line breaks ``\\n`` or ``\\r\\n``,
    and every line below the header with the header's number of fields (so no line is blank: row ``k``
    is on line ``header_line + 1 + k``), counted by numpy, or, in a file with quotes, by the csv module
    as :func:`read_table` parses it (:func:`_checked_records`: each record on one line, strictly
    quoted; about twice the time). :meth:`load` then reads the columns asked for
    in blocks of :data:`_CHUNK_ROWS` rows: names as codes (:func:`pandas.factorize` of each block, its
    distinct names stripped as :func:`read_table`'s cells are), numbers parsed by the C parser
    (correctly rounded, as ``float``). A score that pandas refuses or that is not finite hands the file
    to :func:`read_table`, whose message names it (a line of blanks and delimiters alone, which
    :func:`read_table` skips, is one: its score is empty); an empty name is named here, as
    :func:`read_table` names it.

    A 20-million-row table of method, task, run and score (600 MB) holds about 400 MB read: three codes
    of 4 bytes and a float of 8 bytes a row.
    """

    def __init__(self, path, name, header, header_line, offset, rows, delimiter, layout, example, what):
        self.path = path
        self.name = name
        self.header = header
        self.header_line = header_line
        self.header_place = f"{name}, line {header_line}"
        self.layout = f" (read as {layout})"
        self._offset = offset
        self._rows = rows
        self._delimiter = delimiter
        self._quoting = 3  # csv.QUOTE_NONE, or csv.QUOTE_MINIMAL for a file with quotes (:meth:`open`)
        self._reading = {"example": example, "what": what}
        self._labels: dict[int, tuple[np.ndarray, tuple[str, ...]]] = {}
        self._numbers: dict[int, np.ndarray] = {}

    @classmethod
    def open(cls, path, *, example: str, what: str) -> _LongTable | None:
        """The table in file `path`, its header read and the whole file checked; None if it is a file
        that :func:`read_table` must read (to read it as it does, or to name what is wrong with it)."""
        import csv

        name = os.fspath(path)
        try:
            with open(path, "rb") as file:
                size = file.seek(0, os.SEEK_END)
                file.seek(max(0, size - 2**16))
                tail = file.read()
                file.seek(0)
                head = file.read(2**20)
                found = _header_line(head)
                if found is None:
                    return None
                header_line, line, offset = found
                delimiter, layout = sniff_delimiter(line)
                if delimiter is None or "\0" in line:
                    return None
                try:
                    fields = next(csv.reader([line], delimiter=delimiter, strict=True))
                except csv.Error:
                    return None
                header = [field.strip() for field in fields]
                if all(is_number(field) for field in header if field):
                    return None
                # the end of the last line that is not blank: blank lines at the end are skipped as
                # read_table skips them
                blanks = " \t\r\n\f\v".replace(delimiter, "").encode()
                end = size - (len(tail) - len(tail.rstrip(blanks)))
                if end <= offset or (end == size - len(tail) and size > len(tail)):
                    return None
                file.seek(offset)
                rows, quoted = _checked_lines(file, end - offset, delimiter.encode(), len(header) - 1)
                if rows and quoted:
                    file.seek(offset)
                    if _checked_records(file, end - offset, delimiter, len(header)) != rows:
                        return None
        except OSError:
            return None
        if not rows:
            return None
        table = cls(path, name, header, header_line, offset, rows, delimiter, layout, example, what)
        table._quoting = 0 if quoted else 3  # csv.QUOTE_MINIMAL, or csv.QUOTE_NONE: no quote in the file
        return table

    def where(self, k: int) -> str:
        return f"{self.name}, line {self.header_line + 1 + k}"

    def load(self, labels: list[int], numbers: list[int]) -> _Columns:
        """The table with these columns read, or the table as :func:`read_table` reads it when a cell is
        not as expected."""
        if len(set(labels)) < len(labels) or set(labels) & set(numbers):  # a column read twice
            return read_table(self.path, **self._reading)
        import numpy as np
        import pandas as pd

        columns = sorted(set(labels) | set(numbers))
        codes = {j: np.empty(self._rows, dtype=np.int32) for j in labels}
        distinct: dict[int, dict[str, int]] = {j: {} for j in labels}
        values = {j: np.empty(self._rows, dtype=np.float64) for j in numbers}
        dtypes = {j: (object if j in codes else np.float64) for j in columns}
        # pandas 3 parses numbers correctly rounded; before, only its "round_trip" parser (Python's) does
        exact = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
        done = 0
        try:
            with open(self.path, "rb") as file:
                file.seek(self._offset)
                chunks = pd.read_csv(
                    file,
                    sep=self._delimiter,
                    header=None,
                    names=list(range(len(self.header))),
                    usecols=columns,
                    dtype=dtypes,
                    quoting=self._quoting,
                    na_filter=False,
                    engine="c",
                    encoding="utf-8",
                    nrows=self._rows,
                    chunksize=_CHUNK_ROWS,
                    **exact,
                )
                for chunk in chunks:
                    rows = slice(done, done + len(chunk))
                    for j in codes:
                        codes[j][rows] = _global_codes(chunk[j].to_numpy(), distinct[j])
                    for j in values:
                        values[j][rows] = chunk[j].to_numpy(dtype=np.float64)
                    done += len(chunk)
        except (OSError, ValueError, UnicodeError):  # a cell pandas does not convert: read_table names it
            return read_table(self.path, **self._reading)
        if done != self._rows or not all(np.isfinite(v).all() for v in values.values()):
            return read_table(self.path, **self._reading)
        self._labels.update((j, (codes[j], tuple(distinct[j]))) for j in codes)
        self._numbers.update(values)
        return self

    def labels(self, column: int, what: str) -> tuple[np.ndarray, tuple[str, ...]]:
        """As :meth:`_Columns.labels`, the codes int32; each column is read once, then held by the caller
        alone."""
        import numpy as np

        codes, distinct = self._labels.pop(column)
        if "" in distinct:
            k = int(np.argmax(codes == distinct.index("")))
            raise InputError(f"{self.where(k)}, column {self.header[column]!r}: empty, expected {what}")
        return codes, distinct

    def numbers(self, column: int, *, missing: bool = False) -> np.ndarray:
        """The column's numbers, all finite (:meth:`load` handed any other file to :func:`read_table`);
        each column is read once, then held by the caller alone."""
        return self._numbers.pop(column)


def _header_line(head: bytes) -> tuple[int, str, int] | None:
    """The 1-based line number and the text of the header line in `head`, the first bytes of a file (the
    first line that is not blank and does not start with ``#``, as :func:`read_table` finds it), and
    the offset of the line below it; None if `head` holds no such line ended by ``\\n``, or a line
    break ``\\r`` alone, or a line that is not UTF-8 before it."""
    start = len(_UTF8_BOM) if head.startswith(_UTF8_BOM) else 0
    number = 0
    while (end := head.find(b"\n", start)) >= 0:
        number += 1
        raw = head[start:end].removesuffix(b"\r")
        if b"\r" in raw:
            return None
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            return None
        if (stripped := line.strip()) and not stripped.startswith("#"):
            return number, line, end + 1
        start = end + 1
    return None


def _blocks(file, size: int):
    """The next `size` bytes of `file` in blocks of whole lines of about :data:`_SCAN_BYTES`, each ended
    by ``\\n`` (one added to the last line if it has none); a block of ``b""`` if the file is shorter."""
    carry = b""
    left = size
    while left > 0:
        read = file.read(min(_SCAN_BYTES, left))
        if not read:  # the file is shorter than it was
            yield b""
            return
        left -= len(read)
        block = carry + read
        if left > 0:
            cut = block.rfind(b"\n") + 1
            block, carry = block[:cut], block[cut:]
            if not block:  # a line longer than a block
                continue
        else:
            block += b"\n"
        yield block


def _checked_lines(file, size: int, delimiter: bytes, delimiters: int) -> tuple[int, bool]:
    """The number of lines in the next `size` bytes of `file` (the last needs no line break), and whether
    a quote character is among them; 0 lines unless every line is UTF-8, holds no NUL character, no
    ``\\r`` but before its ``\\n``, and (in the blocks without quotes) exactly `delimiters`
    delimiters."""
    import numpy as np

    lines = 0
    quoted = False
    for block in _blocks(file, size):
        if not block or b"\0" in block or (b"\r" in block and block.count(b"\r") != block.count(b"\r\n")):
            return 0, quoted
        if not block.isascii():
            try:
                block.decode("utf-8")
            except UnicodeDecodeError:
                return 0, quoted
        data = np.frombuffer(block, dtype=np.uint8)
        breaks = np.flatnonzero(data == 10)
        if b'"' in block:  # the fields are counted by _checked_records
            quoted = True
        elif (
            np.diff(np.searchsorted(np.flatnonzero(data == delimiter[0]), breaks), prepend=0) != delimiters
        ).any():
            return 0, quoted
        lines += len(breaks)
    return lines, quoted


def _checked_records(file, size: int, delimiter: str, fields: int) -> int:
    """The number of records in the next `size` bytes of `file`, parsed by the csv module as
    :func:`read_table` parses a table with quotes; 0 unless each record is on a line of its own, has
    `fields` fields, not all of them blank, and is quoted as the csv module's strict reading wants."""
    import csv

    lines = (line + "\n" for block in _blocks(file, size) for line in block.decode("utf-8").split("\n")[:-1])
    reader = csv.reader(lines, delimiter=delimiter, strict=True)
    records = 0
    try:
        for record in reader:
            records += 1
            if len(record) != fields or not "".join(record).strip():
                return 0
    except csv.Error:
        return 0
    return records if reader.line_num == records else 0


def _global_codes(cells: np.ndarray, seen: dict[str, int]) -> np.ndarray:
    """The codes of a block's cells (an object array of strings) among the stripped names in `seen`
    (each name's code, in the order they first appear in the file), adding the names first seen in this
    block. A ValueError if a cell is missing (a line short of fields)."""
    import numpy as np
    import pandas as pd

    local, names = pd.factorize(cells)  # codes in the order the block's names first appear
    if (local < 0).any() or not all(isinstance(name, str) for name in names):
        raise ValueError("a missing cell")
    mapping = np.array([seen.setdefault(name.strip(), len(seen)) for name in names], dtype=np.int32)
    return mapping[local]


def frame_table(frame) -> _FrameTable:
    """Wrap a DataFrame, or raise InputError if `frame` is neither a path nor a DataFrame."""
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise InputError(f"source: expected a file path or a pandas DataFrame, got {type(frame).__name__}")
    if len(frame) == 0:
        raise InputError(f"{_TABLE}: no rows")
    return _FrameTable(frame)


def _parse_scores(tokens: list[str], table, column: int) -> np.ndarray:
    """Stripped score cells as floats, NaN for a missing cell; InputError on anything else not a score."""
    import numpy as np

    cleaned = ["nan" if token.lower() in _MISSING else token for token in tokens]
    try:
        values = np.array(cleaned, dtype=np.float64)
    except ValueError:
        k = next(k for k, token in enumerate(cleaned) if not is_number(token))
        hint = ""
        if "," in tokens[k] and is_number(tokens[k].replace(",", ".", 1)):
            hint = " (use '.' as the decimal mark)"
        raise InputError(
            f"{table.where(k)}, column {table.header[column]!r}: expected a number, got {tokens[k]!r}{hint}"
        ) from None
    return _check_range(values, tokens, table, column)


def _check_range(values: np.ndarray, tokens: list[str] | None, table, column: int) -> np.ndarray:
    """`values`, if each is NaN (missing) or in [0, 1]; else InputError naming the first that is not.

    The scores of a leaderboard are proportions (an accuracy, an error rate, an AUC). A score outside
    [0, 1] is refused as a loss or distance on another scale; the message suggests percentages only when
    every score of the column looks like one (0, or in (1, 100]).
    """
    import numpy as np

    outside = ~np.isnan(values) & ((values < 0) | (values > 1))
    if outside.any():
        k = int(np.argmax(outside))
        given = values[~np.isnan(values)]
        percentages = bool(np.all((given == 0) | ((given > 1) & (given <= 100))))
        hint = "; if the scores are percentages, divide them by 100" if percentages else ""
        raise InputError(
            f"{table.where(k)}, column {table.header[column]!r}: expected a score between 0 and 1, "
            f"got {tokens[k] if tokens is not None else float(values[k])!r}: the accuracy and AUC models "
            "need proportions in [0, 1], not a loss or distance on another scale (log-loss, RMSE)"
            f"{hint}"
        )
    return values
