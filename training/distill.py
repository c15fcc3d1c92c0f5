"""Distil a policy that plays with greedy's one-ply prior into a network alone (no prior, no search).

Why: the shipped 2-player file wins about 75% of its games against greedy with greedy's one-ply
values added to its logits (``prior: greedy``), but its network alone (``trained_2p_net``) wins
57.5%; imitation of greedy's choices from greedy's own games did not teach a network that
evaluation.  This tries the other road at scale: the
student plays (DAgger: the states are the student's own, so its mistakes are labelled where it
makes them), and the teacher labels every decision of every seat with its whole distribution
(the prior's values for every legal action, not one chosen id), millions of decisions an hour.

Each round plays ``--rollout`` decisions of ``--envs`` 2-player games (any player count the
teacher plays): in every game one seat is the student's (its most likely action, or a sample of
its softmax with probability ``--explore``), the others the teacher's most likely action or
greedy's (``--p-greedy`` of the games); the decisions of every seat are stored with the
teacher's softmax, then ``--epochs`` passes of soft cross-entropy (the KL divergence from the
teacher, up to a constant) train the student; ``log.jsonl`` gets a line per round (its
mean loss, and how often the student's most likely action was the teacher's at its own
decisions before the round's training: ``agreement``).  Every ``--eval-every`` decisions the student
plays ``--eval-games`` seat-rotated games against greedy
(:func:`electrify_env.training.selfplay.evaluate_policy`, the training evaluation; with its weights rounded as
its file stores them, :func:`electrify_env.agents.net.as_saved`), and is saved there as
``student-<decisions>.pt`` with its metadata (``distilled_from``; ``imitation_steps``, the
labelled decisions it learned from; ``learning_curve``, the evaluations so far).

A teacher with afterstate critics (:class:`electrify_env.agents.net.AfterstateCritic`: the 2-player file
chooses its acquire decisions so) decides as it does in the arena: at a decision a critic takes,
its ``top_k`` most likely legal actions are scored from their afterstates (one determinization of
the mover's information set, :func:`electrify_env.kernels.afterstate.mover_afterstate_observations`)
and it plays the best; the label there is ``--critic-weight`` on that choice plus the rest of the
weight on the softmax, and the decision counts ``--critic-loss-weight`` times in the loss
(``--critic-weight 0`` ignores the critics: the teacher plays and labels with its network and
prior alone):

    python -m electrify_env.training.distill --teacher policies/electrify-2p.pt --init policies/electrify-2p-net.pt \\
        --out runs/distill2p --decisions 20000000
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

DEFAULT_TEACHER = "policies/electrify-2p.pt"


def student_from(teacher, init: str | None, hidden: list[int] | None):
    """The student network: ``init``'s network without its prior and critics (its weights;
    deepened to ``hidden`` by :func:`electrify_env.agents.net.deepen` when given and deeper: identity layers
    inserted, the same function until it trains), or a fresh one of ``hidden`` sizes (default:
    the teacher's) for the teacher's player count."""
    from electrify_env.agents.net import PolicyValueNet, deepen, load_policy, transfer_weights

    if init:
        src, meta = load_policy(init, n_players=teacher.n_players)
        if src.prior != "none":
            print(f"note: {init} adds a prior; the student keeps its weights and drops the prior")
        student = transfer_weights(src, PolicyValueNet(teacher.n_players, src.hidden))
        if hidden and list(hidden) != list(src.hidden):
            student = deepen(student, hidden)
            print(f"the student: {init}'s network deepened from {src.hidden} to {student.hidden}")
        return student, str(init)
    return PolicyValueNet(teacher.n_players, hidden or teacher.hidden), None


def critic_picks(teacher, games, logits: np.ndarray, legal_n: np.ndarray,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The rows of ``games`` (a :class:`electrify_env.training.selfplay.Games`) whose pending decision one of
    ``teacher``'s afterstate critics takes (at least two legal actions), and the action it plays
    in each: the best of its ``top_k`` candidates (the most likely by ``logits``, the teacher's
    masked logits with its prior for every game, (len(games), N_ACTIONS) float32; ties to the
    lower id) scored from their afterstates, one determinization per row drawn from ``rng``;
    ``legal_n``: each game's count of legal actions.  Empty arrays for a teacher without critics."""
    import torch

    from electrify_env.decision import pending_frame_type
    from electrify_env.kernels.afterstate import mover_afterstate_observations

    from electrify_env.agents.net import MASKED_LOGIT

    rows_out, picks_out = [], []
    S = games.States
    choosing = np.flatnonzero(legal_n >= 2) if teacher.critics else np.zeros(0, np.int64)
    frames = np.array([pending_frame_type(S[r]) for r in choosing], np.int64)
    for critic in teacher.critics:
        rows = choosing[np.isin(frames, list(critic.frame_codes))]
        rows = np.array([r for r in rows if critic.applies(S[r])], np.int64)
        if rows.size == 0:
            continue
        k = critic.top_k
        cands = np.argsort(-logits[rows], axis=1, kind="stable")[:, :k].astype(np.int64)
        cand_logits = np.take_along_axis(logits[rows], cands, 1)
        valid = cand_logits > MASKED_LOGIT / 2
        n_cands = valid.sum(1).astype(np.int64)
        after = np.zeros((rows.size, k, teacher.n_inputs), np.float32)
        mover_afterstate_observations(S, games.T, games.FF, rows, cands, n_cands,
                                      rng.integers(0, 1 << 62, rows.size, dtype=np.int64),
                                      np.int64(teacher.n_inputs), after)
        with torch.inference_mode():
            h = teacher.embed(torch.from_numpy(after.reshape(rows.size * k, -1))).reshape(rows.size, k, -1)
            sc = critic(h, torch.from_numpy(valid), torch.from_numpy(cand_logits.astype(np.float32)))
        rows_out.append(rows)
        picks_out.append(cands[np.arange(rows.size), sc.argmax(1).numpy()])
    if not rows_out:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    return np.concatenate(rows_out), np.concatenate(picks_out)


def run(args) -> None:
    """Play, label, train and evaluate (see the module docstring)."""
    import torch
    from tqdm import tqdm

    from electrify_env.envs._common import card_set_and_options
    from electrify_env.agents.policy_meta import load_policy_metadata

    from electrify_env.agents.net import as_saved, compute_prior, lineage, load_policy, save_policy
    from .selfplay import Games, evaluate_policy, greedy_act, greedy_weights
    from .progress import advance

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    teacher, tmeta = load_policy(args.teacher)
    n = teacher.n_players
    if n < 2:
        raise SystemExit(f"{args.teacher} is a solo policy; distil plays games of 2-4 players")
    if teacher.prior == "none":
        print(f"note: {args.teacher} has no prior: the student learns its network's logits")
    if teacher.critics and args.critic_weight > 0:
        print(f"the teacher's afterstate critics choose at: "
              f"{', '.join(f for c in teacher.critics for f in c.frames)} (label weight {args.critic_weight})")
    student, init_path = student_from(teacher, args.init, args.hidden)
    student.train()
    opt = torch.optim.Adam(student.parameters(), lr=args.lr)
    cards, options = card_set_and_options(None, ())
    W = greedy_weights()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    n_in = student.n_inputs
    games = Games(args.envs, n, cards, options, None, rng.integers(0, 1 << 40, args.envs, dtype=np.int64))
    student_seat = rng.integers(0, n, args.envs)
    greedy_game = rng.random(args.envs) < args.p_greedy
    cap = args.rollout + args.envs
    buf_obs = np.zeros((cap, n_in), np.float32)
    buf_mask = np.zeros((cap, teacher.pi.out_features), np.bool_)
    buf_p = np.zeros((cap, teacher.pi.out_features), np.float32)
    buf_w = np.ones(cap, np.float32)      # each decision's weight in the loss
    row_w = np.ones(args.envs, np.float32)
    rows_all = np.arange(args.envs)
    actions = np.empty(args.envs, np.int64)
    log_path = out / "log.jsonl"
    done, env_steps, t0, next_eval = 0, 0, time.perf_counter(), 0
    curve: list[dict] = []     # the evaluations (the saved files' learning_curve)
    history: list[dict] = []   # the same, each with the path of the student saved there

    def evaluate() -> None:
        r = evaluate_policy(as_saved(student).eval(), n, args.eval_games, args.eval_seed, cards, options, W=W)
        curve.append({"decisions": done, "seconds": round(time.perf_counter() - t0, 1),
                      "win_rate": r["win_rate"], "mean_margin": r["mean_margin"]})
        path = save_policy(student, out / f"student-{done}.pt", tmeta["card_set_hash"], tmeta["env_id"],
                           algorithm="electrify distillation (training/distill.py)", n_players=n,
                           steps=0, imitation_steps=done, env_steps=env_steps,
                           train_seconds=curve[-1]["seconds"], config=vars(args), learning_curve=curve,
                           distilled_from=lineage(args.teacher, tmeta),
                           **({"init_from": lineage(init_path, load_policy_metadata(init_path))} if init_path else {}))
        rec = curve[-1] | {"policy": str(path)}
        history.append(rec)
        with open(log_path, "a") as f:
            f.write(json.dumps(rec) + "\n")
        tqdm.write(f"{done:,} decisions, {rec['seconds']:.0f} s: win rate against greedy {r['win_rate']:.3f} "
                   f"({args.eval_games} games), margin {r['mean_margin']:+.2f}")

    bar = tqdm(total=args.decisions, unit="dec", unit_scale=True, disable=not args.progress)
    while True:
        if done >= next_eval or (done >= args.decisions and history[-1]["decisions"] != done):
            evaluate()
            next_eval += args.eval_every * (1 + (done - next_eval) // args.eval_every)
        if done >= args.decisions:
            break
        size, agree, agree_n, critic_n = 0, 0, 0, 0
        student.eval()
        while size < args.rollout:
            m = games.masks.view(np.bool_)
            pr = compute_prior(teacher, games.States, games.T, rows_all, rng)
            with torch.inference_mode():
                o = torch.from_numpy(games.obs[:, :n_in])
                mt = torch.from_numpy(m)
                tl = teacher(o, mt, None if pr is None else torch.from_numpy(pr))[0]
                sl = student(o, mt)[0]
            p = torch.softmax(tl / args.temperature, -1).numpy()
            t_best, s_top = tl.argmax(-1).numpy(), sl.argmax(-1).numpy()
            legal_n = m.sum(1)
            row_w[:] = 1.0
            if args.critic_weight > 0:
                crows, picks = critic_picks(teacher, games, tl.numpy(), legal_n, rng)
                if crows.size:
                    row_w[crows] = args.critic_loss_weight
                    t_best[crows] = picks
                    p[crows] *= 1.0 - args.critic_weight
                    p[crows, picks] += args.critic_weight
                    critic_n += crows.size
            s_best = s_top
            mine = games.movers == student_seat
            explore = mine & (rng.random(args.envs) < args.explore)
            if explore.any():
                g = -np.log(-np.log(rng.random((int(explore.sum()), sl.shape[1])).clip(1e-12, 1.0)))
                s_best = s_top.copy()
                s_best[explore] = (sl.numpy()[explore] + g).argmax(-1)
            actions[:] = np.where(mine, s_best, t_best)
            gr = np.flatnonzero(~mine & greedy_game)
            if gr.size:
                actions[gr] = greedy_act(games, gr, W, rng)
            keep = np.flatnonzero(legal_n >= 2)   # a forced move teaches nothing
            k = keep.size
            buf_obs[size:size + k] = games.obs[keep, :n_in]
            buf_mask[size:size + k] = m[keep]
            buf_p[size:size + k] = p[keep]
            buf_w[size:size + k] = row_w[keep]
            sk = keep[mine[keep]]
            agree += int((s_top[sk] == t_best[sk]).sum())
            agree_n += sk.size
            size += k
            ended = games.step(actions)
            env_steps += args.envs
            for i in ended:   # a new game: new seat assignment
                student_seat[i] = rng.integers(n)
                greedy_game[i] = rng.random() < args.p_greedy
        student.train()
        loss_sum, nb = 0.0, 0
        for _ in range(args.epochs):
            order = rng.permutation(size)
            for lo in range(0, size, args.minibatch):
                b = torch.from_numpy(order[lo:lo + args.minibatch])
                logits = student(torch.from_numpy(buf_obs[b]), torch.from_numpy(buf_mask[b]))[0]
                logp = torch.log_softmax(logits, -1)
                tp = torch.from_numpy(buf_p[b])
                w = torch.from_numpy(buf_w[b])
                loss = -((tp * logp.masked_fill(tp == 0, 0.0)).sum(1) * w).sum() / w.sum()
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(student.parameters(), 1.0)
                opt.step()
                loss_sum += loss.item()
                nb += 1
        done += size
        rnd = {"round_end": done, "seconds": round(time.perf_counter() - t0, 1), "ce": round(loss_sum / max(nb, 1), 4),
               "agreement": round(agree / max(agree_n, 1), 4), "critic_decisions": critic_n}
        with open(log_path, "a") as f:
            f.write(json.dumps(rnd) + "\n")
        advance(bar, size)
        bar.set_postfix(ce=f"{rnd['ce']:.3f}", agree=f"{rnd['agreement']:.3f}")
    bar.close()
    best = max(history, key=lambda r: r["win_rate"])
    print(f"best evaluation: {best['win_rate']:.3f} at {best['decisions']:,} decisions ({best['policy']})")


def main(argv=None) -> None:
    """Parse the arguments and run."""
    ap = argparse.ArgumentParser(prog="python -m electrify_env.training.distill", description=__doc__.splitlines()[0])
    ap.add_argument("--teacher", default=DEFAULT_TEACHER, help="the policy (.pt) to distil (2-4 players)")
    ap.add_argument("--init", default=None, help="start the student from this policy's network (default: fresh)")
    ap.add_argument("--hidden", type=int, nargs="+", default=None,
                    help="a fresh student's hidden sizes (default: the teacher's); with --init, the init's "
                         "sizes with identity layers inserted (electrify_env.agents.net.deepen)")
    ap.add_argument("--out", default="runs/distill", help="folder for the evaluated students and log.jsonl")
    ap.add_argument("--decisions", type=int, default=10_000_000, help="labelled decisions to train on")
    ap.add_argument("--envs", type=int, default=256, help="games played at once")
    ap.add_argument("--rollout", type=int, default=32_768, help="labelled decisions per round")
    ap.add_argument("--epochs", type=int, default=2, help="passes over each round's decisions")
    ap.add_argument("--minibatch", type=int, default=512)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--temperature", type=float, default=1.0, help="of the teacher's softmax")
    ap.add_argument("--critic-weight", type=float, default=0.6,
                    help="label weight of the teacher's afterstate critics' choices where they decide "
                         "(0: ignore its critics)")
    ap.add_argument("--critic-loss-weight", type=float, default=1.0,
                    help="weight in the loss of a decision the teacher's critics labelled (others: 1)")
    ap.add_argument("--explore", type=float, default=0.25,
                    help="chance the student samples its softmax instead of its most likely action")
    ap.add_argument("--p-greedy", type=float, default=0.5,
                    help="share of the games whose other seats greedy plays (else the teacher)")
    ap.add_argument("--eval-every", type=int, default=1_000_000)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--eval-seed", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-progress", dest="progress", action="store_false")
    args = ap.parse_args(argv)
    if min(args.decisions, args.envs, args.rollout, args.epochs, args.minibatch, args.eval_every, args.eval_games) < 1:
        ap.error("--decisions, --envs, --rollout, --epochs, --minibatch, --eval-every, --eval-games must be at least 1")
    if not (0 <= args.explore <= 1 and 0 <= args.p_greedy <= 1 and 0 <= args.critic_weight <= 1
            and args.lr > 0 and args.temperature > 0 and args.critic_loss_weight > 0):
        ap.error("--explore, --p-greedy and --critic-weight must lie in [0, 1], --lr, --temperature and "
                 "--critic-loss-weight be positive")
    run(args)


if __name__ == "__main__":
    main()
