"""``electrify_rllib_v0``: the PettingZoo env :mod:`electrify_env.envs.electrify_v0` as an RLlib
``MultiAgentEnv`` (new API stack), for multi-agent PPO with action masking.

Needs Ray RLlib (``pip install -e ".[ray]"``); this is the only module of the package that imports
``ray``, and ``electrify_env.envs`` loads it only on first use (``electrify_env.envs.rllib``).

>>> from electrify_env.envs.rllib import ElectrifyRLlibEnv, register_rllib_env   # doctest: +SKIP
>>> env = ElectrifyRLlibEnv({"n_players": 3})                                     # doctest: +SKIP
>>> obs, infos = env.reset(seed=42)          # {"player_0": {"observations": ..., "action_mask": ...}}
>>> agent = next(iter(obs))
>>> action = int(obs[agent]["action_mask"].nonzero()[0][0])
>>> obs, rewards, terminateds, truncateds, infos = env.step({agent: action})
>>> register_rllib_env()                     # then PPOConfig().environment("electrify_rllib_v0", ...)
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np
from gymnasium import spaces

try:
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as err:  # pragma: no cover - the default venv has no Ray
    raise ImportError('electrify_env.envs.rllib needs Ray RLlib: pip install -e ".[ray]"') from err

from ..engine.layout import N_ACTIONS
from ..engine.observe import OBS_SIZE
from ..validation import InvalidArgumentError
from .electrify_v0 import raw_env

__all__ = ["ElectrifyRLlibEnv", "RLLIB_ENV_NAME", "ENV_CONFIG_KEYS", "OBS_KEY", "MASK_KEY",
           "make_rllib_env", "register_rllib_env", "observation_space"]

RLLIB_ENV_NAME = "electrify_rllib_v0"
"""Name under which :func:`register_rllib_env` registers the env with ``ray.tune``."""
OBS_KEY = "observations"
"""Key of the observation vector (RLlib's action-masking modules read ``observations``, where
PettingZoo writes ``observation``)."""
MASK_KEY = "action_mask"
"""Key of the int8 legal-action mask."""
ENV_CONFIG_KEYS = ("n_players", "card_set", "tech_packs", "reward_mode", "points_scale", "win_bonus",
                   "render_mode")
"""Keys an ``env_config`` may hold: the arguments of :class:`~electrify_env.envs.electrify_v0.raw_env`."""


def observation_space() -> spaces.Dict:
    """``Dict({"observations": Box(0, 1, (OBS_SIZE,), float32), "action_mask": Box(0, 1,
    (N_ACTIONS,), int8)})``: the observation space of every agent."""
    return spaces.Dict({
        OBS_KEY: spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32),
        MASK_KEY: spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
    })


class ElectrifyRLlibEnv(MultiAgentEnv):
    """
    ## Description

    *Electrify* for 2-4 players, turn by turn, as an RLlib ``MultiAgentEnv`` over the PettingZoo
    AEC env ``electrify_v0`` (every rule is the AEC env's: this class only renames and routes).
    Agents ``player_0`` ... ``player_{n-1}`` are the seats.  Each ``step`` takes the action of
    the one agent whose decision is pending and returns the observation of the agent to act
    next (often the same one: every sub-decision of the rules is one turn).

    ## Action Space

    ``Discrete(N_ACTIONS)`` per agent (``action_spaces``).  ``step({agent: id})`` must hold the
    acting agent only; an id that is not legal raises
    :class:`~electrify_env.IllegalActionError` (a ``ValueError``) and leaves the game unchanged.

    ## Observation Space

    ``Dict({"observations": Box(0, 1, (OBS_SIZE,), float32), "action_mask": Box(0, 1,
    (N_ACTIONS,), int8)})`` per agent (``observation_spaces``): the AEC env's observation (the
    agent's own view, no hidden information) under RLlib's action-masking key ``observations``.

    ## Rewards

    The AEC env's (``reward_mode``: ``win``, ``margin``, ``score`` or ``shaped``): each step
    passes on what the AEC step paid, to the acting agent always and to any other agent paid a
    nonzero amount; RLlib adds a reward to an agent that is not acting to its next step, so each
    agent's episode return equals the sum the AEC env paid it.

    ## Starting State

    ``reset(seed=...)`` resets the AEC env with that seed (the game seed is drawn from it, as in
    ``electrify_v0``; ``reset()`` without a seed draws the next game from the same generator).
    Only the agent to act gets an observation; its info holds ``game_seed``.

    ## Episode End

    After round 12: every agent gets its last observation (all-zero mask) and its final reward,
    ``terminateds`` is True for each agent and ``"__all__"``; never truncated.  Call ``reset``
    before stepping again.

    ## Arguments

    ``config`` (RLlib's ``env_config``, a mapping) and/or keyword arguments, the arguments of
    ``electrify_v0.raw_env``: ``n_players`` (2-4, default 2), ``card_set``, ``tech_packs``,
    ``reward_mode`` (default ``win``), ``points_scale``, ``win_bonus``, ``render_mode``.  Any
    other key raises :class:`~electrify_env.InvalidArgumentError`.

    ## Version History

    * v0: initial version (``electrify_v0``, observation version 2).
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": RLLIB_ENV_NAME, "render_fps": 4}

    def __init__(self, config: Mapping[str, Any] | None = None, **kwargs) -> None:
        kw = {**dict(config or {}), **kwargs}
        unknown = sorted(k for k in kw if k not in ENV_CONFIG_KEYS)
        if unknown:
            raise InvalidArgumentError(f"env_config: unknown key {unknown[0]!r}; the keys are "
                                       f"{', '.join(ENV_CONFIG_KEYS)}")
        self._aec = raw_env(**kw)
        self.render_mode = self._aec.render_mode
        self.possible_agents = list(self._aec.possible_agents)
        self.agents = []
        super().__init__()
        self.agents = []   # no game before reset (MultiAgentEnv.__init__ copies possible_agents)
        self.observation_spaces = {a: observation_space() for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}

    @property
    def aec_env(self):
        """The wrapped PettingZoo AEC env (``electrify_v0.raw_env``)."""
        return self._aec

    @property
    def n_players(self) -> int:
        """Seats in the game."""
        return self._aec.n_players

    @property
    def card_set(self):
        """The card set played."""
        return self._aec.card_set

    @property
    def game(self):
        """The running :class:`~electrify_env.Game` (None before the first ``reset``)."""
        return self._aec.game

    def _obs(self, agent: str) -> dict[str, np.ndarray]:
        o = self._aec.observe(agent)
        return {OBS_KEY: o["observation"], MASK_KEY: o["action_mask"]}

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        """Start a new game (``seed`` seeds the AEC env's generator); returns the observation and
        info (``{"game_seed": ...}``) of the agent to act."""
        self._aec.reset(seed=seed, options=options)
        self.agents = list(self._aec.agents)
        agent = self._aec.agent_selection
        return {agent: self._obs(agent)}, {agent: {"game_seed": self._aec.game_seed}}

    def step(self, action_dict: Mapping[str, Any]):
        """Apply the acting agent's action; return RLlib's five dicts (observation of the next
        agent to act, or of every agent at the end; rewards; terminateds and truncateds with
        ``"__all__"``; infos)."""
        if not self.agents:
            raise InvalidArgumentError("step: the game is over (or was never started); call reset() first")
        agent = self._aec.agent_selection
        if set(action_dict) != {agent}:
            raise InvalidArgumentError(f"action_dict: must hold exactly the acting agent {agent!r}, "
                                       f"got keys {sorted(map(str, action_dict))}")
        aec = self._aec
        aec.step(action_dict[agent])   # IllegalActionError on an illegal id; the game is unchanged
        terminal = all(aec.terminations.values())
        rewards = {a: float(r) for a, r in aec.rewards.items() if a == agent or r != 0 or terminal}
        if terminal:
            self.agents = []
            obs = {a: self._obs(a) for a in self.possible_agents}
            terminateds = {a: True for a in self.possible_agents}
            terminateds["__all__"] = True
            return obs, rewards, terminateds, {"__all__": False}, {}
        nxt = aec.agent_selection
        return {nxt: self._obs(nxt)}, rewards, {"__all__": False}, {"__all__": False}, {}

    def render(self):
        """The AEC env's rendering (``render_mode``: ``ansi`` text, ``human`` print,
        ``rgb_array`` board picture)."""
        return self._aec.render()

    def close(self) -> None:
        """Nothing to release."""
        self._aec.close()


def make_rllib_env(config: Mapping[str, Any] | None = None) -> ElectrifyRLlibEnv:
    """The env creator registered by :func:`register_rllib_env`: ``ElectrifyRLlibEnv(config)``."""
    return ElectrifyRLlibEnv(config)


def register_rllib_env(name: str = RLLIB_ENV_NAME) -> str:
    """Register :class:`ElectrifyRLlibEnv` with ``ray.tune.registry.register_env`` under ``name``
    (default ``"electrify_rllib_v0"``), so that ``AlgorithmConfig.environment(name,
    env_config={...})`` builds it on every env runner of a cluster; returns ``name``."""
    from ray.tune.registry import register_env

    register_env(name, make_rllib_env)
    return name
