"""``check_batch`` rows that ask which protocol fits (a ``protocols`` column; the audit of paper §5.1).

The DRIVE cases of benchmarks/MLSCORECHECK_FACTS.md ("Which protocol fits") give in a batch the per-protocol
verdicts of ``check_protocols`` called directly; the verdicts (undecided among them) are counted and shown
coherently in the text, HTML, CSV and JSON; bad cells are error rows naming line and column while the other
rows are checked; the command prints and writes them; honest rounded scores are never inconsistent.
"""

import json
import re

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from joblib import parallel_config
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust.consistency import check_batch, check_protocols, dataset, dataset_names
from benchtrust.consistency._batch_protocols import read_candidates

DRIVE = "drive/test/manual1/fov"
# MLSCORECHECK_FACTS.md: DRIVE test set, annotator 1, eps 1e-4; mlscorecheck's verdicts per region and
# aggregation (consistent ones listed).
SCORES = ("0.9557", "0.7761", "0.9792")  # acc, sens, spec
FACTS = {
    SCORES: {("fov", "mean_of_scores")},
    ("0.9494", "0.7450", "0.9793"): {("fov", "mean_of_scores"), ("fov", "score_of_means")},
}
FACTS_CELL = "region=fov|all;aggregation=mos|som"  # the paper's acronyms, spelled out in the rows
COLUMNS = ("id", "dataset", "positives", "negatives", "folds", "protocols", "eps", "rounding", "acc", "sens")
COLUMNS += ("spec", "f1")


def frame(*rows):
    """A claims table of `rows` (dicts of some of COLUMNS), every other cell empty."""
    return pd.DataFrame([{column: row.get(column, "") for column in COLUMNS} for row in rows])


def drive_row(scores, **cells):
    return {"dataset": DRIVE, **dict(zip(("acc", "sens", "spec"), scores, strict=True)), **cells}


def test_drive_facts_give_the_verdicts_of_check_protocols():
    # with eps, the rounding rule plays no part (as in the other rows)
    rows = [drive_row(scores, protocols=FACTS_CELL, eps="1e-4", rounding="round") for scores in FACTS]
    rows.append(drive_row(SCORES, protocols="ALL"))  # every protocol, ε by each rounding rule
    with parallel_config(backend="threading"):
        result = check_batch(frame(*rows), n_jobs=2)
    for row, scores in zip(result.rows, FACTS, strict=False):
        found = {(p["region"], p["aggregation"]) for p in row["protocols"] if p["verdict"] == "consistent"}
        assert found == FACTS[scores], scores
        named = dict(zip(("acc", "sens", "spec"), scores, strict=True))
        direct = check_protocols(
            named,
            dataset=DRIVE,
            eps=1e-4,
            candidates={"region": ["fov", "all"], "aggregation": ["mos", "som"]},
        )
        assert row["protocols"] == direct.to_dict()["rows"] and row["message"] == direct.verdict
        assert (row["check"], row["verdict"], row["consistent"]) == ("protocols", "consistent", True)
        assert row["detail"] == len(FACTS[scores])
    every = result.rows[2]
    direct = check_protocols(dict(zip(("acc", "sens", "spec"), SCORES, strict=True)), dataset=DRIVE)
    assert every["protocols"] == direct.to_dict()["rows"] and len(every["protocols"]) == 12
    assert every["detail"] == 2 and every["message"].startswith("consistent only with: field of view, mean")


