"""Aggregate performance over many tasks (benchtrust.compare.aggregate; Agarwal et al. 2021, §4.1, §4.3)."""

import itertools
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchtrust import InputError
from benchtrust._words import GAMMA, TIMES
from benchtrust.compare import AggregateResult, aggregate, bundled_results, read_task_scores

ATARI = {"direction": "higher", "method_column": "algorithm", "task_column": "game"}

#: Published in shared/data/compare/README.md: IQM and optimality gap of human-normalised Atari 100k scores.
IQM_FACTS = {
    "DER": 0.1832,
    "DrQ": 0.2236,
    "DrQ(eps)": 0.2796,
    "OTRainbow": 0.1167,
    "SPR": 0.3366,
    "CURL": 0.1124,
    "SimPLe": 0.1296,
}
GAP_FACTS = {"DER": 0.6975, "SPR": 0.5773}

#: Recorded from rliable 1.2.0 (arch 7.2.0), see benchmarks/RLIABLE_FACTS.md: get_interval_estimates(
#: score_dict, mean/median/IQM/optimality gap, reps=50000) on the human-normalised Atari 100k runs, after
#: np.random.seed(2021). Per agent: (point, low, high) of mean, median, IQM and optimality gap.
RLIABLE_50K = {
    "DER": ((0.350305, 0.343314, 0.357302), (0.189361, 0.177900, 0.205762), (0.183152, 0.177647, 0.188782),
            (0.697502, 0.692533, 0.702475)),
    "DrQ": ((0.369124, 0.362259, 0.376086), (0.211977, 0.197976, 0.229143), (0.223595, 0.218174, 0.229048),
            (0.691732, 0.687278, 0.696265)),
    "DrQ(eps)": ((0.464741, 0.454960, 0.474786), (0.312901, 0.274857, 0.331943),
                 (0.279647, 0.270996, 0.288513), (0.630534, 0.624319, 0.636688)),
    "OTRainbow": ((0.217053, 0.212664, 0.221516), (0.129591, 0.119979, 0.138998),
                  (0.116711, 0.113703, 0.119798), (0.818723, 0.814999, 0.822441)),
    "SPR": ((0.615796, 0.597139, 0.635288), (0.395629, 0.362546, 0.417758), (0.336649, 0.325812, 0.347898),
            (0.577302, 0.570394, 0.584239)),
    "SimPLe": ((0.331998, 0.284063, 0.380923), (0.134056, 0.082673, 0.164194), (0.129588, 0.098968, 0.167627),
               (0.728931, 0.692535, 0.766352)),
    "CURL": ((0.259201, 0.250678, 0.267880), (0.101576, 0.095247, 0.123077), (0.112385, 0.107526, 0.117360),
             (0.769743, 0.763757, 0.775798)),
}  # fmt: skip
ESTIMATES = ("mean", "median", "iqm", "optimality_gap")
#: Resamples of the tests: enough for the comparison with rliable, a tenth of a second on Atari.
RESAMPLES = 4000
SEED = 2021


@pytest.fixture(scope="module")
def atari_frame():
    return pd.read_csv(bundled_results("atari100k"))


@pytest.fixture(scope="module")
def reference():
    return pd.read_csv(bundled_results("atari_reference"))


@pytest.fixture(scope="module")
def atari(atari_runs):
    return aggregate(atari_runs, resamples=RESAMPLES, seed=SEED)


def by_method(result, field):
    return dict(zip(result.methods, getattr(result, field), strict=True))


def test_atari_iqm_published(atari):
    iqm = by_method(atari, "iqm")
    assert {method: round(float(value), 4) for method, value in iqm.items()} == IQM_FACTS


def test_atari_optimality_gap_published(atari):
    gap = by_method(atari, "optimality_gap")
    assert {method: round(float(gap[method]), 4) for method in GAP_FACTS} == GAP_FACTS
    assert atari.gamma == 1.0


