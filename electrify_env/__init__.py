"""electrify-env: the board game Electrify as a fast, exact reinforcement-learning environment.

``electrify_env.Game`` is the Python face of the jitted engine (``electrify_env.engine``).
"""
from ._numba_cache import configure_numba_cache, drop_stale_caches

configure_numba_cache()
drop_stale_caches()

__version__ = "0.1.0"

from .game import Game, IllegalActionError  # noqa: E402

__all__ = ["Game", "IllegalActionError", "__version__"]
