"""The code reads one way: no module of ``games`` imports, through any chain of imports, a
module that imports it back — imports inside functions included.

A cycle is what makes "who runs this?" unanswerable by reading, and what a lazy import hides
from the linter's layers. import-linter's ``acyclic_siblings`` contract (pyproject.toml)
checks packages against their siblings; this test checks every pair of modules.
"""

from __future__ import annotations

import grimp


def _cycles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan, iteratively)."""
    modules = sorted(m for m in graph.modules if m == package or m.startswith(package + "."))
    edges = {
        m: sorted(
            imported
            for imported in graph.find_modules_directly_imported_by(m)
            if imported in set(modules)
        )
        for m in modules
    }
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    for root in modules:
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(edges[successor])))
                    advanced = True
                    break
                if successor in on_stack:
                    low[module] = min(low[module], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def test_cycle_finder_sees_a_lazy_import_cycle(tmp_path, monkeypatch):
    # The finder itself: two modules that import each other, one of them inside a function.
    package = tmp_path / "cyclepkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "first.py").write_text("from cyclepkg import second\n")
    (package / "second.py").write_text("def later():\n    from cyclepkg import first\n")
    (package / "third.py").write_text("from cyclepkg import first\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("cyclepkg", cache_dir=None)
    assert _cycles(graph, "cyclepkg") == [["cyclepkg.first", "cyclepkg.second"]]


def test_games_has_no_import_cycle():
    graph = grimp.build_graph("games", cache_dir=None)
    cycles = _cycles(graph, "games")
    assert cycles == [], (
        "modules of games that import each other (lazy imports count): "
        + "; ".join(" <-> ".join(group) for group in cycles)
    )
