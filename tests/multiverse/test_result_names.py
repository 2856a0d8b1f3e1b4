"""The multiverse results take the ``Result`` suffix of the other subpackages (issue 30, item 5); the names
they had before still import, as the same classes, and stay out of ``__all__``."""

import pytest

import benchtrust.multiverse
from benchtrust._result import Result

OLD_NAMES = (
    "Impact",
    "Multiverse",
    "MultiverseStudy",
    "PermutationTest",
    "RankDistribution",
    "Stepwise",
    "Subsample",
    "Unfolding",
)


@pytest.mark.parametrize("old", OLD_NAMES)
def test_an_old_name_is_the_same_class_as_the_new(old):
    new = getattr(benchtrust.multiverse, f"{old}Result")
    assert getattr(benchtrust.multiverse, old) is new
    assert new.__name__ == f"{old}Result" and issubclass(new, Result)
    assert f"{old}Result" in benchtrust.multiverse.__all__ and old not in benchtrust.multiverse.__all__


def test_an_old_name_imports_by_name():
    from benchtrust.multiverse import MultiverseStudy, MultiverseStudyResult, Unfolding, UnfoldingResult

    assert MultiverseStudy is MultiverseStudyResult and Unfolding is UnfoldingResult
