"""The PettingZoo AEC env electrify_v0: PettingZoo's conformance tests, secret plans (R4),
rewards, illegal actions, rendering and the lazy export."""
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test, state_test

import electrify_env
from electrify_env import Game, IllegalActionError
from electrify_env.engine import layout as L
from electrify_env.engine.observe import OBS_SIZE
from electrify_env.envs import electrify_v0
from electrify_env.scenarios import list_scenarios

from positions import pb


@pytest.mark.parametrize("n_players,packs", [(2, ()), (3, ()), (4, ()), (3, ("grid", "market"))])
def test_api_test(n_players, packs):
    api_test(electrify_v0.env(n_players=n_players, tech_packs=packs), num_cycles=1000)


@pytest.mark.parametrize("n_players,packs", [(2, ()), (3, ()), (4, ()), (2, ("grid",))])
def test_seed_test(n_players, packs):
    seed_test(lambda: electrify_v0.env(n_players=n_players, tech_packs=packs), num_cycles=200)


def test_raw_env_passes_api_test_too():
    api_test(electrify_v0.raw_env(n_players=2), num_cycles=1000)


def test_spaces_dtypes_and_identity():
    env = electrify_v0.raw_env(n_players=3)
    env.reset(seed=1)
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        assert env.action_space(agent) is env.action_space(agent)
        space = env.observation_space(agent)
        assert space["observation"].dtype == np.float32 and space["observation"].shape == (OBS_SIZE,)
        assert space["action_mask"].dtype == np.int8 and space["action_mask"].shape == (L.N_ACTIONS,)
        obs = env.observe(agent)
        assert obs["observation"].dtype == np.float32 and obs["action_mask"].dtype == np.int8
        assert space.contains(obs)
        assert env.infos[agent]["action_mask"].dtype == np.int8
    mover = env.agent_selection
    assert env.observe(mover)["action_mask"].any()
    assert np.array_equal(env.observe(mover)["action_mask"], env.infos[mover]["action_mask"])
    for agent in env.agents:
        if agent != mover:
            assert not env.observe(agent)["action_mask"].any()
            assert not env.infos[agent]["action_mask"].any()


def test_env_matches_the_engine_game():
    """Actions through the env reproduce Game.replay; observations equal Game.observe."""
    env = electrify_v0.raw_env(n_players=3)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g = Game.replay(env.unwrapped.history, n_players=3, seed=env.unwrapped.game_seed)
    assert g.is_terminal
    assert np.array_equal(g.state, env.unwrapped.state())


def test_r04_plan_choice_stays_secret():
    """player_1 dials after player_0: its observation, mask, info and reward are the same
    whichever sector player_0 chose."""
    seen = []
    for s in range(5):
        env = electrify_v0.raw_env(n_players=3)
        env.reset(seed=21)
        assert env.agent_selection == "player_0"
        env.step(L.A_PLAN + s)
        assert env.agent_selection == "player_1"
        obs, rew, _, _, info = env.last()
        other = env.observe("player_2")
        seen.append((obs["observation"], obs["action_mask"], info["action_mask"], rew, other["observation"]))
    for item in seen[1:]:
        for a, b in zip(item, seen[0]):
            assert np.array_equal(a, b)


def _play_to_last_pass(env, seed=1):
    """Play random moves until passing ends the game; return with that pass pending."""
    rng = np.random.default_rng(seed)
    u = env.unwrapped
    while True:
        if u._mask[L.A_PASS]:
            probe = u.game.copy()
            probe.step(L.A_PASS)
            if probe.is_terminal:
                return
        env.step(int(rng.choice(np.flatnonzero(u._mask))))


def _rig_scores(S, scores):
    """Set the points and make every other R18 key equal."""
    for p, sc in enumerate(scores):
        b = pb(p)
        S[b + L.P_SCORE] = sc
        S[b + L.P_BT:b + L.P_BT + L.N_BT_SPACES] = 0
        S[b + L.P_RESEARCH] = 0
        S[b + L.P_DEPOT:b + L.P_DEPOT + L.N_COLS] = 0
        S[b + L.P_GRID:b + L.P_GRID + L.N_COLS] = 0


@pytest.mark.parametrize("scores,expect", [
    ([10, 4, 4], [1.0, -1.0, -1.0]),          # one winner
    ([9, 9, 3], [0.5, 0.5, -1.0]),            # two winners share the +1
    ([3, 9, 9], [-1.0, 0.5, 0.5]),
    ([5, 5, 5], [0.0, 0.0, 0.0]),             # everyone tied: a draw
])
def test_r18_win_rewards_share_and_draw(scores, expect):
    env = electrify_v0.raw_env(n_players=3)
    env.reset(seed=3)
    _play_to_last_pass(env)
    _rig_scores(env.unwrapped._S, scores)
    env.step(L.A_PASS)
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert [env._cumulative_rewards[a] for a in env.possible_agents] == pytest.approx(expect)
    winners = env.unwrapped.game.winners()
    assert winners == ([0, 1, 2] if expect == [0.0] * 3 else [p for p in range(3) if expect[p] > 0])


