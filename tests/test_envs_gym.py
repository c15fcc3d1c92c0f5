"""The Gymnasium envs Electrify-Solo-v0 and Electrify-v0: the ecosystem's env checkers, rewards,
illegal actions, determinism and agreement with the engine's Game."""
import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from electrify_env import Game, IllegalActionError
from electrify_env.engine import layout as L
from electrify_env.engine.observe import OBS_SIZE
from electrify_env.envs import (
    SEAT_ENV_ID, SOLO_ENV_ID, ElectrifyEnv, ElectrifySoloEnv, TerminateIllegalAction,
)

MAKE_ARGS = [(SOLO_ENV_ID, {}), (SOLO_ENV_ID, {"scenario": "net_zero", "reward_mode": "win", "tech_packs": ("grid",)}),
             (SEAT_ENV_ID, {}), (SEAT_ENV_ID, {"n_players": 4, "seat": None, "reward_mode": "shaped"})]


def play(env, seed, rng_seed=0, record=None):
    """Play one episode with uniform random legal actions; return (total reward, last info)."""
    rng = np.random.default_rng(rng_seed)
    obs, info = env.reset(seed=seed)
    total = 0.0
    while True:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        if record is not None:
            record.append(a)
        obs, r, term, trunc, info = env.step(a)
        total += r
        assert not trunc
        if term:
            return total, info


@pytest.mark.parametrize("env_id,kwargs", MAKE_ARGS)
def test_gymnasium_check_env(env_id, kwargs):
    env = gym.make(env_id, **kwargs)
    gym_check_env(env, skip_render_check=False)


@pytest.mark.parametrize("env_id,kwargs", MAKE_ARGS)
def test_sb3_check_env(env_id, kwargs):
    sb3_check_env(gym.make(env_id, **kwargs), warn=True)


@pytest.mark.parametrize("cls", [ElectrifySoloEnv, ElectrifyEnv])
def test_spaces_and_dtypes(cls):
    env = cls()
    assert env.observation_space == gym.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
    assert env.action_space == gym.spaces.Discrete(L.N_ACTIONS)
    obs, info = env.reset(seed=0)
    assert obs.dtype == np.float32 and env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8
    assert np.array_equal(info["action_mask"] != 0, env.action_masks())
    a = int(np.flatnonzero(info["action_mask"])[0])
    obs2, r, term, trunc, info2 = env.step(np.int64(a))
    assert isinstance(r, float) and term is False and trunc is False
    assert obs2 is not obs and info2["action_mask"] is not info["action_mask"]


def test_raw_env_raises_on_illegal_actions_and_keeps_the_game():
    env = gym.make(SOLO_ENV_ID, illegal_action="raise")
    assert isinstance(env.unwrapped, ElectrifySoloEnv)
    obs, info = env.reset(seed=3)
    raw = env.unwrapped
    before = raw._S.copy()
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not legal now.*legal ids"):
        env.step(bad)
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(L.N_ACTIONS)
    with pytest.raises(IllegalActionError, match="integer"):
        env.step(2.0)
    assert np.array_equal(raw._S, before)
    assert issubclass(IllegalActionError, ValueError)
    fresh = ElectrifySoloEnv()
    with pytest.raises(IllegalActionError, match="reset"):
        fresh.step(0)


def test_made_env_terminates_on_illegal_actions():
    env = gym.make(SOLO_ENV_ID)
    obs, info = env.reset(seed=3)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    obs2, r, term, trunc, info2 = env.step(bad)
    assert (r, term, trunc, info2["illegal_action"]) == (-1.0, True, False, True)
    assert np.array_equal(obs2, obs) and obs2 is not obs
    assert not env.get_wrapper_attr("action_masks")().any()
    with pytest.raises(ValueError, match="reset"):
        env.step(int(np.flatnonzero(info["action_mask"])[0]))
    env.reset(seed=4)
    env.step(int(np.flatnonzero(env.get_wrapper_attr("action_masks")())[0]))
    custom = TerminateIllegalAction(ElectrifySoloEnv(), illegal_reward=-5)
    custom.reset(seed=0)
    assert custom.step(L.N_ACTIONS + 3)[1] == -5


