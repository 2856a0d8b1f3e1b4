"""Every public result presents itself one way: all its views follow from its one description.

For every class in the four ``__all__`` lists that has a verdict (a result), an example instance from
``tests/<subpackage>/protocol_examples*.py`` is checked: it is a :class:`benchtrust._result.Result`, its
text is its description's text and holds its verdict, its data are plain JSON, its HTML shows its section's
verdict, and its table is a DataFrame. The other public classes (inputs such as a ``Leaderboard``, a
``TaskScores`` table or a ``Study``) are named here with what they are, so a new result cannot slip past.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from pathlib import Path

import markupsafe
import pandas as pd
import pytest

from benchtrust._result import Description, Result, made

SUBPACKAGES = ("sota", "consistency", "compare", "multiverse")
TESTS = Path(__file__).resolve().parent


def _public_classes():
    for name in SUBPACKAGES:
        package = importlib.import_module(f"benchtrust.{name}")
        for public in package.__all__:
            value = getattr(package, public)
            if isinstance(value, type):
                yield public, value


def _examples() -> dict:
    found = {}
    for path in sorted(TESTS.glob("*/protocol_examples*.py")):
        spec = importlib.util.spec_from_file_location(f"{path.parent.name}_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found.update(module.EXAMPLES)
    return found


EXAMPLES = _examples()
RESULTS = sorted((name, kind) for name, kind in _public_classes() if hasattr(kind, "verdict"))


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize(("name", "kind"), RESULTS, ids=[name for name, _ in RESULTS])
def test_a_result_shows_itself_every_way_from_its_description(name, kind):
    assert issubclass(kind, Result), f"{name} does not derive from benchtrust._result.Result"
    assert name in EXAMPLES, f"{name}: no example in tests/*/protocol_examples*.py"
    result = EXAMPLES[name]()
    assert type(result) is kind
    description = result.describe()
    assert isinstance(description, Description)
    assert str(result) == made(description.text)
    assert _words(result.verdict) in _words(str(result)), "the text holds the verdict"
    shown = _words(description.verdict).casefold()  # a section may capitalise its first word
    assert shown in _words(str(result)).casefold() or shown in _words(result.verdict).casefold(), (
        "the section's verdict is the result's"
    )
    data = result.to_dict()
    json.dumps(data, allow_nan=False)  # plain JSON types, no NaN
    assert isinstance(data, dict) and data
    page = result._repr_html_()
    assert page.startswith('<div class="benchtrust">')
    assert f'<p class="verdict">{markupsafe.escape(description.verdict)}</p>' in page
    assert isinstance(result.to_frame(), pd.DataFrame)
    for view in ("__str__", "_repr_html_", "section"):
        assert getattr(kind, view) is getattr(Result, view), f"{name}.{view} is hand-written"


def test_every_example_is_a_public_result():
    assert sorted(EXAMPLES) == sorted(name for name, _ in RESULTS)


#: The public classes that are not results, and what they are.
NOT_RESULTS = {
    "Binormal": "a model of scores (sota)",
    "Leaderboard": "an input: a board as read (sota)",
    "SotaEstimate": "a part of a LeaderboardResult (sota)",
    "Reported": "an input: reported scores as read (consistency)",
    "Score": "a definition of a score (consistency)",
    "TestSetCounts": "an input: the counts of a named data set (consistency)",
    "MissingRuns": "an input check's finding (compare)",
    "TaskScores": "an input: a table of scores over tasks (compare)",
    "Run": "one training run of a study (compare)",
    "Study": "the harness that runs trainings (compare)",
    "RandomSearch": "a hyperparameter search of a study (compare)",
    "NoisyGridSearch": "a hyperparameter search of a study (compare)",
    "Spec": "an input: the design of a multiverse study (multiverse)",
}


def test_every_public_class_is_a_result_or_a_named_input():
    others = sorted(name for name, kind in _public_classes() if not hasattr(kind, "verdict"))
    assert others == sorted(NOT_RESULTS)
    for name, kind in _public_classes():
        if name in NOT_RESULTS:
            assert not issubclass(kind, Result), f"{name} is {NOT_RESULTS[name]}, not a result"
