"""autorank's automatic path (Herbold 2020): check the assumptions, then run the test they allow.

:func:`automatic_test` reduces each method's runs on a data set to their mean (as :func:`rank_test` does) and
then follows autorank's documented flow chart with autorank's defaults (frequentist approach, α = 0.05):

* normality of each method's scores over the data sets, Shapiro-Wilk at α/k (Bonferroni);
* equal variances, Bartlett's test if all are normal, else Levene's (median-centred, as scipy's default);
* two methods: the paired t-test if both are normal, else Wilcoxon's signed-rank test (one-sided, in the
  direction of the better mean rank, as autorank reports it);
* more methods: the repeated-measures ANOVA with Tukey's HSD if all are normal and homoscedastic, else the
  Friedman test with the Nemenyi test (:func:`rank_test`, whose Friedman statistic is the tie-corrected one
  autorank reports through scipy);
* the central tendency, spread and effect size of each method: mean, standard deviation and Cohen's d on
  the parametric path; median, MAD and Akinshin's γ on the other; against autorank's reference, the first
  row of its table (the method with the worst mean rank).
"""

from __future__ import annotations

import dataclasses
import textwrap
from typing import Literal

import numpy as np

from benchtrust import _distributions as dist
from benchtrust._io import InputError, check_probability
from benchtrust._result import Description, Result
from benchtrust._words import ALPHA, GAMMA, WIDTH, aligned, listed, paragraph
from benchtrust.compare._tasks._automatic_stats import (
    EFFECT_NAMES,
    EFFECTS,
    magnitude,
    median_absolute_deviation,
    repeated_measures_anova,
    studentized_range_quantile,
    studentized_range_tail,
)
from benchtrust.compare._tasks._rank_plot import critical_difference_svg
from benchtrust.compare._tasks._ranks import RankResult, _groups, rank_test
from benchtrust.compare._tasks._ranks_text import _p_is, _p_text
from benchtrust.compare._tasks._scores import TASKS_QUESTION, TaskScores, normalisation_words, scores_files

__all__ = ["AutomaticResult", "automatic_test"]

_PAPER = "Herbold 2020"
_SOURCE = (
    "Herbold 2020, autorank: a Python package for automated ranking of classifiers, JOSS 5(48) 2173 (the "
    "flow chart); Demšar 2006 §3.2.2 (Friedman, Nemenyi); Tukey 1949 (HSD); Akinshin 2020 ("
    f"{GAMMA})"
)
_FORCE_MODES = (None, "parametric", "nonparametric")
_OMNIBUS = {
    "ttest": "paired t-test",
    "wilcoxon": "Wilcoxon's signed-rank test",
    "anova": "repeated-measures ANOVA",
    "friedman": "Friedman test",
}
_POSTHOC = {"tukeyhsd": "Tukey's HSD", "nemenyi": "the Nemenyi test"}
#: autorank's fewest data sets (rows): "The data must have at least five measurements".
_FEWEST = 5


