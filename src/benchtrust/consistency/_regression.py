"""Reported regression scores (MSE, RMSE, MAE, R²) checked against each other for a test set of n items.

The interval idea of Fazekas & Kovács (paper §2: a reported value stands for [v - ε, v + ε]; §3.2: scores
are related through interval arithmetic) carries over from confusion matrices to regression, as in the
authors' package. Here there are no integers: the unknowns are the real errors e_i = y_i - ŷ_i of the n
items and the target's variance, and the reported scores are consistent if some real regression gives
every score a value inside its interval.

Definitions and relations
-------------------------
For n items with targets y_i, predictions ŷ_i and errors e_i = y_i - ŷ_i::

    MSE  = (1/n)·Σ e_i²          RMSE = √MSE          MAE = (1/n)·Σ |e_i|
    R²   = 1 - MSE/Var(y)        Var(y) = (1/n)·Σ (y_i - ȳ)²   (the population variance, numpy's var)

R² is scikit-learn's ``r2_score`` (1 - SS_res/SS_tot), so Var(y) is the *population* variance, the
convention of mlscorecheck too (its R² equals 1 - MSE/``numpy.var(y)``). Give a sample variance s² as
s²·(n - 1)/n. The relations checked, each a theorem:

1. MSE ≥ 0, RMSE ≥ 0, MAE ≥ 0 and R² ≤ 1 (as MSE ≥ 0 and Var(y) > 0); R² needs n ≥ 2, since one
   item has Var(y) = 0 and R² is 0/0.
2. RMSE = √MSE.
3. R² = 1 - MSE/Var(y), that is MSE = (1 - R²)·Var(y); with RMSE, RMSE² = (1 - R²)·Var(y).
4. MAE ≤ RMSE: (Σ|e_i|)² ≤ n·Σe_i² (Cauchy-Schwarz), equal when every |e_i| is the same.
5. RMSE ≤ √n·MAE: Σe_i² ≤ (Σ|e_i|)², equal when at most one e_i is not 0. With n = 1, MAE = RMSE.

They are all there is: for any n ≥ 2, MAE a ≥ 0, MSE m with a² ≤ m ≤ n·a² and Var(y) V > 0 some
regression of n items has exactly these values (the ratio RMSE/MAE is continuous on the connected set of
non-zero error vectors and reaches both 1 and √n; the errors do not depend on y). So "consistent" is
exact: some real regression gives every score, which is not to say that the paper's did.

Method
------
Each reported score is an interval (ε from its decimals, or given), widened outward by ``TOLERANCE`` as
for the classification scores, and Var(y), when given, is the interval of its own decimals (so a rounded
variance is never taken for exact; give all its digits to use it as exact). Every score but MAE gives an
interval of MSE through its relation (MSE itself, RMSE², (1 - R²)·Var(y)); on a line, intervals meet all
together as soon as every two of them meet, so the check compares every two of these, then MAE with each
(relations 4 and 5, as MAE² ≤ MSE ≤ n·MAE²). An inconsistency is one of these comparisons failing, and it
is named with its relation and intervals. Floating-point error in the squares and products is some 1e-16
relative, far inside the 1e-9 widening. All comparisons are numpy operations on arrays of claims:
:func:`regression_verdicts` checks many at once.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from typing import TYPE_CHECKING, Literal

import numpy as np

from benchtrust._interval import Interval
from benchtrust._io import InputError, check_count
from benchtrust._result import Description, Result
from benchtrust._words import paragraph
from benchtrust.consistency import _text
from benchtrust.consistency._reported import _ROUNDING, TOLERANCE, Reported, _value, _written, decimals

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    import numpy.typing as npt
    import pandas as pd

#: The regression scores in the order they are shown, with the names each is accepted under.
NAMES = {
    "mse": ("mse", "mean_squared_error"),
    "rmse": ("rmse", "root_mean_squared_error"),
    "mae": ("mae", "mean_absolute_error"),
    "r2": ("r2", "r²", "r^2", "r_squared", "rsquared", "coefficient_of_determination"),
}
_ALIASES = {alias: name for name, aliases in NAMES.items() for alias in aliases}

#: Relation 1 per score: the range of its values.
RANGE = {"mse": "MSE ≥ 0", "rmse": "RMSE ≥ 0", "mae": "MAE ≥ 0", "r2": "R² ≤ 1"}
#: R² on one item.
ONE_ITEM = "R² needs n ≥ 2 (one item has Var(y) = 0)"
#: What each score but MAE says RMSE is (relations 2 and 3), and in what it gives an interval of MSE.
_AS_RMSE = {"mse": "√MSE", "rmse": "RMSE", "r2": "√((1 - R²)·Var(y))"}
_PAIRS = {
    ("mse", "rmse"): "RMSE = √MSE",
    ("mse", "r2"): "R² = 1 - MSE/Var(y)",
    ("rmse", "r2"): "R² = 1 - RMSE²/Var(y)",
}

_VERDICTS = ("consistent", "inconsistent", "nothing to check")


@dataclasses.dataclass(frozen=True, eq=False)
class RegressionResult(Result):
    """Reported regression scores checked against each other (relations 1-5 of the module).

    Attributes
    ----------
    consistent : bool or None
        Whether some regression of ``size`` items gives every reported score; ``False`` is certain (a
        relation is violated by every value the reports stand for); None when no relation ties two of the
        scores (one score, or R² without the target variance), so that there is nothing to check.
    size : int
        n, the items of the test set.
    scores : tuple of Reported
        The reported scores with their intervals, as written.
    target_variance : Reported or None
        Var(y) as given, with the interval of its decimals.
    checked : tuple of str
        The relations between two reported scores that were checked.
    violations : tuple of (str, str)
        Each violated relation, and its intervals in words.
    mse : Interval or None
        The MSE values every reported score allows (RMSE is its square root); None unless consistent with
        at least one score of MSE, RMSE, MAE, or R² with the variance.

    Its table (``to_frame()``) has one row per reported score: ``score``, ``reported`` (the value),
    ``eps`` and the ends ``low`` and ``high`` of the interval of true values it stands for.

    See Also
    --------
    check_regression : Regression scores (MSE, RMSE, MAE, R²) checked against each other.
    regression_verdicts : check_regression of many claims at once.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. The paper treats binary
           classification only; this extends the numerical uncertainty of §2 and the interval reasoning of
           §3.2 to the regression scores MSE, RMSE, MAE and R².
    """

    consistent: bool | None
    size: int
    scores: tuple[Reported, ...]
    target_variance: Reported | None
    checked: tuple[str, ...]
    violations: tuple[tuple[str, str], ...]
    mse: Interval | None

    @property
    def verdict(self) -> str:
        """The result in plain words: the violated relations, the MSE every score allows, or that there
        is nothing to check."""
        return regression_verdict(self)

    def describe(self) -> Description:
        """The result's description: its text, section (the relations checked among its assumptions),
        data and the intervals of the reported scores."""
        verdict = self.verdict
        variance = self.target_variance
        return Description(
            question=_text.QUESTION,
            verdict=_text.capital(verdict),
            text="\n".join(
                [
                    f"regression scores of {_experiment(self)}",
                    *_text.scores_table(self.scores),
                    "",
                    paragraph(verdict),
                ]
            ),
            data={
                "consistent": self.consistent,
                "size": self.size,
                "scores": [reported.to_dict() for reported in self.scores],
                "target_variance": None if variance is None else variance.to_dict(),
                "checked": self.checked,
                "violations": [
                    {"relation": relation, "message": message} for relation, message in self.violations
                ],
                "mse": self.mse,
            },
            columns=_text.SCORE_COLUMNS,
            rows=_text.score_rows(self.scores),
            frame={
                "score": [rep.score for rep in self.scores],
                "reported": [rep.value for rep in self.scores],
                "eps": [rep.eps for rep in self.scores],
                "low": [rep.interval.low for rep in self.scores],
                "high": [rep.interval.high for rep in self.scores],
            },
            assumptions=(
                ("experiment", _experiment(self)),
                ("relations checked", ", ".join(self.checked) or "none"),
                _text.epsilon_assumption(self.scores),
            ),
            source=f"{_text.SOURCE}, §2 (intervals of reported values), §3.2 (interval arithmetic), for "
            "regression",
            inputs=self.inputs,
            analysis="consistency regression",
        )


def check_regression(
    scores: Mapping[str, str | float],
    *,
    size: int,
    target_variance: float | str | None = None,
    eps: float | Mapping[str, float] | None = None,
    rounding: Literal["round", "floor-or-ceil"] = "round",
) -> RegressionResult:
    """Whether reported MSE, RMSE, MAE and R² can come from one regression of n items (relations 1-5).

    Parameters
    ----------
    scores : mapping
        Score name (mse, rmse, mae, r2, or a long name such as ``mean_squared_error``) -> reported value,
        a number or its text as printed ("0.0120" keeps its 4 decimals). Any subset of the four.
    size : int
        n, the number of items in the test set.
    target_variance : float or str, optional
        Var(y), the population variance (1/n)·Σ(y - ȳ)² of the test set's targets; R² is related to the
        other scores only with it. It stands for the interval of its decimals as written (by
        ``rounding``), never for more than was given.
    eps : float or mapping, optional
        ε, the numerical uncertainty, for all scores or per score; inferred from the decimals otherwise.
    rounding : {"round", "floor-or-ceil"}
        How the values were cut to their decimals, when ε is inferred (ε = ½·10^-d or 10^-d).

    Returns
    -------
    RegressionResult
        The verdict, the relations checked and those violated with their intervals.

    See Also
    --------
    RegressionResult : The result of check_regression.
    regression_verdicts : check_regression of many claims at once.
    reported_scores : Reported scores as intervals (§2).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. The paper treats binary
           classification only; this extends the numerical uncertainty of §2 and the interval reasoning of
           §3.2 to the regression scores MSE, RMSE, MAE and R².

    Examples
    --------
    The example of mlscorecheck's regression check (n = 100, its ε = 1e-4):

    >>> var = 0.08316192579267838
    >>> check_regression({"mae": 0.0254, "r2": 0.9897}, size=100, target_variance=var, eps=1e-4).consistent
    True
    >>> r = check_regression({"mae": 0.03, "r2": 0.9897}, size=100, target_variance=var, eps=1e-4)
    >>> r.consistent, r.violations[0][0]
    (False, 'MAE ≤ √((1 - R²)·Var(y))')
    >>> check_regression({"rmse": "0.12"}, size=50).consistent is None  # nothing to check
    True
    """
    size = check_count(size, "size")
    if rounding not in _ROUNDING:
        raise InputError(f"rounding: expected one of {', '.join(_ROUNDING)}, got {rounding!r}")
    if not hasattr(scores, "items") or not scores:
        raise InputError(f"scores: expected one or more name=value pairs, got {scores!r:.80}")
    reported = _reported(scores, eps, rounding)
    variance = None
    if target_variance is not None:
        variance = _variance(target_variance, size, rounding)
    bounds = {rep.score: (np.array([rep.interval.low]), np.array([rep.interval.high])) for rep in reported}
    var_bounds = None if variance is None else tuple(np.array([end]) for end in variance.interval)
    relations, candidates = _relations(bounds, np.array([size]), var_bounds)
    violations = tuple(
        (name, _explain(name, candidates, bounds, var_bounds, size))
        for name, (_, violated, _) in relations.items()
        if violated[0]
    )
    checked = tuple(name for name, (given, _, pairwise) in relations.items() if pairwise and given[0])
    consistent = not violations if violations or checked else None
    mse = None
    if consistent and candidates:
        low, high = _feasible_mse(candidates, bounds, np.array([size]))
        mse = Interval(float(low[0]), float(high[0]))
    return RegressionResult(consistent, size, reported, variance, checked, violations, mse)


def regression_verdicts(
    scores: Mapping[str, Sequence[str | float | None] | npt.ArrayLike],
    *,
    size: npt.ArrayLike,
    target_variance: Sequence[str | float | None] | npt.ArrayLike | None = None,
    eps: float | None = None,
    rounding: Literal["round", "floor-or-ceil"] = "round",
) -> pd.DataFrame:
    """:func:`check_regression` of many claims at once, vectorised: one verdict per claim.

    Parameters
    ----------
    scores : mapping
        Score name -> the reported values of every claim (a sequence of numbers or texts as printed, all
        of the same length); a missing value (None, NaN or "") means the claim does not report it.
    size : int or sequence of int
        n of every claim, or one n for all.
    target_variance : float, str or sequence, optional
        Var(y) of every claim (None, NaN or "" where unknown), or one for all.
    eps : float, optional
        ε for every score; inferred from each value's decimals otherwise.
    rounding : {"round", "floor-or-ceil"}
        How the values were cut to their decimals, when ε is inferred.

    Returns
    -------
    pandas.DataFrame
        One row per claim: ``verdict`` ("consistent", "inconsistent" or "nothing to check") and
        ``violated`` (the violated relations, separated by "; ").

    See Also
    --------
    check_regression : Regression scores (MSE, RMSE, MAE, R²) checked against each other.
    RegressionResult : The result of check_regression.
    check_batch : Many claims at once, one per row of a table.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. The paper treats binary
           classification only; this extends the numerical uncertainty of §2 and the interval reasoning of
           §3.2 to the regression scores MSE, RMSE, MAE and R².

    Examples
    --------
    >>> claims = {"mse": ["0.25", "0.25", "0.25"], "rmse": ["0.50", "0.40", None]}
    >>> table = regression_verdicts(claims, size=10)
    >>> table.verdict.tolist(), table.violated.tolist()
    (['consistent', 'inconsistent', 'nothing to check'], ['', 'RMSE = √MSE', ''])
    """
    import pandas as pd

    if rounding not in _ROUNDING:
        raise InputError(f"rounding: expected one of {', '.join(_ROUNDING)}, got {rounding!r}")
    if not hasattr(scores, "items") or not scores:
        raise InputError(f"scores: expected one or more name=column pairs, got {scores!r:.80}")
    if eps is not None and (
        isinstance(eps, bool) or not isinstance(eps, numbers.Real) or not 0 <= eps < math.inf
    ):
        raise InputError(f"eps: expected a number >= 0, got {eps!r}")
    bounds = {}
    for name, column in scores.items():
        canonical = canonical_name(name)
        if canonical in bounds:
            raise InputError(f"scores: {name!r} is given twice ({canonical})")
        bounds[canonical] = _column_bounds(column, name, eps, rounding)
    rows = next(iter(bounds.values()))[0].size
    if any(low.size != rows for low, _ in bounds.values()):
        raise InputError("scores: expected columns of the same length")
    n = np.broadcast_to(np.asarray(size), (rows,))
    if not np.issubdtype(n.dtype, np.integer) or (n < 1).any():
        raise InputError("size: expected positive whole numbers")
    var_bounds = None
    if target_variance is not None:
        # np.ndim takes any object (a list holding None too); numpy's stubs accept array-likes only
        many = np.ndim(target_variance)  # type: ignore[arg-type]
        variances = target_variance if many else [target_variance] * rows
        var_bounds = _column_bounds(variances, "target_variance", None, rounding)
        if (var_bounds[1] < 0).any():
            raise InputError("target_variance: expected numbers >= 0 (a variance)")
    relations, _ = _relations(bounds, n, var_bounds)
    violated = np.zeros(rows, dtype=bool)
    pairwise = np.zeros(rows, dtype=bool)
    names = np.full(rows, "", dtype=object)
    for name, (given, bad, between) in relations.items():
        violated |= bad
        pairwise |= between & given
        names[bad] = [f"{old}; {name}" if old else name for old in names[bad]]
    verdict = np.where(violated, _VERDICTS[1], np.where(pairwise, _VERDICTS[0], _VERDICTS[2]))
    return pd.DataFrame({"verdict": verdict, "violated": names})


def canonical_name(name):
    """The abbreviation (mse, rmse, mae, r2) of a regression score's name, or an InputError."""
    key = str(name).strip().lower().replace(" ", "_").replace("-", "_")
    if key not in _ALIASES:
        raise InputError(f"{name!r} is not a regression score: expected one of {', '.join(NAMES)}")
    return _ALIASES[key]


