"""The fast path of the mean of scores (paper §4.3): the real relaxation decided exactly, and the witness by
rounding, against the exact search, an LP solver, and honest per-image scores."""

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import Interval
from benchtrust.consistency import reported_scores
from benchtrust.consistency._solver._integer_problems import Batch
from benchtrust.consistency._solver._mean_constraints import base_intervals, constraints, verified
from benchtrust.consistency._solver._mean_relaxation import relaxation_feasible, rounded_witness, screened
from benchtrust.consistency._solver._state_search import search

NAMES = ("acc", "sens", "spec", "bacc", "err", "fnr", "fpr")


def exact_search(p, n, given_):
    """The exact search of _mean_of_scores without its budget and without the fast path."""
    batch = Batch.build(np.array([p]), np.array([n]), given_)
    return bool(batch.alive[0]) and search(batch.select(np.array([0])), None) is not None


def means_of(p, n, tp, tn):
    """Every linear score's mean over the sets, in floats."""
    p, n, tp, tn = (np.asarray(v, dtype=float) for v in (p, n, tp, tn))
    base = {
        "acc": np.mean((tp + tn) / (p + n), axis=-1),
        "sens": np.mean(tp / p, axis=-1),
        "spec": np.mean(tn / n, axis=-1),
    }
    base["bacc"] = (base["sens"] + base["spec"]) / 2
    return {**base, "err": 1 - base["acc"], "fnr": 1 - base["sens"], "fpr": 1 - base["spec"]}


def random_small(rng):
    """A small problem: 1-4 sets of 1-9 per class, 1-3 scores, honest or not, 1-3 decimals."""
    sets = int(rng.integers(1, 5))
    p, n = rng.integers(1, 10, size=sets), rng.integers(1, 10, size=sets)
    means = means_of(p, n, rng.integers(0, p + 1), rng.integers(0, n + 1))
    decimals = int(rng.integers(1, 4))
    scores = {}
    for name in rng.choice(NAMES, size=int(rng.integers(1, 4)), replace=False):
        value = means[str(name)] if rng.random() < 0.6 else rng.uniform(0, 1)
        scores[str(name)] = f"{value:.{decimals}f}"
    return p.tolist(), n.tolist(), constraints(reported_scores(scores))


def test_fast_path_agrees_with_the_exact_search():
    """Random small problems: an infeasible relaxation is never contradicted by the exact search, a
    witness is always verified, and both verdicts occur on both sides."""
    rng = np.random.default_rng(17)
    seen = {"infeasible": 0, "witness": 0, "integers only": 0, "neither": 0}
    for _ in range(400):
        p, n, given_ = random_small(rng)
        exists = exact_search(p, n, given_)
        relaxed = relaxation_feasible(p, n, given_)
        counts = rounded_witness(p, n, given_)
        assert relaxed or not exists, (p, n, given_)
        if counts is not None:
            assert verified(p, n, counts, given_) and exists
        rows, found = screened(np.array([p]), np.array([n]), given_)
        if not len(rows) and found is None:
            assert not exists  # dropped: proved infeasible
        if found is not None:
            assert exists and verified(p, n, found[1], given_)
        key = "infeasible" if not relaxed else "witness" if counts is not None else "neither"
        seen["integers only" if relaxed and not exists else key] += 1
    assert min(seen.values()) > 0, seen


def test_relaxation_is_the_linear_programme():
    """The greedy decision equals an LP solver's (HiGHS) on random problems of up to 6 sets, wherever the
    LP is not within 1e-7 of its boundary."""
    from scipy.optimize import linprog

    rng = np.random.default_rng(3)
    decided = 0
    for _ in range(150):
        sets = int(rng.integers(1, 7))
        p, n = rng.integers(1, 500, size=sets), rng.integers(1, 500, size=sets)
        scores = {str(name): float(rng.uniform(0.2, 1)) for name in rng.choice(NAMES, size=3, replace=False)}
        given_ = constraints(reported_scores(scores, eps=float(rng.choice([1e-3, 1e-2, 5e-2]))))
        means = base_intervals((rep.score, *rep.interval) for rep in given_.means)
        w = p / (p + n)
        rows = {
            "sens": np.r_[np.ones(sets), np.zeros(sets)],
            "spec": np.r_[np.zeros(sets), np.ones(sets)],
            "bacc": np.ones(2 * sets) / 2,
            "acc": np.r_[w, 1 - w],
        }
        margins = []
        for sign in (1, -1):  # feasible with slack t in every row: maximise t (sign 1) or find any
            a = [np.r_[rows[b] / sets, 1.0] for b in means] + [np.r_[-rows[b] / sets, 1.0] for b in means]
            ub = [float(hi) for _, hi in means.values()] + [-float(lo) for lo, _ in means.values()]
            found = linprog(
                np.r_[np.zeros(2 * sets), -1.0],
                A_ub=np.array(a),
                b_ub=ub,
                bounds=[(0, 1)] * (2 * sets) + [(-1, 1)],
                method="highs",
            )
            margins.append(-found.fun if sign == 1 else None)
        slack = margins[0]
        if abs(slack) < 1e-7:
            continue
        decided += 1
        assert relaxation_feasible(p, n, given_) == (slack > 0), (p, n, scores)
    assert decided > 100


def exact_interval(name, low, high):
    """A reported mean whose interval is exactly [low, high] (no widening)."""
    (rep,) = reported_scores({name: (low + high) / 2}, eps=0)
    return dataclasses.replace(rep, interval=Interval(low, high))


