"""The HTML sections of the multiverse results (Nießl et al. 2022): each result's question, verdict, table
of numbers, figure, assumptions and paper section, as the report shows it and a notebook shows the result
(``_repr_html_``).

The words come from :mod:`benchtrust.multiverse._text` and the decisions from the results themselves, so a
section says what the readable output says. Figures are drawn by the ``plot_*`` functions and inlined as
SVG (:func:`benchtrust._html.svg_of`); matplotlib is imported only when one is drawn.
"""

from __future__ import annotations

import numpy as np

from benchtrust._html import Section, input_names, svg_of
from benchtrust._words import TIMES
from benchtrust.multiverse import _text
from benchtrust.multiverse._plot import plot_rank_distribution, plot_stepwise

__all__ = [
    "impact_section",
    "multiverse_section",
    "permutation_section",
    "rank_distribution_section",
    "rankings_section",
    "stepwise_section",
    "subsample_section",
    "unfolding_section",
]

#: The question of ``benchtrust multiverse``.
MULTIVERSE_QUESTION = "Would the ranking survive other reasonable design and analysis choices?"

_MULTIVERSE = "Nießl et al. 2022, over-optimism in benchmark studies and the multiplicity of options"
_ANALYSIS = "multiverse"


def _combinations(mv) -> tuple[tuple[str, str], ...]:
    """The assumptions every section of a multiverse states: its combinations and its defaults."""
    sizes = f" {TIMES} ".join(f"{len(mv.options[c])} {c}" for c in mv.choices)
    return (
        ("combinations", f"{len(mv.codes)} ({sizes})"),
        ("defaults", ", ".join(f"{c} = {mv.defaults[c]}" for c in mv.choices)),
    )


def _unfolding_settings(fitted) -> str:
    return (
        f"{fitted.conditionality}, {fitted.row_points.shape[1]} dimensions, penalty strength "
        f"{fitted.penalty_strength:g}, range {fitted.penalty_range:g}"
    )


def multiverse_section(result, *, what="", inputs=()) -> Section:
    """The section of a :class:`~benchtrust.multiverse.MultiverseStudy`, with the rank distribution (Fig. 2).

    Parameters
    ----------
    result : MultiverseStudy
    what : str
        The results studied, in words (a file name, or the bundled Herrmann et al. results), shown as the
        input when `inputs` is empty.
    inputs : sequence of str or os.PathLike
        The input files.
    """
    mv = result.multiverse
    assumptions = [*_combinations(mv), ("step-wise order", " → ".join(result.stepwise.order))]
    if result.unfolding is not None:
        u = result.unfolding
        assumptions.append(
            (
                "unfolding",
                f"{_unfolding_settings(u)}; stress {u.stress:.4f}"
                + ("" if u.converged else " (not converged)"),
            )
        )
    notes = [
        f"Changing {row.choice} alone changes the ranking in {row.ranking_changed:.0%} of pairs and the "
        f"winner in {row.winner_changed:.0%}."
        for row in result.impact.table[result.impact.table["from_option"] == "*"].itertuples()
    ]
    if result.distances is not None:
        notes.append(
            "Median distance between the ideal points of the default and an alternative option (Fig. 5): "
            + ", ".join(f"{row.choice} {row.median:.3f}" for row in result.distance_summary().itertuples())
            + "."
        )
    if result.permutation is not None:
        notes.append(f"Permutation test of the unfolding: {result.permutation.verdict}")
    if result.subsample is not None:
        notes.append(f"Subsamples of the data sets (Fig. 6): {result.subsample}")
    fits = (("unfolding", result.unfolding), ("subsample unfolding", result.subsample_unfolding))
    for name, fitted in fits:
        if fitted is not None and fitted.degenerate:
            notes.append(
                f"The {name} is degenerate: {fitted.coincident_columns()} of {len(fitted.column_points)} "
                "methods (nearly) coincide with another, so its map does not separate them."
            )
    return Section(
        title=MULTIVERSE_QUESTION,
        analysis=_ANALYSIS,
        verdict=result.verdict,
        notes=tuple(notes),
        columns=("method", "rank at the defaults", "best rank", "worst rank", "first in", "step-wise best"),
        rows=tuple(_text.method_rows(result)),
        figure_svg=svg_of(plot_rank_distribution(mv.ranks, mv.methods)),
        assumptions=tuple(assumptions),
        source=f"{_MULTIVERSE}, §3-4, Fig. 2-6",
        inputs=input_names(*inputs) or ((what,) if what else ()),
    )


