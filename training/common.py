"""Environment building and evaluation shared by the training and evaluation scripts."""
from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from electrify_env.kernels.batch import sample_legal
from electrify_env.envs import SEAT_ENV_ID, SOLO_ENV_ID, ElectrifyEnv, ElectrifySoloEnv, ElectrifyVectorEnv

from .config import PPOConfig, PPOSeatConfig

# A policy for evaluation: (observations (N, OBS_SIZE), bool masks (N, N_ACTIONS)) -> actions (N,)
BatchPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclasses.dataclass
class EvalResult:
    """Outcome of evaluation games (one entry per game, in seed order)."""

    final_scores: np.ndarray
    """Solo: energy points + star points; one seat: the agent's energy points."""
    scores: np.ndarray
    """The agent's energy points."""
    others: np.ndarray
    """Solo: the scenario's target; one seat: the best other player's points."""
    won: np.ndarray
    """Solo: the target was reached; one seat: the agent is among the winners (R18)."""
    seeds: np.ndarray
    """The game seeds."""

    @property
    def mean_final_score(self) -> float:
        """Mean final score."""
        return float(self.final_scores.mean())

    @property
    def stderr(self) -> float:
        """Standard error of the mean final score."""
        n = len(self.final_scores)
        return float(self.final_scores.std(ddof=1) / np.sqrt(n)) if n > 1 else 0.0

    @property
    def win_rate(self) -> float:
        """Share of games won."""
        return float(self.won.mean())

    def summary(self) -> dict:
        """JSON-ready figures (``mean_margin``: mean of final score minus the ``others`` column,
        i.e. the distance to the target in solo, to the best opponent in one-seat play)."""
        return {"games": int(len(self.final_scores)), "mean_final_score": self.mean_final_score,
                "stderr": self.stderr, "mean_score": float(self.scores.mean()),
                "mean_margin": float((self.final_scores - self.others).mean()), "win_rate": self.win_rate}


def env_kwargs(cfg: PPOConfig) -> dict:
    """Arguments of the single env / vector env of a config (without the mode)."""
    kw = {"reward_mode": cfg.reward_mode, "win_bonus": cfg.win_bonus, "tech_packs": tuple(cfg.tech_packs)}
    if isinstance(cfg, PPOSeatConfig):
        kw.update(n_players=cfg.n_players, seat=cfg.seat, points_scale=cfg.points_scale)
    else:
        kw["scenario"] = cfg.scenario
    return kw


def env_mode(cfg: PPOConfig) -> str:
    """``"seat"`` or ``"solo"``."""
    return "seat" if isinstance(cfg, PPOSeatConfig) else "solo"


def env_id(cfg: PPOConfig) -> str:
    """The Gymnasium id of the config's env."""
    return SEAT_ENV_ID if isinstance(cfg, PPOSeatConfig) else SOLO_ENV_ID


def make_train_env(cfg: PPOConfig):
    """The SB3 VecEnv the config asks for (``vector``: the jitted vector env through the SB3
    adapter; ``dummy``: DummyVecEnv over ``gymnasium.make`` envs), seeded by ``cfg.seed``."""
    kw = env_kwargs(cfg)
    if cfg.vec_env == "vector":
        from electrify_env.envs.sb3 import ElectrifySB3VecEnv
        venv = ElectrifySB3VecEnv(num_envs=cfg.n_envs, mode=env_mode(cfg), parallel=False, **kw)
    else:
        import gymnasium as gym
        from stable_baselines3.common.vec_env import DummyVecEnv
        venv = DummyVecEnv([lambda: gym.make(env_id(cfg), **kw) for _ in range(cfg.n_envs)])
    venv.seed(cfg.seed)
    return venv


def evaluate(policy: BatchPolicy, mode: str, kwargs: dict, episodes: int, seed0: int,
             batch: int = 200) -> EvalResult:
    """Play ``episodes`` games (``mode`` ``"solo"`` or ``"seat"``, env arguments ``kwargs``) with
    seeds ``seed0 .. seed0 + episodes - 1``, ``batch`` at a time in the vector env, choosing with
    ``policy``; return their outcomes.  In solo play the same seeds give every policy the same
    games (``Game(seed=s, scenario=...)``); in one-seat play the random opponents draw from the
    game's generator, so their moves also depend on the agent's."""
    kw = {k: v for k, v in kwargs.items() if k != "reward_mode"}
    finals, scores, others, won, seeds = [], [], [], [], []
    done_total = 0
    other_key = "target" if mode == "solo" else "best_other"
    while done_total < episodes:
        n = min(batch, episodes - done_total)
        env = ElectrifyVectorEnv(n, mode, reward_mode="score", parallel=False, **kw)
        obs, info = env.reset(seed=seed0 + done_total)
        out = {}
        while len(out) < n:
            actions = policy(obs, env.action_masks())
            obs, _, terms, _, info = env.step(np.asarray(actions, dtype=np.int64))
            if terms.any():
                fi = info["final_info"]
                for i in np.flatnonzero(terms):
                    if i not in out:
                        out[i] = (int(fi["final_score"][i]), int(fi["score"][i]), int(fi[other_key][i]),
                                  bool(fi["won"][i]), int(fi["seed"][i]))
        for i in range(n):
            f, s, o, w, sd = out[i]
            finals.append(f)
            scores.append(s)
            others.append(o)
            won.append(w)
            seeds.append(sd)
        done_total += n
    return EvalResult(np.array(finals, dtype=float), np.array(scores, dtype=float),
                      np.array(others, dtype=float), np.array(won), np.array(seeds, dtype=np.int64))


def evaluate_solo(policy: BatchPolicy, scenario: str, episodes: int, seed0: int, tech_packs=(),
                  batch: int = 200) -> EvalResult:
    """:func:`evaluate` on solo games of ``scenario``."""
    return evaluate(policy, "solo", {"scenario": scenario, "tech_packs": tuple(tech_packs)}, episodes, seed0, batch)


def random_policy(seed: int = 0) -> BatchPolicy:
    """Uniform random legal actions (the ``random`` agent), batched."""
    rng = np.random.default_rng(seed)

    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """One uniformly drawn legal id per row."""
        out = np.empty(len(masks), dtype=np.int64)
        sample_legal(np.ascontiguousarray(masks).view(np.uint8), rng.random(len(masks)), out)
        return out
    return act


def model_policy(model, deterministic: bool = True) -> BatchPolicy:
    """A MaskablePPO model as a batched policy (masked logits)."""
    def act(obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The model's (most likely, or sampled) legal action per row."""
        actions, _ = model.predict(obs, action_masks=masks, deterministic=deterministic)
        return np.asarray(actions, dtype=np.int64)
    return act


def env_for_metadata(cfg: PPOConfig):
    """A single env of the config (for spaces and the card set's hash)."""
    kw = env_kwargs(cfg)
    return ElectrifyEnv(**kw) if isinstance(cfg, PPOSeatConfig) else ElectrifySoloEnv(**kw)
