"""Gizmos at the play table: the game's own pieces that the shared session
(:class:`electrify_env.play.table.TableSession`, whose docstring lists the hooks) reaches through
the ``play`` import path of the game's :class:`~electrify_env.games.GameDef`, so the play layer
never imports this package by name.

Everything here is plain data or text, computed from a :class:`~electrify_env.gizmos.Game`:

* :func:`table_view` -- the table as one seat may see it (G25): each player's dashboard in its
  five columns (upgrade, converter, file, pick, build), archive, marbles, tokens and points; the
  display triangle (level III first); the Energy Row as marbles (colour and letter); and, for
  the seat on turn only, the pending decision as a prompt with its options.
* :func:`options` -- the legal options of the seat on turn, each with the board element it
  belongs to (``place``).
* :data:`WORDS` -- the log's words: :func:`turn_text`, one line per turn from the turn's
  decisions, and the names of the points by source (machines, tokens, end-game upgrades).
* :func:`board_text` -- the table view as terminal text.
* :func:`save_game` / :func:`load_game` -- the game inside a session save: player count, seed,
  card set and actions, replayed and checked on load.

    >>> from electrify_env.gizmos import Game
    >>> v = table_view(Game(n_players=2, seed=3), seat=0)
    >>> [len(r["cards"]) for r in v["display"]]
    [2, 3, 4]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..validation import InvalidArgumentError
from .cards import COLOUR_NAME, TYPE_NAME, effect_words
from .decision import decision_of
from .engine import gz_layout as L
from .engine.gz_energy import pbase

__all__ = ["COLUMNS", "LEVELS", "POINT_SOURCES", "SAVE_FORMAT", "SECRET_KINDS", "WORDS", "board_text",
           "card_data", "default_opponent", "describe", "end_details", "load_game", "marble", "options",
           "record_options", "restart", "same_state", "save_game", "setup_options", "summary_rounds",
           "table_view", "turn_text"]

#: the dashboard columns, in table order
COLUMNS = ("upgrade", "converter", "file", "pick", "build")
#: level names
LEVELS = ("0", "I", "II", "III")
#: the points-by-source keys of :meth:`Game.points_by_source` and their printed names
POINT_SOURCES = (("machines", "machines"), ("tokens", "tokens"), ("upgrades", "end-game upgrades"))
_LETTER = {"red": "R", "yellow": "Y", "blue": "B", "black": "K", "any": "*", "none": "-"}


def default_opponent(n_players: int, card_set_hash: str | None = None) -> str:
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
    "args", "text", "place", "any_time"}`` (empty once the game is over)."""
    if game.done:
        return []
    return [{"action": o.id, "kind": o.kind, "args": dict(o.args), "text": o.text,
             "place": _place(game, o.kind, dict(o.args)), "any_time": False} for o in decision_of(game).options]


def describe(game: Any, action: int) -> tuple[str, dict, str]:
    """``(kind, args, text)`` of the legal action id ``action`` at the pending decision."""
    o = next(o for o in decision_of(game).options if o.id == int(action))
    return o.kind, dict(o.args), o.text


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
    """The table as ``seat`` may see it (None or -1: a spectator, the public table); plain data,
    see the module docstring.  Holds no deck order, no other seat's researched cards, no seed or
    generator state."""
    if seat is not None and seat < 0:
        seat = None
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


def end_details(game: Any) -> dict:
    """The end summary's Gizmos keys: ``ended_by`` (``"end condition"`` or ``"round cap"``) and
    ``rounds``."""
    return {"ended_by": "round cap" if game.truncated else "end condition", "rounds": int(game.round)}


def summary_rounds(game: Any) -> int:
    """The rounds of the score-by-round chart: those the game lasted."""
    return int(game.round)


def _step_facts(game: Any, action: int) -> dict:
    return {"turn": int(game.round), "phase": "turn"}


