"""The web app's JSON API (electrify_env/play/web.py) for Electrify and Gizmos: games, moves,
tokens, hidden information, persistence across a restart, bad requests, replays."""
from __future__ import annotations

import json
import re

import numpy as np
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from electrify_env.engine import layout as L  # noqa: E402
from electrify_env.play.web import build_app  # noqa: E402


@pytest.fixture
def app(tmp_path):
    return build_app(tmp_path / "games", max_games=4)


@pytest.fixture
def client(app):
    return TestClient(app)


def _new(client, seats=("human", "greedy"), seed=0, **kw):
    r = client.post("/api/games", json={"seats": list(seats), "seed": seed, **kw})
    assert r.status_code == 200, r.text
    return r.json()


def _forbidden(app, gid: str, seat: int) -> list[str]:
    """Names of the cards that ``seat`` must not see now: other hands and the decks."""
    g = app.state.store.games[gid].session.game
    S, names = g.state, g.cards.face_names
    out = []
    for q in range(g.n_players):
        if q == seat:
            continue
        pb = L.S_PLAYERS + q * L.P_SIZE
        out += [names[int(S[pb + L.P_HAND + h])] for h in range(int(S[pb + L.P_HAND_N]))]
    for d in range(L.N_DECKS):
        out += [names[int(S[L.S_DECK + d * L.MAX_DECK + i])] for i in range(int(S[L.S_DECK_N + d]))]
    return out


def _secret_numbers(g) -> list[str]:
    """What determines the hidden cards of a running game, as it would appear in JSON text: the
    seed and the generator's state words (those of 7 digits or more: a shorter one could match
    an unrelated number)."""
    if g.is_terminal:
        return []
    words = [str(int(w)) for w in g.state[L.S_RNG:L.S_RNG + 4]]
    return [str(g.seed)] + [w for w in words if len(w) >= 7]


def _check_secrets_absent(g, answer, where: str) -> None:
    """Neither the seed nor the generator state of the running game ``g`` anywhere in ``answer``."""
    text = json.dumps(answer)
    for secret in _secret_numbers(g):
        assert secret not in text, f"{where}: the seed or generator state {secret} of a running game"
    for key in ("seed", "rng", "deck_order"):
        for found in _values_of(answer, key):
            assert g.is_terminal or found in (None, [], {}), f"{where}: {key!r} = {found!r:.60}"


def _values_of(data, key: str) -> list:
    """Every value stored under ``key`` at any depth of a JSON document."""
    out = []
    if isinstance(data, dict):
        for k, v in data.items():
            if k == key:
                out.append(v)
            out += _values_of(v, key)
    elif isinstance(data, list):
        for v in data:
            out += _values_of(v, key)
    return out


def _check_no_hidden(app, gid: str, seat: int, answer: dict) -> None:
    """No hidden information in an answer to ``seat`` (-1: a spectator): no other hand, no deck
    card, no unrevealed Plan pick, no seed or generator state while the game runs."""
    session = app.state.store.games[gid].session
    g = session.game
    _check_secrets_absent(g, answer, f"answer to seat {seat}")
    data = json.loads(json.dumps(answer))
    state = data.get("state", data)
    view = state["view"]
    log = view.pop("log")
    text = json.dumps(data if "state" not in data else {**data, "state": {**state, "view": view}})
    for name in _forbidden(app, gid, seat):
        assert name not in text, f"hidden card {name!r} in an answer to seat {seat}"
    for q, p in enumerate(view["players"]):
        if q != seat:
            assert p["hand"] is None and p["plan"] is None
        pb = L.S_PLAYERS + q * L.P_SIZE
        if g.state[pb + L.P_CHOSEN] < 0:
            assert p["chosen"] is None
    expect = [e.to_dict(seat) for e in session.log][-len(log):] if log else []
    assert log == expect
    if seat != session.to_move:
        assert view["options"] == []
    _check_turns(session, seat, view["turns"])
    assert (view["end"] is None) == (not g.is_terminal)


def _check_turns(session, seat: int, turns: list) -> None:
    """The log in players' words as ``seat`` may see it: the session's own lines (a line of an
    older round without its decisions), and no other seat's Plan pick before its reveal, in a
    line or in a decision under it."""
    want = session.turns(seat)
    assert [(t["round"], t["player"], t["text"]) for t in turns] == [(t["round"], t["player"], t["text"]) for t in want]
    for got, full in zip(turns, want):
        assert got["steps"] is None or got["steps"] == full["steps"]
    g = session.game
    for t in turns:
        if t["player"] == seat:
            continue
        for st in t["steps"] or []:
            if st["kind"] == "plan":
                assert st["text"] == "chose a sector in secret", st
        pb = L.S_PLAYERS + t["player"] * L.P_SIZE
        if not g.is_terminal and t["round"] == g.round + 1 and g.state[pb + L.P_PLAN] >= 0:
            assert t["text"].endswith("chose a sector in secret"), t["text"]     # not yet revealed


