"""The agent registry: names with parameters -> agents.

A spec is ``name`` or ``name:key=value:key=value`` (parameters separated by ``:``, so a list of
specs can be separated by commas), for example ``random``, ``greedy``,
``greedy:weights=configs/agents/greedy.yaml``, ``mcts:iters=64:horizon=1``,
``ppo:path=agents/policies/x.zip``.  Unknown names and bad parameters raise
:class:`~electrify_env.agents.base.AgentError` with a message listing what exists.

**Per game.**  Every agent kind knows the games it plays (:attr:`AgentKind.games`): ``random``
plays every game; the kinds of :data:`AGENTS` beside it (greedy, mcts, ppo, the trained
policies, the scripted styles) are Electrify's.  A game's own bots come from its package: the
registry asks the game's :class:`~electrify_env.games.GameDef` for them
(:meth:`~electrify_env.games.GameDef.agent_kinds`, the ``agent_kinds()`` of the module its
``bots`` names), so the registry imports no game package by name.  :func:`agents_of` is the
registry of one game; :func:`parse_spec`, :func:`make_agent` and :func:`describe_agents` take
``game=`` (default Electrify).
"""
from __future__ import annotations

import importlib
import inspect
import math
import numbers
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from electrify_env.engine import layout as L
from electrify_env.games import DEFAULT_GAME, get_game
from electrify_env.paths import POLICIES_DIR

from .base import Agent, AgentError
from .network.agent import CLASSES as POLICY_CLASSES, agent_kind as policy_kind
from .search.agent import CLASSES as SEARCH_CLASSES, agent_kind as search_kind

_BOOL_TEXT = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}


@dataclass(frozen=True)
class Param:
    """One parameter of an agent kind: its type, meaning and allowed values.

    The registry is the one home of each parameter's type and range; its default is the default
    in the agent class's signature (:meth:`AgentKind.defaults`), so the two cannot disagree.
    Numbers must be finite and lie in ``[minimum, maximum]`` (either bound optional); text
    parameters with ``choices`` must be one of them."""

    type: type
    doc: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def parse(self, agent: str, key: str, text: str) -> Any:
        """Convert the spec text ``text`` to the parameter's type and check it (AgentError)."""
        try:
            if self.type is bool:
                value: Any = _BOOL_TEXT[text.strip().lower()]
            else:
                value = self.type(text)
        except (ValueError, KeyError):
            raise AgentError(f"agent {agent!r}: parameter {key}={text!r} is not a valid "
                             f"{self.type.__name__} ({self.doc})") from None
        return self.check(agent, key, value)

    def check(self, agent: str, key: str, value: Any) -> Any:
        """Check a value given as a spec or directly to the agent's constructor; return it
        converted to the parameter's type, or raise AgentError naming the parameter."""
        kind = {"int": "an int", "float": "a float", "str": "a str", "bool": "a bool"}.get(
            self.type.__name__, self.type.__name__)
        if self.type is bool:
            if not isinstance(value, (bool, np.bool_)):
                raise AgentError(f"agent {agent!r}: parameter {key}={value!r} must be {kind}")
            return bool(value)
        if self.type is str:
            if not isinstance(value, str):
                raise AgentError(f"agent {agent!r}: parameter {key}={value!r} must be {kind}")
            if self.choices and value not in self.choices:
                raise AgentError(f"agent {agent!r}: parameter {key}={value!r} is not one of "
                                 f"{', '.join(self.choices)}")
            return value
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise AgentError(f"agent {agent!r}: parameter {key}={value!r} must be {kind}")
        if self.type is int:
            if not isinstance(value, numbers.Integral):
                raise AgentError(f"agent {agent!r}: parameter {key}={value!r} must be {kind}")
            value = int(value)
        else:
            value = float(value)
            if not math.isfinite(value):
                raise AgentError(f"agent {agent!r}: parameter {key}={value!r} must be a finite number")
        lo, hi = self.minimum, self.maximum
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            if hi is None:
                raise AgentError(f"agent {agent!r}: parameter {key}={value!r} must be at least {lo}")
            if lo is None:
                raise AgentError(f"agent {agent!r}: parameter {key}={value!r} must be at most {hi}")
            raise AgentError(f"agent {agent!r}: parameter {key}={value!r} must lie in [{lo}, {hi}]")
        return value


#: the games of an Electrify agent kind
ELECTRIFY_ONLY = ("electrify",)


