"""The public position and decision API: the action codec (electrify_env.actions), the decision
view (Game.decision), the position builder (electrify_env.position), the pile and star accessors,
and custom card faces in the observation."""
import dataclasses

import numpy as np
import pytest

from electrify_env.agents.base import seat_view
from electrify_env import Game
from electrify_env.actions import (
    ANY_TIME_KINDS, KINDS, Action, ActionCodecError, action_range, decode, encode, kind_of, kinds_table,
)
from electrify_env.cards import load_card_set
from electrify_env.decision import IllegalOptionError, frame_offset, frame_values, pending_frame_type
from electrify_env.engine import layout as L
from electrify_env.engine.observe import OBS_SIZE, face_features, observe
from electrify_env.position import (
    Player, Position, PositionError, Sector, basic_face, with_table,
)

PROD, INFRA = 0, 1


def pb(p):
    return L.S_PLAYERS + p * L.P_SIZE


def readme_position() -> Position:
    """The position of the README's "Positions and decisions" example."""
    return Position(
        n_players=2, seed=0, round=3, pending="acquire", current_player=0,
        players={0: Player(chosen=2, hand=["P01", "I05"], depot=[2, 1, 0, 0, 0, 0, 0],
                           sectors={0: Sector(column=0, cards=["P07"]), 2: Sector(column=1)}),
                 1: Player(chosen=4)},
    )


# ==============================================================================================
# The action codec
# ==============================================================================================
def test_codec_covers_the_action_space_in_layout_order_and_round_trips_every_id():
    rows = L.layout_rows()["action ids"]
    assert [(r.kind, r.first, r.length) for r in KINDS] == [(n[2:].lower(), f, k) for n, f, k, _ in rows]
    assert KINDS[-1].first + KINDS[-1].length == L.N_ACTIONS
    for a in range(L.N_ACTIONS):
        act = decode(a)
        assert act.id == a and kind_of(a) == act.kind
        assert encode(act.kind, **act.args) == a
        assert getattr(L, act.range_name) <= a


def test_codec_arguments_follow_the_layout_formulas():
    """The formulas of layout.py's range comments: 2*b+f, s*5+slot, s*7+c, SOLO_PAIRS[k]."""
    assert encode("card_basic", basic=3, face=1) == L.A_CARD_BASIC + 7
    assert encode("dis_card", sector=2, slot=4) == L.A_DIS_CARD + 2 * L.MAX_SLOTS + 4
    assert encode("plan_move", sector=3, column=6) == L.A_PLAN_MOVE + 3 * L.N_COLS + 6
    for k, (i, j) in enumerate(L.SOLO_PAIRS):
        assert decode(L.A_SOLO_SWAP + k).args == {"sector_a": i, "sector_b": j}
    assert action_range("A_DONATE") is action_range("donate")
    assert ANY_TIME_KINDS == {"discard", "donate"}
    table = kinds_table().splitlines()
    assert len(table) == 2 + len(KINDS) and table[2 + 16] == (
        f"| `plan_move` | {L.A_PLAN_MOVE} | 35 | sector, column | {KINDS[16].meaning} |")


@pytest.mark.parametrize("call, field", [
    (lambda: decode(L.N_ACTIONS), "out of range"),
    (lambda: decode(-1), "out of range"),
    (lambda: decode(2.0), "integer"),
    (lambda: decode(True), "integer"),
    (lambda: encode("buy", hand_slot=1), "unknown action kind 'buy'"),
    (lambda: encode("card_basic", basic=1), "missing face"),
    (lambda: encode("pay", column=1, sector=2), "unexpected sector"),
    (lambda: encode("pay", column=7), "column must be 0..6"),
    (lambda: encode("pay", column="1"), "column must be an integer"),
    (lambda: encode("solo_swap", sector_a=3, sector_b=1), r"\(sector_a, sector_b\) must be one of"),
])
def test_codec_refuses_bad_input_naming_the_field(call, field):
    with pytest.raises(ActionCodecError, match=field):
        call()
    assert issubclass(ActionCodecError, ValueError)


