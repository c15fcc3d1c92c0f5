"""Information sets for search agents that never cheat.

``scrub(S, T, p, out)`` copies the state as seat ``p`` may know it: other players' hand contents,
the decks' contents and order, other players' secret plan choices and the generator state are
wiped (sizes stay).  ``determinize(P, T, p, seed, out)`` fills a scrubbed state with one sample of
the hidden information that agrees with everything seat ``p`` knows: the cards it has not seen
(not in its hand, on any sector, in a discard pile, in the basic supply or in a pending frame)
are dealt at random to the decks (each deck gets cards of its kind, sizes kept) and to the other
players' hands (sizes kept); plan choices already dialled by others are sampled; the generator
is reseeded.  A search that only ever sees ``scrub``'s output cannot read hidden information.
"""
import numpy as np
from numba import njit

from ..common.engine.rng import rng_below, rng_seed
from .layout import (
    FACE_BASIC, FR_A, FRAME, FT_PAY, FT_PLACE_SECTOR, FT_PLACE_SLOT, MAX_DECK, MAX_HAND,
    MAX_SLOTS, N_SECTORS, NO_CARD, P_HAND, P_HAND_N, P_PLAN, P_SEC_CARD, P_SEC_N,
    S_DECK, S_DECK_N, S_DISC, S_DISC_N, S_NPLAYERS, S_OPTIONS, S_RNG, S_SP, S_STACK, T_IND_DECK,
    T_IND_PACK, T_N_IND, RNG_SALTS,
)
from .stack import pbase


@njit(cache=True)
def scrub(S, T, p, out):
    """Write into ``out`` the state as seat ``p`` may know it (hidden parts wiped)."""
    out[:] = S
    n = S[S_NPLAYERS]
    for q in range(n):
        if q == p:
            continue
        pb = pbase(q)
        for h in range(MAX_HAND):
            if out[pb + P_HAND + h] != NO_CARD:
                out[pb + P_HAND + h] = -2  # a card is there, which one is hidden
        if out[pb + P_PLAN] >= 0:
            out[pb + P_PLAN] = -2          # dialled, but secret
    for d in range(2):
        for i in range(MAX_DECK):
            if out[S_DECK + d * MAX_DECK + i] != NO_CARD:
                out[S_DECK + d * MAX_DECK + i] = -2
    for i in range(4):
        out[S_RNG + i] = 0


@njit(cache=True)
def _known_cards(P, T, p):
    """1 for every industry card seat ``p`` can locate (own hand, sectors, discards, frames)."""
    known = np.zeros(T[T_N_IND], dtype=np.int64)
    n = P[S_NPLAYERS]
    pb = pbase(p)
    for h in range(P[pb + P_HAND_N]):
        known[P[pb + P_HAND + h]] = 1
    for q in range(n):
        qb = pbase(q)
        for s in range(N_SECTORS):
            for k in range(P[qb + P_SEC_N + s]):
                face = P[qb + P_SEC_CARD + s * MAX_SLOTS + k]
                if face < FACE_BASIC:
                    known[face] = 1
    for d in range(2):
        for i in range(P[S_DISC_N + d]):
            known[P[S_DISC + d * MAX_DECK + i]] = 1
    for i in range(P[S_SP]):
        f = S_STACK + i * FRAME
        if P[f] == FT_PLACE_SECTOR or P[f] == FT_PLACE_SLOT or P[f] == FT_PAY:
            face = P[f + FR_A]
            if face < FACE_BASIC:
                known[face] = 1
    return known


@njit(cache=True)
def determinize(P, T, p, seed, out):
    """Fill the scrubbed state ``P`` (from ``scrub``) with one random sample of the hidden
    information consistent with seat ``p``'s knowledge; write it to ``out``."""
    out[:] = P
    rng_seed(out, S_RNG, seed, RNG_SALTS)
    known = _known_cards(P, T, p)
    unknown = np.zeros(T[T_N_IND], dtype=np.int64)
    nu = 0
    for c in range(T[T_N_IND]):
        pack = T[T_IND_PACK + c]
        in_game = pack == 0 or (P[S_OPTIONS] >> pack) & 1
        if in_game and known[c] == 0:
            unknown[nu] = c
            nu += 1
    # shuffle the unknown cards
    for i in range(nu - 1, 0, -1):
        j = rng_below(out, S_RNG, i + 1)
        tmp = unknown[i]
        unknown[i] = unknown[j]
        unknown[j] = tmp
    used = np.zeros(nu, dtype=np.int64)
    # decks first: each takes cards of its own kind
    for d in range(2):
        need = P[S_DECK_N + d]
        i = 0
        for k in range(nu):
            if i >= need:
                break
            if used[k] == 0 and T[T_IND_DECK + unknown[k]] == d:
                out[S_DECK + d * MAX_DECK + i] = unknown[k]
                used[k] = 1
                i += 1
    # the rest go to the other players' hands (kept ascending)
    k = 0
    for q in range(P[S_NPLAYERS]):
        if q == p:
            continue
        qb = pbase(q)
        hn = P[qb + P_HAND_N]
        for h in range(hn):
            while k < nu and used[k]:
                k += 1
            out[qb + P_HAND + h] = unknown[k]
            used[k] = 1
        for a in range(1, hn):
            v = out[qb + P_HAND + a]
            b = a - 1
            while b >= 0 and out[qb + P_HAND + b] > v:
                out[qb + P_HAND + b + 1] = out[qb + P_HAND + b]
                b -= 1
            out[qb + P_HAND + b + 1] = v
        # a secret plan already dialled: sample one
        if P[qb + P_PLAN] == -2:
            out[qb + P_PLAN] = rng_below(out, S_RNG, N_SECTORS)
    return 0
