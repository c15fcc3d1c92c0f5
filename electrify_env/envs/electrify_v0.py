"""``electrify_v0``: Electrify for 2-4 players as a PettingZoo AEC environment.

>>> from electrify_env.envs import electrify_v0      # or: import electrify_env; electrify_env.env()
>>> env = electrify_v0.env(n_players=3)
>>> env.reset(seed=42)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..engine import batch as B
from ..engine import layout as L
from ..engine.masks import fill_mask
from ..engine.observe import OBS_SIZE, observe
from ..engine.stack import pbase
from ..engine.step import apply_action
from ..game import Game, IllegalActionError
from ._common import (
    DEFAULT_POINTS_SCALE, DEFAULT_WIN_BONUS, SEAT_REWARD_MODES, as_action, card_set_and_options,
    check_float, check_players, check_render_mode, illegal_message, reward_code, table_for,
    with_observation_table,
)

__all__ = ["env", "raw_env", "ElectrifyAECEnv"]


def env(**kwargs) -> AECEnv:
    """:class:`raw_env` with PettingZoo's standard wrappers: ``TerminateIllegalWrapper`` (an
    illegal action ends the game: -1 to the offender, 0 to the others), ``AssertOutOfBoundsWrapper``
    and ``OrderEnforcingWrapper``."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


