"""Every result explains itself: ``result.verdict`` is the sentence the command prints and the report shows,
and ``str(result)`` is the command's readable output when the command adds nothing of its own.

The words live in each subpackage's ``_text.py``; the CLI and the report only lay them out.
"""

import numpy as np
import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.compare import error_rates, history
from benchtrust.consistency import check_batch, check_kfold, check_multiclass, check_test_set
from benchtrust.multiverse import study
from benchtrust.sota import best_of, bundled_leaderboard, leaderboard

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
SPEC = """\
columns: {dataset: data, method: learner, iteration: fold}
measures:
  acc: {better: higher, random: 0.5}
choices:
  measure: {default: acc, options: [acc]}
  aggregation: {default: mean, options: [mean, median, mean_rank]}
"""


def words(text: str) -> str:
    """`text` with its line breaks and runs of spaces as single spaces (wrapping undone)."""
    return " ".join(text.split())


def printed(command: str, *args) -> str:
    """The readable output of ``benchtrust COMMAND ARGS``, run in-process (`command` split at spaces)."""
    result = CliRunner().invoke(cli.app, [*command.split(), *args], env=WIDE)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def claims(tmp_path):
    path = tmp_path / "claims.csv"
    path.write_text(
        "id,positives,negatives,acc,sens,spec\nreal,40,70,0.8636,0.7500,0.9286\ntypo,40,70,0.8636,0.7500,0.9486\n",
        encoding="utf-8",
    )
    return path


def test_test_set_verdict_is_printed_and_reported():
    scores = {"acc": "0.8967", "sens": "0.85", "ppv": "0.8416"}
    result = check_test_set(scores, positives=100, negatives=200)
    assert result.verdict.startswith("consistent: 1 confusion matrix")
    shown = printed(
        "consistency test-set --positives 100 --negatives 200",
        *[f"--score={name}={value}" for name, value in scores.items()],
    )
    assert str(result) + "\n" == shown
    assert words(result.verdict) in words(shown)
    assert result.section().verdict == "C" + result.verdict[1:]


def test_kfold_and_multiclass_verdicts_are_printed_and_reported():
    kfold = check_kfold({"acc": "0.95"}, positives=38, negatives=262, folds=5, aggregation="score_of_means")
    shown = printed(
        "consistency kfold --positives 38 --negatives 262 --folds 5 --aggregation som --score acc=0.95"
    )
    assert str(kfold) + "\n" == shown
    assert kfold.section().verdict == "C" + kfold.verdict[1:]
    multiclass = check_multiclass({"f1": "0.80"}, class_counts=[10, 20, 30], average="micro")
    shown = printed("consistency multiclass --class-counts 10,20,30 --average micro --score f1=0.80")
    assert str(multiclass) + "\n" == shown
    assert multiclass.section().verdict == "C" + multiclass.verdict[1:]


def test_batch_verdict_and_text(claims):
    result = check_batch(claims)
    assert result.verdict == (
        "1 claim is inconsistent: its scores cannot come from the experiment described (a certain conclusion "
        "about integers, not a statistical test)."
    )
    assert str(result) + "\n" == printed("consistency batch", str(claims))
    assert words(result.section().verdict) == result.verdict


def test_best_of_verdict_is_the_reports():
    result = best_of(0.9, classifiers=1000, test_size=3000)
    assert result.section().verdict == result.verdict
    assert "expected at 0.9173" in result.verdict
    assert words(result.verdict) in words(str(result))
    shown = printed("sota best-of --classifiers 1000 --test-size 3000 --accuracy 0.9")
    assert str(result) + "\n" == shown


def test_leaderboard_verdict_is_printed_and_reported():
    result = leaderboard(
        bundled_leaderboard(), test_size=209, direction="higher", classes=2, max_plausible=0.999
    )
    paragraphs = result.verdict.split("\n\n")
    assert paragraphs[0].startswith("The observed best 0.9952 is within the range that luck alone produces")
    section = result.section()
    assert [section.verdict, *section.notes] == paragraphs
    assert words(result.verdict) in words(str(result))


def test_error_rates_and_history_explain_themselves():
    rates = error_rates(0.01, runs=10, simulations=60, seed=1, probabilities=[0.3, 0.9])
    shown = printed(
        "compare error-rates --sigma 0.01 --runs 10 --simulations 60 --seed 1 --probabilities 0.3,0.9"
    )
    assert str(rates) + "\n" == shown
    assert rates.section().verdict == rates.verdict
    assert rates.verdict.startswith("At the edges of the regions (false positives at P(A > B) = 0.5")
    found = history(["2015-01-01", "2016-01-01", "2017-01-01"], [0.90, 0.93, 0.931], test_size=1000)
    assert found.verdict.startswith("1 of 2 results improve on the best before them")
    assert words(found.verdict) in words(str(found))
    assert found.section().verdict == found.verdict


def test_to_dict_holds_no_verdict_it_did_not_hold_before():
    # the JSON the command prints is unchanged: the words are not added to to_dict()
    result = check_test_set({"acc": "0.9"}, positives=10, negatives=10)
    assert "verdict" not in result.to_dict()


def test_multiverse_study_explains_itself(tmp_path):
    rng = np.random.default_rng(1)
    lines = ["data,learner,fold,acc"]
    for d in range(4):
        for m, skill in enumerate([0.70, 0.75, 0.80]):
            lines += [f"d{d},m{m},{fold},{skill + rng.normal(0, 0.05):.4f}" for fold in range(3)]
    results, spec = tmp_path / "results.csv", tmp_path / "spec.yaml"
    results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spec.write_text(SPEC, encoding="utf-8")
    result = study(results, spec)
    assert result.verdict.endswith("unless the choices were fixed before the results were seen.")
    assert result.section().verdict == result.verdict
    shown = printed("multiverse run", str(results), "--spec", str(spec), "--out", str(tmp_path / "out"))
    # the command names what it studied and the files it wrote; the rest is str(result)
    head, _, rest = str(result).partition(" (")
    assert head == "multiverse"
    assert " ".join(shown.split()).startswith(f"multiverse of {results} (")  # however it wraps
    assert words(rest) in words(shown)
    assert "wrote" not in str(result)
