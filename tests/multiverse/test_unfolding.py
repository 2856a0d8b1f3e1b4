"""Non-metric unfolding by penalised stress (PREFSCAL; Busing, Groenen & Heiser 2005)."""

import itertools
import json

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from benchtrust import InputError
from benchtrust.multiverse._unfolding import (
    TIES,
    TRANSFORMATIONS,
    UnfoldingResult,
    _classical_start,
    _dense_ranks,
    _guttman,
    _loss_and_gradient,
    _ordinal_fit,
    _penalized_stress,
    _reference_start,
    _transform_step,
    _Transformation,
    unfold,
)

#: Every combination of the options that choose the fit: conditionality, transformation, ties.
OPTIONS = list(itertools.product(["unconditional", "row"], TRANSFORMATIONS, TIES))


def planted(n=15, m=7, seed=0):
    """Row and column points in 2-D and their distances."""
    rng = np.random.default_rng(seed)
    X, Y = rng.normal(size=(n, 2)), rng.normal(size=(m, 2))
    return X, Y, np.sqrt(((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2))


def random_ranks(n, m, seed=0, levels=5):
    """Ranks within each row of random integers: many ties (8.5 and the like)."""
    rng = np.random.default_rng(seed)
    return stats.rankdata(rng.integers(0, levels, size=(n, m)), axis=1)


def loss_by_formula(gamma, d, conditionality, lam=0.5, omega=1.0):
    """σ²_p written out from the docstring's definitions."""
    rows = gamma if conditionality == "row" else gamma.reshape(1, -1)
    dist = d if conditionality == "row" else d.reshape(1, -1)
    sigma = ((rows - dist) ** 2).sum(axis=1) / (rows**2).sum(axis=1)
    nu = rows.var(axis=1) / rows.mean(axis=1) ** 2
    return sigma.mean() ** lam * (1 + omega / nu).mean()


def blocks_of(array, conditionality):
    return array if conditionality == "row" else array.reshape(1, -1)


def _loss(gamma, d, lam, omega=0.7):
    return _penalized_stress(gamma, d, lam, omega)


def _project(target, delta, transformation="ordinal", ties="primary", non_negative=True):
    """The least-squares fit of each row of `target` among the admissible disparities of `delta`'s row."""
    return _Transformation(delta, transformation, ties, non_negative=non_negative).fit(target)


# --------------------------------------------------------------------------------------------- recovery


@pytest.mark.parametrize("kind", ["distances", "ranks"])
def test_recovers_a_planted_configuration_unconditionally(kind):
    _, _, D = planted()
    delta = D if kind == "distances" else stats.rankdata(D).reshape(D.shape)
    result = unfold(delta)
    assert result.converged
    assert result.stress < 1e-4
    for fitted, true in zip(result.distances, D, strict=True):
        assert stats.spearmanr(fitted, true)[0] > 0.95
    assert stats.spearmanr(result.distances.ravel(), D.ravel())[0] > 0.99


def test_recovers_row_ranks_row_conditionally():
    _, _, D = planted(seed=1)
    result = unfold(stats.rankdata(D, axis=1), conditionality="row")
    assert result.converged
    assert result.stress < 1e-4
    for fitted, true in zip(result.distances, D, strict=True):
        assert stats.kendalltau(fitted, true)[0] > 0.9


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
def test_disparities_are_non_negative_and_ordered_like_the_dissimilarities(conditionality):
    delta = random_ranks(30, 6, seed=3)
    result = unfold(delta, conditionality=conditionality)
    gamma = result.disparities
    assert np.all(gamma >= 0)
    rows = range(len(delta)) if conditionality == "row" else [slice(None)]
    for row in rows:
        d, g = delta[row].ravel(), gamma[row].ravel()
        below = d[:, None] < d[None, :]
        assert np.all((g[:, None] - g[None, :])[below] <= 1e-9)


# ------------------------------------------------------------------------- monotone loss and stop rules


@pytest.mark.parametrize(("conditionality", "transformation", "ties"), OPTIONS)
def test_loss_never_increases_and_max_iterations_stops_unconverged(conditionality, transformation, ties):
    """For every combination of options, the loss each fit minimises (its penalized_stress) after k
    iterations never increases with k, and max_iterations and tolerance are honoured."""
    delta = random_ranks(25, 6, seed=4)
    options = {"conditionality": conditionality, "transformation": transformation, "ties": ties}
    history = [unfold(delta, **options, max_iterations=k, tolerance=0) for k in range(1, 11)]
    losses = [result.penalized_stress for result in history]
    assert np.all(np.diff(losses) <= 1e-12 * losses[0])
    assert losses[-1] < losses[0]
    assert [result.iterations for result in history] == list(range(1, 11))
    assert not any(result.converged for result in history)
    assert unfold(delta, **options, tolerance=10.0).iterations == 1  # a large tolerance stops at once


def test_a_large_tolerance_stops_after_one_iteration():
    result = unfold(random_ranks(10, 4), tolerance=10.0)
    assert result.converged and result.iterations == 1


@pytest.mark.parametrize("seed", range(3))
def test_a_ratio_fit_keeps_its_scale(seed):
    """The unconditional ratio fit is rescaled to ‖γ‖ = ‖δ‖ after each iteration: its updates are
    equivariant under a common scale, so its map after k iterations is the unrescaled one (up to scale),
    and its penalised stress does not fall by the scale shrinking: it converges as the ordinal fit does."""
    delta = random_ranks(25, 6, seed=seed)
    fit = unfold(delta, transformation="ratio")
    assert fit.converged and fit.iterations < 500
    np.testing.assert_allclose(fit.disparities / delta, fit.disparities[0, 0] / delta[0, 0], rtol=1e-12)


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
def test_each_update_lowers_the_loss(conditionality):
    """The Guttman transform lowers the (row-weighted) raw stress, the projected-gradient step σ²_p."""
    rng = np.random.default_rng(5)
    delta = random_ranks(12, 5, seed=5)
    gamma = delta / np.sqrt((delta**2).mean())
    X, Y = rng.normal(size=(12, 2)), rng.normal(size=(5, 2))
    weights = 1 / (gamma**2).sum(axis=1) if conditionality == "row" else np.ones(12)
    admissible = _Transformation(blocks_of(delta, conditionality), non_negative=True)
    step = None
    for _ in range(20):
        d = np.sqrt(((X[:, None] - Y[None]) ** 2).sum(axis=2))
        before = (weights[:, None] * (gamma - d) ** 2).sum()
        X, Y = _guttman(X, Y, gamma, d, weights)
        d = np.sqrt(((X[:, None] - Y[None]) ** 2).sum(axis=2))
        assert (weights[:, None] * (gamma - d) ** 2).sum() <= before * (1 + 1e-12)
        old = _penalized_stress(blocks_of(gamma, conditionality), blocks_of(d, conditionality), 0.5, 1.0)
        new, loss, step = _transform_step(
            blocks_of(gamma, conditionality), blocks_of(d, conditionality), admissible, 0.5, 1.0, step
        )
        assert loss <= old
        gamma = new.reshape(gamma.shape)


def test_guttman_transform_is_the_schur_complement_solution():
    """The closed form solves V Z = B(Z)Z: it is V⁺'s solution translated so the column points are centred
    (X from the row equations, Y through the pseudo-inverse of the Schur complement), for unit and for row
    weights."""
    rng = np.random.default_rng(6)
    n, m = 6, 4
    X, Y = rng.normal(size=(n, 2)), rng.normal(size=(m, 2))
    gamma = rng.uniform(0.5, 2, size=(n, m))
    d = np.sqrt(((X[:, None] - Y[None]) ** 2).sum(axis=2))
    for weights in (np.ones(n), rng.uniform(0.2, 3, size=n)):
        W = np.zeros((n + m, n + m))
        W[:n, n:] = weights[:, None] * np.ones((n, m))
        W += W.T
        Bw = np.zeros((n + m, n + m))
        Bw[:n, n:] = weights[:, None] * gamma / d
        Bw += Bw.T
        V = np.diag(W.sum(axis=1)) - W
        B = np.diag(Bw.sum(axis=1)) - Bw
        Z = np.linalg.pinv(V) @ B @ np.vstack([X, Y])
        R, C, Wr = V[:n, :n], V[n:, n:], -V[:n, n:]
        H = B @ np.vstack([X, Y])
        schur_Y = np.linalg.pinv(C - Wr.T @ np.linalg.solve(R, Wr)) @ (
            H[n:] + Wr.T @ np.linalg.solve(R, H[:n])
        )
        schur_X = np.linalg.solve(R, H[:n] + Wr @ schur_Y)
        new_X, new_Y = _guttman(X, Y, gamma, d, weights)
        np.testing.assert_allclose(np.vstack([new_X, new_Y]), np.vstack([schur_X, schur_Y]), atol=1e-10)
        np.testing.assert_allclose(new_Y.mean(axis=0), 0, atol=1e-12)
        shift = np.vstack([new_X, new_Y]) - Z  # the same solution up to a common translation
        np.testing.assert_allclose(shift, np.broadcast_to(shift[0], shift.shape), atol=1e-10)


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
def test_gradient_matches_finite_differences(conditionality):
    rng = np.random.default_rng(7)
    gamma = rng.uniform(0.2, 2, size=(4, 5))
    d = rng.uniform(0.2, 2, size=(4, 5))
    g, dd = blocks_of(gamma, conditionality), blocks_of(d, conditionality)
    for lam in (0.5, 1.0):
        _, grad = _loss_and_gradient(g, dd, lam, 0.7)
        numeric = optimize.approx_fprime(g.ravel(), lambda v, lam=lam: _loss(v.reshape(g.shape), dd, lam))
        np.testing.assert_allclose(grad.ravel(), numeric, rtol=1e-5, atol=1e-7)


# ------------------------------------------------------------------------------- projection and ties


def projection_by_qp(target, delta, *, non_negative=True, ties="primary"):
    """min ‖γ - t‖² over γ with γ_a ≤ γ_b whenever δ_a < δ_b (and γ_a = γ_b whenever δ_a = δ_b with
    secondary ties; γ ≥ 0 if `non_negative`), by SLSQP."""
    if ties == "secondary":  # one variable per distinct δ, in δ's order: γ = c[block]
        values, block = np.unique(delta, return_inverse=True)
        levels = projection_by_qp(
            np.bincount(block, weights=target) / np.bincount(block), values, non_negative=non_negative
        )
        fitted = optimize.minimize(
            lambda c: ((c[block] - target) ** 2).sum(),
            levels,
            constraints=[{"type": "ineq", "fun": lambda c: np.diff(c)}],
            bounds=[(0 if non_negative else None, None)] * len(values),
            method="SLSQP",
            options={"ftol": 1e-15, "maxiter": 500},
        ).x
        return fitted[block]
    pairs = [(a, b) for a, b in itertools.permutations(range(len(delta)), 2) if delta[a] < delta[b]]
    constraints = [{"type": "ineq", "fun": lambda g, a=a, b=b: g[b] - g[a]} for a, b in pairs]
    solution = optimize.minimize(
        lambda g: ((g - target) ** 2).sum(),
        np.full(len(target), max(target.mean(), 0.0) if non_negative else target.mean()),
        jac=lambda g: 2 * (g - target),
        bounds=[(0 if non_negative else None, None)] * len(target),
        constraints=constraints,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    return solution.x


@pytest.mark.parametrize("ties", TIES)
@pytest.mark.parametrize("non_negative", [True, False])
def test_ordinal_projection_equals_a_direct_quadratic_program(ties, non_negative):
    rng = np.random.default_rng(8)
    for _ in range(40):
        size = int(rng.integers(2, 8))
        delta = rng.integers(0, 3, size=size).astype(float)
        if np.ptp(delta) == 0:
            continue
        target = rng.normal(size=size) * 2
        fitted = _project(target[None], delta[None], ties=ties, non_negative=non_negative)[0]
        expected = projection_by_qp(target, delta, non_negative=non_negative, ties=ties)
        np.testing.assert_allclose(fitted, expected, atol=1e-6)


def line_by_qp(target, delta, *, non_negative, through_zero=False):
    """min ‖a + bδ - t‖² over b ≥ 0 (a = 0 if `through_zero`; a + b·min δ ≥ 0 if `non_negative`), by
    SLSQP: the fitted values."""
    constraints = [{"type": "ineq", "fun": lambda v: v[1]}]
    if non_negative:
        constraints.append({"type": "ineq", "fun": lambda v: v[0] + v[1] * delta.min()})
    if through_zero:
        constraints.append({"type": "eq", "fun": lambda v: v[0]})
    solution = optimize.minimize(
        lambda v: ((v[0] + v[1] * delta - target) ** 2).sum(),
        np.array([max(target.mean(), 0.0), 0.0]),
        constraints=constraints,
        method="SLSQP",
        options={"ftol": 1e-15, "maxiter": 500},
    )
    a, b = solution.x
    return a + b * delta


@pytest.mark.parametrize("transformation", ["interval", "ratio"])
@pytest.mark.parametrize("non_negative", [True, False])
def test_interval_and_ratio_projections_equal_a_direct_quadratic_program(transformation, non_negative):
    """The exact 2-D quadratic programs: every case of the boundary is met (a negative intercept, a
    negative slope, both), each row on its own."""
    rng = np.random.default_rng(16)
    delta = rng.uniform(0.5, 6, size=(60, 5)).round()
    delta[:, 0] = 1.0
    delta[:, 1] = 6.0  # no constant row
    target = rng.normal(size=(60, 5)) * 3 + rng.normal(size=(60, 1)) * 3
    fitted = _project(target, delta, transformation, non_negative=non_negative)
    through_zero = transformation == "ratio"
    for row in range(len(delta)):
        expected = line_by_qp(target[row], delta[row], non_negative=non_negative, through_zero=through_zero)
        np.testing.assert_allclose(fitted[row], expected, atol=1e-6)
    if non_negative:
        assert np.all(fitted >= 0)


def test_ordinal_fit_equals_a_direct_quadratic_program_from_any_previous_order():
    """The unconditional update's fit (no floor at 0) is the same whatever order the previous update
    left: the order only speeds up the sort."""
    rng = np.random.default_rng(10)
    for _ in range(40):
        size = int(rng.integers(2, 8))
        delta = rng.integers(0, 3, size=size).astype(float)
        target = rng.normal(size=size) * 2
        ranks = _dense_ranks(delta[None])[0]
        expected = projection_by_qp(target, delta, non_negative=False)
        for previous in (np.argsort(ranks, kind="stable"), rng.permutation(size)):
            fitted, order = _ordinal_fit(target, ranks, previous)
            np.testing.assert_allclose(fitted, expected, atol=1e-6)
            assert np.all(np.diff(ranks[order].astype(int)) >= 0)
        # the unconditional fit's transformation: one block, its order carried from fit to fit
        admissible = _Transformation(delta[None], non_negative=False)
        for _ in range(2):
            np.testing.assert_allclose(admissible.fit(target[None])[0], expected, atol=1e-6)


def test_tied_dissimilarities_leave_their_disparities_free():
    # δ = (1, 1, 2): the tie block {0, 1} is ordered below entry 2 as a block only.
    fitted = _project(np.array([[3.0, 1.0, 2.0]]), np.array([[1.0, 1.0, 2.0]]))[0]
    np.testing.assert_allclose(fitted, [2.5, 1.0, 2.5])
    # Within a tie block any order is feasible: the target is its own projection.
    target = np.array([[5.0, 0.5, 3.0, 6.0]])
    np.testing.assert_allclose(_project(target, np.array([[2.0, 2.0, 2.0, 3.0]])), target)
    # Negative targets are clipped to 0.
    np.testing.assert_allclose(_project(np.array([[-1.0, -3.0]]), np.array([[1.0, 2.0]])), 0)


def test_secondary_ties_give_tied_dissimilarities_their_block_mean():
    """Kruskal's secondary approach: a tie block gets one value, the weighted isotonic regression of the
    block means (weights: the block sizes)."""
    delta = np.array([[1.0, 1.0, 2.0, 3.0, 3.0, 3.0]])
    target = np.array([[1.0, 0.5, 3.0, 6.0, -1.0, 1.0]])
    # blocks: {0, 1} mean 0.75 (size 2), {2} 3.0 (size 1), {3, 4, 5} mean 2.0 (size 3): the last two pool
    # to (3.0 + 3 · 2.0) / 4 = 2.25
    np.testing.assert_allclose(
        _project(target, delta, ties="secondary"), [[0.75, 0.75, 2.25, 2.25, 2.25, 2.25]]
    )
    # the unconditional fit does not clip, the row-conditional one does
    low = np.array([[-4.0, -2.0, 1.0, 1.0, 1.0, 1.0]])
    np.testing.assert_allclose(_project(low, delta, ties="secondary", non_negative=False)[0, :2], -3.0)
    np.testing.assert_allclose(_project(low, delta, ties="secondary")[0, :2], 0.0)


@pytest.mark.parametrize(("transformation", "ties"), list(itertools.product(TRANSFORMATIONS, TIES)))
def test_row_projection_equals_row_by_row_projection(transformation, ties):
    rng = np.random.default_rng(9)
    delta = random_ranks(8, 6, seed=9, levels=3)
    target = rng.normal(size=(8, 6)) * rng.uniform(0.01, 100, size=(8, 1)) + rng.normal(size=(8, 1)) * 50
    together = _project(target, delta, transformation, ties)
    one_by_one = np.vstack(
        [_project(t[None], row[None], transformation, ties) for t, row in zip(target, delta, strict=True)]
    )
    np.testing.assert_allclose(together, one_by_one, rtol=1e-10, atol=1e-9)


def test_row_conditional_fit_lowers_the_loss_from_the_start():
    delta = random_ranks(40, 7, seed=10)
    first = unfold(delta, conditionality="row", max_iterations=1)
    final = unfold(delta, conditionality="row")
    assert final.penalized_stress < first.penalized_stress
    assert final.converged


# ------------------------------------------------------------------ transformations, ties and the start


def blocks_with_their_dissimilarities(result, delta):
    """(γ, δ) of each block the fit's transformation acts on: the whole matrix, or each row."""
    if result.conditionality == "row":
        return list(zip(result.disparities, delta, strict=True))
    return [(result.disparities.ravel(), delta.ravel())]


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
def test_secondary_ties_give_tied_dissimilarities_equal_disparities(conditionality):
    delta = random_ranks(30, 6, seed=17, levels=3)
    secondary = unfold(delta, conditionality=conditionality, ties="secondary", max_iterations=500)
    spread = []
    for gamma, dissimilarities in blocks_with_their_dissimilarities(secondary, delta):
        for value in np.unique(dissimilarities):
            tied = gamma[dissimilarities == value]
            assert np.ptp(tied) <= 1e-12 * np.abs(gamma).max()
        below = dissimilarities[:, None] < dissimilarities[None, :]
        assert np.all((gamma[:, None] - gamma[None, :])[below] <= 1e-9)
    primary = unfold(delta, conditionality=conditionality, max_iterations=500)
    for gamma, dissimilarities in blocks_with_their_dissimilarities(primary, delta):
        spread += [np.ptp(gamma[dissimilarities == value]) for value in np.unique(dissimilarities)]
    assert max(spread) > 1e-3  # primary ties leave tied disparities free, and here they differ
    assert secondary.ties == "secondary" and primary.ties == "primary"


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
@pytest.mark.parametrize("ties", TIES)
def test_ratio_disparities_are_proportional_to_the_dissimilarities(conditionality, ties):
    delta = random_ranks(30, 6, seed=18)
    result = unfold(delta, conditionality=conditionality, transformation="ratio", ties=ties)
    for gamma, dissimilarities in blocks_with_their_dissimilarities(result, delta):
        positive = dissimilarities > 0
        ratios = gamma[positive] / dissimilarities[positive]
        assert np.ptp(ratios) <= 1e-12 * ratios.max() and ratios.min() >= 0
    assert result.transformation == "ratio"


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
@pytest.mark.parametrize("ties", TIES)
def test_interval_disparities_are_affine_in_the_dissimilarities_with_a_non_negative_slope(
    conditionality, ties
):
    delta = random_ranks(30, 6, seed=19)
    result = unfold(delta, conditionality=conditionality, transformation="interval", ties=ties)
    for gamma, dissimilarities in blocks_with_their_dissimilarities(result, delta):
        design = np.column_stack([np.ones_like(dissimilarities), dissimilarities])
        (a, b), *_ = np.linalg.lstsq(design, gamma, rcond=None)
        assert np.abs(a + b * dissimilarities - gamma).max() <= 1e-12 * np.abs(gamma).max()
        assert b >= 0
    if conditionality == "row":
        assert np.all(result.disparities >= 0)
    assert result.transformation == "interval"


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
def test_the_default_start_given_as_init_gives_the_default_fit(conditionality):
    """A user start replaces the default start and goes through the same steps: given the classical start
    itself it gives the default fit, and unconditionally, where the blocks are brought to equal norm and
    the first Guttman transform does not depend on the configuration's scale, the same fit from the start
    with its blocks scaled by any factors."""
    delta = random_ranks(20, 5, seed=20)
    start = (_classical_start if conditionality == "row" else _reference_start)(delta, 2)
    default = unfold(delta, conditionality=conditionality, max_iterations=500)
    given = unfold(delta, conditionality=conditionality, init=start, max_iterations=500)
    np.testing.assert_allclose(given.row_points, default.row_points, atol=1e-12)
    assert given.iterations == default.iterations
    if conditionality == "unconditional":
        scaled = unfold(delta, init=(start[0] * 7.0, start[1] / 3.0), max_iterations=500)
        np.testing.assert_allclose(scaled.row_points, default.row_points, atol=1e-9)
        np.testing.assert_allclose(scaled.disparities, default.disparities, atol=1e-9)


@pytest.mark.parametrize(("conditionality", "transformation", "ties"), OPTIONS)
def test_starting_from_a_fit_s_own_points_gives_a_fit_as_good(conditionality, transformation, ties):
    """Started from the points a fit ended at, the fit is as good, up to 1%: the disparities start again
    from the dissimilarities (the reference takes a configuration only as its start), so the refit is a new
    path; on random ranks the unconditional ordinal refit lands up to 1.5% better or 0.9% worse."""
    delta = random_ranks(25, 6, seed=21)
    options = {"conditionality": conditionality, "transformation": transformation, "ties": ties}
    fit = unfold(delta, **options, max_iterations=3000)
    refit = unfold(delta, **options, init=(fit.row_points, fit.column_points), max_iterations=3000)
    before = loss_by_formula(fit.disparities, fit.distances, conditionality)
    after = loss_by_formula(refit.disparities, refit.distances, conditionality)
    assert after <= before * 1.01


# ------------------------------------------------------------------------------ loss, scale, shares


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
def test_reported_losses_follow_from_the_returned_disparities_and_distances(conditionality):
    """Stress-1 and the reported scale; the row-conditional σ²_p too (the unconditional penalised stress is
    the reference's, on the iterations' own scale: checked against its trace in the Fig. 6 tests)."""
    result = unfold(
        random_ranks(20, 5, seed=11), conditionality=conditionality, penalty_range=0.8, max_iterations=500
    )
    gamma, d = result.disparities, result.distances
    if conditionality == "row":
        assert result.penalized_stress == pytest.approx(loss_by_formula(gamma, d, "row", omega=0.8))
    best_scale = (gamma * d).sum() / (d**2).sum()
    expected = np.sqrt(((gamma - best_scale * d) ** 2).sum() / (gamma**2).sum())  # stress-1, all cells
    assert result.stress == pytest.approx(expected)
    X, Y = result.row_points, result.column_points
    np.testing.assert_allclose(d, np.sqrt(((X[:, None] - Y[None]) ** 2).sum(axis=2)), atol=1e-12)
    assert (d**2).sum() == pytest.approx(d.size)  # reported as the reference does: Σ d² = n·m
    np.testing.assert_allclose(Y.mean(axis=0), 0, atol=1e-12)  # column points centred


def test_row_loss_is_invariant_to_a_common_scale_of_disparities_and_configuration():
    result = unfold(random_ranks(20, 5, seed=12), conditionality="row", max_iterations=5)
    gamma, X, Y = result.disparities, result.row_points, result.column_points
    for scale in (0.01, 3.0, 1e4):
        d = np.sqrt(((scale * X[:, None] - scale * Y[None]) ** 2).sum(axis=2))
        assert _loss(scale * gamma, d, 0.5, 1.0) == pytest.approx(result.penalized_stress, rel=1e-12)


def test_stress_per_point_is_a_share_of_the_squared_residuals():
    result = unfold(random_ranks(20, 5, seed=13))
    residual = (result.disparities - result.distances) ** 2
    assert result.row_stress.sum() == pytest.approx(100)
    assert result.column_stress.sum() == pytest.approx(100)
    np.testing.assert_allclose(result.row_stress, 100 * residual.sum(axis=1) / residual.sum())
    np.testing.assert_allclose(result.column_stress, 100 * residual.sum(axis=0) / residual.sum())


# ----------------------------------------------------------------------------------- result and inputs


def test_result_labels_repr_and_json():
    delta = pd.DataFrame(random_ranks(6, 4, seed=14), index=list("abcdef"), columns=["w", "x", "y", "z"])
    result = unfold(delta, dimensions=1)
    assert isinstance(result, UnfoldingResult)
    assert result.row_labels == tuple("abcdef") and result.column_labels == ("w", "x", "y", "z")
    assert result.row_points.shape == (6, 1) and result.column_points.shape == (4, 1)
    text = repr(result)
    assert text.startswith("UnfoldingResult(6 rows x 4 columns in 1 dimensions, unconditional, stress=")
    assert "iterations=" in text and "penalized_stress=" in text
    data = json.loads(json.dumps(result.to_dict()))
    assert data["row_labels"] == list("abcdef") and data["conditionality"] == "unconditional"
    assert np.array(data["disparities"]).shape == (6, 4)
    assert isinstance(data["iterations"], int) and isinstance(data["converged"], bool)
    with pytest.raises(ValueError, match="read-only"):
        result.row_points[0, 0] = 1.0


@pytest.mark.parametrize("conditionality", ["unconditional", "row"])
def test_two_runs_give_identical_results(conditionality):
    delta = random_ranks(30, 6, seed=15)
    a, b = (unfold(delta, conditionality=conditionality) for _ in range(2))
    assert a.to_dict() == b.to_dict()


GOOD = [[1, 2, 3], [3, 2, 1], [2, 1, 3]]


@pytest.mark.parametrize(
    ("arguments", "name"),
    [
        ({"dissimilarities": [[1, 2], [np.nan, 1]]}, "dissimilarities"),
        ({"dissimilarities": [[1, 2], [np.inf, 1]]}, "dissimilarities"),
        ({"dissimilarities": [[1, -2], [3, 1]]}, "dissimilarities"),
        ({"dissimilarities": [[1, 2, 3]]}, "dissimilarities"),
        ({"dissimilarities": [[1], [2]]}, "dissimilarities"),
        ({"dissimilarities": [1, 2, 3]}, "dissimilarities"),
        ({"dissimilarities": [["a", "b"], ["c", "d"]]}, "dissimilarities"),
        ({"dissimilarities": [[2, 2], [2, 2]]}, "dissimilarities"),
        ({"dissimilarities": [[1, 2, 3], [3, 3, 3]], "conditionality": "row"}, "dissimilarities"),
        ({"dimensions": 0}, "dimensions"),
        ({"dimensions": 3}, "dimensions"),
        ({"dimensions": 1.5}, "dimensions"),
        ({"dimensions": True}, "dimensions"),
        ({"conditionality": "column"}, "conditionality"),
        ({"transformation": "mspline"}, "transformation"),
        ({"transformation": "Ordinal"}, "transformation"),
        ({"ties": "tertiary"}, "ties"),
        ({"init": np.ones((3, 2))}, "init"),
        ({"init": 5}, "init"),
        ({"init": (np.ones((3, 2)), np.ones((2, 2)))}, "init"),
        ({"init": (np.ones((3, 1)), np.ones((3, 1)))}, "init"),
        ({"init": (np.ones((3, 3)), np.ones((3, 3)))}, "init"),
        ({"init": ([[1, 2], [3, np.nan], [0, 1]], np.ones((3, 2)))}, "init"),
        ({"init": (np.zeros((3, 2)), np.ones((3, 2)))}, "init"),
        ({"init": (np.ones((3, 2)), np.ones((3, 2)))}, "init"),
        ({"init": ([["a", "b"]] * 3, np.ones((3, 2)))}, "init"),
        ({"row_labels": "name"}, "row_labels"),
        ({"penalty_strength": 0}, "penalty_strength"),
        ({"penalty_strength": 1.5}, "penalty_strength"),
        ({"penalty_strength": "0.5"}, "penalty_strength"),
        ({"penalty_range": 0}, "penalty_range"),
        ({"penalty_range": -1.0}, "penalty_range"),
        ({"penalty_range": np.inf}, "penalty_range"),
        ({"tolerance": -1e-6}, "tolerance"),
        ({"max_iterations": 0}, "max_iterations"),
        ({"max_iterations": 2.5}, "max_iterations"),
    ],
)
def test_bad_arguments_are_named(arguments, name):
    arguments = {"dissimilarities": GOOD, **arguments}
    with pytest.raises(InputError, match=f"^{name}: "):
        unfold(**arguments)


def test_coincident_columns_counts_methods_drawn_on_top_of_another():
    """Two column points at the same place are both counted; well-separated ones are not."""
    import dataclasses

    fitted = unfold([[1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 1, 2], [4, 3, 2, 1]])
    assert fitted.coincident_columns() == 0
    Y = np.array(fitted.column_points)
    Y[1] = Y[0] + 1e-9
    assert dataclasses.replace(fitted, column_points=Y).coincident_columns() == 2
    assert fitted.to_dict()["coincident_columns"] == 0
    assert not fitted.degenerate


def test_the_fit_explains_itself():
    import dataclasses

    delta = pd.DataFrame(
        [[1, 2, 3, 4], [2, 1, 3, 4], [4, 3, 1, 2], [4, 3, 2, 1]],
        index=list("abcd"),
        columns=["<b>Ben & Jerry's</b>", "x", "y", "z"],
    )
    fitted = unfold(delta)
    assert fitted.verdict == (
        f"Unconditional unfolding in 2 dimensions: stress {fitted.stress:.4f}, penalized stress "
        f"{fitted.penalized_stress:.4f}, {fitted.iterations} iterations; no two column points coincide."
    )
    Y = np.array(fitted.column_points)
    Y[1] = Y[0]
    clumped = dataclasses.replace(fitted, column_points=Y, converged=False)
    assert clumped.degenerate
    assert clumped.verdict.endswith(
        "iterations; degenerate: 2 of 4 column points (nearly) coincide with another, so the map does not "
        f"separate them. It did not converge: it stopped at the limit of {fitted.iterations} iterations with "
        "the penalized stress still falling, so the map may still move; allow more (max_iterations)."
    )
    frame = fitted.to_frame()
    assert list(frame.columns) == ["kind", "label", "dim1", "dim2", "stress_share"]
    assert frame["kind"].tolist() == ["row"] * 4 + ["column"] * 4
    assert frame["label"].tolist() == [*"abcd", "<b>Ben & Jerry's</b>", "x", "y", "z"]
    np.testing.assert_array_equal(frame[["dim1", "dim2"]].to_numpy()[4:], fitted.column_points)
    assert frame.groupby("kind")["stress_share"].sum().to_numpy() == pytest.approx([100, 100])
    assert unfold(delta.to_numpy()).to_frame()["label"].tolist() == ["1", "2", "3", "4"] * 2
    html = fitted._repr_html_()
    assert "<b>" not in html and "<td>&lt;b&gt;Ben &amp; Jerry&#39;s&lt;/b&gt;</td>" in html


def test_a_file_is_read_as_a_matrix_with_its_header_as_column_labels(tmp_path):
    path = tmp_path / "ranks.csv"
    path.write_text("A,B,C\n1,2,3\n3,2,1\n2,1,3\n", encoding="utf-8")
    from_file = unfold(path)
    assert from_file.column_labels == ("A", "B", "C") and from_file.row_labels is None
    np.testing.assert_array_equal(from_file.row_points, unfold(GOOD).row_points)
    path.write_text("A,B,C\n1,2,3\n3,x,1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"ranks\.csv, line 3, column 'B': 'x'"):
        unfold(path)
    path.write_text("A,B,C\n1,2,3\n3,-2,1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"ranks\.csv, line 3, column 'B': '-2' is negative"):
        unfold(str(path))
    with pytest.raises(InputError, match="no such file"):
        unfold(tmp_path / "missing.csv")


def test_a_file_s_column_of_row_labels_labels_the_rows(tmp_path):
    path = tmp_path / "ranks.csv"
    path.write_text("A,name,B,C\n1,ann,2,3\n3,bob,2,1\n2,cy,1,3\n", encoding="utf-8")
    fitted = unfold(path, row_labels="name")
    assert fitted.row_labels == ("ann", "bob", "cy") and fitted.column_labels == ("A", "B", "C")
    np.testing.assert_array_equal(fitted.row_points, unfold(GOOD).row_points)
    assert fitted.to_frame()["label"].tolist() == ["ann", "bob", "cy", "A", "B", "C"]
    assert json.loads(json.dumps(fitted.to_dict()))["row_labels"] == ["ann", "bob", "cy"]
    with pytest.raises(
        InputError,
        match=r"ranks\.csv, line 1: no column 'label' of row labels \(row_labels\); found 'A', 'name'",
    ):
        unfold(path, row_labels="label")
    with pytest.raises(
        InputError,
        match=r"ranks\.csv, line 2, column 'name': 'ann' is not a number; if column 'name' labels the rows, "
        r"name it as the column of row labels \(row_labels\)$",
    ):
        unfold(path)
    with pytest.raises(InputError, match=r"^row_labels: expected the name of a column, got 1$"):
        unfold(path, row_labels=1)
    path.write_text("A,name,B,C\n1,ann,2,3\n3,,2,1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"ranks\.csv, line 3, column 'name': empty, expected a row label"):
        unfold(path, row_labels="name")
    path.write_text("A,name,B,C\n1,ann,2,3\n3,bob,x,1\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"ranks\.csv, line 3, column 'B': 'x'"):
        unfold(path, row_labels="name")


def test_the_options_are_recorded_and_stated_when_not_the_defaults():
    delta = random_ranks(10, 4, seed=22)
    stated = {  # between "unconditional, 2 dimensions, " and "penalty strength 0.5, range 1"
        ("ordinal", "primary"): "",
        ("ordinal", "secondary"): "secondary ties, ",
        ("ratio", "primary"): "ratio transformation, ",
        ("interval", "secondary"): "interval transformation, ",  # ties change only an ordinal fit
    }
    for (transformation, ties), options in stated.items():
        fitted = unfold(delta, transformation=transformation, ties=ties, max_iterations=5)
        data = json.loads(json.dumps(fitted.to_dict()))
        assert (data["transformation"], data["ties"]) == (transformation, ties)
        settings = f"unconditional, 2 dimensions, {options}penalty strength 0.5, range 1"
        assert dict(fitted.describe().assumptions)["unfolding"] == settings
