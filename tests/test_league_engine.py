"""The jitted league runner (kernels/league.py) that electrify's own trainer steps: every row is the
engine's ``Game`` stepped with the same actions (2 players, 4 players, solo), finished rows record
their outcome and restart from the finished game's ``next_seed``, an illegal action changes
nothing, ``greedy_actions`` is the ``greedy`` agent batched, and ``observe_seats`` is
``Game.observe`` for any seat."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.agents.greedy import SEED_LIMIT, GreedyAgent, load_weights
from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.kernels import league as LG
from electrify_env.common.engine.rng import MAX_SEED, next_seed, pick_index
from electrify_env.kernels.batch import SALT_SCENARIO
from electrify_env.engine.observe import OBS_SIZE, obs_size
from electrify_env.envs._common import card_set_and_options, scenario_list
from electrify_env.training.selfplay import Games


class Rows(Games):
    """``n`` league rows over the base card set (the trainer's :class:`electrify_env.training.selfplay.Games`),
    stepped with :func:`league_step` directly."""

    def __init__(self, n_players: int, seeds, scenarios=None, scen_fixed: int = -1) -> None:
        cards, options = card_set_and_options(None, ())
        super().__init__(len(seeds), n_players, cards, options, scenarios, seeds, scen_fixed)
        self.scenarios = scenarios

    def step(self, actions) -> int:
        """league_step with one action per row; returns its result (-1 or the bad row)."""
        return LG.league_step(self.States, self.T, self.SCS, self.FF, self.n_players, self.options,
                              self.scen_fixed, np.asarray(actions, dtype=np.int64), self.seeds, self.scen,
                              self.obs, self.masks, self.movers, self.done, self.final_pts, self.final_won,
                              self.final_seed, self.final_target)

    def game(self, i: int) -> Game:
        """The engine Game that row i's running game should be."""
        seed = int(self.seeds[i])
        if self.n_players == 1:
            return Game(seed=seed, scenario=self.scenarios[int(self.scen[i])])
        return Game(n_players=self.n_players, seed=seed)

    def arrays(self) -> dict[str, np.ndarray]:
        """Copies of every array league_step writes."""
        return {k: v.copy() for k, v in vars(self).items() if isinstance(v, np.ndarray)}


def assert_row_is_game(rows: Rows, i: int, game: Game) -> None:
    """Row i holds exactly ``game``: state, mover, legal mask and the mover's observation."""
    k = obs_size(rows.n_players)
    assert np.array_equal(rows.States[i], game.state)
    assert rows.movers[i] == game.current_player
    assert np.array_equal(rows.masks[i], game.legal_mask())
    assert np.array_equal(rows.obs[i, :k], game.observe(game.current_player)[:k])
    assert not rows.obs[i, k:].any()


def check_outcome(rows: Rows, i: int, game: Game, seed: int) -> None:
    """Row i's recorded outcome is ``game``'s (finished, played from ``seed``)."""
    n = rows.n_players
    assert game.is_terminal
    assert rows.final_seed[i] == seed
    if n == 1:
        res = game.solo_result()
        assert rows.final_pts[i, 0] == res["final_score"]
        assert rows.final_won[i, 0] == int(res["won"])
        assert rows.final_target[i] == res["target"]
        assert not rows.final_pts[i, 1:].any() and not rows.final_won[i, 1:].any()
        return
    assert list(rows.final_pts[i, :n]) == list(game.scores())
    assert list(rows.final_won[i, :n]) == [int(q in game.winners()) for q in range(n)]
    assert not rows.final_pts[i, n:].any() and not rows.final_won[i, n:].any()
    assert rows.final_target[i] == 0


def mirror(rows: Rows, games_per_row: int, rng_seed: int) -> list[list[int]]:
    """Step ``rows`` and one Game per row with the same random legal actions until every row has
    finished ``games_per_row`` games, checking agreement after every step; returns the seeds of
    the games each row played."""
    rng = np.random.default_rng(rng_seed)
    n = len(rows.seeds)
    games = [rows.game(i) for i in range(n)]
    played = [[int(rows.seeds[i])] for i in range(n)]
    finished = np.zeros(n, dtype=int)
    while finished.min() < games_per_row:
        for i, g in enumerate(games):
            assert_row_is_game(rows, i, g)
        actions = [int(rng.choice(g.legal_actions())) for g in games]
        for g, a in zip(games, actions):
            g.step(a)
        assert rows.step(actions) == -1
        for i, g in enumerate(games):
            assert bool(rows.done[i]) == g.is_terminal
            if not g.is_terminal:
                continue
            check_outcome(rows, i, g, played[i][-1])
            restart = int(next_seed(g.state.copy(), L.S_RNG) & MAX_SEED)   # the finished game's generator
            assert rows.seeds[i] == restart
            if rows.n_players == 1 and rows.scen_fixed < 0:
                assert rows.scen[i] == pick_index(np.int64(restart), np.int64(SALT_SCENARIO),
                                                  np.int64(len(rows.scenarios)))
            games[i] = rows.game(i)
            played[i].append(restart)
            finished[i] += 1
    for i, g in enumerate(games):
        assert_row_is_game(rows, i, g)
    return played


@pytest.mark.parametrize("n_players,seeds", [(2, [3, 11, 42]), (4, [5, 2**40 + 7])])
def test_league_rows_are_engine_games_and_restart_from_next_seed(n_players, seeds):
    rows = Rows(n_players, seeds)
    assert list(rows.scen) == [-1] * len(seeds)
    played = mirror(rows, games_per_row=2, rng_seed=n_players)
    assert [p[0] for p in played] == seeds
    assert all(len(set(p)) == 3 for p in played)   # each restart is a new seed


def test_solo_rows_with_a_fixed_scenario_are_engine_games():
    scen = scenario_list("first_light")
    rows = Rows(1, [7, 8, 9], scen, scen_fixed=0)
    assert list(rows.scen) == [0, 0, 0]
    mirror(rows, games_per_row=2, rng_seed=1)
    assert list(rows.scen) == [0, 0, 0]


def test_solo_rows_draw_their_scenario_from_the_seed():
    scen = scenario_list(None)
    seeds = list(range(100, 106))
    rows = Rows(1, seeds, scen, scen_fixed=-1)
    want = [pick_index(np.int64(s), np.int64(SALT_SCENARIO), np.int64(len(scen))) for s in seeds]
    assert list(rows.scen) == want and len(set(want)) > 1
    mirror(rows, games_per_row=1, rng_seed=2)


def test_an_illegal_action_returns_its_row_and_changes_nothing():
    rows = Rows(2, [1, 2, 3])
    rng = np.random.default_rng(0)
    for _ in range(25):
        assert rows.step([int(rng.choice(np.flatnonzero(m))) for m in rows.masks]) == -1
    legal = [int(np.flatnonzero(m)[0]) for m in rows.masks]
    illegal = int(np.flatnonzero(rows.masks[1] == 0)[0])
    before = rows.arrays()
    for bad_actions, row in [([legal[0], illegal, legal[2]], 1),
                             ([legal[0], legal[1], -1], 2),
                             ([legal[0], L.N_ACTIONS, illegal], 1),
                             ([L.N_ACTIONS + 5, legal[1], legal[2]], 0)]:
        assert rows.step(bad_actions) == row
        after = rows.arrays()
        for name, arr in before.items():
            assert np.array_equal(arr, after[name]), name
    assert rows.step(legal) == -1   # and the legal actions still step
    assert not np.array_equal(rows.States, before["States"])


def greedy_reference(game: Game, k: int) -> tuple[int, int]:
    """(draw seed, GreedyAgent's action) for the decision pending in ``game``: the agent reseeded
    with ``k`` draws exactly that determinization seed first."""
    draw = int(np.random.default_rng(k).integers(SEED_LIMIT))
    agent = GreedyAgent()
    agent.reset(k)
    return draw, agent.act_in(game)


@pytest.mark.parametrize("n_players,seeds", [(2, [4, 9]), (4, [6])])
def test_greedy_actions_are_the_greedy_agents(n_players, seeds):
    """Rows listed in any order: the batched greedy gives the agent's action for the same
    determinization seed at every decision of a whole game, including the decisions with a single
    legal action (they come late in a game).  Row 0 follows greedy, the other rows random play."""
    rows = Rows(n_players, seeds)
    W = load_weights().to_array()
    rng = np.random.default_rng(3)
    games = [rows.game(i) for i in range(len(seeds))]
    k = 0
    single = multi = 0
    order = np.arange(len(seeds))[::-1].copy()
    while True:
        draws, want = [], []
        for i in order:
            d, a = greedy_reference(games[i], k)
            k += 1
            draws.append(d)
            want.append(a)
            n_legal = int(games[i].legal_mask().sum())
            single += n_legal == 1
            multi += n_legal > 1
        out = np.full(len(order), -1, dtype=np.int64)
        LG.greedy_actions(rows.States, rows.T, W, order, np.array(draws, dtype=np.int64), out)
        assert list(out) == want
        by_row = dict(zip(order.tolist(), out.tolist()))
        actions = [by_row[0]] + [int(rng.choice(g.legal_actions())) for g in games[1:]]
        for g, a in zip(games, actions):
            g.step(a)
        assert rows.step(actions) == -1
        if rows.done[0]:
            break
        for i, g in enumerate(games):
            if g.is_terminal:
                games[i] = rows.game(i)
    assert single > 0 and multi > 0
    assert rows.final_pts[0].any()   # greedy scores


def test_observe_seats_is_game_observe_for_every_seat():
    rows = Rows(3, [12, 13])
    games = [rows.game(i) for i in range(2)]
    rng = np.random.default_rng(5)
    k = obs_size(3)
    seen_other = 0
    for step in range(120):
        if step % 10 == 0:
            r = np.repeat(np.arange(2), 3)
            s = np.tile(np.arange(3), 2)
            out = np.zeros((6, OBS_SIZE), dtype=np.float32)
            LG.observe_seats(rows.States, rows.T, rows.FF, r, s, out)
            for j in range(6):
                g = games[r[j]]
                assert np.array_equal(out[j, :k], g.observe(int(s[j]))[:k]), (step, r[j], s[j])
                assert not out[j, k:].any()
                seen_other += int(s[j]) != g.current_player
        actions = [int(rng.choice(g.legal_actions())) for g in games]
        for g, a in zip(games, actions):
            g.step(a)
        assert rows.step(actions) == -1
    assert seen_other >= 24


def test_points_now_is_each_seats_score():
    """Greedy play (random play scores nothing) in two 4-player rows."""
    rows = Rows(4, [21, 22])
    games = [rows.game(i) for i in range(2)]
    W = load_weights().to_array()
    rng = np.random.default_rng(6)
    out = np.zeros((2, L.MAX_PLAYERS), dtype=np.int64)
    saw_points = False
    for _ in range(600):
        LG.points_now(rows.States, out)
        for i, g in enumerate(games):
            assert list(out[i]) == list(g.scores())
            saw_points |= bool(out[i].any())
        actions = np.empty(2, dtype=np.int64)
        LG.greedy_actions(rows.States, rows.T, W, np.arange(2), rng.integers(0, SEED_LIMIT, 2), actions)
        for g, a in zip(games, actions):
            g.step(a)
        assert rows.step(actions) == -1
        for i, g in enumerate(games):
            if g.is_terminal:
                games[i] = rows.game(i)
    assert saw_points
