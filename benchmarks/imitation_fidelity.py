"""How well can the policy network imitate a teacher?  Held-out agreement by decision type.
Prints figures, asserts nothing.

    electrify teacher-data --agent greedy --players 2 --games 300 --seed 0 --out greedy2p.jsonl
    python benchmarks/imitation_fidelity.py greedy2p.jsonl [--hidden 256,128] [--epochs 6]

The teacher file's decisions (``electrify_env.training.teacher.load_teacher_data``) are split by game (every
fifth game held out); a fresh :class:`electrify_env.agents.net.PolicyValueNet` learns the teacher's choice by
cross-entropy over the legal actions (decisions with one legal action are left out), and after
each pass the script prints the agreement (argmax == the teacher's action) on the training and
held-out decisions, then the held-out agreement per pending-decision type (``layout.FT_*``) and
the most common (teacher, network) action-field pairs among the held-out misses.  Many misses are
harmless orderings (which column to transmit first, which charged card to discharge first), so
agreement understates how closely the network plays like its teacher.

With ``--init POLICY`` the learner is that saved policy instead of a fresh network (its greedy
prior, if it has one, computed for every decision as the file is loaded), and a "pass 0" line
gives its agreement before any training: how far a trained policy can be pulled toward a
stronger teacher's choices (expert iteration), for instance the search it guides:

    electrify teacher-data --agent mcts:iters=36:top_k=3:horizon=2:guide=trained_2p --players 2 \
        --games 60 --seed 1001 --jobs 2 --out guided2p.jsonl
    python benchmarks/imitation_fidelity.py guided2p.jsonl --init policies/electrify-2p.pt --lr 1e-4 --epochs 3

``--prior-scales 1,2,3`` first prints the held-out agreement of that policy with its greedy prior
weighted otherwise (the network's logits unchanged), in all and on the decision types the search
agent searches.
"""
from __future__ import annotations

import argparse
import time
from collections import Counter

import numpy as np