@pytest.mark.parametrize("scenario", ["first_light", "peak_load"])
def test_solo_rewards_add_up_per_mode(scenario):
    """The same game under each reward mode: shaped = final/target + bonus if won; score =
    final/target; win = +-1."""
    out = {}
    for mode in ("shaped", "score", "win"):
        env = ElectrifySoloEnv(scenario=scenario, reward_mode=mode, win_bonus=0.5)
        out[mode] = play(env, seed=11, rng_seed=1)
    total, info = out["shaped"]
    final, target, won = info["final_score"], info["target"], info["won"]
    assert total == pytest.approx(final / target + (0.5 if won else 0.0))
    assert info["episode_return"] == pytest.approx(total)
    assert out["score"][0] == pytest.approx(final / target)
    assert out["win"][0] == (1.0 if won else -1.0)
    assert out["score"][1]["seed"] == info["seed"]


def test_solo_env_is_the_engine_game():
    """Observations and the final result equal those of Game(seed=info['seed'], scenario=...)."""
    env = ElectrifySoloEnv(scenario=None)
    rng = np.random.default_rng(2)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        g = Game(seed=info["seed"], scenario=info["scenario"])
        while True:
            assert np.array_equal(obs, g.observe(0))
            assert np.array_equal(info["action_mask"], g.legal_mask().view(np.int8))
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            g.step(a)
            obs, r, term, _, info = env.step(a)
            if term:
                break
        assert g.is_terminal and np.array_equal(obs, g.observe(0))
        res = g.solo_result()
        assert (info["score"], info["final_score"], info["won"], info["target"]) == \
            (res["score"], res["final_score"], res["won"], res["target"])


def test_seeding_is_deterministic_and_scenarios_vary():
    env = ElectrifySoloEnv()
    o1, i1 = env.reset(seed=123)
    o2, i2 = env.reset(seed=123)
    assert np.array_equal(o1, o2) and i1["seed"] == i2["seed"]
    assert len({env.reset(seed=s)[1]["scenario"] for s in range(40)}) > 3
    assert ElectrifySoloEnv(scenario=["first_light", "blackout"]).reset(seed=1)[1]["scenario"] in ("first_light", "blackout")


def test_seat_env_with_python_opponents_replays_as_a_game():
    """Opponents given as callables see their own observation and mask; agent + opponent actions
    rebuild the same game."""
    log = []

    def make_opp():
        rng = np.random.default_rng(7)

        def opp(obs, mask):
            assert obs.shape == (OBS_SIZE,) and mask.dtype == np.int8
            a = int(rng.choice(np.flatnonzero(mask)))
            log.append(a)
            return a
        return opp

    env = ElectrifyEnv(n_players=3, seat=1, opponents=make_opp(), reward_mode="margin")
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=5)
    actions = list(log)
    while True:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        n_before = len(log)
        obs, r, term, _, info = env.step(a)
        actions.append(a)
        actions.extend(log[n_before:])
        if term:
            break
    g = Game.replay(actions, n_players=3, seed=info["seed"])
    assert g.is_terminal
    sc = g.scores()
    assert info["score"] == sc[1] and info["best_other"] == max(sc[0], sc[2])
    assert r == pytest.approx(0.1 * (sc[1] - max(sc[0], sc[2])))
    assert info["won"] == (1 in g.winners())


def test_seat_env_random_seat_and_bad_opponents():
    env = ElectrifyEnv(n_players=4, seat=None)
    seats = {env.reset(seed=s)[1]["seat"] for s in range(30)}
    assert seats == {0, 1, 2, 3}
    env = ElectrifyEnv(n_players=2, seat=1, opponents=lambda obs, mask: L.N_ACTIONS + 1)
    with pytest.raises(IllegalActionError, match="opponent"):
        env.reset(seed=0)
    with pytest.raises(ValueError, match="opponents"):
        ElectrifyEnv(n_players=3, opponents=[lambda o, m: 0])
    with pytest.raises(ValueError, match="seat"):
        ElectrifyEnv(n_players=2, seat=2)


def test_seat_env_win_rewards_are_shared():
    """Random 4-player games: the win reward is +1/k for k winners, -1 otherwise, 0 if all tie."""
    env = ElectrifyEnv(n_players=4, seat=2)
    for seed in range(4):
        rec = []
        total, info = play(env, seed, record=rec)
        assert any(total == pytest.approx(v) for v in (1.0, 0.5, 1 / 3, 0.0, -1.0))
        assert info["won"] == (total >= 0)


def test_bad_arguments():
    with pytest.raises(ValueError, match="reward_mode"):
        ElectrifySoloEnv(reward_mode="margin")
    with pytest.raises(ValueError, match="unknown scenario"):
        ElectrifySoloEnv(scenario="atlantis")
    with pytest.raises(ValueError, match="render_mode"):
        ElectrifySoloEnv(render_mode="rgb")
    with pytest.raises(ValueError, match="illegal_action"):
        gym.make(SOLO_ENV_ID, illegal_action="ignore")


