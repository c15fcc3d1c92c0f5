"""``Electrify-v0`` with registered agents as opponents (opponents with an engine view): agent objects and registry specs, alone or mixed with callables, reproducible from
``reset(seed=...)``, copied whole, and never shown more than their own seat's information set."""
import copy
import pickle
import subprocess
import sys

import cloudpickle
import gymnasium as gym
import numpy as np
import pytest

from electrify_env.agents import Agent, AgentError
from electrify_env.agents.greedy import GreedyAgent
from electrify_env.agents.random_agent import RandomAgent
from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.engine.observe import OBS_SIZE
from electrify_env.envs import SEAT_ENV_ID, ElectrifyEnv
from electrify_env.envs.seat import opponent_seed
from electrify_env.validation import InvalidArgumentError

COPIERS = {
    "pickle": lambda env: pickle.loads(pickle.dumps(env)),
    "deepcopy": copy.deepcopy,
    "cloudpickle": lambda env: cloudpickle.loads(cloudpickle.dumps(env)),
}


def first_legal(observation, action_mask):
    """A picklable plain opponent: the lowest legal id."""
    return int(np.flatnonzero(action_mask)[0])


class RecordingAgent(Agent):
    """Plays the lowest legal id; keeps every view it is given and every seed it is reset with."""

    name = "recording"
    needs_infoset = True
    needs_observation = True

    def __init__(self) -> None:
        super().__init__()
        self.views = []
        self.seeds = []

    def reset(self, seed: int = 0) -> None:
        """Record the seed, then reseed as every agent does."""
        self.seeds.append(int(seed))
        super().reset(seed)

    def act(self, view) -> int:
        """Record the view; the lowest legal id."""
        self.views.append(view)
        return int(np.flatnonzero(view.mask)[0])


def play_episode(env, seed, policy_seed=0):
    """One full episode with a seeded random agent policy: (actions, rewards, observations, final
    info).  ``env`` may be wrapped (``gym.make``)."""
    rng = np.random.default_rng(policy_seed)
    obs, info = env.reset(seed=seed)
    actions, rewards, observations = [], [], [obs]
    while True:
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, r, term, trunc, info = env.step(a)
        actions.append(a)
        rewards.append(r)
        observations.append(obs)
        assert not trunc
        if term:
            return actions, rewards, np.array(observations), info


def assert_same_episode(x, y):
    """Two play_episode results are equal."""
    assert x[0] == y[0] and x[1] == y[1]
    assert np.array_equal(x[2], y[2])
    assert {k: v for k, v in x[3].items() if k != "action_mask"} == \
        {k: v for k, v in y[3].items() if k != "action_mask"}


# ---- reproducible games ----------------------------------------------------------------------
def test_greedy_opponents_play_full_games_reproducible_from_reset_seed():
    """Same ``reset(seed)`` and the same agent policy give the same episode: in the same env
    after other episodes, and in a fresh env (the greedy agents are reset from the game seed)."""
    env = ElectrifyEnv(n_players=3, seat=None, opponents="greedy")
    first = play_episode(env, seed=4)
    other = play_episode(env, seed=5)
    again = play_episode(env, seed=4)
    fresh = play_episode(ElectrifyEnv(n_players=3, seat=None, opponents="greedy"), seed=4)
    assert first[3]["seed"] == again[3]["seed"] == fresh[3]["seed"] != other[3]["seed"]
    assert_same_episode(first, again)
    assert_same_episode(first, fresh)
    assert first[3]["episode_length"] == len(first[0]) > 20


def test_opponent_agents_are_reset_from_the_game_seed_once_per_object():
    """Every agent object is reset once per game with a seed derived from the game's seed and
    its entry; a shared object given alone is reset once, with entry 0's seed."""
    shared = RecordingAgent()
    env = ElectrifyEnv(n_players=4, seat=0, opponents=shared)
    _, info = env.reset(seed=9)
    assert shared.seeds == [opponent_seed(info["seed"], 0)]
    env.reset(seed=9)
    env.reset(seed=10)
    assert shared.seeds[1] == shared.seeds[0] != shared.seeds[2]
    a, b = RecordingAgent(), RecordingAgent()
    env = ElectrifyEnv(n_players=3, seat=1, opponents=[a, b])
    _, info = env.reset(seed=2)
    assert a.seeds == [opponent_seed(info["seed"], 0)] and b.seeds == [opponent_seed(info["seed"], 1)]
    assert a.seeds != b.seeds
    assert {v.seat for v in a.views} <= {2} and {v.seat for v in b.views} <= {0}
    assert all(0 <= opponent_seed(s, k) <= (1 << 62) - 1 for s in (0, (1 << 62) - 1) for k in range(3))


