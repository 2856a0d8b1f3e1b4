"""P(A > B), its exact percentile-bootstrap interval and the decision (paper §4.1, C.4-C.6)."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from benchtrust import InputError
from benchtrust.compare import OutperformResult, probability_of_outperforming, sample_size
from benchtrust.compare._pipelines import _outperform as module
from benchtrust.compare._pipelines._outperform import _exact_interval, _sum_pmf, _sum_tails


def scores_from_counts(wins, ties, losses):
    """Paired scores with the given numbers of wins, ties and losses of A (in that order)."""
    b = np.linspace(0.5, 0.9, wins + ties + losses)
    a = b + np.concatenate([np.full(wins, 0.01), np.zeros(ties), np.full(losses, -0.01)])
    return a, b


def random_scores(rng, n, *, decimals=None, shift=0.004):
    a = rng.normal(0.80, 0.01, n)
    b = a - rng.normal(shift, 0.01, n)
    if decimals is not None:
        a, b = np.round(a, decimals), np.round(b, decimals)
    return a, b


# ----------------------------------------------------------------------------------------------- Eq. 9


def test_equation_9_proportion_of_wins_ties_count_half():
    a, b = scores_from_counts(6, 2, 2)
    r = probability_of_outperforming(a, b)
    assert (r.wins, r.ties, r.losses, r.n_pairs) == (6, 2, 2, 10)
    assert r.p_a_beats_b == pytest.approx((6 + 0.5 * 2) / 10)
    assert isinstance(r, OutperformResult)


def test_probabilities_of_a_and_b_add_to_one_and_intervals_mirror():
    """Ties count one half, so P(A > B) + P(B > A) = 1, and the exact interval of B is 1 - that of A."""
    rng = np.random.default_rng(3)
    for _ in range(20):
        a, b = random_scores(rng, int(rng.integers(2, 60)), decimals=2)
        ab = probability_of_outperforming(a, b)
        ba = probability_of_outperforming(b, a)
        assert ab.p_a_beats_b + ba.p_a_beats_b == pytest.approx(1.0)
        assert ba.ci[0] == pytest.approx(1 - ab.ci[1], abs=1e-12)
        assert ba.ci[1] == pytest.approx(1 - ab.ci[0], abs=1e-12)


# ------------------------------------------------------------------------- exact bootstrap distribution


@pytest.mark.parametrize(("wins", "ties", "losses"), [(3, 2, 2), (1, 0, 4), (0, 3, 2), (4, 1, 0), (2, 2, 2)])
def test_exact_distribution_equals_enumeration_of_all_resamples(wins, ties, losses):
    """The pmf of S (the resampled sum in halves) equals brute-force enumeration of the N^N resamples."""
    n = wins + ties + losses
    values = [2] * wins + [1] * ties + [0] * losses
    counts = np.zeros(2 * n + 1)
    for resample in itertools.product(values, repeat=n):
        counts[sum(resample)] += 1
    expected = counts / counts.sum()
    pmf = _sum_pmf(n, wins, ties)
    np.testing.assert_allclose(pmf, expected, rtol=1e-12, atol=1e-15)
    below, above = _sum_tails(np.arange(2 * n + 1), n, wins, ties)
    np.testing.assert_allclose(below, np.cumsum(expected), rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(above, np.cumsum(expected[::-1])[::-1], rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize(("n", "wins"), [(50, 31), (29, 0), (200, 150), (1000, 537)])
def test_without_ties_the_resampled_wins_are_binomial(n, wins):
    pmf = _sum_pmf(n, wins, 0)
    np.testing.assert_allclose(pmf[1::2], 0.0, atol=0)
    k = np.arange(n + 1)
    np.testing.assert_allclose(pmf[::2], stats.binom.pmf(k, n, wins / n), rtol=1e-9, atol=1e-250)
    below, above = _sum_tails(2 * k, n, wins, 0)
    np.testing.assert_allclose(below, stats.binom.cdf(k, n, wins / n), rtol=1e-9, atol=1e-250)
    np.testing.assert_allclose(above, stats.binom.sf(k - 1, n, wins / n), rtol=1e-9, atol=1e-250)


@pytest.mark.parametrize(("n", "wins", "ties"), [(50, 23, 17), (300, 100, 50), (1999, 1000, 300), (40, 0, 0)])
def test_binary_search_on_the_mixture_agrees_with_the_convolution(n, wins, ties, monkeypatch):
    by_convolution = _exact_interval(n, wins, ties, 0.05)
    monkeypatch.setattr(module, "_CONVOLUTION_LIMIT", 0)
    assert _exact_interval(n, wins, ties, 0.05) == by_convolution


def test_exact_distribution_matches_resampled_means():
    """The exact cdf of the bootstrap mean against the empirical cdf of 200,000 resampled means (DKW)."""
    a, b = scores_from_counts(23, 17, 10)
    n, resamples = a.size, 200_000
    indicators = (a > b) + 0.5 * (a == b)
    rng = np.random.default_rng(2024)
    means = indicators[rng.integers(0, n, size=(resamples, n))].mean(axis=1)
    halves = np.rint(means * 2 * n).astype(int)
    empirical = np.cumsum(np.bincount(halves, minlength=2 * n + 1)) / resamples
    exact = np.cumsum(_sum_pmf(n, 23, 17))
    # DKW: P(sup |F_B - F| > e) <= 2 exp(-2 B e^2) = 2e-14 for e = 4 / sqrt(B).
    assert np.max(np.abs(empirical - exact)) < 4 / np.sqrt(resamples)


def test_exact_interval_equals_resampled_interval_with_many_resamples():
    """With B = 400,000 resamples the resampled ends are the exact ones, wherever the exact tail
    probabilities are not within 0.0015 of α/2 at the ends (there the resampled end could fall on either
    of two atoms; the standard error of the empirical tail is 2.5e-4, so the margin is 6 of them)."""
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(30):
        n = int(rng.integers(8, 40))
        a, b = random_scores(rng, n, decimals=int(rng.integers(2, 5)))
        exact = probability_of_outperforming(a, b)
        pmf = _sum_pmf(n, exact.wins, exact.ties)
        below, above = np.cumsum(pmf), np.cumsum(pmf[::-1])[::-1]
        low, high = (round(x * 2 * n) for x in exact.ci)
        margins = [below[low] - 0.025, 0.025 - (below[low - 1] if low else 0.0)]
        margins += [above[high] - 0.025, 0.025 - (above[high + 1] if high < 2 * n else 0.0)]
        if min(margins) < 0.0015:
            continue
        resampled = probability_of_outperforming(a, b, resamples=400_000, seed=int(rng.integers(1 << 30)))
        assert resampled.ci == pytest.approx(exact.ci, abs=1e-12)
        assert resampled.p_a_beats_b == exact.p_a_beats_b
        assert resampled.method == "resampled, 400000 resamples"
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("decimals", [None, 2])
def test_resampled_interval_is_scipy_bootstrap_percentile(seed, decimals):
    """Same generator, same resamples: the resampled interval is scipy.stats.bootstrap's, to rounding."""
    rng = np.random.default_rng(100 + seed)
    a, b = random_scores(rng, int(rng.integers(5, 70)), decimals=decimals)
    ours = probability_of_outperforming(a, b, resamples=3000, seed=np.random.default_rng(seed), alpha=0.1)
    indicators = (a > b) + 0.5 * (a == b)
    theirs = stats.bootstrap(
        (indicators,),
        np.mean,
        n_resamples=3000,
        method="percentile",
        confidence_level=0.9,
        vectorized=True,
        rng=np.random.default_rng(seed),
    ).confidence_interval
    assert ours.ci == pytest.approx((theirs.low, theirs.high), abs=1e-12)