@dataclasses.dataclass(frozen=True, eq=False)
class AutomaticResult(Result):
    """The assumption checks, the test they chose, its post-hoc decisions and the effect sizes (autorank).

    Attributes
    ----------
    methods : tuple of str
        The k methods; every array below follows their order.
    tasks : tuple of str
        The N data sets.
    scores : numpy.ndarray
        Shape (k, N): each method's mean score on each data set.
    shapiro_p_values : numpy.ndarray
        The Shapiro-Wilk p-value of each method's N scores.
    alpha_normality : float
        α/k: a method is normal when its Shapiro-Wilk p-value is above it (Bonferroni).
    all_normal : bool
        Every method is normal.
    homogeneity_test : {"bartlett", "levene"}
        Bartlett's test when all are normal, else Levene's.
    homogeneity_p_value : float
        Its p-value.
    homoscedastic : bool
        The p-value is above α.
    parametric : bool
        The path taken: t-test or ANOVA + Tukey's HSD (True), Wilcoxon or Friedman + Nemenyi (False).
    omnibus : {"ttest", "wilcoxon", "anova", "friedman"}
        The test of equal central tendencies.
    statistic : float
        Its statistic: t, Wilcoxon's W, F or Friedman's χ² (tie-corrected).
    p_value : float
        Its p-value (Wilcoxon one-sided, the others two-sided, as autorank reports them).
    posthoc : {"tukeyhsd", "nemenyi"} or None
        The post-hoc test (None for two methods).
    posthoc_p_values : numpy.ndarray
        Shape (k, k): the post-hoc p-value of every pair (NaN on the diagonal and for two methods).
    different : numpy.ndarray
        Shape (k, k), bool: the pair differs significantly at α.
    critical_difference : float
        Nemenyi's CD on the Friedman path; Tukey's HSD (the least significant difference of two means) on
        the ANOVA path; NaN for two methods.
    groups : tuple of tuple of str
        The largest sets of methods, consecutive in mean rank (Friedman) or mean (ANOVA), no two of which
        differ significantly, best first.
    mean_ranks : numpy.ndarray
        The average rank of each method, 1 = best (autorank's ``meanrank``).
    centre, spread : numpy.ndarray
        Mean and standard deviation (parametric) or median and MAD, the median of abs(x - median) (not).
    ci_low, ci_high : numpy.ndarray
        On the ANOVA path, centre ± HSD/2 (two methods whose intervals do not overlap differ); on the t-test
        path, the mean ± t_(1 - α/4, N - 1) SD/√N; when not all methods are normal (the rank paths),
        autorank's interval of the median, two of the sorted scores (:func:`_median_interval`).
    effect_size : {"cohen_d", "cliff_delta", "akinshin_gamma"}
        The effect size: autorank's default is Cohen's d on the parametric path and Akinshin's γ on the other.
    reference : str
        The method the effect sizes are measured against: autorank's first row, the worst mean rank.
    effects : numpy.ndarray
        The effect size of `reference` against each method, as autorank signs it: reference minus method
        (0 for the reference itself), so negative where the method scores higher.
    magnitudes : tuple of str
        autorank's words for each abs(effect): negligible, small, medium or large.
    ranks : RankResult
        :func:`rank_test` on the same scores: the mean ranks and, on the Friedman path, the test and the
        critical-difference diagram.
    alpha : float
        α, the family-wise level.
    force_mode : {"parametric", "nonparametric"} or None
        autorank's ``force_mode``: the path chosen whatever the checks say.
    direction : {"higher", "lower"}
        Which scores are better (autorank's ``order``: "descending" for higher, "ascending" for lower).
    normalisation_text : str
        How the scores were normalised, in words.

    See Also
    --------
    automatic_test : Run autorank's automatic path.
    rank_test : The Friedman test and its post-hoc tests.

    References
    ----------
    .. [1] Steffen Herbold, "Autorank: a Python package for automated ranking of classifiers", Journal of Open
       Source Software 5(48), 2173, 2020. doi:10.21105/joss.02173.
    .. [2] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.2.
    """

    methods: tuple[str, ...]
    tasks: tuple[str, ...]
    scores: np.ndarray
    shapiro_p_values: np.ndarray
    alpha_normality: float
    all_normal: bool
    homogeneity_test: str
    homogeneity_p_value: float
    homoscedastic: bool
    parametric: bool
    omnibus: str
    statistic: float
    p_value: float
    posthoc: str | None
    posthoc_p_values: np.ndarray
    different: np.ndarray
    critical_difference: float
    groups: tuple[tuple[str, ...], ...]
    mean_ranks: np.ndarray
    centre: np.ndarray
    spread: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    effect_size: str
    reference: str
    effects: np.ndarray
    magnitudes: tuple[str, ...]
    ranks: RankResult
    alpha: float
    force_mode: str | None
    direction: str
    normalisation_text: str

    @property
    def rejected(self) -> bool:
        """The omnibus test rejects equal central tendencies: its p-value is below α (autorank's rule)."""
        return bool(self.p_value < self.alpha)

    @property
    def order(self) -> np.ndarray:
        """The methods from the best to the worst: by mean rank (ties in input order)."""
        return np.argsort(self.mean_ranks, kind="stable")

    def __repr__(self) -> str:
        return (
            f"AutomaticResult(methods={len(self.methods)}, tasks={len(self.tasks)}, "
            f"omnibus={self.omnibus!r}, posthoc={self.posthoc!r}, p={self.p_value:.3g}, "
            f"effect_size={self.effect_size!r})"
        )

    # --- words -----------------------------------------------------------------------------------------

    @property
    def _centre_words(self):
        return ("mean", "SD") if self.parametric else ("median", "MAD")

    def _path_words(self):
        """Why this path, in words."""
        if self.force_mode is not None:
            return f"forced {self.force_mode} (force_mode), whatever the checks say"
        if len(self.methods) == 2:
            return "both methods are normal" if self.all_normal else "not both methods are normal"
        if self.parametric:
            return "all methods are normal and their variances equal"
        if not self.all_normal:
            return "not all methods are normal"
        return "the variances are not equal"

    def _test_name(self):
        name = _OMNIBUS[self.omnibus]
        return name if self.posthoc is None else f"{name} + {_POSTHOC[self.posthoc].removeprefix('the ')}"

    def _check_lines(self):
        k = len(self.methods)
        normal = [self.methods[i] for i in range(k) if self.shapiro_p_values[i] > self.alpha_normality]
        shapiro = ", ".join(
            f"{self.methods[i]} {_p_text(self.shapiro_p_values[i])}" for i in range(len(self.methods))
        )
        homogeneity = "Bartlett" if self.homogeneity_test == "bartlett" else "Levene"
        return [
            *textwrap.wrap(
                f"  Shapiro-Wilk at {ALPHA}/k = {self.alpha_normality:.4g}: p = {shapiro}",
                width=WIDTH,
                subsequent_indent="    ",
            ),
            f"    normal: {listed(normal) if normal else 'none'}",
            f"  {homogeneity}'s test of equal variances: {_p_is(self.homogeneity_p_value)}, "
            f"{'homoscedastic' if self.homoscedastic else 'heteroscedastic'}",
            f"  path: {self._test_name()} ({self._path_words()})",
        ]

    def _columns(self):
        centre, spread = self._centre_words
        ci = () if np.isnan(self.ci_low).all() else ("interval",)
        groups = ("groups",) if self.posthoc is not None else ()
        return ("", "method", "mean rank", centre, spread, *ci, EFFECT_NAMES[self.effect_size], "magnitude",
                *groups)  # fmt: skip

    def _rows(self):
        from benchtrust.compare._tasks._ranks_text import _group_letters

        letters = _group_letters(self) if self.posthoc is not None else None
        with_ci = not np.isnan(self.ci_low).all()
        rows = []
        for place, i in enumerate(self.order, start=1):
            cells = [str(place), self.methods[i], f"{self.mean_ranks[i]:.3f}"]
            cells += [f"{self.centre[i]:.4f}", f"{self.spread[i]:.4f}"]
            if with_ci:
                cells.append(f"[{self.ci_low[i]:.4f}, {self.ci_high[i]:.4f}]")
            cells += [f"{self.effects[i]:+.3f}", self.magnitudes[i]]
            if letters is not None:
                cells.append(letters[i])
            rows.append(tuple(cells))
        return rows

    def _omnibus_line(self):
        k, n = len(self.methods), len(self.tasks)
        symbol = {"ttest": "t", "wilcoxon": "W", "anova": "F", "friedman": "χ²"}[self.omnibus]
        df = {"ttest": f"df {n - 1}", "wilcoxon": "one-sided", "anova": f"df {k - 1}, {(k - 1) * (n - 1)}"}
        return (
            f"  {_OMNIBUS[self.omnibus]}: {symbol} = {self.statistic:.4f} "
            f"({df.get(self.omnibus, f'df {k - 1}, tie-corrected')}), {_p_is(self.p_value)}"
        )

    def _posthoc_line(self):
        if self.posthoc == "nemenyi":
            return (
                f"  Nemenyi test: CD = {self.critical_difference:.4f} (mean ranks), {ALPHA} = {self.alpha:g}"
            )
        if self.posthoc == "tukeyhsd":
            return (
                f"  Tukey's HSD = {self.critical_difference:.4f} (means; interval = mean ± HSD/2), "
                f"{ALPHA} = {self.alpha:g}"
            )
        return None

    def _effect_lines(self):
        return [
            f"  {EFFECT_NAMES[self.effect_size]}: {self.reference} (autorank's reference, its first row) "
            "minus each method,",
            "  over their pooled spread; negative: the method scores higher",
        ]

    def _text(self, verdict):
        k, n = len(self.methods), len(self.tasks)
        lines = [
            paragraph(
                f"autorank's automatic path ({_PAPER}) for {k} methods over {n} data sets: each method's "
                f"score on a data set is the mean of its runs there; {self.direction} is better; the "
                f"assumption checks choose the test. Normalisation: {self.normalisation_text}."
            ),
            "",
            *self._check_lines(),
            "",
            *aligned([self._columns(), *self._rows()]),
        ]
        if self.posthoc is not None:
            lines.append("  (methods sharing a letter are not significantly different)")
        lines += ["", self._omnibus_line()]
        if self.posthoc is not None:
            lines.append(self._posthoc_line())
        if not self.all_normal and self.posthoc != "tukeyhsd":
            low, high, z = _median_ranks(len(self.methods), len(self.tasks), self.alpha)
            lines += [
                f"  interval: the median's, sorted values {low + 1} and {high + 1} of {len(self.tasks)} "
                "(autorank's rule: 0-based ranks",
                "  round(N/2 - z sqrt(N/2)) and round(1 + N/2 + z sqrt(N/2)), "
                f"z = Φ⁻¹(1 - {ALPHA}/(2k)) = {z:.4f})",
            ]
        lines += [*self._effect_lines(), "", paragraph(verdict)]
        return "\n".join(lines)

    @property
    def verdict(self) -> str:
        """The result in plain words: the path and why, the omnibus test, the post-hoc decisions."""
        k, n = len(self.methods), len(self.tasks)
        head = (
            f"With {n} data sets and {k} methods, autorank's checks choose the {self._test_name()} "
            f"({self._path_words()})."
        )
        best = self.methods[self.order[0]]
        if not self.rejected:
            return (
                f"{head} It does not reject equal central tendencies at {ALPHA} = {self.alpha:g} "
                f"({_p_is(self.p_value)}): no method is shown better than another."
            )
        said = (
            f"{head} It rejects equal central tendencies at {ALPHA} = {self.alpha:g} ({_p_is(self.p_value)})"
        )
        if self.posthoc is None:
            worst = self.methods[self.order[1]]
            return f"{said}: {best} is better than {worst}."
        alike = [group for group in self.groups if len(group) > 1]
        if alike and len(alike[0]) == k:
            return f"{said}, but by {_POSTHOC[self.posthoc]} no two methods differ significantly."
        found = "every pair differs"
        if alike:
            found = (
                f"no significant difference within {'; '.join('{' + ', '.join(g) + '}' for g in alike)}; all "
            )
            found += "other pairs differ"
        return f"{said}. By {_POSTHOC[self.posthoc]}: {found}. Best mean rank: {best}."

    def to_latex(self, *, decimal_places: int = 3, label: str = "tbl:stat_results") -> str:
        """The table a paper prints, as LaTeX (booktabs): one row per method, best first, with its mean rank,
        central tendency, spread, interval (where computed), effect size and magnitude, and the test in the
        caption."""
        f = f"{{:.{decimal_places}f}}"
        centre, spread = ("M", "SD") if self.parametric else ("MED", "MAD")
        symbol = {"cohen_d": "$d$", "cliff_delta": r"$\delta$", "akinshin_gamma": r"$\gamma$"}[
            self.effect_size
        ]
        with_ci = not np.isnan(self.ci_low).all()
        head = ["", "MR", centre, spread, *(["CI"] if with_ci else []), symbol, "Magnitude"]
        body = []
        for i in self.order:
            cells = [_latex_escape(self.methods[i]), f.format(self.mean_ranks[i])]
            cells += [f.format(self.centre[i]), f.format(self.spread[i])]
            if with_ci:
                cells.append(f"[{f.format(self.ci_low[i])}, {f.format(self.ci_high[i])}]")
            cells += [f.format(self.effects[i]), self.magnitudes[i]]
            body.append(" & ".join(cells) + r" \\")
        smallest = 10.0**-decimal_places
        p = (
            f"p < {smallest:.{decimal_places}f}"
            if self.p_value < smallest
            else f"p = {f.format(self.p_value)}"
        )
        test = self._test_name()
        caption = (
            f"{_latex_escape(test[0].upper() + test[1:])}, ${p}$, $\\alpha = {self.alpha:g}$; {symbol} of "
            f"{_latex_escape(self.reference)} against each method."
        )
        columns = "l" + "r" * (len(head) - 2) + "l"
        return "\n".join(
            [
                r"\begin{table}[h]",
                r"\centering",
                rf"\begin{{tabular}}{{{columns}}}",
                r"\toprule",
                " & ".join(head) + r" \\",
                r"\midrule",
                *body,
                r"\bottomrule",
                r"\end{tabular}",
                rf"\caption{{{caption}}}",
                rf"\label{{{label}}}",
                r"\end{table}",
                "",
            ]
        )

    def describe(self) -> Description:
        """The checks that chose the path, the omnibus and post-hoc tests and the effect sizes, then the
        verdict (autorank's workflow, Herbold 2020); the diagram with the Friedman test."""
        verdict = self.verdict
        notes = [line.strip() for line in self._check_lines()]
        notes += [self._omnibus_line().strip()]
        if self.posthoc is not None:
            notes.append(self._posthoc_line().strip())
        notes.append(" ".join(line.strip() for line in self._effect_lines()))
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text=self._text(verdict),
            data=self._data(verdict),
            columns=self._columns(),
            rows=tuple(self._rows()),
            frame=self._frame(),
            figure=(lambda: critical_difference_svg(self.ranks)) if self.omnibus == "friedman" else None,
            assumptions=(
                ("score on a data set", "the mean of the method's runs there"),
                ("direction", f"{self.direction} is better; rank 1 = best"),
                ("normality", f"Shapiro-Wilk at {ALPHA}/k = {self.alpha_normality:.4g}"),
                ("equal variances", "Bartlett's test if all normal, else Levene's"),
                ("path", f"{self._test_name()} ({self._path_words()})"),
                (ALPHA, f"{self.alpha:g}"),
                ("normalisation", self.normalisation_text),
            ),
            notes=tuple(notes),
            source=_SOURCE,
            inputs=self.inputs,
            analysis="compare auto",
        )

    def _frame(self):
        order = self.order
        centre, spread = self._centre_words
        return {
            "method": [self.methods[i] for i in order],
            "mean_rank": self.mean_ranks[order],
            centre: self.centre[order],
            spread.lower(): self.spread[order],
            "ci_low": self.ci_low[order],
            "ci_high": self.ci_high[order],
            "effect_size": self.effects[order],
            "magnitude": [self.magnitudes[i] for i in order],
        }

    def _data(self, verdict):
        return {
            "methods": self.methods,
            "tasks": len(self.tasks),
            "direction": self.direction,
            "alpha": self.alpha,
            "force_mode": self.force_mode,
            "shapiro_p_values": self.shapiro_p_values,
            "alpha_normality": self.alpha_normality,
            "all_normal": self.all_normal,
            "homogeneity_test": self.homogeneity_test,
            "homogeneity_p_value": self.homogeneity_p_value,
            "homoscedastic": self.homoscedastic,
            "parametric": self.parametric,
            "omnibus": self.omnibus,
            "statistic": self.statistic,
            "p_value": self.p_value,
            "rejected": self.rejected,
            "posthoc": self.posthoc,
            "posthoc_p_values": self.posthoc_p_values,
            "different": self.different,
            "critical_difference": self.critical_difference,
            "groups": self.groups,
            "mean_ranks": self.mean_ranks,
            "centre": self.centre,
            "spread": self.spread,
            "ci_low": self.ci_low,
            "ci_high": self.ci_high,
            "effect_size": self.effect_size,
            "reference": self.reference,
            "effects": self.effects,
            "magnitudes": self.magnitudes,
            "verdict": verdict,
        }


