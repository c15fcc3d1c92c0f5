"""Tests of the two shipped tech packs (``configs/cards/tech_*.yaml``) as data (R3, R10, R12).

The packs load on top of the base set through ``load_card_set(None, tech_packs=(...))``; these tests
check their content, the compiled table rows of their cards and the balance notes of
``configs/cards/README.md`` ("Tech packs").  The rules of the tech-pack icons belong to the engine
tests; here only the data is checked.
"""
from __future__ import annotations

import contextlib
import io
import statistics
from collections import Counter

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

GRID = DEFAULT_CARDS_DIR / "tech_grid.yaml"
MARKET = DEFAULT_CARDS_DIR / "tech_market.yaml"
PACKS = (GRID, MARKET)
N_PACK_CARDS = 20          # R3: two tech packs of 20 cards
N_BASE_IND = 104
SIDES = ("develop", "transmit", "research", "invest")
SIDE_CODE = {"develop": L.ACT_DEVELOP, "transmit": L.ACT_TRANSMIT, "research": L.ACT_RESEARCH,
             "invest": L.ACT_INVEST}
# The order ongoing pairs follow (left before right) in both packs, so that they never form a loop.
ONGOING_ORDER = {"develop": 0, "transmit": 1, "research": 2, "invest": 3}


@pytest.fixture(scope="module")
def base():
    return load_card_set()


@pytest.fixture(scope="module")
def raws():
    """{path: raw YAML data} of both packs."""
    return {p: yaml.safe_load(p.read_text(encoding="utf-8")) for p in PACKS}


@pytest.fixture(scope="module")
def both():
    return load_card_set(None, tech_packs=PACKS)


def icon_rows(T, face):
    """(act, arg, arg2, mk, mv) of every icon of ``face`` in table ``T``."""
    out = []
    for i in range(int(T[L.T_F_NICONS + face])):
        k = face * L.MAX_ICONS + i
        out.append(tuple(int(T[off + k]) for off in (L.T_F_ICON_ACT, L.T_F_ICON_ARG, L.T_F_ICON_ARG2,
                                                     L.T_F_ICON_MK, L.T_F_ICON_MV)))
    return out


def tech_kinds(icons):
    """Which tech-pack icons a raw card's icon list uses: subset of {sectors, discard, ongoing}."""
    out = set()
    for ic in icons:
        if ic["action"] == "ongoing":
            out.add("ongoing")
        if ic.get("mult") in ("sectors", "discard"):
            out.add(ic["mult"])
    return out


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------
def test_the_two_shipped_packs_are_the_tech_files():
    assert sorted(DEFAULT_CARDS_DIR.glob("tech_*.yaml")) == sorted(PACKS)


@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.stem)
def test_r03_each_pack_loads_alone_with_the_base_set(path, raws, base):
    cs = load_card_set(None, tech_packs=(path,))
    raw = raws[path]
    assert len(raw["cards"]) == N_PACK_CARDS
    assert cs.n_ind == N_BASE_IND + N_PACK_CARDS and cs.table[L.T_N_IND] == cs.n_ind
    assert cs.pack_names == (raw["pack"]["name"],)
    assert cs.card_ids[:N_BASE_IND] == base.card_ids
    assert cs.card_ids[N_BASE_IND:] == tuple(c["id"] for c in raw["cards"])
    T = cs.table
    assert all(T[L.T_IND_PACK + c] == 0 for c in range(N_BASE_IND))
    assert all(T[L.T_IND_PACK + c] == 1 for c in range(N_BASE_IND, cs.n_ind))
    assert cs.hash != base.hash
    assert path.name.startswith("tech_")


@pytest.mark.parametrize("order", [PACKS, PACKS[::-1]], ids=["grid,market", "market,grid"])
def test_r03_both_packs_load_together_in_load_order(order, raws, base):
    cs = load_card_set(None, tech_packs=order)
    assert cs.n_ind == N_BASE_IND + 2 * N_PACK_CARDS == 144 <= L.MAX_IND
    assert cs.pack_names == tuple(raws[p]["pack"]["name"] for p in order)
    T = cs.table
    c = N_BASE_IND
    for k, path in enumerate(order, start=1):
        for card in raws[path]["cards"]:
            assert cs.card_ids[c] == card["id"]
            assert T[L.T_IND_PACK + c] == k, card["id"]
            c += 1
    assert [int(T[L.T_IND_PACK + c]) for c in range(N_BASE_IND)] == [0] * N_BASE_IND
    assert [int(T[L.T_IND_PACK + c]) for c in range(cs.n_ind, L.MAX_IND)] == [0] * (L.MAX_IND - cs.n_ind)
    # The base part of the table is untouched by the packs.
    for c in range(N_BASE_IND):
        f = L.FACE_IND + c
        assert icon_rows(T, f) == icon_rows(base.table, f)
        assert T[L.T_F_COST + f] == base.table[L.T_F_COST + f]


