"""``Electrify-v0``: one seat of a 2-4 player game of Electrify against given opponents."""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from ..engine import batch as B
from ..engine import layout as L
from ..engine.masks import fill_mask
from ..engine.observe import OBS_SIZE, observe
from ..engine.step import apply_action
from ..game import IllegalActionError
from ..validation import InvalidArgumentError
from ._common import (
    DEFAULT_POINTS_SCALE, DEFAULT_WIN_BONUS, SEAT_REWARD_MODES, as_action, card_set_and_options,
    check_float, check_players, check_render_mode, check_seat, illegal_message, reward_code,
    scenario_table, with_observation_table,
)
from ._single import SingleGameEnv

Opponent = Callable[[np.ndarray, np.ndarray], int]


@with_observation_table
class ElectrifyEnv(SingleGameEnv):
    """
    ## Description

    One seat of a 2-4 player game of *Electrify*; the other seats are played by opponents given
    as callables ``opponent(observation, action_mask) -> action`` (each sees only its own
    observation, R26), by default uniform random legal play inside numba.  Every sub-decision
    of the rules is one step (R24).  The Plan step stays secret (R4): opponents choosing after
    the agent never see its choice, and the agent never sees theirs before the reveal.

    ## Action Space

    ``Discrete(N_ACTIONS)``; the legal mask is ``info["action_mask"]`` (int8) and
    :meth:`action_masks` (bool).  **Illegal actions** raise
    :class:`~electrify_env.IllegalActionError` (a ``ValueError``) here, for the agent and for an
    opponent alike; through ``gymnasium.make("Electrify-v0")`` the agent's illegal action ends
    the episode with ``illegal_reward`` instead (see
    :class:`~electrify_env.envs.TerminateIllegalAction`).

    ## Observation Space

    ``Box(0, 1, (OBS_SIZE,), float32)``: the agent's seat's view (no hidden information, R26),
    other seats in play order after it; ``docs/observation.md`` lists every field.  The
    top-level fields:

    {obs_table}

    ## Rewards

    ``reward_mode`` (``scale = points_scale``, default 0.1 per energy point):

    * ``"win"`` (default): at the end, +1/k to each of k winners (R18 tie-breaks; a shared win
      splits the +1), -1 to the others; 0 to everyone when all players tie.
    * ``"margin"``: at the end, (own points - best other player's points) * scale.
    * ``"score"``: at the end, own points * scale.
    * ``"shaped"``: every step, own energy-point gain * scale; at the end, ``win_bonus`` times
      the ``"win"`` reward.

    ## Starting State

    A new game from a seed drawn from the env's generator (``info["seed"]``); the agent's seat is
    ``seat`` or, when None, drawn from that seed.  Seats before the agent's have played their
    first decisions when ``reset`` returns.

    ## Episode End

    Terminated after round 12; never truncated.  The last ``info`` adds ``score``,
    ``final_score`` (= own points), ``best_other`` (the best other player's points), ``won``,
    ``seed``, ``seat``, ``episode_length`` and ``episode_return``.

    ## Arguments

    * ``n_players``: 2, 3 or 4.
    * ``seat``: the agent's seat, or None (drawn per episode).
    * ``opponents``: None (random, inside numba), one callable for every other seat, or a
      sequence of ``n_players - 1`` callables: entry k plays the seat k+1 places after the agent.
    * ``reward_mode``, ``points_scale``, ``win_bonus``: see Rewards.
    * ``card_set``, ``tech_packs``: as for :class:`~electrify_env.Game`.
    * ``render_mode``: None, ``"ansi"`` or ``"human"``.

    ## Version History

    * v0: initial version (observation version 2).
    """

    def __init__(self, n_players: int = 2, seat: int | None = 0,
                 opponents: Opponent | Sequence[Opponent] | None = None, reward_mode: str = "win",
                 card_set=None, tech_packs: Sequence[str] = (), points_scale: float = DEFAULT_POINTS_SCALE,
                 win_bonus: float = DEFAULT_WIN_BONUS, render_mode: str | None = None) -> None:
        self.n_players = check_players(n_players)
        self.reward_mode = reward_mode
        rm = reward_code(reward_mode, SEAT_REWARD_MODES)
        seat_code = check_seat(seat, self.n_players)
        self._opponents = self._check_opponents(opponents)
        self._cards, self._options = card_set_and_options(card_set, tech_packs)
        self._scenarios = []
        self._SCS = scenario_table(None)
        self._C, self._F = B.new_config(
            B.MODE_SEAT, self.n_players, self._options, rm, seat_code, -1,
            1 if self._opponents is None else 0, 0,
            check_float("win_bonus", win_bonus), check_float("points_scale", points_scale))
        self._setup(check_render_mode(render_mode, self.metadata["render_modes"]))

    def _check_opponents(self, opponents):
        if opponents is None:
            return None
        if callable(opponents):
            return [opponents] * (self.n_players - 1)
        try:
            items = list(opponents)   # a 0-d numpy array passes isinstance(x, Iterable) but raises here
        except TypeError:
            items = None
        if items is None or len(items) != self.n_players - 1 or not all(callable(o) for o in items):
            raise InvalidArgumentError(f"opponents must be None, a callable, or {self.n_players - 1} callables "
                                       f"(observation, action_mask) -> action, got {opponents!r:.80}")
        return items

    # ---- Python opponents --------------------------------------------------------------------
    def _play_opponents(self) -> None:
        S = self._S
        seat = self.seat
        n = self.n_players
        while not S[L.S_TERMINAL] and S[L.S_CUR] != seat:
            q = int(S[L.S_CUR])
            obs = np.empty(OBS_SIZE, dtype=np.float32)
            observe(S, self._T, self._FF, q, obs)
            mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
            fill_mask(S, self._T, mask)
            a = as_action(self._opponents[(q - seat) % n - 1](obs, mask.view(np.int8)))
            if not 0 <= a < L.N_ACTIONS or not mask[a]:
                raise IllegalActionError("opponent: " + illegal_message(a, mask, f"seat {q}"))
            apply_action(S, self._T, a)

    def _after_reset(self) -> None:
        if self._opponents is not None:
            self._play_opponents()
            B.write_view(self._S, self._T, self._FF, self.seat, self._obs_row, self._mask)

    def _step_checked(self) -> None:
        if self._opponents is None:
            super()._step_checked()
            return
        b = self._b
        apply_action(self._S, self._T, b.actions[0])
        self._play_opponents()
        rew, term = B.finish_step(self._S, self._T, self._SCS, self._FF, self._C, self._F, self._E,
                                  self._R, self._FI, self._obs_row, self._mask, self._fobs_row)
        b.rewards[0] = rew
        b.terms[0] = term

    def _final_info(self) -> dict:
        info = super()._final_info()
        info["best_other"] = int(self._FI[B.FI_TARGET])
        return info
