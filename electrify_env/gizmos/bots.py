"""The bots of Gizmos, and the hook by which the agent registry finds them.

:func:`agent_kinds` is the hook a game package offers the shared agent registry
(:mod:`electrify_env.agents.registry`): the game's own agent kinds as plain data (the registry
turns them into its ``AgentKind`` entries), so the registry never imports this package by name;
it reaches it through the ``bots`` import path of the game's
:class:`~electrify_env.games.GameDef`.  ``random`` is the registry's own and plays every game.

**greedy** (:class:`GreedyBot`) is a one-ply heuristic: at every decision it gives each legal
action a value from the public position and its own seat (never anything hidden) and takes the
best, ties broken by its seeded generator.  The value of an action is the worth of what it
brings, in victory points:

* a machine is worth its printed points plus the *engine value* of its effect (what the effect is
  expected to bring over the rest of the game: converters, storage, discounts and triggered
  effects), scaled by the share of the game still to play (the nearer any seat is to the end
  condition of G20, 16 machines or 4 of level III, the less an engine is worth); its cost is
  charged at 0.4 points a marble, and the build machines it triggers at once are added;
* a marble is worth more in a colour that the best display and archive cards still lack, and
  less when storage is nearly full; a Pick adds the pick machines it fires;
* a File is half the card's worth (it is built later) plus the file machines it fires;
* a Research (the main action and a machine's Research effect) draws cards the seat has not
  seen, so it gets a **fixed value** from public facts only (the deck's level, the seat's stored
  marbles and research limit), never from the cards it would draw; once the cards are drawn
  they are the seat's own information and each is valued like a display card;
* payments spend converter options before marbles, then marbles of the colours held most and
  needed least; every offered machine of the chain is used, the most valuable first.

It reads only :attr:`SeatView.mask` and :attr:`SeatView.infoset` (the seat's scrubbed state,
:meth:`~electrify_env.gizmos.game.Game.infoset`: hidden cards are -2 there), and never steps the
game, so no draw can reveal a hidden card to it.
"""
from __future__ import annotations

import numpy as np

from ..resolver import Agent, AgentError, SeatView, check_legal
from .actions import decode
from .engine import gz_layout as L
from .engine.gz_energy import pbase

__all__ = ["GreedyBot", "agent_kinds", "card_value", "GREEDY_DOC"]

GREEDY_DOC = ("one-ply heuristic: each legal action valued from the public position (points, "
              "engine value of machines by effect, marbles needed, progress toward G20's end); "
              "Research by a fixed value, never the hidden cards")
"""The registry's one-line description of ``greedy``."""


def agent_kinds() -> dict[str, dict]:
    """The Gizmos agent kinds, as plain data for the agent registry: name -> ``{"target":
    "module:Class", "doc": one line, "params": {name: {"type", "doc", "minimum", "maximum",
    "choices"}}}`` (``random`` is the registry's own)."""
    return {"greedy": {"target": "electrify_env.gizmos.bots:GreedyBot", "doc": GREEDY_DOC,
                       "params": {}}}


#: points a marble is charged at when a machine is paid (a marble is about a point in a card)
MARBLE_COST = 0.4
#: immediate worth, in points, of a triggered effect used once (EF_* -> value; N-scaled ones per N)
EFFECT_NOW = {L.EF_PICK: 0.8, L.EF_TWO_PICKS: 1.5, L.EF_TOKENS: 1.0, L.EF_DRAW: 0.5,
              L.EF_FILE: 0.5, L.EF_RESEARCH: 0.6, L.EF_FREE_BUILD: 1.5}
#: fixed value of a Research of deck I, II, III before any card is seen
RESEARCH_BASE = (0.5, 0.7, 0.8)


def _bits(mask: int) -> int:
    return bin(int(mask) & 0xF).count("1")


def _progress(S: np.ndarray, T: np.ndarray, n_players: int) -> float:
    """How near the game is to G20's end, 0..1: the largest share of either end condition any
    seat has reached (1 once the ending is announced)."""
    if S[L.S_ENDING]:
        return 1.0
    end_b, end_3 = max(int(T[L.T_END_BUILT]), 1), max(int(T[L.T_END_L3]), 1)
    best = 0.0
    for p in range(n_players):
        pb = pbase(p)
        best = max(best, S[pb + L.P_BUILT_N] / end_b, S[pb + L.P_N_L3] / end_3)
    return float(min(best, 1.0))


