"""Which evaluation protocol fits the reported scores? Each candidate protocol checked (paper §3-4, §5.1).

A paper reports scores on a test set, but often not exactly how it computed them. Fazekas & Kovács audited
the retinal vessel segmentation literature this way (§5.1): the scores of each paper were tested under the
assumption "field of view" and under "all pixels", and the paper placed in the category its scores are
consistent with, or in neither. :func:`check_protocols` generalises that audit to every combination of the
built-in *families* of protocol choices:

``region``
    ``fov`` (the pixels inside the field-of-view mask) or ``all`` (every pixel): the sibling test sets of
    a named retinal collection, such as ``drive/test/manual1/fov`` and ``drive/test/manual1/all``.
``aggregation``
    ``mean_of_scores``, the mean of the per-image (or per-fold) scores (§4.3, :func:`check_kfold` with
    ``aggregation="mean_of_scores"``, the images or the k folds being the folds); ``pooled``, one test set
    of the pooled counts (§3, :func:`check_test_set`); ``score_of_means``, the score of the summed fold
    counts (§4.2, :func:`check_kfold` with ``aggregation="score_of_means"``). The paper's acronyms ``mos``
    and ``som`` are accepted for them. The score of means *is* the score of the pooled counts, so
    ``pooled`` and ``score_of_means`` always agree; both are listed because papers describe them as two
    protocols (one test set, or k-fold cross-validation).
``folding``
    ``stratified`` or ``unknown`` folds, for the mean of scores over k folds cut from one test set (§4.4);
    the images of a per-image collection are known folds instead.
``rounding``
    How the scores were cut to their decimals (``round``: ε = ½·10^-d; ``floor-or-ceil``: ε = 10^-d), the
    rules :func:`reported_scores` offers; no family when ε is given.

Every protocol is checked by the existing check it names, and its verdict is that check's verdict: an
"inconsistent" row is as certain as the check itself (a statement about integers), and a protocol the
check cannot decide (the mean of scores of a score not linear in the counts, k-fold without k, too many
fold configurations) is shown with the check's reason, not as a verdict.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Literal, TypedDict

from benchtrust._io import InputError, check_count
from benchtrust._result import Description, Result
from benchtrust._words import EPSILON, paragraph
from benchtrust.consistency import _text
from benchtrust.consistency._datasets import TestSetCounts, dataset_names
from benchtrust.consistency._datasets import dataset as named_dataset
from benchtrust.consistency._kfold import ACRONYMS, check_kfold
from benchtrust.consistency._reported import _ROUNDING, reported_scores
from benchtrust.consistency._test_set import check_test_set

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from benchtrust.consistency._kfold import KFoldResult
    from benchtrust.consistency._test_set import TestSetResult

    class _Choice(TypedDict):
        """One protocol: the value of each family, None where the family does not apply."""

        region: str | None
        aggregation: str
        folding: str | None
        rounding: str | None

    class _Row(_Choice):
        """One protocol's row of :attr:`ProtocolsResult.rows`."""

        protocol: str
        verdict: str
        evidence: str


#: The families of protocol choices and their values, in the order protocols are listed.
FAMILIES = {
    "region": ("fov", "all"),
    "aggregation": ("mean_of_scores", "pooled", "score_of_means"),
    "folding": ("stratified", "unknown"),
    "rounding": _ROUNDING,
}
_REGION_WORDS = {"fov": "field of view", "all": "all pixels"}
_ROUNDING_WORDS = {"round": "rounded", "floor-or-ceil": "floored or ceiled"}
_FOLDING_WORDS = {"stratified": " (stratified)", "unknown": " (class counts unknown)"}
_SINGULAR = {"images": "image", "batches": "batch"}
_VERDICTS = ("consistent", "inconsistent", "undecided")
_TITLE = "Under which evaluation protocol could these reported scores have come out?"


def protocol_value(family, value, where=None):
    """`value` of `family` as :data:`FAMILIES` names it (an aggregation's acronym spelled out); InputError
    naming `where` (the family, by default) for a value it does not have.

    Examples
    --------
    >>> protocol_value("aggregation", "som"), protocol_value("region", "fov")
    ('score_of_means', 'fov')
    """
    named = ACRONYMS.get(value, value) if family == "aggregation" and isinstance(value, str) else value
    if named not in FAMILIES[family]:
        also = " (or the paper's mos, som)" if family == "aggregation" else ""
        raise InputError(f"{where or family}: expected {', '.join(FAMILIES[family])}{also}, got {value!r}")
    return named


