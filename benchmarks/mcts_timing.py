"""Per-searched-move timing of a searching agent: mcts against another agent (the mean, p50, p99
and max ms per searched move of docs/benchmarks.md), or a policy with a rollout lookahead
(``electrify_env.agents.net.RolloutLookahead``, e.g. the shipped solo policy) in solo games or at a table.

    python benchmarks/mcts_timing.py --games 20 --seed 0
    python benchmarks/mcts_timing.py --agent mcts:iters=36:top_k=3:horizon=2 --opponent greedy --games 800 --seed 0
    python benchmarks/mcts_timing.py --agent trained_solo --solo steady_current --games 10 --seed 0

The games are those of ``electrify arena --agents AGENT,OPPONENT --players 2 --games N --seed S``
(3-4 players: the line-up AGENT,OPPONENT,OPPONENT[,OPPONENT]; ``--solo SCENARIO``: those of
``electrify arena --agents AGENT --solo SCENARIO --games N --seed S``)
(same seats, game seeds and agent seeds, from ``electrify_env.agents.arena.make_tasks``), played in this one
process so that every move can be timed.  A searched move is one where the agent ran its search
(its ``searched`` counter rose; moves with one legal action, follow-up decisions outside
``search=key`` or outside a lookahead's decision types, and single candidates are played at once
and are not counted).  For each searched
move the script records the wall time of the whole ``act`` call (view, evaluation, search) and
of the search alone (the agent's own ``seconds``), and the process CPU time of the ``act`` call
(less sensitive to other load on the machine than wall time), and prints their mean, median, p99
and max.
The compile / cache-load time is spent on a warm-up move before the first game.
"""
from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from electrify_env.agents import parse_spec
from electrify_env.agents.arena import ArenaConfig, make_tasks, task_game
from electrify_env.agents.trained import NetAgent
from electrify_env.agents.policy_meta import policy_lookaheads

MCTS = "mcts:iters=36:top_k=3:horizon=2"


def summary(ms: np.ndarray) -> str:
    """'mean M  p50 P  p99 Q  max X' of times in milliseconds."""
    if ms.size == 0:
        return "no searched moves"
    return (f"mean {ms.mean():6.1f}  p50 {np.percentile(ms, 50):6.1f}  p99 {np.percentile(ms, 99):6.1f}"
            f"  max {ms.max():6.1f}")


def time_games(agent_spec: str, opponent: str, players: int, games: int, seed: int,
               solo: str | None = None) -> dict:
    """Play the arena's games of ``agent_spec`` against ``opponent`` (or its solo games of the
    scenario ``solo``); return per-move timings (milliseconds) of ``agent_spec``'s searched moves
    and the game results (solo: successes)."""
    lineup = [agent_spec] + ([] if solo is not None else [opponent] * (players - 1))
    cfg = ArenaConfig(agents=lineup, players=players, games=games, seed=seed,
                      out=None, progress=False, solo=None if solo is None else [solo])
    cfg.validate()
    tasks, _ = make_tasks(cfg)
    warm = parse_spec(agent_spec).build()
    warm.reset(0)
    t0 = time.perf_counter()
    warm.act_in(task_game(tasks[0]))
    warmup_s = time.perf_counter() - t0
    act_ms, cpu_ms, search_ms, other_ms = [], [], [], []
    wins, played = 0, 0
    for task in tasks:
        game = task_game(task)
        seats = [parse_spec(spec).build() for spec in task.lineup]
        for agent, s in zip(seats, task.agent_seeds):
            agent.reset(s)
        mine = [p for p, spec in enumerate(task.lineup) if spec == agent_spec]
        while not game.is_terminal:
            p = game.current_player
            agent = seats[p]
            if p in mine:
                n0, s0 = agent.searched, agent.seconds
                c0, t0 = time.process_time(), time.perf_counter()
                a = agent.act_in(game)
                dt = (time.perf_counter() - t0) * 1000.0
                if agent.searched > n0:
                    act_ms.append(dt)
                    cpu_ms.append((time.process_time() - c0) * 1000.0)
                    search_ms.append((agent.seconds - s0) * 1000.0)
                else:
                    other_ms.append(dt)
            else:
                a = agent.act_in(game)
            game.step(a)
        played += 1
        wins += bool(game.solo_result()["won"]) if solo is not None else any(p in game.winners() for p in mine)
    return {"act_ms": np.array(act_ms), "cpu_ms": np.array(cpu_ms), "search_ms": np.array(search_ms),
            "other_ms": np.array(other_ms), "wins": wins, "games": played, "warmup_s": warmup_s}


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--agent", default=MCTS, help=f"the searching agent (default {MCTS})")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--solo", default=None, metavar="SCENARIO",
                    help="time the agent's solo games of this scenario (no opponent)")
    args = ap.parse_args(argv)
    if args.games < 1:
        ap.error(f"--games must be at least 1, got {args.games}")
    try:
        agent = parse_spec(args.agent).build()
    except Exception as exc:     # an unknown agent or bad parameters: the registry's message
        ap.error(f"--agent {args.agent!r}: {exc}")
    meta = getattr(agent, "meta", None)     # a policy searches only where it has a lookahead
    if not hasattr(agent, "searched") or (isinstance(agent, NetAgent) and not (meta and policy_lookaheads(meta))):
        ap.error(f"--agent must be a searching agent (mcts, or a policy with a rollout lookahead), "
                 f"got {args.agent!r}")
    if args.solo is None and args.agent == args.opponent:
        ap.error("--agent and --opponent must differ (their moves are told apart by spec)")
    t0 = time.time()
    r = time_games(args.agent, args.opponent, args.players, args.games, args.seed, args.solo)
    if args.solo is not None:
        print(f"{args.agent}, solo {args.solo}, {r['games']} games, seed {args.seed} (the games of: "
              f"electrify arena --agents {args.agent} --solo {args.solo} --games {args.games} --seed {args.seed})")
    else:
        lineup = ",".join([args.agent] + [args.opponent] * (args.players - 1))
        print(f"{args.agent} vs {args.opponent}, {args.players} players, {r['games']} games, seed {args.seed}"
              f" (the games of: electrify arena --agents {lineup} --players {args.players} "
              f"--games {args.games} --seed {args.seed})")
    print(f"warm-up move (compile or cache load): {r['warmup_s']:.2f} s")
    n_all = r["act_ms"].size + r["other_ms"].size
    print(f"searched moves: {r['act_ms'].size} of {n_all} moves "
          f"({r['act_ms'].size / max(r['games'], 1):.1f} per game)")
    print(f"per searched move, whole act() [ms]:  {summary(r['act_ms'])}")
    print(f"per searched move, search only [ms]:  {summary(r['search_ms'])}")
    print(f"per searched move, CPU time [ms]:     {summary(r['cpu_ms'])}")
    print(f"other moves (no search) [ms]:         {summary(r['other_ms'])}")
    verb = "succeeded in" if args.solo is not None else "won"
    print(f"{args.agent} {verb} {r['wins']} of {r['games']} games; {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
