"""What the multiverse of rankings says (Nießl et al. 2022, §4): how far each method's rank moves over all
combinations (Fig. 2), how far a researcher optimising one choice at a time could move it (Fig. 3), and
how much each choice alone changes the ranking (§4.2, Fig. 5 in numbers).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._io import InputError
from benchtrust._result import Description, Result
from benchtrust.multiverse import _text
from benchtrust.multiverse._plot import plot_rank_distribution, plot_stepwise

if TYPE_CHECKING:
    from typing import Protocol

    import pandas as pd
    from numpy.typing import ArrayLike

    from benchtrust.multiverse._rankings import MultiverseResult

    class _Ranks(Protocol):
        """What :func:`rank_distribution` reads: the methods and their ranks, one row per combination (a
        :class:`MultiverseResult` or a :class:`SubsampleResult`)."""

        @property
        def methods(self) -> Sequence[str]: ...

        @property
        def ranks(self) -> ArrayLike: ...


__all__ = [
    "ImpactResult",
    "RankDistributionResult",
    "StepwiseResult",
    "impact",
    "rank_distribution",
    "stepwise",
]


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class RankDistributionResult(Result):
    """Each method's ranks over all combinations (the paper's Fig. 2).

    Attributes
    ----------
    methods : tuple of str
    best, worst : numpy.ndarray
        Each method's smallest and largest rank.
    table : pandas.DataFrame
        Long table with columns ``method``, ``rank``, ``combinations`` (how many give the method that
        rank) and ``share`` (the same as a fraction of all combinations), ranks ascending.

    See Also
    --------
    rank_distribution : Each method's best and worst rank and its share of combinations at each rank.
    plot_rank_distribution : Draw the rank distribution (Fig. 2).
    MultiverseResult : The rankings of the methods under every combination of options.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.1, Fig. 2 (the
       rank distribution of the methods over all combinations).
    """

    methods: tuple[str, ...]
    best: np.ndarray
    worst: np.ndarray
    table: pd.DataFrame

    @property
    def combinations(self) -> int:
        """The number of combinations the ranks were counted over."""
        return int(self.table.loc[self.table["method"] == self.methods[0], "combinations"].sum())

    @property
    def verdict(self) -> str:
        """The distribution in plain words (§4.1, Fig. 2): how far a method's rank moves over the
        combinations, and which method's moves the most."""
        return _text.rank_distribution_verdict(self)

    def share_at_most(self, method: str, rank: float) -> float:
        """The share of combinations in which `method` ranks `rank` or better."""
        rows = self.table[(self.table["method"] == method) & (self.table["rank"] <= rank)]
        return float(rows["share"].sum())

    def describe(self) -> Description:
        """The verdict, then each method's best and worst rank (the text); the table of rank ranges with
        Fig. 2 (the section); each method's rank range and its share of combinations at each rank (the
        data); the long table ``method``, ``rank``, ``combinations``, ``share`` (the frame)."""
        rows = tuple(
            (m, f"{best:g}", f"{worst:g}", _text.share(self.share_at_most(m, best)))
            for m, best, worst in zip(self.methods, self.best, self.worst, strict=True)
        )
        return Description(
            question="How far does each method's rank move over all combinations of options?",
            verdict=self.verdict,
            text=_text.with_verdict(self),
            data={
                "rank_range": {
                    m: [float(b), float(w)]
                    for m, b, w in zip(self.methods, self.best, self.worst, strict=True)
                },
                "shares": {
                    m: {f"{r:g}": float(s) for r, s in zip(group["rank"], group["share"], strict=True)}
                    for m, group in self.table.groupby("method", sort=False)
                },
            },
            columns=("method", "best rank", "worst rank", "share at its best rank"),
            rows=rows,
            frame=dict(self.table.items()),
            assumptions=(("combinations", str(self.combinations)),),
            source=f"{_text.SOURCE}, §4.1, Fig. 2",
            inputs=self.inputs,
            analysis=_text.ANALYSIS,
            figure=lambda: plot_rank_distribution(self._counted(), self.methods),
        )

    def _counted(self) -> np.ndarray:
        """Each method's ranks in ascending order, one row per combination: the counts Fig. 2 draws."""
        return np.column_stack(
            [
                np.repeat(group["rank"].to_numpy(), group["combinations"].to_numpy())
                for _, group in self.table.groupby("method", sort=False)
            ]
        )

    def __repr__(self) -> str:
        lines = [f"RankDistributionResult({len(self.methods)} methods):"]
        width = max(len(m) for m in self.methods)
        for m, b, w in zip(self.methods, self.best, self.worst, strict=True):
            lines.append(f"  {m:<{width}}  best {b:g}, worst {w:g}")
        return "\n".join(lines)


