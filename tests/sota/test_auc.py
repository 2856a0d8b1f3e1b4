"""The binormal model (Eq. 13-18), the exact sampler of the empirical AUC, and best_of_auc (paper §5.2).

The sampler is checked against what its draws must be exactly: E(U) = n+ n- a; Var(U) from the exact
Mann-Whitney variance under the binormal model (bivariate normal probabilities); the exact pmf of U when
one class has a single item (a binomial mixed over that item's score, by quadrature); and the naive method
that draws all n scores and ranks them. Fixed seeds throughout; thresholds are several standard errors.
"""

import json
import math

import numpy as np
import pytest
from scipy import integrate, special, stats

from benchtrust import InputError
from benchtrust.sota import _auc
from benchtrust.sota._auc import Binormal, best_of_auc, binormal, sample_auc

# A model with unequal means and SDs, so that every parameter matters.
GENERAL = {"positive_mean": 2.3, "positive_sd": 1.7, "negative_mean": 0.4, "negative_sd": 0.8}
GENERAL_AUC = float(special.ndtr((2.3 - 0.4) / math.hypot(1.7, 0.8)))


# ---------------------------------------------------------------------------------------------------------
# Binormal model


def test_default_model_is_the_papers_choice():
    """§5.2.1: μ- = 0, σ- = σ+ = 1, μ+ solved from Eq. 15."""
    model = binormal(0.9)
    assert (model.negative_mean, model.negative_sd, model.positive_sd) == (0.0, 1.0, 1.0)
    assert special.ndtr(model.positive_mean / math.sqrt(2)) == pytest.approx(0.9, abs=1e-14)
    assert model.auc == 0.9


@pytest.mark.parametrize("unknown", sorted(GENERAL))
def test_binormal_solves_each_parameter(unknown):
    given = {name: value for name, value in GENERAL.items() if name != unknown}
    model = binormal(GENERAL_AUC, **given)
    assert getattr(model, unknown) == pytest.approx(GENERAL[unknown], rel=1e-10)
    for name, value in given.items():
        assert getattr(model, name) == value
    implied = special.ndtr(
        (model.positive_mean - model.negative_mean) / math.hypot(model.positive_sd, model.negative_sd)
    )
    assert implied == pytest.approx(GENERAL_AUC, abs=1e-12)


@pytest.mark.parametrize("auc", [0.5, 1.0, 0.3, 1.2, float("nan"), float("inf")])
def test_binormal_rejects_auc_outside_half_to_one(auc):
    with pytest.raises(InputError, match="auc"):
        binormal(auc)


@pytest.mark.parametrize("auc", ["0.9", None, True, [0.9]])
def test_binormal_rejects_auc_that_is_not_a_number(auc):
    with pytest.raises(InputError, match="auc"):
        binormal(auc)


@pytest.mark.parametrize(
    "given",
    [
        {"positive_mean": 1.0},
        {"positive_mean": 1.0, "negative_mean": 0.0},
        {**GENERAL},
    ],
)
def test_binormal_needs_none_or_three_parameters(given):
    with pytest.raises(InputError, match="none or exactly three"):
        binormal(0.8, **given)


@pytest.mark.parametrize("name", ["positive_sd", "negative_sd"])
@pytest.mark.parametrize("value", [0.0, -1.0])
def test_binormal_rejects_nonpositive_sd(name, value):
    given = {k: v for k, v in GENERAL.items() if k not in (name, "positive_mean")}
    with pytest.raises(InputError, match=name):
        binormal(0.8, **{name: value}, **given)


