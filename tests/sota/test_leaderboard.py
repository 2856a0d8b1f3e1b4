"""leaderboard: a sober state of the art from a real leaderboard (paper §5, §5.1.1-5.1.2, Table 3).

Everything is recomputed here independently of the code under test:

* the best score's distribution for given true accuracies, from scipy's binomial distribution and, for
  dependent teams, Eq. 10-11 written out again with an explicit convolution over the reference
  classifier's count K (:func:`correct_cdfs`);
* the bootstrap over teams three ways: its closed form, the average of many explicit resamples, and a
  brute-force simulation that resamples teams and simulates the test set;
* the crop equation E_c = θ̂_max through the public :func:`best_of`, the conservative crop through the
  pooled distribution above, the counts of teams by counting, the naive interval by
  :func:`clopper_pearson`.
"""

import hashlib
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from benchtrust import InputError
from benchtrust.sota import (
    LeaderboardResult,
    best_of,
    bundled_leaderboard,
    clopper_pearson,
    leaderboard,
    read_leaderboard,
    sample_auc,
)
from benchtrust.sota._best_of import _exact, _prepare

ALPHA = 0.05
OLD_TITANIC = Path(__file__).resolve().parent.parent / "data" / "titanic-2019-10-18.csv"


# --- independent references ---------------------------------------------------------------------------------


def eq10_11(theta, theta0, rho):
    """P(Y_j = 1 | Y0 = 1) and P(Y_j = 1 | Y0 = 0) (paper Eq. 10 and 11)."""
    shared = rho * np.sqrt(theta * (1 - theta) * theta0 * (1 - theta0))
    return (shared + theta * theta0) / theta0, (-shared + theta * (1 - theta0)) / (1 - theta0)


def eq12_admits(theta, theta0, rho):
    """Eq. 12: which θ_j the dependence model admits (the paper drops the others, §5.1.1)."""
    low = rho**2 * theta0 / (1 - theta0 + rho**2 * theta0)
    return theta >= low - 1e-12


def correct_cdfs(theta, n, rho, theta0):
    """G[j, i, c] = P(C_j <= c | K = k_i) for the correct count C_j of team j, and the weights P(K = k_i).

    Independent teams (ρ = 0): one "k" of weight 1 and C_j ~ B(n, θ_j). Dependent teams: K ~ B(n, θ0) is
    the reference classifier's correct count and, given K = k, C_j = B(k, Eq. 10) + B(n - k, Eq. 11),
    convolved explicitly. Values of k with P(K = k) < 1e-18 are left out.
    """
    theta = np.asarray(theta, dtype=float)
    c = np.arange(n + 1)
    if rho == 0:
        return stats.binom.cdf(c, n, theta[:, None])[:, None, :], np.ones(1)
    k = np.arange(n + 1)
    weights = stats.binom.pmf(k, n, theta0)
    k, weights = k[weights > 1e-18], weights[weights > 1e-18]
    right, wrong = eq10_11(theta, theta0, rho)
    cdfs = np.empty((theta.size, k.size, n + 1))
    for j in range(theta.size):
        for i, kk in enumerate(k):
            pmf = np.convolve(
                stats.binom.pmf(np.arange(kk + 1), kk, right[j]),
                stats.binom.pmf(np.arange(n - kk + 1), n - kk, wrong[j]),
            )
            cdfs[j, i] = np.minimum(np.cumsum(pmf), 1.0)
    return cdfs, weights / weights.sum()


def pooled_cdf(theta, n, rho, theta0):
    """P(best <= c / n), c = 0..n, of the bootstrap over teams pooled over resamples (B -> infinity).

    A resample draws m teams with replacement; pooled over resamples the best score is that of m teams
    drawn independently from the list, so given K = k the cdf is (mean_j G_j)^m.
    """
    cdfs, weights = correct_cdfs(theta, n, rho, theta0)
    return weights @ cdfs.mean(axis=0) ** len(theta)


