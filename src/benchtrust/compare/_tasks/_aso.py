"""Almost stochastic order of one method over another, task by task, as deepsig's ``aso()`` computes it.

A's runs stochastically dominate B's when A's quantile function lies above B's everywhere: every
quantile of A's scores is at least B's. Runs of deep networks rarely show such clean order, so del Barrio,
Cuesta-Albertos and Matrán (2018) measure how much of it is violated, and Dror, Shlomov and Reichart (2019)
made that the test NLP researchers use to compare two sets of seeds:

* the violation ratio ε_W2(F, G) = ∫_{V} (F⁻¹(t) - G⁻¹(t))² dt / W2(F, G)², V = {t : F⁻¹(t) < G⁻¹(t)},
  the share of the squared Wasserstein-2 distance between A's scores (F) and B's (G) where A is worse:
  0 when A dominates B, 1 when B dominates A;
* ε_min = ε_W2(F_n, G_m) + Φ⁻¹(1 - α) σ̂, the upper confidence bound of the violation ratio at level
  1 - α (del Barrio et al. 2018, §3; Dror et al. 2019, Eq. 7: ε̂ - sqrt((n + m)/(n m)) σ̂_{n,m} Φ⁻¹(α),
  σ̂_{n,m} the bootstrap estimate of the standard deviation of sqrt(n m/(n + m)) ε̂; with resamples of n
  and m runs the factors cancel, so σ̂ here is the standard deviation of the resampled ε̂ themselves);
* A almost stochastically dominates B when ε_min < τ: τ = 0.5 by convention (A is better in more of
  the quantiles than B, with confidence 1 - α), 0.2 the stricter threshold Ulmer et al. (2022) recommend
  from their simulations (0.5 has a high type I error).

As deepsig (Ulmer et al. 2022; learned from its documentation and outputs, see benchmarks/DEEPSIG_FACTS.md):
the quantile functions are the empirical ones, F⁻¹(t) = x_(⌈n t⌉), on the grid t = dt, 2 dt, ... below
1; the integrals are sums over the grid, the one of the violation leaving out the first grid point (as
deepsig's outputs do: ε_W2 of one run at 0 against one run at 1 is 198/199, not 1, at dt = 0.005); α is
1 - confidence over the number of comparisons (Bonferroni); ε_min is at most 1.
"""

from __future__ import annotations

import dataclasses
import numbers
from statistics import NormalDist

import numpy as np

from benchtrust._io import (
    MAX_MEMORY,
    InputError,
    Seed,
    check_count,
    check_memory,
    check_probability,
    check_seed,
)
from benchtrust._result import Description, Result
from benchtrust._words import aligned, paragraph
from benchtrust.compare._tasks._pair_bootstrap import oriented
from benchtrust.compare._tasks._scores import (
    TASKS_QUESTION,
    TaskScores,
    check_task_scores,
    method_pair,
    normalisation_words,
    scores_files,
)

__all__ = ["AsoResult", "almost_stochastic_order"]

_SOURCE = (
    "del Barrio, Cuesta-Albertos & Matrán 2018, §3 (violation ratio, its bootstrap bound); Dror, Shlomov & "
    "Reichart 2019, Eq. 7 and Algorithm 1 (ε_min); Ulmer, Hardmeier & Frellsen 2022 (deepsig: its grid and "
    "Bonferroni correction, τ = 0.2)"
)
#: deepsig's conventional threshold of ε_min (Dror et al. 2019).
THRESHOLD = 0.5
#: The stricter threshold Ulmer et al. (2022) recommend.
STRICT_THRESHOLD = 0.2
_PITFALLS = (
    "The test is one-sided: ε_min(A, B) < τ says A is better; ε_min(A, B) ≥ τ does not say B is better, nor "
    "that the two are equal. Read ε_min(B, A) for that (both are shown).",
    f"τ = {THRESHOLD} is a convention (Dror et al. 2019), with a high type I error in Ulmer et al.'s (2022) "
    f"simulations; they recommend τ = {STRICT_THRESHOLD}. Report ε_min itself with the confidence level.",
    "ε_min is not a p-value: it bounds the share of the quantiles where A is worse, not the chance that A is "
    "no better.",
    "With few runs the empirical quantile functions are coarse steps and the bootstrap bound is loose; "
    "deepsig's documentation asks for as many runs as possible.",
)


