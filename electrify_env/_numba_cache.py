"""Choose where numba writes its compiled caches before numba is imported.

numba's ``cache=True`` writes next to the source (``__pycache__``).  On a read-only install that
fails, so when the package folder is not writable and ``NUMBA_CACHE_DIR`` is unset we point numba
at a per-user cache folder (or the temp folder as a last resort).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path


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
