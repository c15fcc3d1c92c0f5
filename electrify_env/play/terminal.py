"""``electrify play``: any game at the play table in the terminal, against registered agents,
hot-seat or solo (Electrify by default, ``--game gizmos`` for Gizmos).

The screen is drawn with `rich <https://rich.readthedocs.io>`_ from
:meth:`TableSession.view(seat) <electrify_env.play.table.TableSession.view>`, the same
hidden-information-safe dict the web app draws: the table as the person on turn may see it, the
pending decision with its legal options numbered (the player types a number), each bot move in
plain words as it is made, and every finished turn as one line in players' words, the same line
the web page's log shows (:meth:`TableSession.turns <electrify_env.play.table.TableSession.turns>`);
``l`` lists the last turns with their decisions, and the end of the game shows the scores, the
tie-break if it decided, the points by source and the score by round.  How a game's table and
options are drawn comes from the module its play module names as ``TERMINAL`` (Electrify:
:mod:`electrify_env.play.electrify_terminal`: boards, sectors, cards, demand cards, research track,
your hand); a game without one is drawn from its play module's ``board_text`` (Gizmos) with its
options listed one a line.  The game model is :class:`~electrify_env.play.table.TableSession`;
this module only draws and reads commands.

    electrify play                                     # you against trained (or greedy), 2 players
    electrify play --opponents greedy,mcts --seed 7    # 3 players
    electrify play --humans 2 --opponents random       # two people hot-seat and a bot
    electrify play --solo first_light                  # a solo scenario, stars and challenges
    electrify play --game gizmos --opponents greedy    # Gizmos
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
from importlib import import_module
from pathlib import Path
from types import ModuleType

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..games import DEFAULT_GAME, get_game
from .table import HUMAN, SPECTATOR, LogEvent, PlayError, TableSession, fresh_seed

__all__ = ["ArgumentProblem", "DESCRIPTION", "HELP", "add_arguments", "board", "build_parser",
           "decision_panel", "main", "numbered_options", "play", "result_panel", "run",
           "session_from_args", "turn_lines"]

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

LOG_TURNS = 6
#: the options of ``electrify play`` that set up a game of one game only, by the name its play
#: module lists them under in ``TERMINAL_FLAGS`` (Electrify: levels, solo scenarios, tech packs)
GAME_FLAGS = ("level", "solo", "tech")


# ---------------------------------------------------------------------------------------------
# drawing: everything below reads only a seat's view dict (TableSession.view); a game's own
# drawing (its play module's TERMINAL module) replaces the plain one
# ---------------------------------------------------------------------------------------------
def _drawing(view: dict) -> ModuleType | None:
    """The terminal-drawing module of the view's game (its play module's ``TERMINAL``), or None."""
    name = getattr(get_game(view["game"]).table(), "TERMINAL", "")
    return import_module(name) if name else None


def _who(view: dict, p: int) -> str:
    """``"player 1 (greedy)"``, or ``"player 0 (you)"`` for the viewing seat."""
    seat = view["seats"][p]
    return f"player {p} (you)" if p == view["seat"] and seat["kind"] == "human" else seat["who"]


def board(view: dict, full: bool = True) -> RenderableType:
    """The table as the viewing seat sees it (with ``full`` all of it, else the viewer's own
    part where the game draws one): the game's drawing, else its play module's ``board_text``."""
    own = _drawing(view)
    if own is not None:
        return own.board(view, full)
    return Text(get_game(view["game"]).table().board_text(view))


def numbered_options(view: dict) -> list[dict]:
    """The legal options of ``view`` (the view of the seat on turn) as they are numbered on
    screen (number = index + 1): each the option dict with ``label`` (the text shown),
    ``short`` (the text in a compact list) and ``actions`` (every action id it stands for).
    The game's drawing may fold options (Electrify: identical basic cards are one entry); the
    plain list is the decision's own options, then the any-time ones, by action id."""
    own = _drawing(view)
    if own is not None:
        return own.numbered_options(view)
    return [{**o, "label": o["text"], "short": o["text"], "actions": [o["action"]]}
            for o in sorted(view["options"], key=lambda o: (bool(o["any_time"]), o["action"]))]


def decision_panel(view: dict, options: Sequence[dict], width: int = 120) -> Panel:
    """The pending decision and its options numbered 1..n (``options`` as returned by
    :func:`numbered_options`): the game's drawing, else the options one a line."""
    own = _drawing(view)
    if own is not None:
        return own.decision_panel(view, options, width)
    t = Table(box=None, show_header=False, pad_edge=False)
    t.add_column(justify="right", style="bold")
    t.add_column()
    for k, o in enumerate(options, 1):
        t.add_row(str(k), Text(o["label"]))
    return Panel(t, title=Text(f"{_who(view, view['to_move'])}, round {view['round']}"), title_align="left",
                 subtitle="number = play  u undo  h hint  s FILE save  b board  l log  q quit  ? help",
                 subtitle_align="left", box=box.ROUNDED)


