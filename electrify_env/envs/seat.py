"""``Electrify-v0``: one seat of a 2-4 player game of Electrify against given opponents."""
from __future__ import annotations

from typing import Any, Callable, Sequence, Union

import numpy as np

from ..agent import is_agent, resolve_agent, state_view
from ..kernels import batch as B
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

#: a plain opponent: ``(observation, action_mask) -> action``
Opponent = Callable[[np.ndarray, np.ndarray], int]
#: what ``opponents`` takes per seat: a plain callable, an agent (``act(view)`` and
#: ``reset(seed)``, see :class:`electrify_env.agents.base.Agent`) or an agent spec such as ``"greedy"``
OpponentLike = Union[Opponent, Any, str]

#: first key of the SeedSequence that derives an opponent agent's seed from the game seed (so
#: agent seeds never coincide with the game seeds derived the same way elsewhere)
OPPONENT_SEED_KEY = 0x0770


def build_opponent(spec: str, where: str = "opponents"):
    """Build the agent of spec ``spec`` (e.g. ``"mcts:iters=36:top_k=3:horizon=2"``) with the
    agent resolver (:func:`electrify_env.agent.resolve_agent`).

    Raises:
        electrify_env.agent.AgentError: a bad spec (a ``ValueError``), prefixed with ``where``,
            or no agent resolver installed.
    """
    return resolve_agent(spec, where)


def opponent_seed(game_seed: int, slot: int) -> int:
    """The seed an opponent agent is reset with at the start of a game: derived from the game's
    seed and the agent's slot (entry ``slot`` of the opponents list), 0..2**62-1."""
    ss = np.random.SeedSequence([int(game_seed), OPPONENT_SEED_KEY, int(slot)])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(2))


