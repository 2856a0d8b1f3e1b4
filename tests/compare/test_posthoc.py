"""The Friedman test corrected for ties, and the post-hoc tests of scikit-posthocs: Conover-Friedman,
Siegel-Castellan and pairwise Wilcoxon signed-rank, with the corrections for multiple comparisons."""

import numpy as np
import pytest
from scipy import special, stats

from benchtrust import InputError
from benchtrust.compare import rank_test
from benchtrust.compare._pipelines._datasets import holm
from benchtrust.compare._tasks._posthoc import (
    P_ADJUSTS,
    adjust_p_values,
    conover_pairs,
    friedman_statistics,
    wilcoxon_pairs,
)

# scikit-posthocs 0.17.1 on the UCI data (the per-data-set means of nbc, aode, hnb, j48, j48gr; see
# benchmarks/AUTORANK_FACTS.md §6): the upper triangle of each p-value matrix, row by row
# (nbc-aode, nbc-hnb, nbc-j48, nbc-j48gr, aode-hnb, aode-j48, aode-j48gr, hnb-j48, hnb-j48gr, j48-j48gr).
# Keys: (test, p_adjust); p_adjust None in scikit-posthocs is "none" here.
SCIKIT_POSTHOCS = {
    ("conover", "none"): [
        2.4351941680438736e-05,
        0.0007660217860413079,
        0.1315402571398407,
        0.00809125800909168,
        0.36813418543558163,
        0.005543603941227982,
        0.10191826260353358,
        0.058733595542845185,
        0.45960697262043865,
        0.2475225241518567,
    ],
    ("conover", "holm"): [
        0.00024351941680438737,
        0.006894196074371771,
        0.5261610285593628,
        0.05663880606364176,
        0.74256757245557,
        0.04434883152982386,
        0.5095913130176679,
        0.3524015732570711,
        0.74256757245557,
        0.74256757245557,
    ],
    ("conover", "bonferroni"): [
        0.00024351941680438737,
        0.007660217860413079,
        1.0,
        0.08091258009091679,
        1.0,
        0.05543603941227982,
        1.0,
        0.5873359554284519,
        1.0,
        1.0,
    ],
    ("conover", "sidak"): [
        0.0002434927327693852,
        0.007633866205434448,
        0.7559398258388763,
        0.07802917481950945,
        0.9898550807066887,
        0.05407336650758873,
        0.6586824257224069,
        0.4540843031094551,
        0.9978762794601166,
        0.941798383653169,
    ],
    ("conover", "holm-sidak"): [
        0.0002434927327693852,
        0.006873109370909102,
        0.4311486845187573,
        0.05528235947220328,
        0.600745592384844,
        0.0434978228185288,
        0.41577609234336094,
        0.3045348869740258,
        0.600745592384844,
        0.5739304340549916,
    ],
    ("conover", "simes-hochberg"): [
        0.00024351941680438737,
        0.006894196074371771,
        0.45960697262043865,
        0.05663880606364176,
        0.45960697262043865,
        0.04434883152982386,
        0.45960697262043865,
        0.3524015732570711,
        0.45960697262043865,
        0.45960697262043865,
    ],
    ("conover", "fdr_bh"): [
        0.00024351941680438735,
        0.003830108930206539,
        0.1879146530569153,
        0.020228145022729196,
        0.40903798381731293,
        0.018478679804093276,
        0.1698637710058893,
        0.11746719108569037,
        0.45960697262043865,
        0.30940315518982087,
    ],
    ("conover", "fdr_by"): [
        0.0007132606410449138,
        0.011218267465815264,
        0.5503960532591633,
        0.05924759460823976,
        1.0,
        0.05412346652143351,
        0.4975255927755829,
        0.34405767357280975,
        1.0,
        0.9062320192285982,
    ],
    ("siegel", "none"): [
        4.5524457799667376e-05,
        0.001257628159514758,
        0.15266982433843915,
        0.011549775873470105,
        0.3942069504679323,
        0.00811311726556579,
        0.1206908005274458,
        0.07260387244280944,
        0.48400992293817324,
        0.2733216782922979,
    ],
    ("siegel", "holm"): [
        0.0004552445779966738,
        0.011318653435632821,
        0.6106792973537566,
        0.08084843111429074,
        0.8199650348768938,
        0.06490493812452632,
        0.603454002637229,
        0.43562323465685665,
        0.8199650348768938,
        0.8199650348768938,
    ],
    ("siegel", "fdr_bh"): [
        0.00045524457799667374,
        0.006288140797573789,
        0.21809974905491308,
        0.02887443968367526,
        0.438007722742147,
        0.027043724218552632,
        0.20115133421240966,
        0.14520774488561888,
        0.48400992293817324,
        0.3416520978653724,
    ],
    ("wilcoxon", "none"): [
        1.8236103776898787e-06,
        0.0006819204841572124,
        0.47749134567387597,
        0.40725510254223884,
        0.701603746908304,
        0.07575633099561717,
        0.1050091510418302,
        0.06991525934361287,
        0.08903204256400725,
        0.0008521198812916094,
    ],
    ("wilcoxon", "holm"): [
        1.8236103776898787e-05,
        0.006137284357414912,
        1.0,
        1.0,
        1.0,
        0.4894068154052901,
        0.4894068154052901,
        0.4894068154052901,
        0.4894068154052901,
        0.006816959050332875,
    ],
}
UPPER = np.triu_indices(5, 1)


