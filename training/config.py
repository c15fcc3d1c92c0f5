"""Typed configuration of the PPO training scripts; YAML files in ``configs/`` only fill it.

A config is checked completely when it is built (by :func:`load_config`, by ``--set`` overrides or
by calling the class): every field's type and range, the batch size against the rollout, the seeds,
the scenario and the tech packs (loaded as the env will load them), so a bad value is refused
before any training starts, with one line naming the field::

    clip_range: must be > 0, got -1.0
    scenario: unknown scenario 'first_lite'; available: blackout, first_light, ...
    configs/x.yaml: unknown field 'clip_rang' (did you mean 'clip_range'?); PPOSoloConfig fields: ...
"""
from __future__ import annotations

import dataclasses
import difflib
import math
import re
import typing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from electrify_env.envs._common import SEAT_REWARD_MODES, SOLO_REWARD_MODES
from electrify_env.game import MAX_SEED as GAME_MAX_SEED
from electrify_env.yamlio import display_path, parse_yaml, read_yaml_mapping

TORCH_MAX_SEED = 2**32 - 1
"""Largest training ``seed``: SB3 seeds NumPy's legacy generator, which takes 0..2**32-1."""
DEVICE_PATTERN = re.compile(r"(auto|cpu|mps|cuda(:[0-9]+)?)")
"""Torch devices a config may name (SB3's ``auto`` included)."""


class ConfigError(ValueError):
    """A configuration file or value that cannot be used; the message names the field."""


