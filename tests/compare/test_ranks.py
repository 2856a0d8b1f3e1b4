"""Ranks over data sets: Friedman, Iman-Davenport, Nemenyi, Holm, Bonferroni-Dunn (Demšar 2006, §3.2.2)."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special, stats

from benchtrust import InputError
from benchtrust.compare import bundled_results, read_task_scores
from benchtrust.compare._tasks._ranks import RankResult, range_quantile, range_tail, rank_test

UCI = {
    "direction": "higher",
    "method_column": "classifier",
    "task_column": "dataset_index",
    "run_column": "score_index",
    "score_column": "accuracy_percent",
}
METHODS = ("nbc", "aode", "hnb", "j48", "j48gr")

# Peer outputs on the UCI data (per-data-set mean accuracies of the 5 classifiers), recorded from autorank
# 1.3.0 and scikit-posthocs 0.17.1, see benchmarks/AUTORANK_FACTS.md. Matrices in the order of METHODS.
AUTORANK_MEANRANK = {
    "nbc": 3.685185185185185,
    "j48": 3.25,
    "j48gr": 2.9166666666666665,
    "hnb": 2.7037037037037037,
    "aode": 2.4444444444444446,
}
AUTORANK_MEANRANK_ASCENDING = {
    "nbc": 2.314814814814815,
    "j48": 2.75,
    "j48gr": 3.0833333333333335,
    "hnb": 3.2962962962962963,
    "aode": 3.5555555555555554,
}
AUTORANK_CD = {0.05: 0.83002816130540391, 0.10: 0.74834989333808222}
AUTORANK_PVALUE = 0.00034058004490788676  # scipy's tie-corrected Friedman test
SCIPY_FRIEDMAN = 20.840496657115558  # scipy.stats.friedmanchisquare, tie-corrected
AUTORANK_GROUPS = ({"nbc", "j48", "j48gr"}, {"j48", "j48gr", "hnb", "aode"})
NEMENYI = [  # posthoc_nemenyi_friedman
    [1.0, 0.0004375701648891006, 0.011024529666635252, 0.6080812620952485, 0.08499245065307992],
    [0.0004375701648891006, 1.0, 0.9141456728963047, 0.06212073186353029, 0.5285468754723026],
    [0.011024529666635252, 0.9141456728963047, 1.0, 0.37622641623250586, 0.9565728703969844],
    [0.6080812620952485, 0.06212073186353029, 0.37622641623250586, 1.0, 0.8089976940897425],
    [0.08499245065307992, 0.5285468754723026, 0.9565728703969844, 0.8089976940897425, 1.0],
]
HOLM = [  # posthoc_siegel_friedman(p_adjust="holm")
    [1.0, 0.0004552445779966738, 0.011318653435632821, 0.6106792973537566, 0.08084843111429074],
    [0.0004552445779966738, 1.0, 0.8199650348768938, 0.06490493812452632, 0.603454002637229],
    [0.011318653435632821, 0.8199650348768938, 1.0, 0.43562323465685665, 0.8199650348768938],
    [0.6106792973537566, 0.06490493812452632, 0.43562323465685665, 1.0, 0.8199650348768938],
    [0.08084843111429074, 0.603454002637229, 0.8199650348768938, 0.8199650348768938, 1.0],
]
HOLM_AODE = {  # posthoc_demsar(control="aode", p_adjust="holm")
    "nbc": 0.0001820978311986695,
    "hnb": 0.3942069504679323,
    "j48": 0.02433935179669737,
    "j48gr": 0.2413816010548916,
}
BONFERRONI_NBC = {  # posthoc_demsar(control="nbc", p_adjust="bonferroni")
    "aode": 0.0001820978311986695,
    "hnb": 0.005030512638059032,
    "j48": 0.6106792973537566,
    "j48gr": 0.04619910349388042,
}

# Demšar 2006, Table 5: critical values q_α for k = 2..10 classifiers.
NEMENYI_Q = {
    0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
}
BONFERRONI_DUNN_Q = {  # k = 9 left out: we could not confirm its printed value
    0.05: {2: 1.960, 3: 2.241, 4: 2.394, 5: 2.498, 6: 2.576, 7: 2.638, 8: 2.690, 10: 2.773},
    0.10: {2: 1.645, 3: 1.960, 4: 2.128, 5: 2.241, 6: 2.326, 7: 2.394, 8: 2.450, 10: 2.539},
}
# Demšar 2006, Table 6: the ranks (in parentheses) of four variants of C4.5 on 14 data sets, and §3.2.4.
C45 = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
C45_RANKS = [
    [4, 3, 2, 1],
    [1, 2, 3, 4],
    [4, 1, 2, 3],
    [4, 1, 3, 2],
    [4, 2, 3, 1],
    [1, 2.5, 4, 2.5],
    [3, 2, 4, 1],
    [2.5, 2.5, 4, 1],
    [4, 3, 2, 1],
    [2.5, 2.5, 2.5, 2.5],
    [4, 2.5, 1, 2.5],
    [3, 2, 4, 1],
    [4, 1, 2, 3],
    [3, 1, 4, 2],
]


def task_scores(values, *, direction="higher", methods=None):
    """TaskScores from an array of shape (methods, tasks) or (methods, tasks, runs)."""
    values = np.asarray(values, dtype=float)
    if values.ndim == 2:
        values = values[:, :, None]
    k, n, runs = values.shape
    methods = methods or [f"m{i}" for i in range(k)]
    i, j, r = np.meshgrid(np.arange(k), np.arange(n), np.arange(runs), indexing="ij")
    keep = ~np.isnan(values)
    table = pd.DataFrame(
        {
            "method": np.asarray(methods, dtype=object)[i[keep]],
            "task": [f"t{x}" for x in j[keep]],
            "run": r[keep],
            "score": values[keep],
        }
    )
    return read_task_scores(table, direction=direction)


@pytest.fixture(scope="module")
def nemenyi(uci_runs):
    return rank_test(uci_runs)


@pytest.fixture(scope="module")
def c45():
    return task_scores(-np.array(C45_RANKS).T, methods=list(C45))  # rank 1 = the highest score


def off_diagonal(matrix):
    matrix = np.asarray(matrix, dtype=float)
    return matrix[~np.eye(len(matrix), dtype=bool)]


# --- the peers, on the UCI data --------------------------------------------------------------------------


def test_uci_average_ranks_equal_autorank(uci_runs, nemenyi):
    assert nemenyi.methods == METHODS
    np.testing.assert_allclose(nemenyi.average_ranks, [AUTORANK_MEANRANK[m] for m in METHODS], atol=1e-12)


def test_uci_lower_is_better_equals_autorank_ascending():
    # autorank's order="ascending" gives rank 1 to the smallest value: direction="lower" here
    lower = rank_test(read_task_scores(bundled_results("uci"), **{**UCI, "direction": "lower"}))
    expected = [AUTORANK_MEANRANK_ASCENDING[m] for m in METHODS]
    np.testing.assert_allclose(lower.average_ranks, expected, atol=1e-12)


def test_uci_nemenyi_p_values_equal_scikit_posthocs(nemenyi):
    np.testing.assert_allclose(off_diagonal(nemenyi.p_values), off_diagonal(NEMENYI), rtol=0, atol=1e-10)
    assert np.isnan(np.diag(nemenyi.p_values)).all()


def test_uci_holm_all_pairs_equal_scikit_posthocs(uci_runs):
    holm = rank_test(uci_runs, posthoc="holm")
    np.testing.assert_allclose(off_diagonal(holm.p_values), off_diagonal(HOLM), rtol=0, atol=1e-10)
    assert np.isnan(holm.critical_difference)


def test_uci_holm_against_control_equals_scikit_posthocs(uci_runs):
    result = rank_test(uci_runs, posthoc="holm", control="aode")
    c = METHODS.index("aode")
    for method, p in HOLM_AODE.items():
        assert result.p_values[c, METHODS.index(method)] == pytest.approx(p, abs=1e-10)
    others = [i for i in range(5) if i != c]
    assert np.isnan(result.p_values[np.ix_(others, others)]).all()  # only pairs with the control
    assert result.groups == (("aode", "hnb", "j48gr"),)


def test_uci_bonferroni_dunn_equals_scikit_posthocs(uci_runs):
    result = rank_test(uci_runs, posthoc="bonferroni-dunn", control="nbc")
    c = METHODS.index("nbc")
    for method, p in BONFERRONI_NBC.items():
        assert result.p_values[c, METHODS.index(method)] == pytest.approx(p, abs=1e-10)
    # its CD, q_α SE with q_α = z at 1 - α/(2(k - 1)), separates the same pairs as its p-values
    gap = np.abs(result.average_ranks - result.average_ranks[c])
    others = np.arange(5) != c
    np.testing.assert_array_equal(result.different[c, others], gap[others] >= result.critical_difference)


def test_uci_friedman_is_scipys_and_autoranks(nemenyi):
    # the tie-corrected χ²_F of scipy, R and autorank; Demšar's formula (no correction) kept as a named field
    k, n = nemenyi.ranks.shape
    assert nemenyi.friedman == pytest.approx(SCIPY_FRIEDMAN, abs=1e-10)
    assert nemenyi.friedman_p_value == pytest.approx(AUTORANK_PVALUE, abs=1e-12)
    r = nemenyi.average_ranks
    uncorrected = 12 * n / (k * (k + 1)) * (np.sum(r**2) - k * (k + 1) ** 2 / 4)
    assert nemenyi.friedman_uncorrected == pytest.approx(uncorrected, rel=1e-12)
    assert nemenyi.friedman_uncorrected == pytest.approx(20.2037037037037, abs=1e-10)
    f_f = (n - 1) * SCIPY_FRIEDMAN / (n * (k - 1) - SCIPY_FRIEDMAN)  # Iman-Davenport from the corrected χ²_F
    assert nemenyi.iman_davenport == pytest.approx(f_f, rel=1e-12)
    p_f = stats.f.sf(f_f, k - 1, (k - 1) * (n - 1))
    assert nemenyi.iman_davenport_p_value == pytest.approx(p_f, rel=1e-10)
    assert nemenyi.rejected and nemenyi.tied_tasks == 15
    data = nemenyi.to_dict()
    assert data["friedman"] == pytest.approx(SCIPY_FRIEDMAN) and "friedman_uncorrected" in data
    assert "corrected for ties (20.2037 without)" in str(nemenyi)


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_uci_cd_exact_and_close_to_autorank(uci_runs, alpha):
    result = rank_test(uci_runs, alpha=alpha)
    se = np.sqrt(5 * 6 / (6 * 54))
    exact = stats.studentized_range.ppf(1 - alpha, 5, np.inf) / np.sqrt(2) * se
    assert result.critical_difference == pytest.approx(exact, abs=1e-10)
    # autorank's q_α comes from an approximation (statsmodels' qsturng), good to about 1e-5
    assert result.critical_difference == pytest.approx(AUTORANK_CD[alpha], abs=1e-4)


def test_uci_groups_equal_autoranks(nemenyi):
    assert {frozenset(g) for g in nemenyi.groups} == {frozenset(g) for g in AUTORANK_GROUPS}
    assert nemenyi.groups[0][0] == "aode"  # best first


# --- Demšar's published numbers -------------------------------------------------------------------------


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_demsar_table_5_nemenyi(alpha):
    for k, q in enumerate(NEMENYI_Q[alpha], start=2):
        assert range_quantile(alpha, k) / np.sqrt(2) == pytest.approx(q, abs=1.0001e-3)


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_demsar_table_5_bonferroni_dunn(alpha):
    for k, q in BONFERRONI_DUNN_Q[alpha].items():
        values = np.vstack([np.arange(k, dtype=float), np.arange(k, dtype=float)[::-1]]).T
        result = rank_test(task_scores(values), alpha=alpha, posthoc="bonferroni-dunn", control="m0")
        assert result.q_alpha == pytest.approx(q, abs=1.0001e-3)


def test_demsar_table_6_friedman(c45):
    result = rank_test(c45)
    np.testing.assert_allclose(result.average_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4)
    # Demšar's numbers are without the correction for ties (three data sets have ties)
    assert result.friedman_uncorrected == pytest.approx(9.28, abs=5e-3)
    uncorrected_f = 13 * result.friedman_uncorrected / (14 * 3 - result.friedman_uncorrected)
    assert uncorrected_f == pytest.approx(3.69, abs=5e-3)
    assert result.friedman == pytest.approx(stats.friedmanchisquare(*np.array(C45_RANKS).T)[0], rel=1e-12)
    assert result.friedman > result.friedman_uncorrected
    assert result.degrees_of_freedom == (3, 39)
    assert stats.f.isf(0.05, 3, 39) == pytest.approx(2.85, abs=5e-3)  # F_F exceeds it: rejected
    assert result.rejected


def test_demsar_nemenyi_example(c45):
    at_05, at_10 = rank_test(c45, alpha=0.05), rank_test(c45, alpha=0.10)
    assert at_05.critical_difference == pytest.approx(1.25, abs=5e-3)
    assert at_10.critical_difference == pytest.approx(1.12, abs=5e-3)
    assert not at_05.different.any()  # at 0.05 no pair differs
    pairs = {frozenset((C45[i], C45[j])) for i, j in zip(*np.nonzero(np.triu(at_10.different)), strict=True)}
    assert pairs == {frozenset(("C4.5", "C4.5+m")), frozenset(("C4.5", "C4.5+m+cf"))}


def test_demsar_control_example(c45):
    holm = rank_test(c45, posthoc="holm", control="C4.5")
    raw = 2 * stats.norm.sf(np.abs(holm.z[0, 1:]))
    np.testing.assert_allclose(raw[[2, 0]], [0.016, 0.019], atol=1e-3)  # C4.5+m+cf, C4.5+m
    np.testing.assert_array_equal(holm.different[0, 1:], [True, False, True])
    dunn_05 = rank_test(c45, posthoc="bonferroni-dunn", control="C4.5")
    dunn_10 = rank_test(c45, alpha=0.10, posthoc="bonferroni-dunn", control="C4.5")
    np.testing.assert_array_equal(dunn_05.different[0, 1:], [False, False, True])
    np.testing.assert_array_equal(dunn_10.different[0, 1:], [True, False, True])


# --- the studentized range ----------------------------------------------------------------------------


@pytest.mark.parametrize("k", [2, 3, 5, 10, 20])
def test_range_distribution_equals_scipy(k):
    w = np.linspace(0.05, 7.0, 25)
    tail, density = range_tail(w, k)
    np.testing.assert_allclose(tail, stats.studentized_range.sf(w, k, np.inf), rtol=0, atol=1e-12)
    np.testing.assert_allclose(density, stats.studentized_range.pdf(w, k, np.inf), rtol=0, atol=1e-10)
    for alpha in (0.01, 0.05, 0.1, 0.5):
        assert range_quantile(alpha, k) == pytest.approx(
            stats.studentized_range.ppf(1 - alpha, k, np.inf), abs=1e-9
        )


def test_range_of_two_is_a_normal_difference():
    w = np.array([0.5, 2.0, 6.0, 8.0])  # small p-values keep their relative accuracy (p = 1.5e-8 at w = 8)
    np.testing.assert_allclose(range_tail(w, 2)[0], 2 * special.ndtr(-w / np.sqrt(2)), rtol=1e-9)
    assert range_quantile(1e-6, 2) == pytest.approx(-np.sqrt(2) * special.ndtri(0.5e-6), rel=1e-12)


# --- properties -----------------------------------------------------------------------------------------

small_tables = st.integers(2, 5).flatmap(
    lambda k: st.integers(2, 8).flatmap(
        lambda n: st.lists(st.integers(0, 3), min_size=k * n, max_size=k * n).map(
            lambda v: np.array(v, dtype=float).reshape(k, n)
        )
    )
)


def same_result(a: RankResult, b: RankResult, order=None):
    """`b` is `a` with its methods in `order` (indices into a's methods)."""
    order = np.arange(len(a.methods)) if order is None else np.asarray(order)
    np.testing.assert_allclose(b.average_ranks, a.average_ranks[order], atol=1e-12)
    for field in ("friedman", "friedman_p_value", "iman_davenport", "iman_davenport_p_value"):
        np.testing.assert_allclose(getattr(b, field), getattr(a, field), rtol=1e-12)
    np.testing.assert_allclose(b.p_values, a.p_values[np.ix_(order, order)], atol=1e-12)
    np.testing.assert_array_equal(b.different, a.different[np.ix_(order, order)])
    assert {frozenset(g) for g in b.groups} == {frozenset(g) for g in a.groups}


@settings(max_examples=20, deadline=None)
@given(
    small_tables,
    st.randoms(use_true_random=False),
    st.sampled_from(["nemenyi", "holm", "conover", "wilcoxon"]),
)
def test_invariant_to_task_and_method_order(values, random, posthoc):
    k, n = values.shape
    methods = [f"m{i}" for i in range(k)]
    base = rank_test(task_scores(values, methods=methods), posthoc=posthoc)
    tasks = random.sample(range(n), n)
    order = random.sample(range(k), k)
    shuffled = rank_test(
        task_scores(values[order][:, tasks], methods=[methods[i] for i in order]), posthoc=posthoc
    )
    same_result(base, shuffled, order)


@settings(max_examples=20, deadline=None)
@given(
    small_tables,
    st.sampled_from([("nemenyi", None), ("holm", None), ("holm", "m0"), ("bonferroni-dunn", "m1")]),
)
def test_direction_flip_of_negated_scores_is_the_same(values, test):
    posthoc, control = test
    higher = rank_test(task_scores(values), posthoc=posthoc, control=control)
    lower = rank_test(task_scores(-values, direction="lower"), posthoc=posthoc, control=control)
    same_result(higher, lower)
    assert higher.groups == lower.groups


@settings(max_examples=25, deadline=None)
@given(small_tables, st.sampled_from(["nemenyi", "holm", "conover", "siegel"]))  # tests on mean ranks
def test_p_values_groups_and_cd_agree(values, posthoc):
    result = rank_test(task_scores(values), posthoc=posthoc)
    k = len(result.methods)
    p = result.p_values
    assert np.allclose(p, p.T, equal_nan=True)
    assert ((off_diagonal(p) >= 0) & (off_diagonal(p) <= 1)).all()
    np.testing.assert_allclose(result.ranks.sum(axis=0), k * (k + 1) / 2)  # ties share their ranks
    if posthoc == "nemenyi":
        gap = np.abs(result.average_ranks[:, None] - result.average_ranks[None, :])
        np.testing.assert_array_equal(
            off_diagonal(result.different), off_diagonal(gap >= result.critical_difference - 1e-12)
        )
    members = [[result.methods.index(m) for m in g] for g in result.groups]
    for group in members:
        assert not result.different[np.ix_(group, group)].any()  # no two in a group differ
    for i in range(k):  # every pair not different is in some group
        for j in range(i + 1, k):
            if not result.different[i, j]:
                assert any(i in g and j in g for g in members)


# --- edge cases -----------------------------------------------------------------------------------------


def test_ties_share_the_average_rank():
    result = rank_test(task_scores([[3, 5, 2], [3, 5, 2], [1, 1, 1]]))  # m0 = m1 > m2 everywhere
    np.testing.assert_array_equal(result.average_ranks, [1.5, 1.5, 3.0])
    assert result.tied_tasks == 3
    assert "ties on 3 data sets" in str(result)


def test_all_ties():
    result = rank_test(task_scores(np.ones((3, 6))))
    assert result.friedman == 0 and result.friedman_p_value == 1
    assert result.iman_davenport == 0 and result.iman_davenport_p_value == 1
    assert not result.rejected and result.groups == (("m0", "m1", "m2"),)
    assert "tie on every one of the 6 data sets" in result.verdict


def test_perfect_agreement_gives_infinite_f():
    result = rank_test(task_scores(np.tile([[3.0], [2.0], [1.0]], (1, 5))))
    assert result.friedman == pytest.approx(5 * 2)  # N(k - 1), its largest value
    assert np.isinf(result.iman_davenport) and result.iman_davenport_p_value == 0
    assert result.to_dict()["iman_davenport"] is None
    json.dumps(result.to_dict(), allow_nan=False)


def test_one_data_set_says_so():
    result = rank_test(task_scores([[0.9], [0.8], [0.7]]))
    assert not result.enough_data and not result.rejected
    assert np.isnan(result.friedman) and np.isnan(result.critical_difference)
    assert result.groups == ()
    assert result.verdict.startswith("With one data set there is nothing to test")
    assert "m0 (1)" in result.verdict
    json.dumps(result.to_dict(), allow_nan=False)
    assert "nothing to test" in str(result)
    assert "<svg" not in result._repr_html_()


def test_one_method_says_so():
    result = rank_test(task_scores([[0.9, 0.8, 0.7]]))
    assert result.verdict == "One method, m0: nothing to rank it against."


def test_two_methods():
    values = np.array([[1, 2, 3, 4, 5, 6, 7, 8.0], [0, 0, 0, 0, 0, 0, 9, 9.0]])
    result = rank_test(task_scores(values))
    assert result.q_alpha == pytest.approx(-special.ndtri(0.025))  # Demšar's q_0.05 = 1.960 for k = 2
    assert "Wilcoxon signed-rank test" in result.verdict
    assert "With only 8 data sets the tests have little power" in result.verdict


def test_not_rejected_says_post_hoc_is_not_to_be_read():
    result = rank_test(task_scores([[1, 2, 3, 1, 2, 3], [2, 3, 1, 2, 3, 1], [3, 1, 2, 3, 1, 2]]))
    assert not result.rejected
    assert "does not reject" in result.verdict and "not to be read" in result.verdict


def test_missing_runs_use_the_mean_of_the_runs_there():
    values = np.array([[[1.0, 3.0], [5.0, 5.0]], [[2.5, np.nan], [4.0, 6.0]]])
    result = rank_test(task_scores(values))
    np.testing.assert_array_equal(result.scores, [[2.0, 5.0], [2.5, 5.0]])
    np.testing.assert_array_equal(result.runs, [[2, 2], [1, 2]])
    np.testing.assert_array_equal(result.ranks, [[2.0, 1.5], [1.0, 1.5]])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"alpha": 1.5}, "alpha: expected a value strictly between 0 and 1"),
        ({"posthoc": "tukey"}, "posthoc: expected one of 'nemenyi', 'holm', 'bonferroni-dunn'"),
        ({"control": "svm", "posthoc": "holm"}, "control: expected one of the methods"),
        ({"control": "aode"}, "posthoc: the Nemenyi test compares all pairs"),
        ({"posthoc": "bonferroni-dunn"}, "control: the Bonferroni-Dunn test compares every method"),
    ],
)
def test_bad_arguments(uci_runs, arguments, message):
    with pytest.raises(InputError, match=message):
        rank_test(uci_runs, **arguments)


