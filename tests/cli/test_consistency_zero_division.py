"""``benchtrust consistency kfold`` with folds without positives (issue 19, §1): no false "inconsistent".

The two commands of the issue that printed a certain-sounding "inconsistent" for scores that come from
the experiment: scikit-learn's scores of a perfect classifier on stratified folds of 3 positives in 5
folds (two folds without positives, whose recall scikit-learn counts as 0), and a mean accuracy of 0.96
over 5 folds of 1 positive and 20 negatives (no configuration of the paper exists: the one positive sits
in one fold). Also the pinned convention, the counts of both tiers, batch rows and the report.
"""

import json
import warnings

import numpy as np
from sklearn.metrics import accuracy_score, recall_score
from sklearn.model_selection import StratifiedKFold
from typer.testing import CliRunner

from benchtrust import cli

STRATIFIED = [
    *("consistency", "kfold", "--positives", "3", "--negatives", "20", "--folds", "5"),
    *("--aggregation", "mos", "--folding", "stratified"),
]
ONE_POSITIVE = [
    *("consistency", "kfold", "--positives", "1", "--negatives", "20", "--folds", "5"),
    *("--aggregation", "mos", "--folding", "unknown"),
]


def run(*args):
    result = CliRunner().invoke(cli.app, list(args), env={"COLUMNS": "100"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def scikit_learn_perfect_classifier():
    """Mean sensitivity and accuracy as cross_validate users get them: 3 positives, 20 negatives."""
    y = np.r_[np.ones(3, dtype=int), np.zeros(20, dtype=int)]
    folds = StratifiedKFold(5).split(np.zeros(len(y)), y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # recall is ill-defined in the folds without positives
        sens = [recall_score(y[test], y[test]) for _, test in folds]
    return np.mean(sens), accuracy_score(y, y)


def test_scikit_learns_perfect_classifier_is_consistent_and_says_why():
    sens, acc = scikit_learn_perfect_classifier()
    assert (sens, acc) == (0.6, 1.0)  # what the issue reports scikit-learn prints
    result = run(*STRATIFIED, "--score", f"sens={sens}", "--score", f"acc={acc}")
    assert result.exit_code == 0, result.stderr
    words = " ".join(result.stdout.split())
    assert words.count("consistent:") == 1 and "inconsistent" not in words
    assert "count sensitivity as 0, as scikit-learn does by default" in words
    found = json.loads(run(*STRATIFIED, "--score", "sens=0.6", "--score", "acc=1.0", "--json").stdout)
    assert found["consistent"] and found["tier"] == "beyond" and found["conventions"] == {"sens": "0"}
    assert found["configurations"] == {"paper": 0, "beyond": 1}


def test_a_pinned_convention_is_the_only_one_tried():
    scores = ("--score", "sens=0.6", "--score", "acc=1.0", "--json")
    verdicts = {
        value: json.loads(run(*STRATIFIED, *scores, "--zero-division", value).stdout)["consistent"]
        for value in ("0", "1", "skip", "any")
    }
    # counted as 1 the two empty folds make the mean 1; left out, the three others give 1 as well
    assert verdicts == {"0": True, "1": False, "skip": False, "any": True}
    refused = run(*STRATIFIED, *scores, "--zero-division", "nan")
    assert refused.exit_code == 2 and "--zero-division" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_one_positive_in_five_folds_is_decided_beyond_the_paper():
    verdicts = {}
    for value in ("0.96", "0.95", "0.94"):
        found = json.loads(run(*ONE_POSITIVE, "--score", f"acc={value}", "--json").stdout)
        assert found["configurations"]["paper"] == 0  # the paper's tier is empty: one fold holds it
        verdicts[value] = found["consistent"]
    assert verdicts == {"0.96": True, "0.95": True, "0.94": False}
    words = " ".join(run(*ONE_POSITIVE, "--score", "acc=0.94").stdout.split())
    assert "0 of the paper's fold configurations (§4.4.3), then 2 beyond them" in words
    assert "any of the 2 fold configurations the fold sizes allow, all beyond the paper's" in words
    assert "0 fold configurations tried" not in words


def test_batch_rows_and_the_report_take_the_convention(tmp_path):
    claims = tmp_path / "claims.csv"
    claims.write_text(
        "id,positives,negatives,folds,aggregation,folding,zero_division,sens,acc\n"
        "any,3,20,5,mos,stratified,,0.6,1.0\n"
        "pinned,3,20,5,mos,stratified,1,0.6,1.0\n"
        "bad,3,20,5,mos,stratified,nan,0.6,1.0\n"
    )
    rows = json.loads(run("consistency", "batch", str(claims), "--json").stdout)["rows"]
    assert [row["verdict"] for row in rows] == ["consistent", "inconsistent", "error"]
    assert "zero_division" in rows[2]["message"]
    config = tmp_path / "report.yaml"
    config.write_text(
        "title: folds without positives\n"
        "analyses:\n"
        "  - analysis: consistency kfold\n"
        "    positives: 3\n    negatives: 20\n    folds: 5\n    aggregation: mos\n"
        "    folding: stratified\n    zero_division: 0\n"
        "    scores: {sens: '0.6', acc: '1.0'}\n"
    )
    result = run("report", str(config), "--out", str(tmp_path / "report.html"))
    assert result.exit_code == 0, result.stderr
    page = (tmp_path / "report.html").read_text()
    assert "as scikit-learn does by default" in page and "counted as 0" in page


def test_a_search_over_its_state_budget_stops_with_one_line_and_nothing_on_stdout():
    """A real per-image claim (DIARETDB0, 9 images) that HiGHS cannot settle and the exact search cannot
    decide within --max-states: exit 2, one line naming the option, and nothing on stdout (HiGHS prints
    debug lines with C's printf, which only a file-descriptor redirect keeps out; issue 19, §3 and §6)."""
    import subprocess
    import sys

    command = [
        *("consistency", "kfold", "--dataset", "diaretdb0/test/neovascularisation", "--aggregation", "mos"),
        *(
            "--score",
            "acc=0.8305",
            "--score",
            "sens=0.8883",
            "--score",
            "spec=0.8405",
            "--max-states",
            "1000",
        ),
    ]
    ran = subprocess.run(
        [sys.executable, "-m", "benchtrust", *command, "--json"], capture_output=True, text=True, timeout=300
    )
    assert (ran.returncode, ran.stdout) == (2, "")
    assert (
        ran.stderr.count("\n") == 1 and "--max-states=1,000" in ran.stderr and "Traceback" not in ran.stderr
    )
