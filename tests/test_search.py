"""The greedy evaluation (kernels/search.py) of a player must not change when another
player's action ends the round (a seat advantage otherwise).

Why it matters: the last seat's final decision of every round (Fulfill: pass) leads to the Plan
step of the next round, where no one has dialled yet.  The old evaluation took one round of
future charges off every player there, so for the last seat "end the turn" looked worse than any
other action by about W_ENGINE * engine / 5 points, and the greedy dumped its hand (discards) and
its grid (donations to research) before passing, every round.  Measured on the base set, 2
players, 400 games (seed 5): the last seat donated 28.5 grid cubes a game against 18.9 for seat 0
and bought 0.13 hand cards against 1.0; on a card set where research gives few points the last
seat won 42% (2p) and 11% (4p).
"""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.agents.greedy import load_weights
from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.kernels import search as SR


def _top_frame(S: np.ndarray) -> int:
    sp = int(S[L.S_SP])
    return int(S[L.S_STACK + (sp - 1) * L.FRAME]) if sp else L.FT_NONE


def _to_last_fulfill(n: int, seed: int, round_: int) -> Game:
    """Play random legal actions (phase actions first) until the last seat's Fulfill step of
    ``round_`` is pending."""
    game = Game(n_players=n, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.is_terminal:
        S = game.state
        if (S[L.S_ROUND] == round_ and S[L.S_CUR] == n - 1
                and _top_frame(S) == L.FT_FULFILL):
            return game
        legal = game.legal_actions()
        phase = legal[legal < L.A_DISCARD]      # skip the any-time discards and donations
        game.step(int(rng.choice(phase if phase.size else legal)))
    raise AssertionError("the game ended before the last seat's Fulfill step")


@pytest.mark.parametrize("n, seed, round_", [(2, 3, 4), (3, 5, 7), (4, 7, 2)])
def test_evaluation_of_finished_players_unchanged_when_the_round_ends(n, seed, round_):
    """Seats 0..n-2 have finished their turns; the last seat's pass ends the round and opens the
    next Plan step.  Nothing of theirs changes, so neither may their evaluation."""
    game = _to_last_fulfill(n, seed, round_)
    W = load_weights().to_array()
    T = game.cards.table
    tally = np.zeros(SR.N_TALLY, dtype=np.float64)
    scratch = np.zeros(L.S_SIZE, dtype=np.int64)
    before = [SR.evaluate(game.state, T, np.int64(q), W, tally, scratch) for q in range(n - 1)]
    game.step(L.A_PASS)                                   # end Fulfill: turn end, round end
    assert _top_frame(game.state) == L.FT_PLAN and game.state[L.S_ROUND] == round_
    after = [SR.evaluate(game.state, T, np.int64(q), W, tally, scratch) for q in range(n - 1)]
    assert after == pytest.approx(before, abs=1e-9)

