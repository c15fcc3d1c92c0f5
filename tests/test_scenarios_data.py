"""Tests of the solo scenarios as data: the eight files, the loader and the table SC (R20-R23)."""
from __future__ import annotations

import copy
import hashlib
import json
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
import yaml

from electrify_env import scenarios as SC_MOD
from electrify_env.engine import layout as L
from electrify_env.scenarios import (
    SCENARIOS_DIR,
    Scenario,
    ScenarioError,
    list_scenarios,
    load_scenario,
    scenarios_table,
)

SHIPPED = ("first_light", "steady_current", "green_shoots", "research_grant", "peak_load",
           "long_haul", "blackout", "net_zero")


@pytest.fixture(scope="module")
def all_scenarios() -> list[Scenario]:
    """The shipped scenarios, in list_scenarios() order."""
    return [load_scenario(sid) for sid in list_scenarios()]


@pytest.fixture()
def base() -> dict:
    """A valid scenario as raw YAML data (a fresh copy per test)."""
    return {
        "name": "Test Run",
        "gears": 2,
        "target": 25,
        "bonus_levels": [2, 4, "R"],
        "stars": [4, "R+3", 9, 11],
        "star_points": [0, 2, 5, 8, 12],
        "challenges": [
            {"condition": "cards_on_sector", "n": 4, "text": "Hold 4 cards on one sector"},
            {"condition": "grid_cubes", "n": 3, "column": 5, "text": "Have 3 Wind cubes in your grid"},
        ],
    }


def write(tmp_path: Path, data: dict, name: str = "broken.yaml") -> Path:
    """Dump ``data`` as YAML to ``tmp_path/name`` and return the path."""
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def by_gear(scs) -> dict[int, list[Scenario]]:
    """Scenarios grouped by gears."""
    out: dict[int, list[Scenario]] = defaultdict(list)
    for s in scs:
        out[s.gears].append(s)
    return out


def mean_star_round(s: Scenario) -> float:
    """Mean round of the scenario's stars, R+X taken at the mean of the levels R can take."""
    r = np.mean([lv + 1 for lv in s.random_levels()]) if s.bonus_random else 0.0
    return float(np.mean([x + r if rplus else x for x, rplus in s.stars]))


def assert_increasing_by_gear(scs, key, what: str, decreasing: bool = False) -> None:
    """Every scenario of gear g+1 scores at least (at most, when ``decreasing``) every one of gear g."""
    groups = by_gear(scs)
    for g in range(1, 4):
        lo = [key(s) for s in groups[g]]
        hi = [key(s) for s in groups[g + 1]]
        if decreasing:
            assert min(lo) >= max(hi), f"{what}: gear {g} {lo} vs gear {g + 1} {hi}"
        else:
            assert max(lo) <= min(hi), f"{what}: gear {g} {lo} vs gear {g + 1} {hi}"


# ----------------------------------------------------------------------------------------------
# The shipped scenarios
# ----------------------------------------------------------------------------------------------
def test_all_eight_load(all_scenarios):
    assert SCENARIOS_DIR == Path(SC_MOD.__file__).resolve().parents[1] / "configs" / "scenarios"
    assert sorted(list_scenarios()) == sorted(SHIPPED)
    for s in all_scenarios:
        assert s.path == (SCENARIOS_DIR / f"{s.id}.yaml").resolve()
        assert s.table.dtype == np.int64 and s.table.shape == (L.SC_SIZE,)
        assert not s.table.flags.writeable
        with pytest.raises(ValueError):
            s.table[0] = 1
        assert len(s.hash) == 64
        assert 1 <= len(s.challenges) <= L.MAX_CHALLENGES
        assert len(s.stars) <= L.MAX_SCENARIO_STARS


def test_two_per_gear_and_sorted(all_scenarios):
    assert [len(by_gear(all_scenarios)[g]) for g in (1, 2, 3, 4)] == [2, 2, 2, 2]
    keys = [(s.gears, s.name) for s in all_scenarios]
    assert keys == sorted(keys)
    assert len({s.name for s in all_scenarios}) == 8


def test_load_is_cached_and_accepts_paths():
    a = load_scenario("first_light")
    assert load_scenario("first_light") is a
    assert load_scenario(SCENARIOS_DIR / "first_light.yaml") is a
    assert load_scenario(str(SCENARIOS_DIR / "first_light.yaml")) is a


