"""Rulings of the round structure: setup (R2, R3), plan and boosts (R4, R5), turn order (R6),
reset (R17), game end (R18) and the environment contract (R24-R26); the rulings are stated in
docs/rules.md."""
import numpy as np
import pytest

from electrify_env import Game, IllegalActionError
from electrify_env.engine import layout as L
from electrify_env.engine.scoring import winners_mask

from electrify_env.position import Player

from positions import (
    begin_turn, col, cols, field, hand_of, lay, legal, new_game, phase_legal, set_columns, top_frame,
)

EP, TR, RD, IV, BO = range(5)  # Energy Production, Transmission, R&D, Investments, Business Ops


def plan_all(g: Game, choices):
    """Every player dials a sector (seat order)."""
    for s in choices:
        g.step(L.A_PLAN + s)


# ---- R2 / R3: setup ------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_r02_setup_sectors_fill_columns_0_4_side_a_same_order(n):
    orders = set()
    for seed in range(12):
        g = Game(n_players=n, seed=seed)
        first = cols(g, 0)
        assert sorted(first) == [0, 1, 2, 3, 4]
        for p in range(n):
            assert cols(g, p) == first
            assert field(g, p, L.P_SEC_SIDE, 5) == [0] * 5
        orders.add(tuple(first))
    assert len(orders) > 1, "the sector order must be random"


def test_r03_setup_deals_from_the_card_set():
    g = Game(n_players=4, seed=3)
    S, T = g.state, g.cards.table
    n_prod = sum(1 for c in range(T[L.T_N_IND]) if T[L.T_IND_DECK + c] == 0)
    n_inf = T[L.T_N_IND] - n_prod
    assert S[L.S_DECK_N] == n_prod - 12 and S[L.S_DECK_N + 1] == n_inf - 12
    for p in range(4):
        hand = field(g, p, L.P_HAND, field(g, p, L.P_HAND_N))
        assert sorted(T[L.T_IND_DECK + c] for c in hand) == [0, 0, 0, 1, 1, 1]
        assert field(g, p, L.P_DEPOT, 7) == [6, 0, 0, 0, 0, 0, 0]
        assert field(g, p, L.P_RESEARCH) == 0
    levels = [T[L.T_D_LEVEL + S[L.S_DEMAND + lv]] for lv in range(7)]
    assert levels == list(range(7))
    assert S[L.S_BASIC:L.S_BASIC + T[L.T_N_BASIC]].all()


# ---- R4: plan --------------------------------------------------------------------------------
def test_r04_plan_is_secret_until_all_have_chosen():
    g = Game(n_players=3, seed=1)
    g.step(L.A_PLAN + EP)
    assert g.current_player == 1
    g2 = Game(n_players=3, seed=1)
    g2.step(L.A_PLAN + BO)
    assert np.array_equal(g2.observe(1), g.observe(1))
    assert np.array_equal(g2.observe(2), g.observe(2))
    assert g.round == 0


def test_r04_collaboration_gives_research_and_is_optional():
    g = Game(n_players=2, seed=2)
    plan_all(g, [RD, RD])
    assert g.round == 1 and g.current_player == 0
    assert top_frame(g)[0] == L.FT_BOOST and top_frame(g)[1] == L.BOOST_COLLABORATION
    assert {L.A_PASS, L.A_BOOST} <= phase_legal(g)
    g.step(L.A_BOOST)
    assert field(g, 0, L.P_RESEARCH) == 1
    g2 = Game(n_players=2, seed=2)
    plan_all(g2, [RD, RD])
    g2.step(L.A_PASS)
    assert field(g2, 0, L.P_RESEARCH) == 0
    assert top_frame(g2)[0] == L.FT_ACQUIRE


def test_r04_innovation_slides_the_chosen_sector_with_bumping():
    g = Game(n_players=2, seed=2)
    set_columns(g, 0, {EP: 0, TR: 1, RD: 2, IV: 4, BO: 5})
    plan_all(g, [TR, EP])
    assert top_frame(g)[1] == L.BOOST_INNOVATION
    g.step(L.A_BOOST)
    # TR 1 -> 2 bumps RD 2 -> 3; IV at 4 is not touched
    assert cols(g, 0) == [0, 2, 3, 4, 5]


# ---- R5: bumping -----------------------------------------------------------------------------
def test_r05_bump_chain_stops_at_a_gap():
    """Rulebook example: EP slides into IV's column, IV is bumped, R&D beyond a gap stays.
        col: 0  1  2  3  4  5  6
             TR BO EP IV .  RD .
    """
    g = Game(n_players=2, seed=4)
    set_columns(g, 0, {TR: 0, BO: 1, EP: 2, IV: 3, RD: 5})
    plan_all(g, [EP, TR])
    g.step(L.A_BOOST)
    assert cols(g, 0) == [3, 0, 5, 4, 1]


