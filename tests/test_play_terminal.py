"""The terminal UI (``electrify play``, :mod:`electrify_env.play.terminal`) driven by scripted
input: complete games, undo, hints, save and resume, bad input, hot-seat and the command line.

Every game is drawn on a rich Console writing into a StringIO; the script answers each prompt
like a person would (an option number or a command) and the test compares what was printed with
the engine."""
from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest
from rich.console import Console

from electrify_env import Game
from electrify_env.play.session import PlaySession
from electrify_env.play.terminal import main, numbered_options, run


def _console(width: int = 120) -> Console:
    return Console(file=io.StringIO(), width=width, color_system=None, highlight=False)


def _out(console: Console) -> str:
    return console.file.getvalue()


class Script:
    """An input function: answers from ``answers`` (strings, or callables of the session that
    return a string), then raises EOFError.  Records every prompt."""

    def __init__(self, session: PlaySession | None, answers) -> None:
        self.session = session
        self.answers = list(answers)
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        a = self.answers.pop(0)
        return a(self.session) if callable(a) else a


def _seeded_chooser(session: PlaySession, seed: int):
    """An input function that plays a seeded random option of the decision's own options
    (mostly not 'pass'), by its number on screen."""
    rng = np.random.default_rng(seed)

    def answer(prompt: str) -> str:
        opts = numbered_options(session.view(session.to_move))
        phase = [k for k, o in enumerate(opts, 1) if not o["any_time"]]
        active = [k for k in phase if opts[k - 1]["kind"] != "pass"]
        pool = active if active and rng.random() < 0.8 else phase
        return str(int(rng.choice(pool)))

    return answer


def test_solo_game_played_by_hints_to_the_end_prints_the_engines_final_score():
    # a person who asks for a hint (greedy) before every decision and plays the hinted number:
    # the same game as the greedy bot playing alone, and the printed result is the engine's
    session = PlaySession(seats=["human"], scenario="first_light", seed=2)
    con = _console()
    asked = {"hint": False}

    def answer(prompt: str) -> str:
        asked["hint"] = not asked["hint"]
        if asked["hint"]:
            return "h"
        return re.findall(r"hint \(greedy\): (\d+)\.", _out(con)[-3000:])[-1]

    assert run(session, answer, con) is True
    out = _out(con)
    result = session.game.solo_result()
    m = re.search(r"Final score: (\d+) \((\d+) points \+ (\d+) for (\d+) star\(s\)\) against a "
                  r"target of (\d+): (WON|lost)", out)
    assert m, out[-2000:]
    assert [int(x) for x in m.groups()[:5]] == [result["final_score"], result["score"],
                                                result["star_points"], result["stars"], result["target"]]
    assert (m.group(6) == "WON") == result["won"]
    assert result["final_score"] > 0
    # the engine replaying the actions agrees, and so does the greedy bot playing the seat itself
    again = Game.replay(session.game.history, seed=2, scenario="first_light")
    assert again.same_as(session.game)
    bot = PlaySession(seats=["greedy"], scenario="first_light", seed=2)
    bot.run_bots()
    assert bot.game.history == session.game.history
    # the solo panel shows stars and challenges, and every decision was logged in words
    assert "solo: First Light" in out and "Hold 3 cards on one sector" in out
    assert len(session.log) == len(session.game.history)


def test_two_player_game_against_random_to_the_end():
    session = PlaySession(seats=["human", "random"], seed=5)
    con = _console(width=400)                     # log lines unwrapped
    assert run(session, _seeded_chooser(session, 5), con) is True
    out = _out(con)
    g = session.game
    assert g.is_terminal
    scores = g.scores().tolist()
    m = re.search(r"Final scores: player 0 \(you\) (-?\d+), player 1 \(random\) (-?\d+)", out)
    assert m and [int(m.group(1)), int(m.group(2))] == scores
    win = g.winners()
    line = re.search(r"Winners?(?: \(shared\))?: (.*)", out).group(1)
    assert sorted(int(x) for x in re.findall(r"player (\d)", line)) == win
    assert Game.replay(g.history, n_players=2, seed=5).same_as(g)
    # bot moves were printed one by one as they were made
    bot_moves = [e for e in session.log if e.seat == 1 and not e.secret]
    for e in bot_moves[:5]:
        assert f"player 1 (random): {e.text}" in out


