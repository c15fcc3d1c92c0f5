"""Pick (G7, G14): a marble from the row into storage; pick machines of its colour wait."""
from numba import njit

from .gz_energy import take_from_row
from .gz_triggers import trigger_pick


@njit(cache=True)
def do_pick(S, T, pb, c):
    """Take a marble of colour ``c`` (legality checked by the caller: ``pick_ok``); the row is
    topped up before the event triggers machines (G13)."""
    take_from_row(S, T, pb, c)
    trigger_pick(S, T, pb, c)
