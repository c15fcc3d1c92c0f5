"""Every Python block of the README runs as written (in a scratch folder)."""
import os
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_readme_has_python_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_readme_block_runs(i, tmp_path, capsys):
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        exec(compile(BLOCKS[i], f"README block {i}", "exec"), {"__name__": "__readme__"})
    finally:
        os.chdir(cwd)
