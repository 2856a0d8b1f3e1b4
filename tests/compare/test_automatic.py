"""autorank's automatic path (Herbold 2020): the checks, the chosen test, post-hoc decisions, effect sizes.

The numbers are autorank 1.3.0's on the same per-data-set means (benchmarks/AUTORANK_FACTS.md, §6), recorded
from calls ``autorank(means, alpha=0.05, ...)``: the UCI table (54 data sets), its first 8 data sets (all
normal: the ANOVA path), nbc against aode (two methods), the Atari 100k table (human-normalised, 26 games)
and seeded normal tables (:func:`_normal`), with ``force_mode`` where the case's name says so.
"""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.compare import AutomaticResult, automatic_test, read_task_scores
from benchtrust.compare._tasks._automatic import _median_interval
from benchtrust.compare._tasks._automatic_stats import (
    akinshin_gamma,
    cliff_delta,
    cohen_d,
    repeated_measures_anova,
    studentized_range_quantile,
    studentized_range_tail,
)
from benchtrust.compare._tasks._ranks import _task_means

AUTORANK = {
    "uci/default": {
        "omnibus": "friedman",
        "posthoc": "nemenyi",
        "pvalue": 0.000340580044907887,
        "cd": 0.830028161305404,
        "all_normal": False,
        "homogeneity_test": "levene",
        "pval_homogeneity": 0.998853476306449,
        "pvals_shapiro": [
            0.0012822225459578,
            0.00317244898484462,
            0.00386052046636911,
            0.000794554372006672,
            0.000413252521904922,
        ],
        "effect_size": "akinshin_gamma",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "nbc": (
                3.68518518518519,
                83.5126,
                9.8414,
                71.39521,
                92.16903,
                0.0,
                "negligible",
            ),
            "j48": (3.25, 80.3647, 11.41551, 72.31167, 93.59991, 0.199222913350384, "negligible"),
            "j48gr": (
                2.91666666666667,
                80.50301,
                11.41551,
                72.31384,
                93.59991,
                0.190469610785025,
                "negligible",
            ),
            "hnb": (
                2.7037037037037,
                84.879055,
                11.411575,
                73.14819,
                96.21347,
                -0.086496706811483,
                "negligible",
            ),
            "aode": (
                2.44444444444445,
                84.533945,
                10.451245,
                72.64526,
                94.66363,
                -0.067864676050278,
                "negligible",
            ),
        },
    },
    "uci/parametric": {
        "omnibus": "anova",
        "posthoc": "tukeyhsd",
        "pvalue": 0.013439876189098,
        "cd": None,
        "all_normal": False,
        "homogeneity_test": "levene",
        "pval_homogeneity": 0.998853476306449,
        "pvals_shapiro": [
            0.0012822225459578,
            0.00317244898484462,
            0.00386052046636911,
            0.000794554372006672,
            0.000413252521904922,
        ],
        "effect_size": "cohen_d",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "nbc": (
                3.68518518518519,
                78.7530881481482,
                15.1281851525999,
                74.6054093896134,
                82.9007669066829,
                0.0,
                "negligible",
            ),
            "j48": (
                3.25,
                79.6538111111111,
                15.7848024698222,
                75.5061323525764,
                83.8014898696458,
                -0.058261585838091,
                "negligible",
            ),
            "j48gr": (
                2.91666666666667,
                79.7951825925926,
                15.7827924965877,
                75.6475038340579,
                83.9428613511273,
                -0.067410410582698,
                "negligible",
            ),
            "hnb": (
                2.7037037037037,
                81.0774544444445,
                16.3167071971378,
                76.9297756859097,
                85.2251332029792,
                -0.147731958414377,
                "negligible",
            ),
            "aode": (
                2.44444444444445,
                80.6389407407407,
                15.4285142487652,
                76.491261982206,
                84.7866194992754,
                -0.123427042085477,
                "negligible",
            ),
        },
    },
    "atari/default": {
        "omnibus": "friedman",
        "posthoc": "nemenyi",
        "pvalue": 2.60192816194416e-09,
        "cd": 1.76644973154491,
        "all_normal": False,
        "homogeneity_test": "levene",
        "pval_homogeneity": 0.17843459267531,
        "pvals_shapiro": [
            0.000167267286845122,
            1.20959587873476e-05,
            6.47556497725725e-06,
            2.18912232373099e-05,
            1.32586805033416e-05,
            2.57596187580073e-08,
            2.4492728335056e-06,
        ],
        "effect_size": "akinshin_gamma",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "OTRainbow": (
                5.73076923076923,
                0.129590958690612,
                0.089799033396715,
                0.015033822483209,
                0.516810198153551,
                0.0,
                "negligible",
            ),
            "CURL": (
                4.76923076923077,
                0.101576262382289,
                0.092193452710391,
                0.00632215746565,
                1.12436084733382,
                0.207635150225679,
                "small",
            ),
            "DrQ": (
                4.42307692307692,
                0.211976939415429,
                0.166553177230428,
                0.039266034027468,
                1.11229463202911,
                -0.41531688831744,
                "small",
            ),
            "SimPLe": (
                4.26923076923077,
                0.134055584837299,
                0.118883843321819,
                0.025601356282691,
                0.949451133144476,
                -0.028584240966062,
                "negligible",
            ),
            "DER": (
                4.03846153846154,
                0.189360863950209,
                0.11268389449033,
                0.017465940883104,
                1.51041679964256,
                -0.395679844839722,
                "small",
            ),
            "DrQ(eps)": (
                2.65384615384615,
                0.312901399063074,
                0.228193017125237,
                0.066751474081487,
                1.42974787770473,
                -0.713035618706895,
                "medium",
            ),
            "SPR": (
                2.11538461538461,
                0.395629382917792,
                0.299521379492339,
                0.05284588935453,
                1.95186332552693,
                -0.811553556711087,
                "large",
            ),
        },
    },
    "atari/parametric": {
        "omnibus": "anova",
        "posthoc": "tukeyhsd",
        "pvalue": 0.000288798613797756,
        "cd": None,
        "all_normal": False,
        "homogeneity_test": "levene",
        "pval_homogeneity": 0.17843459267531,
        "pvals_shapiro": [
            0.000167267286845122,
            1.20959587873476e-05,
            6.47556497725725e-06,
            2.18912232373099e-05,
            1.32586805033416e-05,
            2.57596187580073e-08,
            2.4492728335056e-06,
        ],
        "effect_size": "cohen_d",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "OTRainbow": (
                5.73076923076923,
                0.217052847864387,
                0.37272269522395,
                0.011408048764654,
                0.422697646964121,
                0.0,
                "negligible",
            ),
            "CURL": (
                4.76923076923077,
                0.259201205922344,
                0.364529357508743,
                0.053556406822611,
                0.464846005022078,
                -0.114332012627753,
                "negligible",
            ),
            "DrQ": (
                4.42307692307692,
                0.369123514963487,
                0.492956228759687,
                0.163478715863753,
                0.57476831406322,
                -0.34799232897051,
                "small",
            ),
            "SimPLe": (
                4.26923076923077,
                0.331997853373248,
                0.452721912869641,
                0.126353054273515,
                0.537642652472982,
                -0.277205640098956,
                "small",
            ),
            "DER": (
                4.03846153846154,
                0.350304975627639,
                0.435663681348472,
                0.144660176527906,
                0.555949774727372,
                -0.328679600031211,
                "small",
            ),
            "DrQ(eps)": (
                2.65384615384615,
                0.464741251397166,
                0.567673713704471,
                0.259096452297432,
                0.670386050496899,
                -0.515807302318889,
                "medium",
            ),
            "SPR": (
                2.11538461538461,
                0.615795742869167,
                0.705813144570126,
                0.410150943769434,
                0.821440541968901,
                -0.706490067924904,
                "medium",
            ),
        },
    },
    "uci8/default": {
        "omnibus": "anova",
        "posthoc": "tukeyhsd",
        "pvalue": 0.519097608792777,
        "cd": None,
        "all_normal": True,
        "homogeneity_test": "bartlett",
        "pval_homogeneity": 0.999860300906311,
        "pvals_shapiro": [
            0.409594738399984,
            0.10419238639891,
            0.230546665854751,
            0.641640176831336,
            0.10410310844163,
        ],
        "effect_size": "cohen_d",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "hnb": (
                3.75,
                76.98712125,
                14.727417387732,
                66.8284760608351,
                87.1457664391649,
                0.0,
                "negligible",
            ),
            "nbc": (
                3.375,
                78.8923625,
                13.7633057483811,
                68.7337173108351,
                89.0510076891649,
                -0.133668164210137,
                "negligible",
            ),
            "j48": (
                3.1875,
                79.856215,
                14.0647777043161,
                69.6975698108351,
                90.0148601891649,
                -0.199243871902228,
                "negligible",
            ),
            "aode": (
                2.375,
                79.0836575,
                14.0234289049237,
                68.9250123108351,
                89.2423026891649,
                -0.145798006470164,
                "negligible",
            ),
            "j48gr": (
                2.3125,
                79.9267575,
                14.0703588615295,
                69.7681123108351,
                90.0854026891649,
                -0.204104050289158,
                "small",
            ),
        },
    },
    "uci8/nonparametric": {
        "omnibus": "friedman",
        "posthoc": "nemenyi",
        "pvalue": 0.271541547922213,
        "cd": 2.1564764206409,
        "all_normal": True,
        "homogeneity_test": "bartlett",
        "pval_homogeneity": 0.999860300906311,
        "pvals_shapiro": [
            0.409594738399984,
            0.10419238639891,
            0.230546665854751,
            0.641640176831336,
            0.10410310844163,
        ],
        "effect_size": "cohen_d",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "hnb": (
                3.75,
                81.036775,
                5.86796,
                58.7655624512729,
                95.2086800487271,
                0.0,
                "negligible",
            ),
            "nbc": (
                3.375,
                82.60511,
                5.025355,
                61.8636548619661,
                95.9210701380339,
                -0.133668164210137,
                "negligible",
            ),
            "j48": (
                3.1875,
                81.8561,
                4.53425500000001,
                62.4545099227943,
                97.2579200772056,
                -0.199243871902228,
                "negligible",
            ),
            "aode": (
                2.375,
                82.44707,
                6.257235,
                61.7331113978916,
                96.4342036021084,
                -0.145798006470164,
                "negligible",
            ),
            "j48gr": (
                2.3125,
                81.959925,
                4.568515,
                62.5181471126744,
                97.3353678873256,
                -0.204104050289158,
                "small",
            ),
        },
    },
    "uci2/default": {
        "omnibus": "wilcoxon",
        "posthoc": None,
        "pvalue": 9.11805188844939e-07,
        "cd": None,
        "all_normal": False,
        "homogeneity_test": "levene",
        "pval_homogeneity": 0.95605868139078,
        "pvals_shapiro": [0.0012822225459578, 0.000794554372006672],
        "effect_size": "akinshin_gamma",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "nbc": (1.83333333333333, 83.5126, 9.8414, 71.93504, 91.14715, 0.0, "negligible"),
            "aode": (
                1.16666666666667,
                84.533945,
                10.451245,
                74.16672,
                93.30815,
                -0.067864676050278,
                "negligible",
            ),
        },
    },
    "uci2/parametric": {
        "omnibus": "ttest",
        "posthoc": None,
        "pvalue": 0.000109080469393154,
        "cd": None,
        "all_normal": False,
        "homogeneity_test": "levene",
        "pval_homogeneity": 0.95605868139078,
        "pvals_shapiro": [0.0012822225459578, 0.000794554372006672],
        "effect_size": "akinshin_gamma",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "nbc": (
                1.83333333333333,
                78.7530881481482,
                15.1281851525999,
                71.93504,
                91.14715,
                0.0,
                "negligible",
            ),
            "aode": (
                1.16666666666667,
                80.6389407407407,
                15.4285142487652,
                74.16672,
                93.30815,
                -0.067864676050278,
                "negligible",
            ),
        },
    },
    "normal4/default": {
        "omnibus": "anova",
        "posthoc": "tukeyhsd",
        "pvalue": 5.86038416868443e-05,
        "cd": None,
        "all_normal": True,
        "homogeneity_test": "bartlett",
        "pval_homogeneity": 0.0847745696294983,
        "pvals_shapiro": [0.491117716166697, 0.981589052984214, 0.429615862561051, 0.426146802559348],
        "effect_size": "cohen_d",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "a": (
                3.1,
                0.795576687691886,
                0.037923609127322,
                0.781821857429387,
                0.809331517954385,
                0.0,
                "negligible",
            ),
            "c": (
                3.1,
                0.790807747537235,
                0.02806000476732,
                0.777052917274736,
                0.804562577799734,
                0.142960752934108,
                "negligible",
            ),
            "b": (
                2.2,
                0.82242920488966,
                0.040045259077475,
                0.808674374627161,
                0.836184035152159,
                -0.688546124837822,
                "medium",
            ),
            "d": (
                1.6,
                0.839775185613754,
                0.023620184833004,
                0.826020355351255,
                0.853530015876253,
                -1.39903931226101,
                "large",
            ),
        },
    },
    "normal3/default": {
        "omnibus": "anova",
        "posthoc": "tukeyhsd",
        "pvalue": 0.00313548277710766,
        "cd": None,
        "all_normal": True,
        "homogeneity_test": "bartlett",
        "pval_homogeneity": 0.508056853098905,
        "pvals_shapiro": [0.745743775399179, 0.492601328206125, 0.794631704717869],
        "effect_size": "cohen_d",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "x": (
                2.46666666666667,
                9.4863330356062,
                0.958520229938352,
                9.09559661997597,
                9.87706945123643,
                0.0,
                "negligible",
            ),
            "y": (
                1.86666666666667,
                10.4449330081775,
                0.945963704879906,
                10.0541965925473,
                10.8356694238077,
                -1.00665500066548,
                "large",
            ),
            "z": (
                1.66666666666667,
                10.6468717209531,
                0.71719507577329,
                10.2561353053229,
                11.0376081365834,
                -1.3709823227272,
                "large",
            ),
        },
    },
    "normal2/default": {
        "omnibus": "ttest",
        "posthoc": None,
        "pvalue": 0.000206373571556184,
        "cd": None,
        "all_normal": True,
        "homogeneity_test": "bartlett",
        "pval_homogeneity": 0.972080645729674,
        "pvals_shapiro": [0.140684332171418, 0.611978922509047],
        "effect_size": "cohen_d",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "p": (
                1.91666666666667,
                0.47104893444695,
                0.040385802020113,
                0.440817682788741,
                0.50128018610516,
                0.0,
                "negligible",
            ),
            "q": (
                1.08333333333333,
                0.539779122393006,
                0.039952388704691,
                0.50987230720393,
                0.569685937582081,
                -1.71099665472511,
                "large",
            ),
        },
    },
    "normal2/nonparametric": {
        "omnibus": "wilcoxon",
        "posthoc": None,
        "pvalue": 0.00048828125,
        "cd": None,
        "all_normal": True,
        "homogeneity_test": "bartlett",
        "pval_homogeneity": 0.972080645729674,
        "pvals_shapiro": [0.140684332171418, 0.611978922509047],
        "effect_size": "cohen_d",
        "rows": {  # meanrank, centre, spread, ci_lower, ci_upper, effect_size, magnitude
            "p": (
                1.91666666666667,
                0.481779783986652,
                0.022359162303232,
                0.440817682788741,
                0.50128018610516,
                0.0,
                "negligible",
            ),
            "q": (
                1.08333333333333,
                0.532682327697128,
                0.031567919711127,
                0.50987230720393,
                0.569685937582081,
                -1.71099665472511,
                "large",
            ),
        },
    },
}
# effect_size="cliff_delta": each method"s δ and magnitude
AUTORANK_CLIFF = {
    "uci": {
        "nbc": (0, "negligible"),
        "j48": (-0.05281207133059, "negligible"),
        "j48gr": (-0.056927297668038, "negligible"),
        "hnb": (-0.118655692729767, "negligible"),
        "aode": (-0.088477366255144, "negligible"),
    },
    "normal4": {
        "a": (0, "negligible"),
        "c": (0.125, "negligible"),
        "b": (-0.395, "medium"),
        "d": (-0.69, "large"),
    },
}

