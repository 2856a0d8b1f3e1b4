"""Reading a leaderboard: the teams' best scores from Kaggle's raw download, a CSV/TSV table or a
DataFrame (:func:`read_leaderboard`), the bundled Kaggle Titanic leaderboard (:func:`bundled_leaderboard`)
and the names of a leaderboard's best teams, from the table read (:func:`read_with_table`, :func:`top_teams`,
for :func:`benchtrust.sota.leaderboard`).

The file itself is read by :func:`benchtrust._io.table_of`, so a mistake in it is reported like any
other file's: the file, the 1-based line and the column (a DataFrame's row label).
"""

from __future__ import annotations

import dataclasses
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING

from benchtrust._io import (
    Direction,
    InputError,
    bundled_file,
    check_direction,
    check_number,
    check_probability,
    find_column,
    is_number,
    same_name_message,
    table_of,
)

if TYPE_CHECKING:
    import numpy as np
    import pandas as pd

__all__ = ["Leaderboard", "bundled_leaderboard", "read_leaderboard", "read_with_table", "top_teams"]

#: Score column names found by default, compared case-insensitively.
_SCORE_NAMES = ("score", "accuracy", "auc")
_LEADERBOARD_HEADER = "TeamId,TeamName,SubmissionDate,Score"
#: The Kaggle leaderboards shipped in ``benchtrust/data`` (see its README for their sources).
_BUNDLED_LEADERBOARDS = {
    "titanic": "titanic-2019-11-22.csv",
    "cassava": "cassava-leaf-disease-classification-private.csv",
    "melanoma": "siim-isic-melanoma-classification-private.csv",
}


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Leaderboard:
    """The teams' scores read from a leaderboard, after the filters of :func:`read_leaderboard`.

    Attributes
    ----------
    scores : numpy.ndarray
        One score per kept team (its best valid score), float64, read-only, in the file order of each
        team's first row, as written (an error rate for ``direction="lower"``).
    excluded : dict of str to int
        Teams removed by each filter, in the order applied: ``"broken"`` (no valid score other than the
        worst possible: 0, or 1 for ``direction="lower"``), ``"chance"`` (best score at or below the
        chance level; at or above it for ``"lower"``), ``"implausible"`` (best score better than
        ``max_plausible``). A filter that is off counts 0.
    rows : int
        Data rows read (submissions, for a Kaggle download), blank lines not counted.
    teams : int
        Teams read, before the filters: distinct ``TeamId`` values, or rows when there is no such column.
    column : str
        The name of the score column used, as written in the header.
    source : str
        The path as given, or ``"<table>"`` for a DataFrame.
    warnings : tuple of str
        What may make the result wrong, in sentences: an order of the teams that suggests the other
        direction, team names on more than one team (:func:`read_leaderboard`); empty when there is
        nothing to say.
    direction : {"higher", "lower"}
        Which scores are better, as declared: ``"lower"`` for an error rate (1 - accuracy) or 1 - AUC.

    See Also
    --------
    read_leaderboard : Read one from a file or a table.
    bundled_leaderboard : The Kaggle leaderboards shipped with benchtrust.
    leaderboard : Estimate the state of the art from the scores.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5: the competition
       observations θ̂_1, ..., θ̂_m, one per team; §5.1.1-5.1.2 and §5.2.1: the teams below chance left
       out (m = 3,498, 3,752 and 3,173).

    Examples
    --------
    >>> import numpy as np
    >>> board = Leaderboard(
    ...     scores=np.array([0.8, 0.75]), excluded={"broken": 1, "chance": 0, "implausible": 0},
    ...     rows=4, teams=3, column="Score", source="lb.csv", direction="higher",
    ... )
    >>> board  # doctest: +NORMALIZE_WHITESPACE
    Leaderboard(source='lb.csv', column='Score', direction='higher', rows=4, teams=3, kept=2,
                broken=1, chance=0, implausible=0)
    >>> board.to_dict()["kept"]
    2
    >>> board.to_frame()
       score
    0   0.80
    1   0.75
    """

    scores: np.ndarray
    excluded: dict[str, int]
    rows: int
    teams: int
    column: str
    source: str
    direction: str
    warnings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, object]:
        """The counts, column, direction, source and warnings as plain JSON types (the scores are left
        out)."""
        return {
            "source": self.source,
            "column": self.column,
            "direction": self.direction,
            "rows": int(self.rows),
            "teams": int(self.teams),
            "kept": len(self.scores),
            "excluded": {key: int(count) for key, count in self.excluded.items()},
            "warnings": list(self.warnings),
        }

    def to_frame(self) -> pd.DataFrame:
        """The kept teams' scores as a table: one row per team, in the order of :attr:`scores`.

        Returns
        -------
        pandas.DataFrame
            One column, ``score``.
        """
        import pandas as pd

        return pd.DataFrame({"score": self.scores})

    def __repr__(self) -> str:
        counts = ", ".join(f"{key}={count}" for key, count in self.excluded.items())
        return (
            f"Leaderboard(source={self.source!r}, column={self.column!r}, direction={self.direction!r}, "
            f"rows={self.rows}, "
            f"teams={self.teams}, kept={len(self.scores)}, {counts})"
        )


