"""Jitted stepping of many Gizmos games at once: one seat per game is the caller's, the other
seats play uniformly random legal actions inside numba, finished games restart in the same call.
:class:`electrify_env.gizmos.envs.vector.GizmosVectorEnv` is the Python face.

Arrays (one row per game; ``N`` rows):

* ``States`` (N, S_SIZE) int64: the games (:mod:`.gz_layout`);
* ``OR`` (N, OR_SIZE) int64: the random opponents' generators, one per row, kept apart from the
  game's own generator (its words sit at ``S_RNG`` as in a state), so that every game is the game
  ``Game(n_players, seed)`` replayed with its actions;
* ``E`` (N, E_SIZE) int64: the running episode (seed, the caller's seat, its decisions);
* ``FI`` (N, FI_SIZE) int64: facts of the episode that ended at the last step (read where
  ``terms`` or ``truncs`` is True);
* ``WK`` (N, W_SIZE) int64: the mask's work buffers (:func:`.gz_pay.new_work`);
* ``obs`` (N, OBS_SIZE) float32 (:func:`.gz_observe.observe_state` of the caller's seat),
  ``masks`` (N, N_ACTIONS) uint8, ``rewards`` (N,) float64, ``terms`` / ``truncs`` (N,) bool,
  ``final_obs`` (N, OBS_SIZE) float32;
* ``C`` (C_SIZE,) int64: players, the caller's seat (-1: drawn from each episode's seed),
  autoreset; ``T`` the card table (read-only).

Opponents: at every decision of a seat other than the caller's, one number is drawn from the
row's opponent generator (``rng_below(OR[i], S_RNG, n_legal)``, forced moves included) and the
legal id of that rank is played.  The generator is seeded from the episode's seed
(:func:`seed_opponents`).

Rewards: 0 until the end; then +1 if the caller's seat ranks first (G21), else -1.  An episode
ends terminated by G20 or truncated by the round cap (G22), never both.

Episode seeds: :func:`batch_reset` takes one seed per row; on autoreset the next seed is drawn
from the finished game's own generator (:func:`~electrify_env.common.engine.rng.next_seed`), so a
batch run is reproducible from its reset seeds.
"""
import numpy as np
from numba import njit, prange

from ...common.engine.layouts import Layout, layout_tables
from ...common.engine.legal import first_illegal, pick_legal
from ...common.engine.rng import next_seed, pick_index, rng_below, rng_seed
from .gz_layout import MAX_PLAYERS, RNG_SALTS, S_CUR, S_NPLAYERS, S_RNG, S_TERMINAL, S_TRUNCATED
from .gz_masks import fill_mask
from .gz_observe import observe_state
from .gz_scoring import ranks, score
from .gz_setup import init_state
from .gz_step import apply_action

#: length of a row of ``OR``: the generator words at ``S_RNG .. S_RNG + 3``, as in a state
OR_SIZE = S_RNG + 4
#: mixed into an episode's seed to seed its opponents' generator
SALT_OPPONENTS = 0x0DD5EED5
#: mixed into an episode's seed to draw the caller's seat (``C_SEAT = -1``)
SALT_SEAT = 0x5EA7

_c = Layout("gizmos batch config C (int64)")
C_NPLAYERS = _c.field("C_NPLAYERS", 1, "players, 2-4")
C_SEAT = _c.field("C_SEAT", 1, "the caller's seat; -1: drawn from each episode's seed")
C_AUTORESET = _c.field("C_AUTORESET", 1, "1: a finished episode restarts in the same step")
C_SIZE = _c.size

_e = Layout("gizmos episode record E (int64)")
E_SEED = _e.field("E_SEED", 1, "seed of the running episode's game")
E_SEAT = _e.field("E_SEAT", 1, "the caller's seat")
E_LEN = _e.field("E_LEN", 1, "the caller's decisions so far")
E_SIZE = _e.size

_fi = Layout("gizmos final info FI (int64), written when an episode ends")
FI_SEED = _fi.field("FI_SEED", 1, "the finished game's seed")
FI_SEAT = _fi.field("FI_SEAT", 1, "the caller's seat")
FI_SCORE = _fi.field("FI_SCORE", 1, "the caller's points")
FI_WON = _fi.field("FI_WON", 1, "1 if the caller's seat ranked first")
FI_WINNER = _fi.field("FI_WINNER", 1, "the seat ranked first")
FI_LEN = _fi.field("FI_LEN", 1, "the caller's decisions in the episode")
FI_TRUNC = _fi.field("FI_TRUNC", 1, "1 if the round cap ended it (G22)")
FI_SCORES = _fi.field("FI_SCORES", MAX_PLAYERS, "every seat's points (seat order; 0 past the players)")
FI_SIZE = _fi.size

LAYOUTS = (_c, _e, _fi)


def env_rows():
    """Documentation rows (name, offset, length, meaning) of the config and record arrays."""
    return layout_tables(LAYOUTS)


def new_config(n_players, seat, autoreset=1):
    """The config array ``C``: ``n_players`` 2-4, ``seat`` 0..n_players-1 or -1 (drawn per
    episode), ``autoreset`` 0 or 1."""
    n = int(n_players)
    if not 2 <= n <= MAX_PLAYERS or not -1 <= int(seat) < n or autoreset not in (0, 1):
        raise ValueError(f"new_config: n_players 2-{MAX_PLAYERS}, seat -1..n_players-1, autoreset 0/1; "
                         f"got {n_players}, {seat}, {autoreset}")
    C = np.zeros(C_SIZE, dtype=np.int64)
    C[C_NPLAYERS] = n
    C[C_SEAT] = int(seat)
    C[C_AUTORESET] = autoreset
    return C


