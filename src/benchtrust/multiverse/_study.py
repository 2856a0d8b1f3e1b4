"""A whole multiverse study: the rankings, their analyses and the unfolding, written to a folder."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from benchtrust._io import InputError, write_atomic
from benchtrust.multiverse._analyses import (
    Impact,
    RankDistribution,
    Stepwise,
    impact,
    rank_distribution,
    stepwise,
)
from benchtrust.multiverse._rankings import Multiverse, rankings
from benchtrust.multiverse._spec import read_spec
from benchtrust.multiverse._unfolding import Unfolding, unfold

__all__ = ["Study", "bundled_study", "study"]


@dataclasses.dataclass(frozen=True, repr=False)
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
    """

    multiverse: Multiverse
    distribution: RankDistribution
    stepwise: Stepwise
    impact: Impact
    unfolding: Unfolding | None

    def to_dict(self) -> dict[str, object]:
        out = self.multiverse.to_dict()
        out["stepwise"] = {"order": list(self.stepwise.order), "best": self.stepwise.best}
        out["impact"] = self.impact.to_dict()["impact"]
        if self.unfolding is not None:
            u = self.unfolding
            out["unfolding"] = {
                "stress": u.stress,
                "penalized_stress": u.penalized_stress,
                "iterations": u.iterations,
                "converged": u.converged,
                "conditionality": u.conditionality,
                "dimensions": int(u.row_points.shape[1]),
            }
        return out

    def __repr__(self) -> str:
        parts = [repr(self.multiverse), repr(self.distribution), repr(self.stepwise), repr(self.impact)]
        if self.unfolding is not None:
            parts.append(repr(self.unfolding))
        return "\n".join(parts)

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
        methods = pd.DataFrame(u.column_points, columns=dims).assign(
            kind="method", label=list(self.multiverse.methods), stress_share=u.column_stress
        )
        table = pd.concat([rows, methods], ignore_index=True)
        return table[["kind", "label", *self.multiverse.choices, *dims, "stress_share"]]

    def write(self, folder, *, plots: bool = True) -> list[Path]:
        """Write the tables (CSV) and the figures (PNG) into `folder`, each atomically; return the paths.

        ``rankings.csv`` has one row per combination × method: a column per choice, ``method``, ``value``
        and ``rank``. The folder is created if missing.
        """
        from benchtrust.multiverse._plot import plot_rank_distribution, plot_stepwise, plot_unfolding

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
        return written


def study(results, spec, *, characteristics=None) -> Study:
    """Rank the methods under every combination and analyse the rankings (Nießl et al. 2022, §3–4).

    Parameters
    ----------
    results, spec, characteristics
        As for :func:`benchtrust.multiverse.rankings`. The spec's ``stepwise`` sets the order of Fig. 3,
        its ``unfolding`` the settings of :func:`benchtrust.multiverse.unfold` (``false``: no unfolding).

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
    fitted = None
    if not settings.pop("skip", False):
        try:
            fitted = unfold(multiverse.ranks, **settings)
        except InputError as exc:
            raise InputError(f"{spec.source} (unfolding): {exc}") from None
    return Study(multiverse, rank_distribution(multiverse), stepwise(multiverse), impact(multiverse), fitted)


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
