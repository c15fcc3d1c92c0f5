"""Which optional extras each ``electrify`` command needs, and the one-line message that names
the missing one before the command does any work.

The check looks the modules up with :func:`importlib.util.find_spec` (nothing heavy is
imported) and the install command it prints fits how this package was installed: from a source
checkout (an editable install) ``pip install -e ".[arena]"``, from a wheel or PyPI
``pip install "electrify-env[arena]"``.

    >>> from electrify_env.extras import missing_extra
    >>> missing_extra("demo") is None     # the core commands need no extra
    True
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

__all__ = ["Need", "COMMAND_NEEDS", "RAY_NEED", "RLLIB_NEED", "editable_install", "install_command", "missing_extra",
           "needs_for"]

DIST_NAME = "electrify-env"


@dataclass(frozen=True)
class Need:
    """The top-level modules a command imports and the extras (of ``pyproject.toml``) that
    install them."""

    modules: tuple[str, ...]
    extras: tuple[str, ...]


_TRAIN = Need(("torch", "gymnasium", "matplotlib"), ("train",))
_ARENA = Need(("openskill", "matplotlib"), ("arena",))
RAY_NEED = Need(("ray",), ("ray",))
"""``--backend ray`` (arena, balance, teacher-data)."""
RLLIB_NEED = Need(("ray", "torch", "gymnasium", "pettingzoo"), ("ray",))
"""``train --backend rllib``: multi-agent PPO on Ray RLlib."""

COMMAND_NEEDS: dict[str, Need] = {
    "demo": Need((), ()),
    "cards": Need((), ()),
    "soak": Need((), ()),
    "scenarios": Need((), ()),
    "layout": Need((), ()),
    "replay": Need((), ()),
    "agents": Need((), ()),
    "teacher-data": Need((), ()),
    "arena": _ARENA,
    "balance": _ARENA,
    "ladder": _ARENA,
    # the terminal game's default opponent is the shipped trained policy (a torch network)
    "play": Need(("torch",), ("web",)),
    "serve": Need(("starlette", "uvicorn", "PIL", "torch"), ("web",)),
    "train": _TRAIN,
    "exploit": Need(("torch", "gymnasium", "matplotlib", "openskill"), ("train", "arena")),
}
"""Every ``electrify`` sub-command and what it needs (an empty Need: only the core dependencies)."""


def needs_for(command: str, backend: str | None = None) -> list[Need]:
    """The needs of ``command`` run with ``backend`` (``ray`` or ``rllib`` add Ray's)."""
    if backend == "rllib":          # RLlib training runs none of electrify's own trainer
        return [RLLIB_NEED]
    needs = [COMMAND_NEEDS.get(command, Need((), ()))]
    if backend == "ray":
        needs.append(RAY_NEED)
    return needs


def editable_install() -> bool:
    """True when the package runs from a source checkout (an editable or development install,
    or not installed at all), False when it was installed from a wheel or PyPI."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution(DIST_NAME)
    except PackageNotFoundError:
        return True
    text = dist.read_text("direct_url.json")
    if text:
        try:
            info = json.loads(text)
        except ValueError:
            info = {}
        if isinstance(info, dict) and "dir_info" in info:
            return bool(info["dir_info"].get("editable", False))
        return False        # a URL or VCS install: a built wheel
    # no direct_url.json: an index install lives in site-packages, a legacy develop install does not
    here = Path(__file__).resolve().parts
    return "site-packages" not in here and "dist-packages" not in here


def install_command(extras: tuple[str, ...] | list[str], editable: bool | None = None) -> str:
    """The pip command that installs ``extras``, in the form that fits this installation."""
    names = ",".join(extras)
    if editable is None:
        editable = editable_install()
    return f'pip install -e ".[{names}]"' if editable else f'pip install "{DIST_NAME}[{names}]"'


def missing_extra(command: str, backend: str | None = None) -> str | None:
    """None when every module ``command`` needs is importable, else the one-line message naming
    the missing modules and the install command of their extra."""
    for need in needs_for(command, backend):
        missing = [m for m in need.modules if find_spec(m) is None]
        if missing:
            names = ", ".join("pillow" if m == "PIL" else m for m in missing)
            return (f"electrify {command}: needs {names}, which {'is' if len(missing) == 1 else 'are'} "
                    f"not installed; install it with: {install_command(need.extras)}")
    return None