@pytest.mark.parametrize("unknown", ["positive_sd", "negative_sd"])
@pytest.mark.parametrize("means", [(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
def test_binormal_reports_when_no_sd_gives_the_auc(unknown, means):
    """AUC 0.9 needs μ+ - μ- > Φ^-1(0.9) σ_other = 1.28 σ_other: not met here, so no σ exists."""
    given = {"positive_mean": means[0], "negative_mean": means[1]}
    given["negative_sd" if unknown == "positive_sd" else "positive_sd"] = 1.0
    with pytest.raises(InputError, match=f"{unknown}: no binormal model"):
        binormal(0.9, **given)


def test_binormal_dataclass_checks_eq_15():
    with pytest.raises(InputError, match=r"Eq\. 15"):
        Binormal(0.8, 1.0, 1.0, 0.0, 1.0)
    with pytest.raises(InputError, match="positive_sd"):
        Binormal(0.8, 1.0, -1.0, 0.0, 1.0)
    model = binormal(0.8)
    assert Binormal(**model.to_dict()) == model
    assert json.loads(json.dumps(model.to_dict())) == model.to_dict()
    assert "Binormal(auc=0.8" in repr(model)


@pytest.mark.parametrize("prevalence", [0.0, 0.017, 0.5, 1.0])
def test_score_moments_match_the_mixture_density(prevalence):
    """Eq. 17 and 18 against numerical integration of the mixture pdf of Eq. 16."""
    model = binormal(GENERAL_AUC, **{k: v for k, v in GENERAL.items() if k != "negative_sd"})

    def moment(k):
        return integrate.quad(lambda s: s**k * model.score_pdf(s, prevalence), -30, 30, epsabs=1e-13)[0]

    assert moment(0) == pytest.approx(1.0, abs=1e-10)
    mean = moment(1)
    assert model.score_mean(prevalence) == pytest.approx(mean, abs=1e-10)
    assert model.score_variance(prevalence) == pytest.approx(moment(2) - mean**2, abs=1e-9)


def test_score_pdf_is_vectorised_and_checks_prevalence():
    model = binormal(0.9)
    s = np.linspace(-3, 5, 7)
    pdf = model.score_pdf(s, 0.2)
    expected = 0.2 * stats.norm.pdf(s, model.positive_mean, 1) + 0.8 * stats.norm.pdf(s, 0, 1)
    np.testing.assert_allclose(pdf, expected, rtol=1e-14)
    with pytest.raises(InputError, match="prevalence"):
        model.score_mean(1.5)


# ---------------------------------------------------------------------------------------------------------
# The sampler: exact in distribution


def exact_u_moments(model, positives, negatives):
    """E(U) and Var(U) of the Mann-Whitney U under the binormal model (exact)."""
    a = model.auc
    d = model.positive_mean - model.negative_mean
    v = model.positive_sd**2 + model.negative_sd**2

    def both_positive(shared_variance):  # P(D1 > 0, D2 > 0), D_i ~ N(d, v), cov(D1, D2) = shared
        cov = [[v, shared_variance], [shared_variance, v]]
        return stats.multivariate_normal.cdf([0, 0], mean=[-d, -d], cov=cov, abseps=1e-12, releps=1e-12)

    two_positives = both_positive(model.negative_sd**2)  # P(S+1 > S-, S+2 > S-)
    two_negatives = both_positive(model.positive_sd**2)  # P(S+ > S-1, S+ > S-2)
    pairs = positives * negatives
    variance = pairs * (
        a * (1 - a) + (positives - 1) * (two_positives - a**2) + (negatives - 1) * (two_negatives - a**2)
    )
    return pairs * a, variance


SAMPLER_CASES = {
    "paper, positives small": (binormal(0.9), 3000, 52),
    "positives large, unequal SDs": (
        binormal(0.75, positive_sd=2.0, negative_mean=0.0, negative_sd=1.0),
        200,
        150,
    ),
    "positives small, unequal SDs": (
        binormal(0.8, positive_mean=1.0, positive_sd=0.5, negative_mean=0.0),
        300,
        20,
    ),
    "balanced": (binormal(0.6), 60, 30),
    "one negative": (binormal(0.85, positive_sd=0.3, negative_mean=-1.0, negative_sd=1.5), 25, 24),
}


@pytest.mark.parametrize("case", sorted(SAMPLER_CASES))
def test_sampler_mean_and_variance_are_exact(case):
    model, n, positives = SAMPLER_CASES[case]
    draws = 200_000
    negatives = n - positives
    u = sample_auc(None, model=model, test_size=n, positives=positives, size=draws, seed=11)
    u = u * (positives * negatives)
    np.testing.assert_allclose(u, np.round(u), atol=1e-6)  # on the lattice U / (n+ n-)
    mean, variance = exact_u_moments(model, positives, negatives)
    assert abs(u.mean() - mean) < 4 * math.sqrt(variance / draws)
    centred = (u - u.mean()) ** 2
    se_variance = centred.std() / math.sqrt(draws)
    assert abs(centred.mean() - variance) < 4 * se_variance, (centred.mean(), variance, se_variance)


def exact_pmf_one_small(model, large, *, small_is_positive):
    """P(U = k), k = 0..L, when one class has a single item: U | its score is binomial (quadrature)."""
    pos = (model.positive_mean, model.positive_sd)
    neg = (model.negative_mean, model.negative_sd)
    if small_is_positive:  # U = negatives below the positive
        (mean, sd), (other_mean, other_sd), sign = pos, neg, 1.0
    else:  # U = positives above the negative
        (mean, sd), (other_mean, other_sd), sign = neg, pos, -1.0
    k = np.arange(large + 1)

    def integrand(x, j):
        p = special.ndtr(sign * (mean + sd * x - other_mean) / other_sd)
        return stats.norm.pdf(x) * stats.binom.pmf(j, large, p)

    return np.array([integrate.quad(integrand, -12, 12, args=(j,), epsabs=1e-13)[0] for j in k])


@pytest.mark.parametrize("small_is_positive", [True, False])
def test_sampler_matches_the_exact_pmf_with_one_item_in_a_class(small_is_positive):
    model = binormal(0.8, positive_sd=2.0, negative_mean=0.5, negative_sd=1.0)
    large, draws = 12, 400_000
    pmf = exact_pmf_one_small(model, large, small_is_positive=small_is_positive)
    assert pmf.sum() == pytest.approx(1.0, abs=1e-9)
    positives = 1 if small_is_positive else large
    auc = sample_auc(None, model=model, test_size=large + 1, positives=positives, size=draws, seed=3)
    observed = np.bincount(np.round(auc * large).astype(int), minlength=large + 1)
    keep = pmf * draws >= 5
    expected, counts = pmf[keep] * draws, observed[keep]
    if not keep.all():  # lump the rare values into one bin
        expected = np.append(expected, pmf[~keep].sum() * draws)
        counts = np.append(counts, observed[~keep].sum())
    p_value = stats.chisquare(counts, expected * counts.sum() / expected.sum()).pvalue
    assert p_value > 1e-3, p_value


def naive_auc(model, n, positives, draws, seed):
    """Draw all n scores and compute U from the ranks of the positives (Mann-Whitney)."""
    rng = np.random.default_rng(seed)
    pos = rng.normal(model.positive_mean, model.positive_sd, (draws, positives))
    neg = rng.normal(model.negative_mean, model.negative_sd, (draws, n - positives))
    ranks = stats.rankdata(np.concatenate([pos, neg], axis=1), axis=1)[:, :positives]
    u = ranks.sum(axis=1) - positives * (positives + 1) / 2
    return u / (positives * (n - positives))


def lattice_chi_square(a, b, lattice):
    """Chi-square test that two samples on the lattice k / lattice share a distribution (bins >= 20)."""
    ka, kb = np.round(a * lattice).astype(int), np.round(b * lattice).astype(int)
    ca = np.bincount(ka, minlength=lattice + 1)
    cb = np.bincount(kb, minlength=lattice + 1)
    bins_a, bins_b, acc_a, acc_b = [], [], 0, 0
    for x, y in zip(ca, cb, strict=True):
        acc_a, acc_b = acc_a + x, acc_b + y
        if acc_a + acc_b >= 20:
            bins_a.append(acc_a)
            bins_b.append(acc_b)
            acc_a = acc_b = 0
    bins_a[-1] += acc_a
    bins_b[-1] += acc_b
    return stats.chi2_contingency(np.array([bins_a, bins_b])).pvalue


@pytest.mark.parametrize(
    ("model", "positives"),
    [
        (binormal(0.8), 7),
        (binormal(0.8), 33),
        (binormal(0.7, positive_sd=0.5, negative_mean=0.0, negative_sd=1.5), 7),
        (binormal(0.7, positive_sd=0.5, negative_mean=0.0, negative_sd=1.5), 33),
    ],
)
def test_sampler_agrees_with_drawing_and_ranking_all_scores(model, positives):
    n, draws = 40, 100_000
    fast = sample_auc(None, model=model, test_size=n, positives=positives, size=draws, seed=21)
    slow = naive_auc(model, n, positives, draws, seed=22)
    lattice = positives * (n - positives)
    assert lattice_chi_square(fast, slow, lattice) > 1e-3
    assert stats.ks_2samp(fast, slow).pvalue > 1e-3


def test_sampler_is_reproducible():
    kwargs = {"test_size": 500, "positives": 20, "size": (3, 1000)}
    first = sample_auc(0.8, **kwargs, seed=5)
    assert first.shape == (3, 1000)
    np.testing.assert_array_equal(first, sample_auc(0.8, **kwargs, seed=5))
    np.testing.assert_array_equal(first, sample_auc(0.8, **kwargs, seed=np.random.default_rng(5)))
    assert not np.array_equal(first, sample_auc(0.8, **kwargs, seed=6))


def test_sampler_chunks_do_not_change_the_distribution(monkeypatch):
    """Several chunks with per-row AUCs: each row uses its own parameters."""
    monkeypatch.setattr(_auc, "_CELLS_PER_CHUNK", 1000)
    aucs = np.array([0.6, 0.95])
    draws = sample_auc(aucs, test_size=100, positives=30, size=(20_000, 2), seed=8)
    for column, a in enumerate(aucs):
        mean, variance = exact_u_moments(binormal(a), 30, 70)
        assert abs(draws[:, column].mean() * 2100 - mean) < 4 * math.sqrt(variance / 20_000)


def test_private_sampler_takes_per_row_models():
    """The core used by the leaderboard code: per-row means and SDs, unequal SDs in both orientations."""
    models = [binormal(0.7, positive_sd=2.0, negative_mean=0.0, negative_sd=1.0), binormal(0.9)]
    rows = 40_000
    which = np.arange(rows) % 2
    params = [np.array([getattr(m, name) for m in models])[which] for name in _auc._PARAMETERS]
    for positives, negatives in ((10, 90), (90, 10)):
        u = _auc._mann_whitney_u(
            *params, positives=positives, negatives=negatives, rng=np.random.default_rng(1)
        )
        assert u.dtype == np.int64 and u.shape == (rows,)
        for k, model in enumerate(models):
            mean, variance = exact_u_moments(model, positives, negatives)
            assert abs(u[which == k].mean() - mean) < 4 * math.sqrt(variance / (rows / 2))


def test_sample_auc_broadcasts_per_draw_aucs():
    draws = sample_auc([0.6, 0.9, 0.99], test_size=200, positives=10, size=(5000, 3), seed=2)
    assert draws.shape == (5000, 3)
    np.testing.assert_allclose(draws.mean(axis=0), [0.6, 0.9, 0.99], atol=0.003)
    assert sample_auc([0.6, 0.9], test_size=200, positives=10, size=None, seed=2).shape == (2,)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"auc": 0.5}, "auc"),
        ({"auc": [0.7, 1.0]}, "auc"),
        ({"auc": "high"}, "auc"),
        ({"auc": None}, "auc"),
        ({"auc": [0.7, 0.8]}, "broadcast"),
        ({"positives": 0}, "positives"),
        ({"positives": 100}, "positives"),
        ({"test_size": 0}, "test_size"),
        ({"size": 2.5}, "size"),
        ({"seed": "abc"}, "seed"),
        ({"model": "binormal"}, "model"),
        ({"model": binormal(0.7)}, "differs"),
        ({"auc": None, "model": binormal(0.7), "size": 0}, "size"),
    ],
)
def test_sample_auc_bad_input(kwargs, match):
    arguments = {"auc": 0.8, "test_size": 100, "positives": 10, "size": 3, **kwargs}
    with pytest.raises(InputError, match=match):
        sample_auc(arguments.pop("auc"), **arguments)


