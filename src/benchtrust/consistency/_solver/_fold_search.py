"""The search of fold configurations for per-fold counts that give a mean of scores (paper §4.3-4.4).

Used by :func:`~benchtrust.consistency.check_kfold` (see its module notes): the paper's configurations
(§4.4.3) first, then those the fold sizes allow beyond them, where a score undefined in a fold enters
the mean by one of the conventions of :mod:`._mean_constraints` (``zero_division``). Every search is
counted before it starts and refused past ``max_configurations``.

Within a tier the configurations are tried in the generator's order (§4.4.3), but for one detour: after
the first ``HEAD`` of them (1,024) come the configurations a random split makes most often
(:func:`~._folds.likely_configurations`, at most 4,096), then the rest in the generator's order. The
generator starts where the folds are most lopsided, which random splits seldom make, so on a large tier
(hundreds of thousands of configurations) a search for folds that fit scores from a real split would
otherwise decide many thousands first: the 10-fold KFold of 48 positives and 115 negatives of issue 29
took 36 s to find its folds at configuration 18,905, and finds them among the likeliest in well under a
second. The first ``HEAD`` keep the paper's own results where its search stops early (§5.2 prints the
963rd configuration). The detour only changes which folds are found first, never a verdict: a verdict
of "inconsistent" still covers every configuration.

Repeats of one data set (``RepeatedKFold``) multiply the search space: r repeats of a unit with C
configurations make C^r combinations, 27 million for two repeats of 22 positives and 41 negatives in 10
folds, 3·10^12 for 57 and 159. Before the product, the C combinations that repeat one configuration in
every repeat are searched, tier by tier as above (their counts still differ between the repeats): a
random split's scores nearly always fit one of them, so the product is rarely reached (issue 33: two
repeats of ``RepeatedKFold`` on 22 positives and 41 negatives, mean bacc 0.97, sens 1.00, spec 0.96, took
over 5 minutes and now under 1 s; of 1,000 experiments of ``bench_kfold_sklearn.py --tenfold``, 147 were
refused before, 2 now).
They are a part of the product, so a fit found there is a fit of the product, and none found rules
nothing out: the product is then searched as before. When the product is more than
``max_configurations`` but the C configurations of one repeat are not, only these are searched, and the
product is refused, as before, when none fits.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from fractions import Fraction

import numpy as np

from benchtrust._io import InputError
from benchtrust.consistency._folds import (
    CHUNK,
    count_size_partitions,
    count_sized,
    fold_sizes,
    likely_configurations,
    paper_configurations,
    size_partitions,
    sized_chunks,
)
from benchtrust.consistency._solver._highs import TIME_LIMIT, UnsettledError
from benchtrust.consistency._solver._mean_constraints import LINEAR, Constraints, base_intervals
from benchtrust.consistency._solver._mean_of_scores import first_solution, solve

#: Configurations of a tier searched in the generator's order before its likeliest (module notes).
HEAD = 1 << 10

#: The order conventions are tried in with ``zero_division="any"``, per base score: scikit-learn's
#: defaults first (``recall_score`` counts an undefined recall as 0, ``balanced_accuracy_score`` leaves
#: it out).
_TRIED = {"sens": ("0", "1", "skip"), "spec": ("0", "1", "skip"), "bacc": ("skip", "0", "1")}


@dataclasses.dataclass(frozen=True)
class FoldSearch:
    """The search of fold configurations for counts giving the constraints, in both tiers (module notes).

    Attributes
    ----------
    given : Constraints
        The reported means and bounds (the conventions are set here, one assignment at a time).
    zero_division : str
        A convention of ``CONVENTIONS`` for every base score, or ``"any"``: each on its own.
    k : int
        The number of folds.
    max_states : int
        As for :func:`~._mean_of_scores.solve`.
    """

    given: Constraints
    zero_division: str
    k: int
    max_states: int

    @property
    def bases(self):
        names = [rep.score for rep in self.given.means] + [name for name, _, _ in self.given.each]
        return {LINEAR[name][0] for name in names}

    @property
    def needs(self):
        """Whether the paper's configurations need a positive (a negative) in every fold (§4.4.3)."""
        return bool(self.bases & {"sens", "bacc"}), bool(self.bases & {"spec", "bacc"})

    def paper(self, rows, sizes):
        """Which rows (the folds' positives of every data set and repeat, with their sizes, both of shape
        (rows, folds)) are of the first tier."""
        k, keep = self.k, np.ones(len(rows), dtype=bool)
        for start in range(0, rows.shape[1], k):
            keep &= paper_configurations(rows[:, start : start + k], sizes[:, start : start + k], *self.needs)
        return keep

    def _undefined(self, rows, sizes, base):
        no_positive, no_negative = (rows == 0).any(axis=1), (sizes - rows == 0).any(axis=1)
        return {"sens": no_positive, "spec": no_negative, "bacc": no_positive | no_negative}[base]

    def _identity(self, rows, sizes, assignment):
        """Which rows the balanced-accuracy identity allows under the conventions (:func:`identity_allows`),
        for the folds without positives and those without negatives they hold."""
        if not {"sens", "spec", "bacc"} <= self.bases:
            return np.ones(len(rows), dtype=bool)
        lacking = np.stack([(rows == 0).sum(axis=1), (sizes - rows == 0).sum(axis=1)], axis=1)
        pairs, back = np.unique(lacking, axis=0, return_inverse=True)
        allowed = np.array(
            [identity_allows(self.given, rows.shape[1], int(z), int(w), assignment) for z, w in pairs]
        )
        return allowed[back.ravel()]

    def _assignments(self):
        """The conventions to try, one base score -> convention mapping at a time, in order."""
        bases = sorted(self.bases & set(_TRIED))
        if self.zero_division != "any":
            return [dict.fromkeys(bases, self.zero_division)]
        choices = itertools.product(*(_TRIED[base] for base in bases))
        return [dict(zip(bases, choice, strict=True)) for choice in choices]

    def first(self, rows, sizes, unsettled=None):
        """(index, (p_i, n_i) of the folds, counts, conventions) of the first row whose folds fit under some
        convention (None if none does).

        For every row the conventions are tried in order; a convention other than the first of its base
        is tried only on rows where that base is undefined in some fold (elsewhere it changes nothing).
        The rows HiGHS could not settle under some convention are added to ``unsettled`` (a set).
        """
        best = None
        undefined = {base: self._undefined(rows, sizes, base) for base in self.bases & set(_TRIED)}
        somewhere = {base for base, where in undefined.items() if where.any()}
        for assignment in self._assignments():
            changed = [base for base, convention in assignment.items() if convention != _TRIED[base][0]]
            if self.zero_division == "any" and not somewhere.issuperset(changed):
                continue  # a convention for a score defined in every fold changes nothing
            useful = np.arange(len(rows)) < (len(rows) if best is None else best[0])
            if self.zero_division == "any":
                for base in changed:
                    useful &= undefined[base]
            useful &= self._identity(rows, sizes, assignment)
            index = np.flatnonzero(useful)
            if not len(index):
                continue
            given = dataclasses.replace(self.given, undefined=tuple(assignment.items()))
            skipped = []
            found = first_solution(
                rows[index], sizes[index] - rows[index], given, max_states=self.max_states, unsettled=skipped
            )
            if unsettled is not None:
                unsettled.update(int(index[i]) for i in skipped)
            if found is not None:
                row = int(index[found[0]])
                used = {
                    base: convention
                    for base, convention in assignment.items()
                    if self._undefined(rows[row : row + 1], sizes[row : row + 1], base)[0]
                }
                best = (row, np.stack([rows[row], sizes[row] - rows[row]], axis=1), found[1], used)
        return best


