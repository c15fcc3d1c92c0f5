"""The expert-iteration trainer's configuration (``configs/<game>-<n>p-expert.yaml``).

Every field has a default; a config file names the ones it changes (a key unknown here, or a
value of the wrong type or range, is a one-line :class:`~electrify_env.training.config.ConfigError`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..config import ConfigError, load_config

__all__ = ["ExpertConfig", "load_expert_config"]


@dataclass
class ExpertConfig:
    """Expert iteration: a warm start by imitation, then rounds of search self-play and training.

    Attributes (by stage):

    * the game: ``game`` (registry name), ``players``, ``seed`` (seeds every game, search and
      minibatch of the run, so a run is a function of its config), ``threads`` (torch threads);
    * the run: ``out`` (folder of checkpoints, TensorBoard events and ``log.jsonl``), ``policy``
      (the policy file written at the end; ``""``: ``out/policy.pt``), ``resume`` (continue from
      ``out/checkpoint.pt`` when it exists), ``max_minutes`` (stop after the round that passes
      this wall-clock budget; 0: no limit);
    * the network: ``embed``, ``hidden`` (:class:`~electrify_env.agents.network.model.PolicyValueNet`),
      ``lr``, ``weight_decay``, ``batch``, ``value_weight`` (the value loss's weight beside the
      policy's cross-entropy), ``init`` (a policy file of the same game whose tensors of matching
      name and shape start the network, such as a 2-player file for a 4-player run; the value
      head of another player count starts fresh; ``""``: random weights);
    * the warm start: ``warm_games`` games in which ``warm_teacher`` (an agent spec of the game)
      plays every seat, a random legal move instead with probability ``warm_epsilon``; every
      decision with a choice is a sample (the teacher's move, the game's result), trained for
      ``warm_epochs`` passes (``warm_games: 0`` starts from random weights);
    * expert iteration: ``iterations`` rounds of ``games_per_iteration`` games, ``parallel`` of them
      stepped together (their searches' leaves go to one forward pass a wave); the learner's
      moves are chosen by the Gumbel search (``simulations``, ``determinizations``,
      ``considered``, ``gumbel_scale``) and labelled with its improved policy; the opponents of a
      game come from ``league`` (weights of ``self``: every seat is the learner; ``snapshot``: a
      past network alone, one taken every ``snapshot_every`` rounds, the last ``snapshots`` kept;
      any other key: an agent spec of the game, such as ``greedy``); a search sample's value
      target is the game's result mixed with the search's root value by ``value_mix`` (0: the
      result alone); ``replay`` samples are kept and ``train_steps`` minibatches drawn a round;
    * screening: every ``eval_every`` rounds, ``eval_games`` seat-rotated games of the network alone
      against ``eval_opponent`` on seeds from ``eval_seed`` (keep them apart from the arena seeds
      a shipped file is measured on); the network of the best screening utility so far is kept as
      ``out/best.pt`` (its round and figures in its metadata), and with ``patience`` > 0 the run
      stops once that many screenings in a row have not beaten it (0: run every round);
    * the file: ``play_search`` (``{"simulations", "determinizations", "considered"}`` or null), the
      search the policy file plays with by default.
    """

    game: str = "gizmos"
    players: int = 2
    seed: int = 0
    threads: int = 1
    out: str = "runs/expert"
    policy: str = ""
    resume: bool = True
    max_minutes: float = 0.0
    embed: int = 64
    hidden: list = field(default_factory=lambda: [256, 256])
    lr: float = 1e-3
    weight_decay: float = 1e-4
    batch: int = 256
    value_weight: float = 1.0
    init: str = ""
    warm_games: int = 1000
    warm_teacher: str = "greedy"
    warm_epsilon: float = 0.1
    warm_epochs: int = 3
    iterations: int = 20
    games_per_iteration: int = 64
    parallel: int = 32
    simulations: int = 16
    determinizations: int = 2
    considered: int = 8
    gumbel_scale: float = 1.0
    value_mix: float = 0.0
    league: dict = field(default_factory=lambda: {"self": 0.5, "greedy": 0.3, "snapshot": 0.2})
    snapshot_every: int = 2
    snapshots: int = 5
    replay: int = 100_000
    train_steps: int = 200
    eval_games: int = 40
    eval_every: int = 2
    eval_opponent: str = "greedy"
    eval_seed: int = 500_000_000
    patience: int = 0
    play_search: Any = field(default_factory=lambda: {"simulations": 16, "determinizations": 2, "considered": 8})

    def __post_init__(self) -> None:
        ints = {"players": 1, "threads": 1, "embed": 1, "batch": 1, "warm_games": 0, "warm_epochs": 0,
                "iterations": 0, "games_per_iteration": 1, "parallel": 1, "simulations": 1,
                "determinizations": 1, "considered": 1, "snapshot_every": 1, "snapshots": 1, "replay": 1,
                "train_steps": 0, "eval_games": 0, "eval_every": 1, "seed": 0, "eval_seed": 0, "patience": 0}
        for name, lo in ints.items():
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < lo:
                raise ConfigError(f"expert config: {name} must be an integer >= {lo}, got {v!r}")
        for name in ("lr", "weight_decay", "value_weight", "warm_epsilon", "gumbel_scale", "max_minutes",
                     "value_mix"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
                raise ConfigError(f"expert config: {name} must be a number >= 0, got {v!r}")
            setattr(self, name, float(v))
        if self.eval_seed + self.eval_games * (self.iterations + 1) > 2**31:
            raise ConfigError(f"expert config: screening seeds eval_seed .. eval_seed + eval_games * "
                              f"(iterations + 1) must stay below 2**31 (training's range), got {self.eval_seed}")
        for name in ("warm_epsilon", "value_mix"):
            if getattr(self, name) > 1:
                raise ConfigError(f"expert config: {name} must lie in [0, 1], got {getattr(self, name)}")
        if not isinstance(self.init, str):
            raise ConfigError(f"expert config: init must be a policy file's path or '', got {self.init!r}")
        if not isinstance(self.hidden, (list, tuple)) or len(self.hidden) < 1 or \
                not all(isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in self.hidden):
            raise ConfigError(f"expert config: hidden must be a list of positive widths, got {self.hidden!r}")
        if not isinstance(self.league, dict) or not self.league or \
                not all(isinstance(w, (int, float)) and not isinstance(w, bool) and w >= 0 for w in self.league.values()) \
                or sum(self.league.values()) <= 0:
            raise ConfigError(f"expert config: league must map 'self', 'snapshot' or agent specs to weights "
                              f">= 0 with a positive sum, got {self.league!r}")
        if self.play_search is not None:
            keys = {"simulations", "determinizations", "considered"}
            if not isinstance(self.play_search, dict) or set(self.play_search) - keys or \
                    not all(isinstance(v, int) and v >= 1 for v in self.play_search.values()):
                raise ConfigError(f"expert config: play_search must be null or a mapping of {sorted(keys)} "
                                  f"to integers >= 1, got {self.play_search!r}")
        from electrify_env.games import get_game
        try:
            gdef = get_game(self.game)
        except ValueError as err:
            raise ConfigError(f"expert config: {err}") from None
        if not gdef.min_players <= self.players <= gdef.max_players:
            raise ConfigError(f"expert config: {gdef.title} takes {gdef.min_players}-{gdef.max_players} "
                              f"players, got {self.players}")

    @property
    def policy_path(self) -> Path:
        """Where the final policy file goes."""
        return Path(self.policy) if self.policy else Path(self.out) / "policy.pt"

    def as_dict(self) -> dict:
        """The fields as plain data (stored in checkpoints and the policy's metadata)."""
        return dataclasses.asdict(self)


def load_expert_config(path: str | Path | None, overrides: dict[str, Any] | None = None) -> ExpertConfig:
    """An :class:`ExpertConfig` from a YAML file (or a shipped config's name) and overrides."""
    return load_config(path, cls=ExpertConfig, overrides=overrides)
