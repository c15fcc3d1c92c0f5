"""A best response to a frozen policy-value file, trained by PPO from the file's own weights.

:func:`train_best_response` is the learner side of ``electrify exploit`` for a policy of the one
design (:mod:`electrify_env.agents.network`): the learner is a copy of the file's network (its
policy head acts, its own-seat value is the critic); the frozen policy, as the registered agent
it is (``policy``, with its search unless the spec says ``simulations=0``), plays every other
seat.  One learner seat per game, rotated game by game; the reward is the learner's utility at
the end of the game (:func:`electrify_env.agents.search.evaluators.utility`: 1 for a win, shared
on a tie), no discount.

Each update collects ``rollout`` learner decisions with a choice from each of ``envs`` games
stepped together (one batched forward pass a step), then runs clipped PPO (GAE lambda
``gae_lambda``, ``epochs`` passes of ``minibatch`` samples).  The network is kept as a policy
file at ``points`` evenly spaced decision counts (``policy-<decisions>.pt`` in ``out``).  The
run is a function of its arguments (seeded games, sampling and minibatches; one torch thread).
"""
from __future__ import annotations

import copy
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np
import torch
from torch.nn import functional as F
from tqdm import tqdm

from electrify_env.agents.network.policy_file import load, save
from electrify_env.agents.registry import make_agent
from electrify_env.agents.search.evaluators import utility
from electrify_env.games import get_game

__all__ = ["train_best_response", "TRAINING_SEEDS"]

#: game seeds of best-response training (arena seeds lie at 2**31 and above)
TRAINING_SEEDS = (0, 2**31)


class _Table:
    """One game of the rollout: the learner's seat, the frozen opponent, the pending decision."""

    def __init__(self, new_game: Callable[[int], Any], opponent: Any, seed: int, seat: int) -> None:
        self.game = new_game(seed)
        self.opponent = opponent
        self.opponent.reset(seed)
        self.seat = seat

    def advance(self) -> bool:
        """Play forced moves and the opponents' moves up to the learner's next decision with a
        choice; False when the game ended first."""
        g = self.game
        while not g.is_terminal:
            legal = g.legal_actions()
            if legal.size == 1:
                g.step(int(legal[0]))
            elif int(g.current_player) == self.seat:
                return True
            else:
                g.step(int(self.opponent.act_in(g)))
        return False


