"""The layers run one way: ``_io`` (and the other private top-level modules) → the four subpackages →
``_report`` → the CLI → the runners (``__main__``, ``_demo``). Every import in ``src/benchtrust``, including
those inside functions, is checked: a module may import its own layer or a lower one, and no subpackage
imports another subpackage (DESIGN.md, "Layout"; docs/layout.md); the layers above the subpackages use
their public names only. Nor do modules import each other in a
circle, inside a subpackage or across layers: every import cycle is named."""

import ast
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "benchtrust"
SUBPACKAGES = ("sota", "consistency", "compare", "multiverse")
#: The layer of each top-level part of the package; a private top-level module (``_io``, …) is layer 0.
LAYERS = {**dict.fromkeys(SUBPACKAGES, 1), "_report": 2, "cli": 3, "__main__": 4, "_demo": 4}
ROOT = "benchtrust"
#: compare's two families: the one over many tasks builds on the one of two pipelines, never the reverse.
PIPELINES, TASKS = "benchtrust.compare._pipelines", "benchtrust.compare._tasks"


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


def imports(path: Path, *, run_time: bool = False):
    """(line, imported module) of every import of a benchtrust module in `path`; with `run_time`, not
    those under ``if TYPE_CHECKING:``, which only type checkers read."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text("utf-8"), str(path))
    unread = {
        id(inner)
        for block in ast.walk(tree)
        if run_time and _type_checking_only(block)
        for statement in block.body
        for inner in ast.walk(statement)
    }
    for node in ast.walk(tree):
        if id(node) in unread:
            continue
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, node.module] if node.module else base)
            else:
                source = node.module or ""
            # from a package import a module of it: that module (from benchtrust.sota import _binomial;
            # from benchtrust import cli, sota, …); from a module import a name: the module
            targets = [
                f"{source}.{alias.name}" if source == ROOT or _is_module(f"{source}.{alias.name}") else source
                for alias in node.names
            ]
        else:
            continue
        for target in dict.fromkeys(targets):
            if target == ROOT or target.startswith(ROOT + "."):
                yield node.lineno, target


def _type_checking_only(node) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")


def _is_module(dotted: str) -> bool:
    """Whether a dotted name inside benchtrust is a module or package of the source tree."""
    path = SRC.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


MODULES = sorted(SRC.rglob("*.py"))


def violations(path: Path) -> list[str]:
    here = part(module_name(path))
    found = []
    for line, target in imports(path):
        there = part(target)
        if there == here or (here == ROOT and target == f"{ROOT}.{there}" and there in SUBPACKAGES):
            continue  # the root names its subpackages for type checkers; it imports them on first access
        if layer(there) > layer(here):
            found.append(f"{path.relative_to(SRC.parent)}:{line} imports {target} (a higher layer)")
        elif there in SUBPACKAGES and here in SUBPACKAGES:
            found.append(f"{path.relative_to(SRC.parent)}:{line} imports {target} (another subpackage)")
        elif there in SUBPACKAGES and any(piece.startswith("_") for piece in target.split(".")[2:]):
            found.append(
                f"{path.relative_to(SRC.parent)}:{line} imports {target} (private: use public names)"
            )
    if module_name(path).startswith(PIPELINES):
        found += [
            f"{path.relative_to(SRC.parent)}:{line} imports {target} (the family over many tasks)"
            for line, target in imports(path)
            if target.startswith(TASKS)
        ]
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


def test_the_checker_finds_a_front_end_importing_a_private_module(tmp_path, monkeypatch):
    """The CLI, the report and the runners use the subpackages' public names only."""
    fake = tmp_path / "benchtrust"
    (fake / "cli").mkdir(parents=True)
    (fake / "sota").mkdir()
    (fake / "sota" / "_text.py").write_text("", "utf-8")
    (fake / "cli" / "sota.py").write_text(
        "from benchtrust.sota import best_of\ndef f():\n    from benchtrust.sota import _text\n", "utf-8"
    )
    monkeypatch.setattr(sys.modules[__name__], "SRC", fake)
    assert violations(fake / "cli" / "sota.py") == [
        "benchtrust/cli/sota.py:3 imports benchtrust.sota._text (private: use public names)"
    ]


