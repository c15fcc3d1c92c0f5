"""Electrify in the terminal: the drawing of ``electrify play`` (:mod:`electrify_env.play.terminal`,
the front end of every game) for an Electrify table, named by ``TERMINAL`` in Electrify's play
module (:mod:`electrify_env.play.electrify`).

Everything here reads only a seat's view dict (:meth:`TableSession.view
<electrify_env.play.table.TableSession.view>`): the table of the person on turn (scores, demand
cards, research track, basic supply, every board with depots, grids, sectors and their cards) and
that person's own hand only; the pending decision in words with its legal options numbered, the
decision's own options first and the any-time options of R13 (discard, donate) after them; and
the head of the end screen (the scores and winners, or the solo result).
"""
from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from .terminal import _who

__all__ = ["board", "decision_panel", "numbered_options", "place_text", "player_board", "result_head"]

#: characters of the board
CHARGE = "●"
ARROWS = {"left": "←", "up": "↖", "down": "↙"}
STAR = {"open": "☆", "claimed": "★", "lost": "✗"}


def _face_short(face: dict) -> str:
    """A card in a few words: name, cost, icons and arrows."""
    name = face["name"]
    if face["kind"] == "basic":
        name = name.rsplit(" face ", 1)[0]
    cost = "" if face["cost"] is None else f" (cost {face['cost']})"
    arrows = "".join(ARROWS.get(a, a) for a in face["arrows"])
    icons = ", ".join(i["text"] for i in face["icons"])
    return f"{name}{cost}: {icons}" + (f" {arrows}" if arrows else "")


def _bar(value: int, total: int) -> str:
    return "●" * value + "○" * max(total - value, 0)


def _summary_table(view: dict) -> Table:
    sectors = view["players"][0]["sectors"] if view["players"] else []
    names = {s["sector"]: s["name"] for s in sectors}
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="players", title_justify="left")
    for col, just in (("player", "left"), ("points", "right"), ("research", "left"),
                      ("breakthroughs", "right"), ("clean", "right"), ("demands", "right"),
                      ("hand", "right"), ("this round", "left")):
        t.add_column(col, justify=just)
    for pl in view["players"]:
        p = pl["seat"]
        rnd = []
        if pl["plan"] is not None and pl["chosen"] is None:
            rnd.append(f"plans {names.get(pl['plan'], pl['plan'])} (secret)")
        if pl["chosen"] is not None:
            rnd.append(f"chose {names.get(pl['chosen'], pl['chosen'])}")
        if pl["boost"]:
            rnd.append(f"{pl['boost']} boost")
        style = "bold" if p == view["to_move"] else None
        t.add_row(Text(_who(view, p) + (" <" if p == view["to_move"] else ""), style=style),
                  str(pl["score"]), f"{_bar(pl['research'], view['research']['track'])} "
                  f"{pl['research']}/{view['research']['track']}",
                  str(len(pl["breakthroughs"])), str(pl["clean_tokens"]), str(pl["fulfilled"]),
                  str(pl["hand_count"]), ", ".join(rnd))
    return t


def _demand_table(view: dict) -> Table:
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="demand cards", title_justify="left")
    for col in ("level", "card", "requires", "basic reward", "priority reward", "fulfilled by"):
        t.add_column(col)
    solo = view["solo"] is not None
    for d in view["demand"]:
        req = " + ".join(f"{r['count']} {r['name']}" for r in d["requirements"])
        who = ", ".join(f"P{p}" for p in d["fulfilled_by"])
        level = d["level_name"] + (" +bonus" if solo and d["solo_bonus"] else "")
        t.add_row(level, d["name"], req, ", ".join(r["text"] for r in d["basic"]) or "-",
                  ", ".join(r["text"] for r in d["priority"]) or "-", who)
    return t


def _research_table(view: dict) -> Table:
    res = view["research"]
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title="research breakthroughs (space: reward, "
              "covered by)", title_justify="left")
    t.add_column("group")
    t.add_column("spaces")
    t.add_column("group bonus")
    for g in res["groups"]:
        cells = []
        for sp in res["spaces"]:
            if sp["group"] != g["group"]:
                continue
            rew = ", ".join(r["text"] for r in sp["rewards"]) or "blank"
            who = ",".join(f"P{p}" for p in sp["covered_by"])
            cells.append(f"{sp['space']}: {rew}" + (f" [{who}]" if who else ""))
        t.add_row(str(g["group"]), Text(" | ".join(cells)),
                  ", ".join(r["text"] for r in g["rewards"]) or "-")
    return t


