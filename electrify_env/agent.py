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
project can serve its own agents to every env and tool by setting its resolver.  The
:class:`Agent` base class and the resolver are game-independent and live in
:mod:`electrify_env.resolver` (with the resolver's calling convention for games other than
Electrify); this module re-exports them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from electrify_env.engine import layout as L
from electrify_env.engine.infoset import scrub
from electrify_env.resolver import (RESOLVER_GROUP, Agent, AgentError, accepts_game, agent_resolver,
                                   check_legal, is_agent, resolve_agent, set_agent_resolver,
                                   top_actions)
from electrify_env.seatview import SeatView

if TYPE_CHECKING:  # pragma: no cover
    from electrify_env.game import Game

__all__ = ["Agent", "AgentError", "SeatView", "seat_view", "state_view", "check_legal",
           "top_actions", "is_agent", "RESOLVER_GROUP", "set_agent_resolver", "agent_resolver",
           "accepts_game", "resolve_agent"]


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
