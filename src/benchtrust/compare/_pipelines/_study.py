"""A study that trains a pipeline many times, each source of variation held fixed or randomised (paper §2).

Bouthillier et al. (2021) model a benchmark's score as a random variable driven by the data split
(out-of-bootstrap, appendix B), the learning procedure's own randomness ξ_O (weight initialisation, data
order, augmentation, dropout) and the hyperparameter optimisation's randomness ξ_H (§2.1). A
:class:`Study` runs a user's ``fit_and_score(train, test, hyperparameters, seeds)`` many times with one
seed per source and per run, so that

* any source can be held fixed (one seed shared by every run) or randomised (a new seed per run), which
  gives the variance of each source (Fig. 1) and the estimators of Algorithms 1 and 2 (§3.2);
* every run's seeds are recorded, so any run can be replayed exactly (:meth:`Study.replay`) and two
  pipelines A and B run with the same ``seed`` see the same splits and seeds, run by run (pairing, C.2);
* run *i*'s seeds depend only on the study ``seed``, the fixed sources and *i*, never on how many runs are
  asked for, so a study interrupted after 6 of 10 runs resumes from its results file by doing the 4 missing
  runs only.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import math
import numbers
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, overload

import numpy as np

from benchtrust._io import InputError, Seed, check_count, check_seed
from benchtrust._result import Description, Result
from benchtrust.compare._pipelines import _study_text
from benchtrust.compare._pipelines._outperform import direction_of
from benchtrust.compare._pipelines._text import COMPARE_QUESTION, SOURCE

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from benchtrust._io import Direction

__all__ = ["NoisyGridSearch", "RandomSearch", "Run", "Runs", "Study", "out_of_bootstrap"]

#: Sources of variation of the learning procedure ξ_O handed to ``fit_and_score`` (C.1), by default.
DEFAULT_SOURCES = ("split", "init", "order", "augment", "dropout")

#: Most runs of a study its section lists.
_LISTED_RUNS = 50

#: A search function of a :class:`Study`: ``search(evaluate, rng) -> dict`` of hyperparameters, where
#: ``evaluate(λ)`` returns the validation score of the hyperparameters λ.
SearchFunction: TypeAlias = (
    "Callable[[Callable[[Mapping[str, Any]], float], np.random.Generator], Mapping[str, Any]]"
)


# --------------------------------------------------------------------------------------------- splits
def out_of_bootstrap(
    size_or_labels: int | ArrayLike, *, seed: int | np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """One out-of-bootstrap split of the data set's indices (paper appendix B, Eqs. 11-12).

    The training set S^t_b is ``n`` indices drawn with replacement from ``0 .. n-1``; the test set S^o_b is
    every index never drawn (about n/e of them). Given class labels, the draw is stratified: each class's
    training indices are drawn with replacement from that class only, as many as the class holds.

    Parameters
    ----------
    size_or_labels : int or array_like
        n, the number of examples, or one label per example for a stratified split.
    seed : int or numpy.random.Generator
        Randomness of the split.

    Returns
    -------
    (numpy.ndarray, numpy.ndarray)
        ``train`` (n indices, with repeats, sorted) and ``test`` (distinct indices, sorted).

    See Also
    --------
    Study : Train a pipeline many times, each source of variation fixed or randomised.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2; appendix B, Eq. (11)-(12).

    Examples
    --------
    >>> train, test = out_of_bootstrap(10, seed=0)
    >>> len(train), bool(np.isin(test, train).any())
    (10, False)
    >>> train, test = out_of_bootstrap(["a"] * 5 + ["b"] * 5, seed=0)
    >>> int((train < 5).sum()), int((train >= 5).sum())
    (5, 5)
    """
    rng = np.random.default_rng(seed)
    if isinstance(size_or_labels, numbers.Integral):
        n = check_count(size_or_labels, "data_size")
        groups = [np.arange(n)]
    else:
        labels = np.asarray(size_or_labels)
        if labels.ndim != 1 or labels.size == 0:
            raise InputError("labels: expected a non-empty one-dimensional array of class labels")
        n = labels.size
        _, codes = np.unique(labels, return_inverse=True)
        groups = [np.flatnonzero(codes == c) for c in range(codes.max() + 1)]
    train = np.concatenate([rng.choice(group, size=group.size, replace=True) for group in groups])
    train.sort()
    drawn = np.zeros(n, dtype=bool)
    drawn[train] = True
    return train, np.flatnonzero(~drawn)


# --------------------------------------------------------------------------------------------- searches
def _dimension(name: object, spec: object) -> tuple[float, float, bool]:
    """(low, high, log) of one search dimension, or an InputError naming it."""
    if (
        not isinstance(spec, (tuple, list))
        or len(spec) not in (2, 3)
        or (len(spec) == 3 and spec[2] != "log")
    ):
        raise InputError(f"space[{name!r}]: expected (low, high) or (low, high, 'log'), got {spec!r}")
    low, high = spec[0], spec[1]
    for value in (low, high):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            raise InputError(f"space[{name!r}]: bounds must be finite numbers, got {spec!r}")
    if not low < high:
        raise InputError(f"space[{name!r}]: expected low < high, got {spec!r}")
    log = len(spec) == 3
    if log and low <= 0:
        raise InputError(f"space[{name!r}]: a 'log' dimension needs positive bounds, got {spec!r}")
    return float(low), float(high), log


def _space(space: object) -> dict[str, tuple[float, float, bool]]:
    if not isinstance(space, Mapping) or not space:
        raise InputError(
            f"space: expected a non-empty mapping of name -> (low, high[, 'log']), got {space!r}"
        )
    return {str(name): _dimension(name, spec) for name, spec in space.items()}


@dataclasses.dataclass(frozen=True)
class RandomSearch:
    """Random search over a box (paper appendix E.3): ``trials`` points drawn uniformly, log-uniformly on
    dimensions marked ``'log'``.

    Parameters
    ----------
    space : mapping
        name -> ``(low, high)`` or ``(low, high, 'log')``.
    trials : int
        T, the number of hyperparameter values tried.

    See Also
    --------
    NoisyGridSearch : Noisy grid search over a box.
    Study : Train a pipeline many times, each source of variation fixed or randomised.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2; appendix E.3.

    Examples
    --------
    >>> search = RandomSearch({"lr": (1e-4, 1e-1, "log"), "dropout": (0.0, 0.5)}, trials=3)
    >>> candidates = search.candidates(np.random.default_rng(0))
    >>> len(candidates), sorted(candidates[0])
    (3, ['dropout', 'lr'])
    """

    space: Mapping[str, Any]
    trials: int

    def __post_init__(self) -> None:
        _space(self.space)
        check_count(self.trials, "trials")

    def candidates(self, rng: np.random.Generator) -> list[dict[str, float]]:
        """The ``trials`` hyperparameter dictionaries to try, drawn with ``rng``."""
        dims = _space(self.space)
        out: list[dict[str, float]] = [{} for _ in range(int(self.trials))]
        for name, (low, high, log) in dims.items():
            if log:
                values = np.exp(rng.uniform(np.log(low), np.log(high), size=len(out)))
            else:
                values = rng.uniform(low, high, size=len(out))
            for candidate, value in zip(out, values, strict=True):
                candidate[name] = float(value)
        return out


@dataclasses.dataclass(frozen=True)
class NoisyGridSearch:
    """Noisy grid search (paper appendix E.2): a grid of ``points`` values per dimension whose ends a_i and
    b_i are each moved by U(-Δ_i/2, Δ_i/2), Δ_i = (b_i - a_i)/(points - 1), so that the grid covers the
    grid search's values in expectation. Dimensions marked ``'log'`` are gridded in log space.

    Parameters
    ----------
    space : mapping
        name -> ``(low, high)`` or ``(low, high, 'log')``.
    points : int
        n, values per dimension (at least 2); ``points ** len(space)`` trials in all.

    See Also
    --------
    RandomSearch : Random search over a box.
    Study : Train a pipeline many times, each source of variation fixed or randomised.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.2; appendix E.1-E.2.

    Examples
    --------
    >>> search = NoisyGridSearch({"lr": (0.0, 1.0)}, points=3)
    >>> [round(c["lr"], 3) for c in search.candidates(np.random.default_rng(0))]
    [0.068, 0.477, 0.885]
    """

    space: Mapping[str, Any]
    points: int

    def __post_init__(self) -> None:
        _space(self.space)
        if check_count(self.points, "points") < 2:
            raise InputError(f"points: expected at least 2 values per dimension, got {self.points!r}")

    def candidates(self, rng: np.random.Generator) -> list[dict[str, float]]:
        """The grid's hyperparameter dictionaries, its ends perturbed with ``rng``."""
        n = int(self.points)
        axes: dict[str, np.ndarray] = {}
        for name, (low, high, log) in _space(self.space).items():
            a, b = (np.log(low), np.log(high)) if log else (low, high)
            delta = (b - a) / (n - 1)
            a, b = rng.uniform(a - delta / 2, a + delta / 2), rng.uniform(b - delta / 2, b + delta / 2)
            values = np.linspace(a, b, n)
            axes[name] = np.exp(values) if log else values
        names = list(axes)
        return [
            {name: float(v) for name, v in zip(names, combo, strict=True)}
            for combo in itertools.product(*(axes[name] for name in names))
        ]


