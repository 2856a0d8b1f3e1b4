"""Many claims at once: one row of a table per claim, each checked as paper §3 (one test set), §4 (k folds)
or under each candidate protocol (the audit of §5.1).

A claims table has one row per reported result: the counts of the experiment (``positives``, ``negatives``,
and for cross-validation ``folds`` and its options), or the candidate protocols to try, and the reported
scores, one column per score. Each row gets its own verdict; a row with a mistake gets the verdict
``"error"`` with a message naming its line and column, and the other rows are still checked. Rows are
read as a stream, so a table of 100,000 claims needs memory for its verdicts only. (That is why the claims
are not read with :func:`benchtrust._io.table_of`, which holds a whole table and refuses it for one bad
row.) They are checked in this process for the first half-second, and on to the end if the rest would
take less than some 5 s more; otherwise, if ``n_jobs`` allows, the rest is checked in parallel with joblib:
on the cores of this machine, or on the workers of a dask.distributed cluster within
``joblib.parallel_config(backend="dask")``. Each verdict depends on its row alone and the verdicts are put
back in table order, so the result is the same however the rows were shared out.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import itertools
import os
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchtrust._io import InputError, json_text
from benchtrust._result import Description, Result
from benchtrust._write import write_atomic
from benchtrust.consistency import _text
from benchtrust.consistency._batch_protocols import check_protocols_row, protocols_row
from benchtrust.consistency._datasets import dataset
from benchtrust.consistency._kfold import aggregation_name, check_kfold
from benchtrust.consistency._records import (
    _file_records,
    _is_frame,
    _real,
    _records,
    _RowError,
    _whole,
    _yes_no,
)
from benchtrust.consistency._scores import score as _score
from benchtrust.consistency._test_set import check_test_set
from benchtrust.consistency._text import batch_counts, batch_verdict, claim_message

if TYPE_CHECKING:
    from collections.abc import Sequence

    import pandas as pd

__all__ = ["BatchResult", "check_batch", "output_format", "read_folding"]

#: The columns of a claims table that are not scores, in the order the documentation lists them.
OPTIONS = (
    "id",
    "positives",
    "negatives",
    "dataset",
    "protocols",
    "folds",
    "repeats",
    "aggregation",
    "folding",
    "zero_division",
    "fold_sizes",
    "partial_folds",
    "eps",
    "rounding",
    "beta",
)
#: The options that only k-fold cross-validation has: given without ``folds``, they make a row an error.
_KFOLD_OPTIONS = ("repeats", "aggregation", "folding", "zero_division", "fold_sizes", "partial_folds")
#: The verdicts, in the order they are counted ("undecided": a ``protocols`` row none of whose protocols is
#: consistent, some of them not checked).
VERDICTS = ("consistent", "inconsistent", "undecided", "error")
#: The fields of each row of a :class:`BatchResult`, in the order of the CSV output.
FIELDS = ("line", "id", "check", "verdict", "consistent", "detail", "message")
#: The most rows sent to a worker at once.
_CHUNK = 256
#: Rows are checked in this process for this long (in seconds) before the rest may go to workers: a table
#: done by then needs none (starting them takes longer), and joblib is not even imported.
_LOCAL_SECONDS = 0.5
#: ... and on to the end while the rest would take less than this here (in seconds, at the pace so far):
#: starting the workers (2 s for two here) and sending them the rows would gain little or lose.
_WORKERS_GAIN_SECONDS = 5.0
#: What a DataFrame is called in messages and in :attr:`BatchResult.source`.
_TABLE = "<table>"
#: A library message that starts by naming the argument at fault: "positives: expected ...".
_NAMED = re.compile(r"^([^\s:]+): ")
#: Rows a report section lists; beyond it only the rows that are not consistent.
_SECTION_LISTED = 50


@dataclasses.dataclass(frozen=True, repr=False, eq=False)
class BatchResult(Result):
    """The verdict on every claim of a claims table.

    Attributes
    ----------
    source : str
        The claims file as given, or ``"<table>"`` for a DataFrame.
    rows : tuple of dict
        One dict per claim, in table order, with the keys of :data:`FIELDS`:

        * ``line``: the claim's line in the file (the header is line 1; for a DataFrame, the line it would
          have in ``frame.to_csv(index=False)``);
        * ``id``: the ``id`` cell, or None;
        * ``check``: ``"test-set"`` (§3), ``"kfold-score-of-means"`` (§4.2) or ``"kfold-mean-of-scores"``
          (§4.3), or ``"kfold"`` when the aggregation could not be read; ``"protocols"`` for a row with a
          ``protocols`` cell;
        * ``verdict``: ``"consistent"``, ``"inconsistent"`` or ``"error"``; for ``protocols``, consistent
          when at least one protocol is, inconsistent when every one was checked and none is, and
          ``"undecided"`` when none is consistent but some could not be checked;
        * ``consistent``: True, False, or None for an error or undecided;
        * ``detail``: the number of confusion matrices that give every score (``test-set``,
          ``kfold-score-of-means``), of fold configurations tested (``kfold-mean-of-scores``), or of the
          protocols consistent
          with the scores (``protocols``); None for an error;
        * ``message``: the verdict in words (for ``protocols``, the sentence of
          :attr:`ProtocolsResult.verdict`, naming the consistent protocols), or what is wrong with the row.

        A ``protocols`` row has one more key, ``protocols``: the rows of :class:`ProtocolsResult`, one
        dict per protocol tried with its verdict and evidence (empty for an error). :meth:`to_dict` and
        the JSON output carry them; :meth:`to_frame` and the CSV output do not.
    counts : dict of str to int
        Rows per verdict, for each of :data:`VERDICTS` (``"undecided"`` included, 0 without ``protocols``
        rows; the readable summaries name it only when some row is).
    every_row : str
        What the text says when it lists only some of the rows that are not consistent: how to see them
        all (``benchtrust consistency batch`` names its ``--out`` option).
    inputs : tuple of str
        The claims file, as given (empty for a DataFrame).

    See Also
    --------
    check_batch : Many claims at once, one per row of a table.
    ProtocolsResult : The result of check_protocols.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §3, §4.2-4.4 and §5.1
           (through check_test_set, check_kfold and check_protocols), one claim per row; the claims table is
           benchtrust's own.
    """

    source: str
    rows: tuple[dict[str, Any], ...]
    counts: dict[str, int]
    every_row: str = "result.write(path) writes every row"

    def __repr__(self) -> str:
        counts = ", ".join(f"{verdict}={count}" for verdict, count in batch_counts(self).items())
        return f"BatchResult(source={self.source!r}, rows={len(self.rows)}, {counts})"

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §3-4): how many claims are inconsistent or undecided, how many
        rows could not be checked, or that every claim could come from its experiment; paragraphs are
        separated by a blank line."""
        return "\n\n".join(batch_verdict(self, wrap=False))

    def describe(self) -> Description:
        """The result's description (paper §3-4): its text (the counts, the rows, or beyond 20 those not
        consistent, and the verdict), its section (beyond 50 rows, those not consistent), its data."""
        paragraphs = batch_verdict(self)
        total = len(self.rows)
        summary = ", ".join(f"{count} {verdict}" for verdict, count in batch_counts(self).items())
        rows: Sequence[dict[str, Any]] = self.rows
        if total > _SECTION_LISTED:
            rows = [row for row in rows if row["verdict"] != "consistent"]
        notes = list(paragraphs[1:])
        if len(rows) > _SECTION_LISTED or len(rows) < total:
            notes.append(
                f"{total} rows: {summary}; the table lists {min(len(rows), _SECTION_LISTED)} of them."
            )
        return Description(
            question=_text.QUESTION,
            verdict=paragraphs[0] if paragraphs else f"{total} claims: {summary}.",
            text=_text.batch_text(self),
            data={"source": self.source, "counts": self.counts, "rows": self.rows},
            columns=("line", "id", "check", "verdict", "message"),
            rows=tuple(
                (str(row["line"]), str(row["id"] or ""), row["check"], row["verdict"], row["message"])
                for row in rows[:_SECTION_LISTED]
            ),
            assumptions=(
                (
                    "each row",
                    "one test set (§3), k-fold cross-validation when it gives folds (§4), or each candidate "
                    "protocol when it gives protocols (§5.1)",
                ),
            ),
            source=f"{_text.SOURCE}, §3-4",
            inputs=self.inputs,
            analysis="consistency batch",
            notes=tuple(notes),
        )

    def to_frame(self) -> pd.DataFrame:
        """The verdicts as a table, one row per claim in table order.

        It is made here, not from :meth:`describe`, for its nullable columns: pandas makes them, and the
        description, which the text needs too, imports no pandas.

        Returns
        -------
        pandas.DataFrame
            The columns of :data:`FIELDS`: ``line`` (int), ``id`` (text, missing where the claim has
            none), ``check``, ``verdict``, ``consistent`` (nullable boolean: missing for an error or
            undecided), ``detail`` (nullable integer) and ``message``; the rows of :attr:`rows`.
            :meth:`write` writes this table.

        Examples
        --------
        >>> import pandas as pd
        >>> claims = pd.DataFrame({"positives": [100, 100], "negatives": [200, 200],
        ...                        "acc": ["0.8967", "0.8967"], "sens": ["0.85", "0.85"],
        ...                        "ppv": ["0.8416", "0.8461"]})
        >>> check_batch(claims).to_frame()[["line", "verdict", "consistent", "detail"]]
           line       verdict  consistent  detail
        0     2    consistent        True       1
        1     3  inconsistent       False       0
        """
        import pandas as pd

        frame = pd.DataFrame.from_records(list(self.rows), columns=list(FIELDS))
        return frame.astype({"line": "int64", "consistent": "boolean", "detail": "Int64"})

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the rows to `path`, atomically: CSV (the table of :meth:`to_frame`) or JSON, by the suffix.

        A CSV file has one line per claim; ``consistent`` is ``true``, ``false`` or empty, as are missing
        cells. A JSON file holds :meth:`to_dict`. The file is written under a temporary name in its folder
        and renamed into place.

        Raises
        ------
        InputError
            If the suffix is neither ``.csv`` nor ``.json``, or the folder does not exist.
        """
        if output_format(path) == "json":
            write_atomic(path, json_text(self.to_dict()) + "\n")
            return
        frame = self.to_frame()
        consistent = frame["consistent"].map({True: "true", False: "false"}, na_action="ignore")
        cells = frame.astype(object).assign(consistent=consistent.astype(object))
        buffer = io.StringIO()
        cells.where(cells.notna(), "").to_csv(buffer, index=False, lineterminator="\n")
        write_atomic(path, buffer.getvalue())


def output_format(path: str | os.PathLike[str]) -> str:
    """``"csv"`` or ``"json"``, by the suffix of `path`; InputError for any other."""
    suffix = Path(path).suffix.lower()
    if suffix not in (".csv", ".json"):
        raise InputError(f"cannot write {os.fspath(path)}: expected a name ending in .csv or .json")
    return suffix[1:]


def check_batch(
    claims: str | os.PathLike[str] | pd.DataFrame,
    *,
    id_column: str = "id",
    positives_column: str = "positives",
    negatives_column: str = "negatives",
    folds_column: str = "folds",
    dataset_column: str = "dataset",
    n_jobs: int | None = None,
    progress: Callable[[int, int], object] | None = None,
    out: str | os.PathLike[str] | None = None,
) -> BatchResult:
    """Check every claim of a claims table, each row as paper §3 (one test set), §4 (k-fold) or §5.1 (which
    candidate protocol fits).

    A claims table has a header line naming its columns and one claim per row:

    * ``positives``, ``negatives`` (required, unless the table has a ``dataset`` column): p and n, the
      counts of the test set, or of the data set that was cross-validated;
    * ``dataset`` (optional): instead of the counts, the name of a test set (see
      :func:`~benchtrust.consistency.dataset`); a row gives one or the other. The images of a per-image
      collection are pooled into one test set, or, when the row gives an ``aggregation``, they are the
      folds (``folds`` empty or their number, ``folding`` empty);
    * ``protocols`` (optional): the candidate protocols to check the row's scores under, as
      :func:`~benchtrust.consistency.check_protocols` does; an empty cell checks the row as described by
      its other columns. The cell is ``all`` (every protocol that applies to the test set), or one or
      more families separated by ``;``, each ``FAMILY=VALUE|VALUE...``, such as
      ``region=fov|all;aggregation=mean_of_scores|pooled``: the families ``region`` (``fov``, ``all``),
      ``aggregation`` (``mean_of_scores``, ``pooled``, ``score_of_means``; the paper's ``mos`` and
      ``som`` are accepted for the first and the last), ``folding`` (``stratified``, ``unknown``) and
      ``rounding`` (``round``, ``floor-or-ceil``); a family left out takes every value that applies. The
      row names a ``dataset`` or gives the counts, optionally ``folds`` (k, to cut one test set into k
      folds), ``eps``, ``rounding`` (one rule) and ``beta``; not ``aggregation``, ``folding``,
      ``repeats`` or ``zero_division``. In a semicolon-separated file, quote the cell;
    * ``id`` (optional): a name for the claim, copied to the result;
    * ``folds`` (optional): k; empty for a single test set (§3), else the scores are k-fold aggregates (§4);
    * ``repeats``, ``aggregation`` (``mean_of_scores`` or ``score_of_means``, or the paper's ``mos`` or
      ``som``, required with ``folds``), ``folding``
      (``stratified`` or ``unknown``), ``zero_division`` (``0``, ``1``, ``skip`` or ``any``): the
      cross-validation, as in :func:`~benchtrust.consistency.check_kfold`; empty cells take its
      defaults;
    * ``fold_sizes`` (optional, unknown folds): the folds' sizes when they are not near-equal (GroupKFold,
      PredefinedSplit, ...), k whole numbers separated by ``;`` or spaces (``4;2``), or ``any``; empty
      for near-equal folds. ``partial_folds`` (``yes``/``no``): the folds hold part of the data set
      (TimeSeriesSplit's test folds); as ``fold_sizes`` and ``partial`` of
      :func:`~benchtrust.consistency.check_kfold`;
    * ``eps``, ``rounding``, ``beta`` (optional): as in :func:`~benchtrust.consistency.reported_scores`;
    * every other column is a score, named by its abbreviation or an alias (``acc``, ``sensitivity``,
      ``f1``, ...). An empty score cell means that score was not reported.

    A table that names the first four columns otherwise (``paper``, ``p``, ``n``, ``k``) says so with the
    ``*_column`` arguments. Column names are matched in any case.

    Cells are read as text, so ``0.9400`` keeps its four decimals when ε is inferred. The delimiter is
    taken from the header line (comma, tab or semicolon). A file is read as UTF-8, with or without a
    byte-order mark, as a stream, and never modified; blank lines are skipped, and lines starting with
    ``#`` before the header.

    A row with a mistake (a count that is not a whole number, an unknown aggregation, options that do not
    go together, a ``protocols`` cell that cannot be read, ...) gets the verdict ``"error"`` and a message
    naming its line and column; the other rows are still checked. Every ``"inconsistent"`` verdict is
    certain, a statement about integers.

    Parameters
    ----------
    claims : str, os.PathLike or pandas.DataFrame
        The claims file (CSV/TSV), or a table with the same columns.
    id_column, positives_column, negatives_column, folds_column, dataset_column : str
        The names of the columns ``id``, ``positives``, ``negatives``, ``folds`` and ``dataset`` in the
        table; messages name the columns as the table does.
    n_jobs : int, optional
        Rows checked in parallel, as in :class:`joblib.Parallel` (-1: one per CPU), once the first
        half-second of rows has been checked in this process, if the rest would take more than some 5 s
        more in it. None: one, unless run inside
        :func:`joblib.parallel_config` (which may name another backend, such as dask: ``with
        parallel_config(backend="dask", client=client)`` checks the rows on a dask.distributed cluster).
        1: every row in this process, without importing joblib. The result does not depend on it.
    progress : callable, optional
        Called as ``progress(done, total)`` as verdicts come in, in any order (rows are checked in
        chunks, so ``done`` may grow by more than one).
    out : str or os.PathLike, optional
        A file to write every row's verdict to, as :meth:`BatchResult.write` writes it (CSV or JSON, by
        its suffix); its name and folder are checked before any claim is.

    Returns
    -------
    BatchResult
        The rows' verdicts in table order, and their counts; its ``inputs`` name the claims file.

    Raises
    ------
    InputError
        For mistakes in the table as a whole, naming the file and line: missing, unreadable or not UTF-8;
        no header or no rows; a column missing (``positives``, ``negatives``), named twice, or neither an
        option nor a score (the message lists the known scores); no score column. For a ``*_column``
        argument that is not a name, or names the column another one names. For an `out` that is not a
        ``.csv`` or ``.json`` name in an existing folder.

    See Also
    --------
    BatchResult : The result of check_batch.
    check_test_set : Scores reported for one test set (§3).
    check_kfold : Scores reported for k-fold cross-validation (§4).
    check_protocols : Every candidate evaluation protocol of the scores, each checked (§5.1).
    regression_verdicts : check_regression of many claims at once.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §3, §4.2-4.4 and §5.1
           (through check_test_set, check_kfold and check_protocols), one claim per row; the claims table is
           benchtrust's own.

    Examples
    --------
    The paper's example of §3.3, and the same scores with p = 1100 (§3.3: inconsistent):

    >>> import pandas as pd
    >>> claims = pd.DataFrame({
    ...     "id": ["as reported", "p = 1100"], "positives": [1000, 1100], "negatives": [6000, 6000],
    ...     "eps": ["1e-4", "1e-4"], "acc": ["0.6821", "0.6821"], "npv": ["0.9401", "0.9401"],
    ...     "f1": ["0.4004", "0.4004"],
    ... })
    >>> result = check_batch(claims)
    >>> result
    BatchResult(source='<table>', rows=2, consistent=1, inconsistent=1, error=0)
    >>> [(row["id"], row["verdict"], row["detail"]) for row in result.rows]
    [('as reported', 'consistent', 2), ('p = 1100', 'inconsistent', 0)]

    A table whose columns are named otherwise:

    >>> claims = pd.DataFrame({"paper": ["typo"], "P": [100], "N": [200], "acc": ["0.8967"], "sens": ["0.85"],
    ...                        "ppv": ["0.8461"]})
    >>> result = check_batch(claims, id_column="paper", positives_column="P", negatives_column="N")
    >>> [(row["id"], row["verdict"]) for row in result.rows]
    [('typo', 'inconsistent')]

    Named test sets: the pooled DRIVE test images, and the same images as the folds of the mean of scores:

    >>> claims = pd.DataFrame({"dataset": ["drive/test/manual1/fov"] * 2,
    ...                        "aggregation": ["", "mean_of_scores"],
    ...                        "acc": ["0.9544", "0.9544"], "sens": ["0.7812", "0.7812"]})
    >>> [(row["check"], row["verdict"]) for row in check_batch(claims).rows]
    [('test-set', 'consistent'), ('kfold-mean-of-scores', 'consistent')]

    Which protocol fits (§5.1): the DRIVE scores of :func:`~benchtrust.consistency.check_protocols`, under
    the two regions and two aggregations:

    >>> claims = pd.DataFrame({"dataset": ["drive/test/manual1/fov"], "rounding": ["round"],
    ...                        "protocols": ["region=fov|all;aggregation=mean_of_scores|pooled"],
    ...                        "acc": ["0.9557"], "sens": ["0.7761"], "spec": ["0.9792"]})
    >>> row = check_batch(claims).rows[0]
    >>> row["check"], row["verdict"], row["detail"]
    ('protocols', 'consistent', 1)
    >>> print(row["message"])  # doctest: +NORMALIZE_WHITESPACE
    consistent only with: field of view, mean of per-image scores, rounded (of the 4 protocols tried).
    The scores cannot come from the other 3 (a certain conclusion about integers, not a statistical test).
    >>> [(p["region"], p["aggregation"], p["verdict"]) for p in row["protocols"][:2]]
    [('fov', 'mean_of_scores', 'consistent'), ('fov', 'pooled', 'inconsistent')]
    """
    if out is not None:
        _check_out(out)
    names = _names(
        id=id_column,
        positives=positives_column,
        negatives=negatives_column,
        folds=folds_column,
        dataset=dataset_column,
    )
    source = _TABLE if _is_frame(claims) else os.fspath(claims)
    total = sum(1 for _ in _records(claims)) - 1  # a first pass: finds mistakes in the file as a whole
    with contextlib.closing(_records(claims)) as records:
        header_line, header = next(records)
        if total == 0:
            raise InputError(f"{source}: no claims below the header (line {header_line})")
        columns = _columns(header, source, header_line, names)
        rows = _checked(records, total, (source, columns, names), n_jobs, progress)
    counts = {verdict: 0 for verdict in VERDICTS}
    for row in rows:
        counts[row["verdict"]] += 1
    result = BatchResult(source, tuple(rows), counts, inputs=() if _is_frame(claims) else (source,))
    if out is not None:
        result.write(out)
    return result


def _check_out(out: str | os.PathLike[str]) -> None:
    """InputError naming ``out`` unless it is a .csv or .json name in an existing folder."""
    try:
        output_format(out)
    except InputError as exc:
        raise InputError(f"out: {exc}") from None
    folder = Path(out).parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise InputError(f"out: cannot write {os.fspath(out)}: folder '{folder}' {what}")


def _names(**named) -> dict[str, str]:
    """The table's name of each claims column (:data:`OPTIONS`): as `named` says, checked, or the option's."""
    names = dict(zip(OPTIONS, OPTIONS, strict=True))
    for option, name in named.items():
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"{option}_column: expected the name of a column, got {name!r}")
        names[option] = name.strip()
    taken: dict[str, str] = {}
    for option, name in names.items():
        other = taken.setdefault(name.lower(), option)
        if other != option and option in named:
            where = f"{other}_column={names[other]!r} and {option}_column={name!r}"
            raise InputError(f"{where} name the same column; give each its own")
        if other != option:  # the options after those of `named` keep their names
            raise InputError(
                f"{other}_column: {names[other]!r} is the claims column {option!r}; choose another"
            )
    return names


def _example(names) -> str:
    """A header line such as the table could have: the first columns as `names` says, and three scores."""
    return ",".join([names["id"], names["positives"], names["negatives"], "acc", "sens", "spec"])


def _columns(header: list[str], source: str, line: int, names) -> tuple[tuple[str, str, str], ...]:
    """What each column of the header is: (kind, key, name as written); InputError for a wrong header.

    Kind ``"option"`` has the option's name as key (the column the table names so in `names`); kind
    ``"score"`` has the name as written, which is the key of the scores given to the library (so that its
    messages name the column).
    """
    where = f"{source}, line {line}"
    options = {name.lower(): option for option, name in names.items()}
    columns: list[tuple[str, str, str]] = []
    seen: dict[str, str] = {}
    scores: dict[str, str] = {}
    for k, field in enumerate(header):
        written = field.strip()
        if not written:
            raise InputError(
                f"{where}: column {k + 1} has no name; expected a header such as {_example(names)}"
            )
        if written.lower() in options:
            kind, key = "option", options[written.lower()]
            canonical = key
        else:
            try:
                found = _score(written)
            except InputError as exc:
                raise InputError(
                    f"{where}, column {written!r}: not a claims column ({', '.join(names.values())}) "
                    f"nor a score: {exc}"
                ) from None
            kind, key, canonical = "score", written, found.name
        if canonical in seen:
            same = f" (both {canonical})" if kind == "score" else ""
            raise InputError(f"{where}: columns {seen[canonical]!r} and {written!r} are the same{same}")
        seen[canonical] = written
        if kind == "score":
            scores[canonical] = written
        columns.append((kind, key, written))
    missing = [names[option] for option in ("positives", "negatives") if option not in seen]
    if missing and "dataset" not in seen:
        fields = ", ".join(repr(field.strip()) for field in header)
        raise InputError(
            f"{where}: no column {' nor '.join(repr(name) for name in missing)} (required, or a column "
            f"{names['dataset']!r} naming the test sets); found {fields}"
        )
    if not scores:
        raise InputError(
            f"{where}: no score column; name one column per reported score, such as {_example(names)}"
        )
    return tuple(columns)


def read_folding(path: str | os.PathLike[str]) -> list[tuple[int, int]] | list[list[tuple[int, int]]]:
    """The folds' counts (p_i, n_i) in a CSV file: one row per fold, columns ``positives`` and ``negatives``.

    An optional column ``dataset`` names the data set of each fold, for cross-validation of several data
    sets: the folds are then grouped by it, in the order each name first appears. The file is read as
    :func:`check_batch` reads a claims table, and never modified.

    Parameters
    ----------
    path : str or os.PathLike
        The file.

    Returns
    -------
    list of (int, int), or list of list of (int, int)
        The folds in file order; with a ``dataset`` column, one list of folds per data set.

    Raises
    ------
    InputError
        Naming the file, line and column: a column missing, unknown or named twice; a count that is not a
        whole number >= 0; a fold with no items; an empty data set name; no folds.

    See Also
    --------
    check_kfold : Scores reported for k-fold cross-validation (§4); its ``folding`` takes these folds.
    read_class_folds : The class counts of the folds of a multiclass cross-validation, from a CSV file.
    stratified_folds : The folds of scikit-learn's StratifiedKFold (§4.4.2).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §4.3-4.4: the folds'
           (p_i, n_i) the mean of scores is tested with when the folds are known.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder, "folds.csv")
    ...     _ = path.write_text("positives,negatives\\n8,52\\n7,53\\n", encoding="utf-8")
    ...     read_folding(path)
    [(8, 52), (7, 53)]
    """
    name = os.fspath(path)
    records = _file_records(path)
    header_line, header = next(records)
    known = ("dataset", "positives", "negatives")
    index: dict[str, int] = {}
    for k, field in enumerate(header):
        column = field.strip().lower()
        if column not in known:
            raise InputError(
                f"{name}, line {header_line}, column {field.strip()!r}: expected the columns positives, "
                "negatives and optionally dataset"
            )
        if column in index:
            raise InputError(f"{name}, line {header_line}: the header names column {column!r} twice")
        index[column] = k
    missing = [column for column in ("positives", "negatives") if column not in index]
    if missing:
        raise InputError(
            f"{name}, line {header_line}: no column {' nor '.join(map(repr, missing))} (required)"
        )
    groups: dict[str, list[tuple[int, int]]] = {}
    for line, fields in records:
        where = f"{name}, line {line}"
        if len(fields) != len(header):
            raise InputError(
                f"{where}: {len(fields)} fields, but the header (line {header_line}) has {len(header)}"
            )
        try:
            p, n = (
                _whole(fields[index[column]].strip() or None, column) for column in ("positives", "negatives")
            )
        except _RowError as exc:
            raise InputError(f"{where}, column {exc.column!r}: {exc}") from None
        if p + n == 0:
            raise InputError(f"{where}: a fold with no items (positives and negatives are both 0)")
        label = fields[index["dataset"]].strip() if "dataset" in index else ""
        if "dataset" in index and not label:
            raise InputError(f"{where}, column 'dataset': empty, expected the name of a data set")
        groups.setdefault(label, []).append((p, n))
    if not groups:
        raise InputError(f"{name}: no folds below the header (line {header_line})")
    return list(groups.values()) if "dataset" in index else groups[""]


# ---------------------------------------------------------------------------------------------------------
# Checking the rows: here, then on joblib's workers


def _checked(records, total: int, table, n_jobs, progress) -> list[dict]:
    """The verdicts on the `total` claims of `records` (line, fields), in their order: checked in this
    process for :data:`_LOCAL_SECONDS` and on while the rest would take less than
    :data:`_WORKERS_GAIN_SECONDS` (all of them if `n_jobs` is 1), the rest by joblib's workers in chunks;
    `table` is (source, columns, names), as :func:`_check_rows` takes them."""
    rows: list[dict] = []
    start = time.perf_counter()
    step = max(1, total // 1000)  # progress is reported every 0.1 % of the rows

    def here() -> bool:  # whether the next row is checked in this process
        elapsed = time.perf_counter() - start
        if n_jobs == 1 or elapsed < _LOCAL_SECONDS:
            return True
        return bool(rows) and elapsed / len(rows) * (total - len(rows)) < _WORKERS_GAIN_SECONDS

    while len(rows) < total and here():
        rows.append(_check_row(*table, *next(records)))
        if progress is not None and (len(rows) % step == 0 or len(rows) == total):
            progress(len(rows), total)
    if len(rows) == total:
        return rows
    from joblib import Parallel, delayed, effective_n_jobs

    # Rows go to the workers in chunks: enough per chunk to outweigh the cost of sending it, few enough
    # that every worker gets several chunks (a row with unknown folds may take seconds). Chunks come back
    # as they are done, counted by the progress bar, and are put back in order.
    left = total - len(rows)
    size = max(1, min(_CHUNK, left // (8 * effective_n_jobs(n_jobs))))
    chunks = iter(lambda: list(itertools.islice(records, size)), [])
    tasks = (delayed(_check_chunk)(k, *table, chunk) for k, chunk in enumerate(chunks))
    done, checked = len(rows), {}
    for k, verdicts in Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks):
        checked[k] = verdicts
        done += len(verdicts)
        if progress is not None:
            progress(done, total)
    for k in range(len(checked)):
        rows += checked.pop(k)
    return rows


def _check_chunk(k: int, source: str, columns, names, chunk: list[tuple[int, list[str]]]):
    """``(k, verdicts)``: the verdicts on the `k`-th chunk of claims sent to the workers."""
    return k, _check_rows(source, columns, names, chunk)


def _check_rows(source: str, columns, names, chunk: list[tuple[int, list[str]]]) -> list[dict]:
    """The verdicts on a chunk of (line, fields) claims."""
    return [_check_row(source, columns, names, line, fields) for line, fields in chunk]


def _check_row(source: str, columns, names, line: int, fields: list[str]) -> dict:
    """The verdict on one claim: a dict with the keys of :data:`FIELDS` (and ``protocols`` for a
    ``protocols`` row)."""
    cells, scores = {}, {}
    for (kind, key, _), text in zip(columns, fields, strict=False):  # a row of the wrong length fails below
        text = text.strip()
        if text and kind == "score":
            scores[key] = text
        elif text:
            cells[key] = text
    check = "test-set"
    if "protocols" in cells:
        check = "protocols"
    elif "folds" in cells or ("dataset" in cells and "aggregation" in cells):
        try:
            check = "kfold-" + aggregation_name(cells.get("aggregation", "").lower()).replace("_", "-")
        except InputError:  # the row is an error, which _run names
            check = "kfold"
    row = {"line": line, "id": cells.get("id"), "check": check}
    where = f"{source}, line {line}"
    written = {key: name for _, key, name in columns}  # the columns as the header writes them
    labels = {**names, **written}  # each claims column as the header writes it, or as `names` says
    try:
        if len(fields) != len(columns):
            raise _RowError(
                None, f"{len(fields)} fields, but the header has {len(columns)}; quote fields holding commas"
            )
        result = _run(cells, scores, labels)
    except _RowError as exc:
        message = f"{where}{'' if exc.column is None else f', column {labels[exc.column]!r}'}: {exc}"
    except InputError as exc:
        message = " ".join(str(exc).split())
        named = _NAMED.match(message)
        if named and named[1] in written:  # the library names its argument: this row's column
            message = f"{where}, column {written[named[1]]!r}: {message[named.end() :]}"
        else:
            message = f"{where}: {message}"
    else:
        return {**row, **_verdict(check, result)}
    error = {"verdict": "error", "consistent": None, "detail": None, "message": message}
    return {**row, **error, **({"protocols": []} if check == "protocols" else {})}


def _run(cells: dict[str, str], scores: dict[str, str], names):
    """Check one claim with the library: the test-set, k-fold or protocols result; _RowError for a bad cell.

    `names` names the claims columns in messages, as the table does.
    """
    if not scores:
        raise _RowError(None, "no score reported (every score cell is empty)")
    named = _named(cells, names)
    if "protocols" in cells:
        return check_protocols_row(cells, scores, names, named)
    options: dict[str, Any] = {
        "positives": named.positives if named else _whole(cells.get("positives"), "positives"),
        "negatives": named.negatives if named else _whole(cells.get("negatives"), "negatives"),
        "rounding": cells.get("rounding", "round").lower(),
    }
    if "eps" in cells:
        options["eps"] = _real(cells["eps"], "eps")
    if "beta" in cells:
        options["beta"] = _real(cells["beta"], "beta")
    folds = names["folds"]
    if "folds" not in cells and not (named and "aggregation" in cells):
        given = [name for name in _KFOLD_OPTIONS if name in cells]
        if given:
            raise _RowError(
                given[0],
                f"given, but {folds} is empty (a single test set); give {folds} for cross-validation",
            )
        return check_test_set(scores, **options, examples=1)
    k = _whole(cells["folds"], "folds") if "folds" in cells else None
    if named is None:
        options["folds"] = k
    elif named.folds and "folding" in cells:
        raise _RowError(
            "folding",
            f"given, but the {len(named.folds)} {named.item_word} of {named.name} are its folds; "
            "leave it empty",
        )
    else:
        options.update(named.kfold_options(k))
    if "repeats" in cells:
        options["repeats"] = _whole(cells["repeats"], "repeats")
    try:
        options["aggregation"] = aggregation_name(cells.get("aggregation", "").lower())
    except InputError:
        got = f"got {cells['aggregation']!r}" if "aggregation" in cells else "it is empty"
        raise _RowError(
            "aggregation",
            f"expected mean_of_scores or score_of_means (the paper's mos or som) with {folds}, {got}",
        ) from None
    if "folding" in cells:
        options["folding"] = cells["folding"].lower()
    for column in ("fold_sizes", "partial_folds"):
        if named is not None and named.folds and column in cells:
            raise _RowError(
                column, f"given, but the {len(named.folds)} {named.item_word} of {named.name} are its folds"
            )
    if "fold_sizes" in cells:
        text = cells["fold_sizes"]
        options["fold_sizes"] = (
            text.lower()
            if text.lower() in ("any", "equal")
            else tuple(_whole(part, "fold_sizes") for part in re.split(r"[;\s]+", text) if part)
        )
    if "partial_folds" in cells:
        options["partial"] = _yes_no(cells["partial_folds"], "partial_folds")
    if "zero_division" in cells:
        options["zero_division"] = cells["zero_division"]
    return check_kfold(scores, **options)


def _named(cells: dict[str, str], names):
    """The named test set of a row (its ``dataset`` cell), or None when the row gives the counts."""
    if "dataset" not in cells:
        return None
    given = [option for option in ("positives", "negatives") if option in cells]
    if given:
        raise _RowError(
            given[0], f"given with {names['dataset']}: give the name of the test set or its counts, not both"
        )
    return dataset(cells["dataset"])


def _verdict(check: str, result) -> dict:
    """``verdict``, ``consistent``, ``detail`` and ``message`` of a test-set, k-fold or protocols result
    (and ``protocols``, the rows of the last)."""
    if check == "protocols":
        return protocols_row(result)
    if check == "kfold-mean-of-scores":
        detail = result.configurations_tested
    elif check == "test-set":
        detail = result.n_solutions
    else:  # score of means: the pooled test set
        detail = result.evidence["n_solutions"] if result.evidence else 0
    return {
        "verdict": {True: "consistent", False: "inconsistent", None: "undecided"}[result.consistent],
        "consistent": result.consistent,
        "detail": int(detail),
        "message": claim_message(result),
    }