def rank_distribution(multiverse: _Ranks) -> RankDistributionResult:
    """Each method's best and worst rank and the share of combinations at each rank (Fig. 2, §4.1).

    See Also
    --------
    RankDistributionResult : Each method's ranks over all combinations.
    plot_rank_distribution : Draw the rank distribution (Fig. 2).
    rankings : Rank the methods under every combination of the spec's options.
    stepwise : Optimise each method's rank one choice at a time.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.1, Fig. 2 (the
       rank distribution of the methods over all combinations).

    Examples
    --------
    >>> import numpy as np
    >>> from types import SimpleNamespace
    >>> from benchtrust.multiverse import rank_distribution
    >>> toy = SimpleNamespace(methods=("A", "B"), ranks=np.array([[1.0, 2.0], [1.5, 1.5], [2.0, 1.0]]))
    >>> rank_distribution(toy).table
      method  rank  combinations     share
    0      A   1.0             1  0.333333
    1      A   1.5             1  0.333333
    2      A   2.0             1  0.333333
    3      B   1.0             1  0.333333
    4      B   1.5             1  0.333333
    5      B   2.0             1  0.333333
    """
    import pandas as pd

    ranks = np.asarray(multiverse.ranks)
    long = pd.DataFrame(
        {"method": np.tile(np.asarray(multiverse.methods, dtype=object), len(ranks)), "rank": ranks.ravel()}
    )
    table = long.groupby(["method", "rank"], sort=False).size().rename("combinations").reset_index()
    order = {m: k for k, m in enumerate(multiverse.methods)}
    table = table.sort_values(["method", "rank"], key=lambda c: c.map(order) if c.name == "method" else c)
    table = table.reset_index(drop=True).assign(share=lambda t: t["combinations"] / len(ranks))
    return RankDistributionResult(tuple(multiverse.methods), ranks.min(axis=0), ranks.max(axis=0), table)


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class StepwiseResult(Result):
    """Step-wise optimisation of each method's rank (the paper's Fig. 3).

    Attributes
    ----------
    order : tuple of str
        The choices in the order they were optimised.
    steps : pandas.DataFrame
        Per method, step 0 (the defaults) and one row per choice in `order`: columns ``method``, ``step``,
        ``choice`` (empty at step 0), ``option`` (the option taken), ``rank``, ``value`` and ``changed``
        (whether the step changed the option).
    best : dict of str to float
        Each method's rank after the last step.
    rank_range : dict of str to list of float
        Each method's best and worst rank over all combinations (the dotted segments of Fig. 3).

    See Also
    --------
    stepwise : Optimise each method's rank one choice at a time.
    plot_stepwise : Draw the step-wise optimisation (Fig. 3).
    RankDistributionResult : Each method's ranks over all combinations.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.1, Fig. 3
       (step-wise optimisation from the default options); supplement, Fig. S1-S2 (another default measure,
       another order).
    """

    order: tuple[str, ...]
    steps: pd.DataFrame
    best: dict[str, float]
    rank_range: dict[str, list[float]]

    @property
    def default(self) -> dict[str, float]:
        """Each method's rank with the default options (step 0)."""
        first = self.steps[self.steps["step"] == 0]
        return {m: float(r) for m, r in zip(first["method"], first["rank"], strict=True)}

    @property
    def improved(self) -> tuple[str, ...]:
        """The methods whose step-wise rank is better (smaller) than their rank with the default options."""
        default = self.default
        return tuple(m for m, rank in self.best.items() if rank < default[m])

    @property
    def reached_best(self) -> tuple[str, ...]:
        """The methods whose step-wise rank is the best rank any combination gives them (Fig. 3, §4.1)."""
        return tuple(m for m, rank in self.best.items() if rank <= self.rank_range[m][0])

    @property
    def verdict(self) -> str:
        """The optimisation in plain words (§4.1, Fig. 3): how many methods improve on their rank at the
        defaults, and how many reach their best rank over all combinations."""
        return _text.stepwise_verdict(self)

    def describe(self) -> Description:
        """The verdict, then each method's rank at the defaults and the steps that changed it (the text);
        the table of ranks and options changed with Fig. 3 (the section); the order of the choices, every
        step and each method's final rank (the data); the steps ``method``, ``step``, ``choice``,
        ``option``, ``rank``, ``value``, ``changed`` (the frame)."""
        default = self.default
        rows: list[tuple[str, ...]] = []
        for method in sorted(default, key=default.__getitem__):
            steps = self.steps[(self.steps["method"] == method) & self.steps["changed"]]
            changes = "; ".join(f"{row.choice} = {row.option} → {row.rank:g}" for row in steps.itertuples())
            rows.append(
                (
                    method,
                    f"{default[method]:g}",
                    f"{self.best[method]:g}",
                    f"{self.rank_range[method][0]:g}",
                    changes or "none",
                )
            )
        return Description(
            question="How good could a method look if its author optimised one choice at a time?",
            verdict=self.verdict,
            text=_text.with_verdict(self),
            data={
                "order": list(self.order),
                "steps": self.steps.to_dict(orient="records"),
                "best": self.best,
            },
            columns=(
                "method",
                "rank at the defaults",
                "step-wise rank",
                "best rank of all",
                "options changed",
            ),
            rows=tuple(rows),
            frame=dict(self.steps.items()),
            assumptions=(("step-wise order", " → ".join(self.order)),),
            source=f"{_text.SOURCE}, §4.1, Fig. 3",
            inputs=self.inputs,
            analysis=_text.ANALYSIS,
            figure=lambda: plot_stepwise(self.steps, self.rank_range),
        )

    def __repr__(self) -> str:
        lines = [f"StepwiseResult(order: {' → '.join(self.order)}):"]
        for method, group in self.steps.groupby("method", sort=False):
            changes = [f"{r.choice}={r.option} → {r.rank:g}" for r in group.itertuples() if r.changed]
            lines.append(
                f"  {method}: default {group['rank'].iloc[0]:g}; {'; '.join(changes) or 'no change'}"
            )
        return "\n".join(lines)


