"""PlaySession (electrify_env/play/session.py): seats, moves, bots, undo, hints, saves, views."""
from __future__ import annotations

import json

import numpy as np
import pytest

from electrify_env.engine import layout as L
from electrify_env.play.session import (
    HUMAN, SPECTATOR, IllegalActionError, PlayError, PlaySession, SeatError,
)
from electrify_env.savefile import InvalidSaveError


def _play_out(s: PlaySession, seed: int = 0, max_moves: int = 5000) -> None:
    """Play ``s`` to the end: people pick a random option (pass preferred half the time)."""
    rng = np.random.default_rng(seed)
    for _ in range(max_moves):
        if s.is_over:
            return
        if s.human_to_move:
            opts = s.options()
            passes = [o for o in opts if o.kind == "pass"]
            o = passes[0] if passes and rng.random() < 0.5 else opts[rng.integers(len(opts))]
            s.play(o.action, seat=s.to_move)
        else:
            s.run_bots()
    raise AssertionError("the game did not end")


def test_defaults_and_options_have_places():
    s = PlaySession(seed=1)
    assert s.seats == [HUMAN, "greedy"] and s.n_players == 2 and s.to_move == 0 and s.human_to_move
    opts = s.options()
    plans = [o for o in opts if o.kind == "plan"]
    assert [o.place for o in plans] == [("sector", 0, k) for k in range(L.N_SECTORS)]
    assert all(o.text for o in opts)
    hand = [o for o in opts if o.kind == "discard"]
    assert hand and all(o.place == ("hand", o.args["hand_slot"]) and o.any_time for o in hand)
    assert json.dumps([o.to_dict() for o in opts])          # JSON-ready


def test_illegal_and_wrong_seat_moves_change_nothing():
    s = PlaySession(seats=["human", "random"], seed=2)
    before = s.game.state.copy()
    illegal = next(a for a in range(L.N_ACTIONS) if not s.game.legal_mask()[a])
    with pytest.raises(IllegalActionError, match=f"action {illegal}"):
        s.play(illegal)
    for bad in (-1, L.N_ACTIONS, "3", 2.5, None):
        with pytest.raises(IllegalActionError):
            s.play(bad)
    with pytest.raises(SeatError, match="not on turn"):
        s.play(s.options()[0].action, seat=1)
    with pytest.raises(SeatError, match="seat must be"):
        s.play(s.options()[0].action, seat=7)
    with pytest.raises(SeatError, match="a person's"):
        s.step_bot()
    assert np.array_equal(s.game.state, before) and s.log == []
    s.play(s.options()[0].action, seat=0)
    with pytest.raises(SeatError, match="not by a person"):
        s.play(s.options()[0].action)


def test_bad_constructor_arguments():
    with pytest.raises(PlayError, match="seats: 2 player"):
        PlaySession(n_players=2, seats=["human"])
    with pytest.raises(PlayError, match=r"seats\[1\].*unknown agent"):
        PlaySession(seats=["human", "grumpy"])
    with pytest.raises(PlayError, match=r"seats\[0\]"):
        PlaySession(seats=[3, "greedy"])
    with pytest.raises(ValueError, match="seed"):
        PlaySession(seed=-1)


def test_full_game_log_matches_history():
    s = PlaySession(seats=["human", "greedy", "random"], seed=3)
    _play_out(s)
    assert s.is_over and s.to_move is None and s.options() == []
    assert [e.action for e in s.log] == s.game.history
    assert [e.index for e in s.log] == list(range(len(s.log)))
    assert {e.seat for e in s.log} == {0, 1, 2}
    assert all(e.who == f"player {e.seat} ({s.seats[e.seat]})" for e in s.log)
    with pytest.raises(PlayError, match="over"):
        s.step_bot()
    v = s.view(0)
    assert v["is_over"] and v["result"]["scores"] == [int(x) for x in s.game.scores()]


def test_bot_moves_are_reproducible_and_undo_returns_to_the_person():
    s = PlaySession(seats=["human", "greedy"], seed=4)
    s.play(s.options()[1].action)
    s.run_bots()
    assert s.human_to_move
    mark = s.game.state.copy()
    n_log = len(s.log)
    o = s.options()[0]
    s.play(o.action)
    s.run_bots()
    after = s.game.state.copy()
    taken = s.undo()
    assert taken >= 1 and np.array_equal(s.game.state, mark) and len(s.log) == n_log
    s.play(o.action)                    # the same move again: the bots answer the same way
    s.run_bots()
    assert np.array_equal(s.game.state, after)
    with pytest.raises(PlayError, match="no decision of a person"):
        PlaySession(seats=["greedy", "human"], seed=0).undo()


def test_undo_refuses_across_another_persons_move():
    s = PlaySession(seats=["human", "human"], seed=5)
    s.play(s.options()[0].action, seat=0)
    s.play(s.options()[0].action, seat=1)
    with pytest.raises(PlayError, match="player 1 .* decided after"):
        s.undo(0)
    assert s.undo(1) == 1 and s.to_move == 1


def test_hint_is_a_legal_option():
    s = PlaySession(seats=["human", "greedy"], seed=6)
    h = s.hint("greedy")
    assert h.action in [o.action for o in s.options()]
    with pytest.raises(PlayError, match="unknown agent"):
        s.hint("nobody")


