"""Fig. 1 of the paper: the best of m accuracies against a single classifier's accuracy (paper §3.4)."""

from __future__ import annotations

import os
from pathlib import Path

from benchtrust._io import InputError, atomic_path

#: Probability left out of the drawn range at each end of each distribution.
_DRAWN_TAIL = 1e-6


def plot_best_of(result, path, *, title=None):
    """Draw the distribution of the best accuracy over that of one classifier, as in the paper's Fig. 1.

    The paper's Fig. 1 (§3.4) shows the pmf of one classifier's observed accuracy θ̂ = (n - X) / n,
    X ~ B(n, 1 - θ), and marks E(θ̂_max) and the multiplicity-adjusted upper limit θ^m_{1-α/2} of the best
    of m such classifiers. This figure draws, on one accuracy axis:

    * the pmf of one classifier with the largest accuracy θ (``result.top_score``) on the n test items
      (grey), over the range holding all but 1e-6 of its probability at each end;
    * the pmf of the best observed accuracy among the m classifiers (``result.score``, ``result.pmf``;
      blue), over the same kind of range;
    * vertical lines at E(θ̂_max) (``result.expected_max``) and at both ends of the central (1 - α)
      interval (``result.ci``).

    The figure is written with matplotlib's Agg renderer (no display needed, pyplot's global state is not
    touched) to a temporary file in the target folder, then renamed onto `path`. The format follows the
    file's suffix (``.png`` when it has none).

    Parameters
    ----------
    result : BestOfResult
        From :func:`benchtrust.sota.best_of` or :func:`benchtrust.sota.simulate_best_of`.
    path : str or os.PathLike
        The image file to create or replace; its folder must exist.
    title : str, optional
        Figure title; default: m, n, θ (or the largest θ_j), ρ and θ0 when dependent, and the model.

    Returns
    -------
    pathlib.Path
        `path`.

    Raises
    ------
    benchtrust.InputError
        If the folder does not exist or cannot be written to, or the suffix is not an image format
        matplotlib writes.

    Examples
    --------
    The example of §3.4 (m = 1000, n = 3000, θ = 0.9):

    >>> import pathlib, tempfile
    >>> from benchtrust.sota import best_of, plot_best_of
    >>> r = best_of(0.9, classifiers=1000, test_size=3000)
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     written = plot_best_of(r, pathlib.Path(folder, "fig1.png"))
    ...     print(written.name, written.read_bytes()[:8] == b"\\x89PNG\\r\\n\\x1a\\n")
    ...     sorted(p.name for p in pathlib.Path(folder).iterdir())
    fig1.png True
    ['fig1.png']
    """
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from scipy import stats

    target = Path(path)
    image_format = _image_format(target)
    figure = Figure(figsize=(8, 5), layout="constrained")
    FigureCanvasAgg(figure)

    n, theta = result.test_size, result.top_score
    ax = figure.add_subplot()

    # One classifier: correct count K ~ B(n, θ), accuracy K / n.
    k_low = int(stats.binom.ppf(_DRAWN_TAIL, n, theta))
    k_high = int(stats.binom.isf(_DRAWN_TAIL, n, theta)) + 1
    k = np.arange(max(k_low, 0), min(k_high, n) + 1)
    _bars(
        ax,
        k / n,
        stats.binom.pmf(k, n, theta),
        n,
        color="0.55",
        alpha=0.6,
        label=f"one classifier, θ = {theta:.4g}",
    )

    # The best of m, over the part of its window holding all but _DRAWN_TAIL at each end.
    below = result.cdf - result.pmf  # P(best < a)
    shown = (result.cdf >= _DRAWN_TAIL) & (below <= 1.0 - _DRAWN_TAIL)
    if not shown.any():
        shown = result.pmf > 0
    _bars(
        ax,
        result.score[shown],
        result.pmf[shown],
        n,
        color="tab:blue",
        alpha=0.6,
        label=f"best of m = {result.classifiers}",
    )

    level = f"{100 * (1 - result.alpha):g}%"
    low, high = result.ci
    ax.axvline(
        result.expected_max, color="black", linestyle="--", label=f"E(best) = {result.expected_max:.4f}"
    )
    interval = f"{level} central interval of best: [{low:.4f}, {high:.4f}]"
    ax.axvline(low, color="tab:red", linestyle=":", label=interval)
    ax.axvline(high, color="tab:red", linestyle=":")

    ax.set_xlabel("accuracy")
    ax.set_ylabel("probability")
    ax.set_ylim(bottom=0)
    ax.legend(loc="best", fontsize="small", frameon=False)
    ax.set_title(title if title is not None else _default_title(result), fontsize="medium")

    with atomic_path(target) as temporary:
        figure.savefig(temporary, format=image_format, dpi=120)
    return target


def _image_format(path):
    """The format matplotlib writes `path` in (its suffix, ``png`` without one); InputError if none."""
    from matplotlib.backend_bases import FigureCanvasBase

    image_format = Path(path).suffix[1:].lower() or "png"
    supported = FigureCanvasBase.get_supported_filetypes()
    if image_format not in supported:
        raise InputError(
            f"cannot write {os.fspath(path)}: '.{image_format}' is not an image format matplotlib writes; "
            f"use one of {', '.join('.' + name for name in sorted(supported))}"
        )
    return image_format


def _bars(ax, accuracy, pmf, n, **style):
    """A histogram with one bar of width 1/n centred on each accuracy (drawn as a single outline)."""
    import numpy as np

    edges = np.concatenate([accuracy - 0.5 / n, [accuracy[-1] + 0.5 / n]])
    ax.stairs(pmf, edges, fill=True, **style)


def _default_title(result):
    """m, n, θ, the dependence parameters and the model, in the paper's symbols."""
    identical = "non-identical" not in result.model
    parts = [f"m = {result.classifiers}", f"n = {result.test_size}"]
    parts.append(f"θ = {result.top_score:.4g}" if identical else f"max θ = {result.top_score:.4g}")
    if result.correlation > 0:
        parts.append(f"\N{GREEK SMALL LETTER RHO} = {result.correlation:g}")
        parts.append(f"θ0 = {result.reference_accuracy:.4g}")
    first = "Best accuracy of m classifiers vs. one classifier (Møllersen & Holsbø, Fig. 1)"
    return f"{first}\n{', '.join(parts)}\n{result.model} ({result.method})"
