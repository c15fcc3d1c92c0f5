"""``electrify ladder``: the round robin of a fixed pool (configs/ladder/), its ranked table, plot
and the ratings block the difficulty levels read."""
from __future__ import annotations

import json

import pytest

pytest.importorskip("openskill")

from electrify_env.agents.ladder import (LADDER_FILE, LadderError, format_markdown,  # noqa: E402
                                         load_ladder_config, run_ladder)
from electrify_env.cli import main  # noqa: E402
from electrify_env.play.levels import Measurement  # noqa: E402


def test_the_shipped_ladder_file_holds_baselines_searches_and_policies():
    cfg = load_ladder_config()
    assert cfg.players == 2 and cfg.games % 2 == 0
    assert {"random", "greedy", "trained_2p", "trained_2p_net"} <= set(cfg.pool)
    budgets = {s for s in cfg.pool if s.startswith("mcts:") and "guide=" not in s}
    assert len(budgets) == 3
    assert any("guide=trained_2p" in s for s in cfg.pool)


@pytest.mark.parametrize("text, message", [
    ("players: 2\ngames: 3\nseed: 1\npool: [random, greedy]\n", r"games: .*must be even"),
    ("players: 3\ngames: 2\nseed: 1\npool: [random, greedy]\n", r"players: .*2-player round robin"),
    ("players: 2\ngames: 2\nseed: 1\npool: [random, random]\n", r"pool: .*names random twice"),
    ("players: 2\ngames: 2\nseed: 1\npool: [random]\n", r"pool: "),
    ("players: 2\ngames: 2\nseed: 1\npool: [random, greedy]\nspeed: 3\n", r"speed: "),
])
def test_a_bad_ladder_file_is_one_line_naming_the_field(tmp_path, text, message):
    f = tmp_path / "l.yaml"
    f.write_text(text)
    with pytest.raises(LadderError, match=message) as err:
        load_ladder_config(f)
    assert "\n" not in str(err.value) and "l.yaml" in str(err.value)


def test_overrides_replace_the_files_fields():
    cfg = load_ladder_config(LADDER_FILE, pool=["random", "greedy"], games=2, seed=5, jobs=2, out=None)
    assert (cfg.pool, cfg.games, cfg.seed, cfg.jobs, cfg.out) == (["random", "greedy"], 2, 5, 2, None)


