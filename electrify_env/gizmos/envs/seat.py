"""``Gizmos-v0``: one seat of a 2-4 player game of Gizmos against given opponents (Gymnasium)."""
from __future__ import annotations

from typing import Any, Callable, Sequence, Union

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ...common.envs.wrappers import TerminateIllegalAction, wrap_illegal_action
from ...resolver import is_agent, resolve_agent
from ...validation import IllegalActionError, InvalidArgumentError, check_seed
from ..game import Game
from ..observation import OBS_SIZE, OBS_VERSION, observe_state
from ._common import N_ACTIONS, CopyableEnv, as_action, check_players, check_render_mode, draw_game_seed, illegal_message, render_text

__all__ = ["GizmosEnv", "TerminateIllegalAction", "make_gizmos_env", "opponent_seed", "GAME"]

#: the game name opponents' specs are resolved for (:func:`electrify_env.resolver.resolve_agent`)
GAME = "gizmos"
#: a plain opponent: ``(observation, action_mask) -> action``
Opponent = Callable[[np.ndarray, np.ndarray], int]
#: what ``opponents`` takes per seat: a callable, an agent (``act(view)`` and ``reset(seed)``)
#: or an agent spec of the registry such as ``"random"``
OpponentLike = Union[Opponent, Any, str]
#: first key of the SeedSequence that derives an opponent's seed from the game seed
OPPONENT_SEED_KEY = 0x6123
#: the slot of :func:`opponent_seed` that seeds the built-in random opponents' generator
RANDOM_PLAY_SLOT = 1 << 16


def opponent_seed(game_seed: int, slot: int) -> int:
    """The seed an opponent agent is reset with at the start of a game (entry ``slot`` of the
    opponents list), derived from the game's seed: 0..2**62-1."""
    ss = np.random.SeedSequence([int(game_seed), OPPONENT_SEED_KEY, int(slot)])
    return int(ss.generate_state(1, np.uint64)[0] >> np.uint64(2))


