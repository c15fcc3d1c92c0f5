"""Reinforcement-learning environments over the Electrify engine.

Two Gymnasium ids (registered by ``import electrify_env``, :mod:`electrify_env.registration`):

* ``Electrify-Solo-v0`` -> :class:`ElectrifySoloEnv` (solo scenario play);
* ``Electrify-v0`` -> :class:`ElectrifyEnv` (one seat of a 2-4 player game against opponents).

``gymnasium.make(id, **kwargs)`` wraps the env in :class:`TerminateIllegalAction` (the wrapper
of every game's env, :mod:`electrify_env.common.envs.wrappers`: an illegal action ends the
episode with ``illegal_reward``, default -1); pass ``illegal_action="raise"`` for the bare env,
which raises :class:`~electrify_env.IllegalActionError`.
``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point", **kwargs)`` builds the
jitted :class:`ElectrifyVectorEnv`.

Also here (loaded on first use, so that importing this package imports neither PettingZoo nor
Stable-Baselines3 nor Ray): ``electrify_v0`` (the PettingZoo AEC env: ``electrify_v0.env()``,
``electrify_v0.raw_env()``), ``ElectrifySB3VecEnv`` (from ``electrify_env.envs.sb3``) and
``ElectrifyRLlibEnv`` (the RLlib ``MultiAgentEnv`` over ``electrify_v0``, from
``electrify_env.envs.rllib``; needs ``pip install -e ".[ray]"``).
"""
from __future__ import annotations

import importlib

import gymnasium

from ..common.envs.wrappers import TerminateIllegalAction, wrap_illegal_action
from .seat import ElectrifyEnv
from .solo import ElectrifySoloEnv
from .vector import ElectrifyVectorEnv, make_seat_vector_env, make_solo_vector_env

from ..registration import SEAT_ENV_ID, SOLO_ENV_ID, register_envs


def make_solo_env(illegal_action: str = "terminate", illegal_reward: float = -1.0, **kwargs):
    """Entry point of ``Electrify-Solo-v0``: :class:`ElectrifySoloEnv` (``kwargs``), wrapped in
    :class:`TerminateIllegalAction` unless ``illegal_action="raise"``."""
    return wrap_illegal_action(ElectrifySoloEnv(**kwargs), illegal_action, illegal_reward)


def make_seat_env(illegal_action: str = "terminate", illegal_reward: float = -1.0, **kwargs):
    """Entry point of ``Electrify-v0``: :class:`ElectrifyEnv` (``kwargs``), wrapped in
    :class:`TerminateIllegalAction` unless ``illegal_action="raise"``."""
    return wrap_illegal_action(ElectrifyEnv(**kwargs), illegal_action, illegal_reward)


register_envs()

_LAZY = {"electrify_v0": ("electrify_env.envs.electrify_v0", None),
         "ElectrifySB3VecEnv": ("electrify_env.envs.sb3", "ElectrifySB3VecEnv"),
         "ElectrifyRLlibEnv": ("electrify_env.envs.rllib", "ElectrifyRLlibEnv")}   # needs ray; not in __all__


def __getattr__(name: str):
    if name in _LAZY:
        module, attr = _LAZY[name]
        mod = importlib.import_module(module)
        return mod if attr is None else getattr(mod, attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ElectrifyEnv", "ElectrifySoloEnv", "ElectrifyVectorEnv", "ElectrifySB3VecEnv",
           "TerminateIllegalAction", "electrify_v0", "make_solo_env", "make_seat_env",
           "make_solo_vector_env", "make_seat_vector_env", "register_envs", "SOLO_ENV_ID", "SEAT_ENV_ID"]
