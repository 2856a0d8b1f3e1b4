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

import numpy as np

from benchtrust._io import InputError, check_count

#: Configurations generated at a time (rows of a chunk), bounding memory.
CHUNK = 1 << 15


def check_folding(positives, negatives, folds):
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


def fold_sizes(positives, negatives, folds):
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
    positives,
    negatives,
    folds,
    *,
    positive_in_every_fold=False,
    negative_in_every_fold=False,
    training_sets_hold_both=True,
):
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
    positives,
    negatives,
    folds,
    *,
    positive_in_every_fold=False,
    negative_in_every_fold=False,
    training_sets_hold_both=True,
):
    """The number of fold configurations :func:`fold_configurations` lists, without listing them (§4.4.3).

    With ``training_sets_hold_both=False`` the configurations where one fold holds all of a class (its
    training set has none) are counted too: every multiset of class counts the fold sizes allow.

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
    (count_a, _, low, high_a), (count_b, _, _, high_b) = _fold_types(
        p, n, k, positive_in_every_fold, negative_in_every_fold
    )
    split = np.arange(p + 1)
    total = int(
        np.dot(_tuple_counts(count_a, low, high_a, p), _tuple_counts(count_b, low, high_b, p)[p - split])
    )
    if not training_sets_hold_both:
        return total
    return total - len(_lopsided(p, n, k, positive_in_every_fold, negative_in_every_fold))


def stratified_folds(positives, negatives, folds):
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
    (count_a, _, low, high_a), (count_b, _, _, high_b) = _fold_types(
        p, n, k, positive_in_every_fold, negative_in_every_fold
    )
    sizes = fold_sizes(p, n, k)
    counts_b = _tuple_counts(count_b, low, high_b, p)
    for split in range(
        max(count_a * low, p - count_b * high_b), min(count_a * high_a, p - count_b * low) + 1
    ):
        rest = p - split
        for tuples_a in _nondecreasing(split, count_a, low, high_a, chunk):
            if counts_b[rest] <= chunk:
                tuples_b = np.concatenate(list(_nondecreasing(rest, count_b, low, high_b, chunk)))
                step = max(1, chunk // len(tuples_b))
                pieces = ((tuples_a[i : i + step], tuples_b) for i in range(0, len(tuples_a), step))
            else:
                pieces = (
                    (tuples_a[i : i + 1], tuples_b)
                    for i in range(len(tuples_a))
                    for tuples_b in _nondecreasing(rest, count_b, low, high_b, chunk)
                )
            for a, b in pieces:
                rows = np.concatenate([np.repeat(a, len(b), axis=0), np.tile(b, (len(a), 1))], axis=1)
                if not training_sets_hold_both:
                    yield rows
                    continue
                both = ((rows > 0).sum(axis=1) >= 2) & ((sizes - rows > 0).sum(axis=1) >= 2)
                if both.any():
                    yield rows[both]


def _fold_types(p, n, k, positive_in_every_fold, negative_in_every_fold):
    """(k^a, c^a, lowest p_i, highest p_i) of the type-a folds and the same of the type-b folds."""
    size, extra = divmod(p + n, k)
    low = int(bool(positive_in_every_fold))
    spare = int(bool(negative_in_every_fold))
    return (extra, size + 1, low, size + 1 - spare), (k - extra, size, low, size - spare)


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


def _lopsided(p, n, k, positive_in_every_fold, negative_in_every_fold):
    """The configurations in the folds' ranges where fewer than two folds hold a positive or a negative.

    Fewer than two folds with positives means one fold holds all p; fewer than two with negatives means
    one fold holds all n and the others are full of positives. Each can sit in a fold of either type.
    """
    types = _fold_types(p, n, k, positive_in_every_fold, negative_in_every_fold)
    found = set()
    for kind, (count, size, _, _) in enumerate(types):
        if count == 0:
            continue
        for special, others in ((p, 0), (size - n, None)):
            rows = []
            for other_kind, (other_count, other_size, _, _) in enumerate(types):
                fill = other_size if others is None else others
                row = [fill] * other_count
                if other_kind == kind:
                    row[0] = special
                rows.append(row)
            if all(low <= v <= high for (_, _, low, high), row in zip(types, rows, strict=True) for v in row):
                flat = rows[0] + rows[1]
                sizes = [types[0][1]] * types[0][0] + [types[1][1]] * types[1][0]
                has_positive = sum(v > 0 for v in flat)
                has_negative = sum(s - v > 0 for s, v in zip(sizes, flat, strict=True))
                if has_positive < 2 or has_negative < 2:
                    found.add((tuple(sorted(rows[0])), tuple(sorted(rows[1]))))
    return found
