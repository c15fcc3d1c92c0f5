"""Information sets of Gizmos (G25), for agents and searches that never cheat.

``scrub(S, T, p, out)`` copies the state as seat ``p`` may know it: every deck card wiped to -2
(a card is there, which one is hidden) except those ``p`` put under the deck itself and still
knows the place of, the cards removed from the game wiped, the cards drawn by another seat's
Research wiped, and the generator words zeroed; every count stays.
"""
from numba import njit

from .gz_layout import (
    MAX_CARDS, MAX_DECK, MAX_RESEARCH, N_DECKS, NO_CARD, S_BOX, S_CUR, S_DECK, S_DECK_KNOWN, S_RES, S_RNG,
)

HIDDEN = -2            # a card is there; which one is hidden from the seat


@njit(cache=True)
def scrub(S, T, p, out):
    """Write into ``out`` the state ``S`` as seat ``p`` may know it (G25): hidden cards become
    ``HIDDEN`` (-2), the generator words 0; sizes and every public entry are copied."""
    out[:] = S
    for i in range(N_DECKS * MAX_DECK):
        if out[S_DECK + i] != NO_CARD and (S[S_DECK_KNOWN + i] >> p) & 1 == 0:
            out[S_DECK + i] = HIDDEN
    for i in range(MAX_CARDS):
        if out[S_BOX + i] != NO_CARD:
            out[S_BOX + i] = HIDDEN
    if S[S_CUR] != p:
        for i in range(MAX_RESEARCH):
            if out[S_RES + i] != NO_CARD:
                out[S_RES + i] = HIDDEN
    for i in range(4):
        out[S_RNG + i] = 0
