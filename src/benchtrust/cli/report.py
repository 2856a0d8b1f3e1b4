"""``benchtrust report``: one HTML report of the analyses a YAML file lists (a section for each).

The config is read and run by :mod:`benchtrust._report.config`; ``benchtrust.cli`` registers
:func:`report_command` on the root app.
"""

import typer

from benchtrust._io import InputError
from benchtrust.cli._common import INPUT_ERROR_EXIT_CODE, PROG, _check_report_path


def report_command(
    config: str = typer.Argument(
        ..., metavar="CONFIG.yaml", help="The analyses to run: a YAML file (see docs/report.md)."
    ),
    out: str | None = typer.Option(
        None, "--out", metavar="FILE.html", help="The report to write: one self-contained HTML file."
    ),
) -> None:
    """Write one HTML report of the analyses a YAML file lists (a section for each)."""
    try:
        if out is None:
            raise InputError("--out FILE.html is required (the report to write)")
        _check_report_path(out, "--out")

        import sys

        from benchtrust._report.config import run_config
        from benchtrust._report.html import write_report

        def step(k, total, analysis):
            typer.echo(f"[{k + 1}/{total}] {analysis}", err=True)

        title, sections = run_config(config, progress=step if sys.stderr.isatty() else None)
        write_report(sections, out, title=title)
        count = "1 analysis" if len(sections) == 1 else f"{len(sections)} analyses"
        typer.echo(f"Report written to {out} ({count})")
    except InputError as exc:
        # Messages name the config's keys as written (test_size), not as options: no renaming here.
        typer.echo(f"{PROG}: error: {' '.join(str(exc).split())}", err=True)
        raise typer.Exit(INPUT_ERROR_EXIT_CODE) from None
