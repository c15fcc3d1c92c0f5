"""``electrify play``: Electrify in the terminal, against registered agents, hot-seat or solo.

The screen is drawn with `rich <https://rich.readthedocs.io>`_ from
:meth:`PlaySession.view(seat) <electrify_env.play.session.PlaySession.view>`, the same
hidden-information-safe dict the web app draws: the table of the person on turn (scores, demand
cards, research track, basic supply, every board with depots, grids, sectors and their cards) and
that person's own hand only.  The pending decision is shown in words with its legal options
numbered, the decision's own options first and the any-time options of R13 (discard, donate)
after them; the player types a number.  Bot moves are printed one by one in plain words as they
are made, and every finished turn as one line in players' words, the same line the web page's log
shows (:meth:`PlaySession.turns <electrify_env.play.session.PlaySession.turns>`); ``l`` lists the
last turns with their decisions, and the end of the game shows the scores, the tie-break if it
decided, the points by source and the score by round.  The game model is :class:`~electrify_env.play.session.PlaySession`; this module only
draws and reads commands.

    electrify play                                     # you against trained (or greedy), 2 players
    electrify play --opponents greedy,mcts --seed 7    # 3 players
    electrify play --humans 2 --opponents random       # two people hot-seat and a bot
    electrify play --solo first_light                  # a solo scenario, stars and challenges
    electrify play --load game.json                    # resume a game saved with `s FILE`

At the prompt: a number plays that option; ``u`` undo, ``h [AGENT]`` hint, ``s FILE`` save,
``b`` board, ``l [N]`` log, ``q`` quit, ``?`` help.  :func:`run` drives a session with any input
function and console (tests script it); :func:`main` is the command line.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from ..games import DEFAULT_GAME
from .session import HUMAN, SPECTATOR, LogEvent, PlayError, PlaySession, default_opponent, fresh_seed

__all__ = ["ArgumentProblem", "DESCRIPTION", "HELP", "add_arguments", "board", "build_parser",
           "decision_panel", "main", "numbered_options", "place_text", "play", "player_board",
           "result_panel", "run", "session_from_args", "turn_lines"]

HELP = """\
commands:
  1, 2, ...   play the option with that number (Enter alone: the only option, if just one)
  u           undo your last decision (and the bot moves after it)
  h [AGENT]   hint: what an agent would play here (default: --hint, e.g. h mcts:iters=64)
  s FILE      save the game (resume with: electrify play --load FILE)
  b           show the whole table again
  l [N]       the last N moves (turns) in players' words, with their decisions (default 6)
  q           quit (the game is not saved unless you saved it)
  ?           this help"""

#: characters of the board
CHARGE = "●"
ARROWS = {"left": "←", "up": "↖", "down": "↙"}
STAR = {"open": "☆", "claimed": "★", "lost": "✗"}
LOG_TURNS = 6


# ---------------------------------------------------------------------------------------------
# drawing: everything below reads only a seat's view dict (PlaySession.view)
# ---------------------------------------------------------------------------------------------
def _who(view: dict, p: int) -> str:
    """``"player 1 (greedy)"``, or ``"player 0 (you)"`` for the viewing seat."""
    seat = view["seats"][p]
    return f"player {p} (you)" if p == view["seat"] and seat["kind"] == "human" else seat["who"]


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


def result_panel(view: dict) -> Panel:
    """The end of the game: every score and the winners, or the solo result."""
    res = view["result"]
    lines = []
    if "solo" in res:
        r = res["solo"]
        lines.append(f"Final score: {r['final_score']} ({r['score']} points + {r['star_points']} for "
                     f"{r['stars']} star(s)) against a target of {r['target']}: "
                     f"{'WON' if r['won'] else 'lost'}")
    else:
        lines.append("Final scores: " + ", ".join(f"{_who(view, p)} {s}" for p, s in enumerate(res["scores"])))
        win = res["winners"]
        lines.append(("Winners (shared): " if len(win) > 1 else "Winner: ")
                     + ", ".join(_who(view, p) for p in win))
    end = view.get("end")
    if end is not None:
        if end["tiebreak"] is not None:
            lines.append("Tie-break: " + end["tiebreak"]["text"])
        src = end["points_by_source"]
        lines.append("Points by source:")
        for p, row in enumerate(src["players"]):
            lines.append(f"  {_who(view, p)}: " + ", ".join(f"{s['label']} {row.get(s['key'], 0)}"
                                                            for s in src["sources"]))
        lines.append("Score by round (rounds 1-12):")
        for p in range(view["n_players"]):
            lines.append(f"  {_who(view, p)}: " + " ".join(str(row[p]) for row in end["score_by_round"][1:]))
    if view.get("seed") is not None:
        lines.append(f"Seed {view['seed']}: the same deal again with --seed {view['seed']}")
    return Panel(Text("\n".join(lines)), title="game over", title_align="left", box=box.DOUBLE)


def turn_lines(turn: dict, steps: bool = False) -> list[str]:
    """A turn of :meth:`PlaySession.turns` as printed: ``"round 3: Player 1 (greedy) bought
    ..."`` and, with ``steps``, its decisions indented below it."""
    out = [f"round {turn['round']}: {turn['text']}"]
    if steps:
        out += [f"    - {s['text']}" for s in turn["steps"] or []]
    return out


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


