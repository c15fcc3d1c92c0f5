"""Observation vector of one player (R26: own hand, others' hand sizes, deck sizes, never another
player's pending plan choice).

The layout is allocated by :class:`~electrify_env.common.engine.layouts.Layout` like the state,
so the offsets the jitted writer uses, the feature names (``feature_names()``) and the
documentation table (``observation_markdown()``, ``docs/observation.md``) all come from one list
of fields.
Every entry lies in [0, 1]: counts are divided by a stated scale and clipped at 1 (the
``meaning`` column of each field says which).  Faces (cards, sector sides) are described by a
per-card-set feature table ``FF`` (``face_features``), built once when the card set loads.

Other players' blocks are seat-relative: block ``p0`` is the observer, ``p1`` the next seat in
play order, and so on; blocks of seats the game does not have stay zero.  The pending-decision
fields are filled only when the observer is the player to move.
"""
import numpy as np
from numba import njit

from ..common.engine.layouts import Layout, layout_tables, tables_markdown
from .cards import depot_value
from .discharge import icon_action, icon_ok, multiplier
from .layout import (
    ACT_DEVELOP, ACT_INVEST, ACT_NONE, ACT_PLAN, ACT_PRODUCE, ACT_RESEARCH, ACT_TRANSMIT,
    ACT_ONGOING, ARROW_DOWN, ARROW_LEFT, ARROW_UP, BOOST_COLLABORATION, BOOST_INNOVATION,
    FACE_SECTOR, FR_A, FR_B, FR_C, FR_D, FR_E, FR_F, FR_G, FRAME, FT_BOOST, FT_CARD_CHOICE,
    FT_DISCARD_PAY, FT_ICON, FT_ITEM, FT_ONGOING, FT_PAY, FT_PLACE_SECTOR, FT_PLACE_SLOT,
    FT_REORDER, FT_REWARD, ICON_FOLLOW_UP, KIND_BASIC, KIND_INFRASTRUCTURE, KIND_PRODUCTION,
    KIND_SECTOR, MAX_BASIC, MAX_CHALLENGES, MAX_FACES, MAX_HAND, MAX_ICONS, MAX_PLAYERS, MAX_REQ,
    MAX_REWARDS, MAX_SCENARIO_STARS, MAX_SLOTS, MULT_CLEAN, MULT_DIRTY, MULT_DISCARD,
    MULT_SECTORS, MULT_SIMPLE, N_BT_SPACES, N_CH_CODES, N_COLS, N_FRAME_TYPES, N_LEVELS,
    N_ROUNDS, N_SECTORS, P_BOOST, P_BT, P_CARD_CHARGED, P_CHOSEN, P_CLEAN, P_DEPOT, P_FULFILLED,
    P_GRID, P_HAND, P_HAND_N, P_NFULFILLED, P_PLAN, P_RESEARCH, P_SCORE, P_SEC_CARD,
    P_SEC_CHARGED, P_SEC_COL, P_SEC_N, P_SEC_SIDE, P_SOLO_TOKEN, PLACE_FREE, PRODUCE_HERE,
    RESEARCH_TRACK, REW_SRC_DEMAND, REW_SRC_GROUP, REW_SRC_SPACE, RW_CLEAN, RW_INDUSTRY,
    RW_POINTS, RW_PRODUCE, RW_SECTOR, S_BAG, S_BASIC, S_CH_A, S_CH_COND, S_CH_MET, S_CUR,
    S_DECK_N, S_DEMAND, S_DISC_N, S_NPLAYERS, S_ROUND, S_SOLO, S_SOLO_BONUS, S_SOLO_NCH,
    S_SOLO_NSTARS, S_SOLO_TARGET, S_SP, S_STACK, S_STAR_POINTS, S_STAR_ROUND, S_STAR_STATE,
    S_TERMINAL, T_COL_CLEAN, T_COL_DIRTY, T_D_NREW, T_D_REQ_COL, T_D_REQ_N, T_D_REW_KIND,
    T_D_REW_VAL, T_F_ARROWS, T_F_COST, T_F_ICON_ACT, T_F_ICON_ARG, T_F_ICON_MK, T_F_ICON_MV,
    T_F_KIND, T_F_NICONS,
)
from .fulfill import demand_ok, reward_count, reward_entry
from .stack import pbase