def read_leaderboard(
    source: str | os.PathLike[str] | pd.DataFrame,
    *,
    score_column: str | None = None,
    team_column: str | None = None,
    classes: int | None = None,
    max_plausible: float | None = None,
    lower_bound: float | None = None,
    direction: Direction,
    listed: bool = True,
) -> Leaderboard:
    """Read a leaderboard's team scores from a Kaggle download, a CSV/TSV table or a DataFrame.

    The scores are proportions in [0, 1]: accuracies or AUCs (``direction="higher"``), or their
    complements, error rates 1 - accuracy or 1 - AUC (``direction="lower"``: lower is better). Each
    team's score is its best valid score (the largest; the smallest for ``"lower"``). Rows are grouped
    by the team column: `team_column` if given, else a column ``TeamId`` (any case, also ``team_id``).
    Kaggle's raw leaderboard download (header ``TeamId,TeamName,SubmissionDate,Score``) has one row per
    submission that improved the team's best, in the order of submission. Without a team column, every
    row is a team.

    The score column is `score_column` if given; otherwise the private one of a private/public pair of
    columns (names containing ``private`` and ``public``, such as ``PrivateScore``/``PublicScore``: the
    hidden test set that decided the ranking); otherwise the one column named ``score``, ``accuracy`` or
    ``auc``, in any case.

    Teams are then removed by three filters, in this order, and counted in
    :attr:`Leaderboard.excluded`:

    * ``"broken"``: no valid score. A cell that is empty, ``nan``, ``NA``, ``null`` or ``None``
      (any case), or exactly 0 (what Kaggle shows for a submission it could not score), is not an error,
      just not a valid score; for ``direction="lower"`` the worst score, 1, counts as broken instead
      (the complement of an accuracy of 0), and 0 is a perfect score.
    * ``"chance"``: best score at or below the chance level, ``max(1/classes, lower_bound)`` for the
      arguments given (e.g. ``classes=2`` drops accuracy <= 0.5; ``lower_bound=0.5`` for AUC); for
      ``"lower"``, error rates at or above 1 minus that level.
    * ``"implausible"``: best score better than `max_plausible`, i.e. strictly above it (below it for
      ``"lower"``): ``max_plausible=0.999`` drops perfect accuracies (``0.001`` perfect error rates),
      which on a public test set are usually leakage rather than skill.

    The file's own order is checked against `direction`. When the teams' scores only ever rise down the
    list (fall, for ``"lower"``; ties allowed), the first team listed is the worst. With a column
    ``rank``, ``position`` or ``place`` (any case) ranking them, or in the file's order for a board of
    at least 100 teams (a leaderboard, listed best first as leaderboards are), the direction is wrong:
    InputError. A shorter list (at least five distinct scores) may be sorted worst first on purpose: it
    gets a warning. A file in the order of a date column (Kaggle's raw download) is not checked.

    A team name given to more than one team (rows of one name, when every row is a team; or one name on
    several team ids) is not an error: the teams are counted as read, and :attr:`Leaderboard.warnings`
    says so, since m, the number of teams, is what the analysis of multiplicity rests on. Names are read
    from a column ``TeamName``, ``team``, ``name``, ``method`` or ``model`` (any case) other than the team
    column.

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
        The score column's name, in any case (two columns whose names differ only in case are an error).
    team_column : str, optional
        The name of the column that identifies a team (matched the same way), when it is not ``TeamId``:
        rows with the same value are one team's submissions.
    classes : int, optional
        Number of classes C for accuracy: scores <= 1/C are at or below chance and excluded.
    max_plausible : float, optional
        Scores strictly above it are excluded as implausible; in (0, 1].
    lower_bound : float, optional
        Scores <= it are excluded as at or below chance too (0.5 for AUC); in [0, 1). For
        ``direction="lower"``, give it as for the accuracy or AUC: error rates >= 1 - lower_bound are
        excluded.
    direction : {"higher", "lower"}
        Which scores are better, declared (never guessed): ``"higher"`` for accuracy or AUC, ``"lower"``
        for an error rate (1 - accuracy) or 1 - AUC. It has no default, as for :func:`leaderboard`: a
        board of error rates read as accuracies keeps each team's worst score.
    listed : bool, default True
        Whether the order of the rows is the table's own (checked against `direction`, see above); False
        for scores whose order means nothing, such as a list of numbers (:func:`leaderboard`).

    Returns
    -------
    Leaderboard
        The kept teams' scores and the counts of rows, teams and excluded teams.

    Raises
    ------
    InputError
        If the file is missing, a folder, unreadable, not UTF-8 or empty; if it has no header line, no score
        column (or no column `team_column`) or no rows; if a row has the wrong number of fields or an empty
        team id; if a score is not a number or not a proportion in [0, 1] (a log-loss or RMSE cannot be
        analysed); if the file's order contradicts `direction`; or if an argument is out of range. The
        message names the file (or ``<table>``), the 1-based line number (the DataFrame's row label) and
        the column, or the argument.

    See Also
    --------
    Leaderboard : The result: the kept scores and what was left out.
    leaderboard : Estimate the state of the art from a leaderboard (reads it with this function).
    bundled_leaderboard : The Kaggle leaderboards shipped with benchtrust, to read.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5: the competition
       observations θ̂_1, ..., θ̂_m, one per team; §5.1.1-5.1.2 and §5.2.1: the teams below chance left
       out (the ``"chance"`` filter).

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
    ...     board = read_leaderboard(path, direction="higher", classes=2, max_plausible=0.999)
    >>> board.scores
    array([0.78468, 0.80382])
    >>> board.excluded
    {'broken': 1, 'chance': 1, 'implausible': 1}
    >>> board.rows, board.teams, board.column
    (7, 5, 'Score')

    A DataFrame with a private/public pair: the private score is used.

    >>> import pandas as pd
    >>> table = pd.DataFrame({"model": ["a", "b"], "PrivateScore": [0.91, 0.88], "PublicScore": [0.9, 0.93]})
    >>> board = read_leaderboard(table, direction="higher")
    >>> board.column, board.scores
    ('PrivateScore', array([0.91, 0.88]))

    One row per team, with a name on two rows: three teams, and a warning.

    >>> frame = pd.DataFrame({"team": ["a", "b", "a"], "score": [0.8, 0.85, 0.9]})
    >>> board = read_leaderboard(frame, direction="higher")
    >>> board.teams, board.warnings[0][:68]
    (3, "1 team name is on more than one row, each row counted as a team: 'a'")

    Error rates, lower is better, listed best first: the same teams as accuracies 1 - error. Declared
    the other way, the list gets a warning, and a board ranked by a column ``rank`` is refused.

    >>> errors = pd.DataFrame({"team": list("abcdef"), "score": [0.1034, 0.12, 0.3, 0.31, 0.6, 1.0]})
    >>> board = read_leaderboard(errors, direction="lower", classes=2)
    >>> board.scores, board.excluded
    (array([0.1034, 0.12  , 0.3   , 0.31  ]), {'broken': 1, 'chance': 1, 'implausible': 0})
    >>> read_leaderboard(errors, direction="higher").warnings[0][:71]
    "the teams' scores rise down the table, from 0.1034 (row 0) to 1 (row 5)"
    >>> try:
    ...     read_leaderboard(errors.assign(rank=range(1, 7)), direction="higher")
    ... except InputError as error:
    ...     print(str(error)[:85])
    <table>: the teams are listed best first (by the column 'rank') and their scores rise
    """
    return read_with_table(
        source,
        score_column=score_column,
        team_column=team_column,
        classes=classes,
        max_plausible=max_plausible,
        lower_bound=lower_bound,
        direction=direction,
        listed=listed,
    )[0]


