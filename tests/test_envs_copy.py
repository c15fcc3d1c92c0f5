"""Copies of every env (pickle, copy.deepcopy, cloudpickle) are independent working envs that
play on exactly as the original: same observations, masks, rewards and terminations for the
same actions, and stepping one never moves the other.  Also SuperSuit's
vectorisers, which build their envs from cloudpickle copies."""
import copy
import pickle

import cloudpickle
import gymnasium as gym
import numpy as np
import pytest

from electrify_env.kernels import batch as B
from electrify_env.engine import observe as engine_observe
from electrify_env.envs import (
    SEAT_ENV_ID, SOLO_ENV_ID, ElectrifyEnv, ElectrifySoloEnv, ElectrifyVectorEnv, electrify_v0,
)
from electrify_env.envs.sb3 import ElectrifySB3VecEnv

COPIERS = {
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "deepcopy": copy.deepcopy,
    "cloudpickle": lambda env: cloudpickle.loads(cloudpickle.dumps(env)),
}
HOW = list(COPIERS)


def first_legal(observation, action_mask):
    """A picklable Python opponent: the lowest legal id."""
    return int(np.flatnonzero(action_mask)[0])


# ---- single-game Gymnasium envs -------------------------------------------------------------
SINGLE_ENVS = {
    "solo": lambda: ElectrifySoloEnv(scenario="first_light"),
    "solo_all_scenarios_packs": lambda: ElectrifySoloEnv(tech_packs=("grid", "market")),
    "seat": lambda: ElectrifyEnv(n_players=3, seat=None),
    "seat_python_opponents": lambda: ElectrifyEnv(n_players=2, seat=1, opponents=first_legal,
                                                  reward_mode="shaped"),
    "made_solo": lambda: gym.make(SOLO_ENV_ID, scenario="blackout"),
    "made_seat": lambda: gym.make(SEAT_ENV_ID, n_players=4, reward_mode="shaped"),
}


def single_step(env, a):
    """One step, as plain values to compare (the mask twice: info and action_masks())."""
    obs, rew, term, trunc, info = env.step(a)
    return obs, rew, term, trunc, info["action_mask"], env.unwrapped.action_masks()


def assert_same_single(x, y):
    """Two single_step results (or reset results) are equal."""
    assert len(x) == len(y)
    for u, v in zip(x, y):
        if isinstance(u, dict):
            assert u.keys() == v.keys()
            for k in u:
                assert np.array_equal(u[k], v[k]), k
        else:
            assert np.array_equal(u, v)


def play_both_single(env, twin, rng, n):
    """Step ``env`` and ``twin`` ``n`` times with the same random legal actions (resetting
    both, without a seed, when a game ends), checking every result is equal."""
    for _ in range(n):
        mask = env.unwrapped.action_masks()
        assert mask.any() and np.array_equal(mask, twin.unwrapped.action_masks())
        a = int(rng.choice(np.flatnonzero(mask)))
        x, y = single_step(env, a), single_step(twin, a)
        assert_same_single(x, y)
        if x[2]:
            assert_same_single(env.reset(), twin.reset())


def play_single(env, rng, n):
    """``n`` random legal steps (reset when a game ends); returns the results."""
    out = []
    for _ in range(n):
        out.append(single_step(env, int(rng.choice(np.flatnonzero(env.unwrapped.action_masks())))))
        if out[-1][2]:
            out.append(env.reset())
    return out


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("name", list(SINGLE_ENVS))
def test_single_env_copy_mid_game_plays_on_like_the_original(name, how):
    env = SINGLE_ENVS[name]()
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    play_single(env, rng, 9)
    twin = COPIERS[how](env)
    assert twin is not env and twin.unwrapped is not env.unwrapped
    assert np.array_equal(twin.unwrapped.action_masks(), env.unwrapped.action_masks())
    play_both_single(env, twin, rng, 60)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("name", ["solo", "seat", "made_seat"])
