"""No import cycles in core/ or subword_gui/, read from the source with ast (issue 27).

Every module's imports count, those inside functions too (a lazy import is still a dependency),
and ``from core import x`` is an import of ``core.x`` when ``x`` is a module. The import-linter
``layers`` contract in pyproject.toml keeps the order of core/'s layers; this test catches what
it does not: a cycle inside one layer, and any cycle in subword_gui/.

``KNOWN_CYCLES`` are the cycles that remain while issue 27 is under way, each with the step
that removes it. A new cycle fails; so does a known one that is gone (take it off the list).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("core", "subword_gui")

KNOWN_CYCLES: set[frozenset[str]] = set()  # none left (issue 27): a new one fails here


def module_files(root: Path = ROOT, packages=PACKAGES) -> dict[str, Path]:
    """``{"core.corpus": Path(".../core/corpus.py"), "core": Path(".../core/__init__.py"), ...}``"""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def import_graph(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Each module's imports of the other modules in ``modules``, wherever they stand in it."""

    def known(name: str) -> str | None:
        while name and name not in modules:  # an attribute (a class, a function) of a module
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                targets.update(filter(None, (known(alias.name) for alias in node.names)))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from . import x, from ..y import z
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                for alias in node.names:
                    # `from core import corpus` imports the module core.corpus; `from core.corpus
                    # import count_words` the module core.corpus
                    target = known(f"{base}.{alias.name}")
                    if target is not None:
                        targets.add(target)
        # (a package's own modules, and importing itself, are not cycles)
        graph[name] = {t for t in targets if t != name and not name.startswith(t + ".")}
    return graph


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative).

    >>> sorted(map(sorted, cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}})))
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(graph.get(successor, ())))))
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.add(frozenset(component))
    return found


def test_no_new_import_cycle_and_no_stale_known_one():
    found = cycles(import_graph(module_files()))
    new = found - KNOWN_CYCLES
    assert not new, "import cycles: " + "; ".join(" <-> ".join(sorted(c)) for c in new)
    gone = KNOWN_CYCLES - found
    assert not gone, "no longer a cycle, take it off KNOWN_CYCLES: " + "; ".join(
        " <-> ".join(sorted(c)) for c in gone
    )


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_cycle_through_a_lazy_import_and_a_from_package_import_is_found(tmp_path):
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/low.py": "def f():\n    from pkg import high  # lazily, still an import\n",
            "pkg/high.py": "from pkg.low import f\n",
            "pkg/apart.py": "from . import low\nimport pkg.sub.leaf\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/leaf.py": "from ..low import f\n",
        },
    )
    graph = import_graph(module_files(tmp_path, ("pkg",)))
    assert graph["pkg.apart"] == {"pkg.low", "pkg.sub.leaf"}
    assert graph["pkg.sub.leaf"] == {"pkg.low"}
    assert cycles(graph) == {frozenset({"pkg.low", "pkg.high"})}