def _latex_escape(text: str) -> str:
    """`text` with LaTeX's special characters escaped."""
    special = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
               "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}  # fmt: skip
    return "".join(special.get(c, c) for c in text)


# --- computation -------------------------------------------------------------------------------------------


def _checks(x, alpha):
    """Shapiro-Wilk p-values, α/k, all normal, the homogeneity test, its p-value, homoscedastic."""
    k = x.shape[0]
    shapiro = np.array([dist.shapiro(row)[1] for row in x])
    alpha_normality = alpha / k
    all_normal = bool((shapiro > alpha_normality).all())
    test = "bartlett" if all_normal else "levene"
    p = (dist.bartlett if all_normal else dist.levene)(*x)[1]
    return shapiro, alpha_normality, all_normal, test, p, bool(p > alpha)


def _tukey(x, alpha, higher):
    """Tukey's HSD over the k means of x (k, N), as for k independent groups of N (autorank reports its
    confidence intervals): the standard error sqrt(MS_within / N), MS_within the mean of the k variances,
    with k(N - 1) degrees of freedom; the p-values of |mean_i - mean_j| / SE from the studentized range, the
    HSD = q_(1-α) SE, the interval of each mean ± HSD/2, and the groups (best mean first)."""
    k, n = x.shape
    df = k * (n - 1)
    se = np.sqrt(x.var(axis=1, ddof=1).mean() / n)
    means = x.mean(axis=1)
    upper = np.triu_indices(k, 1)
    p = np.full((k, k), np.nan)
    p[upper] = studentized_range_tail(np.abs(means[upper[0]] - means[upper[1]]) / se, k, df)[0]
    p = np.fmin(p, p.T)
    hsd = studentized_range_quantile(alpha, k, df) * se
    different = np.nan_to_num(p, nan=1.0) <= alpha
    key = -means if higher else means
    return p, different, float(hsd), means - hsd / 2, means + hsd / 2, key


