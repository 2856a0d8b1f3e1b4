"""Figures drawn without a display: every ``plot_*`` function draws on the Axes it is given (or on a new
figure's) and returns them; :func:`save_figure` writes a figure atomically, in the format its file's
suffix names, and :func:`benchtrust._html.svg_of` inlines it in HTML. Both render with
:func:`figure_bytes`, so that two runs write the same bytes."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from benchtrust._io import InputError
from benchtrust._write import write_atomic

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

__all__ = ["FigureLike", "axes_for", "figure_bytes", "figures_bytes", "image_format", "save_figure"]

#: What a ``plot_*`` function returns (its Axes), or a whole figure.
FigureLike: TypeAlias = "Axes | Figure | SubFigure"


def axes_for(ax: Axes | None, size: tuple[float, float]) -> Axes:
    """`ax`, or the Axes of a new figure of `size` inches (drawn without a display, pyplot untouched)."""
    if ax is not None:
        return ax
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure.add_subplot()


def save_figure(figure: FigureLike, path: str | os.PathLike[str]) -> Path:
    """Write a figure to `path` atomically, in the format the suffix names (``.png`` without one).

    Parameters
    ----------
    figure : matplotlib.figure.Figure or matplotlib.axes.Axes
        What a ``plot_*`` function returned (its Axes), or a whole figure.
    path : str or os.PathLike
        The image file to create or replace; its folder must exist. A reader never sees a half-written
        file: the figure goes to a temporary file in the same folder, renamed onto `path`.

    Returns
    -------
    pathlib.Path
        `path`.

    Raises
    ------
    benchtrust.InputError
        If the suffix is not an image format matplotlib writes, or the folder does not exist or cannot be
        written to.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from benchtrust import save_figure
    >>> from benchtrust.sota import best_of, plot_best_of
    >>> ax = plot_best_of(best_of(0.9, classifiers=1000, test_size=3000))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = save_figure(ax, pathlib.Path(folder, "fig1.png"))
    ...     print(written.name, written.read_bytes()[:4] == b"\\x89PNG")
    fig1.png True
    """
    target = Path(path)
    kind = image_format(target)
    write_atomic(target, figure_bytes(figure, kind))
    return target


#: Metadata matplotlib writes by default that differ between runs or installs (the date, its version),
#: left out per format. PostScript's date and svgz's gzip header are fixed in :func:`figure_bytes`.
_NO_RUN_METADATA = {
    "png": {"Software": None},
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None},
    "svg": {"Creator": None, "Date": None},
}


def figure_bytes(figure: FigureLike, kind: str, *, text_as_text: bool = False) -> bytes:
    """`figure` rendered in format `kind` (``"png"``, ``"svg"``, ``"pdf"``, ...), the same bytes on every run.

    Matplotlib's defaults write the time of the run into SVG, PDF and PostScript files, its version into
    most formats, and draw the ids of SVG clip paths and markers from a fresh random salt. Here the
    metadata that vary are left out (``metadata={"Date": None, ...}``), the ids are hashed with a fixed
    salt (``svg.hashsalt``), PostScript's ``%%CreationDate`` line is dropped and ``svgz`` is compressed
    with a zero timestamp, so two runs on the same inputs give byte-identical files.

    Parameters
    ----------
    figure : matplotlib.figure.Figure or matplotlib.axes.Axes
        What a ``plot_*`` function returned (its Axes), or a whole figure.
    kind : str
        A format matplotlib writes, as :func:`image_format` returns it.
    text_as_text : bool, default False
        SVG text as ``<text>`` elements (``svg.fonttype: none``), as HTML inlines it, rather than paths.

    Examples
    --------
    >>> from benchtrust.sota import best_of, plot_best_of
    >>> result = best_of(0.9, classifiers=1000, test_size=3000)
    >>> figure_bytes(plot_best_of(result), "svg") == figure_bytes(plot_best_of(result), "svg")
    True
    """
    import gzip
    import io
    import re

    import matplotlib
    from matplotlib.figure import Figure

    whole = figure
    while not isinstance(whole, Figure):  # an Axes's (sub)figure, a subfigure's figure
        whole = whole.figure
    rendered = "svg" if kind == "svgz" else kind
    buffer = io.BytesIO()
    text_settings = {"svg.fonttype": "none"} if text_as_text else None
    # matplotlib's stubs take only literal rcParams keys in a dict literal; "svg.fonttype" is one
    with matplotlib.rc_context({"svg.hashsalt": "benchtrust"}), matplotlib.rc_context(text_settings):  # type: ignore[arg-type]
        whole.savefig(buffer, format=rendered, dpi=120, metadata=_NO_RUN_METADATA.get(rendered))
    data = buffer.getvalue()
    if kind in ("ps", "eps"):
        data = re.sub(rb"^%%CreationDate:[^\n]*\n", b"", data, count=1, flags=re.MULTILINE)
    if kind == "svgz":
        data = gzip.compress(data, mtime=0)
    return data


def figures_bytes(makers: Sequence[Callable[[], FigureLike]], kind: str) -> list[bytes]:
    """Each figure drawn by `makers` rendered by :func:`figure_bytes` in format `kind`, in their order.

    Rendering a figure is single-threaded and takes most of a study's time (a panel of text and ticks costs
    far more than its numbers), so on Linux the figures are drawn and rendered by forked worker processes,
    one per core: a forked process inherits the functions and the data they draw, which need not be
    pickled. Elsewhere, or for a single figure or core, they are rendered in turn. The bytes are the same
    either way. A stop (Ctrl-C) reaches the calling process, which ends the workers on its way out.

    Parameters
    ----------
    makers : sequence of callable
        Functions without arguments that draw a figure and return its Axes (or Figure); longest first
        renders soonest.
    kind : str
        A format matplotlib writes, as :func:`image_format` returns it.

    Examples
    --------
    >>> from benchtrust.sota import best_of, plot_best_of
    >>> result = best_of(0.9, classifiers=1000, test_size=3000)
    >>> pngs = figures_bytes([lambda: plot_best_of(result)] * 2, "png")
    >>> pngs[0] == pngs[1] == figure_bytes(plot_best_of(result), "png")
    True
    """
    import multiprocessing
    import sys

    workers = min(len(makers), len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)
    if workers < 2 or not sys.platform.startswith("linux"):
        return [figure_bytes(make(), kind) for make in makers]
    _PENDING[:] = [(make, kind) for make in makers]
    try:
        with multiprocessing.get_context("fork").Pool(workers, initializer=_quiet_worker) as pool:
            return pool.map(_render_pending, range(len(makers)), chunksize=1)
    finally:
        _PENDING.clear()


#: What the forked workers of :func:`figures_bytes` render: (maker, kind), by index.
_PENDING: list[tuple[Callable[[], FigureLike], str]] = []


def _render_pending(index: int) -> bytes:
    make, kind = _PENDING[index]
    return figure_bytes(make(), kind)


def _quiet_worker() -> None:
    """A worker leaves Ctrl-C to the process that started it, and ends at once when that one ends it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


