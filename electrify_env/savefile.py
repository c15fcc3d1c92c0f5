"""Reading saved games safely: every field of a save is checked before any jitted code sees it.

A save (``Game.to_dict`` / ``to_json`` / ``save``) is a JSON object::

    {"format": "electrify-game", "version": 1, "state_version": 1,
     "card_set": {"paths": [...], "hash": "..."}, "scenario": null | {"path": ..., "hash": ...},
     "n_players": 2, "seed": 0, "options": 0, "actions": [...], "state": [... S_SIZE ints ...]}

The jitted engine indexes arrays with values read from the state and does not bounds-check, so
an edited save could crash the interpreter.  :func:`read_save` therefore checks, in order (each
check is one function below, listed in :data:`STATE_CHECKS`):

1. the JSON shape: an object with exactly the keys above, each of its type (ints are ints, not
   floats or bools; strings and lists not empty where they must not be);
2. the card set (reloaded from the saved paths, or given) has the saved hash, and the scenario
   too; ``n_players``, ``seed`` and ``options`` are in range and agree with them;
3. the state: ``S_SIZE`` integers, then every field of ``engine/layout.py`` in its range and
   consistent with the others: header, generator, decks and discard piles, basic-card supply,
   demand cards, each player block (cubes, research, sectors and their cards, charges, hand,
   plan and boost; unused seats all zero), the solo fields (equal to what the scenario and the
   random level give; token and star accounting), the decision stack (frame types, every frame
   argument, the order the engine stacks frames in, what a pending payment, placement or
   breakthrough pick needs), and conservation: every industry card of the set that is in play
   lies in exactly one place (deck, discard pile, hand, sector, or a frame of a card being
   placed) and the others nowhere, each basic card likewise;
4. last, with every index known to be in range, two checks that reuse the engine's own rules on
   a copy (rather than a second copy of them here): the automatic steps leave the state as it is
   (the save waits at a real decision) and a game in progress has a legal action;
5. optionally (``verify_actions=True``) that replaying ``actions`` from the seed reproduces the
   saved state exactly.

Any failure raises :class:`InvalidSaveError` (a ``ValueError``) whose message starts with the
field, e.g. ``state[S_SP]: frames on the decision stack must be 0..64, got 1000000``.  Steps 1-3
run in numpy, not in numba: loads are rare and a readable check is worth more than a fast one
(about 1 ms a save).

The engine keeps no count of a cube supply (produce makes new cubes), so "cube conservation"
here means: cube counts, points and tokens are non-negative and at most :data:`MAX_COUNT`, a
charge cube sits only on a sector tile or on an occupied card slot (at most one each), cubes
owed for a card are in the depot, and the solo boost tokens add up to the box's four
innovation and three collaboration tokens.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .cards import DEFAULT_CARDS_DIR, CardSet, CardSetError, load_card_set
from .engine import layout as L
from .engine.masks import fill_mask
from .engine.setup import init_state
from .engine.solo import init_solo
from .engine.step import advance, step_checked
from .scenarios import SCENARIOS_DIR, Scenario, ScenarioError, load_scenario
from .validation import MAX_SEED, tech_pack_options

SAVE_FORMAT = "electrify-game"
SAVE_VERSION = 1

# Largest cube count (one column), score, clean-token count, research total, decision count,
# icon uses or reward value a save may hold.  Games stay far below it (random, greedy and mcts
# games reach a few dozen points and cubes and a few thousand decisions); it keeps every sum the
# engine forms (cube values, multipliers) far inside int64.
MAX_COUNT = 1_000_000

SAVE_KEYS = ("format", "version", "state_version", "card_set", "scenario", "n_players", "seed",
             "options", "actions", "state")

FRAME_FIELDS = ("FR_TYPE", "FR_A", "FR_B", "FR_C", "FR_D", "FR_E", "FR_F", "FR_G")
FRAME_TYPE_NAMES = {getattr(L, n): n for n in dir(L) if n.startswith("FT_") and n != "FT_NONE"}
AUTOMATIC_FRAMES = (L.FT_CHARGE, L.FT_RESEARCH, L.FT_TURN_END)
MAX_INVEST_QUEUE = 62   # invest draws queued in one FT_ICON frame (bits of FR_E)


class InvalidSaveError(ValueError):
    """A saved game (dict, JSON text or file) that cannot be loaded.  ``field`` names the entry
    (``"seed"``, ``"card_set.hash"``, ``"state[S_PLAYERS[1].P_HAND[3]]"``, ``"actions[17]"``)
    and the message starts with it."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        super().__init__(f"{field}: {message}")


@dataclass(frozen=True)
class SaveContents:
    """A checked save: everything :class:`~electrify_env.Game` needs to resume it."""

    cards: CardSet
    scenario: Scenario | None
    n_players: int
    seed: int
    options: int
    actions: list[int]
    state: np.ndarray     # int64, (S_SIZE,), a fresh array


# ----------------------------------------------------------------------------------------------
# Naming state offsets
# ----------------------------------------------------------------------------------------------
_ROWS = L.layout_rows()
_S_ROWS = _ROWS["state S"]
_P_ROWS = _ROWS["player block"]


def _row_name(rows, off: int) -> str:
    for name, start, length, _ in rows:
        if start <= off < start + length:
            return name if length == 1 else f"{name}[{off - start}]"
    return f"+{off}"


def state_field(off: int) -> str:
    """The layout name of state offset ``off``: ``S_SP``, ``S_DECK[3]``,
    ``S_PLAYERS[1].P_HAND[0]``, ``S_STACK[2].FR_B``."""
    if L.S_PLAYERS <= off < L.S_PLAYERS + L.MAX_PLAYERS * L.P_SIZE:
        p, r = divmod(off - L.S_PLAYERS, L.P_SIZE)
        return f"S_PLAYERS[{p}].{_row_name(_P_ROWS, r)}"
    if L.S_STACK <= off < L.S_STACK + L.MAX_STACK * L.FRAME:
        i, r = divmod(off - L.S_STACK, L.FRAME)
        return f"S_STACK[{i}].{FRAME_FIELDS[r]}"
    return _row_name(_S_ROWS, off)


def _state_error(off: int, message: str) -> InvalidSaveError:
    return InvalidSaveError(f"state[{state_field(off)}]", message)


