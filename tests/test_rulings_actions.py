"""Rulings of the actions of a turn: acquire (R7), charge (R8), discharge (R9), multipliers (R10),
action icons (R11), any-time actions (R13), research (R14), decks (R15), fulfill (R16) and forgone
rewards (R19), plus the rulebook's worked examples for Charge, Discharge and Fulfill.  The
rulings are stated in docs/rules.md.

Every position is built explicitly and drawn in the test's docstring.  Board drawings read:

    col:      0      1      2      3      4          columns of the player board
              EP     TR*    RD     IV     BO         sector in that column (* = chosen this round)
    slot 0    a<     b                               cards top to bottom; arrows of a card:
    slot 1           c/                                 <  left, / left-up (slot - 1),
                                                        \\ left-down (slot + 1)

Sectors: EP Energy Production, TR Transmission, RD Research & Development, IV Investments,
BO Business Operations.  Card faces are rewritten in a private copy of the card table, so only
the rules are under test, not the shipped card data.
"""
import numpy as np
import pytest

from electrify_env.engine import layout as L

from electrify_env.position import Player, Position, Sector

from positions import (
    INFRA, PROD, basic_face, begin_turn, charged_cards, cols, field, hand_of, lay, legal, new_game,
    phase_legal, sector_face, sector_of, set_cubes, set_face, start_at, top_frame,
)

EP, TR, RD, IV, BO = range(5)
P0 = 0
LEFT, UP, DOWN = L.ARROW_LEFT, L.ARROW_UP, L.ARROW_DOWN
HERE = L.PRODUCE_HERE
CLEAN = [0, 1, 2, 3, 4, 5, 6]     # clean track of the test table: column c reads c
DIRTY = [1, 2, 3, 4, 5, 6, 7]     # dirty track of the test table: column c reads c + 1
GRID_VALUE = [1, 1, 2, 2, 3, 3, 4]


# ---- icons ---------------------------------------------------------------------------------
def produce(col, n=1, mk=L.MULT_SIMPLE):
    return (L.ACT_PRODUCE, col, mk, n)


def develop(n=1, mk=L.MULT_SIMPLE):
    return (L.ACT_DEVELOP, 0, mk, n)


def transmit(n=1, mk=L.MULT_SIMPLE):
    return (L.ACT_TRANSMIT, 0, mk, n)


def research(n=1, mk=L.MULT_SIMPLE):
    return (L.ACT_RESEARCH, 0, mk, n)


def invest(n=1, mk=L.MULT_SIMPLE):
    return (L.ACT_INVEST, 0, mk, n)


def plan(n=1):
    return (L.ACT_PLAN, 0, L.MULT_SIMPLE, n)


def card(*icons, arrows=0, cost=1, deck=PROD):
    """A card wanted by a test: icons, arrows, cost, and the deck it belongs to."""
    return dict(icons=icons, arrows=arrows, cost=cost, deck=deck)


# ---- positions -------------------------------------------------------------------------------
def board(seed=0, columns=None, depot=None, grid=None, tiles=None, n_players=2):
    """Player 0 with an empty board and hand, every sector tile blank (no icons) unless
    ``tiles`` gives icons for (sector, side), the sectors in ``columns``, distinct track
    numbers, no demand card fulfillable and all basic cards too dear to take."""
    g = new_game(n_players, seed)
    columns = columns or {EP: 0, TR: 1, RD: 2, IV: 3, BO: 4}
    Position(players={P0: Player(
        hand=[], sectors={s: Sector(column=columns[s], cards=[]) for s in range(L.N_SECTORS)},
        depot=depot or [0] * 7, grid=grid or [0] * 7)}).apply(g)
    T = g.cards.table
    T[L.T_COL_CLEAN:L.T_COL_CLEAN + 7] = CLEAN
    T[L.T_COL_DIRTY:L.T_COL_DIRTY + 7] = DIRTY
    T[L.T_COL_GRID:L.T_COL_GRID + 7] = GRID_VALUE
    for s in range(L.N_SECTORS):
        for side in (0, 1):
            set_face(g, sector_face(s, side), icons=(tiles or {}).get((s, side), ()))
    for lv in range(L.N_LEVELS):
        set_demand(g, lv, [(6, 99)])
    for bf in range(2 * int(T[L.T_N_BASIC])):
        T[L.T_F_COST + L.FACE_BASIC + bf] = 99
    return g


def _make(g, specs):
    """Pick a spare card of each spec's deck (from the discard pile first, then from the bottom
    of the deck, so the next draws are untouched) and rewrite its face; return the ids."""
    ids = []
    for spec in specs:
        d = spec["deck"]
        c = next(c for c in g.discard_pile(d) + g.deck(d, reveal=True)[::-1] if c not in ids)
        set_face(g, c, icons=spec["icons"], arrows=spec["arrows"], cost=spec["cost"])
        ids.append(c)
    return ids


def place(g, s, specs, p=P0):
    """Put new cards (``card(...)`` specs) below the cards on sector s of player p."""
    ids = _make(g, specs)
    charged = [k for k in range(field(g, p, L.P_SEC_N + s)) if (s, k) in charged_cards(g, p)]
    lay(g, players={p: Player(sectors={s: Sector(cards=sector_cards(g, s, p) + ids, charged_cards=charged)})})
    return ids


def hand(g, specs, p=P0):
    """Give player p new cards (``card(...)`` specs); return their ids."""
    ids = _make(g, specs)
    lay(g, players={p: Player(hand=hand_cards(g, p) + ids)})
    return ids


def hand_cards(g, p=P0):
    """Card ids in player p's hand, by slot."""
    return hand_of(g, p)


def hslot(g, c, p=P0):
    """Hand slot of card c."""
    return hand_cards(g, p).index(c)


def sector_cards(g, s, p=P0):
    """Face ids on sector s, top to bottom."""
    return sector_of(g, p, s)


def set_demand(g, level, req, basic=(), prio=()):
    """Rewrite the demand card in play at ``level``: requirement [(column, cubes)], basic and
    priority rewards [(RW_*, value, arg)]."""
    T = g.cards.table
    d = int(g.state[L.S_DEMAND + level])
    for j in range(L.MAX_REQ):
        c, n = req[j] if j < len(req) else (-1, 0)
        T[L.T_D_REQ_COL + d * L.MAX_REQ + j] = c
        T[L.T_D_REQ_N + d * L.MAX_REQ + j] = n
    T[L.T_D_NREW + 2 * d] = len(basic)
    T[L.T_D_NREW + 2 * d + 1] = len(prio)
    for r in range(L.MAX_REWARDS):
        kind, val, arg = (list(basic) + list(prio) + [(0, 0, 0)] * L.MAX_REWARDS)[r]
        T[L.T_D_REW_KIND + d * L.MAX_REWARDS + r] = kind
        T[L.T_D_REW_VAL + d * L.MAX_REWARDS + r] = val
        T[L.T_D_REW_ARG + d * L.MAX_REWARDS + r] = arg


def set_space(g, k, rewards=()):
    """Rewrite the rewards of research breakthrough space k."""
    T = g.cards.table
    T[L.T_BT_NREW + k] = len(rewards)
    for r in range(L.MAX_BT_REWARDS):
        kind, val, arg = (list(rewards) + [(0, 0, 0)] * 2)[r]
        T[L.T_BT_REW_KIND + k * 2 + r] = kind
        T[L.T_BT_REW_VAL + k * 2 + r] = val
        T[L.T_BT_REW_ARG + k * 2 + r] = arg


def blank_research(g):
    """Every research space and group bonus without rewards."""
    T = g.cards.table
    for k in range(L.N_BT_SPACES):
        set_space(g, k)
    T[L.T_G_NREW:L.T_G_NREW + L.N_BT_GROUPS] = 0


def set_marker(g, m, p=P0):
    """Put player p's research marker on space m."""
    lay(g, players={p: Player(research=m)})


def to_discharge(g, chosen, **kw):
    """Start player 0's turn with ``chosen`` revealed at Step 3 (Charge runs, R8)."""
    start_at(g, P0, "discharge", chosen=chosen, **kw)
    assert top_frame(g)[0] == L.FT_DISCHARGE


def finish_discharge(g):
    """Discharge every remaining charge without using any icon."""
    while top_frame(g)[0] in (L.FT_DISCHARGE, L.FT_ITEM, L.FT_ICON):
        g.step(L.A_PASS if L.A_PASS in legal(g) else min(phase_legal(g)))


def dis_card(s, k):
    return L.A_DIS_CARD + s * L.MAX_SLOTS + k


def ids(base, *xs):
    return {base + x for x in xs}


def charged_tiles(g, p=P0):
    return {s for s in range(L.N_SECTORS) if field(g, p, L.P_SEC_CHARGED + s)}


def deck_top(g, d, i=0):
    """The card i places below the top of deck d."""
    return g.deck(d, reveal=True)[i]


# ==============================================================================================
# R7 Acquire
# ==============================================================================================
def test_r07_buy_one_card_paid_cube_by_cube_without_change_grid_never_pays():
    """    depot: Fossil 1 (value 1), Natural Gas 2 (value 2 each)  -> 5 to spend
           grid : Fossil 5                                           -> worth nothing here
           hand : A cost 3, B cost 5, C cost 6
    A and B are affordable, C is not (the grid cubes do not count).  A is paid with two gas
    cubes (4 for a cost of 3): no change comes back.  After the placement no second card."""
    g = board(depot=[1, 2, 0, 0, 0, 0, 0], grid=[5, 0, 0, 0, 0, 0, 0])
    a, b, c = hand(g, [card(cost=3), card(cost=5), card(cost=6)])
    begin_turn(g, P0, chosen=RD)
    assert top_frame(g)[0] == L.FT_ACQUIRE
    assert phase_legal(g) == {L.A_PASS, L.A_CARD_HAND + hslot(g, a), L.A_CARD_HAND + hslot(g, b)}
    g.step(L.A_CARD_HAND + hslot(g, a))
    assert top_frame(g)[:3] == [L.FT_PAY, a, 3]
    assert phase_legal(g) == {L.A_PAY + 0, L.A_PAY + 1}   # depot cubes only, never the grid
    assert "Natural Gas" in g.describe_action(L.A_PAY + 1)
    g.step(L.A_PAY + 1)
    assert top_frame(g)[:3] == [L.FT_PAY, a, 1]            # still owed 1
    g.step(L.A_PAY + 1)                                     # overpays by 1
    assert top_frame(g)[0] == L.FT_PLACE_SECTOR
    assert field(g, P0, L.P_DEPOT, 7) == [1, 0, 0, 0, 0, 0, 0]   # no change given
    assert field(g, P0, L.P_GRID, 7) == [5, 0, 0, 0, 0, 0, 0]
    g.step(L.A_PLACE_SECTOR + IV)                          # empty sector: straight to the top
    assert sector_cards(g, IV) == [a]
    assert a not in hand_cards(g)
    assert top_frame(g)[0] == L.FT_DISCHARGE               # one card at most
    assert not any(L.A_CARD_HAND <= x < L.A_PAY for x in legal(g))


