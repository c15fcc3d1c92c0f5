"""The balance report (agents/balance.py, ``electrify balance``): its numbers agree with the game
records and with independent replays, line-ups and seeds, input checks before any game, the CLI's
outputs and exit codes, and the same report for any --jobs."""
from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from electrify_env.agents import AgentError
from electrify_env.agents import balance as B
from electrify_env.agents.arena import ArenaConfig, make_tasks as arena_tasks, wilson_interval
from electrify_env import Game
from electrify_env.actions import decode
from electrify_env.cards import load_card_set
from electrify_env.cli import main as cli_main
from electrify_env.engine import layout as L
from electrify_env.validation import InvalidArgumentError

BASE = Path(__file__).resolve().parents[1] / "configs" / "cards" / "base.yaml"
TIMING = {"wall_seconds", "ms_per_move"}


def _run(tmp_path, name, **kw):
    cfg = dict(players=2, games=4, seed=1, progress=False)
    cfg.update(kw)
    return B.run_balance(B.BalanceConfig(out=str(tmp_path / name), **cfg))


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    """greedy against random, 2 deals x 2 seat orders."""
    return _run(tmp_path_factory.mktemp("bal"), "two", agents=["greedy", "random"])


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    """A 3-player line-up with a repeated spec, every rotation of one deal."""
    return _run(tmp_path_factory.mktemp("bal"), "three", agents=["greedy", "random", "random"],
                players=3, games=3, seed=2)


def _row(rows, **match):
    hits = [r for r in rows if all(r[k] == v for k, v in match.items())]
    assert len(hits) == 1, match
    return hits[0]


def _no_timing(x):
    if isinstance(x, dict):
        return {k: _no_timing(v) for k, v in x.items() if k not in TIMING and k != "seconds"}
    if isinstance(x, list):
        return [_no_timing(v) for v in x]
    return x


# ---- the numbers agree with the records --------------------------------------------------------
def test_points_by_source_add_up_to_the_scores_and_the_shares_to_one(two, three):
    for res in (two, three):
        recs, rows = res["records"], res["summary"]["points"]
        for r in recs:
            for seat, pb in enumerate(r["points_by_source"]):
                assert sum(pb.values()) == r["scores"][seat]       # the engine's counters
        everyone = _row(rows, population="all players")
        assert everyone["players"] == sum(r["n_players"] for r in recs)
        assert everyone["points"] == sum(sum(r["scores"]) for r in recs)
        for s in L.PTS_SOURCE_NAMES:
            assert everyone[s] == sum(pb[s] for r in recs for pb in r["points_by_source"])
        winners = _row(rows, population="winners")
        assert winners["players"] == sum(len(r["winners"]) for r in recs)
        assert winners["points"] == sum(r["scores"][s] for r in recs for s in r["winners"])
        for row in rows:
            if row["points"]:
                assert math.isclose(sum(row[f"{s}_share"] for s in B.SOURCES), 1.0)
                assert math.isclose(row["demand_share"] + row["research_share"], 1.0)  # no solo stars
                assert row["research_share"] == pytest.approx(
                    (row["research_space"] + row["research_group"]) / row["points"])
    # with several specs: one row per agent, and its players' points
    g = _row(two["summary"]["points"], population="agent greedy")
    assert g["players"] == 4
    assert g["points"] == sum(r["scores"][r["lineup"].index("greedy")] for r in two["records"])


def test_seat_wins_count_what_the_records_say(three):
    recs, rows = three["records"], three["summary"]["seats"]
    assert len(rows) == 3 and {r["lineup"] for r in rows} == {"greedy,random,random"}
    for seat in range(3):
        row = _row(rows, seat=seat)
        wins = sum(1 / len(r["winners"]) for r in recs if seat in r["winners"])
        assert row["games"] == 3 and row["wins"] == pytest.approx(wins)
        assert (row["ci_low"], row["ci_high"]) == wilson_interval(row["wins"], 3)
        assert row["fair"] == pytest.approx(1 / 3)
        assert row["deviation"] == pytest.approx(wins / 3 - 1 / 3)
        assert row["mean_decisions"] == pytest.approx(sum(r["moves"][seat] for r in recs) / 3)
    assert sum(r["win_share"] for r in rows) == pytest.approx(1.0)