# --------------------------------------------------------------------------------------------- results
@dataclasses.dataclass(frozen=True)
class Run:
    """One training of the pipeline: its index, the seed of every source, the hyperparameters and score.

    ``seeds`` holds one int per source of the study ('split', 'init', ..., and 'search' when the study
    searches hyperparameters); ``test_size`` is the number of test examples n' the score was measured on.

    See Also
    --------
    Runs : The table of a study's runs.
    Study : Train a pipeline many times, each source of variation fixed or randomised.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.1; appendix C.2 (pairing).
    """

    index: int
    seeds: Mapping[str, int]
    hyperparameters: Mapping[str, Any]
    score: float
    test_size: int

    def to_dict(self) -> dict[str, Any]:
        """The run as plain JSON types."""
        return {
            "run": self.index,
            "seeds": dict(self.seeds),
            "hyperparameters": dict(self.hyperparameters),
            "score": self.score,
            "test_size": self.test_size,
        }

    @classmethod
    def _from_dict(cls, row: Mapping[str, Any]) -> Run:
        return cls(
            index=int(row["run"]),
            seeds={str(k): int(v) for k, v in row["seeds"].items()},
            hyperparameters=dict(row["hyperparameters"]),
            score=float(row["score"]),
            test_size=int(row["test_size"]),
        )


