"""One game with seats for people and bots: the model behind the web app and the terminal UI.

A :class:`PlaySession` wraps an :class:`electrify_env.Game` and gives every seat either to a
person (``"human"``) or to an agent of the registry (``electrify_env.agents.make_agent`` specs such as
``"greedy"``, ``"random"``, ``"mcts:iters=36:top_k=3:horizon=2"``, ``"trained"``,
``"net:path=run/policy.pt"``).  A seat played by a trained policy loads it when the session is
made, so a policy that does not fit the game (another player count, card set or layout) is
refused then with a PlayError, not at its first move.  :func:`default_opponent` is the bot the
UIs put in a seat nobody chose: ``trained`` where a shipped policy fits the game, else ``greedy``.

API (stable; the web app :mod:`electrify_env.play.web` and the terminal UI use only this)::

    s = PlaySession(n_players=2, seats=["human", "greedy"], seed=None,   # None: a fresh one
                    scenario=None, tech_packs=(), card_set=None)
    s.game            # the Game (read it; change it only through the session)
    s.seats           # ["human", "greedy"]: the spec of each seat
    s.to_move         # seat on turn, None once the game is over
    s.is_over         # True after round 12
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
    s.to_dict() / PlaySession.from_dict(d)   # also to_json/from_json and save(path)/load(path)

``PlayOption.place`` names the board element an option belongs to, so a UI can put it there
(None: the option has no place and is shown in a list):

=========================  ======================================================================
place                      kinds
=========================  ======================================================================
``("sector", p, s)``       plan, place_sector, dis_sector, flip (sector ``s`` of player ``p``)
``("slot", p, s, k)``      place_slot (insert at slot k), dis_card, reorder (card at old slot k)
``("hand", h)``            card_hand, discard, discard_mult (hand slot ``h`` of the seat on turn)
``("basic", b, f)``        card_basic (face ``f`` of basic card ``b``)
``("depot", p, c)``        pay, produce, develop, transmit (column ``c`` of player ``p``'s depot)
``("grid", p, c)``         donate (a grid cube of column ``c``)
``("research", p)``        research (the marker of player ``p``)
``("breakthrough", k)``    bt (research breakthrough space ``k``)
``("demand", l)``          fulfill (the demand card of level ``l``)
``("deck", d)``            invest (draw from deck ``d``)
``("icon", i)``            icon (icon ``i`` of the item being discharged)
None                       pass, boost, plan_move, reward, ongoing, solo_swap
=========================  ======================================================================

Bot moves are reproducible: before each move the bot is reseeded from the game seed and the
decision number, so :meth:`PlaySession.undo`, save/load and a replay give the same bot moves.
Saves are the engine's save format (:mod:`electrify_env.savefile` checks them completely)
inside a small envelope that names the seats.
"""
from __future__ import annotations

import functools
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from .. import describe as _describe
from ..engine import layout as L
from ..kernels.batch import MAX_SEED
from ..game import Game
from ..savefile import InvalidSaveError
from ..validation import IllegalActionError, InvalidArgumentError
from ..render.view import SPECTATOR, seat_view_dict
from .turns import TurnWords, end_summary, group_turns

__all__ = ["ELECTRIFY_WORDS", "HUMAN", "LogEvent", "PlayError", "PlayOption", "PlaySession", "SeatError",
           "SESSION_FORMAT", "SESSION_VERSION", "SPECTATOR", "IllegalActionError",
           "default_opponent", "fresh_seed", "shipped_policy_for", "tech_pack_ids"]

HUMAN = "human"
FALLBACK_OPPONENT = "greedy"
SESSION_FORMAT = "electrify-play-session"
SESSION_VERSION = 1
_MOVE_SEED_MUL = 1_000_003
_MAX_ADVISERS = 8          # hint agents kept per session
HIDDEN_PLAN = "chose a sector in secret"

#: Electrify's words for the table's log and end screen (:mod:`electrify_env.describe`)
ELECTRIFY_WORDS = TurnWords(before=_describe.step_facts, after=_describe.step_result,
                            turn_text=_describe.turn_text, point_sources=_describe.POINT_SOURCES,
                            tiebreak_names=_describe.TIEBREAK_NAMES)


