"""Hands, decks and discard piles (R11 draws, R13 discards, R15 deck rebuilds)."""
from numba import njit

from ..common.engine.rng import shuffle_range
from .layout import (
    MAX_DECK, MAX_HAND, N_COLS, NO_CARD, P_DEPOT, P_HAND, P_HAND_N, S_DECK, S_DECK_N, S_DISC, S_DISC_N,
    T_COL_DEPOT, T_IND_DECK, S_RNG,
)


@njit(cache=True)
def hand_insert(S, pb, card):
    """Add ``card`` to the hand, keeping it ascending (hand slots are canonical)."""
    n = S[pb + P_HAND_N]
    k = n
    while k > 0 and S[pb + P_HAND + k - 1] > card:
        S[pb + P_HAND + k] = S[pb + P_HAND + k - 1]
        k -= 1
    S[pb + P_HAND + k] = card
    S[pb + P_HAND_N] = n + 1


@njit(cache=True)
def hand_remove(S, pb, slot):
    """Remove and return the card in hand slot ``slot``."""
    n = S[pb + P_HAND_N]
    card = S[pb + P_HAND + slot]
    for k in range(slot, n - 1):
        S[pb + P_HAND + k] = S[pb + P_HAND + k + 1]
    S[pb + P_HAND + n - 1] = NO_CARD
    S[pb + P_HAND_N] = n - 1
    return card


@njit(cache=True)
def to_discard(S, T, card):
    """Put an industry card on its deck's discard pile."""
    d = T[T_IND_DECK + card]
    n = S[S_DISC_N + d]
    S[S_DISC + d * MAX_DECK + n] = card
    S[S_DISC_N + d] = n + 1


@njit(cache=True)
def draw(S, pb, d):
    """Draw the top card of deck ``d`` into the hand.  A full hand (9) draws nothing and the card
    stays in the deck (R11); an empty deck is rebuilt from its shuffled discard pile, and with
    both empty the draw is lost (R15).  Returns the card or -1."""
    if S[pb + P_HAND_N] >= MAX_HAND:
        return -1
    if S[S_DECK_N + d] == 0:
        nd = S[S_DISC_N + d]
        if nd == 0:
            return -1
        for i in range(nd):
            S[S_DECK + d * MAX_DECK + i] = S[S_DISC + d * MAX_DECK + i]
            S[S_DISC + d * MAX_DECK + i] = NO_CARD
        S[S_DISC_N + d] = 0
        S[S_DECK_N + d] = nd
        shuffle_range(S, S_RNG, S_DECK + d * MAX_DECK, nd)
    n = S[S_DECK_N + d] - 1
    card = S[S_DECK + d * MAX_DECK + n]
    S[S_DECK + d * MAX_DECK + n] = NO_CARD
    S[S_DECK_N + d] = n
    hand_insert(S, pb, card)
    return card


@njit(cache=True)
def depot_value(S, T, pb):
    """Total purchase value of the player's depot cubes."""
    v = 0
    for c in range(N_COLS):
        v += S[pb + P_DEPOT + c] * T[T_COL_DEPOT + c]
    return v
