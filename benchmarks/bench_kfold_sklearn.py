"""Scores scikit-learn prints for k-fold cross-validation, checked by benchtrust: no false "inconsistent".

Issue 19, §1: the generator of ``tests/consistency/test_kfold_sklearn.py`` (small data sets with p from 1
and up to 10 folds, ``KFold(shuffle=True)``, ``StratifiedKFold``, ``RepeatedStratifiedKFold``, random or
perfect predictions, ``sklearn.metrics`` under every ``zero_division``, mean of the folds' scores or the
pooled score, 2-4 decimals) makes 10,000 claims here instead of the 400 experiments of ``make test``.
Every one must be consistent; the script prints how many were checked, how many needed the folds beyond the
paper's configurations (and which conventions), the false "inconsistent" (must be 0) and the time per
check.

Issue 17: the multiclass generator of ``tests/consistency/test_multiclass_kfold_sklearn.py`` (2-5 classes,
classes smaller than the folds, ``StratifiedKFold``, ``RepeatedStratifiedKFold``, ``KFold``; micro and
macro scores of ``sklearn.metrics`` and of the one-vs-rest definitions; every ``zero_division``; mean of
scores or pooled) runs on as many experiments, checked by ``check_multiclass_kfold``.

Issue 29: the generator ``split_cases`` of ``test_kfold_sklearn.py`` (``GroupKFold`` with and without
shuffling, ``LeaveOneGroupOut``, ``PredefinedSplit``, ``TimeSeriesSplit``; labels shuffled or sorted, so
folds without positives and p < k; 4 decimals) makes SPLITS experiments (120 in ``make test``), each
checked with the fold sizes the splitter made (never "inconsistent") and, where the folds cover the data
set, with the default near-equal folds (an "inconsistent" must name them). Then the 10-fold ``KFold`` of
48 positives and 115 negatives of issue 29 on 40 random experiments (mean of scores, unknown folds, the
default ``max_work``): verdicts and the slowest check.

Issue 33, item 4: the generator ``tenfold_cases`` of ``tests/consistency/test_kfold_tenfold.py`` (10 folds of
up to 60 positives and 160 negatives by ``KFold(shuffle=True)``, ``StratifiedKFold(shuffle=True)`` or
``RepeatedKFold`` with 2 repeats; mean of scores, unknown folds, every ``zero_division``) makes TENFOLD
experiments (1,000; 8 in ``make test``): the verdicts, the refusals (repeats whose combinations of
configurations exceed ``max_configurations``), the CPU time per check (median, p90, max, over 10 s) and
the slowest checks.

Run: .venv/bin/python benchmarks/bench_kfold_sklearn.py [CLAIMS [SPLITS [TENFOLD]]], or ``--tenfold
[TENFOLD]`` for the 10-fold part alone. Asserts nothing; exits 1 on a false "inconsistent" so that `make
bench` stops there.
"""

from __future__ import annotations

import collections
import importlib.util
import sys
import time
from pathlib import Path

from benchtrust.consistency._kfold import check_kfold
from benchtrust.consistency._multiclass_kfold import check_multiclass_kfold

TESTS = Path(__file__).resolve().parent.parent / "tests" / "consistency"


