"""The words about a multiverse of design and analysis choices (Nießl et al. 2022): the readable summary of
a :class:`~benchtrust.multiverse.MultiverseStudyResult`, the verdict of each result in plain words and the
rows of its tables, from which each result's ``describe()`` makes what ``benchtrust multiverse``, the HTML
report, a notebook and ``str(result)`` show.

Each function words a decision its result makes (such as :attr:`MultiverseResult.first_share
<benchtrust.multiverse.MultiverseResult.first_share>`); none computes one.
"""

from __future__ import annotations

from benchtrust._words import TIMES, aligned, paragraph

__all__ = [
    "ANALYSIS",
    "MULTIVERSE_QUESTION",
    "SOURCE",
    "choice_sizes",
    "combination_assumptions",
    "fit_lines",
    "impact_verdict",
    "method_rows",
    "rank_distribution_verdict",
    "rankings_rows",
    "rankings_text",
    "rankings_verdict",
    "share",
    "stepwise_verdict",
    "study_text",
    "subsample_verdict",
    "unfolding_settings",
    "unfolding_verdict",
    "with_verdict",
]

_PAPER = "Nießl et al. 2022"

#: The question of ``benchtrust multiverse``, the title of the sections of a study and of its rankings.
MULTIVERSE_QUESTION = "Would the ranking survive other reasonable design and analysis choices?"

#: The paper every section of a multiverse result follows (its section and figures added).
SOURCE = "Nießl et al. 2022, over-optimism in benchmark studies and the multiplicity of options"

#: The command that makes the multiverse results, as their sections name it.
ANALYSIS = "multiverse"


def share(fraction: float) -> str:
    """A share in whole percent, ``"<1%"`` for a small one that is not zero.

    Examples
    --------
    >>> share(0.25), share(0.001), share(0.0)
    ('25%', '<1%', '0%')
    """
    return "<1%" if 0 < fraction < 0.005 else f"{fraction:.0%}"


