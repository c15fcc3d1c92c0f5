"""Observation vector of one player (R26: own hand, others' hand sizes, deck sizes, never another
player's pending plan choice).

The layout is allocated by :class:`~electrify_env.engine.layout._Layout` like the state, so the
feature names (``feature_names()``) and the offsets the jitted writer uses come from one table.
Values are scaled to about [0, 1].  Faces (cards, sector sides) are described by a per-card-set
feature table ``FF`` (``face_features``), built once when the card set loads.
"""
import numpy as np
from numba import njit

from .layout import (
    _Layout, ACT_DEVELOP, ACT_INVEST, ACT_PLAN, ACT_PRODUCE, ACT_RESEARCH, ACT_TRANSMIT,
    ACT_ONGOING, MULT_DISCARD, MULT_SECTORS, ARROW_DOWN, ARROW_LEFT, ARROW_UP, FACE_BASIC, FR_A, FR_B, FR_C, FR_D, FT_ICON, FT_ITEM,
    FT_PAY, FT_PLACE_SECTOR, FT_PLACE_SLOT, FT_CARD_CHOICE, FT_REWARD, KIND_BASIC,
    KIND_INFRASTRUCTURE, KIND_PRODUCTION, KIND_SECTOR, MAX_BASIC, MAX_DECK, MAX_HAND, MAX_ICONS,
    MAX_PLAYERS, MAX_REQ, MAX_REWARDS, MAX_SLOTS, MULT_CLEAN, MULT_DIRTY, MULT_SIMPLE,
    N_BT_SPACES, N_COLS, N_FRAME_TYPES, N_LEVELS, N_ROUNDS, N_SECTORS, P_BT, P_CARD_CHARGED,
    P_CHOSEN, P_CLEAN, P_DEPOT, P_FULFILLED, P_GRID, P_HAND, P_HAND_N, P_NFULFILLED, P_PLAN,
    P_RESEARCH, P_SCORE, P_SEC_CARD, P_SEC_CHARGED, P_SEC_COL, P_SEC_N, P_SEC_SIDE,
    PRODUCE_HERE, RESEARCH_TRACK, RW_CLEAN, RW_INDUSTRY, RW_POINTS, RW_PRODUCE, RW_SECTOR,
    S_BASIC, S_CUR, S_DECK_N, S_DEMAND, S_DISC_N, S_NPLAYERS, S_ROUND, S_SP, S_STACK, FRAME,
    T_D_NREW, T_D_REQ_COL, T_D_REQ_N, T_D_REW_KIND, T_D_REW_VAL, T_F_ARROWS, T_F_COST,
    T_F_ICON_ACT, T_F_ICON_ARG, T_F_ICON_MK, T_F_ICON_MV, T_F_KIND, T_F_NICONS, MAX_FACES,
    FACE_SECTOR, FT_DISCARD_PAY, FT_ONGOING, ICON_FOLLOW_UP, MAX_CHALLENGES, MAX_SCENARIO_STARS,
    N_CH_CODES, P_SOLO_TOKEN, S_BAG, S_CH_A, S_CH_COND, S_CH_MET, S_SOLO, S_SOLO_BONUS, S_SOLO_NCH,
    S_SOLO_NSTARS, S_SOLO_TARGET, S_STAR_POINTS, S_STAR_ROUND, S_STAR_STATE,
)
from .research import covered_count
from .stack import pbase

OBS_VERSION = 1

# ---- face features ---------------------------------------------------------------------------
_ACTS = ((ACT_PRODUCE, "produce"), (ACT_DEVELOP, "develop"), (ACT_TRANSMIT, "transmit"),
         (ACT_RESEARCH, "research"), (ACT_INVEST, "invest"), (ACT_PLAN, "plan"))
