"""The table of analyses: every analysis that the command line and the YAML report offer, by name.

Each row (:class:`Analysis`) holds:

* the public function that runs the analysis (``sota:leaderboard``);
* the keys a user gives beyond that function's own arguments, such as a file of accuracies or how to read
  a table of task scores;
* the keys that name files;
* how those keys become the function's arguments;
* the function that draws the analysis's figure for ``--plot``.

``benchtrust <group> <command>`` and a report entry ``analysis: <group> <command>`` both run an analysis
through :func:`run_analysis`, by the function's argument names. So the two take the same arguments, convert
them the same way and give the same result. The result then shows itself (its text, JSON and section)
through the one result protocol (:mod:`benchtrust._result`).

Adding an analysis adds one row here. Its keys for a report entry are the function's arguments
(:func:`entry_keys`); its command parses options into those arguments and calls :func:`run_analysis`.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchtrust._io import InputError, check_count, read_numbers

if TYPE_CHECKING:
    from benchtrust._figures import FigureLike
    from benchtrust._result import Result

__all__ = ["ANALYSES", "Analysis", "draw", "entry_keys", "public_function", "resolve", "run_analysis"]

#: Values of ``folding`` that name a kind of folds rather than a file of folds.
_FOLDINGS = ("stratified", "unknown")


@dataclasses.dataclass(frozen=True)
class Analysis:
    """How one analysis runs, from the arguments a user gives by name.

    Attributes
    ----------
    function : str
        The public function, as ``subpackage:name`` (``"sota:leaderboard"``).
    convert : callable or None
        ``convert(function, arguments, names)`` runs the function on `arguments` (file keys already
        resolved) and returns its result; `names` maps each file key to the name as the user wrote it.
        None: ``function(**arguments)``.
    made : tuple of str
        The function's arguments that `convert` makes from other keys (the data a file holds); with
        ``progress``, they are not keys a user gives.
    extra : tuple of (str, bool)
        The keys beyond the function's own, each with whether it is required.
    files : tuple of str
        The keys that name files (``folding`` names one unless it is ``stratified`` or ``unknown``). They
        are the result's ``inputs``, as the user wrote them.
    plot : str or None
        The public function that draws the result, as ``subpackage:name``, for ``--plot``.
    """

    function: str
    convert: Callable | None = None
    made: tuple = ()
    extra: tuple = ()
    files: tuple = ()
    plot: str | None = None


def public_function(name: str) -> Callable[..., Any]:
    """The public function ``subpackage:name`` of benchtrust (imported on first use).

    Examples
    --------
    >>> public_function("sota:best_of").__name__
    'best_of'
    """
    package, _, function = name.partition(":")
    return getattr(importlib.import_module(f"benchtrust.{package}"), function)


def draw(analysis: str, result: Result) -> FigureLike:
    """The figure of `result`, drawn by the plot function of `analysis` (its ``--plot``)."""
    plot = ANALYSES[analysis].plot
    if plot is None:
        raise ValueError(f"{analysis} draws no figure")
    return public_function(plot)(result)


def resolve(folder, name) -> Path:
    """The file `name` (``~`` expanded) relative to `folder` unless it is absolute."""
    path = Path(os.path.expanduser(str(name)))
    return path if folder is None or path.is_absolute() else Path(folder) / path


def names_a_file(key: str, value) -> bool:
    """Whether the `value` of a file key names a file (a ``folding`` may name a kind of folds)."""
    if not isinstance(value, (str, os.PathLike)):
        return False
    return key != "folding" or os.fspath(value).strip().lower() not in _FOLDINGS


def run_analysis(name: str, arguments: dict, *, folder=None, progress=None):
    """Run the analysis `name` of :data:`ANALYSES` on `arguments` given by name; its result.

    Parameters
    ----------
    name : str
        The analysis, as a command names it (``"sota leaderboard"``).
    arguments : dict
        Its arguments by the function's names, with the row's extra keys. None values are left out.
    folder : path, optional
        The folder file names are relative to (a report config's); default: as given.
    progress : callable, optional
        ``progress(done, total)``, passed on to a function that takes it.

    Returns
    -------
    Result
        The function's result, its ``inputs`` the files the arguments named, as written.
    """
    spec = ANALYSES[name]
    function = public_function(spec.function)
    given = {key: value for key, value in arguments.items() if value is not None}
    names = {}
    for key in spec.files:
        if names_a_file(key, given.get(key)):
            names[key] = os.fspath(given[key])
            if folder is not None:  # as given otherwise: messages name the file as the user wrote it
                given[key] = os.fspath(resolve(folder, given[key]))
    if progress is not None and "progress" in inspect.signature(function).parameters:
        given["progress"] = progress
    result = function(**given) if spec.convert is None else spec.convert(function, given, names)
    return dataclasses.replace(result, inputs=tuple(names.values())) if names else result


def entry_keys(analysis: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The keys a config entry of `analysis` may give: ``(required, optional)``, in the function's order.

    Examples
    --------
    >>> required, optional = entry_keys("compare history")
    >>> required, optional[:2]
    (('file',), ('sigma', 'test_size'))
    """
    spec = ANALYSES[analysis]
    required: list[str] = []
    optional: list[str] = []
    for key, required_key in spec.extra:
        (required if required_key else optional).append(key)
    for key, parameter in inspect.signature(public_function(spec.function)).parameters.items():
        if key in (*spec.made, "progress") or key in required or key in optional:
            continue
        (required if parameter.default is parameter.empty else optional).append(key)
    return tuple(required), tuple(optional)


# --- how the arguments become the function's -------------------------------------------------------------


def _with_file(key):
    """``function(arguments[key], **the others)``: the file key is the function's first argument."""

    def convert(function, arguments, names):
        file = arguments.pop(key)
        return function(file, **arguments)

    return convert


def _best_of(function, arguments, names):
    """:func:`best_of` on ``accuracy``, or on the θ_j the file ``accuracies`` holds (its column
    ``accuracy_column``, default ``accuracy``), one per classifier: ``classifiers``, if given, counts them."""
    if ("accuracy" in arguments) == ("accuracies" in arguments):
        raise InputError("give either accuracy (one θ for all classifiers) or accuracies (a file), not both")
    column = arguments.pop("accuracy_column", None)
    if "accuracies" not in arguments:
        if column is not None:
            raise InputError("accuracy_column: names a column of the accuracies file; give accuracies too")
        return function(**arguments)
    file = arguments.pop("accuracies")
    theta = read_numbers(file, column=column or "accuracy", what="accuracy")
    outside = [k for k, value in enumerate(theta.tolist()) if not 0 < value < 1]
    if outside:
        k = outside[0]
        raise InputError(
            f"{file}: value {k + 1} of {theta.size}, {theta[k]:g}, is not an accuracy strictly "
            "between 0 and 1"
        )
    if "classifiers" in arguments and check_count(arguments["classifiers"], "classifiers") != theta.size:
        raise InputError(
            f"classifiers: expected {theta.size} (the accuracies in {file}), got {arguments['classifiers']!r}"
        )
    return function(theta, **{**arguments, "classifiers": theta.size})


def _scores(arguments) -> dict:
    """The ``scores`` mapping, its values as text (written quoted, they keep their decimals)."""
    scores = arguments.get("scores")
    if not isinstance(scores, dict) or not scores:
        raise InputError("scores: expected a mapping of score names to values, such as {acc: '0.9400'}")
    return {str(name): value if isinstance(value, str) else repr(value) for name, value in scores.items()}


def _consistency(function, arguments, names):
    return function(_scores(arguments), **{key: value for key, value in arguments.items() if key != "scores"})


def _named_test_set(arguments):
    """The named test set (:func:`~benchtrust.consistency.dataset`) that ``dataset`` gives instead of the
    counts, taken out of `arguments`; None without ``dataset``."""
    from benchtrust.consistency import dataset

    if "dataset" not in arguments:
        return None
    if "positives" in arguments or "negatives" in arguments:
        raise InputError("dataset: gives the counts; give it or positives and negatives, not both")
    return dataset(arguments.pop("dataset"))


def _required(arguments, keys, alternative):
    """InputError unless `arguments` give each of `keys` (which `alternative` may give instead)."""
    for key in keys:
        if key not in arguments:
            raise InputError(f"the key {key!r} is required, or {alternative}")


def _test_set(function, arguments, names):
    """:func:`check_test_set` of the counts, or of a named test set's (``dataset``: its items pooled)."""
    named = _named_test_set(arguments)
    if named is not None:
        arguments.update(positives=named.positives, negatives=named.negatives)
    _required(arguments, ("positives", "negatives"), "dataset (a named test set)")
    return _consistency(function, arguments, names)


#: The keys that describe the data sets of a k-fold cross-validation, which a named test set or a file of
#: folds may give instead.
_KFOLD_COUNTS = ("positives", "negatives", "folds")


def _kfold(function, arguments, names):
    """:func:`check_kfold`, its data set named (``dataset``: the images of a per-image collection are its
    folds; one test set is cut into ``folds``), or its folds read from a ``folding`` file
    (:func:`read_folding`), whose folds give ``positives``, ``negatives`` and ``folds`` if none is given."""
    from benchtrust.consistency import read_folding

    named = _named_test_set(arguments)
    if named is not None:
        if named.folds and "folding" in arguments:
            items = f"{len(named.folds)} {named.item_word}"
            raise InputError(f"folding: the {items} of {named.name} are its folds; leave it out")
        if not named.folds and "folds" not in arguments:
            raise InputError(
                f"folds is required: {named.name} is one test set; give k, the number of folds it was "
                "cut into"
            )
        arguments.update(named.kfold_options(arguments.get("folds")))
    if "folding" in names:
        arguments["folding"] = read_folding(arguments["folding"])
        if not any(key in arguments for key in _KFOLD_COUNTS):
            arguments.update(_counts_of_folds(arguments["folding"], names["folding"]))
    _required(arguments, _KFOLD_COUNTS, "dataset (a named test set) or folding (a file of the folds)")
    if isinstance(arguments.get("bounds"), dict):
        arguments["bounds"] = {
            str(name): tuple(str(v) if isinstance(v, str) else repr(v) for v in pair)
            for name, pair in arguments["bounds"].items()
        }
    return _consistency(function, arguments, names)


def _counts_of_folds(folding, name) -> dict:
    """``positives``, ``negatives`` and ``folds`` of the folds `folding` read from the file `name`: the
    sums of the folds of each data set, and their number."""
    sets = folding if isinstance(folding[0], list) else [folding]
    if len({len(folds) for folds in sets}) > 1:
        raise InputError(f"folding={name}: the data sets have different numbers of folds")
    positives = [sum(p for p, _ in folds) for folds in sets]
    negatives = [sum(n for _, n in folds) for folds in sets]
    return {
        "positives": positives[0] if len(sets) == 1 else positives,
        "negatives": negatives[0] if len(sets) == 1 else negatives,
        "folds": len(sets[0]),
    }


#: The keys of a ``consistency multiclass`` entry that describe its folds: given with ``folds`` only, when
#: the entry runs :func:`~benchtrust.consistency.check_multiclass_kfold`.
MULTICLASS_FOLD_KEYS = (
    "folds",
    "repeats",
    "aggregation",
    "folding",
    "zero_division",
    "max_configurations",
    "max_states",
)


def _positive_whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def _multiclass(function, arguments, names):
    """:func:`check_multiclass`, or with ``folds`` :func:`check_multiclass_kfold` (a ``folding`` file read
    by :func:`read_class_folds`, which compares it with ``class_counts`` and ``folds``)."""
    from benchtrust.consistency import check_multiclass_kfold, read_class_folds

    if "folds" not in arguments:
        given = [key for key in MULTICLASS_FOLD_KEYS if key in arguments]
        if given:
            raise InputError(f"{given[0]}: describes the folds; give folds too, or leave it out")
        return _consistency(function, arguments, names)
    if "examples" in arguments:
        raise InputError("examples: lists the solutions of one test set; leave it out with folds")
    if "folding" in names:  # compared with the counts where they are well formed (the check names others)
        counts, folds = arguments.get("class_counts"), arguments["folds"]
        arguments["folding"] = read_class_folds(
            arguments["folding"],
            class_counts=counts if isinstance(counts, list) and all(map(_positive_whole, counts)) else None,
            folds=folds if _positive_whole(folds) else None,
        )
    arguments.pop("progress", None)  # the k-fold check takes no progress
    return _consistency(check_multiclass_kfold, arguments, names)


def _outperform(function, arguments, names):
    arguments["a"], arguments["b"] = str(arguments["a"]), str(arguments["b"])
    arguments.setdefault("seed", 0)  # the same pairing and resamples on every run, as the command's
    return _with_file("file")(function, arguments, names)


#: The keys that say how to read a table of task scores (:func:`~benchtrust.compare.read_task_scores`).
TASK_READING = (
    "direction",
    "method_column",
    "task_column",
    "run_column",
    "score_column",
    "fold_column",
    "normalise",
    "reference",
    "reference_task_column",
)


def read_tasks(arguments: dict):
    """The table of task scores that `arguments` name (``file``), read as their :data:`TASK_READING` keys
    say (:func:`~benchtrust.compare.read_task_scores`); those keys and ``file`` are taken out of `arguments`.

    Examples
    --------
    >>> from benchtrust.compare import bundled_results
    >>> arguments = {"file": bundled_results("atari100k"), "direction": "higher", "seed": 1}
    >>> arguments |= {"method_column": "algorithm", "task_column": "game"}
    >>> read_tasks(arguments).scores.shape, arguments
    ((7, 26, 100), {'seed': 1})
    """
    from benchtrust.compare import read_task_scores

    reading = {key: arguments.pop(key) for key in TASK_READING if key in arguments}
    return read_task_scores(arguments.pop("file"), **reading)


def _over_tasks(function, arguments, names):
    """``function(scores, **the other keys)``, `scores` the table of task scores read from ``file``
    (:func:`read_tasks`), or given as ``scores``, read already by a command that checks its options
    against the table (the methods it names, the number of tasks)."""
    scores = arguments.pop("scores") if "scores" in arguments else read_tasks(arguments)
    return function(scores, **arguments)


def _tasks(name: str, plot: str | None = None) -> Analysis:
    """The row of ``benchtrust.compare.<name>`` run on a table of task scores."""
    extra = (("file", True), ("direction", True), *((key, False) for key in TASK_READING[1:]))
    return Analysis(f"compare:{name}", _over_tasks, ("scores",), extra, ("file", "reference"), plot)


def _multiverse(function, arguments, names):
    result = function(**arguments)
    return dataclasses.replace(result, what=names["results"])


def _multiverse_example(function, arguments, names):
    from benchtrust.multiverse import bundled_orders, bundled_study

    arguments = {**arguments, "subsample_measure": arguments.get("subsample_measure") or "all"}  # Fig. 6, S3
    result = function(**bundled_study(), orders=bundled_orders(), **arguments)
    return dataclasses.replace(result, what="the bundled Herrmann et al. (2021) results", inputs=())


_ACCURACIES = (("accuracy", False), ("accuracies", False), ("accuracy_column", False))
_STUDY_FILES = ("results", "spec", "characteristics", "orders")

#: analysis name -> how it runs; the keys a report entry of each may give are listed by :func:`entry_keys`
ANALYSES = {
    "sota leaderboard": Analysis(
        "sota:leaderboard",
        _with_file("file"),
        ("scores",),
        (("file", True),),
        ("file",),
        "sota:plot_leaderboard",
    ),
    "sota best-of": Analysis(
        "sota:best_of", _best_of, ("accuracy",), _ACCURACIES, ("accuracies",), "sota:plot_best_of"
    ),
    "sota best-of-auc": Analysis("sota:best_of_auc"),
    "consistency test-set": Analysis(
        "consistency:check_test_set",
        _test_set,
        extra=(("dataset", False), ("positives", False), ("negatives", False)),
    ),
    "consistency kfold": Analysis(
        "consistency:check_kfold",
        _kfold,
        extra=(("dataset", False), *((key, False) for key in _KFOLD_COUNTS)),
        files=("folding",),
    ),
    "consistency multiclass": Analysis(
        "consistency:check_multiclass",
        _multiclass,
        extra=tuple((key, False) for key in MULTICLASS_FOLD_KEYS),
        files=("folding",),
    ),
    "consistency protocols": Analysis("consistency:check_protocols", _consistency),
    "consistency regression": Analysis("consistency:check_regression", _consistency),
    # out (the command's --out) is no key: a report entry writes no file of its own
    "consistency batch": Analysis("consistency:check_batch", made=("out",), files=("claims",)),
    "compare outperform": Analysis(
        "compare:outperform", _outperform, ("runs",), (("file", True),), ("file",)
    ),
    "compare sample-size": Analysis("compare:runs_needed"),
    "compare error-rates": Analysis("compare:error_rates", plot="compare:plot_error_rates"),
    "compare history": Analysis(
        "compare:history",
        _with_file("file"),
        ("dates", "scores"),
        (("file", True),),
        ("file",),
        "compare:plot_history",
    ),
    "compare example": Analysis("compare:sklearn_example"),
    "compare choose": _tasks("choose_analysis"),
    "compare aggregate": _tasks("aggregate"),
    "compare profile": _tasks("performance_profile", "compare:plot_performance_profile"),
    "compare efficiency": Analysis(
        "compare:sample_efficiency",
        _with_file("file"),
        ("table",),
        (("file", True),),
        ("file", "reference"),
        "compare:plot_sample_efficiency",
    ),
    "compare improvement": _tasks("improvement_probabilities", "compare:plot_improvement"),
    "compare rank": _tasks("rank_test", "compare:plot_critical_difference"),
    "compare auto": _tasks("automatic_test"),
    "compare correlated-t": _tasks("correlated_t_test"),
    "compare signed-rank": _tasks("signed_rank_test", "compare:plot_simplex"),
    "compare hierarchical": _tasks("hierarchical_test", "compare:plot_hierarchical"),
    "compare effect": _tasks("effect_sizes"),
    "compare aso": _tasks("almost_stochastic_order"),
    "multiverse": Analysis("multiverse:study", _multiverse, files=_STUDY_FILES),
    "multiverse example": Analysis(
        "multiverse:study",
        _multiverse_example,
        (*_STUDY_FILES, "characteristics_dataset_column", "orders_label_column"),
    ),
    "multiverse unfold": Analysis(
        "multiverse:unfold", files=("dissimilarities",), plot="multiverse:plot_unfolding_map"
    ),
}