@dataclasses.dataclass(frozen=True, eq=False)
class ProtocolsResult(Result):
    """The candidate protocols of reported scores, each checked (paper §3-4, the audit of §5.1).

    Attributes
    ----------
    consistent : bool or None
        Whether at least one protocol is consistent with the scores; ``False`` (certain) when every
        protocol was checked and none is; None when none is consistent but some could not be checked.
    rows : tuple of dict
        One per protocol, in the order tried: its choice of each family (``region``, ``aggregation``,
        ``folding``, ``rounding``; None where the family does not apply), ``protocol`` (the choices in
        words), ``verdict`` (``"consistent"``, ``"inconsistent"`` or ``"undecided"``) and ``evidence``
        (what was found, or why the check could not decide).
    results : tuple
        The check of each row (:class:`TestSetResult` or :class:`KFoldResult`), None where undecided;
        ``to_dict()`` leaves them out.
    test_sets : tuple of str
        The test sets tried: their names, or their counts in words.
    scores : dict
        The reported scores as given (name -> value as written).
    eps : float, dict or None
        ε as given; None when it comes from the decimals by each protocol's rounding rule.
    beta : float or None
        β of the F-beta scores.

    Its table (``to_frame()``) has one row per protocol: the families' choices, ``protocol``, ``verdict``,
    ``evidence``.

    See Also
    --------
    check_protocols : Every candidate evaluation protocol of the scores, each checked (§5.1).
    TestSetResult : The result of check_test_set.
    KFoldResult : The result of check_kfold.
    BatchResult : The result of check_batch.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §5.1 (the scores tested
           under "field of view" and under "all pixels") and §4.4.4 (both aggregations tried when the mode is
           unknown), each protocol tested by §3 or §4.2-4.4 with the two ε of §2; extends §5.1 to every
           combination of region, aggregation, folding and rounding.
    """

    consistent: bool | None
    rows: tuple[_Row, ...]
    results: tuple[TestSetResult | KFoldResult | None, ...]
    test_sets: tuple[str, ...]
    scores: dict[str, str | float]
    eps: float | Mapping[str, float] | None
    beta: float | None

    def __repr__(self) -> str:
        counts = ", ".join(f"{sum(r['verdict'] == v for r in self.rows)} {v}" for v in _VERDICTS)
        return (
            f"ProtocolsResult(consistent={self.consistent}, protocols={len(self.rows)} ({counts}), "
            f"test_sets={list(self.test_sets)}, scores={self.scores})"
        )

    def describe(self) -> Description:
        """The result's description (paper §3-4, §5.1): its text (the table of protocols and the
        conclusion), its section, data and table."""
        scores = ", ".join(f"{name}={value}" for name, value in self.scores.items())
        table = [("protocol", "verdict", "evidence")] + [
            (row["protocol"], row["verdict"], row["evidence"]) for row in self.rows
        ]
        widths = [max(len(line[k]) for line in table) for k in range(2)]
        lines = [
            f"which protocol fits {scores} ({_text.PAPER} §3-4, §5.1)",
            f"  test sets  {'; '.join(self.test_sets)}",
            *(f"  {line[0]:<{widths[0]}}  {line[1]:<{widths[1]}}  {line[2]}" for line in table),
            "",
            paragraph(self.verdict),
        ]
        eps = "as given" if self.eps is not None else "from the decimals as written, by each rounding rule"
        columns = [*FAMILIES, "protocol", "verdict", "evidence"]
        return Description(
            question=_TITLE,
            verdict=_text.capital(self.verdict),
            text="\n".join(lines),
            data={
                "consistent": self.consistent,
                "verdict": self.verdict,
                "rows": self.rows,
                "test_sets": self.test_sets,
                "scores": self.scores,
                "eps": self.eps,
                "beta": self.beta,
            },
            columns=("protocol", "verdict", "evidence"),
            rows=tuple(table[1:]),
            frame={column: [row.get(column) for row in self.rows] for column in columns},
            assumptions=(
                ("test sets", "; ".join(self.test_sets)),
                ("reported scores", ", ".join(f"{name} {value}" for name, value in self.scores.items())),
                (f"numerical uncertainty {EPSILON}", f"{eps}; intervals widened outward by a tolerance"),
                ("each protocol", "checked by the one-test-set (§3) or k-fold (§4) check it names"),
            ),
            source=f"{_text.SOURCE}, §3-4; the audit of §5.1",
            inputs=self.inputs,
            analysis="consistency protocols",
        )

    @property
    def verdict(self) -> str:
        """The conclusion in one sentence: the protocols the scores are consistent with, all, or none."""
        total = len(self.rows)
        good = [row["protocol"] for row in self.rows if row["verdict"] == "consistent"]
        undecided = sum(row["verdict"] == "undecided" for row in self.rows)
        checked = total - undecided
        unchecked = f"; {undecided} could not be checked" if undecided else ""
        tried = f" checked (of the {total} tried{unchecked})" if undecided else " tried"
        if checked == 0:
            return f"undecided: none of the {total} protocols tried could be checked (see the reasons)."
        if good and len(good) < checked:
            return (
                f"consistent only with: {'; '.join(good)} (of the {total} protocols tried{unchecked}). The "
                f"scores cannot come from the other {checked - len(good)}{' checked' if undecided else ''} "
                f"({_text.CERTAIN})."
            )
        if good:
            return (
                f"consistent with all {checked} protocols{tried}: the scores do not tell the protocols apart."
            )
        return (
            f"consistent with none of the {checked} protocols{tried}: the scores cannot come from any of "
            f"them ({_text.CERTAIN})."
        )


