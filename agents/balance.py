"""Balance reports: where the points come from, how fair the seats are, which styles beat which,
which cards get bought and win, which sectors get planned, and how long games last.

``electrify balance`` (and :func:`run_balance`) plays seeded games between agents of the registry
on any card set and tech packs, reads each finished game back and writes a report.

Line-ups (``agents``, ``players``):

* **mirror**: one spec (``--agents greedy --players 4``), or a line-up of one spec repeated:
  ``n`` identical agents sit as they are; every game is a new deal, since rotating identical
  agents would only replay a deal.  Any number of games.
* **2 players, several specs**: every pairing of the arena (:func:`electrify_env.agents.arena.pairings`);
  **3-4 players**: the line-up, one spec per seat.  Each deal is played in every seat rotation
  (``games`` a multiple of ``players``) with the arena's seeds, so a balance run and an arena run
  with the same seed play the same games.
* **solo** (``solo``): every agent plays ``games`` games of every scenario.

What is measured (every number comes from the game records, never from text):

* **points by source**: the engine's per-player counters (``Game.points_by_source``: demand
  basic, demand priority, research spaces, research group bonuses; solo stars), summed for the
  winners, for all players and for each agent; totals, points per player and shares.
* **seats**: each seat's win share (a shared win counts 1/k) with a Wilson 95% interval
  (:func:`electrify_env.agents.arena.wilson_interval`), the fair share 1/n and the deviation from it.
* **match-ups**: for each pair of distinct specs, how often the first finishes ahead of the
  second (R18 tie-break keys; a tie counts one half; with several seats of one spec, the mean over
  its seat pairs).  In 2-player games this is the win rate.  Wilson 95% intervals.
* **cards**: per card of the set, how often it was offered (legal to buy at an Acquire decision
  that ended the step: a purchase or a pass), bought (a basic card: which face), played free
  (industry breakthrough), the share of games in which somebody bought it, and the win rate of
  the players who bought it.
* **sectors**: per sector, how often it was planned (all players and winners) and the boosts
  offered and taken on it (innovation, collaboration).
* **length**: decisions and rounds per game, and decisions per game of each seat.

Purchases, plans and boosts are read by replaying each record's actions with the engine
(:func:`read_game`): the action codec (:func:`electrify_env.actions.decode`) names the action
taken and ``Game.decision()`` lists what was legal, with ``refs`` naming the card behind an option.

Outputs (in ``out``): ``results.json`` (configuration and every table), ``points.csv``,
``seats.csv``, ``matchups.csv``, ``agents.csv`` (or ``solo.csv``), ``cards.csv``,
``sectors.csv``, ``length.csv``, ``games.jsonl`` (the arena's game records: replay files for
``electrify replay``) and the plots ``points.png``, ``seats.png``, ``matchups.png``,
``cards.png``, ``sectors.png``, ``length.png`` (each where it has something to show).

**Other games** (``game="gizmos"``, ``electrify balance --game gizmos``): the line-ups, seeds,
seat, match-up, agent and length tables are the same; the points by source are the game's own
(``Game.points_by_source``), and instead of the card, sector and plan tables the report counts
what the game's facts hook returns (``GameDef.game_facts``, for Gizmos
:func:`electrify_env.gizmos.report.game_facts`): the rounds, how each game ended (``endings``:
games and share per ending, for Gizmos G20's end condition or the round cap) and the card
effects in the tableaux (``tableaux``: per effect label, machines in winners' and in all
tableaux, the share of winners and of all players holding one, and the win rate of its holders,
Wilson 95%).  Solo play and tech packs are Electrify's.

Games run in this process, in ``jobs`` spawned processes or as Ray tasks (``backend="ray"``,
:mod:`electrify_env.parallel`); every file is the same on each (timings aside:
``wall_seconds`` and each game record's ``seconds``).
"""
from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import numpy as np

from electrify_env.actions import decode
from electrify_env.decision import pending_frame_type
from electrify_env.engine import layout as L
from electrify_env.games import DEFAULT_GAME, get_game
from electrify_env.validation import InvalidArgumentError, check_players

from . import arena as A

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.figure import Figure

    from electrify_env.cards import CardSet
    from electrify_env.game import Game

#: point sources, in report order (the engine's PTS_SOURCE_NAMES, then the solo stars)
SOURCES: tuple[str, ...] = (*L.PTS_SOURCE_NAMES, "solo_stars")
#: sources that count as demand / research points
DEMAND_SOURCES = ("demand_basic", "demand_priority")
RESEARCH_SOURCES = ("research_space", "research_group")
SOURCE_LABELS = {"demand_basic": "demand basic", "demand_priority": "demand priority",
                 "research_space": "research spaces", "research_group": "research groups",
                 "solo_stars": "solo stars"}
BOOST_KINDS = ("innovation", "collaboration")

CSV_FILES = ("points.csv", "seats.csv", "matchups.csv", "agents.csv", "solo.csv", "cards.csv",
             "sectors.csv", "length.csv", "endings.csv", "tableaux.csv")
PLOT_FILES = ("points.png", "seats.png", "matchups.png", "cards.png", "sectors.png", "length.png")
OUTPUT_FILES = ("results.json", *CSV_FILES, "games.jsonl", *PLOT_FILES)