def test_single_env_copy_is_independent(name, how):
    """Stepping the copy leaves the original where it was: the original then plays the same
    actions to the same results."""
    env = SINGLE_ENVS[name]()
    env.reset(seed=11)
    rng = np.random.default_rng(1)
    play_single(env, rng, 6)
    twin = COPIERS[how](env)
    mask_before = env.unwrapped.action_masks().copy()
    seat_before = env.unwrapped.seat
    replay_rng = copy.deepcopy(rng)
    on_twin = play_single(twin, rng, 40)
    assert np.array_equal(env.unwrapped.action_masks(), mask_before)
    assert env.unwrapped.seat == seat_before
    on_env = play_single(env, replay_rng, 40)
    for x, y in zip(on_env, on_twin, strict=True):
        assert_same_single(x, y)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("name", ["solo", "seat", "made_solo"])
def test_single_env_copied_before_reset_works(name, how):
    """SuperSuit and vector wrappers copy a fresh env before its first reset."""
    env = SINGLE_ENVS[name]()
    twin = COPIERS[how](env)
    assert_same_single(env.reset(seed=5), twin.reset(seed=5))
    assert twin.unwrapped.action_masks().any()
    play_both_single(env, twin, np.random.default_rng(2), 40)


def test_copies_keep_tables_read_only():
    """A copy passes the same array types to the jitted functions as the original (pickle drops
    the read-only flag; a writable table would make numba compile everything a second time)."""
    env = ElectrifySoloEnv(scenario="first_light")
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    n_step, n_reset = len(B.batch_step.signatures), len(B.batch_reset.signatures)
    for how in HOW:
        twin = COPIERS[how](env)
        twin.step(int(np.flatnonzero(twin.action_masks())[0]))
        twin.reset(seed=1)
    assert (len(B.batch_step.signatures), len(B.batch_reset.signatures)) == (n_step, n_reset)
    aec = electrify_v0.raw_env()
    aec.reset(seed=0)
    aec.observe(aec.agent_selection)
    n_obs = len(engine_observe.observe.signatures)
    for how in HOW:
        twin = COPIERS[how](aec)
        twin.step(int(np.flatnonzero(twin.observe(twin.agent_selection)["action_mask"])[0]))
        twin.observe(twin.agent_selection)
        # the shared all-zero mask in the infos of agents not to move stays read-only
        waiting = [a for a in twin.agents if a != twin.agent_selection]
        assert waiting and not any(twin.infos[a]["action_mask"].flags.writeable for a in waiting)
    assert len(engine_observe.observe.signatures) == n_obs


# ---- PettingZoo AEC env ---------------------------------------------------------------------
AEC_ENVS = {
    "raw": lambda: electrify_v0.raw_env(n_players=3, reward_mode="shaped"),
    "wrapped": lambda: electrify_v0.env(n_players=2),
    "wrapped_packs": lambda: electrify_v0.env(n_players=4, tech_packs=("grid",), reward_mode="margin"),
}


def aec_view(env):
    """Everything an agent loop reads: the selection, last(), every agent's observation and the
    reward / termination / info dicts."""
    agent = env.agent_selection
    obs, rew, term, trunc, info = env.last()
    observations = {a: env.observe(a) for a in env.agents}
    return (agent, obs, rew, term, trunc, info["action_mask"], observations,
            dict(env.rewards), dict(env.terminations), dict(env.truncations))


def assert_same_aec(x, y):
    """Two aec_view results are equal."""
    agent, obs, rew, term, trunc, mask, observations, rewards, terms, truncs = x
    assert (agent, rew, term, trunc, rewards, terms, truncs) == (y[0], y[2], y[3], y[4], y[7], y[8], y[9])
    for k in ("observation", "action_mask"):
        assert np.array_equal(obs[k], y[1][k])
    assert np.array_equal(mask, y[5])
    assert observations.keys() == y[6].keys()
    for a in observations:
        for k in ("observation", "action_mask"):
            assert np.array_equal(observations[a][k], y[6][a][k])


