"""Every command with a ``--seed`` prints byte-identical JSON when run twice with the same seed.

The commands are found by walking the ``benchtrust`` command tree, so a new command with ``--seed`` fails
:func:`test_every_seeded_command_is_covered` until it gets a case here. Sizes are small: this checks the
plumbing of the seed, not the statistics.
"""

import pytest
import typer
from typer.testing import CliRunner

from benchtrust import cli

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
#: An AUC leaderboard of a test set of 600 items, 60 of them positive.
AUC_BOARD = "team,auc\na,0.8\nb,0.85\nc,0.9\nd,0.875\n"
RUNS = "algorithm,seed,score\n" + "".join(
    f"{name},{k},{base + 0.003 * ((7 * k + offset) % 5):.4f}\n"
    for name, base, offset in (("A", 0.90, 0), ("B", 0.899, 2))
    for k in range(12)
)

#: Long results of 3 methods on 4 data sets (2 folds) and the spec of a small multiverse.
RESULTS = "data,method,fold,acc\n" + "".join(
    f"d{d},m{m},{f},{0.7 + 0.05 * ((3 * d + 5 * m + f) % 4):.2f}\n"
    for d in range(4)
    for m in range(3)
    for f in range(2)
)
#: Scores of 3 methods on 5 tasks, 6 runs each, for the commands over many tasks.
TASKS = "method,task,run,score\n" + "".join(
    f"m{m},t{t},{r},{0.6 + 0.01 * ((7 * t + 5 * r + 3 * m) % 13) + 0.02 * m:.2f}\n"
    for m in range(3)
    for t in range(5)
    for r in range(6)
)
SPEC = """\
columns: {dataset: data, method: method, iteration: fold}
measures: {acc: {better: higher, random: 0.5}}
choices: {aggregation: {default: mean, options: [mean, median]}}
"""

#: Per command (its path in the tree): the arguments before ``--seed S --json``; ``{folder}`` is a folder
#: holding auc.csv, runs.csv, results.csv, spec.yaml and tasks.csv.
CASES = {
    ("sota", "best-of"): [
        *("--metric", "auc", "--classifiers", "20", "--test-size", "100", "--auc", "0.8"),
        *("--positives", "40", "--simulations", "200"),
    ],
    ("sota", "leaderboard"): [
        *("{folder}/auc.csv", "--metric", "auc", "--positives", "60", "--test-size", "600"),
        *("--resamples", "30"),
    ],
    ("compare", "outperform"): ["{folder}/runs.csv", "--a", "A", "--b", "B", "--resamples", "50"],
    ("compare", "error-rates"): [
        *("--sigma", "0.01", "--runs", "10", "--simulations", "40", "--probabilities", "0.5,0.75"),
    ],
    ("compare", "aggregate"): ["{folder}/tasks.csv", "--direction", "higher", "--resamples", "200"],
    ("compare", "profile"): ["{folder}/tasks.csv", "--direction", "higher", "--resamples", "200"],
    ("compare", "improvement"): ["{folder}/tasks.csv", "--direction", "higher", "--resamples", "200"],
    ("compare", "bayes"): [
        *("{folder}/tasks.csv", "--direction", "higher", "--a", "m0", "--b", "m2", "--samples", "500"),
    ],
    ("compare", "effect"): [
        *("{folder}/tasks.csv", "--direction", "higher", "--a", "m0", "--b", "m2", "--resamples", "200"),
    ],
    ("multiverse", "run"): [
        *("{folder}/results.csv", "--spec", "{folder}/spec.yaml", "--out", "{folder}/multiverse"),
        *("--random-orders", "3", "--permutations", "3"),
    ],
}


def seeded_commands(command=None, path=()):
    """The paths of every command in the tree that has a ``--seed`` option."""
    command = command or typer.main.get_command(cli.app)
    if hasattr(command, "commands"):
        return [
            found for name, sub in command.commands.items() for found in seeded_commands(sub, (*path, name))
        ]
    return [path] if any("--seed" in param.opts for param in command.params) else []


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seeded")
    (folder / "auc.csv").write_text(AUC_BOARD, encoding="utf-8")
    (folder / "runs.csv").write_text(RUNS, encoding="utf-8")
    (folder / "results.csv").write_text(RESULTS, encoding="utf-8")
    (folder / "spec.yaml").write_text(SPEC, encoding="utf-8")
    (folder / "tasks.csv").write_text(TASKS, encoding="utf-8")
    return folder


def json_of(path, folder, seed):
    args = [arg.format(folder=folder) for arg in CASES[path]]
    result = CliRunner().invoke(cli.app, [*path, *args, "--seed", str(seed), "--json"], env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.stderr
    return result.stdout.encode()


def test_every_seeded_command_is_covered():
    """The commands with --seed are exactly those this module runs."""
    assert sorted(seeded_commands()) == sorted(CASES)


@pytest.mark.parametrize("path", sorted(CASES), ids=" ".join)
def test_same_seed_gives_identical_json(path, folder):
    """Two runs with one seed print the same bytes; another seed changes the simulated numbers."""
    first = json_of(path, folder, 7)
    assert first.startswith(b"{")
    assert json_of(path, folder, 7) == first
    assert json_of(path, folder, 8) != first
