"""The package's import structure: no module import cycles, and imports only go down the layers.

The graph and the checks live in scripts/import_graph.py (run it by hand: `python
scripts/import_graph.py --layers`); the first tests here check the checker on small made-up packages.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "scripts" / "import_graph.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module   # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


ig = _load_script()


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    """A package `pkg` under tmp_path made of {relative path: source}."""
    root = tmp_path / "pkg"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


# ------------------------------------------------------------------------------------------ the checker

def test_imports_are_resolved_like_python_does(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "class PkgError(Exception): ...\n",
        "leaf.py": "import os\nfrom . import PkgError\n",
        "a/__init__.py": '"""docstring only"""\n',
        "a/x.py": "from .y import f\nfrom ..leaf import PkgError\n",
        "a/y.py": "def f():\n    from . import z\n    return z\n",
        "a/z.py": "import pkg.leaf\n",
        "b/__init__.py": "from . import c\n",          # a package __init__ that imports its submodule
        "b/c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n",
        "d.py": "from pkg.a import x, y\nfrom pkg.b.c import *\nimport importlib\n"
                "m = importlib.import_module('pkg.a.z')\n",
    })
    g = ig.build_graph(root, "pkg")
    assert set(g.modules) == {"pkg", "pkg.leaf", "pkg.a", "pkg.a.x", "pkg.a.y", "pkg.a.z", "pkg.b", "pkg.b.c", "pkg.d"}
    assert g.edges["pkg.leaf"] == {"pkg"}                   # from . import NAME: the package's own __init__
    assert g.edges["pkg.a.x"] == {"pkg.a.y", "pkg.leaf"}    # relative, one and two levels
    assert g.edges["pkg.a.y"] == {"pkg.a.z"}                # inside a function; from . import SUBMODULE
    assert g.edges["pkg.a.z"] == {"pkg.leaf"}               # no edge to the docstring-only pkg.a
    assert g.edges["pkg.b"] == {"pkg.b.c"}                  # from . import X in an __init__
    assert "pkg.b.c" not in g.edges                         # TYPE_CHECKING imports are not dependencies
    # the submodules named, pkg.b.c itself, pkg.b whose __init__ imports, and the import_module literal
    assert g.edges["pkg.d"] == {"pkg.a.x", "pkg.a.y", "pkg.b.c", "pkg.b", "pkg.a.z"}
    assert [s.in_function for s in g.sites[("pkg.a.y", "pkg.a.z")]] == [True]
    assert ig.find_cycles(g) == []


def test_cycles_are_found_and_printed_as_paths(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "",
        "a.py": "from . import b\n",
        "b.py": "def f():\n    from .c import g\n",
        "c.py": "from pkg import a\n",
        "d.py": "from .e import x\n",
        "e.py": "x = 1\ndef f():\n    import pkg.d\n",
        "f.py": "from . import a\n",                              # reaches a cycle, is in none
        "missing.py": "from .gone import thing\n",
    })
    g = ig.build_graph(root, "pkg")
    assert ig.strongly_connected(g) == [["pkg.a", "pkg.b", "pkg.c"], ["pkg.d", "pkg.e"]]
    cycles = ig.find_cycles(g)
    assert cycles == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"], ["pkg.d", "pkg.e", "pkg.d"]]
    text = ig.describe_cycle(g, cycles[0])
    assert text.splitlines()[0] == "pkg.a -> pkg.b -> pkg.c -> pkg.a"
    assert "b.py:2 (in a function)" in text
    assert g.unresolved == [("pkg.missing", "pkg.gone", 1)]


def test_layers_allow_down_and_sideways_never_up(tmp_path: Path) -> None:
    root = _package(tmp_path, {
        "__init__.py": "class PkgError(Exception): ...\n",
        "top.py": "from .mid import m\nfrom . import PkgError\n",
        "mid/__init__.py": "",
        "mid/m.py": "from . import n\nfrom .. import other\n",
        "mid/n.py": "from pkg import PkgError\nfrom pkg.top import x\n",   # upward
        "other.py": "from pkg.mid import m\n",                             # unconstrained
        "low.py": "from . import free\n",
        "free.py": "from . import top\n",                                  # excluded
    })
    layers = [("top", ["pkg.top"]), ("mid", ["pkg.mid"]), ("low", ["pkg", "pkg.low"])]
    g = ig.build_graph(root, "pkg")
    assert ig.layer_of("pkg", layers) == 2
    assert ig.layer_of("pkg.mid.n", layers) == 1
    assert ig.layer_of("pkg.other", layers) is None   # the bare package name is only its __init__
    bad = ig.layer_violations(g, layers, frozenset({"pkg.free"}))
    assert [(v.source, v.target) for v in bad] == [("pkg.mid.n", "pkg.top")]
    assert "pkg.mid.n (mid) imports pkg.top (top), a higher layer: " in str(bad[0])
    assert ig.unconstrained(g, layers, frozenset({"pkg.free"})) == ["pkg.free", "pkg.other"]


# ------------------------------------------------------------------------------------------ fin_qa itself

GRAPH = ig.build_graph()


def test_no_import_cycles() -> None:
    cycles = ig.find_cycles(GRAPH)
    assert not cycles, "import cycles (break them; a function-level import does not):\n" + "\n".join(
        ig.describe_cycle(GRAPH, c) for c in cycles)


def test_imports_go_down_the_layers() -> None:
    bad = ig.layer_violations(GRAPH)
    assert not bad, "imports from a lower layer into a higher one (see LAYERS in scripts/import_graph.py):\n" + \
        "\n".join(str(v) for v in bad)


def test_the_script_runs_by_hand() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "import_graph.py"), "--layers"],
                          capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    assert "cycle(s)" in done.stdout and "layering violation(s)" in done.stdout
    cycles, violations = ig.find_cycles(GRAPH), ig.layer_violations(GRAPH)
    assert done.returncode == (1 if cycles or violations else 0)
