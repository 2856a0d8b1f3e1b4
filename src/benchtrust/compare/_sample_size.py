"""How many runs a comparison needs: Noether's sample size for P(A > B) (paper appendix C.3)."""

from __future__ import annotations

import math

from benchtrust._io import InputError, check_probability

#: Slack under an integer before rounding the bound up, so that a bound that is an integer up to
#: rounding is not pushed to the next one.
_ROUNDING = 1e-9


def sample_size(gamma=0.75, *, alpha=0.05, beta=0.05) -> int:
    """The smallest number of runs N to detect P(A > B) >= γ reliably (paper C.3, Noether 1987).

        N >= ((Φ⁻¹(1 - α) - Φ⁻¹(β)) / (√6 (1/2 - γ)))²

    where Φ⁻¹ is the standard normal quantile function; the answer is that bound rounded up. The test of
    P(A > B) is equivalent to a Mann-Whitney test, for which Noether's formula gives the sample size.

    Parameters
    ----------
    gamma : float, default 0.75
        γ in (0.5, 1), the probability of outperforming to detect (the paper recommends 0.75).
    alpha : float, default 0.05
        α in (0, 1), the rate of false positives (one-sided).
    beta : float, default 0.05
        β in (0, 1), the rate of false negatives: the power is 1 - β (the paper recommends 0.05; the
        usual range is 0.05 to 0.2).

    Returns
    -------
    int
        N, the number of runs of each pipeline (pairs of runs when paired).

    See Also
    --------
    probability_of_outperforming : P(A > B) over runs of two pipelines, its interval and the decision.
    outperform : P(A > B) of two algorithms of a runs table.
    OutperformResult : P(A > B), its interval and the decision.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. Appendix C.3, Fig. C.1.
    .. [2] Gottfried E. Noether, "Sample size determination for some common nonparametric tests", Journal of
       the American Statistical Association 82(398), 645-647, 1987. doi:10.1080/01621459.1987.10478478.

    Examples
    --------
    The paper's recommendation, γ = 0.75 and α = β = 0.05, needs 29 runs (C.3, Figure C.1):

    >>> sample_size(0.75)
    29
    >>> sample_size(0.6, beta=0.2)
    104
    """
    from scipy.special import ndtri

    gamma = check_probability(gamma, "gamma")
    if gamma <= 0.5:
        raise InputError(f"gamma: expected a value strictly between 0.5 and 1, got {gamma!r}")
    alpha = check_probability(alpha, "alpha")
    beta = check_probability(beta, "beta")
    # Φ⁻¹(1 - α) as -Φ⁻¹(α): exact for every α, where 1 - α rounds to 1 for α below 1e-16
    bound = ((-ndtri(alpha) - ndtri(beta)) / (math.sqrt(6) * (0.5 - gamma))) ** 2
    return max(1, math.ceil(float(bound) - _ROUNDING))
