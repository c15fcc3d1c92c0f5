"""Afterstates: what the mover would observe after each of some candidate actions.

:func:`afterstate_observations` samples one determinization of the mover's scrubbed information
set (:func:`.infoset.determinize`, R26: hidden cards drawn, nothing read that the seat cannot
know), applies each candidate action to its own copy of that sample and writes the mover's
observation of the result (:func:`.observe.observe`).  Used by a policy's afterstate critic
(:class:`electrify_env.agents.net.AfterstateCritic`, trained by :mod:`electrify_env.training.acquire_critic`);
:func:`mover_afterstate_observations` does the same for the movers of many engine states at once
(:mod:`electrify_env.training.distill` labels with a teacher's critic).
"""
import numpy as np
from numba import njit

from ..engine.infoset import determinize, scrub
from ..engine.layout import S_CUR, S_SIZE
from ..engine.observe import OBS_SIZE, observe
from ..engine.step import apply_action


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


@njit(cache=True)
def mover_afterstate_observations(States, T, FF, rows, cands, n_cands, seeds, n_in, out):
    """For each ``j``: :func:`afterstate_observations` of the player to move in ``States[rows[j]]``
    (an engine state, scrubbed here to that player's information set first), candidates
    ``cands[j, :n_cands[j]]``, determinization seed ``seeds[j]``, into ``out[j]`` (float32,
    ``(len(rows), K, >= n_in)``; entries past ``n_cands[j]`` are left as they are)."""
    info = np.empty(S_SIZE, np.int64)
    det = np.empty(S_SIZE, np.int64)
    work = np.empty(S_SIZE, np.int64)
    row = np.zeros(OBS_SIZE, np.float32)
    for j in range(rows.shape[0]):
        S = States[rows[j]]
        p = S[S_CUR]
        scrub(S, T, p, info)
        afterstate_observations(info, T, FF, p, seeds[j], cands[j], n_cands[j], n_in, det, work, row, out[j])
