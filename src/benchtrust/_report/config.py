"""``benchtrust report CONFIG.yaml``: run the analyses a YAML file lists and gather their report sections.

The file holds an optional ``title`` and a list ``analyses``; each entry names its ``analysis`` (such as
``sota leaderboard``) and the arguments of the library function, by their names (``test_size``,
``max_plausible``, ...): the function's signature is the one description of what an analysis takes, for
Python, this runner and the command line, which run it through the same table of analyses
(:mod:`benchtrust._report.analyses`). File names are relative to the config file's folder. See
``docs/report.md``.
"""

from __future__ import annotations

import os
from pathlib import Path

from benchtrust._io import InputError
from benchtrust._report.analyses import ANALYSES, entry_keys, names_a_file, resolve, run_analysis

__all__ = ["config_files", "read_config", "run_config"]


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
        for key in ANALYSES[analysis].files:
            value = entry.get(key)
            if names_a_file(key, value) and value.strip():
                named.append(resolve(folder, value))
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
        where = f"{os.fspath(path)}, analyses[{k}] ({analysis})"
        if progress is not None:
            progress(k, len(entries), analysis)
        arguments = {key: value for key, value in entry.items() if key != "analysis"}
        for key in ANALYSES[analysis].files:
            if key not in arguments or (key == "folding" and not names_a_file(key, arguments[key])):
                continue
            if not isinstance(arguments[key], str) or not arguments[key].strip():
                raise InputError(f"{where}, key {key!r}: expected a file name, got {arguments[key]!r}")
            if not resolve(folder, arguments[key]).is_file():
                raise InputError(
                    f"{where}, key {key!r}: no such file {os.fspath(resolve(folder, arguments[key]))}"
                )
        try:
            sections.append(run_analysis(analysis, arguments, folder=folder).section())
        except (ValueError, TypeError) as exc:  # InputError is a ValueError
            message = " ".join(str(exc).split())
            raise InputError(f"{where}: {message}") from None
    return title, sections
