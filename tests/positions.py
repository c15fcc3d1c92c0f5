"""Explicit positions for rule tests.

A test builds a game, rewrites the parts of the state it cares about with these helpers, and
draws the position as text in its docstring.  Card faces used by a test are rewritten in a
private copy of the card table (``custom_faces``), so the tests do not depend on the shipped card
data: any card set must play by the same rules.
"""
from __future__ import annotations

import dataclasses

from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.engine.stack import push
from electrify_env.engine.step import advance

PROD, INFRA = 0, 1


def pb(p: int) -> int:
    """Offset of player p's block."""
    return L.S_PLAYERS + p * L.P_SIZE


def new_game(n_players: int = 2, seed: int = 0) -> Game:
    """A fresh game with a private, writable copy of the card table."""
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


def deck_cards(g: Game, deck: int) -> list[int]:
    """Industry card ids of ``deck`` (0 production, 1 infrastructure) in the card set."""
    T = g.cards.table
    return [c for c in range(int(T[L.T_N_IND])) if T[L.T_IND_DECK + c] == deck]


def strip_player(g: Game, p: int) -> None:
    """Empty player p's board: cards on sectors and in hand go back to the decks' discard piles,
    cubes, research and scores are cleared.  Conservation of cards is kept."""
    S = g.state
    b = pb(p)
    for s in range(L.N_SECTORS):
        for k in range(int(S[b + L.P_SEC_N + s])):
            _return_card(g, int(S[b + L.P_SEC_CARD + s * L.MAX_SLOTS + k]))
            S[b + L.P_SEC_CARD + s * L.MAX_SLOTS + k] = L.NO_CARD
            S[b + L.P_CARD_CHARGED + s * L.MAX_SLOTS + k] = 0
        S[b + L.P_SEC_N + s] = 0
        S[b + L.P_SEC_CHARGED + s] = 0
    for h in range(int(S[b + L.P_HAND_N])):
        _return_card(g, int(S[b + L.P_HAND + h]))
        S[b + L.P_HAND + h] = L.NO_CARD
    S[b + L.P_HAND_N] = 0
    S[b + L.P_DEPOT:b + L.P_DEPOT + L.N_COLS] = 0
    S[b + L.P_GRID:b + L.P_GRID + L.N_COLS] = 0


