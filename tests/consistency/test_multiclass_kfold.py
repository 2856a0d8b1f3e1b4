"""check_multiclass_kfold: micro and macro averages over k folds, by definition and by brute force (§4).

The honest-claims property with scikit-learn is in ``test_multiclass_kfold_sklearn.py``; here: the relations
the micro check rests on, the reverse direction (a value is consistent exactly when some per-fold counts
give it, enumerated on small data sets), the fold configurations, the score of means, and bad input.
"""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from benchtrust import InputError
from benchtrust._result import plain_data
from benchtrust.consistency._multiclass import check_multiclass
from benchtrust.consistency._multiclass_folds import fold_class_counts, fold_sizes, stratified_class_counts
from benchtrust.consistency._multiclass_kfold import check_multiclass_kfold
from benchtrust.consistency._one_vs_rest import MICRO_AFFINE, micro_line
from benchtrust.consistency._scores import SCORES


@pytest.mark.parametrize("classes", [2, 3, 4, 7])
def test_micro_line_is_each_score_on_the_pooled_one_vs_rest_matrix(classes):
    """a + b·k/N equals the score's own formula at (k, (C - 2)·N + k, N, (C - 1)·N) for every k."""
    for size in (1, 5, 13):
        k = np.arange(size + 1, dtype=float)
        with np.errstate(all="ignore"):
            for name in MICRO_AFFINE:
                a, b = micro_line(name, classes)
                if name == "accuracy_score":
                    own = k / size
                else:
                    own = SCORES[name](k, (classes - 2) * size + k, size, (classes - 1) * size, 2.0)
                np.testing.assert_allclose(float(a) + float(b) * k / size, own, atol=1e-12, err_msg=name)


def test_scores_not_affine_on_the_micro_line_are_refused():
    with pytest.raises(InputError, match="not a function of the items classified correctly"):
        check_multiclass_kfold({"ji": "0.5"}, class_counts=[5, 5, 5], folds=3, average="micro")


def _micro_means(sizes, classes, name):
    """Every mean over folds of the micro score ``name`` (exact), over every k_f in [0, N_f]."""
    a, b = micro_line(name, classes)
    return {
        a + b * sum(Fraction(k, n) for k, n in zip(ks, sizes, strict=True)) / len(sizes)
        for ks in itertools.product(*(range(n + 1) for n in sizes))
    }


@pytest.mark.parametrize(
    ("counts", "folds", "name"), [([3, 4, 4], 3, "acc"), ([2, 5], 2, "mcc"), ([4, 3], 4, "f1p")]
)
def test_micro_mean_is_consistent_exactly_when_some_counts_give_it(counts, folds, name):
    """Every value 0.00, 0.02, ..., 1.00 against the enumerated means of the fold sizes."""
    sizes = fold_sizes(sum(counts), folds).tolist()
    means = _micro_means(sizes, len(counts), name)
    lo = min(means)
    for value in np.round(np.arange(-1 if lo < 0 else 0, 1.0001, 0.02), 2):
        text = f"{value:.2f}"
        r = check_multiclass_kfold({name: text}, class_counts=counts, folds=folds, average="micro")
        expected = any(
            Fraction(text) - Fraction(1, 200) <= m <= Fraction(text) + Fraction(1, 200) for m in means
        )
        assert r.consistent == expected, (name, text)
        if r.consistent:
            assert r.correct is not None and len(r.correct) == folds


def _confusions(r):
    """Every confusion matrix (as a tuple of rows) with row sums r."""
    rows = [
        [row for row in itertools.product(range(count + 1), repeat=len(r)) if sum(row) == count]
        for count in r
    ]
    return itertools.product(*rows)


def _macro_fold_means(r, base, convention):
    """Every macro mean of ``base`` over the classes of one fold with class counts r, exact."""
    out = set()
    size = sum(r)
    for matrix in _confusions(r):
        columns = [sum(row[c] for row in matrix) for c in range(len(r))]
        values = []
        for c, p in enumerate(r):
            tp, n = matrix[c][c], size - p
            tn = n - columns[c] + tp
            sens = Fraction(tp, p) if p else None
            spec = Fraction(tn, n) if n else None
            value = {"sens": sens, "spec": spec}[base]
            values.append(value)
        defined = [v for v in values if v is not None]
        if convention == "skip":
            out.add(sum(defined) / len(defined))
        else:
            out.add((sum(defined) + Fraction(convention) * (len(values) - len(defined))) / len(values))
    return out


