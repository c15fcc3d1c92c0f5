"""Games that make expert iteration's samples: the teacher's games of the warm start and the
search's self-play, many games stepped together.

A sample is one decision with a choice (more than one legal action) of a learner seat: the
seat's observation and legal mask, the policy target (the teacher's move as one-hot, or the
search's improved policy) and, once the game ends, the value target: every seat's utility
(:func:`electrify_env.agents.search.evaluators.utility`) in the observation's seat-relative
order, optionally mixed with the search's root value.  :class:`Replay` keeps the latest samples (observations as float16).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from electrify_env.agents.search.evaluators import utility
from electrify_env.agents.search.gumbel import GumbelSearch
from electrify_env.validation import MAX_SEED

__all__ = ["Replay", "Samples", "teacher_games", "search_games", "relative_values"]


@dataclass
class Samples:
    """Samples in lists, as games make them (see the module docstring)."""

    obs: list = field(default_factory=list)
    mask: list = field(default_factory=list)
    policy: list = field(default_factory=list)
    value: list = field(default_factory=list)

    def add_game(self, rows: list[tuple], u: np.ndarray, value_mix: float = 0.0) -> None:
        """The rows ``(obs, mask, policy, seat)`` or ``(obs, mask, policy, seat, root_value)`` of
        one finished game with its utilities ``u``.  A row's value target is ``u``, or, for a row
        with the search's root value (game seat order) and ``value_mix`` > 0, the mix
        ``(1 - value_mix) * u + value_mix * root_value``."""
        for obs, mask, pol, seat, *root in rows:
            self.obs.append(np.asarray(obs, dtype=np.float16))     # as the replay keeps them
            self.mask.append(mask)
            self.policy.append(pol)
            target = relative_values(u, seat)
            if root and value_mix > 0:
                target = (1.0 - value_mix) * target + value_mix * relative_values(np.asarray(root[0]), seat)
            self.value.append(target.astype(np.float32))

    def __len__(self) -> int:
        return len(self.obs)


def relative_values(u: np.ndarray, seat: int) -> np.ndarray:
    """Utilities ``u`` (game seat order) in ``seat``'s relative order (column k: seat + k)."""
    n = u.shape[0]
    return u[(seat + np.arange(n)) % n].astype(np.float32)


class Replay:
    """A ring buffer of the latest ``capacity`` samples."""

    def __init__(self, capacity: int, obs_size: int, n_actions: int, n_players: int) -> None:
        self.capacity = int(capacity)
        self.obs = np.zeros((capacity, obs_size), dtype=np.float16)
        self.mask = np.zeros((capacity, n_actions), dtype=np.uint8)
        self.policy = np.zeros((capacity, n_actions), dtype=np.float16)
        self.value = np.zeros((capacity, n_players), dtype=np.float32)
        self.size = 0
        self.next = 0
        self.added = 0

    def extend(self, s: Samples) -> None:
        """Append the samples ``s`` (overwriting the oldest when full)."""
        n = len(s)
        if n == 0:
            return
        keep = slice(max(0, n - self.capacity), n)            # more than fit: the newest
        rows = (np.arange(keep.start, n) + self.next) % self.capacity   # where a one-by-one write puts them
        for buf, items in ((self.obs, s.obs), (self.mask, s.mask), (self.policy, s.policy), (self.value, s.value)):
            buf[rows] = np.stack(items[keep])
        self.next = (self.next + n) % self.capacity
        self.size = min(self.size + len(rows), self.capacity)
        self.added += n

    def sample(self, rng: np.random.Generator, batch: int) -> tuple[np.ndarray, ...]:
        """A uniform minibatch (observations as float32)."""
        idx = rng.integers(0, self.size, size=min(batch, self.size))
        return self.obs[idx].astype(np.float32), self.mask[idx], self.policy[idx].astype(np.float32), self.value[idx]


