"""Where does a search's advantage over its guide lie?  The guide with the search on chosen
decision types only, head to head against the guide alone.  Prints figures, asserts nothing.

Two-player games, seats rotated (game ``k`` deals seed ``seed + k // 2``; the hybrid sits in seat
``k % 2``).  The hybrid plays the policy's move at every decision except those of the kinds in
``--frames`` (names of ``electrify_env.decision.FRAME_KINDS``), where the search agent decides;
its opponent is the policy itself (or ``--opponent``).  A hybrid that wins about half its games shows that the search
adds nothing on those decision types; the types where it wins most are where distilling the
search into the policy would pay (``benchmarks/search_distill.py``):

    python benchmarks/search_gain.py --frames plan --games 400 --seed 7000
    python benchmarks/search_gain.py --frames acquire,place_sector,place_slot,card_choice --games 400

Shared wins count as a fraction (as in the arena); the last line gives the win rate with its
Wilson 95% interval, the mean scores and the searched decisions per game.

With ``--scenario ID`` (a solo scenario; ``--policy`` then defaults to ``trained_solo``) every
deal (seed ``seed + k``) is played twice, by the hybrid and by the policy alone, and the last
line gives both success rates with their intervals and the deals only one of them won:

    python benchmarks/search_gain.py --scenario long_haul --frames acquire --games 200
"""
from __future__ import annotations

import argparse
import time


def main(argv=None) -> None:
    """Play and print (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policy", default=None, help="the guide: a trained agent spec (default trained_2p, or "
                    "trained_solo with --scenario)")
    ap.add_argument("--scenario", default=None, help="a solo scenario id: compare success on the same deals")
    ap.add_argument("--search", default="mcts:iters=36:top_k=3:horizon=2:guide={policy}",
                    help="the search agent ({policy} is replaced by --policy)")
    ap.add_argument("--frames", default="plan", help="decision kinds the search takes (electrify_env.decision.FRAME_KINDS names, comma-separated)")
    ap.add_argument("--opponent", default=None, help="the other seat's agent (default: --policy)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7000)
    args = ap.parse_args(argv)

    import numpy as np
    import torch

    from electrify_env.agents import make_agent, seat_view
    from electrify_env.agents.arena import wilson_interval
    from electrify_env import Game
    from electrify_env.decision import parse_frame_kinds, pending_frame_type

    torch.set_num_threads(1)
    try:
        frames = parse_frame_kinds(args.frames)
    except ValueError as err:
        raise SystemExit(str(err)) from None
    args.policy = args.policy or ("trained_solo" if args.scenario else "trained_2p")
    if args.scenario:
        return _solo(args, frames)
    policy = make_agent(args.policy)
    opponent = make_agent(args.opponent or args.policy)
    search = make_agent(args.search.format(policy=args.policy))
    wins, scores, searched, t0 = 0.0, np.zeros(2), 0, time.perf_counter()
    for k in range(args.games):
        seed, seat = args.seed + k // 2, k % 2
        game = Game(2, seed=seed)
        for i, agent in enumerate((policy, opponent, search)):
            agent.reset(seed=seed * 3 + i)
        while not game.is_terminal:
            view = seat_view(game)
            if view.seat != seat:
                a = opponent.act(view)
            elif int(view.mask.sum()) > 1 and pending_frame_type(view.infoset) in frames:
                a, searched = search.act(view), searched + 1
            else:
                a = policy.act(view)
            game.step(a)
        won = game.winners()
        wins += (seat in won) / len(won)
        sc = game.scores()
        scores += (sc[seat], sc[1 - seat])
        if (k + 1) % 50 == 0 or k + 1 == args.games:
            print(f"{k + 1} games: hybrid wins {wins / (k + 1):.3f} ({time.perf_counter() - t0:.0f} s)", flush=True)
    lo, hi = wilson_interval(wins, args.games)
    print(f"hybrid ({args.policy} + {args.search.format(policy=args.policy)} on {args.frames}) vs "
          f"{args.opponent or args.policy}: {wins / args.games:.1%} [{lo:.1%}, {hi:.1%}] of {args.games} games, "
          f"mean scores {scores[0] / args.games:.1f} - {scores[1] / args.games:.1f}, "
          f"{searched / args.games:.1f} searched decisions a game")


def _solo(args, frames) -> None:
    """``--scenario``: the hybrid and the policy alone on the same deals of one solo scenario."""
    import numpy as np

    from electrify_env.agents import make_agent, seat_view
    from electrify_env.agents.arena import wilson_interval
    from electrify_env.decision import pending_frame_type
    from electrify_env import Game

    policy, search = make_agent(args.policy), make_agent(args.search.format(policy=args.policy))
    won, searched, t0 = np.zeros((args.games, 2), bool), 0, time.perf_counter()
    for k in range(args.games):
        seed = args.seed + k
        for j, hybrid in enumerate((True, False)):
            game = Game(seed=seed, scenario=args.scenario)
            policy.reset(seed=seed * 3)
            search.reset(seed=seed * 3 + 2)
            while not game.is_terminal:
                view = seat_view(game)
                if hybrid and int(view.mask.sum()) > 1 and pending_frame_type(view.infoset) in frames:
                    a, searched = search.act(view), searched + 1
                else:
                    a = policy.act(view)
                game.step(a)
            won[k, j] = game.solo_result()["won"]
        if (k + 1) % 50 == 0 or k + 1 == args.games:
            print(f"{k + 1} deals: hybrid {won[:k + 1, 0].mean():.3f}, policy {won[:k + 1, 1].mean():.3f} "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
    n = args.games
    (hl, hh), (pl, ph) = wilson_interval(won[:, 0].sum(), n), wilson_interval(won[:, 1].sum(), n)
    print(f"{args.scenario}: hybrid ({args.policy} + {args.search.format(policy=args.policy)} on {args.frames}) "
          f"{won[:, 0].mean():.1%} [{hl:.1%}, {hh:.1%}], {args.policy} alone {won[:, 1].mean():.1%} "
          f"[{pl:.1%}, {ph:.1%}] of {n} deals; only the hybrid won {int((won[:, 0] & ~won[:, 1]).sum())}, "
          f"only the policy {int((won[:, 1] & ~won[:, 0]).sum())}; {searched / n:.1f} searched decisions a game")


if __name__ == "__main__":
    main()
