"""Where numba caches the compiled engine, and how a cache is kept from going stale.

numba's ``cache=True`` keys a cached function on its own source file.  The engine's functions
read constants from ``layout.py`` and call each other across files, so an edit to one engine file
(``START_FOSSIL = 5`` in ``layout.py``) would leave every other file's cached code stale.  This
module gives every function defined under ``electrify_env/engine/``, the bots' kernels
``electrify_env/kernels/`` (which call the engine), the Gizmos engine
``electrify_env/gizmos/engine/`` and the engine pieces both games share,
``electrify_env/common/engine/`` (which the engines call), its own numba cache locator,
:class:`EngineCacheLocator`, whose *source stamp* is a hash of all those sources
(:func:`engine_source_digest`): numba itself then discards any cached function compiled from
other sources, wherever the cache lives.  Functions outside the engine keep numba's own
locators.

Where the engine's caches go (:func:`choose_cache_folder`, decided once per process):

1. ``$NUMBA_CACHE_DIR/engine_<hash of the engine folder's path>`` if ``NUMBA_CACHE_DIR`` is set
   (the user's choice; numba's own layout);
2. the engine's ``__pycache__`` (numba's default) if it is writable;
3. otherwise (a read-only install) a private per-user folder:
   ``$XDG_CACHE_HOME/electrify_env/numba/engine_<hash>`` (``~/.cache/...``; macOS
   ``~/Library/Caches/...``; Windows ``%LOCALAPPDATA%\\...``).  ``electrify_env`` is created
   with mode 0o700, and a folder that another user owns, or that group or others may write to,
   is never used (cache files are unpickled when loaded);
4. as a last resort a fresh private ``tempfile.mkdtemp()`` folder, removed at exit (the engine
   then compiles in every process).  Never a fixed, shared temp path.

``NUMBA_CACHE_DIR`` is never set or changed here, so other numba users in the process and child
processes are unaffected.
"""
from __future__ import annotations

import atexit
import hashlib
import os
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import Mapping

from numba.core import caching as _caching

PACKAGE_DIR = Path(__file__).resolve().parent
ENGINE_DIR = PACKAGE_DIR / "engine"
#: the bots' jitted kernels: cached like the engine, under the same stamp (they call the engine)
KERNELS_DIR = PACKAGE_DIR / "kernels"
#: the Gizmos rules engine: cached the same way (its modules are named ``gz_*``, so its cache
#: files never share a name with the Electrify engine's)
GIZMOS_ENGINE_DIR = PACKAGE_DIR / "gizmos" / "engine"
#: the game-independent engine pieces (the generator, the mask helpers): both engines call them,
#: so they are cached under the same stamp
COMMON_ENGINE_DIR = PACKAGE_DIR / "common" / "engine"
#: every folder whose jitted functions the engine locator caches (module names are unique across
#: them: a cache file is named after its module)
JIT_DIRS = (ENGINE_DIR, KERNELS_DIR, GIZMOS_ENGINE_DIR, COMMON_ENGINE_DIR)
#: the source stamp of every cached engine function is this prefix + engine_source_digest()
STAMP_PREFIX = "electrify-engine-sources:"
#: the locator's import path, for numba's NUMBA_CACHE_LOCATOR_CLASSES setting
LOCATOR_PATH = "electrify_env._numba_cache.EngineCacheLocator"
#: the folder under the user cache folder; the first part is made private (0o700)
USER_SUBDIR = ("electrify_env", "numba")
TEMP_PREFIX = "electrify_env_numba-"
#: a file beside the cached engine code naming the sources it was compiled from (disk tidying)
STAMP_NAME = "electrify_engine_sources.sha256"

_folder: Path | None = None
_kind: str | None = None
_digest: tuple[tuple | None, str] | None = None


def _engine_files(engine_dir: Path | str) -> list[tuple[str, int, int]]:
    """``(path, size, mtime_ns)`` of every ``.py`` file under ``engine_dir`` (sub-folders too,
    ``__pycache__`` skipped), sorted by path."""
    out: list[tuple[str, int, int]] = []
    with os.scandir(engine_dir) as entries:
        for e in entries:
            if e.name.endswith(".py") and e.is_file():
                st = e.stat()
                out.append((e.path, st.st_size, st.st_mtime_ns))
            elif e.name != "__pycache__" and e.is_dir():
                out.extend(_engine_files(e.path))
    out.sort()
    return out


