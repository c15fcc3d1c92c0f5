"""Where numba's compiled engine code is cached, and that it never goes stale.

numba keys a cached function on its own source file only, but the engine's functions read
constants from ``layout.py`` and call each other across files.  ``electrify_env._numba_cache``
gives every engine function a cache locator whose source stamp is a hash of *all* engine sources,
wherever the cache lives (``__pycache__``, a user-set ``NUMBA_CACHE_DIR`` or the private per-user
fallback), and never uses a shared, world-writable folder.
"""
from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from electrify_env import _numba_cache as NC

REPO = Path(__file__).resolve().parents[1]
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"),
                           reason="POSIX permissions and the XDG cache folder")

PROBE = """
import electrify_env
from electrify_env import Game, _numba_cache
from electrify_env.engine import layout as L
g = Game(n_players=2, seed=0)
print(electrify_env.__file__)
print(_numba_cache.cache_folder())
print(int(g.state[L.S_PLAYERS + L.P_DEPOT + 0]))
"""


def _copy_package(root: Path) -> Path:
    """A copy of the package and the configs it reads (``<root>/configs``), without caches."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(REPO / "electrify_env", root / "electrify_env", ignore=ignore)
    shutil.copytree(REPO / "configs", root / "configs", ignore=ignore)
    return root


def _probe(root: Path, env: dict[str, str]) -> tuple[Path, Path, int]:
    """Run PROBE in a fresh process on the copy in ``root``: (package file, cache folder, the
    fossil cubes player 0 starts with)."""
    full = {k: v for k, v in os.environ.items()
            if k not in ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "NUMBA_CACHE_LOCATOR_CLASSES")}
    full.update(PYTHONPATH=str(root), **env)
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=root, env=full, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    pkg, folder, fossil = out.stdout.strip().splitlines()[-3:]
    return Path(pkg), Path(folder), int(fossil)


def _set_start_fossil(root: Path, n: int) -> None:
    layout = root / "electrify_env" / "engine" / "layout.py"
    text = layout.read_text()
    old = next(line for line in text.splitlines() if line.startswith("START_FOSSIL = "))
    layout.write_text(text.replace(old, f"START_FOSSIL = {n}  # edited by the test", 1))


@pytest.mark.parametrize("where", [
    "numba_cache_dir",
    # same locator, other folders (~30 s each on a busy 2-core machine)
    pytest.param("user_fallback", marks=pytest.mark.slow),
    pytest.param("pycache", marks=pytest.mark.slow),
])
def test_an_edited_engine_constant_takes_effect_wherever_the_cache_lives(tmp_path, where):
    """Compile in a copy of the package, edit ``START_FOSSIL`` in ``layout.py`` (a file other
    than the one that uses it, ``setup.py``), run again: the new value is played.  Before the
    fix the cache under ``NUMBA_CACHE_DIR`` and in the read-only fallback kept the old code."""
    root = _copy_package(tmp_path / "pkg")
    env = {"HOME": str(tmp_path / "home")}
    if where == "numba_cache_dir":
        env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba_cache")
    elif where == "user_fallback":
        # a package whose __pycache__ cannot be created, as on a read-only install
        (root / "electrify_env" / "engine" / "__pycache__").write_text("not a folder")
        env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    pkg, folder, fossil = _probe(root, env)
    assert pkg == root / "electrify_env" / "__init__.py"
    assert fossil == 6
    expected_parent = {"numba_cache_dir": tmp_path / "numba_cache",
                       "user_fallback": tmp_path / "xdg" / "electrify_env" / "numba",
                       "pycache": root / "electrify_env" / "engine"}[where]
    assert folder.parent == expected_parent
    assert any(folder.glob("setup.init_state-*.nbi")), "the first run cached nothing"

    _set_start_fossil(root, 5)
    assert _probe(root, env) == (pkg, folder, 5)


# ---- the keying logic, without compiling ------------------------------------------------------
def test_engine_functions_use_the_all_sources_locator():
    """Every cached engine and kernel function in this process is located by
    EngineCacheLocator, whose source stamp is the hash of all their sources (not numba's
    per-file stamp)."""
    from electrify_env.engine import setup, step
    from electrify_env.kernels import search

    digest = NC.engine_source_digest()
    for fn in (setup.init_state, step.apply_action, search.paired_search):
        locator = fn._cache._impl.locator
        assert isinstance(locator, NC.EngineCacheLocator), type(locator)
        assert locator.get_source_stamp() == NC.STAMP_PREFIX + digest
        assert Path(locator.get_cache_path()) == NC.cache_folder()


def test_the_locator_claims_only_engine_files(tmp_path):
    """Functions outside the engine (other packages, user code) keep numba's own locators."""
    def f():
        return 1

    assert NC.EngineCacheLocator.from_function(f, str(tmp_path / "user_code.py")) is None
    assert NC.EngineCacheLocator.from_function(f, str(REPO / "electrify_env" / "game.py")) is None
    loc = NC.EngineCacheLocator.from_function(f, str(NC.ENGINE_DIR / "setup.py"))
    assert isinstance(loc, NC.EngineCacheLocator)
    loc = NC.EngineCacheLocator.from_function(f, str(NC.KERNELS_DIR / "search.py"))
    assert isinstance(loc, NC.EngineCacheLocator)
    loc = NC.EngineCacheLocator.from_function(f, str(NC.GIZMOS_ENGINE_DIR / "gz_pay.py"))
    assert isinstance(loc, NC.EngineCacheLocator)


