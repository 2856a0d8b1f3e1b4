"""benchtrust's annotations, checked by two type checkers (issue 34: a typed package, ``py.typed``).

* pyright's check of a typed library's public interface (``--verifytypes``, here basedpyright's build of
  pyright, which brings its own node): every public function's parameters and return, every public
  class's attributes, methods and properties, and every type they lead to (a result's ``Description``) has
  a known type. Types from other packages count as known (``--ignoreexternal``): pandas and scipy ship
  none. The public names it sees are those of the ``__all__`` lists, so the names the lazy subpackages
  declare for type checkers (``if TYPE_CHECKING:``) cannot drift from the names they import at run time.
* mypy, with the settings in ``pyproject.toml`` (``[tool.mypy]``), over the whole package: the body of
  every annotated function agrees with its annotations and with what it calls.
"""

import importlib
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PUBLIC_MODULES = (
    "benchtrust",
    "benchtrust.sota",
    "benchtrust.consistency",
    "benchtrust.compare",
    "benchtrust.multiverse",
)


@pytest.fixture(scope="module")
def interface(tmp_path_factory):
    """basedpyright's report on the public interface of the installed benchtrust (run outside the tree)."""
    # pyright asks the `python` on the PATH where packages are installed
    env = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ['PATH']}")
    command = [BIN / "basedpyright", "--verifytypes", "benchtrust", "--ignoreexternal", "--outputjson"]
    done = subprocess.run(
        command, cwd=tmp_path_factory.mktemp("pyright"), env=env, capture_output=True, text=True
    )
    return json.loads(done.stdout)


def test_pyright_finds_the_package_typed(interface):
    report = interface["typeCompleteness"]
    assert interface["generalDiagnostics"] == []
    assert Path(report["pyTypedPath"]) == ROOT / "src" / "benchtrust" / "py.typed"


def test_every_type_of_the_public_interface_is_known(interface):
    unknown = [
        f"{symbol['name']}: " + "; ".join(d["message"].split("\n")[0] for d in symbol["diagnostics"])
        for symbol in interface["typeCompleteness"]["symbols"]
        if not symbol["isTypeKnown"] or symbol["isTypeAmbiguous"]
    ]
    assert unknown == [], f"{len(unknown)} public symbols without a known type:\n" + "\n".join(unknown)
    assert interface["typeCompleteness"]["completenessScore"] == 1


def test_every_function_and_class_of_the_public_interface_has_a_docstring(interface):
    undocumented = [
        symbol["name"]
        for symbol in interface["typeCompleteness"]["symbols"]
        if any(d["message"].startswith("No docstring") for d in symbol["diagnostics"])
    ]
    assert undocumented == []


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_type_checkers_see_every_public_name(interface, module):
    """What pyright sees exported is what ``__all__`` says, and what a lazy subpackage imports on first
    access (its ``_WHERE``): its declarations for type checkers list every public name. Beside them, it
    sees only the subpackages and the old names kept as aliases of public ones."""
    package = importlib.import_module(module)
    public = set(package.__all__) - {"__version__"}
    seen = {
        symbol["name"].removeprefix(f"{module}.")
        for symbol in interface["typeCompleteness"]["symbols"]
        if symbol["isExported"] and symbol["name"].rpartition(".")[0] == module and symbol["name"][-1] != "_"
    }
    assert public <= seen
    for name in seen - public:
        value = getattr(package, name)
        assert isinstance(value, types.ModuleType) or any(value is getattr(package, p) for p in public), name
    assert set(getattr(package, "_WHERE", public)) == public


def test_mypy_accepts_the_package():
    # mypy's own cache (.mypy_cache/, kept between runs as pytest's is): a later run rechecks only the
    # modules that changed and those that import them, in a few seconds rather than half a minute
    command = [sys.executable, "-m", "mypy", "--no-error-summary"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert done.returncode == 0 and not errors, "\n".join(errors) or done.stdout + done.stderr