@dataclasses.dataclass(frozen=True, eq=False)
class Runs(Result):
    """The table of a study's runs, one :class:`Run` per row, in run order.

    ``sources`` are the study's sources of variation, ``fixed`` those held fixed, ``seed`` the study seed.
    Index it, iterate over it, or take ``scores`` (a numpy array) and ``to_frame()`` (a pandas DataFrame:
    run, one ``seed_<source>`` column per source, the hyperparameters, score and test size).

    See Also
    --------
    Run : One training of a study.
    Study : Train a pipeline many times, each source of variation fixed or randomised.
    test_set_variance : The measured standard deviation beside the binomial model's.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.1-2.2; appendix C.2 (pairing).
    """

    rows: tuple[Run, ...]
    sources: tuple[str, ...]
    fixed: tuple[str, ...]
    seed: int

    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[Run]:
        return iter(self.rows)

    @overload
    def __getitem__(self, item: int) -> Run: ...
    @overload
    def __getitem__(self, item: slice) -> tuple[Run, ...]: ...
    def __getitem__(self, item: int | slice) -> Run | tuple[Run, ...]:
        return self.rows[item]

    @property
    def scores(self) -> np.ndarray:
        """The runs' scores, in run order."""
        return np.array([row.score for row in self.rows], dtype=float)

    @property
    def test_sizes(self) -> np.ndarray:
        """The runs' test-set sizes n', in run order."""
        return np.array([row.test_size for row in self.rows], dtype=int)

    def __repr__(self) -> str:
        scores = self.scores
        summary = f", mean={scores.mean():.6g}" if len(scores) else ""
        summary += f", std={scores.std(ddof=1):.3g}" if len(scores) > 1 else ""
        fixed = list(self.fixed)
        return f"Runs({len(self)} runs, sources={list(self.sources)}, fixed={fixed}{summary})"

    @property
    def verdict(self) -> str:
        """The runs in plain words: which sources were randomised, the scores' mean and spread."""
        return _study_text.runs_verdict(self)

    def describe(self) -> Description:
        """The runs as a table (score, test size, hyperparameters), then the verdict (paper §2, C.1); its
        section (the first 50 runs) and its data. Its table has a row per run: ``run``, one ``seed_<source>``
        column per source, the hyperparameters, ``score`` and ``test_size``."""
        columns, rows = _study_text.runs_rows(self)
        names = columns[3:]  # the hyperparameters, in order of first appearance
        notes: tuple[str, ...] = ()
        if len(rows) > _LISTED_RUNS:
            notes = (
                f"{len(rows)} runs; the table lists the first {_LISTED_RUNS} (to_frame() has them all).",
            )
        return Description(
            question=COMPARE_QUESTION,
            verdict=self.verdict,
            text=_study_text.runs_text(self),
            data={
                "sources": self.sources,
                "fixed": self.fixed,
                "seed": self.seed,
                "runs": [row.to_dict() for row in self.rows],
            },
            columns=columns,
            rows=tuple(rows[:_LISTED_RUNS]),
            frame={
                "run": [row.index for row in self.rows],
                **{f"seed_{s}": [row.seeds.get(s) for row in self.rows] for s in self.sources},
                **{n: [row.hyperparameters.get(n) for row in self.rows] for n in names},
                "score": [row.score for row in self.rows],
                "test_size": [row.test_size for row in self.rows],
            },
            notes=notes,
            assumptions=(
                ("sources", ", ".join(self.sources)),
                ("held fixed", ", ".join(self.fixed) or "none"),
                ("study seed", f"{self.seed}"),
            ),
            source=f"{SOURCE}, §2, appendix C.1",
            inputs=self.inputs,
            analysis="compare study runs",
        )


