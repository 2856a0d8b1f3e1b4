"""check_test_set at any size (issue 19 §3): exact counts for the scores whose intervals are linear
inequalities, bounded chunks and a stated budget for the others.

The exact counts are compared with an independent oracle: every (tp, tn) of a small grid, each score
written here from its textbook formula as a ratio of whole numbers and compared with the interval ends as
the exact rationals their floats are.
"""

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from benchtrust import InputError, cli
from benchtrust.consistency import SCORES, reported_scores
from benchtrust.consistency import _test_set as test_set
from benchtrust.consistency._solver._linear_counts import floor_sum, lattice_polygon
from benchtrust.consistency._test_set import check_test_set

# (numerator, denominator) of each score counted exactly, from its textbook formula (β = 2 for F-beta).
RATIOS = {
    "acc": lambda tp, tn, p, n: (tp + tn, p + n + 0 * tp),
    "sens": lambda tp, tn, p, n: (tp, p + 0 * tp),
    "spec": lambda tp, tn, p, n: (tn, n + 0 * tp),
    "bacc": lambda tp, tn, p, n: (n * tp + p * tn, 2 * p * n + 0 * tp),
    "err": lambda tp, tn, p, n: (p - tp + n - tn, p + n + 0 * tp),
    "fnr": lambda tp, tn, p, n: (p - tp, p + 0 * tp),
    "fpr": lambda tp, tn, p, n: (n - tn, n + 0 * tp),
    "ppv": lambda tp, tn, p, n: (tp, tp + n - tn),
    "npv": lambda tp, tn, p, n: (tn, tn + p - tp),
    "fdr": lambda tp, tn, p, n: (n - tn, tp + n - tn),
    "for": lambda tp, tn, p, n: (p - tp, tn + p - tp),
    "f1p": lambda tp, tn, p, n: (2 * tp, 2 * tp + (p - tp) + (n - tn)),
    "f1n": lambda tp, tn, p, n: (2 * tn, 2 * tn + (n - tn) + (p - tp)),
    "fbp": lambda tp, tn, p, n: (5 * tp, 5 * tp + 4 * (p - tp) + (n - tn)),
    "fbn": lambda tp, tn, p, n: (5 * tn, 5 * tn + 4 * (n - tn) + (p - tp)),
    "ji": lambda tp, tn, p, n: (tp, p + n - tn),
}


def oracle(values, p, n, **kwargs):
    """Every consistent (tp, tn), in lexicographic order, in exact arithmetic on the whole grid."""
    tp, tn = (grid.astype(object) for grid in np.meshgrid(np.arange(p + 1), np.arange(n + 1), indexing="ij"))
    ok = np.ones(tp.shape, dtype=bool)
    for rep in reported_scores(values, beta=2.0, **kwargs):
        numerator, denominator = RATIOS[rep.score](tp, tn, p, n)
        ok &= denominator > 0
        for end, sign in ((rep.interval.low, 1), (rep.interval.high, -1)):
            top, bottom = float(end).as_integer_ratio()  # numerator / denominator vs top / bottom
            ok &= sign * (numerator * bottom - top * denominator) >= 0
    return list(zip(tp[ok].tolist(), tn[ok].tolist(), strict=True))


def test_exact_counts_agree_with_the_oracle():
    rng = np.random.default_rng(19)
    verdicts = set()
    for _ in range(400):
        p, n = (int(v) for v in rng.integers(1, 41, size=2))
        tp, tn = int(rng.integers(0, p + 1)), int(rng.integers(0, n + 1))
        decimals = int(rng.integers(1, 4))
        values = {}
        for name in rng.choice(sorted(RATIOS), size=int(rng.integers(1, 7)), replace=False):
            value = float(SCORES[str(name)](tp, tn, p, n, 2.0))
            value = float(rng.uniform(0, 1)) if np.isnan(value) or rng.random() < 0.2 else value
            values[str(name)] = f"{value:.{decimals}f}"
        rounding = "floor-or-ceil" if rng.random() < 0.3 else "round"
        expected = oracle(values, p, n, rounding=rounding)
        result = check_test_set(values, positives=p, negatives=n, beta=2.0, rounding=rounding, examples=30)
        assert result.n_solutions == len(expected), (values, p, n)
        assert result.solutions == tuple(expected[:30]), (values, p, n)
        verdicts.add(result.consistent)
    assert verdicts == {True, False}