def check_protocols(
    scores: Mapping[str, str | float],
    *,
    dataset: str | None = None,
    positives: int | None = None,
    negatives: int | None = None,
    folds: int | None = None,
    candidates: Mapping[str, str | Sequence[str]] | None = None,
    eps: float | Mapping[str, float] | None = None,
    rounding: Literal["round", "floor-or-ceil"] | Sequence[Literal["round", "floor-or-ceil"]] | None = None,
    beta: float | None = None,
) -> ProtocolsResult:
    """Which candidate evaluation protocols could have produced the reported scores? (paper §3-4, §5.1)

    Every combination of the chosen values of the families of the module (region, aggregation, folding,
    rounding) is one protocol, checked with :func:`check_test_set` (one test set of the pooled counts,
    Eq. 1) or :func:`check_kfold` (§4.2 score of means, §4.3 mean of scores). This is the audit of §5.1,
    where each retinal vessel segmentation paper was found consistent with "field of view", "all pixels"
    or neither.

    Parameters
    ----------
    scores : mapping
        Score name (any alias) -> reported value, a number or its text as printed ("0.9400" keeps its 4
        decimals).
    dataset : str, optional
        A named test set (:func:`dataset_names`). For a name ending in ``fov`` or ``all``, the sibling
        test sets are the values of the region family; a per-image collection's images are its folds.
    positives, negatives : int, optional
        p and n of the test set, instead of ``dataset``.
    folds : int, optional
        k, the folds one test set was cut into (for the two aggregations over folds); for a per-image
        collection, the number of its images if given.
    candidates : mapping, optional
        Family name -> the values to try (a value or a sequence of values): ``{"region": ["fov"],
        "aggregation": ["mean_of_scores", "pooled"]}`` (the paper's ``mos`` and ``som`` are accepted for
        ``mean_of_scores`` and ``score_of_means``). A family left out takes every value that applies: both
        regions of a named retinal set; ``mean_of_scores``, ``pooled`` and ``score_of_means`` when there
        are folds (images or k), else ``pooled``; both foldings for the mean of scores over k folds; every
        rounding rule unless ε is given. A value asked for explicitly is tried even where its check cannot
        decide (its row then says why).
    eps : float or mapping, optional
        ε for every score or per score; then the rounding rule plays no part.
    rounding : str or sequence of str, optional
        The rounding rules to try, as ``candidates["rounding"]`` (give one of the two).
    beta : float, optional
        β of the F-beta scores; required when one is reported.

    Returns
    -------
    ProtocolsResult
        One row per protocol with its verdict, and the conclusion (:attr:`ProtocolsResult.verdict`).

    Raises
    ------
    InputError
        For bad scores, counts or names, an unknown family or value, or a family that does not apply
        (a region without a named retinal set, a folding without k folds of one test set).

    See Also
    --------
    ProtocolsResult : The result of check_protocols.
    check_test_set : Scores reported for one test set (§3).
    check_kfold : Scores reported for k-fold cross-validation (§4).
    check_batch : Many claims at once, one per row of a table.
    dataset : The class counts of a named test set.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §5.1 (the scores tested
           under "field of view" and under "all pixels") and §4.4.4 (both aggregations tried when the mode is
           unknown), each protocol tested by §3 or §4.2-4.4 with the two ε of §2; extends §5.1 to every
           combination of region, aggregation, folding and rounding.

    Examples
    --------
    Mean accuracy, sensitivity and specificity over the 20 DRIVE test images (annotator 1): only the
    mean of the per-image scores inside the field of view gives them.

    >>> scores = {"acc": "0.9557", "sens": "0.7761", "spec": "0.9792"}
    >>> result = check_protocols(scores, dataset="drive/test/manual1/fov", rounding="round")
    >>> print(result.verdict)  # doctest: +NORMALIZE_WHITESPACE
    consistent only with: field of view, mean of per-image scores, rounded (of the 6 protocols tried).
    The scores cannot come from the other 5 (a certain conclusion about integers, not a statistical test).
    >>> [row["verdict"] for row in result.rows]
    ['consistent', 'inconsistent', 'inconsistent', 'inconsistent', 'inconsistent', 'inconsistent']
    >>> check_protocols(scores, dataset="drive/test/manual1/fov",
    ...                 candidates={"region": "all", "aggregation": ["mean_of_scores", "pooled"]}).consistent
    False

    The protocols as a table:

    >>> check_protocols({"acc": "0.9"}, positives=10, negatives=10, rounding="round").to_frame()[
    ...     ["aggregation", "verdict", "evidence"]
    ... ]
      aggregation     verdict              evidence
    0      pooled  consistent  9 confusion matrices
    """
    reported_scores(scores, eps=eps, beta=beta)  # bad scores are the caller's error, not a protocol's
    sets = _test_sets(dataset, positives, negatives)
    k = None if folds is None else check_count(folds, "folds")
    for counts in sets.values():
        if counts.folds:
            counts.kfold_options(k)  # k, if given, must be the number of images
    chosen = _chosen(candidates, rounding)
    some = next(iter(sets.values()))
    regions = _values(chosen, "region", tuple(sets) if None not in sets else None, _region_hint(dataset))
    has_folds = bool(some.folds) or k is not None
    aggregations = _values(chosen, "aggregation", FAMILIES["aggregation"] if has_folds else ("pooled",))
    cut = k is not None and not some.folds and "mean_of_scores" in aggregations
    foldings = _values(chosen, "folding", FAMILIES["folding"] if cut else None, _FOLDING_HINT)
    roundings = _values(chosen, "rounding", None if eps is not None else _ROUNDING, _ROUNDING_HINT)
    rows: list[_Row] = []
    results: list[TestSetResult | KFoldResult | None] = []
    for region in regions:
        counts = sets[region]
        for aggregation in aggregations:
            for folding in foldings if aggregation == "mean_of_scores" and not counts.folds else (None,):
                for rule in roundings:
                    choice: _Choice = {
                        "region": region,
                        "aggregation": aggregation,
                        "folding": folding,
                        "rounding": rule,
                    }
                    options = {"eps": eps, "rounding": rule or "round", "beta": beta}
                    try:
                        result = _check(scores, counts, k, choice, options)
                    except InputError as exc:
                        result, verdict, evidence = None, "undecided", str(exc)
                    else:
                        verdict = {True: "consistent", False: "inconsistent", None: "undecided"}[
                            result.consistent
                        ]
                        evidence = _evidence(result)
                    words = _protocol_words(choice, counts, k)
                    rows.append({**choice, "protocol": words, "verdict": verdict, "evidence": evidence})
                    results.append(result)
    verdicts = {row["verdict"] for row in rows}
    return ProtocolsResult(
        consistent=True if "consistent" in verdicts else (False if verdicts == {"inconsistent"} else None),
        rows=tuple(rows),
        results=tuple(results),
        test_sets=tuple(_set_words(counts, k) for counts in sets.values()),
        scores={str(name).strip(): value for name, value in scores.items()},
        eps=eps,
        beta=None if beta is None else float(beta),
    )


