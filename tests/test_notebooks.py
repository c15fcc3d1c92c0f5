"""The notebooks' code cells run as written (executed in order in one namespace; IPython magic lines
such as ``%matplotlib inline`` are Jupyter's and are skipped), and every cell shows what its text says
it shows (checked per notebook where the test knows the notebook; any other notebook: every cell that
prints prints something). The committed notebooks carry their outputs: every figure a cell shows is
stored as a PNG, no cell stored an error, and each file stays small enough to read on GitHub."""
import ast
import json
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def check_quickstart(outs: list[str], ns: dict) -> None:
    """quickstart.ipynb: the five code cells, in order."""
    from electrify_env import Game

    assert len(outs) == 5
    # 1: the pending decision of a new 3-player game and one line per legal action
    first = outs[0].splitlines()
    start = Game(n_players=3, seed=42)
    legal = start.legal_actions()
    assert first[0] == start.pending() and first[0].startswith("round 0, player 0: Plan")
    assert first[1:] == [f"{a} {start.describe_action(int(a))}" for a in legal]
    assert sum(line.split(" ", 1)[1].startswith("plan: charge") for line in first[1:]) == 5
    # 2: forty random moves later, the table without hands
    game = ns["game"]
    assert len(game.history) == 40 and outs[1] == game.render(hands=False) + "\n"
    assert "round" in outs[1] and not game.is_terminal
    # 3: the observation's shape and its first ten named non-zero entries, all in (0, 1]
    m = re.match(r"^\((\d+),\) (\[.*\])$", outs[2].strip(), flags=re.S)
    assert m and int(m.group(1)) == Game.OBS_SIZE
    pairs = ast.literal_eval(m.group(2))
    names = set(Game.feature_names())
    assert len(pairs) == 10 and all(n in names and 0 < v <= 1 for n, v in pairs)
    # 4: save / load and replay reproduce the game
    assert outs[3] == "True True\n"
    # 5: a finished solo game with both tech packs, and its result
    solo = ns["solo"]
    assert solo.is_terminal and len(solo.cards.pack_names) == 2
    r = ast.literal_eval(outs[4].strip())
    assert r == solo.solo_result() and r["scenario"] == "first_light"
    assert r["final_score"] == r["score"] + r["star_points"] and r["won"] == (r["final_score"] >= r["target"])
    assert isinstance(ns["obs"], np.ndarray)


def check_balance(outs: list[str], ns: dict) -> None:
    """balance.ipynb: a small balance report (8 games), its text, every plot and its files."""
    from matplotlib.figure import Figure

    from electrify_env.agents.balance import PLOT_FILES, format_report

    report, summary = ns["report"], ns["summary"]
    assert len(outs) == 8 and summary["games"] == len(report["records"]) == 8
    # 1: the report's text tables, as format_report writes them
    assert outs[0] == format_report(summary) + "\n"
    assert "research_rush vs greedy" in outs[0] and "points by source" in outs[0]
    # 2-7: one figure per plot (they render inline in Jupyter; here: they have axes with data)
    figs = ns["figs"]
    assert set(figs) == {p[:-4] for p in PLOT_FILES}
    assert all(isinstance(f, Figure) and f.axes and f.axes[0].has_data() for f in figs.values())
    assert all(o == "" for o in outs[1:7])
    # 8: the files written, each there and not empty
    names = outs[7].split()
    assert names == sorted(p.name for p in report["files"]) and set(PLOT_FILES) <= set(names)
    assert {"results.json", "points.csv", "seats.csv", "cards.csv", "games.jsonl"} <= set(names)
    assert all(p.stat().st_size > 0 for p in report["files"])
    shutil.rmtree(ns["out"])   # the notebook wrote into a fresh temporary folder


