"""Seat vector env benchmark: steps/s against random and against greedy opponents, side by side.
Prints figures, asserts nothing (machines here are shared and noisy).

    python benchmarks/bench_vector_opponents.py [--num-envs 64] [--players 2] [--seconds 3] [--parallel]

``ElectrifyVectorEnv(N, "seat", opponents=...)`` with the agent's seat drawn per game; each step
draws a uniform random legal action for every row (``kernels.batch.sample_legal``, included in
the first figure; the env-only rate is printed beside it).  A step is one agent decision per
row, so it includes every opponent decision up to the agent's next turn: random opponents cost
one legal mask each, greedy ones a one-ply lookahead over every legal action (the ``greedy``
agent, inside numba).
"""
from __future__ import annotations

import argparse

from bench_envs import time_vector_env   # benchmarks/ is the script's folder


def seat_steps_per_second(opponents: str, n: int, players: int, seconds: float, seed: int = 0,
                          parallel: bool = False) -> tuple[float, float, int]:
    """(agent steps/s including the random-action draw, steps/s of env.step alone, games
    finished) of the seat vector env with ``n`` games against ``opponents``."""
    from electrify_env.envs import ElectrifyVectorEnv

    env = ElectrifyVectorEnv(n, "seat", n_players=players, seat=None, opponents=opponents,
                             parallel=parallel)
    return time_vector_env(env, seconds, seed, batch=10)


def main(argv=None) -> None:
    """Time both opponent kinds and print them side by side."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--num-envs", type=int, default=64, help="games N")
    ap.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    ap.add_argument("--seconds", type=float, default=3.0, help="timing per figure")
    ap.add_argument("--parallel", action="store_true", help="parallel=True (numba threads)")
    args = ap.parse_args(argv)
    rows = {opp: seat_steps_per_second(opp, args.num_envs, args.players, args.seconds,
                                       parallel=args.parallel)
            for opp in ("random", "greedy")}
    print(f"ElectrifyVectorEnv seat mode, N = {args.num_envs}, {args.players} players, "
          f"random agent{', parallel=True' if args.parallel else ', one core'}:")
    for opp, (total, env_only, games) in rows.items():
        print(f"  opponents={opp!r:<9} {total:>10,.0f} steps/s  (env.step alone: {env_only:,.0f}; "
              f"{games} games finished)")
    print(f"  greedy / random: {rows['greedy'][0] / rows['random'][0]:.2f}")


if __name__ == "__main__":
    main()
