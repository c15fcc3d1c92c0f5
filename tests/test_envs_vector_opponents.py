"""Opponents played inside numba by the seat vector env (kernels/batch.py ``C_OPP``,
envs/vector.py ``opponents``): greedy and random seats decide exactly as the engine's reference
functions do on a ``Game`` stepped by hand, greedy opponents are far stronger than random ones,
the greedy code is compiled only for envs with a greedy seat (``W``), and bad specs are refused
with a one-line error naming ``opponents``."""
import copy
import pickle

import gymnasium as gym
import numba
import numpy as np
import pytest

from electrify_env.agents.greedy import DEFAULT_WEIGHTS, GreedyWeights, load_weights
from electrify_env import Game
from electrify_env.common.engine.rng import rng_next
from electrify_env.engine.layout import S_RNG
from electrify_env.kernels import batch as B
from electrify_env.kernels import league
from electrify_env.kernels.batch import sample_legal
from electrify_env.engine.playout import pick_random
from electrify_env.kernels.search import N_WEIGHTS
from electrify_env.envs import SEAT_ENV_ID, ElectrifyVectorEnv
from electrify_env.envs.vector import make_seat_vector_env
from electrify_env.validation import InvalidArgumentError

W_DEFAULT = load_weights().to_array()


def random_actions(masks, rng):
    """One uniform random legal id per row (the fixed seeded agent policy)."""
    out = np.empty(len(masks), dtype=np.int64)
    sample_legal(np.ascontiguousarray(masks).view(np.uint8), rng.random(len(masks)), out)
    return out


def reference_opponents(game: Game, seat: int, specs: list[str], W: np.ndarray) -> None:
    """Play the other seats of ``game`` by hand until ``seat`` is to move: seat ``seat + k + 1``
    by ``specs[k]``.  Greedy: ``league.greedy_actions`` on the game with a determinization seed
    drawn from the game's generator (``rng_next``) when the move is not forced; random:
    ``pick_random`` with the game's generator."""
    n = game.n_players
    T = game.cards.table
    while not game.is_terminal and game.current_player != seat:
        q = game.current_player
        mask = game.legal_mask().copy()
        n_legal = int(mask.sum())
        if specs[(q - seat) % n - 1] == "greedy":
            if n_legal == 1:
                a = int(np.flatnonzero(mask)[0])
            else:
                seeds = np.array([rng_next(game.state, S_RNG)], dtype=np.int64)
                out = np.zeros(1, dtype=np.int64)
                league.greedy_actions(game.state[None], T, W, np.zeros(1, dtype=np.int64), seeds, out)
                a = int(out[0])
        else:
            a = int(pick_random(game.state, mask, np.int64(n_legal)))
        game.step(a)


def check_against_reference(env: ElectrifyVectorEnv, specs: list[str], steps: int, seed: int) -> int:
    """Step ``env`` with a seeded random agent and a hand-stepped ``Game`` per row; every
    observation, mask, reward and outcome must agree.  Returns the number of finished games."""
    n = env.num_envs
    obs, info = env.reset(seed=seed)

    def new_game(i):
        g = Game(n_players=env.n_players, seed=int(env.seeds[i]))
        reference_opponents(g, int(env.seats[i]), specs, W_DEFAULT)
        return g

    games = [new_game(i) for i in range(n)]
    rng = np.random.default_rng(seed)
    finished = 0
    for _ in range(steps):
        for i, g in enumerate(games):
            seat = int(env.seats[i])
            assert g.current_player == seat
            assert np.array_equal(obs[i], g.observe(seat))
            assert np.array_equal(info["action_mask"][i], g.legal_mask().view(np.int8))
        acts = random_actions(info["action_mask"], rng)
        seats = env.seats
        for i, g in enumerate(games):
            g.step(int(acts[i]))
            reference_opponents(g, int(seats[i]), specs, W_DEFAULT)
        obs, rew, term, _, info = env.step(acts)
        for i, g in enumerate(games):
            assert bool(term[i]) == g.is_terminal
            if not term[i]:
                assert rew[i] == 0.0
                continue
            fi = info["final_info"]
            seat = int(seats[i])
            winners = g.winners()
            assert fi["seed"][i] == g.seed and fi["seat"][i] == seat
            assert fi["score"][i] == g.scores()[seat]
            assert bool(fi["won"][i]) == (seat in winners)
            want = 0.0 if len(winners) == g.n_players else (1.0 / len(winners) if seat in winners else -1.0)
            assert rew[i] == pytest.approx(want)
            assert np.array_equal(info["final_obs"][i], g.observe(seat))
            games[i] = new_game(i)
            finished += 1
    return finished


