"""Rulings of solo mode (R20-R23) and of the tech packs (R10 sectors and discard multipliers,
R12 ongoing icon), on explicit positions.  The rulings are stated in docs/rules.md."""
import numpy as np
import pytest

from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.engine.setup import init_state
from electrify_env.engine.solo import condition_holds, init_solo, solo_final_score

from positions import field, legal, pb, phase_legal, set_columns, top_frame
from test_rulings_actions import (
    board, card, develop, dis_card, finish_discharge, hand, hand_cards, hslot, place, research,
    set_demand, to_discharge, transmit,
)

EP, TR, RD, IV, BO = range(5)
P0 = 0


def scenario_table(target=20, bonus=(), random_level=False, stars=(), rplus=(), points=None,
                   challenges=()):
    """A scenario table SC: bonus levels 0..6, stars as rounds (or X of R+X where rplus[i])."""
    SC = np.zeros(L.SC_SIZE, dtype=np.int64)
    SC[L.SC_TARGET] = target
    SC[L.SC_BONUS] = sum(1 << lv for lv in bonus)
    SC[L.SC_BONUS_RANDOM] = int(random_level)
    SC[L.SC_NSTARS] = len(stars)
    for i, r in enumerate(stars):
        SC[L.SC_STAR_ROUND + i] = r
        SC[L.SC_STAR_RPLUS + i] = int(i < len(rplus) and rplus[i])
    points = points if points is not None else list(range(0, 3 * len(stars) + 1, 3))
    SC[L.SC_STAR_POINTS:L.SC_STAR_POINTS + len(points)] = points
    SC[L.SC_NCH] = len(challenges)
    for c, (cond, a, b) in enumerate(challenges):
        SC[L.SC_CH_COND + c] = cond
        SC[L.SC_CH_A + c] = a
        SC[L.SC_CH_B + c] = b
    return SC


def solo(seed=0, **kw):
    """A solo game laid out with ``scenario_table(**kw)``; the swap decision is pending."""
    g = Game(scenario="first_light", seed=seed)
    init_state(g.state, g.cards.table, np.int64(1), np.int64(seed), np.int64(0))
    init_solo(g.state, scenario_table(**kw))
    return g


def solo_board(seed=0, **kw):
    """A solo game at a blank board (test_rulings_actions.board conventions) with the scenario
    of ``scenario_table(**kw)``."""
    g = board(seed=seed, n_players=2)
    S = g.state
    # turn the 2-player position into a solo one: only seat 0 plays
    S[L.S_NPLAYERS] = 1
    from positions import strip_player
    strip_player(g, 1)
    S[pb(1):pb(1) + L.P_SIZE] = 0
    init_solo(S, scenario_table(**kw))
    g.n_players = 1
    return g


def stars(g):
    n = int(g.state[L.S_SOLO_NSTARS])
    return ([int(x) for x in g.state[L.S_STAR_ROUND:L.S_STAR_ROUND + n]],
            [int(x) for x in g.state[L.S_STAR_STATE:L.S_STAR_STATE + n]])


# ==============================================================================================
# R20 solo setup
# ==============================================================================================
def test_r20_bonus_tokens_on_listed_levels_and_one_random_level_not_listed():
    seen = set()
    for seed in range(60):
        g = solo(seed, bonus=(0, 2), random_level=True, stars=(5,))
        r = int(g.state[L.S_SOLO_RLEVEL])
        assert r not in (0, 2) and 0 <= r <= 6
        assert int(g.state[L.S_SOLO_BONUS]) == (1 << 0) | (1 << 2) | (1 << r)
        seen.add(r)
    assert seen == {1, 3, 4, 5, 6}, "R must range over every level not listed"
    g = solo(1, bonus=(3,), stars=(5,))
    assert int(g.state[L.S_SOLO_RLEVEL]) == -1 and int(g.state[L.S_SOLO_BONUS]) == 1 << 3