def test_bad_input_asks_again_and_changes_nothing():
    session = PlaySession(seats=["human"], scenario="first_light", seed=1)
    before = session.game.state.copy()
    n_opts = len(numbered_options(session.view(0)))
    con = _console()
    script = Script(session, ["abc", "0", str(n_opts + 1), "-1", "", "1.5", "1 2", "\u00b2", "l x",
                              "s", "q"])
    assert run(session, script, con) is False
    out = _out(con)
    assert len(script.prompts) == 11
    # abc, -1, the empty line (many options), 1.5, "1 2", a superscript two
    assert out.count("unknown command") == 6
    assert out.count(f"type a number from 1 to {n_opts}") == 2   # 0 and n+1
    assert "l: give a number of moves" in out and "save: give a file name" in out
    assert np.array_equal(session.game.state, before) and session.game.history == []
    assert "the game is not saved" in out


def test_undo_takes_back_the_move_and_the_bot_moves_after_it():
    session = PlaySession(seats=["human", "random"], seed=3)
    con = _console()
    script = Script(session, ["1", "u", "u", "q"])
    assert run(session, script, con) is False
    out = _out(con)
    assert re.search(r"undone: (\d+) decision\(s\) taken back", out)
    n = int(re.search(r"undone: (\d+) decision", out).group(1))
    assert n >= 2                                     # the plan pick and the bot's moves after it
    assert session.game.history == [] and session.log == []
    assert session.game.same_as(Game(n_players=2, seed=3))
    assert "undo: no decision of a person to take back" in out   # the second u


def test_hint_names_the_numbered_option_and_changes_nothing():
    session = PlaySession(seats=["human", "greedy"], seed=4)
    expected = session.hint("greedy")
    opts = numbered_options(session.view(0))
    k = next(i for i, o in enumerate(opts, 1) if expected.action in o["actions"])
    con = _console()
    script = Script(session, ["h", "h random", "h nosuchagent", "q"])
    assert run(session, script, con, hint_agent="greedy") is False
    out = _out(con)
    assert f"hint (greedy): {k}. {expected.text}" in out
    assert "hint (random): " in out
    assert "hint: agent: unknown agent 'nosuchagent'" in out
    assert session.game.history == []


def test_save_then_resume_with_load(tmp_path):
    path = tmp_path / "game.json"
    session = PlaySession(seats=["human", "random"], seed=6)
    con = _console()
    chooser = _seeded_chooser(session, 6)
    script = Script(session, [lambda s: chooser("")] * 6 + [f"s {path}", "q"])
    assert run(session, script, con) is False
    out = _out(con)
    assert f"saved to {path}" in out and "(quit; saved)" in out
    saved = json.loads(path.read_text())
    assert saved["seats"] == ["human", "random"]
    history = list(session.game.history)
    assert len(history) >= 6

    con2 = _console()
    resumed = {}

    def answer(prompt: str) -> str:
        resumed.setdefault("prompt", prompt)
        raise EOFError

    assert main(["--load", str(path)], input_fn=answer, console=con2) == 0
    out2 = _out(con2)
    assert f"(resumed at decision {len(history)})" in out2
    assert PlaySession.load(path).game.history == history
    # the resumed screen is the same seat's table: its own hand is shown
    assert "your hand" in out2 and resumed["prompt"].startswith("player 0 ")


def test_the_screen_shows_no_hidden_information():
    session = PlaySession(seats=["human", "random"], seed=8)
    g = session.game
    from electrify_env.engine import layout as L
    pb = L.S_PLAYERS + 1 * L.P_SIZE
    opp_hand = [g.cards.face_names[int(c)] for c in g.state[pb + L.P_HAND:pb + L.P_HAND + int(g.state[pb + L.P_HAND_N])]]
    own_hand = [g.cards.face_names[int(c)] for c in g.state[L.S_PLAYERS + L.P_HAND:L.S_PLAYERS + L.P_HAND + 6]]
    con = _console()
    assert run(session, Script(session, ["q"]), con) is False
    first_screen = _out(con)
    for name in own_hand:
        assert name in first_screen
    for name in opp_hand:
        if name not in own_hand:
            assert name not in first_screen, name
    # the bot's secret plan pick is shown as a secret; the person's own pick in words
    session2 = PlaySession(seats=["human", "random"], seed=8)
    con2 = _console()
    run(session2, Script(session2, ["1", "q"]), con2)
    out2 = _out(con2)
    assert "player 1 (random): chose a sector in secret" in out2
    assert "player 0 (human): plan: charge" in out2
    assert not re.search(r"player 1 \(random\): plan: charge", out2)