#: The seeded normal tables: (seed, methods, means, sd, data sets).
NORMAL = {
    "normal4": (3, ("a", "b", "c", "d"), (0.80, 0.82, 0.79, 0.85), 0.03, 20),
    "normal3": (5, ("x", "y", "z"), (10, 10.5, 11), 1.0, 15),
    "normal2": (7, ("p", "q"), (0.5, 0.55), 0.05, 12),
}


def _table(methods, means, direction="higher"):
    """A TaskScores of one run per method and data set from means (N, k)."""
    n, k = means.shape
    frame = pd.DataFrame(
        {
            "method": np.repeat(methods, n),
            "task": np.tile([f"t{j:02d}" for j in range(n)], k),
            "run": 0,
            "score": means.T.ravel(),
        }
    )
    return read_task_scores(frame, direction=direction)


def _scores(name, uci_runs, atari_runs):
    if name in NORMAL:
        seed, methods, centres, sd, n = NORMAL[name]
        return _table(methods, np.random.default_rng(seed).normal(centres, sd, size=(n, len(methods))))
    runs = atari_runs if name == "atari" else uci_runs
    means = _task_means(runs)[0].T
    methods = list(runs.methods)
    if name == "uci8":
        means = means[:8]
    if name == "uci2":
        means, methods = means[:, :2], methods[:2]
    return _table(methods, means)


