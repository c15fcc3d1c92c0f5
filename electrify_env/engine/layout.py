"""Every fixed number of the engine, in one place.

Three flat int64 arrays carry a game:

* the **card table** ``T`` (built once by :mod:`electrify_env.cards.loader` from a card-set config),
* the **state** ``S`` (one game; everything that changes, including the random generator),
* the **action id** space (one flat discrete space, with named ranges).

Offsets are allocated in order by the game-independent
:class:`~electrify_env.common.engine.layouts.Layout`; ``layout_rows()`` returns the tables below
(``python -m electrify_env.engine.layout`` prints them), so the documentation cannot drift from the
numbers.  Jitted code reads the module-level ints, which numba freezes as compile-time constants.

Capacities (``MAX_*``) bound a card set; the loader rejects a set that does not fit.
"""
from __future__ import annotations

from ..common.engine.layouts import Layout, layout_tables, tables_markdown

# ----------------------------------------------------------------------------------------------
# Capacities and game constants
# ----------------------------------------------------------------------------------------------
N_COLS = 7            # R1: Fossil .. Solar
N_SECTORS = 5         # R2
MAX_SLOTS = 5         # cards per sector
MAX_HAND = 9          # hand limit
MAX_PLAYERS = 4
N_ROUNDS = 12
N_LEVELS = 7          # demand levels I..VII; one demand card per level in play
MAX_ICONS = 4         # icons on one face
MAX_REQ = 3           # (column, count) pairs in one demand requirement
MAX_DEMAND_REWARDS = 3  # basic rewards, and separately priority rewards, per demand card
MAX_REWARDS = 2 * MAX_DEMAND_REWARDS  # reward slots of one reward frame
MAX_BT_REWARDS = 2    # rewards of one research space or group bonus
N_BT_SPACES = 14      # R3: research breakthrough spaces
N_BT_GROUPS = 5       # groups of 3,3,3,3,2
MAX_IND = 160         # physical industry cards (production + infrastructure + tech packs)
MAX_BASIC = 24        # physical basic cards (two faces each)
MAX_DEMAND = 40       # demand cards in a card set
MAX_DECK = 128        # capacity of one deck or discard pile
N_DECKS = 2           # 0 production, 1 infrastructure
MAX_PRIORITY = 2      # priority rewards go with a player's first two fulfilments
RESEARCH_TRACK = 6    # marker spaces 0..6; reaching 6 triggers a breakthrough
START_FOSSIL = 6      # setup: 6 cubes in the fossil depot
START_HAND_EACH = 3   # setup: 3 production + 3 infrastructure cards
MAX_STACK = 64        # decision frames
FRAME = 8             # fields per frame
MAX_SCENARIO_STARS = 12   # solo: bonus stars of a scenario
MAX_CHALLENGES = 4        # solo: challenges of a scenario

# Face ids: one face table for everything that carries icons.
FACE_IND = 0                              # industry card c -> face c
FACE_BASIC = MAX_IND                      # basic card b, face f -> FACE_BASIC + 2*b + f
FACE_SECTOR = FACE_BASIC + 2 * MAX_BASIC  # sector s, side k -> FACE_SECTOR + 2*s + k
MAX_FACES = FACE_SECTOR + 2 * N_SECTORS
NO_CARD = -1

# Card kinds (face kind)
KIND_NONE = 0
KIND_PRODUCTION = 1
KIND_INFRASTRUCTURE = 2
KIND_BASIC = 3
KIND_SECTOR = 4

# Icon actions
ACT_NONE = 0
ACT_PRODUCE = 1
ACT_DEVELOP = 2
ACT_TRANSMIT = 3
ACT_RESEARCH = 4
ACT_INVEST = 5
ACT_PLAN = 6
ACT_ONGOING = 7       # tech pack (R12): arg = left action, arg2 = right action (reserved)
N_ICON_ACTIONS = 8
PRODUCE_HERE = -1     # icon arg of "produce here"

# Multiplier kinds (R10)
MULT_SIMPLE = 0
MULT_CLEAN = 1
MULT_DIRTY = 2
MULT_SECTORS = 3      # tech pack (reserved)
MULT_DISCARD = 4      # tech pack (reserved)

# Arrow bits (R8)
ARROW_LEFT = 1
ARROW_UP = 2          # left-up: slot - 1
ARROW_DOWN = 4        # left-down: slot + 1

