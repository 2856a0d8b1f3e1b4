"""``benchtrust report``: one HTML report of the analyses a YAML file lists (a section for each).

The config is read and run by :mod:`benchtrust._report.config`; ``benchtrust.cli`` registers
:func:`report_command` on the root app.
"""

import typer

from benchtrust._io import InputError
from benchtrust.cli._common import (
    _FORCE_OPTION,
    _check_report_path,
    _one_line_errors,
    _with_progress,
)


def report_command(
    config: str = typer.Argument(
        ..., metavar="CONFIG.yaml", help="The analyses to run: a YAML file (see docs/report.md)."
    ),
    out: str | None = typer.Option(
        None, "--out", metavar="FILE.html", help="The report to write: one self-contained HTML file."
    ),
    force: bool = _FORCE_OPTION,
) -> None:
    """Write one HTML report of the analyses a YAML file lists (a section for each).

    The config is trusted input: it names the files to read, and their rows appear in the page.
    """

    def command():
        if out is None:
            raise InputError("--out FILE.html is required (the report to write)")

        from benchtrust._report.config import config_files, run_config
        from benchtrust._report.html import write_report
        from benchtrust._write import protecting

        def run(progress):
            def step(k, total, analysis):  # the analyses done so far, and the one under way
                progress(k, total, f"running {analysis}")

            return run_config(config, progress=step)

        with protecting(config_files(config)):  # the report replaces none of the files the config names
            _check_report_path(out, "--out")
            title, sections = _with_progress("running the analyses", False, run)
            write_report(sections, out, title=title)
        count = "1 analysis" if len(sections) == 1 else f"{len(sections)} analyses"
        typer.echo(f"Report written to {out} ({count})")

    # Messages name the config's keys as written (test_size), not as options: no renaming here.
    _one_line_errors(command, rename_options=False)
