"""Multi-agent PPO with action masking on Ray RLlib: one shared policy plays every seat.

    electrify train --backend rllib configs/rllib_2p.yaml [--set iterations=20 --set address=auto]
    python -m electrify_env.training.rllib_selfplay configs/rllib_2p.yaml [--set key=value ...]

The env is :mod:`electrify_env.envs.rllib` (``electrify_rllib_v0``, the PettingZoo env
``electrify_v0`` as an RLlib ``MultiAgentEnv``), the policy a :class:`electrify_env.agents.net.PolicyValueNet`
inside an RLlib module (:mod:`electrify_env.training.rllib_module`), trained by RLlib's PPO on the new API
stack: ``num_env_runners`` actors sample ``num_envs_per_env_runner`` games each (spread over the
nodes of a cluster with ``address``), the learner runs in the driver.  Each iteration logs its
env steps/s and the mean episode return per seat; at the end the run writes to ``output_dir``:

* ``checkpoint/``: the RLlib checkpoint (``Algorithm.from_checkpoint`` resumes from it);
* ``policy.pt`` + ``policy.meta.json``: the trained module exported as a project policy
  (float16 weights; card-set hash, env id, players, steps, wall time, config, algorithm
  ``RLlib PPO``), which plays as ``net:path=OUT/policy.pt`` in the arena and in human play;
* ``curve.json``: one entry per iteration.

Needs the Ray extra (``pip install -e ".[ray]"``); without it the command prints one line
saying so.  :func:`measure_env_steps_per_second` and :func:`measure_throughput` measure RLlib's
training and sampling throughput for a number of env runners (``benchmarks/ray_scaling.py``).
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Callable

from .config import ConfigError, RLlibConfig, load_config, parse_overrides

RAY_MISSING = 'Ray RLlib is not installed: pip install -e ".[ray]"'
MODULE_ID = "shared"
"""Id of the one RLlib module that plays every seat."""
ALGORITHM = "RLlib PPO"
"""The ``algorithm`` field of an exported policy's metadata."""
PETTINGZOO_ENV_ID = "electrify_v0"
"""The ``env_id`` of an exported policy (the RLlib env is this PettingZoo env, renamed keys)."""


class RayMissingError(ImportError):
    """Ray RLlib is not installed (the message names the extra to install)."""


def require_ray():
    """Import and return ``ray`` (with RLlib); raise :class:`RayMissingError` with the install
    command if either is missing."""
    try:
        import ray
        import ray.rllib  # noqa: F401
    except ImportError:
        raise RayMissingError(RAY_MISSING) from None
    return ray


def shared_policy(agent_id: str, episode: Any = None, **kwargs) -> str:
    """RLlib's ``policy_mapping_fn``: every seat plays module :data:`MODULE_ID` (self-play)."""
    return MODULE_ID


def env_config(cfg: RLlibConfig) -> dict[str, Any]:
    """The ``env_config`` of :class:`electrify_env.envs.rllib.ElectrifyRLlibEnv` for ``cfg``."""
    return {"n_players": cfg.n_players, "tech_packs": list(cfg.tech_packs), "reward_mode": cfg.reward_mode,
            "points_scale": cfg.points_scale, "win_bonus": cfg.win_bonus}


def algorithm_config(cfg: RLlibConfig):
    """RLlib's ``PPOConfig`` for ``cfg`` (new API stack, torch, one shared module, the env
    registered as ``electrify_rllib_v0``).

    RLlib's env checker is off: it steps an action sampled from the whole action space, which
    this env refuses as illegal; ``tests/test_rllib.py`` checks the env's API instead."""
    require_ray()
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from electrify_env.envs.rllib import register_rllib_env

    from .rllib_module import ElectrifyRLModule

    name = register_rllib_env()
    module = RLModuleSpec(module_class=ElectrifyRLModule,
                          model_config={"n_players": cfg.n_players, "hidden": list(cfg.hidden)})
    return (
        PPOConfig()
        .framework("torch")
        .environment(name, env_config=env_config(cfg), disable_env_checking=True)
        .env_runners(num_env_runners=cfg.num_env_runners, num_envs_per_env_runner=cfg.num_envs_per_env_runner,
                     num_cpus_per_env_runner=1, rollout_fragment_length="auto")
        .learners(num_learners=0)
        .multi_agent(policies={MODULE_ID}, policy_mapping_fn=shared_policy, policies_to_train=[MODULE_ID])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={MODULE_ID: module}))
        .training(train_batch_size_per_learner=cfg.train_batch_size, minibatch_size=cfg.minibatch_size,
                  num_epochs=cfg.num_epochs, lr=cfg.learning_rate, gamma=cfg.gamma, lambda_=cfg.gae_lambda,
                  clip_param=cfg.clip_param, entropy_coeff=cfg.entropy_coeff, vf_loss_coeff=cfg.vf_loss_coeff,
                  grad_clip=cfg.grad_clip, grad_clip_by="global_norm")
        .debugging(seed=cfg.seed)
    )


