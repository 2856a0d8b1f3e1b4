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

import collections
import itertools
import os
import warnings
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, balanced_accuracy_score, recall_score
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    LeaveOneGroupOut,
    PredefinedSplit,
    RepeatedStratifiedKFold,
    StratifiedKFold,
    TimeSeriesSplit,
)

from benchtrust.consistency._folds import fold_configurations
from benchtrust.consistency._kfold import check_kfold
from benchtrust.consistency._solver._mean_constraints import CONVENTIONS

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


#: Experiments of ``make test``: 160 (400 with BENCHTRUST_ALL_EXAMPLES, as benchmarks/bench_generated.py
#: sets it; benchmarks/bench_kfold_sklearn.py runs 10,000).
EXPERIMENTS = 400 if os.environ.get("BENCHTRUST_ALL_EXAMPLES") else 160


@pytest.mark.slow
def test_scikit_learn_scores_are_never_inconsistent():
    checked, lacking = 0, 0
    for options, scores, description in sklearn_cases(EXPERIMENTS, seed=19):
        result = check_kfold(scores, **options)
        assert result.consistent, description
        checked += 1
        lacking += undefined_somewhere(options)
    assert checked >= EXPERIMENTS and lacking >= EXPERIMENTS // 4  # folds without a class are well covered


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


def split_cases(count, seed, cache=None):
    """``count`` experiments with the splitters whose folds differ in size by more than one (issue 29):
    ``GroupKFold`` (with and without shuffling), ``LeaveOneGroupOut``, ``PredefinedSplit`` (items marked
    -1 in no test fold) and ``TimeSeriesSplit`` (the first chunk in no test fold), on labels shuffled or
    sorted (folds without positives, p < k). Every fold is scored by ``sklearn.metrics`` under one
    ``zero_division``, the scores averaged and printed with 4 decimals.

    Yields (check_kfold keyword arguments describing the folds' sizes as the splitter made them, scores,
    a description).
    """
    rng = np.random.default_rng(seed)
    cache = {} if cache is None else cache
    made = 0
    while made < count:
        p, n = int(rng.integers(1, 10)), int(rng.integers(1, 19))
        items = p + n
        kind = ("group", "group-shuffled", "leave-one-group-out", "predefined", "time-series")[
            int(rng.integers(5))
        ]
        groups = rng.integers(0, int(rng.integers(2, min(items, 7) + 1)), items)
        k = int(rng.integers(2, 6))
        if kind.startswith("group"):
            if len(np.unique(groups)) < k:
                continue
            splitter = GroupKFold(
                k,
                shuffle=kind == "group-shuffled",
                random_state=int(rng.integers(2**31)) if kind == "group-shuffled" else None,
            )
        elif kind == "leave-one-group-out":
            if len(np.unique(groups)) < 2:
                continue
            splitter = LeaveOneGroupOut()
        elif kind == "predefined":
            marks = rng.integers(-1, k, items)
            if len(np.unique(marks[marks >= 0])) < k:
                continue
            splitter = PredefinedSplit(marks)
        else:
            if items // (k + 1) < 1:
                continue
            splitter = TimeSeriesSplit(k)
        order = rng.permutation(np.r_[np.ones(p, dtype=bool), np.zeros(n, dtype=bool)])
        y = np.sort(order)[::-1].copy() if rng.random() < 0.3 else order  # sorted: folds without a class
        flip = 0.0 if rng.random() < 0.2 else rng.uniform(0.02, 0.5)
        y_pred = y ^ (rng.random(items) < flip)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # TimeSeriesSplit and PredefinedSplit ignore the groups
            folds = [test for _, test in splitter.split(np.zeros(items), y, groups)]
        if len(folds) < 2:
            continue
        zero_division = ZERO_DIVISION[int(rng.integers(len(ZERO_DIVISION)))]
        per_fold = [_fold_scores(y[test], y_pred[test], zero_division, cache) for test in folds]
        names = list(rng.permutation(["acc", "sens", "spec", "bacc"])[: int(rng.integers(1, 5))])
        mean = np.nanmean if zero_division is np.nan else np.mean
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a score undefined in every fold: nanmean of nothing
            values = {name: mean([scores[name] for scores in per_fold]) for name in names}
        scores = {name: f"{values[name]:.4f}" for name in names if not np.isnan(values[name])}
        if not scores:
            continue
        sizes = [len(test) for test in folds]
        options = {
            "positives": p,
            "negatives": n,
            "folds": len(folds),
            "aggregation": "mos",
            "fold_sizes": sizes,
            "partial": sum(sizes) < items,
        }
        made += 1
        yield options, scores, f"{kind} sizes={sizes} p={p} n={n} zero_division={zero_division} {scores}"


