"""Cards on the table: decks, the display, archives and the limits that built upgrades give."""
from numba import njit

from .gz_layout import (
    MAX_DECK, MAX_DISPLAY, N_SPECIALS, NO_CARD, P_ARCH, P_ARCH_N, P_BUILT, P_BUILT_N, P_LIM_ARCH,
    P_LIM_RES, P_LIM_STORE, P_N_L3, P_SPECIAL, S_DECK, S_DECK_KNOWN, S_DECK_N, S_DISPLAY, T_BASE_ARCHIVE,
    T_BASE_RESEARCH, T_BASE_STORAGE, T_DISPLAY, T_LEVEL, T_TYPE, T_UP_ARCHIVE, T_UP_RESEARCH,
    T_UP_SPECIAL, T_UP_STORAGE, TY_UPGRADE, N_DECKS,
)


@njit(cache=True)
def deck_draw(S, d):
    """Take the top card of deck ``d``; NO_CARD if the deck is empty.  Whoever knew the card's
    place in the deck knows it no more (G25)."""
    n = S[S_DECK_N + d]
    if n == 0:
        return NO_CARD
    card = S[S_DECK + d * MAX_DECK + n - 1]
    S[S_DECK + d * MAX_DECK + n - 1] = NO_CARD
    S[S_DECK_KNOWN + d * MAX_DECK + n - 1] = 0
    S[S_DECK_N + d] = n - 1
    return card


@njit(cache=True)
def deck_put_bottom(S, d, card, knowers):
    """Put ``card`` under deck ``d``, known to the seats of the bit set ``knowers`` (G25); the
    cards above move up one place, with what is known about them."""
    n = S[S_DECK_N + d]
    base = S_DECK + d * MAX_DECK
    kb = S_DECK_KNOWN + d * MAX_DECK
    for i in range(n, 0, -1):
        S[base + i] = S[base + i - 1]
        S[kb + i] = S[kb + i - 1]
    S[base] = card
    S[kb] = knowers
    S[S_DECK_N + d] = n + 1


@njit(cache=True)
def refill_slot(S, d, k):
    """Refill display slot ``k`` of level ``d + 1`` from the top of its deck (G6; an empty deck
    leaves the slot empty)."""
    S[S_DISPLAY + d * MAX_DISPLAY + k] = deck_draw(S, d)


@njit(cache=True)
def display_card(S, T, d, k):
    """The card in display slot ``k`` of level ``d + 1``; NO_CARD if empty or beyond the level's
    slots."""
    if k >= T[T_DISPLAY + d]:
        return NO_CARD
    return S[S_DISPLAY + d * MAX_DISPLAY + k]


@njit(cache=True)
def display_any(S, T):
    """Some display slot holds a card."""
    for d in range(N_DECKS):
        for k in range(T[T_DISPLAY + d]):
            if S[S_DISPLAY + d * MAX_DISPLAY + k] != NO_CARD:
                return True
    return False


@njit(cache=True)
def archive_remove(S, pb, i):
    """Take archive card ``i`` out (the later ones move up); return it."""
    n = S[pb + P_ARCH_N]
    card = S[pb + P_ARCH + i]
    for j in range(i, n - 1):
        S[pb + P_ARCH + j] = S[pb + P_ARCH + j + 1]
    S[pb + P_ARCH + n - 1] = NO_CARD
    S[pb + P_ARCH_N] = n - 1
    return card


@njit(cache=True)
def archive_add(S, pb, card):
    """File ``card`` at the end of the archive."""
    n = S[pb + P_ARCH_N]
    S[pb + P_ARCH + n] = card
    S[pb + P_ARCH_N] = n + 1


@njit(cache=True)
def recompute_limits(S, T, pb):
    """Limits, specials and level-III count of the player at ``pb`` from its built machines
    (G3: upgrades add up, with no cap beyond the sum)."""
    st = T[T_BASE_STORAGE]
    ar = T[T_BASE_ARCHIVE]
    rs = T[T_BASE_RESEARCH]
    for u in range(N_SPECIALS):
        S[pb + P_SPECIAL + u] = 0
    n3 = 0
    for j in range(S[pb + P_BUILT_N]):
        card = S[pb + P_BUILT + j]
        if T[T_LEVEL + card] == 3:
            n3 += 1
        if T[T_TYPE + card] == TY_UPGRADE:
            st += T[T_UP_STORAGE + card]
            ar += T[T_UP_ARCHIVE + card]
            rs += T[T_UP_RESEARCH + card]
            S[pb + P_SPECIAL + T[T_UP_SPECIAL + card]] += 1
    S[pb + P_LIM_STORE] = st
    S[pb + P_LIM_ARCH] = ar
    S[pb + P_LIM_RES] = rs
    S[pb + P_N_L3] = n3