def _supply_table(view: dict) -> Table:
    """The basic supply, identical basic cards grouped, and the decks."""
    groups: dict[tuple, list[dict]] = {}
    for b in view["basic"]:
        key = tuple((f["cost"], tuple(i["text"] for i in f["icons"]), tuple(f["arrows"]))
                    for f in b["faces"])
        groups.setdefault(key, []).append(b)
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left",
              title=f"basic supply ({len(view['basic'])} cards)")
    t.add_column("card")
    t.add_column("face A")
    t.add_column("face B")
    for items in groups.values():
        name = _face_short(items[0]["faces"][0]).split(" (cost", 1)[0]
        name = name.split(" ", 1)[1] if " " in name else name   # drop the card id (B01)
        faces = [_face_short(f).split(": ", 1)[-1] for f in items[0]["faces"]]
        costs = [f["cost"] for f in items[0]["faces"]]
        t.add_row(f"{name} x{len(items)}", *(f"{c}: {x}" for c, x in zip(costs, faces)))
    return t


def _decks_line(view: dict) -> Text:
    parts = []
    for d in view["decks"]:
        top = f", top {_face_short(d['discard_top'])}" if d["discard_top"] else ""
        parts.append(f"{d['name']} deck {d['size']} (discard {d['discard_size']}{top})")
    return Text("decks: " + "; ".join(parts), style="dim")


def _solo_panel(view: dict) -> Panel:
    solo = view["solo"]
    stars = "  ".join(f"r{s['round']} {STAR.get(s['state'], s['state'])}" for s in solo["stars"])
    lines = [f"target {solo['target']} points; stars: {stars or 'none'} "
             f"(star points now {solo['star_points']}, final score now {solo['final_score']})"]
    for c in solo["challenges"]:
        lines.append(f"  [{'x' if c['met'] else ' '}] {c['text']}")
    lines.append(f"boost tokens in the bag: {solo['bag'][0]} innovation, {solo['bag'][1]} collaboration")
    title = f"solo: {solo['name'] or solo['scenario']} ({solo['gears']} gears)"
    return Panel(Text("\n".join(lines)), title=title, title_align="left", box=box.ROUNDED)


def player_board(view: dict, p: int) -> Table:
    """Player ``p``'s board: the seven columns with depot and grid cubes, the sector standing in
    each column (side, charge, chosen) and its cards top to bottom (charged cards marked)."""
    pl = view["players"][p]
    cols = view["columns"]
    solo = view["solo"] is not None
    t = Table(box=box.SQUARE, show_lines=True, expand=True, title_justify="left",
              title=f"{_who(view, p)}: {pl['score']} points, hand {pl['hand_count']}")
    t.add_column("", no_wrap=True, width=6)
    for c in cols:
        t.add_column(Text(f"{c['name']}\ncube {c['depot_value']} grid {c['grid_value']}"), ratio=1,
                     overflow="fold")
    t.add_row("depot", *(str(x) for x in pl["depot"]))
    t.add_row("grid", *(str(x) for x in pl["grid"]))
    tiles: list[list[str]] = [[] for _ in cols]
    cards: list[list[str]] = [[] for _ in cols]
    for s in pl["sectors"]:
        mark = f" {CHARGE}" if s["charged"] else ""
        extra = []
        if pl["chosen"] == s["sector"]:
            extra.append("chosen")
        elif pl["plan"] == s["sector"] and pl["chosen"] is None:
            extra.append("planned")
        if solo and s["solo_token"]:
            extra.append(f"{s['solo_token']} token")
        tiles[s["column"]].append(f"{s['name']} ({s['side']}){mark}\n"
                                  f"{', '.join(i['text'] for i in s['tile']['icons'])}"
                                  + (f"\n[{', '.join(extra)}]" if extra else ""))
        for c in s["cards"]:
            mk = f" {CHARGE}" if c["charged"] else ""
            cards[s["column"]].append(f"{c['slot']}{mk} {_face_short(c)}")
    t.add_row("sector", *(Text("\n".join(x)) for x in tiles))
    t.add_row("cards", *(Text("\n".join(x)) for x in cards))
    return t


