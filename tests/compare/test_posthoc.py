"""The Friedman test corrected for ties, and the post-hoc tests of scikit-posthocs: Conover-Friedman,
Siegel-Castellan and pairwise Wilcoxon signed-rank, with the corrections for multiple comparisons."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy import special, stats

from benchtrust import InputError
from benchtrust.compare import rank_test, read_task_scores
from benchtrust.compare._pipelines._datasets import holm
from benchtrust.compare._tasks import _posthoc
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
# Keys: (test, p_adjust); p_adjust None in scikit-posthocs is "none" here. hommel, fdr_tsbh, fdr_tsbky and
# single-step: benchmarks/AUTORANK_FACTS.md §7 (the two-stage ones at statsmodels' default α = 0.05).
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
    ("conover", "hommel"): [
        0.00024351941680438737,
        0.006894196074371771,
        0.45960697262043865,
        0.05663880606364176,
        0.45960697262043865,
        0.03880522758859588,
        0.4076730504141343,
        0.2936679777142259,
        0.45960697262043865,
        0.45960697262043865,
    ],
    ("conover", "fdr_tsbh"): [
        0.0001461116500826324,
        0.0022980653581239235,
        0.11274879183414917,
        0.012136887013637517,
        0.24542279029038774,
        0.011087207882455966,
        0.10191826260353358,
        0.07048031465141422,
        0.2757641835722632,
        0.1856418931138925,
    ],
    ("conover", "fdr_tsbky"): [
        0.00015341723258676404,
        0.00241296862603012,
        0.11838623142585664,
        0.012743731364319394,
        0.25769392980490713,
        0.011641568276578765,
        0.10701417573371026,
        0.07400433038398493,
        0.28955239275087635,
        0.19492398776958714,
    ],
    ("conover", "single-step"): [
        0.0001544521175540492,
        0.005770125660379932,
        0.5533530654644536,
        0.05793685687824213,
        0.8962766528831883,
        0.040607545813471924,
        0.46991399147959856,
        0.316992047755149,
        0.9468995469473493,
        0.7744193493237483,
    ],
    ("siegel", "hommel"): [
        0.0004552445779966738,
        0.011318653435632821,
        0.48400992293817324,
        0.08084843111429074,
        0.48400992293817324,
        0.05679182085896053,
        0.4827632021097832,
        0.3630193622140472,
        0.48400992293817324,
        0.48400992293817324,
    ],
    ("siegel", "fdr_tsbh"): [
        0.00027314674679800423,
        0.0037728844785442734,
        0.13085984943294784,
        0.017324663810205157,
        0.26280463364528817,
        0.01622623453113158,
        0.1206908005274458,
        0.08712464693137133,
        0.29040595376290396,
        0.2049912587192234,
    ],
    ("siegel", "fdr_tsbky"): [
        0.0002868040841379045,
        0.003961528702471487,
        0.13740284190459523,
        0.018190897000715415,
        0.2759448653275526,
        0.01703754625768816,
        0.1267253405538181,
        0.0914808792779399,
        0.3049262514510492,
        0.2152408216551846,
    ],
    ("wilcoxon", "hommel"): [
        1.8236103776898787e-05,
        0.005455363873257699,
        0.701603746908304,
        0.701603746908304,
        0.701603746908304,
        0.3030253239824687,
        0.4200366041673208,
        0.27966103737445147,
        0.356128170256029,
        0.006816959050332875,
    ],
    ("wilcoxon", "fdr_tsbh"): [
        1.276527264382915e-05,
        0.001988279723013755,
        0.371382157746348,
        0.356348214724459,
        0.49112262283581276,
        0.10387071632467512,
        0.1050091510418302,
        0.10387071632467512,
        0.10387071632467512,
        0.001988279723013755,
    ],
    ("wilcoxon", "fdr_tsbky"): [
        1.3403536276020609e-05,
        0.002087693709164443,
        0.3899512656336654,
        0.37416562546068194,
        0.5156787539776034,
        0.10906425214090888,
        0.11025960859392171,
        0.10906425214090888,
        0.10906425214090888,
        0.002087693709164443,
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
        rank_test(uci_runs, posthoc="conover", p_adjust="fdr_gbs")
    with pytest.raises(InputError, match="'single-step' is the Conover-Friedman test's"):
        rank_test(uci_runs, posthoc="siegel", p_adjust="single-step")
    with pytest.raises(InputError, match="compares all pairs, not with a control"):
        rank_test(uci_runs, posthoc="conover", p_adjust="single-step", control="aode")
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
        "hommel",
        "fdr_tsbh",
        "fdr_tsbky",
        "none",
    }


# statsmodels 0.15.0 ``multipletests(p, alpha, method)[1]`` on p = default_rng(seed).uniform(0, hi, m) ** 2
# (seed 5 rounded to 0.1: ties and zeros), benchmarks/AUTORANK_FACTS.md §7. Keys: (seed, m, hi, alpha).
MULTIPLETESTS = {
    (1, 10, 0.3, 0.05): {
        "hommel": [
            0.08130431142302039,
            0.08130431142302039,
            0.016833415090974576,
            0.08130431142302039,
            0.05250898141000254,
            0.0679619748442663,
            0.08130431142302039,
            0.0679619748442663,
            0.08130431142302039,
            0.0006835542504698394,
        ],
        "fdr_tsbh": [
            0.01165062425901708,
            0.024391293426906116,
            0.002805569181829096,
            0.024391293426906116,
            0.008751496901667091,
            0.009677085249585458,
            0.023121840953826685,
            0.009677085249585458,
            0.01165062425901708,
            0.0002050662751409518,
        ],
        "fdr_tsbky": [
            0.012233155471967934,
            0.025610858098251425,
            0.0029458476409205507,
            0.025610858098251425,
            0.009189071746750446,
            0.010160939512064732,
            0.02427793300151802,
            0.010160939512064732,
            0.012233155471967934,
            0.0002153195888979994,
        ],
    },
    (3, 15, 0.2, 0.1): {
        "hommel": [
            0.0038146055128461813,
            0.0201885177723485,
            0.025681630743671895,
            0.025681630743671895,
            0.004607304670810952,
            0.025681630743671895,
            0.025681630743671895,
            0.012247930007727302,
            0.025681630743671895,
            0.006634295420852288,
            0.025681630743671895,
            0.025681630743671895,
            0.025681630743671895,
            0.025681630743671895,
            0.025681630743671895,
        ],
        "fdr_tsbh": [
            0.002584265622602387,
            0.006729505924116167,
            0.025681630743671895,
            0.017216628172092137,
            0.002584265622602387,
            0.014069920976895748,
            0.015299343083361215,
            0.0038274781274147815,
            0.02333162572955105,
            0.002584265622602387,
            0.014069920976895748,
            0.01602122498013362,
            0.014069920976895748,
            0.017216628172092137,
            0.02333162572955105,
        ],
        "fdr_tsbky": [
            0.0028426921848626256,
            0.007402456516527784,
            0.028249793818039087,
            0.018938290989301353,
            0.0028426921848626256,
            0.015476913074585324,
            0.016829277391697338,
            0.00421022594015626,
            0.025664788302506156,
            0.0028426921848626256,
            0.015476913074585324,
            0.017623347478146985,
            0.015476913074585324,
            0.018938290989301353,
            0.025664788302506156,
        ],
    },
    (5, 8, 1.0, 0.05): {
        "hommel": [0.7, 0.7, 0.6999999999999998, 0.5, 0.0, 0.5, 0.6000000000000001, 0.0],
        "fdr_tsbh": [
            0.5142857142857142,
            0.5249999999999999,
            0.3,
            0.15000000000000002,
            0.0,
            0.15000000000000002,
            0.24,
            0.0,
        ],
        "fdr_tsbky": [
            0.5399999999999999,
            0.5512499999999999,
            0.315,
            0.15750000000000003,
            0.0,
            0.15750000000000003,
            0.252,
            0.0,
        ],
    },
    (6, 21, 0.5, 0.2): {
        "hommel": [
            0.2437619021610878,
            0.23566978012481188,
            0.24094177539617975,
            0.24376190216108778,
            0.2437619021610878,
            0.2437619021610878,
            0.2437619021610878,
            0.23233671198917333,
            0.2437619021610878,
            0.06804992243428024,
            0.012710588847748356,
            0.2437619021610878,
            0.00041546061965241866,
            0.2437619021610878,
            0.2437619021610878,
            0.2437619021610878,
            0.010982103181039277,
            0.16136643436683049,
            0.2437619021610878,
            0.2437619021610878,
            0.2437619021610878,
        ],
        "fdr_tsbh": [
            0.013164584963418961,
            0.007791545968654739,
            0.007791545968654739,
            0.007791545968654739,
            0.023215419253436932,
            0.015399250020141881,
            0.01540960086542514,
            0.007791545968654739,
            0.01540960086542514,
            0.001890275623174451,
            0.00044598557360520547,
            0.019021719110224714,
            3.956767806213511e-05,
            0.023215419253436932,
            0.019021719110224714,
            0.019021719110224714,
            0.00044598557360520547,
            0.004303104916448813,
            0.019021719110224714,
            0.00935258810542603,
            0.015399250020141881,
        ],
        "fdr_tsbky": [
            0.04739250586830825,
            0.02804956548715706,
            0.02804956548715706,
            0.02804956548715706,
            0.08357550931237294,
            0.05543730007251078,
            0.0554745631155305,
            0.02804956548715706,
            0.0554745631155305,
            0.0068049922434280236,
            0.0016055480649787399,
            0.06847818879680898,
            0.00014244364102368638,
            0.08357550931237294,
            0.06847818879680898,
            0.06847818879680898,
            0.0016055480649787399,
            0.015491177699215725,
            0.06847818879680898,
            0.033669317179533705,
            0.05543730007251078,
        ],
    },
    (8, 3, 1.0, 0.05): {
        "hommel": [0.21382173933724663, 0.9747155653912988, 0.20315319713628227],
        "fdr_tsbh": [0.160366304502935, 0.9747155653912988, 0.160366304502935],
        "fdr_tsbky": [0.16838461972808175, 1.0, 0.16838461972808175],
    },
}


@pytest.mark.parametrize("case", list(MULTIPLETESTS))
def test_hommel_and_two_stage_equal_statsmodels(case):
    seed, m, hi, alpha = case
    p = np.random.default_rng(seed).uniform(0, hi, size=m) ** 2
    if seed == 5:
        p = np.round(p, 1)
    for method, expected in MULTIPLETESTS[case].items():
        np.testing.assert_allclose(adjust_p_values(p, method, alpha), expected, rtol=0, atol=1e-15)


def test_two_stage_at_the_edges_equals_statsmodels():
    # stage 1 rejects all (m̂0 = m), none (m̂0 = m), two of three (m̂0 = 1): statsmodels' outputs
    for p, bh, bky in (
        ([0.001, 0.002, 0.003], [0.003] * 3, [0.00315] * 3),
        ([0.5, 0.6, 0.9], [0.9] * 3, [0.945] * 3),
        ([0.01, 0.02, 0.9], [0.01, 0.01, 0.3], [0.0105, 0.0105, 0.315]),
    ):
        np.testing.assert_allclose(adjust_p_values(p, "fdr_tsbh"), bh, rtol=1e-14)
        np.testing.assert_allclose(adjust_p_values(p, "fdr_tsbky"), bky, rtol=1e-14)


def _simes(p):
    return (len(p) * np.sort(p) / np.arange(1, len(p) + 1)).min()


def test_hommel_is_closed_testing_of_simes_tests(monkeypatch):
    # Hommel (1988): H_i is rejected at α when every intersection holding it is rejected by Simes' test;
    # its adjusted p-value is the largest Simes p-value over the subsets that hold i (all 2^m enumerated)
    rng = np.random.default_rng(8)
    for m in (1, 2, 5, 8):
        p = rng.uniform(0, 0.3, size=m) ** 2
        if m == 8:
            p[[1, 4]] = p[0]  # ties
        subsets = [s for r in range(1, m + 1) for s in itertools.combinations(range(m), r)]
        expected = [max(_simes(p[list(s)]) for s in subsets if i in s) for i in range(m)]
        np.testing.assert_allclose(adjust_p_values(p, "hommel"), expected, rtol=1e-13)
        with monkeypatch.context() as patch:  # blocks of one set size at a time give the same
            patch.setattr(_posthoc, "_CELLS", 1)
            np.testing.assert_allclose(adjust_p_values(p, "hommel"), expected, rtol=1e-13)


def _step_up_rejections(p, q):
    """Benjamini-Hochberg's linear step-up at q: the number of rejected hypotheses."""
    m, ordered = len(p), np.sort(p)
    below = np.flatnonzero(ordered <= q * np.arange(1, m + 1) / m)
    return below[-1] + 1 if below.size else 0


