"""The unconditional fit's transformation update is a majorisation step (module docstring of
``benchtrust.multiverse._unfolding``, step 2): each claim of its derivation checked from first principles.

Notation: g > 0 the disparities the update starts from, N entries, ḡ their mean, ν² = NΣg²/(Σg)² - 1,
μ = 1 + ω/ν², P = (1 + ν²)/ν⁴, x = (1 + ν²)/ν², G = Σg²/Σg, Ψ = x(ḡ + min g)/min g, L = Ψ(μ + ω) - ωP.
Curvatures are in units of 2/‖g‖², the curvature of ‖γ - g‖²/‖g‖².
"""

from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import isotonic_regression

from benchtrust.multiverse import _unfolding, unfold


def constants(g, omega):
    """ν², μ, P, G and L of the update at g, as the module docstring writes them."""
    N, total, squares = g.size, g.sum(), g @ g
    nu2 = N * squares / total**2 - 1
    mu = 1 + omega / nu2
    P = (1 + nu2) / nu2**2
    psi = (1 + nu2) * (total / N + g.min()) / (nu2 * g.min())
    return nu2, mu, P, squares / total, psi * (mu + omega) - omega * P


def mu_of(gamma, omega):
    """μ(γ) = 1 + ω/ν²(γ) from the definition of ν² (population variance over the squared mean)."""
    return 1 + omega / (gamma.var() / gamma.mean() ** 2)


def quadratic_forms(N, omega):
    """A and B with μ(γ) = γᵀAγ / γᵀBγ: B = N·I - 11ᵀ (γᵀBγ = N²·var γ), A = B + ω11ᵀ."""
    B = N * np.eye(N) - np.ones((N, N))
    return B + omega * np.ones((N, N)), B


def scaled_hessian_of_log_mu(g, omega):
    """μ(g)·∇² log μ(g) in units of 2/‖g‖², exactly: ∇² log(γᵀAγ) = 2A/a - 4AγγᵀA/a², a = γᵀAγ."""
    A, B = quadratic_forms(g.size, omega)
    a, b = g @ A @ g, g @ B @ g
    hessian = 2 * A / a - 4 * np.outer(A @ g, A @ g) / a**2 - 2 * B / b + 4 * np.outer(B @ g, B @ g) / b**2
    return a / b * hessian * (g @ g) / 2


def random_disparities(rng, N):
    """Positive g of every kind the bound must cover: spread out, with a tiny minimum, nearly constant."""
    kind = rng.integers(3)
    if kind == 0:
        return rng.uniform(0.1, 5, N)
    if kind == 1:
        return np.maximum(rng.exponential(1, N) * rng.uniform(0, 1, N) ** 8, 1e-6)
    return 10 + rng.uniform(0, 10.0 ** -rng.uniform(0, 2), N)


def test_the_gradient_of_the_penalty_is_along_g_minus_big_g():
    rng = np.random.default_rng(0)
    for _ in range(20):
        g, omega = rng.uniform(0.1, 5, 9), rng.uniform(0.1, 5)
        _, mu, P, G, _ = constants(g, omega)
        assert mu_of(g, omega) == pytest.approx(mu, rel=1e-12)
        h = 1e-6 * g.mean()
        numeric = [(mu_of(g + h * e, omega) - mu_of(g - h * e, omega)) / (2 * h) for e in np.eye(g.size)]
        np.testing.assert_allclose(numeric, -2 * omega * P / (g @ g) * (g - G), rtol=1e-6)


def test_the_hessian_of_log_mu_is_the_calculus_one():
    """The exact Hessian the bound is checked against agrees with second differences of log μ."""
    rng = np.random.default_rng(1)
    g, omega = rng.uniform(0.5, 3, 6), 0.7
    h, eye = 1e-4, np.eye(6)

    def f(gamma):
        return np.log(mu_of(gamma, omega))

    numeric = np.array(
        [
            [
                (f(g + h * (a + b)) - f(g + h * (a - b)) - f(g - h * (a - b)) + f(g - h * (a + b)))
                / (4 * h * h)
                for b in eye
            ]
            for a in eye
        ]
    )
    expected = scaled_hessian_of_log_mu(g, omega) / mu_of(g, omega) * 2 / (g @ g)
    np.testing.assert_allclose(numeric, expected, rtol=1e-5, atol=1e-7 * np.abs(expected).max())


def test_l_bounds_the_curvature_of_mu_log_mu_and_nearly_attains_it():
    """λ_max(μ ∇² log μ(g)) ≤ 2x(μ + ω) - ωP ≤ L for every g > 0 (Ψ ≥ 2x as ḡ ≥ min g); near a constant g
    the first bound is attained, so L is not loose there, and the curvature of μ itself exceeds L."""
    rng = np.random.default_rng(2)
    ratios, penalty_ratios = [], []
    for _ in range(300):
        g, omega = random_disparities(rng, int(rng.integers(3, 12))), 10 ** rng.uniform(-2, 2)
        nu2, mu, P, _, L = constants(g, omega)
        x = (1 + nu2) / nu2
        top = np.linalg.eigvalsh(scaled_hessian_of_log_mu(g, omega))[-1]
        assert top <= (2 * x * (mu + omega) - omega * P) * (1 + 1e-7)
        ratios.append(top / L)
        # ω/ν² itself: on span{g - ḡ1, 1} its Hessian is ωP [[3, -2ν], [-2ν, ν²]], elsewhere -ωP.
        nu = np.sqrt(nu2)
        penalty_ratios.append(
            np.linalg.eigvalsh(omega * P * np.array([[3, -2 * nu], [-2 * nu, nu2]]))[-1] / L
        )
    assert max(ratios) <= 1 + 1e-7 and max(ratios) > 0.99
    assert max(penalty_ratios) > 2  # a quadratic bound on μ, not on log μ, would need more than L


