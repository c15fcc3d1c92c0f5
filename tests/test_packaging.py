"""A non-editable install (a wheel) carries the data the code reads, and finds it.

``configs/`` and ``policies/`` are top-level folders of the repository, outside every package.
``setup.py`` copies them into the wheel as ``electrify_env/_data/``; ``electrify_env.paths``
resolves the data folder (the repository in a checkout or an editable install, the copy in an
installed wheel).  The wheel is built from a copy of the sources (the repository itself is never
written to) and installed into a temporary folder; fresh interpreters whose working folder and
import path lie outside the repository then load the data from it and (slow: the copy compiles
its own engine) play a seeded game.
"""
from __future__ import annotations

import json
import os
import re
import runpy
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from electrify_env.agents import greedy, registry
from electrify_env import paths, yamlio
from electrify_env.cards import loader
from electrify_env.scenarios import SCENARIOS_DIR, list_scenarios

REPO = Path(__file__).resolve().parents[1]
DATA = f"electrify_env/{paths.DATA_SUBDIR}"
# what a build needs from the repository (pyproject.toml names README.md as the readme)
BUILD_INPUTS = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md",
                "electrify_env", "agents", "training", "configs", "policies")
SKIP_IN_COPY = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.nbi", "*.nbc", "*.egg-info",
                                      "build", paths.DATA_SUBDIR)
PIP_ENV = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}
SEED = 11

# run in the installed copy: where everything comes from (no engine call: nothing compiles)
PROBE_DATA = """
import json
import electrify_env
import electrify_env.agents as agents
from electrify_env.agents import AGENTS
from electrify_env.agents.greedy import DEFAULT_WEIGHTS, load_weights
from electrify_env.agents.registry import POLICY_DIR
from electrify_env import paths
from electrify_env.cards import load_card_set
from electrify_env.scenarios import list_scenarios, load_scenario

cards = load_card_set(tech_packs=[paths.CONFIGS_DIR / "cards" / "tech_grid.yaml"])
load_weights()
print(json.dumps({
    "electrify_env": electrify_env.__file__, "agents": agents.__file__,
    "data_root": str(paths.DATA_ROOT), "cards": [str(p) for p in cards.paths],
    "weights": str(DEFAULT_WEIGHTS), "policies": str(POLICY_DIR),
    "scenarios": {s: str(load_scenario(s).path) for s in list_scenarios()},
    "registered": sorted(AGENTS), "card_set_hash": load_card_set().hash,
}))
"""
# run in the installed copy: one seeded game, greedy against the shipped 2-player policy
PROBE_GAME = """
import json
import electrify_env
from electrify_env.agents import make_agent
from electrify_env.game import Game

game = Game(n_players=2, seed=%(seed)d)
players = [make_agent("greedy"), make_agent("trained_2p")]
for seat, agent in enumerate(players):
    agent.reset(seat)
while not game.is_terminal:
    game.step(players[game.current_player].act_in(game))
print(json.dumps({"electrify_env": electrify_env.__file__, "scores": [int(x) for x in game.scores()],
                  "decisions": len(game.history)}))
"""

