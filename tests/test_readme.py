"""Every Python block of the README runs as written (in a scratch folder) and does what the README
says it does: the engine walk-through plays a game to its end, prints each decision, the table
and the R18 result, and saves, loads and replays it exactly; the solo / tech-pack block makes the
games it names; the MaskablePPO block trains and picks a legal first action.  A block that prints
must print something; the blocks the checks below know are looked up by a phrase they contain."""
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


def check_solo_and_tech(ns: dict, out: str, folder: Path) -> None:
    """The solo scenario / tech pack block."""
    solo, mixed = ns["solo"], ns["mixed"]
    assert solo.is_solo and solo.n_players == 1 and solo.scenario.id == "first_light"
    assert mixed.n_players == 4 and len(mixed.cards.pack_names) == 2
    assert mixed.cards.hash != solo.cards.hash          # the packs' cards are in the decks
    r = solo.solo_result()
    assert {"score", "stars", "star_points", "final_score", "target", "won"} <= set(r)
    assert r["target"] == 18 and r["final_score"] == r["score"] + r["star_points"]


def check_maskable_ppo(ns: dict, out: str, folder: Path) -> None:
    """The MaskablePPO block: it trains for the steps it names and picks a legal action."""
    m = re.search(r"^first action: (\d+) (.+)$", out, flags=re.M)
    assert m, out
    a = int(m.group(1))
    assert ns["info"]["action_mask"][a] == 1
    assert ns["model"].num_timesteps >= 4_096
    assert m.group(2) == ns["env"].unwrapped.describe_action(a)


def check_teacher_data(ns: dict, out: str, folder: Path) -> None:
    """The teacher-data block: a file of two games, loaded as winners-only imitation rows."""
    from electrify_env.engine.observe import obs_size

    data = ns["data"]
    assert (folder / "teacher.jsonl").is_file() and len(data) > 100
    assert data.observations.shape == (len(data), obs_size(2)) and data.won.all()
    assert data.masks[np.arange(len(data)), data.actions].all()       # every action legal
    assert out.startswith(str(data.observations.shape))


CHECKS = {
    "load_teacher_data(": check_teacher_data,
    "again = Game.replay(": check_engine_walkthrough,
    "solo.solo_result()": check_solo_and_tech,
    "model.learn(total_timesteps=4_096)": check_maskable_ppo,
}


def test_readme_has_python_examples():
    assert len(BLOCKS) >= 2


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
