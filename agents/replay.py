"""Replays of arena games: load a game record (seed, line-up, actions), rebuild the game move by
move and show it in the terminal with the engine's text rendering.

A replay file is an arena ``games.jsonl`` (one game per line; choose one with ``game``, the
``index`` field, default the first) or a JSON file holding one record (:func:`save_replay`).

    electrify replay arena_out/games.jsonl --game 17          # Enter steps, q quits
    electrify replay arena_out/games.jsonl --game 17 --auto --delay 0.05
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Callable, Iterator

from .arena import REPLAY_FORMAT

HELP = ("Enter: next decision   t: to the end of this turn   r: to the next round   "
        "b: show the table   a: play to the end   q: quit")


class ReplayError(ValueError):
    """A replay file that cannot be read or does not replay."""


def load_replay(path: str | Path, game: int | None = None) -> dict:
    """Read one game record from a ``games.jsonl`` (the line whose ``index`` is ``game``, or the
    first) or a one-record JSON file, and check its fields (:func:`check_record`).  Every problem
    is a ReplayError whose one-line message names the file."""
    path = Path(path)
    if not path.exists():
        raise ReplayError(f"replay file {path} does not exist")
    if path.is_dir():
        inside = path / "games.jsonl"
        hint = f"; did you mean {inside}?" if inside.is_file() else ""
        raise ReplayError(f"replay file {path} is a folder, not an arena games.jsonl or a JSON "
                          f"replay{hint}")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise ReplayError(f"{path}: cannot be read as UTF-8 text ({err.__class__.__name__})") from None
    records = []
    if path.suffix == ".jsonl":
        for no, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as err:
                    raise ReplayError(f"{path}: line {no}: not valid JSON ({err.msg})") from None
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise ReplayError(f"{path}: not valid JSON (line {err.lineno}, column {err.colno}: "
                              f"{err.msg})") from None
        records = data if isinstance(data, list) else [data]
    records = [r for r in records if isinstance(r, dict) and r.get("format") == REPLAY_FORMAT]
    if not records:
        raise ReplayError(f"{path}: no arena game records (format {REPLAY_FORMAT!r}) in it")
    others = sorted({str(r["game"]) for r in records if r.get("game", "electrify") != "electrify"})
    if others:
        raise ReplayError(f"{path}: holds games of {', '.join(others)}; the replay steps through "
                          "Electrify games only")
    if game is None:
        return check_record(records[0], f"{path}")
    for r in records:
        if r.get("index") == game:
            return check_record(r, f"{path}: game {game}")
    idx = [r.get("index") for r in records]
    raise ReplayError(f"{path}: no game with index {game}; it holds indexes {idx[0]}..{idx[-1]}"
                      if len(idx) > 1 else f"{path}: no game with index {game}; it holds {idx}")


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_record(record: dict, where: str = "replay") -> dict:
    """Check the fields a replay reads (types, sizes, action ids); return ``record`` or raise
    ReplayError naming ``where`` and the field.  Whether the actions replay is checked while
    replaying (:func:`replay_steps`)."""
    from electrify_env.engine.layout import MAX_PLAYERS, N_ACTIONS

    def bad(field: str, what: str) -> ReplayError:
        return ReplayError(f"{where}: field {field!r} {what}")

    for key in ("seed", "n_players", "lineup", "actions", "scores"):
        if key not in record:
            raise bad(key, "is missing")
    if not _is_int(record["seed"]):
        raise bad("seed", f"must be an integer, got {record['seed']!r}")
    n = record["n_players"]
    if not _is_int(n) or not 1 <= n <= MAX_PLAYERS:
        raise bad("n_players", f"must be 1..{MAX_PLAYERS}, got {n!r}")
    lineup = record["lineup"]
    if not isinstance(lineup, list) or len(lineup) != n or not all(isinstance(a, str) for a in lineup):
        raise bad("lineup", f"must be a list of {n} agent names")
    scen = record.get("scenario")
    if scen is not None and not isinstance(scen, str):
        raise bad("scenario", f"must be a scenario id or file, got {scen!r}")
    if (n == 1) != bool(scen):
        raise bad("scenario", "must be given exactly when n_players is 1")
    packs = record.get("tech_packs", [])
    if not isinstance(packs, list) or not all(isinstance(p, str) for p in packs):
        raise bad("tech_packs", "must be a list of tech pack names")
    acts = record["actions"]
    if not isinstance(acts, list):
        raise bad("actions", "must be a list of action ids")
    for k, a in enumerate(acts):
        if not _is_int(a) or not 0 <= a < N_ACTIONS:
            raise bad("actions", f"entry {k} must be an action id 0..{N_ACTIONS - 1}, got {a!r}")
    scores = record["scores"]
    if not isinstance(scores, list) or len(scores) != n or not all(_is_int(x) for x in scores):
        raise bad("scores", f"must be a list of {n} integers")
    h = record.get("card_set_hash")
    if h is not None and not isinstance(h, str):
        raise bad("card_set_hash", "must be a string")
    return record


def save_replay(record: dict, path: str | Path) -> Path:
    """Write one game record as a JSON replay file."""
    path = Path(path)
    path.write_text(json.dumps(record, indent=1))
    return path


def new_game(record: dict):
    """The game of ``record`` at its start (same seed, players, scenario, card-set file and tech
    packs).  Raises ReplayError if it cannot be set up or its card set's hash is not the
    record's ``card_set_hash`` (the cards changed since the game was played)."""
    from electrify_env.game import Game

    cards = record.get("card_set")      # a card-set file the game was played with (None: the base set)
    packs = record.get("tech_packs", [])
    try:
        if record.get("scenario"):
            g = Game(seed=record["seed"], scenario=record["scenario"], card_set=cards, tech_packs=packs)
        else:
            g = Game(n_players=record["n_players"], seed=record["seed"], card_set=cards, tech_packs=packs)
    except (OSError, ValueError) as err:
        where = f"card_set: {cards}: " if cards is not None else ""
        raise ReplayError(f"{where}the game cannot be set up: {err}") from None
    want = record.get("card_set_hash")
    if want and g.cards.hash != want:
        raise ReplayError(f"field 'card_set_hash' is {want[:12]}, the card set loaded now has "
                          f"{g.cards.hash[:12]} (the cards changed since the game was played)")
    return g