def test_lattice_polygons_of_random_half_planes():
    """The geometric core on its own: random half-planes (crossing anywhere), counted and listed."""
    rng = np.random.default_rng(3)
    for _ in range(2000):
        p, n = (int(v) for v in rng.integers(1, 16, size=2))
        planes = [
            (*(int(v) for v in rng.integers(-9, 10, size=2)), int(rng.integers(-40, 41)))
            for _ in range(int(rng.integers(1, 6)))
        ]
        undefined = {(0, n)} if rng.random() < 0.5 else set()
        tp, tn = np.meshgrid(np.arange(p + 1), np.arange(n + 1), indexing="ij")
        ok = np.ones(tp.shape, dtype=bool)
        for a, b, c in planes:
            ok &= a * tp + b * tn >= c
        expected = [
            pair for pair in zip(tp[ok].tolist(), tn[ok].tolist(), strict=True) if pair not in undefined
        ]
        polygon = lattice_polygon(planes, p, n, undefined)
        assert polygon.size() == len(expected), (planes, p, n)
        assert polygon.first_points(7) == expected[:7], (planes, p, n)
    for count, m, a, b in rng.integers(-50, 51, size=(500, 4)).tolist():
        m = abs(m) + 1
        assert floor_sum(count, m, a, b) == sum((a * i + b) // m for i in range(count))


def test_undefined_corners_are_left_out():
    """Precision is 0/0 at (0, n) (nothing predicted positive), npv at (p, 0): never a solution."""
    result = check_test_set({"ppv": "0.5", "npv": "0.5"}, positives=3, negatives=4, eps=0.5, examples=100)
    assert (0, 4) not in result.solutions and (3, 0) not in result.solutions
    assert result.n_solutions == len(result.solutions) == 4 * 5 - 2


def sum_counts(p, n, low, high):
    """The number of (tp, tn) in [0, p] × [0, n] with low <= tp + tn <= high, summed by pieces: for each
    total s there are min(s, p) - max(0, s - n) + 1 pairs, linear in s between the breaks p and n."""
    total, start = 0, low
    for stop in sorted({min(p, n), max(p, n), high + 1}):
        stop = min(stop, high + 1)
        if stop <= start:
            continue
        first, last = start, stop - 1
        ends = [min(s, p) - max(0, s - n) + 1 for s in (first, last)]  # linear on [first, last]
        total += sum(ends) * (last - first + 1) // 2
        start = stop
    return total


def test_a_test_set_of_a_trillion_items():
    """p + n = 10^12: acc, sens and spec as printed for a voxel-level benchmark (acc = 0.4·sens + 0.6·spec
    = 0.89918); the count is exact."""
    p, n = 4 * 10**11, 6 * 10**11
    values = {"acc": "0.8992", "sens": "0.8123", "spec": "0.9571"}
    result = check_test_set(values, positives=p, negatives=n, examples=5)
    assert isinstance(result.n_solutions, int) and result.n_solutions > 10**15
    reported = {rep.score: rep for rep in result.scores}
    bounds = {
        name: (Fraction(rep.interval.low), Fraction(rep.interval.high)) for name, rep in reported.items()
    }
    for tp, tn in result.solutions:  # every listed pair gives every score, in exact arithmetic
        exact = {"acc": Fraction(tp + tn, p + n), "sens": Fraction(tp, p), "spec": Fraction(tn, n)}
        assert all(bounds[name][0] <= value <= bounds[name][1] for name, value in exact.items())
    first_tp = result.solutions[0][0]
    assert Fraction(first_tp - 1, p) < bounds["sens"][0] <= Fraction(first_tp, p)  # the first row of all
    # Accuracy alone: the pairs whose sum lies in a range, counted by an arithmetic series.
    alone = check_test_set({"acc": "0.8992"}, positives=p, negatives=n, examples=0)
    low, high = (end * (p + n) for end in bounds["acc"])
    assert alone.n_solutions == sum_counts(p, n, math.ceil(low), math.floor(high))
    # Sensitivity and specificity alone: a box.
    box = check_test_set({"sens": "0.8123", "spec": "0.9571"}, positives=p, negatives=n, examples=0)
    rows, columns = (
        math.floor(bounds[name][1] * size) - math.ceil(bounds[name][0] * size) + 1
        for name, size in (("sens", p), ("spec", n))
    )
    assert box.n_solutions == rows * columns


@pytest.mark.parametrize(("p", "n"), [(300, 800), (800, 300)])
def test_search_in_chunks_gives_the_whole_search(p, n, monkeypatch):
    """Rows are searched CHUNK at a time: a tiny CHUNK gives the same count, pairs and progress to the end."""
    tp, tn = round(0.8 * p), round(0.75 * n)
    values = {
        name: f"{float(SCORES[name](tp, tn, p, n)):.{d}f}" for name, d in [("acc", 2), ("mcc", 1), ("f1p", 2)]
    }
    whole = check_test_set(values, positives=p, negatives=n, examples=40)
    assert whole.n_solutions > 40
    monkeypatch.setattr(test_set, "CHUNK", 3)
    calls = []
    chunked = check_test_set(
        values,
        positives=p,
        negatives=n,
        examples=40,
        progress=lambda done, total: calls.append((done, total)),
    )
    assert (chunked.n_solutions, chunked.solutions) == (whole.n_solutions, whole.solutions)
    assert len(calls) > 3 and calls[-1][0] == calls[-1][1]
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_the_budget_is_stated_before_the_search():
    big = {"acc": "0.9", "mcc": "0.8"}
    with pytest.raises(InputError, match=r"^max_work=5e\+09: the search for mcc .* score evaluations"):
        check_test_set(big, positives=10**9, negatives=10**9)
    with pytest.raises(InputError, match="max_work=10: "):
        check_test_set(big, positives=100, negatives=100, max_work=10)
    # scores counted exactly need no search, whatever the size and the budget
    exact = check_test_set({"acc": "0.9", "f1": "0.8"}, positives=10**15, negatives=10**15, max_work=1)
    assert exact.consistent
    with pytest.raises(InputError, match="max_work"):
        check_test_set(big, positives=10, negatives=10, max_work=0)


def test_cli_refuses_a_search_over_budget_in_one_line():
    args = ["consistency", "test-set", "--positives", "1e9", "--negatives", "1e9", "--score", "acc=0.9"]
    result = CliRunner().invoke(cli.app, [*args, "--score", "mcc=0.8"])
    assert result.exit_code == 2 and result.stdout == ""
    assert (
        result.stderr.startswith("benchtrust: error: --max-work=5e+09: ") and result.stderr.count("\n") == 1
    )
    result = CliRunner().invoke(cli.app, [*args, "--score", "mcc=0.8", "--max-work", "0"])
    assert result.exit_code == 2 and "--max-work" in result.stderr
    result = CliRunner().invoke(cli.app, [*args, "--score", "sens=0.8", "--score", "spec=0.95", "--json"])
    assert result.exit_code == 0
    assert isinstance(json.loads(result.stdout)["n_solutions"], int)
