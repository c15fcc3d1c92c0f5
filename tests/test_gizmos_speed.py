"""benchmarks/bench_gizmos.py runs end to end on a tiny budget and refuses bad arguments."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_gizmos.py"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_gizmos", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_bench_prints_one_line_per_player_count(capsys):
    _bench().main(["--games", "2", "--players", "2", "4", "--seed", "3"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    for n, line in zip((2, 4), lines):
        m = re.match(rf"gizmos random play in numba, {n} players: ([\d,]+) decisions/s, .*\(2 games, (\d+) decisions, seed 3\)", line)
        assert m, line
        assert int(m.group(2)) > 0 and int(m.group(1).replace(",", "")) > 0


@pytest.mark.parametrize("args", [["--games", "0"], ["--players", "5"], ["--seed", "-1"]])
def test_bench_refuses_bad_arguments(args, capsys):
    with pytest.raises(SystemExit) as e:
        _bench().main(args)
    assert e.value.code == 2
    assert "must be" in capsys.readouterr().err


def test_bench_start_prints_the_cold_and_the_cached_start(capsys, monkeypatch):
    mod = _bench()
    calls = []
    monkeypatch.setattr(mod, "start_times", lambda: calls.append(1) or (30.5, 1.25))
    mod.main(["--start"])
    out = capsys.readouterr().out.splitlines()
    assert calls == [1] and len(out) == 2
    assert out[0].startswith("gizmos cold start") and out[0].endswith("30.50 s")
    assert out[1].startswith("gizmos cached start") and "1.25 s" in out[1] and "target <= 1.5 s" in out[1]


@pytest.mark.slow
def test_bench_start_times_fresh_processes():
    cold, cached = _bench().start_times()
    assert cold > cached > 0