# Reward kinds (R16 and research spaces)
RW_NONE = 0
RW_POINTS = 1         # value = energy points
RW_CLEAN = 2          # value = clean breakthrough tokens
RW_INDUSTRY = 3       # value = max cost of the free card
RW_SECTOR = 4         # flip a side-A sector
RW_PRODUCE = 5        # value = cubes, arg = column


# Solo challenge conditions (R23): (code, parameter a, parameter b)
CH_NONE = 0
CH_CARDS_ON_SECTOR = 1    # a sector holds at least a cards
CH_GRID_CUBES = 2         # at least a grid cubes in column b (b = -1: in any one column)
CH_DEMANDS_IN_ROUND = 3   # at least a demand cards fulfilled in one round
CH_GROUP_COMPLETE = 4     # research group a completed (a = -1: any group)
CH_SECTOR_IN_COLUMN = 5   # a sector stands in column a
CH_SIDE_B = 6             # at least a sectors on side B
CH_CLEAN_TOKENS = 7       # at least a clean breakthrough tokens
CH_FULFILLED = 8          # at least a demand cards fulfilled in the game
CH_BREAKTHROUGHS = 9      # at least a research breakthrough spaces covered
CH_LEVEL_FULFILLED = 10   # the demand card of level a (0..6) fulfilled
CH_POINTS = 11            # at least a energy points (before stars)
N_CH_CODES = 12

# Boost tokens (solo)
TOKEN_INNOVATION = 1
TOKEN_COLLABORATION = 2
N_TOKENS_INNOVATION = 4
N_TOKENS_COLLABORATION = 3

# ----------------------------------------------------------------------------------------------
# Scenario table SC (compiled by electrify_env.scenarios from configs/scenarios/*.yaml)
# ----------------------------------------------------------------------------------------------
_sc = Layout("scenario table SC")
SC_TARGET = _sc.field("SC_TARGET", 1, "energy points needed to win")
SC_BONUS = _sc.field("SC_BONUS", 1, "bit l set: a bonus reward token on demand level l (0..6)")
SC_BONUS_RANDOM = _sc.field("SC_BONUS_RANDOM", 1, "1: one more token on a random level R not listed")
SC_NSTARS = _sc.field("SC_NSTARS", 1, "bonus stars")
SC_STAR_ROUND = _sc.field("SC_STAR_ROUND", MAX_SCENARIO_STARS, "round of each star (or X of R+X)")
SC_STAR_RPLUS = _sc.field("SC_STAR_RPLUS", MAX_SCENARIO_STARS, "1: the star sits on round R+X (R = random level, 1..7)")
SC_STAR_POINTS = _sc.field("SC_STAR_POINTS", MAX_SCENARIO_STARS + 1, "energy points for k stars, k = 0..")
SC_NCH = _sc.field("SC_NCH", 1, "challenges")
SC_CH_COND = _sc.field("SC_CH_COND", MAX_CHALLENGES, "challenge condition (CH_*)")
SC_CH_A = _sc.field("SC_CH_A", MAX_CHALLENGES, "first parameter")
SC_CH_B = _sc.field("SC_CH_B", MAX_CHALLENGES, "second parameter")
SC_SIZE = _sc.size