def test_page_static_and_meta(client):
    assert "Electrify" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200
    meta = client.get("/api/meta").json()
    specs = [a["spec"] for a in meta["agents"]]
    assert "greedy" in specs and "random" in specs and any(s.startswith("mcts") for s in specs)
    assert "first_light" in [s["id"] for s in meta["scenarios"]] and "grid" in meta["tech_packs"]


BIG_SEED = 3_141_592_653_589_793_238       # < 2**62: digits that appear nowhere by chance


def test_play_a_game_with_no_hidden_information_in_any_answer(app, client, monkeypatch):
    import electrify_env.play.web as web
    monkeypatch.setattr(web, "fresh_seed", lambda: BIG_SEED)    # a seedless game, reproducibly
    r = client.post("/api/games", json={"seats": ["human", "greedy"]})
    assert r.status_code == 200, r.text
    new = r.json()
    gid, tok = new["id"], new["tokens"]["0"]
    assert app.state.store.games[gid].session.game.seed == BIG_SEED
    assert set(new["tokens"]) == {"0"} and len(tok) >= 20 and len(gid) >= 10
    _check_no_hidden(app, gid, 0, new["state"])
    st = new["state"]
    rng = np.random.default_rng(0)
    answers = 0
    while not st["view"]["is_over"]:
        v = st["view"]
        if v["human_to_move"]:
            opts = v["options"]
            o = opts[rng.integers(len(opts))] if rng.random() < 0.4 else opts[0]
            r = client.post(f"/api/games/{gid}/move", json={"token": tok, "action": o["action"]})
        else:
            r = client.post(f"/api/games/{gid}/bot", json={"token": tok})
        assert r.status_code == 200, r.text
        _check_no_hidden(app, gid, 0, r.json())
        st = r.json()["state"]
        answers += 1
        if answers % 25 == 0:    # the spectator's and the seat's GET answers, the list, a hint
            spec = client.get(f"/api/games/{gid}").json()
            assert spec["seat"] == -1
            _check_no_hidden(app, gid, -1, spec)
            _check_no_hidden(app, gid, 0, client.get(f"/api/games/{gid}?token={tok}").json())
            g = app.state.store.games[gid].session.game
            _check_secrets_absent(g, client.get("/api/games").json(), "the game list")
            _check_secrets_absent(g, client.get("/api/meta").json(), "meta")
            if st["view"]["human_to_move"]:
                hint = client.post(f"/api/games/{gid}/hint", json={"token": tok, "agent": "greedy"})
                assert hint.status_code == 200
                _check_secrets_absent(g, hint.json(), "a hint")
            assert client.get(f"/api/games/{gid}/export?token={tok}").status_code == 409
            assert client.post(f"/api/games/{gid}/replay", json={"token": tok}).status_code == 409
            assert client.post(f"/api/games/{gid}/again", json={"token": tok}).status_code == 409
            for who, q in ((tok, 0), (None, -1)):
                full = client.get(f"/api/games/{gid}/turns" + (f"?token={who}" if who else "")).json()
                _check_secrets_absent(g, full, "the whole log")
                for name in _forbidden(app, gid, q):
                    assert name not in json.dumps(full), f"hidden card {name!r} in the log to seat {q}"
                _check_turns(app.state.store.games[gid].session, q, full["turns"])
    g = app.state.store.games[gid].session.game
    assert st["view"]["seed"] == BIG_SEED       # shown once the game is over, for replays
    assert st["view"]["result"]["scores"] == [int(x) for x in g.scores()]
    assert "<svg" in st["svg"] and 'data-place="' in st["svg"]
    save = client.get(f"/api/games/{gid}/export?token={tok}")
    assert save.status_code == 200 and save.json()["game"]["actions"] == g.history
    # the end screen's data: the engine's scores and points, the seed now that the game is over
    session = app.state.store.games[gid].session
    end = st["view"]["end"]
    assert end == json.loads(json.dumps(session.end_summary(0)))
    assert end["scores"] == [int(x) for x in g.scores()] and end["winners"] == g.winners()
    assert end["points_by_source"]["players"] == g.points_by_source()
    assert end["score_by_round"][-1] == end["scores"] and end["seed"] == BIG_SEED
    full = client.get(f"/api/games/{gid}/turns?token={tok}").json()["turns"]
    assert full == json.loads(json.dumps(session.turns(0))) and all(t["steps"] for t in full)
    assert sum(t["steps"] is None for t in st["view"]["turns"]) > 0          # older rounds folded away
    rp = client.post(f"/api/games/{gid}/replay", json={"token": tok})
    assert rp.status_code == 200, rp.text
    assert rp.json()["steps"] == len(g.history) and rp.json()["final_scores"] == end["scores"]
    last = client.get(f"/api/replays/{rp.json()['id']}?step={len(g.history)}").json()
    assert last["view"]["end"]["scores"] == end["scores"]
    assert last["view"]["seats"][0]["agent"] == "person"
    again = client.post(f"/api/games/{gid}/again", json={"token": tok})
    assert again.status_code == 200, again.text
    fresh = again.json()
    assert fresh["id"] != gid and set(fresh["tokens"]) == {"0"}
    assert fresh["state"]["view"]["seed"] is None and fresh["state"]["view"]["decisions"] == 0
    assert app.state.store.games[fresh["id"]].session.seats == session.seats
    games = client.get("/api/games").json()["games"]
    assert [x["id"] for x in games] == [fresh["id"], gid] and games[1]["over"] and "tokens" not in json.dumps(games)


