"""Research (G9): draw from a deck, build or file one card, the rest under the deck."""
from numba import njit

from .gz_board import deck_draw, deck_put_bottom
from .gz_build import start_build
from .gz_file import file_card
from .gz_layout import (
    N_DECKS, NO_CARD, P_LIM_RES, P_SPECIAL, PH_CHAIN, PH_RESEARCH, S_CUR, S_DECK_N, S_PHASE, S_RES,
    S_RES_DECK, S_RES_N, SRC_RESEARCH, UP_NO_RESEARCH,
)


@njit(cache=True)
def research_ok(S, pb, d):
    """Researching deck ``d`` is legal: no "no more Research" upgrade and the deck not empty."""
    return S[pb + P_SPECIAL + UP_NO_RESEARCH] == 0 and S[S_DECK_N + d] > 0


@njit(cache=True)
def any_research_ok(S, pb):
    """Some deck can be researched."""
    for d in range(N_DECKS):
        if research_ok(S, pb, d):
            return True
    return False


@njit(cache=True)
def start_research(S, pb, d):
    """Draw min(research limit, deck size) cards from the top of deck ``d`` (G9)."""
    n = S[pb + P_LIM_RES]
    if n > S[S_DECK_N + d]:
        n = S[S_DECK_N + d]
    S[S_RES_DECK] = d
    S[S_RES_N] = n
    for i in range(n):
        S[S_RES + i] = deck_draw(S, d)
    S[S_PHASE] = PH_RESEARCH


@njit(cache=True)
def _return_others(S, keep):
    """Every drawn card but index ``keep`` goes under its deck, in the order drawn (G9); the
    researcher keeps knowing where they lie (G25)."""
    d = S[S_RES_DECK]
    me = 1 << S[S_CUR]
    for i in range(S[S_RES_N]):
        if i != keep:
            deck_put_bottom(S, d, S[S_RES + i], me)
        S[S_RES + i] = NO_CARD
    S[S_RES_N] = 0


@njit(cache=True)
def research_build(S, T, pb, i):
    """Build drawn card ``i`` (research discount, G12); the others go under first."""
    card = S[S_RES + i]
    _return_others(S, i)
    start_build(S, T, pb, card, SRC_RESEARCH, -1)


@njit(cache=True)
def research_file(S, T, pb, i):
    """File drawn card ``i``; the others go under first; a File for the file machines."""
    card = S[S_RES + i]
    _return_others(S, i)
    file_card(S, T, pb, card)
    S[S_PHASE] = PH_CHAIN


@njit(cache=True)
def research_none(S):
    """Take neither: every drawn card goes under its deck."""
    _return_others(S, -1)
    S[S_PHASE] = PH_CHAIN
