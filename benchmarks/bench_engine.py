"""Engine benchmark: prints figures, asserts nothing (machines here are shared and noisy).

    python benchmarks/bench_engine.py [--games 2000] [--api-decisions 200000]

Figures:
  * random play entirely inside numba: decisions/s and complete games/s, 2 and 4 players, one core;
  * a Python loop over the public API (legal_mask, choose, step): decisions/s;
  * cold compile time (empty numba cache) and cached start (import + first game), each measured
    in a fresh interpreter.
Targets: >= 1,000,000 decisions/s and >= 500 four-player games/s inside numba;
>= 150,000 decisions/s through the Python API; cached import + first game <= 1.5 s.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

FIRST_GAME = ("import time; t=time.perf_counter(); import numpy as np; from electrify_env import Game; "
              "from electrify_env.game import play_random; "
              "g=Game(n_players=4, seed=1); play_random(g, np.random.default_rng(1)); "
              "print(time.perf_counter()-t)")


def in_numba(n_players: int, games: int, packs: tuple[str, ...] = (), scenario: str | None = None,
             seed: int = 1) -> tuple[float, float]:
    """(decisions/s, games/s) of seeded random games played by the jitted playout loop; with
    ``scenario`` the games are solo games of that scenario."""
    from electrify_env.cards import load_card_set
    from electrify_env.engine.layout import SC_SIZE
    from electrify_env.engine.playout import random_games
    from electrify_env.game import resolve_tech_pack
    from electrify_env.scenarios import load_scenario

    cards = load_card_set(None, tech_packs=tuple(resolve_tech_pack(p) for p in packs))
    options = sum(1 << k for k in range(1, len(packs) + 1))
    SC = load_scenario(scenario).table if scenario else np.zeros(SC_SIZE, dtype=np.int64)
    T = cards.table
    args = (np.int64(options),)
    random_games(T, SC, np.int64(n_players), np.int64(0), np.int64(2), *args)  # warm
    t = time.perf_counter()
    dec = random_games(T, SC, np.int64(n_players), np.int64(seed), np.int64(games), *args)
    dt = time.perf_counter() - t
    return dec / dt, games / dt


def python_api(decisions: int, n_players: int = 4) -> float:
    """decisions/s of: mask = game.legal_mask(); choose uniformly; game.step(a)."""
    from electrify_env import Game

    rng = random.Random(0)
    g = Game(n_players=n_players, seed=0)
    done = 0
    seed = 0
    t = time.perf_counter()
    while done < decisions:
        if g.is_terminal:
            seed += 1
            g = Game(n_players=n_players, seed=seed)
        legal = np.flatnonzero(g.legal_mask())
        g.step(legal[rng.randrange(len(legal))])
        done += 1
    return done / (time.perf_counter() - t)


def start_times() -> tuple[float, float]:
    """(cold seconds, cached seconds) of import + one random 4-player game, in fresh processes
    sharing a new, empty numba cache folder."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = []
        for _ in range(2):
            t = time.perf_counter()
            subprocess.run([sys.executable, "-c", FIRST_GAME], env=env, check=True, capture_output=True)
            out.append(time.perf_counter() - t)
        return out[0], out[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per in-numba figure")
    ap.add_argument("--api-decisions", type=int, default=200_000)
    ap.add_argument("--skip-start", action="store_true", help="skip the compile/start timings")
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}, numpy {np.__version__}, cores {os.cpu_count()}")
    if not args.skip_start:
        cold, cached = start_times()
        print(f"cold start (compile + first 4p game, fresh process): {cold:8.2f} s")
        print(f"cached start (import + first 4p game, fresh process): {cached:7.2f} s   target <= 1.5 s")
    base = {}
    for n in (2, 4):
        dps, gps = in_numba(n, args.games)
        base[n] = dps
        print(f"in numba, {n} players: {dps:12,.0f} decisions/s  {gps:9,.0f} games/s"
              f"   targets >= 1,000,000 decisions/s" + (", >= 500 games/s" if n == 4 else ""))
    for n in (2, 4):
        dps, gps = in_numba(n, args.games, packs=("grid", "market"))
        print(f"in numba, {n} players, both tech packs: {dps:12,.0f} decisions/s  {gps:9,.0f} games/s"
              f"   {dps / base[n]:6.1%} of the base game's decisions/s (target >= 80%)")
    from electrify_env.scenarios import list_scenarios
    tot_d = tot_t = 0.0
    for sc in list_scenarios():
        dps, gps = in_numba(1, args.games, scenario=sc)
        tot_d += args.games / gps * dps
        tot_t += args.games / gps
    sdps = tot_d / tot_t
    print(f"in numba, solo (all 8 scenarios): {sdps:12,.0f} decisions/s  {8 * args.games / tot_t:9,.0f} games/s"
          f"   {sdps / base[2]:6.1%} of the 2-player base game's decisions/s (target >= 80%)")
    print(f"python API loop (mask, choose, step), 4 players: {python_api(args.api_decisions):10,.0f} decisions/s"
          f"   target >= 150,000")


if __name__ == "__main__":
    main()