OBS_VERSION = 2

# Scales: a count is divided by its scale and clipped at 1.
SC_CUBES = 10.0        # depot / grid cubes of one column
SC_DEPOT_VALUE = 20.0  # purchase value of a depot
SC_DECK = 64.0         # cards in a deck or discard pile
SC_REQ = 8.0           # cubes of one column a demand card requires (base set: at most 8)
SC_POINTS_REWARD = 12.0  # energy points of one reward (base set: at most 12)
SC_COST = 8.0          # card cost, industry-breakthrough budget (base set: at most 8)
SC_PRODUCE_REWARD = 5.0  # cubes of a produce reward
SC_SCORE = 100.0       # a player's energy points
SC_CLEAN = 5.0         # clean breakthrough tokens
SC_CLEAN_REWARD = 2.0  # clean tokens of one reward (base set: at most 2)
SC_MULT = 5.0          # an icon's multiplier (number of uses)
SC_USES = 10.0         # uses left / performed, value still owed
SC_DRAWS = 5.0         # invest draws queued
SC_TARGET = 60.0       # solo target
SC_STAR_POINTS = 20.0  # solo star points
SC_CH_PARAM = 10.0     # solo challenge parameter
SC_TOKENS = 3.0        # solo boost tokens in the bag
SC_SIMPLE = 3.0        # face features: simple multiplier total of one action

# ---- face features ---------------------------------------------------------------------------
_ACTS = ((ACT_PRODUCE, "produce"), (ACT_DEVELOP, "develop"), (ACT_TRANSMIT, "transmit"),
         (ACT_RESEARCH, "research"), (ACT_INVEST, "invest"), (ACT_PLAN, "plan"))
_ff = Layout("face features")
FF_PRESENT = _ff.field("present", 1, "a card is there")
FF_COST = _ff.field("cost", 1, "cost / 8")
FF_KIND = _ff.field("kind", 4, "production, infrastructure, basic, sector")
FF_ARROW = _ff.field("arrow", 3, "arrows left, up, down")
FF_ACT = _ff.field("act", 3 * len(_ACTS), "per action: simple multipliers / 3, clean icons, dirty icons")
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
assert len(FACE_FEATURE_NAMES) == NF


def face_features(T):
    """Build the (MAX_FACES, NF) float32 table describing every face of a compiled card set
    (every entry in [0, 1])."""
    FF = np.zeros((MAX_FACES, NF), dtype=np.float32)
    kinds = {KIND_PRODUCTION: 0, KIND_INFRASTRUCTURE: 1, KIND_BASIC: 2, KIND_SECTOR: 3}
    for f in range(MAX_FACES):
        kind = int(T[T_F_KIND + f])
        if kind == 0:
            continue
        FF[f, FF_PRESENT] = 1.0
        FF[f, FF_COST] = T[T_F_COST + f] / SC_COST
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
                    FF[f, FF_ACT + 3 * j] += T[T_F_ICON_MV + o] / SC_SIMPLE
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
    np.clip(FF, 0.0, 1.0, out=FF)
    return FF


# ---- observation layout ----------------------------------------------------------------------
# Each field: (name, sub-names, meaning).  Its entries are named "<name>_<sub>" ("<name>" alone
# for a single unnamed entry); player-block entries get the prefix "p<k>_".
_FIELD_SUBS: list[tuple[str, list[str]]] = []


def _field(lay, name, subs, meaning):
    _FIELD_SUBS.append((name, list(subs)))
    return lay.field(name, len(subs), meaning)


