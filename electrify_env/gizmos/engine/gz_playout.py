"""Random play inside numba (benchmarks, fuzzing): uniformly random legal actions to the end."""
import numpy as np
from numba import njit

from ...common.engine.legal import pick_legal
from ...common.engine.rng import rng_below, rng_seed
from .gz_layout import N_ACTIONS, S_SIZE, S_TERMINAL, W_SIZE, RNG_SALTS, S_RNG
from .gz_masks import fill_mask
from .gz_setup import init_state
from .gz_step import apply_action


@njit(cache=True)
def random_games(T, n_players, seed, n_games):
    """Play ``n_games`` games of ``n_players`` with uniformly random legal actions (game g seeded
    ``seed + g``, actions drawn from a separate generator); return the decisions made."""
    S = np.zeros(S_SIZE, dtype=np.int64)
    R = np.zeros(S_SIZE, dtype=np.int64)     # the policy's generator lives in a second state
    rng_seed(R, S_RNG, seed ^ 0x5DEECE66D, RNG_SALTS)
    mask = np.zeros(N_ACTIONS, dtype=np.uint8)
    W = np.zeros(W_SIZE, dtype=np.int64)
    total = 0
    for g in range(n_games):
        init_state(S, T, n_players, seed + g)
        while S[S_TERMINAL] == 0:
            n = fill_mask(S, T, mask, W)
            apply_action(S, T, pick_legal(mask, rng_below(R, S_RNG, n)))
            total += 1
    return total
