"""The README's soak claims, re-checked (``python -m pytest -m slow tests/test_soak_slow.py``).

Every row of the README's "Soak runs" table is run as written (the ``electrify soak`` command,
in-process), and must report the table's games and decisions with no invariant broken: 165,000
games in all (2-4 players, the eight solo scenarios, both tech packs), every invariant checked
after every decision.  About a minute on 2 cores (57 s measured, other work running).
"""
import re
import shlex
from pathlib import Path

import pytest

from electrify_env.cli import main

README = Path(__file__).resolve().parents[1] / "README.md"


def soak_rows() -> list[tuple[str, int, int]]:
    """(command, games, decisions) of each row of the README's soak table."""
    text = README.read_text()
    section = text.split("## Soak runs", 1)[1].split("\n## ", 1)[0]
    rows = []
    for cmd, games, decisions in re.findall(
            r"^\| `(electrify soak [^`]*)` \| ([\d,]+)[^|]*\| ([\d,]+) \| no invariant broken \|$",
            section, flags=re.M):
        rows.append((cmd, int(games.replace(",", "")), int(decisions.replace(",", ""))))
    return rows


ROWS = soak_rows()


def test_the_readme_has_soak_claims():
    assert len(ROWS) >= 6
    assert any("--solo" in c for c, _, _ in ROWS) and any("--tech" in c for c, _, _ in ROWS)
    assert sum(g for _, g, _ in ROWS) >= 100_000


@pytest.mark.slow
@pytest.mark.parametrize("cmd,games,decisions", ROWS, ids=[f"row{k}" for k in range(len(ROWS))])
def test_readme_soak_row(cmd, games, decisions, capsys):
    argv = shlex.split(cmd)[1:]
    code = main(argv)
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    m = re.search(r"^(\d+) games, (\d+) decisions, .*: no invariant broken$", out, flags=re.M)
    assert m, out[-2000:]
    assert (int(m.group(1)), int(m.group(2))) == (games, decisions), (
        f"{cmd}: the README claims {games} games / {decisions} decisions")