def _check_effect(before: Game, o, after: Game) -> bool:
    """Does stepping option ``o`` do what its decoded arguments say?  (True when not checked.)"""
    p = before.current_player
    b = pb(p)
    S0, S1 = before.state, after.state
    a = o.args
    if o.kind == "plan":
        return S1[b + L.P_PLAN] == a["sector"] or S1[b + L.P_CHOSEN] == a["sector"]
    if o.kind == "pay":
        return S1[b + L.P_DEPOT + a["column"]] == S0[b + L.P_DEPOT + a["column"]] - 1
    if o.kind == "produce":
        return S1[b + L.P_DEPOT + a["column"]] >= S0[b + L.P_DEPOT + a["column"]] + 1
    if o.kind == "transmit":
        return S1[b + L.P_GRID + a["column"]] == S0[b + L.P_GRID + a["column"]] + 1
    if o.kind == "develop":
        return S1[b + L.P_DEPOT + a["column"] + 1] == S0[b + L.P_DEPOT + a["column"] + 1] + 1
    if o.kind == "donate":
        return S1[b + L.P_GRID + a["column"]] == S0[b + L.P_GRID + a["column"]] - 1
    if o.kind == "plan_move":
        return S1[b + L.P_SEC_COL + a["sector"]] == a["column"]
    if o.kind == "fulfill":
        return S1[b + L.P_FULFILLED + a["level"]] == 1 and o.refs["demand"] == S0[L.S_DEMAND + a["level"]]
    if o.kind in ("discard", "discard_mult"):
        return o.refs["card"] in after.discard_pile(int(before.cards.table[L.T_IND_DECK + o.refs["card"]]))
    if o.kind == "flip":
        return S1[b + L.P_SEC_SIDE + a["sector"]] == 1
    if o.kind == "dis_card":
        return S1[b + L.P_CARD_CHARGED + a["sector"] * L.MAX_SLOTS + a["slot"]] == 0 \
            and S0[b + L.P_SEC_CARD + a["sector"] * L.MAX_SLOTS + a["slot"]] == o.refs["face"]
    if o.kind == "dis_sector":
        return S1[b + L.P_SEC_CHARGED + a["sector"]] == 0
    return True


def test_decision_options_mean_what_their_arguments_say():
    """Over random games (3 players, both tech packs, solo, and one from a Fulfill step with
    every demand in reach): every option round-trips through the codec, carries the text of
    describe_action, and stepping it has the effect its kind and arguments name."""
    rich = Position(n_players=2, seed=9, round=2, pending="fulfill",
                    players={0: Player(chosen=0, grid=[9] * 7), 1: Player(chosen=1)})
    kinds = set()
    for make in (lambda: Game(n_players=3, seed=5), lambda: Game(n_players=2, seed=6, tech_packs=("grid", "market")),
                 lambda: Game(scenario="first_light", seed=7), rich.build):
        g = make()
        rng = np.random.default_rng(0)
        while not g.is_terminal:
            d = g.decision()
            assert d.player == g.current_player and d.round == g.round and d.ids == g.legal_actions().tolist()
            for o in d.options:
                assert encode(o.kind, **o.args) == o.id and o.text == g.describe_action(o.id)
                assert o.any_time == (o.kind in ANY_TIME_KINDS)
                h = g.copy()
                h.step(o.id)
                assert _check_effect(g, o, h), (o, d.kind)
                kinds.add(o.kind)
            g.step(int(rng.choice(d.ids)))
        end = g.decision()
        assert (end.kind, end.player, end.options) == ("game_over", -1, ())
    checked = {"plan", "pay", "produce", "develop", "transmit", "donate", "plan_move", "fulfill", "discard",
               "flip", "dis_card", "dis_sector"}
    assert checked - kinds == set(), "every checked kind must come up"


# ==============================================================================================
# The decision view
# ==============================================================================================
def test_decision_names_the_frame_and_finds_options():
    g = Game(n_players=2, seed=0)
    d = g.decision()
    assert (d.player, d.kind, d.round) == (0, "plan", 0)
    assert [o.args["sector"] for o in d.phase_options()] == [0, 1, 2, 3, 4]
    assert {o.kind for o in d.options if o.any_time} == {"discard"}
    hand = [int(c) for c in g.state[pb(0) + L.P_HAND:pb(0) + L.P_HAND + 6]]
    assert [o.refs["card"] for o in d.options if o.kind == "discard"] == hand
    g.step(d.find("plan", sector=2).id)
    assert g.decision().player == 1
    with pytest.raises(IllegalOptionError, match="not legal at this plan decision"):
        g.decision().find("boost")
    with pytest.raises(ActionCodecError, match="sector must be 0..4"):
        g.decision().find("plan", sector=9)