def _engine(T: np.ndarray, c: int) -> float:
    """The engine value of card ``c``'s effect over a whole game (points): what it is expected to
    bring beyond its printed points."""
    ef = int(T[L.T_EFFECT + c])
    n = int(T[L.T_EFF_N + c])
    if ef == L.EF_UPGRADE:
        v = 1.0 * T[L.T_UP_STORAGE + c] + 0.6 * T[L.T_UP_ARCHIVE + c] + 0.3 * T[L.T_UP_RESEARCH + c]
        sp = int(T[L.T_UP_SPECIAL + c])
        v += {L.UP_L2_DISCOUNT: 2.0, L.UP_ARCHIVE_DISCOUNT: 1.2, L.UP_RESEARCH_DISCOUNT: 0.5,
              L.UP_NO_FILE: -0.5, L.UP_NO_RESEARCH: -0.3}.get(sp, 0.0)
        return float(v)
    if ef == L.EF_CONVERTER:
        k = int(T[L.T_CV_N + c])
        per = {L.CV_DOUBLE: 2.0, L.CV_WILD: 1.5, L.CV_WILD2: 2.2, L.CV_ANY: 2.0}
        return 0.8 * sum(per.get(int(T[L.T_CV_KIND + 2 * c + i]), 0.0) for i in range(k)) if k > 1 else \
            per.get(int(T[L.T_CV_KIND + 2 * c]), 0.0)
    now = EFFECT_NOW.get(ef, 0.0) * (n if ef in (L.EF_TOKENS, L.EF_DRAW) and n > 0 else 1)
    ty, tr = int(T[L.T_TYPE + c]), int(T[L.T_TRIG + c])
    if ty == L.TY_FILE:            # fires on every File; the bot files now and then
        uses = 2.0
    elif ty == L.TY_PICK:          # fires on a Pick of its colours: about one Pick in four a colour
        uses = 2.0 * _bits(T[L.T_TRIG_MASK + c])
    elif ty == L.TY_BUILD:
        uses = 1.2 * _bits(T[L.T_TRIG_MASK + c]) if tr == L.TR_COLOURS else 1.5
    else:
        uses = 0.0
    return float(now * uses)


def card_value(T: np.ndarray, c: int, S: np.ndarray, pb: int, rest: float) -> float:
    """Worth of building card ``c`` for the seat at ``pb`` (points): printed points (the end-game
    scorers: the marbles or tokens they would count now), plus the engine value scaled by
    ``rest`` (the share of the game still to play), plus 0.3 for the machine itself (it counts
    toward G20 and breaks ties)."""
    pts = float(T[L.T_POINTS + c])
    if T[L.T_EFFECT + c] == L.EF_UPGRADE:
        sp = int(T[L.T_UP_SPECIAL + c])
        if sp == L.UP_SCORE_STORAGE:
            pts = float(min(S[pb + L.P_LIM_STORE], S[pb + L.P_STORE:pb + L.P_STORE + 4].sum() + 2))
        elif sp == L.UP_SCORE_TOKENS:
            pts = float(S[pb + L.P_TOKENS]) + 2.0 * rest
    return pts + rest * _engine(T, c) + 0.3