@pytest.mark.parametrize("case", sorted(AUTORANK))
def test_autorank_numbers(case, uci_runs, atari_runs):
    name, variant = case.split("/")
    expected = AUTORANK[case]
    force = None if variant == "default" else variant
    result = automatic_test(_scores(name, uci_runs, atari_runs), force_mode=force)
    assert (result.omnibus, result.posthoc) == (expected["omnibus"], expected["posthoc"])
    assert result.p_value == pytest.approx(expected["pvalue"], rel=1e-9)
    assert result.all_normal is expected["all_normal"]
    assert result.homogeneity_test == expected["homogeneity_test"]
    assert result.homogeneity_p_value == pytest.approx(expected["pval_homogeneity"], rel=1e-9)
    # autorank lists the Shapiro-Wilk p-values in an order of its own, not the columns' its docs say;
    # 2e-8, not 1e-9: scipy's swilk (AS R94's Fortran) and benchtrust._distributions.shapiro (AS R94 on
    # numpy, normal scores to 1e-16) differ by 1e-10 in W, which the transformation of log(1 - W) turns into
    # up to 9.4e-9 in p on these tables
    np.testing.assert_allclose(
        np.sort(result.shapiro_p_values), np.sort(expected["pvals_shapiro"]), rtol=2e-8
    )
    assert result.effect_size == expected["effect_size"]
    assert result.reference == next(iter(expected["rows"]))
    for method, (rank, centre, spread, low, high, effect, words) in expected["rows"].items():
        i = result.methods.index(method)
        assert result.mean_ranks[i] == pytest.approx(rank, abs=1e-12)
        assert result.centre[i] == pytest.approx(centre, rel=1e-12)
        assert result.spread[i] == pytest.approx(spread, rel=1e-12)
        assert result.effects[i] == pytest.approx(effect, abs=1e-12)
        assert result.magnitudes[i] == words
        # the mean's (all normal), Tukey's (ANOVA) or else the median's interval (_median_interval)
        assert (result.ci_low[i], result.ci_high[i]) == pytest.approx((low, high), rel=1e-9)
    if expected["cd"] is not None:  # autorank's CD uses an approximate studentized range: 1e-5
        assert result.critical_difference == pytest.approx(expected["cd"], rel=1e-4)