def _two(x, better, parametric):
    """Two methods: the paired t-test (two-sided) or Wilcoxon's signed-rank test, one-sided in favour of
    the method with the better mean rank (as autorank reports them): the test, its statistic and p-value."""
    if parametric:
        return "ttest", *dist.ttest_rel(x[0], x[1])
    return "wilcoxon", *dist.wilcoxon(x[better], x[1 - better])


def _mean_interval(x, alpha):
    """Each method's mean ± t_(1 - α/(2k), N - 1) SD/√N: the intervals of the k means at family-wise level
    1 - α (Bonferroni), as autorank gives them when all methods are normal (but on the ANOVA path)."""
    k, n = x.shape
    half = dist.t_ppf(1 - alpha / (2 * k), n - 1) * x.std(axis=1, ddof=1) / np.sqrt(n)
    means = x.mean(axis=1)
    return means - half, means + half


def _median_interval(x, alpha):
    """Each method's interval of the median as autorank reports it when not all methods are normal: the
    order statistics x_[l] and x_[u] (0-based, of the N sorted values) with l = round(N/2 - z sqrt(N/2)) and
    u = round(1 + N/2 + z sqrt(N/2)), z = Φ⁻¹(1 - α/(2k)), clipped to [0, N - 1] (inferred from autorank's
    outputs on designed tables, benchmarks/AUTORANK_FACTS.md §8; its documentation gives no method).

    It is the textbook normal approximation of the distribution-free interval, the 1-based ranks
    N/2 ∓ z sqrt(N)/2 (+ 1 above) of Campbell and Gardner (1988), with sqrt(N/2) for sqrt(N)/2 (so
    sqrt(2) times wider) and the 1-based ranks taken as 0-based (one rank inwards below, one outwards
    above): its coverage, P(l + 1 <= B <= u) with B ~ Binomial(N, 1/2) the number of values below the
    median, is well above 1 - α/k (0.9997 for N = 54, k = 5 at α = 0.05), and it is not symmetric in rank.

    References
    ----------
    .. [1] M. J. Campbell and M. J. Gardner, "Calculating confidence intervals for some non-parametric
       analyses", British Medical Journal 296(6634), 1454-1456, 1988. https://doi.org/10.1136/bmj.296.6634.1454.
    """
    low, high, _ = _median_ranks(*x.shape, alpha)
    ordered = np.sort(x, axis=1)
    return ordered[:, low], ordered[:, high]


