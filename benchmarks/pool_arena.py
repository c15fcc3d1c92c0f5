"""Pool several 2-player arena runs of the same agents on different seeds into one table: games,
wins, win rate and Wilson 95% interval over all of them, counted as ``electrify arena`` counts
one run (a shared win counts 1/k; ``electrify_env.agents.arena.summarize``).  Two 400-game runs
against mcts (seeds 11 and 41) pooled into 800 games:

    python benchmarks/pool_arena.py runs/arena_net_mcts_s11 runs/arena_net_mcts_s41

Each folder is an arena ``--out`` folder (``results.json`` and ``games.jsonl``).  Runs of other
agents, player counts or tech packs, solo runs, and two runs of one seed (the same games twice)
are refused.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from electrify_env.agents.arena import ArenaConfig, format_table, pairings, summarize


def pool(folders: list[str | Path], same: dict[str, str] | None = None) -> dict:
    """The pooled summary (``summarize``'s dict: ``agents`` and ``pairings``) of the arena runs
    written to ``folders``; ``same`` maps an agent spec to another that plays the same policy
    (``net:path=FILE`` and the registered name of FILE), counted under the second.  ValueError
    for folders that cannot be pooled."""
    same = same or {}
    if len(folders) < 2:
        raise ValueError("name at least two arena folders to pool")
    configs, records = [], []
    for folder in folders:
        path = Path(folder)
        try:
            cfg = json.loads((path / "results.json").read_text())["config"]
            lines = (path / "games.jsonl").read_text().splitlines()
        except (OSError, KeyError, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not an arena output folder ({err})") from None
        if cfg.get("solo") is not None or cfg.get("players") != 2:
            raise ValueError(f"{path}: only 2-player runs are pooled")
        cfg["agents"] = [same.get(a, a) for a in cfg.get("agents", [])]
        configs.append(cfg)
        for line in lines:
            if line.strip():
                rec = json.loads(line)
                rec["lineup"] = [same.get(a, a) for a in rec["lineup"]]
                records.append(rec)
    first = configs[0]
    for folder, cfg in zip(folders, configs):
        for key in ("agents", "tech_packs"):
            if cfg.get(key) != first.get(key):
                raise ValueError(f"{folder}: {key} {cfg.get(key)} differ from {first.get(key)}")
    seeds = [cfg["seed"] for cfg in configs]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"two runs share a seed ({seeds}): the same games would count twice")
    cfg = ArenaConfig(agents=list(first["agents"]), players=2, games=len(records), seed=seeds[0],
                      tech_packs=list(first.get("tech_packs", [])), out=None, progress=False)
    return summarize(cfg, records, pairings(cfg.agents))


def main(argv=None) -> None:
    """Print the pooled table of the arena folders named on the command line."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", help="arena output folders (results.json, games.jsonl)")
    ap.add_argument("--same", action="append", default=[], metavar="SPEC=NAME",
                    help="count agent SPEC as NAME (the same policy named two ways, e.g. "
                         "net:path=policies/electrify-2p-net.pt=trained_2p_net); repeatable")
    args = ap.parse_args(argv)
    same = {}
    for item in args.same:
        spec, eq, name = item.rpartition("=")
        if not eq or not spec or not name:
            ap.error(f"--same expects SPEC=NAME, got {item!r}")
        same[spec] = name
    try:
        summary = pool(args.folders, same)
    except ValueError as err:
        sys.exit(f"pool_arena: {err}")
    print(format_table(summary))


if __name__ == "__main__":
    main()