def resample_cdfs(theta, n, rho, theta0, resamples):
    """P(best <= c / n) of each resample: rows of ``resamples`` count how often each team was drawn."""
    cdfs, weights = correct_cdfs(theta, n, rho, theta0)
    logs = np.log(np.maximum(cdfs, 1e-300)).reshape(len(theta), -1)
    out = np.empty((resamples.shape[0], n + 1))
    for first in range(0, resamples.shape[0], 250):
        chunk = np.exp(resamples[first : first + 250] @ logs).reshape(-1, weights.size, n + 1)
        out[first : first + 250] = np.einsum("i,bic->bc", weights, chunk)
    return out


def on_grid(result, n):
    """A BestOfResult's cdf P(best <= c / n) on the whole lattice c = 0..n."""
    full = np.zeros(n + 1)
    c = np.round(result.score * n).astype(int)
    assert np.allclose(c, result.score * n, atol=1e-9)
    full[c] = result.cdf
    full[c[-1] + 1 :] = 1.0
    return full


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


# --- the bootstrap over teams: exact pooled distribution = the average over resamples -----------------------

# Two small leaderboards (correct counts on n items): independent teams, and dependent teams (ρ = 0.6,
# θ0 = the best score) whose scores Eq. 12 all admits. Ties are deliberate.
_LOW = [100, 103, 105, 105, 108, 110, 111, 112, 114, 114, 115, 116, 118]
_HIGH = [119, 120, 121, 121, 123, 124, 125, 126, 127, 128, 130, 133]
POOLED_CASES = {
    "independent": (0.0, 150, [*_LOW, *_HIGH]),
    "dependent": (
        0.6,
        200,
        [150, 152, 153, 155, 155, 157, 158, 160, 160, 161, 163, 164, 165, 166, 168, 169, 170, 172, 174, 176],
    ),
}


def pooled_model(rho, n, counts):
    theta = np.array(counts) / n
    model = _prepare(
        theta,
        test_size=n,
        classifiers=None,
        correlation=rho,
        reference_accuracy=None,
        fixed_reference=False,
        alpha=ALPHA,
        invalid="raise",
    )
    assert model.dropped == 0
    return theta, model


@pytest.mark.parametrize("case", list(POOLED_CASES))
def test_pooled_bootstrap_has_the_closed_form(case):
    rho, n, counts = POOLED_CASES[case]
    theta, model = pooled_model(rho, n, counts)
    theta0 = theta.max()
    assert model.reference_accuracy == (theta0 if rho else None)
    exact = on_grid(_exact(model, pooled=True), n)
    np.testing.assert_allclose(exact, pooled_cdf(theta, n, rho, theta0), rtol=0, atol=1e-10)
    # ... and it is not the distribution of the original teams (the test can tell them apart).
    assert np.abs(on_grid(_exact(model), n) - exact).max() > 0.02


@pytest.mark.parametrize("case", list(POOLED_CASES))
def test_resample_reference_is_best_of(case):
    """The per-resample reference used below is each resample's exact best_of distribution."""
    rho, n, counts = POOLED_CASES[case]
    theta, _ = pooled_model(rho, n, counts)
    rng = np.random.default_rng(7)
    draws = rng.integers(theta.size, size=(3, theta.size))
    drawn = np.stack([np.bincount(row, minlength=theta.size) for row in draws])
    reference = resample_cdfs(theta, n, rho, theta.max(), drawn)
    for row, expected in zip(draws, reference, strict=True):
        result = best_of(theta[row], test_size=n, correlation=rho, reference_accuracy=theta.max())
        np.testing.assert_allclose(on_grid(result, n), expected, rtol=0, atol=1e-10)


