"""Gizmos at the play table: the game's play module (electrify_env/gizmos/table.py), the
game-free session that plays it (electrify_env/play/table.py: moves, bots, undo, hints, saves,
views without hidden information) and ``electrify play --game gizmos`` in the terminal."""
from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from rich.console import Console

from electrify_env.games import get_game
from electrify_env.gizmos import Game
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.table import COLUMNS, table_view, turn_text
from electrify_env.play.table import SPECTATOR, PlayError, SeatError, TableSession
from electrify_env.savefile import InvalidSaveError
from electrify_env.play.terminal import main as play_main
from electrify_env.validation import IllegalActionError

BIG_SEED = 2 ** 61 + 123_457


def _hidden_ids(g: Game, seat: int | None) -> list[str]:
    """Card ids ``seat`` must not see now: every deck card, and the researched cards of another
    seat."""
    S, ids = g.state, g.cards.ids
    out = [ids[int(S[L.S_DECK + d * L.MAX_DECK + i])] for d in range(L.N_DECKS) for i in range(int(S[L.S_DECK_N + d]))]
    if S[L.S_PHASE] == L.PH_RESEARCH and seat != g.current_player:
        out += [ids[int(S[L.S_RES + i])] for i in range(int(S[L.S_RES_N]))]
    return out


def _check_no_hidden(s: TableSession, seat: int | None, answer) -> None:
    """No deck card, no other seat's researched card, no seed or generator word in ``answer``
    while the game runs (the seed is shown, under ``seed``, once it is over)."""
    g = s.game
    text = json.dumps(answer)
    for card in _hidden_ids(g, seat):
        assert not re.search(rf"\b{re.escape(card)}\b", text), f"hidden card {card} shown to seat {seat}"
    if not g.is_terminal:
        for w in [str(g.seed)] + [str(int(x)) for x in g.state[L.S_RNG:L.S_RNG + 4] if abs(int(x)) >= 10 ** 6]:
            assert w not in text, f"seed or generator word {w} shown to seat {seat}"
        assert all(v is None for v in _values(answer, "seed")) and not list(_values(answer, "seed_text"))


def _values(x, key):
    if isinstance(x, dict):
        for k, v in x.items():
            if k == key:
                yield v
            yield from _values(v, key)
    elif isinstance(x, list):
        for v in x:
            yield from _values(v, key)


def test_the_registry_names_each_games_play_module():
    assert get_game("gizmos").table().__name__ == "electrify_env.gizmos.table"
    assert get_game("electrify").table().__name__ == "electrify_env.play.electrify"


def test_the_view_draws_the_dashboard_the_triangle_and_the_row():
    g = Game(n_players=2, seed=3)
    v = table_view(g, 0)
    assert [r["level"] for r in v["display"]] == ["III", "II", "I"]
    assert [len(r["cards"]) for r in v["display"]] == [2, 3, 4]
    assert list(v["players"][0]["columns"]) == list(COLUMNS)
    assert len(v["row"]) == int(g.state[L.S_ROW:L.S_ROW + 4].sum()) == 6
    assert all(m["letter"] in "RYBK" and m["colour"] for m in v["row"])
    card = v["display"][0]["cards"][0]
    assert {"id", "cost", "colour", "effect", "points", "type"} <= set(card)
    # the prompt and options go to the seat on turn only; every option has an action id
    assert v["prompt"] and v["options"] and table_view(g, 1)["options"] == []
    assert {o["action"] for o in v["options"]} == set(int(a) for a in g.legal_actions())
    builds = [o for o in v["options"] if o["kind"] in ("file", "build")]
    assert builds and all(o["place"][0] == "display" for o in builds)


def test_turn_text_folds_the_payment_and_the_chain_under_the_main_action():
    steps = [{"kind": "build", "text": "build L1-03 from the display"}, {"kind": "spend", "text": "spend a red marble"},
             {"kind": "confirm", "text": "pay with the marbles and converters chosen"},
             {"kind": "use", "text": "use L1-09 (I, red pick, cost 1, 1 points): when ..."},
             {"kind": "pass", "text": "end the turn"}]
    assert turn_text(steps) == "build L1-03 from the display (paid with a red marble); then use L1-09"