def test_sample_auc_with_model_and_matching_auc():
    model = binormal(0.7)
    a = sample_auc(0.7, model=model, test_size=100, positives=10, size=4, seed=1)
    b = sample_auc(None, model=model, test_size=100, positives=10, size=4, seed=1)
    np.testing.assert_array_equal(a, b)


# ---------------------------------------------------------------------------------------------------------
# best_of_auc


def test_best_of_auc_invariants():
    r = best_of_auc(0.8, classifiers=50, test_size=300, positives=30, simulations=3000, seed=1)
    assert r.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert np.all(r.pmf > 0) and np.all(np.diff(r.score) > 0) and np.all(np.diff(r.cdf) >= 0)
    assert r.cdf[-1] == pytest.approx(1.0)
    assert r.score[0] <= r.ci[0] <= r.expected_max <= r.ci[1] <= r.score[-1]
    np.testing.assert_allclose(r.score * 30 * 270, np.round(r.score * 30 * 270), atol=1e-8)
    assert (r.metric, r.positives, r.classifiers, r.test_size, r.top_score) == ("auc", 30, 50, 300, 0.8)
    assert (r.correlation, r.reference_accuracy, r.fixed_reference, r.dropped) == (0.0, None, False, 0)
    assert r.model == "independent, identical (binormal)"
    assert r.method == "monte carlo, 3000 simulations"
    out = json.loads(json.dumps(r.to_dict(distribution=True)))
    assert out["metric"] == "auc" and out["positives"] == 30
    assert "metric='auc'" in repr(r)
    again = best_of_auc(0.8, classifiers=50, test_size=300, positives=30, simulations=3000, seed=1)
    assert again.to_dict(distribution=True) == r.to_dict(distribution=True)


