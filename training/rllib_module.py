"""The RLlib module (torch, new API stack) of :mod:`electrify_env.training.rllib_selfplay`: a
:class:`electrify_env.agents.net.PolicyValueNet` inside an RLlib ``TorchRLModule``, so that the trained
weights are a project policy (:func:`electrify_env.agents.net.save_policy` writes them as they are).

It reads the observations of :mod:`electrify_env.envs.rllib` (``{"observations": float32
(OBS_SIZE,), "action_mask": int8 (N_ACTIONS,)}``): logits masked by the network itself (illegal
ids at ``electrify_env.agents.net.MASKED_LOGIT``, so a sampled action is always legal) and values through
RLlib's ``ValueFunctionAPI`` (PPO's GAE and value loss).  ``model_config``: ``n_players`` (2-4)
and ``hidden`` (the trunk's layer sizes).

Needs Ray RLlib (``pip install -e ".[ray]"``).
"""
from __future__ import annotations

from typing import Any

try:
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis import ValueFunctionAPI
    from ray.rllib.core.rl_module.torch import TorchRLModule
except ImportError as err:  # pragma: no cover - the default venv has no Ray
    raise ImportError('electrify_env.training.rllib_module needs Ray RLlib: pip install -e ".[ray]"') from err

import torch

from electrify_env.envs.rllib import MASK_KEY, OBS_KEY

from electrify_env.agents.net import PolicyValueNet

DEFAULT_HIDDEN = (256, 128)


class ElectrifyRLModule(TorchRLModule, ValueFunctionAPI):
    """A :class:`~electrify_env.agents.net.PolicyValueNet` (``self.net``) as an RLlib module.

    ``model_config``: ``n_players`` (the network reads ``obs_size(n_players)`` entries of the
    observation) and ``hidden`` (default ``[256, 128]``).  Forward passes return
    ``action_dist_inputs``: the policy head's logits with every illegal id at ``MASKED_LOGIT``
    (RLlib's default categorical distribution then never samples one); the training pass also
    returns the trunk output as ``embeddings``, which :meth:`compute_values` reuses.
    """

    def setup(self) -> None:
        """Build the network from ``model_config``."""
        cfg = self.model_config if isinstance(self.model_config, dict) else {}
        self.net = PolicyValueNet(int(cfg.get("n_players", 2)), list(cfg.get("hidden", DEFAULT_HIDDEN)))

    @staticmethod
    def _inputs(batch: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
        """(observations as float32, legal mask as bool) of a batch."""
        obs = batch[Columns.OBS]
        return obs[OBS_KEY].to(torch.float32), obs[MASK_KEY] != 0

    def _forward(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        """Masked logits (inference and exploration)."""
        x, mask = self._inputs(batch)
        return {Columns.ACTION_DIST_INPUTS: self.net.masked_logits(self.net.embed(x), mask)}

    def _forward_train(self, batch: dict[str, Any], **kwargs) -> dict[str, Any]:
        """Masked logits and the trunk output (``embeddings``, for :meth:`compute_values`)."""
        x, mask = self._inputs(batch)
        h = self.net.embed(x)
        return {Columns.ACTION_DIST_INPUTS: self.net.masked_logits(h, mask), Columns.EMBEDDINGS: h}

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """Values (B,) of the batch's observations (from ``embeddings`` when given)."""
        if embeddings is None:
            embeddings = self.net.embed(self._inputs(batch)[0])
        return self.net.value(embeddings)