class PlayError(InvalidArgumentError):
    """A request the session cannot carry out (bad seat, a person's move while a bot is on turn,
    nothing to undo, a bad seat spec); the one-line message names the field.  Nothing changed."""


class SeatError(PlayError):
    """A move or request for a seat that is not on turn, not a person's, or does not exist."""


@dataclass(frozen=True)
class PlayOption:
    """One legal option of the seat on turn.

    Attributes:
        action: the action id (pass it to :meth:`PlaySession.play`).
        kind: the action kind (:mod:`electrify_env.actions`), e.g. ``"card_hand"``.
        args: the kind's named arguments.
        text: what it does, in plain words (:meth:`Game.describe_action`).
        place: the board element it belongs to (module docstring table), or None.
        any_time: True for the any-time actions of R13 (discard, donate).
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
        round: the round it was made in (0: the first Plan step).
        seat: who decided.
        who: ``"player 1 (greedy)"`` / ``"player 0 (human)"``.
        action: the action id.
        kind: the action kind.
        text: what was done (the option's text).
        secret: True for a Plan pick (R4): other seats see only that a pick was made.
        turn: the round the decision belongs to (a Plan pick: the round it plans).
        phase: ``"plan"`` while the Plan step is open, else ``"turn"``.
        facts: what the turn line needs of it (:func:`electrify_env.describe.step_facts`).
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
        only).  A secret Plan pick shows its sector only to its own seat."""
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


def _place(kind: str, args: Mapping[str, int], p: int, context: Mapping[str, object]) -> tuple | None:
    """The board element of an option (see the module docstring's table)."""
    if kind in ("plan", "place_sector", "dis_sector", "flip"):
        return ("sector", p, args["sector"])
    if kind == "dis_card":
        return ("slot", p, args["sector"], args["slot"])
    if kind in ("place_slot", "reorder") and "sector" in context:
        return ("slot", p, int(context["sector"]), args["slot"])
    if kind in ("card_hand", "discard", "discard_mult"):
        return ("hand", args["hand_slot"])
    if kind == "card_basic":
        return ("basic", args["basic"], args["face"])
    if kind in ("pay", "produce", "develop", "transmit"):
        return ("depot", p, args["column"])
    if kind == "donate":
        return ("grid", p, args["column"])
    if kind == "research":
        return ("research", p)
    if kind == "bt":
        return ("breakthrough", args["space"])
    if kind == "fulfill":
        return ("demand", args["level"])
    if kind == "invest":
        return ("deck", args["deck"])
    if kind == "icon":
        return ("icon", args["icon"])
    return None


def _check_seats(seats: Sequence[str], n_players: int) -> list[str]:
    from electrify_env.agents import parse_spec   # the agents package sits beside electrify_env
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
                spec = parse_spec(spec).text
            except ValueError as err:
                raise PlayError(f"seats[{i}]: {err}") from None
        out.append(spec)
    return out


def shipped_policy_for(n_players: int, card_set_hash: str | None = None) -> Path | None:
    """The shipped policy that ``trained`` plays in an ``n_players`` game (1 = solo), or None
    when none is shipped or its metadata does not fit this engine, the card set
    (``card_set_hash``; None: the base set) or the player count.  Reads only the metadata
    sidecar, so it is cheap and imports no torch."""
    from electrify_env.agents.trained import shipped_policy

    from ..cards import load_card_set
    from electrify_env.agents.policy_meta import check_compatible, load_policy_metadata, policy_players
    try:
        path = shipped_policy(n_players)
        meta = load_policy_metadata(path)
        check_compatible(meta, card_set_hash=card_set_hash or load_card_set().hash, n_players=n_players)
    except ValueError:          # AgentError (none shipped), PolicyMismatchError
        return None
    return path if policy_players(meta) in (None, n_players) else None


def default_opponent(n_players: int, card_set_hash: str | None = None) -> str:
    """The bot for a seat nobody chose in the UIs: ``"trained"`` when a shipped policy fits an
    ``n_players`` game with the card set ``card_set_hash`` (None: the base set; see
    :func:`shipped_policy_for`), else ``"greedy"``."""
    return "trained" if shipped_policy_for(n_players, card_set_hash) is not None else FALLBACK_OPPONENT


