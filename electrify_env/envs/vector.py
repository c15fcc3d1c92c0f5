"""A Gymnasium ``VectorEnv`` of N Electrify games stepped together by one jitted call."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..kernels import batch as B
from ..engine import layout as L
from ..engine.observe import OBS_SIZE
from ..game import IllegalActionError
from ..scenarios import Scenario
from ._common import (
    DEFAULT_POINTS_SCALE, DEFAULT_WIN_BONUS, SEAT_REWARD_MODES, SOLO_REWARD_MODES, Buffers,
    SharedViews, card_set_and_options, check_float, check_players, check_reset_seed, check_seat,
    game_snapshot, reward_code, scenario_list, scenario_table, table_for,
)
from ..validation import InvalidArgumentError
from ..agent import AgentError, resolve_agent

class ElectrifyVectorEnv(SharedViews, VectorEnv):
    """
    ## Description

    ``num_envs`` games of Electrify, solo (``mode="solo"``, as ``Electrify-Solo-v0``) or one
    seat of a 2-4 player game (``mode="seat"``, as ``Electrify-v0``) against opponents played
    inside numba: uniform random legal play (default) or the ``greedy`` agent, per seat
    (``opponents``).  All games are stepped by one jitted call over an (N, S_SIZE) state array
    (:func:`electrify_env.kernels.batch.batch_step`): observations, masks, rewards and
    terminations are written into preallocated arrays, finished games restart in the same call.
    ``gymnasium.make_vec("Electrify-Solo-v0", num_envs=N, vectorization_mode="vector_entry_point")``
    builds one; :class:`~electrify_env.envs.sb3.ElectrifySB3VecEnv` adapts it to
    Stable-Baselines3.

    ## Action Space

    ``MultiDiscrete([N_ACTIONS] * N)`` (one id per game).  The masks are
    ``info["action_mask"]`` ((N, N_ACTIONS) int8) and :meth:`action_masks` (bool).  An illegal
    id in any row raises :class:`~electrify_env.IllegalActionError` (a ``ValueError``) naming
    the row, and no game is stepped.

    ## Observation Space

    ``Box(0, 1, (N, OBS_SIZE), float32)``; each row as in the single envs.
    **Buffers**: with ``copy=False`` (default) ``step`` and ``reset`` return one of two
    alternating arrays, so an observation stays valid during the next step and is overwritten by
    the one after; pass ``copy=True`` for fresh arrays (slower at large N).  The mask in
    ``info`` is always the live buffer; copy it to keep it.  Copies of the env (``pickle``,
    ``copy.deepcopy``, ``cloudpickle``) are independent and play on from the same games.

    ## Rewards

    As the single envs: ``reward_mode`` ``"shaped"`` (solo default), ``"score"``, ``"win"``
    (seat default) or, in seat mode, ``"margin"``; see
    :class:`~electrify_env.envs.ElectrifySoloEnv` and :class:`~electrify_env.envs.ElectrifyEnv`.
    Rewards are float64, shape (N,).

    ## Starting State

    ``reset(seed=s)`` starts game i from seed ``s + i`` (a list gives one seed per game; None
    draws them).  A finished game restarts with a seed drawn from its own generator, so a run is
    reproducible from the reset seed.  The scenario (solo, when several are given) and the
    agent's seat (seat mode, ``seat=None``) are drawn from each game's seed.

    ## Episode End

    Autoreset mode ``SAME_STEP`` (``metadata["autoreset_mode"]``): in the step that ends game i,
    ``terminations[i]`` is True, the returned observation row is the new game's first, the last
    observation is ``info["final_obs"][i]`` and the outcome is in ``info["final_info"]``:
    ``score``, ``final_score``, ``target`` (solo) or ``best_other`` (seat), ``won``, ``seed``,
    ``scenario`` (index into :attr:`scenarios`), ``seat``, ``episode_length``,
    ``episode_return``, each an (N,) array with a ``"_<key>"`` bool mask.  Never truncated.

    ## Arguments

    * ``num_envs``: number of games N.
    * ``mode``: ``"solo"`` or ``"seat"``.
    * ``scenario`` (solo): id, path, Scenario, list of them, or None for all (drawn per game).
    * ``n_players``, ``seat`` (seat mode): 2-4 players; the agent's seat or None (drawn).
    * ``opponents`` (seat mode): who plays the other seats, inside numba: None or ``"random"``
      (uniform random legal actions, the default), ``"greedy"`` (the ``greedy`` agent, deciding
      exactly as :func:`electrify_env.kernels.league.greedy_actions` with determinization seeds
      drawn from each game's generator, so runs stay reproducible from the reset seed;
      ``"greedy:weights=PATH"`` loads other weights), or a list of ``n_players - 1`` of these
      (entry k plays the seat k+1 places after the agent, as in ``Electrify-v0``).  All greedy
      seats share one weights file.  Other agents (``"mcts"``, policies, callables) are
      refused: ``Electrify-v0`` (one game, opponents in Python) takes any agent.  Greedy
      opponents cost one-ply lookahead per decision (``benchmarks/bench_vector_opponents.py``),
      and their code is compiled only for an env with a greedy seat: the first such env after
      an install or engine edit compiles the stepping functions once more, with the greedy
      evaluation (the ``W`` argument of :mod:`electrify_env.kernels.batch`); solo and
      random-opponent envs never compile it.
    * ``reward_mode``, ``win_bonus``, ``points_scale``: as the single envs.
    * ``card_set``, ``tech_packs``: as :class:`~electrify_env.Game`.
    * ``parallel``: spread the rows over numba's threads (``batch_step_parallel``; results are
      identical).  Off by default: it pays on a multi-core machine with spare cores and a few
      hundred games or more, but with numba's OpenMP threading layer it can run far slower than
      one core when other processes keep the cores busy; ``NUMBA_THREADING_LAYER=workqueue``
      degrades more gracefully there.
    * ``copy``: return fresh observation arrays.

    ## Version History

    * v0: initial version (observation version 2).  Later within v0: ``opponents`` (random
      or greedy, per seat).
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, num_envs: int = 64, mode: str = "solo", *,
                 scenario: str | Scenario | Sequence[str | Scenario] | None = None,
                 n_players: int = 2, seat: int | None = 0,
                 opponents: str | Sequence[str] | None = None, reward_mode: str | None = None,
                 card_set=None, tech_packs: Sequence[str] = (), win_bonus: float = DEFAULT_WIN_BONUS,
                 points_scale: float = DEFAULT_POINTS_SCALE, parallel: bool = False,
                 copy: bool = False, render_mode: str | None = None) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if render_mode is not None:
            raise ValueError("the vector env does not render; use the single envs or snapshot(i).render()")
        self.num_envs = int(num_envs)
        self.mode = mode
        self._cards, self._options = card_set_and_options(card_set, tech_packs)
        if mode == "solo":
            self.reward_mode = "shaped" if reward_mode is None else reward_mode
            rm = reward_code(self.reward_mode, SOLO_REWARD_MODES)
            self._scenarios = scenario_list(scenario)
            self.n_players = 1
            if opponents is not None:
                raise InvalidArgumentError("opponents applies to mode='seat' only")
            self._opponents: list[str] = []
            self._C, self._F = B.new_config(B.MODE_SOLO, 1, self._options, rm, 0,
                                            0 if len(self._scenarios) == 1 else -1, 0, 1,
                                            check_float("win_bonus", win_bonus), 0.0)
            self._W = None
        elif mode == "seat":
            if scenario is not None:
                raise ValueError("scenario applies to mode='solo' only")
            self.reward_mode = "win" if reward_mode is None else reward_mode
            rm = reward_code(self.reward_mode, SEAT_REWARD_MODES)
            self.n_players = check_players(n_players)
            self._scenarios = []
            self._opponents, codes, weights = vector_opponents(opponents, self.n_players)
            self._C, self._F = B.new_config(B.MODE_SEAT, self.n_players, self._options, rm,
                                            check_seat(seat, self.n_players), -1, codes, 1,
                                            check_float("win_bonus", win_bonus),
                                            check_float("points_scale", points_scale))
            # the greedy seats' weights; None without a greedy seat, and then the jitted
            # functions compile no greedy code (see kernels.batch)
            self._W = B.opponent_weights(self._C, weights)
        else:
            raise ValueError(f"mode must be 'solo' or 'seat', got {mode!r}")
        if not isinstance(parallel, bool):
            raise ValueError(f"parallel must be True or False, got {parallel!r}")
        self._step_fn = B.batch_step_parallel if parallel else B.batch_step
        self.copy = bool(copy)
        self.render_mode = None
        self._SCS = scenario_table(self._scenarios)
        self._T, self._FF = table_for(self._cards)
        self._b = Buffers(self.num_envs)
        self._seeds = np.zeros(self.num_envs, dtype=np.int64)
        self._started = False
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32)
        self.single_action_space = spaces.Discrete(L.N_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)

    # ---- Gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None):
        """Start a new game in every row (see Starting State); ``options`` is accepted and unused.
        Returns (observations, info with ``action_mask`` and ``seed``)."""
        if seed is None:
            seeds = np.random.SeedSequence().generate_state(self.num_envs, dtype=np.uint64) >> np.uint64(2)
        elif isinstance(seed, (list, tuple)) or (isinstance(seed, np.ndarray) and seed.ndim == 1):
            items = list(seed)
            if len(items) != self.num_envs:
                raise InvalidArgumentError(f"seed: give one integer or {self.num_envs} integers, got {len(items)}")
            seeds = [check_reset_seed(s, name=f"seeds[{i}]") for i, s in enumerate(items)]
        else:
            first = check_reset_seed(seed, self.num_envs)   # one integer (else the shared error)
            super().reset(seed=first)
            seeds = first + np.arange(self.num_envs, dtype=np.int64)
        self._seeds[:] = seeds
        b = self._b
        obs = b.flip()
        B.batch_reset(b.states, self._T, self._SCS, self._FF, self._C, self._F, self._W, b.E, b.R,
                      self._seeds, obs, b.masks)
        self._started = True
        return (obs.copy() if self.copy else obs), {"action_mask": b.masks_i8,
                                                    "seed": b.E[:, B.E_SEED].copy()}

    def step(self, actions):
        """Step every game with its action; returns (observations, rewards, terminations,
        truncations, infos) as described in the class docstring."""
        b = self._b
        try:
            acts = np.asarray(actions)
        except (ValueError, TypeError):   # a ragged list; bytes that are no text (UnicodeDecodeError)
            raise IllegalActionError(f"actions must be {self.num_envs} integer ids (shape ({self.num_envs},)), "
                                     f"got a {type(actions).__name__} that numpy cannot turn into an array") from None
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise IllegalActionError(f"actions must be {self.num_envs} integer ids (shape ({self.num_envs},)), "
                                     f"got dtype {acts.dtype} shape {acts.shape}")
        if not self._started:
            raise IllegalActionError("step() before reset(): call reset() first")
        np.copyto(b.actions, acts, casting="unsafe")
        obs = b.flip()
        bad = self._step_fn(b.states, self._T, self._SCS, self._FF, self._C, self._F, self._W, b.E,
                            b.R, b.FI, b.actions, obs, b.masks, b.rewards, b.terms, b.final_obs)
        if bad >= 0:
            b.flip()
            a = int(acts[bad])
            legal = np.flatnonzero(b.masks[bad]).tolist()
            raise IllegalActionError(f"row {bad}: action {a} is not legal now "
                                     f"({'out of range' if not 0 <= a < L.N_ACTIONS else 'masked out'}); "
                                     f"legal ids: {legal}; no game was stepped")
        terms = b.terms.copy()
        infos: dict[str, Any] = {"action_mask": b.masks_i8}
        if terms.any():
            infos.update(self._final_infos(terms))
        return ((obs.copy() if self.copy else obs), b.rewards.copy(), terms,
                np.zeros(self.num_envs, dtype=np.bool_), infos)

    def _final_infos(self, terms: np.ndarray) -> dict[str, Any]:
        b = self._b
        idx = np.flatnonzero(terms)
        final_obs = np.full(self.num_envs, None, dtype=object)
        for i in idx:
            final_obs[i] = b.final_obs[i].copy()
        FI = b.FI
        other = "target" if self.mode == "solo" else "best_other"
        cols = {"score": FI[:, B.FI_SCORE], "final_score": FI[:, B.FI_FINAL], other: FI[:, B.FI_TARGET],
                "won": FI[:, B.FI_WON].astype(bool), "seed": FI[:, B.FI_SEED],
                "scenario": FI[:, B.FI_SCEN], "seat": FI[:, B.FI_SEAT],
                "episode_length": FI[:, B.FI_LEN], "episode_return": b.R[:, B.R_LAST_RET]}
        final_info: dict[str, Any] = {}
        for key, col in cols.items():
            arr = np.zeros(self.num_envs, dtype=col.dtype)
            arr[idx] = col[idx]
            final_info[key] = arr
            final_info["_" + key] = terms.copy()
        return {"final_obs": final_obs, "_final_obs": terms.copy(), "final_info": final_info,
                "_final_info": terms.copy()}

    def action_masks(self) -> np.ndarray:
        """(N, N_ACTIONS) bool legal masks, for MaskablePPO."""
        return self._b.masks != 0

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release."""

    # ---- extras ------------------------------------------------------------------------------
    @property
    def scenarios(self) -> list[Scenario]:
        """Solo: the scenarios games are drawn from (``final_info["scenario"]`` indexes it)."""
        return list(self._scenarios)

    @property
    def opponents(self) -> list[str]:
        """Seat mode: the spec of each other seat's numba opponent (entry k plays the seat k+1
        places after the agent), e.g. ``["greedy", "random"]``; solo: empty."""
        return list(self._opponents)

    @property
    def card_set(self):
        """The card set played."""
        return self._cards

    @property
    def seeds(self) -> np.ndarray:
        """Seed of each running game."""
        return self._b.E[:, B.E_SEED].copy()

    @property
    def seats(self) -> np.ndarray:
        """The agent's seat in each running game."""
        return self._b.E[:, B.E_SEAT].copy()

    def snapshot(self, i: int):
        """A :class:`~electrify_env.Game` holding a copy of game ``i`` (render it, describe
        actions, search from it)."""
        if not 0 <= i < self.num_envs:
            raise ValueError(f"game index must be 0..{self.num_envs - 1}, got {i}")
        k = int(self._b.E[i, B.E_SCEN])
        sc = self._scenarios[k] if k >= 0 else None
        return game_snapshot(self._cards, sc, int(self._b.states[i, L.S_NPLAYERS]),
                             int(self._b.E[i, B.E_SEED]), self._options, self._b.states[i])


