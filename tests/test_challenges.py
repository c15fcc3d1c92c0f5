"""Solo challenges (R23) through the engine's own check, ``solo.check_challenges``.

``check_challenges`` runs at every decision of a solo game; it reads the common conditions inline
(points, clean tokens, demands fulfilled in the game and in this round) and the others through
``condition_holds``.  Each condition is tested here through ``check_challenges`` itself and through
a real ``Game.step``: one step below its threshold the challenge stays open; at the threshold it
is met and claims the leftmost star, once.  The count of demands fulfilled this round is followed
over two rounds of play.

Positions: a fresh solo game (round 0, the optional sector swap pending: sectors in columns 0-4,
side A, no card on any sector, no grid cube, no breakthrough, 0 points) whose scenario is
replaced by the challenges under test and two stars, above rounds 5 and 8.  Each set-up below
changes only the fields its condition reads.
"""
import numpy as np
import pytest

from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.engine.setup import init_state
from electrify_env.engine.solo import check_challenges, init_solo

EP, TR, RD, IV, BO = range(5)
PB = L.S_PLAYERS                       # the solo player's block
OPEN, CLAIMED = [0, 0], [1, 0]


def solo_game(challenges, star_rounds=(8, 5), seed=0):
    """A fresh solo game whose scenario has these challenges [(CH_*, a, b)] and stars."""
    g = Game(scenario="first_light", seed=seed)
    SC = np.zeros(L.SC_SIZE, dtype=np.int64)
    SC[L.SC_TARGET] = 20
    SC[L.SC_NSTARS] = len(star_rounds)
    SC[L.SC_STAR_ROUND:L.SC_STAR_ROUND + len(star_rounds)] = star_rounds
    SC[L.SC_STAR_POINTS:L.SC_STAR_POINTS + len(star_rounds) + 1] = range(0, 3 * len(star_rounds) + 1, 3)
    SC[L.SC_NCH] = len(challenges)
    for c, (cond, a, b) in enumerate(challenges):
        SC[L.SC_CH_COND + c], SC[L.SC_CH_A + c], SC[L.SC_CH_B + c] = cond, a, b
    init_state(g.state, g.cards.table, np.int64(1), np.int64(seed), np.int64(0))
    init_solo(g.state, SC)
    return g


def pending(g):
    """Frame type of the pending decision."""
    return int(g.state[L.S_STACK + (int(g.state[L.S_SP]) - 1) * L.FRAME])


def stars(g):
    """(rounds, states) of the scenario's stars, in round order (0 open, 1 claimed, 2 lost)."""
    n = int(g.state[L.S_SOLO_NSTARS])
    return ([int(x) for x in g.state[L.S_STAR_ROUND:L.S_STAR_ROUND + n]],
            [int(x) for x in g.state[L.S_STAR_STATE:L.S_STAR_STATE + n]])


def met(g):
    """S_CH_MET of each challenge."""
    return [int(x) for x in g.state[L.S_CH_MET:L.S_CH_MET + int(g.state[L.S_SOLO_NCH])]]


def field(g, off):
    """The solo player's field ``off``."""
    return int(g.state[PB + off])


# ---- set-up steps: each returns a function of the game -----------------------------------------
def put(off, value):
    """Field ``off`` of the solo player holds ``value``."""
    return lambda g: g.state.__setitem__(PB + off, value)


def put_first(off, n):
    """The first ``n`` entries of field ``off`` hold 1 (e.g. sectors on side B)."""
    return lambda g: g.state.__setitem__(slice(PB + off, PB + off + n), 1)


def flags(off, *ks):
    """Entries ``ks`` of field ``off`` hold 1 (breakthrough spaces, fulfilled levels)."""
    def f(g):
        for k in ks:
            g.state[PB + off + k] = 1
    return f


def cards_on(s, n):
    """``n`` cards of the hand move onto sector ``s`` (cards stay conserved)."""
    def f(g):
        S = g.state
        h = int(S[PB + L.P_HAND_N])
        assert h >= n
        S[PB + L.P_SEC_CARD + s * L.MAX_SLOTS: PB + L.P_SEC_CARD + s * L.MAX_SLOTS + n] = \
            S[PB + L.P_HAND + h - n: PB + L.P_HAND + h]
        S[PB + L.P_HAND + h - n: PB + L.P_HAND + h] = L.NO_CARD
        S[PB + L.P_HAND_N] = h - n
        S[PB + L.P_SEC_N + s] = n
    return f


