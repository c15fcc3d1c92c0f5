"""Compare a trained policy with the random agent on the same games.

    python -m electrify_env.training.evaluate --policy runs/ppo_solo/policy.zip [--episodes 200] [--scenario ID]

The policy's metadata (``policy.meta.json``) is checked against this engine (observation
layout, action space, card set) and gives the env: a solo policy plays its scenario (unless
``--scenario`` overrides it), a one-seat policy its player count and seat against random
opponents.  Both the policy and the random agent play the games with seeds
``--seed0 .. --seed0 + episodes - 1``; the script prints the mean final score (solo: energy
points + star points; one seat: energy points) with its standard error, the mean energy points,
the mean margin (to the target, or to the best opponent) and the win rate of each, and the
difference.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .common import evaluate, model_policy, random_policy


def compare(policy_path: str | Path, episodes: int = 200, scenario: str | None = None,
            seed0: int = 1_000_000, deterministic: bool = True) -> dict:
    """Evaluate the policy and the random agent on the same ``episodes`` games; return both
    summaries (and where they played: the scenario, or the players and seat)."""
    from sb3_contrib import MaskablePPO

    from electrify_env.cards import load_card_set
    from electrify_env.game import resolve_tech_pack
    from electrify_env.agents.policy_meta import check_compatible, load_policy_metadata

    meta = load_policy_metadata(policy_path)
    packs = meta.get("tech_packs", [])
    cards = load_card_set(None, tech_packs=tuple(resolve_tech_pack(p) for p in packs))
    check_compatible(meta, cards.hash, where=str(policy_path))
    if meta.get("env_id") == "Electrify-Solo-v0":
        mode = "solo"
        scenario = scenario or meta["scenario"]
        kwargs = {"scenario": scenario, "tech_packs": tuple(packs)}
        where = scenario
    elif meta.get("env_id") == "Electrify-v0":
        if scenario is not None:
            raise ValueError("--scenario applies to solo policies only")
        mode = "seat"
        kwargs = {"n_players": meta["n_players"], "seat": meta.get("seat"), "tech_packs": tuple(packs)}
        where = f"{meta['n_players']} players, seat {meta.get('seat')}"
    else:
        raise ValueError(f"{policy_path}: a policy for {meta.get('env_id')!r}, not an Electrify env")
    model = MaskablePPO.load(policy_path, device="cpu")
    pol = evaluate(model_policy(model, deterministic), mode, kwargs, episodes, seed0)
    rnd = evaluate(random_policy(0), mode, kwargs, episodes, seed0)
    return {"scenario": where, "episodes": episodes, "seeds": [seed0, seed0 + episodes - 1],
            "policy": pol.summary(), "random": rnd.summary(),
            "difference": pol.mean_final_score - rnd.mean_final_score}


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    ap = argparse.ArgumentParser(prog="python -m electrify_env.training.evaluate", description=__doc__.splitlines()[0])
    ap.add_argument("--policy", required=True, help="policy zip saved by electrify_env.training.train_solo")
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--scenario", default=None, help="scenario id (default: the one trained on)")
    ap.add_argument("--seed0", type=int, default=1_000_000, help="seed of the first game")
    ap.add_argument("--sample", action="store_true", help="sample the policy's actions instead of argmax")
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    args = ap.parse_args(argv)
    if args.episodes < 1:
        ap.error("--episodes must be >= 1")
    res = compare(args.policy, args.episodes, args.scenario, args.seed0, not args.sample)
    if args.json:
        print(json.dumps(res, indent=2))
        return 0
    print(f"{res['episodes']} games of {res['scenario']} (seeds {res['seeds'][0]}..{res['seeds'][1]})")
    for who in ("policy", "random"):
        s = res[who]
        print(f"  {who:<7} mean final score {s['mean_final_score']:6.2f} +/- {s['stderr']:.2f}   "
              f"mean energy points {s['mean_score']:6.2f}   mean margin {s['mean_margin']:+6.2f}   "
              f"win rate {s['win_rate']:.3f}")
    print(f"  difference (policy - random): {res['difference']:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