def unknown_folds(search, units, limit, *, max_work=None, progress=None):
    """Every combination of fold configurations over the units (data set, repeat), tier by tier, in order,
    until one works (module notes).

    Parameters
    ----------
    search : FoldSearch
    units : list of Shape
        The folds of each unit (:class:`Shape`), data set by data set, repeat by repeat.
    limit : int
        ``max_configurations``: a tier of more combinations is refused before it is searched (repeats of
        one data set: after the configurations repeated alike, when these are fewer; module notes).
    max_work : int, optional
        The most combinations the exact search may decide; past it the search stops undecided.
    progress : callable, optional
        ``progress(done, total)`` as combinations are decided.

    Returns
    -------
    (found, configurations, tier, order, stopped)
        ``found``: None, or (the folds' (p_i, n_i), per-fold counts, conventions) of the first combination
        that works; ``configurations``: those covered per tier (ruled out, or tried up to ``found``);
        ``tier``: where ``found`` is (or None); ``order``: how ``found`` was reached, ``"likely"``
        (among the likeliest, after the first ``HEAD``) or ``"generator"`` (in the generator's order),
        ``"alike"`` or ``"alike-likely"`` (the same, among the configurations repeated alike in every
        repeat: ``configurations`` then counts those), or None; ``stopped``: None, or why the search
        ended before deciding (then ``found`` is None and the verdict is undecided).
    """
    given = search.given
    every_positive, every_negative = search.needs
    paper = _count(units, limit, every_positive, every_negative, True, progress)
    alike = len(units) > 1 and all(unit == units[0] for unit in units) and units[0].sizes != "any"
    one = _count(units[:1], limit, False, False, False) if alike else limit + 1
    if one > limit:
        _within(paper, limit, "", units)
    beyond = _count(units, limit + paper, False, False, False, progress) - paper
    tiers = {"paper": paper, "beyond": beyond}
    if not _accuracy_reachable(units, given, search.max_states):
        return None, tiers, None, None, None

    def reachable(sizes):
        return _accuracy_reachable(
            [dataclasses.replace(units[0], sizes=tuple(sizes))], given, search.max_states
        )

    likely = functools.cache(lambda: _likely(units))  # drawn only when a tier reaches HEAD

    def paper_chunks(units=units, repeats=1):
        for rows, sizes, skipped in _combinations(units, every_positive, every_negative, True, reachable):
            yield (
                np.tile(rows, repeats),
                np.tile(sizes, repeats),
                sum(units[0].count_of(s, every_positive, every_negative, True) for s in skipped),
            )

    def beyond_chunks(units=units, repeats=1):
        for rows, sizes, skipped in _combinations(units, False, False, False, reachable):
            ruled_out = sum(
                units[0].count_of(s, False, False, False)
                - units[0].count_of(s, every_positive, every_negative, True)
                for s in skipped
            )
            beyond_paper = ~search.paper(rows, sizes)
            yield np.tile(rows[beyond_paper], repeats), np.tile(sizes[beyond_paper], repeats), ruled_out

    spent = 0
    if one <= limit:
        # Repeats of one data set: the same configuration in every repeat first (module notes); with
        # more combinations than the limit, only these.
        refused = paper > limit
        done = _Work(max_work, progress if refused else None, one)
        found, tier, tested, order = _alike(search, done, units, paper_chunks, beyond_chunks)
        if found is not None:
            return found, tested, tier, order, None
        if done.stopped:
            return None, tested, None, None, done.reason(tiers)
        if refused:
            _within(
                paper,
                limit,
                "",
                units,
                f"; no configuration repeated alike in every repeat (all {one:,} tried) was found to fit",
            )
        spent = done.spent
    work = _Work(
        None if max_work is None else max_work - spent, progress, paper + (beyond if beyond <= limit else 0)
    )

    if _paper_possible(given):
        found, tested, order = _tier(search, work, paper_chunks(), likely, True)
        if found is not None:
            return found, {"paper": tested, "beyond": 0}, "paper", order, None
        if work.stopped:
            return None, {"paper": tested, "beyond": 0}, None, None, work.reason(tiers)
    else:
        work.skip(paper)
    _within(beyond, limit, f"beyond the paper's (none of its {paper:,} fits) ", units)
    found, tested, order = _tier(search, work, beyond_chunks(), likely, False)
    if found is not None:
        return found, {"paper": paper, "beyond": tested}, "beyond", order, None
    if work.stopped:
        return None, {"paper": paper, "beyond": tested}, None, None, work.reason(tiers)
    return None, tiers, None, None, work.unsettled_reason()