def _jit_files() -> list[tuple[str, int, int]]:
    """:func:`_engine_files` of every folder of :data:`JIT_DIRS`."""
    return [f for folder in JIT_DIRS for f in _engine_files(folder)]


def engine_source_digest(engine_dir: Path | None = None) -> str:
    """sha256 over every ``.py`` file under ``engine_dir`` (relative names and contents); by
    default over the engine and the kernels (:data:`JIT_DIRS`, names relative to the package)."""
    h = hashlib.sha256()
    base = PACKAGE_DIR if engine_dir is None else Path(engine_dir)
    files = _jit_files() if engine_dir is None else _engine_files(engine_dir)
    for name, _, _ in files:
        path = Path(name)
        data = path.read_bytes()
        h.update(path.relative_to(base).as_posix().encode() + b"\0")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def _current_digest() -> str:
    """:func:`engine_source_digest` of this package's engine, recomputed only when a file's
    name, size or modification time changed (engine modules import one by one; each function is
    stamped with the sources as they are when its module is imported)."""
    global _digest
    try:
        key = tuple(_jit_files())
    except OSError:
        key = None
    if _digest is None or key is None or _digest[0] != key:
        _digest = (key, engine_source_digest())
    return _digest[1]


def engine_subfolder(engine_dir: Path = ENGINE_DIR) -> str:
    """``engine_<sha1 of the folder's path>``: one cache folder per installed copy (numba's own
    naming of folders under ``NUMBA_CACHE_DIR``)."""
    return "engine_" + hashlib.sha1(str(engine_dir).encode()).hexdigest()


def user_cache_home(env: Mapping[str, str] | None = None) -> Path | None:
    """The platform's per-user cache folder (``$XDG_CACHE_HOME`` if absolute, else
    ``~/.cache``; macOS ``~/Library/Caches``; Windows ``%LOCALAPPDATA%``), or None if there
    is none (no home folder)."""
    env = os.environ if env is None else env
    try:
        if sys.platform == "win32":
            base = env.get("LOCALAPPDATA", "")
            return Path(base) if base and Path(base).is_absolute() else None
        xdg = env.get("XDG_CACHE_HOME", "")
        if xdg and Path(xdg).is_absolute() and sys.platform != "darwin":
            return Path(xdg)
        home = Path(env.get("HOME") or Path.home())
        if not home.is_absolute():
            return None
        return home / "Library" / "Caches" if sys.platform == "darwin" else home / ".cache"
    except (RuntimeError, KeyError, OSError):
        return None