def _uncertainty(value, eps, rounding):
    """ε of one value: given, or from its decimals as written."""
    if eps is not None:
        return float(eps)
    return (0.5 if rounding == "round" else 1.0) * 10.0 ** -decimals(value)


def _widened(number, uncertainty):
    """[v - ε, v + ε] widened outward by ``TOLERANCE`` (relative to max(1, |v|)), as numpy arrays allow."""
    margin = uncertainty + TOLERANCE * np.maximum(1.0, np.abs(number))
    return number - margin, number + margin


def _reported(scores, eps, rounding):
    """The reported scores as :class:`Reported`, in the order of :data:`NAMES`."""
    per_score = eps if hasattr(eps, "items") else None
    if per_score is not None:
        per_score = {canonical_name(name): value for name, value in per_score.items()}
    out = {}
    for name, value in scores.items():
        canonical = canonical_name(name)
        if canonical in out:
            raise InputError(f"scores: {name!r} and {out[canonical].name!r} are the same score ({canonical})")
        given = eps
        if per_score is not None:
            if canonical not in per_score:
                raise InputError(f"eps: none given for {name}")
            given = per_score.pop(canonical)
        if given is not None:
            given = _value(f"eps for {name}", given)
            if given < 0:
                raise InputError(f"eps for {name}: expected a number >= 0, got {given!r}")
        number = _value(name, value)
        uncertainty = _uncertainty(value, given, rounding)
        out[canonical] = Reported(
            score=canonical,
            value=number,
            eps=uncertainty,
            interval=Interval(*(float(end) for end in _widened(number, uncertainty))),
            name=str(name).strip(),
            text=_written(value),
            rounding=None if eps is not None else rounding,
        )
    if per_score:
        raise InputError(f"eps: given for {', '.join(sorted(per_score))}, which is not reported")
    return tuple(out[name] for name in NAMES if name in out)