def test_difficulty_rises_with_gears(all_scenarios):
    scs = all_scenarios
    assert_increasing_by_gear(scs, lambda s: s.target, "target")
    # the points that play must make even when every star is claimed
    assert_increasing_by_gear(scs, lambda s: s.target - s.star_points[-1], "target - best star points")
    # stingier star tables: points per star of a full table, and the share of the target stars can give
    assert_increasing_by_gear(scs, lambda s: s.star_points[-1] / len(s.stars), "points per star",
                              decreasing=True)
    assert_increasing_by_gear(scs, lambda s: s.star_points[-1] / s.target, "star share of target",
                              decreasing=True)
    groups = by_gear(scs)

    def gear_mean(key):
        return [float(np.mean([key(s) for s in groups[g]])) for g in (1, 2, 3, 4)]

    tokens = gear_mean(lambda s: len(s.bonus_levels) + s.bonus_random)
    levels = gear_mean(lambda s: np.mean(s.bonus_levels))
    first_star = gear_mean(lambda s: min(x + (1 if rplus else 0) for x, rplus in s.stars))
    star_round = gear_mean(mean_star_round)
    two_stars = gear_mean(lambda s: s.star_points[2])
    assert tokens == sorted(tokens, reverse=True) and tokens[0] > tokens[-1], tokens
    assert levels == sorted(levels) and levels[0] < levels[-1], levels
    assert first_star == sorted(first_star, reverse=True) and first_star[0] > first_star[-1], first_star
    assert star_round == sorted(star_round, reverse=True), star_round
    assert two_stars == sorted(two_stars, reverse=True), two_stars


def test_shipped_scenarios_are_winnable_on_paper(all_scenarios):
    """Every scenario's stars can be claimed: enough sources, and every star round reachable."""
    for s in all_scenarios:
        sources = len(s.bonus_levels) + s.bonus_random + len(s.challenges)
        assert sources >= len(s.stars) - 1, s.id
        assert s.target - s.star_points[-1] <= 40, s.id   # a strong game makes 40+
        assert s.star_points[0] == 0, s.id


def test_table_round_trips(all_scenarios):
    for s in all_scenarios:
        T = s.table
        assert T[L.SC_TARGET] == s.target
        assert T[L.SC_BONUS] == sum(1 << lv for lv in s.bonus_levels)
        assert T[L.SC_BONUS_RANDOM] == int(s.bonus_random)
        assert T[L.SC_NSTARS] == len(s.stars)
        for k, (x, rplus) in enumerate(s.stars):
            assert T[L.SC_STAR_ROUND + k] == x and T[L.SC_STAR_RPLUS + k] == int(rplus)
        assert tuple(T[L.SC_STAR_POINTS:L.SC_STAR_POINTS + len(s.stars) + 1]) == s.star_points
        assert T[L.SC_NCH] == len(s.challenges)
        for k, (code, a, b, _text) in enumerate(s.challenges):
            assert (T[L.SC_CH_COND + k], T[L.SC_CH_A + k], T[L.SC_CH_B + k]) == (code, a, b)
        # nothing written past the used entries
        n, m = len(s.stars), len(s.challenges)
        assert not T[L.SC_STAR_ROUND + n:L.SC_STAR_ROUND + L.MAX_SCENARIO_STARS].any()
        assert not T[L.SC_STAR_POINTS + n + 1:L.SC_STAR_POINTS + L.MAX_SCENARIO_STARS + 1].any()
        assert not T[L.SC_CH_COND + m:L.SC_CH_COND + L.MAX_CHALLENGES].any()


def test_table_spot_checks():
    fl = load_scenario("first_light")      # bonus [1, 2, R], stars [5, 7, R+4, 10, 12]
    T = fl.table
    assert fl.bonus_levels == (0, 1) and fl.bonus_random
    assert T[L.SC_BONUS] == 0b11 and T[L.SC_BONUS_RANDOM] == 1
    assert fl.stars == ((5, False), (7, False), (4, True), (10, False), (12, False))
    assert T[L.SC_STAR_ROUND + 2] == 4 and T[L.SC_STAR_RPLUS + 2] == 1 and T[L.SC_STAR_RPLUS + 1] == 0
    assert fl.random_levels() == (2, 3, 4, 5, 6)
    assert fl.challenges[0] == (L.CH_CARDS_ON_SECTOR, 3, 0, "Hold 3 cards on one sector")

    sc = load_scenario("steady_current")   # grid_cubes any -> b = -1
    assert sc.challenges[0][:3] == (L.CH_GRID_CUBES, 4, -1) and sc.table[L.SC_CH_B] == -1
    assert sc.table[L.SC_BONUS] == 0b1101 and not sc.bonus_random and sc.random_levels() == ()

    rg = load_scenario("research_grant")   # group any -> a = -1
    assert rg.challenges[0][:3] == (L.CH_GROUP_COMPLETE, -1, 0)

    bo = load_scenario("blackout")         # level 7 -> a = 6; Solar column -> b = 6
    assert bo.challenges[0][:3] == (L.CH_LEVEL_FULFILLED, 6, 0)
    assert bo.challenges[1][:3] == (L.CH_GRID_CUBES, 5, 6)
    assert bo.table[L.SC_BONUS] == 1 << 5

    lh = load_scenario("long_haul")
    assert lh.challenges[0][:3] == (L.CH_SECTOR_IN_COLUMN, 6, 0)


