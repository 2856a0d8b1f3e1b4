"""No command replaces a user's file in its output folder without ``--force`` (issue 29 §3).

Every command that writes several files into a folder (an output option of metavar DIR; the table below
is checked against the app) is run with its folder holding one existing file of each name it would write,
next to unrelated files: refused with exit 2 and one line naming that file, before anything is written,
every byte and the listing unchanged. With ``--force`` the files of those names are replaced and the
unrelated ones survive; a file the command reads is never replaced, ``--force`` or not. The names a
command writes are those :func:`benchtrust.multiverse.study_files` predicts, checked against what a run
writes.
"""

import contextlib
import hashlib
import json
from pathlib import Path

import pytest
import typer
import typer.testing
import yaml
from typer.testing import CliRunner

from benchtrust import _demo, cli
from benchtrust._io import InputError
from benchtrust.multiverse import bundled_study, study_files

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
COMMAND = typer.main.get_command(cli.app)
RESULTS = "data,learner,acc\n" + "".join(
    f"d{d},m{m},0.{7 + (m * 3 + d) % 3}{(d * 7 + m) % 10}\n" for d in range(4) for m in range(3)
)
SPEC = """\
columns: {dataset: data, method: learner}
measures:
  acc: {better: higher, random: 0.5}
choices:
  aggregation: {default: mean, options: [mean, median]}
"""
#: command -> (its arguments but --out, the arguments of study_files for the names it writes).
FOLDER_COMMANDS = {
    "multiverse run": (
        ["results.csv", "--spec", "spec.yaml", "--random-orders", "3", "--permutations", "2"],
        {"spec": SPEC, "permutations": 2, "subsample": True},
    ),
    "multiverse example": ([], {"spec": bundled_study()["spec"], "subsample": True}),
}
#: Commands fast enough to run to the end in a test (the example runs the paper's study: 30 s), with the
#: unfolding left out to keep it so.
RUNS_QUICKLY = ["multiverse run"]
QUICK_SPEC = SPEC + "unfolding: false\n"
UNRELATED = {"notes.txt": b"my notes\n", "sub/keep.csv": b"a,b\n1,2\n"}