def test_a_bot_game_ends_with_the_engines_scores_and_one_log_line_per_turn():
    s = TableSession("gizmos", n_players=3, seats=["random", "greedy", "random"], seed=11)
    s.run_bots()
    assert s.is_over and s.to_move is None
    end = s.end_summary()
    assert end["scores"] == [int(x) for x in s.game.scores()]
    assert end["winners"] == s.game.winners() and end["ranking"][0]["player"] in end["winners"]
    points = end["points_by_source"]["players"]
    assert points == s.game.points_by_source()
    assert [x["label"] for x in end["points_by_source"]["sources"]] == ["machines", "tokens", "end-game upgrades"]
    assert all(sum(p.values()) == sc for p, sc in zip(points, end["scores"]))
    assert end["score_by_round"][-1] == end["scores"] and len(end["score_by_round"]) == end["rounds"] + 1
    assert end["seed"] == 11 and end["ended_by"] in ("end condition", "round cap")
    turns = s.turns()
    assert sum(len(t["steps"]) for t in turns) == len(s.log) == len(s.game.history)
    assert all(a["player"] != b["player"] or a["round"] != b["round"] for a, b in zip(turns, turns[1:]))
    assert all(t["done"] for t in turns)
    # the same seed and seats give the same game (bots reseeded per decision)
    again = TableSession("gizmos", n_players=3, seats=["random", "greedy", "random"], seed=11)
    again.run_bots()
    assert again.game.history == s.game.history


def test_a_person_plays_a_whole_game_through_the_api_and_sees_nothing_hidden():
    s = TableSession("gizmos", n_players=2, seats=["human", "greedy"], seed=BIG_SEED)
    rng = np.random.default_rng(0)
    research_seen = 0
    while not s.is_over:
        s.run_bots()
        for seat in (SPECTATOR, 0, 1):
            _check_no_hidden(s, seat, s.view(seat))
        if s.is_over:
            break
        with pytest.raises(SeatError):
            s.play(s.options()[0].action, 1)
        with pytest.raises(PlayError):
            s.step_bot()
        research_seen += s.game.phase == "research"
        opts = s.view(0)["options"]
        assert opts == [o.to_dict() for o in s.options()]
        s.play(opts[int(rng.integers(len(opts)))]["action"], 0)
    end = s.view(0)["end"]
    assert end["scores"] == [int(x) for x in s.game.scores()]
    assert s.view(1)["seed"] == BIG_SEED == end["seed"]
    with pytest.raises(PlayError):
        s.play(0, 0)


def test_bad_seats_and_illegal_moves_are_refused_in_one_line():
    with pytest.raises(PlayError, match="unknown agent 'bogus'"):
        TableSession("gizmos", 2, ["human", "bogus"])
    with pytest.raises(PlayError, match="2 player"):
        TableSession("gizmos", 2, ["human"])
    s = TableSession("gizmos", 2, ["human", "random"], seed=1)
    illegal = next(a for a in range(L.N_ACTIONS) if a not in set(int(x) for x in s.game.legal_actions()))
    with pytest.raises(IllegalActionError):
        s.play(illegal, 0)
    assert s.seats == ["human", "random"] and s.log == []
    assert TableSession("gizmos", 2, None, seed=1).seats == ["human", "policy"]
    assert TableSession("gizmos", 3, None, seed=1).seats == ["human", "greedy", "greedy"]


def test_the_terminal_plays_a_whole_game_with_hint_undo_and_save_and_shows_the_end_screen(tmp_path):
    save = tmp_path / "g.json"
    answers = iter(["?", "x", "99", "h greedy", "1", "u", "1", f"s {save}"] + ["1"] * 3000)
    out = io.StringIO()
    rc = play_main(["--game", "gizmos", "--opponents", "random", "--seed", "5"], input_fn=lambda _: next(answers),
                   console=Console(file=out, width=120, highlight=False))
    text = out.getvalue()
    assert rc == 0
    assert "Gizmos: seed 5, player 0 (human), player 1 (random)" in text
    assert "energy row:" in text and "display III" in text and "type a number from 1 to" in text
    assert "hint (greedy): " in text and "undone: 1 decision(s) taken back" in text and f"saved to {save}" in text
    assert "The game ended by the" in text and "end-game upgrades" in text and "Seed 5: " in text
    assert re.search(r"round 1: You \w", text) and re.search(r"round 1: Player 1 \(random\) \w", text)
    # the save resumes where it was written: after one decision
    out = io.StringIO()
    assert play_main(["--game", "gizmos", "--load", str(save)], input_fn=lambda _: "q",
                     console=Console(file=out, width=120, highlight=False)) == 0
    assert "(resumed at decision 1)" in out.getvalue()


