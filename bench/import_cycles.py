"""Import cycles among the project's modules, as grimp (import-linter's graph) sees them: none is the answer.

    python bench/import_cycles.py

Every import counts, those inside functions and under ``TYPE_CHECKING`` too. A package's ``__init__`` is
its own module: ``workbench.cut`` importing ``workbench.cut.windows`` is an edge like any other. Prints each
strongly connected group of two or more modules (a cycle) and exits 1 when there is one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Tarjan's strongly connected components of two or more modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(10_000)

    def visit(module: str) -> None:
        index[module] = low[module] = counter[0]
        counter[0] += 1
        stack.append(module)
        on_stack.add(module)
        for imported in graph.find_modules_directly_imported_by(module):
            if imported not in graph.modules:
                continue
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def main() -> int:
    graph = grimp.build_graph("workbench", "ui", "pages")
    found = cycles(graph)
    for group in found:
        print("cycle:", " -> ".join(group))
    print(f"{len(graph.modules)} modules, {len(found)} import cycle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
