"""A whole multiverse study (MultiverseStudyResult): its table of methods, its words, its HTML section, the
files it writes and the column names it is told."""

import dataclasses
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchtrust import InputError
from benchtrust.multiverse import (
    MultiverseStudyResult,
    default_distance_summary,
    read_spec,
    study,
    study_files,
)

NASTY = '<b>"Ben & Jerry\'s"</b>'
SPEC = {
    "columns": {"dataset": "data", "method": "learner"},
    "measures": {"acc": {"better": "higher", "random": 0.5}, "brier": {"better": "lower", "random": 0.25}},
    "choices": {
        "datasets": {
            "options": {
                "all": {"rule": "all"},
                "small": {"rule": "below_median", "characteristic": "n"},
            }
        },
        "measure": {"default": "acc", "options": ["acc", "brier"]},
        "aggregation": {"default": "mean", "options": ["mean", "median", "mean_rank"]},
    },
}


def results(methods=("m0", NASTY, "m2", "m3")):
    rng = np.random.default_rng(1)
    rows = []
    for d in range(4):
        for m, skill in zip(methods, [0.70, 0.75, 0.80, 0.72], strict=True):
            for _ in range(3):
                rows.append(
                    {
                        "data": f"d{d}",
                        "learner": m,
                        "acc": skill + rng.normal(0, 0.03),
                        "brier": 0.25 - skill / 5 + rng.normal(0, 0.01),
                    }
                )
    return pd.DataFrame(rows)


CHARACTERISTICS = pd.DataFrame({"data": ["d0", "d1", "d2", "d3"], "n": [100, 200, 300, 400]})


@pytest.fixture(scope="module")
def result():
    return study(results(), SPEC, characteristics=CHARACTERISTICS, n_orders=3, seed=2)


def test_is_a_multiverse_study(result):
    import benchtrust.multiverse

    assert isinstance(result, MultiverseStudyResult)
    exported = benchtrust.multiverse.__all__
    assert "MultiverseStudyResult" in exported and not {"MultiverseStudy", "Study"} & set(exported)


def test_to_frame_is_the_table_of_methods(result):
    mv = result.multiverse
    frame = result.to_frame()
    assert list(frame.columns) == [
        "method",
        "rank_at_defaults",
        "best_rank",
        "worst_rank",
        "first_share",
        "stepwise_rank",
    ]
    default = mv.ranks[mv.index(mv.defaults)]
    assert frame["rank_at_defaults"].is_monotonic_increasing
    for row in frame.itertuples():
        k = mv.methods.index(row.method)
        assert row.rank_at_defaults == default[k]
        assert [row.best_rank, row.worst_rank] == mv.rank_range()[row.method]
        assert row.first_share == mv.first_share[row.method]
        assert row.stepwise_rank == result.stepwise.best[row.method]


def test_words_rest_on_the_results(result):
    assert result.verdict == result.multiverse.verdict
    winners = sum(share > 0 for share in result.multiverse.first_share.values())
    assert result.verdict.startswith(f"{winners} of 4 methods rank first under some combination")
    text = str(result)
    assert " ".join(result.verdict.split()) in " ".join(text.split())
    assert text.startswith("multiverse (Nießl et al. 2022, §3-4): ") and "wrote" not in text
    for row in result.distance_summary().itertuples():
        assert f"    {row.choice}: median {row.median:.3f}, largest {row.max:.3f}" in text


def test_the_text_names_what_was_studied_and_the_files_written(result):
    """What the command prints is str(result) of the study it keeps: what it studied and the files it
    wrote; the section names the results in words when no input file is known."""
    written = (Path("out") / "rankings.csv", Path("out") / "impact.csv")
    named = dataclasses.replace(result, what="results.csv", written=written)
    text, shown = str(result), str(named)
    files = "wrote 2 files to out: rankings.csv, impact.csv"
    expected = "multiverse of results.csv" + text.removeprefix("multiverse") + f" {files}"
    assert shown.endswith(f"\n\n  {files}")
    assert " ".join(shown.split()) == " ".join(expected.split())
    assert named.to_dict() == result.to_dict()  # the JSON holds the results, not the files written
    assert result.inputs == () and named.describe().inputs == ("results.csv",)


def test_the_inputs_are_the_files_read(tmp_path):
    """study, rankings and subsample keep the files they were given (as given), not tables or specs."""
    path = tmp_path / "results.csv"
    results().to_csv(path, index=False)
    orders = tmp_path / "orders.csv"
    orders.write_text("rep,p1,p2,p3,p4\n1,d0,d1,d2,d3\n2,d3,d2,d1,d0\n", encoding="utf-8")
    read = study(str(path), SPEC, characteristics=CHARACTERISTICS, orders=orders)
    assert read.inputs == (str(path), str(orders))
    assert read.multiverse.inputs == (str(path),) and read.subsample.inputs == (str(path), str(orders))
    assert f"Inputs: {path}, {orders}</p>" in read._repr_html_()


