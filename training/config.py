"""Typed configuration of the PPO training scripts; YAML files in ``configs/`` only fill it."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml


class ConfigError(ValueError):
    """A configuration file or value that cannot be used; the message names the field."""


@dataclass
class PPOConfig:
    """Fields shared by every MaskablePPO training config."""

    tech_packs: list[str] = field(default_factory=list)
    """Tech packs shuffled into the decks (``grid``, ``market``)."""
    total_timesteps: int = 300_000
    """Agent decisions to train for."""
    seed: int = 0
    """Seed of the policy initialisation and of the training games."""
    vec_env: str = "vector"
    """``vector`` (the jitted ElectrifyVectorEnv through the SB3 adapter) or ``dummy`` (SB3's
    DummyVecEnv over single envs)."""
    n_envs: int = 16
    """Games stepped together during rollouts."""
    learning_rate: float = 3e-4
    """Adam step size."""
    n_steps: int = 256
    """Rollout length per env between updates (batch = n_steps * n_envs)."""
    batch_size: int = 512
    """Minibatch size of the PPO update."""
    n_epochs: int = 10
    """Passes over each rollout batch."""
    gamma: float = 0.995
    """Discount factor."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clipping of the probability ratio."""
    ent_coef: float = 0.01
    """Entropy bonus weight."""
    vf_coef: float = 0.5
    """Value loss weight."""
    max_grad_norm: float = 0.5
    """Gradient clipping norm."""
    features_dim: int = 256
    """Units of the shared first layer over the observation (training.features.ElectrifyExtractor,
    which reads only the solo player's part of the vector)."""
    net_arch: list[int] = field(default_factory=lambda: [128])
    """Hidden layer sizes of the policy head and of the value head (after the shared layer)."""
    eval_every: int = 25_000
    """Evaluate (and print a learning-curve point) every this many agent decisions; 0: never."""
    eval_episodes: int = 100
    """Games per learning-curve evaluation (fixed seeds, disjoint from training)."""
    final_eval_episodes: int = 200
    """Games of the final evaluation against the random agent."""
    eval_seed: int = 1_000_000
    """First seed of the evaluation games (game i uses eval_seed + i)."""
    deterministic_eval: bool = True
    """Evaluate the policy's most likely legal action (else sample it)."""
    output_dir: str = "runs/ppo_solo"
    """Folder for policy.zip, its metadata (policy.meta.json) and curve.json."""
    tensorboard_log: str | None = None
    """TensorBoard folder (off when null); ``$SB3_LOGDIR`` is used when this is null and set."""
    progress_bar: bool = True
    """Show a tqdm progress bar."""
    torch_threads: int = 1
    """torch.set_num_threads (0: leave torch's default; 1 is fastest on small shared CPUs, where
    two OpenMP threads contend with the env and other processes)."""
    device: str = "cpu"
    """Torch device."""

    REWARD_MODES = ("shaped", "score", "win")

    def validate(self) -> "PPOConfig":
        """Raise ConfigError naming the first bad field."""
        def need(ok: bool, name: str, what: str) -> None:
            if not ok:
                raise ConfigError(f"{name}: {what}, got {getattr(self, name)!r}")
        need(self.reward_mode in self.REWARD_MODES, "reward_mode", "must be one of " + ", ".join(self.REWARD_MODES))
        need(self.vec_env in ("vector", "dummy"), "vec_env", "must be vector or dummy")
        for name in ("total_timesteps", "n_envs", "n_steps", "batch_size", "n_epochs", "eval_episodes",
                     "final_eval_episodes", "features_dim"):
            need(isinstance(getattr(self, name), int) and getattr(self, name) > 0, name, "must be a positive integer")
        need(isinstance(self.eval_every, int) and self.eval_every >= 0, "eval_every", "must be an integer >= 0")
        need(0.0 < self.gamma <= 1.0, "gamma", "must lie in (0, 1]")
        need(0.0 <= self.gae_lambda <= 1.0, "gae_lambda", "must lie in [0, 1]")
        need(self.learning_rate > 0, "learning_rate", "must be > 0")
        need(self.batch_size <= self.n_steps * self.n_envs, "batch_size", "must not exceed n_steps * n_envs")
        need(all(isinstance(h, int) and h > 0 for h in self.net_arch), "net_arch",
             "must be a list of positive layer sizes")
        need(self.torch_threads >= 0, "torch_threads", "must be >= 0")
        return self

    def to_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (saved beside the policy)."""
        return dataclasses.asdict(self)




@dataclass
class PPOSoloConfig(PPOConfig):
    """MaskablePPO on ``Electrify-Solo-v0`` (``python -m training.train_solo --config ...``)."""

    scenario: str = "first_light"
    """Solo scenario id (``electrify scenarios``) trained and evaluated on."""
    reward_mode: str = "shaped"
    """Env reward: ``shaped`` (point and star gains / target, + win bonus), ``score`` or ``win``."""
    win_bonus: float = 1.0
    """``shaped`` only: reward added at the end of a won game."""


@dataclass
class PPOSeatConfig(PPOConfig):
    """MaskablePPO on one seat of ``Electrify-v0`` against random opponents
    (``python -m training.train_seat --config ...``)."""

    REWARD_MODES = ("win", "margin", "score", "shaped")

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
        if not (isinstance(self.n_players, int) and 2 <= self.n_players <= 4):
            raise ConfigError(f"n_players: must be 2, 3 or 4, got {self.n_players!r}")
        if self.seat is not None and not (isinstance(self.seat, int) and 0 <= self.seat < self.n_players):
            raise ConfigError(f"seat: must be null or 0..{self.n_players - 1}, got {self.seat!r}")
        return self


def load_config(path: str | Path | None, cls=PPOSoloConfig, overrides: dict[str, Any] | None = None):
    """Fill ``cls`` from a YAML mapping (unknown keys are an error) and ``overrides``; validate."""
    data: dict[str, Any] = {}
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise ConfigError(f"{p}: config file not found")
        loaded = yaml.safe_load(p.read_text()) or {}
        if not isinstance(loaded, dict):
            raise ConfigError(f"{p}: expected a mapping of field: value")
        data.update(loaded)
    data.update(overrides or {})
    names = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(names))
    if unknown:
        raise ConfigError(f"{path or 'overrides'}: unknown field(s) {', '.join(unknown)}; "
                          f"known: {', '.join(names)}")
    defaults = cls()
    for key, value in data.items():
        want = type(getattr(defaults, key))
        if want is type(None):
            continue  # optional field (default null)
        if value is None:
            raise ConfigError(f"{key}: must not be null")
        if isinstance(value, want) and not (want is int and isinstance(value, bool)):
            continue
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            data[key] = float(value)
        elif want is int and isinstance(value, float) and value.is_integer():
            data[key] = int(value)
        else:
            raise ConfigError(f"{key}: expected {want.__name__}, got {value!r}")
    try:
        cfg = cls(**data)
    except TypeError as exc:
        raise ConfigError(str(exc)) from None
    return cfg.validate()
