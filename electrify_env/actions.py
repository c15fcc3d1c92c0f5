"""The action codec: action id <-> (kind, named arguments), built from the layout's named ranges.

Every range ``A_<NAME>`` of :mod:`electrify_env.engine.layout` is one *kind* (``"<name>"`` in
lower case: ``"plan"``, ``"card_hand"``, ``"dis_card"``, ``"plan_move"``, ...), and the offset
inside the range splits into named arguments::

    >>> from electrify_env.actions import decode, encode
    >>> decode(97)
    Action(id=97, kind='dis_card', args={'sector': 2, 'slot': 1})
    >>> encode("dis_card", sector=2, slot=1)
    97

The jitted dispatcher (``engine/step.py``) routes ids with the same layout constants; this module
is the one place where Python code (descriptions, the decision view, analysis tools) turns ids
into meaning, so nobody decodes ``A_* + k`` by hand.  ``KINDS`` lists every kind with its
arguments; :func:`kinds_table` renders them as a Markdown table.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from .engine import layout as L
from .validation import InvalidArgumentError


class ActionCodecError(InvalidArgumentError):
    """An action id outside the action space, an unknown kind, or arguments that do not fit it;
    the message names the offending field."""


@dataclass(frozen=True)
class ActionRange:
    """One named range of the action space.

    ``args`` name the arguments; the offset inside the range is their mixed-radix number with
    sizes ``sizes`` (first argument most significant), or, when ``pairs`` is given, the index of
    the argument tuple in ``pairs``."""

    kind: str
    first: int
    length: int
    meaning: str
    args: tuple[str, ...]
    sizes: tuple[int, ...]
    pairs: tuple[tuple[int, ...], ...] = ()

    def decode(self, offset: int) -> tuple[int, ...]:
        """The argument values of offset ``offset`` (0 <= offset < length)."""
        if self.pairs:
            return self.pairs[offset]
        out = []
        for size in reversed(self.sizes):
            offset, r = divmod(offset, size)
            out.append(r)
        return tuple(reversed(out))

    def encode(self, values: tuple[int, ...]) -> int:
        """The offset of the argument values ``values`` (checked by :func:`encode`)."""
        if self.pairs:
            return self.pairs.index(values)
        off = 0
        for v, size in zip(values, self.sizes):
            off = off * size + v
        return off


@dataclass(frozen=True)
class Action:
    """A decoded action id: its kind (the layout range, lower case) and named arguments."""

    id: int
    kind: str
    args: Mapping[str, int] = field(default_factory=dict)

    @property
    def range_name(self) -> str:
        """The layout constant of the range (``"A_DIS_CARD"``)."""
        return "A_" + self.kind.upper()


# The arguments of each range: (names, sizes) in mixed radix, or (names, pairs).  Every range of
# layout.py must appear here; _build() refuses a layout with a range this table does not know.
_ARGS: dict[str, tuple[tuple[str, ...], tuple[int, ...] | tuple[tuple[int, ...], ...]]] = {
    "A_PASS": ((), ()),
    "A_PLAN": (("sector",), (L.N_SECTORS,)),
    "A_BOOST": ((), ()),
    "A_CARD_HAND": (("hand_slot",), (L.MAX_HAND,)),
    "A_CARD_BASIC": (("basic", "face"), (L.MAX_BASIC, 2)),
    "A_PAY": (("column",), (L.N_COLS,)),
    "A_PLACE_SECTOR": (("sector",), (L.N_SECTORS,)),
    "A_PLACE_SLOT": (("slot",), (L.MAX_SLOTS,)),
    "A_DIS_SECTOR": (("sector",), (L.N_SECTORS,)),
    "A_DIS_CARD": (("sector", "slot"), (L.N_SECTORS, L.MAX_SLOTS)),
    "A_ICON": (("icon",), (L.MAX_ICONS,)),
    "A_PRODUCE": (("column",), (L.N_COLS,)),
    "A_DEVELOP": (("column",), (L.N_COLS,)),
    "A_TRANSMIT": (("column",), (L.N_COLS,)),
    "A_RESEARCH": ((), ()),
    "A_INVEST": (("deck",), (L.N_DECKS,)),
    "A_PLAN_MOVE": (("sector", "column"), (L.N_SECTORS, L.N_COLS)),
    "A_BT": (("space",), (L.N_BT_SPACES,)),
    "A_FULFILL": (("level",), (L.N_LEVELS,)),
    "A_REWARD": (("reward",), (L.MAX_REWARDS,)),
    "A_FLIP": (("sector",), (L.N_SECTORS,)),
    "A_REORDER": (("slot",), (L.MAX_SLOTS,)),
    "A_DISCARD": (("hand_slot",), (L.MAX_HAND,)),
    "A_DONATE": (("column",), (L.N_COLS,)),
    "A_DISCARD_MULT": (("hand_slot",), (L.MAX_HAND,)),
    "A_ONGOING": ((), ()),
    "A_SOLO_SWAP": (("sector_a", "sector_b"), L.SOLO_PAIRS),
}

#: kinds offered at every decision of the acting player (R13), besides the decision's own
ANY_TIME_KINDS = frozenset({"discard", "donate"})


def _build() -> tuple[ActionRange, ...]:
    out = []
    for name, first, length, meaning in L.layout_rows()["action ids"]:
        if name not in _ARGS:
            raise RuntimeError(f"action codec: layout range {name} has no argument spec in actions._ARGS")
        names, spec = _ARGS[name]
        if names and isinstance(spec[0], tuple):
            rng = ActionRange(name[2:].lower(), first, length, meaning, names,
                              tuple(max(p[i] for p in spec) + 1 for i in range(len(names))), tuple(spec))
            size = len(spec)
        else:
            rng = ActionRange(name[2:].lower(), first, length, meaning, names, tuple(spec))
            size = 1
            for s in spec:
                size *= s
        if size != length:
            raise RuntimeError(f"action codec: {name} has {length} ids but its arguments give {size}")
        out.append(rng)
    return tuple(out)


#: every range of the action space, in id order
KINDS: tuple[ActionRange, ...] = _build()
_BY_KIND = {r.kind: r for r in KINDS}
_KIND_OF_ID: tuple[ActionRange, ...] = tuple(r for r in KINDS for _ in range(r.length))
assert len(_KIND_OF_ID) == L.N_ACTIONS


def _check_id(action_id) -> int:
    if isinstance(action_id, bool) or not hasattr(action_id, "__index__"):
        raise ActionCodecError(f"action id must be an integer, got {action_id!r}")
    a = int(action_id.__index__())
    if not 0 <= a < L.N_ACTIONS:
        raise ActionCodecError(f"action id {a} is out of range 0..{L.N_ACTIONS - 1}")
    return a


def action_range(kind: str) -> ActionRange:
    """The :class:`ActionRange` of ``kind`` (``"dis_card"``; the layout name ``"A_DIS_CARD"``
    is accepted too)."""
    if not isinstance(kind, str):
        raise ActionCodecError(f"kind must be a string, got {kind!r}")
    key = kind[2:].lower() if kind.upper().startswith("A_") else kind
    try:
        return _BY_KIND[key]
    except KeyError:
        raise ActionCodecError(f"unknown action kind {kind!r}; kinds: {', '.join(_BY_KIND)}") from None


def kind_of(action_id: int) -> str:
    """The kind of an action id (``"pay"``)."""
    return _KIND_OF_ID[_check_id(action_id)].kind


def decode(action_id: int) -> Action:
    """Split an action id into its kind and named arguments.

    Raises:
        ActionCodecError: ``action_id`` is not an integer in ``0..N_ACTIONS-1``.
    """
    a = _check_id(action_id)
    r = _KIND_OF_ID[a]
    return Action(a, r.kind, dict(zip(r.args, r.decode(a - r.first))))


def encode(kind: str, **args: int) -> int:
    """The action id of ``kind`` with arguments ``args`` (every argument of the kind, by name).

    >>> encode("plan_move", sector=3, column=0)     # layout.A_PLAN_MOVE + 3 * N_COLS + 0
    160

    Raises:
        ActionCodecError: unknown kind, a missing or unexpected argument, or a value out of
            range (the message names the argument).
    """
    r = action_range(kind)
    missing = [n for n in r.args if n not in args]
    extra = [n for n in args if n not in r.args]
    if missing or extra:
        want = ", ".join(r.args) or "no arguments"
        raise ActionCodecError(f"{r.kind}: takes {want}; " +
                               (f"missing {', '.join(missing)}" if missing else f"unexpected {', '.join(extra)}"))
    values = []
    for name, size in zip(r.args, r.sizes):
        v = args[name]
        if isinstance(v, bool) or not hasattr(v, "__index__"):
            raise ActionCodecError(f"{r.kind}: {name} must be an integer, got {v!r}")
        v = int(v.__index__())
        if not 0 <= v < size:
            raise ActionCodecError(f"{r.kind}: {name} must be 0..{size - 1}, got {v}")
        values.append(v)
    values_t = tuple(values)
    if r.pairs and values_t not in r.pairs:
        raise ActionCodecError(f"{r.kind}: ({', '.join(r.args)}) must be one of {list(r.pairs)}, got {values_t}")
    return r.first + r.encode(values_t)


def kinds_table() -> str:
    """The kinds as a Markdown table (kind, first id, ids, arguments, meaning)."""
    rows = ["| kind | first id | ids | arguments | meaning |", "|---|---:|---:|---|---|"]
    for r in KINDS:
        rows.append(f"| `{r.kind}` | {r.first} | {r.length} | {', '.join(r.args) or '-'} | {r.meaning} |")
    return "\n".join(rows)
