"""The jitted Gizmos vector env (gizmos/engine/gz_batch.py, gizmos/envs/vector.py): equal
trajectories to single Gizmos-v0 envs driven with the same actions and the same random
opponents, every row a legal Game replayed step by step (masks equal Game.legal_mask), same-step
autoreset and the next game's seed, truncation by the round cap, determinism, Gymnasium's vector
wrappers, and one-line errors for bad arguments."""
import copy
import pickle

import gymnasium as gym
import numpy as np
import pytest
import yaml
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

import electrify_env  # noqa: F401  (registers Gizmos-v0)
from electrify_env.common.engine.legal import pick_legal, sample_legal
from electrify_env.common.engine.rng import next_seed, rng_below
from electrify_env.gizmos import Game
from electrify_env.gizmos.cards import DEFAULT_CARDS, compile_card_set
from electrify_env.gizmos.engine import gz_batch as B
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.envs import GizmosEnv
from electrify_env.gizmos.envs.vector import GizmosVectorEnv
from electrify_env.gizmos.observation import OBS_SIZE
from electrify_env.registration import GIZMOS_ENV_ID
from electrify_env.validation import IllegalActionError, InvalidArgumentError


def random_actions(masks, rng):
    """One uniformly random legal id per row."""
    out = np.empty(len(masks), dtype=np.int64)
    sample_legal(np.ascontiguousarray(masks).view(np.uint8), rng.random(len(masks)), out)
    return out


def short_cards(max_rounds: int = 3):
    """The default set with a round cap of ``max_rounds`` (every game ends by G22)."""
    data = yaml.safe_load(DEFAULT_CARDS.read_text())
    data["rules"]["max_rounds"] = max_rounds
    return compile_card_set(data, "short")


class Opponents:
    """The vector env's random opponents in Python: one generator per game seeded from the game's
    seed (``gz_batch.seed_opponents``), one draw per opponent decision."""

    def __init__(self, seed: int) -> None:
        self.rng = np.zeros(B.OR_SIZE, dtype=np.int64)
        B.seed_opponents(self.rng, np.int64(seed))

    def pick(self, mask: np.ndarray) -> int:
        """The id the vector env's opponent plays at ``mask``."""
        m = np.ascontiguousarray(mask).view(np.uint8)
        return int(pick_legal(m, rng_below(self.rng, L.S_RNG, np.int64(int(m.sum())))))


class MirrorOpponent:
    """A ``Gizmos-v0`` opponent callable that plays as the vector env's opponents do (it reseeds
    when the env starts a new game)."""

    def __init__(self) -> None:
        self.env = None
        self.seed = None
        self.opp = None

    def __call__(self, obs, mask) -> int:
        if self.env.game_seed != self.seed:
            self.seed = self.env.game_seed
            self.opp = Opponents(self.seed)
        return self.opp.pick(mask)


