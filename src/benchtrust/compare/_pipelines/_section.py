"""What every section of ``benchtrust compare`` shares: the question it answers and the paper it follows.

Each result lays out its own section in its ``describe()`` (:class:`benchtrust._result.Description`): the
same description gives the report's section, a notebook's HTML, ``str(result)`` and ``to_dict()``.
"""

from __future__ import annotations

__all__ = ["COMPARE_QUESTION", "SOURCE"]

#: The question ``benchtrust compare`` answers: the title of the section of every result.
COMPARE_QUESTION = "Is A really better than B, given all the sources of variance?"

#: The paper the sections of the two-pipeline analyses cite; each adds its section or figure.
SOURCE = "Bouthillier et al. 2021, accounting for variance in machine learning benchmarks"