def train_best_response(policy_file: str | Path, frozen: str, game: str, steps: int, points: int, out: str | Path,
                        seed: int = 0, envs: int = 16, rollout: int = 64, lr: float = 2.5e-4, epochs: int = 4,
                        minibatch: int = 256, clip: float = 0.2, gae_lambda: float = 0.95,
                        entropy: float = 0.01, value_coef: float = 0.5, log: Any = print) -> list[Path]:
    """Train a best response to ``frozen`` (an agent spec of ``game`` that plays ``policy_file``)
    for ``steps`` learner decisions (module docstring); returns the kept policy files in order.

    The player count is the file's.  ``frozen`` is made once per game table, so an agent with
    state (a search) keeps none across tables."""
    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(np.random.SeedSequence([seed, 11]))
    src, meta = load(policy_file)
    n_players = int(meta["n_players"])
    net = copy.deepcopy(src).train()
    opt = torch.optim.Adam(net.parameters(), lr=lr, eps=1e-5)
    gdef = get_game(game)
    cards_hash = gdef.new_game(n_players, 0).cards.hash
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    marks = [max(1, round(steps * (k + 1) / points)) for k in range(points)]
    kept: list[Path] = []
    games_started = 0

    def new_table() -> _Table:
        """A fresh game advanced to the learner's first decision with a choice."""
        nonlocal games_started
        while True:
            t = _Table(lambda s: gdef.new_game(n_players, s), make_agent(frozen, game=gdef.name),
                       int(rng.integers(*TRAINING_SEEDS)), games_started % n_players)
            games_started += 1
            if t.advance():
                return t

    tables = [new_table() for _ in range(envs)]
    done_steps, results, t0 = 0, [], time.time()
    bar = tqdm(total=steps, desc="best response: PPO", unit="dec")
    while done_steps < steps:
        buf = {k: [] for k in ("obs", "mask", "act", "logp", "val", "rew", "end")}
        for _ in range(rollout):
            obs = np.stack([t.game.observe(t.seat) for t in tables]).astype(np.float32)
            mask = np.stack([np.asarray(t.game.legal_mask(), dtype=np.uint8) for t in tables])
            with torch.no_grad():
                logits, values = net(torch.from_numpy(obs), torch.from_numpy(mask))
                dist = torch.distributions.Categorical(logits=logits)
                act = _sample(logits, rng)
                logp = dist.log_prob(act)
            rew, end = np.zeros(envs, np.float32), np.zeros(envs, np.float32)
            for i, t in enumerate(tables):
                t.game.step(int(act[i]))
                if not t.advance():
                    rew[i], end[i] = float(utility(t.game)[t.seat]), 1.0
                    results.append(rew[i])
                    tables[i] = new_table()
            for k, v in (("obs", obs), ("mask", mask), ("act", act.numpy()), ("logp", logp.numpy()),
                         ("val", values[:, 0].numpy()), ("rew", rew), ("end", end)):
                buf[k].append(v)
        with torch.no_grad():
            obs = np.stack([t.game.observe(t.seat) for t in tables]).astype(np.float32)
            mask = np.stack([np.asarray(t.game.legal_mask(), dtype=np.uint8) for t in tables])
            last = net(torch.from_numpy(obs), torch.from_numpy(mask))[1][:, 0].numpy()
        val, rew, end = (np.stack(buf[k]) for k in ("val", "rew", "end"))
        adv = np.zeros_like(rew)
        gae = np.zeros(envs, np.float32)
        for s in reversed(range(rollout)):
            nxt = last if s == rollout - 1 else val[s + 1]
            delta = rew[s] + (1.0 - end[s]) * nxt - val[s]
            gae = delta + gae_lambda * (1.0 - end[s]) * gae
            adv[s] = gae
        ret = adv + val
        flat = {k: np.concatenate(buf[k]) if k in ("obs", "mask") else np.stack(buf[k]).reshape(-1)
                for k in ("obs", "mask", "act", "logp")}
        flat["adv"], flat["ret"] = adv.reshape(-1), ret.reshape(-1)
        n = flat["act"].shape[0]
        for _ in range(epochs):
            order = rng.permutation(n)
            for lo in range(0, n, minibatch):
                idx = order[lo:lo + minibatch]
                o, m = torch.from_numpy(flat["obs"][idx]), torch.from_numpy(flat["mask"][idx])
                a = torch.from_numpy(flat["act"][idx]).long()
                logits, values = net(o, m)
                dist = torch.distributions.Categorical(logits=logits)
                ratio = torch.exp(dist.log_prob(a) - torch.from_numpy(flat["logp"][idx]))
                ad = torch.from_numpy(flat["adv"][idx])
                ad = (ad - ad.mean()) / (ad.std() + 1e-8) if len(idx) > 1 else ad
                pg = -torch.min(ratio * ad, torch.clamp(ratio, 1 - clip, 1 + clip) * ad).mean()
                vl = F.mse_loss(values[:, 0], torch.from_numpy(flat["ret"][idx]))
                loss = pg + value_coef * vl - entropy * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
        done_steps += n
        bar.update(n)
        recent = results[-200:]
        bar.set_postfix(utility=f"{np.mean(recent):.3f}" if recent else "-")
        while marks and done_steps >= marks[0]:
            mark = marks.pop(0)
            net.eval()
            kept.append(save(out / f"policy-{mark}.pt", net, cards_hash, search=None,
                             trainer="best response (PPO)", frozen=frozen, decisions=done_steps))
            net.train()
            seen = f"training utility {np.mean(recent):.3f} over the last {len(recent)} games" if recent \
                else "no game finished yet"
            log(f"kept {kept[-1].name}: {done_steps:,} decisions, {seen}, "
                f"{done_steps / (time.time() - t0):.0f} decisions/s")
    bar.close()
    return kept


def _sample(logits: torch.Tensor, rng: np.random.Generator) -> torch.Tensor:
    """One action per row from the masked ``logits``, drawn with ``rng`` (Gumbel-max)."""
    g = -np.log(-np.log(rng.random(logits.shape)))
    return torch.from_numpy(np.argmax(logits.numpy() + g, axis=1))
