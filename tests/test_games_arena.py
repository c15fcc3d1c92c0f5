"""The arena plays any registered game (``ArenaConfig(game=...)``, ``electrify arena --game``):
Gizmos games with Gizmos' own agents, records that carry their game and replay to the same
result, the table form of Electrify's; an Electrify run's records and results.json name no game."""
from __future__ import annotations

import json

import pytest

from electrify_env.agents import AgentError
from electrify_env.agents.arena import ArenaConfig, config_record, format_table, make_tasks, run_arena
from electrify_env.agents.replay import ReplayError, load_replay
from electrify_env.cli import main as cli_main
from electrify_env.games import get_game
from electrify_env.validation import InvalidArgumentError


def gizmos_config(tmp_path=None, **kw):
    base = dict(agents=["greedy", "random"], games=4, seed=5, out=None if tmp_path is None else str(tmp_path),
                progress=False, game="gizmos")
    base.update(kw)
    return ArenaConfig(**base)


def test_a_gizmos_arena_plays_its_agents_and_records_replay(tmp_path):
    res = run_arena(gizmos_config(tmp_path / "out"))
    recs = res["records"]
    assert len(recs) == 4 and all(r["game"] == "gizmos" for r in recs)
    assert [r["lineup"] for r in recs] == [["greedy", "random"], ["random", "greedy"]] * 2
    for rec in recs:
        game = get_game("gizmos").new_game(n_players=rec["n_players"], seed=rec["seed"])
        for a in rec["actions"]:
            game.step(a)
        assert game.is_terminal
        assert rec["scores"] == game.scores().tolist() and rec["winners"] == game.winners()
        assert rec["tiebreak_keys"] == game.tiebreak_keys().tolist()
        assert rec["points_by_source"] == game.points_by_source()
        assert rec["card_set_hash"] == game.cards.hash
    greedy = next(r for r in res["summary"]["agents"] if r["agent"] == "greedy")
    assert greedy["win_rate"] >= 0.75
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert saved["config"]["game"] == "gizmos"
    lines = [json.loads(x) for x in (tmp_path / "out" / "games.jsonl").read_text().splitlines()]
    assert [x["actions"] for x in lines] == [r["actions"] for r in recs]
    with pytest.raises(ReplayError, match="holds games of gizmos; the replay steps through Electrify games only"):
        load_replay(tmp_path / "out" / "games.jsonl", 0)


def test_a_gizmos_arena_is_reproducible_and_takes_line_ups():
    def strip(recs):
        return [{k: v for k, v in r.items() if k != "seconds"} for r in recs]

    assert strip(run_arena(gizmos_config())["records"]) == strip(run_arena(gizmos_config())["records"])
    res = run_arena(gizmos_config(agents=["greedy", "random", "random"], players=3, games=3))
    assert [r["lineup"] for r in res["records"]] == [["greedy", "random", "random"],
                                                     ["random", "random", "greedy"],
                                                     ["random", "greedy", "random"]]
    assert all(r["n_players"] == 3 for r in res["records"])


def test_electrify_records_and_config_name_no_game():
    cfg = ArenaConfig(agents=["random", "random"], games=2, seed=1, out=None, progress=False)
    assert "game" not in config_record(cfg)
    assert "game" in config_record(gizmos_config())
    rec = run_arena(cfg)["records"][0]
    assert "game" not in rec and list(rec)[:3] == ["format", "version", "index"]
    tasks, _ = make_tasks(cfg)
    assert {t.game for t in tasks} == {"electrify"}


@pytest.mark.parametrize("kw, err, match", [
    (dict(agents=["mcts", "random"]), AgentError, r"unknown agent 'mcts' of Gizmos"),
    (dict(players=5, agents=["random"] * 5, games=5), ValueError, r"^players must be 2, 3 or 4, got 5$"),
    (dict(tech_packs=["grid"]), InvalidArgumentError, r"^Gizmos takes none of the options tech_packs"),
    (dict(game="chess"), InvalidArgumentError, r"^unknown game 'chess'; games: electrify, gizmos$"),
])
def test_a_gizmos_arena_refuses_what_it_cannot_play(kw, err, match):
    with pytest.raises(err, match=match):
        run_arena(gizmos_config(**kw))


def test_cli_arena_and_agents_take_a_game(capsys):
    assert cli_main(["arena", "--game", "gizmos", "--agents", "greedy,random", "--games", "2",
                     "--seed", "5", "--out", "-", "--quiet"]) == 0
    out = capsys.readouterr().out
    header = format_table({"agents": [], "pairings": []}).splitlines()[0]
    assert out.splitlines()[0] == header and "greedy vs random" in out
    assert cli_main(["agents", "--game", "gizmos"]) == 0
    listed = [line.split(":")[0] for line in capsys.readouterr().out.splitlines() if not line.startswith(" ")]
    assert listed == ["random", "greedy", "gumbel", "policy"]
    assert cli_main(["arena", "--game", "gizmos", "--agents", "mcts,random", "--games", "2",
                     "--out", "-", "--quiet"]) == 2
    assert "unknown agent 'mcts' of Gizmos" in capsys.readouterr().err


def test_a_gizmos_balance_report_counts_endings_and_tableaux(tmp_path):
    from electrify_env.agents.balance import BalanceConfig, format_report, run_balance

    res = run_balance(BalanceConfig(agents=["greedy", "random"], games=4, seed=2, out=str(tmp_path / "b"),
                                    progress=False, game="gizmos"))
    summ, recs = res["summary"], res["records"]
    assert summ["game"] == "gizmos" and "cards" not in summ and "sectors" not in summ
    assert [r["population"] for r in summ["points"]][:2] == ["winners", "all players"]
    assert {"machines", "tokens", "upgrades"} <= set(summ["points"][1])
    assert summ["points"][1]["points"] == sum(sum(r["scores"]) for r in recs)
    assert sum(r["games"] for r in summ["endings"]) == 4
    assert {r["ended_by"] for r in summ["endings"]} <= {"end condition", "round cap"}
    rounds = [r for r in summ["length"] if r["what"] == "rounds"][0]
    assert rounds["mean"] == sum(r["facts"]["rounds"] for r in recs) / 4
    winner_machines = sum(len(r["facts"]["tableaux"][w]) for r in recs for w in r["winners"])
    assert sum(r["winner_machines"] for r in summ["tableaux"]) == winner_machines > 0
    assert [r["lineup"] for r in recs] == [["greedy", "random"], ["random", "greedy"]] * 2
    text = format_report(summ)
    assert text.startswith("Gizmos: 4 games") and "\nendings\n" in text and "\ntableaux: " in text
    for name in ("endings.csv", "tableaux.csv", "seats.csv", "points.png"):
        assert (tmp_path / "b" / name).is_file()
    assert json.loads((tmp_path / "b" / "results.json").read_text())["config"]["game"] == "gizmos"


def test_cli_balance_takes_a_game(capsys):
    assert cli_main(["balance", "--game", "gizmos", "--agents", "greedy", "--games", "2", "--seed", "1",
                     "--out", "-", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Gizmos: 2 games") and "greedy x2" in out
    assert cli_main(["balance", "--game", "gizmos", "--agents", "random", "--solo", "first_light",
                     "--games", "1", "--out", "-", "--quiet"]) == 2
    assert "Gizmos takes 2-4 players, got 1" in capsys.readouterr().err
