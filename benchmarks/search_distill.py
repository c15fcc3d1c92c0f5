"""Distil the policy-guided search into the policy on chosen decision types (expert iteration on
the learner's own states).  Prints figures, asserts nothing.

``collect`` plays seeded self-play games of a policy (every seat) and, at each decision of the
chosen types (default Plan and the boosts: the decisions on which the search departs most from
its guide), asks a teacher agent (default the search guided by that policy) for its choice in
the same seat view; the learner's own choice is played (DAgger: the labels lie on the states the
learner reaches).  Each labelled decision is stored with the learner's observation, legal mask
and logit prior, and a tenth of the other decisions as anchors (their logits, to hold them
still).  Shards of ``--shard`` games are written as they finish, so a stopped run keeps them:

    python benchmarks/search_distill.py collect --out runs/distill --seed 0 --games 4000

``fit`` fine-tunes the policy toward the labels (cross-entropy over the legal actions) with a
KL pull toward its own logits on the anchors, every fifth game held out, and prints the held-out
agreement with the teacher per decision type before and after each pass; ``--save`` writes the
fine-tuned policy (same architecture and metadata, ``init_from`` the original):

    python benchmarks/search_distill.py fit runs/distill --epochs 4 --save runs/distill/policy.pt

``--head-only`` trains only the policy-head rows of the labelled decision types' action ids (the
trunk and every other row frozen), so no other decision changes at all; ``--among-top K`` ranks
each label among the original policy's top K actions only (the guided search chooses among its
guide's top 3); ``--scorer`` keeps the policy and trains a residual scorer shared by all
actions over the card each one names (a probe of how learnable the labels are; saves nothing).
"""
from __future__ import annotations

import argparse
import glob
import time
from pathlib import Path

import numpy as np

DEFAULT_POLICY = "policies/electrify-2p.pt"
DEFAULT_TEACHER = "mcts:iters=36:top_k=3:horizon=2:guide={policy}"


def _frames(spec: str) -> set[int]:
    """The frame codes of ``--frames`` (:func:`electrify_env.decision.parse_frame_kinds`); exits
    with its message on an unknown name."""
    from electrify_env.decision import parse_frame_kinds
    try:
        return parse_frame_kinds(spec)
    except ValueError as err:
        raise SystemExit(str(err)) from None


def collect(args) -> None:
    """Play, label and write shards (see the module docstring)."""
    import torch

    from electrify_env.agents import make_agent, seat_view
    from electrify_env.decision import pending_frame_type
    from electrify_env import Game
    from electrify_env.agents.net import load_policy

    torch.set_num_threads(1)
    frames = _frames(args.frames)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    net, _ = load_policy(args.policy)
    learner = make_agent(f"net:path={args.policy}")
    teacher = make_agent(args.teacher.format(policy=args.policy))
    rng = np.random.default_rng(args.seed)
    buf: dict[str, list] = {k: [] for k in ("obs", "mask", "prior", "label", "own", "frame", "game", "anchor")}
    t0 = time.perf_counter()
    n_lab = n_agree = 0

    def flush(k: int) -> None:
        if not buf["obs"]:
            return
        np.savez_compressed(out / f"shard-s{args.seed}-{k:05d}.npz",
                            obs=np.stack(buf["obs"]).astype(np.float32), mask=np.stack(buf["mask"]).astype(bool),
                            prior=np.stack(buf["prior"]).astype(np.float32), label=np.array(buf["label"], np.int64),
                            own=np.array(buf["own"], np.int64), frame=np.array(buf["frame"], np.int64),
                            game=np.array(buf["game"], np.int64), anchor=np.array(buf["anchor"], bool))
        for v in buf.values():
            v.clear()

    for gi in range(args.games):
        gseed = args.seed * 1_000_000 + gi
        game = Game(2, seed=gseed)
        learner.reset(seed=gseed + 1)
        teacher.reset(seed=gseed + 2)
        while not game.is_terminal:
            view = seat_view(game)
            if int(view.mask.sum()) < 2:
                game.step(int(np.flatnonzero(view.mask)[0]))
                continue
            f = pending_frame_type(view.infoset)
            prior = learner._prior_row(view, net)
            own = int(net.act(view.observation[None, :], view.mask[None, :], True, None, prior)[0])
            labelled = f in frames
            if labelled or rng.random() < args.anchor_rate:
                label = int(teacher.act(view)) if labelled else own
                buf["obs"].append(view.observation[:net.n_inputs].copy())
                buf["mask"].append(view.mask.astype(bool))
                buf["prior"].append(np.zeros(0, np.float32) if prior is None else prior[0].copy())
                buf["label"].append(label)
                buf["own"].append(own)
                buf["frame"].append(f)
                buf["game"].append(gseed)
                buf["anchor"].append(not labelled)
                if labelled:
                    n_lab += 1
                    n_agree += label == own
            game.step(own)
        if (gi + 1) % args.shard == 0 or gi + 1 == args.games:
            flush(gi // args.shard)
            dt = time.perf_counter() - t0
            print(f"{gi + 1} games, {n_lab:,} labels (learner agrees {n_agree / max(n_lab, 1):.3f}), "
                  f"{dt:.0f} s, {(gi + 1) / dt * 3600:.0f} games/h", flush=True)


def _load(folder: str):
    files = sorted(glob.glob(str(Path(folder) / "shard-*.npz")))
    if not files:
        raise SystemExit(f"no shard-*.npz in {folder}")
    parts = [dict(np.load(f)) for f in files]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}, len(files)


