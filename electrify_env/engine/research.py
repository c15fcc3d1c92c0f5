"""Research (R14): the marker, breakthroughs and group bonuses."""
from numba import njit

from .layout import (
    FRAME, FR_A, FT_BT_PICK, FT_RESEARCH, FT_REWARD, N_BT_SPACES, P_BT, P_RESEARCH, P_RESEARCH_TOTAL,
    RESEARCH_TRACK, REW_SRC_GROUP, REW_SRC_SPACE, T_BT_GROUP, T_BT_NREW, T_G_NREW,
)
from .stack import pop, push, top


@njit(cache=True)
def covered_count(S, pb):
    """Breakthrough spaces the player has covered."""
    n = 0
    for k in range(N_BT_SPACES):
        n += S[pb + P_BT + k]
    return n


@njit(cache=True)
def group_complete(S, T, pb, g):
    """Has the player covered every breakthrough space of group ``g``?"""
    for k in range(N_BT_SPACES):
        if T[T_BT_GROUP + k] == g and S[pb + P_BT + k] == 0:
            return False
    return True


@njit(cache=True)
def research_advance(S, pb, k):
    """Move the research marker ``k`` spaces.  Reaching space 6 with a space still uncovered
    pushes a breakthrough pick (and the rest of the movement as an automatic frame below it),
    so the breakthrough is resolved before the remaining movement (R14).  With all spaces
    covered the marker stops at 6 and the rest is lost.  Research gained while a breakthrough
    pick is pending (an any-time action at that decision) joins the movement after it."""
    if k > 0 and S[pb + P_RESEARCH] == RESEARCH_TRACK and covered_count(S, pb) < N_BT_SPACES:
        t = top(S)
        below = t - FRAME
        if S[below] == FT_RESEARCH:
            S[below + FR_A] += k
        else:
            pop(S)
            push(S, FT_RESEARCH, k, 0, 0, 0)
            push(S, FT_BT_PICK, 0, 0, 0, 0)
        return
    while k > 0:
        m = S[pb + P_RESEARCH]
        step = RESEARCH_TRACK - m
        if step > k:
            step = k
        S[pb + P_RESEARCH] = m + step
        S[pb + P_RESEARCH_TOTAL] += step
        k -= step
        if S[pb + P_RESEARCH] == RESEARCH_TRACK:
            if covered_count(S, pb) >= N_BT_SPACES:
                return
            if k > 0:
                push(S, FT_RESEARCH, k, 0, 0, 0)
            push(S, FT_BT_PICK, 0, 0, 0, 0)
            return


@njit(cache=True)
def resume_research(S, pb):
    """Automatic frame FT_RESEARCH: apply the movement left over after a breakthrough."""
    k = S[top(S) + FR_A]
    pop(S)
    research_advance(S, pb, k)


@njit(cache=True)
def cover_space(S, T, pb, k):
    """Cover breakthrough space ``k``: reset the marker, then queue the space's reward and, if
    this completes its group, the group bonus (space reward resolved first)."""
    pop(S)  # the FT_BT_PICK frame
    S[pb + P_BT + k] = 1
    S[pb + P_RESEARCH] = 0
    g = T[T_BT_GROUP + k]
    if group_complete(S, T, pb, g) and T[T_G_NREW + g] > 0:
        push(S, FT_REWARD, REW_SRC_GROUP, g, 0, 0)
    if T[T_BT_NREW + k] > 0:
        push(S, FT_REWARD, REW_SRC_SPACE, k, 0, 0)
