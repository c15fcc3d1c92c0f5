"""Step 5, Fulfill (R16, R19): demand cards, reward lists (also used by research spaces and group
bonuses), sector flips and the new card order after a flip."""
from numba import njit

from .layout import (
    FR_A, FR_B, FR_C, FR_D, FT_CARD_CHOICE, FT_FLIP, FT_REORDER, FT_REWARD, MAX_BT_REWARDS,
    MAX_PRIORITY, MAX_REQ, MAX_REWARDS, MAX_SLOTS, N_SECTORS, P_CARD_CHARGED, P_CLEAN,
    P_DEMANDS_ROUND, P_DEPOT, P_FULFILLED, P_GRID, P_NFULFILLED, P_SCORE, P_SEC_CARD, P_SEC_N,
    P_PTS, P_SEC_SIDE, PTS_DEMAND_BASIC, PTS_DEMAND_PRIORITY, PTS_GROUP, PTS_SPACE, REW_SRC_DEMAND, REW_SRC_SPACE, RW_CLEAN, RW_INDUSTRY, RW_POINTS, RW_PRODUCE,
    RW_SECTOR, S_DEMAND, S_SOLO, S_SOLO_BONUS, T_BT_NREW, T_BT_REW_ARG, T_BT_REW_KIND, T_BT_REW_VAL, T_D_NREW,
    T_D_REQ_COL, T_D_REQ_N, T_D_REW_ARG, T_D_REW_KIND, T_D_REW_VAL, T_G_NREW, T_G_REW_ARG,
    T_G_REW_KIND, T_G_REW_VAL,
)
from .solo import claim_star
from .stack import pop, push, top


@njit(cache=True)
def demand_ok(S, T, pb, level):
    """Can the player fulfil the demand card of ``level`` now (not yet fulfilled by them, every
    required cube in the grid)?"""
    if S[pb + P_FULFILLED + level]:
        return False
    d = S[S_DEMAND + level]
    for j in range(MAX_REQ):
        col = T[T_D_REQ_COL + d * MAX_REQ + j]
        if col >= 0 and S[pb + P_GRID + col] < T[T_D_REQ_N + d * MAX_REQ + j]:
            return False
    return True


@njit(cache=True)
def fulfill(S, T, pb, level):
    """Action: spend the required grid cubes, mark the card, and open its reward list (with the
    priority rewards if this is one of the player's first two fulfilments)."""
    d = S[S_DEMAND + level]
    for j in range(MAX_REQ):
        col = T[T_D_REQ_COL + d * MAX_REQ + j]
        if col >= 0:
            S[pb + P_GRID + col] -= T[T_D_REQ_N + d * MAX_REQ + j]
    S[pb + P_FULFILLED + level] = 1
    prio = 1 if S[pb + P_NFULFILLED] < MAX_PRIORITY else 0
    S[pb + P_NFULFILLED] += 1
    S[pb + P_DEMANDS_ROUND] += 1
    if S[S_SOLO] and (S[S_SOLO_BONUS] >> level) & 1:
        claim_star(S)  # R22: a demand card with a bonus reward token
    push(S, FT_REWARD, REW_SRC_DEMAND, d, 0, prio)


@njit(cache=True)
def reward_count(T, src, sid, prio):
    """Number of reward slots of a reward list."""
    if src == REW_SRC_DEMAND:
        n = T[T_D_NREW + 2 * sid]
        if prio:
            n += T[T_D_NREW + 2 * sid + 1]
        return n
    if src == REW_SRC_SPACE:
        return T[T_BT_NREW + sid]
    return T[T_G_NREW + sid]


@njit(cache=True)
def reward_entry(T, src, sid, r):
    """(kind, value, arg) of reward slot ``r`` of a reward list."""
    if src == REW_SRC_DEMAND:
        o = sid * MAX_REWARDS + r
        return T[T_D_REW_KIND + o], T[T_D_REW_VAL + o], T[T_D_REW_ARG + o]
    o = sid * MAX_BT_REWARDS + r
    if src == REW_SRC_SPACE:
        return T[T_BT_REW_KIND + o], T[T_BT_REW_VAL + o], T[T_BT_REW_ARG + o]
    return T[T_G_REW_KIND + o], T[T_G_REW_VAL + o], T[T_G_REW_ARG + o]