def study_text(result) -> str:
    """The readable summary of a multiverse study (paper §3-4), as ``benchtrust multiverse`` prints it:
    the results studied (its ``what``, when given), each method's rank at the defaults, its best and worst
    rank (Fig. 2), the share of combinations it wins, its step-wise best rank (Fig. 3), the impact of each
    choice (§4.2), the unfolding's fit (Fig. 4-5), the subsamples (Fig. 6), the verdict and the files
    written (its ``written``, when any).

    Parameters
    ----------
    result : MultiverseStudyResult

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    studied = "multiverse" if result.what is None else f"multiverse of {result.what}"
    lines = [_head(result.multiverse, f"{studied} ({_PAPER}, §3-4)"), ""]
    lines += aligned([("method", "default", "best", "worst", "first in", "step-wise"), *method_rows(result)])
    lines += ["", f"  step-wise order: {' → '.join(result.stepwise.order)}", ""]
    lines.append("  changing one choice only:")
    for row in result.impact.table[result.impact.table["from_option"] == "*"].itertuples():
        lines.append(
            f"    {row.choice}: the ranking changes in {row.ranking_changed:.0%} of pairs, the winner in "
            f"{row.winner_changed:.0%}, a method moves {row.mean_abs_rank_change:.2f} ranks on average"
        )
    if result.unfolding is not None:
        lines += ["", *fit_lines(result.unfolding)]
        if result.permutation is not None:
            lines.append(f"    permutation test: {result.permutation.verdict}")
        lines.append("  distance between the ideal points of the default and an alternative option (Fig. 5):")
        for row in result.distance_summary().itertuples():
            lines.append(f"    {row.choice}: median {row.median:.3f}, largest {row.max:.3f}")
    for sampled, fitted in result.subsample_fits():
        figure = subsample_figure(sampled, result.multiverse)
        lines += ["", paragraph(f"subsamples of the data sets ({figure}): {sampled}")]
        if fitted is not None:
            lines += fit_lines(fitted)
    lines += ["", paragraph(result.verdict)]
    if result.written:
        written = result.written
        lines += [
            "",
            f"  wrote {len(written)} files to {written[0].parent}: " + ", ".join(p.name for p in written),
        ]
    return "\n".join(lines)


def subsample_figure(sampled, multiverse) -> str:
    """The paper's figure of rankings on subsamples: Fig. 6 by the default measure of `multiverse`, Fig. S3
    by another.

    Parameters
    ----------
    sampled : SubsampleResult
    multiverse : MultiverseResult

    Returns
    -------
    str
    """
    return "Fig. 6" if sampled.measure == multiverse.defaults.get("measure") else "Fig. S3"


def fit_lines(fitted) -> list[str]:
    """An unfolding's settings and fit (paper §3.2, Fig. 4), with a warning when its column points coincide.

    Parameters
    ----------
    fitted : UnfoldingResult

    Returns
    -------
    list of str
        Lines indented by two spaces (four for the warning).
    """
    lines = [
        f"  unfolding ({fitted.conditionality}, {fitted.row_points.shape[1]} dimensions): stress "
        f"{fitted.stress:.4f}, penalized stress {fitted.penalized_stress:.4f}, {fitted.iterations} iterations"
        + ("" if fitted.converged else " (not converged)")
    ]
    if fitted.degenerate:
        lines.append(
            f"    degenerate: {fitted.coincident_columns()} of {len(fitted.column_points)} methods (nearly) "
            "coincide with another"
        )
    return lines


def _head(mv, label) -> str:
    """The first paragraph about a multiverse: `label`, its combinations, methods and defaults."""
    return paragraph(
        f"{label}: {len(mv.codes)} combinations ({choice_sizes(mv)}) of {len(mv.methods)} methods; "
        f"defaults: {_defaults(mv)}"
    )


def choice_sizes(mv) -> str:
    """How many options each choice of a multiverse has, as a product: ``9 datasets × 2 measure``."""
    return f" {TIMES} ".join(f"{len(mv.options[c])} {c}" for c in mv.choices)


def _defaults(mv) -> str:
    return ", ".join(f"{c} = {mv.defaults[c]}" for c in mv.choices)


def combination_assumptions(mv) -> tuple[tuple[str, str], ...]:
    """The assumptions every section of a multiverse states: its combinations and its defaults."""
    return (("combinations", f"{len(mv.codes)} ({choice_sizes(mv)})"), ("defaults", _defaults(mv)))


def unfolding_settings(fitted) -> str:
    """An unfolding's conditionality, dimensions, transformation and ties (each when not the default
    ordinal and primary; ties only for an ordinal transformation, the one they change) and penalty, as its
    sections state them."""
    options = [fitted.conditionality, f"{fitted.row_points.shape[1]} dimensions"]
    if fitted.transformation != "ordinal":
        options.append(f"{fitted.transformation} transformation")
    elif fitted.ties != "primary":
        options.append(f"{fitted.ties} ties")
    options.append(f"penalty strength {fitted.penalty_strength:g}, range {fitted.penalty_range:g}")
    return ", ".join(options)


def rankings_text(multiverse) -> str:
    """The readable summary of the rankings of a multiverse (paper §3.1, §4.1): the combinations, each
    method's rank at the defaults, best and worst rank and "first in" share, and the verdict."""
    lines = [_head(multiverse, f"rankings ({_PAPER}, §3.1)"), ""]
    lines += aligned([("method", "default", "best", "worst", "first in"), *rankings_rows(multiverse)])
    return "\n".join([*lines, "", paragraph(multiverse.verdict)])


def rankings_rows(multiverse) -> list[tuple[str, ...]]:
    """The rows of the table of methods of a multiverse, as text, in the order of the rank at the defaults:
    method, rank at the defaults, best and worst rank, "first in" share
    (:attr:`~benchtrust.multiverse.MultiverseResult.first_share`)."""
    import numpy as np

    default = multiverse.ranks[multiverse.index(multiverse.defaults)]
    ranges, shares = multiverse.rank_range(), multiverse.first_share
    rows: list[tuple[str, ...]] = []
    for m in np.argsort(default, kind="stable"):
        name = multiverse.methods[m]
        best, worst = ranges[name]
        rows.append((name, f"{default[m]:g}", f"{best:g}", f"{worst:g}", share(shares[name])))
    return rows


def with_verdict(result) -> str:
    """The readable text of a result whose ``repr`` lists its numbers: the verdict, then the numbers."""
    return f"{paragraph(result.verdict)}\n{result!r}"


def method_rows(result) -> list[tuple[str, ...]]:
    """The rows of the table of methods of a study, as text: those of :func:`rankings_rows`, each with the
    method's step-wise rank (Fig. 3) added."""
    return [(*row, f"{result.stepwise.best[row[0]]:g}") for row in rankings_rows(result.multiverse)]


