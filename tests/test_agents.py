"""The agent interface, the registry, the greedy and mcts agents (legal play, the mcts agent
never reading hidden information) and the PPO adapter's compatibility checks."""
from __future__ import annotations

import json

import numpy as np
import pytest

from electrify_env.agents import AGENTS, Agent, AgentError, describe_agents, make_agent, parse_spec, seat_view
from electrify_env.agents.greedy import DEFAULT_WEIGHTS, GreedyWeights, load_weights
from electrify_env.agents.mcts import KEY_FRAMES, MCTSAgent
from electrify_env.decision import pending_frame_type
from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.kernels import search as SR
from electrify_env.engine.infoset import scrub


def play(game: Game, agents: list[Agent], max_decisions: int = 20_000) -> Game:
    """Play ``game`` to its end with one agent per seat, checking every action."""
    for k in range(max_decisions):
        if game.is_terminal:
            return game
        game.step(agents[game.current_player].act_in(game))
    raise AssertionError("game did not end")


def pb(p: int) -> int:
    return L.S_PLAYERS + p * L.P_SIZE


# ---- registry --------------------------------------------------------------------------------
def test_registry_builds_every_kind_but_ppo():
    for name in ("random", "greedy", "mcts"):
        a = make_agent(name)
        assert isinstance(a, Agent) and a.name == name and a.spec == name
    m = make_agent("mcts:iters=7:horizon=2:top_k=3:c=0.5:search=all:method=ucb:skip_margin=1")
    assert (m.iters, m.horizon, m.top_k, m.c, m.search, m.method, m.skip_margin) == \
        (7, 2, 3, 0.5, "all", "ucb", 1.0)
    assert m.spec == "mcts:iters=7:horizon=2:top_k=3:c=0.5:search=all:method=ucb:skip_margin=1"
    text = describe_agents()
    for name in AGENTS:
        assert name in text


def test_registry_unknown_agent_lists_known_ones():
    with pytest.raises(AgentError, match="unknown agent 'alphazero'; known agents: random, greedy, mcts, ppo"):
        make_agent("alphazero")
    with pytest.raises(AgentError, match="known agents"):
        make_agent("")


def test_registry_bad_parameters_are_explained():
    with pytest.raises(AgentError, match="agent 'mcts' has no parameter 'depth'; parameters: iters, ms"):
        make_agent("mcts:depth=3")
    with pytest.raises(AgentError, match="iters='many' is not a valid int"):
        make_agent("mcts:iters=many")
    with pytest.raises(AgentError, match="must lie in \\[1, 1000000\\]"):
        make_agent("mcts:iters=0")
    with pytest.raises(AgentError, match="must be key=value"):
        make_agent("mcts:400")
    with pytest.raises(AgentError, match="given twice"):
        make_agent("mcts:iters=4:iters=5")
    with pytest.raises(AgentError, match="has no parameter 'x'; parameters: \\(none\\)"):
        make_agent("random:x=1")
    with pytest.raises(AgentError, match="search='everything' is not one of core, key, all"):
        make_agent("mcts:search=everything")
    with pytest.raises(AgentError, match="method='tree' is not one of paired, ucb"):
        make_agent("mcts:method=tree")
    with pytest.raises(AgentError, match="explore=2.0 must lie in"):
        make_agent("mcts:explore=2")
    with pytest.raises(AgentError, match="needs a policy file"):
        make_agent("ppo")
    with pytest.raises(AgentError, match="does not exist"):
        make_agent("ppo:path=/nonexistent/x.zip")
    assert parse_spec(" greedy ").name == "greedy"


