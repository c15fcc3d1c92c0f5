"""Argument checks shared by every public entry point: ``Game``, ``electrify`` commands, soak runs
and the environments call these, so a bad argument gets the same one-line message everywhere.

Each check returns the normalised value or raises :class:`InvalidArgumentError` (a ``ValueError``)
whose message starts with the argument's name and states the allowed range; action ids raise
:class:`IllegalActionError` (also a ``ValueError``).

Ranges (one definition each):

================ ===========================================================================
player counts    2, 3 or 4; 1 only in a solo scenario game (:func:`check_players`)
seeds            integers 0 .. ``MAX_SEED`` = 2**62 - 1 (:func:`check_seed`)
game counts      positive integers (:func:`check_count`)
real numbers     finite ints, floats or numpy numbers (:func:`check_float`)
action ids       integers 0 .. ``N_ACTIONS`` - 1 (:func:`check_action`)
tech packs       a pack name or path, or a sequence of them (:func:`check_tech_packs`)
================ ===========================================================================

Integers are Python ints or numpy integers; ``bool``, floats (even ``3.0``), strings and None
are refused rather than converted.
"""
from __future__ import annotations

import math
import numbers
import operator
from pathlib import Path

import numpy as np

from .engine import layout as L
from .kernels.batch import MAX_SEED  # the engine draws autoreset seeds below it: one definition

MIN_PLAYERS_MULTI = 2


class InvalidArgumentError(ValueError):
    """An argument outside its documented range or of the wrong type; the message names it."""


class IllegalActionError(ValueError):
    """Raised by :meth:`Game.step` (and the envs) for an action id that is not legal now; the
    state is unchanged."""


def as_int(value, name: str) -> int:
    """``value`` as a Python int: ints and numpy integers (also 0-d integer arrays); bools,
    floats, strings and None raise :class:`InvalidArgumentError` naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or (isinstance(value, np.ndarray) and value.dtype == np.bool_):
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}")
    try:
        return operator.index(value)
    except TypeError:
        raise InvalidArgumentError(f"{name} must be an integer, got {value!r}") from None


def check_float(name: str, value) -> float:
    """A finite real number as a float: an int, a float or a numpy number; bools, strings, None,
    arrays, nan, infinities and ints beyond float range raise :class:`InvalidArgumentError`
    naming ``name``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise InvalidArgumentError(f"{name} must be a number, got {value!r:.80}")
    try:
        v = float(value)
    except OverflowError:
        raise InvalidArgumentError(f"{name} must be finite, got a number beyond float range") from None
    if not math.isfinite(v):
        raise InvalidArgumentError(f"{name} must be finite, got {value!r}")
    return v


def check_players(n_players, solo: bool = False, name: str = "n_players") -> int:
    """A player count: 2, 3 or 4, or exactly 1 when ``solo`` (a scenario game)."""
    n = as_int(n_players, name)
    if solo:
        if n != 1:
            raise InvalidArgumentError(f"{name} must be 1 in a solo scenario game, got {n}")
        return n
    if n == 1:
        raise InvalidArgumentError(f"{name}=1 is solo play: give a scenario (see `electrify scenarios`)")
    if not MIN_PLAYERS_MULTI <= n <= L.MAX_PLAYERS:
        raise InvalidArgumentError(f"{name} must be 2, 3 or 4 (or 1 with a scenario), got {n}")
    return n


def check_seed(seed, name: str = "seed") -> int:
    """A game seed: an integer 0 .. 2**62-1 (``MAX_SEED``)."""
    s = as_int(seed, name)
    if not 0 <= s <= MAX_SEED:
        raise InvalidArgumentError(f"{name} must be an integer 0..2**62-1, got {s}")
    return s


def check_state(value, size: int, n_players: int, players_at: int, name: str = "infoset") -> np.ndarray:
    """An engine state of a game of ``n_players``: an integer array of length ``size`` whose
    entry ``players_at`` holds the player count; returned as int64 (not copied when it is)."""
    src = np.asarray(value)
    if src.shape != (size,) or not np.issubdtype(src.dtype, np.integer):
        raise InvalidArgumentError(f"{name} must be an int64 state of length {size}, got {src.dtype} {src.shape}")
    if int(src[players_at]) != n_players:
        raise InvalidArgumentError(f"{name} is of a {int(src[players_at])}-player game, this game "
                                   f"has {n_players} players")
    return src.astype(np.int64, copy=False)


def check_seed_run(seed, count: int, name: str = "seed") -> int:
    """The first seed of ``count`` consecutive seeds ``seed, seed+1, ...`` that must all lie in
    0 .. 2**62-1 (soak runs, vector envs)."""
    s = check_seed(seed, name)
    if s + count - 1 > MAX_SEED:
        raise InvalidArgumentError(f"{name} must be at most 2**62-{count} so that the {count} seeds "
                                   f"{name}, {name}+1, ... stay below 2**62, got {s}")
    return s


def check_count(value, name: str = "games") -> int:
    """A positive integer count (games, environments, worker processes)."""
    n = as_int(value, name)
    if n < 1:
        raise InvalidArgumentError(f"{name} must be a positive integer, got {n}")
    return n


def check_action(action) -> int:
    """An action id 0 .. N_ACTIONS-1 as a Python int; anything else raises
    :class:`IllegalActionError` (the caller then adds what is legal)."""
    if isinstance(action, (bool, np.bool_)) or (isinstance(action, np.ndarray) and action.dtype == np.bool_):
        raise IllegalActionError(f"action must be an integer id 0..{L.N_ACTIONS - 1}, got {action!r}")
    try:
        a = operator.index(action)
    except TypeError:
        raise IllegalActionError(f"action must be an integer id 0..{L.N_ACTIONS - 1}, got {action!r}") from None
    return a


def action_in_range(a: int) -> bool:
    """True when the int ``a`` is an id of the action space (it may still be illegal now)."""
    return 0 <= a < L.N_ACTIONS


def check_tech_packs(tech_packs, name: str = "tech_packs") -> tuple[str | Path, ...]:
    """Tech packs as a tuple: one pack name or path (``"grid"``), or a sequence of them
    (``("grid", "market")``); None means none."""
    if tech_packs is None:
        return ()
    if isinstance(tech_packs, (str, Path)):
        return (tech_packs,)
    try:
        packs = tuple(tech_packs)
    except TypeError:
        raise InvalidArgumentError(f"{name} must be a pack name, a path, or a sequence of them, "
                                   f"got {tech_packs!r}") from None
    for p in packs:
        if not isinstance(p, (str, Path)):
            raise InvalidArgumentError(f"{name} must hold pack names or paths, got {p!r}")
    return packs


def tech_pack_options(n_packs: int) -> int:
    """The ``init_state`` option bits that shuffle in every pack of a set with ``n_packs`` tech
    packs (pack ``k`` is bit ``k``, ``k = 1..n_packs``)."""
    return sum(1 << k for k in range(1, n_packs + 1))