@dataclass
class BalanceConfig:
    """What a balance report plays.

    Attributes:
        agents: agent specs of the registry (``greedy``, ``research_rush``, ``mcts:iters=48``).
            One spec: a mirror line-up of ``players`` copies.  2 players: every pairing of the
            specs.  3-4 players: the line-up, one spec per seat (repeats allowed).
        players: 2, 3 or 4 (ignored in solo play).
        games: games per line-up (per pairing with 2 players; per agent and scenario in solo
            play); a multiple of ``players`` where the line-up is rotated (not a mirror).
        seed: the master seed; every game and agent seed derives from it.
        jobs: worker processes (1: play in this process); with ``backend="ray"`` and no
            ``address``, the CPUs of the local Ray it starts.
        cards: card-set YAML (None: the shipped base set).
        tech_packs: tech pack names or files to shuffle in.
        solo: scenario ids, scenario files or ``"all"`` for solo play (None: multi-player).
        out: output folder (None: write nothing), checked before any game is played.
        progress: show a tqdm progress bar.
        backend: ``"local"`` or ``"ray"`` (Ray tasks, :mod:`electrify_env.parallel`); the report
            is the same on both.
        address: the Ray cluster to join (``HOST:6379`` or ``"auto"``; None starts a local Ray).
            Only with ``backend="ray"``.
        game: the registered game to play (:mod:`electrify_env.games`; default Electrify).
    """

    agents: list[str]
    players: int = 2
    games: int = 100
    seed: int = 0
    jobs: int = 1
    cards: str | None = None
    tech_packs: list[str] = field(default_factory=list)
    solo: list[str] | None = None
    out: str | None = "balance_out"
    progress: bool = True
    backend: str = "local"
    address: str | None = None
    game: str = DEFAULT_GAME

    def validate(self) -> None:
        """Check everything that can be checked without playing; raise InvalidArgumentError
        (naming the field), AgentError, CardSetError or ScenarioError."""
        if not self.agents:
            raise InvalidArgumentError("agents: give at least one agent spec (e.g. greedy)")
        A.check_run_fields(self)
        if self.solo is not None:
            self.solo = A.resolve_scenarios(self.solo)
            return
        self.players = check_players(self.players, name="players")
        n = self.players
        counts = A.multi_player_counts(self.game)
        if n not in counts:
            raise InvalidArgumentError(f"players: {get_game(self.game).title} takes "
                                       f"{counts[0]}-{counts[-1]} players, got {n}")
        if n > 2 and len(self.agents) not in (1, n):
            raise InvalidArgumentError(f"agents: a {n}-player report takes one spec (a mirror) or a "
                                       f"line-up of exactly {n} specs, got {len(self.agents)}")
        rotated = [g for g in self.lineups() if not is_mirror(g)]
        if rotated and self.games % n:
            raise InvalidArgumentError(f"games: must be a multiple of {n} (the line-up "
                                       f"{','.join(rotated[0])} is played in every seat rotation), "
                                       f"got {self.games}")

    def lineups(self) -> list[tuple[str, ...]]:
        """The groups played: line-ups as given (multi-player) or (agent, scenario) pairs (solo)."""
        if self.solo is not None:
            return [(a, s) for a in dict.fromkeys(self.agents) for s in self.solo]
        n = self.players
        if len(self.agents) == 1:
            return [tuple(self.agents) * n]
        return A.pairings(self.agents) if n == 2 else [tuple(self.agents)]


def is_mirror(lineup: Sequence[str]) -> bool:
    """True for a line-up of identical specs (seat rotation changes nothing)."""
    return len(set(lineup)) == 1


@dataclass(frozen=True)
class BalanceTask:
    """One game to play: the arena's task plus the card-set file (None: the base set)."""

    game: A.GameTask
    cards: str | None = None


def make_tasks(cfg: BalanceConfig) -> tuple[list[BalanceTask], list[tuple[str, ...]]]:
    """The games of a (validated) configuration and its groups.  Rotated line-ups use the arena's
    seeds (:func:`electrify_env.agents.arena.make_tasks`); a mirror deals a new game every time."""
    groups = cfg.lineups()
    tech = tuple(cfg.tech_packs)
    if cfg.solo is not None:
        acfg = A.ArenaConfig(agents=list(cfg.agents), games=cfg.games, seed=cfg.seed,
                             solo=list(cfg.solo), tech_packs=list(tech), out=None, game=cfg.game)
        tasks, _ = A.make_tasks(acfg)
        return [BalanceTask(t, cfg.cards) for t in tasks], groups
    tasks = []
    n = cfg.players
    for g, lineup in enumerate(groups):
        mirror = is_mirror(lineup)
        for i in range(cfg.games):
            deal, rot = (i, 0) if mirror else divmod(i, n)
            seats = tuple(lineup[(j + rot) % n] for j in range(n))
            t = A.GameTask(len(tasks), g, seats, A._derive(cfg.seed, 0, g, deal),
                           tuple(A._derive(cfg.seed, 3, g, i, j) for j in range(n)), None, tech,
                           game=cfg.game)
            tasks.append(BalanceTask(t, cfg.cards))
    return tasks, groups


# ---- playing and reading a game (worker side) -------------------------------------------------
def _new_game(record: dict, cards: "CardSet | str | None") -> "Game":
    """A new game of a record: its seed, players or scenario, and card set (a loaded CardSet
    already holds its tech packs; a path or None gets the record's)."""
    from electrify_env.cards import CardSet
    from electrify_env.game import Game

    packs = () if isinstance(cards, CardSet) else record.get("tech_packs", [])
    if record.get("scenario") is not None:
        return Game(seed=record["seed"], card_set=cards, tech_packs=packs, scenario=record["scenario"])
    return Game(n_players=record["n_players"], seed=record["seed"], card_set=cards, tech_packs=packs)


def play_game(task: BalanceTask) -> dict:
    """Play one game; return the arena's game record (:func:`electrify_env.agents.arena.play_task`, which also
    names the card-set file under ``card_set``) with the game's facts under ``"facts"``:
    :func:`read_game` for Electrify, the game's ``GameDef.game_facts`` of the finished game for
    any other game."""
    rec, game = A.play_task_game(replace(task.game, card_set=task.cards))
    rec["card_set"] = task.cards
    if task.game.game == DEFAULT_GAME:
        rec["facts"] = read_game(rec, _new_game(rec, task.cards).cards)
    else:
        rec["facts"] = get_game(task.game.game).game_facts(game)
    return rec