def commands(group, path=()):
    for name, command in getattr(group, "commands", {}).items():
        if getattr(command, "commands", None):
            yield from commands(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


def names(command, spec=None):
    """The files `command` writes (with the spec's text `spec` instead of its own, if given)."""
    _, arguments = FOLDER_COMMANDS[command]
    spec = spec or arguments["spec"]
    if isinstance(spec, str) and "\n" in spec:  # the spec's text
        spec = yaml.safe_load(spec)
    return study_files(**{**arguments, "spec": spec})


def test_every_command_that_writes_into_a_folder_is_here():
    """A new command with a folder output (metavar DIR) must be added to the table."""
    found = {name for name, command in commands(COMMAND) if any(p.metavar == "DIR" for p in command.params)}
    assert found == set(FOLDER_COMMANDS)


@pytest.fixture
def runner(monkeypatch, tmp_path):
    monkeypatch.setattr(typer.testing, "_get_command", lambda app: COMMAND)  # the tree, built once
    monkeypatch.chdir(tmp_path)
    (tmp_path / "results.csv").write_text(RESULTS, encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(SPEC, encoding="utf-8")
    return CliRunner()


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def contents(folder):
    """Every file under `folder`, by relative path: its SHA-256."""
    return {
        str(path.relative_to(folder)): sha256(path) for path in sorted(folder.rglob("*")) if path.is_file()
    }


def populate(out, existing):
    """`out` with the unrelated files and a file of each name in `existing`, each holding its own bytes."""
    for name, data in {**UNRELATED, **{name: f"mine: {name}\n".encode() for name in existing}}.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)


def run(runner, command, out, *more):
    arguments, _ = FOLDER_COMMANDS[command]
    return runner.invoke(cli.app, [*command.split(), *arguments, "--out", str(out), *more], env=WIDE)


CASES = [
    pytest.param(command, name, id=f"{command}-{name}")
    for command in FOLDER_COMMANDS
    for name in names(command)
]


@pytest.mark.parametrize(("command", "name"), CASES)
def test_an_existing_file_of_a_name_it_writes_is_refused(command, name, runner, tmp_path):
    out = tmp_path / "study"
    populate(out, [name])
    before = contents(tmp_path)
    result = run(runner, command, out)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.startswith("benchtrust: error: --out: ") and result.stderr.count("\n") == 1
    assert f"{out / name} exists already; give --force" in result.stderr
    assert contents(tmp_path) == before


@pytest.mark.parametrize("command", RUNS_QUICKLY)
def test_with_force_the_files_are_replaced_and_the_others_kept(command, runner, tmp_path):
    (tmp_path / "spec.yaml").write_text(QUICK_SPEC, encoding="utf-8")
    out = tmp_path / "study"
    written = names(command, QUICK_SPEC)
    populate(out, written)
    before = contents(out)
    result = run(runner, command, out, "--force")
    assert result.exit_code == 0, result.output
    after = contents(out)
    assert sorted(after) == sorted([*UNRELATED, *written])  # no temporary file left
    assert all(after[name] == before[name] for name in UNRELATED)
    assert all(after[name] != before[name] for name in written)


@pytest.mark.parametrize("command", RUNS_QUICKLY)
@pytest.mark.parametrize("force", [[], ["--force"]], ids=["", "force"])
def test_a_file_it_reads_is_never_replaced(command, force, runner, tmp_path):
    """The results are read from inside the output folder: writing rankings.csv there is refused."""
    (tmp_path / "spec.yaml").write_text(QUICK_SPEC, encoding="utf-8")
    out = tmp_path / "study"
    out.mkdir()
    (tmp_path / "results.csv").rename(out / "rankings.csv")
    before = contents(tmp_path)
    arguments = [str(out / "rankings.csv"), *FOLDER_COMMANDS[command][0][1:]]
    args = [*command.split(), *arguments, "--out", str(out), *force]
    result = runner.invoke(cli.app, args, env=WIDE)
    assert result.exit_code == 2, result.output
    assert "which this command reads" in result.stderr and result.stderr.count("\n") == 1
    assert contents(tmp_path) == before


OPTIONS = [[], ["--permutations", "2"], ["--random-orders", "2", "--permutations", "2"]]
PREDICTIONS = [
    *(pytest.param(QUICK_SPEC, options, id=f"no unfolding-{' '.join(options)}") for options in OPTIONS),
    pytest.param(SPEC, OPTIONS[-1], id="unfolding-every option", marks=pytest.mark.slow),
]


@pytest.mark.parametrize(("spec", "options"), PREDICTIONS)
def test_the_names_checked_are_the_files_written(spec, options, runner, tmp_path):
    (tmp_path / "spec.yaml").write_text(spec, encoding="utf-8")
    out = tmp_path / "study"
    args = ["multiverse", "run", "results.csv", "--spec", "spec.yaml", *options, "--out", str(out)]
    result = runner.invoke(cli.app, args, env=WIDE)
    assert result.exit_code == 0, result.output
    permutations = int(options[options.index("--permutations") + 1]) if "--permutations" in options else 0
    subsample = "--random-orders" in options
    expected = study_files(yaml.safe_load(spec), permutations=permutations, subsample=subsample)
    assert sorted(contents(out)) == sorted(expected)


# ``make demo`` replaces what it wrote in demo-output/ on every run, and nothing else.
DEMO_NAMES = _demo.outputs()


@pytest.mark.parametrize("name", DEMO_NAMES)
def test_the_demo_refuses_a_file_it_did_not_write(name, tmp_path, monkeypatch, capsys):
    """A user's file of a name the demo writes, in a folder the demo wrote before: the demo stops before
    computing anything, with one line naming it; every file is left as it was."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / _demo.OUTPUT_FOLDER
    populate(out, DEMO_NAMES)
    (out / _demo.RECORD).write_text(json.dumps({n: sha256(out / n) for n in DEMO_NAMES if n != name}))
    before = contents(tmp_path)
    with pytest.raises(SystemExit) as stop:
        _demo.main()
    assert stop.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1
    assert captured.err.startswith(f"make demo: error: {Path(_demo.OUTPUT_FOLDER, name)} exists already;")
    assert contents(tmp_path) == before


@pytest.mark.parametrize("stopped", [False, True], ids=["finished", "stopped midway"])
def test_the_demo_replaces_its_own_files(stopped, tmp_path):
    """Files the demo wrote (even in a run stopped midway) are its own to replace on the next run; a file
    it wrote and the user changed is not, and unrelated files are never touched."""
    names = DEMO_NAMES[:3]
    with contextlib.suppress(KeyboardInterrupt), _demo.owning(tmp_path, names):
        populate(tmp_path, names[:2])  # the demo writes two files, then is stopped (or not)
        if stopped:
            raise KeyboardInterrupt
    with _demo.owning(tmp_path, names):  # its own two files may be replaced
        (tmp_path / names[0]).write_text("changed by the demo", encoding="utf-8")
    (tmp_path / names[1]).write_text("changed by the user", encoding="utf-8")
    before = contents(tmp_path)
    with pytest.raises(InputError, match=f"{names[1]} exists already"), _demo.owning(tmp_path, names):
        pass
    assert contents(tmp_path) == before
    assert all(name in before for name in UNRELATED)
