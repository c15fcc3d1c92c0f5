"""Determinized Gumbel search for any game of the Game protocol (:mod:`electrify_env.games`).

The algorithm is Gumbel MuZero's (Danihelka et al., "Policy improvement by planning with Gumbel",
ICLR 2022) run on determinizations of the searching seat's information set:

1. **Determinizations.**  At the root, ``determinizations`` full games are sampled from the
   seat's information set with the game's ``determinized(seat, seed, infoset=view.infoset)``
   (the scrub of the seat view's infoset is dealt anew; no other state is read).  Each sample
   has its own generator, so its chance events and blind draws are sampled too.  One tree is
   grown on each sample.
2. **Root: Gumbel-Top-k and Sequential Halving.**  The root's legal actions get Gumbel noise
   ``g`` (shared by every sample); the ``considered`` actions of highest ``g + logits`` are
   searched, halved by Sequential Halving over the simulation budget.  A simulation is a *wave*:
   the root action it picks is followed in every sample's tree at once, so the root statistics
   (visits, the mean over samples of each action's value) are those of the information set.
   Each wave's leaves (every sample of every root searched together) go to the evaluator in one
   call.
3. **Below the root** each node is a full game at a decision with a choice (a move to a
   position with one legal action is played through to the next decision that has several, or
   to the end); its chooser (the player on turn) picks the
   action maximising ``pi'(a) - N(a) / (1 + sum N)``, with ``pi'`` the improved policy below
   computed from the chooser's own value component (a max^n backup: values are vectors, one
   utility in [0, 1] per seat, and every node's chooser maximises its own seat's).
4. **Completed Q and the improved policy.**  A node's Q of a visited action is the mean value
   backed up through it; an unvisited action gets the mixed value (the node's raw evaluation
   mixed with the prior-weighted Q of the visited actions).  The completed Q is min-max
   rescaled to [0, 1] over the legal actions and scaled by ``(maxvisit_init + max N) *
   value_scale``; the improved policy is ``softmax(logits + that)`` over the legal actions.
5. **The move**: among the considered actions with the most visits, the one of highest
   ``g + logits + scaled completed Q``; the root's improved policy is returned as the training
   target of expert iteration.

Which guarantees that no hidden information is read: the search's root input is a
:class:`~electrify_env.seatview.SeatView` (mask, infoset) and a *template* game of the same
kind, card set and player count; the template is only asked for ``determinized(..., infoset=)``,
which scrubs the infoset again for the seat and never reads the template's own state.  So a
search of two games that differ only in what the seat cannot know, with the same seed, makes
the same choices (``tests/test_search_gumbel.py`` checks it on both games).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from electrify_env.seatview import SeatView
from electrify_env.validation import MAX_SEED, InvalidArgumentError, as_int, check_seed

from .evaluators import Evaluator, RolloutEvaluator, utility

__all__ = ["GumbelSearch", "SearchResult", "considered_visits", "completed_q", "improved_policy"]


def considered_visits(considered: int, simulations: int) -> tuple[int, ...]:
    """The Sequential Halving schedule: for each simulation, the visit count an action must have
    to be chosen at the root (``considered`` actions at first, halved down to 2, each round
    given about ``simulations / (log2(considered) * alive)`` visits per action)."""
    if considered <= 1:
        return tuple(range(simulations))
    rounds = math.ceil(math.log2(considered))
    out: list[int] = []
    visits = [0] * considered
    alive = considered
    while len(out) < simulations:
        extra = max(1, int(simulations / (rounds * alive)))
        for _ in range(extra):
            out.extend(visits[:alive])
            for i in range(alive):
                visits[i] += 1
        alive = max(2, alive // 2)
    return tuple(out[:simulations])


def _softmax(x: np.ndarray) -> np.ndarray:
    z = np.exp(x - np.max(x))
    return z / z.sum()


def completed_q(raw_value: float, q: np.ndarray, visits: np.ndarray, prior: np.ndarray,
                value_scale: float, maxvisit_init: float) -> np.ndarray:
    """The scaled completed Q of a node's legal actions: visited actions keep ``q``, unvisited
    ones get the mixed value of ``raw_value`` and the ``prior``-weighted ``q`` of the visited;
    the result is min-max rescaled to [0, 1] and multiplied by ``(maxvisit_init + max visits)
    * value_scale``."""
    seen = visits > 0
    total = float(visits.sum())
    if seen.any():
        p = np.maximum(prior, np.finfo(np.float64).tiny)
        mixed = (raw_value + total * float(np.sum(p[seen] * q[seen]) / np.sum(p[seen]))) / (total + 1.0)
    else:
        mixed = raw_value
    c = np.where(seen, q, mixed)
    lo, hi = float(c.min()), float(c.max())
    c = (c - lo) / max(hi - lo, 1e-8)
    return (maxvisit_init + float(visits.max(initial=0))) * value_scale * c


def improved_policy(logits: np.ndarray, sigma_q: np.ndarray) -> np.ndarray:
    """``softmax(logits + sigma_q)`` over a node's legal actions."""
    return _softmax(logits + sigma_q)


