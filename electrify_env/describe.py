"""Text for people: what an action id means in context, what decision is pending, and the whole
table rendered as text.  Presentation only; no rule lives here."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import KINDS, decode
from .decision import frame_values
from .engine import layout as L

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

FRAME_NAMES = {
    L.FT_PLAN: "Plan: choose a sector to charge (secret)",
    L.FT_BOOST: "boost: take it or forgo it",
    L.FT_ACQUIRE: "Acquire: buy a card from hand or a basic face, or pass",
    L.FT_PAY: "Acquire: pay one depot cube",
    L.FT_PLACE_SECTOR: "place the card: choose a sector",
    L.FT_PLACE_SLOT: "place the card: choose the slot",
    L.FT_DISCHARGE: "Discharge: choose the next charged sector or card",
    L.FT_ITEM: "Discharge: choose an icon to use, or finish this item",
    L.FT_ICON: "Discharge: use the icon once more, or stop",
    L.FT_BT_PICK: "research breakthrough: cover a space",
    L.FT_FULFILL: "Fulfill: choose a demand card, or end Fulfill",
    L.FT_REWARD: "rewards: take one, or decline the rest",
    L.FT_CARD_CHOICE: "industry breakthrough: choose a free card, or forgo",
    L.FT_FLIP: "sector breakthrough: choose a side-A sector, or forgo",
    L.FT_REORDER: "after the flip: choose the next card, top to bottom",
    L.FT_SOLO_SWAP: "solo setup: swap the starting columns of two sectors, or keep them",
    L.FT_DISCARD_PAY: "discard multiplier: discard hand cards for this icon, then pass",
    L.FT_ONGOING: "ongoing card: take the follow-up action or decline",
}
PASS_MEANING = {
    L.FT_BOOST: "forgo the boost",
    L.FT_ACQUIRE: "buy nothing this round",
    L.FT_ITEM: "finish this item (unused icons are lost)",
    L.FT_ICON: "stop using this icon",
    L.FT_FULFILL: "end Fulfill",
    L.FT_REWARD: "decline the remaining rewards",
    L.FT_CARD_CHOICE: "forgo the industry breakthrough",
    L.FT_FLIP: "forgo the sector breakthrough",
    L.FT_SOLO_SWAP: "keep the starting columns",
    L.FT_DISCARD_PAY: "stop discarding and use the icon",
    L.FT_ONGOING: "decline the ongoing follow-up",
}
REWARD_KINDS = {L.RW_POINTS: "energy points", L.RW_CLEAN: "clean breakthrough",
                L.RW_INDUSTRY: "industry breakthrough", L.RW_SECTOR: "sector breakthrough",
                L.RW_PRODUCE: "produce"}


def _top(game: "Game"):
    fr = frame_values(game.state)
    return None if fr[L.FR_TYPE] == L.FT_NONE else fr


def _pb(p: int) -> int:
    return L.S_PLAYERS + p * L.P_SIZE


def _face(game: "Game", face: int) -> str:
    return game.cards.describe_face(face)


def _reward_text(game: "Game", fr) -> list[str]:
    from .engine.fulfill import reward_count, reward_entry
    T = game.cards.table
    n = reward_count(T, fr[1], fr[2], fr[4])
    out = []
    for r in range(n):
        kind, val, arg = (int(x) for x in reward_entry(T, fr[1], fr[2], r))
        txt = f"{REWARD_KINDS.get(kind, '?')} {val}"
        if kind == L.RW_PRODUCE:
            txt = f"produce {val} x {game.cards.column_names[arg]}"
        out.append(txt)
    return out


def describe_pending(game: "Game") -> str:
    """One line saying what the current player must decide now."""
    if game.is_terminal:
        return "the game is over"
    fr = _top(game)
    p = game.current_player
    head = f"round {game.round}, player {p}: {FRAME_NAMES.get(fr[0], 'frame %d' % fr[0])}"
    ft = fr[0]
    if ft == L.FT_BOOST:
        head += " (innovation: slide the chosen sector right)" if fr[1] == L.BOOST_INNOVATION else " (collaboration: research +1)"
    elif ft == L.FT_PAY:
        head += f" for {_face(game, fr[1])}, {fr[2]} still owed"
    elif ft in (L.FT_PLACE_SECTOR, L.FT_PLACE_SLOT):
        head += f": {_face(game, fr[1])}"
    elif ft in (L.FT_ITEM, L.FT_ICON):
        head += f": {_face(game, fr[1])} on {game.cards.sector_names[fr[2]]}"
        if ft == L.FT_ICON:
            head += f", icon {fr[3]}, {fr[4]} use(s) left"
    elif ft == L.FT_REWARD:
        src = {L.REW_SRC_DEMAND: "demand " + game.cards.demand_names[fr[2]],
               L.REW_SRC_SPACE: f"research space {fr[2]}", L.REW_SRC_GROUP: f"research group {fr[2]} bonus"}[fr[1]]
        items = _reward_text(game, fr)
        left = [f"[{r}] {t}" for r, t in enumerate(items) if not (fr[3] >> r) & 1]
        head += f" from {src}: " + ", ".join(left)
    elif ft == L.FT_CARD_CHOICE:
        head += f" (cost up to {fr[1]})"
    elif ft == L.FT_REORDER:
        head += f" on {game.cards.sector_names[fr[1]]}"
    elif ft == L.FT_ONGOING:
        head += f": {_face(game, fr[1])} offers up to {fr[4]} use(s)"
    elif ft == L.FT_DISCARD_PAY:
        below = frame_values(game.state, below=1)
        head += f" ({below[4]} discarded so far)"
    return head


def describe_action(game: "Game", a: int) -> str:
    """What action id ``a`` means at the pending decision (also for ids illegal now)."""
    if not 0 <= a < L.N_ACTIONS:
        return f"{a}: not an action id (0..{L.N_ACTIONS - 1})"
    act = decode(a)
    return _ACTION_TEXT[act.kind](game, _top(game) or [0] * L.FRAME, **act.args)


def _hand(game: "Game", h: int) -> str:
    pb = _pb(game.current_player)
    if h < game.state[pb + L.P_HAND_N]:
        return _face(game, int(game.state[pb + L.P_HAND + h]))
    return f"hand slot {h} (empty)"


def _verb(fr) -> str:
    return "play for free" if fr[0] == L.FT_CARD_CHOICE else "buy"


def _dis_card_text(game: "Game", fr, sector: int, slot: int) -> str:
    face = int(game.state[_pb(game.current_player) + L.P_SEC_CARD + sector * L.MAX_SLOTS + slot])
    what = _face(game, face) if face >= 0 else "(empty)"
    return f"discharge the card at {game.cards.sector_names[sector]} slot {slot}: {what}"


def _develop_text(game: "Game", fr, column: int) -> str:
    cols = game.cards.column_names
    return f"develop a {cols[column]} cube" + (f" into {cols[column + 1]}" if column + 1 < L.N_COLS else "")


def _reward_option_text(game: "Game", fr, reward: int) -> str:
    if fr[0] == L.FT_REWARD:
        items = _reward_text(game, fr)
        if reward < len(items):
            return f"take reward [{reward}]: {items[reward]}"
    return f"take reward slot {reward}"


def _reorder_text(game: "Game", fr, slot: int) -> str:
    if fr[0] == L.FT_REORDER:
        face = int(game.state[_pb(game.current_player) + L.P_SEC_CARD + fr[1] * L.MAX_SLOTS + slot])
        if face >= 0:
            return f"next card (top to bottom): {_face(game, face)} (old slot {slot})"
    return f"next card: the one from old slot {slot}"


# one text per action kind (electrify_env.actions.KINDS), called with the kind's arguments
_ACTION_TEXT = {
    "pass": lambda g, fr: "pass: " + PASS_MEANING.get(fr[0], "end this decision"),
    "plan": lambda g, fr, sector: f"plan: charge {g.cards.sector_names[sector]} this round",
    "boost": lambda g, fr: "take the boost",
    "card_hand": lambda g, fr, hand_slot: f"{_verb(fr)} from hand: {_hand(g, hand_slot)}",
    "card_basic": lambda g, fr, basic, face: (f"{_verb(fr)} basic card {basic} face {'AB'[face]}: "
                                              f"{_face(g, L.FACE_BASIC + 2 * basic + face)}"),
    "pay": lambda g, fr, column: (f"pay a {g.cards.column_names[column]} depot cube "
                                  f"(value {g.cards.table[L.T_COL_DEPOT + column]})"),
    "place_sector": lambda g, fr, sector: f"place the card on {g.cards.sector_names[sector]}",
    "place_slot": lambda g, fr, slot: f"insert the card at slot {slot} (0 = top)",
    "dis_sector": lambda g, fr, sector: f"discharge the {g.cards.sector_names[sector]} sector tile",
    "dis_card": _dis_card_text,
    "icon": lambda g, fr, icon: f"use icon {icon} of the item",
    "produce": lambda g, fr, column: f"produce a {g.cards.column_names[column]} cube",
    "develop": _develop_text,
    "transmit": lambda g, fr, column: f"transmit a {g.cards.column_names[column]} cube to the grid",
    "research": lambda g, fr: "research: marker +1",
    "invest": lambda g, fr, deck: f"invest: draw from the {('production', 'infrastructure')[deck]} deck",
    "plan_move": lambda g, fr, sector, column: (f"plan: move {g.cards.sector_names[sector]} to column {column} "
                                                f"({g.cards.column_names[column]})"),
    "bt": lambda g, fr, space: f"cover research breakthrough space {space}",
    "fulfill": lambda g, fr, level: (f"fulfil level {level + 1} demand: "
                                     f"{g.cards.describe_demand(int(g.state[L.S_DEMAND + level]))}"),
    "reward": _reward_option_text,
    "flip": lambda g, fr, sector: f"flip {g.cards.sector_names[sector]} to side B",
    "reorder": _reorder_text,
    "discard": lambda g, fr, hand_slot: f"discard for its bonus: {_hand(g, hand_slot)}",
    "donate": lambda g, fr, column: (f"donate a {g.cards.column_names[column]} grid cube to research "
                                     f"(+{g.cards.table[L.T_COL_GRID + column]})"),
    "discard_mult": lambda g, fr, hand_slot: f"discard for the multiplier (no bonus): {_hand(g, hand_slot)}",
    "ongoing": lambda g, fr: "take the ongoing follow-up",
    "solo_swap": lambda g, fr, sector_a, sector_b: (f"swap the starting columns of {g.cards.sector_names[sector_a]} "
                                                    f"and {g.cards.sector_names[sector_b]}"),
}
assert set(_ACTION_TEXT) == {r.kind for r in KINDS}, "describe: every action kind needs a text"


def render(game: "Game", hands: bool = True) -> str:
    """The table as text: round, demand cards, decks, and each player's board."""
    S = game.state
    cards = game.cards
    lines = [f"=== Electrify: round {game.round}/12, {game.n_players} players, "
             f"{'game over' if game.is_terminal else 'pending: ' + describe_pending(game)}"]
    lines.append("Demand:")
    for lv in range(L.N_LEVELS):
        d = int(S[L.S_DEMAND + lv])
        who = [str(p) for p in range(game.n_players) if S[_pb(p) + L.P_FULFILLED + lv]]
        lines.append(f"  L{lv + 1}: {cards.describe_demand(d)}" + (f"  fulfilled by {','.join(who)}" if who else ""))
    lines.append(f"Decks: production {S[L.S_DECK_N]} (discard {S[L.S_DISC_N]}), "
                 f"infrastructure {S[L.S_DECK_N + 1]} (discard {S[L.S_DISC_N + 1]}); "
                 f"basic supply {int(S[L.S_BASIC:L.S_BASIC + L.MAX_BASIC].sum())}")
    for p in range(game.n_players):
        pb = _pb(p)
        covered = int(S[pb + L.P_BT:pb + L.P_BT + L.N_BT_SPACES].sum())
        lines.append(f"--- player {p}: {S[pb + L.P_SCORE]} points, research {S[pb + L.P_RESEARCH]}/6, "
                     f"{covered} breakthroughs, {S[pb + L.P_CLEAN]} clean tokens, "
                     f"{S[pb + L.P_NFULFILLED]} demands fulfilled, hand {S[pb + L.P_HAND_N]}")
        lines.append("    grid : " + " ".join(f"{int(S[pb + L.P_GRID + c]):2d}" for c in range(L.N_COLS)))
        lines.append("    depot: " + " ".join(f"{int(S[pb + L.P_DEPOT + c]):2d}" for c in range(L.N_COLS))
                     + "   (" + ", ".join(n[:5] for n in cards.column_names) + ")")
        by_col = sorted(range(L.N_SECTORS), key=lambda s: S[pb + L.P_SEC_COL + s])
        for s in by_col:
            side = "AB"[int(S[pb + L.P_SEC_SIDE + s])]
            mark = "*" if S[pb + L.P_SEC_CHARGED + s] else " "
            chosen = " <chosen>" if S[pb + L.P_CHOSEN] == s else ""
            lines.append(f"    col {S[pb + L.P_SEC_COL + s]}{mark} {cards.sector_names[s]} ({side}){chosen}: "
                         f"{_face(game, L.FACE_SECTOR + 2 * s + int(S[pb + L.P_SEC_SIDE + s]))}")
            for k in range(int(S[pb + L.P_SEC_N + s])):
                mk = "*" if S[pb + L.P_CARD_CHARGED + s * L.MAX_SLOTS + k] else " "
                lines.append(f"        {k}{mk} {_face(game, int(S[pb + L.P_SEC_CARD + s * L.MAX_SLOTS + k]))}")
        if hands:
            for h in range(int(S[pb + L.P_HAND_N])):
                lines.append(f"    hand {h}: {_face(game, int(S[pb + L.P_HAND + h]))}")
    if game.is_solo:
        lines.append(_render_solo(game))
    if game.is_terminal:
        if game.is_solo:
            r = game.solo_result()
            lines.append(f"Solo result: {r['score']} points + {r['star_points']} for {r['stars']} star(s) = "
                         f"{r['final_score']} against a target of {r['target']}: {'WON' if r['won'] else 'lost'}")
        else:
            sc = game.scores().tolist()
            lines.append(f"Final scores: {sc}; winner(s): {game.winners()}")
    return "\n".join(lines)