def _variance(value, size, rounding):
    """Var(y) as given, with the interval of its decimals."""
    if size == 1:
        raise InputError("target_variance: one item has variance 0 and no R²; leave the variance out")
    number = _value("target_variance", value)
    if number < 0:
        raise InputError(f"target_variance: expected a number >= 0 (a variance), got {value!r}")
    uncertainty = _uncertainty(value, None, rounding)
    low, high = _widened(number, uncertainty)
    return Reported(
        "var", number, uncertainty, Interval(float(low), float(high)), "Var(y)", _written(value), rounding
    )


def _column_bounds(column, name, eps, rounding):
    """The widened intervals of one column of reported values; NaN ends where a value is missing.

    A numeric column with ε given is read in one numpy step; otherwise each value's decimals are read.
    """
    if isinstance(column, str) or np.ndim(column) != 1:
        raise InputError(f"{name}: expected a sequence of the claims' values, got {column!r:.80}")
    array = np.asarray(column)
    if array.dtype.kind in "fiu":
        number = array.astype(float)
        if np.isinf(number).any():
            raise InputError(f"{name}: expected finite numbers")
        if eps is not None:
            return _widened(number, float(eps))
        return _widened(number, (0.5 if rounding == "round" else 1.0) * 10.0 ** -_decimals_of(array))
    number = np.full(array.size, np.nan)
    uncertainty = np.full(array.size, np.nan)
    for k, value in enumerate(column):
        if value is None or _is_nan(value) or (isinstance(value, str) and not value.strip()):
            continue
        number[k] = _value(f"{name} (claim {k + 1})", value)
        uncertainty[k] = _uncertainty(value, eps, rounding)
    return _widened(number, uncertainty)


