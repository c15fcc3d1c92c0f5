"""``electrify serve``: play Electrify or Gizmos in the browser against bots, hot-seat, or watch
bots play.

A small Starlette app over :class:`~electrify_env.play.table.TableSession`, the one play session
of every game whose :class:`~electrify_env.games.GameDef` names a ``play`` module; the page is
plain HTML + JavaScript (``static/``): one page for every game, Electrify's board the SVG of
:mod:`electrify_env.render.board` (``app.js``), Gizmos' table drawn from its view
(``gizmos.js``).

Server rules:

* binds to 127.0.0.1 unless ``--host`` says otherwise;
* every game (of either game: ``game`` in the new-game request, Electrify by default) has an
  unguessable id and every human seat an unguessable token; a request with a
  seat's token is answered with that seat's view only, a request without a token with the
  public (spectator) view.  No response ever carries hidden information (Electrify: other
  hands, deck order, another player's Plan pick before the reveal; Gizmos: deck order, another
  seat's researched cards; either: the seed or the generator's state, from which the deal
  could be rebuilt); the seed and the full save are given out only once the game is over;
* a game created without a seed gets a fresh one from :mod:`secrets`; on a public server a game
  with several people in it is always dealt from such a seed;
* games are kept in a folder (one JSON file each, written after every change), so a restart
  resumes them; at most ``max_games`` are kept (the oldest finished game makes room, else a
  new game is refused with 429);
* bots are agents of the game's registry (``electrify_env.agents.agents_of(game)``): for
  Electrify the page offers every registered agent that needs no file, shipped ``trained*``
  policies included as soon as their files exist, and ``trained`` is the default opponent
  wherever a shipped policy fits; for Gizmos every agent of its registry, ``policy`` for the
  player counts with a shipped file (the default opponent of a 2-player game); a spec from a client
  never loads a file (``net:path=``, ``ppo:path=``, ``weights=`` are refused), and when served
  beyond this machine (``--host``) only the offered specs are accepted;
* a malformed or illegal request gets a 4xx answer ``{"error": "..."}`` and changes nothing.

JSON API (every answer is JSON; ``token`` in the query string, the body, or ``X-Token``):

=====================================  =========================================================
``GET  /api/meta``                     ``games``: each game's name, title, player counts,
                                       options, bots offered and default opponent per player
                                       count; Electrify's bots, difficulty levels, default
                                       opponents, scenarios and tech packs also at the top level
``GET  /api/games``                    the games kept (id, game, seats, round, over)
``POST /api/games``                    new game ``{game, seats, seed}`` and the game's own
                                       options (Electrify: ``scenario``, ``tech_packs``) ->
                                       ``{id, tokens: {seat: token}, state}`` (no game:
                                       Electrify; no seed: a fresh secret one)
``POST /api/games/import``             a saved session (``TableSession.to_dict``) as a new game
``GET  /api/games/{id}``               ``state``: ``{id, game, seat, view, svg}`` of the
                                       token's seat (``svg``: Electrify's board, None for Gizmos)
                                       (``view.turns``: the log in players' words, the
                                       decisions folded under each line for the last two
                                       rounds; ``view.end``: the end-of-game summary, once over)
``GET  /api/games/{id}/turns``         every line of the log with its decisions, as the
                                       token's seat may see them
``POST /api/games/{id}/move``          ``{token, action}``: a person's move -> ``{event, state}``
``POST /api/games/{id}/bot``           one bot move -> ``{event, state}``
``POST /api/games/{id}/undo``          ``{token}``: take back the seat's last decision
``POST /api/games/{id}/hint``          ``{token, agent}``: what the agent would play
``GET  /api/games/{id}/export``        the session save (only once the game is over)
``POST /api/games/{id}/replay``        a finished game into the replay viewer -> replay id
``POST /api/games/{id}/again``         a finished game's seats and options (Electrify: tech
                                       packs, scenario) dealt afresh (a new secret seed) ->
                                       ``{id, tokens, state}``
``POST /api/replays``                  ``{text, game}``: an Electrify arena ``games.jsonl`` ->
                                       replay id
``GET  /api/replays/{id}?step=k``      the public view after k decisions
``GET  /table?game=NAME``              a redirect to the page with that game chosen
=====================================  =========================================================
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..games import game_names, get_game as game_def
from ..validation import IllegalActionError
from ..render.board import build_scene, to_svg
from ..kernels.batch import MAX_SEED
from .session import HUMAN, SPECTATOR, PlayError, default_opponent, fresh_seed, shipped_policy_for
from .table import TableSession

__all__ = ["GameStore", "bot_choices", "build_app", "game_bot_choices", "play_games", "serve", "main", "WEB_FORMAT", "DEFAULT_MAX_GAMES", "FAST_MCTS",
           "GUIDED_MCTS"]

WEB_FORMAT = "electrify-web-game"
WEB_VERSION = 1
DEFAULT_MAX_GAMES = 32
MAX_REPLAYS = 16
LOG_TAIL = 150                      # log events sent with a state (the page shows the latest)
TURN_STEP_ROUNDS = 2                # rounds whose turn lines carry their decisions in a state
MAX_BODY = 4 * 1024 * 1024          # bytes of a request body (imports and replays are the big ones)
STATIC = Path(__file__).resolve().parent / "static"
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
FILE_PARAMS = ("path", "weights")   # agent parameters that name a file: never taken from a client
FAST_MCTS = "mcts:iters=36:top_k=3:horizon=2"
"""The arena's mcts, offered beside the plain ``mcts`` defaults."""
GUIDED_MCTS = FAST_MCTS + ":guide=trained"
"""The arena's mcts guided by the shipped policy of the game's player count (the policy picks
its candidates and plays its unsearched moves), offered where a policy is shipped: at or above
the arena's mcts on every solo scenario (docs/agents.md); its strength in 2-, 3- and 4-player
games with the shipped guides is not measured."""
BOT_DOCS = {
    # time per move in PlaySession.step_bot, measured on 2 shared cores (mean per move; the
    # most CPU time of one move, in 4-player games with both tech packs, the heaviest case):
    # both within the 200 ms budget.  Most moves are not searched (one legal option, or a
    # decision the search leaves to the greedy); the searched ones take tens of ms.
    FAST_MCTS: "mcts at the arena's strength: 36 rollouts 2 rounds deep over the greedy's best 3 "
               "(13-34 ms a move on average, at most 181 ms)",
    "mcts": "mcts with its defaults: 48 rollouts 1 round deep over the greedy's best 5 "
            "(5-23 ms a move on average, at most 167 ms)",
    # GUIDED_MCTS measured with benchmarks/play_bot_times.py on 2 shared cores (FAST_MCTS in the same
    # run: 26.1 / 169.7 ms in 2-player games, 41.0 / 244.1 ms in 4-player ones): about twice
    # FAST_MCTS, and over the 200 ms budget on its heaviest 4-player moves.
    GUIDED_MCTS: "the arena's mcts with the shipped trained policy choosing its 3 candidates and its "
                 "other moves: at or above mcts on every solo scenario "
                 "(49-75 ms a move on average, at most 324 ms)",
}


