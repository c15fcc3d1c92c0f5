"""A bounded load test of ``electrify serve`` on loopback: many concurrent games against greedy,
each human moving as soon as the server answers.

    python benchmarks/web_load.py [--games 50] [--seconds 60] [--max-requests 200000] [--json FILE]

Starts the server in a subprocess (127.0.0.1, a free port, a temporary games folder), plays one
warm-up game (the greedy bot's code compiles or loads from numba's cache), then runs ``--games``
clients at once for ``--seconds`` or until ``--max-requests`` answers, whichever comes first: each
client creates a game ``["human", "greedy"]``, sends the human's move (a seeded random legal
option) whenever the human is on turn and asks for the bot's move otherwise, and starts a new
game when one ends.  Prints requests/s, the p50/p99/max latency of a human move and of a bot
move, the errors (non-200 answers and failed requests), games finished, and the server's
resident memory before and after.  The server is stopped at the end; nothing stays behind.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (Linux ``/proc``; nan elsewhere)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


async def _client(http, k: int, deadline: float, budget: dict, out: dict) -> None:
    """One human at one table after another until the deadline or the request budget."""
    rng = np.random.default_rng(k)
    state = None
    gid = tok = None
    while time.perf_counter() < deadline and budget["left"] > 0:
        budget["left"] -= 1
        t = time.perf_counter()
        kind = "new"
        try:
            if state is None or state["view"]["is_over"]:
                if state is not None:
                    out["games"] += 1
                r = await http.post("/api/games", json={"seats": ["human", "greedy"]})
                if r.status_code == 200:
                    body = r.json()
                    gid, tok, state = body["id"], body["tokens"]["0"], body["state"]
            elif state["view"]["human_to_move"]:
                kind = "move"
                opts = state["view"]["options"]
                act = opts[int(rng.integers(len(opts)))]["action"]
                r = await http.post(f"/api/games/{gid}/move", json={"token": tok, "action": act})
                if r.status_code == 200:
                    state = r.json()["state"]
            else:
                kind = "bot"
                r = await http.post(f"/api/games/{gid}/bot", json={"token": tok})
                if r.status_code == 200:
                    state = r.json()["state"]
            if r.status_code != 200:
                out["errors"].append(f"{kind}: HTTP {r.status_code}: {r.text[:200]}")
                state = None
        except Exception as err:  # noqa: BLE001 - every failure counts as an error, none stops the run
            out["errors"].append(f"{kind}: {type(err).__name__}: {err}")
            state = None
        out["latency"][kind].append(time.perf_counter() - t)


async def _load(base: str, games: int, seconds: float, max_requests: int) -> dict:
    import httpx
    out = {"latency": {"new": [], "move": [], "bot": []}, "errors": [], "games": 0}
    budget = {"left": max_requests}
    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
        t0 = time.perf_counter()
        await asyncio.gather(*(_client(http, k, t0 + seconds, budget, out) for k in range(games)))
        out["wall_seconds"] = time.perf_counter() - t0
    return out


def _wait_ready(base: str, proc: subprocess.Popen, timeout: float = 120) -> None:
    import httpx
    end = time.time() + timeout
    while time.time() < end:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            if httpx.get(base + "/api/meta", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.2)
    raise SystemExit(f"the server did not answer within {timeout:.0f} s")


def _warm_up(base: str) -> None:
    """One whole game, so that compiling is not counted."""
    import httpx
    with httpx.Client(base_url=base, timeout=120) as http:
        body = http.post("/api/games", json={"seats": ["human", "greedy"]}).json()
        gid, tok, state = body["id"], body["tokens"]["0"], body["state"]
        while not state["view"]["is_over"]:
            if state["view"]["human_to_move"]:
                r = http.post(f"/api/games/{gid}/move",
                              json={"token": tok, "action": state["view"]["options"][0]["action"]})
            else:
                r = http.post(f"/api/games/{gid}/bot", json={"token": tok})
            state = r.json()["state"]


def _ms(xs: list[float], q: float) -> float:
    return float(np.quantile(np.asarray(xs), q) * 1000) if xs else float("nan")


def run(games: int = 50, seconds: float = 60.0, max_requests: int = 200_000) -> dict:
    """Start a server, load it, stop it; the figures as a dict."""
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="electrify_load_") as folder:
        cmd = [sys.executable, "-m", "electrify_env.play.web", "--host", "127.0.0.1", "--port", str(port),
               "--state-dir", folder, "--max-games", str(games * 2 + 8)]
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _wait_ready(base, proc)
            _warm_up(base)
            before = rss_mib(proc.pid)
            res = asyncio.run(_load(base, games, seconds, max_requests))
            after = rss_mib(proc.pid)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
    lat = res["latency"]
    n = sum(len(v) for v in lat.values())
    return {"games_at_once": games, "seconds": round(res["wall_seconds"], 1), "requests": n,
            "requests_per_s": round(n / res["wall_seconds"], 1), "games_finished": res["games"],
            "human_move_ms": {"n": len(lat["move"]), "p50": round(_ms(lat["move"], 0.5), 1),
                              "p99": round(_ms(lat["move"], 0.99), 1), "max": round(_ms(lat["move"], 1.0), 1)},
            "bot_move_ms": {"n": len(lat["bot"]), "p50": round(_ms(lat["bot"], 0.5), 1),
                            "p99": round(_ms(lat["bot"], 0.99), 1)},
            "errors": len(res["errors"]), "first_errors": res["errors"][:5],
            "server_rss_mib": {"before": round(before, 1), "after": round(after, 1)},
            "cpus": os.cpu_count()}


def main(argv=None) -> int:
    """Run the load test and print its figures (and write them to ``--json``)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=50, help="games played at once (default 50)")
    ap.add_argument("--seconds", type=float, default=60.0, help="length of the run (default 60)")
    ap.add_argument("--max-requests", type=int, default=200_000, help="stop after this many answers")
    ap.add_argument("--json", default=None, metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    if args.games < 1 or args.seconds <= 0 or args.max_requests < 1:
        ap.error("--games, --seconds and --max-requests must be positive")
    res = run(args.games, args.seconds, args.max_requests)
    h, b = res["human_move_ms"], res["bot_move_ms"]
    print(f"{res['games_at_once']} games at once for {res['seconds']} s on {res['cpus']} CPUs: "
          f"{res['requests']} requests, {res['requests_per_s']} requests/s, {res['games_finished']} games finished")
    print(f"human move: p50 {h['p50']} ms, p99 {h['p99']} ms, max {h['max']} ms ({h['n']} moves)")
    print(f"bot move:   p50 {b['p50']} ms, p99 {b['p99']} ms ({b['n']} moves)")
    print(f"errors: {res['errors']}" + "".join(f"\n  {e}" for e in res["first_errors"]))
    print(f"server memory: {res['server_rss_mib']['before']} MiB before, {res['server_rss_mib']['after']} MiB after")
    if args.json:
        Path(args.json).write_text(json.dumps(res, indent=2) + "\n")
    return 1 if res["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