def test_games_without_a_seed_are_dealt_afresh(client):
    hands = []
    for _ in range(2):
        r = client.post("/api/games", json={"seats": ["human", "greedy"]})
        assert r.status_code == 200, r.text
        view = r.json()["state"]["view"]
        assert view["seed"] is None
        hands.append([c["name"] for c in view["players"][0]["hand"]])
    assert hands[0] != hands[1]


def _deal_of(seed: int, seat: int = 0) -> list[str]:
    from electrify_env.game import Game
    from electrify_env.render.view import seat_view_dict
    return [c["name"] for c in seat_view_dict(Game(n_players=2, seed=seed), seat)["players"][seat]["hand"]]


def _play_collecting(client, gid: str, tok: str, st: dict, moves: int, received: list,
                     stop_at_end: bool = True) -> dict:
    """Up to ``moves`` decisions of game ``gid`` (the token's seat asks a hint, then plays its
    first option; the bots move otherwise), every reply appended to ``received``; the last state."""
    for _ in range(moves):
        if stop_at_end and st["view"]["is_over"]:
            break
        if st["view"]["human_to_move"]:
            received.append(client.post(f"/api/games/{gid}/hint", json={"token": tok}).json())
            r = client.post(f"/api/games/{gid}/move", json={"token": tok, "action": st["view"]["options"][0]["action"]})
        else:
            r = client.post(f"/api/games/{gid}/bot", json={"token": tok})
        received.append(r.json())
        st = r.json()["state"]
    return st


def test_a_seat_cannot_rebuild_the_deal_from_what_it_receives(app, client):
    """The attack: gather every answer one seat gets (its game, moves, bot moves, spectating,
    the game list, meta, hints, the whole log, refused exports, replays and rematches), try every number in them and the small seeds
    as the game seed, and read the opponent's hand from the deal that matches the seat's own."""
    r = client.post("/api/games", json={"seats": ["human", "greedy"]})
    new = r.json()
    gid, tok = new["id"], new["tokens"]["0"]
    received = [new, client.get("/api/meta").json()]
    st = _play_collecting(client, gid, tok, new["state"], 60, received)
    received += [client.get(f"/api/games/{gid}").json(), client.get(f"/api/games/{gid}?token={tok}").json(),
                 client.get("/api/games").json(), client.get(f"/api/games/{gid}/export?token={tok}").json(),
                 client.get(f"/api/games/{gid}/turns?token={tok}").json(), client.get(f"/api/games/{gid}/turns").json(),
                 client.post(f"/api/games/{gid}/replay", json={"token": tok}).json(),
                 client.post(f"/api/games/{gid}/again", json={"token": tok}).json()]
    game = app.state.store.games[gid].session.game
    assert not game.is_terminal
    mine = [c["name"] for c in new["state"]["view"]["players"][0]["hand"]]
    assert _deal_of(game.seed) == mine          # the attack works when the seed is known
    from electrify_env.kernels.batch import MAX_SEED
    text = json.dumps(received)
    candidates = {int(x) for x in re.findall(r"\d+", text) if int(x) <= MAX_SEED} | set(range(2000))
    found = [c for c in sorted(candidates) if _deal_of(c) == mine]
    assert found == [], f"seat 0 rebuilt the deal from seed {found[0]}: the opponent's hand is {_deal_of(found[0], 1)}"


