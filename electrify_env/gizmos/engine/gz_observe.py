"""The Gizmos observation kernel: the layout of the observation vector and the jitted writer
:func:`observe_state` (the Python face, its documentation and the feature names are in
:mod:`electrify_env.gizmos.observation`).  It lives in the engine folder so that numba's cache of
it is stamped with the engine's sources (the layout constants it freezes, the scoring it calls)."""
from __future__ import annotations

from numba import njit

from .gz_energy import pbase
from .gz_layout import (
    COL_NONE, CV_ANY, CV_NONE, EF_NONE, MAX_ARCHIVE, MAX_BUILT, MAX_DECK, MAX_DISPLAY, MAX_OPTS,
    MAX_PLAYERS, MAX_RESEARCH, N_COLOURS, N_DECKS, N_EFFECTS, N_LEVELS, N_PHASES, N_SPECIALS,
    N_TYPES, NO_CARD, P_ARCH, P_ARCH_N, P_BUILT, P_BUILT_N, P_LIM_ARCH, P_LIM_RES, P_LIM_STORE,
    P_N_L3, P_OPT_USED, P_SPECIAL, P_STORE, P_TOKENS, P_TURNS, P_USED, P_WAIT, PHASE_NAMES,
    PH_EFFECT_PICK, PH_PAY, PH_RESEARCH, S_CUR, S_DECK, S_DECK_KNOWN, S_DECK_N, S_DISPENSER,
    S_DISPLAY, S_EFF_FIRST, S_EFF_LEFT, S_ENDING, S_NPLAYERS, S_OPT_K, S_OPT_MACH, S_OPT_N,
    S_PAY_CARD, S_PAY_COST, S_PAY_M, S_PAY_OPTS, S_PAY_SRC, S_PHASE, S_RES, S_RES_DECK, S_RES_N,
    S_ROUND, S_ROW, S_TERMINAL, S_TRUNCATED, T_COLOUR, T_COST, T_CV_COL, T_CV_KIND, T_CV_N,
    T_DISPLAY, T_EFF_N, T_EFFECT, T_END_BUILT, T_END_L3, T_LEVEL, T_MARBLES, T_MAX_ROUNDS,
    T_POINTS, T_ROW_SIZE, T_TRIG, T_TRIG_MASK, T_TYPE, T_UP_ARCHIVE, T_UP_RESEARCH, T_UP_SPECIAL,
    T_UP_STORAGE, TR_NONE, UP_NONE,
)
from .gz_scoring import score

#: the observation's version (a policy trained on one version reads only that version)
OBS_VERSION = 1

# Scales: a count is divided by its scale and clipped at 1.
SC_COST = 8.0          # card cost, marbles owed or spent in a payment
SC_POINTS = 8.0        # printed points of one card
SC_EFF_N = 4.0         # an effect's number N
SC_UPGRADE = 4.0       # an upgrade's + storage / archive / research
SC_SCORE = 100.0       # a player's points
SC_STORE = 10.0        # marbles of one colour in storage, the storage limit
SC_TOKENS = 20.0       # victory point tokens
SC_SPECIAL = 2.0       # upgrade specials of one kind held
SC_MARKS = 8.0         # waiting or used machines
SC_BAG = 16.0          # summed card features of a player's machines
SC_ARCH_BAG = 4.0      # summed card features of a player's archive
SC_PICKS = 2.0         # effect picks left
SC_KNOWN = 4.0         # cards the observer knows under one deck (G25)