def rankings_section(multiverse) -> Section:
    """The section of a :class:`~benchtrust.multiverse.Multiverse` (the rankings of every combination),
    with the rank distribution (Fig. 2)."""
    mv = multiverse
    return Section(
        title=MULTIVERSE_QUESTION,
        analysis=_ANALYSIS,
        verdict=mv.verdict,
        columns=("method", "rank at the defaults", "best rank", "worst rank", "first in"),
        rows=tuple(_text.rankings_rows(mv)),
        figure_svg=svg_of(plot_rank_distribution(mv.ranks, mv.methods)),
        assumptions=_combinations(mv),
        source=f"{_MULTIVERSE}, §3.1, §4.1, Fig. 2",
    )


def rank_distribution_section(distribution) -> Section:
    """The section of a :class:`~benchtrust.multiverse.RankDistribution`, with its Fig. 2."""
    d = distribution
    rows = tuple(
        (m, f"{best:g}", f"{worst:g}", _text.share(d.share_at_most(m, best)))
        for m, best, worst in zip(d.methods, d.best, d.worst, strict=True)
    )
    # Fig. 2 draws how often each method gets each rank: its ranks in ascending order hold the same counts.
    counted = np.column_stack(
        [
            np.repeat(group["rank"].to_numpy(), group["combinations"].to_numpy())
            for _, group in d.table.groupby("method", sort=False)
        ]
    )
    return Section(
        title="How far does each method's rank move over all combinations of options?",
        analysis=_ANALYSIS,
        verdict=d.verdict,
        columns=("method", "best rank", "worst rank", "share at its best rank"),
        rows=rows,
        figure_svg=svg_of(plot_rank_distribution(counted, d.methods)),
        assumptions=(("combinations", str(d.combinations)),),
        source=f"{_MULTIVERSE}, §4.1, Fig. 2",
    )


def stepwise_section(result) -> Section:
    """The section of a :class:`~benchtrust.multiverse.Stepwise` optimisation, with its Fig. 3."""
    default = result.default
    rows = []
    for method in sorted(default, key=default.__getitem__):
        steps = result.steps[(result.steps["method"] == method) & result.steps["changed"]]
        changes = "; ".join(f"{row.choice} = {row.option} → {row.rank:g}" for row in steps.itertuples())
        rows.append(
            (
                method,
                f"{default[method]:g}",
                f"{result.best[method]:g}",
                f"{result.rank_range[method][0]:g}",
                changes or "none",
            )
        )
    return Section(
        title="How good could a method look if its author optimised one choice at a time?",
        analysis=_ANALYSIS,
        verdict=result.verdict,
        columns=("method", "rank at the defaults", "step-wise rank", "best rank of all", "options changed"),
        rows=tuple(rows),
        figure_svg=svg_of(plot_stepwise(result.steps, result.rank_range)),
        assumptions=(("step-wise order", " → ".join(result.order)),),
        source=f"{_MULTIVERSE}, §4.1, Fig. 3",
    )


def impact_section(impact) -> Section:
    """The section of an :class:`~benchtrust.multiverse.Impact`: how much each choice alone changes the
    ranking, over every pair of its options and for each alternative against the default."""
    rows = tuple(
        (
            row.choice,
            "every pair" if row.from_option == "*" else f"{row.from_option} → {row.to_option}",
            str(row.pairs),
            f"{row.ranking_changed:.0%}",
            f"{row.winner_changed:.0%}",
            f"{row.mean_abs_rank_change:.2f}",
        )
        for row in impact.table.itertuples()
    )
    return Section(
        title="Which choice matters most?",
        analysis=_ANALYSIS,
        verdict=impact.verdict,
        columns=(
            "choice",
            "options compared",
            "pairs",
            "ranking changed",
            "winner changed",
            "mean change of a rank",
        ),
        rows=rows,
        source=f"{_MULTIVERSE}, §4.2, Fig. 5",
    )


