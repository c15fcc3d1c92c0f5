"""Declarative, validated positions: describe a table and get a :class:`~electrify_env.game.Game`
that stands there, for puzzles, tests of agents and analysis tools.

    >>> from electrify_env.position import Player, Position, Sector
    >>> game = Position(
    ...     n_players=2, seed=0, round=3, pending="acquire", current_player=0,
    ...     players={0: Player(chosen=2, hand=["P01", "I05"], depot=[2, 1, 0, 0, 0, 0, 0],
    ...                        sectors={0: Sector(column=0, cards=["P07"]), 2: Sector(column=1)}),
    ...              1: Player(chosen=4)},
    ... ).build()
    >>> game.decision().kind
    'acquire'

What a :class:`Position` does not mention stays as it was: :meth:`Position.build` starts from the
seed's setup (dealt hands, six fossil cubes, random sector order, shuffled decks, one demand card
per level) and :meth:`Position.apply` from the game it is given.  Every field is checked before
the state changes; a wrong one raises :class:`PositionError` (a ``ValueError``) naming it, e.g.
``players[0].sectors[2].cards[1]: card 'P07' is already listed at players[0].hand[0]``.

Cards are conserved: a card put in a hand or on a sector is taken from the deck or discard pile
that holds it (a card in a hand or on a sector that the position does not rewrite is refused);
a card a position takes out of a hand or off a sector goes to the bottom of its deck, a basic
card back to the supply.  ``decks`` and ``discards`` set piles explicitly.  Cards are industry
card ids (ints, or the card set's ids such as ``"P07"``) and, on sectors, basic faces
(:func:`basic_face`).

Levels (demand), sectors, columns, research spaces and hand slots count from 0, as in the
action space (:mod:`electrify_env.actions`).  The engine's automatic steps run once the
position is laid out (e.g. Charge when ``pending="discharge"``, an innovation that cannot be
made is forgone); :meth:`Game.decision` says what is pending then.  A game built or edited here
starts a fresh action record (``history`` and the decision count are reset): its actions no
longer replay from the seed.
"""
from __future__ import annotations

import dataclasses
import hashlib
import operator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence, Union

import numpy as np

from .cards import CardSet
from .decision import BOOSTS  # boost names, shared with the decision view
from .engine import layout as L
from .engine.invariants import INVARIANT_MESSAGES, check_invariants
from .engine.masks import fill_mask
from .engine.solo import STAR_CLAIMED, STAR_LOST, STAR_OPEN
from .engine.stack import pop, push, top
from .engine.step import advance
from .engine.turn import start_plan, start_turn
from .validation import InvalidArgumentError

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game
    from .scenarios import Scenario

Card = Union[int, str]


class PositionError(InvalidArgumentError):
    """A position that cannot be laid out; the message starts with the field
    (``players[1].hand[2]``, ``decks[production]``, ``pending``)."""


#: deck names, index = deck id (``T_IND_DECK``)
DECK_NAMES = ("production", "infrastructure")
SIDES = {"A": 0, "B": 1}
STAR_STATES = {"open": STAR_OPEN, "claimed": STAR_CLAIMED, "lost": STAR_LOST}
#: decisions a position can leave pending (the decision kinds of :mod:`electrify_env.decision`)
PENDING = ("plan", "solo_swap", "boost", "acquire", "discharge", "fulfill")
_TURN_FRAME = {"boost": L.FT_BOOST, "acquire": L.FT_ACQUIRE, "discharge": L.FT_CHARGE, "fulfill": L.FT_FULFILL}


def basic_face(basic: int, face: int = 0) -> int:
    """Face id of basic card ``basic``, face 0 (A) or 1 (B): what a sector slot holds."""
    return L.FACE_BASIC + 2 * basic + face


def sector_face(sector: int, side: int = 0) -> int:
    """Face id of sector tile ``sector``, side 0 (A) or 1 (B)."""
    return L.FACE_SECTOR + 2 * sector + side


def deck_index(deck: int | str, where: str = "deck") -> int:
    """0 for the production deck, 1 for infrastructure (``deck`` is 0, 1 or the name)."""
    if isinstance(deck, str) and deck in DECK_NAMES:
        return DECK_NAMES.index(deck)
    if not isinstance(deck, (bool, np.bool_)) and hasattr(deck, "__index__") and operator.index(deck) in (0, 1):
        return operator.index(deck)
    raise PositionError(f"{where} must be 0, 1, 'production' or 'infrastructure', got {deck!r}")