@pytest.mark.parametrize("case", list(POOLED_CASES))
def test_pooled_bootstrap_is_the_average_over_resamples(case):
    """The paper's B bootstrap resamples (§5.1.1), averaged, converge to _exact(model, pooled=True)."""
    rho, n, counts = POOLED_CASES[case]
    theta, model = pooled_model(rho, n, counts)
    rng = np.random.default_rng(2024)
    resamples = 4000
    drawn = rng.multinomial(theta.size, np.full(theta.size, 1 / theta.size), size=resamples)
    each = resample_cdfs(theta, n, rho, theta.max(), drawn.astype(float))
    average = each.mean(axis=0)
    # 4 standard errors, and 1e-6 in the far lower tail, where the average rests on resamples too rare to
    # be drawn (nearly all weak teams) and the sample's standard error underestimates the true one.
    bound = 4 * each.std(axis=0, ddof=1) / math.sqrt(resamples) + 1e-6
    exact = on_grid(_exact(model, pooled=True), n)
    excess = np.abs(exact - average) - bound
    assert excess.max() <= 0, f"outside 4 standard errors at {excess.argmax()}/{n}"
    # The bound is tight enough to reject the distribution without the bootstrap.
    assert (np.abs(on_grid(_exact(model), n) - average) - bound).max() > 0


@pytest.mark.parametrize("case", list(POOLED_CASES))
def test_pooled_bootstrap_matches_brute_force_simulation(case):
    """Resample the teams and simulate the test set (K, then each team's correct count): same distribution."""
    rho, n, counts = POOLED_CASES[case]
    theta, model = pooled_model(rho, n, counts)
    rng = np.random.default_rng(11)
    competitions = 200_000
    teams = rng.integers(theta.size, size=(competitions, theta.size))
    if rho == 0:
        correct = rng.binomial(n, theta[teams])
    else:
        right, wrong = eq10_11(theta, theta.max(), rho)
        k = rng.binomial(n, theta.max(), size=(competitions, 1))
        correct = rng.binomial(k, right[teams]) + rng.binomial(n - k, wrong[teams])
    best = correct.max(axis=1)
    empirical = np.cumsum(np.bincount(best, minlength=n + 1)) / competitions
    # Dvoretzky-Kiefer-Wolfowitz: sup |F_R - F| > eps with probability at most 2 exp(-2 R eps^2) = 1e-6.
    eps = math.sqrt(math.log(2 / 1e-6) / (2 * competitions))
    exact = on_grid(_exact(model, pooled=True), n)
    assert np.abs(exact - empirical).max() <= eps
    assert np.abs(on_grid(_exact(model), n) - empirical).max() > eps


# --- the crop equation, the conservative crop, the ordering of Table 3 --------------------------------------


def synthetic_board(seed, n, m):
    """Observed accuracies of m teams with true accuracies evenly spread over 0.72-0.82, on n items."""
    return np.random.default_rng(seed).binomial(n, np.linspace(0.72, 0.82, m)) / n


BOARDS = {
    "n=200, m=20": (0, 200, 20),
    "n=300, m=30": (1, 300, 30),
}
RHOS = [0.0, 0.6]
_cache = {}


def estimated(board, rho):
    """leaderboard() of a synthetic board, computed once per module."""
    if (board, rho) not in _cache:
        scores = synthetic_board(*BOARDS[board])
        _cache[board, rho] = (
            scores,
            leaderboard(scores, test_size=BOARDS[board][1], direction="higher", correlation=rho),
        )
    return _cache[board, rho]


def crop_cdf(scores, level, n, rho, *, pooled):
    """P(best <= c / n), c = 0..n, when the board is cropped at ``level`` (§5.1.1, §5.2.1, Fig. 12).

    The teams Eq. 12 leaves out for θ0 = level go first (ρ > 0); of the m teams left, those scoring above
    the level are left out and m teams are drawn from the K kept: pooled over bootstrap resamples,
    (mean_j G_j)^m given K = k; without the bootstrap each kept team weighs m / K, Π_j G_j^(m / K).
    """
    theta = scores[eq12_admits(scores, level, rho)] if rho else scores
    kept = theta[theta <= level + 1e-12]
    cdfs, weights = correct_cdfs(kept, n, rho, level)
    if pooled:
        inner = cdfs.mean(axis=0) ** theta.size
    else:
        inner = np.exp(theta.size * np.log(np.maximum(cdfs, 1e-300)).mean(axis=0))
    return weights @ inner