def test_the_checker_finds_the_family_of_two_pipelines_importing_the_one_over_many_tasks(
    tmp_path, monkeypatch
):
    fake = tmp_path / "benchtrust"
    for family in ("_pipelines", "_tasks"):
        (fake / "compare" / family).mkdir(parents=True)
        (fake / "compare" / family / "_x.py").write_text("", "utf-8")
    (fake / "compare" / "_pipelines" / "_y.py").write_text(
        "from benchtrust.compare._tasks import _x\n", "utf-8"
    )
    (fake / "compare" / "_tasks" / "_y.py").write_text(
        "from benchtrust.compare._pipelines import _x\n", "utf-8"
    )
    monkeypatch.setattr(sys.modules[__name__], "SRC", fake)
    assert violations(fake / "compare" / "_pipelines" / "_y.py") == [
        "benchtrust/compare/_pipelines/_y.py:1 imports benchtrust.compare._tasks._x"
        " (the family over many tasks)"
    ]
    assert violations(fake / "compare" / "_tasks" / "_y.py") == []


def import_cycles(modules) -> list[str]:
    """Every import cycle among `modules` (paths), one line each: the modules of a strongly connected
    component of the import graph, as ``a -> b -> a`` along imports found in the source. Imports that
    only type checkers read (``if TYPE_CHECKING:``, such as a result's class named in its text module's
    annotations) are not part of the graph: they are never run."""
    names = {module_name(path): path for path in modules}
    graph = {
        name: sorted({t for _, t in imports(path, run_time=True) if t in names} - {name})
        for name, path in names.items()
    }
    order, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):  # Tarjan's strongly connected components
        order[node] = low[node] = len(order)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            component = []
            while not component or component[-1] != node:
                component.append(stack.pop())
                on_stack.discard(component[-1])
            if len(component) > 1:
                found.append(" -> ".join([*_circle(sorted(component), graph), min(component)]))

    for name in sorted(graph):
        if name not in order:
            visit(name)
    return found


def _circle(component, graph):
    """A path through the graph from the first module of a cycle's component back to its start (the
    modules on one circle of imports)."""
    start, inside = component[0], set(component)
    paths, seen = [[start]], {start}
    while paths:  # breadth first: the shortest circle through `start`
        path = paths.pop(0)
        for nxt in graph[path[-1]]:
            if nxt == start and len(path) > 1:
                return path
            if nxt in inside and nxt not in seen:
                seen.add(nxt)
                paths.append([*path, nxt])
    return component


def test_no_import_cycles():
    assert import_cycles(MODULES) == []


def test_the_checker_names_an_import_cycle(tmp_path, monkeypatch):
    """Two modules of a subpackage importing each other (one inside a function), through the package's
    name for one of them, are a cycle; a third importing both is not in it, nor are two modules one of
    which imports the other only for type checkers."""
    fake = tmp_path / "benchtrust"
    (fake / "sota").mkdir(parents=True)
    (fake / "sota" / "__init__.py").write_text("", "utf-8")
    (fake / "sota" / "_a.py").write_text("from benchtrust.sota import _b\n", "utf-8")
    (fake / "sota" / "_b.py").write_text("def f():\n    from benchtrust.sota._a import g\n", "utf-8")
    (fake / "sota" / "_c.py").write_text("from benchtrust.sota import _a, _b\n", "utf-8")
    # _d names _e's class only for type checkers: never run, no cycle
    (fake / "sota" / "_d.py").write_text("if TYPE_CHECKING:\n    from benchtrust.sota._e import E\n", "utf-8")
    (fake / "sota" / "_e.py").write_text("from benchtrust.sota import _d\n", "utf-8")
    monkeypatch.setattr(sys.modules[__name__], "SRC", fake)
    assert import_cycles(sorted(fake.rglob("*.py"))) == [
        "benchtrust.sota._a -> benchtrust.sota._b -> benchtrust.sota._a"
    ]