@pytest.mark.parametrize(
    ("config", "base", "convention"),
    [
        ([[2, 1, 1], [1, 2, 1]], "sens", "0"),
        ([[2, 1, 0], [1, 1, 2]], "sens", "skip"),
        ([[2, 1, 0], [1, 1, 2]], "sens", "1"),
        ([[3, 1], [0, 3]], "spec", "0"),
    ],
)
def test_macro_mean_is_consistent_exactly_when_some_matrices_give_it(config, base, convention):
    """Explicit folds, one score, one convention: every value 0.00, 0.04, ..., 1.00 against the means of
    every combination of the folds' confusion matrices."""
    per_fold = [_macro_fold_means(r, base, convention) for r in config]
    means = {sum(combo) / len(combo) for combo in itertools.product(*per_fold)}
    counts = np.sum(config, axis=0).tolist()
    for value in np.round(np.arange(0, 1.0001, 0.04), 2):
        text = f"{value:.2f}"
        r = check_multiclass_kfold(
            {base: text},
            class_counts=counts,
            folds=len(config),
            average="macro",
            folding=config,
            zero_division=convention,
        )
        expected = any(
            Fraction(text) - Fraction(1, 200) <= m <= Fraction(text) + Fraction(1, 200) for m in means
        )
        assert r.consistent == expected, text
        if r.consistent:
            assert [np.sum(m, axis=1).tolist() for m in r.matrices] == config


def test_any_covers_a_class_counted_in_one_fold_and_left_out_in_another():
    """scikit-learn's default macro recall with labels y = (0, 1 | 0, 2), predictions (0, 2 | 0, 0): fold 1
    counts class 2 (missing from its truth but predicted) as 0, (1 + 0 + 0)/3; fold 2 leaves class 1 out
    (neither in its truth nor predicted), (1 + 0)/2; the mean 5/12 prints as 0.42. No single convention
    gives 0.42 (brute force: 0 gives means in sixths and thirds, skip in quarters, 1 from 1/2 up)."""
    common = {"class_counts": [2, 1, 1], "folds": 2, "average": "macro", "folding": [[1, 1, 0], [1, 0, 1]]}
    r = check_multiclass_kfold({"sens": "0.42"}, **common)
    assert r.consistent and r.tier == "beyond" and r.choices is not None
    for rule in ("0", "1", "skip"):
        fixed = check_multiclass_kfold({"sens": "0.42"}, zero_division=rule, **common)
        assert not fixed.consistent, rule


def test_stratified_class_counts_are_scikit_learns_for_every_order():
    """StratifiedKFold's fold class counts, with the labels in each order of first appearance."""
    from sklearn.model_selection import StratifiedKFold

    counts, folds = [5, 1, 3, 2], 3
    found = {tuple(sorted(map(tuple, c.tolist()))) for c in stratified_class_counts(counts, folds)}
    seen = set()
    for order in itertools.permutations(range(len(counts))):
        y = np.concatenate([np.full(counts[c], c) for c in order])
        with pytest.warns(UserWarning):
            splits = StratifiedKFold(folds).split(np.zeros(y.size), y)
            rows = [tuple(np.bincount(y[test], minlength=len(counts))) for _, test in splits]
        seen.add(tuple(sorted(rows)))
    assert found == seen


def test_unknown_fold_class_counts_are_every_table_once():
    """Every k × C table with KFold's fold sizes and the class counts as margins, equal folds unordered."""
    counts, folds = [3, 2, 2], 3
    sizes = fold_sizes(sum(counts), folds)
    tables = set()
    for rows in itertools.product(itertools.product(range(4), repeat=3), repeat=3):
        table = np.array(rows)
        if table.sum(axis=1).tolist() == sizes.tolist() and table.sum(axis=0).tolist() == counts:
            groups = [tuple(sorted(map(tuple, table[sizes == s]), reverse=True)) for s in np.unique(sizes)]
            tables.add(tuple(groups))
    found = fold_class_counts(counts, folds, 1000)
    assert len(found) == len(tables)
    assert all(c.sum(axis=0).tolist() == counts and c.sum(axis=1).tolist() == sizes.tolist() for c in found)
    with pytest.raises(InputError, match="max_configurations=3"):
        fold_class_counts(counts, folds, 3)


