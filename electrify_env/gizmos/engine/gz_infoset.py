"""Information sets of Gizmos (G25), for agents and searches that never cheat.

``scrub(S, T, p, out)`` copies the state as seat ``p`` may know it: every deck card wiped to -2
(a card is there, which one is hidden) except those ``p`` put under the deck itself and still
knows the place of (``S_DECK_KNOWN``), the cards removed from the game wiped, the cards drawn by
another seat's Research wiped, and the generator words zeroed; every count stays, and so does who
knows which deck place (that follows from the public Researches).

``determinize(P, T, p, seed, out)`` fills a scrubbed state ``P`` with one sample of the hidden
cards that agrees with everything seat ``p`` knows: the cards ``p`` cannot see (not on a
dashboard, in an archive, on the display, at a deck place it knows, among its own researched
cards or being paid for) are shuffled and dealt to the hidden places, each deck place and each
researched card getting a card of its deck's level, the removed cards getting the rest; the
generator is seeded afresh from ``seed``.  A search that sees only ``scrub``'s output and plays
``determinize``'s samples cannot read hidden information.
"""
import numpy as np
from numba import njit

from ...common.engine.rng import rng_below, rng_seed
from .gz_layout import (
    MAX_CARDS, MAX_DECK, MAX_DISPLAY, MAX_RESEARCH, N_DECKS, N_LEVELS, NO_CARD, P_ARCH, P_ARCH_N,
    P_BUILT, P_BUILT_N, PH_PAY, S_BOX, S_BOX_N, S_CUR, S_DECK, S_DECK_KNOWN, S_DISPLAY, S_NPLAYERS,
    S_PAY_CARD, S_PAY_SRC, S_PHASE, S_RES, S_RES_DECK, S_RNG, SRC_RESEARCH, T_LEVEL, T_N_CARDS,
    RNG_SALTS,
)
from .gz_energy import pbase

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


@njit(cache=True)
def _mark(seen, c):
    if c >= 0:
        seen[c] = 1


@njit(cache=True)
def seen_cards(P, T):
    """1 for every card whose place the information set ``P`` shows (dashboards, archives, the
    display, deck places and researched cards not hidden, the researched card being paid for)."""
    seen = np.zeros(MAX_CARDS, dtype=np.int64)
    for q in range(P[S_NPLAYERS]):
        qb = pbase(q)
        for j in range(P[qb + P_BUILT_N]):
            _mark(seen, P[qb + P_BUILT + j])
        for j in range(P[qb + P_ARCH_N]):
            _mark(seen, P[qb + P_ARCH + j])
    for i in range(N_DECKS * MAX_DISPLAY):
        _mark(seen, P[S_DISPLAY + i])
    for i in range(N_DECKS * MAX_DECK):
        _mark(seen, P[S_DECK + i])
    for i in range(MAX_RESEARCH):
        _mark(seen, P[S_RES + i])
    for i in range(P[S_BOX_N]):
        _mark(seen, P[S_BOX + i])
    if P[S_PHASE] == PH_PAY and P[S_PAY_SRC] == SRC_RESEARCH:
        _mark(seen, P[S_PAY_CARD])
    return seen


@njit(cache=True)
def determinize(P, T, p, seed, out):
    """Fill the information set ``P`` (from :func:`scrub` for seat ``p``) with one random sample
    of its hidden cards and write the full state to ``out`` (generator seeded from ``seed``).
    Returns 0, or -1 when ``P`` is not an information set of a game with this card table (the
    unseen cards do not fit its hidden places)."""
    out[:] = P
    rng_seed(out, S_RNG, seed, RNG_SALTS)
    seen = seen_cards(P, T)
    pool = np.empty((N_LEVELS, MAX_CARDS), dtype=np.int64)
    n = np.zeros(N_LEVELS, dtype=np.int64)
    for c in range(T[T_N_CARDS]):
        if seen[c] == 0:
            lv = T[T_LEVEL + c]
            pool[lv, n[lv]] = c
            n[lv] += 1
    for lv in range(N_LEVELS):                   # shuffle each level's unseen cards
        for i in range(n[lv] - 1, 0, -1):
            j = rng_below(out, S_RNG, i + 1)
            tmp = pool[lv, i]
            pool[lv, i] = pool[lv, j]
            pool[lv, j] = tmp
    used = np.zeros(N_LEVELS, dtype=np.int64)
    for d in range(N_DECKS):                     # deck places: cards of the deck's level
        lv = d + 1
        for i in range(MAX_DECK):
            k = S_DECK + d * MAX_DECK + i
            if P[k] == HIDDEN:
                if used[lv] >= n[lv]:
                    return -1
                out[k] = pool[lv, used[lv]]
                used[lv] += 1
    lv = P[S_RES_DECK] + 1                       # another seat's researched cards
    for i in range(MAX_RESEARCH):
        if P[S_RES + i] == HIDDEN:
            if lv < 1 or lv >= N_LEVELS or used[lv] >= n[lv]:
                return -1
            out[S_RES + i] = pool[lv, used[lv]]
            used[lv] += 1
    for i in range(MAX_CARDS):                   # the removed cards: every unseen card left
        if P[S_BOX + i] == HIDDEN:
            lv = 1
            while lv < N_LEVELS and used[lv] >= n[lv]:
                lv += 1
            if lv == N_LEVELS:                   # starting cards a position left off a dashboard
                lv = 0
                if used[0] >= n[0]:
                    return -1
            out[S_BOX + i] = pool[lv, used[lv]]
            used[lv] += 1
    for lv in range(1, N_LEVELS):
        if used[lv] != n[lv]:                    # an unseen card of a deck's level has no place
            return -1
    return 0