def _hand_table(view: dict) -> Table | None:
    me = view["players"][view["seat"]] if 0 <= view["seat"] < len(view["players"]) else None
    if me is None or me["hand"] is None:
        return None
    t = Table(box=box.SIMPLE_HEAD, pad_edge=False, title_justify="left",
              title=f"your hand ({len(me['hand'])} cards)")
    t.add_column("slot", justify="right")
    t.add_column("card")
    t.add_column("deck")
    for c in me["hand"]:
        t.add_row(str(c["hand_slot"]), Text(_face_short(c)), c["kind"])
    return t


def board(view: dict, full: bool = True) -> RenderableType:
    """The table as the viewing seat sees it: with ``full`` the header, players, demand cards,
    research track, basic supply, decks and every board (the viewer's last), else the viewer's
    board only; then the viewer's hand and, in a solo game, stars and challenges."""
    parts: list[RenderableType] = []
    me = view["seat"]
    if full:
        packs = f" · tech packs {', '.join(view['tech_packs'])}" if view["tech_packs"] else ""
        rnd = "game over" if view["is_over"] else f"round {view['round']}/{view['rounds']}"
        seed = "" if view["seed"] is None else f" · seed {view['seed']}"    # shown once the game is over
        parts.append(Rule(Text(f"Electrify · {rnd} · {view['n_players']} player(s){seed}{packs}"),
                          align="left"))
        parts += [_summary_table(view), _demand_table(view), _research_table(view),
                  _supply_table(view), _decks_line(view)]
        parts += [player_board(view, p) for p in range(view["n_players"]) if p != me]
    if 0 <= me < view["n_players"]:
        parts.append(player_board(view, me))
    hand = _hand_table(view)
    if hand is not None:
        parts.append(hand)
    if view["solo"] is not None:
        parts.append(_solo_panel(view))
    return Group(*parts)


def result_head(view: dict) -> list[str] | None:
    """The first lines of the end screen of a solo game: the final score against the target
    (None with opponents: the shared end screen's scores and winners)."""
    res = view["result"]
    if "solo" not in res:
        return None
    r = res["solo"]
    return [f"Final score: {r['final_score']} ({r['score']} points + {r['star_points']} for "
            f"{r['stars']} star(s)) against a target of {r['target']}: {'WON' if r['won'] else 'lost'}"]


def place_text(view: dict, place: Sequence | None) -> str:
    """Where on the board an option belongs, in words (``PlayOption.place``), '' for none."""
    if not place:
        return ""
    what, *a = place
    sector_names = [s["name"] for s in view["players"][0]["sectors"]] if view["players"] else []
    cols = [c["name"] for c in view["columns"]]
    mine = lambda p: "" if p == view["seat"] else f"player {p}'s "   # noqa: E731
    if what == "sector":
        return f"{mine(a[0])}{sector_names[a[1]]}"
    if what == "slot":
        return f"{mine(a[0])}{sector_names[a[1]]} slot {a[2]}"
    if what == "hand":
        return f"hand {a[0]}"
    if what == "basic":
        return f"basic supply, face {'AB'[a[1]]}"
    if what in ("depot", "grid"):
        return f"{mine(a[0])}{what} {cols[a[1]]}"
    if what == "research":
        return f"{mine(a[0])}research marker"
    if what == "breakthrough":
        return f"research space {a[0]}"
    if what == "demand":
        return f"demand level {view['demand'][a[0]]['level_name']}"
    if what == "deck":
        return f"{view['decks'][a[0]]['name']} deck"
    if what == "icon":
        return f"icon {a[0]}"
    return " ".join(str(x) for x in place)


def _basic_key(view: dict, basic: int, face: int) -> tuple | None:
    """What makes two basic faces the same to a player: name, cost, icons, arrows."""
    for b in view["basic"]:
        if b["basic"] == basic:
            f = b["faces"][face]
            name = f["name"].rsplit(" face ", 1)[0].split(" ", 1)[-1]   # B01 Coal Shovel -> Coal Shovel
            return (face, name, f["cost"], tuple(i["text"] for i in f["icons"]), tuple(f["arrows"]))
    return None