def card_keys(cards: "CardSet") -> list[tuple[str, str, str]]:
    """(card id, label, deck) of every buyable card of ``cards``: the industry cards (tech pack
    cards included) in table order, then the basic cards."""
    out = []
    for k, cid in enumerate(cards.card_ids):
        deck = "infrastructure" if int(cards.table[L.T_IND_DECK + k]) else "production"
        pack = int(cards.table[L.T_IND_PACK + k])
        if pack:
            deck += f" ({cards.pack_names[pack - 1]})"
        out.append((cid, cards.face_names[L.FACE_IND + k], deck))
    for b in cards.model.basic:
        out.append((b.id, f"{b.id} {b.name}".strip(), "basic"))
    return out


def _option_card(cards: "CardSet", kind: str, refs) -> str | None:
    """The card id an Acquire / free-card option points at (its ``refs``), or None."""
    if kind == "card_hand":
        return cards.card_ids[refs["card"]]
    if kind == "card_basic":
        return cards.model.basic[(refs["face"] - L.FACE_BASIC) // 2].id
    return None


def _frame_type(game: "Game") -> int:
    """Frame type of the pending decision (``FT_*``; FT_NONE when the stack is empty)."""
    return pending_frame_type(game.state)


def read_game(record: dict, cards: "CardSet | str | None" = None) -> dict:
    """Replay a game record's actions and return what the balance report counts::

        {"rounds": 12,
         "plans": [[sector per Plan step] per seat],
         "boosts": [[seat, sector, "innovation" | "collaboration", taken 0/1], ...],
         "offered": {card id: [count per seat]},   # legal at an Acquire decision that ended it
         "bought":  {card id: [count per seat]},   # bought at Acquire
         "free":    {card id: [count per seat]},   # played free at an industry breakthrough
         "faces":   {basic card id: [face 0, face 1]}}   # faces bought (all seats)

    ``cards`` is the game's card set (a CardSet or a path; None: the record's ``card_set``, else
    the base set).  Offers are counted once per Acquire step, at the decision that ends it (a
    purchase or a pass), so any-time actions taken before do not count a card twice.  Raises
    InvalidSaveError if an action does not replay."""
    from electrify_env.savefile import InvalidSaveError

    if cards is None:
        cards = record.get("card_set")
    game = _new_game(record, cards)
    cs = game.cards
    n = game.n_players
    plans: list[list[int]] = [[] for _ in range(n)]
    boosts: list[list] = []
    offered: dict[str, list[int]] = {}
    bought: dict[str, list[int]] = {}
    free: dict[str, list[int]] = {}
    faces: dict[str, list[int]] = {}

    def bump(table: dict, key: str, seat: int) -> None:
        table.setdefault(key, [0] * n)[seat] += 1

    for k, a in enumerate(record["actions"]):
        act = decode(a)
        seat = game.current_player
        if act.kind == "plan":
            plans[seat].append(act.args["sector"])
        elif act.kind in ("boost", "pass", "card_hand", "card_basic"):
            ft = _frame_type(game)
            if ft in (L.FT_BOOST, L.FT_ACQUIRE, L.FT_CARD_CHOICE):
                d = game.decision()
                chosen = next((o for o in d.options if o.id == act.id), None)   # None: illegal
                taken = _option_card(cs, chosen.kind, chosen.refs) if chosen is not None else None
                if ft == L.FT_BOOST:
                    boosts.append([seat, plans[seat][-1], d.context["boost"], int(act.kind == "boost")])
                elif ft == L.FT_ACQUIRE:
                    # a basic card counts once however many of its faces are offered
                    for key in dict.fromkeys(_option_card(cs, o.kind, o.refs) for o in d.options):
                        if key is not None:
                            bump(offered, key, seat)
                    if taken is not None:
                        bump(bought, taken, seat)
                        if chosen.kind == "card_basic":
                            faces.setdefault(taken, [0, 0])[chosen.args["face"]] += 1
                elif taken is not None:
                    bump(free, taken, seat)
        try:
            game.step(a)
        except ValueError as err:
            raise InvalidSaveError(f"actions[{k}]", str(err)) from None
    return {"rounds": int(game.round), "plans": plans, "boosts": boosts,
            "offered": offered, "bought": bought, "free": free, "faces": faces}


def play_games(tasks: list[BalanceTask], jobs: int = 1, progress: bool = True,
               backend: str = "local", address: str | None = None) -> list[dict]:
    """Play every task with :func:`electrify_env.parallel.parallel_map` (``jobs`` workers on
    ``backend``: spawned processes or Ray tasks); records in task order."""
    from electrify_env.parallel import parallel_map

    return parallel_map(play_game, tasks, jobs=jobs, backend=backend, address=address,
                        progress=progress, desc="balance", unit="game")


# ---- statistics -------------------------------------------------------------------------------
def _label(lineup: Sequence[str]) -> str:
    return f"{lineup[0]} x{len(lineup)}" if is_mirror(lineup) else ",".join(lineup)


def _points_row(population: str, rows: list[dict], sources: Sequence[str] = SOURCES) -> dict:
    """Totals, points per player and shares of the point ``sources`` of ``rows`` (one per
    player); with Electrify's sources, also the demand and research shares."""
    tot = {s: sum(int(r.get(s, 0)) for r in rows) for s in sources}
    total = sum(tot.values())
    out: dict = {"population": population, "players": len(rows), "points": total,
                 "points_per_player": total / len(rows) if rows else 0.0}
    out.update(tot)
    for s in sources:
        out[f"{s}_share"] = tot[s] / total if total else 0.0
    if set(DEMAND_SOURCES + RESEARCH_SOURCES) <= set(sources):
        out["demand_share"] = sum(tot[s] for s in DEMAND_SOURCES) / total if total else 0.0
        out["research_share"] = sum(tot[s] for s in RESEARCH_SOURCES) / total if total else 0.0
    return out


def record_sources(records: list[dict]) -> list[str]:
    """The point sources of the records' ``points_by_source``, in order of first appearance."""
    return list(dict.fromkeys(k for r in records for pb in r["points_by_source"] for k in pb))


def points_table(records: list[dict], sources: Sequence[str] = SOURCES) -> list[dict]:
    """Points by source for the winners, all players and (with several specs) each agent."""
    winners = [r["points_by_source"][s] for r in records for s in r["winners"]]
    everyone = [pb for r in records for pb in r["points_by_source"]]
    rows = [_points_row("winners", winners, sources), _points_row("all players", everyone, sources)]
    specs = list(dict.fromkeys(a for r in records for a in r["lineup"]))
    if len(specs) > 1:
        for spec in specs:
            rows.append(_points_row(f"agent {spec}", [r["points_by_source"][s] for r in records
                                                      for s, a in enumerate(r["lineup"]) if a == spec], sources))
            rows.append(_points_row(f"agent {spec} winners", [r["points_by_source"][s] for r in records
                                                            for s in r["winners"] if r["lineup"][s] == spec],
                                    sources))
    return rows


def ending_table(records: list[dict]) -> list[dict]:
    """How the games ended (the facts' ``ended_by``): games, share and mean rounds per ending, in
    order of first appearance."""
    endings = list(dict.fromkeys(r["facts"]["ended_by"] for r in records))
    rows = []
    for e in endings:
        recs = [r for r in records if r["facts"]["ended_by"] == e]
        rows.append({"ended_by": e, "games": len(recs), "share": len(recs) / len(records),
                     "mean_rounds": _mean(r["facts"]["rounds"] for r in recs)})
    return rows


def tableau_table(records: list[dict]) -> list[dict]:
    """Per card-effect label of the facts' ``tableaux``: machines with it in winners' and in all
    tableaux, the share of winners and of all players holding at least one, and the win rate of
    its holders (shared wins 1/k; Wilson 95%); most often in winners' tableaux first."""
    labels: dict[str, dict] = {}
    n_winners = n_players = 0
    for r in records:
        for seat, tab in enumerate(r["facts"]["tableaux"]):
            won = seat in r["winners"]
            n_players += 1
            n_winners += won
            for label in tab:
                d = labels.setdefault(label, {"winner_machines": 0, "machines": 0, "winners_holding": 0,
                                              "holders": 0, "holder_wins": 0.0})
                d["machines"] += 1
                d["winner_machines"] += won
            for label in set(tab):
                d = labels[label]
                d["holders"] += 1
                d["winners_holding"] += won
                d["holder_wins"] += A._share(r, seat)
    rows = []
    for label, d in labels.items():
        lo, hi = A.wilson_interval(d["holder_wins"], d["holders"])
        rows.append({"effect": label, "winner_machines": d["winner_machines"], "machines": d["machines"],
                     "winners_holding_share": d["winners_holding"] / n_winners if n_winners else 0.0,
                     "players_holding_share": d["holders"] / n_players if n_players else 0.0,
                     "holders": d["holders"], "holder_win_rate": d["holder_wins"] / d["holders"],
                     "ci_low": lo, "ci_high": hi})
    return sorted(rows, key=lambda r: (-r["winner_machines"], r["effect"]))


def seat_table(records: list[dict], groups: list[tuple[str, ...]]) -> list[dict]:
    """Per group and seat: win share (shared wins 1/k) with a Wilson 95% interval, the fair share
    1/n, mean score and decisions per game."""
    rows = []
    for g, lineup in enumerate(groups):
        recs = [r for r in records if r["group"] == g]
        n = len(lineup)
        for seat in range(n):
            wins = sum(A._share(r, seat) for r in recs)
            lo, hi = A.wilson_interval(wins, len(recs))
            share = wins / len(recs) if recs else 0.0
            rows.append({"lineup": _label(lineup), "seat": seat, "games": len(recs), "wins": wins,
                         "win_share": share, "ci_low": lo, "ci_high": hi, "fair": 1 / n,
                         "deviation": share - 1 / n,
                         "mean_score": _mean([r["scores"][seat] for r in recs]),
                         "mean_decisions": _mean([r["moves"][seat] for r in recs])})
    return rows


def _ahead(keys: list[list[int]], i: int, j: int) -> float:
    a, b = tuple(keys[i]), tuple(keys[j])
    return 1.0 if a > b else 0.5 if a == b else 0.0


def matchup_table(records: list[dict]) -> list[dict]:
    """For each pair of distinct specs (order of first appearance): games with both, how often
    the first finishes ahead of the second (R18 keys; ties 1/2; the mean over seat pairs when a
    spec holds several seats) with a Wilson 95% interval, and both mean scores."""
    specs = list(dict.fromkeys(a for r in records for a in r["lineup"]))
    rows = []
    for i, a in enumerate(specs):
        for b in specs[i + 1:]:
            wins, sa, sb, games = 0.0, [], [], 0
            for r in records:
                seats_a = [s for s, x in enumerate(r["lineup"]) if x == a]
                seats_b = [s for s, x in enumerate(r["lineup"]) if x == b]
                if not seats_a or not seats_b:
                    continue
                games += 1
                wins += _mean([_ahead(r["tiebreak_keys"], p, q) for p in seats_a for q in seats_b])
                sa += [r["scores"][p] for p in seats_a]
                sb += [r["scores"][q] for q in seats_b]
            if not games:
                continue
            lo, hi = A.wilson_interval(wins, games)
            rows.append({"agent": a, "opponent": b, "games": games, "wins": wins,
                         "win_rate": wins / games, "ci_low": lo, "ci_high": hi,
                         "mean_score": _mean(sa), "opponent_mean_score": _mean(sb),
                         "mean_margin": _mean(sa) - _mean(sb)})
    return rows


def card_table(records: list[dict], cards: "CardSet") -> list[dict]:
    """Per card of the set: offers, purchases (basic cards: per face), free plays, the share of
    games in which somebody bought it, and the win rate (Wilson 95%) of the players who bought it."""
    rows = []
    n_games = len(records)
    for cid, label, deck in card_keys(cards):
        offered = bought = free = games_bought = buyers = 0
        buyer_wins = 0.0
        faces = [0, 0]
        for r in records:
            f = r["facts"]
            for k, c in enumerate(f["faces"].get(cid, ())):
                faces[k] += c
            offered += sum(f["offered"].get(cid, ()))
            free += sum(f["free"].get(cid, ()))
            per_seat = f["bought"].get(cid)
            if per_seat and sum(per_seat):
                bought += sum(per_seat)
                games_bought += 1
                for seat, c in enumerate(per_seat):
                    if c:
                        buyers += 1
                        buyer_wins += A._share(r, seat)
        lo, hi = A.wilson_interval(buyer_wins, buyers)
        rows.append({"card": cid, "name": label, "deck": deck, "offered": offered,
                     "bought": bought, "buy_rate_when_offered": bought / offered if offered else 0.0,
                     "bought_face0": faces[0] if deck == "basic" else None,
                     "bought_face1": faces[1] if deck == "basic" else None,
                     "free": free, "games_bought": games_bought,
                     "games_bought_share": games_bought / n_games if n_games else 0.0,
                     "buyers": buyers, "buyer_wins": buyer_wins,
                     "buyer_win_rate": buyer_wins / buyers if buyers else 0.0,
                     "ci_low": lo, "ci_high": hi})
    return rows


def sector_table(records: list[dict], cards: "CardSet") -> tuple[list[dict], list[list[int]]]:
    """Per sector: Plan choices (all players, winners) and boosts offered / taken on it; and the
    plan counts per Plan step (rows) and sector (columns)."""
    ns = len(cards.sector_names)
    plans = [0] * ns
    won = [0] * ns
    by_round: list[list[int]] = []
    boosts = {(k, s): [0, 0] for k in BOOST_KINDS for s in range(ns)}
    for r in records:
        f = r["facts"]
        for seat, seq in enumerate(f["plans"]):
            for step, s in enumerate(seq):
                plans[s] += 1
                won[s] += seat in r["winners"]
                while len(by_round) <= step:
                    by_round.append([0] * ns)
                by_round[step][s] += 1
        for _seat, s, kind, taken in f["boosts"]:
            boosts[(kind, s)][0] += 1
            boosts[(kind, s)][1] += taken
    total, total_won = sum(plans), sum(won)
    rows = []
    for s, name in enumerate(cards.sector_names):
        row = {"sector": name, "plans": plans[s], "plan_share": plans[s] / total if total else 0.0,
               "winner_plans": won[s], "winner_plan_share": won[s] / total_won if total_won else 0.0}
        for kind in BOOST_KINDS:
            off, taken = boosts[(kind, s)]
            row[f"{kind}_offered"] = off
            row[f"{kind}_taken"] = taken
            row[f"{kind}_take_rate"] = taken / off if off else 0.0
        rows.append(row)
    return rows, by_round


def _mean(xs) -> float:
    xs = list(xs)
    return float(sum(xs) / len(xs)) if xs else 0.0


def _spread(what: str, seat: str, xs: list[float]) -> dict:
    return {"what": what, "seat": seat, "games": len(xs), "mean": _mean(xs),
            "sd": float(statistics.pstdev(xs)) if xs else 0.0,
            "min": min(xs) if xs else 0, "median": float(statistics.median(xs)) if xs else 0.0,
            "max": max(xs) if xs else 0}


def length_table(records: list[dict]) -> list[dict]:
    """Decisions per game, rounds per game, and decisions per game of each seat."""
    rows = [_spread("decisions", "all", [r["decisions"] for r in records]),
            _spread("rounds", "all", [r["facts"]["rounds"] for r in records])]
    n = max((r["n_players"] for r in records), default=0)
    for seat in range(n):
        rows.append(_spread("decisions", str(seat), [r["moves"][seat] for r in records
                                                     if seat < r["n_players"]]))
    return rows


def summarize(cfg: BalanceConfig, records: list[dict], groups: list[tuple[str, ...]]) -> dict:
    """Every table of the report (see the module docstring) from the game records."""
    if cfg.game != DEFAULT_GAME:
        return summarize_facts(cfg, records, groups)
    from electrify_env.cards import load_card_set
    from electrify_env.game import resolve_tech_pack

    cards = load_card_set(cfg.cards, tech_packs=[resolve_tech_pack(p) for p in cfg.tech_packs])
    sectors, by_round = sector_table(records, cards)
    base = sum(A._share(r, s) for r in records for s in range(r["n_players"]))
    out = {"games": len(records), "card_set": cards.name, "card_set_hash": cards.hash,
           "lineups": [_label(g) for g in groups] if cfg.solo is None else None,
           "win_rate_all_players": base / sum(r["n_players"] for r in records) if records else 0.0,
           "points": points_table(records)}
    acfg = A.ArenaConfig(agents=list(cfg.agents), players=cfg.players, games=cfg.games,
                         seed=cfg.seed, solo=cfg.solo, out=None, progress=False)
    if cfg.solo is None:
        out["seats"] = seat_table(records, groups)
        out["matchups"] = matchup_table(records)
        out["agents"] = A.summarize(acfg, records, groups)["agents"]
    else:
        out["solo"] = A.summarize(acfg, records, groups)["solo"]
    out["cards"] = card_table(records, cards)
    out["sectors"] = sectors
    out["plans_by_round"] = by_round
    out["length"] = length_table(records)
    return out


def summarize_facts(cfg: BalanceConfig, records: list[dict], groups: list[tuple[str, ...]]) -> dict:
    """The report of a game other than Electrify (module docstring): the shared tables, the
    game's own points by source, and the endings and tableaux of its facts."""
    probe = A.new_game(cfg.game, cfg.players, 0, cfg.cards)
    base = sum(A._share(r, s) for r in records for s in range(r["n_players"]))
    acfg = A.ArenaConfig(agents=list(cfg.agents), players=cfg.players, games=cfg.games,
                         seed=cfg.seed, out=None, progress=False, game=cfg.game)
    return {"game": cfg.game, "games": len(records), "card_set": getattr(probe.cards, "name", cfg.game),
            "card_set_hash": probe.cards.hash, "lineups": [_label(g) for g in groups],
            "win_rate_all_players": base / sum(r["n_players"] for r in records) if records else 0.0,
            "points": points_table(records, record_sources(records)),
            "seats": seat_table(records, groups), "matchups": matchup_table(records),
            "agents": A.summarize(acfg, records, groups)["agents"],
            "endings": ending_table(records), "tableaux": tableau_table(records),
            "length": length_table(records)}


def _shown_sources(rows: list[dict]) -> list[str]:
    """The point sources of a points table (the keys with a share), those with points first
    kept in table order."""
    keys = [k for k in rows[0] if f"{k}_share" in rows[0]] if rows else []
    return [s for s in keys if any(r[s] for r in rows)]


# ---- text ---------------------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:5.1f}%"


def format_report(summary: dict, top_cards: int = 10) -> str:
    """The report as text tables (the CSV files hold every row)."""
    game = f"{get_game(summary['game']).title}: " if "game" in summary else ""
    lines = [f"{game}{summary['games']} games, card set {summary['card_set']} ({summary['card_set_hash'][:12]})", ""]
    shown = _shown_sources(summary["points"])
    split = bool(summary["points"]) and "demand_share" in summary["points"][0]
    lines.append("points by source (share of the population's points)")
    lines.append(f"{'population':<34} {'players':>7} {'pts/pl':>6} "
                 + " ".join(f"{SOURCE_LABELS.get(s, s):>16}" for s in shown)
                 + (f" {'demand':>7} {'research':>8}" if split else ""))
    for r in (r for r in summary["points"] if r["players"]):
        lines.append(f"{r['population'][:34]:<34} {r['players']:>7} {r['points_per_player']:>6.1f} "
                     + " ".join(f"{_pct(r[s + '_share']):>16}" for s in shown)
                     + (f" {_pct(r['demand_share']):>7} {_pct(r['research_share']):>8}" if split else ""))
    if summary.get("seats"):
        lines += ["", "seats (win share, shared wins 1/k; 95% Wilson interval)"]
        lines.append(f"{'line-up':<34} {'seat':>4} {'games':>6} {'win share':>9} {'95% CI':>15} "
                     f"{'fair':>6} {'dev':>7} {'score':>6} {'decisions':>9}")
        for r in summary["seats"]:
            lines.append(f"{r['lineup'][:34]:<34} {r['seat']:>4} {r['games']:>6} {_pct(r['win_share']):>9} "
                         f"[{100 * r['ci_low']:5.1f}, {100 * r['ci_high']:5.1f}] {_pct(r['fair']):>6} "
                         f"{100 * r['deviation']:>+6.1f}p {r['mean_score']:>6.1f} {r['mean_decisions']:>9.1f}")
    if summary.get("matchups"):
        lines += ["", "match-ups (first finishes ahead of second; ties 1/2; 95% Wilson interval)"]
        lines.append(f"{'agent vs opponent':<44} {'games':>6} {'rate':>7} {'95% CI':>15} {'scores':>13}")
        for r in summary["matchups"]:
            name = f"{r['agent']} vs {r['opponent']}"
            lines.append(f"{name[:44]:<44} {r['games']:>6} {_pct(r['win_rate']):>7} "
                         f"[{100 * r['ci_low']:5.1f}, {100 * r['ci_high']:5.1f}] "
                         f"{r['mean_score']:>6.1f}-{r['opponent_mean_score']:<6.1f}")
    if summary.get("solo"):
        lines += ["", A.format_table({"solo": summary["solo"]})]
    if "cards" in summary:
        lines += _card_and_sector_lines(summary, top_cards)
    if summary.get("endings"):
        lines += ["", "endings"]
        lines.append(f"{'ended by':<22} {'games':>6} {'share':>7} {'rounds':>7}")
        for r in summary["endings"]:
            lines.append(f"{r['ended_by'][:22]:<22} {r['games']:>6} {_pct(r['share']):>7} {r['mean_rounds']:>7.1f}")
    if summary.get("tableaux"):
        lines += ["", f"tableaux: the {top_cards} card effects most often in winners' tableaux "
                      "(all in tableaux.csv)"]
        lines.append(f"{'effect':<30} {'in winners':>10} {'winners':>8} {'players':>8} "
                     f"{'holders win':>11} {'95% CI':>15}")
        for r in summary["tableaux"][:top_cards]:
            lines.append(f"{r['effect'][:30]:<30} {r['winner_machines']:>10} "
                         f"{_pct(r['winners_holding_share']):>8} {_pct(r['players_holding_share']):>8} "
                         f"{_pct(r['holder_win_rate']):>11} [{100 * r['ci_low']:5.1f}, {100 * r['ci_high']:5.1f}]")
    lines += _length_lines(summary)
    return "\n".join(lines)


def _card_and_sector_lines(summary: dict, top_cards: int) -> list[str]:
    """The card and sector sections of an Electrify report."""
    lines = ["", f"cards: the {top_cards} bought most often when offered (of cards offered at "
                  "least 10 times; all cards in cards.csv)"]
    lines.append(f"{'card':<34} {'deck':<16} {'offered':>7} {'bought':>6} {'rate':>7} {'free':>5} "
                 f"{'in games':>8} {'buyers win':>10} {'95% CI':>15}")
    ranked = sorted((r for r in summary["cards"] if r["offered"] >= 10),
                    key=lambda r: (-r["buy_rate_when_offered"], r["card"]))[:top_cards]
    for r in ranked:
        lines.append(f"{r['name'][:34]:<34} {r['deck'][:16]:<16} {r['offered']:>7} {r['bought']:>6} "
                     f"{_pct(r['buy_rate_when_offered']):>7} {r['free']:>5} {_pct(r['games_bought_share']):>8} "
                     f"{_pct(r['buyer_win_rate']):>10} [{100 * r['ci_low']:5.1f}, {100 * r['ci_high']:5.1f}]")
    lines += ["", "sectors (Plan choices; boosts offered -> taken)"]
    lines.append(f"{'sector':<26} {'plans':>6} {'share':>7} {'winners':>8} {'innovation':>11} {'collaboration':>14}")
    for r in summary["sectors"]:
        lines.append(f"{r['sector'][:26]:<26} {r['plans']:>6} {_pct(r['plan_share']):>7} "
                     f"{_pct(r['winner_plan_share']):>8} "
                     f"{r['innovation_offered']:>5} -> {r['innovation_taken']:<3} "
                     f"{r['collaboration_offered']:>7} -> {r['collaboration_taken']:<3}")
    return lines


def _length_lines(summary: dict) -> list[str]:
    """The game-length section."""
    lines = ["", "game length"]
    lines.append(f"{'per game':<22} {'mean':>8} {'sd':>7} {'min':>6} {'median':>7} {'max':>6}")
    for r in summary["length"]:
        what = r["what"] if r["seat"] == "all" else f"decisions of seat {r['seat']}"
        lines.append(f"{what:<22} {r['mean']:>8.1f} {r['sd']:>7.1f} {r['min']:>6} "
                     f"{r['median']:>7.1f} {r['max']:>6}")
    return lines


# ---- plots --------------------------------------------------------------------------------------
def _figure(w: float, h: float, ncols: int = 1):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), layout="constrained")
    return fig, fig.subplots(1, ncols)


