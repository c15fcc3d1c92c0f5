"""Expert iteration: the trainer of the policy-value policies (``electrify train-expert CONFIG``).

1. **Warm start** (``warm_games`` > 0): the teacher (greedy) plays every seat of many games; the
   network learns its moves (cross-entropy) and the games' results (mean squared error).
2. **Rounds** (``iterations``): ``games_per_iteration`` games of search self-play
   (:func:`.selfplay.search_games`) against opponents drawn from the league (itself, past
   snapshots of the network alone, agents such as greedy); the learner's moves are chosen by the
   determinized Gumbel search with the current network as prior and leaf value, and labelled
   with the search's improved policy (completed Q) and the game's result; the samples join the
   replay buffer and ``train_steps`` minibatches train the network toward them.
3. **Screening** every ``eval_every`` rounds: the network alone against ``eval_opponent`` on
   the config's screening seeds; TensorBoard (``out/tb``) and ``out/log.jsonl`` record every
   round's losses, speeds and win rates.  The best-screened network so far is ``out/best.pt``;
   with ``patience`` the run stops once that many screenings in a row fall short of it.

A checkpoint (``out/checkpoint.pt``: network, optimizer, snapshots, round, generator) is written
after the warm start and after every round; a run started again with ``resume: true`` continues
from it (the replay buffer starts empty).  The policy file (``policy``) is written at the end with
the config, the sample counts and the last screening figures in its metadata; it is rewritten
after every round, so a run stopped early (``max_minutes``, or by hand) leaves its latest network,
and every screened round's network is kept as ``out/rounds/policy-rNNNN.pt`` with its screening
figures, to choose the file to ship from.
"""
from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch.nn import functional as F
from tqdm import tqdm

from electrify_env.agents.network.agent import evaluator_of
from electrify_env.agents.network.layout import layout_of
from electrify_env.agents.network.model import PolicyValueNet
from electrify_env.agents.network.policy_file import PolicyFileError, load, save
from electrify_env.agents.registry import make_agent
from electrify_env.agents.search.evaluators import utility
from electrify_env.agents.search.gumbel import GumbelSearch
from electrify_env.games import get_game

from .config import ExpertConfig, load_expert_config
from .selfplay import Replay, search_games, teacher_games

__all__ = ["train", "main", "NetOpponent", "screen", "TRAINING_SEEDS"]

#: the range the training games' seeds are drawn from (warm start and self-play; screening uses
#: ``eval_seed`` upwards): the arena derives its game seeds as 62-bit numbers, so an arena game
#: whose seed (in its ``games.jsonl``) is at least 2**31 is none that training played
TRAINING_SEEDS = (0, 2**31)


class NetOpponent:
    """A frozen network alone as an agent of the self-play league (argmax of its policy)."""

    def __init__(self, net: PolicyValueNet, spec: str) -> None:
        self.net, self.spec = net, spec

    def reset(self, seed: int = 0) -> None:
        """Nothing to reseed (it plays its argmax)."""

    def act_in(self, game: Any) -> int:
        """The network's most likely legal action for the player on turn."""
        p = int(game.current_player)
        logits, _ = self.net.evaluate(game.observe(p)[None], np.asarray(game.legal_mask())[None])
        return int(np.argmax(logits[0]))


def screen(net: PolicyValueNet, cfg: ExpertConfig, games: int, seed: int, opponent: str) -> dict:
    """The network alone against ``opponent`` in ``games`` seat-rotated games on seeds
    ``seed, seed + 1, ...``: its win share (a tie shared) and mean utility."""
    gdef = get_game(cfg.game)
    me = NetOpponent(net, "network")
    opp = make_agent(opponent, game=gdef.name)
    wins, util = 0.0, 0.0
    for k in range(games):
        g = gdef.new_game(cfg.players, int(seed + k))
        seat = k % cfg.players
        opp.reset(int(seed + k))
        while not g.is_terminal:
            legal = g.legal_actions()
            if legal.size == 1:
                g.step(int(legal[0]))
            elif int(g.current_player) == seat:
                g.step(me.act_in(g))
            else:
                g.step(int(opp.act_in(g)))
        w = g.winners()
        wins += (1.0 / len(w)) if seat in w else 0.0
        util += float(utility(g)[seat])
    return {"win_rate": wins / max(games, 1), "utility": util / max(games, 1), "games": games}


def _losses(net: PolicyValueNet, batch: tuple[np.ndarray, ...], value_weight: float) -> tuple[torch.Tensor, ...]:
    obs, mask, pol, val = (torch.from_numpy(np.ascontiguousarray(x)) for x in batch)
    logits, values = net(obs, mask)
    logp = F.log_softmax(logits, dim=1)
    policy_loss = -(pol * torch.where(mask > 0, logp, torch.zeros_like(logp))).sum(1).mean()
    value_loss = F.mse_loss(values, val)
    return policy_loss + value_weight * value_loss, policy_loss, value_loss


