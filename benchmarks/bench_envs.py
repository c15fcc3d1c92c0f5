"""Environment benchmark: prints figures, asserts nothing (machines here are shared and noisy).

    python benchmarks/bench_envs.py [--seconds 3] [--skip-chess]

Figures, measured in one run, side by side:

* turns/s of the PettingZoo AEC envs ``electrify_v0`` (2 and 4 players) and PettingZoo's own
  ``connect_four_v3`` and ``chess_v6``, each built with its ``env()`` (standard wrappers) and
  driven by the same loop as ``pettingzoo.test.performance_benchmark``: ``last()``, a uniformly
  random legal action from ``observation["action_mask"]``, ``step``; reset when the game ends.
  The ratios electrify_v0 / connect_four_v3 are printed;
* steps/s of ``Electrify-Solo-v0`` (``gymnasium.make``: checker, order and illegal-action
  wrappers; and the bare class): a random legal action from ``info["action_mask"]`` each step;
* steps/s of the jitted vector env (solo, first_light) at N = 1, 64 and 1024 on one core
  (``--parallel`` adds numba's threads), random legal actions drawn for all rows by
  ``kernels.batch.sample_legal`` each step (the figure includes that draw; the env-only rate is
  printed beside it).

Targets: electrify_v0 at least as fast as connect_four_v3 (ratio >= 1.0); the solo env
>= 50,000 steps/s; the vector env >= 500,000 steps/s at N = 1024.  PettingZoo's classic envs need
``pip install "pettingzoo[classic]"`` (the ``bench`` extra).
"""
from __future__ import annotations

import argparse
import random
import time

import numba
import numpy as np


def aec_turns_per_second(env, seconds: float, seed: int = 0) -> float:
    """PettingZoo's performance_benchmark loop, timed for ``seconds``: turns per second."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    turns = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for agent in env.agent_iter(env.num_agents):
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            turns += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
        if time.perf_counter() > deadline:
            break
    return turns / (time.perf_counter() - start)


def gym_steps_per_second(env, seconds: float, seed: int = 0) -> float:
    """Steps per second of a single Gymnasium env under random legal actions."""
    rng = random.Random(seed)
    obs, info = env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(1000):
            legal = np.flatnonzero(info["action_mask"])
            obs, reward, term, trunc, info = env.step(legal[rng.randrange(len(legal))])
            if term or trunc:
                obs, info = env.reset()
        steps += 1000
        if time.perf_counter() > deadline:
            break
    return steps / (time.perf_counter() - start)


def time_vector_env(env, seconds: float, seed: int = 0, batch: int = 20) -> tuple[float, float, int]:
    """Step a reset vector ``env`` with uniform random legal actions for ``seconds`` (after
    ``batch`` warm-up steps: compile, thread pool); return (steps/s including the random-action
    draw, steps/s of ``env.step`` alone, episodes finished).  A step is one decision per row."""
    from electrify_env.kernels.batch import sample_legal

    n = env.num_envs
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = np.zeros(n, dtype=np.int64)
    masks_u8 = info["action_mask"].view(np.uint8)   # the live mask buffer
    for _ in range(batch):
        sample_legal(masks_u8, rng.random(n), actions)
        env.step(actions)
    steps = games = 0
    in_env = 0.0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(batch):
            sample_legal(masks_u8, rng.random(n), actions)
            t = time.perf_counter()
            _, _, term, _, _ = env.step(actions)
            in_env += time.perf_counter() - t
            games += int(term.sum())
        steps += batch * n
    total = time.perf_counter() - start
    return steps / total, steps / in_env, games


def vector_steps_per_second(n: int, seconds: float, seed: int = 0, parallel: bool = False) -> tuple[float, float]:
    """(steps/s including the random-action draw, steps/s of env.step alone) of the vector env
    with ``n`` solo games."""
    from electrify_env.envs import ElectrifyVectorEnv

    env = ElectrifyVectorEnv(n, "solo", scenario="first_light", parallel=parallel)
    return time_vector_env(env, seconds, seed)[:2]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0, help="timing per figure")
    ap.add_argument("--skip-chess", action="store_true", help="leave out chess_v6")
    ap.add_argument("--parallel", action="store_true",
                    help="also time the vector env with parallel=True (numba threads)")
    args = ap.parse_args()
    import gymnasium as gym

    from electrify_env.envs import ElectrifySoloEnv, electrify_v0  # registers the Gymnasium ids

    # warm the numba caches outside the timings
    aec_turns_per_second(electrify_v0.env(n_players=2), 0.2)
    gym_steps_per_second(ElectrifySoloEnv(scenario="first_light"), 0.2)

    aec = {}
    for n in (2, 4):
        aec[f"electrify_v0 ({n} players)"] = aec_turns_per_second(electrify_v0.env(n_players=n), args.seconds)
    try:
        from pettingzoo.classic import chess_v6, connect_four_v3
        aec["connect_four_v3"] = aec_turns_per_second(connect_four_v3.env(), args.seconds)
        if not args.skip_chess:
            aec["chess_v6"] = aec_turns_per_second(chess_v6.env(), args.seconds)
    except ImportError as exc:  # pragma: no cover
        print(f"(PettingZoo classic envs unavailable: {exc}; pip install 'pettingzoo[classic]')")
    print("PettingZoo AEC envs, performance_benchmark loop (env() with standard wrappers):")
    for name, v in aec.items():
        print(f"  {name:<28} {v:>12,.0f} turns/s")
    if "connect_four_v3" in aec:
        c4 = aec["connect_four_v3"]
        for n in (2, 4):
            name = f"electrify_v0 ({n} players)"
            print(f"  ratio {name} / connect_four_v3: {aec[name] / c4:.2f}   (target >= 1.0)")
        if "chess_v6" in aec:
            print(f"  ratio electrify_v0 (2 players) / chess_v6: {aec['electrify_v0 (2 players)'] / aec['chess_v6']:.2f}")

    made = gym_steps_per_second(gym.make("Electrify-Solo-v0", scenario="first_light"), args.seconds)
    bare = gym_steps_per_second(ElectrifySoloEnv(scenario="first_light"), args.seconds)
    print("Electrify-Solo-v0 (first_light), random legal actions:")
    print(f"  gymnasium.make (wrapped)     {made:>12,.0f} steps/s   (target >= 50,000)")
    print(f"  ElectrifySoloEnv (bare)      {bare:>12,.0f} steps/s")

    print("ElectrifyVectorEnv (solo, first_light), random legal actions per row, one core:")
    for n in (1, 64, 1024):
        total, env_only = vector_steps_per_second(n, args.seconds)
        target = "   (target >= 500,000)" if n == 1024 else ""
        print(f"  N = {n:<5}                   {total:>12,.0f} steps/s  (env.step alone: {env_only:,.0f}){target}")
    if args.parallel:
        print(f"  parallel=True (numba threads: {numba.get_num_threads()}):")
        for n in (64, 1024):
            total, env_only = vector_steps_per_second(n, args.seconds, parallel=True)
            print(f"  N = {n:<5}                   {total:>12,.0f} steps/s  (env.step alone: {env_only:,.0f})")


if __name__ == "__main__":
    main()
