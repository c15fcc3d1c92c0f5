"""The one agent interface of electrify-env (the core's notion of what a seat may know), shared
by the arena, the environments' opponents, training and human play, and the one hook by which
the layers below the agents turn an agent spec (``"greedy"``) into an agent.

An agent is asked for an action with a :class:`SeatView`: what its seat may know at the pending
decision.  That is the seat's observation vector, the legal-action mask and, for agents that
search or evaluate the game, an *information-set view* of the engine state built with
:func:`electrify_env.engine.infoset.scrub` (other hands, deck contents and order, other players'
secret plan choices and the generator are wiped; sizes stay).  No agent ever receives the full
state, so none can read hidden information; a search agent samples the hidden part itself with
:func:`~electrify_env.engine.infoset.determinize`.

>>> from electrify_env import Game
>>> from electrify_env.agents import make_agent, seat_view
>>> game = Game(2, seed=1)
>>> agent = make_agent("greedy"); agent.reset(seed=0)
>>> a = agent.act(seat_view(game))       # or agent.act_in(game)
>>> game.step(a)

Agents that need only the observation and the mask (``random``, ``ppo``) also offer the plain
callable form ``(observation, action_mask) -> action`` (:meth:`Agent.as_callable`) used by the
Gymnasium one-seat environment's opponents.

**Resolving specs.**  The envs accept opponents as agent objects, callables or spec strings;
they turn a spec into an agent with :func:`resolve_agent`, which calls the *agent resolver*:
the function set with :func:`set_agent_resolver`, else the one a distribution declares under
the entry-point group ``electrify_env.agent_resolvers`` (this package declares
``electrify_env.agents:make_agent``).  So the envs never import the agents package, and a
project can serve its own agents to every env and tool by setting its resolver.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from electrify_env.engine import layout as L
from electrify_env.engine.infoset import scrub
from electrify_env.seatview import SeatView

if TYPE_CHECKING:  # pragma: no cover
    from electrify_env.game import Game


class AgentError(ValueError):
    """An agent cannot be built or used as asked (bad spec, bad parameter, missing view part)."""


def seat_view(game: "Game", seat: int | None = None, observation: bool = True,
              infoset: bool = True) -> SeatView:
    """Build the :class:`SeatView` of ``seat`` (default: the player on turn) in ``game``.

    ``observation`` / ``infoset`` choose which parts to build (agents declare what they need in
    :attr:`Agent.needs_observation` / :attr:`Agent.needs_infoset`).  The mask is the legal mask
    of the pending decision, so ``seat`` must be the player on turn."""
    if game.is_terminal:
        raise AgentError("the game is over: there is no decision to view")
    cur = game.current_player
    seat = cur if seat is None else int(seat)
    if seat != cur:
        raise AgentError(f"seat {seat} is not on turn (player {cur} decides now)")
    return state_view(game.state, game.cards.table, seat, game.n_players, game.legal_mask(),
                      game.cards.hash, game.observe(seat) if observation else None, infoset,
                      decision=len(game.history))


def state_view(S: np.ndarray, T: np.ndarray, seat: int, n_players: int, mask: np.ndarray,
               card_set_hash: str, observation: np.ndarray | None = None, infoset: bool = True,
               decision: int | None = None) -> SeatView:
    """The :class:`SeatView` of ``seat``, the player on turn in the engine state ``S`` (card
    table ``T``), from its pending-decision ``mask`` and (if built) ``observation``: the
    information set scrubbed for ``seat`` when ``infoset``; the mask and observation copied, so an
    agent may keep every array.  ``decision`` defaults to the state's decision counter."""
    info = None
    if infoset:
        info = np.empty(L.S_SIZE, dtype=np.int64)
        scrub(S, T, np.int64(seat), info)
    return SeatView(seat=int(seat), n_players=n_players, mask=np.array(mask, copy=True),
                    observation=None if observation is None else np.array(observation, copy=True),
                    infoset=info, table=T, card_set_hash=card_set_hash,
                    decision=int(S[L.S_DECISIONS]) if decision is None else decision)