def check_training(outs: list[str], ns: dict) -> None:
    """training.ipynb: a tiny training run (imitation then PPO), its curve, an arena against
    greedy and random, and the saved policy as an agent."""
    from matplotlib.figure import Figure

    from electrify_env.agents.arena import format_table
    from electrify_env.agents.net import load_policy

    cfg, summary, out = ns["cfg"], ns["summary"], ns["out"]
    assert len(outs) == 4
    # 1: the trainer's log (baseline, one line per evaluation, done) and the summary line
    lines = outs[0].splitlines()
    assert lines[0].startswith("[baseline] greedy in the learner's seat: win_rate")
    evals = [line for line in lines if line.startswith("[eval]")]
    assert len(evals) == len(summary["curve"]) >= 3
    assert evals[0].startswith("[eval] imitation") and evals[-1].startswith("[eval] rl")
    assert lines[-1] == (f"{summary['decisions']:,} decisions trained, {summary['env_steps']:,} env steps, "
                         f"{summary['wall_seconds']:.0f} s")
    last = summary["curve"][-1]
    assert last["rl_steps"] >= cfg.total_steps and last["imitation"] >= cfg.bc_steps
    # 2: the curve, read back from curve.json: win rate and mean points against decisions
    fig = ns["fig"]
    assert isinstance(fig, Figure) and len(fig.axes) == 2 and outs[1] == ""
    xs = list(fig.axes[0].lines[0].get_xdata())
    assert xs == [p["decisions"] for p in summary["curve"]] == [p["decisions"] for p in ns["points"]]
    assert list(fig.axes[0].lines[0].get_ydata()) == [p["win_rate"] for p in summary["curve"]]
    # 3: the arena table: the policy against greedy and random, 20 games per pairing
    arena = ns["arena"]["summary"]
    assert outs[2] == format_table(arena) + "\n"
    agents = {r["agent"]: r for r in arena["agents"]}
    assert set(agents) == {f"net:path={ns['policy']}", "greedy", "random"}
    assert all(r["games"] == 40 for r in agents.values()) and len(arena["pairings"]) == 3
    assert sum(r["wins"] for r in agents.values()) == 60
    # 4: the policy's metadata and the run's files
    meta = ast.literal_eval(outs[3].splitlines()[0])
    assert meta["env_id"] == "Electrify-v0" and meta["n_players"] == 2
    net, full = load_policy(ns["policy"], n_players=2)
    assert meta == {k: full[k] for k in meta} and net.hidden == cfg.hidden
    assert ast.literal_eval(outs[3].splitlines()[1]) == ["checkpoint.pt", "curve.json", "curve.png",
                                                         "policy.meta.json", "policy.pt"]
    shutil.rmtree(out)   # the notebook trained into a fresh temporary folder


def _python_source(cell: dict) -> str:
    """A code cell's source without its IPython magic lines (``%...``), which plain Python cannot run."""
    return "".join(line for line in cell["source"] if not line.lstrip().startswith("%"))


# the figures each known notebook shows, one PNG output per figure
FIGURES = {"quickstart": 0, "balance": 6, "training": 1}
MAX_BYTES = 500_000


CHECKS = {"quickstart": check_quickstart, "balance": check_balance, "training": check_training}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_code_cells_run(path, capsys):
    nb = json.loads(path.read_text())
    ns: dict = {}
    outs = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            src = _python_source(cell)
            exec(compile(src, f"{path.name}", "exec"), ns)
            outs.append(capsys.readouterr().out)
            if "print(" in src:
                assert outs[-1].strip(), f"{path.name}: a cell that prints printed nothing:\n{src}"
    assert any(outs)
    if path.stem in CHECKS:
        CHECKS[path.stem](outs, ns)


def test_there_is_a_notebook():
    assert NOTEBOOKS
    assert {p.stem for p in NOTEBOOKS} >= set(CHECKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_committed_outputs_show_the_plots(path):
    """Every code cell was executed (nbconvert --execute), each figure is a PNG rather than the text
    ``<Figure size ...>``, nothing failed, and the file is small."""
    nb = json.loads(path.read_text())
    code = [c for c in nb["cells"] if c["cell_type"] == "code"]
    assert all(c["outputs"] for c in code), f"{path.name}: a code cell has no stored output (execute it)"
    outputs = [o for c in code for o in c["outputs"]]
    assert not [o for o in outputs if o["output_type"] == "error"], f"{path.name}: a cell stored an error"
    pngs = [o for o in outputs if "image/png" in o.get("data", {})]
    shown_as_text = [o for o in outputs if "image/png" not in o.get("data", {})
                     and "<Figure size" in "".join(o.get("data", {}).get("text/plain", ""))]
    assert not shown_as_text, f"{path.name}: a figure was stored as text, not as an image"
    if path.stem in FIGURES:
        assert len(pngs) == FIGURES[path.stem]
    assert path.stat().st_size <= MAX_BYTES, f"{path.name}: {path.stat().st_size:,} bytes"
