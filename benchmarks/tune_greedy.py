"""Tune the greedy agent's evaluation weights by self-play: a (1+1) evolution strategy.

Each step perturbs a few weights of the current best set (multiplicatively), plays the
candidate against the current best in seat-rotated 2-player games (both seats of every seed) and
keeps the candidate when it wins more than ``--accept`` of them.  Games run the jitted greedy
policy on each seat's information-set view (scrub, then one determinization), exactly as the
``greedy`` agent plays.  The result is written as YAML (the format of
``configs/agents/greedy.yaml``).

    python benchmarks/tune_greedy.py --steps 60 --games 200 --out configs/agents/greedy.yaml
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from electrify_env.cards import load_card_set
from electrify_env.engine import layout as L
from electrify_env.kernels import search as SR
from electrify_env.engine.infoset import determinize, scrub
from electrify_env.engine.scoring import winners_mask
from electrify_env.engine.setup import init_state

FIXED = {"score", "order", "value_scale", "explore"}


@njit(cache=True)
def greedy_match(T, W0, W1, seed):
    """One 2-player game: seat 0 plays weights ``W0``, seat 1 ``W1``; returns seat 0's result
    (1 win, 0.5 shared, 0 loss) under R18."""
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    P = np.zeros(L.S_SIZE, dtype=np.int64)
    D = np.zeros(L.S_SIZE, dtype=np.int64)
    work = np.zeros(L.S_SIZE, dtype=np.int64)
    scratch = np.zeros(L.S_SIZE, dtype=np.int64)
    mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
    vals = np.zeros(L.N_ACTIONS, dtype=np.float64)
    tally = np.zeros(SR.N_TALLY, dtype=np.float64)
    init_state(S, T, 2, seed, 0)
    k = 0
    while S[L.S_TERMINAL] == 0:
        p = S[L.S_CUR]
        scrub(S, T, p, P)
        determinize(P, T, p, seed * 100_003 + k, D)
        W = W0 if p == 0 else W1
        a = SR.greedy_pick(D, T, W, mask, SR.ANYTIME_SOME, vals, work, tally, scratch)
        SR.apply_action(S, T, a)
        k += 1
    win = winners_mask(S, T)
    if win[0] and win[1]:
        return 0.5
    return 1.0 if win[0] else 0.0


def match(T, Wa, Wb, seeds) -> float:
    """Win share of ``Wa`` against ``Wb`` over both seats of every seed."""
    tot = 0.0
    for s in seeds:
        tot += greedy_match(T, Wa, Wb, np.int64(s))
        tot += 1.0 - greedy_match(T, Wb, Wa, np.int64(s))
    return tot / (2 * len(seeds))


def main(argv=None) -> int:
    """Command-line entry point."""
    import yaml
    from electrify_env.agents.greedy import GreedyWeights, load_weights

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--start", default=None, help="starting weights (default: configs/agents/greedy.yaml)")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--games", type=int, default=200, help="games per comparison (two per seed)")
    ap.add_argument("--sigma", type=float, default=0.3)
    ap.add_argument("--accept", type=float, default=0.55)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default=None, help="write the tuned weights here (YAML)")
    args = ap.parse_args(argv)
    T = load_card_set().table
    best = load_weights(args.start)
    names = list(SR.WEIGHT_NAMES)
    rng = np.random.default_rng(args.seed)
    tunable = [i for i, n in enumerate(names) if n not in FIXED]
    Wb = best.to_array()  # read-only, as the agents pass it (one numba signature)
    t0 = time.time()
    for step in range(args.steps):
        Wc = Wb.copy()  # writable until the perturbation is done
        for i in rng.choice(tunable, size=3, replace=False):
            Wc[i] = Wc[i] * float(np.exp(args.sigma * rng.standard_normal())) if Wc[i] != 0 else 0.05 * rng.random()
        seeds = np.arange(args.games // 2) + 1_000_000 * (step + 1) + args.seed
        Wc.flags.writeable = False
        share = match(T, Wc, Wb, seeds)
        kept = share > args.accept
        if kept:
            Wb = Wc
        print(f"step {step:3d}  share {share:.3f}  {'kept' if kept else '    '}  {time.time() - t0:6.0f}s", flush=True)
    final = GreedyWeights.from_array(Wb)
    text = yaml.safe_dump(final.to_dict(), sort_keys=False)
    if args.out:
        Path(args.out).write_text(final.yaml_text())
        print(f"wrote {args.out}")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
