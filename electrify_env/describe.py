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


# ---- a turn in players' words (the play table's log) ------------------------------------------
#: the tie-break keys of R18, in the order of ``Game.tiebreak_keys()``
TIEBREAK_NAMES = ("energy points", "breakthrough spaces covered", "research marker position",
                  "cube value")
#: ``Game.points_by_source()`` keys in players' words
POINT_SOURCES = {"demand_basic": "demand cards", "demand_priority": "priority rewards",
                 "research_space": "research spaces", "research_group": "research group bonuses",
                 "solo_stars": "bonus stars"}
_LEVELS = ("I", "II", "III", "IV", "V", "VI", "VII")
_DEMAND_PTS = tuple(k for k, n in enumerate(L.PTS_SOURCE_NAMES) if n.startswith("demand"))
_RESEARCH_PTS = tuple(k for k, n in enumerate(L.PTS_SOURCE_NAMES) if n.startswith("research"))


def _card_name(game: "Game", face: int) -> str:
    """``"P37 Repowering Plant (5)"``; a basic face without its face number."""
    name = game.cards.face_names[face].rsplit(" face ", 1)[0]
    return f"{name} ({int(game.cards.table[L.T_F_COST + face])})"


def step_facts(game: "Game", action: int) -> dict:
    """What a turn line needs to know of decision ``action``, read before it is applied by the
    player on turn (public facts only: a card named here is one the action puts on the table).

    Keys: ``turn`` (the round the decision belongs to: a Plan pick and anything done while the
    Plan step is open belong to the round being planned), ``phase`` (``"plan"`` or ``"turn"``),
    ``frame`` (the pending frame type), ``chosen`` (the revealed sector of this round, in the
    turn phase), ``boost``, ``card`` (a card bought, played for free or discarded), ``sector`` (the sector
    the action names), ``pts`` (the player's
    points by source, see :func:`step_result`)."""
    S = game.state
    p = game.current_player
    pb = _pb(p)
    act = decode(action)
    fr = _top(game) or [L.FT_NONE] * L.FRAME
    bottom = int(S[L.S_STACK + L.FR_TYPE]) if S[L.S_SP] > 0 else L.FT_NONE
    plan = bottom in (L.FT_PLAN, L.FT_SOLO_SWAP)
    out: dict = {"turn": game.round + 1 if plan else game.round, "phase": "plan" if plan else "turn",
                 "frame": int(fr[0]), "pts": [int(x) for x in S[pb + L.P_PTS:pb + L.P_PTS + L.N_PTS_SOURCES]]}
    chosen = int(S[pb + L.P_CHOSEN])
    if not plan and chosen >= 0:
        out["chosen"] = game.cards.sector_names[chosen]
    if fr[0] == L.FT_BOOST:
        out["boost"] = "innovation" if fr[1] == L.BOOST_INNOVATION else "collaboration"
    if act.kind == "card_hand" and act.args["hand_slot"] < S[pb + L.P_HAND_N]:
        out["card"] = _card_name(game, int(S[pb + L.P_HAND + act.args["hand_slot"]]))
    elif act.kind == "card_basic":
        out["card"] = _card_name(game, L.FACE_BASIC + 2 * act.args["basic"] + act.args["face"])
    elif act.kind in ("discard", "discard_mult") and act.args["hand_slot"] < S[pb + L.P_HAND_N]:
        out["card"] = _card_name(game, int(S[pb + L.P_HAND + act.args["hand_slot"]]))
    names = game.cards.sector_names
    if "sector" in act.args:
        out["sector"] = names[act.args["sector"]]
    if "column" in act.args:
        out["column"] = game.cards.column_names[act.args["column"]]
    if act.kind == "solo_swap":
        out["sectors"] = [names[act.args["sector_a"]], names[act.args["sector_b"]]]
    return out


