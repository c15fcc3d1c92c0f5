"""Train sb3-contrib's MaskablePPO on one seat of ``Electrify-v0`` against random opponents.

    python -m electrify_env.training.train_seat --config configs/ppo_seat.yaml [--set n_players=3 ...]

The learning curve reports the agent's mean energy points and win rate over fixed evaluation
games; the final comparison puts the random agent in the same seat(s) on the same seeds.  Outputs
as ``electrify_env.training.train_solo`` (policy.zip, policy.meta.json, curve.json).  The loop itself is
:func:`electrify_env.training.ppo.train`.
"""
from __future__ import annotations

import sys

from .config import PPOSeatConfig
from .ppo import main as _main
from .ppo import train

__all__ = ["main", "train"]


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    return _main(argv, PPOSeatConfig, "python -m electrify_env.training.train_seat", __doc__.splitlines()[0])


if __name__ == "__main__":
    sys.exit(main())
