"""Jitted stepping of environments: one game or many at once, with rewards and autoreset.

The Gymnasium envs (:mod:`electrify_env.envs`) are thin adapters over these functions; the same
code steps one game (``N = 1``, the single envs) or a whole batch (the vector env), so the
single and vector envs cannot drift apart.

Arrays (one row per environment; ``N`` rows):

* ``States`` (N, S_SIZE) int64: the games;
* ``E`` (N, E_SIZE) int64 and ``R`` (N, R_SIZE) float64: per-environment episode records
  (``env_rows()`` documents them), ``FI`` (N, FI_SIZE) int64: facts about the episode that ended
  at the last step (read where ``terms`` is True);
* ``obs`` (N, OBS_SIZE) float32, ``masks`` (N, N_ACTIONS) uint8 (exposed as int8 views),
  ``rewards`` (N,) float64, ``terms`` (N,) bool, ``final_obs`` (N, OBS_SIZE) float32;
* configuration: ``C`` (C_SIZE,) int64 and ``F`` (F_SIZE,) float64 (``env_rows()``);
  ``W`` the greedy opponents' evaluation weights, a read-only (N_WEIGHTS,) float64 array, or
  None when no seat is ``OPP_GREEDY`` (:func:`opponent_weights` gives it);
  ``SCS`` (n_scenarios, SC_SIZE) int64, read-only: the solo scenarios to draw from (a dummy row
  outside solo mode); ``T`` the card table and ``FF`` the face-feature table, both read-only.

Modes: ``MODE_SOLO`` (one player on a scenario) and ``MODE_SEAT`` (one seat of a 2-4 player game).
In seat mode ``C[C_OPP + d]`` says who plays the seat ``d`` places after the agent's
(``d = 1 .. n_players - 1``; entry 0, the agent's own, is ``OPP_NONE``):

=========== ====================================================================================
code        the seat is played by
=========== ====================================================================================
OPP_NONE    the caller, between :func:`apply_action` and :func:`finish_step` (the opponents
            loop stops when such a seat is to move)
OPP_RANDOM  uniform random legal actions inside numba, drawn with the game's generator
OPP_GREEDY  the ``greedy`` agent inside numba, deciding as ``league.greedy_actions``: the
            mover's information set is scrubbed (R26) and determinized once from a seed drawn
            with the game's generator (``rng_next``), then ``search.greedy_pick``
            (``ANYTIME_SOME``) picks with the weights ``W`` (``GreedyWeights.to_array()`` of
            ``electrify_env.agents.greedy``); a forced move draws nothing
=========== ====================================================================================

Every opponent decision draws only from the game's own generator, so a run stays reproducible
from its reset seeds.  ``W`` is None unless a seat is ``OPP_GREEDY``, and numba drops the greedy
branch of :func:`play_opponents` when it compiles for ``W = None`` (a branch on ``W is None``
over an argument typed None is pruned before typing): solo envs, random-opponent envs and the
single envs never compile the greedy evaluation (a third of a cold compile of
:func:`batch_step`), and the functions that take ``W`` get a version of their own for an array
``W`` when an env with greedy seats first runs.

Rewards (``C_REWARD``), ``win_bonus = F[F_WIN_BONUS]``, ``scale = F[F_POINTS_SCALE]``:

========== ============================================ ============================================
mode       solo                                         one seat
========== ============================================ ============================================
RM_WIN     at the end: +1 won (final >= target), -1     at the end: each of k winners +1/k, others
           lost                                         -1; all players tied: 0 for everyone
RM_SCORE   at the end: final score / target             at the end: own energy points * scale
RM_SHAPED  every step: gain of (energy points + star    every step: own energy-point gain * scale;
           points) / target; at the end: + win_bonus    at the end: + win_bonus * (the RM_WIN
           if won                                       reward)
RM_MARGIN  (not offered)                                at the end: (own points - best other
                                                        player's points) * scale
========== ============================================ ============================================

Episode seeds: ``batch_reset`` takes one seed per row; on autoreset the next episode's seed is
drawn from the finished game's own generator, so a batch run is reproducible from its reset
seeds, and every episode is the game ``Game(seed=FI[i, FI_SEED], ...)`` played with the same
actions (its scenario is row ``FI[i, FI_SCEN]`` of ``SCS``, its seat ``FI[i, FI_SEAT]``).
"""
import numpy as np
from numba import njit, prange