def _median_ranks(k, n, alpha):
    """The 0-based ranks l and u of :func:`_median_interval` and its z."""
    z = -dist.norm_ppf(alpha / (2 * k))
    reach = z * np.sqrt(n / 2)
    return (
        int(np.clip(np.round(n / 2 - reach), 0, n - 1)),
        int(np.clip(np.round(1 + n / 2 + reach), 0, n - 1)),
        z,
    )


def _check(scores, alpha, force_mode, effect_size):
    from benchtrust.compare._tasks._scores import check_task_scores

    check_task_scores(scores)
    alpha = check_probability(alpha, "alpha")
    if force_mode not in _FORCE_MODES:
        raise InputError(f"force_mode: expected 'parametric', 'nonparametric' or None, got {force_mode!r}")
    if effect_size is not None and effect_size not in EFFECTS:
        raise InputError(
            f"effect_size: expected one of {', '.join(map(repr, EFFECTS))} or None, got {effect_size!r}"
        )
    if len(scores.methods) < 2 or len(scores.tasks) < _FEWEST:
        raise InputError(
            f"scores: autorank's path needs at least 2 methods and {_FEWEST} data sets, got "
            f"{len(scores.methods)} and {len(scores.tasks)}"
        )
    return alpha


def automatic_test(
    scores: TaskScores,
    *,
    alpha: float = 0.05,
    force_mode: Literal["parametric", "nonparametric"] | None = None,
    effect_size: Literal["cohen_d", "cliff_delta", "akinshin_gamma"] | None = None,
) -> AutomaticResult:
    """autorank's automatic path (Herbold 2020): the assumption checks, the test they choose, its post-hoc
    test and the effect sizes, with autorank's decisions and numbers.

    For k methods on N data sets (each method's score on a data set the mean of its runs there, as in
    :func:`rank_test`), as autorank documents its flow chart (frequentist approach):

    1. normality: Shapiro-Wilk on each method's N scores at α/k (Bonferroni); equal variances: Bartlett's
       test if all are normal, else Levene's (centred on the median), at α;
    2. k = 2: the paired t-test if both are normal, else Wilcoxon's signed-rank test (one-sided, the better
       mean rank against the other, as autorank reports it);
    3. k > 2, all normal and homoscedastic: the repeated-measures ANOVA (F = MS_methods / MS_error, df
       k - 1 and (k - 1)(N - 1), no sphericity correction), then Tukey's HSD as for independent groups
       (SE = sqrt(MS_within / N), k(N - 1) df, the studentized range computed by quadrature): two means
       differ when they are more than HSD = q_(1-α) SE apart, i.e. when their intervals mean ± HSD/2 do not
       overlap;
    4. otherwise the Friedman test (tie-corrected χ², its p-value decides, as in autorank) with the Nemenyi
       test and its critical difference (:func:`rank_test`);
    5. central tendency, spread and effect size: mean, SD and Cohen's d on the parametric path, median, MAD
       and Akinshin's γ on the other (autorank's defaults; `effect_size` picks another), each of the
       reference, autorank's first row (the worst mean rank), against every method, with autorank's words.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`; at least 2 methods and 5 data sets (autorank's least).
    alpha : float, default 0.05
        α, the family-wise level of the tests.
    force_mode : {None, "parametric", "nonparametric"}, default None
        Take this path whatever the checks say (autorank's ``force_mode``).
    effect_size : {None, "cohen_d", "cliff_delta", "akinshin_gamma"}, default None
        The effect size; None: Cohen's d on the parametric path, Akinshin's γ on the other.

    Returns
    -------
    AutomaticResult

    See Also
    --------
    AutomaticResult : The checks, the test, its post-hoc decisions and the effect sizes.
    rank_test : The Friedman test and its post-hoc tests.
    choose_analysis : Which analyses fit the table, and why.

    References
    ----------
    .. [1] Steffen Herbold, "Autorank: a Python package for automated ranking of classifiers", Journal of Open
       Source Software 5(48), 2173, 2020. doi:10.21105/joss.02173. (the flow chart, Fig. 1)
    .. [2] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.2.
    .. [3] John W. Tukey, "Comparing individual means in the analysis of variance", Biometrics 5(2), 99-114,
       1949. doi:10.2307/3001913.
    .. [4] Andrey Akinshin, "Nonparametric Cohen's d-consistent effect size", 2020.
       https://aakinshin.net/posts/nonparametric-effect-size/.
    .. [5] Guillermo Macbeth, Eugenia Razumiejczyk and Rubén Daniel Ledesma, "Cliff's delta calculator: a
       non-parametric effect size program for two groups of observations", Universitas Psychologica 10(2),
       545-555, 2011 (Romano et al.'s thresholds of δ).

    Examples
    --------
    >>> from benchtrust.compare import bundled_task_scores
    >>> result = automatic_test(bundled_task_scores("uci"))
    >>> result.omnibus, result.posthoc, result.all_normal
    ('friedman', 'nemenyi', False)
    >>> result.groups
    (('aode', 'hnb', 'j48gr', 'j48'), ('j48gr', 'j48', 'nbc'))
    >>> result.reference, result.effects.round(3).tolist()
    ('nbc', [0.0, -0.068, -0.086, 0.199, 0.19])
    """
    alpha = _check(scores, alpha, force_mode, effect_size)
    ranks = rank_test(scores, alpha=alpha)
    x = ranks.scores  # each method's mean on each task
    k = x.shape[0]
    higher = scores.direction == "higher"
    shapiro, alpha_normality, all_normal, test, p_homogeneity, homoscedastic = _checks(x, alpha)
    if force_mode is not None:
        parametric = force_mode == "parametric"
    else:
        parametric = all_normal and (k == 2 or homoscedastic)
    better = int(np.argmin(ranks.average_ranks))
    ci_low, ci_high = (_mean_interval if all_normal else _median_interval)(x, alpha)
    posthoc_p, different, cd = np.full((k, k), np.nan), np.zeros((k, k), bool), np.nan
    groups: tuple[tuple[str, ...], ...]
    if k == 2:
        omnibus, statistic, p_value = _two(x, better, parametric)
        posthoc, groups = None, ()
    elif parametric:
        omnibus, posthoc = "anova", "tukeyhsd"
        statistic, _, p_value = repeated_measures_anova(x)
        posthoc_p, different, cd, ci_low, ci_high, key = _tukey(x, alpha, higher)
        groups = _groups(key, different, None, scores.methods)
    else:
        omnibus, posthoc = "friedman", "nemenyi"
        statistic, p_value = ranks.friedman, ranks.friedman_p_value
        posthoc_p, different, cd, groups = (
            ranks.p_values,
            ranks.different,
            ranks.critical_difference,
            ranks.groups,
        )
    if parametric:
        centre, spread = x.mean(axis=1), x.std(axis=1, ddof=1)
    else:
        centre, spread = dist.median(x, axis=1), median_absolute_deviation(x)
    # autorank's default: Cohen's d when all are normal, and with more than two methods on the parametric
    # path too (forced); else Akinshin's γ
    normal_effect = all_normal or (k > 2 and parametric)
    effect_size = effect_size or ("cohen_d" if normal_effect else "akinshin_gamma")
    # autorank's first row: the worst mean rank with higher scores better, whatever the direction
    reference = int(np.argsort(-ranks.average_ranks if higher else ranks.average_ranks, kind="stable")[0])
    effects = EFFECTS[effect_size](x[reference], x)
    effects[reference] = 0.0
    return AutomaticResult(
        methods=scores.methods,
        tasks=scores.tasks,
        scores=x,
        shapiro_p_values=shapiro,
        alpha_normality=alpha_normality,
        all_normal=all_normal,
        homogeneity_test=test,
        homogeneity_p_value=p_homogeneity,
        homoscedastic=homoscedastic,
        parametric=parametric,
        omnibus=omnibus,
        statistic=float(statistic),
        p_value=float(p_value),
        posthoc=posthoc,
        posthoc_p_values=posthoc_p,
        different=different,
        critical_difference=float(cd),
        groups=groups,
        mean_ranks=ranks.average_ranks,
        centre=centre,
        spread=spread,
        ci_low=np.asarray(ci_low, dtype=float),
        ci_high=np.asarray(ci_high, dtype=float),
        effect_size=effect_size,
        reference=scores.methods[reference],
        effects=effects,
        magnitudes=magnitude(effects, effect_size),
        ranks=ranks,
        alpha=alpha,
        force_mode=force_mode,
        direction=scores.direction,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        inputs=scores_files(scores),
    )
