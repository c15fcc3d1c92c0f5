"""The ``random`` agent: a uniform choice among the legal actions.  It reads only the mask, so it
plays every registered game (:mod:`electrify_env.games`)."""
from __future__ import annotations

import numpy as np

from .base import Agent, AgentError, SeatView


class RandomAgent(Agent):
    """Uniform over the legal ids of the mask; reads nothing else (so it also works as a plain
    ``(observation, action_mask) -> action`` callable)."""

    name = "random"

    def act(self, view: SeatView) -> int:
        """A uniformly drawn legal action id."""
        legal = np.flatnonzero(view.mask)
        if legal.size == 0:
            raise AgentError("no legal action in the mask")
        return int(legal[self.rng.integers(legal.size)])
