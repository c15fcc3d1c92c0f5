"""Build hook only (the metadata lives in pyproject.toml): put the shipped data into the wheel.

``configs/`` and ``policies/`` stay top-level folders of the repository, outside every package.
A wheel (``pip install .``, ``pip wheel .``) gets a copy of them inside the package, as
``electrify_env/_data/configs`` and ``electrify_env/_data/policies``, where
``electrify_env.paths`` finds them when no repository is around.  The files copied are those of
``electrify_env.paths.SHIPPED_DATA`` (read from that file without importing the package).  An
editable install (``pip install -e .``) copies nothing: it keeps reading the repository's folders.
"""
from __future__ import annotations

import runpy
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.errors import SetupError

ROOT = Path(__file__).resolve().parent
PACKAGE = "electrify_env"
_PATHS = runpy.run_path(str(ROOT / PACKAGE / "paths.py"))
DATA_SUBDIR: str = _PATHS["DATA_SUBDIR"]
SHIPPED_DATA: dict[str, tuple[str, ...]] = _PATHS["SHIPPED_DATA"]


def shipped_files(root: Path = ROOT) -> list[Path]:
    """The data files a wheel ships (relative to ``root``), sorted; SetupError if a shipped
    folder is missing or matches no file (a wheel without its data would install but not run)."""
    files: set[Path] = set()
    for folder, patterns in SHIPPED_DATA.items():
        found = {p for pattern in patterns for p in (root / folder).glob(pattern) if p.is_file()}
        if not found:
            raise SetupError(f"{root / folder}: no files matching {', '.join(patterns)}; the wheel "
                             f"must ship the {folder}/ folder (build from a repository checkout "
                             "or an sdist made with MANIFEST.in)")
        files |= {p.relative_to(root) for p in found}
    return sorted(files)


class BuildPyWithData(build_py):
    """``build_py`` that also copies :func:`shipped_files` to ``<build_lib>/electrify_env/_data/``
    (not in editable mode)."""

    def _data_targets(self) -> list[tuple[Path, Path]]:
        """``(source, destination)`` of every shipped data file."""
        target = Path(self.build_lib, PACKAGE, DATA_SUBDIR)
        return [(ROOT / rel, target / rel) for rel in shipped_files()]

    def run(self) -> None:
        """Build the packages as usual, then replace the data copy in the build folder (a stale
        copy from an earlier build never survives)."""
        super().run()
        if self.editable_mode:
            return
        shutil.rmtree(Path(self.build_lib, PACKAGE, DATA_SUBDIR), ignore_errors=True)
        for src, dest in self._data_targets():
            self.mkpath(str(dest.parent))
            self.copy_file(str(src), str(dest))

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:  # type: ignore[override]
        """The usual outputs plus the data copy (``install --record`` lists them)."""
        outputs = super().get_outputs(include_bytecode)
        if self.editable_mode:
            return outputs
        return outputs + [str(dest) for _, dest in self._data_targets()]


if __name__ == "__main__":  # as setuptools runs it; importing this file (tests) builds nothing
    setup(cmdclass={"build_py": BuildPyWithData})
