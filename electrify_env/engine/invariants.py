"""Invariants every reachable state keeps (used by the random-playout tests and the 10,000-game
soak run).  ``check_invariants`` returns 0 or the code of the first broken invariant."""
import numpy as np
from numba import njit

from .layout import (
    FACE_BASIC, FACE_SECTOR, FR_A, FT_PAY, FT_PLACE_SECTOR, FT_PLACE_SLOT, MAX_BASIC, MAX_DECK,
    MAX_HAND, MAX_PLAYERS, MAX_SLOTS, MAX_STACK, N_COLS, N_ROUNDS, N_SECTORS, NO_CARD, P_DEPOT, P_GRID,
    P_HAND, P_HAND_N, P_RESEARCH, P_SCORE, P_SEC_CARD, P_SEC_COL, P_SEC_N, RESEARCH_TRACK,
    MAX_SCENARIO_STARS, S_SOLO, S_SOLO_NSTARS, S_STAR_ROUND, S_STAR_STATE, S_BASIC, S_TERMINAL, S_DECK, S_DECK_N, S_DISC, S_DISC_N, S_NPLAYERS, S_OPTIONS, S_ROUND, S_SP, S_STACK,
    FRAME, T_IND_PACK, T_N_BASIC, T_N_IND,
)
from .masks import fill_mask
from .playout import new_game, pick_phase_first, pick_random
from .stack import pbase
from .step import apply_action

INVARIANT_MESSAGES = {
    1: "a hand holds more than 9 cards, or hand slots are inconsistent",
    2: "a sector holds more than 5 cards, or its slots have gaps",
    3: "two sectors share a column, or a sector is outside columns 0-6",
    4: "a cube count is negative, or the research marker is outside 0-6",
    5: "an industry card was created or lost (hands, decks, discards, sectors)",
    6: "a basic card was created or lost (supply, sectors)",
    7: "the round counter is outside 0-12",
    8: "the decision stack is out of range",
    9: "a score is negative",
    10: "no legal action before the end of the game",
    11: "the game did not end within the decision bound",
    12: "the game ended before round 12 was over",
    13: "a solo star was claimed after its round, or changed state twice",
    14: "a solo star was lost before its round",
    15: "a card id is outside the card table, or the player count is outside 1-4",
}


