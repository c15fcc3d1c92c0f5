"""Agents that play a policy trained by ``electrify train`` (:mod:`electrify_env.training.selfplay`).

* ``net:path=FILE.pt`` plays any saved policy (``FILE.meta.json`` beside it);
* ``trained`` plays the shipped policy of the game's player count (``policies/``: solo, 2, 3 or
  4 players; loaded on its first decision);
* ``trained_solo``, ``trained_2p``, ``trained_3p``, ``trained_4p`` play one shipped policy each.

One forward pass per decision over the observation, the most likely legal action (or a sample
with ``deterministic=false``).  A policy trained with a greedy logit prior (``policy_prior:
greedy``, :class:`electrify_env.agents.net.PolicyValueNet`) also adds greedy's one-ply values of the legal
actions, computed from one determinization of the seat's information set (R26): such an agent
reads ``SeatView.infoset`` and cannot be used as an ``(observation, mask)`` callable.  A policy
with an afterstate critic (:class:`electrify_env.agents.net.AfterstateCritic`, trained by
:mod:`electrify_env.training.acquire_critic`; a policy may have several, each for its own decision types)
chooses, at the decision types it names, among the policy's most likely legal actions by scoring
the seat's observation after each (one determinization of its information set); it too reads the information set, and it is used in deterministic play only.
A policy with a rollout lookahead (:class:`electrify_env.agents.net.RolloutLookahead`) chooses, at its
decision types, among the policy's most likely legal actions by greedy rollouts from
determinizations of its information set (a short search at play time); likewise deterministic
play only.  A policy saved for another observation
layout, card set or player count is refused with a one-line
:class:`~electrify_env.agents.policy_meta.PolicyMismatchError`.

>>> from electrify_env.agents import make_agent
>>> agent = make_agent("trained_2p")       # doctest: +SKIP
"""
from __future__ import annotations

import time
from pathlib import Path


import numpy as np

from electrify_env.agents.policy_meta import check_compatible, load_policy_metadata, policy_needs_infoset, policy_players

from .base import Agent, AgentError, SeatView, check_legal, top_actions
from .registry import NETWORK_ONLY_2P, POLICY_DIR, SHIPPED, check_params

class _Prior:
    """Work arrays of the jitted greedy prior (one set per agent): greedy's, plus the prior."""

    def __init__(self) -> None:
        from electrify_env.engine.layout import N_ACTIONS

        from .greedy import GreedyBuffers

        self.b = GreedyBuffers()
        self.out = np.zeros(N_ACTIONS, dtype=np.float32)


def shipped_policy(n_players: int, file: str | None = None) -> Path:
    """Path of the shipped policy for ``n_players`` (1 = solo), or of the shipped ``file``;
    AgentError if none is shipped."""
    name = file or SHIPPED.get(int(n_players))
    path = POLICY_DIR / name if name else None
    if path is None or not path.is_file():
        have = ", ".join(f"{k}: {v}" for k, v in SHIPPED.items() if (POLICY_DIR / v).is_file())
        raise AgentError(f"no shipped policy for {n_players} player(s) in {POLICY_DIR} "
                         f"(shipped: {have or 'none'})")
    return path


