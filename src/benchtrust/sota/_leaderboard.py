"""A sober state of the art from a real leaderboard (paper §5, §5.1.1 and Table 3; AUC: §5.2).

A leaderboard holds the observed scores θ̂_1..θ̂_m of m teams on one hidden test set of n items. Four
estimates of the state of the art (SOTA), as in Table 3:

* **no multiplicity**: the observed maximum θ̂_max, with the Clopper-Pearson interval of one classifier;
* **plug-in** ("Kaggle accuracies"): take θ̃_j = θ̂_j as the true scores (reference θ0 = θ̂_max,
  correlation ρ, Eq. 12 exclusions) and compute the expected best score E(θ̂_max) and its interval;
* **cropping**: the teams above a crop level s are left out and the best is that of m teams drawn
  with replacement from those left (θ̃ = the observed scores at most s; θ0 = s). s is the observed
  score at which the expected best score E_s(θ̂_max) comes closest to the observed maximum: the SOTA
  estimate, and the teams above it are at the SOTA level within the luck of the test set. This is the
  paper's cropping: Fig. 12 draws "bootstrap samples from the kaggle observations cropped at 0.8975"
  with "m = 3,173" (all teams above chance), which reproduces E = 0.9490 for the Melanoma board, and
  the SOTA candidate is "the maximum θ̃_j" (§5.1.1). The paper tuned s by hand; here a bracketing
  search over the observed scores finds it;
* **conservative cropping**: the highest crop level at which the upper limit of the best score's interval
  is at most θ̂_max, i.e. P_s(best > θ̂_max) <= α/2 (Table 3's last row: "(0.9050, θ̂_max)").

E_s only changes at observed scores and grows with s (leaving out the best teams lowers the best), so
both searches bracket the level between two neighbouring observed scores: the crop takes the nearer of
the two, the conservative crop the lower.
The plug-in is the crop at the observed maximum (no team left out).

A board whose lower scores are better (``direction="lower"``) holds error rates, 1 - accuracy (or
1 - AUC): they are analysed as the accuracies 1 - score, exactly (as counts out of n), and every estimate
is reported back in the board's terms: the best observed score is the lowest, the SOTA error rate is 1
minus the SOTA accuracy and the intervals are flipped, (1 - high, 1 - low). For AUC, 1 - AUC is the AUC
of the same classifier with its scores negated, so the empirical-AUC model of §5.2.1 applies to it
unchanged: a board of 1 - AUC is read, not refused.

Intervals use the paper's bootstrap over teams (B resamples). For accuracy it is computed exactly, as its
B -> infinity limit, in one computation (:func:`benchtrust.sota._best_of._exact`). For AUC too:
(mean_j F_j)^m, with each team's empirical-AUC distribution F_j interpolated from a table computed once
(:class:`benchtrust.sota._auc_levels._AucModel`, :func:`benchtrust.sota._auc.auc_pmf`).
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, Literal

import numpy as np
from scipy import special

from benchtrust._html import Table
from benchtrust._interval import Interval
from benchtrust._io import (
    MAX_MEMORY,
    Direction,
    InputError,
    Progress,
    Seed,
    check_count,
    check_direction,
    check_probability,
)
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA, RHO, interval_text, level_text
from benchtrust.sota import _lattice, _text
from benchtrust.sota._crop import SotaEstimate, _AccuracyModel, _closest_level, _Levels, _prob_at_least
from benchtrust.sota._plot import plot_leaderboard
from benchtrust.sota._read import read_with_table, top_teams
from benchtrust.sota._single import clopper_pearson

if TYPE_CHECKING:
    import numpy.typing as npt
    import pandas as pd

#: Half a unit of the fourth decimal, the precision the estimates are shown with: an expected best score
#: less than this above the observed best is not above it (:attr:`LeaderboardResult.top_reading`).
_SHOWN = 0.5e-4


@dataclasses.dataclass(frozen=True, eq=False)
class LeaderboardResult(Result):
    """Estimates of the state of the art from one leaderboard (paper §5.1, Table 3).

    ``str(result)`` is what ``benchtrust sota leaderboard`` prints, its verdict last; ``to_frame()`` the
    estimates, one row per approach (the paper's Table 3): columns ``estimate`` (``"no multiplicity"``,
    ``"plug-in"``, ``"cropping"``, ``"conservative"``), ``sota`` (θ̂_max, or the crop value c),
    ``expected_max`` (E(θ̂_max) under the approach; NaN without multiplicity), ``low`` and ``high`` (its
    (1 - α) interval), ``teams_above`` (teams scoring better than ``sota``: above it, or below it for
    ``direction="lower"``) and ``dropped`` (teams Eq. 12 left out), in the board's terms.

    Attributes
    ----------
    metric : str
        "accuracy" or "auc".
    direction : str
        "higher" (accuracies or AUCs) or "lower" (error rates 1 - accuracy, or 1 - AUC): which scores are
        better, as declared. Every score, estimate and interval below is in the board's own terms: for
        "lower", the best is the lowest ("max" in the names below means the best) and intervals are
        (low, high) as numbers.
    test_size : int
        n, items in the hidden test set.
    positives : int or None
        n+, positive items (AUC).
    rounding : str
        How the scores were read: ``"either"``, ``"round"`` or ``"truncate"`` (see ``leaderboard``).
    inferred : TestSizeInference or None
        How ``test_size`` was inferred from the scores, when it was (``test_size="auto"``).
    scores : numpy.ndarray
        The teams' scores used, one per team (after the filters).
    excluded : dict
        Teams left out before the analysis, by reason ("broken", "chance", "implausible").
    observed_max : float
        θ̂_max, the best observed score (the lowest for "lower").
    teams_at_max : int
        Teams with the best observed score.
    naive_ci : benchtrust.Interval
        Interval of one classifier with score θ̂_max, ignoring multiplicity (Clopper-Pearson for accuracy).
    teams_in_naive_ci : int
        Teams scoring at or better than the worse end of ``naive_ci``.
    plugin, cropped, conservative : SotaEstimate
        The three multiplicity-aware approaches of Table 3.
    correlation : float
        ρ of the dependence model (accuracy).
    alpha : float
        Intervals have probability 1 - α.
    bootstrap : str
        How the bootstrap over teams was computed: ``"exact (B -> infinity)"`` or ``"none"`` (no
        resamples).
    warnings : tuple of str
        What may make the count of teams wrong, read off the table (:attr:`Leaderboard.warnings`); shown
        after the verdict.
    error_bound : float
        How far the estimates' expected best scores and interval ends may be from their exact values: 0
        when exact (up to rounding); on test sets of at least ``LARGE_TEST_SET`` items the dependent model
        is computed on a lattice of counts within this bound (:attr:`BestOfResult.error_bound`).
    top_teams : tuple of (str, str)
        The best five teams of the table read, (name, best score as written), best first, leaving out the
        teams the filters left out; empty when the table names no teams (or the scores were a list).
    inputs : tuple of str
        The leaderboard file, as given, when the scores were read from one; named in the text.

    See Also
    --------
    leaderboard : Computes this result.
    SotaEstimate : Each of ``plugin``, ``cropped`` and ``conservative``.
    plot_leaderboard : Draw the result as the paper's Fig. 7a.
    read_leaderboard : Read a leaderboard's scores.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5.1.1, Fig. 7 and Table 3 (the
       four approaches); §5.1.2 (a winner that stands out); §5.2.1, Fig. 12 (AUC).
    .. [2] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
       case of the binomial", Biometrika 26(4), 404-413, 1934. doi:10.1093/biomet/26.4.404. The interval
       ``naive_ci`` for accuracy.

    Examples
    --------
    >>> scores = [0.862, 0.858, 0.85, 0.84, 0.82]
    >>> r = leaderboard(scores, test_size=500, direction="higher", correlation=0)
    >>> print(str(r).splitlines()[0])
    state of the art from the leaderboard (Møllersen & Holsbø §5, Table 3)
    >>> frame = r.to_frame()
    >>> list(frame["estimate"])
    ['no multiplicity', 'plug-in', 'cropping', 'conservative']
    >>> list(frame.columns)
    ['estimate', 'sota', 'expected_max', 'low', 'high', 'teams_above', 'dropped']
    """

    metric: str
    direction: str
    test_size: int
    positives: int | None
    rounding: str
    inferred: _lattice.TestSizeInference | None
    scores: np.ndarray
    excluded: dict[str, int]
    observed_max: float
    teams_at_max: int
    naive_ci: Interval
    teams_in_naive_ci: int
    plugin: SotaEstimate
    cropped: SotaEstimate
    conservative: SotaEstimate
    correlation: float
    alpha: float
    bootstrap: str
    warnings: tuple[str, ...] = ()
    top_teams: tuple[tuple[str, str], ...] = ()
    error_bound: float = 0.0

    def _gain(self, score):
        """A score of the board as an accuracy (or AUC): higher is better."""
        return 1.0 - score if self.direction == "lower" else score

    @property
    def teams(self) -> int:
        """Teams used (after the filters)."""
        return int(self.scores.size)

    @property
    def top_reading(self) -> str:
        """What the observed best θ̂_max says about the state of the art (paper §5.1, Table 3), in one word.

        * ``"perfect"``: θ̂_max is 1. A perfect score says nothing about the state of the art where the
          test labels can be found: it reads as leakage, not skill.
        * ``"luck"``: even the low end of the plug-in interval is above θ̂_max. If every team's true score
          were its observed one, the best would score higher, so the top is what luck produces among this
          many teams (the paper's Obesity Risk example, §5.1.1).
        * ``"optimistic"``: the plug-in E(θ̂_max) is above θ̂_max (by at least half a unit of the fourth
          decimal, the precision the estimates are shown with): θ̂_max is within the range luck produces,
          an optimistic estimate of the state of the art.
        * ``"stands out"``: E(θ̂_max) is not above θ̂_max, so multiplicity does not explain the top (the
          paper's Cassava Leaf example, §5.1.2). E(θ̂_max) can be below θ̂_max when the bootstrap over
          teams often leaves out a lone top team (AUC).
        """
        top, plugin, gain = self.observed_max, self.plugin, self._gain
        if gain(top) >= 1.0:
            return "perfect"
        if min(gain(plugin.ci[0]), gain(plugin.ci[1])) > gain(top):
            return "luck"
        if gain(plugin.expected_max) - gain(top) >= _SHOWN:
            return "optimistic"
        return "stands out"

    @property
    def stands_out(self) -> bool:
        """Whether the observed best stands out from the other teams: multiplicity does not explain it
        (:attr:`top_reading` is ``"stands out"``)."""
        return self.top_reading == "stands out"

    @property
    def most_teams_left_out(self) -> bool:
        """Whether Eq. 12 left out more than half of the teams in one of the three approaches.

        With correlation ρ > 0 the dependence model (§4.3) admits only accuracies close enough to the
        reference θ0; the paper leaves the others out (§5.1.1). When that is most of the board, the
        estimates rest on the best teams alone, and correlation 0 (independent teams) is worth comparing.
        """
        dropped = max(estimate.dropped for estimate in (self.plugin, self.cropped, self.conservative))
        return dropped > self.teams / 2

    def __repr__(self) -> str:
        return (
            f"LeaderboardResult(metric={self.metric!r}, direction={self.direction!r}, teams={self.teams}, "
            f"test_size={self.test_size}, "
            f"observed_max={self.observed_max:.6f}, plugin_expected_max={self.plugin.expected_max:.6f}, "
            f"cropped_sota={self.cropped.sota:.6f}, conservative_sota={self.conservative.sota:.6f})"
        )

    @property
    def verdict(self) -> str:
        """The result in plain words (paper §5, Table 3): is the top of the board luck, leakage or a real
        lead, with notes on the teams Eq. 12 left out and on the sober state of the art; paragraphs are
        separated by a blank line."""
        return "\n\n".join(_text.leaderboard_verdict(self))

    def describe(self) -> Description:
        """The leaderboard's state of the art as every view shows it: its text, its verdict (the first
        paragraph; the others are notes), Table 3's estimates, the top of the board, the assumptions and the
        paper's Fig. 7a."""
        auc = self.metric == "auc"
        level = level_text(self.alpha)
        above = _text.better_words(self)["above"]
        top, plug, crop, cons = self.observed_max, self.plugin, self.cropped, self.conservative
        rows = (
            ("observed best", f"{top:.4f}", f"{_text.teams_text(self.teams_at_max)} at it"),
            (
                f"no multiplicity, {level} interval",
                interval_text(self.naive_ci),
                f"{_text.teams_text(self.teams_in_naive_ci)} in it",
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
        paragraphs = _text.leaderboard_verdict(self)
        excluded = ", ".join(f"{count} {reason}" for reason, count in self.excluded.items())
        assumptions = [
            ("metric", self.metric),
            ("direction", _text.direction_text(self)),
            ("test size n", _text.test_size_text(self)),
            ("scores read as", f"{_lattice.rounding_text(self.rounding)} to the decimals written"),
            ("teams used", f"{self.teams} (excluded: {excluded})"),
        ]
        if not auc:
            assumptions.append((f"dependence model: correlation {RHO}", f"{self.correlation:g}"))
        assumptions += [("bootstrap", self.bootstrap), (ALPHA, f"{self.alpha:g}")]
        if self.error_bound > 0:
            assumptions.append(
                ("computed", f"on a lattice of counts, within {self.error_bound:.1e} of exact")
            )
        tables: tuple[Table, ...] = ()
        if self.top_teams:
            ranked = tuple((str(k + 1), *team) for k, team in enumerate(self.top_teams))
            tables = (("Top of the board", ("rank", "team", "score"), ranked),)
        estimates = [("no multiplicity", self.observed_max, float("nan"), *self.naive_ci, 0, 0)]
        estimates += [
            (name, e.sota, e.expected_max, *e.ci, e.teams_above, e.dropped)
            for name, e in (("plug-in", plug), ("cropping", crop), ("conservative", cons))
        ]
        columns = ("estimate", "sota", "expected_max", "low", "high", "teams_above", "dropped")
        return Description(
            question=_text.SOTA_QUESTION,
            verdict=paragraphs[0],
            text=_text.leaderboard_text(self),
            data={
                "metric": self.metric,
                "direction": self.direction,
                "test_size": self.test_size,
                "positives": self.positives,
                "rounding": self.rounding,
                "inferred": None if self.inferred is None else self.inferred.to_dict(),
                "teams": self.teams,
                "excluded": dict(self.excluded),
                "observed_max": self.observed_max,
                "teams_at_max": self.teams_at_max,
                "naive_ci": self.naive_ci,
                "teams_in_naive_ci": self.teams_in_naive_ci,
                "plugin": plug.to_dict(),
                "cropped": crop.to_dict(),
                "conservative": cons.to_dict(),
                "correlation": self.correlation,
                "alpha": self.alpha,
                "bootstrap": self.bootstrap,
                "error_bound": self.error_bound,
                "stands_out": self.stands_out,
                "most_teams_left_out": self.most_teams_left_out,
                "warnings": self.warnings,
            },
            columns=("estimate", "value", "detail"),
            rows=rows,
            frame={name: [row[k] for row in estimates] for k, name in enumerate(columns)},
            assumptions=tuple(assumptions),
            source=f"{_text.SOURCE}, §5, Table 3, Fig. 7",
            inputs=tuple(os.fspath(name) for name in self.inputs),
            analysis="sota leaderboard",
            tables=tables,
            notes=tuple(paragraphs[1:]),
            figure=lambda: plot_leaderboard(self),
        )


def leaderboard(
    scores: npt.ArrayLike | str | os.PathLike[str] | pd.DataFrame,
    *,
    test_size: int | Literal["auto"],
    direction: Direction,
    rounding: Literal["either", "round", "truncate"] = "either",
    metric: Literal["accuracy", "auc"] = "accuracy",
    positives: int | None = None,
    classes: int | None = None,
    max_plausible: float | None = None,
    score_column: str | None = None,
    team_column: str | None = None,
    correlation: float = 0.6,
    resamples: int = 1000,
    seed: Seed = None,
    alpha: float = 0.05,
    progress: Progress | None = None,
    max_memory: int = MAX_MEMORY,
) -> LeaderboardResult:
    """Estimate the state of the art from a leaderboard, allowing for multiplicity (paper §5, Table 3).

    Parameters
    ----------
    scores : array_like, path or pandas.DataFrame
        One score per team, or a leaderboard file or table (read with
        :func:`read_leaderboard`: Kaggle's raw download, or a CSV/TSV with a score column).
    test_size : int or "auto"
        n, the number of items in the hidden test set the scores were computed on. ``"auto"`` infers it
        from the scores (accuracy only; :func:`benchtrust.sota._lattice.infer_test_size`: the smallest n
        whose lattice k/n holds every score), or says why it cannot.
    direction : {"higher", "lower"}
        Which scores are better, declared (never guessed from the scores): "higher" for accuracies or
        AUCs, "lower" for error rates 1 - accuracy (or 1 - AUC), which are analysed as 1 - score and
        reported back as error rates (see the module). It has no default: many boards hold errors or
        losses, and a board of error rates read as accuracies names its worst team the state of the art.
        A table ranked best first whose scores rise ("higher") or fall ("lower") contradicts it and is
        refused, a short sorted list warned about (:func:`read_leaderboard`; the order of scores given as
        a list is not checked). `classes` and the chance level keep their meaning; `max_plausible` is a
        score of the board (an error rate for "lower": scores below it are left out). With "lower" and
        ``rounding="either"`` a score may also be the complement of a rounded or truncated accuracy.
    rounding : {"either", "round", "truncate"}, default "either"
        How the scores were shortened to the decimals they are written with: rounded, truncated (as
        Kaggle often displays them), or either.
    metric : {"accuracy", "auc"}
        What the scores are.
    positives : int, optional
        n+, positive items in the test set; required for AUC.
    classes : int, optional
        Number of classes C: accuracies at or below chance (1/C) are left out (AUCs at or below 0.5
        always are).
    max_plausible : float, optional
        Leave out scores above this (e.g. 0.999 drops perfect scores from a leaked test set).
    score_column : str, optional
        Column of a file or table holding the scores.
    team_column : str, optional
        Column of a file or table naming each row's team, when it is not ``TeamId``: a team's rows are
        its submissions, and its best score counts.
    correlation : float, default 0.6
        ρ of the dependence model of §4.3 (accuracy; the paper's §5.1.1 uses 0.6). 0: independent teams.
        The AUC model has independent teams (§5.2.1).
    resamples : int, default 1000
        B, bootstrap resamples of the teams: 0 gives intervals without the bootstrap over teams; any
        B > 0 gives the exact bootstrap (its B -> infinity limit), for accuracy and AUC alike.
    seed : int or numpy.random.Generator, optional
        Randomness of the AUC table (the replicates of the larger class in
        :func:`benchtrust.sota._auc.auc_pmf`).
    alpha : float, default 0.05
        Intervals have probability 1 - α.
    progress : callable, optional
        ``progress(done, total=None, description=None)``: ``description`` names each step as it starts
        (with ``done`` 0 and no total); within a step of the dependent model, ``done`` of ``total``
        values of the reference count k are finished (:func:`benchtrust.sota._conditional.conditional_cdfs`).
    max_memory : int, default 2e9
        The most bytes the AUC computation may hold at once (its tables, about 32 bytes x tabulated AUCs
        x (n+ n- + 1) while they are built, then the crop levels' prefix sums in bounded blocks; see
        :class:`benchtrust.sota._auc_levels._AucModel`); a board that needs more is refused before the
        tables are computed (:func:`benchtrust._io.check_memory`). Accuracy boards stay within a few
        hundred MB whatever their size: the dependent model runs the values of k in bounded parts.

    Returns
    -------
    LeaderboardResult
        With the file read (``inputs``) and the best teams of the table read (``top_teams``), which its
        text and report section show.

    See Also
    --------
    read_leaderboard : Read a leaderboard's scores from a file or a table (as this function does).
    plot_leaderboard : Draw the result as the paper's Fig. 7a.
    LeaderboardResult : The result: the estimates and the counts of teams.
    SotaEstimate : Each of the three multiplicity-aware estimates.
    best_of : The best of m classifiers whose true accuracies are known.

    References
    ----------
    .. [1] K. Møllersen and E. Holsbø, "Accounting for multiplicity in machine learning benchmark
       performance", arXiv preprint, 2023 (v4, 2024). arXiv:2303.07272v4. §5 (the plug-in and cropping
       set-up); §5.1.1, Fig. 7 and Table 3 (the four approaches, the bootstrap over teams, ρ = 0.6);
       §4.3, Eq. (10)-(12) (the dependence model); §5.2.1, Fig. 12 (AUC).
    .. [2] C. J. Clopper and E. S. Pearson, "The use of confidence or fiducial limits illustrated in the
       case of the binomial", Biometrika 26(4), 404-413, 1934. doi:10.1093/biomet/26.4.404. The interval
       ignoring multiplicity, for accuracy.
    .. [3] P. J. Boland, F. Proschan and Y. L. Tong, "Modelling dependence in simple and indirect majority
       systems", Journal of Applied Probability 26, 81-88, 1989. doi:10.2307/3214318.

    Examples
    --------
    Twenty teams on a test set of 500 items, the best of them lucky:

    >>> scores = [0.862, 0.858, 0.856, 0.854, 0.85, 0.85, 0.848, 0.846, 0.844, 0.84,
    ...           0.838, 0.836, 0.83, 0.828, 0.82, 0.81, 0.8, 0.79, 0.75, 0.7]
    >>> r = leaderboard(scores, test_size=500, direction="higher")
    >>> round(r.plugin.expected_max, 4) > r.observed_max > r.cropped.sota > r.conservative.sota
    True

    The same board as error rates, lower is better: the mirror result.

    >>> e = leaderboard([round(1 - s, 3) for s in scores], test_size=500, direction="lower")
    >>> e.observed_max == round(1 - r.observed_max, 12), round(e.cropped.sota + r.cropped.sota, 12)
    (True, 1.0)
    """
    if metric not in ("accuracy", "auc"):
        raise InputError(f"metric: expected 'accuracy' or 'auc', got {metric!r}")
    lower = check_direction(direction) == "lower"
    auc = metric == "auc"
    rounding = _lattice.check_rounding(rounding)
    infer = isinstance(test_size, str) and test_size == "auto"
    if infer and auc:
        raise InputError("test_size: 'auto' is for accuracy; an AUC's lattice needs n and n+")
    n = 0 if infer else check_count(test_size, "test_size")  # 0: inferred from the scores, below
    alpha = check_probability(alpha, "alpha")
    rho = check_probability(correlation, "correlation", closed=True, upper_open=True)
    resamples = _resamples_count(resamples)
    if auc:
        if positives is None:
            raise InputError("positives: give the number of positive items in the test set for AUC")
        positives = check_count(positives, "positives")
        if positives >= n:
            raise InputError(f"positives: expected fewer than test_size={n}, got {positives}")
    elif positives is not None:
        raise InputError("positives: only for metric='auc'")
    table = _is_table(scores)
    board, read = read_with_table(
        scores if table else _as_table(scores),
        score_column=score_column,
        team_column=team_column,
        classes=classes,
        max_plausible=max_plausible,
        lower_bound=0.5 if auc else None,
        direction=direction,
        listed=table,  # the order of a list of scores says nothing
    )
    values = board.scores
    if values.size < 2:
        raise InputError(
            f"{board.source}: {values.size} usable team{'s' * (values.size != 1)} after the filters "
            f"(excluded: {_describe(board.excluded)}); at least two are needed"
        )
    inferred = _lattice.infer_test_size(values, rounding, board.source, complement=lower) if infer else None
    if inferred is not None:
        n = inferred.test_size
    # scores are multiples of 1/lattice (positives is given for AUC only)
    lattice = n if positives is None else positives * (n - positives)
    step = 1.0 / lattice
    if lower:
        board_values, values = _error_rates_on_lattice(values, lattice, rounding, board.source, n)
    else:
        board_values = values = _lattice.on_lattice(values, lattice, rounding, board.source, test_size=n)
    top = float(values.max())

    def report(step):
        if progress is not None:
            progress(0, None, step)

    model: _Levels
    if auc:
        from benchtrust.sota._auc_levels import _AucModel  # scipy.fft and scipy.interpolate: AUC only

        report("tabulating the AUC distributions")
        model = _AucModel(values, n, positives, alpha, resamples, seed, check_count(max_memory, "max_memory"))
        naive = model.single_interval(top)
        correlation_used = 0.0
    else:
        model = _AccuracyModel(values, n, rho, alpha, resamples, progress)
        naive = clopper_pearson(top, test_size=n, alpha=alpha)
        correlation_used = rho
    top_level = model.levels.size - 1
    report("plug-in")
    plugin = model.estimate(top_level)
    report("cropping")
    # E_s grows with s about as fast as s: the plug-in's excess over θ̂_max is a first guess of top - s.
    crop = _closest_level(
        lambda i: model.plain(i).expected_max - top, model.levels, top - (plugin.expected_max - top)
    )
    cropped = model.estimate(crop)
    report("conservative cropping")
    # Shifting s shifts the best score's distribution about as much: move the crop's upper limit to top.
    # The upper limit is at most top when P_s(best > top) <= α/2; on the probit scale that probability
    # is nearly linear in s.
    conservative = model.estimate(
        _closest_level(
            lambda i: (
                special.ndtri(np.clip(_prob_at_least(model.pooled(i), top + step, step), 1e-300, 1 - 1e-16))
                - special.ndtri(alpha / 2)
            ),
            model.levels,
            model.levels[crop] - (cropped.ci[1] - top),
            below=True,
        )
    )
    back = _in_board_terms if lower else lambda estimate: estimate
    return LeaderboardResult(
        metric=metric,
        test_size=n,
        positives=positives,
        rounding=rounding,
        inferred=inferred,
        scores=board_values,
        excluded=dict(board.excluded),
        observed_max=float(board_values.min()) if lower else top,
        teams_at_max=_count_at_least(values, top, step),
        naive_ci=_flipped(naive) if lower else Interval(float(naive[0]), float(naive[1])),
        teams_in_naive_ci=_count_at_least(values, naive[0], step),
        plugin=back(plugin),
        cropped=back(cropped),
        conservative=back(conservative),
        correlation=correlation_used,
        alpha=alpha,
        bootstrap=model.bootstrap,
        error_bound=model.error_bound(),
        warnings=board.warnings,
        direction=direction,
        top_teams=tuple(
            top_teams(
                read,
                score_column=score_column,
                team_column=team_column,
                classes=classes,
                max_plausible=max_plausible,
                direction=direction,
            )
        ),
        inputs=(os.fspath(scores),) if isinstance(scores, (str, os.PathLike)) else (),
    )


def _error_rates_on_lattice(errors, lattice, rounding, source, test_size):
    """Error rates (or 1 - AUCs) as multiples of 1/lattice, and the accuracies (AUCs) 1 - them, exactly.

    The scores are checked in their own terms (:func:`benchtrust.sota._lattice.on_lattice`, reading
    ``"either"`` as the complement of a shortened accuracy too). Unless they were truncated, each count
    is then chosen on the accuracy's side, from 1 - e written with e's decimals (the accuracy its board
    would show): a score midway between two counts gets the count its accuracy would, so that a board and
    its complement give the mirror result.
    """
    checked = _lattice.on_lattice(errors, lattice, rounding, source, test_size=test_size, complement=True)
    if rounding == "truncate":  # 1 - a truncated error rate is not a shortened accuracy
        counts = lattice - np.rint(checked * lattice)
    else:
        distinct, where = np.unique(errors, return_inverse=True)
        shown = np.array([round(1.0 - e, _lattice.decimals(e)) for e in distinct.tolist()])[where.reshape(-1)]
        accuracies = _lattice.on_lattice(
            shown, lattice, rounding, source, test_size=test_size, complement=True
        )
        counts = np.rint(accuracies * lattice)
    return (lattice - counts) / lattice, counts / lattice


def _flipped(interval):
    """An interval of accuracies as one of error rates: (1 - high, 1 - low)."""
    return Interval(1.0 - float(interval[1]), 1.0 - float(interval[0]))


def _in_board_terms(estimate):
    """An estimate of accuracies (or AUCs) as one of error rates 1 - accuracy: values and interval
    flipped; the counts of teams stay."""
    return dataclasses.replace(
        estimate,
        sota=1.0 - estimate.sota,
        expected_max=1.0 - estimate.expected_max,
        ci=_flipped(estimate.ci),
    )


def _resamples_count(resamples):
    if isinstance(resamples, bool) or not isinstance(resamples, (int, np.integer)) or resamples < 0:
        raise InputError(f"resamples: expected a whole number >= 0, got {resamples!r}")
    return int(resamples)


def _is_table(scores):
    """Whether ``scores`` is a path or a DataFrame (rather than the scores themselves)."""
    return isinstance(scores, (str, os.PathLike)) or type(scores).__name__ == "DataFrame"


def _as_table(scores):
    """A list of scores as a one-column DataFrame, so that it passes the leaderboard's checks."""
    import pandas as pd

    try:
        values = np.asarray(scores, dtype=float).ravel()
    except (TypeError, ValueError):
        raise InputError(f"scores: expected numbers, a file or a table, got {scores!r:.60}") from None
    return pd.DataFrame({"score": values})


def _describe(excluded):
    return ", ".join(f"{count} {reason}" for reason, count in excluded.items())


def _count_at_least(values, bound, step):
    """Teams whose score is at least ``bound``, within a millionth of the lattice step for rounding."""
    return int(np.count_nonzero(values >= bound - step * 1e-6))