def _generator(name, function):
    spec = importlib.util.spec_from_file_location(name, TESTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return getattr(module, function)


def multiclass(claims: int) -> int:
    """The multiclass generator of ``test_multiclass_kfold_sklearn.py`` on ``claims`` experiments (issue
    17): no claim may be inconsistent (one HiGHS could not decide in time is counted apart); prints the
    time per check by kind of check."""
    cases = _generator("test_multiclass_kfold_sklearn", "multiclass_cases")
    seconds, counts, wrong, undecided = collections.Counter(), collections.Counter(), [], []
    for options, scores, description in cases(claims, seed=2026):
        folding = options["folding"] if isinstance(options["folding"], str) else "explicit"
        kind = (options["average"], options["aggregation"], folding)
        start = time.perf_counter()
        result = check_multiclass_kfold(scores, **options)
        seconds[kind] += time.perf_counter() - start
        counts[kind] += 1
        if result.consistent is None:
            undecided.append(description)
        elif not result.consistent:
            wrong.append(description)
    total = sum(seconds.values())
    print(f"{claims:,} multiclass scikit-learn experiments, {total:.1f} s of checking")
    print(f"{'average':<8} {'aggregation':<12} {'folding':<11} {'checks':>6} {'ms per check':>13}")
    for kind in sorted(counts):
        per_check = 1e3 * seconds[kind] / counts[kind]
        print(f"{kind[0]:<8} {kind[1]:<12} {kind[2]:<11} {counts[kind]:>6,} {per_check:>13.2f}")
    print(f"undecided (HiGHS past its time limit on every alternative): {len(undecided)}")
    for description in undecided[:5]:
        print("  ", description)
    print(f"false 'inconsistent': {len(wrong)}")
    for description in wrong[:20]:
        print("  ", description)
    return len(wrong)


def splits(claims: int) -> int:
    """The splitters with folds of any sizes (issue 29): false "inconsistent" with the right fold sizes
    (must be 0), and unqualified "inconsistent" with the default near-equal folds (must be 0)."""
    cases = _generator("test_kfold_sklearn", "split_cases")
    verdicts, kinds, wrong, seconds, slowest = collections.Counter(), collections.Counter(), [], 0.0, 0.0
    for options, scores, description in cases(claims, seed=2026):
        kinds[description.split()[0]] += 1
        start = time.perf_counter()
        result = check_kfold(scores, **options)
        took = time.perf_counter() - start
        seconds, slowest = seconds + took, max(slowest, took)
        verdicts["sizes", result.consistent] += 1
        if result.consistent is False:
            wrong.append(description)
        if options["partial"]:
            continue
        default = check_kfold(scores, **{**options, "fold_sizes": None, "partial": False})
        verdicts["near-equal", default.consistent] += 1
        if default.consistent is False and "near-equal size" not in default.verdict:
            wrong.append("unqualified: " + description)
    print(
        f"{claims:,} experiments of GroupKFold, LeaveOneGroupOut, PredefinedSplit, TimeSeriesSplit "
        f"({', '.join(f'{kind} {count:,}' for kind, count in sorted(kinds.items()))})"
    )
    print(
        f"with the fold sizes made: {seconds:.1f} s of checking, {1e3 * seconds / claims:.1f} ms per check, "
        f"slowest {slowest:.2f} s"
    )
    words = {True: "consistent", False: "inconsistent", None: "undecided"}
    for (described, verdict), count in sorted(verdicts.items(), key=str):
        print(f"  {described:<11} {words[verdict]:<13} {count:,}")
    print(f"false or unqualified 'inconsistent': {len(wrong)}")
    for description in wrong[:20]:
        print("  ", description)
    print()
    return len(wrong)


def claim_48_positives(seed: int) -> dict[str, str]:
    """Issue 29, item 4: the mean fold scores (1-4 of acc, sens, spec, bacc; 2-4 decimals) scikit-learn
    prints for a 10-fold ``KFold(shuffle=True)`` of 48 positives and 115 negatives, random predictions."""
    import warnings

    import numpy as np
    from sklearn.model_selection import KFold

    fold_scores = _generator("test_kfold_sklearn", "_fold_scores")
    rng = np.random.default_rng(seed)
    y = rng.permutation(np.r_[np.ones(48, dtype=bool), np.zeros(115, dtype=bool)])
    y_pred = y ^ (rng.random(163) < rng.uniform(0.02, 0.5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        per_fold = [
            fold_scores(y[test], y_pred[test], "warn", {})
            for _, test in KFold(10, shuffle=True, random_state=seed).split(y)
        ]
    names = list(rng.permutation(["acc", "sens", "spec", "bacc"])[: int(rng.integers(1, 5))])
    decimals = int(rng.integers(2, 5))
    return {name: f"{np.mean([s[name] for s in per_fold]):.{decimals}f}" for name in names}


def kfold_48_positives(experiments: int = 40) -> int:
    """Issue 29, item 4: 10-fold KFold of 48 positives and 115 negatives, mean of scores, unknown folds."""
    verdicts, times, wrong = collections.Counter(), [], 0
    for seed in range(experiments):
        scores = claim_48_positives(seed)
        start = time.perf_counter()
        result = check_kfold(scores, positives=48, negatives=115, folds=10)
        times.append(time.perf_counter() - start)
        verdicts[result.consistent] += 1
        wrong += result.consistent is False
    times.sort()
    print(
        f"10-fold KFold of 48 positives and 115 negatives, {experiments} experiments (max_work 50,000): "
        f"consistent {verdicts[True]}, undecided {verdicts[None]}, inconsistent {verdicts[False]}; "
        f"median {times[len(times) // 2]:.2f} s, slowest {times[-1]:.1f} s, over 10 s: "
        f"{sum(t > 10 for t in times)}"
    )
    print()
    return wrong


def tenfold(experiments: int = 1_000) -> int:
    """Issue 33, item 4: 10-fold KFold, StratifiedKFold and RepeatedKFold, mean of scores, unknown folds
    (``tenfold_cases``): verdicts, the distribution of the CPU time per check and the slowest checks."""
    import numpy as np

    from benchtrust._io import InputError

    cases = _generator("test_kfold_tenfold", "tenfold_cases")
    verdicts, times, wrong, refused = collections.Counter(), [], [], collections.Counter()
    for options, scores, description in cases(experiments, seed=2033):
        start = time.process_time()
        try:
            result = check_kfold(scores, **options)
        except InputError as error:
            if "max_configurations" not in str(error):
                raise
            refused[description.split()[0]] += 1
            continue
        times.append((time.process_time() - start, description, result.order))
        verdicts[result.consistent] += 1
        if result.consistent is False:
            wrong.append(description)
    seconds = np.array([t for t, _, _ in times])
    print(
        f"{experiments:,} 10-fold experiments (KFold, StratifiedKFold, RepeatedKFold x2), mean of scores, "
        f"unknown folds: {len(times):,} checks, consistent {verdicts[True]:,}, undecided {verdicts[None]:,}, "
        f"inconsistent {verdicts[False]:,}; refused (more combinations than max_configurations): "
        + (", ".join(f"{kind} {count:,}" for kind, count in sorted(refused.items())) or "none")
    )
    print(
        f"CPU time per check: median {np.median(seconds) * 1e3:.1f} ms, "
        f"p90 {np.quantile(seconds, 0.9) * 1e3:.0f} ms, max {seconds.max():.2f} s, "
        f"over 10 s: {int((seconds > 10).sum())}, total {seconds.sum():.1f} s"
    )
    print("slowest checks (CPU s, how the folds were found, experiment):")
    for took, description, order in sorted(times, key=lambda row: -row[0])[:8]:
        print(f"  {took:7.2f}  {order or '-':<12} {description}")
    print(f"false 'inconsistent': {len(wrong)}")
    for description in wrong[:20]:
        print("  ", description)
    print()
    return len(wrong)


def main(claims: int = 10_000, split_claims: int = 2_000, tenfold_claims: int = 1_000) -> int:
    sklearn_cases = _generator("test_kfold_sklearn", "sklearn_cases")
    tiers, conventions, wrong = collections.Counter(), collections.Counter(), []
    seconds, slowest = 0.0, 0.0
    for options, scores, description in sklearn_cases(claims, seed=2026):
        start = time.perf_counter()
        result = check_kfold(scores, **options)
        took = time.perf_counter() - start
        seconds, slowest = seconds + took, max(slowest, took)
        undecided = "undecided" if result.consistent is None else "-"
        tiers[(options["aggregation"], options["folding"], result.tier or undecided)] += 1
        conventions.update(f"{base}={value}" for base, value in result.conventions.items())
        if result.consistent is False:
            wrong.append(description)
    checked = sum(tiers.values())
    print(
        f"{claims:,} scikit-learn experiments, {checked:,} checks, {seconds:.1f} s of checking "
        f"({1e3 * seconds / checked:.2f} ms per check, slowest {slowest:.2f} s)"
    )
    print(f"{'aggregation':<12} {'folding':<11} {'tier':<8} checks")
    for (aggregation, folding, tier), count in sorted(tiers.items(), key=str):
        print(f"{aggregation:<12} {folding:<11} {tier:<8} {count:,}")
    print(
        "conventions of the evidence beyond the paper: "
        + ", ".join(f"{name} {count:,}" for name, count in conventions.most_common())
    )
    print(f"false 'inconsistent': {len(wrong)}")
    for description in wrong[:20]:
        print("  ", description)
    print()
    failed = (
        bool(wrong) | bool(splits(split_claims)) | bool(kfold_48_positives()) | bool(tenfold(tenfold_claims))
    )
    return 1 if failed or multiclass(claims) else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--tenfold"]:
        sys.exit(1 if tenfold(*(int(arg) for arg in sys.argv[2:3])) else 0)
    sys.exit(main(*(int(arg) for arg in sys.argv[1:4])))
