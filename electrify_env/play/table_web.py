"""The web API of a table game (a game whose GameDef names a ``play`` module: Gizmos), mounted
by :func:`electrify_env.play.web.build_app` beside Electrify's own, and its page ``/table``.

=====================================  ========================================================
``GET /table?game=NAME``               the page (static/table.html)
``POST /api/tables``                   ``{"game", "seats", "seed"?}`` -> id, seat tokens, state
``GET /api/tables/{id}?token=T``       the state as the token's seat sees it (none: spectator)
``POST /api/tables/{id}/move``         ``{"action", "token"}``; then the bots move until a
                                       person is on turn or the game ends
``POST /api/tables/{id}/bots``         the bots move (a game of bots only, for spectators)
=====================================  ========================================================

A state is the session's view (:meth:`~electrify_env.play.table.TableSession.view`) for the
seat: it never holds the deck order, another seat's researched cards, the seed or the
generator state.  Games are kept in memory (the oldest goes when ``max_games`` are kept).
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from typing import Any, Callable

from ..games import get_game
from .table import HUMAN, SPECTATOR, TableSession, fresh_seed

__all__ = ["TableStore", "table_routes"]

FILE_PARAMS = ("path", "weights")
MAX_BOT_MOVES = 2000


class TableStore:
    """Running table games by id, each with its seat tokens and a lock."""

    def __init__(self, max_games: int) -> None:
        self.max_games = int(max_games)
        self.games: OrderedDict[str, dict] = OrderedDict()

    def add(self, session: TableSession) -> dict:
        """Keep ``session``; returns its record (``id``, ``session``, ``tokens``, ``lock``)."""
        while len(self.games) >= self.max_games:
            self.games.popitem(last=False)
        rec = {"id": secrets.token_hex(8), "session": session, "lock": threading.Lock(),
               "tokens": {i: secrets.token_urlsafe(16) for i, s in enumerate(session.seats) if s == HUMAN}}
        self.games[rec["id"]] = rec
        return rec

    def get(self, gid: str) -> dict | None:
        """The record of ``gid`` or None."""
        return self.games.get(str(gid))


def table_routes(handler: Callable, web_error: type, public: bool, store: TableStore, static_dir) -> list:
    """The Starlette routes of the table API (module docstring) over ``store``; ``handler``
    wraps an endpoint ``fn(request, body, token)`` into JSON answers, ``web_error(status,
    message)`` is the error it answers with."""
    from starlette.responses import FileResponse
    from starlette.routing import Route

    def record(request) -> dict:
        rec = store.get(request.path_params["tid"])
        if rec is None:
            raise web_error(404, f"no table game {request.path_params['tid']!r:.40}")
        return rec

    def seat_of(rec: dict, token: Any) -> int:
        if token is None:
            return SPECTATOR
        for seat, t in rec["tokens"].items():
            if secrets.compare_digest(str(token), t):
                return seat
        raise web_error(403, "token: not a seat of this game")

    def state(rec: dict, seat: int) -> dict:
        return {"id": rec["id"], "game": rec["session"].gdef.name, "seat": seat, "view": rec["session"].view(seat)}

    def check_spec(spec: Any, i: int, game: str) -> str:
        if not isinstance(spec, str) or not spec.strip():
            raise web_error(400, f"seats[{i}] must be 'human' or an agent spec, got {spec!r:.60}")
        spec = spec.strip()
        if spec == HUMAN:
            return spec
        from electrify_env.agents.registry import parse_spec
        parsed = parse_spec(spec, game)
        if any(k in FILE_PARAMS for k in parsed.params):
            raise web_error(400, f"seats[{i}]: agent parameters that name a file are not taken from a client")
        if public and ":" in parsed.text:
            raise web_error(400, f"seats[{i}]: this server offers only the agents by name, got {spec!r:.60}")
        return parsed.text

    def new_table(request, body, token):
        name = body.get("game", "gizmos")
        gdef = get_game(name)
        if gdef.name == "electrify":
            raise web_error(400, f"game: {gdef.title} is played at /api/games, not at a table")
        seats = body.get("seats")
        if seats is None:
            n = int(body.get("players", 2))
            seats = [HUMAN] + [gdef.table().default_opponent(n)] * (n - 1)
        if not isinstance(seats, list) or not gdef.min_players <= len(seats) <= gdef.max_players:
            raise web_error(400, f"seats must be a list of {gdef.min_players} to {gdef.max_players} entries")
        seats = [check_spec(s, i, gdef.name) for i, s in enumerate(seats)]
        seed = body.get("seed")
        if seed is None:
            seed = fresh_seed()
        elif public and sum(s == HUMAN for s in seats) > 1:
            raise web_error(400, "seed: a game for several people on a public server is dealt from a fresh secret seed")
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise web_error(400, f"seed must be an integer, got {seed!r:.40}")
        session = TableSession(gdef.name, len(seats), seats, seed=seed)
        rec = store.add(session)
        with rec["lock"]:
            session.run_bots(MAX_BOT_MOVES if rec["tokens"] else 0)
            seat = min(rec["tokens"]) if rec["tokens"] else SPECTATOR
            return {"id": rec["id"], "tokens": {str(k): v for k, v in rec["tokens"].items()}, **state(rec, seat)}

    def get_table(request, body, token):
        rec = record(request)
        with rec["lock"]:
            return state(rec, seat_of(rec, token))

    def move(request, body, token):
        rec = record(request)
        with rec["lock"]:
            seat = seat_of(rec, token)
            if seat == SPECTATOR:
                raise web_error(403, "token: a move needs the token of the seat on turn")
            action = body.get("action")
            if isinstance(action, bool) or not isinstance(action, int):
                raise web_error(400, f"action must be an action id from the options, got {action!r:.40}")
            s = rec["session"]
            s.play(action, seat)
            s.run_bots(MAX_BOT_MOVES)
            return state(rec, seat)

    def bots(request, body, token):
        rec = record(request)
        with rec["lock"]:
            seat = seat_of(rec, token)
            rec["session"].run_bots(int(body.get("limit", MAX_BOT_MOVES)) if not rec["tokens"] else MAX_BOT_MOVES)
            return state(rec, seat)

    async def page(request):
        return FileResponse(static_dir / "table.html")

    return [Route("/table", page),
            Route("/api/tables", handler(new_table), methods=["POST"]),
            Route("/api/tables/{tid}", handler(get_table), methods=["GET"]),
            Route("/api/tables/{tid}/move", handler(move), methods=["POST"]),
            Route("/api/tables/{tid}/bots", handler(bots), methods=["POST"])]