def test_source_digest_changes_with_any_engine_file_and_only_then(tmp_path):
    engine = tmp_path / "engine"
    shutil.copytree(NC.ENGINE_DIR, engine, ignore=shutil.ignore_patterns("__pycache__"))
    base = NC.engine_source_digest(engine)
    assert base == NC.engine_source_digest(NC.ENGINE_DIR)
    layout = engine / "layout.py"
    text = layout.read_text()
    os.utime(layout, (0, 0))                                   # a touch alone changes nothing
    assert NC.engine_source_digest(engine) == base
    layout.write_text(text.replace("START_FOSSIL = 6", "START_FOSSIL = 5", 1))
    assert NC.engine_source_digest(engine) != base
    layout.write_text(text)
    assert NC.engine_source_digest(engine) == base
    (engine / "new_rule.py").write_text("X = 1\n")             # a new module counts too
    assert NC.engine_source_digest(engine) != base
    (engine / "new_rule.py").unlink()
    (engine / "sub").mkdir()
    (engine / "sub" / "deep.py").write_text("Y = 2\n")         # and one in a sub-folder
    assert NC.engine_source_digest(engine) != base


def test_the_default_digest_covers_the_kernels_the_gizmos_engine_and_the_shared_engine_too():
    """The stamp of every cached function hashes the engine, the kernels, the Gizmos engine and
    the engine pieces both games share together; no two of their modules share a name (a cache
    file is named after its module, in one folder)."""
    both = NC.engine_source_digest()
    assert both != NC.engine_source_digest(NC.ENGINE_DIR)
    dirs = {NC.ENGINE_DIR, NC.KERNELS_DIR, NC.GIZMOS_ENGINE_DIR, NC.COMMON_ENGINE_DIR}
    assert set(NC.JIT_DIRS) == dirs
    assert {Path(f).parent for f, _, _ in NC._jit_files()} >= dirs
    stems = [p.stem for d in NC.JIT_DIRS for p in d.glob("*.py") if p.stem != "__init__"]
    assert len(stems) == len(set(stems)), sorted(s for s in set(stems) if stems.count(s) > 1)


def test_the_shared_engine_pieces_are_cached_by_the_engine_locator():
    """The generator both engines call is compiled under the engines' stamp, so an edit to it
    recompiles every engine function that inlined it."""
    from electrify_env.common.engine import rng

    loc = NC.EngineCacheLocator.from_function(rng.rng_next.py_func, rng.__file__)
    assert isinstance(loc, NC.EngineCacheLocator)
    assert loc.get_source_stamp() == NC.STAMP_PREFIX + NC.engine_source_digest()


def test_locator_classes_setting_keeps_the_engine_locator_first():
    """numba >= 0.63 lets NUMBA_CACHE_LOCATOR_CLASSES replace the locator list; ours is put
    first so the engine's caches stay keyed on all its sources."""
    ours = NC.LOCATOR_PATH
    assert NC.with_engine_locator("") == ""
    assert NC.with_engine_locator("InTreeCacheLocator") == f"{ours},InTreeCacheLocator"
    assert NC.with_engine_locator(f"{ours},X") == f"{ours},X"
    assert NC.with_engine_locator(f"X, {ours}") == f"{ours},X"


