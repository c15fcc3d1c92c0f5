"""Human play against trained policies: the ``trained`` / ``trained_2p`` / ``net:path=`` bots in
PlaySession, the web app (offered from the registry, the default opponent, refused paths) and the
terminal UI.

The shipped policies are stood in for by a tiny untrained network (``PolicyValueNet(2, [32])``)
saved into a temporary folder that ``electrify_env.agents.registry.POLICY_DIR`` / ``electrify_env.agents.trained.POLICY_DIR``
point at, so the tests never write into ``policies/`` and do not depend on what is shipped."""
from __future__ import annotations

import io
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import electrify_env.agents.registry as registry  # noqa: E402
import electrify_env.agents.trained as trained  # noqa: E402
from electrify_env.agents import make_agent, seat_view  # noqa: E402
from electrify_env import Game  # noqa: E402
from electrify_env.play.session import (  # noqa: E402
    PlayError, PlaySession, default_opponent, shipped_policy_for,
)
from electrify_env.agents.policy_meta import meta_path  # noqa: E402
from electrify_env.agents.net import PolicyValueNet, save_policy  # noqa: E402


def _save(folder, n_players: int, seed: int = 0):
    torch.manual_seed(seed)
    env = "Electrify-Solo-v0" if n_players == 1 else "Electrify-v0"
    return save_policy(PolicyValueNet(n_players, [32]), folder / registry.SHIPPED[n_players],
                       Game(n_players if n_players > 1 else 2).cards.hash, env)


@pytest.fixture
def policy_dir(tmp_path, monkeypatch):
    """An empty stand-in for ``policies/``, with no ``trained_*`` registered yet; the registry is
    restored afterwards (the code under test registers ``trained_*`` for the files it finds)."""
    folder = tmp_path / "policies"
    folder.mkdir()
    monkeypatch.setattr(registry, "POLICY_DIR", folder)
    monkeypatch.setattr(trained, "POLICY_DIR", folder)
    saved = dict(registry.AGENTS)
    for name in [n for n in registry.AGENTS if n.startswith("trained_")]:   # registered from policies/
        del registry.AGENTS[name]
    yield folder
    registry.AGENTS.clear()
    registry.AGENTS.update(saved)


@pytest.fixture
def shipped(policy_dir):
    """A shipped-like 2-player policy (``electrify-2p.pt``), registered as ``trained_2p``."""
    path = _save(policy_dir, 2)
    registry._register_shipped()
    return path