def test_render_and_snapshot():
    env = ElectrifySoloEnv(scenario="first_light", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "First Light" in text and "pending" in text
    snap = env.snapshot()
    assert snap.is_solo and np.array_equal(snap.state, env._S) and snap.state is not env._S
    assert "swap" in env.describe_action(L.A_SOLO_SWAP)


# The README's "masks through wrappers / make_vec_env" block, run here as written.
README_MASKS_BLOCK = '''\
import gymnasium as gym
import electrify_env.envs  # registers Electrify-Solo-v0 and Electrify-v0
from sb3_contrib import MaskablePPO
from sb3_contrib.common.wrappers import ActionMasker
from stable_baselines3.common.env_util import make_vec_env

# gym.make wraps the env (TerminateIllegalAction, env checker, OrderEnforcing): ask the
# wrappers for the mask, so that an episode ended by an illegal action shows no legal action
env = gym.make("Electrify-Solo-v0", scenario="first_light")
obs, info = env.reset(seed=0)
mask = env.get_wrapper_attr("action_masks")()     # bool, one entry per action id
obs, reward, terminated, truncated, info = env.step(int(mask.nonzero()[0][0]))

def mask_fn(env: gym.Env):                        # sb3-contrib's ActionMasker pattern
    return env.get_wrapper_attr("action_masks")()

# render_mode=None: make_vec_env asks for "rgb_array" unless told otherwise
vec_env = make_vec_env("Electrify-Solo-v0", n_envs=4, seed=0,
                       env_kwargs={"scenario": "first_light", "render_mode": None},
                       wrapper_class=ActionMasker, wrapper_kwargs={"action_mask_fn": mask_fn})
model = MaskablePPO("MlpPolicy", vec_env, n_steps=32, batch_size=64, seed=0)
model.learn(total_timesteps=128)                  # masks: vec_env.env_method("action_masks")
'''


def test_readme_masks_through_wrappers_and_make_vec_env():
    """The README block runs as written; its env, masks and vector env are what it says."""
    from sb3_contrib.common.maskable.utils import get_action_masks
    from sb3_contrib.common.wrappers import ActionMasker
    from stable_baselines3.common.monitor import Monitor

    ns = {"__name__": "__readme__"}
    exec(compile(README_MASKS_BLOCK, "README masks block", "exec"), ns)
    env, vec_env, model = ns["env"], ns["vec_env"], ns["model"]
    assert ns["mask"].dtype == bool and ns["mask"].shape == (L.N_ACTIONS,) and ns["mask"].any()
    after_step = ns["info"]["action_mask"] != 0
    assert after_step.any() and not ns["terminated"]
    assert np.array_equal(env.get_wrapper_attr("action_masks")(), after_step)
    assert model.num_timesteps == 128 and vec_env.num_envs == 4
    assert all(vec_env.env_is_wrapped(ActionMasker)) and all(vec_env.env_is_wrapped(Monitor))
    masks = get_action_masks(vec_env)
    assert masks.shape == (4, L.N_ACTIONS) and masks.dtype == bool and masks.any(axis=1).all()
    for i, e in enumerate(vec_env.envs):
        assert np.array_equal(masks[i], e.unwrapped.action_masks())
        assert e.unwrapped.scenario.id == "first_light"


def test_wrapper_mask_shows_the_end_of_an_illegal_episode():
    """Why the README asks the wrappers: after an illegal action ends the episode, the wrapped
    env's mask is empty while the bare env's still lists the legal ids."""
    env = gym.make(SOLO_ENV_ID, scenario="first_light")
    _, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, _, info = env.step(illegal)
    assert terminated and reward == -1.0 and info["illegal_action"]
    assert not env.get_wrapper_attr("action_masks")().any()
    assert env.unwrapped.action_masks().any()


def test_ids_are_registered_by_importing_the_package_alone():
    """``import electrify_env`` registers both ids (the envs themselves load on the first make),
    and the ``module:Id`` form needs no import at all."""
    import subprocess
    import sys
    code = ("import sys, gymnasium as gym, electrify_env\n"
            "assert 'electrify_env.envs' not in sys.modules\n"
            "env = gym.make('Electrify-Solo-v0'); env.reset(seed=1)\n"
            "gym.make('Electrify-v0', opponents='greedy').reset(seed=2)\n"
            "print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
    code = "import gymnasium as gym\ngym.make('electrify_env:Electrify-Solo-v0').reset(seed=1)\nprint('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
