"""The play table's log in players' words and its end-of-game summary: the game-independent
grouping of :mod:`electrify_env.play.turns` over Electrify's words (:mod:`electrify_env.describe`),
through :class:`~electrify_env.play.session.PlaySession`.

Every line is checked against the engine: each decision sits under exactly one line, of its own
round and player; no engine sub-decision text reaches a line; the points a player's lines name
add up to the engine's score; the end summary is the engine's scores, winners, points by source
and the score at the end of every round, replayed independently."""
from __future__ import annotations

import json
import re
from types import SimpleNamespace

import pytest

from electrify_env import Game
from electrify_env.play.session import ELECTRIFY_WORDS, HIDDEN_PLAN, PlayError, PlaySession, tech_pack_ids
from electrify_env.play.turns import TurnWords, end_summary, group_turns

LEVELS = ("I", "II", "III", "IV", "V", "VI", "VII")
#: decision kinds that are only ever sub-decisions: their engine text never reaches a line
SUB_KINDS = {"icon", "pay", "place_slot", "dis_sector", "dis_card", "reward", "reorder", "ongoing"}


@pytest.fixture(scope="module")
def finished() -> PlaySession:
    s = PlaySession(seats=["greedy", "greedy"], seed=3)
    s.run_bots()
    assert s.is_over
    return s


@pytest.fixture(scope="module")
def finished_random() -> PlaySession:
    s = PlaySession(seats=["random", "greedy", "random"], seed=11, tech_packs=("grid", "market"))
    s.run_bots()
    return s


def test_every_decision_sits_under_exactly_one_line_of_its_round_and_player(finished, finished_random):
    for s in (finished, finished_random):
        turns = s.turns()
        n = s.n_players
        assert [(t["round"], t["player"]) for t in turns] == [(r, p) for r in range(1, 13) for p in range(n)]
        indexes = [st["index"] for t in turns for st in t["steps"]]
        assert sorted(indexes) == list(range(len(s.game.history)))
        for t in turns:
            assert t["done"]
            assert [st["index"] for st in t["steps"]] == sorted(st["index"] for st in t["steps"])
            for st in t["steps"]:
                ev = s.log[st["index"]]
                assert ev.seat == t["player"] and st["text"] == ev.text and st["kind"] == ev.kind
                # a Plan pick belongs to the round it plans, everything else to the round it is made in
                want = ev.round + 1 if ev.kind == "plan" else ev.round
                assert t["round"] == want, (t["round"], ev)


def test_the_lines_hold_no_sub_decision(finished, finished_random):
    for s in (finished, finished_random):
        turns = s.turns()
        assert len(turns) < len(s.log) / 10                     # 24 or 36 lines for 500-840 decisions
        step_texts = {ev.text for ev in s.log}
        for t in turns:
            line = t["text"]
            for text in step_texts:
                assert text not in line, f"a decision's engine text {text!r} in the line {line!r}"
            for words in ("use icon", "pass:", "depot cube", "insert the card", "take reward",
                          "discharge the", "stop using", "slot"):
                assert words not in line, (words, line)
        kinds = {ev.kind for ev in s.log}
        assert SUB_KINDS & kinds       # the game had sub-decisions to fold


def _card(text: str) -> str:
    """``"buy from hand: I38 Demonstration Plant (cost 5): ..."`` -> ``"I38 Demonstration Plant (5)"``."""
    m = re.search(r": ((?:[PIB]\d+)[^:(]*?)(?: face \d)? \(cost (\d+)\)", text)
    assert m, text
    return f"{m.group(1).strip()} ({m.group(2)})"


def test_a_line_says_what_the_turn_did(finished, finished_random):
    for s in (finished, finished_random):
        g = s.game
        for t in s.turns():
            evs = [s.log[st["index"]] for st in t["steps"]]
            line = t["text"]
            assert line.startswith(f"Player {t['player']} ({s.seats[t['player']]}) ")
            plan = next(e for e in evs if e.kind == "plan")
            sector = g.cards.sector_names[plan.args["sector"]]
            assert f" chose {sector}" in line
            buys = [k for k, e in enumerate(evs) if e.kind in ("card_hand", "card_basic")
                    and not e.text.startswith("play for free")]
            if buys:
                k = buys[0]
                onto = next((e.text.removeprefix("place the card on ") for e in evs[k:]
                             if e.kind == "place_sector"), None)
                want = f"bought {_card(evs[k].text)}" + (f" onto {onto}" if onto else "")
                assert want in line, (want, line)
            elif any(e.kind == "pass" and e.text.startswith("pass: buy nothing") for e in evs):
                assert "bought nothing" in line
            charged = sum(e.kind == "dis_card" for e in evs)
            if charged:
                assert f"charged {charged} card{'s' if charged > 1 else ''}" in line
            else:
                assert "charged" not in line
            for e in evs:
                if e.kind == "fulfill":
                    assert f"fulfilled {LEVELS[e.args['level']]} for " in line
            produced = sum(e.kind == "produce" for e in evs)
            if produced:
                assert f"produced {produced} cube" in line