def _decimals_of(array):
    """:func:`decimals` of every number of a numeric array (of its shortest repr), read with numpy."""
    texts = np.array([str(value) if array.dtype.kind in "iu" else repr(value) for value in array.tolist()])
    dot = np.char.find(texts, ".")
    places = np.where(dot >= 0, np.char.str_len(texts) - dot - 1, 0).astype(float)
    for k in np.flatnonzero(np.char.find(texts, "e") >= 0):
        places[k] = decimals(float(texts[k]))
    return places


def _is_nan(value):
    return isinstance(value, numbers.Real) and math.isnan(value)


def _mse_candidates(bounds, var_bounds):
    """Per score but MAE, the interval of MSE its relation gives (NaN where not reported or out of range)."""
    candidates = {}
    if "mse" in bounds:
        low, high = bounds["mse"]
        high = np.where(high >= 0, high, np.nan)
        candidates["mse"] = (np.maximum(low, 0.0), high)
    if "rmse" in bounds:
        low, high = bounds["rmse"]
        high = np.where(high >= 0, high, np.nan)
        candidates["rmse"] = (np.maximum(low, 0.0) ** 2, high**2)
    if "r2" in bounds and var_bounds is not None:
        low, high = bounds["r2"]
        low = np.where(low <= 1, low, np.nan)
        var_low, var_high = var_bounds
        candidates["r2"] = ((1 - np.minimum(high, 1.0)) * np.maximum(var_low, 0.0), (1 - low) * var_high)
    return candidates


