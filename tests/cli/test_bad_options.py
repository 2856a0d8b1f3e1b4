"""Every option of every command, given bad values: a result or one short refusal, never a traceback
(issue 19 §5; DESIGN: errors and bad input).

The matrix is generated from the app's own parameters: the click command tree of
``typer.main.get_command(app)`` is walked, so a new command or option is covered without editing this file
(a command without an entry in :data:`VALID` fails :func:`test_every_command_has_valid_arguments`). Each
command runs on its minimal valid arguments (:data:`VALID`: tiny files in a temporary folder) with one
parameter, option or argument, given one of :data:`BAD_VALUES` (huge integers, 0, negative, nan, inf,
1e-300, empty, non-ASCII, ``/``, a folder, 250- and 300-character names, read-only files, unsupported
suffixes); ``make test`` runs every other cell of that matrix (:data:`SHARE`), benchmarks/bench_generated.py
all of them. Every call, in-process through typer's CliRunner:

- exits with 0 or 2, never 1 (an uncaught exception) or another code, and never hangs (:data:`HANG_SECONDS`);
- on 2, writes at most three lines to stderr, none a traceback;
- leaves every file of the folder as it was (bytes and modification time), and adds nothing on a refusal;
  on success only the outputs the call names (``--out``, ``--report``, ``--plot``).

Flags (``--json``) take no value and are not varied. Exempt, with the reason:

- ``/`` given to a folder output (``multiverse --out DIR``): an existing folder, where a run as root would
  write its tables; ``afolder`` covers an existing folder.
- The multiverse figures are drawn but not rasterised in the matrix (an empty file is written in their
  place, through the same atomic writer): they depend on the data, not on the options, and rasterising
  them on each of the ~70 successful calls would take most of the matrix's time. The valid arguments
  (:func:`test_valid_arguments_succeed`) rasterise them.
- ``multiverse example`` runs on the tiny study instead of the bundled one (a study of minutes).
"""

import contextlib
import hashlib
import os
import re
import shutil
import signal
import stat
import subprocess
import sys

import pytest
import typer
import typer.testing
from typer.testing import CliRunner

from benchtrust import cli

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
#: A call taking longer than this is a hang (a guard, not a timing: most calls take milliseconds).
HANG_SECONDS = 60
#: The click command tree, built once (typer's CliRunner builds it again for every call otherwise).
COMMAND = typer.main.get_command(cli.app)

SPEC = """\
columns: {dataset: data, method: learner}
measures:
  acc: {better: higher, random: 0.5}
choices:
  aggregation: {default: mean, options: [mean, median]}
unfolding: false
"""
#: The folder every call runs in: name -> text (a name ending in / is a folder).
FILES = {
    "board.csv": "TeamId,Score\n" + "".join(f"{t},{k / 209:.5f}\n" for t, k in enumerate(range(150, 200, 5))),
    "accuracies.txt": "0.9\n0.85\n",
    "folds.csv": "positives,negatives\n3,20\n2,21\n",
    "claims.csv": "id,positives,negatives,acc\na,10,10,0.5\n",
    "runs.csv": "algorithm,seed,score\n"
    + "".join(f"{n},{k},{0.9 + 0.001 * ((3 * k + ord(n)) % 5):.3f}\n" for n in "AB" for k in range(6)),
    "history.csv": "date,score\n2018-01-02,0.90\n2019-03-04,0.93\n",
    "results.csv": "data,learner,acc\n"
    + "".join(f"d{d},m{m},{0.7 + 0.01 * ((d + 2 * m) % 5):.2f}\n" for d in range(3) for m in range(2)),
    "characteristics.csv": "data,n\nd0,100\nd1,200\nd2,300\n",
    "orders.csv": "rep,pos1,pos2,pos3\n1,d0,d1,d2\n2,d2,d0,d1\n",
    "ranks.csv": "a,b,c\n1,2,3\n2,1,3\n3,1,2\n1,3,2\n",
    "spec.yaml": SPEC,
    # compare auto needs 5 tasks (autorank's least)
    "tasks5.csv": "method,task,run,score\n"
    + "".join(f"{m},t{t},0,{(t * t + 3 * ord(m)) % 7}\n" for m in "AB" for t in range(5)),
    "tasks.csv": "method,task,run,score\n"
    + "".join(
        f"{m},t{t},{r},{0.5 + 0.01 * ((3 * t + 5 * r + 7 * ord(m)) % 11):.2f}\n"
        for m in "AB"
        for t in range(2)
        for r in range(2)
    ),
    "reference.csv": "task,random,human\nt0,0.4,0.9\nt1,0.4,0.9\n",
    # compare efficiency: tasks.csv's runs at two steps
    "curves.csv": "method,task,run,step,score\n"
    + "".join(
        f"{m},t{t},{r},{s},{0.5 + 0.01 * ((3 * t + 5 * r + 7 * ord(m) + s) % 11):.2f}\n"
        for m in "AB"
        for t in range(2)
        for r in range(2)
        for s in (1, 2)
    ),
    "config.yaml": "analyses:\n  - {analysis: compare history, file: history.csv, test_size: 100}\n",
    "afolder/": "",
    "readonly.csv": "a,b\n1,2\n",
    "readonly.html": "<p>kept</p>\n",
    "readonly.png": "not an image\n",
}
READ_ONLY = [name for name in FILES if name.startswith("readonly")]

