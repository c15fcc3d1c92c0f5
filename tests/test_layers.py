"""The package's layers, and that every import goes one way (docs/architecture.md):

    engine (rules) <- kernels (jitted bot code) <- core <- envs <- agents <- training <- play, cli

A module may import its own layer and the layers below it, never one above, in any import that
runs: at module level or inside a function (imports under ``if TYPE_CHECKING:`` never run and are
not counted).  Within the core no import cycle runs at import time.  The one upward import
allowed is the package facade's lazy ``electrify_env.env`` / ``raw_env`` (the PettingZoo env,
loaded when first asked for).

Gizmos (``electrify_env.gizmos``) is a second game beside Electrify, in the same layers: its rules
engine ``electrify_env.gizmos.engine`` is in the engine layer and imports only numba, numpy and
itself; its core (``game``, ``position``, ``decision``, ``cards``, ``actions``, ``demo``) imports its engine
and, of the rest of the package, only the game-independent core modules of ``SHARED_CORE``; its
env adapters ``electrify_env.gizmos.envs`` are in the envs layer under the same rule.

The game-independent code both games import is ``electrify_env.common``: ``common.engine`` (the
random generator, the offset allocator, the mask helpers) in the engine layer, importing only
numba, numpy and itself; ``common.envs`` (the illegal-action wrapper) in the envs layer,
importing of the package only ``common`` and the ``SHARED_CORE`` modules.  A Gizmos module may
import them as it imports its own layer.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
#: repository folder -> the import name it installs as (pyproject.toml's package-dir)
FOLDERS = {"electrify_env": "electrify_env", "agents": "electrify_env.agents",
           "training": "electrify_env.training"}
LAYERS = ["engine", "kernels", "core", "envs", "agents", "training", "top"]
#: module-name prefix -> layer (longest prefix wins); any other electrify_env module is core
PREFIXES = {"electrify_env.engine": "engine", "electrify_env.gizmos.engine": "engine", "electrify_env.kernels": "kernels",
            "electrify_env.common": "engine", "electrify_env.common.envs": "envs",
            "electrify_env.gizmos.envs": "envs",
            "electrify_env.envs": "envs", "electrify_env.agents": "agents",
            "electrify_env.training": "training", "electrify_env.play": "top",
            "electrify_env.cli": "top"}
#: what the Gizmos engine may import besides itself (top-level package names)
GIZMOS_ENGINE_EXTERNAL = {"__future__", "numba", "numpy"}
#: the game-independent core modules the Gizmos core may import (input checks, paths, YAML,
#: the seat view, the agent base class and resolver)
SHARED_CORE = {"electrify_env.validation", "electrify_env.paths", "electrify_env.yamlio",
               "electrify_env.seatview", "electrify_env.resolver"}
GIZMOS = "electrify_env.gizmos"
GIZMOS_ENGINE = "electrify_env.gizmos.engine"
#: the game-independent code, and its engine part (what every game's engine may import)
COMMON = "electrify_env.common"
COMMON_ENGINE = "electrify_env.common.engine"
ALLOWED_UPWARD = {("electrify_env", "electrify_env.envs"), ("electrify_env", "electrify_env.envs.electrify_v0")}


def layer_of(module: str) -> str:
    best = max((p for p in PREFIXES if module == p or module.startswith(p + ".")), key=len, default=None)
    return PREFIXES[best] if best else "core"


def modules() -> dict[str, Path]:
    out = {}
    for folder, name in FOLDERS.items():
        for path in sorted((REPO / folder).rglob("*.py")):
            rel = path.relative_to(REPO / folder).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            out[".".join([name, *parts])] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or \
        (isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imports(module: str, path: Path) -> list[tuple[int, str, bool]]:
    """``(line, imported module, at module level)`` of every import that can run."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out = []

    def visit(node, top: bool):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                for sub in child.orelse:
                    visit(ast.Module(body=[sub], type_ignores=[]), top)
                continue
            if isinstance(child, ast.Import):
                out.extend((child.lineno, a.name, top) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                subs = [f"{target}.{a.name}" for a in child.names]
                if all(m in MODULES for m in subs):   # ``from . import describe``: those modules
                    out.extend((child.lineno, m, top) for m in subs)
                else:
                    out.append((child.lineno, target, top))
            nested = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, nested)

    visit(tree, True)
    return out