def test_two_player_matchup_is_the_win_rate(two):
    recs = two["records"]
    (m,) = two["summary"]["matchups"]
    assert (m["agent"], m["opponent"], m["games"]) == ("greedy", "random", 4)
    wins = sum(1 / len(r["winners"]) for r in recs if r["lineup"].index("greedy") in r["winners"])
    assert m["wins"] == pytest.approx(wins) and m["win_rate"] == pytest.approx(wins / 4)
    assert (m["ci_low"], m["ci_high"]) == wilson_interval(m["wins"], 4)
    # the arena's per-agent table comes along, and agrees
    a = _row(two["summary"]["agents"], agent="greedy")
    assert a["wins"] == pytest.approx(wins) and a["games"] == 4


def test_multiplayer_matchup_averages_the_seat_pairs(three):
    (m,) = three["summary"]["matchups"]
    assert (m["agent"], m["opponent"], m["games"]) == ("greedy", "random", 3)
    expect = 0.0
    for r in three["records"]:
        keys = [tuple(k) for k in r["tiebreak_keys"]]
        g = r["lineup"].index("greedy")
        others = [s for s in range(3) if s != g]
        expect += sum(1.0 if keys[g] > keys[s] else 0.5 if keys[g] == keys[s] else 0.0
                      for s in others) / 2
    assert m["wins"] == pytest.approx(expect)


def test_purchase_and_plan_counts_match_a_replay(two):
    """Replay every record with the decision view (decision().kind, refs) and count purchases,
    free plays, offers and Plan choices independently of the report's reader."""
    cards = load_card_set()
    bought, free, offered, faces, plans = {}, {}, {}, {}, [0] * L.N_SECTORS
    for r in two["records"]:
        game = Game(n_players=2, seed=r["seed"])
        for a in r["actions"]:
            d = game.decision()
            if d.kind == "plan" and decode(a).kind == "plan":     # not an any-time action (R13)
                plans[decode(a).args["sector"]] += 1
            if d.kind in ("acquire", "card_choice"):
                def card(o):
                    if o.kind == "card_hand":
                        return cards.card_ids[o.refs["card"]]
                    return cards.model.basic[o.args["basic"]].id
                opts = [o for o in d.options if o.kind in ("card_hand", "card_basic")]
                chosen = [card(o) for o in opts if o.id == a]
                if d.kind == "acquire" and decode(a).kind in ("pass", "card_hand", "card_basic"):
                    for c in {card(o) for o in opts}:
                        offered[c] = offered.get(c, 0) + 1
                table = bought if d.kind == "acquire" else free
                for c in chosen:
                    table[c] = table.get(c, 0) + 1
                for o in opts:
                    if o.id == a and o.kind == "card_basic" and d.kind == "acquire":
                        faces.setdefault(card(o), [0, 0])[o.args["face"]] += 1
            game.step(a)
        assert game.is_terminal and game.scores().tolist() == r["scores"]
    rows = {r["card"]: r for r in two["summary"]["cards"]}
    assert len(rows) == cards.n_ind + cards.n_basic
    assert sum(bought.values()) > 0
    for cid, row in rows.items():
        assert row["bought"] == bought.get(cid, 0), cid
        assert row["free"] == free.get(cid, 0), cid
        assert row["offered"] == offered.get(cid, 0), cid
        if row["deck"] == "basic":
            assert [row["bought_face0"], row["bought_face1"]] == faces.get(cid, [0, 0]), cid
        else:
            assert row["bought_face0"] is None and row["bought_face1"] is None
        if row["offered"]:
            assert row["buy_rate_when_offered"] == pytest.approx(row["bought"] / row["offered"])
    top = max(rows.values(), key=lambda r: r["bought"])
    buyers = [(r, s) for r in two["records"] for s in range(2) if r["facts"]["bought"].get(top["card"], [0, 0])[s]]
    assert top["buyers"] == len(buyers)
    assert top["buyer_wins"] == pytest.approx(sum(1 / len(r["winners"]) for r, s in buyers if s in r["winners"]))
    secs = two["summary"]["sectors"]
    assert [s["plans"] for s in secs] == plans and sum(plans) == 4 * 2 * L.N_ROUNDS
    assert [s["sector"] for s in secs] == list(cards.sector_names)


