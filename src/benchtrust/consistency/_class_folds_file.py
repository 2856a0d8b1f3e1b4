"""Reading the class counts of the folds of a multiclass cross-validation from a CSV file.

The file names the classes in a header line, one column per class (in the order of ``class_counts``),
then holds one line per fold with its items of each class::

    setosa,versicolor,virginica
    10,10,10
    20,5,5

It is read as :func:`~benchtrust.consistency.check_batch` reads a claims table (:mod:`._records`): UTF-8,
the delimiter (comma, tab or semicolon) taken from the header line, blank lines and lines starting with
``#`` skipped. The file is only read, never modified; every mistake is an
:class:`~benchtrust.InputError` naming the file and, where there is one, the line and the column.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from benchtrust._io import InputError, is_number, same_name_message
from benchtrust.consistency._records import _file_records, _RowError, _whole

if TYPE_CHECKING:
    from collections.abc import Sequence


def read_class_folds(
    path: str | os.PathLike[str], *, class_counts: Sequence[int] | None = None, folds: int | None = None
) -> list[list[int]]:
    """The k × C class counts of the folds in a CSV file: one line per fold, one column per class.

    Parameters
    ----------
    path : str or os.PathLike
        The file: a header line naming the classes, then one line of whole counts >= 0 per fold.
    class_counts : sequence of int, optional
        r_1..r_C, the items of each class in the data set: the file must have C columns, in this order,
        whose sums over the folds are these counts.
    folds : int, optional
        k: the file must hold k folds.

    Returns
    -------
    list of list of int
        The folds' class counts in file order, one list of C counts per fold: the ``folding`` of
        :func:`~benchtrust.consistency.check_multiclass_kfold`.

    Raises
    ------
    InputError
        Naming the file, the line and the column: a header that names no classes (numbers, an empty or
        repeated name), a line with the wrong number of fields, a count that is not a whole number >= 0, a
        fold with no items, no folds; or a file that does not match ``class_counts`` or ``folds``.

    See Also
    --------
    check_multiclass_kfold : Averaged multiclass scores of k-fold cross-validation; its ``folding`` takes
        these folds.
    read_folding : The folds' counts (p_i, n_i) of a binary cross-validation, from a CSV file.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §4.3-4.4: the folds'
           class counts the mean of scores is tested with when the folds are known, here of C classes.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "folds.csv")
    ...     _ = path.write_text("a,b,c\\n2,2,1\\n2,1,2\\n", encoding="utf-8")
    ...     read_class_folds(path, class_counts=[4, 3, 3], folds=2)
    [[2, 2, 1], [2, 1, 2]]
    """
    name = os.fspath(path)
    records = _file_records(path)
    header_line, fields = next(records)
    header = [field.strip() for field in fields]
    _check_header(name, header_line, header, class_counts)
    table: list[list[int]] = []
    lines: list[int] = []
    for line, fields in records:
        where = f"{name}, line {line}"
        if len(fields) != len(header):
            raise InputError(
                f"{where}: {len(fields)} fields, but the header (line {header_line}) names {len(header)} "
                "classes"
            )
        try:
            row = [_whole(text.strip() or None, column) for text, column in zip(fields, header, strict=True)]
        except _RowError as exc:
            raise InputError(f"{where}, column {exc.column!r}: {exc}") from None
        if not any(row):
            raise InputError(f"{where}: a fold with no items (every class count is 0)")
        table.append(row)
        lines.append(line)
    if not table:
        raise InputError(f"{name}: no folds below the header (line {header_line}); expected one per fold")
    if folds is not None and len(table) != folds:
        raise InputError(
            f"{name}: {len(table)} folds (lines {lines[0]}-{lines[-1]}), expected {folds}, one line per "
            f"fold (folds={folds})"
        )
    if class_counts is not None:
        totals = [sum(column) for column in zip(*table, strict=True)]
        for column, total, expected in zip(header, totals, class_counts, strict=True):
            if total != expected:
                raise InputError(
                    f"{name}, column {column!r}: the folds hold {total} items of this class, expected "
                    f"{expected} (class_counts={','.join(map(str, class_counts))})"
                )
    return table


def _check_header(name, line, header, class_counts):
    """InputError unless ``header`` names the classes: one name per class, none empty, no name twice."""
    where = f"{name}, line {line}"
    if all(is_number(field) for field in header):
        raise InputError(
            f"{where}: expected a header line naming the classes (such as setosa,versicolor,virginica), "
            "found numbers"
        )
    for k, field in enumerate(header):
        if not field:
            raise InputError(f"{where}, column {k + 1}: empty, expected the name of a class")
        same = [other for other in header if other.lower() == field.lower()]
        if len(same) > 1:
            raise InputError(same_name_message(where, same))
    if class_counts is not None and len(header) != len(class_counts):
        given = ",".join(map(str, class_counts))
        raise InputError(
            f"{where}: {len(header)} columns, expected one per class: {len(class_counts)} "
            f"(class_counts={given})"
        )