def _can_write(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
        return True
    except OSError:
        return False


def _private(folder: Path) -> bool:
    """The folder is ours and nobody else may write to it (POSIX owner and mode bits)."""
    st = os.stat(folder)
    if not stat.S_ISDIR(st.st_mode):
        return False
    if os.name != "posix":
        return True  # per-user by the platform (Windows: %LOCALAPPDATA% ACLs)
    return st.st_uid == os.getuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def _private_folder(top: Path, leaf: Path) -> bool:
    """Create ``leaf`` below ``top``, making ``top`` with mode 0o700; True if every folder from
    ``top`` down to ``leaf`` is private and ``leaf`` is writable."""
    try:
        top.parent.mkdir(parents=True, exist_ok=True)
        try:
            top.mkdir(mode=0o700)
        except FileExistsError:
            pass
        chain = [top]
        for part in leaf.relative_to(top).parts:
            chain.append(chain[-1] / part)
            chain[-1].mkdir(mode=0o700, exist_ok=True)
        return all(_private(f) for f in chain) and _can_write(leaf)
    except OSError:
        return False


def choose_cache_folder(engine_dir: Path = ENGINE_DIR,
                        env: Mapping[str, str] | None = None) -> tuple[Path | None, str]:
    """Where the engine's compiled code is cached: ``(folder, kind)`` with kind
    ``"NUMBA_CACHE_DIR"``, ``"pycache"``, ``"user"`` or ``"temp"`` (a fresh private folder made
    by this call), or ``(None, "none")`` if no folder can be written.  See the module docstring
    for the order."""
    env = os.environ if env is None else env
    engine_dir = Path(engine_dir)
    sub = engine_subfolder(engine_dir)
    user_set = env.get("NUMBA_CACHE_DIR", "")
    if user_set and _can_write(Path(user_set) / sub):
        return Path(user_set) / sub, "NUMBA_CACHE_DIR"
    if _can_write(engine_dir / "__pycache__"):
        return engine_dir / "__pycache__", "pycache"
    home = user_cache_home(env)
    if home is not None:
        top = home / USER_SUBDIR[0]
        leaf = top.joinpath(*USER_SUBDIR[1:], sub)
        if _private_folder(top, leaf):
            return leaf, "user"
    try:
        return Path(tempfile.mkdtemp(prefix=TEMP_PREFIX)), "temp"
    except OSError:
        return None, "none"


def _remove_at_exit(folder: Path, pid: int) -> None:
    if os.getpid() == pid:  # not in forked children, which share the folder
        shutil.rmtree(folder, ignore_errors=True)


def with_engine_locator(classes: str) -> str:
    """A ``NUMBA_CACHE_LOCATOR_CLASSES`` value with :data:`LOCATOR_PATH` first ("" stays "":
    numba's default list, to which :func:`install_locator` adds the engine's locator)."""
    names = [c.strip() for c in classes.split(",") if c.strip()]
    if not names:
        return ""
    return ",".join([LOCATOR_PATH] + [c for c in names if c != LOCATOR_PATH])


class EngineCacheLocator(_caching._CacheLocator):
    """numba cache locator of the functions defined in the folders of :data:`JIT_DIRS` (the
    engines, the kernels, the shared engine pieces): caches go to :func:`cache_folder`, stamped
    with the hash of all their sources."""

    def __init__(self, py_func, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = str(cache_folder())
        self._stamp = STAMP_PREFIX + _current_digest()

    def get_cache_path(self) -> str:
        """The folder of the engine's cache files."""
        return self._cache_path

    def get_source_stamp(self) -> str:
        """The hash of all engine sources (when the function's module was imported): any engine
        edit makes every engine cache stale."""
        return self._stamp

    def get_disambiguator(self) -> str:
        """The function's first line, as numba's own locators use."""
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file: str):
        """A locator for a function of an engine file; None for any other file (numba's own
        locators take those) or if no cache folder can be written."""
        try:
            path = Path(py_file).resolve()
        except (OSError, RuntimeError):
            return None
        if not any(d in path.parents for d in JIT_DIRS) or cache_folder() is None:
            return None
        self = cls(py_func, py_file)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self


def install_locator() -> None:
    """Put :class:`EngineCacheLocator` first in numba's locator list (and first in
    ``NUMBA_CACHE_LOCATOR_CLASSES`` if the user set that numba >= 0.63 override)."""
    impl = getattr(_caching, "CacheImpl", None) or getattr(_caching, "_CacheImpl")
    classes = list(impl._locator_classes)
    if EngineCacheLocator not in classes:
        impl._locator_classes = [EngineCacheLocator, *classes]
    user = os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES", "")
    if user and with_engine_locator(user) != user:
        from numba.core import config

        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = with_engine_locator(user)
        config.reload_config()


def cache_folder() -> Path | None:
    """The folder of this process's engine caches (chosen on first use; see
    :func:`choose_cache_folder`)."""
    global _folder, _kind
    if _kind is None:
        _folder, _kind = choose_cache_folder()
        if _kind == "temp":
            atexit.register(_remove_at_exit, _folder, os.getpid())
    return _folder


def cache_kind() -> str:
    """How :func:`cache_folder` was chosen: ``NUMBA_CACHE_DIR``, ``pycache``, ``user``,
    ``temp`` or ``none``."""
    cache_folder()
    return str(_kind)


def configure_numba_cache() -> str | None:
    """Choose the engine's cache folder and install its locator; call before any engine module
    is imported.  Returns the folder (None if no folder can be written: no caching)."""
    folder = cache_folder()
    install_locator()
    return None if folder is None else str(folder)


def drop_stale_caches() -> int:
    """Free disk: delete the engine cache files in :func:`cache_folder` when they were written
    for other engine sources (a stamp file beside them says which).  Correctness does not depend
    on this (every cached engine function carries the sources' hash and numba discards a
    mismatch); it only removes files that numba would leave behind.  Returns the number deleted."""
    folder = cache_folder()
    if folder is None:
        return 0
    digest = _current_digest()
    stamp = folder / STAMP_NAME
    removed = 0
    try:
        if stamp.exists() and stamp.read_text().strip() == digest:
            return 0
        modules = {p.stem for d in JIT_DIRS for p in d.glob("*.py")}
        for f in list(folder.glob("*.nbi")) + list(folder.glob("*.nbc")):
            if f.name.split(".", 1)[0] in modules:
                f.unlink(missing_ok=True)
                removed += 1
        stamp.write_text(digest)
    except OSError:
        pass
    return removed