def test_r20_r_plus_x_example_random_level_iv_puts_the_star_on_round_9():
    """Rulebook: a star on R+5 with the random demand card of level IV sits above round 9."""
    for seed in range(200):
        g = solo(seed, bonus=(0,), random_level=True, stars=(3, 5, 11), rplus=(False, True, False))
        if int(g.state[L.S_SOLO_RLEVEL]) == 3:  # level IV
            break
    else:
        pytest.fail("no seed drew level IV")
    rounds, states = stars(g)
    assert rounds == [3, 9, 11] and states == [0, 0, 0]


def test_r20_stars_with_several_on_one_round_are_kept_in_round_order():
    g = solo(0, stars=(8, 4, 8))
    assert stars(g) == ([4, 8, 8], [0, 0, 0])


def test_r20_five_boost_tokens_on_the_sectors_two_in_the_bag():
    kinds = set()
    for seed in range(40):
        g = solo(seed, stars=(5,))
        toks = field(g, 0, L.P_SOLO_TOKEN, 5)
        assert sorted(toks) == [1, 1, 1, 2, 2]   # 3 innovation, 2 collaboration
        assert [int(x) for x in g.state[L.S_BAG:L.S_BAG + 2]] == [1, 1]
        kinds.add(tuple(toks))
    assert len(kinds) > 3, "tokens are placed at random"


def test_r20_optional_swap_of_two_sectors_is_a_real_decision_tokens_stay():
    g = solo(3, stars=(5,))
    assert top_frame(g)[0] == L.FT_SOLO_SWAP
    assert phase_legal(g) == {L.A_PASS} | {L.A_SOLO_SWAP + k for k in range(10)}
    cols0 = field(g, 0, L.P_SEC_COL, 5)
    toks0 = field(g, 0, L.P_SOLO_TOKEN, 5)
    k = L.SOLO_PAIRS.index((TR, BO))
    assert "Transmission" in g.describe_action(L.A_SOLO_SWAP + k)
    g.step(L.A_SOLO_SWAP + k)
    cols1 = field(g, 0, L.P_SEC_COL, 5)
    assert cols1[TR] == cols0[BO] and cols1[BO] == cols0[TR]
    assert field(g, 0, L.P_SOLO_TOKEN, 5) == toks0
    assert top_frame(g)[0] == L.FT_PLAN
    g2 = solo(3, stars=(5,))
    g2.step(L.A_PASS)
    assert field(g2, 0, L.P_SEC_COL, 5) == cols0 and top_frame(g2)[0] == L.FT_PLAN


def test_r20_solo_needs_a_scenario_and_one_player():
    with pytest.raises(ValueError, match="scenario"):
        Game(n_players=1)
    with pytest.raises(ValueError, match="must be 1"):
        Game(n_players=2, scenario="first_light")
    with pytest.raises(ValueError, match="available|unknown"):
        Game(scenario="no_such_scenario")


# ==============================================================================================
# R21 solo plan
# ==============================================================================================
def test_r21_token_into_bag_draw_one_of_three_gain_it_token_onto_chosen_sector():
    drawn_kinds = set()
    for seed in range(40):
        g = solo(seed, stars=(12,))
        g.step(L.A_PASS)  # no swap
        s = RD
        before_tok = field(g, 0, L.P_SOLO_TOKEN, 5)
        bag = [int(x) for x in g.state[L.S_BAG:L.S_BAG + 2]]
        g.step(L.A_PLAN + s)
        assert g.round == 1
        after_tok = field(g, 0, L.P_SOLO_TOKEN, 5)
        after_bag = [int(x) for x in g.state[L.S_BAG:L.S_BAG + 2]]
        drawn = after_tok[s]
        # the chosen token went in, the drawn one came out: the bag keeps 2 tokens
        expect = list(bag)
        expect[before_tok[s] - 1] += 1
        expect[drawn - 1] -= 1
        assert after_bag == expect and sum(after_bag) == 2
        assert [t for i, t in enumerate(after_tok) if i != s] == [t for i, t in enumerate(before_tok) if i != s]
        boost = L.BOOST_INNOVATION if drawn == L.TOKEN_INNOVATION else L.BOOST_COLLABORATION
        fr = top_frame(g)
        if fr[0] == L.FT_BOOST:
            assert fr[1] == boost
        else:  # an innovation that cannot be made is forgone (R5)
            assert boost == L.BOOST_INNOVATION
        drawn_kinds.add(drawn)
    assert drawn_kinds == {1, 2}