def _same(game: Any, seat: int, facts: dict) -> dict:
    return facts


@dataclass(frozen=True)
class _Words:
    """The shape of :class:`electrify_env.play.turns.TurnWords` (this package may not import the
    play layer): the facts of a decision, the turn line, the names of the points by source."""

    before: Callable[[Any, int], dict]
    after: Callable[[Any, int, dict], dict]
    turn_text: Callable[[list[dict]], str]
    point_sources: Mapping[str, str] = field(default_factory=dict)
    tiebreak_names: Sequence[str] = ()


#: the log's words: a turn is the decisions of one seat in one round
WORDS = _Words(before=_step_facts, after=_same, turn_text=turn_text, point_sources=dict(POINT_SOURCES),
               tiebreak_names=("points", "machines built", "marbles"))
#: no decision of Gizmos is secret
SECRET_KINDS: tuple[str, ...] = ()
SAVE_FORMAT = "gizmos-game"
SAVE_VERSION = 1


def restart(game: Any) -> Any:
    """A new game at the start of ``game``: the same players, seed and card set."""
    return type(game)(n_players=game.n_players, seed=game.seed, card_set=game.cards)


def save_game(game: Any) -> dict:
    """The game in a session save: player count, seed, card set (its file, null for the default
    set, and hash) and actions."""
    from .cards import load_card_set
    path = None if game.cards.hash == load_card_set().hash else game.cards.path
    return {"format": SAVE_FORMAT, "version": SAVE_VERSION, "n_players": int(game.n_players),
            "seed": int(game.seed), "card_set": {"path": None if path is None else str(path), "hash": game.cards.hash},
            "actions": [int(a) for a in game.history]}


def _bad(field_name: str, message: str) -> InvalidArgumentError:
    return InvalidArgumentError(f"{field_name}: {message}")


def load_game(data: Any) -> Any:
    """The game of :func:`save_game`, its actions replayed from the seed; a ValueError naming
    the field (``actions[k]``, ``card_set.hash``, ...) for a bad one."""
    from .game import Game
    if not isinstance(data, dict):
        raise _bad("game", f"must be a JSON object, got {type(data).__name__}")
    if data.get("format") != SAVE_FORMAT or data.get("version") != SAVE_VERSION:
        raise _bad("format", f"must be {SAVE_FORMAT!r} version {SAVE_VERSION}, got "
                             f"{data.get('format')!r:.40} version {data.get('version')!r:.20}")
    extra = set(data) - {"format", "version", "n_players", "seed", "card_set", "actions"}
    if extra:
        raise _bad(sorted(extra)[0], "unknown key")
    cards = data.get("card_set")
    if not isinstance(cards, dict) or not isinstance(cards.get("hash"), str) \
            or not isinstance(cards.get("path"), (str, type(None))):
        raise _bad("card_set", "must be {path: a file or null, hash: text}")
    try:
        game = Game(n_players=data.get("n_players"), seed=data.get("seed"), card_set=cards["path"])
    except ValueError as err:
        raise _bad("n_players/seed/card_set", str(err)) from None
    if game.cards.hash != cards["hash"]:
        raise _bad("card_set.hash", "the card set is not the one the game was played with")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise _bad("actions", "must be a list of action ids")
    for k, a in enumerate(actions):
        if isinstance(a, bool) or not isinstance(a, int):
            raise _bad(f"actions[{k}]", f"must be an action id, got {a!r:.40}")
        try:
            game.step(a)
        except ValueError as err:
            raise _bad(f"actions[{k}]", str(err)) from None
    return game


def same_state(a: Any, b: Any) -> bool:
    """True when both games hold identical states."""
    return bool((a.state == b.state).all())


def record_options(rec: Mapping[str, Any]) -> dict:
    """The set-up options of an arena record: Gizmos has none."""
    return {}


def setup_options(game: Any) -> dict:
    """The set-up options that deal another game like ``game``: none."""
    return {}
