"""One game with seats for people and bots, for any game whose :class:`~electrify_env.games.GameDef`
names a ``play`` module: the model behind the terminal UI and the web app, for every game.

A :class:`TableSession` plays through the ``Game`` protocol of :mod:`electrify_env.games` and
gives every seat either to a person (``"human"``) or to an agent of the game's registry
(``electrify_env.agents.make_agent(spec, game)`` specs such as ``"greedy"``, ``"random"``,
``"mcts:iters=36:top_k=3:horizon=2"``, ``"trained"``, ``"policy"``).  It knows no game: what a
seat sees, the options' places, the words of the log and the end screen come from the game's
play module (Electrify: :mod:`electrify_env.play.electrify`, Gizmos:
:mod:`electrify_env.gizmos.table`).

    >>> s = TableSession("gizmos", n_players=2, seats=["random", "random"], seed=4)
    >>> _ = s.run_bots()
    >>> s.is_over, len(s.end_summary()["scores"])
    (True, 2)

API (stable; the front ends :mod:`electrify_env.play.terminal` and :mod:`electrify_env.play.web`
use only this)::

    s = TableSession(game, n_players=2, seats=["human", "greedy"], seed=None,   # None: a fresh one
                     card_set=None, **options)     # the game's own options (Electrify: scenario, tech_packs)
    s.game            # the Game (read it; change it only through the session)
    s.seats           # ["human", "greedy"]: the spec of each seat
    s.to_move         # seat on turn, None once the game is over
    s.is_over         # True once the game has ended
    s.human_to_move   # True when the seat on turn is a person
    s.options()       # legal options of the seat on turn: [PlayOption(action, kind, args,
                      #   text, place, any_time)], ascending by action id
    s.play(a, seat)   # a person's move -> LogEvent; IllegalActionError / SeatError, unchanged
    s.step_bot()      # ONE bot move -> LogEvent; PlayError when a person is on turn
    s.run_bots(limit) # bot moves until a person is on turn or the game ends -> [LogEvent]
    s.log             # [LogEvent]: every decision so far, who did what, in plain words
    s.turns(seat)     # the log in players' words: one entry per round and player, the
                      #   decisions folded under it (electrify_env.play.turns.group_turns)
    s.end_summary()   # once the game is over: scores, tie-break, points by source, score by round
    s.undo(seat)      # back to before that person's (default: any person's) last decision
    s.hint("greedy")  # -> PlayOption the agent would play for the seat on turn
    s.view(seat)      # JSON-ready dict of what the seat may see (SPECTATOR: the public table)
    s.to_dict() / TableSession.from_dict(d)   # also to_json/from_json and save(path)/load(path)
    TableSession.from_record(rec, step)       # a recorded arena game after its first step decisions

What a game's play module provides (module attributes, all plain data or text):

==========================  ==================================================================
``WORDS``                   the game's :class:`~electrify_env.play.turns.TurnWords`
``SECRET_KINDS``            action kinds whose choice other seats may not see (Electrify:
                            ``("plan",)``); the log shows them as :data:`HIDDEN_PLAN`
``describe(game, a)``       ``(kind, args, text)`` of the legal action ``a`` now
``options(game)``           the legal options of the seat on turn: ``{"action", "kind",
                            "args", "text", "place", "any_time"}``, ascending by action id
``table_view(game, seat)``  the table as ``seat`` may see it (``SPECTATOR``: the public table)
``end_details(game)``       the game's own keys of the end summary (Electrify: ``solo``)
``summary_rounds(game)``    the rounds of the score-by-round chart
``default_opponent(n, hash)``  the bot of a seat nobody chose (``hash``: the card set's)
``restart(game)``           a new game at the start of ``game`` (same seed and settings)
``save_game(game)`` / ``load_game(data)``  the game inside a session save, and back (a
                            ValueError naming the field for a bad one)
``check_agents(game, seats, agents)``  optional: refuse (ValueError) a bot that cannot play
                            this game before it starts
``record_options(rec)``     the game's options of an arena record (for :meth:`from_record`)
``setup_options(game)``     the game's options that deal another game like ``game``
``same_state(a, b)``        True when two games hold the same state (a loaded save's check)
``TERMINAL``                optional: the module that draws the game in the terminal
                            (:mod:`electrify_env.play.terminal`); ``TERMINAL_FLAGS``: the
                            game's own options of ``electrify play``
``board_text(view)``        the table view as terminal text (where there is no ``TERMINAL``)
``AGENT_PLAYERS``           optional: agent name -> the player counts it plays, for an agent
                            that plays only some (the web page's choice of bots)
==========================  ==================================================================

Bot moves are reproducible: before each move the bot is reseeded from the game seed and the
decision number, so :meth:`TableSession.undo`, save/load and a replay give the same bot moves.
A save names the game and the seats around the game's own save; a save of format version 1
(Electrify's, before the save named its game) loads as an Electrify game.
"""
from __future__ import annotations

