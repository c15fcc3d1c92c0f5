"""electrify-env: the board game Electrify as a fast, exact reinforcement-learning environment.

``electrify_env.Game`` is the Python face of the jitted engine (``electrify_env.engine``).
``electrify_env.env()`` / ``electrify_env.raw_env()`` build the PettingZoo AEC env
``electrify_v0``, and ``electrify_env.envs`` holds the Gymnasium envs; both are imported on first
use.  Importing this package registers the Gymnasium ids ``Electrify-v0`` and
``Electrify-Solo-v0`` when Gymnasium is installed (:mod:`electrify_env.registration`), so
``gymnasium.make("Electrify-Solo-v0")`` works after ``import electrify_env``.
"""
from ._numba_cache import configure_numba_cache, drop_stale_caches

configure_numba_cache()
drop_stale_caches()

__version__ = "0.1.0"

from .game import Game, IllegalActionError  # noqa: E402
from .savefile import InvalidSaveError  # noqa: E402
from .validation import MAX_SEED, InvalidArgumentError  # noqa: E402
from .registration import register_envs  # noqa: E402

register_envs()     # Electrify-v0 and Electrify-Solo-v0, when Gymnasium is installed

_LAZY = {"env": "env", "raw_env": "raw_env"}


def __getattr__(name: str):
    """Lazy exports: ``env`` and ``raw_env`` of :mod:`electrify_env.envs.electrify_v0`."""
    if name in _LAZY:
        from .envs import electrify_v0
        return getattr(electrify_v0, _LAZY[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Game", "IllegalActionError", "InvalidArgumentError", "InvalidSaveError", "MAX_SEED",
           "__version__", "env", "raw_env"]