def test_hot_seat_hands_over_and_hides_both_secrets():
    session = PlaySession(seats=["human", "human"], seed=2)
    con = _console()
    script = Script(session, ["", "1", "", "1", "q"])
    assert run(session, script, con) is False
    out = _out(con)
    assert "player 0 (human): your turn; the others look away. Press Enter." in out
    assert "player 1 (human): your turn; the others look away. Press Enter." in out
    assert "player 1 (you)" in out
    # at one keyboard nobody's plan pick is printed
    assert "player 0 (human): chose a sector in secret" in out
    assert "player 1 (human): chose a sector in secret" in out
    assert not re.search(r"\(human\): plan: charge", out)
    assert len(session.game.history) == 2


def test_numbered_options_stand_for_every_legal_action():
    session = PlaySession(seats=["human", "random"], seed=9)
    seen_group = False
    for _ in range(40):
        if session.is_over:
            break
        view = session.view(session.to_move)
        opts = numbered_options(view)
        ids = sorted(a for o in opts for a in o["actions"])
        assert ids == sorted(o["action"] for o in view["options"])
        assert [o["any_time"] for o in opts] == sorted(o["any_time"] for o in opts)
        for o in opts:
            if len(o["actions"]) > 1:
                seen_group = True
                assert o["kind"] == "card_basic" and f"[{len(o['actions'])} in supply]" in o["label"]
        session.play(opts[0]["action"], session.to_move) if session.human_to_move else session.step_bot()
    assert seen_group


@pytest.mark.parametrize("argv, option", [
    (["--players", "5"], "--players"),
    (["--opponents", "nosuchagent"], "--opponents"),
    (["--solo", "first_light", "--opponents", "greedy"], "--solo"),
    (["--solo", "no_such_scenario"], "--solo"),
    (["--seed", "-1"], "--seed"),
    (["--players", "2", "--opponents", "greedy,random"], "--opponents"),
    (["--seats", "human,greedy", "--humans", "2"], "--humans"),
    (["--load", "/nonexistent/game.json"], "--load"),
    (["--load", "x.json", "--seed", "3"], "--seed"),
    (["--hint", "nosuchagent"], "--hint"),
    (["--delay", "100"], "--delay"),
    (["--tech", "nosuchpack"], "--tech"),
])
def test_bad_options_exit_2_with_one_line(argv, option, capsys):
    assert main(argv, input_fn=Script(None, []), console=_console()) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"electrify play: error: argument {option}: "), err


def test_load_refuses_a_broken_save(tmp_path, capsys):
    path = tmp_path / "broken.json"
    session = PlaySession(seats=["human", "greedy"], seed=1)
    data = session.to_dict()
    data["seats"] = ["human"]
    path.write_text(json.dumps(data))
    assert main(["--load", str(path)], input_fn=Script(None, []), console=_console()) == 2
    assert "argument --load: " in capsys.readouterr().err


def test_main_builds_the_seats_from_the_options():
    con = _console()
    assert main(["--opponents", "random,random", "--seed", "11"], input_fn=Script(None, []), console=con) == 0
    out = _out(con)
    assert "Electrify: seed 11, player 0 (human), player 1 (random), player 2 (random)" in out
    assert "3 player(s)" in out
    con = _console()
    assert main(["--humans", "0", "--players", "2", "--opponents", "random,random", "--seed", "1"],
                input_fn=Script(None, []), console=con) == 0
    assert "Final scores: player 0 (random)" in _out(con)        # a bot game, watched to the end


