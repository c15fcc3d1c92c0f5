"""Gymnasium wrappers of the Electrify envs."""
from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np

from ..engine import layout as L
from ._common import as_action, check_float


class TerminateIllegalAction(gym.Wrapper):
    """End the episode on an illegal action instead of raising (PettingZoo's
    ``TerminateIllegalWrapper`` for the Gymnasium envs; ``gymnasium.make`` applies it).

    A legal action passes through.  An action that is not legal now (out of range, not an integer
    id, or masked out) is not applied: the step returns the unchanged observation, reward
    ``illegal_reward``, ``terminated=True``, and ``info`` with ``"illegal_action": True`` and the
    mask that was current.  The next call must be ``reset()``; another ``step`` raises a
    ``ValueError``.  Legal-action masks: ``action_masks()`` and ``info["action_mask"]``, as
    in the wrapped env.

    Args:
        env: an Electrify Gymnasium env.
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
        try:
            a = as_action(action)
        except ValueError:
            a = -1
        if not 0 <= a < L.N_ACTIONS or not mask[a]:
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
        if self._ended:
            return np.zeros(L.N_ACTIONS, dtype=bool)
        return self.env.unwrapped.action_masks()