def test_a_public_server_deals_games_for_several_people_from_a_secret_seed(tmp_path):
    c = TestClient(build_app(tmp_path / "g", public=True))
    r = c.post("/api/games", json={"seats": ["human", "human"], "seed": 5})
    assert r.status_code == 400 and "seed" in r.json()["error"]
    assert c.post("/api/games", json={"seats": ["human", "human"]}).status_code == 200
    assert c.post("/api/games", json={"seats": ["human", "greedy"], "seed": 5}).status_code == 200
    from electrify_env.play.session import PlaySession
    running = PlaySession(seats=["human", "human"], seed=9)
    r = c.post("/api/games/import", json={"save": running.to_dict()})
    assert r.status_code == 400 and "public" in r.json()["error"]


def test_tokens_guard_seats(app, client):
    new = _new(client, seats=("human", "human"), seed=12)
    gid, t0, t1 = new["id"], new["tokens"]["0"], new["tokens"]["1"]
    act = new["state"]["view"]["options"][0]["action"]
    for body, code in [({"action": act}, 403), ({"token": "forged", "action": act}, 403),
                       ({"token": t1, "action": act}, 400)]:      # seat 1 is not on turn
        r = client.post(f"/api/games/{gid}/move", json=body)
        assert r.status_code == code and r.json()["error"]
    assert client.post(f"/api/games/{gid}/bot", json={}).status_code == 403
    assert client.get(f"/api/games/{gid}/export?token={t0}").status_code == 409
    v1 = client.get(f"/api/games/{gid}?token={t1}").json()
    assert v1["seat"] == 1 and v1["view"]["players"][0]["hand"] is None and v1["view"]["options"] == []
    assert client.get(f"/api/games/{gid}", headers={"X-Token": t1}).json()["seat"] == 1
    assert app.state.store.games[gid].session.log == []
    r = client.post(f"/api/games/{gid}/move", json={"token": t0, "action": act})
    assert r.status_code == 200 and r.json()["state"]["view"]["to_move"] == 1
    hint = client.post(f"/api/games/{gid}/hint", json={"token": t1, "agent": "greedy"})
    assert hint.status_code == 200 and hint.json()["hint"]["kind"] == "plan"
    assert client.post(f"/api/games/{gid}/hint", json={"token": t0}).status_code == 403
    undo = client.post(f"/api/games/{gid}/undo", json={"token": t0})
    assert undo.status_code == 200 and undo.json()["undone"] == 1


def test_bad_requests_change_nothing(app, client):
    new = _new(client)
    gid, tok = new["id"], new["tokens"]["0"]
    before = app.state.store.games[gid].session.game.state.copy()
    legal = {o["action"] for o in new["state"]["view"]["options"]}
    illegal = next(a for a in range(L.N_ACTIONS) if a not in legal)
    cases = [
        ("post", f"/api/games/{gid}/move", {"token": tok, "action": illegal}, 409),
        ("post", f"/api/games/{gid}/move", {"token": tok, "action": "x"}, 409),
        ("post", f"/api/games/{gid}/move", {"token": tok, "action": 10 ** 30}, 409),
        ("post", f"/api/games/{gid}/move", {"token": tok}, 400),
        ("post", f"/api/games/{gid}/move", {"token": 5, "action": 0}, 400),
        ("post", f"/api/games/{gid}/bot", {"token": tok}, 400),          # a person is on turn
        ("post", f"/api/games/{gid}/undo", {"token": tok}, 400),         # nothing to undo
        ("post", f"/api/games/{gid}/hint", {"token": tok, "agent": "nobody"}, 400),
        ("post", "/api/games/nope/move", {"token": tok, "action": 1}, 404),
        ("get", "/api/games/../../etc", None, 404),
        ("post", "/api/games", {"seats": ["human", "grumpy"]}, 400),
        ("post", "/api/games", {"seats": []}, 400),
        ("post", "/api/games", {"seats": ["human", "greedy"], "seed": -1}, 400),
        ("post", "/api/games", {"seats": ["human", "greedy"], "seed": "1"}, 400),
        ("post", "/api/games", {"seats": ["human"], "scenario": "/etc/passwd"}, 400),
        ("post", "/api/games", {"seats": ["human", "greedy"], "tech_packs": ["nope"]}, 400),
        ("post", "/api/games", {"seats": ["human", "ppo:path=/tmp/x.zip"]}, 400),
        ("post", "/api/games", {"seats": ["human", "mcts:guide=/tmp/x.pt"]}, 400),
        ("post", "/api/games/import", {"save": {"format": "x"}}, 400),
        ("post", "/api/replays", {"text": "{]"}, 400),
        ("get", "/api/replays/nope?step=1", None, 404),
    ]
    for method, path, body, code in cases:
        r = client.get(path) if method == "get" else client.post(path, json=body)
        assert r.status_code == code, (path, body, r.status_code, r.text)
        if r.headers.get("content-type", "").startswith("application/json"):
            assert r.json()["error"] and "\n" not in r.json()["error"]
    for raw in (b"{not json", b"[1, 2]", b"\xff\xfe"):
        r = client.post(f"/api/games/{gid}/move", content=raw, headers={"content-type": "application/json"})
        assert r.status_code == 400 and r.json()["error"]
    r = client.post(f"/api/games/{gid}/move", content=b" " * (4 * 1024 * 1024 + 1))
    assert r.status_code == 413
    assert np.array_equal(app.state.store.games[gid].session.game.state, before)
    assert len(app.state.store.games) == 1