def test_r07_pay_with_any_cube_mix_and_exact_cost_is_affordable():
    """    depot: Fossil 3 (1 each)           hand: A cost 3
    Exactly enough: 3 fossil cubes pay A one by one."""
    g = board(depot=[3, 0, 0, 0, 0, 0, 0])
    (a,) = hand(g, [card(cost=3)])
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_CARD_HAND + hslot(g, a))
    for owed in (3, 2, 1):
        assert top_frame(g)[:3] == [L.FT_PAY, a, owed]
        assert phase_legal(g) == {L.A_PAY + 0}
        g.step(L.A_PAY + 0)
    assert top_frame(g)[0] == L.FT_PLACE_SECTOR
    assert field(g, P0, L.P_DEPOT) == 0


def test_r07_a_free_card_needs_no_payment():
    """    hand: Z cost 0, depot empty.  Z can be bought and goes straight to placement."""
    g = board()
    (z,) = hand(g, [card(cost=0)])
    begin_turn(g, P0, chosen=RD)
    assert L.A_CARD_HAND + hslot(g, z) in legal(g)
    g.step(L.A_CARD_HAND + hslot(g, z))
    assert top_frame(g)[0] == L.FT_PLACE_SECTOR


def test_r07_sector_needs_room_and_every_insertion_slot_is_offered():
    """    col:     0    1    2    3    4
                    EP   TR   RD   IV   BO
           cards:   5    0    1    2    4        (EP is full)
    The bought card X may go on TR, RD, IV or BO, never EP.  On a sector with n cards the slots
    0..n are offered and none beyond; an empty sector takes it at the top without a question.
    Inserting nudges the lower cards down."""
    g = board(depot=[5, 0, 0, 0, 0, 0, 0])
    place(g, EP, [card()] * 5)
    rd = place(g, RD, [card()])
    iv = place(g, IV, [card()] * 2)
    bo = place(g, BO, [card()] * 4)
    (x,) = hand(g, [card(cost=1)])
    begin_turn(g, P0, chosen=EP)
    g.step(L.A_CARD_HAND + hslot(g, x))
    g.step(L.A_PAY + 0)
    assert phase_legal(g) == ids(L.A_PLACE_SECTOR, TR, RD, IV, BO)
    for s, before in ((RD, rd), (IV, iv), (BO, bo)):
        h = g.copy()
        h.step(L.A_PLACE_SECTOR + s)
        n = len(before)
        assert top_frame(h)[0] == L.FT_PLACE_SLOT
        assert phase_legal(h) == set(range(L.A_PLACE_SLOT, L.A_PLACE_SLOT + n + 1))
        h.step(L.A_PLACE_SLOT + 1)          # between the first and the second card (or last)
        assert sector_cards(h, s) == before[:1] + [x] + before[1:]
    h = g.copy()
    h.step(L.A_PLACE_SECTOR + TR)
    assert sector_cards(h, TR) == [x] and top_frame(h)[0] == L.FT_DISCHARGE


def test_r07_no_purchase_when_every_sector_is_full():
    """    every sector holds 5 cards; hand: X cost 0.  Only pass is offered at Acquire."""
    g = board(depot=[5, 0, 0, 0, 0, 0, 0])
    for s in range(L.N_SECTORS):
        place(g, s, [card()] * 5)
    hand(g, [card(cost=0)])
    begin_turn(g, P0, chosen=EP)
    assert phase_legal(g) == {L.A_PASS}


def test_r07_card_placed_on_chosen_sector_is_charged_elsewhere_only_by_an_arrow():
    """    col:     0    1    2     3
                    EP   TR   RD*   IV
           slot 0        t    r<                 r points left at slot 0 of TR
    (a) X on RD at slot 0 (r nudged to slot 1): X and r charged; r's arrow now points at TR
        slot 1, which is empty, so t stays uncharged.
    (b) X on TR at slot 0 (t nudged to slot 1): r's arrow reaches X, which is charged.
    (c) X on IV: IV is not chosen and nothing points at it: uncharged (t is charged by r)."""
    g = board(depot=[5, 0, 0, 0, 0, 0, 0])
    (t,) = place(g, TR, [card()])
    (r,) = place(g, RD, [card(arrows=LEFT)])
    (x,) = hand(g, [card(cost=1)])
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_CARD_HAND + hslot(g, x))
    g.step(L.A_PAY + 0)
    a = g.copy()
    a.step(L.A_PLACE_SECTOR + RD)
    a.step(L.A_PLACE_SLOT + 0)
    assert sector_cards(a, RD) == [x, r]
    assert charged_cards(a, P0) == {(RD, 0), (RD, 1)}
    b = g.copy()
    b.step(L.A_PLACE_SECTOR + TR)
    b.step(L.A_PLACE_SLOT + 0)
    assert sector_cards(b, TR) == [x, t]
    assert charged_cards(b, P0) == {(RD, 0), (TR, 0)}
    c = g.copy()
    c.step(L.A_PLACE_SECTOR + IV)
    assert sector_cards(c, IV) == [x]
    assert charged_cards(c, P0) == {(RD, 0), (TR, 0)}


def test_r07_basic_card_either_face_at_that_faces_cost_then_leaves_the_supply():
    """    basic card 0: face A cost 2, face B cost 4 (every other basic face costs 99).
    Depot value 3: only face A; depot value 4: both.  Buying face B pays 4, places face B and
    removes the card (both faces) from the supply, for this player and the other."""
    g = board(depot=[3, 0, 0, 0, 0, 0, 0])
    set_face(g, basic_face(0, 0), icons=(produce(0),), cost=2)
    set_face(g, basic_face(0, 1), icons=(research(),), cost=4)
    begin_turn(g, P0, chosen=EP)
    assert phase_legal(g) == {L.A_PASS, L.A_CARD_BASIC + 0}
    set_cubes(g, P0, depot=[4, 0, 0, 0, 0, 0, 0])
    assert phase_legal(g) == {L.A_PASS, L.A_CARD_BASIC + 0, L.A_CARD_BASIC + 1}
    g.step(L.A_CARD_BASIC + 1)
    assert top_frame(g)[:3] == [L.FT_PAY, basic_face(0, 1), 4]
    for _ in range(4):
        g.step(L.A_PAY + 0)
    g.step(L.A_PLACE_SECTOR + TR)
    assert sector_cards(g, TR) == [basic_face(0, 1)]
    assert g.state[L.S_BASIC + 0] == 0
    # later Acquire decisions (this player, then the other) no longer offer either face
    set_cubes(g, P0, depot=[9, 0, 0, 0, 0, 0, 0])
    begin_turn(g, P0, chosen=EP, round_=2)
    assert not legal(g) & {L.A_CARD_BASIC + 0, L.A_CARD_BASIC + 1}
    set_cubes(g, 1, depot=[9, 0, 0, 0, 0, 0, 0])
    begin_turn(g, 1, chosen=EP, round_=2)
    assert not legal(g) & {L.A_CARD_BASIC + 0, L.A_CARD_BASIC + 1}


# ==============================================================================================
# R8 Charge
# ==============================================================================================
def test_r08_rulebook_charge_example_gap_two_arrows_one_target_empty_slot():
    """Rulebook, Step 3 example.  IV is chosen alone and its innovation boost slides it from
    column 3 to 4 (bumping RD to 5), leaving a gap at column 3.
           col:     0     1     2     3     4      5
                    BO    EP    TR    .     IV*    RD
           slot 0   b     e0    t0\\         i0\\    r<
           slot 1         e1<   t1<         i1/
           slot 2               t2
    i0 charges t1 and i1 charges t0 across the gap.  t0 and t1 both point at e1: one charge.
    e1 points at BO slot 1, which is empty (b's artwork): nothing.  r is not charged, so its
    arrow does nothing.  Only the IV tile is charged among the tiles."""
    g = board(columns={BO: 0, EP: 1, TR: 2, IV: 3, RD: 4})
    place(g, BO, [card()])
    place(g, EP, [card(), card(arrows=LEFT)])
    place(g, TR, [card(arrows=DOWN), card(arrows=LEFT), card()])
    place(g, IV, [card(arrows=DOWN), card(arrows=UP)])
    place(g, RD, [card(arrows=LEFT)])
    begin_turn(g, P0, chosen=IV, boost=L.BOOST_INNOVATION)
    g.step(L.A_BOOST)
    assert cols(g, P0) == [1, 2, 5, 4, 0]
    g.step(L.A_PASS)
    assert charged_cards(g, P0) == {(IV, 0), (IV, 1), (TR, 0), (TR, 1), (EP, 1)}
    assert charged_tiles(g) == {IV}


def test_r08_left_up_down_arrows_and_arrows_past_the_top_or_bottom():
    """    col:     0     1
                    EP    TR*
           slot 0   e0<   t0/        t0 points above the top: nothing
           slot 1   e1<   t1<        t1 -> e1
           slot 2   e2<   t2
           slot 3   e3<   t3\\        t3 -> e4
           slot 4   e4<   t4\\        t4 points below the bottom: nothing
    EP is the leftmost sector: its cards' arrows point off the board and do nothing; the EP
    tile is never charged by an arrow."""
    g = board()
    place(g, EP, [card(arrows=LEFT)] * 5)
    place(g, TR, [card(arrows=UP), card(arrows=LEFT), card(), card(arrows=DOWN), card(arrows=DOWN)])
    to_discharge(g, TR)
    assert charged_cards(g, P0) == {(TR, k) for k in range(5)} | {(EP, 1), (EP, 4)}
    assert charged_tiles(g) == {TR}


def test_r08_one_card_with_several_arrows_charges_each_target():
    """    col:     0     1     2
                    EP    TR*   RD
           slot 0   e0    t0    .
           slot 1   e1    t1</\\           t1 -> e0, e1, e2
           slot 2   e2
           slot 3   e3"""
    g = board()
    place(g, EP, [card()] * 4)
    place(g, TR, [card(), card(arrows=LEFT | UP | DOWN)])
    to_discharge(g, TR)
    assert charged_cards(g, P0) == {(TR, 0), (TR, 1), (EP, 0), (EP, 1), (EP, 2)}


