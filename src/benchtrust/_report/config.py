"""``benchtrust report CONFIG.yaml``: run the analyses a YAML file lists and gather their report sections.

The file holds an optional ``title`` and a list ``analyses``; each entry names its ``analysis`` (such as
``sota leaderboard``) and the arguments of the library function, by their names (``test_size``,
``max_plausible``, ...). File names are relative to the config file's folder. See ``docs/report.md``.
"""

from __future__ import annotations

import os
from pathlib import Path

from benchtrust._io import InputError

__all__ = ["ANALYSES", "read_config", "run_config"]


def _sota_leaderboard(entry, files):
    from benchtrust._report.sections import leaderboard_section
    from benchtrust.sota import leaderboard
    from benchtrust.sota._read import top_teams

    path = files["file"]
    options = {key: value for key, value in entry.items() if key != "file"}
    result = leaderboard(os.fspath(path), **options)
    try:
        top = top_teams(
            path,
            score_column=options.get("score_column"),
            classes=options.get("classes"),
            max_plausible=options.get("max_plausible"),
        )
    except InputError:
        top = []
    return leaderboard_section(result, file=entry["file"], top=top)


def _sota_best_of(entry, files):
    from benchtrust._io import read_numbers
    from benchtrust._report.sections import best_of_section
    from benchtrust.sota import best_of

    options = {key: value for key, value in entry.items() if key not in ("accuracy", "accuracies")}
    if ("accuracy" in entry) == ("accuracies" in entry):
        raise InputError("give either accuracy (one θ for all classifiers) or accuracies (a file), not both")
    if "accuracies" in entry:
        theta = read_numbers(files["accuracies"], column="accuracy", what="accuracy")
        shown = f"{theta.min():g} to {theta.max():g} (θ_j from {entry['accuracies']})"
        inputs = (entry["accuracies"],)
    else:
        theta, shown, inputs = entry["accuracy"], f"{entry['accuracy']:g}", ()
    result = best_of(theta, **options)
    return best_of_section(result, accuracy=shown, inputs=inputs)


def _scores(entry):
    """The entry's ``scores`` mapping, the values as text (write them quoted to keep their decimals)."""
    scores = entry.get("scores")
    if not isinstance(scores, dict) or not scores:
        raise InputError("scores: expected a mapping of score names to values, such as {acc: '0.9400'}")
    return {str(name): value if isinstance(value, str) else repr(value) for name, value in scores.items()}


def _rounding(entry):
    return None if "eps" in entry else entry.get("rounding", "round")


def _consistency_test_set(entry, files):
    from benchtrust._report.sections import test_set_section
    from benchtrust.consistency._test_set import check_test_set

    scores = _scores(entry)
    options = {key: value for key, value in entry.items() if key != "scores"}
    result = check_test_set(scores, **options)
    return test_set_section(result, typed=scores, rounding=_rounding(entry))


def _consistency_kfold(entry, files):
    from benchtrust._report.sections import kfold_section
    from benchtrust.consistency._kfold import check_kfold

    scores = _scores(entry)
    options = {key: value for key, value in entry.items() if key != "scores"}
    folding = options.get("folding")
    if isinstance(folding, str) and folding.lower() not in ("stratified", "unknown"):
        from benchtrust.consistency._batch import read_folding

        options["folding"] = read_folding(_resolve(files["_folder"], folding))
    if isinstance(options.get("bounds"), dict):
        options["bounds"] = {
            str(name): tuple(str(v) if isinstance(v, str) else repr(v) for v in pair)
            for name, pair in options["bounds"].items()
        }
    result = check_kfold(scores, **options)
    return kfold_section(result, typed=scores, rounding=_rounding(entry), bounds=options.get("bounds"))


def _consistency_multiclass(entry, files):
    from benchtrust._report.sections import multiclass_section
    from benchtrust.consistency._multiclass import check_multiclass

    scores = _scores(entry)
    options = {key: value for key, value in entry.items() if key != "scores"}
    result = check_multiclass(scores, **options)
    return multiclass_section(result, typed=scores, rounding=_rounding(entry))


