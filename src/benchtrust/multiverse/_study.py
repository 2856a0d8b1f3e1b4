"""A whole multiverse study: the rankings, their analyses, the unfolding and its goodness of fit, and the
rankings on subsamples of the data sets, written to a folder."""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from benchtrust._figures import figures_bytes
from benchtrust._io import InputError, bundled_file
from benchtrust._result import Description, Result, plain_data
from benchtrust._write import check_folder, write_together
from benchtrust.multiverse import _text
from benchtrust.multiverse._analyses import (
    ImpactResult,
    RankDistributionResult,
    StepwiseResult,
    impact,
    rank_distribution,
    stepwise,
)
from benchtrust.multiverse._data import file_names
from benchtrust.multiverse._fit import (
    PermutationTestResult,
    congruence,
    default_distance_summary,
    default_distances,
    permutation_test,
)
from benchtrust.multiverse._maps import plot_default_distances, plot_subsample, plot_unfolding
from benchtrust.multiverse._plot import plot_rank_distribution, plot_stepwise
from benchtrust.multiverse._rankings import MultiverseResult, rankings
from benchtrust.multiverse._spec import Spec, read_spec
from benchtrust.multiverse._subsample import SubsampleResult, measure_option, subsample
from benchtrust.multiverse._unfolding import UnfoldingResult, unfold

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.axes import Axes

    from benchtrust._figures import FigureLike