def read_with_table(
    source, *, score_column, team_column, classes, max_plausible, lower_bound, direction, listed
):
    """:func:`read_leaderboard`, and the table it read: ``(Leaderboard, table)``, so that the names of the
    best teams (:func:`top_teams`) come from the same reading of the file."""
    import numpy as np

    direction = check_direction(direction)
    lower = direction == "lower"
    chance = _chance_level(classes, lower_bound)  # as an accuracy (or AUC): 1 - the error rate
    if max_plausible is not None:
        max_plausible = check_probability(max_plausible, "max_plausible", closed=lower, upper_open=lower)
        if _gain(max_plausible, lower) <= chance:
            level = _gain(chance, lower)
            raise InputError(
                f"max_plausible: expected a value {'below' if lower else 'above'} the chance level "
                f"{level:g} set by classes and lower_bound (no score could be kept), got {max_plausible!r}"
            )
    for name, value in (("score_column", score_column), ("team_column", team_column)):
        if value is not None and not isinstance(value, str):
            raise InputError(f"{name}: expected a column name, got {value!r}")
    table = table_of(source, example=_LEADERBOARD_HEADER, what="a leaderboard table")
    team, score = choose_columns(table, score_column, team_column)
    values = table.scores(score)
    rows = len(values)
    values[np.isnan(values) | (_gain(values, lower) == 0)] = np.nan
    if team is None:
        best, first_rows, codes = values, np.arange(rows), None
    else:
        ids = table.team_ids(team)
        _, first, inverse = np.unique(ids, return_index=True, return_inverse=True)
        order = np.argsort(first, kind="stable")
        first_rows = first[order]
        codes = np.empty_like(order)
        codes[order] = np.arange(len(order))
        codes = codes[inverse.reshape(-1)]
        best = np.full(len(order), np.nan)
        (np.fmin if lower else np.fmax).at(best, codes, values)
    gain = _gain(best, lower)  # the scores as accuracies (or AUCs): higher is better
    warnings = _check_order(table, gain, first_rows, codes, direction) if listed else ()
    warnings += _shared_names(table, team)
    broken = np.isnan(best)
    below = ~broken & (gain <= chance)
    best_plausible = math.inf if max_plausible is None else _gain(max_plausible, lower)
    above = ~broken & ~below & (gain > best_plausible)
    scores = best[~(broken | below | above)]
    scores.flags.writeable = False
    board = Leaderboard(
        scores=scores,
        excluded={"broken": int(broken.sum()), "chance": int(below.sum()), "implausible": int(above.sum())},
        rows=rows,
        teams=len(best),
        column=table.header[score],
        source=table.name,
        warnings=warnings,
        direction=direction,
    )
    return board, table