class WebError(Exception):
    """An error answer: HTTP status and a one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def default_state_dir() -> Path:
    """``$ELECTRIFY_GAMES_DIR``, else ``$XDG_DATA_HOME/electrify_env/games`` (by default
    ``~/.local/share/electrify_env/games``)."""
    env = os.environ.get("ELECTRIFY_GAMES_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "electrify_env" / "games"


@dataclass
class GameRecord:
    """One kept game: its session, the tokens of its human seats, a lock and when it was used."""

    id: str
    session: TableSession
    tokens: dict[int, str]
    touched: float = field(default_factory=time.time)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The file written to the games folder."""
        return {"format": WEB_FORMAT, "version": WEB_VERSION, "id": self.id, "touched": self.touched,
                "tokens": {str(k): v for k, v in self.tokens.items()}, "session": self.session.to_dict()}

    def summary(self) -> dict[str, Any]:
        """Public facts for the game list (no tokens)."""
        s = self.session
        g = s.game
        return {"id": self.id, "game": s.game_name, "seats": s.seats, "round": g.round, "over": s.is_over,
                **_setup_of(s), "seed": g.seed if s.is_over else None, "decisions": len(g.history)}


def _setup_of(session: TableSession) -> dict[str, Any]:
    """The game's own set-up options of a session, JSON-ready (Electrify: scenario, tech packs)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in session.table.setup_options(session.game).items()}


def _check_id(text: str) -> bool:
    return isinstance(text, str) and 0 < len(text) <= 64 and all(c.isalnum() or c in "-_" for c in text)


class GameStore:
    """The games kept by the server, by id, each in ``folder/<id>.json`` (None: memory only)."""

    def __init__(self, folder: str | Path | None, max_games: int = DEFAULT_MAX_GAMES) -> None:
        if isinstance(max_games, bool) or not isinstance(max_games, int) or max_games < 1:
            raise ValueError(f"max_games must be a positive integer, got {max_games!r}")
        self.folder = None if folder is None else Path(folder)
        self.max_games = max_games
        self.games: dict[str, GameRecord] = {}
        self.replays: dict[str, dict] = {}
        self.lock = threading.Lock()
        self.skipped: list[str] = []
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._load_all()

    def _load_all(self) -> None:
        for path in sorted(self.folder.glob("*.json")):
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                if data.get("format") != WEB_FORMAT or not _check_id(data.get("id")):
                    raise ValueError("not a game file of this server")
                tokens = {int(k): str(v) for k, v in data["tokens"].items()}
                session = TableSession.from_dict(data["session"])
                rec = GameRecord(data["id"], session, tokens, float(data.get("touched", time.time())))
                self.games[rec.id] = rec
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
                self.skipped.append(f"{path.name}: {err}")
                print(f"electrify serve: skipped {path}: {err}", file=sys.stderr)

    def persist(self, rec: GameRecord) -> None:
        """Write the game's file (a temp file, then a rename)."""
        rec.touched = time.time()
        if self.folder is None:
            return
        path = self.folder / f"{rec.id}.json"
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(rec.to_dict()))
        tmp.replace(path)

    def add(self, session: TableSession) -> GameRecord:
        """Keep a new game (making room, or WebError 429 when every kept game is running)."""
        with self.lock:
            if len(self.games) >= self.max_games:
                done = sorted((r for r in self.games.values() if r.session.is_over), key=lambda r: r.touched)
                if not done:
                    raise WebError(429, f"too many games running (at most {self.max_games}); "
                                        "finish one or restart the server with --max-games")
                self.drop(done[0].id)
            gid = secrets.token_urlsafe(9)
            tokens = {s: secrets.token_urlsafe(18) for s in session.human_seats}
            rec = GameRecord(gid, session, tokens)
            self.games[gid] = rec
        self.persist(rec)
        return rec

    def drop(self, gid: str) -> None:
        """Forget a game and delete its file."""
        self.games.pop(gid, None)
        if self.folder is not None:
            (self.folder / f"{gid}.json").unlink(missing_ok=True)

    def get(self, gid: str) -> GameRecord:
        """The game ``gid`` or WebError 404."""
        rec = self.games.get(gid) if _check_id(gid) else None
        if rec is None:
            raise WebError(404, f"no game with id {gid!r:.70}")
        return rec