def test_games_persist_across_a_restart_and_are_bounded(tmp_path):
    folder = tmp_path / "games"
    app = build_app(folder, max_games=2)
    c = TestClient(app)
    new = _new(c, seed=3)
    gid, tok = new["id"], new["tokens"]["0"]
    c.post(f"/api/games/{gid}/move", json={"token": tok, "action": new["state"]["view"]["options"][1]["action"]})
    view = c.get(f"/api/games/{gid}?token={tok}").json()["view"]
    spectate = _new(c, seats=("greedy", "random"), seed=4)
    assert spectate["tokens"] == {}
    r = c.post("/api/games", json={"seats": ["human", "greedy"]})
    assert r.status_code == 429 and "at most 2" in r.json()["error"]
    # a restart: a new app over the same folder resumes both games
    app2 = build_app(folder, max_games=2)
    c2 = TestClient(app2)
    assert c2.get(f"/api/games/{gid}?token={tok}").json()["view"] == view
    sid = spectate["id"]
    for _ in range(3):                          # a bot-only game needs no token
        assert c2.post(f"/api/games/{sid}/bot", json={}).status_code == 200
    while not app2.state.store.games[sid].session.is_over:
        app2.state.store.games[sid].session.run_bots()
    new3 = _new(c2, seed=5)                     # the finished game makes room
    assert sid not in app2.state.store.games and new3["id"] in app2.state.store.games
    assert not (folder / f"{sid}.json").exists()
    (folder / "junk.json").write_text("{")
    app3 = build_app(folder, max_games=2)
    assert set(app3.state.store.games) == {gid, new3["id"]}
    assert any("junk.json" in s for s in app3.state.store.skipped)


def test_import_a_saved_session(client):
    from electrify_env.play.session import PlaySession
    s = PlaySession(seats=["human", "random"], seed=13)
    s.play(s.options()[0].action)
    s.run_bots()
    r = client.post("/api/games/import", json={"save": s.to_dict()})
    assert r.status_code == 200, r.text
    st = r.json()["state"]
    assert st["view"]["decisions"] == len(s.game.history) and st["seat"] == 0


def test_replay_viewer_steps_through_an_arena_record(client):
    from electrify_env.agents.arena import REPLAY_FORMAT, REPLAY_VERSION
    from electrify_env.play.session import PlaySession
    s = PlaySession(seats=["greedy", "random"], seed=14)
    s.run_bots()
    rec = {"format": REPLAY_FORMAT, "version": REPLAY_VERSION, "index": 5, "seed": 14, "n_players": 2,
           "lineup": ["greedy", "random"], "actions": s.game.history,
           "scores": [int(x) for x in s.game.scores()]}
    other = dict(rec, index=4, actions=[])
    text = json.dumps(other) + "\n" + json.dumps(rec) + "\n"
    r = client.post("/api/replays", json={"text": text, "game": 5})
    assert r.status_code == 200, r.text
    info = r.json()
    assert info["steps"] == len(s.game.history) and info["final_scores"] == rec["scores"]
    assert info["rounds"]["12"] > info["rounds"]["1"] > 0
    end = client.get(f"/api/replays/{info['id']}?step={info['steps']}").json()
    assert end["view"]["is_over"] and end["view"]["result"]["scores"] == rec["scores"]
    assert all(p["hand"] is None for p in end["view"]["players"])
    mid = client.get(f"/api/replays/{info['id']}?step={info['rounds']['6']}").json()
    assert mid["view"]["round"] == 6
    assert mid["view"]["seed"] is None and end["view"]["seed"] == 14    # the seed once the game is over
    assert all(p["hand"] is None and p["plan"] is None for p in mid["view"]["players"])
    assert client.get(f"/api/replays/{info['id']}?step=-1").status_code == 400
    assert client.post("/api/replays", json={"text": text, "game": 9}).status_code == 404
    bad = dict(rec, actions=[0] * 3)
    assert client.post("/api/replays", json={"text": json.dumps(bad)}).status_code == 400


