"""Smoke tests of the agent scripts with tiny budgets: the mcts timing, the ladder and the arena pooling."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]


def test_mcts_timing_smoke():
    """benchmarks/mcts_timing.py prints the per-searched-move figures of the games it names."""
    res = subprocess.run([sys.executable, "benchmarks/mcts_timing.py", "--agent", "mcts:iters=4:top_k=2",
                          "--games", "2", "--seed", "3"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "electrify arena --agents mcts:iters=4:top_k=2,greedy --players 2 --games 2 --seed 3" in out
    m = re.search(r"^searched moves: (\d+) of (\d+) moves", out, flags=re.M)
    assert m and 0 < int(m.group(1)) < int(m.group(2))
    for what in ("whole act\\(\\)", "search only", "CPU time"):
        f = re.search(rf"per searched move, {what} \[ms\]: +mean +([\d.]+) +p50 +([\d.]+) +p99 +([\d.]+) +max +([\d.]+)", out)
        assert f, what
        mean, p50, p99, mx = map(float, f.groups())
        assert 0 < p50 <= p99 <= mx and mean <= mx
    assert re.search(r"won [012] of 2 games", out)


def test_mcts_timing_lookahead_solo():
    """The timing script also times a policy's rollout lookahead in solo games (the shipped solo
    policy searches at buying and placing), and refuses an agent that does not search."""
    res = subprocess.run([sys.executable, "benchmarks/mcts_timing.py", "--agent", "trained_solo",
                          "--solo", "long_haul", "--games", "1", "--seed", "3"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr
    out = res.stdout
    assert "electrify arena --agents trained_solo --solo long_haul --games 1 --seed 3" in out
    m = re.search(r"^searched moves: (\d+) of (\d+) moves", out, flags=re.M)
    assert m and 0 < int(m.group(1)) < int(m.group(2))
    f = re.search(r"per searched move, search only \[ms\]: +mean +([\d.]+) +p50 +([\d.]+)", out)
    assert f and 0 < float(f.group(2))
    assert re.search(r"succeeded in [01] of 1 games", out)
    bad = subprocess.run([sys.executable, "benchmarks/mcts_timing.py", "--agent", "greedy", "--games", "1"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "must be a searching agent" in bad.stderr


# (part, games it plays in --quick, agents) as benchmarks/ladder.py --quick runs them
LADDER_QUICK = [("greedy_random", 20, ["greedy", "random"]),
                ("mcts_greedy", 4, ["mcts:iters=36:top_k=3:horizon=2", "greedy"]),
                ("solo_random_greedy", 2 * 8 * 4, ["random", "greedy"]),
                ("solo_mcts", 8, ["mcts:iters=36:top_k=3:horizon=2"])]


@pytest.mark.slow
def test_ladder_quick(tmp_path):
    """The quick ladder runs its four arena parts, prints each command and table, writes each
    part's outputs with the games it names, and its figures are sane: greedy beats random,
    random wins no solo scenario, greedy outscores random on every scenario."""
    res = subprocess.run([sys.executable, "benchmarks/ladder.py", "--quick", "--jobs", "1",
                          "--out", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert res.returncode == 0, res.stderr
    out = {}
    for part, games, agents in LADDER_QUICK:
        assert f"== {part}: electrify arena --agents {','.join(agents)}" in res.stdout
        assert re.search(rf"^\({games} games, \d+ s\)$", res.stdout, flags=re.M), part
        folder = tmp_path / part
        out[part] = json.loads((folder / "results.json").read_text())
        assert out[part]["config"]["agents"] == agents
        assert len((folder / "games.jsonl").read_text().splitlines()) == games
        assert (folder / "chart.png").stat().st_size > 0
    (gr,) = out["greedy_random"]["pairings"]
    assert (gr["agent"], gr["opponent"], gr["games"]) == ("greedy", "random", 20)
    assert gr["win_rate"] >= 0.9 and gr["mean_score"] > gr["opponent_mean_score"] + 15
    (mg,) = out["mcts_greedy"]["pairings"]
    assert mg["games"] == 4 and 0 <= mg["win_rate"] <= 1
    assert mg["mean_score"] > 15 and mg["opponent_mean_score"] > 15     # both play sensibly
    solo = {(r["agent"], r["scenario"]): r for r in out["solo_random_greedy"]["solo"]}
    scenarios = {s for _, s in solo}
    assert len(solo) == 16 and len(scenarios) == 8
    for s in scenarios:
        rnd, gre = solo[("random", s)], solo[("greedy", s)]
        assert rnd["games"] == gre["games"] == 4 and rnd["success"] == 0
        assert gre["mean_final_score"] > rnd["mean_final_score"] + 15, s
    assert solo[("greedy", "first_light")]["success"] == 1
    mcts = out["solo_mcts"]["solo"]
    assert len(mcts) == 8 and all(r["games"] == 1 and r["mean_final_score"] > 20 for r in mcts)


def test_pool_arena_adds_the_games_of_runs_on_different_seeds(tmp_path):
    """benchmarks/pool_arena.py: the pooled pairing holds every game of both runs and their wins
    (each run's own count); two runs of one seed or of other agents are refused."""
    import importlib.util

    from electrify_env.agents.arena import ArenaConfig, run_arena
    spec = importlib.util.spec_from_file_location("pool_arena",
                                                  Path(__file__).resolve().parents[1] / "benchmarks" / "pool_arena.py")
    pool_arena = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pool_arena)

    runs = {}
    for name, agents, seed in (("a", ["greedy", "random"], 1), ("b", ["greedy", "random"], 2),
                               ("c", ["greedy", "random"], 1), ("d", ["random", "greedy"], 3)):
        out = tmp_path / name
        runs[name] = run_arena(ArenaConfig(agents=agents, games=4, seed=seed, out=str(out), progress=False))
    pooled = pool_arena.pool([tmp_path / "a", tmp_path / "b"])["pairings"][0]
    own = [runs[n]["summary"]["pairings"][0] for n in "ab"]
    assert pooled["games"] == 8 and pooled["wins"] == own[0]["wins"] + own[1]["wins"]
    assert pooled["agent"] == "greedy" and pooled["ci_low"] <= pooled["win_rate"] <= pooled["ci_high"]
    with pytest.raises(ValueError, match="share a seed"):
        pool_arena.pool([tmp_path / "a", tmp_path / "c"])
    with pytest.raises(ValueError, match="agents"):
        pool_arena.pool([tmp_path / "a", tmp_path / "d"])
    with pytest.raises(ValueError, match="at least two"):
        pool_arena.pool([tmp_path / "a"])
    # the same agent named two ways in two runs: pooled once asked to count them as one
    run_arena(ArenaConfig(agents=["greedy:weights=configs/agents/greedy.yaml", "random"], games=4, seed=5, out=str(tmp_path / "e"),
                          progress=False))
    with pytest.raises(ValueError, match="agents"):
        pool_arena.pool([tmp_path / "a", tmp_path / "e"])
    same = pool_arena.pool([tmp_path / "a", tmp_path / "e"], {"greedy:weights=configs/agents/greedy.yaml": "greedy"})["pairings"][0]
    assert same["agent"] == "greedy" and same["games"] == 8
