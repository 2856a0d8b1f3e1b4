"""Ranks of several methods over many data sets: the Friedman test and its post-hoc tests (Demšar 2006).

:func:`rank_test` follows J. Demšar, "Statistical comparisons of classifiers over multiple data sets",
JMLR 7 (2006), §3.2.2: rank the methods on every data set, test whether their average ranks differ
(Friedman's χ²_F, corrected for ties as scipy and R compute it, and Iman and Davenport's F_F), then find
which pairs differ: the Nemenyi test over all pairs with its critical difference (CD), Holm's step-down
procedure over all pairs or against a control, the Bonferroni-Dunn test against a control, or the tests
scikit-posthocs offers (Conover-Friedman, Siegel-Castellan, pairwise Wilcoxon signed-rank) with a
correction for multiple comparisons (:mod:`benchtrust.compare._tasks._posthoc`). The groups of methods no
test tells apart are the bars of the critical-difference diagram
(:func:`~benchtrust.compare.plot_critical_difference`). Nemenyi's test reads the range of k standard
normals (:func:`nemenyi`, at the end of the module).
"""

from __future__ import annotations

import dataclasses
import functools
import textwrap
from typing import TYPE_CHECKING, Literal

import numpy as np

from benchtrust._distributions import norm_cdf, norm_ppf, rankdata
from benchtrust._exact import exact_mean
from benchtrust._io import InputError, check_probability
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA, TIMES, WIDTH, aligned, paragraph
from benchtrust.compare._tasks._posthoc import (
    P_ADJUSTS,
    adjust_p_values,
    conover_pairs,
    friedman_statistics,
    wilcoxon_pairs,
)
from benchtrust.compare._tasks._rank_plot import critical_difference_svg
from benchtrust.compare._tasks._ranks_text import (
    PAPER,
    _caveats,
    _group_letters,
    _p_is,
    _p_text,
    _posthoc_words,
    _ranked,
    _yes,
)
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    normalisation_words,
    scores_files,
    scores_words,
)

if TYPE_CHECKING:
    import pandas as pd

    from benchtrust._html import Table

__all__ = ["POSTHOCS", "RankResult", "rank_test"]

_SOURCE = f"{PAPER}, statistical comparisons of classifiers over multiple data sets, §3.2.2"
#: The post-hoc tests :func:`rank_test` offers, in words.
POSTHOCS = {
    "nemenyi": "Nemenyi test",
    "holm": "Holm's step-down procedure",
    "bonferroni-dunn": "Bonferroni-Dunn test",
    "conover": "Conover-Friedman test",
    "siegel": "Siegel-Castellan test",
    "wilcoxon": "pairwise Wilcoxon signed-rank test",
}
#: The post-hoc tests that take any correction of :data:`P_ADJUSTS` (Holm's by default); Holm's and
#: Bonferroni-Dunn's tests are Siegel-Castellan's with Holm's and Bonferroni's correction.
_ADJUSTABLE = ("conover", "siegel", "wilcoxon")
_FIXED_ADJUST = {"nemenyi": None, "holm": "holm", "bonferroni-dunn": "bonferroni"}
#: scikit-posthocs' ``p_adjust="single-step"`` of the Conover-Friedman test: the studentized range, not a
#: correction of the t p-values (:func:`_raw_pairs`).
_SINGLE_STEP = {"single-step": "single-step studentized range"}
_CHI2 = "\N{GREEK SMALL LETTER CHI}\N{SUPERSCRIPT TWO}_F"
#: Most methods whose matrix of p-values the text prints (wider does not fit 100 characters).
_MATRIX_METHODS = 8