def test_score_of_means_is_the_pooled_test_set():
    scores = {"acc": "0.8667", "sens": "0.60"}
    for average in ("micro", "macro"):
        pooled = check_multiclass(scores, class_counts=[10, 20, 30], average=average)
        r = check_multiclass_kfold(
            scores, class_counts=[10, 20, 30], folds=5, average=average, aggregation="som"
        )
        assert r.consistent == pooled.consistent
        assert r.to_dict()["pooled"] == plain_data(pooled)  # held in r's data: without cite and version


def test_mlscorecheck_docs_example_macro_mean_of_repeated_stratified_folds():
    """mlscorecheck's documented example (check_1_dataset_known_folds_mos_macro): four classes of 149, 118,
    83 and 154, 4 stratified folds repeated twice, eps 1e-4: accuracy 0.626 is consistent, 0.656 is not."""
    common = {"class_counts": [149, 118, 83, 154], "folds": 4, "repeats": 2, "average": "macro"}
    for acc, expected in (("0.626", True), ("0.656", False)):
        r = check_multiclass_kfold(
            {"acc": acc, "sens": 0.2483, "spec": 0.7509}, folding="stratified", eps=1e-4, **common
        )
        assert r.consistent is expected
    assert len(r.fold_counts or []) in (0, 8)


def test_result_explains_itself():
    r = check_multiclass_kfold(
        {"sens": "0.50", "spec": "0.75"},
        class_counts=[4, 3, 3],
        folds=2,
        average="macro",
        folding=[[2, 2, 1], [2, 1, 2]],
    )
    text = str(r)
    assert text.startswith("2-fold cross-validation of 3 classes") and "fold 2:" in text
    frame = r.to_frame()
    assert len(frame) == 6
    assert frame.groupby("fold")["sens"].mean().mean() == pytest.approx(0.5, abs=0.005)
    assert "Consistent" in r._repr_html_()
    micro = check_multiclass_kfold({"acc": "0.9"}, class_counts=[5, 5, 5], folds=3, average="micro")
    assert micro.to_frame()["correct"].tolist() == micro.correct
    wrong = check_multiclass_kfold(
        {"accuracy_score": "0.95"}, class_counts=[5, 5, 5], folds=3, average="micro"
    )
    assert not wrong.consistent and wrong.verdict.startswith("inconsistent")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"folding": [[1, 2], [2, 1]]}, "expected 3 rows"),
        ({"folding": [[1, 2, 2], [2, 1, 0]], "folds": 2}, "sum to"),
        ({"folding": [[1.5, 2, 1], [2, 1, 2]], "folds": 2}, "whole class counts"),
        ({"folding": "random"}, "stratified, unknown"),
        ({"folds": 1}, "folds: expected 2 <= k"),
        ({"folds": 0}, "folds: expected a positive whole number"),
        ({"repeats": 10**6}, "repeats: expected 1 to 33,333"),
        ({"repeats": 0}, "repeats"),
        ({"aggregation": "median"}, "aggregation"),
        ({"zero_division": "nan"}, "zero_division"),
        ({"average": "weighted"}, "average"),
        ({"scores": {"ppv": "0.5"}}, "macro mean over folds takes"),
        ({"folding": "unknown", "max_configurations": 2, "class_counts": [6, 6, 6]}, "max_configurations=2"),
    ],
)
def test_bad_input_is_one_line(options, message):
    arguments = {
        "scores": {"sens": "0.5"},
        "class_counts": [3, 3, 3],
        "folds": 3,
        "average": "macro",
        "folding": "stratified",
        **options,
    }
    with pytest.raises(InputError, match=message):
        check_multiclass_kfold(arguments.pop("scores"), **arguments)