def test_r08_arrow_at_a_sector_without_cards_does_nothing_and_does_not_skip_it():
    """    col:     0     1     2     3
                    EP    .     TR    RD*
           slot 0   e           .     r<
    r points at TR (the nearest sector to the left, across the gap), which has no card: nothing.
    The arrow never jumps over TR to e, and never charges the TR tile."""
    g = board(columns={EP: 0, TR: 2, RD: 3, IV: 4, BO: 5})
    place(g, EP, [card()])
    place(g, RD, [card(arrows=LEFT)])
    to_discharge(g, RD)
    assert charged_cards(g, P0) == {(RD, 0)}
    assert charged_tiles(g) == {RD}


def test_r08_chains_across_all_five_sectors_ignoring_gaps():
    """    col:     0     1     2     3     4     5     6
                    EP    .     TR    RD    .     IV    BO*
           slot 0   e0\\         t0<   r0          i0\\   b<
           slot 1               t1    r1/         i1
    b -> i0 -> r1 -> t0 -> e0; e0's arrow points off the board.  r0, t1 and i1 stay uncharged."""
    g = board(columns={EP: 0, TR: 2, RD: 3, IV: 5, BO: 6})
    place(g, EP, [card(arrows=DOWN)])
    place(g, TR, [card(arrows=LEFT), card()])
    place(g, RD, [card(), card(arrows=UP)])
    place(g, IV, [card(arrows=DOWN), card()])
    place(g, BO, [card(arrows=LEFT)])
    to_discharge(g, BO)
    assert charged_cards(g, P0) == {(BO, 0), (IV, 0), (RD, 1), (TR, 0), (EP, 0)}
    assert charged_tiles(g) == {BO}


def test_r08_card_hit_by_two_arrows_holds_one_charge_and_discharges_once():
    """    col:     0     1
                    EP    TR*
           slot 0   e     t0<        e: research x1
           slot 1         t1/        t0 and t1 both point at e
    e gets one charge: after discharging it once it is no longer offered."""
    g = board()
    place(g, EP, [card(research(1))])
    place(g, TR, [card(arrows=LEFT), card(arrows=UP)])
    to_discharge(g, TR)
    assert (EP, 0) in charged_cards(g, P0)
    g.step(dis_card(EP, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_RESEARCH)
    assert dis_card(EP, 0) not in legal(g)
    finish_discharge(g)
    assert field(g, P0, L.P_RESEARCH) == 1


def test_r08_charges_move_with_sectors_and_no_new_charges_after_step_3():
    """    col:     0     1     2     3     4
                    EP    TR    RD    IV    BO*        BO tile: plan x1
           slot 0               r     i     b<         b -> i
    The plan icon moves IV to column 0 (EP, TR, RD are bumped):
           col:     0     1     2     3     4
                    IV    EP    TR    RD    BO*
    b's arrow now points at r, but charging happened in Step 3: r stays uncharged, and i keeps
    the charge it had (it moved with its sector)."""
    g = board(tiles={(BO, 0): (plan(1),)})
    (r,) = place(g, RD, [card()])
    (i,) = place(g, IV, [card()])
    place(g, BO, [card(arrows=LEFT)])
    to_discharge(g, BO)
    assert charged_cards(g, P0) == {(BO, 0), (IV, 0)}
    g.step(L.A_DIS_SECTOR + BO)
    g.step(L.A_ICON + 0)
    g.step(L.A_PLAN_MOVE + IV * L.N_COLS + 0)
    assert cols(g, P0) == [1, 2, 3, 0, 4]
    assert charged_cards(g, P0) == {(BO, 0), (IV, 0)}


# ==============================================================================================
# R9 Discharge
# ==============================================================================================
def test_r09_items_in_any_order_and_icons_of_an_item_in_any_order():
    """    col:     3
                    IV*            IV tile: research x1
           slot 0   i0             produce Fossil x1
           slot 1   i1             produce Natural Gas x2, research x1
    All three are offered (no pass).  i1 first, its research icon before its produce icon."""
    g = board(tiles={(IV, 0): (research(1),)})
    place(g, IV, [card(produce(0)), card(produce(1, 2), research(1))])
    to_discharge(g, IV)
    assert phase_legal(g) == {L.A_DIS_SECTOR + IV, dis_card(IV, 0), dis_card(IV, 1)}
    g.step(dis_card(IV, 1))
    assert phase_legal(g) == {L.A_PASS, L.A_ICON + 0, L.A_ICON + 1}
    g.step(L.A_ICON + 1)
    g.step(L.A_RESEARCH)
    assert phase_legal(g) == {L.A_PASS, L.A_ICON + 0}
    g.step(L.A_ICON + 0)
    g.step(L.A_PRODUCE + 1)
    g.step(L.A_PRODUCE + 1)
    assert top_frame(g)[0] == L.FT_DISCHARGE           # every icon used: the item is done
    assert phase_legal(g) == {L.A_DIS_SECTOR + IV, dis_card(IV, 0)}
    assert field(g, P0, L.P_DEPOT, 2) == [0, 2] and field(g, P0, L.P_RESEARCH) == 1


def test_r09_finishing_an_item_forfeits_its_unused_icons():
    """    col:     2
                    RD*
           slot 0   r       produce Fossil x3, transmit x1
    One fossil is produced, the produce icon is stopped, then the item is finished: the other
    two produces and the transmit are lost and r cannot be discharged again."""
    g = board()
    place(g, RD, [card(produce(0, 3), transmit(1))])
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_PRODUCE + 0)
    g.step(L.A_PASS)                                   # stop this icon
    assert top_frame(g)[0] == L.FT_ITEM
    assert phase_legal(g) == {L.A_PASS, L.A_ICON + 1}   # a used icon does not come back
    assert "finish" in g.describe_action(L.A_PASS)
    g.step(L.A_PASS)                                   # finish the item
    assert dis_card(RD, 0) not in legal(g)
    assert field(g, P0, L.P_DEPOT, 7) == [1, 0, 0, 0, 0, 0, 0]
    assert field(g, P0, L.P_GRID, 7) == [0] * 7


def test_r09_every_charge_is_discharged_before_fulfill():
    """    col:     0     1
                    EP    TR*          grid: Fossil 2; demand I needs 2 Fossil
           slot 0         t0
           slot 1         t1
    While a charge remains: no pass and no fulfilment.  Each item may be discharged without
    using any icon.  Then Fulfill opens."""
    g = board(grid=[2, 0, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 2)], basic=[(L.RW_POINTS, 1, 0)])
    place(g, TR, [card(research(1)), card(research(1))])
    to_discharge(g, TR)
    remaining = {L.A_DIS_SECTOR + TR, dis_card(TR, 0), dis_card(TR, 1)}
    while remaining:
        assert phase_legal(g) == remaining
        assert L.A_PASS not in legal(g) and L.A_FULFILL + 0 not in legal(g)
        a = max(remaining)
        g.step(a)
        remaining.discard(a)
        if top_frame(g)[0] == L.FT_ITEM:
            g.step(L.A_PASS)
    assert top_frame(g)[0] == L.FT_FULFILL
    assert L.A_FULFILL + 0 in legal(g)
    assert field(g, P0, L.P_RESEARCH) == 0


