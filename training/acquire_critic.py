"""Train a policy's afterstate critic toward a search's choices (the acquire decision by default).

The search compares the policy's three most likely actions by what follows them; an
:class:`~electrify_env.agents.net.AfterstateCritic` does the same with a learned evaluation of the
mover's observation after each candidate, one forward pass instead of dozens of rollouts.

``collect`` plays seeded self-play games of the policy (its player count; its own choice at
every decision, every seat, so the states are the policy's own; a solo policy plays the
``--scenarios`` in turn, game i the i-th, where the search values a candidate against the
scenario's target) and, at each decision of the critic's types with at
least two legal actions, takes the policy's ``--top-k`` most likely actions and values each by
a paired search (:func:`electrify_env.kernels.search.paired_search`: ``--ndet`` determinizations
of the mover's information set, every candidate played on the same samples by greedy rollouts
for ``--horizon`` rounds, scored by the search value in [0, 1], with the weights of the ``mcts``
agent), and stores the mover's
afterstate observation of each candidate (in the first of those determinizations) with the
candidates' logits and values.  Shards of ``--shard`` games are written as they finish:

    python -m electrify_env.training.acquire_critic collect --out runs/aq --seed 10 --games 2400

``fit`` adds a critic to the policy and trains it alone (the trunk and heads frozen) to choose
the candidate of highest search value: cross-entropy toward that candidate (weight ``--ce``)
plus the expected value lost by the critic's softmax choice (weight ``--regret``), every fifth
game held out.  Each pass prints the held-out agreement with the search's best candidate and
the mean value lost against it (the policy's own choice: pass 0); the pass that loses least on
the held-out games is saved as a policy file with the original's metadata plus
``critic_training``:

    python -m electrify_env.training.acquire_critic fit runs/aq --save runs/aq/electrify-2p-critic.pt

``fit`` takes several folders, too: shards collected at other decision types (``collect
--frames place_sector,place_slot``) train one critic for all of their types.  With
``--keep-critics`` the policy keeps the critics it has, unchanged, and the new one is added beside
them for its own decision types (a network may have several critics, each choosing at the
types it names): a critic for placing beside one for buying, each trained on its own data;
``--max-target N`` lets the new critic decide only in solo games whose target is at most N:

    python -m electrify_env.training.acquire_critic fit runs/place --policy policies/electrify-2p.pt --keep-critics
"""
from __future__ import annotations

import argparse
import glob
import json
import time
from pathlib import Path

import numpy as np

DEFAULT_POLICY = "policies/electrify-2p.pt"