# ---- Gizmos at /api/games ------------------------------------------------------------------
def _gizmos_hidden(g, seat) -> list[str]:
    """Card ids ``seat`` (None: a spectator) must not see: the decks, another seat's research."""
    from electrify_env.gizmos.engine import gz_layout as GL
    S, ids = g.state, g.cards.ids
    out = [ids[int(S[GL.S_DECK + d * GL.MAX_DECK + i])] for d in range(GL.N_DECKS) for i in range(int(S[GL.S_DECK_N + d]))]
    if S[GL.S_PHASE] == GL.PH_RESEARCH and seat != g.current_player:
        out += [ids[int(S[GL.S_RES + i])] for i in range(int(S[GL.S_RES_N]))]
    return out


def _check_gizmos_answer(g, seat, answer, where: str) -> None:
    """No deck card, no other seat's researched card, no seed or generator word in ``answer``
    while the game ``g`` runs."""
    from electrify_env.gizmos.engine import gz_layout as GL
    text = json.dumps(answer)
    for card in _gizmos_hidden(g, seat):
        assert not re.search(rf"\b{re.escape(card)}\b", text), f"{where}: hidden card {card} to seat {seat}"
    if not g.is_terminal:
        for w in [str(g.seed)] + [str(int(x)) for x in g.state[GL.S_RNG:GL.S_RNG + 4] if abs(int(x)) >= 10 ** 6]:
            assert w not in text, f"{where}: seed or generator word {w} to seat {seat}"
        assert all(v is None for v in _values_of(answer, "seed")), where
    assert not re.search(r'"(rng|deck_order|known_under)"', text), where


def _gizmos_new(client, seats=("human", "greedy"), seed=BIG_SEED):
    r = client.post("/api/games", json={"game": "gizmos", "seats": list(seats), "seed": seed})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_gizmos_game_at_every_endpoint_shows_nothing_hidden(app, client):
    new = _gizmos_new(client)
    gid, tok = new["id"], new["tokens"]["0"]
    session = app.state.store.games[gid].session
    assert session.game_name == "gizmos" and new["state"]["game"] == "gizmos" and new["state"]["svg"] is None
    _check_gizmos_answer(session.game, 0, new, "new")
    rng = np.random.default_rng(1)
    st, answers, research_seen = new["state"], 0, 0
    while not st["view"]["is_over"]:
        g = app.state.store.games[gid].session.game
        v = st["view"]
        if v["human_to_move"]:
            opts = v["options"]
            assert opts and v["prompt"]
            research_seen += g.phase == "research"
            assert client.post(f"/api/games/{gid}/move", json={"action": opts[0]["action"]}).status_code == 403
            r = client.post(f"/api/games/{gid}/move", json={"token": tok, "action": opts[int(rng.integers(len(opts)))]["action"]})
        else:
            assert v["options"] == [] and v["prompt"] is None
            r = client.post(f"/api/games/{gid}/bot", json={"token": tok})
        assert r.status_code == 200, r.text
        g = app.state.store.games[gid].session.game
        _check_gizmos_answer(g, 0, r.json(), "move" if v["human_to_move"] else "bot")
        st = r.json()["state"]
        answers += 1
        if answers % 15 == 0 or (g.phase == "research" and g.current_player == 1):
            _check_gizmos_answer(g, 0, client.get(f"/api/games/{gid}?token={tok}").json(), "get")
            spec = client.get(f"/api/games/{gid}").json()
            assert spec["seat"] == -1 and spec["view"]["options"] == []
            _check_gizmos_answer(g, -1, spec, "spectator")
            for path in ("/api/games", "/api/meta", f"/api/games/{gid}/turns", f"/api/games/{gid}/turns?token={tok}",
                         f"/api/games/{gid}/export?token={tok}"):
                _check_gizmos_answer(g, -1 if "token" not in path else 0, client.get(path).json(), path)
            for path in ("replay", "again"):
                r = client.post(f"/api/games/{gid}/{path}", json={"token": tok})
                assert r.status_code == 409
                _check_gizmos_answer(g, 0, r.json(), path)
            if st["view"]["human_to_move"]:
                hint = client.post(f"/api/games/{gid}/hint", json={"token": tok, "agent": "greedy"})
                assert hint.status_code == 200 and hint.json()["hint"]["action"] in {
                    o["action"] for o in st["view"]["options"]}
                _check_gizmos_answer(g, 0, hint.json(), "hint")
    g = app.state.store.games[gid].session.game
    assert research_seen > 0 and answers > 20
    assert st["view"]["seed"] == BIG_SEED == st["view"]["end"]["seed"]
    assert st["view"]["end"]["scores"] == [int(x) for x in g.scores()]
    assert [x["label"] for x in st["view"]["end"]["points_by_source"]["sources"]] == \
        ["machines", "tokens", "end-game upgrades"]