def test_r09_rulebook_discharge_example():
    """Rulebook, Step 4 example (IV chosen):
           col:     2     3
                    RD    IV*            IV tile: invest x5
           slot 0   f     a<             a: produce Fossil x1       (a -> f)
           slot 1         b              b: produce Fossil x2
           slot 2         c              c: invest x1
           slot 3         d              d: develop x4
           slot 4         e              e: research x1, transmit x1
                                         f: research x1, transmit x1
    The sector first: draw 5 cards.  Then the cards in any order: 3 fossil cubes; 1 more draw
    and 4 develops split over two cubes (fossil -> gas -> biofuel twice); 2 research and 2
    transmits of the two biofuel cubes."""
    g = board(tiles={(IV, 0): (invest(5),)})
    place(g, RD, [card(research(1), transmit(1))])
    place(g, IV, [card(produce(0, 1), arrows=LEFT), card(produce(0, 2)), card(invest(1)),
                  card(develop(4)), card(research(1), transmit(1))])
    to_discharge(g, IV)
    assert charged_cards(g, P0) == {(IV, k) for k in range(5)} | {(RD, 0)}
    g.step(L.A_DIS_SECTOR + IV)
    g.step(L.A_ICON + 0)
    for d in (PROD, PROD, INFRA, PROD, INFRA):
        g.step(L.A_INVEST + d)
    assert field(g, P0, L.P_HAND_N) == 5
    g.step(dis_card(IV, 1))                       # the x2 card before the x1 card
    g.step(L.A_ICON + 0)
    g.step(L.A_PRODUCE + 0)
    g.step(L.A_PRODUCE + 0)
    g.step(dis_card(IV, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_PRODUCE + 0)
    g.step(dis_card(IV, 3))                       # develop before the invest card
    g.step(L.A_ICON + 0)
    for c in (0, 1, 0, 1):
        g.step(L.A_DEVELOP + c)
    assert field(g, P0, L.P_DEPOT, 3) == [1, 0, 2]
    g.step(dis_card(IV, 2))
    g.step(L.A_ICON + 0)
    g.step(L.A_INVEST + PROD)
    for item in (dis_card(RD, 0), dis_card(IV, 4)):
        g.step(item)
        g.step(L.A_ICON + 0)
        g.step(L.A_RESEARCH)
        g.step(L.A_ICON + 1)
        g.step(L.A_TRANSMIT + 2)
    assert top_frame(g)[0] == L.FT_FULFILL
    assert field(g, P0, L.P_HAND_N) == 6
    assert field(g, P0, L.P_DEPOT, 7) == [1, 0, 0, 0, 0, 0, 0]
    assert field(g, P0, L.P_GRID, 7) == [0, 0, 2, 0, 0, 0, 0]
    assert field(g, P0, L.P_RESEARCH) == 2


# ==============================================================================================
# R10 Multipliers (base game: simple, clean, dirty)
# ==============================================================================================
def test_r10_simple_multiplier_is_the_printed_number():
    """    RD* slot 0: produce Fossil x3.  Exactly three uses, then the icon ends by itself."""
    g = board()
    place(g, RD, [card(produce(0, 3))])
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    assert top_frame(g)[0] == L.FT_ICON and top_frame(g)[4] == 3
    for _ in range(3):
        assert L.A_PRODUCE + 0 in legal(g)
        g.step(L.A_PRODUCE + 0)
    assert top_frame(g)[0] == L.FT_DISCHARGE
    assert field(g, P0, L.P_DEPOT) == 3


@pytest.mark.parametrize("column", [0, 3, 5])
def test_r10_dirty_and_clean_read_the_track_under_the_icons_sector(column):
    """    RD* stands in ``column``; slot 0: produce here (dirty), produce here (clean).
    Tracks of the test table: clean = column, dirty = column + 1; the player has 2 clean
    tokens.  Dirty gives DIRTY[column] uses, clean CLEAN[column] + 2."""
    others = [c for c in range(7) if c != column][:4]
    g = board(columns={RD: column, EP: others[0], TR: others[1], IV: others[2], BO: others[3]})
    lay(g, players={P0: Player(clean_tokens=2)})
    place(g, RD, [card(produce(HERE, 0, L.MULT_DIRTY), produce(HERE, 0, L.MULT_CLEAN))])
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    assert top_frame(g)[4] == DIRTY[column]
    g.step(L.A_PASS)
    g.step(L.A_ICON + 1)
    assert top_frame(g)[4] == CLEAN[column] + 2


def test_r10_clean_tokens_make_a_zero_clean_multiplier_usable():
    """    EP* in column 0 (clean track 0); slot 0: produce Fossil (clean).
    Without a token the icon is worth 0 and is not offered; with one token it gives 1 use."""
    g = board()
    place(g, EP, [card(produce(0, 0, L.MULT_CLEAN))])
    to_discharge(g, EP)
    g.step(dis_card(EP, 0))
    assert phase_legal(g) == {L.A_PASS}
    lay(g, players={P0: Player(clean_tokens=1)})
    assert phase_legal(g) == {L.A_PASS, L.A_ICON + 0}
    g.step(L.A_ICON + 0)
    assert top_frame(g)[4] == 1


def test_r10_multiplier_reads_the_column_when_used_after_a_plan_move():
    """    col:     0     1     2     3     4
                    EP    TR    BO*   RD    IV       BO tile: plan x1, produce here (dirty)
    Plan moves IV to column 2: BO is bumped to 3, RD to 4.  The produce-here icon then fills
    column 3 with DIRTY[3] uses: the column where BO stands now, not where it was charged."""
    g = board(columns={EP: 0, TR: 1, BO: 2, RD: 3, IV: 4},
              tiles={(BO, 0): (plan(1), produce(HERE, 0, L.MULT_DIRTY))})
    to_discharge(g, BO)
    g.step(L.A_DIS_SECTOR + BO)
    g.step(L.A_ICON + 0)
    g.step(L.A_PLAN_MOVE + IV * L.N_COLS + 2)
    assert cols(g, P0) == [0, 1, 4, 2, 3]
    g.step(L.A_ICON + 1)
    assert top_frame(g)[4] == DIRTY[3]
    assert phase_legal(g) == {L.A_PASS, L.A_PRODUCE + 3}


# ==============================================================================================
# R11 Action icons
# ==============================================================================================
def test_r11_produce_printed_column_or_here():
    """    IV* in column 4; slot 0: produce Natural Gas x1, produce here x1."""
    g = board(columns={EP: 0, TR: 1, RD: 2, BO: 3, IV: 4})
    place(g, IV, [card(produce(1), produce(HERE))])
    to_discharge(g, IV)
    g.step(dis_card(IV, 0))
    g.step(L.A_ICON + 0)
    assert phase_legal(g) == {L.A_PASS, L.A_PRODUCE + 1}
    g.step(L.A_PRODUCE + 1)
    g.step(L.A_ICON + 1)
    assert phase_legal(g) == {L.A_PASS, L.A_PRODUCE + 4}
    g.step(L.A_PRODUCE + 4)
    assert field(g, P0, L.P_DEPOT, 7) == [0, 1, 0, 0, 1, 0, 0]


def test_r11_develop_moves_cubes_right_split_freely_never_from_solar():
    """    depot: Fossil 2, Wind 1, Solar 1;  RD* slot 0: develop x4.
    Offered: Fossil and Wind (Solar cannot move right, empty depots cannot develop).
    The 4 develops: fossil->gas, fossil->gas, gas->biofuel, wind->solar."""
    g = board(depot=[2, 0, 0, 0, 0, 1, 1])
    place(g, RD, [card(develop(4))])
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    assert phase_legal(g) == {L.A_PASS, L.A_DEVELOP + 0, L.A_DEVELOP + 5}
    for c in (0, 0, 1, 5):
        g.step(L.A_DEVELOP + c)
    assert field(g, P0, L.P_DEPOT, 7) == [0, 1, 1, 0, 0, 0, 2]
    assert top_frame(g)[0] == L.FT_DISCHARGE


def test_r11_transmit_moves_a_depot_cube_into_the_grid_of_its_column():
    """    depot: Biofuel 2, Solar 1;  RD* slot 0: transmit x2."""
    g = board(depot=[0, 0, 2, 0, 0, 0, 1])
    place(g, RD, [card(transmit(2))])
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    assert phase_legal(g) == {L.A_PASS, L.A_TRANSMIT + 2, L.A_TRANSMIT + 6}
    g.step(L.A_TRANSMIT + 6)
    g.step(L.A_TRANSMIT + 2)
    assert field(g, P0, L.P_DEPOT, 7) == [0, 0, 1, 0, 0, 0, 0]
    assert field(g, P0, L.P_GRID, 7) == [0, 0, 1, 0, 0, 0, 1]


def test_r11_invest_draws_happen_when_the_icon_ends():
    """    RD* slot 0: invest x3; hand empty.  Two choices (infrastructure, production), then
    stop: nothing is drawn until the icon ends, then the top card of each chosen deck."""
    g = board()
    place(g, RD, [card(invest(3))])
    to_discharge(g, RD)
    tops = (deck_top(g, PROD), deck_top(g, INFRA))
    sizes = (g.deck_size(PROD), g.deck_size(INFRA))
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_INVEST + INFRA)
    g.step(L.A_INVEST + PROD)
    assert field(g, P0, L.P_HAND_N) == 0
    assert (g.deck_size(PROD), g.deck_size(INFRA)) == sizes
    g.step(L.A_PASS)
    assert sorted(hand_cards(g)) == sorted(tops)
    assert (g.deck_size(PROD), g.deck_size(INFRA)) == (sizes[0] - 1, sizes[1] - 1)


def test_r11_invest_draws_in_the_chosen_order_up_to_nine_cards():
    """    hand: 8 cards;  RD* slot 0: invest x2.
    (a) production then infrastructure: the production card is drawn (hand 9), the
        infrastructure draw is lost and that card stays on top of its deck.
    (b) infrastructure then production: the other way round."""
    g = board()
    hand(g, [card()] * 8)
    place(g, RD, [card(invest(2))])
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    tp, ti = deck_top(g, PROD), deck_top(g, INFRA)
    a = g.copy()
    a.step(L.A_INVEST + PROD)
    a.step(L.A_INVEST + INFRA)
    assert field(a, P0, L.P_HAND_N) == 9 and tp in hand_cards(a) and deck_top(a, INFRA) == ti
    b = g.copy()
    b.step(L.A_INVEST + INFRA)
    b.step(L.A_INVEST + PROD)
    assert field(b, P0, L.P_HAND_N) == 9 and ti in hand_cards(b) and deck_top(b, PROD) == tp


def test_r11_hand_limit_extra_draws_lost_and_cards_stay_on_the_deck():
    """    hand: 8 cards;  RD* slot 0: invest x3, all from production: one card drawn, the next
    production card is still on top of the deck."""
    g = board()
    hand(g, [card()] * 8)
    place(g, RD, [card(invest(3))])
    to_discharge(g, RD)
    first, second = deck_top(g, PROD), deck_top(g, PROD, 1)
    n = g.deck_size(PROD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    for _ in range(3):
        g.step(L.A_INVEST + PROD)
    assert field(g, P0, L.P_HAND_N) == 9 and first in hand_cards(g)
    assert g.deck_size(PROD) == n - 1 and deck_top(g, PROD) == second


def test_r11_discarding_during_invest_makes_room_before_the_draws():
    """    hand: 9 cards;  RD* slot 0: invest x2.  One draw chosen, then a card discarded (R13),
    then the second draw chosen: the hand holds 8 when the draws are made, so one card comes."""
    g = board()
    hand(g, [card()] * 9)
    place(g, RD, [card(invest(2))])
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_INVEST + PROD)
    g.step(L.A_DISCARD + 0)
    assert field(g, P0, L.P_HAND_N) == 8
    g.step(L.A_INVEST + PROD)
    assert field(g, P0, L.P_HAND_N) == 9


def test_r11_plan_moves_another_sector_left_with_bumping_never_its_own():
    """    col:     0     1     2     3     4     5
                    EP    TR    RD    IV    .     BO*      BO tile: plan x1
           slot 0                     i           b<       i: plan x1 (charged by b)
    The BO plan offers TR -> 0; RD -> 0,1; IV -> 0,1,2; never BO itself, never a move right.
    Moving IV to 1 bumps TR to 2 and RD to 3 (IV's old column is free, so it stops there).
    Then i's plan (IV now in column 1) offers TR -> 0,1; RD -> 0,1,2; BO -> 0..4; never IV
    (the sector the icon is on) and nothing for EP (already in column 0)."""
    g = board(columns={EP: 0, TR: 1, RD: 2, IV: 3, BO: 5}, tiles={(BO, 0): (plan(1),)})
    place(g, IV, [card(plan(1))])
    place(g, BO, [card(arrows=LEFT)])
    to_discharge(g, BO)
    assert charged_cards(g, P0) == {(BO, 0), (IV, 0)}
    g.step(L.A_DIS_SECTOR + BO)
    g.step(L.A_ICON + 0)
    move = lambda s, c: L.A_PLAN_MOVE + s * L.N_COLS + c  # noqa: E731
    assert phase_legal(g) == {L.A_PASS, move(TR, 0), move(RD, 0), move(RD, 1),
                              move(IV, 0), move(IV, 1), move(IV, 2)}
    assert "Investments" in g.describe_action(move(IV, 1))
    g.step(move(IV, 1))
    assert cols(g, P0) == [0, 2, 3, 1, 5]
    g.step(dis_card(IV, 0))
    g.step(L.A_ICON + 0)
    assert phase_legal(g) == {L.A_PASS, move(TR, 0), move(TR, 1), move(RD, 0), move(RD, 1),
                              move(RD, 2)} | {move(BO, c) for c in range(5)}


# ==============================================================================================
# R13 Any-time actions
# ==============================================================================================
def test_r13_discard_production_for_a_fossil_cube_infrastructure_for_research():
    """    hand: p (production), q (infrastructure).  Discards go to their own discard piles."""
    g = board()
    p, q = hand(g, [card(deck=PROD), card(deck=INFRA)])
    begin_turn(g, P0, chosen=RD)
    piles = (g.discard_pile(PROD), g.discard_pile(INFRA))
    g.step(L.A_DISCARD + hslot(g, p))
    assert field(g, P0, L.P_DEPOT, 7) == [1, 0, 0, 0, 0, 0, 0]
    assert g.discard_pile(PROD) == [p] + piles[0]           # on top of its own pile
    g.step(L.A_DISCARD + hslot(g, q))
    assert field(g, P0, L.P_RESEARCH) == 1
    assert g.discard_pile(INFRA) == [q] + piles[1]
    assert hand_cards(g) == [] and top_frame(g)[0] == L.FT_ACQUIRE


