"""The HTML report (``benchtrust._report``): one self-contained page, strings from user files escaped, plots
inlined as SVG, no JavaScript, no external URL, written atomically."""

import re

import pytest
from markupsafe import escape
from typer.testing import CliRunner

from benchtrust import cli
from benchtrust._html import Section, section_html, svg_of
from benchtrust._report.html import render, write_report
from benchtrust.sota import leaderboard

HOSTILE = ["<script>alert(1)</script>", '"quoted"', "&amp;", "Ben & Jerry's"]
ESCAPED = ["&lt;script&gt;alert(1)&lt;/script&gt;", "&#34;quoted&#34;", "&amp;amp;", "Ben &amp; Jerry&#39;s"]


def self_contained(page: str) -> None:
    """No script, no external URL, no namespace or resource the page would fetch."""
    lowered = page.lower()
    assert "<script" not in lowered
    assert "http://" not in lowered and "https://" not in lowered
    assert 'src="' not in lowered and "@import" not in lowered
    assert "javascript:" not in lowered and " on" + "load=" not in lowered


def best_of_svg(title):
    from benchtrust.sota import best_of, plot_best_of

    result = best_of(0.9, test_size=300, classifiers=10)
    return svg_of(plot_best_of(result, title=title))


def test_render_escapes_every_string():
    section = Section(
        title=HOSTILE[0],
        verdict=HOSTILE[3],
        columns=("team", "score"),
        rows=tuple((name, "0.9") for name in HOSTILE),
        assumptions=(("file", HOSTILE[1]),),
        source="paper §1",
        inputs=(HOSTILE[2],),
        analysis="sota leaderboard",
        tables=(("top", ("team",), ((HOSTILE[0],),)),),
        notes=(HOSTILE[3],),
    )
    page = render([section], title=HOSTILE[0])
    self_contained(page)
    for text in ESCAPED:
        assert text in page
    assert '<section class="analysis" id="s1-sota-leaderboard">' in page
    assert '<a href="#s1-sota-leaderboard">' in page  # the table of contents


def test_a_notebook_shows_the_section_the_report_shows():
    section = Section(
        title=HOSTILE[0],
        verdict=HOSTILE[3],
        columns=("team", "score"),
        rows=tuple((name, "0.9") for name in HOSTILE),
        assumptions=(("file", HOSTILE[1]),),
        inputs=(HOSTILE[2],),
        analysis="sota leaderboard",
        notes=(HOSTILE[3],),
    )
    fragment = section_html(section)
    self_contained(fragment)
    assert fragment.startswith('<div class="benchtrust">') and fragment.rstrip().endswith("</div>")
    for text in ESCAPED:
        assert text in fragment
    assert '<section class="analysis">' in fragment  # no anchor, no number: it stands alone
    assert '<p class="kind">benchtrust sota leaderboard</p>' in fragment
    page = render([section])
    body = fragment[fragment.index("<section") : fragment.index("</section>")]
    assert body.replace('<section class="analysis">', "") in page.replace(
        '<section class="analysis" id="s1-sota-leaderboard">', ""
    ).replace("1. benchtrust", "benchtrust")


def test_figures_in_a_notebook_keep_their_ids_apart_and_the_same_on_every_run():
    one, other = best_of_svg("one"), best_of_svg("other")
    assert one == best_of_svg("one"), "the same figure gives the same SVG"
    shown = section_html(Section(title="q", verdict="v", figure_svg=one)) + section_html(
        Section(title="r", verdict="w", figure_svg=other)
    )
    ids = re.findall(r'\bid="([^"]+)"', shown)
    assert ids and len(ids) == len(set(ids)), "two results in one notebook must not share an id"


def test_svg_is_inlined_and_its_text_escaped():
    svg = best_of_svg("<script>alert(1)</script> & \"q\" 'a'")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<?xml" not in svg and "<!DOCTYPE" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in svg
    page = render(
        [Section(title="q", verdict="v", figure_svg=svg), Section(title="r", verdict="w", figure_svg=svg)]
    )
    self_contained(page)
    assert page.count("<figure>") == 2 and page.count("<svg") == 2
    ids = re.findall(r'\bid="([^"]+)"', page)
    assert len(ids) == len(set(ids)), "figures on one page must not share an id"


