"""How much does greedy's logit prior add to a policy's network, and at which weight?  Side by
side in one run.  Prints figures, asserts nothing.

    python benchmarks/prior_scale.py policies/electrify-2p-net.pt --scales 0,1,2,4 --games 2000 --seed 7000000
    python benchmarks/prior_scale.py policies/electrify-4p.pt --scales 0,2
    python benchmarks/prior_scale.py policies/electrify-solo.pt --scales 2 --scenario long_haul --seed 1000000

The policy's network (whether or not the file adds a prior) is wrapped as ``python -m
electrify_env.training.ship SRC DEST --prior greedy --prior-scale S`` ships it
(:class:`electrify_env.agents.net.PolicyValueNet` with ``prior="greedy"``, the same weights; scale 0 = the
network alone, without any prior; an afterstate critic the file has is left out: the
policy's own choices) and plays the trainer's evaluation games
(:func:`electrify_env.training.selfplay.evaluate_policy`: games with seeds ``--seed`` + i, greedy in every other
seat, the policy's seat rotated; solo: the scenarios drawn per seed, or with ``--scenario`` that
one, as a training run with ``scenario: ID`` evaluates) at each scale, on the same seeds.
"""
from __future__ import annotations

import argparse
import time


def main(argv=None) -> None:
    """Wrap the policy at each scale, play the evaluation games, print (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("policy", help="a saved policy (.pt with .meta.json); its prior, if any, is replaced")
    ap.add_argument("--scales", default="0,1,2,4", help="comma-separated prior weights (0: none)")
    ap.add_argument("--games", type=int, default=400, help="evaluation games per scale (default 400)")
    ap.add_argument("--seed", type=int, default=7_000_000, help="seed of the first game")
    ap.add_argument("--scenario", default=None,
                    help="solo policies: play this scenario only (default: every scenario, drawn per seed)")
    args = ap.parse_args(argv)

    import torch

    from electrify_env.envs._common import card_set_and_options, scenario_list
    from electrify_env.agents.net import PolicyValueNet, load_policy, transfer_weights
    from electrify_env.training.selfplay import evaluate_policy

    torch.set_num_threads(1)
    src, meta = load_policy(args.policy)
    n = src.n_players
    cards, options = card_set_and_options(None, tuple(meta.get("tech_packs") or ()))
    if args.scenario is not None and n != 1:
        ap.error(f"--scenario: {args.policy} is a {n}-player policy; --scenario is for solo policies")
    scenarios = scenario_list(args.scenario) if n == 1 else None
    key = "success_rate" if n == 1 else "win_rate"
    print(f"{args.policy} ({n} player{'s' if n > 1 else ''}), {args.games} games from seed {args.seed}, "
          + ("greedy in the other seats" if n > 1 else f"scenario {args.scenario or 'drawn per game'}"))
    if src.critics:
        print(f"  (its afterstate critic{'s' if len(src.critics) > 1 else ''} left out: the network's own choices)")
    for scale in (float(s) for s in args.scales.split(",")):
        net = transfer_weights(src, PolicyValueNet(n, src.hidden, init=False, prior="greedy", prior_scale=scale)
                               if scale > 0 else PolicyValueNet(n, src.hidden, init=False))
        net.eval()
        t = time.perf_counter()
        res = evaluate_policy(net, n, args.games, args.seed, cards, options, scenarios,
                              fixed_scenario=args.scenario is not None)
        extra = "" if n == 1 else f", mean margin {res['mean_margin']:+.2f}"
        print(f"  prior scale {scale:g}: {key} {res[key]:.3f}, mean points {res['mean_points']:.2f}{extra} "
              f"({time.perf_counter() - t:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