def test_folds_of_two_sizes_are_searched_directly_as_the_exact_search_does():
    """The direct search of folds of one or two sizes finds counts exactly when the exact search of the
    mean of scores does (2,000 random windows), and its counts give a mean inside the window."""
    from benchtrust._interval import Interval
    from benchtrust.consistency._multiclass_folds import _down, _two_sizes, _up
    from benchtrust.consistency._reported import Reported
    from benchtrust.consistency._solver._mean_constraints import Constraints
    from benchtrust.consistency._solver._mean_of_scores import solve

    rng = np.random.default_rng(5)
    for _ in range(2000):
        size, folds = int(rng.integers(1, 40)), int(rng.integers(2, 7))
        sizes = np.where(np.arange(folds) < rng.integers(0, folds + 1), size + 1, size)
        middle = Fraction(int(rng.integers(0, 1001)), 1000)
        half = Fraction(int(rng.integers(0, 30)), 10_000)
        low, high = max(middle - half, Fraction(0)), min(middle + half, Fraction(1))
        found = _two_sizes(sizes, low, high)
        window = Reported("sens", float(middle), 0.0, Interval(_down(low), _up(high)), "x", "x", None)
        exact = solve(sizes, np.ones_like(sizes), Constraints(means=(window,)), budget=None)
        assert (found is None) == (exact is None), (sizes.tolist(), low, high)
        if found is not None:
            assert (found >= 0).all() and (found <= sizes).all()
            assert (
                low
                <= sum(Fraction(int(k), int(n)) for k, n in zip(found, sizes, strict=True)) / folds
                <= high
            )


def test_a_program_past_the_time_limit_is_undecided_not_inconsistent(monkeypatch):
    """When HiGHS runs out of time before it proves the widened problem infeasible, the verdict says so."""
    from benchtrust.consistency import _multiclass_folds

    monkeypatch.setattr(_multiclass_folds, "TIME_LIMIT", 1e-9)
    common = {"class_counts": [2, 1, 1], "folds": 2, "average": "macro", "folding": [[1, 1, 0], [1, 0, 1]]}
    r = check_multiclass_kfold({"sens": "0.42"}, **common)
    assert r.consistent is None and r.verdict.startswith("undecided: HiGHS could not settle")
    assert r.to_dict()["consistent"] is None


def test_the_convention_that_fits_is_named():
    """Beyond the first tier the result says how a class without the score entered the fold's mean."""
    common = {"class_counts": [2, 1, 1], "folds": 2, "average": "macro", "folding": [[1, 1, 0], [1, 0, 1]]}
    fold_by_fold = check_multiclass_kfold({"sens": "0.42"}, **common)
    assert fold_by_fold.conventions == {"sens": "any"} and "fold by fold" in fold_by_fold.verdict
    skipped = check_multiclass_kfold({"sens": "0.50"}, zero_division="skip", **common)
    assert skipped.conventions == {"sens": "skip"}
    assert "a class without sens in a fold is left out of the fold's mean" in skipped.verdict
    assert check_multiclass_kfold({"spec": "0.75"}, **common).conventions is None  # spec defined everywhere


def test_a_micro_mean_highs_cannot_settle_is_undecided_not_inconsistent(monkeypatch):
    """Folds of three sizes send the micro mean to the exact search of the mean of scores; when HiGHS runs
    out of time there, the check is undecided (consistent None), never inconsistent, and no error escapes."""
    from benchtrust.consistency import _multiclass_folds
    from benchtrust.consistency._solver._highs import UnsettledError

    def out_of_time(*args, **kwargs):
        raise UnsettledError

    monkeypatch.setattr(_multiclass_folds, "solve", out_of_time)
    folding = [[1, 1, 1], [2, 1, 1], [2, 2, 1]]  # folds of 3, 4 and 5 items
    r = check_multiclass_kfold(
        {"acc": "0.5"}, class_counts=[5, 4, 3], folds=3, average="micro", folding=folding
    )
    assert r.consistent is None and r.to_dict()["consistent"] is None
    assert "inconsistent" not in r.verdict
