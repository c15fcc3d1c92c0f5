"""The arena: seat-rotated games between agents, with win rates, confidence intervals, ratings,
tables, files and charts.

* **2 players**: every pairing of the given agents plays ``games`` games; each deal (game seed) is
  played twice with the seats swapped, so neither agent profits from the seat or the cards.
* **3-4 players**: the agents given are the line-up (one per seat, repeats allowed); each deal is
  played in every rotation of the line-up.
* **solo** (``solo=[scenario ids]``): every agent plays ``games`` games of every scenario.

Any registered game plays (``game="gizmos"``, ``electrify arena --game gizmos``; default
Electrify): the games are built with the game's :class:`~electrify_env.games.GameDef`, the agents
come from that game's registry (:func:`~electrify_env.agents.registry.agents_of`), and scores,
tie-break keys, winners and points by source come from the Game protocol of
:mod:`electrify_env.games`.  A record of a game other than Electrify carries ``"game"``; an
Electrify record is the same as it always was.

Results are reproducible from the seed: every game's seed and every agent's seed derive from
(seed, pairing, game) through ``numpy.random.SeedSequence``, each agent is reset before each game,
and results are gathered in game order, so the output is the same for any ``jobs`` and on either
backend (``backend="ray"`` plays the games as Ray tasks, on a local Ray or a cluster:
:mod:`electrify_env.parallel`).  (An ``mcts:ms=...`` time budget is the exception: it depends on
the machine's speed.)

Outputs (in ``out``): ``results.json`` (everything), ``agents.csv``, ``pairings.csv`` (or
``solo.csv``), ``games.jsonl`` (one line per game: seed, line-up, scores, actions: a replay file
for ``electrify replay``) and ``chart.png``.

Win rate: a win counts 1, a shared win (R18) 1/k for k winners; the 95% interval is Wilson's.
Ratings: openskill's Plackett-Luce model, updated game by game in game order, from each game's
ranking (R18 tie-break keys); ``ordinal`` = mu - 3 sigma.
"""
from __future__ import annotations

import csv
import itertools
import json
import math
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from electrify_env.games import DEFAULT_GAME, get_game
from electrify_env.validation import InvalidArgumentError, check_count, check_seed

from .base import AgentError
from .registry import parse_spec

Z95 = 1.959963984540054
REPLAY_FORMAT = "electrify-arena-game"
REPLAY_VERSION = 1


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``successes`` may be fractional for shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass
class ArenaConfig:
    """What the arena plays.

    Attributes:
        agents: agent specs (``random``, ``greedy``, ``mcts:iters=48``...).  2 players: every
            pairing of distinct specs; 3-4 players: the line-up, one spec per seat.
        players: 2, 3 or 4 (ignored in solo play).
        games: games per pairing (2 players), per line-up (3-4) or per agent and scenario (solo).
            Must be a multiple of the player count in multi-player play (whole seat rotations).
        seed: the master seed.
        jobs: worker processes (1: play in this process); with ``backend="ray"`` and no
            ``address``, the CPUs of the local Ray it starts.
        solo: scenarios for solo play: ids, paths of scenario files (``.yaml``) or ``"all"``
            (None: multi-player play).
        tech_packs: shipped tech pack names to shuffle in.
        out: output folder (None: write nothing); checked (a writable folder, not a file)
            before any game is played.
        progress: show a tqdm progress bar.
        backend: ``"local"`` (processes on this machine) or ``"ray"`` (Ray tasks; needs
            ``pip install -e ".[ray]"``): :mod:`electrify_env.parallel`.  The results are the
            same on both.
        address: the Ray cluster to join (``HOST:6379`` or ``"auto"``); None starts a local Ray.
            Only with ``backend="ray"``.
        game: the registered game to play (:mod:`electrify_env.games`; default Electrify).
            ``solo`` and ``tech_packs`` are Electrify's options.
    """

    agents: list[str]
    players: int = 2
    games: int = 100
    seed: int = 0
    jobs: int = 1
    solo: list[str] | None = None
    tech_packs: list[str] = field(default_factory=list)
    out: str | None = "arena_out"
    progress: bool = True
    backend: str = "local"
    address: str | None = None
    game: str = DEFAULT_GAME

    def validate(self) -> None:
        """Raise ValueError / AgentError for a configuration that cannot run."""
        if not self.agents:
            raise AgentError("no agents given")
        check_run_fields(self)
        if self.solo is None:
            counts = multi_player_counts(self.game)
            if self.players not in counts:
                solo = " (or use solo)" if get_game(self.game).min_players == 1 else ""
                raise ValueError(f"players must be {_or_list(counts)}{solo}, got {self.players}")
            if self.players == 2 and len(self.agents) < 2:
                raise ValueError("2-player arena needs at least two agents (repeat one for self-play: greedy,greedy)")
            if self.players > 2 and len(self.agents) != self.players:
                raise ValueError(f"a {self.players}-player arena takes a line-up of exactly "
                                 f"{self.players} agents (repeats allowed), got {len(self.agents)}")
            if self.games % self.players:
                raise ValueError(f"games must be a multiple of {self.players} (each deal is played "
                                 f"in every seat rotation), got {self.games}")


