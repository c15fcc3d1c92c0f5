"""The notebooks' code cells run as written (executed in order in one namespace)."""
import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_code_cells_run(path, capsys):
    nb = json.loads(path.read_text())
    ns: dict = {}
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}", "exec"), ns)
    assert capsys.readouterr().out


def test_there_is_a_notebook():
    assert NOTEBOOKS