def aec_action(env, rng):
    """A random legal action of the agent to move (None once it is terminated)."""
    obs, _, term, trunc, _ = env.last()
    if term or trunc:
        return None
    mask = obs["action_mask"]
    assert mask.any(), "the agent to move has an all-zero mask"
    return int(rng.choice(np.flatnonzero(mask)))


def play_aec(env, rng, n, seed=None):
    """``n`` AEC steps of random legal play (a finished game is reset); returns every view."""
    out = []
    for _ in range(n):
        if not env.agents:
            env.reset(seed=seed)
        env.step(aec_action(env, rng))
        out.append(aec_view(env) if env.agents else None)
    return out


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("name", list(AEC_ENVS))
def test_aec_env_copy_mid_game_plays_on_like_the_original(name, how):
    env = AEC_ENVS[name]()
    env.reset(seed=7)
    rng = np.random.default_rng(3)
    play_aec(env, rng, 12)
    twin = COPIERS[how](env)
    assert twin.unwrapped is not env.unwrapped
    assert_same_aec(aec_view(env), aec_view(twin))
    for _ in range(80):
        a = aec_action(env, rng)
        env.step(a)
        twin.step(a)
        assert_same_aec(aec_view(env), aec_view(twin))
    assert env.unwrapped.history == twin.unwrapped.history
    assert np.array_equal(env.state(), twin.state())


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("name", ["raw", "wrapped"])
def test_aec_env_copy_is_independent(name, how):
    env = AEC_ENVS[name]()
    env.reset(seed=8)
    rng = np.random.default_rng(4)
    play_aec(env, rng, 10)
    twin = COPIERS[how](env)
    before = aec_view(env)
    state_before = env.state()
    replay_rng = copy.deepcopy(rng)
    on_twin = play_aec(twin, rng, 50)
    assert_same_aec(aec_view(env), before)
    assert np.array_equal(env.state(), state_before)
    on_env = play_aec(env, replay_rng, 50)
    for x, y in zip(on_env, on_twin, strict=True):
        assert_same_aec(x, y)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("name", ["raw", "wrapped"])
def test_aec_env_copied_before_reset_has_live_masks(name, how):
    """What SuperSuit's vectorize_aec_env_v0 does: copy the fresh env, then reset the copy."""
    env = AEC_ENVS[name]()
    twin = COPIERS[how](env)
    env.reset(seed=9)
    twin.reset(seed=9)
    rng = np.random.default_rng(5)
    for _ in range(60):
        assert_same_aec(aec_view(env), aec_view(twin))
        a = aec_action(twin, rng)
        env.step(a)
        twin.step(a)


# ---- the jitted vector env and the SB3 adapter ----------------------------------------------
VECTOR_ENVS = {
    "solo": lambda: ElectrifyVectorEnv(4, "solo", scenario=["first_light", "blackout"]),
    "seat": lambda: ElectrifyVectorEnv(3, "seat", n_players=3, seat=None, reward_mode="shaped"),
    "solo_copy": lambda: ElectrifyVectorEnv(2, "solo", copy=True),
}


def vector_step(env, actions):
    """One vector step as values to compare (the mask buffer copied: it is live)."""
    obs, rew, term, trunc, info = env.step(actions)
    out = [obs.copy(), rew, term, trunc, info["action_mask"].copy(), env.action_masks(), env.seeds]
    if term.any():
        out += [np.stack([info["final_obs"][i] for i in np.flatnonzero(term)]),
                info["final_info"]["final_score"], info["final_info"]["episode_length"]]
    return out


def vector_actions(env, rng):
    """One random legal id per row."""
    return np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()], dtype=np.int64)


@pytest.mark.parametrize("how", HOW)
@pytest.mark.parametrize("name", list(VECTOR_ENVS))
def test_vector_env_copy_plays_on_like_the_original_and_independently(name, how):
    env = VECTOR_ENVS[name]()
    env.reset(seed=20)
    rng = np.random.default_rng(6)
    for _ in range(7):
        env.step(vector_actions(env, rng))
    twin = COPIERS[how](env)
    replay_rng = copy.deepcopy(rng)
    masks_before = env.action_masks().copy()
    twin_steps = []
    for _ in range(150):   # long enough for solo games to end and restart
        twin_steps.append(vector_step(twin, vector_actions(twin, rng)))
    assert np.array_equal(env.action_masks(), masks_before)
    ended = 0
    for want in twin_steps:
        got = vector_step(env, vector_actions(env, replay_rng))
        assert len(got) == len(want)
        for u, v in zip(got, want):
            assert np.array_equal(u, v)
        ended += int(got[2].sum())
    if name != "seat":
        assert ended > 0