def _load_policies(game: Game, seats: Sequence[str], agents: Mapping[int, Any]) -> None:
    """Load the network of every seat played by a trained policy now, so that one that does not
    fit the game is refused (PlayError naming the seat) before the game starts."""
    from electrify_env.agents import SeatView
    from electrify_env.agents.trained import NetAgent
    for i, agent in agents.items():
        if isinstance(agent, NetAgent):
            view = SeatView(i, game.n_players, np.zeros(L.N_ACTIONS, np.uint8), None, None,
                            np.zeros(0, np.int64), game.cards.hash, len(game.history))
            try:
                agent._net(view)        # loads and checks the policy for this player count and card set
            except ValueError as err:   # AgentError, PolicyMismatchError, a corrupt file
                raise PlayError(f"seats[{i}] ({seats[i]}): {err}") from None


@functools.lru_cache(maxsize=1)
def _shipped_pack_ids() -> dict[str, str]:
    from ..cards import load_card_set
    from ..game import resolve_tech_pack, tech_pack_names
    return {load_card_set(tech_packs=(resolve_tech_pack(n),)).pack_names[0]: n for n in tech_pack_names()}


def tech_pack_ids(game: Game) -> list[str]:
    """The shipped names (``"grid"``) of the tech packs in ``game``'s card set, to deal another
    game like it; PlayError for a pack that is not shipped (a pack file)."""
    ids = _shipped_pack_ids()
    missing = [n for n in game.cards.pack_names if n not in ids]
    if missing:
        raise PlayError(f"tech pack {missing[0]!r} is not a shipped pack")
    return [ids[n] for n in game.cards.pack_names]


def fresh_seed() -> int:
    """An unpredictable game seed (0..2**62-1) from :mod:`secrets`: the seed of every game whose
    caller names none."""
    return secrets.randbelow(MAX_SEED + 1)