def test_best_of_one_classifier_is_the_single_distribution():
    model, n, positives, reps = binormal(0.85), 400, 40, 40_000
    r = best_of_auc(0.85, classifiers=1, test_size=n, positives=positives, simulations=reps, seed=4)
    mean, variance = exact_u_moments(model, positives, n - positives)
    pairs = positives * (n - positives)
    assert abs(r.expected_max - mean / pairs) < 4 * math.sqrt(variance / reps) / pairs
    assert r.sd_max == pytest.approx(math.sqrt(variance) / pairs, rel=0.02)
    single = sample_auc(0.85, test_size=n, positives=positives, size=reps, seed=5)
    assert r.ci[0] == pytest.approx(np.quantile(single, 0.025), abs=0.004)
    assert r.ci[1] == pytest.approx(np.quantile(single, 0.975), abs=0.004)


def test_best_of_a_list_of_identical_aucs_is_the_scalar_form():
    kwargs = {"test_size": 300, "positives": 30, "simulations": 500, "seed": 9}
    scalar = best_of_auc(0.8, classifiers=20, **kwargs)
    listed = best_of_auc([0.8] * 20, **kwargs)
    assert listed.model == scalar.model == "independent, identical (binormal)"
    assert listed.to_dict(distribution=True) == scalar.to_dict(distribution=True)


def test_best_of_non_identical_aucs_is_the_max_of_their_draws():
    aucs = [0.7, 0.9, 0.88, 0.6]
    reps = 20_000
    r = best_of_auc(aucs, classifiers=4, test_size=200, positives=20, simulations=reps, seed=3)
    assert r.model == "independent, non-identical (binormal)"
    assert (r.classifiers, r.top_score) == (4, 0.9)
    draws = sample_auc(aucs, test_size=200, positives=20, size=(reps, 4), seed=4).max(axis=1)
    se = math.hypot(r.sd_max, draws.std()) / math.sqrt(reps)
    assert abs(r.expected_max - draws.mean()) < 4 * se
    assert r.sd_max == pytest.approx(draws.std(), rel=0.05)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"auc": 0.5}, "auc"),
        ({"auc": 1.0}, "auc"),
        ({"auc": [0.8, 0.45]}, r"0\.45 \(value 2\)"),
        ({"auc": [[0.8, 0.9]]}, "auc"),
        ({"auc": []}, "auc"),
        ({"auc": "0.8"}, "auc"),
        ({"classifiers": None}, "classifiers"),
        ({"classifiers": 0}, "classifiers"),
        ({"auc": [0.8, 0.9], "classifiers": 3}, "classifiers=3"),
        ({"positives": 0}, "positives"),
        ({"positives": 300}, "positives"),
        ({"positives": 2.5}, "positives"),
        ({"test_size": -1}, "test_size"),
        ({"simulations": 0}, "simulations"),
        ({"alpha": 1.0}, "alpha"),
        ({"seed": "x"}, "seed"),
    ],
)
def test_best_of_auc_bad_input(kwargs, match):
    arguments = {"auc": 0.8, "test_size": 300, "positives": 30, "classifiers": 5, "simulations": 10, **kwargs}
    with pytest.raises(InputError, match=match):
        best_of_auc(arguments.pop("auc"), **arguments)


