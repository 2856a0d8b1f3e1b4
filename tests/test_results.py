"""Result types that hold arrays or tables compare by identity: a generated ``==`` would compare numpy arrays
or DataFrames field by field and raise ("truth value of an array is ambiguous")."""

import dataclasses
import importlib
import pkgutil

import numpy as np
import pytest

import benchtrust
from benchtrust.multiverse import bundled_study, rank_distribution, rankings

#: Field types that make a generated __eq__ raise or mislead.
TABULAR = ("ndarray", "DataFrame", "Series")


def dataclasses_of_benchtrust():
    found = []
    for info in pkgutil.walk_packages(benchtrust.__path__, "benchtrust."):
        if info.name.startswith("benchtrust.cli"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == info.name:
                found.append(value)
    return found


@pytest.mark.parametrize("kind", dataclasses_of_benchtrust(), ids=lambda kind: kind.__qualname__)
def test_a_dataclass_holding_arrays_or_tables_does_not_generate_eq(kind):
    tabular = [f.name for f in dataclasses.fields(kind) if any(t in str(f.type) for t in TABULAR)]
    if tabular:
        assert not kind.__dataclass_params__.eq, f"{kind.__qualname__} holds {tabular}: use eq=False"


def test_equal_results_compare_without_raising():
    multiverse = rankings(**bundled_study())
    first, second = rank_distribution(multiverse), rank_distribution(multiverse)
    assert first == first and first != second  # identity, no error
    np.testing.assert_array_equal(first.best, second.best)


SUBPACKAGES = ("sota", "consistency", "compare", "multiverse")


def public_classes():
    found = []
    for name in SUBPACKAGES:
        package = importlib.import_module(f"benchtrust.{name}")
        exported = [getattr(package, n) for n in package.__all__]
        found += [(name, value) for value in exported if isinstance(value, type)]
    return found


def test_public_class_names_are_unique_across_subpackages():
    names = [kind.__name__ for _, kind in public_classes()]
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)


@pytest.mark.parametrize(
    "kind", [kind for _, kind in public_classes() if hasattr(kind, "verdict")], ids=lambda k: k.__qualname__
)
def test_a_result_with_a_verdict_explains_itself_every_way(kind):
    """A result that has a verdict in words also prints it, shows it as HTML and gives plain JSON types."""
    assert kind.__str__ is not object.__str__, "str(result): the readable text"
    assert callable(getattr(kind, "_repr_html_", None)), "its section, as a notebook shows it"
    assert callable(getattr(kind, "to_dict", None)), "plain JSON types"
