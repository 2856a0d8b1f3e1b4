"""Published improvements against benchmark noise (paper §2.2, "The bigger picture", Fig. 3).

Given the successive state-of-the-art results on one benchmark (date, score) and the benchmark's standard
deviation σ (or, for an accuracy on a test set of n items, the binomial σ = sqrt(p(1 - p)/n) of §2.2), each
result is compared with the best result published before it, and its increment is called significant when
it exceeds the threshold of a one-sided z-test between two single runs:

    threshold = z_{1-α} sqrt(σ_new² + σ_prior²)

This is §3.1's z-test, "a difference of at least z_{0.05} sqrt((σ_A² + σ_B²)/k)", with k = 1 run of each
(a published result is one run); with a common σ it is z_{1-α} √2 σ, 2.33σ for α = 0.05. Fig. 3 draws σ
(red band) and this threshold (yellow band) above the prior state of the art, with green marks for the
results above the threshold and red crosses for the others; the paper does not print the constant it used.
"""

from __future__ import annotations

import dataclasses
import datetime
import numbers
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._io import InputError, check_count, check_number, check_probability
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA, SIGMA
from benchtrust.compare._pipelines import _text
from benchtrust.compare._pipelines._outperform import direction_of
from benchtrust.compare._pipelines._plot import plot_history
from benchtrust.compare._pipelines._runs import _source, iso_date, read_history
from benchtrust.compare._pipelines._text import COMPARE_QUESTION, SOURCE

if TYPE_CHECKING:
    import pandas as pd
    from numpy.typing import ArrayLike

    from benchtrust._io import Direction


@dataclasses.dataclass(frozen=True, eq=False)
class HistoryResult(Result):
    """Which published improvements exceed the noise of the benchmark (Fig. 3).

    Arrays are in date order (ties keep the order given).

    Attributes
    ----------
    dates : numpy.ndarray
        Dates of the results: ``datetime64[D]``, or floats (e.g. years) if numbers were given.
    scores : numpy.ndarray
        The results' scores.
    sigma : numpy.ndarray
        σ of each result (the given σ, or sqrt(p(1 - p)/n)).
    prior_best : numpy.ndarray
        Best score published before each result (NaN for the first).
    increments : numpy.ndarray
        Improvement over the prior best, positive when better (NaN for the first).
    thresholds : numpy.ndarray
        z_{1-α} sqrt(σ² + σ_prior²), the smallest significant improvement (NaN for the first).
    significant : numpy.ndarray
        Increment > threshold (False for the first result, which has nothing to improve on).
    alpha : float
        α of the one-sided z-test.
    z : float
        z_{1-α}.
    test_size : int or None
        n, when σ comes from the binomial model.
    direction : {"higher", "lower"}
        Which scores are better: "lower" for errors (:attr:`lower_is_better`, the old spelling, is
        ``direction == "lower"``).
    source : str or None
        The history file, when read from one.
    inputs : tuple of str
        The history file, as named, when read from one.

    See Also
    --------
    history : Which state-of-the-art increments exceed the benchmark's noise.
    plot_history : Draw published results against the benchmark's noise.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 3; §3.1.
    """

    dates: np.ndarray
    scores: np.ndarray
    sigma: np.ndarray
    prior_best: np.ndarray
    increments: np.ndarray
    thresholds: np.ndarray
    significant: np.ndarray
    alpha: float
    z: float
    test_size: int | None
    direction: Direction
    source: str | None = None

    def __repr__(self) -> str:
        compared = max(self.scores.size - 1, 0)
        source = f"test_size={self.test_size}" if self.test_size is not None else f"sigma={self.sigma[0]:.6g}"
        return (
            f"HistoryResult(results={self.scores.size}, {source}, alpha={self.alpha:g}, "
            f"significant={int(self.significant.sum())}/{compared}, "
            f"first_threshold={self.thresholds[1] if compared else float('nan'):.6g})"
        )

    @property
    def significant_increments(self) -> int:
        """How many results improve on the best before them by more than the noise (of ``compared``)."""
        return int(self.significant.sum())

    @property
    def compared(self) -> int:
        """How many results have a best result before them to improve on: all but the first."""
        return max(self.scores.size - 1, 0)

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §2.2, §3.1): how many results improve on the best before them by
        more than the noise of the benchmark."""
        return _text.history_verdict(self)

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower score is better: ``direction == "lower"`` (the old spelling, for old code)."""
        return self.direction == "lower"

    def describe(self) -> Description:
        """The summary ``benchtrust compare history`` prints (paper §2.2, §3.1, Fig. 3), its section (with
        Fig. 3) and its data (dates as ISO strings or numbers); its table has one row per result in date
        order: ``date``, ``score``, ``sigma``, ``prior_best``, ``increment``, ``threshold`` (NaN for the
        first result) and ``significant`` (the increment exceeds the threshold)."""

        def number(value: float) -> str:
            return "" if np.isnan(value) else f"{value:.4f}"

        def rows() -> tuple[tuple[str, ...], ...]:  # one per result: made only for the text and the section
            return tuple(
                (
                    _text.history_date(self, k),
                    f"{self.scores[k]:.4f}",
                    number(self.increments[k]),
                    number(self.thresholds[k]),
                    "" if k == 0 else ("yes" if self.significant[k] else "no"),
                )
                for k in range(self.scores.size)
            )

        sigma = (
            f"binomial: sqrt(p(1 - p)/n), n = {self.test_size}"
            if self.test_size is not None
            else f"{self.sigma[0]:g}"
        )
        dates = (
            np.datetime_as_string(self.dates) if self.dates.dtype.kind == "M" else self.dates.astype(float)
        )
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=lambda: _text.history_text(self),
            data={
                "dates": dates,
                "scores": self.scores,
                "sigma": self.sigma,
                "prior_best": self.prior_best.astype(float),
                "increments": self.increments.astype(float),
                "thresholds": self.thresholds.astype(float),
                "significant": np.asarray(self.significant, dtype=bool),
                "alpha": self.alpha,
                "z": self.z,
                "test_size": self.test_size,
                "direction": self.direction,
            },
            columns=("date", "score", "increment", "threshold", "exceeds the noise"),
            rows=rows,
            frame={
                "date": self.dates,
                "score": self.scores,
                "sigma": self.sigma,
                "prior_best": self.prior_best,
                "increment": self.increments,
                "threshold": self.thresholds,
                "significant": self.significant,
            },
            assumptions=(
                (SIGMA, sigma),
                ("test of each increment", f"one-sided z-test, {ALPHA} = {self.alpha:g}, z = {self.z:.3f}"),
                ("better scores", self.direction),
            ),
            source=f"{SOURCE}, §2.2, §3.1, Fig. 3",
            inputs=self.inputs,
            analysis="compare history",
            figure=lambda: plot_history(self),
        )


