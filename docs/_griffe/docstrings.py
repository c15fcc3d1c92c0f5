"""Griffe extensions that adapt the package's docstrings to the Markdown of this site.

* :class:`SphinxRoles`: the docstrings name objects with Sphinx roles (``:class:`~electrify_env.Game```);
  Markdown has no roles, so each becomes a code span of the name (the last part with ``~``).
* :class:`DoctestBlocks`: an interactive example (lines starting ``>>>`` and ``...``) becomes a
  fenced ``pycon`` code block, which Markdown would otherwise read as nested quotes.
* :class:`ObservationTable`: ``electrify_env.envs._common.with_observation_table`` fills the
  ``{obs_table}`` field of an env class's docstring when the class is imported; griffe reads the
  source, so the field becomes a link to the Observation page.
"""
from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|obj|exc|const):`(~?)([^`]+)`")
# a ">>> " line, then every following non-blank line of the same indentation (more code, output)
DOCTEST = re.compile(r"^(?P<indent>[ \t]*)>>> .*(?:\n(?P=indent)\S.*)*", re.M)
FIELD = "{obs_table}"
POINTER = "The table of every field: [Observation](../observation.md)."


def plain_roles(text: str) -> str:
    """``:class:`~a.b.C``` -> ```C```, ``:func:`a.b``` -> ```a.b```."""
    def repl(m: re.Match) -> str:
        name = m.group(2).strip()
        if m.group(1):
            name = name.rsplit(".", 1)[-1]
        return f"`{name}`"
    return ROLE.sub(repl, text)


class SphinxRoles(griffe.Extension):
    """Turn Sphinx roles in every docstring into Markdown code spans."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring of ``obj``, if it has one."""
        if obj.docstring is not None and ":`" in obj.docstring.value:
            obj.docstring.value = plain_roles(obj.docstring.value)


def fence_doctests(text: str) -> str:
    """Wrap each run of ``>>>`` / ``...`` lines in a fenced ``pycon`` block (same indentation)."""
    def repl(m: re.Match) -> str:
        indent = m.group("indent")
        return f"{indent}```pycon\n{m.group(0)}\n{indent}```"
    return DOCTEST.sub(repl, text)


class DoctestBlocks(griffe.Extension):
    """Fence the interactive examples of every docstring."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite the docstring of ``obj``, if it holds an example."""
        if obj.docstring is not None and ">>> " in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)


class ObservationTable(griffe.Extension):
    """Replace ``{obs_table}`` in class docstrings with a link to the Observation page."""

    def on_class_members(self, *, cls: griffe.Class, **kwargs: Any) -> None:
        """Rewrite the docstring of ``cls`` when it holds the field."""
        if cls.docstring is not None and FIELD in cls.docstring.value:
            cls.docstring.value = cls.docstring.value.replace(FIELD, POINTER)
