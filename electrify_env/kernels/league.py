"""Jitted stepping for self-play and league training: every seat's decision comes back out.

:mod:`~electrify_env.kernels.batch` steps one agent seat and plays the others inside numba
(random) or leaves them to a Python callable one game at a time.  Self-play needs every seat of
``N`` games decided by batched policies (the learner, past snapshots of it, the greedy bot), so
here a step applies one action per row, whoever is to move, and writes the observation and
legal mask of the *next* player to move in that row (``movers[i]``).  The trainer groups the
rows by the controller of ``movers[i]`` and asks each controller once per step.

Arrays (one row per game, ``N`` rows): ``States`` (N, S_SIZE) int64; ``obs`` (N, OBS_SIZE)
float32 (only the ``obs_size(n_players)`` prefix is written); ``masks`` (N, N_ACTIONS) uint8;
``movers`` (N,) int64; ``seeds`` (N,) int64 the running game's seed; ``scen`` (N,) int64 the
solo scenario row of ``SCS`` (-1 in multi-player games).  When a game ends, ``done[i]`` is 1,
``final_pts[i, q]`` holds seat q's final score (solo: energy points + star points),
``final_won[i, q]`` 1 for the R18 winners (solo: the target was reached), ``final_seed[i]`` the
finished game's seed, ``final_target[i]`` its solo target (0 in multi-player games), and the
row restarts in the same call from a seed drawn from the finished game's generator (as
:func:`~electrify_env.common.engine.rng.next_seed`), so a run is reproducible from its first seeds.

``greedy_actions`` is the ``greedy`` agent batched: for each listed row it scrubs the mover's
information set (R26), samples the hidden part once and picks the one-ply best action, exactly as
:class:`electrify_env.agents.greedy.GreedyAgent` does one game at a time.
"""
import numpy as np
from numba import njit

from ..common.engine.legal import first_illegal
from ..common.engine.rng import MAX_SEED, next_seed, pick_index
from .batch import SALT_SCENARIO, greedy_decision, observe_prefix
from ..engine.layout import (
    MAX_PLAYERS, N_ACTIONS, P_SCORE, S_CUR, S_NPLAYERS, S_RNG, S_SIZE, S_SOLO, S_SOLO_TARGET,
    S_TERMINAL,
)
from ..engine.masks import fill_mask
from ..engine.scoring import winners_mask
from ..engine.infoset import scrub
from .search import N_TALLY, infoset_prior
from ..engine.setup import init_state
from ..engine.solo import init_solo, solo_final_score
from ..engine.stack import pbase
from ..engine.step import apply_action


@njit(cache=True)
def new_game(S, T, SCS, n_players, options, seed, scen_fixed):
    """Set up row ``S`` as a new game from ``seed``; returns the solo scenario row played
    (``scen_fixed``, or drawn from the seed when it is -1), or -1 in a multi-player game."""
    if n_players == 1:
        k = scen_fixed
        if k < 0:
            k = pick_index(seed, SALT_SCENARIO, SCS.shape[0])
        init_state(S, T, 1, seed, options)
        init_solo(S, SCS[k])
        return k
    init_state(S, T, n_players, seed, options)
    return -1


@njit(cache=True)
def write_mover_view(S, T, FF, obs_row, mask_row):
    """Observation and mask of the player to move; returns that seat."""
    p = S[S_CUR]
    observe_prefix(S, T, FF, p, obs_row)
    fill_mask(S, T, mask_row)
    return p


@njit(cache=True)
def league_reset(States, T, SCS, FF, n_players, options, scen_fixed, seeds, scen, obs, masks, movers):
    """Start a game in every row from ``seeds`` and write the first movers' views."""
    for i in range(States.shape[0]):
        scen[i] = new_game(States[i], T, SCS, n_players, options, seeds[i], scen_fixed)
        movers[i] = write_mover_view(States[i], T, FF, obs[i], masks[i])


@njit(cache=True)
def final_points(S, out_row):
    """Final score of each seat (solo: energy points + star points)."""
    n = S[S_NPLAYERS]
    if S[S_SOLO]:
        out_row[0] = solo_final_score(S)
        return
    for q in range(n):
        out_row[q] = S[pbase(q) + P_SCORE]


