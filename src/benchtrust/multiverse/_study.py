"""A whole multiverse study: the rankings, their analyses, the unfolding and its goodness of fit, and the
rankings on subsamples of the data sets, written to a folder."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from benchtrust._io import InputError, write_atomic
from benchtrust.multiverse import _text
from benchtrust.multiverse._analyses import (
    Impact,
    RankDistribution,
    Stepwise,
    impact,
    rank_distribution,
    stepwise,
)
from benchtrust.multiverse._fit import PermutationTest, congruence, default_distances, permutation_test
from benchtrust.multiverse._rankings import Multiverse, rankings
from benchtrust.multiverse._spec import read_spec
from benchtrust.multiverse._subsample import Subsample, subsample
from benchtrust.multiverse._unfolding import Unfolding, unfold

__all__ = ["Study", "bundled_study", "study"]


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class Study:
    """The rankings of a multiverse and everything the paper derives from them (§4).

    Attributes
    ----------
    multiverse : Multiverse
        The ranking of the methods under each combination (§3.1).
    distribution : RankDistribution
        Fig. 2.
    stepwise : Stepwise
        Fig. 3.
    impact : Impact
        §4.2 in numbers.
    unfolding : Unfolding or None
        Fig. 4: the combinations × methods rank matrix unfolded (None if the spec says ``unfolding: false``).
    distances : pandas.DataFrame or None
        Fig. 5: the distance between the ideal points of each combination with an alternative option and
        its partner with the default option (:func:`~benchtrust.multiverse.default_distances`).
    permutation : PermutationTest or None
        The goodness of fit of the unfolding (None unless permutations were asked for).
    subsample : Subsample or None
        Fig. 6 / Fig. S3: the rankings on the first data sets of orders of the data sets (None unless
        orders were given or asked for).
    subsample_unfolding : Unfolding or None
        The unfolding of ``subsample.ranks`` (None without a subsample or an unfolding).
    """

    multiverse: Multiverse
    distribution: RankDistribution
    stepwise: Stepwise
    impact: Impact
    unfolding: Unfolding | None
    distances: object = None
    permutation: PermutationTest | None = None
    subsample: Subsample | None = None
    subsample_unfolding: Unfolding | None = None

    def to_dict(self) -> dict[str, object]:
        out = self.multiverse.to_dict()
        out["stepwise"] = {"order": list(self.stepwise.order), "best": self.stepwise.best}
        out["impact"] = self.impact.to_dict()["impact"]
        if self.unfolding is not None:
            out["unfolding"] = _fit_summary(self.unfolding)
            out["default_distances"] = {
                choice: {"median": float(group.median()), "max": float(group.max())}
                for choice, group in self.distances.groupby("choice", sort=False)["distance"]
            }
        if self.permutation is not None:
            out["permutation_test"] = self.permutation.to_dict()
        if self.subsample is not None:
            out["subsample"] = self.subsample.to_dict()
            if self.subsample_unfolding is not None:
                out["subsample"]["unfolding"] = _fit_summary(self.subsample_unfolding)
        return out

    def __repr__(self) -> str:
        parts = [repr(self.multiverse), repr(self.distribution), repr(self.stepwise), repr(self.impact)]
        extra = (self.unfolding, self.permutation, self.subsample)
        parts += [repr(part) for part in extra if part is not None]
        return "\n".join(parts)

    def __str__(self) -> str:
        """The readable summary ``benchtrust multiverse`` prints, without the files written (paper §3-4)."""
        return _text.study_text(self)

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §4.1, Fig. 2): how many methods rank first under some
        combination, and how far a method's rank moves across them."""
        return _text.study_verdict(self)

    def unfolding_table(self):
        """One row per point of the unfolding: ``kind`` (combination or method), ``label``, the option of
        each choice (combinations only), the coordinates ``dim1``, ``dim2``, … and ``stress_share`` (%)."""
        import pandas as pd

        u = self.unfolding
        dims = [f"dim{k + 1}" for k in range(u.row_points.shape[1])]
        rows = self.multiverse.combinations.assign(
            kind="combination", label=[str(k + 1) for k in range(len(u.row_points))]
        )
        rows[dims] = u.row_points
        rows["stress_share"] = u.row_stress
        rows["congruence"] = congruence(u)
        methods = pd.DataFrame(u.column_points, columns=dims).assign(
            kind="method", label=list(self.multiverse.methods), stress_share=u.column_stress
        )
        table = pd.concat([rows, methods], ignore_index=True)
        return table[["kind", "label", *self.multiverse.choices, *dims, "stress_share", "congruence"]]

    def subsample_table(self):
        """One row per ranking of the subsample (``rep``, ``nrdatasets``, a rank per method) with its ideal
        point ``dim1``, ``dim2``, … when the rankings were unfolded, then one row per method (``rep`` and
        ``nrdatasets`` empty) with its point."""
        import pandas as pd

        table = self.subsample.table.copy()
        u = self.subsample_unfolding
        if u is None:
            return table
        dims = [f"dim{k + 1}" for k in range(u.row_points.shape[1])]
        table[dims] = u.row_points
        table.insert(0, "kind", "ranking")
        methods = pd.DataFrame(u.column_points, columns=dims).assign(
            kind="method", method=list(self.subsample.methods)
        )
        return pd.concat([table.assign(method=""), methods], ignore_index=True)

    def write(self, folder, *, plots: bool = True) -> list[Path]:
        """Write the tables (CSV) and the figures (PNG) into `folder`, each atomically; return the paths.

        ``rankings.csv`` has one row per combination × method: a column per choice, ``method``, ``value``
        and ``rank``. The folder is created if missing.
        """
        from benchtrust.multiverse._maps import plot_default_distances, plot_subsample, plot_unfolding
        from benchtrust.multiverse._plot import plot_rank_distribution, plot_stepwise

        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                f"{os.fspath(folder)}: cannot create the folder ({exc.strerror or exc})"
            ) from None
        tables = {
            "rankings.csv": self.multiverse.rankings_table(),
            "rank_distribution.csv": self.distribution.table,
            "stepwise.csv": self.stepwise.steps,
            "impact.csv": self.impact.table,
        }
        if self.unfolding is not None:
            tables["unfolding.csv"] = self.unfolding_table()
            tables["default_distances.csv"] = self.distances
        if self.permutation is not None:
            tables["permutation_test.csv"] = self.permutation.to_frame()
        if self.subsample is not None:
            tables["subsample.csv"] = self.subsample_table()
        written = []
        for name, table in tables.items():
            write_atomic(folder / name, table.to_csv(index=False, lineterminator="\n"))
            written.append(folder / name)
        if plots:
            mv = self.multiverse
            written.append(plot_rank_distribution(mv.ranks, mv.methods, folder / "rank_distribution.png"))
            written.append(plot_stepwise(self.stepwise.steps, mv.rank_range(), folder / "stepwise.png"))
            if self.unfolding is not None:
                written.append(
                    plot_unfolding(
                        self.unfolding.row_points,
                        self.unfolding.column_points,
                        mv.methods,
                        mv.combinations,
                        dict(mv.defaults),
                        folder / "unfolding.png",
                    )
                )
                written.append(plot_default_distances(self.distances, folder / "default_distances.png"))
            if self.subsample_unfolding is not None:
                u = self.subsample_unfolding
                written.append(
                    plot_subsample(
                        u.row_points,
                        u.column_points,
                        self.subsample.methods,
                        self.subsample.table["nrdatasets"],
                        folder / "subsample.png",
                    )
                )
        return written


