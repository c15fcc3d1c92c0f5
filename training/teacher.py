"""Games of a search agent as training data for imitation and expert iteration.

:func:`run_teacher` plays seeded games of one agent of the registry (by default the search agent
``mcts:iters=36:top_k=3:horizon=2``) in a mirror line-up of ``players`` copies, or on solo
scenarios, and writes them as replays; :func:`load_teacher_data` replays such a file through the
engine and returns numpy arrays for a trainer: each decision's observation, legal mask, the
action taken, the seat that took it, the game and whether that seat won.

    electrify teacher-data --agent mcts:iters=36:top_k=3:horizon=2 --players 2 --games 200 \\
        --seed 0 --jobs 2 [--backend ray [--address HEAD:6379]] --out teacher.jsonl

The games are the tasks of a balance report with one spec (:func:`electrify_env.agents.balance.make_tasks`:
game and agent seeds derive from ``seed``; a mirror deals a new game every time), played by
:func:`electrify_env.agents.arena.play_task` through :func:`electrify_env.parallel.parallel_map`, so they run
in this process, in spawned processes or as Ray tasks, and the file is byte for byte the same on
each backend and for any ``jobs`` (an ``mcts:ms=...`` time budget is the exception: it depends
on the machine's speed).

The file is compact and needs no new reader: a ``.jsonl`` whose first line is a header (format
:data:`TEACHER_FORMAT`: the configuration, game and decision counts) and whose other lines are
the arena's game records (format ``electrify-arena-game``: seed, line-up, agent seeds, scenario,
card set, tech packs, scores, winners, actions) without the per-move timings.  ``electrify replay
FILE --game K`` shows any game of it; observations and masks are not stored but rebuilt when the
file is loaded (a decision's observation is 5,100 floats, its action one integer).
:func:`load_teacher_data` also reads an arena's or a balance report's ``games.jsonl``.

>>> from electrify_env.training.teacher import TeacherConfig, load_teacher_data, run_teacher
>>> run_teacher(TeacherConfig(agent="greedy", games=4, out="teacher.jsonl"))   # doctest: +SKIP
>>> data = load_teacher_data("teacher.jsonl", winners_only=True)                # doctest: +SKIP
>>> data.observations.shape, data.actions.shape                                 # doctest: +SKIP
"""
from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable, Iterator

import numpy as np

from electrify_env.agents import arena as A
from electrify_env.agents import balance as B
from electrify_env.agents.replay import ReplayError, check_record, new_game
from electrify_env.engine.layout import N_ACTIONS
from electrify_env.engine.observe import OBS_SIZE, OBS_VERSION, obs_size
from electrify_env.validation import InvalidArgumentError

TEACHER_FORMAT = "electrify-teacher-data"
"""``format`` of a teacher file's header line."""
TEACHER_VERSION = 1
DEFAULT_AGENT = "mcts:iters=36:top_k=3:horizon=2"
"""The search agent whose games are recorded by default."""
TIMING_FIELDS = ("seconds",)
"""Fields of the arena's game record left out of a teacher file (they depend on the machine)."""


class TeacherDataError(ReplayError):
    """A teacher (or arena) games file that cannot be read or does not replay; the one-line
    message names the file, the game and the field."""