def test_resampling_in_chunks_draws_the_same_resamples(monkeypatch):
    a, b = random_scores(np.random.default_rng(5), 40, decimals=2)
    whole = probability_of_outperforming(a, b, resamples=5000, seed=9)
    monkeypatch.setattr(module, "_INDICES_PER_CHUNK", 40 * 7)
    assert probability_of_outperforming(a, b, resamples=5000, seed=9).ci == whole.ci


# ------------------------------------------------------------------------------------------- ties


def test_all_ties_give_one_half_with_a_degenerate_interval():
    a = [0.8, 0.7, 0.9]
    r = probability_of_outperforming(a, list(a))
    assert (r.p_a_beats_b, r.ci, r.ties) == (0.5, (0.5, 0.5), 3)
    assert not r.significant and not r.meaningful


def test_all_wins_give_a_degenerate_interval_at_one():
    r = probability_of_outperforming([2.0, 3.0], [1.0, 2.0])
    assert (r.p_a_beats_b, r.ci) == (1.0, (1.0, 1.0))
    assert r.significant and r.meaningful


def test_ties_interval_lies_on_the_half_lattice():
    a, b = scores_from_counts(7, 5, 3)
    r = probability_of_outperforming(a, b)
    for end in r.ci:
        assert end * 2 * r.n_pairs == pytest.approx(round(end * 2 * r.n_pairs), abs=1e-9)


