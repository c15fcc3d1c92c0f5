"""The dispatcher: routes an action id to its phase (one handler per range), then runs the
automatic frames until the next real decision."""
import numpy as np
from numba import njit

from .acquire import any_card_ok, finish_place, pay_cube, place_sector, place_slot, take_card
from .cards import hand_remove, to_discard
from .charge import do_charge
from .discharge import (
    any_charged, discard_for_multiplier, discharge_card, discharge_sector, end_icon,
    item_exhausted, start_icon, take_ongoing, use_icon,
)
from .fulfill import any_side_a, flip, fulfill, reorder_finish, reorder_pick, rewards_done, take_reward
from .layout import (
    A_BOOST, A_BT, A_CARD_BASIC, A_CARD_HAND, A_DEVELOP, A_DIS_CARD, A_DIS_SECTOR, A_DISCARD,
    A_DISCARD_MULT, A_DONATE, A_FLIP, A_ONGOING, A_SOLO_SWAP, A_FULFILL, A_ICON, A_INVEST, A_PASS, A_PAY, A_PLACE_SECTOR, A_PLACE_SLOT,
    A_PLAN, A_PLAN_MOVE, A_PRODUCE, A_REORDER, A_RESEARCH, A_REWARD, A_TRANSMIT, ACT_DEVELOP,
    ACT_INVEST, ACT_PLAN, ACT_PRODUCE, ACT_RESEARCH, ACT_TRANSMIT, BOOST_INNOVATION, FR_A, FR_B,
    FR_C, FR_D, FT_BOOST, FT_CARD_CHOICE, FT_CHARGE, FT_DISCHARGE, FT_FLIP, FT_ICON, FT_ITEM,
    FT_PLACE_SLOT, FT_REORDER, FT_RESEARCH, FT_REWARD, FT_TURN_END, MAX_SLOTS, N_ACTIONS,
    P_DEPOT, P_GRID, P_SEC_N, S_DECISIONS, S_SOLO, S_TERMINAL, T_COL_GRID, T_IND_DECK,
)
from .masks import fill_mask
from .research import cover_space, research_advance, resume_research
from .solo import check_challenges, solo_swap
from .stack import cur_base, pop, top
from .turn import choose_plan, innovation_possible, take_boost, turn_end


@njit(cache=True)
def advance(S, T):
    """Run automatic frames (charge, research continuation, turn end) and drop decisions that
    have become empty, until a real decision is pending or the game is over."""
    while S[S_TERMINAL] == 0:
        t = top(S)
        ft = S[t]
        pb = cur_base(S)
        if ft == FT_CHARGE:
            do_charge(S, T, pb)
        elif ft == FT_RESEARCH:
            resume_research(S, pb)
        elif ft == FT_TURN_END:
            turn_end(S)
        elif ft == FT_DISCHARGE and not any_charged(S, pb):
            pop(S)
        elif ft == FT_BOOST and S[t + FR_A] == BOOST_INNOVATION and not innovation_possible(S, pb):
            pop(S)  # R5: an innovation that cannot be made is forgone
        elif ft == FT_ITEM and item_exhausted(S, T):
            pop(S)
        elif ft == FT_ICON and S[t + FR_D] <= 0:
            end_icon(S, T, pb)
        elif ft == FT_PLACE_SLOT and S[pb + P_SEC_N + S[t + FR_C]] == 0:
            face = S[t + FR_A]
            mode = S[t + FR_B]
            s = S[t + FR_C]
            pop(S)
            finish_place(S, pb, face, mode, s, 0)
        elif ft == FT_REORDER and S[t + FR_D] >= S[pb + P_SEC_N + S[t + FR_A]] - 1:
            reorder_finish(S, pb)
        elif ft == FT_REWARD and rewards_done(S, T):
            pop(S)
        elif ft == FT_CARD_CHOICE and not any_card_ok(S, T, pb, S[t + FR_A]):
            pop(S)  # R19: no card cheap enough, or no sector with room
        elif ft == FT_FLIP and not any_side_a(S, pb):
            pop(S)  # R19: no side-A sector left
        else:
            if S[S_SOLO]:
                check_challenges(S, T)
            return
    if S[S_SOLO]:
        check_challenges(S, T)


