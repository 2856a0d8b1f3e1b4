"""Two identical runs give identical outputs: every command with a ``--seed`` prints byte-identical JSON
with the same seed, and every command that draws writes byte-identical SVG, PDF and PNG plots, HTML
reports and output folders.

The commands are found by walking the ``benchtrust`` command tree, so a new command with ``--seed`` or
``--plot`` fails :func:`test_every_seeded_command_is_covered` or
:func:`test_every_plotting_command_is_covered` until it gets a case here. Sizes are small: this checks
the plumbing of the seed and of the files, not the statistics. Each second run sets another
``SOURCE_DATE_EPOCH`` (the date matplotlib writes when it writes one), so a date left in a file shows.
"""

import json
from pathlib import Path

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

#: Long results of 3 methods on 4 data sets (2 folds) and the spec of a small multiverse; the methods' means
#: differ (without the 0.01·m they would be equal, exactly, and every ranking a tie).
RESULTS = "data,method,fold,acc\n" + "".join(
    f"d{d},m{m},{f},{0.7 + 0.05 * ((3 * d + 5 * m + f) % 4) + 0.01 * m:.2f}\n"
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
#: The same scores at two steps, for ``compare efficiency``.
CURVES = "method,task,run,step,score\n" + "".join(
    f"m{m},t{t},{r},{s},{0.6 + 0.01 * ((7 * t + 5 * r + 3 * m + s) % 13) + 0.02 * m:.2f}\n"
    for m in range(3)
    for t in range(5)
    for r in range(6)
    for s in (1, 2)
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
        *("--direction", "higher", "--resamples", "30"),
    ],
    ("compare", "outperform"): ["{folder}/runs.csv", "--a", "A", "--b", "B", "--resamples", "50"],
    ("compare", "error-rates"): [
        *("--sigma", "0.01", "--runs", "10", "--simulations", "60", "--probabilities", "0.5,0.75"),
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
    ("compare", "efficiency"): ["{folder}/curves.csv", "--direction", "higher", "--resamples", "200"],
    ("compare", "aso"): [
        *("{folder}/tasks.csv", "--direction", "higher", "--a", "m0", "--b", "m2", "--resamples", "200"),
    ],
    ("compare", "hierarchical"): [
        *("{folder}/tasks.csv", "--direction", "higher", "--a", "m0", "--b", "m2", "--folds", "2"),
        *("--samples", "500"),
    ],
    ("multiverse", "run"): [
        *("{folder}/results.csv", "--spec", "{folder}/spec.yaml", "--out", "{folder}/multiverse"),
        *("--random-orders", "3", "--permutations", "3", "--force"),  # run three times into one folder
    ],
}


def commands_with(option, command=None, path=()):
    """The paths of every command in the tree that has `option`."""
    command = command or typer.main.get_command(cli.app)
    if hasattr(command, "commands"):
        return [
            found
            for name, sub in command.commands.items()
            for found in commands_with(option, sub, (*path, name))
        ]
    return [path] if any(option in param.opts for param in command.params) else []


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("seeded")
    (folder / "auc.csv").write_text(AUC_BOARD, encoding="utf-8")
    (folder / "runs.csv").write_text(RUNS, encoding="utf-8")
    (folder / "results.csv").write_text(RESULTS, encoding="utf-8")
    (folder / "spec.yaml").write_text(SPEC, encoding="utf-8")
    (folder / "tasks.csv").write_text(TASKS, encoding="utf-8")
    (folder / "curves.csv").write_text(CURVES, encoding="utf-8")
    (folder / "history.csv").write_text(HISTORY, encoding="utf-8")
    (folder / "board.csv").write_text(BOARD, encoding="utf-8")
    return folder


def json_of(path, folder, seed):
    args = [arg.format(folder=folder) for arg in CASES[path]]
    result = CliRunner().invoke(cli.app, [*path, *args, "--seed", str(seed), "--json"], env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 0, result.stderr
    assert isinstance(json.loads(result.stdout), dict)  # the whole of stdout is one JSON object
    return result.stdout.encode()


def test_every_seeded_command_is_covered():
    """The commands with --seed are exactly those this module runs."""
    assert sorted(commands_with("--seed")) == sorted(CASES)


@pytest.mark.parametrize("path", sorted(CASES), ids=" ".join)
def test_same_seed_gives_identical_json(path, folder):
    """Two runs with one seed print the same bytes; another seed changes the simulated numbers."""
    first = json_of(path, folder, 7)
    assert json_of(path, folder, 7) == first
    assert json_of(path, folder, 8) != first


# --- files: plots, reports, output folders --------------------------------------------------------------

#: Published results over the years, for ``compare history``.
HISTORY = "date,score\n" + "".join(
    f"{2015 + k}-0{1 + k % 9}-15,{0.80 + 0.011 * k + 0.004 * (k % 3):.3f}\n" for k in range(8)
)
#: An accuracy leaderboard of a test set of 100 items.
BOARD = "team,score\na,0.81\nb,0.85\nc,0.9\nd,0.87\ne,0.84\n"
#: Per command with ``--plot``: its arguments, and the format of its plot (each of svg, pdf, png is
#: written by several commands; :func:`test_every_format_is_written_identically` covers every format).
#: A table of ranks to unfold: the bundled UCI ranks (docs/multiverse.md).
UCI_RANKS = Path(__file__).resolve().parents[2] / "src" / "benchtrust" / "data" / "uci_ranks.csv"

PLOTS = {
    ("sota", "best-of"): (["--classifiers", "20", "--test-size", "100", "--accuracy", "0.8"], "svg"),
    ("sota", "leaderboard"): (
        ["{folder}/board.csv", "--test-size", "100", "--direction", "higher", "--resamples", "30"],
        "pdf",
    ),
    ("compare", "error-rates"): ([*CASES[("compare", "error-rates")], "--seed", "7"], "png"),
    ("compare", "history"): (["{folder}/history.csv", "--sigma", "0.01"], "svg"),
    ("compare", "profile"): ([*CASES[("compare", "profile")], "--seed", "7"], "pdf"),
    ("compare", "improvement"): ([*CASES[("compare", "improvement")], "--seed", "7"], "png"),
    ("compare", "rank"): (["{folder}/tasks.csv", "--direction", "higher"], "svg"),
    ("compare", "bayes"): ([*CASES[("compare", "bayes")], "--seed", "7"], "pdf"),
    ("compare", "efficiency"): ([*CASES[("compare", "efficiency")], "--seed", "7"], "svg"),
    ("compare", "hierarchical"): ([*CASES[("compare", "hierarchical")], "--seed", "7"], "png"),
    ("multiverse", "unfold"): ([str(UCI_RANKS)], "png"),
}
#: A report config of several analyses with figures, for ``benchtrust report``.
CONFIG = """\
title: two runs
analyses:
  - {analysis: sota best-of, accuracy: 0.8, classifiers: 20, test_size: 100}
  - {analysis: compare history, file: history.csv, sigma: 0.01}
"""


def run_twice(folder, make_args, tmp_path):
    """Run the command ``make_args(out)`` twice, each time into a new folder ``out``; the two folders.

    The second run has another ``SOURCE_DATE_EPOCH``: a date written into a file would differ.
    """
    outs = []
    for k, epoch in enumerate(("1000000000", "1700000000")):
        out = tmp_path / f"run{k}"
        out.mkdir(parents=True)
        args = [arg.format(folder=folder, out=out) for arg in make_args]
        result = CliRunner().invoke(cli.app, args, env={**WIDE, "SOURCE_DATE_EPOCH": epoch})
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code == 0, result.stderr
        outs.append(out)
    return outs


def same_files(first, second):
    """Every file of folder `first` is in `second` with the same bytes, and the other way round."""
    names = sorted(path.relative_to(first) for path in first.rglob("*") if path.is_file())
    assert names == sorted(path.relative_to(second) for path in second.rglob("*") if path.is_file())
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    return [str(name) for name in names]


def test_every_plotting_command_is_covered():
    """The commands with --plot are exactly those :data:`PLOTS` runs."""
    assert sorted(commands_with("--plot")) == sorted(PLOTS)


@pytest.mark.parametrize("path", sorted(PLOTS), ids=" ".join)
def test_plot_and_report_are_identical_on_a_second_run(path, folder, tmp_path):
    """The plot (SVG, PDF or PNG) and the HTML report holding it are the same bytes on a second run."""
    args, suffix = PLOTS[path]
    runs = run_twice(
        folder, [*path, *args, "--plot", f"{{out}}/plot.{suffix}", "--report", "{out}/r.html"], tmp_path
    )
    assert same_files(*runs) == [f"plot.{suffix}", "r.html"]
    assert "<svg" in (runs[0] / "r.html").read_text(encoding="utf-8")


def test_output_folder_and_report_config_are_identical_on_a_second_run(folder, tmp_path):
    """``multiverse run --out`` (tables and PNG figures) and ``benchtrust report`` (a page of several
    analyses, each figure inlined) write the same bytes twice."""
    spec = CASES[("multiverse", "run")][:3]
    runs = run_twice(
        folder,
        ["multiverse", "run", *spec, "--out", "{out}/mv", "--report", "{out}/mv.html"],
        tmp_path / "mv",
    )
    written = same_files(*runs)
    assert "mv.html" in written and sum(name.endswith(".png") for name in written) >= 2
    (folder / "report.yaml").write_text(CONFIG, encoding="utf-8")
    runs = run_twice(
        folder, ["report", "{folder}/report.yaml", "--out", "{out}/page.html"], tmp_path / "report"
    )
    assert same_files(*runs) == ["page.html"]
    assert (runs[0] / "page.html").read_text(encoding="utf-8").count("<svg") == 2


def test_every_format_with_a_date_or_version_is_written_identically(tmp_path, monkeypatch):
    """The formats whose files matplotlib stamps with the date or its version (SVG, PDF, PNG, PostScript,
    and svgz's gzip header) come out the same from two drawings of one result, each saved with another
    SOURCE_DATE_EPOCH."""
    from benchtrust import save_figure
    from benchtrust.sota import best_of, plot_best_of

    result = best_of(0.9, classifiers=50, test_size=300)
    formats = ["eps", "pdf", "png", "ps", "svg", "svgz"]
    for k, epoch in enumerate(("1000000000", "1700000000")):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
        (tmp_path / str(k)).mkdir()
        axes = plot_best_of(result)
        for suffix in formats:
            save_figure(axes, tmp_path / str(k) / f"fig.{suffix}")
    assert same_files(tmp_path / "0", tmp_path / "1") == [f"fig.{suffix}" for suffix in formats]
