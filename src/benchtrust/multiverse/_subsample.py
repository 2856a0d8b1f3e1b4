"""Rankings on growing subsamples of the data sets (Nießl et al. 2022, §4.2, Fig. 6 and Fig. S3).

How much does the ranking of the methods depend on which data sets the benchmark happens to include? The
data sets are put in random orders; for each order the methods are ranked on its first l = 1, …, L − 1
data sets, with the spec's default options for everything else (measure, imputation of failed iterations,
aggregation over data sets). Of the rankings on the same *set* of data sets only one is kept (see
:func:`subsample` for which), and the ranking on all L data sets is added. The paper unfolds the
resulting rank matrix (Fig. 6: ibrier, 774 rankings from 50 orders of 18 data sets; Fig. S3: the
C-index).

Nießl, C., Herrmann, M., Wiedemann, C., Casalicchio, G. & Boulesteix, A.-L. (2022). Over-optimism in
benchmark studies and the multiplicity of design and analysis options when interpreting their results.
WIREs Data Mining and Knowledge Discovery 12(2), e1441.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from benchtrust._io import InputError, bundled_file, check_count, check_seed, table_of
from benchtrust._result import Description, Result
from benchtrust.multiverse import _text
from benchtrust.multiverse._data import file_names, read_characteristics, read_results
from benchtrust.multiverse._rankings import _impute, _rank_subsets, first_shares, ranked_first
from benchtrust.multiverse._spec import Option, Spec, choice_of, read_spec

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SubsampleResult", "bundled_orders", "subsample"]

_REP = "rep"
_SIZE = "nrdatasets"
#: Bound on the cells of one aggregation call (subsets × data sets × methods), to keep memory small.
_CELLS_PER_CALL = 4_000_000


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class SubsampleResult(Result):
    """The distinct rankings of the methods on the first data sets of orders of them (§4.2, Fig. 6, S3).

    Attributes
    ----------
    methods : tuple of str
        The methods, in the order of the columns of `ranks`.
    datasets : tuple of str
        The L data sets of the results, in the order of the columns of `included`.
    ranks : numpy.ndarray
        Shape (rankings, methods): 1 = best; ties get the average of their ranks. The last row is the
        ranking on all L data sets.
    values : numpy.ndarray
        Shape (rankings, methods): the aggregated value each ranking rests on (its first key).
    included : numpy.ndarray
        Shape (rankings, data sets), boolean: the data sets each ranking uses.
    table : pandas.DataFrame
        One row per ranking, in the orders' order and then by l: ``rep`` (the label of the order its set
        of data sets was kept from; see :func:`subsample`), ``nrdatasets`` (l, the number of data sets)
        and one column of ranks per method, like the reference file
        ``datasample_unfolding_ibrier_774.csv``. The ranking on all L data sets is the last row, labelled
        with the order whose label comes first as text and l = L.
    orders : pandas.DataFrame
        The orders: ``rep`` then ``pos1`` … ``posL``, the data sets in the order they are added.
    measure : str
        The measure ranked by (the spec's default measure option's unless overridden).
    imputation, aggregation : str
        The spec's default options of the imputation and the aggregation.
    direction : str
        Which end of `values` ranks first, ``"higher"`` or ``"lower"``.
    candidates : int
        The number of rankings before duplicates were dropped: orders × (L − 1).

    See Also
    --------
    subsample : Rank the methods on the first data sets of orders of the data sets.
    plot_subsample : Draw an unfolding of the rankings on subsamples (Fig. 6, Fig. S3).
    bundled_orders : The paper's 50 orders of the 18 data sets.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2, Fig. 6 (774
       rankings on subsamples of the data sets, ibrier); supplement, Fig. S3 (the same with the cindex).
    """

    methods: tuple[str, ...]
    datasets: tuple[str, ...]
    ranks: np.ndarray
    values: np.ndarray
    included: np.ndarray
    table: pd.DataFrame
    orders: pd.DataFrame
    measure: str
    imputation: str
    aggregation: str
    direction: str
    candidates: int

    @property
    def lower_is_better(self) -> bool:
        """Whether a lower value ranks first: ``direction == "lower"`` (the old spelling, for old code)."""
        return self.direction == "lower"

    @property
    def full(self) -> np.ndarray:
        """The ranks of the methods on all L data sets (the last row of `ranks`)."""
        return self.ranks[-1]

    @property
    def first_share(self) -> dict[str, float]:
        """Each method's share of the rankings in which it ranks first, alone or tied."""
        return first_shares(self.methods, self.ranks)

    @property
    def winners(self) -> tuple[str, ...]:
        """The methods first (alone or tied) on all L data sets."""
        return tuple(self.methods[m] for m in np.flatnonzero(self.full == self.full.min()))

    @property
    def winners_first_in(self) -> int:
        """How many of the rankings rank one of the :attr:`winners` first (alone or tied)."""
        chosen = [self.methods.index(m) for m in self.winners]
        return int(ranked_first(self.ranks)[:, chosen].any(axis=1).sum())

    @property
    def verdict(self) -> str:
        """The rankings in plain words (§4.2, Fig. 6): how many there are, from which subsamples, and how
        often the winner on all data sets is first on fewer of them."""
        return _text.subsample_verdict(self)

    def rank_range(self) -> dict[str, list[float]]:
        """Each method's best and worst rank over the rankings."""
        return {
            m: [float(lo), float(hi)]
            for m, lo, hi in zip(self.methods, self.ranks.min(0), self.ranks.max(0), strict=True)
        }

    def describe(self) -> Description:
        """The verdict (the text); each method's rank on all data sets and its best, median and worst rank
        and "first in" share over the rankings (the section); the counts, the options, the ranking on all
        data sets, each method's "first in" share (ties included) and its rank range (the data); the table
        of rankings (the frame)."""
        first = self.first_share
        rows = tuple(
            (
                self.methods[m],
                f"{self.full[m]:g}",
                f"{self.ranks[:, m].min():g}",
                f"{np.median(self.ranks[:, m]):g}",
                f"{self.ranks[:, m].max():g}",
                _text.share(first[self.methods[m]]),
            )
            for m in np.argsort(self.full, kind="stable")
        )
        sizes = self.table[_SIZE].value_counts().sort_index()
        return Description(
            question="How much does the ranking depend on which data sets happen to be in the benchmark?",
            verdict=self.verdict,
            text=self.verdict,
            data={
                "rankings": len(self.ranks),
                "orders": len(self.orders),
                "datasets": list(self.datasets),
                "methods": list(self.methods),
                "measure": self.measure,
                "imputation": self.imputation,
                "aggregation": self.aggregation,
                "candidates": self.candidates,
                "duplicates_dropped": self.candidates + 1 - len(self.ranks),
                "rankings_by_nrdatasets": {str(int(l)): int(k) for l, k in sizes.items()},
                "full_ranking": {m: float(r) for m, r in zip(self.methods, self.full, strict=True)},
                "first_share": first,
                "rank_range": self.rank_range(),
            },
            columns=("method", f"rank on all {len(self.datasets)}", "best", "median", "worst", "first in"),
            rows=rows,
            frame=dict(self.table.items()),
            assumptions=(
                ("options", f"{self.measure}, {self.imputation}, {self.aggregation}"),
                ("orders", str(len(self.orders))),
            ),
            source=f"{_text.SOURCE}, §4.2, Fig. 6 and Fig. S3",
            inputs=self.inputs,
            analysis=_text.ANALYSIS,
        )

    def __repr__(self) -> str:
        return self.verdict


