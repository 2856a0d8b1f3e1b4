"""Ground truth from scikit-learn: multiclass scores of k-fold cross-validation are never "inconsistent".

Random small data sets of 2-5 classes (classes with fewer items than folds included, so that some folds
miss a class) are split by ``StratifiedKFold``, ``RepeatedStratifiedKFold`` and ``KFold(shuffle=True)``,
the labels in a random order (so the order of first appearance is unknown to the check); predictions are
random, or the truth with some labels replaced at random. Each fold is scored:

* micro: ``accuracy_score`` and ``f1_score(average="micro")`` of scikit-learn, and the precision,
  sensitivity, accuracy, specificity, balanced accuracy and MCC of the pooled one-vs-rest matrix
  (computed here from their definitions);
* macro: ``recall_score(average="macro")`` under every ``zero_division`` (its default leaves a class out of
  a fold's mean unless it was predicted there), and the classes' one-vs-rest specificity, accuracy and
  balanced accuracy averaged with ``np.nanmean`` (a class without items leaves its balanced accuracy out).

The folds' scores are averaged (``np.mean``, or ``np.nanmean`` for ``zero_division=np.nan``), or the
pooled predictions scored once (score of means), and printed with 2-4 decimals. benchtrust must find every
claim consistent: stratified folds for the stratified splitters, the folds' class counts as given or the
fold sizes for ``KFold``. ``benchmarks/bench_kfold_sklearn.py`` runs the same generator on 10,000 cases.
"""

import os
import warnings

import numpy as np
from sklearn.metrics import accuracy_score, f1_score, recall_score
from sklearn.model_selection import KFold, RepeatedStratifiedKFold, StratifiedKFold

from benchtrust.consistency._multiclass_kfold import check_multiclass_kfold

ZERO_DIVISION = ("warn", 0.0, 1.0, np.nan)


def _one_vs_rest(y_true, y_pred, classes):
    """Per class (tp, tn, p, n) of the one-vs-rest matrices."""
    matrix = np.zeros((classes, classes), dtype=np.int64)
    np.add.at(matrix, (y_true, y_pred), 1)
    tp = np.diag(matrix)
    p = matrix.sum(axis=1)
    n = matrix.sum() - p
    return tp, n - matrix.sum(axis=0) + tp, p, n


def _micro_scores(y_true, y_pred, classes):
    tp, tn, p, n = (part.sum() for part in _one_vs_rest(y_true, y_pred, classes))
    fp, fn = n - tn, p - tp
    mcc = (tp * tn - fp * fn) / np.sqrt(float((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)))
    return {
        "accuracy_score": accuracy_score(y_true, y_pred),
        "f1": f1_score(y_true, y_pred, average="micro"),
        "ppv": tp / (tp + fp),
        "sens": tp / p,
        "acc": (tp + tn) / (p + n),
        "spec": tn / n,
        "bacc": (tp / p + tn / n) / 2,
        "mcc": mcc,
    }


def _macro_scores(y_true, y_pred, classes, zero_division):
    tp, tn, p, n = (part.astype(float) for part in _one_vs_rest(y_true, y_pred, classes))
    with np.errstate(divide="ignore", invalid="ignore"):
        sens, spec = tp / p, tn / n
        per_class = {"spec": spec, "acc": (tp + tn) / (p + n), "bacc": (sens + spec) / 2}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        recall = recall_score(y_true, y_pred, average="macro", zero_division=zero_division)
        scores = {name: np.nanmean(values) for name, values in per_class.items()}
    return {"sens": recall, **scores}


def multiclass_cases(count, seed):
    """``count`` scikit-learn experiments: (options of check_multiclass_kfold, scores, description)."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        classes = int(rng.integers(2, 6))
        counts = rng.integers(1, 16, size=classes)
        folds = int(rng.integers(2, 6))
        if counts.max() < folds:
            continue
        y = rng.permutation(np.repeat(np.arange(classes), counts))
        splitter = rng.choice(["stratified", "repeated", "kfold"])
        seed_split = int(rng.integers(1 << 30))
        if splitter == "stratified" and rng.integers(2):
            split = StratifiedKFold(folds, shuffle=True, random_state=seed_split)
        elif splitter == "stratified":
            split = StratifiedKFold(folds)
        elif splitter == "repeated":
            split = RepeatedStratifiedKFold(n_splits=folds, n_repeats=2, random_state=seed_split)
        else:
            split = KFold(folds, shuffle=True, random_state=seed_split)
        keep = rng.uniform(0, 1)
        y_pred = np.where(rng.uniform(size=y.size) < keep, y, rng.integers(0, classes, size=y.size))
        average = rng.choice(["micro", "macro"])
        zero_division = ZERO_DIVISION[int(rng.integers(len(ZERO_DIVISION)))]
        fold_counts, fold_scores = [], []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # StratifiedKFold warns of classes smaller than k
            splits = list(split.split(np.zeros(y.size), y))
        for _, test in splits:
            fold_counts.append(np.bincount(y[test], minlength=classes))
            fold_scores.append(
                _micro_scores(y[test], y_pred[test], classes)
                if average == "micro"
                else _macro_scores(y[test], y_pred[test], classes, zero_division)
            )
        aggregation = "som" if rng.uniform() < 0.2 else "mos"
        if aggregation == "som":
            values = (
                _micro_scores(y, y_pred, classes)
                if average == "micro"
                else _macro_scores(y, y_pred, classes, zero_division)
            )
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a score undefined in every fold is not reported
                values = {name: np.nanmean([s[name] for s in fold_scores]) for name in fold_scores[0]}
        names = [name for name in values if np.isfinite(values[name])]
        chosen = rng.choice(names, size=int(rng.integers(1, min(4, len(names)) + 1)), replace=False)
        decimals = int(rng.integers(2, 5))
        scores = {str(name): f"{values[name]:.{decimals}f}" for name in chosen}
        if splitter == "kfold":
            folding = np.array(fold_counts) if average == "macro" else "unknown"
        else:
            folding = "stratified"
        options = {
            "class_counts": counts.tolist(),
            "folds": folds,
            "repeats": 2 if splitter == "repeated" else 1,
            "average": str(average),
            "aggregation": aggregation,
            "folding": folding,
        }
        description = (
            f"{splitter} k={folds} counts={counts.tolist()} {average} {aggregation} "
            f"zero_division={zero_division} scores={scores}"
        )
        made += 1
        yield options, scores, description


def test_scikit_learn_multiclass_scores_are_never_inconsistent():
    """70 experiments (120 with BENCHTRUST_ALL_EXAMPLES, as benchmarks/bench_generated.py sets it; the
    benchmark runs 10,000): every claim is consistent with its experiment, and the generator is not too
    kind: some macro claims have folds that miss a class."""
    cases = list(multiclass_cases(120 if os.environ.get("BENCHTRUST_ALL_EXAMPLES") else 70, seed=17))
    wrong = [
        description
        for options, scores, description in cases
        if not check_multiclass_kfold(scores, **options).consistent
    ]
    assert wrong == []
    missing = [
        options
        for options, _, _ in cases
        if not isinstance(options["folding"], str) and (np.asarray(options["folding"]) == 0).any()
    ]
    assert len(missing) >= 5