# autorank 1.3.0, force_mode="nonparametric", on tables whose k columns are permutations of 1..N raised to
# the 6th power (none normal): (N, k, α) -> the 1-based ranks of ci_lower and ci_upper in each column
# (benchmarks/AUTORANK_FACTS.md §8; 173 such tables, N 6 to 150, all reproduced)
MEDIAN_INTERVAL = {
    (6, 2, 0.05): (1, 6),
    (10, 2, 0.1): (2, 10),
    (15, 3, 0.1): (3, 15),
    (20, 2, 0.1): (5, 18),
    (25, 8, 0.01): (2, 25),
    (40, 5, 0.1): (11, 32),
    (54, 5, 0.05): (15, 42),
    (54, 8, 0.01): (11, 46),
    (80, 3, 0.01): (22, 61),
    (100, 2, 0.05): (35, 68),
    (101, 5, 0.05): (33, 71),
    (150, 8, 0.1): (54, 99),
}


def test_median_interval_as_autorank():
    for (n, k, alpha), ranks in MEDIAN_INTERVAL.items():
        low, high = _median_interval(np.tile(np.arange(1.0, n + 1), (k, 1))[:, ::-1], alpha)
        assert (low.tolist(), high.tolist()) == ([ranks[0]] * k, [ranks[1]] * k), (n, k, alpha)
    # ties: autorank(force_mode="nonparametric") on 30 data sets of coarse values, many tied
    x = np.round(np.random.default_rng(1).exponential(size=(30, 3)), 1) ** 3
    result = automatic_test(_table(["a", "b", "c"], x), force_mode="nonparametric")
    np.testing.assert_allclose(result.ci_low, [0.027, 0.008, 0.008], rtol=1e-12)
    np.testing.assert_allclose(result.ci_high, [4.913, 12.167, 8.0], rtol=1e-12)
    assert "interval: the median's, sorted values 7 and 26 of 30" in str(result)