def _dates(values):
    """Numbers as floats, or dates (date, datetime, numpy datetime64, ISO strings) as datetime64[D]."""
    if isinstance(values, (str, bytes)):
        raise InputError(f"dates: expected a list of dates, got {values!r:.60}")
    values = list(values)
    if not values:
        raise InputError("dates: expected at least one date")
    if all(type(v) is float for v in values):  # e.g. a table's numeric dates: checked at numpy speed
        out = np.array(values)
        if np.isfinite(out).all():
            return out
    if all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in values):
        return np.array([check_number(v, "dates") for v in values])
    out = []
    for i, v in enumerate(values):
        if isinstance(v, datetime.datetime):
            v = v.date()
        day = None
        if isinstance(v, str):
            day = iso_date(v)
        elif isinstance(v, (datetime.date, np.datetime64)):
            day = np.datetime64(v, "D")
        if day is not None and not np.isnat(day):
            out.append(day)
            continue
        raise InputError(
            f"dates: entry {i + 1}: expected a date (e.g. '2019-05-28') or a number, got {v!r:.60}"
        )
    return np.array(out, dtype="datetime64[D]")


def _is_table(value: object) -> bool:
    """Whether `value` is a table: a file path or a pandas DataFrame (pandas is not imported for this)."""
    if isinstance(value, (str, os.PathLike)):
        return True
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(value, pandas.DataFrame)


