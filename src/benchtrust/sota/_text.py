"""The words about the state of the art under multiplicity (Møllersen & Holsbø): the readable summaries of
:class:`~benchtrust.sota.BestOfResult` and :class:`~benchtrust.sota.LeaderboardResult` and their verdicts
in plain words, as ``str(result)`` gives them, ``benchtrust sota`` prints them and the HTML report shows
them (each result's ``describe()``).
"""

from __future__ import annotations

from benchtrust._words import RHO, interval_text, level_text, paragraph
from benchtrust.sota._lattice import rounding_text

__all__ = [
    "SOTA_QUESTION",
    "SOURCE",
    "best_of_text",
    "best_of_verdict",
    "better_words",
    "direction_text",
    "leaderboard_text",
    "leaderboard_verdict",
    "score_name",
    "teams_text",
    "test_size_text",
    "true_scores_text",
]

#: The question ``benchtrust sota`` answers, the title of its sections.
SOTA_QUESTION = "Is the top of a leaderboard the state of the art, or the luck of many tries?"
#: The paper, as a section's source names it (followed by its section).
SOURCE = "Møllersen & Holsbø, state of the art under multiplicity"

_PAPER = "Møllersen & Holsbø"


def teams_text(count: int) -> str:
    """``"1 team"``, ``"7 teams"``.

    Examples
    --------
    >>> teams_text(1), teams_text(0), teams_text(3755)
    ('1 team', '0 teams', '3755 teams')
    """
    return f"{count} team{'s' * (count != 1)}"


def true_scores_text(result) -> str:
    """The true scores θ_j of the m classifiers of a :class:`~benchtrust.sota.BestOfResult`: the one
    score they share, or the lowest to the highest, and the file they were read from (its ``inputs``).

    Examples
    --------
    >>> import dataclasses
    >>> from benchtrust.sota import best_of
    >>> true_scores_text(best_of(0.9, classifiers=10, test_size=100))
    '0.9'
    >>> result = best_of([0.875, 0.9, 0.88], test_size=100)
    >>> true_scores_text(result), true_scores_text(dataclasses.replace(result, inputs=("acc.csv",)))
    ('0.875 to 0.9', '0.875 to 0.9 (θ_j from acc.csv)')
    """
    low, high = result.lowest_score, result.top_score
    text = f"{high:g}" if low == high else f"{low:g} to {high:g}"
    if result.inputs:
        text += f" (θ_j from {result.inputs[0]})"
    return text


def best_of_text(result) -> str:
    """The readable summary of the best of m classifiers: the model, its inputs and the best score's
    expectation, SD and central interval (paper §3-4; §5.2.1 for AUC), then its verdict in plain words.

    Parameters
    ----------
    result : BestOfResult

    Returns
    -------
    str
        Aligned lines, a blank line and the verdict (:func:`best_of_verdict`) wrapped to 100 characters;
        no trailing newline.

    Examples
    --------
    >>> from benchtrust.sota import best_of
    >>> print(best_of_text(best_of(0.5, classifiers=100, test_size=20)))
    best of m classifiers on one test set (Møllersen & Holsbø §3-4)
      model                 independent, identical (exact)
      classifiers m         100
      test size n           20
      accuracy θ            0.5
      expected best E       0.773197
      SD of best            0.04585
      95% central interval  [0.700000, 0.850000] (14 to 17 of 20 right)
      dropped (Eq. 12)      0
    <BLANKLINE>
    Among m = 100 classifiers that all have true accuracy 0.5, the best observed score on n = 20 test
    items is expected at 0.7732 and falls in [0.7000, 0.8500] with probability 95%: a top score in this
    range is what luck produces, not evidence of a better method.
    """
    n = result.test_size
    low, high = result.ci
    auc = result.metric == "auc"
    rows = [
        ("model", f"{result.model} ({result.method})"),
        ("classifiers m", f"{result.classifiers}"),
        ("test size n", f"{n}" + (f" ({result.positives} positive)" if auc else "")),
        ("AUC a" if auc else "accuracy θ", true_scores_text(result)),
    ]
    if result.correlation > 0:
        reference = (
            f"fixed Y0: exactly {int(result.reference_accuracy * n + 0.5)} of {n} right"
            if result.fixed_reference
            else "random Y0"
        )
        rows += [
            (f"correlation {RHO}", f"{result.correlation:g}"),
            ("reference θ0", f"{result.reference_accuracy:g} ({reference})"),
        ]
    interval = interval_text(result.ci, 6)
    if not auc:
        interval += f" ({round(low * n)} to {round(high * n)} of {n} right)"
    rows += [
        ("expected best E", f"{result.expected_max:.6f}"),
        ("SD of best", f"{result.sd_max:#.4g}"),
        (f"{level_text(result.alpha)} central interval", interval),
    ]
    if not auc:
        rows.append(("dropped (Eq. 12)", f"{result.dropped}"))
    width = max(len(name) for name, _ in rows)
    section = "§5.2.1" if auc else "§3-4"
    lines = [f"best of m classifiers on one test set ({_PAPER} {section})"]
    lines += [f"  {name:<{width}}  {value}" for name, value in rows]
    lines += ["", paragraph(best_of_verdict(result))]
    return "\n".join(lines)