def _grid(dt):
    """deepsig's grid of t: dt, 2 dt, ... below 1 (numpy's arange, whose rounding decides the last point)."""
    return np.arange(dt, 1, dt)


def _quantile_positions(runs, grid):
    """The order statistic of `runs` sorted values that is the empirical quantile at each t of `grid`:
    x_(⌈n t⌉), zero-based (numpy's ``inverted_cdf`` rule, so the floating-point rounding of n t is
    numpy's)."""
    return np.quantile(np.arange(runs), grid, method="inverted_cdf").astype(np.intp)


def _violation_ratios(x, y, grid):
    """ε_W2 of x over y and of y over x, for the last axis of x and y (their runs, sorted, finite).

    Returns two arrays of the leading shape; 0.5 where W2 = 0 (the two quantile functions equal).
    """
    gap = x[..., _quantile_positions(x.shape[-1], grid)] - y[..., _quantile_positions(y.shape[-1], grid)]
    squares = np.square(gap)
    total = squares.sum(axis=-1)
    # deepsig's integral of the violation leaves out the first grid point (see the module's notes)
    worse = np.where(gap[..., 1:] < 0, squares[..., 1:], 0.0).sum(axis=-1)
    better = np.where(gap[..., 1:] > 0, squares[..., 1:], 0.0).sum(axis=-1)
    # equal quantile functions (W2 = 0): neither is better, 0.5 each way (as deepsig's outputs)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, worse / total, 0.5), np.where(total > 0, better / total, 0.5)


def violation_bounds(x, y, *, confidence=0.95, comparisons=1, resamples=1000, dt=0.005, rng=None):
    """ε̂ and ε_min of x over y and of y over x (two samples of runs, higher is better).

    Every bootstrap resample is drawn at once (resamples × runs), its quantile functions read off the
    grid together: no loop over resamples.

    Returns
    -------
    dict
        ``epsilon_ab``, ``epsilon_ba`` (ε̂), ``sd_ab``, ``sd_ba`` (σ̂, the standard deviation of the
        resampled ε̂, ddof 1), ``eps_min_ab``, ``eps_min_ba`` (ε̂ + z σ̂,
        at most 1) and ``z`` = Φ⁻¹(1 - (1 - confidence) / comparisons).
    """
    rng = np.random.default_rng() if rng is None else rng
    grid = _grid(dt)
    x, y = np.sort(np.asarray(x, dtype=float)), np.sort(np.asarray(y, dtype=float))
    epsilon_ab, epsilon_ba = _violation_ratios(x, y, grid)
    xs = np.sort(x[rng.integers(0, x.size, (resamples, x.size))], axis=1)
    ys = np.sort(y[rng.integers(0, y.size, (resamples, y.size))], axis=1)
    star_ab, star_ba = _violation_ratios(xs, ys, grid)
    sd_ab, sd_ba = float(np.std(star_ab, ddof=1)), float(np.std(star_ba, ddof=1))
    z = NormalDist().inv_cdf(1 - (1 - confidence) / comparisons)
    return {
        "epsilon_ab": float(epsilon_ab),
        "epsilon_ba": float(epsilon_ba),
        "sd_ab": sd_ab,
        "sd_ba": sd_ba,
        "eps_min_ab": float(min(epsilon_ab + z * sd_ab, 1.0)),
        "eps_min_ba": float(min(epsilon_ba + z * sd_ba, 1.0)),
        "z": z,
    }


