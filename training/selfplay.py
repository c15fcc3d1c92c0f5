"""electrify's own PPO: self-play with an opponent league, solo scenarios, imitation warm start.

One file to read top to bottom (CleanRL style), over the jitted league runner
(:mod:`electrify_env.kernels.league`), which steps ``num_envs`` games together and hands back the
decision of whoever is to move in each.  ``electrify train CONFIG`` or
``python -m electrify_env.training.selfplay --config configs/electrify-2p-from-scratch.yaml [--set field=value ...]``.

1. **League.**  When a game starts, one seat (drawn) is the learner's; every other seat is drawn
   independently: the learner itself (``p_self``), the greedy bot (``p_greedy``, batched in
   numba), a past snapshot of the learner (``p_snapshot``; snapshot k is drawn with weight
   ``(1 - w_k + 0.05) ** pfsp_power``, where ``w_k`` is the learner's recent win rate against it:
   prioritised fictitious self-play, AlphaStar's PFSP), random play (``p_random``) or one of the
   registered agents of ``league_agents`` (``p_agent``, drawn alike; e.g. mcts), which plays from
   its seat's observation and scrubbed information set as in the arena.  A snapshot
   joins every ``snapshot_every`` learner decisions; the oldest leaves beyond ``max_snapshots``.
   Solo (``n_players: 1``): the learner plays every game, scenarios drawn per game: alike, or
   (``scenario_sampling: hard``) scenario s with weight ``(1 - r_s + 0.05) ** pfsp_power``, r_s
   the learner's recent success rate on s in its training games (the rule of the snapshots).
2. **Streams.**  Every learner seat of every game is one trajectory (a *stream*).  A transition's
   reward is the change of the seat's potential (own points * ``points_scale``, or the margin over
   the best other player, or nothing) until the seat's next decision, plus ``win_bonus`` times
   the win reward (+1/k for each of k winners, -1 for the others; solo +1 when the target is
   reached) at the end.  Advantages are GAE(lambda) along each stream.  At the end of a rollout
   the last transition of a stream still running has no complete reward yet: it bootstraps the
   stream (its value) and is carried into the next rollout, where the rest of its reward and
   the game's outcome land on it.
3. **Imitation warm start** (``bc_steps``): every seat played by greedy; the network learns
   greedy's choice (cross-entropy over the legal actions) and the discounted return (value
   head), each chunk of ``rollout`` decisions ``bc_epochs`` times.  Optionally (``kick_coef``)
   the same cross-entropy toward greedy's choice on the learner's own states keeps pulling
   during RL, decaying to 0 (kickstarting).
4. **PPO update**: masked logits (illegal ids at -1e8), clipped ratio, value MSE, entropy over
   legal ids, advantage normalisation per minibatch, global gradient clip, Adam with linear decay.
5. **Evaluation** every ``eval_every`` decisions on fixed seeds: the deterministic policy against
   greedy in every other seat, seats rotated (solo: success rate against greedy's on the same
   games); a checkpoint (``checkpoint.pt``, resumable), ``curve.json``, ``curve.png``,
   TensorBoard scalars.  The best evaluated network is saved as ``policy.pt`` with its metadata.
   With ``ema_decay`` > 0 the network evaluated and saved is an exponential moving average of
   the learner's weights (updated after every PPO update); the learner is evaluated beside it.
"""
from __future__ import annotations

import argparse
import copy
import json
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from numba import njit

from electrify_env.engine import layout as L
from electrify_env.kernels import league as LG
from electrify_env.kernels.batch import sample_legal
from electrify_env.engine.observe import OBS_SIZE
from electrify_env.envs import SEAT_ENV_ID, SOLO_ENV_ID
from electrify_env.envs._common import card_set_and_options, scenario_list, scenario_table, table_for
from electrify_env.validation import IllegalActionError

from .config import ConfigError, TrainConfig, load_config, parse_overrides, resolve_policy_path
from .progress import advance
from electrify_env.agents.net import PolicyValueNet, compute_prior, lineage, load_policy, save_policy, transfer_weights

CTRL_LEARNER = 0
CTRL_GREEDY = 1
CTRL_RANDOM = 2
CTRL_SNAPSHOT = 3       # snapshot k is controller CTRL_SNAPSHOT + k
CTRL_AGENT = 1 << 20    # league agent j (cfg.league_agents[j]) is controller CTRL_AGENT + j
GREEDY_SPEC = "greedy"  # the teacher and the evaluation opponent (configs/agents/greedy.yaml)


def greedy_weights() -> np.ndarray:
    """The greedy agent's evaluation weights (configs/agents/greedy.yaml), as the agent uses them."""
    from electrify_env.agents.greedy import load_weights
    return load_weights().to_array()


# ----------------------------------------------------------------------------------------------
# The running games
# ----------------------------------------------------------------------------------------------
class Games:
    """``n`` games stepped together by the jitted league runner; ``obs``/``masks``/``movers``
    describe the decision pending in each row."""

    def __init__(self, n: int, n_players: int, cards, options: int, scenarios, seeds: np.ndarray,
                 scen_fixed: int = -1) -> None:
        self.n, self.n_players = n, n_players
        self.T, self.FF = table_for(cards)
        self.SCS = scenario_table(scenarios if n_players == 1 else None)
        self.options, self.scen_fixed = options, scen_fixed
        self.States = np.zeros((n, L.S_SIZE), dtype=np.int64)
        self.obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self.masks = np.zeros((n, L.N_ACTIONS), dtype=np.uint8)
        self.movers = np.zeros(n, dtype=np.int64)
        self.done = np.zeros(n, dtype=np.int64)
        self.final_pts = np.zeros((n, L.MAX_PLAYERS), dtype=np.int64)
        self.final_won = np.zeros((n, L.MAX_PLAYERS), dtype=np.int64)
        self.final_seed = np.zeros(n, dtype=np.int64)
        self.final_target = np.zeros(n, dtype=np.int64)
        self.seeds = np.asarray(seeds, dtype=np.int64).copy()
        self.scen = np.zeros(n, dtype=np.int64)
        self.pts = np.zeros((n, L.MAX_PLAYERS), dtype=np.int64)
        LG.league_reset(self.States, self.T, self.SCS, self.FF, n_players, options, scen_fixed,
                        self.seeds, self.scen, self.obs, self.masks, self.movers)

    def step(self, actions: np.ndarray) -> np.ndarray:
        """Apply one action per row; returns the rows whose game ended (and restarted)."""
        bad = LG.league_step(self.States, self.T, self.SCS, self.FF, self.n_players, self.options,
                             self.scen_fixed, actions, self.seeds, self.scen, self.obs, self.masks,
                             self.movers, self.done, self.final_pts, self.final_won, self.final_seed,
                             self.final_target)
        if bad >= 0:
            raise IllegalActionError(f"row {bad}: action {int(actions[bad])} is not legal")
        return np.flatnonzero(self.done)

    def points(self) -> np.ndarray:
        """(n, MAX_PLAYERS) points of every seat now."""
        LG.points_now(self.States, self.pts)
        return self.pts

    def targets(self) -> np.ndarray:
        """Solo targets of the running games."""
        return self.States[:, L.S_SOLO_TARGET]


