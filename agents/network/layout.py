"""What the network needs to know about a game's observation: where the cards lie in it.

A game's observation (``Game.observe(seat)``) is a flat float32 vector.  Some stretches of it are
**card slots**: ``count`` consecutive blocks of ``stride`` floats, each the card features of one
card (computed from the card table, so any schema-valid card set has the same features), the
first of them ``present`` (1 where a card is there), followed by ``stride - card_width`` features
of the slot itself (a machine's "used this turn", say).  A :class:`NetworkLayout` names those
groups and, for the actions that point at a slot ("build display card 5", "use machine 3"),
which slot each such action id points at.  Everything outside the groups is read as plain
features.

The network (:mod:`.model`) encodes every card slot with one shared card encoder, so it compares
cards directly and costs a few small matrix products instead of one product over the whole
vector; a pointing action's logit is the product of the torso's state and its slot's embedding.

A game provides its layout through its ``GameDef.network`` hook as plain data
(``network_layout(n_players)`` returning a dict, see :meth:`NetworkLayout.from_dict`), so this
module imports no game.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from electrify_env.validation import InvalidArgumentError

__all__ = ["SlotGroup", "PointerRange", "NetworkLayout", "layout_of"]


@dataclass(frozen=True)
class SlotGroup:
    """``count`` card slots of ``stride`` floats from ``offset``; the first ``card_width`` floats of
    a slot are card features (the first of them ``present``), the rest the slot's own features."""

    name: str
    offset: int
    count: int
    stride: int
    card_width: int

    @property
    def end(self) -> int:
        """One past the group's last float."""
        return self.offset + self.count * self.stride


@dataclass(frozen=True)
class PointerRange:
    """Action ids ``first .. first + count - 1`` point at slots ``start .. start + count - 1`` of
    the group named ``group``."""

    first: int
    count: int
    group: str
    start: int = 0


@dataclass(frozen=True)
class NetworkLayout:
    """The card slots and pointing actions of one game's observation (module docstring).

    Attributes:
        game: the game's registry name.
        obs_size: the observation's length.
        n_actions: the action space's size.
        n_players: the player count the layout is for.
        version: the game's observation version (a policy file records it).
        groups: the card-slot groups, in observation order, not overlapping.
        pointers: the pointing action ranges.
    """

    game: str
    obs_size: int
    n_actions: int
    n_players: int
    version: int
    groups: tuple[SlotGroup, ...]
    pointers: tuple[PointerRange, ...] = ()
    flat_index: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        names = [g.name for g in self.groups]
        if len(set(names)) != len(names):
            raise InvalidArgumentError(f"network layout of {self.game}: group names repeat ({names})")
        width = None
        covered = np.zeros(self.obs_size, dtype=bool)
        for g in self.groups:
            if g.count < 1 or g.stride < 1 or not 1 <= g.card_width <= g.stride:
                raise InvalidArgumentError(f"network layout of {self.game}: group {g.name!r} needs count >= 1 "
                                           f"and 1 <= card_width <= stride, got {g}")
            if g.offset < 0 or g.end > self.obs_size or covered[g.offset:g.end].any():
                raise InvalidArgumentError(f"network layout of {self.game}: group {g.name!r} "
                                           f"({g.offset}..{g.end}) leaves the observation or overlaps another")
            if width is not None and g.card_width != width:
                raise InvalidArgumentError(f"network layout of {self.game}: every group needs the same card width "
                                           f"({width}), group {g.name!r} has {g.card_width}")
            width = g.card_width
            covered[g.offset:g.end] = True
        by_name = {g.name: g for g in self.groups}
        seen = np.zeros(self.n_actions, dtype=bool)
        for p in self.pointers:
            g = by_name.get(p.group)
            if g is None:
                raise InvalidArgumentError(f"network layout of {self.game}: pointer range at action {p.first} "
                                           f"names no group {p.group!r}; groups: {', '.join(names)}")
            if p.count < 1 or p.first < 0 or p.first + p.count > self.n_actions or seen[p.first:p.first + p.count].any():
                raise InvalidArgumentError(f"network layout of {self.game}: pointer range {p} leaves the "
                                           f"action space or overlaps another")
            if p.start < 0 or p.start + p.count > g.count:
                raise InvalidArgumentError(f"network layout of {self.game}: pointer range {p} points past "
                                           f"group {g.name!r}'s {g.count} slots")
            seen[p.first:p.first + p.count] = True
        object.__setattr__(self, "flat_index", np.flatnonzero(~covered).astype(np.int64))

    @property
    def card_width(self) -> int:
        """The card features' width shared by every group."""
        return self.groups[0].card_width if self.groups else 0

    def to_dict(self) -> dict[str, Any]:
        """Plain data (what a game's hook returns and a policy file stores)."""
        return {"game": self.game, "obs_size": self.obs_size, "n_actions": self.n_actions,
                "n_players": self.n_players, "version": self.version,
                "groups": [vars(g).copy() for g in self.groups],
                "pointers": [vars(p).copy() for p in self.pointers]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "NetworkLayout":
        """A layout from plain data (InvalidArgumentError naming what is missing or wrong)."""
        try:
            return cls(str(d["game"]), int(d["obs_size"]), int(d["n_actions"]), int(d["n_players"]),
                       int(d["version"]), tuple(SlotGroup(**g) for g in d["groups"]),
                       tuple(PointerRange(**p) for p in d.get("pointers", ())))
        except (KeyError, TypeError) as err:
            raise InvalidArgumentError(f"a network layout needs game, obs_size, n_actions, n_players, version, "
                                       f"groups (name, offset, count, stride, card_width) and pointers "
                                       f"(first, count, group, start): {err}") from None


def layout_of(game: str, n_players: int) -> NetworkLayout:
    """The network layout of the registered game named ``game`` for ``n_players`` (its GameDef's
    ``network`` hook); InvalidArgumentError for a game without one."""
    from electrify_env.games import get_game

    gdef = get_game(game)
    if not getattr(gdef, "network", ""):
        raise InvalidArgumentError(f"{gdef.title} has no network layout (its GameDef names no network module)")
    from importlib import import_module

    return NetworkLayout.from_dict(import_module(gdef.network).network_layout(int(n_players)))
