"""What to cite (issue 34, items 2 and 4): every analysis has its papers in ``benchtrust._citations``, every
entry is BibTeX, ``benchtrust cite`` prints them, ``benchtrust --version`` the version, and every result's
``to_dict()`` (so ``--json``) and report section carry both."""

import json
import re
from pathlib import Path
from unittest.mock import ANY

import pytest
import typer
from typer.testing import CliRunner

import benchtrust
from benchtrust import cli
from benchtrust._citations import (
    ANALYSIS_PAPERS,
    BIBTEX,
    SEED_PAPERS,
    _covers,
    analyses_of,
    citations,
    command_citations,
)
from benchtrust._report.html import render
from benchtrust.multiverse import _text as multiverse_text

SRC = Path(__file__).resolve().parents[1] / "src" / "benchtrust"
#: The values an f-string ``analysis=`` of the code base takes, by its placeholder.
PLACEHOLDERS = {
    "self.test": ("wilcoxon signed-rank", "friedman"),
    "self.criterion": ("single point", "average difference", "paired t-test", "Welch t-test"),
    "self.estimator": ("IdealEst", "FixHOptEst(init)", "FixHOptEst(data)", "FixHOptEst(all)"),
}
ENTRY = re.compile(r"@(\w+)\{([\w-]+),\n((?:  \w+ = \{.*?\},?\n)+)\}\Z", re.S)


def code_analyses():
    """Every ``analysis`` a Description of the code base names, f-strings expanded."""
    found = set()
    for path in SRC.rglob("*.py"):
        for text in re.findall(r'\banalysis=(f?"[^"]*"|_text\.ANALYSIS)', path.read_text("utf-8")):
            if text == "_text.ANALYSIS":
                found.add(multiverse_text.ANALYSIS)
            elif text.startswith("f"):
                (placeholder,) = re.findall(r"\{([^}]*)\}", text)
                assert placeholder in PLACEHOLDERS, f"{path.name}: a new f-string analysis {text}"
                found |= {re.sub(r"\{[^}]*\}", value, text[2:-1]) for value in PLACEHOLDERS[placeholder]}
            else:
                found.add(text[1:-1])
    return found


def test_every_analysis_of_the_code_base_has_its_papers_and_every_row_an_analysis():
    analyses = code_analyses()
    assert len(analyses) > 40
    missing = sorted(a for a in analyses if not any(_covers(name, a) for name in ANALYSIS_PAPERS))
    assert not missing, f"no row in benchtrust._citations.ANALYSIS_PAPERS for {missing}"
    stale = sorted(name for name in ANALYSIS_PAPERS if not any(_covers(name, a) for a in analyses))
    assert not stale, f"rows of no analysis: {stale}"
    for analysis in analyses:
        keys = [re.match(r"@\w+\{([\w-]+),", entry)[1] for entry in citations(analysis)]
        assert keys[:2] == ["benchtrust", SEED_PAPERS[analysis.split()[0]]]


@pytest.mark.parametrize("key", list(BIBTEX))
def test_every_entry_is_bibtex_with_author_title_and_year(key):
    entry = BIBTEX[key]
    match = ENTRY.match(re.sub(r"\n    ", " ", entry))  # continuation lines joined
    assert match, entry
    assert match[2] == key
    fields = dict(re.findall(r"^  (\w+) = \{(.*?)\},?$", match[3], flags=re.M))
    assert {"author", "title", "year"} <= set(fields), key
    assert re.fullmatch(r"(19|20)\d\d", fields["year"])
    assert entry.count("{") == entry.count("}")
    assert "http" not in entry  # a report shows them: no external URL


def test_every_paper_the_registry_names_has_its_entry():
    named = set(SEED_PAPERS.values()) | {key for keys in ANALYSIS_PAPERS.values() for key in keys}
    assert named <= set(BIBTEX)
    assert set(BIBTEX) == named | {"benchtrust"}, "entries no analysis cites"


def test_an_unregistered_analysis_cites_benchtrust_and_its_group_s_paper():
    assert citations("") == (BIBTEX["benchtrust"],)
    assert citations("compare sign") == (BIBTEX["benchtrust"], BIBTEX["bouthillier2021variance"])
    assert analyses_of("compare bayes") == [
        "compare bayes (signed-rank test)",
        "compare bayes (correlated t-test)",
    ]


def invoke(*args):
    return CliRunner().invoke(cli.app, list(args))


def keys_of(text):
    return re.findall(r"^@\w+\{([\w-]+),$", text, flags=re.M)