def test_every_condition_encodes(tmp_path, base):
    cases = [
        ({"condition": "cards_on_sector", "n": 5}, (L.CH_CARDS_ON_SECTOR, 5, 0)),
        ({"condition": "grid_cubes", "n": 6, "column": 0}, (L.CH_GRID_CUBES, 6, 0)),
        ({"condition": "grid_cubes", "n": 6, "column": "any"}, (L.CH_GRID_CUBES, 6, -1)),
        ({"condition": "demands_in_round", "n": 2}, (L.CH_DEMANDS_IN_ROUND, 2, 0)),
        ({"condition": "group_complete", "group": 1}, (L.CH_GROUP_COMPLETE, 0, 0)),
        ({"condition": "group_complete", "group": 5}, (L.CH_GROUP_COMPLETE, 4, 0)),
        ({"condition": "group_complete", "group": "any"}, (L.CH_GROUP_COMPLETE, -1, 0)),
        ({"condition": "sector_in_column", "column": 6}, (L.CH_SECTOR_IN_COLUMN, 6, 0)),
        ({"condition": "side_b", "n": 5}, (L.CH_SIDE_B, 5, 0)),
        ({"condition": "clean_tokens", "n": 3}, (L.CH_CLEAN_TOKENS, 3, 0)),
        ({"condition": "fulfilled", "n": 7}, (L.CH_FULFILLED, 7, 0)),
        ({"condition": "breakthroughs", "n": 14}, (L.CH_BREAKTHROUGHS, 14, 0)),
        ({"condition": "level_fulfilled", "level": 1}, (L.CH_LEVEL_FULFILLED, 0, 0)),
        ({"condition": "points", "n": 30}, (L.CH_POINTS, 30, 0)),
    ]
    assert {c[0]["condition"] for c in cases} == set(SC_MOD.CONDITION_NAMES)
    for i, (ch, want) in enumerate(cases):
        data = copy.deepcopy(base)
        data["challenges"] = [{**ch, "text": "t"}]
        s = load_scenario(write(tmp_path, data, f"c{i}.yaml"))
        assert s.challenges[0][:3] == want
        assert tuple(s.table[[L.SC_CH_COND, L.SC_CH_A, L.SC_CH_B]]) == want