_FOLDING_HINT = "stratified or unknown folds apply to the mean of scores over k folds of one test set"
_ROUNDING_HINT = "with eps given, the rounding rule plays no part"


def _test_sets(dataset, positives, negatives) -> dict:
    """The test set of each region (None: no region family), from the name or the counts."""
    if dataset is None:
        if positives is None or negatives is None:
            raise InputError("positives, negatives: give the counts of the test set, or dataset (its name)")
        p, n = check_count(positives, "positives"), check_count(negatives, "negatives")
        return {None: TestSetCounts(f"{p} positives and {n} negatives", p, n)}
    if positives is not None or negatives is not None:
        raise InputError("dataset gives the counts: give it or positives and negatives, not both")
    named = named_dataset(dataset)
    stem, _, region = named.name.rpartition("/")
    if region not in FAMILIES["region"]:
        return {None: named}
    known = set(dataset_names())
    return {r: named_dataset(f"{stem}/{r}") for r in FAMILIES["region"] if f"{stem}/{r}" in known}


def _region_hint(dataset) -> str:
    what = "the counts given" if dataset is None else f"{dataset!r}"
    return f"regions (fov, all) are the sibling test sets of a named retinal set, not of {what}"


def _chosen(candidates, rounding) -> dict:
    """The values asked for, by family, each checked and without repeats."""
    if candidates is None:
        candidates = {}
    if not hasattr(candidates, "items"):
        raise InputError(f"candidates: expected a mapping of family -> values, got {candidates!r:.80}")
    if rounding is not None:
        if "rounding" in candidates:
            raise InputError("rounding: given both as an argument and in candidates; give it once")
        candidates = {**candidates, "rounding": rounding}
    chosen = {}
    for family, values in candidates.items():
        if family not in FAMILIES:
            raise InputError(f"candidates: unknown family {family!r}; the families are {', '.join(FAMILIES)}")
        values = (values,) if isinstance(values, str) else tuple(values)
        where = "rounding" if family == "rounding" and rounding is not None else f"candidates[{family!r}]"
        if not values:
            raise InputError(f"{where}: expected one or more of {', '.join(FAMILIES[family])}, got none")
        chosen[family] = tuple(dict.fromkeys(protocol_value(family, value, where) for value in values))
    return chosen