def _gain(scores, lower: bool):
    """The scores as accuracies (or AUCs), higher is better: themselves, or 1 - the error rates."""
    return 1.0 - scores if lower else scores


#: Columns that rank the teams, 1 = best, compared case-insensitively.
_RANK_COLUMNS = ("rank", "position", "place")
#: Distinct scores a file's order needs before it says anything (without a rank column): a random order
#: of m distinct scores rises throughout with probability 1/m!, 1/120 for five.
_ORDERED = 5
#: Teams in a file sorted by score, from which on it is taken for a leaderboard listed best first (as
#: Kaggle's final leaderboards are) rather than a short list that may be sorted either way.
_BOARD = 100


def _check_order(table, gain, first_rows, codes, direction: str) -> tuple[str, ...]:
    """InputError when the table lists its teams best first and their scores contradict `direction`; a
    warning when its order only suggests it.

    The teams are ranked by a rank column (:data:`_RANK_COLUMNS`, a team's best rank), else listed in
    their first rows' order. `gain` holds each team's best score as an accuracy (NaN when broken). If it
    never falls down the list and rises somewhere, the first team listed is the worst for `direction`:

    * with a rank column, rank 1 is the best team by definition, so `direction` is wrong: InputError;
    * in the file's order, a board of at least :data:`_BOARD` teams sorted by score is a leaderboard,
      listed best first as leaderboards are, so `direction` is wrong: InputError. A shorter list may
      have been sorted worst first on purpose (``sorted(scores)``): a warning, given back as a 1-tuple.

    Only a monotone order counts (ties allowed), with at least two distinct scores ranked or
    :data:`_ORDERED` listed: a table sorted by another column says nothing, nor does one in the order of
    a date column (such as Kaggle's raw download, in the order of submission).
    """
    import numpy as np

    lowered = [name.lower().strip() for name in table.header]
    rank = next((k for k, name in enumerate(lowered) if name in _RANK_COLUMNS), None)
    dates = [k for k, name in enumerate(lowered) if "date" in name or "time" in name]
    if rank is None and any(_in_order(table.cells(k)) for k in dates):
        return ()
    listed = np.arange(gain.size)
    where = "file" if table.name != "<table>" else "table"
    how = f"in the {where}'s order"
    if rank is not None:
        ranks = np.array([float(cell) if is_number(cell) else np.nan for cell in table.cells(rank)])
        team_rank = ranks if codes is None else np.full(gain.size, np.nan)
        if codes is not None:
            np.fmin.at(team_rank, codes, ranks)
        listed = listed[np.argsort(team_rank, kind="stable")]
        listed = listed[~np.isnan(team_rank[listed])]
        how = f"by the column {table.header[rank]!r}"
    listed = listed[~np.isnan(gain[listed])]
    sequence = gain[listed]
    if sequence.size < 2 or np.unique(sequence).size < (2 if rank is not None else _ORDERED):
        return ()
    if not np.all(np.diff(sequence) >= 0):
        return ()
    first, last = listed[0], listed[-1]
    words = "rise" if direction == "higher" else "fall"
    other, what = ("lower", "an error rate") if direction == "higher" else ("higher", "an accuracy or AUC")
    place = len(table.name) + 2  # where(k) starts with the table's name and ", "
    span = (
        f"from {_written(gain, first, direction)} ({table.where(first_rows[first])[place:]}) to "
        f"{_written(gain, last, direction)} ({table.where(first_rows[last])[place:]})"
    )
    if rank is not None or sequence.size >= _BOARD:
        raise InputError(
            f"{table.name}: the teams are listed best first ({how}) and their scores {words}, {span}: "
            f"with direction {direction!r} the best team would be listed last; if {other} scores are "
            f"better ({what}), give direction='{other}' (--direction {other}), else list the teams best "
            "first"
        )
    return (
        f"the teams' scores {words} down the {where}, {span}: if it lists the best team first, {other} "
        f"scores are better ({what}) and the result is wrong; give direction='{other}' (--direction "
        f"{other}), or list the teams best first to silence this warning.",
    )


