"""§4.4 of Fazekas & Kovács: the fold configurations of k-fold cross-validation.

§4.4.3: p = 30, n = 300, k = 5 has 673 fold configurations, one of them (1, 65), (2, 64), (6, 60), (9, 57),
(12, 54). §5.2: the EHG data (p = 38, n = 262, k = 5, sensitivity and specificity averaged, so every fold
holds both classes) has 918, and with the positives oversampled to 244 "2.6M".
"""

from benchtrust.consistency._folds import count_fold_configurations, fold_configurations, stratified_folds

BOTH = {"positive_in_every_fold": True, "negative_in_every_fold": True}


def test_section_4_4_3_count_and_example():
    configurations = fold_configurations(30, 300, 5)
    assert len(configurations) == count_fold_configurations(30, 300, 5) == 673
    assert [[1, 65], [2, 64], [6, 60], [9, 57], [12, 54]] in configurations.tolist()
    assert (configurations.sum(axis=2) == 66).all()  # 330 items in 5 folds of 66


def test_section_5_2_counts():
    assert (
        len(fold_configurations(38, 262, 5, **BOTH)) == count_fold_configurations(38, 262, 5, **BOTH) == 918
    )
    count = count_fold_configurations(244, 262, 5, **BOTH)
    assert round(count / 1e6, 1) == 2.6
    assert count == 2_616_607


def test_section_4_4_2_stratified_configuration_is_even():
    """Folds differ by at most one in size and in each class count: the unique configuration."""
    folds = stratified_folds(38, 262, 5)
    assert sorted(map(tuple, folds.tolist())) == [(7, 53), (7, 53), (8, 52), (8, 52), (8, 52)]
    assert sorted(map(tuple, folds.tolist())) in [
        sorted(map(tuple, c)) for c in fold_configurations(38, 262, 5).tolist()
    ]
