"""The rankings of every combination of options (Nießl et al. 2022, §3.1).

Each combination takes one option of every choice: the data sets, the measure, the imputation of failed
iterations and the aggregation over data sets. Its ranking gives rank 1 to the best method and average
ranks to ties. The computation is vectorised: one imputation per (measure, imputation option), one
aggregation call per (measure, imputation, aggregation option) covering many data-set options at once.
Past some 5·10^7 cells (combinations × data sets × methods), these calls are shared out among joblib's
workers, by blocks of data-set options: the cores of this machine, or a dask.distributed cluster within
``joblib.parallel_config(backend="dask")``. Each combination's ranking depends on its own options alone, so
the result is the same however the blocks were shared out.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from benchtrust._io import InputError
from benchtrust._result import Description, Result
from benchtrust.multiverse import _text
from benchtrust.multiverse._data import file_names, read_characteristics, read_results
from benchtrust.multiverse._options import FAMILIES, mean_of_rest, rule
from benchtrust.multiverse._plot import plot_rank_distribution
from benchtrust.multiverse._spec import Spec, choice_of, read_spec

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["MultiverseResult", "rankings"]

#: Rankings of more cells than this (combinations × data sets × methods; some 8 s in one process) are
#: shared out among joblib's workers; fewer are computed here (starting workers would take longer).
_PARALLEL_CELLS = 5 * 10**7
#: The cells (data-set options × data sets × methods) of one block of work: some 0.3 s.
_BLOCK_CELLS = 2 * 10**6


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class MultiverseResult(Result):
    """The rankings of the methods under every combination of options.

    Attributes
    ----------
    choices : tuple of str
        The choices, in the spec's order (a family the spec leaves out comes last, with its one option).
    options : mapping of str to tuple of str
        Each choice's options, in the spec's order.
    defaults : mapping of str to str
        Each choice's default option.
    methods : tuple of str
    codes : numpy.ndarray
        Shape (combinations, choices): the index of each combination's option of each choice. The
        combinations run through the product of the options with the last choice fastest.
    ranks : numpy.ndarray
        Shape (combinations, methods): 1 = best; ties get the average of their ranks.
    values : numpy.ndarray
        Shape (combinations, methods): the aggregated value the ranking rests on (for a lexicographic
        aggregation such as best0.05, its first key: the number of data sets on which the method is best).
    direction : numpy.ndarray
        Shape (combinations,), str: which end of `values` ranks first in that combination, ``"higher"`` or
        ``"lower"`` (the measure's direction, or the aggregation's own, as for mean_rank).
    datasets : mapping of str to tuple of str
        The data sets each option of the data-set choice keeps.
    spec : Spec
        The spec the multiverse was built from.

    See Also
    --------
    rankings : Rank the methods under every combination of the spec's options.
    rank_distribution : Each method's best and worst rank and its share of combinations at each rank.
    stepwise : Optimise each method's rank one choice at a time.
    impact : Compare the rankings of combinations that differ in one choice only.
    unfold : Non-metric unfolding by penalised stress.
    study : Run the paper's analyses on one benchmark and spec.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3.1 (the ranking
       under every combination of the options; average ranks for ties); §2 and Fig. 1 (the choices and their
       options).
    """

    choices: tuple[str, ...]
    options: Mapping[str, tuple[str, ...]]
    defaults: Mapping[str, str]
    methods: tuple[str, ...]
    codes: np.ndarray
    ranks: np.ndarray
    values: np.ndarray
    direction: np.ndarray
    datasets: Mapping[str, tuple[str, ...]]
    spec: Spec

    @property
    def lower_is_better(self) -> np.ndarray:
        """Shape (combinations,): whether a lower value ranks first, ``direction == "lower"`` (the old
        spelling, for old code)."""
        return self.direction == "lower"

    @property
    def first_share(self) -> dict[str, float]:
        """Each method's share of the combinations in which it ranks first, alone or tied (the "first in"
        column of the readable output, §4.1).

        A method ranks first in a combination when no method has a smaller rank there, so two methods
        tied for first (rank 1.5 each) both count.
        """
        return first_shares(self.methods, self.ranks)

    @property
    def verdict(self) -> str:
        """The rankings in plain words (§4.1, Fig. 2): how many methods rank first under some combination,
        and how far a method's rank moves across them."""
        return _text.rankings_verdict(self)

    @property
    def combinations(self) -> pd.DataFrame:
        """A DataFrame with one row per combination and one column per choice, holding option names."""
        import pandas as pd

        return pd.DataFrame(
            {
                c: np.asarray(self.options[c], dtype=object)[self.codes[:, k]]
                for k, c in enumerate(self.choices)
            }
        )

    def index(self, selection: Mapping[str, str]) -> int:
        """The row of the combination with the given option of every choice (ValueError for an option the
        choice does not have)."""
        position = 0
        for choice in self.choices:
            try:
                found = self._positions[choice][selection[choice]]
            except KeyError:
                raise ValueError(f"{selection[choice]!r} is not an option of {choice!r}") from None
            position = position * len(self.options[choice]) + found
        return position

    @functools.cached_property
    def _positions(self) -> dict[str, dict[str, int]]:
        """Each choice's options -> their positions: :meth:`index` in constant time (the step-wise
        optimisation calls it for every option of every choice, for every method)."""
        return {c: {option: k for k, option in enumerate(self.options[c])} for c in self.choices}

    def rank_range(self) -> dict[str, list[float]]:
        """Each method's best and worst rank over all combinations."""
        return {
            m: [float(lo), float(hi)]
            for m, lo, hi in zip(self.methods, self.ranks.min(0), self.ranks.max(0), strict=True)
        }

    def rankings_table(self) -> pd.DataFrame:
        """One row per combination and method: a column per choice, ``method``, ``value`` and ``rank``
        (``rankings.csv``; the same as :meth:`to_frame`)."""

        combinations = self.combinations.loc[np.repeat(np.arange(len(self.codes)), len(self.methods))]
        return combinations.reset_index(drop=True).assign(
            method=np.tile(np.asarray(self.methods, dtype=object), len(self.codes)),
            value=self.values.ravel(),
            rank=self.ranks.ravel(),
        )

    def describe(self) -> Description:
        """The combinations, each method's rank at the defaults, best and worst rank and "first in" share,
        and the verdict (the text and, with the rank distribution of Fig. 2, the section); the combinations,
        methods, choices (options and default), each method's rank range and its "first in" share (the
        data); one row per combination and method, as :meth:`rankings_table` (the frame)."""
        return Description(
            question=_text.MULTIVERSE_QUESTION,
            verdict=self.verdict,
            text=_text.rankings_text(self),
            data={
                "combinations": len(self.codes),
                "methods": list(self.methods),
                "choices": {
                    c: {"options": list(self.options[c]), "default": self.defaults[c]} for c in self.choices
                },
                "rank_range": self.rank_range(),
                "first_share": self.first_share,
            },
            columns=("method", "rank at the defaults", "best rank", "worst rank", "first in"),
            rows=tuple(_text.rankings_rows(self)),
            frame=dict(self.rankings_table().items()),
            assumptions=_text.combination_assumptions(self),
            source=f"{_text.SOURCE}, §3.1, §4.1, Fig. 2",
            inputs=self.inputs,
            analysis=_text.ANALYSIS,
            figure=lambda: plot_rank_distribution(self.ranks, self.methods),
        )

    def __repr__(self) -> str:
        sizes = _text.choice_sizes(self)
        return f"MultiverseResult({len(self.codes)} combinations = {sizes}; {len(self.methods)} methods)"