def fit(args) -> None:
    """Fine-tune toward the labels and report (see the module docstring)."""
    import torch

    from electrify_env.decision import FRAME_KINDS as names
    from electrify_env.agents.net import PolicyValueNet, load_policy, save_policy, transfer_weights

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    d, n_files = _load(args.folder)
    net, meta = load_policy(args.policy)
    if net.critic is not None:   # it scores the embeddings of the trunk this fit changes
        net = transfer_weights(net, PolicyValueNet(net.n_players, net.hidden, init=False, prior=net.prior,
                                                   prior_scale=net.prior_scale, prior_weights=net.prior_weights))
        print(f"note: {args.policy} has an afterstate critic; this fit tunes the policy without it "
              "(the saved copy has none)")
    O = torch.from_numpy(d["obs"])
    M = torch.from_numpy(d["mask"])
    P = None if net.prior == "none" else torch.from_numpy(d["prior"])
    Y = torch.from_numpy(d["label"])
    frame, anchor = d["frame"], d["anchor"]
    held = (d["game"] % 5) == 0
    lab_tr = np.flatnonzero(~anchor & ~held)
    lab_te = np.flatnonzero(~anchor & held)
    anc_tr = np.flatnonzero(anchor & ~held)
    anc_te = np.flatnonzero(anchor & held)
    print(f"{n_files} shards: {len(lab_tr) + len(lab_te):,} labelled decisions "
          f"({len(lab_te):,} held out), {len(anc_tr) + len(anc_te):,} anchors")

    def logits(idx) -> torch.Tensor:
        with torch.inference_mode():
            return torch.cat([net(O[idx[i:i + 4096]], M[idx[i:i + 4096]],
                                  None if P is None else P[idx[i:i + 4096]])[0]
                              for i in range(0, len(idx), 4096)])

    orig_anchor = logits(np.arange(len(O))[anchor]) if anchor.any() else None
    CM = M   # the actions the labels' cross-entropy ranks: every legal one, or the original top k
    if args.among_top:
        top = torch.zeros_like(M).scatter_(1, logits(np.arange(len(O))).topk(args.among_top, dim=1).indices, True)
        rows = torch.arange(len(O))
        outside = int((~top[rows, Y] & ~torch.from_numpy(anchor)).sum())
        CM = top & M
        CM[rows, Y] = True
        print(f"cross-entropy among the original top {args.among_top} (labels outside them: {outside})")
    pos = np.full(len(O), -1)
    pos[np.flatnonzero(anchor)] = np.arange(int(anchor.sum()))

    def report(tag: str) -> None:
        pred = logits(lab_te).argmax(1).numpy()
        ok = pred == d["label"][lab_te]
        own = d["own"][lab_te] == d["label"][lab_te]
        parts = [f"{names[f]} {ok[frame[lab_te] == f].mean():.3f} (learner {own[frame[lab_te] == f].mean():.3f}, "
                 f"{int((frame[lab_te] == f).sum()):,})" for f in sorted(set(frame[lab_te].tolist()))]
        moved = ""
        if len(anc_te):
            same = (logits(anc_te).argmax(1).numpy() == d["own"][anc_te]).mean()
            moved = f"; anchors unchanged {same:.4f}"
        print(f"{tag}: held-out agreement with the teacher {ok.mean():.3f}: " + ", ".join(parts) + moved, flush=True)

    report("before")
    if args.scorer:
        return fit_scorer(args, d, net, O, M, P, Y, lab_tr, lab_te, names, rng)
    if args.head_only:
        # the ids legal at labelled decisions and never at an anchor (Plan's five, not the
        # discards that are legal everywhere)
        lab_ids = np.flatnonzero(d["mask"][~anchor].any(0) & ~d["mask"][anchor].any(0))
        for p in net.parameters():
            p.requires_grad_(False)
        net.pi.weight.requires_grad_(True)
        net.pi.bias.requires_grad_(True)
        keep = torch.ones(net.pi.weight.shape[0], 1)
        keep[torch.from_numpy(lab_ids)] = 0.0
        keep_w, keep_b = net.pi.weight.detach().clone(), net.pi.bias.detach().clone()
        print(f"head only: {len(lab_ids)} action ids trainable")
    params = [p for p in net.parameters() if p.requires_grad]
    opt = torch.optim.Adam(params, lr=args.lr)
    net.train()
    for ep in range(args.epochs):
        t = time.perf_counter()
        order = rng.permutation(lab_tr)
        tot = 0.0
        for i in range(0, len(order), args.minibatch):
            b = order[i:i + args.minibatch]
            lg = net(O[b], M[b], None if P is None else P[b])[0]
            loss = torch.nn.functional.cross_entropy(lg.masked_fill(~CM[b], -1e8), Y[b])
            if args.kl > 0 and len(anc_tr) and not args.head_only:
                a = rng.choice(anc_tr, size=min(len(anc_tr), args.minibatch))
                la = net(O[a], M[a], None if P is None else P[a])[0]
                ref = torch.log_softmax(orig_anchor[torch.from_numpy(pos[a])], -1)
                new = torch.log_softmax(la, -1)
                kl = (ref.exp() * (ref - new)).masked_fill(~M[a], 0.0).sum(-1).mean()
                loss = loss + args.kl * kl
            opt.zero_grad()
            loss.backward()
            opt.step()
            if args.head_only:
                with torch.no_grad():
                    net.pi.weight.copy_(keep * keep_w + (1 - keep) * net.pi.weight)
                    net.pi.bias.copy_(keep[:, 0] * keep_b + (1 - keep[:, 0]) * net.pi.bias)
            tot += loss.item() * len(b)
        net.eval()
        report(f"pass {ep + 1} (loss {tot / max(len(order), 1):.3f}, {time.perf_counter() - t:.0f} s)")
        net.train()
    net.eval()
    if args.save:
        from electrify_env.agents.net import lineage
        keep_meta = {k: meta[k] for k in ("steps", "imitation_steps", "env_steps", "train_seconds") if k in meta}
        cfg = dict(meta.get("config") or {})
        cfg["search_distill"] = {"folder": str(args.folder), "labels": int(len(lab_tr)), "epochs": args.epochs,
                                 "lr": args.lr, "kl": args.kl, "head_only": bool(args.head_only),
                                 "among_top": args.among_top}
        path = save_policy(net, args.save, meta["card_set_hash"], meta["env_id"],
                           config=cfg, init_from=lineage(args.policy, meta),
                           **keep_meta)
        print(f"saved {path}")