def test_greedy_opponents_decide_as_league_greedy_actions():
    """3 players, the agent's seat drawn per game: every row is a Game whose other seats are
    played by league.greedy_actions with seeds from the game's generator, across autoresets."""
    env = ElectrifyVectorEnv(3, "seat", n_players=3, seat=None, opponents="greedy")
    assert env.opponents == ["greedy", "greedy"]
    assert np.array_equal(env._W, W_DEFAULT) and not env._W.flags.writeable
    assert check_against_reference(env, ["greedy", "greedy"], 500, seed=11) >= 3


def test_mixed_opponents_4p_follow_the_seat_order():
    """Entry k of the list plays the seat k+1 places after the agent's, whatever the seat."""
    specs = ["greedy", "random", "greedy"]
    env = ElectrifyVectorEnv(4, "seat", n_players=4, seat=None, opponents=specs)
    assert env.opponents == specs
    assert list(env._C[B.C_OPP:B.C_OPP + 4]) == [B.OPP_NONE, B.OPP_GREEDY, B.OPP_RANDOM, B.OPP_GREEDY]
    env.reset(seed=5)
    assert len(set(env.seats.tolist())) >= 3, "the seeds should put the agent in several seats"
    check_against_reference(env, specs, 150, seed=5)


def win_rate(opponents, n_envs=64, steps=300, seed=0):
    """Wins / finished games of a uniform random agent in 2-player seat games."""
    env = ElectrifyVectorEnv(n_envs, "seat", n_players=2, seat=None, opponents=opponents)
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    won = games = 0
    for _ in range(steps):
        obs, rew, term, _, info = env.step(random_actions(info["action_mask"], rng))
        if term.any():
            won += int(info["final_info"]["won"][term].sum())
            games += int(term.sum())
    return won, games


def test_random_agent_wins_far_less_against_greedy_than_against_random():
    won_r, games_r = win_rate("random")
    won_g, games_g = win_rate("greedy")
    assert games_r >= 40 and games_g >= 40
    assert won_r / games_r > 0.3
    assert won_g / games_g < 0.1


def test_parallel_equals_serial_with_greedy_opponents():
    traces = []
    for parallel in (False, True):
        env = ElectrifyVectorEnv(6, "seat", n_players=3, seat=None, opponents=["greedy", "random"],
                                 reward_mode="shaped", parallel=parallel)
        obs, info = env.reset(seed=21)
        rng = np.random.default_rng(2)
        trace = []
        for _ in range(250):
            obs, rew, term, _, info = env.step(random_actions(info["action_mask"], rng))
            trace.append((obs.copy(), rew.copy(), term.copy(), env.seeds))
        traces.append(trace)
    for a, b in zip(*traces):
        for u, v in zip(a, b):
            assert np.array_equal(u, v)
    assert any(t[2].any() for t in traces[0])


def test_make_vec_seat_env_takes_greedy_opponents():
    env = gym.make_vec(SEAT_ENV_ID, num_envs=4, vectorization_mode="vector_entry_point", opponents="greedy")
    assert isinstance(env.unwrapped, ElectrifyVectorEnv)
    assert env.unwrapped.opponents == ["greedy"]
    obs, info = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(5):
        obs, rew, term, trunc, info = env.step(random_actions(info["action_mask"], rng))
    assert env.observation_space.contains(obs)


def test_greedy_weights_spec_loads_the_file(tmp_path):
    tilted = GreedyWeights(**{**load_weights().to_dict(), "score": 2.5})
    path = tmp_path / "w.yaml"
    path.write_text(tilted.yaml_text())
    env = ElectrifyVectorEnv(2, "seat", n_players=3, opponents=f"greedy:weights={path}")
    assert env.opponents == [f"greedy:weights={path}"] * 2
    assert np.array_equal(env._W, tilted.to_array())
    same = ElectrifyVectorEnv(2, "seat", opponents=["greedy:weights=" + str(DEFAULT_WEIGHTS)])
    assert np.array_equal(same._W, W_DEFAULT)
    assert list(same._C[B.C_OPP:B.C_OPP + 2]) == [B.OPP_NONE, B.OPP_GREEDY]


