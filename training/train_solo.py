"""Train sb3-contrib's MaskablePPO on ``Electrify-Solo-v0``.

    python -m electrify_env.training.train_solo --config configs/ppo_solo.yaml [--set total_timesteps=50000 ...]

Prints a learning curve (mean final score -- energy points + star points -- over fixed
evaluation games vs training steps), then compares the trained policy with the random agent on
the same games, and writes ``<output_dir>/policy.zip``, ``policy.meta.json``
(electrify_env.agents.policy_meta: layout versions, card-set hash, env id, scenario, steps, config,
curve) and ``curve.json``.  The loop itself is :func:`electrify_env.training.ppo.train`.
"""
from __future__ import annotations

import sys

from .config import PPOSoloConfig
from .ppo import main as _main
from .ppo import train

__all__ = ["main", "train"]


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    return _main(argv, PPOSoloConfig, "python -m electrify_env.training.train_solo", __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