def fit_scorer(args, d, net, O, M, P, Y, lab_tr, lab_te, names, rng) -> None:
    """``fit --scorer``: the policy frozen, a residual per-action scorer learns the labels.

    Every legal action of a labelled decision gets a score from one small MLP shared by all
    actions, over the policy trunk's embedding of the observation, a learned linear context of
    the observation, the face features of the hand card the action names (``A_CARD_HAND`` /
    ``A_DISCARD`` slot h: the observation's ``hand`` block h; zeros for other actions) and a
    learned embedding of the action id; the score is added to the policy's logits and starts at
    zero.  One set of weights scores the card in every hand slot, where the policy head has one
    row per slot.  A probe of how learnable the labels are (nothing is saved)."""
    import torch
    from torch import nn

    from electrify_env.engine import layout as L
    from electrify_env.engine import observe as OB

    F = len(OB.FACE_FEATURE_NAMES)
    with torch.inference_mode():
        H = torch.cat([net.embed(O[i:i + 4096]) for i in range(0, len(O), 4096)])
        base = torch.cat([net.masked_logits(H[i:i + 4096], M[i:i + 4096], None if P is None else P[i:i + 4096])
                          for i in range(0, len(O), 4096)])
    width = H.shape[1]

    class Scorer(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.ctx = nn.Linear(O.shape[1], width)
            self.emb = nn.Embedding(L.N_ACTIONS, 16)
            self.mlp = nn.Sequential(nn.Linear(2 * width + F + 16, 128), nn.ReLU(), nn.Linear(128, 1))
            nn.init.zeros_(self.mlp[2].weight)
            nn.init.zeros_(self.mlp[2].bias)

        def forward(self, idx: torch.Tensor) -> torch.Tensor:
            n = len(idx)
            card = torch.zeros(n, L.N_ACTIONS, F)
            hand = O[idx, OB.O_HAND:OB.O_HAND + L.MAX_HAND * F].reshape(n, L.MAX_HAND, F)
            card[:, L.A_CARD_HAND:L.A_CARD_HAND + L.MAX_HAND] = hand
            card[:, L.A_DISCARD:L.A_DISCARD + L.MAX_HAND] = hand
            state = torch.cat([H[idx], torch.relu(self.ctx(O[idx]))], -1)
            x = torch.cat([state[:, None].expand(n, L.N_ACTIONS, -1), card,
                           self.emb.weight[None].expand(n, -1, -1)], -1)
            return base[idx] + self.mlp(x).squeeze(-1).masked_fill(~M[idx], 0.0)

    sc = Scorer()
    opt = torch.optim.Adam(sc.parameters(), lr=args.lr)
    frame = d["frame"]
    for ep in range(args.epochs):
        t = time.perf_counter()
        order = rng.permutation(lab_tr)
        for i in range(0, len(order), args.minibatch):
            b = torch.from_numpy(order[i:i + args.minibatch])
            loss = torch.nn.functional.cross_entropy(sc(b), Y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        with torch.inference_mode():
            ok = np.concatenate([(sc(torch.from_numpy(lab_te[i:i + 1024])).argmax(1) == Y[lab_te[i:i + 1024]]).numpy()
                                 for i in range(0, len(lab_te), 1024)])
        parts = [f"{names[f]} {ok[frame[lab_te] == f].mean():.3f}" for f in sorted(set(frame[lab_te].tolist()))]
        print(f"scorer pass {ep + 1} ({time.perf_counter() - t:.0f} s): held-out agreement with the teacher "
              f"{ok.mean():.3f}: " + ", ".join(parts), flush=True)


def main(argv=None) -> None:
    """Parse the subcommand and run it."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play, label, write shards")
    c.add_argument("--policy", default=DEFAULT_POLICY)
    c.add_argument("--teacher", default=DEFAULT_TEACHER, help="agent spec ({policy} is replaced by --policy)")
    c.add_argument("--frames", default="plan,boost", help="decision kinds to label (electrify_env.decision.FRAME_KINDS names, comma-separated)")
    c.add_argument("--games", type=int, default=1000)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--shard", type=int, default=50, help="games per shard file")
    c.add_argument("--anchor-rate", type=float, default=0.1, help="share of the other decisions kept as anchors")
    c.add_argument("--out", default="runs/distill")
    f = sub.add_parser("fit", help="fine-tune toward the labels")
    f.add_argument("folder")
    f.add_argument("--policy", default=DEFAULT_POLICY)
    f.add_argument("--epochs", type=int, default=4)
    f.add_argument("--lr", type=float, default=1e-4)
    f.add_argument("--kl", type=float, default=1.0, help="weight of the KL pull toward the original on anchors")
    f.add_argument("--minibatch", type=int, default=256)
    f.add_argument("--head-only", action="store_true")
    f.add_argument("--scorer", action="store_true",
                   help="probe: keep the policy, train a residual per-action scorer (saves nothing)")
    f.add_argument("--among-top", type=int, default=0, metavar="K",
                   help="rank the label only among the original policy's top K actions (0: among every legal one)")
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--threads", type=int, default=1)
    f.add_argument("--save", default=None)
    args = ap.parse_args(argv)
    if args.cmd == "fit" and args.scorer and (args.save or args.head_only or args.among_top):
        ap.error("--scorer is a probe: it takes none of --save, --head-only, --among-top")
    collect(args) if args.cmd == "collect" else fit(args)


if __name__ == "__main__":
    main()
