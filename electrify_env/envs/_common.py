"""Shared pieces of the environments: argument checking, card sets, scenario tables, spaces and
the buffers handed to the jitted functions of :mod:`electrify_env.kernels.batch`."""
from __future__ import annotations

from pathlib import Path
from typing import Sequence

import numpy as np

from ..cards import CardSet
from ..kernels import batch as B
from ..engine import layout as L
from ..engine.observe import OBS_SIZE, observation_rows
from ..game import SAVE_FORMAT, SAVE_VERSION, Game, _face_table, resolve_card_set
from ..validation import (  # noqa: F401  (check_float: the envs import it here)
    InvalidArgumentError, check_action, check_float, check_seed, check_seed_run, tech_pack_options,
)
from ..validation import check_players as _check_players
from ..scenarios import Scenario, list_scenarios, load_scenario

SOLO_REWARD_MODES = ("win", "score", "shaped")
SEAT_REWARD_MODES = ("win", "score", "shaped", "margin")
DEFAULT_POINTS_SCALE = 0.1   # one-seat modes: reward per energy point
DEFAULT_WIN_BONUS = 1.0      # "shaped": weight of the terminal win reward



def card_set_and_options(card_set, tech_packs) -> tuple[CardSet, int]:
    """The card set (a CardSet, a path, or None for the base set) with the tech packs (one
    shipped name or path, or a sequence of them), and the ``init_state`` option bits that
    shuffle every pack in (as :class:`~electrify_env.Game` resolves them)."""
    cards = resolve_card_set(card_set, tech_packs)
    return cards, tech_pack_options(len(cards.pack_names))


def scenario_list(scenario) -> list[Scenario]:
    """``None`` -> every shipped scenario; an id, path or Scenario -> that one; a sequence -> those."""
    if scenario is None:
        return [load_scenario(s) for s in list_scenarios()]
    if isinstance(scenario, (str, Path, Scenario)):
        scenario = [scenario]
    try:
        items = list(scenario)   # a 0-d numpy array passes isinstance(x, Iterable) but raises here
    except TypeError:
        raise InvalidArgumentError(f"scenario must be None, a scenario id, a path, a Scenario or a sequence "
                                   f"of them, got {scenario!r}") from None
    out = [s if isinstance(s, Scenario) else load_scenario(s) for s in items]
    if not out:
        raise InvalidArgumentError("scenario: give at least one scenario id, or None for all of them")
    return out


def scenario_table(scenarios: Sequence[Scenario] | None) -> np.ndarray:
    """The read-only (n, SC_SIZE) int64 table of the jitted functions (a zero row when None)."""
    if scenarios:
        SCS = np.ascontiguousarray(np.stack([s.table for s in scenarios]).astype(np.int64))
    else:
        SCS = np.zeros((1, L.SC_SIZE), dtype=np.int64)
    SCS.flags.writeable = False
    return SCS


def reward_code(reward_mode: str, allowed: Sequence[str]) -> int:
    """The RM_* code of a reward mode name, or a ValueError listing the allowed names."""
    if reward_mode not in allowed:
        raise ValueError(f"reward_mode must be one of {', '.join(map(repr, allowed))}, got {reward_mode!r}")
    return B.REWARD_MODES[reward_mode]


def check_render_mode(render_mode, allowed: Sequence[str]):
    """None or one of ``allowed``."""
    if render_mode is not None and render_mode not in allowed:
        raise ValueError(f"render_mode must be None or one of {', '.join(map(repr, allowed))}, got {render_mode!r}")
    return render_mode


def check_players(n_players) -> int:
    """2, 3 or 4 (the multiplayer envs; :func:`electrify_env.validation.check_players`)."""
    return _check_players(n_players, solo=False)


def check_reset_seed(seed, count: int = 1, name: str = "seed"):
    """``reset(seed=...)`` of every env: None, or an integer 0..2**62-1 (with ``count`` games
    seeded ``seed, seed+1, ...``: the last one too); the same message as ``Game(seed=...)``."""
    if seed is None:
        return None
    return check_seed_run(seed, count, name) if count > 1 else check_seed(seed, name)


def check_seat(seat, n_players: int) -> int:
    """A seat 0..n_players-1, or None (drawn from each episode's seed) -> -1."""
    if seat is None:
        return -1
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n_players:
        raise ValueError(f"seat must be None or an integer 0..{n_players - 1}, got {seat!r}")
    return int(seat)


def as_action(action) -> int:
    """An action id as a Python int (ints, numpy integers, 0-d integer arrays); else
    IllegalActionError (:func:`electrify_env.validation.check_action`)."""
    return check_action(action)


def illegal_message(action: int, mask: np.ndarray, who: str) -> str:
    """Text of an IllegalActionError."""
    if not mask.any():
        return f"action {action}: the episode is over (or reset() was not called); call reset()"
    what = f"out of range 0..{L.N_ACTIONS - 1}" if not 0 <= action < L.N_ACTIONS else "not legal now"
    legal = np.flatnonzero(mask).tolist()
    return f"action {action} is {what} for {who}; legal ids: {legal}"