class _Fields:
    """Allocates consecutive named fields with a name for every entry (the feature names)."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.size = 0
        self.rows: list[tuple[str, int, int, str]] = []
        self.names: list[str] = []

    def field(self, name: str, subs: list[str], meaning: str) -> int:
        """Allocate one entry per name of ``subs`` (``name.sub``; ``name`` alone for ``""``)."""
        off = self.size
        self.rows.append((name, off, len(subs), meaning))
        self.names.extend(f"{name}.{s}" if s else name for s in subs)
        self.size += len(subs)
        return off


_COLOURS = ["red", "yellow", "blue", "black"]

# ---- card features ----------------------------------------------------------------------------
_cf = _Fields("card features")
CF_PRESENT = _cf.field("present", [""], "a card is there")
CF_LEVEL = _cf.field("level", ["0", "I", "II", "III"], "level (one-hot)")
CF_TYPE = _cf.field("type", ["upgrade", "converter", "file", "pick", "build"], "type = dashboard column (one-hot)")
CF_COLOUR = _cf.field("colour", _COLOURS + ["any", "none"], "colour (one-hot)")
CF_COST = _cf.field("cost", [""], f"printed cost / {SC_COST:g}, clipped")
CF_POINTS = _cf.field("points", [""], f"printed points / {SC_POINTS:g}, clipped")
CF_EFFECT = _cf.field("effect", ["pick", "tokens", "draw", "two_picks", "file", "research", "free_build",
                                 "upgrade", "converter"], "effect (one-hot)")
CF_EFF_N = _cf.field("effect_n", [""], f"effect number N / {SC_EFF_N:g}, clipped")
CF_TRIG = _cf.field("trigger", ["file", "colours", "level2", "archive"], "trigger condition (one-hot)")
CF_TRIG_COL = _cf.field("trigger_colour", _COLOURS, "trigger colours")
CF_UPGRADE = _cf.field("upgrade", ["storage", "archive", "research"], f"upgrade: + limits / {SC_UPGRADE:g}, clipped")
CF_SPECIAL = _cf.field("special", ["no_file", "research_discount", "archive_discount", "level2_discount",
                                   "no_research", "score_storage", "score_tokens"], "upgrade special (one-hot)")
CF_CONVERT = _cf.field("convert", [f"{k}_{x}" for k in range(2)
                                   for x in ["double", "wild", "wild2", "any"] + _COLOURS],
                       "converter options 0, 1: kind (one-hot), colour X (one-hot)")
CF_SIZE = _cf.size
_CV_SLOT = 4 + N_COLOURS   # features of one converter option

# ---- per-player block -------------------------------------------------------------------------
_pf = _Fields("player block")
PL_PRESENT = _pf.field("present", [""], "the seat is in the game")
PL_SCORE = _pf.field("points", [""], f"points / {SC_SCORE:g}, clipped")
PL_BUILT = _pf.field("built", ["end", "max"], "built machines / end_built (clipped), / 48")
PL_L3 = _pf.field("level3", [""], "level-III machines / end_level3, clipped")
PL_STORE = _pf.field("storage", _COLOURS, f"marbles in storage per colour / {SC_STORE:g}, clipped")
PL_FILL = _pf.field("storage_used", [""], "marbles in storage / the storage limit")
PL_TOKENS = _pf.field("tokens", [""], f"victory point tokens / {SC_TOKENS:g}, clipped")
PL_LIMITS = _pf.field("limit", ["storage", "archive", "research"],
                      f"limits: storage / {SC_STORE:g} (clipped), archive / 16, research / 16")
PL_ARCH_N = _pf.field("archive_n", [""], "cards in the archive / 16")
PL_TURNS = _pf.field("turns", [""], "turns taken / the round cap")
PL_SPECIAL = _pf.field("special", ["no_file", "research_discount", "archive_discount", "level2_discount",
                                   "no_research", "score_storage", "score_tokens"],
                       f"upgrade specials held / {SC_SPECIAL:g}, clipped")
PL_MARKS = _pf.field("machines", ["waiting", "used"], f"waiting / used machines / {SC_MARKS:g}, clipped")
PL_BAG = _pf.field("machine_sum", _cf.names, f"sum of the card features of its machines / {SC_BAG:g}, clipped")
PL_ARCH_BAG = _pf.field("archive_sum", _cf.names, f"sum of the card features of its archive / {SC_ARCH_BAG:g}, clipped")
PL_SIZE = _pf.size

# ---- the observation --------------------------------------------------------------------------
_OWN_SLOT = CF_SIZE + 4    # card features, waiting, used, option 0 used, option 1 used
_OPT_SLOT = 2 + 4 + N_COLOURS   # present, applied, kind (4), colour (4)
_o = _Fields("observation")
O_NPLAYERS = _o.field("n_players", ["2", "3", "4"], "players (one-hot)")
O_ROUND = _o.field("round", [""], "round / the round cap")
O_PHASE = _o.field("phase", list(PHASE_NAMES), "phase of the pending decision (one-hot)")
O_TO_MOVE = _o.field("to_move", [f"p{k}" for k in range(MAX_PLAYERS)], "the seat to move, seat-relative (one-hot)")
O_STATUS = _o.field("status", ["ending", "over", "truncated"], "end triggered (G20), game over, truncated (G22)")
O_ROW = _o.field("row", _COLOURS, "Energy Row marbles per colour / the row size")
O_DISPENSER = _o.field("dispenser", _COLOURS, "dispenser marbles per colour / that colour's marbles")
O_DECK = _o.field("deck", ["I", "II", "III"], f"cards in each deck / {MAX_DECK}")
O_DISPLAY = _o.field("display", [f"{d * MAX_DISPLAY + k}.{n}" for d in range(N_DECKS) for k in range(MAX_DISPLAY)
                                 for n in _cf.names], "display card d*4+k (card features; empty: zero)")
O_PLAYERS = _o.field("player", [f"p{k}.{n}" for k in range(MAX_PLAYERS) for n in _pf.names],
                     "player blocks, seat-relative (p0 = the observer)")
O_OWN_MACH = _o.field("own_machine", [f"{j}.{n}" for j in range(MAX_BUILT)
                                      for n in _cf.names + ["waiting", "used", "option0_used", "option1_used"]],
                      "the observer's machines in build order: card features, waiting, used, options used")
O_OWN_ARCH = _o.field("own_archive", [f"{i}.{n}" for i in range(MAX_ARCHIVE) for n in _cf.names],
                      "the observer's archive in filing order (card features)")
O_PAY_CARD = _o.field("pay_card", _cf.names, "payment: the card being built")
O_PAY_SRC = _o.field("pay_source", ["display", "archive", "research"], "payment: its source (one-hot)")
O_PAY_COST = _o.field("pay_owed", [""], f"payment: marbles owed / {SC_COST:g}, clipped")
O_PAY_M = _o.field("pay_spent", _COLOURS, f"payment: marbles spent per colour / {SC_COST:g}, clipped")
O_PAY_OPT = _o.field("pay_option", [f"{i}.{n}" for i in range(MAX_OPTS)
                                    for n in ["present", "applied", "double", "wild", "wild2", "any"] + _COLOURS],
                     "payment: option list entry i: present, applied, kind, colour")
O_KNOWN = _o.field("known_under", [f"{lv}.{n}" for lv in ("I", "II", "III") for n in ["n"] + _cf.names],
                   f"per deck: cards the observer put under it and knows there (G25) / {SC_KNOWN:g}, "
                   f"then the sum of their card features / {SC_KNOWN:g}, clipped")
O_RES_DECK = _o.field("research_deck", ["I", "II", "III"], "research: the deck drawn from (one-hot)")
O_RES_N = _o.field("research_n", [""], f"research: cards drawn / {MAX_RESEARCH}")
O_RES = _o.field("research_card", [f"{i}.{n}" for i in range(MAX_RESEARCH) for n in _cf.names],
                 "research: drawn card i (the researcher only)")
O_EFFECT = _o.field("effect", ["picks_left", "first"], f"effect Pick: picks left / {SC_PICKS:g}, before the first pick")
OBS_SIZE = _o.size


# ---- the kernel -------------------------------------------------------------------------------
@njit(cache=True)
def _clip(x):
    return x if x < 1.0 else 1.0


@njit(cache=True)
def write_card(T, c, out, at, scale):
    """Add the card features of card ``c`` of table ``T``, divided by ``scale``, at ``out[at:]``
    (``out[at:at+CF_SIZE]`` must start zero for a plain write with ``scale`` 1)."""
    w = 1.0 / scale
    out[at + CF_PRESENT] += w
    out[at + CF_LEVEL + T[T_LEVEL + c]] += w
    out[at + CF_TYPE + T[T_TYPE + c]] += w
    out[at + CF_COLOUR + T[T_COLOUR + c]] += w
    out[at + CF_COST] += w * _clip(T[T_COST + c] / SC_COST)
    out[at + CF_POINTS] += w * _clip(T[T_POINTS + c] / SC_POINTS)
    ef = T[T_EFFECT + c]
    if ef != EF_NONE:
        out[at + CF_EFFECT + ef - 1] += w
    out[at + CF_EFF_N] += w * _clip(T[T_EFF_N + c] / SC_EFF_N)
    tr = T[T_TRIG + c]
    if tr != TR_NONE:
        out[at + CF_TRIG + tr - 1] += w
    bits = T[T_TRIG_MASK + c]
    for x in range(N_COLOURS):
        if (bits >> x) & 1:
            out[at + CF_TRIG_COL + x] += w
    out[at + CF_UPGRADE] += w * _clip(T[T_UP_STORAGE + c] / SC_UPGRADE)
    out[at + CF_UPGRADE + 1] += w * _clip(T[T_UP_ARCHIVE + c] / SC_UPGRADE)
    out[at + CF_UPGRADE + 2] += w * _clip(T[T_UP_RESEARCH + c] / SC_UPGRADE)
    sp = T[T_UP_SPECIAL + c]
    if sp != UP_NONE:
        out[at + CF_SPECIAL + sp - 1] += w
    for k in range(T[T_CV_N + c]):
        kind = T[T_CV_KIND + 2 * c + k]
        if kind != CV_NONE:
            base = at + CF_CONVERT + k * _CV_SLOT
            out[base + kind - 1] += w
            if kind != CV_ANY:
                out[base + 4 + T[T_CV_COL + 2 * c + k]] += w


@njit(cache=True)
def _clip_range(out, lo, hi):
    for i in range(lo, hi):
        if out[i] > 1.0:
            out[i] = 1.0


@njit(cache=True)
def _player(S, T, p, out, at):
    """Player block of seat ``p`` at ``out[at:]``."""
    pb = pbase(p)
    out[at + PL_PRESENT] = 1.0
    out[at + PL_SCORE] = _clip(score(S, T, p) / SC_SCORE)
    nb = S[pb + P_BUILT_N]
    end_b = T[T_END_BUILT]
    out[at + PL_BUILT] = _clip(nb / end_b) if end_b > 0 else 1.0
    out[at + PL_BUILT + 1] = nb / MAX_BUILT
    end_3 = T[T_END_L3]
    out[at + PL_L3] = _clip(S[pb + P_N_L3] / end_3) if end_3 > 0 else 1.0
    total = 0
    for x in range(N_COLOURS):
        m = S[pb + P_STORE + x]
        total += m
        out[at + PL_STORE + x] = _clip(m / SC_STORE)
    lim = S[pb + P_LIM_STORE]
    out[at + PL_FILL] = _clip(total / lim) if lim > 0 else 1.0
    out[at + PL_TOKENS] = _clip(S[pb + P_TOKENS] / SC_TOKENS)
    out[at + PL_LIMITS] = _clip(lim / SC_STORE)
    out[at + PL_LIMITS + 1] = _clip(S[pb + P_LIM_ARCH] / MAX_ARCHIVE)
    out[at + PL_LIMITS + 2] = _clip(S[pb + P_LIM_RES] / MAX_RESEARCH)
    na = S[pb + P_ARCH_N]
    out[at + PL_ARCH_N] = na / MAX_ARCHIVE
    cap = T[T_MAX_ROUNDS]
    out[at + PL_TURNS] = _clip(S[pb + P_TURNS] / cap) if cap > 0 else 1.0
    for sp in range(1, N_SPECIALS):
        out[at + PL_SPECIAL + sp - 1] = _clip(S[pb + P_SPECIAL + sp] / SC_SPECIAL)
    waiting = 0
    used = 0
    for j in range(nb):
        waiting += S[pb + P_WAIT + j]
        used += S[pb + P_USED + j]
        write_card(T, S[pb + P_BUILT + j], out, at + PL_BAG, SC_BAG)
    out[at + PL_MARKS] = _clip(waiting / SC_MARKS)
    out[at + PL_MARKS + 1] = _clip(used / SC_MARKS)
    _clip_range(out, at + PL_BAG, at + PL_BAG + CF_SIZE)
    for i in range(na):
        write_card(T, S[pb + P_ARCH + i], out, at + PL_ARCH_BAG, SC_ARCH_BAG)
    _clip_range(out, at + PL_ARCH_BAG, at + PL_ARCH_BAG + CF_SIZE)


@njit(cache=True)
def observe_state(S, T, seat, out):
    """Write the observation of ``seat`` in state ``S`` (card table ``T``) into ``out`` (float32,
    ``OBS_SIZE``).  Reads only what the seat may know (G25; the blocks are described in
    :mod:`electrify_env.gizmos.observation`): never a deck card the seat does not know the place
    of, the cards removed at setup, the generator words or another seat's researched cards."""
    out[:] = 0.0
    n = S[S_NPLAYERS]
    out[O_NPLAYERS + n - 2] = 1.0
    cap = T[T_MAX_ROUNDS]
    out[O_ROUND] = _clip(S[S_ROUND] / cap) if cap > 0 else 1.0
    ph = S[S_PHASE]
    out[O_PHASE + ph] = 1.0
    over = S[S_TERMINAL] != 0
    if not over:
        out[O_TO_MOVE + (S[S_CUR] - seat) % n] = 1.0
    out[O_STATUS] = 1.0 if S[S_ENDING] else 0.0
    out[O_STATUS + 1] = 1.0 if over else 0.0
    out[O_STATUS + 2] = 1.0 if S[S_TRUNCATED] else 0.0
    rs = T[T_ROW_SIZE]
    for x in range(N_COLOURS):
        out[O_ROW + x] = _clip(S[S_ROW + x] / rs) if rs > 0 else 0.0
        tm = T[T_MARBLES + x]
        out[O_DISPENSER + x] = _clip(S[S_DISPENSER + x] / tm) if tm > 0 else 0.0
    for d in range(N_DECKS):
        out[O_DECK + d] = _clip(S[S_DECK_N + d] / MAX_DECK)
        for k in range(T[T_DISPLAY + d]):
            c = S[S_DISPLAY + d * MAX_DISPLAY + k]
            if c != NO_CARD:
                write_card(T, c, out, O_DISPLAY + (d * MAX_DISPLAY + k) * CF_SIZE, 1.0)
    for k in range(n):
        _player(S, T, (seat + k) % n, out, O_PLAYERS + k * PL_SIZE)
    pb = pbase(seat)
    for j in range(S[pb + P_BUILT_N]):
        at = O_OWN_MACH + j * _OWN_SLOT
        write_card(T, S[pb + P_BUILT + j], out, at, 1.0)
        out[at + CF_SIZE] = 1.0 if S[pb + P_WAIT + j] else 0.0
        out[at + CF_SIZE + 1] = 1.0 if S[pb + P_USED + j] else 0.0
        ou = S[pb + P_OPT_USED + j]
        out[at + CF_SIZE + 2] = 1.0 if ou & 1 else 0.0
        out[at + CF_SIZE + 3] = 1.0 if ou & 2 else 0.0
    for i in range(S[pb + P_ARCH_N]):
        write_card(T, S[pb + P_ARCH + i], out, O_OWN_ARCH + i * CF_SIZE, 1.0)
    for d in range(N_DECKS):
        at = O_KNOWN + d * (1 + CF_SIZE)
        known = 0
        for i in range(S[S_DECK_N + d]):
            if (S[S_DECK_KNOWN + d * MAX_DECK + i] >> seat) & 1:
                known += 1
                write_card(T, S[S_DECK + d * MAX_DECK + i], out, at + 1, SC_KNOWN)
        out[at] = _clip(known / SC_KNOWN)
        _clip_range(out, at + 1, at + 1 + CF_SIZE)
    if over:
        return
    if ph == PH_PAY:
        write_card(T, S[S_PAY_CARD], out, O_PAY_CARD, 1.0)
        out[O_PAY_SRC + S[S_PAY_SRC]] = 1.0
        out[O_PAY_COST] = _clip(S[S_PAY_COST] / SC_COST)
        for x in range(N_COLOURS):
            out[O_PAY_M + x] = _clip(S[S_PAY_M + x] / SC_COST)
        cb = pbase(S[S_CUR])
        opts = S[S_PAY_OPTS]
        for o in range(S[S_OPT_N]):
            at = O_PAY_OPT + o * _OPT_SLOT
            card = S[cb + P_BUILT + S[S_OPT_MACH + o]]
            k = S[S_OPT_K + o]
            kind = T[T_CV_KIND + 2 * card + k]
            out[at] = 1.0
            out[at + 1] = 1.0 if (opts >> o) & 1 else 0.0
            if kind != CV_NONE:
                out[at + 2 + kind - 1] = 1.0
                if kind != CV_ANY:
                    out[at + 6 + T[T_CV_COL + 2 * card + k]] = 1.0
    elif ph == PH_RESEARCH:
        out[O_RES_DECK + S[S_RES_DECK]] = 1.0
        nr = S[S_RES_N]
        out[O_RES_N] = _clip(nr / MAX_RESEARCH)
        if S[S_CUR] == seat:
            for i in range(nr):
                write_card(T, S[S_RES + i], out, O_RES + i * CF_SIZE, 1.0)
    elif ph == PH_EFFECT_PICK:
        out[O_EFFECT] = _clip(S[S_EFF_LEFT] / SC_PICKS)
        out[O_EFFECT + 1] = 1.0 if S[S_EFF_FIRST] else 0.0


def _check_layout() -> None:
    """The engine codes the named one-hots above assume (a layout change that breaks them fails at
    import)."""
    want = {"levels": (N_LEVELS, 4), "types": (N_TYPES, 5), "effects": (N_EFFECTS - 1, 9),
            "specials": (N_SPECIALS - 1, 7), "colours": (COL_NONE + 1, 6), "phases": (N_PHASES, 9)}
    bad = [k for k, (got, n) in want.items() if got != n]
    if bad:
        raise RuntimeError(f"gizmos observation: the engine's {', '.join(bad)} changed; update observation.py")


_check_layout()
