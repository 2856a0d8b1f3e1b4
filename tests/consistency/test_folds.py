"""Fold configurations (paper §4.4.3) against brute force, and stratified folds against scikit-learn."""

import itertools

import numpy as np
import pytest

from benchtrust import InputError
from benchtrust.consistency._folds import (
    configuration_chunks,
    count_fold_configurations,
    count_size_partitions,
    count_sized,
    fold_configurations,
    fold_sizes,
    likely_configurations,
    size_partitions,
    sized_chunks,
    stratified_folds,
)

FLAGS = [(False, False), (True, False), (False, True), (True, True)]


def brute_force(p, n, k, every_positive=False, every_negative=False):
    """Every configuration as a sorted tuple of (size, p_i): all k-tuples of p_i, sorted, deduplicated."""
    sizes = fold_sizes(p, n, k).tolist()
    found = set()
    for positives in itertools.product(*(range(size + 1) for size in sizes)):
        negatives = [size - v for size, v in zip(sizes, positives, strict=True)]
        if sum(positives) != p:
            continue
        if (every_positive and min(positives) == 0) or (every_negative and min(negatives) == 0):
            continue
        if sum(v > 0 for v in positives) < 2 or sum(v > 0 for v in negatives) < 2:
            continue
        found.add(tuple(sorted(zip(sizes, positives, strict=True))))
    return found


def as_keys(configurations):
    return [
        tuple(sorted(zip((c[:, 0] + c[:, 1]).tolist(), c[:, 0].tolist(), strict=True)))
        for c in configurations
    ]


@pytest.mark.parametrize(("every_positive", "every_negative"), FLAGS)
def test_matches_brute_force_on_small_cases(every_positive, every_negative):
    for p, n in itertools.product(range(1, 8), range(1, 8)):
        for k in range(2, min(p + n, 5) + 1):
            flags = {"positive_in_every_fold": every_positive, "negative_in_every_fold": every_negative}
            expected = brute_force(p, n, k, every_positive, every_negative)
            found = fold_configurations(p, n, k, **flags)
            keys = as_keys(found)
            assert len(keys) == len(set(keys)), (p, n, k)  # each multiset once
            assert set(keys) == expected, (p, n, k)
            assert count_fold_configurations(p, n, k, **flags) == len(expected), (p, n, k)


def test_shape_sizes_and_order():
    found = fold_configurations(13, 9, 4)
    sizes = fold_sizes(13, 9, 4)
    assert found.shape[1:] == (4, 2)
    assert (found.sum(axis=2) == sizes).all()
    assert (found[:, :, 0].sum(axis=1) == 13).all() and (found[:, :, 1].sum(axis=1) == 9).all()
    # Folds of one size in nondecreasing p_i; configurations in the generator's lexicographic order:
    # the positives in the larger folds, then the larger folds' p_i, then the smaller folds' p_i.
    big = sizes == sizes.max()
    keys = [(row[big, 0].sum(), *row[big, 0], *row[~big, 0]) for row in found]
    assert keys == sorted(keys)
    for group in (big, ~big):
        assert (np.diff(found[:, group, 0], axis=1) >= 0).all()


def test_first_configurations_of_the_oversampled_ehg_data():
    """p = 244, n = 262, k = 5, both classes in every fold: the generator's order, as mlscorecheck 1.0.3's
    fold_partitioning_generator yields it (its output for these arguments, recorded once)."""
    rows = next(configuration_chunks(244, 262, 5, True, True, chunk=64))
    assert rows[:3].tolist() == [[1, 1, 42, 100, 100], [1, 1, 43, 99, 100], [1, 1, 44, 98, 100]]


def test_chunks_are_bounded_and_complete():
    chunks = list(configuration_chunks(40, 60, 6, False, False, chunk=50))
    assert max(len(chunk) for chunk in chunks) <= 50
    rows = np.concatenate(chunks)
    assert len(rows) == count_fold_configurations(40, 60, 6)
    assert np.array_equal(rows, np.concatenate(list(configuration_chunks(40, 60, 6, False, False))))


def test_no_configuration_when_one_class_fits_one_fold():
    assert count_fold_configurations(1, 10, 2) == 0
    assert fold_configurations(1, 10, 2).shape == (0, 2, 2)
    assert count_fold_configurations(2, 10, 5, positive_in_every_fold=True) == 0