def test_the_pending_frame_readers_follow_the_stack_and_its_empty_end():
    """``frame_offset`` / ``frame_values`` / ``pending_frame_type`` read the top of the decision
    stack (and frames under it) of a state or a seat's information set; an empty stack or a
    frame below the bottom gives -1 / FT_NONE, never a frame outside the stack."""
    g = readme_position().build()
    g.step(g.decision().find("card_hand", hand_slot=0).id)      # pay above acquire
    sp = int(g.state[L.S_SP])
    assert sp >= 2
    assert frame_offset(g.state) == L.S_STACK + (sp - 1) * L.FRAME
    assert frame_offset(g.state, below=1) == L.S_STACK + (sp - 2) * L.FRAME
    assert frame_offset(g.state, below=sp) == -1
    assert pending_frame_type(g.state) == L.FT_PAY == frame_values(g.state)[L.FR_TYPE]
    assert pending_frame_type(seat_view(g, 0).infoset) == L.FT_PAY
    assert frame_values(g.state, below=1)[L.FR_TYPE] == int(g.state[L.S_STACK + (sp - 2) * L.FRAME])
    assert frame_values(g.state, below=sp) == [L.FT_NONE] + [0] * (L.FRAME - 1)
    empty = g.state.copy()
    empty[L.S_SP] = 0
    assert frame_offset(empty) == -1 and pending_frame_type(empty) == L.FT_NONE


def test_decision_context_names_the_frame_fields():
    """    player 0 at Acquire with P01 (cost 1) in hand: buying it opens the payment, whose
    context names the card and the value owed; paying opens the placement."""
    g = readme_position().build()
    d = g.decision()
    assert d.kind == "acquire" and d.context == {}
    g.step(d.find("card_hand", hand_slot=0).id)
    pay = g.decision()
    assert (pay.kind, pay.context) == ("pay", {"face": 0, "owed": 1})
    assert {o.args["column"] for o in pay.phase_options()} == {0, 1}
    g.step(pay.find("pay", column=1).id)
    place = g.decision()
    assert (place.kind, place.context) == ("place_sector", {"face": 0, "free": False})


# ==============================================================================================
# The position builder
# ==============================================================================================
def test_readme_positions_and_decisions_example():
    """The README example: a built position, its decision, one step, the piles."""
    game = readme_position().build()
    d = game.decision()
    assert (d.player, d.kind, d.round) == (0, "acquire", 3)
    first = d.phase_options()[:3]
    assert [(o.id, o.kind, dict(o.args), dict(o.refs)) for o in first] == [
        (0, "pass", {}, {}), (7, "card_hand", {"hand_slot": 0}, {"card": 0}),
        (8, "card_hand", {"hand_slot": 1}, {"card": 56})]
    assert first[1].text.startswith("buy from hand: P01")
    game.step(d.find("card_hand", hand_slot=0).id)
    assert (game.decision().kind, game.decision().context) == ("pay", {"face": 0, "owed": 1})
    assert decode(game.decision().ids[0]) == Action(64, "pay", {"column": 0})
    assert game.deck_size("production") == 47 and game.discard_pile("production") == []
    game.check_invariants()