def collect(args) -> None:
    """Play, value the candidates and write shards (see the module docstring)."""
    import torch

    from electrify_env.agents import make_agent, seat_view
    from electrify_env.agents.base import top_actions
    from electrify_env.decision import pending_frame_type
    from electrify_env import Game
    from electrify_env.decision import parse_frame_kinds
    from electrify_env.engine.observe import obs_size
    from electrify_env.kernels.search import paired_search

    from electrify_env.agents.policy_meta import load_policy_metadata, policy_players

    torch.set_num_threads(1)
    frames = parse_frame_kinds(args.frames)
    n_players = policy_players(load_policy_metadata(args.policy))
    if n_players not in (1, 2, 3, 4):
        raise SystemExit(f"{args.policy} records no player count (collect plays its player count)")
    scenarios = [None]
    if n_players == 1:   # a solo policy: the scenarios in turn, game i plays scenarios[i % len]
        from electrify_env.scenarios import list_scenarios
        scenarios = list_scenarios() if args.scenarios == "all" else [s for s in args.scenarios.split(",") if s]
        unknown = sorted(set(scenarios) - set(list_scenarios()))
        if unknown or not scenarios:
            raise SystemExit(f"--scenarios: unknown scenario ids {unknown} (known: {', '.join(list_scenarios())})")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    learner = make_agent(f"net:path={args.policy}")
    W = make_agent("mcts").W    # the reference search's weights (its rollouts explore nothing)
    K, n_in = args.top_k, obs_size(n_players)
    rng = np.random.default_rng(args.seed)
    buf: dict[str, list] = {k: [] for k in ("after", "cand", "value", "logit", "game")}
    t0, n, shard_t0 = time.perf_counter(), 0, time.perf_counter()
    for gi in range(args.games):
        gseed = args.seed * 1_000_000 + gi
        scen = scenarios[gi % len(scenarios)]
        game = Game(n_players, seed=gseed) if scen is None else Game(seed=gseed, scenario=scen)
        learner.reset(seed=gseed + 1)
        while not game.is_terminal:
            view = seat_view(game)
            legal = np.flatnonzero(view.mask)
            if legal.size < 2:
                game.step(int(legal[0]))
                continue
            logits = learner.logits(view)
            if pending_frame_type(view.infoset) in frames:
                cands = top_actions(logits, K)
                k, seed = len(cands), np.int64(rng.integers(1 << 40))
                totals = np.zeros(k)
                paired_search(view.infoset, view.table, np.int64(view.seat), W, cands, np.int64(k),
                              np.int64(args.ndet), seed, np.int64(args.horizon), totals)
                after = np.zeros((K, n_in), np.float32)
                after[:k] = learner.afterstates(view, cands, int(seed))   # what the critic scores in play
                cand, value, lg = np.full(K, -1, np.int64), np.full(K, np.nan, np.float32), np.full(K, np.nan, np.float32)
                cand[:k], value[:k], lg[:k] = cands, totals / args.ndet, logits[cands]
                for key, v in (("after", after), ("cand", cand), ("value", value), ("logit", lg), ("game", gseed)):
                    buf[key].append(v)
                n += 1
            game.step(int(np.argmax(logits)))   # illegal ids are -inf
        if (gi + 1) % args.shard == 0 or gi + 1 == args.games:
            info = {"policy": str(args.policy), "frames": args.frames, "players": n_players,
                    **({"scenarios": scenarios} if n_players == 1 else {}), "top_k": K, "ndet": args.ndet,
                    "horizon": args.horizon, "games": gi % args.shard + 1, "seconds": time.perf_counter() - shard_t0}
            np.savez_compressed(out / f"critic-s{args.seed}-{gi // args.shard:05d}.npz",
                                after=np.stack(buf["after"]) if buf["after"] else np.zeros((0, K, n_in), np.float32),
                                cand=np.array(buf["cand"], np.int64).reshape(-1, K),
                                value=np.array(buf["value"], np.float32).reshape(-1, K),
                                logit=np.array(buf["logit"], np.float32).reshape(-1, K),
                                game=np.array(buf["game"], np.int64), info=json.dumps(info))
            for v in buf.values():
                v.clear()
            shard_t0 = time.perf_counter()
            dt = time.perf_counter() - t0
            print(f"{gi + 1} games, {n:,} decisions, {dt:.0f} s, {(gi + 1) / dt * 3600:.0f} games/h", flush=True)


def load_shards(folders) -> tuple[dict, dict]:
    """The shards of ``folders`` (one folder or several) joined (``after``, ``cand``, ``value``,
    ``logit``, ``game``) and their provenance (``info`` of the first shard, with the games and
    seconds summed and ``frames`` the union of the shards' decision types, so folders collected
    at different decision types train one critic for all of them); SystemExit if there are
    none, or if they were collected with different settings otherwise."""
    folders = [folders] if isinstance(folders, (str, Path)) else list(folders)
    files = sorted(f for folder in folders for f in glob.glob(str(Path(folder) / "critic-*.npz")))
    if not files:
        raise SystemExit(f"no critic-*.npz shards in {', '.join(map(str, folders))}")
    parts = [dict(np.load(f)) for f in files]
    infos = [json.loads(str(p.pop("info"))) for p in parts]
    keys = ("policy", "top_k", "ndet", "horizon")

    def settings(i: dict) -> tuple:     # the policy as a file, however its path was written
        return (str(Path(i.get("policy", "")).resolve()),) + tuple(i.get(k) for k in keys[1:])
    if any(settings(i) != settings(infos[0]) for i in infos):
        raise SystemExit(f"the shards in {', '.join(map(str, folders))} were collected with different settings "
                         f"({', '.join(keys)})")
    frames = list(dict.fromkeys(f for i in infos for f in i["frames"].split(",")))
    info = dict(infos[0], frames=",".join(frames), shards=len(files), games=sum(i["games"] for i in infos),
                seconds=round(sum(i["seconds"] for i in infos), 1))
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}, info