@dataclasses.dataclass(frozen=True, eq=False)
class RankResult(Result):
    """Average ranks over data sets, the Friedman test and a post-hoc test (Demšar 2006, §3.2.2).

    Attributes
    ----------
    methods : tuple of str
        The k methods, in the order of :attr:`TaskScores.methods`; every array below follows it.
    tasks : tuple of str
        The N data sets (tasks).
    scores : numpy.ndarray
        Shape (k, N): each method's score on each data set, the mean of its runs there.
    ranks : numpy.ndarray
        Shape (k, N): r_i^j, the rank of method i on data set j, 1 = best in `direction`; tied scores share
        the average of the ranks they span.
    average_ranks : numpy.ndarray
        R_i = (1/N) Σ_j r_i^j.
    friedman : float
        Friedman's statistic corrected for ties, χ²_F = `friedman_uncorrected` / C with
        C = 1 - Σ(t³ - t)/(N k (k² - 1)), t the size of each group of tied methods on a data set: the
        statistic of :func:`scipy.stats.friedmanchisquare`, R's ``friedman.test`` and autorank. NaN when
        there is too little data (:attr:`enough_data`) or every data set ties every method.
    friedman_p_value : float
        P(χ² with k - 1 degrees of freedom >= χ²_F).
    friedman_uncorrected : float
        Demšar's formula, without the correction for ties: 12N / (k(k + 1)) (Σ_i R_i² - k(k + 1)²/4); equal
        to `friedman` when no two methods tie on any data set.
    iman_davenport : float
        F_F = (N - 1) χ²_F / (N(k - 1) - χ²_F) from the corrected χ²_F (infinite when every data set ranks
        the methods alike).
    iman_davenport_p_value : float
        P(F with k - 1 and (k - 1)(N - 1) degrees of freedom >= F_F); the omnibus test's decision uses it.
    standard_error : float
        sqrt(k(k + 1) / (6N)), the standard error of a difference of two average ranks.
    critical_difference : float
        CD = q_α × `standard_error`: average ranks this far apart differ significantly (Nemenyi over all
        pairs; Bonferroni-Dunn against the control). NaN for Holm's procedure, which has no single CD.
    q_alpha : float
        q_α: the studentized range quantile at 1 - α for k groups and infinite degrees of freedom over √2
        (Nemenyi), or the normal quantile at 1 - α/(2(k - 1)) (Bonferroni-Dunn); NaN for Holm.
    z : numpy.ndarray
        Shape (k, k): z_ij = (R_i - R_j) / `standard_error` (positive where row i ranks worse).
    statistic : numpy.ndarray
        Shape (k, k): the post-hoc test's statistic of each pair: `z` for the tests on average ranks
        (Nemenyi, Holm, Bonferroni-Dunn, Siegel-Castellan); Conover's t_ij (positive where row i ranks
        worse) for ``"conover"``; the signed-rank statistic min(W+, W-) (symmetric) for ``"wilcoxon"``.
    p_values : numpy.ndarray
        Shape (k, k), symmetric: the post-hoc test's p-value of each pair, adjusted for the multiple
        comparisons (Nemenyi's from the studentized range; otherwise by `p_adjust`: Holm's, or
        Bonferroni-Dunn's times k - 1, at most 1). NaN on the diagonal and, against a control, for the pairs
        without it.
    different : numpy.ndarray
        Shape (k, k), bool: the pair differs significantly (its p-value <= α).
    groups : tuple of tuple of str
        The largest sets of two or more methods, consecutive in average rank, of which no two differ
        significantly, best first: the bars of the critical-difference diagram. Against a control, the
        control with the methods that do not differ from it.
    posthoc : {"nemenyi", "holm", "bonferroni-dunn", "conover", "siegel", "wilcoxon"}
        The post-hoc test.
    p_adjust : str or None
        The correction of the p-values for multiple comparisons (a key of :data:`P_ADJUSTS`: ``"holm"``,
        ``"bonferroni"``, ...); None for Nemenyi's test, whose p-values come from the studentized range.
    control : str or None
        The method the others are compared with; None for all pairs.
    alpha : float
        α, the significance level of the omnibus test and the family-wise error rate of the post-hoc test.
    direction : {"higher", "lower"}
        Which scores are better; rank 1 goes to the best.
    runs : numpy.ndarray
        Shape (k, N): the runs averaged into each score.
    tied_tasks : int
        The data sets where two or more methods tie.
    normalisation : {"none", "minmax", "reference"}
        How the scores were normalised (:func:`read_task_scores`); ranks do not depend on it.
    normalisation_text : str
        The normalisation in words.

    See Also
    --------
    rank_test : The Friedman test and its post-hoc tests over data sets.
    plot_critical_difference : Draw the critical-difference diagram.
    critical_difference_svg : The critical-difference diagram as SVG text.

    References
    ----------
    .. [1] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.2, Fig. 1-2.
    .. [2] W. J. Conover, Practical Nonparametric Statistics, 3rd ed., Wiley, 1999. §5.8 (the Friedman
       statistic corrected for ties, T1 and T2, and the multiple comparisons of rank sums).
    """

    methods: tuple[str, ...]
    tasks: tuple[str, ...]
    scores: np.ndarray
    ranks: np.ndarray
    average_ranks: np.ndarray
    friedman: float
    friedman_p_value: float
    friedman_uncorrected: float
    iman_davenport: float
    iman_davenport_p_value: float
    standard_error: float
    critical_difference: float
    q_alpha: float
    z: np.ndarray
    statistic: np.ndarray
    p_values: np.ndarray
    different: np.ndarray
    groups: tuple[tuple[str, ...], ...]
    posthoc: str
    p_adjust: str | None
    control: str | None
    alpha: float
    direction: str
    runs: np.ndarray
    tied_tasks: int
    normalisation: str
    normalisation_text: str

    @property
    def enough_data(self) -> bool:
        """At least two methods and two data sets: the least the Friedman test needs."""
        return len(self.methods) >= 2 and len(self.tasks) >= 2

    @property
    def rejected(self) -> bool:
        """The omnibus test rejects equal average ranks: the Iman-Davenport p-value is <= α."""
        return self.enough_data and bool(self.iman_davenport_p_value <= self.alpha)

    @property
    def order(self) -> np.ndarray:
        """The indices of the methods from the best average rank to the worst (ties in input order)."""
        return np.argsort(self.average_ranks, kind="stable")

    @property
    def degrees_of_freedom(self) -> tuple[int, int]:
        """(k - 1, (k - 1)(N - 1)): those of χ²_F (the first) and of F_F (both)."""
        k, n = len(self.methods), len(self.tasks)
        return k - 1, (k - 1) * (n - 1)

    @property
    def test_name(self) -> str:
        """The post-hoc test in words, such as ``Nemenyi test`` or ``Conover-Friedman test (Holm)``."""
        if self.posthoc in _ADJUSTABLE and self.p_adjust is not None:  # rank_test always sets their p_adjust
            return f"{POSTHOCS[self.posthoc]} ({(P_ADJUSTS | _SINGLE_STEP)[self.p_adjust]})"
        return POSTHOCS[self.posthoc]

    @property
    def statistic_name(self) -> str:
        """The name of the post-hoc test's statistic (:attr:`statistic`): ``z``, ``t`` or ``W``."""
        return {"conover": "t", "wilcoxon": "W"}.get(self.posthoc, "z")

    def __repr__(self) -> str:
        ranks = ", ".join(f"{self.methods[i]}: {self.average_ranks[i]:.3f}" for i in self.order)
        return (
            f"RankResult(methods={len(self.methods)}, tasks={len(self.tasks)}, direction={self.direction!r}, "
            f"posthoc={self.posthoc!r}, alpha={self.alpha:g}, p={self.iman_davenport_p_value:.3g}, "
            f"cd={self.critical_difference:.4g}, average_ranks={{{ranks}}})"
        )

    # --- words -----------------------------------------------------------------------------------------

    def _scores_words(self):
        runs = self.runs
        low, high = int(runs.min()), int(runs.max())
        each = f"{high} runs" if low == high else f"{low}-{high} runs"
        return f"each method's score on a data set is the mean of its runs there ({each})"

    def _ties_words(self):
        if not self.tied_tasks:
            return "no two methods tie on any data set"
        return f"tied scores share the average of their ranks (ties on {self.tied_tasks} data sets)"

    def _method_rows(self):
        """Rows of the table of methods, best average rank first."""
        against = self.control is not None
        letters = _group_letters(self)
        rows = []
        for place, i in enumerate(self.order, start=1):
            cells = [
                str(place),
                self.methods[i],
                f"{self.average_ranks[i]:.3f}",
                f"{exact_mean(self.scores[i]):.4f}",
            ]
            if against:
                c = self.methods.index(self.control)
                cells += (
                    ["control", "", ""]
                    if i == c
                    else [
                        self._statistic_text(i, c),
                        _p_text(self.p_values[i, c]),
                        _yes(self.different[i, c]),
                    ]
                )
            else:
                cells.append(letters[i])
            rows.append(tuple(cells))
        return rows

    @property
    def _p_words(self):
        """``adjusted p-values``, or ``p-values`` when they are not adjusted (``p_adjust="none"``)."""
        return "p-values" if self.p_adjust == "none" else "adjusted p-values"

    def _statistic_text(self, i, j):
        """The post-hoc statistic of a pair: ``+1.234`` (z or t), or the signed-rank statistic ``120.5``."""
        value = self.statistic[i, j]
        return f"{value:g}" if self.posthoc == "wilcoxon" else f"{value:+.3f}"

    def _method_columns(self):
        head = ("", "method", "average rank", f"mean {scores_words(self.normalisation)[:-1]}")
        if self.control is not None:
            return (*head, self.statistic_name, self._p_words[:-7], "differs")
        return (*head, "groups")

    def _matrix_rows(self):
        """The adjusted p-values of all pairs as rows, methods best first (numbered as in the table)."""
        order = self.order
        return [
            (f"({p}) {self.methods[i]}", *(_p_text(self.p_values[i, j]) if i != j else "-" for j in order))
            for p, i in enumerate(order, start=1)
        ]

    def _friedman_lines(self):
        """The Friedman and Iman-Davenport tests, a line each."""
        df1, df2 = self.degrees_of_freedom
        ties = f", corrected for ties ({self.friedman_uncorrected:.4f} without)" if self.tied_tasks else ""
        return [
            f"  Friedman {_CHI2} = {self.friedman:.4f} (df {df1}), {_p_is(self.friedman_p_value)}{ties}",
            f"  Iman-Davenport F_F = (N - 1){_CHI2}/(N(k - 1) - {_CHI2}) = {self.iman_davenport:.4f} "
            f"(df {df1}, {df2}), {_p_is(self.iman_davenport_p_value)}",
        ]

    def _adjustable_lines(self, m):
        """How the Conover-Friedman, Siegel-Castellan or Wilcoxon post-hoc test computes its p-values."""
        k, n = len(self.methods), len(self.tasks)
        if self.p_adjust in _SINGLE_STEP:
            return [
                "  Conover-Friedman: t = (S_i - S_j)/sqrt(2(N A - Σ S_j²)/((N - 1)(k - 1))), S: rank sums,",
                f"  A = Σ r²; single-step p-values P(range of {k} standard normals > √2 |t|) (studentized",
                "  range, infinite df, as scikit-posthocs): Tukey's adjustment for all pairs at once",
            ]
        adjusted = (
            f"not adjusted for the {m} tests"
            if self.p_adjust == "none"
            else f"adjusted by {P_ADJUSTS[self.p_adjust]} over {m} tests"
        )
        if self.p_adjust.startswith("fdr_ts"):
            adjusted += f" (valid at {ALPHA} = {self.alpha:g} only)"
        if self.posthoc == "siegel":
            head, last = [], "Siegel-Castellan: two-sided normal p-values of z"
        elif self.posthoc == "conover":
            head = [
                "  Conover-Friedman: t = (S_i - S_j)/sqrt(2(N A - Σ S_j²)/((N - 1)(k - 1))), S: rank sums,"
            ]
            last = f"A = Σ r²; two-sided Student t p-values (df {(n - 1) * (k - 1)})"
        else:
            head = [
                "  Wilcoxon signed-rank test of each pair's scores over the data sets (scipy.stats.wilcoxon:"
            ]
            last = "zero differences dropped, no continuity correction), two-sided"
        # the longest corrections' names wrap
        return [
            *head,
            *textwrap.wrap(
                f"{last}, {adjusted}",
                WIDTH,
                initial_indent="  ",
                subsequent_indent="  ",
                break_on_hyphens=False,
            ),
        ]

    def _test_lines(self):
        """The tests' statistics, one line each."""
        k, n = len(self.methods), len(self.tasks)
        lines = self._friedman_lines()
        if self.posthoc not in ("conover", "wilcoxon"):
            lines.append(
                f"  SE = sqrt(k(k + 1)/(6N)) = sqrt({k} {TIMES} {k + 1}/(6 {TIMES} {n})) = "
                f"{self.standard_error:.4f}; z = (R_i - R_j)/SE"
            )
        m = k - 1 if self.control is not None else k * (k - 1) // 2
        if self.posthoc in _ADJUSTABLE:
            lines += self._adjustable_lines(m)
        elif self.posthoc == "holm":
            lines.append(
                f"  Holm: two-sided normal p-values of z, adjusted by Holm's step-down over {m} tests"
            )
        else:
            quantile = (
                f"studentized range quantile at 1 - {ALPHA}, k groups, over √2"
                if self.posthoc == "nemenyi"
                else f"normal quantile at 1 - {ALPHA}/(2(k - 1))"
            )
            lines += [
                f"  {self.test_name}: CD = q_{ALPHA} {TIMES} SE = {self.q_alpha:.4f} {TIMES} "
                f"{self.standard_error:.4f} = {self.critical_difference:.4f}, {ALPHA} = {self.alpha:g}",
                f"  (q_{ALPHA}: the {quantile})",
            ]
        if self.control is not None and self.posthoc != "wilcoxon":
            lines.append(f"  {self.statistic_name} < 0: ranks better than the control {self.control}")
        return lines

    def _text(self, verdict):
        """What the command prints: the average ranks, the Friedman and post-hoc tests, then the verdict."""
        k, n = len(self.methods), len(self.tasks)
        lines = [
            paragraph(
                f"Ranks of {k} methods over {n} data sets ({PAPER} §3.2.2): {self._scores_words()}; on every "
                f"data set the methods are ranked, 1 = best ({self.direction} is better), and "
                f"{self._ties_words()}; R = the average rank. Normalisation: {self.normalisation_text}."
            )
        ]
        if not self.enough_data:
            return "\n".join([*lines, "", paragraph(verdict)])
        lines += ["", *aligned([self._method_columns(), *self._method_rows()])]
        if self.control is None:
            lines.append("  (methods sharing a letter are not significantly different)")
        lines += ["", *self._test_lines()]
        if self.control is None and k <= _MATRIX_METHODS:
            header = (self._p_words, *(f"({p})" for p in range(1, k + 1)))
            lines += ["", *aligned([header, *self._matrix_rows()])]
        return "\n".join([*lines, "", paragraph(verdict)])

    @property
    def verdict(self) -> str:
        """The result in plain words: whether the ranks differ, which methods do, what stays uncertain."""
        k, n = len(self.methods), len(self.tasks)
        if k < 2:
            return f"One method, {self.methods[0]}: nothing to rank it against."
        if n < 2:
            return (
                f"With one data set there is nothing to test: ranks over data sets need at least two (and "
                f"many more to detect a difference: {PAPER} §3.2.2). On {self.tasks[0]}, the order is "
                f"{_ranked(self)}."
            )
        omnibus = (
            f"F_F = {self.iman_davenport:.3f}, {_p_is(self.iman_davenport_p_value)}; Friedman "
            f"{_CHI2} = {self.friedman:.3f}, {_p_is(self.friedman_p_value)}"
        )
        head = f"With {n} data sets and {k} methods, the Friedman test (Iman-Davenport {omnibus})"
        if np.all(self.ranks == (k + 1) / 2):
            return (
                f"All {k} methods tie on every one of the {n} data sets: their average ranks are equal "
                f"({self.average_ranks[0]:g}) and no method ranks better than another."
            )
        if not self.rejected:
            return (
                f"{head} does not reject that all methods have the same average rank at {ALPHA} = "
                f"{self.alpha:g}: no method can be said to rank better than another. The post-hoc tests "
                f"are not to be read ({PAPER} §3.2.2).{_caveats(self)}"
            )
        return f"{head} rejects equal average ranks at {ALPHA} = {self.alpha:g}. {_posthoc_words(self)}" + (
            _caveats(self)
        )

    # --- the description: text, section, table, JSON ----------------------------------------------------

    def describe(self) -> Description:
        """The average ranks, the Friedman and post-hoc tests, then the verdict (Demšar 2006, §3.2.2); the
        section has the critical-difference diagram."""
        verdict = self.verdict
        enough = self.enough_data
        tables: tuple[Table, ...] = ()
        if enough and self.control is None:
            header = (self._p_words, *(f"({p})" for p in range(1, len(self.methods) + 1)))
            title = f"{self._p_words.capitalize()} of every pair ({self.test_name})"
            tables = ((title, header, self._matrix_rows()),)
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text=self._text(verdict),
            data=self._data(verdict),
            columns=self._method_columns() if enough else (),
            rows=tuple(self._method_rows()) if enough else (),
            frame=self._frame(),
            figure=(lambda: critical_difference_svg(self)) if enough else None,
            assumptions=(
                ("score on a data set", self._scores_words()),
                ("direction", f"{self.direction} is better; rank 1 = best"),
                ("ties", self._ties_words()),
                ("omnibus test", f"Friedman {_CHI2} (corrected for ties) and Iman-Davenport F_F (decides)"),
                (
                    "post-hoc test",
                    self.test_name + ("" if self.control is None else f", control {self.control}"),
                ),
                (ALPHA, f"{self.alpha:g}"),
                ("normalisation", self.normalisation_text),
            ),
            tables=tables,
            notes=tuple(line.strip() for line in self._test_lines()) if enough else (),
            source=_SOURCE,
            inputs=self.inputs,
            analysis="compare rank",
        )

    def _frame(self):
        """The columns of ``to_frame()``, one row per method, best average rank first: ``method``,
        ``average_rank``, ``mean_score`` (mean over data sets of its per-data-set scores) and, against a
        control, the post-hoc statistic (``z``, or ``t`` for Conover's test, ``W`` for Wilcoxon's),
        ``p_value`` (adjusted) and ``different`` from the control."""
        order = self.order
        frame = {
            "method": [self.methods[i] for i in order],
            "average_rank": self.average_ranks[order],
            "mean_score": exact_mean(self.scores, axis=1)[order],
        }
        if self.control is not None:
            c = self.methods.index(self.control)
            frame |= {
                self.statistic_name: self.statistic[order, c],
                "p_value": self.p_values[order, c],
                "different": self.different[order, c],
            }
        return frame

    def pairs_frame(self) -> pd.DataFrame:
        """One row per pair tested (i < j in `methods` order): ``a``, ``b``, ``rank_difference`` (R_a - R_b),
        ``z``, the post-hoc statistic if not z (``t`` for Conover's test, ``W`` for Wilcoxon's), ``p_value``
        (adjusted) and ``different``."""
        import pandas as pd

        a, b = np.nonzero(np.triu(~np.isnan(self.p_values), 1))
        frame = {
            "a": [self.methods[i] for i in a],
            "b": [self.methods[j] for j in b],
            "rank_difference": self.average_ranks[a] - self.average_ranks[b],
            "z": self.z[a, b],
            self.statistic_name: self.statistic[a, b],
            "p_value": self.p_values[a, b],
            "different": self.different[a, b],
        }
        return pd.DataFrame(frame)

    def _data(self, verdict):
        """``to_dict()`` before :func:`~benchtrust._result.jsonable` (None for NaN); matrices as nested
        lists in `methods` order."""
        return {
            "methods": self.methods,
            "tasks": len(self.tasks),
            "direction": self.direction,
            "alpha": self.alpha,
            "posthoc": self.posthoc,
            "p_adjust": self.p_adjust,
            "control": self.control,
            "average_ranks": self.average_ranks,
            "friedman": self.friedman,
            "friedman_p_value": self.friedman_p_value,
            "friedman_uncorrected": self.friedman_uncorrected,
            "iman_davenport": self.iman_davenport,
            "iman_davenport_p_value": self.iman_davenport_p_value,
            "degrees_of_freedom": self.degrees_of_freedom,
            "rejected": self.rejected,
            "standard_error": self.standard_error,
            "critical_difference": self.critical_difference,
            "q_alpha": self.q_alpha,
            "statistic": self.statistic,
            "p_values": self.p_values,
            "different": self.different,
            "groups": self.groups,
            "tied_tasks": self.tied_tasks,
            "normalisation": self.normalisation,
            "verdict": verdict,
        }