def test_built_position_lays_out_every_field_and_keeps_cards_conserved():
    """    player 0: hand P01, I05; EP (column 0) holds P07 and basic card 0 face B, side B,
    charged; R&D in column 1; cubes, research, spaces, tokens, points, levels I and III;
    demand card D1b at level I.  Player 1 keeps its dealt hand."""
    base = Game(n_players=2, seed=0)
    dealt0 = [int(c) for c in base.state[pb(0) + L.P_HAND:pb(0) + L.P_HAND + 6]]
    pos = readme_position()
    pos.players[0] = dataclasses.replace(
        pos.players[0], sectors={0: Sector(column=0, cards=["P07", basic_face(0, 1)], side="B", charged=True,
                                           charged_cards=[1]), 2: Sector(column=1)},
        grid=[0, 0, 3, 0, 0, 0, 1], research=4, breakthroughs=[0, 5], clean_tokens=2, score=9,
        fulfilled=[0, 2], demands_this_round=1)
    pos.demand = {0: "D1b"}
    g = pos.build()
    S, cs = g.state, g.cards
    b = pb(0)
    ids = {name: cs.card_ids.index(name) for name in ("P01", "I05", "P07")}
    assert [int(c) for c in S[b + L.P_HAND:b + L.P_HAND + 2]] == sorted([ids["P01"], ids["I05"]])
    assert [int(c) for c in S[b + L.P_SEC_CARD:b + L.P_SEC_CARD + 2]] == [ids["P07"], basic_face(0, 1)]
    assert (S[b + L.P_SEC_SIDE], S[b + L.P_SEC_CHARGED], S[b + L.P_SEC_COL + 2]) == (1, 1, 1)
    assert S[b + L.P_CARD_CHARGED:b + L.P_CARD_CHARGED + 2].tolist() == [0, 1]
    assert S[L.S_BASIC + 0] == 0
    assert S[b + L.P_DEPOT:b + L.P_DEPOT + 7].tolist() == [2, 1, 0, 0, 0, 0, 0]
    assert S[b + L.P_GRID:b + L.P_GRID + 7].tolist() == [0, 0, 3, 0, 0, 0, 1]
    assert (S[b + L.P_RESEARCH], S[b + L.P_CLEAN], S[b + L.P_SCORE], S[b + L.P_NFULFILLED]) == (4, 2, 9, 2)
    assert np.flatnonzero(S[b + L.P_BT:b + L.P_BT + L.N_BT_SPACES]).tolist() == [0, 5]
    assert S[b + L.P_FULFILLED:b + L.P_FULFILLED + 7].tolist() == [1, 0, 1, 0, 0, 0, 0]
    assert S[b + L.P_DEMANDS_ROUND] == 1
    assert cs.demand_names[int(S[L.S_DEMAND])] == "D1b"
    assert S[pb(1) + L.P_HAND_N] == 6 and g.state[L.S_DECISIONS] == 0 and g.history == []
    # the dealt cards player 0 gave up lie at the bottom of their decks; P01, I05, P07 left them
    for d in (PROD, INFRA):
        deck = g.deck(d, reveal=True)
        back = [c for c in dealt0 if cs.table[L.T_IND_DECK + c] == d and c not in ids.values()]
        assert deck[len(deck) - len(back):] == sorted(back)
        assert not set(ids.values()) & set(deck)
    g.check_invariants()


def test_pending_steps_of_a_turn():
    """Each pending kind opens the decision of that name; "discharge" runs Charge first (the
    chosen sector's tile is charged, R8); "boost" needs the turn player's boost."""
    def at(pending, **player):
        return Position(n_players=2, round=5, pending=pending, current_player=1,
                        players={0: Player(chosen=1), 1: Player(chosen=3, **player)}).build()

    for pending in ("acquire", "discharge", "fulfill"):
        g = at(pending)
        assert (g.decision().kind, g.decision().player, g.round) == (pending, 1, 5)
    g = at("boost", boost="collaboration")
    assert g.decision().kind == "boost" and g.decision().context == {"boost": "collaboration"}
    assert at("discharge").state[pb(1) + L.P_SEC_CHARGED + 3] == 1
    plan = Position(n_players=3, round=4, pending="plan", current_player=2,
                    players={0: Player(chosen=0, plan=4), 1: Player(chosen=1, plan=4), 2: Player(chosen=1)}).build()
    assert (plan.decision().kind, plan.decision().player, plan.round) == ("plan", 2, 3)
    plan.step(encode("plan", sector=4))
    assert plan.round == 4 and plan.decision().kind == "boost"          # all three chose IV: collaboration
    swap = Position(scenario="first_light", seed=2, round=1, pending="solo_swap").build()
    assert swap.decision().kind == "solo_swap"


