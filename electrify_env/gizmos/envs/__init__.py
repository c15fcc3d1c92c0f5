"""Reinforcement-learning environments over the Gizmos engine.

* ``Gizmos-v0`` (Gymnasium, registered by ``import electrify_env``,
  :mod:`electrify_env.registration`) -> :class:`~electrify_env.gizmos.envs.seat.GizmosEnv`: one
  seat of a 2-4 player game against opponents.  ``gymnasium.make("Gizmos-v0", **kwargs)`` wraps
  it in :class:`~electrify_env.common.envs.wrappers.TerminateIllegalAction` (every game's
  wrapper: an illegal action ends the episode with ``illegal_reward``, default -1);
  ``illegal_action="raise"`` gives the bare env.
* ``gizmos_v0`` (PettingZoo AEC, every seat an agent): ``gizmos_v0.env()`` with PettingZoo's
  standard wrappers, ``gizmos_v0.raw_env()`` without; loaded on first use, so importing this
  package does not import PettingZoo.

Both are thin adapters over :class:`electrify_env.gizmos.Game` and the observation of
:mod:`electrify_env.gizmos.observation`.
"""
from __future__ import annotations

import importlib

from .seat import GizmosEnv, TerminateIllegalAction, make_gizmos_env

__all__ = ["GizmosEnv", "TerminateIllegalAction", "make_gizmos_env", "gizmos_v0"]


def __getattr__(name: str):
    if name == "gizmos_v0":
        return importlib.import_module("electrify_env.gizmos.envs.gizmos_v0")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