def fit(args) -> None:
    """Train the critic and save the policy with it (see the module docstring)."""
    import torch

    from electrify_env.agents.net import PolicyValueNet, load_policy, save_policy, transfer_weights

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    d, info = load_shards(args.folders)
    src, meta = load_policy(args.policy)
    if info.get("players", src.n_players) != src.n_players:
        raise SystemExit(f"the shards in {', '.join(args.folders)} were collected with a {info['players']}-player policy, "
                         f"{args.policy} plays {src.n_players}")
    if str(Path(info["policy"]).resolve()) != str(Path(args.policy).resolve()):
        print(f"note: the shards were collected with {info['policy']}, the critic is added to {args.policy}")
    new = {"frames": info["frames"].split(","), "top_k": info["top_k"], "hidden": args.hidden,
           "max_target": args.max_target}
    kept_critics = src.critics if args.keep_critics else []
    lookahead = []    # each of the policy's lookaheads keeps the decision types no critic takes
    if src.lookaheads:
        from electrify_env.decision import parse_frame_kinds

        taken = set(parse_frame_kinds(",".join(new["frames"]))).union(*(c.frame_codes for c in kept_critics))
        for la in src.lookaheads:
            left = [f for f in la.frames if not parse_frame_kinds(f) & taken]
            if left != la.frames:
                print(f"note: the critic takes {', '.join(f for f in la.frames if f not in left)} "
                      f"from {args.policy}'s rollout lookahead")
            lookahead += [la.config() | {"frames": left}] if left else []
    try:
        net = transfer_weights(src, PolicyValueNet(
            src.n_players, src.hidden, init=True, prior=src.prior, prior_scale=src.prior_scale,
            prior_weights=src.prior_weights, critic=[c.config() for c in kept_critics] + [new],
            lookahead=lookahead)).eval()
    except ValueError as err:   # the new critic's decision types overlap a kept one's
        raise SystemExit(f"--keep-critics: {err}") from None
    for old, mine in zip(kept_critics, net.critics):
        mine.load_state_dict(old.state_dict())
    head = net.critics[-1]      # the critic this fit trains
    for p in net.parameters():
        p.requires_grad_(False)
    for p in head.parameters():
        p.requires_grad_(True)

    valid_np = np.isfinite(d["value"])
    keep = np.flatnonzero(valid_np.sum(1) >= 2)
    value = torch.from_numpy(np.nan_to_num(d["value"], nan=0.0))
    valid = torch.from_numpy(valid_np)
    logit = torch.from_numpy(np.nan_to_num(d["logit"], nan=-1e9))
    best = value.masked_fill(~valid, -1.0).argmax(1)
    gap = (value.masked_fill(~valid, -1.0).max(1, keepdim=True).values - value).masked_fill(~valid, 0.0)
    with torch.inference_mode():   # the frozen trunk's embeddings of every afterstate, once
        A = d["after"]
        H = torch.cat([net.embed(torch.from_numpy(A[i:i + 512].reshape(-1, A.shape[-1]))).reshape(-1, A.shape[1], net.hidden[-1])
                       for i in range(0, len(A), 512)])
    game = d["game"][keep]
    te, tr = keep[game % 5 == 0], keep[game % 5 != 0]
    print(f"{info['shards']} shards, {info['games']} games, {len(keep):,} decisions with 2+ candidates "
          f"({len(tr):,} training, {len(te):,} held out)", flush=True)

    def scores(ids: torch.Tensor) -> torch.Tensor:
        return head(H[ids], valid[ids], logit[ids])

    def report(ids: np.ndarray) -> tuple[float, float]:
        with torch.no_grad():
            t = torch.from_numpy(ids)
            pick = scores(t).argmax(1)
            return (float((pick == best[t]).float().mean()), float(gap[t].gather(1, pick[:, None]).mean()))

    ag, lost = report(te)
    print(f"pass 0 (the policy's choice): held-out agreement with the search's best {ag:.3f}, "
          f"value lost {lost:.4f}", flush=True)
    opt = torch.optim.Adam(head.parameters(), lr=args.lr)
    rng = np.random.default_rng(args.seed)
    kept, t0 = (lost, 0, {k: v.clone() for k, v in head.state_dict().items()}, ag), time.perf_counter()
    for ep in range(args.epochs):
        order = rng.permutation(tr)
        for i in range(0, len(order), args.minibatch):
            b = torch.from_numpy(order[i:i + args.minibatch])
            s = scores(b)
            loss = args.ce * torch.nn.functional.cross_entropy(s, best[b])
            loss = loss + args.regret * (torch.softmax(s, 1) * gap[b]).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
        ag, lost = report(te)
        ag_tr, lost_tr = report(tr[:20_000])
        print(f"pass {ep + 1}: held-out agreement {ag:.3f}, value lost {lost:.4f} "
              f"(training {ag_tr:.3f}, {lost_tr:.4f})", flush=True)
        if lost < kept[0]:
            kept = (lost, ep + 1, {k: v.clone() for k, v in head.state_dict().items()}, ag)
    head.load_state_dict(kept[2])
    print(f"kept pass {kept[1]}: held-out agreement {kept[3]:.3f}, value lost {kept[0]:.4f}")
    if args.save:
        from electrify_env.agents.policy_meta import policy_metadata

        from electrify_env.agents.net import ALGORITHM, lineage
        base = set(policy_metadata("", "")) | {"algorithm", "arch"}
        extra = {k: v for k, v in meta.items() if k not in base}
        extra["critic_training"] = {
            "data": dict(info, folder=",".join(args.folders), decisions=int(len(keep))),
            "teacher": f"paired greedy-rollout search over the policy's top {info['top_k']} "
                       f"({info['ndet']} determinizations, horizon {info['horizon']})",
            "epochs": args.epochs, "lr": args.lr, "ce": args.ce, "regret": args.regret, "hidden": args.hidden,
            "frames": new["frames"], "max_target": args.max_target, "kept_critics": [c.config() for c in kept_critics],
            "kept_pass": kept[1], "held_out_agreement": round(kept[3], 4), "held_out_value_lost": round(kept[0], 5),
            "fit_seconds": round(time.perf_counter() - t0, 1), "critic_of": lineage(args.policy, meta)}
        if kept_critics and "critic_training" in meta:   # how the kept critics were trained
            extra["critic_training"]["kept_critic_training"] = meta["critic_training"]
        out = save_policy(net, args.save, meta["card_set_hash"], meta["env_id"],
                          algorithm=meta.get("algorithm", ALGORITHM), **extra)
        print(f"saved {out} ({out.stat().st_size / 1e6:.2f} MB)")