@dataclass
class PPOConfig:
    """Fields shared by every MaskablePPO training config (build a :class:`PPOSoloConfig` or a
    :class:`PPOSeatConfig`; the ranges in the field docs are checked when one is built)."""

    tech_packs: list[str] = field(default_factory=list)
    """Tech packs shuffled into the decks: shipped names (``grid``, ``market``) or pack files,
    each at most once; loaded on the base set when the config is built."""
    total_timesteps: int = 300_000
    """Agent decisions to train for (> 0)."""
    seed: int = 0
    """Seed of the policy initialisation and of the training games (0..2**32-1: SB3 seeds NumPy's
    legacy generator with it)."""
    vec_env: str = "vector"
    """``vector`` (the jitted ElectrifyVectorEnv through the SB3 adapter) or ``dummy`` (SB3's
    DummyVecEnv over single envs)."""
    n_envs: int = 16
    """Games stepped together during rollouts (> 0)."""
    learning_rate: float = 3e-4
    """Adam step size (finite, > 0)."""
    n_steps: int = 256
    """Rollout length per env between updates (> 0; rollout = n_steps * n_envs)."""
    batch_size: int = 512
    """Minibatch size of the PPO update (at least 2, and a divisor of n_steps * n_envs)."""
    n_epochs: int = 10
    """Passes over each rollout batch (> 0)."""
    gamma: float = 0.995
    """Discount factor, in (0, 1]."""
    gae_lambda: float = 0.95
    """GAE lambda, in (0, 1]."""
    clip_range: float = 0.2
    """PPO clipping of the probability ratio (finite, > 0)."""
    ent_coef: float = 0.01
    """Entropy bonus weight (finite, >= 0)."""
    vf_coef: float = 0.5
    """Value loss weight (finite, >= 0)."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm (finite, > 0)."""
    features_dim: int = 256
    """Units of the shared first layer over the observation (electrify_env.training.features.ElectrifyExtractor,
    which reads only the solo player's part of the vector)."""
    net_arch: list[int] = field(default_factory=lambda: [128])
    """Hidden layer sizes of the policy head and of the value head (after the shared layer)."""
    eval_every: int = 25_000
    """Evaluate (and print a learning-curve point) every this many agent decisions (>= 0; 0: never)."""
    eval_episodes: int = 100
    """Games per learning-curve evaluation (fixed seeds, disjoint from training)."""
    final_eval_episodes: int = 200
    """Games of the final evaluation against the random agent."""
    eval_seed: int = 1_000_000
    """First seed of the evaluation games (game i uses eval_seed + i; every such seed within the
    game seeds 0..2**62-1)."""
    deterministic_eval: bool = True
    """Evaluate the policy's most likely legal action (else sample it)."""
    output_dir: str = "runs/ppo_solo"
    """Folder for policy.zip, its metadata (policy.meta.json) and curve.json."""
    tensorboard_log: str | None = None
    """TensorBoard folder (off when null); ``$SB3_LOGDIR`` is used when this is null and set."""
    progress_bar: bool = True
    """Show a tqdm progress bar."""
    torch_threads: int = 1
    """torch.set_num_threads (>= 1, or 0: leave torch's default; 1 is fastest on small shared CPUs,
    where two OpenMP threads contend with the env and other processes)."""
    device: str = "cpu"
    """Torch device: ``auto``, ``cpu``, ``mps``, ``cuda`` or ``cuda:N``."""

    REWARD_MODES = SOLO_REWARD_MODES

    def __post_init__(self) -> None:
        _coerce_numbers(self)
        self.validate()

    def validate(self) -> "PPOConfig":
        """Raise ConfigError naming the first bad field: types, ranges, seeds, the reward mode,
        the tech packs (loaded as the env loads them)."""
        _check_types(self)
        need = _need(self)
        need(self.reward_mode in self.REWARD_MODES, "reward_mode", "must be one of " + ", ".join(self.REWARD_MODES))
        need(self.vec_env in ("vector", "dummy"), "vec_env", "must be vector or dummy")
        for name in ("total_timesteps", "n_envs", "n_steps", "n_epochs", "eval_episodes",
                     "final_eval_episodes", "features_dim"):
            need(getattr(self, name) > 0, name, "must be a positive integer")
        need(self.eval_every >= 0, "eval_every", "must be an integer >= 0 (0: never)")
        for name in ("learning_rate", "gamma", "gae_lambda", "clip_range", "ent_coef", "vf_coef",
                     "max_grad_norm", "win_bonus"):
            need(math.isfinite(getattr(self, name)), name, "must be a finite number")
        need(self.learning_rate > 0, "learning_rate", "must be > 0")
        need(0.0 < self.gamma <= 1.0, "gamma", "must lie in (0, 1]")
        need(0.0 < self.gae_lambda <= 1.0, "gae_lambda", "must lie in (0, 1]")
        need(self.clip_range > 0, "clip_range", "must be > 0")
        need(self.ent_coef >= 0, "ent_coef", "must be >= 0")
        need(self.vf_coef >= 0, "vf_coef", "must be >= 0")
        need(self.max_grad_norm > 0, "max_grad_norm", "must be > 0")
        need(self.win_bonus >= 0, "win_bonus", "must be >= 0")
        rollout = self.n_steps * self.n_envs
        need(self.batch_size >= 2, "batch_size", "must be at least 2 (PPO normalises advantages per minibatch)")
        need(self.batch_size <= rollout, "batch_size", f"must not exceed n_steps * n_envs = {rollout}")
        need(rollout % self.batch_size == 0, "batch_size",
             f"must divide n_steps * n_envs = {rollout} (else every epoch ends with a truncated minibatch)")
        need(all(h > 0 for h in self.net_arch), "net_arch", "must be a list of positive layer sizes")
        need(self.torch_threads >= 0, "torch_threads", "must be >= 1 (or 0: torch's default)")
        need(0 <= self.seed <= TORCH_MAX_SEED, "seed", f"must lie in 0..2**32-1 ({TORCH_MAX_SEED})")
        last = self.eval_seed + max(self.eval_episodes, self.final_eval_episodes) - 1
        need(self.eval_seed >= 0 and last <= GAME_MAX_SEED, "eval_seed",
             "must lie in 0..2**62-1 together with every evaluation game's seed (eval_seed + episodes - 1)")
        need(DEVICE_PATTERN.fullmatch(self.device) is not None, "device", "must be auto, cpu, mps, cuda or cuda:N")
        need(self.output_dir.strip() != "", "output_dir", "must name a folder")
        need(self.tensorboard_log is None or self.tensorboard_log.strip() != "", "tensorboard_log",
             "must name a folder, or be null")
        _check_tech_packs(self.tech_packs)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (saved beside the policy)."""
        return dataclasses.asdict(self)


@dataclass
class PPOSoloConfig(PPOConfig):
    """MaskablePPO on ``Electrify-Solo-v0`` (``python -m electrify_env.training.train_solo --config ...``)."""

    scenario: str = "first_light"
    """Solo scenario id (``electrify scenarios``) trained and evaluated on."""
    reward_mode: str = "shaped"
    """Env reward: ``shaped`` (point and star gains / target, + win bonus), ``score`` or ``win``."""
    win_bonus: float = 1.0
    """``shaped`` only: reward added at the end of a won game."""

    def validate(self) -> "PPOSoloConfig":
        """Raise ConfigError naming the first bad field (the scenario is loaded here)."""
        super().validate()
        from electrify_env.scenarios import ScenarioError, load_scenario

        if not self.scenario.strip():
            raise ConfigError("scenario: must name a scenario (`electrify scenarios` lists them)")
        try:
            load_scenario(self.scenario)
        except ScenarioError as exc:
            raise ConfigError(f"scenario: {exc}") from None
        return self


@dataclass
class PPOSeatConfig(PPOConfig):
    """MaskablePPO on one seat of ``Electrify-v0`` against random opponents
    (``python -m electrify_env.training.train_seat --config ...``)."""

    REWARD_MODES = SEAT_REWARD_MODES

    n_players: int = 2
    """Players in the game (2-4); the other seats play uniform random legal actions."""
    seat: int | None = None
    """The agent's seat, or null to draw it from each game's seed (a policy for every seat)."""
    reward_mode: str = "shaped"
    """Env reward: ``win`` (+1/k for k winners, -1), ``margin`` (own - best other points, scaled),
    ``score`` (own points, scaled) or ``shaped`` (point gains, scaled, + win_bonus * win reward)."""
    points_scale: float = 0.1
    """Reward per energy point in the ``margin``, ``score`` and ``shaped`` modes."""
    win_bonus: float = 1.0
    """``shaped`` only: weight of the terminal win reward."""
    output_dir: str = "runs/ppo_seat"
    """Folder for policy.zip, its metadata (policy.meta.json) and curve.json."""

    def validate(self) -> "PPOSeatConfig":
        """Raise ConfigError naming the first bad field."""
        super().validate()
        need = _need(self)
        need(2 <= self.n_players <= 4, "n_players", "must be 2, 3 or 4")
        need(self.seat is None or 0 <= self.seat < self.n_players, "seat", f"must be null or 0..{self.n_players - 1}")
        need(math.isfinite(self.points_scale) and self.points_scale > 0, "points_scale", "must be a finite number > 0")
        return self


# ----------------------------------------------------------------------------------------------
# Checking
# ----------------------------------------------------------------------------------------------
def _need(cfg: PPOConfig):
    """``need(ok, name, what)``: raise ``ConfigError("name: what, got value")`` unless ``ok``."""
    def need(ok: bool, name: str, what: str) -> None:
        if not ok:
            raise ConfigError(f"{name}: {what}, got {getattr(cfg, name)!r}")
    return need


def _hints(cls: type) -> dict[str, Any]:
    """The evaluated field types of a config class."""
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _type_ok(value: Any, hint: Any) -> bool:
    """Whether ``value`` has type ``hint`` (int, float, bool, str, ``X | None``, ``list[X]``); a
    bool is no int, an int is a float."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        return isinstance(value, list) and all(_type_ok(v, args[0]) for v in value)
    if args and type(None) in args:  # X | None
        return value is None or any(_type_ok(value, a) for a in args if a is not type(None))
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, hint)


