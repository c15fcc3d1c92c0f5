"""A real browser plays a whole game in the web app (``electrify serve``) by clicks only.

Debian's chromium and chromium-driver, driven by Selenium (``.ci/run`` installs them).  The
server runs in this process on a free port; the test opens the page, starts a 2-player game
against greedy, plays it to the end by clicking (board places for the Plan dial, the option
list otherwise), and checks that the final scores on the page are the engine's.  A screenshot
goes to the test's temporary folder, or to ``$ELECTRIFY_SCREENSHOT`` when set
(``ELECTRIFY_SCREENSHOT=docs/img/web.png`` renews the README's picture).  Without chromium the
test is skipped with the reason.
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
selenium = pytest.importorskip("selenium", reason="selenium is not installed (pip install selenium)")

from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

from electrify_env.play.web import build_app  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
SHOT_ENV = "ELECTRIFY_SCREENSHOT"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def server(tmp_path):
    app = build_app(tmp_path / "games")
    port = _free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    assert srv.started, "the server did not start"
    yield app, f"http://127.0.0.1:{port}/"
    srv.should_exit = True
    th.join(10)


@pytest.fixture
def browser():
    if not CHROMIUM or not DRIVER:
        pytest.skip("no chromium / chromedriver on this machine "
                    "(apt-get install -y chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1750,1050"):
        opts.add_argument(arg)
    try:
        drv = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=opts)
    except WebDriverException as err:
        pytest.skip(f"chromium did not start: {str(err).splitlines()[0]}")
    yield drv
    drv.quit()


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
