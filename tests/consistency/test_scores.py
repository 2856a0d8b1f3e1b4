"""The score definitions (paper §2, Table 2) against textbook formulas, and the directions the search uses."""

import itertools
import math
import os
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust.consistency import SCORES, reported_scores, score
from benchtrust.consistency._scores import _ALIASES

#: Examples per score of the property tests of directions: 150 with BENCHTRUST_ALL_EXAMPLES (as
#: benchmarks/bench_generated.py sets it), 60 in ``make test``.
DIRECTION_EXAMPLES = 150 if os.environ.get("BENCHTRUST_ALL_EXAMPLES") else 60


def _div(a, b):
    return None if a is None or b is None or b == 0 else a / b


def _sqrt(x):
    return None if x is None else math.sqrt(x)


def textbook(name, tp, tn, p, n, beta=None):
    """The score as defined in the literature, in exact arithmetic where no square root is taken.

    ``None`` where the definition divides by zero.
    """
    tp, tn, p, n = (Fraction(v) for v in (tp, tn, p, n))
    fp, fn, total = n - tn, p - tp, p + n
    tpr, tnr, fpr = tp / p, tn / n, fp / n
    ppv, npv = _div(tp, tp + fp), _div(tn, tn + fn)
    b2 = None if beta is None else Fraction(beta) ** 2
    if name in ("err", "fnr", "fpr", "fdr", "for"):
        base = {"err": "acc", "fnr": "sens", "fpr": "spec", "fdr": "ppv", "for": "npv"}[name]
        value = textbook(base, tp, tn, p, n, beta)
        return None if value is None else 1 - value
    if name == "acc":
        return (tp + tn) / total
    if name == "sens":
        return tpr
    if name == "spec":
        return tnr
    if name == "ppv":
        return ppv
    if name == "npv":
        return npv
    if name == "bacc":
        return (tpr + tnr) / 2
    if name == "f1p":
        return _div(2 * tp, 2 * tp + fp + fn)
    if name == "f1n":
        return _div(2 * tn, 2 * tn + fn + fp)
    if name == "fbp":
        return _div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
    if name == "fbn":
        return _div((1 + b2) * tn, (1 + b2) * tn + b2 * fp + fn)
    if name == "fm":
        return None if ppv is None else _sqrt(ppv * tpr)
    if name == "upm":
        return _div(4 * tp * tn, 4 * tp * tn + (tp + tn) * (fp + fn))
    if name == "gm":
        return _sqrt(tpr * tnr)
    if name == "mk":
        return None if ppv is None or npv is None else ppv + npv - 1
    if name == "lrp":
        return _div(tpr, 1 - tnr)
    if name == "lrn":
        return _div(1 - tpr, tnr)
    if name == "mcc":
        product = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
        return None if product == 0 else (tp * tn - fp * fn) / math.sqrt(product)
    if name == "bm":
        return tpr + tnr - 1
    if name == "pt":
        return None if tpr == fpr else (math.sqrt(tpr * fpr) - fpr) / (tpr - fpr)
    if name == "dor":
        return _div(tp * tn, fp * fn)
    if name == "ji":
        return _div(tp, tp + fp + fn)
    if name == "kappa":
        observed = (tp + tn) / total
        expected = ((tp + fp) * (tp + fn) + (tn + fn) * (tn + fp)) / total**2
        return _div(observed - expected, 1 - expected)
    raise AssertionError(f"no textbook formula for {name}")


def assert_matches(name, tp, tn, p, n, beta=None):
    expected = textbook(name, tp, tn, p, n, beta)
    got = SCORES[name](tp, tn, p, n, beta)
    if expected is None:
        assert np.isnan(got), (name, tp, tn, p, n, got)
    else:
        assert float(got) == pytest.approx(float(expected), rel=1e-12, abs=1e-12), (name, tp, tn, p, n)


def test_the_table_has_the_22_scores_and_5_complements():
    assert len(SCORES) == 27
    assert all(name in SCORES for name in ("acc", "mcc", "kappa", "pt", "dor", "err", "for"))


@pytest.mark.parametrize("name", sorted(SCORES))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_score_matches_textbook_formula(name, data):
    p = data.draw(st.integers(1, 400), label="p")
    n = data.draw(st.integers(1, 400), label="n")
    tp = data.draw(st.integers(0, p), label="tp")
    tn = data.draw(st.integers(0, n), label="tn")
    beta = data.draw(st.floats(0.1, 10), label="beta")
    assert_matches(name, tp, tn, p, n, beta)


@pytest.mark.parametrize("name", sorted(SCORES))
def test_score_at_the_corners_and_edges(name):
    """The undefined points: every corner and edge of the (tp, tn) rectangle, and pt's tpr = fpr."""
    for p, n in [(1, 1), (3, 7), (7, 3), (10, 20)]:
        for tp in sorted({0, 1, p - 1, p}):
            for tn in sorted({0, 1, n - 1, n}):
                assert_matches(name, tp, tn, p, n, beta=2.0)
    assert_matches(name, 5, 10, 10, 20, beta=0.5)  # tpr = fpr = 0.5


def test_score_is_vectorised():
    rng = np.random.default_rng(3)
    p, n = 50, 80
    tp, tn = rng.integers(0, p + 1, 200), rng.integers(0, n + 1, 200)
    for found in SCORES.values():
        together = found(tp, tn, p, n, 1.5)
        one_by_one = [found(int(a), int(b), p, n, 1.5) for a, b in zip(tp, tn, strict=True)]
        np.testing.assert_array_equal(together, np.array(one_by_one))


