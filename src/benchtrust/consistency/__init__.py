"""Consistency of reported binary-classification scores (Fazekas & Kovács), and of regression scores.

Given the scores a paper reports and the experiment it describes (one test set, k-fold cross-validation
with either aggregation, known or unknown folds, several data sets, multiclass averages on one test set or
over folds), could the experiment have produced them? Every "inconsistent" verdict is certain: a statement
about integers, never a statistical test.
"""

from benchtrust.consistency._batch import BatchResult, check_batch, read_folding
from benchtrust.consistency._class_folds_file import read_class_folds
from benchtrust.consistency._datasets import TestSetCounts, dataset, dataset_names
from benchtrust.consistency._folds import count_fold_configurations, fold_configurations, stratified_folds
from benchtrust.consistency._kfold import KFoldResult, check_kfold
from benchtrust.consistency._multiclass import MulticlassResult, check_multiclass
from benchtrust.consistency._multiclass_kfold import MulticlassKFoldResult, check_multiclass_kfold
from benchtrust.consistency._protocols import ProtocolsResult, check_protocols
from benchtrust.consistency._regression import RegressionResult, check_regression, regression_verdicts
from benchtrust.consistency._reported import TOLERANCE, Reported, decimals, reported_scores
from benchtrust.consistency._scores import SCORES, Score, score
from benchtrust.consistency._test_set import TestSetResult, check_test_set

__all__ = [
    "SCORES",
    "TOLERANCE",
    "BatchResult",
    "KFoldResult",
    "MulticlassKFoldResult",
    "MulticlassResult",
    "ProtocolsResult",
    "RegressionResult",
    "Reported",
    "Score",
    "TestSetCounts",
    "TestSetResult",
    "check_batch",
    "check_kfold",
    "check_multiclass",
    "check_multiclass_kfold",
    "check_protocols",
    "check_regression",
    "check_test_set",
    "count_fold_configurations",
    "dataset",
    "dataset_names",
    "decimals",
    "fold_configurations",
    "read_class_folds",
    "read_folding",
    "regression_verdicts",
    "reported_scores",
    "score",
    "stratified_folds",
]