def crop_expectation(scores, level, n, rho):
    """E(θ̂_max) of the board cropped at ``level``, without the bootstrap (the crop equation's side)."""
    cdf = crop_cdf(scores, level, n, rho, pooled=False)
    return float(np.arange(n + 1) @ np.diff(cdf, prepend=0.0)) / n


def pooled_upper_tail(scores, level, n, rho, top):
    """P(best > top) of the bootstrap over teams of the board cropped at ``level``."""
    return 1.0 - crop_cdf(scores, level, n, rho, pooled=True)[round(top * n)]


def neighbours(scores, level):
    """The distinct scores just below and just above ``level`` (None past either end)."""
    levels = np.unique(scores)
    i = int(np.flatnonzero(np.isclose(levels, level, rtol=0, atol=1e-12))[0])
    return (levels[i - 1] if i else None), (levels[i + 1] if i + 1 < levels.size else None)


@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize("board", list(BOARDS))
def test_crop_level_is_the_score_where_the_expected_best_comes_closest(board, rho):
    """The cropping row: an observed score s, E_s(θ̂_max) nearest θ̂_max among the scores (E grows with s)."""
    scores, result = estimated(board, rho)
    n, top, level = result.test_size, result.observed_max, result.cropped.sota
    assert level <= top and level in scores
    at = crop_expectation(scores, level, n, rho)
    assert result.cropped.expected_max == pytest.approx(at, abs=1e-10)
    below, above = neighbours(scores, level)
    e_below = crop_expectation(scores, below, n, rho)
    assert e_below < at and e_below <= top
    assert abs(at - top) <= abs(e_below - top)
    if above is not None:
        e_above = crop_expectation(scores, above, n, rho)
        assert at < e_above and top <= e_above
        assert abs(at - top) <= abs(e_above - top)
    assert result.cropped.teams_above == np.count_nonzero(scores > level)


@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize("board", list(BOARDS))
def test_conservative_crop_is_the_highest_score_whose_upper_limit_is_the_observed_best(board, rho):
    scores, result = estimated(board, rho)
    n, top, level = result.test_size, result.observed_max, result.conservative.sota
    assert level in scores and level <= result.cropped.sota
    assert result.conservative.ci[1] <= top + 1e-12
    assert pooled_upper_tail(scores, level, n, rho, top) <= ALPHA / 2
    # One score up, the upper limit passes θ̂_max.
    _, above = neighbours(scores, level)
    assert pooled_upper_tail(scores, above, n, rho, top) > ALPHA / 2
    assert result.conservative.expected_max == pytest.approx(
        crop_expectation(scores, level, n, rho), abs=1e-10
    )
    assert result.conservative.teams_above == np.count_nonzero(scores > level)