# --- computation -------------------------------------------------------------------------------------------


def _task_means(scores):
    """Each method's mean score on each data set, and its runs there; InputError if it has none. The
    means are :func:`~benchtrust._exact.exact_mean`'s, so that the same runs in any order tie exactly."""
    runs = (~np.isnan(scores.scores)).sum(axis=2)
    empty = np.argwhere(runs == 0)
    if empty.size:
        i, j = empty[0]
        raise InputError(
            f"scores: method {scores.methods[i]!r} has no run on data set {scores.tasks[j]!r}; ranks need "
            "a score of every method on every data set: drop the data set or the method"
        )
    return exact_mean(scores.scores, axis=2), runs


def _raw_pairs(posthoc, z, means, p_adjust):
    """The post-hoc statistic of every pair and its two-sided p-value before any correction; for
    Conover-Friedman's ``"single-step"``, P(W > √2 abs(t)), W the range of k standard normals (the studentized
    range with infinite degrees of freedom, as scikit-posthocs computes it, not the (N - 1)(k - 1) of t)."""
    if posthoc == "conover":
        t, p = conover_pairs(means.T)
        if p_adjust in _SINGLE_STEP:
            p = np.where(np.isnan(t), np.nan, range_tail(np.sqrt(2.0) * np.fmax(np.abs(t), 0.0), len(t))[0])
        return t, p
    if posthoc == "wilcoxon":
        return wilcoxon_pairs(means.T)
    return z, 2.0 * norm_cdf(-np.abs(z))


