"""``benchtrust sota best-of``: the paper's numbers, files, dependence, plots, and every bad input."""

import hashlib
import json
import subprocess
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.sota import best_of

PAPER = ["--classifiers", "1000", "--test-size", "3000", "--accuracy", "0.9"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}


def run(*args):
    """Invoke ``benchtrust sota best-of ARGS`` in-process; fail on any unexpected exception."""
    result = CliRunner().invoke(cli.app, ["sota", "best-of", *args], env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def run_json(*args):
    result = run(*args, "--json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def accuracies():
    """Eight accuracies spread like a small leaderboard (paper §4.2 style)."""
    return np.linspace(0.875, 0.90, 8).tolist()


@pytest.fixture
def plain_file(tmp_path, accuracies):
    path = tmp_path / "accuracies.txt"
    path.write_text("".join(f"{value!r}\n" for value in accuracies), encoding="utf-8")
    return path


@pytest.fixture
def csv_file(tmp_path, accuracies):
    path = tmp_path / "leaderboard.csv"
    rows = "".join(f"team {k},{value!r},{k + 1}\n" for k, value in enumerate(accuracies))
    path.write_text("team,accuracy,rank\n" + rows, encoding="utf-8")
    return path


# --- the paper's example (§3.4, Table 1 bold row, Table 2 row 1) -------------------------------------------


def test_json_holds_the_paper_example():
    out = run_json(*PAPER)
    assert round(out["expected_max"], 4) == 0.9173
    assert round(out["sd_max"], 6) == 0.001817
    assert isinstance(out["ci"], list) and len(out["ci"]) == 2
    assert round(out["ci"][1], 4) == 0.9213
    assert out["ci"][0] < out["expected_max"] < out["ci"][1]
    assert out["alpha"] == 0.05
    assert out["classifiers"] == 1000
    assert out["test_size"] == 3000
    assert out["model"] == "independent, identical"
    assert out["method"] == "exact"
    assert out["dropped"] == 0
    assert "distribution" not in out


def test_json_is_to_dict_of_the_api_result():
    assert run_json(*PAPER) == best_of(0.9, classifiers=1000, test_size=3000).to_dict()


def test_json_is_the_only_output():
    result = run(*PAPER, "--json")
    assert result.stderr == ""
    assert isinstance(json.loads(result.stdout), dict)


def test_readable_table():
    result = run(*PAPER)
    assert result.exit_code == 0
    assert result.stderr == ""
    rows, verdict = result.stdout.split("\n\n")
    lines = rows.splitlines()
    assert "Møllersen & Holsbø" in lines[0]
    table = {line.split("  ")[1].strip(): line.strip() for line in lines[1:]}
    assert "independent, identical (exact)" in table["model"]
    assert table["classifiers m"].endswith("1000")
    assert table["test size n"].endswith("3000")
    assert table["accuracy θ"].endswith("0.9")
    assert table["expected best E"].endswith("0.917313")
    assert table["SD of best"].endswith("0.001817")
    assert "[0.914333, 0.921333] (2743 to 2764 of 3000 right)" in table["95% central interval"]
    assert table["dropped (Eq. 12)"].endswith("0")
    assert not any("correlation" in line for line in lines)
    # the verdict last, in plain words, as the report shows it
    assert " ".join(verdict.split()) == best_of(0.9, classifiers=1000, test_size=3000).verdict


def test_alpha_sets_the_interval_level():
    result = run(*PAPER, "--alpha", "0.1")
    assert "90% central interval" in result.stdout
    out = run_json(*PAPER, "--alpha", "0.1")
    assert out["alpha"] == 0.1
    assert out["ci"][1] <= 0.9213 + 1e-12


def test_counts_may_be_written_as_floats():
    assert (
        run_json("--classifiers", "1e3", "--test-size", "3000.0", "--accuracy", "0.9")["classifiers"] == 1000
    )


# --- accuracies from a file --------------------------------------------------------------------------------


def test_plain_file(plain_file, accuracies):
    before = digest(plain_file)
    out = run_json("--test-size", "3000", "--accuracies", str(plain_file))
    assert out == best_of(accuracies, test_size=3000).to_dict()
    assert out["classifiers"] == 8
    assert out["model"] == "independent, non-identical"
    assert digest(plain_file) == before


def test_csv_file_with_an_accuracy_column(csv_file, plain_file):
    before = digest(csv_file)
    from_csv = run_json("--test-size", "3000", "--accuracies", str(csv_file))
    assert from_csv == run_json("--test-size", "3000", "--accuracies", str(plain_file))
    assert digest(csv_file) == before


def test_accuracy_column_names_another_column(tmp_path, plain_file):
    path = tmp_path / "board.csv"
    rows = "".join(f"t{k},{value.strip()}\n" for k, value in enumerate(plain_file.read_text().splitlines()))
    path.write_text("team,acc\n" + rows, encoding="utf-8")
    out = run_json("--test-size", "3000", "--accuracies", str(path), "--accuracy-column", "acc")
    assert out == run_json("--test-size", "3000", "--accuracies", str(plain_file))


def test_file_with_a_matching_classifier_count(plain_file):
    assert (
        run_json("--test-size", "3000", "--accuracies", str(plain_file), "--classifiers", "8")["classifiers"]
        == 8
    )


def test_file_readable_table_shows_the_range(plain_file):
    result = run("--test-size", "3000", "--accuracies", str(plain_file))
    assert result.exit_code == 0
    assert f"0.875 to 0.9 (θ_j from {plain_file})" in result.stdout
    assert "independent, non-identical" in result.stdout


def test_file_of_one_accuracy_is_one_classifier(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("0.9\n", encoding="utf-8")
    out = run_json("--test-size", "3000", "--accuracies", str(path))
    assert out["classifiers"] == 1
    assert round(out["expected_max"], 12) == 0.9


# --- dependent classifiers (§4.1, §4.3) --------------------------------------------------------------------


def test_dependent_random_reference():
    out = run_json(*PAPER, "--correlation", "0.6")
    assert round(out["expected_max"], 4) == 0.9140
    assert round(out["ci"][1], 4) == 0.9207
    assert out["correlation"] == 0.6
    assert out["reference_accuracy"] == 0.9  # default: the largest θ
    assert out["fixed_reference"] is False
    assert out["model"] == "dependent, identical, random reference"


def test_dependent_fixed_reference():
    out = run_json(*PAPER, "--correlation", "0.6", "--fixed-reference")
    assert round(out["ci"][1], 4) == 0.9173
    assert round(out["expected_max"], 4) == 0.9140
    assert out["fixed_reference"] is True


def test_dependent_readable_table_shows_rho_and_theta0():
    result = run(*PAPER, "--correlation", "0.6", "--reference-accuracy", "0.91", "--fixed-reference")
    assert result.exit_code == 0
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    assert "correlation \N{GREEK SMALL LETTER RHO} 0.6" in lines
    assert "reference θ0 0.91 (fixed Y0: exactly 2730 of 3000 right)" in lines


def test_reference_accuracy_is_passed_on():
    out = run_json(*PAPER, "--correlation", "0.6", "--reference-accuracy", "0.92")
    assert out["reference_accuracy"] == 0.92
    assert (
        out
        == best_of(0.9, classifiers=1000, test_size=3000, correlation=0.6, reference_accuracy=0.92).to_dict()
    )


def test_drop_invalid_leaves_out_what_eq12_rules_out(tmp_path):
    path = tmp_path / "accuracies.txt"
    path.write_text("0.5\n0.88\n0.89\n0.9\n", encoding="utf-8")
    args = ["--test-size", "3000", "--accuracies", str(path), "--correlation", "0.6"]
    refused = run(*args)
    assert refused.exit_code == 2
    assert "Eq. 12" in refused.stderr
    out = run_json(*args, "--drop-invalid")
    assert out["dropped"] == 1
    assert out["classifiers"] == 3
    lines = [" ".join(line.split()) for line in run(*args, "--drop-invalid").stdout.splitlines()]
    assert "dropped (Eq. 12) 1" in lines
    # θ_j shown are those of the m = 3 classifiers used, as in the verdict
    assert f"accuracy θ 0.88 to 0.9 (θ_j from {path})" in lines


# --- the rows of the table of analyses, which a report entry runs too -------------------------------------


def test_the_report_runs_what_the_command_runs(tmp_path, plain_file):
    """``sota best-of`` (its file read by the row, one accuracy per classifier) and ``sota best-of-auc``
    (``--metric auc``) take the command's arguments by the function's names and give its result."""
    from benchtrust import InputError
    from benchtrust._report.analyses import run_analysis

    one = tmp_path / "one.txt"
    one.write_text("0.9\n", encoding="utf-8")
    result = run_analysis("sota best-of", {"accuracies": "one.txt", "test_size": 3000}, folder=tmp_path)
    assert result.to_dict() == run_json("--test-size", "3000", "--accuracies", str(one))
    assert result.inputs == ("one.txt",)
    with pytest.raises(InputError, match=r"^classifiers: expected 8 \(the accuracies in .*\), got 9$"):
        run_analysis("sota best-of", {"accuracies": str(plain_file), "test_size": 3000, "classifiers": 9})
    with pytest.raises(InputError, match=r"^accuracy_column: names a column of the accuracies file"):
        run_analysis(
            "sota best-of", {"accuracy": 0.9, "classifiers": 3, "test_size": 30, "accuracy_column": "a"}
        )
    auc = {"auc": 0.85, "classifiers": 50, "test_size": 300, "positives": 30, "simulations": 200, "seed": 1}
    options = ["--classifiers", "50", "--test-size", "300", "--positives", "30", "--simulations", "200"]
    shown = run_json("--metric", "auc", "--auc", "0.85", *options, "--seed", "1")
    assert run_analysis("sota best-of-auc", auc).to_dict() == shown


# --- the plot ----------------------------------------------------------------------------------------------


def test_plot_writes_a_png_and_no_temporary_file(tmp_path):
    target = tmp_path / "fig1.png"
    result = run(*PAPER, "--plot", str(target))
    assert result.exit_code == 0, result.stderr
    data = target.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) > 1000
    assert [p.name for p in tmp_path.iterdir()] == ["fig1.png"]
    assert result.stdout.splitlines()[-1] == f"plot written to {target}"
    assert result.stderr == ""


def test_plot_message_goes_to_stderr_with_json(tmp_path):
    target = tmp_path / "fig1.png"
    result = run(*PAPER, "--json", "--plot", str(target))
    assert result.exit_code == 0
    assert json.loads(result.stdout)["classifiers"] == 1000
    assert result.stderr == f"plot written to {target}\n"
    assert target.read_bytes().startswith(PNG_SIGNATURE)


def test_plot_replaces_an_existing_file_only_with_force(tmp_path):
    target = tmp_path / "fig1.png"
    target.write_bytes(b"old")
    refused = run(*PAPER, "--correlation", "0.6", "--plot", str(target))
    assert refused.exit_code == 2 and target.read_bytes() == b"old"
    assert refused.stderr == (
        f"benchtrust: error: --plot: {target} exists already; give --force to replace it, or write another "
        "file\n"
    )
    assert run(*PAPER, "--correlation", "0.6", "--plot", str(target), "--force").exit_code == 0
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert [p.name for p in tmp_path.iterdir()] == ["fig1.png"]


# --- bad input: exit code 2, one line on stderr, nothing on stdout -----------------------------------------


SIZE = ["--classifiers", "10", "--test-size", "3000"]
FILES = ["--test-size", "3000", "--accuracies"]
#: Every bad input: the arguments ({...} filled with the files of `bad_files`) and a piece of the message.
BAD = {
    "accuracy above 1": ([*SIZE, "--accuracy", "1.5"], "--accuracy"),
    "accuracy 0": ([*SIZE, "--accuracy", "0"], "--accuracy"),
    "accuracy 1": ([*SIZE, "--accuracy", "1"], "--accuracy"),
    "accuracy not a number": ([*SIZE, "--accuracy", "high"], "--accuracy"),
    "accuracy nan": ([*SIZE, "--accuracy", "nan"], "--accuracy"),
    "classifiers not whole": (
        ["--classifiers", "2.5", "--test-size", "3000", "--accuracy", "0.9"],
        "--classifiers",
    ),
    "classifiers zero": (["--classifiers", "0", "--test-size", "3000", "--accuracy", "0.9"], "--classifiers"),
    "classifiers negative": (
        ["--classifiers", "-4", "--test-size", "3000", "--accuracy", "0.9"],
        "--classifiers",
    ),
    "classifiers word": (
        ["--classifiers", "many", "--test-size", "3000", "--accuracy", "0.9"],
        "--classifiers",
    ),
    "classifiers missing": (["--test-size", "3000", "--accuracy", "0.9"], "--classifiers"),
    "test size not whole": (
        ["--classifiers", "10", "--test-size", "30.5", "--accuracy", "0.9"],
        "--test-size",
    ),
    "test size zero": (["--classifiers", "10", "--test-size", "0", "--accuracy", "0.9"], "--test-size"),
    "test size negative": (
        ["--classifiers", "10", "--test-size", "-3000", "--accuracy", "0.9"],
        "--test-size",
    ),
    "test size missing": (["--classifiers", "10", "--accuracy", "0.9"], "--test-size"),
    "rho 1": ([*PAPER, "--correlation", "1"], "--correlation"),
    "rho negative": ([*PAPER, "--correlation", "-0.2"], "--correlation"),
    "rho word": ([*PAPER, "--correlation", "strong"], "--correlation"),
    "theta0 outside": (
        [*PAPER, "--correlation", "0.6", "--reference-accuracy", "1.1"],
        "--reference-accuracy",
    ),
    "alpha outside": ([*PAPER, "--alpha", "1"], "--alpha"),
    "eq 12 rules theta out": ([*PAPER, "--correlation", "0.9", "--reference-accuracy", "0.99"], "Eq. 12"),
    "missing file": ([*FILES, "{folder}/nowhere.txt"], "no such file"),
    "folder as file": ([*FILES, "{folder}"], "is a folder"),
    "empty file": ([*FILES, "{empty}"], "no accuracy values"),
    "file value out of range": ([*FILES, "{out_of_range}"], "out-of-range.csv"),
    "file value not a number": ([*FILES, "{words}"], "line 2"),
    "file count mismatch": (
        [*FILES, "{plain}", "--classifiers", "9"],
        "--classifiers: expected 8 (the accuracies in ",
    ),
    "both accuracy options": ([*FILES, "{plain}", "--accuracy", "0.9"], "not both"),
    "neither accuracy option": (SIZE, "--accuracies FILE"),
    "accuracy column without a file": ([*PAPER, "--accuracy-column", "acc"], "--accuracy-column"),
    "accuracy column not in the file": ([*FILES, "{out_of_range}", "--accuracy-column", "acc"], "'acc'"),
    "plot folder missing": ([*PAPER, "--plot", "{folder}/no/fig.png"], "does not exist"),
    "plot format unknown": ([*PAPER, "--plot", "{folder}/fig.txt"], ".txt"),
}


@pytest.fixture
def bad_files(tmp_path, plain_file):
    """The files the bad cases refer to, by placeholder name."""
    files = {"folder": tmp_path, "plain": plain_file}
    for name, text in [
        ("empty.txt", ""),
        ("out-of-range.csv", "team,accuracy\nA,0.9\nB,1.2\n"),
        ("words.txt", "0.9\nabc\n"),
    ]:
        (tmp_path / name).write_text(text, encoding="utf-8")
        files[name.split(".")[0].replace("-", "_")] = tmp_path / name
    return files


@pytest.mark.parametrize("name", list(BAD))
def test_bad_input_gives_one_line_and_exit_2(name, tmp_path, bad_files, refuses):
    template, named = BAD[name]
    refuses(run, [arg.format(**bad_files) for arg in template], named, tmp_path)


@pytest.mark.parametrize(
    "args",
    [
        [*PAPER, "--no-such-option"],
        ["--classifiers", "10", "--test-size", "3000", "--accuracy"],
        [*PAPER, "extra-argument"],
    ],
    ids=["unknown option", "option without value", "stray argument"],
)
def test_usage_errors_exit_2_without_traceback(args):
    result = run(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr


# --- a real process ----------------------------------------------------------------------------------------


def test_through_python_m(plain_file, tmp_path):
    before = digest(plain_file)
    target = tmp_path / "fig.png"
    completed = subprocess.run(
        [
            *(sys.executable, "-m", "benchtrust", "sota", "best-of", "--test-size", "3000"),
            *("--accuracies", str(plain_file), "--correlation", "0.6", "--json", "--plot", str(target)),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    out = json.loads(completed.stdout)
    assert out["classifiers"] == 8 and out["correlation"] == 0.6
    assert completed.stderr == f"plot written to {target}\n"
    assert target.read_bytes().startswith(PNG_SIGNATURE)
    assert digest(plain_file) == before

    bad = subprocess.run(
        [sys.executable, "-m", "benchtrust", "sota", "best-of", *PAPER, "--correlation", "1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2
    assert bad.stdout == ""
    assert bad.stderr == "benchtrust: error: --correlation: expected a value in [0, 1), got 1.0\n"


def test_help_names_the_papers_symbols():
    result = CliRunner().invoke(cli.app, ["sota", "best-of", "--help"], env=WIDE)
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    for option, symbol in [
        ("--classifiers", "m,"),
        ("--test-size", "n,"),
        ("--accuracy", "θ,"),
        ("--correlation", "\N{GREEK SMALL LETTER RHO},"),
        ("--reference-accuracy", "θ0,"),
    ]:
        assert option in text
        assert symbol in text
