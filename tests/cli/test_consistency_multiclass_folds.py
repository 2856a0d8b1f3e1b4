"""``benchtrust consistency multiclass --folds K``: averaged multiclass scores over k-fold cross-validation
(Fazekas & Kovács §4), its ``--folding FILE`` of class counts, its report section and config entry.

The CLI prints the library's result (``check_multiclass_kfold``) as JSON and text; the folds' options are
refused without ``--folds``; a bad file of folds is one line naming the file, the line and the column.
"""

import hashlib
import inspect
import json

import pytest
from typer.testing import CliRunner

from benchtrust import InputError, cli
from benchtrust._report.analyses import MULTICLASS_FOLD_KEYS
from benchtrust._report.config import run_config
from benchtrust._result import plain_data
from benchtrust.consistency import check_multiclass, check_multiclass_kfold, read_class_folds

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
# Iris: three classes of 50, five folds.
IRIS = ["multiclass", "--class-counts", "50,50,50", "--folds", "5", "--aggregation", "mos"]
# Uneven folds of the iris classes: a macro mean that stratified folds (10 of each class) cannot give.
UNEVEN = "setosa,versicolor,virginica\n20,5,5\n5,20,5\n5,5,20\n10,10,10\n10,10,10\n"
MACRO = ["--average", "macro", "--score", "sens=0.9000", "--score", "spec=0.9400"]