@pytest.mark.slow
def test_splits_of_any_fold_sizes_are_never_inconsistent():
    """Issue 29: given the fold sizes the splitter made, scikit-learn's scores are never "inconsistent";
    with the default description (near-equal folds) an "inconsistent" verdict names those folds."""
    kinds = collections.Counter()
    for options, scores, description in split_cases(120, seed=29):
        result = check_kfold(scores, **options)
        assert result.consistent is not False, description
        kinds[description.split()[0]] += 1
        if options["partial"]:
            continue
        default = check_kfold(scores, **{**options, "fold_sizes": None, "partial": False})
        if default.consistent is False:
            assert "near-equal size" in default.verdict and "not covered" in default.verdict, description
            assert default.to_dict()["fold_sizes"] == "equal"
    assert len(kinds) == 5  # every splitter is covered


@pytest.mark.parametrize("seed", [0, 1])
def test_any_fold_sizes_cover_every_split(seed):
    """fold_sizes="any" contains every split: small scikit-learn experiments of every splitter are never
    inconsistent with it."""
    for options, scores, description in split_cases(40, seed=seed):
        if options["partial"] or options["positives"] + options["negatives"] > 12:
            continue
        result = check_kfold(scores, **{**options, "fold_sizes": "any", "partial": False})
        assert result.consistent is not False, description


def test_groupkfold_of_issue_29():
    """2 positives and 4 negatives in folds of 4 and 2 items: inconsistent with near-equal folds only."""
    y = np.array([True, False, False, True, False, False])
    folds = [test for _, test in GroupKFold(2).split(y, y, groups=[0, 0, 0, 0, 1, 1])]
    per_fold = [_fold_scores(y[test], y[test].copy(), "warn", {}) for test in folds]
    per_fold[0] = _fold_scores(y[folds[0]], np.array([True, False, True, False]), "warn", {})
    scores = {name: f"{np.mean([s[name] for s in per_fold]):.4f}" for name in ("acc", "sens", "spec", "bacc")}
    default = check_kfold(scores, positives=2, negatives=4, folds=2)
    assert default.consistent is False
    assert "no split into 2 folds of near-equal size" in str(default)
    assert "cannot come from this experiment" not in str(default)
    sizes = sorted(len(test) for test in folds)
    assert check_kfold(scores, positives=2, negatives=4, folds=2, fold_sizes=sizes).consistent
    assert check_kfold(scores, positives=2, negatives=4, folds=2, fold_sizes="any").consistent


def test_ten_fold_kfold_of_48_positives_ends_within_max_work():
    """Issue 29: 10-fold KFold of 48 positives and 115 negatives, one fold without positives, where every
    configuration of the paper is ruled out: the check ends with a verdict within ``max_work``, never
    "inconsistent"."""
    rng = np.random.default_rng(15)
    y = rng.permutation(np.r_[np.ones(48, dtype=bool), np.zeros(115, dtype=bool)])
    y_pred = y ^ (rng.random(163) < rng.uniform(0.02, 0.5))
    folds = [test for _, test in KFold(10, shuffle=True, random_state=15).split(y)]
    assert min(y[test].sum() for test in folds) == 0  # the case: a fold without positives
    per_fold = [_fold_scores(y[test], y_pred[test], "warn", {}) for test in folds]
    scores = {name: f"{np.mean([s[name] for s in per_fold]):.4f}" for name in ("acc", "sens", "spec", "bacc")}
    calls = []
    result = check_kfold(
        scores, positives=48, negatives=115, folds=10, max_work=300, progress=lambda *a: calls.append(a)
    )
    assert result.consistent is None and "max_work" in result.undecided
    assert "undecided" in str(result) and result.to_dict()["undecided"] == result.undecided
    assert calls and calls[-1][0] <= calls[-1][1]  # progress counts up to the total
    assert result.configurations["paper"] == 261_638  # ruled out at once by the identity
