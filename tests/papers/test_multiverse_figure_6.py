"""Nießl et al. (2022) §4.3, Fig. 6 and Fig. S3: the rankings of the 13 methods on the first l data sets of
50 random orders of the 18 data sets, recomputed from the Herrmann et al. (2021) results bundled with
benchtrust and the reference analysis's orders, against the reference analysis's 774 ibrier rankings
(``datasample_unfolding_ibrier_774.csv``, the rank matrix of its Fig. 6 unfolding)."""

from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchtrust.multiverse import bundled_study
from benchtrust.multiverse._subsample import bundled_orders, subsample

REFERENCE = Path(str(files("benchtrust") / "data")) / "datasample_unfolding_ibrier_774.csv"


@pytest.fixture(scope="module")
def ibrier():
    return subsample(**bundled_study(), orders=bundled_orders())


@pytest.fixture(scope="module")
def cindex():
    return subsample(**bundled_study(), orders=bundled_orders(), measure="cindex")


@pytest.fixture(scope="module")
def reference(ibrier):
    """The reference ranks, its method columns (``Glmboost``, ``Clinical Only`` …) renamed to ours."""
    table = pd.read_csv(REFERENCE)
    by_lower = {name.lower(): name for name in table.columns}
    assert len(by_lower) == len(table.columns)
    renamed = table.rename(columns={by_lower[m.lower()]: m for m in ibrier.methods})
    return renamed[["rep", "nrdatasets", *ibrier.methods]]


def by_key(table):
    return table.set_index(["rep", "nrdatasets"]).sort_index()


def test_figure_6_has_774_distinct_rankings_of_13_methods(ibrier, reference):
    assert ibrier.ranks.shape == (774, 13) == (len(reference), 13)
    assert ibrier.measure == "ibrier" and (ibrier.imputation, ibrier.aggregation) == ("threshold0.2", "mean")
    counts = ibrier.table["nrdatasets"].value_counts().sort_index()
    expected = reference["nrdatasets"].value_counts().sort_index()
    pd.testing.assert_series_equal(counts, expected)
    assert counts.tolist() == [17, 47, *[50] * 11, 49, 49, 43, 18, 1]


def test_figure_6_rankings_equal_the_reference_ranks(ibrier, reference):
    """Matched by (rep, nrdatasets): the same 774 keys, and every rank equal (ties averaged)."""
    ours, theirs = by_key(ibrier.table), by_key(reference)
    assert ours.index.equals(theirs.index)
    pd.testing.assert_frame_equal(ours, theirs, check_dtype=False)


def test_figure_6_the_all_18_ranking_is_labelled_rep_1(ibrier, reference):
    row = reference[reference["nrdatasets"] == 18]
    assert row["rep"].tolist() == [1]
    assert tuple(ibrier.table.iloc[-1][["rep", "nrdatasets"]]) == (1, 18)
    np.testing.assert_array_equal(ibrier.full, row[list(ibrier.methods)].to_numpy()[0])
    assert ibrier.full.tolist() == [7, 13, 12, 3, 4, 8, 10, 2, 9, 1, 11, 6, 5]


def test_figure_s3_cindex_gives_the_same_sets(ibrier, cindex):
    """The sets of data sets do not depend on the measure; the rankings do."""
    assert len(cindex.ranks) == len(ibrier.ranks) == 774
    np.testing.assert_array_equal(cindex.included, ibrier.included)
    pd.testing.assert_frame_equal(cindex.table[["rep", "nrdatasets"]], ibrier.table[["rep", "nrdatasets"]])
    assert cindex.measure == "cindex" and (cindex.direction, ibrier.direction) == ("higher", "lower")
    assert (cindex.ranks != ibrier.ranks).any(axis=1).mean() > 0.5
    assert np.allclose(cindex.ranks.sum(axis=1), 91)  # 1 + … + 13 in every ranking


def test_figure_6_unfolding_equals_the_reference_fit(ibrier):
    """The reference fit of the 774 × 13 ibrier ranks: stress 0.2021584, penalised stress 2.440754, 118
    iterations, every coordinate to 1e-6 (rows matched by (rep, nrdatasets))."""
    from benchtrust.multiverse import unfold

    data = Path(str(files("benchtrust") / "data"))
    reference = pd.read_csv(data / "datasample_unfolding_ibrier_774.csv").set_index(["rep", "nrdatasets"])
    columns = pd.read_csv(data / "datasample_unfolding_ibrier_cols_13.csv")
    fitted = unfold(ibrier.ranks)
    assert (round(fitted.stress, 7), round(fitted.penalized_stress, 6)) == (0.2021584, 2.440754)
    assert fitted.iterations == 118
    np.testing.assert_allclose(fitted.column_points, columns[["D1", "D2"]].to_numpy(), atol=1e-6)
    keys = pd.MultiIndex.from_frame(ibrier.table[["rep", "nrdatasets"]])
    np.testing.assert_allclose(fitted.row_points, reference.loc[keys, ["D1", "D2"]].to_numpy(), atol=1e-6)


@pytest.mark.slow
@pytest.mark.parametrize("measure", ["ibrier", "cindex"])
def test_supplement_models_2_and_3_permutation_test_none_at_or_below(ibrier, cindex, measure):
    """Supplement, goodness of fit: "For all three unfolding models, the resulting p-value is < 0.001" (500
    refits in the reference analysis). Models 2 (Fig. 6, ibrier) and 3 (Fig. S3, cindex) are refitted here
    on 40 within-row permutations each, for the test budget (``benchmarks/bench_multiverse.py`` runs the
    paper's 500): none may have a stress at or below the observed one, and the observed stress must lie far
    below them all (less than half the smallest), as it does when the map carries structure."""
    from benchtrust.multiverse import permutation_test, unfold

    ranks = (ibrier if measure == "ibrier" else cindex).ranks
    fitted = unfold(ranks)
    assert fitted.converged and not fitted.degenerate
    result = permutation_test(ranks, permutations=40, seed=1, fitted=fitted)
    assert result.at_or_below == 0 and result.p_value_text == "p < 0.025"
    assert result.stress < 0.5 * result.permuted_stresses.min()
