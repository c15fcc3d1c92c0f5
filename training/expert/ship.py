"""Ship a policy-value file and record its arena evaluations.

``python -m electrify_env.training.expert.ship copy RUN/policy.pt policies/gizmos-2p.pt
[--search S,D,C]`` copies a trained file (and its metadata) into ``policies/``, optionally
setting the search it plays with (``S`` waves, ``D`` determinizations, ``C`` considered actions;
``0`` for the network alone).

``python -m electrify_env.training.expert.ship record policies/gizmos-2p.pt ARENA_OUT`` appends
the evaluation row of an ``electrify arena --out ARENA_OUT`` run of that policy (the first agent
of a 2-agent line-up, or of a 3-4 player line-up whose other seats are one opponent, such as
``policy,greedy,greedy``) against its opponent to the metadata's ``evaluation`` list: agent spec,
opponent, players, games, seed, win rate, Wilson interval, ms per move, the command, and the
smallest game seed the run played (``min_game_seed``; above the training range
:data:`~.trainer.TRAINING_SEEDS`, so training played none of those games).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from electrify_env.validation import InvalidArgumentError

from ..config import ConfigError
from .trainer import TRAINING_SEEDS

__all__ = ["copy_policy", "record_evaluation", "arena_command"]


def _meta_path(p: Path) -> Path:
    return p.with_name(p.name.removesuffix(".pt") + ".meta.json")


def copy_policy(src: str | Path, dest: str | Path, search: tuple[int, int, int] | None = None) -> Path:
    """Copy ``src`` (``.pt`` and ``.meta.json``) to ``dest``; ``search`` sets the play-time search
    (``(0, 0, 0)``: the network alone).  The evaluation list starts empty."""
    src, dest = Path(src), Path(dest)
    if not src.is_file() or not _meta_path(src).is_file():
        raise InvalidArgumentError(f"ship: {src} or its metadata is missing")
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)
    meta = json.loads(_meta_path(src).read_text())
    if search is not None:
        s, d, c = (int(x) for x in search)
        meta["search"] = None if s == 0 else {"simulations": s, "determinizations": d, "considered": c}
    meta["evaluation"] = []
    _meta_path(dest).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return dest


def arena_command(cfg: dict) -> str:
    """The ``electrify arena`` command line of an arena run's config."""
    agents = ",".join(cfg["agents"])
    return (f"electrify arena --game {cfg['game']} --agents {agents} --players {cfg['players']} "
            f"--games {cfg['games']} --seed {cfg['seed']} --jobs {cfg['jobs']}")


def record_evaluation(policy: str | Path, arena_out: str | Path) -> dict:
    """Append the row of the arena run in ``arena_out`` to ``policy``'s evaluation list (module
    docstring); returns the row."""
    policy, out = Path(policy), Path(arena_out)
    res = json.loads((out / "results.json").read_text())
    cfg = res["config"]
    agents = cfg["agents"]
    if len(agents) != 2 and not (len(agents) == cfg["players"] > 2 and len(set(agents[1:])) == 1 != len(set(agents))):
        raise InvalidArgumentError(f"ship: {out} is neither a two-agent arena run nor a line-up of one agent "
                                   f"against copies of one opponent")
    seeds = [json.loads(line)["seed"] for line in (out / "games.jsonl").read_text().splitlines() if line.strip()]
    lo = min(seeds)
    if lo < TRAINING_SEEDS[1]:
        raise InvalidArgumentError(f"ship: {out} played game seed {lo}, inside the training range "
                                   f"[{TRAINING_SEEDS[0]}, {TRAINING_SEEDS[1]}); use another arena seed")
    me = res["agents"][0]
    row = {"agent": me["agent"], "opponent": cfg["agents"][1], "players": cfg["players"], "games": me["games"],
           "seed": cfg["seed"], "win_rate": me["win_rate"], "ci_low": me["ci_low"], "ci_high": me["ci_high"],
           "ms_per_move": me["ms_per_move"], "command": arena_command(cfg), "min_game_seed": lo}
    mp = _meta_path(policy)
    meta = json.loads(mp.read_text())
    meta.setdefault("evaluation", []).append(row)
    mp.write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return row


def main(argv: list[str] | None = None) -> int:
    """The command line of the module docstring."""
    ap = argparse.ArgumentParser(prog="python -m electrify_env.training.expert.ship")
    sub = ap.add_subparsers(dest="cmd", required=True)
    cp = sub.add_parser("copy", help="copy a trained file into policies/")
    cp.add_argument("src")
    cp.add_argument("dest")
    cp.add_argument("--search", default=None, help="S,D,C: waves, determinizations, considered (0: network alone)")
    rc = sub.add_parser("record", help="append an arena run's row to a policy's evaluation list")
    rc.add_argument("policy")
    rc.add_argument("arena_out")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "copy":
            search = None if args.search is None else tuple(int(x) for x in args.search.split(","))
            if search is not None and len(search) != 3:
                raise InvalidArgumentError("ship: --search takes S,D,C")
            print(copy_policy(args.src, args.dest, search))
        else:
            print(json.dumps(record_evaluation(args.policy, args.arena_out)))
    except (InvalidArgumentError, ConfigError, ValueError, OSError) as err:
        print(f"ship: error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
