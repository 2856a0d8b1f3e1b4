"""The HTML section of each consistency result (Fazekas & Kovács): the question, the verdict, the table of
reported scores and the intervals of true values they stand for, the assumptions made (the experiment, ε)
and the paper section the result comes from.

The HTML report shows these sections, and a notebook shows them as each result's ``_repr_html_``. Their
words are those of :mod:`._text`, which ``str(result)`` and ``benchtrust consistency`` print.
"""

from __future__ import annotations

from benchtrust._html import Section
from benchtrust._words import EPSILON
from benchtrust.consistency._text import (
    AGGREGATION_WORDS,
    FOLDING_WORDS,
    ZERO_DIVISION_WORDS,
    batch_counts,
    batch_verdict,
    kfold_experiment,
    kfold_splits,
    kfold_tried,
    kfold_verdict,
    multiclass_verdict,
    score_label,
    test_set_verdict,
)

__all__ = ["QUESTION", "batch_section", "kfold_section", "multiclass_section", "test_set_section"]

#: The question every consistency analysis answers.
QUESTION = "Could these reported scores have come from the experiment described?"
_PAPER = "Fazekas & Kovács, testing the consistency of performance scores"
_SCORE_COLUMNS = ("score", "reported", EPSILON, "interval of true values")


def _score_rows(reported) -> tuple:
    """Rows (score, reported, ε, interval of true values) of the reported scores, as written."""
    return tuple(
        (score_label(item), item.text, f"{item.eps:g}", "[{:.6g}, {:.6g}]".format(*item.interval))
        for item in reported
    )


def _epsilon(reported) -> tuple:
    """The ε assumption: each score's ε, given or from its decimals as written."""
    eps = ", ".join(f"{item.score} {item.eps:g}" for item in reported)
    rounding = reported[0].rounding  # ε is inferred for every score of a result, or given for every one
    how = f"from the decimals as written ({rounding})" if rounding else "as given"
    return (f"numerical uncertainty {EPSILON}", f"{eps}: {how}; intervals widened outward by a tolerance")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def test_set_section(result) -> Section:
    """The section of a :class:`~benchtrust.consistency.TestSetResult` (paper §3).

    Examples
    --------
    >>> from benchtrust.consistency import check_test_set
    >>> section = test_set_section(check_test_set({"acc": "0.9"}, positives=10, negatives=10))
    >>> section.verdict[:30], section.rows
    ('Consistent: 9 confusion matric', (('acc', '0.9', '0.05', '[0.85, 0.95]'),))
    """
    where = f"{result.positives} positives and {result.negatives} negatives"
    return Section(
        title=QUESTION,
        analysis="consistency test-set",
        verdict=_capital(test_set_verdict(result)),
        columns=_SCORE_COLUMNS,
        rows=_score_rows(result.scores),
        assumptions=(
            ("experiment", f"one test set of {where}"),
            _epsilon(result.scores),
            *((("β of F-beta", f"{result.beta:g}"),) if result.beta is not None else ()),
        ),
        source=f"{_PAPER}, §3",
    )


# Not a pytest test despite its name, should a test module import it.
test_set_section.__test__ = False


def kfold_section(result) -> Section:
    """The section of a :class:`~benchtrust.consistency.KFoldResult` (paper §4.2-4.4), with the bounds
    on the folds' scores (Eq. 10) among the assumptions when they were reported."""
    assumptions = [
        ("experiment", kfold_experiment(result)),
        ("aggregation", AGGREGATION_WORDS[result.aggregation]),
    ]
    if result.aggregation == "mos":
        assumptions.append(("folding", FOLDING_WORDS[result.folding]))
        if result.folding == "unknown":
            assumptions.append(("fold sizes", kfold_splits(result)))
        assumptions.append(("fold configurations tried", kfold_tried(result)))
        assumptions.append(("undefined fold scores", ZERO_DIVISION_WORDS[result.zero_division]))
    for name, (low, high) in result.bounds.items():
        assumptions.append(("fold bounds", f"every fold's {name} from {low} to {high} (Eq. 10)"))
    assumptions.append(_epsilon(result.scores))
    section = "§4.2" if result.aggregation == "som" else "§4.3-4.4"
    return Section(
        title=QUESTION,
        analysis="consistency kfold",
        verdict=_capital(kfold_verdict(result)),
        columns=_SCORE_COLUMNS,
        rows=_score_rows(result.scores),
        assumptions=tuple(assumptions),
        source=f"{_PAPER}, {section}",
    )


def multiclass_section(result) -> Section:
    """The section of a :class:`~benchtrust.consistency.MulticlassResult` (paper §4.2 micro, §4.3 macro,
    the classes taking the place of folds)."""
    counts = result.class_counts
    how = (
        "micro-averaged: the scores of the pooled one-vs-rest confusion matrix"
        if result.average == "micro"
        else "macro-averaged: the mean of the classes' one-vs-rest scores"
    )
    return Section(
        title=QUESTION,
        analysis="consistency multiclass",
        verdict=_capital(multiclass_verdict(result)),
        columns=_SCORE_COLUMNS,
        rows=_score_rows(result.scores),
        assumptions=(
            ("experiment", f"one test set of {len(counts)} classes of {', '.join(map(str, counts))} items"),
            ("averaging", how),
            _epsilon(result.scores),
        ),
        source=f"{_PAPER}, {'§4.2' if result.average == 'micro' else '§4.3'} (classes as folds)",
    )


def batch_section(result, *, listed: int = 50) -> Section:
    """The section of a :class:`~benchtrust.consistency.BatchResult` (paper §3-4): the counts, then the
    rows, or, beyond `listed` rows, those not consistent (at most `listed` of them)."""
    paragraphs = batch_verdict(result)
    total = len(result.rows)
    summary = ", ".join(f"{count} {verdict}" for verdict, count in batch_counts(result).items())
    rows = [row for row in result.rows if row["verdict"] != "consistent"] if total > listed else result.rows
    notes = list(paragraphs[1:])
    if len(rows) > listed or len(rows) < total:
        notes.append(f"{total} rows: {summary}; the table lists {min(len(rows), listed)} of them.")
    return Section(
        title=QUESTION,
        analysis="consistency batch",
        verdict=paragraphs[0] if paragraphs else f"{total} claims: {summary}.",
        notes=tuple(notes),
        columns=("line", "id", "check", "verdict", "message"),
        rows=tuple(
            (str(row["line"]), str(row["id"] or ""), row["check"], row["verdict"], row["message"])
            for row in rows[:listed]
        ),
        assumptions=(
            (
                "each row",
                "one test set (§3), k-fold cross-validation when it gives folds (§4), or each candidate "
                "protocol when it gives protocols (§5.1)",
            ),
        ),
        source=f"{_PAPER}, §3-4",
        inputs=(result.source,),
    )