@pytest.mark.parametrize("rho", RHOS)
@pytest.mark.parametrize("board", list(BOARDS))
def test_table_3_rows_are_ordered_and_counted(board, rho):
    scores, result = estimated(board, rho)
    n, top = result.test_size, result.observed_max
    assert isinstance(result, LeaderboardResult)
    assert result.metric == "accuracy" and result.correlation == rho and result.alpha == ALPHA
    assert result.bootstrap == "exact (B -> infinity)"
    np.testing.assert_array_equal(np.sort(result.scores), np.sort(scores))
    assert top == scores.max()
    assert result.conservative.sota <= result.cropped.sota <= top <= result.plugin.expected_max
    assert result.plugin.sota == top
    # The plug-in row: the observed scores are the true ones, θ0 = θ̂_max.
    plain = best_of(scores, test_size=n, correlation=rho, invalid="drop")
    assert result.plugin.expected_max == pytest.approx(plain.expected_max, abs=1e-12)
    assert result.plugin.dropped == plain.dropped
    assert result.plugin.teams_above == 0
    # The naive row: Clopper-Pearson of one classifier with score θ̂_max.
    assert result.naive_ci == tuple(clopper_pearson(top, test_size=n))
    assert result.teams_at_max == np.count_nonzero(np.round(scores * n) == round(top * n))
    for estimate in (result.cropped, result.conservative):
        assert estimate.teams_above == np.count_nonzero(scores > estimate.sota)
    d = result.to_dict()
    assert d["teams"] == scores.size and d["observed_max"] == top
    assert d["cropped"]["sota"] == result.cropped.sota and d["naive_ci"] == list(result.naive_ci)


def test_teams_in_naive_ci_are_the_scores_in_the_interval():
    # n = 200, best 176/200: its Clopper-Pearson lower end is 165.35/200, so the two teams at 165/200 are
    # outside the naive interval.
    n = 200
    scores = np.array([150, 152, 155, 158, 160, 162, 165, 165, 167, 170, 172, 176]) / n
    result = leaderboard(scores, test_size=n, direction="higher", correlation=0.0, resamples=0)
    assert result.naive_ci[0] * n == pytest.approx(165.3455, abs=1e-4)
    assert result.teams_in_naive_ci == np.count_nonzero(scores >= result.naive_ci[0]) == 4


def test_lone_outlier_is_not_cropped():
    """Cassava (§5.1.2): one team far above the rest is not explained by multiplicity, E ≈ θ̂_max."""
    n = 300
    rest = np.linspace(0.74, 0.78, 20)
    scores = np.append(np.round(rest * n) / n, 264 / n)  # the outlier: 0.88
    for rho in RHOS:
        result = leaderboard(scores, test_size=n, direction="higher", correlation=rho)
        top = result.observed_max
        assert top == 264 / n
        assert result.plugin.expected_max - top < 1 / n
        assert top - 2 / n <= result.cropped.sota <= top
        assert result.cropped.teams_above <= 1
        assert result.teams_in_naive_ci == 1
        assert result.conservative.sota < result.cropped.sota


# --- real data: Kaggle's Titanic leaderboard (n = 209) ------------------------------------------------------

TITANIC_N = 209


@pytest.fixture(scope="module")
def titanic():
    """leaderboard() of the bundled and of the older Titanic file, with and without max_plausible."""
    before = {path: digest(path) for path in (bundled_leaderboard(), OLD_TITANIC)}
    out = {}
    for path in (bundled_leaderboard(), OLD_TITANIC):
        for cap in (None, 0.999):
            out[path, cap] = (
                read_leaderboard(path, direction="higher", classes=2, max_plausible=cap),
                leaderboard(path, test_size=TITANIC_N, direction="higher", classes=2, max_plausible=cap),
            )
    assert {path: digest(path) for path in before} == before  # inputs are never modified
    return out


@pytest.mark.parametrize("cap", [None, 0.999])
@pytest.mark.parametrize("which", ["bundled", "2019-10-18"])
def test_titanic_counts_match_the_reader(titanic, which, cap):
    path = bundled_leaderboard() if which == "bundled" else OLD_TITANIC
    board, result = titanic[path, cap]
    assert result.teams == board.scores.size
    assert result.excluded == board.excluded
    assert result.test_size == TITANIC_N
    assert (result.excluded["implausible"] > 0) == (cap is not None)
    assert result.to_dict()["excluded"] == board.excluded