_LV = [f"L{lv + 1}" for lv in range(N_LEVELS)]
_COLS = [f"c{c}" for c in range(N_COLS)]
_SECS = [f"s{s}" for s in range(N_SECTORS)]
_ICON_ACTS = ["produce", "develop", "transmit", "research", "invest", "plan", "ongoing"]
_REW_KINDS = ["points", "clean", "industry", "sector", "produce"]
_REW_SLOT = ["open"] + [f"kind_{k}" for k in _REW_KINDS] + ["value", "column"]
N_REW_SLOT = len(_REW_SLOT)
_REW_KIND_CODES = (RW_POINTS, RW_CLEAN, RW_INDUSTRY, RW_SECTOR, RW_PRODUCE)

_o = Layout("observation")
O_ROUND = _field(_o, "round", [""], "round / 12 (0 while the first Plan step is open)")
O_NPLAYERS = _field(_o, "n_players", [str(k + 1) for k in range(MAX_PLAYERS)], "one-hot player count")
O_TO_MOVE = _field(_o, "to_move", [f"p{k}" for k in range(MAX_PLAYERS)],
                   "seat-relative one-hot of the player to move (p0 = observer); 0 once the game is over")
O_OVER = _field(_o, "game_over", [""], "1 once the game is over")
O_DECK = _field(_o, "deck", ["production", "infrastructure"], "deck sizes / 64 (contents hidden)")
O_DISC = _field(_o, "discard", ["production", "infrastructure"], "discard pile sizes / 64")
O_BASIC = _field(_o, "basic_supply", [str(b) for b in range(MAX_BASIC)], "basic card b still in the supply")
O_DEMAND_REQ = _field(_o, "demand_req", [f"{lv}_{c}" for lv in _LV for c in _COLS],
                      "demand card of each level: grid cubes required per column / 8")
O_DEMAND_REW = _field(_o, "demand_reward", [f"{lv}_{part}_{r}" for lv in _LV for part in ("basic", "priority")
                                     for r in ("points", "industry", "sector", "clean", "produce")],
                      "per level, basic then priority rewards: points / 12, industry budget / 8, "
                      "sector flip, clean tokens / 2, produce cubes / 5")
O_OWN_DEMAND = _field(_o, "own_demand", [f"{lv}_{x}" for lv in _LV for x in ("ok", "missing")],
                      "observer, per level: can fulfil it now; grid cubes still missing / 8")
O_FRAME = _field(_o, "pending_type", [str(t) for t in range(N_FRAME_TYPES)],
                 "one-hot type of the pending decision (layout.FT_*), observer to move only")
O_PEND_FACE = _field(_o, "pending_face", FACE_FEATURE_NAMES,
                     "face being bought, paid for, placed or discharged")
O_PEND_SECTOR = _field(_o, "pending_sector", _SECS,
                       "sector of the pending decision: placing into, discharging from, re-ordering")
O_PEND_ICON = _field(_o, "pending_icon", [str(i) for i in range(MAX_ICONS)], "icon being used (one-hot)")
O_PEND_ACT = _field(_o, "pending_act", _ICON_ACTS, "action of the icon being used (one-hot)")
O_PEND_ICONS = _field(_o, "pending_icons", [f"{i}_{x}" for i in range(MAX_ICONS) for x in ("usable", "used", "mult")],
                      "icons of the item being discharged: can be started now, already used, multiplier now / 5")
O_PEND_NUM = _field(_o, "pending_count", ["uses_left", "owed", "budget", "rewards_taken", "uses_done",
                                    "draws_production", "draws_infrastructure"],
                    "uses left / 10, value still owed / 10, industry budget / 8, reward slots taken / 6, "
                    "uses performed / 10, invest draws queued per deck / 5")
O_PEND_FLAGS = _field(_o, "pending_flag", ["boost_innovation", "boost_collaboration", "free_card"],
                      "the boost on offer; the card being placed is played free (industry breakthrough)")
O_PEND_REW_SRC = _field(_o, "pending_reward_src", ["demand", "space", "group", "priority"],
                        "source of the pending reward list; it includes priority rewards")
O_PEND_REW = _field(_o, "pending_reward", [f"{r}_{x}" for r in range(MAX_REWARDS) for x in _REW_SLOT],
                    "per reward slot: still open, kind one-hot, value (points / 12, industry budget / 8, "
                    "clean tokens / 2, produce cubes / 5, sector 1), produce column / 6")
