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

from ..kernels import batch as B
from ..engine import layout as L
from ..engine.masks import fill_mask
from ..engine.observe import OBS_SIZE, observe
from ..engine.stack import pbase
from ..engine.step import apply_action
from ..game import Game, IllegalActionError
from ..savefile import MAX_COUNT
from ..scenarios import CONDITIONS, MAX_STAR_POINTS, MAX_TARGET
from ._common import (
    DEFAULT_POINTS_SCALE, DEFAULT_WIN_BONUS, SEAT_REWARD_MODES, SharedViews, as_action,
    card_set_and_options, check_float, check_players, check_render_mode, check_reset_seed,
    illegal_message, reward_code, table_for, with_observation_table,
)

__all__ = ["env", "raw_env", "ElectrifyAECEnv", "state_bounds"]

_MAX_CH_PARAM = max(q.hi for c in CONDITIONS.values() for q in c.params)


def _state_field_bounds() -> dict[str, tuple[int, int]]:
    """(low, high) of every entry of each state field and player-block field, named as in
    :mod:`electrify_env.engine.layout`; ranges hold for any card set, scenario and player
    count (an unused seat's block is all 0).  Counts (cubes, points, clean tokens, decisions)
    go up to the limit saves are checked against, ``savefile.MAX_COUNT``."""
    card = (L.NO_CARD, L.MAX_IND - 1)
    count = (0, MAX_COUNT)
    flag = (0, 1)
    return {
        "S_VERSION": (L.STATE_VERSION, L.STATE_VERSION), "S_NPLAYERS": (1, L.MAX_PLAYERS),
        "S_ROUND": (0, L.N_ROUNDS), "S_CUR": (0, L.MAX_PLAYERS - 1), "S_TERMINAL": flag,
        "S_DECISIONS": count, "S_OPTIONS": (0, B.MAX_SEED), "S_RNG": (0, (1 << 32) - 1),
        "S_DECK_N": (0, L.MAX_DECK), "S_DECK": card, "S_DISC_N": (0, L.MAX_DECK), "S_DISC": card,
        "S_BASIC": flag, "S_DEMAND": (0, L.MAX_DEMAND - 1), "S_SOLO": flag,
        "S_SOLO_TARGET": (0, MAX_TARGET), "S_SOLO_BONUS": (0, (1 << L.N_LEVELS) - 1),
        "S_SOLO_RLEVEL": (-1, L.N_LEVELS - 1), "S_SOLO_NSTARS": (0, L.MAX_SCENARIO_STARS),
        "S_STAR_ROUND": (0, L.N_ROUNDS), "S_STAR_STATE": (0, 2),
        "S_STAR_POINTS": (0, MAX_STAR_POINTS), "S_SOLO_NCH": (0, L.MAX_CHALLENGES),
        "S_CH_COND": (0, L.N_CH_CODES - 1), "S_CH_A": (-1, _MAX_CH_PARAM),
        "S_CH_B": (-1, _MAX_CH_PARAM), "S_CH_MET": flag,
        "S_BAG": (0, max(L.N_TOKENS_INNOVATION, L.N_TOKENS_COLLABORATION)),
        "S_SP": (0, L.MAX_STACK),
        # S_STACK and S_PLAYERS: per frame field and per player-block field, below
        "P_DEPOT": count, "P_GRID": count, "P_RESEARCH": (0, L.RESEARCH_TRACK), "P_BT": flag,
        "P_CLEAN": count, "P_SCORE": count, "P_NFULFILLED": (0, L.N_LEVELS), "P_FULFILLED": flag,
        "P_SEC_COL": (0, L.N_COLS - 1), "P_SEC_SIDE": flag, "P_SEC_N": (0, L.MAX_SLOTS),
        "P_SEC_CARD": (L.NO_CARD, L.FACE_SECTOR - 1), "P_SEC_CHARGED": flag,
        "P_CARD_CHARGED": flag, "P_HAND_N": (0, L.MAX_HAND), "P_HAND": card,
        "P_PLAN": (-1, L.N_SECTORS - 1), "P_CHOSEN": (-1, L.N_SECTORS - 1),
        "P_BOOST": (L.BOOST_NONE, L.BOOST_COLLABORATION), "P_DEMANDS_ROUND": (0, L.N_LEVELS),
        "P_RESEARCH_TOTAL": count, "P_PTS": count,
        "P_SOLO_TOKEN": (0, max(L.TOKEN_INNOVATION, L.TOKEN_COLLABORATION)),
    }