# auc_pmf: the tabulated distribution of the empirical AUC


def test_auc_pmf_agrees_with_the_direct_sampler():
    """KS two-sample comparison with 20,000 direct draws (n = 400, 40 positives, AUC 0.8).

    The statistic is sup |F_table - F_draws|, compared with the one-sample KS critical value at
    level 0.001 (1.95 / sqrt(20000) = 0.0138); a shift of the AUC by 0.005 (a quarter of its SD,
    about 0.02) moves the cdf by about 0.1 and is detected with power ~1.
    """
    from benchtrust.sota._auc import auc_pmf

    n, positives, draws = 400, 40, 20_000
    lattice = positives * (n - positives)
    pmf = auc_pmf([0.8, 0.805], test_size=n, positives=positives, seed=3)
    sample = np.sort(sample_auc(0.8, test_size=n, positives=positives, size=draws, seed=4) * lattice)
    empirical = np.searchsorted(sample, np.arange(lattice + 1), side="right") / draws
    cdf = np.cumsum(pmf, axis=1)
    critical = 1.95 / np.sqrt(draws)
    assert np.abs(cdf[0] - empirical).max() < critical
    assert np.abs(cdf[1] - empirical).max() > 3 * critical


def test_auc_pmf_is_ordered_in_the_auc():
    from benchtrust.sota._auc import auc_pmf

    aucs = [0.6, 0.75, 0.75001, 0.9, 0.99]
    cdf = np.cumsum(auc_pmf(aucs, test_size=300, positives=200, replicates=32, seed=1), axis=1)
    assert np.all(np.diff(cdf, axis=0) <= 1e-12)


def test_best_of_auc_tabulated_matches_direct_simulation():
    """KS comparison of the best of m = 50 (n = 300, 30 positives, AUC 0.8) with 20,000 direct competitions.

    The statistic is sup |P_table(best <= u) - P_direct(best <= u)| over the AUC lattice, compared with
    the one-sample KS critical value at level 0.001, 1.95 / sqrt(20000) = 0.0138. With R = 4096
    replicates the table's own error is small beside it (seed-to-seed SD of E(best) 9e-5, about 0.005 in
    the cdf; at the default R = 256 it is 4.4e-4, about 0.02, and this comparison can fail). Power: true
    AUCs 0.002 away (E(best) moved by 0.13 of its SD) give statistics of about 0.044, above 3 times the
    critical value, so a bias of that size in either computation is detected.
    """
    kwargs = dict(classifiers=50, test_size=300, positives=30)
    lattice = 30 * 270
    direct = best_of_auc(0.8, **kwargs, simulations=20_000, seed=2)
    assert direct.method.startswith("monte carlo")

    def cdf_on_lattice(r):
        cdf = np.zeros(lattice + 1)
        cdf[np.round(r.score * lattice).astype(int)] = r.cdf
        return np.maximum.accumulate(cdf)

    critical = 1.95 / np.sqrt(20_000)
    for auc, agrees in ((0.8, True), (0.798, False), (0.802, False)):
        table = best_of_auc(auc, **kwargs, replicates=4096, seed=1)
        assert table.method.startswith("exact")
        statistic = np.abs(cdf_on_lattice(table) - cdf_on_lattice(direct)).max()
        assert statistic < critical if agrees else statistic > 3 * critical, (auc, statistic)


def test_auc_pmf_mean_is_the_auc_with_either_class_smaller():
    from benchtrust.sota._auc import auc_pmf

    for positives in (30, 170):
        pmf = auc_pmf([0.7, 0.9], test_size=200, positives=positives, replicates=64, seed=2)
        auc = np.arange(pmf.shape[1]) / (positives * (200 - positives))
        assert np.allclose(pmf @ auc, [0.7, 0.9], atol=5e-4)


def test_leaderboard_interpolation_of_the_table_is_within_its_stated_error():
    """The leaderboard's AUC model tabulates F_a on a grid of true AUCs and interpolates log P(U > u) in a
    (PCHIP). With the same seed, auc_pmf at the board's own scores draws the same larger-class replicates,
    so the difference is the interpolation's alone: the upper tail is within 0.2 % (relative) wherever it
    is between 1e-12 and 0.5, the range that decides the best of a board."""
    from scipy.interpolate import PchipInterpolator

    from benchtrust.sota._auc_levels import _REPLICATES, _AucModel

    n, positives = 600, 60
    scores = np.round(np.linspace(0.62, 0.95, 23) * positives * (n - positives)) / (
        positives * (n - positives)
    )
    model = _AucModel(scores, n, positives, 0.05, 0, seed=5)
    interpolated = np.exp(PchipInterpolator(model.grid, model.log_tail, axis=0)(model.levels))
    pmf = _auc.auc_pmf(model.levels, test_size=n, positives=positives, replicates=_REPLICATES, seed=5)
    direct = np.cumsum(pmf[:, :0:-1], axis=1)[:, ::-1]  # P(U > u)
    decisive = (direct > 1e-12) & (direct < 0.5)
    relative = np.abs(interpolated[decisive] / direct[decisive] - 1)
    assert decisive.sum() > 1000
    assert relative.max() <= 2e-3
    # ... and interpolating on a grid twice as coarse is visibly worse: the test can fail
    coarse = PchipInterpolator(model.grid[::2], model.log_tail[::2], axis=0)(model.levels)
    assert np.abs(np.exp(coarse[decisive]) / direct[decisive] - 1).max() > relative.max()