def _run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None,
         timeout: float = 300) -> subprocess.CompletedProcess:
    """Run ``cmd``; fail the test with its output if it exits non-zero."""
    full = {**os.environ, **PIP_ENV, **(env or {})}
    out = subprocess.run(cmd, cwd=cwd, env=full, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, f"{cmd} exited {out.returncode}:\n{out.stdout[-3000:]}\n{out.stderr[-3000:]}"
    return out


def _expected_data() -> set[str]:
    """The data files the wheel must hold, named as in the repository (``configs/...``)."""
    want = {"configs/cards/base.yaml", "configs/agents/greedy.yaml", "policies/README.md",
            "policies/electrify-2p.pt", "policies/electrify-2p.meta.json"}
    want |= {f"configs/scenarios/{s}.yaml" for s in list_scenarios()}
    want |= {f"configs/cards/{p.name}" for p in (REPO / "configs" / "cards").glob("tech_*.yaml")}
    want |= {f"configs/{p.name}" for p in (REPO / "configs").glob("*.yaml")}   # training configs
    for name in registry.SHIPPED.values():
        if (REPO / "policies" / name).is_file():
            want |= {f"policies/{name}", f"policies/{name[:-3]}.meta.json"}
    want |= {f"policies/{p.name}" for p in (REPO / "policies").glob("electrify-*.md")}   # model cards
    return want


# ---- the resolver ---------------------------------------------------------------------------

def test_a_source_checkout_reads_the_repository_folders():
    """Here (a checkout, as an editable install is) every data path points into the repository,
    so edits to configs/ and policies/ take effect without reinstalling."""
    assert paths.is_source_checkout()
    assert paths.DATA_ROOT == REPO
    assert SCENARIOS_DIR == REPO / "configs" / "scenarios"
    assert loader.DEFAULT_CARDS_DIR == REPO / "configs" / "cards"
    assert loader.DEFAULT_CARD_SET == REPO / "configs" / "cards" / "base.yaml"
    assert greedy.DEFAULT_WEIGHTS == REPO / "configs" / "agents" / "greedy.yaml"
    assert registry.POLICY_DIR == REPO / "policies"
    assert yamlio.REPO_ROOT == loader.REPO_ROOT == REPO
    assert not (REPO / DATA).exists(), f"{DATA} must never exist in the source tree"


def test_an_installed_copy_reads_the_data_inside_the_package(tmp_path):
    """Without ``configs/cards/`` beside the package (site-packages), the data root is the copy
    inside the package; with it (a checkout), the folder above the package."""
    site = tmp_path / "site"
    package = site / "electrify_env"
    package.mkdir(parents=True)
    (site / "configs").mkdir()            # some other distribution's top-level folder is not ours
    assert not paths.is_source_checkout(site)
    assert paths.data_root(site, package) == package / paths.DATA_SUBDIR
    (site / "configs" / "cards").mkdir()
    assert paths.is_source_checkout(site)
    assert paths.data_root(site, package) == site


def test_no_module_finds_data_by_walking_up_from_its_own_file():
    """One resolver: no module of the installed packages builds a data path from its own
    location (``Path(__file__).resolve().parents[k]`` / "configs") instead of electrify_env.paths."""
    walk_up = re.compile(r"parents\[\d+\]|/ \"(configs|policies)\"")
    found = []
    for package in ("electrify_env", "agents", "training"):      # the folders of the one package
        for path in sorted((REPO / package).rglob("*.py")):
            if path == REPO / "electrify_env" / "paths.py":
                continue
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if walk_up.search(line) and not line.lstrip().startswith("#"):
                    found.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert not found, "data paths built outside electrify_env/paths.py:\n" + "\n".join(found)


def test_a_build_without_its_data_folders_fails_naming_the_folder(tmp_path):
    """A tree without configs/ (an sdist made without MANIFEST.in) must not build a wheel that
    installs but cannot run."""
    setup = runpy.run_path(str(REPO / "setup.py"), run_name="setup_under_test")
    assert {str(p) for p in setup["shipped_files"](REPO)} >= _expected_data()
    shutil.copytree(REPO / "policies", tmp_path / "policies")
    with pytest.raises(setup["SetupError"], match=r"configs: no files matching \*\*/\*\.yaml"):
        setup["shipped_files"](tmp_path)


# ---- the wheel ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built offline (``pip wheel --no-deps --no-build-isolation --no-index``) from a copy
    of the build inputs, so the build writes nothing into the repository."""
    root = tmp_path_factory.mktemp("packaging")
    src = root / "src"
    src.mkdir()
    for name in BUILD_INPUTS:
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, src / name, ignore=SKIP_IN_COPY)
        else:
            shutil.copy2(REPO / name, src / name)
    _run([sys.executable, "-m", "pip", "wheel", str(src), "--no-deps", "--no-build-isolation",
          "--no-index", "-q", "-w", str(root / "dist")], cwd=root)
    (found,) = (root / "dist").glob("electrify_env-*.whl")
    return found


def test_the_wheel_ships_configs_and_policies_inside_the_package(wheel):
    """Cards, tech packs, the eight scenarios, greedy weights, training configs and the shipped
    policies are in the wheel under electrify_env/_data/; the web app's static files still are."""
    names = set(zipfile.ZipFile(wheel).namelist())
    data = {n[len(DATA) + 1:] for n in names if n.startswith(DATA + "/")}
    want = _expected_data()
    assert len([n for n in want if n.startswith("configs/scenarios/")]) == 8
    assert want <= data, f"missing from {wheel.name}: {sorted(want - data)}"
    assert not any(n.startswith(("configs/", "policies/")) for n in names), "data outside the package"
    assert "electrify_env/play/static/index.html" in names


def test_the_wheel_installs_one_import_package(wheel):
    """The wheel's only top-level import name is ``electrify_env``: the repository's ``agents/``
    and ``training/`` folders are its subpackages ``electrify_env.agents`` and
    ``electrify_env.training``, never top-level packages that a user's own would clash with."""
    names = zipfile.ZipFile(wheel).namelist()
    top = {n.split("/")[0] for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    assert top == {"electrify_env"}, f"top-level names in {wheel.name}: {sorted(top)}"
    assert "electrify_env/agents/registry.py" in names and "electrify_env/training/selfplay.py" in names
    (record,) = [n for n in names if n.endswith(".dist-info/top_level.txt")] or [None]
    if record:
        assert zipfile.ZipFile(wheel).read(record).decode().split() == ["electrify_env"]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> dict:
    """The wheel installed with ``pip install --target SITE``, and the environment and working
    folder of an interpreter that sees only that copy: ``PYTHONPATH=SITE``, a working folder
    outside the repository, numba's caches in a temporary folder."""
    root = tmp_path_factory.mktemp("installed")
    site = root / "site"
    _run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", str(site),
          str(wheel)], cwd=root)
    work = root / "elsewhere"
    work.mkdir()
    env = {"PYTHONPATH": str(site), "NUMBA_CACHE_DIR": str(root / "numba")}
    return {"site": site, "work": work, "env": env}