def test_counts_without_enumerating():
    assert count_fold_configurations(
        244, 262, 5, positive_in_every_fold=True, negative_in_every_fold=True
    ) == (2_616_607)
    assert count_fold_configurations(10_000, 90_000, 3) > 10**6  # big counts are exact integers


# scikit-learn 1.9.1, StratifiedKFold(k).split(X, y) with y = [0]*n + [1]*p: (positives, negatives) of each
# test fold in split order, recorded by running it (benchmarks/.venv-mlscorecheck holds scikit-learn).
SKLEARN = {
    (38, 262, 5): [[7, 53], [7, 53], [8, 52], [8, 52], [8, 52]],
    (244, 262, 5): [[49, 53], [48, 53], [49, 52], [49, 52], [49, 52]],
    (7, 3, 3): [[3, 1], [2, 1], [2, 1]],
    (3, 7, 3): [[1, 3], [1, 2], [1, 2]],
    (1, 9, 2): [[0, 5], [1, 4]],
    (9, 1, 2): [[4, 1], [5, 0]],
    (11, 17, 4): [[2, 5], [3, 4], [3, 4], [3, 4]],
    (50, 50, 10): [[5, 5]] * 10,
    (13, 101, 7): [[2, 15], [2, 15], [1, 15], [2, 14], [2, 14], [2, 14], [2, 14]],
    (100, 23, 6): [[17, 4], [17, 4], [17, 4], [16, 4], [16, 4], [17, 3]],
    (30, 300, 5): [[6, 60]] * 5,
    (31, 2, 3): [[10, 1], [10, 1], [11, 0]],
}


@pytest.mark.parametrize(("p", "n", "k"), sorted(SKLEARN))
def test_stratified_folds_as_scikit_learn(p, n, k):
    assert stratified_folds(p, n, k).tolist() == SKLEARN[(p, n, k)]


@pytest.mark.parametrize("seed", range(5))
def test_stratified_folds_defining_properties(seed):
    rng = np.random.default_rng(seed)
    for _ in range(200):
        p, n = (int(v) for v in rng.integers(1, 200, size=2))
        k = int(rng.integers(2, 12))
        if k > p + n or (k > p and k > n):
            continue
        folds = stratified_folds(p, n, k)
        assert folds[:, 0].sum() == p and folds[:, 1].sum() == n
        for column in (folds[:, 0], folds[:, 1], folds.sum(axis=1)):
            assert column.max() - column.min() <= 1  # sizes and each class count differ by at most one
        # Negatives dealt round robin from fold 0, the positives continuing where they stopped.
        assert folds[:, 1].tolist() == sorted(folds[:, 1].tolist(), reverse=True)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 5, 2), "positives: expected a positive whole number, got 0"),
        ((5, 2.5, 2), "negatives: expected a positive whole number, got 2.5"),
        ((5, 5, 1), "folds: expected a whole number >= 2, got 1"),
        ((2, 1, 4), "folds: 4 folds of 3 items would leave a fold empty"),
    ],
)
def test_bad_input(args, message):
    for function in (fold_configurations, count_fold_configurations, stratified_folds):
        with pytest.raises(InputError, match=message):
            function(*args)


def test_stratified_needs_one_class_as_large_as_the_folds():
    with pytest.raises(
        InputError, match=r"folds: 5 is more than the positives \(3\) and the negatives \(4\)"
    ):
        stratified_folds(3, 4, 5)


def brute_force_sized(sizes, totals, every_positive, every_negative, hold_both):
    """Every configuration of folds of these sizes as a sorted tuple of (size, p_i), by enumeration."""
    found = set()
    for positives in itertools.product(*(range(size + 1) for size in sizes)):
        negatives = [size - v for size, v in zip(sizes, positives, strict=True)]
        if sum(positives) not in totals:
            continue
        if (every_positive and min(positives) == 0) or (every_negative and min(negatives) == 0):
            continue
        if hold_both and (sum(v > 0 for v in positives) < 2 or sum(v > 0 for v in negatives) < 2):
            continue
        found.add(tuple(sorted(zip(sizes, positives, strict=True))))
    return found


