"""Bayesian comparison of two methods (benchtrust.compare: correlated_t_test, signed_rank_test,
plot_simplex; Benavoli et al. 2017, §3-4)."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust.compare import bundled_results, read_task_scores
from benchtrust.compare._tasks._correlated_t import CorrelatedTResult, correlated_t_test
from benchtrust.compare._tasks._scores import TASKS_QUESTION
from benchtrust.compare._tasks._signed_rank import SignedRankResult, plot_simplex, signed_rank_test

UCI = {
    "direction": "higher",
    "method_column": "classifier",
    "task_column": "dataset_index",
    "run_column": "score_index",
    "score_column": "accuracy_percent",
}
SAMPLES = 50_000  # baycomp's default nsamples: equal samples, equal Monte Carlo error

# Recorded from baycomp 1.0.3, see benchmarks/BAYCOMP_FACTS.md: two_on_single(x=a, y=b, rope, runs=10) on
# the 100 accuracies of one UCI data set -> (p_left, p_rope, p_right) = (a better, rope, b better);
# (p_left, p_right) for rope 0.
BAYCOMP_T = {
    ("nbc", "aode", "0", 1): (3.021105047749901e-07, 0.04571403289892528, 0.95428566499057),
    ("nbc", "aode", "1", 1): (0.009312149167360204, 0.9087251242585637, 0.0819627265740761),
    ("nbc", "aode", "2", 1): (0.27348199698008746, 0.6767069879363, 0.04981101508361252),
    ("nbc", "aode", "11", 1): (0.904678752166768, 0.07625225994082363, 0.019068987892408407),
    ("nbc", "aode", "28", 1): (1.4070027881914797e-34, 0.0, 1.0),
    ("nbc", "aode", "0", 0): (0.0003269075048981662, 0.9996730924951018),
    ("j48", "j48gr", "11", 1): (0.13234888239036632, 0.5585580318516701, 0.30909308575796357),
    # every difference is 0 (zero variance): a point posterior
    ("j48", "j48gr", "4", 1): (0.0, 1.0, 0.0),
    ("j48", "j48gr", "4", 0): (0.5, 0.5),
}
# Recorded from baycomp 1.0.3, see benchmarks/BAYCOMP_FACTS.md: CorrelatedTTest.compute_statistics(x=nbc,
# y=aode, runs=10) -> (mean of y - x, scale², degrees of freedom).
BAYCOMP_T_STATISTICS = {
    "0": (1.93882, 0.30337701691178454, 99),
    "11": (-4.36249, 6.5115348750831625, 99),
}
# Recorded from baycomp 1.0.3, see benchmarks/BAYCOMP_FACTS.md: two_on_multiple(x=a, y=b, rope=1,
# random_state=1) on the 54 per-data-set mean accuracies, 50,000 samples.
BAYCOMP_SIGNED_RANK = {
    ("nbc", "aode"): (0.0, 0.12972, 0.87028),
    ("nbc", "hnb"): (0.00024, 0.00128, 0.99848),
    ("nbc", "j48"): (0.2346, 0.00712, 0.75828),
    ("nbc", "j48gr"): (0.1851, 0.00442, 0.81048),
    ("aode", "hnb"): (0.00144, 0.96604, 0.03252),
    ("aode", "j48"): (0.90322, 0.03368, 0.0631),
    ("aode", "j48gr"): (0.88256, 0.04584, 0.0716),
    ("hnb", "j48"): (0.96296, 0.01704, 0.02),
    ("hnb", "j48gr"): (0.95004, 0.02324, 0.02672),
    ("j48", "j48gr"): (0.0, 1.0, 0.0),
}
# Recorded from baycomp 1.0.3, see benchmarks/BAYCOMP_FACTS.md: the mean and standard error of the mean of
# SignedRankTest.sample(x, y, rope=1, prior, random_state=1) (θ_left, θ_rope, θ_right), for the UCI means
# (50,000 samples) and for made-up differences y - x with pair means exactly on the ROPE's boundary
# (200,000 samples).
BAYCOMP_THETA_MEANS = {
    ("nbc", "aode", 0.5): ((0.03237428, 0.39859793, 0.56902779), (0.000115, 0.000325, 0.000349)),
    ("aode", "hnb", 0.5): ((0.18124878, 0.53482051, 0.28393070), (0.000262, 0.000309, 0.000328)),
    ((1.0,), 0.5): ((0.0, 0.73322027, 0.26677973), (0.0, 0.000390, 0.000390)),
    ((2.0,), 0.5): ((0.0, 0.33296807, 0.66703193), (0.0, 0.000666, 0.000666)),
    ((2.5,), 0.5): ((0.0, 0.19949560, 0.80050440), (0.0, 0.000595, 0.000595)),
    ((-3.0, -1.0, 0.5, 1.0, 2.0, 5.0), 0.5): (
        (0.18435524, 0.41512785, 0.40051691),
        (0.00033, 0.00032, 0.00044),
    ),
    ((-3.0, -1.0, 0.5, 1.0, 2.0, 5.0), 3.0): (
        (0.15527922, 0.54447546, 0.30024532),
        (0.00028, 0.00034, 0.00037),
    ),
}


@pytest.fixture(scope="module")
def uci_frame():
    return pd.read_csv(bundled_results("uci"))


def scores_of(a_values, b_values, direction="higher"):
    """TaskScores of methods A and B from arrays of shape (tasks, runs) (NaN = no run)."""
    a_values, b_values = np.atleast_2d(a_values), np.atleast_2d(b_values)
    rows = [
        {"method": method, "task": f"t{j}", "run": k, "score": value}
        for method, values in (("A", a_values), ("B", b_values))
        for (j, k), value in np.ndenumerate(values)
        if not np.isnan(value)
    ]
    return read_task_scores(pd.DataFrame(rows), direction=direction)


def within(ours, errors, theirs, their_errors):
    """Whether two Monte Carlo estimates agree within 4 standard errors of their difference."""
    spread = np.sqrt(np.square(errors) + np.square(their_errors))
    return np.all(np.abs(np.asarray(ours) - theirs) <= 4 * spread + 1e-12)


# ---------------------------------------------------------------------------------------------------------
# Correlated t-test: equal to baycomp


@pytest.mark.parametrize(
    ("key", "theirs"), [pytest.param(*item, id=str(item[0])) for item in BAYCOMP_T.items()]
)
def test_correlated_t_equals_baycomp(uci_runs, key, theirs):
    a, b, task, rope = key
    result = correlated_t_test(uci_runs, a, b, task=task, rope=rope, folds=10)
    ours = (result.p_a_better[0], result.p_rope[0], result.p_b_better[0])
    if rope == 0:
        assert ours[1] == 0
        ours = (ours[0], ours[2])
    np.testing.assert_allclose(ours, theirs, rtol=0, atol=1e-10)


def test_correlated_t_posterior_equals_baycomp_statistics(uci_runs):
    for task, (mean, variance, df) in BAYCOMP_T_STATISTICS.items():
        result = correlated_t_test(uci_runs, "nbc", "aode", task=task, folds=10)
        assert result.mean[0] == pytest.approx(-mean, abs=1e-12)  # baycomp's mean is of y - x
        assert result.scale[0] ** 2 == pytest.approx(variance, rel=1e-12)
        assert result.df[0] == df


def test_correlated_t_every_task_table(uci_runs):
    result = correlated_t_test(uci_runs, "nbc", "aode", rope=1, folds=10)
    assert isinstance(result, CorrelatedTResult)
    assert result.tasks == uci_runs.tasks
    assert np.all(result.runs == 100)
    np.testing.assert_allclose(result.p_a_better + result.p_rope + result.p_b_better, 1, atol=1e-12)
    one = correlated_t_test(uci_runs, "nbc", "aode", task="11", rope=1, folds=10)
    assert result.p_a_better[uci_runs.tasks.index("11")] == one.p_a_better[0]
    frame = result.to_frame()
    assert list(frame.columns) == [
        *("task", "runs", "mean", "scale", "df", "p_a_better", "p_rope", "p_b_better"),
        *("decision", "degenerate"),
    ]
    assert "Tested one task at a time" in result.verdict
    assert "signed_rank_test" in result.verdict
    text = str(result)
    assert "P(nbc better)" in text and "aode better" in text and "Nadeau-Bengio" in text
    html = result._repr_html_()
    assert TASKS_QUESTION in html and "§3" in html
    assert repr(result).startswith("CorrelatedTResult(a='nbc', b='aode', rope=1, folds=10")
    json.dumps(result.to_dict(), allow_nan=False)


def test_correlated_t_zero_variance_says_so(uci_runs):
    # j48 and j48gr give the same accuracy on every fold of 14 data sets
    result = correlated_t_test(uci_runs, "j48", "j48gr", rope=1, folds=10)
    assert result.degenerate.sum() == 14
    assert not np.isnan(result.p_rope).any()
    assert "14 of them" in result.verdict and "degenerates" in result.verdict
    one = correlated_t_test(uci_runs, "j48", "j48gr", task="4", rope=0, folds=10)
    assert one.decisions == ("undecided",)
    assert "no variance" in one.verdict and "cannot decide" in one.verdict
    assert "nan" not in str(one).lower()


def test_correlated_t_rope_zero_and_words(uci_runs):
    result = correlated_t_test(uci_runs, "nbc", "aode", task="0", folds=10)
    assert result.p_rope[0] == 0
    assert "aode is better than nbc" in result.verdict and "practically" not in result.verdict
    assert result.decisions == ("b_better",)


def test_correlated_t_threshold(uci_runs):
    strict = correlated_t_test(uci_runs, "nbc", "aode", task="11", rope=1, folds=10)
    loose = correlated_t_test(uci_runs, "nbc", "aode", task="11", rope=1, folds=10, threshold=0.9)
    assert strict.decisions == ("undecided",) and loose.decisions == ("a_better",)
    assert "cannot decide" in strict.verdict and "none exceeds 0.95" in strict.verdict


def test_correlated_t_too_few_runs():
    result = correlated_t_test(
        scores_of([[0.8, 0.9], [0.7, np.nan]], [[0.6, 0.7], [0.6, np.nan]]), "A", "B", folds=2
    )
    assert result.decisions == ("a_better", "too_few_runs")
    assert np.isnan(result.p_a_better[1])
    assert result.to_dict()["tasks"][1]["p_a_better"] is None
    json.dumps(result.to_dict(), allow_nan=False)
    one = correlated_t_test(scores_of([[0.7]], [[0.6]]), "A", "B", folds=2)
    assert "nothing can be said" in one.verdict


def test_correlated_t_pairs_by_run_label():
    table = pd.DataFrame(
        {
            "method": ["A", "A", "B", "B"],
            "task": ["t", "t", "t", "t"],
            "run": [1, 2, 1, 3],
            "score": [0.5, 0.6, 0.4, 0.5],
        }
    )
    with pytest.raises(InputError, match="different runs"):
        correlated_t_test(read_task_scores(table, direction="higher"), "A", "B", folds=2)


# ---------------------------------------------------------------------------------------------------------
# Signed-rank test: equal to baycomp within the Monte Carlo error


@pytest.mark.parametrize(
    ("pair", "theirs"), [pytest.param(*item, id="-".join(item[0])) for item in BAYCOMP_SIGNED_RANK.items()]
)
def test_signed_rank_equals_baycomp(uci_runs, pair, theirs):
    result = signed_rank_test(uci_runs, *pair, rope=1, samples=SAMPLES, seed=1)
    theirs = np.array(theirs)
    their_errors = np.sqrt(theirs * (1 - theirs) / SAMPLES)
    assert within(result.probabilities, result.standard_errors, theirs, their_errors)
    # baycomp's sqrt(p(1 - p)/S), p kept 1/(S + 1) away from 0 and 1: no error of 0 from S samples
    p = np.clip(result.probabilities, 1 / (SAMPLES + 1), SAMPLES / (SAMPLES + 1))
    np.testing.assert_allclose(result.standard_errors, np.sqrt(p * (1 - p) / SAMPLES))
    assert (result.standard_errors > 0).all()


@pytest.mark.parametrize(
    ("key", "theirs"), [pytest.param(*item, id=str(item[0])) for item in BAYCOMP_THETA_MEANS.items()]
)
def test_exact_posterior_mean_equals_baycomp_samples(uci_runs, key, theirs):
    # the conventions: prior s at 0, all pairs (i, j) with i = j, a pair mean on ±r counted ½ each side
    if isinstance(key[0], str):
        a, b, prior = key
        result = signed_rank_test(uci_runs, a, b, rope=1, prior_strength=prior, samples=60, seed=0)
    else:
        z, prior = key  # baycomp's y - x: the advantage of B
        result = signed_rank_test(
            scores_of(np.zeros((len(z), 1)), np.array(z)[:, None]),
            "A",
            "B",
            rope=1,
            prior_strength=prior,
            samples=60,
        )
    mean, error = theirs
    assert within(result.posterior_mean, 0, mean, error)


def test_sampled_mean_is_the_exact_mean(uci_runs):
    result = signed_rank_test(uci_runs, "aode", "j48", rope=1, samples=20_000, seed=3)
    errors = result.posterior.std(axis=0) / np.sqrt(result.samples)
    assert within(result.posterior.mean(axis=0), errors, result.posterior_mean, 0)
    np.testing.assert_allclose(result.posterior.sum(axis=1), 1, atol=1e-12)


def test_one_task_exact_probability():
    # one task with d far below -2r: θ_b = 1 - w0², θ_rope = w0², w0 ~ Beta(s, 1), so P(B better) =
    # P(w0 < 1/√2) = 2^(-s/2); baycomp 1.0.3 gives 0.84014 (s = 0.5) and 0.50064 (s = 2), see
    # benchmarks/BAYCOMP_FACTS.md
    for prior in (0.5, 2.0):
        result = signed_rank_test(scores_of([[0.0]], [[5.0]]), "A", "B", rope=1, prior_strength=prior, seed=2)
        assert abs(result.p_b_better - 2 ** (-prior / 2)) <= 4 * result.standard_errors[2]
        assert result.p_a_better == 0
        assert result.decision == "undecided"
    assert "One task is too little" in result.verdict and "correlated_t_test" in result.verdict


def test_ties_are_shared():
    # A and B equal on every task, no ROPE: θ_a = θ_b = ½ in every sample; baycomp's arg-max of rounded
    # sums gives (0.768, 0.232), we share exact ties
    result = signed_rank_test(scores_of(np.ones((3, 2)), np.ones((3, 2))), "A", "B", seed=0, samples=1000)
    assert (result.p_a_better, result.p_rope, result.p_b_better) == (0.5, 0.0, 0.5)
    assert "cannot decide" in result.verdict


def test_signed_rank_words_and_outputs(uci_runs):
    result = signed_rank_test(uci_runs, "hnb", "nbc", rope=1, samples=20_000, seed=4)
    assert isinstance(result, SignedRankResult)
    assert result.decision == "a_better"
    assert result.verdict.startswith("hnb is practically better than nbc with probability")
    text = str(result)
    assert "hnb practically better" in text and "Monte Carlo SE" in text and result.verdict[:40] in text
    assert repr(result).startswith("SignedRankResult(a='hnb', b='nbc', tasks=54")
    json.dumps(result.to_dict(), allow_nan=False)
    assert result.to_dict()["decision"] == "a_better"
    frame = result.to_frame()
    assert list(frame.columns) == ["task", "mean_a", "mean_b", "difference"] and len(frame) == 54
    html = result._repr_html_()
    assert TASKS_QUESTION in html and "<svg" in html and "§4" in html
    equivalent = signed_rank_test(uci_runs, "j48", "j48gr", rope=1, samples=2000, seed=4)
    assert "practically equivalent" in equivalent.verdict and equivalent.decision == "equivalent"


def test_borderline_says_more_samples_would_settle_it(uci_runs):
    result = signed_rank_test(uci_runs, "hnb", "j48gr", rope=1, samples=SAMPLES, seed=1)
    assert abs(result.p_a_better - 0.95) < 4 * result.standard_errors[0]
    assert "more samples would settle" in result.verdict


def test_rope_zero(uci_runs):
    result = signed_rank_test(uci_runs, "nbc", "aode", samples=5000, seed=0)
    assert result.p_rope == 0 and result.decision == "b_better"
    assert "aode is better than nbc" in result.verdict


# ---------------------------------------------------------------------------------------------------------
# Properties


def test_swapping_mirrors(uci_runs):
    t = correlated_t_test(uci_runs, "nbc", "j48", rope=1, folds=10)
    swapped = correlated_t_test(uci_runs, "j48", "nbc", rope=1, folds=10)
    np.testing.assert_allclose(t.p_a_better, swapped.p_b_better, rtol=0, atol=1e-14)
    np.testing.assert_allclose(t.p_rope, swapped.p_rope, rtol=0, atol=1e-14)
    r = signed_rank_test(uci_runs, "nbc", "j48", rope=1, samples=SAMPLES, seed=5)
    mirror = signed_rank_test(uci_runs, "j48", "nbc", rope=1, samples=SAMPLES, seed=6)
    np.testing.assert_allclose(r.posterior_mean, mirror.posterior_mean[::-1], rtol=1e-12)
    assert within(
        r.probabilities, r.standard_errors, mirror.probabilities[::-1], mirror.standard_errors[::-1]
    )


def test_task_order_does_not_matter(uci_frame, uci_runs):
    order = {task: k for k, task in enumerate(np.random.default_rng(0).permutation(uci_runs.tasks))}
    shuffled = read_task_scores(
        uci_frame.sort_values("dataset_index", key=lambda c: c.astype(str).map(order), kind="stable"), **UCI
    )
    assert shuffled.tasks != uci_runs.tasks
    r = signed_rank_test(uci_runs, "aode", "j48", rope=1, samples=5000, seed=7)
    s = signed_rank_test(shuffled, "aode", "j48", rope=1, samples=5000, seed=7)
    assert (r.p_a_better, r.p_rope, r.p_b_better) == (s.p_a_better, s.p_rope, s.p_b_better)
    t = correlated_t_test(uci_runs, "aode", "j48", rope=1, folds=10).to_frame().set_index("task")
    u = correlated_t_test(shuffled, "aode", "j48", rope=1, folds=10).to_frame().set_index("task")
    pd.testing.assert_frame_equal(t, u.loc[t.index])


def test_direction_lower_is_the_mirror(uci_frame, uci_runs):
    negated = uci_frame.assign(accuracy_percent=-uci_frame.accuracy_percent)
    lower = read_task_scores(negated, **{**UCI, "direction": "lower"})
    r = signed_rank_test(uci_runs, "nbc", "hnb", rope=1, samples=5000, seed=8)
    s = signed_rank_test(lower, "nbc", "hnb", rope=1, samples=5000, seed=8)
    assert s.direction == "lower"
    np.testing.assert_array_equal(r.differences, s.differences)
    assert (r.p_a_better, r.p_rope, r.p_b_better) == (s.p_a_better, s.p_rope, s.p_b_better)
    assert "d = hnb - nbc (lower is better)" in str(s)
    t = correlated_t_test(uci_runs, "nbc", "hnb", rope=1, folds=10)
    u = correlated_t_test(lower, "nbc", "hnb", rope=1, folds=10)
    np.testing.assert_array_equal(t.p_a_better, u.p_a_better)
    np.testing.assert_array_equal(t.p_b_better, u.p_b_better)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.floats(-5, 5, allow_nan=False), min_size=1, max_size=8),
    st.floats(0, 3),
    st.floats(0, 3),
    st.integers(0, 2**32 - 1),
)
def test_wider_rope_never_lowers_p_rope(differences, rope, widening, seed):
    scores = scores_of(np.array(differences)[:, None] + 0.5 * np.arange(3), np.zeros((len(differences), 3)))
    narrow = signed_rank_test(scores, "A", "B", rope=rope, samples=300, seed=seed)
    wide = signed_rank_test(scores, "A", "B", rope=rope + widening, samples=300, seed=seed)
    assert wide.p_rope >= narrow.p_rope
    assert wide.posterior_mean[1] >= narrow.posterior_mean[1] - 1e-12
    t_narrow = correlated_t_test(scores, "A", "B", rope=rope, folds=3)
    t_wide = correlated_t_test(scores, "A", "B", rope=rope + widening, folds=3)
    assert np.all(t_wide.p_rope >= t_narrow.p_rope - 1e-12)


# ---------------------------------------------------------------------------------------------------------
# Plot


def test_plot_simplex(uci_runs):
    result = signed_rank_test(uci_runs, "nbc", "aode", rope=1, samples=3000, seed=1)
    ax = plot_simplex(result)
    labels = [text.get_text() for text in ax.texts]
    assert labels[0].startswith("nbc better") and labels[2].startswith("aode better")
    assert labels[1].startswith("practically equivalent")
    assert f"P = {result.p_b_better:.3f}" in labels[2]
    assert len(ax.lines) == 3  # the three region boundaries, centre to the middle of each side
    with pytest.raises(InputError, match="SignedRankResult"):
        plot_simplex(correlated_t_test(uci_runs, "nbc", "aode", task="0", folds=10))


# ---------------------------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"a": "svm"}, "a: expected one of the methods"),
        ({"b": "nbc"}, "b: expected a method other than a"),
        ({"rope": -1}, "rope: expected a half-width >= 0"),
        ({"rope": float("nan")}, "rope: expected a finite number"),
        ({"threshold": 0.3}, r"threshold: expected a probability in \[0.5, 1\)"),
        ({"threshold": 1}, r"threshold: expected a probability in \[0.5, 1\)"),
    ],
)
def test_bad_arguments_of_both(uci_runs, arguments, message):
    call = {"a": "nbc", "b": "aode", **arguments}
    with pytest.raises(InputError, match=message):
        signed_rank_test(uci_runs, call.pop("a"), call.pop("b"), **call, samples=60)
    call = {"a": "nbc", "b": "aode", **arguments}
    with pytest.raises(InputError, match=message):
        correlated_t_test(uci_runs, call.pop("a"), call.pop("b"), **call, folds=10)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({}, "folds: expected the number of folds"),
        ({"folds": 1}, "folds: expected a whole number of folds >= 2"),
        ({"folds": True}, "folds: expected a number, got True"),
        ({"folds": 2.5}, "folds: expected a positive whole number"),
        ({"folds": 10, "task": "54"}, "task: expected one of the tasks"),
    ],
)
def test_bad_arguments_of_the_t_test(uci_runs, arguments, message):
    with pytest.raises(InputError, match=message):
        correlated_t_test(uci_runs, "nbc", "aode", **arguments)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"prior_strength": 0}, "prior_strength: expected a weight > 0"),
        ({"samples": 0}, "samples: expected a positive whole number"),
        ({"seed": -1}, "seed: expected a non-negative int"),
    ],
)
def test_bad_arguments_of_the_signed_rank_test(uci_runs, arguments, message):
    with pytest.raises(InputError, match=message):
        signed_rank_test(uci_runs, "nbc", "aode", **arguments)


def test_scores_must_be_task_scores():
    with pytest.raises(InputError, match="scores: expected TaskScores"):
        signed_rank_test({"nbc": [1]}, "nbc", "aode")
    with pytest.raises(InputError, match="scores: expected TaskScores"):
        correlated_t_test([1, 2], "nbc", "aode", folds=2)


def test_one_task_decides_nothing():
    one = signed_rank_test(scores_of(np.array([[0.9, 0.91]]), np.array([[0.5, 0.52]])), "A", "B", samples=500)
    assert one.verdict.startswith("One task is too little for a test across tasks, so nothing is decided")
