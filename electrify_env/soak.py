"""Soak runs: many seeded random games with every invariant checked after every decision."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

import numpy as np
from tqdm import tqdm

from .cards import CardSet, load_card_set
from .engine.invariants import INVARIANT_MESSAGES, checked_random_game
from .engine.layout import N_ACTIONS, S_SIZE, SC_SIZE
from .scenarios import load_scenario
from .validation import InvalidArgumentError, check_count, check_players, check_seed_run, tech_pack_options

MAX_DECISIONS = 50_000


@dataclass
class SoakResult:
    """Outcome of :func:`soak`: games played, decisions made, and failures (seed, player count
    or scenario, decision index, message)."""

    games: int = 0
    decisions: int = 0
    failures: list[tuple[int, str, int, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when no invariant broke."""
        return not self.failures


def soak(games: int, players=(2, 3, 4), seed: int = 0, card_set: CardSet | None = None,
         scenarios: Sequence[str] = (), progress: bool = True) -> SoakResult:
    """Play ``games`` random games with the invariants checked after every decision.

    Multiplayer: player counts cycle over ``players``.  Solo: give ``scenarios`` (ids); the
    games cycle over them.  Seeds run ``seed``, ``seed+1``, ...  Tech packs come with
    ``card_set`` (every pack it holds is shuffled in).  Even games pick uniformly among the
    legal ids; odd games prefer the pending decision's own actions, which reach deeper rules.

    Raises:
        InvalidArgumentError (a ValueError): ``games`` not positive, a player count outside 2-4,
        or seeds ``seed .. seed+games-1`` outside 0..2**62-1 (checked before any game runs).
    """
    games = check_count(games, "games")
    seed = check_seed_run(seed, games)
    if isinstance(players, (int, np.integer)):
        players = (players,)
    players = tuple(check_players(n) for n in players) if not scenarios else ()
    if not scenarios and not players:
        raise InvalidArgumentError("players: give at least one player count 2-4 (or scenarios)")
    cards = card_set or load_card_set()
    options = tech_pack_options(len(cards.pack_names))
    tables = [load_scenario(s).table for s in scenarios]
    empty = np.zeros(SC_SIZE, dtype=np.int64)
    empty.flags.writeable = False
    S = np.zeros(S_SIZE, dtype=np.int64)
    mask = np.zeros(N_ACTIONS, dtype=np.uint8)
    res = SoakResult()
    for g in tqdm(range(games), disable=not progress, desc="soak", unit="game"):
        phase_first = g % 2 == 1  # half uniform random, half preferring the pending decision
        if tables:
            n, sc = 1, tables[g % len(tables)]
        else:
            n, sc = players[g % len(players)], empty
        code, k = checked_random_game(S, cards.table, sc, mask, np.int64(n), np.int64(seed + g),
                                      np.int64(options), np.int64(MAX_DECISIONS), phase_first)
        res.games += 1
        res.decisions += int(k)
        if code:
            where = scenarios[g % len(scenarios)] if tables else f"{n} players"
            res.failures.append((seed + g, where, int(k), INVARIANT_MESSAGES[int(code)]))
    return res
