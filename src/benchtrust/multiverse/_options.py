"""The option families of a multiverse (Nießl et al. 2022, §2) and the registry of their rules.

A choice belongs to one of four families; each option of a choice names a *rule* of its family and the
rule's parameters:

- ``datasets``: which data sets the benchmark uses (§2.2.1). A rule receives the table of data-set
  characteristics (or None) and the data sets' names, and returns the names it keeps.
- ``measure``: which performance measure (§2.2.2). Its options name measures declared in the spec; it
  has no rules.
- ``imputation``: how failed resampling iterations are handled (§2.3.1). A rule is called as
  ``rule(values, failure_rate, *, random, direction, **parameters)``: ``values`` are data sets ×
  methods × iterations (nan where the measure is missing or the iteration does not exist),
  ``failure_rate`` is the failure rate r of each (data set, method) pair, ``random`` the measure's
  random-prediction value and ``direction`` its direction, ``"higher"`` or ``"lower"`` (``"lower"`` for
  a loss such as the Brier score). It returns the value imputed for the pair's missing iterations (data
  sets × methods); the pair's value is then the mean over all its iterations, the missing ones filled
  with it.
- ``aggregation``: how the values are combined over data sets (§2.3.2). A rule is called as
  ``rule(values, *, direction, **parameters)``: ``values`` are subsets × data sets × methods (nan for
  the data sets a subset leaves out). It returns one score per subset and method, shape (subsets,
  methods), or several scores compared in order (lexicographically), shape (subsets, keys, methods). Its
  ``better`` says which end ranks first: ``"higher"``, ``"lower"`` or ``"measure"`` (the measure's own
  direction).

:func:`register_option` adds a rule; the built-in ones are below. A rule written for the old call, with
the keyword ``lower_is_better`` (True: ``direction="lower"``) in place of ``direction``, still works and
warns, when registered, that it is deprecated.
"""

from __future__ import annotations

import dataclasses
import inspect
import warnings
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import numpy as np

from benchtrust._exact import exact_mean
from benchtrust._io import InputError, find_column

__all__ = ["FAMILIES", "Rule", "mean_of_rest", "register_option", "rule"]

FAMILIES = ("datasets", "measure", "imputation", "aggregation")
_RULE_FAMILIES = ("datasets", "imputation", "aggregation")
_BETTER = ("higher", "lower", "measure")
#: The keyword rules took before ``direction`` (True for ``direction="lower"``), still accepted.
_OLD_KEYWORD = "lower_is_better"

_Function = TypeVar("_Function", bound=Callable[..., Any])