@dataclass(frozen=True)
class SearchResult:
    """What one root search returns.

    Attributes:
        action: the chosen action id.
        policy: float32 ``[N_ACTIONS]``, the improved policy (completed-Q softmax) over the
            legal actions, 0 elsewhere: the policy target of expert iteration.
        visits: int64 ``[N_ACTIONS]``, root visits per action (in each sample's tree).
        q: float64 ``[N_ACTIONS]``, the searching seat's mean value of each visited root action
            over the samples (NaN where unvisited or illegal).
        value: float64 ``[n_players]``, the root's mean backed-up value per seat over the samples.
        simulations: waves run (0 when one action was legal).
    """

    action: int
    policy: np.ndarray
    visits: np.ndarray
    q: np.ndarray
    value: np.ndarray
    simulations: int


class _Node:
    """One node of a sample's tree: a full game, its legal ids and prior, per-action visits and
    value sums (one column per seat), its raw evaluation, and children by action index."""

    __slots__ = ("game", "player", "legal", "logits", "prior", "raw", "N", "W", "children", "terminal",
                 "value_sum", "count")

    def __init__(self, game: Any, utility_of: Any) -> None:
        self.game = game
        self.terminal = bool(game.is_terminal)
        n = int(game.n_players)
        self.value_sum = np.zeros(n, dtype=np.float64)
        self.count = 0
        self.children: dict[int, _Node] = {}
        if self.terminal:
            self.player = -1
            self.legal = np.zeros(0, dtype=np.int64)
            self.raw = utility_of(game)
        else:
            self.player = int(game.current_player)
            self.legal = np.flatnonzero(game.legal_mask())
            self.raw = None                       # set by the evaluation
        k = self.legal.size
        self.logits = np.zeros(k, dtype=np.float64)
        self.prior = np.full(k, 1.0 / max(k, 1))
        self.N = np.zeros(k, dtype=np.int64)
        self.W = np.zeros((k, n), dtype=np.float64)

    def set_evaluation(self, logits: np.ndarray, value: np.ndarray) -> None:
        """Keep the evaluator's prior (legal ids only, and its softmax) and raw value of this node."""
        self.logits = np.asarray(logits, dtype=np.float64)[self.legal]
        self.prior = _softmax(self.logits)
        self.raw = np.asarray(value, dtype=np.float64)

    def q(self, seat: int) -> np.ndarray:
        """``seat``'s mean value of each action (0 where unvisited)."""
        return np.where(self.N > 0, self.W[:, seat] / np.maximum(self.N, 1), 0.0)


