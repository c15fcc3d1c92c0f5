"""Chain reactions (G13, G14, G16, G19): which waiting machines are offered, and using one."""
from numba import njit

from .gz_board import display_any, display_card
from .gz_energy import any_pick_ok, dispenser_n, draw_blind, storage_room
from .gz_file import can_file
from .gz_layout import (
    EF_DRAW, EF_FILE, EF_FREE_BUILD, EF_PICK, EF_RESEARCH, EF_TOKENS, EF_TWO_PICKS, MAX_BUILT,
    NO_CARD, P_ARCH, P_ARCH_N, P_BUILT, P_BUILT_N, P_TOKENS, P_USED, P_WAIT, PH_CHAIN,
    PH_EFFECT_FILE, PH_EFFECT_PICK, PH_EFFECT_RESEARCH, PH_FREE_BUILD, S_EFF_FIRST, S_EFF_LEFT,
    S_PHASE, T_DISPLAY, T_EFF_N, T_EFFECT, T_LEVEL,
)
from .gz_research import any_research_ok


@njit(cache=True)
def free_build_possible(S, T, pb):
    """A level-I card sits in the display or the archive, and the dashboard has room (G16)."""
    if S[pb + P_BUILT_N] >= MAX_BUILT:
        return False
    for k in range(T[T_DISPLAY + 0]):
        if display_card(S, T, 0, k) != NO_CARD:
            return True
    for i in range(S[pb + P_ARCH_N]):
        if T[T_LEVEL + S[pb + P_ARCH + i]] == 1:
            return True
    return False


@njit(cache=True)
def effect_possible(S, T, pb, card):
    """The effect of machine ``card`` can change something now (G16)."""
    ef = T[T_EFFECT + card]
    if ef == EF_PICK or ef == EF_TWO_PICKS:
        return any_pick_ok(S, pb)
    if ef == EF_DRAW:
        return storage_room(S, pb) > 0 and dispenser_n(S) > 0
    if ef == EF_TOKENS:
        return True
    if ef == EF_FILE:
        return can_file(S, pb) and display_any(S, T)
    if ef == EF_RESEARCH:
        return any_research_ok(S, pb)
    if ef == EF_FREE_BUILD:
        return free_build_possible(S, T, pb)
    return False


@njit(cache=True)
def offered(S, T, pb, j):
    """Machine ``j`` is waiting, unused this turn, and its effect can change something."""
    if j >= S[pb + P_BUILT_N] or S[pb + P_WAIT + j] == 0 or S[pb + P_USED + j]:
        return False
    return effect_possible(S, T, pb, S[pb + P_BUILT + j])


@njit(cache=True)
def any_offered(S, T, pb):
    """Some waiting machine is offered."""
    for j in range(S[pb + P_BUILT_N]):
        if offered(S, T, pb, j):
            return True
    return False


@njit(cache=True)
def use_machine(S, T, pb, j):
    """Use waiting machine ``j`` (once per turn, G13): blind draws and tokens at once, an action
    effect opens its own decision (G14)."""
    S[pb + P_WAIT + j] = 0
    S[pb + P_USED + j] = 1
    card = S[pb + P_BUILT + j]
    ef = T[T_EFFECT + card]
    S[S_PHASE] = PH_CHAIN
    if ef == EF_TOKENS:
        S[pb + P_TOKENS] += T[T_EFF_N + card]
    elif ef == EF_DRAW:
        draw_blind(S, pb, T[T_EFF_N + card])
    elif ef == EF_PICK or ef == EF_TWO_PICKS:
        S[S_EFF_LEFT] = 2 if ef == EF_TWO_PICKS else 1
        S[S_EFF_FIRST] = 1
        S[S_PHASE] = PH_EFFECT_PICK
    elif ef == EF_FILE:
        S[S_PHASE] = PH_EFFECT_FILE
    elif ef == EF_RESEARCH:
        S[S_PHASE] = PH_EFFECT_RESEARCH
    elif ef == EF_FREE_BUILD:
        S[S_PHASE] = PH_FREE_BUILD