@dataclasses.dataclass(frozen=True)
class Shape:
    """The folds of one unit (data set, repeat): p, n, k and their sizes.

    Attributes
    ----------
    positives, negatives, folds : int
        p, n and k.
    sizes : str or tuple of int
        ``"equal"``: sizes within one of each other (KFold, StratifiedKFold; §4.4.3); a tuple of k sizes,
        nonincreasing; or ``"any"``: every composition of the p + n items into k non-empty folds.
    partial : bool
        The folds hold fewer than p + n items (the sizes sum to less), as ``TimeSeriesSplit``'s test folds.
    """

    positives: int
    negatives: int
    folds: int
    sizes: object = "equal"
    partial: bool = False

    def fixed_sizes(self):
        """The folds' sizes when they are fixed (not ``"any"``), nonincreasing; None otherwise."""
        if self.sizes == "any":
            return None
        if self.sizes == "equal":
            return fold_sizes(self.positives, self.negatives, self.folds)
        return np.asarray(self.sizes, dtype=np.int64)

    def totals(self):
        """The positives the folds may hold together: p, or every count the partial folds allow."""
        if not self.partial:
            return range(self.positives, self.positives + 1)
        held = int(self.fixed_sizes().sum())
        return range(max(0, held - self.negatives), min(self.positives, held) + 1)

    def count(self, limit, every_positive, every_negative, paper, progress=None):
        """The configurations of the unit; for ``"any"``, more than ``limit`` may stop the count early.
        Counting the fold sizes of ``"any"`` one by one is reported to ``progress(done, total)`` (sizes
        counted of all of them), as a large ``limit`` can make it long."""
        sizes = self.fixed_sizes()
        if sizes is not None:
            return count_sized(sizes, self.totals(), every_positive, every_negative, paper)
        total = self.positives + self.negatives
        partitions = count_size_partitions(total, self.folds)
        if partitions > limit:
            return partitions  # each fold sizes hold one configuration at least
        found = 0
        for done, sizes in enumerate(size_partitions(total, self.folds), 1):
            found += count_sized(sizes, self.totals(), every_positive, every_negative, paper)
            if found > limit:
                break
            if progress is not None and done % 256 == 0:
                progress(done, partitions)
        return found

    def count_of(self, sizes, every_positive, every_negative, paper):
        """The configurations of the unit with folds of these sizes."""
        return count_sized(sizes, self.totals(), every_positive, every_negative, paper)

    def chunks(self, every_positive, every_negative, paper, reachable=None):
        """(positives, sizes, skipped) of every configuration, arrays of (configurations, k), in order,
        about ``CHUNK`` rows at a time; with any fold sizes, the fold sizes ``reachable(sizes)`` rejects are
        skipped and listed in the next yield's ``skipped``."""
        sizes = self.fixed_sizes()
        if sizes is not None:
            for rows in sized_chunks(
                sizes, self.totals(), every_positive, every_negative, training_sets_hold_both=paper
            ):
                yield rows, np.broadcast_to(sizes, rows.shape), []
            return
        held, skipped = [], []
        for sizes in size_partitions(self.positives + self.negatives, self.folds):
            sizes = np.asarray(sizes, dtype=np.int64)
            if reachable is not None and not reachable(sizes):
                skipped.append(sizes)
                continue
            for rows in sized_chunks(
                sizes, self.totals(), every_positive, every_negative, training_sets_hold_both=paper
            ):
                held.append((rows, np.broadcast_to(sizes, rows.shape)))
            if sum(len(rows) for rows, _ in held) >= CHUNK:
                yield np.concatenate([r for r, _ in held]), np.concatenate([s for _, s in held]), skipped
                held, skipped = [], []
        if held or skipped:
            k = self.folds
            rows = np.concatenate([r for r, _ in held]) if held else np.zeros((0, k), dtype=np.int64)
            sizes = np.concatenate([s for _, s in held]) if held else np.zeros((0, k), dtype=np.int64)
            yield rows, sizes, skipped


