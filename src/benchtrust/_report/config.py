"""``benchtrust report CONFIG.yaml``: run the analyses a YAML file lists and gather their report sections.

The file holds an optional ``title`` and a list ``analyses``; each entry names its ``analysis`` (such as
``sota leaderboard``) and the arguments of the library function, by their names (``test_size``,
``max_plausible``, ...): the function's signature is the one description of what an analysis takes, for
Python, this runner and (in words) the command line. File names are relative to the config file's folder.
See ``docs/report.md``.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from benchtrust._io import InputError

__all__ = ["ANALYSES", "config_files", "entry_keys", "read_config", "run_config"]


def _sota_leaderboard(entry, files):
    from benchtrust.sota import leaderboard

    options = {key: value for key, value in entry.items() if key != "file"}
    result = leaderboard(os.fspath(files["file"]), **options)
    return dataclasses.replace(result, inputs=(entry["file"],)).section()


def _sota_best_of(entry, files):
    from benchtrust._io import read_numbers
    from benchtrust.sota import best_of

    given = ("accuracy", "accuracies", "accuracy_column")
    options = {key: value for key, value in entry.items() if key not in given}
    if ("accuracy" in entry) == ("accuracies" in entry):
        raise InputError("give either accuracy (one θ for all classifiers) or accuracies (a file), not both")
    if "accuracies" not in entry:
        return best_of(entry["accuracy"], **options).section()
    column = entry.get("accuracy_column", "accuracy")
    theta = read_numbers(files["accuracies"], column=column, what="accuracy")
    return dataclasses.replace(best_of(theta, **options), inputs=(entry["accuracies"],)).section()


def _scores(entry):
    """The entry's ``scores`` mapping, the values as text (write them quoted to keep their decimals)."""
    scores = entry.get("scores")
    if not isinstance(scores, dict) or not scores:
        raise InputError("scores: expected a mapping of score names to values, such as {acc: '0.9400'}")
    return {str(name): value if isinstance(value, str) else repr(value) for name, value in scores.items()}


def _consistency_test_set(entry, files):
    from benchtrust.consistency import check_test_set

    scores = _scores(entry)
    options = {key: value for key, value in entry.items() if key != "scores"}
    return check_test_set(scores, **options).section()


def _folds_file(entry) -> str | None:
    """The file a consistency entry's ``folding`` names, as the entry names it; None for a named folding."""
    folding = entry.get("folding")
    return folding if isinstance(folding, str) and folding.lower() not in ("stratified", "unknown") else None


def _consistency_kfold(entry, files):
    from benchtrust.consistency import check_kfold, read_folding

    scores = _scores(entry)
    options = {key: value for key, value in entry.items() if key != "scores"}
    named = _folds_file(entry)
    if named is not None:
        options["folding"] = read_folding(_resolve(files["_folder"], named))
    if isinstance(options.get("bounds"), dict):
        options["bounds"] = {
            str(name): tuple(str(v) if isinstance(v, str) else repr(v) for v in pair)
            for name, pair in options["bounds"].items()
        }
    result = check_kfold(scores, **options)
    return (result if named is None else dataclasses.replace(result, inputs=(named,))).section()


#: The keys of a ``consistency multiclass`` entry that describe its folds: given with ``folds`` only, when
#: the entry runs :func:`~benchtrust.consistency.check_multiclass_kfold`.
_MULTICLASS_FOLD_KEYS = (
    "folds",
    "repeats",
    "aggregation",
    "folding",
    "zero_division",
    "max_configurations",
    "max_states",
)


def _consistency_multiclass(entry, files):
    scores = _scores(entry)
    options = {key: value for key, value in entry.items() if key != "scores"}
    if "folds" in options:
        return _consistency_multiclass_kfold(scores, options, files)
    given = [key for key in _MULTICLASS_FOLD_KEYS if key in options]
    if given:
        raise InputError(f"{given[0]}: describes the folds; give folds too, or leave it out")
    from benchtrust.consistency import check_multiclass

    return check_multiclass(scores, **options).section()


