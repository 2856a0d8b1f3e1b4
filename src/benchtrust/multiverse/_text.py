"""The words about a multiverse of design and analysis choices (Nießl et al. 2022): the readable summary of
a :class:`~benchtrust.multiverse.Study` and its verdict in plain words, as ``benchtrust multiverse``, the
HTML report and ``str(study)`` show them.
"""

from __future__ import annotations

import numpy as np

from benchtrust._words import TIMES, paragraph

__all__ = ["fit_lines", "share", "study_text", "study_verdict"]

_PAPER = "Nießl et al. 2022"


def share(fraction: float) -> str:
    """A share in whole percent, ``"<1%"`` for a small one that is not zero.

    Examples
    --------
    >>> share(0.25), share(0.001), share(0.0)
    ('25%', '<1%', '0%')
    """
    return "<1%" if 0 < fraction < 0.005 else f"{fraction:.0%}"


def study_text(result, what=None, written=()) -> str:
    """The readable summary of a multiverse study (paper §3-4): each method's rank at the defaults, its
    best and worst rank (Fig. 2), the share of combinations it wins, its step-wise best rank (Fig. 3), the
    impact of each choice (§4.2), the unfolding's fit (Fig. 4-5), the subsamples (Fig. 6), the verdict and
    the files written.

    Parameters
    ----------
    result : Study
    what : str, optional
        The results studied, in words (a file name, or the bundled Herrmann et al. results).
    written : sequence of pathlib.Path
        The files :meth:`Study.write` wrote, listed at the end (nothing when empty).

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    mv = result.multiverse
    default = mv.index(mv.defaults)
    order = np.argsort(mv.ranks[default], kind="stable")
    top = mv.ranks.min(axis=1, keepdims=True) == mv.ranks
    rows = [("method", "default", "best", "worst", "first in", "step-wise")]
    for m in order:
        rows.append(
            (
                mv.methods[m],
                f"{mv.ranks[default, m]:g}",
                f"{result.distribution.best[m]:g}",
                f"{result.distribution.worst[m]:g}",
                share(top[:, m].mean()),
                f"{result.stepwise.best[mv.methods[m]]:g}",
            )
        )
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    sizes = f" {TIMES} ".join(f"{len(mv.options[c])} {c}" for c in mv.choices)
    defaults = ", ".join(f"{c} = {mv.defaults[c]}" for c in mv.choices)
    studied = "multiverse" if what is None else f"multiverse of {what}"
    lines = [
        paragraph(
            f"{studied} ({_PAPER}, §3-4): {len(mv.codes)} combinations ({sizes}) of "
            f"{len(mv.methods)} methods; defaults: {defaults}"
        ),
        "",
    ]
    lines += [
        ("  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
    ]
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
        for choice, group in result.distances.groupby("choice", sort=False)["distance"]:
            lines.append(f"    {choice}: median {group.median():.3f}, largest {group.max():.3f}")
    if result.subsample is not None:
        lines += ["", paragraph(f"subsamples of the data sets (Fig. 6): {result.subsample}")]
        if result.subsample_unfolding is not None:
            lines += fit_lines(result.subsample_unfolding)
    lines += ["", paragraph(study_verdict(result))]
    if written:
        lines += [
            "",
            f"  wrote {len(written)} files to {written[0].parent}: " + ", ".join(p.name for p in written),
        ]
    return "\n".join(lines)


def fit_lines(fitted) -> list[str]:
    """An unfolding's settings and fit (paper §3.2, Fig. 4), with a warning when its column points coincide.

    Parameters
    ----------
    fitted : Unfolding

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
    clumped = fitted.coincident_columns()
    if clumped:
        lines.append(
            f"    degenerate: {clumped} of {len(fitted.column_points)} methods (nearly) coincide with another"
        )
    return lines


def study_verdict(result) -> str:
    """The verdict on a multiverse of choices in plain words (paper §4.1, Fig. 2): how many methods rank
    first under some combination, and how far a method's rank moves across them.

    Parameters
    ----------
    result : Study

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    mv = result.multiverse
    top = mv.ranks.min(axis=1, keepdims=True) == mv.ranks
    winners = int(top.any(axis=0).sum())
    spread = float((result.distribution.worst - result.distribution.best).max())
    return (
        f"{winners} of {len(mv.methods)} methods rank first under some combination, and a method's rank "
        f"moves by up to {spread:g} places across them: a ranking from one set of choices says little "
        "unless the choices were fixed before the results were seen."
    )
