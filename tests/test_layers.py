"""The layers run one way: ``_io`` (and the other private top-level modules) → the four subpackages →
``_report`` → the CLI → the runners (``__main__``, ``_demo``). Every import in ``src/benchtrust``, including
those inside functions, is checked: a module may import its own layer or a lower one, and no subpackage
imports another subpackage (DESIGN.md, "Layout"; docs/layout.md)."""

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "benchtrust"
SUBPACKAGES = ("sota", "consistency", "compare", "multiverse")
#: The layer of each top-level part of the package; a private top-level module (``_io``, …) is layer 0.
LAYERS = {**dict.fromkeys(SUBPACKAGES, 1), "_report": 2, "cli": 3, "__main__": 4, "_demo": 4}
ROOT = "benchtrust"


def part(module: str) -> str:
    """The top-level part of a dotted module name inside benchtrust (``sota`` for ``benchtrust.sota._x``)."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 else ROOT


def layer(name: str) -> int:
    # the package root only re-exports InputError and loads subpackages lazily: layer 0
    return LAYERS.get(name, 0)


def module_name(path: Path) -> str:
    relative = path.relative_to(SRC.parent).with_suffix("")
    pieces = list(relative.parts)
    if pieces[-1] == "__init__":
        pieces.pop()
    return ".".join(pieces)


def imports(path: Path):
    """(line, imported module) of every import of a benchtrust module in `path`."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                targets = [".".join([*base, node.module] if node.module else base)]
            else:
                targets = [node.module or ""]
                if node.module == ROOT:  # from benchtrust import cli, sota, …
                    targets = [f"{ROOT}.{alias.name}" for alias in node.names]
        else:
            continue
        for target in targets:
            if target == ROOT or target.startswith(ROOT + "."):
                yield node.lineno, target


MODULES = sorted(SRC.rglob("*.py"))


def violations(path: Path) -> list[str]:
    here = part(module_name(path))
    found = []
    for line, target in imports(path):
        there = part(target)
        if there == here:
            continue
        if layer(there) > layer(here):
            found.append(f"{path.relative_to(SRC.parent)}:{line} imports {target} (a higher layer)")
        elif there in SUBPACKAGES and here in SUBPACKAGES:
            found.append(f"{path.relative_to(SRC.parent)}:{line} imports {target} (another subpackage)")
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_module_imports_a_higher_layer_or_another_subpackage(path):
    assert violations(path) == []


def test_the_checker_finds_an_upward_import(tmp_path, monkeypatch):
    """A report module importing the CLI, and a subpackage importing another, are both caught."""
    fake = tmp_path / "benchtrust"
    (fake / "_report").mkdir(parents=True)
    (fake / "sota").mkdir()
    (fake / "_report" / "sections.py").write_text("def f():\n    from benchtrust import cli\n", "utf-8")
    (fake / "sota" / "_x.py").write_text("from benchtrust.compare import outperform\n", "utf-8")
    monkeypatch.setattr(sys.modules[__name__], "SRC", fake)
    assert violations(fake / "_report" / "sections.py") == [
        "benchtrust/_report/sections.py:2 imports benchtrust.cli (a higher layer)"
    ]
    assert violations(fake / "sota" / "_x.py") == [
        "benchtrust/sota/_x.py:1 imports benchtrust.compare (another subpackage)"
    ]