def multi_player_counts(game: str) -> list[int]:
    """The player counts of a multi-player arena of the game named ``game`` (2 up to its most)."""
    gdef = get_game(game)
    return list(range(max(2, gdef.min_players), gdef.max_players + 1))


def _or_list(items: Sequence[int]) -> str:
    words = [str(x) for x in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def check_run_fields(cfg) -> None:
    """The checks an arena and a balance report share: the game is registered, every agent spec
    parses (in that game's registry), game and job counts are positive, the seed is in range, a
    solo list is not empty, and the backend is known, its address fits it and Ray is installed
    where asked for (:func:`electrify_env.parallel.check_backend`).  Normalises ``games``,
    ``jobs``, ``seed`` and ``game`` in place."""
    from electrify_env.parallel import check_backend

    cfg.game = get_game(getattr(cfg, "game", DEFAULT_GAME)).name
    check_backend(cfg.backend, cfg.address)
    for spec in cfg.agents:
        parse_spec(spec, cfg.game)
    cfg.games = check_count(cfg.games, "games")
    cfg.jobs = check_count(cfg.jobs, "jobs")
    cfg.seed = check_seed(cfg.seed, "seed")
    if cfg.solo is not None and not cfg.solo:
        raise InvalidArgumentError("solo: give scenario ids, scenario files (.yaml) or 'all'")


@dataclass(frozen=True)
class GameTask:
    """One game to play: its index, group (pairing or scenario), seats and seeds, and the
    registered game it is a game of."""

    index: int
    group: int
    lineup: tuple[str, ...]
    seed: int
    agent_seeds: tuple[int, ...]
    scenario: str | None
    tech_packs: tuple[str, ...]
    card_set: str | None = None     # a card-set file; None: the shipped base set
    game: str = DEFAULT_GAME


def _derive(seed: int, *keys: int) -> int:
    return int(np.random.SeedSequence([seed, *keys]).generate_state(1, np.uint64)[0] >> np.uint64(2))


def pairings(agents: Sequence[str]) -> list[tuple[str, str]]:
    """Every unordered pairing of distinct specs, in order of first appearance (a spec given
    twice, as in ``greedy,greedy``, also pairs with itself)."""
    uniq = list(dict.fromkeys(agents))
    pairs = list(itertools.combinations(uniq, 2))
    for spec in uniq:
        if agents.count(spec) > 1:
            pairs.append((spec, spec))
    return pairs


def make_tasks(cfg: ArenaConfig) -> tuple[list[GameTask], list[tuple[str, ...]]]:
    """The games of a configuration and its groups (pairings, the line-up, or agent+scenario)."""
    tasks: list[GameTask] = []
    tech = tuple(cfg.tech_packs)
    if cfg.solo is not None:
        groups = [(a, s) for a in dict.fromkeys(cfg.agents) for s in cfg.solo]
        for g, (agent, scen) in enumerate(groups):
            for i in range(cfg.games):
                tasks.append(GameTask(len(tasks), g, (agent,), _derive(cfg.seed, 1, i),
                                      (_derive(cfg.seed, 2, g, i, 0),), scen, tech, game=cfg.game))
        return tasks, groups
    n = cfg.players
    groups = pairings(cfg.agents) if n == 2 else [tuple(cfg.agents)]
    for g, lineup in enumerate(groups):
        for i in range(cfg.games):
            deal, rot = divmod(i, n)
            seats = tuple(lineup[(j + rot) % n] for j in range(n))
            tasks.append(GameTask(len(tasks), g, seats, _derive(cfg.seed, 0, g, deal),
                                  tuple(_derive(cfg.seed, 3, g, i, j) for j in range(n)), None, tech,
                                  game=cfg.game))
    return tasks, groups


# ---- playing (worker side) -------------------------------------------------------------------
_WORKER_AGENTS: dict[tuple[str, str, int], object] = {}


def _agent_for(spec: str, seat: int, game: str = DEFAULT_GAME):
    key = (game, spec, seat)
    agent = _WORKER_AGENTS.get(key)
    if agent is None:
        agent = parse_spec(spec, game).build()
        _WORKER_AGENTS[key] = agent
    return agent


def game_options(tech_packs: Sequence[str] = (), scenario: str | None = None) -> dict:
    """The game options of a run, as ``GameDef.new_game`` takes them: only those given (tech
    packs and a solo scenario are Electrify's; a game without them takes none)."""
    options: dict = {}
    if tech_packs:
        options["tech_packs"] = list(tech_packs)
    if scenario is not None:
        options["scenario"] = scenario
    return options


def new_game(game: str, n_players: int, seed: int, card_set: str | None = None, **options):
    """A new game of the registered game ``game`` (``GameDef.new_game``); an option the game
    does not take is refused with one line naming it."""
    gdef = get_game(game)
    try:
        return gdef.new_game(n_players=n_players, seed=seed, card_set=card_set, **options)
    except TypeError as err:
        if options and "argument" in str(err):
            raise InvalidArgumentError(f"{gdef.title} takes none of the options "
                                       f"{', '.join(options)} (tech packs and solo scenarios "
                                       "are Electrify's)") from None
        raise


def task_game(task: GameTask):
    """The game a task plays, at its start (a solo scenario's or an n-player deal)."""
    n = 1 if task.scenario is not None else len(task.lineup)
    return new_game(task.game, n, task.seed, task.card_set,
                    **game_options(task.tech_packs, task.scenario))


def play_task(task: GameTask) -> dict:
    """Play one game of the arena; return its record (JSON-ready)."""
    return play_task_game(task)[0]


def play_task_game(task: GameTask) -> tuple[dict, object]:
    """Play one game of the arena; return its record (JSON-ready) and the finished game."""
    game = task_game(task)
    agents = [_agent_for(spec, seat, task.game) for seat, spec in enumerate(task.lineup)]
    for agent, s in zip(agents, task.agent_seeds):
        agent.reset(s)
    spent = [0.0] * len(agents)
    moves = [0] * len(agents)
    while not game.is_terminal:
        p = game.current_player
        t0 = time.perf_counter()
        a = agents[p].act_in(game)
        spent[p] += time.perf_counter() - t0
        moves[p] += 1
        game.step(a)
    rec = {
        "format": REPLAY_FORMAT, "version": REPLAY_VERSION,
        **({"game": task.game} if task.game != DEFAULT_GAME else {}),
        "index": task.index, "group": task.group, "seed": task.seed,
        "n_players": game.n_players, "lineup": list(task.lineup),
        "agent_seeds": list(task.agent_seeds), "scenario": task.scenario,
        "tech_packs": list(task.tech_packs), **({"card_set": task.card_set} if task.card_set else {}),
        "card_set_hash": game.cards.hash,
        "scores": [int(x) for x in game.scores()],
        "tiebreak_keys": game.tiebreak_keys().tolist(),
        "winners": game.winners(), "decisions": len(game.history),
        "points_by_source": game.points_by_source(),
        "moves": moves, "seconds": [round(x, 4) for x in spent],
        "actions": list(game.history),
    }
    if task.scenario is not None:
        rec["solo"] = game.solo_result()
    return rec, game


def play_tasks(tasks: list[GameTask], jobs: int = 1, progress: bool = True,
               desc: str = "arena", backend: str = "local", address: str | None = None) -> list[dict]:
    """Play every task with :func:`electrify_env.parallel.parallel_map` (``jobs`` workers on
    ``backend``: spawned processes or Ray tasks); records in task order."""
    from electrify_env.parallel import parallel_map

    return parallel_map(play_task, tasks, jobs=jobs, backend=backend, address=address,
                        progress=progress, desc=desc, unit="game")


# ---- statistics ------------------------------------------------------------------------------
def _ranks(keys: list[list[int]]) -> list[int]:
    """Competition ranks (1 = best) from R18 tie-break keys; equal keys share a rank."""
    order = sorted(range(len(keys)), key=lambda i: tuple(keys[i]), reverse=True)
    ranks = [0] * len(keys)
    for pos, i in enumerate(order):
        if pos > 0 and tuple(keys[i]) == tuple(keys[order[pos - 1]]):
            ranks[i] = ranks[order[pos - 1]]
        else:
            ranks[i] = pos + 1
    return ranks


def rate(records: list[dict], agents: Iterable[str]) -> dict[str, dict]:
    """openskill Plackett-Luce ratings from the games in order.  An agent that holds several
    seats of one game gets the mean of its seats' updates."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as err:  # pragma: no cover - depends on the installed extras
        raise ImportError("the arena's ratings need openskill: pip install -e '.[arena]'") from err

    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    for rec in records:
        if rec["n_players"] < 2:
            continue
        teams = [[ratings[a]] for a in rec["lineup"]]
        new = model.rate(teams, ranks=_ranks(rec["tiebreak_keys"]))
        upd: dict[str, list] = {}
        for a, team in zip(rec["lineup"], new):
            upd.setdefault(a, []).append(team[0])
        for a, rs in upd.items():
            r = model.rating(mu=float(np.mean([x.mu for x in rs])),
                             sigma=float(np.mean([x.sigma for x in rs])), name=a)
            ratings[a] = r
    return {a: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()} for a, r in ratings.items()}


def _share(rec: dict, seat: int) -> float:
    w = rec["winners"]
    return 1.0 / len(w) if seat in w else 0.0


def _margin(rec: dict, seat: int) -> int:
    sc = rec["scores"]
    return sc[seat] - max(s for j, s in enumerate(sc) if j != seat)


def summarize(cfg: ArenaConfig, records: list[dict], groups: list) -> dict:
    """Per-agent and per-pairing statistics (multi-player) or per agent and scenario (solo)."""
    if cfg.solo is not None:
        rows = []
        for g, (agent, scen) in enumerate(groups):
            recs = [r for r in records if r["group"] == g]
            won = sum(r["solo"]["won"] for r in recs)
            lo, hi = wilson_interval(won, len(recs))
            rows.append({"agent": agent, "scenario": scen, "games": len(recs),
                         "target": recs[0]["solo"]["target"] if recs else None,
                         "success": won / max(len(recs), 1), "ci_low": lo, "ci_high": hi,
                         "mean_final_score": float(np.mean([r["solo"]["final_score"] for r in recs])),
                         "mean_points": float(np.mean([r["solo"]["score"] for r in recs])),
                         "mean_stars": float(np.mean([r["solo"]["stars"] for r in recs]))})
        return {"solo": rows}
    specs = list(dict.fromkeys(cfg.agents))
    per: dict[str, dict] = {a: {"games": 0, "wins": 0.0, "scores": [], "margins": [], "seconds": 0.0,
                                "moves": 0} for a in specs}
    for rec in records:
        for seat, a in enumerate(rec["lineup"]):
            d = per[a]
            d["games"] += 1
            d["wins"] += _share(rec, seat)
            d["scores"].append(rec["scores"][seat])
            d["margins"].append(_margin(rec, seat))
            d["seconds"] += rec["seconds"][seat]
            d["moves"] += rec["moves"][seat]
    ratings = rate(records, specs)
    agents_out = []
    for a in specs:
        d = per[a]
        lo, hi = wilson_interval(d["wins"], d["games"])
        agents_out.append({"agent": a, "games": d["games"], "wins": d["wins"],
                           "win_rate": d["wins"] / max(d["games"], 1), "ci_low": lo, "ci_high": hi,
                           "mean_score": float(np.mean(d["scores"])) if d["scores"] else 0.0,
                           "mean_margin": float(np.mean(d["margins"])) if d["margins"] else 0.0,
                           "ms_per_move": 1000 * d["seconds"] / max(d["moves"], 1),
                           "rating_mu": ratings[a]["mu"], "rating_sigma": ratings[a]["sigma"],
                           "rating_ordinal": ratings[a]["ordinal"]})
    pair_out = []
    if cfg.players == 2:
        for g, (a, b) in enumerate(groups):
            recs = [r for r in records if r["group"] == g]
            # seat of a: the first seat holding spec a (self-play: seat 0)
            wins = sum(_share(r, r["lineup"].index(a)) for r in recs)
            lo, hi = wilson_interval(wins, len(recs))
            sa = [r["scores"][r["lineup"].index(a)] for r in recs]
            sb = [r["scores"][1 - r["lineup"].index(a)] for r in recs]
            pair_out.append({"agent": a, "opponent": b, "games": len(recs), "wins": wins,
                             "win_rate": wins / max(len(recs), 1), "ci_low": lo, "ci_high": hi,
                             "mean_score": float(np.mean(sa)), "opponent_mean_score": float(np.mean(sb)),
                             "mean_margin": float(np.mean(np.array(sa) - np.array(sb)))})
    return {"agents": agents_out, "pairings": pair_out}


# ---- output ----------------------------------------------------------------------------------
def format_table(summary: dict) -> str:
    """The summary as a text table."""
    lines = []
    if "solo" in summary:
        lines.append(f"{'agent':<22} {'scenario':<16} {'target':>6} {'games':>6} {'success':>8} "
                     f"{'95% CI':>15} {'final score':>11} {'points':>7} {'stars':>6}")
        for r in summary["solo"]:
            lines.append(f"{r['agent']:<22} {r['scenario']:<16} {r['target']:>6} {r['games']:>6} "
                         f"{100 * r['success']:>7.1f}% [{100 * r['ci_low']:5.1f}, {100 * r['ci_high']:5.1f}] "
                         f"{r['mean_final_score']:>11.1f} {r['mean_points']:>7.1f} {r['mean_stars']:>6.2f}")
        return "\n".join(lines)
    lines.append(f"{'agent':<22} {'games':>6} {'win rate':>9} {'95% CI':>15} {'score':>6} "
                 f"{'margin':>7} {'rating (mu +- sigma)':>21} {'ordinal':>8} {'ms/move':>8}")
    for r in summary["agents"]:
        lines.append(f"{r['agent']:<22} {r['games']:>6} {100 * r['win_rate']:>8.1f}% "
                     f"[{100 * r['ci_low']:5.1f}, {100 * r['ci_high']:5.1f}] {r['mean_score']:>6.1f} "
                     f"{r['mean_margin']:>+7.2f} {r['rating_mu']:>12.2f} +- {r['rating_sigma']:<5.2f} "
                     f"{r['rating_ordinal']:>8.2f} {r['ms_per_move']:>8.2f}")
    if summary.get("pairings"):
        lines.append("")
        lines.append(f"{'pairing':<40} {'games':>6} {'win rate':>9} {'95% CI':>15} {'scores':>13} {'margin':>7}")
        for r in summary["pairings"]:
            name = f"{r['agent']} vs {r['opponent']}"
            lines.append(f"{name:<40} {r['games']:>6} {100 * r['win_rate']:>8.1f}% "
                         f"[{100 * r['ci_low']:5.1f}, {100 * r['ci_high']:5.1f}] "
                         f"{r['mean_score']:>6.1f}-{r['opponent_mean_score']:<6.1f} {r['mean_margin']:>+7.2f}")
    return "\n".join(lines)


def _write_csv(path: Path, rows: list[dict]) -> None:
    if not rows:
        return
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def write_chart(path: Path, summary: dict) -> None:
    """A PNG chart (a matplotlib Figure, drawn without pyplot, so the process's backend is left as
    it is): win rates with 95% intervals and ratings, or solo success rates per scenario."""
    from matplotlib.figure import Figure

    if "solo" in summary:
        rows = summary["solo"]
        agents = list(dict.fromkeys(r["agent"] for r in rows))
        scens = list(dict.fromkeys(r["scenario"] for r in rows))
        fig = Figure(figsize=(max(6, 1.3 * len(scens)), 4))
        ax = fig.subplots()
        width = 0.8 / len(agents)
        for k, a in enumerate(agents):
            ys = [next(r for r in rows if r["agent"] == a and r["scenario"] == s) for s in scens]
            x = np.arange(len(scens)) + k * width
            y = np.array([r["success"] for r in ys])
            err = np.clip(np.array([[r["success"] - r["ci_low"] for r in ys],
                                    [r["ci_high"] - r["success"] for r in ys]]), 0, None)
            ax.bar(x, 100 * y, width, yerr=100 * err, capsize=3, label=a)
        ax.set_xticks(np.arange(len(scens)) + 0.4 - width / 2, scens, rotation=30, ha="right")
        ax.set_ylabel("success rate (%)")
        ax.set_title("solo scenarios (95% Wilson intervals)")
        ax.legend()
    else:
        rows = summary["agents"]
        names = [r["agent"] for r in rows]
        fig = Figure(figsize=(max(8, 2.2 * len(names)), 4))
        ax1, ax2 = fig.subplots(1, 2)
        y = np.array([r["win_rate"] for r in rows])
        err = np.clip(np.array([[r["win_rate"] - r["ci_low"] for r in rows],
                                [r["ci_high"] - r["win_rate"] for r in rows]]), 0, None)
        ax1.bar(names, 100 * y, yerr=100 * err, capsize=4, color="tab:blue")
        ax1.set_ylabel("win rate (%)")
        ax1.set_ylim(0, 100)
        ax1.set_title("win rate (95% Wilson interval)")
        ax2.bar(names, [r["rating_mu"] for r in rows], yerr=[r["rating_sigma"] for r in rows],
                capsize=4, color="tab:green")
        ax2.set_title("openskill rating (mu +- sigma)")
        for ax in (ax1, ax2):
            ax.tick_params(axis="x", rotation=20)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


RUN_PLACE_FIELDS = ("backend", "address")
"""Configuration fields that say where the games ran, not what was played: they change no result,
so ``results.json`` leaves them out and a Ray run writes the same file as a local one (timings
aside: ``wall_seconds``, ``ms_per_move``, and each game record's ``seconds``)."""


def config_record(cfg) -> dict:
    """The configuration as ``results.json`` stores it: every field but
    :data:`RUN_PLACE_FIELDS`, and ``game`` only when it is not the default game (so an Electrify
    run writes the file it always wrote)."""
    return {k: v for k, v in asdict(cfg).items() if k not in RUN_PLACE_FIELDS
            and not (k == "game" and v == DEFAULT_GAME)}


def write_outputs(out: Path, cfg: ArenaConfig, summary: dict, records: list[dict], wall: float) -> list[Path]:
    """Write results.json, the CSV tables, games.jsonl and chart.png into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    res = {"config": config_record(cfg), "wall_seconds": round(wall, 2), **summary}
    p = out / "results.json"
    p.write_text(json.dumps(res, indent=2))
    paths.append(p)
    if "solo" in summary:
        _write_csv(out / "solo.csv", summary["solo"])
        paths.append(out / "solo.csv")
    else:
        _write_csv(out / "agents.csv", summary["agents"])
        paths.append(out / "agents.csv")
        if summary.get("pairings"):
            _write_csv(out / "pairings.csv", summary["pairings"])
            paths.append(out / "pairings.csv")
    p = out / "games.jsonl"
    with p.open("w") as f:
        for rec in records:
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
    paths.append(p)
    p = out / "chart.png"
    try:
        write_chart(p, summary)
        paths.append(p)
    except Exception as err:  # a chart problem must not lose the results written above
        import warnings

        warnings.warn(f"could not draw {p}: {err}")
    return paths


OUTPUT_FILES = ("results.json", "agents.csv", "pairings.csv", "solo.csv", "games.jsonl", "chart.png")


def check_out_folder(out: str | Path) -> Path:
    """Make sure the results can be written to ``out`` (creating the folder), before any game
    is played; raise InvalidArgumentError naming the folder otherwise."""
    path = Path(out)
    if path.exists() and not path.is_dir():
        raise InvalidArgumentError(f"out: {path} is a file, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError as err:
        raise InvalidArgumentError(f"out: cannot write to the folder {path} "
                                   f"({err.strerror or err.__class__.__name__})") from None
    for name in OUTPUT_FILES:
        if (path / name).is_dir():
            raise InvalidArgumentError(f"out: {path / name} is a folder; the arena writes a file there")
    return path


def resolve_scenarios(solo: Sequence[str]) -> list[str]:
    """Scenario ids and files of a solo arena: ``"all"`` expands to every shipped scenario, a
    path (``x.yaml``, or with a folder) becomes the absolute path of a scenario file that loads.
    Raises ValueError (unknown id, or the file's own ScenarioError)."""
    from electrify_env.scenarios import list_scenarios, load_scenario

    known = list_scenarios()
    out: list[str] = []
    bad = []
    for s in solo:
        s = str(s).strip()
        if s == "all":
            out.extend(known)
        elif "/" in s or "\\" in s or s.endswith((".yaml", ".yml")):
            load_scenario(s)             # refuses a missing or invalid file, naming it
            out.append(str(Path(s).resolve()))
        elif s in known:
            out.append(s)
        else:
            bad.append(s)
    if bad:
        raise ValueError(f"unknown scenario(s) {', '.join(bad)}; known: {', '.join(known)} "
                         "(or 'all', or a scenario file path)")
    return list(dict.fromkeys(out))


def check_agent_specs(specs, probe, game: str = DEFAULT_GAME) -> None:
    """Build every agent of ``specs`` once before playing, so a bad weights file or policy fails
    now and not in a worker after games were played.  A ``ppo`` policy is checked without loading
    torch: its metadata must fit the engine, the card set and the mode of play of the ``probe``
    game (a solo policy only in solo play, a seat policy only in multi-player games).  The specs
    are of the registered game ``game``."""
    for spec in dict.fromkeys(specs):
        parsed = parse_spec(spec, game)
        if parsed.name == "ppo":
            from .ppo import check_policy_file

            if check_policy_file(parsed.params.get("path", ""), n_players=probe.n_players,
                                 card_set_hash=probe.cards.hash) is None:
                parsed.build()   # a plain sb3-contrib zip: loading it checks its spaces
        else:
            try:
                parsed.build()
            except (OSError, ValueError) as err:
                if isinstance(err, AgentError):
                    raise
                raise AgentError(f"agents: {spec}: {err}") from None


def check_agents(cfg: ArenaConfig) -> None:
    """:func:`check_agent_specs` for an arena configuration (its game's options are checked on
    a probe game first)."""
    scenario = cfg.solo[0] if cfg.solo is not None else None
    probe = new_game(cfg.game, 1 if scenario is not None else cfg.players, 0,
                     **game_options(cfg.tech_packs, scenario))
    check_agent_specs(cfg.agents, probe, cfg.game)


def run_arena(cfg: ArenaConfig) -> dict:
    """Validate (configuration, scenarios, agents and the output folder, all before the first
    game), play, summarise and (if ``cfg.out``) write everything; return
    ``{"summary", "records", "wall_seconds", "files"}``."""
    cfg.validate()
    if cfg.solo is not None:
        cfg.solo = resolve_scenarios(cfg.solo)
    check_agents(cfg)
    out = check_out_folder(cfg.out) if cfg.out else None
    tasks, groups = make_tasks(cfg)
    t0 = time.time()
    records = play_tasks(tasks, jobs=cfg.jobs, progress=cfg.progress, backend=cfg.backend,
                         address=cfg.address)
    wall = time.time() - t0
    summary = summarize(cfg, records, groups)
    files = write_outputs(out, cfg, summary, records, wall) if out is not None else []
    return {"summary": summary, "records": records, "wall_seconds": wall, "files": files}
