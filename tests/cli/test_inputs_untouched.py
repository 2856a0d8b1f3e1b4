"""Inputs are never modified; outputs appear whole or not at all (DESIGN: errors and bad input).

Every command that reads a file is run once successfully and once failing (after reading its input where
possible). Each input file's SHA-256 and modification time must be the same afterwards. A success adds
exactly the outputs asked for (``--plot``, ``--out``), a failure adds nothing: no partial output, no
temporary file.
"""

import hashlib
import os

import pytest
from typer.testing import CliRunner

from benchtrust import cli

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
BOARD = "TeamId,TeamName,SubmissionDate,Score\n" + "".join(
    f"{team},t{team},2019-01-0{1 + team % 9},{k / 209:.5f}\n" for team, k in enumerate(range(120, 200, 3))
)
SPEC = """\
columns: {dataset: data, method: learner, iteration: fold}
measures:
  acc: {better: higher, random: 0.5}
choices:
  datasets:
    default: all
    options: {all: {rule: all}, small: {rule: below_median, characteristic: n}}
  aggregation: {default: mean, options: [mean, median]}
unfolding: false
"""
FILES = {
    "board.csv": BOARD,
    "accuracies.txt": "0.9\n0.85\n0.8\n",
    "folds.csv": "positives,negatives\n8,52\n7,53\n",
    "claims.csv": "id,positives,negatives,acc\na,100,100,0.5\nb,10,10,0.33\n",
    "runs.csv": "algorithm,seed,score\n"
    + "".join(f"{name},{k},{0.9 + 0.001 * ((k * 7 + len(name)) % 5)}\n" for name in "AB" for k in range(8)),
    "history.csv": "date,score\n2018-01-02,0.90\n2019-03-04,0.93\n2020-05-06,0.935\n",
    "results.csv": "data,learner,fold,acc\n"
    + "".join(
        f"d{d},m{m},{fold},{0.7 + 0.01 * (d + 2 * m + fold):.2f}\n"
        for d in range(3)
        for m in range(3)
        for fold in (1, 2)
    ),
    "spec.yaml": SPEC,
    "tasks.csv": "method,task,run,score\n"
    + "".join(
        f"{m},t{t},{r},{0.5 + 0.01 * ((3 * t + 5 * r + 7 * ord(m)) % 11):.2f}\n"
        for m in "ABC"
        for t in range(4)
        for r in range(3)
    ),
    "datasets.csv": "data,n\nd0,100\nd1,200\nd2,300\n",
    # a folder where a file is to be written: the output cannot be renamed into place
    "taken.png/": "",
    "taken.csv/": "",
    # a file where a folder is to be created
    "plain-file": "not a folder\n",
}
MULTIVERSE = ["multiverse", "run", "results.csv", "--spec", "spec.yaml", "--characteristics", "datasets.csv"]