def test_boosts_and_length_agree_with_the_records(two):
    recs, summ = two["records"], two["summary"]
    n_boost_decisions = 0
    for r in recs:
        game = Game(n_players=2, seed=r["seed"])
        for a in r["actions"]:
            # the decision itself, not an any-time action taken while it waits (R13)
            n_boost_decisions += game.decision().kind == "boost" and decode(a).kind in ("boost", "pass")
            game.step(a)
    offered = sum(s[f"{k}_offered"] for s in summ["sectors"] for k in B.BOOST_KINDS)
    taken = sum(s[f"{k}_taken"] for s in summ["sectors"] for k in B.BOOST_KINDS)
    assert offered == n_boost_decisions and 0 < taken <= offered
    length = {(r["what"], r["seat"]): r for r in summ["length"]}
    assert length[("decisions", "all")]["mean"] == pytest.approx(sum(len(r["actions"]) for r in recs) / 4)
    assert length[("rounds", "all")]["min"] == length[("rounds", "all")]["max"] == L.N_ROUNDS
    for seat in range(2):
        assert length[("decisions", str(seat))]["mean"] == pytest.approx(sum(r["moves"][seat] for r in recs) / 4)
    assert all(sum(r["moves"]) == r["decisions"] == len(r["actions"]) for r in recs)


# ---- line-ups and seeds --------------------------------------------------------------------------
def test_a_mirror_deals_every_game_anew_and_rotated_lineups_use_the_arena_seeds():
    cfg = B.BalanceConfig(agents=["greedy"], players=4, games=6, seed=5, out=None)
    cfg.validate()                       # a mirror needs no multiple of the player count
    tasks, groups = B.make_tasks(cfg)
    assert groups == [("greedy",) * 4] and B.is_mirror(groups[0])
    assert len({t.game.seed for t in tasks}) == 6
    assert all(t.game.lineup == ("greedy",) * 4 for t in tasks)
    cfg = B.BalanceConfig(agents=["research_rush", "greedy"], games=4, seed=5, out=None)
    tasks, groups = B.make_tasks(cfg)
    arena, _ = arena_tasks(ArenaConfig(agents=["research_rush", "greedy"], games=4, seed=5, out=None))
    assert [t.game for t in tasks] == arena
    assert groups == [("research_rush", "greedy")]
    # 2 players, several specs: every pairing; a spec given twice also plays itself (a mirror)
    cfg = B.BalanceConfig(agents=["greedy", "random", "greedy"], games=2, out=None)
    assert cfg.lineups() == [("greedy", "random"), ("greedy", "greedy")]


def test_report_is_the_same_for_any_jobs(two, tmp_path):
    again = _run(tmp_path, "jobs2", agents=["greedy", "random"], jobs=2)
    assert _no_timing(again["summary"]) == _no_timing(two["summary"])
    assert _no_timing(again["records"]) == _no_timing(two["records"])
    assert (tmp_path / "jobs2" / "cards.csv").read_text() == (Path(two["files"][0]).parent / "cards.csv").read_text()


def test_custom_card_set_tech_packs_and_solo(tmp_path):
    text = BASE.read_text().replace('name: "Coal Shovel"', 'name: "Coal Spade"', 1)
    assert "Coal Spade" in text
    path = tmp_path / "edited.yaml"
    path.write_text(text)
    res = _run(tmp_path, "cards", agents=["random"], cards=str(path), tech_packs=["grid"], games=2)
    cs = load_card_set(path, tech_packs=[BASE.parent / "tech_grid.yaml"])
    assert res["summary"]["card_set_hash"] == cs.hash != load_card_set().hash
    assert all(r["card_set_hash"] == cs.hash and r["card_set"] == str(path) for r in res["records"])
    assert _row(res["summary"]["cards"], card="B01")["name"] == "B01 Coal Spade"
    packed = [r for r in res["summary"]["cards"] if r["deck"].endswith(f"({cs.pack_names[0]})")]
    assert len(packed) == cs.n_ind - load_card_set(path).n_ind > 0
    solo = _run(tmp_path, "solo", agents=["greedy"], solo=["first_light"], games=2)
    for r in solo["records"]:
        pb = r["points_by_source"][0]
        assert sum(pb.values()) == r["solo"]["final_score"] and pb["solo_stars"] == r["solo"]["star_points"]
    winners = _row(solo["summary"]["points"], population="winners")
    assert winners["players"] == sum(r["solo"]["won"] for r in solo["records"])
    assert "seats" not in solo["summary"] and solo["summary"]["solo"][0]["games"] == 2
    assert (tmp_path / "solo" / "solo.csv").exists() and not (tmp_path / "solo" / "seats.csv").exists()


