"""The agent of the one design: a policy-value network, alone or driving the determinized
Gumbel search (:mod:`electrify_env.agents.search`) with its prior and its values at the leaves.

* **Network alone** (``simulations=0``): one forward pass over the seat's observation; the most
  likely legal action (or a sample, ``deterministic=False``).
* **With search** (``simulations=N``): :class:`~electrify_env.agents.search.gumbel.GumbelSearch`
  over ``determinizations`` samples of the seat's information set (never the true state), the
  network as its evaluator, no root noise at play.  A policy file may name the search it plays
  with (``search`` in its metadata); ``simulations=-1`` (the default) plays the file's choice.

:class:`PolicyAgent` takes the game by name; :data:`CLASSES` holds one game-fixed class per game
with a shipped file, for the agent registry (``policy`` in ``electrify agents --game gizmos``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from electrify_env.games import get_game
from electrify_env.paths import POLICIES_DIR
from electrify_env.resolver import Agent, AgentError, check_legal
from electrify_env.seatview import SeatView
from electrify_env.validation import MAX_SEED

from ..search.evaluators import NetworkEvaluator
from ..search.agent import kind_data
from ..search.gumbel import GumbelSearch
from .policy_file import PolicyFileError, load

__all__ = ["PolicyAgent", "PolicyElectrify", "PolicyGizmos", "CLASSES", "PARAMS", "shipped_path", "evaluator_of", "agent_kind"]

#: the shipped policy files (the repository's ``policies/``, or an installed wheel's data copy)
POLICY_DIR = POLICIES_DIR

#: the agent's parameters as registry data: name -> (type, doc, minimum, maximum)
PARAMS: dict[str, tuple[type, str, float | None, float | None]] = {
    "path": (str, "a policy file (.pt); '': the shipped file for the game and player count", None, None),
    "simulations": (int, "search waves per move (0: the network alone; -1: the file's own search)", -1, 100_000),
    "determinizations": (int, "samples of the information set, one tree each (0: the file's)", 0, 1_000),
    "considered": (int, "root actions searched by Sequential Halving (0: the file's)", 0, 100_000),
    "deterministic": (bool, "network alone: the most likely action instead of a sample", None, None),
}


def shipped_path(game: str, n_players: int) -> Path:
    """``policies/<game>-<n>p.pt``, the shipped file of a game and player count."""
    return POLICY_DIR / f"{get_game(game).name}-{int(n_players)}p.pt"


def evaluator_of(net: Any) -> NetworkEvaluator:
    """The search's leaf evaluator around a :class:`~.model.PolicyValueNet` (values turned from
    seat-relative into the game's seat order)."""
    return NetworkEvaluator(net.evaluate, seat_relative=True)