def history(
    dates: Iterable[str | float | datetime.date | np.datetime64] | str | os.PathLike[str] | pd.DataFrame,
    scores: ArrayLike | None = None,
    *,
    sigma: float | None = None,
    test_size: int | None = None,
    alpha: float = 0.05,
    direction: Direction = "higher",
    date_column: str = "date",
    score_column: str = "score",
    lower_is_better: bool | None = None,
) -> HistoryResult:
    """Mark which state-of-the-art increments exceed the benchmark's noise (paper Fig. 3, §2.2, §3.1).

    Each result (in date order) is compared with the best score published before it; its increment is
    significant when it exceeds z_{1-α} sqrt(σ² + σ_prior²), the one-sided z-test of §3.1 between two single
    runs, σ_prior being the σ of that prior best result.

    Parameters
    ----------
    dates : sequence, or a table
        Publication dates: ``datetime.date``, ISO strings ('2019-05-28'), ``numpy.datetime64``, or numbers
        such as fractional years. Or, without `scores`, a table of the history, one published result per
        row: a CSV/TSV file or a pandas DataFrame with columns `date_column` and `score_column`.
    scores : sequence of float
        The results' scores, one per date (not given with a table).
    sigma : float, optional
        σ, the benchmark's standard deviation of one result, in the units of the scores (e.g. measured as in
        §2.2). Give either `sigma` or `test_size`.
    test_size : int, optional
        n, the test set size of an accuracy (or error rate) benchmark: σ = sqrt(p(1 - p)/n) for a score p
        (the binomial model of §2.2, Fig. 2), so scores must lie in [0, 1].
    alpha : float, default 0.05
        α of the one-sided z-test; z_{1-α} = 1.645 for 0.05.
    direction : {"higher", "lower"}, default "higher"
        Which scores are better: "lower" for error rates, where an improvement is a decrease.
    date_column, score_column : str, default "date", "score"
        The table's columns of dates and of scores (matched in any case).
    lower_is_better : bool, optional
        Deprecated: the old spelling of `direction` (True is ``direction="lower"``).

    Returns
    -------
    HistoryResult
        Read from a table file, its ``source`` and ``inputs`` name the file.

    Raises
    ------
    benchtrust.InputError
        For a table, naming the file (or ``<table>``), the line (or row) and the column at fault.

    See Also
    --------
    HistoryResult : Which published improvements exceed the benchmark's noise.
    plot_history : Draw published results against the benchmark's noise.
    binomial_variance : The variance of an accuracy under the binomial model of the test set.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2 ('The bigger picture: Variance matters'), Fig. 2 (the binomial model) and Fig.
       3; §3.1 (the z-test).

    Examples
    --------
    Four results with σ = 0.01, so the threshold is 1.645 × √2 × 0.01 = 0.0233:

    >>> from benchtrust.compare import history
    >>> r = history(["2017-01-10", "2018-03-01", "2018-11-20", "2019-06-01"],
    ...             [0.80, 0.83, 0.84, 0.87], sigma=0.01)
    >>> round(float(r.thresholds[1]), 4)
    0.0233
    >>> r.significant.tolist(), r.significant_increments
    ([False, True, False, True], 2)
    >>> history([2018, 2019], [0.90, 0.91], test_size=1000).significant.tolist()
    [False, False]

    The same from a table:

    >>> import pandas as pd
    >>> table = pd.DataFrame({"published": [2017.0, 2018.2, 2018.9, 2019.4],
    ...                       "top1": [0.80, 0.83, 0.84, 0.87]})
    >>> history(table, sigma=0.01, date_column="published", score_column="top1").significant_increments
    2
    """
    direction = direction_of(direction, lower_is_better)
    if scores is None:
        if not _is_table(dates):
            raise InputError(
                "scores: expected one score per date; or give a table alone (a file path or a pandas "
                f"DataFrame) with columns {date_column!r} and {score_column!r}"
            )
        when, values = read_history(dates, date_column=date_column, score_column=score_column)
        source = _source(dates)
        try:
            result = history(when, values, sigma=sigma, test_size=test_size, alpha=alpha, direction=direction)
        except InputError as exc:
            raise InputError(f"{source or '<table>'}: {exc}") from None
        return dataclasses.replace(result, source=source, inputs=() if source is None else (source,))
    from scipy import stats

    when = _dates(dates)
    try:
        values = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise InputError(f"scores: expected a list of numbers, got {scores!r:.60}") from None
    if values.ndim != 1 or values.size != when.size:
        raise InputError(f"scores: expected {when.size} numbers (one per date), got {np.size(values)}")
    if not np.isfinite(values).all():
        raise InputError("scores: expected finite numbers")
    if (sigma is None) == (test_size is None):
        raise InputError("sigma: give either sigma or test_size (for the binomial sigma = sqrt(p(1 - p)/n))")
    alpha = check_probability(alpha, "alpha")

    order = np.argsort(when, kind="stable")
    when, values = when[order], values[order]
    if sigma is not None:
        s = check_number(sigma, "sigma")
        if s <= 0:
            raise InputError(f"sigma: expected a positive number, got {sigma!r}")
        spread = np.full(values.size, s)
        n = None
    else:
        n = check_count(test_size, "test_size")
        if ((values < 0) | (values > 1)).any():
            raise InputError("scores: with test_size, expected accuracies or error rates between 0 and 1")
        spread = np.sqrt(values * (1 - values) / n)

    signed = -values if direction == "lower" else values
    # Index of the best result before each one (the first has none).
    best_so_far = np.zeros(values.size, dtype=int)
    if values.size > 1:
        running = np.maximum.accumulate(signed)
        # First index reaching each running maximum: the result holding the state of the art.
        holder = np.zeros(values.size, dtype=int)
        holder[1:] = np.where(signed[1:] > running[:-1], np.arange(1, values.size), 0)
        holder = np.maximum.accumulate(holder)
        best_so_far[1:] = holder[:-1]
    prior_best = np.full(values.size, np.nan)
    increments = np.full(values.size, np.nan)
    thresholds = np.full(values.size, np.nan)
    prior_best[1:] = values[best_so_far[1:]]
    increments[1:] = signed[1:] - signed[best_so_far[1:]]
    z = stats.norm.isf(alpha)
    thresholds[1:] = z * np.sqrt(spread[1:] ** 2 + spread[best_so_far[1:]] ** 2)
    significant = np.zeros(values.size, dtype=bool)
    significant[1:] = increments[1:] > thresholds[1:]
    return HistoryResult(
        dates=when,
        scores=values,
        sigma=spread,
        prior_best=prior_best,
        increments=increments,
        thresholds=thresholds,
        significant=significant,
        alpha=alpha,
        z=float(z),
        test_size=n,
        direction=direction,
    )
