"""Ground truth from scikit-learn: scores it prints for k-fold cross-validation are never "inconsistent".

Random small data sets (p from 1, up to 10 folds, fewer positives or negatives than folds included) are
split by ``KFold(shuffle=True)``, ``StratifiedKFold`` and ``RepeatedStratifiedKFold``; predictions are
random or perfect; every fold is scored by ``sklearn.metrics`` (accuracy, recall of either class,
balanced accuracy) under one ``zero_division`` (the default ``"warn"``, 0, 1 or ``np.nan``), and the
folds' scores are averaged as ``cross_validate`` users do (``np.mean``, or ``np.nanmean`` with
``np.nan``: mean of scores) or computed on the pooled predictions (score of means), then printed with
2-4 decimals. benchtrust must find them consistent with the experiment described: unknown folds, and
stratified folds for the stratified splitters (issue 19, §1). ``benchmarks/bench_kfold_sklearn.py``
runs the same generator on 10,000 cases.

The reverse, that the fix is not a looser test: on small data sets every mean a single score can take
is enumerated (every fold configuration, every per-fold count, every convention), and each value
0.00, 0.01, ..., 1.00 is consistent exactly when one of them lies in its interval.
"""

import itertools
import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, recall_score
from sklearn.model_selection import KFold, RepeatedStratifiedKFold, StratifiedKFold

from benchtrust.consistency._folds import fold_configurations
from benchtrust.consistency._kfold import check_kfold
from benchtrust.consistency._mean_constraints import CONVENTIONS

ZERO_DIVISION = ("warn", 0.0, 1.0, np.nan)


def _fold_scores(y_true, y_pred, zero_division, cache):
    """sklearn's scores of one fold; they depend on its confusion matrix only, so one call per matrix."""
    positives = int(y_true.sum())
    key = (
        len(y_true),
        positives,
        int((y_true & y_pred).sum()),
        int((~y_true & ~y_pred).sum()),
        zero_division,
    )
    if key not in cache:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # undefined recall, one class in y_true
            cache[key] = {
                "acc": accuracy_score(y_true, y_pred),
                "sens": recall_score(y_true, y_pred, zero_division=zero_division),
                "spec": recall_score(y_true, y_pred, pos_label=0, zero_division=zero_division),
                "bacc": balanced_accuracy_score(y_true, y_pred),
            }
    return cache[key]