def invoke(*args):
    result = CliRunner().invoke(cli.app, ["consistency", *args], env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def refused(*args):
    """The one stderr line of a refused call (exit code 2, nothing on stdout)."""
    result = invoke(*args)
    assert (result.exit_code, result.stdout) == (2, ""), result.stdout
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("benchtrust: error: "), result.stderr
    return lines[0].removeprefix("benchtrust: error: ")


@pytest.fixture
def uneven(tmp_path):
    path = tmp_path / "folds.csv"
    path.write_text(UNEVEN, encoding="utf-8")
    return path


def test_json_is_the_library_result_micro():
    """Micro F1 over stratified folds: the CLI prints check_multiclass_kfold's to_dict, nothing else."""
    result = invoke(*IRIS, "--average", "micro", "--folding", "stratified", "--score", "f1=0.9533", "--json")
    assert result.exit_code == 0 and result.stderr == ""
    expected = check_multiclass_kfold(
        {"f1": "0.9533"}, class_counts=[50, 50, 50], folds=5, average="micro", folding="stratified"
    )
    assert json.loads(result.stdout) == expected.to_dict()
    assert expected.consistent and sum(expected.correct) == 143  # 0.9533 of 150 items: 143


def test_json_is_the_library_result_macro_with_a_file_of_folds(uneven):
    """The file's folds are the library's explicit folding; the same claim over stratified folds fails."""
    before = hashlib.sha256(uneven.read_bytes()).hexdigest()
    result = invoke(*IRIS, *MACRO, "--folding", str(uneven), "--json")
    assert result.exit_code == 0, result.stderr
    folds = [[20, 5, 5], [5, 20, 5], [5, 5, 20], [10, 10, 10], [10, 10, 10]]
    expected = check_multiclass_kfold(
        {"sens": "0.9000", "spec": "0.9400"},
        class_counts=[50, 50, 50],
        folds=5,
        average="macro",
        folding=folds,
    )
    out = json.loads(result.stdout)
    assert out == expected.to_dict()
    assert (out["consistent"], out["folding"], out["fold_counts"]) == (True, "explicit", folds)
    assert [[sum(row) for row in matrix] for matrix in out["matrices"]] == folds
    assert hashlib.sha256(uneven.read_bytes()).hexdigest() == before  # the input is only read
    stratified = json.loads(invoke(*IRIS, *MACRO, "--folding", "stratified", "--json").stdout)
    assert stratified["consistent"] is False  # equal class counts tie macro spec to sens: (1 + s)/2


def test_score_of_means_is_the_pooled_check():
    result = invoke(*IRIS[:-1], "som", "--average", "micro", "--score", "f1=0.9533", "--json")
    pooled = check_multiclass({"f1": "0.9533"}, class_counts=[50, 50, 50], average="micro")
    assert json.loads(result.stdout)["pooled"] == plain_data(pooled)  # a part: no cite, no version


def test_text_names_the_verdict(uneven):
    consistent = invoke(*IRIS, *MACRO, "--folding", str(uneven))
    assert consistent.exit_code == 0
    text = " ".join(consistent.stdout.split())
    assert "5-fold cross-validation of 3 classes of 50, 50, 50 items" in text
    assert "consistent: with folds of class counts 20 5 5; 5 20 5" in text
    assert "fold 5:" in text
    inconsistent = invoke(*IRIS, "--average", "micro", "--score", "f1=0.9500")  # 142.5 of 150
    words = " ".join(inconsistent.stdout.split())
    assert inconsistent.exit_code == 0 and "inconsistent: no numbers of correctly classified" in words


def test_report_writes_the_section(tmp_path):
    page = tmp_path / "r.html"
    result = invoke(*IRIS, "--average", "micro", "--score", "f1=0.9500", "--json", "--report", str(page))
    assert result.exit_code == 0 and f"report written to {page}" in result.stderr
    assert json.loads(result.stdout)["consistent"] is False
    html = page.read_text(encoding="utf-8")
    assert html.count('<section class="analysis"') == 1
    assert "benchtrust consistency multiclass</p>" in html and "§4.3-4.4" in html
    assert "Inconsistent: no numbers of correctly classified items" in html


@pytest.mark.parametrize(
    "option",
    [
        ("--repeats", "2"),
        ("--aggregation", "mos"),
        ("--folding", "stratified"),
        ("--zero-division", "0"),
        ("--max-configurations", "10"),
        ("--max-states", "100"),
    ],
)
def test_fold_options_need_folds(option):
    message = refused(
        "multiclass", "--class-counts", "4,4,4", "--average", "micro", "--score", "f1=0.5", *option
    )
    assert message == f"{option[0]}: describes the folds; give --folds K too, or leave it out"


def test_one_test_set_options_and_the_aggregation_with_folds():
    base = [*IRIS[:-2], "--average", "micro", "--score", "f1=0.9533"]
    assert refused(*base).startswith("--aggregation is required: mean_of_scores")
    assert refused(*base, "--aggregation", "mean").startswith(
        "--aggregation: expected mean_of_scores or score_of_means or mos or som, got 'mean'"
    )
    assert refused(*IRIS, "--average", "micro", "--score", "f1=0.9", "--examples", "3").startswith(
        "--examples:"
    )
    message = refused(*IRIS, *MACRO, "--zero-division", "nan")
    assert message == "--zero-division: expected 0 or 1 or skip or any, got 'nan'"
    assert refused(*IRIS, *MACRO, "--folding", " ").startswith("--folding: expected stratified, unknown or")


# --- the file of folds --------------------------------------------------------------------------------------

HEADER = "a,b,c\n"


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        (HEADER + "2,2,1\n2,x,2\n", "line 3, column 'b'", "expected a whole number >= 0, got 'x'"),
        (HEADER + "2,2,1\n2,1,-2\n", "line 3, column 'c'", "expected a whole number >= 0, got '-2'"),
        (HEADER + "2,2,1.5\n2,1,2\n", "line 2, column 'c'", "expected a whole number >= 0, got '1.5'"),
        (HEADER + "2,,1\n2,1,2\n", "line 2, column 'b'", "empty, expected a whole number"),
        (HEADER + "2,2,1\n2,1\n", "line 3", "2 fields, but the header (line 1) names 3 classes"),
        (HEADER + "2,2,1\n0,0,0\n", "line 3", "a fold with no items (every class count is 0)"),
        ("# folds\n\n1,2,3\n2,2,1\n", "line 3", "expected a header line naming the classes"),
        ("a,b,A\n2,2,1\n2,1,2\n", "line 1", "columns 'a' and 'A' differ only in case; rename one"),
        ("a,,c\n2,2,1\n2,1,2\n", "line 1, column 2", "empty, expected the name of a class"),
        ("a,b\n4,3\n", "line 1", "2 columns, expected one per class: 3 (--class-counts=4,3,3)"),
        (
            HEADER + "2,2,1\n1,1,1\n1,0,1\n",
            "",
            "3 folds (lines 2-4), expected 2, one line per fold (--folds=2)",
        ),
        (HEADER + "2,2,1\n2,1,1\n", "column 'c'", "the folds hold 2 items of this class, expected 3"),
        (HEADER, "", "no folds below the header (line 1)"),
        ("", "", "empty; expected a header line"),
    ],
    ids=[
        "not-a-number",
        "negative",
        "fraction",
        "empty-cell",
        "short-line",
        "empty-fold",
        "no-header",
        "same-name",
        "empty-name",
        "columns",
        "rows",
        "sums",
        "no-folds",
        "empty-file",
    ],
)
def test_a_bad_file_of_folds_is_one_line_naming_its_place(tmp_path, text, where, what):
    path = tmp_path / "folds.csv"
    path.write_text(text, encoding="utf-8")
    args = ["multiclass", "--class-counts", "4,3,3", "--folds", "2", "--aggregation", "mos", *MACRO]
    message = refused(*args, "--folding", str(path))
    assert message.startswith(f"{path}, {where}: " if where else f"{path}: "), message
    assert what in message
    assert path.read_text(encoding="utf-8") == text