#: command -> its minimal valid arguments, cheap to run (a correlation of 0, no resamples, tiny files).
VALID = {
    "report": ["config.yaml", "--out", "out.html"],
    "cite": ["sota", "leaderboard"],
    "sota best-of": ["--classifiers", "3", "--test-size", "20", "--accuracy", "0.8"],
    "sota leaderboard": [
        *("board.csv", "--test-size", "209", "--direction", "higher"),
        *("--resamples", "0", "--correlation", "0"),
    ],
    "consistency test-set": ["--positives", "5", "--negatives", "5", "--score", "acc=0.5"],
    "consistency kfold": [
        *("--positives", "3", "--negatives", "5", "--folds", "2", "--aggregation", "som"),
        *("--score", "acc=0.5"),
    ],
    "consistency multiclass": ["--class-counts", "2,2,2", "--average", "micro", "--score", "acc=0.5"],
    "consistency datasets": ["drive"],
    "consistency batch": ["claims.csv"],
    "consistency protocols": ["--positives", "5", "--negatives", "5", "--score", "acc=0.5"],
    "consistency regression": ["--size", "5", "--score", "mse=0.5"],
    "compare outperform": ["runs.csv", "--a", "A", "--b", "B"],
    "compare sample-size": [],
    "compare error-rates": [
        *("--sigma", "0.01", "--runs", "3", "--simulations", "60", "--probabilities", "0.5"),
    ],
    "compare history": ["history.csv", "--test-size", "100"],
    "compare choose": ["tasks.csv", "--direction", "higher"],
    "compare aggregate": ["tasks.csv", "--direction", "higher", "--resamples", "0"],
    "compare profile": ["tasks.csv", "--direction", "higher", "--resamples", "0"],
    "compare efficiency": ["curves.csv", "--direction", "higher", "--resamples", "0"],
    "compare improvement": ["tasks.csv", "--direction", "higher", "--resamples", "50"],
    "compare rank": ["tasks.csv", "--direction", "higher"],
    "compare auto": ["tasks5.csv", "--direction", "higher"],
    "compare bayes": ["tasks.csv", "--direction", "higher", "--a", "A", "--b", "B", "--samples", "60"],
    "compare effect": ["tasks.csv", "--direction", "higher", "--a", "A", "--b", "B", "--resamples", "50"],
    "compare hierarchical": [
        "tasks.csv",
        "--direction",
        "higher",
        "--a",
        "A",
        "--b",
        "B",
        "--folds",
        "2",
        "--samples",
        "60",
    ],
    "compare aso": ["tasks.csv", "--direction", "higher", "--a", "A", "--b", "B", "--resamples", "50"],
    "multiverse run": [
        *("results.csv", "--spec", "spec.yaml", "--characteristics", "characteristics.csv"),
        *("--out", "mv"),
    ],
    "multiverse example": ["--out", "mv"],
    "multiverse unfold": ["ranks.csv"],
}