# ----------------------------------------------------------------------------------------------
# Card table T
# ----------------------------------------------------------------------------------------------
_t = Layout("card table T")
T_COL_DEPOT = _t.field("T_COL_DEPOT", N_COLS, "purchase value of a depot cube, per column (R1)")
T_COL_GRID = _t.field("T_COL_GRID", N_COLS, "research value of a grid cube, per column (R1)")
T_COL_CLEAN = _t.field("T_COL_CLEAN", N_COLS, "clean (green) track number, per column (R1)")
T_COL_DIRTY = _t.field("T_COL_DIRTY", N_COLS, "dirty (black) track number, per column (R1)")
T_N_IND = _t.field("T_N_IND", 1, "industry cards in the set (base + loaded tech packs)")
T_N_BASIC = _t.field("T_N_BASIC", 1, "basic cards in the set")
T_N_DEMAND = _t.field("T_N_DEMAND", 1, "demand cards in the set")
T_IND_DECK = _t.field("T_IND_DECK", MAX_IND, "deck of industry card c: 0 production, 1 infrastructure")
T_IND_PACK = _t.field("T_IND_PACK", MAX_IND, "0 base card, k>0 card of tech pack k")
T_F_KIND = _t.field("T_F_KIND", MAX_FACES, "face kind (KIND_*)")
T_F_COST = _t.field("T_F_COST", MAX_FACES, "face cost")
T_F_ARROWS = _t.field("T_F_ARROWS", MAX_FACES, "arrow bits (ARROW_*)")
T_F_NICONS = _t.field("T_F_NICONS", MAX_FACES, "number of icons")
T_F_ICON_ACT = _t.field("T_F_ICON_ACT", MAX_FACES * MAX_ICONS, "icon action (ACT_*), [face*MAX_ICONS+i]")
T_F_ICON_ARG = _t.field("T_F_ICON_ARG", MAX_FACES * MAX_ICONS, "icon argument: produce column or PRODUCE_HERE")
T_F_ICON_ARG2 = _t.field("T_F_ICON_ARG2", MAX_FACES * MAX_ICONS, "second argument (ongoing right action)")
T_F_ICON_MK = _t.field("T_F_ICON_MK", MAX_FACES * MAX_ICONS, "multiplier kind (MULT_*)")
T_F_ICON_MV = _t.field("T_F_ICON_MV", MAX_FACES * MAX_ICONS, "simple multiplier value")
T_D_LEVEL = _t.field("T_D_LEVEL", MAX_DEMAND, "demand level 0..6 (I..VII)")
T_D_REQ_COL = _t.field("T_D_REQ_COL", MAX_DEMAND * MAX_REQ, "required column, -1 unused")
T_D_REQ_N = _t.field("T_D_REQ_N", MAX_DEMAND * MAX_REQ, "required grid cubes of that column")
T_D_NREW = _t.field("T_D_NREW", MAX_DEMAND * 2, "number of basic [d*2] and priority [d*2+1] rewards")
T_D_REW_KIND = _t.field("T_D_REW_KIND", MAX_DEMAND * MAX_REWARDS, "reward kinds: basic first, then priority")
T_D_REW_VAL = _t.field("T_D_REW_VAL", MAX_DEMAND * MAX_REWARDS, "reward values")
T_D_REW_ARG = _t.field("T_D_REW_ARG", MAX_DEMAND * MAX_REWARDS, "reward arguments")
T_BT_GROUP = _t.field("T_BT_GROUP", N_BT_SPACES, "group of a research space")
T_BT_NREW = _t.field("T_BT_NREW", N_BT_SPACES, "rewards of a space (0 = blank)")
T_BT_REW_KIND = _t.field("T_BT_REW_KIND", N_BT_SPACES * MAX_BT_REWARDS, "space reward kinds")
T_BT_REW_VAL = _t.field("T_BT_REW_VAL", N_BT_SPACES * MAX_BT_REWARDS, "space reward values")
T_BT_REW_ARG = _t.field("T_BT_REW_ARG", N_BT_SPACES * MAX_BT_REWARDS, "space reward arguments")
T_G_NREW = _t.field("T_G_NREW", N_BT_GROUPS, "group bonus reward count")
T_G_REW_KIND = _t.field("T_G_REW_KIND", N_BT_GROUPS * MAX_BT_REWARDS, "group bonus kinds")
T_G_REW_VAL = _t.field("T_G_REW_VAL", N_BT_GROUPS * MAX_BT_REWARDS, "group bonus values")
T_G_REW_ARG = _t.field("T_G_REW_ARG", N_BT_GROUPS * MAX_BT_REWARDS, "group bonus arguments")
T_SIZE = _t.size

# ----------------------------------------------------------------------------------------------
# Decision frames (the pending-decision stack in the state)
# ----------------------------------------------------------------------------------------------
# A frame is FRAME ints: [type, a, b, c, d, e, f, g].  Decision frames wait for an action of the
# current player; automatic frames (marked *) are processed by the engine's advance loop.
FR_TYPE = 0
FR_A = 1
FR_B = 2
FR_C = 3
FR_D = 4
FR_E = 5
FR_F = 6
FR_G = 7

FT_NONE = 0
FT_PLAN = 1          # choose a sector (secret)
FT_BOOST = 2         # a=1 innovation, 2 collaboration: take or forgo
FT_ACQUIRE = 3       # buy a hand card / basic face, or pass
FT_PAY = 4           # a=face, b=value still owed: pay one depot cube
FT_PLACE_SECTOR = 5  # a=face, b=mode (0 bought, 1 free): which sector
FT_PLACE_SLOT = 6    # a=face, b=mode, c=sector: insertion slot
FT_CHARGE = 7        # * step 3
FT_DISCHARGE = 8     # pick the next charged sector or card
FT_ITEM = 9          # a=face, b=sector, c=used-icon mask: pick an icon or finish the item
FT_ICON = 10         # a=face, b=sector, c=icon (+ICON_FOLLOW_UP), d=uses left, e=invest queue bits,
                     # f=queue length, g=uses performed