def with_table(cards: CardSet, table: np.ndarray, name: str | None = None) -> CardSet:
    """A card set like ``cards`` whose engine table is ``table`` (custom faces, demand cards,
    research rewards or tracks written into a copy of ``cards.table``).

    The new set holds a read-only copy of ``table`` and a hash of its own (derived from
    ``cards.hash`` and the table's bytes), so observations see its faces and a save made with it
    loads only with it (``Game.load(path, card_set=custom)``)."""
    T = np.array(table, dtype=np.int64, copy=True)
    if T.shape != (L.T_SIZE,):
        raise PositionError(f"table must have shape ({L.T_SIZE},), got {T.shape}")
    T.flags.writeable = False
    digest = hashlib.sha256(cards.hash.encode("ascii") + T.tobytes()).hexdigest()
    return dataclasses.replace(cards, table=T, hash=digest, name=name or cards.name + " (custom)")


# ----------------------------------------------------------------------------------------------
# The position
# ----------------------------------------------------------------------------------------------
@dataclass
class Sector:
    """One sector of a player board; None keeps what the game has.

    Attributes:
        column: 0..6 (every player's five sectors stand in distinct columns).
        side: ``"A"`` or ``"B"``.
        cards: the cards on it, top (slot 0) first, at most 5: industry card ids or basic faces.
        charged: a charge cube on the sector tile.
        charged_cards: slots whose card holds a charge cube (giving ``cards`` clears the others).
    """

    column: int | None = None
    side: str | None = None
    cards: Sequence[Card] | None = None
    charged: bool | None = None
    charged_cards: Sequence[int] | None = None


@dataclass
class Player:
    """One player's part of the table; None keeps what the game has.

    Attributes:
        sectors: sector id (0..4, the card set's sector order) -> :class:`Sector`.
        hand: industry cards in hand (at most 9; the engine keeps hands in ascending id order).
        depot: cubes in the depot, one count per column (7 counts).
        grid: cubes in the grid, per column.
        research: the research marker 0..6 (6 only with every breakthrough space covered:
            reaching 6 otherwise is a breakthrough, R14).
        breakthroughs: the research spaces (0..13) the player covered.
        clean_tokens: clean breakthrough tokens.
        score: energy points.
        fulfilled: demand levels (0..6) the player fulfilled; the count of fulfilments (and so
            the priority rewards left, R16) follows from it.
        demands_this_round: demand cards fulfilled in this round (at most ``len(fulfilled)``).
        chosen: the sector revealed this round (during a Plan step: the last one revealed).
        plan: the sector dialled secretly in an open Plan step (players before ``current_player``).
        boost: ``"innovation"``, ``"collaboration"`` or ``"none"``: the boost of this player's
            turn this round (the reveal decides it by R4; give it for the turn player when
            ``pending="boost"``, and for players whose turn is still to come).
    """

    sectors: Mapping[int, Sector] = field(default_factory=dict)
    hand: Sequence[Card] | None = None
    depot: Sequence[int] | None = None
    grid: Sequence[int] | None = None
    research: int | None = None
    breakthroughs: Sequence[int] | None = None
    clean_tokens: int | None = None
    score: int | None = None
    fulfilled: Sequence[int] | None = None
    demands_this_round: int | None = None
    chosen: int | None = None
    plan: int | None = None
    boost: str | None = None