def test_explicit_decks_and_discard_piles():
    g = Game(n_players=2, seed=1)
    deck = g.deck(INFRA, reveal=True)
    Position(decks={INFRA: deck[:3]}, discards={"production": []}).apply(g)
    assert g.deck(INFRA, reveal=True) == deck[:3] and g.deck_size(INFRA) == 3
    assert sorted(g.discard_pile(INFRA)) == sorted(deck[3:])
    prod = g.deck(PROD, reveal=True)
    Position(discards={PROD: prod[:2]}).apply(g)
    assert g.discard_pile(PROD) == prod[:2] and g.deck(PROD, reveal=True) == prod[2:]
    Position(decks={PROD: prod[::-1]}, discards={PROD: []}).apply(g)
    assert g.deck(PROD, reveal=True) == prod[::-1] and g.discard_pile(PROD) == []
    g.check_invariants()
    with pytest.raises(PositionError, match=r"^decks\[production\]: cards .* are in neither the deck nor"):
        Position(decks={PROD: prod[:5]}, discards={PROD: prod[5:6]}).apply(g)
    with pytest.raises(PositionError, match=r"^decks\[production\]: card .* is in discards too"):
        Position(decks={PROD: prod[:5]}, discards={PROD: prod[4:]}).apply(g)


def test_solo_stars_follow_the_round_unless_given():
    g = Position(scenario="first_light", seed=3, round=1, pending="plan").build()
    rounds = [s["round"] for s in g.solo_stars()]
    assert rounds and all(s["state"] == "open" for s in g.solo_stars())
    later = rounds[0] + 1
    Position(round=later, pending="acquire", players={0: Player(chosen=2)}).apply(g)
    assert g.solo_stars()[0] == {"round": rounds[0], "state": "lost"}
    Position(round=later, pending="acquire", stars=["claimed"] + ["open"] * (len(rounds) - 1)).apply(g)
    assert g.solo_stars()[0]["state"] == "claimed"
    with pytest.raises(PositionError, match=r"stars\[0\]: the star of round .* is no longer open"):
        Position(stars=["open"] * len(rounds)).apply(g)
    with pytest.raises(ValueError, match="solo"):
        Game(n_players=2).solo_stars()


def _bad(**changes):
    pos = readme_position()
    return dataclasses.replace(pos, **changes)


def _p0(**changes):
    pos = readme_position()
    return dataclasses.replace(pos, players={0: dataclasses.replace(pos.players[0], **changes), 1: pos.players[1]})