def _posthoc(z, means, alpha, posthoc, p_adjust, control):
    """q_α (NaN but for Nemenyi and Bonferroni-Dunn), the post-hoc statistics and the matrix of adjusted
    p-values (NaN where no pair is tested)."""
    k = len(z)
    p = np.full((k, k), np.nan)
    if posthoc == "nemenyi":
        upper = np.triu_indices(k, 1)
        q, p[upper] = nemenyi(np.abs(z[upper]), k, alpha)
        statistic = z
    else:
        statistic, raw = _raw_pairs(posthoc, z, means, p_adjust)
        if control is None:
            tested = np.triu_indices(k, 1)
        else:
            tested = (np.full(k - 1, control), np.flatnonzero(np.arange(k) != control))
        p[tested] = raw[tested] if p_adjust in _SINGLE_STEP else adjust_p_values(raw[tested], p_adjust, alpha)
        q = float(-norm_ppf(alpha / (2.0 * (k - 1)))) if posthoc == "bonferroni-dunn" else np.nan
    return q, statistic, np.fmin(p, p.T)  # symmetric; NaN where no pair is tested


def _groups(average_ranks, different, control, methods) -> tuple[tuple[str, ...], ...]:
    """The bars of the CD diagram: maximal runs of methods, consecutive in average rank, no two of which
    differ; against a control, the control and the methods not different from it."""
    order = np.argsort(average_ranks, kind="stable")
    if control is not None:
        members = [i for i in order if i == control or not different[i, control]]
        return (tuple(methods[i] for i in members),) if len(members) > 1 else ()
    same = ~different[np.ix_(order, order)]
    k = len(order)
    groups, reach = [], 0
    for start in range(k):  # a few methods; each run grows while every pair in it is alike
        end = start
        while end + 1 < k and same[start : end + 2, start : end + 2].all():
            end += 1
        if end > start and end > reach:
            groups.append(tuple(methods[i] for i in order[start : end + 1]))
            reach = end
    return tuple(groups)


