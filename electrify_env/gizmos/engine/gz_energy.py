"""Marbles (G1, G10): the dispenser, the Energy Row, storage, blind draws and returns."""
from numba import njit

from ...common.engine.rng import rng_below
from .gz_layout import (
    N_COLOURS, P_LIM_STORE, P_STORE, S_DISPENSER, S_PLAYERS, P_SIZE, S_ROW, T_ROW_SIZE, S_RNG,
)


@njit(cache=True)
def pbase(p):
    """Offset of player ``p``'s block in the state."""
    return S_PLAYERS + p * P_SIZE


@njit(cache=True)
def stored(S, pb):
    """Marbles in the storage of the player at block ``pb``."""
    n = 0
    for c in range(N_COLOURS):
        n += S[pb + P_STORE + c]
    return n


@njit(cache=True)
def storage_room(S, pb):
    """Marbles the storage can still take (G10)."""
    r = S[pb + P_LIM_STORE] - stored(S, pb)
    return r if r > 0 else 0


@njit(cache=True)
def dispenser_n(S):
    """Marbles in the dispenser."""
    n = 0
    for c in range(N_COLOURS):
        n += S[S_DISPENSER + c]
    return n


@njit(cache=True)
def row_n(S):
    """Marbles in the Energy Row."""
    n = 0
    for c in range(N_COLOURS):
        n += S[S_ROW + c]
    return n


@njit(cache=True)
def blind_colour(S):
    """Take one uniformly random marble out of the dispenser (G1); its colour, -1 if empty."""
    n = dispenser_n(S)
    if n == 0:
        return -1
    k = rng_below(S, S_RNG, n)
    for c in range(N_COLOURS):
        if k < S[S_DISPENSER + c]:
            S[S_DISPENSER + c] -= 1
            return c
        k -= S[S_DISPENSER + c]
    return -1


@njit(cache=True)
def top_up_row(S, T):
    """Refill the row by blind draws up to its size, as far as the dispenser allows (G1)."""
    while row_n(S) < T[T_ROW_SIZE]:
        c = blind_colour(S)
        if c < 0:
            return
        S[S_ROW + c] += 1


@njit(cache=True)
def draw_blind(S, pb, n):
    """Draw up to ``n`` marbles blind into storage; stops when storage is full or the dispenser
    is empty (G1, G10).  Returns the number drawn."""
    got = 0
    for _ in range(n):
        if storage_room(S, pb) <= 0:
            break
        c = blind_colour(S)
        if c < 0:
            break
        S[pb + P_STORE + c] += 1
        got += 1
    return got


@njit(cache=True)
def take_from_row(S, T, pb, c):
    """Move one marble of colour ``c`` from the row into storage and top the row up (G7)."""
    S[S_ROW + c] -= 1
    S[pb + P_STORE + c] += 1
    top_up_row(S, T)


@njit(cache=True)
def pick_ok(S, pb, c):
    """A Pick of colour ``c`` is legal: room in storage and a marble of ``c`` in the row (G7)."""
    return storage_room(S, pb) > 0 and S[S_ROW + c] > 0


@njit(cache=True)
def any_pick_ok(S, pb):
    """Some Pick is legal (G16: a Pick effect with storage full or the row empty is not offered)."""
    return storage_room(S, pb) > 0 and row_n(S) > 0