# ---- the interface ---------------------------------------------------------------------------
def test_seat_view_holds_only_what_the_seat_may_know():
    g = Game(3, seed=4)
    g.step(int(g.legal_actions()[0]))        # seat 0 dials a plan: secret from the others
    v = seat_view(g)
    assert v.seat == 1 and v.n_players == 3 and v.observation.shape == (g.OBS_SIZE,)
    assert np.array_equal(v.mask, g.legal_mask())
    info = v.infoset
    assert info[pb(0) + L.P_PLAN] == -2                      # dialled, hidden
    assert (info[pb(0) + L.P_HAND: pb(0) + L.P_HAND + 6] == -2).all()   # other hands hidden
    assert (info[pb(1) + L.P_HAND: pb(1) + L.P_HAND + 6] >= 0).all()    # own hand known
    assert (info[L.S_DECK: L.S_DECK + int(g.state[L.S_DECK_N])] == -2).all()
    assert (info[L.S_RNG: L.S_RNG + 4] == 0).all()
    with pytest.raises(AgentError, match="seat 0 is not on turn"):
        seat_view(g, seat=0)


def test_seat_view_after_the_game_is_refused():
    g = play(Game(2, seed=1), [make_agent("random"), make_agent("random")])
    with pytest.raises(AgentError, match="the game is over"):
        seat_view(g)


def test_random_agent_is_uniform_legal_and_callable():
    g = Game(2, seed=2)
    r = make_agent("random")
    r.reset(5)
    policy = r.as_callable()
    mask = g.legal_mask().copy()
    picks = {policy(g.observe(0), mask) for _ in range(200)}
    assert picks == set(np.flatnonzero(mask).tolist())      # five plan choices, all drawn
    r.reset(5)
    a = [r.act(seat_view(g)) for _ in range(20)]
    r.reset(5)
    assert a == [r.act(seat_view(g)) for _ in range(20)]   # reset(seed) reproduces


def test_search_agents_have_no_observation_mask_form():
    for name in ("greedy", "mcts"):
        with pytest.raises(AgentError, match="needs the information-set view"):
            make_agent(name).as_callable()
    g = Game(2, seed=0)
    view = seat_view(g, infoset=False)
    with pytest.raises(AgentError, match="needs the information-set view"):
        make_agent("greedy").act(view)


# ---- greedy ----------------------------------------------------------------------------------
def test_weights_file_matches_the_dataclass_and_the_jitted_order():
    w = load_weights()
    assert w == GreedyWeights()           # the dataclass defaults are the shipped weights
    assert tuple(w.to_dict()) == SR.WEIGHT_NAMES
    arr = w.to_array()
    assert arr.shape == (SR.N_WEIGHTS,) and not arr.flags.writeable
    assert GreedyWeights.from_array(arr) == w


def test_weights_file_errors(tmp_path):
    good = DEFAULT_WEIGHTS.read_text()
    p = tmp_path / "w.yaml"
    p.write_text(good + "magic: 1\n")
    with pytest.raises(AgentError, match="unknown weight\\(s\\) magic; known: score"):
        load_weights(p)
    p.write_text("\n".join(line for line in good.splitlines() if not line.startswith("engine:")))
    with pytest.raises(AgentError, match="missing weight\\(s\\) engine"):
        load_weights(p)
    p.write_text(good.replace("score: 1.0", "score: lots"))
    with pytest.raises(AgentError, match="score must be numbers"):
        load_weights(p)
    with pytest.raises(AgentError, match="does not exist"):
        load_weights(tmp_path / "none.yaml")
    p.write_text(GreedyWeights(engine=0.25).yaml_text())
    assert load_weights(p).engine == 0.25
    assert make_agent(f"greedy:weights={p}").W[SR.WEIGHT_NAMES.index("engine")] == 0.25


def test_greedy_plays_legal_games_and_beats_random():
    wins = 0
    for s in range(4):
        g = Game(2, seed=100 + s)
        agents = [make_agent("greedy"), make_agent("random")]
        if s % 2:
            agents.reverse()
        for k, a in enumerate(agents):
            a.reset(s * 10 + k)
        play(g, agents)
        wins += (s % 2) in g.winners()
    assert wins == 4