class _Work:
    """The combinations decided so far, against ``max_work``, reported to ``progress``; those HiGHS could
    not settle in its time."""

    def __init__(self, most, progress, total):
        self.most, self.progress, self.total, self.done, self.stopped = most, progress, total, 0, False
        self.spent, self.unsettled, self.unsettled_count = 0, set(), 0

    def settle(self):
        """Count the unsettled rows of the last batch (their indices are per batch)."""
        self.unsettled_count += len(self.unsettled)
        self.unsettled.clear()

    def unsettled_reason(self):
        """Why a search that found nothing is undecided, or None when it ruled everything out."""
        if not self.unsettled_count:
            return None
        return (
            f"HiGHS could not settle {self.unsettled_count:,} fold configuration(s) within "
            f"{TIME_LIMIT:g} s each (the exact search is too large for them), and no other gives the scores"
        )

    def take(self, rows, sizes):
        """The rows the budget still allows (all, or the first ones, then ``stopped``)."""
        if self.most is not None and self.spent + len(rows) > self.most:
            keep = self.most - self.spent
            rows, sizes, self.stopped = rows[:keep], sizes[:keep], True
        self.spent += len(rows)
        self.skip(len(rows))
        return rows, sizes

    def skip(self, count):
        """Count ``count`` combinations as done (decided at once, or by the search)."""
        self.done += count
        if self.progress is not None:
            self.progress(min(self.done, self.total), self.total)

    def reason(self, tiers):
        unsettled = f" ({self.unsettled_count:,} of them unsettled by HiGHS)" if self.unsettled_count else ""
        return (
            f"the search stopped after deciding {self.spent:,} fold configurations{unsettled}, the most "
            f"max_work allows, without finding per-fold counts or ruling out the other "
            f"{max(sum(tiers.values()) - self.done, 0):,}; raise max_work to search on"
        )