_ff = _Layout("face features")
FF_PRESENT = _ff.field("present", 1, "a card is there")
FF_COST = _ff.field("cost", 1, "cost / 8")
FF_KIND = _ff.field("kind", 4, "production, infrastructure, basic, sector")
FF_ARROW = _ff.field("arrow", 3, "arrows left, up, down")
FF_ACT = _ff.field("act", 3 * len(_ACTS), "per action: simple value / 3, clean icon, dirty icon")
FF_PROD_COL = _ff.field("produce_col", 1, "mean printed produce column / 6")
FF_PROD_HERE = _ff.field("produce_here", 1, "has a produce-here icon")
FF_TECH = _ff.field("tech", 3, "sectors-multiplier icons, discard-multiplier icons, ongoing icons")
NF = _ff.size
FACE_FEATURE_NAMES = (
    ["present", "cost", "kind_production", "kind_infrastructure", "kind_basic", "kind_sector",
     "arrow_left", "arrow_up", "arrow_down"]
    + [f"{name}_{m}" for _, name in _ACTS for m in ("simple", "clean", "dirty")]
    + ["produce_col", "produce_here", "mult_sectors", "mult_discard", "ongoing"]
)


def face_features(T):
    """Build the (MAX_FACES, NF) float32 table describing every face of a compiled card set."""
    FF = np.zeros((MAX_FACES, NF), dtype=np.float32)
    kinds = {KIND_PRODUCTION: 0, KIND_INFRASTRUCTURE: 1, KIND_BASIC: 2, KIND_SECTOR: 3}
    for f in range(MAX_FACES):
        kind = int(T[T_F_KIND + f])
        if kind == 0:
            continue
        FF[f, FF_PRESENT] = 1.0
        FF[f, FF_COST] = T[T_F_COST + f] / 8.0
        FF[f, FF_KIND + kinds[kind]] = 1.0
        ar = int(T[T_F_ARROWS + f])
        FF[f, FF_ARROW + 0] = float(ar & ARROW_LEFT > 0)
        FF[f, FF_ARROW + 1] = float(ar & ARROW_UP > 0)
        FF[f, FF_ARROW + 2] = float(ar & ARROW_DOWN > 0)
        cols = []
        for i in range(int(T[T_F_NICONS + f])):
            o = f * MAX_ICONS + i
            act = int(T[T_F_ICON_ACT + o])
            for j, (code, _) in enumerate(_ACTS):
                if code != act:
                    continue
                mk = int(T[T_F_ICON_MK + o])
                if mk == MULT_SIMPLE:
                    FF[f, FF_ACT + 3 * j] += T[T_F_ICON_MV + o] / 3.0
                elif mk == MULT_CLEAN:
                    FF[f, FF_ACT + 3 * j + 1] += 1.0
                elif mk == MULT_DIRTY:
                    FF[f, FF_ACT + 3 * j + 2] += 1.0
                elif mk == MULT_SECTORS:
                    FF[f, FF_TECH] += 1.0
                elif mk == MULT_DISCARD:
                    FF[f, FF_TECH + 1] += 1.0
            if act == ACT_ONGOING:
                FF[f, FF_TECH + 2] += 1.0
            if act == ACT_PRODUCE:
                if T[T_F_ICON_ARG + o] == PRODUCE_HERE:
                    FF[f, FF_PROD_HERE] = 1.0
                else:
                    cols.append(T[T_F_ICON_ARG + o] / 6.0)
        if cols:
            FF[f, FF_PROD_COL] = float(np.mean(cols))
    return FF