def test_r05_bump_past_last_column_is_not_legal():
    """    col: 0  1  2  3  4  5  6
                .  .  EP TR RD IV BO      EP cannot slide: BO would leave the board.
    """
    g = Game(n_players=2, seed=4)
    set_columns(g, 0, {EP: 2, TR: 3, RD: 4, IV: 5, BO: 6})
    plan_all(g, [EP, TR])
    # the innovation cannot be made: it is forgone and never offered
    assert top_frame(g)[0] == L.FT_ACQUIRE
    assert L.A_BOOST not in legal(g)
    assert cols(g, 0) == [2, 3, 4, 5, 6]


def test_r05_rightmost_sector_cannot_innovate_but_can_with_room():
    g = Game(n_players=2, seed=4)
    set_columns(g, 0, {EP: 0, TR: 1, RD: 2, IV: 3, BO: 6})
    plan_all(g, [BO, TR])
    assert top_frame(g)[0] == L.FT_ACQUIRE  # BO at column 6 cannot move
    g = Game(n_players=2, seed=4)
    set_columns(g, 0, {EP: 0, TR: 1, RD: 2, IV: 3, BO: 5})
    plan_all(g, [BO, TR])
    g.step(L.A_BOOST)
    assert col(g, 0, BO) == 6


# ---- R6: order -------------------------------------------------------------------------------
def test_r06_steps_2_to_6_one_player_at_a_time_in_seat_order():
    g = Game(n_players=3, seed=5)
    rng = np.random.default_rng(0)
    plan_all(g, [EP, TR, RD])
    seen = []
    while g.round == 1 and not g.is_terminal:
        if not seen or seen[-1] != g.current_player:
            seen.append(g.current_player)
        if top_frame(g)[0] == L.FT_PLAN:
            break
        acts = g.legal_actions()
        # prefer the phase actions so the turn moves on
        ph = [a for a in acts if a < L.A_DISCARD]
        g.step(int(rng.choice(ph if ph else acts)))
    assert seen[:3] == [0, 1, 2]
    assert top_frame(g)[0] == L.FT_PLAN and g.current_player == 0


# ---- R17: reset ------------------------------------------------------------------------------
def test_r17_reset_moves_chosen_sector_to_column_0_with_bumping():
    """ before reset:  col 0 EP, 1 TR, 2 . , 3 RD(chosen), 4 IV, 5 BO
        after reset:   col 0 RD, 1 EP, 2 TR, 3 . , 4 IV, 5 BO  (the gap stops the bump) """
    g = new_game(2, seed=6)
    set_columns(g, 0, {EP: 0, TR: 1, RD: 3, IV: 4, BO: 5})
    begin_turn(g, 0, chosen=RD, round_=3)
    g.step(L.A_PASS)  # no purchase
    while top_frame(g)[0] != L.FT_FULFILL:
        g.step(L.A_PASS if L.A_PASS in legal(g) else min(phase_legal(g)))
    g.step(L.A_PASS)  # end Fulfill -> reset
    assert cols(g, 0) == [1, 2, 0, 4, 5]


def test_r17_no_reset_in_round_12():
    g = new_game(2, seed=6)
    set_columns(g, 1, {EP: 0, TR: 1, RD: 3, IV: 4, BO: 5})
    begin_turn(g, 1, chosen=RD, round_=12)
    while not g.is_terminal:
        g.step(L.A_PASS if L.A_PASS in legal(g) else min(phase_legal(g)))
    assert cols(g, 1) == [0, 1, 3, 4, 5]


# ---- R18: game end ---------------------------------------------------------------------------
def _end_keys(g, rows):
    """Lay out each player's R18 keys (score, covered spaces, marker, fossil depot cubes; grid
    empty) and return the winners."""
    lay(g, players={p: Player(score=score, breakthroughs=range(bt), research=marker,
                              depot=[depot, 0, 0, 0, 0, 0, 0], grid=[0] * 7)
                    for p, (score, bt, marker, depot) in enumerate(rows)})
    return [int(x) for x in np.flatnonzero(winners_mask(g.state, g.cards.table))]


def test_r18_most_points_wins_then_breakthroughs_then_marker_then_cubes():
    g = new_game(3)
    assert _end_keys(g, [(10, 0, 0, 0), (12, 0, 0, 0), (11, 5, 5, 50)]) == [1]
    assert _end_keys(g, [(12, 2, 0, 0), (12, 3, 0, 0), (11, 9, 5, 50)]) == [1]
    assert _end_keys(g, [(12, 3, 4, 0), (12, 3, 2, 9), (1, 0, 0, 0)]) == [0]
    assert _end_keys(g, [(12, 3, 2, 5), (12, 3, 2, 6), (1, 0, 0, 0)]) == [1]


