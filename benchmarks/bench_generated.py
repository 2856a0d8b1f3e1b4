"""The generated tests at full size: every example and row ``make test`` leaves out.

``make test`` runs samples of its largest generated tests, to stay within its 10 minutes (issue 33): a
quarter of the examples of the property tests of ``check_kfold`` and ``check_test_set``
(``tests/consistency/test_kfold_properties.py``, ``test_test_set_properties.py``); in
``tests/cli/test_fuzz.py``, input files of 10^5 rows and half the fuzzed multiverse inputs; 100 of the
reference's 500 permutations of the §4.2 unfolding (``tests/papers/test_multiverse_section_4_2.py``); 8
of the 10-fold scikit-learn experiments (``tests/consistency/test_kfold_tenfold.py``) and 160 of the 400
of ``test_kfold_sklearn.py``, 70 of the 120 multiclass ones; ``multiverse run`` on the dask cluster but
not on two local workers (``tests/cli/test_parallel.py``); every other cell of the CLI's matrix of bad
option values (``tests/cli/test_bad_options.py``); 60 of 150 examples per score of the directions'
property test (``tests/consistency/test_scores.py``). This script runs the same tests with
``BENCHTRUST_ALL_EXAMPLES=1``: all the examples (600 cross-validations with true or unknown folds, 500
stratified, 1,000 scores of means, 2,000 rounded and 1,500 floored or ceiled test-set claims; drawn as in
``make test``, derandomised), files of 10^6 rows for every reader, all 65 fuzzed multiverse inputs and
the 500 permutations, 60 10-fold, 400 scikit-learn k-fold and 120 multiclass experiments, ``multiverse
run --jobs 2``, the whole matrix of bad option values and 150 examples per score, and prints the time.
A failure is a consistency check that cries wolf, a reader that fails on a long file, a paper statement
not reproduced or a bad option value that ends in a traceback: the script exits 1 so that `make bench`
stops there.

Run: .venv/bin/python benchmarks/bench_generated.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "tests/consistency/test_kfold_properties.py",
    "tests/consistency/test_test_set_properties.py",
    "tests/consistency/test_kfold_tenfold.py",
    "tests/consistency/test_kfold_sklearn.py::test_scikit_learn_scores_are_never_inconsistent",
    "tests/consistency/test_multiclass_kfold_sklearn.py::test_scikit_learn_multiclass_scores_are_never_inconsistent",
    "tests/cli/test_parallel.py",
    "tests/cli/test_fuzz.py::test_a_long_file_is_read_or_refused",
    "tests/cli/test_fuzz.py::test_multiverse_results_edited",
    "tests/cli/test_fuzz.py::test_multiverse_spec",
    "tests/papers/test_multiverse_section_4_2.py::test_supplement_permutation_test_p_below_0_001",
    "tests/cli/test_bad_options.py::test_bad_values_of_every_parameter",
    "tests/consistency/test_scores.py::test_declared_directions_hold",
]


def main() -> int:
    start = time.perf_counter()
    completed = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "auto", *TESTS],
        cwd=ROOT,
        env={**os.environ, "BENCHTRUST_ALL_EXAMPLES": "1"},
        check=False,
    )
    seconds = time.perf_counter() - start
    print(f"The generated tests at full size: {seconds:.0f} s, exit code {completed.returncode}.")
    return 0 if completed.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
