"""File (G6): a display card into the archive; file machines wait."""
from numba import njit

from .gz_board import archive_add, display_card, refill_slot
from .gz_layout import MAX_DISPLAY, NO_CARD, P_ARCH_N, P_LIM_ARCH, P_SPECIAL, UP_NO_FILE
from .gz_triggers import trigger_file


@njit(cache=True)
def can_file(S, pb):
    """The player may file a card: room in the archive and no "no more File" upgrade."""
    return S[pb + P_ARCH_N] < S[pb + P_LIM_ARCH] and S[pb + P_SPECIAL + UP_NO_FILE] == 0


@njit(cache=True)
def file_slot_ok(S, T, pb, x):
    """Filing display slot ``x`` (= d*MAX_DISPLAY + k) is legal."""
    return can_file(S, pb) and display_card(S, T, x // MAX_DISPLAY, x % MAX_DISPLAY) != NO_CARD


@njit(cache=True)
def file_card(S, T, pb, card):
    """Put ``card`` into the archive and trigger the file machines (a File, G6/G9)."""
    archive_add(S, pb, card)
    trigger_file(S, T, pb)


@njit(cache=True)
def do_file(S, T, pb, x):
    """File display slot ``x``: archive it, refill the slot, then trigger (G6, G13)."""
    d = x // MAX_DISPLAY
    k = x % MAX_DISPLAY
    card = display_card(S, T, d, k)
    refill_slot(S, d, k)
    file_card(S, T, pb, card)
