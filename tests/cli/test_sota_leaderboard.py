"""``benchtrust sota leaderboard`` (paper §5, Table 3) and ``benchtrust sota best-of --metric auc``.

The bundled Kaggle Titanic leaderboard (n = 209) as JSON and as readable text, its plot, and every bad
input: exit code 2, one line on stderr, no traceback, nothing on stdout.
"""

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.sota import bundled_leaderboard, leaderboard

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
TITANIC = str(bundled_leaderboard())
HIGHER = ["--direction", "higher"]
N = ["--test-size", "209", *HIGHER]


def invoke(*args):
    """Invoke ``benchtrust ARGS`` in-process; fail on any unexpected exception."""
    result = CliRunner().invoke(cli.app, list(args), env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def run(*args):
    return invoke("sota", "leaderboard", *args)


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def words(text):
    """The text with every run of white space made one blank (the verdict is wrapped to the terminal)."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def titanic_json():
    before = digest(TITANIC)
    out = run_json(TITANIC, *N)
    assert digest(TITANIC) == before
    return out


# --- JSON ---------------------------------------------------------------------------------------------------


def test_json_has_the_table_3_keys(titanic_json):
    out = titanic_json
    assert out["teams"] == 16_234 and out["test_size"] == 209 and out["metric"] == "accuracy"
    assert out["excluded"] == {"broken": 39, "chance": 0, "implausible": 0}
    assert out["observed_max"] == 1.0
    assert len(out["naive_ci"]) == 2 and out["naive_ci"][1] == 1.0
    assert set(out["plugin"]) >= {"expected_max", "ci"} and out["plugin"]["expected_max"] == 1.0
    assert set(out["cropped"]) >= {"sota", "teams_above", "ci"}
    assert set(out["conservative"]) >= {"sota", "teams_above"}
    assert out["conservative"]["sota"] <= out["cropped"]["sota"] <= out["observed_max"]
    for row in ("plugin", "cropped", "conservative"):
        assert len(out[row]["ci"]) == 2 and out[row]["ci"][0] <= out[row]["ci"][1]
    assert out["correlation"] == 0.6 and out["alpha"] == 0.05


def test_json_is_to_dict_of_the_api_result(titanic_json):
    assert titanic_json == leaderboard(TITANIC, test_size=209, direction="higher").to_dict()


def test_max_plausible_leaves_perfect_scores_out():
    out = run_json(TITANIC, *N, "--max-plausible", "0.999", "--classes", "2")
    assert out["excluded"] == {"broken": 39, "chance": 57, "implausible": 111}
    assert out["teams"] == 16_273 - 39 - 57 - 111
    assert out["observed_max"] == 208 / 209
    assert out["conservative"]["sota"] <= out["cropped"]["sota"] <= out["observed_max"]
    assert out["observed_max"] <= out["plugin"]["expected_max"]
    assert out["conservative"]["ci"][1] <= out["observed_max"]
    assert (
        out
        == leaderboard(TITANIC, test_size=209, direction="higher", max_plausible=0.999, classes=2).to_dict()
    )


def test_options_reach_the_estimate(tmp_path):
    path = tmp_path / "board.csv"
    path.write_text("team,acc\n" + "".join(f"t{k},{k / 200}\n" for k in range(150, 177, 2)), encoding="utf-8")
    out = run_json(
        str(path),
        *("--test-size", "200", *HIGHER, "--score-column", "acc", "--correlation", "0"),
        *("--resamples", "0", "--alpha", "0.1"),
    )
    expected = leaderboard(
        path, test_size=200, direction="higher", score_column="acc", correlation=0.0, resamples=0, alpha=0.1
    )
    assert out == expected.to_dict()
    assert out["bootstrap"] == "none" and out["alpha"] == 0.1 and out["teams"] == 14


# --- readable output ---------------------------------------------------------------------------------------


def test_readable_output_ends_in_a_verdict_in_plain_words():
    result = run(TITANIC, *N)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert "Møllersen & Holsbø" in lines[0] and TITANIC in lines[0]
    table = words(result.stdout)
    for label in ("teams used", "observed best", "plug-in", "cropping: SOTA", "conservative: SOTA"):
        assert label in table
    assert "111 teams have a perfect score" in table
    assert "leakage, not skill" in table
    # the words are for any front end (a notebook, a report built from YAML): they name no option
    assert "Leaving out the scores above 0.999 as implausible sets perfect scores aside." in table
    assert "--max-plausible" not in table and "--correlation" not in table


def test_readable_output_with_max_plausible_names_a_sober_sota():
    result = run(TITANIC, *N, "--max-plausible", "0.999", "--classes", "2")
    assert result.exit_code == 0, result.stderr
    out = leaderboard(TITANIC, test_size=209, direction="higher", max_plausible=0.999, classes=2)
    text = words(result.stdout)
    assert "perfect score" not in text
    assert "optimistic estimate of the state of the art" in text
    # 209 items: one item is 0.0048, and the score below the best already brings E far below it
    assert out.cropped.sota == out.observed_max
    assert "Cropping keeps the observed best 0.9952 as the state of the art" in text
    assert f"(conservatively {out.conservative.sota:.4f}" in text


def test_readable_output_for_a_lucky_top(tmp_path):
    """Sixty teams at nearly the same level: the plug-in interval lies above the observed best."""
    path = tmp_path / "board.csv"
    scores = [k / 500 for k in range(420, 426) for _ in range(10)]
    path.write_text("score\n" + "".join(f"{s}\n" for s in scores), encoding="utf-8")
    result = run(str(path), "--test-size", "500", *HIGHER, "--correlation", "0")
    assert result.exit_code == 0, result.stderr
    text = words(result.stdout)
    assert "not evidence of a better method" in text
    assert "A sober state of the art is" in text


def test_readable_output_for_a_lone_outlier(tmp_path):
    """Cassava (§5.1.2): E = θ̂_max to the printed decimals, so multiplicity does not explain the top."""
    path = tmp_path / "board.csv"
    path.write_text("score\n" + "".join(f"{k / 300}\n" for k in [*range(222, 235), 264]), encoding="utf-8")
    result = run(str(path), "--test-size", "300", *HIGHER, "--correlation", "0")
    assert result.exit_code == 0, result.stderr
    text = words(result.stdout)
    assert "optimistic estimate" not in text
    assert "stands out from the other teams" in text
    assert "expected at 0.8800, the observed best itself" in text
    assert "A sober state of the art" not in text  # its lead is no luck
    assert run_json(str(path), "--test-size", "300", *HIGHER, "--correlation", "0")["stands_out"] is True


def test_team_column_groups_a_teams_submissions(tmp_path):
    path = tmp_path / "board.csv"
    rows = "".join(f"{user},{k / 200}\n" for user, k in zip("aabbccddee", range(150, 170, 2), strict=True))
    path.write_text("user,score\n" + rows, encoding="utf-8")
    out = run_json(str(path), "--test-size", "200", *HIGHER, "--team-column", "user", "--correlation", "0")
    assert out["teams"] == 5
    assert (
        out
        == leaderboard(path, test_size=200, direction="higher", team_column="user", correlation=0).to_dict()
    )
    report = tmp_path / "report.html"
    result = run(str(path), "--test-size", "200", *HIGHER, "--team-column", "user", "--report", str(report))
    assert result.exit_code == 0, result.stderr
    assert "Top of the board" in report.read_text(encoding="utf-8")  # the team column names the teams


# --- the plot ----------------------------------------------------------------------------------------------


def test_plot_writes_a_png(tmp_path):
    target = tmp_path / "fig7.png"
    result = run(TITANIC, *N, "--max-plausible", "0.999", "--plot", str(target))
    assert result.exit_code == 0, result.stderr
    data = target.read_bytes()
    assert data.startswith(PNG_SIGNATURE) and len(data) > 1000
    assert [p.name for p in tmp_path.iterdir()] == ["fig7.png"]
    assert result.stdout.splitlines()[-1] == f"plot written to {target}"


# --- bad input: exit code 2, one line on stderr, nothing on stdout -----------------------------------------

FILES = {
    "no-score-column.csv": "team,value\na,0.8\nb,0.9\n",
    "text-score.csv": "team,score\na,0.8\nb,high\n",
    "one-team.csv": "team,score\na,0.8\nb,0.3\n",
    "aucs.csv": "team,auc\na,0.8\nb,0.85\nc,0.9\n",
    "auc-above-1.csv": "team,auc\na,0.8\nb,1.2\n",
    "auc-at-chance.csv": "team,auc\na,0.5\nb,0.45\nc,0.3\n",
    "log-loss.csv": "team,score\na,0.2113\nb,0.4871\nc,1.00076\nd,2.3\n",
    "rmse.csv": "team,score\na,40.2\nb,41.7\nc,52.9\nd,131.0\n",
    "ranked-errors.csv": "Rank,team,score\n1,a,0.10342\n2,b,0.2\n3,c,0.99927\n",
}
AUC = ["--metric", "auc", "--positives", "60", "--resamples", "10", "--seed", "1", *HIGHER]
BAD = {
    "missing file": (["{folder}/nowhere.csv", *N], "no such file"),
    "folder as file": (["{folder}", *N], "folder"),
    "no score column": (["{no_score_column}", *N], "no score column"),
    "text in the score column": (["{text_score}", *N], "'high'"),
    "one usable team": (["{one_team}", *N, "--classes", "2"], "at least two"),
    "test size the scores cannot come from": ([TITANIC, "--test-size", "100", *HIGHER], "test size"),
    "test size missing": ([TITANIC, *HIGHER], "--test-size"),
    "test size zero": ([TITANIC, "--test-size", "0", *HIGHER], "--test-size"),
    "direction missing": ([TITANIC, "--test-size", "209"], "--direction is required"),
    "direction missing, errors": (["{ranked_errors}", "--test-size", "209"], "--direction is required"),
    "auc without positives": (["{aucs}", "--test-size", "600", *HIGHER, "--metric", "auc"], "positives"),
    "auc above 1": (["{auc_above_1}", "--test-size", "600", *AUC], "between 0 and 1"),
    "aucs at or below chance": (["{auc_at_chance}", "--test-size", "600", *AUC], "chance"),
    "unknown metric": ([TITANIC, *N, "--metric", "f1"], "--metric"),
    "resamples negative": ([TITANIC, *N, "--resamples", "-1"], "--resamples"),
    "team column missing": ([TITANIC, *N, "--team-column", "user"], "'user'"),
    "alpha outside": ([TITANIC, *N, "--alpha", "1.5"], "--alpha"),
    "correlation 1": ([TITANIC, *N, "--correlation", "1"], "--correlation"),
    "max plausible word": ([TITANIC, *N, "--max-plausible", "high"], "--max-plausible"),
    "plot folder missing": ([TITANIC, *N, "--plot", "{folder}/no/fig.png"], "does not exist"),
    "log-loss": (["{log_loss}", "--test-size", "209", "--direction", "lower"], "log-loss.csv, line 4"),
    "rmse": (["{rmse}", "--test-size", "209", "--direction", "lower"], "rmse.csv, line 2, column 'score'"),
    "log-loss as auc": (["{log_loss}", "--test-size", "600", *AUC], "need proportions in [0, 1]"),
    "errors ranked, read as accuracy": (["{ranked_errors}", *N], "--direction lower"),
    "accuracies listed best first read as errors": (
        [str(bundled_leaderboard("cassava")), "--test-size", "15000", "--direction", "lower"],
        "--direction higher",
    ),
    "unknown direction": (
        [TITANIC, "--test-size", "209", "--direction", "down"],
        "--direction: expected one of",
    ),
}


@pytest.fixture
def bad_files(tmp_path):
    files = {"folder": tmp_path}
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        files[name.removesuffix(".csv").replace("-", "_")] = tmp_path / name
    return files


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_gives_one_line_and_exit_2(name, tmp_path, bad_files, refuses):
    template, named = BAD[name]
    refuses(run, [arg.format(**bad_files) for arg in template], named, tmp_path)


def test_the_direction_is_declared_never_defaulted():
    # As every compare command's: a board of error rates read as accuracies names its worst team the best.
    text = words(run("--help").stdout)
    assert "--direction higher|lower Which scores are better (required, never guessed)" in text
    assert "default: higher" not in text


def test_a_percentage_board_is_refused_with_the_hint(tmp_path, refuses):
    (tmp_path / "percent.csv").write_text("team,score\na,91.2\nb,88.5\nc,0\n", encoding="utf-8")
    refuses(run, [str(tmp_path / "percent.csv"), *N], "if the scores are percentages, divide", tmp_path)


@pytest.mark.parametrize("metric", ["accuracy", "auc"])
def test_an_error_board_gives_the_mirror_json(tmp_path, metric):
    # A board listed best first, every score written as 1 - score: the mirror result, in its own terms.
    if metric == "auc":
        scores = ["0.93", "0.91333", "0.9", "0.87667", "0.85", "0.8", "0.72333", "0.6"]  # k/300
        options = ["--test-size", "40", "--positives", "10", "--metric", "auc", "--seed", "2"]
    else:
        scores = ["0.89662", "0.88", "0.87", "0.86", "0.84", "0.8", "0.75", "0.6", "0.00000"]  # k/50000
        options = ["--test-size", "50000", "--classes", "2", "--correlation", "0"]
    errors = [f"{1 - float(text):.{len(text) - 2}f}" for text in scores]
    boards = {}
    for name, texts in (("higher", scores), ("lower", errors)):
        rows = "".join(f"t{k},{text}\n" for k, text in enumerate(texts))
        (tmp_path / f"{name}.csv").write_text("team,score\n" + rows, encoding="utf-8")
        boards[name] = run_json(str(tmp_path / f"{name}.csv"), *options, "--direction", name)
    higher, lower = boards["higher"], boards["lower"]
    assert (higher["direction"], lower["direction"]) == ("higher", "lower")
    assert lower["observed_max"] == pytest.approx(1 - higher["observed_max"], abs=1e-12)
    assert lower["observed_max"] == float(errors[0])  # the best team, not the last placed
    for approach in ("plugin", "cropped", "conservative"):
        assert lower[approach]["sota"] == pytest.approx(1 - higher[approach]["sota"], abs=1e-12)
        assert lower[approach]["ci"] == pytest.approx(
            [1 - x for x in higher[approach]["ci"][::-1]], abs=1e-12
        )
        assert lower[approach]["teams_above"] == higher[approach]["teams_above"]
    assert lower["excluded"] == higher["excluded"] and lower["stands_out"] == higher["stands_out"]
    text = words(run(str(tmp_path / "lower.csv"), *options, "--direction", "lower").stdout)
    assert "direction lower is better" in text and f"observed best {float(errors[0]):.4f}" in text


def test_the_direction_reaches_a_report(tmp_path):
    rows = "".join(f"t{k},{e}\n" for k, e in enumerate(["0.101", "0.104", "0.11", "0.13", "0.2"]))
    (tmp_path / "errors.csv").write_text("team,score\n" + rows, encoding="utf-8")
    report = tmp_path / "report.html"
    result = run(
        str(tmp_path / "errors.csv"), "--test-size", "1000", "--direction", "lower", "--report", str(report)
    )
    assert result.exit_code == 0, result.stderr
    html = report.read_text(encoding="utf-8")
    assert "lower is better" in html and "0.1010" in html
    assert html.index("t0") < html.index("t1")  # the top of the board: the lowest error rate first


def test_auc_leaderboard_runs(bad_files):
    out = run_json(str(bad_files["aucs"]), "--test-size", "600", *AUC)
    assert out["metric"] == "auc" and out["positives"] == 60 and out["teams"] == 3
    assert out["conservative"]["sota"] <= out["cropped"]["sota"] <= out["observed_max"] == 0.9


def test_bad_input_in_a_real_process(tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "benchtrust", "sota", "leaderboard", TITANIC, "--test-size", "100", *HIGHER],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.startswith("benchtrust: error: ") and completed.stderr.count("\n") == 1
    assert "Traceback" not in completed.stderr


# --- best-of --metric auc -----------------------------------------------------------------------------------

BEST_OF_AUC = ["--metric", "auc", "--classifiers", "50", "--test-size", "300", "--positives", "30"]


def test_best_of_auc_json_has_the_keys_of_the_accuracy_json():
    result = invoke(
        "sota", "best-of", *BEST_OF_AUC, "--auc", "0.85", "--simulations", "200", "--seed", "1", "--json"
    )
    assert result.exit_code == 0, result.stderr
    auc = json.loads(result.stdout)
    accuracy = invoke(
        "sota", "best-of", "--classifiers", "50", "--test-size", "300", "--accuracy", "0.85", "--json"
    )
    assert accuracy.exit_code == 0
    assert set(auc) == set(json.loads(accuracy.stdout))
    assert auc["metric"] == "auc" and auc["positives"] == 30 and auc["classifiers"] == 50
    assert auc["method"] == "monte carlo, 200 simulations"
    assert 0.85 < auc["expected_max"] < 1 and auc["ci"][0] <= auc["expected_max"] <= auc["ci"][1]
    again = invoke(
        "sota", "best-of", *BEST_OF_AUC, "--auc", "0.85", "--simulations", "200", "--seed", "1", "--json"
    )
    assert json.loads(again.stdout) == auc


@pytest.mark.parametrize("value", ["0.4", "1.2", "0.5", "1"])
def test_best_of_auc_outside_half_to_one_exits_2(value):
    result = invoke("sota", "best-of", *BEST_OF_AUC, "--auc", value, "--simulations", "10")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("benchtrust: error: --auc") and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("test_size", "positives", "max_memory"),
    [(100_000, 50_000, "2e9"), (1_000_000, 3_000, "2e9"), (20_000, 9_000, "2e9"), (60, 20, "1e5")],
)
def test_a_board_whose_tables_exceed_the_memory_bound_is_refused(tmp_path, test_size, positives, max_memory):
    """An AUC board whose tables (tabulated AUCs x n+ n- values of U) would exceed --max-memory is refused
    before they are computed: one line naming the option, exit 2, nothing on stdout."""
    board = tmp_path / "board.csv"
    board.write_text("TeamId,Score\n1,0.91\n2,0.9\n3,0.85\n4,0.8\n", encoding="utf-8")
    args = ["--metric", "auc", "--test-size", str(test_size), "--positives", str(positives), *HIGHER]
    result = run(str(board), *args, "--max-memory", max_memory)
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith("benchtrust: error: --max-memory=") and "raise it to run anyway" in line
    need = float(line.split("about ")[1].split(" GB")[0]) * 1e9
    assert need > float(max_memory)
    if need < 5e8:  # small enough to run: raising the bound past the estimate lets it run
        assert run(str(board), *args, "--max-memory", f"{2 * need:.0f}", "--json").exit_code == 0
