"""Scores scikit-learn prints for k-fold cross-validation, checked by benchtrust: no false "inconsistent".

Issue 19, §1: the generator of ``tests/consistency/test_kfold_sklearn.py`` (small data sets with p from 1
and up to 10 folds, ``KFold(shuffle=True)``, ``StratifiedKFold``, ``RepeatedStratifiedKFold``, random or
perfect predictions, ``sklearn.metrics`` under every ``zero_division``, mean of the folds' scores or the
pooled score, 2-4 decimals) makes 10,000 claims here instead of the 1,000 of ``make test``. Every one
must be consistent; the script prints how many were checked, how many needed the folds beyond the
paper's configurations (and which conventions), the false "inconsistent" (must be 0) and the time per
check.

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

CASES = Path(__file__).resolve().parent.parent / "tests" / "consistency" / "test_kfold_sklearn.py"


def _generator():
    spec = importlib.util.spec_from_file_location("kfold_sklearn_cases", CASES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.sklearn_cases


def main(claims: int = 10_000) -> int:
    sklearn_cases = _generator()
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
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000))
