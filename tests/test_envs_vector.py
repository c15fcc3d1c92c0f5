"""The jitted vector env (kernels/batch.py, envs/vector.py) and its SB3 adapter: agreement with the
engine's Game row by row, same-step autoreset, Gymnasium's vector wrappers, SB3's VecEnv API."""
import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics
from stable_baselines3.common.vec_env import VecEnv, VecMonitor

from electrify_env import Game, IllegalActionError
from electrify_env.engine import layout as L
from electrify_env.kernels import batch as B
from electrify_env.kernels.batch import sample_legal
from electrify_env.engine.observe import O_OVER, OBS_SIZE
from electrify_env.envs import SEAT_ENV_ID, SOLO_ENV_ID, ElectrifyVectorEnv
from electrify_env.envs.sb3 import ElectrifySB3VecEnv


def random_actions(masks, rng):
    out = np.empty(len(masks), dtype=np.int64)
    sample_legal(np.ascontiguousarray(masks).view(np.uint8), rng.random(len(masks)), out)
    return out


def test_make_vec_builds_the_jitted_vector_env():
    env = gym.make_vec(SOLO_ENV_ID, num_envs=4, vectorization_mode="vector_entry_point", scenario="first_light")
    assert isinstance(env.unwrapped, ElectrifyVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.observation_space == gym.spaces.Box(0.0, 1.0, (4, OBS_SIZE), np.float32)
    assert env.action_space == gym.spaces.MultiDiscrete([L.N_ACTIONS] * 4)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (4, L.N_ACTIONS)
    seat = gym.make_vec(SEAT_ENV_ID, num_envs=3, vectorization_mode="vector_entry_point", n_players=3)
    assert seat.unwrapped.mode == "seat"
    with pytest.raises(ValueError, match="random opponents"):
        gym.make_vec(SEAT_ENV_ID, num_envs=2, vectorization_mode="vector_entry_point", opponents=lambda o, m: 0)


@pytest.mark.parametrize("scenario,packs", [(None, ()), ("blackout", ("market",))])
def test_solo_rows_are_engine_games_with_same_step_autoreset(scenario, packs):
    """Each row is Game(seed, scenario) stepped with the same actions: observation and mask at
    every step, final observation, outcome, and the next game's seed after autoreset."""
    n = 6
    env = ElectrifyVectorEnv(n, "solo", scenario=scenario, tech_packs=packs, reward_mode="score")
    obs, info = env.reset(seed=40)
    assert list(info["seed"]) == list(range(40, 40 + n))

    def new_game(i):
        k = int(env._b.E[i, B.E_SCEN])
        return Game(seed=int(env.seeds[i]), scenario=env.scenarios[k], tech_packs=packs)

    games = [new_game(i) for i in range(n)]
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(400):
        for i, g in enumerate(games):
            assert np.array_equal(obs[i], g.observe(0))
            assert np.array_equal(info["action_mask"][i], g.legal_mask().view(np.int8))
        acts = random_actions(info["action_mask"], rng)
        for i, g in enumerate(games):
            g.step(int(acts[i]))
        obs, rew, term, trunc, info = env.step(acts)
        assert not trunc.any()
        for i in np.flatnonzero(term):
            g = games[i]
            assert g.is_terminal
            assert np.array_equal(info["final_obs"][i], g.observe(0))
            res = g.solo_result()
            fi = info["final_info"]
            assert fi["_final_score"][i] and fi["final_score"][i] == res["final_score"]
            assert fi["score"][i] == res["score"] and fi["won"][i] == res["won"] and fi["target"][i] == res["target"]
            assert fi["seed"][i] == g.seed and env.scenarios[fi["scenario"][i]].id == g.scenario.id
            assert rew[i] == pytest.approx(res["final_score"] / res["target"])
            games[i] = new_game(i)
            finished += 1
        for i in np.flatnonzero(~term):
            assert rew[i] == 0.0
    assert finished >= n


def test_seat_rows_match_their_snapshots_and_parallel_equals_serial():
    n = 5
    runs = []
    for parallel in (False, True):
        env = ElectrifyVectorEnv(n, "seat", n_players=3, seat=None, reward_mode="shaped", parallel=parallel)
        obs, info = env.reset(seed=[7, 8, 9, 10, 11])
        rng = np.random.default_rng(3)
        trace = []
        for step in range(300):
            if step % 50 == 0:
                for i in range(n):
                    snap = env.snapshot(i)
                    seat = int(env.seats[i])
                    assert snap.current_player == seat
                    assert np.array_equal(obs[i], snap.observe(seat))
                    assert np.array_equal(info["action_mask"][i], snap.legal_mask().view(np.int8))
            acts = random_actions(info["action_mask"], rng)
            obs, rew, term, _, info = env.step(acts)
            trace.append((obs.copy(), rew.copy(), term.copy()))
            for i in np.flatnonzero(term):
                fo = info["final_obs"][i]
                assert fo[O_OVER] == 1.0
        runs.append(trace)
    for (o1, r1, t1), (o2, r2, t2) in zip(*runs):
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(t1, t2)


def test_illegal_action_steps_nothing():
    env = ElectrifyVectorEnv(3, "solo", scenario="first_light")
    obs, info = env.reset(seed=0)
    states = env._b.states.copy()
    acts = random_actions(info["action_mask"], np.random.default_rng(0))
    acts[2] = int(np.flatnonzero(info["action_mask"][2] == 0)[0])
    with pytest.raises(IllegalActionError, match="row 2"):
        env.step(acts)
    assert np.array_equal(env._b.states, states)
    with pytest.raises(IllegalActionError, match="integer"):
        env.step(np.zeros(3, dtype=np.float32))
    with pytest.raises(IllegalActionError, match="shape"):
        env.step(np.zeros(4, dtype=np.int64))
    with pytest.raises(IllegalActionError, match="reset"):
        ElectrifyVectorEnv(2, "solo").step(np.zeros(2, dtype=np.int64))


def test_observation_buffers_alternate_or_copy():
    env = ElectrifyVectorEnv(2, "solo", scenario="first_light")
    o0, info = env.reset(seed=0)
    keep = o0.copy()
    o1, *_ , info = env.step(random_actions(info["action_mask"], np.random.default_rng(0)))
    assert np.array_equal(o0, keep), "the previous observation stays valid during the next step"
    env = ElectrifyVectorEnv(2, "solo", scenario="first_light", copy=True)
    a, info = env.reset(seed=0)
    b, *_ = env.step(random_actions(info["action_mask"], np.random.default_rng(0)))
    assert not np.shares_memory(a, b)


# gymnasium < 1.4: the vector RecordEpisodeStatistics counts every episode after a sub-env's first
# as if autoreset were NEXT_STEP, one step short for this SAME_STEP env (fixed upstream in
# gymnasium 1.4); ray[rllib] pins gymnasium 1.2.2, and .ci/run runs this file under it too
GYM_SAME_STEP_STATS = tuple(int(x) for x in gym.__version__.split(".")[:2]) >= (1, 4)


def test_gymnasium_vector_wrappers():
    env = RecordEpisodeStatistics(ElectrifyVectorEnv(4, "solo", scenario="first_light"))
    env = DictInfoToList(env)
    obs, infos = env.reset(seed=1)
    rng = np.random.default_rng(0)
    episodes, ended = 0, set()
    for _ in range(600):
        masks = np.stack([inf["action_mask"] for inf in infos])
        obs, rew, term, trunc, infos = env.step(random_actions(masks, rng))
        for i in np.flatnonzero(term):
            ep = infos[i]["episode"]
            if GYM_SAME_STEP_STATS or i not in ended:
                assert ep["r"] == pytest.approx(infos[i]["final_info"]["episode_return"])
                assert ep["l"] == infos[i]["final_info"]["episode_length"]
            ended.add(i)
            episodes += 1
    assert episodes >= 4


def test_bad_arguments():
    with pytest.raises(ValueError, match="mode"):
        ElectrifyVectorEnv(2, "team")
    with pytest.raises(ValueError, match="num_envs"):
        ElectrifyVectorEnv(0)
    with pytest.raises(ValueError, match="scenario"):
        ElectrifyVectorEnv(2, "seat", scenario="first_light")
    with pytest.raises(ValueError, match="reward_mode"):
        ElectrifyVectorEnv(2, "solo", reward_mode="margin")
    with pytest.raises(ValueError, match="seeds"):
        ElectrifyVectorEnv(2, "solo").reset(seed=[-1, 3])


def test_sb3_adapter():
    venv = ElectrifySB3VecEnv(num_envs=4, mode="solo", scenario="first_light")
    assert isinstance(venv, VecEnv)
    venv = VecMonitor(venv)
    venv.seed(5)
    obs = venv.reset()
    assert obs.shape == (4, OBS_SIZE) and obs.dtype == np.float32
    assert venv.has_attr("action_masks")
    masks = np.stack(venv.env_method("action_masks"))
    assert masks.shape == (4, L.N_ACTIONS) and masks.dtype == bool
    assert venv.get_attr("render_mode") == [None] * 4
    assert venv.env_is_wrapped(gym.Wrapper) == [False] * 4
    rng = np.random.default_rng(0)
    done_seen = 0
    for _ in range(400):
        acts = random_actions(np.stack(venv.env_method("action_masks")), rng)
        obs, rew, dones, infos = venv.step(acts)
        assert rew.dtype == np.float32 and dones.dtype == bool and len(infos) == 4
        for i in np.flatnonzero(dones):
            info = infos[i]
            assert info["terminal_observation"].shape == (OBS_SIZE,)
            assert info["TimeLimit.truncated"] is False
            assert "final_score" in info and "episode" in info
            done_seen += 1
    assert done_seen >= 4
    # the same seeds give the same first games
    a = ElectrifySB3VecEnv(num_envs=2, mode="solo")
    b = ElectrifySB3VecEnv(num_envs=2, mode="solo")
    a.seed(9)
    b.seed(9)
    assert np.array_equal(a.reset(), b.reset())
    with pytest.raises(ValueError, match="copy"):
        ElectrifySB3VecEnv(ElectrifyVectorEnv(2, copy=True))
