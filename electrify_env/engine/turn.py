"""Round structure: plan and reveal (R4), boosts, the per-player turn sequence (R6) and the
reset at its end (R17)."""
from numba import njit

from .layout import (
    BOOST_COLLABORATION, BOOST_INNOVATION, BOOST_NONE, FR_A, FT_ACQUIRE, FT_BOOST, FT_CHARGE,
    FT_DISCHARGE, FT_FULFILL, FT_PLAN, FT_TURN_END, N_ROUNDS, P_BOOST, P_CHOSEN, P_DEMANDS_ROUND,
    P_PLAN, P_SEC_COL, S_CUR, S_NPLAYERS, S_ROUND, S_SOLO, S_TERMINAL, TOKEN_INNOVATION,
)
from .research import research_advance
from .sectors import can_move, move_sector
from .solo import lose_stars, solo_boost
from .stack import pbase, pop, push, top


@njit(cache=True)
def start_turn(S, p):
    """Queue steps 1 (boost) to 6 of player ``p``'s turn (R6)."""
    S[S_CUR] = p
    pb = pbase(p)
    push(S, FT_TURN_END, 0, 0, 0, 0)
    push(S, FT_FULFILL, 0, 0, 0, 0)
    push(S, FT_DISCHARGE, 0, 0, 0, 0)
    push(S, FT_CHARGE, 0, 0, 0, 0)
    push(S, FT_ACQUIRE, 0, 0, 0, 0)
    if S[pb + P_BOOST] != BOOST_NONE:
        push(S, FT_BOOST, S[pb + P_BOOST], 0, 0, 0)


@njit(cache=True)
def start_plan(S):
    """Open the Plan step of the next round: every player chooses in seat order (secretly)."""
    S[S_CUR] = 0
    push(S, FT_PLAN, 0, 0, 0, 0)


@njit(cache=True)
def reveal(S):
    """All dials are down: advance the round marker, reveal the choices and set each player's
    boost (R4; solo: stars under the marker are lost and the boost comes from the token bag,
    R21, R22), then start the lead visionary's turn."""
    n = S[S_NPLAYERS]
    S[S_ROUND] += 1
    for p in range(n):
        pb = pbase(p)
        S[pb + P_CHOSEN] = S[pb + P_PLAN]
        S[pb + P_PLAN] = -1
        S[pb + P_DEMANDS_ROUND] = 0
    if S[S_SOLO]:
        lose_stars(S)
        pb = pbase(0)
        drawn = solo_boost(S, S[pb + P_CHOSEN])
        S[pb + P_BOOST] = BOOST_INNOVATION if drawn == TOKEN_INNOVATION else BOOST_COLLABORATION
        start_turn(S, 0)
        return
    for p in range(n):
        pb = pbase(p)
        same = False
        for q in range(n):
            if q != p and S[pbase(q) + P_CHOSEN] == S[pb + P_CHOSEN]:
                same = True
        S[pb + P_BOOST] = BOOST_COLLABORATION if same else BOOST_INNOVATION
    start_turn(S, 0)


@njit(cache=True)
def choose_plan(S, s):
    """Action: the pending player secretly chooses sector ``s``."""
    p = S[S_CUR]
    S[pbase(p) + P_PLAN] = s
    if p + 1 < S[S_NPLAYERS]:
        S[S_CUR] = p + 1
    else:
        pop(S)
        reveal(S)


@njit(cache=True)
def innovation_possible(S, pb):
    """Can the chosen sector slide one column right (R5)?"""
    s = S[pb + P_CHOSEN]
    return can_move(S, pb, s, S[pb + P_SEC_COL + s] + 1)


@njit(cache=True)
def take_boost(S, pb):
    """Action: take the pending boost (innovation: slide right; collaboration: research +1)."""
    kind = S[top(S) + FR_A]
    pop(S)
    if kind == BOOST_INNOVATION:
        s = S[pb + P_CHOSEN]
        move_sector(S, pb, s, S[pb + P_SEC_COL + s] + 1)
    else:
        research_advance(S, pb, 1)


@njit(cache=True)
def turn_end(S):
    """Automatic step 6: reset the charged sector to column 0 (none in round 12, R17), then hand
    over to the next player, the next round, or the game end."""
    pop(S)
    p = S[S_CUR]
    pb = pbase(p)
    if S[S_ROUND] < N_ROUNDS:
        move_sector(S, pb, S[pb + P_CHOSEN], 0)
    S[pb + P_BOOST] = BOOST_NONE
    if p + 1 < S[S_NPLAYERS]:
        start_turn(S, p + 1)
    elif S[S_ROUND] >= N_ROUNDS:
        S[S_TERMINAL] = 1
    else:
        start_plan(S)
