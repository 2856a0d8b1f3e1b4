"""A small instance of each public result of :mod:`benchtrust.consistency`, for ``tests/test_protocol.py``."""

import pandas as pd

from benchtrust.consistency import (
    check_batch,
    check_kfold,
    check_multiclass,
    check_multiclass_kfold,
    check_protocols,
    check_regression,
    check_test_set,
)


def _batch():
    claims = pd.DataFrame(
        {
            "id": ["as reported", "typo"],
            "positives": [100, 100],
            "negatives": [200, 200],
            "acc": ["0.8967", "0.8967"],
            "sens": ["0.85", "0.85"],
            "ppv": ["0.8416", "0.8461"],
        }
    )
    return check_batch(claims)


EXAMPLES = {
    "TestSetResult": lambda: check_test_set(
        {"acc": "0.6821", "npv": "0.9401", "f1": "0.4004"}, positives=1000, negatives=6000, eps=1e-4
    ),
    "KFoldResult": lambda: check_kfold(
        {"sens": "0.6", "acc": "1.0"}, positives=3, negatives=20, folds=5, folding="stratified"
    ),
    "MulticlassResult": lambda: check_multiclass(
        {"sens": "0.75", "spec": "0.875", "acc": "0.8333"}, class_counts=[4, 4, 4], average="macro"
    ),
    "MulticlassKFoldResult": lambda: check_multiclass_kfold(
        {"sens": "0.50", "spec": "0.75"},
        class_counts=[4, 3, 3],
        folds=2,
        average="macro",
        folding=[[2, 2, 1], [2, 1, 2]],
    ),
    "RegressionResult": lambda: check_regression({"mse": "0.25", "rmse": "0.40"}, size=10),
    "BatchResult": _batch,
    "ProtocolsResult": lambda: check_protocols({"acc": "0.9"}, positives=10, negatives=10, folds=2, eps=0.01),
}