@dataclasses.dataclass(frozen=True)
class Rule:
    """A rule of an option family: its function, and for aggregations which end of its scores is best.

    ``old_keyword`` says that the function takes the deprecated ``lower_is_better`` in place of
    ``direction``; calling the rule passes it that way.
    """

    family: str
    name: str
    function: Callable[..., Any]
    better: str | None
    old_keyword: bool = False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Call the function as its family calls rules (with ``direction=`` for an imputation or an
        aggregation)."""
        if self.old_keyword:
            kwargs[_OLD_KEYWORD] = kwargs.pop("direction") == "lower"
        return self.function(*args, **kwargs)

    def parameters(self) -> tuple[str, ...]:
        """The keyword parameters an option of this rule may set (those after the ``*``)."""
        return tuple(
            name
            for name, p in inspect.signature(self.function).parameters.items()
            if p.kind is inspect.Parameter.KEYWORD_ONLY and name not in ("random", "direction", _OLD_KEYWORD)
        )


_REGISTRY: dict[str, dict[str, Rule]] = {family: {} for family in _RULE_FAMILIES}


def register_option(
    family: Literal["datasets", "imputation", "aggregation"],
    name: str,
    *,
    better: Literal["higher", "lower", "measure"] | None = None,
) -> Callable[[_Function], _Function]:
    """Register ``function`` as rule `name` of option `family`, for use in a spec's ``rule:``.

    Parameters
    ----------
    family : {"datasets", "imputation", "aggregation"}
        The family the rule belongs to; the module docstring gives the call each family makes.
    name : str
        The name a spec uses in ``rule:``. A name already taken is replaced.
    better : {"higher", "lower", "measure"}, optional
        Aggregation rules only (required there): which end of the returned scores ranks first.

    Returns
    -------
    callable
        A decorator that registers the function and returns it unchanged.

    See Also
    --------
    read_spec : Read and check a multiverse spec.
    Spec : A parsed multiverse spec.
    rankings : Rank the methods under every combination of the spec's options.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §2.2-2.3 and
       Fig. 1 (the four families: data sets §2.2.1, measure §2.2.2, imputation §2.3.1, aggregation §2.3.2).

    Examples
    --------
    A trimmed mean over data sets, as a new aggregation option:

    >>> import numpy as np
    >>> from benchtrust.multiverse import register_option
    >>> @register_option("aggregation", "trimmed_mean", better="measure")
    ... def trimmed_mean(values, *, direction, cut=0.1):
    ...     from scipy.stats import trim_mean
    ...     return np.array([trim_mean(v[~np.isnan(v[:, 0])], cut) for v in values])
    >>> trimmed_mean(np.array([[[1.0, 2.0], [3.0, 4.0], [np.nan, np.nan]]]), direction="higher")
    array([[2., 3.]])
    """
    if family not in _RULE_FAMILIES:
        raise InputError(f"family: expected one of {', '.join(_RULE_FAMILIES)}, got {family!r}")
    if family == "aggregation" and better not in _BETTER:
        raise InputError(f"better: an aggregation rule needs one of {', '.join(_BETTER)}, got {better!r}")
    if family != "aggregation" and better is not None:
        raise InputError("better: only aggregation rules say which end is better")

    def decorate(function: _Function) -> _Function:
        old_keyword = _check_keywords(function, family, name)
        _REGISTRY[family][name] = Rule(family, name, function, better, old_keyword)
        return function

    return decorate


#: How a rule of each family is called, and the keyword arguments it is called with besides its parameters.
_CALLS = {
    "datasets": ("rule(characteristics, names, **parameters)", ()),
    "imputation": (
        "rule(values, failure_rate, *, random, direction, **parameters)",
        ("random", "direction"),
    ),
    "aggregation": ("rule(values, *, direction, **parameters)", ("direction",)),
}


def _check_keywords(function, family, name) -> bool:
    """InputError unless `function` takes the keyword arguments a rule of `family` is called with; whether
    it takes the deprecated ``lower_is_better`` in place of ``direction`` (with a DeprecationWarning)."""
    parameters = inspect.signature(function).parameters
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return False
    call, needed = _CALLS[family]
    keywords = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    takes = {k for k, p in parameters.items() if p.kind in keywords}
    old = "direction" in needed and "direction" not in takes and _OLD_KEYWORD in takes
    missing = [k for k in needed if k not in takes and not (old and k == "direction")]
    if missing:
        raise InputError(
            f"{family} rule {name!r}: the function must take the keyword argument(s) {', '.join(missing)}; "
            f"it is called as {call}"
        )
    if old:
        warnings.warn(
            f"{family} rule {name!r}: the keyword lower_is_better is deprecated; take direction= instead "
            "('higher' or 'lower'), as the rule is called",
            DeprecationWarning,
            stacklevel=3,
        )
    return old


def rule(family: str, name: str) -> Rule:
    """The registered rule `name` of `family`; InputError listing the known ones if there is none."""
    known = _REGISTRY[family]
    if name not in known:
        raise InputError(f"unknown {family} rule {name!r}; known: {', '.join(sorted(known))}")
    return known[name]


# --- data sets (§2.2.1) ----------------------------------------------------------------------------------


def _characteristic(characteristics, names, name):
    if characteristics is None:
        raise InputError(
            f"characteristic {name!r}: no table of data-set characteristics was given, and this option "
            "needs one"
        )
    columns = [str(column) for column in characteristics.columns]
    index = find_column(columns, name, f"characteristic {name!r}")
    if index is None:
        found = ", ".join(repr(c) for c in columns)
        raise InputError(f"characteristic {name!r}: not a column of the characteristics; found {found}")
    name = characteristics.columns[index]  # as the table writes it (any case)
    if name in characteristics.attrs.get("not_numeric", {}):
        raise InputError(f"characteristic {name!r}: {characteristics.attrs['not_numeric'][name]}")
    return characteristics.loc[list(names), name].to_numpy(dtype=float)


@register_option("datasets", "all")
def _all(characteristics, names):
    """Every data set of the benchmark."""
    return list(names)


@register_option("datasets", "list")
def _listed(characteristics, names, *, datasets):
    """The data sets named in `datasets`."""
    if isinstance(datasets, str) or not isinstance(datasets, (list, tuple)):
        raise InputError(f"datasets: expected a list of data-set names, got {datasets!r}")
    unknown = [name for name in datasets if name not in names]
    if unknown:
        raise InputError(f"datasets: {unknown[0]!r} is not a data set of the results")
    return [name for name in names if name in set(datasets)]


@register_option("datasets", "below_median")
def _below_median(characteristics, names, *, characteristic):
    """The data sets whose `characteristic` is strictly below its median over all data sets ("small")."""
    values = _characteristic(characteristics, names, characteristic)
    return [name for name, v in zip(names, values, strict=True) if v < np.median(values)]


@register_option("datasets", "at_or_above_median")
def _at_or_above_median(characteristics, names, *, characteristic):
    """The data sets whose `characteristic` is at or above its median over all data sets ("large")."""
    values = _characteristic(characteristics, names, characteristic)
    return [name for name, v in zip(names, values, strict=True) if v >= np.median(values)]


@register_option("datasets", "below")
def _below(characteristics, names, *, characteristic, value):
    """The data sets whose `characteristic` is strictly below `value` (e.g. n_e < 30, §2.2.1)."""
    values = _characteristic(characteristics, names, characteristic)
    return [name for name, v in zip(names, values, strict=True) if v < value]


@register_option("datasets", "at_or_above")
def _at_or_above(characteristics, names, *, characteristic, value):
    """The data sets whose `characteristic` is at or above `value`."""
    values = _characteristic(characteristics, names, characteristic)
    return [name for name, v in zip(names, values, strict=True) if v >= value]


# --- imputation of failed iterations (§2.3.1) -----------------------------------------------------------


def mean_of_rest(values, random):
    """The mean of the non-failed iterations; the random-prediction value where every iteration failed."""
    rest = exact_mean(values, axis=-1)  # independent of the order of the iterations
    return np.where(np.isnan(rest), random, rest)


def _fraction(value, name, what):
    """`value` as a float in [0, 1], or an InputError naming `name` and saying it is `what`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise InputError(f"{name}: expected {what} between 0 and 1, got {value!r}")
    return float(value)