def greedy_act(games: Games, rows: np.ndarray, W: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The greedy agent's actions for the movers of ``rows`` (batched, one determinization each)."""
    out = np.empty(len(rows), dtype=np.int64)
    if len(rows):
        LG.greedy_actions(games.States, games.T, W, rows.astype(np.int64),
                          rng.integers(0, 1 << 62, len(rows), dtype=np.int64), out)
    return out


def agent_act(games: Games, rows: np.ndarray, agent, card_set_hash: str) -> np.ndarray:
    """A registered agent's actions for the movers of ``rows``, one :class:`electrify_env.agents.base.SeatView`
    each (the mover's observation and scrubbed information set, as the arena builds it)."""
    from electrify_env.agents.base import check_legal, state_view
    out = np.empty(len(rows), dtype=np.int64)
    for j, r in enumerate(rows):
        view = state_view(games.States[r], games.T, games.movers[r], games.n_players, games.masks[r],
                          card_set_hash, games.obs[r] if agent.needs_observation else None,
                          infoset=agent.needs_infoset)
        out[j] = check_legal(view, agent.act(view), getattr(agent, "spec", agent.name))
    return out


def random_act(games: Games, rows: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uniform random legal actions for ``rows``."""
    out = np.empty(len(rows), dtype=np.int64)
    if len(rows):
        sample_legal(np.ascontiguousarray(games.masks[rows]), rng.random(len(rows)), out)
    return out


# ----------------------------------------------------------------------------------------------
# Rewards
# ----------------------------------------------------------------------------------------------
def potential(cfg: TrainConfig, pts: np.ndarray, rows: np.ndarray, seats: np.ndarray,
              targets: np.ndarray) -> np.ndarray:
    """Shaping potential of (row, seat) pairs: see TrainConfig.reward."""
    own = pts[rows, seats].astype(np.float64)
    if cfg.n_players == 1:
        return own / np.maximum(targets[rows], 1) if cfg.reward != "win" else np.zeros(len(rows))
    if cfg.reward == "win":
        return np.zeros(len(rows))
    if cfg.reward == "shaped":
        return own * cfg.points_scale
    others = pts[rows, :cfg.n_players].astype(np.float64).copy()
    others[np.arange(len(rows)), seats] = -1e9
    return (own - others.max(axis=1)) * cfg.points_scale


def win_reward(n_players: int, won_row: np.ndarray, seat: int) -> float:
    """+1/k to each of k winners, -1 to the others, 0 when every player ties; solo +1 / 0."""
    if n_players == 1:
        return 1.0 if won_row[0] else 0.0
    k = int(won_row[:n_players].sum())
    if k == n_players:
        return 0.0
    return 1.0 / k if won_row[seat] else -1.0


@njit(cache=False)
def stream_gae(rew, val, done, stream, boot, gamma, lam, adv):
    """GAE(lambda) along each stream of an interleaved buffer (``boot[s]``: value after the
    stream's last transition; ignored where that transition ends its game)."""
    nextv = boot.copy()
    nexta = np.zeros_like(boot)
    for t in range(rew.shape[0] - 1, -1, -1):
        s = stream[t]
        nonterm = 1.0 - done[t]
        delta = rew[t] + gamma * nextv[s] * nonterm - val[t]
        a = delta + gamma * lam * nonterm * nexta[s]
        adv[t] = a
        nextv[s] = val[t]
        nexta[s] = a


# ----------------------------------------------------------------------------------------------
# The league
# ----------------------------------------------------------------------------------------------
def pfsp_weights(rates: np.ndarray, power: float) -> np.ndarray:
    """Prioritised fictitious self-play: weight ``(1 - rate + 0.05) ** power`` per opponent (or
    solo scenario) from the learner's recent win (success) ``rates``, normalised to sum to 1."""
    w = (1.0 - np.asarray(rates, dtype=np.float64) + 0.05) ** power
    return w / w.sum()


@dataclass
class League:
    """Past snapshots of the learner and the learner's recent results against each opponent."""

    snapshots: list[PolicyValueNet] = field(default_factory=list)
    snapshot_steps: list[int] = field(default_factory=list)
    win_rate: dict[str, float] = field(default_factory=dict)

    def record(self, name: str, won: float, rate: float = 0.02) -> None:
        """Move the learner's win rate against ``name`` toward ``won`` (exponential average)."""
        self.win_rate[name] = (1 - rate) * self.win_rate.get(name, 0.5) + rate * won

    def pick_snapshot(self, rng: np.random.Generator, power: float) -> int:
        """PFSP: snapshot k with weight (1 - win rate against it + 0.05) ** power."""
        w = pfsp_weights([self.win_rate.get(f"snapshot{k}", 0.5) for k in range(len(self.snapshots))], power)
        return int(rng.choice(len(w), p=w))

    def add(self, net: PolicyValueNet, steps: int, keep: int) -> None:
        """Add a frozen copy of ``net``; drop the oldest beyond ``keep`` (their stats shift)."""
        snap = copy.deepcopy(net).cpu().eval()
        for p in snap.parameters():
            p.requires_grad_(False)
        self.snapshots.append(snap)
        self.snapshot_steps.append(steps)
        if len(self.snapshots) > keep:
            self.snapshots.pop(0)
            self.snapshot_steps.pop(0)
            for k in range(len(self.snapshots)):
                self.win_rate[f"snapshot{k}"] = self.win_rate.get(f"snapshot{k + 1}", 0.5)
            self.win_rate.pop(f"snapshot{len(self.snapshots)}", None)


# ----------------------------------------------------------------------------------------------
# Rollouts
# ----------------------------------------------------------------------------------------------
class Buffer:
    """Learner transitions of one rollout (up to ``capacity``)."""

    def __init__(self, capacity: int, n_inputs: int, prior: bool = False) -> None:
        self.obs = np.zeros((capacity, n_inputs), dtype=np.float32)
        self.mask = np.zeros((capacity, L.N_ACTIONS), dtype=np.bool_)
        # the logit prior of each decision (policies with a greedy prior; else no rows)
        self.prior = np.zeros((capacity if prior else 0, L.N_ACTIONS), dtype=np.float32)
        self.act = np.zeros(capacity, dtype=np.int64)
        self.teacher = np.full(capacity, -1, dtype=np.int64)
        self.logp = np.zeros(capacity, dtype=np.float32)
        self.val = np.zeros(capacity, dtype=np.float32)
        self.rew = np.zeros(capacity, dtype=np.float64)
        self.done = np.zeros(capacity, dtype=np.float64)
        self.stream = np.zeros(capacity, dtype=np.int64)
        self.size = 0

    def clear(self) -> None:
        """Empty the buffer."""
        self.carry(np.zeros(0, dtype=np.int64))

    def carry(self, idx: np.ndarray) -> np.ndarray:
        """Keep only the transitions ``idx`` (moved to the head, in order) for the next rollout;
        returns their new indices."""
        k = len(idx)
        for arr in (self.obs, self.mask, self.act, self.teacher, self.logp, self.val, self.rew, self.done,
                    self.stream) + ((self.prior,) if len(self.prior) else ()):
            arr[:k] = arr[idx]
        self.rew[k:self.size] = 0.0
        self.done[k:self.size] = 0.0
        self.teacher[k:self.size] = -1
        self.size = k
        return np.arange(k)


class Trainer:
    """The state of a training run: config, network, optimiser, league, games, counters."""

    def __init__(self, cfg: TrainConfig, log=print) -> None:
        self.cfg, self.log = cfg, log
        if cfg.torch_threads:
            torch.set_num_threads(cfg.torch_threads)
        torch.manual_seed(cfg.seed)
        self.rng = np.random.default_rng(cfg.seed)
        self.cards, self.options = card_set_and_options(None, tuple(cfg.tech_packs))
        self.n = cfg.n_players
        self.scenarios = scenario_list(cfg.scenario) if self.n == 1 else None
        self.device = torch.device(cfg.device)
        self.W = greedy_weights()
        self.agents = self.league_agents()
        self.net = self.new_net().to(self.device)
        self.acting = self.net if self.device.type == "cpu" else copy.deepcopy(self.net).cpu()
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.learning_rate, eps=1e-5)
        self.avg: PolicyValueNet | None = None   # the weight average (cfg.ema_decay > 0), on the CPU
        self.anchor: PolicyValueNet | None = None  # the network as RL starts (cfg.anchor_coef > 0), frozen
        self.league = League()
        self.steps = 0           # learner decisions of RL
        self.bc_done = 0         # decisions imitated
        self.bc_data_done = 0    # decisions of the stored games (cfg.bc_data) imitated
        self.env_steps = 0       # decisions of every seat stepped
        self.curve: list[dict[str, Any]] = []
        self.best: float = -math.inf
        self.train_seconds = 0.0
        self.out = Path(cfg.output_dir)
        self.n_streams = cfg.num_envs * max(self.n, 1)
        # a rollout adds at least `rollout` decisions (overrunning by at most one step of the
        # games) on top of the transitions carried over (at most one per stream)
        self.buf = Buffer(cfg.rollout + cfg.num_envs + self.n_streams, self.net.n_inputs,
                          prior=cfg.policy_prior != "none")
        self.last_idx = np.full(self.n_streams, -1, dtype=np.int64)
        self.pot_prev = np.zeros(self.n_streams)
        self.ctrl = np.zeros((cfg.num_envs, L.MAX_PLAYERS), dtype=np.int64)
        self.games: Games | None = None
        self.writer = None
        self.baseline: dict[str, Any] | None = None
        self.started_from: dict[str, Any] | None = None   # the policy this run started from (init_policy)
        # solo: the scenario (index into self.scenarios) of each row of the games' table, and of
        # the game running in each row
        self.scen_rows = np.arange(len(self.scenarios) if self.scenarios else 1, dtype=np.int64)
        self.game_scen = np.zeros(cfg.num_envs, dtype=np.int64)

    def new_net(self, init: bool = True) -> PolicyValueNet:
        """A network of this run's architecture (players, hidden sizes, logit prior)."""
        return PolicyValueNet(self.n, self.cfg.hidden, init=init, prior=self.cfg.policy_prior,
                              prior_scale=self.cfg.prior_scale,
                              prior_weights=self.W if self.cfg.policy_prior != "none" else None)

    def league_agents(self) -> list:
        """Build ``cfg.league_agents``, each seeded from the run's seed.  Each plays the first
        decision of a game of this run's kind first, so that an agent that cannot play these
        games (a policy of another player count or card set, a missing file) is a ConfigError
        before any training."""
        from electrify_env.agents.registry import make_agent
        out = []
        probe = (Games(1, self.n, self.cards, self.options, None, np.zeros(1, dtype=np.int64))
                 if self.cfg.league_agents else None)
        for j, spec in enumerate(self.cfg.league_agents):
            try:
                agent = make_agent(spec)
                agent.reset(0)
                agent_act(probe, np.zeros(1, dtype=np.int64), agent, self.cards.hash)
            except ValueError as exc:   # AgentError, PolicyMismatchError
                raise ConfigError(f"league_agents: {spec}: {exc}") from None
            agent.reset(int(self.cfg.seed) * 1009 + j)
            out.append(agent)
        return out

    # ---- the games and their seats -----------------------------------------------------------
    def start_games(self) -> None:
        """(Re)start the training games from seeds drawn from the run's generator."""
        seeds = self.rng.integers(0, 1 << 40, self.cfg.num_envs, dtype=np.int64)
        scen_fixed = 0 if self.n == 1 and self.cfg.scenario is not None else -1
        self.games = Games(self.cfg.num_envs, self.n, self.cards, self.options, self.scenarios, seeds,
                           scen_fixed)
        self.scen_rows = np.arange(self.games.SCS.shape[0], dtype=np.int64)
        self.game_scen[:] = self.games.scen if self.n == 1 else 0
        self.last_idx[:] = -1
        self.pot_prev[:] = 0.0
        self.buf.clear()
        for i in range(self.cfg.num_envs):
            self.assign(i)

    def assign(self, i: int, teacher_all: bool = False) -> None:
        """Draw the controllers of row i's new game (see the module docstring)."""
        c = self.ctrl[i]
        c[:] = CTRL_LEARNER
        if self.n == 1 or teacher_all:
            return
        cfg = self.cfg
        probs = np.array([cfg.p_self, cfg.p_greedy, cfg.p_snapshot, cfg.p_random, cfg.p_agent])
        probs = probs / probs.sum()
        me = int(self.rng.integers(self.n))
        for q in range(self.n):
            if q == me:
                continue
            kind = int(self.rng.choice(5, p=probs))
            if kind == 4:
                c[q] = CTRL_AGENT + int(self.rng.integers(len(self.agents)))
            elif kind == 1:
                c[q] = CTRL_GREEDY
            elif kind == 2 and self.league.snapshots:
                c[q] = CTRL_SNAPSHOT + self.league.pick_snapshot(self.rng, cfg.pfsp_power)
            elif kind == 3:
                c[q] = CTRL_RANDOM
            else:
                c[q] = CTRL_LEARNER

    # ---- solo scenarios ---------------------------------------------------------------------
    SCENARIO_ROWS = 16
    """Rows per scenario, on average, of the weighted scenario table (``scenario_sampling: hard``)."""

    def scenario_weights(self) -> np.ndarray:
        """Solo: the chance of each scenario (``self.scenarios``) for a new training game
        (``cfg.scenario_sampling``; the success rates are ``league.win_rate["solo_<id>"]``,
        0.5 before any game)."""
        assert self.scenarios is not None
        if self.cfg.scenario_sampling == "uniform" or len(self.scenarios) == 1:
            return np.full(len(self.scenarios), 1.0 / len(self.scenarios))
        return pfsp_weights([self.league.win_rate.get(f"solo_{sc.id}", 0.5) for sc in self.scenarios],
                            self.cfg.pfsp_power)

    def refresh_scenarios(self) -> None:
        """``scenario_sampling: hard``: rebuild the games' scenario table so that a new game
        (its row drawn alike from the table's rows by its seed) plays scenario s with about the
        chance :meth:`scenario_weights` gives: each scenario fills a share of the rows (at least
        one), largest remainders first.  Running games keep the scenario they started with."""
        if self.n != 1 or self.cfg.scenario_sampling == "uniform" or self.games is None:
            return
        w = self.scenario_weights()
        total = self.SCENARIO_ROWS * len(w)
        share = w * (total - len(w))
        counts = 1 + np.floor(share).astype(np.int64)
        rest = total - int(counts.sum())
        counts[np.argsort(-(share - np.floor(share)), kind="stable")[:rest]] += 1
        self.scen_rows = np.repeat(np.arange(len(w), dtype=np.int64), counts)
        self.games.SCS = scenario_table([self.scenarios[k] for k in self.scen_rows])

    # ---- one rollout ------------------------------------------------------------------------
    def collect(self, teacher: bool = False, want_labels: bool = False) -> int:
        """Play until the buffer holds ``cfg.rollout`` learner decisions.  ``teacher``: the
        learner's seats are played by greedy (imitation data); ``want_labels``: record greedy's
        choice on the learner's states (kickstarting).  Returns the learner decisions added
        (the buffer also holds the transitions carried over from the last rollout)."""
        self.refresh_scenarios()
        cfg, g, buf, n = self.cfg, self.games, self.buf, max(self.n, 1)
        assert g is not None
        start = buf.size
        rows_all = np.arange(cfg.num_envs)
        actions = np.empty(cfg.num_envs, dtype=np.int64)
        while buf.size - start < cfg.rollout:
            movers = g.movers
            ctrl = self.ctrl[rows_all, movers]
            lrn = np.flatnonzero(ctrl == CTRL_LEARNER)
            if lrn.size:
                o = g.obs[lrn, :self.net.n_inputs]
                m = g.masks[lrn].view(np.bool_)
                pr = compute_prior(self.acting, g.States, g.T, lrn, self.rng)
                with torch.inference_mode():
                    logits, v = self.acting(torch.from_numpy(o), torch.from_numpy(m),
                                            None if pr is None else torch.from_numpy(pr))
                    logits = logits / cfg.policy_temperature     # the policy RL samples and trains
                    logp_all = torch.log_softmax(logits, -1)
                    if teacher:
                        a = greedy_act(g, lrn, self.W, self.rng)
                        at = torch.from_numpy(a)
                    else:
                        gumbel = -torch.log(-torch.log(torch.rand(logits.shape).clamp_(1e-12, 1.0)))
                        at = (logits + gumbel).argmax(-1)   # a sample of softmax(logits)
                        a = at.numpy()
                    lp = logp_all.gather(1, at.unsqueeze(1)).squeeze(1).numpy()
                actions[lrn] = a
                k = lrn.size
                idx = np.arange(buf.size, buf.size + k)
                buf.obs[idx] = o
                buf.mask[idx] = m
                if pr is not None:
                    buf.prior[idx] = pr
                buf.act[idx] = a
                buf.logp[idx] = lp
                buf.val[idx] = v.numpy()
                if teacher:
                    buf.teacher[idx] = a
                elif want_labels:
                    buf.teacher[idx] = greedy_act(g, lrn, self.W, self.rng)
                streams = lrn * n + movers[lrn]
                buf.stream[idx] = streams
                pot = potential(cfg, g.points(), lrn, movers[lrn], g.targets())
                prev = self.last_idx[streams]
                has = prev >= 0
                buf.rew[prev[has]] += pot[has] - self.pot_prev[streams[has]]
                self.last_idx[streams] = idx
                self.pot_prev[streams] = pot
                buf.size += k
            for kind in np.unique(ctrl[ctrl != CTRL_LEARNER]):
                rows = np.flatnonzero(ctrl == kind)
                if kind == CTRL_GREEDY:
                    actions[rows] = greedy_act(g, rows, self.W, self.rng)
                elif kind == CTRL_RANDOM:
                    actions[rows] = random_act(g, rows, self.rng)
                elif kind >= CTRL_AGENT:
                    actions[rows] = agent_act(g, rows, self.agents[int(kind) - CTRL_AGENT], self.cards.hash)
                else:
                    snap = self.league.snapshots[int(kind) - CTRL_SNAPSHOT]
                    actions[rows] = snap.act(g.obs[rows], g.masks[rows], deterministic=False,
                                             prior=compute_prior(snap, g.States, g.T, rows, self.rng),
                                             temperature=cfg.policy_temperature)
            ended = g.step(actions)
            self.env_steps += cfg.num_envs
            for i in ended:
                self.finish_game(int(i), teacher)
        return buf.size - start

    def finish_game(self, i: int, teacher: bool) -> None:
        """Close the learner streams of row i's finished game, update the league statistics and
        draw the controllers of its next game."""
        cfg, g, buf, n = self.cfg, self.games, self.buf, max(self.n, 1)
        won = g.final_won[i]
        pts = g.final_pts[i:i + 1]
        learner_seats = [q for q in range(n) if self.ctrl[i, q] == CTRL_LEARNER]
        for q in learner_seats:
            s = i * n + q
            li = self.last_idx[s]
            if li >= 0:
                pot = potential(cfg, pts, np.zeros(1, dtype=np.int64), np.array([q]), g.final_target[i:i + 1])
                buf.rew[li] += pot[0] - self.pot_prev[s] + cfg.win_bonus * win_reward(n, won, q)
                buf.done[li] = 1.0
            self.last_idx[s] = -1
            self.pot_prev[s] = 0.0
        if self.n == 1:
            if not teacher:   # the learner's recent success per scenario (scenario_sampling)
                self.league.record(f"solo_{self.scenarios[self.game_scen[i]].id}", float(won[0]))
            self.game_scen[i] = self.scen_rows[g.scen[i]]   # the game that started in row i
        if not teacher and n > 1 and learner_seats:
            me = learner_seats[0]
            for q in range(n):
                c = self.ctrl[i, q]
                if c == CTRL_LEARNER:
                    continue
                name = ("greedy" if c == CTRL_GREEDY else "random" if c == CTRL_RANDOM
                        else f"agent:{cfg.league_agents[c - CTRL_AGENT]}" if c >= CTRL_AGENT
                        else f"snapshot{c - CTRL_SNAPSHOT}")
                self.league.record(name, float(won[me]) / max(int(won[:n].sum()), 1))
        self.assign(i, teacher_all=teacher)

    # ---- updates ----------------------------------------------------------------------------
    def update(self, imitation: bool = False) -> dict[str, float]:
        """One PPO (or imitation) update on the buffer; returns loss statistics."""
        cfg, buf = self.cfg, self.buf
        # The last transition of a stream still running has no complete reward yet: it stays
        # out of this update and is carried into the next rollout, where the rest of its reward
        # (and the game's outcome) lands on it.  Its value bootstraps the stream here.
        live = np.flatnonzero(self.last_idx >= 0)
        pending = self.last_idx[live]
        boot = np.zeros(self.n_streams)
        boot[live] = buf.val[pending]
        keep = np.ones(buf.size, dtype=np.bool_)
        keep[pending] = False
        idx = np.flatnonzero(keep)
        P = len(idx)
        adv = np.zeros(P)
        lam = 1.0 if imitation else cfg.gae_lambda
        stream_gae(buf.rew[idx], buf.val[idx].astype(np.float64), buf.done[idx], buf.stream[idx], boot,
                   cfg.gamma, lam, adv)
        ret = adv + buf.val[idx]
        dev = self.device
        t_obs = torch.from_numpy(buf.obs[idx]).to(dev)
        t_mask = torch.from_numpy(buf.mask[idx]).to(dev)
        t_act = torch.from_numpy(buf.act[idx]).to(dev)
        t_logp = torch.from_numpy(buf.logp[idx]).to(dev)
        t_adv = torch.from_numpy(adv.astype(np.float32)).to(dev)
        t_ret = torch.from_numpy(ret.astype(np.float32)).to(dev)
        t_teach = torch.from_numpy(buf.teacher[idx]).to(dev)
        t_prior = torch.from_numpy(buf.prior[idx]).to(dev) if len(buf.prior) else None
        self.last_idx[live] = buf.carry(pending)
        kick = 0.0
        if not imitation and cfg.kick_coef > 0:
            kick = cfg.kick_coef * max(0.0, 1.0 - self.steps / cfg.kick_steps)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "imitation_loss": 0.0,
                 "clip_frac": 0.0, "approx_kl": 0.0, "anchor_kl": 0.0}
        tau = 1.0 if imitation else cfg.policy_temperature
        nb = 0
        warmup = not imitation and self.steps < cfg.value_warmup
        epochs = cfg.bc_epochs if imitation else cfg.epochs
        size = cfg.bc_minibatch if imitation else cfg.minibatch
        for group in self.opt.param_groups:
            if imitation:
                group["lr"] = cfg.bc_learning_rate
        for _ in range(epochs):
            perm = torch.randperm(P, device=dev)
            for start in range(0, P, size):
                mb = perm[start:start + size]
                if mb.numel() < 2:
                    continue
                if warmup:   # the value head alone, on the trunk's features as they are
                    with torch.no_grad():
                        h = self.net.embed(t_obs[mb])
                    v_loss = 0.5 * ((self.net.value(h) - t_ret[mb]) ** 2).mean()
                    self.opt.zero_grad(set_to_none=True)
                    (cfg.vf_coef * v_loss).backward()
                    torch.nn.utils.clip_grad_norm_(self.net.v.parameters(), cfg.max_grad_norm)
                    self.opt.step()   # only the value head has gradients: Adam leaves the rest
                    stats["value_loss"] += v_loss.item()
                    nb += 1
                    continue
                pr_mb = None if t_prior is None else t_prior[mb]
                logits, v = self.net(t_obs[mb], t_mask[mb], pr_mb)
                logp_all = torch.log_softmax(logits / tau, -1)
                probs = logp_all.exp()
                akl = torch.zeros((), device=dev)
                if self.anchor is not None and not imitation:   # KL(anchor || learner), both at tau
                    with torch.no_grad():
                        a_logp = torch.log_softmax(self.anchor(t_obs[mb], t_mask[mb], pr_mb)[0] / tau, -1)
                    legal = t_mask[mb]
                    akl = (a_logp.exp() * (a_logp - logp_all)).masked_fill(~legal, 0.0).sum(-1).mean()
                entropy = -(probs * logp_all).sum(-1).mean()
                v_loss = 0.5 * ((v - t_ret[mb]) ** 2).mean()
                teach = t_teach[mb]
                has_t = teach >= 0
                il = (-logp_all[has_t].gather(1, teach[has_t].unsqueeze(1)).mean()
                      if bool(has_t.any()) else torch.zeros((), device=dev))
                if imitation:
                    loss = il + cfg.vf_coef * v_loss
                    pg = torch.zeros((), device=dev)
                    kl = torch.zeros(())
                    cf = torch.zeros(())
                else:
                    new_lp = logp_all.gather(1, t_act[mb].unsqueeze(1)).squeeze(1)
                    ratio = (new_lp - t_logp[mb]).exp()
                    a = t_adv[mb]
                    a = (a - a.mean()) / (a.std() + 1e-8)
                    pg = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip_range, 1 + cfg.clip_range)).mean()
                    loss = pg + cfg.vf_coef * v_loss - cfg.ent_coef * entropy + kick * il + cfg.anchor_coef * akl
                    with torch.no_grad():
                        kl = ((ratio - 1) - (new_lp - t_logp[mb])).mean()
                        cf = ((ratio - 1).abs() > cfg.clip_range).float().mean()
                self.opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), cfg.max_grad_norm)
                self.opt.step()
                stats["policy_loss"] += pg.item()
                stats["value_loss"] += v_loss.item()
                stats["entropy"] += entropy.item()
                stats["imitation_loss"] += il.item()
                stats["clip_frac"] += cf.item()
                stats["approx_kl"] += kl.item()
                stats["anchor_kl"] += akl.item()
                nb += 1
        if self.acting is not self.net:
            self.acting.load_state_dict(self.net.state_dict())
        if not imitation:
            self.average()
        return {k: v / max(nb, 1) for k, v in stats.items()} | {"kick_coef": kick, "samples": P}

    def set_anchor(self) -> None:
        """Freeze a copy of the network as it is now as the anchor of ``cfg.anchor_coef``'s KL
        penalty (on the update's device)."""
        self.anchor = copy.deepcopy(self.net).eval()
        for p in self.anchor.parameters():
            p.requires_grad_(False)

    def average(self) -> None:
        """Move the weight average toward the learner (cfg.ema_decay > 0; the first call starts
        it at the learner's weights)."""
        d = self.cfg.ema_decay
        if d <= 0:
            return
        if self.avg is None:
            self.avg = copy.deepcopy(self.acting)
            return
        with torch.no_grad():
            for pa, pl in zip(self.avg.parameters(), self.acting.parameters()):
                pa.mul_(d).add_(pl, alpha=1.0 - d)

    def policy_net(self) -> PolicyValueNet:
        """The network evaluated and saved: the weight average when there is one, else the learner."""
        return self.avg if self.avg is not None else self.acting

    def check_bc_data(self) -> None:
        """Read ``cfg.bc_data``'s records (without replaying them) and raise ConfigError unless
        they are games of this run's player count on this run's card set."""
        from .teacher import read_teacher_file

        path = self.cfg.bc_data
        try:
            _, records = read_teacher_file(path)
        except ValueError as err:
            raise ConfigError(f"bc_data: {err}") from None
        players = {int(r["n_players"]) for r in records}
        if players != {self.n}:
            raise ConfigError(f"bc_data: {path} holds {sorted(players)}-player games; this run "
                              f"trains n_players: {self.n}")
        hashes = {r.get("card_set_hash") for r in records} - {None}
        if hashes - {self.cards.hash}:
            raise ConfigError(f"bc_data: {path} was played on another card set "
                              f"(hash {sorted(hashes)[0][:12]}, this run {self.cards.hash[:12]})")

    def imitate_data(self) -> dict[str, float]:
        """Behaviour cloning on the stored games of ``cfg.bc_data`` (:mod:`electrify_env.training.teacher`):
        ``bc_data_epochs`` shuffled passes of cross-entropy toward the recorded action (masked
        logits), minibatch ``bc_minibatch``, Adam at ``bc_learning_rate``.  Returns the mean
        loss and the agreement (argmax == recorded action) of the last pass; raises ConfigError
        for a file of another player count or card set."""
        from .teacher import load_teacher_data

        cfg, dev = self.cfg, self.device
        self.check_bc_data()
        data = load_teacher_data(cfg.bc_data, winners_only=cfg.bc_data_winners_only, trim=True,
                                 progress=cfg.progress_bar, prior_weights=self.net.prior_weights,
                                 prior_seed=cfg.seed)
        if len(data) < 2:
            raise ConfigError(f"bc_data: {cfg.bc_data} has {len(data)} decisions to imitate")
        obs = torch.from_numpy(data.observations)
        mask = torch.from_numpy(data.masks)
        act = torch.from_numpy(data.actions)
        prior = None if data.priors is None else torch.from_numpy(data.priors)
        for group in self.opt.param_groups:
            group["lr"] = cfg.bc_learning_rate
        N, size = len(data), cfg.bc_minibatch
        gen = torch.Generator().manual_seed(cfg.seed)
        stats = {"imitation_loss": 0.0, "agreement": 0.0}
        for _ in range(cfg.bc_data_epochs):
            loss_sum, agree, seen = 0.0, 0.0, 0
            for mb in torch.randperm(N, generator=gen).split(size):
                if mb.numel() < 2:
                    continue
                logits, _ = self.net(obs[mb].to(dev), mask[mb].to(dev),
                                     None if prior is None else prior[mb].to(dev))
                target = act[mb].to(dev)
                loss = torch.nn.functional.cross_entropy(logits, target)
                self.opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), cfg.max_grad_norm)
                self.opt.step()
                loss_sum += loss.item() * mb.numel()
                agree += (logits.argmax(-1) == target).sum().item()
                seen += mb.numel()
            stats = {"imitation_loss": loss_sum / max(seen, 1), "agreement": agree / max(seen, 1)}
        if self.acting is not self.net:
            self.acting.load_state_dict(self.net.state_dict())
        self.bc_data_done = len(data)
        return stats | {"samples": float(N)}

    def set_lr(self) -> None:
        """The PPO step size: learning_rate, decayed linearly over total_steps when anneal_lr
        (down to 2% of it)."""
        lr = self.cfg.learning_rate
        if self.cfg.anneal_lr:
            lr *= max(1.0 - self.steps / self.cfg.total_steps, 0.02)
        for group in self.opt.param_groups:
            group["lr"] = lr

    # ---- evaluation -------------------------------------------------------------------------
    def evaluate(self, net: PolicyValueNet | None = None) -> dict[str, Any]:
        """The policy (deterministic) on ``eval_games`` fixed games: against greedy in every
        other seat with the learner's seat rotated (game i: seat i % n), or solo.  ``net=None``
        plays greedy itself in the learner's seat (the baseline)."""
        return evaluate_policy(net, self.cfg.n_players, self.cfg.eval_games, self.cfg.eval_seed, self.cards,
                               self.options, self.scenarios, self.cfg.scenario is not None, self.W)

    # ---- saving -----------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        """The metadata saved beside the policy."""
        where = ({"n_players": 1, "scenario": self.cfg.scenario or "all"} if self.n == 1
                 else {"n_players": self.n})
        return {**where, "tech_packs": list(self.cfg.tech_packs), "steps": self.steps,
                "imitation_steps": self.bc_done, "env_steps": self.env_steps,
                "train_seconds": round(self.train_seconds, 1), "config": self.cfg.to_dict(),
                "learning_curve": self.curve, **({"init_from": self.started_from} if self.started_from else {})}

    def init_from(self, path: str | Path) -> None:
        """Start the network from the saved policy ``path`` (config ``init_policy``): same card
        set and hidden sizes, any player count (:func:`electrify_env.agents.net.transfer_weights`)."""
        try:
            src, meta = load_policy(resolve_policy_path(path), card_set_hash=self.cards.hash)
            transfer_weights(src, self.net)
        except ValueError as err:     # PolicyMismatchError is a ValueError
            raise ConfigError(f"init_policy: {err}") from None
        self.started_from = lineage(path, meta)
        if self.acting is not self.net:
            self.acting.load_state_dict(self.net.state_dict())
        self.log(f"network initialised from {path} ({meta.get('n_players')}-player policy, "
                 f"{meta.get('imitation_steps', 0):,} imitated, {meta.get('steps', 0):,} RL decisions)")

    def save_policy(self, path: Path) -> Path:
        """Save the current network with its metadata."""
        return save_policy(self.policy_net(), path, self.cards.hash,
                           SOLO_ENV_ID if self.n == 1 else SEAT_ENV_ID, **self.meta())

    def save_checkpoint(self) -> None:
        """Everything needed to resume (games restart from fresh seeds on resume)."""
        blob = {"net": self.net.state_dict(), "opt": self.opt.state_dict(), "steps": self.steps,
                "bc_done": self.bc_done, "env_steps": self.env_steps, "curve": self.curve, "best": self.best,
                "train_seconds": self.train_seconds, "rng": self.rng.bit_generator.state,
                "league": {"snapshots": [s.state_dict() for s in self.league.snapshots],
                           "snapshot_steps": self.league.snapshot_steps, "win_rate": self.league.win_rate},
                "config": self.cfg.to_dict(), "baseline": self.baseline, "init_from": self.started_from,
                "avg": None if self.avg is None else self.avg.state_dict(),
                "anchor": None if self.anchor is None else self.anchor.state_dict()}
        tmp = self.out / "checkpoint.pt.tmp"
        torch.save(blob, tmp)
        tmp.replace(self.out / "checkpoint.pt")

    def load_checkpoint(self) -> None:
        """Resume from output_dir/checkpoint.pt."""
        path = self.out / "checkpoint.pt"
        if not path.is_file():
            raise ConfigError(f"resume: no checkpoint at {path}")
        blob = torch.load(path, map_location="cpu", weights_only=False)
        saved = blob["config"]
        if (saved.get("hidden") != self.cfg.hidden or saved.get("n_players") != self.n
                or saved.get("policy_prior", "none") != self.cfg.policy_prior):
            raise ConfigError(f"resume: {path} was saved with another network (hidden / n_players / "
                              "policy_prior)")
        self.net.load_state_dict(blob["net"])
        self.opt.load_state_dict(blob["opt"])
        if self.acting is not self.net:
            self.acting.load_state_dict(self.net.state_dict())
        self.steps, self.bc_done, self.env_steps = blob["steps"], blob["bc_done"], blob["env_steps"]
        self.curve, self.best, self.train_seconds = blob["curve"], blob["best"], blob["train_seconds"]
        self.rng.bit_generator.state = blob["rng"]
        self.baseline = blob.get("baseline")
        self.started_from = blob.get("init_from")
        if blob.get("anchor") is not None and self.cfg.anchor_coef > 0:
            self.set_anchor()
            self.anchor.load_state_dict(blob["anchor"])
        if blob.get("avg") is not None and self.cfg.ema_decay > 0:
            self.avg = self.new_net(init=False)
            self.avg.load_state_dict(blob["avg"])
        for sd, st in zip(blob["league"]["snapshots"], blob["league"]["snapshot_steps"]):
            snap = self.new_net(init=False)
            snap.load_state_dict(sd)
            self.league.add(snap, st, self.cfg.max_snapshots)
        self.league.win_rate = dict(blob["league"]["win_rate"])
        self.log(f"resumed from {path}: {self.bc_done:,} imitated, {self.steps:,} RL decisions")

    def plot_curve(self) -> None:
        """curve.png: the evaluation score against training decisions (a matplotlib Figure drawn
        without pyplot: the process's backend, e.g. a notebook's inline one, is left as it is)."""
        from matplotlib.figure import Figure

        xs = [p["decisions"] for p in self.curve]
        key = "win_rate" if self.n > 1 else "success_rate"
        fig = Figure(figsize=(6, 3.5))
        ax = fig.subplots()
        avg = any(f"online_{key}" in p for p in self.curve)
        ax.plot(xs, [p[key] for p in self.curve], marker="o",
                label="policy (weight average)" if avg else "policy")
        if avg:
            on = [(x, p[f"online_{key}"]) for x, p in zip(xs, self.curve) if f"online_{key}" in p]
            ax.plot([x for x, _ in on], [y for _, y in on], marker=".", alpha=0.6, label="learner")
        if self.baseline is not None:
            ax.axhline(self.baseline[key], color="gray", ls="--",
                       label="greedy" + (" (fair share)" if self.n > 1 else ""))
        ax.set_xlabel("decisions trained (imitation + RL)")
        ax.set_ylabel("win rate vs greedy" if self.n > 1 else "solo success rate")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend()
        ax.set_title(f"{'solo' if self.n == 1 else f'{self.n} players'}: {self.cfg.output_dir}")
        fig.tight_layout()
        fig.savefig(self.out / "curve.png", dpi=100)

    def record(self, phase: str, stats: dict[str, float] | None = None) -> dict[str, Any]:
        """Evaluate, append a curve point, log it, checkpoint, keep the best policy."""
        t = time.perf_counter()
        res = self.evaluate(self.policy_net())
        key = "win_rate" if self.n > 1 else "success_rate"
        online = {}
        if self.avg is not None:    # the learner itself, beside its weight average
            res_l = self.evaluate(self.acting)
            online = {f"online_{key}": res_l[key], "online_mean_points": res_l["mean_points"]}
        point = {"decisions": self.bc_done + self.steps, "rl_steps": self.steps, "imitation": self.bc_done,
                 "phase": phase, "seconds": round(self.train_seconds, 1), **res, **online}
        self.curve.append(point)
        self.log(f"[eval] {phase:9s} decisions {point['decisions']:>10,}  {key} {res[key]:.3f}  "
                 f"mean points {res['mean_points']:.2f}"
                 + (f"  (learner {online[f'online_{key}']:.3f})" if online else "")
                 + f"  ({time.perf_counter() - t:.1f} s)")
        if self.writer is not None:
            self.writer.add_scalar(f"eval/{key}", res[key], point["decisions"])
            self.writer.add_scalar("eval/mean_points", res["mean_points"], point["decisions"])
            for k, v in online.items():
                self.writer.add_scalar(f"eval/{k}", v, point["decisions"])
            for k, v in (stats or {}).items():
                self.writer.add_scalar(f"train/{k}", v, point["decisions"])
            for k, v in self.league.win_rate.items():
                self.writer.add_scalar(f"league/win_rate_{k}", v, point["decisions"])
        score = res[key] + 1e-3 * res["mean_points"]
        if score >= self.best:
            self.best = score
            self.save_policy(self.out / "policy.pt")
        if self.cfg.keep_evaluated:
            (self.out / "evaluated").mkdir(exist_ok=True)
            self.save_policy(self.out / "evaluated" / f"policy-{point['decisions']}.pt")
        self.save_checkpoint()
        (self.out / "curve.json").write_text(json.dumps({"curve": self.curve, "baseline": self.baseline,
                                                         "league": self.league.win_rate}, indent=2))
        self.plot_curve()
        return point


