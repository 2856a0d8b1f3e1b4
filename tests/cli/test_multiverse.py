"""``benchtrust multiverse run | example`` (Nießl et al. 2022), with the permutation test and the
subsamples of the data sets (Fig. 6).

The JSON against the library called directly (the library is tested in tests/multiverse/ and
tests/papers/), the files written into --out, the readable output, and every bad input: exit code 2, one
line on stderr naming the file and the place, nothing written.
"""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.multiverse import bundled_orders, bundled_study, study

WIDE = {"COLUMNS": "200", "TERMINAL_WIDTH": "200"}
PNG = b"\x89PNG\r\n\x1a\n"
WRITTEN = [
    "default_distances.csv",
    "default_distances.png",
    "impact.csv",
    "rank_distribution.csv",
    "rank_distribution.png",
    "rankings.csv",
    "stepwise.csv",
    "stepwise.png",
    "unfolding.csv",
    "unfolding.png",
]
SUBSAMPLE = ["subsample.csv", "subsample.png"]
SPEC = """\
columns: {dataset: data, method: learner, iteration: fold}
measures:
  acc: {better: higher, random: 0.5}
  brier: {better: lower, random: 0.25, failed_values: [0]}
choices:
  datasets:
    default: all
    options:
      all: {rule: all}
      small: {rule: below_median, characteristic: n}
      large: {rule: at_or_above_median, characteristic: n}
  measure: {default: acc, options: [acc, brier]}
  imputation:
    default: threshold
    options: {threshold: {rule: threshold, threshold: 0.2}, mean: {rule: mean}}
  aggregation: {default: mean, options: [mean, median, mean_rank]}
"""


def invoke(*args):
    """Invoke ``benchtrust multiverse ARGS`` in-process; fail on any unexpected exception."""
    result = CliRunner().invoke(cli.app, ["multiverse", *args], env=WIDE)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


@pytest.fixture
def files(tmp_path):
    """A results file of 4 methods on 4 data sets with 3 folds, some failed, its spec and characteristics."""
    rng = np.random.default_rng(1)
    lines = ["data,learner,fold,acc,brier"]
    for d in range(4):
        for m, skill in enumerate([0.70, 0.75, 0.80, 0.72]):
            for fold in range(1, 4):
                acc = "" if (d + m + fold) % 7 == 0 else f"{skill + rng.normal(0, 0.03):.4f}"
                lines.append(f"d{d},m{m},{fold},{acc},{0.25 - skill / 5 + rng.normal(0, 0.01):.4f}")
    results = tmp_path / "results.csv"
    results.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC, encoding="utf-8")
    characteristics = tmp_path / "datasets.csv"
    characteristics.write_text("data,n\nd0,100\nd1,200\nd2,300\nd3,400\n", encoding="utf-8")
    return results, spec, characteristics