def main(argv=None) -> None:
    """Train, evaluate and print (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("teacher_file", help="a file written by `electrify teacher-data` (or an arena games.jsonl)")
    ap.add_argument("--hidden", default="256,128", help="hidden layer sizes (default 256,128: the shipped policies')")
    ap.add_argument("--epochs", type=int, default=6, help="passes over the training decisions")
    ap.add_argument("--minibatch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1, help="torch threads")
    ap.add_argument("--init", default=None, metavar="POLICY",
                    help="fine-tune this saved policy (.pt; its prior included) instead of a fresh network")
    ap.add_argument("--prior-scales", default=None, metavar="LIST",
                    help="with --init and a policy with a prior: before training, the held-out agreement "
                         "with the prior weighted by each of these (comma-separated) instead of the file's")
    args = ap.parse_args(argv)

    import torch

    from electrify_env.engine import layout as L
    from electrify_env.engine.observe import O_FRAME
    from electrify_env.agents.net import PolicyValueNet, load_policy
    from electrify_env.training.teacher import load_teacher_data

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    net = None
    if args.init is not None:
        net, _ = load_policy(args.init)
    data = load_teacher_data(args.teacher_file, trim=True, progress=True,
                             prior_weights=None if net is None else net.prior_weights, prior_seed=args.seed)
    n_players = int(data.records[0]["n_players"])
    obs, masks, acts = data.observations, data.masks.astype(bool), data.actions.astype(np.int64)
    frame = obs[:, O_FRAME:O_FRAME + L.N_FRAME_TYPES].argmax(1)
    choice = masks.sum(1) > 1
    held = data.games % 5 == 0
    train_idx = np.flatnonzero(~held & choice)
    test_idx = np.flatnonzero(held & choice)
    print(f"{len(obs):,} decisions of {len(set(data.games.tolist()))} games ({n_players} players); "
          f"{len(train_idx):,} training and {len(test_idx):,} held-out decisions with a choice")

    if net is None:
        net = PolicyValueNet(max(n_players, 1), [int(h) for h in args.hidden.split(",")])
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    O, M, A = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(acts)
    P = None if data.priors is None else torch.from_numpy(data.priors)

    def forward(b, prior_weight: float = 1.0):
        """The logits of decisions ``b``; the prior (if any) counted ``prior_weight`` times."""
        return net(O[b], M[b], None if P is None else prior_weight * P[b])[0]

    def logits(idx: np.ndarray, prior_weight: float = 1.0) -> torch.Tensor:
        with torch.inference_mode():
            return torch.cat([forward(idx[i:i + 4096], prior_weight) for i in range(0, len(idx), 4096)])

    def predict(idx: np.ndarray) -> np.ndarray:
        return logits(idx).argmax(1).numpy()

    def report(ep: int, t: float, loss: float | None) -> np.ndarray:
        sample = train_idx[:len(test_idx)]
        train_ok = (predict(sample) == acts[sample]).mean()
        pred = predict(test_idx)
        print(f"pass {ep}: agreement train {train_ok:.3f}  held-out {(pred == acts[test_idx]).mean():.3f}  "
              + ("" if loss is None else f"loss {loss:.3f}  ") + f"({time.perf_counter() - t:.0f} s)", flush=True)
        return pred

    if args.prior_scales:
        if P is None:
            raise SystemExit("--prior-scales needs --init with a policy that adds a prior")
        from electrify_env.agents.mcts import KEY_FRAMES

        base = logits(test_idx, prior_weight=0.0)   # the network's own logits, then each weight added
        key = np.isin(frame[test_idx], list(KEY_FRAMES))
        for scale in [float(x) for x in args.prior_scales.split(",")]:
            hit = (base + scale * P[test_idx]).argmax(1).numpy() == acts[test_idx]
            print(f"prior weight {scale:g}: held-out agreement {hit.mean():.3f}  on the searched decision "
                  f"types (electrify_env.agents.mcts.KEY_FRAMES, {int(key.sum()):,}) {hit[key].mean():.3f}")
        hit = P[test_idx].masked_fill(~M[test_idx], -1.0).argmax(1).numpy() == acts[test_idx]
        print(f"the prior alone: held-out agreement {hit.mean():.3f}  on the searched decision types {hit[key].mean():.3f}")
    if args.init is not None:
        before = report(0, time.perf_counter(), None)
        before_ok = before == acts[test_idx]
    for ep in range(args.epochs):
        t = time.perf_counter()
        order = rng.permutation(train_idx)
        total = 0.0
        for i in range(0, len(order), args.minibatch):
            b = order[i:i + args.minibatch]
            loss = torch.nn.functional.cross_entropy(forward(b), A[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
        pred = report(ep + 1, t, total / max(len(order), 1))
    if args.epochs == 0:
        pred = predict(test_idx)
    ok = pred == acts[test_idx]

    frame_names = {v: k for k, v in vars(L).items() if k.startswith("FT_") and isinstance(v, int)}
    print("held-out agreement by decision type" + (" (before training -> after)" if args.init else "") + ":")
    for f in range(L.N_FRAME_TYPES):
        sel = frame[test_idx] == f
        if sel.any():
            was = f"{before_ok[sel].mean():.3f} -> " if args.init else ""
            print(f"  {frame_names.get(f, f):<16} {int(sel.sum()):>7,} decisions  agreement {was}{ok[sel].mean():.3f}  "
                  f"legal actions {masks[test_idx][sel].sum(1).mean():.1f}")
    fields = [(name, off, n) for name, off, n, _ in L.layout_rows()["action ids"]]

    def field(a: int) -> str:
        return next(name for name, off, n in fields if off <= a < off + n)

    misses = Counter((field(t), field(p)) for t, p in zip(acts[test_idx][~ok], pred[~ok]))
    print("most common held-out misses (teacher's field -> network's field):")
    for (t, p), k in misses.most_common(8):
        print(f"  {t} -> {p}: {k:,}")


if __name__ == "__main__":
    main()
