"""The pending-decision stack: frames of FRAME ints in ``S[S_STACK:]`` (see layout.FT_*)."""
from numba import njit

from .layout import FRAME, MAX_STACK, P_SIZE, S_CUR, S_PLAYERS, S_SP, S_STACK


@njit(cache=True)
def pbase(p):
    """Offset of player ``p``'s block in the state."""
    return S_PLAYERS + p * P_SIZE


@njit(cache=True)
def cur_base(S):
    """Offset of the block of the player whose decision is pending."""
    return S_PLAYERS + S[S_CUR] * P_SIZE


@njit(cache=True)
def top(S):
    """Offset of the top frame (the pending decision); -1 when the stack is empty."""
    sp = S[S_SP]
    if sp == 0:
        return -1
    return S_STACK + (sp - 1) * FRAME


@njit(cache=True)
def push(S, ftype, a, b, c, d):
    """Push a frame ``[ftype, a, b, c, d, 0, 0, 0]``; return its offset."""
    sp = S[S_SP]
    if sp >= MAX_STACK:
        raise RuntimeError("electrify engine: decision stack overflow")
    off = S_STACK + sp * FRAME
    S[off] = ftype
    S[off + 1] = a
    S[off + 2] = b
    S[off + 3] = c
    S[off + 4] = d
    for i in range(5, FRAME):
        S[off + i] = 0
    S[S_SP] = sp + 1
    return off


@njit(cache=True)
def pop(S):
    """Drop the top frame."""
    sp = S[S_SP] - 1
    off = S_STACK + sp * FRAME
    for i in range(FRAME):
        S[off + i] = 0
    S[S_SP] = sp