def test_verdicts_are_counted_and_shown_coherently(tmp_path):
    claims = frame(
        drive_row(SCORES, id="fits", protocols="region=fov;aggregation=mos"),
        drive_row(SCORES, id="never", protocols="region=all", rounding="round"),
        {"id": "no k", "positives": 100, "negatives": 900, "protocols": "aggregation=mos", "acc": "0.95"},
        {"id": "plain", "positives": 100, "negatives": 200, "acc": "0.8967", "sens": "0.85"},
        drive_row(SCORES, id="bad", protocols="region=pixels"),
    )
    result = check_batch(claims)
    assert result.counts == {"consistent": 2, "inconsistent": 1, "undecided": 1, "error": 1}
    assert [row["verdict"] for row in result.rows] == [
        "consistent",
        "inconsistent",
        "undecided",
        "consistent",
        "error",
    ]
    undecided = result.rows[2]
    assert undecided["consistent"] is None and undecided["detail"] == 0
    assert {p["verdict"] for p in undecided["protocols"]} == {"undecided"}
    assert "give k" in undecided["protocols"][0]["evidence"]
    assert result.rows[1]["detail"] == 0 and len(result.rows[1]["protocols"]) == 3  # pooled, mos, som
    assert result.rows[4]["protocols"] == [] and "protocols" not in result.rows[3]
    assert "consistent=2, inconsistent=1, undecided=1, error=1" in repr(result)
    text = str(result)
    assert "5 rows, 2 consistent, 1 inconsistent, 1 undecided, 1 error" in text.splitlines()[0]
    assert "1 claim is undecided: no candidate protocol tried is consistent" in " ".join(text.split())
    assert re.search(r"\n  4 +no k +protocols +undecided +undecided: none of the 2 protocols", text)
    html = result._repr_html_()
    assert "1 claim is undecided" in html and "or each candidate protocol when it gives protocols" in html
    frame_ = result.to_frame()
    assert frame_["consistent"].isna().tolist() == [False, False, True, False, True]
    assert frame_["detail"].tolist()[:4] == [2, 0, 0, 1] and "protocols" not in frame_.columns
    data = json.loads(json.dumps(result.to_dict()))
    assert data["counts"] == result.counts and data["rows"][2]["protocols"] == undecided["protocols"]
    plain = check_batch(frame({"positives": 100, "negatives": 200, "acc": "0.8967"}))
    assert "1 rows, 1 consistent, 0 inconsistent, 0 error" in str(plain)  # undecided only when some are


BAD = [  # (cells of a DRIVE row, column named, message)
    ({"protocols": "region=pixels"}, "protocols", "region: expected fov|all or some of them, got 'pixels'"),
    (
        {"protocols": "pixels=fov"},
        "protocols",
        "unknown family 'pixels'; the families are region, aggregation",
    ),
    ({"protocols": "fov"}, "protocols", "expected all, or FAMILY=VALUE|VALUE;... such as region=fov|all"),
    ({"protocols": " ; "}, "protocols", "expected all, or FAMILY=VALUE"),
    ({"protocols": "region=fov;REGION=all"}, "protocols", "family 'region' given twice"),
    (
        {"protocols": "aggregation=mos||pooled"},
        "protocols",
        "aggregation: expected mean_of_scores|pooled|score_of_means or some of them, got ''",
    ),
    ({"protocols": "folding=stratified"}, "protocols", "folding: stratified or unknown folds apply to the"),
    ({"protocols": "rounding=round", "eps": "1e-4"}, "protocols", "rounding: with eps given, the rounding"),
    ({"protocols": "all", "rounding": "round;"}, "rounding", "expected round, floor-or-ceil, got 'round;'"),
    ({"protocols": "rounding=round", "rounding": "round"}, "rounding", "given here and in protocols; give"),
    (
        {"protocols": "all", "eps": "1e-4", "rounding": "floor"},
        "rounding",
        "expected round, floor-or-ceil, got",
    ),
    ({"protocols": "all", "folds": "3"}, "folds", "drive/test/manual1/fov has 20 images"),
    (
        {"protocols": "all", "positives": "5"},
        "positives",
        "given with dataset: give the name of the test set",
    ),
    ({"protocols": "all", "dataset": "drive/test"}, "dataset", "unknown test set 'drive/test'"),
    ({"protocols": "all", "acc": "high"}, "acc", "expected a number"),
    ({"protocols": "all", "eps": "small"}, "eps", "expected a number, got 'small'"),
]


