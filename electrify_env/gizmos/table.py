"""Gizmos at the play table: the game's own pieces that the shared play layer
(:mod:`electrify_env.play.table`) reaches through the ``play`` import path of the game's
:class:`~electrify_env.games.GameDef`, so the play layer never imports this package by name.

Everything here is plain data or text, computed from a :class:`~electrify_env.gizmos.Game`:

* :func:`table_view` -- the table as one seat may see it (G25): each player's dashboard in its
  five columns (upgrade, converter, file, pick, build), archive, marbles, tokens and points; the
  display triangle (level III first); the Energy Row as marbles (colour and letter); and, for
  the seat on turn only, the pending decision as a prompt with its options.
* :func:`options` -- the legal options of the seat on turn, each with the board element it
  belongs to (``place``).
* :func:`turn_text` -- one line per turn in players' words from the turn's decisions.
* :func:`board_text` -- the table view as terminal text.
* :func:`end_summary` -- scores, the winner and points by source (machines, tokens, end-game
  upgrades).

    >>> from electrify_env.gizmos import Game
    >>> v = table_view(Game(n_players=2, seed=3), seat=0)
    >>> [len(r["cards"]) for r in v["display"]]
    [2, 3, 4]
"""
from __future__ import annotations

from typing import Any, Sequence

from .cards import COLOUR_NAME, TYPE_NAME, effect_words
from .decision import decision_of
from .engine import gz_layout as L
from .engine.gz_energy import pbase

__all__ = ["COLUMNS", "LEVELS", "card_data", "marble", "options", "table_view", "turn_text",
           "board_text", "end_summary", "POINT_SOURCES", "default_opponent"]

#: the dashboard columns, in table order
COLUMNS = ("upgrade", "converter", "file", "pick", "build")
#: level names
LEVELS = ("0", "I", "II", "III")
#: the points-by-source keys of :meth:`Game.points_by_source` and their printed names
POINT_SOURCES = (("machines", "machines"), ("tokens", "tokens"), ("upgrades", "end-game upgrades"))
_LETTER = {"red": "R", "yellow": "Y", "blue": "B", "black": "K", "any": "*", "none": "-"}


def default_opponent(n_players: int) -> str:
    """The bot for a seat nobody chose: ``policy`` (the shipped 2-player network) in a
    2-player game, else ``greedy``."""
    return "policy" if int(n_players) == 2 else "greedy"


def marble(colour: int | str) -> dict:
    """A marble as data: ``{"colour": "red", "letter": "R"}`` (colour code or name)."""
    name = colour if isinstance(colour, str) else COLOUR_NAME.get(int(colour), "none")
    return {"colour": name, "letter": _LETTER[name]}


def card_data(game: Any, card: int) -> dict:
    """A card as the table draws it: id, level, type (its dashboard column), colour, cost,
    points and effect in words."""
    T = game.cards.table
    c = int(card)
    return {"id": game.cards.ids[c], "level": LEVELS[int(T[L.T_LEVEL + c])],
            "type": TYPE_NAME[int(T[L.T_TYPE + c])], "colour": COLOUR_NAME.get(int(T[L.T_COLOUR + c]), "none"),
            "cost": int(T[L.T_COST + c]), "points": int(T[L.T_POINTS + c]), "effect": effect_words(T, c)}


def _place(game: Any, kind: str, args: dict) -> list | None:
    """The board element an option belongs to (None: listed only)."""
    p = game.current_player
    if kind in ("file", "build"):
        return ["display", int(args["level"]), int(args["slot"])]
    if kind == "build_arch":
        return ["archive", p, int(args["index"])]
    if kind in ("pick", "spend"):
        return ["row" if kind == "pick" else "storage", int(args["colour"])]
    if kind == "research":
        return ["deck", int(args["level"])]
    if kind in ("res_build", "res_file"):
        return ["research", int(args["index"])]
    if kind == "use":
        return ["machine", p, int(args["machine"])]
    if kind == "convert":
        return ["machine", p, int(game.state[L.S_OPT_MACH + args["option"]])]
    return None