@pytest.mark.parametrize("which", ["bundled", "2019-10-18"])
def test_titanic_perfect_scores_are_kept_by_default(titanic, which):
    path = bundled_leaderboard() if which == "bundled" else OLD_TITANIC
    board, result = titanic[path, None]
    assert result.observed_max == 1.0
    assert result.teams_at_max == np.count_nonzero(board.scores == 1.0) > 0
    assert result.plugin.expected_max == 1.0
    assert result.plugin.ci == (1.0, 1.0)
    assert result.cropped.sota == 1.0
    assert result.naive_ci == tuple(clopper_pearson(1.0, test_size=TITANIC_N))
    assert result.conservative.sota <= result.cropped.sota


@pytest.mark.parametrize("which", ["bundled", "2019-10-18"])
def test_titanic_without_perfect_scores(titanic, which):
    path = bundled_leaderboard() if which == "bundled" else OLD_TITANIC
    _, result = titanic[path, 0.999]
    n, top = TITANIC_N, result.observed_max
    assert top == 208 / n  # the best score left after dropping the perfect ones
    assert result.conservative.sota <= result.cropped.sota <= top <= result.plugin.expected_max
    assert result.naive_ci == tuple(clopper_pearson(top, test_size=n))
    np.testing.assert_allclose(result.scores * n, np.round(result.scores * n), rtol=0, atol=1e-9)
    assert result.conservative.ci[1] <= top


def test_titanic_scores_are_mapped_to_the_lattice_with_perfect_scores_kept(titanic):
    _, result = titanic[bundled_leaderboard(), None]
    k = result.scores * TITANIC_N
    np.testing.assert_allclose(k, np.round(k), rtol=0, atol=1e-9)


def test_inputs_are_not_modified(tmp_path):
    scores = np.array([0.9, 0.86, 0.85, 0.83, 0.82, 0.8])
    kept = scores.copy()
    frame = pd.DataFrame({"team": list("abcdef"), "score": scores.copy()})
    frame_before = frame.copy()
    path = tmp_path / "board.csv"
    frame.to_csv(path, index=False)
    before = digest(path)
    results = [
        leaderboard(scores, test_size=100, direction="higher"),
        leaderboard(list(scores), test_size=100, direction="higher"),
        leaderboard(frame, test_size=100, direction="higher"),
        leaderboard(path, test_size=100, direction="higher"),
        leaderboard(str(path), test_size=100, direction="higher"),
    ]
    np.testing.assert_array_equal(scores, kept)
    pd.testing.assert_frame_equal(frame, frame_before)
    assert digest(path) == before
    assert [p.name for p in tmp_path.iterdir()] == ["board.csv"]
    first = results[0].to_dict()
    for other in results[1:]:
        assert other.to_dict() == first


# --- the test size: scores must be whole numbers of correct items out of n ----------------------------------


def test_scores_that_cannot_come_from_the_test_size_are_refused():
    with pytest.raises(InputError, match="test_size=100"):
        leaderboard(bundled_leaderboard(), test_size=100, direction="higher", classes=2)
    with pytest.raises(InputError, match="test_size"):
        leaderboard([0.78468, 0.79904], test_size=100, direction="higher")


def kaggle_file(path, texts):
    rows = "".join(
        f'{k + 1},"team {k}","2019-01-{k % 28 + 1:02d} 10:00:00",{t}\n' for k, t in enumerate(texts)
    )
    path.write_text("\ufeffTeamId,TeamName,SubmissionDate,Score\n" + rows, encoding="utf-8")
    return path


def truncated(k, n, decimals=5):
    """k/n as Kaggle writes it: truncated, not rounded, to ``decimals`` places."""
    return f"{math.floor(k / n * 10**decimals) / 10**decimals:.{decimals}f}"


# k/209 whose 6th decimal is >= 5, so that truncating and rounding differ (164/209 = 0.7846889...).
KAGGLE_K = [150, 155, 160, 161, 164, 166, 170, 171, 175, 181]