# ---------------------------------------------------------------------------------- lower is better


def test_direction_lower_equals_negated_scores_and_swapped_arguments():
    rng = np.random.default_rng(8)
    a, b = random_scores(rng, 30, decimals=2)
    lower = probability_of_outperforming(a, b, direction="lower")
    negated = probability_of_outperforming(-a, -b)
    swapped = probability_of_outperforming(b, a)
    assert lower.p_a_beats_b == negated.p_a_beats_b == swapped.p_a_beats_b
    assert lower.ci == negated.ci == swapped.ci
    assert (lower.direction, negated.direction) == ("lower", "higher")
    unpaired = probability_of_outperforming(a, b, direction="lower", paired=False, seed=4)
    assert unpaired.p_a_beats_b == probability_of_outperforming(-a, -b, paired=False, seed=4).p_a_beats_b


# ------------------------------------------------------------------------------------ paired or not


def test_unpaired_runs_are_paired_at_random_reproducibly():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=12), rng.normal(size=20)
    first = probability_of_outperforming(a, b, paired=False, seed=5)
    assert first.to_dict() == probability_of_outperforming(a, b, paired=False, seed=5).to_dict()
    assert first.n_pairs == 12 and not first.paired
    # The pairing is what the docstring says: shuffle each with the seed, keep the first 12 of each.
    g = np.random.default_rng(5)
    x = a[g.permutation(12)[:12]]
    y = b[g.permutation(20)[:12]]
    assert first.wins == np.count_nonzero(x > y)


def test_pairing_removes_the_shared_variance():
    """A is always 0.01 better on the same split, but splits vary by 0.1: paired P(A > B) = 1; at random
    pairings the split variance drowns the difference."""
    rng = np.random.default_rng(2)
    split = rng.normal(0.8, 0.1, 40)
    a, b = split + 0.01, split
    paired = probability_of_outperforming(a, b)
    assert paired.p_a_beats_b == 1.0 and paired.significant
    unpaired = probability_of_outperforming(a, b, paired=False, seed=0)
    assert 0.3 < unpaired.p_a_beats_b < 0.8
    assert not unpaired.significant


def test_unpaired_runs_separated_in_range_win_whatever_the_pairing():
    r = probability_of_outperforming([5.0, 6.0, 7.0], [1.0, 2.0, 3.0, 4.0], paired=False, seed=0)
    assert (r.p_a_beats_b, r.n_pairs) == (1.0, 3)


# ------------------------------------------------------------------------------------------ decisions


def test_significance_needs_the_lower_end_strictly_above_one_half():
    """20 pairs: 14 wins give CI_min = 0.5 exactly (not significant), 15 wins give more."""
    at = probability_of_outperforming(*scores_from_counts(14, 0, 6))
    assert at.ci[0] == 0.5 and not at.significant
    assert (
        "not significant" in probability_of_outperforming(*scores_from_counts(14, 0, 6), beta=0.5).conclusion
    )
    above = probability_of_outperforming(*scores_from_counts(15, 0, 5))
    assert above.ci[0] > 0.5 and above.significant


def test_meaningful_needs_the_upper_end_strictly_above_gamma():
    a, b = scores_from_counts(15, 0, 5)
    high = probability_of_outperforming(a, b).ci[1]
    assert high < 1
    assert not probability_of_outperforming(a, b, gamma=high).meaningful
    assert probability_of_outperforming(a, b, gamma=high - 1e-9).meaningful


def test_conclusions_of_the_three_scenarios():
    both = probability_of_outperforming(*scores_from_counts(40, 0, 10))
    assert both.significant and both.meaningful
    assert "significant (lower end" in both.conclusion and "A is better than B" in both.conclusion
    # Significant but not meaningful: many pairs, P(A > B) about 0.6.
    not_meaningful = probability_of_outperforming(*scores_from_counts(600, 0, 400))
    assert not_meaningful.significant and not not_meaningful.meaningful
    assert "not meaningful" in not_meaningful.conclusion
    assert "do not conclude" in not_meaningful.conclusion
    noise = probability_of_outperforming(*scores_from_counts(15, 0, 15))
    assert not noise.significant
    assert "draw no conclusion" in noise.conclusion
    reverse = probability_of_outperforming(*scores_from_counts(2, 0, 38))
    assert "B may be the better one" in reverse.conclusion