def _likely(units):
    """The likeliest combinations of fold configurations (:func:`~._folds.likely_configurations`) as
    (positives, sizes); None with any fold sizes (searched in the generator's order only)."""
    if any(unit.sizes == "any" for unit in units):
        return None
    shapes = [(unit.positives, unit.negatives, unit.fixed_sizes()) for unit in units]
    rows = likely_configurations(shapes)
    return rows, np.broadcast_to(np.concatenate([sizes for _, _, sizes in shapes]), rows.shape)


def _tier(search, work, chunks, likely, paper):
    """(found, configurations, order) of one tier: its first ``HEAD`` configurations in the generator's
    order, then its likeliest, then the rest in the generator's order; ``found`` as
    :meth:`FoldSearch.first` gives it less the row, ``configurations`` those covered (up to ``found``,
    the likeliest counted up to it), ``order`` ``"generator"`` or ``"likely"`` (module notes).

    ``chunks`` yields (positives, sizes, ruled out) of the tier in the generator's order, the last the
    configurations decided at once before the rows; ``likely()`` gives the likeliest (:func:`_likely`).
    The search stops early when ``work`` does.
    """
    tested, pending = 0, likely
    for rows, sizes, ruled_out in chunks:
        tested += ruled_out
        work.skip(ruled_out)
        while len(rows):
            cut = len(rows) if pending is None else max(HEAD - tested, 0)
            if cut:
                head, head_sizes = work.take(rows[:cut], sizes[:cut])
                found = search.first(head, head_sizes, work.unsettled)
                if found is not None:
                    return found[1:], tested + found[0] + 1, "generator"
                tested += len(head)
                work.settle()
                if work.stopped:
                    return None, tested, None
                rows, sizes = rows[cut:], sizes[cut:]
            if pending is not None and tested >= HEAD:
                found, pending = _likely_first(search, work, pending(), paper), None
                if found is not None:
                    return found[1:], tested + found[0], "likely"
    return None, tested, None


