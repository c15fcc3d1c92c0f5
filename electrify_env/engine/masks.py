"""Legal-action mask (R24).  ``step`` accepts exactly the ids this mask holds: both are built
from the same legality predicates of the phase modules."""
from numba import njit

from .acquire import basic_face_ok, hand_card_ok, slot_ok
from .cards import depot_value
from .discharge import icon_action, icon_ok, use_ok
from .fulfill import demand_ok, reorder_ok, reward_ok
from .layout import (
    A_BOOST, A_BT, A_CARD_BASIC, A_CARD_HAND, A_DEVELOP, A_DIS_CARD, A_DIS_SECTOR, A_DISCARD,
    A_DISCARD_MULT, A_DONATE, A_FLIP, A_ONGOING, A_SOLO_SWAP, FT_DISCARD_PAY, FT_ONGOING,
    FT_SOLO_SWAP, SOLO_PAIRS_I, A_FULFILL, A_ICON, A_INVEST, A_PASS, A_PAY, A_PLACE_SECTOR, A_PLACE_SLOT,
    A_PLAN, A_PLAN_MOVE, A_PRODUCE, A_REORDER, A_RESEARCH, A_REWARD, A_TRANSMIT, ACT_DEVELOP,
    ACT_INVEST, ACT_PLAN, ACT_PRODUCE, ACT_RESEARCH, ACT_TRANSMIT, FR_A, FT_ACQUIRE, FT_BOOST,
    FT_BT_PICK, FT_CARD_CHOICE, FT_DISCHARGE, FT_FLIP, FT_FULFILL, FT_ICON, FT_ITEM, FT_PAY,
    FT_PLACE_SECTOR, FT_PLACE_SLOT, FT_PLAN, FT_REORDER, FT_REWARD, BOOST_INNOVATION, MAX_HAND,
    MAX_ICONS, MAX_REWARDS, MAX_SLOTS, N_BT_SPACES, N_COLS, N_DECKS, N_LEVELS, N_SECTORS,
    P_BT, P_CARD_CHARGED, P_DEPOT, P_GRID, P_HAND_N, P_SEC_CHARGED, P_SEC_N, P_SEC_SIDE,
    S_TERMINAL, T_N_BASIC,
)
from .sectors import sector_has_room
from .stack import cur_base, top
from .turn import innovation_possible


