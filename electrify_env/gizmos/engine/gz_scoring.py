"""Scores and ranks (G20, G21)."""
import numpy as np
from numba import njit

from .gz_energy import pbase, stored
from .gz_layout import (
    P_BUILT, P_BUILT_N, P_TOKENS, S_NPLAYERS, T_EFFECT, T_POINTS, T_UP_SPECIAL, EF_UPGRADE,
    UP_SCORE_STORAGE, UP_SCORE_TOKENS,
)


@njit(cache=True)
def machine_points(S, T, pb, card):
    """Points of built machine ``card``: printed, or for an end-game upgrade the marbles left in
    storage or the token total instead (G20)."""
    if T[T_EFFECT + card] == EF_UPGRADE:
        sp = T[T_UP_SPECIAL + card]
        if sp == UP_SCORE_STORAGE:
            return stored(S, pb)
        if sp == UP_SCORE_TOKENS:
            return S[pb + P_TOKENS]
    return T[T_POINTS + card]


@njit(cache=True)
def score(S, T, p):
    """Victory points of seat ``p``: machines plus tokens (G20)."""
    pb = pbase(p)
    v = S[pb + P_TOKENS]
    for j in range(S[pb + P_BUILT_N]):
        v += machine_points(S, T, pb, S[pb + P_BUILT + j])
    return v


@njit(cache=True)
def ranks(S, T, out):
    """Write each seat's rank (0 = winner) into ``out``: points, then built machines, then
    marbles in storage, then the higher seat (G21); every seat gets its own rank."""
    n = S[S_NPLAYERS]
    keys = np.zeros((n, 4), dtype=np.int64)
    for p in range(n):
        pb = pbase(p)
        keys[p, 0] = score(S, T, p)
        keys[p, 1] = S[pb + P_BUILT_N]
        keys[p, 2] = stored(S, pb)
        keys[p, 3] = p
    for p in range(n):
        r = 0
        for q in range(n):
            if q == p:
                continue
            better = False
            for k in range(4):
                if keys[q, k] != keys[p, k]:
                    better = keys[q, k] > keys[p, k]
                    break
            if better:
                r += 1
        out[p] = r