def test_random_opponents_stay_the_default():
    env = ElectrifyVectorEnv(2, "seat", n_players=4)
    assert env.opponents == ["random"] * 3
    assert list(env._C[B.C_OPP:B.C_OPP + 4]) == [B.OPP_NONE] + [B.OPP_RANDOM] * 3
    assert env._W is None
    solo = ElectrifyVectorEnv(2, "solo")
    assert solo.opponents == [] and solo._W is None
    with pytest.raises(AttributeError):
        env.opponents = ["greedy"] * 3


def test_opponent_weights_only_with_a_greedy_seat():
    """W is None for solo and random-only configs (weights given are ignored), else a read-only
    copy, typed as the greedy agent's own weight array."""
    solo_C, _ = B.new_config(B.MODE_SOLO, 1, 0, B.RM_SHAPED, 0, -1, 0, 1, 0.0, 0.0)
    random_C, _ = B.new_config(B.MODE_SEAT, 3, 0, B.RM_WIN, 0, -1, B.OPP_RANDOM, 1, 0.0, 0.1)
    mixed_C, _ = B.new_config(B.MODE_SEAT, 3, 0, B.RM_WIN, 0, -1, [B.OPP_RANDOM, B.OPP_GREEDY], 1,
                              0.0, 0.1)
    assert B.opponent_weights(solo_C, W_DEFAULT) is None
    assert B.opponent_weights(random_C, W_DEFAULT) is None
    source = W_DEFAULT.copy()
    W = B.opponent_weights(mixed_C, source)
    assert W.shape == (N_WEIGHTS,) and W.dtype == np.float64 and not W.flags.writeable
    source[0] += 1.0
    assert np.array_equal(W, W_DEFAULT)
    assert numba.typeof(W) == numba.typeof(W_DEFAULT)


def called_functions(dispatcher) -> set:
    """The Python functions of the jitted functions that the (only) compiled version of
    ``dispatcher`` calls, read from its type map."""
    (cres,) = dispatcher.overloads.values()
    return {t.dispatcher.py_func for t in cres.fndesc.typemap.values()
            if isinstance(t, numba.core.types.Dispatcher)}


def test_without_greedy_seats_the_greedy_code_is_not_compiled():
    """play_opponents compiled for W = None leaves out the greedy branch (numba prunes
    ``W is None`` on an argument typed None), so solo and random-opponent envs never compile
    the greedy evaluation; with an array W the greedy loop is called."""
    env = ElectrifyVectorEnv(1, "seat", n_players=3, seat=1)
    env.reset(seed=3)
    args = (env._b.states[0].copy(), env._T, env._C)
    for W, greedy in ((None, False), (W_DEFAULT, True)):
        fresh = numba.njit(B.play_opponents.py_func)   # no cache: compiled here, typed anew
        fresh(*args, W, np.int64(1), np.zeros(B.N_ACTIONS, dtype=np.uint8))
        called = called_functions(fresh)
        assert B.fill_mask.py_func in called
        assert (B._play_opponents.py_func in called) == greedy


def test_random_seats_play_alike_with_or_without_greedy_weights():
    """The greedy-capable kernel (an array W) plays random seats exactly as the pruned one."""
    traces = []
    for W in (None, W_DEFAULT):
        env = ElectrifyVectorEnv(6, "seat", n_players=3, seat=None, reward_mode="shaped")
        env._W = W
        obs, info = env.reset(seed=31)
        rng = np.random.default_rng(1)
        trace = [obs.copy()]
        for _ in range(250):
            obs, rew, term, _, info = env.step(random_actions(info["action_mask"], rng))
            trace.append((obs.copy(), rew.copy(), term.copy(), env.seeds))
        traces.append(trace)
    assert any(t[2].any() for t in traces[0][1:])
    for a, b in zip(*traces):
        for u, v in zip(a, b):
            assert np.array_equal(u, v)


