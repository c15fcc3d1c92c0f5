"""The one YAML reader of the project (card sets, tech packs, scenarios, agent weights, training
configs): strict parsing with one clear error line per problem, and the wording of pydantic errors.

Every problem with a file raises the caller's error class (``CardSetError``, ``ScenarioError``,
``ConfigError``, ``AgentError``...) with one line that starts with the file's name::

    configs/cards/x.yaml: line 50: duplicate key 'cost' (first at line 50); a key may appear once per mapping
    configs/cards/x.yaml: YAML syntax error at line 3, column 9: found unexpected end of stream
    configs/cards/x.yaml: not UTF-8 text (byte 0xe9 at line 12)
    configs/cards/x.yaml: not a text file (it holds NUL bytes)
    configs/cards/x.yaml: the file must hold a mapping (got a list)

Stricter than ``yaml.safe_load`` in one way: a key repeated inside one mapping is refused (plain
YAML keeps the last value silently).  ``<<`` merge keys work as YAML specifies: an explicit key
beside a merge overrides the merged one.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import yaml

from electrify_env.paths import DATA_ROOT

REPO_ROOT = DATA_ROOT      # the repository, or the installed data copy (electrify_env.paths)

_MERGE_TAG = "tag:yaml.org,2002:merge"


def display_path(path: Path, root: Path = REPO_ROOT) -> str:
    """The path as shown in messages: relative to ``root`` (the repository) when inside it."""
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except (ValueError, OSError, RuntimeError):
        return str(path)


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A key that appears twice in one YAML mapping (raised by :class:`StrictLoader`)."""

    def __init__(self, key: Any, first_line: int, mark: yaml.Mark) -> None:
        super().__init__(None, None, f"duplicate key {key!r}", mark)
        self.key = key
        self.first_line = first_line


class StrictLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses duplicate keys and reports bad timestamps at their place."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        """As SafeLoader, after checking that no key of ``node`` itself appears twice (keys
        brought in by a ``<<`` merge may be overridden)."""
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for key_node, _ in node.value:
                if key_node.tag == _MERGE_TAG or not isinstance(key_node, yaml.ScalarNode):
                    continue  # merges are flattened by SafeLoader; unhashable keys it refuses itself
                key = self.construct_object(key_node)
                line = key_node.start_mark.line + 1
                if key in seen:
                    raise DuplicateKeyError(key, seen[key], key_node.start_mark)
                seen[key] = line
        return super().construct_mapping(node, deep=deep)

    def construct_yaml_timestamp(self, node: yaml.ScalarNode):
        """A date such as ``2020-13-45`` is an error at the value's place, not a bare ValueError."""
        try:
            return super().construct_yaml_timestamp(node)
        except (ValueError, OverflowError) as exc:
            raise yaml.constructor.ConstructorError(None, None, f"not a valid date ({exc})",
                                                    node.start_mark) from None


StrictLoader.add_constructor("tag:yaml.org,2002:timestamp", StrictLoader.construct_yaml_timestamp)

_ERROR_WORDS = ((type(None), "an empty file"), (bool, "true/false"), (int, "a number"), (float, "a number"),
                (str, "text"), (list, "a list"))


def _kind(value: Any) -> str:
    """How a parsed top-level value is named in messages ("a list", "a number", ...)."""
    for cls, word in _ERROR_WORDS:
        if isinstance(value, cls):
            return word
    return f"a {type(value).__name__}"


def _one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines included) made one space."""
    return " ".join(str(text).split())


def _load(text: str) -> tuple[Any, yaml.Node | None]:
    """The document of ``text`` and its root node (for the lines of top-level keys)."""
    loader = StrictLoader(text)
    try:
        node = loader.get_single_node()
        return (loader.construct_document(node) if node is not None else None), node
    finally:
        loader.dispose()


def _parse(text: str, source: str, error: type[Exception]) -> tuple[Any, yaml.Node | None]:
    """:func:`parse_yaml`, also returning the root node."""
    try:
        return _load(text)
    except DuplicateKeyError as exc:
        raise error(f"{source}: line {exc.problem_mark.line + 1}: duplicate key {exc.key!r} "
                    f"(first at line {exc.first_line}); a key may appear once per mapping") from None
    except yaml.reader.ReaderError as exc:
        before = text[:exc.position]
        line, column = before.count("\n") + 1, exc.position - (before.rfind("\n") + 1) + 1
        raise error(f"{source}: YAML syntax error at line {line}, column {column}: "
                    f"unacceptable character #x{exc.character:04x} ({exc.reason})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise error(f"{source}: YAML syntax error{where}: {_one_line(problem)}") from None
    except RecursionError:
        raise error(f"{source}: YAML nested too deeply") from None


def parse_yaml(text: str, source: str, error: type[Exception]) -> Any:
    """Parse YAML ``text`` with :class:`StrictLoader`; any problem raises ``error`` with one line
    that starts with ``source`` (a file's display name, or e.g. ``--set gamma=x``)."""
    return _parse(text, source, error)[0]


def read_yaml_text(path: Path, error: type[Exception], display: Callable[[Path], str] = display_path) -> str:
    """The UTF-8 text of ``path`` (a leading byte-order mark dropped), or ``error`` naming the file
    when it is missing, unreadable, binary or not UTF-8."""
    name = display(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise error(f"{name}: file not found") from None
    except OSError as exc:
        raise error(f"{name}: cannot read file ({exc.strerror or type(exc).__name__})") from None
    if b"\x00" in raw:
        raise error(f"{name}: not a text file (it holds NUL bytes)")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise error(f"{name}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at line {line})") from None


def _key_line(node: yaml.MappingNode, key: Any) -> int:
    """The 1-based line of top-level ``key`` in the mapping ``node`` (its own line if not found)."""
    probe = StrictLoader("")
    for key_node, _ in node.value:
        if isinstance(key_node, yaml.ScalarNode) and key_node.tag != _MERGE_TAG:
            if probe.construct_object(key_node) == key:
                return key_node.start_mark.line + 1
    return node.start_mark.line + 1


def read_yaml_mapping(path: Path, error: type[Exception],
                      display: Callable[[Path], str] = display_path) -> dict[str, Any]:
    """Parse one YAML file into a mapping whose keys are names, or raise ``error`` with one line
    naming the file as ``display(path)`` shows it (and the line of a duplicate key, the line and
    column of a syntax error)."""
    name = display(path)
    data, node = _parse(read_yaml_text(path, error, display), name, error)
    if not isinstance(data, dict):
        raise error(f"{name}: the file must hold a mapping (got {_kind(data)})")
    for key in data:
        if not isinstance(key, str):
            raise error(f"{name}: line {_key_line(node, key)}: key {key!r} must be a name")
    return data


def pydantic_error_text(err: dict[str, Any]) -> str:
    """The human part of one pydantic error (our own validators' messages are kept whole)."""
    issue = err.get("ctx", {}).get("error")
    if isinstance(issue, ValueError):
        return getattr(issue, "message", None) or str(issue)
    if err["type"] == "missing":
        return "is required"
    if err["type"] == "extra_forbidden":
        return "unknown field"
    if err["type"] in ("too_long", "too_short"):
        ctx = err["ctx"]
        word, n = ("at most", ctx["max_length"]) if err["type"] == "too_long" else ("at least", ctx["min_length"])
        return f"must have {word} {n} item{'s' if n != 1 else ''} (got {ctx['actual_length']})"
    msg = err["msg"]
    got = repr(err.get("input"))
    if len(got) > 60:
        got = got[:57] + "..."
    return f"{msg[0].lower()}{msg[1:]} (got {got})"
