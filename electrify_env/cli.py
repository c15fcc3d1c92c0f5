"""The ``electrify`` command line.

    electrify demo --players 4 --seed 7      play a game between random agents, print the end
    electrify demo --solo first_light        play a solo scenario with a random agent
    electrify demo --game gizmos --players 3 play a game of Gizmos between random agents
    electrify cards validate PATH            check a card-set file and print a summary
    electrify soak --games 10000             random games with invariants checked every decision
    electrify scenarios [ID]                 list the solo scenarios, or describe one
    electrify layout                         print the state / action / card-table layouts
    electrify arena --agents greedy,mcts,random --players 2 --games 200 --jobs 2
                                             seat-rotated games between agents: win rates, ratings
    electrify arena --agents random,greedy --solo all --games 100
                                             every agent on every solo scenario
    electrify arena --game gizmos --agents greedy,random --games 40 --seed 5
                                             the arena for Gizmos (`electrify agents --game gizmos`)
    electrify replay arena_out/games.jsonl --game 3 [--auto --delay 0.05]
                                             replay an arena game move by move
    electrify serve                          play in the browser (http://127.0.0.1:8000/)
    electrify play --opponents greedy,mcts --seed 7
                                             play in the terminal (u undo, h hint, s FILE save)
    electrify agents                         list the agents (shipped policies too)
    electrify train configs/electrify-2p-from-scratch.yaml [--set total_steps=200000]
                                             train a policy (self-play league, or solo)
    electrify train --backend rllib configs/rllib_2p.yaml [--set iterations=5]
                                             multi-agent PPO on Ray RLlib (self-play)
    electrify exploit trained_2p --steps 200000 --points 4 --games 400 --seed 7100
                                             train a best response to a shipped policy and
                                             measure its win rate against it along the run
    electrify --version                      print the installed version
    electrify balance --agents greedy --players 4 --games 1600 --seed 5 --jobs 2
                                             balance report: points by source, seat fairness,
                                             match-ups, card purchases, sectors, game length
    electrify arena ... --backend ray [--address HEAD:6379]
                                             (and balance, teacher-data) games as Ray tasks
    electrify teacher-data --agent mcts:iters=36:top_k=3:horizon=2 --players 2 --games 200 --out t.jsonl
                                             search-agent games for imitation (replays)

Player counts (2-4), game counts (positive) and seeds (0..2**62-1) are checked with the same
functions as ``Game`` and the environments (:mod:`electrify_env.validation`) before a command
runs; a bad value prints the usage and one ``electrify CMD: error: argument --X: ...`` line and
the exit status is 2.  A command whose optional dependencies are missing prints one line naming
them and the extra that installs them (``pip install -e ".[arena]"`` in a source checkout,
``pip install "electrify-env[arena]"`` from a wheel; :mod:`electrify_env.extras`) and exits 2
before it does any work.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np


def _cmd_demo(args: argparse.Namespace) -> int:
    from .games import get_game

    gdef = get_game(args.game)
    if gdef.demo:
        print(gdef.demo_text(args.players, args.seed, args.cards))
        return 0
    from .game import Game, play_random

    packs = [p for p in (args.tech or "").split(",") if p]
    if args.solo:
        game = Game(seed=args.seed, card_set=args.cards, tech_packs=packs, scenario=args.solo)
    else:
        game = Game(n_players=args.players or 4, seed=args.seed, card_set=args.cards, tech_packs=packs)
    rng = np.random.default_rng(args.seed)
    play_random(game, rng)
    print(game.render(hands=False))
    if game.is_solo:
        r = game.solo_result()
        print(f"\n{len(game.history)} decisions. Scenario {r['scenario']}: {r['final_score']} of "
              f"{r['target']} points -> {'won' if r['won'] else 'lost'}")
        return 0
    keys = game.tiebreak_keys()
    print()
    print("seat  points  breakthroughs  marker  cube value")
    for p in range(game.n_players):
        print(f"{p:>4}  {keys[p, 0]:>6}  {keys[p, 1]:>13}  {keys[p, 2]:>6}  {keys[p, 3]:>10}")
    win = game.winners()
    print(f"\n{len(game.history)} decisions. Winner: {'shared by ' if len(win) > 1 else ''}"
          f"{', '.join('player %d' % p for p in win)}")
    return 0


def _cmd_cards(args: argparse.Namespace) -> int:
    from .cards import CardSetError, validate_summary
    from .yamlio import read_yaml_mapping

    try:
        if "pack" in read_yaml_mapping(args.path, CardSetError):
            # a tech-pack file is checked on top of the base set (or --base)
            print(validate_summary(args.base, tech_packs=(args.path,)))
        else:
            print(validate_summary(args.path))
    except CardSetError as err:
        print(f"invalid card set: {err}", file=sys.stderr)
        return 1
    return 0


def _cmd_soak(args: argparse.Namespace) -> int:
    from .soak import soak

    from .game import resolve_tech_pack
    from .scenarios import list_scenarios

    players = args.players or (2, 3, 4)
    packs = [resolve_tech_pack(p) for p in (args.tech or "").split(",") if p]
    from .cards import load_card_set
    cards = load_card_set(args.cards, tech_packs=packs)
    scen = list_scenarios() if args.solo == "all" else [s for s in (args.solo or "").split(",") if s]
    res = soak(args.games, players=players, seed=args.seed, card_set=cards, scenarios=scen)
    what = f"solo {','.join(scen)}" if scen else f"players {players}"
    print(f"{res.games} games, {res.decisions} decisions, {what}, tech packs {list(cards.pack_names) or 'none'}: "
          f"{'no invariant broken' if res.ok else str(len(res.failures)) + ' failures'}")
    for seed, where, k, msg in res.failures[:20]:
        print(f"  seed {seed}, {where}, decision {k}: {msg}")
    return 0 if res.ok else 1


def _cmd_scenarios(args: argparse.Namespace) -> int:
    from .scenarios import load_scenario, scenarios_table

    if args.id:
        print(load_scenario(args.id).describe())
    else:
        print(scenarios_table())
    return 0


def _cmd_layout(args: argparse.Namespace) -> int:
    from .engine.layout import layout_markdown

    print(layout_markdown())
    return 0


def _items(text: str | None) -> list[str]:
    """A comma-separated option as a list of its non-empty, stripped items."""
    return [x.strip() for x in (text or "").split(",") if x.strip()]


def _cmd_arena(args: argparse.Namespace) -> int:
    from electrify_env.agents.arena import ArenaConfig, format_table, run_arena

    # run_arena checks everything (agents, scenarios, tech packs, --out) before the first game
    cfg = ArenaConfig(agents=_items(args.agents), players=args.players,
                      games=args.games, seed=args.seed, jobs=args.jobs,
                      solo=None if args.solo is None else _items(args.solo),
                      tech_packs=_items(args.tech),
                      out=None if args.out == "-" else args.out, progress=not args.quiet,
                      backend=args.backend, address=args.address, game=args.game)
    res = run_arena(cfg)
    print(format_table(res["summary"]))
    print(f"\n{len(res['records'])} games in {res['wall_seconds']:.1f} s (seed {cfg.seed}, {_where(cfg)})")
    for f in res["files"]:
        print(f"wrote {f}")
    return 0


def _cmd_balance(args: argparse.Namespace) -> int:
    from electrify_env.agents.balance import BalanceConfig, format_report, run_balance

    # run_balance checks everything (agents, card set, tech packs, scenarios, --out) before playing
    cfg = BalanceConfig(agents=_items(args.agents), players=args.players, games=args.games,
                        seed=args.seed, jobs=args.jobs, cards=args.cards, tech_packs=_items(args.tech),
                        solo=None if args.solo is None else _items(args.solo),
                        out=None if args.out == "-" else args.out, progress=not args.quiet,
                        backend=args.backend, address=args.address, game=args.game)
    res = run_balance(cfg)
    print(format_report(res["summary"]))
    print(f"\n{len(res['records'])} games in {res['wall_seconds']:.1f} s (seed {cfg.seed}, {_where(cfg)})")
    for f in res["files"]:
        print(f"wrote {f}")
    return 0


def _where(cfg) -> str:
    """Where a run's games were played, for its closing line: ``jobs 2`` or ``ray, jobs 2``
    or ``ray at HOST:6379``."""
    if cfg.backend != "ray":
        return f"jobs {cfg.jobs}"
    return f"ray at {cfg.address}" if cfg.address else f"ray, jobs {cfg.jobs}"


def _cmd_teacher_data(args: argparse.Namespace) -> int:
    from electrify_env.training.teacher import TeacherConfig, format_summary, merge_teacher_files, run_teacher

    if args.merge is not None:
        res = merge_teacher_files(_items(args.merge), args.out)
        print(format_summary(res["header"], res["records"]))
        print(f"merged {len(res['header']['merged'])} files into {res['file']}")
        return 0

    # run_teacher checks everything (agent, card set, tech packs, scenarios, --out) before playing
    cfg = TeacherConfig(agent=args.agent, players=args.players, games=args.games, seed=args.seed,
                        jobs=args.jobs, solo=None if args.solo is None else _items(args.solo),
                        cards=args.cards, tech_packs=_items(args.tech), out=args.out,
                        progress=not args.quiet, backend=args.backend, address=args.address)
    res = run_teacher(cfg)
    print(format_summary(res["header"], res["records"]))
    print(f"{len(res['records'])} games in {res['wall_seconds']:.1f} s (seed {cfg.seed}, {_where(cfg)})")
    print(f"wrote {res['file']}")
    return 0


def _add_game_argument(parser: argparse.ArgumentParser, text: str = "the game to play") -> None:
    """``--game NAME`` (arena, balance, agents): a registered game (electrify_env.games)."""
    from .games import DEFAULT_GAME, game_names

    parser.add_argument("--game", default=DEFAULT_GAME, choices=game_names(),
                        help=f"{text} (default %(default)s)")


def _add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """``--backend`` and ``--address`` (arena, balance, teacher-data)."""
    parser.add_argument("--backend", default="local", choices=("local", "ray"),
                        help="local: --jobs processes here; ray: Ray tasks (pip install -e \".[ray]\")")
    parser.add_argument("--address", default=None, metavar="ADDR",
                        help="with --backend ray: join this Ray cluster (HEAD:6379 or auto); "
                             "default: start a local Ray with --jobs CPUs")


def _cmd_replay(args: argparse.Namespace) -> int:
    from electrify_env.agents.replay import check_delay, load_replay, run_replay

    delay = check_delay(args.delay)
    run_replay(load_replay(args.file, args.game), auto=args.auto, delay=delay)
    return 0


def _cmd_agents(args: argparse.Namespace) -> int:
    from electrify_env.agents import describe_agents

    print(describe_agents(args.game))
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    if args.backend == "rllib":   # electrify_env.training.rllib_selfplay imports ray only once the config is read
        from electrify_env.training.rllib_selfplay import main as train_main
    elif args.backend == "expert":
        from electrify_env.training.config import ConfigError
        from electrify_env.training.expert import load_expert_config, train

        if not args.config:
            print("electrify train: error: --backend expert needs a config (configs/gizmos-2p-expert.yaml)",
                  file=sys.stderr)
            return 2
        try:
            from electrify_env.training.config import parse_overrides
            cfg = load_expert_config(args.config, parse_overrides(args.set))
        except ConfigError as err:
            print(f"electrify train: error: {err}", file=sys.stderr)
            return 2
        train(cfg)
        return 0
    else:
        from electrify_env.training.selfplay import main as train_main

    return train_main(([args.config] if args.config else []) + [f"--set={x}" for x in args.set])


EXPLOIT_DEFAULTS = {"steps": 200_000, "points": 4, "games": 400, "seed": 7100, "jobs": 1,
                    "out": "runs/exploit", "game": "electrify"}
"""The defaults of ``electrify exploit`` (those of :class:`electrify_env.training.exploit.ExploitConfig`;
kept here so that the parser imports no training code)."""


def _cmd_exploit(args: argparse.Namespace) -> int:
    from electrify_env.training.exploit import ExploitConfig, ExploitError, policy_path, run_exploit

    cfg = ExploitConfig(policy=args.policy, **{k: getattr(args, k) for k in EXPLOIT_DEFAULTS})
    try:
        cfg.validate()
        policy_path(cfg.policy, cfg.game)
    except ExploitError as err:
        print(f"electrify exploit: error: {err}", file=sys.stderr)
        return 2
    report = run_exploit(cfg)
    print(f"wrote {Path(cfg.out) / 'exploit.json'} and {Path(cfg.out) / 'exploit.png'} "
          f"({len(report['points'])} points)")
    return 0


def _cmd_ladder(args: argparse.Namespace) -> int:
    from electrify_env.agents.ladder import LadderError, load_ladder_config, run_ladder

    try:
        cfg = load_ladder_config(args.config, game=args.game, pool=_items(args.pool) or None, games=args.games,
                                 seed=args.seed, jobs=args.jobs, out=None if args.out == "-" else args.out,
                                 progress=not args.quiet, backend=args.backend, address=args.address)
    except LadderError as err:
        print(f"electrify ladder: error: {err}", file=sys.stderr)
        return 2
    if args.pool or args.games is not None or args.seed is not None:
        cfg.source = None                 # the printed command names the overrides
    res = run_ladder(cfg)
    for r in res["rows"]:
        print(f"{r['rank']:>3} {r['agent']:<52} {r['mu']:7.2f} [{r['mu_low']:6.2f}, {r['mu_high']:6.2f}] "
              f"ordinal {r['ordinal']:7.2f}  win {100 * r['win_rate']:5.1f}%  {r['ms_per_move']:7.2f} ms/move")
    print(f"\n{sum(r['games'] for r in res['rows']) // 2} games in {res['wall_seconds']:.1f} s ({res['command']})")
    for f in res["files"]:
        print(f"wrote {f}")
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    from .play.terminal import play

    return play(args, args._play_parser)


def _cmd_serve(args: argparse.Namespace) -> int:
    from .play.web import serve

    serve(args.host, args.port, args.state_dir, args.max_games)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``electrify`` command."""
    ap = argparse.ArgumentParser(prog="electrify", description="Electrify: engine, demo and tools.")
    ap.add_argument("--version", action="version", version=f"electrify-env {_version()}")
    sub = ap.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a complete game between random agents")
    demo.add_argument("--game", choices=("electrify", "gizmos"), default="electrify",
                      help="the game to play (default electrify)")
    demo.add_argument("--players", type=int, default=None, help="2-4 players (default 4; 1 with --solo)")
    demo.add_argument("--seed", type=int, default=7, help="game seed 0..2**62-1 (default 7)")
    demo.add_argument("--cards", default=None,
                      help="card-set YAML (default: configs/cards/base.yaml; configs/gizmos/cards.yaml with --game gizmos)")
    demo.add_argument("--solo", default=None, metavar="SCENARIO", help="play a solo scenario (see `electrify scenarios`)")
    demo.add_argument("--tech", default=None, help="tech packs to shuffle in, comma-separated (grid,market)")
    demo.set_defaults(func=_cmd_demo)
    cards = sub.add_parser("cards", help="card-set tools")
    csub = cards.add_subparsers(dest="cards_command", required=True)
    val = csub.add_parser("validate", help="validate a card-set file and print a summary")
    val.add_argument("path", help="a card-set file, or a tech-pack file (checked on top of --base)")
    val.add_argument("--base", default=None, help="card set under a tech pack (default: base.yaml)")
    val.set_defaults(func=_cmd_cards)
    sk = sub.add_parser("soak", help="random games with every invariant checked after every decision")
    sk.add_argument("--games", type=int, default=10_000, help="games to play (positive)")
    sk.add_argument("--players", type=_int_list, default=None,
                    help="player counts 2-4 to cycle through, comma-separated (default 2,3,4)")
    sk.add_argument("--seed", type=int, default=0, help="first seed; games use seed, seed+1, ... (< 2**62)")
    sk.add_argument("--cards", default=None)
    sk.add_argument("--tech", default=None, help="tech packs, comma-separated (grid,market)")
    sk.add_argument("--solo", default=None, help="solo scenarios, comma-separated, or 'all'")
    sk.set_defaults(func=_cmd_soak)
    sc = sub.add_parser("scenarios", help="list the solo scenarios (or describe one)")
    sc.add_argument("id", nargs="?", default=None, help="a scenario id to describe in full")
    sc.set_defaults(func=_cmd_scenarios)
    lay = sub.add_parser("layout", help="print the state, action and card-table layouts")
    lay.set_defaults(func=_cmd_layout)
    ar = sub.add_parser("arena", help="seat-rotated games between agents (win rates, ratings, replays)")
    ar.add_argument("--agents", required=True,
                    help="agent specs, comma-separated (name or name:key=value:key=value; "
                         "random, greedy, mcts, trained, net:path=FILE, ...: `electrify agents` lists them); "
                         "3-4 players: the line-up")
    ar.add_argument("--players", type=int, default=2, help="2 (every pairing) or 3-4 (the line-up)")
    ar.add_argument("--games", type=int, default=100, help="games per pairing / line-up / scenario")
    ar.add_argument("--seed", type=int, default=0)
    ar.add_argument("--jobs", type=int, default=1, help="worker processes")
    ar.add_argument("--solo", default=None,
                    help="solo scenarios, comma-separated: ids, scenario files (.yaml) or 'all'")
    ar.add_argument("--tech", default=None, help="tech packs, comma-separated (grid,market)")
    ar.add_argument("--out", default="arena_out",
                    help="output folder, checked before the games run ('-': write nothing)")
    ar.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_game_argument(ar)
    _add_backend_arguments(ar)
    ar.set_defaults(func=_cmd_arena)
    bal = sub.add_parser("balance", help="balance report: points by source, seats, match-ups, cards, "
                                         "sectors, game length")
    bal.add_argument("--agents", required=True,
                     help="agent specs, comma-separated: one spec = a mirror of --players copies; "
                          "2 players: every pairing; 3-4 players: the line-up")
    bal.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
    bal.add_argument("--games", type=int, default=100,
                     help="games per line-up / pairing / scenario (a multiple of --players unless a mirror)")
    bal.add_argument("--seed", type=int, default=0)
    bal.add_argument("--jobs", type=int, default=1, help="worker processes")
    bal.add_argument("--cards", default=None, help="card-set YAML (default: configs/cards/base.yaml)")
    bal.add_argument("--tech", default=None, help="tech packs, comma-separated (grid,market)")
    bal.add_argument("--solo", default=None,
                     help="solo scenarios, comma-separated: ids, scenario files (.yaml) or 'all'")
    bal.add_argument("--out", default="balance_out",
                     help="output folder, checked before the games run ('-': write nothing)")
    bal.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_game_argument(bal)
    _add_backend_arguments(bal)
    bal.set_defaults(func=_cmd_balance)
    td = sub.add_parser("teacher-data", help="games of a search agent as imitation data (replays; "
                                             "training/teacher.py)")
    td.add_argument("--agent", default="mcts:iters=36:top_k=3:horizon=2",
                    help="one agent spec; every seat plays a copy (default %(default)s)")
    td.add_argument("--players", type=int, default=2, help="2, 3 or 4 (default 2)")
    td.add_argument("--games", type=int, default=100,
                    help="games to play (per scenario with --solo)")
    td.add_argument("--seed", type=int, default=0)
    td.add_argument("--jobs", type=int, default=1, help="worker processes")
    td.add_argument("--solo", default=None,
                    help="solo scenarios, comma-separated: ids, scenario files (.yaml) or 'all'")
    td.add_argument("--cards", default=None, help="card-set YAML (default: configs/cards/base.yaml)")
    td.add_argument("--tech", default=None, help="tech packs, comma-separated (grid,market)")
    td.add_argument("--out", default="teacher.jsonl",
                    help="the .jsonl file to write (header + one game record per line; "
                         "electrify replay reads it), checked before the games run")
    td.add_argument("--quiet", action="store_true", help="no progress bar")
    td.add_argument("--merge", default=None, metavar="FILES",
                    help="play nothing: join these teacher files (comma-separated, same player "
                         "count and card set) into --out, re-indexing the games")
    _add_backend_arguments(td)
    td.set_defaults(func=_cmd_teacher_data,
                    _play_defaults={opt: td.get_default(opt.lstrip("-")) for opt in TEACHER_PLAY_OPTIONS})
    from .play.terminal import DESCRIPTION as PLAY_DESCRIPTION, add_arguments as play_arguments
    from .play.web import add_arguments as serve_arguments

    pl = sub.add_parser("play", help="play in the terminal: against agents, hot-seat, or a solo scenario",
                        description=PLAY_DESCRIPTION)
    play_arguments(pl)
    pl.set_defaults(func=_cmd_play, _play_parser=pl)
    sv = sub.add_parser("serve", help="play in the browser (a local web app; prints its URL)")
    serve_arguments(sv)
    sv.set_defaults(func=_cmd_serve)
    ag = sub.add_parser("agents", help="list the registered agents (shipped policies too) and their parameters")
    _add_game_argument(ag, "the game whose agents to list")
    ag.set_defaults(func=_cmd_agents)
    tr = sub.add_parser("train", help="train a policy: PPO with self-play and an opponent league, or solo "
                                      "(training/selfplay.py; configs/electrify-*.yaml); expert iteration of a "
                                      "policy-value network with search (--backend expert; configs/*-expert.yaml); "
                                      "or multi-agent PPO on Ray RLlib (--backend rllib; configs/rllib_2p.yaml)")
    tr.add_argument("config", nargs="?", default=None,
                    help="YAML file filling electrify_env.training.config.TrainConfig (--backend rllib: RLlibConfig); "
                         "a shipped config may be named without its folder: electrify-2p, electrify-4p, electrify-solo")
    tr.add_argument("--backend", default="local", choices=("local", "expert", "rllib"),
                    help="local: electrify's own PPO trainer (training/selfplay.py); expert: expert iteration "
                         "(training/expert/, any game with a network layout); rllib: multi-agent PPO on "
                         "Ray RLlib (training/rllib_selfplay.py; pip install -e \".[ray]\")")
    tr.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                    help="override a config field (YAML value), e.g. --set total_steps=200000")
    tr.set_defaults(func=_cmd_train)
    ex = sub.add_parser("exploit", help="train a best response to a shipped trained policy and measure "
                                        "how often it wins against it (training/exploit.py)")
    ex.add_argument("policy", help="a shipped trained agent by name, e.g. trained_2p (`electrify agents`), or a "
                                   "policy-value spec: policy, policy:simulations=0, policy:path=FILE")
    for name, help_ in (("steps", "learner decisions of best-response training"),
                        ("points", "networks kept and measured along the run"),
                        ("games", "arena games of each kept network against the policy"),
                        ("seed", "training seed (the arena uses seed + 1)"), ("jobs", "arena worker processes")):
        ex.add_argument(f"--{name}", type=int, default=EXPLOIT_DEFAULTS[name],
                        help=f"{help_} (default {EXPLOIT_DEFAULTS[name]})")
    ex.add_argument("--out", default=EXPLOIT_DEFAULTS["out"], help=f"output folder (default {EXPLOIT_DEFAULTS['out']})")
    ex.add_argument("--game", default=EXPLOIT_DEFAULTS["game"], help="the game (electrify or gizmos; default electrify)")
    ex.set_defaults(func=_cmd_exploit)
    ld = sub.add_parser("ladder", help="round robin of a fixed pool of agents, rated (configs/ladder/): "
                                       "the table and plot of the docs, the ratings of the difficulty levels")
    ld.add_argument("--config", default=None, help="a ladder file (default configs/ladder/electrify-2p.yaml, "
                                                   "with --game gizmos configs/ladder/gizmos-2p.yaml)")
    ld.add_argument("--game", default=None, help="the game (electrify or gizmos; default: the file's game, "
                                                 "else electrify)")
    ld.add_argument("--pool", default=None, help="comma-separated agent specs instead of the file's pool")
    ld.add_argument("--games", type=int, default=None, help="games per pairing (even; default: the file's)")
    ld.add_argument("--seed", type=int, default=None, help="master seed (default: the file's)")
    ld.add_argument("--jobs", type=int, default=1, help="worker processes (results do not depend on it)")
    ld.add_argument("--out", default="ladder_out", help="output folder, or - to write nothing (default ladder_out)")
    ld.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_backend_arguments(ld)
    ld.set_defaults(func=_cmd_ladder)
    rp = sub.add_parser("replay", help="replay an arena game move by move in the terminal")
    rp.add_argument("file", help="a games.jsonl of the arena, or a one-game JSON replay")
    rp.add_argument("--game", type=int, default=None, help="the game's index (default: the first)")
    rp.add_argument("--auto", action="store_true", help="play on without waiting for Enter")
    rp.add_argument("--delay", type=float, default=0.0, help="seconds between moves with --auto (0-60)")
    rp.set_defaults(func=_cmd_replay)
    return ap


