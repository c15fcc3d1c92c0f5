"""Stable-Baselines3 ``VecEnv`` adapter of :class:`~electrify_env.envs.vector.ElectrifyVectorEnv`
(importing this module imports stable_baselines3)."""
from __future__ import annotations

from typing import Any, Sequence

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from .vector import ElectrifyVectorEnv


class ElectrifySB3VecEnv(VecEnv):
    """An :class:`ElectrifyVectorEnv` seen as an SB3 ``VecEnv`` (for PPO / MaskablePPO).

    SB3 conventions: ``step_wait`` returns float32 rewards, bool ``dones`` and a list of N info
    dicts; a game that ends restarts at once, its last observation is
    ``infos[i]["terminal_observation"]`` and its outcome ``infos[i]["final_score"]``,
    ``["score"]``, ``["won"]``, ``["seed"]``, ``["episode_length"]``, ``["episode_return"]``
    (and ``"TimeLimit.truncated": False``).  ``env_method("action_masks")`` and
    :meth:`action_masks` give the (N, N_ACTIONS) bool masks MaskablePPO asks for.  Seeds set by
    :meth:`seed` apply at the next ``reset`` (game i gets seed + i).

    Args:
        venv: an ElectrifyVectorEnv, or None to build one from ``kwargs``.
        **kwargs: arguments of :class:`ElectrifyVectorEnv` (``num_envs``, ``mode``, ...).
    """

    def __init__(self, venv: ElectrifyVectorEnv | None = None, **kwargs: Any) -> None:
        if venv is None:
            venv = ElectrifyVectorEnv(**kwargs)
        elif kwargs:
            raise ValueError("give either an ElectrifyVectorEnv or its arguments, not both")
        if venv.copy:
            raise ValueError("the adapter needs copy=False (SB3 keeps one observation per step)")
        self.venv = venv
        self._actions: np.ndarray | None = None
        self.render_mode = None
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)

    def reset(self):
        """Start new games (seeds from :meth:`seed`, else fresh ones); returns observations."""
        seeds = self._seeds
        if all(s is None for s in seeds):
            obs, info = self.venv.reset()
        else:
            fresh = np.random.SeedSequence().generate_state(self.num_envs, dtype=np.uint64) >> np.uint64(2)
            obs, info = self.venv.reset(seed=[int(fresh[i]) if s is None else int(s) for i, s in enumerate(seeds)])
        self.reset_infos = [{"seed": int(s)} for s in info["seed"]]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        """Store the actions for :meth:`step_wait` (the step itself is synchronous)."""
        self._actions = actions

    def step_wait(self):
        """Step every game; returns (observations, float32 rewards, dones, infos)."""
        obs, rewards, terms, truncs, info = self.venv.step(self._actions)
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if terms.any():
            fi = info["final_info"]
            keys = [k for k in fi if not k.startswith("_")]
            for i in np.flatnonzero(terms):
                d = infos[i]
                d["terminal_observation"] = info["final_obs"][i]
                d["TimeLimit.truncated"] = False
                for k in keys:
                    d[k] = fi[k][i].item()
        return obs, rewards.astype(np.float32), terms, infos

    def action_masks(self) -> np.ndarray:
        """(N, N_ACTIONS) bool legal masks."""
        return self.venv.action_masks()

    def close(self) -> None:
        """Close the vector env."""
        self.venv.close()

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """The vector env's attribute, once per index (every game shares the configuration)."""
        value = getattr(self.venv, attr_name) if attr_name != "render_mode" else None
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        """Set an attribute of the vector env (shared by every game)."""
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices: VecEnvIndices = None, **method_kwargs) -> list[Any]:
        """``"action_masks"``: one bool mask per index; other methods of the vector env are called
        once and their result is repeated per index."""
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in idx]
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in idx]

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        """No game is wrapped in a Gymnasium wrapper."""
        return [False for _ in self._get_indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Seeds for the next reset: game i gets ``seed + i``."""
        return super().seed(seed)
