"""``benchtrust compare outperform | sample-size | error-rates | history`` (Bouthillier et al. 2021).

The JSON of each command against the library called directly (the library's correctness is tested in
tests/compare/), the readable output, pairing by a column, plots written atomically, and every bad input:
exit code 2, one line on stderr.
"""

import dataclasses
import json

import pytest
from typer.testing import CliRunner

from benchtrust import InputError, cli, compare
from benchtrust.compare import error_rates, history, probability_of_outperforming, runs_needed, sample_size

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
PNG = b"\x89PNG\r\n\x1a\n"

# Runs of two algorithms on 8 seeds, written in an order that differs between A and B.
A = {1: 0.91, 2: 0.93, 3: 0.90, 4: 0.94, 5: 0.92, 6: 0.95, 7: 0.91, 8: 0.93}
B = {1: 0.90, 2: 0.91, 3: 0.91, 4: 0.92, 5: 0.90, 6: 0.93, 7: 0.91, 8: 0.92}
HISTORY = "date,score\n2015-01-01,0.90\n2016-02-01,0.93\n2017-03-01,0.935\n2018-06-01,0.95\n"


def invoke(*args):
    """Invoke ``benchtrust compare ARGS`` in-process; fail on any unexpected exception."""
    result = CliRunner().invoke(cli.app, ["compare", *args], env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def run_json(*args):
    result = invoke(*args, "--json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def run_text(*args):
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    return result.stdout


@pytest.fixture
def runs_file(tmp_path):
    lines = ["algorithm,seed,score"]
    lines += [f"lr,{seed},{score}" for seed, score in A.items()]
    lines += [f"rf,{seed},{score}" for seed, score in reversed(B.items())]
    lines += ["nb,1,0.85", "nb,2,0.86"]
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def history_file(tmp_path):
    path = tmp_path / "history.csv"
    path.write_text(HISTORY, encoding="utf-8")
    return path


# --- outperform ---------------------------------------------------------------------------------------------


def test_outperform_paired_by_a_column_as_json(runs_file):
    out = run_json("outperform", str(runs_file), "--a", "lr", "--b", "rf", "--pair-by", "seed")
    expected = probability_of_outperforming(list(A.values()), list(B.values()), names=("lr", "rf"))
    assert out == {**expected.to_dict(), "pair_by": "seed"}
    assert out["n_pairs"] == 8 and out["paired"] is True
    assert (out["a"], out["b"], out["pair_by"], out["runs_a"], out["runs_b"]) == ("lr", "rf", "seed", 8, 8)
    # the order the command always had, then what every result adds
    assert list(out)[-7:] == ["a", "b", "runs_a", "runs_b", "pair_by", "cite", "benchtrust_version"]


def test_outperform_unpaired_is_seeded_random_pairing(runs_file):
    base = ["outperform", str(runs_file), "--a", "lr", "--b", "rf"]
    out = run_json(*base, "--seed", "3")
    b_in_file_order = [B[seed] for seed in reversed(B)]
    expected = probability_of_outperforming(list(A.values()), b_in_file_order, paired=False, seed=3)
    assert out["p_a_beats_b"] == expected.p_a_beats_b and out["ci"] == list(expected.ci)
    assert out["paired"] is False and out["pair_by"] is None
    assert run_json(*base, "--seed", "3") == out  # reproducible
    default = run_json(*base)  # seed 0 by default
    zero = probability_of_outperforming(list(A.values()), b_in_file_order, paired=False, seed=0)
    assert default["p_a_beats_b"] == zero.p_a_beats_b


def test_outperform_options_reach_the_library(runs_file):
    args = ["outperform", str(runs_file), "--a", "rf", "--b", "lr", "--pair-by", "seed"]
    out = run_json(*args, "--gamma", "0.6", "--alpha", "0.1", "--direction", "lower", "--resamples", "500")
    order = list(reversed(B))  # the pairs follow A's runs, here rf's, in the file's order
    expected = probability_of_outperforming(
        [B[seed] for seed in order],
        [A[seed] for seed in order],
        gamma=0.6,
        alpha=0.1,
        direction="lower",
        resamples=500,
        seed=0,
        names=("rf", "lr"),
    )
    assert out == {**expected.to_dict(), "pair_by": "seed"}


def test_outperform_refuses_resamples_above_max_memory_naming_it(runs_file, tmp_path, refuses):
    args = ["outperform", str(runs_file), "--a", "lr", "--b", "rf", "--resamples", "1000"]
    refuses(invoke, [*args, "--max-memory", "15999"], "--max-memory=1.6e+04: --resamples=1,000 ", tmp_path)
    assert invoke(*args, "--max-memory", "16000").exit_code == 0  # 16 bytes a resample: within the bound


def test_outperform_with_unequal_runs_unpaired(runs_file):
    out = run_json("outperform", str(runs_file), "--a", "lr", "--b", "nb")
    assert out["n_pairs"] == 2 and out["runs_a"] == 8 and out["runs_b"] == 2


def test_outperform_readable_output(runs_file):
    text = run_text("outperform", str(runs_file), "--a", "lr", "--b", "rf", "--pair-by", "seed")
    result = probability_of_outperforming(list(A.values()), list(B.values()))
    assert "Bouthillier et al. 2021 §4.1, C.4-C.6" in text
    assert "lr: 8 runs" in text and "rf: 8 runs" in text
    assert "8, paired by 'seed' (C.2)" in text
    assert f"{result.wins}, {result.ties}, {result.losses}" in text
    assert f"P(A > B)            {result.p_a_beats_b:.4f}" in text
    assert f"[{result.ci[0]:.4f}, {result.ci[1]:.4f}]" in text
    assert " ".join(result.conclusion.split()) in " ".join(text.split())
    unpaired = run_text("outperform", str(runs_file), "--a", "lr", "--b", "nb")
    assert "paired at random with seed 0 (C.4); 6 extra runs left out" in unpaired
    named = probability_of_outperforming(list(A.values()), list(B.values()), names=("lr", "rf"))
    assert text == str(dataclasses.replace(named, pair_by="seed", source=str(runs_file))) + "\n"


def test_outperform_columns_named_by_the_user(tmp_path):
    lines = ["Model;Split;Accuracy"]
    lines += [f"lr;{seed};{score}" for seed, score in A.items()]
    lines += [f"rf;{seed};{score}" for seed, score in B.items()]
    path = tmp_path / "runs.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ["outperform", str(path), "--a", "lr", "--b", "rf", "--pair-by", "split"]
    out = run_json(*args, "--algorithm-column", "model", "--score-column", "ACCURACY")
    expected = probability_of_outperforming(list(A.values()), list(B.values()), names=("lr", "rf"))
    assert out == {**expected.to_dict(), "pair_by": "Split"}
    result = invoke(*args)
    assert result.exit_code == 2
    assert "line 1: no column 'algorithm'; found 'Model', 'Split', 'Accuracy'" in result.stderr
    result = invoke(*args, "--algorithm-column", "model", "--score-column", "top1")
    assert result.exit_code == 2 and "no column 'top1'" in result.stderr


def test_history_columns_named_by_the_user(tmp_path):
    path = tmp_path / "history.csv"
    path.write_text(HISTORY.replace("date,score", "published,top1"), encoding="utf-8")
    columns = ["--date-column", "Published", "--score-column", "top1"]
    out = run_json("history", str(path), "--sigma", "0.005", *columns)
    expected = history(
        ["2015-01-01", "2016-02-01", "2017-03-01", "2018-06-01"], [0.90, 0.93, 0.935, 0.95], sigma=0.005
    )
    assert out == json.loads(json.dumps(expected.to_dict()))
    result = invoke("history", str(path), "--sigma", "0.005")
    assert result.exit_code == 2 and "history.csv, line 1: no column 'date'" in result.stderr


# --- sample-size --------------------------------------------------------------------------------------------


def test_sample_size_of_the_paper():
    assert run_json("sample-size").items() >= {"runs": 29, "gamma": 0.75, "alpha": 0.05, "beta": 0.05}.items()
    assert run_json("sample-size", "--gamma", "0.75", "--alpha", "0.05", "--beta", "0.05")["runs"] == 29


def test_sample_size_options_reach_the_library():
    assert run_json("sample-size", "--gamma", "0.6", "--beta", "0.2")["runs"] == sample_size(0.6, beta=0.2)


def test_sample_size_readable():
    text = " ".join(run_text("sample-size").split())
    assert text.startswith("29 runs of each pipeline")
    assert "\N{GREEK SMALL LETTER GAMMA} = 0.75" in text and "C.3" in text


def test_sample_size_prints_the_result_of_runs_needed(tmp_path):
    result = runs_needed(0.6, beta=0.2)
    assert result.runs == sample_size(0.6, beta=0.2)
    assert run_text("sample-size", "--gamma", "0.6", "--beta", "0.2") == str(result) + "\n"
    assert run_json("sample-size", "--gamma", "0.6", "--beta", "0.2") == result.to_dict()
    report = tmp_path / "runs.html"
    assert invoke("sample-size", "--gamma", "0.6", "--beta", "0.2", "--report", str(report)).exit_code == 0
    assert result.verdict.replace("'", "&#39;").replace(">", "&gt;") in report.read_text(encoding="utf-8")


# --- error-rates --------------------------------------------------------------------------------------------

ERR = ["error-rates", "--sigma", "0.01"]
ERROR_RATES = [*ERR, "--probabilities", "0.4,0.5,0.9", "--simulations", "300"]


def test_error_rates_as_json():
    out = run_json(
        *ERROR_RATES, "--seed", "1", "--runs", "20", "--conditional-sd", "0.008", "--bias-sd", "0.004"
    )
    expected = error_rates(
        0.01,
        runs=20,
        conditional_sd=0.008,
        bias_sd=0.004,
        probabilities=[0.4, 0.5, 0.9],
        simulations=300,
        seed=1,
    )
    assert out == json.loads(json.dumps(expected.to_dict()))


def test_error_rates_readable():
    text = run_text(*ERROR_RATES, "--seed", "1")
    result = error_rates(0.01, probabilities=[0.4, 0.5, 0.9], simulations=300, seed=1)
    assert "Fig. 6" in text and "ideal estimator" in text
    rates = result.rates["probability_of_outperforming"]["ideal"]
    assert f"0.900     {result.rates['single_point']['ideal'][2]:.3f}" in text
    assert f"{rates[2]:.3f}" in text
    assert "false positive" in text and "false negative" in text


def test_error_rates_plot_is_written_atomically(tmp_path):
    target = tmp_path / "fig6.png"
    result = invoke(*ERROR_RATES, "--seed", "1", "--plot", str(target), "--json")
    assert result.exit_code == 0
    assert result.stderr == f"plot written to {target}\n"
    json.loads(result.stdout)
    assert target.read_bytes().startswith(PNG)
    assert [path.name for path in tmp_path.iterdir()] == ["fig6.png"]  # no temporary file left


# --- history ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [["--sigma", "0.005"], ["--test-size", "10000", "--alpha", "0.1"]])
def test_history_as_json(history_file, options):
    out = run_json("history", str(history_file), *options)
    dates = ["2015-01-01", "2016-02-01", "2017-03-01", "2018-06-01"]
    scores = [0.90, 0.93, 0.935, 0.95]
    named = {
        options[k].lstrip("-").replace("-", "_"): float(options[k + 1]) for k in range(0, len(options), 2)
    }
    if "test_size" in named:
        named["test_size"] = int(named["test_size"])
    expected = history(dates, scores, **named)
    assert out == json.loads(json.dumps(expected.to_dict()))


def test_history_readable(history_file):
    text = run_text("history", str(history_file), "--sigma", "0.005")
    result = history(
        ["2015-01-01", "2016-02-01", "2017-03-01", "2018-06-01"], [0.90, 0.93, 0.935, 0.95], sigma=0.005
    )
    assert "Fig. 3" in text and "2017-03-01" in text
    assert f"{int(result.significant.sum())} of 3 results improve" in " ".join(text.split())
    assert f"{result.thresholds[1]:.4f}" in text
    assert text.startswith(f"history of {history_file} (")
    assert text == str(history(str(history_file), sigma=0.005)) + "\n"


def test_history_plot_is_written_atomically(history_file, tmp_path):
    target = tmp_path / "fig3.png"
    result = invoke("history", str(history_file), "--sigma", "0.005", "--plot", str(target))
    assert result.exit_code == 0
    assert "plot written to" in result.stdout
    assert target.read_bytes().startswith(PNG)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["fig3.png", "history.csv"]


# --- bad input ----------------------------------------------------------------------------------------------


def outperform(*extra):
    return ["outperform", "{runs}", "--a", "lr", "--b", "rf", *extra]


@pytest.mark.parametrize(
    ("args", "named"),
    [
        ([*outperform()[:-1], "svm"], "no runs of algorithm 'svm'; the algorithms in the file are 'lr',"),
        (["outperform", "{runs}", "--a", "lr"], "--b NAME is required"),
        (["outperform", "{runs}", "--a", "lr", "--b", "lr"], "--a and --b both name 'lr'"),
        (["outperform", "{few}", "--a", "lr", "--b", "rf"], "algorithm 'rf' has 1 run"),
        (outperform("--pair-by", "split"), "no column 'split' to pair the runs by"),
        (outperform("--gamma", "0.5"), "--gamma: expected a value strictly between 0.5 and 1, got '0.5'"),
        (outperform("--gamma", "1.2"), "--gamma: expected a value strictly between 0.5 and 1"),
        (outperform("--gamma", "high"), "--gamma: expected a number, got 'high'"),
        (outperform("--alpha", "0"), "--alpha: expected a value strictly between 0 and 1"),
        (outperform("--resamples", "0"), "--resamples: expected a positive whole number"),
        (outperform("--resamples", "40"), "--resamples: a 95% percentile interval needs at least 41"),
        (outperform("--resamples", "200", "--alpha", "0.01"), "needs at least 201 resamples"),
        ([*ERR, "--simulations", "59"], "--simulations: error rates to compare with"),
        ([*ERR, "--simulations", "299", "--alpha", "0.01"], "need at least 300 simulations"),
        (outperform("--seed", "-1"), "--seed: expected a whole number >= 0"),
        (outperform("--direction", "up"), "--direction: expected one of 'higher', 'lower', got 'up'"),
        (["outperform", "{noscore}", "--a", "lr", "--b", "rf"], "line 1: no column 'score'"),
        (["outperform", "{text}", "--a", "lr", "--b", "rf"], "line 3, column 'score': 'high' is not"),
        (["outperform", "{missing}", "--a", "lr", "--b", "rf"], "missing.csv: no such file"),
        (["sample-size", "--gamma", "0.4"], "--gamma: expected a value strictly between 0.5 and 1"),
        (["sample-size", "--beta", "1"], "--beta: expected a value strictly between 0 and 1"),
        (["error-rates"], "--sigma S is required"),
        (["error-rates", "--sigma", "-1"], "--sigma: expected a positive number"),
        ([*ERR, "--bias-sd", "0.1"], "--conditional-sd and --bias-sd go together"),
        ([*ERR, "--probabilities", "0.4,,0.9"], "--probabilities: expected numbers"),
        ([*ERR, "--probabilities", "0.4,1.5"], "--probabilities: expected a value in (0, 1]"),
        ([*ERR, "--runs", "2.5"], "--runs: expected a positive whole number"),
        ([*ERR, "--runs", "1"], "--runs: expected at least 2 runs of each algorithm, got 1"),
        ([*ERR, "--plot", "{folder}/no/f.png"], "--plot: cannot write"),
        ([*ERR, "--plot", "{folder}/f.xyz"], "'.xyz' is not an image format"),
        (["history", "{history}"], "give --sigma S"),
        (["history", "{history}", "--sigma", "0.01", "--test-size", "100"], "not both"),
        (["history", "{history}", "--test-size", "ten"], "--test-size: expected a number, got 'ten'"),
        (["history", "{baddate}", "--sigma", "0.01"], "line 3, column 'date': 'soon' is not a date"),
        (["history", "{above}", "--test-size", "100"], "above.csv: scores: with test_size, expected"),
        (["history", "{history}", "--sigma", "0.01", "--plot", "{folder}/no/f.png"], "--plot: cannot write"),
    ],
)  # fmt: skip
def test_bad_input_is_refused_in_one_line(refuses, runs_file, history_file, tmp_path, args, named):
    files = {
        "few": "algorithm,score\nlr,0.9\nlr,0.8\nrf,0.7\n",
        "noscore": "algorithm,seed\nlr,1\n",
        "text": "algorithm,score\nlr,0.9\nlr,high\nrf,0.7\nrf,0.8\n",
        "baddate": "date,score\n2019-01-01,0.9\nsoon,0.91\n",
        "above": "date,score\n2019-01-01,0.9\n2020-01-01,1.5\n",
    }
    paths = {"runs": str(runs_file), "history": str(history_file), "folder": str(tmp_path)}
    paths["missing"] = str(tmp_path / "missing.csv")
    for name, text in files.items():
        (tmp_path / f"{name}.csv").write_text(text, encoding="utf-8")
        paths[name] = str(tmp_path / f"{name}.csv")
    filled = [arg.format(**paths) for arg in args]
    refuses(invoke, filled, named, tmp_path)


def test_unequal_pairs_name_the_missing_value(refuses, tmp_path):
    path = tmp_path / "runs.csv"
    path.write_text("algorithm,seed,score\nA,1,0.9\nA,2,0.8\nB,1,0.7\nB,3,0.6\n", encoding="utf-8")
    args = ["outperform", str(path), "--a", "A", "--b", "B", "--pair-by", "seed"]
    refuses(invoke, args, "runs.csv, line 3: seed '2' has a run of 'A' but none of 'B'", tmp_path)


def test_help_lists_the_commands():
    result = CliRunner().invoke(cli.app, ["compare", "--help"], env=WIDE)
    assert result.exit_code == 0
    for name in ("outperform", "sample-size", "error-rates", "history"):
        assert name in result.stdout


def test_scores_are_not_modified(runs_file):
    before = runs_file.read_bytes()
    run_json("outperform", str(runs_file), "--a", "lr", "--b", "rf", "--pair-by", "seed")
    assert runs_file.read_bytes() == before


def test_through_python_m(tmp_path):
    """The installed entry point: JSON on stdout; a bad input gives one line on stderr and exit code 2."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "benchtrust", "compare", "sample-size", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, json.loads(done.stdout)["runs"], done.stderr) == (0, 29, "")
    missing = str(tmp_path / "runs.csv")
    failed = subprocess.run(
        [sys.executable, "-m", "benchtrust", "compare", "outperform", missing, "--a", "x", "--b", "y"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert failed.returncode == 2 and failed.stdout == ""
    assert failed.stderr == f"benchtrust: error: {missing}: no such file\n"


# --- the old spelling of the direction ----------------------------------------------------------------------


def test_the_old_spelling_lower_is_better_still_works_and_says_so(runs_file, history_file):
    """``lower_is_better=True`` is ``direction="lower"`` with a DeprecationWarning naming ``direction=``,
    in every function that took it, and ``--lower-is-better`` is ``--direction lower`` with a note."""
    a, b = list(A.values()), list(B.values())
    calls = [
        (compare.probability_of_outperforming, (a, b), {}),
        (compare.outperform, (str(runs_file),), {"a": "lr", "b": "rf", "pair_by": "seed"}),
        (compare.single_point, (a[0], b[0]), {}),
        (compare.average_difference, (a, b), {}),
        (compare.t_test, (a, b), {}),
        (compare.pairwise, ({"lr": a, "rf": b},), {}),
        (compare.better_everywhere, ({"d": a},), {"runs_b": {"d": b}}),
        (compare.history, (str(history_file),), {"sigma": 0.005}),
    ]
    for function, args, options in calls:
        with pytest.warns(DeprecationWarning, match="direction=") as caught:
            old = function(*args, **options, lower_is_better=True)
        assert caught[0].filename == __file__, function.__name__  # the warning points at the caller
        assert old.to_dict() == function(*args, **options, direction="lower").to_dict(), function.__name__
        if hasattr(old, "direction"):
            assert old.direction == "lower" and old.lower_is_better
    with pytest.warns(DeprecationWarning, match="direction="):
        study = compare.Study(lambda *_: 0.5, data_size=10, sources=("split",), lower_is_better=True)
    assert study.direction == "lower" and study.lower_is_better
    with (
        pytest.raises(InputError, match="lower_is_better: expected True or False"),
        pytest.warns(DeprecationWarning),
    ):
        compare.t_test(a, b, lower_is_better="yes")
    with pytest.raises(InputError, match="contradicts direction='lower'"), pytest.warns(DeprecationWarning):
        compare.t_test(a, b, direction="lower", lower_is_better=False)
    for command in (
        ["outperform", str(runs_file), "--a", "lr", "--b", "rf", "--pair-by", "seed"],
        ["history", str(history_file), "--sigma", "0.005"],
    ):
        old = invoke(*command, "--lower-is-better", "--json")
        assert old.exit_code == 0 and old.stdout == invoke(*command, "--direction", "lower", "--json").stdout
        assert old.stderr == "note: --lower-is-better is deprecated; use --direction lower\n"
        assert "--lower-is-better" not in invoke(command[0], "--help").stdout