def test_greedy_opponent_beats_a_random_agent_seat():
    """Measured (seeds 0-19): a random agent seat won 0 of 20 two-player games against greedy,
    greedy ahead by 25.7 points on average.  Over 8 seeded games, at most 1 random win."""
    env = ElectrifyEnv(n_players=2, seat=None, opponents="greedy")
    wins, margins = 0, []
    for seed in range(8):
        *_, info = play_episode(env, seed=seed, policy_seed=seed)
        wins += info["won"]
        margins.append(info["best_other"] - info["score"])
    assert wins <= 1
    assert np.mean(margins) > 10


# ---- kinds of opponents ----------------------------------------------------------------------
def test_mixed_list_of_spec_agent_and_callable():
    """Entry k plays the seat k+1 places after the agent; each kind is asked in its own form:
    the callable with (float32 observation, int8 mask), the agent with its SeatView."""
    calls = []

    def plain(observation, action_mask):
        assert observation.shape == (OBS_SIZE,) and observation.dtype == np.float32
        assert action_mask.dtype == np.int8
        calls.append(len(calls))
        return first_legal(observation, action_mask)

    rec = RecordingAgent()
    env = ElectrifyEnv(n_players=4, seat=1, opponents=["greedy", plain, rec])
    players = env.opponents
    assert isinstance(players[0], GreedyAgent) and players[0].spec == "greedy"
    assert players[1] is plain and players[2] is rec
    *_, info = play_episode(env, seed=3)
    assert calls and rec.views
    assert {v.seat for v in rec.views} == {0}      # 3 places after seat 1 in a 4-player game
    assert all(v.n_players == 4 and v.card_set_hash == env.card_set.hash for v in rec.views)
    decisions = [v.decision for v in rec.views]
    assert decisions == sorted(decisions) and len(set(decisions)) == len(decisions)
    assert info["episode_length"] > 0
    ElectrifyEnv(n_players=3, opponents=[RandomAgent(), "random"]).reset(seed=0)


def test_agent_opponents_replay_as_a_game():
    """The agent's and the opponents' actions, in the order played, rebuild the same game with
    ``Game.replay``: scores and the win agree with the env; each view's ``decision`` counts the
    decisions made before it."""
    moves = []

    class Tapped(RecordingAgent):
        def act(self, view):
            assert view.decision == len(moves)
            moves.append(super().act(view))
            return moves[-1]

    env = ElectrifyEnv(n_players=3, seat=2, opponents=[Tapped(), Tapped()], reward_mode="margin")
    rng = np.random.default_rng(1)
    _, info = env.reset(seed=6)
    while True:
        moves.append(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        _, r, term, _, info = env.step(moves[-1])
        if term:
            break
    g = Game.replay(moves, n_players=3, seed=info["seed"])
    assert g.is_terminal
    sc = g.scores()
    assert info["score"] == sc[2] and info["best_other"] == max(sc[0], sc[1])
    assert info["won"] == (2 in g.winners())
    assert r == pytest.approx(0.1 * (sc[2] - max(sc[0], sc[1])))


def test_engine_view_opponent_gets_only_its_own_scrubbed_infoset():
    """An agent with an engine view sees its own hand and the public table; other hands, the
    decks and the generator words are wiped (-2 / 0), never the full state."""
    rec = RecordingAgent()
    env = ElectrifyEnv(n_players=3, seat=0, opponents=[rec, first_legal])
    play_episode(env, seed=12)
    assert len(rec.views) > 20
    hidden_seen = own_seen = 0
    for v in rec.views:
        S = v.infoset
        assert S.shape == (L.S_SIZE,) and S.dtype == np.int64 and v.seat == 1
        assert v.observation.shape == (OBS_SIZE,)
        assert not S[L.S_RNG:L.S_RNG + 4].any()
        deck = S[L.S_DECK:L.S_DECK + 2 * L.MAX_DECK]
        assert np.isin(deck, (-2, L.NO_CARD)).all()
        for q in range(3):
            hand = S[L.S_PLAYERS + q * L.P_SIZE + L.P_HAND:][:L.MAX_HAND]
            if q == v.seat:
                assert (hand >= L.NO_CARD).all()
                own_seen += int((hand >= 0).sum())
            else:
                assert np.isin(hand, (-2, L.NO_CARD)).all()
                hidden_seen += int((hand == -2).sum())
    assert hidden_seen > 0 and own_seen > 0
    # the views are the agent's own: later decisions did not overwrite earlier ones
    assert len({v.infoset.tobytes() for v in rec.views}) > 1


def test_agent_that_needs_nothing_gets_no_engine_view():
    """Agents declaring neither part (as random) get only their mask."""

    class MaskOnly(RecordingAgent):
        needs_infoset = False
        needs_observation = False

    agent = MaskOnly()
    ElectrifyEnv(n_players=2, seat=1, opponents=agent).reset(seed=0)
    assert agent.views and all(v.infoset is None and v.observation is None for v in agent.views)
    assert all(v.seat == 0 and v.mask.dtype == np.uint8 and v.mask.any() for v in agent.views)


def test_opponent_agent_illegal_action_raises():
    class Bad(RecordingAgent):
        def act(self, view):
            return L.N_ACTIONS + 5

    env = ElectrifyEnv(n_players=2, seat=1, opponents=Bad())
    with pytest.raises(ValueError, match="^opponent: action"):
        env.reset(seed=0)


# ---- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("opponents, match", [
    ("nope", r"^opponents: unknown agent 'nope'; known agents: random, greedy, mcts"),
    ("mcts:iters=0", r"^opponents: agent 'mcts': parameter iters=0 must lie in"),
    ("greedy:depth=2", r"^opponents: agent 'greedy' has no parameter 'depth'"),
    (["greedy", ""], r"^opponents\[1\]: empty agent spec"),
    ([first_legal, "rand"], r"^opponents\[1\]: unknown agent 'rand'"),
])
def test_bad_spec_raises_the_registry_error(opponents, match):
    with pytest.raises(AgentError, match=match) as err:
        ElectrifyEnv(n_players=3, opponents=opponents)
    assert isinstance(err.value, ValueError) and "\n" not in str(err.value)


