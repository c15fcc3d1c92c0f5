"""``gizmos_v0``: Gizmos for 2-4 players as a PettingZoo AEC environment.

>>> from electrify_env.gizmos.envs import gizmos_v0
>>> env = gizmos_v0.env(n_players=3)
>>> env.reset(seed=42)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     action = None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
...     env.step(action)
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ...validation import IllegalActionError, check_seed
from ..game import Game
from ..observation import OBS_SIZE, OBS_VERSION, observe_state
from ._common import N_ACTIONS, CopyableEnv, as_action, check_players, check_render_mode, draw_game_seed, illegal_message, render_text

__all__ = ["env", "raw_env", "GizmosAECEnv"]


def env(**kwargs) -> AECEnv:
    """:class:`raw_env` with PettingZoo's standard wrappers: ``TerminateIllegalWrapper`` (an
    illegal action ends the game: -1 to the offender, 0 to the others), ``AssertOutOfBoundsWrapper``
    and ``OrderEnforcingWrapper``."""
    e = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(CopyableEnv, AECEnv):
    """
    ## Description

    *Gizmos* for 2-4 players (rulings G1-G25 of ``docs/gizmos/rules.md``).  Agents ``player_0``
    ... ``player_{n-1}`` are the seats.  Every sub-decision of the rules is one turn of the agent
    whose decision is pending (G23): the turn's action, each payment step, the research choice,
    each machine used in the chain reaction and each choice of its effect, so an agent often
    acts many times in a row.  Turns are sequential and no decision is simultaneous, so the env
    is AEC only (``metadata["is_parallelizable"]`` is False).  Copies (``pickle``,
    ``copy.deepcopy``) are independent envs that play on from the same position.

    ## Action Space

    ``Discrete(N_ACTIONS)`` (157) for every agent, the ranges ``A_*`` of
    ``electrify_env/gizmos/engine/gz_layout.py``.  The legal mask is
    ``observation["action_mask"]`` (int8; all zero for agents not to move) and
    ``infos[agent]["action_mask"]``.  **Illegal actions**: ``raw_env`` raises
    :class:`~electrify_env.validation.IllegalActionError` (a ``ValueError``) and the game is
    unchanged; :func:`env` ends the game instead (-1 to the offender, 0 to the others).

    ## Observation Space

    ``Dict({"observation": Box(0, 1, (OBS_SIZE,), float32), "action_mask": Box(0, 1,
    (N_ACTIONS,), int8)})``.  The observation is the agent's own view
    (:mod:`electrify_env.gizmos.observation`, other seats in play order after it); it holds no
    hidden information (G25: no deck order, no card removed at setup, no other seat's
    researched cards).

    ## Rewards

    At the end only: +1 to the winner (G21 leaves no shared win), -1 to every other player;
    0 on every other step.

    ## Starting State

    A new game from a seed drawn from the env's generator (seeded by ``reset(seed=...)``);
    ``env.unwrapped.game_seed`` holds it, and ``Game(n_players, seed=game_seed)`` stepped through
    ``env.unwrapped.history`` replays the game.  ``player_0`` moves first.

    ## Episode End

    When the game ends by G20 (a player ends a turn with 16 machines or 4 level-III machines,
    and the round is completed), every agent is terminated.  A game that reaches the round cap
    (G22, round 100) ends with every agent truncated instead; the rewards of the final ranking
    are given either way.  Each agent then steps ``None`` once.

    ## Arguments

    * ``n_players``: 2, 3 or 4.
    * ``card_set``: a :class:`~electrify_env.gizmos.cards.CardSet`, a card-set YAML path, or None
      (the default set).
    * ``render_mode``: None, ``"ansi"`` (``render()`` returns the table as text) or ``"human"``
      (prints it).

    ## Version History

    * v0: initial version (observation version 1).
    """

    metadata = {"render_modes": ["human", "ansi"], "name": "gizmos_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, n_players: int = 2, card_set=None, render_mode: str | None = None) -> None:
        super().__init__()
        self.n_players = check_players(n_players)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._probe = Game(self.n_players, seed=0, card_set=card_set)   # checks and loads the card set once
        self._cards = self._probe.cards
        self.possible_agents = [f"player_{i}" for i in range(self.n_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(N_ACTIONS,), dtype=np.int8),
        }) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_ACTIONS) for a in self.possible_agents}
        self._np_random, _ = seeding.np_random(None)
        self._mask = np.zeros(N_ACTIONS, dtype=np.int8)
        self._zero_mask = np.zeros(N_ACTIONS, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        self.game: Game | None = None
        self.game_seed: int | None = None
        self.agents = []

    def observation_space(self, agent: str) -> spaces.Space:
        """The (same, every call) observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The (same, every call) action space of ``agent``."""
        return self.action_spaces[agent]

    # ---- PettingZoo API ----------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` (None or 0..2**62-1) seeds the env's generator, from which
        the game's seed is drawn.  ``options`` is accepted and unused."""
        if seed is not None:
            self._np_random, _ = seeding.np_random(check_seed(seed))
        self.game_seed = draw_game_seed(self._np_random)
        self.game = Game(self.n_players, seed=self.game_seed, card_set=self._cards)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._refresh_mask()
        cur = self.game.current_player
        self.infos = {a: {"action_mask": self._mask.copy() if i == cur else self._zero_mask}
                      for i, a in enumerate(self.agents)}
        self.agent_selection = self.agents[cur]

    def _refresh_mask(self) -> None:
        self._mask[:] = self.game.legal_mask()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``{"observation": float32 (OBS_SIZE,), "action_mask": int8 (N_ACTIONS,)}`` of ``agent``
        (fresh arrays; the mask is all zero unless ``agent`` is to move)."""
        seat = self.agent_name_mapping[agent]
        obs = np.empty(OBS_SIZE, dtype=np.float32)
        g = self.game
        observe_state(g.state, g.cards.table, np.int64(seat), obs)
        if not g.done and g.current_player == seat:
            mask = self._mask.copy()
        else:
            mask = np.zeros(N_ACTIONS, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action) -> None:
        """Apply ``action`` for ``agent_selection`` (``None`` for an agent already done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = as_action(action)
        if not 0 <= a < N_ACTIONS or not self._mask[a]:
            raise IllegalActionError(illegal_message(a, self._mask, f"{agent} at: {self.game.decision().context}"))
        g = self.game
        g.step_unchecked(a)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if g.done:
            self._mask[:] = 0
            winner = g.winner()
            trunc = g.truncated
            for i, ag in enumerate(self.agents):
                self.rewards[ag] = 1.0 if i == winner else -1.0
                self.terminations[ag] = not trunc
                self.truncations[ag] = trunc
                self.infos[ag] = {"action_mask": self._zero_mask}
        else:
            self._refresh_mask()
            nxt = self.agents[g.current_player]
            if nxt != agent:
                self.infos[agent] = {"action_mask": self._zero_mask}
                self.agent_selection = nxt
            self.infos[nxt] = {"action_mask": self._mask.copy()}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        """``"ansi"``: the table as text (what every seat sees); ``"human"``: print it."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """The full engine state (int64 copy of length ``S_SIZE``), hidden information included:
        for centralised training or search only."""
        return self.game.state.copy()

    def close(self) -> None:
        """Nothing to release."""

    @property
    def card_set(self):
        """The card set played."""
        return self._cards

    @property
    def history(self) -> list[int]:
        """The actions applied in the running game."""
        return list(self.game.history) if self.game is not None else []

    @property
    def obs_version(self) -> int:
        """The observation's version (:data:`electrify_env.gizmos.observation.OBS_VERSION`)."""
        return OBS_VERSION


GizmosAECEnv = raw_env