@pytest.mark.parametrize("name", sorted(AUTORANK_CLIFF))
def test_cliff_delta_as_autorank(name, uci_runs, atari_runs):
    result = automatic_test(_scores(name, uci_runs, atari_runs), effect_size="cliff_delta")
    for method, (delta, words) in AUTORANK_CLIFF[name].items():
        i = result.methods.index(method)
        assert (result.effects[i], result.magnitudes[i]) == (pytest.approx(delta, abs=1e-12), words)


def test_uci_report(uci_runs):
    """autorank's report on the UCI table: Friedman + Nemenyi; no difference within {nbc, j48, j48gr} and
    {j48, j48gr, hnb, aode}."""
    result = automatic_test(uci_runs)
    assert {frozenset(g) for g in result.groups} == {
        frozenset({"nbc", "j48", "j48gr"}),
        frozenset({"j48", "j48gr", "hnb", "aode"}),
    }
    assert result.rejected and "Friedman test + Nemenyi test (not all methods are normal)" in str(result)
    assert result.statistic == pytest.approx(stats.friedmanchisquare(*result.scores).statistic, rel=1e-12)


def test_anova_and_tukey_from_definitions():
    """RM-ANOVA against the sums of squares written out; Tukey's p-values and HSD against scipy."""
    rng = np.random.default_rng(11)
    x = rng.normal([[0.0], [0.4], [0.9]], 1.0, size=(3, 12))
    f, (df1, df2), p = repeated_measures_anova(x)
    k, n = x.shape
    residual = x - x.mean(axis=1, keepdims=True) - x.mean(axis=0, keepdims=True) + x.mean()
    expected_f = (n * x.mean(axis=1).var() * k / (k - 1)) / (np.square(residual).sum() / ((k - 1) * (n - 1)))
    assert (f, df1, df2) == (pytest.approx(expected_f, rel=1e-12), 2, 22)
    assert p == pytest.approx(stats.f.sf(expected_f, 2, 22), rel=1e-12)
    q = np.array([0.5, 2.0, 3.5, 5.0])
    for groups, df in [(3, 33), (5, 8), (7, 150)]:
        tail, _ = studentized_range_tail(q, groups, df)
        np.testing.assert_allclose(tail, stats.studentized_range.sf(q, groups, df), rtol=1e-8, atol=1e-13)
        quantile = studentized_range_quantile(0.05, groups, df)
        assert quantile == pytest.approx(stats.studentized_range.ppf(0.95, groups, df), rel=1e-10)


