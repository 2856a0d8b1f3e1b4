"""Reported scores as intervals: ε from the digits as written, or given; the outward tolerance (paper §2)."""

import pytest

from benchtrust import InputError
from benchtrust.consistency import TOLERANCE, decimals, reported_scores


@pytest.mark.parametrize(
    ("written", "places"),
    [
        ("0.9400", 4),
        ("0.94", 2),
        (0.94, 2),
        ("1", 0),
        (1, 0),
        ("  0.5 ", 1),
        ("-0.25", 2),
        ("1e-05", 5),
        ("2.5e-3", 4),
        (1e-05, 5),
        ("12.345", 3),
        (".5", 1),
    ],
)
def test_decimals_as_written(written, places):
    assert decimals(written) == places


@pytest.mark.parametrize(("rounding", "factor"), [("round", 0.5), ("floor-or-ceil", 1.0)])
def test_eps_from_the_digits(rounding, factor):
    (r,) = reported_scores({"acc": "0.9400"}, rounding=rounding)
    assert r.eps == pytest.approx(factor * 1e-4, rel=1e-12)
    margin = TOLERANCE
    assert r.interval.low == pytest.approx(0.94 - r.eps - margin, abs=1e-15)
    assert r.interval.high == pytest.approx(0.94 + r.eps + margin, abs=1e-15)


def test_paper_section_2_example():
    """0.945 reported with 3 decimals stands for [0.9445, 0.9455]; floor or ceil widen ε to 10^-3."""
    (r,) = reported_scores({"sens": "0.945"})
    assert (r.interval.low, r.interval.high) == pytest.approx((0.9445, 0.9455), abs=2e-9)
    (r,) = reported_scores({"sens": "0.945"}, rounding="floor-or-ceil")
    assert (r.interval.low, r.interval.high) == pytest.approx((0.944, 0.946), abs=2e-9)


def test_the_interval_is_widened_outward_relative_to_large_values():
    (r,) = reported_scores({"dor": "250.5"}, eps=0.05)
    assert r.interval.low < 250.45 - 200 * TOLERANCE and r.interval.high > 250.55 + 200 * TOLERANCE


def test_eps_given_for_all_and_per_score():
    r = reported_scores({"acc": 0.9, "f1": "0.4"}, eps=1e-3)
    assert [x.eps for x in r] == [1e-3, 1e-3]
    r = reported_scores({"acc": 0.9, "f1": "0.4"}, eps={"accuracy": 1e-3, "f1p": 0.01})
    assert [(x.score, x.eps) for x in r] == [("acc", 1e-3), ("f1p", 0.01)]


def test_order_and_names_are_kept_canonical():
    r = reported_scores({"Recall": "0.8", "precision": "0.7", "TNR": "0.9"})
    assert [x.score for x in r] == ["sens", "ppv", "spec"]
    assert r[0].to_dict() == {
        "score": "sens",
        "value": 0.8,
        "eps": r[0].eps,
        "low": r[0].interval.low,
        "high": r[0].interval.high,
    }


@pytest.mark.parametrize(
    ("scores", "options", "words"),
    [
        ({"auc": 0.9}, {}, "unknown score 'auc'; known scores: acc"),
        ({"acc": 0.9, "accuracy": 0.9}, {}, "same score"),
        ({"fbp": 0.5}, {}, "needs beta"),
        ({"fbp": 0.5}, {"beta": 0}, "beta"),
        ({"acc": 0.9}, {"beta": "two"}, "beta"),
        ({"acc": "high"}, {}, "acc: expected a number"),
        ({"acc": float("nan")}, {}, "finite"),
        ({"acc": True}, {}, "expected a number"),
        ({"acc": 0.9}, {"eps": -1e-4}, "eps"),
        ({"acc": 0.9}, {"eps": {"spec": 1e-4}}, "not reported"),
        ({"acc": 0.9, "spec": 0.8}, {"eps": {"acc": 1e-4}}, "eps: none given for spec"),
        ({"acc": 0.9}, {"rounding": "up"}, "rounding"),
        ({}, {}, "scores"),
        ([("acc", 0.9)], {}, "scores"),
    ],
)
def test_bad_input(scores, options, words):
    with pytest.raises(InputError, match=words):
        reported_scores(scores, **options)