O_PEND_REORDER = _field(_o, "pending_reorder_picked", [f"slot{k}" for k in range(MAX_SLOTS)],
                        "re-order after a flip: the card of old slot k is already placed")
O_HAND = _field(_o, "hand", [f"{h}_{n}" for h in range(MAX_HAND) for n in FACE_FEATURE_NAMES],
                "own hand cards (ascending ids; slot h is the h of A_CARD_HAND / A_DISCARD)")
O_OWN_PLAN = _field(_o, "own_plan", _SECS, "own secret sector choice this round")
O_SOLO = _field(_o, "solo", ["game", "target"], "solo game; target / 60")
O_SOLO_BONUS = _field(_o, "solo_bonus", _LV, "bonus reward token on the demand level")
O_STARS = _field(_o, "star", [f"{i}_{x}" for i in range(MAX_SCENARIO_STARS) for x in ("round", "open", "claimed")],
                 "per star: round / 12, still above the track, claimed")
O_STAR_POINTS = _field(_o, "star_points", ["claimed", "next"],
                       "points of the stars claimed / 20; with one more star / 20")
O_CH = _field(_o, "challenge", [f"{c}_{x}" for c in range(MAX_CHALLENGES)
                                for x in [f"cond{k}" for k in range(N_CH_CODES)] + ["param", "met"]],
              "per challenge: condition one-hot (layout.CH_*), parameter / 10, met")
O_TOKENS = _field(_o, "token", [f"{s}_{x}" for s in _SECS for x in ("innovation", "collaboration")]
                  + ["bag_innovation", "bag_collaboration"],
                  "solo boost token on each sector; tokens in the bag / 3")
O_PLAYERS = _o.size

_pl = Layout("player block")
PL_DEPOT = _field(_pl, "depot", _COLS, "depot cubes / 10")
PL_DEPOT_VALUE = _field(_pl, "depot_value", [""], "purchase value of the depot / 20")
PL_GRID = _field(_pl, "grid", _COLS, "grid cubes / 10")
PL_RESEARCH = _field(_pl, "research", [""], "marker / 6")
PL_BT = _field(_pl, "bt", [str(k) for k in range(N_BT_SPACES)], "breakthrough spaces covered")
PL_CLEAN = _field(_pl, "clean", [""], "clean tokens / 5")
PL_SCORE = _field(_pl, "score", [""], "energy points / 100")
PL_FULFILLED = _field(_pl, "fulfilled", _LV, "demand levels fulfilled")
PL_PRIO = _field(_pl, "priority_left", [""], "priority fulfilments left / 2")
PL_HAND_N = _field(_pl, "hand_size", [""], "hand size / 9 (contents hidden for others)")
PL_CHOSEN = _field(_pl, "chosen", _SECS, "revealed sector choice this round (one-hot)")
PL_BOOST = _field(_pl, "boost", ["innovation", "collaboration"], "boost of this round, until its turn ends")
PL_SEC_COL = _field(_pl, "sec_col", [f"s{s}_c{c}" for s in range(N_SECTORS) for c in range(N_COLS)],
                    "sector columns (one-hot)")
PL_SEC_SIDE = _field(_pl, "sec_side_b", _SECS, "sector on side B")
PL_SEC_CHARGED = _field(_pl, "sec_charged", _SECS, "sector tile charged")
PL_SEC_N = _field(_pl, "sec_ncards", _SECS, "cards on the sector / 5")
PL_SEC_MULT = _field(_pl, "sec_mult", [f"s{s}_{m}" for s in range(N_SECTORS) for m in ("clean", "dirty")],
                     "clean and dirty multiplier an icon on the sector reads now / 5")
PL_CARD_CHARGED = _field(_pl, "card_charged", [f"s{s}_slot{k}" for s in range(N_SECTORS) for k in range(MAX_SLOTS)],
                         "card charged")
PL_CARDS = _field(_pl, "card", [f"s{s}_slot{k}_{n}" for s in range(N_SECTORS) for k in range(MAX_SLOTS)
                                for n in FACE_FEATURE_NAMES], "cards on the sectors, top first")
