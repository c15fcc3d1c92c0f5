"""The ladder: a round robin of a fixed pool of agents, rated with intervals.

A ladder file (``configs/ladder/electrify-2p.yaml``; ``configs/ladder/gizmos-2p.yaml`` for Gizmos)
names the game (``game``, default Electrify) and the pool (the baselines, mcts at
several budgets, each shipped policy alone and inside a search), the games per pairing and the
seed.  :func:`run_ladder` plays every pairing seat-rotated through the arena
(:func:`electrify_env.agents.arena.run_arena`, so the results follow from the seed alone,
whatever ``jobs``), then ranks the pool by openskill ordinal (mu - 3 sigma) and writes
``ladder.json``, ``ladder.md`` (the table the docs show) and ``ladder.png`` beside the arena's
own files.  The difficulty levels of the play table (``configs/play/levels.yaml``) take their
ratings from a ladder run: ``ladder.json`` holds them in that file's ``measured`` form.

    electrify ladder                                   # configs/ladder/electrify-2p.yaml
    electrify ladder --games 2 --pool random,greedy    # a smoke run
    electrify ladder --game gizmos                     # configs/ladder/gizmos-2p.yaml

    >>> from electrify_env.agents.ladder import load_ladder_config
    >>> cfg = load_ladder_config()
    >>> cfg.players, "greedy" in cfg.pool
    (2, True)
"""
from __future__ import annotations

import json
import platform
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from electrify_env.games import DEFAULT_GAME, get_game
from electrify_env.paths import CONFIGS_DIR
from electrify_env.validation import InvalidArgumentError
from electrify_env.yamlio import display_path, pydantic_error_text, read_yaml_mapping

from .arena import Z95, ArenaConfig, check_out_folder, run_arena

__all__ = ["LADDER_FILE", "LADDER_FILES", "LadderConfig", "LadderError", "format_markdown", "ladder_command",
           "load_ladder_config", "run_ladder", "write_plot"]

LADDER_FILE = CONFIGS_DIR / "ladder" / "electrify-2p.yaml"
"""The default ladder: the 2-player pool."""
LADDER_FILES = {"electrify": LADDER_FILE, "gizmos": CONFIGS_DIR / "ladder" / "gizmos-2p.yaml"}
"""The default ladder file of each game that has one (``electrify ladder --game NAME``)."""


class LadderError(ValueError):
    """A ladder file or option that cannot be used; the message names the file and the field."""


class _LadderFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = DEFAULT_GAME
    players: int = Field(2)
    games: int = Field(gt=0)
    seed: int = Field(ge=0)
    pool: list[str] = Field(min_length=2)
    machine: str = ""

    @field_validator("players")
    @classmethod
    def _two(cls, v: int) -> int:
        if v != 2:
            raise ValueError(f"the ladder is a 2-player round robin (3-4 player strength is measured "
                             f"with `electrify arena` line-ups), got {v}")
        return v

    @field_validator("game")
    @classmethod
    def _registered(cls, v: str) -> str:
        try:
            return get_game(v).name
        except InvalidArgumentError as err:
            raise ValueError(str(err)) from None

    @field_validator("games")
    @classmethod
    def _even(cls, v: int) -> int:
        if v % 2:
            raise ValueError(f"games per pairing must be even (each deal is played in both seat orders), got {v}")
        return v

    @field_validator("pool")
    @classmethod
    def _distinct(cls, v: list[str]) -> list[str]:
        dup = sorted({s for s in v if v.count(s) > 1})
        if dup:
            raise ValueError(f"the pool names {', '.join(dup)} twice")
        return v