# --------------------------------------------------------------------------------------------- helpers
def _capped_jobs(n_jobs: int, backend: str | None) -> int:
    """`n_jobs` capped at the cores of this machine for a backend of local processes, with a warning:
    more worker processes than cores only compete for them (threads and a cluster are left as asked)."""
    if backend not in (None, "loky", "multiprocessing"):
        return n_jobs
    from joblib import cpu_count

    cores = cpu_count()
    if n_jobs <= cores:
        return n_jobs
    import warnings

    cores_text = f"{cores} core{'s' * (cores != 1)}"
    warnings.warn(f"n_jobs={n_jobs}: capped at the {cores_text} of this machine", stacklevel=3)
    return cores


def _root_seed(seed: Seed) -> int:
    """An int from ``seed`` (int or Generator): the root of every seed of a study run."""
    if isinstance(seed, np.random.Generator):
        return int(seed.integers(2**63))
    if seed is None:
        raise InputError("seed: expected a non-negative int or a numpy.random.Generator, got None")
    check_seed(seed)
    return int(seed)


def _source_seed(root: int, position: int, run: int) -> int:
    """Seed of source number ``position`` in run ``run`` (run -1 = the shared seed of a fixed source)."""
    return int(np.random.SeedSequence([root, position, run + 1]).generate_state(1)[0])