def _in_order(cells: list[str]) -> bool:
    """Whether text cells (dates written year first, as ISO 8601 and Kaggle write them) never go back."""
    from itertools import pairwise

    return all(a <= b for a, b in pairwise(cells))


def _written(gain, team, direction) -> str:
    """A team's best score, as a number (the gain back in the table's terms)."""
    return f"{float(_gain(gain[team], direction == 'lower')):g}"


def bundled_leaderboard(competition: str = "titanic") -> Path:
    """The path of a Kaggle leaderboard bundled with benchtrust (sources in ``benchtrust/data/README.md``).

    Parameters
    ----------
    competition : {"titanic", "cassava", "melanoma"}
        * ``"titanic"``: the public leaderboard of "Titanic: Machine Learning from Disaster" on 2019-11-22,
          as Kaggle's raw download writes it (32,578 submissions of 16,273 teams); accuracy on 209 test
          passengers.
        * ``"cassava"``: the final leaderboard of "Cassava Leaf Disease Classification" (3,901 teams,
          accuracy on about 15,000 images, 5 classes), the paper's §5.1.2.
        * ``"melanoma"``: the final leaderboard of "SIIM-ISIC Melanoma Classification" (3,308 teams, AUC),
          the paper's §5.2.

    Returns
    -------
    pathlib.Path
        The file inside the installed package; read it, never write it.

    See Also
    --------
    read_leaderboard : Read the file.
    Leaderboard : What it reads into.
    leaderboard : Estimate the state of the art from it.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5.1.2 and Fig. 8 (Cassava Leaf
       Disease Classification); §5.2, Fig. 9 and §5.2.1, Fig. 12 (SIIM-ISIC Melanoma Classification).
       The Titanic leaderboard is not in the paper.

    Examples
    --------
    >>> board = read_leaderboard(bundled_leaderboard(), direction="higher", classes=2)
    >>> board.rows, board.teams, board.column
    (32578, 16273, 'Score')
    >>> board.excluded
    {'broken': 39, 'chance': 57, 'implausible': 0}
    >>> cassava = read_leaderboard(bundled_leaderboard("cassava"), direction="higher", classes=5)
    >>> cassava.teams, len(cassava.scores), float(cassava.scores.max())
    (3901, 3755, 0.9132)
    """
    if competition not in _BUNDLED_LEADERBOARDS:
        known = ", ".join(repr(name) for name in _BUNDLED_LEADERBOARDS)
        raise InputError(f"competition: expected one of {known}, got {competition!r}")
    return bundled_file(_BUNDLED_LEADERBOARDS[competition])


