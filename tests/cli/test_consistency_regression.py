"""``benchtrust consistency regression``: reported MSE, RMSE, MAE and R² of one regression of n items.

The text and JSON of a consistent and an inconsistent report, the report file, and every bad input: exit
code 2, one line on stderr naming the option.
"""

import json

import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.cli import consistency_regression  # noqa: F401 (adds the command to the consistency group)

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
CONSISTENT = [
    *("consistency", "regression", "--size", "50", "--variance", "0.0946"),
    *("--score", "mse=0.0123", "--score", "rmse=0.1109", "--score", "r2=0.87"),
]


def invoke(*args):
    """Invoke ``benchtrust ARGS`` in-process; fail on any unexpected exception."""
    result = CliRunner().invoke(cli.app, list(args), env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_consistent_text():
    result = invoke(*CONSISTENT)
    assert result.exit_code == 0
    assert result.stdout.startswith("regression scores of one test set of 50 items, target variance Var(y)")
    assert "  mse    0.0123    5e-05  [0.012250, 0.012350]" in result.stdout
    assert "consistent: every score allows an MSE in [0.012287722, 0.012309903]" in result.stdout


def test_inconsistent_json_names_the_relation():
    result = invoke(
        "consistency", "regression", "--size", "4", "--score", "mae=0.10", "--score", "rmse=0.30", "--json"
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["consistent"] is False
    assert [v["relation"] for v in data["violations"]] == ["RMSE ≤ √n·MAE"]


def test_one_score_is_nothing_to_check_and_eps_rounding_apply():
    result = invoke(
        "consistency", "regression", "--size", "9", "--score", "rmse=0.3", "--json", "--eps", "0.01"
    )
    data = json.loads(result.stdout)
    assert data["consistent"] is None and data["scores"][0]["eps"] == 0.01
    floor = invoke(
        "consistency",
        "regression",
        "--size",
        "9",
        "--score",
        "mse=0.3",
        "--score",
        "rmse=0.5",
        "--rounding",
        "floor-or-ceil",
        "--json",
    )
    assert json.loads(floor.stdout)["scores"][0]["eps"] == 0.1


def test_report(tmp_path):
    page = tmp_path / "regression.html"
    result = invoke(*CONSISTENT, "--report", str(page))
    assert result.exit_code == 0 and page.exists()
    assert "R² = 1 - MSE/Var(y)" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (["--score", "mse=0.1"], "--size is required"),
        (["--size", "0", "--score", "mse=0.1"], "--size"),
        (["--size", "5"], "--score NAME=VALUE"),
        (["--size", "5", "--score", "mse"], "--score: expected NAME=VALUE"),
        (["--size", "5", "--score", "acc=0.9"], "--score acc=0.9: 'acc' is not a regression score"),
        (["--size", "5", "--score", "mse=0.1", "--score", "MSE=0.2"], "--score MSE=0.2"),
        (["--size", "5", "--score", "mse=x"], "--score mse: expected a number"),
        (["--size", "5", "--score", "mse=0.1", "--variance", "-1"], "--variance: expected a number >= 0"),
        (["--size", "1", "--score", "mse=0.1", "--variance", "1"], "--variance: one item has variance 0"),
        (["--size", "5", "--score", "mse=0.1", "--eps", "e"], "--eps"),
        (["--size", "5", "--score", "mse=0.1", "--rounding", "up"], "--rounding"),
    ],
)
def test_bad_input(refuses, tmp_path, args, named):
    refuses(invoke, ["consistency", "regression", *args], named, tmp_path)
