"""Opponents by difficulty (configs/play/levels.yaml, electrify_env/play/levels.py): the shipped
levels climb in measured rating and name registered agents; a bad file fails in one line naming
the field; the web page's meta and ``electrify play --level`` use them."""
from __future__ import annotations

import argparse

import pytest
import yaml

from electrify_env.play.levels import LEVELS_FILE, LevelsError, load_levels

GOOD = {
    "measured": {2: {"command": "electrify arena ...", "machine": "2 cores",
                     "ratings": {"random": {"mu": 10.0, "sigma": 1.0, "ordinal": 7.0, "win_rate": 0.0, "games": 10},
                                 "greedy": {"mu": 30.0, "sigma": 1.0, "ordinal": 27.0, "win_rate": 1.0, "games": 10}}}},
    "levels": [{"name": "Easy", "about": "plays at random", "agents": {2: "random"}},
               {"name": "Hard", "about": "one-ply lookahead", "agents": {2: "greedy"}}],
}


def _write(tmp_path, data) -> str:
    path = tmp_path / "levels.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_the_shipped_levels_climb_and_name_registered_agents():
    levels = load_levels()
    assert [lv.name for lv in levels.levels] == ["Beginner", "Intermediate", "Strong", "Expert"]
    two = levels.for_players(2)
    ords = [lv["rating"]["ordinal"] for lv in two]
    assert ords == sorted(ords) and len(two) == 4
    assert levels.spec("expert", 2) == two[-1]["spec"]
    assert "--seed" in levels.measured[2].command and levels.measured[2].machine


def test_a_custom_file_loads(tmp_path):
    levels = load_levels(_write(tmp_path, GOOD))
    assert levels.spec("Hard", 2) == "greedy"
    with pytest.raises(LevelsError, match=r"no level 'Medium'; levels: Easy, Hard"):
        levels.spec("Medium", 2)
    with pytest.raises(LevelsError, match=r"measured for 2-player games only, not 4"):
        levels.spec("Hard", 4)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["levels"].reverse(), r"the 2-player levels must climb in measured rating"),
    (lambda d: d["levels"][0]["agents"].update({2: "grumpy"}), r"levels\[0\] \(Easy\)\.agents\[2\]: .*grumpy"),
    (lambda d: d["levels"][1]["agents"].update({2: "mcts"}), r"levels\[1\] \(Hard\)\.agents\[2\]: 'mcts' has no rating"),
    (lambda d: d["levels"][0].update({"colour": "red"}), r"levels\.0\.colour: unknown field"),
    (lambda d: d["measured"][2]["ratings"]["random"].update({"sigma": 0}), r"measured\.2\.ratings\.random\.sigma"),
    (lambda d: d["levels"][1].update({"name": "easy"}), r"two levels share a name"),
])
def test_a_bad_levels_file_fails_in_one_line_naming_the_field(tmp_path, change, message):
    import copy
    data = copy.deepcopy(GOOD)
    change(data)
    with pytest.raises(LevelsError, match=message) as err:
        load_levels(_write(tmp_path, data))
    assert "\n" not in str(err.value) and "levels.yaml" in str(err.value)


def test_the_web_meta_offers_the_levels_with_their_ratings():
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient
    from electrify_env.play.web import STATIC, build_app
    meta = TestClient(build_app(None)).get("/api/meta").json()
    two = meta["levels"]["2"]
    assert [lv["name"] for lv in two] == ["Beginner", "Intermediate", "Strong", "Expert"]
    offered = {a["spec"] for a in meta["agents"]}
    assert all(lv["spec"] in offered for lv in two) and all("mu" in lv["rating"] for lv in two)
    assert 'id="level"' in (STATIC / "index.html").read_text()


def test_electrify_play_level_fills_the_bot_seats():
    from electrify_env.play.terminal import ArgumentProblem, _seats_from_args, build_parser
    parser = build_parser()
    args = parser.parse_args(["--level", "Strong"])
    assert _seats_from_args(args) == ["human", load_levels().spec("Strong", 2)]
    args = parser.parse_args(["--level", "Beginner", "--players", "3"])
    with pytest.raises(ArgumentProblem, match="measured for 2-player games only"):
        _seats_from_args(args)
    with pytest.raises(ArgumentProblem, match="either --level or --opponents"):
        _seats_from_args(parser.parse_args(["--level", "Strong", "--opponents", "greedy"]))
    assert isinstance(args, argparse.Namespace) and LEVELS_FILE.name == "levels.yaml"
