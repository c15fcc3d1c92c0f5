"""Random play entirely inside numba: the benchmark's inner loop and the search agents' rollouts."""
import numpy as np
from numba import njit

from ..common.engine.legal import pick_legal
from ..common.engine.rng import rng_below
from .layout import A_DISCARD, A_DISCARD_MULT, N_ACTIONS, S_SIZE, S_TERMINAL, S_RNG
from .masks import fill_mask
from .setup import init_state
from .solo import init_solo
from .step import apply_action

MAX_DECISIONS = 200_000  # far above any real game; a game that reaches it is a bug (R24)


@njit(cache=True)
def pick_random(S, mask, n):
    """A uniform legal id from ``mask`` holding ``n`` legal ids, drawn with the state's generator."""
    return pick_legal(mask, rng_below(S, S_RNG, n))


@njit(cache=True)
def pick_phase_first(S, mask, n):
    """A legal id drawn with the state's generator, preferring (7 times in 8) the actions of the
    pending decision over the any-time discards and donations of R13, so random games get deep
    into the rules instead of throwing their hands away."""
    if rng_below(S, S_RNG, 8) == 0:
        return pick_random(S, mask, n)
    m = 0
    for a in range(A_DISCARD):
        m += mask[a]
    for a in range(A_DISCARD_MULT, mask.shape[0]):
        m += mask[a]
    if m == 0:
        return pick_random(S, mask, n)
    r = rng_below(S, S_RNG, m)
    for a in range(mask.shape[0]):
        if mask[a] and (a < A_DISCARD or a >= A_DISCARD_MULT):
            if r == 0:
                return a
            r -= 1
    return -1


@njit(cache=True)
def random_playout(S, T, mask):
    """Play the game in ``S`` to the end with uniform random legal actions; return the number of
    decisions made (or -1 if the decision bound was hit)."""
    k = 0
    while S[S_TERMINAL] == 0:
        n = fill_mask(S, T, mask)
        if n == 0 or k >= MAX_DECISIONS:
            return -1
        apply_action(S, T, pick_random(S, mask, n))
        k += 1
    return k


@njit(cache=True)
def new_game(S, T, SC, n_players, seed, options):
    """Set up a game in ``S``: with one player, the solo scenario ``SC`` is laid out too."""
    init_state(S, T, n_players, seed, options)
    if n_players == 1:
        init_solo(S, SC)


@njit(cache=True)
def random_games(T, SC, n_players, seed0, n_games, options):
    """Play ``n_games`` seeded random games (solo on scenario ``SC`` when ``n_players == 1``;
    ``SC`` is ignored otherwise); return the total number of decisions."""
    S = np.zeros(S_SIZE, dtype=np.int64)
    mask = np.zeros(N_ACTIONS, dtype=np.uint8)
    total = 0
    for g in range(n_games):
        new_game(S, T, SC, n_players, seed0 + g, options)
        total += random_playout(S, T, mask)
    return total
