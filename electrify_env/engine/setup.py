"""Setup: a new game state from a seed (rulebook Setup, R2, R25)."""
import numpy as np
from numba import njit

from ..common.engine.rng import rng_below, rng_seed, shuffle_range
from .cards import draw
from .layout import (
    MAX_BASIC, MAX_DECK, MAX_HAND, N_LEVELS, N_SECTORS, NO_CARD, P_CHOSEN, P_DEPOT, P_HAND,
    P_PLAN, P_SEC_CARD, P_SEC_COL, S_BASIC, S_DECK, S_DECK_N, S_DEMAND, S_DISC, S_NPLAYERS,
    S_OPTIONS, S_SIZE, S_VERSION, START_FOSSIL, START_HAND_EACH, STATE_VERSION, T_D_LEVEL,
    T_IND_DECK, T_IND_PACK, T_N_BASIC, T_N_DEMAND, T_N_IND, MAX_SLOTS, RNG_SALTS, S_RNG,
)
from .stack import pbase
from .turn import start_plan


@njit(cache=True)
def init_state(S, T, n_players, seed, options):
    """Fill ``S`` (length S_SIZE) with a new game.  ``options`` bit k (k >= 1) shuffles the
    cards of tech pack k into the decks.  Sector order is random and shared by all players;
    decks are shuffled; one demand card of each level is dealt; each player gets 6 fossil
    cubes and 3 production + 3 infrastructure cards."""
    S[:] = 0
    S[S_VERSION] = STATE_VERSION
    S[S_NPLAYERS] = n_players
    S[S_OPTIONS] = options
    rng_seed(S, S_RNG, seed, RNG_SALTS)
    for i in range(2 * MAX_DECK):
        S[S_DECK + i] = NO_CARD
        S[S_DISC + i] = NO_CARD
    for c in range(T[T_N_IND]):
        pack = T[T_IND_PACK + c]
        if pack == 0 or (options >> pack) & 1:
            d = T[T_IND_DECK + c]
            S[S_DECK + d * MAX_DECK + S[S_DECK_N + d]] = c
            S[S_DECK_N + d] += 1
    for d in range(2):
        shuffle_range(S, S_RNG, S_DECK + d * MAX_DECK, S[S_DECK_N + d])
    for b in range(MAX_BASIC):
        S[S_BASIC + b] = 1 if b < T[T_N_BASIC] else 0
    for lv in range(N_LEVELS):
        cnt = 0
        for d in range(T[T_N_DEMAND]):
            if T[T_D_LEVEL + d] == lv:
                cnt += 1
        pick = rng_below(S, S_RNG, cnt)
        for d in range(T[T_N_DEMAND]):
            if T[T_D_LEVEL + d] == lv:
                if pick == 0:
                    S[S_DEMAND + lv] = d
                pick -= 1
    order = np.arange(N_SECTORS)
    for i in range(N_SECTORS - 1, 0, -1):
        j = rng_below(S, S_RNG, i + 1)
        tmp = order[i]
        order[i] = order[j]
        order[j] = tmp
    for p in range(n_players):
        pb = pbase(p)
        S[pb + P_DEPOT + 0] = START_FOSSIL
        S[pb + P_PLAN] = -1
        S[pb + P_CHOSEN] = -1
        for k in range(MAX_HAND):
            S[pb + P_HAND + k] = NO_CARD
        for k in range(N_SECTORS * MAX_SLOTS):
            S[pb + P_SEC_CARD + k] = NO_CARD
        for i in range(N_SECTORS):
            S[pb + P_SEC_COL + order[i]] = i
        for d in range(2):
            for _ in range(START_HAND_EACH):
                draw(S, pb, d)
    start_plan(S)


def new_state():
    """An empty state buffer."""
    return np.zeros(S_SIZE, dtype=np.int64)
