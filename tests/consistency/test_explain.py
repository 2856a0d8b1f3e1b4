"""Every consistency result explains itself: ``str(result)`` shows the scores as written, ``_repr_html_`` is
the report's section (user strings escaped), ``to_frame()`` holds the solutions or the verdicts, and the
decisions the words rest on are on the result."""

import json
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from benchtrust import Interval
from benchtrust._html import section_html
from benchtrust.consistency import (
    check_batch,
    check_kfold,
    check_multiclass,
    check_test_set,
    reported_scores,
)
from benchtrust.consistency._batch import FIELDS

SECTION_3_3 = {"acc": "0.6821", "npv": "0.9401", "f1": "0.4004"}
EHG = {"acc": "0.9447", "sens": "0.9139", "spec": "0.9733"}
NASTY = '<b>"Ben & Jerry\'s"</b>'


# --- the scores as written ----------------------------------------------------------------------------------


def test_a_reported_score_keeps_how_it_was_written():
    typed, number, given = reported_scores({"F1": "0.4000", "accuracy": 0.9, "sens": 1}, eps={"f1": 1e-4,
                                           "acc": 1e-3, "sens": 0.5})  # fmt: skip
    assert (typed.name, typed.text, typed.score) == ("F1", "0.4000", "f1p")
    assert (number.name, number.text) == ("accuracy", "0.9")
    assert given.text == "1"
    assert all(item.rounding is None for item in (typed, number, given))  # ε given
    (inferred,) = reported_scores({"acc": " 0.90 "}, rounding="floor-or-ceil")
    assert (inferred.text, inferred.rounding, inferred.eps) == ("0.90", "floor-or-ceil", pytest.approx(0.01))


def test_the_interval_of_true_values_is_an_interval():
    (item,) = reported_scores({"acc": "0.90"})
    assert isinstance(item.interval, Interval)
    assert item.interval.low < 0.895 < 0.905 < item.interval.high
    assert item.to_dict() == {
        "score": "acc",
        "value": 0.9,
        "eps": 0.005,
        "low": item.interval.low,
        "high": item.interval.high,
    }


def test_str_shows_the_scores_as_written_without_the_command():
    """What the command prints, from Python: names and decimals as written, ε from them."""
    scores = {"accuracy": "0.8967", "sens": "0.850", "ppv": "0.8416"}
    result = check_test_set(scores, positives=100, negatives=200)
    lines = str(result).splitlines()
    assert lines[2].split()[:3] == ["acc", "(accuracy)", "0.8967"]
    assert lines[3].split()[:3] == ["sens", "0.850", "0.0005"]


# --- the HTML section: the report's, from the result alone ------------------------------------------------


@pytest.fixture(scope="module")
def results():
    return {
        "test set": check_test_set(SECTION_3_3, positives=1000, negatives=6000, eps=1e-4),
        "kfold": check_kfold(EHG, positives=244, negatives=262, folds=5, eps=1e-4),
        "multiclass": check_multiclass({"f1": "0.80"}, class_counts=[10, 20, 30], average="micro"),
    }


@pytest.mark.parametrize("kind", ["test set", "kfold", "multiclass"])
def test_repr_html_is_the_reports_section(results, kind):
    result = results[kind]
    html = result._repr_html_()
    assert html == section_html(result.section())
    assert html.startswith('<div class="benchtrust">')
    assert "Fazekas &amp; Kovács" in html and "Fazekas & Kovács" not in html
    assert "Consistent:" in html


def test_the_section_says_how_eps_was_found():
    given = check_test_set(SECTION_3_3, positives=1000, negatives=6000, eps=1e-4)
    inferred = check_test_set(SECTION_3_3, positives=1000, negatives=6000, rounding="floor-or-ceil")
    assumed = [dict(result.section().assumptions) for result in (given, inferred)]
    assert assumed[0]["numerical uncertainty ε"].startswith("acc 0.0001, npv 0.0001, f1p 0.0001: as given")
    assert "from the decimals as written (floor-or-ceil)" in assumed[1]["numerical uncertainty ε"]
    assert given.section().rows[2][:2] == ("f1p (f1)", "0.4004")


