"""Prints decisions/s and games/s of seeded random Gizmos games played inside numba, per player count.

    python benchmarks/bench_gizmos.py [--games 2000] [--players 2 3 4] [--seed 1] [--python-api] [--start]

The jitted playout loop (``gz_playout.random_games``) is compiled and warmed on two games first;
each line then times ``--games`` games of one player count (game g seeded ``--seed + g``) on one
core.  With ``--python-api`` the same random play runs through the Python API instead, in two
loops per player count: ``Game.legal_actions()`` + ``Game.step()``, and the Gymnasium env
``gym.make("Gizmos-v0")`` (seat 0 stepped by the loop, the other seats by the env's built-in
random opponents; its decisions/s count every seat's decisions, its steps/s the agent's).
With ``--start`` it times instead, in fresh processes sharing a new, empty numba cache folder, the
cold start (compiling the engine + one random 4-player game) and the cached start (import + the
same game).  Figures only, nothing asserted (the machines here are shared and noisy).
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
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


def python_game(n_players: int, games: int, seed: int) -> tuple[int, float]:
    """(decisions made, seconds taken) of ``games`` random games through ``Game.legal_actions``
    and ``Game.step`` (one warm-up game first)."""
    from electrify_env.gizmos import Game

    def play(g_seed: int) -> int:
        game = Game(n_players=n_players, seed=g_seed)
        rng = np.random.default_rng(g_seed)
        while not game.done:
            legal = game.legal_actions()
            game.step(int(legal[rng.integers(len(legal))]))
        return len(game.history)

    play(seed)
    t = time.perf_counter()
    dec = sum(play(seed + g) for g in range(games))
    return dec, time.perf_counter() - t


def python_gym(n_players: int, games: int, seed: int) -> tuple[int, int, float]:
    """(every seat's decisions, the agent's steps, seconds taken) of ``games`` episodes of
    ``gym.make("Gizmos-v0")`` with random legal actions (one warm-up episode first)."""
    import gymnasium as gym

    import electrify_env  # noqa: F401  (registers Gizmos-v0)

    env = gym.make("Gizmos-v0", n_players=n_players)

    def play(g_seed: int) -> tuple[int, int]:
        _, info = env.reset(seed=g_seed)
        rng = np.random.default_rng(g_seed)
        steps = 0
        while True:
            legal = np.flatnonzero(info["action_mask"])
            _, _, term, trunc, info = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if term or trunc:
                return len(env.unwrapped.game.history), steps

    play(seed)
    t = time.perf_counter()
    dec = steps = 0
    for g in range(games):
        d, s = play(seed + g)
        dec += d
        steps += s
    return dec, steps, time.perf_counter() - t


FIRST_GAME = """
from electrify_env.gizmos import Game
g = Game(n_players=4, seed=1)
while not g.is_terminal:
    g.step(int(g.legal_actions()[0]))
"""


def start_times() -> tuple[float, float]:
    """(cold seconds, cached seconds) of import + one 4-player game, in fresh processes sharing a
    new, empty numba cache folder."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = []
        for _ in range(2):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", FIRST_GAME], env=env, check=True, capture_output=True)
            out.append(time.perf_counter() - t)
        return out[0], out[1]


def main(argv: list[str] | None = None) -> None:
    """Parse the arguments and print one line per player count."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per player count (default 2000)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="player counts, 2..4")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--python-api", action="store_true",
                    help="time the Python API (Game.legal_actions + step, and Gizmos-v0) instead of numba")
    ap.add_argument("--start", action="store_true",
                    help="time the cold and the cached start in fresh processes instead")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    for n in args.players:
        if not 2 <= n <= 4:
            ap.error(f"--players must be 2, 3 or 4, got {n}")
    if not 0 <= args.seed < 2 ** 62:
        ap.error(f"--seed must be in 0..2**62-1, got {args.seed}")
    if args.start:
        cold, cached = start_times()
        print(f"gizmos cold start (compile + first 4p game, fresh process): {cold:8.2f} s")
        print(f"gizmos cached start (import + first 4p game, fresh process): {cached:7.2f} s   target <= 1.5 s")
        return
    for n in args.players:
        if args.python_api:
            dec, dt = python_game(n, args.games, args.seed)
            print(f"gizmos random play through Game.legal_actions + step, {n} players: {dec / dt:,.0f} decisions/s, "
                  f"{args.games / dt:,.2f} games/s ({args.games} games, {dec} decisions, seed {args.seed})")
            dec, steps, dt = python_gym(n, args.games, args.seed)
            print(f"gizmos random play through gym.make('Gizmos-v0'), {n} players: {dec / dt:,.0f} decisions/s "
                  f"({steps / dt:,.0f} agent steps/s), {args.games / dt:,.2f} games/s ({args.games} games, "
                  f"{dec} decisions, {steps} agent steps, seed {args.seed})")
            continue
        dec, dt = in_numba(n, args.games, args.seed)
        print(f"gizmos random play in numba, {n} players: {dec / dt:,.0f} decisions/s, "
              f"{args.games / dt:,.1f} games/s ({args.games} games, {dec} decisions, seed {args.seed})")


if __name__ == "__main__":
    main()