def test_r21_tokens_are_conserved_over_a_whole_game():
    rng = np.random.default_rng(0)
    g = Game(scenario="green_shoots", seed=5)
    while not g.is_terminal:
        toks = field(g, 0, L.P_SOLO_TOKEN, 5) + [1] * int(g.state[L.S_BAG]) + [2] * int(g.state[L.S_BAG + 1])
        assert sorted(toks) == [1, 1, 1, 1, 2, 2, 2]
        g.step(int(rng.choice(g.legal_actions())))


# ==============================================================================================
# R22 stars
# ==============================================================================================
def test_r22_bonus_token_demand_claims_the_leftmost_star_others_do_not():
    """ demand L1 carries a bonus token, L2 does not; stars above rounds 4, 6 and 9 (round 2).
        grid: 2 Fossil (L1 needs 1 Fossil, L2 needs 1 Fossil) """
    g = solo_board(bonus=(0,), stars=(9, 4, 6))
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_POINTS, 1, 0)])
    set_demand(g, 1, [(0, 1)], basic=[(L.RW_POINTS, 1, 0)])
    g.state[pb(0) + L.P_GRID] = 2
    to_discharge(g, chosen=RD, round_=2)
    finish_discharge(g)
    assert top_frame(g)[0] == L.FT_FULFILL
    g.step(L.A_FULFILL + 1)
    assert stars(g)[1] == [0, 0, 0]
    g.step(L.A_PASS)  # decline rewards
    g.step(L.A_FULFILL + 0)
    assert stars(g) == ([4, 6, 9], [1, 0, 0])


def test_r22_a_star_is_lost_when_the_round_marker_reaches_its_round():
    g = solo(0, stars=(2, 3, 5))
    g.step(L.A_PASS)
    g.step(L.A_PLAN + EP)                 # round 1
    assert stars(g)[1] == [0, 0, 0]
    while top_frame(g)[0] != L.FT_PLAN:
        g.step(L.A_PASS if L.A_PASS in legal(g) else min(phase_legal(g)))
    g.step(L.A_PLAN + EP)                 # round 2: the round-2 star is lost at once
    assert g.round == 2 and stars(g)[1] == [2, 0, 0]


def test_r22_claim_with_no_star_left_gains_nothing_and_final_score_uses_the_table():
    g = solo_board(bonus=(0, 1), stars=(9,), points=[0, 7], target=8)
    set_demand(g, 0, [(0, 1)], basic=[(L.RW_POINTS, 1, 0)])
    set_demand(g, 1, [(0, 1)], basic=[(L.RW_POINTS, 1, 0)])
    g.state[pb(0) + L.P_GRID] = 2
    to_discharge(g, chosen=RD, round_=3)
    finish_discharge(g)
    g.step(L.A_FULFILL + 0)
    g.step(L.A_REWARD + 0)
    g.step(L.A_FULFILL + 1)
    g.step(L.A_REWARD + 0)
    assert stars(g)[1] == [1]
    assert int(solo_final_score(g.state)) == 2 + 7
    r = g.solo_result()
    assert r["stars"] == 1 and r["star_points"] == 7 and r["final_score"] == 9 and r["won"]
    g.state[L.S_SOLO_TARGET] = 10
    assert not g.solo_result()["won"]
    g.state[L.S_SOLO_TARGET] = 9
    assert g.solo_result()["won"], "a total at the target wins"