def _consistency_multiclass_kfold(scores, options, files):
    """A ``consistency multiclass`` entry with ``folds``: :func:`check_multiclass_kfold`; a ``folding`` that
    names a file is read as :func:`read_class_folds` reads it (the check compares it with the counts)."""
    from benchtrust.consistency import check_multiclass_kfold, read_class_folds

    if "examples" in options:
        raise InputError("examples: lists the solutions of one test set; leave it out with folds")
    named = _folds_file(options)
    if named is not None:
        options["folding"] = read_class_folds(_resolve(files["_folder"], named))
    result = check_multiclass_kfold(scores, **options)
    return (result if named is None else dataclasses.replace(result, inputs=(named,))).section()


def _consistency_regression(entry, files):
    from benchtrust.consistency import check_regression

    scores = _scores(entry)
    options = {key: value for key, value in entry.items() if key != "scores"}
    return check_regression(scores, **options).section()


def _consistency_protocols(entry, files):
    from benchtrust.consistency import check_protocols

    scores = _scores(entry)
    options = {key: value for key, value in entry.items() if key != "scores"}
    return check_protocols(scores, **options).section()


def _compare_outperform(entry, files):
    from benchtrust.compare import outperform

    options = {key: value for key, value in entry.items() if key != "file"}
    options["a"], options["b"] = str(entry["a"]), str(entry["b"])
    options.setdefault("seed", 0)
    result = outperform(os.fspath(files["file"]), **options)
    return dataclasses.replace(result, inputs=(entry["file"],)).section()


def _compare_history(entry, files):
    from benchtrust.compare import history

    options = {key: value for key, value in entry.items() if key != "file"}
    result = history(os.fspath(files["file"]), **options)
    return dataclasses.replace(result, inputs=(entry["file"],)).section()


def _compare_example(entry, files):
    from benchtrust.compare import sklearn_example

    return sklearn_example(**entry).section()


