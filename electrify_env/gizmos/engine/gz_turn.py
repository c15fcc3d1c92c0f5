"""The end of a turn, equal turns and the end of the game (G20, G22)."""
from numba import njit

from .gz_energy import pbase
from .gz_layout import (
    MAX_BUILT, P_BUILT_N, P_N_L3, P_OPT_USED, P_TURNS, P_USED, P_WAIT, PH_MAIN, PH_OVER,
    S_CUR, S_ENDING, S_NPLAYERS, S_PHASE, S_ROUND, S_TERMINAL, S_TRUNCATED, T_END_BUILT,
    T_END_L3, T_MAX_ROUNDS,
)


@njit(cache=True)
def end_turn(S, T):
    """End the active player's turn: waiting machines are given up, machines and converter
    options are fresh for the next turn; an end condition marks the last round; after the last
    seat of a round the game ends if it is marked (G20) or the round cap is reached (G22)."""
    p = S[S_CUR]
    pb = pbase(p)
    if S[pb + P_BUILT_N] >= T[T_END_BUILT] or S[pb + P_N_L3] >= T[T_END_L3]:
        S[S_ENDING] = 1
    for j in range(MAX_BUILT):
        S[pb + P_WAIT + j] = 0
        S[pb + P_USED + j] = 0
        S[pb + P_OPT_USED + j] = 0
    S[pb + P_TURNS] += 1
    nxt = p + 1
    if nxt == S[S_NPLAYERS]:
        nxt = 0
        if S[S_ENDING]:
            S[S_TERMINAL] = 1
        elif S[S_ROUND] >= T[T_MAX_ROUNDS]:
            S[S_TERMINAL] = 1
            S[S_TRUNCATED] = 1
        else:
            S[S_ROUND] += 1
    if S[S_TERMINAL]:
        S[S_PHASE] = PH_OVER
        return
    S[S_CUR] = nxt
    S[S_PHASE] = PH_MAIN
