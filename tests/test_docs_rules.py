"""docs/rules.md, the project's own statement of the rules, against the code it points to.

Every ruling R1-R26 has one section; every name on its Engine line imports; every file on its
Tests line holds that ruling's tests (``test_rNN_...``) and no test file of the ruling is left
out; every action-id range of ``layout.py`` is described; and nothing in the package, its data,
its docs or the README points at files outside the repository (the rulings once lived in
``../shared``, which users of the package do not have).
"""
import importlib
import re
from pathlib import Path

import pytest

from electrify_env.engine import layout as L

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "docs" / "rules.md"
N_RULINGS = 26
ENGINE_PACKAGE = "electrify_env.engine"

HEADING = re.compile(r"^#{1,6} ", re.M)
RULING_HEADING = re.compile(r"^#### R(\d+) \S")
# what must never be referenced by shipped files: the shared folder beside the repository
OUTSIDE = re.compile(r"\.\./shared|shared/rules|rulings\.md")
# shipped and documented places: the packages of pyproject.toml, their data and docs, the README
SCANNED = ("electrify_env", "agents", "training", "configs", "docs", "README.md", "pyproject.toml")
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".txt", ".toml", ".json", ".cfg", ".ini"}


def _sections() -> dict[int, str]:
    """Ruling number -> text of its section (heading to the next heading of any level)."""
    text = RULES.read_text()
    starts = [m.start() for m in HEADING.finditer(text)] + [len(text)]
    out: dict[int, str] = {}
    for a, b in zip(starts, starts[1:]):
        block = text[a:b]
        m = RULING_HEADING.match(block)
        if m:
            n = int(m.group(1))
            assert n not in out, f"docs/rules.md: two sections for R{n}"
            out[n] = block
    return out


def _pointers(section: str, label: str) -> list[str]:
    """The backquoted names on the ``- **<label>:**`` line of a section."""
    lines = [ln for ln in section.splitlines() if ln.startswith(f"- **{label}:**")]
    assert len(lines) == 1, f"expected one '{label}' line, found {len(lines)}"
    return re.findall(r"`([^`]+)`", lines[0])


def _resolve(name: str):
    """Import ``name``: ``module.attr`` under the engine package, or a full ``electrify_env.`` path
    (the longest importable module prefix, then attributes)."""
    full = name if name.startswith("electrify_env.") else f"{ENGINE_PACKAGE}.{name}"
    parts = full.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(full)


def _ruling_test_files(n: int) -> set[str]:
    """Test files (relative to the repository) that define a ``test_rNN_`` test."""
    pat = re.compile(rf"^\s*def test_r{n:02d}_", re.M)
    return {str(p.relative_to(ROOT)) for p in (ROOT / "tests").rglob("test_*.py")
            if pat.search(p.read_text())}


def test_rules_doc_has_one_section_per_ruling():
    """R1..R26 each have exactly one '#### Rnn title' section, and there is no other ruling."""
    found = sorted(_sections())
    want = list(range(1, N_RULINGS + 1))
    assert found == want, (f"docs/rules.md: sections missing for {[f'R{n}' for n in want if n not in found]}, "
                           f"unknown rulings {[f'R{n}' for n in found if n not in want]}")


@pytest.mark.parametrize("n", range(1, N_RULINGS + 1))
def test_rules_doc_engine_pointers_exist(n):
    """Every name on the Engine line of ruling Rn imports (module, then getattr)."""
    names = _pointers(_sections()[n], "Engine")
    assert names, f"R{n}: the Engine line names nothing"
    missing = []
    for name in names:
        try:
            _resolve(name)
        except (ImportError, AttributeError) as exc:
            missing.append(f"{name} ({exc})")
    assert not missing, f"R{n}: docs/rules.md points to names that do not exist: {missing}"


@pytest.mark.parametrize("n", range(1, N_RULINGS + 1))
def test_rules_doc_test_pointers_match_the_ruling_tests(n):
    """The Tests line of Rn lists exactly the test files that define test_rNN_ tests."""
    listed = set(_pointers(_sections()[n], "Tests"))
    found = _ruling_test_files(n)
    assert found, f"R{n}: no test named test_r{n:02d}_... in tests/"
    assert listed == found, (f"R{n}: docs/rules.md lists {sorted(listed)}, but test_r{n:02d}_ tests are in "
                             f"{sorted(found)}")


def test_rules_doc_describes_every_action_range():
    """Section 2 has a row for every A_* range of layout.py, and the doc names no A_* that does
    not exist."""
    text = RULES.read_text()
    ranges = [name for rows in L.layout_rows().values() for name, *_ in rows if name.startswith("A_")]
    assert ranges, "layout.py has no action ranges"
    rows = set(re.findall(r"^\| `(A_[A-Z_]+)` \|", text, flags=re.M))
    assert rows == set(ranges), (f"action table of docs/rules.md: missing {sorted(set(ranges) - rows)}, "
                                 f"unknown {sorted(rows - set(ranges))}")
    named = set(re.findall(r"`(A_[A-Z_]+)", text))
    unknown = sorted(a for a in named if not hasattr(L, a))
    assert not unknown, f"docs/rules.md names action ranges that layout.py lacks: {unknown}"


def test_rules_doc_frame_types_exist():
    """Every FT_* frame type that docs/rules.md names is a frame type of layout.py."""
    named = set(re.findall(r"`(FT_[A-Z_]+)`", RULES.read_text()))
    assert named, "docs/rules.md names no frame type"
    unknown = sorted(f for f in named if not hasattr(L, f))
    assert not unknown, f"docs/rules.md names frame types that layout.py lacks: {unknown}"


def _scanned_files(entry: str):
    """Text files under ``entry`` (a file or folder of the repository), caches left out."""
    path = ROOT / entry
    if path.is_file():
        yield path
    elif path.is_dir():
        for p in sorted(path.rglob("*")):
            if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts:
                yield p


@pytest.mark.parametrize("entry", SCANNED)
def test_no_shipped_file_points_outside_the_repository(entry):
    """No file of the package, configs, docs or README refers to ../shared or rulings.md: the rules
    a user needs are in docs/rules.md."""
    hits = []
    for path in _scanned_files(entry):
        for i, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{i}: {line.strip()}")
    assert not hits, "point these at docs/rules.md instead:\n" + "\n".join(hits)
