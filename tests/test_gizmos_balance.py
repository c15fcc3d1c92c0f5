"""The default Gizmos card set meets its balance targets (docs/balance.md, "Gizmos"), measured
with the documented commands: greedy mirrors, seat win shares within 4 points of fair, at least
99% of games ended by the end condition (not the round cap), and every card effect of the set in
some winner's tableau."""
from __future__ import annotations

import pytest

from electrify_env.agents.balance import BalanceConfig, run_balance
from electrify_env.gizmos.cards import load_card_set
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.report import effect_label


def _effects() -> set[str]:
    cs = load_card_set(None)
    return {effect_label(cs.table, c) for c in range(len(cs.ids)) if cs.table[L.T_LEVEL + c] > 0}


def _check(players: int, games: int, seed: int) -> None:
    res = run_balance(BalanceConfig(agents=["greedy"], players=players, games=games, seed=seed,
                                    out=None, progress=False, game="gizmos"))
    summ = res["summary"]
    fair = 1 / players
    shares = [r["win_share"] for r in summ["seats"]]
    assert len(shares) == players and all(abs(s - fair) <= 0.04 for s in shares), shares
    by_end = {r["ended_by"]: r["share"] for r in summ["endings"]}
    assert by_end.get("end condition", 0) >= 0.99, by_end
    held = {r["effect"] for r in summ["tableaux"] if r["winner_machines"] > 0}
    assert held == _effects(), sorted(_effects() - held)


def test_gizmos_two_greedy_seats_are_fair_and_games_end_by_the_end_condition():
    """``electrify balance --game gizmos --agents greedy --players 2 --games 1000 --seed 7101``."""
    _check(2, 1000, 7101)


@pytest.mark.slow
def test_gizmos_four_greedy_seats_are_fair_and_games_end_by_the_end_condition():
    """``electrify balance --game gizmos --agents greedy --players 4 --games 1600 --seed 7104``."""
    _check(4, 1600, 7104)
