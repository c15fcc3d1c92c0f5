"""The game-blind Gumbel search (electrify_env.agents.search) and the determinization entry
point it plays through (``Game.determinized`` of each registered game)."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.games import get_game
from electrify_env.validation import InvalidArgumentError


def _played(game_name: str, n_players: int, seed: int, moves: int):
    """A game of ``game_name`` after ``moves`` random legal actions."""
    g = get_game(game_name).new_game(n_players=n_players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if g.is_terminal:
            break
        legal = g.legal_actions()
        g.step(int(legal[rng.integers(len(legal))]))
    return g


# ---- Game.determinized ---------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
@pytest.mark.parametrize("n_players", [2, 4])
def test_determinized_keeps_the_information_set_and_plays_to_the_end(game_name, n_players):
    g = _played(game_name, n_players, seed=5, moves=40)
    seat = g.current_player
    view = g.seat_view(observation=True, infoset=True)
    d = g.determinized(seat, seed=11)
    assert type(d) is type(g) and d.history == [] and d.seed == 11
    assert d.current_player == seat
    np.testing.assert_array_equal(d.seat_view(observation=False).infoset, view.infoset)
    np.testing.assert_array_equal(d.observe(seat), view.observation)
    np.testing.assert_array_equal(d.legal_mask(), view.mask)
    assert not np.array_equal(d.state, g.state)         # hidden parts dealt anew
    rng = np.random.default_rng(0)
    while not d.is_terminal:
        legal = d.legal_actions()
        d.step(int(legal[rng.integers(len(legal))]))
    assert len(d.scores()) == n_players


@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
def test_determinized_reads_only_the_information_set(game_name):
    g = _played(game_name, 3, seed=8, moves=30)
    seat = g.current_player
    other = g.determinized(seat, seed=99)               # same information set, other hidden parts
    a, b = g.determinized(seat, seed=4), other.determinized(seat, seed=4)
    np.testing.assert_array_equal(a.state, b.state)
    # from a seat view's infoset, on a fresh game of the same kind (its own state unread)
    fresh = get_game(game_name).new_game(n_players=3, seed=1234)
    c = fresh.determinized(seat, seed=4, infoset=g.seat_view(observation=False).infoset)
    np.testing.assert_array_equal(c.state, a.state)
    assert not np.array_equal(g.determinized(seat, seed=5).state, a.state)


@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
def test_determinized_refuses_bad_input(game_name):
    g = _played(game_name, 2, seed=3, moves=5)
    with pytest.raises(InvalidArgumentError, match="seat must be"):
        g.determinized(2, seed=0)
    with pytest.raises(InvalidArgumentError, match="seed"):
        g.determinized(0, seed=-1)
    with pytest.raises(InvalidArgumentError, match="infoset must be"):
        g.determinized(0, seed=0, infoset=np.zeros(3, dtype=np.int64))
    four = get_game(game_name).new_game(n_players=4, seed=0)
    with pytest.raises(InvalidArgumentError, match="4-player game"):
        g.determinized(0, seed=0, infoset=four.seat_view(observation=False).infoset)
