"""``benchtrust consistency protocols``: which evaluation protocol fits the reported scores.

The DRIVE example as text, JSON and report, the family options, and bad input: exit code 2, one line on
stderr naming the option.
"""

import json

import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.cli import consistency_protocols  # noqa: F401 (adds the command to the consistency group)

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
SCORES = ("--score", "acc=0.9557", "--score", "sens=0.7761", "--score", "spec=0.9792")
DRIVE = ("consistency", "protocols", "--dataset", "drive/test/manual1/fov", *SCORES)


def invoke(*args):
    """Invoke ``benchtrust ARGS`` in-process; fail on any unexpected exception."""
    result = CliRunner().invoke(cli.app, list(args), env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_drive_text():
    result = invoke(*DRIVE, "--rounding", "round")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert (
        lines[0] == "which protocol fits acc=0.9557, sens=0.7761, spec=0.9792 (Fazekas & Kovács §3-4, §5.1)"
    )
    assert lines[3].strip().split("  ")[0] == "field of view, mean of per-image scores, rounded"
    assert "consistent    per-fold counts found" in lines[3]
    assert "consistent only with: field of view, mean of per-image scores, rounded (of the 6" in result.stdout


def test_drive_json_with_families_and_report(tmp_path):
    target = tmp_path / "protocols.html"
    result = invoke(
        *DRIVE, "--region", "all", "--aggregation", "mos,Pooled", "--json", "--report", str(target)
    )
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["consistent"] is False
    assert [(row["aggregation"], row["rounding"]) for row in data["rows"]] == [
        ("mean_of_scores", "round"),
        ("mean_of_scores", "floor-or-ceil"),
        ("pooled", "round"),
        ("pooled", "floor-or-ceil"),
    ]
    assert data["verdict"].startswith("consistent with none of the 4 protocols tried")
    assert result.stderr == f"report written to {target}\n"
    html = target.read_text(encoding="utf-8")
    assert "Under which evaluation protocol could these reported scores have come out?" in html
    assert "all pixels, one test set of the pooled counts, floored or ceiled" in html


def test_counts_with_folds_and_eps():
    result = invoke(
        *("consistency", "protocols", "--positives", "38", "--negatives", "262", "--folds", "5"),
        *("--score", "acc=0.9447", "--score", "sens=0.9139", "--score", "spec=0.9733", "--eps", "1e-4"),
        *("--folding", "stratified", "--json"),
    )
    assert result.exit_code == 0
    rows = json.loads(result.stdout)["rows"]
    assert [row["protocol"] for row in rows] == [
        "mean of per-fold scores over 5 folds (stratified)",
        "one test set",
        "score of the summed per-fold counts over 5 folds",
    ]
    assert {row["verdict"] for row in rows} == {"inconsistent"}


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--region", "fov,pixels"), "--region: expected fov, all, got 'pixels'"),
        (
            ("--aggregation", "mean_of_scores,mean"),
            "--aggregation: expected mean_of_scores, pooled, score_of_means (or the paper's mos, som), "
            "got 'mean'",
        ),
        (("--rounding", "floor"), "--rounding: expected round, floor-or-ceil, got 'floor'"),
        (("--folding", "unknown"), "--folding: stratified or unknown folds apply"),
        (("--folds", "3"), "--folds: drive/test/manual1/fov has 20 images"),
        (("--eps", "0.01", "--rounding", "round"), "--rounding: with eps given"),
        (("--positives", "10"), "--dataset gives the counts"),
        (("--report", "out.txt"), "--report: expected a file name ending in .html"),
    ],
)
def test_bad_options_one_line_exit_2(args, named, refuses, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refuses(invoke, (*DRIVE, *args), named, tmp_path)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--dataset", "drive/test/fov"), "--dataset: unknown test set 'drive/test/fov'; closest known"),
        (("--dataset", "tpehg", "--region", "fov"), "--region: regions (fov, all) are the sibling"),
        (("--positives", "10"), "--negatives is required"),
        (("--dataset", "tpehg", "--score", "acc=x"), "--score acc: expected a number"),
    ],
)
def test_bad_test_set_one_line_exit_2(args, named, refuses, tmp_path):
    scores = () if "--score" in args else SCORES
    refuses(invoke, ("consistency", "protocols", *args, *scores), named, tmp_path)