def test_a_missing_file_of_folds(tmp_path):
    missing = tmp_path / "nowhere.csv"
    assert refused(*IRIS, *MACRO, "--folding", str(missing)) == f"{missing}: no such file"
    assert refused(*IRIS, *MACRO, "--folding", str(tmp_path)) == f"{tmp_path}: is a folder, expected a file"


def test_the_reader_takes_what_the_claims_tables_take(tmp_path):
    """Tab-separated, a byte-order mark, comments and blank lines; the counts in file order."""
    path = tmp_path / "folds.tsv"
    path.write_bytes(b"\xef\xbb\xbf# iris\nsetosa\tversicolor\tvirginica\n\n10\t10\t10\n 40 \t40\t40\n")
    assert read_class_folds(path) == [[10, 10, 10], [40, 40, 40]]
    assert read_class_folds(path, class_counts=[50, 50, 50], folds=2) == [[10, 10, 10], [40, 40, 40]]
    with pytest.raises(
        InputError, match=r"column 'virginica': the folds hold 50 items .*class_counts=50,50,49"
    ):
        read_class_folds(path, class_counts=[50, 50, 49])


# --- the report config --------------------------------------------------------------------------------------


def test_the_config_entry_dispatches_on_folds(tmp_path, uneven):
    config = tmp_path / "audit.yaml"
    entry = "{analysis: consistency multiclass, class_counts: [50, 50, 50], average: macro, "
    entry += "scores: {sens: '0.9000', spec: '0.9400'}"
    config.write_text(
        "analyses:\n"
        f"  - {entry}, folds: 5, aggregation: mos, folding: {uneven.name}}}\n"
        f"  - {entry}, folds: 5, aggregation: mos, folding: stratified}}\n",
        encoding="utf-8",
    )
    _, (by_file, stratified) = run_config(config)
    assert by_file.verdict.startswith("Consistent: with folds of class counts 20 5 5")
    assert (by_file.inputs, stratified.inputs) == ((uneven.name,), ())  # the file, as the config names it
    assert stratified.verdict.startswith("Inconsistent")
    config.write_text(f"analyses:\n  - {entry}, zero_division: '0'}}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"\(consistency multiclass\): zero_division: describes the folds"):
        run_config(config)
    config.write_text(f"analyses:\n  - {entry}, folds: 5, examples: 2}}\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"examples: lists the solutions of one test set"):
        run_config(config)


def test_the_fold_keys_are_those_the_kfold_check_adds():
    one, folds = (set(inspect.signature(f).parameters) for f in (check_multiclass, check_multiclass_kfold))
    assert set(MULTICLASS_FOLD_KEYS) == folds - one
