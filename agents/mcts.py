"""The ``mcts`` agent: information-set search that never cheats.

Method: *determinized flat Monte Carlo search* at the root (a flat form of information-set MCTS,
"perfect-information Monte Carlo" with the greedy policy as the rollout policy).  The agent
receives only its seat's scrubbed view of the engine state
(:func:`electrify_env.engine.infoset.scrub`).  At a searched decision:

1. the candidate actions are the greedy policy's ``top_k`` best legal actions by its one-ply
   evaluation (so search effort goes to sensible moves; the greedy's choice is always among them);
2. the hidden information is sampled with :func:`~electrify_env.engine.infoset.determinize` (the
   other hands, the deck order and any plan choices already dialled, consistent with everything
   the seat has seen);
3. ``method=paired`` (default): on each sample, *every* candidate is applied to its own copy and
   played on with the jitted greedy policy for every seat (deterministic unless ``explore`` > 0)
   until ``horizon`` rounds have been played (:func:`~electrify_env.kernels.search.stop_round_for`);
   comparing all candidates on the same samples (common random numbers) removes most of the noise
   of the hidden cards from the comparison.  ``method=ucb``: each iteration draws a new sample
   and rolls out one candidate chosen by UCB1;
4. rollout ends are scored by :func:`~electrify_env.kernels.search.search_value`: the evaluation's
   margin over the best other player, squashed to [0, 1] (solo: the evaluation against the
   scenario's target); the candidate with the best mean is played (ucb: the most visited).

Rollouts and statistics run inside one jitted call (:func:`~electrify_env.kernels.search.paired_search`,
:func:`~electrify_env.kernels.search.flat_search`).  The budget is ``iters`` rollouts per searched
move (reproducible; paired: ``iters // top_k`` samples) or ``ms`` milliseconds (run in chunks; not
reproducible).  The search is skipped when one action is legal, when the greedy policy offers a
single candidate, when the greedy's best beats the runner-up by more than ``skip_margin`` (if set),
and (with ``search=key``, the default) at the many small follow-up decisions of the rules (each
payment cube, each icon use, the card order after a flip), where the greedy choice is played at
once; it searches the decisions that shape a game (:data:`KEY_FRAMES`): Plan, boosts, Acquire,
where to place a card, the discharge order, Fulfill, rewards, free cards, flips and breakthroughs.

``guide=`` (a shipped trained agent such as ``trained_2p``, or a policy ``.pt`` file): a trained
policy takes the place of greedy's one-ply evaluation outside the rollouts: the candidates are
the policy's ``top_k`` actions by logit, and the unsearched decisions are the policy's most likely
action (``skip_margin`` then compares logits).  The rollouts still play greedy.
"""
from __future__ import annotations

import time

import numpy as np

from electrify_env.decision import pending_frame_type
from electrify_env.engine import layout as L
from electrify_env.kernels import search as SR

from .base import SeatView, top_actions
from .greedy import SEED_LIMIT, GreedyAgent
from .registry import AGENTS, check_params

KEY_FRAMES = frozenset({
    L.FT_PLAN, L.FT_BOOST, L.FT_ACQUIRE, L.FT_PLACE_SECTOR, L.FT_PLACE_SLOT, L.FT_DISCHARGE,
    L.FT_FULFILL, L.FT_REWARD, L.FT_CARD_CHOICE, L.FT_FLIP, L.FT_BT_PICK,
})
CORE_FRAMES = frozenset({
    L.FT_PLAN, L.FT_BOOST, L.FT_ACQUIRE, L.FT_PLACE_SECTOR, L.FT_CARD_CHOICE, L.FT_FLIP,
    L.FT_BT_PICK,
})
SEARCH_MODES = AGENTS["mcts"].params["search"].choices   # ("core", "key", "all")
METHODS = AGENTS["mcts"].params["method"].choices        # ("paired", "ucb")
MS_CHUNK = 8          # iterations per jitted call under a time budget


def make_guide(spec: str):
    """The trained agent of ``guide=``: a registered trained agent (``trained``, ``trained_2p``,
    ...) or a policy ``.pt`` file (played as ``net:path=FILE``); AgentError for anything else."""
    from .base import AgentError
    from .registry import AGENTS, make_agent
    from .trained import NetAgent

    agent = make_agent(spec) if spec in AGENTS else make_agent(f"net:path={spec}")
    if not isinstance(agent, NetAgent):
        raise AgentError(f"mcts guide={spec!r} is not a trained policy (a shipped trained agent "
                         "such as trained_2p, or a policy .pt file)")
    return agent


