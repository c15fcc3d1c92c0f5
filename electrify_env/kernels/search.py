"""Jitted building blocks of the game-playing agents: a hand-written state evaluation, the greedy
one-ply policy built on it, and determinized flat Monte Carlo search with greedy rollouts.

Everything here reads states through the named offsets of :mod:`.layout` and changes them only
through :func:`.step.apply_action`; no rule is re-implemented.  The agents in the top-level
``agents`` package call these functions on an *information-set view* of the game (the output of
:func:`.infoset.scrub`), filled with one sample of the hidden information by
:func:`.infoset.determinize`, so nothing here ever reads what the acting seat may not know.

Evaluation (``evaluate``): the value of a state to one player in energy-point equivalents,

======================  =============================================================================
term                    meaning
======================  =============================================================================
score                   energy points (``W_SCORE``)
research                marker progress towards the next breakthrough (``W_RESEARCH_STEP`` a space)
clean tokens            flat value of a token (its effect on clean multipliers is in the engine term)
depot / grid cubes      ``W_*_BASE + W_*_COL * column`` per cube
demand progress         for the two best unfulfilled demand cards: reward value x coverage**power,
                        where coverage counts required grid cubes and (discounted) depot cubes
hand                    per card, the larger of its future value and its discard bonus
engine                  per icon on the board (sector tiles and cards): unit value x multiplier at
                        the sector's column x future rounds / 5; plus connected arrows
charged this round      the icons still to be used this round (charge cubes, the item and icon being
                        discharged, the sector planned or chosen before Charge), valued with the
                        cubes, hand room and uses actually available
pending decisions       owed payment, a card waiting to be placed, rewards still to take, a free
                        card, a sector flip, a breakthrough pick or a boost
======================  =============================================================================

At the end of the game the evaluation is the score plus a tiny tie-break term (R18).

The weights are one float64 array indexed by the ``W_*`` constants below (names in
``WEIGHT_NAMES``); ``electrify_env.agents.greedy.GreedyWeights`` fills it from ``configs/agents/greedy.yaml``.
"""
import numpy as np
from numba import njit

from ..common.engine.rng import rng_below
from ..engine.charge import charge_board
from ..engine.discharge import icon_action, multiplier
from ..engine.infoset import determinize
from ..engine.layout import (
    A_DIS_CARD, A_DIS_SECTOR, A_DISCARD, A_DISCARD_MULT, A_ICON, ACT_DEVELOP,
    ACT_INVEST, ACT_ONGOING, ACT_PLAN, ACT_PRODUCE, ACT_RESEARCH, ACT_TRANSMIT, ARROW_DOWN,
    ARROW_LEFT, ARROW_UP, FACE_SECTOR, FR_A, FR_B, FR_C, FR_D, FR_F, FRAME, FT_ACQUIRE, FT_BOOST,
    FT_BT_PICK, FT_CARD_CHOICE, FT_CHARGE, FT_FLIP, FT_FULFILL, FT_ICON, FT_ITEM, FT_PAY,
    FT_PLACE_SECTOR, FT_PLACE_SLOT, FT_PLAN, FT_RESEARCH, FT_REWARD, ICON_FOLLOW_UP, MAX_HAND,
    MAX_ICONS, MAX_PRIORITY, MAX_REQ, MAX_SLOTS, N_ACTIONS, N_BT_SPACES, N_COLS, N_LEVELS,
    N_ROUNDS, N_SECTORS, P_CARD_CHARGED, P_CHOSEN, P_CLEAN, P_DEPOT, P_FULFILLED, P_GRID, P_HAND,
    P_HAND_N, P_NFULFILLED, P_PLAN, P_RESEARCH, P_SCORE, P_SEC_CARD, P_SEC_CHARGED, P_SEC_COL,
    P_SEC_N, P_SEC_SIDE, P_SIZE, PRODUCE_HERE, RW_CLEAN, RW_INDUSTRY, RW_POINTS, RW_PRODUCE,
    RW_SECTOR, S_CUR, S_DEMAND, S_NPLAYERS, S_ROUND, S_SIZE, S_SOLO, S_SOLO_BONUS,
    S_SOLO_NSTARS, S_SOLO_TARGET, S_SP, S_STACK, S_STAR_POINTS, S_STAR_STATE, S_TERMINAL,
    T_D_NREW, T_D_REQ_COL, T_D_REQ_N, T_D_REW_ARG, T_D_REW_KIND, T_D_REW_VAL, T_F_ARROWS,
    T_F_COST, T_F_ICON_ACT, T_F_ICON_ARG, T_F_NICONS, T_IND_DECK, MAX_REWARDS, S_RNG,
)
from ..engine.fulfill import reward_count, reward_entry
from ..engine.masks import fill_mask
from ..engine.playout import pick_phase_first
from ..engine.research import covered_count
from ..engine.scoring import cube_value
from ..engine.sectors import left_sector, move_sector
from ..engine.solo import stars_claimed
from ..engine.stack import pbase, top
from ..engine.step import apply_action

