"""The HTML report: one self-contained page with a section per analysis (question, verdict, numbers, plot,
assumptions, paper section).

Each section is made from its result's description (``result.section()``, :mod:`benchtrust._result`) and
rendered by the same template a notebook shows it with (:mod:`benchtrust._html`); this module lays the
sections out as a page, ``benchtrust/templates/report.html.j2``, with a table of contents. Autoescaping
is on, so every string that came from a user file (team, method or file names) is shown as text. Figures
are inlined as SVG; the page holds no JavaScript and no external URL.
"""

from __future__ import annotations

import re

from benchtrust._html import Section, environment, prefix_ids

__all__ = ["render", "write_report"]

_TEMPLATE = "report.html.j2"


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
    >>> from benchtrust._html import Section
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
        figure = None if section.figure_svg is None else Markup(prefix_ids(section.figure_svg, f"f{k + 1}-"))
        items.append({"section": section, "anchor": _anchor(section, k), "number": k + 1, "figure": figure})
    template = environment().get_template(_TEMPLATE)
    return template.render(title=title, items=items, version=benchtrust.__version__)


def write_report(sections, path, *, title: str = "benchtrust report"):
    """Render `sections` (see :func:`render`) and write the page to `path` atomically; return the path."""
    from pathlib import Path

    from benchtrust._write import write_atomic

    page = render(list(sections), title=title)
    write_atomic(path, page)
    return Path(path)