def game_snapshot(cards: CardSet, scenario: Scenario | None, n_players: int, seed: int,
                  options: int, state: np.ndarray) -> Game:
    """A :class:`~electrify_env.Game` holding a copy of ``state`` (for rendering, describing
    actions, or search from the current position).  Its ``history`` is empty."""
    data = {
        "format": SAVE_FORMAT, "version": SAVE_VERSION, "state_version": L.STATE_VERSION,
        "card_set": {"paths": [str(p) for p in cards.paths], "hash": cards.hash},
        "scenario": None if scenario is None else {"path": str(scenario.path), "hash": scenario.hash},
        "n_players": n_players, "seed": seed, "options": options, "actions": [],
        "state": state.tolist(),
    }
    return Game.from_dict(data, card_set=cards)


class SharedViews:
    """Base of the objects whose attributes include numpy views into their other arrays (a row
    of a batch buffer, the int8 view of a uint8 mask), so that copies stay whole.

    ``pickle``, ``copy.deepcopy`` and ``cloudpickle`` copy each array on its own: a copied view
    no longer sees the writes to its copied base, and a copied env would hand out stale
    observations and masks.  A subclass names its views in ``_VIEWS`` and (re)creates them in
    :meth:`_bind_views`; the pickled state leaves them out and :meth:`__setstate__` rebuilds
    them.  Arrays marked read-only stay read-only in the copy (pickle drops the flag, and numba
    would compile a second version of every jitted function for writable tables).
    """

    _VIEWS: tuple[str, ...] = ()
    _READONLY_KEY = "__readonly_arrays__"

    def _bind_views(self) -> None:
        """Create the attributes named in ``_VIEWS`` from the arrays they view (none here)."""

    def __getstate__(self) -> dict:
        """The instance dict without the views, plus the names of the read-only arrays."""
        state = {k: v for k, v in self.__dict__.items() if k not in self._VIEWS}
        state[self._READONLY_KEY] = [k for k, v in state.items()
                                     if isinstance(v, np.ndarray) and not v.flags.writeable]
        return state

    def __setstate__(self, state: dict) -> None:
        """Restore the instance dict, mark the read-only arrays again and rebuild the views."""
        state = dict(state)
        readonly = state.pop(self._READONLY_KEY, ())
        self.__dict__.update(state)
        for name in readonly:
            getattr(self, name).flags.writeable = False
        self._bind_views()


class Buffers(SharedViews):
    """The arrays of ``n`` environments for :mod:`electrify_env.kernels.batch` (see its docs).

    ``obs`` alternates between two buffers (``flip()``), so an observation array returned by a
    step stays valid during the next step.  Copies (pickle, deepcopy) are independent and whole
    (:class:`SharedViews`).
    """

    _VIEWS = ("obs", "masks_i8")

    def __init__(self, n: int) -> None:
        self.n = n
        self.states = np.zeros((n, L.S_SIZE), dtype=np.int64)
        self.E = np.zeros((n, B.E_SIZE), dtype=np.int64)
        self.R = np.zeros((n, B.R_SIZE), dtype=np.float64)
        self.FI = np.zeros((n, B.FI_SIZE), dtype=np.int64)
        self._obs = (np.zeros((n, OBS_SIZE), dtype=np.float32), np.zeros((n, OBS_SIZE), dtype=np.float32))
        self._k = 0
        self.final_obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self.masks = np.zeros((n, L.N_ACTIONS), dtype=np.uint8)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.terms = np.zeros(n, dtype=np.bool_)
        self.actions = np.zeros(n, dtype=np.int64)
        self._bind_views()

    def _bind_views(self) -> None:
        """``obs``: the current observation buffer; ``masks_i8``: the masks seen as int8."""
        self.obs = self._obs[self._k]
        self.masks_i8 = self.masks.view(np.int8)

    def flip(self) -> np.ndarray:
        """Switch to the other observation buffer and return it."""
        self._k ^= 1
        self.obs = self._obs[self._k]
        return self.obs


def table_for(cards: CardSet) -> tuple[np.ndarray, np.ndarray]:
    """(T, FF): the read-only card table and face-feature table of a card set."""
    return cards.table, _face_table(cards)


def observation_table() -> str:
    """The top-level fields of the observation as a Markdown table (for the env docstrings;
    ``docs/observation.md`` has every field)."""
    rows = ["    | field | offset | length | meaning |", "    |---|---:|---:|---|"]
    for name, off, length, meaning in observation_rows()["observation"]:
        rows.append(f"    | ``{name}`` | {off} | {length} | {meaning} |")
    return "\n".join(rows)


def with_observation_table(cls):
    """Class decorator: put :func:`observation_table` where the docstring says ``{obs_table}``."""
    cls.__doc__ = cls.__doc__.replace("{obs_table}", observation_table().strip())
    return cls
