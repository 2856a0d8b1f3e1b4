"""Reading the scores of several methods on many tasks: one long table, one row per method × task × run.

:func:`read_task_scores` is the one input of the comparisons across many tasks (Agarwal et al. 2021, "Deep
reinforcement learning at the edge of the statistical precipice"; Demšar 2006; Benavoli et al. 2017): a
CSV/TSV file or a pandas DataFrame with a column naming the method, one naming the task (game, data set),
one identifying the run (seed, repetition) and one holding the score. The direction of the score is
declared, never guessed; the scores may be normalised per task (min-max, or against a table of random and
human reference scores, as for Atari). The result, :class:`TaskScores`, holds a method × task × run array
with NaN where a method has fewer runs than its most, and the report of those missing runs.

:func:`bundled_results` locates the multi-task results shipped with benchtrust (sources in
``benchtrust/data/README.md``): the Atari 100k runs of Agarwal et al. (2021), their reference scores, and
the 10 × 10-fold cross-validation accuracies of Benavoli et al. (2017).

Every mistake raises :class:`benchtrust.InputError` naming the file, the 1-based line and the column (for
a DataFrame: the row's label and the column).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypedDict

import numpy as np

from benchtrust._io import (
    Direction,
    InputError,
    bundled_file,
    check_direction,
    find_column,
    input_name,
    is_number,
    long_table_of,
    table_of,
)
from benchtrust._words import TIMES, aligned, paragraph

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "MissingRuns",
    "TaskScores",
    "bundled_results",
    "check_task_scores",
    "method_pair",
    "read_task_scores",
]

#: The question every analysis over many tasks answers: the title of its section in a report or notebook.
TASKS_QUESTION = "How do several methods compare over many tasks, given the variance of their runs?"
#: The normalisations :func:`read_task_scores` offers.
NORMALISATIONS = ("none", "minmax", "reference")
#: The multi-task results shipped in ``benchtrust/data`` (see its README for their sources).
_BUNDLED_RESULTS = {
    "atari100k": "atari100k_runs.csv",
    "atari_reference": "atari_reference_scores.csv",
    "uci": "uci_10x10cv_accuracies.csv",
}
#: Most missing (method, task) pairs the text lists.
_LISTED = 10


def bundled_results(name: str = "atari100k") -> Path:
    """The path of multi-task results bundled with benchtrust (sources in ``benchtrust/data/README.md``).

    Parameters
    ----------
    name : {"atari100k", "atari_reference", "uci"}
        * ``"atari100k"``: the Atari 100k runs of Agarwal et al. (2021), columns
          ``algorithm,game,run,score``: 7 agents × 26 games × 100 runs (SimPLe: 5), raw game scores.
        * ``"atari_reference"``: the random and human scores of the 26 games, columns
          ``game,random,human`` (the `reference` of ``normalise="reference"``).
        * ``"uci"``: Benavoli et al.'s (2017) accuracies (in percent) of 5 classifiers on 54 UCI data sets,
          10 runs of 10-fold cross-validation on the same folds, columns
          ``classifier,dataset_index,dataset,score_index,accuracy_percent``.

    Returns
    -------
    pathlib.Path
        The file inside the installed package; read it, never write it.

    See Also
    --------
    bundled_task_scores : The bundled Atari 100k and UCI scores, read.
    read_task_scores : Read the scores of several methods on many tasks.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. (the Atari 100k runs).
    .. [2] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. (the UCI accuracies).

    Examples
    --------
    >>> bundled_results("atari100k").name
    'atari100k_runs.csv'
    >>> uci = read_task_scores(bundled_results("uci"), direction="higher", method_column="classifier",
    ...                        task_column="dataset_index", run_column="score_index",
    ...                        score_column="accuracy_percent")
    >>> uci.scores.shape
    (5, 54, 100)
    """
    if name not in _BUNDLED_RESULTS:
        known = ", ".join(repr(key) for key in _BUNDLED_RESULTS)
        raise InputError(f"name: expected one of {known}, got {name!r}")
    return bundled_file(_BUNDLED_RESULTS[name])


class _Reading(TypedDict, total=False):
    """Keyword arguments of :func:`read_task_scores` that read a bundled table."""

    method_column: str
    task_column: str
    run_column: str
    score_column: str
    normalise: Literal["none", "minmax", "reference"]


#: How the bundled runs are read as task scores: the keyword arguments of :func:`read_task_scores`.
_BUNDLED_READING: dict[str, _Reading] = {
    "atari100k": {"method_column": "algorithm", "task_column": "game", "normalise": "reference"},
    "uci": {
        "method_column": "classifier",
        "task_column": "dataset_index",
        "run_column": "score_index",
        "score_column": "accuracy_percent",
    },
}


def bundled_task_scores(name: str = "atari100k") -> TaskScores:
    """The bundled runs of :func:`bundled_results` read with :func:`read_task_scores`, higher is better.

    Parameters
    ----------
    name : {"atari100k", "uci"}
        The Atari 100k runs, human-normalised by the bundled random and human scores (Agarwal et al.
        2021: 7 agents × 26 games), or the UCI accuracies in percent (Benavoli et al. 2017: 5
        classifiers × 54 data sets × 100 runs).

    See Also
    --------
    bundled_results : The paths of the multi-task results bundled with benchtrust.
    read_task_scores : Read the scores of several methods on many tasks.
    TaskScores : The scores of several methods on many tasks.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. (the Atari 100k runs).
    .. [2] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. (the UCI accuracies).

    Examples
    --------
    >>> bundled_task_scores("atari100k").scores.shape
    (7, 26, 100)
    >>> bundled_task_scores("uci").methods
    ('nbc', 'aode', 'hnb', 'j48', 'j48gr')
    """
    if name not in _BUNDLED_READING:
        known = ", ".join(repr(key) for key in _BUNDLED_READING)
        raise InputError(f"name: expected one of {known}, got {name!r}")
    options = _BUNDLED_READING[name]
    reference = bundled_results("atari_reference") if options.get("normalise") == "reference" else None
    return read_task_scores(bundled_results(name), direction="higher", reference=reference, **options)


@dataclasses.dataclass(frozen=True)
class MissingRuns:
    """A method with fewer runs on one task than on the task where it has the most.

    Attributes
    ----------
    method, task : str
        The method and the task.
    runs : int
        The method's runs on the task.
    expected : int
        The method's most runs on any task.

    See Also
    --------
    read_task_scores : Read the scores of several methods on many tasks.
    TaskScores : The scores of several methods on many tasks.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §4.1 (the stratified bootstrap resamples
       each task's runs within that task).
    """

    method: str
    task: str
    runs: int
    expected: int

    def to_dict(self) -> dict[str, object]:
        """The record as plain JSON types."""
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class TaskScores:
    """The scores of several methods on many tasks, read by :func:`read_task_scores`.

    Attributes
    ----------
    methods, tasks : tuple of str
        The methods and the tasks, in order of first appearance in the table.
    scores : numpy.ndarray
        The (normalised) scores, float64 of shape (methods, tasks, runs), read-only: ``scores[i, j, k]`` is
        the k-th run of method i on task j, runs ordered by their label (as numbers when every label is a
        number); NaN where method i has fewer runs on task j than the array has room for.
    raw_scores : numpy.ndarray
        The scores as read, same shape and NaNs (equal to `scores` when ``normalisation == "none"``).
    run_labels : numpy.ndarray
        The run labels as written, object array of the same shape, None where there is no run. With a fold
        column, a label is ``"<run>/<fold>"``.
    direction : {"higher", "lower"}
        The direction of `scores`: which values are better. Every "better", rank and lead follows it. It is
        `declared_direction`, except after ``normalisation == "reference"``, whose scores are always
        "higher" (1 = human, 0 = random).
    declared_direction : {"higher", "lower"}
        The direction of the raw scores, as declared.
    normalisation : {"none", "minmax", "reference"}
        How `scores` were computed from `raw_scores`.
    missing : tuple of MissingRuns
        The (method, task) pairs with fewer runs than the method's most on any task, in the order of
        `methods` then `tasks`.
    source : str or None
        The file read; None for a DataFrame.
    reference : str or None
        The reference table's file for ``normalisation == "reference"`` (``"<table>"`` for a DataFrame);
        None otherwise.
    folds : int or None
        k, the number of cross-validation folds of each run, when the table has a fold column: the runs
        axis then holds runs × folds, run-major (the folds of the first run, then those of the second ...).
        None when the table has no fold column.

    See Also
    --------
    read_task_scores : Read the scores of several methods on many tasks.
    MissingRuns : A (method, task) pair with fewer runs than the method's most.
    bundled_task_scores : The bundled Atari 100k and UCI scores, read.
    choose_analysis : Which analyses fit a table of task scores, and why.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §2 (human-normalised scores), §4.
    .. [2] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.
    .. [3] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §3 (the folds of a
       cross-validation).

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"method": ["A", "A", "B", "B", "A"], "task": ["t1", "t2", "t1", "t2", "t1"],
    ...                       "run": [1, 1, 1, 1, 2], "score": [0.5, 0.7, 0.4, 0.9, 0.6]})
    >>> scores = read_task_scores(table, direction="higher")
    >>> scores
    TaskScores(methods=2, tasks=2, runs=5, direction='higher', normalisation='none', missing=1)
    >>> scores.scores[0].tolist()
    [[0.5, 0.6], [0.7, nan]]
    >>> scores.missing
    (MissingRuns(method='A', task='t2', runs=1, expected=2),)
    """

    methods: tuple[str, ...]
    tasks: tuple[str, ...]
    scores: np.ndarray
    raw_scores: np.ndarray
    run_labels: np.ndarray
    direction: str
    declared_direction: str
    normalisation: str
    missing: tuple[MissingRuns, ...]
    source: str | None
    reference: str | None = None
    folds: int | None = None

    @property
    def runs_per_task(self) -> np.ndarray:
        """The number of runs of each method on each task, int array of shape (methods, tasks)."""
        return (~np.isnan(self.scores)).sum(axis=2)

    @property
    def labels_match(self) -> bool:
        """Whether every method has the same run labels on every task, so that runs pair across methods."""
        return bool((self.run_labels == self.run_labels[:1]).all())

    @property
    def runs(self) -> int:
        """The number of runs read (rows of the table)."""
        return int(self.runs_per_task.sum())

    @property
    def normalisation_text(self) -> str:
        """How the scores were normalised, in words."""
        return normalisation_words(self.normalisation, self.direction, self.reference)

    def __repr__(self) -> str:
        folds = "" if self.folds is None else f", folds={self.folds}"
        return (
            f"TaskScores(methods={len(self.methods)}, tasks={len(self.tasks)}, runs={self.runs}{folds}, "
            f"direction={self.direction!r}, normalisation={self.normalisation!r}, "
            f"missing={len(self.missing)})"
        )

    def __str__(self) -> str:
        """What was read: methods, tasks, runs per task, direction, normalisation and missing runs."""
        counts = self.runs_per_task
        rows = [("method", "runs per task", "runs")]
        for i, method in enumerate(self.methods):
            low, high = int(counts[i].min()), int(counts[i].max())
            rows.append((method, str(high) if low == high else f"{low}-{high}", str(int(counts[i].sum()))))
        where = f" from {self.source}" if self.source is not None else ""
        read = (
            f"{self.runs:,} runs"
            if self.folds is None
            else f"{self.runs:,} fold scores (each run a {self.folds}-fold cross-validation)"
        )
        lines = [
            paragraph(
                f"Scores of {len(self.methods)} methods on {len(self.tasks)} tasks{where}: {read}; "
                f"{self.direction} is better. Normalisation: {self.normalisation_text}."
            ),
            "",
            *aligned(rows),
            "",
            paragraph(self.missing_text),
        ]
        return "\n".join(lines)

    @property
    def missing_text(self) -> str:
        """The missing runs and the rule applied to them, in words."""
        if not self.missing:
            return "Missing runs: none; every method has the same number of runs on every task."
        listed = "; ".join(
            f"{m.method} on {m.task}: {m.runs} of {m.expected}" for m in self.missing[:_LISTED]
        )
        more = f"; and {len(self.missing) - _LISTED} more" if len(self.missing) > _LISTED else ""
        return (
            f"Missing runs: {len(self.missing)} method {TIMES} task pairs have fewer runs than the method's "
            f"most on any task ({listed}{more}). Rule: every method keeps the runs it has, so in the "
            "statistics pooled over runs and tasks (IQM, optimality gap) a task with fewer runs of a "
            "method weighs less for that method; means per task (as in the mean and median of the per-task "
            "means) weigh every task the same."
        )

    def to_frame(self) -> pd.DataFrame:
        """The scores in long format, one row per method × task × run.

        Returns
        -------
        pandas.DataFrame
            Columns ``method``, ``task``, ``run`` (the label as written) and ``score`` (normalised), plus
            ``raw_score`` when the scores were normalised; in the order of `methods`, `tasks` and runs.
        """
        import pandas as pd

        i, j, k = np.nonzero(~np.isnan(self.scores))
        frame = {
            "method": np.asarray(self.methods, dtype=object)[i],
            "task": np.asarray(self.tasks, dtype=object)[j],
            "run": self.run_labels[i, j, k],
            "score": self.scores[i, j, k],
        }
        if self.normalisation != "none":
            frame["raw_score"] = self.raw_scores[i, j, k]
        return pd.DataFrame(frame)

    def to_dict(self) -> dict[str, object]:
        """What was read as plain JSON types: the runs per task and the missing runs (the scores themselves
        are left out; see :meth:`to_frame`)."""
        return {
            "source": self.source,
            "methods": list(self.methods),
            "tasks": list(self.tasks),
            "runs": self.runs,
            "runs_per_task": self.runs_per_task.tolist(),
            "direction": self.direction,
            "declared_direction": self.declared_direction,
            "normalisation": self.normalisation,
            "reference": self.reference,
            "folds": self.folds,
            "missing": [m.to_dict() for m in self.missing],
        }


def scores_files(scores: TaskScores) -> tuple[str, ...]:
    """The files `scores` were read from, as given: the table and the reference table (none for
    DataFrames); the ``inputs`` of the results made from them."""
    files = (scores.source, scores.reference)
    return tuple(input_name(name) for name in files if name not in (None, "<table>"))


def check_task_scores(scores: object) -> TaskScores:
    """`scores`, or an InputError unless it is a :class:`TaskScores` (the input of analyses over tasks)."""
    if not isinstance(scores, TaskScores):
        raise InputError(
            "scores: expected TaskScores (from benchtrust.compare.read_task_scores), got "
            f"{type(scores).__name__}"
        )
    return scores


def method_pair(scores: TaskScores, a: object, b: object) -> tuple[int, int]:
    """The indices of two different methods `a` and `b` of `scores`, or an InputError naming the argument."""
    indices = []
    for name, method in (("a", a), ("b", b)):
        if not isinstance(method, str) or method not in scores.methods:
            known = ", ".join(repr(m) for m in scores.methods)
            raise InputError(f"{name}: expected one of the methods ({known}), got {method!r}")
        indices.append(scores.methods.index(method))
    if indices[0] == indices[1]:
        raise InputError(f"b: expected a method other than a ({a!r}), got the same")
    return indices[0], indices[1]


def normalisation_words(normalisation: str, direction: str, reference: str | None) -> str:
    """A normalisation in words, such as ``min-max per task (0 = worst run, 1 = best run)``."""
    if normalisation == "none":
        return "none (the scores as read)"
    if normalisation == "minmax":
        ends = "0 = worst run, 1 = best run" if direction == "higher" else "0 = best run, 1 = worst run"
        return f"min-max per task over every method's runs, (score - min) / (max - min) ({ends})"
    assert reference is not None  # read_task_scores names the reference table of normalise="reference"
    return (
        f"reference scores from {Path(reference).name}, (score - random) / (human - random) "
        "(0 = random, 1 = human; higher is better)"
    )


def scores_words(normalisation: str) -> str:
    """What the scores are, in words: ``human-normalised scores``, ``scores`` ..."""
    return {
        "none": "scores",
        "minmax": "min-max normalised scores",
        "reference": "human-normalised scores",
    }[normalisation]


def _column_name(value, name):
    """`value`, the name of a column given as argument `name`, or an InputError."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{name}: expected the name of a column, got {value!r}")
    return value.strip()


