"""The report config (``benchtrust report CONFIG.yaml``) takes, for each analysis, the keyword arguments of
its library function: one description serves Python and the config, and docs/report.md lists them."""

import re
from pathlib import Path

import pytest

from benchtrust import InputError
from benchtrust._report.analyses import ANALYSES, entry_keys
from benchtrust._report.config import read_config

PAGE = Path(__file__).resolve().parents[2] / "docs" / "report.md"


def documented():
    """analysis -> the key names the page's table shows for it (in backticks)."""
    rows = {}
    for line in PAGE.read_text("utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0].startswith("`") and cells[0].strip("`") in ANALYSES:
            names = re.findall(r"`([a-z_]+)`", cells[1] + " " + cells[2])
            rows[cells[0].strip("`")] = set(names) - {"stratified", "unknown"}
    return rows


def test_the_page_lists_every_analysis_with_the_keys_it_takes():
    rows = documented()
    assert set(rows) == set(ANALYSES)
    for analysis, names in rows.items():
        required, optional = entry_keys(analysis)
        assert names == set(required) | set(optional), analysis


@pytest.mark.parametrize("analysis", sorted(ANALYSES))
def test_a_key_of_the_library_function_is_a_key_of_the_entry(analysis, tmp_path):
    required, optional = entry_keys(analysis)
    assert not set(required) & set(optional)
    config = tmp_path / "config.yaml"
    entry = {key: 1 for key in required}
    config.write_text(f"analyses:\n  - {{analysis: {analysis}, {', '.join(f'{k}: 1' for k in entry)}}}\n")
    assert read_config(config)[1][0]["analysis"] == analysis
    config.write_text(f"analyses:\n  - {{analysis: {analysis}, no_such_key: 1}}\n")
    with pytest.raises(InputError, match="unknown key 'no_such_key'"):
        read_config(config)


def test_a_required_key_is_required(tmp_path):
    config = tmp_path / "config.yaml"
    config.write_text("analyses:\n  - {analysis: sota leaderboard, file: lb.csv}\n")
    with pytest.raises(InputError, match="the key 'test_size' is required"):
        read_config(config)
    # the direction is declared, never guessed (as in compare's entries): no default
    config.write_text("analyses:\n  - {analysis: sota leaderboard, file: lb.csv, test_size: 10}\n")
    with pytest.raises(
        InputError, match=r"config.yaml, analyses\[0\] \(sota leaderboard\): the key 'direction' is required$"
    ):
        read_config(config)


@pytest.mark.parametrize("analysis", sorted(ANALYSES))
def test_every_analysis_runs_a_public_function_and_draws_with_a_public_plot(analysis):
    """The table of analyses names only public functions: what the CLI and the report run is what a
    Python user can call."""
    import importlib

    spec = ANALYSES[analysis]
    for name in filter(None, (spec.function, spec.plot)):
        package, _, function = name.partition(":")
        assert function in importlib.import_module(f"benchtrust.{package}").__all__, name
