"""Writing over a read-only file is refused, with exit 2 and one line, rather than done by renaming a new
file over it (which a read-only file does not prevent) (issue 19, §7), with ``--force`` too (issue 29, §3)."""

import os
import stat

import pytest
from typer.testing import CliRunner

from benchtrust import InputError, cli
from benchtrust._report.html import write_report
from benchtrust._write import write_atomic

RUNS = "algorithm,seed,score\n" + "".join(
    f"A,{k},{0.9 + k / 1000}\nB,{k},{0.89 + k / 900}\n" for k in range(12)
)
CLAIMS = "id,positives,negatives,acc\na,10,20,0.9\n"
CONFIG = (
    'analyses:\n  - {analysis: consistency test-set, positives: 10, negatives: 20, scores: {acc: "0.9"}}\n'
)
RESULTS = "data,method,fold,acc\n" + "".join(
    f"d{d},m{m},{f},{0.7 + 0.05 * ((3 * d + 5 * m + f) % 4):.2f}\n"
    for d in range(4)
    for m in range(3)
    for f in range(2)
)
SPEC = """\
columns: {dataset: data, method: method, iteration: fold}
measures: {acc: {better: higher, random: 0.5}}
choices: {aggregation: {default: mean, options: [mean, median]}}
"""
TEST_SET = ["consistency", "test-set", "--positives", "10", "--negatives", "20", "--score", "acc=0.9"]
BEST_OF = ["sota", "best-of", "--classifiers", "10", "--test-size", "100", "--accuracy", "0.8"]

#: (arguments, the read-only target, its option): ``{folder}`` holds the inputs and the target.
CASES = {
    "report --out": (["report", "{folder}/config.yaml", "--out", "{target}"], "page.html", "--out"),
    "--report": ([*TEST_SET, "--report", "{target}"], "page.html", "--report"),
    "--plot": ([*BEST_OF, "--plot", "{target}"], "fig.png", "--plot"),
    "batch --out": (
        ["consistency", "batch", "{folder}/claims.csv", "--out", "{target}"],
        "verdicts.csv",
        None,
    ),
    "multiverse --out": (
        ["multiverse", "run", "{folder}/results.csv", "--spec", "{folder}/spec.yaml", "--out", "{folder}/mv"],
        "mv/rankings.csv",
        None,
    ),
}


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["", "force"])
@pytest.mark.parametrize("case", sorted(CASES))
def test_a_read_only_output_is_refused_and_left_as_it_was(case, force, tmp_path):
    args, name, option = CASES[case]
    for file, text in (
        ("config.yaml", CONFIG),
        ("claims.csv", CLAIMS),
        ("results.csv", RESULTS),
        ("spec.yaml", SPEC),
    ):
        (tmp_path / file).write_text(text, encoding="utf-8")
    target = tmp_path / name
    target.parent.mkdir(exist_ok=True)
    target.write_text("the user's file", encoding="utf-8")
    os.chmod(target, 0o444)
    args = [*(arg.format(folder=tmp_path, target=target) for arg in args), *force]
    result = CliRunner().invoke(cli.app, args)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"benchtrust: error: {option or ''}")
    assert result.stderr.endswith(
        f"cannot write {target}: the file is read-only (make it writable, or write another file)\n"
    )
    assert target.read_text(encoding="utf-8") == "the user's file"
    assert stat.S_IMODE(target.stat().st_mode) == 0o444
    assert not [path.name for path in tmp_path.rglob("*") if ".tmp" in path.name]  # no temporary file


@pytest.mark.parametrize(
    "write",
    [lambda path: write_atomic(path, "new"), lambda path: write_report([], path)],
    ids=["file", "report"],
)
def test_the_library_refuses_too(write, tmp_path):
    target = tmp_path / "kept.html"
    target.write_text("mine", encoding="utf-8")
    os.chmod(target, 0o400)
    with pytest.raises(InputError, match="the file is read-only"):
        write(target)
    assert target.read_text(encoding="utf-8") == "mine"
    assert [path.name for path in tmp_path.iterdir()] == ["kept.html"]
    os.chmod(target, 0o600)  # writable again: replaced as before
    write(target)
    assert target.read_text(encoding="utf-8") != "mine"
