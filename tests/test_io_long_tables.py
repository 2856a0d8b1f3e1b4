"""The two readers of a long table (benchtrust._io.long_table_of): line by line (read_table) and column by
column (_LongTable, for files of at least COLUMNAR_BYTES bytes) give the same scores and the same messages.

Each input is read twice by read_task_scores: once with the columnar reading forced (COLUMNAR_BYTES = 0),
once with it off; both results, or both error messages, must be equal. The inputs cover what the line
reader accepts or refuses: delimiters, a byte-order mark, CRLF, blank and comment lines, quoted fields,
blanks around cells, short and long lines, bad cells, repeated runs and missing pairs.
"""

import numpy as np
import pytest

import benchtrust._io as io
from benchtrust import InputError
from benchtrust.compare import read_task_scores

CLEAN = "method,task,run,score\nA,x,1,0.5\nA,x,2,0.25\nB,x,1,0.125\nB,x,2,1e-3\nA,y,1,0.75\nB,y,1,0.3\n"

#: (name, file bytes): every one read by both readers.
INPUTS = {
    "clean": CLEAN,
    "no final line break": CLEAN.rstrip("\n"),
    "blank lines at the end": CLEAN + "\n  \n\n",
    "crlf": CLEAN.replace("\n", "\r\n"),
    "cr alone": CLEAN.replace("\n", "\r"),
    "bom": "\ufeff" + CLEAN,
    "semicolons": CLEAN.replace(",", ";"),
    "tabs": CLEAN.replace(",", "\t"),
    "comment and blank lines before the header": "# scores\n\n  \n" + CLEAN,
    "a blank line in the body": CLEAN.replace("A,y,1", "\nA,y,1"),
    "a line of delimiters in the body": CLEAN.replace("A,y,1", ",,,\nA,y,1"),
    "a line of delimiters and blanks in the body": CLEAN.replace("A,y,1", " , ,\t, \nA,y,1"),
    "a line of tabs and blanks in a tsv": CLEAN.replace(",", "\t").replace("A\ty", " \t\t \t\u3000\nA\ty"),
    "a comment line in the body": CLEAN.replace("A,y,1", "# note\nA,y,1"),
    "quoted fields": CLEAN.replace("A,x,1", '"A","x","1"'),
    "a quoted delimiter": CLEAN.replace("A,y,1", '"A,y",y,1'),
    "a quoted line break": CLEAN.replace("A,y,1", '"A\ny",y,1'),
    "a bad quote": CLEAN.replace("A,y,1", '"A"y,y,1'),
    "an open quote": CLEAN + '"A,z,1,0.5\n',
    "quoted header": CLEAN.replace("method,task", '"method","task"', 1),
    "every name quoted": "\n".join(
        ",".join(f'"{c}"' if k < 3 else c for k, c in enumerate(line.split(",")))
        for line in CLEAN.splitlines()
    ),
    "a doubled quote": CLEAN.replace("A,y,1", '"A ""best""",y,1'),
    "a quote inside a field": CLEAN.replace("A,y,1", 'A"b,y,1'),
    "a quoted score": CLEAN.replace("0.3", '"0.3"'),
    "a quoted empty method": CLEAN.replace("B,y,1", '"",y,1'),
    "a quoted blank record": CLEAN.replace("A,y,1", '"","","",""\nA,y,1'),
    "a blank before a quote": CLEAN.replace("A,y,1", ' "A",y,1'),
    "a blank after a quote": CLEAN.replace("A,y,1", '"A" ,y,1'),
    "blanks around cells": CLEAN.replace("A,x,2,0.25", " A , x\t, 2 ,  0.25 "),
    "unicode blanks around names": CLEAN.replace("B,y,1", "\u00a0B\u2003,y,1"),
    "extra column": CLEAN.replace("\n", ",z\n").replace("score,z", "score,extra"),
    "runs as text and as numbers": CLEAN.replace("A,x,2", "A,x,02").replace("B,x,2", "B,x,10"),
    "runs as text": CLEAN.replace(",1,", ",r1,").replace(",2,", ",r2,"),
    "names that look like numbers": CLEAN.replace("A,", "1,").replace("x,", "1.0,"),
    "names that look missing": CLEAN.replace("A,", "NA,").replace("x,", "nan,"),
    "a long line": CLEAN.replace("B,x,1,0.125", "B,x,1,0.125,9"),
    "a short line": CLEAN.replace("B,x,1,0.125", "B,x,0.125"),
    "a long and a short line": CLEAN.replace("B,x,1,0.125", "B,x,1,0.125,9").replace("A,y,1,", "A,y,"),
    "a line of blanks alone in the body": CLEAN.replace("A,y,1", "   \nA,y,1"),
    "an empty method": CLEAN.replace("B,y,1", ",y,1"),
    "a blank task": CLEAN.replace("B,y,1", "B, ,1"),
    "an empty run": CLEAN.replace("B,y,1", "B,y,"),
    "an empty score": CLEAN.replace("0.3", ""),
    "a text score": CLEAN.replace("0.3", "abc"),
    "a decimal comma": CLEAN.replace("0.3", "0;3").replace(",", ";").replace("0;3", "0,3"),
    "nan score": CLEAN.replace("0.3", "nan"),
    "NA score": CLEAN.replace("0.3", "NA"),
    "infinite score": CLEAN.replace("0.3", "inf"),
    "an overflowing score": CLEAN.replace("0.3", "1e400"),
    "an underscore in a score": CLEAN.replace("0.3", "0.3_0"),
    "a hexadecimal score": CLEAN.replace("0.3", "0x1"),
    "scores at the edges": CLEAN.replace("0.3", "4.9e-324").replace(
        "0.125", "0.1000000000000000055511151231257827"
    ),
    "a repeated run": CLEAN.replace("B,y,1,0.3", "B,y,1,0.3\nB,y,1,0.4"),
    "a method without a task": CLEAN.replace("B,y,1,0.3\n", ""),
    "no rows": "method,task,run,score\n",
    "no rows but blank lines": "method,task,run,score\n\n\n",
    "a numeric header": CLEAN.replace("method,task,run,score", "1,2,3,4"),
    "no column score": CLEAN.replace("score", "value", 1),
    "a column named twice": CLEAN.replace("run,score", "score,score", 1),
    "columns differing in case": CLEAN.replace("run", "Method", 1),
    "a NUL character": CLEAN.replace("0.3", "0.3\0"),
    "one column": "score\n0.5\n0.25\n",
    "empty": "",
    "blank lines only": "\n \n# x\n",
}
#: Inputs that are not UTF-8 text.
BINARY = {
    "not utf-8 in the body": CLEAN.encode().replace(b"0.3", b"0.3\xff"),
    "not utf-8 in a column not read": CLEAN.replace("score\n", "score,note\n")
    .replace("5\n", "5,a\n")
    .replace("3\n", "3,b\n")
    .replace("1\n", "1,c\n")
    .encode()
    .replace(b",a\n", b",\xe9\n"),
    "not utf-8 before the header": b"# caf\xe9\n" + CLEAN.encode(),
}
#: The same inputs with a fold column.
FOLDS = {
    "folds": "method,task,run,fold,score\n"
    + "".join(f"{m},{t},{r},{f},0.{r}{f}\n" for m in "AB" for t in "xy" for r in (1, 2) for f in (1, 2)),
    "a repeated run and fold": "method,task,run,fold,score\nA,x,1,1,0.5\nA,x,1,1,0.6\nB,x,1,1,0.4\n",
    "no fold column": CLEAN,
    "no fold column and an empty method": CLEAN.replace("B,y,1", ",y,1"),
}