def test_bad_cells_are_error_rows_naming_line_and_column(tmp_path):
    claims = tmp_path / "claims.csv"
    good = drive_row(SCORES, protocols="region=fov;aggregation=mos")
    rows = [good] + [drive_row(SCORES, **cells) for cells, _, _ in BAD] + [good]
    frame(*rows).to_csv(claims, index=False)
    extra = "id,dataset,protocols,aggregation,repeats,zero_division,acc\n"
    extra += f",{DRIVE},all,mos,,,0.9\n,{DRIVE},all,,2,,0.9\n,{DRIVE},all,,,0,0.9\n"
    (tmp_path / "options.csv").write_text(extra, encoding="utf-8")
    result = check_batch(claims)
    assert [row["verdict"] for row in result.rows] == ["consistent", *["error"] * len(BAD), "consistent"]
    for row, (_, column, message) in zip(result.rows[1:], BAD, strict=False):
        assert row["message"].startswith(f"{claims}, line {row['line']}, column '{column}': "), row
        assert message in row["message"], row["message"]
        assert row["check"] == "protocols" and row["protocols"] == []
    options = check_batch(tmp_path / "options.csv").rows
    assert [re.search(r"column '(\w+)'", row["message"])[1] for row in options] == [
        "aggregation",
        "repeats",
        "zero_division",
    ]
    assert (
        "name it in protocols, such as aggregation=mean_of_scores|pooled|score_of_means"
        in options[0]["message"]
    )
    assert "each protocol is checked with the default repeats" in options[1]["message"]


