"""benchtrust._distributions against scipy, on grids with the tails and the edges, and the commands it
serves (``compare auto``, ``compare rank``) loading no scipy."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats

from benchtrust import _distributions as dist

#: Results below this are subnormal or close to it, where no relative accuracy is to be had.
FLOOR = 1e-290


def assert_relative(actual, expected, rtol):
    """Elementwise |actual - expected| <= rtol |expected| where expected is a normal double; equal (NaN,
    inf and 0 included) elsewhere."""
    actual, expected = np.broadcast_arrays(np.asarray(actual, float), np.asarray(expected, float))
    normal = np.isfinite(expected) & (np.abs(expected) >= FLOOR)
    np.testing.assert_allclose(actual[normal], expected[normal], rtol=rtol, atol=0)
    small = ~normal & ~np.isnan(expected)
    with np.errstate(invalid="ignore"):  # inf - inf
        assert np.all(
            (actual[small] == expected[small]) | (np.abs(actual[small] - expected[small]) <= 1e-280)
        )
    assert np.array_equal(np.isnan(actual), np.isnan(expected))


def test_normal_cdf_sf_and_quantile_both_tails():
    x = np.r_[-np.logspace(-8, np.log10(37.5), 80), 0.0, np.logspace(-8, np.log10(37.5), 80)]
    # math.erfc is correctly rounded; scipy's ndtr loses about |x|² ε relative in the far tail (exp(-x²/2))
    for part, rtol in ((np.abs(x) < 5, 1e-14), (np.abs(x) >= 5, 5e-13)):
        assert_relative(dist.norm_cdf(x[part]), special.ndtr(x[part]), rtol)
        assert_relative(dist.norm_sf(x[part]), special.ndtr(-x[part]), rtol)
    p = np.r_[np.logspace(-300, -1, 120), np.linspace(0.1, 0.9, 17), 1 - np.logspace(-16, -1, 30)]
    assert_relative(dist.norm_ppf(p), special.ndtri(p), 1e-14)
    edges = [0.0, 1.0, -0.5, 1.5, np.nan]
    assert_relative(dist.norm_ppf(edges), special.ndtri(edges), 0)


@pytest.mark.parametrize("a", [0.5, 1.0, 2.5, 10.0, 100.0, 1000.0])
@pytest.mark.parametrize("b", [0.5, 1.0, 3.0, 50.0, 2000.0])
def test_incomplete_beta_both_tails(a, b):
    rtol = 5e-13  # Stirling's series keeps the large terms of x^a y^b / B(a, b) from cancelling
    tiny = np.logspace(-12, -1, 25)
    x = np.r_[0.0, tiny, np.linspace(0.05, 0.95, 19)]
    lower, upper = dist.betainc(a, b, x)
    assert_relative(lower, special.betainc(a, b, x), rtol)
    assert_relative(upper, special.betaincc(a, b, x), rtol)
    # near x = 1 against I_y(b, a) at y = 1 - x (exact): scipy's betainc(a, b, x) there is up to 3.5e-11 off
    x = np.r_[1 - tiny, 1.0]
    lower, upper = dist.betainc(a, b, x)
    assert_relative(upper, special.betainc(b, a, 1 - x), rtol)
    assert_relative(lower, special.betaincc(b, a, 1 - x), rtol)


@pytest.mark.parametrize("a", [0.5, 1.0, 2.5, 10.0, 100.0, 1000.0])
def test_incomplete_gamma_both_tails(a):
    # scipy's gammainc(1000, 360.65) = 1.11315247047244e-167 is 1.2e-12 off (60-digit series: ...471108e-167,
    # ours 2.9e-15 off)
    rtol = 5e-13 if a < 200 else 2e-12
    x = np.r_[0.0, np.logspace(-10, np.log10(50 * a + 700), 90)]
    lower, upper = dist.gammainc(a, x)
    assert_relative(lower, special.gammainc(a, x), rtol)
    assert_relative(upper, special.gammaincc(a, x), rtol)


@pytest.mark.parametrize("df", [1, 2, 3, 7.5, 30, 300, 10_000])
def test_student_t_cdf_sf_and_quantile(df):
    # against I_x(df/2, 1/2)/2, x = df/(df + t²), or 1/2 - I_y(1/2, df/2)/2, y = t²/(df + t²), for |t| < √df
    # (scipy's stdtr is 1.4e-11 off near t = 0 with df = 1)
    rtol = 5e-13
    t = np.r_[-np.inf, -np.logspace(-6, 6, 50), 0.0, np.logspace(-6, 6, 50), np.inf]
    with np.errstate(invalid="ignore"):
        x, y = df / (df + t * t), t * t / (df + t * t)
    tail = np.where(t * t < df, 0.5 * special.betaincc(0.5, df / 2, y), 0.5 * special.betainc(df / 2, 0.5, x))
    tail[np.isinf(t)] = 0.0
    assert_relative(dist.t_cdf(t, df), np.where(t < 0, tail, 1 - tail), rtol)
    assert_relative(dist.t_sf(t, df), np.where(t > 0, tail, 1 - tail), rtol)
    q = np.r_[0.0, np.logspace(-12, np.log10(0.49), 30), 0.5, 1 - np.logspace(-12, np.log10(0.49), 30), 1.0]
    assert_relative(dist.t_ppf(q, df), stats.t.ppf(q, df), rtol)


@pytest.mark.parametrize("df", [1, 2, 4, 9, 50, 500])
def test_chi2_and_f_upper_tails(df):
    x = np.r_[0.0, np.logspace(-6, 3, 60), np.inf]
    assert_relative(dist.chi2_sf(x, df), special.chdtrc(df, x), 5e-13)
    for denominator in (1, 5, 22, 212, 5000):
        rtol = 5e-13
        assert_relative(dist.f_sf(x, df, denominator), special.fdtrc(df, denominator, x), rtol)


def test_rankdata_averages_ties_along_any_axis_and_leaves_nan():
    values = np.random.default_rng(0).integers(0, 4, size=(9, 7)).astype(float)
    for axis in (0, 1, -1):
        np.testing.assert_array_equal(dist.rankdata(values, axis=axis), stats.rankdata(values, axis=axis))
    values[2, 3] = values[5, 1] = np.nan
    np.testing.assert_array_equal(
        dist.rankdata(values, axis=0), stats.rankdata(values, axis=0, nan_policy="omit")
    )


def _samples():
    rng = np.random.default_rng(1)
    for n in (3, 4, 5, 6, 7, 11, 12, 20, 54, 100, 1000, 5000):
        yield n, rng.normal(size=n)
        yield n, rng.exponential(size=n)
        yield n, np.round(rng.normal(size=n), 1)  # ties


def test_shapiro_wilk_as_scipy_from_3_to_5000():
    for n, x in _samples():
        w, p = dist.shapiro(x)
        expected = stats.shapiro(x)
        # scipy's swilk (AS R94's Fortran) is 1e-10 off in W; log(1 - W) makes that up to 1.1e-6 in p at
        # n = 5000 (where 1 - W is 1e-3), under 1e-8 up to 60 values
        assert w == pytest.approx(expected.statistic, rel=2e-9, abs=0)
        assert p == pytest.approx(expected.pvalue, rel=2e-8 if n <= 60 else 3e-6, abs=0)
    assert dist.shapiro([2.0, 2.0, 2.0, 2.0]) == (1.0, 1.0)  # scipy: (1, 1) and a warning
    with pytest.raises(ValueError, match="at least 3"):
        dist.shapiro([1.0, 2.0])


def test_bartlett_levene_and_paired_t_as_scipy():
    rng = np.random.default_rng(2)
    for sizes in ((5, 5), (8, 13, 20), (54, 54, 54, 54, 54)):
        groups = [rng.normal(scale=1 + i, size=n) for i, n in enumerate(sizes)]
        assert dist.bartlett(*groups) == pytest.approx(tuple(stats.bartlett(*groups)), rel=1e-12)
        assert dist.levene(*groups) == pytest.approx(tuple(stats.levene(*groups)), rel=1e-12)
    a = rng.normal(size=12)
    b = a + rng.normal(scale=0.3, size=12) + 0.2
    assert dist.ttest_rel(a, b) == pytest.approx(tuple(stats.ttest_rel(a, b)), rel=1e-12)


@pytest.mark.parametrize("n", [5, 8, 14, 30, 50, 51, 80])
@pytest.mark.parametrize("ties", [False, True])
def test_one_sided_wilcoxon_as_scipy_auto(n, ties):
    # scipy's method="auto": exact up to 50 differences, up to 13 with ties or zeros (where scipy permutes
    # the signs, slowly: 8 here), else normal
    rng = np.random.default_rng(n)
    a = rng.normal(size=n)
    b = a + rng.normal(size=n) + 0.3
    if ties:
        a, b = np.round(a), np.round(b)
    expected = stats.wilcoxon(b, a, alternative="greater")
    assert dist.wilcoxon(b, a) == (expected.statistic, pytest.approx(expected.pvalue, rel=1e-12))


#: Runs ``benchtrust`` with each argument list of the JSON in argv[3] (``{uci}`` the UCI table,
#: ``{two}`` its first and last classifiers, written to argv[2], ``{atari}`` the Atari runs with their
#: reading options) and prints which of the modules in argv[4] were imported.
_COMMANDS = """
import csv, json, sys
from benchtrust.cli import main
with open(sys.argv[1], newline="") as table, open(sys.argv[2], "w", newline="") as two:
    rows = list(csv.reader(table))
    method = rows[0].index("classifier")
    kept = [r for r in rows[1:] if r[method] in {rows[1][method], rows[-1][method]}]
    csv.writer(two).writerows([rows[0], *kept])