#: name -> the text given to the parameter.
BAD_VALUES = {
    "huge": "99999999999999999999999",
    "2^64": "18446744073709551616",
    "zero": "0",
    "negative": "-1",
    "nan": "nan",
    "inf": "inf",
    "tiny": "1e-300",
    "empty": "",
    "non-ascii": "Zoë∂",
    "slash": "/",
    "folder": "afolder",
    "name-250": "b" * 246 + ".png",
    "name-300": "c" * 300,
    **{f"read-only-{name.split('.')[1]}": name for name in READ_ONLY},
    "suffix-pgf": "x.pgf",
    "suffix-docx": "x.docx",
}
#: The parameters that name outputs: what a successful call may add to the folder.
OUTPUTS = ("out", "report", "plot")


def commands(group, path=()):
    """(name, click command) of every command under `group`, as ``sota best-of``."""
    for name, command in getattr(group, "commands", {}).items():
        if getattr(command, "commands", None):
            yield from commands(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


def with_value(name, parameter, value):
    """The arguments of command `name`: :data:`VALID`, with `parameter` given `value` (in place of its
    valid value, if it has one)."""
    args = list(VALID[name])
    if parameter.param_type_name == "argument":
        positional = [k for k, arg in enumerate(args) if not arg.startswith("-") and _is_positional(args, k)]
        if positional:
            args[positional[0]] = value
            return args
        return [value, *args]
    option = parameter.opts[0]
    if option in args:
        args[args.index(option) + 1] = value
        return args
    return [*args, option, value]


def _is_positional(args, k):
    """Whether ``args[k]`` is not the value of the option before it."""
    return k == 0 or not args[k - 1].startswith("-")


CASES = [
    (name, parameter, label)
    for name, command in commands(COMMAND)
    for parameter in command.params
    if not getattr(parameter, "is_flag", False)
    for label in BAD_VALUES
    if not (parameter.metavar == "DIR" and label == "slash")
]
#: ``make test`` runs every other case of the matrix (the first, third ... for one parameter, the second,
#: fourth ... for the next), so every bad value meets half the parameters; benchmarks/bench_generated.py
#: sets BENCHTRUST_ALL_EXAMPLES=1 and runs them all.
SHARE = 1 if os.environ.get("BENCHTRUST_ALL_EXAMPLES") else 2


def test_the_matrix_is_large():
    """Every command's every valued parameter times every bad value: several thousand calls."""
    assert len({name for name, _, _ in CASES}) == len(VALID)
    assert len(CASES) > 3500, len(CASES)


def test_every_command_has_valid_arguments():
    """A new command needs its minimal valid arguments here; each of them succeeds as given."""
    assert {name for name, _ in commands(COMMAND)} == set(VALID)


class HangError(Exception):
    """A call ran longer than :data:`HANG_SECONDS`."""


@contextlib.contextmanager
def hang_guard():
    def alarm(signum, frame):
        raise HangError(f"no result after {HANG_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def state(folder):
    """Every entry under `folder`: file -> (sha256, mtime in ns); folder -> None."""
    out = {}
    for root, folders, files in os.walk(folder):
        for name in folders:
            out[os.path.relpath(os.path.join(root, name), folder)] = None
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as stream:
                out[os.path.relpath(path, folder)] = (
                    hashlib.sha256(stream.read()).hexdigest(),
                    os.stat(path).st_mtime_ns,
                )
    return out


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The working folder (FILES), the tiny study in place of the bundled one, and the tree built once."""
    folder = tmp_path_factory.mktemp("bad-options")
    for name, text in FILES.items():
        if name.endswith("/"):
            (folder / name).mkdir()
        else:
            (folder / name).write_text(text, encoding="utf-8")
    for name in READ_ONLY:
        (folder / name).chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    patch = pytest.MonkeyPatch()
    patch.setattr(typer.testing, "_get_command", lambda app: COMMAND)
    # multiverse example runs the bundled study (minutes): the same command on the tiny one
    import benchtrust.multiverse

    tiny = {name: folder / f"{name}.{kind}" for name, kind in (("results", "csv"), ("spec", "yaml"))}
    patch.setattr(
        benchtrust.multiverse,
        "bundled_study",
        lambda: {**tiny, "characteristics": folder / "characteristics.csv"},
    )
    patch.setattr(benchtrust.multiverse, "bundled_orders", lambda: folder / "orders.csv")
    patch.chdir(folder)
    yield folder
    patch.undo()


def declared(args):
    """The outputs a call's arguments name (values of --out, --report, --plot)."""
    options = {f"--{name}" for name in OUTPUTS}
    return {os.path.normpath(args[k + 1]) for k, arg in enumerate(args[:-1]) if arg in options}


def check(folder, name, args):
    """Run ``benchtrust NAME ARGS``: its exit code and the problems found, in words (empty: none)."""
    before = state(folder)
    with hang_guard():
        result = CliRunner().invoke(cli.app, [*name.split(), *args], env=WIDE)
    after = state(folder)
    problems = []
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        problems.append(f"{type(result.exception).__name__}: {result.exception}")
    if result.exit_code not in (0, 2):
        problems.append(f"exit code {result.exit_code}")
    if "Traceback" in result.stdout + result.stderr:
        problems.append("a traceback")
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    if result.exit_code == 2 and not 1 <= len(lines) <= 3:
        problems.append(f"{len(lines)} stderr lines")
    changed = sorted(key for key in before if after.get(key) != before[key])
    if changed:
        problems.append(f"changed {changed}")
    outputs = declared(args) if result.exit_code == 0 else set()
    added = sorted(key for key in after if key not in before)
    unexpected = [
        key for key in added if not any(key == out or key.startswith(out + os.sep) for out in outputs)
    ]
    if unexpected:
        problems.append(f"added {unexpected}")
    for key in added:  # clean up for the next call
        path = folder / key
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        elif path.exists():
            path.unlink()
    if problems:
        problems.append(f"stderr: {result.stderr.strip()[:300]!r}")
    return result.exit_code, problems


@pytest.mark.parametrize("name", VALID)
def test_valid_arguments_succeed(name, folder):
    """Each command's base arguments are valid: the bad value is what each case exercises."""
    assert check(folder, name, VALID[name]) == (0, [])


def not_drawn(makers, form):
    """:func:`benchtrust._figures.figures_bytes` without drawing: an empty file's bytes for each figure."""
    return [b"" for _ in makers]


@pytest.mark.slow
@pytest.mark.parametrize("name", VALID)
def test_bad_values_of_every_parameter(name, folder, monkeypatch):
    """Every valued parameter of the command, given every bad value: exit 0 or 2, at most three lines
    on stderr, no traceback, inputs untouched, nothing left behind."""
    import benchtrust.multiverse._study

    monkeypatch.setattr(benchtrust.multiverse._study, "figures_bytes", not_drawn)
    failures = []
    labels = list(BAD_VALUES)
    cases = [(parameter, label) for case_name, parameter, label in CASES if case_name == name]
    parameters = list(dict.fromkeys(parameter.name for parameter, _ in cases))
    for parameter, label in cases:
        if (parameters.index(parameter.name) + labels.index(label)) % SHARE:
            continue
        args = with_value(name, parameter, BAD_VALUES[label])
        _, problems = check(folder, name, args)
        if problems:
            failures.append(f"{parameter.opts[0]} {label}: {'; '.join(problems)}")
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize(
    "args",
    [
        [
            "sota",
            "best-of",
            "--classifiers",
            "99999999999999999999999",
            "--test-size",
            "9",
            "--accuracy",
            "0.8",
        ],
        [
            "consistency",
            "test-set",
            "--positives",
            "99999999999999999999999",
            "--negatives",
            "5",
            "--score",
            "acc=0.5",
        ],
        ["sota", "best-of", "--bogus"],
    ],
    ids=["huge-classifiers", "huge-positives", "unknown-option"],
)
def test_exit_codes_of_the_process(args, tmp_path):
    """As a process: exit code 2 and one line on stderr, for a bad value and for a usage error."""
    done = subprocess.run(
        [sys.executable, "-m", "benchtrust", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, **WIDE},
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.startswith("benchtrust: error: ") and done.stderr.count("\n") == 1, done.stderr


# An existing file given to a file output (issue 29 §3; DESIGN: an existing file is never replaced without
# --force). Generated from the app like the matrix above: every file output of every command.
#: Help that says an option writes or draws a file: such an option must be one of OUTPUTS.
WRITES = re.compile(r"^(also )?(write|draw)\b|\bto write\b", re.IGNORECASE)
FILE_OUTPUTS = [
    pytest.param(name, parameter, id=f"{name} {parameter.opts[0]}")
    for name, command in commands(COMMAND)
    for parameter in command.params
    if parameter.name in OUTPUTS and parameter.metavar != "DIR"
]


def test_every_command_that_writes_a_file_takes_the_one_force_option():
    """Every option that writes a file is an output (checked for an existing file before the command
    runs); every command with an output, and only such a command, takes ``--force``, with one help."""
    from benchtrust.cli._common import _FORCE_OPTION

    for name, command in commands(COMMAND):
        for parameter in command.params:
            if WRITES.search(getattr(parameter, "help", None) or ""):
                assert parameter.name in OUTPUTS, f"{name} {parameter.opts[0]}"
        force = [parameter for parameter in command.params if parameter.name == "force"]
        assert bool(force) == any(parameter.name in OUTPUTS for parameter in command.params), name
        for parameter in force:
            assert parameter.opts == ["--force"] and parameter.is_flag and not parameter.default, name
            assert parameter.help == _FORCE_OPTION.help, name
    assert len(FILE_OUTPUTS) > 30


def touched_since(folder, before):
    """The entries of `folder` added or changed since `before` (the added ones removed again)."""
    after = state(folder)
    touched = sorted(key for key in after if after[key] != before.get(key))
    for key in touched:
        if key not in before:
            path = folder / key
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink(missing_ok=True)
    return touched


#: What the user's file, in the way of an output, holds.
USERS = b"the user's file\n"


def existing_output(name, parameter, folder):
    """The arguments of command `name` with `parameter` given a file of the folder that exists already."""
    target = "existing" + re.search(r"FILE(\.\w+)", parameter.metavar).group(1)
    (folder / target).write_bytes(USERS)
    return target, [*name.split(), *with_value(name, parameter, target)]


@pytest.mark.parametrize(("name", "parameter"), FILE_OUTPUTS)
def test_an_existing_output_is_refused(name, parameter, folder):
    """Without --force: exit 2, one line naming the option and the file, every file of the folder (its
    bytes and modification time) as it was, nothing added; before any work (the other arguments are the
    command's valid ones)."""
    target, args = existing_output(name, parameter, folder)
    before = state(folder)
    try:
        result = CliRunner().invoke(cli.app, args, env=WIDE)
        assert result.exit_code == 2, result.stdout + result.stderr
        assert result.stdout == ""
        assert result.stderr == (
            f"benchtrust: error: {parameter.opts[0]}: {target} exists already; give --force to replace "
            "it, or write another file\n"
        )
        assert state(folder) == before
    finally:
        (folder / target).unlink()


@pytest.mark.slow
@pytest.mark.parametrize(("name", "parameter"), FILE_OUTPUTS)
def test_an_existing_output_is_replaced_with_force(name, parameter, folder):
    """With --force the command runs and replaces the file; it adds no other file than its outputs."""
    target, args = existing_output(name, parameter, folder)
    before = state(folder)
    try:
        result = CliRunner().invoke(cli.app, [*args, "--force"], env=WIDE)
        assert result.exit_code == 0, result.stdout + result.stderr
        assert (folder / target).read_bytes() not in (USERS, b"")
        touched = {key.split(os.sep)[0] for key in touched_since(folder, before)}
        assert touched <= {target, *(os.path.normpath(out) for out in declared(args))}
    finally:
        (folder / target).unlink()


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["", "force"])
def test_an_output_that_appears_while_the_command_runs_is_replaced_only_with_force(
    force, tmp_path, monkeypatch
):
    """The check is made again as the file is written: a file that appeared since the command started
    (here, while the report is rendered) is refused as one that was there before, unless --force."""
    import benchtrust._report.html

    target = tmp_path / "late.html"
    render = benchtrust._report.html.render

    def appearing(*args, **kwargs):
        target.write_bytes(USERS)
        return render(*args, **kwargs)

    monkeypatch.setattr(benchtrust._report.html, "render", appearing)
    args = ["compare", "sample-size", "--report", str(target), *force]
    result = CliRunner().invoke(cli.app, args, env=WIDE)
    assert result.exit_code == (0 if force else 2), result.stderr
    if force:
        assert target.read_bytes().startswith(b"<!DOCTYPE html>")
    else:
        assert result.stderr.endswith(
            f"{target} exists already; give --force to replace it, or write another file\n"
        )
        assert result.stderr.count("\n") == 1 and target.read_bytes() == USERS
    assert [path.name for path in tmp_path.iterdir()] == ["late.html"]