def test_hash_is_canonical(tmp_path, base):
    a = load_scenario(write(tmp_path, base, "a.yaml"))
    p = tmp_path / "b.yaml"
    p.write_text("# a comment\n" + yaml.safe_dump(base, sort_keys=True), encoding="utf-8")
    b = load_scenario(p)
    assert a.hash == b.hash and a.id == "a" and b.id == "b"
    canonical = json.dumps(a.model.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    assert a.hash == hashlib.sha256(canonical.encode()).hexdigest()
    changed = copy.deepcopy(base)
    changed["target"] += 1
    assert load_scenario(write(tmp_path, changed, "c.yaml")).hash != a.hash


def test_edited_file_is_reloaded(tmp_path, base):
    p = write(tmp_path, base, "e.yaml")
    assert load_scenario(p).target == 25
    base["target"] = 131
    write(tmp_path, base, "e.yaml")
    assert load_scenario(p).target == 131


def test_edge_cases_accepted(tmp_path, base):
    data = copy.deepcopy(base)
    data["bonus_levels"] = []
    data["stars"] = [12, 12, 2]                          # several stars on one round, any order
    data["star_points"] = [0, 0, 3, 3]
    s = load_scenario(write(tmp_path, data, "edge1.yaml"))
    assert s.stars == ((12, False), (12, False), (2, False)) and s.table[L.SC_BONUS] == 0
    data["bonus_levels"] = [1, 2, 3, 4, 5, 6, "R"]       # R can only be VII: X <= 5
    data["stars"] = ["R+5"]
    data["star_points"] = [0, 4]
    s = load_scenario(write(tmp_path, data, "edge2.yaml"))
    assert s.random_levels() == (6,) and s.table[L.SC_STAR_RPLUS] == 1
    data["bonus_levels"] = [7, 6, 5, "R"]                # R at most IV: X <= 8
    data["stars"] = ["R+8", " R + 1 "]
    data["star_points"] = [0, 1, 2]
    s = load_scenario(write(tmp_path, data, "edge3.yaml"))
    assert s.stars == ((8, True), (1, True))
    data["stars"] = []
    data["star_points"] = [0]
    assert load_scenario(write(tmp_path, data, "edge4.yaml")).table[L.SC_NSTARS] == 0


def test_describe_and_table(all_scenarios):
    for s in all_scenarios:
        text = s.describe()
        assert "\n" not in text
        assert s.name in text and f"{s.gears} gear" in text and str(s.target) in text
        for c in s.challenges:
            assert c[3] in text
    assert "R+4" in load_scenario("first_light").describe()
    assert "III, IV, V, VI, VII" in load_scenario("first_light").describe()
    table = scenarios_table()
    lines = table.splitlines()
    assert lines[0].split()[:4] == ["id", "name", "gears", "target"]
    assert len(lines) == 2 + 8
    for s, line in zip(all_scenarios, lines[2:]):
        assert line.startswith(s.id) and f" {s.target} " in line
        assert s.challenges[0][3] in line


# ----------------------------------------------------------------------------------------------
# Broken scenarios: one clear message naming the file, the item and the field
# ----------------------------------------------------------------------------------------------
def _challenge(i):
    """Setter for challenge ``i`` of the raw data."""
    def edit(d, **kw):
        d["challenges"][i] = {**d["challenges"][i], **kw}
    return edit


BROKEN = {
    "unknown condition": (lambda d: d["challenges"][1].update(condition="win_fast"),
                          "challenge 2", "condition", "unknown condition 'win_fast'"),
    "missing parameter": (lambda d: d["challenges"][0].pop("n"),
                          "challenge 1", "n", "is required for condition 'cards_on_sector'"),
    "missing column": (lambda d: d["challenges"][1].pop("column"),
                       "challenge 2", "column", "is required for condition 'grid_cubes'"),
    "parameter out of range": (lambda d: d["challenges"][0].update(n=6),
                               "challenge 1", "n", "1..5"),
    "column out of range": (lambda d: d["challenges"][1].update(column=7),
                            "challenge 2", "column", "0..6 or 'any'"),
    "any not allowed": (lambda d: d["challenges"].__setitem__(
        1, {"condition": "sector_in_column", "column": "any", "text": "t"}),
        "challenge 2", "column", "got 'any'"),
    "extra parameter": (lambda d: d["challenges"][0].update(column=3),
                        "challenge 1", "column", "takes no 'column'"),
    "challenge level 8": (lambda d: d["challenges"].__setitem__(
        1, {"condition": "level_fulfilled", "level": 8, "text": "t"}),
        "challenge 2", "level", "1..7"),
    "group 0": (lambda d: d["challenges"].__setitem__(
        0, {"condition": "group_complete", "group": 0, "text": "t"}),
        "challenge 1", "group", "1..5 or 'any'"),
    "missing text": (lambda d: d["challenges"][0].pop("text"), "challenge 1", "text", "is required"),
    "unknown challenge key": (lambda d: d["challenges"][0].update(colour="red"),
                              "challenge 1", "colour", "unknown field"),
    "duplicate challenge": (lambda d: d["challenges"].append(dict(d["challenges"][0])),
                            "challenge 3", "condition", "same condition and parameters as challenge 1"),
    "too many challenges": (lambda d: d["challenges"].extend(
        {"condition": "side_b", "n": k, "text": "t"} for k in (1, 2, 3)),
        "scenario", "challenges", "at most 4"),
    "no challenge": (lambda d: d.update(challenges=[]), "scenario", "challenges", "at least 1"),
    "level 8": (lambda d: d["bonus_levels"].__setitem__(1, 8), "bonus_levels[1]", "level", "got 8"),
    "level 0": (lambda d: d["bonus_levels"].__setitem__(0, 0), "bonus_levels[0]", "level", "got 0"),
    "duplicate level": (lambda d: d["bonus_levels"].insert(2, 4), "bonus_levels[2]", "level",
                        "level 4 (IV) is listed twice"),
    "R twice": (lambda d: d["bonus_levels"].append("R"), "bonus_levels[3]", "level",
                "'R' may appear only once"),
    "R with every level listed": (lambda d: d.update(bonus_levels=[1, 2, 3, 4, 5, 6, 7, "R"],
                                                     stars=[4, 9], star_points=[0, 1, 2]),
                                  "bonus_levels[7]", "level", "all seven are"),
    "star round 1": (lambda d: d["stars"].__setitem__(0, 1), "stars[0]", "round", "2..12 (got 1)"),
    "star round 13": (lambda d: d["stars"].__setitem__(3, 13), "stars[3]", "round", "2..12 (got 13)"),
    "star garbage": (lambda d: d["stars"].__setitem__(2, "R5"), "stars[2]", "round", "'R+X'"),
    "R+0": (lambda d: d["stars"].__setitem__(1, "R+0"), "stars[1]", "X", "at least 1"),
    "R+X too big": (lambda d: d["stars"].__setitem__(1, "R+6"), "stars[1]", "X",
                    "can reach round 13"),
    "R+X without R": (lambda d: d["bonus_levels"].remove("R"), "stars[1]", "round",
                      "add 'R' to bonus_levels"),
    "too many stars": (lambda d: d.update(stars=[12] * 13, star_points=[0] * 14),
                       "scenario", "stars", "at most 12"),
    "star_points too short": (lambda d: d["star_points"].pop(), "scenario", "star_points",
                              "must have 5 entries"),
    "star_points too long": (lambda d: d["star_points"].append(20), "scenario", "star_points",
                             "must have 5 entries"),
    "decreasing star_points": (lambda d: d["star_points"].__setitem__(3, 4), "star_points[3]",
                               "points", "must not decrease"),
    "negative star_points": (lambda d: d["star_points"].__setitem__(0, -1), "star_points[0]",
                             "points", "between 0 and"),
    "gears 5": (lambda d: d.update(gears=5), "scenario", "gears", "between 1 and 4 (got 5)"),
    "gears 0": (lambda d: d.update(gears=0), "scenario", "gears", "between 1 and 4 (got 0)"),
    "gears as string": (lambda d: d.update(gears="2"), "scenario", "gears", "got '2'"),
    "target 0": (lambda d: d.update(target=0), "scenario", "target", "between 1 and"),
    "missing target": (lambda d: d.pop("target"), "scenario", "target", "is required"),
    "empty name": (lambda d: d.update(name="  "), "scenario", "name", "non-empty"),
    "unknown top-level key": (lambda d: d.update(difficulty=3), "scenario", "difficulty", "unknown field"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_broken_scenario_raises_clear_error(tmp_path, base, kind):
    edit, item, fld, text = BROKEN[kind]
    data = copy.deepcopy(base)
    edit(data)
    path = write(tmp_path, data, "broken.yaml")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    msg = str(info.value)
    assert "\n" not in msg
    assert msg.startswith(f"{path}: {item}: field '{fld}': "), msg
    assert text in msg, msg
    assert isinstance(info.value, ValueError)


def test_error_names_repo_relative_file(tmp_path, monkeypatch, base):
    """A file inside the repository is named relative to the repository root; ids resolve in SCENARIOS_DIR."""
    folder = tmp_path / "configs" / "scenarios"
    folder.mkdir(parents=True)
    monkeypatch.setattr(SC_MOD, "REPO_ROOT", tmp_path)
    monkeypatch.setattr(SC_MOD, "SCENARIOS_DIR", folder)
    data = copy.deepcopy(base)
    data["gears"] = 9
    write(folder, data, "wobbly.yaml")
    with pytest.raises(ScenarioError, match=r"^configs/scenarios/wobbly\.yaml: scenario: field 'gears': "):
        load_scenario("wobbly")
    with pytest.raises(ScenarioError, match=r"available: wobbly$"):
        load_scenario("steady")


def test_unknown_id_lists_available():
    with pytest.raises(ScenarioError) as info:
        load_scenario("no_such_scenario")
    msg = str(info.value)
    assert "no_such_scenario" in msg
    for sid in SHIPPED:
        assert sid in msg


def test_unreadable_files(tmp_path):
    with pytest.raises(ScenarioError, match="file not found"):
        load_scenario(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"bad\.yaml: YAML syntax error at line"):
        load_scenario(bad)
    empty = tmp_path / "empty.yaml"
    empty.write_text("", encoding="utf-8")
    with pytest.raises(ScenarioError, match="must hold a mapping"):
        load_scenario(empty)