def unfolding_section(fitted) -> Section:
    """The section of an :class:`~benchtrust.multiverse.Unfolding`: its fit, and the points of its columns
    (the methods, for a rank matrix of combinations x methods)."""
    frame = fitted.to_frame()
    columns = frame[frame["kind"] == "column"]
    dims = [name for name in frame.columns if name.startswith("dim")]
    rows = tuple(
        (str(label), *(f"{value:.4f}" for value in values), f"{stress:.1f}")
        for label, values, stress in zip(
            columns["label"], columns[dims].to_numpy(), columns["stress_share"], strict=True
        )
    )
    return Section(
        title="Which rows rank alike, and which columns are ranked alike? (unfolding)",
        analysis=_ANALYSIS,
        verdict=fitted.verdict,
        notes=(
            f"{len(fitted.row_points)} row points (ideal points) and {len(fitted.column_points)} column "
            "points; the table lists the column points.",
        ),
        columns=("column", *dims, "share of the stress (%)"),
        rows=rows,
        assumptions=(
            ("unfolding", _unfolding_settings(fitted)),
            ("penalized stress", f"{fitted.penalized_stress:.4f}"),
        ),
        source="Busing, Groenen & Heiser 2005 (penalised stress); " + f"{_MULTIVERSE}, §3.2, Fig. 4",
    )


def permutation_section(test) -> Section:
    """The section of a :class:`~benchtrust.multiverse.PermutationTest` of an unfolding's fit."""
    s = test.summary()
    rows = (
        ("observed stress (stress-1)", f"{test.stress:.4f}"),
        (
            "permuted stresses: min / 5th percentile / median / max",
            "{min:.4f} / {p5:.4f} / {median:.4f} / {max:.4f}".format(**s),
        ),
        ("refits at or below the observed stress", f"{test.at_or_below} of {test.permutations}"),
        ("p-value", test.p_value_text),
        ("refits not converged", str(test.not_converged)),
    )
    return Section(
        title="Does the unfolding reflect structure, or chance? (permutation test)",
        analysis=_ANALYSIS,
        verdict=f"{test.verdict}.",
        columns=("", "value"),
        rows=rows,
        assumptions=(
            ("seed", "a generator" if test.seed is None else str(test.seed)),
            ("unfolding", ", ".join(f"{k} = {v}" for k, v in test.options.items())),
        ),
        source=(
            "Nießl et al. 2022, supplement \N{LEFT DOUBLE QUOTATION MARK}Goodness-of-fit unfolding "
            "solutions\N{RIGHT DOUBLE QUOTATION MARK}; Mair, Borg & Rusch 2016"
        ),
    )


def subsample_section(result) -> Section:
    """The section of a :class:`~benchtrust.multiverse.Subsample`: the rankings on the first data sets of
    orders of them."""
    first = result.first_share
    rows = tuple(
        (
            result.methods[m],
            f"{result.full[m]:g}",
            f"{result.ranks[:, m].min():g}",
            f"{np.median(result.ranks[:, m]):g}",
            f"{result.ranks[:, m].max():g}",
            _text.share(first[result.methods[m]]),
        )
        for m in np.argsort(result.full, kind="stable")
    )
    return Section(
        title="How much does the ranking depend on which data sets happen to be in the benchmark?",
        analysis=_ANALYSIS,
        verdict=result.verdict,
        columns=("method", f"rank on all {len(result.datasets)}", "best", "median", "worst", "first in"),
        rows=rows,
        assumptions=(
            ("options", f"{result.measure}, {result.imputation}, {result.aggregation}"),
            ("orders", str(len(result.orders))),
        ),
        source=f"{_MULTIVERSE}, §4.3, Fig. 6 and Fig. S3",
    )