@pytest.mark.parametrize("pos, message", [
    (_bad(round=0), r"^round must be 1..12, got 0"),
    (_bad(round=None), r"^round: give the round"),
    (_bad(pending=None), r"^round: give pending too"),
    (_bad(pending="discard"), r"^pending must be one of"),
    (_bad(pending="solo_swap"), r"^pending: 'solo_swap' is the start of a solo game"),
    (_bad(current_player=2), r"^current_player must be 0..1"),
    (_bad(players={3: Player()}), r"^players key 3 must be 0..1"),
    (_bad(players={0: "me"}), r"^players\[0\] must be a Player"),
    (_bad(players={0: Player(chosen=1)}), r"^players\[1\].chosen: from round 1 on every player"),
    (_bad(stars=["open"]), r"^stars: bonus stars belong to solo games"),
    (_bad(demand={0: "D2a"}), r"^demand\[0\]: demand card D2a belongs to level 1 \(levels count from 0"),
    (_bad(demand={9: 0}), r"^demand key \(a level\) must be 0..6"),
    (_bad(decks={2: []}), r"^decks key must be 0, 1, 'production' or 'infrastructure'"),
    (_bad(decks={"production": ["I05"]}), r"^decks\[production\]\[0\]: card I05 \(56\) is a infrastructure card"),
    (_bad(decks={"production": ["P01"]}),
     r"^decks\[production\]\[0\]: card P01 \(0\) is listed at players\[0\].hand\[0\]"),
    (_p0(hand=["P01", "P01"]), r"^players\[0\].hand\[1\]: card P01 \(0\) is already listed at players\[0\].hand\[0\]"),
    (_p0(hand=["P99"]), r"^players\[0\].hand\[0\]: no industry card 'P99'"),
    (_p0(hand=[basic_face(0)]), r"^players\[0\].hand\[0\] must be 0..103"),
    (_p0(hand=list(range(10))), r"^players\[0\].hand holds 10 entries, at most 9 fit"),
    (_p0(hand="P01"), r"^players\[0\].hand must be a list"),
    (_p0(depot=[1, 2]), r"^players\[0\].depot must hold 7 entries"),
    (_p0(depot=[1.5, 0, 0, 0, 0, 0, 0]), r"^players\[0\].depot\[0\] must be an integer"),
    (_p0(grid=[-1, 0, 0, 0, 0, 0, 0]), r"^players\[0\].grid\[0\] must be 0..1000000, got -1"),
    (_p0(research=6), r"^players\[0\].research: the marker rests on 6 only once every"),
    (_p0(breakthroughs=[1, 1]), r"^players\[0\].breakthroughs lists 1 twice"),
    (_p0(demands_this_round=1), r"^players\[0\].demands_this_round must be 0..0"),
    (_p0(boost="big"), r"^players\[0\].boost must be one of 'none', 'innovation', 'collaboration'"),
    (_p0(plan=1), r"^players\[0\].plan: a secret dial needs pending='plan'"),
    (_p0(sectors={0: Sector(column=0), 2: Sector(column=0)}),
     r"^players\[0\].sectors: sectors 0 and 2 both stand in column 0"),
    (_p0(sectors={0: Sector(side="C")}), r"^players\[0\].sectors\[0\].side must be one of 'A', 'B'"),
    (_p0(sectors={0: Sector(cards=["P07"] * 2)}),
     r"^players\[0\].sectors\[0\].cards\[1\]: card P07 \(6\) is already"),
    (_p0(sectors={0: Sector(cards=[basic_face(3, 0), basic_face(3, 1)])}),
     r"cards\[1\]: basic card 3 is already listed at players\[0\].sectors\[0\].cards\[0\]"),
    (_p0(sectors={0: Sector(cards=[], charged_cards=[0])}),
     r"^players\[0\].sectors\[0\].charged_cards: the sector holds no card"),
    (_p0(sectors={0: Sector(charged=1)}), r"^players\[0\].sectors\[0\].charged must be True or False"),
    (_p0(sectors={7: Sector()}), r"^players\[0\].sectors key must be 0..4"),
    (_p0(hand=["P18"]), r"^players\[0\].hand\[0\]: card P18 \(17\) is in player 1's hand; give that hand"),
])
def test_bad_positions_are_refused_naming_the_field(pos, message):
    with pytest.raises(PositionError, match=message):
        pos.build()


def test_a_refused_position_leaves_the_game_unchanged():
    g = readme_position().build()
    before = g.state.copy()
    with pytest.raises(PositionError, match="players\\[1\\].hand\\[0\\]"):
        Position(players={0: Player(hand=[]), 1: Player(hand=["P99"])}).apply(g)
    with pytest.raises(PositionError, match="n_players: the game has 2 players"):
        Position(n_players=3).apply(g)
    assert np.array_equal(before, g.state)


def test_tech_pack_cards_only_in_games_that_play_the_pack():
    """A pack card can be laid out in a game that plays its pack, not in one whose option bits
    leave the pack out (the state's S_OPTIONS decides, as for setup and the invariants)."""
    g = Game(n_players=2, seed=0, tech_packs=("grid",))
    pack_card = next(c for c in range(g.cards.n_ind) if g.cards.table[L.T_IND_PACK + c])
    Position(players={0: Player(hand=[pack_card])}).apply(g)
    assert int(g.state[pb(0) + L.P_HAND]) == pack_card
    h = Game(n_players=2, seed=0, tech_packs=("grid",))
    h.state[L.S_OPTIONS] = 0            # the same card set, the pack out of play
    with pytest.raises(PositionError, match=r"hand\[0\]: card TG\d+ belongs to tech pack 'Grid Modernization'"):
        Position(players={0: Player(hand=[pack_card])}).apply(h)