def test_save_load_round_trip(tmp_path):
    s = PlaySession(seats=["human", "greedy"], seed=7, tech_packs=("grid",))
    for _ in range(5):
        s.play(s.options()[-1].action)
        s.run_bots()
    path = tmp_path / "s.json"
    s.save(path)
    t = PlaySession.load(path)
    assert t.seats == s.seats and t.game.same_as(s.game) and t.log == s.log
    assert t.game.cards.hash == s.game.cards.hash and len(t.game.cards.pack_names) == 1
    t.play(t.options()[0].action)          # it plays on


@pytest.mark.parametrize("edit, field", [
    (lambda d: d.update(format="x"), "format"),
    (lambda d: d.update(seats=["human"]), "seats"),
    (lambda d: d.update(seats=["human", "nobody"]), "seats"),
    (lambda d: d.update(extra=1), "extra"),
    (lambda d: d["game"]["actions"].__setitem__(0, 0), "game"),
    (lambda d: d["game"].update(seed=-5), "seed"),
])
def test_bad_saves_are_refused_naming_the_field(edit, field):
    s = PlaySession(seats=["human", "greedy"], seed=8)
    s.play(s.options()[2].action)
    s.run_bots()
    d = json.loads(s.to_json())
    edit(d)
    with pytest.raises(InvalidSaveError) as err:
        PlaySession.from_dict(d)
    assert field in str(err.value)
    with pytest.raises(InvalidSaveError, match="json"):
        PlaySession.from_json("{nope")


def test_r04_view_hides_other_hands_and_the_secret_plan():
    s = PlaySession(seats=["human", "human"], seed=9)
    plan = s.options()[3]                      # seat 0 dials sector 2 in secret
    assert plan.kind == "plan"
    s.play(plan.action, seat=0)
    v1 = s.view(1)
    assert v1["players"][0]["hand"] is None and v1["players"][0]["hand_count"] == 6
    assert v1["players"][0]["plan"] is None and v1["players"][0]["chosen"] is None
    assert v1["log"][0]["action"] is None and "secret" in v1["log"][0]["text"]
    assert s.view(0)["players"][0]["plan"] == plan.args["sector"]
    assert s.view(0)["log"][0]["action"] == plan.action
    assert v1["options"] and s.view(0)["options"] == []        # only the seat on turn
    spec = s.view(SPECTATOR)
    assert all(p["hand"] is None for p in spec["players"]) and spec["options"] == []
    text = json.dumps(v1)
    for slot in range(s.view(0)["players"][0]["hand_count"]):
        assert s.view(0)["players"][0]["hand"][slot]["name"] not in text
    assert all(set(d) == {"deck", "name", "size", "discard_size", "discard_top"} for d in v1["decks"])


def test_solo_session():
    s = PlaySession(scenario="first_light", seats=["human"], seed=10)
    assert s.n_players == 1
    v = s.view(0)
    assert v["solo"]["target"] == 18 and len(v["solo"]["challenges"]) >= 1
    with pytest.raises(SeatError):
        s.view(1)
    bots = PlaySession(scenario="first_light", seats=["greedy"], seed=10)
    bots.run_bots()
    assert bots.is_over and bots.view(SPECTATOR)["result"]["solo"]["final_score"] >= 0


def test_from_record_replays_an_arena_game_and_names_a_bad_action():
    from electrify_env.agents.arena import GameTask, play_task

    rec = play_task(GameTask(0, 0, ("greedy", "random"), 7, (1, 2), None, ()))
    s = PlaySession.from_record(rec)
    assert s.is_over and s.seats == ["greedy", "random"]
    assert [int(x) for x in s.game.scores()] == rec["scores"]
    assert [ev.action for ev in s.log] == rec["actions"]
    half = PlaySession.from_record(rec, step=10)
    assert len(half.game.history) == 10 and not half.is_over
    game = PlaySession.from_record(rec, step=5).game
    illegal = int(np.flatnonzero(game.legal_mask() == 0)[0])
    for wrong in (illegal, L.N_ACTIONS + 3, "x"):
        bad = dict(rec, actions=rec["actions"][:5] + [wrong] + rec["actions"][6:])
        with pytest.raises(IllegalActionError, match=r"actions\[5\]"):
            PlaySession.from_record(bad)


def test_a_save_of_format_version_1_still_loads_and_saves_as_version_2():
    """tests/golden/play_session_v1.json: an Electrify save written before saves named their
    game (human against greedy, seed 7, the grid tech pack, 85 decisions)."""
    import hashlib
    from pathlib import Path

    from electrify_env.game import Game
    from electrify_env.play.table import TableSession

    path = Path(__file__).parent / "golden" / "play_session_v1.json"
    raw = json.loads(path.read_text())
    assert raw["version"] == 1 and "game_name" not in raw
    s = PlaySession.load(path)
    assert s.seats == ["human", "greedy"] and len(s.log) == 85 and s.game.same_as(Game.from_dict(raw["game"]))
    # the log in players' words is the one the session wrote the file with
    turns = json.dumps(s.turns(None), sort_keys=True).encode()
    assert hashlib.sha256(turns).hexdigest() == "a48bba7980354a4cab874400419e3518c07723bf828e8f00a6889ee65fdcf88e"
    d = s.to_dict()
    assert (d["version"], d["game_name"]) == (2, "electrify")
    t = TableSession.from_dict(d)
    assert t.game_name == "electrify" and t.game.same_as(s.game) and t.log == s.log
    with pytest.raises(InvalidSaveError, match="game_name"):
        PlaySession.from_dict({**raw, "game_name": "electrify"})       # version 1 names no game