class PlaySession:
    """A game with a person or a bot in every seat (see the module docstring for the API).

    Args:
        n_players: 1 (with a scenario) to 4; default: ``len(seats)``, else 1 with a scenario
            and 2 without.
        seats: ``"human"`` or an agent spec for each seat; default: a person in seat 0 and
            ``greedy`` in the others.
        seed: the game seed (0..2**62-1); None (the default): a fresh unpredictable one
            (:mod:`secrets`), so no seat can rebuild the deal from it.  Views show the seed only
            once the game is over.
        scenario: a solo scenario id or path (then ``n_players`` is 1).
        tech_packs: tech packs to shuffle in (``"grid"``, ``"market"``, paths).
        card_set: a card-set path or CardSet, None for the base set.

    Raises:
        PlayError: a bad argument, named in the message (an InvalidArgumentError; both are
            ValueErrors).
    """

    def __init__(self, n_players: int | None = None, seats: Sequence[str] | None = None,
                 seed: int | None = None, scenario=None, tech_packs=(), card_set=None) -> None:
        if seed is None:
            seed = fresh_seed()
        if n_players is None:
            n_players = len(seats) if seats is not None and not isinstance(seats, (str, bytes)) \
                else (1 if scenario is not None else 2)
        game = Game(n_players=n_players, seed=seed, card_set=card_set, tech_packs=tech_packs,
                    scenario=scenario)
        if seats is None:
            seats = [HUMAN] + ["greedy"] * (game.n_players - 1)
        self._init(game, _check_seats(seats, game.n_players), [])

    def _init(self, game: Game, seats: list[str], log: list[LogEvent]) -> None:
        from electrify_env.agents import make_agent
        self._game = game
        self._seats = seats
        agents = {}
        for i, spec in enumerate(seats):
            if spec != HUMAN:
                try:
                    agents[i] = make_agent(spec)
                except ValueError as err:   # an agent that cannot be built (a missing policy file)
                    raise PlayError(f"seats[{i}]: {err}") from None
        _load_policies(game, seats, agents)
        self._agents = agents
        self._advisers: dict[str, Any] = {}
        self._log = log
        self._start_scores = tuple(int(x) for x in game.scores())     # a game at its start

    # ---- state ---------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The game (read it; change it only through the session)."""
        return self._game

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
        return self._game.is_terminal

    @property
    def to_move(self) -> int | None:
        """The seat on turn, None once the game is over."""
        return None if self.is_over else self._game.current_player

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
        d = self._game.decision()
        return [PlayOption(o.id, o.kind, dict(o.args), o.text, _place(o.kind, o.args, d.player, d.context),
                           o.any_time) for o in d.options]

    @classmethod
    def from_record(cls, rec: dict, step: int | None = None) -> "PlaySession":
        """A bot-free session of a recorded game (an arena / balance ``games.jsonl`` line:
        ``n_players``, ``seed``, ``lineup``, ``actions``, optional ``scenario`` and
        ``tech_packs``) after its first ``step`` decisions (all of them when None), for replay
        viewers.  The line-up only names the seats in the log (a ``human`` seat as ``person``);
        nobody plays.  Raises
        IllegalActionError (its message prefixed ``actions[k]``: an id that is not legal then,
        out of range or not an integer) or PlayError on a bad record."""
        n = rec["n_players"]
        s = cls(n_players=n, seats=["random"] * n, seed=rec["seed"], scenario=rec.get("scenario"),
                tech_packs=tuple(rec.get("tech_packs", [])))
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

    def replay_action(self, action: int) -> LogEvent:
        """Apply ``action`` for whoever is on turn, person or bot (replays and saved games; no
        seat check), log it and return the log event.  Raises IllegalActionError."""
        return self._apply(action)

    def _apply(self, action: int) -> LogEvent:
        g = self._game
        p = g.current_player
        from ..actions import decode
        act = decode(action)
        kind = act.kind
        text = g.describe_action(action)
        index, rnd = len(g.history), g.round
        facts = ELECTRIFY_WORDS.before(g, action)
        g.step(action)
        facts = ELECTRIFY_WORDS.after(g, p, facts)
        ev = LogEvent(index, rnd, p, self.who(p), action, kind, text, secret=kind == "plan",
                      turn=facts["turn"], phase=facts["phase"], facts=facts,
                      scores=tuple(int(x) for x in g.scores()), args=dict(act.args))
        self._log.append(ev)
        return ev

    def play(self, action, seat: int | None = None) -> LogEvent:
        """A person's move: apply ``action`` for the seat on turn (``seat``, if given, must be
        it).  Raises SeatError (not on turn, a bot's seat, game over) or IllegalActionError (not
        a legal id now); the game is unchanged then."""
        if self.is_over:
            raise SeatError("the game is over: no more moves")
        cur = self._game.current_player
        if seat is not None and self._check_seat(seat) != cur:
            raise SeatError(f"seat {seat} is not on turn (player {cur} decides now)")
        if self._seats[cur] != HUMAN:
            raise SeatError(f"seat {cur} is played by {self._seats[cur]!r}, not by a person")
        from ..validation import check_action
        a = check_action(action)
        if not 0 <= a < L.N_ACTIONS or not self._game.legal_mask()[a]:
            self._game.step(a)   # raises IllegalActionError with the engine's message
        return self._apply(a)

    def bot_action(self, seat: int | None = None, spec: str | None = None) -> int:
        """The action the bot of the seat on turn (or the agent ``spec``) would play now."""
        from electrify_env.agents import make_agent, seat_view
        if self.is_over:
            raise PlayError("the game is over: no decision to make")
        cur = self._game.current_player
        if spec is not None:
            # advisers are kept by spec: a policy loads once, not at every hint (each move
            # reseeds the agent below, so a kept one plays as a new one would)
            agent = self._advisers.get(spec)
            if agent is None:
                agent = make_agent(spec)
                if len(self._advisers) >= _MAX_ADVISERS:
                    self._advisers.pop(next(iter(self._advisers)))
                self._advisers[spec] = agent
        else:
            agent = self._agents.get(cur)
        if agent is None:
            raise SeatError(f"seat {cur} is played by a person, not by a bot")
        agent.reset(seed=(self._game.seed * _MOVE_SEED_MUL + len(self._game.history)) % (2 ** 62))
        view = seat_view(self._game, cur, observation=agent.needs_observation, infoset=agent.needs_infoset)
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
        self._game = Game.replay(g.history[:k], n_players=g.n_players, seed=g.seed, card_set=g.cards,
                                 scenario=g.scenario)
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
        return group_turns(self._log, ELECTRIFY_WORDS, self._reader_who(seat), seat, over=self.is_over)

    def end_summary(self, seat: int | None = None) -> dict[str, Any]:
        """The end-of-game screen's data (:func:`electrify_env.play.turns.end_summary`): scores,
        winners, ranking, the tie-break if the top score was shared, points by source per
        player, score by round, the seed; ``solo`` (the solo result) in a solo game.  PlayError
        while the game is running (the summary holds the seed)."""
        if not self.is_over:
            raise PlayError("end_summary: the game is not over")
        out = end_summary(self._game, self._log, ELECTRIFY_WORDS, self._reader_who(seat),
                          self._start_scores, L.N_ROUNDS)
        out["solo"] = self._game.solo_result() if self._game.is_solo else None
        return out

    # ---- what a seat sees ----------------------------------------------------------------
    def view(self, seat: int = SPECTATOR) -> dict[str, Any]:
        """Everything ``seat`` may see, JSON-ready (:func:`electrify_env.render.view.seat_view_dict`)
        plus the seats, the log as that seat may see it (``log``: every decision; ``turns``:
        :meth:`turns`), once the game is over ``end`` (:meth:`end_summary`, else None) and, for
        the seat on turn only, the legal options.  ``SPECTATOR`` (-1) sees the public table."""
        seat = self._check_seat(seat, spectator=True)
        out = seat_view_dict(self._game, seat)
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
        """A JSON-ready save: the seats and the engine's save of the game."""
        return {"format": SESSION_FORMAT, "version": SESSION_VERSION, "seats": list(self._seats),
                "game": self._game.to_dict()}

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
    def from_dict(cls, data: Any) -> "PlaySession":
        """Restore :meth:`to_dict`.  The game part is checked by the engine's save checks
        (:mod:`electrify_env.savefile`) and its actions are replayed from the seed (which also
        rebuilds the log).  Raises InvalidSaveError (a ValueError) naming the field."""
        if not isinstance(data, dict):
            raise InvalidSaveError("session", f"must be a JSON object, got {type(data).__name__}")
        if data.get("format") != SESSION_FORMAT:
            raise InvalidSaveError("format", f"must be {SESSION_FORMAT!r}, got {data.get('format')!r:.60}")
        if data.get("version") != SESSION_VERSION:
            raise InvalidSaveError("version", f"must be {SESSION_VERSION}, got {data.get('version')!r:.60}")
        extra = set(data) - {"format", "version", "seats", "game"}
        if extra:
            raise InvalidSaveError(sorted(extra)[0], "unknown key")
        saved = Game.from_dict(data.get("game"))
        try:
            seats = _check_seats(data.get("seats"), saved.n_players)
        except PlayError as err:
            raise InvalidSaveError("seats", str(err)) from None
        s = object.__new__(cls)
        try:
            s._init(Game(n_players=saved.n_players, seed=saved.seed, card_set=saved.cards,
                         scenario=saved.scenario), seats, [])
        except PlayError as err:        # a seat's policy is gone or no longer fits
            raise InvalidSaveError("seats", str(err)) from None
        for k, a in enumerate(saved.history):
            try:
                s._apply(a)
            except IllegalActionError as err:
                raise InvalidSaveError(f"game.actions[{k}]", str(err)) from None
        if not s._game.same_as(saved):
            raise InvalidSaveError("game.state", "does not match the saved actions replayed from the seed")
        return s

    @classmethod
    def from_json(cls, text: str | bytes) -> "PlaySession":
        """Restore :meth:`to_json` text (checked as :meth:`from_dict`)."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as err:
            raise InvalidSaveError("json", f"not a JSON text: {err}") from None
        return cls.from_dict(data)

    @classmethod
    def load(cls, path: str | Path) -> "PlaySession":
        """Restore a file written by :meth:`save` (OSError if it cannot be read)."""
        return cls.from_json(Path(path).read_bytes())

    def __repr__(self) -> str:
        return f"PlaySession(seats={self._seats}, seed={self._game.seed}, decisions={len(self._log)})"
