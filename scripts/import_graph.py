#!/usr/bin/env python3
"""The fin_qa package's import graph, read statically: its cycles and, with --layers, its layering.

    python scripts/import_graph.py [--layers] [--edges] [--root DIR]

Every `import` and `from … import` of a module counts, wherever it is (inside a function too: a
function-level import is where a cycle hides), except inside `if TYPE_CHECKING:` (annotations only);
`importlib.import_module("fin_qa.…")` with a literal name counts as well. Relative imports are
resolved; `from pkg import name` is a dependency on the submodule pkg.name when that is a module,
else on pkg. Importing fin_qa.a.b depends on fin_qa.a.b; the package __init__s along the way count
only when they themselves import fin_qa modules (an empty or docstring-only __init__ cannot close a
cycle).

Prints each cycle as `a -> b -> a` with the lines that make its edges, and with --layers every
import from a lower layer into a higher one (LAYERS, top first) and the modules no layer names.
Exit status 1 when there is a cycle (or, with --layers, a layering violation), else 0.
"""
from __future__ import annotations

import argparse
import ast
import sys
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "fin_qa"

# Top first: a module may import from its own layer or any layer below it, never from one above.
# An entry names a module and everything under it, except the bare package name "fin_qa", which is
# only the package's own __init__ (fin_qa.open and the public names; FinQAError lives in fin_qa.base).
LAYERS: list[tuple[str, list[str]]] = [
    ("shells", ["fin_qa.cli", "fin_qa.serve"]),
    ("python api", ["fin_qa", "fin_qa.api", "fin_qa.export", "fin_qa.teddy", "fin_qa.conversations",
                    "fin_qa.chart_image"]),
    ("answering", ["fin_qa.answer", "fin_qa.evaluate"]),
    ("understanding", ["fin_qa.understand"]),
    ("search, models, ingest", ["fin_qa.search", "fin_qa.llm", "fin_qa.ingest", "fin_qa.check"]),
    ("store", ["fin_qa.store"]),
    ("catalog", ["fin_qa.catalog"]),
    ("leaves", ["fin_qa.base", "fin_qa.numbers", "fin_qa.config", "fin_qa.jsonl", "fin_qa.jsonfix", "fin_qa.bigrams", "fin_qa.vocab"]),
]
# Modules outside the layering altogether (they may import anything, and anything may import them).
EXCLUDED: frozenset[str] = frozenset({"fin_qa.sample"})


@dataclass(frozen=True)
class Edge:
    """One import statement: source imports target at line (in_function: inside a def)."""

    source: str
    target: str
    line: int
    in_function: bool


@dataclass
class Graph:
    modules: dict[str, Path]                                   # module name → file
    edges: dict[str, set[str]] = field(default_factory=dict)   # module → modules it imports
    sites: dict[tuple[str, str], list[Edge]] = field(default_factory=dict)
    unresolved: list[tuple[str, str, int]] = field(default_factory=list)  # (module, name, line): no such module

    def add(self, edge: Edge) -> None:
        if edge.source == edge.target:
            return
        self.edges.setdefault(edge.source, set()).add(edge.target)
        self.sites.setdefault((edge.source, edge.target), []).append(edge)

    def where(self, source: str, target: str) -> str:
        """'file:line' of each statement that makes the edge (marked when inside a function)."""
        path = self.modules[source]
        try:
            shown = path.relative_to(ROOT)
        except ValueError:
            shown = path
        return ", ".join(f"{shown}:{e.line}{' (in a function)' if e.in_function else ''}"
                         for e in self.sites.get((source, target), []))


# ------------------------------------------------------------------------------------------ reading

def find_modules(package_dir: Path, package: str = PACKAGE) -> dict[str, Path]:
    """Every module of the package: dotted name → .py file (a package is its __init__.py)."""
    out: dict[str, Path] = {}
    for path in sorted(package_dir.rglob("*.py")):
        rel = path.relative_to(package_dir).with_suffix("")
        parts = [package, *rel.parts]
        if parts[-1] == "__init__":
            parts.pop()
        if any(not p.isidentifier() for p in parts):
            continue
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