def test_simulations_report_their_progress():
    """``progress(done, total)`` after each batch of simulated competitions, up to all of them."""
    calls = []
    kwargs = {"classifiers": 50, "test_size": 300, "positives": 30, "simulations": 3000, "seed": 1}
    with_progress = best_of_auc(0.8, **kwargs, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (3000, 3000) and len(calls) > 1
    assert [done for done, _ in calls] == sorted({done for done, _ in calls})
    assert with_progress.expected_max == best_of_auc(0.8, **kwargs).expected_max  # the same draws


def _board_model(teams=300, n=400, positives=40, seed=5, max_memory=2 * 10**9):
    """An AUC board of `teams` scores on n items (many distinct levels) and its leaderboard model."""
    from benchtrust.sota._auc_levels import _AucModel

    lattice = positives * (n - positives)
    skill = np.random.default_rng(seed).beta(8, 2, teams) * 0.45 + 0.5
    scores = np.round(sample_auc(skill, test_size=n, positives=positives, size=None, seed=seed) * lattice)
    return _AucModel(scores / lattice, n, positives, 0.05, 1000, seed=seed, max_memory=max_memory)


def test_leaderboard_levels_sum_the_same_whatever_the_blocks_kept(monkeypatch):
    """Each crop level's log P(best <= u) comes from prefix sums over the levels kept at every k-th level
    and in blocks of values of U, the deeper blocks built anew: the numbers are those of one sum over all
    levels on the whole lattice, and keeping one narrow block instead of all of them changes nothing."""
    from scipy.interpolate import PchipInterpolator

    from benchtrust.sota import _auc_levels

    model = _board_model()
    assert model.group > 1 and model.levels.size > 2 * model.group
    tail = np.exp(PchipInterpolator(model.grid, model.log_tail, axis=0)(model.levels))
    with np.errstate(divide="ignore"):
        log_cdf = np.log1p(-np.minimum(tail, 1.0))
    tail_sums = np.cumsum(tail * model.counts[:, None], axis=0)
    log_sums = np.cumsum(log_cdf * model.counts[:, None], axis=0)
    monkeypatch.setattr(_auc_levels, "_BLOCK_BYTES", 2**20)
    monkeypatch.setattr(_auc_levels, "_KEPT_BYTES", 1)
    narrow = _board_model()
    assert narrow.width < model.width and narrow.kept_blocks == 1
    for i in (0, model.group - 1, model.group, model.levels.size // 2, model.levels.size - 1):
        plain, pooled = model._log_cdfs(i)
        reached = np.isfinite(plain)
        assert reached[-2] and not reached.all()  # from the top down to where it is negligible
        kept, m = model.kept[i], model.teams
        expected = (m / kept) * log_sums[i]
        assert np.array_equal(plain[:-1][reached[:-1]], expected[reached[:-1]])
        with np.errstate(divide="ignore"):
            expected = m * np.log1p(-np.minimum(tail_sums[i] / kept, 1.0))
        assert np.allclose(pooled[:-1][reached[:-1]], expected[reached[:-1]], rtol=1e-13, atol=0)
        for wide, thin in zip((plain, pooled), narrow._log_cdfs(i), strict=True):
            both = np.isfinite(wide) & np.isfinite(thin)  # each block ends where a level's is negligible
            assert np.array_equal(wide[both], thin[both]) and both.sum() > narrow.width
            assert np.all(np.maximum(wide, thin)[~both] < _auc_levels._LOG_NEGLIGIBLE)
    assert len(narrow._blocks) == 1 and len(model._blocks) <= model.kept_blocks


def test_leaderboard_memory_estimate_covers_what_the_levels_hold():
    """The memory an AUC board is checked against (max_memory) bounds what its computation allocates at
    once (traced numpy allocations): the tables, then the crop levels' scans of the searches; and a bound
    just below the estimate refuses the board before the tables are computed."""
    import tracemalloc

    from benchtrust._io import check_memory
    from benchtrust.sota import _auc_levels, leaderboard

    lattice, seen = 40 * 360, {}

    def spy(need, max_memory, what):
        seen["need"] = need
        check_memory(need, max_memory, what)

    skill = np.random.default_rng(5).beta(8, 2, 300) * 0.45 + 0.5
    scores = np.round(sample_auc(skill, test_size=400, positives=40, size=None, seed=5) * 1e5) / 1e5
    kwargs = {"test_size": 400, "direction": "higher", "metric": "auc", "positives": 40, "seed": 5}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_auc_levels, "check_memory", spy)
        with pytest.raises(InputError, match=r"^max_memory=1: .*crop levels\) would take about .* GB of"):
            leaderboard(scores, **kwargs, max_memory=1)  # refused before the tables; imports done
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            leaderboard(scores, **kwargs, max_memory=seen["need"])
            held = tracemalloc.get_traced_memory()[1] - before
        finally:
            tracemalloc.stop()
        with pytest.raises(InputError, match=r"max_memory=.*GB of memory; raise it to run anyway$"):
            leaderboard(scores, **kwargs, max_memory=seen["need"] - 1)
    assert 8 * lattice * 30 < held <= seen["need"]  # at least the tables of 30 AUCs, at most the estimate


# auc_pmf's transforms: the window and the band against direct convolution (issue 33)


def _convolved(cells, count):
    """Σ over the rows of each row's pmf convolved with itself ``count`` times, by direct convolution."""
    total = np.zeros(count * (cells.shape[1] - 1) + 1)
    for row in cells:
        pmf = np.ones(1)
        for _ in range(count):
            pmf = np.convolve(pmf, row)
        total += pmf
    return total


def _cells(auc, larger):
    """The cell pmfs of auc_pmf for true AUC ``auc`` and the sorted larger-class rows ``larger``."""
    tail = special.ndtr(math.sqrt(2) * special.ndtri(auc) - larger)
    return np.diff(np.concatenate([np.zeros((len(larger), 1)), 1 - tail, np.ones((len(larger), 1))], axis=1))


@pytest.fixture
def band_calls(monkeypatch):
    """The (transform length N, band) of every _sum_of_counts call, and its window's width."""
    calls = []
    band, window = _auc._band, _auc._window

    def spy_band(cells, centred, count, length, limit):
        calls.append(
            {
                "length": length,
                "band": band(cells, centred, count, length, limit),
                "full": count * (cells.shape[1] - 1) + 1,
            }
        )
        return calls[-1]["band"]

    def spy_window(cells, centred, mean, count):
        lo, hi = window(cells, centred, mean, count)
        calls.append({"window": hi - lo + 1})
        return lo, hi

    monkeypatch.setattr(_auc, "_band", spy_band)
    monkeypatch.setattr(_auc, "_window", spy_window)
    return calls


@pytest.mark.parametrize("wide_band", [False, True])
@pytest.mark.parametrize(
    ("positives", "negatives"), [(40, 40), (60, 90), (90, 60), (25, 200), (1, 30), (3, 3), (120, 20)]
)
def test_auc_pmf_equals_the_direct_convolution(positives, negatives, wide_band, band_calls, monkeypatch):
    """auc_pmf (a window, then the band's direct transform or the FFT, powers by repeated squaring) gives
    the pmf that s direct convolutions of each replicate's cells give, to 1e-15 absolute (they are at most
    about 0.1 here), balanced classes or not; the same draws in both (a generator as the seed: the
    session's memo of auc_pmf, tests/conftest.py, keeps only whole-number seeds). With ``wide_band`` the
    band is taken whatever its cost, so that these small cases check it too."""
    if wide_band:
        band = _auc._band
        monkeypatch.setattr(
            _auc,
            "_band",
            lambda cells, centred, count, length, limit: band(cells, centred, count, length, np.inf),
        )
    aucs = [0.5001, 0.8, 0.97]
    fast = _auc.auc_pmf(
        aucs,
        test_size=positives + negatives,
        positives=positives,
        replicates=6,
        seed=np.random.default_rng(7),
    )
    if wide_band and min(positives, negatives) >= 40:
        assert any(call.get("band") for call in band_calls)
    monkeypatch.setattr(
        _auc, "_sum_of_counts", lambda cells, count, out: out.__iadd__(_convolved(cells, count))
    )
    exact = _auc.auc_pmf(
        aucs,
        test_size=positives + negatives,
        positives=positives,
        replicates=6,
        seed=np.random.default_rng(7),
    )
    assert fast.shape == exact.shape == (3, positives * negatives + 1)
    assert np.abs(fast - exact).max() <= 1e-15
    assert np.allclose(fast.sum(axis=1), 1.0, rtol=0, atol=1e-14)


def test_auc_pmf_takes_both_transforms_and_narrows_the_window(band_calls):
    """With many items in the smaller class the window is a fraction of the n+ n- + 1 values and the band a
    few of the frequencies; with few the rows are transformed by the FFT: both paths are what the test
    above compares."""
    _auc.auc_pmf([0.6, 0.9], test_size=800, positives=400, replicates=4, seed=np.random.default_rng(1))
    _auc.auc_pmf([0.6, 0.9], test_size=200, positives=2, replicates=4, seed=np.random.default_rng(1))
    bands = [call for call in band_calls if "band" in call]
    windows = [call["window"] for call in band_calls if "window" in call]
    assert all(call["band"] < call["length"] / 100 for call in bands[:2])
    assert all(call["length"] < call["full"] / 2 for call in bands[:2]) and max(windows[:2]) < 160_001 / 2
    assert bands[-1]["band"] is None


@pytest.mark.parametrize(("count", "auc"), [(150, 0.6), (150, 0.97), (40, 0.8), (400, 0.9)])
def test_window_and_band_leave_out_at_most_the_negligible_mass(count, auc):
    """The window's Chernoff and Bernstein bounds and the band's bound on |φ| are bounds: the exact pmf of
    each row's sum has at most _NEGLIGIBLE outside the window on either side, and |φ|^count is below it
    at every frequency past the band (computed at all of them by the full FFT)."""
    from scipy import fft

    larger = np.sort(np.random.default_rng(count).standard_normal((3, 30)), axis=1)
    cells = _cells(auc, larger)
    values = np.arange(cells.shape[1])
    mean = cells @ values
    centred = values - mean[:, None]
    lo, hi = _auc._window(cells, centred, mean, count)
    assert hi - lo < count * 30  # narrower than all the values
    for row in cells:
        exact = _convolved(row[None], count)
        assert exact[:lo].sum() <= _auc._NEGLIGIBLE and exact[hi + 1 :].sum() <= _auc._NEGLIGIBLE
    length = 4 * (hi - lo + 1)  # long enough for a band
    band = _auc._band(cells, centred, count, length, np.inf)
    assert band is not None
    modulus = np.abs(fft.rfft(cells, n=length, axis=-1))
    assert np.all(count * np.log(modulus[:, band:]) < math.log(_auc._NEGLIGIBLE))
    assert np.any(count * np.log(modulus[:, band // 4 :]) >= math.log(_auc._NEGLIGIBLE))  # not too loose


# auc_pmf's rows split between the band and the FFT, and the FFT of a divisor of N (issue 33 item 3)


@pytest.mark.parametrize(("width", "count"), [(7, 3), (30, 40), (300, 9), (64, 1), (81, 52)])
def test_fft_powers_equal_the_powers_of_the_real_fft(width, count):
    """_fft_powers (FFTs of length Q | N of the rows turned by the twiddles, the residues above P / 2 from
    conjugates) adds what the real FFT of length N raised to the power adds, at every frequency, whether
    P = N / Q is 1, odd or even."""
    from scipy import fft

    cells = np.random.default_rng(width).random((5, width))
    cells /= cells.sum(axis=1, keepdims=True)
    length = _auc._length(count * (width - 1) + 1)
    total = np.zeros(length // 2 + 1, dtype=complex)
    _auc._fft_powers(cells, count, length, total)
    expected = (fft.rfft(cells, n=length, axis=-1) ** count).sum(axis=0)
    assert np.abs(total - expected).max() <= 1e-13 * cells.shape[0]


@pytest.mark.parametrize("length", [1, 20, 1250, 3125, 156_250, 160_000, 2**17])
def test_period_is_the_least_divisor_at_least_the_width(length):
    divisors = {d for k in range(1, math.isqrt(length) + 1) if length % k == 0 for d in (k, length // k)}
    for width in (w for w in (1, 3, 7, 61, 2_949, length) if w <= length):
        assert _auc._period(length, width) == min(q for q in divisors if q >= width)


def test_sum_of_counts_takes_the_band_and_the_fft_in_one_call(monkeypatch):
    """Rows with a heavy cell near the top (mass 0.3: |φ| stays far above _NEGLIGIBLE^(1 / count) = 0.1 at
    most frequencies) go to the FFT, the smooth rows to the band's direct sums, in one call (groups of 4
    rows); the sum of their pmfs is that of direct convolution to 1e-16 (values up to 0.03)."""
    seen = []
    fft_powers, direct = _auc._fft_powers, _auc._direct

    def spy_fft(cells, *args):
        seen.append(("fft", len(cells)))
        fft_powers(cells, *args)

    def spy_direct(cells, bands, *args):
        seen.append(("direct", len(cells)))
        direct(cells, bands, *args)

    monkeypatch.setattr(_auc, "_fft_powers", spy_fft)
    monkeypatch.setattr(_auc, "_direct", spy_direct)
    monkeypatch.setattr(_auc, "_GROUP", 4)
    values, rng = np.arange(61), np.random.default_rng(2)
    rows = []
    for i in range(12):
        row = np.exp(-0.5 * ((values - rng.uniform(25, 35)) / rng.uniform(6, 10)) ** 2)
        row /= row.sum()
        if i % 3 == 0:  # a heavy cell near the top, as the larger class's sparse top order statistics give
            row *= 0.7
            row[-1 - i // 3] += 0.3
        rows.append(row)
    cells = np.array(rows)
    out = np.zeros(40 * 60 + 1)
    _auc._sum_of_counts(cells, 40, out)
    assert sorted(seen) == [("direct", 8), ("fft", 4)]
    assert np.abs(out - _convolved(cells, 40)).max() <= 1e-16


def test_auc_pmf_leaves_no_matrices_behind(monkeypatch):
    """The direct transforms' cosines and sines are kept for the next AUCs of one auc_pmf call only."""
    monkeypatch.setattr(_auc, "_DIRECT_WORTH", 50.0)  # the band even at these small sizes
    direct, calls = _auc._direct, []
    monkeypatch.setattr(_auc, "_direct", lambda *args: (calls.append(1), direct(*args)))
    _auc.auc_pmf([0.7, 0.9], test_size=80, positives=40, replicates=4, seed=np.random.default_rng(1))
    assert len(calls) == 2 and _auc._unit_roots.cache_info().currsize == 0