@dataclass
class Position:
    """A table to lay out: :meth:`build` makes a new game of it, :meth:`apply` rewrites a game.

    Attributes:
        n_players, seed, card_set, tech_packs, scenario: the game :meth:`build` starts from
            (as for :class:`~electrify_env.game.Game`); :meth:`apply` refuses a position whose
            ``n_players`` differs from the game's.
        players: seat -> :class:`Player`.
        round: the round 1..12 (with ``pending="plan"``: the round whose Plan step is open).
        pending: the decision to leave pending, one of :data:`PENDING`: ``"plan"`` (the Plan
            step; seats before ``current_player`` have dialled), ``"solo_swap"`` (the optional
            swap of a solo game's round 1), or a step of ``current_player``'s turn:
            ``"boost"``, ``"acquire"``, ``"discharge"`` (Charge runs first, R8) or
            ``"fulfill"``.  Seats before ``current_player`` have played this round, later seats
            play after it.  None keeps the game's pending decision (and then ``round`` and
            ``current_player`` must be None too).
        current_player: the seat that decides (default 0).
        demand: level (0..6) -> the demand card in play there (an id ``"D3b"`` or an index).
        decks: deck (0/1 or its name) -> its cards, top first; the deck's other cards that are
            in no hand or sector go to its discard pile (after those ``discards`` names).
        discards: deck -> its discard pile, top (last discarded) first; the deck's other
            free cards stay in the deck, in their order.
        stars: solo games: the state of each bonus star, ``"open"``, ``"claimed"`` or ``"lost"``
            (open only before its round, lost only from its round on, R22); by default the
            unclaimed stars follow the round.
    """

    n_players: int | None = None
    seed: int = 0
    card_set: CardSet | str | Path | None = None
    tech_packs: Sequence[str | Path] = ()
    scenario: "Scenario | str | Path | None" = None
    players: Mapping[int, Player] = field(default_factory=dict)
    round: int | None = None
    pending: str | None = None
    current_player: int | None = None
    demand: Mapping[int, int | str] = field(default_factory=dict)
    decks: Mapping[int | str, Sequence[Card]] = field(default_factory=dict)
    discards: Mapping[int | str, Sequence[Card]] = field(default_factory=dict)
    stars: Sequence[str] | None = None

    def build(self) -> "Game":
        """A new game (``n_players``, ``seed``, ``card_set``, ``tech_packs``, ``scenario``)
        with this position laid out.

        Raises:
            PositionError: naming the first field that cannot be laid out (the game
                arguments raise as :class:`~electrify_env.game.Game` does).
        """
        from .game import Game
        game = Game(n_players=self.n_players, seed=self.seed, card_set=self.card_set,
                    tech_packs=self.tech_packs, scenario=self.scenario)
        return self.apply(game)

    def apply(self, game: "Game") -> "Game":
        """Rewrite ``game`` in place to this position and return it.  Every field is checked
        first: on an error the game is unchanged.

        Raises:
            PositionError: naming the first field that cannot be laid out.
        """
        if self.n_players is not None and self.n_players != game.n_players:
            raise PositionError(f"n_players: the game has {game.n_players} players, the position {self.n_players!r}")
        S = game.state.copy()
        _Layer(game, S).lay(self)
        game.state[:] = S
        game.history.clear()
        return game


# ----------------------------------------------------------------------------------------------
# Reading piles and stars (the Game accessors call these)
# ----------------------------------------------------------------------------------------------
S_DECK_PILE = (L.S_DECK, L.S_DECK_N)
S_DISC_PILE = (L.S_DISC, L.S_DISC_N)


def pile(state: np.ndarray, start: int, count_off: int, deck: int) -> list[int]:
    """The cards of a deck (``*S_DECK_PILE``) or discard pile (``*S_DISC_PILE``), top first."""
    n = int(state[count_off + deck])
    return [int(c) for c in state[start + deck * L.MAX_DECK:start + deck * L.MAX_DECK + n][::-1]]


def star_list(state: np.ndarray) -> list[dict]:
    """Solo bonus stars in round order: ``{"round": r, "state": "open" | "claimed" | "lost"}``."""
    names = {v: k for k, v in STAR_STATES.items()}
    return [{"round": int(state[L.S_STAR_ROUND + i]), "state": names[int(state[L.S_STAR_STATE + i])]}
            for i in range(int(state[L.S_SOLO_NSTARS]))]


# ----------------------------------------------------------------------------------------------
# Laying a position out
# ----------------------------------------------------------------------------------------------
def _int(v, where: str, lo: int, hi: int) -> int:
    if isinstance(v, (bool, np.bool_)) or not hasattr(v, "__index__"):
        raise PositionError(f"{where} must be an integer {lo}..{hi}, got {v!r}")
    v = operator.index(v)
    if not lo <= v <= hi:
        raise PositionError(f"{where} must be {lo}..{hi}, got {v}")
    return v


def _seq(v, where: str, length: int | None = None, most: int | None = None) -> list:
    if isinstance(v, (str, bytes)) or not isinstance(v, (list, tuple, np.ndarray, range)):
        raise PositionError(f"{where} must be a list, got {v!r}")
    v = list(v)
    if length is not None and len(v) != length:
        raise PositionError(f"{where} must hold {length} entries, got {len(v)}")
    if most is not None and len(v) > most:
        raise PositionError(f"{where} holds {len(v)} entries, at most {most} fit")
    return v


def _mapping(v, where: str) -> Mapping:
    if not isinstance(v, Mapping):
        raise PositionError(f"{where} must be a mapping (dict), got {v!r}")
    return v


def _choice(v, where: str, table: Mapping[str, int]) -> int:
    if isinstance(v, str) and v in table:
        return table[v]
    raise PositionError(f"{where} must be one of {', '.join(repr(k) for k in table)}, got {v!r}")


def _unique(values: list[int], where: str) -> None:
    if len(set(values)) != len(values):
        dup = next(v for v in values if values.count(v) > 1)
        raise PositionError(f"{where} lists {dup} twice")