class _Imports(ast.NodeVisitor):
    """Collects (dotted name, names imported from it or None, line, in_function) of one module."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.is_package = is_package
        self.depth = 0
        self.found: list[tuple[str, list[str] | None, int, bool]] = []

    def _base(self, level: int, name: str | None) -> str | None:
        """The absolute name `from <level dots><name>` means in this module."""
        if level == 0:
            return name
        parts = self.module.split(".") if self.is_package else self.module.split(".")[:-1]
        if level - 1 > len(parts) - 1:
            return None  # beyond the top-level package
        parts = parts[:len(parts) - (level - 1)]
        return ".".join(parts + ([name] if name else []))

    def visit_If(self, node: ast.If) -> None:
        if _is_type_checking(node.test):
            for child in node.orelse:
                self.visit(child)
            return
        self.generic_visit(node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.found.append((alias.name, None, node.lineno, self.depth > 0))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = self._base(node.level, node.module)
        if base is not None:
            self.found.append((base, [a.name for a in node.names], node.lineno, self.depth > 0))

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        if name in ("import_module", "__import__") and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and not arg.value.startswith("."):
                self.found.append((arg.value, None, node.lineno, self.depth > 0))
        self.generic_visit(node)


def build_graph(package_dir: Path | None = None, package: str = PACKAGE) -> Graph:
    """The import graph of the package under package_dir (default: this repository's fin_qa/)."""
    package_dir = package_dir or ROOT / package
    modules = find_modules(package_dir, package)
    direct: dict[str, list[Edge]] = {}
    unresolved: list[tuple[str, str, int]] = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        visitor = _Imports(module, path.name == "__init__.py")
        visitor.visit(tree)
        edges: list[Edge] = []
        for base, names, line, in_function in visitor.found:
            if base != package and not base.startswith(package + "."):
                continue
            targets: list[str] = []
            as_attribute = names is None
            for n in names or ():
                if n != "*" and f"{base}.{n}" in modules:
                    targets.append(f"{base}.{n}")   # from pkg import submodule
                else:
                    as_attribute = True              # from module import name
            if as_attribute:
                if base in modules:
                    targets.append(base)
                else:
                    unresolved.append((module, base, line))   # fails at run time: no edge
            edges += [Edge(module, t, line, in_function) for t in targets]
        direct[module] = edges

    # importing a.b.c runs the __init__ of a and a.b first: that matters only if they import fin_qa modules
    importing_inits = {m for m, p in modules.items()
                       if p.name == "__init__.py" and any(e.target != m for e in direct[m])}
    graph = Graph(modules, unresolved=unresolved)
    for module, edges in direct.items():
        for e in edges:
            graph.add(e)
            parts = e.target.split(".")
            for i in range(1, len(parts)):
                parent = ".".join(parts[:i])
                if parent in importing_inits and not (module == parent or module.startswith(parent + ".")):
                    graph.add(Edge(module, parent, e.line, e.in_function))
    return graph


# ------------------------------------------------------------------------------------------ cycles

def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components with more than one module (iterative), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(graph.edges.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop(0)
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.edges.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                comp: list[str] = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    comp.append(m)
                    if m == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return sorted(out)


def _shortest_cycle(graph: Graph, start: str, within: set[str]) -> list[str]:
    """The shortest cycle start -> … -> start inside one component (breadth first)."""
    prev: dict[str, str] = {}
    queue: deque[str] = deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        for nxt in sorted(graph.edges.get(node, ())):
            if nxt not in within:
                continue
            if nxt == start:
                path = [node]
                while path[-1] != start:
                    path.append(prev[path[-1]])
                return [start, *reversed(path[:-1]), start]
            if nxt not in seen:
                seen.add(nxt)
                prev[nxt] = node
                queue.append(nxt)
    return [start, start]


def find_cycles(graph: Graph) -> list[list[str]]:
    """Cycles (first module repeated at the end) that together cover every module of every component."""
    cycles: list[list[str]] = []
    for comp in strongly_connected(graph):
        members, covered = set(comp), set()
        for m in comp:
            if m not in covered:
                cyc = _shortest_cycle(graph, m, members)
                covered.update(cyc)
                cycles.append(cyc)
    return cycles


def describe_cycle(graph: Graph, cycle: list[str]) -> str:
    lines = [" -> ".join(cycle)]
    for a, b in zip(cycle, cycle[1:]):
        lines.append(f"    {a} -> {b}: {graph.where(a, b)}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ layers

def layer_of(module: str, layers: list[tuple[str, list[str]]] = LAYERS) -> int | None:
    """The index (0 = top) of the module's layer: the longest entry naming it; None when none does.

    An entry names a module and everything under it, except a top-level package name (no dot), which
    names only the package's own __init__."""
    best: tuple[int, int] | None = None  # (entry length, layer index)
    for i, (_, entries) in enumerate(layers):
        for entry in entries:
            hit = module == entry or ("." in entry and module.startswith(entry + "."))
            if hit and (best is None or len(entry) > best[0]):
                best = (len(entry), i)
    return None if best is None else best[1]


@dataclass(frozen=True)
class Violation:
    source: str
    target: str
    source_layer: str
    target_layer: str
    where: str

    def __str__(self) -> str:
        return (f"{self.source} ({self.source_layer}) imports {self.target} ({self.target_layer}), "
                f"a higher layer: {self.where}")


def layer_violations(graph: Graph, layers: list[tuple[str, list[str]]] = LAYERS,
                     excluded: frozenset[str] = EXCLUDED) -> list[Violation]:
    """Every import from a module into a module of a higher layer."""
    out: list[Violation] = []
    for source in sorted(graph.edges):
        ls = layer_of(source, layers)
        if ls is None or source in excluded:
            continue
        for target in sorted(graph.edges[source]):
            lt = layer_of(target, layers)
            if lt is None or target in excluded:
                continue
            if lt < ls:
                out.append(Violation(source, target, layers[ls][0], layers[lt][0], graph.where(source, target)))
    return out


def unconstrained(graph: Graph, layers: list[tuple[str, list[str]]] = LAYERS,
                  excluded: frozenset[str] = EXCLUDED) -> list[str]:
    """Modules the layering does not constrain: excluded ones and those no layer names."""
    return sorted(m for m in graph.modules if m in excluded or layer_of(m, layers) is None)


# ------------------------------------------------------------------------------------------ command line

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--root", type=Path, default=ROOT / PACKAGE, help="the package folder (default: fin_qa/)")
    ap.add_argument("--layers", action="store_true", help="also check the layering (LAYERS)")
    ap.add_argument("--edges", action="store_true", help="print every module's imports")
    args = ap.parse_args(argv)
    graph = build_graph(args.root, args.root.name)
    if args.edges:
        for m in sorted(graph.modules):
            print(f"{m}: {', '.join(sorted(graph.edges.get(m, ()))) or '-'}")
        print()
    for module, name, line in graph.unresolved:
        print(f"warning: {module} (line {line}) imports {name}, which is no module of the package")
    cycles = find_cycles(graph)
    print(f"{len(graph.modules)} modules, {sum(map(len, graph.edges.values()))} imports, {len(cycles)} cycle(s)")
    for c in cycles:
        print(describe_cycle(graph, c))
    bad = bool(cycles)
    if args.layers:
        violations = layer_violations(graph)
        print(f"\n{len(violations)} layering violation(s)")
        for v in violations:
            print(f"  {v}")
        free = unconstrained(graph)
        if free:
            print(f"unconstrained (no layer, or excluded): {', '.join(free)}")
        bad = bad or bool(violations)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
