"""Every public function and result of the four subpackages cites its paper (issue 30, item 5): its
docstring has a numpydoc References section naming a DOI, an arXiv id or a journal page, and a See Also
section pointing to its siblings."""

import importlib
import inspect
import re

import pytest

SUBPACKAGES = ("sota", "consistency", "compare", "multiverse")
#: What a reference line must name for a reader to find the paper.
FINDABLE = re.compile(r"doi|arXiv|jmlr\.org|jstor\.org|https?://", re.IGNORECASE)


def public_callables():
    for name in SUBPACKAGES:
        package = importlib.import_module(f"benchtrust.{name}")
        for attribute in package.__all__:
            value = getattr(package, attribute)
            if inspect.isfunction(value) or inspect.isclass(value):
                yield f"{name}.{attribute}", value


@pytest.mark.parametrize(
    ("name", "value"), list(public_callables()), ids=lambda x: x if isinstance(x, str) else ""
)
def test_every_public_name_cites_its_paper_and_its_siblings(name, value):
    doc = inspect.getdoc(value) or ""
    sections = re.findall(r"^(\w[\w ]*)\n-{3,}$", doc, flags=re.MULTILINE)
    assert "References" in sections, f"{name}: no References section"
    assert "See Also" in sections, f"{name}: no See Also section"
    references = doc.split("References\n----------", 1)[1]
    assert FINDABLE.search(references), f"{name}: its references name no DOI, arXiv id or link"