@njit(cache=True)
def points_source(T, src, sid, r):
    """The PTS_* source of reward slot ``r`` of a reward list (a demand card's slots past its
    basic rewards are its priority rewards)."""
    if src == REW_SRC_DEMAND:
        return PTS_DEMAND_BASIC if r < T[T_D_NREW + 2 * sid] else PTS_DEMAND_PRIORITY
    if src == REW_SRC_SPACE:
        return PTS_SPACE
    return PTS_GROUP


@njit(cache=True)
def reward_ok(S, T, r):
    """Is slot ``r`` of the pending reward list still to take?"""
    t = top(S)
    return r < reward_count(T, S[t + FR_A], S[t + FR_B], S[t + FR_D]) and not (S[t + FR_C] >> r) & 1


@njit(cache=True)
def rewards_done(S, T):
    """Has every slot of the pending reward list been taken?"""
    t = top(S)
    n = reward_count(T, S[t + FR_A], S[t + FR_B], S[t + FR_D])
    return S[t + FR_C] == (1 << n) - 1


@njit(cache=True)
def take_reward(S, T, pb, r):
    """Action: gain reward slot ``r``.  Industry and sector breakthroughs open their own choice
    (forgone automatically when nothing fits, R19)."""
    t = top(S)
    S[t + FR_C] |= 1 << r
    kind, val, arg = reward_entry(T, S[t + FR_A], S[t + FR_B], r)
    if kind == RW_POINTS:
        S[pb + P_SCORE] += val
        S[pb + P_PTS + points_source(T, S[t + FR_A], S[t + FR_B], r)] += val
    elif kind == RW_CLEAN:
        S[pb + P_CLEAN] += val
    elif kind == RW_PRODUCE:
        S[pb + P_DEPOT + arg] += val
    elif kind == RW_INDUSTRY:
        push(S, FT_CARD_CHOICE, val, 0, 0, 0)
    elif kind == RW_SECTOR:
        push(S, FT_FLIP, 0, 0, 0, 0)


@njit(cache=True)
def any_side_a(S, pb):
    """Is a sector still on side A?"""
    for s in range(N_SECTORS):
        if S[pb + P_SEC_SIDE + s] == 0:
            return True
    return False


@njit(cache=True)
def flip(S, pb, s):
    """Action: flip sector ``s`` to side B; with two or more cards, choose their new order."""
    pop(S)
    S[pb + P_SEC_SIDE + s] = 1
    if S[pb + P_SEC_N + s] >= 2:
        push(S, FT_REORDER, s, 0, 0, 0)


@njit(cache=True)
def reorder_ok(S, pb, k):
    """Is old slot ``k`` still to be placed in the new order?"""
    t = top(S)
    return k < S[pb + P_SEC_N + S[t + FR_A]] and not (S[t + FR_B] >> k) & 1


@njit(cache=True)
def reorder_pick(S, pb, k):
    """Action: the card from old slot ``k`` goes next (top to bottom)."""
    t = top(S)
    S[t + FR_C] |= k << (3 * S[t + FR_D])
    S[t + FR_D] += 1
    S[t + FR_B] |= 1 << k


@njit(cache=True)
def reorder_finish(S, pb):
    """Automatic once one card is left: it goes last; cards keep their charges (R16)."""
    t = top(S)
    s = S[t + FR_A]
    n = S[pb + P_SEC_N + s]
    order = S[t + FR_C]
    picked = S[t + FR_B]
    for k in range(n):
        if not (picked >> k) & 1:
            order |= k << (3 * (n - 1))
    pop(S)
    base = pb + P_SEC_CARD + s * MAX_SLOTS
    cbase = pb + P_CARD_CHARGED + s * MAX_SLOTS
    old_cards = S[base:base + n].copy()
    old_charge = S[cbase:cbase + n].copy()
    for j in range(n):
        k = (order >> (3 * j)) & 7
        S[base + j] = old_cards[k]
        S[cbase + j] = old_charge[k]
