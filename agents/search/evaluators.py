"""Leaf evaluators of the search: a batch of games in, prior logits and per-seat values out.

An evaluator is any object with ``evaluate(games) -> (logits, values)``: ``games`` is a sequence
of games of one kind and player count (the search passes sampled, determinized games, never the
true one), ``logits`` is float32 ``[B, N_ACTIONS]`` (the prior of the player on turn in each
game; the search masks illegal ids itself) and ``values`` is float32 ``[B, n_players]``, each
seat's expected utility in [0, 1] (:func:`utility`).  The search hands one evaluator call all
the leaves of a simulation wave (every determinization of every root), so a network evaluates
them in one forward pass.

* :class:`RolloutEvaluator`: uniform prior and the utility of a random playout (the search
  plays without a network);
* :class:`AgentRolloutEvaluator`: uniform prior and the utility of a playout in which an agent
  (a game's own greedy bot, say) plays every seat, cut after ``max_steps`` decisions;
* :class:`NetworkEvaluator`: wraps a function ``(observations [B, OBS], masks [B, N_ACTIONS])
  -> (logits, values)``, the observations being each game's ``observe(current_player)``.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np

from electrify_env.validation import InvalidArgumentError

__all__ = ["Evaluator", "RolloutEvaluator", "AgentRolloutEvaluator", "NetworkEvaluator", "utility", "check_batch"]


class Evaluator(Protocol):
    """What the search asks of an evaluator (see the module docstring)."""

    def evaluate(self, games: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """Prior logits ``[B, N_ACTIONS]`` and per-seat values ``[B, n_players]`` of ``games``."""


def utility(game: Any) -> np.ndarray:
    """Each seat's rank-based utility in ``game`` (float64, ``n_players`` long, in [0, 1]).

    Seats are ordered by (is a winner, then ``tiebreak_keys()`` in order); a seat's utility is
    the share of the other seats it beats, a seat it ties with counting one half, so the winner
    of a game without ties gets 1 and the last seat 0.  In a one-seat game it is 1 for a win
    (``winners()`` holds the seat) and 0 otherwise.  On a game that is not over the same
    ordering of the current keys is a heuristic estimate."""
    n = int(game.n_players)
    win = np.zeros(n, dtype=np.int64)
    for p in game.winners():
        win[int(p)] = 1
    if n == 1:
        return win.astype(np.float64)
    keys = np.concatenate([win[:, None], np.asarray(game.tiebreak_keys(), dtype=np.int64).reshape(n, -1)], axis=1)
    u = np.zeros(n, dtype=np.float64)
    for p in range(n):
        for q in range(n):
            if q == p:
                continue
            diff = np.flatnonzero(keys[p] != keys[q])
            if diff.size == 0:
                u[p] += 0.5
            elif keys[p, diff[0]] > keys[q, diff[0]]:
                u[p] += 1.0
    return u / (n - 1)


def check_batch(games: Sequence[Any]) -> tuple[int, int]:
    """``(N_ACTIONS, n_players)`` shared by every game of a non-empty batch (InvalidArgumentError
    otherwise: an evaluator's outputs have one width)."""
    if len(games) == 0:
        raise InvalidArgumentError("evaluate: the batch of games is empty")
    n_actions, n = int(games[0].N_ACTIONS), int(games[0].n_players)
    for g in games:
        if int(g.N_ACTIONS) != n_actions or int(g.n_players) != n:
            raise InvalidArgumentError("evaluate: every game of a batch must have the same action space "
                                       f"and player count ({n_actions} ids, {n} players first)")
    return n_actions, n


class RolloutEvaluator:
    """Uniform prior logits (zeros) and, as the value, the :func:`utility` of a playout with
    uniformly random legal actions from each game (a copy; the game is unchanged).

    Args:
        rollouts: playouts per game, averaged.
        max_steps: playout length cap (0: to the end); a playout cut short is valued by
            :func:`utility` of the position it reached (the current keys' ranking).
        seed: seed of the evaluator's generator (reseeded by :meth:`reset`).
    """

    def __init__(self, rollouts: int = 1, max_steps: int = 0, seed: int = 0) -> None:
        if int(rollouts) < 1:
            raise InvalidArgumentError(f"rollouts must be at least 1, got {rollouts}")
        if int(max_steps) < 0:
            raise InvalidArgumentError(f"max_steps must be 0 (no cap) or positive, got {max_steps}")
        self.rollouts = int(rollouts)
        self.max_steps = int(max_steps)
        self.reset(seed)

    def reset(self, seed: int) -> None:
        """Reseed the playouts' generator."""
        self.rng = np.random.default_rng(int(seed))

    def playout(self, game: Any) -> np.ndarray:
        """The :func:`utility` at the end of one random playout from a copy of ``game``."""
        g = game.copy()
        steps = 0
        while not g.is_terminal and (self.max_steps == 0 or steps < self.max_steps):
            legal = np.flatnonzero(g.legal_mask())
            g.step_unchecked(int(legal[self.rng.integers(legal.size)]))
            steps += 1
        return utility(g)

    def evaluate(self, games: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """Zero logits and the mean playout utility of each game (see the class docstring)."""
        n_actions, n = check_batch(games)
        logits = np.zeros((len(games), n_actions), dtype=np.float32)
        values = np.zeros((len(games), n), dtype=np.float32)
        for i, g in enumerate(games):
            values[i] = np.mean([self.playout(g) for _ in range(self.rollouts)], axis=0)
        return logits, values


class AgentRolloutEvaluator(RolloutEvaluator):
    """The :func:`utility` of a playout in which ``agent`` chooses for every seat
    (``agent.act_in`` on a copy of the game: the agent sees each seat's view of the sampled game
    only), and prior logits 0 except ``prior`` at the agent's own choice in the evaluated game.

    Args:
        agent: an object with ``act_in(game)`` and ``reset(seed)`` (an agent of the game's registry).
        rollouts: as :class:`RolloutEvaluator`.
        max_steps: as :class:`RolloutEvaluator`.
        seed: as :class:`RolloutEvaluator`.
        prior: the logit of the agent's choice (0: a uniform prior).
    """

    def __init__(self, agent: Any, rollouts: int = 1, max_steps: int = 0, seed: int = 0,
                 prior: float = 0.0) -> None:
        if not callable(getattr(agent, "act_in", None)) or not callable(getattr(agent, "reset", None)):
            raise InvalidArgumentError(f"AgentRolloutEvaluator needs an agent with act_in and reset, got {agent!r:.60}")
        if not np.isfinite(prior) or prior < 0:
            raise InvalidArgumentError(f"prior must be a finite number >= 0, got {prior}")
        self.agent = agent
        self.prior = float(prior)
        super().__init__(rollouts, max_steps, seed)

    def evaluate(self, games: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """Playout values, and the agent's choice in each game raised to ``prior``."""
        logits, values = super().evaluate(games)
        if self.prior > 0:
            for i, g in enumerate(games):
                logits[i, int(self.agent.act_in(g))] = self.prior
        return logits, values

    def reset(self, seed: int) -> None:
        """Reseed the playout agent."""
        self.agent.reset(seed=int(seed))

    def playout(self, game: Any) -> np.ndarray:
        """The :func:`utility` after the agent's playout from a copy of ``game``."""
        g = game.copy()
        steps = 0
        while not g.is_terminal and (self.max_steps == 0 or steps < self.max_steps):
            g.step_unchecked(int(self.agent.act_in(g)))
            steps += 1
        return utility(g)


class NetworkEvaluator:
    """An evaluator around a network function.

    Args:
        fn: ``fn(observations, masks) -> (logits, values)`` with ``observations`` float32
            ``[B, OBS_SIZE]`` (each game's ``observe(current_player)``: the information of the
            seat on turn only), ``masks`` uint8 ``[B, N_ACTIONS]``; ``logits`` ``[B, N_ACTIONS]``
            and ``values`` ``[B, n_players]`` (each seat's utility in [0, 1], seats in the game's
            order) come back as arrays (torch tensors are converted with ``numpy()``).
        seat_relative: ``values`` come seat-relative, as the observation orders seats (column
            ``k`` is the seat ``k`` places after the player on turn); they are turned into the
            game's seat order.
    """

    def __init__(self, fn: Callable[[np.ndarray, np.ndarray], tuple[Any, Any]], seat_relative: bool = False) -> None:
        if not callable(fn):
            raise InvalidArgumentError(f"NetworkEvaluator needs a callable, got {fn!r:.60}")
        self.fn = fn
        self.seat_relative = bool(seat_relative)

    def evaluate(self, games: Sequence[Any]) -> tuple[np.ndarray, np.ndarray]:
        """One call of the network on every game of the batch (checked shapes)."""
        n_actions, n = check_batch(games)
        obs = np.stack([g.observe(g.current_player) for g in games]).astype(np.float32, copy=False)
        masks = np.stack([np.array(g.legal_mask(), dtype=np.uint8) for g in games])
        logits, values = self.fn(obs, masks)
        logits = np.asarray(logits.numpy() if hasattr(logits, "numpy") else logits, dtype=np.float32)
        values = np.asarray(values.numpy() if hasattr(values, "numpy") else values, dtype=np.float32)
        if logits.shape != (len(games), n_actions) or values.shape != (len(games), n):
            raise InvalidArgumentError(f"the network returned logits {logits.shape} and values {values.shape}; "
                                       f"expected {(len(games), n_actions)} and {(len(games), n)}")
        if self.seat_relative:
            turn = np.array([int(g.current_player) for g in games])
            cols = (turn[:, None] + np.arange(n)[None, :]) % n      # absolute seat of each column
            out = np.empty_like(values)
            np.put_along_axis(out, cols, values, axis=1)
            values = out
        return logits, values
