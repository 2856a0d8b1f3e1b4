"""``benchtrust compare choose | aggregate | profile | improvement | rank | bayes | effect`` over many tasks.

Each command's JSON against the library called directly on the same table (the library is tested in
tests/compare/), its readable text, the plot and the report it writes, the reading options (column names,
normalisation, folds), and bad input: exit code 2, one line on stderr naming the option or the file.
"""

import json
import warnings

import numpy as np
import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust import compare as library
from benchtrust._words import RHO

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
PNG = b"\x89PNG\r\n\x1a\n"
READING = ["--direction", "lower", "--method-col", "model", "--task-col", "data", "--run-col", "seed"]
#: command -> (its own options, the library function and its arguments)
COMMANDS = {
    "choose": ([], library.choose_analysis, {}),
    "aggregate": (["--resamples", "300", "--seed", "3"], library.aggregate, {"resamples": 300, "seed": 3}),
    "profile": (
        ["--thresholds", "0.1,0.2,0.3", "--resamples", "200", "--seed", "3"],
        library.performance_profile,
        {"thresholds": [0.1, 0.2, 0.3], "resamples": 200, "seed": 3},
    ),
    "improvement": (
        ["--paired", "--resamples", "200"],
        library.improvement_probabilities,
        {"paired": True, "resamples": 200, "seed": 0},
    ),
    "rank": (
        ["--posthoc", "holm", "--control", "m0"],
        library.rank_test,
        {"posthoc": "holm", "control": "m0"},
    ),
    "bayes": (
        ["--a", "m0", "--b", "m1", "--rope", "0.01", "--samples", "2000", "--seed", "4"],
        library.signed_rank_test,
        {"a": "m0", "b": "m1", "rope": 0.01, "samples": 2000, "seed": 4},
    ),
    "effect": (["--a", "m2", "--b", "m0"], library.effect_sizes, {"a": "m2", "b": "m0", "seed": 0}),
}
PLOTS = ("profile", "improvement", "rank", "bayes")


def invoke(*args):
    """Invoke ``benchtrust compare ARGS`` in-process; fail on any unexpected exception."""
    result = CliRunner().invoke(cli.app, ["compare", *args], env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture(scope="module")
def errors(tmp_path_factory):
    """Error rates of 3 models on 8 data sets, 6 seeds each (lower is better), in a file."""
    rng = np.random.default_rng(7)
    rows = ["model,data,seed,error"]
    for m, skill in enumerate([0.20, 0.22, 0.25]):
        for d in range(8):
            rows += [f"m{m},d{d},{s},{skill + 0.02 * d + rng.normal(0, 0.01):.4f}" for s in range(6)]
    path = tmp_path_factory.mktemp("tasks") / "errors.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def scores(errors):
    return library.read_task_scores(
        errors, direction="lower", method_column="model", task_column="data", run_column="seed",
        score_column="error",
    )  # fmt: skip


@pytest.mark.parametrize("command", list(COMMANDS))
def test_json_and_text_equal_the_library(errors, command):
    options, function, arguments = COMMANDS[command]
    args = [command, str(errors), *READING, "--score-col", "error", *options]
    shown = invoke(*args, "--json")
    assert shown.exit_code == 0, shown.stderr
    positional = [arguments.pop(key) for key in ("a", "b") if key in arguments]
    result = function(scores(errors), *positional, **arguments)
    assert json.loads(shown.stdout) == json.loads(json.dumps(result.to_dict()))
    text = invoke(*args)
    assert text.exit_code == 0 and text.stdout == str(result) + "\n"


@pytest.mark.parametrize("command", PLOTS)
def test_plot_and_report_are_written(errors, command, tmp_path):
    options, _, _ = COMMANDS[command]
    plot, report = tmp_path / "plot.png", tmp_path / "report.html"
    args = [command, str(errors), *READING, "--score-column", "error", *options]
    result = invoke(*args, "--plot", str(plot), "--report", str(report))
    assert result.exit_code == 0, result.stderr
    assert plot.read_bytes().startswith(PNG)
    page = report.read_text(encoding="utf-8")
    assert "<svg" in page and "m0" in page
    assert result.stdout.endswith(f"plot written to {plot}\nreport written to {report}\n")


def test_the_correlated_t_test_reads_the_fold_column(tmp_path):
    rows = ["method,task,run,fold,score"]
    rng = np.random.default_rng(2)
    rows += [
        f"{m},t,{r},{f},{0.8 + 0.01 * (m == 'A') + rng.normal(0, 0.01):.4f}"
        for m in "AB"
        for r in range(3)
        for f in range(5)
    ]
    path = tmp_path / "cv.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    shown = invoke(
        "bayes", str(path), "--direction", "higher", "--fold-column", "fold", "--a", "A", "--b", "B"
    )
    assert shown.exit_code == 0, shown.stderr
    folded = library.read_task_scores(path, direction="higher", fold_column="fold")
    assert shown.stdout == str(library.correlated_t_test(folded, "A", "B")) + "\n"
    assert f"{RHO} = 1/5" in shown.stdout


