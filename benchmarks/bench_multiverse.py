"""Time a multiverse study (benchtrust.multiverse) against the straightforward per-combination computation.

Three cases:

* the paper's study (Nießl et al. 2022, §3-4): the bundled Herrmann et al. results, 288 combinations of 13
  methods, with rank distribution, step-wise optimisation, impact and the unfolding of the 288 × 13 rank
  matrix (target: the whole study under 5 s);
* a synthetic study of 10,000 combinations × 50 methods: 24 data sets, 10 iterations per pair, 10 % of the
  values missing (seeded), the methods' accuracy varying little overall (SD 0.01) and much per data set
  (SD 0.04), so that every combination ranks them differently; 625 data-set options (all, and 624
  random subsets of 8 to 20 data sets) × 2 measures × 4 imputations × 2 aggregations (mean, mean rank),
  the unfolding of the 10,000 × 50 rank matrix included (target: under 2 minutes);
* the paper's Fig. 6 and goodness of fit: the 774 rankings on the first l data sets of the paper's 50
  orders against the baseline ranking each set of data sets on its own, the unfolding of the 288 × 13 and
  774 × 13 rank matrices (targets 0.3 s and 0.5 s: R smacof takes under 1 s each), the permutation test
  of the 288 × 13 fit with 500 refits on 2 cores against the same refits one after the other (target
  under 30 s), the paper's 500-refit permutation test of models 2 and 3 (the 774 × 13 fits of Fig. 6 and
  Fig. S3; the supplement: p < 0.001 for all three), and the whole ``benchtrust multiverse example`` with
  Fig. 6 and Fig. S3 (target under 10 s).

The baseline ranks one combination at a time the way an analysis script would: filter the long table to
the combination's data sets, impute each (data set, method) pair with pandas ``groupby``, aggregate and
rank with ``Series.rank``. It is timed on a sample of combinations and extrapolated; its rankings are
checked against benchtrust's. No baseline exists for the unfolding in Python (R's smacof is GPL and not
installed here), so its time is reported alone.

Run: make bench (or .venv/bin/python benchmarks/bench_multiverse.py). Prints tables; asserts nothing.
Takes about two minutes.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from _tables import print_table  # benchmarks/, the script's own folder
from benchtrust.multiverse import (
    bundled_orders,
    bundled_study,
    permutation_test,
    rankings,
    read_spec,
    study,
    subsample,
    unfold,
)

SEED = 7
SAMPLE = 100  # combinations the baseline ranks, to extrapolate from


def synthetic():
    """Long-format results of 50 methods on 24 data sets and the spec of 10,000 combinations."""
    rng = np.random.default_rng(SEED)
    datasets, methods, iterations = 24, 50, 10
    d, m, i = np.meshgrid(np.arange(datasets), np.arange(methods), np.arange(iterations), indexing="ij")
    # methods differ little overall and much per data set, so the data-set subsets reorder them
    skill = (
        rng.normal(0.75, 0.01, methods)[m]
        + rng.normal(0, 0.05, datasets)[d]
        + rng.normal(0, 0.04, (datasets, methods))[d, m]
    )
    accuracy = np.clip(skill + rng.normal(0, 0.03, d.shape), 0, 1)
    brier = np.clip(0.25 - (accuracy - 0.5) / 2 + rng.normal(0, 0.01, d.shape), 0, 1)
    accuracy[rng.random(d.shape) < 0.1] = np.nan
    brier[rng.random(d.shape) < 0.1] = np.nan
    results = pd.DataFrame(
        {
            "dataset": [f"d{k:02d}" for k in d.ravel()],
            "method": [f"m{k:02d}" for k in m.ravel()],
            "iteration": i.ravel() + 1,
            "accuracy": accuracy.ravel(),
            "brier": brier.ravel(),
        }
    )
    names = [f"d{k:02d}" for k in range(datasets)]
    subsets = {"all": {"rule": "all"}}
    while len(subsets) < 625:
        kept = sorted(rng.choice(names, size=rng.integers(8, 21), replace=False).tolist())
        subsets[f"s{len(subsets)}"] = {"rule": "list", "datasets": kept}
    spec = {
        "measures": {
            "accuracy": {"better": "higher", "random": 0.5},
            "brier": {"better": "lower", "random": 0.25},
        },
        "choices": {
            "datasets": {"default": "all", "options": subsets},
            "measure": {"default": "accuracy", "options": ["accuracy", "brier"]},
            "imputation": {
                "default": "threshold",
                "options": {
                    "threshold": {"rule": "threshold", "threshold": 0.2},
                    "weighted": {"rule": "weighted"},
                    "random": {"rule": "random"},
                    "mean": {"rule": "mean"},
                },
            },
            "aggregation": {"default": "mean", "options": ["mean", "mean_rank"]},
        },
    }
    return results, spec


def baseline_ranking(long, spec, kept, measure, imputation, aggregation):
    """One combination's ranks, computed the straightforward way with pandas."""
    declared = spec.measure(measure)
    table = long[long["dataset"].isin(kept)]
    failed = table[[m.column for m in spec.measures]].isna().any(axis=1)
    frame = table.assign(value=table[declared.column], failed=failed)
    rows = []
    for (dataset, method), pair in frame.groupby(["dataset", "method"], sort=False):
        r = pair["failed"].mean()
        observed = pair["value"].dropna()
        rest = observed.mean() if len(observed) else declared.random
        sign = -1 if declared.lower_is_better else 1
        fill = {
            "threshold": rest if r <= imputation.parameters.get("threshold", 0.2) else declared.random,
            "weighted": declared.random + sign * max(sign * (rest - declared.random), 0) * (1 - r),
            "random": declared.random,
            "mean": rest,
        }[imputation.rule]
        q = 1 - len(observed) / len(pair)
        rows.append((dataset, method, (1 - q) * rest + q * fill if q < 1 else fill))
    values = pd.DataFrame(rows, columns=["dataset", "method", "value"])
    ascending = declared.lower_is_better
    if aggregation == "mean":
        score = values.groupby("method", sort=False)["value"].mean()
    else:
        values["rank"] = values.groupby("dataset")["value"].rank(ascending=ascending, method="average")
        score, ascending = values.groupby("method", sort=False)["rank"].mean(), True
    return score.rank(ascending=ascending, method="average")


