"""What one seat may know at its pending decision, for any game: the :class:`SeatView` every
agent is asked with (:mod:`electrify_env.agent` for Electrify, a game's ``Game.seat_view`` for the
others).  Game-independent: it imports only numpy."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["SeatView"]


@dataclass(frozen=True)
class SeatView:
    """Everything one seat may know at its pending decision.

    Attributes:
        seat: the seat that decides.
        n_players: players in the game (1 in solo play).
        mask: uint8 legal-action mask, length ``N_ACTIONS`` of the game.
        observation: float32 observation of the seat (``Game.observe``), or None if not built.
        infoset: the scrubbed engine state of the seat (int64, the game's ``S_SIZE``), or None if
            not built.  Hidden entries hold -2 (a card is there, unknown) and the generator
            words are 0.
        table: the card table of the game's card set (read-only int64 array).
        card_set_hash: the card set's hash (for policy compatibility checks).
        decision: the number of decisions made so far in the game (a per-move seed component).
    """

    seat: int
    n_players: int
    mask: np.ndarray
    observation: np.ndarray | None
    infoset: np.ndarray | None
    table: np.ndarray
    card_set_hash: str
    decision: int

    @property
    def legal_actions(self) -> np.ndarray:
        """The legal action ids, ascending."""
        return np.flatnonzero(self.mask)