def test_wrong_list_length_and_bad_entries():
    with pytest.raises(InvalidArgumentError, match=r"^opponents must have 2 entries .* got 1$"):
        ElectrifyEnv(n_players=3, opponents=["greedy"])
    with pytest.raises(InvalidArgumentError, match=r"^opponents must have 3 entries .* got 4$"):
        ElectrifyEnv(n_players=4, opponents=["greedy"] * 4)
    with pytest.raises(InvalidArgumentError, match=r"^opponents\[1\] must be a callable"):
        ElectrifyEnv(n_players=3, opponents=["greedy", 3])
    with pytest.raises(InvalidArgumentError, match=r"^opponents must be None"):
        ElectrifyEnv(n_players=3, opponents=3.5)


def test_mcts_spec_with_parameters_builds_per_seat():
    env = ElectrifyEnv(n_players=3, opponents="mcts:iters=36:top_k=3:horizon=2")
    a, b = env.opponents
    assert a is not b and (a.iters, a.top_k, a.horizon) == (36, 3, 2)


def test_small_mcts_opponent_plays_a_full_game():
    env = ElectrifyEnv(n_players=2, seat=1, opponents="mcts:iters=4:top_k=2")
    x = play_episode(env, seed=1)
    assert x[3]["best_other"] > x[3]["score"]
    assert_same_episode(x, play_episode(env, seed=1))


@pytest.mark.slow
def test_mcts_opponent_plays_a_full_game():
    """One two-player game against ``mcts:iters=36:top_k=3:horizon=2`` (3 s warm, more when
    numba compiles the searches)."""
    env = ElectrifyEnv(n_players=2, seat=0, opponents="mcts:iters=36:top_k=3:horizon=2")
    *_, info = play_episode(env, seed=0)
    assert info["best_other"] > info["score"]


# ---- gymnasium.make --------------------------------------------------------------------------
def test_gymnasium_make_with_agent_opponents():
    """Through ``gymnasium.make`` (env checker and illegal-action wrapper included)."""
    env = gym.make(SEAT_ENV_ID, n_players=3, seat=None, opponents="greedy")
    assert all(isinstance(p, GreedyAgent) for p in env.unwrapped.opponents)
    x = play_episode(env, seed=2)
    y = play_episode(gym.make(SEAT_ENV_ID, n_players=3, seat=None, opponents="greedy"), seed=2)
    assert_same_episode(x, y)
    mixed = gym.make(SEAT_ENV_ID, n_players=3, opponents=[first_legal, "random"])
    play_episode(mixed, seed=1)
    with pytest.raises(AgentError, match="^opponents: unknown agent"):
        gym.make(SEAT_ENV_ID, opponents="greedyy")


def test_gymnasium_check_env_with_agent_opponents():
    """Gymnasium's conformance checker (its reset-determinism check needs the opponent agents
    reseeded from ``reset(seed=...)``)."""
    import warnings

    from gymnasium.utils.env_checker import check_env

    env = gym.make(SEAT_ENV_ID, n_players=3, seat=None, opponents=["greedy", RecordingAgent()])
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*different from the unwrapped version")
        check_env(env, skip_render_check=True)