def _errors(rows: list[dict], key: str) -> np.ndarray:
    return 100 * np.clip(np.array([[r[key] - r["ci_low"] for r in rows],
                                   [r["ci_high"] - r[key] for r in rows]]), 0, None)


def plot_points(summary: dict) -> "Figure":
    """Stacked shares of the point sources for each population."""
    rows = summary["points"]
    shown = _shown_sources(rows) or (list(L.PTS_SOURCE_NAMES) if rows and "demand_share" in rows[0]
                                     else [k for k in (rows[0] if rows else {}) if f"{k}_share" in rows[0]])
    fig, ax = _figure(9, 1.2 + 0.45 * len(rows))
    left = np.zeros(len(rows))
    names = [f"{r['population']} ({r['points_per_player']:.1f} pts)" for r in rows]
    colors = {"demand_basic": "tab:blue", "demand_priority": "tab:cyan", "research_space": "tab:orange",
              "research_group": "tab:red", "solo_stars": "tab:olive"}
    for s in shown:
        w = np.array([100 * r[f"{s}_share"] for r in rows])
        ax.barh(names, w, left=left, label=SOURCE_LABELS.get(s, s), color=colors.get(s))
        left += w
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of points (%)")
    ax.set_title("points by source")
    ax.legend(loc="lower right", fontsize="small")
    return fig