def _mae(bounds):
    low, high = bounds["mae"]
    return np.maximum(low, 0.0), np.where(high >= 0, high, np.nan)


def _relations(bounds, size, var_bounds):
    """Every relation as (given, violated, between two scores) boolean arrays, and the MSE candidates.

    ``given`` marks the claims that report what the relation needs, ``violated`` those where no value of
    the intervals satisfies it (NaN compares false: missing scores violate nothing).
    """
    relations = {}
    for name, (low, high) in bounds.items():
        given = ~np.isnan(low)
        relations[RANGE[name]] = (given, low > 1 if name == "r2" else high < 0, False)
    if "r2" in bounds:
        given = ~np.isnan(bounds["r2"][0])
        relations[ONE_ITEM] = (given, given & (size == 1), False)
    candidates = _mse_candidates(bounds, var_bounds)
    names = list(candidates)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            (a_low, a_high), (b_low, b_high) = candidates[a], candidates[b]
            given = ~np.isnan(a_high) & ~np.isnan(b_high)
            relations[_PAIRS[a, b]] = (given, (a_high < b_low) | (b_high < a_low), True)
    if "mae" in bounds:
        mae_low, mae_high = _mae(bounds)
        for name, (low, high) in candidates.items():
            given = ~np.isnan(mae_high) & ~np.isnan(high)
            relations[f"MAE ≤ {_AS_RMSE[name]}"] = (given, high < mae_low**2, True)
            relations[f"{_AS_RMSE[name]} ≤ √n·MAE"] = (given, low > size * mae_high**2, True)
    return relations, candidates