@dataclass
class TeacherConfig:
    """What :func:`run_teacher` plays.

    Attributes:
        agent: one agent spec of the registry (``mcts:iters=36:top_k=3:horizon=2``, ``greedy``,
            ``trained_2p``); every seat plays a copy of it.
        players: 2, 3 or 4 (ignored in solo play).
        games: games to play (per scenario in solo play).
        seed: the master seed; every game and agent seed derives from it (the same games as
            ``electrify balance --agents AGENT --players N --seed S``).
        jobs: worker processes (1: play in this process); with ``backend="ray"`` and no
            ``address``, the CPUs of the local Ray it starts.
        solo: scenario ids, scenario files or ``"all"`` for solo play (None: multi-player).
        cards: card-set YAML (None: the shipped base set).
        tech_packs: tech pack names or files to shuffle in.
        out: the ``.jsonl`` file to write (None: write nothing), checked before any game.
        progress: show a tqdm progress bar.
        backend: ``"local"`` or ``"ray"`` (:mod:`electrify_env.parallel`); the file is the same
            on both.
        address: the Ray cluster to join (``HOST:6379`` or ``"auto"``; ray backend only).
    """

    agent: str = DEFAULT_AGENT
    players: int = 2
    games: int = 100
    seed: int = 0
    jobs: int = 1
    solo: list[str] | None = None
    cards: str | None = None
    tech_packs: list[str] = field(default_factory=list)
    out: str | None = "teacher.jsonl"
    progress: bool = True
    backend: str = "local"
    address: str | None = None

    def balance_config(self) -> B.BalanceConfig:
        """The balance configuration of the same games (one spec: a mirror line-up)."""
        return B.BalanceConfig(agents=[self.agent], players=self.players, games=self.games,
                               seed=self.seed, jobs=self.jobs, cards=self.cards,
                               tech_packs=list(self.tech_packs), solo=self.solo, out=None,
                               progress=self.progress, backend=self.backend, address=self.address)

    def validate(self) -> B.BalanceConfig:
        """Check everything that can be checked without playing (the agent spec, counts, seed,
        scenarios, backend; the card set and the agent are built by :func:`run_teacher`); raise
        InvalidArgumentError naming the field (AgentError for the spec).  Normalises the fields
        in place and returns the validated balance configuration of the games."""
        if not isinstance(self.agent, str) or not self.agent.strip() or "," in self.agent:
            raise InvalidArgumentError(f"agent: give one agent spec (every seat plays a copy of it), "
                                       f"got {self.agent!r}")
        self.agent = self.agent.strip()
        bcfg = self.balance_config()
        bcfg.validate()
        self.players, self.games, self.seed, self.jobs = bcfg.players, bcfg.games, bcfg.seed, bcfg.jobs
        self.solo = bcfg.solo
        return bcfg

    def header(self, records: list[dict]) -> dict:
        """The header line of the file: what was played and how much (not where or how fast,
        so that the file is the same on every backend)."""
        return {"format": TEACHER_FORMAT, "version": TEACHER_VERSION, "agent": self.agent,
                "players": 1 if self.solo is not None else self.players, "games": len(records),
                "seed": self.seed, "solo": self.solo, "cards": self.cards,
                "tech_packs": list(self.tech_packs),
                "decisions": sum(len(r["actions"]) for r in records),
                "obs_version": OBS_VERSION, "n_actions": N_ACTIONS}


def play_teacher_game(task: B.BalanceTask) -> dict:
    """Play one game (worker side): the arena's record without :data:`TIMING_FIELDS`."""
    rec = A.play_task(replace(task.game, card_set=task.cards))
    return {k: v for k, v in rec.items() if k not in TIMING_FIELDS}


def check_out_file(out: str | Path) -> Path:
    """Make sure a teacher file can be written at ``out`` (a ``.jsonl`` path in a writable
    folder, created if needed) before any game is played; raise InvalidArgumentError naming it."""
    path = Path(out)
    if path.suffix != ".jsonl":
        raise InvalidArgumentError(f"out: the teacher file must end in .jsonl (one game per line, "
                                   f"readable by electrify replay), got {str(out)!r}")
    if path.is_dir():
        raise InvalidArgumentError(f"out: {path} is a folder; give a file name ending in .jsonl")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path.parent).close()
    except OSError as err:
        raise InvalidArgumentError(f"out: cannot write to the folder {path.parent} "
                                   f"({err.strerror or err.__class__.__name__})") from None
    return path


