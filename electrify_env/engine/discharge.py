"""Step 4, Discharge (R9-R12): picking charged items, icons, multipliers and each icon use."""
from numba import njit

from .cards import depot_value, draw, hand_remove, to_discard
from .layout import (
    ACT_DEVELOP, ACT_INVEST, ACT_ONGOING, ACT_PLAN, ACT_PRODUCE, ACT_RESEARCH, ACT_TRANSMIT,
    FACE_SECTOR, FR_A, FR_B, FR_C, FR_D, FR_E, FR_F, FR_G, FRAME, FT_DISCARD_PAY, FT_ICON, FT_PAY,
    S_SP, S_STACK, T_COL_DEPOT,
    FT_ITEM, FT_ONGOING, ICON_FOLLOW_UP, MAX_ICONS, MAX_SLOTS, MULT_CLEAN, MULT_DIRTY,
    MULT_DISCARD, MULT_SECTORS, MULT_SIMPLE, N_COLS, N_SECTORS, P_CARD_CHARGED, P_CLEAN, P_DEPOT,
    P_GRID, P_SEC_CARD, P_SEC_CHARGED, P_SEC_COL, P_SEC_N, P_SEC_SIDE, PRODUCE_HERE, T_COL_CLEAN,
    T_COL_DIRTY, T_F_ICON_ACT, T_F_ICON_ARG, T_F_ICON_ARG2, T_F_ICON_MK, T_F_ICON_MV, T_F_NICONS,
)
from .research import research_advance
from .sectors import can_move, move_sector, sectors_right_of
from .stack import pop, push, top


@njit(cache=True)
def any_charged(S, pb):
    """Does the player still hold a charge cube on a sector or card?"""
    for s in range(N_SECTORS):
        if S[pb + P_SEC_CHARGED + s]:
            return True
        for k in range(S[pb + P_SEC_N + s]):
            if S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k]:
                return True
    return False


@njit(cache=True)
def multiplier(S, T, pb, face, i, s):
    """R10: the value of icon ``i`` of ``face`` standing on sector ``s``, read now."""
    mk = T[T_F_ICON_MK + face * MAX_ICONS + i]
    if mk == MULT_SIMPLE:
        return T[T_F_ICON_MV + face * MAX_ICONS + i]
    col = S[pb + P_SEC_COL + s]
    if mk == MULT_CLEAN:
        return T[T_COL_CLEAN + col] + S[pb + P_CLEAN]
    if mk == MULT_DIRTY:
        return T[T_COL_DIRTY + col]
    if mk == MULT_SECTORS:
        return sectors_right_of(S, pb, s)
    return 0


@njit(cache=True)
def discharge_sector(S, pb, s):
    """Action: remove the charge of sector tile ``s`` and start using its icons."""
    S[pb + P_SEC_CHARGED + s] = 0
    push(S, FT_ITEM, FACE_SECTOR + 2 * s + S[pb + P_SEC_SIDE + s], s, 0, 0)


@njit(cache=True)
def discharge_card(S, pb, s, k):
    """Action: remove the charge of the card at sector ``s`` slot ``k`` and start using it."""
    S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k] = 0
    push(S, FT_ITEM, S[pb + P_SEC_CARD + s * MAX_SLOTS + k], s, 0, 0)


@njit(cache=True)
def icon_ok(S, T, pb, i):
    """Can icon ``i`` of the item being discharged be started (unused, multiplier > 0)?"""
    t = top(S)
    face = S[t + FR_A]
    if i >= T[T_F_NICONS + face] or (S[t + FR_C] >> i) & 1:
        return False
    o = face * MAX_ICONS + i
    if T[T_F_ICON_ACT + o] == ACT_ONGOING:
        return False  # R12: an ongoing card does nothing when discharged
    if T[T_F_ICON_MK + o] == MULT_DISCARD:
        return True  # the value is chosen by discarding (zero allowed)
    return multiplier(S, T, pb, face, i, S[t + FR_B]) > 0


@njit(cache=True)
def item_exhausted(S, T):
    """Has every usable icon of the item on top been used (ongoing icons never are)?"""
    t = top(S)
    face = S[t + FR_A]
    n = T[T_F_NICONS + face]
    for i in range(n):
        if not (S[t + FR_C] >> i) & 1 and T[T_F_ICON_ACT + face * MAX_ICONS + i] != ACT_ONGOING:
            return False
    return True


@njit(cache=True)
def start_icon(S, T, pb, i):
    """Action: use icon ``i``: its uses are fixed by the multiplier now (R10)."""
    t = top(S)
    face = S[t + FR_A]
    s = S[t + FR_B]
    S[t + FR_C] |= 1 << i
    if T[T_F_ICON_MK + face * MAX_ICONS + i] == MULT_DISCARD:
        push(S, FT_ICON, face, s, i, 0)
        push(S, FT_DISCARD_PAY, 0, 0, 0, 0)
    else:
        push(S, FT_ICON, face, s, i, multiplier(S, T, pb, face, i, s))


@njit(cache=True)
def discard_for_multiplier(S, T, pb, h):
    """Action (R10 discard multiplier): discard hand slot ``h`` without its bonus; the icon
    below gains one use."""
    card = hand_remove(S, pb, h)
    to_discard(S, T, card)
    S[top(S) - FRAME + FR_D] += 1


