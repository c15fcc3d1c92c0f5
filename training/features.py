"""Policy network parts for the Electrify observation (PyTorch, Stable-Baselines3)."""
from __future__ import annotations

import gymnasium as gym
import torch as th
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from electrify_env.engine.observe import OBS_SIZE, obs_size


class ElectrifyExtractor(BaseFeaturesExtractor):
    """A shared first layer over the part of the observation a game can fill.

    The observation has room for four seats; in a game of ``n_players`` the blocks of the absent
    seats are always zero (``electrify_env.engine.observe.obs_size``).  This extractor reads
    only the first ``obs_size(n_players)`` entries (in solo play about a third of the vector),
    then one ``Linear`` + ReLU layer of ``features_dim`` units shared by the policy and value
    heads, which keeps the widest matrix small and the update fast on CPUs.

    Args:
        observation_space: the env's ``Box(0, 1, (OBS_SIZE,))``.
        n_players: players of the games trained on (1 for solo).
        features_dim: units of the shared layer.
    """

    def __init__(self, observation_space: gym.spaces.Box, n_players: int = 1, features_dim: int = 256) -> None:
        super().__init__(observation_space, features_dim)
        if observation_space.shape != (OBS_SIZE,):
            raise ValueError(f"expected an observation of {OBS_SIZE} entries, got {observation_space.shape}")
        if not 1 <= n_players <= 4:
            raise ValueError(f"n_players must be 1-4, got {n_players}")
        self.n_inputs = obs_size(n_players)
        self.net = nn.Sequential(nn.Linear(self.n_inputs, features_dim), nn.ReLU())

    def forward(self, observations: th.Tensor) -> th.Tensor:
        """(batch, OBS_SIZE) -> (batch, features_dim)."""
        return self.net(observations[:, :self.n_inputs])