@pytest.mark.parametrize("written", ["truncated", "rounded"])
def test_five_decimal_scores_are_mapped_to_whole_counts(tmp_path, written):
    n = TITANIC_N
    texts = [truncated(k, n) if written == "truncated" else f"{k / n:.5f}" for k in KAGGLE_K]
    assert (truncated(164, n), f"{164 / n:.5f}") == ("0.78468", "0.78469")
    path = kaggle_file(tmp_path / "kaggle.csv", texts)
    result = leaderboard(path, test_size=n, direction="higher", correlation=0.0, resamples=0)
    np.testing.assert_array_equal(np.sort(result.scores), np.array(KAGGLE_K) / n)
    assert result.observed_max == 181 / n
    assert result.naive_ci == tuple(clopper_pearson(181 / n, test_size=n))


def test_five_decimal_scores_are_mapped_when_one_has_trailing_zeros(tmp_path):
    n = TITANIC_N
    texts = [truncated(k, n) for k in KAGGLE_K] + ["1.00000"]
    path = kaggle_file(tmp_path / "kaggle.csv", texts)
    result = leaderboard(path, test_size=n, direction="higher", correlation=0.0, resamples=0)
    np.testing.assert_array_equal(np.sort(result.scores), np.array([*KAGGLE_K, n]) / n)


# --- bad input ----------------------------------------------------------------------------------------------

