"""Does a one-ply afterstate head help a network imitate greedy?  Side by side in one run.
Prints figures, asserts nothing.

    python benchmarks/afterstate_imitation.py [--decisions 30000] [--epochs 6] [--players 2] [--seed 0]

Greedy (``configs/agents/greedy.yaml``) picks the legal action whose one-ply afterstate it
values most, and it agrees with itself on 99.7% of 2-player decisions
(``benchmarks/greedy_determinism.py``), while the shipped network architecture imitates it at
about 79% (``benchmarks/imitation_fidelity.py``).  Is what the network misses the afterstates?
This script plays greedy in every seat (``electrify_env.training.selfplay.Games``), records ``--decisions``
decisions with a choice and, for each legal action of each, the observation of the mover after
that action in one determinization of the mover's information set (R26: hidden cards sampled,
as greedy itself does).  Two networks learn greedy's choice on the same decisions (every fifth
game held out), trained in the same loop:

* ``observation MLP``: :class:`electrify_env.agents.net.PolicyValueNet` ([256, 128], the shipped one);
* ``MLP + afterstate head``: the same network's logits plus, for each legal action, a score of
  its afterstate observation by a second MLP ([128] -> 1).

After each pass it prints the held-out agreement (argmax == greedy's action) of both, and at the
end both per pending-decision type (``layout.FT_*``).
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def main(argv=None) -> None:
    """Collect, train, print (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decisions", type=int, default=30_000, help="decisions with a choice to record")
    ap.add_argument("--epochs", type=int, default=6, help="passes over the training decisions")
    ap.add_argument("--players", type=int, default=2, help="players per game, 2-4")
    ap.add_argument("--games", type=int, default=128, help="games stepped together")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    import torch
    from torch import nn

    from electrify_env.engine import layout as L
    from electrify_env.kernels.afterstate import afterstate_observations
    from electrify_env.engine.infoset import scrub
    from electrify_env.engine.masks import fill_mask
    from electrify_env.engine.observe import O_FRAME, OBS_SIZE, obs_size
    from electrify_env.envs._common import card_set_and_options
    from electrify_env.savefile import FRAME_TYPE_NAMES as names
    from electrify_env.agents.net import MASKED_LOGIT, PolicyValueNet
    from electrify_env.training.selfplay import Games, greedy_act, greedy_weights

    def afterstates(S, T, FF, seed, n_in, mask, info, det, work, row, out_obs, out_ids):
        """Observation prefixes of the mover after each legal action (ascending ids) in one
        determinization of its information set; returns how many (rows of ``out_obs`` /
        ``out_ids``)."""
        p = np.int64(S[L.S_CUR])
        scrub(S, T, p, info)
        fill_mask(S, T, mask)
        ids = np.flatnonzero(mask).astype(np.int64)
        afterstate_observations(info, T, FF, p, np.int64(seed), ids, np.int64(len(ids)), np.int64(n_in),
                                det, work, row, out_obs)
        out_ids[:len(ids)] = ids
        return len(ids)

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    t0 = time.perf_counter()
    cards, options = card_set_and_options(None, ())
    W = greedy_weights()
    n, n_in = args.games, obs_size(args.players)
    g = Games(n, args.players, cards, options, None, rng.integers(0, 1 << 40, n))
    info, det, work = (np.zeros(L.S_SIZE, np.int64) for _ in range(3))
    mask = np.zeros(L.N_ACTIONS, np.uint8)
    row = np.zeros(OBS_SIZE, np.float32)
    out_obs = np.zeros((L.N_ACTIONS, n_in), np.float32)
    out_ids = np.zeros(L.N_ACTIONS, np.int64)
    after, after_ids, offsets, target = [], [], [0], []
    obs, masks, acts, game_of, frame = [], [], [], [], []
    game_id, next_id, step = np.arange(n), n, 0
    while len(target) < args.decisions:
        act = greedy_act(g, np.arange(n), W, rng)
        if step % 4 == 0:   # every fourth step: decisions further apart in each game
            for i in np.flatnonzero(g.masks.sum(1) > 1):
                k = afterstates(g.States[i], g.T, g.FF, int(rng.integers(1 << 40)), n_in, mask, info, det,
                                work, row, out_obs, out_ids)
                after.append(out_obs[:k].astype(np.float16))
                after_ids.append(out_ids[:k].copy())
                offsets.append(offsets[-1] + k)
                target.append(int(np.flatnonzero(out_ids[:k] == act[i])[0]))
                obs.append(g.obs[i, :n_in].copy())
                masks.append(g.masks[i].astype(bool))
                acts.append(act[i])
                game_of.append(game_id[i])
                frame.append(int(g.obs[i, O_FRAME:O_FRAME + L.N_FRAME_TYPES].argmax()))
        for i in g.step(act):
            game_id[i], next_id = next_id, next_id + 1
        step += 1
    AO = torch.from_numpy(np.concatenate(after))
    AI = torch.from_numpy(np.concatenate(after_ids))
    OFF, TGT = np.array(offsets), np.array(target)
    DO, DM = torch.from_numpy(np.stack(obs)), torch.from_numpy(np.stack(masks))
    DA = torch.from_numpy(np.array(acts, dtype=np.int64))
    frame = np.array(frame)
    held = np.array(game_of) % 5 == 0
    train_idx, test_idx = np.flatnonzero(~held), np.flatnonzero(held)
    print(f"greedy in every seat, {args.players} players: {len(TGT):,} decisions with a choice, "
          f"{OFF[-1]:,} afterstates ({time.perf_counter() - t0:.0f} s); {len(train_idx):,} training and "
          f"{len(test_idx):,} held-out decisions")

    def gather(idx):
        """Padded afterstates (B, K, n_in), their validity (B, K) and action ids (B, K)."""
        ks = OFF[idx + 1] - OFF[idx]
        sel = np.zeros((len(idx), ks.max()), np.int64)
        valid = np.zeros(sel.shape, bool)
        for r, d in enumerate(idx):
            sel[r, :ks[r]] = np.arange(OFF[d], OFF[d + 1])
            valid[r, :ks[r]] = True
        t = torch.from_numpy(sel)
        return AO[t].float(), torch.from_numpy(valid), AI[t]

    class WithAfterstates(nn.Module):
        """The observation MLP's logits of the legal actions + an afterstate score each."""

        def __init__(self) -> None:
            super().__init__()
            self.pv = PolicyValueNet(args.players, [256, 128])
            self.head = nn.Sequential(nn.Linear(n_in, 128), nn.ReLU(), nn.Linear(128, 1))

        def forward(self, before, x, valid, ids):
            logits = self.pv.pi(self.pv.embed(before)).gather(1, ids)
            return (logits + self.head(x).squeeze(-1)).masked_fill(~valid, MASKED_LOGIT)

    both = WithAfterstates()
    base = PolicyValueNet(args.players, [256, 128])
    opt_both = torch.optim.Adam(both.parameters(), lr=1e-3)
    opt_base = torch.optim.Adam(base.parameters(), lr=1e-3)
    T_TGT = torch.from_numpy(TGT)

    @torch.no_grad()
    def agreement(idx):
        """Per decision of ``idx``: (with the afterstate head, observation MLP) agree with greedy."""
        a, b = [], []
        for lo in range(0, len(idx), 1024):
            d = idx[lo:lo + 1024]
            x, v, ids = gather(d)
            a.append(both(DO[d], x, v, ids).argmax(1).numpy() == TGT[d])
            b.append(base(DO[d], DM[d])[0].argmax(1).numpy() == DA.numpy()[d])
        return np.concatenate(a), np.concatenate(b)

    for ep in range(args.epochs):
        t = time.perf_counter()
        perm = rng.permutation(train_idx)
        for lo in range(0, len(perm), 512):
            d = perm[lo:lo + 512]
            x, v, ids = gather(d)
            loss = nn.functional.cross_entropy(both(DO[d], x, v, ids), T_TGT[d])
            opt_both.zero_grad()
            loss.backward()
            opt_both.step()
            loss = nn.functional.cross_entropy(base(DO[d], DM[d])[0], DA[d])
            opt_base.zero_grad()
            loss.backward()
            opt_base.step()
        a, b = agreement(test_idx)
        print(f"pass {ep + 1}: held-out agreement  MLP + afterstate head {a.mean():.3f}  observation MLP "
              f"{b.mean():.3f}  ({time.perf_counter() - t:.0f} s)", flush=True)
    print("held-out agreement by decision type (MLP + afterstate head / observation MLP):")
    for f in np.unique(frame[test_idx]):
        s = frame[test_idx] == f
        print(f"  {names.get(int(f), f'frame {f}'):18s} {int(s.sum()):7,} decisions  {a[s].mean():.3f} / {b[s].mean():.3f}")


if __name__ == "__main__":
    main()
