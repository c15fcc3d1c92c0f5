"""The Gizmos action codec: action id <-> (kind, named arguments), from the layout's ranges.

Every range ``A_<NAME>`` of :mod:`electrify_env.gizmos.engine.gz_layout` is one kind
(``"file"``, ``"pick"``, ``"build"``, ``"build_arch"``, ``"research"``, ``"res_build"``,
``"res_file"``, ``"use"``, ``"spend"``, ``"convert"``, ``"confirm"``, ``"pass"``)::

    >>> from electrify_env.gizmos.actions import decode, encode
    >>> encode("build", level=2, slot=1)
    22
    >>> decode(22)
    Action(id=22, kind='build', args={'level': 2, 'slot': 1})

Levels count 1..3 in arguments (``level=2`` is level II); every other argument counts from 0.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping

from ..validation import InvalidArgumentError
from .engine import gz_layout as L


class ActionCodecError(InvalidArgumentError):
    """An id outside the action space, an unknown kind or arguments that do not fit it."""


@dataclass(frozen=True)
class Action:
    """A decoded action id: its kind and named arguments."""

    id: int
    kind: str
    args: Mapping[str, int] = field(default_factory=dict)


#: kind -> (argument names, sizes, offsets added to each argument for display: level counts from 1)
_ARGS: dict[str, tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]] = {
    "A_PASS": ((), (), ()),
    "A_FILE": (("level", "slot"), (L.N_DECKS, L.MAX_DISPLAY), (1, 0)),
    "A_PICK": (("colour",), (L.N_COLOURS,), (0,)),
    "A_BUILD": (("level", "slot"), (L.N_DECKS, L.MAX_DISPLAY), (1, 0)),
    "A_BUILD_ARCH": (("index",), (L.MAX_ARCHIVE,), (0,)),
    "A_RESEARCH": (("level",), (L.N_DECKS,), (1,)),
    "A_RES_BUILD": (("index",), (L.MAX_RESEARCH,), (0,)),
    "A_RES_FILE": (("index",), (L.MAX_RESEARCH,), (0,)),
    "A_USE": (("machine",), (L.MAX_BUILT,), (0,)),
    "A_SPEND": (("colour",), (L.N_COLOURS,), (0,)),
    "A_CONVERT": (("option",), (L.MAX_OPTS,), (0,)),
    "A_CONFIRM": ((), (), ()),
}


@dataclass(frozen=True)
class ActionRange:
    """One named range of the action space."""

    kind: str
    first: int
    length: int
    meaning: str
    args: tuple[str, ...]
    sizes: tuple[int, ...]
    base: tuple[int, ...]


def _build() -> tuple[ActionRange, ...]:
    out = []
    for name, first, length, meaning in L.layout_rows()["action ids"]:
        names, sizes, base = _ARGS[name]
        size = 1
        for s in sizes:
            size *= s
        if size != length:
            raise RuntimeError(f"gizmos action codec: {name} has {length} ids but its arguments give {size}")
        out.append(ActionRange(name[2:].lower(), first, length, meaning, names, sizes, base))
    return tuple(out)


KINDS: tuple[ActionRange, ...] = _build()
_BY_KIND = {r.kind: r for r in KINDS}
_OF_ID = tuple(r for r in KINDS for _ in range(r.length))
N_ACTIONS = L.N_ACTIONS


def _check_id(action_id) -> int:
    if isinstance(action_id, bool) or not hasattr(action_id, "__index__"):
        raise ActionCodecError(f"action id must be an integer, got {action_id!r}")
    a = int(action_id.__index__())
    if not 0 <= a < L.N_ACTIONS:
        raise ActionCodecError(f"action id {a} is out of range 0..{L.N_ACTIONS - 1}")
    return a


def decode(action_id: int) -> Action:
    """Split an action id into its kind and named arguments (ActionCodecError out of range)."""
    a = _check_id(action_id)
    r = _OF_ID[a]
    off = a - r.first
    vals = []
    for size in reversed(r.sizes):
        off, v = divmod(off, size)
        vals.append(v)
    vals.reverse()
    return Action(a, r.kind, {n: v + b for n, v, b in zip(r.args, vals, r.base)})


def encode(kind: str, **args: int) -> int:
    """The action id of ``kind`` with every argument by name (ActionCodecError naming a wrong
    one)."""
    r = _BY_KIND.get(kind[2:].lower() if kind.upper().startswith("A_") else kind)
    if r is None:
        raise ActionCodecError(f"unknown action kind {kind!r}; kinds: {', '.join(_BY_KIND)}")
    if set(args) != set(r.args):
        raise ActionCodecError(f"{r.kind}: takes {', '.join(r.args) or 'no arguments'}; got {', '.join(args) or 'none'}")
    off = 0
    for name, size, b in zip(r.args, r.sizes, r.base):
        v = args[name]
        if isinstance(v, bool) or not hasattr(v, "__index__") or not b <= int(v) < size + b:
            raise ActionCodecError(f"{r.kind}: {name} must be {b}..{size - 1 + b}, got {v!r}")
        off = off * size + int(v) - b
    return r.first + off


def kinds_table() -> str:
    """The kinds as a Markdown table (kind, first id, ids, arguments, meaning)."""
    rows = ["| kind | first id | ids | arguments | meaning |", "|---|---:|---:|---|---|"]
    for r in KINDS:
        rows.append(f"| `{r.kind}` | {r.first} | {r.length} | {', '.join(r.args) or '-'} | {r.meaning} |")
    return "\n".join(rows)
