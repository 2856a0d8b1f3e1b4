"""benchtrust.sota.read_leaderboard: Kaggle downloads, plain tables and DataFrames, filters and errors."""

import csv
import dataclasses
import hashlib
import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust.sota import Leaderboard, bundled_leaderboard, read_leaderboard
from benchtrust.sota._read import read_with_table, top_teams

#: The reading of read_with_table with read_leaderboard's defaults, higher is better.
READING = {
    "score_column": None,
    "team_column": None,
    "classes": None,
    "max_plausible": None,
    "lower_bound": None,
    "direction": "higher",
    "listed": True,
}

HERE = Path(__file__).parents[1]
OLDER = HERE / "data" / "titanic-2019-10-18.csv"
#: How a score outside [0, 1] is refused: the models need proportions.
NOT_PROPORTION = (
    ": the accuracy and AUC models need proportions in [0, 1], not a loss or distance on another scale "
    "(log-loss, RMSE)"
)

#: SHA-256 of the files in the shared data folder: the copies must be byte for byte the originals.
SHA256 = {
    "titanic-2019-10-18.csv": "859821d9e44c5ef01667ac045fe895699f97b4bf75fcb23194a70ef82becfee5",
    "titanic-2019-11-22.csv": "792b66cf396d2696bcf8cb6613e5d63412649ca710b7cf30499b7b4e5a489bdb",
}


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def read_unchanged(source, direction="higher", **kwargs) -> Leaderboard:
    """read_leaderboard(source) of accuracies unless `direction` says otherwise, checking the file is byte
    for byte the same afterwards, even on error."""
    before = sha256(source)
    try:
        return read_leaderboard(source, direction=direction, **kwargs)
    finally:
        assert sha256(source) == before


def raises_input_error(source, message: str, direction="higher", **kwargs) -> None:
    """read_leaderboard must raise InputError with exactly `message` (and leave a file as it was)."""
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        if isinstance(source, pd.DataFrame):
            read_leaderboard(source, direction=direction, **kwargs)
        else:
            read_unchanged(source, direction=direction, **kwargs)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    """Work inside tmp_path, so files can be named as a user would name them: 'leaderboard.csv'."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(name: str, content: str | bytes) -> str:
    data = content.encode("utf-8") if isinstance(content, str) else content
    Path(name).write_bytes(data)
    return name


KAGGLE_HEADER = "\ufeffTeamId,TeamName,SubmissionDate,Score\n"


# ---------------------------------------------------------------------------------------------------------
# The two real Titanic snapshots, checked against an independent reading with the csv module


def independent_best(path: Path) -> tuple[int, dict[str, str]]:
    """(data rows, {TeamId: best score as written}) in order of each team's first row, via the csv module."""
    with open(path, encoding="utf-8-sig", newline="") as stream:
        rows = list(csv.DictReader(stream))
    best: dict[str, str] = {}
    for row in rows:
        team, score = row["TeamId"], row["Score"]
        if team not in best or float(score) > float(best[team]):
            best[team] = score
    return len(rows), best


SNAPSHOTS = {
    # name: (path, rows, teams) as the shared data README's table gives them
    "2019-10-18": (lambda: OLDER, 25_704, 12_264),
    "2019-11-22": (bundled_leaderboard, 32_578, 16_273),
}


@pytest.fixture(params=sorted(SNAPSHOTS), scope="module")
def snapshot(request):
    locate, rows, teams = SNAPSHOTS[request.param]
    path = locate()
    counted_rows, best = independent_best(path)
    return request.param, path, rows, teams, counted_rows, best


def test_copies_are_byte_identical_to_the_originals():
    assert sha256(bundled_leaderboard()) == SHA256["titanic-2019-11-22.csv"]
    assert sha256(OLDER) == SHA256["titanic-2019-10-18.csv"]


def test_bundled_leaderboard_is_a_file_of_the_package():
    import benchtrust

    path = bundled_leaderboard()
    assert isinstance(path, Path)
    assert path.is_file()
    assert path.name == "titanic-2019-11-22.csv"
    assert path.parent == Path(benchtrust.__file__).parent / "data"
    assert path.read_bytes().startswith(KAGGLE_HEADER.encode("utf-8"))


def test_snapshot_rows_and_teams(snapshot):
    _, path, rows, teams, counted_rows, best = snapshot
    board = read_unchanged(path)
    assert (board.rows, board.teams) == (rows, teams) == (counted_rows, len(best))
    assert board.column == "Score"
    assert board.source == str(path)