def best_of_verdict(result) -> str:
    """The verdict on the best of m classifiers in plain words: where luck alone puts the best score
    (paper §3-4, Fig. 1; §5.2.1 for AUC).

    Parameters
    ----------
    result : BestOfResult

    Returns
    -------
    str
        One unwrapped paragraph.

    Examples
    --------
    >>> from benchtrust.sota import best_of
    >>> print(paragraph(best_of_verdict(best_of(0.5, classifiers=100, test_size=20))))
    Among m = 100 classifiers that all have true accuracy 0.5, the best observed score on n = 20 test
    items is expected at 0.7732 and falls in [0.7000, 0.8500] with probability 95%: a top score in this
    range is what luck produces, not evidence of a better method.
    """
    return (
        f"Among m = {result.classifiers} classifiers that all have true "
        f"{'AUC' if result.metric == 'auc' else 'accuracy'} {true_scores_text(result)}, the best observed "
        f"score on n = {result.test_size} test items is expected at {result.expected_max:.4f} and falls in "
        f"{interval_text(result.ci)} with probability {level_text(result.alpha)}: a top score in this range "
        "is what luck produces, not evidence of a better method."
    )


def score_name(result) -> str:
    """What a leaderboard's scores are, in the board's direction: ``"accuracy"``, ``"AUC"``, ``"error
    rate"`` (1 - accuracy) or ``"1 - AUC"``."""
    if result.direction == "lower":
        return "1 - AUC" if result.metric == "auc" else "error rate"
    return "AUC" if result.metric == "auc" else "accuracy"


def direction_text(result) -> str:
    """Which scores of a leaderboard are better, and how they are analysed.

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> direction_text(SimpleNamespace(direction="lower", metric="accuracy"))
    'lower is better: error rate = 1 - accuracy, analysed as accuracy'
    """
    what = "AUC" if result.metric == "auc" else "accuracy"
    if result.direction == "lower":
        name = "error rate = 1 - accuracy" if what == "accuracy" else "1 - AUC"
        return f"lower is better: {name}, analysed as {what}"
    return f"higher is better ({what})"


def better_words(result) -> dict[str, str]:
    """Words for "better" and "worse" on the board's scale: ``above``/``below`` for higher-is-better
    scores, swapped for lower-is-better ones, and the worse end of an interval."""
    if result.direction == "lower":
        return {"above": "below", "below": "above", "worse end": "high end"}
    return {"above": "above", "below": "below", "worse end": "low end"}


def test_size_text(result) -> str:
    """The test size of a leaderboard result, with its positives (AUC) or how it was inferred."""
    text = f"{result.test_size}"
    if result.positives is not None:
        text += f" ({result.positives} positive)"
    if result.inferred is not None:
        text += f" ({result.inferred.rule})"
    return text


def leaderboard_text(result) -> str:
    """The readable summary of a leaderboard's state of the art (paper §5, Table 3), ending in plain words.

    Parameters
    ----------
    result : LeaderboardResult
        Its leaderboard file (``inputs``), if it was read from one, is named in the first line.

    Returns
    -------
    str
        The estimates as aligned lines, a blank line, and the paragraphs of :func:`leaderboard_verdict`
        wrapped to 100 characters.
    """
    auc = result.metric == "auc"
    level = level_text(result.alpha)
    above = better_words(result)["above"]
    excluded = ", ".join(f"{count} {reason}" for reason, count in result.excluded.items())
    top, plug, crop, cons = result.observed_max, result.plugin, result.cropped, result.conservative
    rows = [
        ("teams used", f"{result.teams} (excluded: {excluded})"),
        ("test size n", test_size_text(result)),
        ("scores read as", f"{rounding_text(result.rounding)} to the decimals written"),
        ("direction", direction_text(result)),
        ("observed best", f"{top:.4f} ({teams_text(result.teams_at_max)})"),
        (
            f"no multiplicity, {level}",
            f"{interval_text(result.naive_ci)} ({teams_text(result.teams_in_naive_ci)} in it)",
        ),
        ("plug-in: E(best)", f"{plug.expected_max:.4f}, {level} {interval_text(plug.ci)}"),
        (
            "cropping: SOTA",
            f"{crop.sota:.4f}, {level} {interval_text(crop.ci)}, {teams_text(crop.teams_above)} {above}",
        ),
        (
            "conservative: SOTA",
            f"{cons.sota:.4f}, {level} {interval_text(cons.ci)}, {teams_text(cons.teams_above)} {above}",
        ),
    ]
    dropped = [estimate.dropped for estimate in (plug, crop, cons)]
    if not auc:
        rows.insert(
            6, (f"model (correlation {RHO})", f"{result.correlation:g}, bootstrap {result.bootstrap}")
        )
        if result.error_bound > 0:
            rows.insert(7, ("computed", f"on a lattice of counts, within {result.error_bound:.1e} of exact"))
        if any(dropped):
            rows.insert(
                7,
                (
                    "left out by Eq. 12",
                    f"{dropped[0]} (plug-in), {dropped[1]} (cropping), {dropped[2]} (conservative) teams",
                ),
            )
    width = max(len(label) for label, _ in rows)
    board = f"the leaderboard {result.inputs[0]}" if result.inputs else "the leaderboard"
    lines = [f"state of the art from {board} ({_PAPER} §5, Table 3)"]
    lines += [f"  {label:<{width}}  {value}" for label, value in rows]
    lines.append("")
    lines += [paragraph(text) for text in leaderboard_verdict(result)]
    return "\n".join(lines)