from ..common.engine.layouts import Layout, layout_tables
from ..common.engine.legal import first_illegal, sample_legal  # noqa: F401  (callers import it here)
from ..common.engine.rng import MAX_SEED, next_seed, pick_index, rng_next  # noqa: F401  (MAX_SEED: callers import it here)
from ..engine.infoset import determinize, scrub
from ..engine.layout import (
    MAX_PLAYERS, N_ACTIONS, P_SCORE, S_CUR, S_NPLAYERS, S_RNG, S_SIZE, S_SOLO_TARGET, S_TERMINAL,
)
from ..engine.masks import fill_mask
from ..engine.observe import O_PLAYERS, PL_SIZE, observe
from ..engine.playout import pick_random
from ..engine.scoring import winners_mask
from .search import ANYTIME_SOME, N_TALLY, N_WEIGHTS, greedy_pick
from ..engine.setup import init_state
from ..engine.solo import init_solo, solo_final_score
from ..engine.stack import pbase
from ..engine.step import apply_action

MODE_SOLO = 0
MODE_SEAT = 1

RM_WIN = 0
RM_SCORE = 1
RM_SHAPED = 2
RM_MARGIN = 3
REWARD_MODES = {"win": RM_WIN, "score": RM_SCORE, "shaped": RM_SHAPED, "margin": RM_MARGIN}

OPP_NONE = 0
OPP_RANDOM = 1
OPP_GREEDY = 2
OPPONENT_CODES = {"random": OPP_RANDOM, "greedy": OPP_GREEDY}

SALT_SCENARIO = 0x5CE4A7
SALT_SEAT = 0x5EA7

_c = Layout("batch config C (int64)")
C_MODE = _c.field("C_MODE", 1, "MODE_SOLO or MODE_SEAT")
C_NPLAYERS = _c.field("C_NPLAYERS", 1, "players (1 in solo mode)")
C_OPTIONS = _c.field("C_OPTIONS", 1, "option bits of init_state (tech packs)")
C_REWARD = _c.field("C_REWARD", 1, "reward mode RM_*")
C_SEAT = _c.field("C_SEAT", 1, "seat of the agent; -1: drawn from each episode's seed")
C_SCENARIO = _c.field("C_SCENARIO", 1, "row of SCS to play; -1: drawn from each episode's seed")
C_OPP = _c.field("C_OPP", MAX_PLAYERS, "seat mode: entry d, who plays the seat d places after the "
                 "agent's: OPP_NONE (the caller), OPP_RANDOM or OPP_GREEDY (in numba); entry 0 OPP_NONE")
C_AUTORESET = _c.field("C_AUTORESET", 1, "1: a finished episode restarts in the same step")
C_SIZE = _c.size

_f = Layout("batch config F (float64)")
F_WIN_BONUS = _f.field("F_WIN_BONUS", 1, "RM_SHAPED: weight of the terminal win reward")
F_POINTS_SCALE = _f.field("F_POINTS_SCALE", 1, "one-seat modes: reward per energy point")
F_SIZE = _f.size

_e = Layout("episode record E (int64)")
E_SEED = _e.field("E_SEED", 1, "seed of the running episode's game")
E_SEAT = _e.field("E_SEAT", 1, "seat of the agent")
E_SCEN = _e.field("E_SCEN", 1, "row of SCS (solo), -1 otherwise")
E_LEN = _e.field("E_LEN", 1, "agent decisions so far")
E_SIZE = _e.size

