"""Are a search agent's choices consistent enough to imitate?  Prints figures, asserts nothing.

    electrify teacher-data --agent mcts:iters=36:top_k=3:horizon=2:guide=trained_2p --players 2 \\
        --games 60 --seed 1001 --jobs 2 --out guided2p.jsonl
    python benchmarks/search_labels.py guided2p.jsonl [--states 300] [--big-iters 360]

Expert iteration trains a policy toward a search's choices; that only pays if the choice is a
function of the position rather than of the search's random rollouts.  This script replays the
games of a teacher file (``electrify teacher-data``), samples ``--states`` of the decisions the
search agent searches (``electrify_env.agents.mcts.KEY_FRAMES`` with more than one legal action, 5% of them,
game by game), and asks, for each: the agent's guide (or greedy, for an unguided mcts) for its
choice; the agent (``--agent``, by default the file's own) three times with independent seeds;
and the same agent with ``--big-iters`` rollouts per searched move twice.  It prints how often
the file's recorded choice and the searches agree with the guide, with each other, and with the
bigger search: a search that agrees with itself and with the bigger one much more often than
with its guide gives consistent labels where it departs from the guide.
"""
from __future__ import annotations

import argparse
import time

import numpy as np


def main(argv=None) -> None:
    """Replay, search and print (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("teacher_file", help="a file written by `electrify teacher-data`")
    ap.add_argument("--agent", default=None, help="the search agent's spec (default: the file's agent)")
    ap.add_argument("--states", type=int, default=300, help="searched decisions to sample (default 300)")
    ap.add_argument("--big-iters", type=int, default=360, help="rollouts per searched move of the bigger search")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    from electrify_env.agents import make_agent
    from electrify_env.agents.base import seat_view
    from electrify_env.agents.mcts import KEY_FRAMES, make_guide
    from electrify_env.decision import pending_frame_type
    from electrify_env.agents.registry import parse_spec
    from electrify_env.agents.replay import new_game
    from electrify_env.training.teacher import read_teacher_file

    header, records = read_teacher_file(args.teacher_file)
    spec = args.agent or header.get("agent")
    parsed = parse_spec(spec)
    if parsed.name != "mcts":
        raise SystemExit(f"--agent must be an mcts spec (the file's agent is {header.get('agent')!r})")
    params = dict(parsed.params)
    if params.get("ms"):
        raise SystemExit("--agent must budget its search by iters=, not ms= (the bigger search scales iters)")
    guide_spec = params.get("guide") or "greedy"
    big_spec = "mcts:" + ":".join(f"{k}={v}" for k, v in {**params, "iters": args.big_iters}.items() if v != "")

    rng = np.random.default_rng(args.seed)
    views, recorded = [], []
    for rec in records:
        game = new_game(rec)
        for a in rec["actions"]:
            view = seat_view(game, game.current_player)
            if view.mask.sum() > 1 and pending_frame_type(view.infoset) in KEY_FRAMES and rng.random() < 0.05:
                views.append(view)
                recorded.append(a)
            game.step(a)
        if len(views) >= args.states:
            break
    views, recorded = views[:args.states], np.array(recorded[:args.states])
    print(f"{len(views)} searched decisions sampled from {args.teacher_file}; search {spec}, "
          f"bigger search {big_spec}, guide {guide_spec}", flush=True)

    guide = make_guide(params["guide"]) if params.get("guide") else make_agent("greedy")
    small, big = make_agent(spec), make_agent(big_spec)
    got = {k: [] for k in ("guide", "s1", "s2", "s3", "b1", "b2")}
    t0 = time.perf_counter()
    for i, view in enumerate(views):
        guide.reset(i)
        got["guide"].append(guide.act(view))
        for k, agent, s in (("s1", small, 1), ("s2", small, 2), ("s3", small, 3), ("b1", big, 1), ("b2", big, 2)):
            agent.reset(1000 * i + s)
            got[k].append(agent.act(view))
    r = {k: np.array(v) for k, v in got.items()}

    def same(a, b):
        return f"{(r[a] == r[b]).mean():.3f}"

    print(f"{len(views)} decisions searched in {time.perf_counter() - t0:.0f} s")
    print(f"recorded choice == guide's choice:            {(recorded == r['guide']).mean():.3f}")
    print(f"search (3 seeds) == guide's choice:           {same('s1', 'guide')} {same('s2', 'guide')} {same('s3', 'guide')}")
    print(f"search == search, other seeds (3 pairs):      {same('s1', 's2')} {same('s1', 's3')} {same('s2', 's3')}")
    print(f"bigger search == bigger search, other seed:   {same('b1', 'b2')}")
    print(f"bigger search == guide's choice:              {same('b1', 'guide')} {same('b2', 'guide')}")
    print(f"search == bigger search (3 pairs):            {same('s1', 'b1')} {same('s2', 'b2')} {same('s3', 'b1')}")


if __name__ == "__main__":
    main()