@pytest.mark.parametrize("column", range(7))
def test_r13_donate_a_grid_cube_for_research_by_its_column_value(column):
    """    grid: one cube in ``column``; marker 0.  Donating it advances GRID_VALUE[column]."""
    g = board(grid=[1 if c == column else 0 for c in range(7)])
    begin_turn(g, P0, chosen=RD)
    assert {a for a in legal(g) if a >= L.A_DONATE} == {L.A_DONATE + column}
    g.step(L.A_DONATE + column)
    assert field(g, P0, L.P_RESEARCH) == GRID_VALUE[column]
    assert field(g, P0, L.P_GRID, 7) == [0] * 7


def test_r13_any_time_actions_are_offered_at_every_kind_of_decision():
    """A whole turn walked through: boost, acquire, pay, place (sector, slot), discharge pick,
    item, icon, breakthrough pick, fulfill, reward, industry breakthrough (card, sector, slot,
    free item), sector breakthrough (flip, reorder), and the secret plan of the next round.
           col:     0     1     2     3
                    EP    TR    RD    IV*
           slot 0   e0                i
           slot 1   e1
    hand: B (cost 2, research x1), F (cost 1, produce Fossil), two fillers; depot: Fossil 2;
    grid: Fossil 1, Solar 1; marker 5.  Demand I: 1 Fossil -> industry 1, sector breakthrough.
    At every decision a hand card can be discarded and the solar cube donated."""
    g = board(depot=[2, 0, 0, 0, 0, 0, 0], grid=[1, 0, 0, 0, 0, 0, 1])
    blank_research(g)
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_INDUSTRY, 1, 0), (L.RW_SECTOR, 0, 0)])
    place(g, EP, [card(), card()])
    place(g, IV, [card()])
    b, f, _, _ = hand(g, [card(research(1), cost=2), card(produce(0), cost=1), card(cost=9),
                          card(cost=9)])
    set_marker(g, 5)
    seen = []

    def check(expected_frame):
        ft = top_frame(g)[0]
        assert ft == expected_frame, (ft, expected_frame)
        la = legal(g)
        nh = field(g, g.current_player, L.P_HAND_N)
        assert nh > 0
        assert ids(L.A_DISCARD, *range(nh)) <= la
        assert L.A_DONATE + 6 in la
        seen.append(ft)

    begin_turn(g, P0, chosen=IV, boost=L.BOOST_COLLABORATION)
    check(L.FT_BOOST)
    g.step(L.A_PASS)
    check(L.FT_ACQUIRE)
    g.step(L.A_CARD_HAND + hslot(g, b))
    check(L.FT_PAY)
    g.step(L.A_PAY + 0)
    check(L.FT_PAY)
    g.step(L.A_PAY + 0)
    check(L.FT_PLACE_SECTOR)
    g.step(L.A_PLACE_SECTOR + IV)
    check(L.FT_PLACE_SLOT)
    g.step(L.A_PLACE_SLOT + 1)
    check(L.FT_DISCHARGE)
    g.step(dis_card(IV, 1))
    check(L.FT_ITEM)
    g.step(L.A_ICON + 0)
    check(L.FT_ICON)
    g.step(L.A_RESEARCH)
    check(L.FT_BT_PICK)
    g.step(L.A_BT + 0)
    check(L.FT_DISCHARGE)
    finish_discharge(g)
    check(L.FT_FULFILL)
    g.step(L.A_FULFILL + 0)
    check(L.FT_REWARD)
    g.step(L.A_REWARD + 0)
    check(L.FT_CARD_CHOICE)
    g.step(L.A_CARD_HAND + hslot(g, f))
    check(L.FT_PLACE_SECTOR)
    g.step(L.A_PLACE_SECTOR + EP)
    check(L.FT_PLACE_SLOT)
    g.step(L.A_PLACE_SLOT + 2)
    check(L.FT_ITEM)
    g.step(L.A_PASS)
    check(L.FT_REWARD)
    g.step(L.A_REWARD + 1)
    check(L.FT_FLIP)
    g.step(L.A_FLIP + EP)
    check(L.FT_REORDER)
    g.step(L.A_REORDER + 2)
    check(L.FT_REORDER)
    g.step(L.A_REORDER + 0)
    check(L.FT_FULFILL)
    # the secret plan of the next round (player 1 plays its turn meanwhile)
    g.step(L.A_PASS)
    while top_frame(g)[0] != L.FT_PLAN:
        g.step(L.A_PASS if L.A_PASS in legal(g) else min(phase_legal(g)))
    assert g.current_player == P0
    check(L.FT_PLAN)
    assert len(set(seen)) == 15


# ==============================================================================================
# R14 Research
# ==============================================================================================
def test_r14_breakthrough_at_six_then_the_remaining_movement():
    """    marker 4; grid: one Solar cube (research value 4); spaces 0 and 1 already covered.
    Donating it: the marker reaches 6 after 2 spaces and a breakthrough is picked among the
    uncovered spaces; the marker returns to 0 and the remaining 2 spaces follow."""
    g = board(grid=[0, 0, 0, 0, 0, 0, 1])
    blank_research(g)
    lay(g, players={P0: Player(breakthroughs=[0, 1])})
    set_marker(g, 4)
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_DONATE + 6)
    assert top_frame(g)[0] == L.FT_BT_PICK and field(g, P0, L.P_RESEARCH) == 6
    assert phase_legal(g) == set(range(L.A_BT + 2, L.A_BT + L.N_BT_SPACES))
    g.step(L.A_BT + 5)
    assert field(g, P0, L.P_RESEARCH) == 2
    assert field(g, P0, L.P_BT + 5) == 1
    assert top_frame(g)[0] == L.FT_ACQUIRE


def test_r14_space_reward_is_settled_before_the_remaining_movement():
    """    marker 4; donate a Solar cube (4); space 3 gives 1 energy point.  While the reward is
    pending the marker is back at 0; the remaining 2 spaces come after it."""
    g = board(grid=[0, 0, 0, 0, 0, 0, 1])
    blank_research(g)
    set_space(g, 3, [(L.RW_POINTS, 1, 0)])
    set_marker(g, 4)
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_DONATE + 6)
    g.step(L.A_BT + 3)
    assert top_frame(g)[0] == L.FT_REWARD and field(g, P0, L.P_RESEARCH) == 0
    g.step(L.A_REWARD + 0)
    assert field(g, P0, L.P_SCORE) == 1 and field(g, P0, L.P_RESEARCH) == 2


def test_r14_group_bonus_when_the_last_space_of_its_group_is_covered():
    """    the first group's other spaces are covered; its last space gives 1 point and the
    group bonus 5 points.  marker 5, donate a Fossil cube (1).  Covering a space of an
    incomplete group gives no group bonus."""
    g = board(grid=[2, 0, 0, 0, 0, 0, 0])
    blank_research(g)
    T = g.cards.table
    group = [k for k in range(L.N_BT_SPACES) if T[L.T_BT_GROUP + k] == T[L.T_BT_GROUP + 0]]
    last, gid = group[-1], int(T[L.T_BT_GROUP + 0])
    other = next(k for k in range(L.N_BT_SPACES) if T[L.T_BT_GROUP + k] != gid)
    set_space(g, last, [(L.RW_POINTS, 1, 0)])
    T[L.T_G_NREW + gid] = 1
    T[L.T_G_REW_KIND + gid * 2] = L.RW_POINTS
    T[L.T_G_REW_VAL + gid * 2] = 5
    lay(g, players={P0: Player(breakthroughs=group[:-1])})
    set_marker(g, 5)
    begin_turn(g, P0, chosen=RD)
    h = g.copy()
    h.step(L.A_DONATE + 0)
    h.step(L.A_BT + other)
    assert top_frame(h)[0] == L.FT_ACQUIRE              # no group completed: no bonus
    g.step(L.A_DONATE + 0)
    g.step(L.A_BT + last)
    assert top_frame(g)[:3] == [L.FT_REWARD, L.REW_SRC_SPACE, last]
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[:3] == [L.FT_REWARD, L.REW_SRC_GROUP, gid]
    g.step(L.A_REWARD + 0)
    assert field(g, P0, L.P_SCORE) == 6 and top_frame(g)[0] == L.FT_ACQUIRE


def test_r14_with_every_space_covered_the_marker_stops_at_six():
    """    13 spaces covered, marker 5; grid: 2 Solar (4 each).
    First donation: 1 space to 6, the last space is covered, 3 more spaces -> marker 3.
    Second donation: 3 spaces to 6, no space left, the rest is lost: the marker stays at 6,
    also after more research."""
    g = board(grid=[0, 0, 0, 0, 0, 0, 2])
    blank_research(g)
    lay(g, players={P0: Player(breakthroughs=range(13))})
    set_marker(g, 5)
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_DONATE + 6)
    assert phase_legal(g) == {L.A_BT + 13}
    g.step(L.A_BT + 13)
    assert field(g, P0, L.P_RESEARCH) == 3
    g.step(L.A_DONATE + 6)
    assert field(g, P0, L.P_RESEARCH) == 6 and top_frame(g)[0] == L.FT_ACQUIRE
    (q,) = hand(g, [card(deck=INFRA)])
    g.step(L.A_DISCARD + hslot(g, q))
    assert field(g, P0, L.P_RESEARCH) == 6 and top_frame(g)[0] == L.FT_ACQUIRE


def test_r14_research_gained_while_a_pick_is_pending_continues_afterwards():
    """    marker 5; grid: Fossil 1 (1), Hydro 1 (3); hand: q (infrastructure).
    Donate fossil -> marker 6, pick pending.  Before picking: discard q (+1) and donate hydro
    (+3).  After the pick the marker moves those 4 spaces."""
    g = board(grid=[1, 0, 0, 0, 1, 0, 0])
    blank_research(g)
    (q,) = hand(g, [card(deck=INFRA)])
    set_marker(g, 5)
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_DONATE + 0)
    assert top_frame(g)[0] == L.FT_BT_PICK
    g.step(L.A_DISCARD + hslot(g, q))
    g.step(L.A_DONATE + 4)
    assert top_frame(g)[0] == L.FT_BT_PICK and field(g, P0, L.P_RESEARCH) == 6
    g.step(L.A_BT + 7)
    assert field(g, P0, L.P_RESEARCH) == 4
    assert top_frame(g)[0] == L.FT_ACQUIRE
    assert int(np.sum(field(g, P0, L.P_BT, L.N_BT_SPACES))) == 1


