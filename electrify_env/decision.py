"""A structured view of the pending decision: who decides, what kind of decision it is, and each
legal option as id + text + named arguments (:meth:`Game.decision <electrify_env.game.Game.decision>`).

    >>> game = Game(n_players=2, seed=0)
    >>> d = game.decision()
    >>> d.player, d.kind, d.options[0].kind, d.options[0].args
    (0, 'plan', 'plan', {'sector': 0})
    >>> game.step(d.find("plan", sector=2).id)

Decision kinds are the frame types of :mod:`electrify_env.engine.layout` (``FT_ACQUIRE`` ->
``"acquire"``), ``"game_over"`` once the game has ended.  Option kinds and arguments come from the
action codec (:mod:`electrify_env.actions`), so ``encode(option.kind, **option.args) == option.id``;
``option.refs`` adds what the arguments point at in this position (the hand card behind a hand
slot, the demand card of a level, the reward behind a reward slot).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

import numpy as np

from .actions import ANY_TIME_KINDS, ActionCodecError, decode, encode
from .engine import layout as L
from .engine.stack import top

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game

#: frame type code -> decision kind (``FT_ACQUIRE`` -> ``"acquire"``), from the layout's names
FRAME_KINDS: dict[int, str] = {getattr(L, n): n[3:].lower() for n in dir(L) if n.startswith("FT_")}


def parse_frame_kinds(spec: str) -> set[int]:
    """The frame type codes of a comma-separated list of decision kinds (``"plan,acquire"``, the
    names of :data:`FRAME_KINDS`); ValueError naming the first unknown one."""
    codes = {kind: code for code, kind in FRAME_KINDS.items()}
    out = set()
    for name in spec.split(","):
        kind = name.strip().lower()
        if kind not in codes:
            raise ValueError(f"unknown decision type {name.strip()!r} (one of {', '.join(sorted(codes))})")
        out.add(codes[kind])
    return out

#: boost name -> code (the position builder's names)
BOOSTS = {"none": L.BOOST_NONE, "innovation": L.BOOST_INNOVATION, "collaboration": L.BOOST_COLLABORATION}
BOOST_NAMES = {code: name for name, code in BOOSTS.items()}
REWARD_SOURCES = {L.REW_SRC_DEMAND: "demand", L.REW_SRC_SPACE: "space", L.REW_SRC_GROUP: "group"}

# The meaningful fields (a, b, c, ...) of each decision frame, by name (layout.py's FT_* comments).
_FRAME_FIELDS: dict[int, tuple[str, ...]] = {
    L.FT_BOOST: ("boost",),
    L.FT_PAY: ("face", "owed"),
    L.FT_PLACE_SECTOR: ("face", "free"),
    L.FT_PLACE_SLOT: ("face", "free", "sector"),
    L.FT_ITEM: ("face", "sector", "used_icons"),
    L.FT_ICON: ("face", "sector", "icon", "uses_left"),
    L.FT_REWARD: ("source", "source_id", "taken", "priority"),
    L.FT_CARD_CHOICE: ("max_cost",),
    L.FT_REORDER: ("sector", "picked", "order", "picks"),
    L.FT_ONGOING: ("face", "sector", "icon", "uses"),
}


@dataclass(frozen=True)
class Option:
    """One legal action at the pending decision.

    Attributes:
        id: the action id to pass to :meth:`Game.step`.
        kind: the action kind (a range of the action space, :data:`electrify_env.actions.KINDS`).
        args: the kind's named arguments (``encode(kind, **args) == id``).
        text: the human-readable meaning here (:meth:`Game.describe_action`).
        any_time: True for the any-time actions of R13 (discard a hand card, donate a grid cube),
            offered at every decision besides the decision's own options.
        refs: what the arguments point at in this position: ``card`` (industry card id behind a
            hand slot), ``face`` (face id of a basic face, a card on a sector, a card to reorder),
            ``demand`` (demand card id of a level), ``reward_kind``/``value``/``arg`` (a reward slot).
    """

    id: int
    kind: str
    args: Mapping[str, int]
    text: str
    any_time: bool = False
    refs: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Decision:
    """The pending decision of a game.

    Attributes:
        player: the seat that decides (-1 once the game is over).
        kind: the decision kind: the frame type's name (``"plan"``, ``"boost"``, ``"acquire"``,
            ``"pay"``, ``"place_sector"``, ``"place_slot"``, ``"discharge"``, ``"item"``,
            ``"icon"``, ``"bt_pick"``, ``"fulfill"``, ``"reward"``, ``"card_choice"``, ``"flip"``,
            ``"reorder"``, ``"solo_swap"``, ``"discard_pay"``, ``"ongoing"``), or ``"game_over"``.
        round: the round (0 during the first Plan step).
        text: one line describing the decision (:meth:`Game.pending`).
        context: the decision frame's fields by name (e.g. ``{"face": 12, "owed": 3}`` while paying).
        options: every legal action, ascending by id.
    """

    player: int
    kind: str
    round: int
    text: str
    context: Mapping[str, object]
    options: tuple[Option, ...]

    @property
    def ids(self) -> list[int]:
        """The legal action ids, ascending."""
        return [o.id for o in self.options]

    def phase_options(self) -> tuple[Option, ...]:
        """The decision's own options, without the any-time actions of R13."""
        return tuple(o for o in self.options if not o.any_time)

    def find(self, kind: str, **args: int) -> Option:
        """The legal option of ``kind`` with arguments ``args`` (every argument, by name).

        Raises:
            ActionCodecError: the kind or arguments do not name an action id.
            IllegalOptionError: the action is not legal at this decision.
        """
        a = encode(kind, **args)
        for o in self.options:
            if o.id == a:
                return o
        raise IllegalOptionError(f"{kind} {args} (action {a}) is not legal at this {self.kind} decision; "
                                 f"legal: {', '.join(o.kind + str(dict(o.args)) for o in self.options)}")