def make_solo_vector_env(num_envs: int = 64, **kwargs) -> ElectrifyVectorEnv:
    """The ``vector_entry_point`` of ``Electrify-Solo-v0``: :class:`ElectrifyVectorEnv` in solo
    mode.  Illegal actions always raise here (``illegal_action="terminate"`` is offered by the
    single envs only)."""
    _refuse_terminate(kwargs)
    return ElectrifyVectorEnv(num_envs, "solo", **kwargs)


def make_seat_vector_env(num_envs: int = 64, **kwargs) -> ElectrifyVectorEnv:
    """The ``vector_entry_point`` of ``Electrify-v0``: :class:`ElectrifyVectorEnv` in seat mode
    (``opponents`` "random" or "greedy", played inside numba; illegal actions raise)."""
    _refuse_terminate(kwargs)
    return ElectrifyVectorEnv(num_envs, "seat", **kwargs)


def _brief(value) -> str:
    """``repr(value)`` on one line, at most 80 characters (for error messages)."""
    return " ".join(repr(value).split())[:80]


def _opponents_error(what: str) -> InvalidArgumentError:
    return InvalidArgumentError(
        f"opponents: {what}; the vector env plays random opponents and greedy ones inside numba: "
        f"give None, \"random\", \"greedy\" (or \"greedy:weights=PATH\") or a list of one per other "
        f"seat; Electrify-v0 (gymnasium.make) takes any agent or callable")