#: id: (arguments, the outputs a success adds). Run in a folder holding FILES.
SUCCEEDS = {
    "leaderboard": (
        [
            "sota",
            "leaderboard",
            "board.csv",
            *("--test-size", "209", "--direction", "higher", "--plot", "lb.png"),
        ],
        ["lb.png"],
    ),
    "best-of": (
        ["sota", "best-of", "--accuracies", "accuracies.txt", "--test-size", "100", "--plot", "b.png"],
        ["b.png"],
    ),
    "kfold": (
        ["consistency", "kfold", "--folding", "folds.csv", "--aggregation", "som", "--score", "acc=0.9"],
        [],
    ),
    "batch": (["consistency", "batch", "claims.csv", "--out", "verdicts.csv"], ["verdicts.csv"]),
    "outperform": (["compare", "outperform", "runs.csv", "--a", "A", "--b", "B", "--pair-by", "seed"], []),
    "history": (["compare", "history", "history.csv", "--test-size", "1000", "--plot", "h.png"], ["h.png"]),
    "multiverse": ([*MULTIVERSE, "--out", "mv"], ["mv"]),
    "rank": (["compare", "rank", "tasks.csv", "--direction", "higher", "--plot", "cd.png"], ["cd.png"]),
    "aggregate": (
        [
            "compare",
            "aggregate",
            "tasks.csv",
            "--direction",
            "higher",
            "--resamples",
            "100",
            "--report",
            "a.html",
        ],
        ["a.html"],
    ),
}
#: id: arguments that fail, most after reading their files or while writing the output.
FAILS = {
    "leaderboard wrong test size": [
        "sota",
        "leaderboard",
        "board.csv",
        "--test-size",
        "7",
        "--direction",
        "higher",
        "--plot",
        "lb.png",
    ],
    "leaderboard plot onto a folder": [
        "sota",
        "leaderboard",
        "board.csv",
        "--test-size",
        "209",
        "--direction",
        "higher",
        "--plot",
        "taken.png",
    ],
    "best-of wrong count": [
        "sota",
        "best-of",
        "--accuracies",
        "accuracies.txt",
        "--test-size",
        "100",
        "--classifiers",
        "9",
        "--plot",
        "b.png",
    ],
    "kfold bad aggregation": [
        "consistency",
        "kfold",
        "--folding",
        "folds.csv",
        "--aggregation",
        "x",
        "--score",
        "acc=0.9",
    ],
    "batch out onto a folder": ["consistency", "batch", "claims.csv", "--out", "taken.csv"],
    "batch out is the input": ["consistency", "batch", "claims.csv", "--out", "claims.csv"],
    "outperform unknown algorithm": ["compare", "outperform", "runs.csv", "--a", "A", "--b", "Z"],
    "history plot onto a folder": [
        "compare",
        "history",
        "history.csv",
        "--test-size",
        "1000",
        "--plot",
        "taken.png",
    ],
    "history wrong alpha": [
        "compare",
        "history",
        "history.csv",
        "--test-size",
        "1000",
        "--alpha",
        "2",
        "--plot",
        "h.png",
    ],
    "multiverse out is a file": [*MULTIVERSE, "--out", "plain-file"],
    "rank plot onto a folder": [
        "compare",
        "rank",
        "tasks.csv",
        "--direction",
        "higher",
        "--plot",
        "taken.png",
    ],
    "bayes unknown method": [
        "compare",
        "bayes",
        "tasks.csv",
        "--direction",
        "higher",
        "--a",
        "A",
        "--b",
        "Z",
    ],
    "multiverse missing column": ["multiverse", "run", "datasets.csv", "--spec", "spec.yaml", "--out", "mv"],
}


def state(folder):
    """Every entry of `folder` (recursively): file -> (sha256, mtime in ns); folder -> None."""
    out = {}
    for root, folders, files in os.walk(folder):
        for name in folders:
            out[os.path.relpath(os.path.join(root, name), folder)] = None
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as stream:
                digest = hashlib.sha256(stream.read()).hexdigest()
            out[os.path.relpath(path, folder)] = (digest, os.stat(path).st_mtime_ns)
    return out


@pytest.fixture
def folder(tmp_path, monkeypatch):
    for name, text in FILES.items():
        if name.endswith("/"):
            (tmp_path / name).mkdir()
        else:
            (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def invoke(args):
    result = CliRunner().invoke(cli.app, args, env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.stderr
    return result


@pytest.mark.parametrize("name", SUCCEEDS)
def test_a_success_changes_no_input_and_adds_only_its_outputs(name, folder):
    """Inputs' hashes and mtimes unchanged; the new entries are exactly the outputs, no temporary file."""
    args, outputs = SUCCEEDS[name]
    before = state(folder)
    result = invoke(args)
    assert result.exit_code == 0, result.stderr
    after = state(folder)
    assert {key: after[key] for key in before} == before
    added = {key for key in after if key not in before}
    assert {key.split(os.sep)[0] for key in added} == set(outputs)
    assert not [key for key in added if os.path.basename(key).startswith(".")]


@pytest.mark.parametrize("name", FAILS)
def test_a_failure_changes_nothing(name, folder):
    """Exit 2, one error line; every file and folder exactly as before, nothing added."""
    before = state(folder)
    result = invoke(FAILS[name])
    assert result.exit_code == 2, result.stdout
    assert result.stderr.startswith("benchtrust: error: ") and result.stderr.count("\n") == 1
    assert state(folder) == before
