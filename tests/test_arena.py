"""The arena (pairings, seat rotation, statistics, files, reproducibility for any --jobs), the
replays and the CLI's arena and replay commands."""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from electrify_env.agents import AgentError
from electrify_env.agents.arena import (
    ArenaConfig, format_table, make_tasks, pairings, run_arena, wilson_interval,
)
from electrify_env.agents.replay import ReplayError, load_replay, replay_game, run_replay, save_replay
from electrify_env.cli import main as cli_main


def _strip(records):
    """Records without the timing fields (the only part that may differ between runs)."""
    return [{k: v for k, v in r.items() if k != "seconds"} for r in records]


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(50, 100)
    assert math.isclose(lo, 0.4038, abs_tol=1e-4) and math.isclose(hi, 0.5962, abs_tol=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and math.isclose(hi, 0.2775, abs_tol=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_pairings_and_seat_rotation():
    assert pairings(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert pairings(["greedy", "greedy"]) == [("greedy", "greedy")]
    tasks, groups = make_tasks(ArenaConfig(agents=["random", "greedy"], games=4, out=None))
    assert groups == [("random", "greedy")]
    assert [t.lineup for t in tasks] == [("random", "greedy"), ("greedy", "random")] * 2
    assert tasks[0].seed == tasks[1].seed != tasks[2].seed      # each deal with the seats swapped
    tasks, _ = make_tasks(ArenaConfig(agents=["random", "greedy", "mcts"], players=3, games=3, out=None))
    assert [t.lineup for t in tasks] == [("random", "greedy", "mcts"), ("greedy", "mcts", "random"),
                                         ("mcts", "random", "greedy")]
    assert len({t.seed for t in tasks}) == 1


def test_bad_configurations_are_refused():
    with pytest.raises(AgentError, match="unknown agent 'nobody'"):
        run_arena(ArenaConfig(agents=["random", "nobody"], games=2, out=None, progress=False))
    with pytest.raises(ValueError, match="multiple of 2"):
        run_arena(ArenaConfig(agents=["random", "greedy"], games=3, out=None, progress=False))
    with pytest.raises(ValueError, match="line-up of exactly 3 agents"):
        run_arena(ArenaConfig(agents=["random", "greedy"], players=3, games=3, out=None, progress=False))
    with pytest.raises(ValueError, match="at least two agents"):
        run_arena(ArenaConfig(agents=["random"], games=2, out=None, progress=False))
    with pytest.raises(ValueError, match="unknown scenario\\(s\\) moon; known: first_light"):
        run_arena(ArenaConfig(agents=["random"], solo=["moon"], games=1, out=None, progress=False))


def test_seeded_arena_is_reproducible_for_any_jobs(tmp_path):
    cfg = dict(agents=["random", "greedy", "mcts:iters=4:top_k=2"], games=2, seed=11, progress=False)
    one = run_arena(ArenaConfig(**cfg, jobs=1, out=str(tmp_path / "one")))
    two = run_arena(ArenaConfig(**cfg, jobs=2, out=str(tmp_path / "two")))
    assert _strip(one["records"]) == _strip(two["records"])
    drop = ("ms_per_move",)
    a = [{k: v for k, v in r.items() if k not in drop} for r in one["summary"]["agents"]]
    b = [{k: v for k, v in r.items() if k not in drop} for r in two["summary"]["agents"]]
    assert a == b and one["summary"]["pairings"] == two["summary"]["pairings"]
    other = run_arena(ArenaConfig(**{**cfg, "seed": 12}, jobs=1, out=None))
    assert _strip(other["records"]) != _strip(one["records"])


def test_arena_statistics_and_files(tmp_path):
    res = run_arena(ArenaConfig(agents=["greedy", "random"], games=4, seed=3, out=str(tmp_path),
                                progress=False))
    s = res["summary"]
    assert [r["agent"] for r in s["agents"]] == ["greedy", "random"]
    g, r = s["agents"]
    assert g["games"] == r["games"] == 4 and g["wins"] + r["wins"] == 4
    assert g["win_rate"] == 1.0 and g["ci_low"] > 0.4 and g["mean_margin"] > 0
    assert g["rating_mu"] > r["rating_mu"] and g["rating_sigma"] > 0
    assert s["pairings"][0]["agent"] == "greedy" and s["pairings"][0]["win_rate"] == 1.0
    names = {p.name for p in res["files"]}
    assert names == {"results.json", "agents.csv", "pairings.csv", "games.jsonl", "chart.png"}
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["config"]["seed"] == 3 and len(data["agents"]) == 2
    assert (tmp_path / "chart.png").read_bytes()[:4] == b"\x89PNG"
    assert "greedy vs random" in format_table(s)
    lines = (tmp_path / "games.jsonl").read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[1])["lineup"] == ["random", "greedy"]


def test_three_player_line_up():
    res = run_arena(ArenaConfig(agents=["greedy", "random", "random"], players=3, games=3, seed=1,
                                out=None, progress=False))
    agents = {r["agent"]: r for r in res["summary"]["agents"]}
    assert agents["greedy"]["games"] == 3 and agents["random"]["games"] == 6
    assert res["summary"]["pairings"] == []


def test_solo_arena(tmp_path):
    res = run_arena(ArenaConfig(agents=["random", "greedy"], solo=["first_light", "blackout"], games=2,
                                seed=0, out=str(tmp_path), progress=False))
    rows = res["summary"]["solo"]
    assert [(r["agent"], r["scenario"]) for r in rows] == [
        ("random", "first_light"), ("random", "blackout"), ("greedy", "first_light"), ("greedy", "blackout")]
    assert all(r["games"] == 2 and 0 <= r["success"] <= 1 for r in rows)
    assert rows[2]["mean_final_score"] > rows[0]["mean_final_score"]
    assert (tmp_path / "solo.csv").exists() and "first_light" in format_table(res["summary"])


def test_replay_rebuilds_arena_games(tmp_path):
    res = run_arena(ArenaConfig(agents=["greedy", "random"], games=2, seed=5, out=str(tmp_path),
                                progress=False))
    rec = load_replay(tmp_path / "games.jsonl", game=1)
    assert rec["index"] == 1
    g = replay_game(rec)
    assert g.is_terminal and list(g.scores()) == res["records"][1]["scores"]
    single = save_replay(rec, tmp_path / "one.json")
    assert load_replay(single)["actions"] == rec["actions"]
    lines: list[str] = []
    run_replay(rec, auto=True, out=lines.append)
    assert lines[-1].startswith("scores: seat 0 (random)")
    assert sum("Electrify: round" in x for x in lines) >= 13      # the table at every round
    # interactive: Enter, then 't' (to the end of the turn), 'b' (table), then quit
    answers = iter(["", "t", "b", "q"])
    lines = []
    run_replay(rec, out=lines.append, ask=lambda prompt: next(answers))
    assert lines[-1] == "(stopped)"
    with pytest.raises(ReplayError, match="no game with index 9; it holds indexes 0..1"):
        load_replay(tmp_path / "games.jsonl", game=9)
    bad = dict(rec, actions=rec["actions"][:5] + [10_000])
    with pytest.raises(ReplayError, match="does not replay"):
        replay_game(bad)
    (tmp_path / "junk.json").write_text("{}")
    with pytest.raises(ReplayError, match="no arena game records"):
        load_replay(tmp_path / "junk.json")


def test_cli_arena_and_replay(tmp_path, capsys):
    out = tmp_path / "cli"
    assert cli_main(["arena", "--agents", "random,greedy", "--games", "2", "--seed", "4",
                     "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "win rate" in text and "random vs greedy" in text and "games.jsonl" in text
    assert cli_main(["replay", str(out / "games.jsonl"), "--game", "0", "--auto"]) == 0
    assert "scores: seat 0" in capsys.readouterr().out
    assert cli_main(["arena", "--agents", "random,nobody", "--games", "2", "--out", "-", "--quiet"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert cli_main(["arena", "--agents", "random", "--solo", "first_light", "--games", "1",
                     "--out", "-", "--quiet"]) == 0
    assert "first_light" in capsys.readouterr().out


@pytest.mark.slow
def test_greedy_beats_random_in_the_arena():
    res = run_arena(ArenaConfig(agents=["greedy", "random"], games=200, seed=1, jobs=2, out=None,
                                progress=False))
    assert res["summary"]["pairings"][0]["win_rate"] >= 0.95


def test_replay_of_a_game_on_a_card_set_file(tmp_path):
    """A game played on another card set (balance ``--cards``) replays on that card set."""
    from electrify_env.agents.arena import GameTask, play_task

    base = Path(__file__).resolve().parents[1] / "configs" / "cards" / "base.yaml"
    text = base.read_text()
    edit = "{id: D1a, level: 1, requires: {0: 2}, basic: [{kind: points, value: 2}]"
    assert edit in text
    cards = tmp_path / "my_cards.yaml"
    cards.write_text(text.replace(edit, edit.replace("value: 2", "value: 3")))
    rec = play_task(GameTask(0, 0, ("greedy", "random"), 3, (1, 2), None, (), str(cards)))
    g = replay_game(rec)
    assert g.is_terminal and list(g.scores()) == rec["scores"] and g.cards.hash == rec["card_set_hash"]
    cards.unlink()
    with pytest.raises(ReplayError, match="card_set"):
        replay_game(rec)


def _torch_threads(_task) -> int:
    import torch

    return torch.get_num_threads()


def test_parallel_map_in_this_process_plays_with_one_torch_thread_and_gives_it_back():
    """jobs=1 runs the tasks here, with one torch thread as a worker would (a network's moves took
    about 20 ms instead of 0.3 on a busy machine with torch's default threads), then restores it."""
    import torch

    from electrify_env.parallel import parallel_map

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        assert parallel_map(_torch_threads, [0, 1, 2], jobs=1, progress=False) == [1, 1, 1]
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
