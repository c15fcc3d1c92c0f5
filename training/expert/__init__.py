"""Expert iteration, the trainer of the policy-value policies: a warm start by imitation, then
rounds of determinized Gumbel-search self-play against a league whose improved policies and
results train the network (:mod:`.trainer`, :mod:`.selfplay`, :mod:`.config`)."""
from .config import ExpertConfig, load_expert_config
from .trainer import main, screen, train

__all__ = ["ExpertConfig", "load_expert_config", "train", "screen", "main"]
