"""Gizmos rulings G1-G25 (docs/gizmos/rules.md), one test per ruling, each set up with the
position builder so that it reads like the ruling.

Cards of the default set used here (configs/gizmos/cards.yaml):
L1-01 red file machine: do a Pick        L1-02 red file machine: 1 token
L1-03 red pick machine: red or yellow -> draw 1     L1-04 red pick machine: blue -> draw 1
L1-05 red build machine: build red -> do a Pick     L1-06 red build: yellow or blue -> 1 token
L1-07 red upgrade +1 storage +1 research             L1-08 red converter: red counts as any
L1-09 red converter: red counts as two red           L1-10.. the same for yellow, L1-19.. blue
L2-03 red build machine: level II -> two Picks       L2-04 red build: red or yellow -> do a File
L2-05 red build: red or black -> do a Research       L2-06 red build: from the archive -> 2 tokens
L2-07 red upgrade: level-II builds cost 1 less       L2-08 red converter: up to two red count as any
L2-09 red converter: any marble counts as another colour
L2-16 yellow upgrade: archive builds cost 1 less     L2-25 blue upgrade: research builds cost 1 less
L2-24 blue build: blue or black -> free level-I build  L1-17/L1-18 yellow: yellow as any / as two yellow
L3-05 red upgrade: no more File                      L3-13 yellow upgrade: no more Research
L3-33 any upgrade: points = marbles in storage       L3-35 any upgrade: points = tokens
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from electrify_env.gizmos import Game
from electrify_env.gizmos.actions import encode
from electrify_env.gizmos.cards import CardSetError, compile_card_set, load_card_set
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.engine.gz_energy import pbase
from electrify_env.gizmos.position import Player, Position, PositionError
from electrify_env.validation import IllegalActionError

CS = load_card_set()
RED, YELLOW, BLUE, BLACK = range(4)


def act(g: Game, kind: str, **args) -> None:
    """Take a legal action by kind and arguments (the step refuses an illegal one)."""
    g.step(encode(kind, **args))


def legal(g: Game, kind: str, **args) -> bool:
    return g.decision().has(kind, **args)


def P(g: Game, p: int = 0, field: int = L.P_STORE, n: int = 1):
    pb = pbase(p)
    v = g.state[pb + field:pb + field + n]
    return [int(x) for x in v] if n > 1 else int(v[0])


def storage(g: Game, p: int = 0) -> list[int]:
    return P(g, p, L.P_STORE, 4)


def machines(g: Game, p: int = 0) -> list[str]:
    pb = pbase(p)
    return [CS.ids[int(c)] for c in g.state[pb + L.P_BUILT:pb + L.P_BUILT + g.state[pb + L.P_BUILT_N]]]


def display(g: Game, level: int) -> list[str | None]:
    d = level - 1
    return [CS.ids[int(c)] if c >= 0 else None
            for c in g.state[L.S_DISPLAY + d * L.MAX_DISPLAY:L.S_DISPLAY + d * L.MAX_DISPLAY + int(CS.table[L.T_DISPLAY + d])]]


def deck(g: Game, level: int) -> list[str]:
    """Deck ``level``, top first."""
    d = level - 1
    n = int(g.state[L.S_DECK_N + d])
    return [CS.ids[int(c)] for c in g.state[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + n]][::-1]


def row(g: Game) -> list[int]:
    return [int(x) for x in g.state[L.S_ROW:L.S_ROW + 4]]


def dispenser(g: Game) -> list[int]:
    return [int(x) for x in g.state[L.S_DISPENSER:L.S_DISPENSER + 4]]


def small_set(**rules) -> object:
    """The default set with other rule data (marble counts, limits, caps)."""
    import yaml
    data = yaml.safe_load(open(CS.path))
    data["rules"].update(rules)
    return compile_card_set(data, "small")


def pay_exactly(g: Game, *colours: int) -> None:
    for c in sorted(colours):
        act(g, "spend", colour=c)
    act(g, "confirm")


# ----------------------------------------------------------------------------------------------
def test_g1_energy_counts_row_refill_and_short_row_when_dispenser_empty():
    g = Game(2, seed=3)
    assert [a + b for a, b in zip(dispenser(g), row(g))] == [13, 13, 13, 13]
    assert sum(row(g)) == 6
    # 2 marbles of each colour: the storage holds 2, the row 6, the dispenser none
    cs = small_set(marbles={"red": 2, "yellow": 2, "blue": 2, "black": 2})
    g = Position(card_set=cs, players={0: Player(storage={"yellow": 1, "black": 1})},
                 row={"red": 2, "yellow": 1, "blue": 2, "black": 1},
                 display={1: ["L1-01", "L1-10", "L1-19", "L1-28"]}).build()
    assert dispenser(g) == [0, 0, 0, 0]
    act(g, "pick", colour=RED)                   # a marble leaves the row: no marble to refill it
    assert row(g) == [1, 1, 2, 1] and storage(g) == [1, 1, 0, 1]
    assert g.current_player == 1                 # no machine waits: the turn ended by itself
    act(g, "pick", colour=BLUE)
    # seat 0 builds L1-10 (yellow, cost 1): the spent marble goes to the dispenser, then the row is topped up
    act(g, "build", level=1, slot=1)
    pay_exactly(g, YELLOW)
    assert sum(row(g)) == 5 and sum(dispenser(g)) == 0
    assert row(g)[YELLOW] == 2                   # the only marble in the dispenser was the yellow one


def test_g2_default_set_counts_ranges_and_schema_errors():
    T = CS.table
    lv = [int(T[L.T_LEVEL + c]) for c in range(CS.n_cards)]
    assert [lv.count(k) for k in range(4)] == [4, 36, 36, 36]
    for c in range(CS.n_cards):
        cost, pts, col = int(T[L.T_COST + c]), int(T[L.T_POINTS + c]), int(T[L.T_COLOUR + c])
        if lv[c] == 0:
            assert (cost, pts, col, int(T[L.T_EFFECT + c]), int(T[L.T_EFF_N + c])) == (0, 0, L.COL_NONE, L.EF_DRAW, 1)
        elif lv[c] == 1:
            assert (cost, pts) == (1, 1)
        elif lv[c] == 2:
            assert 2 <= cost <= 3 and 2 <= pts <= 3
        else:
            assert 4 <= cost <= 7 and 4 <= pts <= 7
            if T[L.T_UP_SPECIAL + c] in (L.UP_SCORE_STORAGE, L.UP_SCORE_TOKENS):
                assert col == L.COL_ANY
    for level in (1, 2, 3):
        counts = [sum(1 for c in range(CS.n_cards) if lv[c] == level and T[L.T_COLOUR + c] == k) for k in range(4)]
        assert len(set(counts)) == 1, counts
    import yaml
    data = yaml.safe_load(open(CS.path))
    data["cards"][10]["cost"] = -1
    with pytest.raises(CardSetError, match=r"^x.yaml: card L1-07: field 'cost': must be a whole number from 0 \(got -1\)$"):
        compile_card_set(data, "x.yaml")
    data = yaml.safe_load(open(CS.path))
    data["cards"][6]["trigger"] = ["red", "blue", "black"]
    with pytest.raises(CardSetError, match=r"card L1-03: field 'trigger': must be one or two colours"):
        compile_card_set(data, "x.yaml")
    data = yaml.safe_load(open(CS.path))
    data["cards"][0]["colour"] = "red"
    with pytest.raises(CardSetError, match=r"card S0: field 'colour': a level-0 card has no colour"):
        compile_card_set(data, "x.yaml")


def test_g3_every_effect_of_the_vocabulary_is_in_the_default_set():
    T = CS.table
    seen = set()
    for c in range(CS.n_cards):
        typ, ef = int(T[L.T_TYPE + c]), int(T[L.T_EFFECT + c])
        if ef == L.EF_UPGRADE:
            seen.add(("upgrade", "storage") if T[L.T_UP_STORAGE + c] else None)
            seen.add(("upgrade", "archive") if T[L.T_UP_ARCHIVE + c] else None)
            seen.add(("upgrade", "research") if T[L.T_UP_RESEARCH + c] else None)
            seen.add(("upgrade", int(T[L.T_UP_SPECIAL + c])))
        elif ef == L.EF_CONVERTER:
            n = int(T[L.T_CV_N + c])
            seen.add(("converter", "two doubles" if n == 2 else int(T[L.T_CV_KIND + 2 * c])))
        else:
            seen.add((typ, ef))
        if typ == L.TY_BUILD:
            seen.add(("build trigger", int(T[L.T_TRIG + c])))
    want = {(L.TY_FILE, L.EF_PICK), (L.TY_FILE, L.EF_TOKENS), (L.TY_FILE, L.EF_DRAW), (L.TY_PICK, L.EF_DRAW),
            (L.TY_BUILD, L.EF_PICK), (L.TY_BUILD, L.EF_TWO_PICKS), (L.TY_BUILD, L.EF_TOKENS),
            (L.TY_BUILD, L.EF_FILE), (L.TY_BUILD, L.EF_RESEARCH), (L.TY_BUILD, L.EF_FREE_BUILD),
            ("upgrade", "storage"), ("upgrade", "archive"), ("upgrade", "research"),
            *(("upgrade", sp) for sp in range(1, L.N_SPECIALS)),
            ("converter", L.CV_DOUBLE), ("converter", L.CV_WILD), ("converter", L.CV_WILD2),
            ("converter", L.CV_ANY), ("converter", "two doubles"),
            ("build trigger", L.TR_COLOURS), ("build trigger", L.TR_LEVEL2), ("build trigger", L.TR_ARCHIVE)}
    assert want <= seen, want - seen
    import yaml
    data = yaml.safe_load(open(CS.path))
    data["cards"][4]["effect"] = "research"        # a file machine cannot research
    with pytest.raises(CardSetError, match=r"card L1-01: field 'effect': a file machine's effect is one of pick"):
        compile_card_set(data, "x.yaml")


def test_g4_setup_display_level3_cut_starting_machines_and_limits():
    for n in (2, 3, 4):
        g = Game(n, seed=11)
        assert [sum(x is not None for x in display(g, lv)) for lv in (1, 2, 3)] == [4, 3, 2]
        assert int(g.state[L.S_DECK_N + 2]) + 2 == 16 and int(g.state[L.S_BOX_N]) == 20
        assert int(g.state[L.S_DECK_N]) == 32 and int(g.state[L.S_DECK_N + 1]) == 33
        for p in range(n):
            assert machines(g, p) == [f"S{p}"] and storage(g, p) == [0, 0, 0, 0] and P(g, p, L.P_ARCH_N) == 0
            assert (P(g, p, L.P_LIM_STORE), P(g, p, L.P_LIM_ARCH), P(g, p, L.P_LIM_RES)) == (5, 1, 3)
        assert g.current_player == 0 and g.round == 1 and sum(row(g)) == 6
    g = Game(2, seed=1, card_set=small_set(level3_keep=40))      # 36 cards: all kept
    assert int(g.state[L.S_BOX_N]) == 0 and int(g.state[L.S_DECK_N + 2]) == 34


def test_g5_one_action_then_the_turn_and_pass_only_when_nothing_is_legal():
    g = Game(2, seed=0)
    act(g, "pick", colour=int(np.argmax(row(g))))
    assert g.current_player == 1                    # one action, no machine waiting: turn over
    g = Position(players={0: Player(storage={"red": 5}, archive=["L1-10"])},
                 decks={1: [], 2: [], 3: []},
                 display={1: ["L1-11", "L1-12", "L1-13", "L1-14"], 2: ["L2-10", "L2-11", "L2-12"],
                          3: ["L3-09", "L3-10"]}).build()
    d = g.decision()
    assert [o.kind for o in d.options] == ["pass"] and d.options[0].text == "pass (no action is possible)"
    act(g, "pass")
    assert g.current_player == 1


def test_g6_file_refills_from_the_deck_top_limits_and_file_machines():
    g = Position(players={0: Player(machines={"file": ["S0", "L1-02"]})},
                 display={1: ["L1-10", "L1-11", "L1-12", "L1-13"]}, decks={1: ["L1-20", "L1-21"]}).build()
    act(g, "file", level=1, slot=2)
    assert P(g, 0, L.P_ARCH_N) == 1 and CS.ids[P(g, 0, L.P_ARCH)] == "L1-12"
    assert display(g, 1) == ["L1-10", "L1-11", "L1-20", "L1-13"] and deck(g, 1) == ["L1-21"]
    assert g.phase == "chain" and legal(g, "use", machine=0) and legal(g, "use", machine=1)
    act(g, "pass")
    # archive full (limit 1): no File; an empty deck leaves the slot empty
    assert not any(o.kind == "file" for o in g.decision().options) or g.current_player == 1
    g = Position(players={0: Player(archive=[])}, decks={1: []},
                 display={1: ["L1-10", "L1-11", "L1-12", "L1-13"]}).build()
    act(g, "file", level=1, slot=0)
    assert display(g, 1)[0] is None
    g = Position(players={0: Player(machines={"file": ["S0"], "upgrade": ["L3-05"]})}).build()
    assert not any(o.kind == "file" for o in g.decision().options)     # no more File


def test_g7_pick_takes_a_row_marble_and_fires_pick_machines_of_its_colour():
    g = Position(players={0: Player(machines={"file": ["S0"], "pick": ["L1-03", "L1-04"]}, storage={"black": 1})},
                 row={"red": 2, "yellow": 1, "blue": 1, "black": 2}).build()
    act(g, "pick", colour=YELLOW)
    assert storage(g) == [0, 1, 0, 1] and sum(row(g)) == 6
    assert P(g, 0, L.P_WAIT, 3) == [0, 1, 0]          # red-or-yellow machine waits, blue one not
    act(g, "use", machine=1)
    assert sum(storage(g)) == 3                       # drew one blind
    g = Position(players={0: Player(storage={"red": 5})}).build()
    assert not any(o.kind == "pick" for o in g.decision().options)


def test_g8_build_places_by_type_refills_the_display_and_fires_build_machines():
    g = Position(players={0: Player(machines={"file": ["S0"], "build": ["L1-05", "L1-06"]}, storage={"red": 2},
                                    archive=["L1-07"])},
                 display={1: ["L1-09", "L1-10", "L1-11", "L1-12"]}, decks={1: ["L1-30"]}).build()
    act(g, "build", level=1, slot=0)            # L1-09, a red converter
    pay_exactly(g, RED)
    assert machines(g) == ["S0", "L1-05", "L1-06", "L1-09"] and display(g, 1)[0] == "L1-30"
    assert P(g, 0, L.P_WAIT, 4) == [0, 1, 0, 0]       # build red -> L1-05 waits; L1-06 (yellow/blue) does not
    act(g, "pass")
    act(g, "pick", colour=int(np.argmax(row(g))))      # seat 1
    act(g, "build_arch", index=0)                       # L1-07 from the archive: it leaves the archive
    pay_exactly(g, RED)
    assert P(g, 0, L.P_ARCH_N) == 0 and machines(g)[-1] == "L1-07" and P(g, 0, L.P_LIM_STORE) == 6


def test_g9_research_draws_returns_the_rest_in_order_and_builds_with_its_discount():
    top = ["L2-10", "L2-11", "L2-12", "L2-13", "L2-14"]
    g = Position(players={0: Player(machines={"file": ["S0"], "upgrade": ["L2-25"]}, storage={"yellow": 1})},
                 decks={2: top}).build()
    assert P(g, 0, L.P_LIM_RES) == 4
    shown = list(display(g, 2))
    act(g, "research", level=2)
    assert [CS.ids[int(c)] for c in g.state[L.S_RES:L.S_RES + 4]] == top[:4]
    assert g.public_view(0)["researching"] == top[:4] and g.public_view(1)["researching"] == []
    # L2-11 (yellow, cost 3) costs 2 from research... still more than 1 marble: not buildable
    assert not legal(g, "res_build", index=1) and legal(g, "res_file", index=1)
    act(g, "res_file", index=1)
    assert deck(g, 2) == ["L2-14", "L2-10", "L2-12", "L2-13"]     # the others under, in the order drawn
    assert display(g, 2) == shown                                   # no refill
    g = Position(players={0: Player(machines={"file": ["S0"], "upgrade": ["L2-25"]}, storage={"yellow": 1})},
                 decks={2: ["L2-10"]}).build()
    act(g, "research", level=2)                      # min(limit, deck size) = 1 card
    assert int(g.state[L.S_RES_N]) == 1
    act(g, "res_build", index=0)                     # L2-10 costs 2, 1 from research
    pay_exactly(g, YELLOW)
    assert machines(g)[-1] == "L2-10" and deck(g, 2) == []
    g = Position(decks={1: ["L1-01", "L1-02", "L1-03", "L1-04"]}).build()
    act(g, "research", level=1)
    act(g, "pass")                                   # take neither
    assert deck(g, 1) == ["L1-04", "L1-01", "L1-02", "L1-03"]


def test_g10_no_gain_passes_the_storage_limit():
    g = Position(players={0: Player(machines={"file": ["S0"]}, storage={"red": 4})},
                 display={1: ["L1-10", "L1-11", "L1-12", "L1-13"]}).build()
    act(g, "file", level=1, slot=0)
    before = dispenser(g)
    act(g, "use", machine=0)                 # draw 1 blind: room for 1
    assert sum(storage(g)) == 5 and sum(dispenser(g)) == sum(before) - 1
    g = Position(players={0: Player(machines={"file": ["S0", "L2-20"]}, storage={"red": 4})},
                 display={1: ["L1-10", "L1-11", "L1-12", "L1-13"]}).build()
    act(g, "file", level=1, slot=0)
    before = dispenser(g)
    act(g, "use", machine=1)                 # draw 2 blind with room for 1: one drawn, one stays
    assert sum(storage(g)) == 5 and sum(dispenser(g)) == sum(before) - 1
    assert not legal(g, "use", machine=0)    # storage full: the other draw is not offered


def _payments(g: Game) -> set:
    """Every whole payment the step-by-step choice can reach: (marbles, options)."""
    out = []

    def walk(h: Game):
        for o in h.decision().options:
            k = h.copy()
            k.step(o.id)
            if o.kind == "confirm":
                m = tuple(int(x) for x in h.state[L.S_PAY_M:L.S_PAY_M + 4])
                out.append((m, int(h.state[L.S_PAY_OPTS])))
            else:
                walk(k)
    walk(g)
    return out


def test_g11_payments_chain_converters_once_per_turn_and_offer_only_undominated_ones():
    # L1-09 doubles red, L1-08 turns one red into any colour: red -> two red -> one of them
    # yellow gives a single yellow, so a yellow card of cost 2 cannot be paid
    g = Position(players={0: Player(machines={"file": ["S0"], "converter": ["L1-09", "L1-08"]},
                                    storage={"red": 1, "blue": 1})},
                 display={2: ["L2-10", "L2-11", "L2-19"]}).build()
    assert not legal(g, "build", level=2, slot=0)
    g = Position(players={0: Player(machines={"file": ["S0"], "converter": ["L1-18", "L1-17"]},
                                    storage={"red": 1, "yellow": 2})},
                 display={2: ["L2-10", "L2-11", "L2-19"]}).build()
    act(g, "build", level=2, slot=0)        # yellow cost 2; L1-18 doubles yellow, L1-17 yellow as any
    pays = _payments(g)
    assert len(pays) == len(set(pays))       # none offered twice
    # minimal payments: 2 yellow; 1 yellow doubled (option 0)
    assert set(pays) == {((0, 2, 0, 0), 0), ((0, 1, 0, 0), 1)}
    # chaining: red -> any (L2-09) -> yellow -> doubled (L1-18) = 2 yellow from one red
    g = Position(players={0: Player(machines={"file": ["S0"], "converter": ["L1-18", "L2-09"]},
                                    storage={"red": 1})},
                 display={2: ["L2-10", "L2-11", "L2-19"]}).build()
    act(g, "build", level=2, slot=0)
    assert set(_payments(g)) == {((1, 0, 0, 0), 0b11)}
    act(g, "spend", colour=RED)
    act(g, "convert", option=0)
    act(g, "convert", option=1)
    act(g, "confirm")
    assert machines(g)[-1] == "L2-10" and storage(g) == [0, 0, 0, 0]
    # an option used in one build stays used for the turn: L1-09 doubles red for L2-01, then
    # L2-05 (build red -> Research) finds L2-03 (red, cost 2) and one red left cannot pay it
    g = Position(players={0: Player(machines={"file": ["S0"], "converter": ["L1-09"], "build": ["L2-05"]},
                                    storage={"red": 2})},
                 display={2: ["L2-01", "L2-11", "L2-19"]}, decks={2: ["L2-02", "L2-03"]}).build()
    act(g, "build", level=2, slot=0)                # the slot refills with L2-02; L2-03 stays in the deck
    act(g, "spend", colour=RED)
    act(g, "convert", option=0)
    act(g, "confirm")
    act(g, "use", machine=2)
    act(g, "research", level=2)
    assert g.decision().context.endswith("L2-03") and not legal(g, "res_build", index=0)
    h = Position(players={0: Player(machines={"file": ["S0"], "converter": ["L1-09"], "build": ["L2-05"]},
                                    storage={"red": 1})},
                 display={2: ["L2-01", "L2-11", "L2-19"]}, decks={2: ["L2-03"]}).build()
    act(h, "research", level=2)
    assert legal(h, "res_build", index=0)         # with the option fresh, the same card is paid


def test_g12_discounts_add_up_and_never_go_below_zero():
    g = Position(players={0: Player(machines={"file": ["S0"], "upgrade": ["L2-07", "L2-16"]}, storage={"red": 1},
                                    archive=["L2-01"])}).build()
    # L2-01 red cost 2, level II from the archive: -1 level II, -1 archive = 0, paid with nothing
    act(g, "build_arch", index=0)
    assert machines(g)[-1] == "L2-01" and storage(g) == [1, 0, 0, 0]
    g = Position(players={0: Player(machines={"file": ["S0"], "upgrade": ["L2-16"]}, storage={},
                                    archive=["L1-01"])}).build()
    act(g, "build_arch", index=0)            # cost 1 - 1 = 0
    assert machines(g)[-1] == "L1-01"


def test_g13_waiting_machines_once_per_turn_in_any_order_end_turn_gives_up_the_rest():
    g = Position(players={0: Player(machines={"file": ["S0", "L1-02", "L1-11"]})},
                 display={1: ["L1-10", "L1-12", "L1-13", "L1-14"]}).build()
    act(g, "file", level=1, slot=0)
    assert g.phase == "chain" and {o.kind for o in g.decision().options} == {"use", "pass"}
    act(g, "use", machine=2)
    act(g, "use", machine=1)
    assert P(g, 0, L.P_TOKENS) == 2 and not legal(g, "use", machine=1)   # used once
    act(g, "pass")                                 # gives up S0
    assert g.current_player == 1 and P(g, 0, L.P_WAIT, 3) == [0, 0, 0] and P(g, 0, L.P_USED, 3) == [0, 0, 0]
    # a File effect files again: the file machines used already are not triggered again
    g = Position(players={0: Player(machines={"file": ["S0", "L1-02"], "build": ["L2-04"]}, storage={"red": 2},
                                    archive=[])}, display={1: ["L1-10", "L1-12", "L1-13", "L1-14"]},
                 ).build()
    g.state[pbase(0) + L.P_LIM_ARCH] = 3
    act(g, "file", level=1, slot=0)
    act(g, "use", machine=1)                      # 1 token
    act(g, "pass")
    assert P(g, 0, L.P_TOKENS) == 1


def test_g14_a_pick_effect_is_a_real_pick_and_blind_draws_trigger_nothing():
    g = Position(players={0: Player(machines={"file": ["S0", "L1-01"], "pick": ["L1-03"]})},
                 row={"red": 1, "yellow": 1, "blue": 2, "black": 2},
                 display={1: ["L1-10", "L1-12", "L1-13", "L1-14"]}).build()
    act(g, "file", level=1, slot=0)
    act(g, "use", machine=1)                       # do a Pick
    assert g.phase == "effect_pick" and not legal(g, "pass")
    act(g, "pick", colour=RED)
    assert P(g, 0, L.P_WAIT + 2) == 1              # the pick machine fires on the effect's Pick
    act(g, "use", machine=0)                       # S0: draw 1 blind ...
    waits = P(g, 0, L.P_WAIT, 3)
    assert waits == [0, 0, 1]                      # ... which triggers nothing


def test_g15_a_machine_is_not_triggered_by_its_own_build():
    g = Position(players={0: Player(machines={"file": ["S0"]}, storage={"red": 2})},
                 display={1: ["L1-05", "L1-10", "L1-12", "L1-13"]}).build()
    act(g, "build", level=1, slot=0)               # L1-05 (red build machine: build red -> pick)
    pay_exactly(g, RED)
    assert g.current_player == 1                   # nothing waits
    g = Position(players={0: Player(machines={"file": ["S0"]}, storage={"red": 2})},
                 display={1: ["L1-05", "L1-06", "L1-12", "L1-13"]}, current_player=0).build()
    act(g, "build", level=1, slot=0)
    pay_exactly(g, RED)
    act(g, "pick", colour=int(np.argmax(row(g))))  # seat 1
    act(g, "build", level=1, slot=1)               # seat 0: L1-06 is red: L1-05 fires now
    pay_exactly(g, RED)
    assert g.phase == "chain" and legal(g, "use", machine=1)


def test_g16_empty_effects_are_not_offered_until_the_position_changes():
    g = Position(players={0: Player(machines={"file": ["S0"], "build": ["L1-05"]}, storage={"red": 5})},
                 display={1: ["L1-09", "L1-10", "L1-12", "L1-13"]}).build()
    act(g, "file", level=1, slot=1)
    assert g.current_player == 1                   # S0 waits, storage full: not offered, turn ends
    g = Position(players={0: Player(machines={"file": ["S0"], "build": ["L1-05"]}, storage={"red": 5},
                                    archive=[])},
                 display={1: ["L1-09", "L1-10", "L1-12", "L1-13"]}).build()
    g.state[pbase(0) + L.P_LIM_ARCH] = 2
    act(g, "file", level=1, slot=1)                # S0 waits but storage is full
    assert g.current_player == 1
    g = Position(players={0: Player(machines={"file": ["S0"], "build": ["L1-05", "L2-04"]}, storage={"red": 5},
                                    waiting=["S0"])}, phase="chain").build()
    assert g.current_player == 1                    # nothing offered: the turn ends by itself
    g = Position(players={0: Player(machines={"file": ["S0"], "build": ["L1-05"]}, storage={"red": 5},
                                    waiting=["S0"])},
                 display={1: ["L1-09", "L1-10", "L1-12", "L1-13"]}).build()
    act(g, "build", level=1, slot=0)               # spending a marble makes room: S0 is offered now
    pay_exactly(g, RED)
    assert legal(g, "use", machine=0) and legal(g, "use", machine=1)


def test_g17_free_build_is_a_build_from_display_or_archive_of_level_one():
    g = Position(players={0: Player(machines={"file": ["S0"], "build": ["L2-24", "L2-06"]},
                                    storage={"blue": 3}, archive=["L1-01"])},
                 display={1: ["L1-10", "L1-12", "L1-13", "L1-14"], 2: ["L2-19", "L2-20", "L2-21"]}).build()
    act(g, "build", level=2, slot=0)               # L2-19 blue: L2-24 (blue or black -> free build) waits
    pay_exactly(g, BLUE, BLUE)
    act(g, "use", machine=1)
    d = g.decision()
    assert d.kind == "free_build" and {o.kind for o in d.options} == {"build", "build_arch"}
    assert not any(o.kind == "build" and o.args["level"] > 1 for o in d.options)
    before = storage(g)
    act(g, "build_arch", index=0)                  # from the archive, paying nothing
    assert storage(g) == before and machines(g)[-1] == "L1-01"
    assert legal(g, "use", machine=2)              # "from the archive" machine fires


def test_g18_level_two_discount_is_permanent():
    g = Position(players={0: Player(machines={"file": ["S0"], "upgrade": ["L2-07"]}, storage={"red": 4})},
                 display={2: ["L2-01", "L2-02", "L2-03"]}).build()
    act(g, "build", level=2, slot=0)               # cost 2 -> 1
    pay_exactly(g, RED)
    act(g, "pick", colour=int(np.argmax(row(g))))
    act(g, "build", level=2, slot=1)               # L2-02 cost 3 -> 2, again
    assert int(g.state[L.S_PAY_COST]) == 2


def test_g19_two_picks_one_after_the_other_and_the_second_may_be_declined():
    g = Position(players={0: Player(machines={"file": ["S0"], "build": ["L2-03"]}, storage={"yellow": 2})},
                 display={2: ["L2-10", "L2-11", "L2-12"]}, row={"red": 3, "yellow": 1, "blue": 1, "black": 1}).build()
    act(g, "build", level=2, slot=0)
    pay_exactly(g, YELLOW, YELLOW)
    act(g, "use", machine=1)
    assert g.phase == "effect_pick" and not legal(g, "pass")
    act(g, "pick", colour=RED)
    assert g.phase == "effect_pick" and legal(g, "pass")
    act(g, "pass")
    assert storage(g) == [1, 0, 0, 0]


def test_g20_the_round_is_completed_and_scoring_counts_end_game_upgrades():
    many = ["L1-01", "L1-02", "L1-10", "L1-11", "L1-19", "L1-20", "L1-28", "L1-29", "L2-01", "L2-10", "L2-19",
            "L2-28", "L3-01", "L3-09"]
    g = Position(n_players=3, players={1: Player(machines={"file": ["S1", *many]}, storage={"red": 1})},
                 current_player=1, display={1: ["L1-05", "L1-12", "L1-13", "L1-14"]}).build()
    assert len(machines(g, 1)) == 15
    act(g, "build", level=1, slot=0)
    pay_exactly(g, RED)                             # 16th machine
    assert g.state[L.S_ENDING] == 1 and not g.done and g.current_player == 2
    act(g, "pick", colour=int(np.argmax(row(g))))
    assert g.done and not g.truncated
    assert [int(x) for x in g.state[pbase(0) + L.P_TURNS:pbase(0) + L.P_TURNS + 1]] == [0]  # seat 0's turn came first
    g = Position(players={0: Player(machines={"file": ["S0"], "upgrade": ["L3-33", "L3-35"], "build": ["L3-02"]},
                                    storage={"red": 3}, tokens=4)}).build()
    assert g.points_by_source(0) == {"machines": 5, "tokens": 4, "upgrades": 3 + 4}
    assert int(g.scores()[0]) == 16
    # four level-III machines end the game too
    g = Position(players={0: Player(machines={"file": ["S0"], "build": ["L3-02", "L3-10", "L3-18"]},
                                    storage={"black": 4})},
                 display={3: ["L3-25", "L3-27"]}).build()
    act(g, "build", level=3, slot=0)                # L3-25: black, cost 4
    pay_exactly(g, BLACK, BLACK, BLACK, BLACK)
    act(g, "pass")                                  # L3-18 (blue or black) waits: give it up
    assert g.state[L.S_ENDING] == 1 and g.current_player == 1
    act(g, "pick", colour=int(np.argmax(row(g))))
    assert g.done


def test_g21_ties_break_on_machines_then_marbles_then_the_higher_seat():
    base = {"file": ["S0"]}
    g = Position(n_players=3, players={0: Player(tokens=3, storage={"red": 1}),
                                        1: Player(tokens=3, storage={"red": 2}),
                                        2: Player(tokens=3, storage={"red": 1})}).build()
    assert list(g.scores()) == [3, 3, 3]
    assert list(g.ranks()) == [2, 0, 1]              # marbles: seat 1; then seat 2 above seat 0
    g = Position(n_players=2, players={0: Player(machines={"file": ["S0", "L1-01"]}, tokens=2),
                                        1: Player(tokens=3, storage={"red": 5})}).build()
    assert list(g.scores()) == [3, 3] and list(g.ranks()) == [0, 1]   # more machines first


def test_g22_the_round_cap_ends_and_marks_the_game_truncated():
    g = Game(2, seed=5, card_set=small_set(max_rounds=2))
    while not g.done:
        g.step(int(g.legal_actions()[-1]) if g.phase == "main" else int(g.legal_actions()[0]))
    assert g.truncated and g.round == 2
    assert all(int(g.state[pbase(p) + L.P_TURNS]) == 2 for p in range(2))
    assert sorted(g.ranks().tolist()) == [0, 1]


def test_g23_the_mask_is_exactly_what_step_accepts_and_every_payment_is_reachable_once():
    rng = np.random.default_rng(1)
    for seed in range(6):
        g = Game(2 + seed % 3, seed=seed)
        while not g.done:
            mask = g.legal_mask().copy()
            assert mask.sum() >= 1
            for a in rng.choice(L.N_ACTIONS, 6, replace=False):
                h = g.copy()
                if mask[a]:
                    h.step(int(a))
                else:
                    with pytest.raises(IllegalActionError):
                        h.step(int(a))
                    assert np.array_equal(h.state, g.state)
            if g.phase == "pay":
                pays = _payments(g)
                assert len(pays) == len(set(pays)) and pays
            g.step(int(rng.choice(np.flatnonzero(mask))))


def test_g24_same_seed_and_actions_same_states_and_copies_keep_the_future():
    a, b = Game(3, seed=42), Game(3, seed=42)
    rng = np.random.default_rng(0)
    for _ in range(60):
        x = int(rng.choice(a.legal_actions()))
        a.step(x)
        b.step(x)
        assert np.array_equal(a.state, b.state)
    c = a.copy()
    while not a.done:
        x = int(a.legal_actions()[0])
        a.step(x)
        c.step(x)
        assert np.array_equal(a.state, c.state)


def test_g25_a_seat_sees_no_deck_order_removed_cards_other_draws_or_generator():
    g = Position(decks={2: ["L2-10", "L2-11", "L2-12", "L2-13"]}).build()
    act(g, "research", level=2)
    for seat in (0, 1):
        view = g.public_view(seat)
        text = repr(view)
        assert "rng" not in text and "seed" not in text and "box" not in text
        assert view["deck_sizes"] == [int(x) for x in g.state[L.S_DECK_N:L.S_DECK_N + 3]]
        removed = [CS.ids[int(c)] for c in g.state[L.S_BOX:L.S_BOX + g.state[L.S_BOX_N]]]
        for cid in removed + deck(g, 1) + deck(g, 2) + deck(g, 3):
            assert f"'{cid}'" not in text
    assert g.public_view(0)["researching"] == ["L2-10", "L2-11", "L2-12"]
    assert "L2-10" not in repr(g.public_view(1))


def _end_turn(g: Game) -> None:
    """End the turn when waiting machines hold it in the chain phase."""
    if g.phase == "chain":
        act(g, "pass")


def test_g25_the_researcher_knows_the_cards_it_put_under_until_they_are_drawn():
    a, b, c, d, e, f = ("L2-10", "L2-11", "L2-12", "L2-13", "L2-14", "L2-15")
    g = Position(decks={2: [a, b, c, d, e, f]}).build()
    act(g, "research", level=2)                          # seat 0 draws a, b, c
    act(g, "pass")                                       # all under, in the order drawn
    _end_turn(g)
    assert deck(g, 2) == [d, e, f, a, b, c]
    assert g.public_view(0)["known_under"] == [[], [[0, c], [1, b], [2, a]], []]
    assert g.public_view(1)["known_under"] == [[], [], []]
    assert not {a, b, c} & set(repr(g.public_view(1)).replace("'", " ").split())
    # a second Research on the same deck by the other seat: the places shift by the cards put under
    assert g.current_player == 1
    act(g, "research", level=2)                          # seat 1 draws d, e, f
    act(g, "pass")
    _end_turn(g)
    assert deck(g, 2) == [a, b, c, d, e, f]
    assert g.public_view(0)["known_under"][1] == [[3, c], [4, b], [5, a]]
    assert g.public_view(1)["known_under"][1] == [[0, f], [1, e], [2, d]]
    # seat 0 draws its own known cards: they are known no more, the two put back are known again
    act(g, "research", level=2)
    assert [CS.ids[int(x)] for x in g.state[L.S_RES:L.S_RES + 3]] == [a, b, c]
    assert g.public_view(0)["known_under"][1] == []
    act(g, "res_file", index=1)                          # file b; a and c go under
    _end_turn(g)
    assert deck(g, 2) == [d, e, f, a, c]
    assert g.public_view(0)["known_under"][1] == [[0, c], [1, a]]
    assert g.public_view(1)["known_under"][1] == [[2, f], [3, e], [4, d]]
    for cid in (a, c):
        assert f"'{cid}'" not in repr(g.public_view(1))
    for cid in (d, e, f):
        assert f"'{cid}'" not in repr(g.public_view(0))
    # a known card drawn from the top to refill the display is public, and known under no more
    g = Position(players={0: Player(machines={"file": ["S0"]})}, decks={1: ["L1-01", "L1-02"]},
                 display={1: ["L1-10", "L1-11", "L1-12", "L1-13"]}).build()
    g2 = Position(players={0: Player(machines={"file": ["S0"]}), 1: Player(known_under={1: ["L1-01", "L1-02"]})},
                  decks={1: ["L1-01", "L1-02"]}, display={1: ["L1-10", "L1-11", "L1-12", "L1-13"]}).build()
    assert g.public_view(1)["known_under"][0] == [] and g2.public_view(1)["known_under"][0] == [[0, "L1-02"], [1, "L1-01"]]
    act(g2, "file", level=1, slot=0)                     # the slot refills with L1-01 from the top
    assert display(g2, 1)[0] == "L1-01" and g2.public_view(1)["known_under"][0] == [[0, "L1-02"]]
    assert int(g2.state[L.S_DECK_KNOWN + 1]) == 0       # the drawn place holds no knowledge


def test_g25_the_position_builder_sets_what_a_seat_knows_of_a_deck_by_name():
    deck2 = ["L2-10", "L2-11", "L2-12"]
    g = Position(players={1: Player(known_under={2: ["L2-12", "L2-10"]})}, decks={2: deck2}).build()
    assert g.public_view(1)["known_under"] == [[], [[0, "L2-12"], [2, "L2-10"]], []]
    assert g.public_view(0)["known_under"] == [[], [], []]
    with pytest.raises(PositionError, match=r"players\[1\]\.known_under\[2\]\[0\]: card 'L2-13' is not in deck 2"):
        Position(players={1: Player(known_under={2: ["L2-13"]})}, decks={2: deck2}).build()
    with pytest.raises(PositionError, match=r"players\[0\]\.known_under\[4\]: level must be 1, 2 or 3"):
        Position(players={0: Player(known_under={4: ["L2-13"]})}).build()
    with pytest.raises(PositionError, match=r"players\[1\]\.known_under\[2\]\[0\]: card 'L2-10' is known to seat 0"):
        Position(players={0: Player(known_under={2: ["L2-10"]}), 1: Player(known_under={2: ["L2-10"]})},
                 decks={2: deck2}).build()
