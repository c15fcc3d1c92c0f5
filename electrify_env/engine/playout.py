"""Random play entirely inside numba: the benchmark's inner loop and the search agents' rollouts."""
import numpy as np
from numba import njit

from .layout import N_ACTIONS, S_SIZE, S_TERMINAL
from .masks import fill_mask
from .rng import rng_below
from .setup import init_state
from .step import apply_action

MAX_DECISIONS = 200_000  # far above any real game; a game that reaches it is a bug (R24)


@njit(cache=True)
def pick_random(S, mask, n):
    """A uniform legal id from ``mask`` holding ``n`` legal ids, drawn with the state's generator."""
    r = rng_below(S, n)
    for a in range(mask.shape[0]):
        if mask[a]:
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
def random_games(T, n_players, seed0, n_games, options):
    """Play ``n_games`` seeded random games; return the total number of decisions."""
    S = np.zeros(S_SIZE, dtype=np.int64)
    mask = np.zeros(N_ACTIONS, dtype=np.uint8)
    total = 0
    for g in range(n_games):
        init_state(S, T, n_players, seed0 + g, options)
        total += random_playout(S, T, mask)
    return total
