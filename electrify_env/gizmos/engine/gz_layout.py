"""Every fixed number of the Gizmos engine, in one place.

Three flat int64 arrays carry a game of Gizmos:

* the **card table** ``T`` (built once by :mod:`electrify_env.gizmos.cards` from a card-set file),
* the **state** ``S`` (one game: everything that changes, the random generator included),
* the **action id** space (one flat discrete space of named ranges).

Offsets are allocated in order by the game-independent
:class:`~electrify_env.common.engine.layouts.Layout`; :func:`layout_markdown` renders the tables
(``python -m electrify_env.gizmos.engine.gz_layout``).  Jitted code reads the module-level ints,
which numba freezes as compile-time constants.  Capacities (``MAX_*``) bound a card set; the loader
refuses a set that does not fit.  Ruling ids (G1-G25) refer to ``docs/gizmos/rules.md``.
"""
from __future__ import annotations

from ...common.engine.layouts import Layout, layout_tables, tables_markdown

# ----------------------------------------------------------------------------------------------
# Capacities and codes
# ----------------------------------------------------------------------------------------------
N_COLOURS = 4          # G1: red, yellow, blue, black
COL_RED = 0
COL_YELLOW = 1
COL_BLUE = 2
COL_BLACK = 3
COL_ANY = 4            # G2: a card of colour "any"
COL_NONE = 5           # level 0 cards
N_LEVELS = 4           # 0, I, II, III
N_DECKS = 3            # decks I, II, III (deck d holds level d + 1)
MAX_CARDS = 200        # cards in a card set
MAX_DECK = 64          # cards of one level
MAX_DISPLAY = 4        # face-up slots of one level
MAX_PLAYERS = 4
MAX_BUILT = 48         # machines of one player (a build that would pass it is not legal)
MAX_ARCHIVE = 16       # archive capacity (the largest archive limit a set allows)
MAX_RESEARCH = 16      # research capacity (the largest research limit a set allows)
MAX_OPTS = 24          # converter options one player can hold
NO_CARD = -1

# card types = dashboard columns
TY_UPGRADE = 0
TY_CONVERTER = 1
TY_FILE = 2
TY_PICK = 3
TY_BUILD = 4
N_TYPES = 5

# effects (G3)
EF_NONE = 0
EF_PICK = 1            # file / build machine: do a Pick
EF_TOKENS = 2          # file / build machine: gain N tokens
EF_DRAW = 3            # file / pick machine: draw N marbles blind
EF_TWO_PICKS = 4       # build machine
EF_FILE = 5            # build machine
EF_RESEARCH = 6        # build machine
EF_FREE_BUILD = 7      # build machine: build a level-I machine for free
EF_UPGRADE = 8         # upgrade: +storage/+archive/+research, with an optional special (UP_*)
EF_CONVERTER = 9       # converter: one or two options (CV_*)
N_EFFECTS = 10

# upgrade specials
UP_NONE = 0
UP_NO_FILE = 1
UP_RESEARCH_DISCOUNT = 2
UP_ARCHIVE_DISCOUNT = 3
UP_L2_DISCOUNT = 4
UP_NO_RESEARCH = 5
UP_SCORE_STORAGE = 6
UP_SCORE_TOKENS = 7
N_SPECIALS = 8

# converter option kinds
CV_NONE = 0
CV_DOUBLE = 1          # one X counts as two X
CV_WILD = 2            # one X counts as one of any colour
CV_WILD2 = 3           # the same, on up to two X marbles (one option)
CV_ANY = 4             # any one marble counts as another colour

# trigger conditions
TR_NONE = 0            # upgrades, converters
TR_ALWAYS = 1          # file machines: every File
TR_COLOURS = 2         # pick machines (colour picked) and build machines (colour built)
TR_LEVEL2 = 3          # build machines: a level-II machine built
TR_ARCHIVE = 4         # build machines: a machine built from the archive

# build sources
SRC_DISPLAY = 0
SRC_ARCHIVE = 1
SRC_RESEARCH = 2

