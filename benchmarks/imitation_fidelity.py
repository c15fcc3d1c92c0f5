"""How well can the policy network imitate a teacher?  Held-out agreement by decision type.
Prints figures, asserts nothing.

    electrify teacher-data --agent greedy --players 2 --games 300 --seed 0 --out greedy2p.jsonl
    python benchmarks/imitation_fidelity.py greedy2p.jsonl [--hidden 256,128] [--epochs 6]

The teacher file's decisions (``training.teacher.load_teacher_data``) are split by game (every
fifth game held out); a fresh :class:`training.net.PolicyValueNet` learns the teacher's choice by
cross-entropy over the legal actions (decisions with one legal action are left out), and after
each pass the script prints the agreement (argmax == the teacher's action) on the training and
held-out decisions, then the held-out agreement per pending-decision type (``layout.FT_*``) and
the most common (teacher, network) action-field pairs among the held-out misses.  Many misses are
harmless orderings (which column to transmit first, which charged card to discharge first), so
agreement understates how closely the network plays like its teacher.
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
    args = ap.parse_args(argv)

    import torch

    from electrify_env.engine import layout as L
    from electrify_env.engine.observe import O_FRAME
    from training.net import PolicyValueNet
    from training.teacher import load_teacher_data

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    data = load_teacher_data(args.teacher_file, trim=True, progress=True)
    n_players = int(data.records[0]["n_players"])
    obs, masks, acts = data.observations, data.masks.astype(bool), data.actions.astype(np.int64)
    frame = obs[:, O_FRAME:O_FRAME + L.N_FRAME_TYPES].argmax(1)
    choice = masks.sum(1) > 1
    held = data.games % 5 == 0
    train_idx = np.flatnonzero(~held & choice)
    test_idx = np.flatnonzero(held & choice)
    print(f"{len(obs):,} decisions of {len(set(data.games.tolist()))} games ({n_players} players); "
          f"{len(train_idx):,} training and {len(test_idx):,} held-out decisions with a choice")

    net = PolicyValueNet(max(n_players, 1), [int(h) for h in args.hidden.split(",")])
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    O, M, A = torch.from_numpy(obs), torch.from_numpy(masks), torch.from_numpy(acts)

    def predict(idx: np.ndarray) -> np.ndarray:
        with torch.inference_mode():
            return np.concatenate([net(O[idx[i:i + 4096]], M[idx[i:i + 4096]])[0].argmax(1).numpy()
                                   for i in range(0, len(idx), 4096)])

    for ep in range(args.epochs):
        t = time.perf_counter()
        order = rng.permutation(train_idx)
        for i in range(0, len(order), args.minibatch):
            b = order[i:i + args.minibatch]
            logits, _ = net(O[b], M[b])
            loss = torch.nn.functional.cross_entropy(logits, A[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        sample = train_idx[:len(test_idx)]
        train_ok = (predict(sample) == acts[sample]).mean()
        pred = predict(test_idx)
        ok = pred == acts[test_idx]
        print(f"pass {ep + 1}: agreement train {train_ok:.3f}  held-out {ok.mean():.3f}  "
              f"({time.perf_counter() - t:.0f} s)", flush=True)

    frame_names = {v: k for k, v in vars(L).items() if k.startswith("FT_") and isinstance(v, int)}
    print("held-out agreement by decision type:")
    for f in range(L.N_FRAME_TYPES):
        sel = frame[test_idx] == f
        if sel.any():
            print(f"  {frame_names.get(f, f):<16} {int(sel.sum()):>7,} decisions  agreement {ok[sel].mean():.3f}  "
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