@dataclasses.dataclass(frozen=True, eq=False)
class AsoResult(Result):
    """Almost stochastic order of `a` over `b` (and of `b` over `a`), task by task.

    Attributes
    ----------
    a, b : str
        The two methods.
    tasks : tuple of str
        The tasks.
    runs_a, runs_b : numpy.ndarray
        Their runs on each task.
    epsilon_ab, epsilon_ba : numpy.ndarray
        The violation ratio ε_W2 of the runs on each task: of `a` over `b` (the share of the squared W2
        distance where `a` is worse) and of `b` over `a`; 0.5 where the two samples are equal (as deepsig).
    eps_min_ab, eps_min_ba : numpy.ndarray
        ε_min, the upper confidence bound of each violation ratio at the corrected confidence.
    sd_ab, sd_ba : numpy.ndarray
        σ̂, the bootstrap standard deviations of the violation ratios.
    confidence : float
        The confidence level before the Bonferroni correction (deepsig's ``confidence_level``).
    comparisons : int
        The comparisons corrected for (deepsig's ``num_comparisons``): the bound of each task is at
        confidence 1 - (1 - confidence) / comparisons.
    threshold : float
        τ: `a` almost stochastically dominates `b` on a task when ε_min(a, b) < τ.
    resamples : int
        The bootstrap resamples of each task (deepsig's ``num_bootstrap_iterations``).
    dt : float
        The step of the grid of t (deepsig's ``dt``).
    seed : int or None
        The seed given as a number.
    direction : {"higher", "lower"}
        Which scores are better (lower-is-better scores are negated first, as deepsig asks).
    normalisation_text : str
        How the scores were normalised, in words.

    See Also
    --------
    almost_stochastic_order : Computes this result.

    References
    ----------
    .. [1] Eustasio del Barrio, Juan A. Cuesta-Albertos and Carlos Matrán, "An optimal transportation
       approach for assessing almost stochastic order", in The Mathematics of the Uncertain, Springer,
       33-44, 2018. doi:10.1007/978-3-319-73848-2_3.
    .. [2] Rotem Dror, Segev Shlomov and Roi Reichart, "Deep dominance - how to properly compare deep neural
       models", Proceedings of the 57th Annual Meeting of the ACL, 2773-2785, 2019.
       doi:10.18653/v1/P19-1266.
    .. [3] Dennis Ulmer, Christian Hardmeier and Jes Frellsen, "deep-significance: easy and meaningful
       statistical significance testing in the age of neural networks", arXiv:2204.06815, 2022.
    """

    a: str
    b: str
    tasks: tuple[str, ...]
    runs_a: np.ndarray
    runs_b: np.ndarray
    epsilon_ab: np.ndarray
    epsilon_ba: np.ndarray
    eps_min_ab: np.ndarray
    eps_min_ba: np.ndarray
    sd_ab: np.ndarray
    sd_ba: np.ndarray
    confidence: float
    comparisons: int
    threshold: float
    resamples: int
    dt: float
    seed: int | None
    direction: str
    normalisation_text: str

    def __repr__(self) -> str:
        return (
            f"AsoResult(a={self.a!r}, b={self.b!r}, tasks={len(self.tasks)}, confidence={self.confidence:g}, "
            f"comparisons={self.comparisons}, threshold={self.threshold:g})"
        )

    @property
    def decisions(self) -> tuple[str, ...]:
        """Each task's decision: ``"<a> dominates"``, ``"<b> dominates"`` or ``"neither"``."""
        calls = []
        for ab, ba in zip(self.eps_min_ab, self.eps_min_ba, strict=True):
            if ab < self.threshold:
                calls.append(f"{self.a} dominates")
            elif ba < self.threshold:
                calls.append(f"{self.b} dominates")
            else:
                calls.append("neither")
        return tuple(calls)

    def _level_words(self):
        level = 1 - (1 - self.confidence) / self.comparisons
        corrected = f", {level:.4g} after Bonferroni over {self.comparisons}" if self.comparisons > 1 else ""
        return f"confidence {self.confidence:g}{corrected}"

    def _columns(self):
        return ("task", "runs", f"ε({self.a}, {self.b})", "ε_min", f"ε({self.b}, {self.a})", "ε_min", "")

    def _rows(self):
        return [
            (
                self.tasks[k],
                f"{self.runs_a[k]}, {self.runs_b[k]}",
                f"{self.epsilon_ab[k]:.3f}",
                f"{self.eps_min_ab[k]:.3f}",
                f"{self.epsilon_ba[k]:.3f}",
                f"{self.eps_min_ba[k]:.3f}",
                call,
            )
            for k, call in enumerate(self.decisions)
        ]

    @property
    def verdict(self) -> str:
        """Which method almost stochastically dominates the other, in words: on the one task, or counted
        over the tasks."""
        calls = self.decisions
        tau = f"τ = {self.threshold:g}"
        if len(self.tasks) == 1:
            ab, ba = self.eps_min_ab[0], self.eps_min_ba[0]
            bounds = f"ε_min({self.a}, {self.b}) = {ab:.3f}, ε_min({self.b}, {self.a}) = {ba:.3f}"
            if calls[0] == "neither":
                return (
                    f"Neither method almost stochastically dominates the other ({bounds}, both at least "
                    f"{tau}, {self._level_words()}): the runs do not decide which is better."
                )
            winner, loser = (self.a, self.b) if calls[0] == f"{self.a} dominates" else (self.b, self.a)
            return (
                f"{winner} almost stochastically dominates {loser} ({bounds}; {tau}, "
                f"{self._level_words()}): {winner} is better in most quantiles of the runs."
            )
        counts = {call: calls.count(call) for call in dict.fromkeys(calls)}
        order = [f"{self.a} dominates", f"{self.b} dominates", "neither"]
        parts = [f"{call} on {counts[call]}" for call in order if call in counts]
        return (
            f"Almost stochastic order on {len(self.tasks)} tasks ({tau}, {self._level_words()}): "
            f"{'; '.join(parts)}."
        )

    def describe(self) -> Description:
        """The bounds task by task, the verdict, then the test's known pitfalls."""
        verdict = self.verdict
        frame = self._frame()
        text = [
            paragraph(
                f"Almost stochastic order of {self.a} over {self.b} on {len(self.tasks)} task"
                f"{'s' if len(self.tasks) != 1 else ''} ({self.direction} is better), as deepsig's aso(): "
                "ε = the violation ratio, the share of the squared Wasserstein-2 distance between the runs' "
                "quantile functions where the first method is worse (0: it dominates, 1: it is dominated); "
                f"ε_min its bootstrap upper bound ({self.resamples} resamples, {self._level_words()}, dt = "
                f"{self.dt:g}). A method almost stochastically dominates when its ε_min < τ = "
                f"{self.threshold:g} (Dror et al. 2019)."
            ),
            "",
            *aligned([self._columns(), *self._rows()]),
            "",
            paragraph(verdict),
            "",
            *(paragraph(f"Note: {note}") for note in _PITFALLS),
        ]
        return Description(
            question=TASKS_QUESTION,
            verdict=verdict,
            text="\n".join(text),
            data={
                "a": self.a,
                "b": self.b,
                "confidence": self.confidence,
                "comparisons": self.comparisons,
                "threshold": self.threshold,
                "resamples": self.resamples,
                "dt": self.dt,
                "seed": self.seed,
                "direction": self.direction,
                "tasks": [{key: values[k] for key, values in frame.items()} for k in range(len(self.tasks))],
            },
            columns=self._columns(),
            rows=tuple(self._rows()),
            frame=frame,
            assumptions=(
                (
                    "direction",
                    f"{self.direction} is better (lower-is-better scores negated, as deepsig asks)",
                ),
                ("runs", "independent runs (seeds) of each method on each task, all pairs compared"),
                ("confidence", self._level_words()),
                ("threshold", f"τ = {self.threshold:g}"),
                ("bootstrap", f"{self.resamples} resamples of each method's runs, per task"),
                ("normalisation", self.normalisation_text),
            ),
            source=_SOURCE,
            inputs=self.inputs,
            analysis="compare aso",
            notes=_PITFALLS,
        )

    def _frame(self):
        """The columns of ``to_frame()``, one row per task: ``task``, ``runs_a``, ``runs_b``,
        ``epsilon_ab``, ``eps_min_ab``, ``sd_ab``, ``epsilon_ba``, ``eps_min_ba``, ``sd_ba`` and
        ``decision``."""
        return {
            "task": list(self.tasks),
            "runs_a": self.runs_a,
            "runs_b": self.runs_b,
            "epsilon_ab": self.epsilon_ab,
            "eps_min_ab": self.eps_min_ab,
            "sd_ab": self.sd_ab,
            "epsilon_ba": self.epsilon_ba,
            "eps_min_ba": self.eps_min_ba,
            "sd_ba": self.sd_ba,
            "decision": list(self.decisions),
        }