#: Column names that hold a team's name, compared case-insensitively without ``_`` and blanks.
_NAME_COLUMNS = ("teamname", "team", "name", "method", "model")
#: Names listed in the warning about shared names; the rest are counted.
_NAMES_LISTED = 5


def _name_column(table) -> int | None:
    """The index of the first column of `table` that holds team names (:data:`_NAME_COLUMNS`), or None."""
    lowered = [name.lower().replace("_", "").replace(" ", "") for name in table.header]
    return next((k for k, name in enumerate(lowered) if name in _NAME_COLUMNS), None)


def _shared_names(table, team: int | None) -> tuple[str, ...]:
    """The warning about team names given to more than one team of `table` (teams by column `team`, or
    one per row when None), as a 1-tuple of a sentence; empty when no name is shared."""
    from collections import Counter

    column = _name_column(table)
    if column is None or column == team:
        return ()
    names = table.cells(column)
    if team is None:
        counts = Counter(name for name in names if name)
        unit, what = "row", "each row counted as a team"
        advice = "if a name's rows are one team's submissions, give its column as the team column"
    else:
        pairs = dict.fromkeys(zip(names, table.cells(team), strict=True))  # each (name, id) once
        counts = Counter(name for name, _ in pairs if name)
        unit, what = "team id", "counted as different teams"
        advice = "to count each name once, give its column as the team column"
    shared = [(name, count) for name, count in counts.items() if count > 1]
    if not shared:
        return ()
    listed = ", ".join(f"{name!r} ({count} {unit}s)" for name, count in shared[:_NAMES_LISTED])
    more = f" and {len(shared) - _NAMES_LISTED} more" if len(shared) > _NAMES_LISTED else ""
    names_text = "1 team name is" if len(shared) == 1 else f"{len(shared)} team names are"
    return (
        f"{names_text} on more than one {unit}, {what}: {listed}{more}; {advice} (team_column, "
        "--team-column) so that only its best score counts.",
    )


def _chance_level(classes, lower_bound) -> float:
    """The chance level set by `classes` and `lower_bound`, ``-inf`` when neither is given."""
    levels = []
    if classes is not None:
        number = check_number(classes, "classes")
        if number < 2 or not number.is_integer():
            raise InputError(f"classes: expected a whole number of at least 2, got {classes!r}")
        levels.append(1 / int(number))
    if lower_bound is not None:
        levels.append(check_probability(lower_bound, "lower_bound", closed=True, upper_open=True))
    return max(levels, default=-math.inf)


