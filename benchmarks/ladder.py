"""Reproduce the agent ladder: greedy vs random, mcts vs greedy (2 players, seat-rotated) and the
solo success rates of random, greedy and mcts on all eight scenarios.

    python benchmarks/ladder.py                      # the full ladder (about an hour on 2 cores)
    python benchmarks/ladder.py --quick              # a small smoke run (a minute)

Each part is one ``electrify arena`` run (the equivalent command is printed), written to
``--out/<part>/`` (results.json, CSV tables, games.jsonl replays, chart.png).  Results follow from
``--seed`` alone, whatever ``--jobs``.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from electrify_env.agents.arena import ArenaConfig, format_table, run_arena

MCTS = "mcts:iters=36:top_k=3:horizon=2"


def parts(quick: bool) -> list[tuple[str, ArenaConfig]]:
    """The ladder's arena runs: (name, configuration)."""
    g = (lambda full, small: small if quick else full)
    return [
        ("greedy_random", ArenaConfig(agents=["greedy", "random"], games=g(2000, 20))),
        ("mcts_greedy", ArenaConfig(agents=[MCTS, "greedy"], games=g(800, 4))),
        ("solo_random_greedy", ArenaConfig(agents=["random", "greedy"], solo=["all"], games=g(200, 4))),
        ("solo_mcts", ArenaConfig(agents=[MCTS], solo=["all"], games=g(16, 1))),
    ]


def command(cfg: ArenaConfig, out: Path) -> str:
    """The ``electrify arena`` command line of a configuration."""
    solo = f" --solo {','.join(cfg.solo)}" if cfg.solo else f" --players {cfg.players}"
    return (f"electrify arena --agents {','.join(cfg.agents)}{solo} --games {cfg.games} "
            f"--seed {cfg.seed} --jobs {cfg.jobs} --out {out}")


def main(argv=None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="tiny game counts (smoke test)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default="ladder_out")
    ap.add_argument("--only", default=None, help="run only these parts (comma-separated names)")
    args = ap.parse_args(argv)
    chosen = None if args.only is None else set(args.only.split(","))
    for name, cfg in parts(args.quick):
        if chosen is not None and name not in chosen:
            continue
        cfg.seed, cfg.jobs = args.seed, args.jobs
        cfg.out = str(Path(args.out) / name)
        print(f"== {name}: {command(cfg, Path(cfg.out))}", flush=True)
        t0 = time.time()
        res = run_arena(cfg)
        print(format_table(res["summary"]))
        print(f"({len(res['records'])} games, {time.time() - t0:.0f} s)\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
