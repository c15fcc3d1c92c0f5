"""Tests of the card-set config, its loader and the compiled card table T (electrify_env.cards)."""
from __future__ import annotations

import copy
import hashlib
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
import yaml

from electrify_env.cards import (
    DEFAULT_CARD_SET,
    DEFAULT_CARDS_DIR,
    CardSetError,
    card_set_stats,
    load_card_set,
    validate_summary,
)
from electrify_env.engine import layout as L

COLS = ["Fossil Fuel", "Natural Gas", "Biofuel", "Geothermal", "Hydroelectric", "Wind", "Solar"]
SECTORS = ["Energy Production", "Transmission", "Research & Development", "Investments",
           "Business Operations"]
# Points-equivalent of a reward, the scale of configs/cards/README.md.
PE = {"points": lambda v: v, "clean": lambda v: 3 * v, "sector": lambda v: 3,
      "industry": lambda v: v / 2, "produce": lambda v: v / 2}


@pytest.fixture(scope="module")
def cs():
    """The base card set."""
    return load_card_set()


@pytest.fixture(scope="module")
def raw():
    """The base card set as raw YAML data (read-only: tests deep-copy before editing)."""
    return yaml.safe_load(DEFAULT_CARD_SET.read_text(encoding="utf-8"))


def write(path: Path, data: dict) -> Path:
    """Dump ``data`` as YAML to ``path`` and return it."""
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def all_faces(raw):
    """(label, face dict, kind) for every card face and sector face of a raw set."""
    for deck in ("production", "infrastructure"):
        for c in raw[deck]:
            yield c["id"], c, deck
    for b in raw["basic"]:
        for f, face in enumerate(b["faces"]):
            yield f"{b['id']}/{f}", face, "basic"
    for s in raw["sectors"]:
        for side in ("A", "B"):
            yield f"{s['name']} {side}", s[side], "sector"


def pe(rewards):
    """Points-equivalent of a reward list."""
    return sum(PE[r["kind"]](r.get("value", 1)) for r in rewards)


# ----------------------------------------------------------------------------------------------
# The base set: counts and content (R1, R3)
# ----------------------------------------------------------------------------------------------
def test_base_set_loads(cs):
    assert DEFAULT_CARD_SET == DEFAULT_CARDS_DIR / "base.yaml"
    assert cs.name == "base"
    assert cs.path == DEFAULT_CARD_SET.resolve()
    assert cs.table.dtype == np.int64 and cs.table.shape == (L.T_SIZE,)
    assert not cs.table.flags.writeable
    with pytest.raises(ValueError):
        cs.table[0] = 5
    assert len(cs.face_names) == L.MAX_FACES
    assert cs.pack_names == ()


def test_r03_card_set_counts(cs, raw):
    assert len(raw["production"]) == 52 and len(raw["infrastructure"]) == 52
    assert len(raw["basic"]) == 24 and all(len(b["faces"]) == 2 for b in raw["basic"])
    assert len(raw["demand"]) == 28
    assert Counter(d["level"] for d in raw["demand"]) == {lvl: 4 for lvl in range(1, 8)}
    assert [s["name"] for s in raw["sectors"]] == SECTORS
    assert all("A" in s and "B" in s for s in raw["sectors"])
    assert [len(g["spaces"]) for g in raw["research"]] == [3, 3, 3, 3, 2]
    assert all("bonus" in g and g["bonus"] for g in raw["research"])
    assert any(space == [] for g in raw["research"] for space in g["spaces"])  # some blanks
    assert len(raw["columns"]) == 7
    T = cs.table
    assert (cs.n_ind, cs.n_basic, cs.n_demand) == (104, 24, 28)
    assert (T[L.T_N_IND], T[L.T_N_BASIC], T[L.T_N_DEMAND]) == (104, 24, 28)
    kinds = Counter(T[L.T_F_KIND:L.T_F_KIND + L.MAX_FACES].tolist())
    assert kinds == {L.KIND_PRODUCTION: 52, L.KIND_INFRASTRUCTURE: 52, L.KIND_BASIC: 48,
                     L.KIND_SECTOR: 10, L.KIND_NONE: L.MAX_FACES - 162}
    assert (T[L.T_IND_DECK:L.T_IND_DECK + 104] == [0] * 52 + [1] * 52).all()
    assert (T[L.T_IND_PACK:L.T_IND_PACK + 104] == 0).all()
    assert Counter(T[L.T_D_LEVEL:L.T_D_LEVEL + 28].tolist()) == {lvl: 4 for lvl in range(7)}
    assert T[L.T_BT_GROUP:L.T_BT_GROUP + L.N_BT_SPACES].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4]


