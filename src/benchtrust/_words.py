"""What the subpackages' explanations of their results share: the width of a paragraph, the Greek
letters of the papers, and how intervals, lists and columns of cells are written.

Each subpackage words its own results in its ``_text.py``; this module holds only what two of them would
otherwise each define. It imports nothing but the standard library, so any layer may use it.
"""

from __future__ import annotations

import textwrap

__all__ = [
    "ALPHA",
    "BETA",
    "EPSILON",
    "GAMMA",
    "RHO",
    "SIGMA",
    "TIMES",
    "WIDTH",
    "aligned",
    "interval_cell",
    "interval_text",
    "level_text",
    "listed",
    "paragraph",
]

#: The widest line of a paragraph of readable output, in characters.
WIDTH = 100

# Greek letters the texts share with the papers, spelled out where the linter would take them for Latin.
ALPHA = "\N{GREEK SMALL LETTER ALPHA}"
BETA = "\N{GREEK SMALL LETTER BETA}"
GAMMA = "\N{GREEK SMALL LETTER GAMMA}"
EPSILON = "\N{GREEK SMALL LETTER EPSILON}"
RHO = "\N{GREEK SMALL LETTER RHO}"
SIGMA = "\N{GREEK SMALL LETTER SIGMA}"
TIMES = "\N{MULTIPLICATION SIGN}"


def paragraph(text: str) -> str:
    """`text` wrapped to lines of at most :data:`WIDTH` characters.

    Parameters
    ----------
    text : str
        One paragraph of plain words.

    Returns
    -------
    str
        The paragraph, its lines joined by newlines (no trailing newline).

    Examples
    --------
    >>> print(paragraph("word " * 30))
    word word word word word word word word word word word word word word word word word word word word
    word word word word word word word word word word
    """
    return textwrap.fill(text, width=WIDTH)


def level_text(alpha) -> str:
    """The confidence level of an interval with error rate `alpha`, as a percentage.

    Examples
    --------
    >>> level_text(0.05), level_text(0.001)
    ('95%', '99.9%')
    """
    return f"{100 * (1 - alpha):g}%"


def interval_text(ci, digits: int = 4) -> str:
    """An interval ``(low, high)`` as ``[low, high]`` with `digits` decimals.

    Examples
    --------
    >>> interval_text((0.88871, 0.9105)), interval_text((0.5, 1.0), 2)
    ('[0.8887, 0.9105]', '[0.50, 1.00]')
    """
    return f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]"


def aligned(rows) -> list[str]:
    """`rows` of cells as lines of left-aligned columns two spaces apart, indented by two spaces."""
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    return [
        ("  " + "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=True))).rstrip() for row in rows
    ]


def listed(words) -> str:
    """`words` joined as a sentence lists them.

    Examples
    --------
    >>> listed(["a"]), listed(["a", "b"]), listed(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    """
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def interval_cell(low, high, digits=4) -> str:
    """An interval as a table cell, ``[low, high]``, or ``-`` where it is not computed (its `low` is NaN).

    Examples
    --------
    >>> interval_cell(0.25, 0.5), interval_cell(float('nan'), float('nan')), interval_cell(0.1, 0.2, 2)
    ('[0.2500, 0.5000]', '-', '[0.10, 0.20]')
    """
    return "-" if low != low else interval_text((low, high), digits)
