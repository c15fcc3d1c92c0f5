"""docs/gizmos/rules.md, the project's statement of the Gizmos rules, against the code it names.

Every ruling G1-G25 has one section, in order; every ``gz_module.function`` the page names exists
in the Gizmos engine; every test it names (``test_gNN...``) exists in tests/test_gizmos_rulings.py;
every action-id range ``A_*`` of the engine's layout appears on the page.
"""
import importlib
import pkgutil
import re
from pathlib import Path

from electrify_env.gizmos.engine import gz_layout as L

ROOT = Path(__file__).resolve().parents[1]
PAGE = (ROOT / "docs" / "gizmos" / "rules.md").read_text()
RULING_TESTS = (ROOT / "tests" / "test_gizmos_rulings.py").read_text()
N_RULINGS = 25


def test_every_ruling_has_one_section_in_order():
    found = [int(m) for m in re.findall(r"^#### G(\d+) \S", PAGE, flags=re.M)]
    assert found == list(range(1, N_RULINGS + 1))


def test_every_engine_function_the_page_names_exists():
    names = sorted({(mod, fn) for mod, fn in re.findall(r"\b(gz_[a-z_]+)\.([A-Za-z_][A-Za-z0-9_]*)", PAGE)
                    if fn != "py"})   # gz_file.py names a file
    assert len(names) >= N_RULINGS
    missing = [f"{mod}.{fn}" for mod, fn in names
               if not hasattr(importlib.import_module(f"electrify_env.gizmos.engine.{mod}"), fn)]
    assert not missing, f"docs/gizmos/rules.md names what the engine does not define: {missing}"


def test_every_full_name_the_page_names_exists():
    """Every backquoted ``electrify_env.`` dotted name (the shared generator, ``Game.copy``)
    imports (:func:`pkgutil.resolve_name`: a module, then attributes)."""
    names = sorted(set(re.findall(r"`(electrify_env\.[A-Za-z0-9_.]+)`", PAGE)))
    assert "electrify_env.common.engine.rng.rng_seed" in names
    missing = []
    for name in names:
        try:
            pkgutil.resolve_name(name)
        except (ImportError, AttributeError, ValueError):
            missing.append(name)
    assert not missing, f"docs/gizmos/rules.md names what the package does not define: {missing}"


def test_every_test_the_page_names_exists_and_every_ruling_has_one():
    named = {t for t in re.findall(r"\b(test_g\d+[A-Za-z0-9_]*)", PAGE) if not t.endswith("_")}  # `-k test_g13_`
    defined = set(re.findall(r"^def (test_g\d+[A-Za-z0-9_]*)", RULING_TESTS, flags=re.M))
    assert named and not named - defined, f"named but not defined: {sorted(named - defined)}"
    assert {int(re.match(r"test_g(\d+)", t).group(1)) for t in named} == set(range(1, N_RULINGS + 1))


def test_every_action_range_is_on_the_page():
    ranges = [n for n in dir(L) if re.fullmatch(r"A_[A-Z_]+", n) and isinstance(getattr(L, n), int)]
    assert "A_PASS" in ranges and "A_BUILD" in ranges
    assert not [n for n in ranges if f"`{n}`" not in PAGE], "action ranges missing from the page"
