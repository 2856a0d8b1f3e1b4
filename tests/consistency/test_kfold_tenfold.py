"""Ten-fold cross-validation as scikit-learn runs it, mean of scores with unknown folds (issue 33, item 4).

``tenfold_cases`` draws data sets of up to 60 positives and 160 negatives, splits them into 10 folds with
``KFold(shuffle=True)``, ``StratifiedKFold`` or ``RepeatedKFold`` (2 repeats), scores every fold with
``sklearn.metrics`` under one ``zero_division`` and prints the mean of the folds' scores with 2-4 decimals.
benchtrust, told only p, n, k (and the repeats), must never call them inconsistent.
``benchmarks/bench_kfold_sklearn.py`` runs 1,000 of them and prints the distribution of the time per check;
``make test`` runs a sample.
"""

import collections
import importlib.util
import os
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.model_selection import KFold, RepeatedKFold, StratifiedKFold

from benchtrust._io import InputError
from benchtrust.consistency._folds import count_fold_configurations, fold_configurations
from benchtrust.consistency._kfold import check_kfold
from benchtrust.consistency._reported import reported_scores
from benchtrust.consistency._solver._mean_constraints import LINEAR, Constraints, constraints
from benchtrust.consistency._solver._mean_of_scores import solve

_SPEC = importlib.util.spec_from_file_location(
    "_sklearn_cases", Path(__file__).with_name("test_kfold_sklearn.py")
)
_SKLEARN = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_SKLEARN)
ZERO_DIVISION, _fold_scores = _SKLEARN.ZERO_DIVISION, _SKLEARN._fold_scores

#: Experiments of ``make test``; benchmarks/bench_generated.py sets BENCHTRUST_ALL_EXAMPLES=1 for more.
SAMPLE = 60 if os.environ.get("BENCHTRUST_ALL_EXAMPLES") else 8