_r = Layout("episode record R (float64)")
R_POT = _r.field("R_POT", 1, "shaping potential after the last step")
R_RET = _r.field("R_RET", 1, "return of the running episode so far")
R_LAST_RET = _r.field("R_LAST_RET", 1, "return of the last finished episode")
R_SIZE = _r.size

_fi = Layout("final info FI (int64), written when an episode ends")
FI_SEED = _fi.field("FI_SEED", 1, "the finished game's seed")
FI_SCEN = _fi.field("FI_SCEN", 1, "its scenario row (solo), -1 otherwise")
FI_SEAT = _fi.field("FI_SEAT", 1, "the agent's seat")
FI_SCORE = _fi.field("FI_SCORE", 1, "the agent's energy points")
FI_FINAL = _fi.field("FI_FINAL", 1, "solo: energy points + star points; one seat: energy points")
FI_TARGET = _fi.field("FI_TARGET", 1, "solo: the scenario's target; one seat: best other player's points")
FI_WON = _fi.field("FI_WON", 1, "1 if the agent won (a shared win counts)")
FI_LEN = _fi.field("FI_LEN", 1, "agent decisions in the episode")
FI_SIZE = _fi.size

LAYOUTS = (_c, _f, _e, _r, _fi)


def env_rows():
    """Documentation rows (name, offset, length, meaning) of the config and record arrays."""
    return layout_tables(LAYOUTS)


def new_config(mode, n_players, options, reward, seat, scenario, opponents, autoreset,
               win_bonus, points_scale):
    """The (C, F) config arrays, typed for the jitted functions.

    ``opponents``: one ``OPP_*`` code for every other seat, or a sequence of ``n_players - 1``
    codes (entry k for the seat k+1 places after the agent's); ignored in solo mode.  With an
    ``OPP_GREEDY`` seat, the jitted functions also need ``W`` (:func:`opponent_weights`)."""
    n_other = max(int(n_players) - 1, 0)
    codes = [opponents] * n_other if np.ndim(opponents) == 0 else list(opponents)
    if len(codes) != n_other or any(c not in (OPP_NONE, OPP_RANDOM, OPP_GREEDY) for c in codes):
        raise ValueError(f"opponents: give one OPP_* code or {n_other} of them, got {opponents!r}")
    C = np.zeros(C_SIZE, dtype=np.int64)
    C[C_MODE] = mode
    C[C_NPLAYERS] = n_players
    C[C_OPTIONS] = options
    C[C_REWARD] = reward
    C[C_SEAT] = seat
    C[C_SCENARIO] = scenario
    C[C_OPP + 1:C_OPP + 1 + n_other] = codes
    C[C_AUTORESET] = autoreset
    F = np.zeros(F_SIZE, dtype=np.float64)
    F[F_WIN_BONUS] = win_bonus
    F[F_POINTS_SCALE] = points_scale
    return C, F


def opponent_weights(C, greedy_weights=None):
    """The ``W`` argument of the jitted functions for the config ``C``: None when no seat is
    ``OPP_GREEDY`` (``greedy_weights`` is then ignored, and nothing greedy is compiled), else a
    read-only float64 copy of the ``N_WEIGHTS`` evaluation weights ``greedy_weights``
    (``electrify_env.agents.greedy.GreedyWeights.to_array()``).  Read-only as the greedy agent's own array,
    so that both use one compiled ``search.greedy_pick``."""
    if C[C_MODE] != MODE_SEAT or OPP_GREEDY not in C[C_OPP:C_OPP + MAX_PLAYERS]:
        return None
    if greedy_weights is None:
        raise ValueError("greedy_weights: required when an opponent is OPP_GREEDY")
    W = np.array(greedy_weights, dtype=np.float64)
    if W.shape != (N_WEIGHTS,):
        raise ValueError(f"greedy_weights: expected {N_WEIGHTS} weights, got shape {W.shape}")
    W.flags.writeable = False
    return W