def grid(**cubes):
    """Grid cubes by column: ``grid(c2=3)`` puts 3 cubes in column 2."""
    def f(g):
        for name, n in cubes.items():
            g.state[PB + L.P_GRID + int(name[1:])] = n
    return f


def group(gr, but_one=False):
    """Every breakthrough space of group ``gr`` covered (but its last one)."""
    def f(g):
        T = g.cards.table
        ks = [k for k in range(L.N_BT_SPACES) if T[L.T_BT_GROUP + k] == gr]
        flags(L.P_BT, *(ks[:-1] if but_one else ks))(g)
    return f


def column_of_bo(c):
    """Business Operations moves to column ``c`` (>= 5; the others keep columns 0-4 less BO's)."""
    def f(g):
        S = g.state
        S[PB + L.P_SEC_COL + BO] = c
    return f


def both(*steps):
    """Several set-up steps."""
    def f(g):
        for s in steps:
            s(g)
    return f


# (condition, a, b, set-up one step short of the threshold, set-up at the threshold)
CONDITIONS = {
    "points_10": (L.CH_POINTS, 10, 0, put(L.P_SCORE, 9), put(L.P_SCORE, 10)),
    "clean_tokens_2": (L.CH_CLEAN_TOKENS, 2, 0, put(L.P_CLEAN, 1), put(L.P_CLEAN, 2)),
    "fulfilled_3": (L.CH_FULFILLED, 3, 0, put(L.P_NFULFILLED, 2), put(L.P_NFULFILLED, 3)),
    "demands_in_round_2": (L.CH_DEMANDS_IN_ROUND, 2, 0, put(L.P_DEMANDS_ROUND, 1),
                           put(L.P_DEMANDS_ROUND, 2)),
    "cards_on_sector_3": (L.CH_CARDS_ON_SECTOR, 3, 0, cards_on(TR, 2), cards_on(TR, 3)),
    "grid_cubes_3_in_column_4": (L.CH_GRID_CUBES, 3, 4, grid(c4=2, c5=3), grid(c4=3)),
    "grid_cubes_3_in_any_one_column": (L.CH_GRID_CUBES, 3, -1, grid(c2=2, c3=2), grid(c3=3)),
    "group_1_complete": (L.CH_GROUP_COMPLETE, 1, 0, group(1, but_one=True), group(1)),
    "group_1_complete_not_group_0": (L.CH_GROUP_COMPLETE, 1, 0, group(0), group(1)),
    "any_group_complete": (L.CH_GROUP_COMPLETE, -1, 0, group(4, but_one=True), group(4)),
    "sector_in_column_6": (L.CH_SECTOR_IN_COLUMN, 6, 0, column_of_bo(5), column_of_bo(6)),
    "side_b_2": (L.CH_SIDE_B, 2, 0, put_first(L.P_SEC_SIDE, 1), put_first(L.P_SEC_SIDE, 2)),
    "breakthroughs_3": (L.CH_BREAKTHROUGHS, 3, 0, flags(L.P_BT, 0, 3), flags(L.P_BT, 0, 3, 6)),
    "level_v_fulfilled": (L.CH_LEVEL_FULFILLED, 4, 0, flags(L.P_FULFILLED, 3, 5),
                          flags(L.P_FULFILLED, 4)),
}


def test_r23_every_condition_of_the_vocabulary_is_tested():
    assert {c[0] for c in CONDITIONS.values()} == set(range(1, L.N_CH_CODES))


def test_r23_the_fresh_position_meets_no_condition():
    for name, (cond, a, b, _, _) in CONDITIONS.items():
        g = solo_game([(cond, a, b)])
        check_challenges(g.state, g.cards.table)
        assert met(g) == [0] and stars(g) == ([5, 8], OPEN), name


@pytest.mark.parametrize("name", CONDITIONS)
def test_r23_check_challenges_meets_each_condition_at_its_threshold_not_below(name):
    """One step below the threshold the challenge stays open; at it, ``check_challenges`` marks
    it met and claims the leftmost star; a second check claims nothing more."""
    cond, a, b, below, at = CONDITIONS[name]
    g = solo_game([(cond, a, b)])
    S, T = g.state, g.cards.table
    below(g)
    check_challenges(S, T)
    assert met(g) == [0] and stars(g)[1] == OPEN, f"{name}: met one step early"
    at(g)
    check_challenges(S, T)
    assert met(g) == [1] and stars(g)[1] == CLAIMED, f"{name}: not met at the threshold"
    check_challenges(S, T)
    assert stars(g)[1] == CLAIMED, f"{name}: met twice"