@pytest.mark.parametrize(("posthoc", "p_adjust"), list(SCIKIT_POSTHOCS))
def test_uci_p_values_equal_scikit_posthocs(uci_runs, posthoc, p_adjust):
    result = rank_test(uci_runs, posthoc=posthoc, p_adjust=p_adjust)
    assert result.methods == ("nbc", "aode", "hnb", "j48", "j48gr")
    np.testing.assert_allclose(result.p_values[UPPER], SCIKIT_POSTHOCS[posthoc, p_adjust], rtol=0, atol=1e-10)
    np.testing.assert_array_equal(result.p_values, result.p_values.T)
    assert result.different[UPPER].tolist() == [p <= 0.05 for p in SCIKIT_POSTHOCS[posthoc, p_adjust]]


def test_default_adjustment_is_holm_and_holm_is_siegel_with_holm(uci_runs):
    for posthoc in ("conover", "siegel", "wilcoxon"):
        assert rank_test(uci_runs, posthoc=posthoc).p_adjust == "holm"
    demsar = rank_test(uci_runs, posthoc="holm")
    siegel = rank_test(uci_runs, posthoc="siegel", p_adjust="holm")
    np.testing.assert_array_equal(demsar.p_values, siegel.p_values)
    assert demsar.p_adjust == "holm" and rank_test(uci_runs).p_adjust is None


def test_against_a_control_adjusts_over_k_minus_1(uci_runs):
    result = rank_test(uci_runs, posthoc="conover", p_adjust="bonferroni", control="aode")
    raw = np.array(SCIKIT_POSTHOCS["conover", "none"])
    # aode against nbc, hnb, j48, j48gr: pairs 0, 4, 5, 6 of the upper triangle
    np.testing.assert_allclose(
        result.p_values[1, [0, 2, 3, 4]], np.minimum(1, 4 * raw[[0, 4, 5, 6]]), atol=1e-12
    )
    assert np.isnan(result.p_values[0, 2])  # a pair without the control is not tested
    assert list(result.to_frame().columns)[-3:] == ["t", "p_value", "different"]
    assert "t < 0: ranks better than the control aode" in str(result)


def test_text_says_how_the_p_values_are_computed(uci_runs):
    conover = str(rank_test(uci_runs, posthoc="conover", p_adjust="fdr_bh"))
    assert (
        "two-sided Student t p-values (df 212), adjusted by Benjamini-Hochberg FDR over 10 tests" in conover
    )
    words = " ".join(conover.split())
    assert (
        "By the Conover-Friedman test (Benjamini-Hochberg FDR) at \N{GREEK SMALL LETTER ALPHA} = 0.05:"
        in words
        and "nan" not in words
    )
    wilcoxon = str(rank_test(uci_runs, posthoc="wilcoxon", p_adjust="none"))
    assert (
        "zero differences dropped, no continuity correction), two-sided, not adjusted for the 10" in wilcoxon
    )
    data = rank_test(uci_runs, posthoc="wilcoxon").to_dict()
    assert data["posthoc"] == "wilcoxon" and data["p_adjust"] == "holm" and len(data["statistic"]) == 5


