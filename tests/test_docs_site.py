"""The documentation site (mkdocs.yml, docs/) builds and says what is true.

* ``mkdocs build --strict`` succeeds (every nav page, every link and anchor, every snippet
  include, every API page rendered from the docstrings); skipped, with the reason, where MkDocs,
  Material or mkdocstrings is not installed (``pip install -e ".[docs]"``).
* Without MkDocs too: every nav page exists, every relative link and snippet include of the
  Markdown resolves, every repository path the pages name exists, the action-space table is the
  one of ``electrify_env/engine/layout.py``, and no page narrates the project's history.
* Every Python block of the pages runs as written (in a scratch folder); the blocks the checks
  below know are looked up by a phrase they contain, and must do what the page says.
"""
from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
CONFIG = ROOT / "mkdocs.yml"
# the pages of the site (docs/ less what mkdocs.yml excludes: the griffe extensions, the snippets)
PAGES = sorted(p for p in DOCS.rglob("*.md") if not p.relative_to(DOCS).parts[0].startswith("_"))
SNIPPETS = sorted((DOCS / "_snippets").glob("*.md"))
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
INCLUDE = re.compile(r'^--8<-- "([^"]+)"\s*$', re.M)
# history does not belong in product text (CHANGELOG.md holds it)
NARRATION = re.compile(
    r"\b(?:\w+(?:st|nd|rd|th)|twenty-\w+) session\b|\bgit show\b|\bissues? ?-?\d+\b|\bissue-\d+\b"
    r"|\bshipped (?:before|until|since)\b|\b20\d\d-\d\d-\d\d\b", re.I)


def _config() -> dict:
    """mkdocs.yml, read as plain YAML (it uses no Python tags)."""
    return yaml.safe_load(CONFIG.read_text())


def _nav_files(nav) -> list[str]:
    """Every page file the nav names, in order."""
    out: list[str] = []
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        out.extend(_nav_files(value) if isinstance(value, list) else [value])
    return out


def _python_blocks(page: Path) -> list[str]:
    """The ```python blocks of a page, snippet includes expanded."""
    text = INCLUDE.sub(lambda m: (ROOT / m.group(1)).read_text(), page.read_text())
    return re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)


BLOCKS = [(p.relative_to(DOCS).as_posix(), i, b) for p in PAGES for i, b in enumerate(_python_blocks(p))]


# ---- the build ---------------------------------------------------------------------------------
def test_mkdocs_build_strict(tmp_path):
    """``mkdocs build --strict`` builds every page without a warning."""
    missing = [m for m in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")
               if importlib.util.find_spec(m.split(".")[0]) is None
               or importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"the docs extra is not installed ({', '.join(missing)} missing): "
                    f"pip install -e \".[docs]\"")
    site = tmp_path / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(CONFIG),
                          "-d", str(site)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env=env)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-6000:]
    for page in _nav_files(_config()["nav"]):
        html = site / (page[:-3] + "/index.html" if page != "index.md" else "index.html")
        assert html.is_file(), f"{page}: no {html.relative_to(site)} in the built site"
    assert "electrify_env.agents.registry" in (site / "api" / "registry" / "index.html").read_text()


# ---- checks that need no MkDocs ----------------------------------------------------------------
def test_nav_names_every_page_once_and_each_exists():
    files = _nav_files(_config()["nav"])
    assert len(files) == len(set(files)), "a page is twice in the nav"
    missing = [f for f in files if not (DOCS / f).is_file()]
    assert not missing, f"mkdocs.yml nav names pages that do not exist: {missing}"
    left_out = sorted(p.relative_to(DOCS).as_posix() for p in PAGES
                      if p.relative_to(DOCS).as_posix() not in files)
    assert not left_out, f"pages of docs/ that the nav leaves out: {left_out}"


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(DOCS).as_posix() for p in PAGES])
def test_relative_links_and_includes_resolve(page):
    text = page.read_text()
    bad = []
    for m in LINK.finditer(text):
        target = (m.group(1) or m.group(2)).split("#", 1)[0]
        if not target or "://" in target or target.startswith("mailto:"):
            continue
        if not (page.parent / target).exists():
            bad.append(target)
    assert not bad, f"{page.relative_to(ROOT)} links to files that do not exist: {bad}"
    missing = [inc for inc in INCLUDE.findall(text) if not (ROOT / inc).is_file()]
    assert not missing, f"{page.relative_to(ROOT)} includes files that do not exist: {missing}"