# phases of the pending decision
PH_MAIN = 0            # G5: File, Pick, Build, Research (or pass when none is legal)
PH_PAY = 1             # G11: spend a marble, apply a converter option, or confirm
PH_RESEARCH = 2        # G9: build or file a drawn card, or take neither
PH_CHAIN = 3           # G13: use a waiting machine or end the turn
PH_EFFECT_PICK = 4     # G14/G19: the Pick of a machine (S_EFF_LEFT picks left; the second may be declined)
PH_EFFECT_FILE = 5     # the File of a machine
PH_EFFECT_RESEARCH = 6  # the Research of a machine: choose a deck
PH_FREE_BUILD = 7      # G17: choose a level-I card
PH_OVER = 8
N_PHASES = 9
PHASE_NAMES = ("main", "pay", "research", "chain", "effect_pick", "effect_file", "effect_research",
               "free_build", "game_over")


# ----------------------------------------------------------------------------------------------
# Card table T
# ----------------------------------------------------------------------------------------------
_t = Layout("card table T")
T_N_CARDS = _t.field("T_N_CARDS", 1, "cards in the set")
T_MARBLES = _t.field("T_MARBLES", N_COLOURS, "marbles of each colour in the game (G1)")
T_ROW_SIZE = _t.field("T_ROW_SIZE", 1, "marbles in a full Energy Row (G1)")
T_DISPLAY = _t.field("T_DISPLAY", N_DECKS, "face-up slots of levels I, II, III (G4)")
T_L3_KEEP = _t.field("T_L3_KEEP", 1, "level-III cards kept at setup (G4)")
T_BASE_STORAGE = _t.field("T_BASE_STORAGE", 1, "base storage limit (G4)")
T_BASE_ARCHIVE = _t.field("T_BASE_ARCHIVE", 1, "base archive limit (G4)")
T_BASE_RESEARCH = _t.field("T_BASE_RESEARCH", 1, "base research limit (G4)")
T_END_BUILT = _t.field("T_END_BUILT", 1, "built machines that end the game (G20)")
T_END_L3 = _t.field("T_END_L3", 1, "level-III machines that end the game (G20)")
T_MAX_ROUNDS = _t.field("T_MAX_ROUNDS", 1, "round cap (G22)")
T_LEVEL = _t.field("T_LEVEL", MAX_CARDS, "level 0..3")
T_TYPE = _t.field("T_TYPE", MAX_CARDS, "type = dashboard column (TY_*)")
T_COLOUR = _t.field("T_COLOUR", MAX_CARDS, "colour 0..3, COL_ANY or COL_NONE")
T_COST = _t.field("T_COST", MAX_CARDS, "cost in marbles")
T_POINTS = _t.field("T_POINTS", MAX_CARDS, "printed points")
T_EFFECT = _t.field("T_EFFECT", MAX_CARDS, "effect (EF_*)")
T_EFF_N = _t.field("T_EFF_N", MAX_CARDS, "effect number N (tokens, marbles drawn)")
T_TRIG = _t.field("T_TRIG", MAX_CARDS, "trigger condition (TR_*)")
T_TRIG_MASK = _t.field("T_TRIG_MASK", MAX_CARDS, "trigger colours, bit c for colour c")
T_UP_STORAGE = _t.field("T_UP_STORAGE", MAX_CARDS, "upgrade: + storage")
T_UP_ARCHIVE = _t.field("T_UP_ARCHIVE", MAX_CARDS, "upgrade: + archive")
T_UP_RESEARCH = _t.field("T_UP_RESEARCH", MAX_CARDS, "upgrade: + research")
T_UP_SPECIAL = _t.field("T_UP_SPECIAL", MAX_CARDS, "upgrade: special (UP_*)")
T_CV_N = _t.field("T_CV_N", MAX_CARDS, "converter: options (1 or 2)")
T_CV_KIND = _t.field("T_CV_KIND", MAX_CARDS * 2, "converter option kind (CV_*) [card*2+k]")
T_CV_COL = _t.field("T_CV_COL", MAX_CARDS * 2, "converter option colour X (CV_ANY: unused)")
T_SIZE = _t.size