def step_result(game: "Game", seat: int, facts: dict) -> dict:
    """``facts`` of :func:`step_facts` completed once the decision is applied: ``demand_points``
    and ``research_points``, what ``seat`` gained by it from demand cards and from research."""
    pb = _pb(seat)
    after = [int(x) for x in game.state[pb + L.P_PTS:pb + L.P_PTS + L.N_PTS_SOURCES]]
    before = facts.pop("pts")
    facts["demand_points"] = sum(after[k] - before[k] for k in _DEMAND_PTS)
    facts["research_points"] = sum(after[k] - before[k] for k in _RESEARCH_PTS)
    return facts


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def turn_text(steps: list[dict]) -> str:
    """One turn of one player in players' words, without the subject: ``"chose Transmission and
    took the innovation boost; bought P37 Repowering Plant (5) onto Transmission; charged 3
    cards; produced 2 cubes, transmitted 1; fulfilled III for 5 points"``.

    ``steps`` are the turn's decisions in order as the reader may see them (``kind``, ``args``,
    ``facts`` of :func:`step_result`; ``hidden`` for another player's secret Plan pick, whose
    args and facts are None).  Sub-decisions (icons, payments, slots,
    rewards, passes that end a step) show only through what they added up to."""
    parts: list[str] = []
    seen = [s for s in steps if not s["hidden"]]
    turn = [s for s in seen if s["facts"]["phase"] == "turn"]
    for s in seen:
        k, a, f = s["kind"], s["args"], s["facts"]
        if k == "solo_swap":
            parts.append("swapped the starting columns of {} and {}".format(*f["sectors"]))
        elif k == "pass" and f["frame"] == L.FT_SOLO_SWAP:
            parts.append("kept the starting columns")
        elif k == "plan" and not turn:
            parts.append(f"planned {f['sector']} (in secret)")
    if not turn and any(s["hidden"] for s in steps):
        parts.append("chose a sector in secret")
    if turn:
        chosen = next((s["facts"]["chosen"] for s in turn if "chosen" in s["facts"]), None)
        boost = next((s for s in turn if s["facts"]["frame"] == L.FT_BOOST), None)
        lead = f"chose {chosen}" if chosen else ""
        if boost is not None:
            kind = boost["facts"]["boost"]
            took = boost["kind"] == "boost"
            lead += (" and " if lead else "") + (f"took the {kind} boost" if took else f"let the {kind} boost go")
        if lead:
            parts.append(lead)
    buy: str | None = None
    free: list[str] = []
    counts = {"produce": 0, "develop": 0, "transmit": 0, "research": 0, "invest": 0}
    charged = 0
    flips, bts, discards, mults, donated, moves = [], 0, [], 0, 0, []
    fulfilled: list[list] = []
    research_pts = 0
    pending_card: list | None = None
    for s in seen:
        k, a, f = s["kind"], s["args"], s["facts"]
        research_pts += f.get("research_points", 0)
        if fulfilled and k != "fulfill":
            fulfilled[-1][1] += f.get("demand_points", 0)
        if k in ("card_hand", "card_basic") and "card" in f:
            if f["frame"] == L.FT_CARD_CHOICE:
                pending_card = [f"played {f['card']} for free", None]
                free.append(pending_card)
            else:
                pending_card = [f"bought {f['card']}", None]
                buy = pending_card
        elif k == "place_sector" and pending_card is not None:
            pending_card[1] = f["sector"]
        elif k == "pass" and f["frame"] == L.FT_ACQUIRE:
            buy = ["bought nothing", None]
        elif k in counts:
            counts[k] += 1
        elif k == "dis_card":
            charged += 1
        elif k == "fulfill":
            fulfilled.append([_LEVELS[a["level"]], f.get("demand_points", 0)])
        elif k == "flip":
            flips.append(f["sector"])
        elif k == "bt":
            bts += 1
        elif k == "discard" and "card" in f:
            discards.append(f["card"])
        elif k == "discard_mult":
            mults += 1
        elif k == "donate":
            donated += 1
        elif k == "plan_move":
            moves.append(f"moved {f['sector']} to the {f['column']} column")

    def placed(c):
        return c[0] + (f" onto {c[1]}" if c[1] else "")

    parts += [f"discarded {c} for its bonus" for c in discards]
    if buy is not None:
        parts.append(placed(buy))
    if charged:
        parts.append(f"charged {_count(charged, 'card')}")
    done = []
    if counts["produce"]:
        done.append(f"produced {_count(counts['produce'], 'cube')}")
    if counts["develop"]:
        done.append(f"developed {counts['develop']}")
    if counts["transmit"]:
        done.append(f"transmitted {counts['transmit']}")
    if counts["research"]:
        done.append(f"research +{counts['research']}")
    if counts["invest"]:
        done.append(f"drew {_count(counts['invest'], 'card')}")
    done += moves
    if done:
        parts.append(", ".join(done))
    if mults:
        parts.append(f"discarded {_count(mults, 'card')} for a multiplier")
    if donated:
        parts.append(f"donated {_count(donated, 'grid cube')} to research")
    if bts:
        parts.append(f"covered {_count(bts, 'breakthrough space')}")
    parts += [placed(c) for c in free]
    parts += [f"flipped {x} to side B" for x in flips]
    parts += [f"fulfilled {lv} for {_count(pts, 'point')}" for lv, pts in fulfilled]
    if research_pts:
        parts.append(f"scored {_count(research_pts, 'point')} on the research track")
    if not parts:
        parts.append("passed" if seen else "made no move")
    return "; ".join(parts)