def _alike(search, work, units, paper_chunks, beyond_chunks):
    """(found, tier, configurations, order) of the search of the combinations that repeat one configuration
    of the unit in every repeat (``units`` all alike), tier by tier, in the order of :func:`_tier` (the
    likeliest first would be slower: on the generator of ``tests/consistency/test_kfold_tenfold.py`` the
    lopsided configurations the generator starts with often fit two repeats and are quickly decided);
    ``found`` None when none fits (which rules nothing else out), ``configurations`` those tried per tier,
    and ``order`` ``"alike"`` or ``"alike-likely"``. These combinations are a part of the product that
    :func:`unknown_folds` searches after them, so a fit found here is a fit of the product."""
    unit, repeats = units[:1], len(units)

    def likely():
        rows, sizes = _likely(unit)
        return np.tile(rows, repeats), np.tile(sizes, repeats)

    tested = {"paper": 0, "beyond": 0}
    for tier, chunks in (("paper", paper_chunks), ("beyond", beyond_chunks)):
        if tier == "paper" and not _paper_possible(search.given):
            continue
        found, tested[tier], order = _tier(search, work, chunks(unit, repeats), likely, tier == "paper")
        if found is not None:
            return found, tier, tested, "alike" if order == "generator" else "alike-likely"
        if work.stopped:
            break
    return None, None, tested, None


def _likely_first(search, work, likely, paper):
    """(place among the likeliest, then ``found`` as :meth:`FoldSearch.first` gives it) of the first of
    the likeliest combinations of the tier (``paper`` or beyond it) that works, or None (also when
    ``likely`` is None).

    Those not found are searched again in the generator's order, so none is counted as work done or as
    unsettled here; they are at most ``max_work``.
    """
    if likely is None:
        return None
    rows, sizes = likely
    tier = search.paper(rows, sizes)
    rows, sizes = rows[tier == paper], sizes[tier == paper]
    if work.most is not None:
        rows, sizes = rows[: work.most], sizes[: work.most]
    found = search.first(rows, sizes, set()) if len(rows) else None
    return None if found is None else (found[0] + 1, *found[1:])


def _count(units, limit, every_positive, every_negative, paper, progress=None):
    """The combinations of one configuration per unit (data set, repeat): exact for fixed fold sizes; with
    any fold sizes the count may stop past ``limit``, at some number above it."""
    total = 1
    for unit in units:
        total *= unit.count(limit, every_positive, every_negative, paper, progress)
    return total


def _within(total, limit, which, units, note=""):
    """Refuse a tier of more than ``limit`` combinations of configurations before searching it (``note``
    ends the message)."""
    if total > limit:
        exact = all(unit.sizes != "any" for unit in units)
        many = f"{total:,}" if exact else f"more than {limit:,}"
        raise InputError(
            f"folding: with unknown folds there are {many} combinations of fold configurations {which}to try "
            f"(over {len(units)} data set(s) and repeat(s)), more than max_configurations={limit:,}; give "
            f"the folding (stratified or explicit) or the fold sizes, or raise max_configurations{note}"
        )


def _paper_possible(given):
    """Whether the paper's configurations can give the means, by the identity they all share
    (:func:`identity_allows` with every score defined in every fold)."""
    return identity_allows(given, 1, 0, 0, {})