def plot_seats(summary: dict) -> "Figure":
    """Win share per seat (95% Wilson intervals) for each line-up, with the fair share."""
    rows = summary["seats"]
    lineups = list(dict.fromkeys(r["lineup"] for r in rows))
    fig, ax = _figure(max(6, 1.8 * len(lineups) + 3), 4)
    n = max(r["seat"] for r in rows) + 1
    width = 0.8 / n
    for seat in range(n):
        rs = [r for r in rows if r["seat"] == seat]
        x = np.array([lineups.index(r["lineup"]) for r in rs]) + seat * width
        ax.bar(x, [100 * r["win_share"] for r in rs], width, yerr=_errors(rs, "win_share"),
               capsize=3, label=f"seat {seat}")
    for k, lu in enumerate(lineups):
        fair = 100 * next(r["fair"] for r in rows if r["lineup"] == lu)
        ax.hlines(fair, k - width / 2, k + 0.8 - width / 2, colors="black", linestyles="dashed")
    ax.set_xticks(np.arange(len(lineups)) + 0.4 - width / 2, lineups)
    ax.set_ylabel("win share (%)")
    ax.set_title("seat win shares (95% Wilson interval; dashed: fair share)")
    ax.legend(fontsize="small")
    return fig


def plot_matchups(summary: dict) -> "Figure":
    """How often each agent finishes ahead of each opponent (95% Wilson intervals)."""
    rows = summary["matchups"]
    fig, ax = _figure(8, 1.2 + 0.5 * len(rows))
    names = [f"{r['agent']} vs {r['opponent']}" for r in rows]
    ax.barh(names, [100 * r["win_rate"] for r in rows], xerr=_errors(rows, "win_rate"), capsize=4,
            color="tab:purple")
    ax.axvline(50, color="black", linestyle="dashed")
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("finishes ahead (%)")
    ax.set_title("match-ups (95% Wilson interval)")
    return fig


