"""The Python face of the Gizmos engine: a :class:`Game` wraps one state array and a card set.

Every rule runs in the jitted functions of :mod:`electrify_env.gizmos.engine`; this module checks
input, keeps the action history and offers copies, scores, ranks and the decision view.

    >>> from electrify_env.gizmos import Game
    >>> g = Game(n_players=2, seed=7)
    >>> while not g.done:
    ...     g.step(int(g.legal_actions()[0]))
    >>> len(g.scores())
    2
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from ..resolver import AgentError
from ..seatview import SeatView
from ..validation import IllegalActionError, InvalidArgumentError, as_int, check_seed, check_state
from .cards import CardSet, load_card_set
from .engine import gz_layout as L
from .engine.gz_api import C_IDS, C_VALID, fresh_mask, legal_ids, new_cache, step_fresh
from .engine.gz_energy import pbase
from .engine.gz_infoset import determinize, scrub
from .engine.gz_pay import new_work
from .engine.gz_scoring import machine_points, ranks, score
from .engine.gz_setup import init_state
from .engine.gz_step import apply_action

__all__ = ["Game", "IllegalActionError"]


def resolve_card_set(card_set: CardSet | str | Path | None) -> CardSet:
    """A :class:`CardSet` as is, or the set at a path (None: the default set)."""
    if isinstance(card_set, CardSet):
        return card_set
    if card_set is not None and not isinstance(card_set, (str, Path)):
        raise InvalidArgumentError(f"card_set must be a CardSet, a path or None, got {card_set!r}")
    return load_card_set(card_set)


class Game:
    """One game of Gizmos for 2-4 players.

    Args:
        n_players: 2, 3 or 4.
        seed: an integer 0..2**62-1; the decks, the level-III cut, the row and every blind draw
            follow from it and the actions (G24).
        card_set: a :class:`~electrify_env.gizmos.cards.CardSet`, a path to a card-set file, or
            None for the default set.

    The pending decision belongs to :attr:`current_player`; :meth:`legal_actions` lists its
    legal ids and :meth:`step` applies one.

    The legal mask of a decision is computed once and kept with a copy of the state it belongs
    to (:mod:`~.engine.gz_api`): :meth:`legal_mask`, :meth:`legal_actions` and :meth:`step`
    reuse it while the state array is unchanged, so writing into :attr:`state` directly never
    leaves a stale mask behind.  A game pickles (and copies with :mod:`copy`) as its state,
    history, seed, player count and card set; the work buffer of the mask search is made anew.
    """

    N_ACTIONS = L.N_ACTIONS
    #: the name of this game in :mod:`electrify_env.games`
    game_name = "gizmos"

    def __init__(self, n_players: int = 2, seed: int = 0, card_set: CardSet | str | Path | None = None) -> None:
        n = as_int(n_players, "n_players")
        if not 2 <= n <= L.MAX_PLAYERS:
            raise InvalidArgumentError(f"n_players must be 2, 3 or 4, got {n}")
        self.n_players = n
        self.cards = resolve_card_set(card_set)
        self._state = np.zeros(L.S_SIZE, dtype=np.int64)
        self._fresh_buffers(new_work())
        self.history: list[int] = []
        self.reset(seed)

    def _fresh_buffers(self, work: np.ndarray) -> None:
        """An empty mask cache (the mask, its read-only view, the cache of
        :mod:`~.engine.gz_api`) and the work buffer ``work``."""
        self._mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        self._mask_view = self._mask.view()
        self._mask_view.flags.writeable = False
        self._cache = new_cache()
        self._ids = self._cache[C_IDS:]
        self._work = work
        self._bind()

    def _bind(self) -> None:
        """The argument tuple of the jitted entry points (state, table, mask, work, cache)."""
        self._args = (self._state, self._cards.table, self._mask, self._work, self._cache)

    @property
    def cards(self) -> CardSet:
        """The :class:`~electrify_env.gizmos.cards.CardSet` played with (assigning another one
        empties the mask cache)."""
        return self._cards

    @cards.setter
    def cards(self, value: CardSet) -> None:
        self._cards = value
        if "_cache" in self.__dict__:
            self._cache[C_VALID] = 0
            self._bind()

    @property
    def state(self) -> np.ndarray:
        """The int64 state array (:mod:`~.engine.gz_layout`); writing into it is allowed (the
        legal mask is recomputed for the changed state)."""
        return self._state

    @state.setter
    def state(self, value: np.ndarray) -> None:
        arr = np.asarray(value)
        if arr.shape != (L.S_SIZE,) or arr.dtype != np.int64 or not arr.flags.c_contiguous:
            raise InvalidArgumentError(f"state must be a C-contiguous int64 array of length {L.S_SIZE}, "
                                       f"got {arr.dtype} {arr.shape}")
        self._state = arr
        self._bind()

    def reset(self, seed: int | None = None) -> "Game":
        """Start a new game (same players and card set) from ``seed`` (None: the last seed)."""
        if seed is not None:
            self.seed = check_seed(seed)
        init_state(self.state, self.cards.table, np.int64(self.n_players), np.int64(self.seed))
        self.history = []
        return self

    # ---- queries -----------------------------------------------------------------------------
    @property
    def current_player(self) -> int:
        """The active seat."""
        return int(self._state[L.S_CUR])

    @property
    def round(self) -> int:
        """The round, from 1."""
        return int(self.state[L.S_ROUND])

    @property
    def phase(self) -> str:
        """The kind of the pending decision (``main``, ``pay``, ``research``, ``chain``,
        ``effect_pick``, ``effect_file``, ``effect_research``, ``free_build``, ``game_over``)."""
        return L.PHASE_NAMES[int(self.state[L.S_PHASE])]

    @property
    def done(self) -> bool:
        """True once the game is over (G20) or truncated by the round cap (G22)."""
        return bool(self._state[L.S_TERMINAL])

    is_terminal = done

    @property
    def truncated(self) -> bool:
        """True when the round cap ended the game (G22)."""
        return bool(self.state[L.S_TRUNCATED])

    def legal_mask(self) -> np.ndarray:
        """Read-only uint8 mask of length ``N_ACTIONS`` with 1 at each legal id (the game's own
        buffer: the next call after a change of the state rewrites it; copy it to keep it)."""
        fresh_mask(*self._args)
        return self._mask_view

    def legal_actions(self) -> np.ndarray:
        """The legal action ids, ascending, as a new int64 array (empty once the game is over)."""
        return self._ids[:legal_ids(*self._args)].copy()

    def scores(self) -> np.ndarray:
        """Victory points of each seat (G20)."""
        return np.array([score(self.state, self.cards.table, p) for p in range(self.n_players)], dtype=np.int64)

    def points_by_source(self, player: int | None = None) -> dict[str, int] | list[dict[str, int]]:
        """A seat's points split into ``machines`` (printed), ``tokens`` and ``upgrades`` (the
        end-game scorers); with no ``player``, one such dict per seat."""
        if player is None:
            return [self.points_by_source(p) for p in range(self.n_players)]
        player = as_int(player, "player")
        if not 0 <= player < self.n_players:
            raise InvalidArgumentError(f"player must be 0..{self.n_players - 1}, got {player}")
        pb = pbase(player)
        T = self.cards.table
        out = {"machines": 0, "tokens": int(self.state[pb + L.P_TOKENS]), "upgrades": 0}
        for j in range(int(self.state[pb + L.P_BUILT_N])):
            card = int(self.state[pb + L.P_BUILT + j])
            sp = int(T[L.T_UP_SPECIAL + card]) if T[L.T_EFFECT + card] == L.EF_UPGRADE else 0
            key = "upgrades" if sp in (L.UP_SCORE_STORAGE, L.UP_SCORE_TOKENS) else "machines"
            out[key] += int(machine_points(self.state, T, pb, card))
        return out

    def ranks(self) -> np.ndarray:
        """Each seat's rank, 0 = first (G21: points, machines, marbles, the higher seat)."""
        out = np.zeros(self.n_players, dtype=np.int64)
        ranks(self.state, self.cards.table, out)
        return out

    def tiebreak_keys(self) -> np.ndarray:
        """(n_players, 3): points, built machines, marbles in storage (G21 order; equal keys
        are split by the higher seat)."""
        keys = np.zeros((self.n_players, 3), dtype=np.int64)
        for p in range(self.n_players):
            pb = pbase(p)
            keys[p] = (score(self.state, self.cards.table, p), self.state[pb + L.P_BUILT_N],
                       int(self.state[pb + L.P_STORE:pb + L.P_STORE + L.N_COLOURS].sum()))
        return keys

    def winners(self) -> list[int]:
        """The winning seat as a list (G21 leaves no shared win)."""
        return [self.winner()]

    def winner(self) -> int:
        """The seat ranked first (meaningful once the game is over)."""
        return int(np.argmin(self.ranks()))

    def public_view(self, seat: int) -> dict:
        """What ``seat`` may know (G25), as plain data: every player's machines, archive,
        storage, tokens and limits; the display; the row; deck sizes; the dispenser's content;
        round, active seat and phase; the cards being researched only to the researcher; under
        ``known_under``, per deck (levels I-III), the ``[place from the bottom, card]`` pairs of
        the cards this seat put under the deck after its Research and that are not drawn yet.
        No other deck order, no removed card, no seed or generator state."""
        seat = as_int(seat, "seat")
        if not 0 <= seat < self.n_players:
            raise InvalidArgumentError(f"seat must be 0..{self.n_players - 1}, got {seat}")
        S, ids = self.state, self.cards.ids
        players = []
        for p in range(self.n_players):
            pb = pbase(p)
            players.append({
                "machines": [ids[int(c)] for c in S[pb + L.P_BUILT:pb + L.P_BUILT + S[pb + L.P_BUILT_N]]],
                "archive": [ids[int(c)] for c in S[pb + L.P_ARCH:pb + L.P_ARCH + S[pb + L.P_ARCH_N]]],
                "storage": [int(x) for x in S[pb + L.P_STORE:pb + L.P_STORE + L.N_COLOURS]],
                "tokens": int(S[pb + L.P_TOKENS]),
                "limits": {"storage": int(S[pb + L.P_LIM_STORE]), "archive": int(S[pb + L.P_LIM_ARCH]),
                           "research": int(S[pb + L.P_LIM_RES])},
                "waiting": [int(x) for x in S[pb + L.P_WAIT:pb + L.P_WAIT + S[pb + L.P_BUILT_N]]],
                "used": [int(x) for x in S[pb + L.P_USED:pb + L.P_USED + S[pb + L.P_BUILT_N]]],
            })
        display = [[ids[int(c)] if c != L.NO_CARD else None
                    for c in S[L.S_DISPLAY + d * L.MAX_DISPLAY:L.S_DISPLAY + d * L.MAX_DISPLAY + int(self.cards.table[L.T_DISPLAY + d])]]
                   for d in range(L.N_DECKS)]
        researching = []
        if S[L.S_PHASE] == L.PH_RESEARCH and seat == self.current_player:
            researching = [ids[int(c)] for c in S[L.S_RES:L.S_RES + S[L.S_RES_N]]]
        known = []
        for d in range(L.N_DECKS):
            kb = L.S_DECK_KNOWN + d * L.MAX_DECK
            known.append([[i, ids[int(S[L.S_DECK + d * L.MAX_DECK + i])]]
                          for i in range(int(S[L.S_DECK_N + d])) if (S[kb + i] >> seat) & 1])
        return {"players": players, "display": display,
                "row": [int(x) for x in S[L.S_ROW:L.S_ROW + L.N_COLOURS]],
                "dispenser": [int(x) for x in S[L.S_DISPENSER:L.S_DISPENSER + L.N_COLOURS]],
                "deck_sizes": [int(x) for x in S[L.S_DECK_N:L.S_DECK_N + L.N_DECKS]],
                "round": self.round, "current_player": self.current_player, "phase": self.phase,
                "researching": researching, "known_under": known, "done": self.done}

    def observe(self, seat: int) -> np.ndarray:
        """float32 observation of ``seat``: what the seat may know (G25), as the features of
        :mod:`electrify_env.gizmos.observation` (length ``OBS_SIZE``)."""
        seat = as_int(seat, "seat")
        if not 0 <= seat < self.n_players:
            raise InvalidArgumentError(f"seat must be 0..{self.n_players - 1}, got {seat}")
        from .observation import observe
        return observe(self, seat)

    def infoset(self, seat: int) -> np.ndarray:
        """The state as ``seat`` may know it (G25; :func:`~.engine.gz_infoset.scrub`): a new
        int64 array of ``S_SIZE`` with hidden cards -2 and the generator words 0."""
        seat = as_int(seat, "seat")
        if not 0 <= seat < self.n_players:
            raise InvalidArgumentError(f"seat must be 0..{self.n_players - 1}, got {seat}")
        out = np.empty(L.S_SIZE, dtype=np.int64)
        scrub(self.state, self.cards.table, np.int64(seat), out)
        return out

    def seat_view(self, seat: int | None = None, observation: bool = True,
                  infoset: bool = True) -> SeatView:
        """The :class:`~electrify_env.seatview.SeatView` of ``seat`` (default: the seat on turn)
        at the pending decision: a copy of the legal mask, the observation (:meth:`observe`)
        when ``observation``, the information set (:meth:`infoset`) when ``infoset``, the card
        table and hash, and the number of decisions made.  The mask is the pending decision's,
        so ``seat`` must be the seat on turn (:class:`~electrify_env.resolver.AgentError`
        otherwise, as when the game is over)."""
        if self.done:
            raise AgentError("the game is over: there is no decision to view")
        cur = self.current_player
        seat = cur if seat is None else as_int(seat, "seat")
        if seat != cur:
            raise AgentError(f"seat {seat} is not on turn (player {cur} decides now)")
        return SeatView(seat=seat, n_players=self.n_players, mask=self.legal_mask().copy(),
                        observation=self.observe(seat) if observation else None,
                        infoset=self.infoset(seat) if infoset else None, table=self.cards.table,
                        card_set_hash=self.cards.hash, decision=len(self.history))

    def decision(self):
        """The pending decision in words (:class:`~electrify_env.gizmos.decision.Decision`)."""
        from .decision import decision_of
        return decision_of(self)

    # ---- acting ------------------------------------------------------------------------------
    def step(self, action: int) -> None:
        """Apply the legal action id ``action``.

        Raises:
            IllegalActionError (a ValueError): not an integer, out of range or not legal now; the
                message names the id and the pending decision; the state is unchanged.
        """
        if type(action) is int:
            a = action
        elif isinstance(action, (bool, np.bool_)) or not hasattr(action, "__index__"):
            raise IllegalActionError(f"action must be an integer id 0..{L.N_ACTIONS - 1}, got {action!r}")
        else:
            a = int(action.__index__())
        if not 0 <= a < L.N_ACTIONS or step_fresh(*self._args, a) != 0:
            self._refuse(a)
        self.history.append(a)

    def _refuse(self, a: int) -> None:
        """Raise the IllegalActionError of action id ``a`` refused at the pending decision."""
        if self.done:
            raise IllegalActionError(f"action {a}: the game is over")
        what = f"out of range 0..{L.N_ACTIONS - 1}" if not 0 <= a < L.N_ACTIONS else "not legal"
        raise IllegalActionError(f"action {a} is {what} at the {self.phase} decision of player "
                                 f"{self.current_player}; legal ids: {self.legal_actions().tolist()}")

    def step_unchecked(self, action: int) -> None:
        """Apply ``action`` without the legality check (for callers that hold the mask); an
        illegal id corrupts the game."""
        a = int(action)
        apply_action(self.state, self.cards.table, np.int64(a))
        self.history.append(a)

    def copy(self) -> "Game":
        """An independent copy whose future is the same (the generator is part of the state)."""
        g = Game.__new__(Game)
        g.n_players = self.n_players
        g._cards = self._cards
        g.seed = self.seed
        g._state = self._state.copy()
        g._fresh_buffers(self._work)      # scratch only: copies may share it
        g._mask[:] = self._mask           # the mask cache goes with the state it belongs to
        g._cache[:] = self._cache
        g.history = list(self.history)
        return g

    __copy__ = copy

    def __getstate__(self) -> dict:
        """What a pickle (and :func:`copy.deepcopy`) holds: the state, history, seed, player
        count and card set (pickled by itself), not the work buffer or the mask cache."""
        return {"n_players": self.n_players, "seed": self.seed, "cards": self.cards,
                "state": self.state, "history": self.history}

    def __setstate__(self, d: dict) -> None:
        """Restore a game from :meth:`__getstate__`: a fresh work buffer, an empty mask cache and
        a read-only card table."""
        self.n_players = int(d["n_players"])
        self.seed = int(d["seed"])
        self._cards = d["cards"]
        if self._cards.table.flags.writeable:
            self._cards.table.flags.writeable = False    # the engine is compiled for read-only tables
        self._state = np.array(d["state"], dtype=np.int64)
        self.history = [int(a) for a in d["history"]]
        self._fresh_buffers(new_work())

    def determinized(self, seat: int, seed: int, infoset: np.ndarray | None = None) -> "Game":
        """A full game consistent with ``seat``'s information set (G25): the hidden cards dealt
        anew and the generator seeded from ``seed`` by
        :func:`~.engine.gz_infoset.determinize`.

        The sample is built from the scrub of this game's state, or of ``infoset`` when given
        (a :class:`~electrify_env.seatview.SeatView` infoset of a game with this card set and
        player count; this game's state is then not read), so it depends on what ``seat`` may
        know and ``seed`` only.  The new game's history is empty and its ``seed`` is ``seed``.
        InvalidArgumentError when ``infoset`` does not fit this card set."""
        seat = as_int(seat, "seat")
        if not 0 <= seat < self.n_players:
            raise InvalidArgumentError(f"seat must be 0..{self.n_players - 1}, got {seat}")
        seed = check_seed(seed)
        src = check_state(self.state if infoset is None else infoset, L.S_SIZE, self.n_players, L.S_NPLAYERS)
        P = np.empty(L.S_SIZE, dtype=np.int64)
        scrub(src, self.cards.table, np.int64(seat), P)
        g = self.copy()
        g.seed = seed
        g.history = []
        if determinize(P, self.cards.table, np.int64(seat), np.int64(seed), g.state) != 0:
            raise InvalidArgumentError("infoset is not an information set of a game with this card set")
        return g

    def __repr__(self) -> str:
        """The public standing of the game (no seed: it would give away the decks, G25)."""
        return (f"gizmos.Game(n_players={self.n_players}, round={self.round}, "
                f"player={self.current_player}, phase={self.phase!r})")