# ----------------------------------------------------------------------------------------------
# Weights: one float64 array, indexed by these names (electrify_env.agents.greedy.GreedyWeights fills it)
# ----------------------------------------------------------------------------------------------
WEIGHT_NAMES = (
    "score",            # an energy point
    "research_step",    # one space of the research marker (a breakthrough is 6)
    "clean_token",      # flat value of a clean token (beyond its multiplier effect)
    "depot_base",       # a depot cube
    "depot_col",        # extra per column of a depot cube
    "grid_base",        # a grid cube
    "grid_col",         # extra per column of a grid cube
    "depot_cover",      # share of a depot cube (vs a grid cube) in demand coverage
    "demand",           # share of a demand card's reward value paid at full coverage
    "demand_second",    # weight of the second-best demand card
    "demand_power",     # exponent of a demand card's coverage (1 = linear)
    "hand",             # future value of a hand card at the start of the game
    "hand_cost",        # extra per cost point of a hand card
    "engine",           # weight of the board's icons per future charge
    "arrow",            # an arrow that reaches a card, per future charge
    "charged",          # weight of icons still to be used this round
    "u_produce",        # one produce use (plus the produced cube's column)
    "u_develop",        # one develop use
    "u_transmit",       # one transmit use
    "u_research",       # one research use
    "u_invest",         # one invest use
    "u_plan",           # one plan use
    "u_other",          # any other icon use (tech packs)
    "owed",             # one point of a card cost still to pay
    "free_card",        # a free card, per cost point it may have
    "rw_clean",         # a clean breakthrough reward
    "rw_industry",      # an industry breakthrough reward, per cost point
    "rw_sector",        # a sector breakthrough reward
    "bt_pick",          # a breakthrough space still to cover
    "boost",            # a boost still to take
    "order",            # tie-break bonus that discharges produce/invest before transmit
    "value_scale",      # margin (points) at which a search value is tanh(1)
    "explore",          # rollout policy: chance of a phase-first random action
)
N_WEIGHTS = len(WEIGHT_NAMES)
(W_SCORE, W_RESEARCH_STEP, W_CLEAN_TOKEN, W_DEPOT_BASE, W_DEPOT_COL, W_GRID_BASE, W_GRID_COL,
 W_DEPOT_COVER, W_DEMAND, W_DEMAND_SECOND, W_DEMAND_POWER, W_HAND, W_HAND_COST, W_ENGINE, W_ARROW, W_CHARGED,
 W_U_PRODUCE, W_U_DEVELOP, W_U_TRANSMIT, W_U_RESEARCH, W_U_INVEST, W_U_PLAN, W_U_OTHER, W_OWED,
 W_FREE_CARD, W_RW_CLEAN, W_RW_INDUSTRY, W_RW_SECTOR, W_BT_PICK, W_BOOST, W_ORDER,
 W_VALUE_SCALE, W_EXPLORE) = range(N_WEIGHTS)

CHARGES_PER_SECTOR = 5.0   # a sector is charged about once in this many rounds
ANYTIME_ALWAYS = 0         # greedy option: weigh the any-time actions at every decision
ANYTIME_SOME = 1           # only where they can matter (Acquire, Pay, invest, Fulfill, round 12)
NO_SECTOR = -1
SEARCH_STOP_DECISIONS = 20_000   # a rollout that runs this long is cut (far above a round)

# action tallies of ``_tally``: produce value, develop, transmit, research, invest, plan, other
TL_PRODUCE = 0
TL_DEVELOP = 1
TL_TRANSMIT = 2
TL_RESEARCH = 3
TL_INVEST = 4
TL_PLAN = 5
TL_OTHER = 6
N_TALLY = 7


@njit(cache=True)
def depot_cube(W, c):
    """Value of one depot cube of column ``c``."""
    return W[W_DEPOT_BASE] + W[W_DEPOT_COL] * c


@njit(cache=True)
def reward_value(S, T, pb, W, kind, val, arg):
    """Value of one reward (demand, research space or group bonus)."""
    if kind == RW_POINTS:
        return W[W_SCORE] * val
    if kind == RW_CLEAN:
        return W[W_RW_CLEAN] * val
    if kind == RW_INDUSTRY:
        return W[W_RW_INDUSTRY] * val
    if kind == RW_SECTOR:
        for s in range(N_SECTORS):
            if S[pb + P_SEC_SIDE + s] == 0:
                return W[W_RW_SECTOR]
        return 0.0
    if kind == RW_PRODUCE:
        return val * depot_cube(W, arg)
    return 0.0


@njit(cache=True)
def _icon_column(S, T, pb, face, i, s):
    arg = T[T_F_ICON_ARG + face * MAX_ICONS + i]
    if arg == PRODUCE_HERE:
        return S[pb + P_SEC_COL + s]
    return arg