class PolicyAgent(Agent):
    """A policy-value network, alone or with search (module docstring).

    Args:
        game: the registered game it plays.
        path: the policy file; ``""``: :func:`shipped_path` for the view's player count.
        simulations: 0 for the network alone, N for N search waves a move, -1 for the file's search.
        determinizations: samples per search (0: the file's, else 2).
        considered: the root's considered actions (0: the file's, else 8).
        deterministic: with the network alone, argmax instead of a sample.

    Raises:
        AgentError: an unknown game or a parameter out of range; at the first move, a missing
            or mismatched policy file.
    """

    name = "policy"
    needs_observation = True
    game_name = "electrify"

    def __init__(self, game: str | None = None, path: str = "", simulations: int = -1,
                 determinizations: int = 0, considered: int = 0, deterministic: bool = True) -> None:
        super().__init__()
        try:
            self.game_def = get_game(self.game_name if game is None else game)
        except ValueError as err:
            raise AgentError(str(err)) from None
        for key, v in (("simulations", simulations), ("determinizations", determinizations),
                       ("considered", considered)):
            lo, hi = PARAMS[key][2], PARAMS[key][3]
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise AgentError(f"agent {self.name!r}: parameter {key}={v!r} must be an int in [{lo}, {hi}]")
        self.path, self.simulations = str(path), int(simulations)
        self.determinizations, self.considered = int(determinizations), int(considered)
        self.deterministic = bool(deterministic)
        self.needs_infoset = self.simulations != 0
        self._loaded: dict[int, tuple[Any, dict, GumbelSearch | None]] = {}
        self._templates: dict[int, Any] = {}

    def _policy(self, view: SeatView) -> tuple[Any, dict, GumbelSearch | None]:
        n = int(view.n_players)
        if n not in self._loaded:
            path = Path(self.path) if self.path else shipped_path(self.game_def.name, n)
            try:
                net, meta = load(path, card_set_hash=str(view.card_set_hash))
            except PolicyFileError as err:
                raise AgentError(f"agent {self.spec!r}: {err}") from None
            if int(meta["n_players"]) != n:
                raise AgentError(f"agent {self.spec!r}: {path} plays {meta['n_players']}-player games, not {n}")
            own = meta.get("search") or {}
            sims = int(own.get("simulations", 0)) if self.simulations < 0 else self.simulations
            search = None
            if sims > 0:
                search = GumbelSearch(evaluator_of(net), simulations=sims, gumbel_scale=0.0,
                                      determinizations=self.determinizations or int(own.get("determinizations", 2)),
                                      considered=self.considered or int(own.get("considered", 8)))
            self._loaded[n] = (net, meta, search)
        return self._loaded[n]

    def _template(self, view: SeatView) -> Any:
        n = int(view.n_players)
        if n not in self._templates:
            g = self.game_def.new_game(n_players=n, seed=0)
            if g.cards.hash != view.card_set_hash:
                raise AgentError(f"agent {self.spec!r}: the view's card set is not {self.game_def.title}'s "
                                 "default; play it with act_in(game)")
            self._templates[n] = g
        return self._templates[n]

    def act(self, view: SeatView) -> int:
        """The network's or the search's action for ``view``."""
        return self._act(view, None)

    def act_in(self, game: Any) -> int:
        """As :meth:`act`, with ``game`` as the search's template (any card set)."""
        return self._act(game.seat_view(observation=True, infoset=self.needs_infoset), game)

    def _act(self, view: SeatView, template: Any) -> int:
        self._need(view)
        legal = np.flatnonzero(view.mask)
        if legal.size == 1:
            return int(legal[0])
        net, _, search = self._policy(view)
        if search is not None:
            seed = int(self.rng.integers(MAX_SEED))
            result = search.search_views([view], [template if template is not None else self._template(view)],
                                         [seed])[0]
            return check_legal(view, result.action, self.spec)
        logits, _ = net.evaluate(view.observation[None], view.mask[None])
        if self.deterministic:
            return check_legal(view, int(np.argmax(logits[0])), self.spec)
        z = logits[0, legal].astype(np.float64)
        p = np.exp(z - z.max())
        return check_legal(view, int(self.rng.choice(legal, p=p / p.sum())), self.spec)


class PolicyElectrify(PolicyAgent):
    """:class:`PolicyAgent` for Electrify."""

    game_name = "electrify"

    def __init__(self, path: str = "", simulations: int = -1, determinizations: int = 0,
                 considered: int = 0, deterministic: bool = True) -> None:
        super().__init__("electrify", path, simulations, determinizations, considered, deterministic)


class PolicyGizmos(PolicyAgent):
    """:class:`PolicyAgent` for Gizmos."""

    game_name = "gizmos"

    def __init__(self, path: str = "", simulations: int = -1, determinizations: int = 0,
                 considered: int = 0, deterministic: bool = True) -> None:
        super().__init__("gizmos", path, simulations, determinizations, considered, deterministic)


#: the game-fixed agent class of each game, by game name
CLASSES = {"electrify": PolicyElectrify, "gizmos": PolicyGizmos}

DOC = ("a policy-value network, alone or driving the determinized Gumbel search "
       "(policies/<game>-<n>p.pt by default)")


def agent_kind(game: str) -> dict:
    """The policy agent of ``game`` as agent-registry plain data (``{"target", "doc", "params"}``)."""
    return kind_data("policy", CLASSES, game, DOC, PARAMS)
