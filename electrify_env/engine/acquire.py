"""Step 2, Acquire (R7), and the free play of an industry breakthrough (R16): choosing a card,
paying for it cube by cube, and placing it."""
from numba import njit

from .cards import hand_remove
from .layout import (
    FACE_BASIC, FR_A, FR_B, FR_C, FT_ACQUIRE, FT_ITEM, FT_PAY, FT_PLACE_SECTOR, FT_PLACE_SLOT,
    MAX_SLOTS, P_DEPOT, P_HAND, P_HAND_N, P_SEC_N, PLACE_BOUGHT, PLACE_FREE, S_BASIC, T_COL_DEPOT,
    T_F_COST, T_F_KIND, T_N_BASIC, KIND_BASIC,
)
from .sectors import has_room, insert_card
from .stack import pop, push, top


@njit(cache=True)
def hand_card_ok(S, T, pb, h, budget):
    """Can hand slot ``h`` be bought / played for at most ``budget``?"""
    return h < S[pb + P_HAND_N] and T[T_F_COST + S[pb + P_HAND + h]] <= budget and has_room(S, pb)


@njit(cache=True)
def basic_face_ok(S, T, pb, bf, budget):
    """Can basic card ``bf // 2`` (face ``bf % 2``) be taken for at most ``budget``?"""
    face = FACE_BASIC + bf
    return (S[S_BASIC + bf // 2] == 1 and T[T_F_KIND + face] == KIND_BASIC
            and T[T_F_COST + face] <= budget and has_room(S, pb))


@njit(cache=True)
def any_card_ok(S, T, pb, budget):
    """Is any hand card or basic face available for at most ``budget``?"""
    if not has_room(S, pb):
        return False
    for h in range(S[pb + P_HAND_N]):
        if T[T_F_COST + S[pb + P_HAND + h]] <= budget:
            return True
    for bf in range(2 * T[T_N_BASIC]):
        if basic_face_ok(S, T, pb, bf, budget):
            return True
    return False


@njit(cache=True)
def take_card(S, T, pb, is_basic, idx):
    """Action (in FT_ACQUIRE or FT_CARD_CHOICE): take hand slot ``idx`` or basic face ``idx``.
    A bought card is paid cube by cube before it is placed; a free one is placed at once."""
    mode = PLACE_BOUGHT if S[top(S)] == FT_ACQUIRE else PLACE_FREE
    pop(S)
    if is_basic:
        S[S_BASIC + idx // 2] = 0
        face = FACE_BASIC + idx
    else:
        face = hand_remove(S, pb, idx)
    push(S, FT_PLACE_SECTOR, face, mode, 0, 0)
    cost = T[T_F_COST + face]
    if mode == PLACE_BOUGHT and cost > 0:
        push(S, FT_PAY, face, cost, 0, 0)


@njit(cache=True)
def pay_cube(S, T, pb, c):
    """Action: pay one depot cube of column ``c`` towards the card (no change is given)."""
    t = top(S)
    S[pb + P_DEPOT + c] -= 1
    S[t + FR_B] -= T[T_COL_DEPOT + c]
    if S[t + FR_B] <= 0:
        pop(S)


@njit(cache=True)
def place_sector(S, pb, s):
    """Action: the card goes on sector ``s``; an empty sector takes it at the top at once."""
    t = top(S)
    face = S[t + FR_A]
    mode = S[t + FR_B]
    pop(S)
    if S[pb + P_SEC_N + s] == 0:
        finish_place(S, pb, face, mode, s, 0)
    else:
        push(S, FT_PLACE_SLOT, face, mode, s, 0)


@njit(cache=True)
def place_slot(S, pb, k):
    """Action: insert the card at slot ``k`` of the chosen sector."""
    t = top(S)
    face = S[t + FR_A]
    mode = S[t + FR_B]
    s = S[t + FR_C]
    pop(S)
    finish_place(S, pb, face, mode, s, k)


@njit(cache=True)
def finish_place(S, pb, face, mode, s, k):
    """Insert the card; a free card may then use its icons at once (no charge, R16)."""
    insert_card(S, pb, s, k, face)
    if mode == PLACE_FREE:
        push(S, FT_ITEM, face, s, 0, 0)


@njit(cache=True)
def slot_ok(S, pb, k):
    """Is slot ``k`` a legal insertion point on the pending sector (no gaps)?"""
    s = S[top(S) + FR_C]
    return k <= S[pb + P_SEC_N + s] and k < MAX_SLOTS
