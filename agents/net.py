"""The policy-value network of electrify's own trainer (:mod:`electrify_env.training.selfplay`) and its file.

The network reads the part of the observation a game of ``n_players`` can fill
(``obs_size(n_players)`` entries; the blocks of absent seats are always zero), then an MLP trunk
shared by two heads: the action logits (``N_ACTIONS``; illegal ids are masked to ``-1e8``
before the softmax, so the policy never puts mass on them) and the value.

A saved policy is two files: ``NAME.pt`` (the architecture and a torch ``state_dict`` stored as
float16, loaded as float32 with ``weights_only=True``) and ``NAME.meta.json`` (:mod:`electrify_env.agents.policy_meta`: observation
version and size, action count, card-set hash, players or scenario, training steps, wall time,
config).  :func:`load_policy` refuses a file saved for another observation layout or card set
with a one-line :class:`~electrify_env.agents.policy_meta.PolicyMismatchError`.

>>> from electrify_env.agents.net import load_policy
>>> net, meta = load_policy("policies/electrify-2p.pt")      # doctest: +SKIP
"""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np
import torch
from torch import nn

from electrify_env.engine.layout import N_ACTIONS, S_SOLO, S_SOLO_TARGET
from electrify_env.engine.observe import obs_size
from electrify_env.agents.policy_meta import (
    PolicyMismatchError, check_compatible, load_policy_metadata, policy_critics, policy_metadata,
    policy_players, save_policy_metadata,
)

ARCH = "mlp-v1"
"""Architecture id stored in every saved file without an afterstate critic (a file of an
architecture this code does not read is refused)."""
ARCH_CRITIC = "mlp-critic-v1"
"""Architecture id of a network with an :class:`AfterstateCritic` (older code refuses such a
file by its id instead of misreading it)."""
ARCH_CRITICS = "mlp-critics-v1"
"""Architecture id of a network with two or more afterstate critics, each for its own decision
types (``arch["critics"]``, a list; a file with one keeps :data:`ARCH_CRITIC`'s format unless
that critic has a ``max_target``, which code reading only :data:`ARCH_CRITIC` would not know, so
it refuses such a file by its id)."""
ARCH_SEARCH = "mlp-search-v1"
"""Architecture id of a network with one or more :class:`RolloutLookahead` (``arch["lookaheads"]``,
a list; its afterstate critics, if any, in ``arch["critics"]``): code that does not know the
lookahead refuses such a file by its id instead of playing it without its search."""
MASKED_LOGIT = -1e8
"""Logit given to illegal actions (finite, so a row with one legal action stays well defined)."""
ALGORITHM = "electrify PPO (training/selfplay.py)"
PRIORS = ("none", "greedy")
"""Logit priors a network may add (``PolicyValueNet(prior=...)``): ``greedy`` adds
``prior_scale`` x greedy's one-ply values of the legal actions (``kernels.search.greedy_prior``)."""


def in_target_range(max_target: int, state: np.ndarray) -> bool:
    """Whether a decider limited to ``max_target`` (an afterstate critic or a rollout lookahead)
    decides in the game of engine state (or information set) ``state``: always when
    ``max_target`` is 0, else in solo games whose target is at most ``max_target``."""
    return max_target == 0 or bool(state[S_SOLO] and state[S_SOLO_TARGET] <= max_target)


def decider_for(deciders, frame: int, state: np.ndarray | None = None):
    """Of ``deciders`` (critics or lookaheads, each with ``frame_codes`` and ``applies``), the one
    whose types include ``frame`` if it decides in the game of ``state`` (None: whatever the
    game), else None."""
    for d in deciders:
        if frame in d.frame_codes:
            return d if state is None or d.applies(state) else None
    return None


