"""``check_protocols``: every candidate protocol checked by the existing checks (paper §3-4, §5.1).

The DRIVE example (field of view and mean of per-image scores consistent, every other protocol not, each
row agreeing with the check it names called directly), honest scores consistent under their true protocol,
the candidates filter, undecided rows, the result's forms, and bad input.
"""

import json
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust.consistency import check_kfold, check_test_set, dataset, stratified_folds
from benchtrust.consistency._protocols import FAMILIES, ProtocolsResult, check_protocols

DRIVE = "drive/test/manual1/fov"
SCORES = {"acc": "0.9557", "sens": "0.7761", "spec": "0.9792"}


@pytest.fixture(scope="module")
def drive_result():
    return check_protocols(SCORES, dataset=DRIVE)


def test_drive_only_field_of_view_mean_of_scores_fits(drive_result):
    consistent = [(r["region"], r["aggregation"]) for r in drive_result.rows if r["verdict"] == "consistent"]
    assert consistent == [("fov", "mean_of_scores"), ("fov", "mean_of_scores")]  # rounded, floored or ceiled
    assert len(drive_result.rows) == 2 * 3 * 2 and drive_result.consistent is True
    assert drive_result.verdict.startswith(
        "consistent only with: field of view, mean of per-image scores, rounded; field of view, mean of "
        "per-image scores, floored or ceiled (of the 12 protocols tried). The scores cannot come from the "
        "other 10"
    )


def test_drive_rows_agree_with_the_checks_called_directly(drive_result):
    for row, result in zip(drive_result.rows, drive_result.results, strict=True):
        counts = dataset(f"drive/test/manual1/{row['region']}")
        if row["aggregation"] == "pooled":
            direct = check_test_set(
                SCORES, positives=counts.positives, negatives=counts.negatives, rounding=row["rounding"]
            )
        else:
            direct = check_kfold(
                SCORES, aggregation=row["aggregation"], rounding=row["rounding"], **counts.kfold_options()
            )
        assert result.to_dict() == direct.to_dict()
        assert row["verdict"] == ("consistent" if direct.consistent else "inconsistent")
        assert row["folding"] is None


def test_honest_per_image_claims_fit_their_true_protocol():
    """Mean per-image scores of random segmentations of the DRIVE images, rounded to 4 decimals."""
    rng = np.random.default_rng(17)
    folds = np.array(dataset(DRIVE).folds)  # (20, 2)
    claims = 6
    tp = rng.binomial(folds[:, 0], rng.uniform(0.5, 1.0, (claims, 1)))
    tn = rng.binomial(folds[:, 1], rng.uniform(0.9, 1.0, (claims, 1)))
    means = {
        "acc": ((tp + tn) / folds.sum(axis=1)).mean(axis=1),
        "sens": (tp / folds[:, 0]).mean(axis=1),
        "spec": (tn / folds[:, 1]).mean(axis=1),
    }
    true = {"region": "fov", "aggregation": "mean_of_scores"}
    for c in range(claims):
        scores = {name: f"{values[c]:.4f}" for name, values in means.items()}
        result = check_protocols(scores, dataset=DRIVE, candidates=true, rounding="round")
        assert [row["verdict"] for row in result.rows] == ["consistent"], scores


def test_honest_k_fold_and_pooled_claims_fit_their_true_protocol():
    """Stratified k-fold mean of scores, and pooled counts, of random small test sets."""
    rng = np.random.default_rng(5)
    for _ in range(8):
        p, n, k = int(rng.integers(5, 60)), int(rng.integers(5, 60)), int(rng.integers(2, 6))
        folds = np.array(stratified_folds(p, n, k))
        tp, tn = rng.binomial(folds[:, 0], 0.8), rng.binomial(folds[:, 1], 0.7)
        mos = {
            "acc": f"{((tp + tn) / folds.sum(axis=1)).mean():.3f}",
            "bacc": f"{((tp / folds[:, 0] + tn / folds[:, 1]) / 2).mean():.3f}",
        }
        tp, tn = tp.sum(), tn.sum()
        pooled = {"acc": f"{(tp + tn) / (p + n):.3f}", "f1": f"{2 * tp / (p + tp + n - tn):.3f}"}
        options = {"positives": p, "negatives": n, "folds": k, "rounding": "round"}
        stratified = {"aggregation": "mos", "folding": "stratified"}
        assert check_protocols(mos, candidates=stratified, **options).consistent is True, (p, n, k, mos)
        found = check_protocols(pooled, candidates={"aggregation": ["pooled", "som"]}, **options)
        assert [row["verdict"] for row in found.rows] == ["consistent", "consistent"], (p, n, pooled)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 300), st.integers(1, 300), st.data())
def test_honest_pooled_scores_are_never_flagged(p, n, data):
    tp, tn = data.draw(st.integers(0, p)), data.draw(st.integers(0, n))
    scores = {"acc": f"{(tp + tn) / (p + n):.4f}", "sens": f"{tp / p:.4f}", "spec": f"{tn / n:.4f}"}
    assert check_protocols(scores, positives=p, negatives=n).consistent is True


