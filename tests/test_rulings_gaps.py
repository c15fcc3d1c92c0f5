"""Rulings whose tests planted rule bugs showed to be missing: the full order of the R18
tie-breaks (a swap of breakthroughs and marker passed every other ruling test).  The solo
challenges (R23) are in test_challenges.py.

Positions are written straight into a fresh game's state: only the four R18 keys of each player
(points, breakthrough spaces covered, research marker, cube value) are set; the grid is empty and
the depot holds fossil cubes only, so the cube value is the count of depot cubes times the
fossil column's value.
"""
import numpy as np
import pytest

from electrify_env import Game
from electrify_env.engine import layout as L

KEYS = ("points", "breakthroughs", "marker", "cubes")


def end_position(rows, n_players=None):
    """A game whose players hold the R18 keys ``rows`` [(points, breakthroughs, marker, fossil
    depot cubes)]."""
    g = Game(n_players=n_players or len(rows), seed=0)
    for p, (points, bt, marker, cubes) in enumerate(rows):
        b = L.S_PLAYERS + p * L.P_SIZE
        g.state[b + L.P_SCORE] = points
        g.state[b + L.P_BT:b + L.P_BT + L.N_BT_SPACES] = 0
        g.state[b + L.P_BT:b + L.P_BT + bt] = 1
        g.state[b + L.P_RESEARCH] = marker
        g.state[b + L.P_DEPOT:b + L.P_DEPOT + L.N_COLS] = 0
        g.state[b + L.P_GRID:b + L.P_GRID + L.N_COLS] = 0
        g.state[b + L.P_DEPOT] = cubes
    return g


def _rows_where(decisive):
    """Two players equal on every key before ``decisive``; player A is ahead on it and behind on
    every later key (so a later key must not decide)."""
    base = [12, 3, 2, 5]
    a, b = list(base), list(base)
    a[decisive] += 1
    for j in range(decisive + 1, len(KEYS)):
        b[j] += 2
    return tuple(a), tuple(b)


@pytest.mark.parametrize("decisive", range(len(KEYS)), ids=KEYS)
def test_r18_each_tie_break_decides_before_every_later_one(decisive):
    """ A and B tie on the keys before ``decisive``; A leads on it, B on every later key:
        A wins, in either seat and beside a third player far behind. """
    a, b = _rows_where(decisive)
    fossil = int(Game(2).cards.table[L.T_COL_DEPOT + 0])
    for rows, winner in (([a, b], 0), ([b, a], 1), ([b, (1, 0, 0, 0), a], 2)):
        g = end_position(rows)
        assert g.winners() == [winner], (KEYS[decisive], rows)
        keys = g.tiebreak_keys()
        assert keys[winner].tolist() == [a[0], a[1], a[2], a[3] * fossil]


def test_r18_breakthroughs_before_marker_example():
    """ p0: 12 points, 3 breakthrough spaces, marker 1
        p1: 12 points, 2 breakthrough spaces, marker 5   -> p0 wins (the marker alone: p1) """
    g = end_position([(12, 3, 1, 0), (12, 2, 5, 0)])
    assert g.winners() == [0]
    g = end_position([(12, 2, 5, 0), (12, 3, 1, 0)])
    assert g.winners() == [1]


def test_r18_equal_keys_share_the_win_and_only_those():
    g = end_position([(12, 3, 2, 6), (1, 0, 0, 0), (12, 3, 2, 6), (12, 3, 2, 5)])
    assert g.winners() == [0, 2]
    keys = g.tiebreak_keys()
    assert np.array_equal(keys[0], keys[2]) and not np.array_equal(keys[0], keys[3])