@njit(cache=True)
def _add_uses(S, T, pb, W, face, i, s, uses, tally):
    """Add ``uses`` of icon ``i`` of ``face`` (on sector ``s``) to the action tally."""
    act = T[T_F_ICON_ACT + face * MAX_ICONS + i]
    if act == ACT_PRODUCE:
        tally[TL_PRODUCE] += uses * (W[W_U_PRODUCE] + depot_cube(W, _icon_column(S, T, pb, face, i, s)))
    elif act == ACT_DEVELOP:
        tally[TL_DEVELOP] += uses
    elif act == ACT_TRANSMIT:
        tally[TL_TRANSMIT] += uses
    elif act == ACT_RESEARCH:
        tally[TL_RESEARCH] += uses
    elif act == ACT_INVEST:
        tally[TL_INVEST] += uses
    elif act == ACT_PLAN:
        tally[TL_PLAN] += uses
    elif act != ACT_ONGOING:
        tally[TL_OTHER] += uses


@njit(cache=True)
def _tally_face(S, T, pb, W, face, s, used, tally):
    """Tally the unused icons of ``face`` on sector ``s`` (``used``: bit mask of used icons)."""
    for i in range(T[T_F_NICONS + face]):
        if (used >> i) & 1:
            continue
        _add_uses(S, T, pb, W, face, i, s, multiplier(S, T, pb, face, i, s), tally)


@njit(cache=True)
def _tally_value(S, pb, W, tally, produced):
    """Value of a tally of uses available now: develops and transmits need depot cubes (those
    there and ``produced`` more), invests need room in hand."""
    cubes = 0
    movable = 0
    for c in range(N_COLS):
        cubes += S[pb + P_DEPOT + c]
        if c < N_COLS - 1:
            movable += S[pb + P_DEPOT + c]
    v = tally[TL_PRODUCE]
    v += min(tally[TL_DEVELOP], movable + produced) * W[W_U_DEVELOP]
    v += min(tally[TL_TRANSMIT], cubes + produced) * W[W_U_TRANSMIT]
    v += tally[TL_RESEARCH] * W[W_U_RESEARCH]
    v += min(tally[TL_INVEST], max(MAX_HAND - S[pb + P_HAND_N], 0)) * W[W_U_INVEST]
    v += min(tally[TL_PLAN], 1.0) * W[W_U_PLAN]
    v += tally[TL_OTHER] * W[W_U_OTHER]
    return v


@njit(cache=True)
def _produce_count(S, T, pb, face, s, used):
    n = 0
    for i in range(T[T_F_NICONS + face]):
        if not (used >> i) & 1 and T[T_F_ICON_ACT + face * MAX_ICONS + i] == ACT_PRODUCE:
            n += multiplier(S, T, pb, face, i, s)
    return n


@njit(cache=True)
def charged_value(S, T, pb, W, tally):
    """Value of the charge cubes the player still holds (sector tiles and cards)."""
    tally[:] = 0.0
    produced = 0
    for s in range(N_SECTORS):
        if S[pb + P_SEC_CHARGED + s]:
            face = FACE_SECTOR + 2 * s + S[pb + P_SEC_SIDE + s]
            _tally_face(S, T, pb, W, face, s, 0, tally)
            produced += _produce_count(S, T, pb, face, s, 0)
        for k in range(S[pb + P_SEC_N + s]):
            if S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k]:
                face = S[pb + P_SEC_CARD + s * MAX_SLOTS + k]
                _tally_face(S, T, pb, W, face, s, 0, tally)
                produced += _produce_count(S, T, pb, face, s, 0)
    return tally, produced


@njit(cache=True)
def _planned_charge_value(S, T, pb, W, s0, tally, scratch):
    """Value of charging sector ``s0`` now: the charge rule run on a copy of the player block."""
    for i in range(P_SIZE):
        scratch[pb + i] = S[pb + i]
    for s in range(N_SECTORS):
        scratch[pb + P_SEC_CHARGED + s] = 0
        for k in range(MAX_SLOTS):
            scratch[pb + P_CARD_CHARGED + s * MAX_SLOTS + k] = 0
    scratch[pb + P_CHOSEN] = s0
    charge_board(scratch, T, pb)
    tally, produced = charged_value(scratch, T, pb, W, tally)
    return _tally_value(S, pb, W, tally, produced)


