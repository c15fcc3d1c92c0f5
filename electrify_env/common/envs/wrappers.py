"""The Gymnasium wrapper that ends an episode on an illegal action, for any game's env.

The wrapped env provides ``action_masks()`` (a bool legal mask over its ``Discrete`` action
space, all False once the episode is over), as every env of the package does; the wrapper reads
nothing else of the game.
"""
from __future__ import annotations

import operator
from typing import Any

import gymnasium as gym
import numpy as np

from ...validation import InvalidArgumentError, check_float

#: the modes of ``gymnasium.make(id, illegal_action=...)`` (the envs' entry points)
ILLEGAL_ACTION_MODES = ("terminate", "raise")


def _action_id(action) -> int:
    """``action`` as a Python int (ints, numpy integers, 0-d integer arrays), or -1 for anything
    else (bools, floats, strings, None): an id that is never legal."""
    if isinstance(action, (bool, np.bool_)) or (isinstance(action, np.ndarray) and action.dtype == np.bool_):
        return -1
    try:
        return operator.index(action)
    except TypeError:
        return -1


class TerminateIllegalAction(gym.Wrapper):
    """End the episode on an illegal action instead of raising (PettingZoo's
    ``TerminateIllegalWrapper`` for the Gymnasium envs; ``gymnasium.make`` applies it to
    ``Electrify-v0``, ``Electrify-Solo-v0`` and ``Gizmos-v0``).

    A legal action passes through.  An action that is not legal now (out of range, not an integer
    id, or masked out) is not applied: the step returns the unchanged observation, reward
    ``illegal_reward``, ``terminated=True``, and ``info`` with ``"illegal_action": True`` and the
    mask that was current.  The next call must be ``reset()``; another ``step`` raises a
    ``ValueError``.  Legal-action masks: ``action_masks()`` and ``info["action_mask"]``, as
    in the wrapped env.

    Args:
        env: a Gymnasium env of the package (one with ``action_masks()``).
        illegal_reward: the reward of the illegal step (default -1): a finite real number, else
            :class:`~electrify_env.InvalidArgumentError`.
    """

    def __init__(self, env: gym.Env, illegal_reward: float = -1.0) -> None:
        super().__init__(env)
        self.illegal_reward = check_float("illegal_reward", illegal_reward)
        self._last_obs: np.ndarray | None = None
        self._ended = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Reset the wrapped env (and the illegal-action end)."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._last_obs = obs.copy()
        self._ended = False
        return obs, info

    def step(self, action):
        """Pass a legal action through; end the episode on an illegal one (see the class)."""
        if self._ended:
            raise ValueError("the episode ended on an illegal action; call reset()")
        mask = self.env.unwrapped.action_masks()
        a = _action_id(action)
        if not 0 <= a < mask.shape[0] or not mask[a]:
            if self._last_obs is None or not mask.any():
                raise ValueError("step() after the end of the episode (or before reset()): call reset()")
            self._ended = True
            info = {"action_mask": mask.astype(np.int8), "illegal_action": True}
            return self._last_obs.copy(), self.illegal_reward, True, False, info
        obs, reward, term, trunc, info = self.env.step(a)
        self._last_obs = obs.copy()
        return obs, reward, term, trunc, info

    def action_masks(self) -> np.ndarray:
        """The wrapped env's bool legal mask (all False after an illegal action ended the episode)."""
        mask = self.env.unwrapped.action_masks()
        return np.zeros_like(mask) if self._ended else mask


def wrap_illegal_action(env: gym.Env, illegal_action: str = "terminate",
                        illegal_reward: float = -1.0) -> gym.Env:
    """An env's entry point: ``env`` wrapped in :class:`TerminateIllegalAction`
    (``illegal_action="terminate"``), or ``env`` itself (``"raise"``: an illegal action raises
    :class:`~electrify_env.IllegalActionError`); any other mode raises
    :class:`~electrify_env.InvalidArgumentError`."""
    if illegal_action not in ILLEGAL_ACTION_MODES:
        raise InvalidArgumentError(f"illegal_action must be 'terminate' or 'raise', got {illegal_action!r}")
    return env if illegal_action == "raise" else TerminateIllegalAction(env, illegal_reward)
