"""Every Python block of the README runs as written (in a scratch folder) and does what the README
says it does: the environment block makes Electrify-v0 and steps it, the engine walk-through plays
a game to its end, prints each decision, the table and the R18 result, and saves, loads and
replays it exactly, and the shipped-policy block plays a whole game with trained_2p.  A block that
prints must print something; the blocks the checks below know are looked up by a phrase they
contain.  The README stays short (at most 250 lines); the long form is the documentation site
(docs/, tests/test_docs_site.py)."""
import os
import re
from pathlib import Path

import numpy as np
import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def check_engine_walkthrough(ns: dict, out: str, folder: Path) -> None:
    """The "Using the engine" block."""
    from electrify_env import Game

    game = ns["game"]
    assert game.is_terminal and game.n_players == 3 and game.round == 12
    lines = out.splitlines()
    moves = [line for line in lines if " -> " in line]
    assert len(moves) == len(game.history) > 300     # one line per decision: pending -> action
    assert moves[0].startswith("round 0, player 0: Plan")
    assert "game over" in out
    scores, winners = game.scores(), game.winners()
    assert lines[-1] == f"{scores} {winners}"
    assert winners and all(scores[w] == scores.max() for w in winners)
    obs = ns["obs"]
    assert obs.dtype == np.float32 and obs.shape == (Game.OBS_SIZE,) and 0 <= obs.min() and obs.max() <= 1
    assert (folder / "game.json").is_file()
    assert ns["same"].same_as(game) and ns["again"].same_as(game)


def check_env_block(ns: dict, out: str, folder: Path) -> None:
    """The tour's environment block: one legal step of Electrify-v0 against greedy."""
    env, info = ns["env"], ns["info"]
    assert env.spec.id == "Electrify-v0" and env.unwrapped.n_players == 2
    assert not ns["terminated"] and not ns["truncated"] and ns["reward"] == 0
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].any()


def check_policy_block(ns: dict, out: str, folder: Path) -> None:
    """The shipped-policy block: trained_2p plays a whole game and the line names its result."""
    info = ns["info"]
    assert ns["terminated"] and ns["agent"].spec == "trained_2p"
    want = f"{'won' if info['won'] else 'lost'} {info['score']} to {info['best_other']}"
    assert out.strip().splitlines()[-1] == want


CHECKS = {
    'env.step(int(info["action_mask"]': check_env_block,
    "again = Game.replay(": check_engine_walkthrough,
    'make_agent("trained_2p")': check_policy_block,
}


def test_readme_has_python_examples():
    assert len(BLOCKS) >= 2


def test_readme_is_short():
    """The README is the front page: at most 250 lines; the details live in docs/."""
    n = len(README.read_text().splitlines())
    assert n <= 250, f"README.md has {n} lines; move the details into docs/ (at most 250)"


def test_readme_links_resolve():
    """Every relative link of the README names a file of the repository."""
    root = README.parent
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", README.read_text())
    local = [ln for ln in links if "://" not in ln]
    assert local, "the README links into no docs page"
    missing = [ln for ln in local if not (root / ln).exists()]
    assert not missing, f"README.md links to files that do not exist: {missing}"


@pytest.mark.parametrize("phrase", CHECKS)
def test_each_checked_block_is_in_the_readme_once(phrase):
    assert sum(phrase in b for b in BLOCKS) == 1, f"no README block (or several) contains {phrase!r}"


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_readme_block_runs(i, tmp_path, capsys):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    ns = {"__name__": "__readme__"}
    try:
        exec(compile(BLOCKS[i], f"README block {i}", "exec"), ns)
    finally:
        os.chdir(cwd)
    out = capsys.readouterr().out
    if "print(" in BLOCKS[i]:
        assert out.strip(), f"README block {i} prints nothing"
    for phrase, check in CHECKS.items():
        if phrase in BLOCKS[i]:
            check(ns, out, tmp_path)