def stepwise(multiverse: MultiverseResult, *, order: Sequence[str] | None = None) -> StepwiseResult:
    """Optimise each method's rank one choice at a time, from the defaults (§4.1, Fig. 3).

    At each step (a choice, in `order`) every option of that choice is tried with the options taken so
    far for the other choices. The option giving the method the best rank is taken; among equal ranks the
    one with the better aggregated value (in the direction that ranks first); among options equal in both,
    the first in the spec's order. The option held so far is kept unless another is strictly better, so a
    step that cannot improve the rank leaves the default in place.

    Parameters
    ----------
    multiverse : MultiverseResult
    order : sequence of str, optional
        The choices in the order to optimise them; default: the spec's ``stepwise`` order.

    Returns
    -------
    StepwiseResult

    See Also
    --------
    StepwiseResult : The step-wise optimisation of each method's rank.
    plot_stepwise : Draw the step-wise optimisation (Fig. 3).
    rank_distribution : Each method's best and worst rank and its share of combinations at each rank.
    rankings : Rank the methods under every combination of the spec's options.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.1, Fig. 3
       (step-wise optimisation from the default options); supplement, Fig. S1-S2 (another default measure,
       another order).
    """
    import pandas as pd

    order = tuple(multiverse.spec.stepwise if order is None else order)
    for name in order:
        if name not in multiverse.choices:
            raise InputError(f"order: {name!r} is not a choice ({', '.join(multiverse.choices)})")
    rows = []
    for m, method in enumerate(multiverse.methods):
        current = dict(multiverse.defaults)
        at = multiverse.index(current)
        rows.append((method, 0, "", "", multiverse.ranks[at, m], multiverse.values[at, m], False))
        for step, choice in enumerate(order, start=1):
            held = current[choice]
            candidates = [dict(current, **{choice: option}) for option in multiverse.options[choice]]
            where = [multiverse.index(c) for c in candidates]
            keys = [_merit(multiverse, k, m) for k in where]
            best = min(range(len(keys)), key=keys.__getitem__)
            if keys[best] < _merit(multiverse, multiverse.index(current), m):
                current = candidates[best]
            at = multiverse.index(current)
            rows.append(
                (
                    method,
                    step,
                    choice,
                    current[choice],
                    multiverse.ranks[at, m],
                    multiverse.values[at, m],
                    current[choice] != held,
                )
            )
    steps = pd.DataFrame(rows, columns=["method", "step", "choice", "option", "rank", "value", "changed"])
    final = steps.groupby("method", sort=False)["rank"].last()
    return StepwiseResult(order, steps, {m: float(r) for m, r in final.items()}, multiverse.rank_range())