@pytest.mark.parametrize("name", CONDITIONS)
def test_r23_a_step_checks_each_condition(name):
    """The same through ``Game.step``: declining the sector swap is a decision, after which the
    engine checks the challenges."""
    cond, a, b, below, at = CONDITIONS[name]
    g = solo_game([(cond, a, b)])
    below(g)
    g.step(L.A_PASS)
    assert pending(g) == L.FT_PLAN
    assert met(g) == [0] and stars(g)[1] == OPEN, f"{name}: met one step early"
    h = solo_game([(cond, a, b)])
    both(below, at)(h)
    h.step(L.A_PASS)
    assert met(h) == [1] and stars(h)[1] == CLAIMED, f"{name}: not met at the threshold"


def test_r23_two_challenges_met_at_one_decision_claim_two_stars_in_order():
    """ challenges: 10 points; 2 clean tokens; 3 demands fulfilled.  Stars above rounds 5, 8
        and 11.  Points and clean tokens reach their thresholds together (2 demands only): the
        stars of rounds 5 and 8 are claimed, the third challenge stays open. """
    g = solo_game([(L.CH_POINTS, 10, 0), (L.CH_CLEAN_TOKENS, 2, 0), (L.CH_FULFILLED, 3, 0)],
                  star_rounds=(11, 8, 5))
    both(put(L.P_SCORE, 10), put(L.P_CLEAN, 2), put(L.P_NFULFILLED, 2))(g)
    g.step(L.A_PASS)
    assert met(g) == [1, 1, 0] and stars(g) == ([5, 8, 11], [1, 1, 0])


def _play_to_fulfill(g):
    """Take the lowest phase action (declining where the pending decision allows) until the
    Fulfill step is pending; returns the actions taken."""
    taken = []
    while pending(g) != L.FT_FULFILL:
        legal = [int(a) for a in g.legal_actions() if not L.A_DISCARD <= a < L.A_DONATE + L.N_COLS]
        a = L.A_PASS if L.A_PASS in legal else min(legal)
        g.step(a)
        taken.append(a)
    return taken


def _fulfil(g, level):
    """Fulfil the demand card of ``level`` and decline its rewards."""
    g.step(L.A_FULFILL + level)
    while pending(g) == L.FT_REWARD:
        g.step(L.A_PASS)


def test_r23_demands_in_one_round_count_that_round_only():
    """ challenge: 3 demand cards fulfilled in one round.  The grid holds every cube that the
        demand cards of levels I-V ask for; every reward is declined.
        round 1: fulfil I and II            -> 2 this round: open
        round 2: fulfil III                 -> 1 this round (the count starts again): open
                 fulfil IV, then V          -> 2: open; 3: met, the round-5 star is claimed """
    g = solo_game([(L.CH_DEMANDS_IN_ROUND, 3, 0)])
    S, T = g.state, g.cards.table
    for lv in range(5):
        d = int(S[L.S_DEMAND + lv])
        for j in range(L.MAX_REQ):
            c = int(T[L.T_D_REQ_COL + d * L.MAX_REQ + j])
            if c >= 0:
                S[PB + L.P_GRID + c] += T[L.T_D_REQ_N + d * L.MAX_REQ + j]
    _play_to_fulfill(g)
    assert g.round == 1
    for lv in (0, 1):
        _fulfil(g, lv)
    assert field(g, L.P_DEMANDS_ROUND) == 2 and met(g) == [0]
    g.step(L.A_PASS)                     # end Fulfill: the round ends
    _play_to_fulfill(g)
    assert g.round == 2 and field(g, L.P_DEMANDS_ROUND) == 0
    _fulfil(g, 2)
    assert field(g, L.P_DEMANDS_ROUND) == 1 and field(g, L.P_NFULFILLED) == 3
    assert met(g) == [0] and stars(g)[1] == OPEN
    _fulfil(g, 3)
    assert met(g) == [0] and stars(g)[1] == OPEN
    _fulfil(g, 4)
    assert met(g) == [1] and stars(g) == ([5, 8], CLAIMED)