def result_panel(view: dict) -> Panel:
    """The end of the game (``view["end"]``, :meth:`TableSession.end_summary`): every score and
    the winners (or the game's own head, Electrify's solo result), how the game ended where the
    game says so, the tie-break if it decided, the points by source, the score by round and
    the seed."""
    end = view["end"]
    own = _drawing(view)
    lines = (own.result_head(view) if own is not None and hasattr(own, "result_head") else None) or [
        "Final scores: " + ", ".join(f"{_who(view, p)} {s}" for p, s in enumerate(end["scores"])),
        ("Winners (shared): " if len(end["winners"]) > 1 else "Winner: ")
        + ", ".join(_who(view, p) for p in end["winners"])]
    if "ended_by" in end:
        lines.append(f"The game ended by the {end['ended_by']} after {end['rounds']} rounds.")
    if end["tiebreak"] is not None:
        lines.append("Tie-break: " + end["tiebreak"]["text"])
    src = end["points_by_source"]
    lines.append("Points by source:")
    for p, row in enumerate(src["players"]):
        lines.append(f"  {_who(view, p)}: " + ", ".join(f"{s['label']} {row.get(s['key'], 0)}"
                                                        for s in src["sources"]))
    rows = end["score_by_round"][1:]
    lines.append(f"Score by round (rounds 1-{len(rows)}):")
    for p in range(view["n_players"]):
        lines.append(f"  {_who(view, p)}: " + " ".join(str(row[p]) for row in rows))
    lines.append(f"Seed {end['seed']}: the same deal again with --seed {end['seed']}")
    return Panel(Text("\n".join(lines)), title="game over", title_align="left", box=box.DOUBLE)


def turn_lines(turn: dict, steps: bool = False) -> list[str]:
    """A turn of :meth:`TableSession.turns` as printed: ``"round 3: Player 1 (greedy) bought
    ..."`` and, with ``steps``, its decisions indented below it."""
    out = [f"round {turn['round']}: {turn['text']}"]
    if steps:
        out += [f"    - {s['text']}" for s in turn["steps"] or []]
    return out



# ---------------------------------------------------------------------------------------------
# the loop
# ---------------------------------------------------------------------------------------------
class _Screen:
    """What has been shown so far: the log events printed, the round of the last full table."""

    def __init__(self, session: TableSession, console: Console, delay: float) -> None:
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