def _merit(multiverse, k, m):
    """Sort key of combination `k` for method `m`: its rank, then its value, better first."""
    value = multiverse.values[k, m]
    return (multiverse.ranks[k, m], value if multiverse.direction[k] == "lower" else -value)


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class ImpactResult(Result):
    """How much changing one choice alone changes the ranking (§4.2).

    Attributes
    ----------
    table : pandas.DataFrame
        One row per choice (``from_option`` and ``to_option`` are ``*``: every pair of its options) and one
        per alternative option against the default (as in the paper's Fig. 5). Columns: ``choice``,
        ``from_option``, ``to_option``, ``pairs`` (pairs of combinations that differ in this choice only),
        ``ranking_changed`` and ``winner_changed`` (the share of pairs whose ranking, or set of
        first-ranked methods, differs) and ``mean_abs_rank_change`` (over pairs and methods).

    See Also
    --------
    impact : Compare the rankings of combinations that differ in one choice only.
    default_distances : How far one alternative option moves an ideal point.
    plot_default_distances : Draw those distances as box plots (Fig. 5).

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2 (the impact
       of individual choices), Fig. 4-5 (combinations that differ in one choice only).
    """

    table: pd.DataFrame

    @property
    def strongest(self) -> str | None:
        """The choice that, changed alone, moves a method's rank the most on average (the largest
        ``mean_abs_rank_change``; the first in the spec's order on ties), or None if no choice moves any
        rank."""
        overall = self.table[self.table["from_option"] == "*"]
        if not (overall["mean_abs_rank_change"] > 0).any():
            return None
        return str(overall.loc[overall["mean_abs_rank_change"].idxmax(), "choice"])

    @property
    def verdict(self) -> str:
        """The impact in plain words (§4.2): the choice that moves the ranks the most, and how often it
        changes the winner."""
        return _text.impact_verdict(self)

    def describe(self) -> Description:
        """The verdict, then how much each choice alone changes the ranking (the text); the table over every
        pair of a choice's options and for each alternative against the default (the section); the
        table's rows under ``impact`` (the data); the table ``choice``, ``from_option``, ``to_option``,
        ``pairs``, ``ranking_changed``, ``winner_changed``, ``mean_abs_rank_change`` (the frame)."""
        rows = tuple(
            (
                row.choice,
                "every pair" if row.from_option == "*" else f"{row.from_option} → {row.to_option}",
                str(row.pairs),
                f"{row.ranking_changed:.0%}",
                f"{row.winner_changed:.0%}",
                f"{row.mean_abs_rank_change:.2f}",
            )
            for row in self.table.itertuples()
        )
        return Description(
            question="Which choice matters most?",
            verdict=self.verdict,
            text=_text.with_verdict(self),
            data={"impact": self.table.to_dict(orient="records")},
            columns=(
                "choice",
                "options compared",
                "pairs",
                "ranking changed",
                "winner changed",
                "mean change of a rank",
            ),
            rows=rows,
            frame=dict(self.table.items()),
            source=f"{_text.SOURCE}, §4.2, Fig. 5",
            inputs=self.inputs,
            analysis=_text.ANALYSIS,
        )

    def __repr__(self) -> str:
        overall = self.table[self.table["from_option"] == "*"]
        lines = ["ImpactResult (changing one choice alone):"]
        for row in overall.itertuples():
            lines.append(
                f"  {row.choice}: ranking changes in {row.ranking_changed:.0%}, winner in "
                f"{row.winner_changed:.0%}, mean |Δrank| {row.mean_abs_rank_change:.2f}"
            )
        return "\n".join(lines)


