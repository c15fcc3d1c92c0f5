"""The Python face of the engine: one :class:`Game` object wraps a state array and a card set.

Every rule runs in the jitted functions of :mod:`electrify_env.engine`; this module only
validates input, keeps the action history and offers saving, replay, descriptions and rendering.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from .cards import DEFAULT_CARDS_DIR, CardSet, load_card_set
from .engine import layout as L
from .engine.invariants import INVARIANT_MESSAGES, check_invariants
from .engine.masks import fill_mask
from .engine.observe import OBS_SIZE, OBS_VERSION, face_features, feature_names, observe
from .engine.scoring import rank_keys, winners_mask
from .engine.setup import init_state
from .engine.solo import init_solo, solo_final_score, stars_claimed
from .scenarios import SCENARIOS_DIR, Scenario, load_scenario
from .engine.step import apply_action, step_checked
from . import describe as _describe

SAVE_FORMAT = "electrify-game"
SAVE_VERSION = 1
MAX_SEED = (1 << 62) - 1


class IllegalActionError(ValueError):
    """Raised by :meth:`Game.step` for an action id that is not legal now; the state is unchanged."""


_FF_CACHE: dict[str, np.ndarray] = {}


def _face_table(cards: CardSet) -> np.ndarray:
    ff = _FF_CACHE.get(cards.hash)
    if ff is None:
        ff = face_features(cards.table)
        ff.flags.writeable = False
        _FF_CACHE[cards.hash] = ff
    return ff


def _check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    seed = int(seed)
    if seed < 0 or seed > MAX_SEED:
        raise ValueError(f"seed must be between 0 and 2**62-1, got {seed}")
    return seed


def _check_players(n_players, solo: bool) -> int:
    if isinstance(n_players, bool) or not isinstance(n_players, (int, np.integer)):
        raise ValueError(f"n_players must be an integer 1-4, got {n_players!r}")
    n = int(n_players)
    if solo and n != 1:
        raise ValueError(f"n_players must be 1 in a solo scenario game, got {n}")
    if not solo and not 2 <= n <= L.MAX_PLAYERS:
        if n == 1:
            raise ValueError("n_players=1 is solo play: give a scenario (see `electrify scenarios`)")
        raise ValueError(f"n_players must be 2, 3 or 4 (or 1 with a scenario), got {n}")
    return n


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
        raise ValueError(f"unknown tech pack {text!r}; shipped packs: {', '.join(tech_pack_names())}")
    return path


def _portable(path: Path, folder: Path) -> str:
    """A path relative to a config folder when it lies inside it (saves stay portable)."""
    try:
        return str(Path(path).resolve().relative_to(folder.resolve()))
    except ValueError:
        return str(path)


def _unportable(text: str, folder: Path) -> Path:
    p = Path(text)
    return p if p.is_absolute() else folder / p


class Game:
    """One game of Electrify.

    Args:
        n_players: 2, 3 or 4; 1 for a solo scenario (the default when ``scenario`` is given).
        seed: any integer in [0, 2**62); the whole game (deal, decks, demand cards, sector order,
            deck rebuilds, solo tokens and random level) follows from it and the actions (R25).
        card_set: a :class:`~electrify_env.cards.CardSet` (its tech packs included), a path to a
            card-set YAML file, or None for the shipped base set.
        tech_packs: tech packs to shuffle into the decks: shipped names (``"grid"``,
            ``"market"``, see :func:`tech_pack_names`) or pack-file paths.
        scenario: a solo scenario id (``electrify scenarios``), a path, or a
            :class:`~electrify_env.scenarios.Scenario`; makes the game a solo game.

    The pending decision belongs to :attr:`current_player`; :meth:`legal_mask` lists its legal
    ids and :meth:`step` applies one.
    """

    def __init__(self, n_players: int | None = None, seed: int = 0,
                 card_set: CardSet | str | Path | None = None, tech_packs: Sequence[str | Path] = (),
                 scenario: Scenario | str | Path | None = None) -> None:
        if isinstance(card_set, CardSet):
            if tech_packs:
                raise ValueError("give tech packs either inside the CardSet or as tech_packs, not both")
            self.cards = card_set
        else:
            self.cards = load_card_set(card_set, tech_packs=tuple(resolve_tech_pack(p) for p in tech_packs))
        if scenario is not None and not isinstance(scenario, Scenario):
            scenario = load_scenario(scenario)
        self.scenario: Scenario | None = scenario
        if n_players is None:
            n_players = 1 if scenario is not None else 2
        self.n_players = _check_players(n_players, scenario is not None)
        self.seed = _check_seed(seed)
        self.options = sum(1 << k for k in range(1, len(self.cards.pack_names) + 1))
        self.state = np.zeros(L.S_SIZE, dtype=np.int64)
        self.history: list[int] = []
        self._mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        self._ff = _face_table(self.cards)
        init_state(self.state, self.cards.table, np.int64(self.n_players), np.int64(self.seed),
                   np.int64(self.options))
        if scenario is not None:
            init_solo(self.state, scenario.table)

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
        if not 0 <= int(player) < self.n_players:
            raise ValueError(f"player must be 0..{self.n_players - 1}, got {player}")
        out = np.zeros(OBS_SIZE, dtype=np.float32)
        observe(self.state, self.cards.table, self._ff, np.int64(player), out)
        return out

    feature_names = staticmethod(feature_names)
    OBS_SIZE = OBS_SIZE
    OBS_VERSION = OBS_VERSION
    N_ACTIONS = L.N_ACTIONS

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
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"action must be an integer id, got {action!r}")
        a = int(action)
        if self.state[L.S_TERMINAL]:
            raise IllegalActionError(f"action {a}: the game is over")
        if step_checked(self.state, self.cards.table, np.int64(a), self._mask) != 0:
            what = "out of range 0..%d" % (L.N_ACTIONS - 1) if not 0 <= a < L.N_ACTIONS else "not legal"
            raise IllegalActionError(
                f"action {a} is {what} at the pending decision of player {self.current_player}: "
                f"{self.pending()}; legal ids: {self.legal_actions().tolist()}")
        self.history.append(a)

    def step_unchecked(self, action: int) -> None:
        """Apply ``action`` without the legality check (for agents that already hold the mask).
        An illegal id here corrupts the game; prefer :meth:`step`."""
        apply_action(self.state, self.cards.table, np.int64(action))
        self.history.append(int(action))

    # ---- text --------------------------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        """Human-readable meaning of ``action`` at the pending decision."""
        return _describe.describe_action(self, int(action))

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
        g = object.__new__(Game)
        g.cards = self.cards
        g.n_players = self.n_players
        g.seed = self.seed
        g.options = self.options
        g.scenario = self.scenario
        g.state = self.state.copy()
        g.history = list(self.history)
        g._mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        g._ff = self._ff
        return g

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
    def from_dict(cls, data: dict, card_set: CardSet | None = None) -> "Game":
        """Restore a game saved by :meth:`to_dict`.  The card set is reloaded from the saved
        paths (or ``card_set``) and must have the saved hash."""
        if data.get("format") != SAVE_FORMAT:
            raise ValueError("not an electrify game save (missing format 'electrify-game')")
        if data.get("version") != SAVE_VERSION or data.get("state_version") != L.STATE_VERSION:
            raise ValueError(f"save version {data.get('version')}/{data.get('state_version')} is not "
                             f"supported (this engine writes {SAVE_VERSION}/{L.STATE_VERSION})")
        cards = card_set
        if cards is None:
            paths = [_unportable(p, DEFAULT_CARDS_DIR) for p in data["card_set"]["paths"]]
            cards = load_card_set(paths[0], tech_packs=tuple(paths[1:]))
        if cards.hash != data["card_set"]["hash"]:
            raise ValueError("the card set differs from the one the game was saved with "
                             f"(hash {cards.hash[:12]} != {data['card_set']['hash'][:12]})")
        scenario = None
        if data.get("scenario"):
            scenario = load_scenario(_unportable(data["scenario"]["path"], SCENARIOS_DIR))
            if scenario.hash != data["scenario"]["hash"]:
                raise ValueError("the scenario differs from the one the game was saved with")
        state = np.asarray(data["state"], dtype=np.int64)
        if state.shape != (L.S_SIZE,):
            raise ValueError(f"saved state has length {state.size}, expected {L.S_SIZE}")
        g = object.__new__(cls)
        g.cards = cards
        g.scenario = scenario
        g.n_players = _check_players(data["n_players"], scenario is not None)
        g.seed = _check_seed(data["seed"])
        g.options = int(data.get("options", 0))
        g.state = state
        g.history = [int(a) for a in data["actions"]]
        g._mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        g._ff = _face_table(cards)
        return g

    @classmethod
    def from_json(cls, text: str, card_set: CardSet | None = None) -> "Game":
        """Restore a game from :meth:`to_json` text."""
        return cls.from_dict(json.loads(text), card_set)

    @classmethod
    def load(cls, path: str | Path, card_set: CardSet | None = None) -> "Game":
        """Restore a game saved by :meth:`save`."""
        return cls.from_json(Path(path).read_text(), card_set)

    @classmethod
    def replay(cls, actions: Iterable[int], n_players: int | None = None, seed: int = 0,
               card_set: CardSet | str | Path | None = None, tech_packs: Sequence[str | Path] = (),
               scenario: Scenario | str | Path | None = None) -> "Game":
        """Rebuild a game from its seed and action list (every action is checked)."""
        g = cls(n_players=n_players, seed=seed, card_set=card_set, tech_packs=tech_packs, scenario=scenario)
        for a in actions:
            g.step(a)
        return g

    def same_as(self, other: "Game") -> bool:
        """True if both games hold identical states."""
        return bool(np.array_equal(self.state, other.state))


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
