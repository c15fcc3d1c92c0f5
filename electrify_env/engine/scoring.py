"""Game end (R18): scores, tie-breaks and winners."""
import numpy as np
from numba import njit

from .layout import (
    N_COLS, P_DEPOT, P_GRID, P_RESEARCH, P_SCORE, S_NPLAYERS, T_COL_DEPOT,
)
from .research import covered_count
from .stack import pbase


@njit(cache=True)
def cube_value(S, T, pb):
    """Purchase value of all cubes left in depots and grid (a grid cube at its column's value)."""
    v = 0
    for c in range(N_COLS):
        v += (S[pb + P_DEPOT + c] + S[pb + P_GRID + c]) * T[T_COL_DEPOT + c]
    return v


@njit(cache=True)
def rank_keys(S, T):
    """Per player (score, breakthrough spaces covered, marker, cube value): compared in that
    order, the largest key wins; equal keys share the win."""
    n = S[S_NPLAYERS]
    keys = np.zeros((n, 4), dtype=np.int64)
    for p in range(n):
        pb = pbase(p)
        keys[p, 0] = S[pb + P_SCORE]
        keys[p, 1] = covered_count(S, pb)
        keys[p, 2] = S[pb + P_RESEARCH]
        keys[p, 3] = cube_value(S, T, pb)
    return keys


@njit(cache=True)
def winners_mask(S, T):
    """1 for every player whose tie-break key is the best (a shared win keeps several)."""
    keys = rank_keys(S, T)
    n = keys.shape[0]
    win = np.ones(n, dtype=np.int64)
    for p in range(n):
        for q in range(n):
            better = False
            for j in range(4):
                if keys[q, j] != keys[p, j]:
                    better = keys[q, j] > keys[p, j]
                    break
            if better:
                win[p] = 0
    return win
