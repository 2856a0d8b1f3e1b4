"""``consistency kfold --fold-sizes`` (issue 29): folds of any sizes, the verdict naming the folds it is
about, and every mistake in the new options one line and exit code 2."""

import json

import pytest
from typer.testing import CliRunner

from benchtrust import cli

# GroupKFold(2) on 2 positives and 4 negatives, groups of 4 and 2 items (issue 29).
GROUP_KFOLD = [
    *("consistency", "kfold", "--positives", "2", "--negatives", "4", "--folds", "2", "--aggregation", "mos"),
    *("--score", "acc=0.8750", "--score", "sens=1.0000", "--score", "spec=0.8333", "--score", "bacc=0.9167"),
]


def invoke(*args):
    result = CliRunner().invoke(cli.app, list(args), env={"COLUMNS": "200", "TERMINAL_WIDTH": "200"})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_the_default_verdict_names_near_equal_folds_and_the_way_out():
    result = invoke(*GROUP_KFOLD)
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "inconsistent: no split into 2 folds of near-equal size (3 items each" in text
    assert "cannot come from this experiment" not in text
    assert "GroupKFold" in text and "fold_sizes" in text
    data = json.loads(invoke(*GROUP_KFOLD, "--json").stdout)
    assert data["consistent"] is False and data["fold_sizes"] == "equal" and data["partial"] is False


@pytest.mark.parametrize("sizes", [["--fold-sizes", "4,2"], ["--fold-sizes", "2,4"], ["--fold-sizes", "any"]])
def test_the_fold_sizes_of_the_split_make_it_consistent(sizes):
    data = json.loads(invoke(*GROUP_KFOLD, *sizes, "--json").stdout)
    assert data["consistent"] is True
    assert data["fold_sizes"] == ("any" if sizes[1] == "any" else [[4, 2]])
    configuration = data["evidence"]["configuration"]
    assert sorted(p + n for p, n in configuration) == [2, 4]
    text = " ".join(invoke(*GROUP_KFOLD, *sizes).stdout.split())
    assert "fold sizes" in text and text.count("consistent:") == 1


def test_partial_folds_of_a_time_series_split():
    """TimeSeriesSplit(3) of 12 items tests 3 folds of 3: 0.7778 and 0.3333 fit only partial folds."""
    args = [
        *("consistency", "kfold", "--positives", "3", "--negatives", "9", "--folds", "3"),
        *("--aggregation", "mos", "--score", "acc=0.7778", "--score", "sens=0.3333"),
    ]
    data = json.loads(invoke(*args, "--fold-sizes", "3,3,3", "--partial-folds", "--json").stdout)
    assert data["consistent"] is True and data["partial"] is True
    assert sum(p + n for p, n in data["evidence"]["configuration"]) == 9


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--fold-sizes", "4,3"], "--fold-sizes: the folds hold 7 items, the data set 6"),
        (["--fold-sizes", "3,2"], "need --partial-folds"),
        (["--fold-sizes", "4,0"], "--fold-sizes: expected a positive whole number, got 0"),
        (["--fold-sizes", "1,1,4"], "--fold-sizes: expected 2 whole numbers >= 1, one per fold"),
        (["--fold-sizes", "4,x"], "--fold-sizes: expected a number, got 'x'"),
        (["--fold-sizes", "any", "--fold-sizes", "4,2"], "--fold-sizes: any stands alone"),
        (["--partial-folds"], "--partial-folds: folds covering part of the data set need their sizes"),
        (["--fold-sizes", "4,2", "--folding", "stratified"], "--fold-sizes: describes the folds"),
        (["--fold-sizes", "any", "--max-configurations", "1"], "more than --max-configurations=1"),
        (["--max-work", "0"], "--max-work: expected a positive whole number"),
    ],
)
def test_mistakes_are_one_line_naming_the_option(extra, words):
    result = invoke(*GROUP_KFOLD, *extra)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], result.stderr


def test_max_work_stops_undecided_never_inconsistent():
    """10-fold KFold of 48 positives and 115 negatives with a fold without positives (issue 29): the
    paper's 261,638 configurations fail the balanced-accuracy identity at once; a search stopped by
    --max-work says undecided and why, in the text and the JSON, with a count for the progress bar."""
    args = [
        *("consistency", "kfold", "--positives", "48", "--negatives", "115", "--folds", "10"),
        *("--aggregation", "mos", "--score", "acc=0.9206", "--score", "sens=0.8089"),
        *("--score", "spec=0.9291", "--score", "bacc=0.9159"),
    ]
    for work in ("1", "40"):
        data = json.loads(invoke(*args, "--max-work", work, "--json").stdout)
        assert data["consistent"] is None and "max_work" in data["undecided"]
        assert data["configurations"]["paper"] == 261_638
        assert data["configurations"]["beyond"] == int(work)
    text = " ".join(invoke(*args, "--max-work", "40").stdout.split())
    assert "undecided: the search stopped after deciding 40 fold configurations" in text
    assert "inconsistent" not in text
