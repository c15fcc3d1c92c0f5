"""The game-blind Gumbel search (electrify_env.agents.search) and the determinization entry
point it plays through (``Game.determinized`` of each registered game)."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.games import get_game
from electrify_env.validation import InvalidArgumentError


def _played(game_name: str, n_players: int, seed: int, moves: int):
    """A game of ``game_name`` after ``moves`` random legal actions."""
    g = get_game(game_name).new_game(n_players=n_players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if g.is_terminal:
            break
        legal = g.legal_actions()
        g.step(int(legal[rng.integers(len(legal))]))
    return g


# ---- Game.determinized ---------------------------------------------------------------------------
@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
@pytest.mark.parametrize("n_players", [2, 4])
def test_determinized_keeps_the_information_set_and_plays_to_the_end(game_name, n_players):
    g = _played(game_name, n_players, seed=5, moves=40)
    seat = g.current_player
    view = g.seat_view(observation=True, infoset=True)
    d = g.determinized(seat, seed=11)
    assert type(d) is type(g) and d.history == [] and d.seed == 11
    assert d.current_player == seat
    np.testing.assert_array_equal(d.seat_view(observation=False).infoset, view.infoset)
    np.testing.assert_array_equal(d.observe(seat), view.observation)
    np.testing.assert_array_equal(d.legal_mask(), view.mask)
    assert not np.array_equal(d.state, g.state)         # hidden parts dealt anew
    rng = np.random.default_rng(0)
    while not d.is_terminal:
        legal = d.legal_actions()
        d.step(int(legal[rng.integers(len(legal))]))
    assert len(d.scores()) == n_players


@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
def test_determinized_reads_only_the_information_set(game_name):
    g = _played(game_name, 3, seed=8, moves=30)
    seat = g.current_player
    other = g.determinized(seat, seed=99)               # same information set, other hidden parts
    a, b = g.determinized(seat, seed=4), other.determinized(seat, seed=4)
    np.testing.assert_array_equal(a.state, b.state)
    # from a seat view's infoset, on a fresh game of the same kind (its own state unread)
    fresh = get_game(game_name).new_game(n_players=3, seed=1234)
    c = fresh.determinized(seat, seed=4, infoset=g.seat_view(observation=False).infoset)
    np.testing.assert_array_equal(c.state, a.state)
    assert not np.array_equal(g.determinized(seat, seed=5).state, a.state)


@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
def test_determinized_refuses_bad_input(game_name):
    g = _played(game_name, 2, seed=3, moves=5)
    with pytest.raises(InvalidArgumentError, match="seat must be"):
        g.determinized(2, seed=0)
    with pytest.raises(InvalidArgumentError, match="seed"):
        g.determinized(0, seed=-1)
    with pytest.raises(InvalidArgumentError, match="infoset must be"):
        g.determinized(0, seed=0, infoset=np.zeros(3, dtype=np.int64))
    four = get_game(game_name).new_game(n_players=4, seed=0)
    with pytest.raises(InvalidArgumentError, match="4-player game"):
        g.determinized(0, seed=0, infoset=four.seat_view(observation=False).infoset)


# ---- the search ----------------------------------------------------------------------------------
from electrify_env.agents.search import (AgentRolloutEvaluator, GumbelAgent, GumbelElectrify, GumbelGizmos, GumbelSearch,  # noqa: E402
                                         NetworkEvaluator, RolloutEvaluator, completed_q,
                                         considered_visits, utility)
from electrify_env.resolver import AgentError  # noqa: E402


@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_search_returns_a_legal_action_and_a_distribution_over_the_legal_ones(game_name, n_players):
    search = GumbelSearch(simulations=4, determinizations=2, considered=4)
    for moves in (0, 25, 60):
        g = _played(game_name, n_players, seed=moves + n_players, moves=moves)
        if g.is_terminal:
            continue
        mask = g.legal_mask().copy()
        r = search.search(g, seed=7)
        assert mask[r.action]
        assert r.policy.dtype == np.float32 and r.policy.shape == (g.N_ACTIONS,)
        assert np.all(r.policy >= 0) and np.all(r.policy[mask == 0] == 0)
        assert abs(float(r.policy.sum()) - 1.0) < 1e-5
        if mask.sum() > 1:
            assert r.visits.sum() == 4 and np.all(r.visits[mask == 0] == 0)
            assert r.value.shape == (n_players,) and np.all((r.value >= 0) & (r.value <= 1))


@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
def test_search_never_reads_hidden_state(game_name):
    """Two games that differ only in what the seat cannot know (the second is a sample of the
    first's information set): the same seed gives the same search, to every statistic."""
    for moves in (10, 45):
        g = _played(game_name, 3, seed=21 + moves, moves=moves)
        seat = g.current_player
        twin = g.determinized(seat, seed=12345)
        assert not np.array_equal(twin.state, g.state)
        search = GumbelSearch(simulations=6, determinizations=3, considered=8)
        a, b = search.search(g, seed=3), search.search(twin, seed=3)
        assert a.action == b.action
        np.testing.assert_array_equal(a.policy, b.policy)
        np.testing.assert_array_equal(a.visits, b.visits)
        np.testing.assert_array_equal(a.value, b.value)
        # the agent: from the seat view alone (a fresh template) as from the game
        agents = [GumbelAgent(game_name, simulations=6, determinizations=3) for _ in range(3)]
        for ag in agents:
            ag.reset(seed=9)
        assert agents[0].act(g.seat_view()) == agents[1].act_in(twin) == agents[2].act_in(g)


@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
def test_search_is_deterministic_under_a_seed(game_name):
    g = _played(game_name, 2, seed=4, moves=20)
    s1 = GumbelSearch(simulations=8, determinizations=2)
    s2 = GumbelSearch(simulations=8, determinizations=2)
    r1, r2 = s1.search(g, seed=77), s2.search(g.copy(), seed=77)
    assert r1.action == r2.action
    np.testing.assert_array_equal(r1.policy, r2.policy)
    np.testing.assert_array_equal(s1.search(g, seed=77).policy, r1.policy)   # reruns too


def test_a_wave_is_one_evaluator_call_over_every_sample_of_every_root():
    calls = []

    class Counting(RolloutEvaluator):
        def evaluate(self, games):
            calls.append(len(games))
            return super().evaluate(games)

    gd = get_game("gizmos")
    roots = [gd.new_game(n_players=2, seed=s) for s in (1, 2, 3)]
    template = gd.new_game(n_players=2, seed=0)
    real = {id(g) for g in roots}
    seen = []

    class Watching(Counting):
        def evaluate(self, games):
            seen.extend(id(g) for g in games)
            return super().evaluate(games)

    search = GumbelSearch(Watching(), simulations=5, determinizations=4)
    out = search.search_views([g.seat_view() for g in roots], [template] * 3, [1, 2, 3])
    assert len(out) == 3
    assert calls[0] == 12 and len(calls) == 6            # the roots' samples, then one call a wave
    assert all(c <= 12 for c in calls)
    assert not real & set(seen) and id(template) not in seen   # only sampled games are evaluated


def test_a_network_evaluator_steers_the_search():
    """A prior with all its mass on one legal action and no Gumbel noise: the search plays it and
    its improved policy favours it."""
    g = _played("gizmos", 2, seed=6, moves=3)
    legal = g.legal_actions()
    target = int(legal[-1])

    def net(obs, masks):
        assert obs.dtype == np.float32 and obs.shape[0] == masks.shape[0]
        logits = np.where(masks > 0, 0.0, -1e9).astype(np.float32)
        logits[:, target] = 10.0
        return logits, np.full((obs.shape[0], 2), 0.5, dtype=np.float32)

    r = GumbelSearch(NetworkEvaluator(net), simulations=4, determinizations=2, considered=2,
                     gumbel_scale=0.0).search(g, seed=0)
    assert r.action == target and int(np.argmax(r.policy)) == target
    bad = NetworkEvaluator(lambda o, m: (np.zeros((len(o), 3)), np.zeros((len(o), 2))))
    with pytest.raises(InvalidArgumentError, match="the network returned logits"):
        GumbelSearch(bad, simulations=2, determinizations=1).search(g, seed=0)


@pytest.mark.parametrize("game_name", ["electrify", "gizmos"])
def test_an_agent_plays_the_playouts_and_sets_the_prior(game_name):
    from electrify_env.agents.registry import make_agent
    g = _played(game_name, 2, seed=2, moves=12)
    before = g.state.copy()
    greedy = make_agent("greedy", game=game_name)
    greedy.reset(seed=0)
    choice = greedy.act_in(g)
    ev = AgentRolloutEvaluator(make_agent("greedy", game=game_name), max_steps=20, prior=3.0)
    logits, values = ev.evaluate([g, g.copy()])
    np.testing.assert_array_equal(g.state, before)       # the playouts run on copies
    assert logits.shape == (2, g.N_ACTIONS) and values.shape == (2, 2)
    assert logits[0, choice] == 3.0 and np.count_nonzero(logits[0]) == 1
    assert np.all((values >= 0) & (values <= 1))
    ag = GumbelAgent(game_name, simulations=4, determinizations=2, rollout="greedy", max_steps=10, prior=3.0)
    ag.reset(seed=1)
    assert g.legal_mask()[ag.act_in(g)]
    with pytest.raises(AgentError, match="needs a rollout agent"):
        GumbelAgent(game_name, prior=1.0)


def test_considered_visits_is_sequential_halving():
    assert considered_visits(1, 4) == (0, 1, 2, 3)
    assert considered_visits(4, 16) == (0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)
    seq = considered_visits(16, 64)
    assert len(seq) == 64 and seq[:16] == (0,) * 16 and max(seq) > 1


def test_completed_q_mixes_the_unvisited_and_rescales():
    q = np.array([0.8, 0.2, 0.0])
    visits = np.array([3, 1, 0])
    prior = np.array([0.25, 0.25, 0.5])
    sigma = completed_q(0.4, q, visits, prior, value_scale=0.1, maxvisit_init=50.0)
    # mixed value (0.4 + 4 * (0.25*0.8 + 0.25*0.2) / 0.5) / 5 = 0.48; min-max over (0.8, 0.2, 0.48)
    scale = (50 + 3) * 0.1
    np.testing.assert_allclose(sigma, scale * np.array([1.0, 0.0, (0.48 - 0.2) / 0.6]))
    np.testing.assert_allclose(completed_q(0.3, np.zeros(2), np.zeros(2, int), np.full(2, .5), 0.1, 50), 0.0)


def test_utility_ranks_by_winners_then_tiebreak_keys():
    class Fake:
        def __init__(self, keys, winners):
            self.n_players = len(keys)
            self._k, self._w = np.array(keys), winners

        def tiebreak_keys(self):
            return self._k

        def winners(self):
            return self._w

    np.testing.assert_allclose(utility(Fake([[5, 1], [7, 0], [5, 1]], [1])), [0.25, 1.0, 0.25])
    np.testing.assert_allclose(utility(Fake([[3, 2], [3, 1]], [0])), [1.0, 0.0])
    np.testing.assert_allclose(utility(Fake([[3, 2], [3, 2]], [0, 1])), [0.5, 0.5])
    np.testing.assert_allclose(utility(Fake([[3]], [])), [0.0])


def test_bad_parameters_are_refused_in_one_line():
    with pytest.raises(InvalidArgumentError, match="simulations must be at least 1"):
        GumbelSearch(simulations=0)
    with pytest.raises(InvalidArgumentError, match="gumbel_scale"):
        GumbelSearch(gumbel_scale=float("nan"))
    with pytest.raises(InvalidArgumentError, match="evaluate"):
        GumbelSearch(evaluator=object())
    with pytest.raises(AgentError, match="determinizations"):
        GumbelGizmos(determinizations=0)
    with pytest.raises(AgentError, match="unknown game"):
        GumbelAgent("chess")
    g = get_game("gizmos").new_game(n_players=2, seed=0)
    with pytest.raises(InvalidArgumentError, match="infoset"):
        GumbelSearch().search_views([g.seat_view(infoset=False)], [g], [0])


def test_the_game_fixed_agents_play_their_game():
    for cls, name in ((GumbelElectrify, "electrify"), (GumbelGizmos, "gizmos")):
        g = get_game(name).new_game(n_players=2, seed=2)
        ag = cls(simulations=2, determinizations=1)
        ag.reset(seed=0)
        for _ in range(3):
            a = ag.act(g.seat_view())
            g.step(a)
        assert ag.last is not None and ag.game_def.name == name


def test_search_beats_random_at_gizmos():
    """20 two-player games, the search seated first in even games: it wins at least 16 (about
    40 s on 2 shared cores)."""
    from electrify_env.agents.search.measure import measure
    r = measure("gizmos", "random", games=20, n_players=2, seed=0, simulations=8, determinizations=2)
    assert r["wins"] >= 16, r


def test_agent_kind_is_registry_data_that_builds_the_agent():
    from electrify_env.agents.registry import _game_kind
    from electrify_env.agents.search.agent import agent_kind
    for name in ("electrify", "gizmos"):
        kind = _game_kind(name, "gumbel", agent_kind(name))
        assert set(kind.defaults()) == set(kind.params)
        agent = kind.load()(**{"simulations": kind.params["simulations"].parse("gumbel", "simulations", "3")})
        assert agent.game_def.name == name and agent.searcher.simulations == 3
    with pytest.raises(AgentError, match="no search agent class"):
        agent_kind("chess")


@pytest.mark.parametrize("game", ["electrify", "gizmos"])
def test_the_search_is_registered_for_every_game_and_plays_in_the_arena(game):
    """``gumbel`` is in each game's registry (``electrify agents --game G``) and an arena game
    with a small budget ends with a record."""
    from electrify_env.agents.arena import ArenaConfig, run_arena
    from electrify_env.agents.registry import agents_of, make_agent

    assert "gumbel" in agents_of(game)
    agent = make_agent("gumbel:simulations=2:determinizations=1:max_steps=20", game=game)
    assert agent.spec.startswith("gumbel")
    res = run_arena(ArenaConfig(agents=["gumbel:simulations=2:determinizations=1:max_steps=20", "random"],
                                games=2, seed=11, out=None, progress=False, game=game))
    assert len(res["records"]) == 2