def options(game: Any) -> list[dict]:
    """The legal options of the seat on turn, ascending by action id: ``{"action", "kind",
    "args", "text", "place"}`` (empty once the game is over)."""
    if game.done:
        return []
    return [{"action": o.id, "kind": o.kind, "args": dict(o.args), "text": o.text,
             "place": _place(game, o.kind, dict(o.args))} for o in decision_of(game).options]


def _prompt(game: Any) -> dict:
    """The pending decision as a short prompt for the seat on turn: what it is about, the chain
    of waiting machines or the payment with the converters it uses."""
    S = game.state
    d = decision_of(game)
    pb = pbase(game.current_player)
    out: dict[str, Any] = {"kind": d.kind, "text": d.context}
    n = int(S[pb + L.P_BUILT_N])
    if d.kind == "main":
        out["text"] = f"round {game.round}: file, build, pick a marble or research"
        waiting = [card_data(game, int(S[pb + L.P_BUILT + j])) | {"machine": j}
                   for j in range(n) if S[pb + L.P_WAIT + j]]
        used = [game.cards.ids[int(S[pb + L.P_BUILT + j])] for j in range(n) if S[pb + L.P_USED + j]]
        out["text"] = "use a waiting machine or end the turn"
        out["waiting"] = waiting
        out["chain"] = used
    if d.kind == "pay":
        applied = int(S[L.S_PAY_OPTS])
        conv = [game.cards.ids[int(S[pb + L.P_BUILT + S[L.S_OPT_MACH + i]])]
                for i in range(int(S[L.S_OPT_N])) if (applied >> i) & 1]
        out["paying"] = {"card": card_data(game, int(S[L.S_PAY_CARD])), "owed": int(S[L.S_PAY_COST]),
                         "spent": [marble(c) | {"count": int(S[L.S_PAY_M + c])} for c in range(L.N_COLOURS)
                                   if S[L.S_PAY_M + c]], "converters": conv}
    return out


def table_view(game: Any, seat: int | None) -> dict:
    """The table as ``seat`` may see it (None: a spectator, the public table); plain data, see
    the module docstring.  Holds no deck order, no other seat's researched cards, no seed or
    generator state."""
    S, T = game.state, game.cards.table
    pv = game.public_view(seat if seat is not None else 0)
    if seat is None or seat != game.current_player:
        pv["researching"] = []
    scores = [int(x) for x in game.scores()]
    players = []
    for p in range(game.n_players):
        pb = pbase(p)
        built = [int(c) for c in S[pb + L.P_BUILT:pb + L.P_BUILT + S[pb + L.P_BUILT_N]]]
        cols: dict[str, list] = {c: [] for c in COLUMNS}
        for j, c in enumerate(built):
            cols[TYPE_NAME[int(T[L.T_TYPE + c])]].append(card_data(game, c) | {
                "machine": j, "waiting": bool(S[pb + L.P_WAIT + j]), "used": bool(S[pb + L.P_USED + j])})
        arch = [card_data(game, int(c)) for c in S[pb + L.P_ARCH:pb + L.P_ARCH + S[pb + L.P_ARCH_N]]]
        store = [marble(c) for c in range(L.N_COLOURS) for _ in range(int(S[pb + L.P_STORE + c]))]
        players.append({"seat": p, "columns": cols, "archive": arch, "marbles": store,
                        "tokens": int(S[pb + L.P_TOKENS]), "score": scores[p],
                        "limits": pv["players"][p]["limits"]})
    display = []
    for d in (2, 1, 0):
        base = L.S_DISPLAY + d * L.MAX_DISPLAY
        cards = [None if S[base + k] == L.NO_CARD else card_data(game, int(S[base + k])) | {"slot": k}
                 for k in range(int(T[L.T_DISPLAY + d]))]
        display.append({"level": LEVELS[d + 1], "deck": int(S[L.S_DECK_N + d]), "cards": cards})
    row = [marble(c) for c in range(L.N_COLOURS) for _ in range(int(S[L.S_ROW + c]))]
    view = {"game": "gizmos", "round": game.round, "to_move": None if game.done else game.current_player,
            "done": game.done, "players": players, "display": display, "row": row,
            "researching": [card_data(game, game.cards.index(c)) | {"index": i}
                            for i, c in enumerate(pv["researching"])],
            "prompt": None, "options": []}
    if not game.done and seat is not None and seat == game.current_player:
        view["prompt"] = _prompt(game)
        view["options"] = options(game)
    return view


