"""Game-playing agents for electrify-env: one interface (:class:`Agent`, :class:`SeatView`), a
registry from names with parameters to agents (:func:`make_agent`), the arena and replays.

========  =====================================================================================
name      agent
========  =====================================================================================
random    uniform over the legal actions
greedy    one-ply lookahead with a hand-written evaluation (weights: configs/agents/greedy.yaml)
mcts      determinized flat Monte Carlo search with UCB1 at the root and greedy rollouts
ppo       a saved MaskablePPO policy (checked against the engine's layout and card set)
research_rush  scripted style: greedy that charges R&D and takes breakthroughs whenever it can
demand_rush    scripted style: greedy that builds production and transmission to fulfil demands
========  =====================================================================================

``python -c "import electrify_env.agents as agents; print(agents.describe_agents())"`` lists every agent with its
parameters.
"""
from .base import Agent, AgentError, SeatView, seat_view
from .registry import AGENTS, AgentSpec, describe_agents, make_agent, parse_spec

__all__ = ["Agent", "AgentError", "SeatView", "seat_view", "AGENTS", "AgentSpec",
           "describe_agents", "make_agent", "parse_spec"]
