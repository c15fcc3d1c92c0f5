"""The Python face of the engine: one :class:`Game` object wraps a state array and a card set.

Every rule runs in the jitted functions of :mod:`electrify_env.engine`; this module only
validates input, keeps the action history and offers saving, replay, descriptions and rendering.
"""
from __future__ import annotations

import json
import weakref
from pathlib import Path
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from .cards import DEFAULT_CARDS_DIR, CardSet, load_card_set
from .engine import layout as L
from .engine.infoset import determinize, scrub
from .engine.invariants import INVARIANT_MESSAGES, check_invariants
from .engine.masks import fill_mask
from .engine.observe import OBS_SIZE, OBS_VERSION, face_features, feature_names, observe
from .engine.scoring import rank_keys, winners_mask
from .engine.setup import init_state
from .engine.solo import init_solo, solo_final_score, stars_claimed
from .scenarios import SCENARIOS_DIR, Scenario, load_scenario
from .engine.step import apply_action, step_checked
from .savefile import SAVE_FORMAT, SAVE_VERSION, InvalidSaveError, SaveContents, read_save
from .validation import (  # MAX_SEED and IllegalActionError are re-exported here
    MAX_SEED, IllegalActionError, InvalidArgumentError, action_in_range, as_int, check_action,
    check_players, check_seed, check_state, check_tech_packs, tech_pack_options,
)
from . import describe as _describe

if TYPE_CHECKING:  # pragma: no cover
    from .decision import Decision

__all__ = ["Game", "IllegalActionError", "MAX_SEED", "action_ranges", "play_random",
           "resolve_tech_pack", "tech_pack_names"]

# face-feature tables per CardSet object: (the card table they were computed from, a copy of its
# contents, the features).  Keyed on the object, not on ``CardSet.hash``: a set rebuilt around an
# edited table (custom faces) gets its own features, and a writable table is compared with the
# copy on every call, so faces rewritten in place are seen too.  Read-only tables (the loader's,
# ``position.with_table``'s) cannot change and skip the comparison.
_FF_CACHE: "weakref.WeakKeyDictionary[CardSet, tuple]" = weakref.WeakKeyDictionary()


def _face_table(cards: CardSet) -> np.ndarray:
    """The read-only face-feature table (observation inputs) of ``cards``' current card table."""
    T = cards.table
    hit = _FF_CACHE.get(cards)
    if hit is not None and hit[0] is T and (not T.flags.writeable or np.array_equal(hit[1], T)):
        return hit[2]
    ff = face_features(T)
    ff.flags.writeable = False
    _FF_CACHE[cards] = (T, np.array(T, copy=True), ff)
    return ff


def tech_pack_names() -> list[str]:
    """Names of the shipped tech packs (``configs/cards/tech_<name>.yaml``)."""
    return sorted(p.stem[len("tech_"):] for p in DEFAULT_CARDS_DIR.glob("tech_*.yaml"))


def resolve_tech_pack(name_or_path: str | Path) -> Path:
    """A shipped pack name (``grid``) or a path to a pack file."""
    text = str(name_or_path)
    if "/" in text or "\\" in text or text.endswith((".yaml", ".yml")):
        return Path(text)
    path = DEFAULT_CARDS_DIR / f"tech_{text}.yaml"
    if not path.exists():
        raise InvalidArgumentError(f"unknown tech pack {text!r}; shipped packs: {', '.join(tech_pack_names())}")
    return path