# ---- request helpers -----------------------------------------------------------------------------
def _seat_of(rec: GameRecord, token: str | None) -> int:
    """The seat a token belongs to; no token: the spectator; a wrong token: WebError 403."""
    if token is None or token == "":
        return SPECTATOR
    if not isinstance(token, str):
        raise WebError(400, "token must be a string")
    for seat, tok in rec.tokens.items():
        if secrets.compare_digest(tok.encode(), token.encode("utf-8", "replace")):
            return seat
    raise WebError(403, "token: not a seat token of this game")


def _state(rec: GameRecord, seat: int) -> dict[str, Any]:
    view = rec.session.view(seat)
    view["log_total"] = len(view["log"])
    view["log"] = view["log"][-LOG_TAIL:]
    _trim_turns(view)
    return {"id": rec.id, "game": rec.session.game_name, "seat": seat, "view": view, "svg": _svg(view)}


def _svg(view: dict[str, Any]) -> str | None:
    """Electrify's board as SVG (None for a game the page draws from its view)."""
    return to_svg(build_scene(view)) if view["game"] == "electrify" else None


def _trim_turns(view: dict[str, Any]) -> None:
    """Keep the decisions under the turn lines of the last ``TURN_STEP_ROUNDS`` rounds only (an
    older line says how many it has, ``n_steps``; ``GET /api/games/{id}/turns`` gives them)."""
    last = view["turns"][-1]["round"] if view["turns"] else 0
    for t in view["turns"]:
        t["n_steps"] = len(t["steps"])
        if t["round"] <= last - TURN_STEP_ROUNDS:
            t["steps"] = None


def _int_field(body: dict, name: str, lo: int | None = None, hi: int | None = None, default=None) -> int:
    v = body.get(name, default)
    if isinstance(v, bool) or not isinstance(v, int):
        raise WebError(400, f"{name} must be an integer, got {v!r:.60}")
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise WebError(400, f"{name} must be {lo}..{hi}, got {v}")
    return v


