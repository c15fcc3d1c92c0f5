"""Where does a distilled network part from its teacher?  Per decision type, how often the
student's most likely action is the teacher's, at the student's own decisions in its games
against greedy.  Prints figures, asserts nothing.

    python benchmarks/distill_agreement.py policies/electrify-2p-net.pt --teacher policies/electrify-2p.pt

``--games`` games of the teacher's player count are played at once (seeds ``--seed`` + i): the
student plays seat ``i % players`` of game i by its most likely action, greedy the others.  At
every decision of the student's with two or more legal actions the teacher gives its choice
too: its most likely action (network and prior) or, where one of its afterstate critics decides,
that critic's pick (``electrify_env.training.distill.critic_picks``; ``--no-critic``: never); each game counts
until it ends once.  For each decision type (the pending frame, ``electrify_env.decision``):
decisions, share of all, agreement, and the misses per game.
"""
from __future__ import annotations

import argparse
import time


def main(argv=None) -> None:
    """Play the games, compare the two networks' choices, print a line per decision type."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("student", help="the distilled policy (.pt)")
    ap.add_argument("--teacher", default="policies/electrify-2p.pt", help="the policy it learned from (.pt)")
    ap.add_argument("--games", type=int, default=128, help="games played (default 128)")
    ap.add_argument("--seed", type=int, default=777, help="seed of the first game")
    ap.add_argument("--no-critic", dest="critic", action="store_false",
                    help="compare with the teacher's network and prior even where its critics decide")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error("--games must be at least 1")

    import numpy as np
    import torch

    from electrify_env.decision import FRAME_KINDS, pending_frame_type
    from electrify_env.envs._common import card_set_and_options
    from electrify_env.training.distill import critic_picks
    from electrify_env.agents.net import compute_prior, load_policy
    from electrify_env.training.selfplay import Games, greedy_act, greedy_weights

    torch.set_num_threads(1)
    teacher, _ = load_policy(args.teacher)
    n = teacher.n_players
    student, _ = load_policy(args.student, n_players=n)
    cards, options = card_set_and_options(None, ())
    rng = np.random.default_rng(args.seed)
    W = greedy_weights()
    k = args.games
    games = Games(k, n, cards, options, None, args.seed + np.arange(k, dtype=np.int64))
    seat = np.arange(k) % n
    live = np.ones(k, dtype=np.bool_)
    rows = np.arange(k)
    actions = np.empty(k, dtype=np.int64)
    counts: dict[int, list[int]] = {}
    names = dict(FRAME_KINDS)
    t0 = time.perf_counter()
    while live.any():
        mask = games.masks.view(np.bool_)
        prior = compute_prior(teacher, games.States, games.T, rows, rng)
        obs, m = torch.from_numpy(games.obs[:, :student.n_inputs]), torch.from_numpy(mask)
        with torch.inference_mode():
            tl = teacher(obs, m, None if prior is None else torch.from_numpy(prior))[0].numpy()
            s_best = student(obs, m)[0].argmax(-1).numpy()
        t_best = tl.argmax(-1)
        legal_n = mask.sum(1)
        if args.critic:
            crows, picks = critic_picks(teacher, games, tl, legal_n, rng)
            t_best[crows] = picks
        mine = games.movers == seat
        for r in np.flatnonzero(mine & live & (legal_n > 1)):
            c = counts.setdefault(pending_frame_type(games.States[r]), [0, 0])
            c[0] += 1
            c[1] += int(t_best[r] == s_best[r])
        actions[:] = s_best
        others = np.flatnonzero(~mine)
        if others.size:
            actions[others] = greedy_act(games, others, W, rng)
        live[games.step(actions)] = False
    total = sum(c[0] for c in counts.values())
    agree = sum(c[1] for c in counts.values())
    print(f"{args.student} against {args.teacher}{'' if args.critic else ' (no critic)'}: {k} games against greedy, seeds {args.seed} on, "
          f"{total:,} decisions, agreement {agree / max(total, 1):.3f} ({time.perf_counter() - t0:.0f} s)")
    for frame, (d, a) in sorted(counts.items(), key=lambda kv: -kv[1][0]):
        print(f"  {names.get(frame, frame)!s:14} {d:7,} decisions  share {d / total:.3f}  agreement {a / d:.3f}  "
              f"misses per game {(d - a) / k:.2f}")


if __name__ == "__main__":
    main()