import json
import operator
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..games import get_game
from ..savefile import InvalidSaveError   # the package's one error of a save that cannot be loaded
from ..validation import MAX_SEED, IllegalActionError, InvalidArgumentError
from .turns import end_summary, group_turns

__all__ = ["HIDDEN_PLAN", "HUMAN", "LogEvent", "PlayError", "PlayOption", "SESSION_FORMAT",
           "SESSION_VERSION", "SPECTATOR", "SeatError", "TableSession", "IllegalActionError",
           "InvalidSaveError", "fresh_seed"]

HUMAN = "human"
#: the seat number of a spectator: sees the public table only
SPECTATOR = -1
SESSION_FORMAT = "electrify-play-session"
#: 2: the save names its game (``game_name``); 1: Electrify's saves before that, still loaded
SESSION_VERSION = 2
_OLD_VERSIONS = {1: "electrify"}
_MOVE_SEED_MUL = 1_000_003
_MAX_ADVISERS = 8          # hint agents kept per session
HIDDEN_PLAN = "chose a sector in secret"


class PlayError(InvalidArgumentError):
    """A request the session cannot carry out (bad seat, a person's move while a bot is on turn,
    nothing to undo, a bad seat spec); the one-line message names the field.  Nothing changed."""


class SeatError(PlayError):
    """A move or request for a seat that is not on turn, not a person's, or does not exist."""