@njit(cache=True)
def check_invariants(S, T):
    """Return 0 if the state keeps every invariant, else a code of INVARIANT_MESSAGES.

    Safe on any state of length S_SIZE: every value used as an index (player count, pile sizes,
    card ids, faces) is range-checked before it is used (code 15 for an id outside the table)."""
    n = S[S_NPLAYERS]
    if n < 1 or n > MAX_PLAYERS:
        return 15
    if S[S_ROUND] < 0 or S[S_ROUND] > N_ROUNDS:
        return 7
    if S[S_SP] < 0 or S[S_SP] > MAX_STACK:
        return 8
    n_ind = T[T_N_IND]
    seen = np.zeros(n_ind, dtype=np.int64)
    seen_basic = np.zeros(MAX_BASIC, dtype=np.int64)
    for d in range(2):
        if S[S_DECK_N + d] < 0 or S[S_DECK_N + d] > MAX_DECK or S[S_DISC_N + d] < 0 \
                or S[S_DISC_N + d] > MAX_DECK:
            return 5
        for i in range(S[S_DECK_N + d]):
            c = S[S_DECK + d * MAX_DECK + i]
            if c < 0 or c >= n_ind:
                return 15
            seen[c] += 1
        for i in range(S[S_DISC_N + d]):
            c = S[S_DISC + d * MAX_DECK + i]
            if c < 0 or c >= n_ind:
                return 15
            seen[c] += 1
    for b in range(MAX_BASIC):
        seen_basic[b] += S[S_BASIC + b]
    for i in range(S[S_SP]):
        f = S_STACK + i * FRAME
        ft = S[f]
        if ft == FT_PAY:
            continue  # the card waits in the FT_PLACE_SECTOR frame below
        if ft == FT_PLACE_SECTOR or ft == FT_PLACE_SLOT:
            face = S[f + FR_A]
            if 0 <= face < n_ind:
                seen[face] += 1
            elif FACE_BASIC <= face < FACE_SECTOR:
                seen_basic[(face - FACE_BASIC) // 2] += 1
            else:
                return 15
    for p in range(n):
        pb = pbase(p)
        hn = S[pb + P_HAND_N]
        if hn < 0 or hn > MAX_HAND:
            return 1
        for h in range(MAX_HAND):
            c = S[pb + P_HAND + h]
            if (h < hn) != (c != NO_CARD):
                return 1
            if h < hn:
                if h > 0 and S[pb + P_HAND + h - 1] > c:
                    return 1
                if c < 0 or c >= n_ind:
                    return 15
                seen[c] += 1
        for s in range(N_SECTORS):
            col = S[pb + P_SEC_COL + s]
            if col < 0 or col >= N_COLS:
                return 3
            for t in range(s):
                if S[pb + P_SEC_COL + t] == col:
                    return 3
            k = S[pb + P_SEC_N + s]
            if k < 0 or k > MAX_SLOTS:
                return 2
            for j in range(MAX_SLOTS):
                face = S[pb + P_SEC_CARD + s * MAX_SLOTS + j]
                if (j < k) != (face != NO_CARD):
                    return 2
                if j < k:
                    if face < 0 or (n_ind <= face < FACE_BASIC):
                        return 15
                    if face < FACE_BASIC:
                        seen[face] += 1
                    elif face < FACE_SECTOR:
                        seen_basic[(face - FACE_BASIC) // 2] += 1
                    else:
                        return 2
        for c in range(N_COLS):
            if S[pb + P_DEPOT + c] < 0 or S[pb + P_GRID + c] < 0:
                return 4
        if S[pb + P_RESEARCH] < 0 or S[pb + P_RESEARCH] > RESEARCH_TRACK:
            return 4
        if S[pb + P_SCORE] < 0:
            return 9
    for c in range(T[T_N_IND]):
        pack = T[T_IND_PACK + c]
        want = 1 if (pack == 0 or (S[S_OPTIONS] >> pack) & 1) else 0
        if seen[c] != want:
            return 5
    for b in range(MAX_BASIC):
        want = 1 if b < T[T_N_BASIC] else 0
        if seen_basic[b] != want:
            return 6
    return 0


@njit(cache=True)
def check_star_transition(S, before):
    """Star accounting (R22): a star only goes from open to claimed (before the marker reached
    its round) or from open to lost (once the marker reached its round), once."""
    for i in range(S[S_SOLO_NSTARS]):
        old = before[i]
        new = S[S_STAR_STATE + i]
        if old == new:
            continue
        if old != 0:
            return 13
        if new == 1 and S[S_ROUND] >= S[S_STAR_ROUND + i]:
            return 13
        if new == 2 and S[S_ROUND] < S[S_STAR_ROUND + i]:
            return 14
        before[i] = new
    return 0


@njit(cache=True)
def checked_random_game(S, T, SC, mask, n_players, seed, options, max_decisions, phase_first):
    """Play one seeded random game (solo on ``SC`` with one player), checking every invariant
    (and, solo, the star accounting) after every decision.

    Returns (code, decisions): code 0 when the game ended cleanly, an INVARIANT_MESSAGES code,
    10 if a decision had an empty mask, 11 if the game did not end within ``max_decisions``,
    12 if the game ended before round 12 was over.  ``phase_first`` prefers the pending
    decision's own actions over the any-time ones (see ``pick_phase_first``)."""
    new_game(S, T, SC, n_players, seed, options)
    code = check_invariants(S, T)
    if code:
        return code, 0
    stars = S[S_STAR_STATE:S_STAR_STATE + MAX_SCENARIO_STARS].copy()
    k = 0
    while S[S_TERMINAL] == 0:
        n = fill_mask(S, T, mask)
        if n == 0:
            return 10, k
        if k >= max_decisions:
            return 11, k
        a = pick_phase_first(S, mask, n) if phase_first else pick_random(S, mask, n)
        apply_action(S, T, a)
        k += 1
        code = check_invariants(S, T)
        if code == 0 and S[S_SOLO]:
            code = check_star_transition(S, stars)
        if code:
            return code, k
    if S[S_ROUND] != N_ROUNDS:
        return 12, k
    return 0, k