# ---- observation layout ----------------------------------------------------------------------
_o = _Layout("observation")
O_ROUND = _o.field("round", 1, "round / 12")
O_NPLAYERS = _o.field("n_players", MAX_PLAYERS, "one-hot player count")
O_DECK = _o.field("deck_size", 2, "production / infrastructure deck sizes / 64")
O_DISC = _o.field("discard_size", 2, "discard pile sizes / 64")
O_BASIC = _o.field("basic_supply", MAX_BASIC, "basic card still in the supply")
O_DEMAND_REQ = _o.field("demand_req", N_LEVELS * N_COLS, "demand of each level: cubes per column / 6")
O_DEMAND_REW = _o.field("demand_rew", N_LEVELS * 10, "per level, basic then priority: points/5, industry/8, sector, clean, produce")
O_FRAME = _o.field("pending", N_FRAME_TYPES, "one-hot type of the pending decision")
O_PEND_FACE = _o.field("pending_face", NF, "face being bought, placed or discharged")
O_PEND_ICON = _o.field("pending_icon", MAX_ICONS, "icon being used (one-hot)")
O_PEND_NUM = _o.field("pending_num", 4, "uses left / 10, value owed / 10, reward budget / 8, reward slots taken / 6")
O_HAND = _o.field("hand", MAX_HAND * NF, "own hand cards (ascending ids)")
O_OWN_PLAN = _o.field("own_plan", N_SECTORS, "own secret sector choice this round")
O_SOLO = _o.field("solo", 2, "solo game; target / 60")
O_SOLO_BONUS = _o.field("solo_bonus", N_LEVELS, "bonus reward token on the demand level")
O_STARS = _o.field("stars", 3 * MAX_SCENARIO_STARS, "per star: round / 12, still above the track, claimed")
O_STAR_POINTS = _o.field("star_points", 2, "points of the stars claimed / 20; of one more star / 20")
O_CH = _o.field("challenges", MAX_CHALLENGES * (N_CH_CODES + 2), "per challenge: condition one-hot, parameter / 10, met")
O_TOKENS = _o.field("tokens", 2 * N_SECTORS + 2, "boost token on each sector (innovation, collaboration); bag / 3")
_PLAYER_FIELDS = (
    ("depot", N_COLS, "depot cubes / 10"),
    ("grid", N_COLS, "grid cubes / 10"),
    ("research", 1, "marker / 6"),
    ("bt", N_BT_SPACES, "breakthrough spaces covered"),
    ("clean", 1, "clean tokens / 5"),
    ("score", 1, "energy points / 50"),
    ("fulfilled", N_LEVELS, "demand levels fulfilled"),
    ("priority_left", 1, "priority cubes left / 2"),
    ("hand_size", 1, "hand size / 9"),
    ("chosen", N_SECTORS, "revealed sector choice this round (one-hot)"),
    ("sec_col", N_SECTORS * N_COLS, "sector columns (one-hot)"),
    ("sec_side", N_SECTORS, "sector on side B"),
    ("sec_charged", N_SECTORS, "sector tile charged"),
    ("sec_n", N_SECTORS, "cards on the sector / 5"),
    ("card_charged", N_SECTORS * MAX_SLOTS, "card charged"),
    ("cards", N_SECTORS * MAX_SLOTS * NF, "cards on the sectors"),
    ("sec_face", N_SECTORS * NF, "sector tile faces"),
)
O_PLAYERS = _o.size
PL_OFF = {}
_acc = 0
for _name, _n, _m in _PLAYER_FIELDS:
    PL_OFF[_name] = _acc
    _acc += _n
PL_SIZE = _acc
PL_DEPOT = PL_OFF["depot"]
PL_GRID = PL_OFF["grid"]
PL_RESEARCH = PL_OFF["research"]
PL_BT = PL_OFF["bt"]
PL_CLEAN = PL_OFF["clean"]
PL_SCORE = PL_OFF["score"]
PL_FULFILLED = PL_OFF["fulfilled"]
PL_PRIO = PL_OFF["priority_left"]
PL_HAND_N = PL_OFF["hand_size"]
PL_CHOSEN = PL_OFF["chosen"]
PL_SEC_COL = PL_OFF["sec_col"]
PL_SEC_SIDE = PL_OFF["sec_side"]
PL_SEC_CHARGED = PL_OFF["sec_charged"]
PL_SEC_N = PL_OFF["sec_n"]
PL_CARD_CHARGED = PL_OFF["card_charged"]
PL_CARDS = PL_OFF["cards"]
PL_SEC_FACE = PL_OFF["sec_face"]
for _k in range(MAX_PLAYERS):
    _o.field(f"p{_k}", PL_SIZE, "player block, seats relative to the observer (p0 = self)")