def _start_ray(address: str | None) -> bool:
    """Connect to Ray unless this process already is (the test fixture's local Ray); returns
    whether this call started the connection (and so must shut it down)."""
    ray = require_ray()
    if ray.is_initialized():
        return False
    if address is None:   # a local Ray: no dashboard, and the runners' own log lines stay in Ray's logs
        ray.init(include_dashboard=False, configure_logging=False, log_to_driver=False)
    else:
        ray.init(address=address, log_to_driver=False)
    return True


def _get(result: dict, *keys: str, default: Any = None) -> Any:
    """``result[k1][k2]...`` or ``default``."""
    for k in keys:
        if not isinstance(result, dict) or k not in result:
            return default
        result = result[k]
    return result


def _number(x: Any) -> float | None:
    """A finite float, or None (RLlib reports NaN or nothing before the first finished game)."""
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def progress_row(result: dict, iteration: int, seconds: float) -> dict[str, Any]:
    """One ``curve.json`` entry from an ``Algorithm.train()`` result: env steps (this iteration
    and in all), env steps/s, finished games, the mean episode return per seat (None before a
    game finished), samples trained on and the losses of the shared module."""
    from ray.rllib.core.learner.learner import ENTROPY_KEY, POLICY_LOSS_KEY, VF_LOSS_KEY
    from ray.rllib.utils.metrics import (
        ENV_RUNNER_RESULTS, EPISODE_AGENT_RETURN_MEAN, EPISODE_LEN_MEAN, LEARNER_RESULTS,
        NUM_ENV_STEPS_SAMPLED, NUM_ENV_STEPS_SAMPLED_LIFETIME, NUM_EPISODES_LIFETIME, NUM_MODULE_STEPS_TRAINED,
    )

    runners = result.get(ENV_RUNNER_RESULTS, {})
    learner = _get(result, LEARNER_RESULTS, MODULE_ID, default={}) or {}
    steps = int(_number(_get(runners, NUM_ENV_STEPS_SAMPLED)) or 0)
    per_agent = _get(runners, EPISODE_AGENT_RETURN_MEAN, default={}) or {}
    return {
        "iteration": iteration,
        "env_steps": steps,
        "env_steps_total": int(_number(_get(runners, NUM_ENV_STEPS_SAMPLED_LIFETIME)) or 0),
        "seconds": round(seconds, 3),
        "env_steps_per_s": round(steps / seconds, 1) if seconds > 0 else None,
        "games_total": int(_number(_get(runners, NUM_EPISODES_LIFETIME)) or 0),
        "game_length_mean": _number(_get(runners, EPISODE_LEN_MEAN)),
        "return_mean": {str(a): _number(v) for a, v in sorted(per_agent.items())},
        "samples_trained": int(_number(learner.get(NUM_MODULE_STEPS_TRAINED)) or 0),
        "policy_loss": _number(learner.get(POLICY_LOSS_KEY)),
        "vf_loss": _number(learner.get(VF_LOSS_KEY)),
        "entropy": _number(learner.get(ENTROPY_KEY)),
    }


def format_row(row: dict[str, Any], iterations: int) -> str:
    """The log line of one iteration."""
    rets = ", ".join(f"{a} {v:+.3f}" for a, v in row["return_mean"].items() if v is not None) or "no game finished yet"
    return (f"iter {row['iteration']}/{iterations}: {row['env_steps']} env steps "
            f"({row['env_steps_total']} total) at {row['env_steps_per_s']} steps/s; "
            f"{row['games_total']} games; mean return {rets}; entropy {_fmt(row['entropy'])}")


def _fmt(x: float | None) -> str:
    """``0.123`` or ``-``."""
    return "-" if x is None else f"{x:.3f}"