FT_BT_PICK = 11      # cover a research breakthrough space
FT_RESEARCH = 12     # * a=research movement still to apply
FT_FULFILL = 13      # pick a demand card or end Fulfill
FT_REWARD = 14       # a=source (0 demand, 1 space, 2 group), b=source id, c=taken mask, d=priority
FT_CARD_CHOICE = 15  # industry breakthrough: a=max cost; pick a card or forgo
FT_FLIP = 16         # sector breakthrough: pick a side-A sector or forgo
FT_REORDER = 17      # a=sector, b=picked mask, c=order (3 bits a pick), d=picks made
FT_TURN_END = 18     # * step 6 and hand-over to the next player / round
FT_SOLO_SWAP = 19    # solo setup: swap two sectors' starting columns, or pass
FT_DISCARD_PAY = 20  # discard multiplier: discard hand cards for the icon below, then done
FT_ONGOING = 21      # ongoing card: a=face, b=sector, c=icon, d=uses: take the follow-up or pass
N_FRAME_TYPES = 22

ICON_FOLLOW_UP = 8   # added to FT_ICON's icon index: an ongoing follow-up (uses ARG2's action)

REW_SRC_DEMAND = 0
REW_SRC_SPACE = 1
REW_SRC_GROUP = 2

# sources of energy points, counted per player in P_PTS as the game is played (statistics for
# balance reports; P_SCORE is their sum in a game played from the start)
PTS_DEMAND_BASIC = 0      # the basic rewards of a demand card
PTS_DEMAND_PRIORITY = 1   # the priority rewards of a player's first two demand cards
PTS_SPACE = 2             # a research breakthrough space
PTS_GROUP = 3             # a research group bonus
N_PTS_SOURCES = 4
PTS_SOURCE_NAMES = ("demand_basic", "demand_priority", "research_space", "research_group")

PLACE_BOUGHT = 0
PLACE_FREE = 1

BOOST_NONE = 0
BOOST_INNOVATION = 1
BOOST_COLLABORATION = 2

# ----------------------------------------------------------------------------------------------
# Player block (offsets relative to the start of a player's block)
# ----------------------------------------------------------------------------------------------
_p = Layout("player block")
P_DEPOT = _p.field("P_DEPOT", N_COLS, "depot cubes per column")
P_GRID = _p.field("P_GRID", N_COLS, "grid (transmitted) cubes per column")
P_RESEARCH = _p.field("P_RESEARCH", 1, "research marker 0..6")
P_BT = _p.field("P_BT", N_BT_SPACES, "1 where the player covered that breakthrough space")
P_CLEAN = _p.field("P_CLEAN", 1, "clean breakthrough tokens")
P_SCORE = _p.field("P_SCORE", 1, "energy points")
P_NFULFILLED = _p.field("P_NFULFILLED", 1, "demand cards fulfilled so far (priority while < 2)")
P_FULFILLED = _p.field("P_FULFILLED", N_LEVELS, "1 where the player fulfilled the demand of that level")
P_SEC_COL = _p.field("P_SEC_COL", N_SECTORS, "column 0..6 of each sector")
P_SEC_SIDE = _p.field("P_SEC_SIDE", N_SECTORS, "0 side A, 1 side B")
P_SEC_N = _p.field("P_SEC_N", N_SECTORS, "cards on each sector")
P_SEC_CARD = _p.field("P_SEC_CARD", N_SECTORS * MAX_SLOTS, "face id at [s*5+slot], top first; -1 empty")
P_SEC_CHARGED = _p.field("P_SEC_CHARGED", N_SECTORS, "charge cube on the sector tile")
P_CARD_CHARGED = _p.field("P_CARD_CHARGED", N_SECTORS * MAX_SLOTS, "charge cube on the card [s*5+slot]")
P_HAND_N = _p.field("P_HAND_N", 1, "cards in hand")
P_HAND = _p.field("P_HAND", MAX_HAND, "industry card ids in hand, ascending; -1 padding (hidden)")
P_PLAN = _p.field("P_PLAN", 1, "secret sector choice this round, -1 none yet (hidden)")
P_CHOSEN = _p.field("P_CHOSEN", 1, "revealed sector choice this round, -1 before the reveal")
P_BOOST = _p.field("P_BOOST", 1, "boost of this round (BOOST_*)")
P_DEMANDS_ROUND = _p.field("P_DEMANDS_ROUND", 1, "demand cards fulfilled this round")
P_RESEARCH_TOTAL = _p.field("P_RESEARCH_TOTAL", 1, "research spaces moved in the game (statistics)")
P_PTS = _p.field("P_PTS", N_PTS_SOURCES, "energy points gained per source (PTS_*: demand basic, demand priority, research space, group bonus)")
P_SOLO_TOKEN = _p.field("P_SOLO_TOKEN", N_SECTORS, "solo: boost token on each sector (TOKEN_*)")
P_SIZE = _p.size

