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
    first) or a one-record JSON file."""
    path = Path(path)
    if not path.exists():
        raise ReplayError(f"replay file {path} does not exist")
    text = path.read_text()
    records = []
    try:
        if path.suffix == ".jsonl":
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
        else:
            data = json.loads(text)
            records = data if isinstance(data, list) else [data]
    except json.JSONDecodeError as err:
        raise ReplayError(f"{path}: not valid JSON: {err}") from None
    records = [r for r in records if isinstance(r, dict) and r.get("format") == REPLAY_FORMAT]
    if not records:
        raise ReplayError(f"{path}: no arena game records (format {REPLAY_FORMAT!r}) in it")
    if game is None:
        return records[0]
    for r in records:
        if r.get("index") == game:
            return r
    idx = [r.get("index") for r in records]
    raise ReplayError(f"{path}: no game with index {game}; it holds indexes {idx[0]}..{idx[-1]}"
                      if len(idx) > 1 else f"{path}: no game with index {game}; it holds {idx}")


def save_replay(record: dict, path: str | Path) -> Path:
    """Write one game record as a JSON replay file."""
    path = Path(path)
    path.write_text(json.dumps(record, indent=1))
    return path


def new_game(record: dict):
    """The game of ``record`` at its start (same seed, players, scenario and tech packs)."""
    from electrify_env.game import Game

    if record.get("scenario"):
        g = Game(seed=record["seed"], scenario=record["scenario"], tech_packs=record.get("tech_packs", []))
    else:
        g = Game(n_players=record["n_players"], seed=record["seed"], tech_packs=record.get("tech_packs", []))
    if record.get("card_set_hash") and g.cards.hash != record["card_set_hash"]:
        raise ReplayError("the card set differs from the one the game was played with "
                          f"(hash {g.cards.hash[:12]} != {record['card_set_hash'][:12]})")
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
            cmd = ask("> ").strip().lower()
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
    """``python -m agents.replay FILE [--game K] [--auto] [--delay S]``."""
    import argparse

    ap = argparse.ArgumentParser(description="replay an arena game in the terminal")
    ap.add_argument("file")
    ap.add_argument("--game", type=int, default=None)
    ap.add_argument("--auto", action="store_true")
    ap.add_argument("--delay", type=float, default=0.0)
    args = ap.parse_args(argv)
    try:
        run_replay(load_replay(args.file, args.game), auto=args.auto or args.delay > 0, delay=args.delay)
    except ReplayError as err:
        print(f"replay: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
