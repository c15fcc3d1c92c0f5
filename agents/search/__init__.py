"""The game-blind search of the one agent design (a policy-value network plus a search): a
determinized Gumbel search (:mod:`.gumbel`) that plays any game of the Game protocol of
:mod:`electrify_env.games` from a seat's information set, its leaf evaluators
(:mod:`.evaluators`: random playouts without a network, or a network function), and the agent
that plays it (:mod:`.agent`).

>>> from electrify_env.games import get_game
>>> from electrify_env.agents.search import GumbelSearch
>>> g = get_game("gizmos").new_game(n_players=2, seed=1)
>>> r = GumbelSearch(simulations=4, determinizations=2).search(g, seed=0)
>>> bool(g.legal_mask()[r.action]), round(float(r.policy.sum()), 4)
(True, 1.0)
"""
from .agent import GumbelAgent, GumbelElectrify, GumbelGizmos
from .evaluators import AgentRolloutEvaluator, Evaluator, NetworkEvaluator, RolloutEvaluator, utility
from .gumbel import GumbelSearch, SearchResult, completed_q, considered_visits, improved_policy

__all__ = ["GumbelSearch", "SearchResult", "Evaluator", "RolloutEvaluator", "AgentRolloutEvaluator", "NetworkEvaluator",
           "utility", "GumbelAgent", "GumbelElectrify", "GumbelGizmos", "completed_q",
           "considered_visits", "improved_policy"]