#: The keys of a config entry that say how to read a table of task scores (:func:`read_task_scores`).
_READING = (
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


def _compare_tasks(entry, files, function):
    """Read the entry's table of task scores and run ``function(scores, **other keys)``: its section."""
    from benchtrust.compare import read_task_scores

    reading = {key: entry[key] for key in _READING if key in entry}
    if "reference" in files:
        reading["reference"] = files["reference"]
    options = {key: value for key, value in entry.items() if key not in (*_READING, "file")}
    return function(read_task_scores(files["file"], **reading), **options).section()


def _tasks_analysis(name: str):
    """How a config entry runs ``benchtrust.compare.<name>`` on a table of task scores."""

    def run(entry, files):
        import benchtrust.compare

        return _compare_tasks(entry, files, getattr(benchtrust.compare, name))

    extra = (("file", True), ("direction", True), *((key, False) for key in _READING[1:]))
    return _Analysis(run, f"compare:{name}", ("scores", "progress"), extra, ("file", "reference"))


def _multiverse(entry, files):
    from benchtrust.multiverse import study

    named = ("results", "spec", "characteristics", "orders")
    options = {key: value for key, value in entry.items() if key not in named}
    result = study(
        files["results"],
        files["spec"],
        characteristics=files.get("characteristics"),
        orders=files.get("orders"),
        **options,
    )
    names = tuple(entry[key] for key in named if key in entry)  # as the config names them
    return dataclasses.replace(result, what=entry["results"], inputs=names).section()


def _multiverse_example(entry, files):
    from benchtrust.multiverse import bundled_orders, bundled_study, study

    result = study(**bundled_study(), orders=bundled_orders(), **entry)
    return dataclasses.replace(result, what="the bundled Herrmann et al. (2021) results", inputs=()).section()


@dataclasses.dataclass(frozen=True)
class _Analysis:
    """How a config entry runs one analysis.

    The keys an entry may give are the keyword arguments of the library `function` itself (``module:name``
    below ``benchtrust``), so a new argument of an analysis is a new key without a change here: those
    without a default are required. `made` are the function's arguments the runner makes from other keys
    (the data a file holds), `extra` the keys beyond the function's own, as ``(key, required)``, and `files`
    the keys that name files.
    """

    run: object
    function: str
    made: tuple = ()
    extra: tuple = ()
    files: tuple = ()


#: analysis name -> how it runs; the keys each accepts are listed by :func:`entry_keys`
ANALYSES = {
    "sota leaderboard": _Analysis(
        _sota_leaderboard, "sota:leaderboard", ("scores", "progress"), (("file", True),), ("file",)
    ),
    "sota best-of": _Analysis(
        _sota_best_of,
        "sota:best_of",
        ("accuracy",),
        (("accuracy", False), ("accuracies", False), ("accuracy_column", False)),
        ("accuracies",),
    ),
    "consistency test-set": _Analysis(_consistency_test_set, "consistency:check_test_set", ("progress",)),
    "consistency kfold": _Analysis(_consistency_kfold, "consistency:check_kfold", ("progress",)),
    "consistency multiclass": _Analysis(
        _consistency_multiclass,
        "consistency:check_multiclass",
        ("progress",),
        tuple((key, False) for key in _MULTICLASS_FOLD_KEYS),
    ),
    "consistency protocols": _Analysis(_consistency_protocols, "consistency:check_protocols"),
    "consistency regression": _Analysis(_consistency_regression, "consistency:check_regression"),
    "compare outperform": _Analysis(
        _compare_outperform, "compare:outperform", ("runs", "progress"), (("file", True),), ("file",)
    ),
    "compare history": _Analysis(
        _compare_history, "compare:history", ("dates", "scores"), (("file", True),), ("file",)
    ),
    "compare example": _Analysis(_compare_example, "compare:sklearn_example"),
    "compare choose": _tasks_analysis("choose_analysis"),
    "compare aggregate": _tasks_analysis("aggregate"),
    "compare profile": _tasks_analysis("performance_profile"),
    "compare improvement": _tasks_analysis("improvement_probabilities"),
    "compare rank": _tasks_analysis("rank_test"),
    "compare correlated-t": _tasks_analysis("correlated_t_test"),
    "compare signed-rank": _tasks_analysis("signed_rank_test"),
    "compare effect": _tasks_analysis("effect_sizes"),
    "multiverse": _Analysis(
        _multiverse, "multiverse:study", ("progress",), (), ("results", "spec", "characteristics", "orders")
    ),
    "multiverse example": _Analysis(
        _multiverse_example,
        "multiverse:study",
        (
            "results",
            "spec",
            "characteristics",
            "orders",
            "progress",
            "characteristics_dataset_column",
            "orders_label_column",
        ),
    ),
}


def entry_keys(analysis: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The keys a config entry of `analysis` may give: ``(required, optional)``, in the function's order.

    Examples
    --------
    >>> required, optional = entry_keys("compare history")
    >>> required, optional[:2]
    (('file',), ('sigma', 'test_size'))
    """
    import importlib
    import inspect

    spec = ANALYSES[analysis]
    module, name = spec.function.split(":")
    function = getattr(importlib.import_module(f"benchtrust.{module}"), name)
    required, optional = [], []
    for key, required_key in spec.extra:
        (required if required_key else optional).append(key)
    for key, parameter in inspect.signature(function).parameters.items():
        if key in spec.made or key in required or key in optional:
            continue
        (required if parameter.default is parameter.empty else optional).append(key)
    return tuple(required), tuple(optional)


def _resolve(folder: Path, name) -> Path:
    path = Path(os.path.expanduser(str(name)))
    return path if path.is_absolute() else folder / path


def read_config(path):
    """Read and check a report config: ``(title, entries)``, each entry a dict with its ``analysis``.

    Every error is an InputError naming the file and the entry or key at fault, in one line.
    """
    import yaml

    name = os.fspath(path)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a folder, expected a YAML file") from None
    except UnicodeDecodeError:
        raise InputError(f"{name}: not a text file (UTF-8 expected)") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read the file ({exc.strerror or exc})") from None
    from benchtrust._yaml import load_yaml

    try:
        config = load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "not valid YAML"
        raise InputError(f"{name}{where}: {problem}") from None
    if not isinstance(config, dict):
        raise InputError(f"{name}: expected a mapping with the keys 'title' and 'analyses'")
    unknown = sorted(set(map(str, config)) - {"title", "analyses"})
    if unknown:
        raise InputError(f"{name}: unknown key {unknown[0]!r}; expected 'title' and 'analyses'")
    title = config.get("title", "benchtrust report")
    if not isinstance(title, str):
        raise InputError(f"{name}, key 'title': expected a text, got {title!r}")
    entries = config.get("analyses")
    if not isinstance(entries, list) or not entries:
        raise InputError(f"{name}, key 'analyses': expected a list of analyses, each with a key 'analysis'")
    known = ", ".join(ANALYSES)
    for k, entry in enumerate(entries):
        where = f"{name}, analyses[{k}]"
        if not isinstance(entry, dict) or "analysis" not in entry:
            raise InputError(f"{where}: expected a mapping with the key 'analysis' (one of: {known})")
        analysis = " ".join(str(entry["analysis"]).split())
        if analysis not in ANALYSES:
            raise InputError(
                f"{where}, key 'analysis': unknown analysis {entry['analysis']!r}; known: {known}"
            )
        required, optional = entry_keys(analysis)
        for key in entry:
            if key != "analysis" and key not in required and key not in optional:
                allowed = ", ".join((*required, *optional)) or "none"
                raise InputError(f"{where} ({analysis}): unknown key {key!r}; expected {allowed}")
        for key in required:
            if key not in entry:
                raise InputError(f"{where} ({analysis}): the key {key!r} is required")
    return title, entries


def config_files(path) -> list[Path]:
    """The config file `path` and every file it names (those that exist or not): what ``benchtrust report``
    reads, so that its ``--out`` never replaces one.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     config = pathlib.Path(folder, "audit.yaml")
    ...     _ = config.write_text("analyses: [{analysis: compare history, file: h.csv}]", encoding="utf-8")
    ...     [named.name for named in config_files(config)]
    ['audit.yaml', 'h.csv']
    """
    _, entries = read_config(path)
    folder = Path(path).parent
    named = [Path(path)]
    for entry in entries:
        analysis = " ".join(str(entry["analysis"]).split())
        folding = analysis in ("consistency kfold", "consistency multiclass")
        keys = ANALYSES[analysis].files + (("folding",) if folding else ())
        for key in keys:
            value = entry.get(key)
            if isinstance(value, str) and value.strip() and value.lower() not in ("stratified", "unknown"):
                named.append(_resolve(folder, value))
    return named


def run_config(path, *, progress=None):
    """Run every analysis of the config file `path`: ``(title, sections)``.

    ``progress(k, total, analysis)`` is called before each analysis, if given. An error of an analysis is
    an InputError naming the file, the entry and the analysis.
    """
    title, entries = read_config(path)
    folder = Path(path).parent
    sections = []
    for k, entry in enumerate(entries):
        analysis = " ".join(str(entry["analysis"]).split())
        runner, file_keys = ANALYSES[analysis].run, ANALYSES[analysis].files
        where = f"{os.fspath(path)}, analyses[{k}] ({analysis})"
        if progress is not None:
            progress(k, len(entries), analysis)
        arguments = {key: value for key, value in entry.items() if key != "analysis"}
        files = {"_folder": folder}
        for key in file_keys:
            if key in arguments:
                if not isinstance(arguments[key], str) or not arguments[key].strip():
                    raise InputError(f"{where}, key {key!r}: expected a file name, got {arguments[key]!r}")
                files[key] = _resolve(folder, arguments[key])
                if not files[key].is_file():
                    raise InputError(f"{where}, key {key!r}: no such file {os.fspath(files[key])}")
        try:
            sections.append(runner(arguments, files))
        except (ValueError, TypeError) as exc:  # InputError is a ValueError
            message = " ".join(str(exc).split())
            raise InputError(f"{where}: {message}") from None
    return title, sections