def _probe(installed: dict, script: str, timeout: float = 300) -> dict:
    """Run ``script`` in the installed copy; its last output line, parsed as JSON."""
    out = _run([sys.executable, "-c", script], cwd=installed["work"], env=installed["env"], timeout=timeout)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    package = (installed["site"] / "electrify_env" / "__init__.py").resolve()
    assert Path(got["electrify_env"]).resolve() == package, "imported the repository, not the wheel"
    return got


def test_an_installed_wheel_finds_its_data_without_the_repository(installed):
    """Cards, tech packs, scenarios, greedy weights and the shipped policies all come from the
    installed copy's electrify_env/_data/, and ``electrify agents`` lists ``trained_2p``."""
    got = _probe(installed, PROBE_DATA)
    site = installed["site"].resolve()
    data = site / DATA
    assert Path(got["agents"]).resolve().is_relative_to(site)
    assert Path(got["data_root"]).resolve() == data
    assert [Path(p).resolve() for p in got["cards"]] == [data / "configs" / "cards" / "base.yaml",
                                                        data / "configs" / "cards" / "tech_grid.yaml"]
    assert Path(got["weights"]).resolve() == data / "configs" / "agents" / "greedy.yaml"
    assert Path(got["policies"]).resolve() == data / "policies"
    assert sorted(got["scenarios"]) == sorted(list_scenarios())
    assert all(Path(p).resolve().parent == data / "configs" / "scenarios" for p in got["scenarios"].values())
    assert {"greedy", "trained_2p", "trained_3p", "trained_4p", "trained_solo"} <= set(got["registered"])
    assert got["card_set_hash"] == loader.load_card_set().hash

    listing = _run([sys.executable, "-m", "electrify_env.cli", "agents"], cwd=installed["work"],
                   env=installed["env"])
    assert re.search(r"^trained_2p: .*policies/electrify-2p\.pt", listing.stdout, re.M), listing.stdout


@pytest.mark.slow
def test_an_installed_wheel_plays_a_seeded_game_against_trained_2p(installed):
    """The installed copy compiles its own engine and plays seeded greedy vs ``trained_2p`` to
    the same end as this checkout (same cards, weights and policy).  Slow: the fresh copy
    compiles the whole engine (about 45 s on 2 busy cores)."""
    got = _probe(installed, PROBE_GAME % {"seed": SEED}, timeout=600)

    from electrify_env.agents import make_agent
    from electrify_env.game import Game
    game = Game(n_players=2, seed=SEED)
    players = [make_agent("greedy"), make_agent("trained_2p")]
    for seat, agent in enumerate(players):
        agent.reset(seat)
    while not game.is_terminal:
        game.step(players[game.current_player].act_in(game))
    assert (got["scores"], got["decisions"]) == ([int(x) for x in game.scores()], len(game.history))


# run in the installed copy from a folder with its own agents/ and training/ packages
PROBE_CLASH = """
import json, agents, training
import gymnasium as gym
import electrify_env
from electrify_env.agents import make_agent
env = gym.make("Electrify-v0", opponents="greedy")
obs, info = env.reset(seed=3)
print(json.dumps({"electrify_env": electrify_env.__file__, "user_agents": agents.MINE,
                  "user_training": training.MINE, "agent": type(make_agent("greedy")).__name__}))
"""


def test_an_installed_wheel_works_beside_a_users_own_agents_and_training_packages(installed):
    """A project with its own top-level ``agents`` and ``training`` packages imports its own, and
    the installed package still builds its opponents and lists its agents."""
    pytest.importorskip("gymnasium")
    work = installed["work"] / "user_project"
    for name in ("agents", "training"):
        (work / name).mkdir(parents=True, exist_ok=True)
        (work / name / "__init__.py").write_text(f"MINE = {name!r}\n")
    out = _run([sys.executable, "-c", PROBE_CLASH], cwd=work, env=installed["env"], timeout=600)
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(got["electrify_env"]).resolve() == (installed["site"] / "electrify_env" / "__init__.py").resolve()
    assert (got["user_agents"], got["user_training"], got["agent"]) == ("agents", "training", "GreedyAgent")
    listing = _run([sys.executable, "-m", "electrify_env.cli", "agents"], cwd=work, env=installed["env"])
    assert re.search(r"^greedy: ", listing.stdout, re.M), listing.stdout


def test_every_subpackage_folder_is_in_the_wheel_package_list():
    """A folder with an ``__init__.py`` under ``electrify_env/``, ``agents/`` or ``training/`` that
    pyproject's package list misses would be left out of the wheel (its imports fail installed)."""
    import tomllib

    cfg = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed = set(cfg["packages"])
    roots = {"electrify_env": "electrify_env", "agents": "electrify_env.agents", "training": "electrify_env.training"}
    missing = []
    for folder, name in roots.items():
        for init in sorted((REPO / folder).rglob("__init__.py")):
            rel = init.parent.relative_to(REPO / folder).parts
            if "__pycache__" in rel:
                continue
            pkg = ".".join((name, *rel))
            if pkg not in listed:
                missing.append(pkg)
    assert not missing, f"packages missing from pyproject.toml [tool.setuptools] packages: {missing}"
