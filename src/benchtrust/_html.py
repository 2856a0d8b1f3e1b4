"""One result as HTML: the :class:`Section` an analysis fills in (its question, verdict, numbers, plot,
assumptions and paper section) and its rendering.

The same section serves both places a result is shown as HTML: a notebook, through the result's
``_repr_html_`` (:func:`section_html`), and the report, a page of sections (:mod:`benchtrust._report`). A
result makes its section from its one description (:meth:`benchtrust._result.Description.section`).
Sections are rendered from the Jinja2 templates in ``benchtrust/templates`` with autoescaping on, so
every string that came from a user (team, method or file names) is shown as text; figures are inlined as
SVG (:func:`svg_of`), and nothing holds JavaScript or an external URL.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from jinja2 import Environment

    from benchtrust._figures import FigureLike

__all__ = ["Row", "Section", "Table", "environment", "prefix_ids", "section_html", "svg_of"]

#: A row of a table: its cells as text.
Row: TypeAlias = Sequence[str]
#: A further table of a section: (caption, columns, rows).
Table: TypeAlias = tuple[str, Sequence[str], Sequence[Row]]


@dataclasses.dataclass(frozen=True)
class Section:
    """One analysis, as the report and a notebook show it.

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
    cite : tuple of str
        The BibTeX entries to cite for the analysis (:func:`benchtrust._citations.citations`).
    """

    title: str
    verdict: str
    columns: Sequence[str] = ()
    rows: Sequence[Row] = ()
    figure_svg: str | None = None
    assumptions: Sequence[tuple[str, str]] = ()
    source: str = ""
    inputs: Sequence[str] = ()
    analysis: str = ""
    tables: Sequence[Table] = ()
    notes: Sequence[str] = ()
    cite: Sequence[str] = ()


def environment() -> Environment:
    """The Jinja2 environment of benchtrust's templates: autoescaped, strict about undefined names."""
    from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

    return Environment(
        loader=PackageLoader("benchtrust", "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def section_html(section: Section) -> str:
    """`section` as an HTML fragment for a notebook: the report's section, with its styles scoped to it.

    Figure ids are prefixed with a digest of the figure, so that two results shown in one notebook never
    share an id.

    Examples
    --------
    >>> html = section_html(Section(title="Is A > B?", verdict="Ben & Jerry's <b>wins</b>."))
    >>> "Ben &amp; Jerry&#39;s &lt;b&gt;wins&lt;/b&gt;." in html, html.startswith('<div class="benchtrust">')
    (True, True)
    """
    from markupsafe import Markup

    if not isinstance(section, Section):
        raise TypeError(f"section: expected Section, got {type(section).__name__}")
    figure = None
    if section.figure_svg is not None:
        digest = hashlib.sha1(section.figure_svg.encode("utf-8")).hexdigest()[:8]
        figure = Markup(prefix_ids(section.figure_svg, f"bt{digest}-"))
    item = {"section": section, "anchor": None, "number": None, "figure": figure}
    return environment().get_template("notebook.html.j2").render(item=item)


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


def prefix_ids(svg: str, prefix: str) -> str:
    """`svg` with every ``id`` and the references to it prefixed, so that figures on one page never share
    an id."""
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    if not ids:
        return svg
    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m[1]}"', svg)
    return re.sub(r"#([\w.:-]+)", lambda m: f"#{prefix}{m[1]}" if m[1] in ids else m[0], svg)


def svg_of(figure: FigureLike | str | list[FigureLike | str]) -> str:
    """A figure as SVG text to inline in a :class:`Section`.

    Parameters
    ----------
    figure : matplotlib.axes.Axes or matplotlib.figure.Figure or str or list
        What a ``plot_*`` function returned, such as ``plot_best_of(result)``, or a figure written as SVG
        text already (such as :func:`benchtrust.compare.critical_difference_svg`'s), or a list of them.

    Returns
    -------
    str
        The ``<svg>`` element (one per figure of a list, their ids kept apart). Text stays text
        (``svg.fonttype: none``), escaped by matplotlib's SVG writer; the same bytes on every run
        (:func:`benchtrust._figures.figure_bytes`).
    """
    if isinstance(figure, list):
        return "\n".join(prefix_ids(svg_of(one), f"f{k + 1}-") for k, one in enumerate(figure))
    if isinstance(figure, str):
        return _clean_svg(figure)
    from benchtrust._figures import figure_bytes

    return _clean_svg(figure_bytes(figure, "svg", text_as_text=True).decode("utf-8"))
