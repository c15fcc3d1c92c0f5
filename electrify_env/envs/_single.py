"""The common base of the single-game Gymnasium envs: one game stepped by the jitted functions of
:mod:`electrify_env.kernels.batch` (a batch of one), preallocated buffers, copies only of what
the API hands out."""
from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..kernels import batch as B
from ..engine import layout as L
from ..engine.observe import OBS_SIZE, OBS_VERSION
from ._common import (
    Buffers, SharedViews, as_action, check_reset_seed, game_snapshot, illegal_message, table_for,
)
from ..game import Game, IllegalActionError


class SingleGameEnv(SharedViews, gym.Env):
    """Base class: subclasses set up ``self._cards, self._options, self._SCS, self._scenarios,
    self._C, self._F`` and call :meth:`_setup`.

    ``pickle``, ``copy.deepcopy`` and ``cloudpickle`` give an independent env that plays on
    from the same position (the row views into the buffers are rebuilt, see
    :class:`~electrify_env.envs._common.SharedViews`).
    """

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 4}
    _VIEWS = ("_S", "_E", "_R", "_FI", "_obs_row", "_fobs_row", "_mask", "_mask_i8")

    def _setup(self, render_mode: str | None) -> None:
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(L.N_ACTIONS)
        self._T, self._FF = table_for(self._cards)
        self._b = Buffers(1)
        self._bind_views()
        self._seeds = np.zeros(1, dtype=np.int64)
        self._started = False

    def _bind_views(self) -> None:
        """The game's rows of the buffers (``self._b`` holds a batch of one)."""
        b = self._b
        self._S = b.states[0]
        self._E = b.E[0]
        self._R = b.R[0]
        self._FI = b.FI[0]
        self._obs_row = b.obs[0]
        self._fobs_row = b.final_obs[0]
        self._mask = b.masks[0]
        self._mask_i8 = b.masks_i8[0]

    # ---- Gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a new game.  Its seed is drawn from the env's generator (``np_random``, seeded by
        ``seed``) and reported in ``info["seed"]``; ``options`` is accepted and unused."""
        super().reset(seed=check_reset_seed(seed))
        self._seeds[0] = int(self.np_random.integers(0, B.MAX_SEED, endpoint=True))
        b = self._b
        B.batch_reset(b.states, self._T, self._SCS, self._FF, self._C, self._F, None, b.E, b.R,
                      self._seeds, b.obs, b.masks)
        self._after_reset()
        self._started = True
        return self._obs_row.copy(), self._reset_info()

    def step(self, action):
        """Apply the agent's action id; see the class docstring for rewards and the end."""
        a = as_action(action)
        b = self._b
        if not 0 <= a < L.N_ACTIONS or not self._mask[a]:
            raise IllegalActionError(illegal_message(a, self._mask, self._who()))
        b.actions[0] = a
        self._step_checked()
        term = bool(b.terms[0])
        info = {"action_mask": self._mask_i8.copy()}
        if term:
            info.update(self._final_info())
        return self._obs_row.copy(), float(b.rewards[0]), term, False, info

    def _step_checked(self) -> None:
        b = self._b
        B.batch_step(b.states, self._T, self._SCS, self._FF, self._C, self._F, None, b.E, b.R,
                     b.FI, b.actions, b.obs, b.masks, b.rewards, b.terms, b.final_obs)

    def _after_reset(self) -> None:
        """Hook: seats before the agent's (one-seat env with Python opponents)."""

    def action_masks(self) -> np.ndarray:
        """bool mask of the legal action ids (all False once the episode is over), for
        sb3-contrib's MaskablePPO."""
        return self._mask != 0

    def render(self):
        """``"ansi"``: the table as text (every hand shown); ``"human"``: print it;
        ``"rgb_array"``: the board picture as the agent's seat sees it (no hidden information),
        an ``(H, W, 3)`` uint8 array of one size for the whole episode
        (:func:`electrify_env.render.board.game_rgb`; needs Pillow)."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi', 'human' "
                            "or 'rgb_array'")
            return None
        if self.render_mode == "rgb_array":
            from ..render.board import game_rgb
            if not self._started:
                return game_rgb(None, seat=0, n_players=self._render_players())
            return game_rgb(self.snapshot(), seat=self.seat)
        text = self.snapshot().render() if self._started else "(no game yet: call reset())"
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # ---- extras ------------------------------------------------------------------------------
    @property
    def seat(self) -> int:
        """The agent's seat in the running game (0 in solo)."""
        return int(self._E[B.E_SEAT])

    @property
    def card_set(self):
        """The card set played (``card_set.hash`` identifies it in policy metadata)."""
        return self._cards

    @property
    def game_seed(self) -> int:
        """Seed of the running game (``Game(seed=...)`` with the same actions replays it)."""
        return int(self._E[B.E_SEED])

    def legal_actions(self) -> np.ndarray:
        """The legal action ids, ascending."""
        return np.flatnonzero(self._mask)

    def snapshot(self) -> Game:
        """A :class:`~electrify_env.Game` holding a copy of the running game (render it, describe
        actions with ``describe_action``, search from it).  Its ``history`` is empty."""
        return game_snapshot(self._cards, self._current_scenario(), int(self._S[L.S_NPLAYERS]),
                             self.game_seed, self._options, self._S)

    def describe_action(self, action: int) -> str:
        """Human-readable meaning of ``action`` at the agent's pending decision."""
        return self.snapshot().describe_action(int(action))

    def _current_scenario(self):
        return None

    def _render_players(self) -> int:
        """Players of the blank frame drawn before the first reset."""
        return int(getattr(self, "n_players", 1) or 1)

    def _who(self) -> str:
        if not self._started:
            return "this env"
        return f"seat {self.seat} at: {self.snapshot().pending()}"

    def _reset_info(self) -> dict:
        return {"action_mask": self._mask_i8.copy(), "seed": self.game_seed, "seat": self.seat,
                "obs_version": OBS_VERSION}

    def _final_info(self) -> dict:
        fi = self._FI
        return {"score": int(fi[B.FI_SCORE]), "final_score": int(fi[B.FI_FINAL]),
                "won": bool(fi[B.FI_WON]), "seed": int(fi[B.FI_SEED]), "seat": int(fi[B.FI_SEAT]),
                "episode_length": int(fi[B.FI_LEN]), "episode_return": float(self._R[B.R_LAST_RET])}