class Agent(ABC):
    """Base class of every agent.

    Subclasses set :attr:`name`, declare which parts of the view they read, and implement
    :meth:`act`.  :meth:`reset` is called with a seed before each game; an agent draws all its
    randomness from the generator it makes there, so a seeded arena run is reproducible."""

    #: registry name of the agent kind
    name: str = "agent"
    #: the agent reads ``SeatView.infoset`` (a scrubbed engine state)
    needs_infoset: bool = False
    #: the agent reads ``SeatView.observation``
    needs_observation: bool = False

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)
        self.spec = self.name

    def reset(self, seed: int = 0) -> None:
        """Start a new game: reseed the agent's generator."""
        self.rng = np.random.default_rng(seed)

    @abstractmethod
    def act(self, view: SeatView) -> int:
        """Return a legal action id for the decision described by ``view``."""

    def act_in(self, game: "Game") -> int:
        """Build the view of the player on turn in ``game`` (only the parts this agent reads)
        and return :meth:`act`'s choice."""
        return self.act(seat_view(game, observation=self.needs_observation,
                                  infoset=self.needs_infoset))

    def _need(self, view: SeatView) -> None:
        if self.needs_infoset and view.infoset is None:
            raise AgentError(f"agent {self.spec!r} needs the information-set view (SeatView.infoset)")
        if self.needs_observation and view.observation is None:
            raise AgentError(f"agent {self.spec!r} needs the observation (SeatView.observation)")

    def as_callable(self, table: np.ndarray | None = None, card_set_hash: str = "",
                    n_players: int = 2) -> Callable[[np.ndarray, np.ndarray], int]:
        """The plain form ``(observation, action_mask) -> action`` for opponents that only see
        the observation and the mask.  Agents that need the engine view raise AgentError."""
        if self.needs_infoset:
            raise AgentError(f"agent {self.spec!r} needs the information-set view of the engine "
                             "state; use act_in(game) or act(seat_view(game)) instead of the "
                             "(observation, action_mask) form")
        tab = np.zeros(0, dtype=np.int64) if table is None else table

        def policy(observation: np.ndarray, action_mask: np.ndarray) -> int:
            mask = np.asarray(action_mask).astype(np.uint8, copy=False)
            view = SeatView(seat=0, n_players=n_players, mask=mask,
                            observation=np.asarray(observation, dtype=np.float32), infoset=None,
                            table=tab, card_set_hash=card_set_hash, decision=0)
            return self.act(view)

        return policy

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec}>"


def top_actions(values: np.ndarray, k: int) -> np.ndarray:
    """The (at most) ``k`` action ids of highest finite value in ``values`` (``N_ACTIONS`` long;
    illegal actions at -inf), best first, ties to the lower id: int64."""
    finite = np.flatnonzero(np.isfinite(values))
    return finite[np.argsort(-values[finite], kind="stable")][:k].astype(np.int64)


def check_legal(view: SeatView, action: int, who: str) -> int:
    """Return ``action`` as an int, or raise AgentError if the mask does not allow it."""
    a = int(action)
    if not (0 <= a < view.mask.shape[0]) or not view.mask[a]:
        raise AgentError(f"agent {who} chose action {a}, which is not legal here")
    return a


# ---- the agent resolver ------------------------------------------------------------------------
#: entry-point group of the functions ``spec -> agent`` (the first by name is used)
RESOLVER_GROUP = "electrify_env.agent_resolvers"
_resolver: Callable[[str], Any] | None = None


def set_agent_resolver(resolver: Callable[[str], Any] | None) -> None:
    """Make ``resolver`` (``spec -> agent``, raising :class:`AgentError` for a bad spec) the one
    :func:`resolve_agent` calls; None: back to the entry-point default."""
    global _resolver
    if resolver is not None and not callable(resolver):
        raise TypeError(f"the agent resolver must be callable, got {resolver!r:.60}")
    _resolver = resolver


def agent_resolver() -> Callable[[str], Any]:
    """The resolver :func:`resolve_agent` calls: the one set, else the first entry point of
    :data:`RESOLVER_GROUP` (loaded once).  AgentError when there is none."""
    global _resolver
    if _resolver is None:
        eps = sorted(entry_points(group=RESOLVER_GROUP), key=lambda ep: ep.name)
        if not eps:
            raise AgentError("no agent registry is installed (no entry point in the group "
                             f"{RESOLVER_GROUP!r}); pass agent objects or callables, or call "
                             "electrify_env.agent.set_agent_resolver")
        _resolver = eps[0].load()
    return _resolver


def resolve_agent(spec: str, where: str = "opponents") -> Any:
    """The agent of ``spec`` (e.g. ``"mcts:iters=36:top_k=3:horizon=2"``) from the agent
    resolver; a bad spec raises AgentError prefixed with ``where``."""
    try:
        return agent_resolver()(spec)
    except AgentError as err:
        raise type(err)(f"{where}: {err}") from None


def is_agent(obj: Any) -> bool:
    """True if ``obj`` has the agent interface (methods ``act(view)`` and ``reset(seed)``)."""
    return callable(getattr(obj, "act", None)) and callable(getattr(obj, "reset", None))