def _adjustment(posthoc, p_adjust):
    """The checked correction for multiple comparisons: Holm's by default for the adjustable tests, the
    test's own for the others (which refuse another)."""
    if posthoc in _ADJUSTABLE:
        if p_adjust is None:
            return "holm"
        if p_adjust in _SINGLE_STEP and posthoc != "conover":
            raise InputError(
                f"p_adjust: 'single-step' is the Conover-Friedman test's, not the {POSTHOCS[posthoc]}'s"
            )
        if p_adjust not in P_ADJUSTS | _SINGLE_STEP:
            choices = ", ".join(map(repr, P_ADJUSTS | _SINGLE_STEP))
            raise InputError(f"p_adjust: expected one of {choices}, got {p_adjust!r}")
        return p_adjust
    own = _FIXED_ADJUST[posthoc]
    if p_adjust is not None and p_adjust != own:
        raise InputError(
            f"p_adjust: the {POSTHOCS[posthoc]} has its own correction ({own or 'the studentized range'}); "
            "for another, use posthoc='siegel' (the same z of average ranks), 'conover' or 'wilcoxon'"
        )
    return own


def _choices(scores, alpha, posthoc, p_adjust, control):
    """The checked arguments of :func:`rank_test`: alpha, the correction and the control's index."""
    check_task_scores(scores)
    alpha = check_probability(alpha, "alpha")
    if posthoc not in POSTHOCS:
        raise InputError(f"posthoc: expected one of {', '.join(map(repr, POSTHOCS))}, got {posthoc!r}")
    p_adjust = _adjustment(posthoc, p_adjust)
    if control is None:
        if posthoc == "bonferroni-dunn":
            raise InputError(
                "control: the Bonferroni-Dunn test compares every method with a control; name the control "
                "method, or use posthoc='nemenyi' or 'holm' for all pairs"
            )
        return alpha, p_adjust, None
    if control not in scores.methods:
        raise InputError(f"control: expected one of the methods {list(scores.methods)}, got {control!r}")
    if p_adjust in _SINGLE_STEP:
        raise InputError(
            "p_adjust: 'single-step' (the studentized range) compares all pairs, not with a control"
        )
    if posthoc == "nemenyi":
        raise InputError(
            "posthoc: the Nemenyi test compares all pairs; against the control "
            f"{control!r} use posthoc='holm' (more powerful) or 'bonferroni-dunn' ({PAPER} §3.2.2)"
        )
    return alpha, p_adjust, scores.methods.index(control)