@pytest.mark.parametrize("page", PAGES + SNIPPETS, ids=[p.relative_to(DOCS).as_posix() for p in PAGES + SNIPPETS])
def test_named_repository_paths_exist(page):
    """A file path in backquotes (``training/selfplay.py``, ``configs/electrify-2p.yaml``) names a
    file of the repository (paths under ``electrify_env/`` may drop that prefix)."""
    bad = []
    for tok in re.findall(r"`([^`\s]+)`", page.read_text()):
        if "/" not in tok or "*" in tok or "{" in tok or tok.startswith(("runs/", "$", "~", "http")):
            continue
        if not re.fullmatch(r"[\w./-]+\.(?:py|yaml|yml|md|ipynb|toml|png)", tok):
            continue
        if not ((ROOT / tok).exists() or (ROOT / "electrify_env" / tok).exists()):
            bad.append(tok)
    assert not bad, f"{page.relative_to(ROOT)} names files that do not exist: {bad}"


def test_action_table_is_the_layout():
    """The action-space table every env page includes lists the ranges of layout.py: ids, names,
    counts, in order, covering 0..N_ACTIONS-1."""
    from electrify_env.engine import layout as L

    text = (DOCS / "_snippets" / "actions.md").read_text()
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? \| `(A_[A-Z_]+)` \| (\d+) \|", text, flags=re.M)
    got = [(name, int(a), int(n)) for a, b, name, n in rows]
    for a, b, name, n in rows:
        assert int(b or a) - int(a) + 1 == int(n), f"{name}: ids {a}-{b} are not {n} ids"
    want = [(name, start, n) for name, start, n, _ in L.layout_rows()["action ids"] if name.startswith("A_")]
    assert got == want
    assert sum(n for _, _, n in got) == L.N_ACTIONS


def test_env_pages_include_the_action_table():
    for page in ("electrify-v0.md", "electrify-solo-v0.md", "electrify-aec.md", "vector.md"):
        assert '--8<-- "docs/_snippets/actions.md"' in (DOCS / "envs" / page).read_text(), page


def test_playing_levels_table_is_levels_yaml():
    """The difficulty table of Playing is configs/play/levels.yaml: each level's 2-player agent,
    its ordinal and win rate in the measured round robin, and the round robin's command."""
    data = yaml.safe_load((ROOT / "configs" / "play" / "levels.yaml").read_text())
    text = (DOCS / "playing.md").read_text()
    rows = re.findall(r"^\| (\w+) \| `([^`]+)` \| (-?[\d.]+) \| ([\d.]+)% \|$", text, flags=re.M)
    ratings = data["measured"][2]["ratings"]
    want = [(lv["name"], lv["agents"][2], f"{ratings[lv['agents'][2]]['ordinal']:.2f}",
             f"{100 * ratings[lv['agents'][2]]['win_rate']:.1f}") for lv in data["levels"] if 2 in lv["agents"]]
    assert rows == want
    assert data["measured"][2]["command"] in text


@pytest.mark.parametrize("page", PAGES + SNIPPETS, ids=[p.relative_to(DOCS).as_posix() for p in PAGES + SNIPPETS])
def test_pages_do_not_narrate_history(page):
    hits = [f"{i}: {line.strip()}" for i, line in enumerate(page.read_text().splitlines(), 1)
            if NARRATION.search(line)]
    assert not hits, f"{page.relative_to(ROOT)}: history belongs in CHANGELOG.md:\n" + "\n".join(hits)


def test_snippet_base_path_and_checks():
    """Snippets resolve from the repository root and a missing file fails the build."""
    cfg = _config()
    snippets = next(e["pymdownx.snippets"] for e in cfg["markdown_extensions"]
                    if isinstance(e, dict) and "pymdownx.snippets" in e)
    assert snippets == {"base_path": ["."], "check_paths": True}
    assert cfg.get("strict") is True


# ---- the code blocks ---------------------------------------------------------------------------
def check_env_loop(ns, out, folder):
    """Getting started, "Make an environment": a whole game of Electrify-v0 against greedy."""
    info = ns["info"]
    assert ns["terminated"] and {"score", "best_other", "won"} <= set(info)
    assert out.split() == [str(ns["reward"]), str(info["score"]), str(info["best_other"]), str(info["won"])]


def check_train(ns, out, folder):
    """Getting started, "Train a policy": the run writes the policy it names, which loads."""
    from electrify_env.agents import make_agent

    policy = Path(ns["summary"]["policy"])
    assert (folder / policy).is_file() and out.strip().splitlines()[-1] == str(policy)
    assert make_agent(f"net:path={folder / policy}").meta["n_players"] == 2


