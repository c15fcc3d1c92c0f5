"""Choose where numba writes its compiled caches before numba is imported.

numba's ``cache=True`` writes next to the source (``__pycache__``).  On a read-only install that
fails, so when the package folder is not writable and ``NUMBA_CACHE_DIR`` is unset we point numba
at a per-user cache folder (or the temp folder as a last resort).
"""
from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent / "engine"
STAMP_NAME = "electrify_engine_sources.sha256"


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".electrify_write_probe"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


def configure_numba_cache() -> str | None:
    """Set ``NUMBA_CACHE_DIR`` if needed; return the folder chosen, or None if numba's default
    (the package's ``__pycache__``) is writable or the user already chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    if _writable(Path(__file__).resolve().parent / "engine" / "__pycache__"):
        return None
    candidates = [Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "electrify_env" / "numba",
                  Path(tempfile.gettempdir()) / "electrify_env_numba"]
    for cand in candidates:
        if _writable(cand):
            os.environ["NUMBA_CACHE_DIR"] = str(cand)
            return str(cand)
    return None


def engine_source_digest() -> str:
    """sha256 over the engine's source files (names and contents)."""
    h = hashlib.sha256()
    for path in sorted(ENGINE_DIR.glob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def _cache_dirs() -> list[Path]:
    root = os.environ.get("NUMBA_CACHE_DIR")
    if not root:
        return [ENGINE_DIR / "__pycache__"]
    return [p for p in Path(root).rglob("*") if p.is_dir() and p.name == "engine"
            and "electrify_env" in str(p)]


def drop_stale_caches() -> int:
    """numba keys a cached function on its own file only, but the engine's functions read
    constants from ``layout.py`` and call each other across files: after any change to an engine
    file every cached function may be stale.  When the engine's sources differ from the stamp
    saved beside the caches, delete the engine's cache files.  Returns the number deleted."""
    digest = engine_source_digest()
    removed = 0
    for folder in _cache_dirs():
        stamp = folder / STAMP_NAME
        try:
            if stamp.exists() and stamp.read_text().strip() == digest:
                continue
            for f in list(folder.glob("*.nbi")) + list(folder.glob("*.nbc")):
                f.unlink()
                removed += 1
            folder.mkdir(parents=True, exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            continue
    return removed
