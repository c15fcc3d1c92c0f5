"""Time per bot move inside human play (``PlaySession.step_bot``), as the web app and the terminal
pay it.  Prints figures only (machines here are shared and noisy).

    python benchmarks/play_bot_times.py [--games 2] [--players 2,4] [--tech grid,market]

For each bot spec and player count, bot-only games (every seat that spec) from seeds 0, 1, ...:
mean and max wall time and max CPU time per move, the first move of each game left out (it loads
the policy or compiles).  A bot move in play is meant to take at most 200 ms, mcts included.
"""
from __future__ import annotations

import argparse
import time

from electrify_env.play.session import PlaySession

SPECS = ("greedy", "trained", "mcts:iters=36:top_k=3:horizon=2", "mcts")


def bot_times(spec: str, n_players: int, games: int, tech: tuple[str, ...] = ()) -> tuple[float, float, float, int]:
    """(mean wall ms, max wall ms, max CPU ms, moves) per move of ``spec`` in bot-only games."""
    wall, cpu = [], []
    for seed in range(games):
        s = PlaySession(n_players=n_players, seats=[spec] * n_players, seed=seed, tech_packs=tech)
        first = True
        while not s.is_over:
            w, c = time.perf_counter(), time.process_time()
            s.step_bot()
            if not first:
                wall.append(time.perf_counter() - w)
                cpu.append(time.process_time() - c)
            first = False
    return 1000 * sum(wall) / len(wall), 1000 * max(wall), 1000 * max(cpu), len(wall)


def main(argv=None) -> int:
    """Print one line per spec and player count."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=2, help="bot-only games per spec and player count")
    ap.add_argument("--players", default="2,4", help="player counts, comma-separated")
    ap.add_argument("--specs", default=",".join(SPECS), help="bot specs, comma-separated")
    ap.add_argument("--tech", default="", help="tech packs, comma-separated")
    args = ap.parse_args(argv)
    tech = tuple(t for t in args.tech.split(",") if t)
    for n in [int(x) for x in args.players.split(",")]:
        for spec in args.specs.split(","):
            if spec == "trained" and tech:
                continue   # the shipped policies play the base set only
            mean, mx, cpu, moves = bot_times(spec, n, args.games, tech)
            print(f"{n}p {spec:34s} {moves:6d} moves  mean {mean:6.1f} ms  max {mx:6.1f} ms  "
                  f"max CPU {cpu:6.1f} ms")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