def test_a_gizmos_seat_cannot_rebuild_the_deal_from_what_it_receives(app, client):
    """The attack of the Electrify test above on a Gizmos game dealt without a seed: every number
    a seat receives, and the small seeds, tried as the game seed; a match of the opening display
    would give the deck order."""
    from electrify_env.gizmos import Game
    from electrify_env.kernels.batch import MAX_SEED
    r = client.post("/api/games", json={"game": "gizmos", "seats": ["human", "greedy"]})
    new = r.json()
    gid, tok = new["id"], new["tokens"]["0"]
    received = [new, client.get("/api/meta").json()]
    st = _play_collecting(client, gid, tok, new["state"], 40, received, stop_at_end=False)
    received += [client.get(f"/api/games/{gid}").json(), client.get("/api/games").json(),
                 client.get(f"/api/games/{gid}/export?token={tok}").json(),
                 client.get(f"/api/games/{gid}/turns?token={tok}").json(),
                 client.post(f"/api/games/{gid}/replay", json={"token": tok}).json(),
                 client.post(f"/api/games/{gid}/again", json={"token": tok}).json()]
    game = app.state.store.games[gid].session.game
    assert not game.is_terminal

    def display(seed):
        return [[c and c["id"] for c in r["cards"]] for r in
                __import__("electrify_env.gizmos.table", fromlist=["x"]).table_view(Game(n_players=2, seed=seed), 0)["display"]]
    mine = [[c and c["id"] for c in r["cards"]] for r in new["state"]["view"]["display"]]
    assert display(game.seed) == mine          # the attack works when the seed is known
    text = json.dumps(received)
    candidates = {int(x) for x in re.findall(r"\d+", text) if int(x) <= MAX_SEED} | set(range(500))
    found = [c for c in sorted(candidates) if display(c) == mine]
    assert found == [], f"seat 0 rebuilt the deal from seed {found[0]}"


def test_gizmos_at_api_games_moves_undo_hint_export_and_replay(app, client):
    new = _gizmos_new(client, seats=("human", "random"), seed=2)
    gid, tok = new["id"], new["tokens"]["0"]
    session = app.state.store.games[gid].session
    v = new["state"]["view"]
    assert v["game"] == "gizmos" and [r["level"] for r in v["display"]] == ["III", "II", "I"]
    assert client.get("/api/games").json()["games"][0]["game"] == "gizmos"
    # an illegal move: a one-line 409, nothing changed
    legal = {o["action"] for o in v["options"]}
    illegal = next(a for a in range(10_000) if a not in legal)
    r = client.post(f"/api/games/{gid}/move", json={"token": tok, "action": illegal})
    assert r.status_code == 409 and r.json()["error"] and "\n" not in r.json()["error"]
    assert session.log == []
    hint = client.post(f"/api/games/{gid}/hint", json={"token": tok, "agent": "greedy"}).json()
    assert hint["agent"] == "greedy" and hint["hint"]["action"] in legal
    assert client.post(f"/api/games/{gid}/hint", json={"token": tok, "agent": "trained"}).status_code == 400
    r = client.post(f"/api/games/{gid}/move", json={"token": tok, "action": hint["hint"]["action"]})
    assert r.status_code == 200 and r.json()["event"]["action"] == hint["hint"]["action"]
    n = len(session.game.history)
    undo = client.post(f"/api/games/{gid}/undo", json={"token": tok})
    assert undo.status_code == 200 and undo.json()["undone"] == n and undo.json()["state"]["view"]["decisions"] == 0
    # to the end: moves and bot moves by the API
    st = undo.json()["state"]
    while not st["view"]["is_over"]:
        if st["view"]["human_to_move"]:
            r = client.post(f"/api/games/{gid}/move", json={"token": tok, "action": st["view"]["options"][-1]["action"]})
        else:
            r = client.post(f"/api/games/{gid}/bot", json={"token": tok})
        assert r.status_code == 200, r.text
        st = r.json()["state"]
    g = session.game
    save = client.get(f"/api/games/{gid}/export?token={tok}")
    assert save.status_code == 200 and save.json()["game_name"] == "gizmos" and save.json()["game"]["actions"] == g.history
    imported = client.post("/api/games/import", json={"save": save.json()})
    assert imported.status_code == 200 and imported.json()["state"]["view"]["end"]["scores"] == [int(x) for x in g.scores()]
    rp = client.post(f"/api/games/{gid}/replay", json={"token": tok})
    assert rp.status_code == 200, rp.text
    info = rp.json()
    assert info["steps"] == len(g.history) and info["final_scores"] == [int(x) for x in g.scores()]
    mid = client.get(f"/api/replays/{info['id']}?step=10").json()
    assert mid["game"] == "gizmos" and mid["view"]["decisions"] == 10 and mid["view"]["seed"] is None
    last = client.get(f"/api/replays/{info['id']}?step={info['steps']}").json()
    assert last["view"]["end"]["scores"] == info["final_scores"]
    again = client.post(f"/api/games/{gid}/again", json={"token": tok}).json()
    fresh = app.state.store.games[again["id"]].session
    assert fresh.game_name == "gizmos" and fresh.seats == session.seats and again["state"]["view"]["seed"] is None
    # a restart over the same folder resumes the Gizmos games, the running one where it was
    view = client.get(f"/api/games/{again['id']}?token={again['tokens']['0']}").json()["view"]
    c2 = TestClient(build_app(app.state.store.folder, max_games=4))
    assert c2.get(f"/api/games/{again['id']}?token={again['tokens']['0']}").json()["view"] == view
    assert c2.get(f"/api/games/{gid}?token={tok}").json()["view"]["end"]["scores"] == info["final_scores"]


