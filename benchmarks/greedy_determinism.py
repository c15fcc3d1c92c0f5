"""How far could a network imitate greedy?  Greedy's agreement with itself.  Prints figures,
asserts nothing.

    python benchmarks/greedy_determinism.py [--players 2] [--games 256] [--steps 1500] [--seed 0]

Greedy (``configs/agents/greedy.yaml``) decides from one determinization of the hidden
information (R26), so it is not a function of the observation alone, and no network can agree
with it more often than it agrees with itself.  This script steps ``--games`` games played by
greedy in every seat (``electrify_env.training.selfplay.Games``, the trainer's own runner) and, at every third
step, asks greedy for each pending decision twice with independent determinization seeds; it
prints how often the two answers agree over the decisions with more than one legal action, in
all and per pending-decision type (``layout.FT_*``).  Set it beside the held-out agreement of
``benchmarks/imitation_fidelity.py`` (a network imitating greedy): the gap between the two is
what the network's input and architecture cannot express, not the teacher's noise.
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def main(argv=None) -> None:
    """Play, compare and print (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2, help="players per game, 1-4 (1: solo scenarios)")
    ap.add_argument("--games", type=int, default=256, help="games stepped together")
    ap.add_argument("--steps", type=int, default=1500, help="steps of every game (finished games restart)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    from electrify_env.engine import layout as L
    from electrify_env.engine.observe import O_FRAME
    from electrify_env.envs._common import card_set_and_options, scenario_list
    from electrify_env.savefile import FRAME_TYPE_NAMES as names
    from electrify_env.training.selfplay import Games, greedy_act, greedy_weights

    t0 = time.perf_counter()
    cards, options = card_set_and_options(None, ())
    W = greedy_weights()
    rng = np.random.default_rng(args.seed)
    scenarios = scenario_list(None) if args.players == 1 else None
    g = Games(args.games, args.players, cards, options, scenarios, rng.integers(0, 1 << 40, args.games))
    rows = np.arange(args.games)
    same = np.zeros(L.N_FRAME_TYPES)
    total = np.zeros(L.N_FRAME_TYPES)
    for step in range(args.steps):
        first = greedy_act(g, rows, W, rng)
        if step % 3 == 0:
            second = greedy_act(g, rows, W, rng)
            choice = g.masks.sum(1) > 1
            frame = g.obs[:, O_FRAME:O_FRAME + L.N_FRAME_TYPES].argmax(1)
            np.add.at(total, frame[choice], 1)
            np.add.at(same, frame[choice], (first == second)[choice])
        g.step(first)
    print(f"greedy in every seat, {args.players} player(s), {args.games} games x {args.steps} steps "
          f"({time.perf_counter() - t0:.0f} s)")
    print(f"agreement of two determinizations: {same.sum() / max(total.sum(), 1):.3f} over "
          f"{int(total.sum()):,} decisions with a choice")
    for f in np.flatnonzero(total):
        print(f"  {names.get(int(f), f'frame {f}'):18s} {int(total[f]):8,} decisions  agreement "
              f"{same[f] / total[f]:.3f}")


if __name__ == "__main__":
    main()