def test_r14_pending_research_can_reach_a_second_breakthrough():
    """    marker 5; grid: Fossil 1, Solar 2.  Donate fossil (pick pending), donate both solar
    cubes (+8) before picking: after the first pick the marker goes 6 -> second pick -> 2."""
    g = board(grid=[1, 0, 0, 0, 0, 0, 2])
    blank_research(g)
    set_marker(g, 5)
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_DONATE + 0)
    g.step(L.A_DONATE + 6)
    g.step(L.A_DONATE + 6)
    g.step(L.A_BT + 0)
    assert top_frame(g)[0] == L.FT_BT_PICK and field(g, P0, L.P_RESEARCH) == 6
    g.step(L.A_BT + 1)
    assert field(g, P0, L.P_RESEARCH) == 2 and top_frame(g)[0] == L.FT_ACQUIRE


def test_r14_breakthrough_in_the_middle_of_a_research_icon():
    """    marker 5;  RD* slot 0: research x3.  The first use reaches 6: the pick comes at once,
    then the icon goes on with its 2 remaining uses."""
    g = board()
    blank_research(g)
    place(g, RD, [card(research(3))])
    set_marker(g, 5)
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_RESEARCH)
    assert top_frame(g)[0] == L.FT_BT_PICK
    g.step(L.A_BT + 4)
    assert top_frame(g)[0] == L.FT_ICON and top_frame(g)[4] == 2
    g.step(L.A_RESEARCH)
    g.step(L.A_RESEARCH)
    assert field(g, P0, L.P_RESEARCH) == 2


# ==============================================================================================
# R15 Decks
# ==============================================================================================
def _empty_deck_into_discard(g, d):
    """Lay deck ``d`` out empty: its cards go to its discard pile; return the pile."""
    lay(g, decks={d: []})
    assert g.deck_size(d) == 0
    return g.discard_pile(d)


def test_r15_an_empty_deck_is_rebuilt_from_its_shuffled_discard_pile():
    """    production deck empty, every production card in its discard pile;
    RD* slot 0: invest x1.  Drawing production shuffles the pile into a new deck, then draws.
    Different generator states give different deck orders."""
    orders = set()
    for seed in range(4):
        g = board(seed=seed)
        place(g, RD, [card(invest(1))])
        pile = _empty_deck_into_discard(g, PROD)
        to_discharge(g, RD)
        g.state[L.S_RNG:L.S_RNG + 4] = [seed + 1, 7 * seed + 3, 11, 13 + seed]   # other shuffles
        g.step(dis_card(RD, 0))
        g.step(L.A_ICON + 0)
        g.step(L.A_INVEST + PROD)
        deck = g.deck(PROD, reveal=True)
        drawn = hand_cards(g)
        assert len(drawn) == 1 and g.discard_pile(PROD) == []
        assert sorted(deck + drawn) == sorted(pile)
        orders.add(tuple(deck + drawn))
        g.check_invariants()
    assert len(orders) > 1, "the rebuilt deck must be shuffled"


def test_r15_deck_and_discard_pile_both_empty_the_draw_is_lost():
    """    4 players; every production card not in a hand lies on the boards of players 1-3
    (deck and discard pile empty); RD* slot 0: invest x2; choices production, infrastructure:
    only the infrastructure card comes, the production draw is lost (no other deck replaces
    it)."""
    g = board(n_players=4)
    place(g, RD, [card(invest(2))])
    rest = g.deck(PROD, reveal=True) + g.discard_pile(PROD)
    sectors = [(p, s) for p in (1, 2, 3) for s in range(5)]
    boards = {p: Player(sectors={}) for p in (1, 2, 3)}
    for i in range(0, len(rest), L.MAX_SLOTS):
        p, s = sectors[i // L.MAX_SLOTS]
        boards[p].sectors[s] = Sector(cards=rest[i:i + L.MAX_SLOTS])
    lay(g, players=boards)
    assert g.deck_size(PROD) == 0 and g.discard_pile(PROD) == []
    g.check_invariants()
    to_discharge(g, RD)
    ti = deck_top(g, INFRA)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_INVEST + PROD)
    g.step(L.A_INVEST + INFRA)
    assert hand_cards(g) == [ti]
    assert g.deck_size(PROD) == 0 and g.discard_pile(PROD) == []
    g.check_invariants()


# ==============================================================================================
# R16 Fulfill
# ==============================================================================================
def to_fulfill(g, chosen=BO):
    to_discharge(g, chosen)
    finish_discharge(g)
    assert top_frame(g)[0] == L.FT_FULFILL


def test_r16_demands_in_any_order_once_each_and_only_with_every_cube():
    """    grid: Fossil 4, Gas 1.   I: 2 Fossil.  II: 2 Fossil + 1 Hydro.  III: 1 Gas.
    I and III are offered, II is not (no hydro: no partial fulfilment).  III first, then I;
    I is not offered again even with 2 fossil left.  The other player may still fulfil I."""
    g = board(grid=[4, 1, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 2)], basic=[(L.RW_POINTS, 1, 0)])
    set_demand(g, 1, [(0, 2), (4, 1)], basic=[(L.RW_POINTS, 1, 0)])
    set_demand(g, 2, [(1, 1)], basic=[(L.RW_POINTS, 2, 0)])
    to_fulfill(g)
    assert phase_legal(g) == {L.A_PASS, L.A_FULFILL + 0, L.A_FULFILL + 2}
    g.step(L.A_FULFILL + 2)
    assert field(g, P0, L.P_GRID, 2) == [4, 0]
    g.step(L.A_PASS)                                   # decline its rewards
    g.step(L.A_FULFILL + 0)
    g.step(L.A_REWARD + 0)
    assert field(g, P0, L.P_GRID, 2) == [2, 0] and field(g, P0, L.P_SCORE) == 1
    assert phase_legal(g) == {L.A_PASS}
    assert field(g, P0, L.P_FULFILLED, 7) == [1, 0, 1, 0, 0, 0, 0]
    set_cubes(g, 1, grid=[2, 0, 0, 0, 0, 0, 0])
    start_at(g, 1, "fulfill", chosen=BO)
    assert L.A_FULFILL + 0 in legal(g)


def test_r16_priority_rewards_only_with_the_first_two_fulfilments():
    """    grid: Fossil 3.  Demands I, II, III: 1 Fossil each, basic 1 point, priority 2 points.
    The first two fulfilments offer the priority slot, the third does not."""
    g = board(grid=[3, 0, 0, 0, 0, 0, 0])
    for lv in range(3):
        set_demand(g, lv, [(0, 1)], basic=[(L.RW_POINTS, 1, 0)], prio=[(L.RW_POINTS, 2, 0)])
    to_fulfill(g)
    for lv, prio in ((2, True), (0, True), (1, False)):
        g.step(L.A_FULFILL + lv)
        want = {L.A_PASS, L.A_REWARD + 0} | ({L.A_REWARD + 1} if prio else set())
        assert phase_legal(g) == want
        for r in sorted(want - {L.A_PASS}):
            g.step(r)
    assert field(g, P0, L.P_SCORE) == 3 + 2 + 2
    assert field(g, P0, L.P_NFULFILLED) == 3


def test_r16_rewards_optional_any_order_settled_before_the_next_card():
    """    grid: Fossil 2.  I: 1 Fossil -> basic: 1 point, 1 clean; priority: 2 points.
                          II: 1 Fossil -> basic: 1 point.
    Priority reward first, then the point; the clean token is declined.  While I's rewards
    are pending II cannot be fulfilled; once declined, a reward is gone."""
    g = board(grid=[2, 0, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_POINTS, 1, 0), (L.RW_CLEAN, 1, 0)],
               prio=[(L.RW_POINTS, 2, 0)])
    set_demand(g, 1, [(0, 1)], basic=[(L.RW_POINTS, 1, 0)])
    to_fulfill(g)
    g.step(L.A_FULFILL + 0)
    assert L.A_FULFILL + 1 not in legal(g)
    g.step(L.A_REWARD + 2)
    g.step(L.A_REWARD + 0)
    assert phase_legal(g) == {L.A_PASS, L.A_REWARD + 1}
    g.step(L.A_PASS)
    assert top_frame(g)[0] == L.FT_FULFILL
    assert field(g, P0, L.P_SCORE) == 3 and field(g, P0, L.P_CLEAN) == 0
    g.step(L.A_FULFILL + 1)
    g.step(L.A_REWARD + 0)
    assert field(g, P0, L.P_SCORE) == 4 and field(g, P0, L.P_CLEAN) == 0


def test_r16_clean_breakthrough_token_raises_later_clean_multipliers():
    """    grid: Fossil 1.  I: 1 Fossil -> clean 1.  Afterwards a free card's clean icon on EP
    (column 0, clean track 0) is worth 1 (checked through an industry breakthrough of II)."""
    g = board(grid=[2, 0, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_CLEAN, 1, 0)])
    set_demand(g, 1, [(0, 1)], basic=[(L.RW_INDUSTRY, 3, 0)])
    (z,) = hand(g, [card(produce(0, 0, L.MULT_CLEAN), cost=3)])
    to_fulfill(g)
    g.step(L.A_FULFILL + 0)
    g.step(L.A_REWARD + 0)
    assert field(g, P0, L.P_CLEAN) == 1
    g.step(L.A_FULFILL + 1)
    g.step(L.A_REWARD + 0)
    g.step(L.A_CARD_HAND + hslot(g, z))
    g.step(L.A_PLACE_SECTOR + EP)
    g.step(L.A_ICON + 0)
    assert top_frame(g)[4] == 1