def test_the_points_in_a_players_lines_add_up_to_the_engines_score(finished, finished_random):
    for s in (finished, finished_random):
        total = [0] * s.n_players
        for t in s.turns():
            for n in re.findall(r"fulfilled [IV]+ for (\d+) points?", t["text"]):
                total[t["player"]] += int(n)
            for n in re.findall(r"scored (\d+) points? on the research track", t["text"]):
                total[t["player"]] += int(n)
        assert total == [int(x) for x in s.game.scores()]
        assert max(total) > 0


def test_another_seats_secret_pick_stays_secret_until_its_turn():
    s = PlaySession(seats=["greedy", "human"], seed=4)
    s.run_bots()                                   # seat 0 picks in secret; seat 1 decides
    picked = s.game.cards.sector_names[s.log[0].args["sector"]]
    mine = s.turns(1)
    assert [(t["round"], t["player"], t["done"]) for t in mine] == [(1, 0, False)]
    assert mine[0]["text"] == f"Player 0 (greedy) {HIDDEN_PLAN}"
    assert mine[0]["steps"] == [{"index": 0, "kind": "plan", "text": HIDDEN_PLAN}]
    assert picked not in json.dumps(mine)
    assert picked not in json.dumps(s.turns(-1))   # nor to a spectator
    assert picked in s.turns(0)[0]["text"]         # the bot's own seat reads it
    own = next(o for o in s.options() if o.kind == "plan")
    s.play(own.action, 1)
    mine = s.turns(1)
    assert mine[-1]["player"] == 1 and mine[-1]["text"].startswith("You planned ")
    s.run_bots()                                   # the reveal, then seat 0's turn
    line = s.turns(1)[0]
    assert line["text"].startswith(f"Player 0 (greedy) chose {picked}")      # revealed: public
    assert line["steps"][0]["text"] == HIDDEN_PLAN                            # the pick itself stays folded


def test_save_load_and_undo_give_the_same_lines(finished):
    again = PlaySession.from_json(finished.to_json())
    assert again.turns() == finished.turns() and again.end_summary() == finished.end_summary()
    s = PlaySession(seats=["human", "greedy"], seed=8)
    for _ in range(30):
        if s.human_to_move:
            s.play(s.options()[-1].action if s.options()[-1].kind == "pass" else s.options()[0].action)
        else:
            s.run_bots()
    before = s.turns(0)
    last = s.log[-1]
    s.undo(0)
    s.play(last.action, 0)
    s.run_bots()
    assert s.turns(0)[:len(before) - 1] == before[:-1]


def _scores_by_round(s: PlaySession) -> list[list[int]]:
    """The score at the end of each round, replayed in a fresh game: the scores just before the
    reveal that starts the next round, and the final scores."""
    g = Game(n_players=s.n_players, seed=s.game.seed, tech_packs=tech_pack_ids(s.game))
    rows = {0: [int(x) for x in g.scores()]}
    for a in s.game.history:
        before = [int(x) for x in g.scores()]
        r = g.round
        g.step(a)
        if g.round > r and r > 0:
            rows[r] = before
    rows[12] = [int(x) for x in g.scores()]
    return [rows.get(r, rows[0] if r == 0 else None) for r in range(13)]


def test_the_end_summary_is_the_engines(finished, finished_random):
    for s in (finished, finished_random):
        g = s.game
        e = s.end_summary()
        assert e["scores"] == [int(x) for x in g.scores()] and e["winners"] == g.winners()
        assert e["points_by_source"]["players"] == g.points_by_source()
        for p, row in enumerate(e["points_by_source"]["players"]):
            assert sum(row.values()) == e["scores"][p]
        labels = [x["label"] for x in e["points_by_source"]["sources"]]
        assert labels[:4] == ["demand cards", "priority rewards", "research spaces", "research group bonuses"]
        assert e["score_by_round"] == _scores_by_round(s)
        assert e["seed"] == g.seed and e["decisions"] == len(g.history) and e["solo"] is None
        ranked = sorted(range(s.n_players), key=lambda p: -e["scores"][p])
        assert [r["score"] for r in e["ranking"]] == [e["scores"][p] for p in ranked]
        assert e["ranking"][0]["player"] in e["winners"] and e["ranking"][0]["place"] == 1
        top = max(e["scores"])
        assert (e["tiebreak"] is None) == (e["scores"].count(top) == 1)
        json.dumps(e)
    running = PlaySession(seats=["greedy", "greedy"], seed=1)
    with pytest.raises(PlayError, match="not over"):
        running.end_summary()
    assert running.view(0)["end"] is None