def test_bounds_are_on_the_kfold_result():
    """Eq. 10: the bounds the verdict assumed are shown by str(), the section and to_dict()."""
    folds = [[7, 53], [7, 53], [8, 52], [8, 52], [8, 52]]
    scores = {"acc": "0.9433", "sens": "0.8214", "spec": "0.9619"}
    result = check_kfold(scores, positives=38, negatives=262, folds=5, folding=folds,
                         bounds={"accuracy": ("0.9000", "0.9833")})  # fmt: skip
    assert result.consistent
    assert result.bounds == {"accuracy": Interval("0.9000", "0.9833")}
    assert "every fold's accuracy from 0.9000 to 0.9833, as reported (Eq. 10)" in str(result)
    assert (
        "fold bounds",
        "every fold's accuracy from 0.9000 to 0.9833 (Eq. 10)",
    ) in result.section().assumptions
    assert result.to_dict()["bounds"] == {"accuracy": [0.9, 0.9833]}
    json.dumps(result.to_dict())
    unbounded = check_kfold(scores, positives=38, negatives=262, folds=5, folding=folds)
    assert unbounded.bounds == {} and "fold bounds" not in str(unbounded)


def test_the_pooled_test_set_is_on_the_kfold_result():
    result = check_kfold({"acc": "0.94"}, positives=[38, 20], negatives=[262, 80], folds=5, repeats=3,
                         aggregation="som")  # fmt: skip
    assert (result.pooled_positives, result.pooled_negatives) == (3 * 58, 3 * 342)
    assert "the pooled 174 positives and 1026 negatives" in result.verdict
    assert result.evidence["positives"] == result.pooled_positives


def test_batch_html_escapes_the_ids_and_the_file_name(tmp_path):
    path = tmp_path / "claims & co.csv"
    path.write_text(f'id,positives,negatives,acc\n"{NASTY.replace(chr(34), 2 * chr(34))}",40,70,0.8636\n',
                    encoding="utf-8")  # fmt: skip
    result = check_batch(path)
    assert result.rows[0]["id"] == NASTY
    html = result._repr_html_()
    assert html == section_html(result.section())
    assert NASTY not in html and "<b>" not in html
    assert "&lt;b&gt;&#34;Ben &amp; Jerry&#39;s&#34;&lt;/b&gt;" in html
    assert "claims &amp; co.csv" in html


# --- tables out ---------------------------------------------------------------------------------------------


def test_test_set_frame_lists_the_matrices_and_their_scores(results):
    result = results["test set"]
    frame = result.to_frame()
    assert list(frame.columns) == ["tp", "tn", "fn", "fp", "acc", "npv", "f1p"]
    assert list(zip(frame["tp"], frame["tn"], strict=True)) == list(result.solutions)
    assert (frame["tp"] + frame["fn"] == 1000).all() and (frame["tn"] + frame["fp"] == 6000).all()
    np.testing.assert_allclose(frame["npv"], frame["tn"] / (frame["tn"] + frame["fn"]))
    for item in result.scores:
        assert frame[item.score].between(*item.interval).all()
    empty = check_test_set({**SECTION_3_3, "acc": "0.6811"}, positives=1000, negatives=6000, eps=1e-4)
    assert empty.to_frame().empty and list(empty.to_frame().columns) == list(frame.columns)


def test_kfold_frame_holds_the_witness_folds(results):
    """§5.2: the evidence as one row per fold; each fold's scores average to the reported ones, exactly."""
    frame = results["kfold"].to_frame()
    assert list(frame.columns) == [
        "dataset", "repeat", "fold", "positives", "negatives", "tp", "tn", "fn", "fp", "acc", "sens", "spec",
    ]  # fmt: skip
    assert frame[["positives", "negatives"]].to_numpy().tolist() == results["kfold"].evidence["configuration"]
    assert frame[["tp", "tn"]].to_numpy().tolist() == results["kfold"].evidence["counts"]
    assert frame["fold"].tolist() == [1, 2, 3, 4, 5] and set(frame["dataset"]) == set(frame["repeat"]) == {1}
    sens = sum(Fraction(int(tp), int(p)) for tp, p in zip(frame["tp"], frame["positives"], strict=True)) / 5
    assert abs(sens - Fraction(EHG["sens"])) <= Fraction(1, 10**4)
    assert abs(frame["sens"].mean() - 0.9139) <= 1e-4