def test_normalisation_options_reach_the_reading(errors):
    minmax = invoke("aggregate", str(errors), *READING, "--score-col", "error", "--normalise", "minmax")
    assert minmax.exit_code == 0, minmax.stderr
    assert "min-max per task" in minmax.stdout


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["choose", "{errors}", "--score-col", "error"], "--direction is required"),
        (["choose", "{errors}", "--direction", "up", "--score-col", "error"], "direction: expected one of"),
        (["rank", "{errors}", "--direction", "lower"], "no column 'method'"),
        (["choose", "{folder}/absent.csv", "--direction", "lower"], "absent.csv"),
        (["aggregate", "{errors}", *READING, "--score-col", "error", "--alpha", "2"], "--alpha"),
        (["aggregate", "{errors}", *READING, "--score-col", "error", "--resamples", "-1"], "--resamples"),
        (["profile", "{errors}", *READING, "--score-col", "error", "--thresholds", "0.1,x"], "--thresholds"),
        (["rank", "{errors}", *READING, "--score-col", "error", "--control", "m0"], "--posthoc"),
        (["rank", "{errors}", *READING, "--score-col", "error", "--plot", "{folder}/no/cd.png"], "--plot"),
        (["rank", "{errors}", *READING, "--score-col", "error", "--report", "{folder}/r.txt"], "--report"),
        (["bayes", "{errors}", *READING, "--score-col", "error", "--a", "m0"], "--b NAME is required"),
        (["bayes", "{errors}", *READING, "--score-col", "error", "--a", "m0", "--b", "m0"], "both name"),
        (["bayes", "{errors}", *READING, "--score-col", "error", "--a", "m0", "--b", "m9"], "m0, m1, m2"),
        (
            ["bayes", "{errors}", *READING, "--score-col", "error", "--a", "m0", "--b", "m1", "--test", "x"],
            "--test",
        ),
        (
            ["bayes", "{errors}", *READING, "--score-col", "error", "--a", "m0", "--b", "m1", "--task", "d1"],
            "--folds",
        ),
        (
            ["bayes", "{errors}", *READING, "--score-col", "error", "--a", "m0", "--b", "m1", "--folds", "5"],
            "--task and --folds belong to the correlated t-test",
        ),
        (["effect", "{errors}", *READING, "--score-col", "error", "--a", "m0"], "--b NAME is required"),
    ],
)
def test_bad_input_is_one_line(errors, tmp_path, refuses, args, named):
    filled = [arg.format(errors=errors, folder=tmp_path) for arg in args]
    refuses(invoke, filled, named, tmp_path)


def test_help_lists_the_commands():
    shown = invoke("--help")
    for command in COMMANDS:
        assert f" {command} " in shown.stdout


def test_the_cd_diagram_as_svg_is_written_directly(errors, tmp_path):
    plot = tmp_path / "cd.svg"
    result = invoke("rank", str(errors), *READING, "--score-col", "error", "--plot", str(plot))
    assert result.exit_code == 0, result.stderr
    expected = library.critical_difference_svg(library.rank_test(scores(errors)))
    assert plot.read_text(encoding="utf-8") == expected


# --- issue 29: too few resamples, no figure unless asked, no warning on stderr -----------------------------

#: Each resampling command with a count one below its minimum, and the minimum the refusal names.
TOO_FEW = {
    "aggregate": (["--resamples", "1"], "41"),
    "profile": (["--resamples", "40"], "41"),
    "improvement": (["--resamples", "2", "--alpha", "0.01"], "201"),
    "effect": (["--a", "m0", "--b", "m1", "--resamples", "1"], "41"),
    "bayes": (["--a", "m0", "--b", "m1", "--samples", "1"], "60"),
    "bayes ": (["--a", "m0", "--b", "m1", "--samples", "299", "--threshold", "0.99"], "300"),
}


@pytest.mark.parametrize("command", TOO_FEW)
def test_too_few_resamples_are_refused_naming_the_option_and_the_minimum(errors, tmp_path, refuses, command):
    options, minimum = TOO_FEW[command]
    option = options[-2] if options[-2] != "--alpha" and options[-2] != "--threshold" else options[-4]
    args = [command.strip(), str(errors), *READING, "--score-col", "error", *options]
    refuses(invoke, args, f"{option}: ", tmp_path)
    assert f"at least {minimum}" in invoke(*args).stderr


