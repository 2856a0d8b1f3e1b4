"""One way to present a result: every view of it follows from one description of itself.

Every public result of benchtrust derives from :class:`Result` and describes itself once, in its
``describe()`` method, as a :class:`Description`: the question it answers, its verdict in words, the text
the command prints, its table of numbers (and further tables and notes), the assumptions it made, the
inputs it was read from, the paper section it follows, a figure (drawn only when one is shown) and its data.
The views follow from that description, as statsmodels' ``Summary`` serves both ``as_text`` and
``as_html``:

* ``str(result)``: the text, exactly what the command prints (its verdict included);
* ``result._repr_html_()``: the section a notebook shows and the report lays out
  (:meth:`Description.section`, rendered by :func:`benchtrust._html.section_html`);
* ``result.to_dict()``: the data as plain JSON types, through :func:`jsonable`, the one JSON helper, with
  what to cite for it (:mod:`benchtrust._citations`) and the version of benchtrust that made it;
* ``result.to_frame()``: the table as a pandas DataFrame.

A result keeps what its views need: the files it was read from are its ``inputs`` (set by the function
that read them, or by a front end that read them itself, with :func:`dataclasses.replace`), so no front end
reads a file twice or calls a private builder.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from benchtrust import __version__
from benchtrust._citations import citations
from benchtrust._html import Row, Section, Table, section_html, svg_of

if TYPE_CHECKING:
    import pandas as pd

    from benchtrust._figures import FigureLike

_Part = TypeVar("_Part")

__all__ = ["Description", "Result", "jsonable", "made", "plain_data"]


def jsonable(value: object) -> Any:
    """`value` as plain JSON types: dicts, lists, str, int, float, bool and None.

    NaN and infinities become None (JSON has neither), numpy scalars and arrays their Python values,
    tuples lists, paths their text. It is the one conversion behind every ``to_dict()``.

    Parameters
    ----------
    value : object
        A number, array, string, path, None, or a mapping, list or tuple of those (nested).

    Returns
    -------
    object
        The same data as plain JSON types.

    Raises
    ------
    TypeError
        For a value of another type, named.

    Examples
    --------
    >>> jsonable({"p": np.float64(0.25), "ci": (np.nan, 1.0), "runs": np.array([3, 4]), "best": np.inf})
    {'p': 0.25, 'ci': [None, 1.0], 'runs': [3, 4], 'best': None}
    """
    if isinstance(value, (str, bool)) or value is None:
        return value
    if isinstance(value, (np.ndarray, np.generic)):
        if value.dtype.kind in "biu":
            return value.tolist()
        if value.dtype.kind == "f":
            # None as an array's value (an object array): valid numpy, which numpy's stubs do not allow
            return np.where(np.isfinite(value), value, None).tolist()  # type: ignore[call-overload]
        return jsonable(value.tolist())
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value) if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {key if isinstance(key, str) else jsonable(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def made(part: _Part | Callable[[], _Part]) -> _Part:
    """A part of a :class:`Description`, made if it is given as a function that makes it.

    Examples
    --------
    >>> made("text"), made(lambda: "text")
    ('text', 'text')
    """
    return part() if callable(part) else part


def plain_data(result: Result) -> Any:
    """`result`'s data as plain JSON types: its ``to_dict()`` without ``"cite"`` and
    ``"benchtrust_version"``, for a result held in another's data (which says them once, at its top)."""
    return jsonable(result.describe().data)


