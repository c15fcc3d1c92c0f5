"""The agent interface every game shares, and the one hook that turns an agent spec into an agent.

Game-independent: it imports only numpy, the standard library and the game-independent
:mod:`electrify_env.seatview`, so every game's package (Electrify's core, the Gizmos bots) may
build on it.  :mod:`electrify_env.agent` re-exports every name here beside Electrify's own seat
view builders.

* :class:`Agent`, the base class of every agent: asked for an action with a
  :class:`~electrify_env.seatview.SeatView`; :meth:`Agent.act_in` builds the view with the game's
  own ``Game.seat_view`` (the Game protocol of :mod:`electrify_env.games`).
* :func:`resolve_agent` turns a spec (``"greedy"``, ``"mcts:iters=36"``) into an agent of a game
  by calling the *agent resolver*: the function set with :func:`set_agent_resolver`, else the
  first entry point of the group :data:`RESOLVER_GROUP` (this distribution declares
  ``electrify_env.agents:make_agent``).  So the envs never import the agents package, and a
  project can serve its own agents to every env and tool by setting its resolver.

**The resolver's calling convention.**  A resolver that accepts a ``game`` keyword (a parameter
named ``game``, or ``**kwargs``) is always called ``resolver(spec, game=name)``.  A resolver
without one (``spec -> agent``, the older form) is called ``resolver(spec)`` for Electrify, the
default game, and :func:`resolve_agent` refuses it for any other game with an :class:`AgentError`,
since it cannot know which game's agent to build.

>>> from electrify_env.resolver import accepts_game
>>> accepts_game(lambda spec: None), accepts_game(lambda spec, game="electrify": None)
(False, True)
"""
from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from importlib.metadata import entry_points
from typing import Any, Callable

import numpy as np

from electrify_env.seatview import SeatView

__all__ = ["Agent", "AgentError", "SeatView", "check_legal", "top_actions", "is_agent",
           "RESOLVER_GROUP", "DEFAULT_RESOLVER_GAME", "set_agent_resolver", "agent_resolver",
           "accepts_game", "resolve_agent"]


class AgentError(ValueError):
    """An agent cannot be built or used as asked (bad spec, bad parameter, missing view part)."""


class Agent(ABC):
    """Base class of every agent, of any game.

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

    def act_in(self, game: Any) -> int:
        """Build the view of the player on turn in ``game`` with its ``Game.seat_view`` (only the
        parts this agent reads) and return :meth:`act`'s choice."""
        return self.act(game.seat_view(observation=self.needs_observation,
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


def is_agent(obj: Any) -> bool:
    """True if ``obj`` has the agent interface (methods ``act(view)`` and ``reset(seed)``)."""
    return callable(getattr(obj, "act", None)) and callable(getattr(obj, "reset", None))


# ---- the agent resolver ------------------------------------------------------------------------
#: entry-point group of the functions ``(spec, game=...) -> agent`` (the first by name is used)
RESOLVER_GROUP = "electrify_env.agent_resolvers"
#: the game a resolver without a ``game`` keyword serves (the registry's default game)
DEFAULT_RESOLVER_GAME = "electrify"
_resolver: Callable[..., Any] | None = None


def set_agent_resolver(resolver: Callable[..., Any] | None) -> None:
    """Make ``resolver`` the one :func:`resolve_agent` calls: ``(spec, game=name) -> agent``, or
    the older ``spec -> agent`` (then used for Electrify only; see the module docstring), raising
    :class:`AgentError` for a bad spec.  None: back to the entry-point default."""
    global _resolver
    if resolver is not None and not callable(resolver):
        raise TypeError(f"the agent resolver must be callable, got {resolver!r:.60}")
    _resolver = resolver


def agent_resolver() -> Callable[..., Any]:
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


def accepts_game(resolver: Callable[..., Any]) -> bool:
    """True if ``resolver`` takes a ``game`` keyword (a parameter named ``game`` or ``**kwargs``)."""
    try:
        params = inspect.signature(resolver).parameters.values()
    except (TypeError, ValueError):     # a builtin without a signature: the older form
        return False
    return any(p.name == "game" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
               or p.kind is p.VAR_KEYWORD for p in params)


def resolve_agent(spec: str, where: str = "opponents", game: str = DEFAULT_RESOLVER_GAME) -> Any:
    """The agent of ``spec`` (e.g. ``"mcts:iters=36:top_k=3:horizon=2"``) for the game named
    ``game`` from the agent resolver; a bad spec raises AgentError prefixed with ``where``."""
    try:
        resolver = agent_resolver()
        if accepts_game(resolver):
            return resolver(spec, game=game)
        if game != DEFAULT_RESOLVER_GAME:
            raise AgentError(f"the agent resolver {getattr(resolver, '__name__', resolver)!r} "
                             f"takes no game keyword, so it cannot build agents of {game!r}")
        return resolver(spec)
    except AgentError as err:
        raise type(err)(f"{where}: {err}") from None
