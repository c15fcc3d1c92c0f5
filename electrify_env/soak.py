"""Soak runs: many seeded random games with every invariant checked after every decision."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from tqdm import tqdm

from .cards import CardSet, load_card_set
from .engine.invariants import INVARIANT_MESSAGES, checked_random_game
from .engine.layout import N_ACTIONS, S_SIZE

MAX_DECISIONS = 50_000


@dataclass
class SoakResult:
    """Outcome of :func:`soak`: games played, decisions made, and failures (seed, players,
    decision index, message)."""

    games: int = 0
    decisions: int = 0
    failures: list[tuple[int, int, int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no invariant broke."""
        return not self.failures


def soak(games: int, players=(2, 3, 4), seed: int = 0, card_set: CardSet | None = None,
         options: int = 0, progress: bool = True) -> SoakResult:
    """Play ``games`` random games (player counts cycling over ``players``, seeds ``seed``,
    ``seed+1``, ...) with the invariants checked after every decision."""
    cards = card_set or load_card_set()
    S = np.zeros(S_SIZE, dtype=np.int64)
    mask = np.zeros(N_ACTIONS, dtype=np.uint8)
    res = SoakResult()
    for g in tqdm(range(games), disable=not progress, desc="soak", unit="game"):
        n = players[g % len(players)]
        code, k = checked_random_game(S, cards.table, mask, np.int64(n), np.int64(seed + g),
                                      np.int64(options), np.int64(MAX_DECISIONS))
        res.games += 1
        res.decisions += int(k)
        if code:
            res.failures.append((seed + g, n, int(k), INVARIANT_MESSAGES[int(code)]))
    return res