def test_write_report_is_atomic_and_complete(tmp_path):
    target = tmp_path / "report.html"
    written = write_report([Section(title="q", verdict="v")], target, title="t")
    assert written == target
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_write_report_leaves_the_old_file_on_error(tmp_path):
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(TypeError):
        write_report([Section(title="q", verdict="v"), "not a section"], target)
    assert target.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


@pytest.fixture
def hostile_board(tmp_path):
    lines = ["TeamName,Score"]
    lines.append('"<script>alert(1)</script>",0.95')
    lines.append('"""quoted""",0.94')
    lines.append("&amp;,0.93")
    lines.append("Ben & Jerry's,0.92")
    lines += [f"team {k},{0.70 + k / 1000:.3f}" for k in range(40)]
    path = tmp_path / "board.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_top_teams_reads_the_names(hostile_board):
    board = leaderboard(hostile_board, test_size=1000, direction="higher", correlation=0)
    assert list(board.top_teams[:4]) == [(name, f"0.9{5 - k}") for k, name in enumerate(HOSTILE)]


def test_leaderboard_report_shows_hostile_team_names_as_text(hostile_board, tmp_path):
    out = tmp_path / "out.html"
    board = ["sota", "leaderboard", str(hostile_board), "--test-size", "500", "--direction", "higher"]
    result = CliRunner().invoke(cli.app, [*board, "--report", str(out)])
    assert result.exit_code == 0, result.stderr
    assert f"report written to {out}" in result.stdout
    page = out.read_text(encoding="utf-8")
    self_contained(page)
    for text in ESCAPED:
        assert text in page
    for text in (HOSTILE[0], HOSTILE[1], HOSTILE[3]):  # HOSTILE[2], "&amp;", shows as &amp;amp;
        assert text not in page
    assert page.count('<section class="analysis"') == 1
    assert page.count("<svg") == 1
    assert "Top of the board" in page


def test_a_result_in_a_notebook_shows_its_report_section():
    """The HTML a notebook shows for a result is the section the report lays out for it, by one builder."""
    from benchtrust.compare import (
        ErrorRatesResult,
        HistoryResult,
        OutperformResult,
        error_rates,
        history,
        probability_of_outperforming,
    )
    from benchtrust.consistency import MulticlassResult, TestSetResult, check_multiclass, check_test_set

    shown = [
        (check_test_set({"acc": "0.6821"}, positives=1000, negatives=6000), TestSetResult.section),
        (
            check_multiclass({"acc": "0.8"}, class_counts=[50, 30, 20], average="micro"),
            MulticlassResult.section,
        ),
        (
            probability_of_outperforming([0.9, 0.92, 0.93], [0.89, 0.9, 0.91], names=("<a>", "b")),
            OutperformResult.section,
        ),
        (
            error_rates(0.01, runs=5, simulations=60, probabilities=[0.4, 0.9], seed=1),
            ErrorRatesResult.section,
        ),
        (history([2019, 2020, 2021], [0.8, 0.85, 0.851], test_size=1000), HistoryResult.section),
    ]
    built = [builder(result) for result, builder in shown]
    page = render(built)
    self_contained(page)
    assert page.count('<section class="analysis"') == len(built)
    assert page.count("<svg") == 2
    assert "&lt;a&gt;" in page
    for (result, _), section in zip(shown, built, strict=True):
        notebook = result._repr_html_()
        self_contained(notebook)
        assert notebook == section_html(section)
        assert str(escape(section.verdict)) in page


def test_the_docs_and_the_help_say_a_config_is_trusted_input():
    """A config names files to read, and their rows appear in the page: docs/report.md and
    ``benchtrust report --help`` say so (issue 19, §7)."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "report.md").read_text(encoding="utf-8")
    section = page.split("### A config is trusted input", 1)[1].split("\n#", 1)[0]
    assert "names the files to read" in section and "appear in the page" in section
    shown = CliRunner().invoke(cli.app, ["report", "--help"], env={"COLUMNS": "200", "TERMINAL_WIDTH": "200"})
    assert "The config is trusted input: it names the files to read, and their rows appear in the page." in (
        " ".join(shown.stdout.split())
    )
