"""Step 3, Charge (R8): the chosen sector, its cards, and chains of arrows."""
from numba import njit

from .layout import (
    ARROW_DOWN, ARROW_LEFT, ARROW_UP, MAX_SLOTS, N_SECTORS, P_CARD_CHARGED, P_CHOSEN, P_SEC_CARD,
    P_SEC_CHARGED, P_SEC_COL, P_SEC_N, T_F_ARROWS,
)
from .sectors import left_sector
from .stack import pop


@njit(cache=True)
def charge_board(S, T, pb):
    """Place charge cubes: the chosen sector tile, every card on it, then every card indicated
    by a charged card's arrow, repeatedly.  Arrows point only left, so one pass over the sectors
    from right to left reaches the fixed point.  A card holds at most one charge."""
    s0 = S[pb + P_CHOSEN]
    S[pb + P_SEC_CHARGED + s0] = 1
    for k in range(S[pb + P_SEC_N + s0]):
        S[pb + P_CARD_CHARGED + s0 * MAX_SLOTS + k] = 1
    for col in range(6, -1, -1):
        s = -1
        for t in range(N_SECTORS):
            if S[pb + P_SEC_COL + t] == col:
                s = t
        if s < 0:
            continue
        tgt = left_sector(S, pb, s)
        if tgt < 0:
            continue
        nt = S[pb + P_SEC_N + tgt]
        for k in range(S[pb + P_SEC_N + s]):
            if S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k] == 0:
                continue
            arrows = T[T_F_ARROWS + S[pb + P_SEC_CARD + s * MAX_SLOTS + k]]
            if arrows & ARROW_LEFT and k < nt:
                S[pb + P_CARD_CHARGED + tgt * MAX_SLOTS + k] = 1
            if arrows & ARROW_UP and 0 <= k - 1 < nt:
                S[pb + P_CARD_CHARGED + tgt * MAX_SLOTS + k - 1] = 1
            if arrows & ARROW_DOWN and k + 1 < nt:
                S[pb + P_CARD_CHARGED + tgt * MAX_SLOTS + k + 1] = 1


@njit(cache=True)
def do_charge(S, T, pb):
    """Automatic frame FT_CHARGE."""
    pop(S)
    charge_board(S, T, pb)