@pytest.mark.parametrize("seed", range(4))
def test_any_fold_sizes_match_brute_force(seed):
    """Issue 29: folds of any given sizes (GroupKFold, LeaveOneGroupOut), and folds covering part of the
    data set (TimeSeriesSplit: several totals of positives), listed and counted as enumeration finds."""
    rng = np.random.default_rng(seed)
    for _ in range(25):
        k = int(rng.integers(2, 5))
        sizes = sorted(rng.integers(1, 6, k).tolist(), reverse=True)
        low = int(rng.integers(0, sum(sizes) + 1))
        totals = range(low, min(sum(sizes), low + int(rng.integers(0, 3))) + 1)
        for every_positive, every_negative in FLAGS:
            for hold_both in (True, False):
                expected = brute_force_sized(sizes, totals, every_positive, every_negative, hold_both)
                chunks = list(sized_chunks(sizes, totals, every_positive, every_negative, 7, hold_both))
                rows = np.concatenate(chunks) if chunks else np.zeros((0, k), dtype=np.int64)
                keys = [tuple(sorted(zip(sizes, row.tolist(), strict=True))) for row in rows]
                case = (sizes, list(totals), every_positive, every_negative, hold_both)
                assert len(keys) == len(set(keys)) and set(keys) == expected, case
                assert count_sized(sizes, totals, every_positive, every_negative, hold_both) == len(expected)


@pytest.mark.parametrize(("total", "folds"), [(6, 2), (9, 3), (12, 4), (7, 7)])
def test_size_partitions_are_every_multiset_of_non_empty_folds(total, folds):
    found = list(size_partitions(total, folds))
    expected = {
        tuple(sorted(c, reverse=True))
        for c in itertools.product(range(1, total + 1), repeat=folds)
        if sum(c) == total
    }
    assert len(found) == len(set(found)) and set(found) == expected
    assert count_size_partitions(total, folds) == len(expected)
    assert found[0] == tuple(fold_sizes(total - 1, 1, folds).tolist())  # the most even first


def exact_probabilities(p, n, sizes):
    """The probability that a uniformly random arrangement of p positives and n negatives puts the
    positives into folds of these sizes (the rest outside them) as each configuration: by brute force
    over the labelled folds, the folds of one size then forgotten (each group sorted ascending)."""
    from math import comb

    total = comb(p + n, p)
    found = {}
    for positives in itertools.product(*(range(size + 1) for size in sizes)):
        if sum(positives) > p or p - sum(positives) > p + n - sum(sizes):
            continue
        ways = comb(p + n - sum(sizes), p - sum(positives))
        for size, v in zip(sizes, positives, strict=True):
            ways *= comb(size, v)
        key = tuple(
            v
            for size in sorted(set(sizes), reverse=True)
            for v in sorted(v for s, v in zip(sizes, positives, strict=True) if s == size)
        )
        found[key] = found.get(key, 0) + ways / total
    return found


@pytest.mark.parametrize(
    ("p", "n", "sizes"),
    [(8, 8, [4, 4, 4, 4]), (5, 9, [3, 3, 3, 3, 2]), (4, 7, [4, 4, 3]), (3, 9, [3, 3, 3]), (6, 5, [5, 3, 2])],
)
def test_likely_configurations_come_in_order_of_their_exact_probability(p, n, sizes):
    """Small cases where the draws find every configuration: all come, each once, likeliest first (a
    partial case: the folds of 3 hold 9 of the 12 items, as TimeSeriesSplit's test folds)."""
    exact = exact_probabilities(p, n, sizes)
    rows = [tuple(row) for row in likely_configurations([(p, n, sizes)])]
    assert sorted(rows) == sorted(exact)
    probabilities = [exact[row] for row in rows]
    assert all(a >= b - 1e-12 for a, b in itertools.pairwise(probabilities))


def test_likely_configurations_of_two_units_multiply_and_repeat():
    """Two units: each row is one configuration per unit side by side, ordered by the product of their
    probabilities; the draws are seeded, so a second call gives the same rows."""
    shapes = [(4, 7, [4, 4, 3]), (3, 3, [2, 2, 2])]
    first, second = (exact_probabilities(*shape) for shape in shapes)
    rows = likely_configurations(shapes)
    products = [first[tuple(row[:3])] * second[tuple(row[3:])] for row in rows.tolist()]
    assert len(rows) == len(first) * len(second)
    assert all(a >= b - 1e-12 for a, b in itertools.pairwise(products))
    assert np.array_equal(rows, likely_configurations(shapes))