@dataclass
class LadderConfig:
    """What the ladder plays.

    Attributes:
        pool: agent specs; every pairing of two of them plays ``games`` seat-rotated games.
        players: 2 (the ladder is a 2-player round robin).
        games: games per pairing (even: each deal in both seat orders).
        seed: the master seed of the arena run.
        jobs: worker processes (or Ray CPUs with ``backend="ray"``); results do not depend on it.
        out: output folder (None: write nothing).
        progress: show a progress bar.
        backend: ``"local"`` or ``"ray"`` (:mod:`electrify_env.parallel`).
        address: a Ray cluster to join, with ``backend="ray"``.
        machine: the machine the figures were measured on, as ``ladder.md`` states it (empty: this
            machine's CPU count).
        source: the ladder file this configuration came from (for the printed command).
        game: the registered game played (:mod:`electrify_env.games`; default Electrify).
    """

    pool: list[str]
    players: int = 2
    games: int = 20
    seed: int = 0
    jobs: int = 1
    out: str | None = "ladder_out"
    progress: bool = True
    backend: str = "local"
    address: str | None = None
    machine: str = ""
    source: str | None = None
    game: str = DEFAULT_GAME

    def arena_config(self) -> ArenaConfig:
        """The arena run that plays the round robin."""
        return ArenaConfig(agents=list(self.pool), players=self.players, games=self.games,
                           seed=self.seed, jobs=self.jobs, out=self.out, progress=self.progress,
                           backend=self.backend, address=self.address, game=self.game)


def load_ladder_config(path: str | Path | None = None, game: str | None = None,
                       **overrides: Any) -> LadderConfig:
    """Read a ladder file into a :class:`LadderConfig`, with run options (``jobs``, ``out``,
    ``progress``, ``backend``, ``address``; ``out=None`` writes nothing) and any of the file's
    fields (``pool``, ``games``, ``seed``; None keeps the file's) given by keyword.

    The file is ``path``, else the default file of ``game`` (:data:`LADDER_FILES`; no ``game``:
    :data:`LADDER_FILE`).  A file names its game (``game``, default Electrify); a ``game`` given
    with a ``path`` must be the file's.
    LadderError names the file and the field of the first problem."""
    if game is not None:
        try:
            game = get_game(game).name
        except InvalidArgumentError as err:
            raise LadderError(str(err)) from None
    if path is None:
        if game is not None and game not in LADDER_FILES:
            raise LadderError(f"{get_game(game).title} has no default ladder file; give one with --config")
        path = LADDER_FILES[game] if game is not None else LADDER_FILE
    path = Path(path)
    name = display_path(path)
    data = read_yaml_mapping(path, LadderError)
    file_game = data.get("game", DEFAULT_GAME)
    if game is not None and file_game != game:
        raise LadderError(f"{name}: game: the file is a ladder of {file_game!r}, not of {game!r}")
    file_fields = {k: v for k, v in overrides.items() if k in _LadderFile.model_fields and v is not None}
    data.update(file_fields)
    try:
        parsed = _LadderFile.model_validate(data)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        raise LadderError(f"{name}: {where}: {pydantic_error_text(first)}") from None
    run = {k: v for k, v in overrides.items() if k not in _LadderFile.model_fields}
    unknown = set(run) - {f for f in LadderConfig.__dataclass_fields__}
    if unknown:
        raise LadderError(f"unknown ladder option(s): {', '.join(sorted(unknown))}")
    return LadderConfig(pool=parsed.pool, players=parsed.players, games=parsed.games,
                        seed=parsed.seed, machine=parsed.machine, source=name, game=parsed.game, **run)


def ladder_command(cfg: LadderConfig) -> str:
    """The ``electrify ladder`` command line that reproduces a configuration's games."""
    cmd = "electrify ladder"
    if cfg.game != DEFAULT_GAME:
        cmd += f" --game {cfg.game}"
    default = LADDER_FILES.get(cfg.game)
    if cfg.source and (default is None or cfg.source != display_path(default)):
        cmd += f" --config {cfg.source}"
    if cfg.source is None:
        cmd += f" --pool {','.join(cfg.pool)} --games {cfg.games} --seed {cfg.seed}"
    return cmd + f" --jobs {cfg.jobs}"


def _rows(summary: dict) -> list[dict]:
    rows = []
    for r in summary["agents"]:
        mu, sigma = r["rating_mu"], r["rating_sigma"]
        rows.append({"agent": r["agent"], "mu": mu, "sigma": sigma,
                     "mu_low": mu - Z95 * sigma, "mu_high": mu + Z95 * sigma,
                     "ordinal": r["rating_ordinal"], "games": r["games"], "win_rate": r["win_rate"],
                     "ci_low": r["ci_low"], "ci_high": r["ci_high"], "ms_per_move": r["ms_per_move"]})
    rows.sort(key=lambda x: -x["ordinal"])
    for rank, r in enumerate(rows, 1):
        r["rank"] = rank
    return rows


