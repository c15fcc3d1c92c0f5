"""``electrify play --game NAME`` for a game whose GameDef names a ``play`` module (Gizmos):
the table as text, the pending decision with numbered options, each finished turn as one line
in players' words, and the end screen with points by source.

Commands at a person's prompt: a number plays that option, ``?`` lists the commands, ``q``
quits (the game is not saved).
"""
from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from rich.console import Console
from rich.text import Text

from ..validation import InvalidArgumentError, check_seed
from .table import HUMAN, PlayError, TableSession, fresh_seed

__all__ = ["play_table", "run_table", "seats_from_args", "summary_lines"]

HELP = "a number plays that option; ? this help; q quit (the game is not saved)"
#: options that this terminal does not take for a table game
_ELECTRIFY_ONLY = ("level", "solo", "tech", "load")


class _Problem(ValueError):
    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(message)


def _items(text: str | None) -> list[str]:
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def seats_from_args(args: argparse.Namespace, default_bot: Callable[[int], str]) -> list[str]:
    """Every seat's spec from ``--seats`` or ``--humans``/``--opponents``/``--players`` (seats
    left: ``default_bot(n_players)``); _Problem naming the option otherwise."""
    if args.seats is not None:
        seats = _items(args.seats)
        if not seats:
            raise _Problem("--seats", "give at least one seat")
        return seats
    humans = 1 if args.humans is None else args.humans
    opponents = _items(args.opponents)
    n = args.players if args.players is not None else max(humans + len(opponents), 2)
    if not 0 <= humans <= n:
        raise _Problem("--humans", f"must be 0..{n}, got {humans}")
    if humans + len(opponents) > n:
        raise _Problem("--opponents", f"{humans} person(s) and {len(opponents)} opponent(s) do not fit in {n} seats")
    return [HUMAN] * humans + opponents + [default_bot(n)] * (n - humans - len(opponents))


def summary_lines(session: TableSession) -> list[str]:
    """The end screen: scores, the winner, points by source per player."""
    s = session.end_summary()
    out = [f"game over after {s['rounds']} rounds ({s['ended_by']}); winner: "
           + ", ".join(session.who(w) for w in s["winners"])]
    src = s["points_by_source"]
    for p, (score, pts) in enumerate(zip(s["scores"], src["players"])):
        parts = ", ".join(f"{x['label']} {pts.get(x['key'], 0)}" for x in src["sources"])
        out.append(f"  {session.who(p)}: {score} points ({parts})")
    return out


def run_table(session: TableSession, input_fn: Callable[[str], str] = input,
              console: Console | None = None) -> bool:
    """Play ``session`` to its end at the terminal; False when the person quit."""
    console = console or Console(highlight=False)
    shown = 0

    def show_turns() -> None:
        nonlocal shown
        turns = session.turns()
        # the last turn may go on: print only the turns that are finished
        done = len(turns) if session.is_over else max(len(turns) - 1, 0)
        for t in turns[shown:done]:
            console.print(Text(f"round {t['round']}: {t['text']}"))
        shown = max(shown, done)

    while not session.is_over:
        if not session.human_to_move:
            session.step_bot()
            show_turns()
            continue
        show_turns()
        seat = session.to_move
        view = session.view(seat)
        console.print(Text(session.table.board_text(view)))
        opts = view["options"]
        for i, o in enumerate(opts, 1):
            console.print(Text(f"  {i}. {o['text']}"))
        while True:
            answer = input_fn(f"{session.who(seat)} > ").strip().lower()
            if answer in ("q", "quit"):
                console.print(Text("(quit; the game is not saved)"))
                return False
            if answer in ("?", "help"):
                console.print(Text(HELP))
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(opts):
                session.play(opts[int(answer) - 1]["action"], seat)
                break
            console.print(Text(f"type 1-{len(opts)}, ? or q"))
    show_turns()
    for line in summary_lines(session):
        console.print(Text(line))
    return True


def play_table(args: argparse.Namespace, parser: argparse.ArgumentParser,
               input_fn: Callable[[str], str] | None = None, console: Console | None = None) -> int:
    """Run ``electrify play --game NAME`` for a table game; 0 when the game ended or the person
    quit, 130 on Ctrl-C, 2 for a bad option (usage and one error line on stderr)."""
    from ..games import get_game

    def fail(option: str, message: str) -> int:
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: argument {option}: {message}", file=sys.stderr)
        return 2

    gdef = get_game(args.game)
    for name in _ELECTRIFY_ONLY:
        if getattr(args, name, None) is not None:
            return fail(f"--{name}", f"{gdef.title} has no such option")
    seed = fresh_seed() if args.seed is None else args.seed
    try:
        check_seed(seed)
    except InvalidArgumentError as err:
        return fail("--seed", str(err))
    try:
        table = gdef.table()
        seats = seats_from_args(args, table.default_opponent)
        session = TableSession(gdef.name, len(seats), seats, seed=seed, card_set=args.cards)
    except _Problem as p:
        return fail(p.option, str(p))
    except PlayError as err:
        return fail("--seats" if args.seats is not None else "--opponents", str(err))
    except InvalidArgumentError as err:
        return fail("--players", str(err))
    console = console or Console(highlight=False)
    chosen = f"seed {seed}, " if args.seed is not None else ""
    console.print(Text(f"{gdef.title}: {chosen}" + ", ".join(session.who(i) for i in range(len(seats)))
                       + ". Type ? for help.", style="bold"))
    try:
        run_table(session, input_fn or input, console)
    except KeyboardInterrupt:
        console.print(Text("(interrupted; the game is not saved)"))
        return 130
    return 0