def test_greedy_fulfils_demand_and_takes_rewards():
    """Position: player 0 at Fulfill with 3 Fossil Fuel and 1 Natural Gas in the grid and the
    level-I demand needing exactly what they hold; the greedy fulfils it, then takes every
    reward."""
    g = Game(2, seed=3)
    greedy = make_agent("greedy")
    greedy.reset(0)
    other = make_agent("greedy")
    other.reset(1)
    while not (g.current_player == 0 and pending_frame_type(g.state) == L.FT_FULFILL):
        g.step((greedy if g.current_player == 0 else other).act_in(g))
    d = int(g.state[L.S_DEMAND + 0])
    T = g.cards.table
    for j in range(L.MAX_REQ):
        col = int(T[L.T_D_REQ_COL + d * L.MAX_REQ + j])
        if col >= 0:
            g.state[pb(0) + L.P_GRID + col] = int(T[L.T_D_REQ_N + d * L.MAX_REQ + j])
    assert g.legal_mask()[L.A_FULFILL + 0]
    a = greedy.act_in(g)
    assert a == L.A_FULFILL + 0
    g.step(a)
    while pending_frame_type(g.state) in (L.FT_REWARD, L.FT_CARD_CHOICE, L.FT_FLIP, L.FT_PLACE_SECTOR,
                                      L.FT_PLACE_SLOT, L.FT_REORDER, L.FT_ITEM, L.FT_ICON):
        a = greedy.act_in(g)
        if pending_frame_type(g.state) == L.FT_REWARD:
            assert a != L.A_PASS
        g.step(a)


def solo_game(spec: str, scenario: str, seed: int, agent_seed: int = 0) -> Game:
    """A solo game of ``scenario`` played to its end by the agent ``spec``."""
    agent = make_agent(spec)
    agent.reset(agent_seed)
    return play(Game(seed=seed, scenario=scenario), [agent])


def check_solo_result(g: Game) -> dict:
    """``solo_result()`` of a finished game, checked against the state: stars claimed, their
    points from the scenario's table, final score and the win against the target."""
    r = g.solo_result()
    n = int(g.state[L.S_SOLO_NSTARS])
    claimed = int((g.state[L.S_STAR_STATE:L.S_STAR_STATE + n] == 1).sum())
    assert r["stars"] == claimed
    assert r["star_points"] == int(g.scenario.table[L.SC_STAR_POINTS + claimed])
    assert r["score"] == int(g.scores()[0]) and r["final_score"] == r["score"] + r["star_points"]
    assert r["target"] == int(g.scenario.table[L.SC_TARGET])
    assert r["won"] == (r["final_score"] >= r["target"]) and g.winners() == ([0] if r["won"] else [])
    return r


@pytest.mark.parametrize("scenario", ["first_light", "steady_current"])
def test_greedy_wins_easy_solo_scenarios_that_random_never_wins(scenario):
    """On the same twelve deals, greedy reaches the scenario's target in at least 9 (measured on
    the default card set: 9 and 11 of 12, final scores 5-59, mean 35 and 32, against targets 18
    and 20; greedy has bad deals where it never fulfils a demand) and random never does (0-2)."""
    greedy = [check_solo_result(solo_game("greedy", scenario, seed)) for seed in range(9, 21)]
    rand = [check_solo_result(solo_game("random", scenario, seed)) for seed in range(9, 21)]
    target = greedy[0]["target"]
    assert sum(r["won"] for r in greedy) >= 9, [r["final_score"] for r in greedy]
    assert sum(r["stars"] >= 1 for r in greedy) >= 9
    assert not any(r["won"] for r in rand) and max(r["final_score"] for r in rand) < target // 2
    mean_greedy = sum(r["final_score"] for r in greedy) / len(greedy)
    mean_rand = sum(r["final_score"] for r in rand) / len(rand)
    assert mean_greedy >= mean_rand + target