@dataclass(frozen=True)
class AgentKind:
    """A registered agent kind: the class (``module:Class``), a one-line description, parameters
    and the games it plays (None: every game)."""

    target: str
    doc: str
    params: dict[str, Param] = field(default_factory=dict)
    games: tuple[str, ...] | None = ELECTRIFY_ONLY

    def plays(self, game: str) -> bool:
        """True if this kind plays the game named ``game``."""
        return self.games is None or game in self.games

    def load(self) -> Callable[..., Agent]:
        """Import the agent class (heavy imports such as torch happen only when used)."""
        module, cls = self.target.split(":")
        return getattr(importlib.import_module(module), cls)

    def defaults(self) -> dict[str, Any]:
        """The parameters' defaults, read from the agent class's signature (their one home)."""
        sig = inspect.signature(self.load().__init__)
        return {k: p.default for k, p in sig.parameters.items()
                if k in self.params and p.default is not inspect.Parameter.empty}

    def check(self, name: str, values: dict[str, Any]) -> dict[str, Any]:
        """Check parameter values passed to the agent's constructor (every one known, typed and
        in range); return them converted.  Agents call this so that a directly constructed agent
        is checked exactly as a spec is."""
        out = {}
        for key, value in values.items():
            if key not in self.params:
                raise AgentError(f"agent {name!r} has no parameter {key!r}; parameters: "
                                 f"{_param_list(self)}")
            out[key] = self.params[key].check(name, key, value)
        return out


AGENTS: dict[str, AgentKind] = {
    "random": AgentKind("electrify_env.agents.random_agent:RandomAgent", "uniform over the legal actions",
                        games=None),
    "greedy": AgentKind(
        "electrify_env.agents.greedy:GreedyAgent",
        "one-ply lookahead with a hand-written evaluation of its information-set view",
        {"weights": Param(str, "YAML weights file (default configs/agents/greedy.yaml)")}),
    "mcts": AgentKind(
        "electrify_env.agents.mcts:MCTSAgent",
        "determinized flat Monte Carlo search, UCB1 at the root, greedy rollouts",
        {"iters": Param(int, "iterations (determinized rollouts) per searched move", 1, 1_000_000),
         "ms": Param(float, "time budget per searched move in milliseconds (0: use iters; "
                            "a time budget is not reproducible)", 0, 60_000),
         "horizon": Param(int, "rounds a rollout looks ahead before the evaluation", 1, L.N_ROUNDS),
         "top_k": Param(int, "root candidates: the greedy's best k actions", 1, L.N_ACTIONS),
         "c": Param(float, "UCB1 exploration constant (rollout values lie in [0, 1])", 0, 10),
         "search": Param(str, "which decisions to search: 'key' (plan, boosts, acquire, "
                              "placing, discharge order, fulfil, rewards, free cards, flips, "
                              "breakthroughs), 'core' (plan, boosts, acquire, placing the "
                              "sector, free cards, flips, breakthroughs) or 'all'",
                         choices=("core", "key", "all")),
         "skip_margin": Param(float, "skip the search when the greedy's best beats the "
                                     "runner-up by more than this (points; 0: never)", 0, 1000),
         "method": Param(str, "'paired': every candidate on the same samples; "
                              "'ucb': UCB1 over candidates, a new sample each iteration",
                         choices=("paired", "ucb")),
         "explore": Param(float, "chance of a random (phase-first) rollout step", 0, 1),
         "weights": Param(str, "YAML weights file of the evaluation and the rollouts"),
         "guide": Param(str, "a trained policy that picks the candidates (its top_k by logit) "
                             "and plays the unsearched moves instead of greedy's one-ply values: "
                             "a shipped agent (trained, trained_2p, ...) or a policy .pt file "
                             "('': none)")}),
    "ppo": AgentKind(
        "electrify_env.agents.ppo:PPOAgent",
        "a saved MaskablePPO policy (refuses one saved for another layout or card set)",
        {"path": Param(str, "the policy .zip (a .meta.json sidecar must be beside it)"),
         "deterministic": Param(bool, "take the most likely action instead of sampling")}),
    "net": AgentKind(
        "electrify_env.agents.trained:NetAgent",
        "a policy trained by `electrify train` (a .pt file with its .meta.json; one forward pass, plus "
        "greedy's one-ply values for a policy with a greedy prior)",
        {"path": Param(str, "the policy .pt (a .meta.json sidecar must be beside it)"),
         "deterministic": Param(bool, "take the most likely action instead of sampling")}),
    "trained": AgentKind(
        "electrify_env.agents.trained:TrainedAgent",
        "the shipped trained policy for the game's player count (policies/electrify-{solo,2p,3p,4p}.pt)",
        {"deterministic": Param(bool, "take the most likely action instead of sampling")}),
    "research_rush": AgentKind(
        "electrify_env.agents.styles:ResearchRushAgent",
        "scripted style: greedy that plans R&D every round and takes every research step and "
        "breakthrough it can",
        {"weights": Param(str, "YAML greedy weights file to tilt (default configs/agents/greedy.yaml)")}),
    "demand_rush": AgentKind(
        "electrify_env.agents.styles:DemandRushAgent",
        "scripted style: greedy that fulfils every demand it can and never researches unless forced",
        {"weights": Param(str, "YAML greedy weights file to tilt (default configs/agents/greedy.yaml)")}),
}

