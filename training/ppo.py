"""MaskablePPO training loop shared by ``electrify_env.training.train_solo`` and ``electrify_env.training.train_seat``.

``train(cfg)`` builds the env of the config (solo: ``Electrify-Solo-v0``; seat: one seat of
``Electrify-v0`` against random opponents), prints a learning curve (mean final score over fixed
evaluation games vs training steps), compares the trained policy with the random agent on the
same games, and writes ``<output_dir>/policy.zip``, ``policy.meta.json``
(electrify_env.agents.policy_meta: layout versions, card-set hash, env id, scenario or players, steps,
config, curve) and ``curve.json``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any


from .common import (
    env_for_metadata, env_id, env_kwargs, env_mode, evaluate, make_train_env, model_policy, random_policy,
)
from .config import ConfigError, PPOConfig, PPOSeatConfig, load_config, parse_overrides


def _progress_callback(total: int):
    """A tqdm progress bar over agent decisions (SB3's own bar needs ``rich``)."""
    from stable_baselines3.common.callbacks import BaseCallback
    from tqdm import tqdm

    from .progress import advance

    class Progress(BaseCallback):
        """Advance a tqdm bar by the number of envs at every vector step."""

        def _on_training_start(self) -> None:
            self.bar = tqdm(total=total, unit="step", dynamic_ncols=True, file=sys.stderr)

        def _on_step(self) -> bool:
            advance(self.bar, self.training_env.num_envs)   # the last rollout may pass ``total``
            return True

        def _on_training_end(self) -> None:
            self.bar.close()

    return Progress()


def _eval_callback(cfg: PPOConfig, curve: list[dict[str, Any]], log=print):
    """Every ``cfg.eval_every`` steps: evaluate on the fixed games, print and record a point."""
    from stable_baselines3.common.callbacks import BaseCallback

    class Evaluate(BaseCallback):
        """Record a learning-curve point every ``cfg.eval_every`` agent decisions."""

        def __init__(self) -> None:
            super().__init__()
            self.next_at = cfg.eval_every

        def _on_step(self) -> bool:
            if cfg.eval_every and self.num_timesteps >= self.next_at:
                self.next_at += cfg.eval_every
                point = record_point(self.model, cfg, self.num_timesteps, curve, log)
                self.logger.record("eval/mean_final_score", point["mean_final_score"])
                self.logger.record("eval/win_rate", point["win_rate"])
            return True

    return Evaluate()


def _evaluate(policy, cfg: PPOConfig, episodes: int):
    return evaluate(policy, env_mode(cfg), env_kwargs(cfg), episodes, cfg.eval_seed)


def record_point(model, cfg: PPOConfig, steps: int, curve: list[dict[str, Any]], log=print) -> dict:
    """Evaluate ``model`` and append a learning-curve point."""
    t = time.perf_counter()
    res = _evaluate(model_policy(model, cfg.deterministic_eval), cfg, cfg.eval_episodes)
    point = {"steps": int(steps), **res.summary()}
    curve.append(point)
    log(f"[eval] steps {steps:>9,}  mean final score {point['mean_final_score']:6.2f} "
        f"(+/- {point['stderr']:.2f})  win rate {point['win_rate']:.2f}  "
        f"({time.perf_counter() - t:.1f} s)")
    return point


def _n_players(cfg: PPOConfig) -> int:
    return cfg.n_players if isinstance(cfg, PPOSeatConfig) else 1


def _where(cfg: PPOConfig) -> str:
    if isinstance(cfg, PPOSeatConfig):
        seat = "random seat" if cfg.seat is None else f"seat {cfg.seat}"
        return f"{cfg.n_players} players, {seat}, random opponents"
    return f"scenario={cfg.scenario}"


def policy_kwargs(cfg: PPOConfig) -> dict[str, Any]:
    """The MlpPolicy arguments: the shared ElectrifyExtractor layer, then the two heads."""
    from .features import ElectrifyExtractor
    return {"features_extractor_class": ElectrifyExtractor,
            "features_extractor_kwargs": {"n_players": _n_players(cfg), "features_dim": cfg.features_dim},
            "net_arch": {"pi": list(cfg.net_arch), "vf": list(cfg.net_arch)}}


def train(cfg: PPOConfig, log=print) -> dict[str, Any]:
    """Train, evaluate and save; returns a summary (paths, curve, final comparison)."""
    import torch
    from sb3_contrib import MaskablePPO

    from electrify_env.agents.policy_meta import policy_metadata, save_policy_metadata

    if cfg.torch_threads:
        torch.set_num_threads(cfg.torch_threads)
    out = Path(cfg.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    tb = cfg.tensorboard_log or os.environ.get("SB3_LOGDIR") or None
    venv = make_train_env(cfg)
    model = MaskablePPO(
        "MlpPolicy", venv, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
        batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma, gae_lambda=cfg.gae_lambda,
        clip_range=cfg.clip_range, ent_coef=cfg.ent_coef, vf_coef=cfg.vf_coef,
        max_grad_norm=cfg.max_grad_norm, seed=cfg.seed, device=cfg.device, tensorboard_log=tb,
        policy_kwargs=policy_kwargs(cfg), verbose=0)
    curve: list[dict[str, Any]] = []
    log(f"MaskablePPO on {env_id(cfg)} {_where(cfg)} reward={cfg.reward_mode} "
        f"steps={cfg.total_timesteps:,} envs={cfg.n_envs} ({cfg.vec_env})")
    if cfg.eval_every:
        record_point(model, cfg, 0, curve, log)
    callbacks = [_eval_callback(cfg, curve, log)]
    if cfg.progress_bar:
        callbacks.append(_progress_callback(cfg.total_timesteps))
    t0 = time.perf_counter()
    model.learn(total_timesteps=cfg.total_timesteps, callback=callbacks, progress_bar=False)
    train_s = time.perf_counter() - t0
    steps = int(model.num_timesteps)
    if cfg.eval_every and curve[-1]["steps"] != steps:
        record_point(model, cfg, steps, curve, log)
    # final comparison with the random agent on the same games
    res_pol = _evaluate(model_policy(model, cfg.deterministic_eval), cfg, cfg.final_eval_episodes)
    res_rnd = _evaluate(random_policy(cfg.seed), cfg, cfg.final_eval_episodes)
    comparison = {"policy": res_pol.summary(), "random": res_rnd.summary(),
                  "seeds": [cfg.eval_seed, cfg.eval_seed + cfg.final_eval_episodes - 1]}
    log(f"[final] {cfg.final_eval_episodes} games ({_where(cfg)}): policy mean final score "
        f"{res_pol.mean_final_score:.2f} (+/- {res_pol.stderr:.2f}, win rate {res_pol.win_rate:.2f}) vs "
        f"random {res_rnd.mean_final_score:.2f} (+/- {res_rnd.stderr:.2f}, win rate {res_rnd.win_rate:.2f})")
    policy_path = out / "policy.zip"
    model.save(policy_path)
    env = env_for_metadata(cfg)
    where = ({"n_players": cfg.n_players, "seat": cfg.seat} if isinstance(cfg, PPOSeatConfig)
             else {"scenario": cfg.scenario, "n_players": 1})
    meta = policy_metadata(env.card_set.hash, env_id(cfg), **where, reward_mode=cfg.reward_mode,
                           tech_packs=list(cfg.tech_packs), steps=steps,
                           algorithm="sb3_contrib.MaskablePPO", config=cfg.to_dict(),
                           train_seconds=round(train_s, 1), learning_curve=curve, final_eval=comparison)
    meta_path = save_policy_metadata(policy_path, meta)
    (out / "curve.json").write_text(json.dumps({"curve": curve, "final_eval": comparison}, indent=2))
    venv.close()
    log(f"saved {policy_path} and {meta_path.name} ({train_s:.0f} s of training)")
    return {"policy": str(policy_path), "meta": str(meta_path), "curve": curve, "final_eval": comparison,
            "steps": steps}


def main(argv: list[str] | None, cls: type[PPOConfig], prog: str, description: str) -> int:
    """Command line entry point of a training script for config class ``cls``."""
    ap = argparse.ArgumentParser(prog=prog, description=description)
    ap.add_argument("--config", default=None, help=f"YAML file filling electrify_env.training.config.{cls.__name__}")
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                    help="override a config field (YAML value), e.g. --set total_timesteps=20000")
    args = ap.parse_args(argv)
    try:
        cfg = load_config(args.config, cls, parse_overrides(args.set))
    except ConfigError as exc:
        ap.error(str(exc))
    train(cfg)
    return 0

