"""Events trigger machines (G13, G15): a triggered machine not used this turn waits."""
from numba import njit

from .gz_layout import (
    COL_ANY, P_BUILT, P_BUILT_N, P_USED, P_WAIT, SRC_ARCHIVE, T_COLOUR, T_LEVEL, T_TRIG,
    T_TRIG_MASK, T_TYPE, TR_ARCHIVE, TR_COLOURS, TR_LEVEL2, TY_BUILD, TY_FILE, TY_PICK,
)


@njit(cache=True)
def _wait(S, pb, j):
    if S[pb + P_USED + j] == 0:
        S[pb + P_WAIT + j] = 1


@njit(cache=True)
def trigger_file(S, T, pb):
    """A File happened: every file machine waits (G6)."""
    for j in range(S[pb + P_BUILT_N]):
        if T[T_TYPE + S[pb + P_BUILT + j]] == TY_FILE:
            _wait(S, pb, j)


@njit(cache=True)
def trigger_pick(S, T, pb, c):
    """A Pick took a marble of colour ``c``: pick machines of that colour wait (G7)."""
    for j in range(S[pb + P_BUILT_N]):
        card = S[pb + P_BUILT + j]
        if T[T_TYPE + card] == TY_PICK and (T[T_TRIG_MASK + card] >> c) & 1:
            _wait(S, pb, j)


@njit(cache=True)
def build_condition(T, machine, built, src):
    """Build machine ``machine`` fires on the build of card ``built`` from source ``src`` (G8;
    a card of colour "any" meets every colour condition)."""
    tr = T[T_TRIG + machine]
    if tr == TR_COLOURS:
        col = T[T_COLOUR + built]
        return col == COL_ANY or (col < 4 and (T[T_TRIG_MASK + machine] >> col) & 1 == 1)
    if tr == TR_LEVEL2:
        return T[T_LEVEL + built] == 2
    if tr == TR_ARCHIVE:
        return src == SRC_ARCHIVE
    return False


@njit(cache=True)
def trigger_build(S, T, pb, built_j, src):
    """Machine ``built_j`` was just built from ``src``: build machines whose condition it meets
    wait, never the new machine itself (G15)."""
    built = S[pb + P_BUILT + built_j]
    for j in range(S[pb + P_BUILT_N]):
        if j == built_j:
            continue
        card = S[pb + P_BUILT + j]
        if T[T_TYPE + card] == TY_BUILD and build_condition(T, card, built, src):
            _wait(S, pb, j)