def test_a_ladder_ranks_the_pool_and_writes_its_table_plot_and_levels_block(tmp_path):
    cfg = load_ladder_config(pool=["random", "greedy", "demand_rush"], games=2, seed=11,
                             out=str(tmp_path / "lad"), progress=False)
    cfg.source = None
    res = run_ladder(cfg)
    rows = res["rows"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert [r["ordinal"] for r in rows] == sorted((r["ordinal"] for r in rows), reverse=True)
    assert all(r["mu_low"] < r["mu"] < r["mu_high"] and r["games"] == 4 for r in rows)
    assert "--pool random,greedy,demand_rush --games 2 --seed 11" in res["command"]
    out = tmp_path / "lad"
    for name in ("ladder.json", "ladder.md", "ladder.png", "results.json", "games.jsonl"):
        assert (out / name).is_file(), name
    data = json.loads((out / "ladder.json").read_text())
    Measurement.model_validate(data["measured"])          # the levels file's form
    assert set(data["measured"]["ratings"]) == {"random", "greedy", "demand_rush"}
    md = (out / "ladder.md").read_text()
    assert md.count("\n| ") == 3 and res["command"] in md
    # the same seed gives the same games
    again = run_ladder(load_ladder_config(pool=["random", "greedy", "demand_rush"], games=2, seed=11,
                                          out=None, progress=False))
    assert [(r["agent"], r["win_rate"]) for r in again["rows"]] == [(r["agent"], r["win_rate"]) for r in rows]


def test_format_markdown_states_the_command_and_machine():
    rows = [{"rank": 1, "agent": "greedy", "mu": 30.0, "mu_low": 25.0, "mu_high": 35.0, "ordinal": 22.5,
             "win_rate": 0.75, "ci_low": 0.5, "ci_high": 0.9, "games": 8, "ms_per_move": 0.2}]
    md = format_markdown(rows, "electrify ladder --jobs 2", "2 CPU cores", 8, 12.0)
    assert "| 1 | `greedy` | 30.0 [25.0, 35.0] | 22.5 | 75.0% [50.0, 90.0] | 8 | 0.20 |" in md
    assert "`electrify ladder --jobs 2`: 8 seat-rotated games in 12 s on 2 CPU cores" in md


def test_the_cli_refuses_a_bad_pool_in_one_line(capsys, tmp_path):
    assert main(["ladder", "--games", "3", "--out", "-"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("electrify ladder: error:") and "even" in err and "\n" not in err


# ---- the Gizmos ladder -------------------------------------------------------------------------

def test_the_shipped_gizmos_ladder_file_plays_the_gizmos_registry():
    from electrify_env.agents.ladder import LADDER_FILES
    from electrify_env.agents.registry import agents_of, parse_spec

    cfg = load_ladder_config(game="gizmos")
    assert cfg.game == "gizmos" and cfg.source.endswith("configs/ladder/gizmos-2p.yaml")
    assert load_ladder_config(LADDER_FILES["gizmos"]).game == "gizmos"
    assert cfg.players == 2 and cfg.games % 2 == 0 and {"random", "greedy"} <= set(cfg.pool)
    assert any(s.startswith("gumbel:") and "rollout=greedy" in s for s in cfg.pool)
    for spec in cfg.pool:
        assert parse_spec(spec, "gizmos").name in agents_of("gizmos")
    assert load_ladder_config().game == "electrify"
    assert load_ladder_config(game="electrify").source == load_ladder_config().source


@pytest.mark.parametrize("kwargs, message", [
    ({"game": "chess"}, r"unknown game 'chess'"),
    ({"path": LADDER_FILE, "game": "gizmos"}, r"electrify-2p.yaml: game: the file is a ladder of 'electrify', not of 'gizmos'"),
])
def test_a_bad_game_is_one_line(kwargs, message):
    with pytest.raises(LadderError, match=message) as err:
        load_ladder_config(**kwargs)
    assert "\n" not in str(err.value)


def test_a_ladder_file_naming_an_unknown_game_names_the_field(tmp_path):
    f = tmp_path / "g.yaml"
    f.write_text("game: chess\nplayers: 2\ngames: 2\nseed: 1\npool: [random, greedy]\n")
    with pytest.raises(LadderError, match=r"g.yaml: game: .*unknown game 'chess'") as err:
        load_ladder_config(f)
    assert "\n" not in str(err.value)


def test_a_gizmos_ladder_ranks_its_pool_and_writes_gizmos_records(tmp_path):
    cfg = load_ladder_config(game="gizmos", pool=["random", "greedy"], games=2, seed=4,
                             out=str(tmp_path / "gz"), progress=False)
    cfg.source = None
    res = run_ladder(cfg)
    rows = res["rows"]
    assert sorted(r["agent"] for r in rows) == sorted(cfg.pool) and [r["rank"] for r in rows] == [1, 2]
    assert all(r["games"] == 2 for r in rows)
    assert res["command"].startswith("electrify ladder --game gizmos --pool random,greedy --games 2 --seed 4")
    out = tmp_path / "gz"
    records = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert len(records) == 2 and all(r["game"] == "gizmos" for r in records)
    data = json.loads((out / "ladder.json").read_text())
    assert data["config"]["game"] == "gizmos"
    Measurement.model_validate(data["measured"])
    assert res["command"] in (out / "ladder.md").read_text()
    again = run_ladder(load_ladder_config(game="gizmos", pool=["random", "greedy"], games=2, seed=4, out=None,
                                          progress=False))
    assert [(r["agent"], r["win_rate"], r["mu"]) for r in again["rows"]] == \
        [(r["agent"], r["win_rate"], r["mu"]) for r in rows]


def test_the_electrify_ladder_json_has_no_game_key(tmp_path):
    res = run_ladder(load_ladder_config(pool=["random", "greedy"], games=2, seed=2, out=str(tmp_path / "e"),
                                        progress=False))
    assert "--game" not in res["command"]
    assert "game" not in json.loads((tmp_path / "e" / "ladder.json").read_text())["config"]


def test_the_cli_plays_the_gizmos_ladder_and_refuses_a_foreign_agent(capsys, tmp_path):
    assert main(["ladder", "--game", "gizmos", "--pool", "random,greedy", "--games", "2", "--seed", "1",
                 "--quiet", "--out", str(tmp_path / "cli")]) == 0
    text = capsys.readouterr().out
    assert "electrify ladder --game gizmos" in text and (tmp_path / "cli" / "ladder.md").is_file()
    assert main(["ladder", "--game", "gizmos", "--pool", "random,mcts", "--games", "2", "--out", "-",
                 "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert "unknown agent 'mcts' of Gizmos" in err and "\n" not in err
    assert main(["ladder", "--game", "chess", "--out", "-"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
