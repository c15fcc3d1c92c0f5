"""Setup (G1, G4): decks, the level-III cut, the display, starting machines, the row."""
from numba import njit

from ...common.engine.rng import rng_seed, shuffle_range
from .gz_board import deck_draw, recompute_limits
from .gz_energy import pbase, top_up_row
from .gz_layout import (
    MAX_ARCHIVE, MAX_CARDS, MAX_DECK, MAX_DISPLAY, MAX_RESEARCH, N_COLOURS, N_DECKS, NO_CARD, P_ARCH,
    P_BUILT, P_BUILT_N, PH_MAIN, S_BOX, S_BOX_N, S_CUR, S_DECK, S_DECK_N, S_DISPENSER, S_DISPLAY,
    S_NPLAYERS, S_PAY_LASTO, S_PHASE, S_RES, S_ROUND, S_VERSION, STATE_VERSION, T_DISPLAY,
    T_L3_KEEP, T_LEVEL, T_MARBLES, T_N_CARDS, RNG_SALTS, S_RNG,
)


@njit(cache=True)
def init_state(S, T, n_players, seed):
    """Fill ``S`` with a new game of ``n_players`` from ``seed``: shuffled decks, level-III cards
    cut unseen to the kept number, the display dealt, a starting machine per player (level-0
    cards in id order), base limits, the row drawn blind; seat 0 starts in round 1."""
    S[:] = 0
    S[S_VERSION] = STATE_VERSION
    S[S_NPLAYERS] = n_players
    rng_seed(S, S_RNG, seed, RNG_SALTS)
    for i in range(N_DECKS * MAX_DECK):
        S[S_DECK + i] = NO_CARD
    for i in range(MAX_CARDS):
        S[S_BOX + i] = NO_CARD
    for i in range(MAX_RESEARCH):
        S[S_RES + i] = NO_CARD
    S[S_PAY_LASTO] = -1
    starters = 0
    for card in range(T[T_N_CARDS]):
        lv = T[T_LEVEL + card]
        if lv == 0:
            if starters < n_players:
                pb = pbase(starters)
                S[pb + P_BUILT] = card
                S[pb + P_BUILT_N] = 1
                starters += 1
        else:
            d = lv - 1
            S[S_DECK + d * MAX_DECK + S[S_DECK_N + d]] = card
            S[S_DECK_N + d] += 1
    for d in range(N_DECKS):
        shuffle_range(S, S_RNG, S_DECK + d * MAX_DECK, S[S_DECK_N + d])
    while S[S_DECK_N + 2] > T[T_L3_KEEP]:
        S[S_BOX + S[S_BOX_N]] = deck_draw(S, 2)
        S[S_BOX_N] += 1
    for d in range(N_DECKS):
        for k in range(MAX_DISPLAY):
            S[S_DISPLAY + d * MAX_DISPLAY + k] = deck_draw(S, d) if k < T[T_DISPLAY + d] else NO_CARD
    for p in range(n_players):
        pb = pbase(p)
        for i in range(MAX_ARCHIVE):
            S[pb + P_ARCH + i] = NO_CARD
        recompute_limits(S, T, pb)
    for c in range(N_COLOURS):
        S[S_DISPENSER + c] = T[T_MARBLES + c]
    top_up_row(S, T)
    S[S_ROUND] = 1
    S[S_CUR] = 0
    S[S_PHASE] = PH_MAIN