@njit(cache=True)
def face_engine_value(S, T, pb, W, face, s):
    """Long-term value of one activation of ``face`` standing on sector ``s`` (unit values times
    the multipliers at the sector's column)."""
    v = 0.0
    for i in range(T[T_F_NICONS + face]):
        act = T[T_F_ICON_ACT + face * MAX_ICONS + i]
        m = multiplier(S, T, pb, face, i, s)
        if act == ACT_PRODUCE:
            v += m * (W[W_U_PRODUCE] + depot_cube(W, _icon_column(S, T, pb, face, i, s)))
        elif act == ACT_DEVELOP:
            v += m * W[W_U_DEVELOP]
        elif act == ACT_TRANSMIT:
            v += m * W[W_U_TRANSMIT]
        elif act == ACT_RESEARCH:
            v += m * W[W_U_RESEARCH]
        elif act == ACT_INVEST:
            v += m * W[W_U_INVEST]
        elif act == ACT_PLAN:
            v += min(m, 1) * W[W_U_PLAN]
        elif act == ACT_ONGOING:
            v += W[W_U_OTHER]
        else:
            v += m * W[W_U_OTHER]
    return v


@njit(cache=True)
def _arrow_hits(S, T, pb, face, s, k):
    """Arrows of ``face`` at sector ``s`` slot ``k`` that reach a card (R8)."""
    tgt = left_sector(S, pb, s)
    if tgt < 0:
        return 0
    nt = S[pb + P_SEC_N + tgt]
    a = T[T_F_ARROWS + face]
    h = 0
    if a & ARROW_LEFT and k < nt:
        h += 1
    if a & ARROW_UP and 0 <= k - 1 < nt:
        h += 1
    if a & ARROW_DOWN and k + 1 < nt:
        h += 1
    return h


@njit(cache=True)
def engine_value(S, T, pb, W):
    """Value of one activation of every sector tile and card on the board, plus connected arrows."""
    v = 0.0
    for s in range(N_SECTORS):
        v += face_engine_value(S, T, pb, W, FACE_SECTOR + 2 * s + S[pb + P_SEC_SIDE + s], s)
        for k in range(S[pb + P_SEC_N + s]):
            face = S[pb + P_SEC_CARD + s * MAX_SLOTS + k]
            v += face_engine_value(S, T, pb, W, face, s)
            v += W[W_ARROW] * _arrow_hits(S, T, pb, face, s, k)
    return v


@njit(cache=True)
def demand_value(S, T, pb, W, level):
    """Reward value of fulfilling the demand card of ``level`` now (with priority rewards for a
    player's first two, and the next bonus star in solo play)."""
    d = S[S_DEMAND + level]
    n = T[T_D_NREW + 2 * d]
    if S[pb + P_NFULFILLED] < MAX_PRIORITY:
        n += T[T_D_NREW + 2 * d + 1]
    v = 0.0
    for r in range(n):
        o = d * MAX_REWARDS + r
        v += reward_value(S, T, pb, W, T[T_D_REW_KIND + o], T[T_D_REW_VAL + o], T[T_D_REW_ARG + o])
    if S[S_SOLO] and (S[S_SOLO_BONUS] >> level) & 1:
        k = stars_claimed(S)
        for i in range(S[S_SOLO_NSTARS]):
            if S[S_STAR_STATE + i] == 0:
                v += W[W_SCORE] * (S[S_STAR_POINTS + k + 1] - S[S_STAR_POINTS + k])
                break
    return v


@njit(cache=True)
def demand_progress(S, T, pb, W):
    """Reward value of the two best unfulfilled demand cards, times their coverage raised to
    ``W_DEMAND_POWER``.  Coverage counts the required grid cubes, depot cubes of the required
    column (``W_DEPOT_COVER`` each) and depot cubes one column to its left (half that)."""
    best = 0.0
    second = 0.0
    for lv in range(N_LEVELS):
        if S[pb + P_FULFILLED + lv]:
            continue
        d = S[S_DEMAND + lv]
        need = 0
        have = 0.0
        for j in range(MAX_REQ):
            col = T[T_D_REQ_COL + d * MAX_REQ + j]
            if col < 0:
                continue
            n = T[T_D_REQ_N + d * MAX_REQ + j]
            need += n
            g = min(S[pb + P_GRID + col], n)
            dc = min(S[pb + P_DEPOT + col], n - g)
            have += g + W[W_DEPOT_COVER] * dc
            if col > 0:
                have += 0.5 * W[W_DEPOT_COVER] * min(S[pb + P_DEPOT + col - 1], n - g - dc)
        if need == 0:
            continue
        cov = have / need
        v = demand_value(S, T, pb, W, lv) * cov ** W[W_DEMAND_POWER]
        if v > best:
            second = best
            best = v
        elif v > second:
            second = v
    return W[W_DEMAND] * (best + W[W_DEMAND_SECOND] * second)


@njit(cache=True)
def _charge_pending_sector(S, q, plan_phase):
    """The sector player ``q`` will still charge (and then reset) this round, or NO_SECTOR."""
    qb = pbase(q)
    if plan_phase:
        return S[qb + P_PLAN] if S[qb + P_PLAN] >= 0 else NO_SECTOR
    if S[S_ROUND] < 1 or S[qb + P_CHOSEN] < 0:
        return NO_SECTOR
    cur = S[S_CUR]
    if q > cur:
        return S[qb + P_CHOSEN]
    if q == cur:
        for i in range(S[S_SP]):
            if S[S_STACK + i * FRAME] == FT_CHARGE:
                return S[qb + P_CHOSEN]
    return NO_SECTOR