# ----------------------------------------------------------------------------------------------
# Evaluation (also used by the benchmarks and tests)
# ----------------------------------------------------------------------------------------------
def evaluate_policy(net: PolicyValueNet | None, n_players: int, games: int, seed0: int, cards, options: int,
                    scenarios=None, fixed_scenario: bool = False, W: np.ndarray | None = None,
                    opponent: str = "greedy", batch: int = 256) -> dict[str, Any]:
    """Play ``games`` games with seeds ``seed0 + i``: the network (most likely legal action; or
    greedy when ``net`` is None) in seat ``i % n_players``, ``opponent`` (``greedy`` or
    ``random``) in the other seats; solo: every game the network's, scenario drawn from the seed
    (or ``scenarios[0]``).  Returns win rate (a shared win counts 1/k), mean points and margin
    (solo: success rate, mean final score, per-scenario success)."""
    W = greedy_weights() if W is None else W
    rng = np.random.default_rng(seed0)
    n = n_players
    wins, pts, margins, scen_ok = [], [], [], {}
    for lo in range(0, games, batch):
        k = min(batch, games - lo)
        seeds = seed0 + lo + np.arange(k, dtype=np.int64)
        g = Games(k, n, cards, options, scenarios, seeds, 0 if (n == 1 and fixed_scenario) else -1)
        seat = (lo + np.arange(k)) % n
        scen0 = g.scen.copy()
        finished = np.zeros(k, dtype=bool)
        actions = np.empty(k, dtype=np.int64)
        while not finished.all():
            mine = g.movers == seat
            lr = np.flatnonzero(mine)
            op = np.flatnonzero(~mine)
            if lr.size:
                actions[lr] = (greedy_act(g, lr, W, rng) if net is None
                               else net.act(g.obs[lr], g.masks[lr], deterministic=True,
                                            prior=compute_prior(net, g.States, g.T, lr, rng)))
            if op.size:
                actions[op] = greedy_act(g, op, W, rng) if opponent == "greedy" else random_act(g, op, rng)
            ended = g.step(actions)
            for i in ended:
                if finished[i]:
                    continue
                finished[i] = True
                won = g.final_won[i]
                s = seat[i]
                if n == 1:
                    wins.append(float(won[0]))
                    pts.append(float(g.final_pts[i, 0]))
                    name = scenarios[int(scen0[i])].id
                    scen_ok.setdefault(name, []).append(float(won[0]))
                else:
                    wins.append(float(won[s]) / max(int(won[:n].sum()), 1))
                    pts.append(float(g.final_pts[i, s]))
                    others = np.delete(g.final_pts[i, :n], s)
                    margins.append(float(g.final_pts[i, s] - others.max()))
    if n == 1:
        return {"success_rate": float(np.mean(wins)), "mean_points": float(np.mean(pts)), "games": games,
                "by_scenario": {k: float(np.mean(v)) for k, v in sorted(scen_ok.items())}}
    return {"win_rate": float(np.mean(wins)), "mean_points": float(np.mean(pts)),
            "mean_margin": float(np.mean(margins)), "games": games}