# ---- mcts ------------------------------------------------------------------------------------
def _hide_differently(g: Game, seat: int) -> Game:
    """A copy of ``g`` whose hidden information differs (another seat's hand swapped with deck
    cards of the same kind, the generator reseeded) while everything ``seat`` knows is equal."""
    h = g.copy()
    S = h.state
    T = h.cards.table
    for q in range(h.n_players):
        if q == seat:
            continue
        base = pb(q) + L.P_HAND
        n = int(S[pb(q) + L.P_HAND_N])
        for k in range(n):
            card = int(S[base + k])
            d = int(T[L.T_IND_DECK + card])
            nd = int(S[L.S_DECK_N + d])
            if nd:
                top = L.S_DECK + d * L.MAX_DECK + nd - 1 - k % nd
                S[base + k], S[top] = S[top], card
        S[base: base + n] = np.sort(S[base: base + n])
    S[L.S_RNG: L.S_RNG + 4] = [12345, 678, 91011, 1213]
    for d in range(2):
        nd = int(S[L.S_DECK_N + d])
        S[L.S_DECK + d * L.MAX_DECK: L.S_DECK + d * L.MAX_DECK + nd] = \
            S[L.S_DECK + d * L.MAX_DECK: L.S_DECK + d * L.MAX_DECK + nd][::-1].copy()
    h.check_invariants()
    return h


def _view(g: Game) -> np.ndarray:
    out = np.empty(L.S_SIZE, dtype=np.int64)
    scrub(g.state, g.cards.table, np.int64(g.current_player), out)
    return out


def test_mcts_moves_do_not_change_when_only_hidden_information_changes():
    g = Game(2, seed=21)
    a0 = make_agent("greedy")
    a0.reset(0)
    a1 = make_agent("greedy")
    a1.reset(1)
    searched = 0
    for k in range(400):
        if g.is_terminal:
            break
        p = g.current_player
        if k % 5 == 0 and pending_frame_type(g.state) in KEY_FRAMES and len(g.legal_actions()) > 1:
            h = _hide_differently(g, p)
            assert not np.array_equal(h.state, g.state)
            assert np.array_equal(_view(h), _view(g))
            m1 = MCTSAgent(iters=12)
            m2 = MCTSAgent(iters=12)
            m1.reset(77)
            m2.reset(77)
            assert m1.act_in(g) == m2.act_in(h)
            searched += m1.searched
        g.step((a0 if p == 0 else a1).act_in(g))
    assert searched >= 10


@pytest.mark.parametrize("method", ["paired", "ucb"])
def test_mcts_plays_legal_games_with_time_and_iteration_budgets(method):
    g = Game(2, seed=5)
    m = make_agent(f"mcts:iters=8:method={method}")
    r = make_agent(f"mcts:ms=5:top_k=3:method={method}:search=core")
    m.reset(1)
    r.reset(2)
    play(g, [m, r])
    assert m.searched > 20 and m.iterations >= 5 * m.searched   # paired: (8 // k) * k rollouts
    assert r.searched > 10 and r.iterations >= 2 * r.searched


def test_mcts_is_reproducible_from_its_seed():
    def run():
        g = Game(2, seed=6)
        m = make_agent("mcts:iters=6")
        r = make_agent("greedy")
        m.reset(3)
        r.reset(4)
        return play(g, [m, r]).history
    assert run() == run()


def test_mcts_plays_solo_and_beats_its_rollout_policy():
    """steady_current, seed 2 (target 20): greedy alone scores 47 (final), mcts with 6 rollouts
    per searched move 56: the search improves on the greedy it rolls out with."""
    m = check_solo_result(solo_game("mcts:iters=6", "steady_current", 2))
    greedy = check_solo_result(solo_game("greedy", "steady_current", 2))
    assert m["won"] and greedy["won"]
    assert m["final_score"] > greedy["final_score"]


