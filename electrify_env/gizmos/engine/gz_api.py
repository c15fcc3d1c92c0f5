"""The entry points of the Python :class:`~electrify_env.gizmos.game.Game`: the legal mask kept
with a copy of the state it was computed from, so that a decision's mask is computed once for
``legal_actions`` and ``step`` together, in one jitted call each.

``C`` (int64, length ``C_SIZE``, :func:`new_cache`) holds at ``C[:S_SIZE]`` a copy of the state the
mask ``mask`` belongs to, at ``C[C_VALID]`` 1 while that copy is valid, and from ``C_IDS`` on the
legal ids written by :func:`legal_ids`.  The mask is reused only while the state equals the copy
element by element, so any change of the state -- a step, a reset, a write into the array from
outside -- makes the next call compute it anew: the mask is a function of the state and the card
table alone (:func:`~.gz_masks.fill_mask`), and :func:`step_fresh` checks legality against
exactly that mask.
"""
import numpy as np
from numba import njit

from .gz_layout import N_ACTIONS, S_SIZE
from .gz_masks import fill_mask
from .gz_step import apply_action

#: where the valid flag of the state copy is kept in ``C``
C_VALID = S_SIZE
#: where the legal ids start in ``C``
C_IDS = S_SIZE + 1
#: the length of ``C``
C_SIZE = C_IDS + N_ACTIONS


def new_cache():
    """An empty (invalid) mask cache ``C`` for :func:`fresh_mask`, :func:`legal_ids` and
    :func:`step_fresh`."""
    return np.zeros(C_SIZE, dtype=np.int64)


@njit(cache=True)
def fresh_mask(S, T, mask, W, C):
    """Make ``mask`` the legal mask of ``S``, computing it (with the work buffer ``W``) only
    when ``C`` holds no valid copy of ``S``."""
    diff = C[C_VALID] ^ 1
    if diff == 0:
        for i in range(S_SIZE):         # no early exit: the loop vectorizes
            diff |= S[i] ^ C[i]
    if diff != 0:
        fill_mask(S, T, mask, W)
        for i in range(S_SIZE):
            C[i] = S[i]
        C[C_VALID] = 1


@njit(cache=True)
def legal_ids(S, T, mask, W, C):
    """Write the legal ids of ``S``, ascending, to ``C`` from ``C_IDS`` on and return how many
    there are; ``mask`` as :func:`fresh_mask` leaves it."""
    fresh_mask(S, T, mask, W, C)
    n = 0
    for i in range(N_ACTIONS):
        if mask[i]:
            C[C_IDS + n] = i
            n += 1
    return n


@njit(cache=True)
def step_fresh(S, T, mask, W, C, a):
    """Apply action ``a`` and return 0 if the mask of ``S`` (:func:`fresh_mask`) holds it;
    return -1 with the state unchanged when ``a`` is out of range or not legal."""
    if a < 0 or a >= N_ACTIONS:
        return -1
    fresh_mask(S, T, mask, W, C)
    if mask[a] == 0:
        return -1
    apply_action(S, T, a)
    C[C_VALID] = 0
    return 0