def _values(chosen, family, applicable, hint=""):
    """The values of `family` to try: those chosen, else those `applicable` (None: the family does not
    apply, and a choice of it is an error)."""
    if family not in chosen:
        return applicable or (None,)
    if applicable is None:
        raise InputError(f"candidates[{family!r}]: {hint}")
    if family == "region":
        missing = [value for value in chosen[family] if value not in applicable]
        if missing:
            raise InputError(
                f"candidates['region']: no {missing[0]} test set; there is {', '.join(applicable)}"
            )
    return chosen[family]


def _check(scores, counts: TestSetCounts, k, choice, options):
    """The check of one protocol: one test set of the pooled counts, or k-fold of the images or k folds."""
    if choice["aggregation"] == "pooled":
        return check_test_set(scores, positives=counts.positives, negatives=counts.negatives, **options)
    kfold = counts.kfold_options(k)
    if choice["folding"] is not None:
        kfold["folding"] = choice["folding"]
    return check_kfold(scores, aggregation=choice["aggregation"], **kfold, **options)


def _evidence(result) -> str:
    """What the check of a protocol found, in a few words."""
    matrices = getattr(result, "n_solutions", None)
    if matrices is None and result.aggregation == "score_of_means":
        matrices = result.evidence["n_solutions"] if result.evidence else 0
    if matrices is not None:
        return (
            "no confusion matrix"
            if matrices == 0
            else f"{matrices} confusion matri{'x' if matrices == 1 else 'ces'}"
        )
    tested = result.configurations_tested
    if result.consistent is None:
        return f"undecided: {result.undecided}"
    if result.folding != "unknown":
        return "per-fold counts found" if result.consistent else "no per-fold counts"
    if result.consistent:
        return f"per-fold counts found (fold configuration {tested})"
    return f"no per-fold counts in any of {tested} fold configurations"


def _protocol_words(choice, counts: TestSetCounts, k) -> str:
    """A protocol in words: "field of view, mean of per-image scores, rounded"."""
    item = _SINGULAR.get(counts.item_word, "item") if counts.folds else "fold"
    folds = f" over {k} folds" if k is not None and not counts.folds else ""
    aggregation = {
        "mean_of_scores": f"mean of per-{item} scores{folds}{_FOLDING_WORDS.get(choice['folding'], '')}",
        "pooled": "one test set of the pooled counts" if counts.folds else "one test set",
        "score_of_means": f"score of the summed per-{item} counts{folds}",
    }[choice["aggregation"]]
    parts = (_REGION_WORDS.get(choice["region"]), aggregation, _ROUNDING_WORDS.get(choice["rounding"]))
    return ", ".join(part for part in parts if part)


def _set_words(counts: TestSetCounts, k) -> str:
    """A test set in words: its name and counts, and its folds."""
    folds = f", cut into {k} folds" if k is not None and not counts.folds else ""
    return f"{counts}{folds}" if counts.collection else f"one test set of {counts.name}{folds}"
