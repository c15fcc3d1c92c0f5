"""Reading YAML config files with one clear error message per problem (shared by the card-set
and scenario loaders): the file reader and the wording of pydantic errors."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[1]


def display_path(path: Path, root: Path = REPO_ROOT) -> str:
    """The path as shown in messages: relative to ``root`` (the repository) when inside it."""
    try:
        return Path(path).resolve().relative_to(root).as_posix()
    except ValueError:
        return str(path)


def read_yaml_mapping(path: Path, error: type[Exception], display=display_path) -> dict[str, Any]:
    """Parse one YAML file into a mapping, or raise ``error`` with a message naming the file
    as ``display(path)`` shows it (and the line and column of a syntax error)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{display(path)}: file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{display(path)}: cannot read file ({exc})") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise error(f"{display(path)}: YAML syntax error{where}: {problem}") from None
    if not isinstance(data, dict):
        got = "an empty file" if data is None else f"a {type(data).__name__}"
        raise error(f"{display(path)}: the file must hold a mapping (got {got})")
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