def teacher_games(new_game: Callable[[int], Any], seeds: Sequence[int], teacher: Any, epsilon: float,
                  rng: np.random.Generator, progress: Any = None) -> tuple[Samples, dict]:
    """Games in which ``teacher`` (an agent) plays every seat, a uniformly random legal move
    instead with probability ``epsilon``; each decision with a choice is a sample of the
    teacher's move.  ``new_game(seed)`` makes a game."""
    out, decisions = Samples(), 0
    for seed in seeds:
        g = new_game(int(seed))
        teacher.reset(int(seed))
        rows = []
        while not g.is_terminal:
            legal = g.legal_actions()
            if legal.size > 1:
                p = int(g.current_player)
                a = int(teacher.act_in(g))
                pol = np.zeros(g.N_ACTIONS, dtype=np.float32)
                pol[a] = 1.0
                rows.append((g.observe(p), np.array(g.legal_mask(), dtype=np.uint8), pol, p))
                if epsilon and rng.random() < epsilon:
                    a = int(rng.choice(legal))
            else:
                a = int(legal[0])
            g.step(a)
            decisions += 1
        out.add_game(rows, utility(g))
        if progress is not None:
            progress.update(1)
    return out, {"games": len(seeds), "decisions": decisions, "samples": len(out)}


def search_games(new_game: Callable[[int], Any], seeds: Sequence[int], learners: Sequence[Sequence[int]],
                 opponents: Sequence[Any], search: GumbelSearch, parallel: int, rng: np.random.Generator,
                 progress: Any = None, value_mix: float = 0.0) -> tuple[Samples, dict]:
    """Self-play games: in game ``i`` (``new_game(seeds[i])``) the seats ``learners[i]`` move by
    ``search`` and are labelled with its improved policy; the other seats are played by
    ``opponents[i]`` (an agent, or None when every seat learns).  ``parallel`` games are stepped
    together: each advances (forced moves, opponents' moves) to its learner's next decision with
    a choice, and those decisions are searched in one call.  ``value_mix``: the share of the
    search's root value in a sample's value target (:meth:`Samples.add_game`).

    Returns the samples and counts: games, decisions, searched decisions, each learner seat's
    mean utility against the opponents."""
    out = Samples()
    stats = {"games": 0, "decisions": 0, "searched": 0, "utility_vs": {}}
    order = list(range(len(seeds)))
    for start in range(0, len(order), parallel):
        batch = order[start:start + parallel]
        games = {i: new_game(int(seeds[i])) for i in batch}
        rows: dict[int, list] = {i: [] for i in batch}
        for i in batch:
            if opponents[i] is not None:
                opponents[i].reset(int(seeds[i]))
        active = list(batch)
        while active:
            roots = []
            for i in active:
                g = games[i]
                while not g.is_terminal:
                    legal = g.legal_actions()
                    p = int(g.current_player)
                    if legal.size == 1:
                        g.step(int(legal[0]))
                    elif p in learners[i]:
                        roots.append(i)
                        break
                    else:
                        g.step(int(opponents[i].act_in(g)))
                    stats["decisions"] += 1
            if roots:
                views = [games[i].seat_view(observation=False, infoset=True) for i in roots]
                results = search.search_views(views, [games[i] for i in roots],
                                              [int(s) for s in rng.integers(0, MAX_SEED, size=len(roots))])
                for i, res in zip(roots, results):
                    g = games[i]
                    p = int(g.current_player)
                    rows[i].append((g.observe(p), np.array(g.legal_mask(), dtype=np.uint8), res.policy, p,
                                    res.value))
                    g.step(int(res.action))
                    stats["decisions"] += 1
                    stats["searched"] += 1
            still = []
            for i in active:
                if games[i].is_terminal:
                    u = utility(games[i])
                    out.add_game(rows[i], u, value_mix)
                    stats["games"] += 1
                    if opponents[i] is not None:
                        key = getattr(opponents[i], "spec", "opponent")
                        stats["utility_vs"].setdefault(key, []).extend(float(u[s]) for s in learners[i])
                    if progress is not None:
                        progress.update(1)
                else:
                    still.append(i)
            active = still
    stats["utility_vs"] = {k: float(np.mean(v)) for k, v in stats["utility_vs"].items()}
    return out, stats