def check_policy_game(ns, out, folder):
    """Getting started, "Play a shipped policy": trained_2p plays a whole game."""
    info = ns["info"]
    assert ns["terminated"]
    assert out.strip() == f"{'won' if info['won'] else 'lost'} {info['score']} to {info['best_other']}"


def check_solo_and_tech(ns, out, folder):
    """Getting started, "The engine without an env": a solo game to its end, a tech-pack game."""
    solo, mixed = ns["solo"], ns["mixed"]
    assert solo.is_solo and solo.is_terminal and solo.scenario.id == "first_light"
    assert mixed.n_players == 4 and len(mixed.cards.pack_names) == 2
    assert mixed.cards.hash != solo.cards.hash
    r = solo.solo_result()
    assert {"score", "stars", "star_points", "final_score", "target", "won"} <= set(r)
    assert r["target"] == 18 and r["final_score"] == r["score"] + r["star_points"]
    assert out.strip() == str(r)


def check_maskable_ppo(ns, out, folder):
    """Training: MaskablePPO trains for the steps it names and picks a legal action."""
    m = re.search(r"^first action: (\d+) (.+)$", out, flags=re.M)
    assert m, out
    a = int(m.group(1))
    assert ns["info"]["action_mask"][a] == 1
    assert ns["model"].num_timesteps >= 4_096
    assert m.group(2) == ns["env"].unwrapped.describe_action(a)


def check_teacher_data(ns, out, folder):
    """Scaling out on Ray: a file of two games, loaded as winners-only imitation rows."""
    from electrify_env.engine.observe import obs_size

    data = ns["data"]
    assert (folder / "teacher.jsonl").is_file() and len(data) > 100
    assert data.observations.shape == (len(data), obs_size(2)) and data.won.all()
    assert data.masks[np.arange(len(data)), data.actions].all()
    assert out.startswith(str(data.observations.shape))


def check_aec_loop(ns, out, folder):
    """The AEC page: random legal play to the end of a 3-player game."""
    env = ns["env"]
    assert not env.agents and env.unwrapped.n_players == 3


CHECKS = {
    'print(reward, info["score"], info["best_other"], info["won"])': check_env_loop,
    "summary = train(cfg)": check_train,
    "agent.act_in(env.unwrapped.snapshot())": check_policy_game,
    "solo.solo_result()": check_solo_and_tech,
    "model.learn(total_timesteps=4_096)": check_maskable_ppo,
    "load_teacher_data(": check_teacher_data,
    "for agent in env.agent_iter():": check_aec_loop,
}


@pytest.mark.parametrize("phrase", CHECKS)
def test_each_checked_block_is_in_the_docs_once(phrase):
    assert sum(phrase in b for _, _, b in BLOCKS) == 1, f"no docs block (or several) contains {phrase!r}"


@pytest.mark.parametrize("page,i,block", BLOCKS, ids=[f"{p}[{i}]" for p, i, _ in BLOCKS])
def test_docs_block_runs(page, i, block, tmp_path, capsys):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    ns = {"__name__": "__docs__"}
    try:
        exec(compile(block, f"docs/{page} block {i}", "exec"), ns)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    if "print(" in block:
        assert out.strip(), f"docs/{page} block {i} prints nothing"
    for phrase, check in CHECKS.items():
        if phrase in block:
            check(ns, out, tmp_path)


# ---- the griffe extensions of the API reference ------------------------------------------------
def _docstrings_extension():
    spec = importlib.util.spec_from_file_location("docs_griffe_docstrings", DOCS / "_griffe" / "docstrings.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_sphinx_roles_become_code_spans():
    d = _docstrings_extension()
    assert d.plain_roles("see :class:`~electrify_env.Game` and :func:`electrify_env.agent.resolve_agent`") == \
        "see `Game` and `electrify_env.agent.resolve_agent`"
    assert d.plain_roles("no role: `x`") == "no role: `x`"


def test_interactive_examples_are_fenced():
    d = _docstrings_extension()
    text = "Intro.\n\n    >>> a = f(1)\n    2\n    >>> for x in y:\n    ...     g(x)\n\nAfter."
    assert d.fence_doctests(text) == ("Intro.\n\n    ```pycon\n    >>> a = f(1)\n    2\n    >>> for x in y:\n"
                                      "    ...     g(x)\n    ```\n\nAfter.")