@njit(cache=True)
def opponent_code(S, C, seat):
    """The ``OPP_*`` code of the player to move in ``S`` (``seat`` is the agent's)."""
    n = S[S_NPLAYERS]
    return C[C_OPP + (S[S_CUR] - seat + n) % n]


@njit(cache=True)
def greedy_decision(S, T, W, mask, seed, info, det, work, scratch, vals, tally):
    """The ``greedy`` agent's action for the player to move in ``S`` (not a forced move), from
    one determinization seeded by ``seed`` of that player's scrubbed information set (R26):
    scrubbed into ``info``, determinized into ``det``, then :func:`~.search.greedy_pick`
    (``ANYTIME_SOME``) with the weights ``W``; ``mask`` and the other buffers are overwritten.
    The one greedy step of the jitted runners (here and ``league.greedy_actions``)."""
    p = S[S_CUR]
    scrub(S, T, p, info)
    determinize(info, T, p, seed, det)
    # np.int64, as the greedy agent passes it: one compiled greedy_pick serves both
    return greedy_pick(det, T, W, mask, np.int64(ANYTIME_SOME), vals, work, tally, scratch)


@njit(cache=True)
def greedy_opponent_action(S, T, W, mask, n, info, det, work, scratch, vals, tally):
    """The greedy opponent's action for the player to move in ``S`` whose legal ``mask`` holds
    ``n`` ids: a forced move is taken without a draw; otherwise :func:`greedy_decision` with a
    seed drawn from the game's generator (``rng_next``)."""
    if n == 1:
        for a in range(N_ACTIONS):
            if mask[a]:
                return a
    return greedy_decision(S, T, W, mask, rng_next(S, S_RNG), info, det, work, scratch, vals, tally)


@njit(cache=True)
def play_opponents(S, T, C, W, seat, mask):
    """Play the seats the config gives to numba (``OPP_RANDOM``, ``OPP_GREEDY``) until ``seat``
    or a seat played by the caller (``OPP_NONE``) is to move, or the game is over.  ``mask``: a
    uint8 mask buffer (overwritten).  ``W``: the greedy weights, or None when no seat is greedy:
    numba then compiles only the random loop (the ``W is None`` branch is resolved at compile
    time).  With ``W``, the greedy work buffers are allocated here, once per call (so threads
    never share them)."""
    if W is None:
        while S[S_TERMINAL] == 0 and S[S_CUR] != seat and opponent_code(S, C, seat) == OPP_RANDOM:
            n = fill_mask(S, T, mask)
            apply_action(S, T, pick_random(S, mask, n))
    else:
        _play_opponents(S, T, C, W, seat, mask,
                        np.empty(S_SIZE, dtype=np.int64), np.empty(S_SIZE, dtype=np.int64),
                        np.empty(S_SIZE, dtype=np.int64), np.empty(S_SIZE, dtype=np.int64),
                        np.empty(N_ACTIONS, dtype=np.float64), np.empty(N_TALLY, dtype=np.float64))


@njit(cache=True)
def _play_opponents(S, T, C, W, seat, mask, info, det, work, scratch, vals, tally):
    """:func:`play_opponents` with the greedy weights ``W`` and work buffers."""
    while S[S_TERMINAL] == 0 and S[S_CUR] != seat:
        code = opponent_code(S, C, seat)
        if code == OPP_NONE:
            return
        n = fill_mask(S, T, mask)
        if code == OPP_GREEDY:
            a = greedy_opponent_action(S, T, W, mask, n, info, det, work, scratch, vals, tally)
        else:
            a = pick_random(S, mask, n)
        apply_action(S, T, a)