def test_relaxation_is_exact_at_interval_ends():
    """Sets of 2^m items (dyadic weights) and a sensitivity that fixes X = Σ x_i to a whole number: the
    most and least mean accuracy (the top or bottom X weights w_i, all y_i at 1 or 0) are binary
    fractions. An interval ending exactly there is feasible, one ulp short of it is not, and the exact
    search agrees (x_i in {0, 1} at these vertices: whole counts)."""
    rng = np.random.default_rng(11)
    for _ in range(20):
        sets = int(rng.choice([2, 4, 8]))
        c = rng.choice([2, 4, 8, 16], size=sets)
        p = rng.integers(1, c)
        n = c - p
        x = int(rng.integers(0, sets + 1))
        w = np.sort(p / c)
        most = (w[::-1][:x].sum() + (1 - w).sum()) / sets
        least = w[:x].sum() / sets
        sens = exact_interval("sens", x / sets, x / sets)
        for end, inside, outside in (
            (most, (most, 1.0), (math.nextafter(most, 2), 1.0)),
            (least, (0.0, least), (0.0, math.nextafter(least, -1))),
        ):
            for (low, high), expected in ((inside, True), (outside, False)):
                given_ = dataclasses.replace(
                    constraints(reported_scores({"sens": 0.5})),
                    means=(sens, exact_interval("acc", low, high)),
                )
                assert relaxation_feasible(p, n, given_) is expected, (p.tolist(), n.tolist(), x, end)
                assert exact_search(p.tolist(), n.tolist(), given_) is expected


def test_honest_rounded_per_image_scores_are_never_flagged():
    """10,000 honest cases, drawn at once: 3 to 40 images of 10 to 10^6 pixels per class, counts from
    binomials, mean acc, sens, spec (some also bacc) rounded to 2 to 5 decimals. The relaxation never
    rules one out; on a sample, the fast path either finds verified counts or leaves the case to the
    exact search, and it finds them for most (those it misses have few sets, some of them small, where
    the honest counts lie far from the relaxation's even point)."""
    rng = np.random.default_rng(2024)
    cases, most = 10_000, 40
    sets = rng.integers(3, most + 1, size=cases)
    used = np.arange(most) < sets[:, None]
    p = np.where(used, np.exp(rng.uniform(np.log(10), np.log(10**6), size=(cases, most))), 1).astype(np.int64)
    n = np.where(used, np.exp(rng.uniform(np.log(10), np.log(10**6), size=(cases, most))), 1).astype(np.int64)
    tp = rng.binomial(p, rng.uniform(0.3, 1.0, size=(cases, 1)))
    tn = rng.binomial(n, rng.uniform(0.5, 1.0, size=(cases, 1)))
    with np.errstate(invalid="ignore"):
        per_set = {"acc": (tp + tn) / (p + n), "sens": tp / p, "spec": tn / n}
    means = {name: np.where(used, value, 0).sum(axis=1) / sets for name, value in per_set.items()}
    means["bacc"] = (means["sens"] + means["spec"]) / 2
    decimals = rng.integers(2, 6, size=cases)
    witnesses = left = 0
    for i in range(cases):
        names = ("acc", "sens", "spec", "bacc") if i % 3 == 0 else ("acc", "sens", "spec")
        scores = {name: f"{means[name][i]:.{decimals[i]}f}" for name in names}
        given_ = constraints(reported_scores(scores))
        k = sets[i]
        assert relaxation_feasible(p[i, :k], n[i, :k], given_), (p[i, :k], n[i, :k], scores)
        if i % 20 == 0:
            rows, found = screened(p[i : i + 1, :k], n[i : i + 1, :k], given_)
            assert found is not None or rows.tolist() == [0]
            if found is not None:
                assert verified(p[i, :k], n[i, :k], found[1], given_)
            witnesses, left = witnesses + (found is not None), left + (found is None)
    assert witnesses > 4 * left


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1, 60), st.integers(1, 60)), min_size=1, max_size=5),
    st.floats(0, 1),
    st.floats(0, 1),
    st.integers(1, 3),
)
def test_honest_small_problems_keep_their_counts_reachable(folds, a, b, decimals):
    """Hypothesis: honest scores of small problems (any rates, few decimals) are never ruled out by the
    relaxation, and any witness is verified."""
    p, n = (np.array(v) for v in zip(*folds, strict=True))
    tp, tn = np.floor(a * p).astype(int), np.floor(b * n).astype(int)
    means = means_of(p, n, tp, tn)
    given_ = constraints(
        reported_scores({name: f"{means[name]:.{decimals}f}" for name in ("acc", "sens", "fpr")})
    )
    assert relaxation_feasible(p, n, given_)
    counts = rounded_witness(p, n, given_)
    assert counts is None or verified(p, n, counts, given_)


@pytest.mark.parametrize("region", ["fov", "all"])
def test_drive_field_of_view_scores_settled_without_the_search(region, monkeypatch):
    """The DRIVE example (paper §5.1): the fast path decides both regions, with no exact search."""
    from benchtrust.consistency import dataset
    from benchtrust.consistency._solver import _mean_of_scores

    monkeypatch.setattr(_mean_of_scores, "search", None)  # would fail if called
    monkeypatch.setattr(_mean_of_scores, "by_solver", None)
    p, n = zip(*dataset(f"drive/test/manual1/{region}").folds, strict=True)
    given_ = constraints(reported_scores({"acc": "0.9557", "sens": "0.7761", "spec": "0.9792"}))
    counts = _mean_of_scores.solve(p, n, given_)
    assert (counts is not None) == (region == "fov")
    assert counts is None or verified(p, n, counts, given_)