def test_choices_are_checked(uci_runs):
    with pytest.raises(InputError, match="p_adjust: the Nemenyi test has its own"):
        rank_test(uci_runs, p_adjust="holm")
    with pytest.raises(InputError, match="posthoc='siegel'"):
        rank_test(uci_runs, posthoc="holm", p_adjust="bonferroni")
    with pytest.raises(InputError, match="p_adjust: expected one of"):
        rank_test(uci_runs, posthoc="conover", p_adjust="hommel")
    assert rank_test(uci_runs, posthoc="bonferroni-dunn", p_adjust="bonferroni", control="nbc").p_adjust


# --- the Friedman statistic from first principles and as scipy computes it ----------------------------


def test_friedman_equals_scipy_on_random_tables_with_ties():
    rng = np.random.default_rng(32)
    compared = 0
    for _ in range(300):
        k, n = rng.integers(3, 8), rng.integers(2, 30)  # scipy takes at least 3 methods
        values = rng.integers(0, rng.integers(2, 6), size=(n, k)).astype(float)  # few levels: many ties
        chi2, p, f_f, p_f = friedman_statistics(values)
        if np.all(values == values[:, :1]):  # every data set ties every method: scipy's 0/0
            assert (chi2, p, f_f, p_f) == (0.0, 1.0, 0.0, 1.0)
            continue
        expected = stats.friedmanchisquare(*values.T)
        assert chi2 == pytest.approx(expected.statistic, rel=1e-10, abs=1e-12)
        assert p == pytest.approx(expected.pvalue, rel=1e-9, abs=1e-15)
        if np.isfinite(f_f):
            assert f_f == pytest.approx((n - 1) * chi2 / (n * (k - 1) - chi2), rel=1e-12)
            assert p_f == pytest.approx(stats.f.sf(f_f, k - 1, (k - 1) * (n - 1)), rel=1e-9, abs=1e-15)
        compared += 1
    assert compared > 250


def test_friedman_is_conovers_t1_and_t2():
    # Conover (1999, §5.8): T1 = (k - 1)(Σ S_j² - N C1)/(A - C1), T2 = (N - 1)(B - C1)/(A - B), with S_j
    # the rank sums, A = Σ r², B = Σ S_j²/N, C1 = N k (k + 1)²/4
    values = np.array([[31, 27, 24], [31, 28, 31], [45, 29, 46], [21, 18, 48], [42, 36, 46], [32, 17, 40]])
    n, k = values.shape
    r = stats.rankdata(values, axis=1)
    s, a, c1 = r.sum(axis=0), float((r**2).sum()), n * k * (k + 1) ** 2 / 4
    b = float((s**2).sum()) / n
    chi2, _, f_f, _ = friedman_statistics(values)
    assert chi2 == pytest.approx((k - 1) * (float((s**2).sum()) - n * c1) / (a - c1), rel=1e-12)
    assert f_f == pytest.approx((n - 1) * (b - c1) / (a - b), rel=1e-12)
    # Conover's multiple comparisons: (S_i - S_j) / sqrt(2(N A - Σ S²)/((N - 1)(k - 1))), t, (N-1)(k-1) df
    t, p = conover_pairs(values)
    scale = np.sqrt(2 * (n * a - float((s**2).sum())) / ((n - 1) * (k - 1)))
    assert t[0, 1] == pytest.approx((s[0] - s[1]) / scale, rel=1e-12)
    assert p[0, 1] == pytest.approx(2 * stats.t.sf(abs(t[0, 1]), (n - 1) * (k - 1)), rel=1e-12)


def test_wilcoxon_is_the_normal_approximation_with_tie_correction_beyond_50():
    rng = np.random.default_rng(6)
    x = np.round(rng.normal(size=(80, 2)), 1)  # ties and zeros among the differences
    statistic, p = wilcoxon_pairs(x)
    d = x[:, 0] - x[:, 1]
    d = d[d != 0]  # zero_method="wilcox"
    m = d.size
    r = stats.rankdata(np.abs(d))
    plus = r[d > 0].sum()
    _, counts = np.unique(np.abs(d), return_counts=True)
    var = m * (m + 1) * (2 * m + 1) / 24 - (counts**3 - counts).sum() / 48
    z = (plus - m * (m + 1) / 4) / np.sqrt(var)  # no continuity correction
    assert statistic[0, 1] == min(plus, r.sum() - plus)
    assert p[0, 1] == pytest.approx(2 * special.ndtr(-abs(z)), rel=1e-10)