@pytest.fixture(scope="module")
def ibrier():
    table = pd.read_csv(Path(str(files("benchtrust") / "data")) / "datasample_unfolding_ibrier_774.csv")
    return table.drop(columns=["rep", "nrdatasets", "D1", "D2"]).to_numpy(float)


def updates(monkeypatch, delta, iterations, lam, omega):
    """(γ_{k-1}, d_k, s², γ_k) of each transformation update of an unconditional fit."""
    record, update = [], _unfolding._majorised_disparities

    def recording(previous, d, misfit, *rest):
        fitted = update(previous, d, misfit, *rest)
        record.append((previous.ravel().copy(), d.ravel().copy(), misfit, np.asarray(fitted).ravel().copy()))
        return fitted

    monkeypatch.setattr(_unfolding, "_majorised_disparities", recording)
    unfold(delta, penalty_strength=lam, penalty_range=omega, max_iterations=iterations)
    return record


def check_majorisation(record, delta, lam, omega):
    """Per update, with F(γ, d) = λ log‖γ - d‖² + log μ(γ) = log σ² + const and M its majoriser at g (times
    μ = μ(g)): the Guttman step kept ‖γ - d‖² ≤ s²‖γ‖²; μ log μ lies below its quadratic along the segment
    from g to γ⁺ (the curvature bound L); γ⁺ is the ordinal fit to the minimiser of M; and
    μ F(γ⁺, d) ≤ M(γ⁺) ≤ M(g) ≤ μ F(γ, d_old)."""
    ranks = delta.ravel()
    for previous, d, s2, new in record:
        g = np.maximum(previous, 1e-6)
        _, mu, P, G, L = constants(g, omega)
        y = s2 * (g @ g)  # ‖g - d_old‖², where log‖γ - d‖² is linearised
        gradient = -2 * omega * P / (g @ g) * (g - G)

        def quadratic(gamma, g=g, gradient=gradient, L=L):  # of μ log μ at g, less μ log μ(g)
            return gradient @ (gamma - g) + L / (g @ g) * ((gamma - g) @ (gamma - g))

        def majoriser(gamma, g=g, d=d, y=y, mu=mu, quadratic=quadratic):
            tangent = lam * mu * (np.log(y) + ((gamma - d) @ (gamma - d) - y) / y)
            return tangent + mu * np.log(mu_of(g, omega)) + quadratic(gamma)

        def loss(gamma, d=d, mu=mu):
            return mu * (lam * np.log((gamma - d) @ (gamma - d)) + np.log(mu_of(gamma, omega)))

        scale = abs(majoriser(g)) + mu
        assert (previous - d) @ (previous - d) <= s2 * (previous @ previous) * (1 + 1e-12)
        for t in np.linspace(0, 1, 11)[1:]:
            gamma = g + t * (new - g)
            assert mu * np.log(mu_of(gamma, omega) / mu_of(g, omega)) <= quadratic(gamma) + 1e-12 * scale
        target = (lam * mu * d + s2 * (L * g + omega * P * (g - G))) / (lam * mu + s2 * L)
        order = np.lexsort((target, ranks))  # primary ties: each block of equal δ ordered by its targets
        fit = np.empty_like(target)
        fit[order] = isotonic_regression(target[order]).x
        np.testing.assert_allclose(new, fit, rtol=0, atol=1e-9 * np.abs(fit).max())
        assert loss(new) <= majoriser(new) + 1e-12 * scale
        assert majoriser(new) <= majoriser(g) + 1e-12 * scale
        before = lam * np.log(s2 * (previous @ previous)) + np.log(mu_of(previous, omega))
        assert majoriser(g) <= mu * before + 1e-9 * scale  # equal but for the floor


def test_each_update_of_the_ibrier_fit_is_a_majorisation_step(monkeypatch, ibrier):
    """Iterations 1-25: the start, the large first steps and the floor (min γ < 1e-6 from about 15 on)."""
    record = updates(monkeypatch, ibrier, 25, 0.5, 1.0)
    assert len(record) == 25 and min(previous.min() for previous, *_ in record) < 1e-6
    check_majorisation(record, ibrier, 0.5, 1.0)


@pytest.mark.parametrize(
    ("low", "high", "lam", "omega"),
    [(0, 1, 0.5, 1.0), (1, 13, 1.0, 0.1), (10, 13, 0.25, 5.0), (10, 10.1, 0.5, 1.0)],
)
def test_each_update_of_a_random_fit_is_a_majorisation_step(monkeypatch, low, high, lam, omega):
    """Away from ranks: dissimilarities far from 0 (ḡ ≈ min g, where L is nearly the bound it must be)."""
    delta = np.random.default_rng(3).uniform(low, high, (15, 6))
    check_majorisation(updates(monkeypatch, delta, 60, lam, omega), delta, lam, omega)
