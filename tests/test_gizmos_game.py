"""The Python Game's hot path and its pickling: the cached legal mask gives the same games as
computing the mask afresh at every call (``fill_mask`` + ``step_checked``), a write into the state
array from outside never leaves a stale mask, and a pickle or copy holds the game, not its work
buffer."""
from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

from electrify_env.gizmos import Game
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.engine.gz_energy import pbase
from electrify_env.gizmos.engine.gz_masks import fill_mask
from electrify_env.gizmos.engine.gz_pay import new_work
from electrify_env.gizmos.engine.gz_step import step_checked
from electrify_env.gizmos.position import Player, Position
from electrify_env.validation import IllegalActionError


def plain_mask(S, T, W) -> np.ndarray:
    """The legal mask of ``S`` computed afresh (no cache)."""
    m = np.zeros(L.N_ACTIONS, dtype=np.uint8)
    fill_mask(S, T, m, W)
    return m


@pytest.mark.parametrize("n_players,seed", [(2, 11), (2, 12), (3, 13), (4, 14)])
def test_cached_path_plays_the_same_games_as_the_plain_path(n_players, seed):
    g = Game(n_players=n_players, seed=seed)
    T = g.cards.table
    S = g.state.copy()                  # the plain path's own state, stepped by step_checked
    W, scratch = new_work(), np.zeros(L.N_ACTIONS, dtype=np.uint8)
    rng = np.random.default_rng(seed)
    refused = 0
    while not g.done:
        want = plain_mask(S, T, W)
        legal = g.legal_actions()
        assert legal.dtype == np.int64
        assert legal.tolist() == np.flatnonzero(want).tolist()
        assert np.array_equal(g.legal_mask(), want)
        illegal = np.flatnonzero(want == 0)
        if len(illegal) and rng.random() < 0.3:      # an illegal id is refused, nothing changes
            bad = int(illegal[rng.integers(len(illegal))])
            before = g.state.copy()
            with pytest.raises(IllegalActionError, match=f"action {bad} is not legal"):
                g.step(bad)
            assert np.array_equal(g.state, before)
            assert step_checked(S, T, np.int64(bad), scratch, W) == -1
            refused += 1
        a = int(legal[rng.integers(len(legal))])
        g.step(np.int64(a) if rng.random() < 0.5 else a)
        assert step_checked(S, T, np.int64(a), scratch, W) == 0
        assert np.array_equal(g.state, S)
    assert refused > 0 and len(g.history) == int(S[L.S_DECISIONS])
    assert g.legal_actions().tolist() == [] and not g.legal_mask().any()
    with pytest.raises(IllegalActionError, match="the game is over"):
        g.step(0)
    replay = Game(n_players=n_players, seed=seed)
    for a in g.history:
        replay.step(a)
    assert np.array_equal(replay.state, g.state)
    assert replay.scores().tolist() == g.scores().tolist() and replay.ranks().tolist() == g.ranks().tolist()


def test_a_write_into_the_state_array_is_seen_by_the_next_mask_and_step():
    g = Game(2, seed=5)
    pb = pbase(g.current_player)
    picks = [a for a in g.legal_actions().tolist() if L.A_PICK <= a < L.A_BUILD]
    assert picks                                     # the row offers marbles at the start
    held = g.state                                   # a reference kept across the calls
    g.legal_mask()
    held[pb + L.P_LIM_STORE] = 0                     # no storage room: no Pick is legal any more
    want = plain_mask(g.state, g.cards.table, new_work())
    assert np.array_equal(g.legal_mask(), want)
    assert not any(want[a] for a in picks)
    g.legal_actions()
    held[pb + L.P_LIM_STORE] = 5
    before = g.state.copy()
    g.state[pb + L.P_LIM_STORE] = 0                  # written between legal_actions and step
    before[pb + L.P_LIM_STORE] = 0
    with pytest.raises(IllegalActionError, match="not legal"):
        g.step(picks[0])
    assert np.array_equal(g.state, before) and g.history == []