def test_effect_sizes_from_definitions():
    ref = np.array([1.0, 2.0, 3.0, 4.0, 10.0])
    x = np.array([[0.0, 2.0, 2.5, 3.0, 3.5], [1.0, 2.0, 3.0, 4.0, 10.0]])
    pooled = np.sqrt((ref.var(ddof=1) + x[0].var(ddof=1)) / 2)
    assert cohen_d(ref, x)[0] == pytest.approx((ref.mean() - x[0].mean()) / pooled)
    wins = sum(np.sign(a - b) for a in ref for b in x[0])
    assert cliff_delta(ref, x)[0] == pytest.approx(wins / 25)
    assert cliff_delta(ref, x)[1] == 0 and cohen_d(ref, x)[1] == 0
    mad = lambda v: np.median(np.abs(v - np.median(v)))  # noqa: E731
    expected = (3.0 - 2.5) / (1.4826 * np.sqrt((mad(ref) ** 2 + mad(x[0]) ** 2) / 2))
    assert akinshin_gamma(ref, x)[0] == pytest.approx(expected)


def test_lower_is_better_mirrors_higher(uci_runs):
    """Negated scores with lower better: the same path, p-values, ranks and groups."""
    means = _task_means(uci_runs)[0].T
    higher = automatic_test(_table(list(uci_runs.methods), means))
    lower = automatic_test(_table(list(uci_runs.methods), -means, "lower"))
    assert (lower.omnibus, lower.p_value) == (higher.omnibus, pytest.approx(higher.p_value, rel=1e-12))
    np.testing.assert_allclose(lower.mean_ranks, higher.mean_ranks)
    assert lower.groups == higher.groups


