"""How many random draws a Monte Carlo estimate of a probability needs, and its honest standard error.

A probability p estimated as the fraction of S random draws (posterior samples, simulated benchmarks) has
the binomial standard error sqrt(p(1 - p)/S), which is 0 at p = 0 or 1: S draws that all agree would then
claim certainty. They say less: the probability of the other outcome is only known to be below about 3/S
(the upper end of its 95% interval, the "rule of three"). :func:`monte_carlo_error` reports the error of
p kept 1/(S + 1) away from 0 and 1, never 0, and :func:`fewest_draws` the least S with which a rate as
small as r can be told from 0 at all, 3/r.

References
----------
B. D. Jovanovic and P. S. Levy, "A look at the rule of three", The American Statistician 51(2) (1997),
137-139, doi:10.1080/00031305.1997.10473947.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["fewest_draws", "monte_carlo_error"]

#: Slack under an integer before rounding 3/r up (3/0.05 is 60 up to rounding).
_ROUNDING = 1e-9


def fewest_draws(rate) -> int:
    """The fewest draws S from which a probability as small as `rate` r can be told from 0: S >= 3/r.

    With S draws and none showing the event, its probability is only known to be below about 3/S (the
    rule of three, the upper end of the 95% interval); for that to say "below r", 3/S <= r.

    References
    ----------
    B. D. Jovanovic and P. S. Levy (1997), The American Statistician 51(2), 137-139,
    doi:10.1080/00031305.1997.10473947.

    See Also
    --------
    monte_carlo_error

    Examples
    --------
    >>> fewest_draws(0.05), fewest_draws(0.01), fewest_draws(0.5)
    (60, 300, 6)
    """
    return math.ceil(3.0 / rate - _ROUNDING)


def monte_carlo_error(probabilities, samples):
    """The Monte Carlo standard error of probabilities estimated as fractions of `samples` draws, never 0.

    sqrt(p(1 - p)/S) with p clipped to [1/(S + 1), S/(S + 1)]: the binomial standard error, which bounds
    that of a fraction of shares in [0, 1] (the variance of a share is at most p(1 - p)), except that an
    estimate of 0 or 1 is not taken at its word: S draws that all agree only say that the other outcomes
    have probability below about 1/S (3/S at 95%, the rule of three), so the error reported is that of
    p = 1/(S + 1), about 1/S, instead of 0.

    References
    ----------
    B. D. Jovanovic and P. S. Levy (1997), The American Statistician 51(2), 137-139,
    doi:10.1080/00031305.1997.10473947.

    See Also
    --------
    fewest_draws

    Examples
    --------
    >>> monte_carlo_error(np.array([1.0, 0.0, 0.5]), 1).round(3).tolist()
    [0.5, 0.5, 0.5]
    >>> float(monte_carlo_error(np.array([1.0]), 50_000)[0]) > 0
    True
    """
    clipped = np.clip(probabilities, 1.0 / (samples + 1), samples / (samples + 1))
    return np.sqrt(clipped * (1.0 - clipped) / samples)
