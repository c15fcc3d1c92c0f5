"""One game with seats for people and bots, for a game whose :class:`~electrify_env.games.GameDef`
names a ``play`` module (Gizmos: :mod:`electrify_env.gizmos.table`).

The session knows no game: it plays through the ``Game`` protocol of :mod:`electrify_env.games`
and asks the game's play module for everything it shows (``table_view``, ``options``,
``turn_text``, ``board_text``, ``end_summary``, ``default_opponent``).

    >>> s = TableSession("gizmos", n_players=2, seats=["random", "random"], seed=4)
    >>> _ = s.run_bots()
    >>> s.is_over, len(s.end_summary()["scores"])
    (True, 2)

API::

    s.game, s.seats, s.to_move, s.is_over, s.human_to_move
    s.options()        # [{"action", "kind", "args", "text", "place"}] of the seat on turn
    s.play(a, seat)    # a person's move -> its log entry; SeatError / IllegalActionError
    s.step_bot()       # ONE bot move; run_bots(limit) until a person is on turn or the end
    s.view(seat)       # JSON-ready table as the seat may see it (None: a spectator)
    s.turns()          # the log in players' words: one entry per turn, decisions under it
    s.end_summary()    # once over: scores, winners, points by source

Bot moves are reproducible: before each move the bot is reseeded from the game seed and the
decision number.
"""
from __future__ import annotations

import secrets
from typing import Any, Sequence

from ..games import get_game
from ..validation import IllegalActionError
from .session import HUMAN, PlayError, SeatError

__all__ = ["TableSession", "IllegalActionError"]

_MOVE_SEED_MUL = 1_000_003
_MAX_SEED = 2 ** 62