# ==============================================================================================
# R23 challenges
# ==============================================================================================
@pytest.mark.parametrize("cond,a,b,setup,holds", [
    (L.CH_CARDS_ON_SECTOR, 2, 0, lambda g: place(g, TR, [card(), card()]), True),
    (L.CH_CARDS_ON_SECTOR, 3, 0, lambda g: place(g, TR, [card(), card()]), False),
    (L.CH_GRID_CUBES, 3, 4, lambda g: g.state.__setitem__(pb(0) + L.P_GRID + 4, 3), True),
    (L.CH_GRID_CUBES, 3, 5, lambda g: g.state.__setitem__(pb(0) + L.P_GRID + 4, 3), False),
    (L.CH_GRID_CUBES, 3, -1, lambda g: g.state.__setitem__(pb(0) + L.P_GRID + 2, 3), True),
    (L.CH_DEMANDS_IN_ROUND, 2, 0, lambda g: g.state.__setitem__(pb(0) + L.P_DEMANDS_ROUND, 2), True),
    (L.CH_DEMANDS_IN_ROUND, 2, 0, lambda g: g.state.__setitem__(pb(0) + L.P_DEMANDS_ROUND, 1), False),
    (L.CH_SECTOR_IN_COLUMN, 6, 0, lambda g: set_columns(g, 0, {EP: 0, TR: 1, RD: 2, IV: 3, BO: 6}), True),
    (L.CH_SECTOR_IN_COLUMN, 6, 0, lambda g: None, False),
    (L.CH_SIDE_B, 2, 0, lambda g: g.state.__setitem__(slice(pb(0) + L.P_SEC_SIDE, pb(0) + L.P_SEC_SIDE + 2), 1), True),
    (L.CH_SIDE_B, 3, 0, lambda g: g.state.__setitem__(slice(pb(0) + L.P_SEC_SIDE, pb(0) + L.P_SEC_SIDE + 2), 1), False),
    (L.CH_CLEAN_TOKENS, 2, 0, lambda g: g.state.__setitem__(pb(0) + L.P_CLEAN, 2), True),
    (L.CH_FULFILLED, 3, 0, lambda g: g.state.__setitem__(pb(0) + L.P_NFULFILLED, 2), False),
    (L.CH_BREAKTHROUGHS, 2, 0, lambda g: g.state.__setitem__(slice(pb(0) + L.P_BT, pb(0) + L.P_BT + 2), 1), True),
    (L.CH_LEVEL_FULFILLED, 6, 0, lambda g: g.state.__setitem__(pb(0) + L.P_FULFILLED + 6, 1), True),
    (L.CH_LEVEL_FULFILLED, 5, 0, lambda g: g.state.__setitem__(pb(0) + L.P_FULFILLED + 6, 1), False),
    (L.CH_POINTS, 10, 0, lambda g: g.state.__setitem__(pb(0) + L.P_SCORE, 10), True),
    (L.CH_GROUP_COMPLETE, -1, 0, lambda g: None, False),
])
def test_r23_each_condition_of_the_vocabulary(cond, a, b, setup, holds):
    g = solo_board(stars=(9,))
    setup(g)
    assert bool(condition_holds(g.state, g.cards.table, cond, a, b)) == holds


def test_r23_group_complete_specific_and_any():
    g = solo_board(stars=(9,))
    T = g.cards.table
    grp = [k for k in range(L.N_BT_SPACES) if T[L.T_BT_GROUP + k] == 1]
    for k in grp:
        g.state[pb(0) + L.P_BT + k] = 1
    assert condition_holds(g.state, T, L.CH_GROUP_COMPLETE, 1, 0)
    assert not condition_holds(g.state, T, L.CH_GROUP_COMPLETE, 0, 0)
    assert condition_holds(g.state, T, L.CH_GROUP_COMPLETE, -1, 0)


def test_r23_a_challenge_is_met_once_at_once_and_claims_the_leftmost_star():
    """ challenge: 3 grid cubes of Biofuel; stars above rounds 5 and 8 (round 2).
        Transmitting the third Biofuel cube meets it at once; spending them later does not undo
        it, and meeting it again claims nothing more. """
    g = solo_board(stars=(8, 5), challenges=[(L.CH_GRID_CUBES, 3, 2)])
    place(g, RD, [card(transmit(3))])
    g.state[pb(0) + L.P_DEPOT + 2] = 4
    g.state[pb(0) + L.P_GRID + 2] = 1
    to_discharge(g, chosen=RD, round_=2)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_TRANSMIT + 2)
    assert int(g.state[L.S_CH_MET]) == 0
    g.step(L.A_TRANSMIT + 2)
    assert int(g.state[L.S_CH_MET]) == 1 and stars(g) == ([5, 8], [1, 0])
    g.step(L.A_DONATE + 2)
    g.step(L.A_TRANSMIT + 2)
    assert stars(g) == ([5, 8], [1, 0])


