"""Reading YAML config files with one clear error message per problem (shared by the card-set
and scenario loaders)."""
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