def bot_choices() -> list[dict[str, Any]]:
    """The bots the page offers: every registered agent that needs no file (``ppo`` and ``net``
    take a ``path`` and so come only from the command line, ``electrify play --opponents``)
    and :data:`FAST_MCTS` beside ``mcts``, and :data:`GUIDED_MCTS` where a policy is shipped.
    Each entry is ``{spec, doc, players, tech_packs}``: the player counts it can play (1 = solo;
    ``trained*`` and :data:`GUIDED_MCTS` only where a shipped policy fits,
    :func:`~electrify_env.play.session.shipped_policy_for`) and whether it plays with tech packs
    (a policy is trained on the base card set).  The registry is read again on every call, so a
    policy shipped while the server runs appears without a restart."""
    from electrify_env.agents import AGENTS
    from electrify_env.agents.registry import _register_shipped
    from electrify_env.agents.trained import TrainedAgent
    _register_shipped()     # register trained_* for policies that appeared since the import
    out = []
    for name, kind in list(AGENTS.items()):
        if "path" in kind.params:
            continue
        if name == "mcts":
            out.append({"spec": FAST_MCTS, "doc": BOT_DOCS[FAST_MCTS], "players": [1, 2, 3, 4],
                        "tech_packs": True})
            guided = [n for n in (1, 2, 3, 4) if shipped_policy_for(n) is not None]
            if guided:      # its guide is the shipped policy: base card set only, as trained*
                out.append({"spec": GUIDED_MCTS, "doc": BOT_DOCS[GUIDED_MCTS], "players": guided,
                            "tech_packs": False})
        cls = kind.load()
        if isinstance(cls, type) and issubclass(cls, TrainedAgent):
            counts = [cls.players] if cls.players is not None else [1, 2, 3, 4]
            players = [n for n in counts if shipped_policy_for(n) is not None]
            if players:
                out.append({"spec": name, "doc": kind.doc, "players": players, "tech_packs": False})
            continue
        out.append({"spec": name, "doc": BOT_DOCS.get(name, kind.doc), "players": [1, 2, 3, 4],
                    "tech_packs": True})
    return out


def play_games() -> list[str]:
    """The games the server plays: every registered game whose GameDef names a ``play`` module."""
    return [n for n in game_names() if game_def(n).play]


def game_bot_choices(game: str) -> list[dict[str, Any]]:
    """The bots the page offers for ``game``: Electrify's :func:`bot_choices`; for another game
    every agent of its registry (``electrify_env.agents.agents_of``) that needs no file from a
    client, each ``{spec, doc, players, tech_packs}``.  An agent that plays from a shipped
    policy file (``policy``) is offered for the player counts whose file exists; the play
    module's ``AGENT_PLAYERS`` limits an agent to some player counts."""
    gdef = game_def(game)
    if gdef.name == "electrify":
        return bot_choices()
    from electrify_env.agents.registry import agents_of
    from electrify_env.agents.network.agent import shipped_path
    limits = getattr(gdef.table(), "AGENT_PLAYERS", {})
    counts = list(range(gdef.min_players, gdef.max_players + 1))
    out = []
    for name, kind in agents_of(gdef.name).items():
        players = [n for n in counts if n in limits.get(name, counts)]
        if "path" in kind.params:       # its default: the shipped file of the player count
            players = [n for n in players if shipped_path(gdef.name, n).exists()]
        if players:
            out.append({"spec": name, "doc": kind.doc, "players": players, "tech_packs": False})
    return out


def _game_meta(game: str, bots: list[dict[str, Any]]) -> dict[str, Any]:
    gdef = game_def(game)
    table = gdef.table()
    counts = range(gdef.min_players, gdef.max_players + 1)
    return {"name": gdef.name, "title": gdef.title, "min_players": gdef.min_players,
            "max_players": gdef.max_players, "options": list(GAME_OPTIONS.get(gdef.name, ())), "agents": bots,
            "default_opponent": {str(n): table.default_opponent(n) for n in counts}}


#: the set-up options of ``POST /api/games`` beyond ``game``, ``seats`` and ``seed``, per game
GAME_OPTIONS = {"electrify": ("scenario", "tech_packs")}