def _play_out(s: PlaySession, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    while not s.is_over:
        if s.human_to_move:
            opts = s.options()
            passes = [o for o in opts if o.kind == "pass"]
            o = passes[0] if passes and rng.random() < 0.5 else opts[rng.integers(len(opts))]
            s.play(o.action, seat=s.to_move)
        else:
            s.step_bot()


# ---- the session ----------------------------------------------------------------------------------
def test_trained_bot_plays_a_full_two_player_game_with_the_policys_moves(shipped):
    s = PlaySession(seats=["human", "trained"], seed=21)
    same = make_agent(f"net:path={shipped}")          # the same file, read directly
    rng = np.random.default_rng(1)
    bot_moves = 0
    while not s.is_over:
        if s.human_to_move:
            opts = s.options()
            s.play(opts[rng.integers(len(opts))].action, seat=0)
        else:
            want = int(same.act(seat_view(s.game, 1, infoset=False)))
            assert s.step_bot().action == want
            bot_moves += 1
    assert bot_moves > 50 and s.game.round == 12
    assert {e.who for e in s.log if e.seat == 1} == {"player 1 (trained)"}
    again = PlaySession.from_dict(json.loads(s.to_json()))    # a save resumes with the policy
    assert again.game.same_as(s.game) and again.seats == ["human", "trained"]


def test_shipped_names_play_only_the_games_their_policy_fits(shipped):
    s = PlaySession(seats=["trained_2p", "trained"], seed=3)
    s.run_bots(limit=40)
    assert len(s.log) == 40
    with pytest.raises(PlayError, match=r"seats\[1\] \(trained_2p\): .*plays 2-player games"):
        PlaySession(seats=["human", "trained_2p", "greedy"], seed=3)
    with pytest.raises(PlayError, match=r"seats\[2\] \(trained\): no shipped policy for 3 player"):
        PlaySession(seats=["human", "greedy", "trained"], seed=3)
    with pytest.raises(PlayError, match=r"seats\[1\] \(trained\): .*card_set_hash"):
        PlaySession(seats=["human", "trained"], seed=3, tech_packs=("grid",))
    with pytest.raises(PlayError, match=r"seats\[1\]: .*does not exist"):
        PlaySession(seats=["human", "net:path=/nonexistent/p.pt"])


def test_trained_hints_load_the_policy_once_and_change_nothing(shipped, monkeypatch):
    import electrify_env.agents.net
    loads = []
    real = electrify_env.agents.net.load_policy
    monkeypatch.setattr(electrify_env.agents.net, "load_policy", lambda *a, **kw: loads.append(a) or real(*a, **kw))
    s = PlaySession(seats=["human", "greedy"], seed=5)
    before = s.game.state.copy()
    hints = [s.hint("trained").action for _ in range(3)]
    assert len(loads) == 1 and len(set(hints)) == 1 and np.array_equal(s.game.state, before)
    assert hints[0] == int(make_agent(f"net:path={shipped}").act(seat_view(s.game, 0, infoset=False)))


def test_default_opponent_is_trained_only_where_a_shipped_policy_fits(policy_dir):
    assert default_opponent(2) == "greedy" and shipped_policy_for(2) is None
    path = _save(policy_dir, 2)
    assert default_opponent(2) == "trained" and shipped_policy_for(2) == path
    assert default_opponent(3) == "greedy" and default_opponent(1) == "greedy"
    packs = Game(2, tech_packs=("grid",)).cards.hash
    assert default_opponent(2, packs) == "greedy"
    meta = json.loads(meta_path(path).read_text())
    meta_path(path).write_text(json.dumps(dict(meta, obs_version=-1)))   # saved for another layout
    assert default_opponent(2) == "greedy"
    meta_path(path).write_text(json.dumps(dict(meta, n_players=3)))      # a misnamed 3-player policy
    assert default_opponent(2) == "greedy"


def test_a_save_whose_policy_is_gone_is_refused_naming_the_seats(shipped):
    from electrify_env.savefile import InvalidSaveError
    data = PlaySession(seats=["human", "trained"], seed=2).to_dict()
    shipped.unlink()
    with pytest.raises(InvalidSaveError, match=r"^seats: seats\[1\] \(trained\): no shipped policy"):
        PlaySession.from_dict(data)


# ---- the web app ----------------------------------------------------------------------------------
starlette = pytest.importorskip("starlette")
pytest.importorskip("httpx")
from starlette.testclient import TestClient  # noqa: E402

from electrify_env.play.web import FAST_MCTS, GUIDED_MCTS, build_app  # noqa: E402


def test_page_offers_registry_names_and_a_policy_as_soon_as_it_is_shipped(policy_dir, tmp_path):
    from electrify_env.agents import AGENTS
    client = TestClient(build_app(tmp_path / "games"))
    meta = client.get("/api/meta").json()
    specs = [a["spec"] for a in meta["agents"]]
    assert "trained" not in specs and meta["default_opponent"]["2"] == "greedy"
    assert not any("path" in AGENTS[s.split(":")[0]].params for s in specs)      # no ppo, no net
    assert set(specs) == ({n for n, k in AGENTS.items() if "path" not in k.params} - {"trained"}) | {FAST_MCTS}
    _save(policy_dir, 2)                                 # shipped while the server runs
    meta = client.get("/api/meta").json()
    offered = {a["spec"]: a for a in meta["agents"]}
    assert offered["trained"]["players"] == [2] and not offered["trained"]["tech_packs"]
    assert offered["trained_2p"]["players"] == [2] and "trained_3p" not in offered
    # the search guided by the shipped policy: where a policy is shipped, on the base set only
    assert offered[GUIDED_MCTS]["players"] == [2] and not offered[GUIDED_MCTS]["tech_packs"]
    assert offered["greedy"]["players"] == [1, 2, 3, 4] and offered["greedy"]["tech_packs"]
    assert meta["default_opponent"] == {"1": "greedy", "2": "trained", "3": "greedy", "4": "greedy"}


def test_a_level_played_by_a_policy_that_is_not_installed_is_not_offered(policy_dir, tmp_path):
    from electrify_env.play.levels import load_levels
    client = TestClient(build_app(tmp_path / "games"))
    two = client.get("/api/meta").json()["levels"]["2"]
    expert = load_levels().spec("Expert", 2)
    assert expert.startswith("trained") and expert not in [lv["spec"] for lv in two]
    assert [lv["name"] for lv in two] == ["Beginner", "Intermediate", "Strong"]
    _save(policy_dir, 2)                                 # shipped while the server runs
    two = client.get("/api/meta").json()["levels"]["2"]
    assert [lv["name"] for lv in two][-1] == "Expert"


def test_web_game_against_the_default_trained_opponent_to_the_end(shipped, tmp_path):
    app = build_app(tmp_path / "games")
    client = TestClient(app)
    r = client.post("/api/games", json={"seed": 8})          # no seats: a person against the default
    assert r.status_code == 200, r.text
    gid, tok = r.json()["id"], r.json()["tokens"]["0"]
    st = r.json()["state"]
    assert [s["agent"] for s in st["view"]["seats"]] == ["human", "trained"]
    hint = client.post(f"/api/games/{gid}/hint", json={"token": tok, "agent": "trained"})
    assert hint.status_code == 200 and hint.json()["hint"]["action"] in {o["action"] for o in st["view"]["options"]}
    rng = np.random.default_rng(2)
    while not st["view"]["is_over"]:
        v = st["view"]
        if v["human_to_move"]:
            o = v["options"][rng.integers(len(v["options"]))]
            r = client.post(f"/api/games/{gid}/move", json={"token": tok, "action": o["action"]})
        else:
            r = client.post(f"/api/games/{gid}/bot", json={"token": tok})
        assert r.status_code == 200, r.text
        st = r.json()["state"]
    g = app.state.store.games[gid].session.game
    assert st["view"]["result"]["scores"] == [int(x) for x in g.scores()]
    assert any(e["who"] == "player 1 (trained)" for e in st["view"]["log"])
    restarted = TestClient(build_app(tmp_path / "games"))          # persisted with its policy seat
    assert restarted.get(f"/api/games/{gid}?token={tok}").json()["view"]["is_over"]


@pytest.mark.parametrize("public", [False, True])
def test_web_refuses_agents_that_load_files_and_on_a_public_server_unoffered_specs(shipped, tmp_path, public):
    app = build_app(tmp_path / "games", public=public)
    client = TestClient(app)
    for spec in (f"net:path={shipped}", "net", "ppo:path=/tmp/x.zip", "greedy:weights=/etc/passwd",
                 "mcts:weights=configs/agents/greedy.yaml"):
        r = client.post("/api/games", json={"seats": ["human", spec]})
        assert r.status_code == 400 and "file" in r.json()["error"], (spec, r.text)
    save = PlaySession(seats=["human", "greedy"], seed=1).to_dict()
    r = client.post("/api/games/import", json={"save": dict(save, seats=["human", f"net:path={shipped}"])})
    assert r.status_code == 400 and r.json()["error"].startswith("seats[1]: ")
    costly = client.post("/api/games", json={"seats": ["human", "mcts:iters=100000"]})
    assert costly.status_code == (400 if public else 200)
    if public:
        assert "offers only" in costly.json()["error"] and "trained" in costly.json()["error"]
    r = client.post("/api/games", json={"seats": ["human", "trained"], "seed": 4})
    assert r.status_code == 200, r.text
    gid, tok = r.json()["id"], r.json()["tokens"]["0"]
    bad_hint = client.post(f"/api/games/{gid}/hint", json={"token": tok, "agent": f"net:path={shipped}"})
    assert bad_hint.status_code == 400
    for spec in ("trained", FAST_MCTS, GUIDED_MCTS):
        assert client.post(f"/api/games/{gid}/hint", json={"token": tok, "agent": spec}).status_code == 200
    r = client.post("/api/games", json={"seats": ["human", "greedy", "trained"]})   # no 3-player policy
    assert r.status_code == 400 and "no shipped policy for 3" in r.json()["error"]
    assert len(app.state.store.games) == (1 if public else 2)


# ---- the terminal UI ------------------------------------------------------------------------------
def test_terminal_default_opponent_is_the_shipped_policy_and_plays_to_the_end(shipped, monkeypatch, capsys):
    from rich.console import Console

    import electrify_env.play.terminal as terminal

    con = Console(file=io.StringIO(), width=120, color_system=None, highlight=False)
    sessions = []
    real_run = terminal.run

    def run(session, *a, **kw):           # keep the session the command line made
        sessions.append(session)
        return real_run(session, *a, **kw)

    rng = np.random.default_rng(3)

    def answer(prompt: str) -> str:       # a seeded choice among the decision's own options
        s = sessions[-1]
        opts = terminal.numbered_options(s.view(s.to_move))
        return str(int(rng.choice([k for k, o in enumerate(opts, 1) if not o["any_time"]])))

    monkeypatch.setattr(terminal, "run", run)
    assert terminal.main(["--seed", "6"], input_fn=answer, console=con) == 0
    out = con.file.getvalue()
    assert "Electrify: seed 6, player 0 (human), player 1 (trained)" in out
    assert sessions[-1].is_over and "Final scores: player 0 (you)" in out
    assert terminal.main(["--opponents", "trained,greedy"], input_fn=answer, console=con) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err.startswith("electrify play: error: argument --opponents: seats[1] (trained): no shipped policy")


# ---- the newcomer's flow in a real browser: `electrify serve`, then `trained` in the page -------
def test_browser_page_defaults_to_the_shipped_policy_and_plays_against_it(shipped, tmp_path):
    import shutil
    import socket
    import threading
    import time

    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("selenium")
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    if not chromium or not driver:
        pytest.skip("no chromium / chromedriver on this machine (apt-get install -y chromium chromium-driver)")
    app = build_app(tmp_path / "games")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        opts.add_argument(arg)
    try:
        drv = webdriver.Chrome(service=webdriver.ChromeService(executable_path=driver), options=opts)
    except WebDriverException as err:
        srv.should_exit = True
        pytest.skip(f"chromium did not start: {str(err).splitlines()[0]}")
    try:
        for _ in range(200):
            if srv.started:
                break
            time.sleep(0.05)
        wait = WebDriverWait(drv, 30, poll_frequency=0.05)
        drv.get(f"http://127.0.0.1:{port}/")
        wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seat-1 option")) > 1)
        seat1 = Select(drv.find_element(By.ID, "seat-1"))
        assert seat1.first_selected_option.get_attribute("value") == "trained"     # the default opponent
        assert "net" not in [o.get_attribute("value") for o in seat1.options]
        Select(drv.find_element(By.ID, "players")).select_by_value("3")          # no 3-player policy
        wait.until(lambda d: d.find_elements(By.ID, "seat-2"))
        assert "trained" not in [o.get_attribute("value") for o in Select(drv.find_element(By.ID, "seat-1")).options]
        Select(drv.find_element(By.ID, "players")).select_by_value("2")
        wait.until(lambda d: not d.find_elements(By.ID, "seat-2"))
        drv.find_element(By.CSS_SELECTOR, ".pack").click()                        # tech packs: no policy
        assert Select(drv.find_element(By.ID, "seat-1")).first_selected_option.get_attribute("value") == "greedy"
        drv.find_element(By.CSS_SELECTOR, ".pack").click()
        assert Select(drv.find_element(By.ID, "seat-1")).first_selected_option.get_attribute("value") == "greedy"
        Select(drv.find_element(By.ID, "seat-1")).select_by_value("trained")
        drv.find_element(By.ID, "start").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
        Select(drv.find_element(By.ID, "speed")).select_by_value("0")
        gid = drv.execute_script("return new URLSearchParams(location.hash.slice(1)).get('game')")
        session = app.state.store.games[gid].session
        assert session.seats == ["human", "trained"]
        assert "trained" in [o.get_attribute("value") for o in Select(drv.find_element(By.ID, "hint-agent")).options]
        deadline = time.time() + 120
        while session.game.round < 3:                     # by clicks: pass where it can, else the first option
            assert time.time() < deadline, "the game did not reach round 3 in time"
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-human-to-move") == "true")
            before = drv.find_element(By.TAG_NAME, "body").get_attribute("data-decisions")
            try:
                buttons = drv.find_elements(By.CSS_SELECTOR, "#options button.option")
                passes = [b for b in buttons if "opt-pass" in b.get_attribute("class")]
                (passes or buttons)[0].click()
            except (StaleElementReferenceException, IndexError):
                continue
            wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-decisions") != before)
        log = drv.find_element(By.ID, "log").text
        # the trained bot's finished turns, in players' words
        bot_lines = [t["text"] for t in session.turns(0) if t["player"] == 1 and t["done"]]
        assert bot_lines and all(line.startswith("Player 1 (trained) ") and line in log for line in bot_lines)
        assert sum(e.seat == 1 for e in session.log) > 5
    finally:
        drv.quit()
        srv.should_exit = True
        th.join(10)