@njit(cache=True)
def fill_mask(S, T, mask):
    """Write 1 at every legal action id of the pending decision into ``mask`` (uint8, length
    N_ACTIONS), 0 elsewhere; return the number of legal ids (0 only when the game is over)."""
    mask[:] = 0
    if S[S_TERMINAL]:
        return 0
    pb = cur_base(S)
    t = top(S)
    ft = S[t]
    n = 0
    if ft == FT_PLAN:
        for s in range(N_SECTORS):
            mask[A_PLAN + s] = 1
        n += N_SECTORS
    elif ft == FT_BOOST:
        mask[A_PASS] = 1
        n += 1
        if S[t + FR_A] != BOOST_INNOVATION or innovation_possible(S, pb):
            mask[A_BOOST] = 1
            n += 1
    elif ft == FT_ACQUIRE or ft == FT_CARD_CHOICE:
        mask[A_PASS] = 1
        n += 1
        budget = depot_value(S, T, pb) if ft == FT_ACQUIRE else S[t + FR_A]
        for h in range(MAX_HAND):
            if hand_card_ok(S, T, pb, h, budget):
                mask[A_CARD_HAND + h] = 1
                n += 1
        for bf in range(2 * T[T_N_BASIC]):
            if basic_face_ok(S, T, pb, bf, budget):
                mask[A_CARD_BASIC + bf] = 1
                n += 1
    elif ft == FT_PAY:
        for c in range(N_COLS):
            if S[pb + P_DEPOT + c] > 0:
                mask[A_PAY + c] = 1
                n += 1
    elif ft == FT_PLACE_SECTOR:
        for s in range(N_SECTORS):
            if sector_has_room(S, pb, s):
                mask[A_PLACE_SECTOR + s] = 1
                n += 1
    elif ft == FT_PLACE_SLOT:
        for k in range(MAX_SLOTS):
            if slot_ok(S, pb, k):
                mask[A_PLACE_SLOT + k] = 1
                n += 1
    elif ft == FT_DISCHARGE:
        for s in range(N_SECTORS):
            if S[pb + P_SEC_CHARGED + s]:
                mask[A_DIS_SECTOR + s] = 1
                n += 1
            for k in range(S[pb + P_SEC_N + s]):
                if S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k]:
                    mask[A_DIS_CARD + s * MAX_SLOTS + k] = 1
                    n += 1
    elif ft == FT_ITEM:
        mask[A_PASS] = 1
        n += 1
        for i in range(MAX_ICONS):
            if icon_ok(S, T, pb, i):
                mask[A_ICON + i] = 1
                n += 1
    elif ft == FT_ICON:
        mask[A_PASS] = 1
        n += 1
        act = icon_action(S, T)
        if act == ACT_PRODUCE:
            for c in range(N_COLS):
                if use_ok(S, T, pb, ACT_PRODUCE, c):
                    mask[A_PRODUCE + c] = 1
                    n += 1
        elif act == ACT_DEVELOP:
            for c in range(N_COLS):
                if use_ok(S, T, pb, ACT_DEVELOP, c):
                    mask[A_DEVELOP + c] = 1
                    n += 1
        elif act == ACT_TRANSMIT:
            for c in range(N_COLS):
                if use_ok(S, T, pb, ACT_TRANSMIT, c):
                    mask[A_TRANSMIT + c] = 1
                    n += 1
        elif act == ACT_RESEARCH:
            mask[A_RESEARCH] = 1
            n += 1
        elif act == ACT_INVEST:
            for d in range(N_DECKS):
                mask[A_INVEST + d] = 1
            n += N_DECKS
        elif act == ACT_PLAN:
            for x in range(N_SECTORS * N_COLS):
                if use_ok(S, T, pb, ACT_PLAN, x):
                    mask[A_PLAN_MOVE + x] = 1
                    n += 1
    elif ft == FT_BT_PICK:
        for k in range(N_BT_SPACES):
            if S[pb + P_BT + k] == 0:
                mask[A_BT + k] = 1
                n += 1
    elif ft == FT_FULFILL:
        mask[A_PASS] = 1
        n += 1
        for lv in range(N_LEVELS):
            if demand_ok(S, T, pb, lv):
                mask[A_FULFILL + lv] = 1
                n += 1
    elif ft == FT_REWARD:
        mask[A_PASS] = 1
        n += 1
        for r in range(MAX_REWARDS):
            if reward_ok(S, T, r):
                mask[A_REWARD + r] = 1
                n += 1
    elif ft == FT_FLIP:
        mask[A_PASS] = 1
        n += 1
        for s in range(N_SECTORS):
            if S[pb + P_SEC_SIDE + s] == 0:
                mask[A_FLIP + s] = 1
                n += 1
    elif ft == FT_REORDER:
        for k in range(MAX_SLOTS):
            if reorder_ok(S, pb, k):
                mask[A_REORDER + k] = 1
                n += 1
    elif ft == FT_SOLO_SWAP:
        mask[A_PASS] = 1
        for k in range(len(SOLO_PAIRS_I)):
            mask[A_SOLO_SWAP + k] = 1
        n += 1 + len(SOLO_PAIRS_I)
    elif ft == FT_DISCARD_PAY:
        mask[A_PASS] = 1
        n += 1
        for h in range(S[pb + P_HAND_N]):
            mask[A_DISCARD_MULT + h] = 1
            n += 1
    elif ft == FT_ONGOING:
        mask[A_PASS] = 1
        mask[A_ONGOING] = 1
        n += 2
    # R13: any time, at every decision
    for h in range(S[pb + P_HAND_N]):
        mask[A_DISCARD + h] = 1
        n += 1
    for c in range(N_COLS):
        if S[pb + P_GRID + c] > 0:
            mask[A_DONATE + c] = 1
            n += 1
    return n