@njit(cache=True)
def _reset_pending_sector(S, q, plan_phase):
    """The sector player ``q`` will still move back to column 0 (R17), or NO_SECTOR."""
    qb = pbase(q)
    if plan_phase:
        if S[S_ROUND] + 1 >= N_ROUNDS or S[qb + P_PLAN] < 0:
            return NO_SECTOR
        return S[qb + P_PLAN]
    if S[S_ROUND] < 1 or S[S_ROUND] >= N_ROUNDS or S[qb + P_CHOSEN] < 0 or q < S[S_CUR]:
        return NO_SECTOR
    return S[qb + P_CHOSEN]


@njit(cache=True)
def _pending_frames_value(S, T, pb, W, tally, plan_phase):
    """Value of the decisions the player on turn still holds on the stack."""
    v = 0.0
    hand_room = max(MAX_HAND - S[pb + P_HAND_N], 0)
    for i in range(S[S_SP]):
        f = S_STACK + i * FRAME
        ft = S[f]
        if ft == FT_PAY:
            v -= W[W_OWED] * S[f + FR_B]
        elif ft == FT_PLACE_SECTOR or ft == FT_PLACE_SLOT:
            face = S[f + FR_A]
            best = -1e9
            for s in range(N_SECTORS):
                if ft == FT_PLACE_SLOT and s != S[f + FR_C]:
                    continue
                if ft == FT_PLACE_SECTOR and S[pb + P_SEC_N + s] >= MAX_SLOTS:
                    continue
                x = face_engine_value(S, T, pb, W, face, s)
                if x > best:
                    best = x
            if best > -1e9:
                v += best * _future_charges(S, plan_phase) * W[W_ENGINE]
        elif ft == FT_CARD_CHOICE:
            v += W[W_FREE_CARD] * S[f + FR_A]
        elif ft == FT_FLIP:
            v += W[W_RW_SECTOR]
        elif ft == FT_BT_PICK:
            v += W[W_BT_PICK]
        elif ft == FT_RESEARCH:
            v += W[W_RESEARCH_STEP] * S[f + FR_A]
        elif ft == FT_BOOST:
            v += W[W_BOOST]
        elif ft == FT_REWARD:
            src = S[f + FR_A]
            sid = S[f + FR_B]
            n = reward_count(T, src, sid, S[f + FR_D])
            for r in range(n):
                if not (S[f + FR_C] >> r) & 1:
                    kind, val, arg = reward_entry(T, src, sid, r)
                    v += reward_value(S, T, pb, W, kind, val, arg)
        elif ft == FT_ITEM:
            tally[:] = 0.0
            _tally_face(S, T, pb, W, S[f + FR_A], S[f + FR_B], S[f + FR_C], tally)
            v += W[W_CHARGED] * _tally_value(S, pb, W, tally, 0)
        elif ft == FT_ICON:
            c = S[f + FR_C]
            uses = S[f + FR_D]
            tally[:] = 0.0
            if c < ICON_FOLLOW_UP:
                _add_uses(S, T, pb, W, S[f + FR_A], c, S[f + FR_B], uses, tally)
            else:
                tally[TL_OTHER] += uses
            v += W[W_CHARGED] * _tally_value(S, pb, W, tally, 0)
            queued = min(S[f + FR_F], hand_room)
            v += queued * W[W_HAND]
    return v


@njit(cache=True)
def _future_charges(S, plan_phase):
    """Charges one sector can expect in the rounds after the current one."""
    left = N_ROUNDS - S[S_ROUND] - (1 if plan_phase else 0)
    if left < 0:
        left = 0
    return left / CHARGES_PER_SECTOR


@njit(cache=True)
def _hand_value(S, T, pb, W):
    fut = (N_ROUNDS - S[S_ROUND]) / N_ROUNDS
    v = 0.0
    for h in range(S[pb + P_HAND_N]):
        card = S[pb + P_HAND + h]
        keep = fut * (W[W_HAND] + W[W_HAND_COST] * T[T_F_COST + card]) if card >= 0 else fut * W[W_HAND]
        bonus = W[W_RESEARCH_STEP] if card >= 0 and T[T_IND_DECK + card] == 1 else depot_cube(W, 0)
        v += max(keep, bonus)
    return v


