"""The legal-action mask (G5, G23).  ``step`` accepts exactly the ids this mask holds: both use
the same legality predicates of the phase modules.  Affordability is searched once per colour
per mask (the largest cost asked of each colour), not once per card."""
import numpy as np
from numba import njit

from .gz_board import display_card
from .gz_build import build_cost
from .gz_chain import offered
from .gz_energy import pbase, pick_ok, storage_room
from .gz_file import can_file, file_slot_ok
from .gz_layout import (
    A_BUILD, A_BUILD_ARCH, A_FILE, A_PASS, A_PICK, A_RES_BUILD, A_RES_FILE,
    A_RESEARCH, A_USE, MAX_BUILT, MAX_DISPLAY, N_COLOURS, N_DECKS, NO_CARD,
    N_TARGETS, P_ARCH, P_ARCH_N, P_BUILT_N, PH_CHAIN, PH_EFFECT_FILE, PH_EFFECT_PICK, PH_EFFECT_RESEARCH,
    PH_FREE_BUILD, PH_MAIN, PH_PAY, PH_RESEARCH, S_CUR, S_DECK_N, S_EFF_FIRST, S_PHASE, S_RES,
    S_DISPLAY, S_RES_N, S_ROW, S_TERMINAL, SRC_ARCHIVE, SRC_DISPLAY, SRC_RESEARCH, T_COLOUR,
    T_DISPLAY, T_LEVEL, W_ASKED, W_REACH, W_REACH_NEED,
)
from .gz_pay import new_work, pay_mask, reach_begin, reach_solve
from .gz_research import research_ok


@njit(cache=True)
def _ask(S, T, pb, card, src, W):
    """Ask, in the affordability round of ``W``, for the cost of ``card`` from ``src``; return the
    cost times 8 plus its search target (the colour, COL_ANY last)."""
    t = min(T[T_COLOUR + card], N_TARGETS - 1)
    cost = build_cost(S, T, pb, card, src)
    i = W_REACH_NEED + t
    W[i] = max(W[i], cost)
    return cost * 8 + t


@njit(cache=True)
def _paid(W, asked):
    """After :func:`~.gz_pay.reach_solve`: the cost asked by :func:`_ask` can be paid."""
    cost = asked >> 3
    return cost <= 0 or cost <= W[W_REACH + (asked & 7)]


@njit(cache=True)
def _main_mask(S, T, pb, mask, W):
    """The main decision (G5): File and Build of each display card, Pick of each colour in the
    row, Build of each archive card, Research of each deck; pass when none is legal.  Each card's
    cost is asked once, the round solved once."""
    reach_begin(S, T, pb, W)
    for x in range(N_DECKS * MAX_DISPLAY):
        W[W_ASKED + x] = -1
    for d in range(N_DECKS):
        for k in range(T[T_DISPLAY + d]):
            card = S[S_DISPLAY + d * MAX_DISPLAY + k]
            if card != NO_CARD:
                W[W_ASKED + d * MAX_DISPLAY + k] = _ask(S, T, pb, card, SRC_DISPLAY, W)
    n_arch = S[pb + P_ARCH_N]
    at = W_ASKED + N_DECKS * MAX_DISPLAY
    for i in range(n_arch):
        W[at + i] = _ask(S, T, pb, S[pb + P_ARCH + i], SRC_ARCHIVE, W)
    reach_solve(S, pb, W)
    room = S[pb + P_BUILT_N] < MAX_BUILT
    filing = can_file(S, pb)
    n = 0
    for x in range(N_DECKS * MAX_DISPLAY):
        asked = W[W_ASKED + x]
        if asked < 0:
            continue
        if filing:
            mask[A_FILE + x] = 1
            n += 1
        if room and _paid(W, asked):
            mask[A_BUILD + x] = 1
            n += 1
    if storage_room(S, pb) > 0:
        for c in range(N_COLOURS):
            if S[S_ROW + c] > 0:
                mask[A_PICK + c] = 1
                n += 1
    if room:
        for i in range(n_arch):
            if _paid(W, W[at + i]):
                mask[A_BUILD_ARCH + i] = 1
                n += 1
    for d in range(N_DECKS):
        if research_ok(S, pb, d):
            mask[A_RESEARCH + d] = 1
            n += 1
    if n == 0:
        mask[A_PASS] = 1          # G5: none of the four is legal
        n = 1
    return n


@njit(cache=True)
def _research_mask(S, T, pb, mask, W):
    """The Research decision (G9): build or file each drawn card, or take neither."""
    mask[A_PASS] = 1
    n = 1
    filing = can_file(S, pb)
    reach_begin(S, T, pb, W)
    n_res = S[S_RES_N]
    for i in range(n_res):
        W[W_ASKED + i] = _ask(S, T, pb, S[S_RES + i], SRC_RESEARCH, W)
    reach_solve(S, pb, W)
    room = S[pb + P_BUILT_N] < MAX_BUILT
    for i in range(n_res):
        if room and _paid(W, W[W_ASKED + i]):
            mask[A_RES_BUILD + i] = 1
            n += 1
        if filing:
            mask[A_RES_FILE + i] = 1
            n += 1
    return n


@njit(cache=True)
def fill_mask(S, T, mask, W):
    """Write 1 at every legal action id of the pending decision into ``mask`` (uint8, length
    N_ACTIONS), 0 elsewhere; return the number of legal ids (0 only once the game is over).
    ``W`` is a work buffer (:func:`new_work`)."""
    mask[:] = 0
    if S[S_TERMINAL]:
        return 0
    pb = pbase(S[S_CUR])
    ph = S[S_PHASE]
    n = 0
    if ph == PH_MAIN:
        n = _main_mask(S, T, pb, mask, W)
    elif ph == PH_PAY:
        n = pay_mask(S, T, pb, mask, W)
    elif ph == PH_RESEARCH:
        n = _research_mask(S, T, pb, mask, W)
    elif ph == PH_CHAIN:
        mask[A_PASS] = 1
        n = 1
        for j in range(S[pb + P_BUILT_N]):
            if offered(S, T, pb, j):
                mask[A_USE + j] = 1
                n += 1
    elif ph == PH_EFFECT_PICK:
        if S[S_EFF_FIRST] == 0:
            mask[A_PASS] = 1          # G19: the second Pick may be declined
            n = 1
        for c in range(N_COLOURS):
            if pick_ok(S, pb, c):
                mask[A_PICK + c] = 1
                n += 1
    elif ph == PH_EFFECT_FILE:
        for x in range(N_DECKS * MAX_DISPLAY):
            if file_slot_ok(S, T, pb, x):
                mask[A_FILE + x] = 1
                n += 1
    elif ph == PH_EFFECT_RESEARCH:
        for d in range(N_DECKS):
            if research_ok(S, pb, d):
                mask[A_RESEARCH + d] = 1
                n += 1
    elif ph == PH_FREE_BUILD:
        if S[pb + P_BUILT_N] < MAX_BUILT:
            for x in range(MAX_DISPLAY):
                if display_card(S, T, 0, x) != NO_CARD:
                    mask[A_BUILD + x] = 1
                    n += 1
            for i in range(S[pb + P_ARCH_N]):
                if T[T_LEVEL + S[pb + P_ARCH + i]] == 1:
                    mask[A_BUILD_ARCH + i] = 1
                    n += 1
    return n


def new_mask():
    """A scratch mask buffer for ``fill_mask`` / ``step_checked``."""
    from .gz_layout import N_ACTIONS
    return np.zeros(N_ACTIONS, dtype=np.uint8)


__all__ = ["fill_mask", "new_mask", "new_work"]