# ----------------------------------------------------------------------------------------------
# Player block (offsets relative to a player's block)
# ----------------------------------------------------------------------------------------------
_p = Layout("player block")
P_BUILT_N = _p.field("P_BUILT_N", 1, "built machines (starting card included)")
P_BUILT = _p.field("P_BUILT", MAX_BUILT, "card id of each machine, in build order")
P_WAIT = _p.field("P_WAIT", MAX_BUILT, "1 where the machine is triggered and waiting (G13)")
P_USED = _p.field("P_USED", MAX_BUILT, "1 where the machine was used this turn (G13)")
P_OPT_USED = _p.field("P_OPT_USED", MAX_BUILT, "converter options used this turn, bit k (G11)")
P_ARCH_N = _p.field("P_ARCH_N", 1, "cards in the archive")
P_ARCH = _p.field("P_ARCH", MAX_ARCHIVE, "archive card ids, in filing order")
P_STORE = _p.field("P_STORE", N_COLOURS, "marbles in storage, per colour")
P_TOKENS = _p.field("P_TOKENS", 1, "victory point tokens")
P_LIM_STORE = _p.field("P_LIM_STORE", 1, "storage limit (base + upgrades)")
P_LIM_ARCH = _p.field("P_LIM_ARCH", 1, "archive limit")
P_LIM_RES = _p.field("P_LIM_RES", 1, "research limit")
P_SPECIAL = _p.field("P_SPECIAL", N_SPECIALS, "upgrade specials built, per UP_* code")
P_N_L3 = _p.field("P_N_L3", 1, "level-III machines built")
P_TURNS = _p.field("P_TURNS", 1, "turns taken")
P_SIZE = _p.size

# ----------------------------------------------------------------------------------------------
# State S
# ----------------------------------------------------------------------------------------------
_s = Layout("state S")
S_VERSION = _s.field("S_VERSION", 1, "layout version (STATE_VERSION)")
S_NPLAYERS = _s.field("S_NPLAYERS", 1, "players 2..4")
S_ROUND = _s.field("S_ROUND", 1, "round, from 1")
S_CUR = _s.field("S_CUR", 1, "active seat")
S_PHASE = _s.field("S_PHASE", 1, "phase of the pending decision (PH_*)")
S_TERMINAL = _s.field("S_TERMINAL", 1, "1 once the game is over")
S_TRUNCATED = _s.field("S_TRUNCATED", 1, "1 if the round cap ended it (G22)")
S_ENDING = _s.field("S_ENDING", 1, "1 once an end condition held at a turn's end (G20)")
S_DECISIONS = _s.field("S_DECISIONS", 1, "actions applied")
S_RNG = _s.field("S_RNG", 4, "xorshift128 generator words (hidden, G24/G25)")
#: the four salts that spread a seed over the generator words (G24; other games use others)
RNG_SALTS = (0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344)
S_DISPENSER = _s.field("S_DISPENSER", N_COLOURS, "marbles in the dispenser, per colour")
S_ROW = _s.field("S_ROW", N_COLOURS, "marbles in the Energy Row, per colour")
S_DECK_N = _s.field("S_DECK_N", N_DECKS, "cards in each deck")
S_DECK = _s.field("S_DECK", N_DECKS * MAX_DECK, "deck [d*MAX_DECK+i], bottom first, top = last (hidden order)")
S_DECK_KNOWN = _s.field("S_DECK_KNOWN", N_DECKS * MAX_DECK,
                        "who knows deck card [d*MAX_DECK+i]: bit p for the seat that put it under "
                        "after its Research, until it is drawn (G25)")
