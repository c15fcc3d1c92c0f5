"""A complete Gizmos game between uniform-random players, and its result as a table.

``electrify demo --game gizmos --players 3 --seed 7`` prints :func:`result_table` of
:func:`play_random`'s game::

    >>> from electrify_env.gizmos.demo import play_random, result_table
    >>> game = play_random(players=2, seed=7)
    >>> game.done
    True
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .cards import CardSet
from .engine import gz_layout as L
from .engine.gz_energy import pbase
from .game import Game


def play_random(players: int = 4, seed: int = 0, card_set: CardSet | str | Path | None = None) -> Game:
    """Play a whole game of ``players`` seats, every decision uniform among the legal ids (drawn
    from a generator seeded with ``seed``, the game's seed too); return the finished game."""
    game = Game(n_players=players, seed=seed, card_set=card_set)
    rng = np.random.default_rng(seed)
    while not game.done:
        legal = game.legal_actions()
        game.step(int(legal[rng.integers(len(legal))]))
    return game


def result_table(game: Game) -> str:
    """The finished game's result: per seat its rank, points (machines, tokens, upgrades),
    machines built and marbles stored; then the decision count and the winner."""
    scores, ranks = game.scores(), game.ranks()
    lines = ["seat  rank  points  machines pts  tokens  upgrades  built  marbles"]
    for p in range(game.n_players):
        src = game.points_by_source(p)
        pb = pbase(p)
        built = int(game.state[pb + L.P_BUILT_N])
        marbles = int(sum(game.state[pb + L.P_STORE + c] for c in range(L.N_COLOURS)))
        lines.append(f"{p:>4}  {ranks[p] + 1:>4}  {scores[p]:>6}  {src['machines']:>12}  {src['tokens']:>6}  "
                     f"{src['upgrades']:>8}  {built:>5}  {marbles:>7}")
    end = "the round cap ended it" if game.truncated else f"round {game.round}"
    lines.append(f"\n{len(game.history)} decisions, {end}. Winner: player {game.winner()}")
    return "\n".join(lines)


def demo_text(players: int | None = None, seed: int = 0, card_set: CardSet | str | Path | None = None) -> str:
    """The demo of ``electrify demo --game gizmos``: :func:`result_table` of a random game of
    ``players`` seats (None: 4)."""
    return result_table(play_random(players=players or 4, seed=seed, card_set=card_set))
