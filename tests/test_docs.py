"""docs/ pages show real output: every example they show is run here and compared with the page, exactly.

In every ``docs/*.md`` page (``report.md``'s example config is run by its own test, at the end):

* a ```` ```console ```` block whose first line starts with ``$ benchtrust`` is a terminal session: each
  ``$ benchtrust ...`` line is run through typer's ``CliRunner`` (100 columns) in a fresh folder, and its
  output must be the lines that follow it, up to the next ``$`` line (the blank line before that one
  separates the commands and is not output). The bundled data files are copied to the path the pages use
  from the repository's root, ``src/benchtrust/data/``;
* a ```` ```python ```` block followed by a ```` ```text ```` block (only blank lines between) is executed,
  and what it prints must be the text block. The python blocks of a page share one namespace, in page order;
* the ```` ```pycon ```` blocks of a page are one doctest session.

A command's input files come from the page itself: a fenced block whose info string names a file, such as
```` ```csv file=claims.csv ````, is written to that file before the page's commands run. Files a page
shows only in part are made here (``GENERATED``). Illustrative commands with placeholder files belong in
```` ```sh ```` blocks, which are not run.
"""

import contextlib
import doctest
import io
import itertools
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benchtrust import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
DATA = ROOT / "src" / "benchtrust" / "data"
SKIPPED = {"report.md"}  # its example is a config file: test_report_page_config_runs
PAGES = sorted(path.name for path in DOCS.glob("*.md") if path.name not in SKIPPED)

#: A fenced block: its info string and its body (fences of three backticks, at the start of a line).
FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.S | re.M)


def fences(page):
    """(info string, body, text before the block since the previous block) of every fenced block."""
    text = (DOCS / page).read_text("utf-8")
    found, end = [], 0
    for match in FENCE.finditer(text):
        found.append((match.group(1).strip(), match.group(2), text[end : match.start()]))
        end = match.end()
    return found


def page_files(page):
    """{file name: content} of the blocks whose info string says ``file=NAME``."""
    files = {}
    for info, body, _ in fences(page):
        named = re.search(r"\bfile=(\S+)", info)
        if named:
            files[named.group(1)] = body
    return files


def sessions():
    """(page, command, expected output) of every ``$ benchtrust`` line of every console block."""
    found = []
    for page in PAGES:
        for info, body, _ in fences(page):
            if info != "console" or not body.startswith("$ benchtrust"):
                continue
            pieces = re.split(r"^\$ ", body, flags=re.M)[1:]
            for i, piece in enumerate(pieces):
                command, _, output = piece.partition("\n")
                if i < len(pieces) - 1:
                    assert output.endswith("\n\n") or output == "", f"{page}: no blank line before the next $"
                    output = output[:-1]
                found.append((page, command, output))
    return found


def python_blocks():
    """(page, index, code, expected output) of every python block followed by a text block."""
    found = []
    for page in PAGES:
        blocks = fences(page)
        for i, ((info, code, _), (next_info, expected, between)) in enumerate(itertools.pairwise(blocks)):
            if info == "python" and next_info == "text" and not between.strip():
                found.append((page, i, code, expected))
    return found


def pycon_pages():
    return [page for page in PAGES if any(info == "pycon" for info, _, _ in fences(page))]


def _runs_csv(namespace):
    """compare.md's runs.csv, which the page shows in part: the runs of its worked example, one per row."""
    result = namespace["result"]
    rows = ["algorithm,run,score"]
    for run, (a, b) in enumerate(zip(result.scores_a, result.scores_b, strict=True)):
        rows += [f"logistic,{run},{a!r}", f"forest,{run},{b!r}"]
    return "\n".join(rows) + "\n"


#: Files a page's commands read that the page shows only in part: page -> {file: make(namespace)}, made
#: from the namespace of the page's python blocks.
GENERATED = {"compare.md": {"runs.csv": _runs_csv}}