def rank_test(
    scores: TaskScores,
    *,
    alpha: float = 0.05,
    posthoc: Literal["nemenyi", "holm", "bonferroni-dunn", "conover", "siegel", "wilcoxon"] = "nemenyi",
    p_adjust: str | None = None,
    control: str | None = None,
) -> RankResult:
    """Rank methods over data sets: the Friedman test, then a post-hoc test such as Nemenyi's (Demšar 2006).

    Following Demšar (2006), §3.2.2, for k methods on N data sets:

    * each method's score on a data set is the mean of its runs there (so a data set counts once, however
      many runs it has), its sum correctly rounded (:func:`math.fsum`), so that it depends on the runs,
      not on their order: two methods with the same runs in another order tie exactly;
      :func:`read_task_scores` has already refused a method without any run on a data set;
    * on every data set the methods are ranked, r_i^j = 1 for the best score in the scores' direction;
      equal means tie exactly (no tolerance: round the scores first to count near-equal ones as ties) and
      share the average of the ranks they span; R_i = (1/N) Σ_j r_i^j is the average rank;
    * Friedman's statistic χ²_F = 12N / (k(k + 1)) (Σ_i R_i² - k(k + 1)²/4) / C, corrected for ties by
      C = 1 - Σ(t³ - t)/(N k (k² - 1)), t the size of each group of ties (Conover 1999, §5.8, T1: the
      statistic of :func:`scipy.stats.friedmanchisquare`, R's ``friedman.test`` and autorank; Demšar's
      formula omits C, and is kept as ``friedman_uncorrected``), χ² with k - 1 degrees of freedom under
      equal ranks, and Iman and Davenport's F_F = (N - 1) χ²_F / (N(k - 1) - χ²_F) (Conover's T2), F with
      k - 1 and (k - 1)(N - 1) degrees of freedom, which Demšar recommends as less conservative: its
      p-value decides;
    * the post-hoc test compares average ranks through z = (R_i - R_j) / SE, SE = sqrt(k(k + 1) / (6N)):

      - ``"nemenyi"``: all pairs; two methods differ when abs(R_i - R_j) >= CD = q_α SE, q_α the quantile
        at 1 - α of the studentized range for k groups and infinite degrees of freedom (the range of k
        standard normals) over √2 (Demšar's Table 5); the p-value of a pair is the probability that the
        range exceeds √2 abs(z). Both are computed by quadrature: they agree with
        :data:`scipy.stats.studentized_range` (the p-values to 1e-12), faster;
      - ``"holm"``: two-sided normal p-values of z, adjusted by Holm's step-down procedure
        (:func:`holm`) over the k(k - 1)/2 pairs, or over the k - 1 comparisons with `control`;
      - ``"bonferroni-dunn"``: against `control`, CD = q_α SE with q_α the normal quantile at
        1 - α/(2(k - 1)); p-values times k - 1;

    * or, as scikit-posthocs computes them (the p-values equal its ``posthoc_*`` functions' to 1e-13 on the
      UCI data), corrected by `p_adjust` (Holm's by default) over the pairs, or the comparisons with
      `control`:

      - ``"siegel"``: Siegel and Castellan's test, the two-sided normal p-values of z (``"holm"`` and
        ``"bonferroni-dunn"`` are this test with Holm's and Bonferroni's corrections);
      - ``"conover"``: Conover's test on the rank sums S_j, t_ij = (S_i - S_j) / sqrt(2(N A - Σ S_j²) /
        ((N - 1)(k - 1))) with A = Σ r², two-sided Student t with (N - 1)(k - 1) degrees of freedom
        (Conover 1999, §5.8);
      - ``"wilcoxon"``: the Wilcoxon signed-rank test of each pair's scores over the data sets
        (as :func:`scipy.stats.wilcoxon` with scikit-posthocs' defaults: zero differences dropped, no
        continuity correction; the normal approximation beyond 50 data sets, or 13 when differences tie
        or are zero, else the exact distribution: :func:`wilcoxon_pairs`). It compares two methods
        on their own scores, not through the ranks of all k: the answer for a pair does not change when
        other methods are added or dropped, which Benavoli et al. (2016) recommend over the mean-rank
        tests (Nemenyi, Holm, Siegel-Castellan, Conover).

    The post-hoc tests are computed even when the Friedman test does not reject; then, as Demšar says, they
    are not to be read, and the verdict says so. Fewer than two methods or data sets leave nothing to test:
    the statistics are NaN and the verdict says so.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`: the runs of every method on every data set (task).
    alpha : float, default 0.05
        α, the level of the Friedman test and the family-wise error rate of the post-hoc test.
    posthoc : {"nemenyi", "holm", "bonferroni-dunn", "conover", "siegel", "wilcoxon"}, default "nemenyi"
        The post-hoc test; ``"bonferroni-dunn"`` needs a `control`, ``"nemenyi"`` takes none.
    p_adjust : str, optional
        The correction for multiple comparisons of ``"conover"``, ``"siegel"`` and ``"wilcoxon"``, named as
        statsmodels' ``multipletests`` (:func:`adjust_p_values`): ``"holm"`` (the default),
        ``"bonferroni"``, ``"sidak"``, ``"holm-sidak"``, ``"simes-hochberg"``, ``"hommel"``, ``"fdr_bh"``,
        ``"fdr_by"``, ``"fdr_tsbh"``, ``"fdr_tsbky"`` (the two-stage FDR procedures: their adjusted p-values
        hold at `alpha` only) or ``"none"``; and, for ``"conover"`` over all pairs, scikit-posthocs'
        ``"single-step"``: P(W > √2 abs(t)), W the range of k standard normals (Tukey's single-step method
        on Conover's t, with infinite degrees of freedom as scikit-posthocs: too small for few data sets).
        The other tests have their own.
    control : str, optional
        A method to compare every other one with (a baseline, or a new method), instead of all pairs.

    Returns
    -------
    RankResult

    See Also
    --------
    RankResult : Average ranks, the Friedman test and a post-hoc test.
    plot_critical_difference : Draw the critical-difference diagram.
    critical_difference_svg : The critical-difference diagram as SVG text.
    friedman_datasets : The Friedman test over one score per data set.
    holm : Holm's step-down correction of p-values.

    References
    ----------
    .. [1] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.2 (the Friedman test,
       Iman and Davenport's F_F, the Nemenyi, Holm and Bonferroni-Dunn post-hoc tests), Fig. 1-2
       (critical-difference diagrams).
    .. [2] Sture Holm, "A simple sequentially rejective multiple test procedure", Scandinavian Journal of
       Statistics 6(2), 65-70, 1979. https://www.jstor.org/stable/4615733.
    .. [3] W. J. Conover, Practical Nonparametric Statistics, 3rd ed., Wiley, 1999. §5.8 (T1, T2 and the
       multiple comparisons of rank sums).
    .. [4] Sidney Siegel and N. John Castellan Jr., Nonparametric Statistics for the Behavioral Sciences,
       2nd ed., McGraw-Hill, 1988. §7.2.
    .. [5] Alessio Benavoli, Giorgio Corani and Francesca Mangili, "Should we really use post-hoc tests based
       on mean-ranks?", Journal of Machine Learning Research 17(5), 1-10, 2016.
       https://jmlr.org/papers/v17/benavoli16a.html.

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> uci = bundled_task_scores("uci")
    >>> result = rank_test(uci)
    >>> result.to_frame().round(4)
      method  average_rank  mean_score
    0   aode        2.4444     80.6389
    1    hnb        2.7037     81.0775
    2  j48gr        2.9167     79.7952
    3    j48        3.2500     79.6538
    4    nbc        3.6852     78.7531
    >>> round(result.critical_difference, 4), result.rejected
    (0.83, True)
    >>> result.groups
    (('aode', 'hnb', 'j48gr', 'j48'), ('j48gr', 'j48', 'nbc'))
    >>> holm_vs_aode = rank_test(uci, posthoc="holm", control="aode")
    >>> holm_vs_aode.groups
    (('aode', 'hnb', 'j48gr'),)
    >>> round(result.friedman, 4), round(result.friedman_uncorrected, 4)
    (20.8405, 20.2037)
    >>> wilcoxon = rank_test(uci, posthoc="wilcoxon", p_adjust="holm")
    >>> wilcoxon.groups
    (('aode', 'hnb', 'j48gr'), ('j48', 'nbc'))
    """
    alpha, p_adjust, c = _choices(scores, alpha, posthoc, p_adjust, control)
    means, runs = _task_means(scores)
    k, n = means.shape
    ranks = rankdata(-means if scores.direction == "higher" else means, axis=0)
    average = ranks.mean(axis=1)
    tied = int((np.diff(np.sort(means, axis=0), axis=0) == 0).any(axis=0).sum())

    chi2 = p_chi2 = uncorrected = f_f = p_f = se = q = cd = np.nan
    z = statistic = p = np.full((k, k), np.nan)
    if k >= 2 and n >= 2:
        chi2, p_chi2, f_f, p_f = friedman_statistics(means.T)
        uncorrected = 12.0 * n / (k * (k + 1)) * float(np.square(average - (k + 1) / 2.0).sum())
        se = float(np.sqrt(k * (k + 1) / (6.0 * n)))
        z = (average[:, None] - average[None, :]) / se
        q, statistic, p = _posthoc(z, means, alpha, posthoc, p_adjust, c)
        cd = q * se
    different = np.nan_to_num(p, nan=1.0) <= alpha
    return RankResult(
        methods=scores.methods,
        tasks=scores.tasks,
        scores=means,
        ranks=ranks,
        average_ranks=average,
        friedman=float(chi2),
        friedman_p_value=float(p_chi2),
        friedman_uncorrected=float(uncorrected),
        iman_davenport=float(f_f),
        iman_davenport_p_value=float(p_f),
        standard_error=float(se),
        critical_difference=float(cd),
        q_alpha=float(q),
        z=z,
        statistic=statistic,
        p_values=p,
        different=different,
        groups=_groups(average, different, c, scores.methods) if k >= 2 and n >= 2 else (),
        posthoc=posthoc,
        p_adjust=p_adjust,
        control=control,
        alpha=alpha,
        direction=scores.direction,
        runs=runs,
        tied_tasks=tied,
        normalisation=scores.normalisation,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        inputs=scores_files(scores),
    )


