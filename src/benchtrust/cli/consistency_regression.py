"""``benchtrust consistency regression``: could reported MSE, RMSE, MAE and R² come from one regression?

The command parses its options into the arguments of :func:`benchtrust.consistency.check_regression`, runs
it as the analysis ``consistency regression`` of the table (:mod:`benchtrust._report.analyses`), and
prints the result (its text, or ``--json``), with an optional HTML report. It joins the group of
:mod:`benchtrust.cli.consistency`.
"""

import typer

from benchtrust._io import InputError
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _check_report_path,
    _count,
    _number,
    _one_line_errors,
    show_result,
    typed_option,
)
from benchtrust.cli.consistency import (
    _EPS_OPTION,
    _ROUNDING_OPTION,
    _analysis,
    consistency_app,
)


def _as_typed_number(text: str, option: str) -> str:
    """`text`, a number, as typed (its decimals count)."""
    _number(text, option)
    return text


def _regression_scores(score_texts) -> dict:
    """The ``--score NAME=VALUE`` options as name -> text as typed (its decimals kept), each checked."""
    from benchtrust.consistency import check_regression

    if not score_texts:
        raise InputError("give the reported scores: --score NAME=VALUE for each, such as --score mse=0.0123")
    scores: dict[str, str] = {}
    seen: dict[str, str] = {}  # a score's name as check_regression reads it -> its name as given
    for text in score_texts:
        name, equals, value = (part.strip() for part in text.partition("="))
        if not (equals and name and value):
            raise InputError(f"--score: expected NAME=VALUE, such as mse=0.0123, got {text!r}")
        _number(value, f"--score {name}")
        try:  # the score alone: its name as check_regression reads it (mse, rmse, mae, r2)
            found = check_regression({name: value}, size=1).scores[0].score
        except InputError as exc:
            raise InputError(f"--score {text}: {exc}") from None
        if found in seen:
            raise InputError(f"--score {text}: {name} is the same score as {seen[found]} ({found})")
        seen[found] = name
        scores[name] = value
    return scores


@consistency_app.command("regression")
def regression_command(
    size: int | None = typed_option(
        None, "--size", metavar="N", parse=_count, help="n, the items in the test set."
    ),
    variance: str | None = typed_option(
        None,
        "--variance",
        metavar="V",
        parse=_as_typed_number,
        help="Var(y), the population variance of the targets, as printed (relates R² to the others).",
    ),
    scores: list[str] | None = typer.Option(
        None,
        "--score",
        metavar="NAME=VALUE",
        help="A reported score (mse, rmse, mae, r2), as printed (e.g. mse=0.0120: 4 decimals); repeat.",
    ),
    eps: float | None = _EPS_OPTION,
    rounding: str = _ROUNDING_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Could reported MSE, RMSE, MAE and R² come from one regression of n items?"""

    def command():
        if size is None:
            raise InputError("--size is required (n, the items in the test set)")
        arguments = {
            "scores": _regression_scores(scores),
            "size": size,
            "target_variance": variance,
            "eps": eps,
            "rounding": rounding,
        }
        if report is not None:
            _check_report_path(report)
        show_result(_analysis("consistency regression", arguments), json_output=json_output, report=report)

    _one_line_errors(command)
