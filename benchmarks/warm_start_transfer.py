"""How well does a saved policy play another player count before any training there?  The
figure behind the warm starts of the shipped policies (``init_policy``).  Prints figures,
asserts nothing.

    python benchmarks/warm_start_transfer.py policies/electrify-2p.pt --players 4
    python benchmarks/warm_start_transfer.py policies/electrify-2p.pt --players 1

Each policy is moved to a network for ``--players`` seats by :func:`electrify_env.agents.net.transfer_weights`
(the inputs of seats it never saw at zero, those it lacks dropped), exactly as ``init_policy``
starts a run, and plays the trainer's evaluation games (``Trainer.evaluate``: seeds from
``eval_seed`` 1,000,000 on, greedy in the other seats, seats rotated; solo: success rate over the
scenarios drawn per seed).
"""
from __future__ import annotations

import argparse
import time


def main(argv=None) -> None:
    """Transfer each policy, play the evaluation games, print (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("policies", nargs="+", help="saved policy files (.pt with .meta.json)")
    ap.add_argument("--players", type=int, required=True, help="1 (solo) to 4")
    ap.add_argument("--games", type=int, default=200, help="evaluation games (default 200)")
    args = ap.parse_args(argv)

    import torch

    from electrify_env.training.config import TrainConfig
    from electrify_env.agents.net import PolicyValueNet, load_policy, transfer_weights
    from electrify_env.training.selfplay import Trainer

    torch.set_num_threads(1)
    tr = Trainer(TrainConfig(n_players=args.players, eval_games=args.games, output_dir="-",
                             tensorboard=False, progress_bar=False), log=lambda *_: None)
    key = "success_rate" if args.players == 1 else "win_rate"
    base = tr.evaluate(None)
    print(f"greedy in the learner's seat: {key} {base[key]:.3f} ({args.games} games, {args.players} players)")
    for path in args.policies:
        src, meta = load_policy(path)
        net = transfer_weights(src, PolicyValueNet(args.players, src.hidden))
        t = time.perf_counter()
        res = tr.evaluate(net)
        print(f"{path} (trained for {meta.get('n_players')} players): {key} {res[key]:.3f}, "
              f"mean points {res['mean_points']:.2f} ({time.perf_counter() - t:.0f} s)")


if __name__ == "__main__":
    main()