# --- The range of k independent standard normals (the studentized range with infinite degrees of freedom)
# for Nemenyi's test, by quadrature: it agrees with scipy.stats.studentized_range (p-values to 1e-12) and is
# much faster, as the test computes it for every pair at once.

#: Step and half-width of the trapezoid rule over z for the studentized range (error about 1e-14).
_STEP, _REACH = 0.05, 9.0


@functools.cache
def _range_grid():
    """The nodes z of the trapezoid rule for the studentized range, with Φ(z) and φ(z)."""
    z = np.arange(-_REACH, _REACH + _STEP / 2, _STEP)
    return z, norm_cdf(z), np.exp(-0.5 * z * z) / np.sqrt(2.0 * np.pi)


def range_tail(w, k):
    """P(W > w) and the density of W at w, for W the range of k independent standard normals: the
    studentized range with infinite degrees of freedom (Nemenyi's test; Demšar 2006, §3.2.2).

    Given the largest of the k at z, W <= w when the other k - 1 lie in (z - w, z], so
    P(W > w) = k ∫ φ(z) Φ(z)^(k-1) [1 - (1 - Φ(z - w)/Φ(z))^(k-1)] dz (as k ∫ φ Φ^(k-1) dz = 1, written
    with expm1 and log1p to keep small p-values accurate) and its density is
    k(k - 1) ∫ φ(z) φ(z - w) (Φ(z) - Φ(z - w))^(k-2) dz. The trapezoid rule on z in [-9, 9] with step
    0.05 computes both to about 1e-14 (the integrands are smooth and negligible beyond), vectorised over w.
    """
    z, cdf, pdf = _range_grid()
    w = np.asarray(w, dtype=float)[..., None]
    low = norm_cdf(z - w)
    with np.errstate(divide="ignore", invalid="ignore"):
        inside = -np.expm1((k - 1) * np.log1p(-low / cdf))
        tail = k * _STEP * (pdf * cdf ** (k - 1) * np.nan_to_num(inside, nan=1.0)).sum(axis=-1)
    density = k * (k - 1) * _STEP * (pdf * np.exp(-0.5 * (z - w) ** 2) * (cdf - low) ** (k - 2)).sum(axis=-1)
    return tail, density / np.sqrt(2.0 * np.pi)


def range_quantile(alpha, k):
    """The w with P(W > w) = α, W the range of k standard normals: Newton's method on log P(W > w), from
    the Bonferroni bound √2 z_(1 - α/(k(k - 1))) (each of the k(k - 1)/2 differences exceeds w with
    probability 2Φ(-w/√2))."""
    w = -np.sqrt(2.0) * norm_ppf(alpha / (k * (k - 1)))
    for _ in range(50):  # converges in under 12 steps for k <= 500 and 1e-8 <= α <= 0.999
        tail, density = range_tail(w, k)
        step = (np.log(tail) - np.log(alpha)) * tail / density
        w += step
        if abs(step) <= 1e-13 * w:
            break
    return float(w)


def nemenyi(absolute_z, k, alpha):
    """Nemenyi's q_α and the p-values of |z| (Demšar 2006, §3.2.2): q_α = the studentized range's
    quantile at 1 - α over √2, and p = P(W > √2 |z|)."""
    return range_quantile(alpha, k) / np.sqrt(2.0), range_tail(np.sqrt(2.0) * absolute_z, k)[0]