def time_baseline(results, spec_mapping, multiverse, sample):
    """Seconds per combination of the baseline on `sample` combinations; checks its ranks."""
    spec = read_spec(spec_mapping)
    long = results if isinstance(results, pd.DataFrame) else pd.read_csv(results)
    if spec.columns["method"] != "method":
        long = long.rename(columns={spec.columns["method"]: "method", spec.columns["dataset"]: "dataset"})
    for m in spec.measures:
        if m.failed_values:
            long[m.column] = long[m.column].where(~long[m.column].isin(m.failed_values))
    options = {c.family: {o.name: o for o in c.options} for c in spec.choices}
    combinations = multiverse.combinations
    rng = np.random.default_rng(SEED)
    chosen = rng.choice(len(combinations), size=min(sample, len(combinations)), replace=False)
    start = time.perf_counter()
    agree = 0
    for k in chosen:
        row = combinations.iloc[k]
        ranks = baseline_ranking(
            long,
            spec,
            multiverse.datasets[row["datasets"]],
            options["measure"][row["measure"]].rule,
            options["imputation"][row["imputation"]],
            options["aggregation"][row["aggregation"]].rule.replace("mean_rank", "rank"),
        )
        agree += np.allclose(ranks.loc[list(multiverse.methods)].to_numpy(), multiverse.ranks[k])
    seconds = (time.perf_counter() - start) / len(chosen)
    return seconds, agree, len(chosen)


def herrmann():
    paths = bundled_study()
    start = time.perf_counter()
    result = study(**paths)
    total = time.perf_counter() - start
    start = time.perf_counter()
    multiverse = rankings(**paths)
    ranking_time = time.perf_counter() - start
    import yaml

    spec_mapping = yaml.safe_load(paths["spec"].read_text(encoding="utf-8"))
    spec_mapping["choices"]["aggregation"]["options"] = {
        "mean": {"rule": "mean"},
        "rank": {"rule": "mean_rank"},
    }
    subset = rankings(paths["results"], spec_mapping, characteristics=paths["characteristics"])
    per, agree, checked = time_baseline(paths["results"], spec_mapping, subset, SAMPLE)
    baseline = per * len(multiverse.codes)
    u = result.unfolding
    print("The paper's study: 288 combinations x 13 methods (Herrmann et al. results, bundled)")
    print_table(
        [
            ("step", "benchtrust", "baseline (extrapolated)", "speed-up", "target"),
            ("rankings", f"{ranking_time:.2f} s", f"{baseline:.1f} s", f"{baseline / ranking_time:.0f}x", ""),
            ("whole study with unfolding", f"{total:.2f} s", "", "", "< 5 s"),
        ]
    )
    print(
        f"baseline rankings equal to benchtrust's on {agree} of {checked} sampled combinations (mean and "
        "mean rank aggregations); unfolding: stress "
        f"{u.stress:.4f}, penalized stress {u.penalized_stress:.4f}, {u.iterations} iterations\n"
    )