def test_cite_prints_benchtrust_and_the_papers_of_a_command():
    alone = invoke("cite")
    assert alone.exit_code == 0, alone.stderr
    assert keys_of(alone.stdout) == ["benchtrust", *SEED_PAPERS.values()]
    leaderboard = invoke("cite", "sota", "leaderboard")
    assert keys_of(leaderboard.stdout) == ["benchtrust", "moellersen2023multiplicity", "clopper1934"]
    assert leaderboard.stdout == "\n\n".join(command_citations("sota leaderboard")) + "\n"
    bayes = invoke("cite", "compare", "bayes")  # both Bayesian tests
    assert keys_of(bayes.stdout) == [
        "benchtrust",
        "bouthillier2021variance",
        "benavoli2017timeforachange",
        "nadeau2003",
    ]


def command_paths(group, prefix=()):
    for name, sub in group.commands.items():
        if hasattr(sub, "commands"):
            yield from command_paths(sub, (*prefix, name))
        else:
            yield (*prefix, name)


@pytest.mark.parametrize("path", list(command_paths(typer.main.get_command(cli.app))), ids=" ".join)
def test_cite_knows_every_command(path):
    result = invoke("cite", *path)
    assert result.exit_code == 0, result.stderr
    assert keys_of(result.stdout)[0] == "benchtrust"


def test_cite_of_an_unknown_command_is_one_line_and_exit_code_2():
    result = invoke("cite", "sota", "frobnicate")
    assert result.exit_code == 2
    assert result.stdout == ""
    line = "benchtrust: error: cite: unknown command 'sota frobnicate' (see 'benchtrust --help')\n"
    assert result.stderr == line


def test_version_is_one_source():
    result = invoke("--version")
    assert (result.exit_code, result.stdout) == (0, f"benchtrust {benchtrust.__version__}\n")
    pyproject = (SRC.parents[1] / "pyproject.toml").read_text("utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = { attr = "benchtrust.__version__" }' in pyproject
    changelog = (SRC.parents[1] / "CHANGELOG.md").read_text("utf-8")
    assert f"## [{benchtrust.__version__}] - " in changelog
    cff = (SRC.parents[1] / "CITATION.cff").read_text("utf-8")
    assert f"\nversion: {benchtrust.__version__}\n" in cff


def test_json_carries_the_citations_and_the_version_and_the_report_shows_them(tmp_path):
    shown = invoke("compare", "sample-size", "--json", "--report", str(tmp_path / "r.html"))
    assert shown.exit_code == 0, shown.stderr
    data = json.loads(shown.stdout)
    assert data["benchtrust_version"] == benchtrust.__version__
    assert data["cite"] == list(citations("compare sample-size"))
    assert keys_of("\n".join(data["cite"])) == ["benchtrust", "bouthillier2021variance", "noether1987"]
    page = (tmp_path / "r.html").read_text("utf-8")
    assert f"<footer><p>benchtrust {benchtrust.__version__}." in page
    assert '<details class="cite"><summary>Cite (BibTeX)</summary>' in page
    assert "@article{noether1987," in page


#: Results with a to_dict() of their own: BestOfResult's takes ``distribution=`` and starts from
#: Result.to_dict() (checked below).
OWN_TO_DICT = {"BestOfResult"}


def test_every_result_s_to_dict_says_what_to_cite_and_which_version_made_it():
    import importlib

    from benchtrust._result import Result

    for name in SEED_PAPERS:
        importlib.import_module(f"benchtrust.{name}")
    kinds, pending = [Result], set()
    while kinds:
        kind = kinds.pop()
        kinds.extend(kind.__subclasses__())
        if kind.to_dict is not Result.to_dict:
            pending.add(kind.__name__)
    assert pending == OWN_TO_DICT
    from benchtrust.sota import best_of

    for data in (best_of(0.9, classifiers=10, test_size=100).to_dict(distribution=flag) for flag in (0, 1)):
        assert data["cite"] == list(citations("sota best-of"))
        assert data["benchtrust_version"] == benchtrust.__version__


def test_a_result_within_another_s_data_says_neither_and_a_listing_says_the_version():
    from benchtrust._result import plain_data
    from benchtrust.compare import runs_needed

    result = runs_needed(0.6)
    assert {**plain_data(result), "cite": ANY, "benchtrust_version": ANY} == result.to_dict()
    assert not {"cite", "benchtrust_version"} & set(plain_data(result))
    listed = invoke("consistency", "datasets", "drive", "--json")
    assert json.loads(listed.stdout)["benchtrust_version"] == benchtrust.__version__


def test_a_report_section_shows_its_citations_as_text():
    from benchtrust.compare import runs_needed

    section = runs_needed(0.6).section()
    assert section.cite == citations("compare sample-size")
    page = render([section])
    assert "Ga{\\&#34;e}l Varoquaux" in page  # BibTeX's accent, escaped as text
    assert "https://" not in page
