"""The Gizmos environments: the PettingZoo AEC env gizmos_v0 and the Gymnasium one-seat env
Gizmos-v0 (electrify_env/gizmos/envs/): the ecosystem's conformance checks, determinism, rewards,
truncation (G22), illegal actions, opponents, and a short MaskablePPO run."""
import re
import time
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import yaml
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import api_test, seed_test
from stable_baselines3.common.env_checker import check_env as sb3_check_env

import electrify_env
from electrify_env.gizmos import Game
from electrify_env.gizmos.cards import DEFAULT_CARDS, compile_card_set
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.envs import GizmosEnv, TerminateIllegalAction, gizmos_v0
from electrify_env.gizmos.observation import CF_SIZE, OBS_SIZE, observation_rows, observe
from electrify_env.registration import GIZMOS_ENV_ID
from electrify_env.validation import IllegalActionError, InvalidArgumentError


def _short_cards(max_rounds: int = 3):
    """The default set with a round cap of ``max_rounds`` (every game ends by G22)."""
    data = yaml.safe_load(DEFAULT_CARDS.read_text())
    data["rules"]["max_rounds"] = max_rounds
    return compile_card_set(data, "short")


def _random_aec(env, seed):
    """Play the (raw) AEC env to the end with random legal actions; return the rewards summed."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, rew, term, trunc, _ = env.last()
        total[agent] += rew
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return total


# ---- PettingZoo ---------------------------------------------------------------------------------
@pytest.mark.parametrize("n_players,cycles", [(2, 1000), (3, 300), (4, 300)])
def test_api_test(n_players, cycles):
    api_test(gizmos_v0.env(n_players=n_players), num_cycles=cycles)


def test_raw_env_passes_api_test_too():
    api_test(gizmos_v0.raw_env(n_players=2), num_cycles=300)


@pytest.mark.parametrize("n_players", [2, 4])
def test_seed_test(n_players):
    seed_test(lambda: gizmos_v0.env(n_players=n_players), num_cycles=200)


def test_aec_spaces_masks_and_observations():
    env = gizmos_v0.raw_env(n_players=3)
    env.reset(seed=1)
    mover = env.agent_selection
    for agent in env.possible_agents:
        assert env.observation_space(agent) is env.observation_space(agent)
        obs = env.observe(agent)
        assert env.observation_space(agent).contains(obs)
        assert np.array_equal(obs["observation"], observe(env.game, env.agent_name_mapping[agent]))
        assert obs["action_mask"].any() == (agent == mover)
        assert np.array_equal(obs["action_mask"], env.infos[agent]["action_mask"])
    assert np.array_equal(np.flatnonzero(env.observe(mover)["action_mask"]), env.game.legal_actions())
    assert not env.metadata["is_parallelizable"]


@pytest.mark.parametrize("n_players,seed", [(2, 5), (4, 6)])
def test_aec_game_replays_and_the_winner_gets_plus_one(n_players, seed):
    env = gizmos_v0.raw_env(n_players=n_players)
    total = _random_aec(env, seed)
    g = Game(n_players, seed=env.game_seed)
    for a in env.history:
        g.step(a)
    assert g.done and np.array_equal(g.state, env.state())
    win = g.winner()
    assert [total[a] for a in env.possible_agents] == [1.0 if p == win else -1.0 for p in range(n_players)]
    assert not env.agents


def test_aec_same_seed_same_game():
    a, b = gizmos_v0.raw_env(n_players=3), gizmos_v0.raw_env(n_players=3)
    _random_aec(a, 9)
    _random_aec(b, 9)
    assert a.game_seed == b.game_seed and a.history == b.history
    c = gizmos_v0.raw_env(n_players=3)
    _random_aec(c, 10)
    assert c.game_seed != a.game_seed


def test_g22_aec_round_cap_truncates_every_agent():
    env = gizmos_v0.raw_env(n_players=2, card_set=_short_cards(3))
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    while env.agents:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            assert trunc and not term
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.game.truncated and env.game.round == 3
    assert sorted(env._cumulative_rewards.values()) == [-1.0, 1.0]


def test_aec_illegal_action_raises_raw_and_ends_the_game_wrapped():
    raw = gizmos_v0.raw_env(n_players=2)
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    before = raw.state()
    with pytest.raises(IllegalActionError, match=r"^action \d+ is not legal now for player_0 at: round 1.*legal ids: \[") as e:
        raw.step(illegal)
    assert "\n" not in str(e.value)
    with pytest.raises(IllegalActionError, match="out of range 0..156"):
        raw.step(L.N_ACTIONS)
    with pytest.raises(IllegalActionError, match="integer id"):
        raw.step(1.5)
    assert np.array_equal(raw.state(), before)
    env = gizmos_v0.env(n_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))     # PettingZoo warns and ends the game
    assert all(env.terminations.values()) and env.rewards[agent] == -1


def test_aec_render_and_bad_arguments():
    env = gizmos_v0.raw_env(n_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.startswith("Gizmos, 2 players, round 1, player 0 to move (main)") and "player 1:" in text
    with pytest.raises(InvalidArgumentError, match="render_mode"):
        gizmos_v0.raw_env(render_mode="rgb_array")
    with pytest.raises(InvalidArgumentError, match="n_players must be 2, 3 or 4"):
        gizmos_v0.raw_env(n_players=5)
    with pytest.raises(InvalidArgumentError, match="seed"):
        env.reset(seed=-1)


# ---- Gymnasium ----------------------------------------------------------------------------------
MAKE_ARGS = [{}, {"n_players": 4, "seat": None}, {"n_players": 3, "seat": 2, "render_mode": "ansi"}]


@pytest.mark.parametrize("kwargs", MAKE_ARGS)
def test_gymnasium_check_env(kwargs):
    gym_check_env(gym.make(GIZMOS_ENV_ID, **kwargs), skip_render_check=False)


def test_sb3_check_env():
    sb3_check_env(gym.make(GIZMOS_ENV_ID, n_players=3), warn=True)


def test_registered_on_import():
    assert GIZMOS_ENV_ID == "Gizmos-v0" and GIZMOS_ENV_ID in gym.registry
    assert electrify_env.registration.register_envs() is True
    env = gym.make(GIZMOS_ENV_ID)
    assert isinstance(env.unwrapped, GizmosEnv)
    assert env.observation_space == gym.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
    assert env.action_space == gym.spaces.Discrete(L.N_ACTIONS)


def _episode(env, seed, policy_seed=0):
    """Play one episode with random legal actions; return (observations, rewards, last info)."""
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    seen, rewards = [obs], []
    while True:
        assert np.array_equal(info["action_mask"] != 0, env.unwrapped.action_masks())
        obs, rew, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        seen.append(obs)
        rewards.append(rew)
        if term or trunc:
            return seen, rewards, info


@pytest.mark.parametrize("kwargs", [{}, {"n_players": 3, "seat": None}])
def test_same_seed_same_episode(kwargs):
    a, b = gym.make(GIZMOS_ENV_ID, **kwargs), gym.make(GIZMOS_ENV_ID, **kwargs)
    ea, eb = _episode(a, 4), _episode(b, 4)
    assert len(ea[0]) == len(eb[0]) and all(np.array_equal(x, y) for x, y in zip(ea[0], eb[0]))
    assert ea[1] == eb[1] and ea[2]["seed"] == eb[2]["seed"] and ea[2]["scores"] == eb[2]["scores"]
    ec = _episode(a, 5)
    assert ec[2]["seed"] != ea[2]["seed"]


def test_end_info_and_win_reward():
    env = gym.make(GIZMOS_ENV_ID, n_players=3, seat=1)
    _, rewards, info = _episode(env, 7)
    assert all(r == 0.0 for r in rewards[:-1])
    assert rewards[-1] == (1.0 if info["won"] else -1.0) and info["won"] == (info["winner"] == 1)
    assert info["seat"] == 1 and info["score"] == info["scores"][1] and len(info["scores"]) == 3
    assert info["episode_length"] == len(rewards)
    g = env.unwrapped.game
    assert g.done and g.winner() == info["winner"] and g.scores().tolist() == info["scores"]
    assert not env.unwrapped.action_masks().any()


def test_g22_gym_round_cap_truncates():
    env = gym.make(GIZMOS_ENV_ID, card_set=_short_cards(2))
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        obs, rew, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            break
    assert trunc and not term and rew in (1.0, -1.0) and env.unwrapped.game.truncated


def test_gym_illegal_actions():
    bare = GizmosEnv()
    with pytest.raises(IllegalActionError, match="reset"):
        bare.step(0)
    obs, info = bare.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    state = bare.game.state.copy()
    with pytest.raises(IllegalActionError, match=r"^action \d+ is not legal now for seat 0 at: round 1, player 0; legal ids") as e:
        bare.step(illegal)
    assert "\n" not in str(e.value)
    with pytest.raises(IllegalActionError, match="integer id 0..156"):
        bare.step("1")
    assert np.array_equal(bare.game.state, state)
    env = gym.make(GIZMOS_ENV_ID, illegal_reward=-2.5)
    obs, info = env.reset(seed=0)
    obs2, rew, term, trunc, info2 = env.step(illegal)
    assert rew == -2.5 and term and not trunc and info2["illegal_action"]
    assert np.array_equal(obs, obs2) and not env.get_wrapper_attr("action_masks")().any()
    with pytest.raises(ValueError, match="call reset"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    with pytest.raises(InvalidArgumentError, match="illegal_action"):
        gym.make(GIZMOS_ENV_ID, illegal_action="ignore")
    with pytest.raises(InvalidArgumentError, match="illegal_reward"):
        TerminateIllegalAction(GizmosEnv(), illegal_reward=float("nan"))


def test_gym_bad_arguments():
    with pytest.raises(InvalidArgumentError, match="seat must be None or an integer 0..1"):
        GizmosEnv(seat=2)
    with pytest.raises(InvalidArgumentError, match="opponents must have 2 entries"):
        GizmosEnv(n_players=3, opponents=[lambda o, m: 0])
    with pytest.raises(InvalidArgumentError, match=r"opponents\[0\] must be"):
        GizmosEnv(opponents=[3])
    with pytest.raises(InvalidArgumentError, match="opponents must be None"):
        GizmosEnv(opponents=3)
    with pytest.raises(ValueError, match="opponents"):
        GizmosEnv(opponents="no_such_agent")


# ---- opponents ----------------------------------------------------------------------------------
def _first_legal(observation, action_mask):
    assert observation.dtype == np.float32 and observation.shape == (OBS_SIZE,)
    assert action_mask.dtype == np.int8
    return int(np.flatnonzero(action_mask)[0])


class _LastLegal:
    """An agent object: ``reset(seed)`` and ``act(view)``; records what it was asked with."""

    needs_observation = True
    needs_infoset = False

    def __init__(self):
        self.seeds, self.views = [], []

    def reset(self, seed):
        self.seeds.append(seed)

    def act(self, view):
        self.views.append(view)
        return int(view.legal_actions[-1])


def test_callable_and_agent_object_opponents_play_their_seats():
    agent = _LastLegal()
    env = GizmosEnv(n_players=3, seat=1, opponents=[_first_legal, agent])
    obs, info = env.reset(seed=3)
    assert env.game.current_player == 1 and len(env.game.history) > 0   # seat 0 has played
    _episode(env, 3)
    assert agent.views and all(v.seat == 0 and v.infoset is None and v.observation is not None for v in agent.views)
    assert all(v.mask[int(v.legal_actions[-1])] for v in agent.views)
    assert len(agent.seeds) == 2 and agent.seeds[0] == agent.seeds[1]     # reset once per game, same seed
    # the same opponents and seed give the same game
    env2 = GizmosEnv(n_players=3, seat=1, opponents=[_first_legal, _LastLegal()])
    _episode(env2, 3)
    assert env2.game.history == env.game.history


@pytest.mark.parametrize("opponents", ["random", ["greedy", "random"]])
def test_spec_opponents_are_built_by_the_registry_for_gizmos(opponents):
    env = GizmosEnv(n_players=3, opponents=opponents)
    kinds = [type(o).__name__ for o in env.opponents]
    assert len(kinds) == 2 and len(set(map(id, env.opponents))) == 2       # one agent per seat
    _, rewards, info = _episode(env, 1)
    assert env.game.done and rewards[-1] in (1.0, -1.0)
    again = GizmosEnv(n_players=3, opponents=opponents)
    _episode(again, 1)
    assert again.game.history == env.game.history                        # seeded agents: same game
    assert kinds == [type(o).__name__ for o in again.opponents]


def test_an_illegal_opponent_action_raises():
    env = GizmosEnv(n_players=2, seat=1, opponents=lambda o, m: L.N_ACTIONS - 1)
    with pytest.raises(IllegalActionError, match=r"^opponent: action 156 is not legal now for seat 0"):
        env.reset(seed=0)


# ---- copies ---------------------------------------------------------------------------------------
def test_copies_play_on_from_the_same_position_with_read_only_tables():
    import copy
    import pickle

    aec = gizmos_v0.raw_env(n_players=3)
    aec.reset(seed=4)
    for _ in range(25):
        aec.step(int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0]))
    gym_env = GizmosEnv(n_players=2, opponents=_first_legal)
    gym_env.reset(seed=4)
    for env, step in ((aec, lambda e: e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[-1]))),
                      (gym_env, lambda e: e.step(int(e.legal_actions()[-1])))):
        copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
        for c in copies:
            assert c.game is not env.game and not c.game.cards.table.flags.writeable
        for e in [env] + copies:
            for _ in range(15):
                step(e)
        assert all(np.array_equal(c.game.state, env.game.state) for c in copies)


# ---- MaskablePPO ----------------------------------------------------------------------------------
def test_maskable_ppo_runs_saves_and_loads(tmp_path):
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)
    start = time.perf_counter()
    venv = DummyVecEnv([lambda: gym.make(GIZMOS_ENV_ID) for _ in range(2)])
    model = MaskablePPO("MlpPolicy", venv, seed=0, n_steps=64, batch_size=64, n_epochs=1,
                        policy_kwargs={"net_arch": [32]}, verbose=0)
    model.learn(total_timesteps=256)
    assert model.num_timesteps >= 256
    model.save(tmp_path / "gizmos_ppo")
    loaded = MaskablePPO.load(tmp_path / "gizmos_ppo")
    env = gym.make(GIZMOS_ENV_ID)
    obs, info = env.reset(seed=1)
    masks = env.get_wrapper_attr("action_masks")()
    a1, _ = model.predict(obs, action_masks=masks, deterministic=True)
    a2, _ = loaded.predict(obs, action_masks=masks, deterministic=True)
    assert int(a1) == int(a2) and masks[int(a1)]
    assert time.perf_counter() - start < 60


# ---- the page ------------------------------------------------------------------------------------
PAGE = Path(__file__).resolve().parents[1] / "docs" / "envs" / "gizmos.md"


def test_page_tables_are_the_layouts():
    """docs/envs/gizmos.md: the action table is gz_layout's A_* ranges, the observation table is
    the observation's blocks, and the sizes it states are the spaces'."""
    text = PAGE.read_text()
    rows = re.findall(r"^\| (\d+)(?:-(\d+))? \| `(A_[A-Z_]+)` \| (\d+) \| (.+) \|$", text, flags=re.M)
    got = [(name, int(a), int(b or a) - int(a) + 1, int(n), meaning) for a, b, name, n, meaning in rows]
    assert got == [(name, off, n, n, meaning) for name, off, n, meaning in L.layout_rows()["action ids"]]
    blocks = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+) \| (.+) \|$", text, flags=re.M)
    assert [(n, int(o), int(ln), m) for n, o, ln, m in blocks] == observation_rows()["observation"]
    assert f"Box(0, 1, ({OBS_SIZE},), float32)" in text and f"`Discrete({L.N_ACTIONS})`" in text
    assert f"{CF_SIZE} **card features**" in text
    player = observation_rows()["player block"]
    assert f"**player block** ({sum(r[2] for r in player)} entries)" in text


# ---- the benchmark's Python API loops ---------------------------------------------------------------
def test_bench_gizmos_python_api_flag(capsys):
    import importlib.util
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_gizmos.py"
    spec = importlib.util.spec_from_file_location("bench_gizmos", script)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main(["--python-api", "--games", "1", "--players", "3", "--seed", "2"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    assert re.match(r"gizmos random play through Game.legal_actions \+ step, 3 players: [\d,]+ decisions/s, "
                    r".*\(1 games, \d+ decisions, seed 2\)$", lines[0]), lines[0]
    m = re.match(r"gizmos random play through gym.make\('Gizmos-v0'\), 3 players: [\d,]+ decisions/s "
                 r"\([\d,]+ agent steps/s\), .*\(1 games, (\d+) decisions, (\d+) agent steps, seed 2\)$", lines[1])
    assert m and 0 < int(m.group(2)) < int(m.group(1)), lines[1]