S_DISPLAY = _s.field("S_DISPLAY", N_DECKS * MAX_DISPLAY, "face-up card [d*MAX_DISPLAY+slot], -1 empty")
S_BOX_N = _s.field("S_BOX_N", 1, "cards out of the game")
S_BOX = _s.field("S_BOX", MAX_CARDS, "cards out of the game: the level-III cut at setup (hidden)")
S_PAY_CARD = _s.field("S_PAY_CARD", 1, "payment: the card being built")
S_PAY_SRC = _s.field("S_PAY_SRC", 1, "payment: its source (SRC_*)")
S_PAY_SLOT = _s.field("S_PAY_SLOT", 1, "payment: display slot d*MAX_DISPLAY+k or archive index")
S_PAY_COST = _s.field("S_PAY_COST", 1, "payment: marbles owed after discounts (G12)")
S_PAY_M = _s.field("S_PAY_M", N_COLOURS, "payment: marbles spent so far, per colour")
S_PAY_LASTC = _s.field("S_PAY_LASTC", 1, "payment: colour of the last marble spent (marbles go in colour order)")
S_PAY_OPTS = _s.field("S_PAY_OPTS", 1, "payment: converter options applied, bit i of the option list")
S_PAY_LASTO = _s.field("S_PAY_LASTO", 1, "payment: last option applied (-1 none; options go in list order after marbles)")
S_OPT_N = _s.field("S_OPT_N", 1, "payment: converter options available (unused this turn)")
S_OPT_MACH = _s.field("S_OPT_MACH", MAX_OPTS, "option list: machine index")
S_OPT_K = _s.field("S_OPT_K", MAX_OPTS, "option list: option index on the card")
S_RES_DECK = _s.field("S_RES_DECK", 1, "research: the deck drawn from")
S_RES_N = _s.field("S_RES_N", 1, "research: cards drawn")
S_RES = _s.field("S_RES", MAX_RESEARCH, "research: drawn card ids in draw order (seen by the active seat only)")
S_EFF_LEFT = _s.field("S_EFF_LEFT", 1, "effect Pick: picks left (G19)")
S_EFF_FIRST = _s.field("S_EFF_FIRST", 1, "effect Pick: 1 before the first pick of the effect")
S_PLAYERS = _s.field("S_PLAYERS", MAX_PLAYERS * P_SIZE, "player blocks")
S_SIZE = _s.size
STATE_VERSION = 2

# ----------------------------------------------------------------------------------------------
# Action ids
# ----------------------------------------------------------------------------------------------
_a = Layout("action ids")
A_PASS = _a.field("A_PASS", 1, "pass (no legal action), end the turn, decline, or take neither")
A_FILE = _a.field("A_FILE", N_DECKS * MAX_DISPLAY, "file the display card of level d+1, slot k: d*4+k")
A_PICK = _a.field("A_PICK", N_COLOURS, "pick a marble of colour c from the row")
A_BUILD = _a.field("A_BUILD", N_DECKS * MAX_DISPLAY, "build the display card d*4+k")
A_BUILD_ARCH = _a.field("A_BUILD_ARCH", MAX_ARCHIVE, "build archive card i")
A_RESEARCH = _a.field("A_RESEARCH", N_DECKS, "research deck d (level d+1)")
A_RES_BUILD = _a.field("A_RES_BUILD", MAX_RESEARCH, "research: build drawn card i")
A_RES_FILE = _a.field("A_RES_FILE", MAX_RESEARCH, "research: file drawn card i")
A_USE = _a.field("A_USE", MAX_BUILT, "use waiting machine j (index in build order)")
A_SPEND = _a.field("A_SPEND", N_COLOURS, "payment: spend a stored marble of colour c")
A_CONVERT = _a.field("A_CONVERT", MAX_OPTS, "payment: apply converter option i of the option list")
A_CONFIRM = _a.field("A_CONFIRM", 1, "payment: pay with the marbles and options chosen")
N_ACTIONS = _a.size

