"""``benchtrust report CONFIG.yaml --out FILE.html`` and the ``--report FILE.html`` option of the analysis
commands: one self-contained page; bad configs and bad paths exit with 2, one line, nothing written."""

import json
import shutil

import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.sota import bundled_leaderboard

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
RUNS = "algorithm,seed,score\n" + "".join(
    f"lr,{k},{0.90 + k / 100:.2f}\nrf,{k},{0.89 + k / 120:.4f}\n" for k in range(1, 7)
)
CONFIG = """\
title: Audit of <b>two</b> claims
analyses:
  - analysis: sota leaderboard
    file: titanic.csv
    test_size: 209
    direction: higher
    classes: 2
    max_plausible: 0.999
  - analysis: consistency test-set
    positives: 1000
    negatives: 6000
    scores: {acc: '0.6821', npv: '0.9401', f1: '0.4004'}
    eps: 1e-4
  - analysis: consistency kfold
    positives: 38
    negatives: 262
    folds: 5
    aggregation: mos
    folding: unknown
    scores: {acc: '0.9447', sens: '0.9139', spec: '0.9733'}
    eps: 1e-4
  - {analysis: compare outperform, file: runs.csv, a: lr, b: rf, pair_by: seed}
  - {analysis: sota best-of, accuracy: 0.9, classifiers: 100, test_size: 1000}
"""