@njit(cache=True)
def league_step(States, T, SCS, FF, n_players, options, scen_fixed, actions, seeds, scen, obs, masks,
                movers, done, final_pts, final_won, final_seed, final_target):
    """Apply ``actions[i]`` in every row (the move of ``movers[i]``); finished games record their
    outcome and restart; then write the next movers' views.  Returns -1, or the first row whose
    action is illegal, in which case nothing was stepped."""
    bad = first_illegal(actions, masks)
    if bad >= 0:
        return bad
    for i in range(States.shape[0]):
        S = States[i]
        apply_action(S, T, actions[i])
        done[i] = 0
        if S[S_TERMINAL]:
            done[i] = 1
            for q in range(MAX_PLAYERS):
                final_pts[i, q] = 0
                final_won[i, q] = 0
            final_points(S, final_pts[i])
            if n_players == 1:
                final_won[i, 0] = 1 if solo_final_score(S) >= S[S_SOLO_TARGET] else 0
            else:
                w = winners_mask(S, T)
                for q in range(n_players):
                    final_won[i, q] = w[q]
            final_seed[i] = seeds[i]
            final_target[i] = S[S_SOLO_TARGET] if n_players == 1 else 0
            seeds[i] = next_seed(S, S_RNG) & MAX_SEED
            scen[i] = new_game(S, T, SCS, n_players, options, seeds[i], scen_fixed)
        movers[i] = write_mover_view(S, T, FF, obs[i], masks[i])
    return -1


@njit(cache=True)
def points_now(States, out):
    """(N, MAX_PLAYERS) points of every seat now (solo: energy points + star points so far)."""
    for i in range(States.shape[0]):
        final_points(States[i], out[i])


@njit(cache=True)
def observe_seats(States, T, FF, rows, seats, out):
    """``out[j]``: the observation of seat ``seats[j]`` in row ``rows[j]`` (any seat, whether or
    not it is to move; the pending-decision fields are filled only for the mover)."""
    for j in range(rows.shape[0]):
        observe_prefix(States[rows[j]], T, FF, seats[j], out[j])


@njit(cache=True)
def greedy_buffers():
    """Work arrays of one greedy decision: (info, det, work, scratch) engine states, the legal
    mask, the action values and the evaluation tally."""
    return (np.zeros(S_SIZE, dtype=np.int64), np.zeros(S_SIZE, dtype=np.int64),
            np.zeros(S_SIZE, dtype=np.int64), np.zeros(S_SIZE, dtype=np.int64),
            np.zeros(N_ACTIONS, dtype=np.uint8), np.zeros(N_ACTIONS, dtype=np.float64),
            np.zeros(N_TALLY, dtype=np.float64))


@njit(cache=True)
def greedy_actions(States, T, W, rows, draw_seeds, out):
    """``out[j]``: the greedy agent's action for the player to move in row ``rows[j]``, from one
    determinization (seeded by ``draw_seeds[j]``) of that player's scrubbed information set."""
    info, det, work, scratch, mask, vals, tally = greedy_buffers()
    for j in range(rows.shape[0]):
        S = States[rows[j]]
        n = fill_mask(S, T, mask)
        if n == 1:
            for a in range(N_ACTIONS):
                if mask[a]:
                    out[j] = a
                    break
            continue
        out[j] = greedy_decision(S, T, W, mask, draw_seeds[j], info, det, work, scratch, vals, tally)


@njit(cache=True)
def greedy_priors(States, T, W, rows, draw_seeds, out):
    """``out[j]``: :func:`~.search.greedy_prior` for the player to move in row ``rows[j]``, from
    one determinization (seeded by ``draw_seeds[j]``) of that player's scrubbed information set,
    as ``greedy_actions`` decides (all zero for a forced move, without a draw)."""
    info, det, work, scratch, mask, vals, tally = greedy_buffers()
    for j in range(rows.shape[0]):
        S = States[rows[j]]
        if fill_mask(S, T, mask) == 1:
            out[j, :] = 0.0
            continue
        scrub(S, T, S[S_CUR], info)
        infoset_prior(info, T, W, draw_seeds[j], out[j], mask, det, vals, work, tally, scratch)
