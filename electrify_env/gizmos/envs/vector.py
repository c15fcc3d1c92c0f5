"""A Gymnasium ``VectorEnv`` of N Gizmos games stepped together by one jitted call
(:mod:`electrify_env.gizmos.engine.gz_batch`).

>>> import gymnasium as gym, electrify_env
>>> env = gym.make_vec("Gizmos-v0", num_envs=8, vectorization_mode="vector_entry_point")
>>> obs, info = env.reset(seed=0)
>>> obs.shape
(8, 7028)
"""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ...validation import IllegalActionError, InvalidArgumentError, check_seed, check_seed_run
from ..engine import gz_batch as B
from ..engine import gz_layout as L
from ..game import Game
from ..observation import OBS_SIZE
from ._common import N_ACTIONS, check_players

__all__ = ["GizmosVectorEnv", "make_gizmos_vector_env"]


class GizmosVectorEnv(VectorEnv):
    """
    ## Description

    ``num_envs`` games of *Gizmos*, each one seat of a 2-4 player game (as ``Gizmos-v0``) against
    opponents played inside numba with uniformly random legal ids.  All games are stepped by one
    jitted call over an (N, S_SIZE) state array
    (:func:`electrify_env.gizmos.engine.gz_batch.batch_step`): observations, masks, rewards,
    terminations and truncations are written into preallocated arrays, and finished games restart
    in the same call.  ``gymnasium.make_vec("Gizmos-v0", num_envs=N,
    vectorization_mode="vector_entry_point")`` builds one.

    ## Action Space

    ``MultiDiscrete([N_ACTIONS] * N)`` (one id per game).  The masks are ``info["action_mask"]``
    ((N, N_ACTIONS) int8) and :meth:`action_masks` (bool).  An illegal id in any row raises
    :class:`~electrify_env.validation.IllegalActionError` (a ``ValueError``) naming the row, and
    no game is stepped.

    ## Observation Space

    ``Box(0, 1, (N, OBS_SIZE), float32)``; each row the agent's seat's view, as in
    ``Gizmos-v0`` (:mod:`electrify_env.gizmos.observation`).  With ``copy=False`` (default)
    ``step`` and ``reset`` return one of two alternating arrays, so an observation stays valid
    during the next step and is overwritten by the one after; ``copy=True`` returns fresh arrays.
    The mask in ``info`` is the live buffer; copy it to keep it.

    ## Rewards

    As ``Gizmos-v0``: at the end only, +1 if the agent's seat ranks first (G21), else -1; 0 on
    every other step (float64, shape (N,)).

    ## Starting State

    ``reset(seed=s)`` starts game i from the game seed ``s + i`` (a list gives one game seed per
    row; None draws them); game i is ``Game(n_players, seed)`` (:attr:`seeds`).  A finished game
    restarts with a seed drawn from its own generator, so a run is reproducible from the reset
    seed.  The agent's seat is ``seat``, or (``seat=None``) drawn from each game's seed
    (:attr:`seats`).  The opponents draw from a generator of their own per row, seeded from the
    game's seed (:func:`~electrify_env.gizmos.engine.gz_batch.seed_opponents`), so every episode
    is the game ``Game(n_players, seed)`` played with the agent's and the opponents' ids.

    ## Episode End

    Autoreset mode ``SAME_STEP`` (``metadata["autoreset_mode"]``): in the step that ends game i,
    ``terminations[i]`` (G20) or ``truncations[i]`` (the round cap, G22) is True, the returned
    observation row is the new game's first, the last observation is ``info["final_obs"][i]`` and
    the outcome is in ``info["final_info"]``: ``score``, ``won``, ``winner``, ``seed``, ``seat``,
    ``episode_length`` (the agent's steps), ``episode_return`` (arrays of shape (N,)) and
    ``scores`` ((N, n_players)), each with a ``"_<key>"`` bool mask.

    ## Arguments

    * ``num_envs``: number of games N (a positive integer).
    * ``n_players``: 2, 3 or 4.
    * ``seat``: the agent's seat, or None (drawn per game from its seed).
    * ``opponents``: None or ``"random"`` (the only opponents played inside numba);
      ``Gizmos-v0`` (``gymnasium.make``, one game) takes any agent.
    * ``card_set``: a :class:`~electrify_env.gizmos.cards.CardSet`, a card-set YAML path, or
      None (the default set).
    * ``parallel``: spread the rows over numba's threads
      (:func:`~electrify_env.gizmos.engine.gz_batch.batch_step_parallel`; identical results).
      Off by default: it pays on a machine with spare cores; when other processes keep the cores
      busy it can run slower than one core.
    * ``copy``: return fresh observation arrays.

    ## Version History

    * v0: initial version (observation version 1).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 64, n_players: int = 2, seat: int | None = 0,
                 opponents: str | None = None, card_set=None, parallel: bool = False,
                 copy: bool = False, render_mode: str | None = None) -> None:
        if isinstance(num_envs, (bool, np.bool_)) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise InvalidArgumentError(f"num_envs must be a positive integer, got {num_envs!r:.60}")
        if render_mode is not None:
            raise InvalidArgumentError("the vector env does not render; use Gizmos-v0 or snapshot(i)")
        self.num_envs = int(num_envs)
        self.n_players = check_players(n_players)
        if seat is not None and (isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer))
                                 or not 0 <= seat < self.n_players):
            raise InvalidArgumentError(f"seat must be None or an integer 0..{self.n_players - 1}, got {seat!r:.60}")
        if opponents is not None and opponents != "random":
            raise InvalidArgumentError(
                f"opponents: the vector env plays random opponents inside numba: give None or \"random\", "
                f"got {' '.join(repr(opponents).split())[:60]}; Gizmos-v0 (gymnasium.make) takes any agent")
        if not isinstance(copy, (bool, np.bool_)):
            raise InvalidArgumentError(f"copy must be True or False, got {copy!r:.60}")
        if not isinstance(parallel, (bool, np.bool_)):
            raise InvalidArgumentError(f"parallel must be True or False, got {parallel!r:.60}")
        self.parallel = bool(parallel)
        self.seat_arg = None if seat is None else int(seat)
        self.copy = bool(copy)
        self.render_mode = None
        self._cards = Game(self.n_players, seed=0, card_set=card_set).cards
        self._T = self._cards.table
        self._C = B.new_config(self.n_players, -1 if seat is None else int(seat))
        n = self.num_envs
        self._states = np.zeros((n, L.S_SIZE), dtype=np.int64)
        self._OR = np.zeros((n, B.OR_SIZE), dtype=np.int64)
        self._E = np.zeros((n, B.E_SIZE), dtype=np.int64)
        self._FI = np.zeros((n, B.FI_SIZE), dtype=np.int64)
        self._WK = np.zeros((n, L.W_SIZE), dtype=np.int64)
        self._obs = (np.zeros((n, OBS_SIZE), dtype=np.float32), np.zeros((n, OBS_SIZE), dtype=np.float32))
        self._k = 0
        self._final_obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self._masks = np.zeros((n, N_ACTIONS), dtype=np.uint8)
        self._rewards = np.zeros(n, dtype=np.float64)
        self._terms = np.zeros(n, dtype=np.bool_)
        self._truncs = np.zeros(n, dtype=np.bool_)
        self._actions = np.zeros(n, dtype=np.int64)
        self._started = False
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)

    def _flip(self) -> np.ndarray:
        self._k ^= 1
        return self._obs[self._k]

    def __setstate__(self, state: dict) -> None:
        """Restore a copy (``pickle``, ``copy.deepcopy``) and mark the card table read-only again
        (pickle drops the flag, and numba would compile a second version for a writable table)."""
        self.__dict__.update(state)
        self._cards.table.flags.writeable = False
        self._T = self._cards.table

    # ---- Gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None):
        """Start a new game in every row (see Starting State); ``options`` is accepted and unused.
        Returns (observations, info with ``action_mask``, ``seed`` and ``seat``)."""
        n = self.num_envs
        if seed is None:
            seeds = np.random.SeedSequence().generate_state(n, dtype=np.uint64) >> np.uint64(2)
        elif isinstance(seed, (list, tuple)) or (isinstance(seed, np.ndarray) and seed.ndim == 1):
            items = list(seed)
            if len(items) != n:
                raise InvalidArgumentError(f"seed: give one integer or {n} integers, got {len(items)}")
            seeds = [check_seed(s, name=f"seed[{i}]") for i, s in enumerate(items)]
        else:
            first = check_seed_run(seed, n) if n > 1 else check_seed(seed)
            super().reset(seed=first)
            seeds = first + np.arange(n, dtype=np.int64)
        seeds = np.asarray(seeds, dtype=np.int64)
        obs = self._flip()
        B.batch_reset(self._states, self._T, self._C, self._OR, self._E, self._WK, seeds, obs, self._masks)
        self._started = True
        return (obs.copy() if self.copy else obs), {"action_mask": self._masks.view(np.int8),
                                                    "seed": self.seeds, "seat": self.seats}

    def step(self, actions):
        """Step every game with its action; returns (observations, rewards, terminations,
        truncations, infos) as the class docstring describes."""
        n = self.num_envs
        try:
            acts = np.asarray(actions)
        except (ValueError, TypeError):
            raise IllegalActionError(f"actions must be {n} integer ids (shape ({n},)), got a "
                                     f"{type(actions).__name__} that numpy cannot turn into an array") from None
        if acts.shape != (n,) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalActionError(f"actions must be {n} integer ids (shape ({n},)), "
                                     f"got dtype {acts.dtype} shape {acts.shape}")
        if not self._started:
            raise IllegalActionError("step() before reset(): call reset() first")
        np.copyto(self._actions, acts, casting="unsafe")
        obs = self._flip()
        step = B.batch_step_parallel if self.parallel else B.batch_step
        bad = step(self._states, self._T, self._C, self._OR, self._E, self._FI, self._WK,
                   self._actions, obs, self._masks, self._rewards, self._terms, self._truncs,
                   self._final_obs)
        if bad >= 0:
            self._flip()
            a = int(acts[bad])
            what = "out of range" if not 0 <= a < N_ACTIONS else "masked out"
            raise IllegalActionError(f"row {bad}: action {a} is not legal now ({what}); legal ids: "
                                     f"{np.flatnonzero(self._masks[bad]).tolist()}; no game was stepped")
        terms, truncs = self._terms.copy(), self._truncs.copy()
        infos: dict[str, Any] = {"action_mask": self._masks.view(np.int8)}
        ended = terms | truncs
        if ended.any():
            infos.update(self._final_infos(ended))
        return (obs.copy() if self.copy else obs), self._rewards.copy(), terms, truncs, infos

    def _final_infos(self, ended: np.ndarray) -> dict[str, Any]:
        idx = np.flatnonzero(ended)
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in idx:
            final_obs[i] = self._final_obs[i].copy()
        FI = self._FI
        cols = {"score": FI[:, B.FI_SCORE], "won": FI[:, B.FI_WON].astype(bool),
                "winner": FI[:, B.FI_WINNER], "seed": FI[:, B.FI_SEED], "seat": FI[:, B.FI_SEAT],
                "episode_length": FI[:, B.FI_LEN], "episode_return": self._rewards,
                "scores": FI[:, B.FI_SCORES:B.FI_SCORES + self.n_players]}
        final_info: dict[str, Any] = {}
        for key, col in cols.items():
            arr = np.zeros_like(col)
            arr[idx] = col[idx]
            final_info[key] = arr
            final_info["_" + key] = ended.copy()
        return {"final_obs": final_obs, "_final_obs": ended.copy(), "final_info": final_info,
                "_final_info": ended.copy()}

    def action_masks(self) -> np.ndarray:
        """(N, N_ACTIONS) bool legal masks, for MaskablePPO."""
        return self._masks != 0

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    # ---- extras ------------------------------------------------------------------------------
    @property
    def card_set(self):
        """The card set played."""
        return self._cards

    @property
    def seeds(self) -> np.ndarray:
        """The game seed of each running game."""
        return self._E[:, B.E_SEED].copy()

    @property
    def seats(self) -> np.ndarray:
        """The agent's seat in each running game."""
        return self._E[:, B.E_SEAT].copy()

    def snapshot(self, i: int) -> Game:
        """A :class:`~electrify_env.gizmos.Game` holding a copy of game ``i`` (its ``history`` is
        empty: the state alone is copied)."""
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)) or not 0 <= i < self.num_envs:
            raise InvalidArgumentError(f"game index must be an integer 0..{self.num_envs - 1}, got {i!r:.60}")
        g = Game(self.n_players, seed=int(self._E[i, B.E_SEED]), card_set=self._cards)
        g.state[:] = self._states[i]
        return g


def make_gizmos_vector_env(num_envs: int = 64, **kwargs) -> GizmosVectorEnv:
    """The ``vector_entry_point`` of ``Gizmos-v0``: :class:`GizmosVectorEnv`.  Illegal actions
    always raise here (``illegal_action="terminate"`` is offered by the single env only)."""
    if kwargs.pop("illegal_action", "raise") != "raise" or "illegal_reward" in kwargs:
        raise InvalidArgumentError("the vector env raises on illegal actions; illegal_action='terminate' "
                                   "and illegal_reward are offered by Gizmos-v0's single env only")
    return GizmosVectorEnv(num_envs, **kwargs)
