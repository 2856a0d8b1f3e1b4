"""Fold configurations of k-fold cross-validation (paper §4.4).

A *fold configuration* of k-fold cross-validation of p positives and n negatives is the multiset of the
folds' class counts (p_i, n_i), i = 1..k (§4.4). Every fold holds ⌊(p+n)/k⌋ or ⌊(p+n)/k⌋ + 1 items: with
k_div = ⌊(p+n)/k⌋ and k_mod = (p+n) mod k there are k^a = k_mod folds of c^a = k_div + 1 items (type a)
and k^b = k - k_mod folds of c^b = k_div items (type b) (§4.4.3). At least two folds hold a positive and
at least two a negative, so that every training set holds both classes.

Enumeration (§4.4.3, Algorithm 2): a configuration is fixed by the positives p^a in the folds of type a
(and p^b = p - p^a in those of type b) and by an integer partition of p^a into at most k^a parts and of p^b
into at most k^b parts (each part at most the fold's size); the negatives fill the folds up. Here each
partition is a nondecreasing tuple of the folds' positives padded with zeros, and configurations come in
the order of the paper's generator (that of mlscorecheck): p^a ascending, then the type-a tuple, then the
type-b tuple, each in lexicographic order. Tuples are built column by column with numpy, a prefix at a
time, so that memory stays bounded however many configurations there are.

Counting (:func:`count_fold_configurations`) needs no enumeration: the nondecreasing tuples of length m
with parts in [lo, hi] summing to s are the partitions of s - m·lo into at most m parts of at most hi - lo,
whose numbers are the coefficients of the Gaussian binomial coefficient [m + hi - lo choose m]_q. The few
configurations with fewer than two folds holding a class (all positives, or all negatives, in one fold)
are subtracted after being listed explicitly.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._io import InputError, check_count

if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy.typing as npt

#: Configurations generated at a time (rows of a chunk), bounding memory.
CHUNK = 1 << 15

#: Random splits per unit :func:`likely_configurations` draws, and the most configurations it returns.
DRAWS = 1 << 14
LIKELY = 1 << 12

#: The most numbers (draws × folds) the draws of :func:`likely_configurations` hold at once (32 MB).
ENTRIES = 1 << 22


def check_folding(positives: int, negatives: int, folds: int) -> tuple[int, int, int]:
    """p, n and k of k-fold cross-validation, checked: whole numbers, p, n >= 1, 2 <= k <= p + n.

    Examples
    --------
    >>> check_folding(38, 262.0, 5)
    (38, 262, 5)
    >>> check_folding(2, 1, 4)
    Traceback (most recent call last):
    ...
    benchtrust.InputError: folds: 4 folds of 3 items would leave a fold empty; expected at most 3
    """
    p = check_count(positives, "positives")
    n = check_count(negatives, "negatives")
    k = check_count(folds, "folds")
    if k < 2:
        raise InputError(f"folds: expected a whole number >= 2, got {folds!r}")
    if k > p + n:
        raise InputError(
            f"folds: {k} folds of {p + n} items would leave a fold empty; expected at most {p + n}"
        )
    return p, n, k


def fold_sizes(positives: int, negatives: int, folds: int) -> npt.NDArray[np.int64]:
    """The sizes of the k folds: the k^a folds of ⌊(p+n)/k⌋ + 1 items, then the k^b of ⌊(p+n)/k⌋ (§4.4.3).

    Examples
    --------
    >>> fold_sizes(38, 262, 5).tolist(), fold_sizes(244, 262, 5).tolist()
    ([60, 60, 60, 60, 60], [102, 101, 101, 101, 101])
    """
    p, n, k = check_folding(positives, negatives, folds)
    size, extra = divmod(p + n, k)
    return np.array([size + 1] * extra + [size] * (k - extra), dtype=np.int64)


def fold_configurations(
    positives: int,
    negatives: int,
    folds: int,
    *,
    positive_in_every_fold: bool = False,
    negative_in_every_fold: bool = False,
    training_sets_hold_both: bool = True,
) -> npt.NDArray[np.int64]:
    """Every fold configuration of k-fold cross-validation (paper §4.4, §4.4.3, Algorithm 2).

    Parameters
    ----------
    positives, negatives : int
        p and n, the positives and negatives of the data set (>= 1).
    folds : int
        k, the number of folds (2 <= k <= p + n).
    positive_in_every_fold, negative_in_every_fold : bool, default False
        Keep only the configurations where every fold holds a positive (a negative). A mean of
        sensitivities (specificities, balanced accuracies) over the folds needs them (§4.4.3).
    training_sets_hold_both : bool, default True
        Keep only the configurations where at least two folds hold each class, so that every training
        set holds both (§4.4.3); False lists every configuration the fold sizes allow.

    Returns
    -------
    numpy.ndarray of int, shape (configurations, folds, 2)
        ``[c, i] = (p_i, n_i)`` of fold i in configuration c: the folds of ⌊(p+n)/k⌋ + 1 items first, then
        those of ⌊(p+n)/k⌋, each group in nondecreasing p_i. Configurations are multisets, each listed
        once, in the order of the paper's generator (see the module notes). Mind the size: count first
        with :func:`count_fold_configurations`.

    See Also
    --------
    count_fold_configurations : The number of fold configurations, without listing them.
    stratified_folds : The folds of scikit-learn's StratifiedKFold (§4.4.2).
    check_kfold : Scores reported for k-fold cross-validation (§4).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §4.4 and §4.4.3,
           Algorithm 2; the example is that of §4.4.3. ``training_sets_hold_both=False`` extends §4.4.3 to the
           configurations where one fold holds all of a class.

    Examples
    --------
    The example of §4.4.3 is one of the 673 configurations of p = 30, n = 300, k = 5:

    >>> found = fold_configurations(30, 300, 5)
    >>> found.shape
    (673, 5, 2)
    >>> [[1, 65], [2, 64], [6, 60], [9, 57], [12, 54]] in found.tolist()
    True
    >>> fold_configurations(3, 3, 2).tolist()
    [[[1, 2], [2, 1]]]
    """
    p, n, k = check_folding(positives, negatives, folds)
    chunks = list(
        configuration_chunks(
            p,
            n,
            k,
            positive_in_every_fold,
            negative_in_every_fold,
            training_sets_hold_both=training_sets_hold_both,
        )
    )
    positive = np.concatenate(chunks) if chunks else np.zeros((0, k), dtype=np.int64)
    return np.stack([positive, fold_sizes(p, n, k) - positive], axis=-1)


def count_fold_configurations(
    positives: int,
    negatives: int,
    folds: int,
    *,
    positive_in_every_fold: bool = False,
    negative_in_every_fold: bool = False,
    training_sets_hold_both: bool = True,
) -> int:
    """The number of fold configurations :func:`fold_configurations` lists, without listing them (§4.4.3).

    With ``training_sets_hold_both=False`` the configurations where one fold holds all of a class (its
    training set has none) are counted too: every multiset of class counts the fold sizes allow.

    See Also
    --------
    fold_configurations : Every fold configuration of k-fold cross-validation (§4.4.3).
    stratified_folds : The folds of scikit-learn's StratifiedKFold (§4.4.2).
    check_kfold : Scores reported for k-fold cross-validation (§4).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §4.4.3, Algorithm 2,
           counted without enumerating (the paper enumerates); the examples are the counts of §4.4.3 (673) and
           §5.2 (918).

    Examples
    --------
    The counts of §4.4.3 and §5.2 (the EHG data set, where every fold must hold both classes because
    sensitivity and specificity are averaged):

    >>> count_fold_configurations(30, 300, 5)
    673
    >>> count_fold_configurations(38, 262, 5, positive_in_every_fold=True, negative_in_every_fold=True)
    918
    >>> count_fold_configurations(38, 262, 5, training_sets_hold_both=False)
    1469
    """
    p, n, k = check_folding(positives, negatives, folds)
    return count_sized(
        fold_sizes(p, n, k),
        (p,),
        positive_in_every_fold,
        negative_in_every_fold,
        training_sets_hold_both=training_sets_hold_both,
    )


def stratified_folds(positives: int, negatives: int, folds: int) -> npt.NDArray[np.int64]:
    """The folds scikit-learn's ``StratifiedKFold`` makes of p positives and n negatives (paper §4.4.2).

    The rule (scikit-learn >= 0.22; checked against 1.9.1, with and without ``shuffle``): the labels are
    sorted with the class that appears first in ``y`` first, and fold i (0-based) receives the items i,
    i + k, i + 2k, ... of that order (``allocation = bincount(y_order[i::k])``). With the negatives first,
    fold i holds

        n_i = ⌈(n - i)/k⌉ negatives and p_i = ⌈(p + n - i)/k⌉ - n_i positives,

    so the fold sizes, and each class count, differ by at most one between folds (§4.4.2). With the
    positives first the folds come in another order but make the same multiset: reading the sorted labels
    backwards maps fold i to fold (p + n - 1 - i) mod k. Like scikit-learn, k may exceed one class count
    (some folds then miss that class) but not both.

    Parameters
    ----------
    positives, negatives : int
        p and n (>= 1).
    folds : int
        k (2 <= k <= p + n).

    Returns
    -------
    numpy.ndarray of int, shape (folds, 2)
        (p_i, n_i) of folds i = 0..k-1, in scikit-learn's order.

    See Also
    --------
    fold_configurations : Every fold configuration of k-fold cross-validation (§4.4.3).
    count_fold_configurations : The number of fold configurations, without listing them.
    check_kfold : Scores reported for k-fold cross-validation (§4).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §4.4.2 (the fold
           configuration of stratified k-fold cross-validation, inferred from p, n and k).

    Examples
    --------
    >>> stratified_folds(38, 262, 5).tolist()
    [[7, 53], [7, 53], [8, 52], [8, 52], [8, 52]]
    >>> stratified_folds(7, 3, 3).tolist()
    [[3, 1], [2, 1], [2, 1]]
    """
    p, n, k = check_folding(positives, negatives, folds)
    if k > p and k > n:
        raise InputError(
            f"folds: {k} is more than the positives ({p}) and the negatives ({n}); stratified "
            "cross-validation needs at least one class with as many items as folds"
        )
    i = np.arange(k)
    negative = (n + k - 1 - i) // k
    return np.stack([(p + n + k - 1 - i) // k - negative, negative], axis=-1)


def paper_configurations(rows, sizes, positive_in_every_fold, negative_in_every_fold):
    """Which configurations (rows of the folds' positives) are among those the paper enumerates (§4.4.3).

    They are those where every training set holds both classes (at least two folds hold each), and every
    fold holds a positive (a negative) where a reported mean needs one.

    Examples
    --------
    >>> rows = np.array([[1, 2, 0], [1, 1, 1], [3, 0, 0]])
    >>> paper_configurations(rows, np.array([4, 4, 4]), False, False).tolist()
    [True, True, False]
    >>> paper_configurations(rows, np.array([4, 4, 4]), True, False).tolist()
    [False, True, False]
    """
    negatives = sizes - rows
    keep = ((rows > 0).sum(axis=1) >= 2) & ((negatives > 0).sum(axis=1) >= 2)
    if positive_in_every_fold:
        keep &= (rows > 0).all(axis=1)
    if negative_in_every_fold:
        keep &= (negatives > 0).all(axis=1)
    return keep


def configuration_chunks(
    p, n, k, positive_in_every_fold, negative_in_every_fold, chunk=CHUNK, training_sets_hold_both=True
):
    """The positives (p_i) of every fold configuration, in order, as arrays of at most about ``chunk`` rows.

    The arguments are checked already; the negatives are ``fold_sizes(p, n, k) - rows``. A chunk holds at
    most ``max(chunk, ⌊(p+n)/k⌋ + 2)`` rows. With ``training_sets_hold_both=False`` the configurations
    where one fold holds all of a class are listed too.

    Examples
    --------
    >>> [rows.tolist() for rows in configuration_chunks(5, 5, 2, False, False, chunk=2)]
    [[[1, 4]], [[2, 3]]]
    """
    yield from sized_chunks(
        fold_sizes(p, n, k),
        (p,),
        positive_in_every_fold,
        negative_in_every_fold,
        chunk=chunk,
        training_sets_hold_both=training_sets_hold_both,
    )


def sized_chunks(
    sizes, totals, positive_in_every_fold, negative_in_every_fold, chunk=CHUNK, training_sets_hold_both=True
):
    """The positives (p_i) of every configuration of folds of the given sizes, in order, in chunks.

    The generalisation of §4.4.3 (Algorithm 2) from two fold sizes to any: the folds are grouped by size
    (largest first; ``sizes`` must be nonincreasing), a configuration is the positives of each group (split
    in ascending order between the groups) and a nondecreasing tuple per group; the negatives fill the
    folds up. ``totals`` are the numbers of positives the folds hold together, tried in order: p when the
    folds cover the data set, several when they cover part of it (``TimeSeriesSplit``'s test folds).

    Parameters
    ----------
    sizes : array_like of int
        The folds' sizes, nonincreasing.
    totals : iterable of int
        The positives in all folds together, in the order tried.
    positive_in_every_fold, negative_in_every_fold, training_sets_hold_both : bool
        As for :func:`fold_configurations`.
    chunk : int
        About the most rows of an array.

    Examples
    --------
    Two positives in folds of 4 and 2 items (GroupKFold's of issue 29), every training set holding both
    classes or not:

    >>> np.concatenate(list(sized_chunks([4, 2], (2,), False, False))).tolist()
    [[1, 1]]
    >>> np.concatenate(list(sized_chunks([4, 2], (2,), False, False, training_sets_hold_both=False))).tolist()
    [[0, 2], [1, 1], [2, 0]]
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    groups = _groups(sizes)
    low, spare = int(bool(positive_in_every_fold)), int(bool(negative_in_every_fold))
    for total in totals:
        for rows in _group_rows(int(total), groups, low, spare, chunk):
            if not training_sets_hold_both:
                yield rows
                continue
            both = ((rows > 0).sum(axis=1) >= 2) & ((sizes - rows > 0).sum(axis=1) >= 2)
            if both.any():
                yield rows[both]


def likely_configurations(shapes, draws=DRAWS, most=LIKELY):
    """The fold configurations random splits make, likeliest first: rows of the folds' positives.

    A split of a unit's p positives and n negatives into folds of given sizes at random (scikit-learn's
    shuffled ``KFold``, ``GroupKFold`` of single items, ...) gives each fold in turn a hypergeometric
    number of the positives left. ``draws`` such splits per unit (seeded: the same on every run) are put
    in the generator's form (ascending within folds of one size, :func:`sized_chunks`), and their distinct
    combinations over the units are ordered by probability: for one unit Π_i C(c_i, p_i)·C(r, p - Σp_i)
    (r items outside the folds, when they cover part of the data set) times the orderings of the folds of
    one size, m! / Π_v m_v!; over units the product. Ties keep the generator's order.

    A search for *some* configuration that fits the scores tries these first: scores from a real split
    are those of a likely configuration, and likely configurations are many, so one that fits is usually
    among the first. It changes which fitting configuration is found first, never a verdict.

    Parameters
    ----------
    shapes : list of (positives, negatives, sizes)
        Each unit's p, n and the folds' sizes (nonincreasing, summing to p + n or less).
    draws : int
        Random splits per unit (fewer when there are many folds: ``ENTRIES`` numbers at most).
    most : int
        The most configurations returned.

    Returns
    -------
    numpy.ndarray of int, shape (configurations, Σ folds)
        The folds' positives, unit after unit, likeliest first.

    Examples
    --------
    Eight positives and eight negatives in four folds of four: two positives in every fold is not the
    likeliest configuration, as only one ordering of the folds gives it (probability 6^4 / C(16, 8) =
    0.10), while 1, 2, 2, 3 comes in twelve orderings (12·4·6·6·4 / C(16, 8) = 0.54) and 1, 1, 3, 3 in six
    (0.12):

    >>> likely_configurations([(8, 8, [4, 4, 4, 4])])[:3].tolist()
    [[1, 2, 2, 3], [1, 1, 3, 3], [2, 2, 2, 2]]
    """
    from scipy.special import gammaln

    rng = np.random.default_rng(0)
    draws = max(1, min(draws, ENTRIES // sum(len(sizes) for _, _, sizes in shapes)))
    parts, log_p = [], np.zeros(draws)
    for positives, negatives, sizes in shapes:
        sizes = np.asarray(sizes, dtype=np.int64)
        rows = np.empty((draws, len(sizes)), dtype=np.int64)
        good, left = np.full(draws, positives), positives + negatives
        for i, size in enumerate(sizes):
            rows[:, i] = rng.hypergeometric(good, left - good, size)
            good, left = good - rows[:, i], left - size
        log_p += _log_choose(sizes, rows).sum(axis=1) + _log_choose(left, good)
        for size, count in _groups(sizes):
            same = np.flatnonzero(sizes == size)
            rows[:, same] = np.sort(rows[:, same], axis=1)
            # m! / Π_v m_v!: the log of the run length so far at each place sums to Σ_v log m_v!.
            log_p += gammaln(count + 1)
            run = np.ones(draws)
            for before, at in itertools.pairwise(same):
                run = np.where(rows[:, at] == rows[:, before], run + 1, 1)
                log_p -= np.log(run)
        parts.append(rows)
    rows, first = np.unique(np.concatenate(parts, axis=1), axis=0, return_index=True)
    return rows[np.argsort(-np.round(log_p[first], 9), kind="stable")[:most]]


def _log_choose(n, k):
    """log C(n, k), elementwise (scipy is imported here and in :func:`likely_configurations`, not with the
    module: a batch of test-set claims loads this module but never draws folds)."""
    from scipy.special import gammaln

    return gammaln(np.add(n, 1)) - gammaln(np.add(k, 1)) - gammaln(np.subtract(n, k) + 1)


def count_sized(
    sizes: npt.ArrayLike,
    totals: Iterable[int],
    positive_in_every_fold: bool,
    negative_in_every_fold: bool,
    training_sets_hold_both: bool = True,
) -> int:
    """The number of configurations :func:`sized_chunks` lists, without listing them (exact).

    Per group of folds of one size the nondecreasing tuples are counted by Gaussian binomial coefficients
    (module notes), the groups' counts multiplied as polynomials in the positives and the coefficients of
    ``totals`` summed; with ``training_sets_hold_both`` the few configurations with fewer than two folds
    holding a class are listed and subtracted.

    Examples
    --------
    >>> count_sized([4, 2], (2,), False, False), count_sized([3, 3, 3], range(7), False, False)
    (1, 11)
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    totals = [int(t) for t in totals]
    if not totals:
        return 0
    groups = _groups(sizes)
    low, spare = int(bool(positive_in_every_fold)), int(bool(negative_in_every_fold))
    top = max(totals)
    series = np.zeros(top + 1, dtype=object)
    series[0] = 1
    for size, count in groups[:-1]:
        series = np.convolve(series, _tuple_counts(count, low, size - spare, top))[: top + 1]
    # The last group by one dot product per total (two fold sizes, the usual case, need no convolution).
    size, count = groups[-1]
    last = _tuple_counts(count, low, size - spare, top)
    total = int(sum(np.dot(series[: t + 1], last[t::-1]) for t in totals if t >= 0))
    if not training_sets_hold_both:
        return total
    return total - len(_lopsided(groups, totals, low, spare))


def size_partitions(total, folds):
    """The sizes of ``folds`` non-empty folds of ``total`` items: every multiset once, nonincreasing, the
    most even first (then the largest fold growing).

    Examples
    --------
    >>> list(size_partitions(6, 2)), list(size_partitions(7, 3))
    ([(3, 3), (4, 2), (5, 1)], [(3, 2, 2), (3, 3, 1), (4, 2, 1), (5, 1, 1)])
    """
    for first in range(-(-total // folds), total - folds + 2):
        yield from ((first, *rest) for rest in _bounded_partitions(total - first, folds - 1, first))


def count_size_partitions(total, folds):
    """The number of :func:`size_partitions`: the partitions of ``total`` into ``folds`` parts (exact).

    Examples
    --------
    >>> count_size_partitions(6, 2), count_size_partitions(163, 10)
    (3, 149027949)
    """
    # q[j, t]: partitions of t into exactly j parts = q[j - 1, t - 1] + q[j, t - j].
    q = np.zeros((folds + 1, total + 1), dtype=object)
    q[0, 0] = 1
    for j in range(1, folds + 1):
        for t in range(j, total + 1):
            q[j, t] = q[j - 1, t - 1] + q[j, t - j]
    return int(q[folds, total])


def _bounded_partitions(total, folds, most):
    """Nonincreasing tuples of ``folds`` parts in [1, most] summing to ``total``, the largest part rising."""
    if folds == 0:
        if total == 0:
            yield ()
        return
    for first in range(max(1, -(-total // folds)), min(most, total - folds + 1) + 1):
        yield from ((first, *rest) for rest in _bounded_partitions(total - first, folds - 1, first))


def _groups(sizes):
    """(size, how many folds have it) per distinct size, largest first."""
    values, counts = np.unique(sizes, return_counts=True)
    return [(int(v), int(c)) for v, c in zip(values[::-1], counts[::-1], strict=True)]


def _group_rows(total, groups, low, spare, chunk):
    """Nondecreasing p_i per group, the groups side by side, summing to ``total``, in lexicographic order
    of (positives of the first group, its tuple, the other groups' rows)."""
    (size, count), rest = groups[0], groups[1:]
    high = size - spare
    if not rest:
        yield from _nondecreasing(total, count, low, high, chunk)
        return
    least = sum(m * low for _, m in rest)
    most = sum(m * (s - spare) for s, m in rest)
    for split in range(max(count * low, total - most), min(count * high, total - least) + 1):
        for tuples_a in _nondecreasing(split, count, low, high, chunk):
            tails = _group_rows(total - split, rest, low, spare, chunk)
            first, second = next(tails, None), next(tails, None)
            if first is None:
                continue
            if second is None:  # the other groups fit in one chunk: pair it with runs of these tuples
                step = max(1, chunk // len(first))
                pieces = ((tuples_a[i : i + step], first) for i in range(0, len(tuples_a), step))
            else:  # one tuple at a time, the other groups chunk by chunk (keeps the order)
                pieces = (
                    (tuples_a[i : i + 1], tail)
                    for i in range(len(tuples_a))
                    for tail in _group_rows(total - split, rest, low, spare, chunk)
                )
            for a, b in pieces:
                yield np.concatenate([np.repeat(a, len(b), axis=0), np.tile(b, (len(a), 1))], axis=1)


def _nondecreasing(total, length, low, high, chunk):
    """Nondecreasing tuples of ``length`` whole numbers in [low, high] summing to ``total``, lexicographic."""
    yield from _extend(
        np.zeros((1, 0), dtype=np.int64), np.array([total]), np.array([low]), length, high, chunk
    )


def _extend(rows, remaining, previous, length, high, chunk):
    """Complete the prefixes ``rows`` (each leaving ``remaining`` to place, none below ``previous``)."""
    places = length - rows.shape[1]
    if places == 0:
        if (remaining == 0).any():
            yield rows[remaining == 0]
        return
    # The next part v leaves places - 1 parts in [v, high] for remaining - v: v*places <= remaining and
    # remaining - v <= (places - 1)*high. Every prefix so made can be completed.
    first = np.maximum(previous, remaining - (places - 1) * high)
    counts = np.maximum(np.minimum(high, remaining // places) - first + 1, 0)
    ends = np.cumsum(counts)
    start = 0
    while start < len(rows):
        # Expand a run of prefixes with at most `chunk` children between them (at least one prefix).
        stop = max(int(np.searchsorted(ends, ends[start] - counts[start] + chunk, side="right")), start + 1)
        block = counts[start:stop]
        parent = np.repeat(np.arange(start, stop), block)
        values = first[parent] + np.arange(len(parent)) - np.repeat(np.cumsum(block) - block, block)
        yield from _extend(
            np.column_stack([rows[parent], values]), remaining[parent] - values, values, length, high, chunk
        )
        start = stop


def _tuple_counts(length, low, high, top):
    """How many nondecreasing tuples of ``length`` parts in [low, high] sum to s, for s = 0..top (exact).

    They are the partitions of s - length·low into at most ``length`` parts of at most high - low: the
    coefficients of the Gaussian binomial [length + high - low choose length]_q, the product of
    (1 - q^(high - low + i)) / (1 - q^i) over i = 1..length, here truncated to degree ``top``.
    """
    out = np.zeros(top + 1, dtype=object)
    shift = length * low
    if high < low or shift > top:
        out[0] = int(length == 0)
        return out
    series = np.zeros(top - shift + 1, dtype=object)
    series[0] = 1
    width = high - low
    for i in range(1, length + 1):
        step = width + i
        if step < len(series):
            series[step:] = series[step:] - series[:-step]
    for i in range(1, length + 1):
        padded = np.zeros(-(-len(series) // i) * i, dtype=object)
        padded[: len(series)] = series
        series = np.cumsum(padded.reshape(-1, i), axis=0).ravel()[: len(series)]
    out[shift:] = series
    return out


def _lopsided(groups, totals, low, spare):
    """The configurations in the groups' ranges where fewer than two folds hold a positive or a negative.

    Fewer than two folds with positives means one fold holds all of them; fewer than two with negatives
    means one fold holds all the negatives and the others are full of positives. Each can sit in a fold
    of any size.
    """
    found = set()
    whole = sum(size * count for size, count in groups)
    for total in totals:
        for kind, (size, count) in enumerate(groups):
            if count == 0:
                continue
            for special, fill in ((total, 0), (size - (whole - total), None)):
                rows = [[size_g if fill is None else fill] * count_g for size_g, count_g in groups]
                rows[kind][0] = special
                pairs = [(v, size_g - v) for (size_g, _), row in zip(groups, rows, strict=True) for v in row]
                if not all(low <= v and w >= spare for v, w in pairs):
                    continue
                if sum(v > 0 for v, _ in pairs) < 2 or sum(w > 0 for _, w in pairs) < 2:
                    found.add((total, *(tuple(sorted(row)) for row in rows)))
    return found