def state_bounds() -> tuple[np.ndarray, np.ndarray]:
    """(low, high): int64 arrays of length ``S_SIZE`` bounding every entry of the engine state
    (:meth:`raw_env.state`), the ``state_space`` of the PettingZoo env.  Decision frames: the
    frame type, then arguments ``0..MAX_COUNT`` (the invest-queue bits ``FR_E`` up to
    ``2**62 - 1``)."""
    fields = _state_field_bounds()
    player = np.zeros((2, L.P_SIZE), dtype=np.int64)
    for name, off, length, _ in L.layout_rows()["player block"]:
        player[:, off:off + length] = np.array(fields[name])[:, None]
    frame = np.zeros((2, L.FRAME), dtype=np.int64)
    frame[1] = MAX_COUNT
    frame[1, L.FR_TYPE] = L.N_FRAME_TYPES - 1
    frame[1, L.FR_E] = B.MAX_SEED
    bounds = np.zeros((2, L.S_SIZE), dtype=np.int64)
    for name, off, length, _ in L.layout_rows()["state S"]:
        if name == "S_STACK":
            bounds[:, off:off + length] = np.tile(frame, L.MAX_STACK)
        elif name == "S_PLAYERS":
            bounds[:, off:off + length] = np.tile(player, L.MAX_PLAYERS)
        else:
            bounds[:, off:off + length] = np.array(fields[name])[:, None]
    return bounds[0].copy(), bounds[1].copy()


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
class raw_env(SharedViews, AECEnv):
    """
    ## Description

    *Electrify* for 2-4 players (rulings R1-R19 and R24-R26 of ``docs/rules.md``).  Agents ``player_0`` ...
    ``player_{n-1}`` are the seats.  Every sub-decision of the rules is one turn of the agent
    whose decision is pending (R24), so an agent often acts many times in a row.  The Plan step
    is secret and simultaneous (R4, R26): seats dial in order, and no observation, mask, reward
    or info shows a choice made before the reveal.  Copies (``pickle``, ``copy.deepcopy``,
    ``cloudpickle``, as SuperSuit's ``vectorize_aec_env_v0`` makes them) are independent envs
    that play on from the same position.

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

    ``state()`` is the full engine state (hidden information included, for centralised training
    or search), an int64 array in ``state_space``: ``Box(low, high, (S_SIZE,), int64)`` with the
    per-field bounds of :func:`state_bounds` (``electrify layout`` lists the fields).

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
      shown), ``"human"`` (prints it) or ``"rgb_array"`` (the board picture of the public table
      as an ``(H, W, 3)`` uint8 array).

    ## Version History

    * v0: initial version (observation version 2); ``render_mode="rgb_array"`` added.
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "name": "electrify_v0",
                "is_parallelizable": False, "render_fps": 4}
    _VIEWS = ("_mask_i8", "_S")

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
        # the reward rules of the one-seat envs (kernels.batch), read per seat
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
        self.state_space = spaces.Box(*state_bounds(), shape=(L.S_SIZE,), dtype=np.int64)
        self._np_random, _ = seeding.np_random(None)
        self._mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        self._zero_mask = np.zeros(L.N_ACTIONS, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        self.game: Game | None = None
        self.agents = []
        self._bind_views()

    def _bind_views(self) -> None:
        """``_mask_i8``: the legal mask seen as int8; ``_S``: the running game's state."""
        self._mask_i8 = self._mask.view(np.int8)
        if self.game is not None:
            self._S = self.game.state

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
            self._np_random, _ = seeding.np_random(check_reset_seed(seed))
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
        """``"ansi"``: the table as text (every hand shown); ``"human"``: print it;
        ``"rgb_array"``: the board picture of the public table (no hand, no secret Plan pick) as
        an ``(H, W, 3)`` uint8 array of one size per player count
        (:func:`electrify_env.render.board.game_rgb`; needs Pillow)."""
        if self.render_mode is None:
            import gymnasium
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi', 'human' "
                                  "or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            from ..render.board import game_rgb
            return game_rgb(self.game, seat=-1, n_players=self.n_players)
        text = self.game.render() if self.game is not None else "(no game yet: call reset())"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """The full engine state: an int64 copy of length ``S_SIZE`` in ``state_space`` (layout:
        ``electrify layout``).  It includes hidden information: for centralised training or
        search only."""
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