# ==============================================================================================
# R10 tech-pack multipliers
# ==============================================================================================
def test_r10_sectors_multiplier_counts_sector_tiles_to_the_right():
    """ col: 0 EP  1 TR  2 .  3 RD  4 IV  5 .  6 BO ; a develop x sectors card on TR: worth 3
        (RD, IV, BO to the right; the gaps do not count); on BO it would be worth 0. """
    g = board(columns={EP: 0, TR: 1, RD: 3, IV: 4, BO: 6}, depot=[9, 0, 0, 0, 0, 0, 0])
    place(g, TR, [card(develop(mk=L.MULT_SECTORS))])
    place(g, BO, [card(develop(mk=L.MULT_SECTORS))])
    to_discharge(g, chosen=TR)
    g.state[pb(0) + L.P_CARD_CHARGED + BO * L.MAX_SLOTS] = 1
    g.step(dis_card(BO, 0))
    assert L.A_ICON not in legal(g), "a sectors multiplier worth 0 gives nothing"
    g.step(L.A_PASS)
    g.step(dis_card(TR, 0))
    g.step(L.A_ICON + 0)
    assert top_frame(g)[4] == 3


def test_r10_discard_multiplier_pays_hand_cards_without_bonus_zero_allowed():
    """ a research x discard card on RD; hand: 2 production + 1 infrastructure card.
        Discarding 2 cards (no fossil cube, no research from them) gives 2 research uses. """
    g = board()
    place(g, RD, [card(research(mk=L.MULT_DISCARD)), card(research(mk=L.MULT_DISCARD))])
    p1, p2 = hand(g, [card(), card()])
    i1, = hand(g, [card(deck=1)])
    to_discharge(g, chosen=RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    assert top_frame(g)[0] == L.FT_DISCARD_PAY
    assert phase_legal(g) == {L.A_PASS} | {L.A_DISCARD_MULT + h for h in range(3)}
    g.step(L.A_DISCARD_MULT + hslot(g, p1))
    g.step(L.A_DISCARD_MULT + hslot(g, i1))
    assert field(g, 0, L.P_DEPOT) == 0 and field(g, 0, L.P_RESEARCH) == 0  # no discard bonus
    g.step(L.A_PASS)
    assert top_frame(g)[0] == L.FT_ICON and top_frame(g)[4] == 2
    g.step(L.A_RESEARCH)
    g.step(L.A_RESEARCH)
    assert field(g, 0, L.P_RESEARCH) == 2 and hand_cards(g) == [p2]
    # a second discard-multiplier icon with zero cards paid is worth 0
    g.step(dis_card(RD, 0) + 1)
    g.step(L.A_ICON + 0)
    g.step(L.A_PASS)
    assert top_frame(g)[0] != L.FT_ICON
    assert hand_cards(g) == [p2] and field(g, 0, L.P_RESEARCH) == 2


# ==============================================================================================
# R12 ongoing
# ==============================================================================================
def ongoing(left, right):
    return (L.ACT_ONGOING, left, L.MULT_SIMPLE, 1)


def _ongoing_card(g, s, left, right):
    c, = place(g, s, [card(ongoing(left, right))])
    g.cards.table[L.T_F_ICON_ARG2 + c * L.MAX_ICONS] = right
    return c


def test_r12_ongoing_follow_up_as_many_times_while_the_card_is_charged():
    """ RD (chosen): [develop x3] [ongoing develop -> transmit] ; depot 3 Fossil.
        Developing twice then stopping offers up to 2 transmits; discharging the ongoing card
        itself does nothing. """
    g = board(depot=[3, 0, 0, 0, 0, 0, 0])
    place(g, RD, [card(develop(3))])
    _ongoing_card(g, RD, L.ACT_DEVELOP, L.ACT_TRANSMIT)
    to_discharge(g, chosen=RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_DEVELOP + 0)
    g.step(L.A_DEVELOP + 1)
    g.step(L.A_PASS)
    assert top_frame(g)[0] == L.FT_ONGOING and top_frame(g)[4] == 2
    assert phase_legal(g) == {L.A_PASS, L.A_ONGOING}
    g.step(L.A_ONGOING)
    assert top_frame(g)[0] == L.FT_ICON and top_frame(g)[4] == 2
    assert L.A_TRANSMIT + 2 in legal(g)
    g.step(L.A_TRANSMIT + 2)
    g.step(L.A_TRANSMIT + 0)
    assert field(g, 0, L.P_GRID, 7)[:3] == [1, 0, 1]
    # the ongoing card: discharging it gives nothing
    g.step(dis_card(RD, 1))
    assert top_frame(g)[0] != L.FT_ITEM or L.A_ICON not in legal(g)


def test_r12_no_follow_up_once_the_ongoing_card_is_discharged_or_declined():
    g = board(depot=[3, 0, 0, 0, 0, 0, 0])
    place(g, RD, [card(develop(1)), card(develop(1))])
    _ongoing_card(g, RD, L.ACT_DEVELOP, L.ACT_RESEARCH)
    to_discharge(g, chosen=RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_DEVELOP + 0)                 # one use: the icon ends at once
    assert top_frame(g)[0] == L.FT_ONGOING
    g.step(L.A_PASS)                        # decline
    assert field(g, 0, L.P_RESEARCH) == 0
    g.step(dis_card(RD, 2))                 # discharge the ongoing card: no benefit
    assert top_frame(g)[0] == L.FT_DISCHARGE
    g.step(dis_card(RD, 1))
    g.step(L.A_ICON + 0)
    g.step(L.A_DEVELOP + 0)
    assert top_frame(g)[0] != L.FT_ONGOING


def test_r12_two_ongoing_cards_each_offer_and_follow_ups_do_not_chain():
    """ [transmit x1] [ongoing transmit -> research] [ongoing transmit -> research]
        [ongoing research -> develop]: one transmit offers two research follow-ups; using them
        offers no develop (follow-ups trigger no further follow-ups). """
    g = board(depot=[2, 0, 0, 0, 0, 0, 0])
    place(g, RD, [card(transmit(1))])
    _ongoing_card(g, RD, L.ACT_TRANSMIT, L.ACT_RESEARCH)
    _ongoing_card(g, RD, L.ACT_TRANSMIT, L.ACT_RESEARCH)
    _ongoing_card(g, RD, L.ACT_RESEARCH, L.ACT_DEVELOP)
    to_discharge(g, chosen=RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_TRANSMIT + 0)
    for _ in range(2):
        assert top_frame(g)[0] == L.FT_ONGOING
        g.step(L.A_ONGOING)
        g.step(L.A_RESEARCH)
    assert field(g, 0, L.P_RESEARCH) == 2
    assert top_frame(g)[0] in (L.FT_ITEM, L.FT_DISCHARGE)


def test_r12_research_icon_triggers_ongoing_left_research():
    g = board()
    place(g, RD, [card(research(2))])
    _ongoing_card(g, RD, L.ACT_RESEARCH, L.ACT_DEVELOP)
    g.state[pb(0) + L.P_DEPOT + 3] = 2
    to_discharge(g, chosen=RD)
    g.step(dis_card(RD, 0))
    g.step(L.A_ICON + 0)
    g.step(L.A_RESEARCH)
    g.step(L.A_RESEARCH)
    assert top_frame(g)[0] == L.FT_ONGOING and top_frame(g)[4] == 2
    g.step(L.A_ONGOING)
    g.step(L.A_DEVELOP + 3)
    assert field(g, 0, L.P_DEPOT, 7)[3:5] == [1, 1]