# ---- copies ----------------------------------------------------------------------------------
@pytest.mark.parametrize("how", list(COPIERS))
@pytest.mark.parametrize("opponents", ["greedy", "agent_object", "mixed"])
def test_copy_mid_game_plays_on_like_the_original(opponents, how):
    """A copy (made mid-game) plays on exactly as the original: spec agents are rebuilt from
    their spec with their generator's state; agent objects are copied."""
    made = {"greedy": lambda: "greedy",
            "agent_object": lambda: GreedyAgent(),
            "mixed": lambda: ["greedy", first_legal, RecordingAgent()]}[opponents]()
    env = ElectrifyEnv(n_players=2 if opponents != "mixed" else 4, seat=None, opponents=made)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=7)
    for _ in range(15):
        _, _, term, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert not term
    twin = COPIERS[how](env)
    for p, q, spec in zip(env.opponents, twin.opponents, twin._opponent_specs):
        assert q is not p or not hasattr(p, "act")   # plain functions pickle by reference
        if spec is not None:
            assert q.spec == spec and type(q) is type(p)
    for _ in range(400):
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        x, y = env.step(a), twin.step(a)
        assert np.array_equal(x[0], y[0]) and x[1:3] == y[1:3]
        if x[2]:
            break
    else:
        raise AssertionError("the game did not end")
    # the next episode too (agents reset from the new game seed in both)
    assert_same_episode(play_episode(env, seed=8), play_episode(twin, seed=8))


def test_pickled_env_holds_the_spec_not_the_agent():
    """Spec agents travel as their spec (a policy is not pickled with the env) and are rebuilt;
    agent objects travel whole."""
    by_spec = pickle.dumps(ElectrifyEnv(n_players=3, opponents=["greedy", "random"]))
    assert b"GreedyAgent" not in by_spec and b"RandomAgent" not in by_spec
    twin = pickle.loads(by_spec)
    assert [type(p) for p in twin.opponents] == [GreedyAgent, RandomAgent]
    assert [p.spec for p in twin.opponents] == ["greedy", "random"]
    assert b"GreedyAgent" in pickle.dumps(ElectrifyEnv(n_players=2, opponents=GreedyAgent()))


@pytest.mark.parametrize("how", list(COPIERS))
def test_copy_before_reset_and_of_made_env(how):
    env = gym.make(SEAT_ENV_ID, n_players=3, opponents=["greedy", "random"])
    twin = COPIERS[how](env)
    assert_same_episode(play_episode(env, seed=1), play_episode(twin, seed=1))


# ---- layering --------------------------------------------------------------------------------
def test_env_package_does_not_import_agents():
    """``electrify_env.agents`` sits above the envs; the envs import it only to resolve an agent."""
    code = ("import sys, electrify_env, electrify_env.envs\n"
            "from electrify_env.envs import ElectrifyEnv\n"
            "env = ElectrifyEnv(n_players=2, seat=1, opponents=lambda o, m: int(m.nonzero()[0][0]))\n"
            "env.reset(seed=0)\n"
            "assert not [m for m in sys.modules if m.startswith('electrify_env.agents')], 'agents imported'")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]


def test_no_agent_resolver_gives_a_clear_error(monkeypatch):
    """With no agent resolver (none set, no entry point installed) a spec is refused with one
    line saying so; agent objects and callables still play."""
    import electrify_env.resolver as core_agent
    monkeypatch.setattr(core_agent, "_resolver", None)
    monkeypatch.setattr(core_agent, "entry_points", lambda group: [])
    for bad in ("greedy", ["random", first_legal]):
        with pytest.raises(ValueError, match=r"^opponents(\[0\])?: no agent registry is installed"):
            ElectrifyEnv(n_players=3, opponents=bad)
    ElectrifyEnv(n_players=3, opponents=first_legal).reset(seed=0)
    ElectrifyEnv(n_players=3, opponents=RecordingAgent()).reset(seed=0)


def test_an_injected_resolver_serves_every_spec(monkeypatch):
    """set_agent_resolver replaces the registry for the envs: a project's own agents by name."""
    import electrify_env.resolver as core_agent
    asked = []

    def resolver(spec):
        asked.append(spec)
        return RecordingAgent()

    monkeypatch.setattr(core_agent, "_resolver", None)
    core_agent.set_agent_resolver(resolver)
    env = ElectrifyEnv(n_players=3, opponents=["my_bot", "my_other_bot"])
    env.reset(seed=0)
    assert asked == ["my_bot", "my_other_bot"]
    assert all(isinstance(p, RecordingAgent) for p in env.opponents)