# ---- input checks before any game ----------------------------------------------------------------
@pytest.fixture
def no_games(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a game was played before the input was checked")
    monkeypatch.setattr(B, "play_games", refuse)


@pytest.mark.parametrize("kw, err, msg", [
    (dict(agents=["greedy", "random"], games=3), InvalidArgumentError, "games: must be a multiple of 2"),
    (dict(agents=["greedy", "random"], players=4, games=4), InvalidArgumentError,
     "agents: a 4-player report takes one spec"),
    (dict(agents=["greedy"], players=5), InvalidArgumentError, "players must be 2, 3 or 4"),
    (dict(agents=[]), InvalidArgumentError, "agents: give at least one"),
    (dict(agents=["nobody"]), AgentError, "unknown agent 'nobody'"),
    (dict(agents=["greedy"], games=0), InvalidArgumentError, "games must be a positive integer"),
    (dict(agents=["greedy"], seed=-1), InvalidArgumentError, "seed must be an integer"),
    (dict(agents=["greedy"], jobs=0), InvalidArgumentError, "jobs must be a positive integer"),
    (dict(agents=["greedy"], solo=["moon"]), ValueError, "unknown scenario"),
    (dict(agents=["greedy"], tech_packs=["moon"]), InvalidArgumentError, "unknown tech pack 'moon'"),
    (dict(agents=["greedy"], cards="no/such/cards.yaml"), ValueError, "cards.yaml"),
    (dict(agents=["greedy:weights=no/such.yaml"]), ValueError, "no/such.yaml"),
])
def test_bad_input_is_refused_before_playing(no_games, tmp_path, kw, err, msg):
    with pytest.raises(err, match=msg):
        B.run_balance(B.BalanceConfig(out=str(tmp_path / "out"), progress=False, **kw))


def test_an_output_path_that_is_a_file_is_refused_before_playing(no_games, tmp_path):
    f = tmp_path / "taken"
    f.write_text("x")
    with pytest.raises(InvalidArgumentError, match="out: .* is a file"):
        B.run_balance(B.BalanceConfig(agents=["greedy"], out=str(f), progress=False))
    (tmp_path / "o" / "cards.csv").mkdir(parents=True)
    with pytest.raises(InvalidArgumentError, match="cards.csv is a folder"):
        B.run_balance(B.BalanceConfig(agents=["greedy"], out=str(tmp_path / "o"), progress=False))


# ---- the command line ---------------------------------------------------------------------------
def test_cli_balance_writes_the_report(tmp_path, capsys):
    out = tmp_path / "rep"
    assert cli_main(["balance", "--agents", "random", "--players", "3", "--games", "2", "--seed", "4",
                     "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "points by source" in text and "random x3" in text and "2 games in" in text
    for name in ("results.json", "points.csv", "seats.csv", "cards.csv", "sectors.csv", "length.csv",
                 "games.jsonl", "points.png", "seats.png", "cards.png", "sectors.png", "length.png"):
        assert (out / name).stat().st_size > 0, name
        assert f"wrote {out / name}" in text
    res = json.loads((out / "results.json").read_text())
    assert res["config"]["agents"] == ["random"] and res["games"] == 2
    with (out / "seats.csv").open() as f:
        seats = list(csv.DictReader(f))
    assert [int(r["seat"]) for r in seats] == [0, 1, 2]
    assert sum(float(r["wins"]) for r in seats) == pytest.approx(2)
    assert len((out / "games.jsonl").read_text().splitlines()) == 2
    assert png_size(out / "points.png")[0] > 100


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG file (its IHDR chunk)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


@pytest.mark.parametrize("argv, msg", [
    (["--agents", "greedy", "--games", "0"], "argument --games: games must be a positive integer"),
    (["--agents", "greedy", "--seed", "-3"], "argument --seed: seed must be an integer"),
    (["--agents", "greedy", "--players", "1"], "argument --players:"),
    (["--agents", "greedy", "--jobs", "0"], "argument --jobs: jobs must be a positive integer"),
    (["--agents", "greedy,random", "--games", "3"], "electrify: error: games: must be a multiple of 2"),
    (["--agents", "nobody"], "electrify: error: unknown agent 'nobody'"),
    (["--agents", "greedy", "--tech", "moon"], "electrify: error: unknown tech pack 'moon'"),
])
def test_cli_balance_bad_input_exits_2(no_games, tmp_path, capsys, argv, msg):
    assert cli_main(["balance", *argv, "--out", str(tmp_path / "o"), "--quiet"]) == 2
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if "error:" in line]
    assert len(errors) == 1 and msg in errors[0] and err.strip().splitlines()[-1] == errors[0]
