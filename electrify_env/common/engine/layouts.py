"""The allocator of a game's flat int64 arrays, and the documentation tables of its layouts.

A game lays out each array (card table, state, action ids, batch records, observation) with one
:class:`Layout`: ``X = lay.field("X", length, meaning)`` gives the next free offset.  Jitted code
reads the module-level ints, which numba freezes as compile-time constants; :func:`layout_tables`
and :func:`tables_markdown` render the fields that were allocated, so the documentation cannot
drift from the numbers.
"""
from __future__ import annotations

from typing import Iterable

#: one documentation row: (name, offset, length, meaning)
Row = tuple[str, int, int, str]


class Layout:
    """Allocates consecutive named ranges and remembers them for the documentation table."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.size = 0
        self.rows: list[Row] = []

    def field(self, name: str, length: int, meaning: str) -> int:
        """Allocate ``length`` entries named ``name``; return their offset."""
        off = self.size
        self.rows.append((name, off, length, meaning))
        self.size += length
        return off


def layout_tables(layouts: Iterable) -> dict[str, list[Row]]:
    """The documentation tables of ``layouts`` (anything with ``title`` and ``rows``): for each
    layout, its rows of (name, offset, length, meaning)."""
    return {lay.title: list(lay.rows) for lay in layouts}


def tables_markdown(layouts: Iterable, first: str = "name") -> str:
    """Render each of ``layouts`` (with ``title``, ``size`` and ``rows``) as a Markdown table
    titled ``### <title> (<size> entries)``, columns ``first``, offset, length, meaning."""
    out = []
    for lay in layouts:
        out.append(f"### {lay.title} ({lay.size} entries)\n")
        out.append(f"| {first} | offset | length | meaning |")
        out.append("|---|---:|---:|---|")
        for name, off, length, meaning in lay.rows:
            out.append(f"| `{name}` | {off} | {length} | {meaning} |")
        out.append("")
    return "\n".join(out)