@njit(cache=True)
def seed_opponents(orow, seed):
    """Seed the opponent generator ``orow`` (a row of ``OR``) for the episode of ``seed``."""
    rng_seed(orow, S_RNG, seed ^ SALT_OPPONENTS, RNG_SALTS)


@njit(cache=True)
def play_opponents(S, T, orow, seat, mask, work):
    """Play the other seats with uniformly random legal ids drawn from ``orow`` until ``seat`` is
    to move or the game is over (``mask``, ``work``: scratch, overwritten)."""
    while S[S_TERMINAL] == 0 and S[S_CUR] != seat:
        n = fill_mask(S, T, mask, work)
        apply_action(S, T, pick_legal(mask, rng_below(orow, S_RNG, n)))


@njit(cache=True)
def new_episode(S, T, C, orow, e, seed, mask, work):
    """Set up the game of a new episode in ``S`` from ``seed``: the caller's seat (fixed or drawn
    from the seed), the opponents' generator, and the opponents' first decisions when the
    caller's seat is not the first to move."""
    n = C[C_NPLAYERS]
    init_state(S, T, n, seed)
    seat = C[C_SEAT]
    if seat < 0:
        seat = pick_index(seed, SALT_SEAT, n)
    seed_opponents(orow, seed)
    e[E_SEED] = seed
    e[E_SEAT] = seat
    e[E_LEN] = 0
    play_opponents(S, T, orow, seat, mask, work)


@njit(cache=True)
def winner_of(S, T):
    """The seat ranked first (G21)."""
    rk = np.zeros(MAX_PLAYERS, dtype=np.int64)
    ranks(S, T, rk)
    for p in range(S[S_NPLAYERS]):
        if rk[p] == 0:
            return p
    return 0


@njit(cache=True)
def write_view(S, T, seat, obs_row, mask_row, work):
    """The caller's observation and legal mask (all zero once the game is over)."""
    observe_state(S, T, seat, obs_row)
    fill_mask(S, T, mask_row, work)


@njit(cache=True)
def step_row(S, T, C, orow, e, fi, action, obs_row, mask_row, fobs_row, work):
    """Apply the caller's legal ``action`` in one game, play the opponents, and at the end write
    the final facts ``fi`` and observation ``fobs_row`` and (autoreset) start the next episode;
    then the caller's observation and mask.  Returns (reward, terminated, truncated)."""
    seat = e[E_SEAT]
    apply_action(S, T, action)
    e[E_LEN] += 1
    play_opponents(S, T, orow, seat, mask_row, work)
    rew = 0.0
    term = False
    trunc = False
    if S[S_TERMINAL] != 0:
        w = winner_of(S, T)
        rew = 1.0 if w == seat else -1.0
        trunc = S[S_TRUNCATED] != 0
        term = not trunc
        fi[FI_SEED] = e[E_SEED]
        fi[FI_SEAT] = seat
        fi[FI_SCORE] = score(S, T, seat)
        fi[FI_WON] = 1 if w == seat else 0
        fi[FI_WINNER] = w
        fi[FI_LEN] = e[E_LEN]
        fi[FI_TRUNC] = 1 if trunc else 0
        for p in range(MAX_PLAYERS):
            fi[FI_SCORES + p] = score(S, T, p) if p < S[S_NPLAYERS] else 0
        observe_state(S, T, seat, fobs_row)
        if C[C_AUTORESET]:
            new_episode(S, T, C, orow, e, next_seed(S, S_RNG), mask_row, work)
    write_view(S, T, e[E_SEAT], obs_row, mask_row, work)
    return rew, term, trunc


@njit(cache=True)
def batch_step(States, T, C, OR, E, FI, WK, actions, obs, masks, rewards, terms, truncs, final_obs):
    """Step every row with its action.  Returns -1, or the index of the first illegal action,
    in which case nothing was stepped."""
    bad = first_illegal(actions, masks)
    if bad >= 0:
        return bad
    for i in range(States.shape[0]):
        rew, te, tr = step_row(States[i], T, C, OR[i], E[i], FI[i], actions[i], obs[i], masks[i],
                               final_obs[i], WK[i])
        rewards[i] = rew
        terms[i] = te
        truncs[i] = tr
    return -1


@njit(cache=True, parallel=True)
def batch_step_parallel(States, T, C, OR, E, FI, WK, actions, obs, masks, rewards, terms, truncs,
                        final_obs):
    """:func:`batch_step` with the rows spread over numba's threads (every row has its own
    buffers; the results are identical)."""
    bad = first_illegal(actions, masks)
    if bad >= 0:
        return bad
    for i in prange(States.shape[0]):
        rew, te, tr = step_row(States[i], T, C, OR[i], E[i], FI[i], actions[i], obs[i], masks[i],
                               final_obs[i], WK[i])
        rewards[i] = rew
        terms[i] = te
        truncs[i] = tr
    return -1


@njit(cache=True)
def batch_reset(States, T, C, OR, E, WK, seeds, obs, masks):
    """Start a new episode in every row from ``seeds`` and write the first observations and
    masks."""
    for i in range(States.shape[0]):
        new_episode(States[i], T, C, OR[i], E[i], seeds[i], masks[i], WK[i])
        write_view(States[i], T, E[i, E_SEAT], obs[i], masks[i], WK[i])