OBS_SIZE = _o.size


def feature_names():
    """Names of the observation entries, in order (length OBS_SIZE)."""
    names = ["round"] + [f"n_players_{k + 1}" for k in range(MAX_PLAYERS)]
    names += ["deck_production", "deck_infrastructure", "discard_production", "discard_infrastructure"]
    names += [f"basic_supply_{b}" for b in range(MAX_BASIC)]
    names += [f"demand_L{lv + 1}_req_c{c}" for lv in range(N_LEVELS) for c in range(N_COLS)]
    rew = ["points", "industry", "sector", "clean", "produce"]
    names += [f"demand_L{lv + 1}_{part}_{r}" for lv in range(N_LEVELS) for part in ("basic", "priority") for r in rew]
    names += [f"pending_type_{t}" for t in range(N_FRAME_TYPES)]
    names += [f"pending_face_{n}" for n in FACE_FEATURE_NAMES]
    names += [f"pending_icon_{i}" for i in range(MAX_ICONS)]
    names += ["pending_uses_left", "pending_owed", "pending_budget", "pending_rewards_taken"]
    names += [f"hand{h}_{n}" for h in range(MAX_HAND) for n in FACE_FEATURE_NAMES]
    names += [f"own_plan_s{s}" for s in range(N_SECTORS)]
    names += ["solo", "solo_target"]
    names += [f"solo_bonus_L{lv + 1}" for lv in range(N_LEVELS)]
    names += [f"star{i}_{x}" for i in range(MAX_SCENARIO_STARS) for x in ("round", "open", "claimed")]
    names += ["star_points_claimed", "star_points_next"]
    names += [f"challenge{c}_{x}" for c in range(MAX_CHALLENGES)
              for x in [f"cond{k}" for k in range(N_CH_CODES)] + ["param", "met"]]
    names += [f"token_s{s}_{x}" for s in range(N_SECTORS) for x in ("innovation", "collaboration")]
    names += ["bag_innovation", "bag_collaboration"]
    for k in range(MAX_PLAYERS):
        pre = f"p{k}_"
        names += [pre + f"depot_c{c}" for c in range(N_COLS)]
        names += [pre + f"grid_c{c}" for c in range(N_COLS)]
        names += [pre + "research"]
        names += [pre + f"bt{j}" for j in range(N_BT_SPACES)]
        names += [pre + "clean", pre + "score"]
        names += [pre + f"fulfilled_L{lv + 1}" for lv in range(N_LEVELS)]
        names += [pre + "priority_left", pre + "hand_size"]
        names += [pre + f"chosen_s{s}" for s in range(N_SECTORS)]
        names += [pre + f"s{s}_col{c}" for s in range(N_SECTORS) for c in range(N_COLS)]
        names += [pre + f"s{s}_side_b" for s in range(N_SECTORS)]
        names += [pre + f"s{s}_charged" for s in range(N_SECTORS)]
        names += [pre + f"s{s}_ncards" for s in range(N_SECTORS)]
        names += [pre + f"s{s}_slot{k2}_charged" for s in range(N_SECTORS) for k2 in range(MAX_SLOTS)]
        names += [pre + f"s{s}_slot{k2}_{n}" for s in range(N_SECTORS) for k2 in range(MAX_SLOTS) for n in FACE_FEATURE_NAMES]
        names += [pre + f"s{s}_tile_{n}" for s in range(N_SECTORS) for n in FACE_FEATURE_NAMES]
    assert len(names) == OBS_SIZE, (len(names), OBS_SIZE)
    return names


@njit(cache=True)
def _put_face(out, off, FF, face):
    if face < 0:
        return
    for j in range(NF):
        out[off + j] = FF[face, j]