def test_a_built_position_saves_loads_and_plays_on():
    g = readme_position().build()
    g.step(encode("card_hand", hand_slot=0))
    loaded = Game.from_dict(g.to_dict())
    assert loaded.same_as(g) and loaded.history == g.history == [encode("card_hand", hand_slot=0)]
    rng = np.random.default_rng(1)
    for _ in range(200):
        if g.is_terminal:
            break
        a = int(rng.choice(g.legal_actions()))
        g.step(a)
        loaded.step(a)
    assert loaded.same_as(g)


# ==============================================================================================
# Accessors
# ==============================================================================================
def test_deck_contents_need_reveal_sizes_and_discards_are_public():
    g = Game(n_players=2, seed=4)
    assert g.deck_size(PROD) == g.deck_size("production") == len(g.deck(PROD, reveal=True))
    with pytest.raises(ValueError, match="hidden information"):
        g.deck(PROD)
    with pytest.raises(PositionError, match="deck must be 0, 1"):
        g.deck_size(2)
    top = g.deck(INFRA, reveal=True)[0]
    hand = [int(c) for c in g.state[pb(0) + L.P_HAND:pb(0) + L.P_HAND + 6]]
    card = hand[0]
    g.step(encode("discard", hand_slot=0))
    assert g.discard_pile(int(g.cards.table[L.T_IND_DECK + card])) == [card]
    assert g.deck(INFRA, reveal=True)[0] == top


# ==============================================================================================
# Custom card faces in the observation
# ==============================================================================================
def _edited_table(cards, face):
    """A read-only copy of ``cards.table`` with ``face`` rewritten (cost 7, arrows up and down)."""
    T = cards.table.copy()
    T[L.T_F_COST + face] = 7
    T[L.T_F_ARROWS + face] = L.ARROW_UP | L.ARROW_DOWN
    T.flags.writeable = False
    return T


def _expected_obs(game, player):
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    ff = face_features(game.cards.table)
    ff.flags.writeable = False          # the types Game uses: no second compilation of observe
    observe(game.state, game.cards.table, ff, np.int64(player), out)
    return out


def test_custom_faces_reach_the_observation():
    """A card set rebuilt around an edited table keeps the loaded set's hash when made with
    dataclasses.replace: the face features must still come from its own table (they were
    cached by hash, so the observation showed the original faces)."""
    base = load_card_set()
    plain = Game(n_players=2, seed=0, card_set=base)
    card = int(plain.state[pb(0) + L.P_HAND])
    custom = dataclasses.replace(base, table=_edited_table(base, card))
    g = Game(n_players=2, seed=0, card_set=custom)
    assert custom.hash == base.hash
    assert not np.array_equal(g.observe(0), plain.observe(0))
    assert np.array_equal(g.observe(0), _expected_obs(g, 0))
    assert np.array_equal(Game(n_players=2, seed=0, card_set=base).observe(0), plain.observe(0))


def test_with_table_gives_a_read_only_set_with_its_own_hash():
    base = load_card_set()
    card = int(Game(n_players=2, seed=0).state[pb(0) + L.P_HAND])
    custom = with_table(base, _edited_table(base, card))
    assert custom.hash != base.hash and not custom.table.flags.writeable
    assert with_table(base, _edited_table(base, card)).hash == custom.hash
    g = Game(n_players=2, seed=0, card_set=custom)
    assert np.array_equal(g.observe(0), _expected_obs(g, 0))
    assert "cost 7" in g.describe_action(encode("discard", hand_slot=0))
    saved = g.to_dict()
    assert Game.from_dict(saved, card_set=custom).same_as(g)
    with pytest.raises(ValueError, match="hash"):
        Game.from_dict(saved)
    with pytest.raises(PositionError, match="table must have shape"):
        with_table(base, base.table[:10])


def test_parse_frame_kinds_reads_decision_kind_names_and_names_an_unknown_one():
    from electrify_env.decision import FRAME_KINDS, parse_frame_kinds
    from electrify_env.engine import layout as L
    assert parse_frame_kinds("plan, Acquire") == {L.FT_PLAN, L.FT_ACQUIRE}
    assert parse_frame_kinds(",".join(FRAME_KINDS.values())) == set(FRAME_KINDS)
    with pytest.raises(ValueError, match="unknown decision type 'buy'"):
        parse_frame_kinds("plan,buy")
