"""A real browser plays a whole 2-player game of Gizmos on the one page of ``electrify serve``
(reached by ``/table?game=gizmos``, a redirect to ``/?game=gizmos``) by clicks only, at 1366x768
and at a phone's 390x844.

Debian's chromium and chromium-driver, driven by Selenium, as in tests/test_web_browser.py;
without them the test is skipped with the reason.  Each click is on the first option button of
the page (on the table where the option stands, else in the prompt); the bots move at the page's
"instant" speed.  After every click no
element of the page is wider than its box (``scrollWidth`` against ``clientWidth``) and no
element scrolls inside; at the end the page's scores are the engine's.  A screenshot of each
size goes to the test's temporary folder, or to ``$GIZMOS_SCREENSHOT_DIR`` when set
(``GIZMOS_SCREENSHOT_DIR=docs/img`` renews docs/img/gizmos-1366.png and gizmos-390.png).
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

SHOT_DIR_ENV = "GIZMOS_SCREENSHOT_DIR"

#: elements wider than their box, or scrolling inside (an inner scroll bar), as text
OVERFLOW_JS = """
const bad = [];
for (const e of document.querySelectorAll('body *')) {
  if (!e.offsetParent && e.tagName !== 'BODY') continue;
  const cs = getComputedStyle(e);
  if (e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && cs.display !== 'inline')
    bad.push(e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth);
  if (/(auto|scroll)/.test(cs.overflowY + cs.overflowX) && e.scrollHeight > e.clientHeight + 1)
    bad.push('inner scroll ' + e.tagName + '.' + e.className);
  if (parseFloat(cs.fontSize) < 12 && e.textContent.trim()) bad.push('small text ' + e.tagName + '.' + e.className);
}
const d = document.documentElement;
if (d.scrollWidth > d.clientWidth + 1) bad.push('page ' + d.scrollWidth + '>' + d.clientWidth);
return bad.slice(0, 10);
"""


@pytest.fixture
def server(tmp_path):
    app = build_app(tmp_path / "games")
    with serving(app) as url:
        yield app, url


@pytest.fixture
def browser():
    with chromium() as drv:
        yield drv




@pytest.mark.parametrize("width, height", [(1366, 768), (390, 844)])
def test_browser_plays_a_whole_gizmos_game_by_clicks(server, browser, tmp_path, width, height):
    app, url = server
    drv = browser
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                        {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 500})
    wait = WebDriverWait(drv, 30, poll_frequency=0.05)
    drv.get(url + "table?game=gizmos")
    wait.until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#seat-1 option")) > 1)
    assert drv.find_element(By.ID, "game").get_attribute("value") == "gizmos"
    assert drv.find_element(By.ID, "title").text == "Gizmos"
    assert not drv.find_element(By.ID, "packs").is_displayed()
    Select(drv.find_element(By.ID, "seat-1")).select_by_value("greedy")
    drv.find_element(By.ID, "seed").send_keys("11")
    drv.find_element(By.ID, "start").click()
    body = lambda d: d.find_element(By.TAG_NAME, "body")  # noqa: E731
    wait.until(lambda d: body(d).get_attribute("data-done") in ("true", "false"))
    Select(drv.find_element(By.ID, "speed")).select_by_value("0")
    gid = drv.execute_script("return new URLSearchParams(location.hash.slice(1)).get('game')")
    session = app.state.store.games[gid].session
    assert session.game_name == "gizmos" and session.seats == ["human", "greedy"] and session.game.seed == 11
    shot_taken, clicks, deadline = False, 0, time.time() + 300
    while body(drv).get_attribute("data-done") != "true":
        assert time.time() < deadline, "the game did not end in time"
        wait.until(lambda d: body(d).get_attribute("data-done") == "true"
                   or body(d).get_attribute("data-human-to-move") == "true")
        if body(drv).get_attribute("data-done") == "true":
            break
        bad = drv.execute_script(OVERFLOW_JS)
        assert bad == [], f"at {width}x{height}: {bad}"
        before = body(drv).get_attribute("data-decisions")
        try:
            buttons = drv.find_elements(By.CSS_SELECTOR, "button.opt")
            assert buttons, "a person's decision with no option on the page"
            buttons[0].click()
        except StaleElementReferenceException:
            continue
        clicks += 1
        wait.until(lambda d: body(d).get_attribute("data-decisions") != before
                   or body(d).get_attribute("data-done") == "true")
        if not shot_taken and clicks >= 25:
            folder = Path(os.environ.get(SHOT_DIR_ENV) or tmp_path)
            folder.mkdir(parents=True, exist_ok=True)
            shot = folder / f"gizmos-{width}.png"
            drv.save_screenshot(str(shot))
            assert shot.stat().st_size > 10_000
            shot_taken = True
    assert drv.execute_script(OVERFLOW_JS) == []
    assert clicks > 10
    # the end screen's scores and points by source are the engine's
    g = session.game
    assert g.is_terminal
    wait.until(lambda d: d.find_element(By.ID, "end").is_displayed())
    rows = drv.find_elements(By.CSS_SELECTOR, "#end-scores tbody tr")
    shown = {int(r.get_attribute("data-player")): int(r.find_elements(By.TAG_NAME, "td")[2].text) for r in rows}
    assert shown == dict(enumerate(int(x) for x in g.scores()))
    total = drv.find_element(By.CSS_SELECTOR, "#end-sources tr.total")
    assert [int(td.text) for td in total.find_elements(By.TAG_NAME, "td")] == [int(x) for x in g.scores()]
    end_text = drv.find_element(By.ID, "end").text
    assert "end-game upgrades" in end_text and "The game ended by the" in end_text
    folder = Path(os.environ.get(SHOT_DIR_ENV) or tmp_path)
    drv.save_screenshot(str(folder / f"gizmos-{width}-end.png"))
