"""Solo mode (R20-R23): scenario setup, the boost-token bag, bonus stars and challenges."""
import numpy as np
from numba import njit

from ..common.engine.rng import rng_below
from .layout import (
    CH_BREAKTHROUGHS, CH_CARDS_ON_SECTOR, CH_CLEAN_TOKENS, CH_DEMANDS_IN_ROUND, CH_FULFILLED,
    CH_GRID_CUBES, CH_GROUP_COMPLETE, CH_LEVEL_FULFILLED, CH_POINTS, CH_SECTOR_IN_COLUMN,
    CH_SIDE_B, FT_SOLO_SWAP, MAX_CHALLENGES, MAX_SCENARIO_STARS, N_BT_GROUPS, N_COLS,
    N_LEVELS, N_SECTORS, N_TOKENS_INNOVATION, P_CLEAN,
    P_DEMANDS_ROUND, P_FULFILLED, P_GRID, P_NFULFILLED, P_SCORE, P_SEC_COL, P_SEC_N, P_SEC_SIDE,
    P_SOLO_TOKEN, S_BAG, S_CH_A, S_CH_B, S_CH_COND, S_CH_MET, S_ROUND, S_SOLO, S_SOLO_BONUS,
    S_SOLO_NCH, S_SOLO_NSTARS, S_SOLO_RLEVEL, S_SOLO_TARGET, S_STAR_POINTS, S_STAR_ROUND,
    S_STAR_STATE, SC_BONUS, SC_BONUS_RANDOM, SC_CH_A, SC_CH_B, SC_CH_COND, SC_NCH, SC_NSTARS,
    SC_STAR_POINTS, SC_STAR_ROUND, SC_STAR_RPLUS, SC_TARGET, SOLO_PAIRS_I, SOLO_PAIRS_J,
    TOKEN_COLLABORATION, TOKEN_INNOVATION, S_RNG,
)
from .research import covered_count, group_complete
from .stack import pbase, pop, push

STAR_OPEN = 0
STAR_CLAIMED = 1
STAR_LOST = 2


@njit(cache=True)
def init_solo(S, SC):
    """R20: after the basic setup of a 1-player game, lay out the scenario: bonus tokens on the
    listed demand levels (and a random level R not listed), stars above their rounds (R+X uses
    R), five of the seven boost tokens on the sectors from left to right, one innovation and one
    collaboration token in the bag; then open the optional swap of two sectors."""
    S[S_SOLO] = 1
    S[S_SOLO_TARGET] = SC[SC_TARGET]
    bonus = SC[SC_BONUS]
    S[S_SOLO_RLEVEL] = -1
    if SC[SC_BONUS_RANDOM]:
        free = 0
        for lv in range(N_LEVELS):
            if not (bonus >> lv) & 1:
                free += 1
        pick = rng_below(S, S_RNG, free)
        for lv in range(N_LEVELS):
            if not (bonus >> lv) & 1:
                if pick == 0:
                    S[S_SOLO_RLEVEL] = lv
                pick -= 1
        bonus |= 1 << S[S_SOLO_RLEVEL]
    S[S_SOLO_BONUS] = bonus
    n = SC[SC_NSTARS]
    S[S_SOLO_NSTARS] = n
    rounds = np.zeros(n, dtype=np.int64)
    for i in range(n):
        r = SC[SC_STAR_ROUND + i]
        if SC[SC_STAR_RPLUS + i]:
            r += S[S_SOLO_RLEVEL] + 1
        rounds[i] = r
    rounds.sort()
    for i in range(MAX_SCENARIO_STARS):
        S[S_STAR_ROUND + i] = rounds[i] if i < n else 0
        S[S_STAR_STATE + i] = STAR_OPEN if i < n else STAR_LOST
    for k in range(MAX_SCENARIO_STARS + 1):
        S[S_STAR_POINTS + k] = SC[SC_STAR_POINTS + k]
    S[S_SOLO_NCH] = SC[SC_NCH]
    for c in range(MAX_CHALLENGES):
        S[S_CH_COND + c] = SC[SC_CH_COND + c]
        S[S_CH_A + c] = SC[SC_CH_A + c]
        S[S_CH_B + c] = SC[SC_CH_B + c]
        S[S_CH_MET + c] = 0
    # boost tokens: set one of each kind aside, shuffle the other five onto the sectors
    tokens = np.zeros(N_SECTORS, dtype=np.int64)
    for i in range(N_SECTORS):
        tokens[i] = TOKEN_INNOVATION if i < N_TOKENS_INNOVATION - 1 else TOKEN_COLLABORATION
    for i in range(N_SECTORS - 1, 0, -1):
        j = rng_below(S, S_RNG, i + 1)
        tmp = tokens[i]
        tokens[i] = tokens[j]
        tokens[j] = tmp
    pb = pbase(0)
    for s in range(N_SECTORS):
        S[pb + P_SOLO_TOKEN + s] = tokens[S[pb + P_SEC_COL + s]]  # left to right
    S[S_BAG] = 1
    S[S_BAG + 1] = 1
    push(S, FT_SOLO_SWAP, 0, 0, 0, 0)