def _portable(path: Path, folder: Path) -> str:
    """A path relative to a config folder when it lies inside it (saves stay portable)."""
    try:
        return str(Path(path).resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(path)


def resolve_card_set(card_set: CardSet | str | Path | None,
                     tech_packs: str | Path | Sequence[str | Path] = ()) -> CardSet:
    """The card set of a game: a :class:`CardSet` as is (then no ``tech_packs``), or the set at a
    path (None: the shipped base set) with the tech packs (one name or path, or a sequence)."""
    packs = check_tech_packs(tech_packs)
    if isinstance(card_set, CardSet):
        if packs:
            raise InvalidArgumentError("tech_packs: give tech packs either inside the CardSet or as "
                                       "tech_packs, not both")
        return card_set
    if card_set is not None and not isinstance(card_set, (str, Path)):
        raise InvalidArgumentError(f"card_set must be a CardSet, a path or None, got {card_set!r}")
    return load_card_set(card_set, tech_packs=tuple(resolve_tech_pack(p) for p in packs))


def resolve_scenario(scenario: Scenario | str | Path | None) -> Scenario | None:
    """A :class:`Scenario` as is, an id or path loaded, or None (a multiplayer game)."""
    if scenario is None or isinstance(scenario, Scenario):
        return scenario
    if not isinstance(scenario, (str, Path)):
        raise InvalidArgumentError(f"scenario must be a scenario id, a path, a Scenario or None, got {scenario!r}")
    return load_scenario(scenario)


class Game:
    """One game of Electrify.

    Args:
        n_players: 2, 3 or 4; 1 for a solo scenario (the default when ``scenario`` is given).
        seed: any integer 0..2**62-1 (``MAX_SEED``); the whole game (deal, decks, demand cards,
            sector order, deck rebuilds, solo tokens and random level) follows from it and the
            actions (R25).
        card_set: a :class:`~electrify_env.cards.CardSet` (its tech packs included), a path to a
            card-set YAML file, or None for the shipped base set.
        tech_packs: tech packs to shuffle into the decks: a shipped name (``"grid"``,
            ``"market"``, see :func:`tech_pack_names`) or pack-file path, or a sequence of them.
        scenario: a solo scenario id (``electrify scenarios``), a path, or a
            :class:`~electrify_env.scenarios.Scenario`; makes the game a solo game.

    The pending decision belongs to :attr:`current_player`; :meth:`legal_mask` lists its legal
    ids and :meth:`step` applies one.

    Raises:
        InvalidArgumentError (a ValueError): an argument outside its range (see
            :mod:`electrify_env.validation`); CardSetError / ScenarioError for files that do not load.
    """

    def __init__(self, n_players: int | None = None, seed: int = 0,
                 card_set: CardSet | str | Path | None = None,
                 tech_packs: str | Path | Sequence[str | Path] = (),
                 scenario: Scenario | str | Path | None = None) -> None:
        solo = scenario is not None
        self.n_players = check_players(n_players if n_players is not None else (1 if solo else 2), solo)
        self.seed = check_seed(seed)
        self.cards = resolve_card_set(card_set, tech_packs)
        self.scenario: Scenario | None = resolve_scenario(scenario)
        self.options = tech_pack_options(len(self.cards.pack_names))
        self.state = np.zeros(L.S_SIZE, dtype=np.int64)
        self.history: list[int] = []
        self._mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        init_state(self.state, self.cards.table, np.int64(self.n_players), np.int64(self.seed),
                   np.int64(self.options))
        if self.scenario is not None:
            init_solo(self.state, self.scenario.table)

    # ---- queries -----------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """Seat whose decision is pending (meaningless once the game is over)."""
        return int(self.state[L.S_CUR])

    @property
    def round(self) -> int:
        """Round 1-12 (0 while the first Plan step is open)."""
        return int(self.state[L.S_ROUND])

    @property
    def is_terminal(self) -> bool:
        """True once round 12 is over."""
        return bool(self.state[L.S_TERMINAL])

    def legal_mask(self) -> np.ndarray:
        """uint8 mask of length ``N_ACTIONS`` with 1 at each legal id.  The array is reused by
        the next call; copy it to keep it."""
        fill_mask(self.state, self.cards.table, self._mask)
        return self._mask

    def legal_actions(self) -> np.ndarray:
        """The legal action ids, ascending."""
        return np.flatnonzero(self.legal_mask())

    def observe(self, player: int) -> np.ndarray:
        """float32 observation of ``player`` (length ``OBS_SIZE``; names: :func:`feature_names`)."""
        player = as_int(player, "player")
        if not 0 <= player < self.n_players:
            raise InvalidArgumentError(f"player must be 0..{self.n_players - 1}, got {player}")
        out = np.zeros(OBS_SIZE, dtype=np.float32)
        observe(self.state, self.cards.table, _face_table(self.cards), np.int64(player), out)
        return out

    feature_names = staticmethod(feature_names)
    OBS_SIZE = OBS_SIZE
    OBS_VERSION = OBS_VERSION
    N_ACTIONS = L.N_ACTIONS
    #: the name of this game in :mod:`electrify_env.games`
    game_name = "electrify"

    def seat_view(self, seat: int | None = None, observation: bool = True, infoset: bool = True):
        """The :class:`~electrify_env.agent.SeatView` of ``seat`` (default: the player on turn),
        as :func:`electrify_env.agent.seat_view` builds it."""
        from .agent import seat_view
        return seat_view(self, seat, observation=observation, infoset=infoset)

    def scores(self) -> np.ndarray:
        """Energy points of each player."""
        return np.array([self.state[L.S_PLAYERS + p * L.P_SIZE + L.P_SCORE] for p in range(self.n_players)])

    def tiebreak_keys(self) -> np.ndarray:
        """(n_players, 4): score, breakthrough spaces, marker, cube value (R18 order)."""
        return rank_keys(self.state, self.cards.table)

    def winners(self) -> list[int]:
        """Seats that win under R18 (several on a shared win).  Only meaningful at the end.
        In a solo game: ``[0]`` if the final score reaches the scenario's target, else ``[]``."""
        if self.is_solo:
            return [0] if self.solo_result()["won"] else []
        return [int(p) for p in np.flatnonzero(winners_mask(self.state, self.cards.table))]

    @property
    def is_solo(self) -> bool:
        """True in a solo scenario game."""
        return bool(self.state[L.S_SOLO])

    def solo_result(self) -> dict:
        """Solo game (R22): energy points, stars claimed, their points, the final score, the
        target and whether it is won (final score >= target; meaningful at the end)."""
        if not self.is_solo:
            raise ValueError("solo_result() needs a solo scenario game")
        score = int(self.state[L.S_PLAYERS + L.P_SCORE])
        final = int(solo_final_score(self.state))
        target = int(self.state[L.S_SOLO_TARGET])
        return {"scenario": self.scenario.id if self.scenario else None, "score": score, "stars": int(stars_claimed(self.state)),
                "star_points": final - score, "final_score": final, "target": target,
                "won": final >= target}

    def check_invariants(self) -> None:
        """Raise AssertionError naming the first broken invariant, if any."""
        code = check_invariants(self.state, self.cards.table)
        if code:
            raise AssertionError(INVARIANT_MESSAGES[code])

    # ---- acting ------------------------------------------------------------------------------
    def step(self, action: int) -> None:
        """Apply the legal action id ``action`` for :attr:`current_player`.

        Raises:
            IllegalActionError (a ValueError): the id is out of range, not an integer, or not
                legal now; the message names the id and the pending decision; the state is unchanged.
        """
        a = check_action(action)
        if self.state[L.S_TERMINAL]:
            raise IllegalActionError(f"action {a}: the game is over")
        if not action_in_range(a) or step_checked(self.state, self.cards.table, np.int64(a), self._mask) != 0:
            what = "out of range 0..%d" % (L.N_ACTIONS - 1) if not action_in_range(a) else "not legal"
            raise IllegalActionError(
                f"action {a} is {what} at the pending decision of player {self.current_player}: "
                f"{self.pending()}; legal ids: {self.legal_actions().tolist()}")
        self.history.append(a)

    def step_unchecked(self, action: int) -> None:
        """Apply ``action`` without the legality check (for agents that already hold the mask).
        An illegal id here corrupts the game; prefer :meth:`step`.  Ids outside the action
        space still raise :class:`IllegalActionError`."""
        a = check_action(action)
        if not action_in_range(a):
            raise IllegalActionError(f"action {a} is out of range 0..{L.N_ACTIONS - 1}")
        apply_action(self.state, self.cards.table, np.int64(a))
        self.history.append(a)

    # ---- text --------------------------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        """Human-readable meaning of ``action`` at the pending decision (an integer id outside
        the action space is described as such; a value that is no integer raises
        :class:`IllegalActionError`, as in :meth:`step`)."""
        return _describe.describe_action(self, check_action(action))

    def pending(self) -> str:
        """Human-readable description of the pending decision."""
        return _describe.describe_pending(self)

    def render(self, hands: bool = True) -> str:
        """The whole table as text; ``hands=False`` hides the hands (for a seat's view)."""
        return _describe.render(self, hands=hands)

    def __repr__(self) -> str:
        return (f"Game(n_players={self.n_players}, seed={self.seed}, round={self.round}, "
                f"decisions={len(self.history)}, terminal={self.is_terminal})")

    # ---- copies, saving, replay --------------------------------------------------------------
    def copy(self) -> "Game":
        """An independent copy (same future under the same actions)."""
        return Game._from_state(self.cards, self.scenario, self.n_players, self.seed, self.options,
                                self.state.copy(), self.history)

    def determinized(self, seat: int, seed: int, infoset: np.ndarray | None = None) -> "Game":
        """A full game consistent with ``seat``'s information set: the hidden parts (other
        hands, the decks' contents and order, plan choices others dialled, the generator) dealt
        anew from ``seed`` by :func:`~electrify_env.engine.infoset.determinize`.

        The sample is built from the scrub of this game's state, or of ``infoset`` when given
        (a :class:`~electrify_env.seatview.SeatView` infoset of a game with this card set and
        player count; this game's state is then not read), so it depends on what ``seat`` may
        know and ``seed`` only.  The new game's history is empty and its ``seed`` is ``seed``."""
        seat = as_int(seat, "seat")
        if not 0 <= seat < self.n_players:
            raise InvalidArgumentError(f"seat must be 0..{self.n_players - 1}, got {seat}")
        seed = check_seed(seed)
        src = check_state(self.state if infoset is None else infoset, L.S_SIZE, self.n_players, L.S_NPLAYERS)
        P = np.empty(L.S_SIZE, dtype=np.int64)
        scrub(src, self.cards.table, np.int64(seat), P)
        out = np.empty(L.S_SIZE, dtype=np.int64)
        determinize(P, self.cards.table, np.int64(seat), np.int64(seed), out)
        return Game._from_state(self.cards, self.scenario, self.n_players, seed, self.options, out, [])

    def to_dict(self) -> dict:
        """A JSON-ready dict: card set (paths + hash), seed, actions and the full state."""
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "state_version": L.STATE_VERSION,
            "card_set": {"paths": [_portable(p, DEFAULT_CARDS_DIR) for p in self.cards.paths],
                         "hash": self.cards.hash},
            "scenario": None if self.scenario is None else {
                "path": _portable(self.scenario.path, SCENARIOS_DIR), "hash": self.scenario.hash},
            "n_players": self.n_players,
            "seed": self.seed,
            "options": self.options,
            "actions": list(self.history),
            "state": self.state.tolist(),
        }

    def to_json(self) -> str:
        """Serialise with :meth:`to_dict`."""
        return json.dumps(self.to_dict())

    def save(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path``."""
        Path(path).write_text(self.to_json())

    @classmethod
    def from_dict(cls, data: dict, card_set: CardSet | None = None, *,
                  verify_actions: bool = False) -> "Game":
        """Restore a game saved by :meth:`to_dict`.  The card set is reloaded from the saved
        paths (or ``card_set``) and must have the saved hash.

        Every field is checked before the engine sees the state (the JSON shape, each state
        field's range, card conservation, player count, options, card-set and scenario hashes;
        see :mod:`electrify_env.savefile`).  ``verify_actions=True`` also replays the saved
        ``actions`` from the seed and requires the saved state.

        Raises:
            InvalidSaveError (a ValueError): naming the first wrong field.
        """
        return cls._from_contents(read_save(data, card_set, verify_actions=verify_actions))

    @classmethod
    def from_json(cls, text: str | bytes, card_set: CardSet | None = None, *,
                  verify_actions: bool = False) -> "Game":
        """Restore a game from :meth:`to_json` text (checked as :meth:`from_dict`)."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError, RecursionError) as err:
            raise InvalidSaveError("json", f"not a JSON text: {err}") from None
        return cls.from_dict(data, card_set, verify_actions=verify_actions)

    @classmethod
    def load(cls, path: str | Path, card_set: CardSet | None = None, *,
             verify_actions: bool = False) -> "Game":
        """Restore a game saved by :meth:`save` (checked as :meth:`from_dict`; a file that
        cannot be read raises OSError)."""
        raw = Path(path).read_bytes()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise InvalidSaveError("json", f"{path}: not UTF-8 text ({err.reason} at byte {err.start})") from None
        return cls.from_json(text, card_set, verify_actions=verify_actions)

    @classmethod
    def _from_state(cls, cards: CardSet, scenario: Scenario | None, n_players: int, seed: int,
                    options: int, state: np.ndarray, history: Iterable[int]) -> "Game":
        """The one way to build a game around an existing state array (no setup, no engine
        call): copies and checked saves."""
        g = object.__new__(cls)
        g.cards, g.scenario, g.n_players, g.seed, g.options = cards, scenario, n_players, seed, options
        g.state = state
        g.history = list(history)
        g._mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        return g

    @classmethod
    def _from_contents(cls, save: SaveContents) -> "Game":
        """A game holding a checked save's state (no engine call)."""
        return cls._from_state(save.cards, save.scenario, save.n_players, save.seed, save.options,
                               save.state, save.actions)

    @classmethod
    def replay(cls, actions: Iterable[int], n_players: int | None = None, seed: int = 0,
               card_set: CardSet | str | Path | None = None,
               tech_packs: str | Path | Sequence[str | Path] = (),
               scenario: Scenario | str | Path | None = None) -> "Game":
        """Rebuild a game from its seed and action list.  The arguments are checked as for
        :class:`Game`, every id's type and range before the first step, and each action's
        legality when it is applied.

        Raises:
            InvalidArgumentError: a bad ``n_players``, ``seed``, ``tech_packs`` ...
            InvalidSaveError: ``actions`` is not a sequence of ids, or ``actions[k]`` is not legal
                where it is applied (the message names k).
        """
        g = cls(n_players=n_players, seed=seed, card_set=card_set, tech_packs=tech_packs, scenario=scenario)
        try:   # a 0-d numpy array passes isinstance(x, Iterable) but iter() refuses it
            items = None if isinstance(actions, (str, bytes, dict)) else iter(actions)
        except TypeError:
            items = None
        if items is None:
            what = "a 0-d array" if isinstance(actions, np.ndarray) else type(actions).__name__
            raise InvalidSaveError("actions", f"must be a sequence of action ids, got {what}")
        ids = []
        for k, a in enumerate(items):
            try:
                ids.append(check_action(a))
            except IllegalActionError as err:
                raise InvalidSaveError(f"actions[{k}]", str(err)) from None
        for k, a in enumerate(ids):
            try:
                g.step(a)
            except IllegalActionError as err:
                raise InvalidSaveError(f"actions[{k}]", str(err)) from None
        return g

    def same_as(self, other: "Game") -> bool:
        """True if both games hold identical states."""
        return bool(np.array_equal(self.state, other.state))

    # ---- the pending decision, piles and stars (electrify_env.decision / .position) -----------
    def decision(self) -> "Decision":
        """The pending decision as data: who decides, its kind (the frame type's name), and
        every legal option with its id, kind, named arguments and text
        (:class:`~electrify_env.decision.Decision`)."""
        from .decision import decision
        return decision(self)

    def deck_size(self, deck: int | str) -> int:
        """Cards left in the production (0) or infrastructure (1) deck (public, R26)."""
        from .position import deck_index
        return int(self.state[L.S_DECK_N + deck_index(deck)])

    def deck(self, deck: int | str, *, reveal: bool = False) -> list[int]:
        """The cards of a deck, top (next draw) first.  Deck contents and order are hidden
        information (R26): agents must not read them, so ``reveal=True`` is required (for tests,
        puzzles and analysis); :meth:`deck_size` is public."""
        from .position import S_DECK_PILE, deck_index, pile
        d = deck_index(deck)
        if reveal is not True:
            raise InvalidArgumentError("reveal: deck contents are hidden information (R26); pass reveal=True "
                                       "to read the engine's order, or use deck_size()")
        return pile(self.state, *S_DECK_PILE, d)

    def discard_pile(self, deck: int | str) -> list[int]:
        """The discard pile of the production (0) or infrastructure (1) deck, top (last
        discarded) first (face up, public)."""
        from .position import S_DISC_PILE, deck_index, pile
        return pile(self.state, *S_DISC_PILE, deck_index(deck))

    def solo_stars(self) -> list[dict]:
        """Solo game (R22): each bonus star in round order, ``{"round": r, "state": s}`` with
        ``s`` ``"open"`` (above the track), ``"claimed"`` or ``"lost"``."""
        if not self.is_solo:
            raise InvalidArgumentError("solo_stars() needs a solo scenario game")
        from .position import star_list
        return star_list(self.state)

    def points_by_source(self) -> list[dict[str, int]]:
        """Energy points of each player by where they came from, as the engine counted them
        while the game was played (``PTS_SOURCE_NAMES``: ``demand_basic``, ``demand_priority``,
        ``research_space``, ``research_group``; in a solo game also ``solo_stars``, the star
        points claimed so far).  In a game played from the start the sources add up to the
        score; a position laid out with a score (:mod:`electrify_env.position`) has no history."""
        out = []
        for p in range(self.n_players):
            base = L.S_PLAYERS + p * L.P_SIZE + L.P_PTS
            row = {name: int(self.state[base + k]) for k, name in enumerate(L.PTS_SOURCE_NAMES)}
            if self.is_solo:
                row["solo_stars"] = int(solo_final_score(self.state)) - int(self.scores()[0])
            out.append(row)
        return out


def play_random(game: Game, rng: np.random.Generator, max_decisions: int = 200_000) -> Game:
    """Play ``game`` to its end with uniform random legal actions drawn from ``rng``."""
    for _ in range(max_decisions):
        if game.is_terminal:
            return game
        legal = game.legal_actions()
        game.step(int(legal[rng.integers(len(legal))]))
    raise RuntimeError("game did not end within max_decisions")


def action_ranges() -> Sequence[tuple[str, int, int, str]]:
    """The named ranges of the flat action space: (name, first id, length, meaning)."""
    return L.layout_rows()["action ids"]
