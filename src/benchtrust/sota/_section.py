"""The HTML sections of the state of the art under multiplicity (Møllersen & Holsbø): one
:class:`~benchtrust._html.Section` for a :class:`~benchtrust.sota.BestOfResult` (with the paper's Fig. 1)
and one for a :class:`~benchtrust.sota.LeaderboardResult` (Table 3, Fig. 7a).

The report shows these sections, and a notebook shows them as each result's ``_repr_html_``. The verdicts
are the words of :mod:`benchtrust.sota._text`, the ones ``benchtrust sota`` prints and ``str(result)``
gives.
"""

from __future__ import annotations

import os

from benchtrust._html import Section, svg_of
from benchtrust._words import ALPHA, RHO, interval_text, level_text
from benchtrust.sota._lattice import rounding_text
from benchtrust.sota._text import (
    best_of_verdict,
    better_words,
    direction_text,
    leaderboard_verdict,
    teams_text,
    test_size_text,
)

__all__ = ["SOTA_QUESTION", "best_of_section", "leaderboard_section"]

#: The question ``benchtrust sota`` answers, the title of its sections.
SOTA_QUESTION = "Is the top of a leaderboard the state of the art, or the luck of many tries?"

_PAPER = "Møllersen & Holsbø, state of the art under multiplicity"


def best_of_section(result, *, accuracy: str | None = None, inputs=()) -> Section:
    """The section of a :class:`~benchtrust.sota.BestOfResult` (``sota best-of``), with the paper's Fig. 1.

    Parameters
    ----------
    result : BestOfResult
    accuracy : str, optional
        The true accuracy (or AUC) as the user gave it, such as ``"0.9"`` or ``"0.875 to 0.9"``; by default
        the largest true score of the result.
    inputs : sequence of str or os.PathLike
        The input files (``--accuracies``).

    Returns
    -------
    benchtrust._html.Section

    Examples
    --------
    >>> from benchtrust.sota import best_of
    >>> section = best_of_section(best_of(0.5, classifiers=100, test_size=20))
    >>> section.rows[0]
    ('expected best E', '0.773197')
    >>> section.source.endswith("§3-4, Table 2, Fig. 1"), section.figure_svg.startswith("<svg")
    (True, True)
    """
    from benchtrust.sota._plot import plot_best_of

    auc = result.metric == "auc"
    n = result.test_size
    low, high = result.ci
    rows = [
        ("expected best E", f"{result.expected_max:.6f}"),
        ("SD of the best", f"{result.sd_max:#.4g}"),
        (f"{level_text(result.alpha)} central interval of the best", interval_text(result.ci, 6)),
    ]
    if not auc:
        rows.append(("items right, interval", f"{round(low * n)} to {round(high * n)} of {n}"))
        rows.append(("classifiers dropped (Eq. 12)", f"{result.dropped}"))
    shown = accuracy if accuracy is not None else f"{result.top_score:g}"
    assumptions = [
        ("model", f"{result.model} ({result.method})"),
        ("classifiers m", f"{result.classifiers}"),
        ("test size n", f"{n}" + (f" ({result.positives} positive)" if auc else "")),
        ("true AUC" if auc else "true accuracy θ", shown),
        (f"correlation {RHO}", f"{result.correlation:g}"),
    ]
    if result.correlation > 0:
        reference = "fixed: exactly θ0·n items right" if result.fixed_reference else "random"
        assumptions.append(("reference θ0", f"{result.reference_accuracy:g} ({reference})"))
    assumptions.append((ALPHA, f"{result.alpha:g}"))
    return Section(
        title=SOTA_QUESTION,
        analysis="sota best-of",
        verdict=best_of_verdict(result, accuracy),
        columns=("quantity", "value"),
        rows=tuple(rows),
        figure_svg=None if auc else svg_of(plot_best_of(result)),
        assumptions=tuple(assumptions),
        source=f"{_PAPER}, {'§5.2.1' if auc else '§3-4, Table 2, Fig. 1'}",
        inputs=tuple(os.fspath(name) for name in inputs),
    )