def test_every_decision_kind_is_drawn_with_its_options():
    # bots play a 4-player game with both tech packs and a solo game; the first time each
    # decision kind comes up, the seat's whole table and the numbered options are drawn
    from electrify_env.play.terminal import board, decision_panel

    seen: set[str] = set()
    for seed, kw in [(1, dict(seats=["greedy"] * 4, tech_packs=("grid", "market"))),
                     (1, dict(seats=["random"], scenario="first_light"))]:
        session = PlaySession(seed=seed, **kw)
        while not session.is_over:
            view = session.view(session.to_move)
            kind = view["pending"]["kind"]
            if kind not in seen:
                seen.add(kind)
                con = _console(width=100)
                opts = numbered_options(view)
                con.print(board(view))
                con.print(decision_panel(view, opts, con.width))
                out = _out(con)
                assert "your hand" in out                  # the seat on turn sees its own hand
                for k, o in enumerate(opts, 1):
                    text = o["short"] if o["any_time"] else o["label"]
                    assert re.search(rf"(?<!\d){k}\s+{re.escape(text[:12])}", out), (kind, k, text)
                assert sorted(a for o in opts for a in o["actions"]) == sorted(o["action"] for o in view["options"])
            session.step_bot()
    assert {"plan", "boost", "acquire", "pay", "place_sector", "place_slot", "discharge", "item",
            "icon", "fulfill", "reward", "bt_pick", "card_choice", "flip", "reorder",
            "solo_swap"} <= seen


def test_play_runs_from_a_parent_parser_like_the_electrify_command(capsys):
    # how `electrify play` is wired: a sub-parser filled by add_arguments, then play(args, sub)
    import argparse

    from electrify_env.play.terminal import add_arguments, play

    top = argparse.ArgumentParser(prog="electrify")
    sub = top.add_subparsers(dest="command", required=True)
    pl = add_arguments(sub.add_parser("play"))
    args = top.parse_args(["play", "--solo", "first_light", "--seed", "4"])
    con = _console()
    assert play(args, pl, input_fn=Script(None, ["q"]), console=con) == 0
    assert "Electrify: seed 4, player 0 (human), scenario first_light" in _out(con)
    bad = top.parse_args(["play", "--players", "9"])
    assert play(bad, pl, input_fn=Script(None, []), console=_console()) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith(
        "electrify play: error: argument --players: ")


def test_finished_turns_are_printed_once_in_players_words_and_the_end_sums_up():
    from electrify_env.play.terminal import turn_lines
    session = PlaySession(seats=["human", "random"], seed=12)
    con = _console(width=600)                     # lines unwrapped
    chooser = _seeded_chooser(session, 12)
    seen = {"n": 0, "at": None, "listing": None}

    def answer(prompt: str) -> str:
        seen["n"] += 1
        if seen["n"] == 40:                       # `l 2`: the last two turns, with their decisions
            seen["at"] = len(_out(con))
            seen["want"] = [ln for t in session.turns(0)[-2:] for ln in turn_lines(t, steps=True)]
            return "l 2"
        if seen["n"] == 41:
            seen["listing"] = _out(con)[seen["at"]:len(_out(con))]
        return chooser(prompt)

    assert run(session, answer, con) is True
    out = _out(con)
    listing = seen["listing"]
    assert [ln.strip() for ln in listing.splitlines() if ln.strip() and "player 0 [" not in ln] == \
        [ln.strip() for ln in seen["want"]]
    assert any(ln.startswith("    - ") for ln in seen["want"])
    # outside the listing every finished turn is printed once, in the order played
    rest = out[:seen["at"]] + out[seen["at"] + len(listing):]
    printed = [ln for ln in rest.splitlines() if re.match(r"round \d+: (You|Player \d) ", ln)]
    assert printed == [f"round {t['round']}: {t['text']}" for t in session.turns(0)]
    assert any(ln.startswith("round 3: You ") for ln in printed)
    g = session.game
    for p, row in enumerate(g.points_by_source()):
        who = "player 0 (you)" if p == 0 else "player 1 (random)"
        assert (f"{who}: demand cards {row['demand_basic']}, priority rewards {row['demand_priority']}, "
                f"research spaces {row['research_space']}, research group bonuses {row['research_group']}") in out
    rows = session.end_summary()["score_by_round"]
    assert f"player 0 (you): {' '.join(str(r[0]) for r in rows[1:])}" in out
    assert rows[-1] == [int(x) for x in g.scores()]
