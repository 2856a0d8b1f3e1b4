"""The performance scores of binary classification as functions of the confusion matrix (paper §2, Table 2).

Every score is f_s(tp, tn, p, n) with fp = n - tn and fn = p - tp, evaluated elementwise on numpy arrays.
Where a score's formula divides by zero (0/0, or x/0 for the ratios) the score is undefined and its value is
``nan``: a reported value for it then rules that confusion matrix out.

Each score also records its direction in tn with tp fixed, and in tp with tn fixed (+1 increasing, -1
decreasing, 0 constant). Every score here is monotone in each count with the other fixed wherever it is
defined, and the points where it is undefined lie at the ends tn in {0, n} (tp in {0, p}) or on whole rows,
with one exception: the prevalence threshold is 0/0 where tpr = fpr, inside the range. Its algebraic
simplification sqrt(fpr) / (sqrt(tpr) + sqrt(fpr)) is monotone everywhere and is used to locate solutions
(see ``monotone``). The consistency tests rely on these directions to invert each score by bisection.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

import numpy as np

from benchtrust._io import InputError

if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy.typing as npt


@dataclasses.dataclass(frozen=True)
class Score:
    """One performance score.

    Attributes
    ----------
    name : str
        Canonical abbreviation, as in the paper's Table 2 (``acc``, ``sens``, ...).
    title : str
        The score's name in words.
    formula : callable
        f(tp, tn, p, n, beta) on float arrays; ``nan`` where undefined. The formulas are plain
        arithmetic, so the linear ones also take :class:`fractions.Fraction` counts and give exact
        values (the mean-of-scores tests verify their evidence that way).
    in_tn, in_tp : int
        Direction of the score in tn with tp fixed, and in tp with tn fixed: +1, -1 or 0.
    monotone : callable or None
        A form equal to ``formula`` wherever that is defined and monotone across its inner undefined
        points (only the prevalence threshold needs one).
    linear : bool
        Whether the score is linear in tp and tn (the mean-of-scores test of §4.3 takes these).
    needs_beta : bool
        Whether the score needs β (F-beta).
    ratio : callable or None
        For the scores that are a ratio of two forms linear in tp and tn (precision, F-beta, Jaccard
        ...): g(tp, tn, p, n, beta) -> (numerator, denominator), the denominator >= 0 on every confusion
        matrix. An interval of such a score is then two linear inequalities (numerator - low·denominator
        >= 0, high·denominator - numerator >= 0), which the test-set check counts exactly.

    See Also
    --------
    score : One score by its abbreviation or an alias.
    SCORES : Every score by its canonical abbreviation.

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §2, Table 2; ``linear``
           marks the scores of §4.3.2 and Eq. (9).
    """

    name: str
    title: str
    formula: Callable[..., Any]
    in_tn: int
    in_tp: int
    monotone: Callable[..., Any] | None = None
    linear: bool = False
    needs_beta: bool = False
    ratio: Callable[..., tuple[Any, Any]] | None = None

    def __call__(
        self,
        tp: npt.ArrayLike,
        tn: npt.ArrayLike,
        p: npt.ArrayLike,
        n: npt.ArrayLike,
        beta: float | None = None,
    ) -> np.float64 | npt.NDArray[np.float64]:
        """The score of the confusion matrices (tp, tn) of p positives and n negatives."""
        tp, tn, p, n = (np.asarray(v, dtype=float) for v in (tp, tn, p, n))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            value = np.asarray(self.formula(tp, tn, p, n, beta), dtype=float)
        return np.where(np.isfinite(value), value, np.nan)[()]

    def for_search(
        self,
        tp: npt.ArrayLike,
        tn: npt.ArrayLike,
        p: npt.ArrayLike,
        n: npt.ArrayLike,
        beta: float | None = None,
    ) -> np.float64 | npt.NDArray[np.float64]:
        """The monotone form of the score, for locating solutions (the score itself for all but ``pt``)."""
        if self.monotone is None:
            return self(tp, tn, p, n, beta)
        tp, tn, p, n = (np.asarray(v, dtype=float) for v in (tp, tn, p, n))
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            value = np.asarray(self.monotone(tp, tn, p, n, beta), dtype=float)
        return np.where(np.isfinite(value), value, np.nan)[()]


def _sqrt(x):
    return np.sqrt(np.where(x >= 0, x, np.nan))


def _acc(tp, tn, p, n, beta):
    return (tp + tn) / (p + n)


def _sens(tp, tn, p, n, beta):
    return tp / p


def _spec(tp, tn, p, n, beta):
    return tn / n


def _bacc(tp, tn, p, n, beta):
    return (tp / p + tn / n) / 2


# The ratio scores as (numerator, denominator), each linear in tp and tn.
def _ppv_ratio(tp, tn, p, n, beta):
    return tp, tp + n - tn


def _npv_ratio(tp, tn, p, n, beta):
    return tn, tn + p - tp


def _fbeta_ratio(tp, fn, fp, b2):
    return (1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp


def _f1p_ratio(tp, tn, p, n, beta):
    return _fbeta_ratio(tp, p - tp, n - tn, 1)


def _f1n_ratio(tp, tn, p, n, beta):
    return _fbeta_ratio(tn, n - tn, p - tp, 1)


def _fbp_ratio(tp, tn, p, n, beta):
    return _fbeta_ratio(tp, p - tp, n - tn, beta * beta)


def _fbn_ratio(tp, tn, p, n, beta):
    return _fbeta_ratio(tn, n - tn, p - tp, beta * beta)


def _ji_ratio(tp, tn, p, n, beta):
    return tp, p + n - tn


def _quotient(ratio):
    """The score whose (numerator, denominator) ``ratio`` gives."""

    def score(tp, tn, p, n, beta):
        numerator, denominator = ratio(tp, tn, p, n, beta)
        return numerator / denominator

    return score


_ppv, _npv, _ji = _quotient(_ppv_ratio), _quotient(_npv_ratio), _quotient(_ji_ratio)
_f1p, _f1n = _quotient(_f1p_ratio), _quotient(_f1n_ratio)
_fbp, _fbn = _quotient(_fbp_ratio), _quotient(_fbn_ratio)


def _fm(tp, tn, p, n, beta):
    return _sqrt(_ppv(tp, tn, p, n, beta) * _sens(tp, tn, p, n, beta))


def _upm(tp, tn, p, n, beta):
    return 4 * tp * tn / (4 * tp * tn + (tp + tn) * (n - tn + p - tp))


def _gm(tp, tn, p, n, beta):
    return _sqrt(tp / p * tn / n)


def _mk(tp, tn, p, n, beta):
    return _ppv(tp, tn, p, n, beta) + _npv(tp, tn, p, n, beta) - 1


def _lrp(tp, tn, p, n, beta):
    return (tp / p) / ((n - tn) / n)


def _lrn(tp, tn, p, n, beta):
    return ((p - tp) / p) / (tn / n)


def _mcc(tp, tn, p, n, beta):
    fp, fn = n - tn, p - tp
    return (tp * tn - fp * fn) / _sqrt((tp + fp) * p * n * (tn + fn))


def _bm(tp, tn, p, n, beta):
    return tp / p + tn / n - 1


def _pt(tp, tn, p, n, beta):
    tpr, fpr = tp / p, (n - tn) / n
    return (_sqrt(tpr * fpr) - fpr) / (tpr - fpr)


def _pt_monotone(tp, tn, p, n, beta):
    tpr, fpr = tp / p, (n - tn) / n
    return _sqrt(fpr) / (_sqrt(tpr) + _sqrt(fpr))


def _dor(tp, tn, p, n, beta):
    return tp * tn / ((n - tn) * (p - tp))


def _kappa(tp, tn, p, n, beta):
    fp, fn = n - tn, p - tp
    return 2 * (tp * tn - fn * fp) / ((tp + fp) * n + p * (fn + tn))


def _complement(formula):
    return lambda tp, tn, p, n, beta: 1 - formula(tp, tn, p, n, beta)


def _complement_ratio(ratio):
    def complement(tp, tn, p, n, beta):
        numerator, denominator = ratio(tp, tn, p, n, beta)
        return denominator - numerator, denominator

    return complement


_TABLE = [
    Score("acc", "accuracy", _acc, +1, +1, linear=True),
    Score("sens", "sensitivity", _sens, 0, +1, linear=True),
    Score("spec", "specificity", _spec, +1, 0, linear=True),
    Score("ppv", "positive predictive value", _ppv, +1, +1, ratio=_ppv_ratio),
    Score("npv", "negative predictive value", _npv, +1, +1, ratio=_npv_ratio),
    Score("bacc", "balanced accuracy", _bacc, +1, +1, linear=True),
    Score("f1p", "F1 of the positive class", _f1p, +1, +1, ratio=_f1p_ratio),
    Score("f1n", "F1 of the negative class", _f1n, +1, +1, ratio=_f1n_ratio),
    Score("fbp", "F-beta of the positive class", _fbp, +1, +1, needs_beta=True, ratio=_fbp_ratio),
    Score("fbn", "F-beta of the negative class", _fbn, +1, +1, needs_beta=True, ratio=_fbn_ratio),
    Score("fm", "Fowlkes-Mallows index", _fm, +1, +1),
    Score("upm", "unified performance measure", _upm, +1, +1),
    Score("gm", "geometric mean of sensitivity and specificity", _gm, +1, +1),
    Score("mk", "markedness", _mk, +1, +1),
    Score("lrp", "positive likelihood ratio", _lrp, +1, +1),
    Score("lrn", "negative likelihood ratio", _lrn, -1, -1),
    Score("mcc", "Matthews correlation coefficient", _mcc, +1, +1),
    Score("bm", "informedness (bookmaker)", _bm, +1, +1),
    Score("pt", "prevalence threshold", _pt, -1, -1, monotone=_pt_monotone),
    Score("dor", "diagnostic odds ratio", _dor, +1, +1),
    Score("ji", "Jaccard index", _ji, +1, +1, ratio=_ji_ratio),
    Score("kappa", "Cohen's kappa", _kappa, +1, +1),
    Score("err", "error rate", _complement(_acc), -1, -1, linear=True),
    Score("fnr", "false negative rate", _complement(_sens), 0, -1, linear=True),
    Score("fpr", "false positive rate", _complement(_spec), -1, 0, linear=True),
    Score("fdr", "false discovery rate", _complement(_ppv), -1, -1, ratio=_complement_ratio(_ppv_ratio)),
    Score("for", "false omission rate", _complement(_npv), -1, -1, ratio=_complement_ratio(_npv_ratio)),
]

#: Every score by its canonical abbreviation.
#:
#: See Also
#: --------
#: score : One score by its abbreviation or an alias.
#: Score : One performance score (§2, Table 2).
#:
#: References
#: ----------
#: .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for binary
#:        classification problems", arXiv preprint, 2023. arXiv:2310.12527. §2, Table 2.
SCORES = {score.name: score for score in _TABLE}

_ALIASES = {
    "accuracy": "acc",
    "accuracy_score": "acc",  # scikit-learn's; of a binary prediction it is acc
    "error": "err",
    "error_rate": "err",
    "sensitivity": "sens",
    "recall": "sens",
    "tpr": "sens",
    "true_positive_rate": "sens",
    "hit_rate": "sens",
    "specificity": "spec",
    "tnr": "spec",
    "true_negative_rate": "spec",
    "selectivity": "spec",
    "precision": "ppv",
    "positive_predictive_value": "ppv",
    "negative_predictive_value": "npv",
    "balanced_accuracy": "bacc",
    "f1": "f1p",
    "f1_score": "f1p",
    "f1_positive": "f1p",
    "f1_negative": "f1n",
    "fbeta": "fbp",
    "f_beta": "fbp",
    "fbeta_positive": "fbp",
    "fbeta_negative": "fbn",
    "fowlkes_mallows": "fm",
    "fowlkes_mallows_index": "fm",
    "unified_performance_measure": "upm",
    "g_mean": "gm",
    "gmean": "gm",
    "geometric_mean": "gm",
    "markedness": "mk",
    "lr+": "lrp",
    "positive_likelihood_ratio": "lrp",
    "lr-": "lrn",
    "negative_likelihood_ratio": "lrn",
    "matthews": "mcc",
    "matthews_correlation_coefficient": "mcc",
    "informedness": "bm",
    "bookmaker_informedness": "bm",
    "youden": "bm",
    "youden_j": "bm",
    "prevalence_threshold": "pt",
    "diagnostic_odds_ratio": "dor",
    "jaccard": "ji",
    "jaccard_index": "ji",
    "threat_score": "ji",
    "csi": "ji",
    "cohen_kappa": "kappa",
    "cohens_kappa": "kappa",
    "miss_rate": "fnr",
    "false_negative_rate": "fnr",
    "fall_out": "fpr",
    "fallout": "fpr",
    "false_positive_rate": "fpr",
    "false_discovery_rate": "fdr",
    "false_omission_rate": "for",
}


def score(name: str) -> Score:
    """The :class:`Score` called ``name`` (an abbreviation or an alias, any case, '-' or ' ' for '_').

    See Also
    --------
    Score : One performance score (§2, Table 2).
    SCORES : Every score by its canonical abbreviation.
    reported_scores : Reported scores as intervals (§2).

    References
    ----------
    .. [1] Attila Fazekas and György Kovács, "Testing the consistency of performance scores reported for
           binary classification problems", arXiv preprint, 2023. arXiv:2310.12527. §2, Table 2.

    Examples
    --------
    >>> score("Recall").name, score("F1").name, score("balanced-accuracy").name
    ('sens', 'f1p', 'bacc')
    >>> round(float(score("mcc")(tp=80, tn=90, p=100, n=100)), 6)
    0.703526
    >>> score("auc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    benchtrust.InputError: unknown score 'auc'; known scores: acc, sens, spec, ..., for (and ...)
    """
    if not isinstance(name, str):
        raise InputError(f"score name: expected text, got {name!r}")
    key = "_".join(name.strip().lower().split())
    if key not in _ALIASES:  # "lr-" is an alias as written; elsewhere "-" and " " stand for "_"
        key = key.replace("-", "_")
    key = _ALIASES.get({"lr_plus": "lr+", "lr_minus": "lr-"}.get(key, key), key)
    if key not in SCORES:
        raise InputError(
            f"unknown score {name!r}; known scores: {', '.join(SCORES)} "
            "(and aliases such as accuracy, recall, tpr, precision, f1)"
        )
    return SCORES[key]