def write_teacher_file(path: Path, header: dict, records: list[dict]) -> Path:
    """Write the header and the records (one JSON line each) to ``path`` atomically."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        umask = os.umask(0)       # read the process umask (mkstemp's file is 0600; the result is
        os.umask(umask)           # an ordinary file, like the arena's games.jsonl)
        os.chmod(tmp, 0o666 & ~umask)
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(header, separators=(",", ":")) + "\n")
            for rec in records:
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def run_teacher(cfg: TeacherConfig) -> dict:
    """Check everything (configuration, card set, tech packs, scenarios, agent, the output file)
    before the first game, play the games on ``cfg.backend`` and, if ``cfg.out``, write the file.
    Returns ``{"header", "records", "wall_seconds", "file"}`` (``file`` None without ``out``)."""
    bcfg = cfg.validate()
    B.check_agents(bcfg)
    out = check_out_file(cfg.out) if cfg.out else None
    tasks, _ = B.make_tasks(bcfg)
    from electrify_env.parallel import parallel_map

    t0 = time.time()
    records = parallel_map(play_teacher_game, tasks, jobs=cfg.jobs, backend=cfg.backend,
                           address=cfg.address, progress=cfg.progress, desc="teacher", unit="game")
    wall = time.time() - t0
    header = cfg.header(records)
    path = write_teacher_file(out, header, records) if out is not None else None
    return {"header": header, "records": records, "wall_seconds": wall, "file": path}


MERGE_FIELDS = ("players", "solo", "cards", "tech_packs", "obs_version", "n_actions")
"""Header fields every file merged by :func:`merge_teacher_files` must share."""


def merge_teacher_files(paths: Iterable[str | Path], out: str | Path) -> dict:
    """Join teacher files played in chunks (say, one ``electrify teacher-data`` run per seed, so
    that a long labelling job keeps what it finished) into one file for ``bc_data``.

    Every file must be a teacher file (with a header) of the same player count, scenarios, card
    set, tech packs, observation version and action count (:data:`MERGE_FIELDS`); the records
    keep their order (file by file) and are re-indexed 0, 1, ... so that ``games=`` and
    ``electrify replay --game K`` address them.  The header names the agents and seeds it came
    from (``agent`` is the common one, or ``"mixed"``; ``seed`` the first file's; ``merged``
    lists each file's agent, seed and games).  Raises TeacherDataError naming the file and the
    field that differs; returns ``{"header", "records", "file"}``.

        electrify teacher-data --merge runs/exit/chunk1.jsonl,runs/exit/chunk2.jsonl --out runs/exit/all.jsonl
    """
    paths = [Path(p) for p in paths]
    if not paths:
        raise TeacherDataError("merge: give at least one teacher file")
    target = check_out_file(out)
    if any(p.resolve() == target.resolve() for p in paths if p.exists()):
        raise TeacherDataError(f"merge: --out {target} is one of the files to merge; write a new file")
    first: dict = {}
    records: list[dict] = []
    merged: list[dict] = []
    for path in paths:
        header, recs = read_teacher_file(path)
        if not header:
            raise TeacherDataError(f"{path}: no teacher header (an arena games.jsonl?): merge reads "
                                   f"files written by electrify teacher-data")
        if not first:
            first = header
        for key in MERGE_FIELDS:
            if header.get(key) != first.get(key):
                raise TeacherDataError(f"{path}: field {key!r} is {header.get(key)!r}, {paths[0]} has "
                                       f"{first.get(key)!r}: files of different games cannot be merged")
        merged.append({"file": str(path), "agent": header.get("agent"), "seed": header.get("seed"),
                       "games": len(recs)})
        records.extend(recs)
    records = [dict(r, index=i) for i, r in enumerate(records)]
    agents = {m["agent"] for m in merged}
    header = dict(first, agent=agents.pop() if len(agents) == 1 else "mixed", games=len(records),
                  decisions=sum(len(r["actions"]) for r in records), merged=merged)
    return {"header": header, "records": records, "file": write_teacher_file(target, header, records)}


def format_summary(header: dict, records: list[dict]) -> str:
    """A few lines on the games: count, decisions, and each seat's win share (or the solo
    success rate)."""
    n = len(records)
    lines = [f"{n} games of {header['agent']} ({'solo' if header['players'] == 1 else str(header['players']) + ' players'}), "
             f"{header['decisions']} decisions ({header['decisions'] / max(n, 1):.0f} per game)"]
    if header["players"] == 1:
        won = sum(bool(r["winners"]) for r in records)
        lines.append(f"solo success: {won}/{n}")
    else:
        shares = [sum(1.0 / len(r["winners"]) for r in records if s in r["winners"]) / max(n, 1)
                  for s in range(header["players"])]
        lines.append("win share by seat: " + ", ".join(f"seat {s} {100 * x:.1f}%" for s, x in enumerate(shares)))
    return "\n".join(lines)


# ---- loading -----------------------------------------------------------------------------------
@dataclass
class TeacherData:
    """The decisions of a games file, one row each, in game and decision order.

    Attributes:
        observations: float32 ``(N, width)``: the deciding seat's observation (``Game.observe``,
            the vector the envs return and :class:`electrify_env.agents.net.PolicyValueNet` reads; width
            ``OBS_SIZE``, or ``obs_size(n_players)`` when loaded with ``trim=True``).
        masks: bool ``(N, N_ACTIONS)``: the legal actions at the decision.
        actions: int64 ``(N,)``: the action taken (always legal under its mask).
        seats: int64 ``(N,)``: the seat that decided.
        games: int64 ``(N,)``: the game's ``index`` in the file.
        won: bool ``(N,)``: the seat is among the game's winners (a shared win counts; solo: the
            scenario was won).
        header: the file's header (empty for an arena ``games.jsonl``).
        records: the game records loaded, in file order.
        priors: float32 ``(N, N_ACTIONS)``: greedy's one-ply values of each decision as a logit
            prior (``kernels.search.greedy_prior``; loaded with ``prior_weights``), or None.
    """

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    seats: np.ndarray
    games: np.ndarray
    won: np.ndarray
    header: dict
    records: list[dict]
    priors: np.ndarray | None = None

    def __len__(self) -> int:
        return int(self.actions.shape[0])


def read_teacher_file(path: str | Path) -> tuple[dict, list[dict]]:
    """The header (``{}`` if there is none, as in an arena ``games.jsonl``) and the checked game
    records (:func:`electrify_env.agents.replay.check_record`) of a games file.  Raises TeacherDataError."""
    path = Path(path)
    if not path.is_file():
        raise TeacherDataError(f"teacher file {path} does not exist or is not a file")
    header: dict = {}
    records: list[dict] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise TeacherDataError(f"{path}: cannot be read as UTF-8 text ({err.__class__.__name__})") from None
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as err:
            raise TeacherDataError(f"{path}: line {no}: not valid JSON ({err.msg})") from None
        fmt = item.get("format") if isinstance(item, dict) else None
        if fmt == TEACHER_FORMAT and no == 1:
            if not isinstance(item.get("version"), int) or item["version"] > TEACHER_VERSION:
                raise TeacherDataError(f"{path}: field 'version' must be at most {TEACHER_VERSION} "
                                       f"(a newer teacher file), got {item.get('version')!r}")
            header = item
        elif fmt == A.REPLAY_FORMAT:
            try:
                records.append(check_record(item, f"{path}: line {no}"))
            except ReplayError as err:
                raise TeacherDataError(str(err)) from None
        else:
            raise TeacherDataError(f"{path}: line {no}: field 'format' must be {A.REPLAY_FORMAT!r}"
                                   + (f" (or {TEACHER_FORMAT!r} on line 1)" if no == 1 else "")
                                   + f", got {fmt!r}")
    if not records:
        raise TeacherDataError(f"{path}: no game records in it")
    if header and header.get("games") != len(records):
        raise TeacherDataError(f"{path}: field 'games' of the header says {header.get('games')!r}, "
                               f"the file holds {len(records)} game records (a truncated file?)")
    return header, records


def _new_game(record: dict, where: str):
    """:func:`electrify_env.agents.replay.new_game`, its errors as TeacherDataError naming ``where``."""
    try:
        return new_game(record)
    except ReplayError as err:
        raise TeacherDataError(f"{where}: {err}") from None


def replay_decisions(record: dict, where: str = "game") -> Iterator[tuple[object, int, int]]:
    """Replay a record through the engine, yielding ``(game, seat, action)`` before each action
    is applied (the game is stepped after each yield).  Raises TeacherDataError naming ``where``
    if an action is not legal, the game does not end with the record's last action, or its
    scores or winners differ from the record's."""
    game = _new_game(record, where)
    actions = record["actions"]
    for k, a in enumerate(actions):
        if game.is_terminal:
            raise TeacherDataError(f"{where}: field 'actions': the game ends before action {k} of {len(actions)}")
        if not game.legal_mask()[a]:
            raise TeacherDataError(f"{where}: field 'actions': entry {k} ({a}) is not legal at that decision")
        yield game, game.current_player, a
        game.step(a)
    if not game.is_terminal:
        raise TeacherDataError(f"{where}: field 'actions': the game is not over after its {len(actions)} actions")
    if [int(x) for x in game.scores()] != list(record["scores"]):
        raise TeacherDataError(f"{where}: field 'scores': the replay ends with {[int(x) for x in game.scores()]}, "
                               f"the record says {record['scores']}")
    if "winners" in record and list(game.winners()) != list(record["winners"]):
        raise TeacherDataError(f"{where}: field 'winners': the replay gives {game.winners()}, "
                               f"the record says {record['winners']}")


