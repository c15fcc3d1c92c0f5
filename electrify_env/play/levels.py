"""Opponents by difficulty: named levels (Beginner ... Expert) mapped to registered agents by their
measured strength, read from ``configs/play/levels.yaml``.

The file is data: each level names, per player count, the agent spec it plays, and the file
holds the arena run that measured those agents (its command, the machine, and each agent's
openskill rating and win rate).  Levels are ordered from the weakest to the strongest by that
rating, so a stronger shipped policy slots in by editing the file after a new arena run.

    >>> from electrify_env.play.levels import load_levels
    >>> [lv.name for lv in load_levels().levels]
    ['Beginner', 'Intermediate', 'Strong', 'Expert']
    >>> load_levels().spec("Expert", 2)
    'trained_2p'
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..paths import CONFIGS_DIR
from ..yamlio import display_path, pydantic_error_text, read_yaml_mapping

__all__ = ["LEVELS_FILE", "Level", "Levels", "LevelsError", "load_levels"]

LEVELS_FILE = CONFIGS_DIR / "play" / "levels.yaml"


class LevelsError(ValueError):
    """A levels file that cannot be used; the message names the file and the field."""


class Rating(BaseModel):
    """One agent's result in the measuring arena run."""

    model_config = ConfigDict(extra="forbid")
    mu: float
    sigma: float = Field(gt=0)
    ordinal: float
    win_rate: float = Field(ge=0, le=1)
    games: int = Field(gt=0)


class Measurement(BaseModel):
    """The arena run that placed the agents, per player count."""

    model_config = ConfigDict(extra="forbid")
    command: str
    machine: str
    ratings: dict[str, Rating]


class Level(BaseModel):
    """A named difficulty: a one-line description and the agent spec per player count."""

    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1)
    about: str = Field(min_length=1)
    agents: dict[int, str]


class Levels(BaseModel):
    """Every level, weakest first, and the measurements behind them."""

    model_config = ConfigDict(extra="forbid")
    measured: dict[int, Measurement]
    levels: list[Level] = Field(min_length=1)

    def spec(self, name: str, n_players: int) -> str:
        """The agent spec of level ``name`` (any case) for an ``n_players`` game; LevelsError if
        there is no such level or it has no agent measured for that player count."""
        for lv in self.levels:
            if lv.name.lower() == str(name).lower():
                if n_players not in lv.agents:
                    counts = ", ".join(str(n) for n in sorted(lv.agents))
                    raise LevelsError(f"level {lv.name!r} is measured for {counts}-player games only, "
                                      f"not {n_players}; choose the opponents by name")
                return lv.agents[n_players]
        raise LevelsError(f"no level {name!r}; levels: {', '.join(lv.name for lv in self.levels)}")

    def for_players(self, n_players: int, available: set[str] | None = None) -> list[dict[str, Any]]:
        """The levels of an ``n_players`` game, weakest first, as JSON-ready entries
        ``{name, about, spec, rating}`` (the measured rating of the spec).  With ``available``
        (the specs that can play here now), a level whose agent is not among them is left out:
        a level played by a shipped policy appears only where that policy is installed."""
        out = []
        for lv in self.levels:
            if n_players in lv.agents:
                spec = lv.agents[n_players]
                if available is not None and spec not in available:
                    continue
                rating = self.measured[n_players].ratings[spec]
                out.append({"name": lv.name, "about": lv.about, "spec": spec, "rating": rating.model_dump()})
        return out


def _check(levels: Levels, name: str) -> None:
    """Every level's agent is a well-formed spec rated in its player count's measurement, and the
    levels climb.  Whether the agent can play here (a shipped policy may be absent) is asked at
    play time: :meth:`Levels.for_players` with ``available``."""
    from electrify_env.agents import AGENTS, parse_spec     # the play layer sits on the agents
    names = [lv.name.lower() for lv in levels.levels]
    if len(set(names)) != len(names):
        raise LevelsError(f"{name}: levels: two levels share a name")
    for i, lv in enumerate(levels.levels):
        for n, spec in lv.agents.items():
            where = f"{name}: levels[{i}] ({lv.name}).agents[{n}]"
            # trained_<stem> is registered per shipped policy file, which this install may lack
            shipped_name = spec.startswith("trained_") and spec.split(":")[0] not in AGENTS
            if not shipped_name:
                try:
                    parse_spec(spec)
                except ValueError as err:
                    raise LevelsError(f"{where}: {err}") from None
            if n not in levels.measured or spec not in levels.measured[n].ratings:
                raise LevelsError(f"{where}: {spec!r} has no rating in measured[{n}]")
    for n, m in levels.measured.items():
        ords = [m.ratings[lv.agents[n]].ordinal for lv in levels.levels if n in lv.agents]
        if ords != sorted(ords) or len(set(ords)) != len(ords):
            raise LevelsError(f"{name}: the {n}-player levels must climb in measured rating "
                              f"(ordinals {', '.join(f'{o:.2f}' for o in ords)})")


def load_levels(path: str | Path | None = None) -> Levels:
    """Read and check a levels file (default :data:`LEVELS_FILE`).  LevelsError names the file
    and the field of the first problem."""
    path = Path(path) if path is not None else LEVELS_FILE
    name = display_path(path)
    data = read_yaml_mapping(path, LevelsError)
    try:
        levels = Levels.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise LevelsError(f"{name}: {where}: {pydantic_error_text(first)}") from None
    _check(levels, name)
    return levels
