"""A real browser plays a whole 2-player game of Gizmos at the table page (``/table?game=gizmos``
of ``electrify serve``) by clicks only, at 1366x768 and at a phone's 390x844.

Debian's chromium and chromium-driver, driven by Selenium, as in tests/test_web_browser.py;
without them the test is skipped with the reason.  Each click is on the first option button of
the page (on the board where the option stands, else in the prompt).  After every click no
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
    Select(drv.find_element(By.ID, "opponent")).select_by_value("greedy")
    drv.find_element(By.ID, "seed").send_keys("11")
    drv.find_element(By.ID, "start").click()
    body = lambda d: d.find_element(By.TAG_NAME, "body")  # noqa: E731
    wait.until(lambda d: body(d).get_attribute("data-done") in ("true", "false"))
    shot_taken, clicks, deadline = False, 0, time.time() + 300
    while body(drv).get_attribute("data-done") != "true":
        assert time.time() < deadline, "the game did not end in time"
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
    # the end screen's totals are the engine's scores
    tables = app.state.tables.games
    (rec,) = tables.values()
    g = rec["session"].game
    assert g.is_terminal
    totals = [int(e.text) for e in drv.find_elements(By.CSS_SELECTOR, "#end-scores td.total")]
    assert totals == [int(x) for x in g.scores()]
    assert "end-game upgrades" in drv.find_element(By.ID, "end").text
    folder = Path(os.environ.get(SHOT_DIR_ENV) or tmp_path)
    drv.save_screenshot(str(folder / f"gizmos-{width}-end.png"))