def numbered_options(view: dict) -> list[dict]:
    """The legal options of ``view`` (the view of the seat on turn) as they are numbered on
    screen (number = index + 1): the decision's own options first, then the any-time options
    (discard, donate), each ascending by action id.  Basic cards with the same faces are one
    entry (buying any copy is the same move): it plays the lowest id and says how many copies
    are left.  Each entry is the option dict with ``label`` (the text shown), ``short`` (the
    text in the compact any-time list) and ``actions`` (every action id it stands for)."""
    out: list[dict] = []
    groups: dict[tuple, dict] = {}
    item = _item_face(view)
    for o in sorted(view["options"], key=lambda o: (bool(o["any_time"]), o["action"])):
        entry = {**o, "label": o["text"], "short": o["text"], "copies": 1, "actions": [o["action"]]}
        if o["kind"] == "card_basic":
            key = _basic_key(view, o["args"]["basic"], o["args"]["face"])
            if key is not None:
                if key in groups:
                    groups[key]["copies"] += 1
                    groups[key]["actions"].append(o["action"])
                    continue
                groups[key] = entry
        if o["kind"] == "icon" and item is not None and o["args"]["icon"] < len(item["icons"]):
            entry["label"] = f"use icon {o['args']['icon']}: {item['icons'][o['args']['icon']]['text']}"
        if o["kind"] == "discard":
            entry["short"] = "discard " + o["text"].split(": ", 1)[-1].split(" (cost", 1)[0]
        out.append(entry)
    for entry in groups.values():
        face, name, cost, icons, arrows = _basic_key(view, entry["args"]["basic"], entry["args"]["face"])
        verb = entry["text"].split(" basic card", 1)[0]
        arrows_txt = "".join(ARROWS.get(a, a) for a in arrows)
        entry["label"] = (f"{verb} basic {name}, face {'AB'[face]} (cost {cost}): {', '.join(icons)}"
                          + (f" {arrows_txt}" if arrows_txt else "") + f"  [{entry['copies']} in supply]")
    return out


def _item_face(view: dict) -> dict | None:
    """The face being discharged at an item/icon decision: the card or tile of the seat's own
    board whose text the pending decision names (the longest such, if several)."""
    if view["pending"]["kind"] not in ("item", "icon", "ongoing") or not 0 <= view["seat"] < view["n_players"]:
        return None
    text = view["pending"]["text"]
    faces = [f for s in view["players"][view["seat"]]["sectors"] for f in [s["tile"], *s["cards"]]]
    hits = [f for f in faces if f["text"] in text]
    return max(hits, key=lambda f: len(f["text"])) if hits else None


def _decision_text(view: dict) -> str:
    text = view["pending"]["text"]
    if text.startswith("round "):          # "round 3, player 1: Acquire: ..." -> "Acquire: ..."
        text = text.split(": ", 1)[-1]
    return text


def decision_panel(view: dict, options: Sequence[dict], width: int = 120) -> Panel:
    """The pending decision in words and the legal options numbered 1..n (``options`` as
    returned by :func:`numbered_options`): the decision's own options one a line with their
    place on the board, the any-time options (R13) in a compact grid below, as many columns
    as ``width`` (the console's) holds."""
    t = Table(box=None, show_header=False, pad_edge=False)
    t.add_column(justify="right", style="bold")
    t.add_column()
    t.add_column(style="dim")
    anytime = []
    for k, o in enumerate(options, 1):
        if o["any_time"]:
            anytime.append(Text.assemble((f"{k:>3} ", "bold"), o["short"]))
        else:
            t.add_row(str(k), Text(o["label"]), Text(place_text(view, o["place"])))
    parts: list[RenderableType] = [Text(_decision_text(view), style="bold"), t]
    if anytime:
        grid = Table.grid(padding=(0, 2), expand=False)
        ncol = max(1, min(3, (width - 4) // 40))
        for _ in range(ncol):
            grid.add_column()
        for i in range(0, len(anytime), ncol):
            row = anytime[i:i + ncol]
            grid.add_row(*row, *([""] * (ncol - len(row))))
        parts += [Text("any time (R13):", style="italic"), grid]
    title = f"{_who(view, view['to_move'])}, round {view['round']}"
    return Panel(Group(*parts), title=Text(title), title_align="left",
                 subtitle="number = play  u undo  h hint  s FILE save  b board  l log  q quit  ? help",
                 subtitle_align="left", box=box.ROUNDED)