class NetAgent(Agent):
    """Plays a policy saved by :func:`electrify_env.agents.net.save_policy`.

    Args:
        path: the policy ``.pt`` file (its ``.meta.json`` sidecar beside it).
        deterministic: play the most likely legal action (default) instead of sampling one.
    """

    name = "net"
    needs_observation = True
    searched = 0        # statistics of a rollout lookahead (per instance once it has searched):
    seconds = 0.0       # searched moves and their time, as mcts keeps them

    def __init__(self, path: str = "", deterministic: bool = True) -> None:
        super().__init__()
        v = check_params(self.name, path=str(path), deterministic=deterministic)
        if not v["path"]:
            raise AgentError("agent 'net' needs a policy file: net:path=FILE.pt")
        self.deterministic = v["deterministic"]
        self._nets: dict[int, object] = {}
        self._paths: dict[int, Path] = {}
        self._fixed = Path(v["path"])
        if not self._fixed.is_file():
            raise AgentError(f"agent 'net': policy file {self._fixed} does not exist or is not a file")
        self.meta = load_policy_metadata(self._fixed)
        check_compatible(self.meta, where=f"policy {self._fixed}")
        self.needs_infoset = policy_needs_infoset(self.meta)
        self._gen = None
        self._prior: _Prior | None = None
        self._crit: tuple | None = None    # the afterstate critic's card table, face table and work arrays

    def _policy_path(self, n_players: int) -> Path:
        return self._fixed

    def _net(self, view: SeatView):
        n = int(view.n_players)
        net = self._nets.get(n)
        if net is None:
            from electrify_env.agents.net import load_policy   # torch is imported only when a policy plays

            path = self._policy_path(n)
            net, meta = load_policy(path, card_set_hash=view.card_set_hash or None, n_players=n)
            trained = policy_players(meta)
            if trained not in (None, 1) and trained != n:
                raise AgentError(f"policy {path} was trained for {trained}-player games, not {n}")
            self._nets[n], self._paths[n] = net, path
        if net.critic is not None and view.infoset is not None and not getattr(net, "_warmed", False):
            self._warm_critic(view, net)   # at the first view with an information set
            net._warmed = True
        return net

    def _warm_critic(self, view: SeatView, net) -> None:
        """Load the critic's compiled code and run its torch path once, with the policy, so that
        no later move pays for it (the first critic move took 34 ms before).  Draws nothing from
        the agent's generator: its play is the same with or without this."""
        from electrify_env.agents.net import critic_choice

        legal = np.flatnonzero(view.mask)
        if legal.size:
            self.afterstates(view, legal[:1].astype(np.int64), 0, net)
        for critic in net.critics:
            critic_choice(net, np.zeros((critic.top_k, net.n_inputs), np.float32),
                          np.zeros(critic.top_k, np.float32), critic)

    def afterstates(self, view: SeatView, cands: np.ndarray, seed: int, net=None) -> np.ndarray:
        """The seat's observations (the policy's input prefix, float32 ``(len(cands), n_inputs)``)
        after each of the legal actions ``cands`` (int64) in the determinization ``seed`` of its
        information set (:func:`electrify_env.kernels.afterstate.afterstate_observations`): what
        the afterstate critic scores, and what :mod:`electrify_env.training.acquire_critic` stores."""
        from electrify_env.kernels.afterstate import afterstate_observations
        from electrify_env.engine.layout import S_SIZE
        from electrify_env.engine.observe import OBS_SIZE, face_features

        net = net if net is not None else self._net(view)
        c = self._crit
        if c is None or c[0] is not view.table:
            c = self._crit = (view.table, face_features(view.table), np.empty(S_SIZE, np.int64),
                              np.empty(S_SIZE, np.int64), np.zeros(OBS_SIZE, np.float32))
        after = np.zeros((len(cands), net.n_inputs), np.float32)
        afterstate_observations(view.infoset, view.table, c[1], np.int64(view.seat), np.int64(seed), cands,
                                np.int64(len(cands)), np.int64(net.n_inputs), c[2], c[3], c[4], after)
        return after

    def reset(self, seed: int = 0) -> None:
        """Reseed (a sampling policy samples with a torch generator seeded here)."""
        super().reset(seed)
        self._gen = None

    def act(self, view: SeatView) -> int:
        """The policy's action for the seat's observation, restricted to the legal mask."""
        self._need(view)
        net = self._net(view)
        if (net.lookaheads or net.critic is not None) and self.deterministic and np.count_nonzero(view.mask) > 1:
            from electrify_env.decision import pending_frame_type

            frame = pending_frame_type(view.infoset)     # a lookahead or a critic may decide it
            la = net.lookahead_for(frame, view.infoset)
            critic = None if la is not None else net.critic_for(frame, view.infoset)
            if la is not None or critic is not None:
                a = self._lookahead_act(view, la) if la is not None else self._critic_act(view, net, critic)
                return check_legal(view, a, f"{self.spec!r} ({self._paths[int(view.n_players)]})")
        gen = None
        if not self.deterministic:
            import torch
            if self._gen is None:
                self._gen = torch.Generator().manual_seed(int(self.rng.integers(1 << 62)))
            gen = self._gen
        a = net.act(view.observation[None, :], view.mask[None, :], self.deterministic, gen,
                    self._prior_row(view, net))[0]
        return check_legal(view, int(a), f"{self.spec!r} ({self._paths[int(view.n_players)]})")

    def _critic_act(self, view: SeatView, net, critic) -> int:
        """``critic``'s choice (an :class:`electrify_env.agents.net.AfterstateCritic` of ``net``, the one for
        the pending decision type) among the policy's ``top_k`` most likely legal actions: their
        afterstates in one determinization of the seat's information set, drawn with the agent's
        generator."""
        from electrify_env.agents.net import critic_choice

        from .greedy import SEED_LIMIT

        logits = self.logits(view)
        cands = top_actions(logits, critic.top_k)
        after = self.afterstates(view, cands, int(self.rng.integers(SEED_LIMIT)), net)
        return int(cands[critic_choice(net, after, logits[cands], critic)])

    def _lookahead_act(self, view: SeatView, la) -> int:
        """The lookahead's choice (``la``, a :class:`electrify_env.agents.net.RolloutLookahead`) among the
        policy's ``top_k`` most likely legal actions; its determinizations are drawn from the
        agent's generator."""
        from .greedy import SEED_LIMIT

        cands = top_actions(self.logits(view), la.top_k)
        if cands.size == 1:
            return int(cands[0])
        t0 = time.perf_counter()
        a = la.choose(view.infoset, view.table, int(view.seat), cands, int(self.rng.integers(SEED_LIMIT)))
        self.searched += 1
        self.seconds += time.perf_counter() - t0
        return a

    def logits(self, view: SeatView) -> np.ndarray:
        """The policy's logits (float32, ``N_ACTIONS``; -inf for the illegal actions): the
        network's, plus ``prior_scale`` x greedy's one-ply values for a policy with a prior.
        What ``act`` takes the most likely action of (``mcts:guide=...`` ranks its candidates by
        them)."""
        self._need(view)
        net = self._net(view)
        out = net.policy_logits(view.observation[None, :], view.mask[None, :],
                                self._prior_row(view, net))[0].numpy().astype(np.float32)
        out[np.asarray(view.mask) == 0] = -np.inf
        return out

    def _prior_row(self, view: SeatView, net) -> np.ndarray | None:
        """The (1, N_ACTIONS) logit prior of ``view`` for a policy with one (None otherwise)."""
        prior = None
        if net.prior != "none":
            if view.infoset is None:
                raise AgentError(f"agent {self.spec!r} plays a policy with a greedy prior: it needs the "
                                 "information-set view (SeatView.infoset)")
            from electrify_env.kernels.search import infoset_prior

            from .greedy import SEED_LIMIT

            pr = self._prior = self._prior or _Prior()
            b = pr.b
            if np.count_nonzero(view.mask) > 1:   # a forced move needs no prior (and no draw)
                infoset_prior(view.infoset, view.table, net.prior_weights,
                              np.int64(self.rng.integers(SEED_LIMIT)), pr.out, b.mask, b.det, b.vals,
                              b.work, b.tally, b.scratch)
            else:
                pr.out[:] = 0.0
            prior = pr.out[None, :]
        return prior


