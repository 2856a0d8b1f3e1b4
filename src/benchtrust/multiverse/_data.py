"""Reading a benchmark's results (long format), its table of data-set characteristics, and the tables
benchtrust writes (:func:`read_frame`, for the functions that take a table back).

The results hold one row per (data set, method, resampling iteration), with one column per measure; an
empty or NA cell, or one of a measure's ``failed_values``, is a missing value (Nießl et al. 2022, §2.3.1).
The failure rate r of a (data set, method) pair is the share of its rows that failed: with ``failure:
any`` (the paper's convention) a row failed if any measure is missing in it, with ``each`` a measure's
rate counts only its own missing values. A measure's observed values are kept either way.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping

import numpy as np

from benchtrust._io import InputError, input_name, read_table, table_of

__all__ = ["Results", "file_names", "read_characteristics", "read_frame", "read_results"]

_TRUE, _FALSE = ("true", "1"), ("false", "0", "")


def file_names(*sources) -> tuple[str, ...]:
    """The `sources` that name files, as given (the ``inputs`` of a result), leaving out tables, specs
    and None.

    Examples
    --------
    >>> from pathlib import Path
    >>> file_names("results.csv", None, {"measures": {}}, Path("orders.csv"))
    ('results.csv', 'orders.csv')
    """
    return tuple(input_name(source) for source in sources if isinstance(source, (str, os.PathLike)))


@dataclasses.dataclass(frozen=True, eq=False)
class Results:
    """A benchmark's results, arranged for imputation.

    Attributes
    ----------
    datasets, methods : tuple of str
        In order of first appearance (methods: the spec's order when it lists them).
    values : mapping of str to numpy.ndarray
        Per measure, shape (data sets, methods, iterations): nan where the measure is missing or the
        iteration does not exist (pairs may have different numbers of iterations).
    failure_rate : mapping of str to numpy.ndarray
        Per measure, shape (data sets, methods): failed rows / rows of the pair.
    rows : numpy.ndarray
        Shape (data sets, methods): the number of rows (iterations) of each pair.
    source : str
        The file's name, or ``<table>``.
    """

    datasets: tuple[str, ...]
    methods: tuple[str, ...]
    values: Mapping[str, np.ndarray]
    failure_rate: Mapping[str, np.ndarray]
    rows: np.ndarray
    source: str


def read_results(results, spec) -> Results:
    """Read long-format `results` (a CSV/TSV path or a DataFrame) with the columns `spec` names.

    Raises
    ------
    benchtrust.InputError
        Naming the file, line and column: a missing column, a cell that is not a number, a repeated
        (data set, method, iteration), a (data set, method) pair without rows, or a method the spec lists
        that has no results.
    """
    import pandas as pd

    columns = spec.columns
    example = f"{columns['dataset']},{columns['method']},{','.join(m.column for m in spec.measures)}"
    table = table_of(results, example=example, what="a results table")
    purpose = f" (named in {spec.source})"
    dataset_column = table.column(columns["dataset"], purpose=purpose)
    method_column = table.column(columns["method"], purpose=purpose)
    datasets = pd.Series(table.texts(dataset_column, "a data-set name"))
    methods = pd.Series(table.texts(method_column, "a method name"))
    failed = np.zeros(len(datasets), dtype=bool)
    raw = {}
    for measure in spec.measures:
        values = table.numbers(table.column(measure.column, purpose=purpose), missing=True)
        values[np.isin(values, measure.failed_values)] = np.nan
        raw[measure.name] = values
        failed |= np.isnan(values)

    if columns["iteration"] is not None:
        iteration_column = table.column(columns["iteration"], purpose=purpose)
        keys = pd.DataFrame({"d": datasets, "m": methods, "i": table.texts(iteration_column, "an iteration")})
        repeated = keys.duplicated()
        if repeated.any():
            k = int(np.argmax(repeated.to_numpy()))
            raise InputError(
                f"{table.where(k)}: data set {datasets[k]!r}, method {methods[k]!r}, iteration "
                f"{keys['i'][k]!r} appears a second time"
            )

    dataset_codes, dataset_names = pd.factorize(datasets)
    method_codes, method_names = _method_codes(methods, spec, table)
    keep = method_codes >= 0
    dataset_codes, method_codes = dataset_codes[keep], method_codes[keep]
    pair = pd.Series(dataset_codes * len(method_names) + method_codes)
    iteration = pair.groupby(pair).cumcount().to_numpy()
    shape = (len(dataset_names), len(method_names), int(iteration.max()) + 1)
    rows = np.bincount(pair, minlength=shape[0] * shape[1]).reshape(shape[:2])
    if (rows == 0).any():
        d, m = np.argwhere(rows == 0)[0]
        raise InputError(
            f"{table.name}: no rows for data set {dataset_names[d]!r} and method {method_names[m]!r}; every "
            "method needs rows (failed ones too) on every data set"
        )

    arranged, rates = {}, {}
    for measure in spec.measures:
        values = raw[measure.name][keep]
        grid = np.full(shape, np.nan)
        grid[dataset_codes, method_codes, iteration] = values
        arranged[measure.name] = grid
        miss = failed[keep] if spec.failure == "any" else np.isnan(values)
        failures = np.bincount(pair[miss], minlength=shape[0] * shape[1]).reshape(shape[:2])
        rates[measure.name] = failures / rows
    return Results(tuple(dataset_names), tuple(method_names), arranged, rates, rows, table.name)


def _method_codes(methods, spec, table):
    """Codes of the rows' methods (−1: not ranked) and the ranked methods' names."""
    import pandas as pd

    if spec.methods is None:
        return pd.factorize(methods)
    present = set(methods)
    for k, name in enumerate(spec.methods):
        if name not in present:
            raise InputError(f"{spec.source} (methods.{k}): method {name!r} has no results in {table.name}")
    names = pd.Index(spec.methods)
    return names.get_indexer(methods), names


def read_characteristics(characteristics, datasets, *, dataset_column: str):
    """The data-set characteristics as a DataFrame indexed by data set (None if `characteristics` is).

    `dataset_column` names the data sets. Every data set of the results must have a row; extra rows are
    ignored. A column that is not all numbers is kept as text; a rule that needs its numbers reports its
    first bad cell.
    """
    import pandas as pd

    if characteristics is None:
        return None
    table = table_of(characteristics, example=f"{dataset_column},n,p", what="a characteristics table")
    key = table.column(dataset_column, purpose=" naming the data sets")
    names = table.texts(key, "a data-set name")
    if len(set(names)) < len(names):
        k = next(k for k, name in enumerate(names) if name in names[:k])
        raise InputError(f"{table.where(k)}: data set {names[k]!r} has a second row")
    missing = [name for name in datasets if name not in set(names)]
    if missing:
        raise InputError(f"{table.name}: no row for data set {missing[0]!r} of the results")
    frame: dict[str, np.ndarray | list[str]] = {}
    not_numeric: dict[str, str] = {}
    for k, column in enumerate(table.header):
        if k != key:
            try:
                frame[column] = table.numbers(k, missing=True)
            except InputError as exc:
                frame[column], not_numeric[column] = table.cells(k), str(exc)
    out = pd.DataFrame(frame, index=names)
    out.attrs["not_numeric"] = not_numeric  # the first bad cell of each column that is not all numbers
    return out


def read_frame(source, *, what: str, example: str, numbers=(), flags=()):
    """`source` as a DataFrame: itself unless it is a path, else the table in that file.

    Of a file's columns, those named in `numbers` are read as numbers and those in `flags` as True or
    False (``True``/``False``, ``1``/``0``; empty is False), as pandas writes them; the others are text.
    Anything but a path is returned as it is, for the caller to check.

    Raises
    ------
    benchtrust.InputError
        Naming the file, line and column of a cell that is not what its column holds.
    """
    import pandas as pd

    if not isinstance(source, (str, os.PathLike)):
        return source
    table = read_table(source, example=example, what=what)
    frame = pd.DataFrame({name: table.cells(k) for k, name in enumerate(table.header)})
    for k, name in enumerate(table.header):
        if name in numbers:
            frame[name] = table.numbers(k)
        elif name in flags:
            frame[name] = [_flag(cell, table, k, row) for row, cell in enumerate(table.cells(k))]
    return frame


def _flag(cell, table, column, row) -> bool:
    if cell.lower() in _TRUE + _FALSE:
        return cell.lower() in _TRUE
    where = f"{table.where(row)}, column {table.header[column]!r}"
    raise InputError(f"{where}: expected True or False, got {cell!r}")