def _meta() -> dict[str, Any]:
    from ..game import tech_pack_names
    from ..scenarios import list_scenarios, load_scenario
    scen = []
    for sid in list_scenarios():
        s = load_scenario(sid)
        scen.append({"id": s.id, "name": s.name, "gears": s.gears, "target": s.target})
    from .levels import load_levels
    levels = load_levels()
    bots = bot_choices()
    playable = {n: {b["spec"] for b in bots if n in b["players"]} for n in (1, 2, 3, 4)}
    games = [_game_meta(n, bots if n == "electrify" else game_bot_choices(n)) for n in play_games()]
    return {"games": games, "agents": bots, "default_opponent": {str(n): default_opponent(n) for n in (1, 2, 3, 4)},
            "levels": {str(n): levels.for_players(n, playable[n]) for n in (1, 2, 3, 4)},
            "scenarios": scen, "tech_packs": tech_pack_names(), "max_players": 4}


def _check_client_spec(spec: Any, where: str, offered: set[str] | None, game: str = "electrify") -> str:
    """An agent spec of ``game`` sent by a client: registered, and loading no file (``path``,
    ``weights``, a ``guide`` that is not a registered agent: paths from the network are never
    opened; an Electrify kind that takes a ``path`` at all); on a public server (``offered``
    given) one of the specs the page offers.  WebError 400 naming ``where`` otherwise."""
    from electrify_env.agents import AGENTS, parse_spec
    if not isinstance(spec, str):
        raise WebError(400, f"{where} must be 'human' or an agent spec, got {spec!r:.60}")
    try:
        parsed = parse_spec(spec, game)
    except ValueError as err:
        raise WebError(400, f"{where}: {err}") from None
    files = sorted(set(parsed.params) & set(FILE_PARAMS))
    guide = parsed.params.get("guide")
    if guide is not None and str(guide) not in AGENTS:    # mcts:guide=FILE.pt (a shipped agent's name is fine)
        files.append("guide")
    if files or (parsed.game == "electrify" and "path" in AGENTS[parsed.name].params):
        raise WebError(400, f"{where}: {parsed.name!r} loads a file ({', '.join(files) or 'path'}); files "
                            "cannot be chosen over the network (offer a policy as a shipped "
                            "policy, or play it with electrify play --opponents)")
    if offered is not None and parsed.text not in offered:
        raise WebError(400, f"{where}: this server offers only {', '.join(sorted(offered))}; "
                            f"got {parsed.text!r:.60}")
    return parsed.text


