"""Training throughput, end to end (env steps plus network updates), side by side in one run.

    python benchmarks/train_throughput.py [--steps 100000] [--sb3-steps 40000] [--threads 1,2]

Prints, on this machine, in one run (figures only, no assertion: machines here are shared):

1. sb3-contrib ``MaskablePPO`` on ``Electrify-Solo-v0`` (first_light) through the jitted vector
   env (``configs/ppo_solo.yaml``: 16 envs x 256 steps, 10 epochs, minibatch 512, the project's
   shared-layer extractor), for ``--sb3-steps`` decisions;
2. electrify's own trainer (:mod:`electrify_env.training.selfplay`, ``configs/electrify-solo-from-2p.yaml`` network and
   update) on the same task, for ``--steps`` decisions;
3. the same trainer on 2-player self-play in the league (greedy, snapshots and the learner in
   the other seats; ``configs/electrify-2p-from-scratch.yaml``): env steps (every seat's decisions) and learner
   decisions per second.

Each figure is (decisions stepped) / (wall seconds of collecting + updating), after one warm-up
update (numba compilation excluded).  The ratio of (2) over (1) is printed.  Each line is measured
with 1 and with 2 torch threads (``--threads``; the machine has 2 cores).
"""
from __future__ import annotations

import argparse
import time



def sb3_rate(steps: int, threads: int = 1) -> float:
    """MaskablePPO decisions per second on solo first_light (configs/ppo_solo.yaml)."""
    import torch
    from sb3_contrib import MaskablePPO

    from electrify_env.envs.sb3 import ElectrifySB3VecEnv
    from electrify_env.training.config import PPOSoloConfig, load_config
    from electrify_env.training.ppo import policy_kwargs

    torch.set_num_threads(threads)
    cfg = load_config("configs/ppo_solo.yaml", PPOSoloConfig)
    venv = ElectrifySB3VecEnv(num_envs=cfg.n_envs, mode="solo", scenario="first_light",
                              reward_mode=cfg.reward_mode)
    model = MaskablePPO("MlpPolicy", venv, learning_rate=cfg.learning_rate, n_steps=cfg.n_steps,
                        batch_size=cfg.batch_size, n_epochs=cfg.n_epochs, gamma=cfg.gamma,
                        policy_kwargs=policy_kwargs(cfg), seed=0, device="cpu", verbose=0)
    model.learn(total_timesteps=cfg.n_steps * cfg.n_envs)            # warm-up: one update
    t = time.perf_counter()
    model.learn(total_timesteps=steps, reset_num_timesteps=False)
    return steps / (time.perf_counter() - t)


def own_rate(n_players: int, steps: int, overrides: dict) -> tuple[float, float]:
    """(env steps/s, learner decisions/s) of electrify_env.training.selfplay on ``configs/electrify-{solo-from-2p,2p-from-scratch}.yaml``."""
    from electrify_env.training.config import TrainConfig, load_config
    from electrify_env.training.selfplay import Trainer

    path = "configs/electrify-solo-from-2p.yaml" if n_players == 1 else "configs/electrify-2p-from-scratch.yaml"
    cfg = load_config(path, TrainConfig, {"bc_steps": 0, "tensorboard": False, "progress_bar": False,
                                          "output_dir": "/tmp/electrify_bench_train", **overrides})
    tr = Trainer(cfg, log=lambda *a: None)
    tr.start_games()
    if n_players > 1:
        tr.league.add(tr.net, 0, cfg.max_snapshots)
    tr.collect()
    tr.update()                                                     # warm-up: compile, first update
    env0, done = tr.env_steps, 0
    t = time.perf_counter()
    while done < steps:
        done += tr.collect()
        tr.update()
    dt = time.perf_counter() - t
    return (tr.env_steps - env0) / dt, done / dt


def main(argv=None) -> int:
    """Run the measurements for each torch thread count and print them with the ratios."""
    import torch

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=100_000, help="decisions for electrify's trainer")
    ap.add_argument("--sb3-steps", type=int, default=40_000, help="decisions for MaskablePPO")
    ap.add_argument("--threads", default="1,2", help="torch thread counts to measure, comma-separated")
    args = ap.parse_args(argv)
    for threads in [int(t) for t in args.threads.split(",") if t.strip()]:
        torch.set_num_threads(threads)
        print(f"-- torch threads: {threads}")
        sb3 = sb3_rate(args.sb3_steps, threads)
        print(f"MaskablePPO (sb3-contrib), solo first_light:        {sb3:9,.0f} decisions/s (= env steps/s)")
        solo_env, _ = own_rate(1, args.steps, {"scenario": "first_light", "torch_threads": threads})
        print(f"electrify trainer, solo first_light:                {solo_env:9,.0f} decisions/s (= env steps/s)")
        print(f"ratio electrify / MaskablePPO on the same task:     {solo_env / sb3:9.1f} x")
        env2, dec2 = own_rate(2, args.steps, {"torch_threads": threads})
        print(f"electrify trainer, 2-player league self-play:       {env2:9,.0f} env steps/s "
              f"({dec2:,.0f} learner decisions/s)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