def leaderboard_section(result, *, file=None, top=()) -> Section:
    """The section of a :class:`~benchtrust.sota.LeaderboardResult` (``sota leaderboard``), with Fig. 7a.

    Parameters
    ----------
    result : LeaderboardResult
    file : str or os.PathLike, optional
        The leaderboard file, named in the inputs.
    top : sequence of (str, str)
        The top of the board, (team name, score) pairs as from :func:`benchtrust.sota._read.top_teams`;
        shown as a table.

    Returns
    -------
    benchtrust._html.Section
        The verdict is the first paragraph of :func:`~benchtrust.sota._text.leaderboard_verdict`, the
        notes the others.
    """
    from benchtrust.sota._plot import plot_leaderboard

    auc = result.metric == "auc"
    level = level_text(result.alpha)
    above = better_words(result)["above"]
    top_score, plug, crop, cons = result.observed_max, result.plugin, result.cropped, result.conservative
    rows = (
        ("observed best", f"{top_score:.4f}", f"{teams_text(result.teams_at_max)} at it"),
        (
            f"no multiplicity, {level} interval",
            interval_text(result.naive_ci),
            f"{teams_text(result.teams_in_naive_ci)} in it",
        ),
        ("plug-in: expected best", f"{plug.expected_max:.4f}", f"{level} {interval_text(plug.ci)}"),
        (
            "cropping: SOTA",
            f"{crop.sota:.4f}",
            f"{level} {interval_text(crop.ci)}, {crop.teams_above} {above}",
        ),
        (
            "conservative: SOTA",
            f"{cons.sota:.4f}",
            f"{level} {interval_text(cons.ci)}, {cons.teams_above} {above}",
        ),
    )
    paragraphs = leaderboard_verdict(result)
    excluded = ", ".join(f"{count} {reason}" for reason, count in result.excluded.items())
    assumptions = [
        ("metric", result.metric),
        ("direction", direction_text(result)),
        ("test size n", test_size_text(result)),
        ("scores read as", f"{rounding_text(result.rounding)} to the decimals written"),
        ("teams used", f"{result.teams} (excluded: {excluded})"),
    ]
    if not auc:
        assumptions.append((f"dependence model: correlation {RHO}", f"{result.correlation:g}"))
    assumptions += [("bootstrap", result.bootstrap), (ALPHA, f"{result.alpha:g}")]
    tables = ()
    if top:
        ranked = tuple((str(k + 1), *team) for k, team in enumerate(top))
        tables = (("Top of the board", ("rank", "team", "score"), ranked),)
    return Section(
        title=SOTA_QUESTION,
        analysis="sota leaderboard",
        verdict=paragraphs[0],
        notes=tuple(paragraphs[1:]),
        columns=("estimate", "value", "detail"),
        rows=rows,
        tables=tables,
        figure_svg=svg_of(plot_leaderboard(result)),
        assumptions=tuple(assumptions),
        source=f"{_PAPER}, §5, Table 3, Fig. 7",
        inputs=() if file is None else (os.fspath(file),),
    )


def leaderboard_file_section(
    result, file, *, name=None, score_column=None, team_column=None, classes=None, max_plausible=None
):
    """The section of a leaderboard read from `file`, with the top of the board when the file names its
    teams: what ``sota leaderboard --report`` and a report config's ``sota leaderboard`` entry show.

    Parameters
    ----------
    result : LeaderboardResult
    file : str or os.PathLike
        The leaderboard file the result was computed from.
    name : str, optional
        How the section names the file; default `file` as given.
    score_column, team_column, classes, max_plausible
        The settings it was read with (see :func:`benchtrust.sota.read_leaderboard`), so the top of the
        board leaves out the teams the analysis left out; the direction is the result's.
    """
    from benchtrust._io import InputError
    from benchtrust.sota._read import top_teams

    try:
        top = top_teams(
            file,
            score_column=score_column,
            team_column=team_column,
            classes=classes,
            max_plausible=max_plausible,
            direction=result.direction,
        )
    except InputError:
        top = []
    return leaderboard_section(result, file=file if name is None else name, top=top)