#: Formats matplotlib writes only with a program benchtrust does not depend on: format -> the program.
_NEEDS_A_PROGRAM = {"pgf": "LaTeX (xelatex)"}


def image_format(path: str | os.PathLike[str]) -> str:
    """The format matplotlib writes ``path`` in (its suffix, ``png`` without one); InputError if none.

    Formats that need an outside program (``.pgf``: LaTeX) are refused too, before any work is done.

    Examples
    --------
    >>> image_format("fig1.svg"), image_format("fig1")
    ('svg', 'png')
    >>> image_format("fig1.pgf")
    Traceback (most recent call last):
    ...
    benchtrust.InputError: cannot write fig1.pgf: '.pgf' needs LaTeX (xelatex); use one of .avif, .eps, ...
    """
    from matplotlib.backend_bases import FigureCanvasBase

    suffix = Path(path).suffix[1:].lower() or "png"
    supported = sorted(set(FigureCanvasBase.get_supported_filetypes()) - set(_NEEDS_A_PROGRAM))
    if suffix not in supported:
        why = (
            f"needs {_NEEDS_A_PROGRAM[suffix]}"
            if suffix in _NEEDS_A_PROGRAM
            else "is not an image format matplotlib writes"
        )
        raise InputError(
            f"cannot write {os.fspath(path)}: '.{suffix}' {why}; "
            f"use one of {', '.join('.' + name for name in supported)}"
        )
    return suffix
