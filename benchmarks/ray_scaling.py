"""Scaling on Ray, side by side with the local backend, in one run.

    python benchmarks/ray_scaling.py [--games 16] [--fast-games 200] [--rllib-iters 3] [--skip-rllib]

Needs the Ray extra (``pip install -e ".[ray]"``).  Prints, on this machine (figures only, no
assertion: machines here are shared and noisy):

1. **Arena games/s**, the same seeded games on the local backend (``--jobs 1`` in-process,
   ``--jobs 2`` a process pool) and on Ray (a local Ray with 1 and 2 CPUs), for a slow match-up
   (``mcts,greedy``: the search agent dominates, ``--games``) and a fast one (``greedy,random``:
   per-game overhead dominates, ``--fast-games``).  Each Ray line includes starting and stopping
   its local Ray, as a user's command does; the results of every line are checked identical
   (timings aside) to the local ``--jobs 1`` line.
2. **RLlib env steps/s** of multi-agent PPO on ``electrify_v0`` (``configs/rllib_2p.yaml``)
   with the local env runner only (``num_env_runners 0``) and with 1 and 2 remote env runners
   (:func:`electrify_env.training.rllib_selfplay.measure_throughput`): training (sampling plus the PPO update
   in the driver, ``--rllib-iters`` iterations after a warm-up one) and sampling alone (one
   parallel ``sample()`` of a train batch split over the runners).
"""
from __future__ import annotations

import argparse
import time

TIMING_FIELDS = ("seconds",)


def _strip(records: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in TIMING_FIELDS} for r in records]


def arena_rate(agents: list[str], games: int, jobs: int, backend: str, seed: int = 1) -> tuple[float, list]:
    """Games per second of one arena run (wall time of the whole command, Ray start included)."""
    from electrify_env.agents.arena import ArenaConfig, run_arena

    cfg = ArenaConfig(agents=agents, players=2, games=games, seed=seed, jobs=jobs, backend=backend,
                      progress=False, out=None)
    t0 = time.perf_counter()
    res = run_arena(cfg)
    return games / (time.perf_counter() - t0), _strip(res["records"])


def main(argv: list[str] | None = None) -> int:
    """Run the measurements and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=16, help="games of mcts vs greedy per line")
    ap.add_argument("--fast-games", type=int, default=200, help="games of greedy vs random per line")
    ap.add_argument("--rllib-iters", type=int, default=3, help="timed RLlib iterations per line")
    ap.add_argument("--skip-rllib", action="store_true")
    args = ap.parse_args(argv)

    import ray  # noqa: F401  (fail early, with Python's own message, if the extra is missing)

    print("arena games/s (2 players, seed 1; Ray lines include starting their local Ray)")
    print(f"{'match-up':<16} {'games':>5} {'local j1':>9} {'local j2':>9} {'ray 1 cpu':>9} {'ray 2 cpu':>9}  same results")
    for agents, games in ((["mcts", "greedy"], args.games), (["greedy", "random"], args.fast_games)):
        rates, ref, same = [], None, True
        for backend, jobs in (("local", 1), ("local", 2), ("ray", 1), ("ray", 2)):
            rate, recs = arena_rate(agents, games, jobs, backend)
            rates.append(rate)
            ref = recs if ref is None else ref
            same &= recs == ref
        print(f"{','.join(agents):<16} {games:>5} " + " ".join(f"{r:>9.2f}" for r in rates)
              + f"  {'yes' if same else 'NO'}")

    if not args.skip_rllib:
        from electrify_env.training.rllib_selfplay import measure_throughput

        print("\nRLlib multi-agent PPO on electrify_v0 (configs/rllib_2p.yaml; env step = one decision)")
        print(f"{'env runners':<12} {'training env steps/s':>21} {'sampling env steps/s':>21}")
        for runners in (0, 1, 2):
            r = measure_throughput("configs/rllib_2p.yaml", num_env_runners=runners,
                                   iterations=args.rllib_iters)
            print(f"{runners:<12} {r['train_env_steps_per_s']:>21,.0f} {r['sample_env_steps_per_s']:>21,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
