"""Consistency of reported binary-classification scores (Fazekas & Kovács).

Given the scores a paper reports and the experiment it describes (one test set, k-fold cross-validation
with either aggregation, known or unknown folds, several data sets, multiclass averages), could the
experiment have produced them? Every "inconsistent" verdict is certain: a statement about integers, never
a statistical test.
"""

from benchtrust.consistency._batch import BatchResult, check_batch
from benchtrust.consistency._folds import count_fold_configurations, fold_configurations, stratified_folds
from benchtrust.consistency._kfold import KFoldResult, check_kfold
from benchtrust.consistency._multiclass import MulticlassResult, check_multiclass
from benchtrust.consistency._reported import TOLERANCE, Reported, decimals, reported_scores
from benchtrust.consistency._scores import SCORES, Score, score
from benchtrust.consistency._test_set import TestSetResult, check_test_set

__all__ = [
    "SCORES",
    "TOLERANCE",
    "BatchResult",
    "KFoldResult",
    "MulticlassResult",
    "Reported",
    "Score",
    "TestSetResult",
    "check_batch",
    "check_kfold",
    "check_multiclass",
    "check_test_set",
    "count_fold_configurations",
    "decimals",
    "fold_configurations",
    "reported_scores",
    "score",
    "stratified_folds",
]