@njit(cache=True)
def evaluate(S, T, q, W, tally, scratch):
    """Value of state ``S`` to player ``q`` in energy-point equivalents (see the module table).

    ``tally`` (float64, N_TALLY) and ``scratch`` (int64, S_SIZE) are work space."""
    qb = pbase(q)
    if S[S_TERMINAL]:
        v = W[W_SCORE] * S[qb + P_SCORE]
        if S[S_SOLO]:
            v += W[W_SCORE] * S[S_STAR_POINTS + stars_claimed(S)]
        return v + 1e-3 * covered_count(S, qb) + 1e-4 * S[qb + P_RESEARCH] + 1e-6 * cube_value(S, T, qb)
    t = top(S)
    plan_phase = t >= 0 and S[t] == FT_PLAN
    v = W[W_SCORE] * S[qb + P_SCORE]
    if S[S_SOLO]:
        v += W[W_SCORE] * S[S_STAR_POINTS + stars_claimed(S)]
    if covered_count(S, qb) < N_BT_SPACES:
        v += W[W_RESEARCH_STEP] * S[qb + P_RESEARCH]
    final = S[S_ROUND] == N_ROUNDS and q == S[S_CUR] and S[t] == FT_FULFILL
    if final:
        return v   # the last Fulfill step of the game: only points and research count now
    v += W[W_CLEAN_TOKEN] * S[qb + P_CLEAN]
    for c in range(N_COLS):
        v += S[qb + P_DEPOT + c] * depot_cube(W, c)
        v += S[qb + P_GRID + c] * (W[W_GRID_BASE] + W[W_GRID_COL] * c)
    v += demand_progress(S, T, qb, W)
    v += _hand_value(S, T, qb, W)
    # charges still to use this round (placed, or about to be placed by the pending Charge)
    cs = _charge_pending_sector(S, q, plan_phase)
    if cs >= 0:
        v += W[W_CHARGED] * _planned_charge_value(S, T, qb, W, cs, tally, scratch)
    else:
        tally, produced = charged_value(S, T, qb, W, tally)
        v += W[W_CHARGED] * _tally_value(S, qb, W, tally, produced)
    if q == S[S_CUR]:
        v += _pending_frames_value(S, T, qb, W, tally, plan_phase)
    # the engine, where it will stand after this round's reset
    rs = _reset_pending_sector(S, q, plan_phase)
    # Only a sector already dialled (valued above as this round's charge) takes the coming round
    # out of the future: at the Plan step that follows the last turn of a round nobody has
    # dialled yet, and every player still has all the rounds after the current one ahead, as
    # they had a moment before.  (Counting one round less there would make ending the turn look
    # worse than any other action for the last seat only, which would then dump its hand and
    # grid into research every round: a seat bias; tests/test_search.py checks it.)
    fc = _future_charges(S, plan_phase and S[qb + P_PLAN] >= 0)
    if fc > 0:
        if rs >= 0:
            for i in range(P_SIZE):
                scratch[qb + i] = S[qb + i]
            move_sector(scratch, qb, rs, 0)
            v += W[W_ENGINE] * fc * engine_value(scratch, T, qb, W)
        else:
            v += W[W_ENGINE] * fc * engine_value(S, T, qb, W)
    return v


@njit(cache=True)
def search_value(S, T, p, W, tally, scratch):
    """Search value of ``S`` for player ``p`` in [0, 1] (multi-player: from the margin over the
    best other player; solo: from the evaluation against the scenario target)."""
    mine = evaluate(S, T, p, W, tally, scratch)
    n = S[S_NPLAYERS]
    if n == 1:
        return 0.5 + 0.5 * np.tanh((mine - S[S_SOLO_TARGET]) / (4.0 * W[W_VALUE_SCALE]))
    other = -1e18
    for q in range(n):
        if q != p:
            x = evaluate(S, T, q, W, tally, scratch)
            if x > other:
                other = x
    return 0.5 + 0.5 * np.tanh((mine - other) / W[W_VALUE_SCALE])


# ----------------------------------------------------------------------------------------------
# The greedy one-ply policy
# ----------------------------------------------------------------------------------------------
@njit(cache=True)
def _order_rank(T, face, used):
    """Discharge order preference of an item: produce/invest first, transmit last."""
    best = 0
    for i in range(T[T_F_NICONS + face]):
        if (used >> i) & 1:
            continue
        act = T[T_F_ICON_ACT + face * MAX_ICONS + i]
        r = 0
        if act == ACT_PRODUCE or act == ACT_INVEST:
            r = 3
        elif act == ACT_RESEARCH or act == ACT_PLAN:
            r = 2
        elif act == ACT_DEVELOP:
            r = 1
        if r > best:
            best = r
    return best


