"""Shared pieces of the Gizmos environments: argument checks, action ids, seeds and the text view."""
from __future__ import annotations

import operator

import numpy as np

from ...validation import MAX_SEED, IllegalActionError, InvalidArgumentError, as_int
from ..engine import gz_layout as L
from ..game import Game

__all__ = ["N_ACTIONS", "MAX_SEED", "CopyableEnv", "check_players", "check_render_mode", "as_action",
           "illegal_message", "draw_game_seed", "render_text"]

N_ACTIONS = L.N_ACTIONS


class CopyableEnv:
    """Base of the Gizmos envs: ``pickle``, ``copy.deepcopy`` and ``cloudpickle`` give an
    independent env that plays on from the same position.  A copy's card table is marked
    read-only again (pickle drops the flag, and numba would compile a second version of every
    jitted function for a writable table)."""

    def __setstate__(self, state: dict) -> None:
        """Restore the instance dict and mark the card tables read-only."""
        self.__dict__.update(state)
        for obj in (self.__dict__.get("_cards"), getattr(self.__dict__.get("game"), "cards", None)):
            if obj is not None:
                obj.table.flags.writeable = False


def check_players(n_players) -> int:
    """2, 3 or 4 (:class:`InvalidArgumentError` otherwise)."""
    n = as_int(n_players, "n_players")
    if not 2 <= n <= L.MAX_PLAYERS:
        raise InvalidArgumentError(f"n_players must be 2, 3 or 4, got {n}")
    return n


def check_render_mode(render_mode, allowed) -> str | None:
    """None or one of ``allowed`` (:class:`InvalidArgumentError` otherwise)."""
    if render_mode is not None and render_mode not in allowed:
        raise InvalidArgumentError(f"render_mode must be None or one of {', '.join(map(repr, allowed))}, "
                                   f"got {render_mode!r}")
    return render_mode


def as_action(action) -> int:
    """An action id as a Python int (ints, numpy integers, 0-d integer arrays); bools, floats,
    strings and None raise :class:`IllegalActionError`."""
    if isinstance(action, (bool, np.bool_)) or (isinstance(action, np.ndarray) and action.dtype == np.bool_):
        raise IllegalActionError(f"action must be an integer id 0..{N_ACTIONS - 1}, got {action!r}")
    try:
        return operator.index(action)
    except TypeError:
        raise IllegalActionError(f"action must be an integer id 0..{N_ACTIONS - 1}, got {action!r:.60}") from None


def illegal_message(action: int, mask: np.ndarray, who: str) -> str:
    """The one-line text of an :class:`IllegalActionError`: the id, why, who, the legal ids."""
    if not mask.any():
        return f"action {action}: the episode is over (or reset() was not called); call reset()"
    what = f"out of range 0..{N_ACTIONS - 1}" if not 0 <= action < N_ACTIONS else "not legal now"
    return f"action {action} is {what} for {who}; legal ids: {np.flatnonzero(mask).tolist()}"


def draw_game_seed(rng: np.random.Generator) -> int:
    """A game seed 0..2**62-1 drawn from the env's generator."""
    return int(rng.integers(0, MAX_SEED, endpoint=True))


def render_text(game: Game | None) -> str:
    """The table as text: round, phase, row, dispenser, decks, display, every player's
    machines, archive, storage, tokens and limits, and the pending decision (what any seat
    sees; the researcher's drawn cards are listed while it chooses)."""
    if game is None:
        return "(no game yet: call reset())"
    v = game.public_view(game.current_player)
    cols = ("red", "yellow", "blue", "black")

    def marbles(counts) -> str:
        return " ".join(f"{c} {n}" for c, n in zip(cols, counts))

    head = (f"Gizmos, {game.n_players} players, round {v['round']}, "
            + ("game over" if v["done"] else f"player {v['current_player']} to move ({v['phase']})"))
    lines = [head, f"row: {marbles(v['row'])} | dispenser: {marbles(v['dispenser'])} | "
                   f"decks: I {v['deck_sizes'][0]}, II {v['deck_sizes'][1]}, III {v['deck_sizes'][2]}"]
    for d, slots in enumerate(v["display"]):
        lines.append(f"display {('I', 'II', 'III')[d]}: " + " ".join(c or "-" for c in slots))
    scores = game.scores()
    for p, pl in enumerate(v["players"]):
        lim = pl["limits"]
        lines.append(f"player {p}: {scores[p]} points, tokens {pl['tokens']}, storage {marbles(pl['storage'])} "
                     f"(limit {lim['storage']}), archive [{', '.join(pl['archive'])}] (limit {lim['archive']}), "
                     f"research {lim['research']}")
        lines.append(f"  machines: {', '.join(pl['machines'])}")
    if v["researching"]:
        lines.append(f"researching: {', '.join(v['researching'])}")
    if not v["done"]:
        d = game.decision()
        lines.append(f"decision: {d.context}; {len(d.options)} legal ids")
    return "\n".join(lines)