# one registered name per shipped policy (policies/electrify-*.pt)
POLICY_DIR = POLICIES_DIR
"""The shipped policies."""
SHIPPED = {1: "electrify-solo.pt", 2: "electrify-2p.pt", 3: "electrify-3p.pt", 4: "electrify-4p.pt"}
"""File of the shipped policy for each player count (1 = solo): what ``trained`` plays."""
NETWORK_ONLY_2P = "electrify-2p-net.pt"
"""The shipped 2-player policy without a logit prior (``trained_2p_net``, distilled from
:data:`SHIPPED` [2]'s network, prior and acquire critic by :mod:`electrify_env.training.distill`, then trained by
PPO at policy temperature 0.3 with a KL anchor, ``configs/electrify-2p-net-sharpen.yaml``, last with mcts in
its league, ``configs/electrify-2p-net.yaml``): one forward
pass over the observation, nothing else; it also plays as an ``(observation, mask)`` callable."""
SHIPPED_KINDS = (("trained_solo", "TrainedSolo", SHIPPED[1], "solo scenarios (every scenario)"),
                  ("trained_2p", "Trained2P", SHIPPED[2], "2-player games"),
                  ("trained_2p_net", "Trained2PNet", NETWORK_ONLY_2P, "2-player games"),
                  ("trained_3p", "Trained3P", SHIPPED[3], "3-player games"),
                  ("trained_4p", "Trained4P", SHIPPED[4], "4-player games"))
"""(agent name, class in electrify_env.agents.trained, file in policies/, what it plays) of each shipped policy."""


def _how_it_plays(path: Path) -> str:
    """``network + greedy prior``, ``network only`` (either ``+ afterstate critic on ...``; with
    several critics, each one's decision types, separated by ``;``; and ``+ rollout lookahead on
    ...``), from a policy file's metadata."""
    from electrify_env.agents.policy_meta import load_policy_metadata, policy_critics, policy_lookaheads, policy_prior
    try:
        meta = load_policy_metadata(path)
    except (OSError, ValueError):     # PolicyMismatchError is a ValueError
        return "network"
    how = "network + greedy prior" if policy_prior(meta) != "none" else "network only"
    for kind, deciders in (("afterstate critic", policy_critics(meta)), ("rollout lookahead", policy_lookaheads(meta))):
        if deciders:
            on = "; ".join(", ".join(d.get("frames", [])) + (f" (solo targets up to {d['max_target']})"
                                                             if d.get("max_target") else "") for d in deciders)
            how += f" + {kind}{'s' if len(deciders) > 1 else ''} on {on}"
    return how


def _register_shipped() -> None:
    """Register ``trained_*`` for every policy file present in ``policies/``."""
    for name, cls, file, what in SHIPPED_KINDS:
        path = POLICY_DIR / file
        if path.is_file():
            AGENTS[name] = AgentKind(
                f"electrify_env.agents.trained:{cls}", f"the shipped policy for {what} (policies/{file}; {_how_it_plays(path)})",
                {"deterministic": Param(bool, "take the most likely action instead of sampling")})


_register_shipped()


def check_params(name: str, **values: Any) -> dict[str, Any]:
    """Check the constructor arguments of agent kind ``name`` (see :meth:`AgentKind.check`)."""
    return AGENTS[name].check(name, values)


_PARAM_FIELDS = ("doc", "minimum", "maximum", "choices")
_GAME_KINDS: dict[str, dict[str, AgentKind]] = {}


def _game_kind(game: str, name: str, data: dict) -> AgentKind:
    """An :class:`AgentKind` from a game's plain-data entry (``agent_kinds()`` of its bots)."""
    try:
        params = {k: Param(p["type"], p.get("doc", ""), p.get("minimum"), p.get("maximum"),
                           tuple(p.get("choices", ()))) for k, p in dict(data.get("params", {})).items()}
        return AgentKind(str(data["target"]), str(data["doc"]), params, games=(game,))
    except (KeyError, TypeError, AttributeError) as err:
        raise AgentError(f"game {game!r}: its agent kind {name!r} is not a dict with target, doc "
                         f"and params ({err})") from None