class _Layer:
    """Lays one position out on a copy ``S`` of a game's state (see :meth:`Position.apply`)."""

    def __init__(self, game: "Game", S: np.ndarray) -> None:
        from .savefile import MAX_COUNT
        self.game = game
        self.S = S
        self.T = game.cards.table
        self.cards = game.cards
        self.n = game.n_players
        self.max_count = MAX_COUNT

    # ---- cards -------------------------------------------------------------------------------
    def card(self, v, where: str, basic: bool) -> int:
        """An industry card id in play (or, with ``basic``, a basic face) named by ``v``."""
        T, cs = self.T, self.cards
        if isinstance(v, str):
            if v not in cs.card_ids:
                raise PositionError(f"{where}: no industry card {v!r} in card set {cs.name!r}")
            c = cs.card_ids.index(v)
        else:
            hi = L.FACE_BASIC + 2 * cs.n_basic - 1 if basic else cs.n_ind - 1
            c = _int(v, where, 0, hi)
            if cs.n_ind <= c < L.FACE_BASIC:
                raise PositionError(f"{where} must be an industry card 0..{cs.n_ind - 1}"
                                    + (f" or a basic face {L.FACE_BASIC}..{hi}" if basic else "") + f", got {c}")
        if c < L.FACE_BASIC:
            pack = int(T[L.T_IND_PACK + c])
            if pack and not (int(self.S[L.S_OPTIONS]) >> pack) & 1:
                raise PositionError(f"{where}: card {cs.card_ids[c]} belongs to tech pack "
                                    f"{cs.pack_names[pack - 1]!r}, which this game does not play")
        return c

    def _where_is(self) -> dict[int, str]:
        """Where each industry card and basic face lies now (for messages and refusals)."""
        S = self.S
        at: dict[int, str] = {}
        for d in range(L.N_DECKS):
            for c in pile(S, L.S_DECK, L.S_DECK_N, d):
                at[c] = f"deck:{d}"
            for c in pile(S, L.S_DISC, L.S_DISC_N, d):
                at[c] = f"discard:{d}"
        for p in range(self.n):
            b = _pb(p)
            for h in range(int(S[b + L.P_HAND_N])):
                at[int(S[b + L.P_HAND + h])] = f"hand:{p}"
            for s in range(L.N_SECTORS):
                for k in range(int(S[b + L.P_SEC_N + s])):
                    at[int(S[b + L.P_SEC_CARD + s * L.MAX_SLOTS + k])] = f"sector:{p}:{s}"
        for i in range(int(S[L.S_SP])):
            f = L.S_STACK + i * L.FRAME
            if S[f] in (L.FT_PLACE_SECTOR, L.FT_PLACE_SLOT):
                at[int(S[f + L.FR_A])] = "frame"
        return at

    @staticmethod
    def _place_text(place: str) -> str:
        kind, *rest = place.split(":")
        if kind == "hand":
            return f"in player {rest[0]}'s hand"
        if kind == "sector":
            return f"on sector {rest[1]} of player {rest[0]}"
        if kind == "frame":
            return "being placed (a pending decision holds it)"
        return f"in the {DECK_NAMES[int(rest[0])]} {'deck' if kind == 'deck' else 'discard pile'}"

    # ---- the whole position ------------------------------------------------------------------
    def lay(self, pos: Position) -> None:
        S = self.S
        S[L.S_DECISIONS] = 0             # a fresh action record (see the module docstring)
        players = _mapping(pos.players, "players")
        for p in players:
            _int(p, f"players key {p!r}", 0, self.n - 1)
            if not isinstance(players[p], Player):
                raise PositionError(f"players[{p}] must be a Player, got {players[p]!r}")
        self.cards_and_piles(pos, players)
        for p, spec in players.items():
            self.player(p, spec, f"players[{p}]")
        self.demand(pos)
        self.pending(pos, players)
        self.stars(pos)
        self.check()

    def cards_and_piles(self, pos: Position, players: Mapping[int, Player]) -> None:
        """Hands, sector cards, the basic supply, decks and discard piles (card conservation)."""
        S, T = self.S, self.T
        at = self._where_is()
        hands: dict[int, list[int]] = {}
        boards: dict[tuple[int, int], list[int]] = {}
        listed: dict[int, str] = {}          # card -> field naming it

        def claim(c: int, where: str) -> None:
            if c in listed:
                if c >= L.FACE_BASIC:
                    raise PositionError(f"{where}: basic card {(c - L.FACE_BASIC) // 2} is already listed at "
                                        f"{listed[c]} (one face of a basic card is in play at a time)")
                raise PositionError(f"{where}: card {self._name(c)} is already listed at {listed[c]}")
            listed[c] = where

        for p, spec in players.items():
            if spec.hand is not None:
                w = f"players[{p}].hand"
                hands[p] = [self.card(v, f"{w}[{i}]", basic=False)
                            for i, v in enumerate(_seq(spec.hand, w, most=L.MAX_HAND))]
                for i, c in enumerate(hands[p]):
                    claim(c, f"{w}[{i}]")
            for s, sec in _mapping(spec.sectors, f"players[{p}].sectors").items():
                w = f"players[{p}].sectors[{s!r}]"
                _int(s, f"players[{p}].sectors key", 0, L.N_SECTORS - 1)
                if not isinstance(sec, Sector):
                    raise PositionError(f"{w} must be a Sector, got {sec!r}")
                if sec.cards is not None:
                    faces = [self.card(v, f"{w}.cards[{i}]", basic=True)
                             for i, v in enumerate(_seq(sec.cards, f"{w}.cards", most=L.MAX_SLOTS))]
                    boards[(p, s)] = faces
                    for i, f in enumerate(faces):   # a basic card by its face 0: one face at a time
                        claim(f if f < L.FACE_BASIC else f - (f - L.FACE_BASIC) % 2, f"{w}.cards[{i}]")
        # what the position rewrites is freed; every listed card must be free or in a pile
        freed = {f"hand:{p}" for p in hands} | {f"sector:{p}:{s}" for p, s in boards}
        basic_free = {b for b in range(self.cards.n_basic) if S[L.S_BASIC + b]}
        for c, where in listed.items():
            if c >= L.FACE_BASIC:
                b = (c - L.FACE_BASIC) // 2
                place = next((at[f] for f in (c, c + 1) if f in at), None)
                if b not in basic_free and place not in freed:
                    text = self._place_text(place) if place else "not in the supply"
                    raise PositionError(f"{where}: basic card {b} is {text}")
                continue
            place = at[c]
            if not place.startswith(("deck:", "discard:")) and place not in freed:
                raise PositionError(f"{where}: card {self._name(c)} is {self._place_text(place)}; "
                                    "give that hand or sector too, or pick another card")
        # piles: listed cards leave them, freed cards not listed go to the bottom of their deck
        decks = [pile(S, L.S_DECK, L.S_DECK_N, d) for d in range(L.N_DECKS)]
        discs = [pile(S, L.S_DISC, L.S_DISC_N, d) for d in range(L.N_DECKS)]
        returned = sorted(c for c, place in at.items() if place in freed and c not in listed and c < L.FACE_BASIC)
        for d in range(L.N_DECKS):
            decks[d] = [c for c in decks[d] if c not in listed] + [c for c in returned if T[L.T_IND_DECK + c] == d]
            discs[d] = [c for c in discs[d] if c not in listed]
        self.explicit_piles(pos, decks, discs, listed)
        for d in range(L.N_DECKS):
            for start, nf, cards in ((L.S_DECK, L.S_DECK_N, decks[d]), (L.S_DISC, L.S_DISC_N, discs[d])):
                S[start + d * L.MAX_DECK:start + (d + 1) * L.MAX_DECK] = L.NO_CARD
                S[start + d * L.MAX_DECK:start + d * L.MAX_DECK + len(cards)] = cards[::-1]
                S[nf + d] = len(cards)
        # basic supply: faces taken off sectors return, listed ones leave
        for place_key in freed:
            if place_key.startswith("sector:"):
                _, p, s = place_key.split(":")
                b0 = _pb(int(p)) + L.P_SEC_CARD + int(s) * L.MAX_SLOTS
                for k in range(int(S[_pb(int(p)) + L.P_SEC_N + int(s)])):
                    f = int(S[b0 + k])
                    if f >= L.FACE_BASIC:
                        S[L.S_BASIC + (f - L.FACE_BASIC) // 2] = 1
        for c in listed:
            if c >= L.FACE_BASIC:
                S[L.S_BASIC + (c - L.FACE_BASIC) // 2] = 0
        for p, hand in hands.items():
            b = _pb(p)
            S[b + L.P_HAND:b + L.P_HAND + L.MAX_HAND] = L.NO_CARD
            S[b + L.P_HAND:b + L.P_HAND + len(hand)] = sorted(hand)
            S[b + L.P_HAND_N] = len(hand)
        for (p, s), faces in boards.items():
            o = _pb(p) + s * L.MAX_SLOTS
            S[o + L.P_SEC_CARD:o + L.P_SEC_CARD + L.MAX_SLOTS] = L.NO_CARD
            S[o + L.P_SEC_CARD:o + L.P_SEC_CARD + len(faces)] = faces
            S[o + L.P_CARD_CHARGED:o + L.P_CARD_CHARGED + L.MAX_SLOTS] = 0
            S[_pb(p) + L.P_SEC_N + s] = len(faces)

    def explicit_piles(self, pos: Position, decks: list[list[int]], discs: list[list[int]],
                       listed: Mapping[int, str]) -> None:
        """``decks`` / ``discards`` of the position: exact piles from the deck's free cards."""
        T = self.T
        given_decks = {deck_index(k, "decks key"): v for k, v in _mapping(pos.decks, "decks").items()}
        given_discs = {deck_index(k, "discards key"): v for k, v in _mapping(pos.discards, "discards").items()}
        at = None
        for d in range(L.N_DECKS):
            if d not in given_decks and d not in given_discs:
                continue
            free = decks[d] + discs[d]
            lists = {}
            for name, given in (("decks", given_decks), ("discards", given_discs)):
                if d in given:
                    w = f"{name}[{DECK_NAMES[d]}]"
                    cards = [self.card(v, f"{w}[{i}]", basic=False)
                             for i, v in enumerate(_seq(given[d], w, most=L.MAX_DECK))]
                    _unique(cards, w)
                    for i, c in enumerate(cards):
                        if T[L.T_IND_DECK + c] != d:
                            raise PositionError(f"{w}[{i}]: card {self._name(c)} is a "
                                                f"{DECK_NAMES[int(T[L.T_IND_DECK + c])]} card")
                        if c not in free:
                            at = at or self._where_is()
                            place = f"listed at {listed[c]}" if c in listed else self._place_text(at[c])
                            raise PositionError(f"{w}[{i}]: card {self._name(c)} is {place}")
                    lists[name] = cards
            if "decks" in lists and "discards" in lists:
                both = set(lists["decks"]) & set(lists["discards"])
                if both:
                    raise PositionError(f"decks[{DECK_NAMES[d]}]: card {self._name(min(both))} is in discards too")
                missing = [c for c in free if c not in both and c not in lists["decks"] and c not in lists["discards"]]
                if missing:
                    names = ", ".join(self._name(c) for c in missing[:5])
                    raise PositionError(f"decks[{DECK_NAMES[d]}]: cards {names} are in neither the deck nor "
                                        "the discard pile (nor a hand or sector)")
                decks[d], discs[d] = lists["decks"], lists["discards"]
            elif "decks" in lists:
                rest = [c for c in discs[d] + decks[d] if c not in lists["decks"]]
                decks[d], discs[d] = lists["decks"], rest
            else:
                decks[d] = [c for c in free if c not in lists["discards"] and c in decks[d]] + \
                    [c for c in discs[d] if c not in lists["discards"]]
                discs[d] = lists["discards"]

    def _name(self, c: int) -> str:
        if c >= L.FACE_BASIC:
            return f"basic card {(c - L.FACE_BASIC) // 2} face {'AB'[(c - L.FACE_BASIC) % 2]}"
        return f"{self.cards.card_ids[c]} ({c})"

    # ---- one player --------------------------------------------------------------------------
    def player(self, p: int, spec: Player, w: str) -> None:
        S = self.S
        b = _pb(p)
        big = self.max_count
        for s, sec in spec.sectors.items():
            ws = f"{w}.sectors[{s}]"
            if sec.column is not None:
                S[b + L.P_SEC_COL + s] = _int(sec.column, f"{ws}.column", 0, L.N_COLS - 1)
            if sec.side is not None:
                S[b + L.P_SEC_SIDE + s] = _choice(sec.side, f"{ws}.side", SIDES)
            if sec.charged is not None:
                if not isinstance(sec.charged, (bool, np.bool_)):
                    raise PositionError(f"{ws}.charged must be True or False, got {sec.charged!r}")
                S[b + L.P_SEC_CHARGED + s] = int(sec.charged)
            if sec.charged_cards is not None:
                n = int(S[b + L.P_SEC_N + s])
                slots = _seq(sec.charged_cards, f"{ws}.charged_cards")
                if slots and not n:
                    raise PositionError(f"{ws}.charged_cards: the sector holds no card")
                slots = [_int(k, f"{ws}.charged_cards[{i}]", 0, n - 1) for i, k in enumerate(slots)]
                o = b + L.P_CARD_CHARGED + s * L.MAX_SLOTS
                S[o:o + L.MAX_SLOTS] = 0
                for k in slots:
                    S[o + k] = 1
        cols = [int(S[b + L.P_SEC_COL + s]) for s in range(L.N_SECTORS)]
        for s in range(L.N_SECTORS):
            if cols.index(cols[s]) != s:
                raise PositionError(f"{w}.sectors: sectors {cols.index(cols[s])} and {s} both stand in column "
                                    f"{cols[s]} (give every moved sector its column)")
        for name, off in (("depot", L.P_DEPOT), ("grid", L.P_GRID)):
            v = getattr(spec, name)
            if v is not None:
                S[b + off:b + off + L.N_COLS] = [_int(x, f"{w}.{name}[{c}]", 0, big)
                                                 for c, x in enumerate(_seq(v, f"{w}.{name}", L.N_COLS))]
        if spec.breakthroughs is not None:
            spaces = [_int(k, f"{w}.breakthroughs[{i}]", 0, L.N_BT_SPACES - 1)
                      for i, k in enumerate(_seq(spec.breakthroughs, f"{w}.breakthroughs"))]
            _unique(spaces, f"{w}.breakthroughs")
            S[b + L.P_BT:b + L.P_BT + L.N_BT_SPACES] = 0
            for k in spaces:
                S[b + L.P_BT + k] = 1
        if spec.research is not None:
            S[b + L.P_RESEARCH] = _int(spec.research, f"{w}.research", 0, L.RESEARCH_TRACK)
        if S[b + L.P_RESEARCH] == L.RESEARCH_TRACK and not S[b + L.P_BT:b + L.P_BT + L.N_BT_SPACES].all():
            raise PositionError(f"{w}.research: the marker rests on {L.RESEARCH_TRACK} only once every "
                                "breakthrough space is covered (reaching it is a breakthrough, R14)")
        for name, off in (("clean_tokens", L.P_CLEAN), ("score", L.P_SCORE)):
            v = getattr(spec, name)
            if v is not None:
                S[b + off] = _int(v, f"{w}.{name}", 0, big)
        if spec.fulfilled is not None:
            levels = [_int(lv, f"{w}.fulfilled[{i}]", 0, L.N_LEVELS - 1)
                      for i, lv in enumerate(_seq(spec.fulfilled, f"{w}.fulfilled"))]
            _unique(levels, f"{w}.fulfilled")
            S[b + L.P_FULFILLED:b + L.P_FULFILLED + L.N_LEVELS] = 0
            for lv in levels:
                S[b + L.P_FULFILLED + lv] = 1
            S[b + L.P_NFULFILLED] = len(levels)
            if spec.demands_this_round is None:
                S[b + L.P_DEMANDS_ROUND] = min(int(S[b + L.P_DEMANDS_ROUND]), len(levels))
        if spec.demands_this_round is not None:
            S[b + L.P_DEMANDS_ROUND] = _int(spec.demands_this_round, f"{w}.demands_this_round",
                                            0, int(S[b + L.P_NFULFILLED]))
        if spec.chosen is not None:
            S[b + L.P_CHOSEN] = _int(spec.chosen, f"{w}.chosen", 0, L.N_SECTORS - 1)
        if spec.boost is not None:
            S[b + L.P_BOOST] = _choice(spec.boost, f"{w}.boost", BOOSTS)

    def demand(self, pos: Position) -> None:
        T, cs = self.T, self.cards
        for lv, d in _mapping(pos.demand, "demand").items():
            lv = _int(lv, "demand key (a level)", 0, L.N_LEVELS - 1)
            w = f"demand[{lv}]"
            if isinstance(d, str):
                if d not in cs.demand_names:
                    raise PositionError(f"{w}: no demand card {d!r} in card set {cs.name!r}")
                d = cs.demand_names.index(d)
            d = _int(d, w, 0, cs.n_demand - 1)
            if T[L.T_D_LEVEL + d] != lv:
                raise PositionError(f"{w}: demand card {cs.demand_names[d]} belongs to level "
                                    f"{int(T[L.T_D_LEVEL + d])} (levels count from 0: level 0 is I)")
            self.S[L.S_DEMAND + lv] = d

    # ---- round, turn and the pending decision ------------------------------------------------
    def pending(self, pos: Position, players: Mapping[int, Player]) -> None:
        S, n = self.S, self.n
        solo = bool(S[L.S_SOLO])
        if pos.pending is None:
            for name in ("round", "current_player"):
                if getattr(pos, name) is not None:
                    raise PositionError(f"{name}: give pending too (the decision to leave open)")
            for p, spec in players.items():
                if spec.plan is not None:
                    raise PositionError(f"players[{p}].plan: a secret dial needs pending='plan'")
            return
        kind = pos.pending
        if kind not in PENDING:
            raise PositionError(f"pending must be one of {', '.join(PENDING)}, got {kind!r}")
        if kind == "solo_swap" and not solo:
            raise PositionError("pending: 'solo_swap' is the start of a solo game only")
        if pos.round is None:
            raise PositionError(f"round: give the round (1..{L.N_ROUNDS}) with pending={kind!r}")
        rnd = _int(pos.round, "round", 1, 1 if kind == "solo_swap" else L.N_ROUNDS)
        cur = 0 if pos.current_player is None else _int(pos.current_player, "current_player", 0, n - 1)
        S[L.S_STACK:L.S_STACK + L.MAX_STACK * L.FRAME] = 0
        S[L.S_SP] = 0
        S[L.S_TERMINAL] = 0
        if kind in ("plan", "solo_swap"):
            S[L.S_ROUND] = rnd - 1
            for p in range(n):
                b = _pb(p)
                spec = players.get(p)
                if spec is not None and spec.plan is not None:
                    if p >= cur or kind == "solo_swap":
                        raise PositionError(f"players[{p}].plan: only seats before current_player ({cur}) have dialled")
                    S[b + L.P_PLAN] = _int(spec.plan, f"players[{p}].plan", 0, L.N_SECTORS - 1)
                elif p < cur:
                    raise PositionError(f"players[{p}].plan: seats before current_player ({cur}) have dialled; "
                                        "give the sector")
                else:
                    S[b + L.P_PLAN] = -1
                self._chosen_for_round(p, rnd - 1, spec)
            start_plan(S)
            S[L.S_CUR] = cur
            if kind == "solo_swap":
                push(S, L.FT_SOLO_SWAP, 0, 0, 0, 0)
            return
        S[L.S_ROUND] = rnd
        for p, spec in players.items():
            if spec.plan is not None:
                raise PositionError(f"players[{p}].plan: a secret dial needs pending='plan'")
        for p in range(n):
            b = _pb(p)
            S[b + L.P_PLAN] = -1
            self._chosen_for_round(p, rnd, players.get(p))
            if p < cur:
                S[b + L.P_BOOST] = L.BOOST_NONE
        b = _pb(cur)
        if kind == "boost":
            if S[b + L.P_BOOST] == L.BOOST_NONE:
                raise PositionError(f"players[{cur}].boost: pending='boost' needs the turn player's boost "
                                    "('innovation' or 'collaboration')")
        else:
            S[b + L.P_BOOST] = L.BOOST_NONE
        start_turn(S, cur)
        while S[top(S)] != _TURN_FRAME[kind]:
            pop(S)
        advance(S, self.T)

    def _chosen_for_round(self, p: int, state_round: int, spec: Player | None) -> None:
        b = _pb(p)
        if state_round == 0:
            if spec is not None and spec.chosen is not None:
                raise PositionError(f"players[{p}].chosen: nothing is revealed before the first Plan step ends")
            self.S[b + L.P_CHOSEN] = -1
        elif self.S[b + L.P_CHOSEN] < 0:
            raise PositionError(f"players[{p}].chosen: from round 1 on every player has a revealed sector "
                                "(during a Plan step: the last one revealed); give it")

    def stars(self, pos: Position) -> None:
        S = self.S
        nst = int(S[L.S_SOLO_NSTARS])
        rnd = int(S[L.S_ROUND])
        if pos.stars is not None:
            if not S[L.S_SOLO]:
                raise PositionError("stars: bonus stars belong to solo games")
            states = [_choice(v, f"stars[{i}]", STAR_STATES)
                      for i, v in enumerate(_seq(pos.stars, "stars", nst))]
            for i, st in enumerate(states):
                r = int(S[L.S_STAR_ROUND + i])
                if st == STAR_OPEN and rnd >= r:
                    raise PositionError(f"stars[{i}]: the star of round {r} is no longer open in round {rnd}")
                if st == STAR_LOST and rnd < r:
                    raise PositionError(f"stars[{i}]: the star of round {r} cannot be lost before round {r}")
                S[L.S_STAR_STATE + i] = st
            return
        for i in range(nst):
            if S[L.S_STAR_STATE + i] != STAR_CLAIMED:
                S[L.S_STAR_STATE + i] = STAR_LOST if rnd >= S[L.S_STAR_ROUND + i] else STAR_OPEN

    def check(self) -> None:
        """The laid-out state must be a state the engine can play on (the save checks, the
        engine's invariants, at least one legal action)."""
        from .savefile import InvalidSaveError, check_state
        g = self.game
        # A state whose player count or solo flag disagrees with its Game (a scenario table laid
        # out by hand, without a Scenario) cannot be held against the save checks: it gets the
        # engine's invariants only.
        if int(self.S[L.S_NPLAYERS]) == g.n_players and bool(self.S[L.S_SOLO]) == (g.scenario is not None):
            try:
                check_state(self.S, g.cards, g.scenario, g.n_players, g.options)
            except InvalidSaveError as err:
                raise PositionError(f"the position is not a playable state: {err}") from None
        code = check_invariants(self.S, self.T)
        if code:
            raise PositionError(f"the position breaks an invariant: {INVARIANT_MESSAGES[code]}")
        if not self.S[L.S_TERMINAL] and fill_mask(self.S, self.T, np.zeros(L.N_ACTIONS, np.uint8)) == 0:
            raise PositionError("the position leaves the pending decision without a legal action")


def _pb(p: int) -> int:
    return L.S_PLAYERS + p * L.P_SIZE