def replay_steps(record: dict) -> Iterator[tuple[object, int, str, str]]:
    """Yield ``(game, action, who, description)`` before each action is applied; the game is
    stepped after each yield.  Every action is checked (an illegal one raises ReplayError)."""
    from electrify_env.game import IllegalActionError

    g = new_game(record)
    lineup = record["lineup"]
    for k, a in enumerate(record["actions"]):
        if g.is_terminal:
            raise ReplayError(f"the game ended before action {k} of {len(record['actions'])}")
        p = g.current_player
        desc = g.describe_action(a)
        yield g, a, f"seat {p} ({lineup[p]})", desc
        try:
            g.step(a)
        except IllegalActionError as err:
            raise ReplayError(f"action {k} does not replay: {err}") from None
    if list(g.scores()) != list(record["scores"]):
        raise ReplayError(f"the replay ends with scores {list(g.scores())}, the record says {record['scores']}")


def replay_game(record: dict):
    """The final game of ``record`` (every action replayed and checked)."""
    last = None
    for g, *_ in replay_steps(record):
        last = g
    g = new_game(record) if last is None else last
    return g


def check_delay(delay: float) -> float:
    """The seconds between moves of an automatic replay: a finite number 0..60."""
    if not isinstance(delay, (int, float)) or isinstance(delay, bool) or not 0 <= delay <= 60:
        raise ReplayError(f"delay must be a number of seconds 0..60, got {delay!r}")
    return float(delay)


def run_replay(record: dict, auto: bool = False, delay: float = 0.0,
               out: Callable[[str], None] = print, ask: Callable[[str], str] = input) -> object:
    """Show a game move by move: each action with the seat and agent that chose it, the table
    at the start of every round, and the final scores.  Interactive unless ``auto`` (then
    ``delay`` seconds between moves).  Returns the final game."""
    lineup = record["lineup"]
    out(f"replay: seed {record['seed']}, {record['n_players']} player(s), line-up "
        + ", ".join(f"seat {i}: {a}" for i, a in enumerate(lineup))
        + (f", scenario {record['scenario']}" if record.get("scenario") else ""))
    if not auto:
        out(HELP)
    mode = "step"
    last_round = -1
    turn_of = None
    game = None
    for k, (game, a, who, desc) in enumerate(replay_steps(record)):
        if game.round != last_round:
            last_round = game.round
            out("")
            out(game.render())
            if mode == "round":
                mode = "step"
        if mode == "turn" and game.current_player != turn_of:
            mode = "step"
        line = f"[{k:4d}] round {game.round:2d}  {who}: {desc}"
        out(line)
        if auto or mode == "all":
            if delay > 0:
                time.sleep(delay)
            continue
        if mode in ("turn", "round"):
            continue
        while True:
            try:
                cmd = ask("> ").strip().lower()
            except EOFError:       # input closed (a pipe, Ctrl-D): stop as with q
                cmd = "q"
            if cmd == "q":
                out("(stopped)")
                return game
            if cmd == "b":
                out(game.render())
                continue
            if cmd == "t":
                mode, turn_of = "turn", game.current_player
            elif cmd == "r":
                mode = "round"
            elif cmd == "a":
                mode = "all"
            elif cmd not in ("",):
                out(HELP)
                continue
            break
    final = replay_game(record)
    out("")
    out(final.render())
    out("scores: " + ", ".join(f"seat {i} ({lineup[i]}) {s}" for i, s in enumerate(final.scores()))
        + f"; winner(s): {final.winners()}")
    return final


def main(argv=None) -> int:
    """``python -m electrify_env.agents.replay FILE [--game K] [--auto] [--delay S]``."""
    import argparse

    ap = argparse.ArgumentParser(description="replay an arena game in the terminal")
    ap.add_argument("file")
    ap.add_argument("--game", type=int, default=None)
    ap.add_argument("--auto", action="store_true")
    ap.add_argument("--delay", type=float, default=0.0)
    args = ap.parse_args(argv)
    try:
        check_delay(args.delay)
        run_replay(load_replay(args.file, args.game), auto=args.auto or args.delay > 0, delay=args.delay)
    except ReplayError as err:
        print(f"replay: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