def load_teacher_data(path: str | Path, winners_only: bool = False, trim: bool = False,
                      games: Iterable[int] | None = None, progress: bool = False,
                      prior_weights: np.ndarray | None = None, prior_seed: int = 0) -> TeacherData:
    """Replay a teacher file (or an arena ``games.jsonl``) and return its decisions as arrays.

    Args:
        path: the file.
        winners_only: keep only the decisions of seats that won their game (imitate winners).
        trim: cut the observations to ``obs_size(n_players)`` (the prefix a game of that many
            players fills and :class:`electrify_env.agents.net.PolicyValueNet` reads; the rest is always
            zero): about 40 % less memory in 2-player games.  All games must then have one
            player count.
        games: the ``index`` values of the games to load (None: all).
        progress: show a tqdm progress bar over the games.
        prior_weights: greedy evaluation weights: also compute each decision's greedy logit prior
            (``TeacherData.priors``, for a policy with ``prior: greedy``) from one
            determinization of the deciding seat's information set (R26), drawn from a generator
            seeded with ``prior_seed``; all zero for a forced move.

    Every action is checked against the legal mask of its decision and every game's scores and
    winners against the record's (TeacherDataError naming the file, game and field).
    """
    from tqdm import tqdm

    header, records = read_teacher_file(path)
    if games is not None:
        wanted = {int(g) for g in games}
        records = [r for r in records if r.get("index") in wanted]
        missing = wanted - {r.get("index") for r in records}
        if missing:
            raise TeacherDataError(f"{path}: no game with index {min(missing)}")
    width = OBS_SIZE
    if trim:
        counts = {r["n_players"] for r in records}
        if len(counts) > 1:
            raise TeacherDataError(f"{path}: trim needs one player count, the file holds games of "
                                   f"{sorted(counts)} players")
        width = obs_size(counts.pop())
    total = sum(len(r["actions"]) for r in records)
    obs = np.empty((total, width), dtype=np.float32)
    masks = np.empty((total, N_ACTIONS), dtype=bool)
    actions = np.empty(total, dtype=np.int64)
    seats = np.empty(total, dtype=np.int64)
    index = np.empty(total, dtype=np.int64)
    won = np.empty(total, dtype=bool)
    prior_of = None if prior_weights is None else _PriorOf(prior_weights, prior_seed)
    priors = None if prior_of is None else np.zeros((total, N_ACTIONS), dtype=np.float32)
    n = 0
    for rec in tqdm(records, desc="replaying", unit="game", disable=not progress):
        winners = set(rec.get("winners", []))
        where = f"{path}: game {rec.get('index')}"
        for game, seat, a in replay_decisions(rec, where):
            if winners_only and seat not in winners:
                continue
            obs[n] = game.observe(seat)[:width]
            masks[n] = game.legal_mask()
            actions[n], seats[n], index[n], won[n] = a, seat, rec.get("index", -1), seat in winners
            if prior_of is not None and masks[n].sum() > 1:
                prior_of(game, seat, priors[n])
            n += 1
    return TeacherData(observations=obs[:n], masks=masks[:n], actions=actions[:n], seats=seats[:n],
                       games=index[:n], won=won[:n], header=header, records=records,
                       priors=None if priors is None else priors[:n])


class _PriorOf:
    """Greedy's logit prior of a replayed decision (work arrays kept between calls)."""

    def __init__(self, weights: np.ndarray, seed: int) -> None:
        from electrify_env.kernels.league import greedy_buffers

        self.W = np.asarray(weights, dtype=np.float64)
        self.rng = np.random.default_rng(seed)
        self.buf = greedy_buffers()

    def __call__(self, game, seat: int, out: np.ndarray) -> None:
        from electrify_env.engine.infoset import scrub
        from electrify_env.kernels.search import infoset_prior

        info, det, work, scratch, mask, vals, tally = self.buf
        T = game.cards.table
        scrub(game.state, T, np.int64(seat), info)
        infoset_prior(info, T, self.W, np.int64(self.rng.integers(1 << 62)), out, mask, det, vals, work,
                      tally, scratch)