@njit(cache=True)
def apply_action(S, T, a):
    """Apply a legal action id (no check) and advance to the next decision."""
    pb = cur_base(S)
    ft = S[top(S)]
    if a == A_PASS:
        if ft == FT_ICON:
            end_icon(S, T, pb)
        else:
            pop(S)
    elif a < A_BOOST:
        choose_plan(S, a - A_PLAN)
    elif a == A_BOOST:
        take_boost(S, pb)
    elif a < A_CARD_BASIC:
        take_card(S, T, pb, False, a - A_CARD_HAND)
    elif a < A_PAY:
        take_card(S, T, pb, True, a - A_CARD_BASIC)
    elif a < A_PLACE_SECTOR:
        pay_cube(S, T, pb, a - A_PAY)
    elif a < A_PLACE_SLOT:
        place_sector(S, pb, a - A_PLACE_SECTOR)
    elif a < A_DIS_SECTOR:
        place_slot(S, pb, a - A_PLACE_SLOT)
    elif a < A_DIS_CARD:
        discharge_sector(S, pb, a - A_DIS_SECTOR)
    elif a < A_ICON:
        x = a - A_DIS_CARD
        discharge_card(S, pb, x // MAX_SLOTS, x % MAX_SLOTS)
    elif a < A_PRODUCE:
        start_icon(S, T, pb, a - A_ICON)
    elif a < A_DEVELOP:
        use_icon(S, T, pb, ACT_PRODUCE, a - A_PRODUCE)
    elif a < A_TRANSMIT:
        use_icon(S, T, pb, ACT_DEVELOP, a - A_DEVELOP)
    elif a < A_RESEARCH:
        use_icon(S, T, pb, ACT_TRANSMIT, a - A_TRANSMIT)
    elif a < A_INVEST:
        use_icon(S, T, pb, ACT_RESEARCH, 0)
    elif a < A_PLAN_MOVE:
        use_icon(S, T, pb, ACT_INVEST, a - A_INVEST)
    elif a < A_BT:
        use_icon(S, T, pb, ACT_PLAN, a - A_PLAN_MOVE)
    elif a < A_FULFILL:
        cover_space(S, T, pb, a - A_BT)
    elif a < A_REWARD:
        fulfill(S, T, pb, a - A_FULFILL)
    elif a < A_FLIP:
        take_reward(S, T, pb, a - A_REWARD)
    elif a < A_REORDER:
        flip(S, pb, a - A_FLIP)
    elif a < A_DISCARD:
        reorder_pick(S, pb, a - A_REORDER)
    elif a < A_DONATE:
        card = hand_remove(S, pb, a - A_DISCARD)
        to_discard(S, T, card)
        if T[T_IND_DECK + card] == 0:
            S[pb + P_DEPOT + 0] += 1
        else:
            research_advance(S, pb, 1)
    elif a < A_DISCARD_MULT:
        c = a - A_DONATE
        S[pb + P_GRID + c] -= 1
        research_advance(S, pb, T[T_COL_GRID + c])
    elif a < A_ONGOING:
        discard_for_multiplier(S, T, pb, a - A_DISCARD_MULT)
    elif a < A_SOLO_SWAP:
        take_ongoing(S)
    else:
        solo_swap(S, a - A_SOLO_SWAP)
    S[S_DECISIONS] += 1
    advance(S, T)


@njit(cache=True)
def step_checked(S, T, a, mask):
    """Apply action ``a`` if it is legal (``mask`` is scratch space of length N_ACTIONS).
    Returns 0, or -1 with the state unchanged when ``a`` is out of range or illegal."""
    if a < 0 or a >= N_ACTIONS:
        return -1
    fill_mask(S, T, mask)
    if mask[a] == 0:
        return -1
    apply_action(S, T, a)
    return 0


def new_mask():
    """A scratch mask buffer for ``fill_mask`` / ``step_checked``."""
    return np.zeros(N_ACTIONS, dtype=np.uint8)