# ---- the app -------------------------------------------------------------------------------------
def build_app(state_dir: str | Path | None = None, max_games: int = DEFAULT_MAX_GAMES, public: bool = False):
    """The Starlette app, keeping its games in ``state_dir`` (None: in memory only).

    Agent specs from clients (seats, hints, imported saves) never load a file (``path``,
    ``weights``); with ``public`` (served beyond this machine, ``--host``) they must also be
    one of the bots the page offers (:func:`bot_choices`), so nobody can ask for a search that
    holds the server for minutes."""
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, RedirectResponse
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    store = GameStore(state_dir, max_games)
    games = play_games()

    def handler(fn):
        async def endpoint(request: Request):
            try:
                body: dict = {}
                if request.method == "POST":
                    raw = await request.body()
                    if len(raw) > MAX_BODY:
                        raise WebError(413, f"request body over {MAX_BODY} bytes")
                    if raw:
                        try:
                            body = json.loads(raw)
                        except (ValueError, RecursionError):
                            raise WebError(400, "the request body is not JSON") from None
                    if not isinstance(body, dict):
                        raise WebError(400, "the request body must be a JSON object")
                token = body.get("token", request.query_params.get("token", request.headers.get("x-token")))
                from starlette.concurrency import run_in_threadpool
                out = await run_in_threadpool(fn, request, body, token)
                return JSONResponse(out)
            except WebError as err:
                return JSONResponse({"error": err.message}, status_code=err.status)
            except IllegalActionError as err:
                return JSONResponse({"error": str(err)}, status_code=409)
            except ValueError as err:      # PlayError, InvalidArgumentError, AgentError, InvalidSaveError
                return JSONResponse({"error": str(err).splitlines()[0] if str(err) else type(err).__name__},
                                    status_code=400)
        return endpoint

    def meta(request, body, token):
        return _meta()

    def list_games(request, body, token):
        return {"games": [r.summary() for r in sorted(store.games.values(), key=lambda r: -r.touched)],
                "max_games": store.max_games}

    def offered(game: str = "electrify") -> set[str] | None:
        return {a["spec"] for a in game_bot_choices(game)} if public else None

    def check_seats(seats: list, game: str = "electrify") -> list[str]:
        allowed = offered(game)
        return [HUMAN if s == HUMAN else _check_client_spec(s, f"seats[{i}]", allowed, game)
                for i, s in enumerate(seats)]

    def game_of(body: dict) -> str:
        name = body.get("game", "electrify")
        if not isinstance(name, str) or name not in games:
            raise WebError(400, f"game must be one of {', '.join(games)}, got {name!r:.40}")
        extra = sorted(set(body) - {"game", "seats", "seed", "token", *GAME_OPTIONS.get(name, ())})
        if extra:
            raise WebError(400, f"{extra[0]}: not an option of {game_def(name).title} (options: "
                                f"{', '.join(('seats', 'seed') + GAME_OPTIONS.get(name, ()))})")
        return name

    def new_game(request, body, token):
        name = game_of(body)
        gdef = game_def(name)
        lo, hi = gdef.min_players, gdef.max_players
        seats = body.get("seats", [HUMAN, gdef.table().default_opponent(2)])
        if not isinstance(seats, list) or not lo <= len(seats) <= hi:
            raise WebError(400, f"seats must be a list of {lo} to {hi} entries ('human' or an agent spec)")
        if body.get("seed") is None:
            seed = fresh_seed()             # unpredictable: nobody can rebuild the deal from it
        else:
            seed = _int_field(body, "seed", 0, MAX_SEED)
            if public and sum(s == HUMAN for s in seats) > 1:
                raise WebError(400, "seed: a game for several people on a public server is dealt from a "
                                    "fresh secret seed (whoever chose the seed could read every hand)")
        if name != "electrify":
            session = TableSession(name, n_players=len(seats), seats=check_seats(seats, name), seed=seed)
            return answer(store.add(session))
        scenario = body.get("scenario") or None
        if scenario is not None:
            from ..scenarios import list_scenarios
            if scenario not in list_scenarios():   # ids only: no file paths from the network
                raise WebError(400, f"scenario must be one of {', '.join(list_scenarios())}, got {scenario!r:.60}")
        packs = body.get("tech_packs", [])
        from ..game import tech_pack_names
        if not isinstance(packs, list) or any(p not in tech_pack_names() for p in packs):
            raise WebError(400, f"tech_packs must be a list of {', '.join(tech_pack_names())}, got {packs!r:.60}")
        seats = check_seats(seats)
        session = TableSession("electrify", n_players=len(seats), seats=seats, seed=seed, scenario=scenario,
                               tech_packs=tuple(packs))
        return answer(store.add(session))

    def answer(rec: GameRecord) -> dict:
        """A new game's answer: its id, the seat tokens and the state of its first person's seat."""
        seat = min(rec.tokens) if rec.tokens else SPECTATOR
        return {"id": rec.id, "tokens": {str(k): v for k, v in rec.tokens.items()}, "state": _state(rec, seat)}

    def import_game(request, body, token):
        data = body.get("save")
        if not isinstance(data, dict):
            raise WebError(400, "save must be a saved session (a JSON object from TableSession.to_dict)")
        name = data.get("game_name", "electrify")
        if name not in games:
            raise WebError(400, f"save: game_name must be one of {', '.join(games)}, got {name!r:.40}")
        if isinstance(data.get("seats"), list):
            check_seats(data["seats"], name)
        session = TableSession.from_dict(data)
        if public and len(session.human_seats) > 1 and not session.is_over:
            raise WebError(400, "save: a running game for several people cannot be imported on a public "
                                "server (the save holds every hand and the seed)")
        return answer(store.add(session))

    def get_game(request, body, token):
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            return _state(rec, _seat_of(rec, token))

    def move(request, body, token):
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            seat = _seat_of(rec, token)
            if seat == SPECTATOR:
                raise WebError(403, "token: a move needs the token of the seat on turn")
            if "action" not in body:
                raise WebError(400, "action: missing (an action id from the options)")
            ev = rec.session.play(body["action"], seat=seat)
            store.persist(rec)
            return {"event": ev.to_dict(seat), "state": _state(rec, seat)}

    def bot(request, body, token):
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            seat = _seat_of(rec, token)
            if seat == SPECTATOR and rec.tokens:
                raise WebError(403, "token: bot moves of a game with people need a seat token")
            ev = rec.session.step_bot()
            store.persist(rec)
            return {"event": ev.to_dict(seat), "state": _state(rec, seat)}

    def undo(request, body, token):
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            seat = _seat_of(rec, token)
            if seat == SPECTATOR:
                raise WebError(403, "token: undo needs a seat token")
            n = rec.session.undo(seat)
            store.persist(rec)
            return {"undone": n, "state": _state(rec, seat)}

    def hint(request, body, token):
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            seat = _seat_of(rec, token)
            if seat == SPECTATOR or seat != rec.session.to_move:
                raise WebError(403, "token: a hint is for the seat on turn")
            game = rec.session.game_name
            spec = _check_client_spec(body.get("agent", "greedy"), "agent", offered(game), game)
            return {"hint": rec.session.hint(spec).to_dict(), "agent": spec}

    def export(request, body, token):
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            _seat_of(rec, token)
            if not rec.session.is_over:
                raise WebError(409, "export: the save holds every hand and the deck order, so it is "
                                    "given out once the game is over; resume a running game by its link")
            return rec.session.to_dict()

    def turns(request, body, token):
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            return {"turns": rec.session.turns(_seat_of(rec, token))}

    def replay_game(request, body, token):
        from electrify_env.agents.arena import REPLAY_FORMAT, REPLAY_VERSION
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            _seat_of(rec, token)
            if not rec.session.is_over:
                raise WebError(409, "replay: a game is replayed once it is over (the replay shows "
                                    "every decision from the seed)")
            s = rec.session
            g = s.game
            record = {"format": REPLAY_FORMAT, "version": REPLAY_VERSION, "index": 0, "game": s.game_name,
                      "seed": g.seed, "n_players": g.n_players, "lineup": s.seats, "actions": list(g.history),
                      "scores": [int(x) for x in g.scores()], **_setup_of(s)}
        return add_replay(record)

    def again(request, body, token):
        rec = store.get(request.path_params["gid"])
        with rec.lock:
            seat = _seat_of(rec, token)
            if seat == SPECTATOR and rec.tokens:
                raise WebError(403, "token: a new game like one with people needs a seat token")
            if not rec.session.is_over:
                raise WebError(409, "again: the game is still running")
            s = rec.session
            seats, options = s.seats, s.table.setup_options(s.game)
        session = TableSession(s.game_name, n_players=len(seats), seats=seats, seed=fresh_seed(), **options)
        return answer(store.add(session))

    def add_replay(rec: dict) -> dict:
        session = _replay_session(rec, len(rec["actions"]))
        rounds = _round_starts(rec)
        with store.lock:
            if len(store.replays) >= MAX_REPLAYS:
                store.replays.pop(next(iter(store.replays)))
            rid = secrets.token_urlsafe(9)
            store.replays[rid] = rec
        return {"id": rid, "steps": len(rec["actions"]), "rounds": rounds, "lineup": rec["lineup"],
                "scores": rec["scores"], "final_scores": [int(x) for x in session.game.scores()]}

    def new_replay(request, body, token):
        from electrify_env.agents.replay import ReplayError, check_record
        from electrify_env.agents.arena import REPLAY_FORMAT
        text = body.get("text")
        if not isinstance(text, str):
            raise WebError(400, "text must be the contents of an arena games.jsonl (or a JSON replay)")
        records = []
        for no, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except ValueError:
                    if no == 1:
                        try:
                            data = json.loads(text)
                        except ValueError:
                            raise WebError(400, f"text: line {no} is not JSON") from None
                        records = data if isinstance(data, list) else [data]
                        break
                    raise WebError(400, f"text: line {no} is not JSON") from None
        records = [r for r in records if isinstance(r, dict) and r.get("format") == REPLAY_FORMAT]
        if not records:
            raise WebError(400, f"text: no arena game records (format {REPLAY_FORMAT!r})")
        want = body.get("game")
        rec = records[0] if want is None else next((r for r in records if r.get("index") == want), None)
        if rec is None:
            raise WebError(404, f"game: no record with index {want!r:.30}; indexes: "
                                f"{[r.get('index') for r in records][:50]}")
        if rec.get("game", "electrify") != "electrify":
            raise WebError(400, "game: a file replays Electrify arena records only; a finished game of "
                                "this server replays from its own page")
        try:
            check_record(rec, "replay")
        except ReplayError as err:
            raise WebError(400, str(err)) from None
        if rec.get("scenario") and rec["scenario"] not in __import__(
                "electrify_env.scenarios", fromlist=["list_scenarios"]).list_scenarios():
            raise WebError(400, "scenario: only shipped scenarios can be replayed here")
        return add_replay(rec)

    def get_replay(request, body, token):
        rid = request.path_params["rid"]
        rec = store.replays.get(rid) if _check_id(rid) else None
        if rec is None:
            raise WebError(404, f"no replay with id {rid!r:.70}")
        try:
            step = int(request.query_params.get("step", "0"))
        except ValueError:
            raise WebError(400, "step must be an integer") from None
        if not 0 <= step <= len(rec["actions"]):
            raise WebError(400, f"step must be 0..{len(rec['actions'])}, got {step}")
        session = _replay_session(rec, step)
        view = session.view(SPECTATOR)
        return {"id": rid, "game": session.game_name, "step": step, "steps": len(rec["actions"]), "view": view,
                "svg": _svg(view)}

    async def index(request):
        return FileResponse(STATIC / "index.html")

    async def table_page(request):
        name = request.query_params.get("game", "gizmos")
        if name not in games:
            return JSONResponse({"error": f"game must be one of {', '.join(games)}, got {name!r:.40}"},
                                status_code=400)
        return RedirectResponse(f"/?game={name}", status_code=307)

    routes = [
        Route("/", index),
        Route("/table", table_page),
        Route("/api/meta", handler(meta)),
        Route("/api/games", handler(list_games), methods=["GET"]),
        Route("/api/games", handler(new_game), methods=["POST"]),
        Route("/api/games/import", handler(import_game), methods=["POST"]),
        Route("/api/games/{gid}", handler(get_game), methods=["GET"]),
        Route("/api/games/{gid}/move", handler(move), methods=["POST"]),
        Route("/api/games/{gid}/bot", handler(bot), methods=["POST"]),
        Route("/api/games/{gid}/undo", handler(undo), methods=["POST"]),
        Route("/api/games/{gid}/hint", handler(hint), methods=["POST"]),
        Route("/api/games/{gid}/export", handler(export), methods=["GET"]),
        Route("/api/games/{gid}/turns", handler(turns), methods=["GET"]),
        Route("/api/games/{gid}/replay", handler(replay_game), methods=["POST"]),
        Route("/api/games/{gid}/again", handler(again), methods=["POST"]),
        Route("/api/replays", handler(new_replay), methods=["POST"]),
        Route("/api/replays/{rid}", handler(get_replay), methods=["GET"]),
        Mount("/static", app=StaticFiles(directory=str(STATIC)), name="static"),
    ]
    app = Starlette(routes=routes)
    app.state.store = store
    return app