class MCTSAgent(GreedyAgent):
    """Determinized flat Monte Carlo search with UCB1 at the root and greedy rollouts.

    Args:
        iters: iterations per searched move (used when ``ms`` is 0).
        ms: time budget per searched move in milliseconds (0: use ``iters``).
        horizon: rounds each rollout plays before the evaluation.
        top_k: root candidates (the greedy's best ``top_k`` actions).
        c: UCB1 exploration constant (values lie in [0, 1]).
        search: ``"key"`` searches the decisions listed in :data:`KEY_FRAMES`, ``"core"`` those
            of :data:`CORE_FRAMES`, ``"all"`` every decision with two or more candidates.
        method: ``"paired"`` (every candidate rolled out on the same samples) or ``"ucb"``.
        explore: chance that a rollout step is a phase-first random action instead of the greedy
            one (0: deterministic rollouts, so paired candidates differ only by their action).
        skip_margin: skip the search when the greedy's best action beats the runner-up by more
            than this many points of its evaluation (0: never skip on margin).
        weights: YAML weights of the evaluation and the rollout policy.
        guide: a trained policy ranking the candidates and playing the unsearched moves (a
            shipped agent name such as ``trained_2p``, or a policy ``.pt`` file; '': greedy's
            one-ply values).

    The defaults are the ones above; the allowed ranges live in the registry
    (``electrify_env.agents.registry.AGENTS["mcts"]``, ``python -c "import electrify_env.agents as agents; print(agents.describe_agents())"``).

    Raises:
        AgentError: a parameter that is not finite, out of its range or not one of its choices.
    """

    name = "mcts"
    needs_infoset = True

    def __init__(self, iters: int = 48, ms: float = 0.0, horizon: int = 1, top_k: int = 5,
                 c: float = 0.4, search: str = "key", method: str = "paired",
                 skip_margin: float = 0.0, explore: float = 0.0,
                 weights: str | None = None, guide: str = "") -> None:
        v = check_params(self.name, iters=iters, ms=ms, horizon=horizon, top_k=top_k, c=c,
                         search=search, method=method, skip_margin=skip_margin, explore=explore,
                         guide=str(guide))
        super().__init__(weights)
        W = self.W.copy()
        W[SR.W_EXPLORE] = v["explore"]
        W.flags.writeable = False
        self.W = W
        self.iters = v["iters"]
        self.ms = v["ms"]
        self.horizon = v["horizon"]
        self.top_k = v["top_k"]
        self.c = v["c"]
        self.search = v["search"]
        self.frames = CORE_FRAMES if self.search == "core" else KEY_FRAMES
        self.method = v["method"]
        self.skip_margin = v["skip_margin"]
        self.guide = make_guide(v["guide"]) if v["guide"] else None
        if self.guide is not None:
            self.needs_observation = True
        self.searched = 0          # statistics: searched moves, iterations, time
        self.iterations = 0
        self.seconds = 0.0

    def candidates(self, vals: np.ndarray) -> np.ndarray:
        """The ``top_k`` actions of highest one-ply value (best first)."""
        return top_actions(vals, self.top_k)

    def reset(self, seed: int = 0) -> None:
        """Reseed the agent (and its guide)."""
        super().reset(seed)
        if self.guide is not None:
            self.guide.reset(seed)

    def act(self, view: SeatView) -> int:
        """Search the decision (or play the greedy choice, or the guide's, where the search is
        skipped)."""
        self._need(view)
        legal = np.flatnonzero(view.mask)
        if legal.size == 1:
            return int(legal[0])
        vals = self.values(view) if self.guide is None else self.guide.logits(view)
        best = int(np.argmax(vals))
        if self.search != "all" and pending_frame_type(view.infoset) not in self.frames:
            return best
        cands = self.candidates(vals)
        if cands.size <= 1:
            return best
        if self.skip_margin > 0 and vals[cands[0]] - vals[cands[1]] > self.skip_margin:
            return best   # the greedy's choice is clearly best by its own evaluation
        return self.search_among(view, cands)

    def search_among(self, view: SeatView, cands: np.ndarray) -> int:
        """Run the flat search over ``cands``; return the chosen action."""
        n = cands.size
        if self.method == "paired":
            return self._paired(view, cands)
        visits = np.zeros(n, dtype=np.int64)
        totals = np.zeros(n, dtype=np.float64)
        seed = np.int64(self.rng.integers(SEED_LIMIT))
        t0 = time.perf_counter()
        if self.ms <= 0:
            done = SR.flat_search(view.infoset, view.table, np.int64(view.seat), self.W, cands,
                                  np.int64(n), np.int64(self.iters), seed, np.int64(self.horizon),
                                  self.c, visits, totals)
        else:
            done = 0
            deadline = t0 + self.ms / 1000.0
            while done < n or time.perf_counter() < deadline:
                done = SR.flat_search(view.infoset, view.table, np.int64(view.seat), self.W,
                                      cands, np.int64(n), np.int64(MS_CHUNK),
                                      np.int64(seed + done), np.int64(self.horizon), self.c,
                                      visits, totals)
        self.searched += 1
        self.iterations += int(done)
        self.seconds += time.perf_counter() - t0
        means = totals / np.maximum(visits, 1)
        key = visits * 1e6 + means
        return int(cands[int(np.argmax(key))])

    def _paired(self, view: SeatView, cands: np.ndarray) -> int:
        n = cands.size
        totals = np.zeros(n, dtype=np.float64)
        seed = np.int64(self.rng.integers(SEED_LIMIT))
        t0 = time.perf_counter()
        if self.ms <= 0:
            n_det = max(1, self.iters // n)
            done = SR.paired_search(view.infoset, view.table, np.int64(view.seat), self.W, cands,
                                    np.int64(n), np.int64(n_det), seed, np.int64(self.horizon), totals)
        else:
            done = 0
            deadline = t0 + self.ms / 1000.0
            k = 0
            while k == 0 or time.perf_counter() < deadline:
                done += SR.paired_search(view.infoset, view.table, np.int64(view.seat), self.W,
                                         cands, np.int64(n), np.int64(1), np.int64(seed + k),
                                         np.int64(self.horizon), totals)
                k += 1
        self.searched += 1
        self.iterations += int(done)
        self.seconds += time.perf_counter() - t0
        return int(cands[int(np.argmax(totals))])