PL_SEC_FACE = _field(_pl, "sec_tile", [f"s{s}_{n}" for s in range(N_SECTORS) for n in FACE_FEATURE_NAMES],
                     "sector tile faces (side shown)")
PL_SIZE = _pl.size
_N_GLOBAL_FIELDS = len(_o.rows)
for _k in range(MAX_PLAYERS):
    _o.field(f"p{_k}", PL_SIZE, "player block (see below), seats relative to the observer: p0 = self, "
                                "p1 = next seat in play order, ...")
OBS_SIZE = _o.size


def obs_size(n_players=MAX_PLAYERS):
    """Length of the observation prefix that can be non-zero in an ``n_players`` game
    (the blocks of absent seats are always zero).  ``obs_size() == OBS_SIZE``."""
    return O_PLAYERS + n_players * PL_SIZE


def feature_names():
    """Names of the observation entries, in order (length OBS_SIZE)."""
    def expand(fields, prefix=""):
        out = []
        for name, subs in fields:
            out += [prefix + (f"{name}_{s}" if s else name) for s in subs]
        return out
    names = expand(_FIELD_SUBS[:_N_GLOBAL_FIELDS])
    for k in range(MAX_PLAYERS):
        names += expand(_FIELD_SUBS[_N_GLOBAL_FIELDS:], prefix=f"p{k}_")
    assert len(names) == OBS_SIZE, (len(names), OBS_SIZE)
    return names


def observation_rows():
    """Documentation rows (name, offset, length, meaning) of the observation and of one player
    block (offsets inside the block)."""
    return layout_tables((_o, _pl, _ff))


def observation_markdown():
    """The observation layout as Markdown tables (the body of ``docs/observation.md``)."""
    return (f"Observation version {OBS_VERSION}: {OBS_SIZE} float32 entries, each in [0, 1].\n\n"
            + tables_markdown((_o, _pl, _ff), first="field"))


@njit(cache=True)
def _clip(x):
    return 1.0 if x > 1.0 else x


@njit(cache=True)
def _put_face(out, off, FF, face):
    if face < 0:
        return
    for j in range(NF):
        out[off + j] = FF[face, j]


@njit(cache=True)
def _observe_solo(S, out):
    out[O_SOLO] = 1.0
    out[O_SOLO + 1] = _clip(S[S_SOLO_TARGET] / SC_TARGET)
    for lv in range(N_LEVELS):
        out[O_SOLO_BONUS + lv] = (S[S_SOLO_BONUS] >> lv) & 1
    claimed = 0
    for i in range(S[S_SOLO_NSTARS]):
        out[O_STARS + 3 * i] = S[S_STAR_ROUND + i] / N_ROUNDS
        out[O_STARS + 3 * i + 1] = 1.0 if S[S_STAR_STATE + i] == 0 else 0.0
        out[O_STARS + 3 * i + 2] = 1.0 if S[S_STAR_STATE + i] == 1 else 0.0
        if S[S_STAR_STATE + i] == 1:
            claimed += 1
    out[O_STAR_POINTS] = _clip(S[S_STAR_POINTS + claimed] / SC_STAR_POINTS)
    if claimed < S[S_SOLO_NSTARS]:
        out[O_STAR_POINTS + 1] = _clip(S[S_STAR_POINTS + claimed + 1] / SC_STAR_POINTS)
    for c in range(S[S_SOLO_NCH]):
        o = O_CH + c * (N_CH_CODES + 2)
        out[o + S[S_CH_COND + c]] = 1.0
        out[o + N_CH_CODES] = _clip(max(S[S_CH_A + c], 0) / SC_CH_PARAM)
        out[o + N_CH_CODES + 1] = S[S_CH_MET + c]
    pb = pbase(0)
    for s in range(N_SECTORS):
        tok = S[pb + P_SOLO_TOKEN + s]
        if tok > 0:
            out[O_TOKENS + 2 * s + tok - 1] = 1.0
    out[O_TOKENS + 2 * N_SECTORS] = _clip(S[S_BAG] / SC_TOKENS)
    out[O_TOKENS + 2 * N_SECTORS + 1] = _clip(S[S_BAG + 1] / SC_TOKENS)