def _type_word(hint: Any) -> str:
    """``int``, ``float``, ``a list of int``, ``int or null`` ..."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        return f"a list of {_type_word(args[0])}"
    if args and type(None) in args:
        return " or ".join(_type_word(a) for a in args if a is not type(None)) + " or null"
    return hint.__name__


def _yaml_1_1_hint(value: Any, hint: Any) -> str:
    """A hint for ``3e-4`` and ``3e5``, which PyYAML (YAML 1.1) reads as text."""
    if not isinstance(value, str) or hint not in (int, float):
        return ""
    try:
        number = float(value)
    except ValueError:
        return ""
    if not math.isfinite(number):
        return ""
    if hint is int and number.is_integer():
        return f" (YAML 1.1 reads {value} as text: write {int(number)})"
    mantissa, _, exponent = value.strip().lower().partition("e")
    if not exponent:
        return ""  # plain text such as "0.5 " would have parsed; nothing to suggest
    mantissa = mantissa if "." in mantissa else mantissa + ".0"
    exponent = exponent if exponent[0] in "+-" else "+" + exponent
    return f" (YAML 1.1 reads {value} as text: write {mantissa}e{exponent})"


def _coerce_numbers(cfg: PPOConfig) -> None:
    """Ints into float fields become floats; integral floats (``3.0e+5``) into int fields ints."""
    for name, hint in _hints(type(cfg)).items():
        value = getattr(cfg, name)
        if isinstance(value, bool):
            continue
        if hint is float and isinstance(value, int):
            setattr(cfg, name, float(value))
        elif hint is int and isinstance(value, float) and value.is_integer():
            setattr(cfg, name, int(value))


def _check_types(cfg: PPOConfig) -> None:
    """Raise ConfigError for the first field whose value is not of the field's type."""
    if type(cfg) is PPOConfig:
        raise ConfigError("PPOConfig holds the shared fields only: use PPOSoloConfig or PPOSeatConfig")
    for name, hint in _hints(type(cfg)).items():
        value = getattr(cfg, name)
        if not _type_ok(value, hint):
            raise ConfigError(f"{name}: expected {_type_word(hint)}, got {value!r}{_yaml_1_1_hint(value, hint)}")


def _check_tech_packs(packs: list[str]) -> None:
    """Resolve and load the packs exactly as the envs will (names or paths, on the base set)."""
    from electrify_env.cards import CardSetError
    from electrify_env.envs._common import card_set_and_options

    seen = set()
    for p in packs:
        if p in seen:
            raise ConfigError(f"tech_packs: {p!r} is listed twice")
        seen.add(p)
    try:
        card_set_and_options(None, tuple(packs))
    except (CardSetError, ValueError) as exc:
        raise ConfigError(f"tech_packs: {exc}") from None


