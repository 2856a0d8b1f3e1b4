"""Sphinx configuration of benchtrust's documentation site: the guide pages (MyST), the notebook with its
stored outputs (myst-nb), the API reference from the numpydoc docstrings (autosummary: one page per
public name of the four subpackages) and the command line from its commands (``_ext/cli_reference.py``).

Build: ``make docs`` (``sphinx-build -W --keep-going -b html docs docs/_build/html``).
"""

import importlib
import sys
from pathlib import Path

import benchtrust

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "benchtrust"
author = "the benchtrust developers"
copyright = "2026, the benchtrust developers"
release = version = benchtrust.__version__

extensions = [
    "myst_nb",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "cli_reference",
]
# .rst first: autosummary writes its pages with the first suffix, and they are reStructuredText.
source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
# Pygments has no lexer for the ```csv file=...``` blocks that show input files: they stay plain text.
suppress_warnings = ["misc.highlighting_failure"]
root_doc = "index"
exclude_patterns = ["_build", "README.md", "**/.ipynb_checkpoints"]

# The notebook is run by tests/test_notebook.py; the site shows the outputs stored in it.
nb_execution_mode = "off"
myst_heading_anchors = 3

# One page per public name; a class's page documents its methods and properties (its own template).
autosummary_generate = True
templates_path = ["_templates"]
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_xref_param_type = False
# Each documented attribute is a target, so :attr:`TaskScores.methods` resolves.
numpydoc_attributes_as_param_list = False

# Every cross-reference to a public name must resolve (-n): see _private_targets below.
nitpicky = True

html_theme = "pydata_sphinx_theme"
html_title = f"benchtrust {release}"
html_theme_options = {"navigation_with_keys": False}


#: The names users can reach: benchtrust's and its four subpackages' ``__all__``.
PUBLIC = set(benchtrust.__all__).union(
    *(
        importlib.import_module(f"benchtrust.{name}").__all__
        for name in ("sota", "consistency", "compare", "multiverse")
    )
)


def _private_targets(app, env, node, contnode):
    """Show a reference to anything but a public name as code, without a warning.

    Docstrings also name what is not in the reference: benchtrust's private helpers and constants (for
    readers of the code), the fields of a result (listed in its Attributes table, which has no targets) and
    other projects' objects (pandas.DataFrame: no intersphinx, the build reads nothing from the network).
    A reference whose last name is public must resolve: -n makes it an error if it does not.
    """
    if node.get("refdomain") == "py" and node["reftarget"].split(".")[-1] not in PUBLIC:
        return contnode
    return None


def setup(app):
    app.connect("missing-reference", _private_targets)