# ----------------------------------------------------------------------------------------------
# Work buffer W (scratch of the mask and the payment search; never part of a game)
# ----------------------------------------------------------------------------------------------
MEMO_SLOTS = 65536     # slots of the search memo (a power of two)
MEMO_PROBES = 16       # slots tried per key before a position goes unremembered
MEMO_COUNT_BITS = 6    # bits per colour count in a memo key (larger counts are not remembered)
MEMO_WIDTH = 3         # entries of one memo slot: key, generation, yield
MEMO_MIN_OPTS = 3      # positions with fewer options left are searched, not remembered
N_TARGETS = N_COLOURS + 1   # the four colours and COL_ANY
PAY_LIST_MAX = 4096    # minimal payments one payment decision lists (more: steps are searched)
PAY_LIST_OPTS = 12     # converter options a listed payment decision may have (more: searched)
PAY_KEY_SIZE = 8 + 2 * MAX_OPTS   # words that identify a payment decision (see W_PL_KEY)
PF_BOX_MAX = 1024      # marble multisets of a payment decision whose feasibility bits are kept
PF_WORDS = 4096        # words of feasibility bits (a flag word and 64 multisets a word, per option set)
YC_SLOTS = 4096        # slots of the affordability table (a power of two)
YC_WIDTH = 8           # entries of one slot: two key words, bits of the targets known, five yields
_w = Layout("work buffer W")
W_OPT_N = _w.field("W_OPT_N", 1, "converter options of the current search")
W_KINDS = _w.field("W_KINDS", MAX_OPTS, "option kind (CV_*) per option of the search")
W_COLS = _w.field("W_COLS", MAX_OPTS, "option colour per option of the search")
W_C = _w.field("W_C", N_COLOURS, "marble pool searched (changed and restored)")
W_M = _w.field("W_M", N_COLOURS, "payment: marbles spent")
W_STORE = _w.field("W_STORE", N_COLOURS, "payment: marbles stored")
W_TOP = _w.field("W_TOP", N_COLOURS, "payment: largest marble extension")
W_A = _w.field("W_A", N_COLOURS, "payment: marble extension being tried")
W_REACH_NEED = _w.field("W_REACH_NEED", N_TARGETS, "mask: largest cost asked of each colour")
W_REACH = _w.field("W_REACH", N_TARGETS, "mask: best yield of each colour (exact below its cost)")
W_ASKED = _w.field("W_ASKED", N_DECKS * MAX_DISPLAY + MAX_ARCHIVE,
                   "mask: the cost asked of each display slot, then each archive card (or each "
                   "drawn card of a Research), times 8 plus its colour's search target; -1 empty")
W_GEN = _w.field("W_GEN", 1, "memo generation: a slot counts only if it holds the current one")
W_MEMO = _w.field("W_MEMO", MEMO_SLOTS * MEMO_WIDTH,
                  "memo slot i at W_MEMO + MEMO_WIDTH*i: key (marble pool and options left), "
                  "generation written in, yield searched")
W_PL_KEY = _w.field("W_PL_KEY", PAY_KEY_SIZE,
                    "payment list: the decision it lists (valid flag, colour, cost, stored marbles, "
                    "option count, option kinds and colours)")
W_PL_N = _w.field("W_PL_N", 1, "payment list: minimal payments listed (-1: too many, searched)")
W_PL = _w.field("W_PL", PAY_LIST_MAX,
                "payment list: one minimal payment per entry, marble counts in 6-bit fields by "
                "colour, option set from bit 24")
W_PF = _w.field("W_PF", PF_WORDS,
                "payment list being made, per option set in order: 1 if the whole usable store is "
                "feasible, then the feasibility bits of the marble multisets, 64 a word")
W_YC = _w.field("W_YC", YC_SLOTS * YC_WIDTH,
                "affordability table slot i at W_YC + YC_WIDTH*i: stored marbles and option "
                "count, the unused options by kind and colour, bits of the targets known (low five) "
                "and known exactly (next five), the best yield of each target (COL_ANY last)")
W_SIZE = _w.size

LAYOUTS = (_t, _p, _s, _a, _w)


def layout_rows() -> dict[str, list[tuple[str, int, int, str]]]:
    """The documentation tables: for each layout, rows of (name, offset, length, meaning)."""
    return layout_tables(LAYOUTS)


def layout_markdown() -> str:
    """Render every layout as a Markdown table (offset, length, meaning)."""
    return tables_markdown(LAYOUTS)


if __name__ == "__main__":  # pragma: no cover
    print(layout_markdown())