class AfterstateCritic(nn.Module):
    """A head that chooses among the policy's best candidates by scoring their afterstates.

    At a decision of one of the types ``frames`` (names of
    :data:`electrify_env.decision.FRAME_KINDS`) with at least two legal actions, a deterministic
    agent (:class:`electrify_env.agents.trained.NetAgent`) takes the policy's ``top_k`` most likely legal
    actions, the mover's observation after each in one determinization of its information set
    (:func:`electrify_env.kernels.afterstate.afterstate_observations`, R26), and plays the
    candidate this head scores highest: a one-ply lookahead with a learned evaluation.  The
    score of candidate ``j`` is an MLP (``hidden`` -> 1) over the policy trunk's embedding
    ``h_j`` of its afterstate, ``h_j`` minus the candidates' mean embedding, and its logit's gap
    to the best candidate's (divided by 10, floored at -3).  It reads the policy's own trunk,
    which stays frozen while the head learns (:mod:`electrify_env.training.acquire_critic`: the head learns
    to rank the candidates as a search does), so it adds only the head's weights.

    Args:
        width: the trunk's output width (``hidden[-1]`` of the network).
        frames: decision types it chooses at (default ``("acquire",)``).
        top_k: candidates (the policy's most likely legal actions), at least 2.
        hidden: width of the head's hidden layer.
        init: zero the output layer (the untrained head scores every candidate 0, so the agent
            plays the policy's choice); False for weights about to be loaded.
        max_target: decide only in solo games whose target (energy points to reach) is at most
            this (elsewhere the policy decides); 0 (default): in every game.
    """

    def __init__(self, width: int, frames: Sequence[str] = ("acquire",), top_k: int = 3,
                 hidden: int = 128, init: bool = True, max_target: int = 0) -> None:
        super().__init__()
        from electrify_env.decision import parse_frame_kinds

        if int(top_k) < 2:
            raise ValueError(f"an afterstate critic needs top_k >= 2 candidates, got {top_k!r}")
        if int(hidden) <= 0:
            raise ValueError(f"the critic's hidden width must be positive, got {hidden!r}")
        if int(max_target) < 0:
            raise ValueError(f"the critic's max_target must be >= 0 (0: every game), got {max_target!r}")
        self.max_target = int(max_target)
        self.frames = [str(f) for f in frames]
        self.frame_codes = frozenset(parse_frame_kinds(",".join(self.frames)))
        self.top_k, self.hidden = int(top_k), int(hidden)
        self.mlp = nn.Sequential(nn.Linear(2 * int(width) + 1, self.hidden), nn.ReLU(), nn.Linear(self.hidden, 1))
        if init:
            nn.init.zeros_(self.mlp[2].weight)
            nn.init.zeros_(self.mlp[2].bias)

    def forward(self, h: torch.Tensor, valid: torch.Tensor, logits: torch.Tensor) -> torch.Tensor:
        """Scores (B, K) of K candidates per decision: ``h`` (B, K, width) trunk embeddings of
        the afterstates, ``valid`` (B, K) bool (a decision may have fewer than K candidates),
        ``logits`` (B, K) the policy's logits of the candidates, best first.  Invalid
        candidates score :data:`MASKED_LOGIT`."""
        v = valid[:, :, None].to(h.dtype)
        mean = (h * v).sum(1, keepdim=True) / v.sum(1, keepdim=True).clamp(min=1.0)
        gap = ((logits - logits[:, :1]) / 10.0).clamp(min=-3.0)[:, :, None]
        s = self.mlp(torch.cat([h, h - mean, gap], -1)).squeeze(-1)
        return s.masked_fill(~valid, MASKED_LOGIT)

    def applies(self, state: np.ndarray) -> bool:
        """Whether the critic decides in the game of engine state (or information set) ``state``:
        always without ``max_target``; with it, in solo games of a target at most that."""
        return in_target_range(self.max_target, state)

    def config(self) -> dict:
        """The fields saved in the policy file's architecture (``arch["critic"]``; ``max_target``
        only when set, so a critic without it saves what earlier versions saved)."""
        out = {"frames": list(self.frames), "top_k": self.top_k, "hidden": self.hidden}
        return out | ({"max_target": self.max_target} if self.max_target else {})