def vector_opponents(opponents, n_players: int) -> tuple[list[str], list[int], np.ndarray | None]:
    """Check the vector env's ``opponents`` for an ``n_players`` game: (spec per other seat,
    ``OPP_*`` code per other seat, the greedy weights array or None when no seat is greedy).

    Raises:
        InvalidArgumentError: anything but None, ``"random"``, ``"greedy[:weights=PATH]"`` or a
            list of ``n_players - 1`` of them; greedy seats with different weights (one weight
            array serves them all); a bad weights file (the message names ``opponents``).
    """
    n_other = n_players - 1
    if opponents is None:
        specs = ["random"] * n_other
    elif isinstance(opponents, str):
        specs = [opponents] * n_other
    elif isinstance(opponents, (list, tuple)):
        if len(opponents) != n_other:
            raise _opponents_error(f"a list needs {n_other} entries (one per other seat of a "
                                   f"{n_players}-player game), got {len(opponents)}")
        specs = list(opponents)
    else:
        raise _opponents_error(f"got {_brief(opponents)}")
    codes, weights_paths = [], {}
    for k, spec in enumerate(specs):
        where = "opponents" if isinstance(opponents, str) else f"opponents[{k}]"
        name = spec.split(":", 1)[0].strip() if isinstance(spec, str) else None
        if name not in B.OPPONENT_CODES:
            raise _opponents_error(f"got {_brief(spec)}" if isinstance(opponents, str)
                                   else f"entry {k} is {_brief(spec)}")
        codes.append(B.OPPONENT_CODES[name])
        agent = _resolve(spec, where)          # checks the spec and loads greedy's weights file
        if name == "greedy":
            weights_paths.setdefault(spec.strip(), (where, np.asarray(agent.W, dtype=np.float64)))
    weights = None
    for _, (where, w) in weights_paths.items():
        if weights is not None and not np.array_equal(w, weights):
            raise _opponents_error(f"the greedy seats must play with the same weights, got "
                                   f"{_brief(list(weights_paths))}")
        weights = w
    return [s.strip() for s in specs], codes, weights


def _resolve(spec: str, where: str):
    """The agent of ``spec`` from the agent resolver (:func:`electrify_env.agent.resolve_agent`;
    a greedy agent carries its weight array as ``W``); errors name ``where``."""
    try:
        return resolve_agent(spec, where)
    except AgentError as err:
        raise InvalidArgumentError(" ".join(str(err).split())) from None


def _refuse_terminate(kwargs: dict) -> None:
    if kwargs.pop("illegal_action", "raise") != "raise" or "illegal_reward" in kwargs:
        raise ValueError("the vector env raises on illegal actions; illegal_action='terminate' and "
                         "illegal_reward are offered by the single envs only")