def leaderboard_verdict(result) -> list[str]:
    """The verdict on a leaderboard in plain words (paper §5, Table 3).

    The words follow the decisions the result makes: :attr:`~LeaderboardResult.top_reading` (is the top
    of the board leakage, luck, an optimistic estimate, or a real lead?) and
    :attr:`~LeaderboardResult.most_teams_left_out`.

    Parameters
    ----------
    result : LeaderboardResult

    Returns
    -------
    list of str
        Unwrapped paragraphs: first the verdict on the top of the board, then a note when the dependence
        model left most teams out (Eq. 12, §5.1.1), one on the sober state of the art (cropping)
        when the top neither stands out nor is perfect, and the warnings about the table read.
    """
    name = score_name(result)
    words = better_words(result)
    lower = result.direction == "lower"
    top, plug, crop, cons = result.observed_max, result.plugin, result.cropped, result.conservative
    reading = result.top_reading
    if reading == "perfect":
        teams = f"{result.teams_at_max} teams have" if result.teams_at_max > 1 else "1 team has"
        verdict = (
            f"{teams} a perfect score. A perfect {name} says nothing about the state of the art when the "
            "test labels can be found (as Kaggle's Titanic labels can): it is leakage, not skill. Leaving "
            f"out the scores {words['above']} {0.001 if lower else 0.999} as implausible sets perfect "
            "scores aside."
        )
    elif reading == "luck":
        worse_end = plug.ci[1] if lower else plug.ci[0]
        verdict = (
            f"If every team's true {name} were its score, the best observed {name} would be expected at "
            f"{plug.expected_max:.4f}, and even the {words['worse end']} of its interval ({worse_end:.4f}) "
            f"is {words['above']} the observed best {top:.4f}: the top of this leaderboard is what luck on "
            f"{result.test_size} test items produces among this many teams, not evidence of a better "
            "method."
        )
    elif reading == "optimistic":
        verdict = (
            f"The observed best {top:.4f} is within the range that luck alone produces among "
            f"{result.teams} teams on {result.test_size} items (plug-in interval {interval_text(plug.ci)}): "
            "it is an optimistic estimate of the state of the art."
        )
    else:
        # how the two numbers compare as shown (the decision allows half a unit of the last decimal)
        if f"{plug.expected_max:.4f}" == f"{top:.4f}":
            where = "the observed best itself"
        elif result._gain(plug.expected_max) < result._gain(top):
            where = f"{words['below']} the observed best"
        else:
            where = "within 0.0001 of the observed best"
        verdict = (
            f"The observed best {top:.4f} stands out from the other teams: if every team's true {name} were "
            f"its score, the best would be expected at {plug.expected_max:.4f}, {where}. Multiplicity does "
            "not explain it."
        )
    paragraphs = [verdict]
    if result.most_teams_left_out:
        paragraphs.append(
            f"With correlation {RHO} = {result.correlation:g}, the dependence model admits only teams "
            "close enough to the best (Eq. 12): most teams were left out, as the paper does (§5.1.1), "
            "and the estimates rest on the best teams alone. With correlation 0 (independent teams) every "
            "team takes part."
        )
    if not result.stands_out and reading != "perfect":
        if result._gain(crop.sota) < result._gain(top):
            paragraphs.append(
                f"A sober state of the art is {crop.sota:.4f} (conservatively {cons.sota:.4f}): with the "
                f"teams {words['above']} it left out and as many teams drawn from the rest, the expected "
                f"best score equals the observed best. {teams_text(crop.teams_above)} ({cons.teams_above} "
                f"conservatively) score {words['above']} it: statistically they are all at the "
                "state-of-the-art level, and their order among themselves is luck."
            )
        else:
            paragraphs.append(
                f"Cropping keeps the observed best {top:.4f} as the state of the art (conservatively "
                f"{cons.sota:.4f}): with the teams at the top left out, the expected best score "
                f"{'rises' if lower else 'falls'} further {words['below']} the observed best than the "
                f"plug-in's is {words['above']} it, so no {'higher' if lower else 'lower'} observed score "
                "fits better."
            )
    paragraphs += [f"Warning: {warning}" for warning in result.warnings]
    return paragraphs
