"""The agent registry: names with parameters -> agents.

A spec is ``name`` or ``name:key=value:key=value`` (parameters separated by ``:``, so a list of
specs can be separated by commas), for example ``random``, ``greedy``,
``greedy:weights=configs/agents/greedy.yaml``, ``mcts:iters=64:horizon=1``,
``ppo:path=agents/policies/x.zip``.  Unknown names and bad parameters raise
:class:`~agents.base.AgentError` with a message listing what exists.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable

from .base import Agent, AgentError


@dataclass(frozen=True)
class Param:
    """One parameter of an agent kind: its type, default and meaning."""

    type: type
    default: Any
    doc: str
    minimum: float | None = None

    def parse(self, agent: str, key: str, text: str) -> Any:
        """Convert ``text`` to the parameter's type, or raise AgentError."""
        try:
            if self.type is bool:
                if text.lower() not in ("1", "0", "true", "false", "yes", "no"):
                    raise ValueError
                value = text.lower() in ("1", "true", "yes")
            else:
                value = self.type(text)
        except ValueError:
            raise AgentError(f"agent {agent!r}: parameter {key}={text!r} is not a valid "
                             f"{self.type.__name__} ({self.doc})") from None
        if self.minimum is not None and value < self.minimum:
            raise AgentError(f"agent {agent!r}: parameter {key}={value} must be at least {self.minimum}")
        return value


@dataclass(frozen=True)
class AgentKind:
    """A registered agent kind: the class (``module:Class``), a one-line description, parameters."""

    target: str
    doc: str
    params: dict[str, Param] = field(default_factory=dict)

    def load(self) -> Callable[..., Agent]:
        """Import the agent class (heavy imports such as torch happen only when used)."""
        module, cls = self.target.split(":")
        return getattr(importlib.import_module(module), cls)


AGENTS: dict[str, AgentKind] = {
    "random": AgentKind("agents.random_agent:RandomAgent", "uniform over the legal actions"),
    "greedy": AgentKind(
        "agents.greedy:GreedyAgent",
        "one-ply lookahead with a hand-written evaluation of its information-set view",
        {"weights": Param(str, "", "YAML weights file (default configs/agents/greedy.yaml)")}),
    "mcts": AgentKind(
        "agents.mcts:MCTSAgent",
        "determinized flat Monte Carlo search, UCB1 at the root, greedy rollouts",
        {"iters": Param(int, 48, "iterations (determinized rollouts) per searched move", 1),
         "ms": Param(float, 0.0, "time budget per searched move in milliseconds (0: use iters; "
                                 "a time budget is not reproducible)", 0),
         "horizon": Param(int, 1, "rounds a rollout looks ahead before the evaluation", 1),
         "top_k": Param(int, 5, "root candidates: the greedy's best k actions", 1),
         "c": Param(float, 0.4, "UCB1 exploration constant", 0),
         "search": Param(str, "key", "which decisions to search: 'key' (plan, boosts, acquire, "
                                     "placing, discharge order, fulfil, rewards, free cards, flips, "
                                     "breakthroughs), 'core' (plan, boosts, acquire, placing the "
                                     "sector, free cards, flips, breakthroughs) or 'all'"),
         "skip_margin": Param(float, 0.0, "skip the search when the greedy's best beats the "
                                          "runner-up by more than this (points; 0: never)", 0),
         "method": Param(str, "paired", "'paired': every candidate on the same samples; "
                                        "'ucb': UCB1 over candidates, a new sample each iteration"),
         "explore": Param(float, 0.0, "chance of a random (phase-first) rollout step", 0),
         "weights": Param(str, "", "YAML weights file of the evaluation and the rollouts")}),
    "ppo": AgentKind(
        "agents.ppo:PPOAgent",
        "a saved MaskablePPO policy (refuses one saved for another layout or card set)",
        {"path": Param(str, "", "the policy .zip (a .meta.json sidecar must be beside it)"),
         "deterministic": Param(bool, True, "take the most likely action instead of sampling")}),
}


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: kind name and parameters (converted to their types)."""

    name: str
    params: dict[str, Any]
    text: str

    def build(self) -> Agent:
        """Construct the agent."""
        agent = AGENTS[self.name].load()(**self.params)
        agent.spec = self.text
        return agent


def parse_spec(text: str) -> AgentSpec:
    """Parse ``name[:key=value...]``; raise AgentError naming the known agents or parameters."""
    if not isinstance(text, str) or not text.strip():
        raise AgentError(f"empty agent spec; known agents: {', '.join(AGENTS)}")
    parts = text.strip().split(":")
    name = parts[0].strip()
    if name not in AGENTS:
        raise AgentError(f"unknown agent {name!r}; known agents: {', '.join(AGENTS)} "
                         "(parameters as name:key=value:key=value)")
    kind = AGENTS[name]
    params: dict[str, Any] = {}
    for item in parts[1:]:
        if "=" not in item:
            raise AgentError(f"agent {name!r}: parameter {item!r} must be key=value; "
                             f"parameters: {_param_list(kind)}")
        key, value = (x.strip() for x in item.split("=", 1))
        if key not in kind.params:
            raise AgentError(f"agent {name!r} has no parameter {key!r}; parameters: {_param_list(kind)}")
        if key in params:
            raise AgentError(f"agent {name!r}: parameter {key!r} given twice")
        params[key] = kind.params[key].parse(name, key, value)
    return AgentSpec(name, params, text.strip())


def _param_list(kind: AgentKind) -> str:
    return ", ".join(kind.params) if kind.params else "(none)"


def make_agent(spec: str) -> Agent:
    """Build an agent from a spec such as ``"mcts:iters=64"`` (see :func:`parse_spec`)."""
    return parse_spec(spec).build()


def describe_agents() -> str:
    """Every registered agent with its parameters, as text."""
    lines = []
    for name, kind in AGENTS.items():
        lines.append(f"{name}: {kind.doc}")
        for key, p in kind.params.items():
            lines.append(f"    {key} ({p.type.__name__}, default {p.default!r}): {p.doc}")
    return "\n".join(lines)