def sklearn_cases(count, seed, cache=None):
    """``count`` claims as scikit-learn prints them: (check_kfold keyword arguments, a description)."""
    rng = np.random.default_rng(seed)
    cache = {} if cache is None else cache
    made = 0
    while made < count:
        p = int(rng.integers(1, 13))
        n = int(rng.integers(1, 26))
        k = int(rng.integers(2, min(10, p + n) + 1))
        kind = ("kfold", "stratified", "repeated")[int(rng.integers(3))]
        if kind != "kfold" and k > max(p, n):
            continue  # StratifiedKFold refuses more folds than members of every class
        repeats = int(rng.integers(2, 4)) if kind == "repeated" else 1
        splitter = {
            "kfold": KFold(k, shuffle=True, random_state=int(rng.integers(2**31))),
            "stratified": StratifiedKFold(k, shuffle=bool(rng.integers(2)), random_state=None),
            "repeated": RepeatedStratifiedKFold(
                n_splits=k, n_repeats=repeats, random_state=int(rng.integers(2**31))
            ),
        }[kind]
        if kind == "stratified" and splitter.shuffle:
            splitter.random_state = int(rng.integers(2**31))
        y = rng.permutation(np.r_[np.ones(p, dtype=bool), np.zeros(n, dtype=bool)])
        flip = 0.0 if rng.random() < 0.2 else rng.uniform(0.02, 0.5)
        y_pred = y ^ (rng.random(p + n) < flip)
        zero_division = ZERO_DIVISION[int(rng.integers(len(ZERO_DIVISION)))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the least populated class has fewer members than folds
            folds = [test for _, test in splitter.split(np.zeros(p + n), y)]
        names = list(rng.permutation(["acc", "sens", "spec", "bacc"])[: int(rng.integers(1, 4))])
        decimals = int(rng.integers(2, 5))
        aggregation = "som" if rng.random() < 0.2 else "mos"
        if aggregation == "som":
            pooled = np.concatenate(folds)
            values = _fold_scores(y[pooled], y_pred[pooled], zero_division, cache)
        else:
            per_fold = [_fold_scores(y[test], y_pred[test], zero_division, cache) for test in folds]
            mean = np.nanmean if zero_division is np.nan else np.mean
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a score undefined in every fold: nanmean of nothing
                values = {name: mean([scores[name] for scores in per_fold]) for name in names}
        scores = {name: f"{values[name]:.{decimals}f}" for name in names if not np.isnan(values[name])}
        if not scores:
            continue
        options = {"positives": p, "negatives": n, "folds": k, "repeats": repeats, "aggregation": aggregation}
        made += 1
        description = f"{kind} k={k} p={p} n={n} r={repeats} zero_division={zero_division} {scores}"
        if aggregation == "mos" and kind != "kfold":
            yield {**options, "folding": "stratified"}, scores, description
        if aggregation == "som" or repeats == 1:
            yield {**options, "folding": "unknown"}, scores, description


def undefined_somewhere(options):
    """Whether the stratified or some fold of the experiment can lack a class (p or n below k)."""
    return min(options["positives"], options["negatives"]) < options["folds"]


@pytest.mark.slow
def test_scikit_learn_scores_are_never_inconsistent():
    checked, lacking = 0, 0
    for options, scores, description in sklearn_cases(1000, seed=19):
        result = check_kfold(scores, **options)
        assert result.consistent, description
        checked += 1
        lacking += undefined_somewhere(options)
    assert checked >= 1000 and lacking >= 200  # the folds without a class are well covered


def _reachable(p, n, k, base):
    """Every mean of ``base`` over k folds of p positives and n negatives: every configuration the fold
    sizes allow, every per-fold count, every convention for an undefined score (exact fractions)."""
    out = set()
    for configuration in fold_configurations(p, n, k, training_sets_hold_both=False).tolist():
        for convention in CONVENTIONS:
            choices = []
            for p_i, n_i in configuration:
                values = set()
                for tp, tn in itertools.product(range(p_i + 1), range(n_i + 1)):
                    recalls = [Fraction(tp, p_i) if p_i else None, Fraction(tn, n_i) if n_i else None]
                    present = [r for r in recalls if r is not None]
                    if base == "acc":
                        values.add(Fraction(tp + tn, p_i + n_i))
                    elif base == "bacc":
                        values.add(
                            sum(present) / 2
                            if len(present) == 2
                            else present[0]
                            if convention == "skip"
                            else (present[0] + Fraction(convention)) / 2
                        )
                    else:
                        value = recalls[base == "spec"]
                        values.add(
                            value if value is not None or convention == "skip" else Fraction(convention)
                        )
                choices.append(values)
            for pick in itertools.product(*choices):
                kept = [v for v in pick if v is not None]
                if kept:
                    out.add(sum(kept) / len(kept))
    return out


@pytest.mark.parametrize(("p", "n", "k"), [(1, 6, 3), (2, 4, 4)])
@pytest.mark.parametrize("base", ["acc", "sens", "spec", "bacc"])
def test_exhaustive_enumeration_decides_every_two_decimal_value(p, n, k, base):
    reachable = _reachable(p, n, k, base)
    flagged = 0
    for hundredths in range(101):
        text = f"{hundredths / 100:.2f}"
        result = check_kfold({base: text}, positives=p, negatives=n, folds=k)
        low, high = result.scores[0].interval
        expected = any(Fraction(low) <= value <= Fraction(high) for value in reachable)
        assert result.consistent == expected, (text, sorted(reachable))
        flagged += not result.consistent
    assert flagged > 0 or base == "sens"  # impossible values exist and are flagged