def subsample(
    results: str | os.PathLike[str] | pd.DataFrame,
    spec: str | os.PathLike[str] | Mapping[str, Any] | Spec,
    *,
    orders: str | os.PathLike[str] | pd.DataFrame | Sequence[Sequence[str]] | None = None,
    n_orders: int | None = None,
    seed: int | np.random.Generator = 0,
    measure: str | None = None,
    characteristics: str | os.PathLike[str] | pd.DataFrame | None = None,
    characteristics_dataset_column: str | None = None,
    orders_label_column: str | None = None,
) -> SubsampleResult:
    """Rank the methods on the first l data sets of orders of the data sets (Nießl et al. 2022, §4.2).

    For each order and each l = 1, …, L − 1 the methods are ranked on the first l data sets of the order,
    with the spec's default options of the measure (unless `measure` is given), the imputation of failed
    iterations and the aggregation over data sets; the spec's data-set choice is not used. Of the rankings
    on the same *set* of data sets only one is kept: that of the order whose label comes first as text
    (1, 10, 11, …, 19, 2, 20, … for labels 1 to 50, the order in which the reference analysis's R code met
    them; the ranking is the same whichever is kept). The ranking on all L data sets is added last,
    labelled with that first order and l = L, as in the reference. The paper's Fig. 6 unfolds the 774
    ibrier rankings from its 50 orders of 18 data sets (:func:`bundled_orders`); Fig. S3 does the same
    with the C-index. Ranks: 1 = best, ties get the average of their ranks. The distinct sets are found
    first; then one imputation and one aggregation call (in blocks of a few million cells) rank them all.

    Parameters
    ----------
    results : str, os.PathLike or pandas.DataFrame
        As for :func:`benchtrust.multiverse.rankings`.
    spec : str, os.PathLike, mapping or Spec
        As for :func:`benchtrust.multiverse.rankings`; its default options are used.
    orders : str, os.PathLike, pandas.DataFrame or 2-D sequence of str, optional
        One order of the data sets per row: every row a permutation of all L data sets of the results. A
        file or DataFrame may have a column labelling the orders (`orders_label_column`; without one they
        are 1, 2, …); its other columns are the positions (``pos1`` … ``posL``), in order. Default:
        `n_orders` random orders.
    n_orders : int, optional
        The number of random orders when `orders` is not given (default 50, as in the paper).
    seed : int or numpy.random.Generator, default 0
        Seeds ``numpy.random.default_rng`` for the random orders (permutations of the data sets in the
        results' order).
    measure : str, optional
        An option of the spec's measure choice (or a declared measure) to use instead of its default,
        such as ``"cindex"`` for Fig. S3.
    characteristics : str, os.PathLike or pandas.DataFrame, optional
        Accepted so that ``subsample(**bundled_study())`` works; checked as for
        :func:`~benchtrust.multiverse.rankings` but not needed (the orders choose the data sets).
    characteristics_dataset_column : str, optional
        As for :func:`~benchtrust.multiverse.rankings`.
    orders_label_column : str, optional
        The column of `orders` that labels them; default: ``rep`` if there is one (as in the paper's
        orders), else none.

    Returns
    -------
    SubsampleResult
        Its ``inputs`` are `results`, `spec`, `characteristics` and `orders` where they name files.

    Raises
    ------
    benchtrust.InputError
        For a mistake in any input: an order that is not a permutation of the results' data sets (naming
        the file, line and column), a repeated ``rep`` label, an unknown measure, `orders` and `n_orders`
        both given.

    See Also
    --------
    SubsampleResult : The distinct rankings on subsamples of the data sets.
    plot_subsample : Draw an unfolding of the rankings on subsamples (Fig. 6, Fig. S3).
    bundled_orders : The paper's 50 orders of the 18 data sets.
    unfold : Non-metric unfolding by penalised stress.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2, Fig. 6 (774
       rankings on subsamples of the data sets, ibrier); supplement, Fig. S3 (the same with the cindex).

    Examples
    --------
    Fig. 6 of the paper, from the bundled results and the reference analysis's 50 orders:

    >>> from benchtrust.multiverse import bundled_study
    >>> from benchtrust.multiverse._subsample import bundled_orders, subsample
    >>> result = subsample(**bundled_study(), orders=bundled_orders())
    >>> print(result)  # doctest: +NORMALIZE_WHITESPACE
    774 distinct rankings of 13 methods from 50 orders of 18 data sets (ibrier, threshold0.2, mean): the
    first 1 to 17 data sets of each order (77 repeating a set already seen, dropped) and all 18;
    blockForest, first on all 18, is first in 415 (54%) of them.
    >>> result.table.iloc[[0, -1], :6]
         rep  nrdatasets  Kaplan-Meier  Lasso  glmboost  CoxBoost
    0      1           1          10.0    2.0       1.0       6.0
    773    1          18           7.0   13.0      12.0       3.0
    >>> result.table["nrdatasets"].value_counts().sort_index().tolist()[:3]
    [17, 47, 50]
    """
    import pandas as pd

    inputs = file_names(results, spec, characteristics, orders)
    spec = spec if isinstance(spec, Spec) else read_spec(spec)
    data = read_results(results, spec)
    read_characteristics(
        characteristics,
        data.datasets,
        dataset_column=characteristics_dataset_column or spec.columns["dataset"],
    )
    measure_name = measure_option(spec, measure)
    the_measure = spec.measure(measure_name)
    imputation = _default(spec, "imputation")
    aggregation = _default(spec, "aggregation")

    datasets = data.datasets
    L = len(datasets)
    reps: list[int] | list[str]
    if orders is None:
        count = 50 if n_orders is None else check_count(n_orders, "n_orders")
        codes = check_seed(seed).permuted(np.tile(np.arange(L), (count, 1)), axis=1)
        reps = list(range(1, count + 1))
    else:
        if n_orders is not None:
            raise InputError("n_orders: give either orders or n_orders (the number of random orders)")
        codes, reps = _read_orders(orders, datasets, orders_label_column)

    included, which, size_of = _distinct(codes, reps)
    rep_of = [reps[r] for r in which]

    imputed = _impute(imputation, data, the_measure)
    block = max(1, _CELLS_PER_CALL // (L * len(data.methods)))
    parts = [
        _rank_subsets(aggregation, imputed, included[start : start + block], the_measure)
        for start in range(0, len(included), block)
    ]
    ranks = np.vstack([p[0] for p in parts])
    values = np.vstack([p[1] for p in parts])

    table = pd.DataFrame(ranks, columns=list(data.methods))
    table.insert(0, _SIZE, size_of.astype(int), allow_duplicates=True)
    table.insert(0, _REP, rep_of, allow_duplicates=True)
    frame = pd.DataFrame(np.asarray(datasets, dtype=object)[codes], columns=[f"pos{j + 1}" for j in range(L)])
    frame.insert(0, _REP, reps, allow_duplicates=True)
    return SubsampleResult(
        methods=data.methods,
        datasets=datasets,
        ranks=ranks,
        values=values,
        included=included,
        table=table,
        orders=frame,
        measure=measure_name,
        imputation=imputation.name,
        aggregation=aggregation.name,
        direction=parts[0][2],
        candidates=len(codes) * (L - 1),
        inputs=inputs,
    )


def _distinct(codes: np.ndarray, reps: Sequence[int | str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The distinct sets of the first l = 1 … L − 1 data sets of the orders, then all L.

    Returns the sets as masks (sets × L), the index of the order each was kept from and its size l. Of
    the orders that give the same set, the one whose label comes first as text is kept (1, 10, 11, …, 19,
    2, 20, … for the labels 1 to 50): the order in which the reference analysis met them. Within the
    result, the sets are in the orders' order, then by l; all L data sets come last, labelled with the
    order that comes first as text.
    """
    L = codes.shape[1]
    by_text = np.argsort(np.array([str(rep) for rep in reps]), kind="stable")
    position = np.argsort(codes[by_text], axis=1)  # position[r, d]: where data set d comes in order r
    sizes = np.arange(1, L)
    candidates = (position[:, None, :] < sizes[None, :, None]).reshape(-1, L)
    first = np.unique(candidates, axis=0, return_index=True)[1] if len(candidates) else np.zeros(0, int)
    order, level = by_text[first // max(L - 1, 1)], first % max(L - 1, 1)
    kept = np.lexsort((level, order))
    masks = np.vstack([candidates[first[kept]], np.ones((1, L), dtype=bool)])
    return masks, np.append(order[kept], by_text[0]), np.append(sizes[level[kept]], L)


def bundled_orders() -> Path:
    """The path of the bundled 50 orders of the 18 data sets of Nießl et al.'s Fig. 6 (``rep``, ``pos1`` …
    ``pos18``; from the reference repository's ``Data/rankdata_datasample.RData``).

    See Also
    --------
    subsample : Rank the methods on the first data sets of orders of the data sets.
    SubsampleResult : The distinct rankings on subsamples of the data sets.
    bundled_study : The bundled results, characteristics and spec of the paper.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2, Fig. 6 (the
       50 random orders behind it).
    .. [2] M. Herrmann, P. Probst, R. Hornung, V. Jurinovic and A.-L. Boulesteix, "Large-scale benchmark study
       of survival prediction methods using multi-omics data", Briefings in Bioinformatics 22(3), bbaa167,
       2021. doi:10.1093/bib/bbaa167. The 18 data sets.
    """
    return bundled_file("datasample_orders_50x18.csv")


def _default(spec: Spec, family: str) -> Option:
    """The default option of the spec's choice of `family`."""
    choice = choice_of(spec, family)
    return next(o for o in choice.options if o.name == choice.default)


def measure_option(spec: Spec, measure: str | None) -> str:
    """The declared measure to rank by: the default measure option's, or the one `measure` names."""
    choice = choice_of(spec, "measure")
    if measure is None:
        return _default(spec, "measure").rule
    for option in choice.options:
        if option.name == measure:
            return option.rule
    declared = [m.name for m in spec.measures]
    if measure in declared:
        return measure
    known = list(dict.fromkeys([*choice.names, *declared]))
    raise InputError(
        f"measure: {measure!r} is not a measure of {spec.source}; expected one of {', '.join(known)}"
    )


def _read_orders(
    orders: str | os.PathLike[str] | pd.DataFrame | Sequence[Sequence[str]],
    datasets: Sequence[str],
    label_column: str | None = None,
) -> tuple[np.ndarray, list[int] | list[str]]:
    """The orders as codes into `datasets` (orders × L) and their labels; InputError naming the place.

    `label_column` names the column of labels (required then); None takes ``rep`` if there is one."""
    import pandas as pd

    if isinstance(orders, (str, os.PathLike, pd.DataFrame)):
        source = orders
    elif isinstance(orders, Mapping) or not _rows_of_sequences(orders):
        raise InputError(
            "orders: expected a CSV file, a DataFrame or a 2-D sequence of data-set names (one order per row)"
        )
    else:
        rows = [list(row) for row in orders]
        width = max(len(row) for row in rows)
        rows = [row + [""] * (width - len(row)) for row in rows]  # a short row: its missing cells are empty
        source = pd.DataFrame(rows, columns=[f"pos{j + 1}" for j in range(width)])
    wanted = _REP if label_column is None else label_column
    example = f"{wanted},{','.join(f'pos{j + 1}' for j in range(min(len(datasets), 3)))},…"
    table = table_of(source, example=example, what="a table of orders of the data sets")
    lowered = [header.lower() for header in table.header]
    label = None
    if label_column is not None or _REP in lowered:
        label = table.column(wanted, purpose=" labelling the orders")
    columns = [k for k in range(len(table.header)) if k != label]
    L = len(datasets)
    if len(columns) != L:
        named = ", ".join(repr(table.header[k]) for k in columns)
        raise InputError(
            f"{table.header_place}: {len(columns)} position column(s) ({named}) but the results have {L} "
            f"data sets; each row must be an order of all of them"
        )
    index = pd.Index(datasets)
    codes = np.empty((len(table.cells(columns[0])), L), dtype=int)
    for j, k in enumerate(columns):
        cells = table.texts(k, "a data-set name")
        codes[:, j] = index.get_indexer(cells)
        if (codes[:, j] < 0).any():
            r = int(np.argmax(codes[:, j] < 0))
            shown = ", ".join(datasets[:20]) + (", …" if L > 20 else "")
            raise InputError(
                f"{table.where(r)}, column {table.header[k]!r}: {cells[r]!r} is not a data set of the "
                f"results ({shown})"
            )
    repeated = (np.sort(codes, axis=1) != np.arange(L)).any(axis=1)
    if repeated.any():
        r = int(np.argmax(repeated))
        seen: dict[int, int] = {}
        for j, code in enumerate(codes[r]):
            if code in seen:
                raise InputError(
                    f"{table.where(r)}, column {table.header[columns[j]]!r}: {datasets[code]!r} appears a "
                    f"second time in this order (first in column {table.header[columns[seen[code]]]!r}); "
                    "each row must be an order of all the data sets"
                )
            seen[code] = j
    if label is None:
        return codes, list(range(1, len(codes) + 1))
    names = table.texts(label, "a label of the order")
    seen_labels: set[str] = set()
    for r, name in enumerate(names):
        if name in seen_labels:
            raise InputError(
                f"{table.where(r)}, column {table.header[label]!r}: {name!r} labels a second order; "
                "each order needs its own label"
            )
        seen_labels.add(name)
    numeric = all(name.lstrip("-").isdigit() for name in names)
    return codes, [int(name) for name in names] if numeric else names


def _rows_of_sequences(orders) -> bool:
    """Whether `orders` is a sequence whose items are all sequences of names (not strings)."""
    try:
        items = list(orders)
    except TypeError:
        return False
    return bool(items) and all(
        not isinstance(item, (str, bytes)) and hasattr(item, "__len__") and hasattr(item, "__iter__")
        for item in items
    )