def _read(path, columnar, monkeypatch, **options):
    monkeypatch.setattr(io, "COLUMNAR_BYTES", 0 if columnar else 10**18)
    try:
        return read_task_scores(path, direction="higher", **options)
    except InputError as error:
        return str(error)


def _same(a, b):
    """Both readers' results, or their messages, are equal: names, scores to the bit, run labels."""
    facts = [
        s if isinstance(s, str) else (repr(s), s.methods, s.tasks, s.missing, s.folds, s.run_labels.tolist())
        for s in (a, b)
    ]
    assert facts[0] == facts[1]
    if not isinstance(a, str):
        assert (a.raw_scores.tobytes(), a.scores.tobytes()) == (b.raw_scores.tobytes(), b.scores.tobytes())


@pytest.mark.parametrize("name", list(INPUTS) + list(BINARY))
def test_both_readers_give_the_same_scores_or_the_same_message(name, tmp_path, monkeypatch):
    path = tmp_path / "scores.csv"
    data = BINARY.get(name)
    path.write_bytes(data if data is not None else INPUTS[name].encode())
    _same(_read(path, True, monkeypatch), _read(path, False, monkeypatch))


@pytest.mark.parametrize("name", FOLDS)
def test_both_readers_agree_with_a_fold_column(name, tmp_path, monkeypatch):
    path = tmp_path / "scores.csv"
    path.write_text(FOLDS[name], encoding="utf-8")
    for options in ({"fold_column": "fold"}, {"fold_column": "fold", "normalise": "minmax"}):
        _same(_read(path, True, monkeypatch, **options), _read(path, False, monkeypatch, **options))


@pytest.mark.parametrize(
    "options", [{"task_column": "method"}, {"run_column": "score"}, {"normalise": "minmax"}]
)
def test_both_readers_agree_when_a_column_is_read_twice_or_normalised(options, tmp_path, monkeypatch):
    path = tmp_path / "scores.csv"
    path.write_text(CLEAN, encoding="utf-8")
    _same(_read(path, True, monkeypatch, **options), _read(path, False, monkeypatch, **options))