def test_two_stage_rejects_what_bky_definition_6_rejects():
    # Benjamini, Krieger and Yekutieli (2006), Definition 6: step-up at q' = q/(1 + q) rejects r1; none if
    # r1 = 0, all if r1 = m; else step-up at q' m/(m - r1). fdr_tsbh: the same with q' = q.
    rng = np.random.default_rng(2)
    for trial in range(300):
        m = int(rng.integers(1, 25))
        p = rng.uniform(0, 1, size=m) ** rng.choice([1, 3, 6])
        q = float(rng.choice([0.01, 0.05, 0.1, 0.25]))
        for method, first in (("fdr_tsbky", q / (1 + q)), ("fdr_tsbh", q)):
            r1 = _step_up_rejections(p, first)
            r2 = m if r1 == m else 0 if r1 == 0 else _step_up_rejections(p, first * m / (m - r1))
            rejected = adjust_p_values(p, method, q) <= q
            assert rejected.sum() == r2, (trial, method)
            assert (np.sort(p)[:r2] <= p[rejected].max(initial=0)).all()


def test_two_stage_depends_on_alpha(uci_runs):
    # the same raw p-values, two α: the adjusted values differ (fdr_bh's do not)
    low, high = (rank_test(uci_runs, alpha=a, posthoc="conover", p_adjust="fdr_tsbky") for a in (0.05, 0.2))
    assert not np.allclose(low.p_values[UPPER], high.p_values[UPPER])
    bh = (rank_test(uci_runs, alpha=a, posthoc="conover", p_adjust="fdr_bh") for a in (0.05, 0.2))
    np.testing.assert_array_equal(*(r.p_values for r in bh))
    assert "(valid at \N{GREEK SMALL LETTER ALPHA} = 0.2 only)" in " ".join(str(high).split())