@dataclasses.dataclass(frozen=True)
class Description:
    """What a result says about itself, from which every view of it is made.

    Attributes
    ----------
    question : str
        The question the analysis answers, the title of its section.
    verdict : str
        The answer in plain words, as the section shows it (the text holds it too).
    text : str or callable
        ``str(result)``: what the command prints; or a zero-argument function that makes it, for a text
        long to make (one line per row of a large table), so that ``to_dict()`` does not make it.
    data : Mapping
        ``to_dict()`` before its conversion by :func:`jsonable`.
    columns, rows : tuple
        The header and the rows (tuples of str) of the table of numbers; `rows` may be a zero-argument
        function that makes them, as `text`.
    frame : Mapping or None
        The columns of ``to_frame()`` (name to values) when it is not the table of `rows`: numbers kept
        as numbers, one row per method, configuration ... .
    assumptions : tuple of (str, str)
        The assumptions made, as (name, value) pairs.
    source : str
        The paper and section the result follows.
    inputs : tuple of str
        The files the result was read from.
    analysis : str
        The command that makes the result, such as ``"sota best-of"``.
    tables : tuple
        Further tables, each ``(caption, columns, rows)``.
    notes : tuple of str
        Further sentences shown below the verdict.
    figure : callable or None
        Draws the result's figure and returns its Axes (or Figure), or returns it as SVG text already, or a
        list of such figures; called only when a section is made.
    """

    question: str
    verdict: str
    text: str | Callable[[], str]
    data: Mapping[str, Any]
    columns: Sequence[str] = ()
    rows: Sequence[Row] | Callable[[], Sequence[Row]] = ()
    frame: Mapping[str, Any] | None = None
    assumptions: Sequence[tuple[str, str]] = ()
    source: str = ""
    inputs: Sequence[str] = ()
    analysis: str = ""
    tables: Sequence[Table] = ()
    notes: Sequence[str] = ()
    figure: Callable[[], FigureLike | str | list[FigureLike | str]] | None = None

    def section(self) -> Section:
        """The result as the report and a notebook show it, its figure drawn and inlined as SVG."""
        figure = None if self.figure is None else self.figure()
        return Section(
            title=self.question,
            verdict=self.verdict,
            columns=self.columns,
            rows=made(self.rows),
            figure_svg=None if figure is None else svg_of(figure),
            assumptions=self.assumptions,
            source=self.source,
            inputs=self.inputs,
            analysis=self.analysis,
            tables=self.tables,
            notes=self.notes,
            cite=citations(self.analysis),
        )


@dataclasses.dataclass(frozen=True, eq=False)
class Result:
    """The base of every public result: its views from its :class:`Description`.

    A subclass is a frozen dataclass that implements ``describe()``; it gets ``__str__``,
    ``_repr_html_``, ``section``, ``to_dict`` and ``to_frame`` from here, and a keyword-only field
    ``inputs``, the files it was read from.

    Attributes
    ----------
    inputs : tuple of str
        The files the result was read from, as given (empty for data passed in Python).
    """

    inputs: tuple[str, ...] = dataclasses.field(default=(), kw_only=True)

    def describe(self) -> Description:
        """The one description every view follows from."""
        raise NotImplementedError(f"{type(self).__name__}.describe")

    def __str__(self) -> str:
        """The readable text the command prints, verdict included."""
        return made(self.describe().text)

    def section(self) -> Section:
        """The section of the report that shows this result (with its figure)."""
        return self.describe().section()

    def _repr_html_(self) -> str:
        """The report's section of this result, for a notebook."""
        return section_html(self.section())

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON types (None where a number is not computed), then ``"cite"``: the BibTeX
        entries to cite for it (:func:`benchtrust._citations.citations`), and ``"benchtrust_version"``: the
        version that made it, so that a saved result says both. A result within another's data is given by
        :func:`plain_data`, without them."""
        description = self.describe()
        return {
            **jsonable(description.data),
            "cite": list(citations(description.analysis)),
            "benchtrust_version": __version__,
        }

    def to_frame(self) -> pd.DataFrame:
        """The result's table as a :class:`pandas.DataFrame`."""
        import pandas as pd

        description = self.describe()
        if description.frame is not None:
            return pd.DataFrame(dict(description.frame))
        return pd.DataFrame(list(made(description.rows)), columns=list(description.columns))
