"""check_test_set (paper §3) against exhaustive search (§3.1) over every (tp, tn)."""

import json

import numpy as np
import pytest

from benchtrust import InputError
from benchtrust.consistency import SCORES, reported_scores
from benchtrust.consistency._test_set import check_test_set, solution_set

NAMES = sorted(SCORES)
COMPLEMENTS = ("err", "fnr", "fpr", "fdr", "for")


def brute_force(scores, p, n, *, beta=None, **kwargs):
    """Every consistent (tp, tn) in lexicographic order, by evaluating each score on the whole grid."""
    reported = reported_scores(scores, beta=beta, **kwargs)
    found = []
    step = max(1, 2**16 // (n + 1))  # a few rows of tp at a time keep the arrays small
    for start in range(0, p + 1, step):
        tp, tn = np.meshgrid(np.arange(start, min(start + step, p + 1)), np.arange(n + 1), indexing="ij")
        ok = np.ones(tp.shape, dtype=bool)
        for rep in reported:
            values = SCORES[rep.score](tp, tn, p, n, beta)
            ok &= (values >= rep.interval.low) & (values <= rep.interval.high)
        found += zip(tp[ok].tolist(), tn[ok].tolist(), strict=True)
    return found


def assert_agrees(scores, p, n, *, beta=None, examples=25, **kwargs):
    expected = brute_force(scores, p, n, beta=beta, **kwargs)
    result = check_test_set(scores, positives=p, negatives=n, beta=beta, examples=examples, **kwargs)
    assert result.n_solutions == len(expected), (scores, p, n)
    assert result.solutions == tuple(expected[:examples]), (scores, p, n)
    assert result.consistent == bool(expected)
    return result


def random_case(rng):
    """Random p, n, scores of a random confusion matrix (some perturbed or undefined), random decimals."""
    p, n = (int(v) for v in rng.integers(1, 301, size=2))
    tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
    beta = float(rng.uniform(0.2, 4))
    decimals = int(rng.integers(1, 5))
    values = {}
    for name in rng.choice(NAMES, size=int(rng.integers(1, 6)), replace=False):
        value = float(SCORES[name](tp, tn, p, n, beta))
        if np.isnan(value):
            value = float(rng.uniform(0, 1))
        if rng.random() < 0.3:
            value += float(rng.normal(0, 10.0**-decimals * 5))
        values[str(name)] = f"{value:.{decimals}f}"
    return values, p, n, beta


@pytest.mark.parametrize("seed", range(30))
def test_agrees_with_exhaustive_search(seed):
    rng = np.random.default_rng(seed)
    verdicts = set()
    for _ in range(12):
        values, p, n, beta = random_case(rng)
        rounding = "floor-or-ceil" if rng.random() < 0.3 else "round"
        verdicts.add(assert_agrees(values, p, n, beta=beta, rounding=rounding).consistent)
    assert verdicts == {True, False}  # the cases exercise both verdicts


@pytest.mark.parametrize(("p", "n"), [(40, 250), (250, 40), (120, 120), (1, 300), (300, 1), (1, 1), (2, 1)])
@pytest.mark.parametrize("seed", range(4))
def test_agrees_in_both_iteration_orders(p, n, seed):
    """Rows are tp when p <= n, tn when p > n; lexicographic (tp, tn) order either way."""
    rng = np.random.default_rng(seed)
    tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
    for names in (["acc"], ["sens"], ["spec"], ["f1p", "npv"], ["mcc", "kappa", "pt"], ["dor", "lrp", "lrn"]):
        values = {}
        for name in names:
            value = float(SCORES[name](tp, tn, p, n))
            values[name] = f"{(0.5 if np.isnan(value) else value):.2f}"
        assert_agrees(values, p, n, examples=40)


def test_every_score_alone_on_one_grid():
    for name in NAMES:
        for value in ("0.5", "0.05", "0.95", "1.0", "0.0", "2.5"):
            assert_agrees({name: value}, 23, 37, beta=1.7, examples=60)
            assert_agrees({name: value}, 37, 23, beta=1.7, examples=60)


def test_edge_row_tp_zero_and_column_tn_n():
    p, n = 20, 30
    for tp, tn in [(0, 17), (12, 30), (0, 30), (20, 0), (20, 30), (0, 0)]:
        values = {}
        for name in ("acc", "npv", "ppv", "f1n", "mcc", "kappa"):
            value = float(SCORES[name](tp, tn, p, n))
            if not np.isnan(value):
                values[name] = f"{value:.3f}"
        result = assert_agrees(values, p, n, examples=1000)
        assert (tp, tn) in result.solutions


def test_prevalence_threshold_hole():
    """pt is 0/0 where tpr = fpr: that inner point is out, its neighbours (where for_search is close) in."""
    result = assert_agrees({"pt": 0.5}, 10, 20, eps=0.02, examples=1000)
    assert (5, 10) not in result.solutions  # tpr = fpr = 0.5
    assert (5, 9) in result.solutions and (5, 11) in result.solutions
    assert not solution_set(reported_scores({"pt": 0.5}, eps=0.02), 10, 20, None).contains(5, 10)
    # the same with rows tn (p > n): tp/20 = (10 - tn)/10 at tn = 5, tp = 10
    result = assert_agrees({"pt": 0.5}, 20, 10, eps=0.02, examples=1000)
    assert (10, 5) not in result.solutions
    assert (9, 5) in result.solutions and (11, 5) in result.solutions
    for p, n in [(12, 18), (18, 12), (7, 7), (30, 45)]:
        for value in ("0.5", "0.45", "0.55", "0.3", "0.70"):
            assert_agrees({"pt": value, "acc": "0.5"}, p, n, eps=0.1, examples=200)


def test_diagnostic_odds_ratio_undefined_on_the_whole_row_tp_p():
    """dor = tp·tn / (fp·fn) is x/0 or 0/0 on the row tp = p (fn = 0) and the column tn = n (fp = 0)."""
    result = assert_agrees({"dor": 12}, 5, 40, eps=11.9, examples=10**4)
    assert result.n_solutions > 0
    assert all(tp < 5 and tn < 40 for tp, tn in result.solutions)
    result = assert_agrees({"dor": 12}, 40, 5, eps=11.9, examples=10**4)
    assert all(tp < 40 and tn < 5 for tp, tn in result.solutions)


def test_lrn_undefined_on_the_row_tn_zero():
    result = assert_agrees({"lrn": "0.5"}, 50, 9, eps=0.5, examples=10**4)
    assert result.n_solutions > 0 and all(tn > 0 for _, tn in result.solutions)


def test_examples_and_counts():
    full = check_test_set({"acc": "0.5"}, positives=30, negatives=50, examples=10**6)
    assert full.n_solutions == len(full.solutions) == len(brute_force({"acc": "0.5"}, 30, 50))
    none = check_test_set({"acc": "0.5"}, positives=30, negatives=50, examples=0)
    assert none.solutions == () and none.n_solutions == full.n_solutions and none.consistent
    three = check_test_set({"acc": "0.5"}, positives=30, negatives=50, examples=3)
    assert three.solutions == full.solutions[:3]


def test_result_as_dict_and_repr():
    result = check_test_set(
        {"acc": 0.6821, "npv": 0.9401, "f1": 0.4004}, positives=1000, negatives=6000, eps=1e-4
    )
    out = result.to_dict()
    assert json.loads(json.dumps(out)) == out
    assert out["solutions"] == [[743, 4031], [743, 4032]]
    assert out["scores"][2]["score"] == "f1p" and out["positives"] == 1000 and out["beta"] is None
    text = repr(result)
    assert "n_solutions=2" in text and "(743, 4031)" in text and "f1p=0.4004" in text
    many = check_test_set({"acc": "0.5"}, positives=30, negatives=50, examples=2)
    assert "more" in repr(many)


def test_the_22_scores_on_a_small_analogous_test_set():
    """The small version of the large case below: p = 1000, n = 9000, the 22 scores to 4 decimals.

    Exhaustive search (10^7 pairs) finds the generating pair only, and check_test_set agrees.
    """
    p, n, tp, tn = 1000, 9000, 812, 8123
    values = {
        name: f"{float(SCORES[name](tp, tn, p, n, 2.0)):.4f}" for name in NAMES if name not in COMPLEMENTS
    }
    assert len(values) == 22
    result = assert_agrees(values, p, n, beta=2.0)
    assert result.solutions == ((tp, tn),)


def test_the_22_scores_on_a_million_items():
    """p = 100000, n = 900000: the 22 scores of (81234, 812345), β = 2, to 4 decimals: one solution.

    Exhaustive search over 9·10^10 pairs is too slow, but it is not needed: sensitivity and specificity
    alone confine tp and tn to short ranges (each score constant along the other count), and exhaustive
    search over that box, which holds every candidate, finds the generating pair only. Its neighbours
    fail, each for a named score.
    """
    p, n, tp, tn = 100_000, 900_000, 81_234, 812_345
    values = {
        name: f"{float(SCORES[name](tp, tn, p, n, 2.0)):.4f}" for name in NAMES if name not in COMPLEMENTS
    }
    result = check_test_set(values, positives=p, negatives=n, beta=2.0)
    assert result.consistent and result.n_solutions == 1 and result.solutions == ((tp, tn),)

    reported = {rep.score: rep for rep in reported_scores(values, beta=2.0)}
    sens, spec = reported["sens"], reported["spec"]
    tps = np.arange(p + 1)
    tps = tps[(tps / p >= sens.interval.low) & (tps / p <= sens.interval.high)]
    tns = np.arange(n + 1)
    tns = tns[(tns / n >= spec.interval.low) & (tns / n <= spec.interval.high)]
    assert tps.size < 20 and tns.size < 200
    grid_tp, grid_tn = np.meshgrid(tps, tns, indexing="ij")
    ok = np.ones(grid_tp.shape, dtype=bool)
    for rep in reported.values():
        at = SCORES[rep.score](grid_tp, grid_tn, p, n, 2.0)
        ok &= (at >= rep.interval.low) & (at <= rep.interval.high)
    assert list(zip(grid_tp[ok].tolist(), grid_tn[ok].tolist(), strict=True)) == [(tp, tn)]
    for dtp, dtn in [(-1, 0), (1, 0), (0, -1), (0, 1), (1, 1), (-1, -1), (1, -1), (-1, 1)]:
        failing = [
            rep.score
            for rep in reported.values()
            if not rep.interval.low <= SCORES[rep.score](tp + dtp, tn + dtn, p, n, 2.0) <= rep.interval.high
        ]
        assert failing, (dtp, dtn)


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"scores": {"auc": 0.9}}, "auc"),
        ({"scores": {}}, "scores"),
        ({"scores": {"acc": "high"}}, "acc"),
        ({"scores": {"fbp": 0.5}}, "beta"),
        ({"positives": -5}, "positives"),
        ({"positives": 0}, "positives"),
        ({"negatives": 2.5}, "negatives"),
        ({"negatives": "100"}, "negatives"),
        ({"examples": -1}, "examples"),
        ({"examples": 2.0}, "examples"),
        ({"examples": True}, "examples"),
        ({"rounding": "truncate"}, "rounding"),
        ({"eps": -0.1}, "eps"),
        ({"beta": -1}, "beta"),
    ],
)
def test_bad_input(kwargs, named):
    arguments = {"scores": {"acc": 0.9}, "positives": 10, "negatives": 20, **kwargs}
    with pytest.raises(InputError, match=named):
        check_test_set(arguments.pop("scores"), **arguments)


def test_counts_may_be_whole_floats():
    result = check_test_set({"acc": "0.9"}, positives=1e2, negatives=2e2)
    assert result.positives == 100 and result.negatives == 200


def test_huge_test_sets_keep_every_solution():
    """On ~10^8-item test sets the slope of acc, 1/(p + n), loses digits in floating point; the inversion
    must still keep every pair (found on the pooled HRF all-pixel counts, p = 28,399,210 and n = 339,941,270,
    where the estimate was off by more than one step and a pair outside acc's interval was listed)."""
    hrf = check_test_set(
        {"acc": "0.8759", "sens": "0.8143", "spec": "0.8810"}, positives=28_399_210, negatives=339_941_270
    )
    assert hrf.consistent
    rng = np.random.default_rng(17)
    for _ in range(40):
        p, n = (int(x) for x in rng.integers(10**7, 10**9, size=2))
        tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
        scores = {"acc": (tp + tn) / (p + n), "sens": tp / p, "spec": tn / n, "bacc": (tp / p + tn / n) / 2}
        written = {name: f"{value:.4f}" for name, value in scores.items()}
        result = check_test_set(written, positives=p, negatives=n, examples=3)
        assert result.consistent, (p, n, tp, tn)
