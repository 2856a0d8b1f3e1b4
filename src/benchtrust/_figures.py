"""Figures drawn without a display: every ``plot_*`` function draws on the Axes it is given (or on a new
figure's) and returns them; :func:`save_figure` writes a figure atomically, in the format its file's
suffix names, and :func:`benchtrust._html.svg_of` inlines it in HTML."""

from __future__ import annotations

import os
from pathlib import Path

from benchtrust._io import InputError
from benchtrust._write import atomic_path

__all__ = ["axes_for", "image_format", "save_figure"]


def axes_for(ax, size):
    """`ax`, or the Axes of a new figure of `size` inches (drawn without a display, pyplot untouched)."""
    if ax is not None:
        return ax
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure.add_subplot()


def save_figure(figure, path):
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
    figure = getattr(figure, "figure", figure)
    with atomic_path(target) as temporary:
        figure.savefig(temporary, format=kind, dpi=120)
    return target


def image_format(path):
    """The format matplotlib writes ``path`` in (its suffix, ``png`` without one); InputError if none.

    Examples
    --------
    >>> image_format("fig1.svg"), image_format("fig1")
    ('svg', 'png')
    """
    from matplotlib.backend_bases import FigureCanvasBase

    suffix = Path(path).suffix[1:].lower() or "png"
    supported = FigureCanvasBase.get_supported_filetypes()
    if suffix not in supported:
        raise InputError(
            f"cannot write {os.fspath(path)}: '.{suffix}' is not an image format matplotlib writes; "
            f"use one of {', '.join('.' + name for name in sorted(supported))}"
        )
    return suffix