def test_make_vec_builds_the_jitted_vector_env():
    env = gym.make_vec(GIZMOS_ENV_ID, num_envs=4, vectorization_mode="vector_entry_point", n_players=3)
    assert isinstance(env.unwrapped, GizmosVectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.observation_space == gym.spaces.Box(0.0, 1.0, (4, OBS_SIZE), np.float32)
    assert env.action_space == gym.spaces.MultiDiscrete([L.N_ACTIONS] * 4)
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    assert info["action_mask"].dtype == np.int8 and info["action_mask"].shape == (4, L.N_ACTIONS)
    assert list(info["seed"]) == [0, 1, 2, 3] and env.unwrapped.n_players == 3
    with pytest.raises(InvalidArgumentError, match="random opponents"):
        gym.make_vec(GIZMOS_ENV_ID, num_envs=2, vectorization_mode="vector_entry_point", opponents="greedy")
    with pytest.raises(InvalidArgumentError, match="illegal_action"):
        gym.make_vec(GIZMOS_ENV_ID, num_envs=2, vectorization_mode="vector_entry_point", illegal_action="terminate")


@pytest.mark.parametrize("n_players, seat", [(2, 0), (3, 1), (4, 3)])
def test_rows_equal_single_envs_with_the_same_actions_and_opponents(n_players, seat):
    """Row i and a Gizmos-v0 env on the same game seed, driven by the same agent actions and the
    same random opponents, agree at every step up to the end of the game: observation, mask,
    reward, termination, truncation, and the outcome in final_info."""
    n = 4
    singles, mirrors, seeds = [], [], []
    for i in range(n):
        m = MirrorOpponent()
        e = GizmosEnv(n_players=n_players, seat=seat, opponents=m)
        m.env = e
        singles.append(e)
        mirrors.append(m)
    starts = [e.reset(seed=100 + i) for i, e in enumerate(singles)]
    seeds = [info["seed"] for _, info in starts]
    env = GizmosVectorEnv(n, n_players=n_players, seat=seat)
    obs, info = env.reset(seed=seeds)
    assert list(env.seeds) == seeds and list(env.seats) == [seat] * n
    for i, (o, inf) in enumerate(starts):
        assert np.array_equal(obs[i], o) and np.array_equal(info["action_mask"][i], inf["action_mask"])
    live = np.ones(n, dtype=bool)
    rng = np.random.default_rng(7)
    steps = 0
    while live.any():
        acts = random_actions(info["action_mask"], rng)
        obs, rew, term, trunc, info = env.step(acts)
        steps += 1
        for i in np.flatnonzero(live):
            o, r, te, tr, inf = singles[i].step(int(acts[i]))
            assert (rew[i], term[i], trunc[i]) == (r, te, tr)
            if te or tr:
                fi = info["final_info"]
                assert np.array_equal(info["final_obs"][i], o)
                assert fi["_score"][i] and fi["score"][i] == inf["score"] and fi["won"][i] == inf["won"]
                assert fi["winner"][i] == inf["winner"] and fi["seed"][i] == inf["seed"]
                assert fi["seat"][i] == seat and fi["episode_length"][i] == inf["episode_length"]
                assert list(fi["scores"][i]) == inf["scores"] and fi["episode_return"][i] == r
                live[i] = False
            else:
                assert np.array_equal(obs[i], o)
                assert np.array_equal(info["action_mask"][i], inf["action_mask"])
        assert steps < 5000
    assert steps > 20


@pytest.mark.parametrize("n_players, card_set", [(4, None), (2, "short")])
def test_every_row_is_a_legal_game_replayed_in_game_across_autoresets(n_players, card_set):
    """Each row is Game(n_players, seed) stepped (checked) with the agent's ids and the opponents'
    draws: observation and mask (Game.legal_mask) at every agent decision, the seat drawn from the
    seed, the final observation and facts, and after autoreset the next game's seed drawn from the
    finished game's generator.  The short card set ends every game by the round cap (truncated)."""
    cards = short_cards() if card_set == "short" else None
    n = 3
    env = GizmosVectorEnv(n, n_players=n_players, seat=None, card_set=cards)
    obs, info = env.reset(seed=[11, 2 ** 62 - 1, 12345])

    def start(i):
        seed = int(env.seeds[i])
        seat = int(env.seats[i])
        assert seat == B.pick_index(np.int64(seed), np.int64(B.SALT_SEAT), np.int64(n_players))
        g = Game(n_players, seed=seed, card_set=env.card_set)
        opp = Opponents(seed)
        while not g.done and g.current_player != seat:
            g.step(opp.pick(g.legal_mask()))
        return [g, opp, seat, 0]

    rows = [start(i) for i in range(n)]
    rng = np.random.default_rng(3)
    finished, seats = 0, set()
    for _ in range(3000 if card_set is None else 600):
        for i, (g, _, seat, _) in enumerate(rows):
            assert np.array_equal(obs[i], g.observe(seat))
            assert np.array_equal(info["action_mask"][i], g.legal_mask().view(np.int8))
        acts = random_actions(info["action_mask"], rng)
        obs, rew, term, trunc, info = env.step(acts)
        for i, row in enumerate(rows):
            g, opp, seat, _ = row
            g.step(int(acts[i]))
            row[3] += 1
            while not g.done and g.current_player != seat:
                g.step(opp.pick(g.legal_mask()))
            assert (term[i] or trunc[i]) == g.done
            if not g.done:
                assert rew[i] == 0.0
                continue
            assert trunc[i] == g.truncated and term[i] == (not g.truncated)
            assert rew[i] == (1.0 if g.winner() == seat else -1.0)
            fi = info["final_info"]
            assert np.array_equal(info["final_obs"][i], g.observe(seat))
            assert fi["seed"][i] == g.seed and fi["winner"][i] == g.winner() and fi["seat"][i] == seat
            assert list(fi["scores"][i]) == g.scores().tolist() and fi["episode_length"][i] == row[3]
            replay = Game(n_players, seed=g.seed, card_set=env.card_set)
            for a in g.history:
                replay.step(a)
            assert replay.done and np.array_equal(replay.state, g.state)
            assert env.seeds[i] == next_seed(g.state.copy(), L.S_RNG)
            seats.add(seat)
            rows[i] = start(i)
            finished += 1
    assert finished >= n
    if card_set == "short":
        assert finished >= 2 * n
    else:
        assert len(seats) >= 2


def test_reset_seed_gives_the_same_run():
    def run(seed):
        env = GizmosVectorEnv(5, n_players=3, seat=None)
        obs, info = env.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [obs.copy()]
        for _ in range(300):
            obs, rew, term, trunc, info = env.step(random_actions(info["action_mask"], rng))
            out += [obs.copy(), rew, term, trunc]
        return out, env.seeds

    a, sa = run(21)
    b, sb = run(21)
    c, _ = run(22)
    assert all(np.array_equal(x, y) for x, y in zip(a, b)) and np.array_equal(sa, sb)
    assert not np.array_equal(a[0], c[0])
    env = GizmosVectorEnv(2)
    o1, i1 = env.reset()
    assert i1["seed"].min() >= 0 and env.observation_space.contains(o1)


def test_parallel_stepping_gives_the_same_run():
    envs = [GizmosVectorEnv(6, n_players=3, seat=None, parallel=p) for p in (False, True)]
    starts = [e.reset(seed=50) for e in envs]
    assert np.array_equal(starts[0][0], starts[1][0])
    info = starts[0][1]
    rng = np.random.default_rng(5)
    ends = 0
    for _ in range(400):
        acts = random_actions(info["action_mask"], rng)
        a, b = (e.step(acts) for e in envs)
        assert all(np.array_equal(x, y) for x, y in zip(a[:4], b[:4]))
        assert np.array_equal(a[4]["action_mask"], b[4]["action_mask"])
        ends += int((a[2] | a[3]).sum())
        info = a[4]
    assert ends >= 1 and np.array_equal(envs[0].seeds, envs[1].seeds)


def test_copies_play_on_independently_and_buffers_alternate():
    env = GizmosVectorEnv(3, n_players=2)
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(30):
        obs, *_, info = env.step(random_actions(info["action_mask"], rng))
    twins = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    assert all(not t.card_set.table.flags.writeable for t in twins)
    acts = random_actions(info["action_mask"], rng)
    keep = obs.copy()
    want = env.step(acts)
    assert np.array_equal(obs, keep), "the previous observation stays valid during the next step"
    for t in twins:
        got = t.step(acts)
        assert all(np.array_equal(x, y) for x, y in zip(got[:4], want[:4]))
    g = env.snapshot(1)
    assert np.array_equal(g.legal_mask().view(np.int8), want[4]["action_mask"][1])
    fresh = GizmosVectorEnv(2, copy=True)
    a, info = fresh.reset(seed=0)
    b, *_ = fresh.step(random_actions(info["action_mask"], rng))
    assert not np.shares_memory(a, b)


# gymnasium < 1.4 counts vector episode statistics one step short for a SAME_STEP env
GYM_SAME_STEP_STATS = tuple(int(x) for x in gym.__version__.split(".")[:2]) >= (1, 4)


def test_gymnasium_vector_wrappers():
    env = DictInfoToList(RecordEpisodeStatistics(GizmosVectorEnv(4, card_set=short_cards(4))))
    obs, infos = env.reset(seed=1)
    rng = np.random.default_rng(0)
    episodes, ended = 0, set()
    for _ in range(500):
        masks = np.stack([inf["action_mask"] for inf in infos])
        obs, rew, term, trunc, infos = env.step(random_actions(masks, rng))
        for i in np.flatnonzero(term | trunc):
            ep = infos[i]["episode"]
            if GYM_SAME_STEP_STATS or i not in ended:
                assert ep["r"] == pytest.approx(infos[i]["final_info"]["episode_return"])
                assert ep["l"] == infos[i]["final_info"]["episode_length"]
            ended.add(i)
            episodes += 1
    assert episodes >= 4


@pytest.mark.parametrize("kwargs, message", [
    ({"num_envs": 0}, "num_envs must be a positive integer"),
    ({"num_envs": True}, "num_envs must be a positive integer"),
    ({"num_envs": "8"}, "num_envs must be a positive integer"),
    ({"n_players": 5}, "n_players must be 2, 3 or 4"),
    ({"seat": 2}, r"seat must be None or an integer 0\.\.1"),
    ({"seat": 1.0}, r"seat must be None or an integer 0\.\.1"),
    ({"opponents": "greedy"}, "random opponents inside numba"),
    ({"opponents": lambda o, m: 0}, "random opponents inside numba"),
    ({"render_mode": "ansi"}, "does not render"),
    ({"copy": "yes"}, "copy must be True or False"),
    ({"parallel": 1}, "parallel must be True or False"),
    ({"card_set": 3}, "card_set must be"),
])
def test_bad_arguments_are_one_line_errors(kwargs, message):
    args = {"num_envs": 2, **kwargs}
    with pytest.raises(InvalidArgumentError, match=message) as err:
        GizmosVectorEnv(**args)
    assert "\n" not in str(err.value)


def test_bad_seeds_and_actions_are_one_line_errors_and_step_nothing():
    env = GizmosVectorEnv(3)
    with pytest.raises(IllegalActionError, match="before reset"):
        env.step(np.zeros(3, dtype=np.int64))
    for seed, message in [(-1, "seed must be"), ([1, 2], "give one integer or 3 integers"),
                          ([0, -5, 1], r"seed\[1\]"), (2 ** 62 - 2, "at most 2\\*\\*62-3"), ("x", "seed")]:
        with pytest.raises(InvalidArgumentError, match=message) as err:
            env.reset(seed=seed)
        assert "\n" not in str(err.value)
    obs, info = env.reset(seed=0)
    before = env._states.copy()
    mask = info["action_mask"].copy()
    bad = random_actions(mask, np.random.default_rng(0))
    bad[2] = int(np.flatnonzero(mask[2] == 0)[0])
    for acts, message in [(bad, r"row 2: action \d+ is not legal now \(masked out\)"),
                          (np.array([0, 0, L.N_ACTIONS]), r"row \d: action \d+ is not legal now"),
                          (np.array([-1, 0, 0]), r"row 0: action -1 is not legal now \(out of range\)"),
                          (np.zeros(2, dtype=np.int64), r"shape \(3,\)"),
                          (np.zeros(3, dtype=np.float64), "dtype float64"),
                          ([[1], [2, 3]], "numpy cannot turn")]:
        with pytest.raises(IllegalActionError, match=message) as err:
            env.step(acts)
        assert "\n" not in str(err.value)
        assert np.array_equal(env._states, before) and np.array_equal(env.action_masks(), mask != 0)
    with pytest.raises(InvalidArgumentError, match="game index"):
        env.snapshot(3)
