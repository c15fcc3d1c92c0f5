"""Afterstates: what the mover would observe after each of some candidate actions.

:func:`afterstate_observations` samples one determinization of the mover's scrubbed information
set (:func:`.infoset.determinize`, R26: hidden cards drawn, nothing read that the seat cannot
know), applies each candidate action to its own copy of that sample and writes the mover's
observation of the result (:func:`.observe.observe`).  Used by a policy's afterstate critic
(:class:`training.net.AfterstateCritic`, trained by :mod:`training.acquire_critic`) and by
``benchmarks/afterstate_imitation.py``.
"""
import numpy as np
from numba import njit

from .infoset import determinize
from .observe import observe
from .step import apply_action


@njit(cache=True)
def afterstate_observations(P, T, FF, p, seed, cands, n_cands, n_in, det, work, row, out):
    """Fill ``out[j, :n_in]`` with seat ``p``'s observation prefix after action ``cands[j]``
    (``j < n_cands``), each applied to a copy of the same determinization (seed ``seed``) of
    ``P``, seat ``p``'s scrubbed view (:func:`.infoset.scrub`).  ``det`` / ``work`` (int64,
    ``S_SIZE``) and ``row`` (float32, ``OBS_SIZE``) are work space; ``FF`` is the card set's
    face-feature table (:func:`.observe.face_features`).  The candidates must be legal in ``P``."""
    determinize(P, T, p, seed, det)
    for j in range(n_cands):
        work[:] = det
        apply_action(work, T, cands[j])
        observe(work, T, FF, p, row)
        for i in range(n_in):
            out[j, i] = row[i]