def test_hashes_differ(base, both):
    grid = load_card_set(None, tech_packs=(GRID,))
    market = load_card_set(None, tech_packs=(MARKET,))
    reverse = load_card_set(None, tech_packs=PACKS[::-1])
    hashes = {base.hash, grid.hash, market.hash, both.hash, reverse.hash}
    assert len(hashes) == 5


def test_ids_are_unique_over_base_and_both_packs(base, raws, both):
    ids = list(both.card_ids) + [b.id for b in base.model.basic] + [d.id for d in base.model.demand]
    assert len(ids) == len(set(ids))
    for path, prefix in ((GRID, "TG"), (MARKET, "TM")):
        assert [c["id"] for c in raws[path]["cards"]] == [f"{prefix}{i:02d}" for i in range(1, 21)]


def test_deck_sizes_fit(raws, both):
    T = both.table
    decks = Counter(int(T[L.T_IND_DECK + c]) for c in range(both.n_ind))
    assert decks[0] <= L.MAX_DECK and decks[1] <= L.MAX_DECK
    assert decks[0] + decks[1] == both.n_ind
    for path in PACKS:
        per = Counter(c["deck"] for c in raws[path]["cards"])
        assert set(per) == {"production", "infrastructure"}
        assert 8 <= per["production"] <= 12 and 8 <= per["infrastructure"] <= 12, (path.name, per)
    st = card_set_stats(both)
    assert st["faces"]["production"] == decks[0] == 52 + sum(
        c["deck"] == "production" for p in PACKS for c in raws[p]["cards"])
    assert st["faces"]["infrastructure"] == decks[1]


# ----------------------------------------------------------------------------------------------
# The compiled table of the pack cards
# ----------------------------------------------------------------------------------------------
def test_pack_faces_round_trip(raws, both):
    T = both.table
    c = N_BASE_IND
    for path in PACKS:
        for card in raws[path]["cards"]:
            f = L.FACE_IND + c
            kind = L.KIND_PRODUCTION if card["deck"] == "production" else L.KIND_INFRASTRUCTURE
            assert T[L.T_F_KIND + f] == kind, card["id"]
            assert T[L.T_IND_DECK + c] == (0 if card["deck"] == "production" else 1)
            assert T[L.T_F_COST + f] == card["cost"]
            bits = {"left": L.ARROW_LEFT, "up": L.ARROW_UP, "down": L.ARROW_DOWN}
            assert T[L.T_F_ARROWS + f] == sum(bits[a] for a in card.get("arrows", []))
            rows = icon_rows(T, f)
            assert len(rows) == len(card["icons"])
            for (act, arg, arg2, mk, mv), ic in zip(rows, card["icons"]):
                if ic["action"] == "ongoing":
                    assert (act, arg, arg2) == (L.ACT_ONGOING, SIDE_CODE[ic["left"]], SIDE_CODE[ic["right"]])
                    continue
                m = ic.get("mult", 1)
                if m == "sectors":
                    assert (mk, mv) == (L.MULT_SECTORS, 0)
                elif m == "discard":
                    assert (mk, mv) == (L.MULT_DISCARD, 0)
                elif isinstance(m, int):
                    assert (mk, mv) == (L.MULT_SIMPLE, m)
            assert both.describe_face(f).startswith(f"{card['id']} {card['name']} (cost {card['cost']}): ")
            c += 1


def test_r10_r12_all_three_tech_icons_appear_in_the_table(both):
    T = both.table
    seen = Counter()
    pairs = set()
    for c in range(N_BASE_IND, both.n_ind):
        for act, arg, arg2, mk, _ in icon_rows(T, L.FACE_IND + c):
            k = int(T[L.T_IND_PACK + c])
            if mk == L.MULT_SECTORS:
                seen["sectors", k] += 1
            if mk == L.MULT_DISCARD:
                seen["discard", k] += 1
            if act == L.ACT_ONGOING:
                seen["ongoing", k] += 1
                assert arg in SIDE_CODE.values() and arg2 in SIDE_CODE.values() and arg != arg2
                pairs.add((arg, arg2))
    # Grid Modernization (pack 1) leans on sectors + ongoing, Energy Market (pack 2) on discard + ongoing.
    assert seen["sectors", 1] >= 10 and seen["ongoing", 1] >= 3 and seen["discard", 1] == 0
    assert seen["discard", 2] >= 10 and seen["ongoing", 2] >= 3 and seen["sectors", 2] == 0
    assert len(pairs) == 6          # every forward pair of develop < transmit < research < invest
    # The base set has none of them.
    for c in range(N_BASE_IND):
        for act, _, _, mk, _ in icon_rows(T, L.FACE_IND + c):
            assert act != L.ACT_ONGOING and mk not in (L.MULT_SECTORS, L.MULT_DISCARD)
    st = card_set_stats(both)
    assert st["mults"]["sectors"] == seen["sectors", 1] and st["mults"]["discard"] == seen["discard", 2]
    assert st["icons"]["ongoing"] == seen["ongoing", 1] + seen["ongoing", 2]