def _rocket_table(folder):
    """A table whose method names hold an emoji missing from matplotlib's font (U+1F680)."""
    rng = np.random.default_rng(2)
    rows = ["method,task,run,score"]
    for m in ("\N{ROCKET} net", "plain"):
        rows += [f"{m},t{t},{r},{rng.uniform(0.5, 0.9):.4f}" for t in range(3) for r in range(5)]
    path = folder / "rocket.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _run(*args, cwd):
    import subprocess
    import sys

    return subprocess.run(
        [sys.executable, "-m", "benchtrust", "compare", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**__import__("os").environ, "PYTHONWARNINGS": "always"},
        timeout=120,
    )


def _rocket_args(table, command):
    pair = ["--a", "\N{ROCKET} net", "--b", "plain"] if command == "bayes" else []
    resamples = ["--resamples", "100"] if command in ("profile", "improvement") else []
    return [command, str(table), "--direction", "higher", *pair, *resamples]


@pytest.mark.parametrize("command", PLOTS)
def test_an_emoji_name_gives_no_warning_and_one_line_of_ours_when_drawn(tmp_path, command):
    args = _rocket_args(_rocket_table(tmp_path), command)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        plain_run = invoke(*args)
        drawn = invoke(*args, "--plot", str(tmp_path / "figure.png"), "--report", str(tmp_path / "r.html"))
    assert caught == []
    assert plain_run.exit_code == 0 and plain_run.stderr == ""
    assert drawn.exit_code == 0 and (tmp_path / "figure.png").exists() and (tmp_path / "r.html").exists()
    assert drawn.stderr.startswith("note: ") and drawn.stderr.count("\n") == 1
    assert "\N{ROCKET}" in drawn.stderr


@pytest.mark.slow
def test_profile_with_an_emoji_name_leaves_stderr_empty_in_a_real_process(tmp_path):
    args = _rocket_args(_rocket_table(tmp_path), "profile")
    assert _run(*args, cwd=tmp_path).stderr == ""
    drawn = _run(*args, "--plot", str(tmp_path / "figure.png"), cwd=tmp_path)
    assert drawn.returncode == 0 and drawn.stderr.startswith("note: ") and drawn.stderr.count("\n") == 1


def test_no_figure_or_report_module_is_loaded_unless_asked(errors, tmp_path):
    # in a fresh interpreter: every command over tasks, in-process, then which modules were loaded
    import subprocess
    import sys

    calls = [[c, *COMMANDS[c][0]] for c in COMMANDS if c != "effect"] + [
        ["effect", "--a", "m0", "--b", "m1", "--resamples", "100"]
    ]
    script = (
        "import sys\n"
        "from typer.testing import CliRunner\n"
        "from benchtrust import cli\n"
        f"for call in {calls!r}:\n"
        f"    args = ['compare', call[0], {str(errors)!r}, *{READING!r}, '--score-col', 'error', *call[1:]]\n"
        "    result = CliRunner().invoke(cli.app, args)\n"
        "    assert result.exit_code == 0, (call, result.stderr)\n"
        # every command runs through the table of analyses (benchtrust._report.analyses); no report writer
        "drawing = ('matplotlib', 'jinja2', 'benchtrust._report.html', 'benchtrust._report.config')\n"
        "print(sorted(m for m in sys.modules if m.startswith(drawing)))\n"
    )
    shown = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "[]"


# --- issue 29 §4: memory estimated before any work, refused above --max-memory -----------------------------

#: Each command that keeps its resamples or samples, with a count whose values (8 bytes each, per estimate)
#: exceed the bound given.
MEMORY = {
    "aggregate": ["--resamples", "1000"],
    "profile": ["--resamples", "1000"],
    "improvement": ["--resamples", "1000"],
    "effect": ["--a", "m0", "--b", "m1", "--resamples", "1000"],
    "bayes": ["--a", "m0", "--b", "m1", "--samples", "1000"],
}


@pytest.mark.parametrize("command", MEMORY)
def test_memory_above_max_memory_is_refused_naming_the_option(errors, tmp_path, refuses, command):
    args = [command, str(errors), *READING, "--score-col", "error", *MEMORY[command], "--quiet"]
    refuses(invoke, [*args, "--max-memory", "8000"], "--max-memory=8e+03: --", tmp_path)
    assert "GB of memory; raise it to run anyway" in invoke(*args, "--max-memory", "8000").stderr
    assert invoke(*args, "--max-memory", "1e7").exit_code == 0  # within the bound, it runs
    refuses(invoke, [*args, "--max-memory", "0"], "--max-memory: ", tmp_path)