# ---------------------------------------------------------------------------------------------
# the loop
# ---------------------------------------------------------------------------------------------
class _Screen:
    """What has been shown so far: the log events printed, the round of the last full table."""

    def __init__(self, session: PlaySession, console: Console, delay: float) -> None:
        self.session = session
        self.console = console
        self.delay = delay
        self.shown = len(session.log)
        self.table_round: int | None = None
        self.table_seat: int | None = None
        self.saved_at = -1
        humans = session.human_seats
        # whose eyes read the log: the one person, or nobody's secrets when people share a screen
        self.reader = humans[0] if len(humans) == 1 else SPECTATOR
        self.turns_shown = self.done_turns()

    def say(self, text: str, style: str | None = None) -> None:
        self.console.print(Text(text, style=style))

    def done_turns(self) -> int:
        """How many turns of the log are finished."""
        return sum(t["done"] for t in self.session.turns(self.reader))

    def print_events(self, events: Sequence[LogEvent], pause: bool = False) -> None:
        for ev in events:
            style = "cyan" if self.session.seats[ev.seat] != HUMAN else None
            self.say(f"  {ev.line(self.reader)}", style)
            if pause and self.delay:
                time.sleep(self.delay)
        log = self.session.log
        # a turn can only have finished when the newest decision starts another (round, seat)
        if log and (self.session.is_over or len(log) < 2 or
                    (log[-1].turn, log[-1].seat) != (log[-2].turn, log[-2].seat)):
            self.print_turns()
        self.shown = len(log)

    def print_turns(self) -> None:
        """Print every turn finished since the last call, in players' words."""
        done = [t for t in self.session.turns(self.reader) if t["done"]]
        for turn in done[self.turns_shown:]:
            for line in turn_lines(turn):
                self.say(line, "bold")
        self.turns_shown = len(done)

    def new_events(self) -> None:
        self.print_events(self.session.log[self.shown:])


def run(session: PlaySession, input_fn: Callable[[str], str] = input, console: Console | None = None,
        *, hint_agent: str = "greedy", delay: float = 0.0) -> bool:
    """Play ``session`` in the terminal until the game ends or the person quits.

    ``input_fn(prompt)`` returns one command line (``input`` for a person; a test passes a
    scripted function; EOFError or KeyboardInterrupt quits); everything is drawn on ``console``.
    Bots move on their own, each move printed as it is made (``delay`` seconds apart).  Returns
    True when the game reached its end, False when the person quit."""
    console = console or Console(highlight=False)
    scr = _Screen(session, console, delay)
    needs_full = True
    while True:
        while not session.is_over and not session.human_to_move:   # bot moves, one by one
            scr.print_events([session.step_bot()], pause=True)
            needs_full = True
        if session.is_over:
            view = session.view(scr.reader)
            console.print(board(view, full=True))
            console.print(result_panel(view))
            return True
        seat = session.to_move
        if len(session.human_seats) > 1 and seat != scr.table_seat:
            if not _hand_over(scr, seat, input_fn):
                return False
            needs_full = True
        view = session.view(seat)
        if needs_full or view["round"] != scr.table_round:
            console.print(board(view, full=True))
            scr.table_round, scr.table_seat = view["round"], seat
            needs_full = False
        else:
            console.print(board(view, full=False))
        options = numbered_options(view)
        console.print(decision_panel(view, options, console.width))
        outcome = _ask(scr, view, options, input_fn, hint_agent)
        if outcome == "quit":
            return False
        if outcome == "full":
            needs_full = True


