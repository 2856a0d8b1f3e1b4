"""docs/ pages show real output: their ``$ benchtrust multiverse example`` block is run and compared."""

import re
from pathlib import Path

from typer.testing import CliRunner

from benchtrust import cli

DOCS = Path(__file__).resolve().parents[1] / "docs"


def test_multiverse_example_prints_what_the_page_shows(tmp_path, monkeypatch):
    page = (DOCS / "multiverse.md").read_text("utf-8")
    blocks = re.findall(r"```console\n\$ (benchtrust multiverse example [^\n]*)\n(.*?)```", page, re.S)
    assert len(blocks) == 1, "docs/multiverse.md lost its worked example"
    command, expected = blocks[0]
    monkeypatch.chdir(tmp_path)  # --out is relative to the current folder
    result = CliRunner().invoke(cli.app, command.split()[1:], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert result.output == expected