def test_r16_industry_breakthrough_free_card_cost_at_most_value():
    """    depot empty; hand: A cost 3, B cost 4; basic card 0: face A cost 3, face B cost 4.
    grid: Fossil 1.  I: 1 Fossil -> industry breakthrough 3.
    Offered: A and basic face A (cost <= 3) and forgoing; not B, not basic face B.  A is placed
    without payment (depot still empty); its icons can be used at once, or not at all."""
    g = board(grid=[1, 0, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_INDUSTRY, 3, 0)])
    a, b = hand(g, [card(produce(0, 2), cost=3), card(cost=4)])
    set_face(g, basic_face(0, 0), icons=(research(1),), cost=3)
    set_face(g, basic_face(0, 1), icons=(research(1),), cost=4)
    place(g, TR, [card()])
    to_fulfill(g)
    g.step(L.A_FULFILL + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[:2] == [L.FT_CARD_CHOICE, 3]
    assert phase_legal(g) == {L.A_PASS, L.A_CARD_HAND + hslot(g, a), L.A_CARD_BASIC + 0}
    assert "free" in g.describe_action(L.A_CARD_HAND + hslot(g, a))
    bc = g.copy()
    bc.step(L.A_CARD_BASIC + 0)                         # a basic face is free as well ...
    assert top_frame(bc)[:2] == [L.FT_PLACE_SECTOR, basic_face(0, 0)]
    assert bc.state[L.S_BASIC + 0] == 0                 # ... and leaves the supply
    f = g.copy()
    f.step(L.A_PASS)                                    # forgo it
    assert top_frame(f)[0] == L.FT_FULFILL and field(f, P0, L.P_HAND_N) == 2
    g.step(L.A_CARD_HAND + hslot(g, a))
    assert top_frame(g)[0] == L.FT_PLACE_SECTOR         # no payment
    g.step(L.A_PLACE_SECTOR + TR)
    assert phase_legal(g) == {L.A_PLACE_SLOT + 0, L.A_PLACE_SLOT + 1}   # placed as in R7
    g.step(L.A_PLACE_SLOT + 0)
    assert top_frame(g)[:3] == [L.FT_ITEM, a, TR]
    skip = g.copy()
    skip.step(L.A_PASS)                                 # using the icons is optional
    assert top_frame(skip)[0] == L.FT_FULFILL and field(skip, P0, L.P_DEPOT) == 0
    g.step(L.A_ICON + 0)
    g.step(L.A_PRODUCE + 0)
    g.step(L.A_PRODUCE + 0)
    assert field(g, P0, L.P_DEPOT) == 2 and top_frame(g)[0] == L.FT_FULFILL
    assert sector_cards(g, TR)[0] == a and charged_cards(g, P0) == set()


def test_r16_industry_breakthrough_during_discharge_charges_nothing():
    """    col:     0     1     2
                    EP    TR    RD*
           slot 0   e     t     r             marker 5; space 0 gives industry breakthrough 2
    hand: Z cost 2 (arrow left).  r: research x1.  Research reaches 6, space 0 is covered and Z
    is played on RD at slot 0: Z is not charged, its arrow does not charge t, and the chosen
    sector's later cards are not affected (t stays uncharged, the RD tile charge stays)."""
    g = board()
    blank_research(g)
    set_space(g, 0, [(L.RW_INDUSTRY, 2, 0)])
    place(g, EP, [card()])
    place(g, TR, [card()])
    (r,) = place(g, RD, [card(research(1))])
    (z,) = hand(g, [card(produce(0), arrows=LEFT, cost=2)])
    set_marker(g, 5)
    to_discharge(g, RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_RESEARCH)
    g.step(L.A_BT + 0)
    g.step(L.A_REWARD + 0)
    g.step(L.A_CARD_HAND + hslot(g, z))
    g.step(L.A_PLACE_SECTOR + RD)
    g.step(L.A_PLACE_SLOT + 0)
    assert sector_cards(g, RD) == [z, r]
    g.step(L.A_PASS)                                    # do not use Z's icons
    assert charged_cards(g, P0) == set()
    assert charged_tiles(g) == {RD}
    assert phase_legal(g) == {L.A_DIS_SECTOR + RD}


def test_r16_free_card_played_before_step_3_is_charged_there():
    """RD chosen; marker 5; research space 0: industry breakthrough 4.  In Acquire an
    infrastructure card is discarded (R13): research reaches 6, space 0 is covered, and its free
    card F goes on RD, uncharged for now.  Step 3 then charges F like any card on the chosen
    sector (R16 as clarified)."""
    g = board()
    blank_research(g)
    set_space(g, 0, [(L.RW_INDUSTRY, 4, 0)])
    set_marker(g, 5)
    f, i = hand(g, [card(research(1), cost=2), card(cost=1, deck=INFRA)])
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_DISCARD + hslot(g, i))
    g.step(L.A_BT + 0)
    g.step(L.A_REWARD + 0)
    g.step(L.A_CARD_HAND + hslot(g, f))
    g.step(L.A_PLACE_SECTOR + RD)
    assert top_frame(g)[0] == L.FT_ITEM and charged_cards(g, P0) == set()
    g.step(L.A_PASS)
    assert top_frame(g)[0] == L.FT_ACQUIRE
    g.step(L.A_PASS)
    assert top_frame(g)[0] == L.FT_DISCHARGE
    assert sector_cards(g, RD) == [f] and charged_cards(g, P0) == {(RD, 0)}