def test_atari_from_first_principles(atari, atari_frame, reference):
    """The same numbers from the definitions, without benchtrust's reader or scipy."""
    ref = reference.set_index("game")
    frame = atari_frame.assign(
        normalised=(atari_frame.score - atari_frame.game.map(ref.random))
        / (atari_frame.game.map(ref.human) - atari_frame.game.map(ref.random))
    )
    for method, group in frame.groupby("algorithm"):
        x = np.sort(group.normalised.to_numpy())
        cut = len(x) // 4  # the middle 50%: 2600 runs -> 650 cut each end; SimPLe's 130 -> 32
        i = atari.methods.index(method)
        assert atari.iqm[i] == pytest.approx(x[cut : len(x) - cut].mean(), rel=1e-12)
        assert atari.optimality_gap[i] == pytest.approx(np.mean(np.maximum(0, 1 - x)), rel=1e-12)
        task_means = group.groupby("game").normalised.mean()
        assert atari.mean[i] == pytest.approx(task_means.mean(), rel=1e-12)
        assert atari.median[i] == pytest.approx(task_means.median(), rel=1e-12)
        assert atari.runs[i] == len(x)


def test_atari_verdict_and_outputs(atari):
    assert atari.leaders == ("SPR",)
    assert atari.rank[atari.methods.index("SPR")] == 1
    assert atari.rank[atari.methods.index("CURL")] == 7
    assert atari.verdict.startswith(
        "SPR leads on the IQM of the human-normalised scores: 0.3366 (95% interval [0.32"
    )
    assert "against 0.2796 (95% interval [0.27" in atari.verdict
    assert "The IQM intervals of SPR and DrQ(eps) do not overlap" in atari.verdict
    assert "later step" not in atari.verdict and "(compare improvement)" in atari.verdict
    text = " ".join(str(atari).split())
    assert f"optimality gap = mean of max(0, {GAMMA} - score), {GAMMA} = 1" in text
    assert "95% stratified bootstrap percentile intervals" in text and "4,000 resamples" in text
    assert "95% intervals mean median IQM optimality gap SPR [0.5" in text
    assert text.endswith(" ".join(atari.verdict.split()))
    frame = atari.to_frame()
    assert list(frame.columns) == [
        "method",
        "runs",
        *(f"{key}{end}" for key in ESTIMATES for end in ("", "_low", "_high")),
        "rank",
    ]
    assert frame.method.tolist()[:2] == ["SPR", "DrQ(eps)"] and frame["rank"].tolist() == list(range(1, 8))
    data = json.loads(json.dumps(atari.to_dict()))
    assert data["leaders"] == ["SPR"] and data["methods"][0]["method"] == "SPR"
    assert (data["resamples"], data["seed"], data["alpha"]) == (4000, 2021, 0.05)
    assert round(data["methods"][0]["iqm"], 4) == 0.3366
    assert data["methods"][0]["iqm_low"] < 0.3366 < data["methods"][0]["iqm_high"]
    assert "AggregateResult(methods=7, tasks=26" in repr(atari) and "resamples=4000" in repr(atari)
    html = atari._repr_html_()
    assert "SPR leads on the IQM" in html and "DrQ(eps)" in html and "IQM [95% interval]" in html


def test_atari_intervals_match_rliable(atari):
    """Within resampling error of rliable's 50,000-resample intervals: the two bootstraps draw different
    resamples, so an end may differ by the Monte Carlo error of a 2.5% (97.5%) quantile, whose standard
    error is about 2.67 σ / sqrt(B) for a normal bootstrap distribution with σ = width / 3.92; the
    tolerance is 5 standard errors of the difference, 5 × 2.67 σ sqrt(1/4000 + 1/50000)."""
    for method, recorded in RLIABLE_50K.items():
        i = atari.methods.index(method)
        for key, (point, low, high) in zip(ESTIMATES, recorded, strict=True):
            assert getattr(atari, key)[i] == pytest.approx(point, abs=5e-7), (method, key)
            tolerance = 5 * 2.67 * (high - low) / 3.92 * np.sqrt(1 / RESAMPLES + 1 / 50_000)
            ci = getattr(atari, f"{key}_ci")
            assert abs(ci.low[i] - low) <= tolerance, (method, key, ci.low[i], low)
            assert abs(ci.high[i] - high) <= tolerance, (method, key, ci.high[i], high)