def main(argv=None) -> None:
    """Parse the subcommand and run it."""
    ap = argparse.ArgumentParser(prog="python -m electrify_env.training.acquire_critic", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play, value the candidates, write shards")
    c.add_argument("--policy", default=DEFAULT_POLICY, help="the policy (.pt) that plays and proposes candidates")
    c.add_argument("--scenarios", default="all",
                   help="a solo policy's scenarios, comma-separated ids or 'all' (game i plays the i-th in turn)")
    c.add_argument("--frames", default="acquire", help="decision types (electrify_env.decision.FRAME_KINDS names, comma-separated)")
    c.add_argument("--top-k", type=int, default=3, help="candidates per decision (the policy's most likely)")
    c.add_argument("--ndet", type=int, default=12, help="determinizations (rollouts per candidate)")
    c.add_argument("--horizon", type=int, default=2, help="rounds each rollout plays")
    c.add_argument("--games", type=int, default=1000)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--shard", type=int, default=50, help="games per shard file")
    c.add_argument("--out", default="runs/critic")
    f = sub.add_parser("fit", help="train the critic, save the policy with it")
    f.add_argument("folders", nargs="+", help="folders of shards (several: one critic for the union of their decision types)")
    f.add_argument("--policy", default=DEFAULT_POLICY, help="the policy the critic is added to")
    f.add_argument("--epochs", type=int, default=8)
    f.add_argument("--lr", type=float, default=1e-3)
    f.add_argument("--ce", type=float, default=0.3, help="weight of the cross-entropy toward the search's best")
    f.add_argument("--regret", type=float, default=10.0, help="weight of the expected search value lost")
    f.add_argument("--hidden", type=int, default=128, help="the critic's hidden width")
    f.add_argument("--minibatch", type=int, default=256)
    f.add_argument("--seed", type=int, default=0)
    f.add_argument("--threads", type=int, default=1)
    f.add_argument("--max-target", type=int, default=0,
                   help="the critic decides only in solo games whose target is at most this (0: every game)")
    f.add_argument("--keep-critics", action="store_true",
                   help="keep the policy's afterstate critics (unchanged) and add this one beside them, for "
                        "decision types none of them has (default: the new critic replaces them)")
    f.add_argument("--save", default=None, help="write the policy with its critic here (.pt)")
    args = ap.parse_args(argv)
    if args.cmd == "collect":
        from electrify_env.decision import parse_frame_kinds
        try:
            parse_frame_kinds(args.frames)
        except ValueError as err:
            ap.error(str(err))
        if args.top_k < 2 or args.ndet < 1 or args.horizon < 1 or args.games < 1 or args.shard < 1:
            ap.error("--top-k must be at least 2, and --ndet, --horizon, --games, --shard at least 1")
    elif args.epochs < 0 or args.max_target < 0 or args.hidden < 1 or args.minibatch < 1 or not args.lr > 0 or args.ce < 0 or args.regret < 0:
        ap.error("--epochs, --max-target and the loss weights --ce, --regret must be at least 0, --lr positive, "
                 "--hidden and --minibatch at least 1")
    collect(args) if args.cmd == "collect" else fit(args)


if __name__ == "__main__":
    main()
