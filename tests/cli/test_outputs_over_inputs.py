"""No output replaces a file the same call reads (issue 19 §2; DESIGN: errors and bad input).

Every command that reads a file and writes an output is run with the output (``--out``, ``--report``,
``--plot``) pointed at its input: by the same path, by another path to it (``sub/../``), by a symbolic
link, by a hard link, and as the file that the input, a symbolic link, points to. Each call must exit
with 2 and one line naming both paths, with the input's bytes and the folder's listing unchanged, with
``--force`` too (it replaces an existing output, never an input). The table of calls is checked against
the app: a new command that reads a file and writes one must be added.
"""

import os
import re

import pytest
import typer
import typer.testing
from typer.testing import CliRunner

from benchtrust import cli

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
COMMAND = typer.main.get_command(cli.app)

TASKS = "method,task,run,score\n" + "".join(
    f"{m},t{t},{r},{0.5 + 0.01 * ((3 * t + 5 * r + 7 * ord(m)) % 11):.2f}\n"
    for m in "AB"
    for t in range(2)
    for r in range(2)
)
#: What each input holds (any name, any suffix: the readers go by the content).
CONTENT = {
    "board": "TeamId,Score\n" + "".join(f"{t},{k / 209:.5f}\n" for t, k in enumerate(range(150, 200, 5))),
    "accuracies": "0.9\n0.85\n",
    "folds": "positives,negatives\n3,20\n2,21\n",
    "class folds": "a,b,c\n2,2,2\n2,2,2\n",
    "claims": "id,positives,negatives,acc\na,10,10,0.5\n",
    "runs": "algorithm,seed,score\n" + "".join(f"{n},{k},0.9{k}{len(n)}\n" for n in "AB" for k in range(6)),
    "history": "date,score\n2018-01-02,0.90\n2019-03-04,0.93\n",
    "tasks": TASKS,
    "curves": "method,task,run,step,score\n"
    + "".join(
        f"{m},t{t},{r},{s},0.{t}{r}{s}\n" for m in "AB" for t in range(2) for r in range(2) for s in (1, 2)
    ),
    "results": "data,learner,acc\n"
    + "".join(f"d{d},m{m},0.{7 + m}{d}\n" for d in range(3) for m in range(2)),
    "config": "analyses:\n  - {analysis: compare history, file: named.csv, test_size: 100}\n",
    "ranks": "a,b,c\n1,2,3\n2,1,3\n3,1,2\n1,3,2\n",
}
SPEC = """\
columns: {dataset: data, method: learner}
measures:
  acc: {better: higher, random: 0.5}
choices:
  aggregation: {default: mean, options: [mean, median]}
unfolding: false
"""
TASK_COMMANDS = {
    "compare choose": [],
    "compare aggregate": ["--resamples", "0"],
    "compare profile": ["--resamples", "0"],
    "compare improvement": ["--resamples", "10"],
    "compare rank": [],
    "compare auto": [],
    "compare bayes": ["--a", "A", "--b", "B", "--samples", "50"],
    "compare effect": ["--a", "A", "--b", "B", "--resamples", "10"],
    "compare hierarchical": ["--a", "A", "--b", "B", "--folds", "2", "--samples", "60"],
    "compare aso": ["--a", "A", "--b", "B", "--resamples", "10"],
}
#: command -> (what its input holds, its valid arguments with the input as INPUT).
READERS = {
    "report": ("config", ["INPUT"]),
    "sota best-of": ("accuracies", ["--accuracies", "INPUT", "--test-size", "20"]),
    "sota leaderboard": (
        "board",
        ["INPUT", "--test-size", "209", "--direction", "higher", "--resamples", "0", "--correlation", "0"],
    ),
    "consistency kfold": ("folds", ["--folding", "INPUT", "--aggregation", "som", "--score", "acc=0.5"]),
    "consistency multiclass": (
        "class folds",
        [
            *("--class-counts", "4,4,4", "--average", "micro", "--score", "f1=0.5"),
            *("--folds", "2", "--aggregation", "mos", "--folding", "INPUT"),
        ],
    ),
    "consistency batch": ("claims", ["INPUT"]),
    "compare outperform": ("runs", ["INPUT", "--a", "A", "--b", "B"]),
    "compare history": ("history", ["INPUT", "--test-size", "100"]),
    "compare efficiency": ("curves", ["INPUT", "--direction", "higher", "--resamples", "0"]),
    **{name: ("tasks", ["INPUT", "--direction", "higher", *more]) for name, more in TASK_COMMANDS.items()},
    "multiverse run": ("results", ["INPUT", "--spec", "spec.yaml", "--out", "mv"]),
    "multiverse unfold": ("ranks", ["INPUT"]),
}
#: output option -> the suffix its file takes.
SUFFIX = {
    "--plot": ".png",
    "--report": ".html",
    "--latex": ".tex",
    "--out": {"report": ".html", "consistency batch": ".csv"},
}


def commands(group, path=()):
    for name, command in getattr(group, "commands", {}).items():
        if getattr(command, "commands", None):
            yield from commands(command, (*path, name))
        else:
            yield " ".join((*path, name)), command