@pytest.mark.parametrize(
    "name",
    ["clean", "no final line break", "blank lines at the end", "crlf", "bom", "tabs", "extra column",
     "quoted fields", "a quoted delimiter", "quoted header", "every name quoted", "a doubled quote",
     "a quoted score", "a quoted empty method",
     "comment and blank lines before the header", "blanks around cells", "unicode blanks around names",
     "names that look like numbers", "names that look missing", "runs as text and as numbers",
     "scores at the edges", "an empty method", "a repeated run", "a method without a task"],
)  # fmt: skip
def test_the_columnar_reader_reads_clean_files_itself(name, tmp_path, monkeypatch):
    # these are read column by column, not handed to the line reader: their messages are the columnar
    # reader's own (named lines included)
    path = tmp_path / "scores.csv"
    path.write_text(INPUTS[name], encoding="utf-8")
    monkeypatch.setattr(io, "COLUMNAR_BYTES", 0)
    table = io.long_table_of(path, example="")
    assert isinstance(table, io._LongTable)
    header = [table.column(c) for c in ("method", "task", "run", "score")]
    assert table.load(header[:3], header[3:]) is table
    monkeypatch.setattr(io, "read_table", None)  # the line reader is not called
    _same(_read(path, True, monkeypatch), _read_line_by_line(path, monkeypatch))


def _read_line_by_line(path, monkeypatch):
    monkeypatch.undo()
    return _read(path, False, monkeypatch)


@pytest.mark.parametrize(
    "name",
    [
        "cr alone",
        "a blank line in the body",
        "a quoted line break",
        "a bad quote",
        "an open quote",
        "a quoted blank record",
        "a blank after a quote",
        "a short line",
        "a NUL character",
    ],
)
def test_files_the_columnar_reader_does_not_take(name, tmp_path, monkeypatch):
    path = tmp_path / "scores.csv"
    path.write_text(INPUTS[name], encoding="utf-8", newline="")
    monkeypatch.setattr(io, "COLUMNAR_BYTES", 0)
    assert io._LongTable.open(path, example="", what="") is None


def test_small_blocks_and_a_long_table(tmp_path, monkeypatch):
    # blocks of a few lines and rows: lines cut across blocks, codes carried across blocks, a name
    # first seen late, a run label repeated in another block
    rng = np.random.default_rng(1)
    rows = [f"m{rng.integers(5)},t{rng.integers(7)},{k},{rng.random()!r}" for k in range(800)]
    rows.insert(700, "late,t0,1,0.5")
    path = tmp_path / "scores.csv"
    path.write_text("method,task,run,score\n" + "\n".join(rows), encoding="utf-8")
    monkeypatch.setattr(io, "_SCAN_BYTES", 100)
    monkeypatch.setattr(io, "_CHUNK_ROWS", 29)
    columnar = _read(path, True, monkeypatch)
    assert isinstance(columnar, str)  # methods lack some tasks: the same message from both
    _same(columnar, _read(path, False, monkeypatch))
    rows = [f"m{i},t{j},{k},{(i + j + k) / 100!r}" for i in range(4) for j in range(5) for k in range(30)]
    path.write_text("method,task,run,score\n" + "\n".join(rng.permutation(rows)), encoding="utf-8")
    _same(_read(path, True, monkeypatch), _read(path, False, monkeypatch))


def test_scores_are_read_to_the_bit(tmp_path, monkeypatch):
    # long decimals (17 to 30 digits, halfway cases among them) and subnormals: pandas' parser must round
    # as float does
    rng = np.random.default_rng(2)
    digits = ["".join(map(str, rng.integers(0, 10, int(n)))) for n in rng.integers(17, 31, 600)]
    scores = [f"0.{d}" for d in digits] + [
        f"0.{d}e-{k}" for d, k in zip(digits[:24], range(300, 324), strict=True)
    ]
    scores += ["0.30000000000000004", "0.1000000000000000055511151231257827", "2.2250738585072011e-308"]
    scores += ["2.4703282292062328e-324", "4.9406564584124654e-324", "0.99999999999999994448884876874217"]
    rows = [f"m{k % 2},t{k // 2 % 3},{k},{score}" for k, score in enumerate(scores)]
    path = tmp_path / "scores.csv"
    path.write_text("method,task,run,score\n" + "\n".join(rows) + "\n", encoding="utf-8")
    columnar, lines = _read(path, True, monkeypatch), _read(path, False, monkeypatch)
    assert not isinstance(columnar, str)
    _same(columnar, lines)


def test_small_files_stay_on_the_line_reader(tmp_path):
    path = tmp_path / "scores.csv"
    path.write_text(CLEAN, encoding="utf-8")
    assert io.COLUMNAR_BYTES > 10**6
    assert isinstance(io.long_table_of(path, example=""), io._Table)