def _resolve_fixed(fixed: str | Iterable[str], sources: tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(fixed, str):
        fixed = (fixed,)
    try:
        fixed = tuple(fixed)
    except TypeError:
        raise InputError(f"fixed: expected source names, got {fixed!r}") from None
    unknown = [name for name in fixed if name not in sources]
    if unknown:
        raise InputError(f"fixed: unknown source {unknown[0]!r}; the study's sources are {list(sources)}")
    return tuple(name for name in sources if name in fixed)


def _call(
    fit_and_score: Callable[..., float],
    train: np.ndarray,
    test: np.ndarray,
    hyperparameters: Mapping[str, Any],
    seeds: Mapping[str, int],
) -> float:
    score = fit_and_score(train, test, dict(hyperparameters), dict(seeds))
    try:
        value = float(score)
    except (TypeError, ValueError):
        raise InputError(f"fit_and_score: expected a number as the score, got {score!r}") from None
    if not math.isfinite(value):
        raise InputError(f"fit_and_score: returned a non-finite score {score!r}")
    return value


def _hopt(study, tv, seeds, search_seed):
    """HOpt(S^tv, ξ_O, ξ_H) (§2.1): best hyperparameters on an out-of-bootstrap train/validation split of
    the distinct examples of S^tv, the split and the candidates drawn with ξ_H."""
    rng = np.random.default_rng(search_seed)
    distinct = np.unique(tv)
    labels = None if study._labels is None else study._labels[distinct]
    fit_pos, valid_pos = out_of_bootstrap(distinct.size if labels is None else labels, seed=rng)
    if valid_pos.size == 0:
        raise InputError("data_size: too few examples to hold out a validation set for the search")
    fit, valid = distinct[fit_pos], distinct[valid_pos]
    search = study.search
    base = dict(study.hyperparameters)

    def evaluate(candidate):
        return _call(study.fit_and_score, fit, valid, {**base, **candidate}, seeds)

    if callable(search) and not isinstance(search, (RandomSearch, NoisyGridSearch)):
        best = search(evaluate, rng)
        if not isinstance(best, Mapping):
            raise InputError(f"search: a search function must return a dict of hyperparameters, got {best!r}")
        return {**base, **best}
    candidates = search.candidates(rng)
    values = np.array([evaluate(c) for c in candidates])
    best = int(np.argmin(values) if study.direction == "lower" else np.argmax(values))
    return {**base, **candidates[best]}


def _execute(study, index, seeds, hyperparameters, hopt_seeds):
    """One run: split, HOpt when the search is randomised, then Opt and R̂_e on the test set."""
    train, test = study.split(seeds["split"])
    if hyperparameters is None:
        hyperparameters = _hopt(study, train, _training_seeds(study, hopt_seeds), hopt_seeds["search"])
    score = _call(study.fit_and_score, train, test, hyperparameters, _training_seeds(study, seeds))
    return Run(index, dict(seeds), dict(hyperparameters), score, int(test.size))


def _training_seeds(study: Study, seeds: Mapping[str, int]) -> dict[str, int]:
    return {s: seeds[s] for s in study.sources if s not in ("split", "search")}


def _drop_torn_line(path: Path) -> None:
    """Cut a last line left unfinished by an interrupted write, so that new rows start on their own line."""
    if not path.exists():
        return
    with path.open("r+b") as handle:
        data = handle.read()
        if data and not data.endswith(b"\n"):
            handle.truncate(data.rfind(b"\n") + 1)


def _read_results(path):
    """Runs already in the results file, keyed by (run index, seeds); a torn last line is ignored."""
    done = {}
    if path is None or not path.exists():
        return done
    with path.open(encoding="utf-8") as handle:
        lines = handle.read().split("\n")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            run = Run._from_dict(json.loads(line))
        except (ValueError, KeyError, TypeError, AttributeError):
            if number >= len(lines) - 1:  # the last line of an interrupted write
                continue
            raise InputError(f"{path}, line {number}: not a benchtrust study result row") from None
        done[(run.index, tuple(sorted(run.seeds.items())))] = run
    return done


# --------------------------------------------------------------------------------------------- Study
class Study:
    """Run a training pipeline many times, randomising or fixing each source of variation (paper §2, C.1).

    Parameters
    ----------
    fit_and_score : callable
        ``fit_and_score(train, test, hyperparameters, seeds) -> float``: trains on the examples indexed by
        ``train`` (an int array, with repeats), returns the score R̂_e on those indexed by ``test``.
        ``hyperparameters`` is a dict λ; ``seeds`` maps each source of ξ_O other than the split (e.g.
        'init', 'order', 'augment', 'dropout') to an int the pipeline must use to seed that source. Any
        framework works; it must be picklable for process backends (closures are fine with loky).
    data_size : int, optional
        n, the number of examples; the split is out-of-bootstrap over ``range(n)`` (appendix B).
    labels : array_like, optional
        One class label per example, instead of ``data_size``: the split is then stratified by class.
    sources : sequence of str, default ('split', 'init', 'order', 'augment', 'dropout')
        The sources of variation; must include 'split'. 'search' is added when ``search`` is given.
    hyperparameters : dict, optional
        λ used when there is no search, and the defaults the search's values are merged into.
    search : RandomSearch, NoisyGridSearch or callable, optional
        HOpt (§2.1, appendix E). A callable is ``search(evaluate, rng) -> dict``, where ``evaluate(λ)``
        returns the validation score of λ. The search runs on a train/validation out-of-bootstrap split of
        the run's training examples, both drawn with the 'search' seed ξ_H.
    direction : {"higher", "lower"}, default "higher"
        Which scores are better: "lower" makes the search minimise the score (an error, a loss) rather
        than maximise it (accuracy). The study keeps it as ``direction`` (``lower_is_better`` is
        ``direction == "lower"``).
    results : str or Path, optional
        A JSON-lines file: each finished run is appended and flushed at once, and a later ``run`` with the
        same file reuses the runs it holds (matched by run index and seeds) instead of training again. Use
        one file per pipeline.
    n_jobs : int, default 1
        Runs in parallel (joblib's ``n_jobs``; -1 = all cores). With the process backends (the default
        'loky', 'multiprocessing'), more than the machine's cores is capped at them, with a warning.
    backend : str, optional
        joblib backend: 'loky' (default for n_jobs != 1), 'threading', or 'dask' to run on the
        ``dask.distributed.Client`` the caller created (needs the ``[dask]`` extra).
    lower_is_better : bool, optional
        Deprecated: the old spelling of `direction` (True is ``direction="lower"``).

    See Also
    --------
    Run : One training of a study.
    Runs : The table of a study's runs.
    RandomSearch : Random search over a box.
    NoisyGridSearch : Noisy grid search over a box.
    out_of_bootstrap : One out-of-bootstrap split of a data set.
    source_variances : The variance due to each source of variation alone.
    ideal_estimate : IdealEst, the estimator that randomises every source.
    fixed_hopt_estimate : FixHOptEst, the biased estimator: one hyperparameter optimisation.

    References
    ----------
    .. [1] X. Bouthillier, P. Delaunay, M. Bronzi et al., "Accounting for variance in machine learning
       benchmarks", Proceedings of Machine Learning and Systems 3 (MLSys 2021).
       arXiv:2103.03098. §2.1 (the sources ξ_O and ξ_H), §2.2; appendix B (out-of-bootstrap), C.1-C.2
       (randomising and pairing), E (hyperparameter optimisation).

    Examples
    --------
    >>> def fit_and_score(train, test, hyperparameters, seeds):
    ...     noise = np.random.default_rng(seeds["init"]).normal(0, 0.01)
    ...     return 0.9 + noise - 0.001 * len(test) / 100
    >>> study = Study(fit_and_score, data_size=100, sources=("split", "init"))
    >>> runs = study.run(5, seed=0)
    >>> len(runs), runs[0].index, sorted(runs[0].seeds)
    (5, 0, ['init', 'split'])
    >>> study.replay(runs[3]) == runs[3].score
    True
    >>> bool(np.all(study.run(5, seed=0, fixed="init").scores == study.run(5, seed=0, fixed="init").scores))
    True
    """

    fit_and_score: Callable[..., float]
    data_size: int
    sources: tuple[str, ...]
    search: RandomSearch | NoisyGridSearch | SearchFunction | None
    hyperparameters: dict[str, Any]
    direction: Direction
    results: Path | None
    n_jobs: int
    backend: str | None
    _labels: np.ndarray | None

    def __init__(
        self,
        fit_and_score: Callable[..., float],
        *,
        data_size: int | None = None,
        labels: Iterable[Any] | None = None,
        sources: Iterable[str] = DEFAULT_SOURCES,
        hyperparameters: Mapping[str, Any] | None = None,
        search: RandomSearch | NoisyGridSearch | SearchFunction | None = None,
        direction: Direction = "higher",
        results: str | os.PathLike[str] | None = None,
        n_jobs: int = 1,
        backend: str | None = None,
        lower_is_better: bool | None = None,
    ) -> None:
        if not callable(fit_and_score):
            raise InputError(f"fit_and_score: expected a function, got {fit_and_score!r}")
        self.fit_and_score = fit_and_score
        if (data_size is None) == (labels is None):
            raise InputError("data_size, labels: give exactly one (the number of examples, or their labels)")
        if labels is None:
            self.data_size = check_count(data_size, "data_size")
            self._labels = None
        else:
            self._labels = np.asarray(list(labels) if not hasattr(labels, "__len__") else labels)
            if self._labels.ndim != 1 or self._labels.size == 0:
                raise InputError("labels: expected a non-empty one-dimensional array of class labels")
            self.data_size = int(self._labels.size)
        if self.data_size < 2:
            raise InputError(f"data_size: expected at least 2 examples, got {self.data_size}")
        if isinstance(sources, str):
            sources = (sources,)
        sources = tuple(sources)
        for name in sources:
            if not isinstance(name, str) or not name.isidentifier():
                raise InputError(f"sources: expected names such as 'init', got {name!r}")
        if "split" not in sources:
            raise InputError(f"sources: must include 'split', got {list(sources)}")
        if len(set(sources)) != len(sources):
            raise InputError(f"sources: a source is named twice in {list(sources)}")
        if "search" in sources:
            raise InputError("sources: 'search' is added by giving search=...; do not list it")
        if search is not None and not (
            isinstance(search, (RandomSearch, NoisyGridSearch)) or callable(search)
        ):
            raise InputError(f"search: expected RandomSearch, NoisyGridSearch or a function, got {search!r}")
        self.search = search
        self.sources = sources + (("search",) if search is not None else ())
        if hyperparameters is not None and not isinstance(hyperparameters, Mapping):
            raise InputError(f"hyperparameters: expected a dict, got {hyperparameters!r}")
        self.hyperparameters = dict(hyperparameters or {})
        self.direction = direction_of(direction, lower_is_better)
        self.results = None if results is None else Path(results)
        if self.results is not None and self.results.is_dir():
            raise InputError(f"results: {self.results} is a folder; expected a file path")
        if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral) or n_jobs == 0:
            raise InputError(f"n_jobs: expected a non-zero int (-1 = all cores), got {n_jobs!r}")
        if backend is not None and not isinstance(backend, str):
            raise InputError(
                f"backend: expected a joblib backend name such as 'loky' or 'dask', got {backend!r}"
            )
        self.backend = backend
        self.n_jobs = _capped_jobs(int(n_jobs), backend)

    def __repr__(self) -> str:
        name = getattr(self.fit_and_score, "__name__", repr(self.fit_and_score))
        return f"Study({name}, data_size={self.data_size}, sources={list(self.sources)})"

    @property
    def lower_is_better(self) -> bool:
        """Whether the search minimises the score: ``direction == "lower"`` (the old spelling, for old
        code)."""
        return self.direction == "lower"

    def split(self, seed: int | np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        """The out-of-bootstrap (train, test) index arrays of split seed ``seed`` (stratified when the study
        has labels); see :func:`out_of_bootstrap`."""
        return out_of_bootstrap(self.data_size if self._labels is None else self._labels, seed=seed)

    def seeds(
        self, runs: int, *, seed: int | np.random.Generator, fixed: str | Iterable[str] = ()
    ) -> list[dict[str, int]]:
        """The seeds of runs ``0 .. runs-1``: a list of dicts source -> int.

        A fixed source has one seed shared by all runs; a randomised source a new seed per run. Run *i*'s
        seeds depend only on ``seed``, ``fixed`` and *i*.
        """
        runs = check_count(runs, "runs")
        root = _root_seed(seed)
        fixed = _resolve_fixed(fixed, self.sources)
        return [
            {s: _source_seed(root, p, -1 if s in fixed else i) for p, s in enumerate(self.sources)}
            for i in range(runs)
        ]

    def run(self, runs: int, *, seed: int | np.random.Generator, fixed: str | Iterable[str] = ()) -> Runs:
        """Train ``runs`` times and return the table of runs.

        Parameters
        ----------
        runs : int
            k, the number of trainings (each with its own test-set score).
        seed : int or numpy.random.Generator
            Root of every source's seed. Two studies (pipelines A and B) run with the same ``seed``,
            sources and ``fixed`` get identical seeds and splits run by run: their runs are paired (C.2).
        fixed : str or sequence of str, default ()
            Sources held fixed (one seed shared by all runs); the others are randomised per run. Fixing
            'search' runs HOpt once, on the first run's split and seeds, and reuses λ̂* (Algorithm 2).

        Returns
        -------
        Runs
        """
        runs = check_count(runs, "runs")
        root = _root_seed(seed)
        fixed = _resolve_fixed(fixed, self.sources)
        plan = self.seeds(runs, seed=root, fixed=fixed)
        done = _read_results(self.results)
        found = {i: done.get((i, tuple(sorted(s.items())))) for i, s in enumerate(plan)}
        todo = [i for i in range(runs) if found[i] is None]
        hyperparameters: list[Mapping[str, Any] | None] = [self.hyperparameters] * runs
        if self.search is not None:
            if "search" in fixed:
                shared = self.seeds(1, seed=root, fixed=self.sources)[0]
                if todo:
                    train, _ = self.split(shared["split"])
                    best = _hopt(self, train, _training_seeds(self, shared), shared["search"])
                    hyperparameters = [best] * runs
            else:
                hyperparameters = [None] * runs
        if todo:
            for run in self._map(todo, plan, hyperparameters):
                found[run.index] = run
        return Runs(tuple(found[i] for i in range(runs)), self.sources, fixed, root)

    def _map(
        self, todo: list[int], plan: list[dict[str, int]], hyperparameters: list[Mapping[str, Any] | None]
    ) -> Iterator[Run]:
        import joblib

        tasks = (
            joblib.delayed(_execute)(
                self, i, plan[i], hyperparameters[i], plan[i] if hyperparameters[i] is None else None
            )
            for i in todo
        )
        handle = None
        if self.results is not None:
            self.results.parent.mkdir(parents=True, exist_ok=True)
            _drop_torn_line(self.results)
            handle = self.results.open("a", encoding="utf-8")
        try:
            with joblib.parallel_config(backend=self.backend) if self.backend else contextlib.nullcontext():
                parallel = joblib.Parallel(n_jobs=self.n_jobs, return_as="generator_unordered")
                for run in parallel(tasks):
                    if handle is not None:
                        handle.write(json.dumps(run.to_dict()) + "\n")
                        handle.flush()
                        os.fsync(handle.fileno())
                    yield run
        finally:
            if handle is not None:
                handle.close()

    def replay(self, run: Run) -> float:
        """Train once more with a recorded run's split, seeds and hyperparameters; returns the score.

        The score equals ``run.score`` when ``fit_and_score`` is deterministic given its seeds.
        """
        if not isinstance(run, Run):
            raise InputError(f"run: expected a Run from Study.run, got {run!r}")
        missing = [s for s in self.sources if s not in run.seeds]
        if missing:
            raise InputError(f"run: the run has no seed for source {missing[0]!r} of this study")
        train, test = self.split(run.seeds["split"])
        return _call(self.fit_and_score, train, test, run.hyperparameters, _training_seeds(self, run.seeds))