# ---- ppo -------------------------------------------------------------------------------------
def _tiny_policy(tmp_path, card_hash: str):
    """Train a MaskablePPO policy for a few hundred steps on a dummy env with the engine's
    observation and action spaces, and save it with its metadata."""
    gym = pytest.importorskip("gymnasium")
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from electrify_env.agents.ppo import save_policy

    class Dummy(gym.Env):
        def __init__(self):
            self.observation_space = gym.spaces.Box(0.0, 1.0, (Game.OBS_SIZE,), np.float32)
            self.action_space = gym.spaces.Discrete(L.N_ACTIONS)
            self.game = None

        def reset(self, seed=None, options=None):
            super().reset(seed=seed)
            self.game = Game(2, seed=int(self.np_random.integers(1000)))
            return self.game.observe(self.game.current_player), {}

        def action_masks(self):
            return self.game.legal_mask().astype(bool)

        def step(self, action):
            self.game.step(int(action))
            done = self.game.is_terminal or len(self.game.history) > 50
            obs = np.zeros(Game.OBS_SIZE, np.float32) if self.game.is_terminal else \
                self.game.observe(self.game.current_player)
            return obs, 0.0, done, False, {}

    model = MaskablePPO("MlpPolicy", Dummy(), n_steps=64, batch_size=32, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [16]}, device="cpu")
    from stable_baselines3.common.logger import configure

    model.set_logger(configure(str(tmp_path / "sb3_log"), []))   # not a folder in /tmp
    model.learn(total_timesteps=192)
    path = tmp_path / "tiny.zip"
    save_policy(model, path, card_hash, "test-dummy-v0", steps=192)
    return path


def test_ppo_adapter_plays_and_refuses_foreign_layouts(tmp_path):
    g = Game(2, seed=8)
    path = _tiny_policy(tmp_path, g.cards.hash)
    agent = make_agent(f"ppo:path={path}")
    agent.reset(0)
    for _ in range(30):
        a = agent.act_in(g)
        assert g.legal_mask()[a]
        g.step(a)
    policy = agent.as_callable(card_set_hash=g.cards.hash)
    assert g.legal_mask()[policy(g.observe(g.current_player), g.legal_mask())]
    from electrify_env.agents.policy_meta import PolicyMismatchError, meta_path

    meta = json.loads(meta_path(path).read_text())
    meta["obs_version"] = meta["obs_version"] + 1
    meta["obs_size"] = 3
    meta_path(path).write_text(json.dumps(meta))
    with pytest.raises(PolicyMismatchError, match="saved for another layout \\(obs_version: saved .*obs_size: saved 3"):
        make_agent(f"ppo:path={path}")
    meta_path(path).unlink()
    # a zip without its sidecar plays (its spaces checked), with a one-line warning
    with pytest.warns(UserWarning, match="has no metadata file"):
        bare = make_agent(f"ppo:path={path}")
    g = Game(n_players=2, seed=3)
    assert g.legal_mask()[bare.as_callable(card_set_hash=g.cards.hash)(g.observe(g.current_player), g.legal_mask())]


def test_sampling_ppo_agent_draws_from_its_own_generator(tmp_path):
    """A sampling ``ppo`` agent reseeded alike plays the same actions, whatever torch's global
    generator does in between; another seed plays other actions."""
    import torch

    g0 = Game(2, seed=8)
    path = _tiny_policy(tmp_path, g0.cards.hash)

    def play(seed, disturb):
        agent = make_agent(f"ppo:path={path}:deterministic=false")
        agent.reset(seed)
        g = Game(2, seed=8)
        out = []
        for _ in range(40):
            if disturb:
                torch.rand(7)
            a = agent.act_in(g)
            assert g.legal_mask()[a]
            out.append(a)
            g.step(a)
        return out

    torch.manual_seed(123)
    first = play(3, disturb=False)
    torch.manual_seed(999)
    assert play(3, disturb=True) == first
    assert play(4, disturb=False) != first


def test_ppo_adapter_refuses_another_card_set(tmp_path):
    g = Game(2, seed=8)
    path = _tiny_policy(tmp_path, "0" * 64)
    agent = make_agent(f"ppo:path={path}")
    from electrify_env.agents.policy_meta import PolicyMismatchError

    with pytest.raises(PolicyMismatchError, match="card_set_hash"):
        agent.act_in(g)


@pytest.mark.slow
def test_greedy_beats_random_in_most_games():
    wins = 0
    n = 60
    for s in range(n):
        g = Game(2, seed=10_000 + s)
        ag = [make_agent("greedy"), make_agent("random")]
        if s % 2:
            ag.reverse()
        for k, a in enumerate(ag):
            a.reset(s * 7 + k)
        play(g, ag)
        wins += (s % 2) in g.winners()
    assert wins >= 0.95 * n
