"""Text for people: what an action id means in context, what decision is pending, and the whole
table rendered as text.  Presentation only; no rule lives here."""
from __future__ import annotations

from typing import TYPE_CHECKING

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
    S = game.state
    sp = int(S[L.S_SP])
    if sp == 0:
        return None
    off = L.S_STACK + (sp - 1) * L.FRAME
    return [int(x) for x in S[off:off + L.FRAME]]


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
        below = [int(x) for x in game.state[L.S_STACK + (int(game.state[L.S_SP]) - 2) * L.FRAME:][:L.FRAME]]
        head += f" ({below[4]} discarded so far)"
    return head


def describe_action(game: "Game", a: int) -> str:
    """What action id ``a`` means at the pending decision (also for ids illegal now)."""
    if not 0 <= a < L.N_ACTIONS:
        return f"{a}: not an action id (0..{L.N_ACTIONS - 1})"
    S = game.state
    fr = _top(game) or [0] * L.FRAME
    ft = fr[0]
    p = game.current_player
    pb = _pb(p)
    cols = game.cards.column_names
    secs = game.cards.sector_names

    def hand(h):
        if h < S[pb + L.P_HAND_N]:
            return _face(game, int(S[pb + L.P_HAND + h]))
        return f"hand slot {h} (empty)"

    if a == L.A_PASS:
        return "pass: " + PASS_MEANING.get(ft, "end this decision")
    if a < L.A_BOOST:
        return f"plan: charge {secs[a - L.A_PLAN]} this round"
    if a == L.A_BOOST:
        return "take the boost"
    verb = "play for free" if ft == L.FT_CARD_CHOICE else "buy"
    if a < L.A_CARD_BASIC:
        return f"{verb} from hand: {hand(a - L.A_CARD_HAND)}"
    if a < L.A_PAY:
        bf = a - L.A_CARD_BASIC
        return f"{verb} basic card {bf // 2} face {'AB'[bf % 2]}: {_face(game, L.FACE_BASIC + bf)}"
    if a < L.A_PLACE_SECTOR:
        c = a - L.A_PAY
        return f"pay a {cols[c]} depot cube (value {game.cards.table[L.T_COL_DEPOT + c]})"
    if a < L.A_PLACE_SLOT:
        return f"place the card on {secs[a - L.A_PLACE_SECTOR]}"
    if a < L.A_DIS_SECTOR:
        return f"insert the card at slot {a - L.A_PLACE_SLOT} (0 = top)"
    if a < L.A_DIS_CARD:
        s = a - L.A_DIS_SECTOR
        return f"discharge the {secs[s]} sector tile"
    if a < L.A_ICON:
        x = a - L.A_DIS_CARD
        s, k = divmod(x, L.MAX_SLOTS)
        face = int(S[pb + L.P_SEC_CARD + x])
        what = _face(game, face) if face >= 0 else "(empty)"
        return f"discharge the card at {secs[s]} slot {k}: {what}"
    if a < L.A_PRODUCE:
        return f"use icon {a - L.A_ICON} of the item"
    if a < L.A_DEVELOP:
        return f"produce a {cols[a - L.A_PRODUCE]} cube"
    if a < L.A_TRANSMIT:
        c = a - L.A_DEVELOP
        return f"develop a {cols[c]} cube" + (f" into {cols[c + 1]}" if c + 1 < L.N_COLS else "")
    if a < L.A_RESEARCH:
        return f"transmit a {cols[a - L.A_TRANSMIT]} cube to the grid"
    if a < L.A_INVEST:
        return "research: marker +1"
    if a < L.A_PLAN_MOVE:
        return "invest: draw from the " + ("production" if a == L.A_INVEST else "infrastructure") + " deck"
    if a < L.A_BT:
        s, c = divmod(a - L.A_PLAN_MOVE, L.N_COLS)
        return f"plan: move {secs[s]} to column {c} ({cols[c]})"
    if a < L.A_FULFILL:
        return f"cover research breakthrough space {a - L.A_BT}"
    if a < L.A_REWARD:
        lv = a - L.A_FULFILL
        d = int(S[L.S_DEMAND + lv])
        return f"fulfil level {lv + 1} demand: {game.cards.describe_demand(d)}"
    if a < L.A_FLIP:
        r = a - L.A_REWARD
        if ft == L.FT_REWARD:
            items = _reward_text(game, fr)
            if r < len(items):
                return f"take reward [{r}]: {items[r]}"
        return f"take reward slot {r}"
    if a < L.A_REORDER:
        return f"flip {secs[a - L.A_FLIP]} to side B"
    if a < L.A_DISCARD:
        k = a - L.A_REORDER
        if ft == L.FT_REORDER:
            face = int(S[pb + L.P_SEC_CARD + fr[1] * L.MAX_SLOTS + k])
            if face >= 0:
                return f"next card (top to bottom): {_face(game, face)} (old slot {k})"
        return f"next card: the one from old slot {k}"
    if a < L.A_DONATE:
        h = a - L.A_DISCARD
        return f"discard for its bonus: {hand(h)}"
    if a < L.A_DONATE + L.N_COLS:
        c = a - L.A_DONATE
        return f"donate a {cols[c]} grid cube to research (+{game.cards.table[L.T_COL_GRID + c]})"
    if a < L.A_ONGOING:
        return f"discard for the multiplier (no bonus): {hand(a - L.A_DISCARD_MULT)}"
    if a < L.A_SOLO_SWAP:
        return "take the ongoing follow-up"
    i, j = L.SOLO_PAIRS[a - L.A_SOLO_SWAP]
    return f"swap the starting columns of {secs[i]} and {secs[j]}"


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