def test_a_solo_end_summary_carries_the_solo_result():
    s = PlaySession(seats=["greedy"], scenario="first_light", seed=2)
    s.run_bots()
    e = s.end_summary()
    assert e["solo"] == s.game.solo_result() and e["tiebreak"] is None
    assert e["points_by_source"]["players"] == s.game.points_by_source()
    assert "bonus stars" in [x["label"] for x in e["points_by_source"]["sources"]]
    assert [t["round"] for t in s.turns()] == list(range(1, 13))
    from electrify_env.engine import layout as L
    first = s.turns()[0]
    assert s.log[0].facts["frame"] == L.FT_SOLO_SWAP and first["steps"][0]["index"] == 0
    assert re.match(r"Player 0 \(greedy\) (swapped|kept) the starting columns", first["text"]), first["text"]
    assert s.turns(0)[0]["text"].startswith("You ")


# ---- the layer knows no game: a made-up one -----------------------------------------------------
class _Step(SimpleNamespace):
    def step(self, for_seat):
        hide = self.secret and for_seat is not None and for_seat != self.seat
        return {"index": self.index, "kind": self.kind, "text": "?" if hide else self.text,
                "args": None if hide else {}, "facts": None if hide else {}, "hidden": hide}


def _made_up_game(scores, keys, winners, sources):
    return SimpleNamespace(scores=lambda: scores, winners=lambda: winners, tiebreak_keys=lambda: keys,
                           points_by_source=lambda: sources, seed=7, history=[0] * 5)


WORDS = TurnWords(before=lambda g, a: {}, after=lambda g, p, f: f,
                  turn_text=lambda steps: " then ".join(s["text"] for s in steps),
                  point_sources={"gems": "gems"}, tiebreak_names=("points", "gizmos built", "energy"))


def test_group_turns_and_end_summary_work_for_any_game():
    steps = [_Step(index=i, seat=i % 2, turn=1 + i // 4, phase="turn", kind="act", text=f"move {i}",
                   secret=False, scores=(i, 0)) for i in range(8)]
    # seat order 0,1,0,1 inside a round: two steps of each seat, grouped by (round, seat)
    steps = sorted(steps, key=lambda s: (s.turn, s.seat, s.index))
    for k, s in enumerate(steps):
        s.index = k
    turns = group_turns(steps, WORDS, who=lambda p: f"seat {p}", over=False)
    assert [(t["round"], t["player"]) for t in turns] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert turns[0]["text"] == "Seat 0 move 0 then move 2"
    assert [t["done"] for t in turns] == [True, True, True, False]
    game = _made_up_game([30, 30, 12], [[30, 3, 1], [30, 5, 0], [12, 9, 9]], [1],
                         [{"gems": 30}, {"gems": 30}, {"gems": 12}])
    e = end_summary(game, steps, WORDS, lambda p: f"seat {p}", (0, 0, 0), 2)
    assert e["tiebreak"]["text"] == "seat 0 and seat 1 tied on 30 points; seat 1 won on gizmos built 3 to 5"
    assert e["tiebreak"]["decided"] and e["tiebreak"]["tied"] == [0, 1]
    assert [(r["player"], r["place"]) for r in e["ranking"]] == [(1, 1), (0, 2), (2, 3)]
    shared = _made_up_game([9, 9], [[9, 2, 2], [9, 2, 2]], [0, 1], [{"gems": 9}, {"gems": 9}])
    e = end_summary(shared, [], WORDS, lambda p: f"seat {p}", (0, 0), 2)
    assert not e["tiebreak"]["decided"] and "share the win" in e["tiebreak"]["text"]
    assert [r["place"] for r in e["ranking"]] == [1, 1]
    assert e["score_by_round"] == [[0, 0], [0, 0], [0, 0]]


def test_electrify_words_are_the_tables_words():
    assert ELECTRIFY_WORDS.tiebreak_names[0] == "energy points"
    s = PlaySession(seats=["greedy", "greedy"], seed=5)
    s.run_bots(limit=40)
    assert all(set(ev.facts) >= {"turn", "phase", "frame", "demand_points", "research_points"} for ev in s.log)