def test_whole_state_replacement_reset_and_card_set_change_refresh_the_mask():
    g, other = Game(2, seed=1), Game(2, seed=2)
    for _ in range(5):
        other.step(int(other.legal_actions()[-1]))
    g.legal_mask()
    g.state[:] = other.state
    assert g.legal_actions().tolist() == other.legal_actions().tolist()
    g.state = other.state.copy()
    assert g.legal_actions().tolist() == other.legal_actions().tolist()
    g.step(int(g.legal_actions()[0]))
    g.reset(1)
    assert g.legal_actions().tolist() == Game(2, seed=1).legal_actions().tolist()
    with pytest.raises(ValueError, match="C-contiguous int64"):
        g.state = np.zeros(L.S_SIZE, dtype=np.int32)


def test_a_position_is_built_with_a_fresh_mask():
    for _ in range(2):                               # the second build reuses nothing stale
        g = Position(players={0: Player(storage={"red": 5}, archive=["L1-10"])},
                     decks={1: [], 2: [], 3: []},
                     display={1: ["L1-11", "L1-12", "L1-13", "L1-14"], 2: ["L2-10", "L2-11", "L2-12"],
                              3: ["L3-09", "L3-10"]}).build()
        assert g.legal_actions().tolist() == [L.A_PASS]
        assert np.array_equal(g.legal_mask(), plain_mask(g.state, g.cards.table, new_work()))


def test_the_mask_returned_is_read_only_and_copies_keep_their_own():
    g = Game(3, seed=4)
    m = g.legal_mask()
    with pytest.raises(ValueError):
        m[0] = 1
    h = g.copy()
    a = int(g.legal_actions()[0])
    g.step(a)
    assert np.array_equal(h.legal_mask(), plain_mask(h.state, h.cards.table, new_work()))
    assert not np.array_equal(h.state, g.state)
    h.step(a)
    assert np.array_equal(h.state, g.state) and h.history == g.history == [a]


def _played(n_players: int = 3, seed: int = 9, steps: int = 25) -> Game:
    g = Game(n_players=n_players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        legal = g.legal_actions()
        g.step(int(legal[rng.integers(len(legal))]))
    return g


def _same_future(a: Game, b: Game, seed: int = 3) -> None:
    rng = np.random.default_rng(seed)
    while not a.done:
        legal = a.legal_actions()
        assert b.legal_actions().tolist() == legal.tolist()
        x = int(legal[rng.integers(len(legal))])
        a.step(x)
        b.step(x)
        assert np.array_equal(a.state, b.state)
    assert b.done and a.scores().tolist() == b.scores().tolist() and a.history == b.history


@pytest.mark.parametrize("how", ["pickle", "deepcopy"])
def test_pickle_and_deepcopy_hold_the_game_not_the_work_buffer(how):
    g = _played()
    g.legal_mask()
    blob = pickle.dumps(g)
    assert len(blob) < 200_000 < new_work().nbytes   # the 1.9 MB work buffer is not in it
    h = pickle.loads(blob) if how == "pickle" else copy.deepcopy(g)
    assert (h.n_players, h.seed, h.history) == (g.n_players, g.seed, g.history)
    assert np.array_equal(h.state, g.state) and h.state is not g.state
    assert h.cards.hash == g.cards.hash and h.cards.ids == g.cards.ids
    assert not h.cards.table.flags.writeable and np.array_equal(h.cards.table, g.cards.table)
    assert h._work is not g._work and not h._work.any()
    assert not g.cards.table.flags.writeable
    assert repr(h) == repr(g)
    _same_future(g, h)


def test_shallow_copy_is_an_independent_game():
    g = _played(2, seed=21, steps=10)
    h = copy.copy(g)
    assert h.state is not g.state and h.history is not g.history and h.cards is g.cards
    _same_future(g, h, seed=5)
    again = pickle.loads(pickle.dumps(h))            # a finished game round-trips too
    assert again.done and again.scores().tolist() == h.scores().tolist()