def test_the_terminal_refuses_options_gizmos_does_not_take(capsys):
    assert play_main(["--game", "gizmos", "--solo", "first_light"]) == 2
    assert "--solo: Gizmos has no such option" in capsys.readouterr().err
    assert play_main(["--game", "gizmos", "--players", "5"]) == 2
    assert "2-4 players" in capsys.readouterr().err


def test_undo_takes_back_a_persons_decision_and_the_bots_answer_the_same_way():
    s = TableSession("gizmos", 2, ["human", "greedy"], seed=21)
    s.play(s.options()[0].action, 0)
    s.run_bots()
    while s.to_move != 0:
        s.play(s.options()[0].action, 0)
        s.run_bots()
    mark, n_log = s.game.state.copy(), len(s.log)
    o = s.options()[-1]
    s.play(o.action, 0)
    s.run_bots()
    after = s.game.history[:]
    assert s.undo(0) >= 1 and np.array_equal(s.game.state, mark) and len(s.log) == n_log
    s.play(o.action, 0)
    s.run_bots()
    assert s.game.history == after
    with pytest.raises(PlayError, match="no decision of a person"):
        TableSession("gizmos", 2, ["greedy", "human"], seed=0).undo()


def test_a_hint_is_a_legal_option_of_a_gizmos_agent():
    s = TableSession("gizmos", 2, ["human", "random"], seed=22)
    h = s.hint("greedy")
    assert h.action in [o.action for o in s.options()]
    with pytest.raises(PlayError, match="unknown agent"):
        s.hint("trained")          # an Electrify agent: not one of Gizmos'


def test_a_gizmos_save_round_trips_and_a_bad_one_is_refused_naming_the_field(tmp_path):
    s = TableSession("gizmos", 2, ["human", "greedy"], seed=23)
    for _ in range(6):
        s.play(s.options()[-1].action, 0)
        s.run_bots()
    path = tmp_path / "g.json"
    s.save(path)
    t = TableSession.load(path)
    assert t.game_name == "gizmos" and t.seats == s.seats and t.log == s.log
    assert np.array_equal(t.game.state, s.game.state)
    t.play(t.options()[0].action, 0)           # it plays on
    d = json.loads(s.to_json())
    assert d["game_name"] == "gizmos" and d["game"]["card_set"]["path"] is None
    for edit, field in [(lambda d: d.update(game_name="chess"), "game_name"),
                        (lambda d: d["game"]["actions"].__setitem__(3, 10 ** 6), "actions[3]"),
                        (lambda d: d["game"]["card_set"].update(hash="x"), "card_set.hash"),
                        (lambda d: d["game"].update(seed=-1), "seed"),
                        (lambda d: d.update(seats=["human", "trained"]), "seats")]:
        bad = json.loads(s.to_json())
        edit(bad)
        with pytest.raises(InvalidSaveError, match=re.escape(field)):
            TableSession.from_dict(bad)


def test_a_recorded_gizmos_arena_game_replays_to_any_step():
    s = TableSession("gizmos", 2, ["greedy", "random"], seed=24)
    s.run_bots()
    rec = {"game": "gizmos", "n_players": 2, "seed": 24, "lineup": ["greedy", "random"],
           "actions": s.game.history}
    full = TableSession.from_record(rec)
    assert full.is_over and full.end_summary()["scores"] == s.end_summary()["scores"]
    half = TableSession.from_record(rec, step=9)
    assert len(half.log) == 9 and half.seats == ["greedy", "random"]
    with pytest.raises(IllegalActionError, match=r"actions\[2\]"):
        TableSession.from_record(dict(rec, actions=rec["actions"][:2] + [10 ** 6]))