def file_outputs(command):
    """The options of `command` that name an output file (a folder output, metavar DIR, aside)."""
    return [p.opts[0] for p in command.params if p.name in ("out", "report", "plot") and p.metavar != "DIR"]


def reads_files(command):
    """Whether `command` takes a file to read: a parameter, not an output, whose metavar names a file."""
    names = r"FILE\b|[A-Z]\.(csv|yaml)\b"
    return any(
        p.name not in ("out", "report", "plot") and re.search(names, p.metavar or "") for p in command.params
    )


def test_every_command_that_reads_and_writes_files_is_here():
    """The table covers the app: a new command that reads a file and writes an output must be added."""
    found = {name for name, command in commands(COMMAND) if reads_files(command) and file_outputs(command)}
    assert found == set(READERS)


KINDS = ("same path", "another path", "symbolic link", "hard link", "through a link")
CASES = [
    pytest.param(name, option, kind, id=f"{name}-{option}-{kind}")
    for name, command in commands(COMMAND)
    if name in READERS
    for option in file_outputs(command)
    for kind in KINDS
]


@pytest.fixture
def runner(monkeypatch):
    monkeypatch.setattr(typer.testing, "_get_command", lambda app: COMMAND)  # the tree, built once
    return CliRunner()


def listing(folder):
    return sorted(str(path.relative_to(folder)) for path in folder.rglob("*"))


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["", "force"])
@pytest.mark.parametrize(("name", "option", "kind"), CASES)
def test_an_output_over_an_input_is_refused(name, option, kind, force, tmp_path, monkeypatch, runner):
    """Exit 2, one line naming the output and the input, the input and the folder unchanged."""
    monkeypatch.chdir(tmp_path)
    suffix = SUFFIX[option] if isinstance(SUFFIX[option], str) else SUFFIX[option][name]
    what, template = READERS[name]
    real = tmp_path / f"input{suffix}"
    real.write_text(CONTENT[what], encoding="utf-8")
    (tmp_path / "named.csv").write_text(CONTENT["history"], encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(SPEC, encoding="utf-8")
    (tmp_path / "sub").mkdir()
    given, output = real.name, real.name  # the input as the command is given it; the output
    if kind == "another path":
        output = os.path.join("sub", "..", real.name)
    elif kind == "symbolic link":
        output = f"link{suffix}"
        os.symlink(real.name, output)
    elif kind == "hard link":
        output = f"hard{suffix}"
        os.link(real.name, output)
    elif kind == "through a link":  # the command reads a link to the file it would write
        given = f"link{suffix}"
        os.symlink(real.name, given)
    args = [*name.split(), *(given if arg == "INPUT" else arg for arg in template), option, output, *force]
    before, content = listing(tmp_path), real.read_bytes()
    result = runner.invoke(cli.app, args, env=WIDE)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("benchtrust: error: ") and result.stderr.count("\n") == 1, result.stderr
    assert f"cannot write {output} over {given}, which this command reads" in result.stderr
    assert real.read_bytes() == content
    assert listing(tmp_path) == before


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["", "force"])
@pytest.mark.parametrize("name", ["named.html", "linked.html"])
def test_a_report_over_a_file_its_config_names_is_refused(name, force, tmp_path, monkeypatch, runner):
    """``report CONFIG --out FILE``: FILE is a file the config names, or a link to one. Without --force it
    is refused before the config is read, as a file that exists; with it, as a file the command reads."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "named.html").write_text(CONTENT["history"], encoding="utf-8")
    (tmp_path / "config.yaml").write_text(CONTENT["config"].replace("named.csv", "named.html"), "utf-8")
    if name == "linked.html":
        os.symlink("named.html", name)
    before = listing(tmp_path)
    result = runner.invoke(cli.app, ["report", "config.yaml", "--out", name, *force], env=WIDE)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    if force:
        assert f"cannot write {name} over " in result.stderr
        assert "named.html, which this command reads" in result.stderr
    else:
        assert f"--out: {name} exists already; give --force" in result.stderr
    assert (tmp_path / "named.html").read_text(encoding="utf-8") == CONTENT["history"]
    assert listing(tmp_path) == before


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["", "force"])
@pytest.mark.parametrize("out", [".", "here"])
def test_a_folder_output_over_an_input_is_refused(out, force, tmp_path, monkeypatch, runner):
    """``multiverse run rankings.csv --out .`` would write ./rankings.csv over its input (the issue's
    case), also through a link to the folder: refused before any file is written, even with --force."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rankings.csv").write_text(CONTENT["results"], encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(SPEC, encoding="utf-8")
    if out == "here":
        os.symlink(".", out)
    before = listing(tmp_path)
    args = ["multiverse", "run", "rankings.csv", "--spec", "spec.yaml", "--out", out, *force]
    result = runner.invoke(cli.app, args, env=WIDE)
    assert result.exit_code == 2
    target = os.path.join(out, "rankings.csv") if out != "." else "rankings.csv"
    assert f"cannot write {target} over rankings.csv, which this command reads" in result.stderr
    assert (tmp_path / "rankings.csv").read_text(encoding="utf-8") == CONTENT["results"]
    assert listing(tmp_path) == before
