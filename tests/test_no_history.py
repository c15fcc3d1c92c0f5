"""Shipped text describes the software as it is: no development history outside CHANGELOG.md.

Scanned: README.md, the model cards (``policies/*.md``), ``mkdocs.yml``, the configs (YAML and
Markdown), the notebooks, and the docstrings and comments of every Python file of the package
folders, the benchmarks and the tests.  (The docs pages are scanned by ``test_docs_site.py``,
which also refuses dates there.)  A marker is a pointer into git (``git show``), an issue number,
a numbered work period ("the ninth session", "session 12", "the 3rd work period") or a release-history
phrase ("shipped before", "shipped until", "shipped since").  CHANGELOG.md is where history goes,
by version, and is not scanned.
"""
from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_ORDINAL = (r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|"
            r"thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|"
            r"twenty-\w+|thirtieth|\d+(?:st|nd|rd|th))")
MARKERS = re.compile(
    r"\bgit\s+show\b"
    r"|\bissues?\s*#?\d+\b|\bissue-\d+\b"
    rf"|\b{_ORDINAL}[\s-]+(?:session|work\s+period)s?\b"
    r"|\b(?:session|work\s+period)\s+#?\d+\b"
    r"|\bshipped\s+(?:before|until|since)\b",
    re.I)


def _python_text(path: Path) -> str:
    """The docstrings and comments of a Python file (its code is not prose)."""
    src = path.read_text(encoding="utf-8")
    out: list[str] = []
    prev = tokenize.INDENT
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.COMMENT:
            out.append(tok.string)
        elif tok.type == tokenize.STRING and prev in (tokenize.INDENT, tokenize.NEWLINE, tokenize.NL,
                                                       tokenize.DEDENT, tokenize.ENCODING):
            out.append(tok.string)      # a string standing as a statement: a docstring
        if tok.type not in (tokenize.COMMENT,):
            prev = tok.type
    return "\n".join(out)


def _notebook_text(path: Path) -> str:
    """The markdown cells and the code (comments included) of a notebook; outputs are not read."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(c.get("source", "")) for c in nb.get("cells", []))


def _files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "mkdocs.yml"]
    files += sorted((ROOT / "policies").glob("*.md"))
    for ext in ("*.yaml", "*.yml", "*.md"):
        files += sorted((ROOT / "configs").rglob(ext))
    files += sorted((ROOT / "notebooks").glob("*.ipynb"))
    for folder in ("electrify_env", "agents", "training", "benchmarks", "tests", ".ci"):
        files += sorted(p for p in (ROOT / folder).rglob("*.py") if p.name != Path(__file__).name)
    return [f for f in files if f.is_file()]


def _text(path: Path) -> str:
    if path.suffix == ".py":
        return _python_text(path)
    if path.suffix == ".ipynb":
        return _notebook_text(path)
    return path.read_text(encoding="utf-8")


FILES = _files()


def test_the_scan_covers_the_shipped_text():
    names = {p.relative_to(ROOT).as_posix() for p in FILES}
    assert {"README.md", "mkdocs.yml", "electrify_env/game.py", "agents/registry.py",
            "training/selfplay.py", "tests/conftest.py"} <= names
    assert any(n.startswith("configs/") for n in names)


@pytest.mark.parametrize("text", [
    "see `git show 1d66c3f:policies/electrify-2p.pt`", "a seat bias of the greedy, issue 9.",
    "(Issue #12)", "as before the sixteenth session", "since the twenty-second session",
    "the 3rd session's runs", "session 14 measured", "the file shipped before 2026-12-03",
    "the second work period",
])
def test_the_markers_catch_narration(text):
    assert MARKERS.search(text)


@pytest.mark.parametrize("text", [
    "the first stage of the training pipeline", "one issue per line", "a second try is refused",
    "the first player", "shipped policies", "before the first game", "Issues are reported as one line",
])
def test_the_markers_leave_plain_prose_alone(text):
    assert not MARKERS.search(text)


def test_python_docstrings_and_comments_are_read_but_not_code(tmp_path):
    f = tmp_path / "m.py"
    f.write_text('"""Doc."""\nX = "issue 9"  # a comment\ndef g():\n    """Inner doc."""\n')
    text = _python_text(f)
    assert "Doc." in text and "a comment" in text and "Inner doc." in text
    assert "issue 9" not in text


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_shipped_text_does_not_narrate_history(path):
    text = _text(path)
    hits = [(text.count("\n", 0, m.start()) + 1, m.group(0)) for m in MARKERS.finditer(text)]
    assert not hits, f"{path.relative_to(ROOT)}: development history in shipped text: {hits[:5]}"