def test_r12_ongoing_cards_carry_only_the_ongoing_icon(raws, both):
    T = both.table
    n = 0
    for c in range(N_BASE_IND, both.n_ind):
        rows = icon_rows(T, L.FACE_IND + c)
        if any(act == L.ACT_ONGOING for act, *_ in rows):
            assert len(rows) == 1, both.card_ids[c]
            n += 1
    assert n == sum(any(ic["action"] == "ongoing" for ic in card["icons"])
                    for p in PACKS for card in raws[p]["cards"]) >= 6


def test_r12_ongoing_pairs_never_form_a_loop(raws):
    """Left before right in develop < transmit < research < invest, over both packs together: even
    an engine that let a granted right action trigger another ongoing card would stop."""
    for path in PACKS:
        for card in raws[path]["cards"]:
            for ic in card["icons"]:
                if ic["action"] == "ongoing":
                    assert ONGOING_ORDER[ic["left"]] < ONGOING_ORDER[ic["right"]], card["id"]


# ----------------------------------------------------------------------------------------------
# Design: costs, arrows, mixes, balance against the base set
# ----------------------------------------------------------------------------------------------
def test_costs_arrows_and_mixed_cards(raws):
    arrows_all = Counter()
    for path in PACKS:
        cards = raws[path]["cards"]
        costs = Counter(c["cost"] for c in cards)
        assert min(costs) == 2 and max(costs) == 7, (path.name, costs)
        assert all(2 <= k <= 7 for k in costs)
        assert len(costs) == 6                       # every cost 2..7 present
        arrows = Counter(a for c in cards for a in c.get("arrows", []))
        arrows_all += arrows
        assert 8 <= sum(bool(c.get("arrows")) for c in cards) <= 16, path.name
        # A few cards mix a tech icon with base icons.
        mixed = [c["id"] for c in cards if tech_kinds(c["icons"]) and
                 any(ic["action"] != "ongoing" and ic.get("mult") not in ("sectors", "discard")
                     for ic in c["icons"])]
        assert len(mixed) >= 4, (path.name, mixed)
        # Every card uses a tech icon: that is what the packs are for.
        assert all(tech_kinds(c["icons"]) for c in cards), path.name
        # Production cards stick to produce / develop / transmit plus the ongoing icon ...
        for c in cards:
            if c["deck"] == "production":
                assert all(ic["action"] in ("produce", "develop", "transmit", "ongoing") for ic in c["icons"]), c["id"]
    assert set(arrows_all) == {"left", "up", "down"}


# Action-value model of configs/cards/README.md (base set), extended to the tech-pack icons as the
# "Tech packs" section explains.
ACTION = {"develop": 0.8, "transmit": 1.0, "research": 0.9, "invest": 1.1}
MULT = {"clean": 1.3, "dirty": 1.6, "sectors": 2.0}
LEFT_USES = {"develop": 2.5, "transmit": 3.0, "research": 2.0, "invest": 1.5}
DISCARDED = 2          # cards discarded for one discard-multiplier use, on average
DISCARD_BONUS = 0.95   # what a discarded card would have given (produce Fossil Fuel or research +1)


def icon_value(ic):
    a = ic["action"]
    if a == "ongoing":
        return LEFT_USES[ic["left"]] * ACTION[ic["right"]]
    if a == "produce":
        v = 2.0 if ic["column"] == "here" else 1 + 0.5 * ic["column"]
    else:
        v = ACTION[a]
    m = ic.get("mult", 1)
    if m == "discard":
        return DISCARDED * max(0.4, v - DISCARD_BONUS)
    if m == "sectors" and ic.get("column") == "here":
        return 3.7     # the sectors count and the column of 'here' pull in opposite directions
    return v * (m if isinstance(m, int) else MULT[m])


def card_value(card):
    return sum(icon_value(ic) for ic in card["icons"]) + 0.7 * len(card.get("arrows", []))


