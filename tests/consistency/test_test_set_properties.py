"""check_test_set never cries wolf: scores of a real confusion matrix, rounded, are always consistent.

DESIGN (numerical policy): every "inconsistent" verdict is a theorem about integers. Here the scores come
from a known (tp, tn), are written with 2-5 decimals as a paper would print them, and the test must find
that pair among its solutions.
"""

import os
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from benchtrust.consistency import SCORES, reported_scores
from benchtrust.consistency._test_set import check_test_set, solution_set

NAMES = sorted(SCORES)

#: `make test` draws a quarter of each large property's examples, to stay within its 10 minutes (issue 33);
#: benchmarks/bench_generated.py sets BENCHTRUST_ALL_EXAMPLES=1 and draws them all.
SHARE = 1 if os.environ.get("BENCHTRUST_ALL_EXAMPLES") else 4


@st.composite
def experiments(draw):
    """p, n, a confusion matrix (tp, tn), a subset of the scores and β."""
    p = draw(st.integers(1, 2000), label="p")
    n = draw(st.integers(1, 2000), label="n")
    tp = draw(st.integers(0, p), label="tp")
    tn = draw(st.integers(0, n), label="tn")
    names = draw(st.permutations(NAMES), label="scores")[: draw(st.integers(1, 8), label="how many")]
    beta = draw(st.floats(0.1, 10), label="beta") if {"fbp", "fbn"} & set(names) else None
    return p, n, tp, tn, names, beta


def printed(value, decimals, mode):
    """``value`` as text with ``decimals`` decimals: rounded to nearest, floored or ceiled (exactly)."""
    if mode == "round":
        return f"{value:.{decimals}f}"
    quantum = Decimal(1).scaleb(-decimals)
    return str(Decimal(value).quantize(quantum, rounding=ROUND_FLOOR if mode == "floor" else ROUND_CEILING))


def assert_found(experiment, decimals, modes):
    """The scores of (tp, tn), printed with ``decimals`` decimals in the given modes, admit (tp, tn)."""
    p, n, tp, tn, names, beta = experiment
    values = {}
    for name, mode in zip(names, modes, strict=False):
        value = float(SCORES[name](tp, tn, p, n, beta))
        if not np.isnan(value):  # an undefined score cannot be reported
            values[name] = printed(value, decimals, mode)
    assume(values)
    rounding = "round" if set(modes) == {"round"} else "floor-or-ceil"
    result = check_test_set(values, positives=p, negatives=n, beta=beta, rounding=rounding)
    assert result.consistent and result.n_solutions >= 1, values
    found = solution_set(reported_scores(values, beta=beta, rounding=rounding), p, n, beta)
    assert found.contains(tp, tn), values
    if result.n_solutions <= len(result.solutions):  # every solution is listed: (tp, tn) among them
        assert (tp, tn) in result.solutions


@settings(max_examples=2000 // SHARE, deadline=None)
@given(experiment=experiments(), decimals=st.integers(2, 5))
def test_rounded_scores_of_a_real_matrix_are_consistent(experiment, decimals):
    assert_found(experiment, decimals, ["round"] * len(experiment[4]))


@settings(max_examples=1500 // SHARE, deadline=None)
@given(experiment=experiments(), decimals=st.integers(2, 5), data=st.data())
def test_floored_or_ceiled_scores_of_a_real_matrix_are_consistent(experiment, decimals, data):
    modes = data.draw(st.lists(st.sampled_from(["floor", "ceil"]), min_size=8, max_size=8), label="modes")
    assert_found(experiment, decimals, modes)


@settings(max_examples=300, deadline=None)
@given(experiment=experiments(), decimals=st.integers(2, 5))
def test_the_found_pairs_give_the_scores(experiment, decimals):
    """The other direction, checked by the scores' formulas: every listed pair is inside every interval."""
    p, n, tp, tn, names, beta = experiment
    shift = {name: float(SCORES[name](min(tp + 1, p), tn, p, n, beta)) for name in names}
    values = {name: printed(value, decimals, "round") for name, value in shift.items() if not np.isnan(value)}
    assume(values)
    result = check_test_set(values, positives=p, negatives=n, beta=beta, examples=50)
    for rep in result.scores:
        for pair in result.solutions:
            assert rep.interval.low <= SCORES[rep.score](*pair, p, n, beta) <= rep.interval.high