class GreedyBot(Agent):
    """The Gizmos ``greedy``: the one-ply heuristic of the module docstring.  Deterministic given
    its seed (:meth:`reset`); reads the mask and the information set of its view only."""

    name = "greedy"
    needs_infoset = True

    # ---- the parts of a position the values use ------------------------------------------------
    def _setup(self, view: SeatView) -> None:
        S, T = view.infoset, view.table
        self.S, self.T = S, T
        self.pb = pbase(view.seat)
        self.rest = max(0.1, 1.0 - _progress(S, T, view.n_players))
        self.store = S[self.pb + L.P_STORE:self.pb + L.P_STORE + 4].astype(np.int64)
        self.room = int(S[self.pb + L.P_LIM_STORE] - self.store.sum())
        self.built = [int(x) for x in S[self.pb + L.P_BUILT:self.pb + L.P_BUILT + S[self.pb + L.P_BUILT_N]]]
        self._want = None

    def _cards_in_reach(self) -> list[int]:
        """The display and archive cards (public, or the seat's own)."""
        S, T = self.S, self.T
        out = [int(S[self.pb + L.P_ARCH + i]) for i in range(int(S[self.pb + L.P_ARCH_N]))]
        for d in range(L.N_DECKS):
            for k in range(int(T[L.T_DISPLAY + d])):
                c = int(S[L.S_DISPLAY + d * L.MAX_DISPLAY + k])
                if c >= 0:
                    out.append(c)
        return out

    def need(self) -> np.ndarray:
        """How much each colour is wanted (0..1): the best net worth per missing marble among the
        cards in reach that storage cannot yet pay in that colour."""
        if self._want is None:
            need = np.zeros(4)
            T = self.T
            for c in self._cards_in_reach():
                col, cost = int(T[L.T_COLOUR + c]), int(T[L.T_COST + c])
                worth = card_value(T, c, self.S, self.pb, self.rest) - MARBLE_COST * cost
                if cost <= 0 or worth <= 0:
                    continue
                cols = range(4) if col == L.COL_ANY else ([col] if 0 <= col < 4 else [])
                have = self.store.sum() if col == L.COL_ANY else None
                for k in cols:
                    if (have if have is not None else self.store[k]) < cost:
                        need[k] = max(need[k], min(1.0, worth / (cost * 2.0)))
            self._want = need
        return self._want

    def marble(self, k: int) -> float:
        """Worth of one more marble of colour ``k`` in storage."""
        if self.room <= 0:
            return 0.0
        v = 0.4 + 0.6 * float(self.need()[k])
        return v * (0.7 if self.room == 1 else 1.0)

    def _fires(self, ty: int, pred) -> float:
        """Immediate worth of the seat's machines of column ``ty`` whose trigger ``pred(card)``
        accepts (each used once)."""
        T = self.T
        v = 0.0
        for c in self.built:
            if T[L.T_TYPE + c] == ty and pred(c):
                ef, n = int(T[L.T_EFFECT + c]), int(T[L.T_EFF_N + c])
                v += EFFECT_NOW.get(ef, 0.0) * (n if ef in (L.EF_TOKENS, L.EF_DRAW) and n > 0 else 1)
        return v

    def build_value(self, c: int, source: int, cost: int | None = None) -> float:
        """Worth of building card ``c`` from ``source`` (SRC_*): its value, its cost at
        :data:`MARBLE_COST` a marble, and the build machines it fires."""
        T = self.T
        col, lvl = int(T[L.T_COLOUR + c]), int(T[L.T_LEVEL + c])
        cost = int(T[L.T_COST + c]) if cost is None else cost

        def meets(m: int) -> bool:
            tr = int(T[L.T_TRIG + m])
            if tr == L.TR_COLOURS:
                return col == L.COL_ANY or (0 <= col < 4 and (int(T[L.T_TRIG_MASK + m]) >> col) & 1 == 1)
            return (tr == L.TR_LEVEL2 and lvl == 2) or (tr == L.TR_ARCHIVE and source == L.SRC_ARCHIVE)

        v = card_value(T, c, self.S, self.pb, self.rest) - MARBLE_COST * cost
        return v + self._fires(L.TY_BUILD, meets) + (0.3 if source == L.SRC_ARCHIVE else 0.0)

    def file_value(self, c: int) -> float:
        """Worth of filing card ``c``: half its net worth (built later) and the file machines."""
        T = self.T
        net = card_value(T, c, self.S, self.pb, self.rest) - MARBLE_COST * int(T[L.T_COST + c])
        return 0.5 * net - 0.3 + self._fires(L.TY_FILE, lambda m: True)

    def pick_value(self, k: int) -> float:
        """Worth of a Pick of colour ``k``: the marble and the pick machines it fires."""
        return self.marble(k) + self._fires(
            L.TY_PICK, lambda m: (int(self.T[L.T_TRIG_MASK + m]) >> k) & 1 == 1)

    def research_value(self, deck: int) -> float:
        """The fixed worth of researching ``deck`` (0..2), from public facts only: the deck's
        level, the stored marbles (to pay what is drawn) and the research limit."""
        stored = float(self.store.sum())
        lim = float(self.S[self.pb + L.P_LIM_RES])
        return RESEARCH_BASE[deck] * min(1.0, stored / (deck + 2.0)) * min(1.5, lim / 3.0)

    def effect_value(self, m: int) -> float:
        """Worth of using the seat's waiting machine of index ``m`` now."""
        S, T = self.S, self.T
        c = self.built[m]
        ef, n = int(T[L.T_EFFECT + c]), int(T[L.T_EFF_N + c])
        if ef == L.EF_TOKENS:
            return float(max(n, 1))
        if ef in (L.EF_PICK, L.EF_TWO_PICKS):
            best = max((self.marble(k) for k in range(4) if S[L.S_ROW + k] > 0), default=0.0)
            return (2.0 if ef == L.EF_TWO_PICKS else 1.0) * best + 0.05
        if ef == L.EF_DRAW:
            return 0.45 * min(max(n, 1), max(self.room, 0)) + 0.05
        if ef == L.EF_RESEARCH:
            return max(self.research_value(d) for d in range(L.N_DECKS)) + 0.05
        if ef == L.EF_FILE:
            return max((self.file_value(x) for x in self._cards_in_reach()), default=0.0) + 0.35
        if ef == L.EF_FREE_BUILD:
            lv1 = [x for x in self._cards_in_reach() if T[L.T_LEVEL + x] == 1]
            return max((self.build_value(x, L.SRC_DISPLAY, cost=0) for x in lv1), default=0.0) + 0.05
        return 0.05

    # ---- the decision --------------------------------------------------------------------------
    def values(self, view: SeatView) -> np.ndarray:
        """Each action's value (``N_ACTIONS`` long; illegal actions at -inf)."""
        self._need_check(view)
        self._setup(view)
        S = self.S
        out = np.full(view.mask.shape[0], -np.inf)
        phase = int(S[L.S_PHASE])
        for a in np.flatnonzero(view.mask):
            out[a] = self._value(int(a), phase)
        return out

    def _value(self, a: int, phase: int) -> float:
        S, T = self.S, self.T
        act = decode(a)
        k, args = act.kind, act.args
        if k == "pass":
            return {L.PH_EFFECT_PICK: 0.02}.get(phase, 0.0)
        if k in ("build", "file"):
            c = int(S[L.S_DISPLAY + (args["level"] - 1) * L.MAX_DISPLAY + args["slot"]])
            if k == "file":
                return self.file_value(c)
            free = phase == L.PH_FREE_BUILD
            return self.build_value(c, L.SRC_DISPLAY, cost=0 if free else None) + 1.0
        if k == "build_arch":
            c = int(S[self.pb + L.P_ARCH + args["index"]])
            return self.build_value(c, L.SRC_ARCHIVE, cost=0 if phase == L.PH_FREE_BUILD else None) + 1.0
        if k == "pick":
            return self.pick_value(args["colour"])
        if k == "research":
            return self.research_value(args["level"] - 1)
        if k in ("res_build", "res_file"):
            c = int(S[L.S_RES + args["index"]])
            if c < 0:                       # not the seat's to see: never happens for the researcher
                return 0.0
            return self.build_value(c, L.SRC_RESEARCH) + 1.0 if k == "res_build" else self.file_value(c)
        if k == "use":
            return self.effect_value(args["machine"])
        if k == "confirm":
            return 10.0
        if k == "convert":
            return 5.0
        if k == "spend":
            col = args["colour"]
            return 1.0 + 0.1 * float(self.store[col]) - 0.5 * float(self.need()[col])
        return 0.0

    def _need_check(self, view: SeatView) -> None:
        self._need(view)
        if view.infoset.shape[0] != L.S_SIZE:
            raise AgentError(f"agent {self.spec!r}: the view is not a Gizmos information set "
                             f"({view.infoset.shape[0]} entries, Gizmos has {L.S_SIZE})")

    def act(self, view: SeatView) -> int:
        """The legal action of highest value; ties broken by the agent's generator."""
        vals = self.values(view)
        legal = np.flatnonzero(view.mask)
        if legal.size == 0:
            raise AgentError("no legal action in the mask")
        v = vals[legal] + 1e-6 * self.rng.random(legal.size)
        return check_legal(view, int(legal[int(np.argmax(v))]), self.spec)