def test_packs_are_balanced_against_the_base_set(raws):
    base_raw = yaml.safe_load(DEFAULT_CARD_SET.read_text(encoding="utf-8"))
    base_cards = [c for d in ("production", "infrastructure") for c in base_raw[d] if 2 <= c["cost"] <= 7]
    base_ratio = statistics.mean(card_value(c) / c["cost"] for c in base_cards)
    for path in PACKS:
        ratios = {c["id"]: card_value(c) / c["cost"] for c in raws[path]["cards"]}
        assert all(0.75 <= r <= 1.2 for r in ratios.values()), (path.name, ratios)
        assert abs(statistics.mean(ratios.values()) - base_ratio) <= 0.06, path.name


# ----------------------------------------------------------------------------------------------
# The `electrify cards validate` summary
# ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.stem)
def test_validate_summary_of_a_pack_on_the_base_set(path, raws):
    cs = load_card_set(None, tech_packs=(path,))
    text = validate_summary(DEFAULT_CARD_SET, tech_packs=(path,))
    assert f"tech packs: {raws[path]['pack']['name']}" in text
    assert f"configs/cards/{path.name}" in text
    assert "industry cards: 124" in text and cs.hash in text
    mult = "sectors" if path == GRID else "discard"
    assert f"{mult} " in text.split("multipliers:")[1].splitlines()[0]
    assert "ongoing" in text.split("icons:")[1].splitlines()[0]


def test_validate_summary_of_both_packs(both):
    text = validate_summary(None, tech_packs=PACKS)
    assert "tech packs: Grid Modernization, Energy Market" in text
    assert "industry cards: 144 (production 72, infrastructure 72)" in text
    assert both.hash in text


def _cli(argv):
    """``electrify ARGV`` in-process: (exit code, stdout, stderr)."""
    from electrify_env.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", PACKS, ids=lambda p: p.stem)
def test_validating_a_pack_file_alone(path, raws, tmp_path):
    """`electrify cards validate configs/cards/tech_grid.yaml` validates the pack on top of the
    base set (or of ``--base FILE``) and prints the combined set's summary; in Python, a pack file
    given as the card set itself is refused with a message that says what to do."""
    with pytest.raises(CardSetError) as info:
        validate_summary(path)
    assert str(info.value) == (f"configs/cards/{path.name}: card set: field 'pack': this is a tech-pack "
                               f"file; load it through tech_packs on top of a card set")
    rc, out, err = _cli(["cards", "validate", str(path)])
    assert (rc, err) == (0, "")
    assert out == validate_summary(None, tech_packs=[path]) + "\n"
    lines = out.splitlines()
    assert lines[0] == f"card set 'base': configs/cards/base.yaml, configs/cards/{path.name}"
    assert lines[1] == f"  tech packs: {raws[path]['pack']['name']}"
    assert lines[-1] == f"  hash: {load_card_set(None, tech_packs=[path]).hash}"
    other = tmp_path / "other.yaml"
    other.write_text(DEFAULT_CARD_SET.read_text(encoding="utf-8").replace("name: base", "name: other", 1),
                     encoding="utf-8")
    rc, out, err = _cli(["cards", "validate", str(path), "--base", str(other)])
    assert (rc, err) == (0, "")
    assert out.splitlines()[0] == f"card set 'other': {other}, configs/cards/{path.name}"


def test_a_broken_pack_file_is_reported_by_cards_validate(tmp_path):
    """A pack file with an error is reported as such (not summarised, not read as a card set)."""
    bad = tmp_path / "tech_bad.yaml"
    bad.write_text(GRID.read_text(encoding="utf-8").replace("cost: 2,", "cost: 12,", 1), encoding="utf-8")
    rc, out, err = _cli(["cards", "validate", str(bad)])
    assert rc == 1 and out == ""
    assert err.startswith(f"invalid card set: {bad}: pack card TG01: field 'cost': "), err
    assert err.count("\n") == 1


def test_cards_readme_shows_what_validating_a_pack_file_does():
    """configs/cards/README.md shows the output of `electrify cards validate` on a pack file; the
    lines it shows (up to its "...") are the command's first lines, word for word."""
    readme = (DEFAULT_CARDS_DIR / "README.md").read_text(encoding="utf-8")
    command = "$ electrify cards validate configs/cards/tech_grid.yaml"
    assert command in readme
    block = readme.split(command + "\n", 1)[1].split("```", 1)[0].splitlines()
    shown = block[:block.index("...")]
    assert len(shown) >= 2
    rc, out, _ = _cli(["cards", "validate", str(GRID)])
    assert rc == 0 and out.splitlines()[:len(shown)] == shown
    assert "refuses it" not in readme
