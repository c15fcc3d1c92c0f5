"""The search as an agent of any registered game: :class:`GumbelAgent` acts on a
:class:`~electrify_env.seatview.SeatView` (its infoset) with :class:`~.gumbel.GumbelSearch` and
the random-playout evaluator, or a network evaluator given to it.

``act(view)`` builds its template game from public facts only: a new game of the agent's game
(:func:`electrify_env.games.get_game`) with the view's player count and the game's default
card set, whose hash must equal the view's (AgentError otherwise; ``act_in(game)`` then serves
any card set, solo games included, by using the game as the template, whose state the
determinizations never read).  :class:`GumbelElectrify` and :class:`GumbelGizmos` fix the game,
for an agent registry that builds agents from their parameters alone.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from electrify_env.games import get_game
from electrify_env.resolver import Agent, AgentError, check_legal
from electrify_env.seatview import SeatView
from electrify_env.validation import MAX_SEED

from .evaluators import AgentRolloutEvaluator, Evaluator, RolloutEvaluator
from .gumbel import GumbelSearch, SearchResult

__all__ = ["GumbelAgent", "GumbelElectrify", "GumbelGizmos", "PARAMS", "CLASSES", "agent_kind"]

#: the agent's parameters as registry data: name -> (type, doc, minimum, maximum)
PARAMS: dict[str, tuple[type, str, float | None, float | None]] = {
    "simulations": (int, "waves per searched move (one simulation in every sample's tree each)", 1, 100_000),
    "determinizations": (int, "samples of the information set, one tree each", 1, 1_000),
    "considered": (int, "root actions searched by Sequential Halving (Gumbel-Top-k's k)", 1, 100_000),
    "gumbel_scale": (float, "scale of the root's Gumbel noise (0: the prior's top actions)", 0, 100),
    "rollouts": (int, "random playouts per evaluated leaf", 1, 1_000),
    "max_steps": (int, "playout length cap (0: to the end of the game)", 0, 1_000_000),
    "prior": (float, "logit of the rollout agent's own choice at each evaluated node (0: uniform)", 0, 100),
    "rollout": (str, "an agent spec of the game's registry that plays the playouts ('': random)", None, None),
}


class GumbelAgent(Agent):
    """Determinized Gumbel search with the uniform-prior random-playout evaluator (or
    ``evaluator``).

    Args:
        game: the registered game it plays (its templates are built with that game's ``GameDef``).
        simulations: as :class:`~.gumbel.GumbelSearch`.
        determinizations: as :class:`~.gumbel.GumbelSearch`.
        considered: as :class:`~.gumbel.GumbelSearch`.
        gumbel_scale: as :class:`~.gumbel.GumbelSearch`.
        rollouts: as :class:`~.evaluators.RolloutEvaluator` (unused with ``evaluator``).
        max_steps: as :class:`~.evaluators.RolloutEvaluator` (unused with ``evaluator``).
        rollout: an agent spec of the game's registry (``"greedy"``) whose agent plays the
            playouts (:class:`~.evaluators.AgentRolloutEvaluator`); ``""``: random playouts.
        prior: with ``rollout``, the prior logit of that agent's own choice at each evaluated node.
        evaluator: a leaf evaluator (a :class:`~.evaluators.NetworkEvaluator`); None: random playouts.

    After each searched move :attr:`last` holds the :class:`~.gumbel.SearchResult` (its improved
    policy is the expert-iteration target).

    Raises:
        AgentError: a parameter out of its range, or an unknown game.
    """

    name = "gumbel"
    needs_infoset = True
    game_name = "electrify"

    def __init__(self, game: str | None = None, simulations: int = 16, determinizations: int = 4,
                 considered: int = 16, gumbel_scale: float = 1.0, rollouts: int = 1,
                 max_steps: int = 0, rollout: str = "", prior: float = 0.0,
                 evaluator: Evaluator | None = None) -> None:
        super().__init__()
        values = {"simulations": simulations, "determinizations": determinizations,
                  "considered": considered, "gumbel_scale": gumbel_scale, "rollouts": rollouts,
                  "max_steps": max_steps, "prior": prior}
        if not isinstance(rollout, str):
            raise AgentError(f"agent {self.name!r}: parameter rollout={rollout!r} must be str (an agent spec)")
        for key, v in values.items():
            typ, doc, lo, hi = PARAMS[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (typ is int and int(v) != v):
                raise AgentError(f"agent {self.name!r}: parameter {key}={v!r} must be {typ.__name__} ({doc})")
            if not lo <= v <= hi:
                raise AgentError(f"agent {self.name!r}: parameter {key}={v!r} must lie in [{lo}, {hi}]")
        try:
            self.game_def = get_game(self.game_name if game is None else game)
        except ValueError as err:
            raise AgentError(str(err)) from None
        if evaluator is not None:
            self.evaluator = evaluator
        elif rollout:
            from ..registry import make_agent
            self.evaluator = AgentRolloutEvaluator(make_agent(rollout, game=self.game_def.name),
                                                   int(rollouts), int(max_steps), prior=float(prior))
        elif prior:
            raise AgentError(f"agent {self.name!r}: prior={prior!r} needs a rollout agent (rollout=SPEC)")
        else:
            self.evaluator = RolloutEvaluator(int(rollouts), int(max_steps))
        self.searcher = GumbelSearch(self.evaluator, simulations=int(simulations),
                                     determinizations=int(determinizations), considered=int(considered),
                                     gumbel_scale=float(gumbel_scale))
        self._templates: dict[tuple[int, str], Any] = {}
        self.last: SearchResult | None = None

    def _template(self, view: SeatView) -> Any:
        key = (int(view.n_players), str(view.card_set_hash))
        if key not in self._templates:
            try:
                g = self.game_def.new_game(n_players=view.n_players, seed=0)
            except ValueError as err:
                raise AgentError(f"agent {self.spec!r}: {err}; play it with act_in(game)") from None
            if g.cards.hash != view.card_set_hash:
                raise AgentError(f"agent {self.spec!r}: the view's card set ({view.card_set_hash[:12]}) is not "
                                 f"{self.game_def.title}'s default; play it with act_in(game)")
            self._templates[key] = g
        return self._templates[key]

    def act(self, view: SeatView) -> int:
        """Search the decision of ``view`` (one legal action: played at once)."""
        return self._act(view, self._template(view) if int(view.mask.sum()) > 1 else None)

    def act_in(self, game: Any) -> int:
        """Search the pending decision of ``game`` with ``game`` as the template (any card set)."""
        return self._act(game.seat_view(observation=False, infoset=True), game)

    def _act(self, view: SeatView, template: Any) -> int:
        self._need(view)
        seed = int(self.rng.integers(MAX_SEED))
        if template is None:
            return int(np.flatnonzero(view.mask)[0])
        self.last = self.searcher.search_views([view], [template], [seed])[0]
        return check_legal(view, self.last.action, self.spec)


class GumbelElectrify(GumbelAgent):
    """:class:`GumbelAgent` for Electrify."""

    game_name = "electrify"

    def __init__(self, simulations: int = 16, determinizations: int = 4, considered: int = 16,
                 gumbel_scale: float = 1.0, rollouts: int = 1, max_steps: int = 0,
                 rollout: str = "", prior: float = 0.0) -> None:
        super().__init__("electrify", simulations, determinizations, considered, gumbel_scale,
                         rollouts, max_steps, rollout, prior)


class GumbelGizmos(GumbelAgent):
    """:class:`GumbelAgent` for Gizmos."""

    game_name = "gizmos"

    def __init__(self, simulations: int = 16, determinizations: int = 4, considered: int = 16,
                 gumbel_scale: float = 1.0, rollouts: int = 1, max_steps: int = 0,
                 rollout: str = "", prior: float = 0.0) -> None:
        super().__init__("gizmos", simulations, determinizations, considered, gumbel_scale,
                         rollouts, max_steps, rollout, prior)


#: the game-fixed agent class of each game, by game name
CLASSES = {"electrify": GumbelElectrify, "gizmos": GumbelGizmos}

DOC = ("determinized Gumbel search: Gumbel-Top-k and Sequential Halving at the root over samples "
       "of the information set, completed-Q improved policy below, random or agent playouts")
"""The one-line description of the agent kind."""


def agent_kind(game: str) -> dict:
    """The search agent of the game named ``game`` as agent-registry plain data (the format of a
    game's ``agent_kinds()`` entries: ``{"target", "doc", "params"}``); AgentError for a game
    without a game-fixed class in :data:`CLASSES`."""
    return kind_data("search", CLASSES, game, DOC, PARAMS)


def kind_data(what: str, classes: dict[str, type], game: str, doc: str,
              params: dict[str, tuple[type, str, float | None, float | None]]) -> dict:
    """The agent-registry plain data ``{"target", "doc", "params"}`` of the game-fixed class of
    ``game`` in ``classes``, with ``params`` given as name -> (type, doc, minimum, maximum);
    AgentError naming the games when ``game`` has no class (``what`` names the agent)."""
    cls = classes.get(str(game))
    if cls is None:
        raise AgentError(f"no {what} agent class for game {game!r}; games: {', '.join(classes)}")
    data = {k: {"type": t, "doc": d, **({} if lo is None else {"minimum": lo, "maximum": hi})}
            for k, (t, d, lo, hi) in params.items()}
    return {"target": f"{cls.__module__}:{cls.__name__}", "doc": doc, "params": data}