def _hand_over(scr: _Screen, seat: int, input_fn: Callable[[str], str]) -> bool:
    """Hot-seat: clear a real terminal (the last hand shown) and wait for the next person."""
    if scr.console.is_terminal:
        scr.console.clear()
    scr.say(f"--- {scr.session.who(seat)}: your turn; the others look away. Press Enter. ---", "bold")
    try:
        input_fn("")
    except (EOFError, KeyboardInterrupt):
        scr.say("(quit)")
        return False
    scr.table_seat = seat
    return True


def _ask(scr: _Screen, view: dict, options: list[dict], input_fn: Callable[[str], str],
         hint_agent: str) -> str:
    """Read commands until one changes the game; returns ``"moved"``, ``"full"`` (redraw the
    whole table) or ``"quit"``.  A bad command prints one line and asks again."""
    session = scr.session
    seat = view["to_move"]
    prompt = f"player {seat} [1-{len(options)}, ? help]> "
    while True:
        try:
            line = input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            scr.say("(quit" + ("; saved)" if scr.saved_at == len(session.log) else "; the game is not saved)"))
            return "quit"
        line = (line or "").strip()
        cmd, _, arg = line.partition(" ")
        arg = arg.strip()
        if not line and len(options) == 1:
            line = cmd = "1"
        if cmd.isascii() and cmd.isdigit() and not arg:
            k = int(cmd)
            if not 1 <= k <= len(options):
                scr.say(f"no option {k}: type a number from 1 to {len(options)}", "red")
                continue
            session.play(options[k - 1]["action"], seat)
            scr.new_events()
            return "moved"
        if cmd == "u":
            try:
                n = session.undo(seat)
            except PlayError as err:
                scr.say(str(err), "red")
                continue
            scr.shown = len(session.log)
            scr.turns_shown = scr.done_turns()
            scr.say(f"undone: {n} decision(s) taken back", "yellow")
            return "full"
        if cmd == "h":
            spec = arg or hint_agent
            try:
                opt = session.hint(spec)
            except ValueError as err:
                scr.say(f"hint: {err}", "red")
                continue
            k = next(i for i, o in enumerate(options, 1) if opt.action in o["actions"])
            scr.say(f"hint ({spec}): {k}. {opt.text}", "green")
            continue
        if cmd == "s":
            if not arg:
                scr.say("save: give a file name, e.g. s game.json", "red")
                continue
            path = Path(arg).expanduser()
            try:
                session.save(path)
            except OSError as err:
                scr.say(f"save: cannot write {path}: {err.strerror or err}", "red")
                continue
            scr.saved_at = len(session.log)
            scr.say(f"saved to {path} (resume with: electrify play --load {path})", "green")
            continue
        if cmd == "b":
            return "full"
        if cmd == "l":
            try:
                n = int(arg) if arg else LOG_TURNS
            except ValueError:
                scr.say(f"l: give a number of moves (turns) to list, got {arg!r}", "red")
                continue
            for turn in session.turns(scr.reader)[-n:] if n > 0 else []:
                for k, line in enumerate(turn_lines(turn, steps=True)):
                    scr.say(line, None if k == 0 else "dim")
            continue
        if cmd == "q":
            scr.say("(quit" + ("; saved)" if scr.saved_at == len(session.log) else "; the game is not saved)"))
            return "quit"
        if cmd in ("?", "help"):
            scr.say(HELP)
            continue
        scr.say(f"unknown command {line!r}: type an option number 1-{len(options)}, or ? for help", "red")


# ---------------------------------------------------------------------------------------------
# the command line
# ---------------------------------------------------------------------------------------------
DESCRIPTION = ("Play Electrify in the terminal: against any registered agent (the shipped trained "
               "policies, greedy, mcts, random, a policy of your own with net:path=...), with friends "
               "at one keyboard (hot-seat), or a solo scenario.")


