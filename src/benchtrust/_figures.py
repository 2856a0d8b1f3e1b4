"""Figures drawn without a display and written atomically, in the format the file's suffix names."""

from __future__ import annotations

import os
from pathlib import Path

from benchtrust._io import InputError, atomic_path


def new_figure(size):
    """An empty matplotlib figure of ``size`` inches, drawn without a display."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(figure)
    return figure


def write_figure(figure, path):
    """Write ``figure`` to ``path`` atomically, in the format its suffix names; return the path."""
    target = Path(path)
    with atomic_path(target) as temporary:
        figure.savefig(temporary, format=image_format(target), dpi=120)
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