@njit(cache=True)
def solo_swap(S, k):
    """Action: swap the starting columns of sector pair ``k`` (tokens stay on their sectors)."""
    pop(S)
    pb = pbase(0)
    i = SOLO_PAIRS_I[k]
    j = SOLO_PAIRS_J[k]
    ci = S[pb + P_SEC_COL + i]
    S[pb + P_SEC_COL + i] = S[pb + P_SEC_COL + j]
    S[pb + P_SEC_COL + j] = ci


@njit(cache=True)
def solo_boost(S, s):
    """R21: the chosen sector's token goes into the bag, one of the three is drawn at random,
    its boost is gained, and the drawn token goes onto the chosen sector."""
    pb = pbase(0)
    tok = S[pb + P_SOLO_TOKEN + s]
    S[S_BAG + tok - 1] += 1
    n_inn = S[S_BAG]
    r = rng_below(S, S_RNG, S[S_BAG] + S[S_BAG + 1])
    drawn = TOKEN_INNOVATION if r < n_inn else TOKEN_COLLABORATION
    S[S_BAG + drawn - 1] -= 1
    S[pb + P_SOLO_TOKEN + s] = drawn
    return drawn


@njit(cache=True)
def lose_stars(S):
    """R22: a star is lost when the round marker reaches its round."""
    for i in range(S[S_SOLO_NSTARS]):
        if S[S_STAR_STATE + i] == STAR_OPEN and S[S_STAR_ROUND + i] <= S[S_ROUND]:
            S[S_STAR_STATE + i] = STAR_LOST


@njit(cache=True)
def claim_star(S):
    """Claim the leftmost star still above the track (none left: nothing happens)."""
    for i in range(S[S_SOLO_NSTARS]):
        if S[S_STAR_STATE + i] == STAR_OPEN:
            S[S_STAR_STATE + i] = STAR_CLAIMED
            return


@njit(cache=True)
def stars_claimed(S):
    """Stars the solo player has claimed."""
    k = 0
    for i in range(S[S_SOLO_NSTARS]):
        if S[S_STAR_STATE + i] == STAR_CLAIMED:
            k += 1
    return k


@njit(cache=True)
def condition_holds(S, T, cond, a, b):
    """R23: evaluate one challenge condition for the solo player (see layout.CH_*)."""
    pb = pbase(0)
    if cond == CH_CARDS_ON_SECTOR:
        for s in range(N_SECTORS):
            if S[pb + P_SEC_N + s] >= a:
                return True
        return False
    if cond == CH_GRID_CUBES:
        for c in range(N_COLS):
            if (b < 0 or c == b) and S[pb + P_GRID + c] >= a:
                return True
        return False
    if cond == CH_DEMANDS_IN_ROUND:
        return S[pb + P_DEMANDS_ROUND] >= a
    if cond == CH_GROUP_COMPLETE:
        for g in range(N_BT_GROUPS):
            if (a < 0 or g == a) and group_complete(S, T, pb, g):
                return True
        return False
    if cond == CH_SECTOR_IN_COLUMN:
        for s in range(N_SECTORS):
            if S[pb + P_SEC_COL + s] == a:
                return True
        return False
    if cond == CH_SIDE_B:
        n = 0
        for s in range(N_SECTORS):
            n += S[pb + P_SEC_SIDE + s]
        return n >= a
    if cond == CH_CLEAN_TOKENS:
        return S[pb + P_CLEAN] >= a
    if cond == CH_FULFILLED:
        return S[pb + P_NFULFILLED] >= a
    if cond == CH_BREAKTHROUGHS:
        return covered_count(S, pb) >= a
    if cond == CH_LEVEL_FULFILLED:
        return S[pb + P_FULFILLED + a] == 1
    if cond == CH_POINTS:
        return S[pb + P_SCORE] >= a
    return False


@njit(cache=True)
def check_challenges(S, T):
    """Mark every challenge whose condition holds now (once each) and claim a star for it.
    Runs at every decision of a solo game, so the common conditions are read inline."""
    pb = pbase(0)
    for c in range(S[S_SOLO_NCH]):
        if S[S_CH_MET + c]:
            continue
        cond = S[S_CH_COND + c]
        a = S[S_CH_A + c]
        if cond == CH_POINTS:
            ok = S[pb + P_SCORE] >= a
        elif cond == CH_CLEAN_TOKENS:
            ok = S[pb + P_CLEAN] >= a
        elif cond == CH_FULFILLED:
            ok = S[pb + P_NFULFILLED] >= a
        elif cond == CH_DEMANDS_IN_ROUND:
            ok = S[pb + P_DEMANDS_ROUND] >= a
        else:
            ok = condition_holds(S, T, cond, a, S[S_CH_B + c])
        if ok:
            S[S_CH_MET + c] = 1
            claim_star(S)


@njit(cache=True)
def solo_final_score(S):
    """Energy points plus the scenario's points for the stars claimed."""
    return S[pbase(0) + P_SCORE] + S[S_STAR_POINTS + stars_claimed(S)]