class TrainedAgent(NetAgent):
    """Plays the shipped policy for the game's player count (``policies/``).

    Args:
        deterministic: play the most likely legal action (default) instead of sampling one.
    """

    name = "trained"
    players: int | None = None
    file: str | None = None     # a shipped file other than SHIPPED[players]

    def __init__(self, deterministic: bool = True) -> None:
        Agent.__init__(self)
        v = check_params(self.name if self.players is None else type(self).name, deterministic=deterministic)
        self.deterministic = v["deterministic"]
        self._nets, self._paths, self._gen, self._prior, self._crit = {}, {}, None, None, None
        if self.players is not None:
            self._fixed = shipped_policy(self.players, self.file)
            self.meta = load_policy_metadata(self._fixed)
            check_compatible(self.meta, where=f"policy {self._fixed}")
            self.needs_infoset = policy_needs_infoset(self.meta)
        else:   # the policy depends on the game's player count: any shipped one may need the infoset
            self.needs_infoset = any(policy_needs_infoset(load_policy_metadata(POLICY_DIR / name))
                                     for name in SHIPPED.values() if (POLICY_DIR / name).is_file())

    def _policy_path(self, n_players: int) -> Path:
        if self.players is not None:
            if (self.players == 1) != (n_players == 1) or (self.players > 1 and self.players != n_players):
                raise AgentError(f"agent {self.name!r} plays {self.players}-player games "
                                 f"(solo = 1), not {n_players}")
            return self._fixed
        return shipped_policy(n_players)


class TrainedSolo(TrainedAgent):
    """The shipped solo policy (every scenario)."""
    name, players = "trained_solo", 1


class Trained2P(TrainedAgent):
    """The shipped 2-player policy."""
    name, players = "trained_2p", 2


class Trained2PNet(TrainedAgent):
    """The shipped 2-player policy without a logit prior (network only)."""
    name, players, file = "trained_2p_net", 2, NETWORK_ONLY_2P


class Trained3P(TrainedAgent):
    """The shipped 3-player policy."""
    name, players = "trained_3p", 3


class Trained4P(TrainedAgent):
    """The shipped 4-player policy."""
    name, players = "trained_4p", 4