def test_r01_column_numbers_are_data_and_tracks_non_decreasing(cs, raw, tmp_path):
    T = cs.table
    assert list(cs.column_names) == COLS == [c["name"] for c in raw["columns"]]
    for key, off in (("depot", L.T_COL_DEPOT), ("grid", L.T_COL_GRID), ("clean", L.T_COL_CLEAN),
                     ("dirty", L.T_COL_DIRTY)):
        assert T[off:off + 7].tolist() == [c[key] for c in raw["columns"]]
    for off in (L.T_COL_CLEAN, L.T_COL_DIRTY):
        assert (np.diff(T[off:off + 7]) >= 0).all()
    # The numbers are data: a config with other numbers compiles to a table with those numbers.
    data = copy.deepcopy(raw)
    for c, col in enumerate(data["columns"]):
        col.update(depot=c + 2, grid=7 - c, clean=c, dirty=c // 2)
    other = load_card_set(write(tmp_path / "cols.yaml", data))
    assert other.table[L.T_COL_DEPOT:L.T_COL_DEPOT + 7].tolist() == [2, 3, 4, 5, 6, 7, 8]
    assert other.table[L.T_COL_GRID:L.T_COL_GRID + 7].tolist() == [7, 6, 5, 4, 3, 2, 1]
    assert other.table[L.T_COL_DIRTY:L.T_COL_DIRTY + 7].tolist() == [0, 0, 1, 1, 2, 2, 3]
    # ... and a decreasing track is refused.
    data["columns"][4]["dirty"] = 0
    with pytest.raises(CardSetError, match=r"column 4 'Hydroelectric': field 'dirty': .*non-decreasing"):
        load_card_set(write(tmp_path / "bad_cols.yaml", data))


def test_every_icon_multiplier_arrow_and_reward_kind_appears(raw):
    produce_cols, actions, mults, arrows = set(), Counter(), Counter(), Counter()
    two_arrows = 0
    for _, face, _ in all_faces(raw):
        for icon in face["icons"]:
            actions[icon["action"]] += 1
            if icon["action"] == "produce":
                produce_cols.add(icon["column"])
            m = icon.get("mult", 1)
            mults["simple" if isinstance(m, int) else m] += 1
        arrows.update(face.get("arrows", []))
        two_arrows += len(face.get("arrows", [])) >= 2
    assert produce_cols == {0, 1, 2, 3, 4, 5, 6, "here"}
    assert set(actions) == {"produce", "develop", "transmit", "research", "invest", "plan"}
    assert set(mults) == {"simple", "clean", "dirty"}  # no tech-pack multipliers in base
    assert set(arrows) == {"left", "up", "down"} and two_arrows >= 5
    demand_kinds = {r["kind"] for d in raw["demand"] for r in d["basic"] + d["priority"]}
    assert demand_kinds == {"points", "industry", "sector", "clean"}
    research_kinds = {r["kind"] for g in raw["research"] for rs in g["spaces"] + [g["bonus"]] for r in rs}
    assert {"points", "clean", "produce"} <= research_kinds


def test_plan_icons_only_on_business_operations(raw):
    where = {label for label, face, _ in all_faces(raw)
             for icon in face["icons"] if icon["action"] == "plan"}
    assert where and all(label.startswith("Business Operations") for label in where)


def test_costs_cover_1_to_8_and_simple_multipliers_are_modest(raw):
    costs = Counter(c["cost"] for deck in ("production", "infrastructure") for c in raw[deck])
    assert set(costs) == set(range(1, 9))
    assert all(costs[k] >= 2 for k in range(1, 9))
    for label, face, _ in all_faces(raw):
        assert 1 <= len(face["icons"]) <= L.MAX_ICONS, label
        for icon in face["icons"]:
            m = icon.get("mult", 1)
            assert not isinstance(m, int) or 1 <= m <= 3, label


def test_sector_b_sides_are_stronger(raw):
    for s in raw["sectors"]:
        a, b = s["A"]["icons"], s["B"]["icons"]
        assert a and len(b) > len(a), s["name"]
        assert {i["action"] for i in a} <= {i["action"] for i in b}, s["name"]
    first = {s["name"]: s["A"]["icons"] for s in raw["sectors"]}
    assert first["Energy Production"][0] == {"action": "produce", "column": "here", "mult": "dirty"}
    assert first["Transmission"][0]["action"] == "transmit"
    assert first["Transmission"][0]["mult"] in ("clean", "dirty")
    assert first["Research & Development"][0]["action"] == "research"
    assert first["Investments"][0]["action"] == "invest"
    assert first["Business Operations"][0]["action"] == "plan" and len(first["Business Operations"]) >= 2


def test_decks_lean_to_their_actions(raw):
    def share(deck, acts):
        n = Counter(i["action"] for c in raw[deck] for i in c["icons"])
        return sum(n[a] for a in acts) / sum(n.values())

    assert share("production", ("produce", "develop", "transmit")) > 0.8
    assert share("infrastructure", ("research", "invest", "transmit")) > 0.8
    assert share("production", ("produce",)) > share("infrastructure", ("produce",))
    assert share("infrastructure", ("research", "invest")) > share("production", ("research", "invest"))


def test_demand_requirements_grow_with_level(raw):
    by_level: dict[int, list] = {}
    for d in raw["demand"]:
        assert 1 <= len(d["requires"]) <= 3 and all(n >= 1 for n in d["requires"].values())
        by_level.setdefault(d["level"], []).append(d["requires"])
    assert {len(r) for d in raw["demand"] for r in [d["requires"]]} == {1, 2, 3}
    mean_cubes = [np.mean([sum(r.values()) for r in by_level[lvl]]) for lvl in range(1, 8)]
    assert all(a <= b for a, b in zip(mean_cubes, mean_cubes[1:])), mean_cubes
    assert mean_cubes[0] < mean_cubes[-1]
    mean_col = [np.mean([c for r in by_level[lvl] for c, n in r.items() for _ in range(n)])
                for lvl in range(1, 8)]
    assert all(a <= b for a, b in zip(mean_col, mean_col[1:])), mean_col
    # Level I: a handful of cheap cubes (Fossil Fuel / Natural Gas, at most one Biofuel).
    for r in by_level[1]:
        assert sum(r.values()) <= 4 and sum(n for c, n in r.items() if c >= 2) <= 1 and max(r) <= 2


def test_priority_rewards_are_richer_than_basic(raw):
    for d in raw["demand"]:
        assert pe(d["priority"]) > pe(d["basic"]), d["id"]
        assert len(d["basic"]) <= 3 and len(d["priority"]) <= 3
    # and demand rewards grow with level
    per_level = [np.mean([pe(d["basic"]) for d in raw["demand"] if d["level"] == lvl]) for lvl in range(1, 8)]
    assert all(a <= b for a, b in zip(per_level, per_level[1:])), per_level


# ----------------------------------------------------------------------------------------------
# The compiled table
# ----------------------------------------------------------------------------------------------
ACT = {"produce": L.ACT_PRODUCE, "develop": L.ACT_DEVELOP, "transmit": L.ACT_TRANSMIT,
       "research": L.ACT_RESEARCH, "invest": L.ACT_INVEST, "plan": L.ACT_PLAN}
MK = {"clean": L.MULT_CLEAN, "dirty": L.MULT_DIRTY}
RW = {"points": L.RW_POINTS, "clean": L.RW_CLEAN, "industry": L.RW_INDUSTRY, "sector": L.RW_SECTOR,
      "produce": L.RW_PRODUCE}
ARROW = {"left": L.ARROW_LEFT, "up": L.ARROW_UP, "down": L.ARROW_DOWN}


def assert_face(T, face, data, kind, cost):
    """The table's entries of ``face`` match the YAML face ``data``."""
    assert T[L.T_F_KIND + face] == kind
    assert T[L.T_F_COST + face] == cost
    assert T[L.T_F_ARROWS + face] == sum(ARROW[a] for a in data.get("arrows", []))
    icons = data["icons"]
    assert T[L.T_F_NICONS + face] == len(icons)
    for i in range(L.MAX_ICONS):
        k = face * L.MAX_ICONS + i
        got = [T[off + k] for off in (L.T_F_ICON_ACT, L.T_F_ICON_ARG, L.T_F_ICON_ARG2, L.T_F_ICON_MK,
                                      L.T_F_ICON_MV)]
        if i >= len(icons):
            assert got == [L.ACT_NONE, 0, 0, 0, 0]
            continue
        icon = icons[i]
        m = icon.get("mult", 1)
        col = icon.get("column")
        arg = L.PRODUCE_HERE if col == "here" else (col if col is not None else 0)
        want = [ACT[icon["action"]], arg, 0, MK.get(m, L.MULT_SIMPLE), m if isinstance(m, int) else 0]
        assert got == want, (face, i)


def test_table_round_trips_every_face(cs, raw):
    T = cs.table
    cards = raw["production"] + raw["infrastructure"]
    for c, card in enumerate(cards):
        kind = L.KIND_PRODUCTION if c < 52 else L.KIND_INFRASTRUCTURE
        assert_face(T, L.FACE_IND + c, card, kind, card["cost"])
        assert cs.card_ids[c] == card["id"]
        assert cs.face_names[L.FACE_IND + c] == f"{card['id']} {card['name']}"
    for b, card in enumerate(raw["basic"]):
        for f, face in enumerate(card["faces"]):
            assert_face(T, L.FACE_BASIC + 2 * b + f, face, L.KIND_BASIC, face["cost"])
    for s, sector in enumerate(raw["sectors"]):
        for k, side in enumerate("AB"):
            assert_face(T, L.FACE_SECTOR + 2 * s + k, sector[side], L.KIND_SECTOR, 0)
            assert cs.face_names[L.FACE_SECTOR + 2 * s + k] == f"{sector['name']} side {side}"
    for face in range(L.FACE_IND + 104, L.FACE_BASIC):
        assert T[L.T_F_KIND + face] == L.KIND_NONE and cs.face_names[face] == ""


def test_table_spot_checks(cs):
    T = cs.table
    # P12 Coal Plant: cost 3, produce Fossil x2, transmit; arrow left.
    f = L.FACE_IND + 11
    assert cs.card_ids[11] == "P12"
    assert (T[L.T_F_COST + f], T[L.T_F_ARROWS + f], T[L.T_F_NICONS + f]) == (3, L.ARROW_LEFT, 2)
    assert T[L.T_F_ICON_ACT + 4 * f] == L.ACT_PRODUCE and T[L.T_F_ICON_ARG + 4 * f] == 0
    assert T[L.T_F_ICON_MV + 4 * f] == 2 and T[L.T_F_ICON_ACT + 4 * f + 1] == L.ACT_TRANSMIT
    # Energy Production side A: produce here x dirty.
    f = L.FACE_SECTOR + 0
    assert T[L.T_F_ICON_ARG + 4 * f] == L.PRODUCE_HERE and T[L.T_F_ICON_MK + 4 * f] == L.MULT_DIRTY
    assert T[L.T_F_ICON_MV + 4 * f] == 0
    # Demand D3b (index 9): 3 Natural Gas + 1 Geothermal; basic 3 points, industry 5;
    # priority 4 points, sector.
    d = 9
    assert cs.demand_names[d] == "D3b" and T[L.T_D_LEVEL + d] == 2
    assert T[L.T_D_REQ_COL + 3 * d:L.T_D_REQ_COL + 3 * d + 3].tolist() == [1, 3, -1]
    assert T[L.T_D_REQ_N + 3 * d:L.T_D_REQ_N + 3 * d + 3].tolist() == [3, 1, 0]
    assert T[L.T_D_NREW + 2 * d:L.T_D_NREW + 2 * d + 2].tolist() == [2, 2]
    r = d * L.MAX_REWARDS
    assert T[L.T_D_REW_KIND + r:L.T_D_REW_KIND + r + 6].tolist() == [
        L.RW_POINTS, L.RW_INDUSTRY, L.RW_POINTS, L.RW_SECTOR, L.RW_NONE, L.RW_NONE]
    assert T[L.T_D_REW_VAL + r:L.T_D_REW_VAL + r + 4].tolist() == [3, 5, 4, 1]
    # Unused demand slots
    assert (T[L.T_D_REQ_COL + 3 * 28:L.T_D_REQ_COL + 3 * L.MAX_DEMAND] == -1).all()
    # Research space 7: produce 1 Geothermal; spaces 1 and 8 blank; group 3 bonus: 2 points.
    assert T[L.T_BT_NREW + 7] == 1
    assert [T[o + 14] for o in (L.T_BT_REW_KIND, L.T_BT_REW_VAL, L.T_BT_REW_ARG)] == [L.RW_PRODUCE, 1, 3]
    assert T[L.T_BT_NREW + 1] == 0 and T[L.T_BT_NREW + 8] == 0  # blank
    assert T[L.T_G_NREW + 3] == 1
    assert [T[L.T_G_REW_KIND + 6], T[L.T_G_REW_VAL + 6]] == [L.RW_POINTS, 2]


def test_demand_and_research_round_trip(cs, raw):
    T = cs.table
    for d, card in enumerate(raw["demand"]):
        assert T[L.T_D_LEVEL + d] == card["level"] - 1
        req = sorted(card["requires"].items())
        for j in range(L.MAX_REQ):
            want = req[j] if j < len(req) else (-1, 0)
            assert (T[L.T_D_REQ_COL + 3 * d + j], T[L.T_D_REQ_N + 3 * d + j]) == want
        rewards = card["basic"] + card["priority"]
        assert T[L.T_D_NREW + 2 * d] == len(card["basic"]) and T[L.T_D_NREW + 2 * d + 1] == len(card["priority"])
        for j, rw in enumerate(rewards):
            k = d * L.MAX_REWARDS + j
            assert (T[L.T_D_REW_KIND + k], T[L.T_D_REW_VAL + k]) == (RW[rw["kind"]], rw.get("value", 1))
    spaces = [s for g in raw["research"] for s in g["spaces"]]
    for k, space in enumerate(spaces):
        assert T[L.T_BT_NREW + k] == len(space)
        for j, rw in enumerate(space):
            i = k * L.MAX_BT_REWARDS + j
            assert (T[L.T_BT_REW_KIND + i], T[L.T_BT_REW_VAL + i], T[L.T_BT_REW_ARG + i]) == (
                RW[rw["kind"]], rw.get("value", 1), rw.get("column", 0))


def test_describe(cs):
    assert cs.describe_face(L.FACE_IND + 11) == "P12 Coal Plant (cost 3): produce Fossil Fuel x2, transmit; arrows left"
    assert cs.describe_face(L.FACE_SECTOR + 1) == ("Energy Production side B: produce here x dirty, "
                                                   "produce Fossil Fuel x2, develop")
    assert cs.describe_face(L.FACE_BASIC).startswith("B01 Coal Shovel face 0 (cost 1): produce Fossil Fuel")
    assert cs.describe_demand(9) == ("D3b (level III): requires 3 Natural Gas + 1 Geothermal; "
                                     "basic: 3 points, industry <=5; priority: 4 points, sector flip")
    for f in range(L.MAX_FACES):
        if cs.table[L.T_F_KIND + f] != L.KIND_NONE:
            assert cs.describe_face(f)
    with pytest.raises(ValueError):
        cs.describe_face(L.FACE_IND + 104)
    with pytest.raises(ValueError):
        cs.describe_demand(28)
    assert len(cs.describe_research()) == L.N_BT_SPACES + L.N_BT_GROUPS


def test_hash_is_stable_and_cache_shares_the_object(cs, raw, tmp_path):
    assert len(cs.hash) == 64 and int(cs.hash, 16) >= 0
    assert load_card_set() is cs
    assert load_card_set(str(DEFAULT_CARD_SET)) is cs
    # The hash is of the validated content: a copy without comments, re-formatted, hashes the same.
    copy_path = write(tmp_path / "copy.yaml", raw)
    other = load_card_set(copy_path)
    assert other is not cs and other.hash == cs.hash
    assert (other.table == cs.table).all()
    canonical = json.dumps([cs.model.model_dump(mode="json")], sort_keys=True, separators=(",", ":"))
    assert cs.hash == hashlib.sha256(canonical.encode()).hexdigest()
    # Any change of content changes it; the edited file is read again.
    data = copy.deepcopy(raw)
    data["production"][0]["cost"] = 2
    write(copy_path, data)
    changed = load_card_set(copy_path)
    assert changed.hash != cs.hash and changed.table[L.T_F_COST + 0] == 2


def test_validate_summary(cs):
    text = validate_summary(DEFAULT_CARD_SET)
    assert "industry cards: 104 (production 52, infrastructure 52)" in text
    assert "basic cards: 24 (48 faces)" in text and "demand cards: 28" in text
    assert "demand per level: I:4 II:4 III:4 IV:4 V:4 VI:4 VII:4" in text
    assert "arrows: left" in text and "multipliers: simple" in text and "industry costs: 1:" in text
    assert cs.hash in text
    st = card_set_stats(cs)
    assert st["faces"] == {"production": 52, "infrastructure": 52, "basic": 48, "sector": 10}
    assert sum(st["industry_costs"].values()) == 104


# ----------------------------------------------------------------------------------------------
# Broken configs: one message naming file, card and field
# ----------------------------------------------------------------------------------------------
def _set(path, value):
    """An edit that sets ``data[path...] = value``."""
    def edit(data):
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def _find(data, part, cid):
    return next(c for c in data[part] if c["id"] == cid)


BROKEN = {
    "cost_out_of_range": (lambda d: _find(d, "production", "P07").update(cost=12),
                          "production card P07", "field 'cost': must be between 1 and 8 (got 12)"),
    "unknown_action": (lambda d: _find(d, "infrastructure", "I05")["icons"][0].update(action="fly"),
                       "infrastructure card I05", "field 'icons[0].action'"),
    "unknown_mult": (lambda d: _find(d, "production", "P16")["icons"][0].update(mult="green"),
                     "production card P16", "field 'icons[0].mult'"),
    "mult_too_big": (lambda d: _find(d, "production", "P05")["icons"][0].update(mult=10),
                     "production card P05", "field 'icons[0].mult'"),
    "unknown_arrow": (lambda d: _find(d, "production", "P01").update(arrows=["right"]),
                      "production card P01", "field 'arrows[0]'"),
    "repeated_arrow": (lambda d: _find(d, "production", "P01").update(arrows=["left", "left"]),
                       "production card P01", "field 'arrows[1]'"),
    "produce_without_column": (lambda d: _find(d, "production", "P02")["icons"][0].pop("column"),
                               "production card P02", "field 'icons[0].column': a produce icon needs a column"),
    "here_on_develop": (lambda d: _find(d, "production", "P03")["icons"][0].update(column="here"),
                        "production card P03", "field 'icons[0].column': only produce icons take a column"),
    "too_many_icons": (lambda d: _find(d, "production", "P12").update(icons=[{"action": "develop"}] * 5),
                       "production card P12", "field 'icons'"),
    "plan_on_card": (lambda d: _find(d, "infrastructure", "I02")["icons"][0].update(action="plan"),
                     "infrastructure card I02", "field 'icons[0].action': plan icons appear only"),
    "plan_on_transmission": (lambda d: d["sectors"][1]["B"]["icons"].__setitem__(0, {"action": "plan"}),
                             "sector 'Transmission' side B", "field 'icons[0].action': plan icons"),
    "sector_face_with_cost": (lambda d: d["sectors"][3]["A"].update(cost=2),
                              "sector 'Investments' side A", "field 'cost': unknown field"),
    "sector_face_without_icons": (lambda d: d["sectors"][2]["B"].update(icons=[]),
                                  "sector 'Research & Development' side B", "field 'icons'"),
    "sector_order": (_set(("sectors", 0, "name"), "Power Plants"),
                     "sector 'Power Plants'", "field 'name'"),
    "basic_face_cost": (lambda d: _find(d, "basic", "B04")["faces"][1].update(cost=0),
                        "basic card B04 face 1", "field 'cost': must be between 1 and 8 (got 0)"),
    "basic_one_face": (lambda d: _find(d, "basic", "B05")["faces"].pop(),
                       "basic card B05", "field 'faces'"),
    "missing_name": (lambda d: _find(d, "production", "P09").pop("name"),
                     "production card P09", "field 'name': is required"),
    "duplicate_id": (lambda d: _find(d, "infrastructure", "I10").update(id="P03"),
                     "infrastructure card P03", "field 'id': duplicate id 'P03'"),
    "production_count": (lambda d: d["production"].pop(),
                         "card set", "field 'production': must hold exactly 52 cards (got 51)"),
    "basic_count": (lambda d: d["basic"].append(copy.deepcopy(d["basic"][0]) | {"id": "B99"}),
                    "card set", "field 'basic': must hold exactly 24 cards (got 25)"),
    "demand_per_level": (lambda d: _find(d, "demand", "D3b").update(level=4),
                         "card set", "field 'demand': level 3 must have exactly 4 cards (got 3)"),
    "demand_level_range": (lambda d: _find(d, "demand", "D7a").update(level=8),
                           "demand D7a", "field 'level': must be between 1 and 7 (got 8)"),
    "demand_four_columns": (lambda d: _find(d, "demand", "D2a").update(requires={0: 1, 1: 1, 2: 1, 3: 1}),
                            "demand D2a", "field 'requires': must name between 1 and 3 columns"),
    "demand_zero_count": (lambda d: _find(d, "demand", "D1a").update(requires={0: 0}),
                          "demand D1a", "field 'requires[0]': count must be between 1"),
    "demand_bad_column": (lambda d: _find(d, "demand", "D1c").update(requires={7: 2}),
                          "demand D1c", "field 'requires[7]'"),
    "demand_unknown_reward": (lambda d: _find(d, "demand", "D3b")["basic"][0].update(kind="money"),
                              "demand D3b", "field 'basic[0].kind'"),
    "demand_produce_reward": (lambda d: _find(d, "demand", "D1a")["priority"].append(
        {"kind": "produce", "value": 1, "column": 0}),
        "demand D1a", "field 'priority[2].kind': demand rewards are one of"),
    "demand_too_many_rewards": (lambda d: _find(d, "demand", "D4a")["priority"].append({"kind": "sector"}),
                                "demand D4a", "field 'priority'"),
    "industry_reward_value": (lambda d: d["research"][1]["spaces"][0][0].update(value=9),
                              "research group 1 space 0", "field 'rewards[0].value': must be between 2 and 8"),
    "space_three_rewards": (lambda d: d["research"][2]["spaces"][1].extend([{"kind": "points"}] * 2),
                            "research group 2 space 1", "field 'rewards'"),
    "produce_reward_no_column": (lambda d: d["research"][0]["spaces"][0][0].pop("column"),
                                 "research group 0 space 0", "field 'rewards[0].column'"),
    "bonus_unknown_kind": (lambda d: d["research"][4]["bonus"][0].update(kind="cake"),
                           "research group 4 bonus", "field 'rewards[0].kind'"),
    "research_groups": (lambda d: d["research"][4]["spaces"].append([]),
                        "card set", "field 'research': groups must have [3, 3, 3, 3, 2] spaces"),
    "six_columns": (lambda d: d["columns"].pop(),
                    "card set", "field 'columns': must list exactly 7 columns"),
    "column_value_type": (lambda d: d["columns"][2].update(depot="two"),
                          "column 2 'Biofuel'", "field 'depot'"),
    "unknown_top_level": (lambda d: d.update(extras=[]), "card set", "field 'extras': unknown field"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_config_names_file_card_and_field(case, raw, tmp_path):
    edit, card, detail = BROKEN[case]
    data = copy.deepcopy(raw)
    edit(data)
    path = write(tmp_path / f"{case}.yaml", data)
    with pytest.raises(CardSetError) as info:
        load_card_set(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: {card}: "), msg
    assert detail in msg, msg
    assert "\n" not in msg


def test_broken_files(tmp_path):
    with pytest.raises(CardSetError, match=r"nope\.yaml: file not found"):
        load_card_set(tmp_path / "nope.yaml")
    bad = tmp_path / "syntax.yaml"
    bad.write_text("name: base\ncolumns: [\n  {name: x\n", encoding="utf-8")
    with pytest.raises(CardSetError, match=r"syntax\.yaml: YAML syntax error at line \d+"):
        load_card_set(bad)
    listing = tmp_path / "list.yaml"
    listing.write_text("- a\n- b\n", encoding="utf-8")
    with pytest.raises(CardSetError, match=r"list\.yaml: the file must hold a mapping"):
        load_card_set(listing)
    pack = write(tmp_path / "pack.yaml", PACK)
    with pytest.raises(CardSetError, match=r"pack\.yaml: card set: field 'pack': this is a tech-pack file"):
        load_card_set(pack)
    with pytest.raises(CardSetError, match=r"base\.yaml: tech pack: field 'pack': is required"):
        load_card_set(None, [DEFAULT_CARD_SET])


def test_error_names_repo_files_relative(raw, tmp_path, monkeypatch):
    from electrify_env.cards import loader

    monkeypatch.setattr(loader, "REPO_ROOT", tmp_path.resolve())  # files inside the repo show relative
    (tmp_path / "configs" / "cards").mkdir(parents=True)
    data = copy.deepcopy(raw)
    data["production"][6]["cost"] = 12
    path = write(tmp_path / "configs" / "cards" / "x.yaml", data)
    with pytest.raises(CardSetError) as info:
        load_card_set(path)
    assert str(info.value) == ("configs/cards/x.yaml: production card P07: "
                               "field 'cost': must be between 1 and 8 (got 12)")


# ----------------------------------------------------------------------------------------------
# Tech packs
# ----------------------------------------------------------------------------------------------
PACK = {
    "pack": {"name": "tiny"},
    "cards": [
        {"id": "T01", "name": "Relay Station", "deck": "production", "cost": 4,
         "icons": [{"action": "ongoing", "left": "develop", "right": "transmit"}], "arrows": ["up"]},
        {"id": "T02", "name": "Think Tank", "deck": "infrastructure", "cost": 5,
         "icons": [{"action": "research", "mult": "sectors"}, {"action": "invest", "mult": "discard"}]},
    ],
}


def test_tech_pack_appends_cards(cs, tmp_path):
    pack = write(tmp_path / "tiny.yaml", PACK)
    full = load_card_set(None, [pack])
    assert full is load_card_set(DEFAULT_CARD_SET, (str(pack),))
    assert full.n_ind == 106 and full.pack_names == ("tiny",) and full.paths[1] == pack.resolve()
    assert full.card_ids[:104] == cs.card_ids and full.card_ids[104:] == ("T01", "T02")
    T = full.table
    assert T[L.T_N_IND] == 106
    assert T[L.T_IND_DECK + 104] == 0 and T[L.T_IND_DECK + 105] == 1
    assert T[L.T_IND_PACK + 104] == 1 and T[L.T_IND_PACK + 105] == 1 and T[L.T_IND_PACK + 103] == 0
    f = L.FACE_IND + 104
    assert (T[L.T_F_KIND + f], T[L.T_F_COST + f], T[L.T_F_ARROWS + f]) == (L.KIND_PRODUCTION, 4, L.ARROW_UP)
    k = f * L.MAX_ICONS
    assert [T[L.T_F_ICON_ACT + k], T[L.T_F_ICON_ARG + k], T[L.T_F_ICON_ARG2 + k]] == [
        L.ACT_ONGOING, L.ACT_DEVELOP, L.ACT_TRANSMIT]
    k = (f + 1) * L.MAX_ICONS
    assert T[L.T_F_KIND + f + 1] == L.KIND_INFRASTRUCTURE
    assert [T[L.T_F_ICON_MK + k], T[L.T_F_ICON_MK + k + 1]] == [L.MULT_SECTORS, L.MULT_DISCARD]
    assert full.describe_face(f) == "T01 Relay Station (cost 4): ongoing develop -> transmit; arrows up"
    assert full.hash != cs.hash
    # Everything of the base set is unchanged.
    base_part = np.r_[0:L.T_N_IND, L.T_N_IND + 1:L.T_IND_DECK + 104, L.T_IND_PACK:L.T_IND_PACK + 104,
                      L.T_F_KIND:L.T_F_KIND + 104]
    assert (T[base_part] == cs.table[base_part]).all()
    assert "tech packs: tiny" in validate_summary(DEFAULT_CARD_SET, [pack])


@pytest.mark.parametrize("edit, detail", [
    (lambda p: p["cards"][1].update(id="P01"), "pack card P01: field 'id': duplicate id 'P01'"),
    (lambda p: p["cards"][0].pop("deck"), "pack card T01: field 'deck': is required"),
    (lambda p: p["cards"][0]["icons"][0].pop("right"), "pack card T01: field 'icons[0].right'"),
    (lambda p: p["cards"][1]["icons"][0].update(left="research"), "pack card T02: field 'icons[0].left'"),
    (lambda p: p["pack"].pop("name"), "pack header: field 'name': is required"),
])
def test_broken_tech_pack(edit, detail, tmp_path):
    data = copy.deepcopy(PACK)
    edit(data)
    pack = write(tmp_path / "pack.yaml", data)
    with pytest.raises(CardSetError) as info:
        load_card_set(None, [pack])
    assert str(info.value).startswith(f"{pack}: {detail}"), str(info.value)


def test_tech_packs_respect_capacities(tmp_path, monkeypatch):
    card = {"name": "Filler", "cost": 1, "icons": [{"action": "research"}]}
    # With MAX_IND = 160 a deck cannot pass MAX_DECK = 128; a smaller deck capacity shows the check.
    monkeypatch.setattr(L, "MAX_DECK", 60)
    over_deck = {"pack": {"name": "big"},
                 "cards": [card | {"id": f"X{i}", "deck": "production"} for i in range(9)]}
    with pytest.raises(CardSetError, match=r"big\.yaml: pack card X8: field 'deck': .*MAX_DECK = 60"):
        load_card_set(None, [write(tmp_path / "big.yaml", over_deck)])
    monkeypatch.undo()
    decks = ("production", "infrastructure")
    over_ind = {"pack": {"name": "wide"},
                "cards": [card | {"id": f"Y{i}", "deck": decks[i % 2]} for i in range(L.MAX_IND - 103)]}
    with pytest.raises(CardSetError, match=r"wide\.yaml: pack card Y56: field 'id': .*MAX_IND"):
        load_card_set(None, [write(tmp_path / "wide.yaml", over_ind)])