class GizmosEnv(CopyableEnv, gym.Env):
    """
    ## Description

    One seat of a 2-4 player game of *Gizmos* (rulings G1-G25 of ``docs/gizmos/rules.md``); the
    other seats are played by opponents inside :meth:`step`, by default uniform random legal
    play.  Every sub-decision of the rules is one step (G23): the turn's action, each payment
    step, the research choice, each machine used in the chain reaction and each choice of its
    effect, so the agent often acts many times in a row.  Copies (``pickle``, ``copy.deepcopy``)
    are independent envs that play on from the same position; agent objects and callables are
    copied with the env.

    ## Action Space

    ``Discrete(N_ACTIONS)`` (157), the ranges ``A_*`` of
    ``electrify_env/gizmos/engine/gz_layout.py``.  The legal mask is ``info["action_mask"]``
    (int8) and :meth:`action_masks` (bool, for sb3-contrib's MaskablePPO).  **Illegal actions**
    raise :class:`~electrify_env.validation.IllegalActionError` (a ``ValueError``) here, for the
    agent and for an opponent alike, and leave the game unchanged; through
    ``gymnasium.make("Gizmos-v0")`` the agent's illegal action ends the episode with
    ``illegal_reward`` instead (:class:`TerminateIllegalAction`).

    ## Observation Space

    ``Box(0, 1, (OBS_SIZE,), float32)``: the agent's seat's view
    (:mod:`electrify_env.gizmos.observation`), other seats in play order after it, with no
    hidden information (G25).

    ## Rewards

    At the end only: +1 if the agent's seat wins (G21 ranking), else -1; 0 on every other step.

    ## Starting State

    A new game from a seed drawn from the env's generator (``info["seed"]``); the agent's seat
    is ``seat`` or, when None, drawn from the env's generator.  Every opponent agent is reset
    with a seed derived from the game's seed and its entry in ``opponents``
    (:func:`opponent_seed`), and the built-in random opponents draw from a generator seeded the
    same way, so ``reset(seed=...)`` reproduces the whole episode for the same actions of the
    agent.  Seats before the agent's have played their first turns when ``reset`` returns.

    ## Episode End

    Terminated when the game ends by G20; truncated (and not terminated) when it reaches the
    round cap (G22), with the reward of the final ranking either way.  The last ``info`` adds
    ``scores`` (every seat's points, seat order), ``score`` (the agent's), ``won``, ``winner``,
    ``seed``, ``seat`` and ``episode_length`` (the agent's steps).

    ## Arguments

    * ``n_players``: 2, 3 or 4.
    * ``seat``: the agent's seat, or None (drawn per episode).
    * ``opponents``: None (uniform random legal play), one opponent for every other seat, or a
      sequence of ``n_players - 1`` opponents (entry k plays the seat k+1 places after the
      agent).  An opponent is a callable ``(observation, action_mask) -> action`` (float32
      observation of its own seat, int8 mask); an agent, any object with ``reset(seed)`` and
      ``act(view)``, asked with its seat's ``game.seat_view(...)`` (the parts it asks for with
      ``needs_observation`` / ``needs_infoset``; both when it has no such attributes); or an
      agent spec string (``"random"``, ``"greedy"``), built with
      :func:`electrify_env.resolver.resolve_agent` for the game ``"gizmos"``, one agent per seat.
    * ``card_set``: a :class:`~electrify_env.gizmos.cards.CardSet`, a card-set YAML path, or
      None (the default set).
    * ``render_mode``: None, ``"ansi"`` (the table as text) or ``"human"`` (prints it).

    ## Version History

    * v0: initial version (observation version 1).
    """

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(self, n_players: int = 2, seat: int | None = 0,
                 opponents: OpponentLike | Sequence[OpponentLike] | None = None, card_set=None,
                 render_mode: str | None = None) -> None:
        self.n_players = check_players(n_players)
        if seat is not None:
            if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) \
                    or not 0 <= seat < self.n_players:
                raise InvalidArgumentError(f"seat must be None or an integer 0..{self.n_players - 1}, got {seat!r}")
            seat = int(seat)
        self._seat_arg = seat
        self._opponents = self._check_opponents(opponents)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self._cards = Game(self.n_players, seed=0, card_set=card_set).cards
        self.observation_space = spaces.Box(0.0, 1.0, shape=(OBS_SIZE,), dtype=np.float32)
        self.action_space = spaces.Discrete(N_ACTIONS)
        self._mask = np.zeros(N_ACTIONS, dtype=np.uint8)
        self._obs = np.zeros(OBS_SIZE, dtype=np.float32)
        self.game: Game | None = None
        self.seat = 0 if seat is None else seat
        self.game_seed: int | None = None
        self._opp_rng = np.random.default_rng(0)
        self._steps = 0

    def _check_opponents(self, opponents) -> list | None:
        """One player per other seat (callable or agent), or None for the built-in random play."""
        n_other = self.n_players - 1
        if opponents is None:
            return None
        if isinstance(opponents, str):
            return [resolve_agent(opponents, "opponents", game=GAME) for _ in range(n_other)]
        if is_agent(opponents) or callable(opponents):
            return [opponents] * n_other
        try:
            items = list(opponents)
        except TypeError:
            items = None
        if items is None:
            raise InvalidArgumentError(
                f"opponents must be None, a callable (observation, action_mask) -> action, an agent, "
                f"an agent spec, or a sequence of {n_other} of them, got {opponents!r:.80}")
        if len(items) != n_other:
            raise InvalidArgumentError(f"opponents must have {n_other} entries (one per other seat of a "
                                       f"{self.n_players}-player game), got {len(items)}")
        out = []
        for k, item in enumerate(items):
            if isinstance(item, str):
                out.append(resolve_agent(item, f"opponents[{k}]", game=GAME))
            elif is_agent(item) or callable(item):
                out.append(item)
            else:
                raise InvalidArgumentError(f"opponents[{k}] must be a callable (observation, action_mask) -> "
                                           f"action, an agent or an agent spec, got {item!r:.80}")
        return out

    @property
    def opponents(self) -> list | None:
        """The player of each other seat (entry k plays the seat k+1 places after the agent);
        None for the built-in random play."""
        return None if self._opponents is None else list(self._opponents)

    # ---- Gymnasium API -----------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a new game.  Its seed is drawn from the env's generator (``np_random``, seeded by
        ``seed``: None or 0..2**62-1) and reported in ``info["seed"]``; ``options`` is accepted
        and unused."""
        super().reset(seed=None if seed is None else check_seed(seed))
        self.game_seed = draw_game_seed(self.np_random)
        self.seat = int(self.np_random.integers(self.n_players)) if self._seat_arg is None else self._seat_arg
        self.game = Game(self.n_players, seed=self.game_seed, card_set=self._cards)
        self._steps = 0
        self._opp_rng = np.random.default_rng(opponent_seed(self.game_seed, RANDOM_PLAY_SLOT))
        if self._opponents is not None:
            done = set()
            for k, opp in enumerate(self._opponents):
                if is_agent(opp) and id(opp) not in done:
                    done.add(id(opp))
                    opp.reset(opponent_seed(self.game_seed, k))
        self._play_opponents()
        return self._observe(), {"action_mask": self._mask.view(np.int8).copy(), "seed": self.game_seed,
                                 "seat": self.seat, "obs_version": OBS_VERSION}

    def step(self, action):
        """Apply the agent's action id, then the opponents' decisions up to the agent's next one
        or the end; see the class docstring for rewards and the end."""
        a = as_action(action)
        g = self.game
        if g is None or g.done or not 0 <= a < N_ACTIONS or not self._mask[a]:
            mask = self._mask if g is not None and not g.done else np.zeros(N_ACTIONS, dtype=np.uint8)
            raise IllegalActionError(illegal_message(a, mask, self._who()))
        g.step_unchecked(a)
        self._steps += 1
        self._play_opponents()
        obs = self._observe()
        info = {"action_mask": self._mask.view(np.int8).copy()}
        if not g.done:
            return obs, 0.0, False, False, info
        winner = g.winner()
        scores = g.scores()
        info.update({"scores": scores.tolist(), "score": int(scores[self.seat]), "won": winner == self.seat,
                     "winner": winner, "seed": self.game_seed, "seat": self.seat,
                     "episode_length": self._steps})
        reward = 1.0 if winner == self.seat else -1.0
        return obs, reward, not g.truncated, bool(g.truncated), info

    def _observe(self) -> np.ndarray:
        g = self.game
        observe_state(g.state, g.cards.table, np.int64(self.seat), self._obs)
        return self._obs.copy()

    def _who(self) -> str:
        if self.game is None:
            return "this env"
        return f"seat {self.seat} at: {self.game.decision().context}"

    def _play_opponents(self) -> None:
        """Let the other seats decide until the agent's turn or the end; leave the agent's mask
        in ``self._mask`` (all zero at the end)."""
        g = self.game
        seat, n = self.seat, self.n_players
        while True:
            if g.done:
                self._mask[:] = 0
                return
            mask = g.legal_mask()
            q = g.current_player
            if q == seat:
                self._mask[:] = mask
                return
            if self._opponents is None:
                legal = np.flatnonzero(mask)
                a = int(legal[self._opp_rng.integers(len(legal))])
            else:
                opp = self._opponents[(q - seat) % n - 1]
                if is_agent(opp):
                    view = g.seat_view(q, observation=getattr(opp, "needs_observation", True),
                                       infoset=getattr(opp, "needs_infoset", True))
                    a = as_action(opp.act(view))
                else:
                    obs = np.empty(OBS_SIZE, dtype=np.float32)
                    observe_state(g.state, g.cards.table, np.int64(q), obs)
                    a = as_action(opp(obs, mask.view(np.int8).copy()))
                if not 0 <= a < N_ACTIONS or not mask[a]:
                    raise IllegalActionError("opponent: " + illegal_message(a, mask, f"seat {q} at: {g.decision().context}"))
            g.step_unchecked(a)

    def action_masks(self) -> np.ndarray:
        """bool mask of the legal action ids (all False once the episode is over), for
        sb3-contrib's MaskablePPO."""
        return self._mask != 0

    def legal_actions(self) -> np.ndarray:
        """The legal action ids of the agent's pending decision, ascending."""
        return np.flatnonzero(self._mask)

    def render(self):
        """``"ansi"``: the table as text (what every seat sees); ``"human"``: print it."""
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    @property
    def card_set(self):
        """The card set played (``card_set.hash`` identifies it)."""
        return self._cards


def make_gizmos_env(illegal_action: str = "terminate", illegal_reward: float = -1.0, **kwargs) -> gym.Env:
    """Entry point of ``Gizmos-v0``: :class:`GizmosEnv` (``kwargs``), wrapped in
    :class:`TerminateIllegalAction` unless ``illegal_action="raise"``."""
    return wrap_illegal_action(GizmosEnv(**kwargs), illegal_action, illegal_reward)