def test_not_task_scores():
    with pytest.raises(InputError, match="scores: expected TaskScores"):
        rank_test({"a": [1, 2]})


# --- what the result shows ---------------------------------------------------------------------------


def test_text_table_and_verdict(nemenyi):
    text = str(nemenyi)
    assert "average rank" in text and "adjusted p-values" in text
    assert "Iman-Davenport F_F = (N - 1)χ²_F/(N(k - 1) - χ²_F) = 5.6597 (df 4, 212)" in text
    assert all(len(line) <= 100 for line in text.splitlines())
    assert nemenyi.verdict.startswith("With 54 data sets and 5 methods, the Friedman test")
    assert "aode ranks better than nbc" in nemenyi.verdict and "hnb ranks better than nbc" in nemenyi.verdict
    assert repr(nemenyi).startswith("RankResult(methods=5, tasks=54, direction='higher', posthoc='nemenyi'")


def test_frames_dict_and_html(uci_runs, nemenyi):
    frame = nemenyi.to_frame()
    assert list(frame.columns) == ["method", "average_rank", "mean_score"]
    assert list(frame.method) == ["aode", "hnb", "j48gr", "j48", "nbc"]
    pairs = nemenyi.pairs_frame()
    assert len(pairs) == 10 and pairs.different.sum() == 2
    control = rank_test(uci_runs, posthoc="holm", control="aode")
    assert list(control.to_frame().columns)[-3:] == ["z", "p_value", "different"]
    assert len(control.pairs_frame()) == 4
    data = nemenyi.to_dict()
    assert json.loads(json.dumps(data, allow_nan=False)) == data
    assert data["groups"] == [list(g) for g in nemenyi.groups] and data["rejected"] is True
    html = nemenyi._repr_html_()
    assert "<svg" in html and "compare rank" in html and "Nemenyi test" in html