def rankings(
    results: str | os.PathLike[str] | pd.DataFrame,
    spec: str | os.PathLike[str] | Mapping[str, Any] | Spec,
    *,
    characteristics: str | os.PathLike[str] | pd.DataFrame | None = None,
    characteristics_dataset_column: str | None = None,
    n_jobs: int | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> MultiverseResult:
    """Rank the methods under every combination of the spec's options (Nießl et al. 2022, §3.1).

    Parameters
    ----------
    results : str, os.PathLike or pandas.DataFrame
        Long format: one row per (data set, method, resampling iteration), one column per measure; empty,
        NA or a measure's ``failed_values`` mark a failed iteration.
    spec : str, os.PathLike, mapping or Spec
        The YAML spec (see :mod:`benchtrust.multiverse._spec`) naming columns, measures and choices.
    characteristics : str, os.PathLike or pandas.DataFrame, optional
        One row per data set, numeric characteristics used by data-set rules such as ``below_median``.
    characteristics_dataset_column : str, optional
        The column of `characteristics` that names the data sets; default: the results' data-set column
        (the spec's ``columns.dataset``).
    n_jobs : int, optional
        Workers sharing out the rankings, as in :class:`joblib.Parallel` (None or -1: one per CPU; 1: all
        in this process), when there are more than 5·10^7 cells (combinations × data sets × methods);
        within ``joblib.parallel_config(backend="dask", client=client)`` the workers of a dask.distributed
        cluster. The result does not depend on it.
    progress : callable, optional
        Called as ``progress(done, total)`` with the combinations ranked so far (0 first), in any order.

    Returns
    -------
    MultiverseResult
        Its ``inputs`` are `results`, `spec` and `characteristics` where they name files.

    Raises
    ------
    benchtrust.InputError
        For a mistake in any input, naming the file and the place.

    See Also
    --------
    MultiverseResult : The rankings of the methods under every combination of options.
    read_spec : Read and check a multiverse spec.
    register_option : Add a rule to an option family.
    rank_distribution : Each method's best and worst rank and its share of combinations at each rank.
    stepwise : Optimise each method's rank one choice at a time.
    impact : Compare the rankings of combinations that differ in one choice only.
    study : Run the paper's analyses on one benchmark and spec.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3.1 (the ranking
       under every combination of the options; average ranks for ties); §2 and Fig. 1 (the choices and their
       options).

    Examples
    --------
    >>> import pandas as pd
    >>> from benchtrust.multiverse import rankings
    >>> results = pd.DataFrame({
    ...     "dataset": ["d1"] * 4 + ["d2"] * 4,
    ...     "method": ["A", "A", "B", "B"] * 2,
    ...     "accuracy": [0.9, 0.8, 0.7, None, 0.6, 0.6, 0.9, 0.8],
    ... })
    >>> spec = {"measures": {"accuracy": {"better": "higher", "random": 0.5}},
    ...         "choices": {"imputation": {"options": {"mean": {"rule": "mean"},
    ...                                                 "threshold0.2": {"rule": "threshold"}}},
    ...                     "aggregation": {"options": ["mean", "mean_rank"]}}}
    >>> multiverse = rankings(results, spec)
    >>> multiverse.rankings_table()
         imputation aggregation datasets   measure method  value  rank
    0          mean        mean      all  accuracy      A  0.725   2.0
    1          mean        mean      all  accuracy      B  0.775   1.0
    2          mean   mean_rank      all  accuracy      A  1.500   1.5
    3          mean   mean_rank      all  accuracy      B  1.500   1.5
    4  threshold0.2        mean      all  accuracy      A  0.725   1.5
    5  threshold0.2        mean      all  accuracy      B  0.725   1.5
    6  threshold0.2   mean_rank      all  accuracy      A  1.500   1.5
    7  threshold0.2   mean_rank      all  accuracy      B  1.500   1.5
    """
    inputs = file_names(results, spec, characteristics)
    spec = spec if isinstance(spec, Spec) else read_spec(spec)
    data = read_results(results, spec)
    table = read_characteristics(
        characteristics,
        data.datasets,
        dataset_column=characteristics_dataset_column or spec.columns["dataset"],
    )
    by_family = {family: choice_of(spec, family) for family in FAMILIES}
    subsets = _subsets(by_family["datasets"], data.datasets, table)
    masks = np.array([[d in set(kept) for d in data.datasets] for kept in subsets.values()])

    shape = [len(by_family[f].options) for f in FAMILIES]
    ranks = np.empty((*shape, len(data.methods)))
    values = np.empty_like(ranks)
    direction = np.empty(shape, dtype="<U6")
    for (e, i, a), part, (block_ranks, block_values, block_direction) in _ranked(
        by_family, data, masks, spec, n_jobs, progress
    ):
        ranks[part, e, i, a], values[part, e, i, a] = block_ranks, block_values
        direction[part, e, i, a] = block_direction

    order = [FAMILIES.index(spec.choices[k].family) for k in range(len(spec.choices))]
    ranks = ranks.transpose(*order, len(FAMILIES)).reshape(-1, len(data.methods))
    values = values.transpose(*order, len(FAMILIES)).reshape(-1, len(data.methods))
    direction = direction.transpose(*order).ravel()
    sizes = [len(c.options) for c in spec.choices]
    codes = np.indices(sizes).reshape(len(sizes), -1).T
    return MultiverseResult(
        choices=tuple(c.name for c in spec.choices),
        options={c.name: c.names for c in spec.choices},
        defaults={c.name: c.default for c in spec.choices},
        methods=data.methods,
        codes=codes,
        ranks=ranks,
        values=values,
        direction=direction,
        datasets={
            o.name: tuple(kept)
            for o, kept in zip(by_family["datasets"].options, subsets.values(), strict=True)
        },
        spec=spec,
        inputs=inputs,
    )


def ranked_first(ranks: np.ndarray) -> np.ndarray:
    """Shape (rankings, methods): whether the method has the best (smallest) rank of its ranking, alone or
    tied."""
    return ranks == ranks.min(axis=1, keepdims=True)


def first_shares(methods: Sequence[str], ranks: np.ndarray) -> dict[str, float]:
    """Each method's share of the rankings (rows of `ranks`) in which it ranks first, alone or tied."""
    return {m: float(s) for m, s in zip(methods, ranked_first(ranks).mean(axis=0), strict=True)}


def _ranked(by_family, data, masks, spec, n_jobs, progress):
    """``((e, i, a), subsets, (ranks, values, direction))`` for every block of work, in any order: the
    rankings of the data-set options `subsets` (a slice of `masks`) under the measure, imputation and
    aggregation options numbered e, i and a, computed here or by joblib's workers (:func:`rankings`)."""
    cells = masks.shape[1] * len(data.methods)
    size = max(1, min(len(masks), -(-_BLOCK_CELLS // cells)))

    def tasks():  # made as they are needed, so that a spec's first mistake is found first, as it comes
        for (e, measure_option), (i, imputation) in itertools.product(
            enumerate(by_family["measure"].options), enumerate(by_family["imputation"].options)
        ):
            measure = spec.measure(measure_option.rule)
            imputed = _impute(imputation, data, measure)
            for a, aggregation in enumerate(by_family["aggregation"].options):
                found = rule("aggregation", aggregation.rule)  # sent along: a worker may not have it
                for start in range(0, len(masks), size):
                    part = slice(start, start + size)
                    yield (e, i, a), part, found, aggregation, imputed, masks[part], measure

    total = len(masks) * len(by_family["measure"].options) * len(by_family["imputation"].options)
    total *= len(by_family["aggregation"].options)
    if progress is not None:
        progress(0, total)
    if n_jobs == 1 or total * cells <= _PARALLEL_CELLS:
        done = (_rank_block(*task) for task in tasks())
    else:
        from joblib import Parallel, delayed

        done = Parallel(n_jobs=n_jobs, return_as="generator_unordered")(
            delayed(_rank_block)(*task) for task in tasks()
        )
    count = 0
    for block in done:
        count += len(block[2][0])
        if progress is not None:
            progress(count, total)
        yield block


def _rank_block(key, part, found, aggregation, imputed, masks, measure):
    """``(key, part, (ranks, values, direction))``: :func:`_rank_subsets` of a block of data-set options."""
    return key, part, _rank_subsets(aggregation, imputed, masks, measure, found=found)


def _call(option, family, *args, found=None, **kwargs):
    """Call the option's rule (`found`, or the one registered under its name), naming the option's place
    in the spec on any InputError."""
    found = rule(family, option.rule) if found is None else found
    try:
        return found, found(*args, **kwargs, **option.parameters)
    except InputError as exc:
        raise InputError(f"{option.place}: {exc}") from None


def _subsets(choice, datasets, characteristics) -> dict[str, list[str]]:
    out = {}
    for option in choice.options:
        _, kept = _call(option, "datasets", characteristics, list(datasets))
        kept = [d for d in datasets if d in set(kept)]
        if not kept:
            raise InputError(f"{option.place}: selects no data set")
        out[option.name] = kept
    return out


def _impute(option, data, measure) -> np.ndarray:
    """Each pair's value: the mean over its iterations, missing ones filled with the rule's value."""
    _, imputed = _call(
        option,
        "imputation",
        data.values[measure.name],
        data.failure_rate[measure.name],
        random=measure.random,
        direction=measure.direction,
    )
    imputed = np.asarray(imputed, dtype=float)
    expected = data.failure_rate[measure.name].shape
    if imputed.shape != expected or not np.isfinite(imputed).all():
        raise InputError(
            f"{option.place}: imputation rule {option.rule!r} must return finite values of shape {expected} "
            f"(data sets, methods), got shape {imputed.shape}"
        )
    values = data.values[measure.name]
    missing = (data.rows - np.count_nonzero(~np.isnan(values), axis=-1)) / data.rows
    rest = mean_of_rest(values, measure.random)
    return np.where(missing < 1, (1.0 - missing) * rest + missing * imputed, imputed)


def _rank_subsets(aggregation, imputed, masks, measure, *, found=None) -> tuple[np.ndarray, np.ndarray, str]:
    """The methods' ranks and aggregated values (first key) on each subset of data sets, and which end
    ranks first (``"higher"`` or ``"lower"``): `imputed` is (data sets, methods), `masks` (subsets, data
    sets) marks the data sets each subset keeps; `found` is the aggregation's rule (None: the registered
    one)."""
    spread = np.where(masks[:, :, None], imputed[None], np.nan)
    keys, direction = _aggregate(aggregation, spread, measure, imputed.shape[1], found=found)
    return _rank(keys if direction == "lower" else -keys), keys[:, 0], direction


def _aggregate(option, spread, measure, methods, *, found=None) -> tuple[np.ndarray, str]:
    """Keys of shape (subsets, levels, methods) and which end of them ranks first."""
    found, keys = _call(option, "aggregation", spread, direction=measure.direction, found=found)
    keys = np.asarray(keys, dtype=float)
    if keys.ndim == 2:
        keys = keys[:, None, :]
    if keys.ndim != 3 or keys.shape[0] != spread.shape[0] or keys.shape[2] != methods:
        raise InputError(
            f"{option.place}: aggregation rule {option.rule!r} must return shape (subsets, methods) or "
            f"(subsets, keys, methods) = ({spread.shape[0]}, …, {methods}), got {keys.shape}"
        )
    if not np.isfinite(keys).all():
        raise InputError(f"{option.place}: aggregation rule {option.rule!r} gave a value that is not finite")
    return keys, measure.direction if found.better == "measure" else found.better


def _rank(keys) -> np.ndarray:
    """Average ranks (1 = smallest) of the methods along the last axis, comparing keys lexicographically."""
    from scipy.stats import rankdata

    if keys.shape[1] == 1:
        return rankdata(keys[:, 0], method="average", axis=-1)
    dense = rankdata(keys, method="dense", axis=-1)
    combined = np.zeros(dense[:, 0].shape)
    for level in range(keys.shape[1]):
        combined = combined * (keys.shape[2] + 1) + dense[:, level]
    return rankdata(combined, method="average", axis=-1)
