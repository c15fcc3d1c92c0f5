"""What the real-browser tests share: the web app served on a free loopback port in this process,
and a headless Debian chromium driven by Selenium (the test is skipped, with the reason, where
chromium, its driver or Selenium is missing).  Import it after ``pytest.importorskip`` of
``uvicorn`` and ``selenium``."""
from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn
from selenium import webdriver
from selenium.common.exceptions import WebDriverException

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free loopback port in a thread; yields its address (``http://.../``)."""
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    th = threading.Thread(target=srv.run, daemon=True)
    th.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    assert srv.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        srv.should_exit = True
        th.join(10)


@contextmanager
def chromium(*args: str) -> Iterator[Any]:
    """A headless chromium WebDriver with the extra command-line ``args``; skips the test where
    chromium or its driver is missing or does not start."""
    if not CHROMIUM or not DRIVER:
        pytest.skip("no chromium / chromedriver on this machine "
                    "(apt-get install -y chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", *args):
        opts.add_argument(arg)
    try:
        drv = webdriver.Chrome(service=webdriver.ChromeService(executable_path=DRIVER), options=opts)
    except WebDriverException as err:
        pytest.skip(f"chromium did not start: {str(err).splitlines()[0]}")
    try:
        yield drv
    finally:
        drv.quit()