@njit(cache=True)
def _observe_solo(S, out):
    out[O_SOLO] = 1.0
    out[O_SOLO + 1] = S[S_SOLO_TARGET] / 60.0
    for lv in range(N_LEVELS):
        out[O_SOLO_BONUS + lv] = (S[S_SOLO_BONUS] >> lv) & 1
    claimed = 0
    for i in range(S[S_SOLO_NSTARS]):
        out[O_STARS + 3 * i] = S[S_STAR_ROUND + i] / N_ROUNDS
        out[O_STARS + 3 * i + 1] = 1.0 if S[S_STAR_STATE + i] == 0 else 0.0
        out[O_STARS + 3 * i + 2] = 1.0 if S[S_STAR_STATE + i] == 1 else 0.0
        if S[S_STAR_STATE + i] == 1:
            claimed += 1
    out[O_STAR_POINTS] = S[S_STAR_POINTS + claimed] / 20.0
    if claimed < S[S_SOLO_NSTARS]:
        out[O_STAR_POINTS + 1] = S[S_STAR_POINTS + claimed + 1] / 20.0
    for c in range(S[S_SOLO_NCH]):
        o = O_CH + c * (N_CH_CODES + 2)
        out[o + S[S_CH_COND + c]] = 1.0
        out[o + N_CH_CODES] = S[S_CH_A + c] / 10.0
        out[o + N_CH_CODES + 1] = S[S_CH_MET + c]
    pb = pbase(0)
    for s in range(N_SECTORS):
        tok = S[pb + P_SOLO_TOKEN + s]
        if tok > 0:
            out[O_TOKENS + 2 * s + tok - 1] = 1.0
    out[O_TOKENS + 2 * N_SECTORS] = S[S_BAG] / 3.0
    out[O_TOKENS + 2 * N_SECTORS + 1] = S[S_BAG + 1] / 3.0