def test_atari_intervals_cover_the_points_and_a_seed_reproduces(atari, atari_runs):
    for key in ESTIMATES:
        ci = getattr(atari, f"{key}_ci")
        assert (ci.low < getattr(atari, key)).all() and (getattr(atari, key) < ci.high).all(), key
    first, again, other = (aggregate(atari_runs, resamples=300, seed=seed) for seed in (7, 7, 8))
    np.testing.assert_array_equal(again.iqm_ci.low, first.iqm_ci.low)
    np.testing.assert_array_equal(again.optimality_gap_ci.high, first.optimality_gap_ci.high)
    assert not np.array_equal(other.iqm_ci.low, first.iqm_ci.low)
    generator = aggregate(atari_runs, resamples=300, seed=np.random.default_rng(7))
    np.testing.assert_array_equal(generator.mean_ci.low, first.mean_ci.low)  # an int seeds a Generator
    assert generator.seed is None and first.seed == 7


def test_progress_is_reported_in_chunks(atari_runs):
    calls = []
    aggregate(atari_runs, resamples=500, seed=0, progress=lambda done, total: calls.append((done, total)))
    assert len(calls) > 2 and calls[-1] == (500, 500)
    assert all(a[0] <= b[0] for a, b in itertools.pairwise(calls))
    assert {total for _, total in calls} == {500}


def test_direction_flip_gives_the_same_ranking(atari_frame):
    higher = aggregate(read_task_scores(atari_frame, **ATARI), resamples=0)
    negated = atari_frame.assign(score=-atari_frame.score)
    lower = aggregate(read_task_scores(negated, **{**ATARI, "direction": "lower"}), resamples=0)
    np.testing.assert_array_equal(higher.rank, lower.rank)
    np.testing.assert_allclose(lower.iqm, -higher.iqm, rtol=1e-12)
    np.testing.assert_allclose(lower.median, -higher.median, rtol=1e-12)
    assert higher.leaders == lower.leaders
    assert np.isnan(higher.optimality_gap).all() and higher.gamma is None  # raw scores: no target
    assert np.isnan(higher.iqm_ci.low).all() and "resamples=0" in higher.verdict


def test_direction_flip_mirrors_the_intervals(atari_frame):
    """Negated scores with the opposite direction resample the same runs: mirrored intervals, same gap."""
    higher = aggregate(read_task_scores(atari_frame, normalise="minmax", **ATARI), resamples=300, seed=3)
    negated = atari_frame.assign(score=-atari_frame.score)
    scores = read_task_scores(negated, normalise="minmax", **{**ATARI, "direction": "lower"})
    lower = aggregate(scores, resamples=300, seed=3)
    assert (higher.gamma, lower.gamma) == (1.0, 0.0)
    np.testing.assert_array_equal(higher.rank, lower.rank)
    np.testing.assert_allclose(lower.optimality_gap, higher.optimality_gap, rtol=1e-12)
    np.testing.assert_allclose(lower.iqm, 1 - higher.iqm, rtol=1e-12)
    np.testing.assert_allclose(lower.iqm_ci.low, 1 - higher.iqm_ci.high, rtol=1e-12)
    np.testing.assert_allclose(lower.median_ci.high, 1 - higher.median_ci.low, rtol=1e-12)
    np.testing.assert_allclose(lower.optimality_gap_ci.low, higher.optimality_gap_ci.low, rtol=1e-12)


def test_task_method_and_row_order_do_not_matter(atari_frame, reference):
    """The same seed gives the same intervals whatever the order of the tasks, methods and rows."""
    scores = read_task_scores(atari_frame, normalise="reference", reference=reference, **ATARI)
    result = aggregate(scores, resamples=200, seed=5)
    order = atari_frame.game.unique()[::-1]
    reordered = atari_frame.assign(game=pd.Categorical(atari_frame.game, categories=order, ordered=True))
    reordered = reordered.sort_values(["game", "algorithm"], ascending=[True, False], kind="stable")
    reordered = reordered.sample(frac=1.0, random_state=1).assign(game=lambda f: f.game.astype(str))
    shuffled = read_task_scores(reordered, normalise="reference", reference=reference.iloc[::-1], **ATARI)
    assert shuffled.tasks != scores.tasks and shuffled.methods != scores.methods
    again = aggregate(shuffled, resamples=200, seed=5)
    for field in ("rank", *ESTIMATES, *(f"{key}_ci" for key in ESTIMATES)):
        for method in result.methods:
            i, j = result.methods.index(method), again.methods.index(method)
            mine, theirs = getattr(result, field), getattr(again, field)
            if field.endswith("_ci"):
                assert (theirs.low[j], theirs.high[j]) == pytest.approx(
                    (mine.low[i], mine.high[i]), rel=1e-12
                )
            else:
                assert theirs[j] == pytest.approx(mine[i], rel=1e-12), (field, method)


