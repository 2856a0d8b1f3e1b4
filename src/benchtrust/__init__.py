"""benchtrust: how much to trust a machine-learning benchmark claim.

Four subpackages, one question each:

* :mod:`benchtrust.sota` -- is the top of a leaderboard the state of the art, or the luck of many tries?
* :mod:`benchtrust.consistency` -- could these reported scores have come from the experiment described?
* :mod:`benchtrust.compare` -- is A really better than B, given all the sources of variance?
* :mod:`benchtrust.multiverse` -- would the ranking survive other reasonable design and analysis choices?

They are imported on first access (``benchtrust.sota``), so ``import benchtrust`` stays fast and loads
neither numpy, scipy, pandas nor matplotlib.

Examples
--------
>>> import benchtrust
>>> benchtrust.__version__
'0.1.0'
>>> issubclass(benchtrust.InputError, ValueError)
True

Beside the subpackages, the package holds what they share: :class:`InputError` (every mistake in an
input), :class:`Interval` (every interval of a result) and :func:`save_figure` (every plot, once drawn).
"""

from types import ModuleType
from typing import TYPE_CHECKING

from benchtrust._figures import save_figure
from benchtrust._interval import Interval
from benchtrust._io import InputError

if TYPE_CHECKING:  # what type checkers see: the subpackages imported on first access below
    from benchtrust import compare as compare
    from benchtrust import consistency as consistency
    from benchtrust import multiverse as multiverse
    from benchtrust import sota as sota

# The one source of the version: pyproject.toml reads it from here (without importing the package); every
# result's to_dict() (so every --json output), report and BibTeX entry of benchtrust says it.
__version__ = "0.1.0"

__all__ = ["InputError", "Interval", "__version__", "save_figure"]

_SUBPACKAGES = frozenset({"sota", "consistency", "compare", "multiverse"})


def __getattr__(name: str) -> ModuleType:
    """Import the subpackage `name` on first access (PEP 562)."""
    if name not in _SUBPACKAGES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"{__name__}.{name}":
            raise  # the subpackage exists but something it imports is missing
        raise AttributeError(
            f"benchtrust.{name} is not built yet (planned; see the project issues)"
        ) from None


def __dir__() -> list[str]:
    return sorted(set(globals()) | _SUBPACKAGES)