def _version() -> str:
    """The installed version of electrify-env (``unknown`` when it is not installed)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("electrify-env")
    except PackageNotFoundError:
        return "unknown"


def _int_list(text: str) -> tuple[int, ...]:
    """argparse type: comma-separated integers (``"2,3,4"``)."""
    try:
        values = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid list of integers: {text!r}") from None
    if not values:
        raise argparse.ArgumentTypeError("give at least one integer")
    return values


TEACHER_PLAY_OPTIONS = ("--agent", "--players", "--games", "--seed", "--jobs", "--solo", "--cards",
                        "--tech", "--backend", "--address")
"""``electrify teacher-data``'s options that choose the games to play (``--merge`` plays nothing,
so it refuses any of them set to another value than its parser default)."""


def _check_arguments(args: argparse.Namespace) -> None:
    """Range checks of the parsed numbers, with the shared checks of
    :mod:`electrify_env.validation` (the same ranges as ``Game`` and the envs).  Raises
    ``_ArgumentProblem(option, message)``."""
    from .validation import InvalidArgumentError, check_count, check_players, check_seed, check_seed_run

    def check(option: str, fn, *a, **kw):
        try:
            fn(*a, **kw)
        except InvalidArgumentError as err:
            raise _ArgumentProblem(option, str(err)) from None

    cmd = args.command
    if cmd == "demo":
        check("--seed", check_seed, args.seed)
        if args.game == "gizmos":
            for option, value in (("--solo", args.solo), ("--tech", args.tech)):
                if value is not None:
                    raise _ArgumentProblem(option, "is an Electrify option; Gizmos has no solo game or tech packs")
            if args.players is not None and not 2 <= args.players <= 4:
                raise _ArgumentProblem("--players", f"Gizmos takes 2, 3 or 4 players, got {args.players}")
        elif args.solo:
            check("--players", check_players, 1 if args.players is None else args.players, solo=True)
        elif args.players is not None:
            check("--players", check_players, args.players)
    elif cmd == "soak":
        check("--games", check_count, args.games, "games")
        check("--seed", check_seed_run, args.seed, args.games)
        if not args.solo:
            for n in args.players or ():
                check("--players", check_players, n)
    elif cmd == "serve":
        if not 0 < args.port < 65536:
            raise _ArgumentProblem("--port", f"must be 1..65535, got {args.port}")
        if args.max_games < 1:
            raise _ArgumentProblem("--max-games", f"must be at least 1, got {args.max_games}")
    elif cmd in ("arena", "balance", "teacher-data"):
        from .parallel import check_backend

        check("--games", check_count, args.games, "games")
        check("--seed", check_seed, args.seed)
        check("--jobs", check_count, args.jobs, "jobs")
        if args.solo is None:
            check("--players", check_players, args.players)
        if args.address is not None and args.backend != "ray":
            raise _ArgumentProblem("--address", "only --backend ray joins a cluster; add --backend ray")
        check("--backend", check_backend, args.backend)
        if cmd == "teacher-data" and args.merge is not None:
            given = [opt for opt, default in args._play_defaults.items()
                     if getattr(args, opt.lstrip("-")) != default]
            if given:
                raise _ArgumentProblem("--merge", "joins files and plays nothing; drop "
                                       + ", ".join(given) + " (they choose the games to play)")
        if args.address is not None:
            check("--address", check_backend, args.backend, args.address)


class _ArgumentProblem(Exception):
    """A parsed option outside its range: ``option`` and the checker's message."""

    def __init__(self, option: str, message: str) -> None:
        self.option = option
        super().__init__(message)


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The sub-command parser ``name`` of ``parser`` (for its usage line and prog name)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``electrify`` console script.  Returns the exit status: 0 done, 1 a
    check failed (soak, cards validate), 2 bad input (printed as one argparse-style line; a
    malformed command line exits 2 from argparse itself) or a missing optional dependency (one
    line naming its extra, printed before the command does any work)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    from .extras import missing_extra

    missing = missing_extra(args.command, getattr(args, "backend", None))
    if missing is not None:
        print(missing, file=sys.stderr)
        return 2
    try:
        _check_arguments(args)
    except _ArgumentProblem as problem:
        sub = _subparser(parser, args.command)
        sub.print_usage(sys.stderr)
        print(f"{sub.prog}: error: argument {problem.option}: {problem}", file=sys.stderr)
        return 2
    try:
        return args.func(args)
    except ValueError as err:
        print(f"electrify: error: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
