"""The documentation site (``make docs``): built with every warning an error, a page for every public name.

Sphinx builds ``docs/`` (conf.py: the guide pages and the notebook through myst-nb, the API reference from
the numpydoc docstrings through autosummary, the command line from its commands) into a temporary folder,
as ``make docs`` does, with ``-W`` (warnings are errors) and ``-n`` in conf.py (every cross-reference to
a public name resolves). Then every name of the five ``__all__`` lists has its page, every command its
section, and the guide pages and the notebook, with its figures, are in the site.
"""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

import benchtrust
import benchtrust.cli

DOCS = Path(__file__).resolve().parents[1] / "docs"
NAMESPACES = (
    "benchtrust",
    "benchtrust.sota",
    "benchtrust.consistency",
    "benchtrust.compare",
    "benchtrust.multiverse",
)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    command = [
        sys.executable,
        "-m",
        "sphinx",
        "-W",
        "--keep-going",
        "-E",
        "-q",
        "-b",
        "html",
        str(DOCS),
        str(out),
    ]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr.strip(), done.stderr
    return out


def public_names():
    return [
        (space, name)
        for space in NAMESPACES
        for name in importlib.import_module(space).__all__
        if name != "__version__"
    ]


def commands(command, path):
    yield path
    for name, sub in getattr(command, "commands", {}).items():
        yield from commands(sub, [*path, name])


def test_every_public_name_has_a_page(site):
    missing = [
        f"{space}.{name}"
        for space, name in public_names()
        if not (site / "api" / "generated" / f"{space}.{name}.html").exists()
    ]
    assert not missing, f"no page in the API reference for {missing}"
    assert len(public_names()) > 150


def test_every_command_has_a_section(site):
    page = (site / "cli.html").read_text("utf-8")
    tree = typer.main.get_command(benchtrust.cli.app)
    missing = [
        " ".join(path) for path in commands(tree, []) if path and f'id="cli-{"-".join(path)}"' not in page
    ]
    assert not missing, f"no section in the command line reference for {missing}"


def test_the_guide_and_the_notebook_are_in_the_site(site):
    for page in ("index", "sota", "consistency", "compare", "multiverse", "report", "comparison", "layout"):
        assert (site / f"{page}.html").exists(), page
    notebook = (site / "benchtrust.html").read_text("utf-8")
    assert "<img" in notebook  # its figures, as stored in the notebook
    assert benchtrust.__version__ in (site / "index.html").read_text("utf-8")


def test_cross_references_resolve_to_pages(site):
    page = (site / "api" / "generated" / "benchtrust.sota.best_of.html").read_text("utf-8")
    assert 'href="benchtrust.sota.simulate_best_of.html' in page  # See Also
    assert 'href="benchtrust.sota.BestOfResult.html' in page  # Returns


def test_each_command_links_the_function_it_runs(site):
    page = (site / "cli.html").read_text("utf-8")
    assert 'href="api/generated/benchtrust.sota.leaderboard.html' in page
    assert 'href="api/generated/benchtrust.consistency.check_kfold.html' in page


def test_each_function_links_its_command(site):
    page = (site / "api" / "generated" / "benchtrust.sota.best_of.html").read_text("utf-8")
    assert 'href="../../cli.html#cli-sota-best-of"' in page
