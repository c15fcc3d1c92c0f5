"""Smoke tests of the agent scripts with tiny budgets: the greedy weight tuner and the ladder."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from agents.greedy import load_weights

ROOT = Path(__file__).resolve().parents[1]


def test_tune_greedy_smoke(tmp_path):
    out = tmp_path / "w.yaml"
    res = subprocess.run([sys.executable, "benchmarks/tune_greedy.py", "--steps", "1", "--games", "2",
                          "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    assert "step   0  share" in res.stdout
    load_weights(out)   # a valid weights file


@pytest.mark.slow
def test_ladder_quick(tmp_path):
    res = subprocess.run([sys.executable, "benchmarks/ladder.py", "--quick", "--jobs", "1",
                          "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert res.returncode == 0, res.stderr
    for part in ("greedy_random", "mcts_greedy", "solo_random_greedy", "solo_mcts"):
        assert (tmp_path / part / "results.json").exists()