__all__ = ["MultiverseStudyResult", "bundled_study", "study", "study_files"]


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class MultiverseStudyResult(Result):
    """The rankings of a multiverse and everything the paper derives from them (§4).

    Attributes
    ----------
    multiverse : MultiverseResult
        The ranking of the methods under each combination (§3.1).
    distribution : RankDistributionResult
        Fig. 2.
    stepwise : StepwiseResult
        Fig. 3.
    impact : ImpactResult
        §4.2 in numbers.
    unfolding : UnfoldingResult or None
        Fig. 4: the combinations × methods rank matrix unfolded (None if the spec says ``unfolding: false``).
    distances : pandas.DataFrame or None
        Fig. 5: the distance between the ideal points of each combination with an alternative option and
        its partner with the default option (:func:`~benchtrust.multiverse.default_distances`).
    permutation : PermutationTestResult or None
        The goodness of fit of the unfolding (None unless permutations were asked for).
    subsamples : tuple of SubsampleResult
        Fig. 6 and Fig. S3: the rankings on the first data sets of orders of the data sets, one result per
        measure ranked by (none unless orders were given or asked for).
    subsample_unfoldings : tuple of UnfoldingResult or None
        The unfolding of each subsample's ranks (None where the spec asks for no unfolding).
    what : str or None
        The results studied, in words, as the text names them (``multiverse of results.csv``) and the
        section shows them when there are no `inputs`; None: not named.
    written : tuple of pathlib.Path
        The files :meth:`write` wrote, which the text lists at its end (none by default).

    See Also
    --------
    study : Run the paper's analyses on one benchmark and spec.
    study_files : The names of the files a study writes.
    read_spec : Read and check a multiverse spec.
    Spec : A parsed multiverse spec.
    bundled_study : The bundled results, characteristics and spec of the paper.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3-4, Fig. 2-6;
       supplement, Fig. S3 and the goodness of fit of the unfolding.
    .. [2] F. M. T. A. Busing, P. J. F. Groenen and W. J. Heiser, "Avoiding degeneracy in multidimensional
       unfolding by penalizing on the coefficient of variation", Psychometrika 70(1), 71-98, 2005.
       doi:10.1007/s11336-001-0908-1. The unfolding.
    .. [3] P. Mair, I. Borg and T. Rusch, "Goodness-of-fit assessment in multidimensional scaling and
       unfolding", Multivariate Behavioral Research 51(6), 772-789, 2016. doi:10.1080/00273171.2016.1235966.
       The permutation test.
    """

    multiverse: MultiverseResult
    distribution: RankDistributionResult
    stepwise: StepwiseResult
    impact: ImpactResult
    unfolding: UnfoldingResult | None
    distances: pd.DataFrame | None = None
    permutation: PermutationTestResult | None = None
    subsamples: tuple[SubsampleResult, ...] = ()
    subsample_unfoldings: tuple[UnfoldingResult | None, ...] = ()
    what: str | None = dataclasses.field(default=None, kw_only=True)
    written: tuple[Path, ...] = dataclasses.field(default=(), kw_only=True)

    @property
    def subsample(self) -> SubsampleResult | None:
        """The first of :attr:`subsamples` (ranked by the spec's default measure unless another was asked
        for: Fig. 6), or None."""
        return self.subsamples[0] if self.subsamples else None

    @property
    def subsample_unfolding(self) -> UnfoldingResult | None:
        """The unfolding of :attr:`subsample`'s ranks, or None."""
        return self.subsample_unfoldings[0] if self.subsample_unfoldings else None

    def describe(self) -> Description:
        """What ``benchtrust multiverse`` prints (the text), the table of methods, a note per finding and the
        figures :meth:`write` saves (Fig. 2-6, Fig. S3) (the section), every part's numbers (the data,
        ``--json``) and the table of methods (the frame).

        The frame has one row per method, in the order of its rank with the default options: ``method``,
        ``rank_at_defaults``, ``best_rank`` and ``worst_rank`` over all combinations (Fig. 2),
        ``first_share`` (the share of combinations in which it ranks first, alone or tied:
        :attr:`MultiverseResult.first_share <benchtrust.multiverse.MultiverseResult.first_share>`) and
        ``stepwise_rank`` (its rank after the step-wise optimisation, Fig. 3).
        """
        return Description(
            question=_text.MULTIVERSE_QUESTION,
            verdict=self.verdict,
            text=_text.study_text(self),
            data=self._data(),
            columns=(
                "method",
                "rank at the defaults",
                "best rank",
                "worst rank",
                "first in",
                "step-wise best",
            ),
            rows=tuple(_text.method_rows(self)),
            frame=self._methods(),
            assumptions=self._assumptions(),
            source=f"{_text.SOURCE}, §3-4, Fig. 2-6",
            inputs=self.inputs or ((self.what,) if self.what else ()),
            analysis=_text.ANALYSIS,
            notes=self._notes(),
            figure=lambda: [draw() for draw in self._figures().values()],
        )

    def _methods(self) -> dict[str, object]:
        """The columns of the table of methods (:meth:`describe`'s frame)."""
        mv = self.multiverse
        default = mv.ranks[mv.index(mv.defaults)]
        order = np.argsort(default, kind="stable")
        methods = [mv.methods[m] for m in order]
        return {
            "method": methods,
            "rank_at_defaults": default[order],
            "best_rank": self.distribution.best[order],
            "worst_rank": self.distribution.worst[order],
            "first_share": [mv.first_share[m] for m in methods],
            "stepwise_rank": [self.stepwise.best[m] for m in methods],
        }

    def _assumptions(self) -> tuple[tuple[str, str], ...]:
        """The combinations, the defaults, the step-wise order and the unfolding's settings."""
        assumptions = [
            *_text.combination_assumptions(self.multiverse),
            ("step-wise order", " → ".join(self.stepwise.order)),
        ]
        if self.unfolding is not None:
            u = self.unfolding
            assumptions.append(
                (
                    "unfolding",
                    f"{_text.unfolding_settings(u)}; stress {u.stress:.4f}"
                    + ("" if u.converged else " (not converged)"),
                )
            )
        return tuple(assumptions)

    def _notes(self) -> tuple[str, ...]:
        """The section's sentences: the impact of each choice, the distances of Fig. 5, the permutation
        test, the subsamples and any degenerate unfolding."""
        impact_table = self.impact.table
        notes = [
            f"Changing {row.choice} alone changes the ranking in {row.ranking_changed:.0%} of pairs and the "
            f"winner in {row.winner_changed:.0%}."
            for row in impact_table[impact_table["from_option"] == "*"].itertuples()
        ]
        summary = self.distance_summary()
        if summary is not None:
            notes.append(
                "Median distance between the ideal points of the default and an alternative option (Fig. 5): "
                + ", ".join(f"{row.choice} {row.median:.3f}" for row in summary.itertuples())
                + "."
            )
        if self.permutation is not None:
            notes.append(f"Permutation test of the unfolding: {self.permutation.verdict}")
        for sampled in self.subsamples:
            notes.append(
                f"Subsamples of the data sets ({_text.subsample_figure(sampled, self.multiverse)}): {sampled}"
            )
        fits = [("unfolding", self.unfolding)]
        fits += [(f"unfolding of the subsamples by {s.measure}", u) for s, u in self.subsample_fits()]
        for name, fitted in fits:
            if fitted is not None and fitted.degenerate:
                notes.append(
                    f"The {name} is degenerate: {fitted.coincident_columns()} of {len(fitted.column_points)} "
                    "methods (nearly) coincide with another, so its map does not separate them."
                )
        return tuple(notes)

    def distance_summary(self) -> pd.DataFrame | None:
        """Per choice, the count, quartiles, range and mean of the distances of Fig. 5 (``distances``;
        :func:`~benchtrust.multiverse.default_distance_summary`), or None without an unfolding."""
        return None if self.distances is None else default_distance_summary(self.distances)

    def _data(self) -> dict[str, object]:
        """The rankings (:meth:`MultiverseResult.to_dict <benchtrust.multiverse.MultiverseResult.to_dict>`),
        the step-wise order and ranks, the impact of each choice, the unfolding's fit and the median and
        largest distance of Fig. 5 per choice, the permutation test and the subsample."""
        out = plain_data(self.multiverse)
        out["stepwise"] = {"order": list(self.stepwise.order), "best": self.stepwise.best}
        out["impact"] = self.impact.to_dict()["impact"]
        if self.unfolding is not None:
            out["unfolding"] = _fit_summary(self.unfolding)
            summary = self.distance_summary()
            if summary is not None:  # a study has distances whenever it has an unfolding
                out["default_distances"] = {
                    row.choice: {"median": float(row.median), "max": float(row.max)}
                    for row in summary.itertuples()
                }
        if self.permutation is not None:
            out["permutation_test"] = plain_data(self.permutation)
        for name, (sampled, fitted) in zip(self._subsample_names(), self.subsample_fits(), strict=True):
            out[name] = plain_data(sampled)
            if fitted is not None:
                out[name]["unfolding"] = _fit_summary(fitted)
        return out

    def subsample_fits(self) -> list[tuple[SubsampleResult, UnfoldingResult | None]]:
        """Each of :attr:`subsamples` with its unfolding (None where there is none)."""
        fits = self.subsample_unfoldings or (None,) * len(self.subsamples)
        return list(zip(self.subsamples, fits, strict=True))

    def _subsample_names(self) -> list[str]:
        """The name of each subsample's files and key: ``subsample``, then ``subsample_<measure>``."""
        return subsample_names([sampled.measure for sampled in self.subsamples])

    def __repr__(self) -> str:
        parts = [repr(self.multiverse), repr(self.distribution), repr(self.stepwise), repr(self.impact)]
        extra = (self.unfolding, self.permutation, *self.subsamples)
        parts += [repr(part) for part in extra if part is not None]
        return "\n".join(parts)

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §4.1, Fig. 2): how many methods rank first under some
        combination, and how far a method's rank moves across them (the rankings' verdict)."""
        return self.multiverse.verdict

    def unfolding_table(self) -> pd.DataFrame:
        """One row per point of the unfolding: ``kind`` (combination or method), ``label``, the option of
        each choice (combinations only), the coordinates ``dim1``, ``dim2``, … and ``stress_share`` (%)."""
        import pandas as pd

        u = self.unfolding
        if u is None:
            raise ValueError("the study has no unfolding: its spec says unfolding: false")
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

    def subsample_table(self, which: int = 0) -> pd.DataFrame:
        """One row per ranking of the subsample (``rep``, ``nrdatasets``, a rank per method) with its ideal
        point ``dim1``, ``dim2``, … when the rankings were unfolded, then one row per method (``rep`` and
        ``nrdatasets`` empty) with its point; `which` is the position of the subsample in
        :attr:`subsamples` (the first by default)."""
        import pandas as pd

        sampled, u = self.subsample_fits()[which]
        table = sampled.table.copy()
        if u is None:
            return table
        dims = [f"dim{k + 1}" for k in range(u.row_points.shape[1])]
        table[dims] = u.row_points
        table.insert(0, "kind", "ranking")
        methods = pd.DataFrame(u.column_points, columns=dims).assign(
            kind="method", method=list(sampled.methods)
        )
        return pd.concat([table.assign(method=""), methods], ignore_index=True)

    def write(self, folder: str | os.PathLike[str], *, plots: bool = True, force: bool = False) -> list[Path]:
        """Write the tables (CSV) and the figures (PNG) into `folder`, each atomically; return the paths.

        ``rankings.csv`` has one row per combination × method: a column per choice, ``method``, ``value``
        and ``rank``. The figures are those of the ``plot_*`` functions, as :func:`benchtrust.save_figure`
        saves them; :func:`study_files` names them all. The folder is created if missing. Every file is
        checked before any is written (:func:`benchtrust._write.check_folder`): one that exists already is
        replaced only with `force`, one that cannot be written (a file the command reads, a folder, a
        read-only file) never; then all are written, or none (:func:`benchtrust._write.write_together`).
        """
        names = _file_names(
            unfolding=self.unfolding is not None,
            permutation=self.permutation is not None,
            subsamples=self._subsample_names(),
            plots=plots,
        )
        check_folder(folder, names, force=force)
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(
                f"{os.fspath(folder)}: cannot create the folder ({exc.strerror or exc})"
            ) from None
        tables, figures = self._tables(), self._figures()
        drawn = [name for name in names if name in figures]  # rendered side by side, the slowest first
        images = dict(zip(drawn, figures_bytes([figures[name] for name in drawn], "png"), strict=True))
        write_together(  # all of them or, stopped midway, none
            {
                folder / name: images[name]
                if name in images
                else tables[name]().to_csv(index=False, lineterminator="\n")
                for name in names
            }
        )
        return [folder / name for name in names]

    def _tables(self) -> dict[str, Callable[[], pd.DataFrame]]:
        """The tables :meth:`write` may save: file name → a function that returns the table."""
        return {
            "rankings.csv": self.multiverse.rankings_table,
            "rank_distribution.csv": lambda: self.distribution.table,
            "stepwise.csv": lambda: self.stepwise.steps,
            "impact.csv": lambda: self.impact.table,
            "unfolding.csv": self.unfolding_table,
            "default_distances.csv": lambda: self.distances,
            **({} if self.permutation is None else {"permutation_test.csv": self.permutation.to_frame}),
            **{
                f"{name}.csv": functools.partial(self.subsample_table, k)
                for k, name in enumerate(self._subsample_names())
            },
        }

    def _figures(self) -> dict[str, Callable[[], FigureLike]]:
        """The figures :meth:`write` may save: file name → a function that draws it and returns its Axes,
        for the parts the study has."""
        mv, u = self.multiverse, self.unfolding
        figures: dict[str, Callable[[], FigureLike]] = {
            "rank_distribution.png": lambda: plot_rank_distribution(mv.ranks, mv.methods),
            "stepwise.png": lambda: plot_stepwise(self.stepwise.steps, self.stepwise.rank_range),
        }
        if u is not None:
            figures["unfolding.png"] = lambda: plot_unfolding(
                u.row_points, u.column_points, mv.methods, mv.combinations, dict(mv.defaults)
            )
            figures["default_distances.png"] = lambda: plot_default_distances(self.distances)
        for name, (sampled, fitted) in zip(self._subsample_names(), self.subsample_fits(), strict=True):
            if fitted is not None:
                figures[f"{name}.png"] = functools.partial(
                    _plot_sampled, sampled, fitted, _text.subsample_figure(sampled, self.multiverse)
                )
        return figures


def study_files(
    spec: str | os.PathLike[str] | Mapping[str, Any] | Spec,
    *,
    permutations: int = 0,
    subsample: bool = False,
    subsample_measure: str | Sequence[str] | None = None,
    plots: bool = True,
) -> list[str]:
    """The names of the files :meth:`MultiverseStudyResult.write` writes for a :func:`study` with these
    arguments, tables first: to check an output folder before the study runs.

    Parameters
    ----------
    spec : str, os.PathLike, mapping or Spec
        The study's spec (:func:`~benchtrust.multiverse.read_spec`); its ``unfolding: false`` leaves out
        the unfolding's files.
    permutations : int
        The study's `permutations` (more than 0 adds ``permutation_test.csv``).
    subsample : bool
        Whether the study ranks subsamples (it is given `orders` or `n_orders`).
    subsample_measure : str or sequence of str, optional
        The study's `subsample_measure`: a subsample per measure, each with its own files.
    plots : bool
        Whether the figures are written (as :meth:`MultiverseStudyResult.write` takes it).

    See Also
    --------
    study : Run the paper's analyses on one benchmark and spec.
    MultiverseStudyResult : The rankings and everything derived from them.
    MultiverseStudyResult.write : Write a study's tables and figures to a folder.
    read_spec : Read and check a multiverse spec.
    Spec : A parsed multiverse spec.
    bundled_study : The bundled results, characteristics and spec of the paper.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3-4, Fig. 2-6
       (the tables and figures written).

    Examples
    --------
    >>> from benchtrust.multiverse import bundled_study, study_files
    >>> names = study_files(bundled_study()["spec"], permutations=500, plots=False)
    >>> names[4:]
    ['unfolding.csv', 'default_distances.csv', 'permutation_test.csv']
    """
    spec = spec if isinstance(spec, Spec) else read_spec(spec)
    wanted = _subsample_measures(spec, subsample_measure) if subsample else []
    measures = [measure_option(spec, m) for m in wanted]  # named as the results name them
    return _file_names(
        unfolding=not spec.unfolding.get("skip", False),
        permutation=permutations > 0,
        subsamples=subsample_names(measures),
        plots=plots,
    )


def subsample_names(measures: Sequence[str]) -> list[str]:
    """The name of the files and the JSON key of the subsample by each of `measures` (a study's, in its
    order): ``subsample`` for the first, ``subsample_<measure>`` for each other (characters other than
    letters, digits, ``-``, ``_`` and ``.`` made ``_``).

    >>> subsample_names(["ibrier", "cindex"])
    ['subsample', 'subsample_cindex']
    """
    import re

    return [
        "subsample" if k == 0 else "subsample_" + re.sub(r"[^\w.-]", "_", m) for k, m in enumerate(measures)
    ]


def _file_names(*, unfolding: bool, permutation: bool, subsamples: list[str], plots: bool) -> list[str]:
    """The files a study writes, tables then figures, given the parts it has (`subsamples`: their names)."""
    tables = ["rankings.csv", "rank_distribution.csv", "stepwise.csv", "impact.csv"]
    figures = ["rank_distribution.png", "stepwise.png"]
    if unfolding:
        tables += ["unfolding.csv", "default_distances.csv"]
        figures += ["unfolding.png", "default_distances.png"]
        tables += ["permutation_test.csv"] * permutation
        figures += [f"{name}.png" for name in subsamples]
    tables += [f"{name}.csv" for name in subsamples]
    return tables + figures * plots


def _subsample_measures(spec: Spec, subsample_measure: str | Sequence[str] | None) -> Sequence[str | None]:
    """The measures a study ranks its subsamples by: `subsample_measure` (one, or several separated by
    commas or in a sequence; ``"all"``: every option of the spec's measure choice, the default first), by
    default (None) the spec's default measure."""
    if subsample_measure is None:
        return [None]
    if subsample_measure == "all":
        choice = spec.choice("measure")
        if choice is None:
            return [m.name for m in spec.measures]
        return [choice.default, *(name for name in choice.names if name != choice.default)]
    if isinstance(subsample_measure, str):
        subsample_measure = subsample_measure.split(",")
    measures = [str(m).strip() for m in subsample_measure]
    if not measures or "" in measures or len(set(measures)) < len(measures):
        raise InputError(
            f"subsample_measure: expected measures named once each (such as 'ibrier,cindex'), got "
            f"{subsample_measure!r}"
        )
    return measures


def study(
    results: str | os.PathLike[str] | pd.DataFrame,
    spec: str | os.PathLike[str] | Mapping[str, Any] | Spec,
    *,
    characteristics: str | os.PathLike[str] | pd.DataFrame | None = None,
    characteristics_dataset_column: str | None = None,
    permutations: int = 0,
    seed: int = 0,
    orders: str | os.PathLike[str] | pd.DataFrame | Sequence[Sequence[str]] | None = None,
    orders_label_column: str | None = None,
    n_orders: int | None = None,
    subsample_measure: str | Sequence[str] | None = None,
    n_jobs: int | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> MultiverseStudyResult:
    """Rank the methods under every combination and analyse the rankings (Nießl et al. 2022, §3–4).

    Parameters
    ----------
    results, spec, characteristics, characteristics_dataset_column
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
    orders_label_column : str, optional
        The column of `orders` that labels them (default: ``rep``, if there is one).
    n_orders : int, optional
        Instead of `orders`, this many random orders.
    subsample_measure : str or sequence of str, optional
        The measure of the subsample's rankings instead of the spec's default (``"cindex"``: Fig. S3), or
        several (a sequence, or names separated by commas: ``"ibrier,cindex"`` gives Fig. 6 and Fig. S3),
        each with its subsample and unfolding, in this order; ``"all"``: every option of the spec's measure
        choice, the default first.
    n_jobs : int, optional
        Workers, as in :class:`joblib.Parallel` (None or -1: one per CPU; 1: all in this process), for the
        rankings of a large multiverse (:func:`~benchtrust.multiverse.rankings`) and the permutation
        refits; within ``joblib.parallel_config(backend="dask", client=client)``, the workers of a
        dask.distributed cluster. The result does not depend on it: each combination is ranked on its own,
        and each refit has its own seed.
    progress : callable, optional
        ``progress(done, total)`` is called as the combinations are ranked, then as the permutation refits
        finish (each with 0 done first).

    Returns
    -------
    MultiverseStudyResult
        Its ``inputs`` are `results`, `spec`, `characteristics` and `orders` where they name files.

    See Also
    --------
    MultiverseStudyResult : The rankings and everything derived from them.
    study_files : The names of the files a study writes.
    bundled_study : The bundled results, characteristics and spec of the paper.
    read_spec : Read and check a multiverse spec.
    Spec : A parsed multiverse spec.
    rankings : Rank the methods under every combination of the spec's options.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3-4, Fig. 2-6;
       supplement, Fig. S3 and the goodness of fit of the unfolding.
    .. [2] F. M. T. A. Busing, P. J. F. Groenen and W. J. Heiser, "Avoiding degeneracy in multidimensional
       unfolding by penalizing on the coefficient of variation", Psychometrika 70(1), 71-98, 2005.
       doi:10.1007/s11336-001-0908-1. The unfolding.
    .. [3] P. Mair, I. Borg and T. Rusch, "Goodness-of-fit assessment in multidimensional scaling and
       unfolding", Multivariate Behavioral Research 51(6), 772-789, 2016. doi:10.1080/00273171.2016.1235966.
       The permutation test.

    Examples
    --------
    The paper's study, from the bundled files:

    >>> from benchtrust.multiverse import bundled_study, study
    >>> result = study(**bundled_study())
    >>> result.multiverse
    MultiverseResult(288 combinations = 9 datasets × 2 measure × 4 imputation × 4 aggregation; 13 methods)
    >>> result.multiverse.rank_range()["Kaplan-Meier"]
    [3.0, 13.0]
    """
    inputs = file_names(results, spec, characteristics, orders)
    spec = spec if isinstance(spec, Spec) else read_spec(spec)
    settings: dict[str, Any] = dict(spec.unfolding)  # unfold's options as the spec gives them
    skip = settings.pop("skip", False)
    multiverse = rankings(
        results,
        spec,
        characteristics=characteristics,
        characteristics_dataset_column=characteristics_dataset_column,
        n_jobs=n_jobs,
        progress=progress,
    )
    if progress is not None and permutations and not skip:
        progress(0, permutations)  # the count of refits shows while the study comes to them
    effects = impact(multiverse)  # first: it says why a single combination cannot be studied
    fitted = distances = tested = None
    sampled, sample_fits = [], []
    if not skip:
        fitted = _unfold(multiverse.ranks, settings, spec.source)
        distances = default_distances(multiverse, fitted)
        if permutations:
            tested = permutation_test(
                multiverse.ranks,
                permutations=permutations,
                seed=seed,
                fitted=fitted,
                n_jobs=n_jobs,
                progress=None if progress is None else lambda done: progress(done, permutations),
                **{k: v for k, v in settings.items() if k in ("tolerance", "max_iterations")},
            )
    if orders is not None or n_orders is not None:
        for measure in _subsample_measures(spec, subsample_measure):
            sampled.append(
                subsample(
                    results,
                    spec,
                    orders=orders,
                    n_orders=n_orders,
                    seed=seed,
                    measure=measure,
                    characteristics=characteristics,
                    characteristics_dataset_column=characteristics_dataset_column,
                    orders_label_column=orders_label_column,
                )
            )
            if not skip:
                sample_fits.append(_unfold(sampled[-1].ranks, settings, spec.source))
    return MultiverseStudyResult(
        multiverse,
        rank_distribution(multiverse),
        stepwise(multiverse),
        effects,
        fitted,
        distances,
        tested,
        tuple(sampled),
        tuple(sample_fits),
        inputs=inputs,
    )


def _plot_sampled(sampled: SubsampleResult, fitted: UnfoldingResult, figure: str) -> Axes:
    """The map of a subsample's unfolding, its rankings coloured by their number of data sets, titled as
    the paper's `figure` (Fig. 6 or Fig. S3)."""
    return plot_subsample(
        fitted.row_points,
        fitted.column_points,
        sampled.methods,
        sampled.table["nrdatasets"],
        title=(
            f"Unfolding of {len(fitted.row_points)} rankings by {sampled.measure} on subsamples of the data "
            f"sets (circles)\nregarding {len(sampled.methods)} methods (triangles) "
            f"(Nie\N{LATIN SMALL LETTER SHARP S}l et al., {figure})"
        ),
    )


def _unfold(ranks: np.ndarray, settings: Mapping[str, Any], source: str) -> UnfoldingResult:
    try:
        return unfold(ranks, **settings)
    except InputError as exc:
        raise InputError(f"{source} (unfolding): {exc}") from None


def _fit_summary(fitted: UnfoldingResult) -> dict[str, object]:
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
    of Nießl et al.'s 288 combinations, as keyword arguments of :func:`study`.

    See Also
    --------
    study : Run the paper's analyses on one benchmark and spec.
    MultiverseStudyResult : The rankings and everything derived from them.
    bundled_orders : The paper's 50 orders of the 18 data sets.
    read_spec : Read and check a multiverse spec.

    References
    ----------
    .. [1] C. Nießl, M. Herrmann, C. Wiedemann, G. Casalicchio and A.-L. Boulesteix, "Over-optimism in
       benchmark studies and the multiplicity of design and analysis options when interpreting their results",
       WIREs Data Mining and Knowledge Discovery 12(2), e1441, 2022. doi:10.1002/widm.1441. §3.1 (the
       9 × 2 × 4 × 4 = 288 combinations), Fig. 1.
    .. [2] M. Herrmann, P. Probst, R. Hornung, V. Jurinovic and A.-L. Boulesteix, "Large-scale benchmark study
       of survival prediction methods using multi-omics data", Briefings in Bioinformatics 22(3), bbaa167,
       2021. doi:10.1093/bib/bbaa167. The bundled results: 13 methods on 18 data sets.
    """
    return {
        "results": bundled_file("herrmann2020_cv_results.csv"),
        "spec": bundled_file("herrmann-spec.yaml"),
        "characteristics": bundled_file("datasets_overview.csv"),
    }