def agents_of(game: str = DEFAULT_GAME) -> dict[str, AgentKind]:
    """The agent kinds that play the game named ``game``: the registry's kinds that play it (in
    :data:`AGENTS` order), then the game's own (its GameDef's ``agent_kinds()``; a name of the
    game's own replaces a registry kind of that name), ``gumbel``, the determinized Gumbel
    search (:mod:`electrify_env.agents.search`), and ``policy``, the policy-value network alone
    or with that search (:mod:`electrify_env.agents.network`), for the games it has a class for.  AgentError for an unknown game."""
    try:
        gdef = get_game(game)
    except ValueError as err:
        raise AgentError(str(err)) from None
    own = _GAME_KINDS.get(gdef.name)
    if own is None:
        own = {n: _game_kind(gdef.name, n, d) for n, d in gdef.agent_kinds().items()}
        if gdef.name in SEARCH_CLASSES:   # the game-blind search, in its game-fixed class
            own.setdefault("gumbel", _game_kind(gdef.name, "gumbel", search_kind(gdef.name)))
        if gdef.name in POLICY_CLASSES:   # the policy-value network, alone or with search
            own.setdefault("policy", _game_kind(gdef.name, "policy", policy_kind(gdef.name)))
        _GAME_KINDS[gdef.name] = own
    out = {n: k for n, k in AGENTS.items() if k.plays(gdef.name) and n not in own}
    out.update(own)
    return out


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: kind name, parameters (converted to their types) and the game it plays."""

    name: str
    params: dict[str, Any]
    text: str
    game: str = DEFAULT_GAME

    @property
    def kind(self) -> AgentKind:
        """The registered kind of this spec (in its game's registry)."""
        return agents_of(self.game)[self.name]

    def build(self) -> Agent:
        """Construct the agent."""
        agent = self.kind.load()(**self.params)
        agent.spec = self.text
        return agent


def _title(game: str) -> str:
    return "" if game == DEFAULT_GAME else f" of {get_game(game).title}"


def parse_spec(text: str, game: str = DEFAULT_GAME) -> AgentSpec:
    """Parse ``name[:key=value...]`` for the game named ``game``; raise AgentError naming the
    known agents (of that game) or parameters."""
    kinds = agents_of(game)
    if not isinstance(text, str) or not text.strip():
        raise AgentError(f"empty agent spec; known agents{_title(game)}: {', '.join(kinds)}")
    parts = text.strip().split(":")
    name = parts[0].strip()
    if name not in kinds:
        elsewhere = "" if game == DEFAULT_GAME or name not in AGENTS else \
            f" ({name!r} plays {', '.join(AGENTS[name].games or ())})"
        raise AgentError(f"unknown agent {name!r}{_title(game)}{elsewhere}; known agents"
                         f"{_title(game)}: {', '.join(kinds)} (parameters as name:key=value:key=value)")
    kind = kinds[name]
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
    return AgentSpec(name, params, text.strip(), get_game(game).name)


def _param_list(kind: AgentKind) -> str:
    return ", ".join(kind.params) if kind.params else "(none)"


def make_agent(spec: str, game: str = DEFAULT_GAME) -> Agent:
    """Build an agent of the game named ``game`` from a spec such as ``"mcts:iters=64"`` (see
    :func:`parse_spec`).  This is the agent resolver the distribution declares (the entry point
    of :data:`electrify_env.resolver.RESOLVER_GROUP`)."""
    return parse_spec(spec, game).build()


def describe_agents(game: str = DEFAULT_GAME) -> str:
    """Every agent kind that plays the game named ``game``, with its parameters, as text."""
    lines = []
    for name, kind in agents_of(game).items():
        lines.append(f"{name}: {kind.doc}")
        defaults = kind.defaults() if kind.params else {}
        for key, p in kind.params.items():
            rng = ""
            if p.minimum is not None or p.maximum is not None:
                lo = "" if p.minimum is None else p.minimum
                hi = "" if p.maximum is None else p.maximum
                rng = f", range [{lo}, {hi}]"
            elif p.choices:
                rng = f", one of {', '.join(p.choices)}"
            lines.append(f"    {key} ({p.type.__name__}, default {defaults.get(key)!r}{rng}): {p.doc}")
    return "\n".join(lines)
