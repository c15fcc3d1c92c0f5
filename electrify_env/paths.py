"""Where the shipped data lives: the one resolver of ``configs/`` and ``policies/``.

The data the code reads (card sets and tech packs ``configs/cards/``, solo scenarios
``configs/scenarios/``, the greedy weights ``configs/agents/greedy.yaml``, the training configs
``configs/*.yaml`` and the shipped policies ``policies/``) sits in two top-level folders of the
repository.  Two layouts reach it:

* a source checkout or an editable install (``pip install -e .``): :data:`DATA_ROOT` is the
  repository root (the folder above this package, recognised by its ``configs/cards/``), so
  edits to the repository's files take effect at once;
* a wheel (``pip install .``): the build (``setup.py``) copies both folders into the package as
  ``electrify_env/_data/configs`` and ``electrify_env/_data/policies``, and :data:`DATA_ROOT` is
  ``electrify_env/_data``.

The layout below :data:`DATA_ROOT` is the same in both, so messages name files the same way
(``configs/cards/base.yaml``).  This module imports nothing of the project: ``setup.py`` reads
:data:`DATA_SUBDIR` and :data:`SHIPPED_DATA` from it at build time without importing the package.
"""
from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
"""This package's folder (``electrify_env/``)."""
SOURCE_ROOT = PACKAGE_DIR.parent
"""The folder that holds the package: the repository root in a source checkout."""
DATA_SUBDIR = "_data"
"""Name of the data folder inside the package of a built wheel (never present in the source tree)."""
SHIPPED_DATA: dict[str, tuple[str, ...]] = {
    "configs": ("**/*.yaml", "**/*.md"),
    "policies": ("electrify-*.pt", "electrify-*.meta.json", "electrify-*.md", "README.md"),
}
"""The top-level folders a wheel ships, each with the glob patterns of its files that are shipped."""


def is_source_checkout(source_root: Path = SOURCE_ROOT) -> bool:
    """True when ``source_root`` is a repository checkout (it holds ``configs/cards/``), as in a
    source tree or an editable install; False for an installed copy (``site-packages``)."""
    return (Path(source_root) / "configs" / "cards").is_dir()


def data_root(source_root: Path = SOURCE_ROOT, package_dir: Path = PACKAGE_DIR) -> Path:
    """The folder holding ``configs/`` and ``policies/``: ``source_root`` in a source checkout,
    else the copy the build put into the package (``package_dir / DATA_SUBDIR``)."""
    if is_source_checkout(source_root):
        return Path(source_root)
    return Path(package_dir) / DATA_SUBDIR


DATA_ROOT = data_root()
"""The folder holding ``configs/`` and ``policies/`` for this copy of the package."""
CONFIGS_DIR = DATA_ROOT / "configs"
"""Card sets, scenarios, agent weights and training configs."""
POLICIES_DIR = DATA_ROOT / "policies"
"""The shipped trained policies (``electrify-*.pt`` with their ``.meta.json``)."""
