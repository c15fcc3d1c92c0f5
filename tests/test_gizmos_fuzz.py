"""Random Gizmos games, 2-4 players, many seeds: marbles and cards are conserved at every
decision, the mask is never empty, and every game ends (G20 or the round cap, G22)."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.gizmos import Game
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.engine.gz_energy import pbase


def _marbles(g: Game) -> list[int]:
    S = g.state
    return [int(S[L.S_DISPENSER + c] + S[L.S_ROW + c] + sum(S[pbase(p) + L.P_STORE + c] for p in range(g.n_players)))
            for c in range(4)]


def _cards(g: Game) -> int:
    S = g.state
    n = int(S[L.S_DECK_N:L.S_DECK_N + 3].sum() + S[L.S_BOX_N] + S[L.S_RES_N])
    n += int((S[L.S_DISPLAY:L.S_DISPLAY + 3 * L.MAX_DISPLAY] >= 0).sum())
    for p in range(g.n_players):
        n += int(S[pbase(p) + L.P_BUILT_N] + S[pbase(p) + L.P_ARCH_N])
    if S[L.S_PHASE] == L.PH_PAY and S[L.S_PAY_SRC] == L.SRC_RESEARCH:
        n += 1                                    # the researched card being paid for
    return n


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_random_games_conserve_marbles_and_cards_and_end(n_players):
    rng = np.random.default_rng(n_players)
    for seed in range(8):
        g = Game(n_players, seed=seed)
        start = 4 - n_players                      # starting cards not dealt stay out of the count
        total = g.cards.n_cards - start
        while not g.done:
            assert _marbles(g) == [13, 13, 13, 13]
            assert _cards(g) == total
            la = g.legal_actions()
            assert len(la) >= 1
            g.step(int(rng.choice(la)))
        assert g.round <= 100
        assert sorted(g.ranks().tolist()) == list(range(n_players))