def _choice(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise InputError(f"{name}: expected one of {listed}, got {value!r}")
    return value


def _find(data, column: str) -> int | None:
    """The index of `column` in `data`'s header, or None if it has none or more than one (named when the
    column is read)."""
    try:
        return find_column(data.header, column, data.header_place)
    except InputError:
        return None


def _run_order(codes: np.ndarray, distinct: tuple[str, ...]) -> np.ndarray:
    """Sort keys of the run labels given as codes into their `distinct` labels: their ranks, as numbers
    when every label is a number, else as text."""
    numeric = all(map(is_number, distinct))
    order = sorted(range(len(distinct)), key=lambda p: float(distinct[p]) if numeric else distinct[p])
    rank = np.empty(len(distinct), dtype=np.int32)
    rank[order] = np.arange(len(distinct), dtype=np.int32)
    return rank[codes]


def read_task_scores(
    table: str | os.PathLike[str] | pd.DataFrame,
    *,
    direction: Direction,
    method_column: str = "method",
    task_column: str = "task",
    run_column: str = "run",
    score_column: str = "score",
    fold_column: str | None = None,
    normalise: Literal["none", "minmax", "reference"] = "none",
    reference: str | os.PathLike[str] | pd.DataFrame | None = None,
    reference_task_column: str | None = None,
) -> TaskScores:
    """Read the scores of several methods on many tasks from a long table, one row per method × task × run.

    The input of the comparisons across many tasks (Agarwal et al. 2021, "Deep reinforcement learning at
    the edge of the statistical precipice", §4; Demšar 2006; Benavoli et al. 2017).

    Scores are normalised per task, so that tasks with different scales can be pooled:

    * ``"none"``: the scores as read.
    * ``"minmax"``: (x - min_t) / (max_t - min_t), min_t and max_t over every method's runs on task t; the
      direction is kept (for ``"lower"``, 0 is the best run).
    * ``"reference"``: (x - random_t) / (human_t - random_t), the human-normalised score of Agarwal et al.
      (2021, §2), from a table with columns `reference_task_column`, ``random`` and ``human``. Human must be
      better than random in the declared direction (human > random for ``"higher"``, human < random for
      ``"lower"``), so the normalised score is always higher-is-better: 0 = random, 1 = human.

    Missing runs: a method may have fewer runs on some tasks than on others (and methods may have different
    numbers of runs: the Atari data has 100 runs per game of most agents, 5 of SimPLe). The (method, task)
    pairs with fewer runs than the method's most are reported in :attr:`TaskScores.missing`, and every
    method keeps the runs it has. A method with no run on some task is an error: aggregates over tasks
    would then compare methods on different sets of tasks.

    Parameters
    ----------
    table : str, os.PathLike or pandas.DataFrame
        A CSV/TSV file (delimiter read off the header line; blank lines and ``#`` lines before the header
        skipped) or a DataFrame, in long format; other columns are ignored. A file of at least 6 MiB
        (:data:`benchtrust._io.COLUMNAR_BYTES`) is read column by column by pandas' C parser, 20 million
        rows in about 1.3 GB (:func:`benchtrust._io.long_table_of`), with the same result and messages.
    direction : {"higher", "lower"}
        Which scores are better: ``"higher"`` (accuracy, return) or ``"lower"`` (error, loss). Required:
        never guessed.
    method_column, task_column, run_column, score_column : str
        The columns naming the method, the task and the run (a seed or repetition: any label, unique per
        method and task), and holding the score; matched without regard to case.
    fold_column : str, optional
        The column naming the cross-validation fold of each row, when every run is a k-fold
        cross-validation scored fold by fold (Benavoli et al. 2017, §3: the correlated t-test needs k). Each
        (method, task, run, fold) then appears once, and :attr:`TaskScores.folds` is k, the number of
        distinct fold labels.
    normalise : {"none", "minmax", "reference"}, default "none"
        The per-task normalisation (above).
    reference : str, os.PathLike or pandas.DataFrame, optional
        For ``normalise="reference"``: the table of reference scores, one row per task, with columns
        `reference_task_column`, ``random`` and ``human`` (as ``bundled_results("atari_reference")``). Tasks
        it lists but the scores do not are ignored.
    reference_task_column : str, optional
        The reference table's task column; default `task_column`.

    Returns
    -------
    TaskScores

    Raises
    ------
    InputError
        Naming the file (or ``<table>``), the line (the DataFrame row's label) and the column: a missing
        column, an empty or non-numeric score, a second row of the same method, task and run, a method
        without any run on a task; for ``"minmax"`` a task where every run scores the same; for
        ``"reference"`` a task missing from the reference table or listed twice, or human equal to random
        or worse than it.

    See Also
    --------
    TaskScores : The scores of several methods on many tasks.
    MissingRuns : A (method, task) pair with fewer runs than the method's most.
    bundled_results : The paths of the multi-task results bundled with benchtrust.
    bundled_task_scores : The bundled Atari 100k and UCI scores, read.
    choose_analysis : Which analyses fit a table of task scores, and why.

    References
    ----------
    .. [1] Rishabh Agarwal, Max Schwarzer, Pablo Samuel Castro, Aaron Courville and Marc G. Bellemare, "Deep
       reinforcement learning at the edge of the statistical precipice", Advances in Neural Information
       Processing Systems 34 (NeurIPS 2021), 2021. arXiv:2108.13264. §2 (human-normalised scores), §4.
    .. [2] Janez Demšar, "Statistical comparisons of classifiers over multiple data sets", Journal of Machine
       Learning Research 7, 1-30, 2006. https://jmlr.org/papers/v7/demsar06a.html. §3.2.
    .. [3] Alessio Benavoli, Giorgio Corani, Janez Demšar and Marco Zaffalon, "Time for a change: a tutorial
       for comparing multiple classifiers through Bayesian analysis", Journal of Machine Learning Research
       18(77), 1-36, 2017. https://jmlr.org/papers/v18/16-305.html; arXiv:1606.04316. §3 (the folds of a
       cross-validation).

    Examples
    --------
    >>> atari = read_task_scores(bundled_results("atari100k"), direction="higher", method_column="algorithm",
    ...                          task_column="game", normalise="reference",
    ...                          reference=bundled_results("atari_reference"))
    >>> atari.methods
    ('DER', 'DrQ', 'DrQ(eps)', 'OTRainbow', 'SPR', 'SimPLe', 'CURL')
    >>> atari.scores.shape, atari.runs, atari.missing
    ((7, 26, 100), 15730, ())
    >>> import pandas as pd
    >>> errors = pd.DataFrame({"model": ["A", "A", "B", "B"], "task": ["x", "y", "x", "x"],
    ...                        "run": [1, 1, 1, 2], "score": [0.1, 0.2, 0.3, 0.4]})
    >>> read_task_scores(errors, direction="lower", method_column="model")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: <table>: method 'B' has no run on task 'y' (column 'task'); every method needs \
runs on every task, else aggregates over tasks compare different sets of tasks: add its runs, or drop the \
task or the method
    """
    direction = check_direction(direction)
    normalise = _choice(normalise, "normalise", NORMALISATIONS)
    names = {
        "method_column": method_column,
        "task_column": task_column,
        "run_column": run_column,
        "score_column": score_column,
    }
    method_column, task_column, run_column, score_column = (
        _column_name(value, name) for name, value in names.items()
    )
    if fold_column is not None:
        fold_column = _column_name(fold_column, "fold_column")
    if normalise == "reference" and reference is None:
        raise InputError("reference: normalise='reference' needs a table of random and human scores per task")
    if normalise != "reference" and reference is not None:
        raise InputError(
            f"reference: given, but normalise={normalise!r}; pass normalise='reference' to use it"
        )
    source = os.fspath(table) if isinstance(table, (str, os.PathLike)) else None
    fold_example = "" if fold_column is None else f",{fold_column}"
    data = long_table_of(
        table, example=f"{method_column},{task_column},{run_column}{fold_example},{score_column}"
    )
    name = data.name
    method = data.column(method_column)
    task = data.column(task_column)
    run = data.column(run_column)
    score = data.column(score_column)
    # the fold column, if any, is read in the same pass; a missing one is named below, where it always was
    fold = None if fold_column is None else _find(data, fold_column)
    data = data.load([method, task, run] + ([] if fold is None else [fold]), [score])
    method_codes, methods = data.labels(method, "a method name")
    task_codes, tasks = data.labels(task, "a task name")
    run_label_codes, run_names = data.labels(run, "a run label")
    values = data.numbers(score)
    folds = None
    run_codes = _run_order(run_label_codes, run_names)
    if fold_column is not None:
        fold_label_codes, fold_names = data.labels(data.column(fold_column), "a fold label")
        fold_codes = _run_order(fold_label_codes, fold_names)
        folds = int(fold_codes.max()) + 1
        pairs, run_label_codes = np.unique(
            run_label_codes.astype(np.int64) * len(fold_names) + fold_label_codes, return_inverse=True
        )
        run_names = tuple(
            f"{run_names[p // len(fold_names)]}/{fold_names[p % len(fold_names)]}" for p in pairs
        )
        run_codes = run_codes.astype(np.int64) * folds + fold_codes
    n_methods, n_tasks = len(methods), len(tasks)

    # rows sorted by method, task and run, in int64 (the codes of a long table's columns are int32), in
    # place: 20 million rows hold 160 MB an array
    span = int(run_codes.max()) + 1
    row_key = method_codes.astype(np.int64)
    row_key *= n_tasks
    row_key += task_codes
    row_key *= span
    row_key += run_codes
    order = np.argsort(row_key, kind="stable")
    sorted_key = row_key[order]
    repeated = np.flatnonzero(sorted_key[1:] == sorted_key[:-1])
    if repeated.size:
        # the repeat nearest the top of the table, and the first row with its key
        second = int(min(order[repeated + 1]))
        first = int(np.flatnonzero(row_key == row_key[second])[0])
        where_first = data.where(first)[len(name) + 2 :]
        unique = "run label" if folds is None else "run/fold pair"
        raise InputError(
            f"{data.where(second)}, column {data.header[run]!r}: a second run "
            f"{run_names[run_label_codes[second]]!r} of method {methods[method_codes[second]]!r} on task "
            f"{tasks[task_codes[second]]!r} (the first is on {where_first}); each {unique} must appear once "
            "per method and task"
        )
    del row_key, repeated, run_codes, method_codes, task_codes
    # the keys are unique, so `order` sorts the rows by (method, task) cell, then run
    sorted_cell = sorted_key
    sorted_cell //= span
    del sorted_key
    counts = np.bincount(sorted_cell, minlength=n_methods * n_tasks).reshape(n_methods, n_tasks)
    empty = np.argwhere(counts == 0)
    if empty.size:
        i, j = empty[0]
        more = f" (and {len(empty) - 1} more method {TIMES} task pairs)" if len(empty) > 1 else ""
        raise InputError(
            f"{name}: method {methods[i]!r} has no run on task {tasks[j]!r} (column {data.header[task]!r})"
            f"{more}; every method needs runs on every task, else aggregates over tasks compare different "
            "sets of tasks: add its runs, or drop the task or the method"
        )
    starts = np.flatnonzero(np.r_[True, sorted_cell[1:] != sorted_cell[:-1]])
    shape = (n_methods, n_tasks, int(counts.max()))
    # each row's place in the flattened array: its cell's first place plus its position in the cell
    index = sorted_cell * shape[2] + np.arange(len(order))
    del sorted_cell
    index -= np.repeat(starts, np.diff(np.r_[starts, len(order)]))
    raw = np.full(shape, np.nan)
    labels = np.full(shape, None, dtype=object)
    raw.ravel()[index] = values[order]
    labels.ravel()[index] = np.array(run_names, dtype=object)[run_label_codes[order]]

    missing = tuple(
        MissingRuns(methods[i], tasks[j], int(counts[i, j]), int(counts[i].max()))
        for i, j in np.argwhere(counts < counts.max(axis=1, keepdims=True))
    )

    out_direction = direction
    reference_name = None
    if normalise == "minmax":
        low = np.nanmin(raw, axis=(0, 2))
        high = np.nanmax(raw, axis=(0, 2))
        flat = np.flatnonzero(high == low)
        if flat.size:
            j = int(flat[0])
            raise InputError(
                f"{name}, column {data.header[score]!r}: every run of every method scores {low[j]:g} on task "
                f"{tasks[j]!r}; min-max normalisation needs two different scores on each task "
                "(use normalise='none', or drop the task)"
            )
        scores = (raw - low[None, :, None]) / (high - low)[None, :, None]
    elif normalise == "reference":
        reference_name = os.fspath(reference) if isinstance(reference, (str, os.PathLike)) else "<table>"
        try:
            random, human = _reference_scores(
                reference, tasks, direction, reference_task_column or task_column, name
            )
        except InputError as error:
            if reference_name == "<table>":
                raise InputError(f"reference: {error}") from None
            raise
        scores = (raw - random[None, :, None]) / (human - random)[None, :, None]
        out_direction = "higher"
    else:
        scores = raw.copy()
    for array in (scores, raw, labels):
        array.flags.writeable = False
    return TaskScores(
        methods=methods,
        tasks=tasks,
        scores=scores,
        raw_scores=raw,
        run_labels=labels,
        direction=out_direction,
        declared_direction=direction,
        normalisation=normalise,
        missing=missing,
        source=source,
        reference=reference_name,
        folds=folds,
    )


def _reference_scores(reference, tasks, direction, task_column, scores_name):
    """The random and human scores of each of `tasks`, read from the reference table."""
    task_column = _column_name(task_column, "reference_task_column")
    table = table_of(reference, example=f"{task_column},random,human", what="a table of reference scores")
    task = table.column(task_column, purpose=" naming the task of each reference score")
    random_column = table.column("random")
    human_column = table.column("human")
    names = table.texts(task, "a task name")
    random = table.numbers(random_column)
    human = table.numbers(human_column)
    rows = {}
    for k, task_name in enumerate(names):
        if task_name in rows:
            first = table.where(rows[task_name])[len(table.name) + 2 :]
            raise InputError(
                f"{table.where(k)}, column {table.header[task]!r}: task {task_name!r} a second time (the "
                f"first is on {first}); expected one row of reference scores per task"
            )
        rows[task_name] = k
    absent = [t for t in tasks if t not in rows]
    if absent:
        more = f" (and {len(absent) - 1} more)" if len(absent) > 1 else ""
        raise InputError(
            f"{table.name}, column {table.header[task]!r}: no reference scores for task {absent[0]!r}{more}, "
            f"which has runs in {scores_name}; expected a row with its random and human scores"
        )
    picked = [rows[t] for t in tasks]
    for k in picked:
        r, h = random[k], human[k]
        better = h > r if direction == "higher" else h < r
        if h == r:
            raise InputError(
                f"{table.where(k)}, column {table.header[human_column]!r}: human equals random ({h:g}) for "
                f"task {names[k]!r}; the normalised score (score - random) / (human - random) needs them to "
                "differ"
            )
        if not better:
            raise InputError(
                f"{table.where(k)}, column {table.header[human_column]!r}: human ({h:g}) is worse than "
                f"random ({r:g}) for task {names[k]!r} with direction={direction!r}; expected human better "
                "than random (check the direction, or the columns)"
            )
    return random[picked], human[picked]