columns = ["--direction", "higher", "--method-col", "classifier", "--task-col", "dataset_index",
           "--run-col", "score_index", "--score-col", "accuracy_percent"]
data = sys.argv[1].rsplit("/", 1)[0]
atari = [data + "/atari100k_runs.csv", "--direction", "higher", "--method-col", "algorithm", "--task-col",
         "game", "--normalise", "reference", "--reference", data + "/atari_reference_scores.csv"]
places = {"{uci}": [sys.argv[1], *columns], "{two}": [sys.argv[2], *columns], "{atari}": atari}
for args in json.loads(sys.argv[3]):
    args = [word for arg in args for word in places.get(arg, [arg])]
    try:
        main(args)
    except SystemExit as stop:
        assert not stop.code, (args, stop.code)
heavy = set(json.loads(sys.argv[4]))
print(json.dumps(sorted(({m.split(".")[0] for m in sys.modules} | set(sys.modules)) & heavy)))
"""


def _imported(commands, heavy, tmp_path):
    """Which of the modules `heavy` the `commands` (lists of arguments of ``benchtrust``) import."""
    table = Path(__file__).parents[1] / "src/benchtrust/data/uci_10x10cv_accuracies.csv"
    completed = subprocess.run(
        [sys.executable, "-c", _COMMANDS, str(table), str(tmp_path / "two.csv"), json.dumps(commands),
         json.dumps(heavy)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )  # fmt: skip
    return json.loads(completed.stdout.splitlines()[-1])


def test_compare_auto_rank_and_bayes_import_neither_scipy_nor_pandas(tmp_path):
    # issues 32 and 33: nor pydantic (which some typer versions bring), nor numpy.ma (numpy.median's):
    # compare auto (Friedman-Nemenyi, forced ANOVA-Tukey, two methods), compare rank with its post-hocs,
    # compare bayes (the signed-rank test, and the correlated t-test of one task)
    commands = [
        ["auto", "{uci}"], ["auto", "{uci}", "--force-mode", "parametric"], ["auto", "{two}"],
        ["auto", "{two}", "--force-mode", "parametric"], ["rank", "{uci}"],
        ["rank", "{uci}", "--posthoc", "siegel"], ["rank", "{uci}", "--posthoc", "wilcoxon"],
        ["rank", "{uci}", "--posthoc", "conover"],
        ["rank", "{uci}", "--posthoc", "conover", "--p-adjust", "single-step"],
        ["bayes", "{uci}", "--a", "nbc", "--b", "aode", "--samples", "1000"],
        ["bayes", "{uci}", "--a", "nbc", "--b", "aode", "--task", "0", "--folds", "10", "--rope", "1"],
    ]  # fmt: skip
    commands = [["compare", *command] for command in commands]
    assert _imported(commands, ["scipy", "pandas", "pydantic", "numpy.ma"], tmp_path) == []


def test_compare_aggregate_profile_and_improvement_import_no_scipy(tmp_path):
    # issue 33: each needs a rank or a table of bootstrap percentiles, not scipy.stats or pandas
    commands = [
        ["compare", "aggregate", "{atari}", "--resamples", "100"],
        ["compare", "profile", "{atari}", "--resamples", "100"],
        ["compare", "improvement", "{atari}", "--resamples", "100"],
    ]
    assert _imported(commands, ["scipy", "pandas", "pydantic"], tmp_path) == []


def test_a_batch_of_test_set_claims_imports_no_scipy(tmp_path):
    # issue 33: the batch reaches the fold modules, whose scipy (gammaln) only drawing folds needs
    claims = tmp_path / "claims.csv"
    claims.write_text("id,positives,negatives,acc,sens\n1,100,100,0.5,0.5\n2,50,60,0.6,0.7\n")
    commands = [["consistency", "batch", str(claims)]]
    assert _imported(commands, ["scipy", "pandas", "pydantic"], tmp_path) == []