def test_candidates_select_families_in_order_without_repeats():
    result = check_protocols(
        SCORES,
        dataset=DRIVE,
        candidates={"aggregation": ["pooled", "mos", "pooled", "mean_of_scores"], "region": "all"},
    )  # the paper's acronym is the name spelled out
    assert [(r["region"], r["aggregation"], r["rounding"]) for r in result.rows] == [
        ("all", "pooled", "round"),
        ("all", "pooled", "floor-or-ceil"),
        ("all", "mean_of_scores", "round"),
        ("all", "mean_of_scores", "floor-or-ceil"),
    ]
    assert result.consistent is False
    assert result.verdict.startswith("consistent with none of the 4 protocols tried: the scores cannot")


def test_defaults_follow_what_applies():
    one = check_protocols({"acc": "0.9"}, positives=10, negatives=10)
    assert [r["aggregation"] for r in one.rows] == ["pooled", "pooled"]  # no folds: one test set only
    assert one.verdict.startswith("consistent with all 2 protocols tried: the scores do not tell")
    given_eps = check_protocols({"acc": 0.9}, positives=10, negatives=10, folds=2, eps=0.01)
    assert [(r["aggregation"], r["folding"], r["rounding"]) for r in given_eps.rows] == [
        ("mean_of_scores", "stratified", None),
        ("mean_of_scores", "unknown", None),
        ("pooled", None, None),
        ("score_of_means", None, None),
    ]
    assert given_eps.rows[0]["protocol"] == "mean of per-fold scores over 2 folds (stratified)"
    stare = check_protocols({"acc": "0.9"}, dataset="stare/ah/all", rounding="round")
    assert {r["region"] for r in stare.rows} == {"all"}  # STARE has no field-of-view counts


def test_a_check_that_cannot_decide_is_shown_with_its_reason():
    result = check_protocols(
        {"acc": "0.95", "f1": "0.80"}, dataset="tpehg", folds=5, candidates={"folding": "stratified"}
    )
    mos = [row for row in result.rows if row["aggregation"] == "mean_of_scores"]
    assert {row["verdict"] for row in mos} == {"undecided"} and "not f1p" in mos[0]["evidence"]
    assert result.results[0] is None and result.consistent is True
    asked = check_protocols(SCORES, positives=100, negatives=900, candidates={"aggregation": "mos"})
    assert asked.consistent is None and "give k" in asked.rows[0]["evidence"]
    assert asked.verdict.startswith("undecided: none of the 2 protocols tried could be checked")


def test_result_forms(drive_result):
    data = json.loads(json.dumps(drive_result.to_dict()))
    assert data["consistent"] is True and data["verdict"] == drive_result.verdict
    assert data["rows"][0] == {
        "region": "fov",
        "aggregation": "mean_of_scores",
        "folding": None,
        "rounding": "round",
        "protocol": "field of view, mean of per-image scores, rounded",
        "verdict": "consistent",
        "evidence": "per-fold counts found",
    }
    frame = drive_result.to_frame()
    assert list(frame.columns) == [*FAMILIES, "protocol", "verdict", "evidence"] and len(frame) == 12
    text = str(drive_result)
    assert text.startswith("which protocol fits acc=0.9557, sens=0.7761, spec=0.9792")
    assert "  field of view, mean of per-image scores, rounded   " in text
    assert "Consistent only with: field of view" in drive_result._repr_html_()
    assert repr(drive_result).startswith(
        "ProtocolsResult(consistent=True, protocols=12 (2 consistent, 10 inconsistent, 0 undecided)"
    )
    assert isinstance(drive_result, ProtocolsResult)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"candidates": {"pixels": ["fov"]}}, "candidates: unknown family 'pixels'"),
        (
            {"candidates": {"aggregation": ["mean"]}},
            "candidates['aggregation']: expected mean_of_scores, pooled, score_of_means (or the paper's "
            "mos, som)",
        ),
        ({"candidates": {"aggregation": []}}, "candidates['aggregation']: expected one or more"),
        ({"candidates": ["mos"]}, "candidates: expected a mapping"),
        ({"rounding": "floor"}, "rounding: expected round, floor-or-ceil, got 'floor'"),
        ({"rounding": "round", "candidates": {"rounding": "round"}}, "rounding: given both"),
        ({"eps": 0.01, "rounding": "round"}, "candidates['rounding']: with eps given"),
        ({"candidates": {"region": "fov"}, "dataset": "tpehg"}, "candidates['region']: regions (fov, all)"),
        ({"candidates": {"region": "fov"}, "dataset": "stare/ah/all"}, "no fov test set; there is all"),
        ({"candidates": {"folding": "unknown"}}, "candidates['folding']: stratified or unknown folds apply"),
        ({"dataset": None}, "positives, negatives: give the counts"),
        ({"dataset": "drive/test/fov"}, "dataset: unknown test set 'drive/test/fov'; closest known"),
        ({"positives": 5, "negatives": 5}, "dataset gives the counts"),
        ({"folds": 5}, "folds: drive/test/manual1/fov has 20 images"),
        ({"folds": 0}, "folds"),
    ],
)
def test_bad_input_names_the_argument(arguments, message):
    arguments = {"dataset": DRIVE, **arguments}
    with pytest.raises(InputError, match=re.escape(message)):
        check_protocols(SCORES, **arguments)


def test_bad_scores_are_the_callers_error_not_a_protocols():
    with pytest.raises(InputError, match="acc: expected a number"):
        check_protocols({"acc": "high"}, dataset=DRIVE)