def test_one_task():
    frame = pd.DataFrame(
        {
            "method": ["A"] * 4 + ["B"] * 4,
            "task": "only",
            "run": [1, 2, 3, 4] * 2,
            "score": [1, 2, 3, 4, 2, 3, 4, 9],
        }
    )
    result = aggregate(read_task_scores(frame, direction="higher"), resamples=200, seed=0)
    assert result.tasks == 1
    assert result.iqm.tolist() == [2.5, 3.5]
    assert result.median.tolist() == [2.5, 4.5]  # the median of one task's mean is that mean
    assert result.leaders == ("B",)
    # a resample of 4 runs keeps its 2 middle ones: the IQM stays within the middle scores
    assert 1 <= result.iqm_ci.low[0] <= result.iqm_ci.high[0] <= 4
    np.testing.assert_array_equal(result.median_ci.low, result.mean_ci.low)  # one task: median = mean
    # 4 runs each: too few for the intervals to judge the lead (FEW_RUNS), so nothing is decided
    assert "Too few runs to judge the lead (B 4, A 4 in all, fewer than 10)" in result.verdict
    assert "overlap" not in result.verdict


def test_one_method():
    frame = pd.DataFrame({"method": "A", "task": ["x", "y"], "run": 1, "score": [1.0, 2.0]})
    result = aggregate(read_task_scores(frame, direction="higher"), gamma=1.5, resamples=100, seed=0)
    assert result.verdict.startswith("One method, A:")
    assert result.optimality_gap.tolist() == [0.25]  # mean of max(0, 1.5 - x) over 1 and 2


def test_one_run_per_task_has_nothing_to_resample():
    frame = pd.DataFrame(
        {"method": ["A", "A", "B", "B"], "task": ["x", "y"] * 2, "run": 1, "score": [1.0, 2.0, 0.5, 0.7]}
    )
    result = aggregate(read_task_scores(frame, direction="higher"), resamples=100, seed=0)
    assert result.single_run.tolist() == [True, True]
    for key in ("mean", "median", "iqm"):
        ci = getattr(result, f"{key}_ci")
        np.testing.assert_array_equal(ci.low, getattr(result, key))  # degenerate: exactly the point
        np.testing.assert_array_equal(ci.high, getattr(result, key))
    assert "A and B have one run per task: the stratified bootstrap has nothing to resample" in result.verdict
    assert "overlap" not in result.verdict
    assert result.to_dict()["methods"][0]["single_run"] is True


def test_ties_share_the_lead():
    frame = pd.DataFrame(
        {
            "method": ["A", "A", "B", "B", "C", "C"],
            "task": ["x", "y"] * 3,
            "run": 1,
            "score": [1.0, 2.0, 2.0, 1.0, 0.0, 0.5],
        }
    )
    result = aggregate(read_task_scores(frame, direction="higher"), resamples=0)
    assert result.rank.tolist() == [1, 1, 3]
    assert result.leaders == ("A", "B")
    assert result.verdict.startswith("A and B tie for the lead on the IQM of the scores: 1.5")
    lower = aggregate(read_task_scores(frame, direction="lower"), resamples=0)
    assert lower.leaders == ("C",) and lower.rank.tolist() == [2, 2, 1]
    same = aggregate(read_task_scores(frame.assign(score=1.0), direction="higher"), resamples=0)
    assert same.verdict.startswith("All 3 methods tie")


def test_tied_scores_resample_exactly():
    """Many equal scores around the cuts: every resampled IQM is a trimmed mean of the tied values."""
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {
            "method": "A",
            "task": np.repeat(["x", "y", "z"], 40),
            "run": np.tile(np.arange(40), 3),
            "score": rng.integers(0, 3, size=120).astype(float),
        }
    )
    result = aggregate(read_task_scores(frame, direction="higher"), resamples=300, seed=1)
    assert 0 <= result.iqm_ci.low[0] <= result.iqm[0] <= result.iqm_ci.high[0] <= 2