class RolloutLookahead:
    """A short search over the policy's best candidates, played at chosen decision types.

    At a decision of one of the types ``frames`` with at least two legal actions, a
    deterministic agent (:class:`electrify_env.agents.trained.NetAgent`) takes the policy's ``top_k`` most
    likely legal actions and plays the one with the best mean search value over ``rollouts //
    top_k`` determinizations of its information set (R26), every candidate played on each of the
    same samples by greedy rollouts for ``horizon`` rounds
    (:func:`electrify_env.kernels.search.paired_search`, what ``mcts:method=paired`` runs; in solo
    the value measures the evaluation against the scenario's target).  It has no weights to
    train: it is the search whose values :mod:`electrify_env.training.acquire_critic` teaches an afterstate
    critic, run at play time instead (about 20 searched decisions and 0.3-0.5 s a solo game
    with the placing decisions).

    Args:
        frames: decision types it decides (names of :data:`electrify_env.decision.FRAME_KINDS`).
        top_k: candidates, at least 2.
        rollouts: rollouts per searched decision (``rollouts // candidates`` samples, at least 1).
        horizon: rounds each rollout plays.
        weights: the greedy evaluation and rollout weights (``kernels.search.WEIGHT_NAMES``;
            default the greedy agent's, ``configs/agents/greedy.yaml``, with ``explore`` 0 so
            rollouts are deterministic, as the ``mcts`` agent's).
        max_target: decide only in solo games whose target is at most this; 0: in every game.
    """

    def __init__(self, frames: Sequence[str], top_k: int = 3, rollouts: int = 36, horizon: int = 2,
                 weights: Sequence[float] | None = None, max_target: int = 0) -> None:
        from electrify_env.decision import parse_frame_kinds
        from electrify_env.kernels import search as SR

        for name, v, lo in (("top_k", top_k, 2), ("rollouts", rollouts, 1), ("horizon", horizon, 1),
                            ("max_target", max_target, 0)):
            if int(v) != v or int(v) < lo:
                raise ValueError(f"the lookahead's {name} must be an integer >= {lo}, got {v!r}")
        self.frames = [str(f) for f in frames]
        if not self.frames:
            raise ValueError("the lookahead needs at least one decision type (frames)")
        self.frame_codes = frozenset(parse_frame_kinds(",".join(self.frames)))
        self.top_k, self.rollouts, self.horizon, self.max_target = int(top_k), int(rollouts), int(horizon), int(max_target)
        if weights is None:
            from electrify_env.agents.greedy import load_weights
            w = load_weights().to_array().copy()
            w[SR.W_EXPLORE] = 0.0
        else:
            w = np.asarray(weights, dtype=np.float64).copy()
        if w.shape != (SR.N_WEIGHTS,) or not np.isfinite(w).all():
            raise ValueError(f"the lookahead's weights must be {SR.N_WEIGHTS} finite numbers "
                             f"(kernels.search.WEIGHT_NAMES), got {w.size}")
        w.flags.writeable = False
        self.weights = w

    def applies(self, state: np.ndarray) -> bool:
        """Whether it decides in the game of engine state (or information set) ``state``."""
        return in_target_range(self.max_target, state)

    def config(self) -> dict:
        """The fields saved in the policy file's architecture (an item of ``arch["lookaheads"]``)."""
        out = {"frames": list(self.frames), "top_k": self.top_k, "rollouts": self.rollouts,
               "horizon": self.horizon, "weights": [float(x) for x in self.weights]}
        return out | ({"max_target": self.max_target} if self.max_target else {})

    def choose(self, infoset: np.ndarray, table: np.ndarray, seat: int, cands: np.ndarray, seed: int) -> int:
        """The candidate (of ``cands``, int64 legal ids, best first) with the best mean value over
        the paired rollouts from the information set ``infoset`` of ``seat``; ``seed`` draws the
        determinizations."""
        from electrify_env.kernels import search as SR

        n = int(cands.size)
        totals = np.zeros(n, dtype=np.float64)
        SR.paired_search(infoset, table, np.int64(seat), self.weights, cands, np.int64(n),
                         np.int64(max(1, self.rollouts // n)), np.int64(seed), np.int64(self.horizon), totals)
        return int(cands[int(np.argmax(totals))])


class PolicyValueNet(nn.Module):
    """MLP over the observation prefix of an ``n_players`` game, with policy and value heads.

    With ``prior="greedy"`` the logits are the head's plus ``prior_scale`` times greedy's one-ply
    values of the legal actions (:func:`electrify_env.kernels.search.greedy_prior`, computed from
    the engine's information set of the mover with the greedy weights ``prior_weights``, saved
    with the network): the network learns where to depart from greedy's evaluation.  Such a
    network needs the prior at every call (``prior=`` of :meth:`forward` / :meth:`act`).

    Args:
        n_players: 1 (solo) to 4; fixes the input width ``obs_size(n_players)``.
        hidden: sizes of the shared hidden layers (ReLU).
        init: orthogonal initialisation (False: leave torch's default, for weights about to be
            loaded; skips the QR decompositions, which dominate the load time).
        prior: ``none`` or ``greedy`` (:data:`PRIORS`).
        prior_scale: weight of the prior in the logits (> 0).
        prior_weights: the greedy evaluation weights of the prior (default: the greedy agent's,
            ``configs/agents/greedy.yaml``).
        critic: the fields of an :class:`AfterstateCritic` (``frames``, ``top_k``, ``hidden``)
            to add one, or a list of such fields to add several, each choosing at its own
            decision types (no type in two of them); None or ``[]``: no critic.
        lookahead: the fields of a :class:`RolloutLookahead` (``frames``, ``top_k``,
            ``rollouts``, ``horizon``, ``weights``, ``max_target``) to search at those decision
            types, or a list of such fields for several (no decision type in two lookaheads or
            in a lookahead and a critic); None or ``[]``: no lookahead.
    """

    def __init__(self, n_players: int, hidden: Sequence[int] = (256, 128), init: bool = True,
                 prior: str = "none", prior_scale: float = 2.0, prior_weights: Sequence[float] | None = None,
                 critic: dict | Sequence[dict] | None = None,
                 lookahead: dict | Sequence[dict] | None = None) -> None:
        super().__init__()
        if not 1 <= int(n_players) <= 4:
            raise ValueError(f"n_players must be 1-4, got {n_players!r}")
        if not hidden or any(int(h) <= 0 for h in hidden):
            raise ValueError(f"hidden must be a non-empty list of positive sizes, got {list(hidden)!r}")
        if prior not in PRIORS:
            raise ValueError(f"prior must be one of {', '.join(PRIORS)}, got {prior!r}")
        if not float(prior_scale) > 0:
            raise ValueError(f"prior_scale must be > 0, got {prior_scale!r}")
        self.n_players = int(n_players)
        self.hidden = [int(h) for h in hidden]
        self.prior, self.prior_scale = prior, float(prior_scale)
        self.prior_weights: np.ndarray | None = None
        if prior != "none":
            if prior_weights is None:
                from electrify_env.agents.greedy import load_weights
                prior_weights = load_weights().to_array()
            self.prior_weights = np.asarray(prior_weights, dtype=np.float64).copy()
        self.n_inputs = obs_size(self.n_players)
        layers: list[nn.Module] = []
        width = self.n_inputs
        for h in self.hidden:
            lin = nn.Linear(width, h)
            if init:
                nn.init.orthogonal_(lin.weight, np.sqrt(2))
                nn.init.zeros_(lin.bias)
            layers += [lin, nn.ReLU()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.pi = nn.Linear(width, N_ACTIONS)
        self.v = nn.Linear(width, 1)
        if init:
            nn.init.orthogonal_(self.pi.weight, 0.01)   # a near-uniform first policy
            nn.init.zeros_(self.pi.bias)
            nn.init.orthogonal_(self.v.weight, 1.0)
            nn.init.zeros_(self.v.bias)
        specs = [] if critic is None else [critic] if isinstance(critic, dict) else list(critic)
        heads = [AfterstateCritic(width, init=init, **c) for c in specs]
        for i, a in enumerate(heads):
            for b in heads[:i]:
                if a.frame_codes & b.frame_codes:
                    raise ValueError(f"two afterstate critics choose at the same decision types "
                                     f"({b.frames} and {a.frames}): give each type to one critic")
        self.critic = heads[0] if heads else None
        """The first afterstate critic (None: the network has none)."""
        self.extra_critics = nn.ModuleList(heads[1:])
        """The critics after the first (a network with several; state keys ``extra_critics.i.``)."""
        specs = [] if lookahead is None else [lookahead] if isinstance(lookahead, dict) else list(lookahead)
        self.lookaheads = [RolloutLookahead(**la) for la in specs]
        """The network's :class:`RolloutLookahead` s (``[]``: none)."""
        for i, la in enumerate(self.lookaheads):
            for other in heads + self.lookaheads[:i]:
                if other.frame_codes & la.frame_codes:
                    raise ValueError(f"a lookahead ({la.frames}) and another lookahead or afterstate critic "
                                     f"({other.frames}) decide the same decision types: give each type to one")

    @property
    def critics(self) -> list[AfterstateCritic]:
        """Every afterstate critic of the network, the first (:attr:`critic`) first."""
        return ([] if self.critic is None else [self.critic]) + list(self.extra_critics)

    def critic_for(self, frame: int, state: np.ndarray | None = None) -> AfterstateCritic | None:
        """The critic that chooses at decision type ``frame`` (a ``layout.FT_*`` code) in the game
        of engine state (or information set) ``state`` (:meth:`AfterstateCritic.applies`; None:
        whatever the game), or None."""
        return decider_for(self.critics, frame, state)

    @property
    def lookahead(self) -> RolloutLookahead | None:
        """The first :class:`RolloutLookahead` (None: the network has none)."""
        return self.lookaheads[0] if self.lookaheads else None

    def lookahead_for(self, frame: int, state: np.ndarray | None = None) -> RolloutLookahead | None:
        """The :class:`RolloutLookahead` that decides decision type ``frame`` in the game of engine
        state (or information set) ``state`` (:meth:`RolloutLookahead.applies`; None: whatever the
        game), or None."""
        return decider_for(self.lookaheads, frame, state)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor,
                prior: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """``obs`` (B, >= n_inputs) float, ``mask`` (B, N_ACTIONS) bool, ``prior`` (B, N_ACTIONS)
        float (networks with a prior only) -> (masked logits (B, N_ACTIONS), values (B,))."""
        h = self.embed(obs)
        return self.masked_logits(h, mask, prior), self.value(h)

    def embed(self, obs: torch.Tensor) -> torch.Tensor:
        """The trunk's output (B, hidden[-1]) for ``obs`` (B, >= n_inputs): what both heads read
        (the RLlib module, :mod:`electrify_env.training.rllib_selfplay`, passes it on as its embeddings)."""
        return self.trunk(obs[:, :self.n_inputs])

    def masked_logits(self, h: torch.Tensor, mask: torch.Tensor,
                      prior: torch.Tensor | None = None) -> torch.Tensor:
        """Policy head over the trunk output ``h`` (plus ``prior_scale * prior`` for a network
        with a prior): (B, N_ACTIONS) logits, illegal ids (``mask`` False) at
        :data:`MASKED_LOGIT`.  ValueError if a network with a prior gets none."""
        logits = self.pi(h)
        if self.prior != "none":
            if prior is None:
                raise ValueError(f"this network adds the {self.prior!r} prior to its logits: pass "
                                 "prior= (electrify_env.agents.net.compute_prior / kernels.league.greedy_priors)")
            logits = logits + self.prior_scale * prior
        return logits.masked_fill(~mask, MASKED_LOGIT)

    def value(self, h: torch.Tensor) -> torch.Tensor:
        """Value head over the trunk output ``h``: (B,) values."""
        return self.v(h).squeeze(-1)

    def arch(self) -> dict:
        """The architecture as saved in the policy file (the prior's fields only when it has one,
        so a network without a prior saves what earlier versions saved)."""
        out = {"arch": ARCH, "n_players": self.n_players, "hidden": list(self.hidden)}
        if self.prior != "none":
            out |= {"prior": self.prior, "prior_scale": self.prior_scale,
                    "prior_weights": [float(w) for w in self.prior_weights]}
        if len(self.critics) == 1 and not self.critic.max_target:
            out |= {"arch": ARCH_CRITIC, "critic": self.critic.config()}
        elif self.critics:
            out |= {"arch": ARCH_CRITICS, "critics": [c.config() for c in self.critics]}
        if self.lookaheads:
            out.pop("critic", None)
            out |= {"arch": ARCH_SEARCH, "critics": [c.config() for c in self.critics],
                    "lookaheads": [la.config() for la in self.lookaheads]}
        return out

    @torch.inference_mode()
    def policy_logits(self, obs: np.ndarray, mask: np.ndarray,
                      prior: np.ndarray | None = None) -> torch.Tensor:
        """Masked logits for a batch of numpy inputs: ``obs`` (B, >= n_inputs) float32, ``mask``
        (B, N_ACTIONS) (any dtype, nonzero = legal), ``prior`` (B, N_ACTIONS) (networks with a
        prior) -> (B, N_ACTIONS) logits, illegal ids at :data:`MASKED_LOGIT`."""
        o = torch.as_tensor(np.ascontiguousarray(obs[:, :self.n_inputs]), dtype=torch.float32)
        m = torch.as_tensor(np.asarray(mask) != 0)
        pr = None if prior is None else torch.as_tensor(np.asarray(prior, dtype=np.float32))
        return self(o, m, pr)[0]

    @torch.inference_mode()
    def act(self, obs: np.ndarray, mask: np.ndarray, deterministic: bool = True,
            generator: torch.Generator | None = None, prior: np.ndarray | None = None,
            temperature: float = 1.0) -> np.ndarray:
        """Actions for a batch (inputs as :meth:`policy_logits`) -> (B,) int64 legal ids (most
        likely, or sampled from ``softmax(logits / temperature)``)."""
        logits = self.policy_logits(obs, mask, prior)
        if deterministic:
            return logits.argmax(-1).numpy().astype(np.int64)
        probs = torch.softmax(logits / temperature, -1)
        return torch.multinomial(probs, 1, generator=generator).squeeze(-1).numpy().astype(np.int64)


@torch.inference_mode()
def critic_choice(net: PolicyValueNet, after: np.ndarray, logits: np.ndarray,
                  critic: AfterstateCritic | None = None) -> int:
    """Index of the candidate ``critic`` (default: ``net``'s first afterstate critic) scores
    highest: ``after`` (K, >= n_inputs) float32 afterstate observations, ``logits`` (K,) the
    policy's logits of the candidates, best first.  ValueError if ``net`` has no critic."""
    critic = critic if critic is not None else net.critic
    if critic is None:
        raise ValueError("this network has no afterstate critic")
    k = len(logits)
    h = net.embed(torch.as_tensor(np.ascontiguousarray(after[:, :net.n_inputs]), dtype=torch.float32))
    s = critic(h[None], torch.ones(1, k, dtype=torch.bool), torch.as_tensor(np.asarray(logits, np.float32))[None])
    return int(s[0].argmax())


def compute_prior(net: PolicyValueNet, States: np.ndarray, T: np.ndarray, rows: np.ndarray,
                  rng: np.random.Generator) -> np.ndarray | None:
    """The logit prior of ``net`` for the movers of ``rows`` of the engine states ``States`` (the
    jitted league runner's games): (len(rows), N_ACTIONS) float32 greedy one-ply values, one
    determinization each drawn from ``rng`` (:func:`electrify_env.kernels.league.greedy_priors`);
    None for a network without a prior."""
    if net.prior == "none":
        return None
    from electrify_env.kernels.league import greedy_priors

    out = np.zeros((len(rows), N_ACTIONS), dtype=np.float32)
    if len(rows):
        greedy_priors(States, T, net.prior_weights, np.asarray(rows, dtype=np.int64),
                      rng.integers(0, 1 << 62, len(rows), dtype=np.int64), out)
    return out


CRITIC_KEYS = ("critic.", "extra_critics.")
"""Prefixes of the afterstate critics' entries in a network's ``state_dict``."""


def transfer_weights(src: PolicyValueNet, dst: PolicyValueNet) -> PolicyValueNet:
    """Copy ``src``'s weights into ``dst`` (same ``hidden`` sizes, any player counts) and return
    ``dst``.  The observation layouts share their prefix, so the first layer's columns map one
    to one: columns ``dst`` has and ``src`` lacks (the blocks of seats ``src`` never saw) start
    at zero, and a wider ``dst`` plays exactly as ``src`` until it trains; columns ``src`` has
    and ``dst`` lacks are dropped.  An afterstate critic is not carried over (it scores the
    embeddings of the trunk it was trained on, which ``dst`` will change): ``dst`` keeps its own.
    ValueError if the hidden sizes differ."""
    if list(src.hidden) != list(dst.hidden):
        raise ValueError(f"cannot transfer weights between hidden sizes {src.hidden} and {dst.hidden}")
    state = {k: v.detach().clone() for k, v in src.state_dict().items() if not k.startswith(CRITIC_KEYS)}
    state |= {k: v for k, v in dst.state_dict().items() if k.startswith(CRITIC_KEYS)}
    w = state["trunk.0.weight"]
    first = torch.zeros(w.shape[0], dst.n_inputs, dtype=w.dtype)
    k = min(w.shape[1], dst.n_inputs)
    first[:, :k] = w[:, :k]
    state["trunk.0.weight"] = first
    dst.load_state_dict(state)
    return dst


def deepen(src: PolicyValueNet, hidden: Sequence[int]) -> PolicyValueNet:
    """A copy of ``src`` (its trunk, heads and prior; any critic dropped) with the hidden sizes
    ``hidden``: ``src.hidden`` with extra
    layers inserted, each as wide as the layer before it, initialised to the identity (weight
    ``I``, bias 0).  After a ReLU every activation is >= 0, so ``ReLU(I h) = h`` and the deeper
    network computes exactly what ``src`` computes until it trains (a function-preserving
    expansion, as Net2Net's "deeper"): a distilled student that has stopped improving can go on
    with more capacity without starting over.  ValueError if ``hidden`` is not ``src.hidden``
    with such layers inserted."""
    want, have = [int(h) for h in hidden], list(src.hidden)
    bad = ValueError(f"cannot deepen hidden sizes {have} to {want}: the new sizes must be the old "
                     "ones with layers inserted after a layer, each as wide as that layer")
    plan: list[int | None] = []    # for each layer of ``want``: the index of src's layer, or None (identity)
    for h in want:
        i = len(plan) - plan.count(None)        # src's layers taken so far
        if i < len(have) and h == have[i]:      # taking src's layer first never blocks a match
            plan.append(i)
        elif i > 0 and h == have[i - 1]:        # as wide as the layer before it
            plan.append(None)
        else:
            raise bad
    if len(plan) - plan.count(None) != len(have):
        raise bad
    dst = PolicyValueNet(src.n_players, want, init=False, prior=src.prior, prior_scale=src.prior_scale,
                         prior_weights=src.prior_weights)
    with torch.no_grad():
        for k, j in enumerate(plan):
            lin = dst.trunk[2 * k]
            if j is None:
                lin.weight.copy_(torch.eye(lin.out_features, dtype=lin.weight.dtype))
                lin.bias.zero_()
            else:
                lin.weight.copy_(src.trunk[2 * j].weight)
                lin.bias.copy_(src.trunk[2 * j].bias)
        dst.pi.load_state_dict(src.pi.state_dict())
        dst.v.load_state_dict(src.v.state_dict())
    return dst


LINEAGE_KEYS = ("n_players", "scenario", "steps", "imitation_steps", "env_steps", "train_seconds", "init_from")


def lineage(path: str | Path, meta: dict) -> dict:
    """What a run started from ``path`` (a policy with metadata ``meta``) keeps of it in its own
    metadata as ``init_from``: the file, its players or scenario, its training decisions and
    seconds, and its own ``init_from`` (so a chain of warm starts is kept whole)."""
    return {"path": str(path), **{k: meta[k] for k in LINEAGE_KEYS if k in meta}}


SAVED_DTYPE = torch.float16
"""The dtype a policy file stores its weights in (:func:`save_policy`; loaded as float32)."""


def as_saved(net: PolicyValueNet) -> PolicyValueNet:
    """A copy of ``net`` whose weights are what :func:`save_policy` stores (rounded to float16,
    held as float32): the network its file plays, for evaluating before saving (rounding alone
    changes some first choices of a large network)."""
    import copy

    out = copy.deepcopy(net)
    with torch.no_grad():
        for t in list(out.parameters()) + list(out.buffers()):
            if t.is_floating_point():
                t.copy_(t.to(SAVED_DTYPE).to(t.dtype))
    return out


def save_policy(net: PolicyValueNet, path: str | Path, card_set_hash: str, env_id: str,
                algorithm: str = ALGORITHM, **meta) -> Path:
    """Write ``path`` (``.pt``: weights and architecture) and its ``.meta.json`` sidecar (layout
    versions, card-set hash, env id, ``algorithm`` (the trainer that made it: electrify's own
    by default, ``"RLlib PPO"`` for :mod:`electrify_env.training.rllib_selfplay`), ``meta``); returns the
    ``.pt`` path."""
    p = Path(path)
    if p.suffix != ".pt":
        raise ValueError(f"a policy path must end in .pt, got {p}")
    p.parent.mkdir(parents=True, exist_ok=True)
    # weights as float16: a 4-player network (5,100 inputs) stays under 3 MB; loaded as float32
    state = {k: v.detach().cpu().to(SAVED_DTYPE) for k, v in net.state_dict().items()}
    torch.save({"arch": net.arch(), "dtype": str(SAVED_DTYPE).removeprefix("torch."), "state_dict": state}, p)
    meta.setdefault("n_players", net.n_players)
    save_policy_metadata(p, policy_metadata(card_set_hash, env_id, algorithm=algorithm,
                                            arch=net.arch(), **meta))
    return p


def load_policy(path: str | Path, card_set_hash: str | None = None,
                n_players: int | None = None) -> tuple[PolicyValueNet, dict]:
    """Load a saved policy (in eval mode) and its metadata; refuse one saved for another layout,
    card set (if ``card_set_hash`` is given) or mode of play (``n_players``) with a
    PolicyMismatchError, and a missing or corrupt file with a ValueError naming it."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"policy file {p} does not exist or is not a file")
    meta = load_policy_metadata(p)
    check_compatible(meta, card_set_hash=card_set_hash, where=f"policy {p}", n_players=n_players)
    trained = policy_players(meta)
    if n_players is not None and trained not in (None, 1) and trained != n_players:
        raise PolicyMismatchError(f"policy {p} was trained for {trained}-player games; it cannot play a "
                                  f"{n_players}-player game")
    try:
        blob = torch.load(p, map_location="cpu", weights_only=True)
        arch = blob["arch"]
        if arch.get("arch") not in (ARCH, ARCH_CRITIC, ARCH_CRITICS, ARCH_SEARCH):
            raise PolicyMismatchError(f"policy {p} has architecture {arch.get('arch')!r}; this code "
                                      f"reads {ARCH!r}, {ARCH_CRITIC!r}, {ARCH_CRITICS!r} and {ARCH_SEARCH!r}")
        prior = arch.get("prior", "none")
        if prior not in PRIORS:
            raise PolicyMismatchError(f"policy {p} adds the logit prior {prior!r}; this code "
                                      f"knows {', '.join(PRIORS)}")
        net = PolicyValueNet(arch["n_players"], arch["hidden"], init=False, prior=prior,
                             prior_scale=arch.get("prior_scale", 2.0), prior_weights=arch.get("prior_weights"),
                             critic=policy_critics({"arch": arch}), lookahead=arch.get("lookaheads"))
        net.load_state_dict({k: v.to(torch.float32) for k, v in blob["state_dict"].items()})
    except PolicyMismatchError:
        raise
    except Exception as err:   # a corrupt file fails in many ways inside torch / zipfile
        msg = " ".join(str(err).split())[:200]
        raise ValueError(f"policy file {p} does not load ({err.__class__.__name__}: {msg})") from None
    net.eval()
    return net, meta