GOOD = [0.8, 0.82, 0.85, 0.9]
BAD = {
    "one team": ([0.8], {"test_size": 100}, "at least two"),
    "one team above chance": ([0.8, 0.3], {"test_size": 100, "classes": 2}, "1 usable team"),
    "none plausible": ([0.99, 1.0], {"test_size": 100, "max_plausible": 0.95}, "at least two"),
    "no scores": ([], {"test_size": 100}, None),
    "words": (["a", "b"], {"test_size": 100}, None),
    "auc without positives": (GOOD, {"test_size": 100, "metric": "auc"}, "positives"),
    "positives with accuracy": (GOOD, {"test_size": 100, "positives": 10}, "positives"),
    "positives not below n": (GOOD, {"test_size": 100, "metric": "auc", "positives": 100}, "positives"),
    "unknown metric": (GOOD, {"test_size": 100, "metric": "f1"}, "metric"),
    "resamples negative": (GOOD, {"test_size": 100, "resamples": -1}, "resamples"),
    "resamples fraction": (GOOD, {"test_size": 100, "resamples": 1.5}, "resamples"),
    "resamples bool": (GOOD, {"test_size": 100, "resamples": True}, "resamples"),
    "resamples text": (GOOD, {"test_size": 100, "resamples": "1000"}, "resamples"),
    "alpha 0": (GOOD, {"test_size": 100, "alpha": 0}, "alpha"),
    "alpha 1": (GOOD, {"test_size": 100, "alpha": 1}, "alpha"),
    "alpha text": (GOOD, {"test_size": 100, "alpha": "0.05"}, "alpha"),
    "correlation 1": (GOOD, {"test_size": 100, "correlation": 1.0}, "correlation"),
    "test size 0": (GOOD, {"test_size": 0}, "test_size"),
    "score above 1": ([0.8, 1.2], {"test_size": 100}, None),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_raises_input_error(name):
    scores, kwargs, words = BAD[name]
    with pytest.raises(InputError, match=words):
        leaderboard(scores, direction="higher", **kwargs)


# --- AUC (§5.2): tabulated, exact bootstrap over teams -------------------------------------------------

AUC_N, AUC_POSITIVES = 600, 60
AUC_PAIRS = AUC_POSITIVES * (AUC_N - AUC_POSITIVES)
AUC_SCORES = np.round(np.linspace(0.80, 0.93, 20) * AUC_PAIRS) / AUC_PAIRS
AUC_OPTIONS = {
    "test_size": AUC_N,
    "direction": "higher",
    "metric": "auc",
    "positives": AUC_POSITIVES,
    "resamples": 50,
}


@pytest.fixture(scope="module")
def auc_result():
    return leaderboard(AUC_SCORES, seed=3, **AUC_OPTIONS)


@pytest.mark.slow
def test_auc_leaderboard_runs_and_is_ordered(auc_result):
    r = auc_result
    assert r.metric == "auc" and r.positives == AUC_POSITIVES and r.correlation == 0.0
    assert r.teams == 20 and r.observed_max == AUC_SCORES.max()
    assert r.conservative.sota <= r.cropped.sota <= r.observed_max <= r.plugin.expected_max
    assert r.naive_ci[0] < r.observed_max < r.naive_ci[1]
    assert r.bootstrap == "exact (B -> infinity)"
    assert r.plugin.teams_above == 0
    scores = AUC_SCORES
    assert r.cropped.teams_above == np.count_nonzero(scores > r.cropped.sota + 1e-12)


@pytest.mark.slow
def test_auc_leaderboard_is_reproducible_with_a_seed(auc_result):
    assert leaderboard(AUC_SCORES, seed=3, **AUC_OPTIONS).to_dict() == auc_result.to_dict()


def simulated_crop(level, simulations, seed):
    """Best AUC of competitions simulated from the board cropped at ``level`` (Fig. 12): each draws m
    teams with replacement from those scoring at most the level, then their AUCs on the test set."""
    rng = np.random.default_rng(seed)
    scores = AUC_SCORES
    kept = scores[scores <= level + 1e-12]
    teams = kept[rng.integers(kept.size, size=(simulations, scores.size))]
    return sample_auc(teams, test_size=AUC_N, positives=AUC_POSITIVES, size=teams.shape, seed=rng).max(axis=1)


@pytest.mark.slow
def test_auc_crop_meets_the_observed_best_within_simulation_error(auc_result):
    """E_s = θ̂_max at the cropped SOTA, checked by an independent simulation of the cropped board."""
    r = auc_result
    best = simulated_crop(r.cropped.sota, 4000, 12345)
    # The check's Monte Carlo error, plus a generous allowance (as if 50 competitions) for the table's.
    error = best.std() * math.sqrt(1 / best.size + 1 / 50)
    assert abs(best.mean() - r.cropped.expected_max) <= 4 * error
    # The root lies between the neighbouring scores: one score down E is below θ̂_max, one up above it.
    levels = np.unique(AUC_SCORES)
    i = int(np.searchsorted(levels, r.cropped.sota))
    assert simulated_crop(levels[i - 1], 4000, 1).mean() < r.observed_max + 4 * error
    assert simulated_crop(levels[i + 1], 4000, 2).mean() > r.observed_max - 4 * error


@pytest.mark.slow
def test_auc_conservative_upper_limit_is_at_most_the_observed_best():
    """The AUC conservative crop: the highest score whose upper limit is at most θ̂_max, checked by an
    independent simulation; the tabulated distributions are ordered in the true AUC, so the search is
    stable from seed to seed."""
    options = {**AUC_OPTIONS, "resamples": 1000}
    results = [leaderboard(AUC_SCORES, seed=seed, **options) for seed in range(2)]
    levels = np.unique(AUC_SCORES)
    for r in results:
        assert r.conservative.ci[1] <= r.observed_max
        assert r.conservative.sota < r.cropped.sota
        up = levels[np.searchsorted(levels, r.conservative.sota) + 1]
        # One score up the simulated upper tail beyond θ̂_max is well above α/2; at the level, below.
        assert np.mean(simulated_crop(up, 4000, 7) > r.observed_max + 1e-12) > ALPHA / 2
        assert np.mean(simulated_crop(r.conservative.sota, 4000, 8) > r.observed_max + 1e-12) < 2 * ALPHA / 2
    assert (
        abs(
            np.searchsorted(levels, results[0].conservative.sota)
            - np.searchsorted(levels, results[1].conservative.sota)
        )
        <= 1
    )