@njit(cache=True)
def potential(S, C, F, seat):
    """Shaping potential: solo (energy points + star points) / target; one seat: energy points
    * scale."""
    if C[C_MODE] == MODE_SOLO:
        return solo_final_score(S) / max(S[S_SOLO_TARGET], 1)
    return S[pbase(seat) + P_SCORE] * F[F_POINTS_SCALE]


@njit(cache=True)
def outcome(S, T, C, seat):
    """(won, final score, target or best other score) of the finished game for ``seat``, and
    the win reward: solo +1 / -1; one seat +1/k for each of k winners, -1 for the others, 0 for
    all when every player ties."""
    if C[C_MODE] == MODE_SOLO:
        final = solo_final_score(S)
        target = S[S_SOLO_TARGET]
        won = final >= target
        return won, final, target, 1.0 if won else -1.0
    w = winners_mask(S, T)
    n = S[S_NPLAYERS]
    k = 0
    best_other = -1
    for q in range(n):
        k += w[q]
        if q != seat:
            sq = S[pbase(q) + P_SCORE]
            if sq > best_other:
                best_other = sq
    won = w[seat] == 1
    if k == n:
        r = 0.0
    elif won:
        r = 1.0 / k
    else:
        r = -1.0
    return won, S[pbase(seat) + P_SCORE], best_other, r


@njit(cache=True)
def terminal_reward(S, T, C, F, seat):
    """Reward added at the end of an episode (see the module table)."""
    won, final, other, win_r = outcome(S, T, C, seat)
    rm = C[C_REWARD]
    if rm == RM_WIN:
        return win_r
    if rm == RM_SHAPED:
        if C[C_MODE] == MODE_SOLO:
            return F[F_WIN_BONUS] if won else 0.0
        return F[F_WIN_BONUS] * win_r
    if C[C_MODE] == MODE_SOLO:  # RM_SCORE
        return final / max(S[S_SOLO_TARGET], 1)
    if rm == RM_SCORE:
        return final * F[F_POINTS_SCALE]
    return (final - other) * F[F_POINTS_SCALE]  # RM_MARGIN


@njit(cache=True)
def new_episode(S, T, SCS, C, F, W, e, r, seed, scratch):
    """Set up the game of a new episode in ``S`` from ``seed``: the scenario (solo) or the
    agent's seat (one seat) is fixed by the config or drawn from the seed; seats before the
    agent's that numba plays (``C_OPP``) play their first decisions."""
    if C[C_MODE] == MODE_SOLO:
        k = C[C_SCENARIO]
        if k < 0:
            k = pick_index(seed, SALT_SCENARIO, SCS.shape[0])
        init_state(S, T, 1, seed, C[C_OPTIONS])
        init_solo(S, SCS[k])
        seat = 0
    else:
        k = -1
        init_state(S, T, C[C_NPLAYERS], seed, C[C_OPTIONS])
        seat = C[C_SEAT]
        if seat < 0:
            seat = pick_index(seed, SALT_SEAT, C[C_NPLAYERS])
        play_opponents(S, T, C, W, seat, scratch)
    e[E_SEED] = seed
    e[E_SEAT] = seat
    e[E_SCEN] = k
    e[E_LEN] = 0
    r[R_RET] = 0.0
    r[R_POT] = potential(S, C, F, seat)


@njit(cache=True)
def observe_prefix(S, T, FF, seat, obs_row):
    """``observe`` into the part of ``obs_row`` the game can fill (``obs_size(n_players)``
    entries): the blocks of absent seats are left as they are, so rows that start zeroed and only
    ever hold games of one player count stay exact while a solo step writes a third of the bytes."""
    observe(S, T, FF, seat, obs_row[:O_PLAYERS + S[S_NPLAYERS] * PL_SIZE])


@njit(cache=True)
def write_view(S, T, FF, seat, obs_row, mask_row):
    """The agent's observation and legal mask (all zero once the game is over)."""
    observe_prefix(S, T, FF, seat, obs_row)
    fill_mask(S, T, mask_row)