def _compare_outperform(entry, files):
    from benchtrust._report.sections import outperform_section
    from benchtrust.compare import probability_of_outperforming
    from benchtrust.compare._runs import read_runs

    read = read_runs(
        os.fspath(files["file"]), a=str(entry["a"]), b=str(entry["b"]), pair_by=entry.get("pair_by")
    )
    options = {key: value for key, value in entry.items() if key not in ("file", "a", "b", "pair_by")}
    options.setdefault("seed", 0)
    result = probability_of_outperforming(read.a, read.b, paired=read.paired, **options)
    return outperform_section(
        result,
        a=read.names[0],
        b=read.names[1],
        runs_a=int(read.a.size),
        runs_b=int(read.b.size),
        pair_by=read.pair_by,
        seed=None if read.paired else options["seed"],
        file=entry["file"],
    )


def _compare_history(entry, files):
    from benchtrust._report.sections import history_section
    from benchtrust.compare._history import history
    from benchtrust.compare._runs import read_history

    dates, scores = read_history(os.fspath(files["file"]))
    options = {key: value for key, value in entry.items() if key != "file"}
    return history_section(history(dates, scores, **options), file=entry["file"])


def _compare_example(entry, files):
    from benchtrust._report.sections import compare_example_section
    from benchtrust.compare._example import sklearn_example

    return compare_example_section(sklearn_example(**entry))


def _multiverse(entry, files):
    from benchtrust._report.sections import multiverse_section
    from benchtrust.multiverse import study

    result = study(
        files["results"],
        files["spec"],
        characteristics=files.get("characteristics"),
        orders=files.get("orders"),
        **{key: entry[key] for key in ("permutations", "seed") if key in entry},
    )
    names = [entry[key] for key in ("results", "spec", "characteristics", "orders") if key in entry]
    return multiverse_section(result, what=entry["results"], inputs=names)


def _multiverse_example(entry, files):
    from benchtrust._report.sections import multiverse_section
    from benchtrust.multiverse import bundled_orders, bundled_study, study

    result = study(**bundled_study(), orders=bundled_orders(), **entry)
    return multiverse_section(result, what="the bundled Herrmann et al. (2021) results")


#: analysis name -> (runner, required keys, optional keys, keys naming files)
ANALYSES = {
    "sota leaderboard": (
        _sota_leaderboard,
        ("file", "test_size"),
        (
            "metric",
            "positives",
            "classes",
            "max_plausible",
            "score_column",
            "correlation",
            "bootstrap",
            "seed",
            "alpha",
        ),
        ("file",),
    ),
    "sota best-of": (
        _sota_best_of,
        ("test_size",),
        (
            "accuracy",
            "accuracies",
            "classifiers",
            "correlation",
            "reference_accuracy",
            "fixed_reference",
            "alpha",
            "invalid",
        ),
        ("accuracies",),
    ),
    "consistency test-set": (
        _consistency_test_set,
        ("positives", "negatives", "scores"),
        ("eps", "rounding", "beta", "examples"),
        (),
    ),
    "consistency kfold": (
        _consistency_kfold,
        ("positives", "negatives", "folds", "scores"),
        ("repeats", "aggregation", "folding", "eps", "rounding", "beta", "bounds", "max_configurations"),
        (),
    ),
    "consistency multiclass": (
        _consistency_multiclass,
        ("class_counts", "average", "scores"),
        ("eps", "rounding", "beta", "examples"),
        (),
    ),
    "compare outperform": (
        _compare_outperform,
        ("file", "a", "b"),
        ("pair_by", "gamma", "alpha", "lower_is_better", "resamples", "seed"),
        ("file",),
    ),
    "compare history": (
        _compare_history,
        ("file",),
        ("sigma", "test_size", "alpha", "lower_is_better"),
        ("file",),
    ),
    "compare example": (_compare_example, (), ("runs", "seed", "gamma"), ()),
    "multiverse": (
        _multiverse,
        ("results", "spec"),
        ("characteristics", "orders", "permutations", "seed"),
        ("results", "spec", "characteristics", "orders"),
    ),
    "multiverse example": (_multiverse_example, (), ("permutations", "seed"), ()),
}


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
    try:
        config = yaml.safe_load(text)
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
        _, required, optional, _ = ANALYSES[analysis]
        for key in entry:
            if key != "analysis" and key not in required and key not in optional:
                allowed = ", ".join((*required, *optional)) or "none"
                raise InputError(f"{where} ({analysis}): unknown key {key!r}; expected {allowed}")
        for key in required:
            if key not in entry:
                raise InputError(f"{where} ({analysis}): the key {key!r} is required")
    return title, entries


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
        runner, _, _, file_keys = ANALYSES[analysis]
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