def rankings_verdict(multiverse) -> str:
    """The verdict on a multiverse of choices in plain words (paper §4.1, Fig. 2): how many methods rank
    first under some combination (:attr:`~benchtrust.multiverse.MultiverseResult.first_share`), and how far
    a method's rank moves across them.

    Parameters
    ----------
    multiverse : MultiverseResult

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    winners = sum(1 for value in multiverse.first_share.values() if value > 0)
    spread = max(worst - best for best, worst in multiverse.rank_range().values())
    return (
        f"{winners} of {len(multiverse.methods)} methods rank first under some combination, and a method's "
        f"rank moves by up to {spread:g} places across them: a ranking from one set of choices says little "
        "unless the choices were fixed before the results were seen."
    )


def rank_distribution_verdict(distribution) -> str:
    """How far a method's rank moves over the combinations, and whose moves the most (paper §4.1, Fig. 2)."""
    spreads = distribution.worst - distribution.best
    widest = int(spreads.argmax())
    return (
        f"Over {distribution.combinations} combinations of options, a method's rank moves by up to "
        f"{spreads[widest]:g} places ({distribution.methods[widest]}: best {distribution.best[widest]:g}, "
        f"worst {distribution.worst[widest]:g})."
    )


def stepwise_verdict(result) -> str:
    """How many methods a researcher could move up by optimising one choice at a time, and how many of them
    reach their best rank over all combinations (paper §4.1, Fig. 3)."""
    return (
        f"Optimising one choice at a time ({' → '.join(result.order)}), {len(result.improved)} of "
        f"{len(result.best)} methods improve on their rank at the defaults, and {len(result.reached_best)} "
        "reach the best rank any combination gives them."
    )


def impact_verdict(impact) -> str:
    """The choice that, changed alone, moves the ranks the most, and how often it changes the winner (paper
    §4.2)."""
    if impact.strongest is None:
        return "Changing one choice alone never changes a method's rank."
    table = impact.table
    row = table[(table["from_option"] == "*") & (table["choice"] == impact.strongest)].iloc[0]
    return (
        f"Changing {impact.strongest} alone moves a method's rank the most: by "
        f"{row['mean_abs_rank_change']:.2f} places on average, and it changes the winner in "
        f"{row['winner_changed']:.0%} of the pairs of combinations that differ in it only."
    )


def unfolding_verdict(fitted) -> str:
    """An unfolding's settings and fit, and whether its map can be read (Busing et al. 2005; paper §3.2):
    not when it is degenerate, nor before it has converged."""
    kind = "" if fitted.transformation == "ordinal" else f", {fitted.transformation} transformation"
    head = (
        f"{fitted.conditionality.capitalize()} unfolding in {fitted.row_points.shape[1]} dimensions{kind}: "
        f"stress {fitted.stress:.4f}, penalized stress {fitted.penalized_stress:.4f}, {fitted.iterations} "
        "iterations"
    )
    if fitted.degenerate:
        head += (
            f"; degenerate: {fitted.coincident_columns()} of {len(fitted.column_points)} column points "
            "(nearly) coincide with another, so the map does not separate them."
        )
    else:
        head += "; no two column points coincide."
    if not fitted.converged:
        head += (
            f" It did not converge: it stopped at the limit of {fitted.iterations} iterations with the "
            "penalized stress still falling, so the map may still move; allow more (max_iterations)."
        )
    return head


def subsample_verdict(result) -> str:
    """The rankings on subsamples of the data sets in words (paper §4.2, Fig. 6): how many, from which
    subsamples, and how often the winner on all data sets is first on fewer of them."""
    L, k = len(result.datasets), len(result.ranks)
    prefixes = {1: "no smaller set", 2: "the first data set of each order"}.get(
        L, f"the first 1 to {L - 1} data sets of each order"
    )
    dropped = result.candidates + 1 - k
    first = result.winners_first_in
    return (
        f"{k} distinct rankings of {len(result.methods)} methods from {len(result.orders)} orders of {L} "
        f"data sets ({result.measure}, {result.imputation}, {result.aggregation}): {prefixes} ({dropped} "
        f"repeating a set already seen, dropped) and all {L}; {' and '.join(result.winners)}, first on all "
        f"{L}, {'is' if len(result.winners) == 1 else 'are'} first in {first} ({first / k:.0%}) of them."
    )