@njit(cache=True)
def _observe_pending(S, T, FF, pb, out):
    """The pending decision of the observer (who is the player to move)."""
    t = S_STACK + (S[S_SP] - 1) * FRAME
    ft = S[t]
    out[O_FRAME + ft] = 1.0
    if ft == FT_PAY or ft == FT_PLACE_SECTOR or ft == FT_PLACE_SLOT:
        _put_face(out, O_PEND_FACE, FF, S[t + FR_A])
        if ft == FT_PAY:
            out[O_PEND_NUM + 1] = _clip(S[t + FR_B] / SC_USES)
        else:
            out[O_PEND_FLAGS + 2] = 1.0 if S[t + FR_B] == PLACE_FREE else 0.0
        if ft == FT_PLACE_SLOT:
            out[O_PEND_SECTOR + S[t + FR_C]] = 1.0
    elif ft == FT_ITEM:
        face = S[t + FR_A]
        s = S[t + FR_B]
        _put_face(out, O_PEND_FACE, FF, face)
        out[O_PEND_SECTOR + s] = 1.0
        for i in range(T[T_F_NICONS + face]):
            o = O_PEND_ICONS + 3 * i
            out[o] = 1.0 if icon_ok(S, T, pb, i) else 0.0
            out[o + 1] = (S[t + FR_C] >> i) & 1
            out[o + 2] = _clip(multiplier(S, T, pb, face, i, s) / SC_MULT)
    elif ft == FT_ICON or ft == FT_ONGOING:
        _put_face(out, O_PEND_FACE, FF, S[t + FR_A])
        out[O_PEND_SECTOR + S[t + FR_B]] = 1.0
        out[O_PEND_ICON + S[t + FR_C] % ICON_FOLLOW_UP] = 1.0
        out[O_PEND_NUM] = _clip(S[t + FR_D] / SC_USES)
        if ft == FT_ICON:
            act = icon_action(S, T)
            if act != ACT_NONE:
                out[O_PEND_ACT + act - 1] = 1.0
            out[O_PEND_NUM + 4] = _clip(S[t + FR_G] / SC_USES)
            n_inf = 0
            for j in range(S[t + FR_F]):
                n_inf += (S[t + FR_E] >> j) & 1
            out[O_PEND_NUM + 5] = _clip((S[t + FR_F] - n_inf) / SC_DRAWS)
            out[O_PEND_NUM + 6] = _clip(n_inf / SC_DRAWS)
        else:
            act = T[T_F_ICON_ACT + S[t + FR_A] * MAX_ICONS + S[t + FR_C]]
            out[O_PEND_ACT + act - 1] = 1.0
    elif ft == FT_DISCARD_PAY:
        below = t - FRAME  # the discard-multiplier icon waiting for its uses
        _put_face(out, O_PEND_FACE, FF, S[below + FR_A])
        out[O_PEND_SECTOR + S[below + FR_B]] = 1.0
        out[O_PEND_ICON + S[below + FR_C] % ICON_FOLLOW_UP] = 1.0
        out[O_PEND_NUM] = _clip(S[below + FR_D] / SC_USES)
    elif ft == FT_CARD_CHOICE:
        out[O_PEND_NUM + 2] = _clip(S[t + FR_A] / SC_COST)
    elif ft == FT_BOOST:
        if S[t + FR_A] == BOOST_INNOVATION:
            out[O_PEND_FLAGS] = 1.0
        elif S[t + FR_A] == BOOST_COLLABORATION:
            out[O_PEND_FLAGS + 1] = 1.0
    elif ft == FT_REWARD:
        src = S[t + FR_A]
        sid = S[t + FR_B]
        taken = S[t + FR_C]
        prio = S[t + FR_D]
        if src == REW_SRC_DEMAND:
            out[O_PEND_REW_SRC] = 1.0
        elif src == REW_SRC_SPACE:
            out[O_PEND_REW_SRC + 1] = 1.0
        elif src == REW_SRC_GROUP:
            out[O_PEND_REW_SRC + 2] = 1.0
        out[O_PEND_REW_SRC + 3] = 1.0 if prio else 0.0
        k = 0
        for r in range(reward_count(T, src, sid, prio)):
            o = O_PEND_REW + r * N_REW_SLOT
            if (taken >> r) & 1:
                k += 1
            else:
                out[o] = 1.0
            kind, val, arg = reward_entry(T, src, sid, r)
            for j in range(len(_REW_KIND_CODES)):
                if _REW_KIND_CODES[j] == kind:
                    out[o + 1 + j] = 1.0
            if kind == RW_POINTS:
                out[o + 6] = _clip(val / SC_POINTS_REWARD)
            elif kind == RW_INDUSTRY:
                out[o + 6] = _clip(val / SC_COST)
            elif kind == RW_PRODUCE:
                out[o + 6] = _clip(val / SC_PRODUCE_REWARD)
                out[o + 7] = arg / 6.0
            elif kind == RW_CLEAN:
                out[o + 6] = _clip(val / SC_CLEAN_REWARD)
            else:
                out[o + 6] = 1.0
        out[O_PEND_NUM + 3] = k / MAX_REWARDS
    elif ft == FT_REORDER:
        out[O_PEND_SECTOR + S[t + FR_A]] = 1.0
        for k in range(MAX_SLOTS):
            out[O_PEND_REORDER + k] = (S[t + FR_B] >> k) & 1