def test_missing_runs_keep_the_runs_each_method_has(atari_frame, reference):
    dropped = atari_frame.drop(atari_frame.index[:50])  # DER, Alien: runs 1-50 dropped
    scores = read_task_scores(dropped, normalise="reference", reference=reference, **ATARI)
    result = aggregate(scores, resamples=300, seed=0)
    assert result.missing == 1 and f"1 method {TIMES} task pairs have missing runs" in result.verdict
    der = scores.scores[0]
    assert result.runs[0] == 2550
    assert result.mean[0] == pytest.approx(
        np.nanmean(der, axis=1).mean(), rel=1e-12
    )  # every task counts once
    x = np.sort(der[~np.isnan(der)])
    assert result.iqm[0] == pytest.approx(x[637:-637].mean(), rel=1e-12)  # pooled: ⌊2550/4⌋ = 637
    assert result.iqm_ci.low[0] < result.iqm[0] < result.iqm_ci.high[0]


def test_gamma_argument_and_errors(atari_runs):
    result = aggregate(atari_runs, gamma=0.5, resamples=0)
    assert result.gamma == 0.5
    default = aggregate(atari_runs, resamples=0)
    assert (result.optimality_gap < by_method(default, "optimality_gap")["DER"]).all()
    with pytest.raises(InputError, match=r"gamma: expected a number, got 'one'"):
        aggregate(atari_runs, gamma="one")
    with pytest.raises(
        InputError, match=r"scores: expected TaskScores \(from benchtrust.compare.read_task_scores\)"
    ):
        aggregate(pd.DataFrame({"score": [1.0]}))
    with pytest.raises(InputError, match=r"resamples: expected a whole number >= 0, got -5"):
        aggregate(atari_runs, resamples=-5)
    with pytest.raises(InputError, match=r"alpha: expected a value strictly between 0 and 1"):
        aggregate(atari_runs, alpha=1.5)
    with pytest.raises(InputError, match=r"progress: expected a callable"):
        aggregate(atari_runs, resamples=50, progress="bar")


def test_raw_scores_have_no_gap_unless_gamma_is_given():
    frame = pd.DataFrame({"method": ["A", "B"], "task": "x", "run": 1, "score": [1.0, 2.0]})
    result = aggregate(read_task_scores(frame, direction="higher"), resamples=50, seed=0)
    assert isinstance(result, AggregateResult)
    assert result.gamma is None and result.to_dict()["methods"][0]["optimality_gap"] is None
    assert result.to_dict()["methods"][0]["optimality_gap_low"] is None
    assert "optimality gap not computed" in str(result)


def test_html_escapes_method_names():
    frame = pd.DataFrame({"method": ["<b>A</b>", "B"], "task": "x", "run": 1, "score": [1.0, 2.0]})
    html = aggregate(read_task_scores(frame, direction="higher"), resamples=50, seed=0)._repr_html_()
    assert "<b>A</b>" not in html and "&lt;b&gt;A&lt;/b&gt;" in html


@settings(max_examples=25, deadline=None)
@given(
    runs=st.lists(st.integers(1, 6), min_size=1, max_size=4),
    data=st.data(),
)
def test_resampled_iqm_equals_scipy_on_every_resample(runs, data):
    """The IQM of each resample, read off its counts, is scipy's 25% trimmed mean of the resampled runs."""
    from scipy import stats

    from benchtrust.compare._bootstrap import resample_counts, trim_plan, trimmed_means

    width = max(runs)
    values = np.full((len(runs), width), np.nan)
    for t, n in enumerate(runs):
        values[t, :n] = data.draw(st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.5]), min_size=n, max_size=n))
    plan = trim_plan(values)
    counts = next(resample_counts(runs, 20, np.random.default_rng(data.draw(st.integers(0, 99)))))
    sums = counts.reshape(20, -1) @ plan.weights.reshape(-1, 3)
    got = trimmed_means(plan, counts, sums)
    for i in range(20):
        sample = np.concatenate(
            [np.repeat(values[t, :n], counts[i, t, :n].astype(int)) for t, n in enumerate(runs)]
        )
        assert got[i] == pytest.approx(stats.trim_mean(sample, 0.25), abs=1e-12)