def plot_cards(summary: dict) -> "Figure":
    """Each bought card: buy rate when offered against the win rate of its buyers (marker
    size: players who bought it)."""
    rows = [r for r in summary["cards"] if r["buyers"]]
    fig, ax = _figure(8, 5.5)
    decks = list(dict.fromkeys(r["deck"] for r in rows))
    top = max((r["buyers"] for r in rows), default=1)
    for d in decks:
        rs = [r for r in rows if r["deck"] == d]
        ax.scatter([100 * r["buy_rate_when_offered"] for r in rs], [100 * r["buyer_win_rate"] for r in rs],
                   s=[10 + 150 * r["buyers"] / top for r in rs], alpha=0.6, label=d)
    for r in sorted(rows, key=lambda r: -r["bought"])[:8]:
        ax.annotate(r["card"], (100 * r["buy_rate_when_offered"], 100 * r["buyer_win_rate"]),
                    fontsize="x-small")
    ax.axhline(100 * summary["win_rate_all_players"], color="black", linestyle="dashed")
    ax.set_xlabel("bought when offered (%)")
    ax.set_ylabel("win rate of its buyers (%)")
    ax.set_title("cards bought (size: buyers; dashed: win rate of all players)")
    ax.legend(fontsize="small")
    return fig


def plot_sectors(summary: dict) -> "Figure":
    """Plan choices per sector (all players, winners) and the boosts taken on each."""
    rows = summary["sectors"]
    fig, (ax1, ax2) = _figure(11, 4, ncols=2)
    x = np.arange(len(rows))
    names = [r["sector"] for r in rows]
    ax1.bar(x - 0.2, [100 * r["plan_share"] for r in rows], 0.4, label="all players")
    ax1.bar(x + 0.2, [100 * r["winner_plan_share"] for r in rows], 0.4, label="winners")
    ax1.set_ylabel("share of Plan choices (%)")
    ax1.set_title("sectors planned")
    ax1.legend(fontsize="small")
    for k, kind in enumerate(BOOST_KINDS):
        ax2.bar(x + (k - 0.5) * 0.4, [r[f"{kind}_offered"] for r in rows], 0.4, alpha=0.35,
                color=f"C{k + 2}", label=f"{kind} offered")
        ax2.bar(x + (k - 0.5) * 0.4, [r[f"{kind}_taken"] for r in rows], 0.4, color=f"C{k + 2}",
                label=f"{kind} taken")
    ax2.set_title("boosts per sector")
    ax2.legend(fontsize="small")
    for ax in (ax1, ax2):
        ax.set_xticks(x, names, rotation=20, ha="right")
    return fig