@njit(cache=True)
def _order_bonus(S, T, W, a):
    """A small preference among near-equal actions: discharge and use produce / invest icons
    before develop, and develop before transmit (cubes must exist before they move)."""
    pb = pbase(S[S_CUR])
    t = top(S)
    if A_DIS_SECTOR <= a < A_DIS_CARD:
        s = a - A_DIS_SECTOR
        return W[W_ORDER] * _order_rank(T, FACE_SECTOR + 2 * s + S[pb + P_SEC_SIDE + s], 0)
    if A_DIS_CARD <= a < A_ICON:
        x = a - A_DIS_CARD
        face = S[pb + P_SEC_CARD + x]
        return W[W_ORDER] * _order_rank(T, face, 0)
    if A_ICON <= a < A_ICON + MAX_ICONS and S[t] == FT_ITEM:
        i = a - A_ICON
        face = S[t + FR_A]
        return W[W_ORDER] * _order_rank(T, face, ~(1 << i))
    return 0.0


@njit(cache=True)
def anytime_relevant(S, T):
    """Are the any-time actions (R13) worth weighing at this decision?  At Acquire (a discard
    may bring the cube a purchase needs), during an invest icon (room in hand), at Fulfill (research from spare
    cubes) and in the last round."""
    t = top(S)
    ft = S[t]
    if S[S_ROUND] >= N_ROUNDS:
        return True
    if ft == FT_ACQUIRE or ft == FT_FULFILL:
        return True
    return ft == FT_ICON and icon_action(S, T) == ACT_INVEST


@njit(cache=True)
def greedy_values(S, T, W, mask, anytime, vals, work, tally, scratch):
    """One-ply lookahead: ``vals[a]`` = evaluation for the player on turn after legal action
    ``a`` (plus the small order bonus); -inf for illegal or skipped ids.  Any-time actions are
    weighed only where they can matter unless ``anytime == ANYTIME_ALWAYS``.  Returns the number
    of actions valued."""
    p = S[S_CUR]
    use_anytime = anytime == ANYTIME_ALWAYS or anytime_relevant(S, T)
    k = 0
    for a in range(N_ACTIONS):
        vals[a] = -np.inf
        if not mask[a]:
            continue
        if not use_anytime and A_DISCARD <= a < A_DISCARD_MULT:
            continue
        work[:] = S
        apply_action(work, T, a)
        vals[a] = evaluate(work, T, p, W, tally, scratch) + _order_bonus(S, T, W, a)
        k += 1
    if k == 0:  # only any-time actions are legal: weigh them after all
        for a in range(A_DISCARD, A_DISCARD_MULT):
            if mask[a]:
                work[:] = S
                apply_action(work, T, a)
                vals[a] = evaluate(work, T, p, W, tally, scratch)
                k += 1
    return k


@njit(cache=True)
def greedy_pick(S, T, W, mask, anytime, vals, work, tally, scratch):
    """The greedy action: the legal id of highest one-ply value (lowest id on ties)."""
    n = fill_mask(S, T, mask)
    if n == 1:
        for a in range(N_ACTIONS):
            if mask[a]:
                return a
    greedy_values(S, T, W, mask, anytime, vals, work, tally, scratch)
    best = -1
    bv = -np.inf
    for a in range(N_ACTIONS):
        if vals[a] > bv:
            bv = vals[a]
            best = a
    return best


PRIOR_CLIP = 20.0
"""Range of :func:`greedy_prior`: an action valued ``PRIOR_CLIP`` or more below the best one
gets 0, as do the actions greedy does not value."""


@njit(cache=True)
def greedy_prior(D, T, W, mask, out, vals, work, tally, scratch):
    """Greedy's one-ply values of the legal actions of the player to move in ``D`` (a
    determinized state, or the true one), as a logit prior for a policy network
    (``electrify_env.agents.net.PolicyValueNet`` with ``prior: greedy``): ``out[a]`` = max(0, PRIOR_CLIP -
    (best value - value(a))), so greedy's pick gets ``PRIOR_CLIP`` and the order near the top
    is kept whole; 0 for illegal ids, for the any-time actions greedy skips at this decision
    (``ANYTIME_SOME``) and for every id of a forced move.  ``mask`` is refilled; the other
    buffers are overwritten."""
    n = fill_mask(D, T, mask)
    out[:] = 0.0
    if n <= 1:
        return
    greedy_values(D, T, W, mask, np.int64(ANYTIME_SOME), vals, work, tally, scratch)
    hi = -np.inf
    for a in range(N_ACTIONS):
        if vals[a] > hi:
            hi = vals[a]
    for a in range(N_ACTIONS):
        if vals[a] > -np.inf:
            out[a] = max(0.0, PRIOR_CLIP - (hi - vals[a]))


@njit(cache=True)
def infoset_prior(info, T, W, seed, out, mask, det, vals, work, tally, scratch):
    """:func:`greedy_prior` for the player to move in the scrubbed information set ``info``
    (R26), from one determinization of it seeded by ``seed`` (into ``det``)."""
    determinize(info, T, info[S_CUR], seed, det)
    greedy_prior(det, T, W, mask, out, vals, work, tally, scratch)


