"""Sector tiles on a player's board: columns, bumping (R5), the nearest sector to the left (R8)
and card insertion (R7)."""
from numba import njit

from .layout import (
    FR_C, FRAME, FT_PLACE_SECTOR, FT_PLACE_SLOT, MAX_SLOTS, N_COLS, N_SECTORS, NO_CARD,
    P_CARD_CHARGED, P_SEC_CARD, P_SEC_COL, P_SEC_N, S_SP, S_STACK,
)


@njit(cache=True)
def sector_at(S, pb, col):
    """The sector standing in column ``col`` of the player at ``pb``, or -1."""
    for s in range(N_SECTORS):
        if S[pb + P_SEC_COL + s] == col:
            return s
    return -1


@njit(cache=True)
def can_move(S, pb, s, target):
    """R5: can sector ``s`` move to column ``target``, pushing occupants right, without any
    sector passing column 6?  The moving sector's own column counts as free."""
    if target < 0 or target >= N_COLS:
        return False
    c = target
    while True:
        o = sector_at(S, pb, c)
        if o < 0 or o == s:
            return True
        c += 1
        if c >= N_COLS:
            return False


@njit(cache=True)
def move_sector(S, pb, s, target):
    """Move sector ``s`` to column ``target`` with bumping (R5).  Call ``can_move`` first."""
    S[pb + P_SEC_COL + s] = -1
    moving = s
    c = target
    while True:
        o = sector_at(S, pb, c)
        S[pb + P_SEC_COL + moving] = c
        if o < 0:
            return
        moving = o
        c += 1


@njit(cache=True)
def left_sector(S, pb, s):
    """R8: the nearest sector to the left of ``s`` in column order (gaps ignored), or -1."""
    col = S[pb + P_SEC_COL + s]
    best = -1
    best_col = -1
    for t in range(N_SECTORS):
        c = S[pb + P_SEC_COL + t]
        if c < col and c > best_col:
            best = t
            best_col = c
    return best


@njit(cache=True)
def sectors_right_of(S, pb, s):
    """Number of sector tiles in columns to the right of ``s`` (tech-pack sectors multiplier)."""
    col = S[pb + P_SEC_COL + s]
    n = 0
    for t in range(N_SECTORS):
        if S[pb + P_SEC_COL + t] > col:
            n += 1
    return n


@njit(cache=True)
def pending_placements(S, s):
    """Cards taken but not yet placed, waiting in frames of the decision stack (a bought card
    still being paid or placed, when an any-time action leads to an industry breakthrough):
    all of them for ``s < 0``, else those already bound to sector ``s`` (FT_PLACE_SLOT)."""
    n = 0
    for i in range(S[S_SP]):
        f = S_STACK + i * FRAME
        if S[f] == FT_PLACE_SLOT and (s < 0 or S[f + FR_C] == s):
            n += 1
        elif S[f] == FT_PLACE_SECTOR and s < 0:
            n += 1
    return n


@njit(cache=True)
def sector_has_room(S, pb, s):
    """R7: can sector ``s`` take the card being placed, keeping the slots of the cards already
    bound to it?"""
    return S[pb + P_SEC_N + s] + pending_placements(S, s) < MAX_SLOTS


@njit(cache=True)
def has_room(S, pb):
    """R7/R19: is there a free slot for one more card, beyond the slots that the cards still
    waiting to be placed need?"""
    free = 0
    for s in range(N_SECTORS):
        free += MAX_SLOTS - S[pb + P_SEC_N + s]
    return free > pending_placements(S, -1)


@njit(cache=True)
def insert_card(S, pb, s, slot, face):
    """R7: insert ``face`` on sector ``s`` at ``slot`` (0 = top), nudging lower cards down.
    The new card is uncharged; charges of nudged cards move with them."""
    n = S[pb + P_SEC_N + s]
    base = pb + P_SEC_CARD + s * MAX_SLOTS
    cbase = pb + P_CARD_CHARGED + s * MAX_SLOTS
    for k in range(n, slot, -1):
        S[base + k] = S[base + k - 1]
        S[cbase + k] = S[cbase + k - 1]
    S[base + slot] = face
    S[cbase + slot] = 0
    S[pb + P_SEC_N + s] = n + 1


@njit(cache=True)
def clear_slot_tail(S, pb, s):
    """Mark the slots below the last card of sector ``s`` empty."""
    n = S[pb + P_SEC_N + s]
    for k in range(n, MAX_SLOTS):
        S[pb + P_SEC_CARD + s * MAX_SLOTS + k] = NO_CARD
        S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k] = 0