@njit(cache=True)
def finish_step(S, T, SCS, FF, C, F, W, e, r, fi, obs_row, mask_row, fobs_row):
    """After the agent's action (and the other seats' moves): the reward, and at the end of the
    game the final facts ``fi``, the final observation ``fobs_row`` and (autoreset) the next
    episode; then the agent's observation and mask.  Returns (reward, terminated)."""
    seat = e[E_SEAT]
    e[E_LEN] += 1
    rew = 0.0
    if C[C_REWARD] == RM_SHAPED:
        pot = potential(S, C, F, seat)
        rew = pot - r[R_POT]
        r[R_POT] = pot
    done = S[S_TERMINAL] != 0
    if done:
        rew += terminal_reward(S, T, C, F, seat)
        won, final, other, _ = outcome(S, T, C, seat)
        fi[FI_SEED] = e[E_SEED]
        fi[FI_SCEN] = e[E_SCEN]
        fi[FI_SEAT] = seat
        fi[FI_SCORE] = S[pbase(seat) + P_SCORE]
        fi[FI_FINAL] = final
        fi[FI_TARGET] = other
        fi[FI_WON] = 1 if won else 0
        fi[FI_LEN] = e[E_LEN]
        r[R_RET] += rew
        r[R_LAST_RET] = r[R_RET]
        observe_prefix(S, T, FF, seat, fobs_row)
        if C[C_AUTORESET]:
            new_episode(S, T, SCS, C, F, W, e, r, next_seed(S, S_RNG), mask_row)
    else:
        r[R_RET] += rew
    write_view(S, T, FF, e[E_SEAT], obs_row, mask_row)
    return rew, done


@njit(cache=True)
def _step_row(i, States, T, SCS, FF, C, F, W, E, R, FI, actions, obs, masks, rewards, terms,
              final_obs):
    S = States[i]
    apply_action(S, T, actions[i])
    if C[C_MODE] == MODE_SEAT:
        play_opponents(S, T, C, W, E[i, E_SEAT], masks[i])
    rew, done = finish_step(S, T, SCS, FF, C, F, W, E[i], R[i], FI[i], obs[i], masks[i], final_obs[i])
    rewards[i] = rew
    terms[i] = done


@njit(cache=True)
def batch_step(States, T, SCS, FF, C, F, W, E, R, FI, actions, obs, masks, rewards, terms, final_obs):
    """Step every row with its action (one core).  Returns -1, or the index of the first
    illegal action, in which case nothing was stepped."""
    bad = first_illegal(actions, masks)
    if bad >= 0:
        return bad
    for i in range(States.shape[0]):
        _step_row(i, States, T, SCS, FF, C, F, W, E, R, FI, actions, obs, masks, rewards, terms, final_obs)
    return -1


@njit(cache=True, parallel=True)
def batch_step_parallel(States, T, SCS, FF, C, F, W, E, R, FI, actions, obs, masks, rewards, terms,
                        final_obs):
    """:func:`batch_step` with the rows spread over numba's threads (worth it from a few dozen
    rows on; the results are identical)."""
    bad = first_illegal(actions, masks)
    if bad >= 0:
        return bad
    for i in prange(States.shape[0]):
        _step_row(i, States, T, SCS, FF, C, F, W, E, R, FI, actions, obs, masks, rewards, terms, final_obs)
    return -1


@njit(cache=True)
def batch_reset(States, T, SCS, FF, C, F, W, E, R, seeds, obs, masks):
    """Start a new episode in every row from ``seeds`` and write the first observations and
    masks."""
    for i in range(States.shape[0]):
        new_episode(States[i], T, SCS, C, F, W, E[i], R[i], seeds[i], masks[i])
        write_view(States[i], T, FF, E[i, E_SEAT], obs[i], masks[i])


if __name__ == "__main__":  # pragma: no cover
    for title, rows in env_rows().items():
        print(f"### {title}")
        for row in rows:
            print("  ", *row)