@with_observation_table
class raw_env(AECEnv):
    """
    ## Description

    *Electrify* for 2-4 players (rulings R1-R19 and R24-R26).  Agents ``player_0`` ...
    ``player_{n-1}`` are the seats.  Every sub-decision of the rules is one turn of the agent
    whose decision is pending (R24), so an agent often acts many times in a row.  The Plan step
    is secret and simultaneous (R4, R26): seats dial in order, and no observation, mask, reward
    or info shows a choice made before the reveal.

    ## Action Space

    ``Discrete(N_ACTIONS)`` for every agent.  The legal mask is ``observation["action_mask"]``
    (int8; all zero for agents not to move) and ``infos[agent]["action_mask"]``.  **Illegal
    actions**: ``raw_env`` raises :class:`~electrify_env.IllegalActionError` (a ``ValueError``)
    and the game is unchanged; :func:`env` ends the game instead (PettingZoo's
    ``TerminateIllegalWrapper``: -1 to the offender, 0 to the others).

    ## Observation Space

    ``Dict({"observation": Box(0, 1, (OBS_SIZE,), float32), "action_mask": Box(0, 1,
    (N_ACTIONS,), int8)})``.  The observation is the agent's own view, other seats in play order
    after it; it holds no hidden information (others' hands, deck order, others' pending plan
    choices).  ``docs/observation.md`` names every entry; the top-level fields:

    {obs_table}

    ## Rewards

    ``reward_mode`` (``scale = points_scale``, default 0.1 per energy point):

    * ``"win"`` (default): at the end, the winners (R18 tie-breaks) share +1 -- each of k
      winners gets +1/k -- and every other player gets -1; when all players tie, everyone gets 0.
    * ``"margin"``: at the end, (own points - best other player's points) * scale.
    * ``"score"``: at the end, own points * scale.
    * ``"shaped"``: at each turn, the acting agent's energy-point gain * scale; at the end,
      ``win_bonus`` times the ``"win"`` reward.

    ## Starting State

    A new game from a seed drawn from the env's generator (seeded by ``reset(seed=...)``);
    ``env.unwrapped.game_seed`` holds it, and ``Game.replay(env.unwrapped.history, n_players,
    env.unwrapped.game_seed)`` replays the game.  ``player_0`` dials first.

    ## Episode End

    After round 12 every agent is terminated (never truncated); each then steps ``None`` once.

    ## Arguments

    * ``n_players``: 2, 3 or 4.
    * ``card_set``: a CardSet, a card-set YAML path, or None (the base set).
    * ``tech_packs``: tech packs to shuffle in (``"grid"``, ``"market"`` or paths).
    * ``reward_mode``, ``points_scale``, ``win_bonus``: see Rewards.
    * ``render_mode``: None, ``"ansi"`` (``render()`` returns the table as text, every hand
      shown) or ``"human"`` (prints it).

    ## Version History

    * v0: initial version (observation version 2).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "electrify_v0", "is_parallelizable": False,
                "render_fps": 1}

    def __init__(self, n_players: int = 2, card_set=None, tech_packs: Sequence[str] = (),
                 reward_mode: str = "win", points_scale: float = DEFAULT_POINTS_SCALE,
                 win_bonus: float = DEFAULT_WIN_BONUS, render_mode: str | None = None) -> None:
        super().__init__()
        self.n_players = check_players(n_players)
        self.reward_mode = reward_mode
        rm = reward_code(reward_mode, SEAT_REWARD_MODES)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._cards, self._options = card_set_and_options(card_set, tech_packs)
        self._T, self._FF = table_for(self._cards)
        # the reward rules of the one-seat envs (engine.batch), read per seat
        self._C, self._F = B.new_config(B.MODE_SEAT, self.n_players, self._options, rm, 0, -1, 0, 0,
                                        check_float("win_bonus", win_bonus),
                                        check_float("points_scale", points_scale))
        self._shaped = rm == B.RM_SHAPED
        self._scale = float(self._F[B.F_POINTS_SCALE])
        self.possible_agents = [f"player_{i}" for i in range(self.n_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(L.N_ACTIONS,), dtype=np.int8),
        })
        self.observation_spaces = {a: obs_space if i == 0 else _copy_space(obs_space)
                                   for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(L.N_ACTIONS) for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self._mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        self._mask_i8 = self._mask.view(np.int8)
        self._zero_mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        self.game: Game | None = None
        self.agents = []

    def observation_space(self, agent: str) -> spaces.Space:
        """The (same, every call) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The (same, every call) action space of ``agent``."""
        return self.action_spaces[agent]

    # ---- PettingZoo API ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` seeds the env's generator, from which the game's seed is
        drawn.  ``options`` is accepted and unused."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        self.game_seed = int(self._np_random.integers(0, B.MAX_SEED, endpoint=True))
        self.game = Game(self.n_players, seed=self.game_seed, card_set=self._cards)
        self._S = self.game.state
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        fill_mask(self._S, self._T, self._mask)
        cur = int(self._S[L.S_CUR])
        self.infos = {a: {"action_mask": self._mask_i8.copy() if i == cur else self._zero_mask}
                      for i, a in enumerate(self.agents)}
        self.agent_selection = self.agents[cur]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_SIZE,), "action_mask": int8 (N_ACTIONS,)}`` of ``agent``
        (fresh arrays; the mask is all zero unless ``agent`` is to move)."""
        seat = self.agent_name_mapping[agent]
        obs = np.empty(OBS_SIZE, dtype=np.float32)
        observe(self._S, self._T, self._FF, seat, obs)
        S = self._S
        if not S[L.S_TERMINAL] and S[L.S_CUR] == seat:
            mask = self._mask_i8.copy()
        else:
            mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action) -> None:
        """Apply ``action`` for ``agent_selection`` (``None`` for an agent already terminated)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = as_action(action)
        if not 0 <= a < L.N_ACTIONS or not self._mask[a]:
            raise IllegalActionError(illegal_message(a, self._mask, f"{agent} at: {self.game.pending()}"))
        S = self._S
        seat = self.agent_name_mapping[agent]
        if self._shaped:
            before = S[pbase(seat) + L.P_SCORE]
        apply_action(S, self._T, a)
        self.game.history.append(a)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self._shaped:
            self.rewards[agent] = float(S[pbase(seat) + L.P_SCORE] - before) * self._scale
        if S[L.S_TERMINAL]:
            self._mask[:] = 0
            for i, ag in enumerate(self.agents):
                self.rewards[ag] += float(B.terminal_reward(S, self._T, self._C, self._F, i))
                self.terminations[ag] = True
                self.infos[ag] = {"action_mask": self._zero_mask}
        else:
            fill_mask(S, self._T, self._mask)
            nxt = self.agents[int(S[L.S_CUR])]
            if nxt != agent:
                self.infos[agent] = {"action_mask": self._zero_mask}
                self.agent_selection = nxt
            self.infos[nxt] = {"action_mask": self._mask_i8.copy()}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """``"ansi"``: the table as text (every hand shown); ``"human"``: print it."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.game.render() if self.game is not None else "(no game yet: call reset())"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """The full engine state (a copy; it includes hidden information, for centralised
        training or search only)."""
        return self._S.copy()

    def close(self) -> None:
        """Nothing to release."""

    @property
    def card_set(self):
        """The card set played."""
        return self._cards

    @property
    def history(self) -> list[int]:
        """The actions applied in the running game (``Game.replay`` rebuilds it)."""
        return list(self.game.history) if self.game is not None else []


ElectrifyAECEnv = raw_env


def _copy_space(space: spaces.Dict) -> spaces.Dict:
    """An equal but distinct space object (each agent seeds its own)."""
    return spaces.Dict({k: (spaces.Box(v.low, v.high, shape=v.shape, dtype=v.dtype)) for k, v in space.spaces.items()})