@register_option("imputation", "threshold")
def _threshold(values, failure_rate, *, random, direction, threshold=0.2):
    """Herrmann et al.'s rule, as the reference analysis applies it: impute the random-prediction value if
    r > `threshold` (strictly), else the mean of the rest (so r = 0.2 exactly, 5 of 25 failed, takes the
    mean)."""
    threshold = _fraction(threshold, "threshold", "a failure rate")
    return np.where(failure_rate > threshold, random, mean_of_rest(values, random))


@register_option("imputation", "weighted")
def _weighted(values, failure_rate, *, random, direction):
    """Eq. (1) and supplementary Eq. (4): impute the mean of the rest shrunk to the random value by (1 − r).

    For a lower-is-better measure, random − (random − mean)₊ (1 − r); for higher-is-better,
    random + (mean − random)₊ (1 − r).
    """
    sign = -1.0 if direction == "lower" else 1.0
    gain = np.maximum(sign * (mean_of_rest(values, random) - random), 0.0)
    return random + sign * gain * (1.0 - failure_rate)


@register_option("imputation", "random")
def _random(values, failure_rate, *, random, direction):
    """Impute the random-prediction value."""
    return np.full(failure_rate.shape, float(random))


@register_option("imputation", "mean")
def _mean(values, failure_rate, *, random, direction):
    """Impute the mean of the non-failed iterations (the random-prediction value if every one failed)."""
    return mean_of_rest(values, random)


# --- aggregation over data sets (§2.3.2) ----------------------------------------------------------------


@register_option("aggregation", "mean", better="measure")
def _aggregate_mean(values, *, direction):
    """The mean over the data sets of the subset (independent of their order)."""
    return exact_mean(values, axis=1)


@register_option("aggregation", "median", better="measure")
def _aggregate_median(values, *, direction):
    """The median over the data sets of the subset (the mean of the middle two for an even count)."""
    return np.nanmedian(values, axis=1)


@register_option("aggregation", "mean_rank", better="lower")
def _aggregate_mean_rank(values, *, direction):
    """The mean over data sets of each method's rank on the data set (1 = best, ties: average ranks)."""
    from scipy.stats import rankdata

    ranks = rankdata(
        values if direction == "lower" else -values, method="average", axis=2
    )  # nan rows stay nan
    return np.nanmean(ranks, axis=1)


@register_option("aggregation", "best", better="higher")
def _aggregate_best(values, *, direction, tolerance=0.05):
    """The number of data sets on which a method is best (equal values count as best), ties broken by the
    number on which it is within `tolerance` of the best, relative to the best: |x − x_best| < tol·|x_best|
    (the paper's best0.05).
    """
    tolerance = _fraction(tolerance, "tolerance", "a relative tolerance")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-nan rows: left-out data sets
        best = (np.nanmin if direction == "lower" else np.nanmax)(values, axis=2, keepdims=True)
    is_best = values == best
    within = is_best | (np.abs(values - best) < tolerance * np.abs(best))
    return np.stack([is_best.sum(axis=1), within.sum(axis=1)], axis=1).astype(float)