def almost_stochastic_order(
    scores: TaskScores,
    a: str,
    b: str,
    *,
    confidence: float = 0.95,
    comparisons: int | None = None,
    threshold: float = THRESHOLD,
    resamples: int = 1000,
    dt: float = 0.005,
    seed: Seed = None,
    max_memory: float = MAX_MEMORY,
) -> AsoResult:
    """Almost stochastic order (ASO) of `a` over `b` on each task, as deepsig's ``aso()``.

    On each task, from the runs of `a` and of `b` (any numbers of runs; lower-is-better scores negated):
    the violation ratio ε̂ of `a` over `b` (the share of the squared Wasserstein-2 distance between the
    empirical quantile functions where `a` is worse) and ε_min = ε̂ + Φ⁻¹(1 - α) σ̂, σ̂ the standard
    deviation of ε̂ over `resamples` bootstrap resamples of both methods' runs, α = (1 - confidence) /
    comparisons (Bonferroni), at most 1 (see the module's notes for the grid and the integrals). Likewise
    of `b` over `a`, because the test is one-sided. `a` almost stochastically dominates `b` on a task when
    ε_min(a, b) < τ.

    Parameters
    ----------
    scores : TaskScores
        From :func:`read_task_scores`.
    a, b : str
        The two methods; `a` is the one suspected better (deepsig's ``scores_a``).
    confidence : float, default 0.95
        The confidence level in (0, 1) before the correction (deepsig's ``confidence_level``).
    comparisons : int, optional
        The comparisons to correct for (deepsig's ``num_comparisons``); default the number of tasks
        (one test per task, deepsig's scenario of several data sets).
    threshold : float, default 0.5
        τ in (0, 1]: 0.5 by convention (Dror et al. 2019), 0.2 as Ulmer et al. (2022) recommend.
    resamples : int, default 1000
        Bootstrap resamples of each task (deepsig's ``num_bootstrap_iterations``).
    dt : float, default 0.005
        The step of the grid of t, in (0, 0.5] (deepsig's ``dt``).
    seed : int or numpy.random.Generator, optional
        Randomness of the resamples.
    max_memory : int, default 2e9
        The most bytes the resamples of one task may take; more is refused with an InputError naming
        this option, before any draw.

    Returns
    -------
    AsoResult

    See Also
    --------
    AsoResult : The bounds task by task, with the decision and the test's pitfalls.
    effect_sizes : Vargha and Delaney's A and Hedges' g of one method against another.

    References
    ----------
    .. [1] Eustasio del Barrio, Juan A. Cuesta-Albertos and Carlos Matrán, "An optimal transportation
       approach for assessing almost stochastic order", in The Mathematics of the Uncertain, Springer,
       33-44, 2018. doi:10.1007/978-3-319-73848-2_3. §3 (the violation ratio and its bootstrap bound).
    .. [2] Rotem Dror, Segev Shlomov and Roi Reichart, "Deep dominance - how to properly compare deep neural
       models", Proceedings of the 57th Annual Meeting of the ACL, 2773-2785, 2019.
       doi:10.18653/v1/P19-1266. Eq. 7 (ε_min) and §4 (τ = 0.5).
    .. [3] Dennis Ulmer, Christian Hardmeier and Jes Frellsen, "deep-significance: easy and meaningful
       statistical significance testing in the age of neural networks", arXiv:2204.06815, 2022.

    Examples
    --------
    SPR against DER on the 26 Atari 100k games (100 runs of each), Bonferroni-corrected over the games:

    >>> from benchtrust.compare import bundled_task_scores
    >>> atari = bundled_task_scores("atari100k")
    >>> result = almost_stochastic_order(atari, "SPR", "DER", seed=0)
    >>> print(result.verdict)  # doctest: +NORMALIZE_WHITESPACE
    Almost stochastic order on 26 tasks (τ = 0.5, confidence 0.95, 0.9981 after Bonferroni over 26): SPR
    dominates on 18; DER dominates on 2; neither on 6.
    >>> result.to_frame()[["task", "epsilon_ab", "eps_min_ab", "eps_min_ba", "decision"]].round(3).head(3)
          task  epsilon_ab  eps_min_ab  eps_min_ba       decision
    0    Alien       0.000       0.405         1.0  SPR dominates
    1   Amidar       0.000       0.000         1.0  SPR dominates
    2  Assault       0.224       1.000         1.0        neither

    On one game, as deepsig's ``aso(spr, der)`` (one comparison; deepsig 1.2.8 gives 0.2278 with its
    seed 0, within the resampling error of about 0.014, see benchmarks/DEEPSIG_FACTS.md):

    >>> alien = almost_stochastic_order(atari, "SPR", "DER", comparisons=1, seed=0)
    >>> round(float(alien.eps_min_ab[0]), 3)
    0.231
    """
    scores = check_task_scores(scores)
    ia, ib = method_pair(scores, a, b)
    confidence = check_probability(confidence, "confidence")
    comparisons = len(scores.tasks) if comparisons is None else check_count(comparisons, "comparisons")
    threshold = check_probability(threshold, "threshold", upper_open=False)
    resamples = check_count(resamples, "resamples")
    if resamples < 2:
        raise InputError(f"resamples: expected at least 2 (a standard deviation), got {resamples}")
    dt = check_probability(dt, "dt")
    if dt > 0.5:
        raise InputError(f"dt: expected a value in (0, 0.5], got {dt!r}")
    rng = check_seed(seed)
    runs = scores.runs_per_task[[ia, ib]]
    longest = int(runs.max())
    # the resampled runs of both methods and their values on the grid, for one task at a time
    check_memory(
        8 * resamples * (2 * longest + 3 * _grid(dt).size),
        max_memory,
        f"the {resamples:,} resamples of {longest} runs",
    )
    values = oriented(scores)[[ia, ib]]
    bounds = []
    for k in range(len(scores.tasks)):
        x, y = values[0, k], values[1, k]
        bounds.append(
            violation_bounds(
                x[~np.isnan(x)],
                y[~np.isnan(y)],
                confidence=confidence,
                comparisons=comparisons,
                resamples=resamples,
                dt=dt,
                rng=rng,
            )
        )
    column = {key: np.array([bound[key] for bound in bounds]) for key in bounds[0]}
    return AsoResult(
        a=a,
        b=b,
        tasks=scores.tasks,
        runs_a=runs[0],
        runs_b=runs[1],
        epsilon_ab=column["epsilon_ab"],
        epsilon_ba=column["epsilon_ba"],
        eps_min_ab=column["eps_min_ab"],
        eps_min_ba=column["eps_min_ba"],
        sd_ab=column["sd_ab"],
        sd_ba=column["sd_ba"],
        confidence=confidence,
        comparisons=comparisons,
        threshold=threshold,
        resamples=resamples,
        dt=dt,
        seed=int(seed) if isinstance(seed, numbers.Integral) else None,
        direction=scores.direction,
        normalisation_text=normalisation_words(scores.normalisation, scores.direction, scores.reference),
        inputs=scores_files(scores),
    )