MODULES = modules()


def _ours(name: str) -> str | None:
    """The module of ours that an import names (``electrify_env.game.Game`` -> the module)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def gizmos_violations(module: str, path: Path) -> list[str]:
    """The imports of a Gizmos module that break the Gizmos rules of the module docstring: an
    engine module importing anything but numba, numpy, the Gizmos engine and the shared engine
    pieces (``electrify_env.common.engine``); a Gizmos core module importing a module of the
    package outside Gizmos, ``electrify_env.common`` and ``SHARED_CORE`` (Electrify's engine and
    core, the envs, agents, training, play)."""
    bad = []
    for line, name, _ in imports(module, path):
        if _within(module, GIZMOS_ENGINE):
            if not (_within(name, GIZMOS_ENGINE) or _within(name, COMMON_ENGINE)
                    or name.split(".")[0] in GIZMOS_ENGINE_EXTERNAL):
                bad.append(f"{path}:{line}: Gizmos engine module {module} imports {name}")
        elif _within(module, GIZMOS) and _within(name, "electrify_env") and not _within(name, GIZMOS) \
                and not _within(name, COMMON):
            target = _ours(name) or name
            if target not in SHARED_CORE:
                bad.append(f"{path}:{line}: Gizmos core module {module} imports {target}")
    return bad


def common_violations(module: str, path: Path) -> list[str]:
    """The imports of a module of ``electrify_env.common`` that could reach a game: a
    ``common.engine`` module importing anything but numba, numpy, typing and ``common.engine``;
    any other ``common`` module importing a module of the package outside ``common`` and
    ``SHARED_CORE``."""
    bad = []
    for line, name, _ in imports(module, path):
        if _within(module, COMMON_ENGINE):
            if not (_within(name, COMMON_ENGINE) or name.split(".")[0] in GIZMOS_ENGINE_EXTERNAL | {"typing"}):
                bad.append(f"{path}:{line}: shared engine module {module} imports {name}")
        elif _within(name, "electrify_env") and not _within(name, COMMON) and (_ours(name) or name) not in SHARED_CORE:
            bad.append(f"{path}:{line}: shared module {module} imports {_ours(name) or name}")
    return bad


def test_every_module_is_in_a_layer_and_the_layers_are_visible_in_the_tree():
    assert {layer_of(m) for m in MODULES} == set(LAYERS)
    for folder in ("engine", "kernels", "render", "envs", "play", "gizmos", "gizmos/engine",
                   "common", "common/engine", "common/envs"):
        assert (REPO / "electrify_env" / folder / "__init__.py").is_file()
    assert layer_of(GIZMOS_ENGINE + ".gz_step") == "engine"
    assert layer_of(GIZMOS + ".game") == "core"
    assert layer_of(COMMON_ENGINE + ".rng") == "engine"
    assert layer_of(COMMON + ".envs.wrappers") == "envs"


def test_gizmos_engine_and_core_import_only_what_their_layer_allows():
    gizmos = [m for m in MODULES if _within(m, GIZMOS)]
    assert any(_within(m, GIZMOS_ENGINE) for m in gizmos) and GIZMOS + ".game" in gizmos
    bad = [v for m in gizmos for v in gizmos_violations(m, MODULES[m])]
    assert not bad, "Gizmos imports outside their layer:\n" + "\n".join(bad)


def test_the_shared_code_imports_no_game():
    """``electrify_env.common`` (what both games import) reaches no game's engine or core: its
    engine part imports only numba, numpy and itself, the rest only ``common`` and the
    ``SHARED_CORE`` modules; and both engines do import it."""
    common = [m for m in MODULES if _within(m, COMMON)]
    assert {COMMON_ENGINE + ".rng", COMMON_ENGINE + ".layouts", COMMON_ENGINE + ".legal",
            COMMON + ".envs.wrappers"} <= set(common)
    bad = [v for m in common for v in common_violations(m, MODULES[m])]
    assert not bad, "shared modules importing a game:\n" + "\n".join(bad)
    users = {_ours(name) for m in (GIZMOS_ENGINE + ".gz_setup", "electrify_env.engine.setup")
             for _, name, _ in imports(m, MODULES[m])}
    assert COMMON_ENGINE + ".rng" in users


def test_no_import_runs_against_the_layers():
    bad = []
    for module, path in MODULES.items():
        mine = LAYERS.index(layer_of(module))
        for line, name, _ in imports(module, path):
            target = _ours(name)
            if target is None or (module, target) in ALLOWED_UPWARD:
                continue
            if LAYERS.index(layer_of(target)) > mine:
                bad.append(f"{path.relative_to(REPO)}:{line}: {layer_of(module)} module {module} "
                           f"imports {target} ({layer_of(target)})")
    assert not bad, "imports against the layers:\n" + "\n".join(bad)


def test_the_core_has_no_import_cycle():
    graph = {m: set() for m in MODULES if layer_of(m) == "core"}
    for module in graph:
        for _, name, top in imports(module, MODULES[module]):
            target = _ours(name)
            if top and target in graph and target != module and target != "electrify_env":
                graph[module].add(target)
    seen, stack, cycles = set(), [], []

    def walk(m):
        if m in stack:
            cycles.append(stack[stack.index(m):] + [m])
            return
        if m in seen:
            return
        seen.add(m)
        stack.append(m)
        for n in sorted(graph[m]):
            walk(n)
        stack.pop()

    for m in sorted(graph):
        walk(m)
    assert not cycles, "import cycles in the core: " + "; ".join(" -> ".join(c) for c in cycles)


@pytest.mark.parametrize("src, expect", [
    ("from ..agents import make_agent", "electrify_env.agents"),
    ("def f():\n    from electrify_env.training.selfplay import train", "electrify_env.training.selfplay"),
])
def test_the_check_sees_relative_and_function_level_imports(tmp_path, src, expect):
    """The checker itself: a relative import and one inside a function are both found."""
    path = tmp_path / "x.py"
    path.write_text(src)
    found = [name for _, name, _ in imports("electrify_env.envs.x", path)]
    assert expect in found


@pytest.mark.parametrize("module, src, flagged", [
    ("electrify_env.gizmos.engine.gz_x", "from numba import njit\nimport numpy as np\nfrom .gz_layout import S_CUR", False),
    ("electrify_env.gizmos.engine.gz_x", "from electrify_env.engine.layout import S_RNG", True),
    ("electrify_env.gizmos.engine.gz_x", "from ...common.engine.rng import rng_next", False),
    ("electrify_env.gizmos.engine.gz_x", "from ...common.envs.wrappers import TerminateIllegalAction", True),
    ("electrify_env.gizmos.engine.gz_x", "def f():\n    from ..game import Game", True),
    ("electrify_env.gizmos.engine.gz_x", "import torch", True),
    ("electrify_env.gizmos.x", "from ..validation import as_int\nfrom .engine import gz_layout", False),
    ("electrify_env.gizmos.x", "from ..engine.layout import S_CUR", True),
    ("electrify_env.gizmos.x", "from ..common.engine.layouts import layout_tables", False),
    ("electrify_env.gizmos.x", "from ..game import Game", True),
    ("electrify_env.gizmos.x", "from electrify_env.agents import make_agent", True),
])
def test_the_gizmos_check_flags_imports_outside_its_rules(tmp_path, module, src, flagged):
    """The Gizmos checker itself: an engine importing another engine, the core, a library other
    than numba and numpy, or a Gizmos core module importing Electrify or a layer above is found."""
    path = tmp_path / (module.rsplit(".", 1)[1] + ".py")
    path.write_text(src)
    assert bool(gizmos_violations(module, path)) is flagged


@pytest.mark.parametrize("module, src, flagged", [
    ("electrify_env.common.engine.x", "from numba import njit\nfrom .rng import mix32", False),
    ("electrify_env.common.engine.x", "from electrify_env.engine.layout import S_RNG", True),
    ("electrify_env.common.engine.x", "from ...validation import MAX_SEED", True),
    ("electrify_env.common.engine.x", "import gymnasium", True),
    ("electrify_env.common.envs.x", "import gymnasium\nfrom ...validation import check_float", False),
    ("electrify_env.common.envs.x", "from ..engine.legal import pick_legal", False),
    ("electrify_env.common.envs.x", "def f():\n    from ...gizmos.game import Game", True),
    ("electrify_env.common.envs.x", "from ...envs import seat", True),
])
def test_the_shared_code_check_flags_imports_of_a_game(tmp_path, module, src, flagged):
    """The checker of ``electrify_env.common`` itself: a shared engine module importing a game's
    engine, the core or a library other than numba and numpy, or a shared envs module importing
    a game (Gizmos, Electrify's envs) is found."""
    path = tmp_path / (module.rsplit(".", 1)[1] + ".py")
    path.write_text(src)
    assert bool(common_violations(module, path)) is flagged


#: the shared core modules that import no game's code (``electrify_env.validation`` reads
#: Electrify's layout and seed bound, so it is not among them)
GAME_FREE = {"electrify_env.seatview", "electrify_env.resolver"}


def test_the_game_free_core_modules_import_only_each_other():
    """The game-free core modules (``GAME_FREE``: the seat view, the agent base class and
    resolver) import no other module of the package: every game's package may
    build on them without reaching Electrify's engine or core."""
    assert GAME_FREE <= SHARED_CORE
    bad = []
    for module in sorted(GAME_FREE):
        for line, name, _ in imports(module, MODULES[module]):
            target = _ours(name)
            if target is not None and target not in GAME_FREE and target != "electrify_env":
                bad.append(f"{MODULES[module].relative_to(REPO)}:{line}: {module} imports {target}")
    assert not bad, "shared core modules importing game code:\n" + "\n".join(bad)


#: the shared layers: the modules every game is played through (agents, training, envs, play, the
#: command line, the parallel runner, the game registry, the seat view and agent resolver) and the
#: game-independent code every game imports (``electrify_env.common``)
SHARED_LAYERS = ("electrify_env.agents", "electrify_env.training", "electrify_env.envs",
                 "electrify_env.play", "electrify_env.cli", "electrify_env.parallel",
                 "electrify_env.games", "electrify_env.resolver", "electrify_env.seatview",
                 "electrify_env.common")
#: the game packages besides Electrify's core (a shared layer reaches them only through the import
#: paths written as strings in electrify_env/games.py)
GAME_PACKAGES = (GIZMOS,)
#: (shared module, imported game module) pairs that remain, each with its reason
KNOWN_GAME_IMPORTS: dict[tuple[str, str], str] = {}


def game_package_imports(module: str, path: Path) -> list[tuple[int, str]]:
    """``(line, imported module)`` of every import of a game package (``GAME_PACKAGES``) that
    ``module`` can run."""
    return [(line, name) for line, name, _ in imports(module, path)
            if any(_within(name, g) for g in GAME_PACKAGES)]


def test_no_shared_layer_imports_a_game_package():
    """The agents, training, envs, play, cli, parallel and registry modules import no game
    package (``electrify_env.gizmos...``): the registry and the agent registry reach a game only
    by the import paths of its GameDef (``module``, ``bots``), so adding a game is adding its
    package and its GameDef."""
    shared = [m for m in MODULES if any(_within(m, p) for p in SHARED_LAYERS)]
    assert {"electrify_env.agents.registry", "electrify_env.agents.arena", "electrify_env.cli",
            "electrify_env.games"} <= set(shared)
    bad, used = [], set()
    for module in shared:
        for line, name in game_package_imports(module, MODULES[module]):
            key = (module, _ours(name) or name)
            if key in KNOWN_GAME_IMPORTS:
                used.add(key)
                continue
            bad.append(f"{MODULES[module].relative_to(REPO)}:{line}: {module} imports {name}")
    assert not bad, "shared layers importing a game package:\n" + "\n".join(bad)
    assert used == set(KNOWN_GAME_IMPORTS), f"stale KNOWN_GAME_IMPORTS: {set(KNOWN_GAME_IMPORTS) - used}"


@pytest.mark.parametrize("src, flagged", [
    ("from electrify_env.gizmos.game import Game", True),
    ("def f():\n    from ..gizmos import bots", True),
    ("import electrify_env.gizmos.engine.gz_layout as L", True),
    ("from importlib import import_module\nG = import_module('electrify_env.gizmos.game')", False),
    ("from electrify_env.games import get_game", False),
])
def test_the_game_package_check_sees_every_import_form(tmp_path, src, flagged):
    """The checker itself: module-level, relative and function-level imports of a game package are
    found; an import path held as a string (the registry's way) is not an import."""
    path = tmp_path / "x.py"
    path.write_text(src)
    assert bool(game_package_imports("electrify_env.agents.x", path)) is flagged