def export_policy(algo, cfg: RLlibConfig, path: str | Path, **meta) -> Path:
    """Save the trained module's network (the learner's weights) as a project policy
    (:func:`electrify_env.agents.net.save_policy`: ``path`` ``.pt`` + ``.meta.json``, algorithm
    ``RLlib PPO``, env id ``electrify_v0``); returns the ``.pt`` path."""
    from electrify_env.envs._common import card_set_and_options

    from electrify_env.agents.net import PolicyValueNet, save_policy

    # the learner holds the trained weights (env runners get them at the next sync)
    state = algo.learner_group.get_state(components=f"learner/rl_module/{MODULE_ID}")
    weights = state["learner"]["rl_module"][MODULE_ID]
    net = PolicyValueNet(cfg.n_players, cfg.hidden, init=False)
    net.load_state_dict({k[len("net."):]: _tensor(v) for k, v in weights.items() if k.startswith("net.")})
    cards, _ = card_set_and_options(None, tuple(cfg.tech_packs))
    return save_policy(net, path, cards.hash, PETTINGZOO_ENV_ID, algorithm=ALGORITHM,
                       n_players=cfg.n_players, tech_packs=list(cfg.tech_packs), **meta)


def _tensor(v):
    """A state-dict value (torch tensor or numpy array) as a torch tensor."""
    import torch

    return v if isinstance(v, torch.Tensor) else torch.as_tensor(v)


