"""The ``ppo`` agent: a saved MaskablePPO policy (sb3-contrib) played from the observation and
the legal-action mask.

A policy file ``x.zip`` must have the sidecar ``x.meta.json`` written by
:func:`electrify_env.policy_meta.save_policy_metadata`.  Loading checks it against this engine
(observation layout version and size, action count; :func:`~electrify_env.policy_meta.check_compatible`)
and refuses, with a message naming every difference, a policy saved for another layout; the card
set is checked against the game's the first time the agent acts in a game of that card set.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from electrify_env.engine import layout as L
from electrify_env.engine.observe import OBS_SIZE
from electrify_env.policy_meta import (
    PolicyMismatchError, check_compatible, load_policy_metadata, policy_metadata,
    save_policy_metadata,
)

from .base import Agent, AgentError, SeatView


def save_policy(model, path: str | Path, card_set_hash: str, env_id: str, **extra) -> Path:
    """Save a MaskablePPO ``model`` to ``path`` (``.zip``) with its metadata sidecar; return the
    sidecar's path.  ``extra`` fields (players, scenario, training steps...) go into the sidecar."""
    path = Path(path)
    if path.suffix != ".zip":
        raise AgentError(f"a policy path must end in .zip, got {path}")
    model.save(str(path))
    return save_policy_metadata(path, policy_metadata(card_set_hash, env_id, **extra))


class PPOAgent(Agent):
    """Plays a saved MaskablePPO policy.

    Args:
        path: the policy ``.zip`` (with its ``.meta.json`` sidecar).
        deterministic: play the most likely legal action (default) instead of sampling one.

    Raises:
        AgentError: no path, or the file does not exist.
        PolicyMismatchError: the sidecar is missing, or the policy was saved for another
            observation layout, action space or (when acting) card set.
    """

    name = "ppo"
    needs_observation = True

    def __init__(self, path: str = "", deterministic: bool = True) -> None:
        super().__init__()
        if not path:
            raise AgentError("agent 'ppo' needs a policy file: ppo:path=FILE.zip")
        p = Path(path)
        if not p.exists():
            raise AgentError(f"agent 'ppo': policy file {p} does not exist")
        self.meta = load_policy_metadata(p)
        check_compatible(self.meta, where=f"policy {p}")
        from sb3_contrib import MaskablePPO  # heavy import, only when a ppo agent is built

        self.model = MaskablePPO.load(str(p), device="cpu")
        obs_shape = tuple(self.model.observation_space.shape or ())
        n_act = getattr(self.model.action_space, "n", None)
        if obs_shape != (OBS_SIZE,) or n_act != L.N_ACTIONS:
            raise PolicyMismatchError(
                f"policy {p} has observation shape {obs_shape} and {n_act} actions; this engine "
                f"has ({OBS_SIZE},) and {L.N_ACTIONS}")
        self.path = p
        self.deterministic = bool(deterministic)
        self._checked_hashes: set[str] = set()

    def reset(self, seed: int = 0) -> None:
        """Reseed; a sampling policy also reseeds torch (the policy samples with torch)."""
        super().reset(seed)
        if not self.deterministic:
            import torch

            torch.manual_seed(int(seed) % (1 << 63))

    def act(self, view: SeatView) -> int:
        """The policy's action for the seat's observation, restricted to the legal mask."""
        self._need(view)
        h = view.card_set_hash
        if h and h not in self._checked_hashes:
            check_compatible(self.meta, card_set_hash=h, where=f"policy {self.path}")
            self._checked_hashes.add(h)
        action, _ = self.model.predict(view.observation, action_masks=view.mask.astype(bool),
                                       deterministic=self.deterministic)
        a = int(np.asarray(action).reshape(-1)[0])
        if not view.mask[a]:  # a masked policy never does this; keep the game legal regardless
            raise AgentError(f"policy {self.path} chose illegal action {a}")
        return a
