"""``benchtrust consistency protocols``: under which evaluation protocol could these scores have come out?

The command parses its options into the arguments of :func:`benchtrust.consistency.check_protocols` (every
combination of the chosen regions, aggregations, foldings and rounding rules, each checked by the
one-test-set or k-fold check), runs it as the analysis ``consistency protocols`` of the table
(:mod:`benchtrust._report.analyses`), and prints the table of protocols and the conclusion (its text, or
``--json``), with an optional HTML report. It joins the group of :mod:`benchtrust.cli.consistency`.
"""

import typer

from benchtrust.cli._common import (
    _FORCE_OPTION,
    _JSON_OPTION,
    _REPORT_OPTION,
    _count,
    _one_line_errors,
    run_analysis_command,
    typed_option,
)
from benchtrust.cli.consistency import (
    _BETA_OPTION,
    _DATASET_HELP,
    _EPS_OPTION,
    _SCORE_OPTION,
    _counts_or_dataset,
    _options_named,
    _scores,
    consistency_app,
)


def _family_option(family: str, values: str, what: str):
    return typer.Option(
        None, f"--{family}", metavar=values, help=f"{what} Default: every value that applies."
    )


def _values(text: str) -> list[str]:
    """The comma-separated values of a ``--FAMILY`` option (checked by the library, which names them)."""
    return [part.strip().lower() for part in text.split(",")]


@consistency_app.command("protocols")
def protocols_command(
    dataset: str | None = typer.Option(
        None, "--dataset", metavar="NAME", help=_DATASET_HELP + "; its fov/all siblings are the regions."
    ),
    positives: int | None = typed_option(
        None, "--positives", metavar="P", parse=_count, help="p, instead of --dataset."
    ),
    negatives: int | None = typed_option(
        None, "--negatives", metavar="N", parse=_count, help="n, instead of --dataset."
    ),
    folds: int | None = typed_option(
        None,
        "--folds",
        metavar="K",
        parse=_count,
        help="k, the folds one test set was cut into (mean or score of means).",
    ),
    scores: list[str] | None = _SCORE_OPTION,
    region: str | None = _family_option(
        "region", "fov,all", "Pixels in the field of view, all pixels (a named retinal set)."
    ),
    aggregation: str | None = _family_option(
        "aggregation",
        "mean_of_scores,pooled,score_of_means",
        "Mean of per-image (per-fold) scores, one test set of the pooled counts, score of means (the "
        "paper's mos, som).",
    ),
    folding: str | None = _family_option(
        "folding", "stratified,unknown", "The folds' class counts, for the mean of scores over --folds."
    ),
    rounding: str | None = _family_option(
        "rounding", "round,floor-or-ceil", "How the scores were cut to their decimals (ε ½·10^-d or 10^-d)."
    ),
    eps: float | None = _EPS_OPTION,
    beta: float | None = _BETA_OPTION,
    json_output: bool = _JSON_OPTION,
    report: str | None = _REPORT_OPTION,
    force: bool = _FORCE_OPTION,
) -> None:
    """Which evaluation protocols could give the scores? Each candidate checked (paper §3-4, §5.1)"""

    def command():
        reported = _scores(scores)
        _counts_or_dataset(positives, negatives, dataset)
        chosen = {"region": region, "aggregation": aggregation, "folding": folding, "rounding": rounding}
        arguments = {
            "scores": reported,
            "dataset": dataset,
            "positives": positives,
            "negatives": negatives,
            "folds": folds,
            "candidates": {family: _values(text) for family, text in chosen.items() if text is not None},
            "eps": eps,
            "beta": beta,
        }
        with _options_named("consistency protocols"):
            run_analysis_command(
                "consistency protocols",
                arguments,
                json_output=json_output,
                label="checking every protocol",
                report=report,
            )

    _one_line_errors(command)
