"""The common criteria of paper §4.1: single point, average difference with a threshold, t-test."""

import json

import numpy as np
import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.compare import CriterionResult, average_difference, single_point, t_test

A = [0.81, 0.83, 0.80, 0.85, 0.82, 0.84, 0.79, 0.86, 0.83, 0.82]
B = [0.80, 0.81, 0.81, 0.82, 0.80, 0.84, 0.78, 0.83, 0.80, 0.81]

# ---------------------------------------------------------------------------------------- single point


def test_single_point_higher_and_lower_is_better():
    r = single_point(0.82, 0.80)
    assert isinstance(r, CriterionResult)
    assert r.a_is_better and r.improvement == pytest.approx(0.02)
    assert not single_point(0.80, 0.80).a_is_better  # a tie is not an improvement
    lower = single_point(0.10, 0.12, direction="lower")
    assert lower.a_is_better and lower.improvement == pytest.approx(0.02)
    assert (r.n_a, r.n_b, r.p_value, r.threshold) == (1, 1, None, None)


# -------------------------------------------------------------------------------- average difference


def test_average_difference_against_the_threshold():
    r = average_difference(A, B, threshold=0.01)
    assert r.improvement == pytest.approx(np.mean(A) - np.mean(B))
    assert r.a_is_better
    assert not average_difference(A, B, threshold=0.015 + 1e-9).a_is_better
    assert not average_difference(A, B, threshold=0.02).a_is_better
    assert "not above the threshold 0.02" in average_difference(A, B, threshold=0.02).conclusion


def test_average_difference_lower_is_better_and_unequal_lengths():
    errors_a = [1 - x for x in A]
    errors_b = [1 - x for x in B[:7]]
    r = average_difference(errors_a, errors_b, direction="lower")
    assert r.improvement == pytest.approx(np.mean(errors_b) - np.mean(errors_a))
    assert (r.n_a, r.n_b) == (10, 7)


# --------------------------------------------------------------------------------------------- t-test


def test_paired_t_test_is_scipy_one_sided():
    r = t_test(A, B)
    expected = stats.ttest_rel(A, B, alternative="greater")
    assert r.p_value == pytest.approx(expected.pvalue, rel=1e-12)
    assert r.statistic == pytest.approx(expected.statistic, rel=1e-12)
    assert r.a_is_better and r.criterion == "paired t-test"


def test_welch_t_test_is_scipy_one_sided():
    r = t_test(A, B[:8], paired=False)
    expected = stats.ttest_ind(A, B[:8], equal_var=False, alternative="greater")
    assert r.p_value == pytest.approx(expected.pvalue, rel=1e-12)
    assert r.criterion == "Welch t-test"


def test_t_test_decision_at_alpha():
    p = t_test(A, B, paired=False).p_value
    assert t_test(A, B, paired=False, alpha=p * 1.001).a_is_better
    assert not t_test(A, B, paired=False, alpha=p).a_is_better


def test_t_test_lower_is_better_is_the_test_on_negated_scores():
    errors_a = -np.array(A)
    errors_b = -np.array(B)
    lower = t_test(errors_a, errors_b, direction="lower")
    assert lower.p_value == pytest.approx(t_test(A, B).p_value, rel=1e-12)
    assert lower.improvement == pytest.approx(t_test(A, B).improvement)
    # B better than A: the one-sided p-value is large.
    assert t_test(B, A).p_value > 0.99


def test_t_test_without_variance_is_undefined_not_an_error():
    r = t_test([0.8, 0.8, 0.8], [0.8, 0.8, 0.8])
    assert r.p_value is None and r.statistic is None and not r.a_is_better
    assert "undefined" in r.conclusion
    assert json.loads(json.dumps(r.to_dict())) == r.to_dict()


# -------------------------------------------------------------------------------------- result, errors


def test_results_are_plain_and_readable():
    for r in (single_point(0.8, 0.7), average_difference(A, B, threshold=0.01), t_test(A, B)):
        assert json.loads(json.dumps(r.to_dict())) == r.to_dict()
        assert repr(r).startswith(f"CriterionResult(criterion={r.criterion!r}, a_is_better=")


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: single_point(float("nan"), 0.5), "a: expected a finite number"),
        (lambda: single_point(0.5, "x"), "b: expected a number"),
        (lambda: single_point(0.5, 0.4, direction="down"), "direction: expected one of 'higher', 'lower'"),
        (lambda: average_difference([], B), "a: expected at least 1 run,"),
        (lambda: average_difference(A, [0.1, float("nan")]), "b: run 2 (1-based) is nan"),
        (lambda: average_difference(A, B, threshold=-0.1), "threshold: expected a non-negative number"),
        (lambda: t_test([0.5], B), "a: expected at least 2 runs"),
        (lambda: t_test(A, B[:5]), "b: paired runs need as many runs as a"),
        (lambda: t_test(A, B, alpha=1.0), "alpha: expected a value strictly between 0 and 1"),
        (lambda: t_test(A, B, paired=None), "paired: expected True or False"),
    ],
)
def test_bad_input_names_the_argument(call, named):
    with pytest.raises(InputError) as info:
        call()
    assert str(info.value).startswith(named)