def train(cfg: RLlibConfig, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Train ``cfg.iterations`` iterations, save the RLlib checkpoint and export the policy;
    returns ``{"policy", "checkpoint", "curve", "env_steps", "seconds"}``.  Joins the cluster at
    ``cfg.address``, or starts a local Ray (unless this process is connected to one already)."""
    ray = require_ray()
    import torch
    from tqdm import tqdm

    if cfg.torch_threads:
        torch.set_num_threads(cfg.torch_threads)
    out = Path(cfg.output_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise ConfigError(f"output_dir: cannot create the folder {out} ({err.strerror or err})") from None
    started = _start_ray(cfg.address)
    algo = None
    t_start = time.perf_counter()
    curve: list[dict[str, Any]] = []
    try:
        algo = algorithm_config(cfg).build_algo()
        bar = tqdm(total=cfg.iterations, desc="rllib ppo", unit="iter", disable=not cfg.progress_bar)
        say = log or (tqdm.write if cfg.progress_bar else print)
        say(f"RLlib {ray.__version__} PPO on electrify_rllib_v0: {cfg.n_players} players, "
            f"{cfg.num_env_runners} env runners x {cfg.num_envs_per_env_runner} games, "
            f"{cfg.train_batch_size} env steps per iteration, output {out}")
        for it in range(1, cfg.iterations + 1):
            t0 = time.perf_counter()
            result = algo.train()
            row = progress_row(result, it, time.perf_counter() - t0)
            curve.append(row)
            say(format_row(row, cfg.iterations))
            bar.set_postfix(steps_s=row["env_steps_per_s"])
            bar.update(1)
        bar.close()
        seconds = time.perf_counter() - t_start
        checkpoint = algo.save_to_path(str((out / "checkpoint").resolve()))
        env_steps = curve[-1]["env_steps_total"] if curve else 0
        policy = export_policy(algo, cfg, out / "policy.pt", steps=env_steps, env_steps=env_steps,
                               iterations=cfg.iterations, train_seconds=round(seconds, 1),
                               config=cfg.to_dict(), ray_version=ray.__version__,
                               rllib_checkpoint=str(checkpoint), learning_curve=curve)
        (out / "curve.json").write_text(json.dumps(curve, indent=1))
        say(f"wrote {policy} (play it: electrify arena --agents net:path={policy},random "
            f"--players {cfg.n_players} --games {cfg.n_players}) and the checkpoint {checkpoint}")
        return {"policy": policy, "checkpoint": Path(checkpoint), "curve": curve, "env_steps": env_steps,
                "seconds": seconds}
    finally:
        if algo is not None:
            algo.stop()
        if started:
            ray.shutdown()


def measure_throughput(config: str | Path | RLlibConfig | None = None, num_env_runners: int = 1,
                       iterations: int = 3, **overrides) -> dict[str, Any]:
    """RLlib's throughput for a training config with ``num_env_runners`` env runners (0: sampling
    in the driver).

    ``config``: a YAML file (e.g. ``configs/rllib_2p.yaml``), an :class:`RLlibConfig` or None
    (the defaults); ``overrides`` replace fields (``train_batch_size=2000``...).  Builds the
    algorithm, warms up with one iteration (numba and torch load in every runner), then measures

    * ``train_env_steps_per_s``: ``iterations`` full ``Algorithm.train()`` calls (sampling plus
      the PPO update in the driver), env steps sampled per second of wall time: what a training
      run gets;
    * ``sample_env_steps_per_s``: one parallel ``sample()`` on every runner (train_batch_size
      env steps in all, split evenly), env steps per second of wall time: how sampling alone
      scales with the runners.

    Joins the config's ``address`` or starts a local Ray unless one is running (and stops only
    what it started).  Returns ``{"num_env_runners", "train_env_steps_per_s", "train_env_steps",
    "train_seconds", "sample_env_steps_per_s", "sample_env_steps", "sample_seconds",
    "ray_version"}``.
    """
    ray = require_ray()
    if isinstance(config, RLlibConfig):
        fields = {**config.to_dict(), **overrides}
        cfg = RLlibConfig(**{**fields, "num_env_runners": num_env_runners, "progress_bar": False})
    else:
        cfg = load_config(config, RLlibConfig, {**overrides, "num_env_runners": num_env_runners,
                                                "progress_bar": False})
    if iterations < 1:
        raise ConfigError(f"iterations: must be a positive integer, got {iterations!r}")
    started = _start_ray(cfg.address)
    algo = None
    try:
        algo = algorithm_config(cfg).build_algo()
        algo.train()   # warm-up: engine and torch loaded in every runner, weights synced
        t0 = time.perf_counter()
        trained = 0
        for _ in range(iterations):
            trained += int(progress_row(algo.train(), 0, 1.0)["env_steps"])
        train_seconds = time.perf_counter() - t0
        # after the train() calls: a runner reports what it sampled with its next train() result
        share = -(-cfg.train_batch_size // max(1, num_env_runners))
        t0 = time.perf_counter()
        counts = algo.env_runner_group.foreach_env_runner(
            lambda er: sum(e.env_steps() for e in er.sample(num_timesteps=share)),
            local_env_runner=num_env_runners == 0)
        sample_seconds = time.perf_counter() - t0
        sampled = int(sum(counts))
    finally:
        if algo is not None:
            algo.stop()
        if started:
            ray.shutdown()
    return {"num_env_runners": num_env_runners,
            "train_env_steps_per_s": round(trained / train_seconds, 1), "train_env_steps": trained,
            "train_seconds": round(train_seconds, 3),
            "sample_env_steps_per_s": round(sampled / sample_seconds, 1), "sample_env_steps": sampled,
            "sample_seconds": round(sample_seconds, 3), "ray_version": ray.__version__}


def measure_env_steps_per_second(config: str | Path | RLlibConfig | None = None, num_env_runners: int = 1,
                                 iterations: int = 3, **overrides) -> float:
    """RLlib env steps per second of training (sampling plus the PPO update) for ``config`` with
    ``num_env_runners`` env runners: ``measure_throughput(...)["train_env_steps_per_s"]``
    (``benchmarks/ray_scaling.py``)."""
    return measure_throughput(config, num_env_runners, iterations, **overrides)["train_env_steps_per_s"]


def main(argv: list[str] | None = None) -> int:
    """``python -m electrify_env.training.rllib_selfplay CONFIG [--set field=value ...]`` (also ``electrify
    train --backend rllib CONFIG``); returns the exit status (2: a bad config or no Ray)."""
    ap = argparse.ArgumentParser(prog="electrify train --backend rllib", description=__doc__.split("\n")[0])
    ap.add_argument("config", nargs="?", default=None, help="YAML file filling electrify_env.training.config.RLlibConfig")
    ap.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                    help="override a config field (YAML value), e.g. --set iterations=20")
    args = ap.parse_args(argv)
    try:
        cfg = load_config(args.config, RLlibConfig, parse_overrides(args.set))
    except ConfigError as exc:
        ap.error(str(exc))
    try:
        require_ray()
        train(cfg)
    except (RayMissingError, ConfigError) as exc:
        print(f"{ap.prog}: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
