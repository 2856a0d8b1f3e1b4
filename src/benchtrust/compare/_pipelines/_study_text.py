"""The words about the study harness (Bouthillier et al. 2021 §2-3): the readable summaries and verdicts of
a study's runs, of an estimator's estimate, of the variance by source and of the test set's variance, as
each result's ``describe()`` gives them to ``str(result)`` and its HTML section.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING

import numpy as np

from benchtrust._words import RHO, aligned, listed, paragraph
from benchtrust.compare._pipelines._text import PAPER

if TYPE_CHECKING:
    from benchtrust.compare import Estimate, Runs, SourceVariances, TestSetVariance

__all__ = [
    "estimate_rows",
    "estimate_text",
    "estimate_verdict",
    "runs_rows",
    "runs_text",
    "runs_verdict",
    "source_variances_rows",
    "source_variances_text",
    "source_variances_verdict",
    "test_set_variance_text",
    "test_set_variance_verdict",
]


def number_text(value: float, digits: int = 4) -> str:
    """`value` with `digits` significant digits, or ``undefined`` for nan."""
    return "undefined" if np.isnan(value) else f"{value:.{digits}g}"


def runs_verdict(runs: Runs) -> str:
    """A study's runs in plain words: how many, which sources were randomised, the scores' mean and spread.

    Parameters
    ----------
    runs : Runs

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    randomised = [s for s in runs.sources if s not in runs.fixed]
    scores = runs.scores
    text = f"{len(runs)} runs of the study, randomising {listed(randomised) if randomised else 'nothing'}"
    if runs.fixed:
        text += f" and holding {listed(runs.fixed)} fixed"
    text += f": mean score {scores.mean():.4g}"
    if len(runs) > 1:
        text += f", standard deviation {scores.std(ddof=1):.3g} between runs"
    return text + "."


def runs_text(runs: Runs) -> str:
    """The readable table of a study's runs (paper §2, C.1): each run's score, test size and
    hyperparameters, then the verdict.

    Parameters
    ----------
    runs : Runs

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    columns, rows = runs_rows(runs)
    lines = [f"runs of a study ({PAPER} §2, C.1), study seed {runs.seed}", *aligned([columns, *rows]), ""]
    lines.append(paragraph(runs_verdict(runs)))
    return "\n".join(lines)


def runs_rows(runs: Runs) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The header and rows of a study's runs: run, score, test size and each hyperparameter."""
    names = list(dict.fromkeys(name for row in runs for name in row.hyperparameters))

    def cell(value: object) -> str:
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            return f"{value:.4g}"
        return "" if value is None else str(value)

    rows = [
        (
            str(row.index),
            f"{row.score:.6g}",
            str(row.test_size),
            *(cell(row.hyperparameters.get(n)) for n in names),
        )
        for row in runs
    ]
    return ("run", "score", "test size", *names), rows


