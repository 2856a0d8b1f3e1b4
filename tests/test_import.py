"""``import benchtrust`` stays cheap: no scientific stack at import, subpackages loaded on first access."""

import importlib.metadata
import importlib.util
import json
import subprocess
import sys

import pytest

import benchtrust

HEAVY = ["numpy", "scipy", "pandas", "matplotlib"]
SUBPACKAGES = ["sota", "consistency", "compare", "multiverse"]


def modules_after(statement: str) -> list[str]:
    """Which of HEAVY and benchtrust's subpackages a fresh interpreter has loaded after `statement`."""
    watched = HEAVY + [f"benchtrust.{name}" for name in SUBPACKAGES]
    code = f"{statement}\nimport json, sys\nprint(json.dumps([m for m in {watched!r} if m in sys.modules]))"
    completed = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return json.loads(completed.stdout)


def test_import_benchtrust_loads_no_heavy_module():
    assert modules_after("import benchtrust") == []


def test_import_cli_loads_no_heavy_module():
    # `benchtrust --help` imports the CLI module; it must stay as light as the package.
    assert modules_after("import benchtrust.cli") == []


def test_version_matches_the_installed_metadata():
    assert benchtrust.__version__ == importlib.metadata.version("benchtrust")


def test_dir_lists_the_subpackages():
    assert set(SUBPACKAGES) <= set(dir(benchtrust))


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_is_imported_on_first_access(name):
    if importlib.util.find_spec(f"benchtrust.{name}") is None:
        with pytest.raises(AttributeError, match=f"benchtrust.{name} is not built yet"):
            getattr(benchtrust, name)
    else:
        assert getattr(benchtrust, name) is sys.modules[f"benchtrust.{name}"]


def test_unknown_attribute():
    with pytest.raises(AttributeError, match="has no attribute 'nothing_here'"):
        benchtrust.nothing_here  # noqa: B018