# ----------------------------------------------------------------------------------------------
# The JSON shape
# ----------------------------------------------------------------------------------------------
def _int(value, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InvalidSaveError(field, f"must be an integer, got {value!r}")
    v = int(value)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise InvalidSaveError(field, f"must be {lo}..{hi}, got {v}")
    return v


def _text(value, field: str) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidSaveError(field, f"must be a non-empty string, got {value!r}")
    return value


def _mapping(value, field: str, keys: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise InvalidSaveError(field, f"must be a JSON object, got {type(value).__name__}")
    missing = [k for k in keys if k not in value]
    if missing:
        raise InvalidSaveError(field, f"missing key{'s' if len(missing) > 1 else ''} {', '.join(map(repr, missing))}")
    extra = sorted(str(k) for k in value if k not in keys)
    if extra:
        raise InvalidSaveError(field, f"unknown key{'s' if len(extra) > 1 else ''} {', '.join(map(repr, extra))}")
    return value


def check_shape(data) -> dict:
    """The top level: an object with exactly :data:`SAVE_KEYS`, the right format and versions."""
    if not isinstance(data, dict):
        raise InvalidSaveError("save", f"must be a JSON object, got {type(data).__name__}")
    if data.get("format") != SAVE_FORMAT:
        raise InvalidSaveError("format", f"not an electrify game save (format must be {SAVE_FORMAT!r}, "
                                         f"got {data.get('format')!r})")
    _mapping(data, "save", SAVE_KEYS)
    if data["version"] != SAVE_VERSION or data["state_version"] != L.STATE_VERSION \
            or isinstance(data["version"], bool) or isinstance(data["state_version"], bool):
        raise InvalidSaveError("version", f"save version {data['version']!r}/{data['state_version']!r} is "
                                          f"not supported (this engine writes {SAVE_VERSION}/{L.STATE_VERSION})")
    return data


def load_save_card_set(entry, card_set: CardSet | None) -> CardSet:
    """The card set of a save: ``card_set`` if given, else reloaded from ``card_set.paths``
    (relative paths are inside ``configs/cards``); its hash must be the saved one."""
    entry = _mapping(entry, "card_set", ("paths", "hash"))
    paths = entry["paths"]
    if not isinstance(paths, list) or not paths:
        raise InvalidSaveError("card_set.paths", f"must be a non-empty list of paths, got {paths!r}")
    for k, p in enumerate(paths):
        _text(p, f"card_set.paths[{k}]")
    saved_hash = _text(entry["hash"], "card_set.hash")
    if card_set is None:
        files = [_unportable(p, DEFAULT_CARDS_DIR) for p in paths]
        for k, f in enumerate(files):
            _regular_file(f, f"card_set.paths[{k}]")
        try:
            card_set = load_card_set(files[0], tech_packs=tuple(files[1:]))
        except (CardSetError, OSError, ValueError) as err:
            raise InvalidSaveError("card_set.paths", f"the card set does not load: {err}") from None
    elif not isinstance(card_set, CardSet):
        raise InvalidSaveError("card_set", f"the card_set argument must be a CardSet or None, got {card_set!r}")
    if card_set.hash != saved_hash:
        raise InvalidSaveError("card_set.hash", "the card set differs from the one the game was saved with "
                                                f"(hash {card_set.hash[:12]} != {saved_hash[:12]})")
    return card_set


def load_save_scenario(entry) -> Scenario | None:
    """The scenario of a save (None for a multiplayer game); its hash must be the saved one."""
    if entry is None:
        return None
    entry = _mapping(entry, "scenario", ("path", "hash"))
    path = _text(entry["path"], "scenario.path")
    saved_hash = _text(entry["hash"], "scenario.hash")
    _regular_file(_unportable(path, SCENARIOS_DIR), "scenario.path")
    try:
        scenario = load_scenario(_unportable(path, SCENARIOS_DIR))
    except (ScenarioError, OSError, ValueError) as err:
        raise InvalidSaveError("scenario.path", f"the scenario does not load: {err}") from None
    if scenario.hash != saved_hash:
        raise InvalidSaveError("scenario.hash", "the scenario differs from the one the game was saved with")
    return scenario


def read_actions(actions) -> list[int]:
    """``actions``: a list of action ids 0..N_ACTIONS-1."""
    if not isinstance(actions, (list, tuple)):
        raise InvalidSaveError("actions", f"must be a list of action ids, got {type(actions).__name__}")
    return [_int(a, f"actions[{k}]", 0, L.N_ACTIONS - 1) for k, a in enumerate(actions)]


def read_state(state) -> np.ndarray:
    """``state``: S_SIZE integers (a list, or a 1-d numpy integer array), as a fresh int64 array.
    Floats, bools and integers outside int64 are refused, not converted."""
    if isinstance(state, np.ndarray):
        if state.ndim != 1 or state.dtype == np.bool_ or not np.issubdtype(state.dtype, np.integer):
            raise InvalidSaveError("state", f"must be a list of {L.S_SIZE} integers, got an array of "
                                            f"{state.dtype} with shape {state.shape}")
        values = state.tolist()
    elif isinstance(state, (list, tuple)):
        values = state
    else:
        raise InvalidSaveError("state", f"must be a list of {L.S_SIZE} integers, got {type(state).__name__}")
    if len(values) != L.S_SIZE:
        raise InvalidSaveError("state", f"has length {len(values)}, expected {L.S_SIZE}")
    for off, v in enumerate(values):
        if type(v) is not int and (isinstance(v, bool) or not isinstance(v, (int, np.integer))):
            raise _state_error(off, f"must be an integer, got {v!r}")
        if not -(1 << 63) <= v < (1 << 63):
            raise _state_error(off, f"is outside int64: {v}")
    return np.array(values, dtype=np.int64)


def read_save(data, card_set: CardSet | None = None, verify_actions: bool = False) -> SaveContents:
    """Check a save dict completely (see the module docstring) and return its contents.

    Raises:
        InvalidSaveError: naming the first field that is wrong.
    """
    check_shape(data)
    cards = load_save_card_set(data["card_set"], card_set)
    scenario = load_save_scenario(data["scenario"])
    solo = scenario is not None
    n_players = _int(data["n_players"], "n_players", 1, L.MAX_PLAYERS)
    if solo and n_players != 1:
        raise InvalidSaveError("n_players", f"must be 1 in a solo scenario game, got {n_players}")
    if not solo and n_players < 2:
        raise InvalidSaveError("n_players", f"must be 2, 3 or 4 without a scenario, got {n_players}")
    seed = _int(data["seed"], "seed", 0, MAX_SEED)
    options = _int(data["options"], "options")
    if options != tech_pack_options(len(cards.pack_names)):
        raise InvalidSaveError("options", f"must be {tech_pack_options(len(cards.pack_names))} for a card set "
                                          f"with tech packs {list(cards.pack_names)}, got {options}")
    actions = read_actions(data["actions"])
    state = read_state(data["state"])
    check_state(state, cards, scenario, n_players, options)
    if actions and len(actions) != state[L.S_DECISIONS]:
        raise InvalidSaveError("actions", f"holds {len(actions)} ids but the state has made "
                                          f"{int(state[L.S_DECISIONS])} decisions (S_DECISIONS)")
    if verify_actions:
        check_actions_replay(state, cards, scenario, n_players, seed, options, actions)
    return SaveContents(cards, scenario, n_players, seed, options, actions, state)


def _regular_file(path: Path, field: str) -> None:
    """A save names files to read: only regular files (not ``/dev/zero``, a FIFO or a folder)."""
    try:
        ok = path.is_file()
    except (OSError, ValueError):
        ok = False
    if not ok:
        raise InvalidSaveError(field, f"{str(path)!r} is not a readable file")


def _unportable(text: str, folder: Path) -> Path:
    p = Path(text)
    return p if p.is_absolute() else folder / p


# ----------------------------------------------------------------------------------------------
# The state, field by field
# ----------------------------------------------------------------------------------------------
class _Ctx:
    """What the state checks read: the state, the card table and the save's facts."""

    def __init__(self, S: np.ndarray, cards: CardSet, scenario: Scenario | None, n: int, options: int):
        self.S = S
        self.T = cards.table
        self.cards = cards
        self.scenario = scenario
        self.n = n
        self.options = options
        self.n_ind = int(self.T[L.T_N_IND])
        self.n_basic = int(self.T[L.T_N_BASIC])
        self.n_demand = int(self.T[L.T_N_DEMAND])

    def val(self, off: int) -> int:
        """The state value at ``off`` as a Python int."""
        return int(self.S[off])

    def expect(self, off: int, lo: int, hi: int, what: str) -> int:
        """The value at ``off``, which must lie in lo..hi."""
        v = int(self.S[off])
        if not lo <= v <= hi:
            raise _state_error(off, f"{what} must be {lo}..{hi}, got {v}")
        return v

    def expect_eq(self, off: int, want: int, what: str) -> None:
        """The value at ``off`` must be ``want``."""
        v = int(self.S[off])
        if v != want:
            raise _state_error(off, f"{what} must be {want}, got {v}")

    def expect_zero(self, start: int, length: int, why: str) -> None:
        """``length`` entries from ``start`` must all be 0 (the first other one is named)."""
        block = self.S[start:start + length]
        nz = np.flatnonzero(block)
        if nz.size:
            off = start + int(nz[0])
            raise _state_error(off, f"must be 0 ({why}), got {int(self.S[off])}")

    # faces -----------------------------------------------------------------------------------
    def card_face(self, off: int, what: str) -> int:
        """An industry card id (< T_N_IND) or a basic face of a basic card of the set."""
        f = int(self.S[off])
        if 0 <= f < self.n_ind:
            return f
        if L.FACE_BASIC <= f < L.FACE_BASIC + 2 * self.n_basic and self.T[L.T_F_KIND + f] == L.KIND_BASIC:
            return f
        raise _state_error(off, f"{what} must be an industry card 0..{self.n_ind - 1} or a basic face "
                                f"{L.FACE_BASIC}..{L.FACE_BASIC + 2 * self.n_basic - 1} of this card set, got {f}")

    def industry_card(self, off: int, what: str) -> int:
        """An industry card id of the set (< T_N_IND)."""
        c = int(self.S[off])
        if not 0 <= c < self.n_ind:
            raise _state_error(off, f"{what} must be an industry card id 0..{self.n_ind - 1}, got {c}")
        return c


def _pb(p: int) -> int:
    return L.S_PLAYERS + p * L.P_SIZE


def _check_header(c: _Ctx) -> None:
    """Version, player count, solo flag and options agree with the save; round, current player,
    end flag and decision count in range."""
    c.expect_eq(L.S_VERSION, L.STATE_VERSION, "the layout version")
    c.expect_eq(L.S_NPLAYERS, c.n, "the player count (the save's n_players)")
    c.expect_eq(L.S_SOLO, int(c.scenario is not None), "the solo flag (1 with a scenario)")
    c.expect_eq(L.S_OPTIONS, c.options, "the option bits (the save's options)")
    c.expect(L.S_ROUND, 0, L.N_ROUNDS, "the round")
    c.expect(L.S_TERMINAL, 0, 1, "the end flag")
    if c.val(L.S_TERMINAL) and c.val(L.S_ROUND) != L.N_ROUNDS:
        raise _state_error(L.S_ROUND, f"a finished game must be in round {L.N_ROUNDS}, got {c.val(L.S_ROUND)}")
    c.expect(L.S_CUR, 0, c.n - 1, "the current player")
    c.expect(L.S_DECISIONS, 0, MAX_COUNT, "the decision count")


def _check_rng(c: _Ctx) -> None:
    """Four 32-bit generator words, not all zero (xorshift128 would stay at zero)."""
    for i in range(4):
        c.expect(L.S_RNG + i, 0, (1 << 32) - 1, "a generator word")
    if not c.S[L.S_RNG:L.S_RNG + 4].any():
        raise _state_error(L.S_RNG, "the generator words must not all be 0")


def _check_piles(c: _Ctx) -> None:
    """Each deck and discard pile: a count 0..MAX_DECK, that many cards of its deck, then -1."""
    for n_off, start, what in ((L.S_DECK_N, L.S_DECK, "deck"), (L.S_DISC_N, L.S_DISC, "discard pile")):
        for d in range(L.N_DECKS):
            n = c.expect(n_off + d, 0, L.MAX_DECK, f"the card count of {what} {d}")
            for i in range(L.MAX_DECK):
                off = start + d * L.MAX_DECK + i
                if i < n:
                    card = c.industry_card(off, f"a card of {what} {d}")
                    if c.T[L.T_IND_DECK + card] != d:
                        raise _state_error(off, f"card {card} ({c.cards.card_ids[card]}) belongs to deck "
                                                f"{int(c.T[L.T_IND_DECK + card])}, not {what} {d}")
                elif c.val(off) != L.NO_CARD:
                    raise _state_error(off, f"an empty place of {what} {d} must be -1, got {c.val(off)}")


def _check_supply(c: _Ctx) -> None:
    """Basic cards in the supply: 0 or 1 each, 0 beyond the set's basic cards."""
    for b in range(L.MAX_BASIC):
        c.expect(L.S_BASIC + b, 0, 1 if b < c.n_basic else 0, "a basic-card supply flag")


def _check_demand(c: _Ctx) -> None:
    """One demand card of each level in play."""
    for lv in range(L.N_LEVELS):
        d = c.expect(L.S_DEMAND + lv, 0, c.n_demand - 1, f"the demand card of level {lv + 1}")
        if c.T[L.T_D_LEVEL + d] != lv:
            raise _state_error(L.S_DEMAND + lv, f"demand card {d} ({c.cards.demand_names[d]}) is of level "
                                                f"{int(c.T[L.T_D_LEVEL + d]) + 1}, not {lv + 1}")


def _check_player(c: _Ctx, p: int) -> None:
    pb = _pb(p)
    solo = c.scenario is not None
    for k in range(L.N_COLS):
        c.expect(pb + L.P_DEPOT + k, 0, MAX_COUNT, "a depot cube count")
        c.expect(pb + L.P_GRID + k, 0, MAX_COUNT, "a grid cube count")
    c.expect(pb + L.P_RESEARCH, 0, L.RESEARCH_TRACK, "the research marker")
    for k in range(L.N_BT_SPACES):
        c.expect(pb + L.P_BT + k, 0, 1, "a breakthrough-space flag")
    c.expect(pb + L.P_CLEAN, 0, MAX_COUNT, "the clean-token count")
    c.expect(pb + L.P_SCORE, 0, MAX_COUNT, "the score")
    for lv in range(L.N_LEVELS):
        c.expect(pb + L.P_FULFILLED + lv, 0, 1, "a fulfilled-demand flag")
    nf = int(c.S[pb + L.P_FULFILLED:pb + L.P_FULFILLED + L.N_LEVELS].sum())
    c.expect_eq(pb + L.P_NFULFILLED, nf, "the fulfilled count (the number of P_FULFILLED flags)")
    c.expect(pb + L.P_DEMANDS_ROUND, 0, nf, "the demands fulfilled this round")
    cols = []
    for s in range(L.N_SECTORS):
        col = c.expect(pb + L.P_SEC_COL + s, 0, L.N_COLS - 1, "a sector column")
        if col in cols:
            raise _state_error(pb + L.P_SEC_COL + s, f"two sectors stand in column {col}")
        cols.append(col)
        c.expect(pb + L.P_SEC_SIDE + s, 0, 1, "a sector side")
        n = c.expect(pb + L.P_SEC_N + s, 0, L.MAX_SLOTS, "a sector's card count")
        c.expect(pb + L.P_SEC_CHARGED + s, 0, 1, "a sector charge cube")
        for k in range(L.MAX_SLOTS):
            off = pb + L.P_SEC_CARD + s * L.MAX_SLOTS + k
            coff = pb + L.P_CARD_CHARGED + s * L.MAX_SLOTS + k
            if k < n:
                c.card_face(off, "a card on a sector")
                c.expect(coff, 0, 1, "a card charge cube")
            else:
                c.expect_eq(off, L.NO_CARD, "an empty sector slot")
                c.expect_eq(coff, 0, "the charge of an empty sector slot")
    hn = c.expect(pb + L.P_HAND_N, 0, L.MAX_HAND, "the hand size")
    prev = -1
    for h in range(L.MAX_HAND):
        off = pb + L.P_HAND + h
        if h < hn:
            card = c.industry_card(off, "a hand card")
            if card <= prev:
                raise _state_error(off, f"hand cards must be ascending and distinct, got {prev} then {card}")
            prev = card
        else:
            c.expect_eq(off, L.NO_CARD, "an empty hand slot")
    c.expect(pb + L.P_PLAN, -1, L.N_SECTORS - 1, "the secret plan choice")
    if c.val(L.S_ROUND) == 0:
        c.expect_eq(pb + L.P_CHOSEN, -1, "the revealed choice before the first reveal")
    else:
        c.expect(pb + L.P_CHOSEN, 0, L.N_SECTORS - 1, "the revealed choice")
    c.expect(pb + L.P_BOOST, L.BOOST_NONE, L.BOOST_COLLABORATION, "the boost")
    c.expect(pb + L.P_RESEARCH_TOTAL, 0, MAX_COUNT, "the research total")
    for k, name in enumerate(L.PTS_SOURCE_NAMES):
        c.expect(pb + L.P_PTS + k, 0, MAX_COUNT, f"the points from {name.replace('_', ' ')}")
    for s in range(L.N_SECTORS):
        off = pb + L.P_SOLO_TOKEN + s
        if solo:
            c.expect(off, L.TOKEN_INNOVATION, L.TOKEN_COLLABORATION, "a solo boost token")
        else:
            c.expect_eq(off, 0, "a solo boost token outside solo play")


def _check_players(c: _Ctx) -> None:
    """Every seat's block in range; the blocks of unused seats all zero."""
    for p in range(c.n):
        _check_player(c, p)
    for p in range(c.n, L.MAX_PLAYERS):
        c.expect_zero(_pb(p), L.P_SIZE, f"seat {p} is not in a {c.n}-player game")


def _check_solo(c: _Ctx) -> None:
    """Solo fields: what the scenario and the random level give (target, bonus levels, stars,
    star points, challenges); star states agree with the round; the boost tokens on the sectors
    and in the bag add up to the box's tokens.  Zero outside solo play."""
    S = c.S
    if c.scenario is None:
        c.expect_zero(L.S_SOLO, L.S_SP - L.S_SOLO, "no scenario is played")
        return
    SC = c.scenario.table
    c.expect_eq(L.S_SOLO_TARGET, int(SC[L.SC_TARGET]), "the scenario's target")
    randoms = c.scenario.random_levels()
    if randoms:
        r = c.val(L.S_SOLO_RLEVEL)
        if r not in randoms:
            raise _state_error(L.S_SOLO_RLEVEL, f"the random level must be one of {list(randoms)}, got {r}")
    else:
        c.expect_eq(L.S_SOLO_RLEVEL, -1, "the random level of a scenario without R")
    r = c.val(L.S_SOLO_RLEVEL)
    c.expect_eq(L.S_SOLO_BONUS, int(SC[L.SC_BONUS]) | ((1 << r) if r >= 0 else 0), "the bonus levels")
    n = int(SC[L.SC_NSTARS])
    c.expect_eq(L.S_SOLO_NSTARS, n, "the scenario's star count")
    rounds = sorted(int(SC[L.SC_STAR_ROUND + i]) + (r + 1 if SC[L.SC_STAR_RPLUS + i] else 0) for i in range(n))
    rnd = c.val(L.S_ROUND)
    for i in range(L.MAX_SCENARIO_STARS):
        if i < n:
            c.expect_eq(L.S_STAR_ROUND + i, rounds[i], "the round of a star")
            st = c.expect(L.S_STAR_STATE + i, 0, 2, "a star state (0 open, 1 claimed, 2 lost)")
            if st == 0 and rnd >= rounds[i]:
                raise _state_error(L.S_STAR_STATE + i, f"a star of round {rounds[i]} is still open in round {rnd}")
            if st == 2 and rnd < rounds[i]:
                raise _state_error(L.S_STAR_STATE + i, f"a star of round {rounds[i]} is lost in round {rnd}")
        else:
            c.expect_eq(L.S_STAR_ROUND + i, 0, "an unused star's round")
            c.expect_eq(L.S_STAR_STATE + i, 2, "an unused star's state")
    for k in range(L.MAX_SCENARIO_STARS + 1):
        c.expect_eq(L.S_STAR_POINTS + k, int(SC[L.SC_STAR_POINTS + k]), "the scenario's star points")
    nch = int(SC[L.SC_NCH])
    c.expect_eq(L.S_SOLO_NCH, nch, "the scenario's challenge count")
    for k in range(L.MAX_CHALLENGES):
        c.expect_eq(L.S_CH_COND + k, int(SC[L.SC_CH_COND + k]), "a challenge condition")
        c.expect_eq(L.S_CH_A + k, int(SC[L.SC_CH_A + k]), "a challenge parameter")
        c.expect_eq(L.S_CH_B + k, int(SC[L.SC_CH_B + k]), "a challenge parameter")
        c.expect(L.S_CH_MET + k, 0, 1 if k < nch else 0, "a challenge-met flag")
    on_sectors = S[_pb(0) + L.P_SOLO_TOKEN:_pb(0) + L.P_SOLO_TOKEN + L.N_SECTORS]
    c.expect_eq(L.S_BAG, L.N_TOKENS_INNOVATION - int((on_sectors == L.TOKEN_INNOVATION).sum()),
                "innovation tokens in the bag (4 less those on the sectors)")
    c.expect_eq(L.S_BAG + 1, L.N_TOKENS_COLLABORATION - int((on_sectors == L.TOKEN_COLLABORATION).sum()),
                "collaboration tokens in the bag (3 less those on the sectors)")


def _reward_count(c: _Ctx, src: int, sid: int, prio: int) -> int:
    T = c.T
    if src == L.REW_SRC_DEMAND:
        return int(T[L.T_D_NREW + 2 * sid]) + (int(T[L.T_D_NREW + 2 * sid + 1]) if prio else 0)
    if src == L.REW_SRC_SPACE:
        return int(T[L.T_BT_NREW + sid])
    return int(T[L.T_G_NREW + sid])


def _on_sector(c: _Ctx, f: int, face: int, s: int) -> None:
    """``face`` (of the frame at ``f``) is the current player's sector ``s`` or a card on it."""
    pb = _pb(c.val(L.S_CUR))
    if face >= L.FACE_SECTOR:
        if face not in (L.FACE_SECTOR + 2 * s, L.FACE_SECTOR + 2 * s + 1):
            raise _state_error(f + L.FR_A, f"sector face {face} is not a face of sector {s}")
        return
    n = c.val(pb + L.P_SEC_N + s)
    if face not in c.S[pb + L.P_SEC_CARD + s * L.MAX_SLOTS:pb + L.P_SEC_CARD + s * L.MAX_SLOTS + n]:
        raise _state_error(f + L.FR_A, f"face {face} is not on sector {s} of the current player")


def _check_frame(c: _Ctx, i: int) -> None:
    """One frame of the decision stack: its type and each argument (unused ones 0)."""
    f = L.S_STACK + i * L.FRAME
    ft = c.expect(f, 1, L.N_FRAME_TYPES - 1, "a frame type")
    used = 0                     # arguments FR_A.. checked below; the rest must be 0
    below = c.val(f - L.FRAME) if i > 0 else L.FT_NONE
    if ft == L.FT_BOOST:
        c.expect(f + L.FR_A, L.BOOST_INNOVATION, L.BOOST_COLLABORATION, "the boost kind")
        used = 1
    elif ft == L.FT_PAY:
        face = c.card_face(f + L.FR_A, "the card being paid")
        c.expect(f + L.FR_B, 1, int(c.T[L.T_F_COST + face]), "the value still owed")
        if below != L.FT_PLACE_SECTOR or c.val(f - L.FRAME + L.FR_A) != face \
                or c.val(f - L.FRAME + L.FR_B) != L.PLACE_BOUGHT:
            raise _state_error(f, "a payment frame must sit on the FT_PLACE_SECTOR frame of the bought card")
        used = 2
    elif ft in (L.FT_PLACE_SECTOR, L.FT_PLACE_SLOT):
        c.card_face(f + L.FR_A, "the card being placed")
        c.expect(f + L.FR_B, L.PLACE_BOUGHT, L.PLACE_FREE, "the placement mode")
        used = 2
        if ft == L.FT_PLACE_SLOT:
            c.expect(f + L.FR_C, 0, L.N_SECTORS - 1, "the sector")
            used = 3
    elif ft in (L.FT_ITEM, L.FT_ICON, L.FT_ONGOING):
        face = c.expect(f + L.FR_A, 0, L.MAX_FACES - 1, "the face being discharged")
        if face < L.FACE_SECTOR:
            c.card_face(f + L.FR_A, "the card being discharged")
        s = c.expect(f + L.FR_B, 0, L.N_SECTORS - 1, "the sector")
        _on_sector(c, f, face, s)
        nicons = int(c.T[L.T_F_NICONS + face])
        if ft == L.FT_ITEM:
            c.expect(f + L.FR_C, 0, (1 << nicons) - 1, "the used-icon bits")
            used = 3
        elif ft == L.FT_ONGOING:
            icon = c.expect(f + L.FR_C, 0, nicons - 1, "the ongoing icon")
            if c.T[L.T_F_ICON_ACT + face * L.MAX_ICONS + icon] != L.ACT_ONGOING:
                raise _state_error(f + L.FR_C, f"icon {icon} of face {face} is not an ongoing icon")
            c.expect(f + L.FR_D, 1, MAX_COUNT, "the follow-up uses")
            used = 4
        else:
            icon = c.val(f + L.FR_C)
            follow = icon >= L.ICON_FOLLOW_UP
            k = icon - L.ICON_FOLLOW_UP if follow else icon
            if not 0 <= k < nicons:
                raise _state_error(f + L.FR_C, f"the icon must be 0..{nicons - 1} (or {L.ICON_FOLLOW_UP}.. for a "
                                               f"follow-up) for face {face}, got {icon}")
            is_ongoing = c.T[L.T_F_ICON_ACT + face * L.MAX_ICONS + k] == L.ACT_ONGOING
            if follow != is_ongoing:
                raise _state_error(f + L.FR_C, f"icon {icon} of face {face}: only an ongoing icon has a follow-up, "
                                               "and an ongoing icon is used only as one")
            c.expect(f + L.FR_D, 0, MAX_COUNT, "the uses left")
            nq = c.expect(f + L.FR_F, 0, MAX_INVEST_QUEUE, "the invest queue length")
            c.expect(f + L.FR_E, 0, (1 << nq) - 1, "the invest queue bits")
            c.expect(f + L.FR_G, 0, MAX_COUNT, "the uses performed")
            used = 7
    elif ft == L.FT_DISCARD_PAY:
        if below != L.FT_ICON or c.val(f - L.FRAME + L.FR_C) >= L.ICON_FOLLOW_UP or c.T[
                L.T_F_ICON_MK + c.val(f - L.FRAME + L.FR_A) * L.MAX_ICONS + c.val(f - L.FRAME + L.FR_C)] != L.MULT_DISCARD:
            raise _state_error(f, "a discard-multiplier frame must sit on the FT_ICON frame of a discard-multiplier icon")
    elif ft == L.FT_RESEARCH:
        c.expect(f + L.FR_A, 1, MAX_COUNT, "the research movement left")
        used = 1
    elif ft == L.FT_REWARD:
        src = c.expect(f + L.FR_A, L.REW_SRC_DEMAND, L.REW_SRC_GROUP, "the reward source")
        if src == L.REW_SRC_DEMAND:
            sid = c.expect(f + L.FR_B, 0, c.n_demand - 1, "the demand card")
            if sid not in c.S[L.S_DEMAND:L.S_DEMAND + L.N_LEVELS]:
                raise _state_error(f + L.FR_B, f"demand card {sid} is not in play")
            prio = c.expect(f + L.FR_D, 0, 1, "the priority flag")
        else:
            hi = L.N_BT_SPACES - 1 if src == L.REW_SRC_SPACE else L.N_BT_GROUPS - 1
            sid = c.expect(f + L.FR_B, 0, hi, "the breakthrough space or group")
            prio = c.expect(f + L.FR_D, 0, 0, "the priority flag of a research reward")
        c.expect(f + L.FR_C, 0, (1 << _reward_count(c, src, sid, prio)) - 1, "the taken-reward bits")
        used = 4
    elif ft == L.FT_CARD_CHOICE:
        c.expect(f + L.FR_A, 0, MAX_COUNT, "the largest cost of the free card")
        used = 1
    elif ft == L.FT_REORDER:
        s = c.expect(f + L.FR_A, 0, L.N_SECTORS - 1, "the flipped sector")
        n = c.val(_pb(c.val(L.S_CUR)) + L.P_SEC_N + s)
        if n < 2:
            raise _state_error(f + L.FR_A, f"sector {s} holds {n} cards; only 2 or more are re-ordered")
        picks = c.expect(f + L.FR_D, 0, n - 1, "the picks made")
        order = c.expect(f + L.FR_C, 0, (1 << (3 * picks)) - 1, "the new order")
        seen = 0
        for j in range(picks):
            k = (order >> (3 * j)) & 7
            if k >= n or (seen >> k) & 1:
                raise _state_error(f + L.FR_C, f"pick {j} is slot {k}: a slot 0..{n - 1} not picked before")
            seen |= 1 << k
        c.expect_eq(f + L.FR_B, seen, "the picked-slot bits (the slots in the new order)")
        used = 4
    c.expect_zero(f + 1 + used, L.FRAME - 1 - used, f"unused argument of a {FRAME_TYPE_NAMES[ft]} frame")


def _check_stack(c: _Ctx) -> None:
    """The decision stack: a depth 0..MAX_STACK (0 exactly when the game is over), frames in
    range, the places above the top all zero, a decision (not an automatic frame) on top."""
    sp = c.expect(L.S_SP, 0, L.MAX_STACK, "frames on the decision stack")
    if c.val(L.S_TERMINAL):
        if sp:
            raise _state_error(L.S_SP, f"a finished game has no pending decision; got {sp} frames")
    elif sp == 0:
        raise _state_error(L.S_SP, "a game in progress needs a pending decision; got 0 frames")
    for i in range(sp):
        _check_frame(c, i)
    c.expect_zero(L.S_STACK + sp * L.FRAME, (L.MAX_STACK - sp) * L.FRAME, "above the top of the stack")
    if sp and c.val(L.S_STACK + (sp - 1) * L.FRAME) in AUTOMATIC_FRAMES:
        raise _state_error(L.S_STACK + (sp - 1) * L.FRAME,
                           f"the top frame must be a decision, not the automatic "
                           f"{FRAME_TYPE_NAMES[c.val(L.S_STACK + (sp - 1) * L.FRAME)]}")


BASE_FRAMES = (L.FT_TURN_END, L.FT_FULFILL, L.FT_DISCHARGE, L.FT_CHARGE, L.FT_ACQUIRE, L.FT_BOOST)
PHASE_FRAMES = frozenset(BASE_FRAMES) | {L.FT_PLAN, L.FT_SOLO_SWAP}


def _frame_type(c: _Ctx, i: int) -> int:
    return c.val(L.S_STACK + i * L.FRAME)


def _check_stack_order(c: _Ctx) -> None:
    """The stack as the engine builds it: at the bottom either the Plan step (``FT_PLAN``; in
    solo round 0 with ``FT_SOLO_SWAP`` on it) or a turn (``FT_TURN_END`` and then, in order, a
    prefix of fulfil, discharge, charge, acquire, boost); above them only the frames that actions
    open (payments, placements, items, icons, research, rewards, flips).  In the Plan step the
    players before the current one have dialled (their choices become the charged sectors); a
    turn is in rounds 1..12.  An icon sits on its item (a follow-up or ongoing frame on an item
    or ongoing frame)."""
    sp = c.val(L.S_SP)
    if sp == 0:
        return
    bottom = _frame_type(c, 0)
    rnd, cur = c.val(L.S_ROUND), c.val(L.S_CUR)
    if bottom == L.FT_PLAN:
        i = 1
        if sp > 1 and _frame_type(c, 1) == L.FT_SOLO_SWAP and c.scenario is not None and rnd == 0:
            i = 2
        if rnd >= L.N_ROUNDS:
            raise _state_error(L.S_ROUND, f"the Plan step of round {rnd + 1} does not exist")
        for p in range(cur):   # the reveal makes these choices the charged sectors
            c.expect(_pb(p) + L.P_PLAN, 0, L.N_SECTORS - 1, "the plan of a player who has dialled")
    elif bottom == L.FT_TURN_END:
        i = 1
        while i < sp and i < len(BASE_FRAMES) and _frame_type(c, i) == BASE_FRAMES[i]:
            i += 1
        if rnd < 1:
            raise _state_error(L.S_ROUND, "a turn is under way, so the round must be 1..12, got 0")
    else:
        raise _state_error(L.S_STACK, f"the bottom frame must be FT_PLAN or FT_TURN_END, got "
                                      f"{FRAME_TYPE_NAMES[bottom]}")
    for j in range(i, sp):
        f = L.S_STACK + j * L.FRAME
        ft = _frame_type(c, j)
        if ft in PHASE_FRAMES:
            raise _state_error(f, f"a {FRAME_TYPE_NAMES[ft]} frame cannot stand on "
                                  f"{FRAME_TYPE_NAMES[_frame_type(c, j - 1)]} (frame {j - 1})")
        below = _frame_type(c, j - 1)
        if ft == L.FT_ICON and c.val(f + L.FR_C) < L.ICON_FOLLOW_UP:
            icon = c.val(f + L.FR_C)
            g = f - L.FRAME
            if below != L.FT_ITEM or c.val(g + L.FR_A) != c.val(f + L.FR_A) or c.val(g + L.FR_B) != c.val(f + L.FR_B) \
                    or not (c.val(g + L.FR_C) >> icon) & 1:
                raise _state_error(f, "an icon frame must sit on the item frame of its face, sector and "
                                      "(marked used) icon")
        elif ft in (L.FT_ICON, L.FT_ONGOING) and below not in (L.FT_ITEM, L.FT_ONGOING):
            raise _state_error(f, f"a {FRAME_TYPE_NAMES[ft]} frame of an ongoing card must sit on an item or "
                                  f"ongoing frame, not on {FRAME_TYPE_NAMES[below]}")


def _check_pending_needs(c: _Ctx) -> None:
    """What pending frames need from the current player's board: a card being paid for is
    covered by the depot (R7: cubes only leave the depot for it), the cards being placed have
    free slots (on the sector each is bound to), and a breakthrough pick has an uncovered space."""
    sp = c.val(L.S_SP)
    pb = _pb(c.val(L.S_CUR))
    placing = 0
    bound = [0] * L.N_SECTORS
    for i in range(sp):
        f = L.S_STACK + i * L.FRAME
        ft = _frame_type(c, i)
        if ft == L.FT_PAY:
            value = int((c.S[pb + L.P_DEPOT:pb + L.P_DEPOT + L.N_COLS] * c.T[L.T_COL_DEPOT:L.T_COL_DEPOT + L.N_COLS]).sum())
            if value < c.val(f + L.FR_B):
                raise _state_error(f + L.FR_B, f"{c.val(f + L.FR_B)} is still owed for the card but the "
                                               f"depot holds cubes worth {value}")
        elif ft in (L.FT_PLACE_SECTOR, L.FT_PLACE_SLOT):
            placing += 1
            if ft == L.FT_PLACE_SLOT:
                bound[c.val(f + L.FR_C)] += 1
        elif ft == L.FT_BT_PICK and c.S[pb + L.P_BT:pb + L.P_BT + L.N_BT_SPACES].all():
            raise _state_error(f, "a breakthrough pick is pending but every space is covered")
    free = 0
    for s in range(L.N_SECTORS):
        n = c.val(pb + L.P_SEC_N + s)
        free += L.MAX_SLOTS - n
        if n + bound[s] > L.MAX_SLOTS:
            raise _state_error(pb + L.P_SEC_N + s, f"sector {s} holds {n} cards and {bound[s]} more are being "
                                                   f"placed on it: more than {L.MAX_SLOTS}")
    if placing > free:
        raise _state_error(L.S_SP, f"{placing} cards are being placed but only {free} slots are free")


def _check_settled(c: _Ctx) -> None:
    """Last, on a copy, with the engine's own rules (the state is range-checked by now, so the
    jitted code indexes safely): the pending decision is one the engine waits for (running the
    automatic steps changes nothing: no automatic frame or empty decision is left on top, R19),
    and a game in progress has a legal action."""
    if c.val(L.S_TERMINAL):
        return
    S = c.S.copy()
    advance(S, c.T)
    diff = np.flatnonzero(S != c.S)
    if diff.size:
        off = L.S_STACK + (c.val(L.S_SP) - 1) * L.FRAME
        raise _state_error(off, f"the pending {FRAME_TYPE_NAMES[c.val(off)]} would be resolved automatically "
                                f"by the engine (it changes state[{state_field(int(diff[0]))}]); a saved game "
                                "waits at a real decision")
    mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
    if fill_mask(S, c.T, mask) == 0:
        raise _state_error(L.S_SP, "the game is not over but the pending decision has no legal action")


def _check_conservation(c: _Ctx) -> None:
    """Every industry card in play (base cards and the packs in ``options``) lies in exactly one
    place, the others nowhere; each basic card of the set is in the supply or on one sector
    (or being placed), exactly once."""
    S, T = c.S, c.T
    where: list[list[str]] = [[] for _ in range(c.n_ind)]
    where_b: list[list[str]] = [[] for _ in range(L.MAX_BASIC)]

    def put(face: int, place: str) -> None:
        if face < L.FACE_BASIC:
            where[face].append(place)
        else:
            where_b[(face - L.FACE_BASIC) // 2].append(place)

    for d in range(L.N_DECKS):
        for i in range(c.val(L.S_DECK_N + d)):
            put(int(S[L.S_DECK + d * L.MAX_DECK + i]), f"deck {d}")
        for i in range(c.val(L.S_DISC_N + d)):
            put(int(S[L.S_DISC + d * L.MAX_DECK + i]), f"discard pile {d}")
    for b in range(c.n_basic):
        if S[L.S_BASIC + b]:
            where_b[b].append("the supply")
    for p in range(c.n):
        pb = _pb(p)
        for h in range(c.val(pb + L.P_HAND_N)):
            put(int(S[pb + L.P_HAND + h]), f"the hand of player {p}")
        for s in range(L.N_SECTORS):
            for k in range(c.val(pb + L.P_SEC_N + s)):
                put(int(S[pb + L.P_SEC_CARD + s * L.MAX_SLOTS + k]), f"sector {s} of player {p}")
    for i in range(c.val(L.S_SP)):
        f = L.S_STACK + i * L.FRAME
        if S[f] in (L.FT_PLACE_SECTOR, L.FT_PLACE_SLOT):
            put(int(S[f + L.FR_A]), f"stack frame {i} (a card being placed)")
    for card in range(c.n_ind):
        pack = int(T[L.T_IND_PACK + card])
        want = 1 if pack == 0 or (c.options >> pack) & 1 else 0
        if len(where[card]) != want:
            places = ", ".join(where[card]) or "nowhere"
            raise InvalidSaveError("state (card conservation)",
                                   f"industry card {card} ({c.cards.card_ids[card]}) must be in play "
                                   f"{want} time{'s' if want != 1 else ''}, found {len(where[card])}: {places}")
    for b in range(L.MAX_BASIC):
        want = 1 if b < c.n_basic else 0
        if len(where_b[b]) != want:
            places = ", ".join(where_b[b]) or "nowhere"
            raise InvalidSaveError("state (card conservation)",
                                   f"basic card {b} must be in play {want} time{'s' if want != 1 else ''}, "
                                   f"found {len(where_b[b])}: {places}")


STATE_CHECKS: tuple[tuple[str, Callable[[_Ctx], None]], ...] = (
    ("header", _check_header),
    ("generator", _check_rng),
    ("decks and discard piles", _check_piles),
    ("basic-card supply", _check_supply),
    ("demand cards", _check_demand),
    ("player blocks", _check_players),
    ("solo fields", _check_solo),
    ("decision stack", _check_stack),
    ("stack order and turn order", _check_stack_order),
    ("payments, placements and picks", _check_pending_needs),
    ("card conservation", _check_conservation),
    ("settled at a decision (engine)", _check_settled),
)


def check_state(state: np.ndarray, cards: CardSet, scenario: Scenario | None, n_players: int,
                options: int) -> None:
    """Run every check of :data:`STATE_CHECKS` on an int64 state of length ``S_SIZE`` (in that
    order: later checks rely on the ranges earlier ones established).

    Raises:
        InvalidSaveError: naming the first field that is wrong.
    """
    ctx = _Ctx(state, cards, scenario, n_players, options)
    for _, check in STATE_CHECKS:
        check(ctx)


def check_actions_replay(state: np.ndarray, cards: CardSet, scenario: Scenario | None, n_players: int,
                         seed: int, options: int, actions: list[int]) -> None:
    """Replay ``actions`` from a new game of ``seed`` and require the saved ``state``."""
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
    init_state(S, cards.table, np.int64(n_players), np.int64(seed), np.int64(options))
    if scenario is not None:
        init_solo(S, scenario.table)
    for k, a in enumerate(actions):
        if S[L.S_TERMINAL] or step_checked(S, cards.table, np.int64(a), mask) != 0:
            legal = np.flatnonzero(mask).tolist() if not S[L.S_TERMINAL] else []
            raise InvalidSaveError(f"actions[{k}]", f"action {a} is not legal at that point of the replay "
                                                    f"from seed {seed} (legal: {legal or 'none, the game is over'})")
    diff = np.flatnonzero(S != state)
    if diff.size:
        off = int(diff[0])
        raise InvalidSaveError("actions", f"replaying the {len(actions)} saved actions from seed {seed} does not "
                                          f"reproduce the saved state (first difference at state[{state_field(off)}]: "
                                          f"replay {int(S[off])}, saved {int(state[off])})")


__all__ = ["InvalidSaveError", "SaveContents", "read_save", "check_state", "check_actions_replay",
           "state_field", "STATE_CHECKS", "MAX_COUNT", "SAVE_FORMAT", "SAVE_VERSION"]