def test_distance_summary_and_json(result):
    pd.testing.assert_frame_equal(result.distance_summary(), default_distance_summary(result.distances))
    out = json.loads(json.dumps(result.to_dict()))
    summary = result.distance_summary().set_index("choice")
    for choice, values in out["default_distances"].items():
        assert values == {"median": summary.loc[choice, "median"], "max": summary.loc[choice, "max"]}
    assert out["first_share"] == result.multiverse.first_share
    assert out["subsample"]["first_share"] == result.subsample.first_share


def test_html_section_escapes_method_names(result):
    html = result._repr_html_()
    assert html.startswith('<div class="benchtrust">') and "<svg" in html
    assert "<b>" not in html and "<td>&lt;b&gt;&#34;Ben &amp; Jerry&#39;s&#34;&lt;/b&gt;</td>" in html
    assert "Subsamples of the data sets (Fig. 6): " in html


def test_write_saves_the_tables_and_the_plots(result, tmp_path):
    written = result.write(tmp_path / "out")
    names = [path.name for path in written]
    assert names == [
        "rankings.csv",
        "rank_distribution.csv",
        "stepwise.csv",
        "impact.csv",
        "unfolding.csv",
        "default_distances.csv",
        "subsample.csv",
        "rank_distribution.png",
        "stepwise.png",
        "unfolding.png",
        "default_distances.png",
        "subsample.png",
    ]
    assert all(path.read_bytes()[:4] == b"\x89PNG" for path in written if path.suffix == ".png")
    assert result.write(tmp_path / "tables", plots=False)[-1].name == "subsample.csv"


def test_column_names_of_the_characteristics_and_the_orders(tmp_path):
    characteristics = CHARACTERISTICS.rename(columns={"data": "name"})
    orders = tmp_path / "orders.csv"
    orders.write_text("order,p1,p2,p3,p4\nfirst,d0,d1,d2,d3\nsecond,d3,d2,d1,d0\n", encoding="utf-8")
    named = study(
        results(),
        SPEC,
        characteristics=characteristics,
        characteristics_dataset_column="name",
        orders=orders,
        orders_label_column="order",
    )
    assert named.subsample.orders["rep"].tolist() == ["first", "second"]
    assert named.multiverse.datasets["small"] == ("d0", "d1")
    with pytest.raises(InputError, match="no column 'data' naming the data sets"):
        study(results(), SPEC, characteristics=characteristics)


def test_the_written_tables_can_be_plotted_and_summarised_again(result, tmp_path):
    from benchtrust.multiverse import plot_default_distances, plot_stepwise

    result.write(tmp_path, plots=False)
    pd.testing.assert_frame_equal(
        default_distance_summary(tmp_path / "default_distances.csv"), result.distance_summary()
    )
    again = plot_default_distances(tmp_path / "default_distances.csv")
    drawn = plot_default_distances(result.distances)
    assert [p.get_title() for p in again.figure.axes] == [p.get_title() for p in drawn.figure.axes]
    ax = plot_stepwise(str(tmp_path / "stepwise.csv"), result.stepwise.rank_range)
    expected = plot_stepwise(result.stepwise.steps, result.stepwise.rank_range)
    assert len(ax.patches) == len(expected.patches) and len(ax.lines) == len(expected.lines)
    assert [t.get_text() for t in ax.get_xticklabels()] == [t.get_text() for t in expected.get_xticklabels()]


def test_a_written_table_with_a_bad_cell_is_named(tmp_path):
    from benchtrust.multiverse import plot_default_distances, plot_stepwise

    (tmp_path / "d.csv").write_text("choice,option,distance\nmeasure,cindex,0.5\nmeasure,cindex,far\n")
    with pytest.raises(InputError, match=r"d\.csv, line 3, column 'distance': 'far'"):
        plot_default_distances(tmp_path / "d.csv")
    (tmp_path / "s.csv").write_text("method,step,choice,option,rank,changed\nA,0,,mean,1,maybe\n")
    with pytest.raises(InputError, match=r"s\.csv, line 2, column 'changed': expected True or False"):
        plot_stepwise(tmp_path / "s.csv", {"A": (1, 2)})


def test_a_spec_already_read_is_taken_as_it_is(result):
    spec = read_spec(SPEC)
    assert study_files(spec) == study_files(SPEC)
    again = study(results(), spec, characteristics=CHARACTERISTICS, n_orders=3, seed=2)
    pd.testing.assert_frame_equal(again.to_frame(), result.to_frame())


def test_a_study_without_an_unfolding_says_it_has_no_unfolding_table():
    plain = study(results(), {**SPEC, "unfolding": False}, characteristics=CHARACTERISTICS)
    assert plain.unfolding is None
    with pytest.raises(ValueError, match="no unfolding"):
        plain.unfolding_table()