def test_kfold_frame_numbers_data_sets_and_repeats():
    result = check_kfold({"acc": "0.9"}, positives=[10, 6], negatives=[30, 14], folds=2, repeats=2,
                         folding="stratified", eps=0.05)  # fmt: skip
    frame = result.to_frame()
    assert len(frame) == 2 * 2 * 2
    assert list(zip(frame["dataset"], frame["repeat"], frame["fold"], strict=True)) == [
        (d, r, f) for d in (1, 2) for r in (1, 2) for f in (1, 2)
    ]
    assert frame.groupby("dataset")["positives"].sum().tolist() == [2 * 10, 2 * 6]


def test_kfold_frame_of_the_score_of_means_and_of_an_inconsistency():
    som = check_kfold({"acc": "0.95", "f1": "0.80"}, positives=38, negatives=262, folds=5, aggregation="som")
    frame = som.to_frame()
    assert list(frame.columns) == ["tp", "tn", "fn", "fp", "acc", "f1p"]
    assert frame[["tp", "tn"]].to_numpy().tolist() == som.evidence["solutions"]
    none = check_kfold(EHG, positives=38, negatives=262, folds=5, eps=1e-4)
    assert not none.consistent and none.to_frame().empty
    assert "fold" in none.to_frame().columns


def test_multiclass_frames():
    micro = check_multiclass({"f1": "0.80", "acc": "0.9333"}, class_counts=[10, 20, 30], average="micro")
    frame = micro.to_frame()
    assert list(frame.columns) == ["correct", "tp", "tn", "fn", "fp", "f1p", "acc"]
    assert frame[["tp", "tn"]].to_numpy().tolist() == [list(pair) for pair in micro.pooled]
    macro = check_multiclass({"sens": "0.75", "spec": "0.875"}, class_counts=[4, 4, 4], average="macro")
    frame = macro.to_frame()
    matrix = np.array(macro.evidence)
    assert frame["tp"].tolist() == np.diag(matrix).tolist()
    assert (frame["tp"] + frame["fn"]).tolist() == [4, 4, 4]
    assert (frame["fp"]).tolist() == (matrix.sum(axis=0) - np.diag(matrix)).tolist()
    assert frame["sens"].mean() == pytest.approx(0.75) and frame["spec"].mean() == pytest.approx(0.875)
    inconsistent = check_multiclass({"sens": "0.75", "spec": "0.80"}, class_counts=[4, 4, 4], average="macro")
    assert inconsistent.to_frame().empty


def test_batch_frame_has_the_columns_written(tmp_path):
    path = tmp_path / "claims.csv"
    # 95/110 = 0.863636...: 0.8636 holds it, 0.86361 ± 0.000005 does not
    rows = ["id,positives,negatives,acc", "a,40,70,0.8636", ",40,70,0.86361", "c,forty,70,0.8"]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = check_batch(path)
    frame = result.to_frame()
    assert tuple(frame.columns) == FIELDS
    assert str(frame["consistent"].dtype) == "boolean" and str(frame["detail"].dtype) == "Int64"
    assert frame["line"].tolist() == [2, 3, 4]
    assert frame["verdict"].tolist() == ["consistent", "inconsistent", "error"]
    assert frame["consistent"].isna().tolist() == [False, False, True]
    assert frame["id"].isna().tolist() == [False, True, False]
    result.write(tmp_path / "verdicts.csv")
    written = pd.read_csv(tmp_path / "verdicts.csv", dtype=str, keep_default_na=False)
    assert written["consistent"].tolist() == ["true", "false", ""]
    assert written["id"].tolist() == ["a", "", "c"]
    assert written["detail"].tolist() == [str(frame["detail"][0]), "0", ""]