def test_a_public_server_deals_gizmos_for_several_people_from_a_secret_seed(tmp_path):
    c = TestClient(build_app(tmp_path / "g", public=True))
    r = c.post("/api/games", json={"game": "gizmos", "seats": ["human", "human"], "seed": 5})
    assert r.status_code == 400 and "seed" in r.json()["error"]
    assert c.post("/api/games", json={"game": "gizmos", "seats": ["human", "human"]}).status_code == 200
    assert c.post("/api/games", json={"game": "gizmos", "seats": ["human", "greedy"], "seed": 5}).status_code == 200
    r = c.post("/api/games", json={"game": "gizmos", "seats": ["human", "gumbel:simulations=100000"]})
    assert r.status_code == 400 and "offers only" in r.json()["error"]


def test_gizmos_requests_are_refused_in_one_line(client):
    cases = [({"game": "chess"}, "game"), ({"game": 3}, "game"),
             ({"game": "gizmos", "scenario": "first_light"}, "scenario"),
             ({"game": "gizmos", "tech_packs": ["grid"]}, "tech_packs"),
             ({"game": "electrify", "colour": "red"}, "colour"),
             ({"game": "gizmos", "seats": ["human"]}, "seats"),
             ({"game": "gizmos", "seats": ["human", "net:path=x.pt"]}, "seats[1]"),
             ({"game": "gizmos", "seats": ["human", "policy:path=/tmp/x.pt"]}, "seats[1]"),
             ({"game": "gizmos", "seats": ["human", "bogus"]}, "bogus"),
             ({"game": "gizmos", "seats": ["human", "greedy"], "seed": -1}, "seed")]
    for body, word in cases:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, (body, r.text)
        assert word in r.json()["error"] and "\n" not in r.json()["error"], (body, r.json())
    new = _gizmos_new(client, seats=("human", "random"), seed=2)
    assert client.get(f"/api/games/{new['id']}?token=wrong").status_code == 403
    meta = client.get("/api/meta").json()
    giz = next(x for x in meta["games"] if x["name"] == "gizmos")
    assert giz["min_players"] == 2 and giz["options"] == [] and giz["default_opponent"]["3"] == "greedy"
    assert {"greedy", "random"} <= {a["spec"] for a in giz["agents"]}
    assert [x["name"] for x in meta["games"]] == ["electrify", "gizmos"]


def test_the_table_page_redirects_to_the_one_page_with_the_game_chosen(client):
    for path in ("/table", "/table?game=gizmos"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 307 and r.headers["location"] == "/?game=gizmos"
    assert client.get("/table?game=electrify", follow_redirects=False).headers["location"] == "/?game=electrify"
    assert client.get("/table?game=chess").status_code == 400
    page = client.get("/?game=gizmos").text
    assert '<select id="game">' in page and "/static/gizmos.js" in page and "/static/app.js" in page
    assert "GizmosTable" in client.get("/static/gizmos.js").text