class TableSession:
    """A game of ``game`` (a registered name with a ``play`` module) for ``n_players`` seats,
    each ``"human"`` or an agent spec of that game (None: the game's default opponent for
    every seat but the first, which is a person's); ``seed`` None draws a fresh one."""

    def __init__(self, game: str, n_players: int = 2, seats: Sequence[str] | None = None,
                 seed: int | None = None, card_set: Any = None) -> None:
        from electrify_env.agents.registry import make_agent, parse_spec

        self.gdef = get_game(game)
        self.table = self.gdef.table()
        if seed is None:
            seed = secrets.randbelow(_MAX_SEED)
        self.game = self.gdef.new_game(n_players, seed=seed, card_set=card_set)
        if seats is None:
            seats = [HUMAN] + [self.table.default_opponent(n_players)] * (n_players - 1)
        if isinstance(seats, (str, bytes)) or len(seats) != n_players:
            raise PlayError(f"seats: {n_players} player(s) need {n_players} seat(s), got {seats!r:.80}")
        self.seats: list[str] = []
        self._agents: dict[int, Any] = {}
        for i, spec in enumerate(seats):
            spec = str(spec).strip()
            if spec != HUMAN:
                try:
                    spec = parse_spec(spec, self.gdef.name).text
                    self._agents[i] = make_agent(spec, self.gdef.name)
                except ValueError as err:
                    raise PlayError(f"seats[{i}]: {err}") from None
            self.seats.append(spec)
        self.log: list[dict] = []

    # ---- state -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the game is over."""
        return bool(self.game.is_terminal)

    @property
    def to_move(self) -> int | None:
        """The seat on turn, None once the game is over."""
        return None if self.is_over else int(self.game.current_player)

    @property
    def human_to_move(self) -> bool:
        """True when a person is on turn."""
        return not self.is_over and self.seats[self.game.current_player] == HUMAN

    def who(self, seat: int) -> str:
        """``"player 1 (greedy)"``."""
        return f"player {seat} ({self.seats[seat]})"

    def options(self) -> list[dict]:
        """The legal options of the seat on turn (the game's play module)."""
        return self.table.options(self.game)

    # ---- moves -------------------------------------------------------------------------------
    def _apply(self, action: int) -> dict:
        seat = int(self.game.current_player)
        opts = {o["action"]: o for o in self.options()}
        if int(action) not in opts:
            raise IllegalActionError(f"action {action} is not legal now; legal: "
                                     + ", ".join(str(a) for a in opts))
        o = opts[int(action)]
        rnd = int(self.game.round)
        self.game.step(int(action))
        event = {"index": len(self.log), "round": rnd, "seat": seat, "who": self.who(seat),
                 "action": o["action"], "kind": o["kind"], "text": o["text"],
                 "scores": [int(x) for x in self.game.scores()]}
        self.log.append(event)
        return event

    def play(self, action: int, seat: int) -> dict:
        """A person's move for ``seat``; SeatError when that seat is not on turn or not a
        person's, IllegalActionError when the action is not legal.  Returns its log entry."""
        if self.is_over:
            raise PlayError("the game is over: no move to make")
        if int(seat) != self.game.current_player:
            raise SeatError(f"seat {seat} is not on turn (player {self.game.current_player} decides now)")
        if self.seats[int(seat)] != HUMAN:
            raise SeatError(f"seat {seat} is played by a bot, not by a person")
        return self._apply(int(action))

    def bot_action(self) -> int:
        """The move the bot on turn would play (reseeded from the seed and the decision number)."""
        cur = int(self.game.current_player)
        agent = self._agents.get(cur)
        if agent is None:
            raise SeatError(f"seat {cur} is played by a person, not by a bot")
        agent.reset(seed=(self.game.seed * _MOVE_SEED_MUL + len(self.game.history)) % _MAX_SEED)
        view = self.game.seat_view(cur, observation=agent.needs_observation, infoset=agent.needs_infoset)
        return int(agent.act(view))

    def step_bot(self) -> dict:
        """ONE bot move; PlayError when a person is on turn or the game is over."""
        if self.is_over:
            raise PlayError("the game is over: no bot to move")
        if self.human_to_move:
            raise SeatError(f"seat {self.game.current_player} is a person's: no bot to move")
        return self._apply(self.bot_action())

    def run_bots(self, limit: int | None = None) -> list[dict]:
        """Bot moves until a person is on turn, the game ends, or ``limit`` moves were made."""
        out = []
        while not self.is_over and not self.human_to_move and (limit is None or len(out) < limit):
            out.append(self.step_bot())
        return out

    # ---- views -------------------------------------------------------------------------------
    def turns(self) -> list[dict]:
        """The log in players' words: one entry per turn (consecutive decisions of one seat in
        one round), ``{"round", "seat", "who", "text", "steps": [texts]}``."""
        out: list[dict] = []
        group: list[dict] = []

        def close() -> None:
            if group:
                g0 = group[0]
                out.append({"round": g0["round"], "seat": g0["seat"], "who": g0["who"],
                            "text": self.table.turn_text(group), "steps": [e["text"] for e in group]})
        for e in self.log:
            if group and (e["seat"] != group[0]["seat"] or e["round"] != group[0]["round"]):
                close()
                group = []
            group.append(e)
        close()
        return out

    def view(self, seat: int | None = None) -> dict:
        """JSON-ready: the table as ``seat`` may see it (None: a spectator), the seats, the log
        in players' words and, once over, the end summary."""
        if seat is not None and not 0 <= int(seat) < self.game.n_players:
            raise SeatError(f"seat must be 0..{self.game.n_players - 1}, got {seat}")
        v = self.table.table_view(self.game, None if seat is None else int(seat))
        v["seats"] = list(self.seats)
        v["you"] = seat
        v["turns"] = self.turns()
        v["summary"] = self.end_summary() if self.is_over else None
        return v

    def board_text(self, seat: int | None = None) -> str:
        """The table as terminal text, as ``seat`` may see it."""
        return self.table.board_text(self.table.table_view(self.game, seat))

    def end_summary(self) -> dict:
        """Scores, winners and points by source of the finished game; PlayError before the end."""
        if not self.is_over:
            raise PlayError("the game is not over yet")
        return self.table.end_summary(self.game)