@njit(cache=True)
def greedy_rollout(S, T, W, p_explore, stop_round, mask, vals, work, tally, scratch):
    """Play ``S`` with the greedy policy (a phase-first random action with chance
    ``p_explore``, drawn with the state's generator) until the game ends or a Plan step opens with
    ``S_ROUND >= stop_round``.  Returns the number of decisions played."""
    k = 0
    while S[S_TERMINAL] == 0 and k < SEARCH_STOP_DECISIONS:
        t = top(S)
        if S[t] == FT_PLAN and S[S_ROUND] >= stop_round and S[S_CUR] == 0:
            break
        n = fill_mask(S, T, mask)
        if p_explore > 0 and rng_below(S, S_RNG, 1_000_000) < p_explore * 1_000_000:
            a = pick_phase_first(S, mask, n)
        else:
            a = greedy_pick(S, T, W, mask, ANYTIME_SOME, vals, work, tally, scratch)
        apply_action(S, T, a)
        k += 1
    return k


@njit(cache=True)
def stop_round_for(S, horizon):
    """The ``stop_round`` of a rollout that looks ``horizon`` rounds ahead of ``S``: a search
    at Plan looks through the round being planned; one inside a round looks to its end, and
    each extra horizon round adds one more."""
    t = top(S)
    if S[t] == FT_PLAN:
        return S[S_ROUND] + horizon
    return S[S_ROUND] + horizon - 1


@njit(cache=True)
def flat_search(P, T, p, W, cands, n_cands, iters, seed, horizon, c_ucb, visits, totals):
    """Determinized flat Monte Carlo search with UCB1 at the root (information-set safe).

    ``P`` is the scrubbed view of seat ``p`` (:func:`.infoset.scrub`).  Each iteration samples
    the hidden information with :func:`.infoset.determinize` (seed ``seed + iteration``), picks a
    root candidate by UCB1 (each tried once first), applies it, plays greedy rollouts for
    ``horizon`` rounds (see :func:`stop_round_for`) and scores the result with
    :func:`search_value`.  ``visits`` / ``totals`` (length ``n_cands``) accumulate the statistics
    and may hold those of earlier calls, so a time budget can run it in chunks."""
    D = np.empty(S_SIZE, dtype=np.int64)
    work = np.empty(S_SIZE, dtype=np.int64)
    scratch = np.empty(S_SIZE, dtype=np.int64)
    mask = np.zeros(N_ACTIONS, dtype=np.uint8)
    vals = np.empty(N_ACTIONS, dtype=np.float64)
    tally = np.zeros(N_TALLY, dtype=np.float64)
    stop = stop_round_for(P, horizon)
    done = 0
    for v in visits[:n_cands]:
        done += v
    for it in range(iters):
        arm = -1
        for j in range(n_cands):
            if visits[j] == 0:
                arm = j
                break
        if arm < 0:
            lg = np.log(done + 1.0)
            bu = -np.inf
            for j in range(n_cands):
                u = totals[j] / visits[j] + c_ucb * np.sqrt(lg / visits[j])
                if u > bu:
                    bu = u
                    arm = j
        determinize(P, T, p, seed + it, D)
        apply_action(D, T, cands[arm])
        greedy_rollout(D, T, W, W[W_EXPLORE], stop, mask, vals, work, tally, scratch)
        visits[arm] += 1
        totals[arm] += search_value(D, T, p, W, tally, scratch)
        done += 1
    return done


@njit(cache=True)
def paired_search(P, T, p, W, cands, n_cands, n_det, seed, horizon, totals):
    """Determinized Monte Carlo search with paired samples (information-set safe).

    For each of ``n_det`` determinizations of the scrubbed view ``P`` (seeds ``seed``,
    ``seed + 1``, ...), every root candidate is applied to its own copy of the *same* sample and
    played on with greedy rollouts for ``horizon`` rounds (:func:`stop_round_for`), then scored with
    :func:`search_value` into ``totals``.  Comparing all candidates on the same samples (common
    random numbers) removes most of the noise of the hidden cards from the comparison.  Returns
    the number of rollouts played."""
    D = np.empty(S_SIZE, dtype=np.int64)
    R = np.empty(S_SIZE, dtype=np.int64)
    work = np.empty(S_SIZE, dtype=np.int64)
    scratch = np.empty(S_SIZE, dtype=np.int64)
    mask = np.zeros(N_ACTIONS, dtype=np.uint8)
    vals = np.empty(N_ACTIONS, dtype=np.float64)
    tally = np.zeros(N_TALLY, dtype=np.float64)
    stop = stop_round_for(P, horizon)
    done = 0
    for it in range(n_det):
        determinize(P, T, p, seed + it, D)
        for j in range(n_cands):
            R[:] = D
            apply_action(R, T, cands[j])
            greedy_rollout(R, T, W, W[W_EXPLORE], stop, mask, vals, work, tally, scratch)
            totals[j] += search_value(R, T, p, W, tally, scratch)
            done += 1
    return done
