"""The Gymnasium ids of the package, registered when ``electrify_env`` is imported (if Gymnasium
is installed), so ``gymnasium.make("Electrify-v0")``, ``gymnasium.make("Electrify-Solo-v0")`` and
``gymnasium.make("Gizmos-v0")`` work after ``import electrify_env``, and
``gymnasium.make("electrify_env:Electrify-v0")`` works
with no import at all.  Registering imports Gymnasium but none of the environments: their entry
points are named as strings and loaded by the first ``make``.
"""
from __future__ import annotations

import importlib.util

SOLO_ENV_ID = "Electrify-Solo-v0"
SEAT_ENV_ID = "Electrify-v0"
#: one seat of a Gizmos game (:class:`electrify_env.gizmos.envs.seat.GizmosEnv`)
GIZMOS_ENV_ID = "Gizmos-v0"

__all__ = ["GIZMOS_ENV_ID", "SEAT_ENV_ID", "SOLO_ENV_ID", "register_envs"]


def register_envs() -> bool:
    """Register ``Electrify-Solo-v0``, ``Electrify-v0`` and ``Gizmos-v0`` with Gymnasium; False (and nothing
    done) when Gymnasium is not installed.  Calling it again does nothing."""
    if importlib.util.find_spec("gymnasium") is None:
        return False
    import gymnasium
    if SOLO_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=SOLO_ENV_ID, entry_point="electrify_env.envs:make_solo_env",
                           vector_entry_point="electrify_env.envs.vector:make_solo_vector_env",
                           disable_env_checker=False)
    if SEAT_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=SEAT_ENV_ID, entry_point="electrify_env.envs:make_seat_env",
                           vector_entry_point="electrify_env.envs.vector:make_seat_vector_env",
                           disable_env_checker=False)
    if GIZMOS_ENV_ID not in gymnasium.registry:
        gymnasium.register(id=GIZMOS_ENV_ID, entry_point="electrify_env.gizmos.envs.seat:make_gizmos_env",
                           vector_entry_point="electrify_env.gizmos.envs.vector:make_gizmos_vector_env",
                           disable_env_checker=False)
    return True