def run(session: TableSession, input_fn: Callable[[str], str] = input, console: Console | None = None,
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
DESCRIPTION = ("Play a game in the terminal (Electrify by default, --game gizmos for Gizmos): against "
               "any registered agent of the game (Electrify's shipped trained policies, greedy, mcts, "
               "random, a policy of your own with net:path=...; Gizmos' greedy, gumbel, policy, random), "
               "with friends at one keyboard (hot-seat), or an Electrify solo scenario.")


def add_arguments(ap: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the options of ``electrify play`` to ``ap`` (the ``electrify`` command's sub-parser
    or :func:`build_parser`'s)."""
    from electrify_env.agents import AGENTS
    from ..games import game_names
    ap.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                    help=f"the game to play (default {DEFAULT_GAME}); --level, --solo and --tech are "
                         "Electrify's (agents of a game: `electrify agents --game NAME`)")
    ap.add_argument("--level", default=None, metavar="NAME",
                    help="opponents by difficulty: every bot seat plays the agent of that level "
                         "(Beginner, Intermediate, Strong, Expert; configs/play/levels.yaml, "
                         "measured in 2-player games of Electrify)")
    ap.add_argument("--opponents", default=None, metavar="SPECS",
                    help="agent specs of the bots, comma-separated, one per seat after the people "
                         "(default for every seat left: the game's default opponent, in Electrify "
                         "trained where a shipped policy fits the game, else greedy); Electrify's "
                         "agents: " + ", ".join(AGENTS)
                         + "; e.g. greedy,mcts:iters=64 or net:path=run/policy.pt")
    ap.add_argument("--players", type=int, default=None,
                    help="2-4 players (default: people + opponents, or 2)")
    ap.add_argument("--humans", type=int, default=None,
                    help="people at this keyboard, seats 0.. (hot-seat; default 1)")
    ap.add_argument("--seats", default=None, metavar="SPECS",
                    help="every seat in order, comma-separated: 'human' or an agent spec "
                         "(instead of --humans/--opponents), e.g. greedy,human")
    ap.add_argument("--solo", default=None, metavar="SCENARIO",
                    help="play an Electrify solo scenario (see `electrify scenarios`)")
    ap.add_argument("--tech", default=None, metavar="PACKS",
                    help="Electrify tech packs to shuffle in, comma-separated (grid,market)")
    ap.add_argument("--cards", default=None, help="card-set YAML (default: the game's own set)")
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


def _game_of(args: argparse.Namespace):
    """The GameDef of ``--game``; ArgumentProblem for an option of another game."""
    gdef = get_game(getattr(args, "game", DEFAULT_GAME) or DEFAULT_GAME)
    flags = getattr(gdef.table(), "TERMINAL_FLAGS", ())
    for name in GAME_FLAGS:
        if name not in flags and getattr(args, name, None) is not None:
            raise ArgumentProblem(f"--{name}", f"{gdef.title} has no such option")
    return gdef


def _seats_from_args(args: argparse.Namespace) -> list[str]:
    from electrify_env.agents.registry import parse_spec
    gdef = _game_of(args)

    def check_spec(option: str, spec: str) -> str:
        if spec == HUMAN:
            return spec
        try:
            return parse_spec(spec, gdef.name).text
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
    if getattr(args, "solo", None):
        if humans != 1 or opponents or args.players not in (None, 1) or getattr(args, "level", None):
            raise ArgumentProblem("--solo", "a solo scenario has one player: drop --humans, "
                                            "--opponents, --players and --level")
        return [HUMAN]
    lo, hi = max(gdef.min_players, 2), gdef.max_players
    if not 0 <= humans <= hi:
        raise ArgumentProblem("--humans", f"must be 0..{hi}, got {humans}")
    n = args.players if args.players is not None else max(humans + len(opponents), 2)
    if not lo <= n <= hi:
        raise ArgumentProblem("--players", f"{gdef.title} takes {lo}-{hi} players, got {n}")
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


def _setup(args: argparse.Namespace) -> dict:
    """The game's own set-up options the command line names (Electrify's scenario, tech packs)."""
    out = {}
    if getattr(args, "solo", None):
        out["scenario"] = args.solo
    if getattr(args, "tech", None):
        out["tech_packs"] = tuple(_items(args.tech))
    return out


def _default_bot(args: argparse.Namespace, n_players: int) -> str:
    """The bot of a seat no option names: the game's default opponent for its player count and
    card set (Electrify: ``trained`` where a shipped policy fits, else ``greedy``)."""
    gdef = _game_of(args)
    try:
        cards_hash = gdef.new_game(n_players, seed=0, card_set=args.cards, **_setup(args)).cards.hash
    except (OSError, ValueError):   # a bad --cards / --tech: the session names the option later
        cards_hash = None
    return gdef.table().default_opponent(n_players, cards_hash)


def session_from_args(args: argparse.Namespace) -> TableSession:
    """The session the parsed options ask for: a loaded save or a new game.  Raises
    ArgumentProblem naming the option."""
    from electrify_env.agents.registry import parse_spec

    from ..validation import InvalidArgumentError, check_seed

    gdef = _game_of(args)
    if not 0 <= args.delay <= 60:
        raise ArgumentProblem("--delay", f"must be 0..60 seconds, got {args.delay}")
    if args.load is not None:
        for option in ("--seats", "--humans", "--opponents", "--players", "--solo", "--tech",
                       "--cards", "--seed", "--level"):
            if getattr(args, option[2:], None) is not None:
                raise ArgumentProblem(option, "a loaded game keeps its own settings: drop it or --load")
        try:
            session = TableSession.load(args.load)
        except OSError as err:
            raise ArgumentProblem("--load", f"cannot read {args.load}: {err.strerror or err}") from None
        except ValueError as err:
            raise ArgumentProblem("--load", f"{args.load}: {err}") from None
        if getattr(args, "game", DEFAULT_GAME) not in (DEFAULT_GAME, session.game_name):
            raise ArgumentProblem("--load", f"{args.load} is a game of {session.gdef.title}, not of {gdef.title}")
        gdef = session.gdef
    try:
        args.hint = parse_spec(args.hint, gdef.name).text
    except ValueError as err:
        raise ArgumentProblem("--hint", str(err)) from None
    if args.load is not None:
        return session
    seed = fresh_seed() if args.seed is None else args.seed
    try:
        check_seed(seed)
    except InvalidArgumentError as err:
        raise ArgumentProblem("--seed", str(err)) from None
    seats = _seats_from_args(args)
    option = "--solo" if args.solo else "--tech" if args.tech else "--players"
    try:
        return TableSession(gdef.name, n_players=len(seats), seats=seats, seed=seed, card_set=args.cards,
                            **_setup(args))
    except PlayError as err:    # a bot that cannot play this game (a policy that does not fit)
        raise ArgumentProblem("--seats" if args.seats is not None else "--opponents", str(err)) from None
    except ValueError as err:   # an unknown scenario, tech pack or card set, a player count
        raise ArgumentProblem("--cards" if args.cards and not (args.solo or args.tech) else option, str(err)) from None


def play(args: argparse.Namespace, parser: argparse.ArgumentParser | None = None,
         input_fn: Callable[[str], str] | None = None, console: Console | None = None) -> int:
    """Run ``electrify play`` for options parsed by a parser that :func:`add_arguments` filled
    (``parser`` prints the usage of a bad option; default :func:`build_parser`'s).  Returns 0
    when the game ended or the person quit, 130 on Ctrl-C while a bot thinks, 2 for a bad
    option (the usage and one ``electrify play: error: argument --X: ...`` line on stderr)."""
    parser = parser or build_parser()
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
    scenario = getattr(g, "scenario", None)
    console.print(Text(f"{session.gdef.title}: {chosen}" + ", ".join(session.who(i) for i in range(g.n_players))
                       + (f", scenario {scenario.id}" if scenario else "")
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