@dataclass(frozen=True)
class PlayOption:
    """One legal option of the seat on turn.

    Attributes:
        action: the action id (pass it to :meth:`TableSession.play`).
        kind: the action kind, e.g. ``"card_hand"`` (Electrify) or ``"build"`` (Gizmos).
        args: the kind's named arguments.
        text: what it does, in plain words.
        place: the board element it belongs to (the game's play module says which), or None.
        any_time: True for an option open at any time (Electrify's R13 discard and donate).
    """

    action: int
    kind: str
    args: Mapping[str, int]
    text: str
    place: tuple | None
    any_time: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``place`` as a list)."""
        return {"action": self.action, "kind": self.kind, "args": dict(self.args), "text": self.text,
                "place": None if self.place is None else list(self.place), "any_time": self.any_time}


@dataclass(frozen=True)
class LogEvent:
    """One decision of the game, in plain words.

    Attributes:
        index: the decision number (position in ``game.history``).
        round: the round it was made in.
        seat: who decided.
        who: ``"player 1 (greedy)"`` / ``"player 0 (human)"``.
        action: the action id.
        kind: the action kind.
        text: what was done (the option's text).
        secret: True for a secret pick (Electrify's Plan, R4): other seats see only that a pick
            was made.
        turn: the round the decision belongs to (a Plan pick: the round it plans).
        phase: ``"plan"`` for a pick before the round's turns, else ``"turn"``.
        facts: what the turn line needs of it (the game's ``WORDS.before``/``after``).
        scores: every player's score after it.
        args: the action's named arguments.
    """

    index: int
    round: int
    seat: int
    who: str
    action: int
    kind: str
    text: str
    secret: bool = False
    turn: int = 0
    phase: str = "turn"
    facts: dict = field(default_factory=dict, compare=False, repr=False)
    scores: tuple = field(default=(), compare=False, repr=False)
    args: dict = field(default_factory=dict, compare=False, repr=False)

    def hidden_from(self, for_seat: int | None) -> bool:
        """True when ``for_seat`` may not see what was decided (another seat's secret pick)."""
        return self.secret and for_seat is not None and for_seat != self.seat

    def to_dict(self, for_seat: int | None = None) -> dict[str, Any]:
        """JSON-ready form as ``for_seat`` may see it (None: everything, for saves and tests
        only).  A secret pick shows its choice only to its own seat."""
        hide = self.hidden_from(for_seat)
        return {"index": self.index, "round": self.round, "seat": self.seat, "who": self.who,
                "action": None if hide else self.action, "kind": self.kind,
                "text": HIDDEN_PLAN if hide else self.text}

    def step(self, for_seat: int | None = None) -> dict[str, Any]:
        """The step as :func:`electrify_env.play.turns.group_turns` reads it, as ``for_seat``
        may see it: ``index``, ``kind``, ``text``, ``args`` and ``facts`` (None when hidden),
        ``hidden``."""
        hide = self.hidden_from(for_seat)
        return {"index": self.index, "kind": self.kind, "text": HIDDEN_PLAN if hide else self.text,
                "args": None if hide else self.args,
                "facts": None if hide else self.facts, "hidden": hide}

    def line(self, for_seat: int | None = None) -> str:
        """``"round 3, player 1 (greedy): buy from hand: ..."`` as ``for_seat`` may see it."""
        d = self.to_dict(for_seat)
        return f"round {d['round']}, {d['who']}: {d['text']}"


def fresh_seed() -> int:
    """An unpredictable game seed (0..2**62-1) from :mod:`secrets`: the seed of every game whose
    caller names none."""
    return secrets.randbelow(MAX_SEED + 1)


def check_seats(seats: Any, n_players: int, game: str) -> list[str]:
    """Every seat's spec, normalised: ``"human"`` or a registered agent spec of ``game``;
    PlayError naming the seat otherwise."""
    from electrify_env.agents.registry import parse_spec   # the agents package sits beside electrify_env
    if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence):
        raise PlayError(f"seats must be a list of 'human' or agent specs, got {seats!r:.80}")
    if len(seats) != n_players:
        raise PlayError(f"seats: {n_players} player(s) need {n_players} seat(s), got {len(seats)}")
    out = []
    for i, spec in enumerate(seats):
        if not isinstance(spec, str) or not spec.strip():
            raise PlayError(f"seats[{i}] must be 'human' or an agent spec, got {spec!r:.80}")
        spec = spec.strip()
        if spec != HUMAN:
            try:
                spec = parse_spec(spec, game).text
            except ValueError as err:
                raise PlayError(f"seats[{i}]: {err}") from None
        out.append(spec)
    return out


class TableSession:
    """A game of ``game`` (a registered name whose GameDef names a ``play`` module) with a
    person or a bot in every seat (see the module docstring for the API).

    Args:
        game: the game's registered name (``"electrify"``, ``"gizmos"``).
        n_players: players; default ``len(seats)``, else 2.
        seats: ``"human"`` or an agent spec of the game for each seat; default: a person in
            seat 0 and the game's default opponent in the others.
        seed: the game seed (0..2**62-1); None (the default): a fresh unpredictable one
            (:mod:`secrets`), so no seat can rebuild the deal from it.  Views show the seed only
            once the game is over.
        card_set: a card-set path or card set of the game, None for its default set.
        options: the game's own set-up options (Electrify: ``scenario``, ``tech_packs``).

    Raises:
        PlayError: a bad argument, named in the message (an InvalidArgumentError; both are
            ValueErrors).
    """

    def __init__(self, game: str, n_players: int | None = None, seats: Sequence[str] | None = None,
                 seed: int | None = None, card_set: Any = None, **options: Any) -> None:
        gdef = get_game(game)
        table = gdef.table()
        if seed is None:
            seed = fresh_seed()
        if n_players is None:
            n_players = len(seats) if seats is not None and not isinstance(seats, (str, bytes)) else 2
        g = gdef.new_game(n_players, seed=seed, card_set=card_set, **options)
        if seats is None:
            seats = [HUMAN] + [table.default_opponent(g.n_players, g.cards.hash)] * (g.n_players - 1)
        self._init(gdef, g, check_seats(seats, g.n_players, gdef.name))

    def _init(self, gdef: Any, game: Any, seats: list[str]) -> None:
        from electrify_env.agents.registry import make_agent
        self.gdef = gdef
        self.table = gdef.table()
        self._game = game
        self._seats = seats
        agents = {}
        for i, spec in enumerate(seats):
            if spec != HUMAN:
                try:
                    agents[i] = make_agent(spec, gdef.name)
                except ValueError as err:   # an agent that cannot be built (a missing policy file)
                    raise PlayError(f"seats[{i}]: {err}") from None
        check = getattr(self.table, "check_agents", None)
        if check is not None:
            try:
                check(game, seats, agents)
            except ValueError as err:       # a policy that does not fit the game
                raise PlayError(str(err)) from None
        self._agents = agents
        self._advisers: dict[str, Any] = {}
        self._log: list[LogEvent] = []
        self._start_scores = tuple(int(x) for x in game.scores())     # a game at its start

    # ---- state ---------------------------------------------------------------------------
    @property
    def game(self) -> Any:
        """The game (read it; change it only through the session)."""
        return self._game

    @property
    def game_name(self) -> str:
        """The game's registered name."""
        return self.gdef.name

    @property
    def seats(self) -> list[str]:
        """The spec of each seat: ``"human"`` or an agent spec."""
        return list(self._seats)

    @property
    def n_players(self) -> int:
        """Players in the game."""
        return self._game.n_players

    @property
    def human_seats(self) -> list[int]:
        """The seats played by people."""
        return [i for i, s in enumerate(self._seats) if s == HUMAN]

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return bool(self._game.is_terminal)

    @property
    def to_move(self) -> int | None:
        """The seat on turn, None once the game is over."""
        return None if self.is_over else int(self._game.current_player)

    @property
    def human_to_move(self) -> bool:
        """True when a person is on turn."""
        return not self.is_over and self._seats[self._game.current_player] == HUMAN

    @property
    def log(self) -> list[LogEvent]:
        """Every decision so far, oldest first."""
        return list(self._log)

    def who(self, seat: int) -> str:
        """``"player 1 (greedy)"``."""
        return f"player {seat} ({self._seats[seat]})"

    def _check_seat(self, seat, name: str = "seat", spectator: bool = False) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise SeatError(f"{name} must be an integer seat, got {seat!r:.80}")
        if spectator and seat == SPECTATOR:
            return seat
        if not 0 <= seat < self.n_players:
            lo = f"{SPECTATOR} (spectator) or 0" if spectator else "0"
            raise SeatError(f"{name} must be {lo}..{self.n_players - 1}, got {seat}")
        return seat

    # ---- options and moves ---------------------------------------------------------------
    def options(self) -> list[PlayOption]:
        """The legal options of the seat on turn (empty once the game is over)."""
        if self.is_over:
            return []
        return [PlayOption(o["action"], o["kind"], dict(o["args"]), o["text"],
                           None if o["place"] is None else tuple(o["place"]), bool(o.get("any_time", False)))
                for o in self.table.options(self._game)]

    @classmethod
    def from_record(cls, rec: dict, step: int | None = None) -> "TableSession":
        """A bot-free session of a recorded game (an arena / balance ``games.jsonl`` line:
        ``game`` (default Electrify), ``n_players``, ``seed``, ``lineup``, ``actions``, and the
        game's options, Electrify's ``scenario`` and ``tech_packs``) after its first ``step``
        decisions (all of them when None), for replay viewers.  The line-up only names the
        seats in the log (a ``human`` seat as ``person``); nobody plays.  Raises
        IllegalActionError (its message prefixed ``actions[k]``: an id that is not legal then,
        out of range or not an integer) or PlayError on a bad record."""
        gdef = get_game(rec.get("game", "electrify"))
        options = gdef.table().record_options(rec)
        n = rec["n_players"]
        s = cls._new(gdef, n_players=n, seats=["random"] * n, seed=rec["seed"], **options)
        labels = [x if x != HUMAN else "person" for x in rec["lineup"]]
        if len(labels) == n and all(isinstance(x, str) for x in labels):
            s._seats = labels
        actions = rec["actions"] if step is None else rec["actions"][:step]
        for k, a in enumerate(actions):
            try:
                s.replay_action(a)
            except ValueError as err:     # not legal now, out of range, not an integer
                raise IllegalActionError(f"actions[{k}]: {err}") from None
        return s

    @classmethod
    def _new(cls, gdef: Any, **kw: Any) -> "TableSession":
        """A new session of ``gdef`` built by :class:`TableSession`'s constructor, as an
        instance of ``cls`` (a subclass whose own constructor takes other arguments)."""
        s = object.__new__(cls)
        TableSession.__init__(s, gdef.name, **kw)
        return s

    def replay_action(self, action: int) -> LogEvent:
        """Apply ``action`` for whoever is on turn, person or bot (replays and saved games; no
        seat check), log it and return the log event.  Raises IllegalActionError."""
        return self._apply(self._checked(action))

    def _checked(self, action: Any) -> int:
        """``action`` as an int id that is legal now; IllegalActionError (the engine's message)
        otherwise, the game unchanged."""
        g = self._game
        if isinstance(action, bool) or type(action).__name__ == "bool_":
            raise IllegalActionError(f"action must be an integer id 0..{g.N_ACTIONS - 1}, got {action!r}")
        try:
            a = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"action must be an integer id 0..{g.N_ACTIONS - 1}, got {action!r:.60}") from None
        if not 0 <= a < g.N_ACTIONS or not g.legal_mask()[a]:
            g.step(a)   # raises IllegalActionError with the engine's message
            raise IllegalActionError(f"action {a} is not legal now")    # pragma: no cover
        return int(a)

    def _apply(self, action: int) -> LogEvent:
        g = self._game
        words = self.table.WORDS
        p = int(g.current_player)
        kind, args, text = self.table.describe(g, action)
        index, rnd = len(g.history), int(g.round)
        facts = words.before(g, action)
        g.step(action)
        facts = words.after(g, p, facts)
        ev = LogEvent(index, rnd, p, self.who(p), action, kind, text, secret=kind in self.table.SECRET_KINDS,
                      turn=facts["turn"], phase=facts["phase"], facts=facts,
                      scores=tuple(int(x) for x in g.scores()), args=dict(args))
        self._log.append(ev)
        return ev

    def play(self, action, seat: int | None = None) -> LogEvent:
        """A person's move: apply ``action`` for the seat on turn (``seat``, if given, must be
        it).  Raises SeatError (not on turn, a bot's seat, game over) or IllegalActionError (not
        a legal id now); the game is unchanged then."""
        if self.is_over:
            raise SeatError("the game is over: no more moves")
        cur = int(self._game.current_player)
        if seat is not None and self._check_seat(seat) != cur:
            raise SeatError(f"seat {seat} is not on turn (player {cur} decides now)")
        if self._seats[cur] != HUMAN:
            raise SeatError(f"seat {cur} is played by {self._seats[cur]!r}, not by a person")
        return self._apply(self._checked(action))

    def bot_action(self, seat: int | None = None, spec: str | None = None) -> int:
        """The action the bot of the seat on turn (or the agent ``spec``) would play now."""
        from electrify_env.agents.registry import make_agent
        if self.is_over:
            raise PlayError("the game is over: no decision to make")
        cur = int(self._game.current_player)
        if spec is not None:
            # advisers are kept by spec: a policy loads once, not at every hint (each move
            # reseeds the agent below, so a kept one plays as a new one would)
            agent = self._advisers.get(spec)
            if agent is None:
                agent = make_agent(spec, self.gdef.name)
                if len(self._advisers) >= _MAX_ADVISERS:
                    self._advisers.pop(next(iter(self._advisers)))
                self._advisers[spec] = agent
        else:
            agent = self._agents.get(cur)
        if agent is None:
            raise SeatError(f"seat {cur} is played by a person, not by a bot")
        agent.reset(seed=(self._game.seed * _MOVE_SEED_MUL + len(self._game.history)) % (2 ** 62))
        view = self._game.seat_view(cur, observation=agent.needs_observation, infoset=agent.needs_infoset)
        return int(agent.act(view))

    def step_bot(self) -> LogEvent:
        """Play ONE move of the bot on turn and return its log event (PlayError when a person
        is on turn or the game is over)."""
        if self.is_over:
            raise PlayError("the game is over: no bot to move")
        if self.human_to_move:
            raise SeatError(f"seat {self._game.current_player} is a person's: no bot to move")
        return self._apply(self.bot_action())

    def run_bots(self, limit: int | None = None) -> list[LogEvent]:
        """Bot moves until a person is on turn, the game ends, or ``limit`` moves were made."""
        out = []
        while not self.is_over and not self.human_to_move and (limit is None or len(out) < limit):
            out.append(self.step_bot())
        return out

    def hint(self, agent_spec: str = "greedy") -> PlayOption:
        """What the agent ``agent_spec`` would play for the seat on turn (it sees only that
        seat's information set).  PlayError for a bad spec or at the end of the game."""
        try:
            a = self.bot_action(spec=agent_spec)
        except PlayError:
            raise
        except ValueError as err:
            raise PlayError(f"agent: {err}") from None
        return next(o for o in self.options() if o.action == a)

    def undo(self, seat: int | None = None) -> int:
        """Take back the last decision of a person (of ``seat`` if given) and every bot move
        after it; return how many decisions were taken back.  Refused (PlayError) when there
        is none, or when another person decided after it."""
        if seat is not None:
            self._check_seat(seat)
        people = set(self.human_seats)
        k = None
        for ev in reversed(self._log):
            if ev.seat in people and (seat is None or ev.seat == seat):
                k = ev.index
                break
            if ev.seat in people and seat is not None:
                raise PlayError(f"undo: {self.who(ev.seat)} decided after seat {seat}'s last decision")
        if k is None:
            raise PlayError("undo: no decision of a person to take back" +
                            ("" if seat is None else f" for seat {seat}"))
        g = self._game
        n = len(g.history) - k
        fresh = self.table.restart(g)
        for a in g.history[:k]:
            fresh.step(a)
        self._game = fresh
        del self._log[k:]
        return n

    # ---- the log in players' words, the end of the game ---------------------------------
    def _reader_who(self, for_seat: int | None) -> Any:
        return lambda p: "you" if p == for_seat else self.who(p)

    def turns(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The log in players' words as ``seat`` may see it (None: everything, for tests and
        saves): one entry per round and player, ``{round, player, who, text, steps, done}``
        (:func:`electrify_env.play.turns.group_turns`); the seat's own lines say "You"."""
        if seat is not None:
            seat = self._check_seat(seat, spectator=True)
        return group_turns(self._log, self.table.WORDS, self._reader_who(seat), seat, over=self.is_over)

    def end_summary(self, seat: int | None = None) -> dict[str, Any]:
        """The end-of-game screen's data (:func:`electrify_env.play.turns.end_summary`): scores,
        winners, ranking, the tie-break if the top score was shared, points by source per
        player, score by round, the seed, and the game's own keys (``end_details``: Electrify's
        ``solo``, Gizmos' ``ended_by`` and ``rounds``).  PlayError while the game is running
        (the summary holds the seed)."""
        if not self.is_over:
            raise PlayError("end_summary: the game is not over")
        out = end_summary(self._game, self._log, self.table.WORDS, self._reader_who(seat),
                          self._start_scores, self.table.summary_rounds(self._game))
        out.update(self.table.end_details(self._game))
        return out

    # ---- what a seat sees ----------------------------------------------------------------
    def view(self, seat: int = SPECTATOR) -> dict[str, Any]:
        """Everything ``seat`` may see, JSON-ready: the game's table view (its play module's
        ``table_view``) plus ``game`` (its name), ``seat``, ``n_players``, ``is_over``,
        ``decisions`` (made so far), the seats, ``human_to_move``, the log as that
        seat may see it (``log``: every decision; ``turns``: :meth:`turns`), ``seed`` (None
        until the game is over), once the game is over ``end`` (:meth:`end_summary`, else
        None) and, for the seat on turn only, the legal options.  ``SPECTATOR`` (-1) sees the
        public table."""
        seat = self._check_seat(seat, spectator=True)
        out = self.table.table_view(self._game, seat)
        out["game"] = self.gdef.name
        out["seat"] = seat
        out["n_players"] = self.n_players
        out["is_over"] = self.is_over
        out["decisions"] = len(self._game.history)
        out["seed"] = int(self._game.seed) if self.is_over else None
        out["seats"] = [{"seat": i, "kind": "human" if s == HUMAN else "bot", "agent": s, "who": self.who(i)}
                        for i, s in enumerate(self._seats)]
        out["human_to_move"] = self.human_to_move
        out["options"] = ([o.to_dict() for o in self.options()] if seat == self.to_move else [])
        out["log"] = [e.to_dict(seat) for e in self._log]
        out["turns"] = self.turns(seat)
        out["end"] = self.end_summary(seat) if self.is_over else None
        return out

    # ---- saving --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready save: the game's name, the seats and the game's own save."""
        return {"format": SESSION_FORMAT, "version": SESSION_VERSION, "game_name": self.gdef.name,
                "seats": list(self._seats), "game": self.table.save_game(self._game)}

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict())

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path`` (atomically: a temp file, then a rename)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(self.to_json())
        tmp.replace(path)

    @classmethod
    def from_dict(cls, data: Any) -> "TableSession":
        """Restore :meth:`to_dict`.  The game part is checked by the game's own save checks
        (Electrify: :mod:`electrify_env.savefile`) and its actions are replayed from the seed
        (which also rebuilds the log).  Raises InvalidSaveError (a ValueError) naming the
        field."""
        if not isinstance(data, dict):
            raise InvalidSaveError("session", f"must be a JSON object, got {type(data).__name__}")
        if data.get("format") != SESSION_FORMAT:
            raise InvalidSaveError("format", f"must be {SESSION_FORMAT!r}, got {data.get('format')!r:.60}")
        version = data.get("version")
        if version != SESSION_VERSION and version not in _OLD_VERSIONS:
            raise InvalidSaveError("version", f"must be {SESSION_VERSION} (or 1), got {version!r:.60}")
        keys = {"format", "version", "seats", "game"} | ({"game_name"} if version == SESSION_VERSION else set())
        extra = set(data) - keys
        if extra:
            raise InvalidSaveError(sorted(extra)[0], "unknown key")
        name = _OLD_VERSIONS.get(version) or data.get("game_name")
        try:
            gdef = get_game(name)
            table = gdef.table()
        except (InvalidArgumentError, TypeError) as err:
            raise InvalidSaveError("game_name", str(err)) from None
        try:
            saved = table.load_game(data.get("game"))
        except InvalidSaveError:
            raise
        except ValueError as err:       # a game whose checks raise plain ValueErrors (Gizmos)
            raise InvalidSaveError("game", str(err)) from None
        try:
            seats = check_seats(data.get("seats"), saved.n_players, gdef.name)
        except PlayError as err:
            raise InvalidSaveError("seats", str(err)) from None
        s = object.__new__(cls)
        try:
            s._init(gdef, table.restart(saved), seats)
        except PlayError as err:        # a seat's policy is gone or no longer fits
            raise InvalidSaveError("seats", str(err)) from None
        for k, a in enumerate(saved.history):
            try:
                s._apply(s._checked(a))
            except IllegalActionError as err:
                raise InvalidSaveError(f"game.actions[{k}]", str(err)) from None
        if not table.same_state(s._game, saved):
            raise InvalidSaveError("game.state", "does not match the saved actions replayed from the seed")
        return s

    @classmethod
    def from_json(cls, text: str | bytes) -> "TableSession":
        """Restore :meth:`to_json` text (checked as :meth:`from_dict`)."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as err:
            raise InvalidSaveError("json", f"not a JSON text: {err}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> "TableSession":
        """Restore a file written by :meth:`save` (OSError if it cannot be read)."""
        return cls.from_json(Path(path).read_bytes())

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(game={self.gdef.name!r}, seats={self._seats}, seed={self._game.seed}, "
                f"decisions={len(self._log)})")