def invoke(*args):
    result = CliRunner().invoke(cli.app, list(args), env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


MULTIVERSE_SPEC = """\
columns: {dataset: data, method: learner, iteration: fold}
measures:
  acc: {better: higher, random: 0.5}
choices:
  aggregation: {default: mean, options: [mean, median]}
"""


@pytest.fixture
def folder(tmp_path):
    shutil.copy(bundled_leaderboard(), tmp_path / "titanic.csv")
    (tmp_path / "runs.csv").write_text(RUNS, encoding="utf-8")
    (tmp_path / "audit.yaml").write_text(CONFIG, encoding="utf-8")
    # A small multiverse: 3 methods, 4 data sets, 2 folds, one choice (the example takes half a minute).
    results = ["data,learner,fold,acc"] + [
        f"d{d},m{m},{fold},{0.7 + 0.05 * m + 0.01 * ((d * 7 + m * 3 + fold) % 5):.4f}"
        for d in range(4)
        for m in range(3)
        for fold in (1, 2)
    ]
    (tmp_path / "results.csv").write_text("\n".join(results) + "\n", encoding="utf-8")
    (tmp_path / "spec.yaml").write_text(MULTIVERSE_SPEC, encoding="utf-8")
    return tmp_path


def test_report_runs_every_analysis_of_the_config(folder):
    out = folder / "report.html"
    result = invoke("report", str(folder / "audit.yaml"), "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert f"Report written to {out} (5 analyses)" in result.stdout
    page = out.read_text(encoding="utf-8")
    assert page.count('<section class="analysis"') == 5
    assert page.count("<svg") == 2  # the leaderboard's Fig. 7 and best-of's Fig. 1
    assert "<title>Audit of &lt;b&gt;two&lt;/b&gt; claims</title>" in page
    assert "<script" not in page and "http://" not in page and "https://" not in page
    text = " ".join(page.split())
    assert "Consistent: 2 confusion matrices of 1000 positives and 6000 negatives" in text
    assert "Inconsistent: no split into 5 folds of near-equal size" in text
    assert "no per-fold confusion matrices of any of the 918 fold configurations" in text
    assert "A sober state of the art is" in text or "Cropping keeps the observed best" in text
    assert "Top of the board" in text
    for analysis in ("sota leaderboard", "consistency test-set", "consistency kfold", "compare outperform"):
        assert f"benchtrust {analysis}</p>" in page


@pytest.mark.parametrize(
    ("config", "named"),
    [
        ("analyses: [\n", "audit.yaml, line 2"),
        ("- a\n- b\n", "audit.yaml: expected a mapping"),
        ("title: x\n", "audit.yaml, key 'analyses'"),
        ("analyses: []\nextra: 1\n", "unknown key 'extra'"),
        ("analyses:\n  - {analysis: sota guess}\n", "unknown analysis 'sota guess'; known: sota leaderboard"),
        (
            "analyses:\n  - {file: x.csv}\n",
            "audit.yaml, analyses[0]: expected a mapping with the key 'analysis'",
        ),
        (
            "analyses:\n  - {analysis: sota leaderboard, file: titanic.csv, tst_size: 209}\n",
            "analyses[0] (sota leaderboard): unknown key 'tst_size'",
        ),
        (
            "analyses:\n  - {analysis: sota leaderboard, file: titanic.csv}\n",
            "analyses[0] (sota leaderboard): the key 'test_size' is required",
        ),
        (
            "analyses:\n  - {analysis: sota leaderboard, file: titanic.csv, test_size: 209}\n",
            "analyses[0] (sota leaderboard): the key 'direction' is required",
        ),
        (
            "analyses:\n  - {analysis: sota leaderboard, file: missing.csv,"
            " test_size: 209, direction: higher}\n",
            "key 'file': no such file",
        ),
        (
            "analyses:\n  - {analysis: sota leaderboard, file: titanic.csv,"
            " test_size: -1, direction: higher}\n",
            "analyses[0] (sota leaderboard): test_size",
        ),
        (
            "analyses:\n  - {analysis: consistency test-set, positives: 10, negatives: 10, scores: 3}\n",
            "analyses[0] (consistency test-set): scores",
        ),
    ],
)
def test_bad_config_is_one_line_and_writes_nothing(folder, refuses, config, named):
    (folder / "audit.yaml").write_text(config, encoding="utf-8")
    refuses(invoke, ["report", str(folder / "audit.yaml"), "--out", str(folder / "r.html")], named, folder)


@pytest.mark.parametrize(
    ("out", "named"),
    [
        ("missing/r.html", "--out: cannot write"),
        ("r.txt", "--out: expected a file name ending in .html or .htm"),
    ],
)
def test_report_bad_out_path(folder, refuses, out, named):
    refuses(invoke, ["report", str(folder / "audit.yaml"), "--out", str(folder / out)], named, folder)


def test_report_needs_out_and_an_existing_config(folder, refuses):
    refuses(invoke, ["report", str(folder / "audit.yaml")], "--out FILE.html is required", folder)
    refuses(
        invoke, ["report", str(folder / "none.yaml"), "--out", str(folder / "r.html")], "none.yaml", folder
    )


@pytest.mark.parametrize(
    "command",
    [
        ["sota", "best-of", "--classifiers", "10", "--test-size", "100", "--accuracy", "0.9"],
        ["sota", "leaderboard", "titanic.csv", "--test-size", "209", "--direction", "higher"],
        ["consistency", "test-set", "--positives", "10", "--negatives", "20", "--score", "acc=0.9"],
        ["compare", "outperform", "runs.csv", "--a", "lr", "--b", "rf"],
        ["compare", "sample-size"],
        ["multiverse", "example", "--out", "mv"],
    ],
)
@pytest.mark.parametrize(
    ("report", "named"),
    [
        ("missing/r.html", "--report: cannot write missing/r.html: folder 'missing' does not exist"),
        ("r.png", "--report: expected a file name ending in .html or .htm, got 'r.png'"),
    ],
)
def test_report_option_bad_path(folder, refuses, monkeypatch, command, report, named):
    monkeypatch.chdir(folder)
    refuses(invoke, [*command, "--report", report], named, folder)
    assert not (folder / "mv").exists()


@pytest.mark.parametrize(
    ("command", "analysis", "figures"),
    [
        (
            ["sota", "best-of", "--classifiers", "10", "--test-size", "100", "--accuracy", "0.9"],
            "sota best-of",
            1,
        ),
        (
            [
                *("consistency", "kfold", "--positives", "38", "--negatives", "262", "--folds", "5"),
                *("--aggregation", "som", "--score", "acc=0.9447"),
            ],
            "consistency kfold",
            0,
        ),
        (
            [
                "consistency",
                "multiclass",
                "--class-counts",
                "50,30,20",
                "--average",
                "micro",
                "--score",
                "acc=0.8",
            ],
            "consistency multiclass",
            0,
        ),
        (["compare", "outperform", "runs.csv", "--a", "lr", "--b", "rf"], "compare outperform", 0),
        (["compare", "sample-size"], "compare sample-size", 0),
        # Fig. 2-5: the rank distribution, the step-wise optimisation, the unfolding and its distances
        (["multiverse", "run", "results.csv", "--spec", "spec.yaml", "--out", "mv"], "multiverse", 4),
    ],
)
def test_report_option_writes_one_section(folder, monkeypatch, command, analysis, figures):
    monkeypatch.chdir(folder)
    result = invoke(*command, "--json", "--report", "r.html")
    assert result.exit_code == 0, result.stderr
    assert "report written to r.html" in result.stderr  # with --json, stdout holds the JSON alone
    assert isinstance(json.loads(result.stdout), dict)
    page = (folder / "r.html").read_text(encoding="utf-8")
    assert page.count('<section class="analysis"') == 1
    assert f"benchtrust {analysis}</p>" in page
    assert page.count("<svg") == figures