def impact(multiverse: MultiverseResult) -> ImpactResult:
    """For each choice, compare the rankings of combinations that differ in that choice only (§4.2).

    Every pair of options of the choice is compared under every setting of the other choices, without
    forming the pairs: equal rankings are counted by grouping identical rows, and the sum of absolute
    rank changes over all pairs comes from each method's sorted ranks,
    Σ_{a<b} abs(x_a − x_b) = Σ_k (2k − n + 1) x_(k).

    A choice with one option has no pairs: its row counts 0 pairs. When every choice has one option there
    is one combination and nothing to compare.

    Returns
    -------
    ImpactResult

    Raises
    ------
    benchtrust.InputError
        When the multiverse has a single combination (every choice has one option), naming the spec.

    See Also
    --------
    ImpactResult : How much changing one choice alone changes the ranking.
    default_distances : How far one alternative option moves an ideal point.
    default_distance_summary : Count, quartiles and range of those distances.
    rankings : Rank the methods under every combination of the spec's options.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §4.2 (the impact
       of individual choices), Fig. 4-5 (combinations that differ in one choice only).
    """
    import pandas as pd

    if len(multiverse.ranks) < 2:
        raise InputError(
            f"{multiverse.spec.source} (choices): every choice has one option, so there is one combination "
            "and no pair of combinations to tell how much a choice changes the ranking; give a choice two "
            "options or more"
        )
    sizes = [len(multiverse.options[c]) for c in multiverse.choices]
    methods = len(multiverse.methods)
    ranks = np.asarray(multiverse.ranks).reshape(*sizes, methods)
    winners = ranks == ranks.min(axis=-1, keepdims=True)
    rows = []
    for axis, choice in enumerate(multiverse.choices):
        options = multiverse.options[choice]
        n = len(options)
        by_option = np.moveaxis(ranks, axis, 0).reshape(n, -1, methods)
        won = np.moveaxis(winners, axis, 0).reshape(n, -1, methods)
        settings = by_option.shape[1]
        pairs = n * (n - 1) // 2 * settings
        if pairs == 0:
            rows.append((choice, "*", "*", 0, 0.0, 0.0, 0.0))
        else:
            spread = (2 * np.arange(n) - n + 1) @ np.sort(by_option, axis=0).reshape(n, -1)
            rows.append(
                (
                    choice,
                    "*",
                    "*",
                    pairs,
                    1 - _equal_pairs(by_option) / pairs,
                    1 - _equal_pairs(won) / pairs,
                    float(spread.sum()) / (pairs * methods),
                )
            )
        default = options.index(multiverse.defaults[choice])
        for k, option in enumerate(options):
            if k != default:
                change = np.abs(by_option[k] - by_option[default])
                rows.append(
                    (
                        choice,
                        options[default],
                        option,
                        settings,
                        float((change > 0).any(axis=-1).mean()),
                        float((won[k] != won[default]).any(axis=-1).mean()),
                        float(change.mean()),
                    )
                )
    columns = [
        "choice",
        "from_option",
        "to_option",
        "pairs",
        "ranking_changed",
        "winner_changed",
        "mean_abs_rank_change",
    ]
    return ImpactResult(pd.DataFrame(rows, columns=columns))


def _equal_pairs(values: np.ndarray) -> int:
    """The number of pairs of options whose rows are equal, summed over settings; `values` is (options,
    settings, methods)."""
    n, settings, methods = values.shape
    keyed = np.concatenate(
        [np.broadcast_to(np.arange(settings)[None, :, None], (n, settings, 1)), values.astype(float)], axis=2
    )
    _, counts = np.unique(keyed.reshape(-1, methods + 1), axis=0, return_counts=True)
    return int((counts * (counts - 1) // 2).sum())
