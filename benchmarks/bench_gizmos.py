"""Prints decisions/s and games/s of seeded random Gizmos games played inside numba, per player count.

    python benchmarks/bench_gizmos.py [--games 2000] [--players 2 3 4] [--seed 1]

The jitted playout loop (``gz_playout.random_games``) is compiled and warmed on two games first;
each line then times ``--games`` games of one player count (game g seeded ``--seed + g``) on one
core.  Figures only, nothing asserted (the machines here are shared and noisy).
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def in_numba(n_players: int, games: int, seed: int) -> tuple[int, float]:
    """(decisions made, seconds taken) of ``games`` seeded random games of ``n_players``."""
    from electrify_env.gizmos.cards import load_card_set
    from electrify_env.gizmos.engine.gz_playout import random_games

    T = load_card_set(None).table
    random_games(T, np.int64(n_players), np.int64(0), np.int64(2))  # compile and warm
    t = time.perf_counter()
    dec = random_games(T, np.int64(n_players), np.int64(seed), np.int64(games))
    return int(dec), time.perf_counter() - t


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and print one line per player count."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per player count (default 2000)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="player counts, 2..4")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    for n in args.players:
        if not 2 <= n <= 4:
            ap.error(f"--players must be 2, 3 or 4, got {n}")
    if not 0 <= args.seed < 2 ** 62:
        ap.error(f"--seed must be in 0..2**62-1, got {args.seed}")
    for n in args.players:
        dec, dt = in_numba(n, args.games, args.seed)
        print(f"gizmos random play in numba, {n} players: {dec / dt:,.0f} decisions/s, "
              f"{args.games / dt:,.1f} games/s ({args.games} games, {dec} decisions, seed {args.seed})")


if __name__ == "__main__":
    main()