@njit(cache=True)
def _observe_player(S, T, FF, q, out, o):
    pb = pbase(q)
    for c in range(N_COLS):
        out[o + PL_DEPOT + c] = _clip(S[pb + P_DEPOT + c] / SC_CUBES)
        out[o + PL_GRID + c] = _clip(S[pb + P_GRID + c] / SC_CUBES)
    out[o + PL_DEPOT_VALUE] = _clip(depot_value(S, T, pb) / SC_DEPOT_VALUE)
    out[o + PL_RESEARCH] = S[pb + P_RESEARCH] / RESEARCH_TRACK
    for j in range(N_BT_SPACES):
        out[o + PL_BT + j] = S[pb + P_BT + j]
    out[o + PL_CLEAN] = _clip(S[pb + P_CLEAN] / SC_CLEAN)
    out[o + PL_SCORE] = _clip(max(S[pb + P_SCORE], 0) / SC_SCORE)
    for lv in range(N_LEVELS):
        out[o + PL_FULFILLED + lv] = S[pb + P_FULFILLED + lv]
    out[o + PL_PRIO] = max(0, 2 - S[pb + P_NFULFILLED]) / 2.0
    out[o + PL_HAND_N] = S[pb + P_HAND_N] / MAX_HAND
    if S[pb + P_CHOSEN] >= 0:
        out[o + PL_CHOSEN + S[pb + P_CHOSEN]] = 1.0
    if S[pb + P_BOOST] == BOOST_INNOVATION:
        out[o + PL_BOOST] = 1.0
    elif S[pb + P_BOOST] == BOOST_COLLABORATION:
        out[o + PL_BOOST + 1] = 1.0
    for s in range(N_SECTORS):
        col = S[pb + P_SEC_COL + s]
        out[o + PL_SEC_COL + s * N_COLS + col] = 1.0
        out[o + PL_SEC_SIDE + s] = S[pb + P_SEC_SIDE + s]
        out[o + PL_SEC_CHARGED + s] = S[pb + P_SEC_CHARGED + s]
        out[o + PL_SEC_N + s] = S[pb + P_SEC_N + s] / MAX_SLOTS
        out[o + PL_SEC_MULT + 2 * s] = _clip((T[T_COL_CLEAN + col] + S[pb + P_CLEAN]) / SC_MULT)
        out[o + PL_SEC_MULT + 2 * s + 1] = _clip(T[T_COL_DIRTY + col] / SC_MULT)
        _put_face(out, o + PL_SEC_FACE + s * NF, FF, FACE_SECTOR + 2 * s + S[pb + P_SEC_SIDE + s])
        for k in range(S[pb + P_SEC_N + s]):
            out[o + PL_CARD_CHARGED + s * MAX_SLOTS + k] = S[pb + P_CARD_CHARGED + s * MAX_SLOTS + k]
            _put_face(out, o + PL_CARDS + (s * MAX_SLOTS + k) * NF, FF, S[pb + P_SEC_CARD + s * MAX_SLOTS + k])