def test_margin_and_shaped_rewards_follow_the_points():
    env = electrify_v0.raw_env(n_players=2, reward_mode="shaped", points_scale=0.1)
    env.reset(seed=8)
    rng = np.random.default_rng(8)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        total[agent] += rew
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    g = Game.replay(env.history, n_players=2, seed=env.game_seed)
    win = g.winners()
    for p, a in enumerate(env.possible_agents):
        win_r = 0.0 if len(win) == 2 else (1.0 / len(win) if p in win else -1.0)
        assert total[a] == pytest.approx(0.1 * g.scores()[p] + win_r)
    env = electrify_v0.raw_env(n_players=2, reward_mode="margin")
    env.reset(seed=8)
    for action in g.history:
        env.step(action)
    sc = g.scores()
    assert env._cumulative_rewards["player_0"] == pytest.approx(0.1 * (sc[0] - sc[1]))
    assert env._cumulative_rewards["player_1"] == pytest.approx(0.1 * (sc[1] - sc[0]))


def test_illegal_action_raises_in_raw_env_and_ends_the_game_when_wrapped():
    raw = electrify_v0.raw_env(n_players=2)
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    before = raw.state()
    with pytest.raises(IllegalActionError, match="not legal"):
        raw.step(illegal)
    with pytest.raises(ValueError):
        raw.step(1.5)
    assert np.array_equal(raw.state(), before)
    env = electrify_v0.env(n_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))   # PettingZoo logs a warning
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1


def test_render_modes():
    env = electrify_v0.raw_env(n_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "Electrify" in text and "player 1" in text
    with pytest.raises(ValueError, match="render_mode"):
        electrify_v0.raw_env(render_mode="rgb")


def test_bad_arguments():
    with pytest.raises(ValueError, match="n_players"):
        electrify_v0.raw_env(n_players=1)
    with pytest.raises(ValueError, match="reward_mode"):
        electrify_v0.raw_env(reward_mode="points")
    with pytest.raises(ValueError, match="tech pack"):
        electrify_v0.raw_env(tech_packs=("nope",))


def test_lazy_exports_do_not_import_pettingzoo():
    code = ("import sys, electrify_env; assert 'pettingzoo' not in sys.modules; "
            "e = electrify_env.env(n_players=2); "
            "assert 'pettingzoo' in sys.modules; assert electrify_env.raw_env is not None; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert electrify_env.env is electrify_v0.env and electrify_env.raw_env is electrify_v0.raw_env


# ---- state() and state_space ----------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:Environment's maximum and minimum state space values are equal")
@pytest.mark.parametrize("n_players,packs", [(2, ()), (3, ()), (4, ("grid", "market"))])
def test_state_test(n_players, packs):
    """PettingZoo's state_test (it plays unmasked random actions, so the wrapped env: the first
    illegal one ends the game).  Its one warning, equal bounds, is the layout version
    (test_state_bounds_cover_every_field)."""
    state_test(electrify_v0.env(n_players=n_players, tech_packs=packs),
               electrify_v0.env(n_players=n_players, tech_packs=packs), num_cycles=10)


def test_state_bounds_cover_every_field():
    low, high = electrify_v0.state_bounds()
    assert low.shape == high.shape == (L.S_SIZE,) and low.dtype == high.dtype == np.int64
    assert (low <= high).all()
    assert np.flatnonzero(low == high).tolist() == [L.S_VERSION]
    env = electrify_v0.env(n_players=3)
    space = env.unwrapped.state_space
    assert env.state_space is space and space.dtype == np.int64 and space.shape == (L.S_SIZE,)
    assert np.array_equal(space.low, low) and np.array_equal(space.high, high)
    env.reset(seed=0)
    assert space.contains(env.state())
    for off, bad in [(L.S_ROUND, L.N_ROUNDS + 1), (L.S_CUR, L.MAX_PLAYERS), (L.S_SP, L.MAX_STACK + 1),
                     (L.S_DECK, L.MAX_IND), (pb(1) + L.P_SEC_COL, L.N_COLS), (pb(0) + L.P_HAND, -2),
                     (pb(2) + L.P_RESEARCH, L.RESEARCH_TRACK + 1), (pb(0) + L.P_SCORE, -1)]:
        state = env.state()
        state[off] = bad
        assert not space.contains(state), off


def _random_game_states(env, seed):
    """Play ``env`` (raw) to the end with random legal actions; yield the state after each step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    yield env.state()
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if env.agents:
            yield env.state()


@pytest.mark.parametrize("n_players,packs,seed", [(2, (), 0), (4, ("grid", "market"), 1)])
def test_state_stays_in_state_space_through_whole_games(n_players, packs, seed):
    env = electrify_v0.raw_env(n_players=n_players, tech_packs=packs)
    states = list(_random_game_states(env, seed))
    assert states[-1][L.S_TERMINAL] == 1 and len(states) > 100
    assert all(env.state_space.contains(s) for s in states)


def test_solo_states_lie_in_the_state_bounds():
    """The bounds hold for every engine state, solo scenarios included (their stars, challenges
    and boost tokens)."""
    low, high = electrify_v0.state_bounds()
    rng = np.random.default_rng(0)
    for k, sc in enumerate(list_scenarios()):
        g = Game(scenario=sc, seed=k, tech_packs=("grid", "market") if k % 2 else ())
        while not g.is_terminal:
            assert ((g.state >= low) & (g.state <= high)).all(), sc
            g.step(int(rng.choice(g.legal_actions())))
        assert ((g.state >= low) & (g.state <= high)).all(), sc