def test_views_and_latex(uci_runs):
    result = automatic_test(uci_runs)
    assert isinstance(result, AutomaticResult)
    data = result.to_dict()
    assert data["omnibus"] == "friedman" and data["reference"] == "nbc" and len(data["effects"]) == 5
    assert [round(v, 5) for v in data["ci_low"]] == [71.39521, 72.64526, 73.14819, 72.31167, 72.31384]
    latex = result.to_latex()
    assert latex.startswith("\\begin{table}")
    # autorank's latex_table prints this row
    assert "aode & 2.444 & 84.534 & 10.451 & [72.645, 94.664] & -0.068 & negligible" in latex
    assert "\\label{tbl:stat_results}" in latex
    named = _table(["a_b", "c&d"], np.random.default_rng(0).normal(size=(6, 2)))
    assert "a\\_b" in automatic_test(named).to_latex() and "c\\&d" in automatic_test(named).to_latex()


def test_refuses(uci_runs):
    with pytest.raises(InputError, match="force_mode"):
        automatic_test(uci_runs, force_mode="bayesian")
    with pytest.raises(InputError, match="effect_size"):
        automatic_test(uci_runs, effect_size="hedges_g")
    few = _table(["a", "b"], np.arange(8.0).reshape(4, 2))
    with pytest.raises(InputError, match="5 data sets"):
        automatic_test(few)


def test_cli_latex(tmp_path):
    from typer.testing import CliRunner

    from benchtrust.cli import app

    target = tmp_path / "table.tex"
    arguments = ["compare", "auto", "src/benchtrust/data/uci_10x10cv_accuracies.csv", "--direction", "higher",
                 "--method-col", "classifier", "--task-col", "dataset_index", "--run-col", "score_index",
                 "--score-col", "accuracy_percent", "--latex", str(target)]  # fmt: skip
    done = CliRunner().invoke(app, arguments)
    assert done.exit_code == 0, done.output
    assert target.read_text(encoding="utf-8").startswith("\\begin{table}")
    again = CliRunner().invoke(app, arguments)
    assert again.exit_code == 2 and "exists already" in again.output
    assert CliRunner().invoke(app, [*arguments, "--force"]).exit_code == 0


def test_tukey_decides_by_the_intervals():
    """Two means differ when they are more than the HSD apart (their intervals mean ± HSD/2 do not overlap),
    which is when Tukey's p-value is below α; the groups follow."""
    seed, methods, centres, sd, n = NORMAL["normal4"]
    result = automatic_test(_table(methods, np.random.default_rng(seed).normal(centres, sd, size=(n, 4))))
    assert result.posthoc == "tukeyhsd"
    means = result.centre
    apart = np.abs(means[:, None] - means[None, :]) > result.critical_difference
    np.testing.assert_array_equal(result.different, apart)
    overlap = (result.ci_low[:, None] <= result.ci_high[None, :]) & (
        result.ci_low[None, :] <= result.ci_high[:, None]
    )
    np.testing.assert_array_equal(result.different, ~overlap)
    assert result.groups == (("d", "b"), ("b", "a"), ("a", "c"))
