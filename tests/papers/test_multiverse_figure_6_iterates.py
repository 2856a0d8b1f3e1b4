"""Nießl et al. (2022) Fig. 6: benchtrust's unfolding takes the reference fit's steps (R smacof 2.1-7, run as
a black box on the 774 × 13 ibrier ranks; ``smacof_blackbox/README.md``). Each stored iterate is checked on
its own, so that a wrong step is found where it happens, and the λ × ω grid checks the transformation update
away from the defaults (Busing, Groenen & Heiser 2005, Psychometrika 70:71-98)."""

import re
from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from benchtrust.multiverse import unfold

BLACKBOX = Path(__file__).parent / "smacof_blackbox"
ITERATES = (1, 2, 3, 4, 5, 10, 50, 100, 101, 102)
GRID = [(lam, omega) for lam in ("0.25", "0.5", "1") for omega in ("0.5", "1", "2")]


@pytest.fixture(scope="module")
def ranks():
    table = pd.read_csv(Path(str(files("benchtrust") / "data")) / "datasample_unfolding_ibrier_774.csv")
    return table.drop(columns=["rep", "nrdatasets", "D1", "D2"]).to_numpy(float)


def stored(name):
    return pd.read_csv(BLACKBOX / name).to_numpy()


@pytest.mark.parametrize("iterations", ITERATES)
def test_each_iterate_equals_the_reference_s(ranks, iterations):
    fit = unfold(ranks, max_iterations=iterations)
    prefix = f"ibrier774/ibrier774_it{iterations:03d}"
    np.testing.assert_allclose(fit.row_points, stored(f"{prefix}_rows.csv"), rtol=0, atol=1e-6)
    np.testing.assert_allclose(fit.column_points, stored(f"{prefix}_cols.csv"), rtol=0, atol=1e-6)
    np.testing.assert_allclose(fit.disparities, stored(f"{prefix}_dhat.csv.gz"), rtol=0, atol=1e-6)
    np.testing.assert_allclose(fit.distances, stored(f"{prefix}_dist.csv.gz"), rtol=0, atol=1e-6)
    summary = pd.read_csv(BLACKBOX / "ibrier774/ibrier774_summary.csv").set_index("itmax")
    assert fit.iterations == iterations and not fit.converged
    if iterations in summary.index:  # the summary skips itmax = 4 (the trace has its penalised stress)
        assert fit.stress == pytest.approx(summary.loc[iterations, "stress"], rel=1e-9)
        assert fit.penalized_stress == pytest.approx(summary.loc[iterations, "pstress"], rel=1e-9)


def test_the_penalised_stress_of_every_iteration_is_the_reference_trace(ranks):
    trace = re.findall(r"P-Stress:\s+([\d.]+)", (BLACKBOX / "ibrier774/ibrier774_trace.txt").read_text())
    assert len(trace) == 118
    fits = [unfold(ranks, max_iterations=k) for k in (1, 2, 3, 59, 117, 118)]
    for fit in fits:
        assert f"{fit.penalized_stress:.6f}" == trace[fit.iterations - 1]
    assert fits[-1].converged and unfold(ranks).iterations == 118


@pytest.mark.parametrize("iterations", (1, 5))
@pytest.mark.parametrize(("lam", "omega"), GRID)
def test_the_lambda_omega_grid_equals_the_reference(ranks, lam, omega, iterations):
    fit = unfold(ranks, penalty_strength=float(lam), penalty_range=float(omega), max_iterations=iterations)
    prefix = f"ibrier774_lambda_omega_grid/l{lam}_o{omega}_it{iterations}"
    np.testing.assert_allclose(fit.disparities, stored(f"{prefix}_dhat.csv.gz"), rtol=0, atol=1e-6)
    np.testing.assert_allclose(fit.distances, stored(f"{prefix}_dist.csv.gz"), rtol=0, atol=1e-6)
    summary = pd.read_csv(BLACKBOX / "ibrier774_lambda_omega_grid/summary.csv")
    row = summary[(summary["lambda"] == float(lam)) & (summary["omega"] == float(omega))]
    row = row[row["itmax"] == iterations]
    assert fit.stress == pytest.approx(float(row["stress"].iloc[0]), rel=1e-9)
    assert fit.penalized_stress == pytest.approx(float(row["pstress"].iloc[0]), rel=1e-9)
