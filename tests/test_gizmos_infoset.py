"""The Gizmos information set (G25): the seat view, the scrubbed state and its samples, and an
attacker that reads every output a seat can reach."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.gizmos import Game
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.seatview import SeatView
from electrify_env.validation import InvalidArgumentError


def test_seat_view_holds_the_mask_the_scrubbed_state_and_the_card_set():
    g = Game(3, seed=5)
    for _ in range(2):
        g.step(int(g.legal_actions()[-1]))
    v = g.seat_view(observation=False)
    assert isinstance(v, SeatView) and v.seat == g.current_player and v.n_players == 3
    assert np.array_equal(v.mask, g.legal_mask()) and v.mask is not g.legal_mask()
    assert v.observation is None and v.table is g.cards.table and v.card_set_hash == g.cards.hash
    assert v.decision == len(g.history) == 2
    assert v.infoset.dtype == np.int64 and len(v.infoset) == L.S_SIZE
    assert (v.infoset[L.S_RNG:L.S_RNG + 4] == 0).all()
    assert np.array_equal(v.legal_actions, g.legal_actions())
    assert g.seat_view(observation=False, infoset=False).infoset is None


def test_seat_view_refuses_a_seat_off_turn_and_a_finished_game():
    g = Game(2, seed=1)
    with pytest.raises(InvalidArgumentError, match="seat 1 is not on turn"):
        g.seat_view(1, observation=False)
    with pytest.raises(InvalidArgumentError, match="seat must be 0..1"):
        g.infoset(2)
    with pytest.raises(InvalidArgumentError, match="seat must be 0..1"):
        g.observe(-1)
    while not g.done:
        g.step(int(g.legal_actions()[0]))
    with pytest.raises(InvalidArgumentError, match="the game is over"):
        g.seat_view(observation=False)