SESSIONS = sessions()
PYTHON = python_blocks()


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """page -> (namespace, [what each python block printed]): a page's python blocks run once, in order."""
    done = {}

    def run(page):
        if page not in done:
            namespace, printed = {"__name__": "__docs__"}, []
            for _, _, code, _ in [block for block in PYTHON if block[0] == page]:
                out, before = io.StringIO(), os.getcwd()
                os.chdir(tmp_path_factory.mktemp("python"))  # a block may write files
                try:
                    with contextlib.redirect_stdout(out):
                        exec(compile(code, f"docs/{page}", "exec"), namespace)
                finally:
                    os.chdir(before)
                printed.append(out.getvalue())
            done[page] = namespace, printed
        return done[page]

    return run


def test_pages_have_examples():
    pages = {page for page, _, _ in SESSIONS}
    assert {"sota.md", "consistency.md", "compare.md", "multiverse.md"} <= pages, "a page lost its examples"
    assert {page for page, _, _, _ in PYTHON} >= {"sota.md", "compare.md"}


def test_index_links_every_page():
    index = (DOCS / "README.md").read_text("utf-8")
    linked = set(re.findall(r"\]\(([^)#]+)[^)]*\)", index))
    missing = [page for page in PAGES if page != "README.md" and page not in linked]
    assert not missing, f"docs/README.md does not link {missing}"
    for target in linked:
        if "://" not in target:
            assert (DOCS / target).exists(), f"docs/README.md links {target}, which does not exist"


@pytest.mark.parametrize(
    ("page", "command", "expected"), SESSIONS, ids=[f"{p}: {c[:70]}" for p, c, _ in SESSIONS]
)
def test_command_prints_what_the_page_shows(page, command, expected, executed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # --out and --plot write relative to the current folder
    shutil.copytree(DATA, tmp_path / "src" / "benchtrust" / "data")
    for name, content in page_files(page).items():
        (tmp_path / name).write_text(content, "utf-8")
    for name, make in GENERATED.get(page, {}).items():
        if name in command.split():
            (tmp_path / name).write_text(make(executed(page)[0]), "utf-8")
    arguments = shlex.split(command)
    assert arguments[0] == "benchtrust"
    result = CliRunner().invoke(cli.app, arguments[1:], env={"COLUMNS": "100"})
    assert result.exit_code == 0, result.output
    assert result.output == expected


@pytest.mark.parametrize(
    ("page", "index", "code", "expected"), PYTHON, ids=[f"{p}: block {i}" for p, i, _, _ in PYTHON]
)
def test_python_example_prints_what_the_page_shows(page, index, code, expected, executed):
    position = [i for p, i, _, _ in PYTHON if p == page].index(index)
    assert executed(page)[1][position] == expected


@pytest.mark.parametrize("page", pycon_pages())
def test_pycon_examples_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocks = [body for info, body, _ in fences(page) if info == "pycon"]
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, page, str(DOCS / page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert test.examples


def test_report_page_config_runs(tmp_path, monkeypatch):
    """docs/report.md: its example config, with the files it names, gives one section per analysis."""
    blocks = [body for info, body, _ in fences("report.md") if info == "yaml"]
    assert len(blocks) == 1, "docs/report.md lost its example config"
    (tmp_path / "audit.yaml").write_text(blocks[0], encoding="utf-8")
    shutil.copy(DATA / "titanic-2019-11-22.csv", tmp_path / "titanic.csv")
    runs = ["algorithm,seed,score"]
    runs += [f"lr,{seed},{0.90 + 0.004 * (seed % 3):.3f}" for seed in range(1, 11)]
    runs += [f"rf,{seed},{0.89 + 0.005 * (seed % 4):.3f}" for seed in range(1, 11)]
    (tmp_path / "runs.csv").write_text("\n".join(runs) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    command = next(body for info, body, _ in fences("report.md") if info == "sh").split()
    assert command[:2] == ["benchtrust", "report"]
    result = CliRunner().invoke(cli.app, command[1:])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "audit.html").read_text(encoding="utf-8")
    assert page.count('<section class="analysis"') == 4