def test_alpha_sets_the_level():
    a, b = scores_from_counts(30, 4, 16)
    wide = probability_of_outperforming(a, b, alpha=0.01).ci
    narrow = probability_of_outperforming(a, b, alpha=0.2).ci
    assert wide[0] <= narrow[0] and wide[1] >= narrow[1]
    assert "99% CI" in probability_of_outperforming(a, b, alpha=0.01).conclusion


# ------------------------------------------------------------------------------- too few runs (C.3)


def test_two_runs_each_are_too_few_to_conclude():
    """Two winning pairs: the bootstrap interval is [1, 1], significant and meaningful, yet C.3 asks for 29
    pairs at γ = 0.75, α = β = 0.05: the verdict is "too few runs", estimate and interval still given."""
    r = probability_of_outperforming([0.91, 0.92], [0.81, 0.82])
    assert (r.p_a_beats_b, r.ci, r.significant, r.meaningful) == (1.0, (1.0, 1.0), True, True)
    assert (r.runs_needed, r.enough_runs, r.a_is_better) == (
        sample_size(0.75, alpha=0.05, beta=0.05),
        False,
        False,
    )
    assert r.verdict.startswith("Too few runs to conclude: 29 of each pipeline are needed")
    assert "is better than B" not in r.verdict
    assert "probability 1.00 (95% CI [1.00, 1.00])" in r.verdict and "compare sample-size" in r.verdict
    assert " ".join(r.verdict.split()) in " ".join(str(r).split())
    assert "2 pairs, too few to conclude" in str(r)
    data = r.to_dict()
    assert (data["enough_runs"], data["runs_needed"], data["beta"], data["ci"]) == (
        False,
        29,
        0.05,
        [1.0, 1.0],
    )
    html = r._repr_html_()
    assert "Too few runs to conclude" in html and "2 pairs, too few to conclude" in html


@pytest.mark.parametrize(("gamma", "alpha", "beta"), [(0.75, 0.05, 0.05), (0.75, 0.05, 0.2), (0.9, 0.1, 0.1)])
def test_the_runs_needed_follow_gamma_alpha_and_beta(gamma, alpha, beta):
    """One pair fewer than C.3's N concludes nothing; N pairs with the same share of wins conclude."""
    needed = sample_size(gamma, alpha=alpha, beta=beta)
    options = {"gamma": gamma, "alpha": alpha, "beta": beta}
    few = probability_of_outperforming(*scores_from_counts(needed - 1, 0, 0), **options)
    enough = probability_of_outperforming(*scores_from_counts(needed, 0, 0), **options)
    assert few.runs_needed == enough.runs_needed == needed
    assert few.significant and few.meaningful and not few.a_is_better
    assert f"Too few runs to conclude: {needed} of each" in few.verdict
    assert enough.a_is_better and "A is better than B in the conditions" in enough.verdict


def test_unpaired_runs_count_their_pairs():
    """Random pairing keeps min(k_A, k_B) pairs: 40 runs of A and 20 of B are 20 pairs, too few."""
    r = probability_of_outperforming(np.linspace(2, 3, 40), np.linspace(0, 1, 20), paired=False, seed=0)
    assert (r.n_pairs, r.enough_runs, r.p_a_beats_b) == (20, False, 1.0)
    assert "the runs give 20 pairs" in r.verdict


def test_the_command_says_too_few_runs_in_text_json_and_html(tmp_path):
    from typer.testing import CliRunner

    from benchtrust import cli

    runs = tmp_path / "runs.csv"
    runs.write_text("algorithm,score\nA,0.91\nA,0.92\nB,0.81\nB,0.82\n", encoding="utf-8")
    base = ["compare", "outperform", str(runs), "--a", "A", "--b", "B"]
    text = CliRunner().invoke(cli.app, base)
    assert text.exit_code == 0
    words = " ".join(text.stdout.split())
    assert (
        "Too few runs to conclude: 29 of each pipeline are needed" in words and "compare sample-size" in words
    )
    assert "[1.0000, 1.0000]" in words
    report = tmp_path / "report.html"
    out = CliRunner().invoke(cli.app, [*base, "--beta", "0.2", "--json", "--report", str(report)])
    assert out.exit_code == 0
    data = json.loads(out.stdout)
    assert (data["enough_runs"], data["runs_needed"]) == (False, sample_size(0.75, beta=0.2))
    assert data["conclusion"].startswith(f"Too few runs to conclude: {data['runs_needed']} of each")
    assert "Too few runs to conclude" in report.read_text(encoding="utf-8")


# --------------------------------------------------------------------------------------- result type


