"""The memory a resampling or a simulation holds, estimated before it starts (issue 29: under 2 GB).

The bootstrap and Monte Carlo computations of :mod:`benchtrust.compare` draw their random numbers in chunks
of bounded size (a few MB each), so what grows with the number of resamples or samples is only what must be
kept whole: the resampled statistics of a percentile interval (every value is needed to find the
percentiles), the posterior samples a result returns. :func:`check_memory` compares that with
``max_memory`` before any draw, and refuses with one line that names the option allowing more, as
``max_work`` does for the searches of :mod:`benchtrust.consistency`.
"""

from __future__ import annotations

from benchtrust._io import InputError, check_count

__all__ = ["MAX_MEMORY", "check_memory"]

#: Default of ``max_memory`` (bytes): the most a resampling or a simulation may hold.
MAX_MEMORY = 2 * 10**9


def check_memory(need, max_memory, what) -> None:
    """InputError naming ``max_memory`` when `what` would hold about `need` bytes, more than `max_memory`.

    Parameters
    ----------
    need : int
        The bytes that must be held at once (estimated before the work starts).
    max_memory : int
        The most allowed, a positive whole number of bytes (an InputError otherwise).
    what : str
        What holds them, in words ("the 3,000,000 resampled values of 16 estimates").

    Examples
    --------
    >>> check_memory(10**6, MAX_MEMORY, "a small table")
    >>> check_memory(1.3e10, MAX_MEMORY, "the 1e8 resampled values of 16 estimates")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: max_memory=2e+09: the 1e8 resampled values of 16 estimates would take about \
13 GB of memory; raise it to run anyway
    """
    limit = check_count(max_memory, "max_memory")
    if need > limit:
        raise InputError(
            f"max_memory={limit:.3g}: {what} would take about {need / 1e9:.2g} GB of memory; raise it to run "
            "anyway"
        )