def test_wilcoxon_pairs_equal_scipy_pair_by_pair():
    # scipy's method="auto" per pair: normal beyond 50 data sets (13 with ties or zeros), else exact or
    # exhaustive permutations; both regimes, with ties and zeros (6 to 13 tied data sets left to the next
    # test: scipy's permutations of them take up to seconds)
    rng = np.random.default_rng(11)
    for trial in range(40):
        n, k = int(rng.choice([3, 5, 14, 20, 45, 50, 51, 70])), int(rng.integers(2, 4))
        if trial % 3:
            values = np.round(rng.normal(size=(n, k)), int(rng.integers(0, 3)))
        else:
            values = rng.integers(0, 4, size=(n, k)).astype(float)
        statistic, p = wilcoxon_pairs(values)
        for a, b in zip(*np.triu_indices(k, 1), strict=True):
            expected = stats.wilcoxon(values[:, a], values[:, b], zero_method="wilcox", correction=False)
            assert p[a, b] == pytest.approx(expected.pvalue, rel=1e-10, abs=1e-15)
            assert statistic[a, b] == pytest.approx(expected.statistic)


def test_wilcoxon_exact_p_by_enumerating_the_signs():
    # the exact null distribution: each of the 2^m sign patterns of the (tied) ranks equally likely
    rng = np.random.default_rng(4)
    for m in (4, 9, 12, 13):
        values = rng.integers(0, 4, size=(m, 2)).astype(float)
        _, p = wilcoxon_pairs(values)
        d = values[:, 0] - values[:, 1]
        d = d[d != 0]
        ranks = stats.rankdata(np.abs(d))
        signs = (np.arange(2**d.size)[:, None] >> np.arange(d.size)) & 1
        plus = signs @ ranks
        observed = ranks[d > 0].sum()
        tail = min(np.mean(plus <= observed + 1e-9), np.mean(plus >= observed - 1e-9))
        assert p[0, 1] == pytest.approx(min(1.0, 2 * tail), rel=1e-12)


def test_conover_and_wilcoxon_when_every_data_set_agrees_or_ties():
    agree = np.tile([[3.0, 2.0, 1.0, 1.0]], (6, 1))  # every data set: m0 > m1 > m2 = m3
    t, p = conover_pairs(agree)
    assert np.isinf(t[0, 1]) and p[0, 1] == 0 and t[2, 3] == 0 and p[2, 3] == 1
    statistic, p = wilcoxon_pairs(agree)
    assert p[2, 3] == 1 and statistic[2, 3] == 0  # all differences zero: nothing to test
    assert wilcoxon_pairs(np.tile([[1.0, 1.0]], (20, 1)))[1][0, 1] == 1  # (scipy: NaN beyond 13)
    assert p[0, 1] == pytest.approx(2 / 2**6)  # six positive differences, exactly
    assert friedman_statistics(np.ones((4, 3))) == (0.0, 1.0, 0.0, 1.0)


# --- the corrections for multiple comparisons ---------------------------------------------------------


def test_adjustments_from_their_definitions():
    rng = np.random.default_rng(3)
    p = rng.uniform(0, 0.2, size=9) ** 2
    m, order = p.size, np.argsort(p)
    np.testing.assert_allclose(adjust_p_values(p, "holm"), holm(p)[0], rtol=1e-15)
    np.testing.assert_allclose(adjust_p_values(p, "bonferroni"), np.minimum(1, m * p))
    np.testing.assert_allclose(adjust_p_values(p, "sidak"), 1 - (1 - p) ** m, rtol=1e-12)
    np.testing.assert_array_equal(adjust_p_values(p, "none"), p)
    sorted_p = p[order]
    for method, step_up in (("simes-hochberg", False), ("fdr_bh", True), ("fdr_by", True)):
        adjusted = adjust_p_values(p, method)[order]
        for i in range(m):
            j = np.arange(i, m)
            factor = (m - j) if not step_up else m / (j + 1)
            if method == "fdr_by":
                factor = factor * (1 / np.arange(1, m + 1)).sum()
            assert adjusted[i] == pytest.approx(min(1, (factor * sorted_p[j]).min()), rel=1e-12)
    holm_sidak = adjust_p_values(p, "holm-sidak")[order]
    for i in range(m):
        j = np.arange(i + 1)
        assert holm_sidak[i] == pytest.approx((1 - (1 - sorted_p[j]) ** (m - j)).max(), rel=1e-12)
    assert set(P_ADJUSTS) == {
        "holm",
        "bonferroni",
        "sidak",
        "holm-sidak",
        "simes-hochberg",
        "fdr_bh",
        "fdr_by",
        "none",
    }
