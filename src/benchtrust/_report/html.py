"""The HTML report: one self-contained page with a section per analysis (question, verdict, numbers, plot,
assumptions, paper section).

The page is rendered from the Jinja2 template ``templates/report.html.j2`` with autoescaping on, so every
string that came from a user file (team, method or file names) is shown as text. Figures are inlined as
SVG; the page holds no JavaScript and no external URL.
"""

from __future__ import annotations

import dataclasses
import re

__all__ = ["Section", "render", "svg_of", "write_report"]

_TEMPLATE = "report.html.j2"


@dataclasses.dataclass(frozen=True)
class Section:
    """One analysis of the report.

    Attributes
    ----------
    title : str
        The question asked, such as "Is the top of a leaderboard the state of the art, or the luck of many
        tries?".
    verdict : str
        The answer in one sentence (or a few, in plain words).
    columns : tuple of str
        The header of the table of numbers.
    rows : tuple of tuple of str
        The rows of the table of numbers, each as many strings as ``columns``.
    figure_svg : str or None
        The plot, as SVG text from :func:`svg_of` (inserted unescaped), or None.
    assumptions : tuple of (str, str)
        The assumptions made, as (name, value) pairs: ρ, ε, γ, the folding ...
    source : str
        The paper and section the result comes from.
    inputs : tuple of str
        The input files (or a description of the bundled data).
    analysis : str
        The analysis that was run, such as ``"sota leaderboard"``.
    tables : tuple
        Further tables, each ``(caption, columns, rows)``.
    notes : tuple of str
        Further sentences shown below the verdict.
    """

    title: str
    verdict: str
    columns: tuple = ()
    rows: tuple = ()
    figure_svg: str | None = None
    assumptions: tuple = ()
    source: str = ""
    inputs: tuple = ()
    analysis: str = ""
    tables: tuple = ()
    notes: tuple = ()


def _environment():
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    return Environment(
        loader=PackageLoader("benchtrust._report", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def _anchor(section: Section, k: int) -> str:
    words = re.sub(r"[^a-z0-9]+", "-", (section.analysis or "analysis").lower()).strip("-")
    return f"s{k + 1}-{words or 'analysis'}"


def render(sections, *, title: str = "benchtrust report") -> str:
    """The report of `sections` as one HTML page.

    Parameters
    ----------
    sections : iterable of Section
        The analyses, in the order shown.
    title : str
        The page's title.

    Returns
    -------
    str
        The page: inline CSS, figures inlined as SVG, no JavaScript, no external URL.

    Examples
    --------
    >>> page = render([Section(title="Is A > B?", verdict="Ben & Jerry's <b>wins</b>.")], title="demo")
    >>> "Ben &amp; Jerry&#39;s &lt;b&gt;wins&lt;/b&gt;." in page
    True
    """
    from markupsafe import Markup

    import benchtrust

    items = []
    for k, section in enumerate(sections):
        if not isinstance(section, Section):
            raise TypeError(f"sections: expected Section, got {type(section).__name__}")
        figure = None if section.figure_svg is None else Markup(_prefix_ids(section.figure_svg, f"f{k + 1}-"))
        items.append({"section": section, "anchor": _anchor(section, k), "figure": figure})
    template = _environment().get_template(_TEMPLATE)
    return template.render(title=title, items=items, version=benchtrust.__version__)


def write_report(sections, path, *, title: str = "benchtrust report"):
    """Render `sections` (see :func:`render`) and write the page to `path` atomically; return the path."""
    from pathlib import Path

    from benchtrust._io import write_atomic

    page = render(list(sections), title=title)
    write_atomic(path, page)
    return Path(path)


_PROLOG = re.compile(r"\A.*?(?=<svg\b)", re.DOTALL)
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.DOTALL)
_NAMESPACE = re.compile(r'\s+xmlns(?::\w+)?="[^"]*"')


def _clean_svg(text: str) -> str:
    """Matplotlib's SVG file as an element to inline in HTML: no XML prolog, DOCTYPE, metadata or
    namespace declarations (an HTML parser needs none, and they are URLs)."""
    text = _PROLOG.sub("", text, count=1)
    text = _METADATA.sub("", text)
    head, _, rest = text.partition(">")
    return _NAMESPACE.sub("", head) + ">" + rest


def _prefix_ids(svg: str, prefix: str) -> str:
    """`svg` with every ``id`` and the references to it prefixed, so that figures on one page never share
    an id."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    if not ids:
        return svg
    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m[1]}"', svg)
    return re.sub(r"#([\w.:-]+)", lambda m: f"#{prefix}{m[1]}" if m[1] in ids else m[0], svg)


def svg_of(draw) -> str:
    """The figure ``draw(path)`` writes, as SVG text to inline in a :class:`Section`.

    `draw` is one of the ``plot_*`` functions with its other arguments bound, such as
    ``lambda path: plot_best_of(result, path)``; it writes an ``.svg`` file in a temporary folder, read
    back here. Text stays text (``svg.fonttype: none``), escaped by matplotlib's SVG writer.
    """
    import tempfile
    from pathlib import Path

    import matplotlib

    with tempfile.TemporaryDirectory() as folder, matplotlib.rc_context({"svg.fonttype": "none"}):
        path = Path(folder) / "figure.svg"
        draw(path)
        return _clean_svg(path.read_text(encoding="utf-8"))