@pytest.mark.parametrize("opponents,match", [
    (lambda o, m: 0, "got <function"),
    ("mcts", "got 'mcts'"),
    ("mcts:iters=4", "got 'mcts:iters=4'"),
    ("grredy", "got 'grredy'"),
    (["greedy", "ppo"], "entry 1 is 'ppo'"),
    (["greedy"], "needs 2 entries"),
    (3, "got 3"),
])
def test_bad_opponents_are_refused_naming_opponents(opponents, match):
    with pytest.raises(InvalidArgumentError, match=match) as err:
        ElectrifyVectorEnv(2, "seat", n_players=3, opponents=opponents)
    msg = str(err.value)
    assert msg.startswith("opponents") and "\n" not in msg
    assert "random" in msg and "greedy" in msg and "numba" in msg and "Electrify-v0" in msg


def test_bad_greedy_parameters_and_mode_are_refused(tmp_path):
    with pytest.raises(InvalidArgumentError, match=r"^opponents: .*no parameter 'iters'"):
        ElectrifyVectorEnv(2, "seat", opponents="greedy:iters=3")
    with pytest.raises(InvalidArgumentError, match=r"^opponents\[1\]: .*no parameter 'x'"):
        ElectrifyVectorEnv(2, "seat", n_players=3, opponents=["greedy", "random:x=1"])
    with pytest.raises(InvalidArgumentError, match=r"^opponents: .*does not exist"):
        ElectrifyVectorEnv(2, "seat", opponents="greedy:weights=" + str(tmp_path / "none.yaml"))
    tilted = tmp_path / "w.yaml"
    tilted.write_text(GreedyWeights(**{**load_weights().to_dict(), "score": 2.5}).yaml_text())
    with pytest.raises(InvalidArgumentError, match="^opponents: .*same weights"):
        ElectrifyVectorEnv(2, "seat", n_players=3, opponents=["greedy", f"greedy:weights={tilted}"])
    same = ElectrifyVectorEnv(2, "seat", n_players=3, opponents=["greedy", f"greedy:weights={DEFAULT_WEIGHTS}"])
    assert list(same._C[B.C_OPP:B.C_OPP + 3]) == [B.OPP_NONE, B.OPP_GREEDY, B.OPP_GREEDY]
    with pytest.raises(InvalidArgumentError, match="^opponents applies to mode='seat'"):
        ElectrifyVectorEnv(2, "solo", opponents="greedy")
    with pytest.raises(ValueError, match="^opponents: .*Electrify-v0"):
        make_seat_vector_env(2, opponents=lambda o, m: 0)
    C, _ = B.new_config(B.MODE_SEAT, 2, 0, B.RM_WIN, 0, -1, B.OPP_GREEDY, 1, 0.0, 0.1)
    with pytest.raises(ValueError, match="^greedy_weights: required"):
        B.opponent_weights(C)
    with pytest.raises(ValueError, match="^greedy_weights: expected"):
        B.opponent_weights(C, W_DEFAULT[:-1])
    with pytest.raises(ValueError, match="^opponents"):
        B.new_config(B.MODE_SEAT, 3, 0, B.RM_WIN, 0, -1, [B.OPP_RANDOM], 1, 0.0, 0.1)


@pytest.mark.parametrize("copier", [copy.deepcopy, lambda e: pickle.loads(pickle.dumps(e))])
def test_copy_with_greedy_opponents_plays_on_like_the_original(copier):
    env = ElectrifyVectorEnv(3, "seat", n_players=2, opponents="greedy")
    obs, info = env.reset(seed=8)
    rng = np.random.default_rng(4)
    for _ in range(10):
        obs, *_, info = env.step(random_actions(info["action_mask"], rng))
    twin = copier(env)
    assert twin.opponents == ["greedy"]
    rng_twin = copy.deepcopy(rng)
    for _ in range(40):
        a = random_actions(env.action_masks(), rng)
        b = random_actions(twin.action_masks(), rng_twin)
        assert np.array_equal(a, b)
        o1, r1, t1, *_ = env.step(a)
        o2, r2, t2, *_ = twin.step(b)
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2) and np.array_equal(t1, t2)