def _render_solo(game: "Game") -> str:
    S = game.state
    sc = game.scenario
    levels = [f"L{lv + 1}" for lv in range(L.N_LEVELS) if (int(S[L.S_SOLO_BONUS]) >> lv) & 1]
    state_txt = {0: "open", 1: "claimed", 2: "lost"}
    stars = ", ".join(f"r{int(S[L.S_STAR_ROUND + i])}:{state_txt[int(S[L.S_STAR_STATE + i])]}"
                      for i in range(int(S[L.S_SOLO_NSTARS])))
    ch = "; ".join(f"{sc.challenges[c][3] if sc else 'challenge %d' % c} [{'met' if S[L.S_CH_MET + c] else 'open'}]"
                   for c in range(int(S[L.S_SOLO_NCH])))
    b = L.S_PLAYERS
    tokens = ", ".join(f"{game.cards.sector_names[s]}: {'-IC'[int(S[b + L.P_SOLO_TOKEN + s])]}"
                       for s in range(L.N_SECTORS))
    title = f"{sc.name} ({sc.gears} gears)" if sc else "(custom)"
    return (f"Solo scenario {title}, target {int(S[L.S_SOLO_TARGET])}: bonus tokens on {', '.join(levels)}; "
            f"stars {stars}\n  challenges: {ch}\n  boost tokens (I innovation, C collaboration): {tokens}; "
            f"bag {int(S[L.S_BAG])} I + {int(S[L.S_BAG + 1])} C")