def test_conover_single_step_is_the_range_of_normals():
    # scikit-posthocs 0.17.1 posthoc_conover_friedman(x, p_adjust="single-step") on its docstring's example
    # (N = 6, k = 3: a t with 10 df, yet the p-values are those of infinite df)
    x = np.array([[31, 27, 24], [31, 28, 31], [45, 29, 46], [21, 18, 48], [42, 36, 46], [32, 17, 40]])
    frame = pd.DataFrame(
        {"method": np.tile(["a", "b", "c"], 6), "task": np.repeat(range(6), 3), "run": 0, "score": x.ravel()}
    )
    result = rank_test(read_task_scores(frame, direction="higher"), posthoc="conover", p_adjust="single-step")
    expected = [0.020367052531289453, 0.6884922097574729, 0.0013545494652612566]
    np.testing.assert_allclose(result.p_values[np.triu_indices(3, 1)], expected, rtol=1e-11)
    t = result.statistic[0, 1]
    assert result.p_values[0, 1] == pytest.approx(stats.studentized_range.sf(abs(t) * np.sqrt(2), 3, np.inf))
    assert result.test_name == "Conover-Friedman test (single-step studentized range)"
    assert "P(range of 3 standard normals > \u221a2 |t|)" in str(result)


def test_cli_takes_the_new_adjustments(tmp_path):
    from typer.testing import CliRunner

    from benchtrust.cli import app

    table = tmp_path / "scores.csv"
    rows = [31, 27, 24, 31, 28, 31, 45, 29, 46, 21, 18, 48, 42, 36, 46, 32, 17, 40]
    table.write_text(
        "method,task,run,score\n" + "".join(f"m{i % 3},t{i // 3},0,{v}\n" for i, v in enumerate(rows)),
        encoding="utf-8",
    )
    for adjust in ("hommel", "fdr_tsbky", "single-step"):
        arguments = ["compare", "rank", str(table), "--direction", "higher", "--posthoc", "conover"]
        done = CliRunner().invoke(app, [*arguments, "--p-adjust", adjust])
        assert done.exit_code == 0, done.output
        assert {"hommel": "Hommel", "fdr_tsbky": "two-stage", "single-step": "single-step"}[
            adjust
        ] in done.output