def turn_text(steps: Sequence[dict]) -> str:
    """One turn in players' words from its decisions (``[{"kind", "text"}]`` in order): the
    main action, then what followed, e.g. ``"build L1-03 from the display (paid with 1 red), then
    use L1-09"``."""
    if not steps:
        return "no decision"
    head = steps[0]["text"]
    paid = [s["text"].removeprefix("spend ") for s in steps if s["kind"] == "spend"]
    conv = [s["text"].removeprefix("apply ") for s in steps if s["kind"] == "convert"]
    rest = [s["text"] for s in steps[1:] if s["kind"] not in ("spend", "convert", "confirm")]
    rest = [t.split(" (", 1)[0] if t.startswith("use ") else t for t in rest if t != "end the turn"]
    if paid or conv:
        head += " (paid with " + ", ".join(paid + conv) + ")"
    return head + ("; then " + "; ".join(rest) if rest else "")


def _card_line(c: dict | None) -> str:
    if c is None:
        return "(empty)"
    return f"{c['id']} [{c['colour']} {c['type']}, cost {c['cost']}, {c['points']} pt]: {c['effect']}"


def board_text(view: dict) -> str:
    """The table view (:func:`table_view`) as terminal text."""
    out = [f"round {view['round']}" + ("" if view["to_move"] is None else f", player {view['to_move']} to move")]
    out.append("energy row: " + " ".join(m["letter"] for m in view["row"]))
    for r in view["display"]:
        out.append(f"display {r['level']} (deck {r['deck']}):")
        out += [f"  {c['slot'] if c else '-'}: {_card_line(c)}" for c in r["cards"]]
    for p in view["players"]:
        m = " ".join(x["letter"] for x in p["marbles"]) or "none"
        out.append(f"player {p['seat']}: {p['score']} points, {p['tokens']} tokens, marbles {m} "
                   f"(limit {p['limits']['storage']})")
        for col in COLUMNS:
            cs = p["columns"][col]
            if cs:
                out.append(f"  {col}: " + "; ".join(c["id"] + (" (waiting)" if c["waiting"] else "") for c in cs))
        if p["archive"]:
            out.append("  archive: " + "; ".join(c["id"] for c in p["archive"]))
    if view["researching"]:
        out.append("researched: " + "; ".join(_card_line(c) for c in view["researching"]))
    pr = view["prompt"]
    if pr:
        out.append(f"decision: {pr['text']}")
        if pr.get("chain"):
            out.append("  chain so far: " + ", ".join(pr["chain"]))
        if pr.get("paying"):
            pay = pr["paying"]
            out.append(f"  paying for {_card_line(pay['card'])}; converters used: "
                       + (", ".join(pay["converters"]) or "none"))
    return "\n".join(out)


def end_summary(game: Any) -> dict:
    """A finished game's result: ``scores``, ``winners``, ``ended_by``, ``rounds`` and per seat
    ``points`` by source (``machines``, ``tokens``, ``upgrades``)."""
    return {"scores": [int(x) for x in game.scores()], "winners": [int(w) for w in game.winners()],
            "ended_by": "round cap" if game.truncated else "end condition", "rounds": int(game.round),
            "points": [dict(d) for d in game.points_by_source()],
            "sources": [list(s) for s in POINT_SOURCES]}