def test_result_repr_and_to_dict_are_plain():
    r = probability_of_outperforming(*scores_from_counts(8, 1, 3), gamma=0.7)
    data = r.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert set(data) >= {
        "p_a_beats_b",
        "ci",
        "significant",
        "meaningful",
        "n_pairs",
        "runs_needed",
        "enough_runs",
        "gamma",
        "alpha",
        "beta",
        "conclusion",
        "paired",
        "direction",
    }
    text = repr(r)
    assert text.startswith("OutperformResult(p_a_beats_b=0.7083, ci95%=(")
    assert "gamma=0.7" in text
    with pytest.raises(AttributeError):
        r.gamma = 0.8  # frozen


def test_inputs_are_not_modified():
    a, b = np.array([0.3, 0.2, 0.5]), np.array([0.1, 0.4, 0.2])
    a0, b0 = a.copy(), b.copy()
    probability_of_outperforming(a, b, direction="lower", paired=False, seed=1, resamples=50)
    np.testing.assert_array_equal(a, a0)
    np.testing.assert_array_equal(b, b0)


# ------------------------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"a": [0.5]}, "a: expected at least 2 runs"),
        ({"b": [0.5]}, "b: expected at least 2 runs"),
        ({"a": []}, "a: expected at least 2 runs"),
        ({"b": [0.1, 0.2, 0.3, 0.4]}, "b: paired runs need as many runs as a"),
        ({"a": [0.1, float("nan"), 0.3]}, "a: run 2 (1-based) is nan"),
        ({"b": [0.1, 0.2, float("inf")]}, "b: run 3 (1-based) is inf"),
        ({"a": [[0.1, 0.2], [0.3, 0.4]]}, "a: expected a 1-D sequence"),
        ({"a": ["x", "y", "z"]}, "a: expected numeric scores"),
        ({"a": "0.1 0.2"}, "a: expected a sequence of scores"),
        ({"gamma": 0.5}, "gamma: expected a value strictly between 0.5 and 1"),
        ({"gamma": 0.3}, "gamma: expected a value strictly between 0.5 and 1"),
        ({"gamma": 1.0}, "gamma: expected a value strictly between 0 and 1"),
        ({"alpha": 0.0}, "alpha: expected a value strictly between 0 and 1"),
        ({"alpha": 1.5}, "alpha: expected a value strictly between 0 and 1"),
        ({"beta": 0.0}, "beta: expected a value strictly between 0 and 1"),
        ({"resamples": 0}, "resamples: expected a positive whole number"),
        ({"resamples": 2.5}, "resamples: expected a positive whole number"),
        ({"seed": -1}, "seed: expected a non-negative int"),
        ({"seed": "abc"}, "seed: expected a non-negative int"),
        ({"paired": "yes"}, "paired: expected True or False"),
        ({"direction": "up"}, "direction: expected one of 'higher', 'lower', got 'up'"),
    ],
)
def test_bad_input_names_the_argument(kwargs, named):
    args = {"a": [0.1, 0.2, 0.3], "b": [0.2, 0.1, 0.3], **kwargs}
    a, b = args.pop("a"), args.pop("b")
    with pytest.raises(InputError) as info:
        probability_of_outperforming(a, b, **args)
    assert str(info.value).startswith(named)


def test_unequal_lengths_are_fine_unpaired():
    r = probability_of_outperforming([0.1, 0.2, 0.3], [0.2, 0.1, 0.3, 0.4], paired=False, seed=0)
    assert r.n_pairs == 3


# ------------------------------------------------------------------------------------------ properties


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.integers(0, 40), min_size=3, max_size=3).filter(lambda c: sum(c) >= 2),
    alpha=st.floats(0.001, 0.5),
)
def test_exact_interval_properties(counts, alpha):
    """For any wins, ties and losses: the interval holds P(A > B), its ends lie on the 1/(2N) lattice,
    B's interval mirrors A's, and the binary search agrees with the convolution."""
    wins, ties, losses = counts
    n = wins + ties + losses
    low, high = _exact_interval(n, wins, ties, alpha)
    p = (wins + 0.5 * ties) / n
    assert 0 <= low <= p <= high <= 1
    assert low * 2 * n == pytest.approx(round(low * 2 * n), abs=1e-9)
    assert high * 2 * n == pytest.approx(round(high * 2 * n), abs=1e-9)
    mirror = _exact_interval(n, losses, ties, alpha)
    assert mirror == pytest.approx((1 - high, 1 - low), abs=1e-12)
    original = module._CONVOLUTION_LIMIT
    module._CONVOLUTION_LIMIT = 0
    try:
        assert _exact_interval(n, wins, ties, alpha) == (low, high)
    finally:
        module._CONVOLUTION_LIMIT = original