# ----------------------------------------------------------------------------------------------
# State S
# ----------------------------------------------------------------------------------------------
_s = Layout("state S")
S_VERSION = _s.field("S_VERSION", 1, "layout version (STATE_VERSION)")
S_NPLAYERS = _s.field("S_NPLAYERS", 1, "players 1..4")
S_ROUND = _s.field("S_ROUND", 1, "round 0 before the first reveal, then 1..12")
S_CUR = _s.field("S_CUR", 1, "player whose decision is pending")
S_TERMINAL = _s.field("S_TERMINAL", 1, "1 once the game is over")
S_DECISIONS = _s.field("S_DECISIONS", 1, "actions applied so far")
S_OPTIONS = _s.field("S_OPTIONS", 1, "option bits (tech packs, solo)")
S_RNG = _s.field("S_RNG", 4, "xorshift128 generator words (each < 2**32)")
#: the four salts that spread a seed over the generator words (R25; other games use others)
RNG_SALTS = (0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A)
S_DECK_N = _s.field("S_DECK_N", N_DECKS, "cards in each deck")
S_DECK = _s.field("S_DECK", N_DECKS * MAX_DECK, "deck contents [d*MAX_DECK+i], top = last (hidden)")
S_DISC_N = _s.field("S_DISC_N", N_DECKS, "cards in each discard pile")
S_DISC = _s.field("S_DISC", N_DECKS * MAX_DECK, "discard piles")
S_BASIC = _s.field("S_BASIC", MAX_BASIC, "1 where the basic card is still in the supply")
S_DEMAND = _s.field("S_DEMAND", N_LEVELS, "demand card id in play for each level")
S_SOLO = _s.field("S_SOLO", 1, "1 in a solo scenario game")
S_SOLO_TARGET = _s.field("S_SOLO_TARGET", 1, "solo: energy points needed to win")
S_SOLO_BONUS = _s.field("S_SOLO_BONUS", 1, "solo: bit l set when demand level l carries a bonus token")
S_SOLO_RLEVEL = _s.field("S_SOLO_RLEVEL", 1, "solo: the random level R (0..6), -1 if none")
S_SOLO_NSTARS = _s.field("S_SOLO_NSTARS", 1, "solo: bonus stars of the scenario")
S_STAR_ROUND = _s.field("S_STAR_ROUND", MAX_SCENARIO_STARS, "solo: round of each star, ascending")
S_STAR_STATE = _s.field("S_STAR_STATE", MAX_SCENARIO_STARS, "solo: 0 above the track, 1 claimed, 2 lost")
S_STAR_POINTS = _s.field("S_STAR_POINTS", MAX_SCENARIO_STARS + 1, "solo: energy points for k stars")
S_SOLO_NCH = _s.field("S_SOLO_NCH", 1, "solo: challenges of the scenario")
S_CH_COND = _s.field("S_CH_COND", MAX_CHALLENGES, "solo: challenge condition (CH_*)")
S_CH_A = _s.field("S_CH_A", MAX_CHALLENGES, "solo: first parameter")
S_CH_B = _s.field("S_CH_B", MAX_CHALLENGES, "solo: second parameter")
S_CH_MET = _s.field("S_CH_MET", MAX_CHALLENGES, "solo: 1 once the challenge is met")
S_BAG = _s.field("S_BAG", 2, "solo: boost tokens in the bag: [innovation, collaboration]")
S_SP = _s.field("S_SP", 1, "frames on the decision stack")
S_STACK = _s.field("S_STACK", MAX_STACK * FRAME, "decision frames, bottom first")
S_PLAYERS = _s.field("S_PLAYERS", MAX_PLAYERS * P_SIZE, "player blocks")
S_SIZE = _s.size
STATE_VERSION = 2