def identity_allows(given, folds, without_positives, without_negatives, conventions):
    """Whether the reported means of sensitivity, specificity and balanced accuracy can meet, over
    ``folds`` folds of which some lack positives (z) or negatives (w), under the conventions (§4.3).

    Every fold's balanced accuracy is the mean of its two recalls where both are defined, so the sums
    over the folds Σs (of the defined sensitivities), Σt and the mean B satisfy

        2k·B - Σs - Σt = Σ t_i over the z folds + Σ s_i over the w folds, in [0, z + w]

    when a fold with one class takes that class's recall as its balanced accuracy (``"skip"``, as
    scikit-learn's ``balanced_accuracy_score``), and = c·(z + w) when the missing recall counts as c.
    Σs is k·S less z·c (convention c) or (k - z)·S (``"skip"``), Σt likewise. With every score defined
    (z = w = 0) it is the identity mean bacc = (mean sens + mean spec) / 2. Decided with the reported
    intervals' exact ends, so False is a theorem; True where it does not apply (a score not reported).

    Examples
    --------
    >>> from benchtrust.consistency import reported_scores
    >>> from benchtrust.consistency._solver._mean_constraints import constraints
    >>> given = constraints(reported_scores({"sens": "0.8089", "spec": "0.9291", "bacc": "0.9159"}))
    >>> identity_allows(given, 10, 0, 0, {}), identity_allows(given, 10, 1, 0, {"sens": "0", "bacc": "skip"})
    (False, True)
    """
    bases = base_intervals((rep.score, *rep.interval) for rep in given.means)
    if not {"sens", "spec", "bacc"} <= set(bases):
        return True
    k, z, w = folds, without_positives, without_negatives
    sums = []
    for base, lacking in (("sens", z), ("spec", w)):
        low, high = bases[base]
        convention = conventions.get(base) if lacking else "0"
        if convention == "skip":
            if lacking == k:
                return True  # undefined in every fold: left to the exact check
            sums.append(((k - lacking) * low, (k - lacking) * high))
        elif convention in ("0", "1"):
            shift = lacking * Fraction(convention)
            sums.append((k * low - shift, k * high - shift))
        else:
            return True
    low_b, high_b = bases["bacc"]
    low = 2 * k * low_b - sums[0][1] - sums[1][1]
    high = 2 * k * high_b - sums[0][0] - sums[1][0]
    convention = conventions.get("bacc") if z + w else "skip"
    if convention == "skip":
        target = (0, z + w)
    elif convention in ("0", "1"):
        target = (Fraction(convention) * (z + w),) * 2
    else:
        return True
    return low <= target[1] and target[0] <= high


def _accuracy_reachable(units, given, max_states):
    """Whether folds of these sizes can give the reported accuracy (and error rate) at all (necessary).

    A fold's accuracy only depends on its size and its number of correct items, so the class counts are
    irrelevant: each fold is treated as holding positives only. Units with any fold sizes are not
    checked.
    """
    means = tuple(rep for rep in given.means if LINEAR[rep.score][0] == "acc")
    every = [unit.fixed_sizes() for unit in units]
    if not means or any(sizes is None for sizes in every):
        return True
    sizes = np.concatenate(every)
    each = tuple(item for item in given.each if LINEAR[item[0]][0] == "acc")
    try:
        found = solve(sizes, np.zeros_like(sizes), Constraints(means=means, each=each), max_states=max_states)
    except UnsettledError:
        return True  # HiGHS could not settle it in time: nothing is ruled out
    return found is not None


def _combinations(units, every_positive, every_negative, paper, reachable=None):
    """(positives, sizes, skipped) of every combination of one configuration per unit (data set,
    repeat), in order: the first unit's configuration changes slowest. Arrays of (combinations, units·k).
    With ``paper`` false, the configurations where one fold holds all of a class are included. With one
    unit, fold sizes ``reachable`` rejects are skipped and listed (``skipped``, see Shape.chunks)."""
    head, rest = units[0], units[1:]
    for rows, sizes, skipped in head.chunks(
        every_positive, every_negative, paper, reachable if not rest else None
    ):
        if not rest:
            yield rows, sizes, skipped
            continue
        for row, size in zip(rows, sizes, strict=True):
            for tail, tail_sizes, _ in _combinations(rest, every_positive, every_negative, paper):
                yield (
                    np.concatenate([np.broadcast_to(row, tail.shape[:1] + row.shape), tail], axis=1),
                    np.concatenate([np.broadcast_to(size, tail.shape[:1] + size.shape), tail_sizes], axis=1),
                    [],
                )