def _train_steps(net, opt, replay: Replay, cfg: ExpertConfig, steps: int, rng: np.random.Generator,
                 desc: str) -> dict:
    net.train()
    totals = np.zeros(2)
    for _ in tqdm(range(steps), desc=desc, leave=False, disable=steps < 20):
        loss, pl, vl = _losses(net, replay.sample(rng, cfg.batch), cfg.value_weight)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 5.0)
        opt.step()
        totals += (float(pl.detach()), float(vl.detach()))
    net.eval()
    return {"policy_loss": totals[0] / max(steps, 1), "value_loss": totals[1] / max(steps, 1)}


def _league(cfg: ExpertConfig, rng: np.random.Generator, snapshots: list[PolicyValueNet],
            agents: dict[str, Any]) -> tuple[tuple[int, ...], Any]:
    """One game's learner seats and opponent, drawn from the league's weights."""
    keys = [k for k in cfg.league if cfg.league[k] > 0 and (k != "snapshot" or snapshots)]
    w = np.array([cfg.league[k] for k in keys], dtype=np.float64)
    key = keys[int(rng.choice(len(keys), p=w / w.sum()))]
    if key == "self":
        return tuple(range(cfg.players)), None
    seat = int(rng.integers(cfg.players))
    if key == "snapshot":
        j = int(rng.integers(len(snapshots)))
        return (seat,), NetOpponent(snapshots[j], f"snapshot{j}")
    return (seat,), agents[key]


def init_from(net: PolicyValueNet, path: str, game: str) -> list[str]:
    """Copy into ``net`` every tensor of the policy file ``path`` whose name and shape match
    (PolicyFileError for a file of another game); returns the names of ``net``'s tensors that
    keep their fresh weights."""
    src, meta = load(path)
    if meta.get("game") != game:
        raise PolicyFileError(f"init policy {path} plays {meta.get('game')!r}, not {game!r}")
    theirs = src.state_dict()
    mine = net.state_dict()
    fresh = [k for k, v in mine.items() if k not in theirs or theirs[k].shape != v.shape]
    net.load_state_dict({k: (v if k in fresh else theirs[k]) for k, v in mine.items()})
    return fresh