def choose_columns(table, score_column: str | None, team_column: str | None = None) -> tuple[int | None, int]:
    """The indices of the team id column (None if absent) and of the score column in `table`'s header."""
    header = table.header
    lowered = [field.lower() for field in header]
    if team_column is not None:
        teams = _named(table, team_column, "team_column")
    else:
        teams = [k for k, field in enumerate(lowered) if field.replace("_", "").replace(" ", "") == "teamid"]
        if len(teams) > 1:
            raise InputError(f"{table.header_place}: several team id columns ({_names(header, teams)})")
    team = teams[0] if teams else None
    if score_column is not None:
        matches = _named(table, score_column, "score_column")
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
                    f"score_column; found {_found(table)}"
                )
            if len({lowered[k] for k in matches}) > 1:
                raise InputError(
                    f"{table.header_place}: several score columns ({_names(header, matches)}); "
                    "choose one with score_column"
                )
    for same in (matches, teams):
        if len(same) > 1:
            raise InputError(same_name_message(table.header_place, [header[k] for k in same]))
    if team == matches[0]:
        raise InputError(
            f"{table.header_place}: column {header[team]!r} cannot be both the team and the score column"
        )
    return team, matches[0]


def _named(table, name: str, argument: str) -> list[int]:
    """The index of the column called `name`, in any case (:func:`benchtrust._io.find_column`), as a
    list of one; InputError naming `argument` and the columns found when there is none."""
    index = find_column(table.header, name, table.header_place)
    if index is None:
        raise InputError(f"{table.header_place}: no column {name!r} ({argument}); found {_found(table)}")
    return [index]


def _found(table) -> str:
    """The columns of `table`'s header, listed for a message, and how the file was split."""
    return ", ".join(repr(field) for field in table.header) + table.layout


def _names(header: list[str], indices: list[int]) -> str:
    return ", ".join(repr(header[k]) for k in indices)


def top_teams(
    table,
    *,
    score_column=None,
    team_column=None,
    classes=None,
    max_plausible=None,
    direction,
    count=5,
):
    """The best `count` teams of a leaderboard table: a list of (name, score text), best first.

    A team's name is read from a column named ``TeamName``, ``team``, ``name``, ``method`` or ``model``
    (any case), else from `team_column`; rows of one team (the team column of :func:`read_leaderboard`,
    else the name) are reduced to its best score (the lowest for ``direction="lower"``). Scores that are
    not numbers, broken, at or below the chance level ``1/classes`` or better than `max_plausible` are
    left out, as :func:`read_leaderboard` does.

    Parameters
    ----------
    table
        The leaderboard's table as read (:func:`read_with_table`, :func:`benchtrust._io.table_of`).
    score_column, team_column, classes, max_plausible, direction
        As for :func:`read_leaderboard`; `direction` has no default there either.
    count : int, default 5
        The number of teams to list.

    Returns
    -------
    list of (str, str)
        Each team's name and its best score as written; empty when the table names no teams.

    Examples
    --------
    >>> import pandas as pd
    >>> board = table_of(pd.DataFrame({"TeamName": ["a", "b", "a"], "Score": [0.8, 0.85, 0.9]}), example="")
    >>> top_teams(board, direction="higher", count=2)
    [('a', '0.9'), ('b', '0.85')]
    >>> top_teams(board, direction="lower")  # error rates: a's best is 0.8
    [('a', '0.8'), ('b', '0.85')]
    """
    name = _name_column(table)
    if name is None and team_column is None:
        return []
    team, score = choose_columns(table, score_column, team_column)
    names = table.cells(team if name is None else name)
    keys = names if team is None else table.cells(team)
    lower = check_direction(direction) == "lower"
    chance = 1 / classes if classes else -math.inf
    best_plausible = math.inf if max_plausible is None else _gain(max_plausible, lower)
    best: dict[str, tuple[float, str, str]] = {}
    for name, key, text in zip(names, keys, table.cells(score), strict=True):
        try:
            value = _gain(float(text), lower)  # as an accuracy: higher is better
        except ValueError:
            continue
        if not math.isfinite(value) or value == 0 or value <= chance or value > best_plausible:
            continue
        if key not in best or value > best[key][0]:
            best[key] = (value, name, text)
    ranked = sorted(best.values(), key=lambda item: item[0], reverse=True)
    return [(name, text) for _, name, text in ranked[:count]]