@pytest.mark.parametrize("how", HOW)
def test_vector_env_copied_before_reset_works(how):
    env = VECTOR_ENVS["solo"]()
    twin = COPIERS[how](env)
    o1, i1 = env.reset(seed=4)
    o2, i2 = twin.reset(seed=4)
    assert np.array_equal(o1, o2) and np.array_equal(i1["action_mask"], i2["action_mask"])
    assert i2["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(7)
    for _ in range(20):
        a = vector_actions(env, rng)
        for u, v in zip(vector_step(env, a), vector_step(twin, a)):
            assert np.array_equal(u, v)


@pytest.mark.parametrize("how", HOW)
def test_sb3_adapter_copy_plays_on_like_the_original(how):
    env = ElectrifySB3VecEnv(num_envs=3, mode="solo", scenario="first_light")
    env.seed(30)
    env.reset()
    rng = np.random.default_rng(8)
    for _ in range(5):
        env.step(vector_actions(env.venv, rng))
    twin = COPIERS[how](env)
    dones = 0
    for _ in range(200):   # solo games end within 200 decisions: copies restart them alike
        a = vector_actions(env.venv, rng)
        (o1, r1, d1, inf1), (o2, r2, d2, inf2) = env.step(a), twin.step(a)
        dones += int(d1.sum())
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(d1, d2)
        assert np.array_equal(env.action_masks(), twin.action_masks())
        assert np.array_equal(env.env_method("action_masks"), twin.env_method("action_masks"))
        for x, y in zip(inf1, inf2, strict=True):
            assert x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)
    assert dones > 0


# ---- SuperSuit ------------------------------------------------------------------------------
def test_supersuit_vectorize_aec_env_gives_live_masks():
    """SuperSuit's vectorize_aec_env_v0 builds each env from a cloudpickle copy of the given
    (not yet reset) env; every copy must hand out the real legal masks."""
    ss = pytest.importorskip("supersuit")
    vec = ss.vectorize_aec_env_v0(electrify_v0.env(n_players=2), num_envs=3)
    vec.reset(seed=0)
    rng = np.random.default_rng(9)
    for _ in range(60):
        agent = vec.agent_selection
        obs, _, terms, truncs, env_terms, env_truncs, passes, _ = vec.last()
        actions = []
        for i, o in enumerate(obs):
            mask = o["action_mask"]
            if passes[i] or terms[i] or truncs[i]:
                actions.append(None)
                continue
            assert mask.any(), f"env {i}: {agent} to move with an all-zero mask"
            actions.append(int(rng.choice(np.flatnonzero(mask))))
        vec.step(actions)
    assert all(e.unwrapped.history for e in vec.envs)
    assert len({tuple(e.unwrapped.history[:3]) for e in vec.envs}) > 1   # the copies play apart


def test_supersuit_gym_vec_env_of_copies():
    """SuperSuit's gym_vec_env_v0 steps cloudpickle copies of one Gymnasium env."""
    ss = pytest.importorskip("supersuit")
    vec = ss.gym_vec_env_v0(ElectrifySoloEnv(scenario="first_light"), num_envs=2)
    obs, info = vec.reset(seed=[1, 2])
    assert info["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(10)
    for _ in range(30):
        masks = np.array(vec.call("action_masks"))
        assert masks.any(axis=1).all()
        obs, rew, term, trunc, info = vec.step([int(rng.choice(np.flatnonzero(m))) for m in masks])
        assert np.array_equal(info["action_mask"] != 0, np.array(vec.call("action_masks")))