def test_snapshot_scores_are_each_teams_best_in_first_row_order(snapshot):
    _, path, *_, best = snapshot
    board = read_unchanged(path)
    expected = [float(score) for score in best.values() if float(score) > 0]
    np.testing.assert_array_equal(board.scores, expected)


def test_snapshot_scores_are_k_over_209_truncated_to_5_decimals(snapshot):
    """Kaggle truncates: 49/209 = 0.2344497... is written 0.23444, so the error reaches 1e-5, not 5e-6."""
    _, path, *_, best = snapshot
    written = np.array([int(score.replace(".", "")) for score in best.values()])  # score * 10^5, exact
    k = -(-written * 209 // 100_000)  # the smallest k with k/209 >= score
    np.testing.assert_array_equal(k * 100_000 // 209, written)
    board = read_leaderboard(path, direction="higher")
    gap = np.ceil(board.scores * 209 - 1e-9) / 209 - board.scores
    assert gap.min() >= 0
    assert gap.max() < 1e-5


def test_snapshot_broken_and_chance_counts(snapshot):
    _, path, *_, best = snapshot
    scores = [float(score) for score in best.values()]
    board = read_unchanged(path, classes=2)
    assert board.excluded == {
        "broken": sum(score == 0 for score in scores),
        "chance": sum(0 < score <= 0.5 for score in scores),
        "implausible": 0,
    }
    assert len(board.scores) == sum(score > 0.5 for score in scores)
    assert board.scores.min() > 0.5


def test_snapshot_counts_as_reported():
    """The counts this reader finds, written out, so that a change in them is seen."""
    counts = {
        name: read_leaderboard(locate(), direction="higher", classes=2, max_plausible=0.999).to_dict()
        for name, (locate, _, _) in SNAPSHOTS.items()
    }
    assert {name: (c["teams"], c["kept"], c["excluded"]) for name, c in counts.items()} == {
        "2019-10-18": (12_264, 12_092, {"broken": 45, "chance": 56, "implausible": 71}),
        "2019-11-22": (16_273, 16_066, {"broken": 39, "chance": 57, "implausible": 111}),
    }


def test_snapshot_perfect_scores(snapshot):
    name, path, *_, best = snapshot
    scores = np.array([float(score) for score in best.values()])
    perfect = int((scores == 1).sum())
    board = read_unchanged(path, max_plausible=0.999)
    assert board.excluded["implausible"] == perfect
    assert board.scores.max() < 1
    np.testing.assert_array_equal(board.scores, scores[(scores > 0) & (scores < 1)])
    # The shared README says "118 teams at 1.00000 in the newer snapshot": 111 teams are at 1.00000 and
    # 7 more at 208/209 = 0.99521 (one passenger wrong); 118 is the count at or above 0.99.
    at_least_208 = int((scores >= 0.995).sum())
    assert (perfect, at_least_208) == {"2019-10-18": (71, 75), "2019-11-22": (111, 118)}[name]
    # max_plausible=1 keeps perfect scores
    assert read_leaderboard(path, direction="higher", max_plausible=1).excluded["implausible"] == 0


# ---------------------------------------------------------------------------------------------------------
# Kaggle's format


def test_kaggle_download_grouped_by_team_in_first_row_order(in_tmp):
    name = write(
        "leaderboard.csv",
        KAGGLE_HEADER + '7,"Ann, Bo",2019-01-02,0.00000\n'
        "3,Zoë 張,2019-01-03,0.70000\n"
        '7,"Ann, Bo",2019-01-04,0.80000\n'
        '5,"The ""best"" team",2019-01-05,0.60000\n'
        "3,Zoë 張,2019-01-06,0.65000\n",
    )
    board = read_unchanged(name)
    np.testing.assert_array_equal(board.scores, [0.8, 0.7, 0.6])
    assert (board.rows, board.teams, board.column, board.source) == (5, 3, "Score", "leaderboard.csv")
    assert board.excluded == {"broken": 0, "chance": 0, "implausible": 0}


def test_team_name_with_a_newline_keeps_line_numbers_right(in_tmp):
    name = write(
        "leaderboard.csv",
        KAGGLE_HEADER
        + '1,"two\nlines",2019-01-02,0.7\n2,"three\r\nline\nname",2019-01-03,0.8\n3,c,2019-01-04,abc\n',
    )
    raises_input_error(name, "leaderboard.csv, line 7, column 'Score': expected a number, got 'abc'")


def test_crlf_blank_lines_and_comment_preamble(in_tmp):
    name = write(
        "leaderboard.csv",
        "# downloaded from Kaggle\r\n\r\nTeamId,TeamName,SubmissionDate,Score\r\n"
        "1,a,d,0.7\r\n\r\n2,b,d,0.9x\r\n",
    )
    raises_input_error(name, "leaderboard.csv, line 6, column 'Score': expected a number, got '0.9x'")


def test_hash_after_the_header_is_data(in_tmp):
    name = write("leaderboard.csv", "team,score\n#1 fan,0.7\n# not a comment,0.8\n")
    board = read_unchanged(name)
    np.testing.assert_array_equal(board.scores, [0.7, 0.8])


def test_rows_of_only_delimiters_are_blank(in_tmp):
    name = write("leaderboard.csv", "team,score\nA,0.7\n,\n")
    assert read_unchanged(name).rows == 1


@pytest.mark.parametrize("header", ["TeamId", "teamid", "team_id", "Team ID"])
def test_team_id_column_any_spelling(in_tmp, header):
    name = write("leaderboard.csv", f"{header},score\n1,0.7\n1,0.9\n2,0.8\n")
    board = read_unchanged(name)
    np.testing.assert_array_equal(board.scores, [0.9, 0.8])
    assert (board.rows, board.teams) == (3, 2)


def test_without_team_id_every_row_is_a_team(in_tmp):
    name = write("leaderboard.csv", "team,score\nA,0.7\nA,0.9\n")
    board = read_unchanged(name)
    np.testing.assert_array_equal(board.scores, [0.7, 0.9])
    assert (board.rows, board.teams) == (2, 2)


def test_team_column_names_the_team_of_each_row(in_tmp):
    name = write("leaderboard.csv", "user,TeamId,score\nA,1,0.7\nA,2,0.9\nB,3,0.8\n")
    board = read_unchanged(name, team_column="User")
    np.testing.assert_array_equal(board.scores, [0.9, 0.8])
    assert (board.rows, board.teams) == (3, 2)
    frame = pd.DataFrame({"user": ["A", "A", "B"], "score": [0.7, 0.9, 0.8]})
    assert read_leaderboard(frame, direction="higher", team_column="user").scores.tolist() == [0.9, 0.8]


def test_team_column_must_exist_and_differ_from_the_score_column(in_tmp):
    name = write("leaderboard.csv", "user,score\nA,0.7\n")
    raises_input_error(
        name,
        "leaderboard.csv, line 1: no column 'team' (team_column); found 'user', 'score' "
        "(read as comma-separated)",
        team_column="team",
    )
    raises_input_error(
        name,
        "leaderboard.csv, line 1: column 'score' cannot be both the team and the score column",
        team_column="score",
    )


def test_top_teams_of_a_file_or_a_dataframe(in_tmp):
    name = write("leaderboard.csv", "TeamId,TeamName,Score\n1,a,0.7\n2,b,0.8\n1,a,0.9\n3,c,1.0\n")
    read = read_with_table(name, **READING)[1]
    assert top_teams(read, direction="higher", count=2) == [("c", "1.0"), ("a", "0.9")]
    assert top_teams(read, direction="higher", max_plausible=0.999) == [("a", "0.9"), ("b", "0.8")]
    frame = pd.DataFrame({"TeamName": ["a", "b", "a"], "Score": [0.7, 0.8, 0.9]})
    assert top_teams(read_with_table(frame, **READING)[1], direction="higher") == [("a", "0.9"), ("b", "0.8")]
    # without a name column, no table of names; a team column named by the user gives the names
    bare = read_with_table(pd.DataFrame({"user": ["u1", "u2", "u1"], "score": [0.7, 0.8, 0.9]}), **READING)[1]
    assert top_teams(bare, direction="higher") == []
    assert top_teams(bare, direction="higher", team_column="user") == [("u1", "0.9"), ("u2", "0.8")]


def test_read_with_table_is_read_leaderboard_and_its_table(in_tmp):
    name = write("leaderboard.csv", "TeamId,TeamName,Score\n1,a,0.7\n2,b,0.8\n1,a,0.9\n3,c,1.0\n")
    board, table = read_with_table(name, **READING)
    assert board.to_dict() == read_leaderboard(name, direction="higher").to_dict()
    assert table.header == ["TeamId", "TeamName", "Score"]


def test_a_leaderboard_keeps_its_file_and_its_top_teams(in_tmp):
    # the file is read once; its name and best teams stay with the result, for its text and its section
    from benchtrust.sota import leaderboard

    name = write("leaderboard.csv", "TeamId,TeamName,Score\n1,a,0.7\n2,b,0.8\n1,a,0.9\n3,c,1.0\n4,d,0.6\n")
    result = leaderboard(name, test_size=10, direction="higher", max_plausible=0.999, correlation=0)
    assert result.inputs == (name,)
    assert str(result).startswith(f"state of the art from the leaderboard {name} (")
    assert result.top_teams == (("a", "0.9"), ("b", "0.8"), ("d", "0.6"))
    table = result.describe().tables[0]
    assert table[2] == (("1", "a", "0.9"), ("2", "b", "0.8"), ("3", "d", "0.6"))
    # scores given as a list name no file and no teams
    listed = leaderboard([0.9, 0.8, 0.6], test_size=10, direction="higher", correlation=0)
    assert (listed.inputs, listed.top_teams, listed.describe().tables) == ((), (), ())


# ---------------------------------------------------------------------------------------------------------
# Broken scores and filters


@pytest.mark.parametrize("cell", ["", "nan", "NaN", "NA", "null", "None", "0", "0.00000", " "])
def test_broken_cells_are_counted_not_errors(in_tmp, cell):
    name = write("leaderboard.csv", f"team,score\nA,0.7\nB,{cell}\n")
    board = read_unchanged(name)
    np.testing.assert_array_equal(board.scores, [0.7])
    assert board.excluded == {"broken": 1, "chance": 0, "implausible": 0}
    assert (board.rows, board.teams) == (2, 2)


def test_a_team_is_broken_only_without_any_valid_score(in_tmp):
    name = write("leaderboard.csv", "TeamId,Score\n1,0\n1,0.6\n2,\n2,0\n3,NaN\n3,0.7\n")
    board = read_unchanged(name)
    np.testing.assert_array_equal(board.scores, [0.6, 0.7])
    assert board.excluded["broken"] == 1


def test_chance_level_from_classes(in_tmp):
    name = write("leaderboard.csv", "team,accuracy\nA,0.25\nB,0.2501\nC,0.9\nD,0.1\n")
    board = read_unchanged(name, classes=4)
    np.testing.assert_array_equal(board.scores, [0.2501, 0.9])
    assert board.excluded == {"broken": 0, "chance": 2, "implausible": 0}


def test_lower_bound_and_classes_take_the_larger(in_tmp):
    name = write("leaderboard.csv", "team,auc\nA,0.5\nB,0.55\nC,0.6\nD,0.3\n")
    assert read_unchanged(name, lower_bound=0.5).excluded["chance"] == 2
    assert read_unchanged(name, classes=2, lower_bound=0.55).excluded["chance"] == 3
    assert read_unchanged(name, classes=4, lower_bound=0.3).excluded["chance"] == 1


def test_filters_apply_in_order_and_count_once(in_tmp):
    name = write("leaderboard.csv", "TeamId,score\n1,0\n2,0.4\n3,1.0\n4,0.8\n5,0.999\n4,0.85\n")
    board = read_unchanged(name, classes=2, max_plausible=0.99)
    np.testing.assert_array_equal(board.scores, [0.85])
    assert board.excluded == {"broken": 1, "chance": 1, "implausible": 2}
    assert board.teams == 5
    assert read_unchanged(name, max_plausible=1.0).excluded == {"broken": 1, "chance": 0, "implausible": 0}


# ---------------------------------------------------------------------------------------------------------
# Plain tables: delimiters, column choice


@pytest.mark.parametrize(
    ("content", "column"),
    [
        ("model,Score\nA,0.7\nB,0.8\n", "Score"),
        ("model\tACCURACY\nA\t0.7\nB\t0.8\n", "ACCURACY"),
        ("model;auc;note\nA;0.7;x, y\nB;0.8;z\n", "auc"),
        ("score\n0.7\n0.8\n", "score"),
    ],
    ids=["csv", "tsv", "semicolon", "one-column"],
)
def test_plain_tables(in_tmp, content, column):
    name = write("scores.txt", content)
    board = read_unchanged(name)
    np.testing.assert_array_equal(board.scores, [0.7, 0.8])
    assert board.column == column


@pytest.mark.parametrize(
    ("header", "private"),
    [
        ("TeamId,PublicScore,PrivateScore", "PrivateScore"),
        ("TeamId,private_score,public_score", "private_score"),
        ("TeamId,Score,Private,Public", "Private"),
        ("TeamId,PrivateRank,PrivateScore,PublicScore", "PrivateScore"),
    ],
)
def test_private_public_pair_uses_the_private_score(in_tmp, header, private):
    columns = header.split(",")
    values = {"TeamId": "1", private: "0.8"}
    row = ",".join(values.get(column, "0.9") for column in columns)
    name = write("leaderboard.csv", f"{header}\n{row}\n")
    board = read_unchanged(name)
    assert board.column == private
    np.testing.assert_array_equal(board.scores, [0.8])


def test_score_column_overrides_the_default(in_tmp):
    name = write("leaderboard.csv", "TeamId,PrivateScore,PublicScore\n1,0.8,0.9\n")
    assert read_unchanged(name, score_column="PublicScore").scores.tolist() == [0.9]
    assert read_unchanged(name, score_column="publicscore").column == "PublicScore"


def test_score_columns_differing_only_in_case_are_an_error(in_tmp):
    """Which of 'Score' and 'score' was meant cannot be told, even when one is written as asked."""
    name = write("leaderboard.csv", "team,Score,score\nA,0.7,0.8\n")
    message = "leaderboard.csv, line 1: columns 'Score' and 'score' differ only in case; rename one"
    raises_input_error(name, message, score_column="score")
    raises_input_error(name, message)
    same = write("same.csv", "team,score,score\nA,0.7,0.8\n")
    raises_input_error(same, "same.csv, line 1: the header names column 'score' 2 times")
    raises_input_error(
        same, "same.csv, line 1: the header names column 'score' 2 times", score_column="SCORE"
    )


def test_team_column_in_any_case(in_tmp):
    name = write("leaderboard.csv", "User,Score\nA,0.7\nA,0.8\nB,0.6\n")
    assert read_unchanged(name, team_column="user").scores.tolist() == [0.8, 0.6]


# --- team names on more than one team: counted as read, with a warning -------------------------------------


def test_a_name_on_several_rows_is_counted_per_row_with_a_warning(in_tmp):
    name = write("leaderboard.csv", "TeamName,Score\na,0.7\nb,0.75\na,0.8\nc,0.6\nc,0.65\nc,0.66\n")
    board = read_unchanged(name)
    assert board.teams == 6
    assert board.warnings == (
        "2 team names are on more than one row, each row counted as a team: 'a' (2 rows), 'c' (3 rows); "
        "if a name's rows are one team's submissions, give its column as the team column (team_column, "
        "--team-column) so that only its best score counts.",
    )
    assert board.to_dict()["warnings"] == list(board.warnings)
    grouped = read_unchanged(name, team_column="teamname")
    assert (grouped.teams, grouped.warnings) == (3, ())


def test_a_name_on_several_team_ids_is_counted_per_id_with_a_warning(in_tmp):
    rows = "1,Ann,d,0.7\n2,Ann,d,0.75\n1,Ann,d,0.8\n3,Bo,d,0.6\n"
    board = read_unchanged(write("leaderboard.csv", KAGGLE_HEADER + rows))
    assert board.teams == 3
    assert board.warnings[0].startswith(
        "1 team name is on more than one team id, counted as different teams: 'Ann' (2 team ids); "
        "to count each name once"
    )


def test_many_shared_names_are_counted_not_all_listed():
    frame = pd.DataFrame(
        {"model": [f"m{k % 8}" for k in range(16)], "score": [0.75 - k / 100 for k in range(16)]}
    )
    (warning,) = read_leaderboard(frame, direction="higher").warnings
    assert (
        warning.startswith("8 team names are on more than one row") and "'m4' (2 rows) and 3 more;" in warning
    )


def test_distinct_names_or_no_name_column_give_no_warning(in_tmp):
    assert read_unchanged(write("a.csv", "team,score\na,0.7\nb,0.8\n")).warnings == ()
    assert read_unchanged(write("b.csv", "id,score\na,0.7\na,0.8\n")).warnings == ()
    assert read_leaderboard(bundled_leaderboard(), direction="higher").warnings == ()


def test_the_warning_is_in_the_leaderboard_result_and_its_text(in_tmp):
    from benchtrust.sota import leaderboard

    name = write("leaderboard.csv", "team,score\na,0.81\nb,0.85\na,0.9\nd,0.87\ne,0.84\n")
    result = leaderboard(name, test_size=100, direction="higher", resamples=0)
    assert result.teams == 5 and len(result.warnings) == 1
    assert result.to_dict()["warnings"] == list(result.warnings)
    assert result.verdict.endswith("Warning: " + result.warnings[0])
    assert "Warning: 1 team name is on more than one row" in str(result)
    assert "Warning: 1 team name is on more than one row" in result._repr_html_()


def test_file_is_read_not_modified_and_result_is_frozen(in_tmp):
    name = write("leaderboard.csv", KAGGLE_HEADER + "1,a,d,0.7\n2,b,d,0.8\n")
    board = read_unchanged(name)
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.rows = 3
    with pytest.raises(ValueError, match="read-only"):
        board.scores[0] = 1.0


def test_to_dict_and_repr(in_tmp):
    name = write("leaderboard.csv", "team,score\nA,0.7\nB,0\nC,0.3\n")
    board = read_unchanged(name, classes=2)
    assert board.to_dict() == {
        "source": "leaderboard.csv",
        "column": "score",
        "direction": "higher",
        "rows": 3,
        "teams": 3,
        "kept": 1,
        "excluded": {"broken": 1, "chance": 1, "implausible": 0},
        "warnings": [],
    }
    assert json.loads(json.dumps(board.to_dict())) == board.to_dict()
    assert repr(board) == (
        "Leaderboard(source='leaderboard.csv', column='score', direction='higher', rows=3, teams=3, kept=1, "
        "broken=1, chance=1, implausible=0)"
    )


def test_path_object_source_is_given_back_as_a_string(tmp_path):
    path = tmp_path / "leaderboard.csv"
    path.write_text("team,score\nA,0.7\n", encoding="utf-8")
    assert read_unchanged(path).source == str(path)


# ---------------------------------------------------------------------------------------------------------
# DataFrames


def test_dataframe_with_team_ids_and_missing_scores():
    frame = pd.DataFrame(
        {"TeamId": [7, 3, 7, 9], "TeamName": ["a", "b", "a", "c"], "Score": [0.6, 0.7, 0.8, np.nan]}
    )
    copy = frame.copy(deep=True)
    board = read_leaderboard(frame, direction="higher", classes=2)
    np.testing.assert_array_equal(board.scores, [0.8, 0.7])
    assert (board.rows, board.teams, board.column, board.source) == (4, 3, "Score", "<table>")
    assert board.excluded == {"broken": 1, "chance": 0, "implausible": 0}
    pd.testing.assert_frame_equal(frame, copy)


def test_dataframe_private_public_pair_and_text_cells():
    frame = pd.DataFrame({"private_score": ["0.8", None, "NA", 0.9], "public_score": [0.1, 0.2, 0.3, 0.4]})
    board = read_leaderboard(frame, direction="higher")
    assert board.column == "private_score"
    np.testing.assert_array_equal(board.scores, [0.8, 0.9])
    assert board.excluded["broken"] == 2


def test_dataframe_nullable_integers():
    frame = pd.DataFrame({"team_id": pd.array([1, 1, None, 2], dtype="Int64"), "auc": [0.6, 0.7, 0.8, 0.9]})
    raises_input_error(frame, "<table>, row 2, column 'team_id': empty, expected a team id")
    frame = pd.DataFrame({"accuracy": pd.array([1, 0, None], dtype="Int64")})
    board = read_leaderboard(frame, direction="higher")
    assert board.scores.tolist() == [1.0]
    assert board.excluded["broken"] == 2


@pytest.mark.parametrize(
    ("frame", "message"),
    [
        (
            pd.DataFrame({"score": [0.5, "abc"]}, index=["x", "y"]),
            "<table>, row 'y', column 'score': expected a number, got 'abc'",
        ),
        (
            pd.DataFrame({"score": [0.5, 2.0]}),
            f"<table>, row 1, column 'score': expected a score between 0 and 1, got 2.0{NOT_PROPORTION}",
        ),
        (
            pd.DataFrame({"score": [0.5, -0.5]}, index=[10, 11]),
            f"<table>, row 11, column 'score': expected a score between 0 and 1, got -0.5{NOT_PROPORTION}",
        ),
        (pd.DataFrame({"score": [True]}), "<table>, row 0, column 'score': expected a number, got True"),
        (pd.DataFrame({"score": []}), "<table>: no rows"),
        (
            pd.DataFrame({"model": ["a"], "value": [0.5]}),
            "<table>: no score column; expected one named 'score', 'accuracy' or 'auc' (any case), a "
            "private/public pair such as 'PrivateScore','PublicScore', or score_column; found 'model', "
            "'value'",
        ),
    ],
    ids=["text", "above-1", "negative", "bool", "no-rows", "no-column"],
)
def test_dataframe_errors(frame, message):
    raises_input_error(frame, message)


# ---------------------------------------------------------------------------------------------------------
# Bad files


@pytest.mark.parametrize("token", ["abc", "0.9x", "1/2", "91%"])
def test_non_numeric_score(in_tmp, token):
    name = write("leaderboard.csv", KAGGLE_HEADER + f"1,a,d,0.7\n2,b,d,{token}\n")
    raises_input_error(name, f"leaderboard.csv, line 3, column 'Score': expected a number, got {token!r}")


def test_decimal_comma_gets_a_hint(in_tmp):
    name = write("leaderboard.csv", "team;score\nA;0.7\nB;0,8\n")
    raises_input_error(
        name,
        "leaderboard.csv, line 3, column 'score': expected a number, got '0,8' (use '.' as the decimal mark)",
    )


@pytest.mark.parametrize("token", ["-0.1", "1.00001", "91.2", "inf", "-inf", "250"])
def test_score_outside_0_1(in_tmp, token):
    # a loss or distance next to a proportion: refused as not a proportion, with no percentage hint
    name = write("leaderboard.tsv", f"team\tscore\nA\t0.7\nB\t{token}\n")
    raises_input_error(
        name,
        f"leaderboard.tsv, line 3, column 'score': expected a score between 0 and 1, got {token!r}"
        + NOT_PROPORTION,
    )


@pytest.mark.parametrize(
    ("scores", "percentages"),
    [
        (["91.2", "88.5", "0", "75"], True),  # percentages (0: a broken submission)
        (["45.1", "40.2", "38.7"], True),  # 0-100 throughout: perhaps percentages, perhaps RMSE
        (["0.3", "0.71", "1.00076"], False),  # log-loss
        (["40.2", "120.5"], False),  # RMSE beyond 100
        (["12.5", "-3"], False),
        (["0.5", "100.5"], False),
    ],
)
def test_the_percentage_hint_only_when_every_score_looks_like_one(scores, percentages, in_tmp):
    rows = "".join(f"t{k},{score}\n" for k, score in enumerate(scores))
    name = write("board.csv", "team,score\n" + rows)
    with pytest.raises(InputError) as error:
        read_leaderboard(name, direction="lower")
    message = str(error.value)
    assert "\n" not in message and message.startswith("board.csv, line ")
    assert "column 'score'" in message and "need proportions in [0, 1]" in message
    assert ("percentages, divide them by 100" in message) == percentages


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "",
            "leaderboard.csv: empty (no lines other than blank or comment lines); expected a leaderboard "
            "table with a header line naming its columns, such as TeamId,TeamName,SubmissionDate,Score",
        ),
        (
            "\ufeff\n  \n# only a comment\n",
            "leaderboard.csv: empty (no lines other than blank or comment lines); expected a leaderboard "
            "table with a header line naming its columns, such as TeamId,TeamName,SubmissionDate,Score",
        ),
        (KAGGLE_HEADER + "\n", "leaderboard.csv: no rows below the header (line 1)"),
        (
            "\n0.7\n0.8\n",
            "leaderboard.csv, line 2: expected a header line naming the columns, such as "
            "TeamId,TeamName,SubmissionDate,Score; found '0.7'",
        ),
        (
            "1,0.7\n2,0.8\n",
            "leaderboard.csv, line 1: expected a header line naming the columns, such as "
            "TeamId,TeamName,SubmissionDate,Score; found '1,0.7'",
        ),
        (
            "model,value\nA,0.7\n",
            "leaderboard.csv, line 1: no score column; expected one named 'score', 'accuracy' or 'auc' "
            "(any case), a private/public pair such as 'PrivateScore','PublicScore', or score_column; "
            "found 'model', 'value' (read as comma-separated)",
        ),
        (
            "model,accuracy,AUC\nA,0.7,0.8\n",
            "leaderboard.csv, line 1: several score columns ('accuracy', 'AUC'); "
            "choose one with score_column",
        ),
        (
            "PrivateA,PrivateB,Public\n0.7,0.8,0.9\n",
            "leaderboard.csv, line 1: several private score columns ('PrivateA', 'PrivateB'); choose one "
            "with score_column",
        ),
        (
            "TeamId,team_id,score\n1,1,0.7\n",
            "leaderboard.csv, line 1: several team id columns ('TeamId', 'team_id')",
        ),
        (
            KAGGLE_HEADER + "1,a,d,0.7\n2,b, c,d,0.8\n",
            "leaderboard.csv, line 3: 5 fields, but the header (line 1) has 4; quote fields that contain "
            "the delimiter",
        ),
        (
            KAGGLE_HEADER + '1,a,d,0.7\n2,"b,d,0.8\n3,c,d,0.9\n',
            "leaderboard.csv, line 3: a quoted field is not closed before the end of the file",
        ),
        (
            KAGGLE_HEADER + '1,"a"b,d,0.7\n',
            "leaderboard.csv, line 2: ',' expected after '\"' (a quoted field must end at a delimiter; "
            'write a quote inside quotes as "")',
        ),
        (
            KAGGLE_HEADER + "1,a,d,0.7\n ,b,d,0.8\n",
            "leaderboard.csv, line 3, column 'TeamId': empty, expected a team id",
        ),
    ],
    ids=[
        "empty",
        "blank-and-comments",
        "header-only",
        "no-header",
        "no-header-two-columns",
        "no-score-column",
        "ambiguous-score-columns",
        "ambiguous-private",
        "two-team-id-columns",
        "field-count",
        "unclosed-quote",
        "text-after-quote",
        "empty-team-id",
    ],
)
def test_bad_files(in_tmp, content, message):
    raises_input_error(write("leaderboard.csv", content), message)