def _replay_session(rec: dict, step: int) -> TableSession:
    """A bot-only session of an arena record (of the game it names, Electrify by default) after
    its first ``step`` decisions."""
    from ..savefile import InvalidSaveError
    try:
        return TableSession.from_record(rec, step)
    except IllegalActionError as err:
        raise WebError(400, str(err)) from None
    except (PlayError, InvalidSaveError) as err:
        raise WebError(400, str(err)) from None


def _round_starts(rec: dict) -> dict[str, int]:
    """The first decision of each round of an arena record (for "jump to a round")."""
    session = _replay_session(rec, 0)
    out = {"0": 0}
    for a in rec["actions"]:
        session.replay_action(a)
        out.setdefault(str(session.game.round), len(session.game.history))
    return out


def serve(host: str = "127.0.0.1", port: int = 8000, state_dir: str | Path | None = None,
          max_games: int = DEFAULT_MAX_GAMES) -> None:
    """Run the web app with uvicorn until interrupted, printing its URL first."""
    import uvicorn
    folder = Path(state_dir) if state_dir is not None else default_state_dir()
    public = host not in LOCAL_HOSTS
    app = build_app(folder, max_games, public=public)
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    print(f"Electrify is served at http://{shown}:{port}/  (games kept in {folder}; Ctrl-C stops)", flush=True)
    if public:
        print("Served beyond this machine: every human seat has its own token link; share only "
              "the link of the seat you give away. Bots: only those the page offers.", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``electrify serve`` options (for the CLI's subcommand)."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--state-dir", default=None,
                        help="folder of the kept games (default $XDG_DATA_HOME/electrify_env/games)")
    parser.add_argument("--max-games", type=int, default=DEFAULT_MAX_GAMES,
                        help=f"games kept at once (default {DEFAULT_MAX_GAMES})")


def main(argv: list[str] | None = None) -> int:
    """``python -m electrify_env.play.web [--host H] [--port P] [--state-dir D] [--max-games N]``."""
    parser = argparse.ArgumentParser(prog="electrify serve", description="play Electrify in the browser")
    add_arguments(parser)
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"argument --port: must be 1..65535, got {args.port}")
    if args.max_games < 1:
        parser.error(f"argument --max-games: must be at least 1, got {args.max_games}")
    serve(args.host, args.port, args.state_dir, args.max_games)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