class GumbelSearch:
    """Determinized Gumbel search over any game of the Game protocol (module docstring).

    Args:
        evaluator: the leaf evaluator (:mod:`.evaluators`; default: a
            :class:`~.evaluators.RolloutEvaluator` with one random playout per leaf).
        simulations: waves per search (each wave runs one simulation in every sample's tree).
        determinizations: samples of the information set, one tree each.
        considered: root actions searched by Sequential Halving (Gumbel-Top-k's k).
        gumbel_scale: scale of the root's Gumbel noise (0: the prior's top actions, no noise).
        value_scale: the completed Q's scale ``c_scale``.
        maxvisit_init: the completed Q's visit offset ``c_visit``.

    Raises:
        InvalidArgumentError: a parameter out of its range.
    """

    def __init__(self, evaluator: Evaluator | None = None, simulations: int = 32,
                 determinizations: int = 4, considered: int = 16, gumbel_scale: float = 1.0,
                 value_scale: float = 0.1, maxvisit_init: float = 50.0) -> None:
        self.evaluator = RolloutEvaluator() if evaluator is None else evaluator
        if not callable(getattr(self.evaluator, "evaluate", None)):
            raise InvalidArgumentError(f"evaluator must have evaluate(games), got {evaluator!r:.60}")
        self.simulations = as_int(simulations, "simulations")
        self.determinizations = as_int(determinizations, "determinizations")
        self.considered = as_int(considered, "considered")
        for name, v in (("simulations", self.simulations), ("determinizations", self.determinizations),
                        ("considered", self.considered)):
            if v < 1:
                raise InvalidArgumentError(f"{name} must be at least 1, got {v}")
        self.gumbel_scale, self.value_scale, self.maxvisit_init = (
            float(gumbel_scale), float(value_scale), float(maxvisit_init))
        for name, v in (("gumbel_scale", self.gumbel_scale), ("value_scale", self.value_scale),
                        ("maxvisit_init", self.maxvisit_init)):
            if not math.isfinite(v) or v < 0:
                raise InvalidArgumentError(f"{name} must be a finite number >= 0, got {v}")
        self._utility = utility

    # ---- entry points ----------------------------------------------------------------------------
    def search(self, game: Any, seed: int, seat: int | None = None) -> SearchResult:
        """Search the pending decision of ``game`` for ``seat`` (default: the player on turn).
        Only the seat's view is used: ``game`` serves as the template of
        :meth:`search_views` (its own state is not read by the determinizations)."""
        view = game.seat_view(seat, observation=False, infoset=True)
        return self.search_views([view], [game], [seed])[0]

    def search_views(self, views: Sequence[SeatView], templates: Sequence[Any],
                     seeds: Sequence[int]) -> list[SearchResult]:
        """Search several roots together, one evaluator call per wave for all their samples.

        ``views[i]`` is the seat view (with ``infoset``) of root ``i``; ``templates[i]`` a game
        of the same kind, card set and player count, asked only for
        ``determinized(seat, seed, infoset=views[i].infoset)``; ``seeds[i]`` seeds root ``i``'s
        samples, Gumbel noise and evaluator (the evaluator is reseeded from ``seeds[0]`` when it
        has ``reset``), so a search is a function of the views and seeds."""
        if not (len(views) == len(templates) == len(seeds)) or len(views) == 0:
            raise InvalidArgumentError("search_views needs as many views, templates and seeds, at least one")
        seeds = [check_seed(s) for s in seeds]
        if callable(getattr(self.evaluator, "reset", None)):
            self.evaluator.reset(int(np.random.SeedSequence([seeds[0], len(views)]).generate_state(1)[0]))
        roots = [self._root(v, t, s) for v, t, s in zip(views, templates, seeds)]
        self._evaluate([n for r in roots if r["searched"] for n in r["nodes"]])
        for r in roots:
            if r["searched"]:
                self._root_prior(r)
        active = [r for r in roots if r["searched"]]
        for sim in range(self.simulations):
            pending: list[tuple[_Node, list[tuple[_Node, int]]]] = []
            done: list[tuple[_Node, list[tuple[_Node, int]]]] = []
            for r in active:
                i = self._root_choice(r, sim)
                r["N"][i] += 1
                for node in r["nodes"]:
                    leaf, path = self._descend(node, i)
                    (done if leaf.raw is not None else pending).append((leaf, path))
            self._evaluate([leaf for leaf, _ in pending])
            for leaf, path in pending + done:
                self._backup(leaf, path)
        return [self._result(r) for r in roots]

    # ---- the root --------------------------------------------------------------------------------
    def _root(self, view: SeatView, template: Any, seed: int) -> dict:
        if view.infoset is None:
            raise InvalidArgumentError("the search needs the seat view's infoset (seat_view(infoset=True))")
        legal = np.flatnonzero(view.mask)
        if legal.size == 0:
            raise InvalidArgumentError("the seat view has no legal action")
        rng = np.random.default_rng(np.random.SeedSequence([seed, 1]))
        r = {"view": view, "legal": legal, "seat": int(view.seat), "N": np.zeros(legal.size, dtype=np.int64),
             "searched": legal.size > 1, "nodes": [], "n_actions": int(view.mask.shape[0])}
        if not r["searched"]:
            return r
        for s in rng.integers(0, MAX_SEED, size=self.determinizations):
            g = template.determinized(view.seat, int(s), infoset=view.infoset)
            if not np.array_equal(np.flatnonzero(g.legal_mask()), legal):
                raise InvalidArgumentError("a determinization's legal actions differ from the seat view's mask "
                                           "(the template is not of this view's game)")
            r["nodes"].append(_Node(g, self._utility))
        r["gumbel"] = self.gumbel_scale * rng.gumbel(size=legal.size)
        m = min(self.considered, legal.size)
        r["schedule"] = considered_visits(m, self.simulations)
        return r

    def _root_prior(self, r: dict) -> None:
        """The root prior: the log of the samples' mean prior (every sample's evaluation)."""
        for n in r["nodes"]:                      # the root's own evaluation is its first value
            n.value_sum += n.raw
            n.count += 1
        probs = np.mean([_softmax(n.logits) for n in r["nodes"]], axis=0)
        r["logits"] = np.log(np.maximum(probs, 1e-30))
        r["raw"] = float(np.mean([n.raw[r["seat"]] for n in r["nodes"]]))
        m = min(self.considered, r["legal"].size)
        key = r["gumbel"] + r["logits"]
        r["considered"] = np.zeros(r["legal"].size, dtype=bool)
        r["considered"][np.argsort(-key, kind="stable")[:m]] = True

    def _root_q(self, r: dict) -> np.ndarray:
        """The seat's value of each root action, the mean over the samples (0 where unvisited)."""
        return np.mean([n.q(r["seat"]) for n in r["nodes"]], axis=0)

    def _root_sigma(self, r: dict) -> np.ndarray:
        return completed_q(r["raw"], self._root_q(r), r["N"], _softmax(r["logits"]),
                           self.value_scale, self.maxvisit_init)

    def _root_choice(self, r: dict, sim: int) -> int:
        want = r["schedule"][sim]
        score = r["gumbel"] + r["logits"] + self._root_sigma(r)
        score = np.where(r["considered"] & (r["N"] == want), score, -np.inf)
        if not np.isfinite(score).any():          # every considered action past the schedule
            score = np.where(r["considered"], r["gumbel"] + r["logits"] + self._root_sigma(r) - 1e6 * r["N"], -np.inf)
        return int(np.argmax(score))

    def _result(self, r: dict) -> SearchResult:
        n_actions, legal = r["n_actions"], r["legal"]
        policy = np.zeros(n_actions, dtype=np.float32)
        visits = np.zeros(n_actions, dtype=np.int64)
        q = np.full(n_actions, np.nan)
        if not r["searched"]:
            policy[legal[0]] = 1.0
            n = int(r["view"].n_players)
            return SearchResult(int(legal[0]), policy, visits, q, np.full(n, np.nan), 0)
        sigma = self._root_sigma(r)
        policy[legal] = improved_policy(r["logits"], sigma)
        visits[legal] = r["N"]
        rq = self._root_q(r)
        q[legal] = np.where(r["N"] > 0, rq, np.nan)
        top = r["N"].max()
        score = np.where(r["considered"] & (r["N"] == top), r["gumbel"] + r["logits"] + sigma, -np.inf)
        action = int(legal[int(np.argmax(score))])
        value = np.mean([n.value_sum / max(n.count, 1) for n in r["nodes"]], axis=0)
        return SearchResult(action, policy, visits, q, value, self.simulations)

    # ---- below the root --------------------------------------------------------------------------
    def _child(self, node: _Node, i: int) -> tuple[_Node, bool]:
        child = node.children.get(i)
        if child is not None:
            return child, False
        g = node.game.copy()
        g.step_unchecked(int(node.legal[i]))
        while not g.is_terminal:                  # forced moves are played through
            legal = g.legal_actions()
            if legal.size != 1:
                break
            g.step_unchecked(int(legal[0]))
        child = _Node(g, self._utility)
        node.children[i] = child
        return child, True

    def _interior_choice(self, node: _Node) -> int:
        if node.legal.size == 1:
            return 0
        p = node.player
        sigma = completed_q(float(node.raw[p]), node.q(p), node.N, node.prior,
                            self.value_scale, self.maxvisit_init)
        pi = improved_policy(node.logits, sigma)
        return int(np.argmax(pi - node.N / (1.0 + node.N.sum())))

    def _descend(self, root: _Node, i: int) -> tuple[_Node, list[tuple[_Node, int]]]:
        """Follow root action index ``i``, then the interior rule, to a new or terminal node."""
        path = [(root, i)]
        node, new = self._child(root, i)
        while not new and not node.terminal:
            j = self._interior_choice(node)
            path.append((node, j))
            node, new = self._child(node, j)
        return node, path

    def _evaluate(self, leaves: list[_Node]) -> None:
        todo = [n for n in leaves if n.raw is None]
        if not todo:
            return
        logits, values = self.evaluator.evaluate([n.game for n in todo])
        for k, n in enumerate(todo):
            n.set_evaluation(logits[k], values[k])

    @staticmethod
    def _backup(leaf: _Node, path: list[tuple[_Node, int]]) -> None:
        v = leaf.raw
        leaf.value_sum += v
        leaf.count += 1
        for node, i in path:
            node.N[i] += 1
            node.W[i] += v
            node.value_sum += v
            node.count += 1