@with_observation_table
class ElectrifyEnv(SingleGameEnv):
    """
    ## Description

    One seat of a 2-4 player game of *Electrify*; the other seats are played by opponents, by
    default uniform random legal play inside numba.  An opponent is a plain callable
    ``opponent(observation, action_mask) -> action`` that sees only its own observation (R26),
    or any registered agent (:mod:`agents`: ``"greedy"``, ``"mcts:iters=36"``, a policy),
    given as an agent object or as its spec text.  An agent is asked with its seat's
    :class:`~electrify_env.agents.base.SeatView`: its own observation, its legal mask and, for agents that
    search (greedy, mcts), the information-set view of its own seat
    (:func:`~electrify_env.engine.infoset.scrub`: other hands, deck order, others' secret plans
    and the generator wiped), never the full state.  Every sub-decision of the rules is one
    step (R24).  The Plan step stays secret (R4): opponents choosing after the agent never see
    its choice, and the agent never sees theirs before the reveal.

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
    ``seat`` or, when None, drawn from that seed.  Every opponent agent is reset with a seed
    derived from the game's seed and its entry in ``opponents`` (:func:`opponent_seed`), so
    ``reset(seed=...)`` reproduces the whole episode for the same actions of the agent.  Seats
    before the agent's have played their first decisions when ``reset`` returns.

    ## Episode End

    Terminated after round 12; never truncated.  The last ``info`` adds ``score``,
    ``final_score`` (= own points), ``best_other`` (the best other player's points), ``won``,
    ``seed``, ``seat``, ``episode_length`` and ``episode_return``.

    ## Arguments

    * ``n_players``: 2, 3 or 4.
    * ``seat``: the agent's seat, or None (drawn per episode).
    * ``opponents``: None (random, inside numba), one opponent for every other seat, or a
      sequence of ``n_players - 1`` opponents (entry k plays the seat k+1 places after the
      agent); kinds may be mixed.  An opponent is one of:

      - a callable ``(observation, action_mask) -> action`` (float32 observation, int8 mask);
      - an agent: an object with ``act(view) -> action`` and ``reset(seed)``
        (:class:`electrify_env.agents.base.Agent`); its view holds the parts it asks for with
        ``needs_observation`` / ``needs_infoset`` (an object without these attributes gets
        both).  One agent object given alone plays every other seat and is reset once per
        game;
      - an agent spec of the registry (``"greedy"``, ``"random"``,
        ``"mcts:iters=36:top_k=3:horizon=2"``, ``"ppo:path=..."``): a spec given alone builds
        one agent per other seat.  A bad spec raises the registry's
        :class:`~electrify_env.agents.base.AgentError` (a ``ValueError``).

      Copies (pickle, ``copy.deepcopy``) rebuild spec agents from their spec, with their
      generator's state; agent objects and callables are copied with the env.  For many games
      at jitted speed against random or greedy opponents, use the vector env
      (``gymnasium.make_vec("Electrify-v0", num_envs=N, vectorization_mode="vector_entry_point",
      opponents="greedy")``, :class:`~electrify_env.envs.ElectrifyVectorEnv`).
    * ``reward_mode``, ``points_scale``, ``win_bonus``: see Rewards.
    * ``card_set``, ``tech_packs``: as for :class:`~electrify_env.Game`.
    * ``render_mode``: None or one of ``metadata["render_modes"]`` (see :meth:`render`).

    ## Version History

    * v0: initial version (observation version 2).  Later within v0: ``opponents`` also takes
      registered agents and agent specs (callables play as before).
    """

    def __init__(self, n_players: int = 2, seat: int | None = 0,
                 opponents: OpponentLike | Sequence[OpponentLike] | None = None,
                 reward_mode: str = "win", card_set=None, tech_packs: Sequence[str] = (),
                 points_scale: float = DEFAULT_POINTS_SCALE, win_bonus: float = DEFAULT_WIN_BONUS,
                 render_mode: str | None = None) -> None:
        self.n_players = check_players(n_players)
        self.reward_mode = reward_mode
        rm = reward_code(reward_mode, SEAT_REWARD_MODES)
        seat_code = check_seat(seat, self.n_players)
        self._opponents, self._opponent_specs = self._check_opponents(opponents)
        self._cards, self._options = card_set_and_options(card_set, tech_packs)
        self._scenarios = []
        self._SCS = scenario_table(None)
        self._C, self._F = B.new_config(
            B.MODE_SEAT, self.n_players, self._options, rm, seat_code, -1,
            B.OPP_RANDOM if self._opponents is None else B.OPP_NONE, 0,
            check_float("win_bonus", win_bonus), check_float("points_scale", points_scale))
        self._setup(check_render_mode(render_mode, self.metadata["render_modes"]))

    def _check_opponents(self, opponents) -> tuple[list | None, list[str | None]]:
        """(players, specs): one player per other seat (callable or agent) and, per seat, the
        spec text it was built from (None for a callable or an agent object)."""
        n_other = self.n_players - 1
        if opponents is None:
            return None, [None] * n_other
        if isinstance(opponents, str):
            specs = [opponents] * n_other   # one agent per seat, each with its own generator
            return [build_opponent(opponents) for _ in specs], specs
        if is_agent(opponents):
            return [opponents] * n_other, [None] * n_other
        if callable(opponents):
            return [opponents] * n_other, [None] * n_other
        try:
            items = list(opponents)   # a 0-d numpy array passes isinstance(x, Iterable) but raises here
        except TypeError:
            items = None
        if items is None:
            raise InvalidArgumentError(
                f"opponents must be None, a callable (observation, action_mask) -> action, an "
                f"agent, an agent spec, or a sequence of {n_other} of them, got {opponents!r:.80}")
        if len(items) != n_other:
            raise InvalidArgumentError(
                f"opponents must have {n_other} entries (one per other seat of a "
                f"{self.n_players}-player game), got {len(items)}")
        players, specs = [], []
        for k, item in enumerate(items):
            if isinstance(item, str):
                players.append(build_opponent(item, f"opponents[{k}]"))
                specs.append(item)
            elif is_agent(item) or callable(item):
                players.append(item)
                specs.append(None)
            else:
                raise InvalidArgumentError(
                    f"opponents[{k}] must be a callable (observation, action_mask) -> action, "
                    f"an agent or an agent spec, got {item!r:.80}")
        return players, specs

    @property
    def opponents(self) -> list | None:
        """The player of each other seat (entry k plays the seat k+1 places after the agent):
        callables and agents; None for the built-in random opponents."""
        return None if self._opponents is None else list(self._opponents)

    # ---- copies: spec agents are rebuilt from their spec ----------------------------------------
    def __getstate__(self) -> dict:
        """The env's state; agents built from a spec travel as their spec and generator."""
        state = super().__getstate__()
        if self._opponents is not None and any(self._opponent_specs):
            players = list(self._opponents)
            rngs = {}
            for k, spec in enumerate(self._opponent_specs):
                if spec is not None:
                    rngs[k] = getattr(players[k], "rng", None)
                    players[k] = None
            state["_opponents"] = players
            state["_opponent_rngs"] = rngs
        return state

    def __setstate__(self, state: dict) -> None:
        """Restore the env and rebuild each spec agent from its spec, with its generator."""
        state = dict(state)
        rngs = state.pop("_opponent_rngs", {})
        super().__setstate__(state)
        for k, spec in enumerate(self._opponent_specs):
            if spec is not None:
                agent = build_opponent(spec, f"opponents[{k}]")
                if rngs.get(k) is not None:
                    agent.rng = rngs[k]
                self._opponents[k] = agent

    # ---- Python opponents --------------------------------------------------------------------
    def _agent_view(self, agent, q: int, mask: np.ndarray):
        """The :class:`electrify_env.agents.base.SeatView` of seat ``q`` for ``agent``: its own observation
        and its own scrubbed information set (fresh arrays: an agent may keep them)."""
        S = self._S
        obs = None
        if getattr(agent, "needs_observation", True):
            obs = np.empty(OBS_SIZE, dtype=np.float32)
            observe(S, self._T, self._FF, q, obs)
        return state_view(S, self._T, q, self.n_players, mask, self._cards.hash, obs,
                          infoset=getattr(agent, "needs_infoset", True))

    def _play_opponents(self) -> None:
        S = self._S
        seat = self.seat
        n = self.n_players
        while not S[L.S_TERMINAL] and S[L.S_CUR] != seat:
            q = int(S[L.S_CUR])
            mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
            fill_mask(S, self._T, mask)
            opp = self._opponents[(q - seat) % n - 1]
            if is_agent(opp):
                a = as_action(opp.act(self._agent_view(opp, q, mask)))
            else:
                obs = np.empty(OBS_SIZE, dtype=np.float32)
                observe(S, self._T, self._FF, q, obs)
                a = as_action(opp(obs, mask.view(np.int8)))
            if not 0 <= a < L.N_ACTIONS or not mask[a]:
                raise IllegalActionError("opponent: " + illegal_message(a, mask, f"seat {q}"))
            apply_action(S, self._T, a)

    def _reset_agents(self) -> None:
        """Reset every opponent agent (once per object) with its seed for the new game."""
        done = set()
        game_seed = self.game_seed
        for k, opp in enumerate(self._opponents):
            if is_agent(opp) and id(opp) not in done:
                done.add(id(opp))
                opp.reset(opponent_seed(game_seed, k))

    def _after_reset(self) -> None:
        if self._opponents is not None:
            self._reset_agents()
            self._play_opponents()
            B.write_view(self._S, self._T, self._FF, self.seat, self._obs_row, self._mask)

    def _step_checked(self) -> None:
        if self._opponents is None:
            super()._step_checked()
            return
        b = self._b
        apply_action(self._S, self._T, b.actions[0])
        self._play_opponents()
        rew, term = B.finish_step(self._S, self._T, self._SCS, self._FF, self._C, self._F, None,
                                  self._E, self._R, self._FI, self._obs_row, self._mask,
                                  self._fobs_row)
        b.rewards[0] = rew
        b.terms[0] = term

    def _final_info(self) -> dict:
        info = super()._final_info()
        info["best_other"] = int(self._FI[B.FI_TARGET])
        return info
