"""Reading a claims table as a stream of (line number, fields) records, the header first: from a CSV/TSV
file (delimiter sniffed, UTF-8, blank lines skipped) or a pandas DataFrame (cells as a CSV of it would hold
them). :func:`~benchtrust.consistency.check_batch` and :func:`~benchtrust.consistency._batch.read_folding`
read their files this way, and their cells as whole or real numbers (a mistake in a cell raises
:class:`_RowError`, naming its column).
"""

from __future__ import annotations

import contextlib
import csv
import itertools
import numbers
import os
from collections.abc import Generator

from benchtrust._io import InputError, sniff_delimiter

#: What a claims table's header may look like, for the message about an empty file.
_EXAMPLE = "id,positives,negatives,acc,sens,spec"


def _is_frame(claims) -> bool:
    """Whether `claims` is a DataFrame; InputError unless it is one or a path."""
    if isinstance(claims, (str, os.PathLike)):
        return False
    import pandas as pd

    if not isinstance(claims, pd.DataFrame):
        raise InputError(f"claims: expected a file path or a pandas DataFrame, got {type(claims).__name__}")
    return True


def _records(claims) -> Generator[tuple[int, list[str]], None, None]:
    """Yield (line number, fields) of the header and of each claim of a file or DataFrame."""
    return _frame_records(claims) if _is_frame(claims) else _file_records(claims)


def _file_records(path) -> Generator[tuple[int, list[str]], None, None]:
    """Yield (line number, fields) of the header line and of each row with a non-blank field."""
    name = os.fspath(path)
    try:
        stream = open(path, encoding="utf-8-sig", newline="")  # noqa: SIM115 (closed by the with below)
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, expected a file") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    with stream:
        skipped = 0
        try:
            for line in stream:
                if line.strip() and not line.lstrip().startswith("#"):
                    break
                skipped += 1
            else:
                raise InputError(
                    f"{name}: empty; expected a header line naming the columns, such as {_EXAMPLE}"
                )
        except UnicodeDecodeError as exc:
            raise InputError(_not_utf8(path, exc)) from None
        delimiter, _ = sniff_delimiter(line)
        reader = csv.reader(itertools.chain([line], stream), delimiter=delimiter or ",", strict=True)
        while True:
            number = skipped + reader.line_num + 1
            try:
                record = next(reader)
            except StopIteration:
                break
            except UnicodeDecodeError as exc:
                raise InputError(_not_utf8(path, exc)) from None
            except csv.Error as exc:
                raise InputError(
                    f"{name}, line {number}: {exc} (a quoted field must end at a delimiter; write a quote "
                    'inside quotes as "")'
                ) from None
            if number == skipped + 1 or any(field.strip() for field in record):
                yield number, record


def _not_utf8(path, exc):
    """The message for a file that is not UTF-8, naming the line of its first bad byte.

    The text stream decodes the file in blocks, so `exc` does not say where in the file the bad byte is;
    the file is read again, in binary and block by block, to find its line.
    """
    import codecs

    decoder = codecs.getincrementaldecoder("utf-8")()
    line, byte, found = 1, exc.object[exc.start], False
    with contextlib.suppress(OSError), open(path, "rb") as stream:
        while not found:
            block = stream.read(1 << 20)
            try:
                decoder.decode(block, final=not block)
            except UnicodeDecodeError as bad:
                # the bad byte may sit in bytes the decoder held back from the previous block
                at = max(bad.start - (len(bad.object) - len(block)), 0)
                line += block.count(b"\n", 0, at)
                byte, found = bad.object[bad.start], True
            else:
                line += block.count(b"\n")
            if not block:
                break
    where = f", line {line}" if found else ""
    return f"{os.fspath(path)}{where}: not UTF-8 text (byte 0x{byte:02x}); save the file as UTF-8"


def _frame_records(frame) -> Generator[tuple[int, list[str]], None, None]:
    """Yield (line, fields) of a DataFrame's header and rows, the cells as text, as a CSV of it would read."""
    yield 1, [str(column) for column in frame.columns]
    for position, cells in enumerate(frame.itertuples(index=False, name=None)):
        fields = [_text(cell) for cell in cells]
        if any(field.strip() for field in fields):  # an empty row is a blank line in the CSV
            yield position + 2, fields


def _text(cell) -> str:
    """A DataFrame cell as the text a CSV file would hold: numbers in their shortest form, missing as ''."""
    import pandas as pd

    if isinstance(cell, str):
        return cell
    if isinstance(cell, bool) or not isinstance(cell, numbers.Real):
        return "" if cell is None or cell is pd.NA or cell is pd.NaT else str(cell)
    if isinstance(cell, numbers.Integral):
        return str(int(cell))
    number = float(cell)
    return "" if number != number else repr(number)  # NaN: a missing cell


class _RowError(Exception):
    """A mistake in one row: the column at fault (or None) and what is wrong."""

    def __init__(self, column, message):
        super().__init__(message)
        self.column = column


def _whole(text: str | None, column: str) -> int:
    """The cell `text` of `column` as a whole number >= 0."""
    if text is None:
        raise _RowError(column, "empty, expected a whole number")
    try:
        number = float(text)
    except ValueError:
        number = -1.0
    if not (number >= 0 and number.is_integer() and number < 2**53):
        raise _RowError(column, f"expected a whole number >= 0, got {text!r}")
    return int(number)


def _yes_no(text: str, column: str) -> bool:
    """The cell `text` of `column` as True (``yes``, ``true``, ``1``) or False (``no``, ``false``, ``0``)."""
    answers = {"yes": True, "true": True, "1": True, "no": False, "false": False, "0": False}
    if text.lower() not in answers:
        raise _RowError(column, f"expected yes or no, got {text!r}")
    return answers[text.lower()]


def _real(text: str, column: str) -> float:
    """The cell `text` of `column` as a finite number."""
    try:
        number = float(text)
    except ValueError:
        number = float("nan")
    if number != number or number in (float("inf"), float("-inf")):
        raise _RowError(column, f"expected a number, got {text!r}")
    return number