def test_r18_tie_after_everything_is_a_shared_win():
    g = new_game(3)
    assert _end_keys(g, [(12, 3, 2, 6), (12, 3, 2, 6), (1, 0, 0, 0)]) == [0, 1]


def test_r18_grid_cubes_count_at_their_depot_value():
    g = new_game(2)
    _end_keys(g, [(5, 0, 0, 0), (5, 0, 0, 0)])
    T = g.cards.table
    lay(g, players={0: Player(grid=[0, 0, 0, 0, 0, 0, 1]),                         # one solar grid cube
                    1: Player(depot=[int(T[L.T_COL_DEPOT + 6]) - 1, 0, 0, 0, 0, 0, 0])})  # fossil: one less
    assert [int(x) for x in np.flatnonzero(winners_mask(g.state, T))] == [0]


# ---- R24: decisions ----------------------------------------------------------------------------
def test_r24_mask_holds_exactly_the_legal_ids():
    rng = np.random.default_rng(11)
    g = Game(n_players=3, seed=11)
    checked = 0
    while not g.is_terminal and checked < 120:
        mask = g.legal_mask().copy()
        assert mask.sum() >= 1
        for a in range(L.N_ACTIONS):
            h = g.copy()
            if mask[a]:
                h.step(a)
            else:
                with pytest.raises(IllegalActionError):
                    h.step(a)
                assert h.same_as(g), "an illegal step must leave the state unchanged"
        g.step(int(rng.choice(np.flatnonzero(mask))))
        checked += 1


def test_r24_illegal_id_raises_value_error_naming_id_and_decision():
    g = Game(n_players=2, seed=0)
    before = g.state.copy()
    with pytest.raises(ValueError, match=r"action 70 .*Plan"):
        g.step(70)
    with pytest.raises(ValueError, match="out of range"):
        g.step(L.N_ACTIONS)
    with pytest.raises(ValueError, match="out of range"):
        g.step(-1)
    with pytest.raises(ValueError, match="integer"):
        g.step(1.5)
    assert np.array_equal(before, g.state)


def test_r24_every_game_ends_within_a_bounded_number_of_decisions():
    from electrify_env.engine.playout import random_games
    for n in (2, 3, 4):
        total = random_games(Game(n).cards.table, np.zeros(L.SC_SIZE, np.int64), n, 1000, 20, 0)
        assert 0 < total < 20 * 20_000


# ---- R25: determinism --------------------------------------------------------------------------
def test_r25_same_seed_and_actions_same_states_observations_masks():
    rng = np.random.default_rng(3)
    a, b = Game(3, seed=42), Game(3, seed=42)
    while not a.is_terminal:
        assert np.array_equal(a.state, b.state)
        assert np.array_equal(a.legal_mask(), b.legal_mask())
        for p in range(3):
            assert np.array_equal(a.observe(p), b.observe(p))
        act = int(rng.choice(a.legal_actions()))
        a.step(act)
        b.step(act)
    assert a.winners() == b.winners()


def test_r25_copy_save_and_load_keep_the_future(tmp_path):
    rng = np.random.default_rng(8)
    g = Game(4, seed=8)
    for _ in range(300):
        g.step(int(rng.choice(g.legal_actions())))
    path = tmp_path / "mid.json"
    g.save(path)
    c = g.copy()
    loaded = Game.load(path)
    assert loaded.same_as(g) and loaded.history == g.history
    while not g.is_terminal:
        act = int(rng.choice(g.legal_actions()))
        for x in (g, c, loaded):
            x.step(act)
    assert c.same_as(g) and loaded.same_as(g)
    replayed = Game.replay(g.history, n_players=4, seed=8)
    assert replayed.same_as(g)


def test_r25_different_seeds_differ():
    assert not Game(2, seed=1).same_as(Game(2, seed=2))


# ---- R26: hidden information ------------------------------------------------------------------
def test_r26_observation_ignores_other_hands_deck_order_and_pending_plan():
    g = Game(n_players=3, seed=9)
    g.step(L.A_PLAN + EP)  # player 0 dialled; player 1 to choose
    obs1 = g.observe(1)
    h = g.copy()
    # swap one card of player 0's hand with the top card of its deck, reverse the deck order
    # and change player 0's secret plan
    hand0 = hand_of(h, 0)
    c0 = hand0[0]
    d = int(h.cards.table[L.T_IND_DECK + c0])
    deck = h.deck(d, reveal=True)
    lay(h, players={0: Player(hand=[deck[0]] + hand0[1:], plan=BO)}, decks={d: ([c0] + deck[1:])[::-1]},
        round=1, pending="plan", current_player=1)
    assert h.deck(d, reveal=True)[-1] == c0 and field(h, 0, L.P_PLAN) == BO
    assert np.array_equal(h.observe(1), obs1)
    assert np.array_equal(h.observe(2), g.observe(2))
    assert not np.array_equal(h.observe(0), g.observe(0)), "a player sees its own hand"