def format_markdown(rows: list[dict], command: str, machine: str, games: int, wall: float) -> str:
    """The ladder as a Markdown table (strongest first), with the command and the machine."""
    lines = ["| rank | agent | rating (mu, 95% interval) | ordinal | win rate (95% interval) | games | ms/move |",
             "|---:|---|---|---:|---|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['rank']} | `{r['agent']}` | {r['mu']:.1f} [{r['mu_low']:.1f}, {r['mu_high']:.1f}] "
                     f"| {r['ordinal']:.1f} | {100 * r['win_rate']:.1f}% [{100 * r['ci_low']:.1f}, "
                     f"{100 * r['ci_high']:.1f}] | {r['games']} | {r['ms_per_move']:.2f} |")
    lines += ["", f"`{command}`: {games:,} seat-rotated games in {wall:,.0f} s on {machine}; "
              "openskill Plackett-Luce ratings, ordinal = mu - 3 sigma, win rate over every game the "
              "agent played, Wilson intervals."]
    return "\n".join(lines) + "\n"


def write_plot(path: Path, rows: list[dict]) -> None:
    """``ladder.png``: each agent's rating with its 95% interval, strongest on top (a matplotlib
    Figure drawn without pyplot)."""
    from matplotlib.figure import Figure

    names = [r["agent"] for r in rows][::-1]
    mus = [r["mu"] for r in rows][::-1]
    err = [Z95 * r["sigma"] for r in rows][::-1]
    fig = Figure(figsize=(7.5, 0.45 * len(rows) + 1.2))
    ax = fig.subplots()
    ax.errorbar(mus, range(len(rows)), xerr=err, fmt="o", capsize=3)
    ax.set_yticks(range(len(rows)), names)
    ax.set_xlabel("openskill rating mu (95% interval)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def _machine(cfg: LadderConfig) -> str:
    if cfg.machine:
        return cfg.machine
    import os

    return f"{os.cpu_count()} CPU cores ({platform.machine()}), {cfg.jobs} job(s)"


def run_ladder(cfg: LadderConfig) -> dict:
    """Play the round robin and rank the pool.  Everything (the pool's specs, the output folder)
    is checked before the first game.  Returns ``{"rows", "summary", "wall_seconds", "command",
    "measured", "files"}``; ``measured`` is the ratings block of ``configs/play/levels.yaml``."""
    if cfg.players != 2:
        raise LadderError(f"the ladder is a 2-player round robin, got players={cfg.players}")
    if cfg.out:
        check_out_folder(cfg.out)
    t0 = time.time()
    res = run_arena(cfg.arena_config())
    wall = time.time() - t0
    rows = _rows(res["summary"])
    command = ladder_command(cfg)
    machine = _machine(cfg)
    n_games = len(res["records"])
    measured = {"command": command,
                "machine": f"{machine}; {n_games:,} seat-rotated games, {cfg.games} per pairing, {wall:,.0f} s",
                "ratings": {r["agent"]: {"mu": round(r["mu"], 2), "sigma": round(r["sigma"], 2),
                                         "ordinal": round(r["ordinal"], 2),
                                         "win_rate": round(r["win_rate"], 3), "games": r["games"]}
                            for r in rows}}
    files = list(res["files"])
    if cfg.out:
        out = Path(cfg.out)
        (out / "ladder.json").write_text(json.dumps(
            {"config": {k: v for k, v in asdict(cfg).items() if k not in ("out", "progress", "address")
                        and not (k == "game" and v == DEFAULT_GAME)},
             "command": command, "wall_seconds": round(wall, 1), "games": n_games,
             "rows": rows, "measured": measured}, indent=2))
        (out / "ladder.md").write_text(format_markdown(rows, command, machine, n_games, wall))
        files += [out / "ladder.json", out / "ladder.md"]
        try:
            write_plot(out / "ladder.png", rows)
            files.append(out / "ladder.png")
        except Exception as err:  # a chart problem must not lose the tables written above
            import warnings

            warnings.warn(f"could not draw {out / 'ladder.png'}: {err}")
    return {"rows": rows, "summary": res["summary"], "wall_seconds": wall, "command": command,
            "measured": measured, "files": files}