def tenfold_cases(count, seed, cache=None):
    """``count`` 10-fold experiments as scikit-learn prints their mean of scores: (check_kfold keyword
    arguments, scores, description)."""
    rng = np.random.default_rng(seed)
    cache = {} if cache is None else cache
    for _ in range(count):
        p = int(rng.integers(1, 61))
        n = int(rng.integers(10, 161))
        kind = ("kfold", "stratified", "repeated")[int(rng.integers(3))]
        state = int(rng.integers(2**31))
        repeats = 2 if kind == "repeated" else 1
        splitter = {
            "kfold": KFold(10, shuffle=True, random_state=state),
            "stratified": StratifiedKFold(10, shuffle=True, random_state=state),
            "repeated": RepeatedKFold(n_splits=10, n_repeats=repeats, random_state=state),
        }[kind]
        y = rng.permutation(np.r_[np.ones(p, dtype=bool), np.zeros(n, dtype=bool)])
        y_pred = y ^ (rng.random(p + n) < rng.uniform(0.0, 0.5))
        zero_division = ZERO_DIVISION[int(rng.integers(len(ZERO_DIVISION)))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the least populated class has fewer members than folds
            folds = [test for _, test in splitter.split(np.zeros(p + n), y)]
        per_fold = [_fold_scores(y[test], y_pred[test], zero_division, cache) for test in folds]
        names = list(rng.permutation(["acc", "sens", "spec", "bacc"])[: int(rng.integers(1, 5))])
        decimals = int(rng.integers(2, 5))
        mean = np.nanmean if zero_division is np.nan else np.mean
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a score undefined in every fold: nanmean of nothing
            values = {name: mean([scores[name] for scores in per_fold]) for name in names}
        scores = {str(name): f"{values[name]:.{decimals}f}" for name in names if not np.isnan(values[name])}
        if not scores:
            continue
        options = {"positives": p, "negatives": n, "folds": 10, "repeats": repeats}
        description = f"{kind} p={p} n={n} r={repeats} zero_division={zero_division} {scores}"
        yield options, scores, description


def checked(options, scores):
    """check_kfold's verdict, or ``"refused"`` when the repeats' combinations of configurations are more
    than ``max_configurations`` (RepeatedKFold of larger data sets)."""
    try:
        return check_kfold(scores, **options).consistent
    except InputError as error:
        if "max_configurations" not in str(error):
            raise
        return "refused"


@pytest.mark.parametrize("seed", [0, 1])
def test_ten_fold_scores_are_never_inconsistent(seed):
    verdicts = collections.Counter()
    for options, scores, description in tenfold_cases(SAMPLE // 2, seed=seed):
        verdicts[checked(options, scores)] += 1
        assert verdicts[False] == 0, description
    assert verdicts[True] >= SAMPLE // 4, verdicts


def _brute_force_repeats(p, n, k, scores):
    """Whether some pair of fold configurations (every one the fold sizes allow, one per repeat) has
    counts giving the scores, undefined scores counted as 0: one solve() per pair."""
    given = constraints(reported_scores(scores))
    bases = sorted({LINEAR[name][0] for name in scores} & {"sens", "spec", "bacc"})
    given = Constraints(given.means, given.each, tuple((base, "0") for base in bases))
    every = fold_configurations(p, n, k, training_sets_hold_both=False)
    return any(
        solve(*np.concatenate([first, second]).T, given) is not None for first in every for second in every
    )


def test_repeats_search_alike_configurations_first_without_changing_a_verdict():
    """Two repeats of small data sets with unknown folds: the verdict is that of one solve() per pair of
    configurations, whether the fit is found among the configurations repeated alike (searched first) or
    only among the other pairs; both happen."""
    rng = np.random.default_rng(33)
    orders = collections.Counter()
    for _ in range(20):
        p, n = int(rng.integers(1, 7)), int(rng.integers(1, 7))
        k = int(rng.integers(2, min(3, p + n) + 1))
        names = rng.permutation(["acc", "sens", "spec", "bacc"])[: int(rng.integers(1, 4))]
        scores = {str(name): f"{rng.integers(0, 21) / 20:.2f}" for name in names}
        result = check_kfold(scores, positives=p, negatives=n, folds=k, repeats=2, zero_division="0")
        assert result.consistent == _brute_force_repeats(p, n, k, scores), (p, n, k, scores)
        orders[result.order] += 1
    assert orders["alike"] + orders["alike-likely"] and orders["generator"] and orders[None], orders


def test_repeats_past_max_configurations_try_the_configurations_repeated_alike():
    """More combinations over the repeats than ``max_configurations``: the configurations repeated alike
    (each within the limit) are searched and give the verdict "consistent" when one fits; when none does,
    the search space is refused as before, saying so."""
    scores = {"sens": "0.75", "spec": "0.6"}  # 2 repeats of 8 positives, 8 negatives in 2 folds
    every = count_fold_configurations(8, 8, 2, training_sets_hold_both=False)
    paper = count_fold_configurations(8, 8, 2, positive_in_every_fold=True, negative_in_every_fold=True)
    assert (every, paper**2) == (5, 16)  # the paper's combinations alone are more than the limit
    result = check_kfold(scores, positives=8, negatives=8, folds=2, repeats=2, max_configurations=every)
    assert result.consistent and result.order in ("alike", "alike-likely")
    assert result.evidence["configuration"][:2] == result.evidence["configuration"][2:]
    # Folds of 4 items: (0, 4), (1, 3) and (2, 2) positives; only (0, 4) in one repeat and (1, 3) in the
    # other give these.
    scores = {"sens": "0.15", "acc": "0.25"}
    options = {"positives": 4, "negatives": 4, "folds": 2, "repeats": 2, "zero_division": "0"}
    result = check_kfold(scores, **options)
    assert result.order == "generator" and result.evidence["configuration"] == [
        [0, 4],
        [4, 0],
        [1, 3],
        [3, 1],
    ]
    every = count_fold_configurations(4, 4, 2, training_sets_hold_both=False)
    assert every == 3 and result.configurations["paper"] == 4  # the paper's combinations: 2 x 2
    with pytest.raises(InputError, match=r"repeated alike in every repeat \(all 3 tried\)"):
        check_kfold(scores, **options, max_configurations=every)
    with pytest.raises(InputError, match="max_configurations=") as refused:
        check_kfold(scores, **options, max_configurations=every - 1)
    assert "repeated alike" not in str(refused.value)