@njit(cache=True)
def icon_action(S, T):
    """The action code (ACT_*) of the icon on top (an ongoing follow-up: its right action)."""
    t = top(S)
    c = S[t + FR_C]
    if c >= ICON_FOLLOW_UP:
        return T[T_F_ICON_ARG2 + S[t + FR_A] * MAX_ICONS + c - ICON_FOLLOW_UP]
    return T[T_F_ICON_ACT + S[t + FR_A] * MAX_ICONS + c]


@njit(cache=True)
def produce_column(S, T, pb):
    """The column a produce icon on top fills: printed, or the sector's column for "here"."""
    t = top(S)
    c = S[t + FR_C]
    if c >= ICON_FOLLOW_UP:
        return S[pb + P_SEC_COL + S[t + FR_B]]
    arg = T[T_F_ICON_ARG + S[t + FR_A] * MAX_ICONS + c]
    if arg == PRODUCE_HERE:
        return S[pb + P_SEC_COL + S[t + FR_B]]
    return arg


@njit(cache=True)
def owed_payment(S):
    """Value still owed for a card being bought (an FT_PAY frame on the stack), else 0."""
    for i in range(S[S_SP]):
        f = S_STACK + i * FRAME
        if S[f] == FT_PAY:
            return S[f + FR_B]
    return 0


@njit(cache=True)
def keeps_payment(S, T, pb, delta):
    """R7: a purchase being paid cube by cube is committed.  An icon used in the middle of the
    payment (a free card from a breakthrough reached by an any-time action) may not spend the
    depot cubes the payment still needs: the depot value after a change of ``delta`` must still
    cover what is owed."""
    owed = owed_payment(S)
    return owed <= 0 or depot_value(S, T, pb) + delta >= owed


@njit(cache=True)
def use_ok(S, T, pb, act, arg):
    """Is one use (``act``, ``arg``) of the icon on top legal?  ``act`` is an ACT_* code."""
    if act != icon_action(S, T):
        return False
    if act == ACT_PRODUCE:
        return arg == produce_column(S, T, pb)
    if act == ACT_DEVELOP:
        return (arg < N_COLS - 1 and S[pb + P_DEPOT + arg] > 0
                and keeps_payment(S, T, pb, T[T_COL_DEPOT + arg + 1] - T[T_COL_DEPOT + arg]))
    if act == ACT_TRANSMIT:
        return S[pb + P_DEPOT + arg] > 0 and keeps_payment(S, T, pb, -T[T_COL_DEPOT + arg])
    if act == ACT_RESEARCH or act == ACT_INVEST:
        return True
    if act == ACT_PLAN:
        s = arg // N_COLS
        c = arg % N_COLS
        return s != S[top(S) + FR_B] and c < S[pb + P_SEC_COL + s] and can_move(S, pb, s, c)
    return False


@njit(cache=True)
def use_icon(S, T, pb, act, arg):
    """Action: one use of the icon on top (checked by ``use_ok``)."""
    t = top(S)
    S[t + FR_D] -= 1
    S[t + FR_G] += 1
    if act == ACT_PRODUCE:
        S[pb + P_DEPOT + arg] += 1
    elif act == ACT_DEVELOP:
        S[pb + P_DEPOT + arg] -= 1
        S[pb + P_DEPOT + arg + 1] += 1
    elif act == ACT_TRANSMIT:
        S[pb + P_DEPOT + arg] -= 1
        S[pb + P_GRID + arg] += 1
    elif act == ACT_INVEST:
        S[t + FR_E] |= arg << S[t + FR_F]
        S[t + FR_F] += 1
    elif act == ACT_PLAN:
        move_sector(S, pb, arg // N_COLS, arg % N_COLS)
    elif act == ACT_RESEARCH:
        research_advance(S, pb, 1)


@njit(cache=True)
def end_icon(S, T, pb):
    """The icon on top is finished (stopped or out of uses): make the invest draws chosen for
    it, in the order chosen (R11), then offer the follow-ups of charged ongoing cards whose left
    action it performed (R12), then return to its item.  Follow-up uses trigger no further
    follow-ups."""
    t = top(S)
    act = icon_action(S, T)
    follow_up = S[t + FR_C] >= ICON_FOLLOW_UP
    performed = S[t + FR_G]
    bits = S[t + FR_E]
    n = S[t + FR_F]
    pop(S)
    for j in range(n):
        draw(S, pb, (bits >> j) & 1)
    if follow_up or performed == 0:
        return
    for s in range(N_SECTORS - 1, -1, -1):
        for k in range(S[pb + P_SEC_N + s] - 1, -1, -1):
            if not S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k]:
                continue
            face = S[pb + P_SEC_CARD + s * MAX_SLOTS + k]
            for i in range(T[T_F_NICONS + face]):
                o = face * MAX_ICONS + i
                if T[T_F_ICON_ACT + o] == ACT_ONGOING and T[T_F_ICON_ARG + o] == act:
                    push(S, FT_ONGOING, face, s, i, performed)


@njit(cache=True)
def take_ongoing(S):
    """Action: take the ongoing follow-up on top: its right action up to the same number of
    times as the left action was performed."""
    t = top(S)
    face = S[t + FR_A]
    s = S[t + FR_B]
    i = S[t + FR_C]
    uses = S[t + FR_D]
    pop(S)
    push(S, FT_ICON, face, s, i + ICON_FOLLOW_UP, uses)