@njit(cache=True)
def observe(S, T, FF, p, out):
    """Write player ``p``'s observation into ``out`` (float32).  ``out`` has OBS_SIZE entries,
    or at least ``obs_size(n_players)``: the blocks of absent seats are never written."""
    out[:] = 0.0
    n = S[S_NPLAYERS]
    out[O_ROUND] = S[S_ROUND] / N_ROUNDS
    out[O_NPLAYERS + n - 1] = 1.0
    if S[S_TERMINAL]:
        out[O_OVER] = 1.0
    else:
        out[O_TO_MOVE + (S[S_CUR] - p + n) % n] = 1.0
    for d in range(2):
        out[O_DECK + d] = _clip(S[S_DECK_N + d] / SC_DECK)
        out[O_DISC + d] = _clip(S[S_DISC_N + d] / SC_DECK)
    for b in range(MAX_BASIC):
        out[O_BASIC + b] = S[S_BASIC + b]
    pbo = pbase(p)
    for lv in range(N_LEVELS):
        dc = S[S_DEMAND + lv]
        missing = 0
        for j in range(MAX_REQ):
            col = T[T_D_REQ_COL + dc * MAX_REQ + j]
            if col >= 0:
                need = T[T_D_REQ_N + dc * MAX_REQ + j]
                out[O_DEMAND_REQ + lv * N_COLS + col] = _clip(out[O_DEMAND_REQ + lv * N_COLS + col] + need / SC_REQ)
                if S[pbo + P_GRID + col] < need:
                    missing += need - S[pbo + P_GRID + col]
        if not S[pbo + P_FULFILLED + lv]:
            out[O_OWN_DEMAND + 2 * lv] = 1.0 if demand_ok(S, T, pbo, lv) else 0.0
            out[O_OWN_DEMAND + 2 * lv + 1] = _clip(missing / SC_REQ)
        nb = T[T_D_NREW + 2 * dc]
        npr = T[T_D_NREW + 2 * dc + 1]
        for j in range(nb + npr):
            part = 0 if j < nb else 5
            kind = T[T_D_REW_KIND + dc * MAX_REWARDS + j]
            val = T[T_D_REW_VAL + dc * MAX_REWARDS + j]
            o = O_DEMAND_REW + lv * 10 + part
            if kind == RW_POINTS:
                out[o] = _clip(out[o] + val / SC_POINTS_REWARD)
            elif kind == RW_INDUSTRY:
                out[o + 1] = _clip(out[o + 1] + val / SC_COST)
            elif kind == RW_SECTOR:
                out[o + 2] = 1.0
            elif kind == RW_CLEAN:
                out[o + 3] = _clip(out[o + 3] + val / SC_CLEAN_REWARD)
            elif kind == RW_PRODUCE:
                out[o + 4] = _clip(out[o + 4] + val / SC_PRODUCE_REWARD)
    # pending decision: only the observer's own (another player's secret plan never shows)
    if S[S_SP] > 0 and S[S_CUR] == p and not S[S_TERMINAL]:
        _observe_pending(S, T, FF, pbo, out)
    if S[S_SOLO]:
        _observe_solo(S, out)
    for h in range(S[pbo + P_HAND_N]):
        _put_face(out, O_HAND + h * NF, FF, S[pbo + P_HAND + h])
    if S[pbo + P_PLAN] >= 0:
        out[O_OWN_PLAN + S[pbo + P_PLAN]] = 1.0
    for r in range(n):
        _observe_player(S, T, FF, (p + r) % n, out, O_PLAYERS + r * PL_SIZE)


if __name__ == "__main__":  # pragma: no cover
    print(observation_markdown())