@njit(cache=True)
def observe(S, T, FF, p, out):
    """Write player ``p``'s observation into ``out`` (float32, length OBS_SIZE)."""
    out[:] = 0.0
    n = S[S_NPLAYERS]
    out[O_ROUND] = S[S_ROUND] / N_ROUNDS
    out[O_NPLAYERS + n - 1] = 1.0
    for d in range(2):
        out[O_DECK + d] = S[S_DECK_N + d] / 64.0
        out[O_DISC + d] = S[S_DISC_N + d] / 64.0
    for b in range(MAX_BASIC):
        out[O_BASIC + b] = S[S_BASIC + b]
    for lv in range(N_LEVELS):
        dc = S[S_DEMAND + lv]
        for j in range(MAX_REQ):
            col = T[T_D_REQ_COL + dc * MAX_REQ + j]
            if col >= 0:
                out[O_DEMAND_REQ + lv * N_COLS + col] += T[T_D_REQ_N + dc * MAX_REQ + j] / 6.0
        nb = T[T_D_NREW + 2 * dc]
        npr = T[T_D_NREW + 2 * dc + 1]
        for j in range(nb + npr):
            part = 0 if j < nb else 5
            kind = T[T_D_REW_KIND + dc * MAX_REWARDS + j]
            val = T[T_D_REW_VAL + dc * MAX_REWARDS + j]
            o = O_DEMAND_REW + lv * 10 + part
            if kind == RW_POINTS:
                out[o] += val / 5.0
            elif kind == RW_INDUSTRY:
                out[o + 1] += val / 8.0
            elif kind == RW_SECTOR:
                out[o + 2] += 1.0
            elif kind == RW_CLEAN:
                out[o + 3] += val
            elif kind == RW_PRODUCE:
                out[o + 4] += val / 5.0
    # pending decision: only the observer's own (another player's secret plan never shows)
    sp = S[S_SP]
    if sp > 0 and S[S_CUR] == p:
        t = S_STACK + (sp - 1) * FRAME
        ft = S[t]
        out[O_FRAME + ft] = 1.0
        if ft == FT_ITEM or ft == FT_ICON or ft == FT_PAY or ft == FT_PLACE_SECTOR or ft == FT_PLACE_SLOT:
            _put_face(out, O_PEND_FACE, FF, S[t + FR_A])
        if ft == FT_ICON:
            out[O_PEND_ICON + S[t + FR_C] % ICON_FOLLOW_UP] = 1.0
            out[O_PEND_NUM] = S[t + FR_D] / 10.0
        if ft == FT_PAY:
            out[O_PEND_NUM + 1] = S[t + FR_B] / 10.0
        if ft == FT_CARD_CHOICE:
            out[O_PEND_NUM + 2] = S[t + FR_A] / 8.0
        if ft == FT_ONGOING:
            _put_face(out, O_PEND_FACE, FF, S[t + FR_A])
            out[O_PEND_NUM] = S[t + FR_D] / 10.0
        if ft == FT_DISCARD_PAY:
            out[O_PEND_NUM] = S[t - FRAME + FR_D] / 10.0
            _put_face(out, O_PEND_FACE, FF, S[t - FRAME + FR_A])
        if ft == FT_REWARD:
            c = S[t + FR_C]
            k = 0
            while c:
                k += c & 1
                c >>= 1
            out[O_PEND_NUM + 3] = k / 6.0
    if S[S_SOLO]:
        _observe_solo(S, out)
    pbo = pbase(p)
    for h in range(S[pbo + P_HAND_N]):
        _put_face(out, O_HAND + h * NF, FF, S[pbo + P_HAND + h])
    if S[pbo + P_PLAN] >= 0:
        out[O_OWN_PLAN + S[pbo + P_PLAN]] = 1.0
    for r in range(n):
        q = (p + r) % n
        pb = pbase(q)
        o = O_PLAYERS + r * PL_SIZE
        for c in range(N_COLS):
            out[o + PL_DEPOT + c] = S[pb + P_DEPOT + c] / 10.0
            out[o + PL_GRID + c] = S[pb + P_GRID + c] / 10.0
        out[o + PL_RESEARCH] = S[pb + P_RESEARCH] / RESEARCH_TRACK
        for j in range(N_BT_SPACES):
            out[o + PL_BT + j] = S[pb + P_BT + j]
        out[o + PL_CLEAN] = S[pb + P_CLEAN] / 5.0
        out[o + PL_SCORE] = S[pb + P_SCORE] / 50.0
        for lv in range(N_LEVELS):
            out[o + PL_FULFILLED + lv] = S[pb + P_FULFILLED + lv]
        out[o + PL_PRIO] = max(0, 2 - S[pb + P_NFULFILLED]) / 2.0
        out[o + PL_HAND_N] = S[pb + P_HAND_N] / 9.0
        if S[pb + P_CHOSEN] >= 0:
            out[o + PL_CHOSEN + S[pb + P_CHOSEN]] = 1.0
        for s in range(N_SECTORS):
            out[o + PL_SEC_COL + s * N_COLS + S[pb + P_SEC_COL + s]] = 1.0
            out[o + PL_SEC_SIDE + s] = S[pb + P_SEC_SIDE + s]
            out[o + PL_SEC_CHARGED + s] = S[pb + P_SEC_CHARGED + s]
            out[o + PL_SEC_N + s] = S[pb + P_SEC_N + s] / 5.0
            _put_face(out, o + PL_SEC_FACE + s * NF, FF, FACE_SECTOR + 2 * s + S[pb + P_SEC_SIDE + s])
            for k in range(S[pb + P_SEC_N + s]):
                out[o + PL_CARD_CHARGED + s * MAX_SLOTS + k] = S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k]
                _put_face(out, o + PL_CARDS + (s * MAX_SLOTS + k) * NF, FF, S[pb + P_SEC_CARD + s * MAX_SLOTS + k])