# ---- where the cache goes (defect 4) ----------------------------------------------------------
def _no_pycache(tmp_path: Path) -> Path:
    """An engine folder whose __pycache__ cannot be created (a read-only install)."""
    engine = tmp_path / "site" / "electrify_env" / "engine"
    engine.mkdir(parents=True)
    (engine / "__pycache__").write_text("not a folder")
    return engine


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_cache_goes_to_pycache_when_writable_and_to_numba_cache_dir_when_set(tmp_path):
    engine = tmp_path / "pkg" / "engine"
    engine.mkdir(parents=True)
    folder, kind = NC.choose_cache_folder(engine, env={})
    assert (folder, kind) == (engine / "__pycache__", "pycache")
    folder, kind = NC.choose_cache_folder(engine, env={"NUMBA_CACHE_DIR": str(tmp_path / "nc")})
    assert kind == "NUMBA_CACHE_DIR"
    assert folder.parent == tmp_path / "nc" and folder.name.startswith("engine_")


@LINUX
def test_read_only_install_caches_in_a_private_per_user_folder(tmp_path):
    engine = _no_pycache(tmp_path)
    xdg = tmp_path / "xdg"
    folder, kind = NC.choose_cache_folder(engine, env={"XDG_CACHE_HOME": str(xdg)})
    assert kind == "user"
    assert folder.parent == xdg / "electrify_env" / "numba"
    assert _mode(xdg / "electrify_env") == 0o700
    assert folder.is_dir()
    # without XDG_CACHE_HOME: ~/.cache (a relative XDG_CACHE_HOME is ignored, as the spec says)
    home = tmp_path / "home"
    for env in ({"HOME": str(home)}, {"HOME": str(home), "XDG_CACHE_HOME": "rel/cache"}):
        folder, kind = NC.choose_cache_folder(engine, env=env)
        assert kind == "user" and folder.parent == home / ".cache" / "electrify_env" / "numba"
    assert _mode(home / ".cache" / "electrify_env") == 0o700


@LINUX
def test_a_cache_folder_others_can_write_to_is_never_used(tmp_path, monkeypatch):
    engine = _no_pycache(tmp_path)
    env = {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    shared = tmp_path / "xdg" / "electrify_env"
    shared.mkdir(parents=True)
    shared.chmod(0o777)                       # e.g. made by another user, or a shared folder
    kinds = []

    def choose():
        folder, kind = NC.choose_cache_folder(engine, env=env)
        if kind == "temp":
            assert shared not in folder.parents
            shutil.rmtree(folder)
        kinds.append(kind)

    choose()
    shared.chmod(0o700)
    (shared / "numba").chmod(0o775)           # a group-writable folder further down
    choose()
    (shared / "numba").chmod(0o700)
    choose()
    uid = os.getuid()                         # a folder owned by someone else, private or not
    monkeypatch.setattr(NC.os, "getuid", lambda: uid + 1)
    choose()
    assert kinds == ["temp", "temp", "user", "temp"]


@LINUX
def test_last_resort_is_a_fresh_private_temp_folder_never_a_fixed_name(tmp_path):
    engine = _no_pycache(tmp_path)
    blocked = tmp_path / "a_file"
    blocked.write_text("")
    env = {"XDG_CACHE_HOME": str(blocked / "cache"), "HOME": str(blocked)}
    one, kind = NC.choose_cache_folder(engine, env=env)
    two, _ = NC.choose_cache_folder(engine, env=env)
    assert kind == "temp"
    assert one != two                                          # fresh, so nobody can pre-plant it
    for folder in (one, two):
        assert Path(tempfile.gettempdir()) in folder.parents
        assert _mode(folder) == 0o700 and folder.stat().st_uid == os.getuid()
        shutil.rmtree(folder)


def test_no_home_at_all_still_gives_a_private_folder(tmp_path, monkeypatch):
    engine = _no_pycache(tmp_path)

    def no_home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.setattr(NC.Path, "home", staticmethod(no_home))
    folder, kind = NC.choose_cache_folder(engine, env={})
    assert kind == "temp" and folder.is_dir()
    shutil.rmtree(folder)
