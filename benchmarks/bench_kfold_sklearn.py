"""Scores scikit-learn prints for k-fold cross-validation, checked by benchtrust: no false "inconsistent".

Issue 19, §1: the generator of ``tests/consistency/test_kfold_sklearn.py`` (small data sets with p from 1
and up to 10 folds, ``KFold(shuffle=True)``, ``StratifiedKFold``, ``RepeatedStratifiedKFold``, random or
perfect predictions, ``sklearn.metrics`` under every ``zero_division``, mean of the folds' scores or the
pooled score, 2-4 decimals) makes 10,000 claims here instead of the 1,000 of ``make test``. Every one
must be consistent; the script prints how many were checked, how many needed the folds beyond the
paper's configurations (and which conventions), the false "inconsistent" (must be 0) and the time per
check.

Issue 17: the multiclass generator of ``tests/consistency/test_multiclass_kfold_sklearn.py`` (2-5 classes,
classes smaller than the folds, ``StratifiedKFold``, ``RepeatedStratifiedKFold``, ``KFold``; micro and
macro scores of ``sklearn.metrics`` and of the one-vs-rest definitions; every ``zero_division``; mean of
scores or pooled) runs on as many experiments, checked by ``check_multiclass_kfold``.

Run: .venv/bin/python benchmarks/bench_kfold_sklearn.py [CLAIMS]. Asserts nothing; exits 1 on a false
"inconsistent" so that `make bench` stops there.
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


def main(claims: int = 10_000) -> int:
    sklearn_cases = _generator("test_kfold_sklearn", "sklearn_cases")
    tiers, conventions, wrong = collections.Counter(), collections.Counter(), []
    seconds = 0.0
    for options, scores, description in sklearn_cases(claims, seed=2026):
        start = time.perf_counter()
        result = check_kfold(scores, **options)
        seconds += time.perf_counter() - start
        tiers[(options["aggregation"], options["folding"], result.tier)] += 1
        conventions.update(f"{base}={value}" for base, value in result.conventions.items())
        if not result.consistent:
            wrong.append(description)
    checked = sum(tiers.values())
    print(
        f"{claims:,} scikit-learn experiments, {checked:,} checks, {seconds:.1f} s of checking "
        f"({1e3 * seconds / checked:.2f} ms per check)"
    )
    print(f"{'aggregation':<12} {'folding':<11} {'tier':<8} checks")
    for (aggregation, folding, tier), count in sorted(tiers.items(), key=str):
        print(f"{aggregation:<12} {folding:<11} {tier or '-':<8} {count:,}")
    print(
        "conventions of the evidence beyond the paper: "
        + ", ".join(f"{name} {count:,}" for name, count in conventions.most_common())
    )
    print(f"false 'inconsistent': {len(wrong)}")
    for description in wrong[:20]:
        print("  ", description)
    print()
    return 1 if wrong or multiclass(claims) else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000))
