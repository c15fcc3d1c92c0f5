"""Measure the Gumbel search agent against an opponent: win rate and milliseconds per move.

    python -m electrify_env.agents.search.measure --game gizmos --opponent random \\
        --simulations 8 --determinizations 2 --games 20

Each game seats the search agent at seat ``k % n_players`` of game ``k`` (seed ``seed + k``) and
the opponent (an agent spec of the game's registry) at every other seat.  A win is the search
agent's seat among ``winners()``; the milliseconds are the search agent's mean time per decision
with two or more legal actions.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from electrify_env.games import get_game

from .agent import GumbelAgent


def measure(game: str, opponent: str, games: int, n_players: int = 2, seed: int = 0,
            **search: int | float | str) -> dict:
    """Play ``games`` games of the search agent (parameters ``search``, as :class:`GumbelAgent`)
    against ``opponent`` at the other seats; return wins, games, win rate, searched moves and
    ms per searched move."""
    from ..registry import make_agent

    gdef = get_game(game)
    me = GumbelAgent(gdef.name, **search)
    wins = moves = 0
    seconds = 0.0
    for k in range(games):
        g = gdef.new_game(n_players=n_players, seed=seed + k)
        mine = k % n_players
        others = {}
        for p in range(n_players):
            if p != mine:
                others[p] = make_agent(opponent, game=gdef.name)
                others[p].reset(seed=1000 * (seed + k) + p)
        me.reset(seed=seed + k)
        while not g.is_terminal:
            p = g.current_player
            if p == mine:
                many = int(g.legal_mask().sum()) > 1
                t0 = time.perf_counter()
                a = me.act_in(g)
                if many:
                    seconds += time.perf_counter() - t0
                    moves += 1
            else:
                a = others[p].act_in(g)
            g.step(a)
        wins += int(mine in g.winners())
    return {"game": gdef.name, "opponent": opponent, "players": n_players, "wins": wins, "games": games,
            "win_rate": wins / games, "searched_moves": moves,
            "ms_per_move": 1000.0 * seconds / max(moves, 1), **search}


def main(argv: list[str] | None = None) -> None:
    """Command-line entry: print one line of figures per run."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="gizmos")
    ap.add_argument("--opponent", default="random", help="an agent spec of the game's registry")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--simulations", type=int, default=16)
    ap.add_argument("--determinizations", type=int, default=4)
    ap.add_argument("--considered", type=int, default=16)
    ap.add_argument("--gumbel-scale", type=float, default=1.0, help="scale of the root's Gumbel noise")
    ap.add_argument("--rollouts", type=int, default=1)
    ap.add_argument("--max-steps", type=int, default=0)
    ap.add_argument("--prior", type=float, default=0.0, help="logit of the rollout agent's choice")
    ap.add_argument("--rollout", default="", help="an agent spec that plays the playouts ('': random)")
    a = ap.parse_args(argv)
    r = measure(a.game, a.opponent, a.games, a.players, a.seed, simulations=a.simulations,
                determinizations=a.determinizations, considered=a.considered,
                gumbel_scale=a.gumbel_scale, rollouts=a.rollouts,
                max_steps=a.max_steps, rollout=a.rollout, prior=a.prior)
    print(" ".join(f"{k}={round(v, 3) if isinstance(v, float) else v}" for k, v in r.items()))


if __name__ == "__main__":
    main()