def _return_card(g: Game, face: int) -> None:
    S, T = g.state, g.cards.table
    if face >= L.FACE_BASIC:
        S[L.S_BASIC + (face - L.FACE_BASIC) // 2] = 1
        return
    d = int(T[L.T_IND_DECK + face])
    n = int(S[L.S_DISC_N + d])
    S[L.S_DISC + d * L.MAX_DECK + n] = face
    S[L.S_DISC_N + d] = n + 1


def take_from_piles(g: Game, card: int) -> None:
    """Remove industry ``card`` from whichever deck or discard pile holds it."""
    S = g.state
    for base, nfield in ((L.S_DECK, L.S_DECK_N), (L.S_DISC, L.S_DISC_N)):
        for d in range(2):
            n = int(S[nfield + d])
            pile = list(S[base + d * L.MAX_DECK: base + d * L.MAX_DECK + n])
            if card in pile:
                pile.remove(card)
                S[base + d * L.MAX_DECK: base + d * L.MAX_DECK + L.MAX_DECK] = L.NO_CARD
                S[base + d * L.MAX_DECK: base + d * L.MAX_DECK + n - 1] = pile
                S[nfield + d] = n - 1
                return
    raise ValueError(f"card {card} is in no deck or discard pile")


def set_columns(g: Game, p: int, cols: dict[int, int]) -> None:
    """Put sector s in column cols[s] (all five must be given)."""
    assert sorted(cols) == list(range(L.N_SECTORS)) and len(set(cols.values())) == L.N_SECTORS
    for s, c in cols.items():
        g.state[pb(p) + L.P_SEC_COL + s] = c


def put_cards(g: Game, p: int, s: int, cards: list[int]) -> None:
    """Place industry cards (or basic faces) on sector s top to bottom, taking them from the
    piles / basic supply so that cards stay conserved."""
    S = g.state
    b = pb(p)
    for k, face in enumerate(cards):
        if face >= L.FACE_BASIC:
            S[L.S_BASIC + (face - L.FACE_BASIC) // 2] = 0
        else:
            take_from_piles(g, face)
        S[b + L.P_SEC_CARD + s * L.MAX_SLOTS + k] = face
    S[b + L.P_SEC_N + s] = len(cards)


def give_hand(g: Game, p: int, cards: list[int]) -> None:
    """Give player p these industry cards in hand (taken from the piles)."""
    S = g.state
    b = pb(p)
    hand = [int(x) for x in S[b + L.P_HAND: b + L.P_HAND + int(S[b + L.P_HAND_N])]]
    for c in cards:
        take_from_piles(g, c)
        hand.append(c)
    hand.sort()
    assert len(hand) <= L.MAX_HAND
    S[b + L.P_HAND: b + L.P_HAND + L.MAX_HAND] = L.NO_CARD
    S[b + L.P_HAND: b + L.P_HAND + len(hand)] = hand
    S[b + L.P_HAND_N] = len(hand)


def set_cubes(g: Game, p: int, depot=None, grid=None) -> None:
    """Set player p's depot and/or grid cubes (lists of 7)."""
    b = pb(p)
    if depot is not None:
        g.state[b + L.P_DEPOT: b + L.P_DEPOT + L.N_COLS] = depot
    if grid is not None:
        g.state[b + L.P_GRID: b + L.P_GRID + L.N_COLS] = grid


def clear_stack(g: Game) -> None:
    """Remove every pending frame."""
    g.state[L.S_STACK: L.S_STACK + L.MAX_STACK * L.FRAME] = 0
    g.state[L.S_SP] = 0


def begin_turn(g: Game, p: int, chosen: int, round_: int = 1, boost: int = L.BOOST_NONE) -> None:
    """Make it player p's turn in ``round_`` with ``chosen`` revealed, at step 2 (or the boost).
    The remaining players have already played this round."""
    from electrify_env.engine.turn import start_turn
    S = g.state
    clear_stack(g)
    S[L.S_ROUND] = round_
    for q in range(g.n_players):
        S[pb(q) + L.P_PLAN] = -1
        if S[pb(q) + L.P_CHOSEN] < 0:
            S[pb(q) + L.P_CHOSEN] = chosen
    S[pb(p) + L.P_CHOSEN] = chosen
    S[pb(p) + L.P_BOOST] = boost
    start_turn(S, p)
    advance(S, g.cards.table)


def push_frame(g: Game, p: int, ftype: int, a=0, b=0, c=0, d=0) -> None:
    """Push a decision frame for player p on top of the stack, then run automatic frames."""
    g.state[L.S_CUR] = p
    push(g.state, ftype, a, b, c, d)
    advance(g.state, g.cards.table)


def top_frame(g: Game) -> list[int]:
    """The pending frame as a list [type, a, b, c, d, e, f, g]."""
    sp = int(g.state[L.S_SP])
    off = L.S_STACK + (sp - 1) * L.FRAME
    return [int(x) for x in g.state[off: off + L.FRAME]]


def legal(g: Game) -> set[int]:
    """The set of legal ids."""
    return set(int(a) for a in g.legal_actions())


def phase_legal(g: Game) -> set[int]:
    """Legal ids without the any-time actions of R13."""
    return {a for a in legal(g) if not (L.A_DISCARD <= a < L.A_DONATE + L.N_COLS)}


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


def sector_face(s: int, side: int = 0) -> int:
    """Face id of sector s, side 0 (A) or 1 (B)."""
    return L.FACE_SECTOR + 2 * s + side


def basic_face(b: int, f: int = 0) -> int:
    """Face id of basic card b, face f."""
    return L.FACE_BASIC + 2 * b + f
