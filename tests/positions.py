"""Explicit positions for rule tests: a thin layer over the public position builder
(:mod:`electrify_env.position`) and the action codec (:mod:`electrify_env.actions`).

A test builds a game, lays out the parts of the table it cares about with
:class:`~electrify_env.position.Position` (directly or through these shortcuts), and draws the
position as text in its docstring.  Card faces used by a test are rewritten in a private, writable
copy of the card table (``new_game`` + ``set_face``), so the tests do not depend on the shipped
card data: any card set must play by the same rules.
"""
from __future__ import annotations

import dataclasses

from electrify_env import Game
from electrify_env.actions import ANY_TIME_KINDS, kind_of
from electrify_env.engine import layout as L
from electrify_env.position import BOOSTS, Player, Position, Sector, basic_face, sector_face  # noqa: F401

PROD, INFRA = 0, 1
BOOST_NAMES = {code: name for name, code in BOOSTS.items()}


def pb(p: int) -> int:
    """Offset of player p's block."""
    return L.S_PLAYERS + p * L.P_SIZE


def new_game(n_players: int = 2, seed: int = 0) -> Game:
    """A fresh game with a private, writable copy of the card table (for ``set_face`` and the
    other table edits of the tests)."""
    g = Game(n_players=n_players, seed=seed)
    T = g.cards.table.copy()
    g.cards = dataclasses.replace(g.cards, table=T)
    return g


def set_face(g: Game, face: int, icons=(), arrows: int = 0, cost: int = 1, kind: int | None = None) -> int:
    """Rewrite ``face``: icons are (ACT_*, arg, MULT_*, simple value) tuples."""
    T = g.cards.table
    T[L.T_F_COST + face] = cost
    T[L.T_F_ARROWS + face] = arrows
    T[L.T_F_NICONS + face] = len(icons)
    if kind is not None:
        T[L.T_F_KIND + face] = kind
    for i in range(L.MAX_ICONS):
        o = face * L.MAX_ICONS + i
        act, arg, mk, mv = icons[i] if i < len(icons) else (0, 0, 0, 0)
        T[L.T_F_ICON_ACT + o] = act
        T[L.T_F_ICON_ARG + o] = arg
        T[L.T_F_ICON_ARG2 + o] = 0
        T[L.T_F_ICON_MK + o] = mk
        T[L.T_F_ICON_MV + o] = mv
    return face


def lay(g: Game, **position) -> Game:
    """Apply ``Position(**position)`` to ``g`` in place (the builder checks every field)."""
    return Position(**position).apply(g)


def strip_player(g: Game, p: int) -> None:
    """Empty player p's board: cards on sectors and in hand go back to their decks, cubes are
    cleared.  Conservation of cards is kept."""
    lay(g, players={p: Player(hand=[], sectors={s: Sector(cards=[]) for s in range(L.N_SECTORS)},
                              depot=[0] * L.N_COLS, grid=[0] * L.N_COLS)})


def set_columns(g: Game, p: int, cols: dict[int, int]) -> None:
    """Put sector s in column cols[s] (all five must be given)."""
    assert sorted(cols) == list(range(L.N_SECTORS))
    lay(g, players={p: Player(sectors={s: Sector(column=c) for s, c in cols.items()})})


def set_cubes(g: Game, p: int, depot=None, grid=None) -> None:
    """Set player p's depot and/or grid cubes (lists of 7)."""
    lay(g, players={p: Player(depot=depot, grid=grid)})


def start_at(g: Game, p: int, step: str, chosen: int, round_: int = 1, boost: int = L.BOOST_NONE) -> None:
    """Make it player p's turn in ``round_`` with ``chosen`` revealed, at ``step`` of the turn
    (``"boost"``, ``"acquire"``, ``"discharge"`` or ``"fulfill"``).  Players without a revealed
    sector get ``chosen`` too; seats before p have played this round."""
    players = {q: Player(chosen=chosen) for q in range(g.n_players) if g.state[pb(q) + L.P_CHOSEN] < 0}
    players[p] = Player(chosen=chosen, boost=BOOST_NAMES[boost])
    lay(g, round=round_, pending=step, current_player=p, players=players)


def begin_turn(g: Game, p: int, chosen: int, round_: int = 1, boost: int = L.BOOST_NONE) -> None:
    """Make it player p's turn in ``round_`` with ``chosen`` revealed, at step 2 (or the boost)."""
    start_at(g, p, "boost" if boost != L.BOOST_NONE else "acquire", chosen, round_, boost)


def top_frame(g: Game) -> list[int]:
    """The pending frame as a list [type, a, b, c, d, e, f, g]."""
    sp = int(g.state[L.S_SP])
    off = L.S_STACK + (sp - 1) * L.FRAME
    return [int(x) for x in g.state[off: off + L.FRAME]]


def legal(g: Game) -> set[int]:
    """The set of legal ids."""
    return set(int(a) for a in g.legal_actions())


def phase_legal(g: Game) -> set[int]:
    """Legal ids without the any-time actions of R13 (``actions.ANY_TIME_KINDS``)."""
    return {a for a in legal(g) if kind_of(a) not in ANY_TIME_KINDS}


def col(g: Game, p: int, s: int) -> int:
    """Column of sector s of player p."""
    return int(g.state[pb(p) + L.P_SEC_COL + s])


def cols(g: Game, p: int) -> list[int]:
    """Columns of the five sectors."""
    return [col(g, p, s) for s in range(L.N_SECTORS)]


def charged_cards(g: Game, p: int) -> set[tuple[int, int]]:
    """(sector, slot) of every charged card of player p."""
    b = pb(p)
    return {(s, k) for s in range(L.N_SECTORS) for k in range(L.MAX_SLOTS)
            if g.state[b + L.P_CARD_CHARGED + s * L.MAX_SLOTS + k]}


def field(g: Game, p: int, off: int, n: int = 1):
    """Read a player field (an int, or a list when n > 1)."""
    v = g.state[pb(p) + off: pb(p) + off + n]
    return int(v[0]) if n == 1 else [int(x) for x in v]


def hand_of(g: Game, p: int) -> list[int]:
    """Card ids in player p's hand, by slot."""
    return field(g, p, L.P_HAND, L.MAX_HAND)[:field(g, p, L.P_HAND_N)]


def sector_of(g: Game, p: int, s: int) -> list[int]:
    """Face ids on sector s of player p, top to bottom."""
    return field(g, p, L.P_SEC_CARD + s * L.MAX_SLOTS, L.MAX_SLOTS)[:field(g, p, L.P_SEC_N + s)]