def study(
    results,
    spec,
    *,
    characteristics=None,
    permutations=0,
    seed=0,
    orders=None,
    n_orders=None,
    subsample_measure=None,
    progress=None,
) -> Study:
    """Rank the methods under every combination and analyse the rankings (Nießl et al. 2022, §3–4).

    Parameters
    ----------
    results, spec, characteristics
        As for :func:`benchtrust.multiverse.rankings`. The spec's ``stepwise`` sets the order of Fig. 3,
        its ``unfolding`` the settings of :func:`benchtrust.multiverse.unfold` (``false``: no unfolding).
    permutations : int
        Refits of the unfolding on rank matrices permuted within rows for its permutation test
        (:func:`~benchtrust.multiverse.permutation_test`; the paper ran 500); 0, the default, skips it.
    seed : int
        Seeds the permutations and the random orders of the data sets.
    orders : str, os.PathLike, pandas.DataFrame or 2-D sequence of str, optional
        Orders of the data sets for the rankings on subsamples of Fig. 6
        (:func:`~benchtrust.multiverse.subsample`), such as :func:`~benchtrust.multiverse.bundled_orders`.
    n_orders : int, optional
        Instead of `orders`, this many random orders.
    subsample_measure : str, optional
        The measure of the subsample's rankings instead of the spec's default (``"cindex"``: Fig. S3).
    progress : callable, optional
        ``progress(done, total)`` is called as the permutation refits finish.

    Returns
    -------
    Study

    Examples
    --------
    The paper's study, from the bundled files:

    >>> from benchtrust.multiverse import bundled_study, study
    >>> result = study(**bundled_study())
    >>> result.multiverse
    Multiverse(288 combinations = 9 datasets × 2 measure × 4 imputation × 4 aggregation; 13 methods)
    >>> result.multiverse.rank_range()["Kaplan-Meier"]
    [3.0, 13.0]
    """
    spec = read_spec(spec)
    multiverse = rankings(results, spec, characteristics=characteristics)
    settings = dict(spec.unfolding)
    skip = settings.pop("skip", False)
    fitted = distances = tested = sampled = sample_fit = None
    if not skip:
        fitted = _unfold(multiverse.ranks, settings, spec.source)
        distances = default_distances(multiverse, fitted)
        if permutations:
            tested = permutation_test(
                multiverse.ranks,
                permutations=permutations,
                seed=seed,
                fitted=fitted,
                progress=None if progress is None else lambda done: progress(done, permutations),
                **{k: v for k, v in settings.items() if k in ("tolerance", "max_iterations")},
            )
    if orders is not None or n_orders is not None:
        sampled = subsample(
            results,
            spec,
            orders=orders,
            n_orders=n_orders,
            seed=seed,
            measure=subsample_measure,
            characteristics=characteristics,
        )
        if not skip:
            sample_fit = _unfold(sampled.ranks, settings, spec.source)
    return Study(
        multiverse,
        rank_distribution(multiverse),
        stepwise(multiverse),
        impact(multiverse),
        fitted,
        distances,
        tested,
        sampled,
        sample_fit,
    )


def _unfold(ranks, settings, source):
    try:
        return unfold(ranks, **settings)
    except InputError as exc:
        raise InputError(f"{source} (unfolding): {exc}") from None


def _fit_summary(fitted) -> dict[str, object]:
    return {
        "stress": fitted.stress,
        "penalized_stress": fitted.penalized_stress,
        "iterations": fitted.iterations,
        "converged": fitted.converged,
        "coincident_columns": fitted.coincident_columns(),
        "conditionality": fitted.conditionality,
        "dimensions": int(fitted.row_points.shape[1]),
    }


def bundled_study() -> dict[str, Path]:
    """The paths of the bundled Herrmann et al. (2021) results, their data-set characteristics and the spec
    of Nießl et al.'s 288 combinations, as keyword arguments of :func:`study`."""
    from importlib.resources import files

    data = Path(str(files("benchtrust") / "data"))
    return {
        "results": data / "herrmann2020_cv_results.csv",
        "spec": data / "herrmann-spec.yaml",
        "characteristics": data / "datasets_overview.csv",
    }
