"""Estimators of a pipeline's performance over a :class:`~benchtrust.compare.Study` (paper §2.2, §3).

* :func:`ideal_estimate` — IdealEst(k), Algorithm 1: every source, hyperparameter optimisation included,
  randomised in each of the k runs.
* :func:`fixed_hopt_estimate` — FixHOptEst(k, Init | Data | All), Algorithm 2: one HOpt, then k runs that
  randomise only the initialisation, only the data split, or every source of ξ_O.
* :func:`source_variances` — the variance due to each source alone, as a fraction of the variance due to
  the data split (Fig. 1).
* :func:`average_correlation` and :func:`mean_variance` — ρ, the average correlation between runs that
  share the fixed sources, and Eq. 7, the variance of the mean of k such runs.
* :func:`binomial_variance` and :func:`test_set_variance` — the binomial model of the test-set variance
  p(1-p)/n' beside the measured one (§2.2, Fig. 2).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._io import InputError, check_count
from benchtrust._result import Description, Result
from benchtrust._words import RHO
from benchtrust.compare._pipelines import _study_text
from benchtrust.compare._pipelines._study import Runs, Study, _root_seed
from benchtrust.compare._pipelines._text import COMPARE_QUESTION, SOURCE

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "Estimate",
    "SourceVariances",
    "TestSetVariance",
    "average_correlation",
    "binomial_variance",
    "fixed_hopt_estimate",
    "ideal_estimate",
    "mean_variance",
    "source_variances",
    "test_set_variance",
]


def _check_study(study: Study) -> Study:
    if not isinstance(study, Study):
        raise InputError(f"study: expected a benchtrust Study, got {study!r}")
    return study


def _repetition_seed(root: int, repetition: int) -> int:
    """Seed of repetition ``repetition``; repetition 0 uses the study seed itself."""
    if repetition == 0:
        return root
    return int(
        np.random.SeedSequence([root, 2**31, repetition]).generate_state(2, np.uint64)[0] >> np.uint64(1)
    )


def _variance(values: ArrayLike) -> float:
    """Sample variance (ddof=1), exactly 0 when the values are all equal (no rounding residue)."""
    values = np.asarray(values, dtype=float)
    return float(np.var(values - values.flat[0], ddof=1))


@dataclasses.dataclass(frozen=True, eq=False)
class Estimate(Result):
    """An estimate μ̂_(k) (or μ̃_(k)) of a pipeline's expected score, and its spread (Algorithms 1-2).

    Attributes
    ----------
    estimator : str
        'IdealEst' or 'FixHOptEst(<vary>)'.
    runs : int
        k, runs per estimate.
    repetitions : int
        Independent repetitions of the estimator (each with new seeds for its fixed sources).
    fixed : tuple of str
        Sources held fixed within a repetition.
    mean, std : float
        μ̂_(k) and σ̂_(k) of the first repetition (the mean and standard deviation, ddof=1, of its k scores).
    means : tuple of float
        The estimate of every repetition.
    std_of_mean : float
        Standard deviation (ddof=1) of the repetitions' estimates: the estimator's standard error (Fig. 5);
        nan with one repetition.
    correlation : float
        ρ, the average correlation between runs of one repetition (:func:`average_correlation`); nan with
        one repetition.
    std_of_mean_eq7 : float
        √Var(μ̃_(k)) from Eq. 7 with the pooled score variance and ρ; nan with one repetition.
    tables : tuple of Runs
        The runs of each repetition (not part of ``to_dict``).
    inputs : tuple of str
        Empty: an estimate is computed, not read.

    See Also
    --------
    ideal_estimate : IdealEst, the estimator that randomises every source.
    fixed_hopt_estimate : FixHOptEst, the biased estimator: one hyperparameter optimisation.
    average_correlation : ρ, the average correlation between runs that share their fixed seeds.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §3.2, Algorithms 1-2 (Fig. 4), Eq. (7); §3.3, Fig. 5.
    """

    estimator: str
    runs: int
    repetitions: int
    fixed: tuple[str, ...]
    mean: float
    std: float
    means: tuple[float, ...]
    std_of_mean: float
    correlation: float
    std_of_mean_eq7: float
    tables: tuple[Runs, ...] = dataclasses.field(repr=False, compare=False)

    def __repr__(self) -> str:
        text = f"{self.estimator}(k={self.runs}): mean={self.mean:.6g}, std={self.std:.3g}"
        if self.repetitions > 1:
            text += (
                f", over {self.repetitions} repetitions: std of mean={self.std_of_mean:.3g}, "
                f"rho={self.correlation:.3g}, Eq. 7 std of mean={self.std_of_mean_eq7:.3g}"
            )
        return f"Estimate({text})"

    @property
    def verdict(self) -> str:
        """The estimate and its spread in plain words (paper §3.2, Eq. 7)."""
        return _study_text.estimate_verdict(self)

    def describe(self) -> Description:
        """The estimate's numbers, then its verdict (paper §3.2, Algorithms 1-2); its section and its data
        (nan as null; the run tables left out)."""
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_study_text.estimate_text(self),
            data={
                "estimator": self.estimator,
                "runs": self.runs,
                "repetitions": self.repetitions,
                "fixed": self.fixed,
                "mean": self.mean,
                "std": self.std,
                "means": self.means,
                "std_of_mean": self.std_of_mean,
                "correlation": self.correlation,
                "std_of_mean_eq7": self.std_of_mean_eq7,
            },
            columns=("quantity", "value"),
            rows=tuple(_study_text.estimate_rows(self)),
            assumptions=((f"{RHO}", "the average correlation of runs sharing the fixed sources (Eq. 7)"),),
            source=f"{SOURCE}, §3.2, Algorithms 1-2",
            inputs=self.inputs,
            analysis=f"compare {self.estimator}",
        )


def _estimate(
    study: Study,
    name: str,
    *,
    runs: int,
    seed: int | np.random.Generator,
    fixed: tuple[str, ...],
    repetitions: int,
) -> Estimate:
    runs = check_count(runs, "runs")
    repetitions = check_count(repetitions, "repetitions")
    if runs < 2:
        raise InputError(f"runs: expected at least 2 runs to estimate a standard deviation, got {runs}")
    root = _root_seed(seed)
    tables = tuple(study.run(runs, seed=_repetition_seed(root, r), fixed=fixed) for r in range(repetitions))
    scores = np.array([table.scores for table in tables])
    means = scores.mean(axis=1)
    nan = float("nan")
    std_of_mean = correlation = eq7 = nan
    if repetitions > 1:
        std_of_mean = math.sqrt(_variance(means))
        correlation = average_correlation(scores)
        eq7 = math.sqrt(mean_variance(float(_variance(scores)), runs=runs, correlation=correlation))
    return Estimate(
        estimator=name,
        runs=runs,
        repetitions=repetitions,
        fixed=tables[0].fixed,
        mean=float(means[0]),
        std=math.sqrt(_variance(scores[0])),
        means=tuple(float(m) for m in means),
        std_of_mean=std_of_mean,
        correlation=correlation,
        std_of_mean_eq7=eq7,
        tables=tables,
    )


def ideal_estimate(
    study: Study, *, runs: int, seed: int | np.random.Generator, repetitions: int = 1
) -> Estimate:
    """IdealEst(k): the ideal estimator μ̂_(k), σ̂_(k) (paper §3.2.1, Algorithm 1).

    Each of the k runs draws new seeds for every source — the data split, ξ_O and, when the study searches
    hyperparameters, ξ_H (one hyperparameter optimisation per run, O(k·T) trainings). The estimator is
    unbiased and Var(μ̂_(k)) = σ²/k (Eq. 6).

    Parameters
    ----------
    study : Study
    runs : int
        k.
    seed : int or numpy.random.Generator
    repetitions : int, default 1
        Independent repetitions, to measure the estimator's own standard deviation (Fig. 5).

    Returns
    -------
    Estimate

    See Also
    --------
    fixed_hopt_estimate : FixHOptEst, the biased estimator: one hyperparameter optimisation.
    Estimate : An estimate of a pipeline's expected score, and its spread.
    Study : Train a pipeline many times, each source of variation fixed or randomised.
    average_correlation : ρ, the average correlation between runs that share their fixed seeds.
    mean_variance : The variance of the mean of k correlated runs.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §3.2.1, Algorithm 1 (Fig. 4), Eq. (6); §3.3, Fig. 5.

    Examples
    --------
    >>> def fit_and_score(train, test, hyperparameters, seeds):
    ...     return 0.8 + np.random.default_rng(seeds["init"]).normal(0, 0.01)
    >>> study = Study(fit_and_score, data_size=50, sources=("split", "init"))
    >>> estimate = ideal_estimate(study, runs=200, seed=0)
    >>> round(estimate.mean, 2), round(estimate.std, 2)
    (0.8, 0.01)
    """
    study = _check_study(study)
    return _estimate(study, "IdealEst", runs=runs, seed=seed, fixed=(), repetitions=repetitions)


#: FixHOptEst's named variants (§3.3): which sources are randomised.
_VARY = {"init": ("init",), "data": ("split",)}


def fixed_hopt_estimate(
    study: Study,
    *,
    runs: int,
    seed: int | np.random.Generator,
    vary: str | Sequence[str] = "all",
    repetitions: int = 1,
) -> Estimate:
    """FixHOptEst(k, vary): the biased estimator μ̃_(k), σ̃_(k) (paper §3.2.2, Algorithm 2, §3.3).

    Hyperparameters are optimised once (on the first run's split and seeds; O(k + T) trainings) and reused
    by k runs that randomise only the sources named by ``vary``; all other sources keep one seed. The
    runs are correlated (ρ > 0), so Var(μ̃_(k) | ξ) = Var(R̂_e | ξ)/k + (k-1)/k ρ Var(R̂_e | ξ) (Eq. 7)
    does not vanish as k grows.

    Parameters
    ----------
    study : Study
    runs : int
        k.
    seed : int or numpy.random.Generator
    vary : {'all', 'init', 'data'} or sequence of source names, default 'all'
        'init' = FixHOptEst(k, Init), weight initialisation only; 'data' = FixHOptEst(k, Data), the data
        split only; 'all' = FixHOptEst(k, All), every source but the hyperparameter optimisation.
    repetitions : int, default 1
        Independent repetitions, each with new seeds for the fixed sources and a new HOpt, to measure the
        estimator's standard deviation, ρ and Eq. 7 (Fig. 5).

    Returns
    -------
    Estimate

    See Also
    --------
    ideal_estimate : IdealEst, the estimator that randomises every source.
    Estimate : An estimate of a pipeline's expected score, and its spread.
    Study : Train a pipeline many times, each source of variation fixed or randomised.
    average_correlation : ρ, the average correlation between runs that share their fixed seeds.
    mean_variance : The variance of the mean of k correlated runs.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §3.2.2, Algorithm 2 (Fig. 4), Eq. (7)-(8); §3.3, Fig. 5.

    Examples
    --------
    >>> def fit_and_score(train, test, hyperparameters, seeds):
    ...     return 0.8 + np.random.default_rng(seeds["init"]).normal(0, 0.01)
    >>> study = Study(fit_and_score, data_size=50, sources=("split", "init"))
    >>> fixed_hopt_estimate(study, runs=10, seed=0, vary="data").std
    0.0
    """
    study = _check_study(study)
    if isinstance(vary, str):
        key = vary.lower()
        if key == "all":
            varied = tuple(s for s in study.sources if s != "search")
        elif key in _VARY:
            varied = _VARY[key]
        elif vary in study.sources:
            varied = (vary,)
        else:
            raise InputError(f"vary: expected 'all', 'init', 'data' or source names, got {vary!r}")
        label = key.capitalize() if key in ("all", *_VARY) else vary
    else:
        varied = tuple(vary)
        label = "+".join(varied)
    unknown = [s for s in varied if s not in study.sources]
    if unknown:
        raise InputError(
            f"vary: unknown source {unknown[0]!r}; the study's sources are {list(study.sources)}"
        )
    if "search" in varied:
        raise InputError("vary: FixHOptEst holds the hyperparameter search fixed; use ideal_estimate instead")
    fixed = tuple(s for s in study.sources if s not in varied)
    return _estimate(
        study, f"FixHOptEst({label})", runs=runs, seed=seed, fixed=fixed, repetitions=repetitions
    )


@dataclasses.dataclass(frozen=True, eq=False)
class SourceVariances(Result):
    """Variance of the score due to each source alone, and as a fraction of the data split's (Fig. 1).

    ``variances[s]`` is the variance (ddof=1) of ``runs`` scores where only source ``s`` is randomised and
    every other source keeps one seed; ``variances['none']`` randomises nothing (numerical noise).
    ``fractions[s]`` = ``variances[s] / variances['split']``.

    See Also
    --------
    source_variances : The variance due to each source of variation alone.
    Study : Train a pipeline many times, each source of variation fixed or randomised.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 1.
    """

    variances: dict[str, float]
    fractions: dict[str, float]
    runs: int

    def __repr__(self) -> str:
        parts = ", ".join(f"{s}={self.fractions[s]:.3g}" for s in self.fractions)
        return f"SourceVariances(runs={self.runs}, fraction of split variance: {parts})"

    @property
    def largest(self) -> tuple[str, ...]:
        """The sources (not 'none') whose variance is the largest, more than one if they tie; empty when
        no source makes the score vary."""
        probed = {s: v for s, v in self.variances.items() if s != "none" and v > 0}
        if not probed:
            return ()
        top = max(probed.values())
        return tuple(s for s, v in probed.items() if v == top)

    @property
    def verdict(self) -> str:
        """The source that moves the score most, in plain words (paper §2.2, Fig. 1)."""
        return _study_text.source_variances_verdict(self)

    def describe(self) -> Description:
        """The variance of each source, then the verdict (paper §2.2, Fig. 1); its section and its data
        (nan as null). Its table has one row per source probed: ``source``, ``variance``, ``std`` and
        ``fraction`` (of the split's)."""
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_study_text.source_variances_text(self),
            data={"runs": self.runs, "variances": self.variances, "fractions": self.fractions},
            columns=("source", "variance", "std", "fraction of split"),
            rows=tuple(_study_text.source_variances_rows(self)),
            frame={
                "source": list(self.variances),
                "variance": list(self.variances.values()),
                "std": np.sqrt(list(self.variances.values())),
                "fraction": [self.fractions[s] for s in self.variances],
            },
            notes=("'none': nothing randomised, numerical noise.",),
            assumptions=(("runs per source", f"{self.runs}, the other sources held fixed"),),
            source=f"{SOURCE}, §2.2, Fig. 1",
            inputs=self.inputs,
            analysis="compare source variances",
        )


def source_variances(
    study: Study, *, runs: int, seed: int | np.random.Generator, sources: Sequence[str] | None = None
) -> SourceVariances:
    """Variance due to each source of variation, as a fraction of the data-split variance (§2.2, Fig. 1).

    For each source, ``runs`` trainings randomise that source only while all others keep their seed (the
    same fixed seeds for every source, as in the paper's "keeping all other sources fixed to initial
    values"); a last batch randomises nothing and measures the numerical noise ('none'). The variances
    are not additive: the sources interact.

    Parameters
    ----------
    study : Study
    runs : int
        Trainings per source (the paper uses 200).
    seed : int or numpy.random.Generator
    sources : sequence of str, optional
        The sources to probe; all of the study's by default. 'split' is always probed.

    Returns
    -------
    SourceVariances

    See Also
    --------
    SourceVariances : The variance due to each source of variation.
    Study : Train a pipeline many times, each source of variation fixed or randomised.
    test_set_variance : The measured standard deviation beside the binomial model's.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 1.

    Examples
    --------
    >>> def fit_and_score(train, test, hyperparameters, seeds):
    ...     return len(test) / 50 + np.random.default_rng(seeds["init"]).normal(0, 0.01)
    >>> study = Study(fit_and_score, data_size=50, sources=("split", "init"))
    >>> result = source_variances(study, runs=100, seed=0)
    >>> result.variances["none"], 0 < result.fractions["init"] < 1
    (0.0, True)
    """
    study = _check_study(study)
    runs = check_count(runs, "runs")
    if runs < 2:
        raise InputError(f"runs: expected at least 2 runs to measure a variance, got {runs}")
    root = _root_seed(seed)
    if sources is None:
        probed = study.sources
    else:
        probed = (sources,) if isinstance(sources, str) else tuple(sources)
        unknown = [s for s in probed if s not in study.sources]
        if unknown:
            raise InputError(f"sources: unknown source {unknown[0]!r}; the study's are {list(study.sources)}")
        probed = ("split", *(s for s in probed if s != "split"))
    variances = {}
    for source in probed:
        fixed = tuple(s for s in study.sources if s != source)
        variances[source] = float(_variance(study.run(runs, seed=root, fixed=fixed).scores))
    variances["none"] = float(_variance(study.run(runs, seed=root, fixed=study.sources).scores))
    split = variances["split"]
    fractions = {s: (v / split if split > 0 else float("nan")) for s, v in variances.items()}
    return SourceVariances(variances=variances, fractions=fractions, runs=runs)


def average_correlation(scores: ArrayLike) -> float:
    """ρ, the average correlation between two runs that share the same fixed seeds (paper §3.2.2, Eq. 7).

    ``scores`` has one row per repetition of an estimator (each with its own draw of the fixed sources ξ)
    and one column per run. Runs within a row are exchangeable, so ρ is the intraclass correlation,
    estimated by one-way analysis of variance: ρ = (MSB - MSW) / (MSB + (k - 1) MSW), where MSB and MSW
    are the between-row and within-row mean squares and k the runs per row. The estimate is clipped to
    [-1/(k-1), 1].

    Parameters
    ----------
    scores : array_like, shape (repetitions, runs)
        At least 2 repetitions of at least 2 runs.

    Returns
    -------
    float

    See Also
    --------
    mean_variance : The variance of the mean of k correlated runs.
    fixed_hopt_estimate : FixHOptEst, the biased estimator: one hyperparameter optimisation.
    Estimate : An estimate of a pipeline's expected score, and its spread.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §3.2.2, Eq. (7); appendix H, Fig. H.5.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> shared = rng.normal(size=(2000, 1))  # the fixed sources: same within a row
    >>> scores = shared + rng.normal(size=(2000, 5))  # plus the randomised ones
    >>> round(average_correlation(scores), 1)  # 1 / (1 + 1)
    0.5
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 2 or scores.shape[0] < 2 or scores.shape[1] < 2:
        raise InputError(
            f"scores: expected a (repetitions, runs) table with both >= 2, got shape {scores.shape}"
        )
    if not np.isfinite(scores).all():
        raise InputError("scores: expected finite numbers")
    groups, k = scores.shape
    row_means = scores.mean(axis=1)
    msb = k * ((row_means - scores.mean()) ** 2).sum() / (groups - 1)
    msw = ((scores - row_means[:, None]) ** 2).sum() / (groups * (k - 1))
    denominator = msb + (k - 1) * msw
    if denominator == 0:
        return float("nan")
    return float(np.clip((msb - msw) / denominator, -1 / (k - 1), 1.0))


def _nonnegative(value: float, name: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(value)
        or value < 0
    ):
        raise InputError(f"{name}: expected a non-negative number, got {value!r}")
    return float(value)


def mean_variance(variance: float, *, runs: int, correlation: float) -> float:
    """Variance of the mean of k runs with average pairwise correlation ρ (paper Eq. 7).

    Var(μ̃_(k) | ξ) = Var(R̂_e | ξ) / k + (k - 1)/k · ρ · Var(R̂_e | ξ). With ρ = 0 this is σ²/k (Eq. 6);
    with ρ > 0 it tends to ρ σ², not 0, as k grows.

    Parameters
    ----------
    variance : float
        Var(R̂_e | ξ), the variance of one run's score.
    runs : int
        k.
    correlation : float
        ρ, in [-1/(k-1), 1].

    Returns
    -------
    float

    See Also
    --------
    average_correlation : ρ, the average correlation between runs that share their fixed seeds.
    fixed_hopt_estimate : FixHOptEst, the biased estimator: one hyperparameter optimisation.
    Estimate : An estimate of a pipeline's expected score, and its spread.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §3.2.1, Eq. (6); §3.2.2, Eq. (7).

    Examples
    --------
    >>> mean_variance(1.0, runs=10, correlation=0.0)
    0.1
    >>> round(mean_variance(1.0, runs=10, correlation=0.5), 3)
    0.55
    """
    variance = _nonnegative(variance, "variance")
    k = check_count(runs, "runs")
    rho = correlation
    if (
        isinstance(rho, bool)
        or not isinstance(rho, numbers.Real)
        or not math.isfinite(rho)
        or not -1 <= rho <= 1
    ):
        raise InputError(f"correlation: expected a number in [-1, 1], got {correlation!r}")
    if k > 1 and rho < -1 / (k - 1) - 1e-12:
        raise InputError(
            f"correlation: {rho!r} is below -1/(k-1) = {-1 / (k - 1):.6g}, impossible for {k} runs"
        )
    return max(variance / k + (k - 1) / k * rho * variance, 0.0)


def binomial_variance(accuracy: ArrayLike, *, test_size: ArrayLike) -> float | np.ndarray:
    """Variance of a measured accuracy under the binomial model of the test set (paper §2.2, Fig. 2).

    A pipeline that errs independently with probability τ = 1 - p on each of n' test examples measures an
    accuracy with variance p(1 - p)/n'. Vectorised over both arguments.

    Parameters
    ----------
    accuracy : float or array_like
        p, in [0, 1].
    test_size : int or array_like
        n', the number of test examples.

    Returns
    -------
    float or numpy.ndarray

    See Also
    --------
    test_set_variance : The measured standard deviation beside the binomial model's.
    TestSetVariance : The measured and the binomial standard deviations of accuracies.
    history : Which state-of-the-art increments exceed the benchmark's noise.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 2.

    Examples
    --------
    >>> binomial_variance(0.5, test_size=10000)
    2.5e-05
    >>> round(binomial_variance(0.9, test_size=3000) ** 0.5, 5)  # standard deviation
    0.00548
    """
    p = np.asarray(accuracy, dtype=float)
    n = np.asarray(test_size, dtype=float)
    if not np.all(np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise InputError(f"accuracy: expected probabilities in [0, 1], got {accuracy!r}")
    if not np.all(np.isfinite(n)) or np.any(n < 1) or np.any(n != np.round(n)):
        raise InputError(f"test_size: expected positive whole numbers, got {test_size!r}")
    out = p * (1 - p) / n
    return float(out) if out.ndim == 0 else out


@dataclasses.dataclass(frozen=True, eq=False)
class TestSetVariance(Result):
    """Measured standard deviation of the scores beside the binomial model's (Fig. 2).

    ``binomial_std`` = √(mean over runs of p(1-p)/n'_i), p the mean score and n'_i each run's test size.

    See Also
    --------
    test_set_variance : The measured standard deviation beside the binomial model's.
    binomial_variance : The variance of an accuracy under the binomial model of the test set.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 2.
    """

    __test__ = False  # not a pytest test class

    measured_std: float
    binomial_std: float
    accuracy: float
    test_size: float
    runs: int

    def __repr__(self) -> str:
        return (
            f"TestSetVariance(measured std={self.measured_std:.4g}, binomial std={self.binomial_std:.4g}, "
            f"accuracy={self.accuracy:.4g}, mean test size={self.test_size:.1f}, runs={self.runs})"
        )

    @property
    def ratio(self) -> float:
        """measured_std / binomial_std: 1 when the binomial model explains the spread (nan if it is 0)."""
        return self.measured_std / self.binomial_std if self.binomial_std > 0 else float("nan")

    @property
    def verdict(self) -> str:
        """The measured spread beside the binomial model's, in plain words (paper §2.2, Fig. 2)."""
        return _study_text.test_set_variance_verdict(self)

    def describe(self) -> Description:
        """The two standard deviations and their ratio, then the verdict (paper §2.2, Fig. 2); its section
        and its data."""
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_study_text.test_set_variance_text(self),
            data={
                "measured_std": self.measured_std,
                "binomial_std": self.binomial_std,
                "accuracy": self.accuracy,
                "test_size": self.test_size,
                "runs": self.runs,
            },
            columns=("quantity", "value"),
            rows=(
                ("measured std", f"{self.measured_std:.4g}"),
                ("binomial std", f"{self.binomial_std:.4g}"),
                ("ratio", f"{self.ratio:.3g}"),
            ),
            assumptions=(
                ("mean accuracy p", f"{self.accuracy:.4g}"),
                ("mean test size n'", f"{self.test_size:.1f}"),
                ("runs", f"{self.runs}"),
            ),
            source=f"{SOURCE}, §2.2, Fig. 2",
            inputs=self.inputs,
            analysis="compare test-set variance",
        )


def test_set_variance(runs: Runs) -> TestSetVariance:
    """The measured standard deviation of accuracies beside the binomial model's (paper §2.2, Fig. 2).

    Use runs that randomise the data split (e.g. ``study.run(k, seed=..., fixed=<all but 'split'>)``):
    if the data-sampling variance is the limited power of the test set, the two agree.

    Parameters
    ----------
    runs : Runs
        At least 2 runs whose scores are accuracies in [0, 1].

    Returns
    -------
    TestSetVariance

    See Also
    --------
    TestSetVariance : The measured and the binomial standard deviations of accuracies.
    binomial_variance : The variance of an accuracy under the binomial model of the test set.
    source_variances : The variance due to each source of variation alone.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2, Fig. 2.

    Examples
    --------
    >>> def fit_and_score(train, test, hyperparameters, seeds):
    ...     rng = np.random.default_rng(test)  # a new test sample for each split
    ...     return float((rng.random(test.size) < 0.8).mean())
    >>> study = Study(fit_and_score, data_size=1000, sources=("split",))
    >>> result = test_set_variance(study.run(400, seed=0))
    >>> bool(abs(result.measured_std / result.binomial_std - 1) < 0.1)
    True
    """
    if not isinstance(runs, Runs):
        raise InputError(f"runs: expected the Runs table of Study.run, got {runs!r}")
    if len(runs) < 2:
        raise InputError(f"runs: expected at least 2 runs, got {len(runs)}")
    scores = runs.scores
    if np.any((scores < 0) | (scores > 1)):
        raise InputError("runs: the scores must be accuracies in [0, 1] for the binomial model")
    p = float(scores.mean())
    sizes = runs.test_sizes
    binomial = float(np.mean(binomial_variance(p, test_size=sizes)))
    return TestSetVariance(
        measured_std=math.sqrt(_variance(scores)),
        binomial_std=math.sqrt(binomial),
        accuracy=p,
        test_size=float(sizes.mean()),
        runs=len(runs),
    )


# Its name starts with test_: keep pytest from collecting it where it is imported into a test module.
vars(test_set_variance)["__test__"] = False