def train(cfg: ExpertConfig, log: Any = print) -> Path:
    """Run the trainer of the module docstring for ``cfg``; returns the policy file's path."""
    t_start = time.time()
    torch.set_num_threads(cfg.threads)
    torch.manual_seed(cfg.seed)
    out = Path(cfg.out)
    out.mkdir(parents=True, exist_ok=True)
    gdef = get_game(cfg.game)
    layout = layout_of(gdef.name, cfg.players)
    cards_hash = gdef.new_game(cfg.players, 0).cards.hash
    net = PolicyValueNet(layout, cfg.embed, cfg.hidden)
    if cfg.init and not (cfg.resume and (out / "checkpoint.pt").is_file()):
        fresh = init_from(net, cfg.init, gdef.name)
        log(f"network starts from {cfg.init}" + (f" (fresh: {', '.join(fresh)})" if fresh else ""))
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    rng = np.random.default_rng(np.random.SeedSequence([cfg.seed, 7]))
    replay = Replay(cfg.replay, layout.obs_size, layout.n_actions, cfg.players)
    snapshots: list[PolicyValueNet] = []
    start, last_screen, counts = 0, {}, {"warm_samples": 0, "search_samples": 0, "games": 0}
    best = {"round": -1, "utility": -1.0, "stale": 0}      # the best screened network so far
    ckpt = out / "checkpoint.pt"
    from torch.utils.tensorboard import SummaryWriter
    tb = SummaryWriter(str(out / "tb"))

    def checkpoint(round_done: int) -> None:
        torch.save({"net": net.state_dict(), "opt": opt.state_dict(), "round": round_done,
                    "snapshots": [s.state_dict() for s in snapshots], "rng": rng.bit_generator.state,
                    "counts": counts, "screen": last_screen, "best": best, "config": cfg.as_dict()}, ckpt)

    def record(step: int, row: dict) -> None:
        with open(out / "log.jsonl", "a") as f:
            f.write(json.dumps({"round": step, **row}) + "\n")
        for k, v in row.items():
            if isinstance(v, (int, float)):
                tb.add_scalar(k, v, step)
        log(f"round {step}: " + ", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                                         for k, v in row.items() if not isinstance(v, dict)))

    if cfg.resume and ckpt.is_file():
        blob = torch.load(ckpt, map_location="cpu", weights_only=False)
        net.load_state_dict(blob["net"])
        opt.load_state_dict(blob["opt"])
        for sd in blob["snapshots"]:
            s = PolicyValueNet(layout, cfg.embed, cfg.hidden)
            s.load_state_dict(sd)
            snapshots.append(s.eval())
        rng.bit_generator.state = blob["rng"]
        start, counts, last_screen = int(blob["round"]), blob["counts"], blob.get("screen", {})
        best.update(blob.get("best", {}))
        log(f"resumed from {ckpt} after round {start}")
    elif cfg.warm_games:
        t0 = time.time()
        teacher = make_agent(cfg.warm_teacher, game=gdef.name)
        seeds = rng.integers(*TRAINING_SEEDS, size=cfg.warm_games)
        with tqdm(total=cfg.warm_games, desc=f"warm start: {cfg.warm_teacher} games") as bar:
            samples, st = teacher_games(lambda s: gdef.new_game(cfg.players, s), seeds, teacher,
                                        cfg.warm_epsilon, rng, bar)
        replay.extend(samples)
        counts["warm_samples"] = len(samples)
        del samples
        steps = cfg.warm_epochs * max(1, replay.size // cfg.batch)
        losses = _train_steps(net, opt, replay, cfg, steps, rng, "warm start: training")
        last_screen = screen(net, cfg, cfg.eval_games, cfg.eval_seed, cfg.eval_opponent) if cfg.eval_games else {}
        record(0, {**losses, "samples": st["samples"], "seconds": time.time() - t0,
                   **{f"screen_{k}": v for k, v in last_screen.items()}})
        checkpoint(0)
    net.eval()

    def export(rounds: int, path: Path | None = None) -> Path:
        return save(cfg.policy_path if path is None else path, net, cards_hash, search=cfg.play_search,
                    trainer="expert iteration", config=cfg.as_dict(), rounds=rounds, counts=dict(counts),
                    screening={"opponent": cfg.eval_opponent, **last_screen})

    def keep_if_best(rounds: int) -> None:
        # out/best.pt: the network of the highest screening utility (the earlier round on a tie)
        if last_screen.get("utility", -1.0) > best["utility"]:
            best.update(round=rounds, utility=float(last_screen["utility"]), stale=0)
            export(rounds, out / "best.pt")
        else:
            best["stale"] += 1

    if cfg.eval_games and start == 0 and best["round"] < 0 and last_screen:
        keep_if_best(0)
    rnd = start
    agents = {k: make_agent(k, game=gdef.name) for k in cfg.league if k not in ("self", "snapshot")}
    first = cfg.iterations + 1 if cfg.patience and best["stale"] >= cfg.patience else start + 1
    for rnd in range(first, cfg.iterations + 1):
        t0 = time.time()
        search = GumbelSearch(evaluator_of(net), simulations=cfg.simulations, determinizations=cfg.determinizations,
                              considered=cfg.considered, gumbel_scale=cfg.gumbel_scale)
        seeds = rng.integers(*TRAINING_SEEDS, size=cfg.games_per_iteration)
        league = [_league(cfg, rng, snapshots, agents) for _ in range(cfg.games_per_iteration)]
        with torch.inference_mode(), tqdm(total=cfg.games_per_iteration, desc=f"round {rnd}: self-play") as bar:
            samples, st = search_games(lambda s: gdef.new_game(cfg.players, s), seeds, [l[0] for l in league],
                                       [l[1] for l in league], search, cfg.parallel, rng, bar,
                                       value_mix=cfg.value_mix)
        t_play = time.time() - t0
        replay.extend(samples)
        counts["search_samples"] += len(samples)
        counts["games"] += st["games"]
        losses = _train_steps(net, opt, replay, cfg, cfg.train_steps, rng, f"round {rnd}: training")
        if rnd % cfg.snapshot_every == 0:
            snapshots.append(copy.deepcopy(net).eval())
            del snapshots[:-cfg.snapshots]
        row = {**losses, "samples": len(samples), "searched_per_s": st["searched"] / max(t_play, 1e-9),
               "decisions": st["decisions"], "seconds": time.time() - t0,
               **{f"utility_vs_{k}": v for k, v in st["utility_vs"].items()}}
        if cfg.eval_games and (rnd % cfg.eval_every == 0 or rnd == cfg.iterations):
            last_screen = screen(net, cfg, cfg.eval_games, cfg.eval_seed + rnd * cfg.eval_games, cfg.eval_opponent)
            row.update({f"screen_{k}": v for k, v in last_screen.items()})
            export(rnd, out / "rounds" / f"policy-r{rnd:04d}.pt")     # every screened network is kept
            keep_if_best(rnd)
            row["best_round"] = best["round"]
        record(rnd, row)
        checkpoint(rnd)
        export(rnd)
        if cfg.patience and best["stale"] >= cfg.patience:
            log(f"stopped after round {rnd}: {best['stale']} screenings in a row below round "
                f"{best['round']}'s (utility {best['utility']:.3f}, out/best.pt)")
            break
        if cfg.max_minutes and time.time() - t_start > 60 * cfg.max_minutes:
            log(f"stopped after round {rnd}: the run's {cfg.max_minutes} minutes are spent")
            break
    tb.close()
    path = export(rnd if cfg.iterations > start else start)
    log(f"wrote {path}")
    return path


def main(argv: list[str] | None = None) -> None:
    """``python -m electrify_env.training.expert CONFIG [key=value ...]``."""
    import argparse

    from ..config import parse_overrides

    ap = argparse.ArgumentParser(prog="electrify train-expert", description=__doc__.split("\n\n")[0])
    ap.add_argument("config", help="a YAML config (configs/gizmos-2p-expert.yaml) or a shipped config's name")
    ap.add_argument("overrides", nargs="*", help="field=value pairs that replace the file's")
    args = ap.parse_args(argv)
    train(load_expert_config(args.config, parse_overrides(args.overrides)))