def test_known_values():
    """A few values worked out by hand: tp = 80, tn = 90 of p = n = 100."""
    assert float(SCORES["acc"](80, 90, 100, 100)) == 0.85
    assert float(SCORES["ppv"](80, 90, 100, 100)) == pytest.approx(80 / 90)
    assert float(SCORES["dor"](80, 90, 100, 100)) == pytest.approx(36.0)
    assert float(SCORES["mcc"](80, 90, 100, 100)) == pytest.approx(7000 / math.sqrt(90 * 100 * 100 * 110))


def _ordered(direction, first, second):
    """``first`` (at the smaller count) and ``second`` are ordered as ``direction`` says, up to rounding."""
    slack = 1e-12 * max(1.0, abs(first), abs(second))
    if direction > 0:
        return first <= second + slack
    if direction < 0:
        return first >= second - slack
    return abs(first - second) <= slack


@pytest.mark.parametrize("name", sorted(SCORES))
@settings(max_examples=DIRECTION_EXAMPLES, deadline=None)
@given(data=st.data())
def test_declared_directions_hold(name, data):
    """in_tn: the score with tp fixed orders two tn values as declared (in_tp likewise), wherever defined."""
    found = SCORES[name]
    p = data.draw(st.integers(1, 10**6), label="p")
    n = data.draw(st.integers(1, 10**6), label="n")
    beta = data.draw(st.floats(0.1, 10), label="beta")
    tp = data.draw(st.integers(0, p), label="tp")
    tn1, tn2 = sorted(
        data.draw(st.lists(st.integers(0, n), min_size=2, max_size=2, unique=True), label="two tn")
    )
    for function in (found, found.for_search):
        first, second = function(tp, tn1, p, n, beta), function(tp, tn2, p, n, beta)
        if not (np.isnan(first) or np.isnan(second)):
            assert _ordered(found.in_tn, float(first), float(second)), (tp, tn1, tn2, first, second)
    tn = data.draw(st.integers(0, n), label="tn")
    tp1, tp2 = sorted(
        data.draw(st.lists(st.integers(0, p), min_size=2, max_size=2, unique=True), label="two tp")
    )
    for function in (found, found.for_search):
        first, second = function(tp1, tn, p, n, beta), function(tp2, tn, p, n, beta)
        if not (np.isnan(first) or np.isnan(second)):
            assert _ordered(found.in_tp, float(first), float(second)), (tp1, tp2, tn, first, second)


@pytest.mark.parametrize("name", sorted(SCORES))
@pytest.mark.parametrize(("p", "n"), [(1, 1), (1, 9), (9, 1), (6, 6), (12, 30), (30, 12), (41, 97)])
def test_directions_and_undefined_points_on_every_line(name, p, n):
    """Exhaustively: along every row and column the score is ordered as declared where defined, and its
    undefined points are only at the two ends or on the whole inner line (pt: also where tpr = fpr)."""
    found = SCORES[name]
    tp, tn = np.meshgrid(np.arange(p + 1), np.arange(n + 1), indexing="ij")
    values, search = found(tp, tn, p, n, 0.7), found.for_search(tp, tn, p, n, 0.7)
    tpr_is_fpr = tp * n == (n - tn) * p
    inner_nan = np.isnan(values) & ~(tpr_is_fpr if name == "pt" else False)
    for axis, direction in ((1, found.in_tn), (0, found.in_tp)):
        lines = np.moveaxis(search, axis, -1)
        for line in lines:
            defined = line[~np.isnan(line)]
            assert all(_ordered(direction, a, b) for a, b in itertools.pairwise(defined))
        inner = np.moveaxis(inner_nan, axis, -1)[:, 1:-1]
        assert (inner.all(axis=1) | ~inner.any(axis=1)).all()
    # for_search is the score wherever the score is defined, and defined at pt's tpr = fpr (inner points)
    defined = ~np.isnan(values)
    np.testing.assert_allclose(search[defined], values[defined], rtol=1e-12, atol=1e-12)
    if name == "pt":
        inside = tpr_is_fpr & (tp > 0) & (tp < p)
        assert np.isnan(values[inside]).all() and not np.isnan(search[inside]).any()


def test_aliases():
    assert score("Recall").name == "sens"
    assert score("TPR").name == "sens"
    assert score("precision").name == "ppv"
    assert score("F1").name == "f1p"
    assert score("balanced-accuracy").name == "bacc"
    assert score("balanced accuracy").name == "bacc"
    assert score("Youden J").name == "bm"
    assert score("LR+").name == "lrp"
    assert score("lr_minus").name == "lrn"
    assert score("Matthews").name == "mcc"
    assert score("fall-out").name == "fpr"
    for name in SCORES:
        assert score(name).name == name
        assert score(name.upper()).name == name
    for alias, name in _ALIASES.items():
        if alias == "lr-":
            continue
        assert score(alias).name == name
        assert name in SCORES


def test_likelihood_ratio_aliases():
    assert [score(name).name for name in ("lr-", "LR-", "lr_minus", "lr+", "lr plus")] == ["lrn"] * 3 + [
        "lrp"
    ] * 2


def test_unknown_score_lists_the_known_ones():
    with pytest.raises(InputError) as caught:
        score("auc")
    message = str(caught.value)
    assert "'auc'" in message
    listed = message.split("known scores: ")[1].split(" (")[0].split(", ")
    assert listed == list(SCORES)


def test_score_name_must_be_text():
    with pytest.raises(InputError, match="score name"):
        score(3)


def test_f_beta_needs_beta():
    with pytest.raises(InputError, match="beta"):
        reported_scores({"fbp": 0.5})
    with pytest.raises(InputError, match="beta"):
        reported_scores({"fbeta_negative": "0.5"})
    assert reported_scores({"fbp": 0.5}, beta=2)[0].score == "fbp"
