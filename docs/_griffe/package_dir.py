"""A griffe extension for setuptools' ``package-dir``: the repository's ``agents/`` and
``training/`` folders are the subpackages ``electrify_env.agents`` and ``electrify_env.training``
(pyproject.toml, ``[tool.setuptools.package-dir]``), which griffe's static finder cannot see,
since it looks for a subpackage inside its parent's folder.  When ``electrify_env`` is loaded,
this extension loads each mapped folder as that subpackage, so ``::: electrify_env.agents.registry``
renders from the source like any other module."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import griffe

ROOT = Path(__file__).resolve().parents[2]


def package_dirs() -> dict[str, Path]:
    """Dotted subpackage name -> its folder, from pyproject.toml."""
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    mapping = data.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    return {name: ROOT / folder for name, folder in mapping.items() if name and "." in name}


class PackageDir(griffe.Extension):
    """Attach each ``package-dir`` subpackage to its loaded parent package."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        for dotted, folder in sorted(package_dirs().items()):
            parent_name, _, name = dotted.rpartition(".")
            if parent_name != pkg.path or name in pkg.members:
                continue
            module = loader._load_module(name, folder / "__init__.py", parent=pkg)
            pkg.set_member(name, module)