class IllegalOptionError(ActionCodecError):
    """:meth:`Decision.find` for an action that is not legal at the pending decision."""


def frame_offset(state: np.ndarray, below: int = 0) -> int:
    """Offset in ``state`` (an engine state or a seat's information set) of the pending decision's
    frame (:func:`electrify_env.engine.stack.top`), or of the frame ``below`` places under it;
    -1 when there is no such frame (the stack is empty, or not that deep)."""
    off = int(top(state))
    if off < 0 or below == 0:
        return off
    off -= below * L.FRAME
    return off if off >= L.S_STACK else -1


def pending_frame_type(state: np.ndarray) -> int:
    """The frame type (``layout.FT_*``) of the pending decision in ``state`` (an engine state or a
    seat's information set); ``FT_NONE`` when the stack is empty (the game is over)."""
    off = frame_offset(state)
    return L.FT_NONE if off < 0 else int(state[off + L.FR_TYPE])


def frame_values(state: np.ndarray, below: int = 0) -> list[int]:
    """The ``FRAME`` ints of the pending decision's frame (or of the frame ``below`` places under
    it) as Python ints; ``[FT_NONE, 0, ...]`` when there is none."""
    off = frame_offset(state, below)
    if off < 0:
        return [L.FT_NONE] + [0] * (L.FRAME - 1)
    return [int(x) for x in state[off:off + L.FRAME]]


def _context(game: "Game", fr: list[int]) -> dict[str, object]:
    names = _FRAME_FIELDS.get(fr[0], ())
    ctx: dict[str, object] = dict(zip(names, fr[1:1 + len(names)]))
    if "boost" in ctx:
        ctx["boost"] = BOOST_NAMES[int(ctx["boost"])]
    if "source" in ctx:
        ctx["source"] = REWARD_SOURCES[int(ctx["source"])]
        ctx["priority"] = bool(ctx["priority"])
    if "free" in ctx:
        ctx["free"] = ctx["free"] == L.PLACE_FREE
    if fr[0] == L.FT_ICON:
        ctx["follow_up"] = int(ctx["icon"]) >= L.ICON_FOLLOW_UP
        ctx["icon"] = int(ctx["icon"]) % L.ICON_FOLLOW_UP
    if fr[0] == L.FT_DISCARD_PAY:
        ctx["discarded"] = frame_values(game.state, below=1)[L.FR_D]   # uses of the icon below
    return ctx


def _refs(game: "Game", fr: list[int], kind: str, args: Mapping[str, int]) -> dict[str, int]:
    S = game.state
    pb = L.S_PLAYERS + game.current_player * L.P_SIZE
    if kind in ("card_hand", "discard", "discard_mult"):
        return {"card": int(S[pb + L.P_HAND + args["hand_slot"]])}
    if kind == "card_basic":
        return {"face": L.FACE_BASIC + 2 * args["basic"] + args["face"]}
    if kind == "dis_card":
        return {"face": int(S[pb + L.P_SEC_CARD + args["sector"] * L.MAX_SLOTS + args["slot"]])}
    if kind == "reorder" and fr[0] == L.FT_REORDER:
        return {"face": int(S[pb + L.P_SEC_CARD + fr[L.FR_A] * L.MAX_SLOTS + args["slot"]])}
    if kind == "fulfill":
        return {"demand": int(S[L.S_DEMAND + args["level"]])}
    if kind == "reward" and fr[0] == L.FT_REWARD:
        from .engine.fulfill import reward_entry
        k, v, a = reward_entry(game.cards.table, np.int64(fr[L.FR_A]), np.int64(fr[L.FR_B]), np.int64(args["reward"]))
        return {"reward_kind": int(k), "value": int(v), "arg": int(a)}
    return {}


def decision(game: "Game") -> Decision:
    """The structured view of ``game``'s pending decision (see :class:`Decision`)."""
    if game.is_terminal:
        return Decision(-1, "game_over", game.round, game.pending(), {}, ())
    fr = frame_values(game.state)
    options = []
    for a in game.legal_actions():
        act = decode(int(a))
        options.append(Option(act.id, act.kind, act.args, game.describe_action(act.id),
                              act.kind in ANY_TIME_KINDS, _refs(game, fr, act.kind, act.args)))
    return Decision(game.current_player, FRAME_KINDS.get(fr[0], f"frame {fr[0]}"), game.round,
                    game.pending(), _context(game, fr), tuple(options))