def test_run_writes_the_tables_and_figures_and_prints_the_json(files, tmp_path):
    results, spec, characteristics = files
    out = tmp_path / "out"
    args = [str(results), "--spec", str(spec), "--characteristics", str(characteristics), "--out", str(out)]
    result = invoke("run", *args, "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    expected = study(results, spec, characteristics=characteristics).to_dict()
    assert shown == json.loads(json.dumps(expected))
    assert shown["combinations"] == 3 * 2 * 2 * 3
    assert shown["methods"] == ["m0", "m1", "m2", "m3"]
    assert set(shown["rank_range"]) == {"m0", "m1", "m2", "m3"}
    assert {"stress", "penalized_stress", "iterations"} <= set(shown["unfolding"])
    assert sorted(p.name for p in out.iterdir()) == WRITTEN
    assert (out / "unfolding.png").read_bytes().startswith(PNG)
    header = (out / "rankings.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header == "datasets,measure,imputation,aggregation,method,value,rank"


def test_run_prints_a_readable_summary(files, tmp_path):
    results, spec, characteristics = files
    out = tmp_path / "out"
    args = [str(results), "--spec", str(spec), "--characteristics", str(characteristics), "--out", str(out)]
    result = invoke("run", *args)
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "36 combinations" in text and "Nießl et al. 2022" in text
    assert "changing one choice only:" in text
    assert "penalized stress" in text
    assert f"wrote 10 files to {out}" in text
    assert "(Fig. 5): datasets: median" in text


def test_run_with_orders_and_permutations_writes_the_subsample_and_the_test(files, tmp_path):
    results, spec, characteristics = files
    out = tmp_path / "out"
    args = [str(results), "--spec", str(spec), "--characteristics", str(characteristics), "--out", str(out)]
    result = invoke("run", *args, "--random-orders", "5", "--seed", "3", "--permutations", "4", "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["permutation_test"]["permutations"] == 4
    assert shown["subsample"]["orders"] == 5 and shown["subsample"]["measure"] == "acc"
    assert {"stress", "iterations"} <= set(shown["subsample"]["unfolding"])
    written = sorted(p.name for p in out.iterdir())
    assert written == sorted([*WRITTEN, *SUBSAMPLE, "permutation_test.csv"])
    table = (out / "subsample.csv").read_text(encoding="utf-8").splitlines()
    assert table[0].startswith("kind,rep,nrdatasets,m0,") and table[0].endswith(",dim1,dim2,method")
    assert len(table) == 1 + shown["subsample"]["rankings"] + 4  # the rankings, then the 4 methods


def test_several_subsample_measures_each_write_their_files(files, tmp_path, refuses):
    """--subsample-measure all (every measure of the spec, the default first; here as acc,brier): a
    subsample per measure, the first as ``subsample``, the other as ``subsample_brier`` (files and JSON)."""
    from benchtrust.multiverse import study_files

    results, spec, characteristics = files
    args = [
        str(results),
        "--spec",
        str(spec),
        "--characteristics",
        str(characteristics),
        "--random-orders",
        "4",
    ]
    out = tmp_path / "all"
    result = invoke("run", *args, "--subsample-measure", "all", "--out", str(out), "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    brier = ["subsample_brier.csv", "subsample_brier.png"]
    assert sorted(p.name for p in out.iterdir()) == sorted([*WRITTEN, *SUBSAMPLE, *brier])
    named = study_files(spec, subsample=True, subsample_measure="acc,brier")
    assert named == study_files(spec, subsample=True, subsample_measure="all")
    assert sorted(named) == sorted(p.name for p in out.iterdir())
    first, other = shown["subsample"], shown["subsample_brier"]
    assert (first["measure"], other["measure"]) == ("acc", "brier")
    assert first["rankings"] == other["rankings"] and "unfolding" in other
    bad = ["run", *args, "--out", str(tmp_path / "bad"), "--subsample-measure"]
    refuses(invoke, [*bad, "acc,acc"], "measures named once each", tmp_path)
    refuses(invoke, [*bad, "acc,nope"], "'nope' is not a measure", tmp_path)


def test_orders_and_random_orders_exclude_each_other(files, tmp_path, refuses):
    results, spec, _ = files
    args = ["run", str(results), "--spec", str(spec), "--out", str(tmp_path / "o")]
    refuses(invoke, [*args, "--orders", "x.csv", "--random-orders", "3"], "give one of them", tmp_path)
    refuses(invoke, [*args, "--permutations", "-1"], "--permutations: expected 0 or more", tmp_path)


def test_example_reproduces_the_paper_and_matches_the_library(tmp_path):
    result = invoke("example", "--out", str(tmp_path / "herrmann"), "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["combinations"] == 288 and len(shown["methods"]) == 13
    assert shown["rank_range"]["Kaplan-Meier"] == [3.0, 13.0]
    library = study(**bundled_study(), orders=bundled_orders(), subsample_measure="all").to_dict()
    assert shown == json.loads(json.dumps(library))
    # Fig. 6 by the default measure, Fig. S3 by the cindex
    assert shown["subsample"]["rankings"] == shown["subsample_cindex"]["rankings"] == 774
    assert (shown["subsample"]["measure"], shown["subsample_cindex"]["measure"]) == ("ibrier", "cindex")
    cindex = ["subsample_cindex.csv", "subsample_cindex.png"]
    assert sorted(p.name for p in (tmp_path / "herrmann").iterdir()) == sorted(
        [*WRITTEN, *SUBSAMPLE, *cindex]
    )


def test_json_is_identical_on_repeated_runs(files, tmp_path):
    results, spec, characteristics = files
    args = [str(results), "--spec", str(spec), "--characteristics", str(characteristics), "--json"]
    first = invoke("run", *args, "--out", str(tmp_path / "a")).stdout
    second = invoke("run", *args, "--out", str(tmp_path / "b")).stdout
    assert first == second
    assert isinstance(json.loads(first), dict)
    for name in WRITTEN:
        if name.endswith(".csv"):
            assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@pytest.mark.parametrize(
    ("change", "named"),
    [
        (
            lambda r, s: s.write_text(SPEC.replace("data, method", "dataset, method"), encoding="utf-8"),
            "no column 'dataset'",
        ),
        (
            lambda r, s: s.write_text(SPEC.replace("rule: all", "rule: everything"), encoding="utf-8"),
            "line 9 (choices.datasets.options.all.rule): unknown datasets rule 'everything'",
        ),
        (
            lambda r, s: s.write_text(SPEC.replace("  measure: {", "  metric: {"), encoding="utf-8"),
            "unknown option family 'metric'",
        ),
        (
            lambda r, s: s.write_text(SPEC + "methods: [m0, m9]\n", encoding="utf-8"),
            "method 'm9' has no results in",
        ),
        (
            lambda r, s: s.write_text(
                SPEC.replace("options: [acc, brier]}", "options: [acc, brier]"), encoding="utf-8"
            ),
            "not valid YAML",
        ),
        (
            lambda r, s: r.write_text(
                r.read_text(encoding="utf-8").replace("d2,m1,2,", "d2,m1,2,abc"), encoding="utf-8"
            ),
            "column 'acc': 'abc",
        ),
    ],
    ids=[
        "missing-column",
        "unknown-rule",
        "unknown-family",
        "method-without-results",
        "malformed-yaml",
        "not-a-number",
    ],
)
def test_bad_input_is_one_line_naming_the_place(files, tmp_path, refuses, change, named):
    results, spec, characteristics = files
    change(results, spec)
    out = tmp_path / "out"
    args = [str(results), "--spec", str(spec), "--characteristics", str(characteristics), "--out", str(out)]
    refuses(invoke, ["run", *args], named, tmp_path)
    assert not out.exists()


def test_missing_characteristics_says_which_option_needs_them(files, tmp_path, refuses):
    results, spec, _ = files
    args = ["run", str(results), "--spec", str(spec), "--out", str(tmp_path / "out")]
    refuses(invoke, args, "choices.datasets.options.small): characteristic 'n'", tmp_path)


@pytest.mark.parametrize(
    ("leave_out", "named"), [("--spec", "--spec SPEC.yaml is required"), ("--out", "--out DIR is required")]
)
def test_required_options(files, tmp_path, refuses, leave_out, named):
    results, spec, characteristics = files
    given = {"--spec": str(spec), "--characteristics": str(characteristics), "--out": str(tmp_path / "o")}
    given.pop(leave_out)
    refuses(invoke, ["run", str(results), *[x for pair in given.items() for x in pair]], named, tmp_path)


def test_missing_results_file(files, tmp_path, refuses):
    spec = files[1]
    args = ["run", str(tmp_path / "nope.csv"), "--spec", str(spec), "--out", str(tmp_path / "o")]
    refuses(invoke, args, "nope.csv: no such file", tmp_path)


def test_run_is_told_the_columns_of_the_characteristics_and_the_orders(files, tmp_path, refuses):
    results, spec, characteristics = files
    characteristics.write_text("name,n\nd0,100\nd1,200\nd2,300\nd3,400\n", encoding="utf-8")
    orders = tmp_path / "orders.csv"
    orders.write_text("order,a,b,c,d\nx,d0,d1,d2,d3\ny,d3,d2,d1,d0\n", encoding="utf-8")
    args = ["run", str(results), "--spec", str(spec), "--characteristics", str(characteristics)]
    named = ["--characteristics-dataset-column", "name", "--orders", str(orders)]
    named += ["--orders-label-column", "order"]
    result = invoke(*args, *named, "--out", str(tmp_path / "out"), "--json")
    assert result.exit_code == 0, result.stderr
    shown = json.loads(result.stdout)
    expected = study(
        results,
        spec,
        characteristics=characteristics,
        characteristics_dataset_column="name",
        orders=orders,
        orders_label_column="order",
    )
    assert shown == json.loads(json.dumps(expected.to_dict()))
    assert shown["subsample"]["orders"] == 2
    refuses(invoke, [*args, "--out", str(tmp_path / "o")], "no column 'data' naming the data sets", tmp_path)
    unnamed = [*args, *named[:2], "--orders", str(orders), "--out", str(tmp_path / "o")]
    refuses(invoke, unnamed, "5 position column(s)", tmp_path)


def test_run_writes_a_report_naming_its_inputs(files, tmp_path):
    results, spec, characteristics = files
    report = tmp_path / "report.html"
    args = [str(results), "--spec", str(spec), "--characteristics", str(characteristics)]
    options = ["--random-orders", "2", "--out", str(tmp_path / "out"), "--report", str(report)]
    result = invoke("run", *args, *options)
    assert result.exit_code == 0, result.stderr
    page = report.read_text(encoding="utf-8")
    assert "Would the ranking survive other reasonable design and analysis choices?" in page
    assert f"Inputs: {results}, {spec}, {characteristics}</p>" in page
    assert "Subsamples of the data sets (Fig. 6): " in page and "<svg" in page


@pytest.fixture
def ranks(tmp_path):
    """Ranks of 4 objects by 6 judges: two groups that rank alike."""
    path = tmp_path / "ranks.csv"
    path.write_text("A,B,C,D\n1,2,3,4\n2,1,3,4\n1,3,2,4\n4,3,1,2\n4,3,2,1\n3,4,1,2\n", encoding="utf-8")
    return path


def test_unfold_prints_the_fit_as_the_library_says_it(ranks):
    from benchtrust.multiverse import unfold

    result = invoke("unfold", str(ranks))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == str(unfold(ranks)) + "\n"
    assert "Unconditional unfolding in 2 dimensions" in result.stdout


def test_unfold_json_gives_the_options(ranks):
    result = invoke("unfold", str(ranks), "--json", "--dimensions", "1", "--conditionality", "row")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["conditionality"] == "row" and np.shape(data["row_points"]) == (6, 1)
    assert data["column_labels"] == ["A", "B", "C", "D"]


def test_unfold_json_gives_the_transformation_and_the_ties(ranks):
    for options in (["--transformation", "interval", "--ties", "secondary"], ["--transformation", "RATIO"]):
        result = invoke("unfold", str(ranks), "--json", "--max-iterations", "20", *options)
        assert result.exit_code == 0, result.stderr
        data = json.loads(result.stdout)
        expected = ("interval", "secondary") if "interval" in options else ("ratio", "primary")
        assert (data["transformation"], data["ties"]) == expected


def test_unfold_reads_the_row_labels_from_the_column_named(tmp_path, refuses):
    path = tmp_path / "named.csv"
    path.write_text("judge,A,B,C,D\nann,1,2,3,4\nbob,2,1,3,4\ncy,4,3,1,2\ndee,4,3,2,1\n", encoding="utf-8")
    result = invoke("unfold", str(path), "--row-labels", "judge", "--json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["row_labels"] == ["ann", "bob", "cy", "dee"] and data["column_labels"] == ["A", "B", "C", "D"]
    refuses(
        invoke, ("unfold", str(path), "--row-labels", "name"), f"{path}, line 1: no column 'name'", tmp_path
    )
    refuses(invoke, ("unfold", str(path)), "if column 'judge' labels the rows", tmp_path)
    assert "(--row-labels)" in invoke("unfold", str(path)).stderr


def test_unfold_stops_at_max_iterations_and_says_so(ranks):
    data = json.loads(invoke("unfold", str(ranks), "--json", "--max-iterations", "2").stdout)
    assert (data["iterations"], data["converged"]) == (2, False)


def test_unfold_writes_the_plot_and_the_report_and_refuses_them_again_without_force(ranks, tmp_path, refuses):
    plot, report = tmp_path / "map.png", tmp_path / "unfold.html"
    result = invoke("unfold", str(ranks), "--plot", str(plot), "--report", str(report))
    assert result.exit_code == 0, result.stderr
    assert plot.read_bytes().startswith(b"\x89PNG")
    page = report.read_text(encoding="utf-8")
    assert "benchtrust multiverse unfold" in page and "<svg" in page and "ranks.csv" in page
    refuses(invoke, ("unfold", str(ranks), "--plot", str(plot)), "--plot", tmp_path)
    assert invoke("unfold", str(ranks), "--plot", str(plot), "--force").exit_code == 0


@pytest.mark.parametrize(
    "option, value",
    [
        ("--dimensions", "4"),
        ("--dimensions", "0"),
        ("--conditionality", "column"),
        ("--transformation", "mspline"),
        ("--ties", "tertiary"),
        ("--penalty-strength", "1.5"),
        ("--penalty-range", "0"),
        ("--tolerance", "-1"),
        ("--max-iterations", "0"),
    ],
)
def test_unfold_bad_option_is_one_line_naming_it(ranks, tmp_path, refuses, option, value):
    refuses(invoke, ("unfold", str(ranks), option, value), option, tmp_path)