def _feasible_mse(candidates, bounds, size):
    """The MSE values every score allows: the candidates' intersection, and MAE² ≤ MSE ≤ n·MAE²."""
    lows = [low for low, _ in candidates.values()]
    highs = [high for _, high in candidates.values()]
    if "mae" in bounds:
        mae_low, mae_high = _mae(bounds)
        lows.append(mae_low**2)
        highs.append(size * mae_high**2)
    return np.nanmax(lows, axis=0), np.nanmin(highs, axis=0)


def _interval_text(low, high):
    return f"[{low:.8g}, {high:.8g}]"


def _explain(name, candidates, bounds, var_bounds, size):
    """The intervals that violate relation `name`, in words (one claim)."""
    interval = {score: (float(low[0]), float(high[0])) for score, (low, high) in bounds.items()}
    if name in RANGE.values():
        score = next(score for score, relation in RANGE.items() if relation == name)
        return f"the reported {_title(score)} stands for {_interval_text(*interval[score])}"
    if name == ONE_ITEM:
        return f"R² is reported for n = {size} item"

    def source(score):
        low, high = (float(end[0]) for end in candidates[score])
        if score == "mse":
            return f"MSE in {_interval_text(low, high)}"
        if score == "rmse":
            return f"RMSE in {_interval_text(*interval['rmse'])} gives MSE in {_interval_text(low, high)}"
        variance = (float(var_bounds[0][0]), float(var_bounds[1][0]))
        return (
            f"R² in {_interval_text(*interval['r2'])} with Var(y) in {_interval_text(*variance)} gives MSE "
            f"in {_interval_text(low, high)}"
        )

    pair = next((pair for pair, relation in _PAIRS.items() if relation == name), None)
    if pair is not None:
        return f"{source(pair[0])}, but {source(pair[1])}: they do not meet"
    mae_low, mae_high = interval["mae"]
    score = next(
        score for score in candidates if name in (f"MAE ≤ {_AS_RMSE[score]}", f"{_AS_RMSE[score]} ≤ √n·MAE")
    )
    if name.startswith("MAE"):
        least = max(mae_low, 0.0)
        return f"MAE is at least {least:.8g} (MAE² ≥ {least**2:.8g}), but {source(score)}"
    return (
        f"{source(score)}, but n·MAE² is at most {size * mae_high**2:.8g} (MAE ≤ {mae_high:.8g}, n = {size})"
    )