# ----------------------------------------------------------------------------------------------
# The run
# ----------------------------------------------------------------------------------------------
def train(cfg: TrainConfig, log=print) -> dict[str, Any]:
    """Run the imitation phase and the league PPO of ``cfg``; returns a summary."""
    tr = Trainer(cfg, log)
    if cfg.bc_data is not None and not cfg.resume:
        tr.check_bc_data()          # before anything is played or written
    if cfg.init_policy is not None and not cfg.resume:
        tr.init_from(cfg.init_policy)   # likewise
    tr.out.mkdir(parents=True, exist_ok=True)
    if cfg.resume:
        tr.load_checkpoint()
    if cfg.tensorboard:
        try:
            from torch.utils.tensorboard import SummaryWriter
            tr.writer = SummaryWriter(str(tr.out / "tb"))
        except ImportError:
            log("tensorboard is not installed: no TensorBoard logs (pip install tensorboard)")
    if tr.baseline is None:
        tr.baseline = tr.evaluate(None)
        key = "win_rate" if tr.n > 1 else "success_rate"
        log(f"[baseline] greedy in the learner's seat: {key} {tr.baseline[key]:.3f}, mean points "
            f"{tr.baseline['mean_points']:.2f} ({cfg.eval_games} games)")
    tr.start_games()
    bar = None
    total = cfg.bc_steps + cfg.total_steps
    if cfg.progress_bar:
        from tqdm import tqdm
        bar = tqdm(total=total, initial=tr.bc_done + tr.steps, unit="dec", dynamic_ncols=True,
                   file=sys.stderr)
    t_run = time.perf_counter()
    env0 = tr.env_steps
    # imitation of stored search-agent games (expert iteration's warm start): a fresh run only
    if cfg.bc_data is not None and not cfg.resume:
        t0 = time.perf_counter()
        stats = tr.imitate_data()
        tr.train_seconds += time.perf_counter() - t0
        log(f"[imitation of {cfg.bc_data}] {tr.bc_data_done:,} decisions x {cfg.bc_data_epochs} passes: "
            f"loss {stats['imitation_loss']:.3f}, agreement {stats['agreement']:.3f}")
        tr.record("imitation-data", stats)
    # imitation of greedy: every seat of every game played by greedy
    if tr.bc_done < cfg.bc_steps:
        for i in range(cfg.num_envs):
            tr.assign(i, teacher_all=True)
        next_eval = tr.bc_done + cfg.eval_every
        while tr.bc_done < cfg.bc_steps:
            t0 = time.perf_counter()
            added = tr.collect(teacher=True)
            stats = tr.update(imitation=True)
            tr.bc_done += added
            tr.train_seconds += time.perf_counter() - t0
            if bar is not None:
                advance(bar, added)
                bar.set_postfix(phase="imitation", il=f"{stats['imitation_loss']:.3f}")
            if tr.bc_done >= next_eval or tr.bc_done >= cfg.bc_steps:
                next_eval = tr.bc_done + cfg.eval_every
                tr.record("imitation", stats)
        tr.start_games()
    # PPO in the league
    next_eval = (tr.steps // cfg.eval_every + 1) * cfg.eval_every
    next_snap = (tr.steps // cfg.snapshot_every + 1) * cfg.snapshot_every
    if tr.n > 1 and not tr.league.snapshots:
        tr.league.add(tr.net, tr.steps, cfg.max_snapshots)
    if tr.avg is None:
        tr.average()      # the weight average (ema_decay > 0) starts at the network RL starts from
    if cfg.anchor_coef > 0 and tr.anchor is None:
        tr.set_anchor()   # the KL anchor: the network RL starts from
    while tr.steps < cfg.total_steps:
        t0 = time.perf_counter()
        tr.set_lr()
        added = tr.collect(want_labels=cfg.kick_coef > 0 and tr.steps < cfg.kick_steps)
        stats = tr.update()
        tr.steps += added
        tr.train_seconds += time.perf_counter() - t0
        if bar is not None:
            advance(bar, added)
            wr = tr.league.win_rate.get("greedy")
            wa = tr.league.win_rate.get(f"agent:{cfg.league_agents[0]}") if cfg.league_agents else None
            bar.set_postfix(phase="rl", ent=f"{stats['entropy']:.2f}",
                            **({"wr_greedy": f"{wr:.2f}"} if wr is not None else {}),
                            **({"wr_agent0": f"{wa:.2f}"} if wa is not None else {}))
        if tr.n > 1 and tr.steps >= next_snap:
            next_snap += cfg.snapshot_every
            tr.league.add(tr.net, tr.steps, cfg.max_snapshots)
        if tr.steps >= next_eval or tr.steps >= cfg.total_steps:
            next_eval += cfg.eval_every
            tr.record("rl", stats)
    if bar is not None:
        bar.close()
    wall = time.perf_counter() - t_run
    if tr.writer is not None:
        tr.writer.close()
    summary = {"policy": str(tr.out / "policy.pt"), "curve": tr.curve, "baseline": tr.baseline,
               "train_seconds": tr.train_seconds, "env_steps": tr.env_steps - env0, "wall_seconds": wall,
               "decisions": tr.bc_done + tr.steps}
    log(f"done: {tr.bc_done:,} imitated + {tr.steps:,} RL decisions, {tr.env_steps - env0:,} env steps "
        f"in {wall:.0f} s; best policy {tr.out / 'policy.pt'}")
    return summary


def main(argv: list[str] | None = None) -> int:
    """``python -m electrify_env.training.selfplay --config FILE [--set field=value ...]``."""
    ap = argparse.ArgumentParser(prog="electrify train", description=__doc__.split("\n")[0])
    ap.add_argument("config", nargs="?", default=None, help="YAML file filling electrify_env.training.config.TrainConfig")
    ap.add_argument("--config", dest="config_opt", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                    help="override a config field (YAML value), e.g. --set total_steps=200000")
    args = ap.parse_args(argv)
    path = args.config or args.config_opt
    try:
        cfg = load_config(path, TrainConfig, parse_overrides(args.set))
    except ConfigError as exc:
        ap.error(str(exc))
    try:
        train(cfg)
    except ConfigError as exc:
        print(f"electrify train: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