def add_arguments(ap: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the options of ``electrify play`` to ``ap`` (the ``electrify`` command's sub-parser
    or :func:`build_parser`'s)."""
    from electrify_env.agents import AGENTS
    from ..games import DEFAULT_GAME, game_names
    ap.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                    help=f"the game to play (default {DEFAULT_GAME}); gizmos takes --players, "
                         "--humans, --opponents, --seats and --seed (agents: `electrify agents --game gizmos`)")
    ap.add_argument("--level", default=None, metavar="NAME",
                    help="opponents by difficulty: every bot seat plays the agent of that level "
                         "(Beginner, Intermediate, Strong, Expert; configs/play/levels.yaml, "
                         "measured in 2-player games)")
    ap.add_argument("--opponents", default=None, metavar="SPECS",
                    help="agent specs of the bots, comma-separated, one per seat after the people "
                         "(default for every seat left: trained where a shipped policy fits the "
                         "game, else greedy); any registered agent: " + ", ".join(AGENTS)
                         + "; e.g. greedy,mcts:iters=64 or net:path=run/policy.pt")
    ap.add_argument("--players", type=int, default=None,
                    help="2-4 players (default: people + opponents, or 2)")
    ap.add_argument("--humans", type=int, default=None,
                    help="people at this keyboard, seats 0.. (hot-seat; default 1)")
    ap.add_argument("--seats", default=None, metavar="SPECS",
                    help="every seat in order, comma-separated: 'human' or an agent spec "
                         "(instead of --humans/--opponents), e.g. greedy,human")
    ap.add_argument("--solo", default=None, metavar="SCENARIO",
                    help="play a solo scenario (see `electrify scenarios`)")
    ap.add_argument("--tech", default=None, metavar="PACKS",
                    help="tech packs to shuffle in, comma-separated (grid,market)")
    ap.add_argument("--cards", default=None, help="card-set YAML (default: configs/cards/base.yaml)")
    ap.add_argument("--seed", type=int, default=None, help="game seed 0..2**62-1 (default: a fresh secret one, shown when the game ends)")
    ap.add_argument("--load", default=None, metavar="FILE", help="resume a game saved with `s FILE`")
    ap.add_argument("--hint", default="greedy", metavar="AGENT",
                    help="the agent that `h` asks (default greedy)")
    ap.add_argument("--delay", type=float, default=0.0,
                    help="seconds to wait after each bot move (0-60, default 0)")
    return ap


def build_parser(prog: str = "electrify play") -> argparse.ArgumentParser:
    """The argument parser of ``electrify play``."""
    return add_arguments(argparse.ArgumentParser(prog=prog, description=DESCRIPTION))


class ArgumentProblem(ValueError):
    """A command-line option that cannot be used: ``option`` and a one-line message."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(message)


def _items(text: str | None) -> list[str]:
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def _seats_from_args(args: argparse.Namespace) -> list[str]:
    from electrify_env.agents import parse_spec

    def check_spec(option: str, spec: str) -> str:
        if spec == HUMAN:
            return spec
        try:
            return parse_spec(spec).text
        except ValueError as err:
            raise ArgumentProblem(option, str(err)) from None

    if args.seats is not None:
        for option in ("--humans", "--opponents", "--players", "--level"):
            if getattr(args, option[2:], None) is not None:
                raise ArgumentProblem(option, "give either --seats or --humans/--opponents/--players/--level")
        seats = [check_spec("--seats", s) for s in _items(args.seats)]
        if not seats:
            raise ArgumentProblem("--seats", "give at least one seat")
        return seats
    humans = 1 if args.humans is None else args.humans
    opponents = [check_spec("--opponents", s) for s in _items(args.opponents)]
    if args.solo:
        if humans != 1 or opponents or args.players not in (None, 1) or getattr(args, "level", None):
            raise ArgumentProblem("--solo", "a solo scenario has one player: drop --humans, "
                                            "--opponents, --players and --level")
        return [HUMAN]
    if not 0 <= humans <= 4:
        raise ArgumentProblem("--humans", f"must be 0..4, got {humans}")
    n = args.players if args.players is not None else max(humans + len(opponents), 2)
    if not 2 <= n <= 4:
        raise ArgumentProblem("--players", f"must be 2..4, got {n}")
    if humans + len(opponents) > n:
        raise ArgumentProblem("--opponents", f"{humans} person(s) and {len(opponents)} opponent(s) "
                                             f"do not fit in {n} seats")
    if args.opponents is not None and args.players is not None and humans + len(opponents) != n:
        raise ArgumentProblem("--opponents", f"{n} players with {humans} person(s) need "
                                             f"{n - humans} opponent(s), got {len(opponents)}")
    fill = n - humans - len(opponents)
    if getattr(args, "level", None) is not None:
        if args.opponents is not None:
            raise ArgumentProblem("--level", "give either --level or --opponents")
        from .levels import load_levels
        try:
            spec = load_levels().spec(args.level, n)
        except ValueError as err:
            raise ArgumentProblem("--level", str(err)) from None
        return [HUMAN] * humans + [spec] * fill
    return [HUMAN] * humans + opponents + ([_default_bot(args, n)] * fill if fill else [])


def _default_bot(args: argparse.Namespace, n_players: int) -> str:
    """The bot of a seat no option names: ``trained`` where a shipped policy fits the game (its
    player count and card set), else ``greedy`` (:func:`~electrify_env.play.session.default_opponent`)."""
    from ..cards import load_card_set
    try:
        cards_hash = load_card_set(args.cards, _items(args.tech)).hash
    except (OSError, ValueError):   # a bad --cards / --tech: PlaySession names the option later
        return "greedy"
    return default_opponent(n_players, cards_hash)


def session_from_args(args: argparse.Namespace) -> PlaySession:
    """The session the parsed options ask for: a loaded save or a new game.  Raises
    ArgumentProblem naming the option."""
    from electrify_env.agents import parse_spec

    from ..validation import InvalidArgumentError, check_seed

    if not 0 <= args.delay <= 60:
        raise ArgumentProblem("--delay", f"must be 0..60 seconds, got {args.delay}")
    try:
        args.hint = parse_spec(args.hint).text
    except ValueError as err:
        raise ArgumentProblem("--hint", str(err)) from None
    if args.load is not None:
        for option in ("--seats", "--humans", "--opponents", "--players", "--solo", "--tech",
                       "--cards", "--seed"):
            if getattr(args, option[2:]) is not None:
                raise ArgumentProblem(option, "a loaded game keeps its own settings: drop it or --load")
        try:
            return PlaySession.load(args.load)
        except OSError as err:
            raise ArgumentProblem("--load", f"cannot read {args.load}: {err.strerror or err}") from None
        except ValueError as err:
            raise ArgumentProblem("--load", f"{args.load}: {err}") from None
    seed = fresh_seed() if args.seed is None else args.seed
    try:
        check_seed(seed)
    except InvalidArgumentError as err:
        raise ArgumentProblem("--seed", str(err)) from None
    seats = _seats_from_args(args)
    option = "--solo" if args.solo else "--tech" if args.tech else "--seats"
    try:
        return PlaySession(n_players=len(seats), seats=seats, seed=seed, scenario=args.solo,
                           tech_packs=_items(args.tech), card_set=args.cards)
    except PlayError as err:    # a bot that cannot play this game (a policy that does not fit)
        raise ArgumentProblem("--seats" if args.seats is not None else "--opponents", str(err)) from None
    except ValueError as err:   # an unknown scenario, tech pack or card set
        raise ArgumentProblem(option, str(err)) from None


def play(args: argparse.Namespace, parser: argparse.ArgumentParser | None = None,
         input_fn: Callable[[str], str] | None = None, console: Console | None = None) -> int:
    """Run ``electrify play`` for options parsed by a parser that :func:`add_arguments` filled
    (``parser`` prints the usage of a bad option; default :func:`build_parser`'s).  Returns 0
    when the game ended or the person quit, 130 on Ctrl-C while a bot thinks, 2 for a bad
    option (the usage and one ``electrify play: error: argument --X: ...`` line on stderr)."""
    parser = parser or build_parser()
    if getattr(args, "game", DEFAULT_GAME) != DEFAULT_GAME:
        from .table_terminal import play_table
        return play_table(args, parser, input_fn, console)
    try:
        session = session_from_args(args)
    except ArgumentProblem as problem:
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: argument {problem.option}: {problem}", file=sys.stderr)
        return 2
    if input_fn is None:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:   # pragma: no cover - not on every platform
            pass
        input_fn = input
    console = console or Console(highlight=False)
    g = session.game
    # the seed is printed only if the person chose it: a random one would show the bots' hands
    chosen = f"seed {g.seed}, " if args.seed is not None and not args.load else ""
    console.print(Text(f"Electrify: {chosen}" + ", ".join(session.who(i) for i in range(g.n_players))
                       + (f", scenario {g.scenario.id}" if g.scenario else "")
                       + (f" (resumed at decision {len(g.history)})" if args.load else "")
                       + ". Type ? for help.", style="bold"))
    try:
        run(session, input_fn, console, hint_agent=args.hint, delay=args.delay)
    except KeyboardInterrupt:          # Ctrl-C while a bot thinks
        console.print(Text("(interrupted; the game is not saved)"))
        return 130
    return 0


def main(argv: Sequence[str] | None = None, input_fn: Callable[[str], str] | None = None,
         console: Console | None = None) -> int:
    """``electrify play [options]`` as a program: parse ``argv`` and :func:`play`; the same
    exit statuses (argparse itself exits 2 on a malformed command line)."""
    parser = build_parser()
    return play(parser.parse_args(argv), parser, input_fn, console)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