def _title(score):
    return {"mse": "MSE", "rmse": "RMSE", "mae": "MAE", "r2": "R²"}[score]


def _experiment(result) -> str:
    """The test set and variance in words."""
    items = "1 item" if result.size == 1 else f"{result.size} items"
    variance = result.target_variance
    if variance is None:
        return f"one test set of {items}, target variance not given"
    low, high = variance.interval
    return f"one test set of {items}, target variance Var(y) = {variance.text} (in [{low:.8g}, {high:.8g}])"


def regression_verdict(result) -> str:
    """The verdict on reported regression scores in plain words.

    Parameters
    ----------
    result : RegressionResult

    Returns
    -------
    str
        One unwrapped paragraph starting with "consistent", "inconsistent" or "nothing to check".

    Examples
    --------
    >>> print(regression_verdict(check_regression({"mse": "0.25", "rmse": "0.40"}, size=10)))
    ... # doctest: +NORMALIZE_WHITESPACE
    inconsistent: RMSE = √MSE is violated: MSE in [0.245, 0.255], but RMSE in [0.395, 0.405] gives MSE in
    [0.156025, 0.164025]: they do not meet. The scores cannot come from any regression of 10 items (a
    certain conclusion from the reported decimals, not a statistical test).
    """
    items = "1 item" if result.size == 1 else f"{result.size} items"
    if result.violations:
        violated = "; ".join(f"{relation} is violated: {message}" for relation, message in result.violations)
        return (
            f"inconsistent: {violated}. The scores cannot come from any regression of {items} (a certain "
            "conclusion from the reported decimals, not a statistical test)."
        )
    if result.consistent is None:
        reported = {rep.score for rep in result.scores}
        why = (
            "one score alone is consistent with some regression"
            if len(reported) == 1
            else "R² is related to the other scores only through the target variance, which was not given"
        )
        return f"nothing to check: no relation ties two of the reported scores ({why})."
    allows = ""
    if result.mse is not None:
        low, high = result.mse
        allows = (
            f" every score allows an MSE in {_interval_text(low, high)} "
            f"(RMSE in {_interval_text(math.sqrt(low), math.sqrt(high))});"
        )
    return (
        f"consistent:{allows} {', '.join(result.checked)} hold. The scores could come from a regression of "
        f"{items} (which does not show that they did)."
    )