def large():
    results, spec_mapping = synthetic()
    start = time.perf_counter()
    multiverse = rankings(results, spec_mapping)
    ranking_time = time.perf_counter() - start
    start = time.perf_counter()
    fitted = unfold(multiverse.ranks)
    unfolding_time = time.perf_counter() - start
    start = time.perf_counter()
    result = study(results, spec_mapping)
    total = time.perf_counter() - start
    distinct = len(np.unique(multiverse.ranks, axis=0))
    per, agree, checked = time_baseline(results, spec_mapping, multiverse, SAMPLE)
    baseline = per * len(multiverse.codes)
    print(
        f"Synthetic study: {len(multiverse.codes):,} combinations x {len(multiverse.methods)} methods "
        f"({distinct:,} distinct rankings)"
    )
    print_table(
        [
            ("step", "benchtrust", "baseline (extrapolated)", "speed-up", "target"),
            ("rankings", f"{ranking_time:.2f} s", f"{baseline:.0f} s", f"{baseline / ranking_time:.0f}x", ""),
            ("unfolding 10,000 x 50", f"{unfolding_time:.1f} s", "", "", ""),
            ("whole study with unfolding", f"{total:.1f} s", "", "", "< 120 s"),
        ]
    )
    print(
        f"baseline rankings equal to benchtrust's on {agree} of {checked} sampled combinations; unfolding: "
        f"stress {fitted.stress:.4f}, penalized stress {fitted.penalized_stress:.4f}, {fitted.iterations} "
        f"iterations, converged {fitted.converged}; study unfolding iterations {result.unfolding.iterations}"
    )


def timed(work):
    start = time.perf_counter()
    out = work()
    return out, time.perf_counter() - start


def figure_6():
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    import yaml

    paths = bundled_study()
    sampled, sample_time = timed(lambda: subsample(**paths, orders=bundled_orders()))
    spec_mapping = yaml.safe_load(paths["spec"].read_text(encoding="utf-8"))
    spec = read_spec(spec_mapping)
    long = pd.read_csv(paths["results"]).rename(columns={"learner": "method"})
    long["cindex_uno"] = long["cindex_uno"].where(long["cindex_uno"] != 0)
    imputation = spec.choice("imputation").options[0]
    datasets = np.asarray(sampled.datasets)
    start = time.perf_counter()
    agree = 0
    for kept, ranks in zip(sampled.included, sampled.ranks, strict=True):
        expected = baseline_ranking(long, spec, datasets[kept], "ibrier", imputation, "mean")
        agree += np.allclose(expected.loc[list(sampled.methods)].to_numpy(), ranks)
    baseline = time.perf_counter() - start
    ranks_288 = rankings(**paths).ranks
    fit_288, time_288 = timed(lambda: unfold(ranks_288))
    fit_774, time_774 = timed(lambda: unfold(sampled.ranks))
    tested, parallel = timed(lambda: permutation_test(ranks_288, permutations=500, fitted=fit_288, n_jobs=2))
    _, serial = timed(lambda: permutation_test(ranks_288, permutations=500, fitted=fit_288, n_jobs=1))
    models = {"model 2 (Fig. 6, ibrier)": sampled.ranks}
    models["model 3 (Fig. S3, cindex)"] = subsample(**paths, orders=bundled_orders(), measure="cindex").ranks
    goodness = {
        name: timed(lambda r=ranks: permutation_test(r, permutations=500)) for name, ranks in models.items()
    }
    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "benchtrust", "multiverse", "example", "--out", folder]
        _, example = timed(lambda: subprocess.run(command, check=True, capture_output=True))
        written = sorted(p.name for p in Path(folder).iterdir())
    print("The paper's Fig. 6 and goodness of fit (bundled results and orders)")
    print_table(
        [
            ("step", "benchtrust", "baseline", "speed-up", "target"),
            (
                f"{len(sampled.ranks)} subsample rankings",
                f"{sample_time:.2f} s",
                f"{baseline:.1f} s",
                f"{baseline / sample_time:.0f}x",
                "",
            ),
            ("unfolding 288 x 13", f"{time_288:.2f} s", "", "", "< 0.3 s"),
            ("unfolding 774 x 13", f"{time_774:.2f} s", "", "", "< 0.5 s"),
            (
                "permutation test, 500 refits",
                f"{parallel:.1f} s",
                f"{serial:.1f} s (1 core)",
                f"{serial / parallel:.1f}x",
                "< 30 s",
            ),
            *(
                (f"permutation test of {name}, 500 refits", f"{seconds:.1f} s", "", "", "")
                for name, (_, seconds) in goodness.items()
            ),
            ("benchtrust multiverse example", f"{example:.1f} s", "", "", "< 10 s"),
        ]
    )
    for name, (result, _) in goodness.items():
        print(f"{name}: {result.verdict}")
    print(
        f"baseline rankings equal to benchtrust's on {agree} of {len(sampled.ranks)} sets of data sets; "
        f"unfoldings: 288 x 13 stress {fit_288.stress:.4f} in {fit_288.iterations} iterations, 774 x 13 "
        f"stress {fit_774.stress:.4f} in {fit_774.iterations} iterations (converged {fit_774.converged}; "
        f"{fit_774.coincident_columns()} of 13 methods coincide; R smacof's fit: stress 0.2021584 after "
        f"118 iterations); permutation test: {tested.verdict}; the example wrote "
        f"{len(written)} files\n"
    )


if __name__ == "__main__":
    herrmann()
    figure_6()
    large()