def test_missing_score_column_lists_the_columns(in_tmp):
    name = write("leaderboard.tsv", "team\tPrivateScore\tPublicScore\nA\t0.7\t0.8\n")
    raises_input_error(
        name,
        "leaderboard.tsv, line 1: no column 'accuracy' (score_column); found 'team', 'PrivateScore', "
        "'PublicScore' (read as tab-separated)",
        score_column="accuracy",
    )


def test_missing_file_folder_and_not_utf8(in_tmp):
    with pytest.raises(InputError, match=r"^nothing\.csv: no such file$"):
        read_leaderboard("nothing.csv", direction="higher")
    Path("results").mkdir()
    with pytest.raises(InputError, match=r"^results: is a folder, expected a file$"):
        read_leaderboard("results", direction="higher")
    name = write("leaderboard.csv", b"\xef\xbb\xbfTeamId,TeamName,SubmissionDate,Score\n1,caf\xe9,d,0.7\n")
    raises_input_error(name, "leaderboard.csv, line 2: not UTF-8 text (byte 0xe9); save the file as UTF-8")


# ---------------------------------------------------------------------------------------------------------
# Bad arguments


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"classes": 1}, "classes: expected a whole number of at least 2, got 1"),
        ({"classes": 2.5}, "classes: expected a whole number of at least 2, got 2.5"),
        ({"classes": "2"}, "classes: expected a number, got '2'"),
        ({"classes": True}, "classes: expected a number, got True"),
        ({"max_plausible": 0}, "max_plausible: expected a value in (0, 1], got 0"),
        ({"max_plausible": 1.5}, "max_plausible: expected a value in (0, 1], got 1.5"),
        ({"max_plausible": math.nan}, "max_plausible: expected a finite number, got nan"),
        ({"lower_bound": 1}, "lower_bound: expected a value in [0, 1), got 1"),
        ({"lower_bound": -0.1}, "lower_bound: expected a value in [0, 1), got -0.1"),
        (
            {"classes": 2, "max_plausible": 0.5},
            "max_plausible: expected a value above the chance level 0.5 set by classes and lower_bound "
            "(no score could be kept), got 0.5",
        ),
        ({"score_column": 3}, "score_column: expected a column name, got 3"),
        ({"team_column": 3}, "team_column: expected a column name, got 3"),
    ],
)
def test_bad_arguments(in_tmp, kwargs, message):
    name = write("leaderboard.csv", "team,score\nA,0.7\n")
    raises_input_error(name, message, **kwargs)


def test_whole_float_classes_accepted(in_tmp):
    name = write("leaderboard.csv", "team,score\nA,0.3\nB,0.4\n")
    assert read_unchanged(name, classes=3.0).excluded["chance"] == 1


@pytest.mark.parametrize("source", [[0.7, 0.8], np.array([0.7]), None, b"leaderboard.csv"])
def test_source_must_be_a_path_or_a_dataframe(source):
    with pytest.raises(InputError, match=r"^source: expected a file path or a pandas DataFrame, got \w+$"):
        read_leaderboard(source, direction="higher")