def test_command_prints_and_writes_protocols_rows(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    frame(
        drive_row(SCORES, id="drive", protocols="aggregation=mos|pooled"),
        {"id": "no k", "positives": 100, "negatives": 900, "protocols": "aggregation=mos", "acc": "0.95"},
        drive_row(SCORES, id="bad", protocols="region=pixels"),
    ).to_csv("claims.csv", index=False)
    runner = CliRunner()
    env = {"COLUMNS": "200"}
    text = runner.invoke(cli.app, ["consistency", "batch", "claims.csv", "--out", "v.csv"], env=env)
    assert text.exit_code == 0, text.output
    assert "3 rows, 1 consistent, 0 inconsistent, 1 undecided, 1 error" in text.stdout
    assert re.search(
        r"\n  2 +drive +protocols +consistent +consistent only with: field of view, mean", text.stdout
    )
    assert text.stdout.endswith("verdicts written to v.csv\n")
    table = pd.read_csv("v.csv", dtype=str, keep_default_na=False)
    assert table[["check", "verdict", "consistent", "detail"]].values.tolist() == [
        ["protocols", "consistent", "true", "2"],
        ["protocols", "undecided", "", "0"],
        ["protocols", "error", "", ""],
    ]
    args = ["consistency", "batch", "claims.csv", "--json", "--out", "v.json", "--report", "r.html"]
    printed = runner.invoke(cli.app, args, env=env)
    assert printed.exit_code == 0, printed.output
    data = json.loads(printed.stdout)
    with open("v.json", encoding="utf-8") as stream:
        assert json.load(stream) == data
    assert data["counts"] == {"consistent": 1, "inconsistent": 0, "undecided": 1, "error": 1}
    assert [len(row["protocols"]) for row in data["rows"]] == [8, 2, 0]
    assert data["rows"][0]["protocols"][0]["protocol"] == "field of view, mean of per-image scores, rounded"
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "1 claim is undecided" in html and "region: expected fov|all" in html


def _honest(rng, p, n, decimals):
    """acc, sens, spec and f1 of random (tp, tn) of p positives and n negatives, as text to `decimals`
    (f1 left empty, not reported, where it is undefined)."""
    tp, tn = rng.integers(0, p, endpoint=True), rng.integers(0, n, endpoint=True)
    with np.errstate(divide="ignore", invalid="ignore"):
        values = {
            "acc": (tp + tn) / (p + n),
            "sens": tp / p,
            "spec": tn / n,
            "f1": 2 * tp / (tp + p + n - tn),
        }
    return {
        name: [
            f"{value:.{d}f}" if np.isfinite(value) else "" for value, d in zip(column, decimals, strict=True)
        ]
        for name, column in values.items()
    }


def test_honest_claims_on_named_sets_are_never_inconsistent():
    """1,000 honest pooled claims on random named sets (2 to 5 decimals, f1 where defined), and 6 honest
    means of per-image scores: every row consistent, and every protocol of the true region and aggregation
    consistent, under both rounding rules."""
    rng = np.random.default_rng(17)
    names = np.array(dataset_names())[rng.integers(0, len(dataset_names()), 1000)]
    sets = [dataset(name) for name in names]
    p, n = (np.array([getattr(s, side) for s in sets]) for side in ("positives", "negatives"))
    scores = _honest(rng, p, n, rng.integers(2, 5, len(names), endpoint=True))
    collection = np.array([bool(s.folds) for s in sets])
    cells = np.where(collection, "aggregation=pooled|som", "all")
    per_image = [name for name in dataset_names() if dataset(name).folds and name.endswith(("fov", "all"))]
    rows = []
    for name in rng.choice(per_image, 6):
        folds = np.array(dataset(name).folds)
        tp, tn = (
            rng.binomial(folds[:, 0], rng.uniform(0.5, 1)),
            rng.binomial(folds[:, 1], rng.uniform(0.8, 1)),
        )
        means = {"acc": (tp + tn) / folds.sum(axis=1), "sens": tp / folds[:, 0], "spec": tn / folds[:, 1]}
        rows.append(
            {
                "dataset": name,
                "protocols": "aggregation=mos",
                **{k: f"{v.mean():.4f}" for k, v in means.items()},
            }
        )
    claims = pd.concat([pd.DataFrame({"dataset": names, "protocols": cells, **scores}), pd.DataFrame(rows)])
    result = check_batch(claims)
    assert result.counts["consistent"] == len(claims), [
        r for r in result.rows if r["verdict"] != "consistent"
    ][:3]
    truth = [*names, *(row["dataset"] for row in rows)]
    for row, name in zip(result.rows, truth, strict=True):
        region = name.rpartition("/")[2] if name.endswith(("/fov", "/all")) else None
        true = [p for p in row["protocols"] if p["region"] == region]  # som is the pooled test set too
        assert true and {p["verdict"] for p in true} == {"consistent"}, (name, row)


@settings(max_examples=12, deadline=None)
@given(
    st.integers(5, 40),
    st.integers(5, 40),
    st.data(),
)
def test_a_cell_asks_what_check_protocols_is_given(p, n, data):
    """Any choice of aggregations and rounding rules, in any case and spacing: the batch row has the rows
    of ``check_protocols`` with the same candidates (k = 3 folds of p and n, honest pooled scores)."""
    chosen = {
        family: data.draw(st.lists(st.sampled_from(values), min_size=1, max_size=len(values), unique=True))
        for family, values in (
            ("aggregation", ("pooled", "som", "mos", "score_of_means")),
            ("rounding", ("round", "floor-or-ceil")),
        )
    }
    if "mos" in chosen["aggregation"]:
        chosen["folding"] = ["stratified"]  # the unknown folds of the mean of scores are tested elsewhere
    cell = " ; ".join(f"{family.upper()} = {' | '.join(values)}" for family, values in chosen.items())
    spelled = {"mos": "mean_of_scores", "som": "score_of_means"}
    assert read_candidates(cell) == {
        family: tuple(spelled.get(value, value) for value in values) for family, values in chosen.items()
    }
    tp, tn = data.draw(st.integers(0, p)), data.draw(st.integers(0, n))
    scores = {"acc": f"{(tp + tn) / (p + n):.3f}", "sens": f"{tp / p:.3f}"}
    claim = {"positives": p, "negatives": n, "folds": 3, "protocols": cell, **scores}
    row = check_batch(frame(claim)).rows[0]
    direct = check_protocols(scores, positives=p, negatives=n, folds=3, candidates=chosen)
    assert row["protocols"] == direct.to_dict()["rows"]
    pooled = [r["verdict"] for r in row["protocols"] if r["aggregation"] in ("pooled", "score_of_means")]
    assert set(pooled) <= {"consistent"}
    if pooled:  # the true protocol was tried
        assert row["verdict"] == "consistent"