def _check_league_agents(specs: list[str]) -> None:
    """Parse every ``league_agents`` spec (the agents are built by the trainer)."""
    if not specs:
        return
    from electrify_env.agents.base import AgentError
    from electrify_env.agents.registry import parse_spec
    seen: set[str] = set()
    for spec in specs:
        try:
            parsed = parse_spec(spec)
        except AgentError as exc:
            raise ConfigError(f"league_agents: {exc}") from None
        if parsed.text in seen:
            raise ConfigError(f"league_agents: {parsed.text!r} is listed twice")
        seen.add(parsed.text)


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------
def _unknown_field(source: str, key: Any, cls: type) -> ConfigError:
    """The error for a key that is no field of ``cls``, with the closest field name as a hint."""
    names = [f.name for f in dataclasses.fields(cls)]
    close = difflib.get_close_matches(str(key), names, n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return ConfigError(f"{source}: unknown field {key!r}{hint}; {cls.__name__} fields: {', '.join(names)}")


def parse_overrides(items: list[str]) -> dict[str, Any]:
    """``["field=value", ...]`` (``--set``; each value read as YAML) -> ``{field: value}``."""
    out: dict[str, Any] = {}
    for item in items:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ConfigError(f"--set expects FIELD=VALUE, got {item!r}")
        out[key] = parse_yaml(value, f"--set {item}", ConfigError)
    return out


def resolve_config_path(path: str | Path) -> Path:
    """The config file ``path`` names: ``path`` itself when it exists; otherwise a shipped config
    of that name (``electrify-2p``, ``electrify-2p.yaml`` or ``configs/electrify-2p.yaml`` find
    ``electrify_env.paths.CONFIGS_DIR / "electrify-2p.yaml"``, so an installed wheel trains from any
    folder); otherwise ``path`` unchanged (reading it then fails naming it)."""
    from electrify_env.paths import CONFIGS_DIR

    p = Path(path)
    if p.exists():
        return p
    parts = p.parts[1:] if p.parts[:1] == ("configs",) else p.parts
    if parts and ".." not in parts:
        shipped = CONFIGS_DIR.joinpath(*parts)
        for cand in (shipped, shipped.with_name(shipped.name + ".yaml")):
            if cand.is_file():
                return cand
    return p


def resolve_policy_path(path: str | Path) -> Path:
    """The policy file ``path`` names: ``path`` itself when it is a file; otherwise, for a relative
    path, the shipped file of that name below ``electrify_env.paths.DATA_ROOT``
    (``policies/electrify-4p.pt`` is found from any folder, also from a wheel); otherwise
    ``path`` unchanged."""
    from electrify_env.paths import DATA_ROOT

    p = Path(path)
    if p.is_file() or p.is_absolute() or ".." in p.parts:
        return p
    shipped = DATA_ROOT / p
    return shipped if shipped.is_file() else p


def shipped_configs() -> list[str]:
    """Names of the training configs shipped in ``configs/`` (``electrify-2p``, ``ppo_solo``...)."""
    from electrify_env.paths import CONFIGS_DIR

    return sorted(f.stem for f in CONFIGS_DIR.glob("*.yaml"))


BASE_KEY = "base"
"""A config file's key naming the config it starts from (its fields, then this file's over them)."""


def read_config_file(path: str | Path, _chain: tuple[Path, ...] = ()) -> tuple[dict[str, Any], dict[str, str]]:
    """The fields a config file sets, with the file each came from: a file with ``base: OTHER``
    starts from OTHER's fields (found beside the file, else as ``electrify train`` finds a
    config; OTHER may have a base too) and sets its own over them.  A missing file, a base that is no
    file name or a chain of bases that returns to a file is a :class:`ConfigError`."""
    path = resolve_config_path(path)
    if not path.exists():
        raise ConfigError(f"{display_path(path)}: file not found (shipped configs: "
                          f"{', '.join(shipped_configs())})")
    if path.resolve() in _chain:
        names = " -> ".join(display_path(p) for p in (*_chain, path.resolve()))
        raise ConfigError(f"{display_path(path)}: {BASE_KEY}: the chain of bases returns to this file ({names})")
    loaded = read_yaml_mapping(path, ConfigError, display_path)
    data: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if BASE_KEY in loaded:
        base = loaded.pop(BASE_KEY)
        if not isinstance(base, str) or not base.strip():
            raise ConfigError(f"{display_path(path)}: {BASE_KEY}: must be a config file name, got {base!r}")
        beside = path.parent / base
        data, sources = read_config_file(beside if beside.is_file() else base, (*_chain, path.resolve()))
    data.update(loaded)
    sources.update(dict.fromkeys(loaded, display_path(path)))
    return data, sources


def load_config(path: str | Path | None, cls=PPOSoloConfig, overrides: dict[str, Any] | None = None):
    """Fill ``cls`` from a YAML mapping and ``overrides`` (a key repeated in the file or unknown
    to ``cls`` is an error) and check every field; raises :class:`ConfigError` with one line.
    ``path`` may also name a shipped config (:func:`resolve_config_path`); a file may start from
    another with ``base: OTHER.yaml`` (:func:`read_config_file`)."""
    data: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if path is not None:
        data, sources = read_config_file(path)
    for key, value in (overrides or {}).items():
        data[key] = value
        sources[key] = "overrides"
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = [k for k in data if k not in names]
    if unknown:
        err = _unknown_field(sources[unknown[0]], unknown[0], cls)
        if len(unknown) > 1:
            err = ConfigError(f"{err} (and {len(unknown) - 1} more unknown)")
        raise err
    return cls(**data)


# ----------------------------------------------------------------------------------------------
# electrify's own trainer: PPO with self-play and an opponent league (training/selfplay.py)
# ----------------------------------------------------------------------------------------------
TRAIN_REWARDS = ("shaped", "margin", "win")


POLICY_PRIORS = ("none", "greedy")
"""Values of ``TrainConfig.policy_prior`` (``electrify_env.agents.net.PRIORS``)."""
SCENARIO_SAMPLINGS = ("uniform", "hard")
"""Values of ``TrainConfig.scenario_sampling``."""


@dataclass
class TrainConfig:
    """PPO over the jitted league runner (``electrify train CONFIG`` / ``python -m
    electrify_env.training.selfplay --config CONFIG``): solo (``n_players: 1``) or every seat of a 2-4 player
    game played by the learner, its past snapshots, greedy or random (the league).  Ranges in the
    field docs are checked when the config is built."""

    n_players: int = 2
    """1 (solo scenarios) or 2-4 (self-play with a league)."""
    scenario: str | None = None
    """Solo only: a scenario id, or null for every shipped scenario (drawn per game; the
    observation names the scenario's target, stars and challenges, so one policy plays all)."""
    scenario_sampling: str = "uniform"
    """Solo with every scenario (``scenario: null``) only: how a training game's scenario is
    drawn.  ``uniform``: every scenario alike.  ``hard``: scenario s with weight (1 - r_s + 0.05)
    ** pfsp_power, r_s the learner's recent success rate on s in its training games (the PFSP
    rule of the snapshots, so the scenarios it fails most are played most); the evaluation still
    draws them alike."""
    tech_packs: list[str] = field(default_factory=list)
    """Tech packs shuffled into the decks (shipped names or pack files)."""
    total_steps: int = 2_000_000
    """Learner decisions of reinforcement learning (> 0; the imitation phase comes on top)."""
    seed: int = 0
    """Seed of the network, the league draws and the training games (0..2**32-1)."""
    num_envs: int = 256
    """Games stepped together (> 0)."""
    rollout: int = 16_384
    """New learner decisions per PPO update (> 0; a rollout may overrun it by up to num_envs, and the
    running streams' last transitions, carried over from the previous rollout, come on top)."""
    minibatch: int = 4_096
    """Samples per gradient step (>= 2)."""
    epochs: int = 1
    """Passes over each rollout (> 0; 1-2 keeps the update cheap on CPUs)."""
    learning_rate: float = 3e-4
    """Adam step size (> 0)."""
    anneal_lr: bool = True
    """Decay the step size linearly to 0 over total_steps."""
    gamma: float = 0.995
    """Discount factor per learner decision, in (0, 1]."""
    gae_lambda: float = 0.9
    """GAE lambda, in (0, 1]."""
    clip_range: float = 0.2
    """PPO ratio clipping (> 0)."""
    ent_coef: float = 0.005
    """Entropy bonus (over the legal actions; >= 0)."""
    vf_coef: float = 0.5
    """Value loss weight (>= 0)."""
    max_grad_norm: float = 0.5
    """Global gradient-norm clip (> 0)."""
    hidden: list[int] = field(default_factory=lambda: [256, 128])
    """Hidden layer sizes of the shared trunk (electrify_env.agents.net.PolicyValueNet)."""
    policy_prior: str = "none"
    """``none``: the logits are the network's.  ``greedy``: the network's logits plus
    prior_scale x greedy's one-ply values of the legal actions (``kernels.search.greedy_prior``,
    from one determinization of the mover's information set, R26), so the network learns where
    to depart from greedy's evaluation; such a policy plays as a registered agent (it needs the
    engine's information set), not as an ``(observation, mask)`` callable.  With bc_data, each
    stored decision's prior is computed as its game is replayed."""
    prior_scale: float = 2.0
    """Weight of the greedy prior in the logits (policy_prior: greedy; > 0)."""
    reward: str = "shaped"
    """``shaped``: own point gains * points_scale (solo: / target), + win_bonus * the win
    reward at the end; ``margin``: gains of (own - best other points) * points_scale, + win
    reward; ``win``: only the win reward (+1/k for k winners, -1 for losers; solo +1 / 0)."""
    points_scale: float = 0.05
    """Reward per energy point (multi-player shaped / margin)."""
    win_bonus: float = 1.0
    """Weight of the win reward at the end of a game (>= 0)."""
    p_self: float = 0.3
    """League: chance that another seat is played by the learner itself (>= 0)."""
    p_greedy: float = 0.5
    """League: chance that another seat is played by the greedy bot (>= 0)."""
    p_snapshot: float = 0.2
    """League: chance that another seat is played by a past snapshot of the learner, chosen by
    prioritised fictitious self-play (>= 0; the learner itself until the first snapshot)."""
    p_random: float = 0.0
    """League: chance that another seat plays uniform random legal actions (>= 0)."""
    p_agent: float = 0.0
    """League: chance that another seat is played by one of ``league_agents``, drawn alike (>= 0;
    > 0 needs league_agents).  Such a seat costs what the agent costs per move: an
    ``mcts:iters=36:top_k=3:horizon=2`` seat about 15-20 ms, against well under 1 ms for the
    others, so small chances (0.05-0.2) keep the run's throughput."""
    league_agents: list[str] = field(default_factory=list)
    """Registered agents (specs as in ``electrify arena``, e.g. ``mcts:iters=36:top_k=3:horizon=2``
    or ``trained_2p``) that play the seats drawn by ``p_agent``; each is built once, seeded from
    ``seed``, and sees what it sees in the arena (its seat's observation and scrubbed information
    set).  The learner's recent win rate against each is logged as ``agent:<spec>``."""
    snapshot_every: int = 250_000
    """Learner decisions between two snapshots added to the league (> 0)."""
    max_snapshots: int = 8
    """Snapshots kept (the oldest is dropped; > 0)."""
    pfsp_power: float = 2.0
    """PFSP: snapshot k is drawn with weight (1 - win rate against it + 0.05) ** pfsp_power (>= 0;
    0: uniform)."""
    bc_steps: int = 400_000
    """Imitation warm start: greedy decisions imitated before reinforcement learning (>= 0; 0:
    none)."""
    bc_epochs: int = 2
    """Passes over each chunk of imitation data (> 0)."""
    bc_minibatch: int = 512
    """Samples per gradient step of the imitation phase (>= 2; smaller than PPO's: supervised
    learning wants many steps)."""
    bc_learning_rate: float = 1e-3
    """Adam step size of the imitation phase (> 0)."""
    bc_data: str | None = None
    """A file of stored games to imitate first (expert iteration's warm start): search-agent games
    written by ``electrify teacher-data`` (:mod:`electrify_env.training.teacher`; locally or on Ray), or an
    arena / balance ``games.jsonl``; None: none.  The games must be ``n_players`` games (solo:
    ``n_players: 1``) on this card set.  Runs before the greedy imitation phase (``bc_steps``),
    on a fresh run only (a resumed run has done it)."""
    bc_data_epochs: int = 4
    """Passes over the ``bc_data`` decisions (> 0)."""
    bc_data_winners_only: bool = False
    """Imitate only the decisions of seats that won their game."""
    init_policy: str | None = None
    """Start the network from a saved policy (``policy.pt`` of a run, or a shipped one such as
    ``policies/electrify-2p.pt``, found from any folder) instead of a fresh one; a fresh run
    only (not with resume).  Same ``hidden`` sizes; it may come from another player count: a
    seat policy warm-starts another seat count (the input columns of the seats it never saw
    start at zero, so the new network plays exactly as the old one at first).  Set
    ``bc_steps: 0`` to skip imitation.  The policy's own history is kept in the new one's
    metadata as ``init_from``."""
    kick_coef: float = 0.0
    """Kickstarting: weight of a cross-entropy loss toward greedy's choice on the learner's own
    states during RL, decaying linearly to 0 over kick_steps (>= 0; 0: off)."""
    kick_steps: int = 1_000_000
    """Learner decisions over which kick_coef decays (> 0)."""
    value_warmup: int = 0
    """Learner decisions at the start of reinforcement learning during which the updates train
    the value head alone, on the trunk's features as they are (the trunk and the policy head do
    not move): for a network started from one whose value head never learned (``init_policy``
    of a distilled network, :mod:`electrify_env.training.distill`), whose value errors would otherwise pull
    the shared trunk away from what it learned (>= 0; 0: off)."""
    policy_temperature: float = 1.0
    """The temperature of the policy that reinforcement learning samples and trains:
    ``softmax(logits / policy_temperature)`` (the learner's and the snapshots' moves in the
    league, PPO's ratios, its entropy and the anchor's KL).  The most likely action, which the
    evaluation and the saved agent play, does not depend on it.  Below 1 the sampled policy plays
    close to its most likely action: a distilled network keeps its teacher's uncertainty, so at 1
    its sampled games lose to greedy where its first choices win,
    and PPO would improve the sampled policy instead of the one that is played (> 0)."""
    anchor_coef: float = 0.0
    """Weight of a KL penalty ``KL(anchor || learner)`` in the PPO loss, the anchor being the
    network as reinforcement learning starts (after ``init_policy`` and imitation), both at
    ``policy_temperature``: RL may improve the policy but not wander far from where it began
    (the KL-regularised fine-tuning of a distilled network; >= 0; 0: off)."""
    ema_decay: float = 0.0
    """Weight averaging: after every PPO update the averaged network moves toward the learner's,
    ``avg = ema_decay * avg + (1 - ema_decay) * learner`` (an exponential moving average of the
    weights over about ``1 / (1 - ema_decay)`` updates), and the averaged network is the one
    evaluated, kept as the best policy and saved; the learner itself still plays the training
    games and is evaluated beside it (``online_`` keys of the curve, so the two can be compared
    on the same games).  0 <= ema_decay < 1; 0: off (the learner is evaluated and saved)."""
    eval_every: int = 250_000
    """Learner decisions between evaluations and checkpoints (> 0)."""
    eval_games: int = 200
    """Games per evaluation (fixed seeds): against greedy in the other seats, seats rotated;
    solo: the scenarios' success rate (> 0)."""
    eval_seed: int = 1_000_000
    """Seed of evaluation game i is eval_seed + i (disjoint from training seeds in practice)."""
    keep_evaluated: bool = False
    """Also save every evaluated network as ``output_dir/evaluated/policy-<decisions>.pt`` (with
    its metadata), not only the best one as ``policy.pt``: for choosing among them later by
    another measure (for instance a longer match against mcts)."""
    output_dir: str = "runs/selfplay_2p"
    """Folder for policy.pt, policy.meta.json, checkpoint.pt, curve.json, curve.png, tb/ (and
    evaluated/ with keep_evaluated)."""
    resume: bool = False
    """Continue from output_dir/checkpoint.pt (network, optimiser, league, counters)."""
    tensorboard: bool = True
    """Write TensorBoard logs to output_dir/tb (needs the tensorboard package)."""
    progress_bar: bool = True
    """Show a tqdm progress bar."""
    torch_threads: int = 1
    """torch.set_num_threads (>= 1, or 0: torch's default)."""
    device: str = "cpu"
    """Torch device for the update (cpu, cuda, cuda:N, mps); acting runs on the CPU."""

    def __post_init__(self) -> None:
        _coerce_numbers(self)
        self.validate()

    def validate(self) -> "TrainConfig":
        """Raise ConfigError naming the first bad field."""
        _check_types(self)
        need = _need(self)
        need(1 <= self.n_players <= 4, "n_players", "must be 1 (solo), 2, 3 or 4")
        need(self.reward in TRAIN_REWARDS, "reward", "must be one of " + ", ".join(TRAIN_REWARDS))
        need(self.policy_prior in POLICY_PRIORS, "policy_prior", "must be one of " + ", ".join(POLICY_PRIORS))
        need(math.isfinite(self.prior_scale) and self.prior_scale > 0, "prior_scale", "must be a finite number > 0")
        need(math.isfinite(self.ema_decay) and 0 <= self.ema_decay < 1, "ema_decay", "must lie in [0, 1)")
        for name in ("total_steps", "num_envs", "rollout", "epochs", "snapshot_every", "max_snapshots",
                     "bc_epochs", "kick_steps", "eval_every", "eval_games"):
            need(getattr(self, name) > 0, name, "must be a positive integer")
        need(self.bc_steps >= 0, "bc_steps", "must be >= 0")
        need(self.value_warmup >= 0, "value_warmup", "must be >= 0")
        need(math.isfinite(self.policy_temperature) and self.policy_temperature > 0, "policy_temperature",
             "must be a finite number > 0")
        need(math.isfinite(self.anchor_coef) and self.anchor_coef >= 0, "anchor_coef", "must be a finite number >= 0")
        need(self.bc_data_epochs > 0, "bc_data_epochs", "must be a positive integer")
        need(self.bc_data is None or Path(self.bc_data).is_file(), "bc_data",
             f"must be a games file (electrify teacher-data --out FILE); {self.bc_data!r} is not a file")
        need(self.init_policy is None or resolve_policy_path(self.init_policy).is_file(), "init_policy",
             f"must be a saved policy file (.pt); {self.init_policy!r} is not a file")
        need(self.minibatch >= 2, "minibatch", "must be at least 2")
        need(self.bc_minibatch >= 2, "bc_minibatch", "must be at least 2")
        for name in ("learning_rate", "bc_learning_rate", "gamma", "gae_lambda", "clip_range", "ent_coef", "vf_coef",
                     "max_grad_norm", "points_scale", "win_bonus", "p_self", "p_greedy", "p_snapshot",
                     "p_random", "p_agent", "pfsp_power", "kick_coef"):
            need(math.isfinite(getattr(self, name)), name, "must be a finite number")
        need(self.learning_rate > 0, "learning_rate", "must be > 0")
        need(self.bc_learning_rate > 0, "bc_learning_rate", "must be > 0")
        need(0.0 < self.gamma <= 1.0, "gamma", "must lie in (0, 1]")
        need(0.0 < self.gae_lambda <= 1.0, "gae_lambda", "must lie in (0, 1]")
        need(self.clip_range > 0, "clip_range", "must be > 0")
        need(self.max_grad_norm > 0, "max_grad_norm", "must be > 0")
        for name in ("ent_coef", "vf_coef", "points_scale", "win_bonus", "p_self", "p_greedy",
                     "p_snapshot", "p_random", "p_agent", "pfsp_power", "kick_coef"):
            need(getattr(self, name) >= 0, name, "must be >= 0")
        need(self.n_players == 1 or self.p_self + self.p_greedy + self.p_snapshot + self.p_random
             + self.p_agent > 0, "p_greedy",
             "the league chances p_self, p_greedy, p_snapshot, p_random, p_agent must not all be 0")
        need(self.p_agent == 0 or self.league_agents, "league_agents",
             "must name at least one agent when p_agent > 0")
        need(self.n_players > 1 or not self.league_agents, "league_agents",
             "applies to n_players 2-4 only (solo games have no other seats)")
        _check_league_agents(self.league_agents)
        need(self.n_players == 1 or self.scenario is None, "scenario", "applies to n_players: 1 only")
        need(self.scenario_sampling in SCENARIO_SAMPLINGS, "scenario_sampling",
             "must be one of " + ", ".join(SCENARIO_SAMPLINGS))
        need(self.scenario_sampling == "uniform" or (self.n_players == 1 and self.scenario is None),
             "scenario_sampling", "applies to n_players: 1 with scenario: null only")
        need(all(h > 0 for h in self.hidden) and len(self.hidden) > 0, "hidden",
             "must be a non-empty list of positive layer sizes")
        need(self.torch_threads >= 0, "torch_threads", "must be >= 1 (or 0: torch's default)")
        need(0 <= self.seed <= TORCH_MAX_SEED, "seed", f"must lie in 0..2**32-1 ({TORCH_MAX_SEED})")
        need(0 <= self.eval_seed and self.eval_seed + self.eval_games - 1 <= GAME_MAX_SEED, "eval_seed",
             "must lie in 0..2**62-1 together with every evaluation game's seed")
        need(DEVICE_PATTERN.fullmatch(self.device) is not None and self.device != "auto", "device",
             "must be cpu, mps, cuda or cuda:N")
        need(self.output_dir.strip() != "", "output_dir", "must name a folder")
        if self.scenario is not None:
            from electrify_env.scenarios import ScenarioError, load_scenario
            try:
                load_scenario(self.scenario)
            except ScenarioError as exc:
                raise ConfigError(f"scenario: {exc}") from None
        _check_tech_packs(self.tech_packs)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (saved beside the policy)."""
        return dataclasses.asdict(self)


# ----------------------------------------------------------------------------------------------
# Multi-agent PPO on Ray RLlib (training/rllib_selfplay.py)
# ----------------------------------------------------------------------------------------------
@dataclass
class RLlibConfig:
    """Multi-agent PPO with action masking on RLlib's new API stack, every seat played by one
    shared policy (self-play), over the env ``electrify_rllib_v0``
    (:mod:`electrify_env.envs.rllib`; ``electrify train --backend rllib CONFIG``).  The policy is
    a :class:`electrify_env.agents.net.PolicyValueNet`, exported as a project policy file at the end.  Ranges
    in the field docs are checked when the config is built."""

    n_players: int = 2
    """Seats per game, 2-4 (one policy plays them all)."""
    tech_packs: list[str] = field(default_factory=list)
    """Tech packs shuffled into the decks (shipped names or pack files)."""
    reward_mode: str = "win"
    """The PettingZoo env's reward: ``win`` (+1/k for k winners, -1 for the others, at the end),
    ``margin`` ((own - best other points) * points_scale at the end), ``score`` (own points *
    points_scale at the end) or ``shaped`` (point gains * points_scale each turn, + win_bonus *
    the win reward)."""
    points_scale: float = 0.1
    """Reward per energy point (margin, score, shaped; >= 0)."""
    win_bonus: float = 1.0
    """Weight of the win reward in ``shaped`` (>= 0)."""
    iterations: int = 100
    """Training iterations (``Algorithm.train()`` calls; > 0): each samples train_batch_size
    env steps and runs num_epochs passes of PPO over them."""
    num_env_runners: int = 2
    """Env runner actors sampling in parallel (>= 0; 0: sample in the driver).  On a cluster
    (``address``) they spread over its nodes; each takes one CPU."""
    num_envs_per_env_runner: int = 4
    """Games each env runner steps together (> 0)."""
    train_batch_size: int = 8_192
    """Env steps (agent decisions: one agent acts per step) per iteration (> 0)."""
    minibatch_size: int = 1_024
    """Samples per gradient step (at least 2, at most train_batch_size)."""
    num_epochs: int = 2
    """Passes over each iteration's batch (> 0)."""
    learning_rate: float = 3e-4
    """Adam step size (> 0)."""
    gamma: float = 0.995
    """Discount factor per decision of the agent, in (0, 1]."""
    gae_lambda: float = 0.95
    """GAE lambda, in (0, 1]."""
    clip_param: float = 0.2
    """PPO ratio clipping (> 0)."""
    entropy_coeff: float = 0.005
    """Entropy bonus (over the legal actions; >= 0)."""
    vf_loss_coeff: float = 0.5
    """Value loss weight (>= 0)."""
    grad_clip: float = 0.5
    """Global gradient-norm clip (> 0)."""
    hidden: list[int] = field(default_factory=lambda: [256, 128])
    """Hidden layer sizes of the shared trunk (electrify_env.agents.net.PolicyValueNet)."""
    seed: int = 0
    """Seed of RLlib (network initialisation, env runners' games; 0..2**32-1)."""
    address: str | None = None
    """Ray cluster to join, from a machine that is one of its nodes (``auto``: the cluster that
    ``ray start`` joined on this machine, or the head's ``HOST:6379``); null: start a local Ray
    on this machine.  Every node needs this project installed (``pip install -e ".[ray]"``)."""
    output_dir: str = "runs/rllib_2p"
    """Folder for the exported policy.pt (+ policy.meta.json), the RLlib checkpoint (checkpoint/)
    and curve.json (one line per iteration)."""
    progress_bar: bool = True
    """Show a tqdm progress bar over the iterations."""
    torch_threads: int = 1
    """torch.set_num_threads in the driver (>= 1, or 0: torch's default)."""

    REWARD_MODES = SEAT_REWARD_MODES

    def __post_init__(self) -> None:
        _coerce_numbers(self)
        self.validate()

    def validate(self) -> "RLlibConfig":
        """Raise ConfigError naming the first bad field."""
        _check_types(self)
        need = _need(self)
        need(2 <= self.n_players <= 4, "n_players", "must be 2, 3 or 4")
        need(self.reward_mode in self.REWARD_MODES, "reward_mode", "must be one of " + ", ".join(self.REWARD_MODES))
        for name in ("iterations", "num_envs_per_env_runner", "train_batch_size", "num_epochs"):
            need(getattr(self, name) > 0, name, "must be a positive integer")
        need(self.num_env_runners >= 0, "num_env_runners", "must be an integer >= 0 (0: sample in the driver)")
        need(self.minibatch_size >= 2, "minibatch_size", "must be at least 2 (PPO normalises advantages per minibatch)")
        need(self.minibatch_size <= self.train_batch_size, "minibatch_size",
             f"must not exceed train_batch_size = {self.train_batch_size}")
        for name in ("points_scale", "win_bonus", "learning_rate", "gamma", "gae_lambda", "clip_param",
                     "entropy_coeff", "vf_loss_coeff", "grad_clip"):
            need(math.isfinite(getattr(self, name)), name, "must be a finite number")
        need(self.learning_rate > 0, "learning_rate", "must be > 0")
        need(0.0 < self.gamma <= 1.0, "gamma", "must lie in (0, 1]")
        need(0.0 < self.gae_lambda <= 1.0, "gae_lambda", "must lie in (0, 1]")
        need(self.clip_param > 0, "clip_param", "must be > 0")
        need(self.grad_clip > 0, "grad_clip", "must be > 0")
        for name in ("points_scale", "win_bonus", "entropy_coeff", "vf_loss_coeff"):
            need(getattr(self, name) >= 0, name, "must be >= 0")
        need(len(self.hidden) > 0 and all(h > 0 for h in self.hidden), "hidden",
             "must be a non-empty list of positive layer sizes")
        need(0 <= self.seed <= TORCH_MAX_SEED, "seed", f"must lie in 0..2**32-1 ({TORCH_MAX_SEED})")
        need(self.address is None or self.address.strip() != "", "address",
             "must name a Ray cluster (auto or HOST:PORT), or be null for a local Ray")
        need(self.torch_threads >= 0, "torch_threads", "must be >= 1 (or 0: torch's default)")
        need(self.output_dir.strip() != "", "output_dir", "must name a folder")
        _check_tech_packs(self.tech_packs)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (saved beside the policy)."""
        return dataclasses.asdict(self)