def estimate_verdict(estimate: Estimate) -> str:
    """An estimate of a pipeline's expected score in plain words (paper §3.2, Algorithms 1-2, Eq. 7).

    Parameters
    ----------
    estimate : Estimate

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    text = (
        f"{estimate.estimator} estimates the expected score at {estimate.mean:.4g} from k = {estimate.runs} "
        f"runs, which vary with a standard deviation of {estimate.std:.3g}"
    )
    if estimate.repetitions > 1:
        text += (
            f"; over {estimate.repetitions} repetitions the estimate itself varies with a standard deviation "
            f"of {number_text(estimate.std_of_mean, 3)} ({RHO} = {number_text(estimate.correlation, 3)} "
            f"between the runs of one repetition; Eq. 7 gives {number_text(estimate.std_of_mean_eq7, 3)})"
        )
    text += "."
    if estimate.fixed:
        text += f" Held fixed within a repetition: {listed(estimate.fixed)}."
    return text


def estimate_rows(estimate: Estimate) -> list[tuple[str, str]]:
    """The numbers of an estimate, as (name, value) rows."""
    rows = [
        ("runs k", f"{estimate.runs}"),
        ("repetitions", f"{estimate.repetitions}"),
        ("fixed sources", ", ".join(estimate.fixed) or "none"),
        ("mean of the first repetition", f"{estimate.mean:.6g}"),
        ("std of one run", f"{estimate.std:.4g}"),
    ]
    if estimate.repetitions > 1:
        rows += [
            ("std of the estimate", number_text(estimate.std_of_mean)),
            (f"correlation {RHO}", number_text(estimate.correlation)),
            ("std of the estimate, Eq. 7", number_text(estimate.std_of_mean_eq7)),
        ]
    return rows


def estimate_text(estimate: Estimate) -> str:
    """The readable summary of an estimate (paper §3.2, Algorithms 1-2): its numbers, then the verdict.

    Parameters
    ----------
    estimate : Estimate

    Returns
    -------
    str
        Lines without a trailing newline.

    Examples
    --------
    >>> from benchtrust.compare import Study, ideal_estimate
    >>> def fit_and_score(train, test, hyperparameters, seeds):
    ...     return 0.8 + np.random.default_rng(seeds["init"]).normal(0, 0.01)
    >>> study = Study(fit_and_score, data_size=50, sources=("split", "init"))
    >>> print(estimate_text(ideal_estimate(study, runs=20, seed=0)))
    IdealEst (Bouthillier et al. 2021 §3.2, Algorithms 1-2)
      runs k                        20
      repetitions                   1
      fixed sources                 none
      mean of the first repetition  0.79915
      std of one run                0.0107
    <BLANKLINE>
    IdealEst estimates the expected score at 0.7991 from k = 20 runs, which vary with a standard
    deviation of 0.0107.
    """
    lines = [f"{estimate.estimator} ({PAPER} §3.2, Algorithms 1-2)", *aligned(estimate_rows(estimate))]
    lines += ["", paragraph(estimate_verdict(estimate))]
    return "\n".join(lines)


def source_variances_verdict(result: SourceVariances) -> str:
    """Which source of variation moves the score most, in plain words (paper §2.2, Fig. 1).

    Parameters
    ----------
    result : SourceVariances

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    largest = result.largest
    if not largest:
        return "No source moves the score: randomised one at a time, none makes the scores vary."
    sd = float(np.sqrt(result.variances[largest[0]]))
    moves = "moves" if len(largest) == 1 else "each move"
    text = f"Randomised alone, {listed(largest)} {moves} the score most: a standard deviation of {sd:.3g}"
    if "split" not in largest:
        text += f", {result.fractions[largest[0]]:.3g} times the data split's variance"
    return text + ". The variances are not additive: the sources interact (§2.2)."


def source_variances_rows(result: SourceVariances) -> list[tuple[str, str, str, str]]:
    """(source, variance, standard deviation, fraction of the split's variance) rows."""
    return [
        (
            source,
            f"{variance:.4g}",
            f"{np.sqrt(variance):.4g}",
            number_text(result.fractions[source], 3),
        )
        for source, variance in result.variances.items()
    ]


def source_variances_text(result: SourceVariances) -> str:
    """The readable summary of the variance by source (paper §2.2, Fig. 1): a row per source, then the
    verdict.

    Parameters
    ----------
    result : SourceVariances

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    rows = [("source", "variance", "std", "fraction of split"), *source_variances_rows(result)]
    lines = [
        paragraph(
            f"variance of the score by source, each randomised alone over {result.runs} runs ({PAPER} "
            "§2.2, Fig. 1)"
        ),
        *aligned(rows),
        "  ('none': nothing randomised, numerical noise)",
        "",
        paragraph(source_variances_verdict(result)),
    ]
    return "\n".join(lines)


def test_set_variance_verdict(result: TestSetVariance) -> str:
    """The measured spread of the accuracy beside the binomial model's, in plain words (§2.2, Fig. 2).

    Parameters
    ----------
    result : TestSetVariance

    Returns
    -------
    str
        One unwrapped paragraph.
    """
    return (
        f"The measured standard deviation of the accuracy, {result.measured_std:.4g}, is "
        f"{number_text(result.ratio, 3)} times the binomial model's {result.binomial_std:.4g} (accuracy "
        f"{result.accuracy:.4g} on {result.test_size:.1f} test examples on average, {result.runs} runs); "
        "where the two agree, the variance of the data split is what a test set of this size gives (§2.2, "
        "Fig. 2)."
    )


def test_set_variance_text(result: TestSetVariance) -> str:
    """The readable summary of :func:`test_set_variance` (paper §2.2, Fig. 2).

    Parameters
    ----------
    result : TestSetVariance

    Returns
    -------
    str
        Lines without a trailing newline.
    """
    rows = [
        ("measured std", f"{result.measured_std:.4g}"),
        ("binomial std", f"{result.binomial_std:.4g}"),
        ("ratio", number_text(result.ratio, 3)),
        ("mean accuracy p", f"{result.accuracy:.4g}"),
        ("mean test size n'", f"{result.test_size:.1f}"),
        ("runs", f"{result.runs}"),
    ]
    lines = [f"test-set variance against the binomial model ({PAPER} §2.2, Fig. 2)", *aligned(rows)]
    lines += ["", paragraph(test_set_variance_verdict(result))]
    return "\n".join(lines)


# Not pytest tests despite their names, should a test module import them.
vars(test_set_variance_text)["__test__"] = vars(test_set_variance_verdict)["__test__"] = False
