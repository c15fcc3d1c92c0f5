"""Build (G8, G11, G12, G17): choose a card, pay it step by step, place it, trigger."""
from numba import njit

from .gz_board import archive_remove, display_card, recompute_limits, refill_slot
from .gz_energy import top_up_row
from .gz_layout import (
    MAX_BUILT, MAX_DISPLAY, MAX_OPTS, N_COLOURS, NO_CARD, P_ARCH, P_ARCH_N, P_BUILT, P_BUILT_N, P_OPT_USED,
    P_SPECIAL, P_STORE, PH_CHAIN, PH_PAY, S_DISPENSER, S_OPT_K, S_OPT_MACH, S_OPT_N, S_PAY_CARD,
    S_PAY_COST, S_PAY_LASTC, S_PAY_LASTO, S_PAY_M, S_PAY_OPTS, S_PAY_SLOT, S_PAY_SRC, S_PHASE,
    SRC_ARCHIVE, SRC_DISPLAY, SRC_RESEARCH, T_COLOUR, T_COST, T_LEVEL, UP_ARCHIVE_DISCOUNT,
    UP_L2_DISCOUNT, UP_RESEARCH_DISCOUNT,
)
from .gz_pay import collect_options, reach_begin, reach_ok, reach_solve, reach_want
from .gz_triggers import trigger_build


@njit(cache=True)
def build_cost(S, T, pb, card, src):
    """The marbles owed for ``card`` from ``src`` after the discounts of G12 (never below 0)."""
    cost = T[T_COST + card]
    if src == SRC_ARCHIVE:
        cost -= S[pb + P_SPECIAL + UP_ARCHIVE_DISCOUNT]
    elif src == SRC_RESEARCH:
        cost -= S[pb + P_SPECIAL + UP_RESEARCH_DISCOUNT]
    if T[T_LEVEL + card] == 2:
        cost -= S[pb + P_SPECIAL + UP_L2_DISCOUNT]
    return cost if cost > 0 else 0


@njit(cache=True)
def want_build(S, T, pb, card, src, W):
    """Ask, in the affordability round of ``W`` (:func:`~.gz_pay.reach_begin`), for the cost of
    ``card`` from ``src``."""
    if card != NO_CARD:
        reach_want(W, T[T_COLOUR + card], build_cost(S, T, pb, card, src))


@njit(cache=True)
def build_reachable(S, T, pb, card, src, W):
    """``card`` from ``src`` can be built and paid now (room on the dashboard, G11), once its
    cost was asked (:func:`want_build`) and the round solved (:func:`~.gz_pay.reach_solve`)."""
    if card == NO_CARD or S[pb + P_BUILT_N] >= MAX_BUILT:
        return False
    return reach_ok(W, T[T_COLOUR + card], build_cost(S, T, pb, card, src))


@njit(cache=True)
def build_ok(S, T, pb, card, src, W):
    """``card`` from ``src`` can be built and paid now (room on the dashboard, G11)."""
    reach_begin(S, T, pb, W)
    want_build(S, T, pb, card, src, W)
    reach_solve(S, pb, W)
    return build_reachable(S, T, pb, card, src, W)


@njit(cache=True)
def display_build_ok(S, T, pb, x, W):
    """Building display slot ``x`` is legal."""
    return build_ok(S, T, pb, display_card(S, T, x // MAX_DISPLAY, x % MAX_DISPLAY), SRC_DISPLAY, W)


@njit(cache=True)
def archive_build_ok(S, T, pb, i, W):
    """Building archive card ``i`` is legal."""
    if i >= S[pb + P_ARCH_N]:
        return False
    return build_ok(S, T, pb, S[pb + P_ARCH + i], SRC_ARCHIVE, W)


@njit(cache=True)
def place(S, T, pb, card, src, slot):
    """Take ``card`` from its source (display slot refilled, archive card removed; a researched
    card is already out of its deck), put it on the dashboard and trigger (G8, G13, G15)."""
    if src == SRC_DISPLAY:
        refill_slot(S, slot // MAX_DISPLAY, slot % MAX_DISPLAY)
    elif src == SRC_ARCHIVE:
        archive_remove(S, pb, slot)
    j = S[pb + P_BUILT_N]
    S[pb + P_BUILT + j] = card
    S[pb + P_BUILT_N] = j + 1
    recompute_limits(S, T, pb)
    trigger_build(S, T, pb, j, src)
    S[S_PHASE] = PH_CHAIN


@njit(cache=True)
def start_build(S, T, pb, card, src, slot):
    """Begin building ``card`` from ``src`` (slot: display slot or archive index): a cost of 0 is
    paid with nothing at once; otherwise the payment decision opens (G11)."""
    cost = build_cost(S, T, pb, card, src)
    S[S_PAY_CARD] = card
    S[S_PAY_SRC] = src
    S[S_PAY_SLOT] = slot
    S[S_PAY_COST] = cost
    for x in range(N_COLOURS):
        S[S_PAY_M + x] = 0
    S[S_PAY_LASTC] = 0
    S[S_PAY_OPTS] = 0
    S[S_PAY_LASTO] = -1
    if cost == 0:
        S[S_OPT_N] = 0
        place(S, T, pb, card, src, slot)
        return
    n = collect_options(S, T, pb, S[S_OPT_MACH:S_OPT_MACH + MAX_OPTS], S[S_OPT_K:S_OPT_K + MAX_OPTS])
    S[S_OPT_N] = n
    for o in range(n, MAX_OPTS):
        S[S_OPT_MACH + o] = 0
        S[S_OPT_K + o] = 0
    S[S_PHASE] = PH_PAY


@njit(cache=True)
def free_build(S, T, pb, card, src, slot):
    """G17: build a level-I card from the display or the archive, paying nothing."""
    place(S, T, pb, card, src, slot)


@njit(cache=True)
def pay_spend(S, c):
    """Payment step: spend a stored marble of colour ``c``."""
    S[S_PAY_M + c] += 1
    S[S_PAY_LASTC] = c


@njit(cache=True)
def pay_convert(S, i):
    """Payment step: apply option ``i`` of the option list."""
    S[S_PAY_OPTS] |= 1 << i
    S[S_PAY_LASTO] = i


@njit(cache=True)
def pay_confirm(S, T, pb):
    """Pay: spent marbles go back to the dispenser at once and the row is topped up (G1); the
    options are used for the turn (G11); then the card is placed."""
    for x in range(N_COLOURS):
        m = S[S_PAY_M + x]
        S[pb + P_STORE + x] -= m
        S[S_DISPENSER + x] += m
        S[S_PAY_M + x] = 0
    top_up_row(S, T)
    opts = S[S_PAY_OPTS]
    for o in range(S[S_OPT_N]):
        if (opts >> o) & 1:
            S[pb + P_OPT_USED + S[S_OPT_MACH + o]] |= 1 << S[S_OPT_K + o]
    S[S_PAY_OPTS] = 0
    place(S, T, pb, S[S_PAY_CARD], S[S_PAY_SRC], S[S_PAY_SLOT])
