"""The dispatcher: routes an action id to its phase, then runs the automatic steps (an empty
chain ends the turn, G13; a second Pick that cannot be made is skipped, G19)."""
from numba import njit

from .gz_board import display_card
from .gz_build import free_build, pay_confirm, pay_convert, pay_spend, start_build
from .gz_chain import any_offered, use_machine
from .gz_energy import any_pick_ok, pbase
from .gz_file import do_file
from .gz_layout import (
    A_BUILD, A_BUILD_ARCH, A_CONFIRM, A_CONVERT, A_FILE, A_PASS, A_PICK, A_RES_BUILD, A_RES_FILE,
    A_RESEARCH, A_SPEND, A_USE, MAX_DISPLAY, N_ACTIONS, P_ARCH, PH_CHAIN, PH_EFFECT_PICK,
    PH_FREE_BUILD, PH_MAIN, PH_RESEARCH, S_CUR, S_DECISIONS, S_EFF_FIRST, S_EFF_LEFT, S_PHASE,
    S_TERMINAL, SRC_ARCHIVE, SRC_DISPLAY,
)
from .gz_masks import fill_mask
from .gz_pick import do_pick
from .gz_research import research_build, research_file, research_none, start_research
from .gz_turn import end_turn


@njit(cache=True)
def advance(S, T):
    """Run the automatic steps until a real decision is pending or the game is over."""
    while S[S_TERMINAL] == 0:
        ph = S[S_PHASE]
        pb = pbase(S[S_CUR])
        if ph == PH_CHAIN and not any_offered(S, T, pb):
            end_turn(S, T)
        elif ph == PH_EFFECT_PICK and (S[S_EFF_LEFT] <= 0 or not any_pick_ok(S, pb)):
            S[S_PHASE] = PH_CHAIN
        else:
            return


@njit(cache=True)
def apply_action(S, T, a):
    """Apply a legal action id (no check) and advance to the next decision."""
    pb = pbase(S[S_CUR])
    ph = S[S_PHASE]
    if a == A_PASS:
        if ph == PH_MAIN or ph == PH_CHAIN:
            end_turn(S, T)
        elif ph == PH_RESEARCH:
            research_none(S)
        else:                               # declining the second Pick
            S[S_PHASE] = PH_CHAIN
    elif a < A_PICK:
        do_file(S, T, pb, a - A_FILE)
        S[S_PHASE] = PH_CHAIN
    elif a < A_BUILD:
        do_pick(S, T, pb, a - A_PICK)
        if ph == PH_EFFECT_PICK:
            S[S_EFF_LEFT] -= 1
            S[S_EFF_FIRST] = 0
        else:
            S[S_PHASE] = PH_CHAIN
    elif a < A_BUILD_ARCH:
        x = a - A_BUILD
        card = display_card(S, T, x // MAX_DISPLAY, x % MAX_DISPLAY)
        if ph == PH_FREE_BUILD:
            free_build(S, T, pb, card, SRC_DISPLAY, x)
        else:
            start_build(S, T, pb, card, SRC_DISPLAY, x)
    elif a < A_RESEARCH:
        i = a - A_BUILD_ARCH
        card = S[pb + P_ARCH + i]
        if ph == PH_FREE_BUILD:
            free_build(S, T, pb, card, SRC_ARCHIVE, i)
        else:
            start_build(S, T, pb, card, SRC_ARCHIVE, i)
    elif a < A_RES_BUILD:
        start_research(S, pb, a - A_RESEARCH)
    elif a < A_RES_FILE:
        research_build(S, T, pb, a - A_RES_BUILD)
    elif a < A_USE:
        research_file(S, T, pb, a - A_RES_FILE)
    elif a < A_SPEND:
        use_machine(S, T, pb, a - A_USE)
    elif a < A_CONVERT:
        pay_spend(S, a - A_SPEND)
    elif a < A_CONFIRM:
        pay_convert(S, a - A_CONVERT)
    else:
        pay_confirm(S, T, pb)
    S[S_DECISIONS] += 1
    advance(S, T)


@njit(cache=True)
def step_checked(S, T, a, mask, W):
    """Apply action ``a`` if it is legal (``mask``: scratch space of length N_ACTIONS, ``W``: a
    work buffer, :func:`~.gz_pay.new_work`).  Returns 0, or -1 with the state unchanged when
    ``a`` is out of range or illegal."""
    if a < 0 or a >= N_ACTIONS:
        return -1
    fill_mask(S, T, mask, W)
    if mask[a] == 0:
        return -1
    apply_action(S, T, a)
    return 0