# ----------------------------------------------------------------------------------------------
# Action ids: one flat space of named ranges
# ----------------------------------------------------------------------------------------------
_a = Layout("action ids")
A_PASS = _a.field("A_PASS", 1, "end/decline the pending decision (pass, forgo, stop, done)")
A_PLAN = _a.field("A_PLAN", N_SECTORS, "plan: choose sector s")
A_BOOST = _a.field("A_BOOST", 1, "take the boost")
A_CARD_HAND = _a.field("A_CARD_HAND", MAX_HAND, "buy / play free the hand card in slot h")
A_CARD_BASIC = _a.field("A_CARD_BASIC", 2 * MAX_BASIC, "buy / play free basic card b, face f: 2*b+f")
A_PAY = _a.field("A_PAY", N_COLS, "pay one depot cube of column c")
A_PLACE_SECTOR = _a.field("A_PLACE_SECTOR", N_SECTORS, "place the card on sector s")
A_PLACE_SLOT = _a.field("A_PLACE_SLOT", MAX_SLOTS, "insert the card at slot k (top = 0)")
A_DIS_SECTOR = _a.field("A_DIS_SECTOR", N_SECTORS, "discharge sector tile s")
A_DIS_CARD = _a.field("A_DIS_CARD", N_SECTORS * MAX_SLOTS, "discharge the card at s*5+slot")
A_ICON = _a.field("A_ICON", MAX_ICONS, "use icon i of the item being discharged")
A_PRODUCE = _a.field("A_PRODUCE", N_COLS, "produce: one cube into depot c")
A_DEVELOP = _a.field("A_DEVELOP", N_COLS, "develop: move a depot cube from c to c+1")
A_TRANSMIT = _a.field("A_TRANSMIT", N_COLS, "transmit: move a depot cube of c to the grid")
A_RESEARCH = _a.field("A_RESEARCH", 1, "research: marker +1")
A_INVEST = _a.field("A_INVEST", N_DECKS, "invest: one draw from deck d (0 production, 1 infrastructure)")
A_PLAN_MOVE = _a.field("A_PLAN_MOVE", N_SECTORS * N_COLS, "plan icon: move sector s to column c: s*7+c")
A_BT = _a.field("A_BT", N_BT_SPACES, "cover research breakthrough space k")
A_FULFILL = _a.field("A_FULFILL", N_LEVELS, "fulfil the demand card of level l")
A_REWARD = _a.field("A_REWARD", MAX_REWARDS, "take reward slot r of the pending reward list")
A_FLIP = _a.field("A_FLIP", N_SECTORS, "sector breakthrough: flip sector s to side B")
A_REORDER = _a.field("A_REORDER", MAX_SLOTS, "after a flip: the card from old slot k goes next")
A_DISCARD = _a.field("A_DISCARD", MAX_HAND, "any time (R13): discard hand slot h for its bonus")
A_DONATE = _a.field("A_DONATE", N_COLS, "any time (R13): donate a grid cube of column c to research")
A_DISCARD_MULT = _a.field("A_DISCARD_MULT", MAX_HAND, "tech pack: discard hand slot h to raise the discard multiplier (pass = done)")
A_ONGOING = _a.field("A_ONGOING", 1, "tech pack: take the ongoing follow-up")
A_SOLO_SWAP = _a.field("A_SOLO_SWAP", 10, "solo setup: swap the columns of sector pair k (SOLO_PAIRS)")
N_ACTIONS = _a.size

# the ten sector pairs of A_SOLO_SWAP, in order
SOLO_PAIRS = tuple((i, j) for i in range(N_SECTORS) for j in range(i + 1, N_SECTORS))
SOLO_PAIRS_I = tuple(i for i, _ in SOLO_PAIRS)
SOLO_PAIRS_J = tuple(j for _, j in SOLO_PAIRS)

LAYOUTS = (_t, _sc, _p, _s, _a)


def layout_rows() -> dict[str, list[tuple[str, int, int, str]]]:
    """Return the documentation tables: for each layout, rows of (name, offset, length, meaning)."""
    return layout_tables(LAYOUTS)


def layout_markdown() -> str:
    """Render every layout as a Markdown table (offset, length, meaning)."""
    return tables_markdown(LAYOUTS)


if __name__ == "__main__":  # pragma: no cover
    print(layout_markdown())