def test_r16_sector_breakthrough_flips_side_a_and_reorders_keeping_charges():
    """    col:     3
                    IV*          IV tile side A: research x1;  side B: produce Fossil x1
           slot 0   i0           i0: research x1    marker 5; space 0: sector breakthrough
           slot 1   i1           TR is already on side B
           slot 2   i2
    i0 is discharged first and reaches a breakthrough; IV is flipped (TR is not offered) and
    its cards are reordered i2, i0, i1: the charges of i1 and i2 go with them; the tile stays
    charged and now discharges its side-B icons."""
    g = board(tiles={(IV, 0): (research(1),), (IV, 1): (produce(0),)})
    blank_research(g)
    set_space(g, 0, [(L.RW_SECTOR, 0, 0)])
    lay(g, players={P0: Player(sectors={TR: Sector(side="B")})})
    i0, i1, i2 = place(g, IV, [card(research(1)), card(), card()])
    set_marker(g, 5)
    to_discharge(g, IV)
    g.step(dis_card(IV, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_RESEARCH)
    g.step(L.A_BT + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[0] == L.FT_FLIP
    assert phase_legal(g) == {L.A_PASS} | ids(L.A_FLIP, EP, RD, IV, BO)
    g.step(L.A_FLIP + IV)
    assert field(g, P0, L.P_SEC_SIDE + IV) == 1
    assert phase_legal(g) == ids(L.A_REORDER, 0, 1, 2)
    g.step(L.A_REORDER + 2)
    assert phase_legal(g) == ids(L.A_REORDER, 0, 1)
    g.step(L.A_REORDER + 0)
    assert sector_cards(g, IV) == [i2, i0, i1]
    assert charged_cards(g, P0) == {(IV, 0), (IV, 2)}
    assert charged_tiles(g) == {IV}
    g.step(L.A_DIS_SECTOR + IV)
    assert top_frame(g)[:2] == [L.FT_ITEM, sector_face(IV, 1)]
    assert phase_legal(g) == {L.A_PASS, L.A_ICON + 0}


def test_r16_flip_of_a_sector_with_one_card_needs_no_order():
    """    EP holds one card.  Flipping it asks nothing more."""
    g = board(grid=[1, 0, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_SECTOR, 0, 0)])
    (e,) = place(g, EP, [card()])
    to_fulfill(g)
    g.step(L.A_FULFILL + 0)
    g.step(L.A_REWARD + 0)
    g.step(L.A_FLIP + EP)
    assert top_frame(g)[0] == L.FT_FULFILL and sector_cards(g, EP) == [e]


def test_r16_rulebook_fulfill_example():
    """Rulebook, Step 5 example.
           grid: Fossil 3, Gas 3, Biofuel 8, Geothermal 1
           I  : 3 Fossil + 1 Geothermal -> sector breakthrough; priority 1 point
           III: 6 Biofuel -> 1 point, industry 2, industry 2; priority clean token
           II : 3 Gas + 2 Biofuel -> 1 point, clean token; priority 3 points
           col:     0     1     2
                    EP    TR    RD
           slot 0   e0          r<            hand: N (infrastructure, cost 2, invest x2),
           slot 1   e1                              X (cost 3)
                                              basic card 0: face A cost 2 (produce Fossil, arrow
                                              left), face B cost 5
    I first (priority): EP is flipped and its two cards reordered (e1, e0), 1 point.
    III (priority): 1 point, N onto TR (2 draws at once), basic face A onto RD above r (1
    fossil at once; its arrow points at N but charges nothing), clean token.
    II (no priority left): 1 point and a clean token only.  Nothing more can be fulfilled."""
    g = board(grid=[3, 3, 8, 1, 0, 0, 0])
    set_demand(g, 0, [(0, 3), (3, 1)], basic=[(L.RW_SECTOR, 0, 0)], prio=[(L.RW_POINTS, 1, 0)])
    set_demand(g, 2, [(2, 6)], basic=[(L.RW_POINTS, 1, 0), (L.RW_INDUSTRY, 2, 0),
                                      (L.RW_INDUSTRY, 2, 0)], prio=[(L.RW_CLEAN, 1, 0)])
    set_demand(g, 1, [(1, 3), (2, 2)], basic=[(L.RW_POINTS, 1, 0), (L.RW_CLEAN, 1, 0)],
               prio=[(L.RW_POINTS, 3, 0)])
    e0, e1 = place(g, EP, [card(), card()])
    (r,) = place(g, RD, [card(arrows=LEFT)])
    n, x = hand(g, [card(invest(2), cost=2, deck=INFRA), card(cost=3)])
    set_face(g, basic_face(0, 0), icons=(produce(0),), arrows=LEFT, cost=2)
    set_face(g, basic_face(0, 1), icons=(research(1),), cost=5)
    to_fulfill(g)
    assert phase_legal(g) == {L.A_PASS} | ids(L.A_FULFILL, 0, 1, 2)
    # demand I with the first priority cube
    g.step(L.A_FULFILL + 0)
    assert field(g, P0, L.P_GRID, 4) == [0, 3, 8, 0]
    assert phase_legal(g) == {L.A_PASS} | ids(L.A_REWARD, 0, 1)
    g.step(L.A_REWARD + 0)
    assert phase_legal(g) == {L.A_PASS} | ids(L.A_FLIP, EP, TR, RD, IV, BO)
    g.step(L.A_FLIP + EP)
    g.step(L.A_REORDER + 1)
    assert sector_cards(g, EP) == [e1, e0] and field(g, P0, L.P_SEC_SIDE + EP) == 1
    g.step(L.A_REWARD + 1)
    assert field(g, P0, L.P_SCORE) == 1 and top_frame(g)[0] == L.FT_FULFILL
    # demand III with the second priority cube
    g.step(L.A_FULFILL + 2)
    assert phase_legal(g) == {L.A_PASS} | ids(L.A_REWARD, 0, 1, 2, 3)
    g.step(L.A_REWARD + 0)
    g.step(L.A_REWARD + 1)
    assert phase_legal(g) == {L.A_PASS, L.A_CARD_HAND + hslot(g, n), L.A_CARD_BASIC + 0}
    g.step(L.A_CARD_HAND + hslot(g, n))
    g.step(L.A_PLACE_SECTOR + TR)
    g.step(L.A_ICON + 0)
    g.step(L.A_INVEST + PROD)
    g.step(L.A_INVEST + INFRA)
    assert field(g, P0, L.P_HAND_N) == 3 and x in hand_cards(g)
    g.step(L.A_REWARD + 2)
    g.step(L.A_CARD_BASIC + 0)
    g.step(L.A_PLACE_SECTOR + RD)
    g.step(L.A_PLACE_SLOT + 0)                          # nudges r down
    assert sector_cards(g, RD) == [basic_face(0, 0), r] and g.state[L.S_BASIC + 0] == 0
    g.step(L.A_ICON + 0)
    g.step(L.A_PRODUCE + 0)
    assert charged_cards(g, P0) == set() and field(g, P0, L.P_DEPOT) == 1
    g.step(L.A_REWARD + 3)
    assert field(g, P0, L.P_SCORE) == 2 and field(g, P0, L.P_CLEAN) == 1
    assert top_frame(g)[0] == L.FT_FULFILL
    # demand II: both priority cubes are placed, basic rewards only
    g.step(L.A_FULFILL + 1)
    assert phase_legal(g) == {L.A_PASS} | ids(L.A_REWARD, 0, 1)
    g.step(L.A_REWARD + 0)
    g.step(L.A_REWARD + 1)
    assert field(g, P0, L.P_SCORE) == 3 and field(g, P0, L.P_CLEAN) == 2
    assert field(g, P0, L.P_NFULFILLED) == 3
    assert field(g, P0, L.P_GRID, 7) == [0] * 7
    assert phase_legal(g) == {L.A_PASS}


# ==============================================================================================
# R19 Forgone rewards
# ==============================================================================================
def test_r19_sector_breakthrough_without_a_side_a_sector_is_forgone():
    """    every sector on side B; I: 1 Fossil -> sector breakthrough, 1 point.  Taking the
    breakthrough does nothing and asks nothing; the point can still be taken."""
    g = board(grid=[1, 0, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_SECTOR, 0, 0), (L.RW_POINTS, 1, 0)])
    lay(g, players={P0: Player(sectors={s: Sector(side="B") for s in range(L.N_SECTORS)})})
    to_fulfill(g)
    g.step(L.A_FULFILL + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[0] == L.FT_REWARD
    assert phase_legal(g) == {L.A_PASS, L.A_REWARD + 1}
    g.step(L.A_REWARD + 1)
    assert top_frame(g)[0] == L.FT_FULFILL and field(g, P0, L.P_SCORE) == 1


def test_r19_industry_breakthrough_without_a_card_cheap_enough_is_forgone():
    """    hand: A cost 3; every basic face costs 99.  I: 1 Fossil -> industry breakthrough 2."""
    g = board(grid=[1, 0, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_INDUSTRY, 2, 0)])
    hand(g, [card(cost=3)])
    to_fulfill(g)
    g.step(L.A_FULFILL + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[0] == L.FT_FULFILL and field(g, P0, L.P_HAND_N) == 1


def test_r19_industry_breakthrough_without_a_sector_with_room_is_forgone():
    """    every sector holds 5 cards; hand: A cost 0.  I: 1 Fossil -> industry breakthrough 8."""
    g = board(grid=[1, 0, 0, 0, 0, 0, 0])
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_INDUSTRY, 8, 0)])
    for s in range(L.N_SECTORS):
        place(g, s, [card()] * 5)
    hand(g, [card(cost=0)])
    to_fulfill(g)
    g.step(L.A_FULFILL + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[0] == L.FT_FULFILL and field(g, P0, L.P_HAND_N) == 1


def _full_but_one(g, last):
    """Four sectors with 5 cards, sector ``last`` with 4: one free slot on the board."""
    for s in range(L.N_SECTORS):
        place(g, s, [card()] * (4 if s == last else 5))


def test_r19_free_card_cannot_take_the_slot_of_a_card_being_placed():
    """    every sector full except BO (4 cards): one free slot.  hand: X cost 1 (bought),
    q (infrastructure, to discard), Z cost 0.  marker 5; space 0: industry breakthrough 8.
    X is bought and BO chosen; before its slot is chosen, q is discarded (R13): research 6,
    space 0, industry breakthrough.  The only free slot belongs to X, so the breakthrough is
    forgone (R19) and X is then placed: BO holds 5 cards."""
    g = board(depot=[1, 0, 0, 0, 0, 0, 0])
    blank_research(g)
    set_space(g, 0, [(L.RW_INDUSTRY, 8, 0)])
    _full_but_one(g, BO)
    x, q, z = hand(g, [card(cost=1), card(deck=INFRA), card(cost=0)])
    set_marker(g, 5)
    begin_turn(g, P0, chosen=EP)
    g.step(L.A_CARD_HAND + hslot(g, x))
    g.step(L.A_PAY + 0)
    g.step(L.A_PLACE_SECTOR + BO)
    assert top_frame(g)[0] == L.FT_PLACE_SLOT
    g.step(L.A_DISCARD + hslot(g, q))
    g.step(L.A_BT + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[0] == L.FT_PLACE_SLOT and z in hand_cards(g)
    g.step(L.A_PLACE_SLOT + 4)
    assert sector_cards(g, BO)[4] == x and field(g, P0, L.P_SEC_N + BO) == 5
    g.check_invariants()


def test_r19_free_card_cannot_take_the_last_slot_while_a_bought_card_is_being_paid():
    """    every sector full except RD (4 cards): one free slot.  hand: X cost 2 (bought), q
    (infrastructure), Z cost 0; depot: Fossil 2.  marker 5; space 0: industry breakthrough 8.
    X is bought; after the first cube, q is discarded: the breakthrough cannot use the slot
    that X needs, so it is forgone; X is paid and placed on RD."""
    g = board(depot=[2, 0, 0, 0, 0, 0, 0])
    blank_research(g)
    set_space(g, 0, [(L.RW_INDUSTRY, 8, 0)])
    _full_but_one(g, RD)
    x, q, z = hand(g, [card(cost=2), card(deck=INFRA), card(cost=0)])
    set_marker(g, 5)
    begin_turn(g, P0, chosen=EP)
    g.step(L.A_CARD_HAND + hslot(g, x))
    g.step(L.A_PAY + 0)
    g.step(L.A_DISCARD + hslot(g, q))
    g.step(L.A_BT + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[0] == L.FT_PAY and z in hand_cards(g)
    g.step(L.A_PAY + 0)
    assert phase_legal(g) == {L.A_PLACE_SECTOR + RD}
    g.step(L.A_PLACE_SECTOR + RD)
    g.step(L.A_PLACE_SLOT + 0)
    assert sector_cards(g, RD)[0] == x
    g.check_invariants()


def test_r19_free_card_may_share_a_sector_with_a_pending_card_when_both_fit():
    """    BO holds 3 cards, the rest are full: two free slots.  X is being placed on BO when an
    industry breakthrough comes: Z may take one of them (BO), X still fits afterwards."""
    g = board(depot=[1, 0, 0, 0, 0, 0, 0])
    blank_research(g)
    set_space(g, 0, [(L.RW_INDUSTRY, 8, 0)])
    for s in range(L.N_SECTORS):
        place(g, s, [card()] * (3 if s == BO else 5))
    x, q, z = hand(g, [card(cost=1), card(deck=INFRA), card(cost=0)])
    set_marker(g, 5)
    begin_turn(g, P0, chosen=EP)
    g.step(L.A_CARD_HAND + hslot(g, x))
    g.step(L.A_PAY + 0)
    g.step(L.A_PLACE_SECTOR + BO)
    g.step(L.A_DISCARD + hslot(g, q))
    g.step(L.A_BT + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[0] == L.FT_CARD_CHOICE
    g.step(L.A_CARD_HAND + hslot(g, z))
    assert phase_legal(g) == {L.A_PLACE_SECTOR + BO}
    g.step(L.A_PLACE_SECTOR + BO)
    g.step(L.A_PLACE_SLOT + 0)                          # Z has no icons: nothing to use
    assert top_frame(g)[0] == L.FT_PLACE_SLOT
    g.step(L.A_PLACE_SLOT + 4)
    assert sector_cards(g, BO)[0] == z and sector_cards(g, BO)[4] == x
    g.check_invariants()


def test_r19_research_space_reward_that_cannot_be_used_never_blocks():
    """    every sector on side B; marker 5; space 0: sector breakthrough; hand empty, grid:
    Fossil 1.  Donating reaches the space; its reward is forgone and Acquire goes on."""
    g = board(grid=[1, 0, 0, 0, 0, 0, 0])
    blank_research(g)
    set_space(g, 0, [(L.RW_SECTOR, 0, 0)])
    lay(g, players={P0: Player(sectors={s: Sector(side="B") for s in range(L.N_SECTORS)})})
    set_marker(g, 5)
    begin_turn(g, P0, chosen=RD)
    g.step(L.A_DONATE + 0)
    g.step(L.A_BT + 0)
    g.step(L.A_REWARD + 0)
    assert top_frame(g)[0] == L.FT_ACQUIRE
    assert len(legal(g)) >= 1


def test_r07_cubes_owed_for_a_card_being_paid_cannot_be_spent_midway():
    """    depot: Natural Gas 2 (value 2 each).  hand: X cost 3, q (infrastructure), Z cost 0
    with transmit x2 and develop x1.  marker 5; space 0: industry breakthrough 8.
    X is bought and one gas cube paid (1 still owed); q is discarded for research, the
    breakthrough plays Z for free: its transmit and develop may not touch the last gas cube
    (the payment needs it), so the purchase can always be completed (R7, R24)."""
    g = board(depot=[0, 2, 0, 0, 0, 0, 0])
    blank_research(g)
    set_space(g, 0, [(L.RW_INDUSTRY, 8, 0)])
    x, q, z = hand(g, [card(cost=3), card(deck=INFRA), card(transmit(2), develop(1), cost=0)])
    set_marker(g, 5)
    begin_turn(g, P0, chosen=EP)
    g.step(L.A_CARD_HAND + hslot(g, x))
    g.step(L.A_PAY + 1)
    g.step(L.A_DISCARD + hslot(g, q))
    g.step(L.A_BT + 0)
    g.step(L.A_REWARD + 0)
    g.step(L.A_CARD_HAND + hslot(g, z))
    g.step(L.A_PLACE_SECTOR + TR)
    assert top_frame(g)[0] == L.FT_ITEM
    g.step(L.A_ICON + 0)                                   # transmit x2
    assert L.A_TRANSMIT + 1 not in legal(g)
    g.step(L.A_PASS)
    g.step(L.A_ICON + 1)                                   # develop x1
    assert L.A_DEVELOP + 1 in legal(g), "developing gas keeps (raises) the depot value"
    g.step(L.A_PASS)
    assert top_frame(g)[0] == L.FT_PAY and L.A_PAY + 1 in legal(g)
    g.step(L.A_PAY + 1)
    assert top_frame(g)[0] == L.FT_PLACE_SECTOR
    g.check_invariants()
