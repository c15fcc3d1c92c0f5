"""A real browser plays a whole game in the web app (``electrify serve``) by clicks only.

Debian's chromium and chromium-driver, driven by Selenium (``.ci/run`` installs them).  The
server runs in this process on a free port; the test opens the page, starts a 2-player game
against greedy, plays it to the end by clicking (board places for the Plan dial, the option
list otherwise), and checks that the final scores on the page are the engine's, that the log
shows the session's lines in players' words with their decisions folded under them, and that the
end screen shows the engine's scores, points by source and score by round, with working save,
play-again and replay buttons.  A screenshot
goes to the test's temporary folder, or to ``$ELECTRIFY_SCREENSHOT`` when set
(``ELECTRIFY_SCREENSHOT=docs/img/web.png`` renews the README's picture), and one of the end
screen to ``$ELECTRIFY_END_SCREENSHOT`` (``docs/img/web-end.png``).  Without chromium the
test is skipped with the reason.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
selenium = pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")

from selenium.common.exceptions import StaleElementReferenceException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from browser_support import chromium, serving  # noqa: E402

from electrify_env.play.web import build_app  # noqa: E402

SHOT_ENV = "ELECTRIFY_SCREENSHOT"
END_SHOT_ENV = "ELECTRIFY_END_SCREENSHOT"


@pytest.fixture
def server(tmp_path):
    app = build_app(tmp_path / "games")
    with serving(app) as url:
        yield app, url


@pytest.fixture
def browser():
    with chromium("--window-size=1750,1050") as drv:
        yield drv


def _click_next(drv) -> bool:
    """Click one legal option: the Plan dial on the board, else pass, else the first option.
    Return False when nothing could be clicked (the page is re-rendering)."""
    try:
        board = drv.find_elements(By.CSS_SELECTOR, "#board .place.legal")
        plan = [e for e in board if e.get_attribute("data-place").startswith("sector,0,")]
        buttons = drv.find_elements(By.CSS_SELECTOR, "#options button.option")
        if plan and drv.find_elements(By.CSS_SELECTOR, "#options button.opt-plan"):
            target = plan[-1]
            target.click()
            menu = drv.find_elements(By.CSS_SELECTOR, "#menu button.menu-option")
            if menu:
                menu[0].click()
            return True
        passes = [b for b in buttons if "opt-pass" in b.get_attribute("class")]
        target = passes[0] if passes else (buttons[0] if buttons else None)
        if target is None:
            return False
        target.click()
        return True
    except StaleElementReferenceException:
        return False


def test_browser_plays_a_game_against_greedy_by_clicks(server, browser, tmp_path):
    app, url = server
    drv = browser
    wait = WebDriverWait(drv, 30, poll_frequency=0.05)
    drv.get(url)
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seat-1 option")) > 1)
    Select(drv.find_element(By.ID, "players")).select_by_value("2")
    Select(drv.find_element(By.ID, "seat-1")).select_by_value("greedy")
    drv.find_element(By.ID, "start").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg"))
    Select(drv.find_element(By.ID, "speed")).select_by_value("0")
    gid = drv.execute_script("return new URLSearchParams(location.hash.slice(1)).get('game')")
    assert gid in app.state.store.games
    clicks = 0
    shot_taken = False
    deadline = time.time() + 240
    while not drv.find_elements(By.ID, "final-scores"):
        assert time.time() < deadline, "the game did not end in time"
        wait.until(lambda d: d.find_elements(By.ID, "final-scores")
                   or d.find_element(By.TAG_NAME, "body").get_attribute("data-human-to-move") == "true")
        if drv.find_elements(By.ID, "final-scores"):
            break
        before = drv.find_element(By.TAG_NAME, "body").get_attribute("data-decisions")
        if not _click_next(drv):
            continue
        clicks += 1
        wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-decisions") != before)
        session = app.state.store.games[gid].session
        if not shot_taken and session.game.round >= 7 and session.human_to_move:
            shot = Path(os.environ.get(SHOT_ENV) or tmp_path / "web.png")
            shot.parent.mkdir(parents=True, exist_ok=True)
            drv.save_screenshot(str(shot))
            assert shot.stat().st_size > 10_000
            shot_taken = True
    session = app.state.store.games[gid].session
    assert session.is_over and clicks > 12
    shown = drv.find_element(By.ID, "final-scores")
    scores = [int(x) for x in shown.get_attribute("data-scores").strip("[]").split(",")]
    assert scores == [int(x) for x in session.game.scores()]
    assert "Final scores: " + ", ".join(str(x) for x in scores) in shown.text
    assert shot_taken
    _check_log(drv, wait, session)
    drv.execute_script("window.scrollTo(0, 0)")
    end_shot = Path(os.environ.get(END_SHOT_ENV) or tmp_path / "web-end.png")
    end_shot.parent.mkdir(parents=True, exist_ok=True)
    drv.save_screenshot(str(end_shot))
    assert end_shot.stat().st_size > 10_000
    _check_end_screen(drv, wait, app, gid, session)


def _check_log(drv, wait, session) -> None:
    """The log: one line per turn, newest round first, the session's words; the decisions under
    a line of an older round load when it is opened."""
    want = session.turns(0)
    order = sorted(want, key=lambda t: (-t["round"], want.index(t)))
    lines = drv.find_elements(By.CSS_SELECTOR, "#log details.turn > summary")
    assert [e.text for e in lines] == [t["text"] for t in order]
    assert [int(e.text.split()[-1]) for e in drv.find_elements(By.CSS_SELECTOR, "#log .log-round h4")] == \
        list(range(12, 0, -1))
    first = want[0]                                   # round 1: its decisions are not in the state
    d = drv.find_element(By.CSS_SELECTOR, f'#log details.turn[data-round="1"][data-player="{first["player"]}"]')
    d.find_element(By.TAG_NAME, "summary").click()
    wait.until(lambda _: len(d.find_elements(By.CSS_SELECTOR, "li.step")) == len(first["steps"]))
    assert [li.get_attribute("textContent") for li in d.find_elements(By.CSS_SELECTOR, "li.step")] == \
        [s["text"] for s in first["steps"]]
    step_texts = {ev.text for ev in session.log}
    for e in lines:
        assert not any(s in e.text for s in step_texts), e.text


def _check_end_screen(drv, wait, app, gid, session) -> None:
    """The end screen: the engine's scores, tie-break, points by source and score by round; Save
    downloads the save, Play again deals a new game with the same seats, Replay opens the viewer."""
    g = session.game
    end = session.end_summary(0)
    assert drv.find_element(By.ID, "end").is_displayed()
    rows = drv.find_elements(By.CSS_SELECTOR, "#end-scores tbody tr")
    assert [(int(r.get_attribute("data-player")), int(r.find_elements(By.TAG_NAME, "td")[2].text)) for r in rows] == \
        [(x["player"], x["score"]) for x in end["ranking"]]
    assert sorted(x["score"] for x in end["ranking"]) == sorted(int(x) for x in g.scores())
    tb = drv.find_element(By.ID, "end-tiebreak").text
    assert tb == ("Tie-break: " + end["tiebreak"]["text"] if end["tiebreak"] else "")
    by_source = g.points_by_source()
    source_rows = drv.find_elements(By.CSS_SELECTOR, "#end-sources tbody tr[data-source]")
    assert len(source_rows) == len(end["points_by_source"]["sources"]) >= 4
    for r in source_rows:
        key = r.get_attribute("data-source")
        assert [int(td.text) for td in r.find_elements(By.TAG_NAME, "td")] == [row[key] for row in by_source]
    total = drv.find_element(By.CSS_SELECTOR, "#end-sources tr.total")
    assert [int(td.text) for td in total.find_elements(By.TAG_NAME, "td")] == [int(x) for x in g.scores()]
    lines = drv.find_elements(By.CSS_SELECTOR, "#score-chart polyline.series")
    assert len(lines) == g.n_players
    ys = []
    for ln in lines:
        pts = [tuple(float(v) for v in xy.split(",")) for xy in ln.get_attribute("points").split()]
        assert len(pts) == 13
        ys.append([y for _, y in pts])
    # higher on the chart is more points: the order of the players' heights matches the scores
    for r in range(13):
        s = end["score_by_round"][r]
        for p in range(g.n_players):
            for q in range(g.n_players):
                if s[p] > s[q]:
                    assert ys[p][r] < ys[q][r]
    assert str(end["seed"]) in drv.find_element(By.ID, "end-seed").text
    # Save: the link downloads the session save
    href = drv.find_element(By.ID, "end-save").get_attribute("href")
    saved = drv.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0]).then((r) => r.json()).then(done).catch((e) => done(String(e)));", href)
    assert saved["game"]["actions"] == g.history
    # Play again: a new game with the same seats, dealt afresh
    old_hash = drv.execute_script("return location.hash")
    drv.find_element(By.ID, "end-again").click()
    wait.until(lambda d: d.execute_script("return new URLSearchParams(location.hash.slice(1)).get('game')") != gid)
    new_id = drv.execute_script("return new URLSearchParams(location.hash.slice(1)).get('game')")
    wait.until(lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-decisions") is not None
               and not d.find_element(By.ID, "end").is_displayed())
    assert app.state.store.games[new_id].session.seats == session.seats
    # Replay: back to the finished game, then the viewer from its first decision
    drv.execute_script("location.hash = arguments[0]", old_hash)
    wait.until(lambda d: d.find_element(By.ID, "end").is_displayed())
    drv.find_element(By.ID, "end-replay").click()
    wait.until(lambda d: d.find_element(By.ID, "replay-controls").is_displayed())
    wait.until(lambda d: d.find_element(By.ID, "rp-pos").text.startswith(f"decision 0 / {len(g.history)}"))
    assert not drv.find_element(By.ID, "end").is_displayed()
    drv.find_element(By.ID, "rp-last").click()
    wait.until(lambda d: d.find_element(By.ID, "end").is_displayed())
    assert not drv.find_element(By.ID, "end-buttons").is_displayed()