def plot_length(summary: dict, records: list[dict] | None = None) -> "Figure":
    """Mean decisions per game of each seat (error bars: sd), and the spread of decisions per
    game (a histogram when the records are given)."""
    rows = summary["length"]
    seats = [r for r in rows if r["seat"] != "all"]
    fig, (ax1, ax2) = _figure(10, 3.8, ncols=2)
    ax1.bar([f"seat {r['seat']}" for r in seats], [r["mean"] for r in seats],
            yerr=[r["sd"] for r in seats], capsize=4, color="tab:gray")
    ax1.set_ylabel("decisions per game")
    ax1.set_title("decisions per game by seat (error bar: sd)")
    if records:
        ax2.hist([r["decisions"] for r in records], bins=min(30, max(5, len(records) // 4)), color="tab:blue")
        ax2.set_xlabel("decisions per game")
        ax2.set_ylabel("games")
    else:
        d = rows[0]
        ax2.boxplot([[d["min"], d["median"], d["max"]]], vert=False)
    d = rows[0]
    ax2.set_title(f"game length: {d['mean']:.0f} decisions (sd {d['sd']:.0f}), "
                  f"{rows[1]['mean']:.0f} rounds")
    return fig


def figures(summary: dict, records: list[dict] | None = None) -> dict[str, "Figure"]:
    """Every plot that has something to show, by file stem (``points``, ``seats``, ...)."""
    out = {"points": plot_points(summary)}
    if summary.get("seats"):
        out["seats"] = plot_seats(summary)
    if summary.get("matchups"):
        out["matchups"] = plot_matchups(summary)
    if any(r["buyers"] for r in summary.get("cards", ())):
        out["cards"] = plot_cards(summary)
    if any(r["plans"] for r in summary.get("sectors", ())):
        out["sectors"] = plot_sectors(summary)
    out["length"] = plot_length(summary, records)
    return out


# ---- files and the whole run --------------------------------------------------------------------
def write_outputs(out: Path, cfg: BalanceConfig, summary: dict, records: list[dict],
                  wall: float) -> list[Path]:
    """Write results.json, the CSV tables, games.jsonl and the PNG plots into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    p = out / "results.json"
    p.write_text(json.dumps({"config": A.config_record(cfg), "wall_seconds": round(wall, 2), **summary}, indent=2))
    paths = [p]
    for key in ("points", "seats", "matchups", "agents", "solo", "cards", "sectors", "length", "endings",
                "tableaux"):
        if summary.get(key):
            A._write_csv(out / f"{key}.csv", summary[key])
            paths.append(out / f"{key}.csv")
    p = out / "games.jsonl"
    with p.open("w") as f:
        for rec in records:
            f.write(json.dumps({k: v for k, v in rec.items() if k != "facts"}, separators=(",", ":")) + "\n")
    paths.append(p)
    try:
        for stem, fig in figures(summary, records).items():
            fig.savefig(out / f"{stem}.png", dpi=110)
            paths.append(out / f"{stem}.png")
    except Exception as err:  # a plot problem must not lose the results written above
        import warnings

        warnings.warn(f"could not draw the plots in {out}: {err}")
    return paths


def check_out_folder(out: str | Path) -> Path:
    """The arena's check of ``out`` (a writable folder, created if needed) plus: none of the
    report's file names is taken by a folder.  Raises InvalidArgumentError naming the path."""
    path = A.check_out_folder(out)
    for name in OUTPUT_FILES:
        if (path / name).is_dir():
            raise InvalidArgumentError(f"out: {path / name} is a folder; the balance report writes a file there")
    return path


def check_agents(cfg: BalanceConfig) -> None:
    """Build every agent once before playing (:func:`electrify_env.agents.arena.check_agent_specs`), against a
    probe game of this report's game, card set, tech packs and mode of play."""
    scenario = cfg.solo[0] if cfg.solo is not None else None
    probe = A.new_game(cfg.game, 1 if scenario is not None else cfg.players, 0, cfg.cards,
                       **A.game_options(cfg.tech_packs, scenario))
    A.check_agent_specs(cfg.agents, probe, cfg.game)


def run_balance(cfg: BalanceConfig) -> dict:
    """Check everything (configuration, card set, tech packs, scenarios, agents, the output
    folder) before the first game, play, summarise and, if ``cfg.out``, write the files.
    Returns ``{"summary", "records", "wall_seconds", "files"}``."""
    cfg.validate()
    check_agents(cfg)   # loads the card set and tech packs (CardSetError names the file)
    out = check_out_folder(cfg.out) if cfg.out else None
    tasks, groups = make_tasks(cfg)
    t0 = time.time()
    records = play_games(tasks, jobs=cfg.jobs, progress=cfg.progress, backend=cfg.backend,
                         address=cfg.address)
    wall = time.time() - t0
    summary = summarize(cfg, records, groups)
    files = write_outputs(out, cfg, summary, records, wall) if out is not None else []
    return {"summary": summary, "records": records, "wall_seconds": wall, "files": files}
