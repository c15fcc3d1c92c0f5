"""Declarative Gizmos positions: describe a table by name and get a :class:`Game` standing there.

    >>> from electrify_env.gizmos.position import Player, Position
    >>> g = Position(n_players=2, current_player=0, players={
    ...     0: Player(machines={"file": ["S0"], "converter": ["L1-08"]},
    ...               storage={"red": 2}, archive=["L1-05"]),
    ... }, display={1: ["L1-10", "L1-11", "L1-12", "L1-13"]}).build()
    >>> g.decision().kind
    'main'

Everything a position names is set; everything else stays as the seed's setup left it.  Cards are
conserved: a card put somewhere is taken from wherever it was (deck, display, the box, another
player); a display slot emptied that way is refilled from its deck as in the game; cards left out
of an explicit ``decks`` entry (and starting cards left off a dashboard) go to the box, and so do
display cards that an explicit ``display`` entry replaces when that level's deck is explicit too
(otherwise they go under their deck).  Marbles
are conserved: the dispenser is what the game's marbles leave after storages and the row (or is
given, and then must add up).  A wrong field raises :class:`PositionError` naming it, e.g.
``players[0].machines[pick][0]: card 'L1-08' is a converter, not a pick machine``.

Names: columns ``upgrade``, ``converter``, ``file``, ``pick``, ``build``; colours ``red``,
``yellow``, ``blue``, ``black``; levels 1..3 for the display and the decks; cards by id
(``"L2-05"``) or index; deck lists are top first.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence, Union

import numpy as np

from ..validation import InvalidArgumentError
from .cards import COLOURS, TYPES, CardSet, CardSetError
from .engine import gz_layout as L
from .engine.gz_board import recompute_limits
from .engine.gz_energy import pbase
from .engine.gz_step import advance
from .game import Game

Card = Union[int, str]
PHASES = ("main", "chain")


class PositionError(InvalidArgumentError):
    """A position that cannot be laid out; the message starts with the field."""


@dataclass
class Player:
    """One seat.  ``None`` keeps what the setup gave.

    Attributes:
        machines: column name -> card list (the whole dashboard when given; build order is the
            order of the columns above, then the list order).
        archive: archive cards, in filing order.
        storage: colour -> marbles.
        tokens: victory point tokens.
        waiting: machines (card ids) triggered and waiting (G13).
        used: machines used this turn.
        converters_used: converter card -> option numbers (1 or 2) used this turn.
        known_under: deck level (1..3) -> cards of that deck whose place the seat knows, as
            after it put them under the deck at the end of a Research (G25).
    """

    machines: Mapping[str, Sequence[Card]] | None = None
    archive: Sequence[Card] | None = None
    storage: Mapping[str, int] | None = None
    tokens: int | None = None
    waiting: Sequence[Card] = ()
    used: Sequence[Card] = ()
    converters_used: Mapping[Card, Sequence[int]] = field(default_factory=dict)
    known_under: Mapping[int, Sequence[Card]] = field(default_factory=dict)


@dataclass
class Position:
    """A whole table.  ``None`` keeps the setup's value.

    Attributes:
        n_players: 2..4.
        seed: the seed of the setup the position starts from (and of the generator).
        players: seat -> :class:`Player`.
        display: level (1..3) -> cards in slot order (``None`` for an empty slot).
        decks: level (1..3) -> cards, top first (the rest of that level goes to the box).
        row: colour -> marbles in the Energy Row.
        dispenser: colour -> marbles (default: what the other places leave).
        round: the round, from 1.
        current_player: the active seat.
        phase: ``main`` (choose one of the four actions) or ``chain`` (waiting machines).
        ending: True when an end condition already held this round (G20).
        card_set: the card set (None: the default).
    """

    n_players: int = 2
    seed: int = 0
    players: Mapping[int, Player] = field(default_factory=dict)
    display: Mapping[int, Sequence[Card | None]] | None = None
    decks: Mapping[int, Sequence[Card]] | None = None
    row: Mapping[str, int] | None = None
    dispenser: Mapping[str, int] | None = None
    round: int | None = None
    current_player: int | None = None
    phase: str = "main"
    ending: bool = False
    card_set: CardSet | None = None

    def build(self) -> Game:
        """A new :class:`Game` standing at this position."""
        game = Game(self.n_players, self.seed, self.card_set)
        _Builder(game, self).run()
        return game


class _Builder:
    def __init__(self, game: Game, pos: Position) -> None:
        self.g = game
        self.p = pos
        self.S = game.state
        self.T = game.cards.table
        self.cs = game.cards

    def card(self, where: str, c: Card) -> int:
        try:
            return self.cs.index(c)
        except CardSetError as e:
            raise PositionError(f"{where}: {e}") from None

    # locating and removing cards ---------------------------------------------------------
    def take(self, card: int) -> None:
        """Remove ``card`` from wherever it is now."""
        S = self.S
        for d in range(L.N_DECKS):
            base = L.S_DECK + d * L.MAX_DECK
            n = int(S[L.S_DECK_N + d])
            items = [int(x) for x in S[base:base + n]]
            if card in items:
                items.remove(card)
                S[base:base + L.MAX_DECK] = L.NO_CARD
                S[base:base + len(items)] = items
                S[L.S_DECK_N + d] = len(items)
                return
            for k in range(L.MAX_DISPLAY):
                if S[L.S_DISPLAY + d * L.MAX_DISPLAY + k] == card:
                    S[L.S_DISPLAY + d * L.MAX_DISPLAY + k] = L.NO_CARD
                    self.emptied.append((d, k))
                    return
        box = [int(x) for x in S[L.S_BOX:L.S_BOX + S[L.S_BOX_N]]]
        if card in box:
            box.remove(card)
            self._set_box(box)
            return
        for p in range(self.g.n_players):
            pb = pbase(p)
            built = [int(x) for x in S[pb + L.P_BUILT:pb + L.P_BUILT + S[pb + L.P_BUILT_N]]]
            if card in built:
                built.remove(card)
                S[pb + L.P_BUILT:pb + L.P_BUILT + L.MAX_BUILT] = 0
                S[pb + L.P_BUILT:pb + L.P_BUILT + len(built)] = built
                S[pb + L.P_BUILT_N] = len(built)
                return
            arch = [int(x) for x in S[pb + L.P_ARCH:pb + L.P_ARCH + S[pb + L.P_ARCH_N]]]
            if card in arch:
                arch.remove(card)
                self._set_archive(pb, arch)
                return

    def _set_box(self, box: list[int]) -> None:
        self.S[L.S_BOX:L.S_BOX + L.MAX_CARDS] = L.NO_CARD
        self.S[L.S_BOX:L.S_BOX + len(box)] = box
        self.S[L.S_BOX_N] = len(box)

    def _set_archive(self, pb: int, arch: list[int]) -> None:
        self.S[pb + L.P_ARCH:pb + L.P_ARCH + L.MAX_ARCHIVE] = L.NO_CARD
        self.S[pb + L.P_ARCH:pb + L.P_ARCH + len(arch)] = arch
        self.S[pb + L.P_ARCH_N] = len(arch)

    def colours(self, where: str, spec: Mapping[str, int]) -> list[int]:
        if not isinstance(spec, Mapping):
            raise PositionError(f"{where}: must map colours ({', '.join(COLOURS)}) to counts")
        out = [0] * 4
        for name, n in spec.items():
            if name not in COLOURS:
                raise PositionError(f"{where}: unknown colour {name!r} (colours: {', '.join(COLOURS)})")
            if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 0:
                raise PositionError(f"{where}[{name}]: must be a whole number from 0, got {n!r}")
            out[COLOURS.index(name)] = int(n)
        return out

    # the build ---------------------------------------------------------------------------
    def run(self) -> None:
        S, T, pos, g = self.S, self.T, self.p, self.g
        self.emptied: list[tuple[int, int]] = []
        placed: dict[int, str] = {}

        def claim(where: str, c: Card) -> int:
            card = self.card(where, c)
            if card in placed:
                raise PositionError(f"{where}: card {self.cs.ids[card]!r} is already listed at {placed[card]}")
            placed[card] = where
            self.take(card)
            return card

        for seat in pos.players:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < g.n_players:
                raise PositionError(f"players[{seat!r}]: seat must be 0..{g.n_players - 1}")
        if pos.phase not in PHASES:
            raise PositionError(f"phase: must be one of {', '.join(PHASES)}, got {pos.phase!r}")
        # dashboards and archives
        for seat, pl in pos.players.items():
            pb = pbase(seat)
            where = f"players[{seat}]"
            if pl.machines is not None:
                if not isinstance(pl.machines, Mapping):
                    raise PositionError(f"{where}.machines: must map columns ({', '.join(TYPES)}) to card lists")
                for col in pl.machines:
                    if col not in TYPES:
                        raise PositionError(f"{where}.machines: unknown column {col!r} (columns: {', '.join(TYPES)})")
                old = [int(x) for x in S[pb + L.P_BUILT:pb + L.P_BUILT + S[pb + L.P_BUILT_N]]]
                S[pb + L.P_BUILT_N] = 0
                cards = []
                for col in TYPES:
                    for i, c in enumerate(pl.machines.get(col, ())):
                        w = f"{where}.machines[{col}][{i}]"
                        card = claim(w, c)
                        typ = int(T[L.T_TYPE + card])
                        if typ != TYPES[col]:
                            kind = [k for k, v in TYPES.items() if v == typ][0]
                            raise PositionError(f"{w}: card {self.cs.ids[card]!r} is a {kind} card, not a {col} machine")
                        cards.append(card)
                if len(cards) > L.MAX_BUILT:
                    raise PositionError(f"{where}.machines: at most {L.MAX_BUILT} machines")
                box = [int(x) for x in S[L.S_BOX:L.S_BOX + S[L.S_BOX_N]]]
                box += [c for c in old if c not in cards]
                self._set_box(box)
                S[pb + L.P_BUILT:pb + L.P_BUILT + L.MAX_BUILT] = 0
                S[pb + L.P_BUILT:pb + L.P_BUILT + len(cards)] = cards
                S[pb + L.P_BUILT_N] = len(cards)
            if pl.archive is not None:
                arch = [claim(f"{where}.archive[{i}]", c) for i, c in enumerate(pl.archive)]
                if len(arch) > L.MAX_ARCHIVE:
                    raise PositionError(f"{where}.archive: at most {L.MAX_ARCHIVE} cards")
                self._set_archive(pb, arch)
        # display and decks
        if pos.decks is not None:
            for lv, cards in pos.decks.items():
                where = f"decks[{lv}]"
                if lv not in (1, 2, 3):
                    raise PositionError(f"{where}: level must be 1, 2 or 3")
                ids = [claim(f"{where}[{i}]", c) for i, c in enumerate(cards)]
                for c in ids:
                    if T[L.T_LEVEL + c] != lv:
                        raise PositionError(f"{where}: card {self.cs.ids[c]!r} is not a level-{lv} card")
                d = lv - 1
                base = L.S_DECK + d * L.MAX_DECK
                rest = [int(x) for x in S[base:base + S[L.S_DECK_N + d]]]
                self._set_box([int(x) for x in S[L.S_BOX:L.S_BOX + S[L.S_BOX_N]]] + rest)
                S[base:base + L.MAX_DECK] = L.NO_CARD
                S[base:base + len(ids)] = list(reversed(ids))   # stored bottom first
                S[L.S_DECK_N + d] = len(ids)
        if pos.display is not None:
            for lv, cards in pos.display.items():
                where = f"display[{lv}]"
                if lv not in (1, 2, 3):
                    raise PositionError(f"{where}: level must be 1, 2 or 3")
                d = lv - 1
                if len(cards) > T[L.T_DISPLAY + d]:
                    raise PositionError(f"{where}: level {lv} has {T[L.T_DISPLAY + d]} slots, got {len(cards)} cards")
                ids = []
                for i, c in enumerate(cards):
                    if c is None:
                        ids.append(L.NO_CARD)
                        continue
                    card = claim(f"{where}[{i}]", c)
                    if T[L.T_LEVEL + card] != lv:
                        raise PositionError(f"{where}[{i}]: card {self.cs.ids[card]!r} is not a level-{lv} card")
                    ids.append(card)
                old = [int(S[L.S_DISPLAY + d * L.MAX_DISPLAY + k]) for k in range(L.MAX_DISPLAY)]
                ids += [L.NO_CARD] * (L.MAX_DISPLAY - len(ids))
                S[L.S_DISPLAY + d * L.MAX_DISPLAY:L.S_DISPLAY + (d + 1) * L.MAX_DISPLAY] = ids
                back = [c for c in old if c != L.NO_CARD and c not in ids]
                base = L.S_DECK + d * L.MAX_DECK
                deck = [int(x) for x in S[base:base + S[L.S_DECK_N + d]]]
                if pos.decks is not None and lv in pos.decks:   # an explicit deck: to the box
                    self._set_box([int(x) for x in S[L.S_BOX:L.S_BOX + S[L.S_BOX_N]]] + back)
                else:                       # displaced display cards go under their deck
                    deck = back + deck
                if len(deck) > L.MAX_DECK:
                    raise PositionError(f"{where}: deck {lv} would pass {L.MAX_DECK} cards")
                S[base:base + L.MAX_DECK] = L.NO_CARD
                S[base:base + len(deck)] = deck
                S[L.S_DECK_N + d] = len(deck)
                self.emptied = [(dd, k) for dd, k in self.emptied if dd != d]
        for d, k in self.emptied:          # slots emptied by a card moved elsewhere: refill
            if S[L.S_DISPLAY + d * L.MAX_DISPLAY + k] == L.NO_CARD and S[L.S_DECK_N + d] > 0:
                n = int(S[L.S_DECK_N + d])
                S[L.S_DISPLAY + d * L.MAX_DISPLAY + k] = S[L.S_DECK + d * L.MAX_DECK + n - 1]
                S[L.S_DECK + d * L.MAX_DECK + n - 1] = L.NO_CARD
                S[L.S_DECK_N + d] = n - 1
        # what each seat knows of the decks (G25)
        for seat, pl in pos.players.items():
            where = f"players[{seat}].known_under"
            if not isinstance(pl.known_under, Mapping):
                raise PositionError(f"{where}: must map deck levels (1..3) to card lists")
            for lv, cards in pl.known_under.items():
                if lv not in (1, 2, 3):
                    raise PositionError(f"{where}[{lv!r}]: level must be 1, 2 or 3")
                d = lv - 1
                base = L.S_DECK + d * L.MAX_DECK
                items = [int(x) for x in S[base:base + S[L.S_DECK_N + d]]]
                for i, c in enumerate(cards):
                    card = self.card(f"{where}[{lv}][{i}]", c)
                    if card not in items:
                        raise PositionError(f"{where}[{lv}][{i}]: card {self.cs.ids[card]!r} is not in deck {lv}")
                    k = L.S_DECK_KNOWN + d * L.MAX_DECK + items.index(card)
                    if S[k] not in (0, 1 << seat):
                        other = int(S[k]).bit_length() - 1
                        raise PositionError(f"{where}[{lv}][{i}]: card {self.cs.ids[card]!r} is known to "
                                            f"seat {other} already (only the seat that put it under knows it)")
                    S[k] = 1 << seat
        # players' counters and turn state
        for seat in range(g.n_players):
            recompute_limits(S, T, pbase(seat))
        for seat, pl in pos.players.items():
            pb = pbase(seat)
            where = f"players[{seat}]"
            if pl.storage is not None:
                st = self.colours(f"{where}.storage", pl.storage)
                if sum(st) > S[pb + L.P_LIM_STORE]:
                    raise PositionError(f"{where}.storage: {sum(st)} marbles exceed the storage limit {S[pb + L.P_LIM_STORE]}")
                S[pb + L.P_STORE:pb + L.P_STORE + 4] = st
            if pl.tokens is not None:
                if isinstance(pl.tokens, bool) or not isinstance(pl.tokens, int) or pl.tokens < 0:
                    raise PositionError(f"{where}.tokens: must be a whole number from 0, got {pl.tokens!r}")
                S[pb + L.P_TOKENS] = pl.tokens
            built = [int(x) for x in S[pb + L.P_BUILT:pb + L.P_BUILT + S[pb + L.P_BUILT_N]]]
            S[pb + L.P_WAIT:pb + L.P_WAIT + L.MAX_BUILT] = 0
            S[pb + L.P_USED:pb + L.P_USED + L.MAX_BUILT] = 0
            S[pb + L.P_OPT_USED:pb + L.P_OPT_USED + L.MAX_BUILT] = 0
            for name, off in (("waiting", L.P_WAIT), ("used", L.P_USED)):
                for i, c in enumerate(getattr(pl, name)):
                    card = self.card(f"{where}.{name}[{i}]", c)
                    if card not in built:
                        raise PositionError(f"{where}.{name}[{i}]: card {self.cs.ids[card]!r} is not one of the player's machines")
                    S[pb + off + built.index(card)] = 1
            for c, opts in pl.converters_used.items():
                card = self.card(f"{where}.converters_used", c)
                if card not in built or T[L.T_TYPE + card] != L.TY_CONVERTER:
                    raise PositionError(f"{where}.converters_used: card {self.cs.ids[card]!r} is not one of the player's converters")
                for k in opts:
                    if k not in range(1, int(T[L.T_CV_N + card]) + 1):
                        raise PositionError(f"{where}.converters_used[{self.cs.ids[card]}]: option must be 1..{T[L.T_CV_N + card]}, got {k!r}")
                    S[pb + L.P_OPT_USED + built.index(card)] |= 1 << (k - 1)
        # marbles
        if pos.row is not None:
            row = self.colours("row", pos.row)
            if sum(row) > T[L.T_ROW_SIZE]:
                raise PositionError(f"row: {sum(row)} marbles, the row holds {T[L.T_ROW_SIZE]}")
            S[L.S_ROW:L.S_ROW + 4] = row
        held = [int(S[L.S_ROW + c]) + sum(int(S[pbase(p) + L.P_STORE + c]) for p in range(g.n_players))
                for c in range(4)]
        total = [int(T[L.T_MARBLES + c]) for c in range(4)]
        if pos.dispenser is not None:
            disp = self.colours("dispenser", pos.dispenser)
            for c in range(4):
                if disp[c] + held[c] != total[c]:
                    raise PositionError(f"dispenser[{COLOURS[c]}]: {disp[c]} plus {held[c]} in the row and "
                                        f"storages is not the game's {total[c]}")
        else:
            disp = [total[c] - held[c] for c in range(4)]
            for c in range(4):
                if disp[c] < 0:
                    raise PositionError(f"storage and row: {held[c]} {COLOURS[c]} marbles, the game has {total[c]}")
        S[L.S_DISPENSER:L.S_DISPENSER + 4] = disp
        if pos.round is not None:
            if isinstance(pos.round, bool) or not isinstance(pos.round, int) or not 1 <= pos.round <= T[L.T_MAX_ROUNDS]:
                raise PositionError(f"round: must be 1..{T[L.T_MAX_ROUNDS]}, got {pos.round!r}")
            S[L.S_ROUND] = pos.round
        if pos.current_player is not None:
            if not isinstance(pos.current_player, int) or not 0 <= pos.current_player < g.n_players:
                raise PositionError(f"current_player: must be 0..{g.n_players - 1}, got {pos.current_player!r}")
            S[L.S_CUR] = pos.current_player
        S[L.S_ENDING] = 1 if pos.ending else 0
        S[L.S_PHASE] = L.PH_MAIN if pos.phase == "main" else L.PH_CHAIN
        S[L.S_DECISIONS] = 0
        g.history = []
        advance(S, T)
