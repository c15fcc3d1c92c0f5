"""``ppo:path=`` plays a plain sb3-contrib MaskablePPO zip (no metadata sidecar): its spaces are
checked against the engine's, and it plays with a one-line warning."""
import warnings

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
gym = pytest.importorskip("gymnasium")

from sb3_contrib import MaskablePPO  # noqa: E402

import electrify_env  # noqa: E402,F401  (registers Electrify-v0)
from electrify_env.agents import make_agent  # noqa: E402
from electrify_env.agents.arena import ArenaConfig, run_arena  # noqa: E402
from electrify_env.agents.policy_meta import PolicyMismatchError, meta_path  # noqa: E402
from electrify_env.game import Game  # noqa: E402


@pytest.fixture(scope="module")
def plain_zip(tmp_path_factory):
    """A MaskablePPO trained for one small rollout on Electrify-v0, saved with model.save only."""
    env = gym.make("Electrify-v0")
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, device="cpu")
    model.learn(total_timesteps=64)
    path = tmp_path_factory.mktemp("sb3") / "plain.zip"
    model.save(str(path))
    assert path.is_file() and not meta_path(path).exists()
    return path


def test_a_plain_zip_plays_a_game_with_one_warning(plain_zip):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        agent = make_agent(f"ppo:path={plain_zip}")
    msgs = [str(w.message) for w in caught if "metadata" in str(w.message)]
    assert len(msgs) == 1 and "\n" not in msgs[0] and "not its card set or observation version" in msgs[0]
    game = Game(n_players=2, seed=3)
    agent.reset(5)
    from electrify_env.agent import seat_view

    moves = 0
    rng = np.random.default_rng(0)
    while not game.is_terminal and moves < 400:
        if game.current_player == 0:
            a = agent.act(seat_view(game, 0))
        else:
            a = int(rng.choice(game.legal_actions()))
        assert a in game.legal_actions()
        game.step(a)
        moves += 1
    assert moves > 10


def test_a_plain_zip_plays_in_the_arena(plain_zip):
    res = run_arena(ArenaConfig(agents=[f"ppo:path={plain_zip}", "random"], players=2, games=2, seed=1,
                                progress=False))
    assert res["summary"]["pairings"][0]["games"] == 2


def test_a_zip_of_other_spaces_is_refused_in_one_line(tmp_path):
    env = gym.make("CartPole-v1")
    path = tmp_path / "cartpole.zip"
    MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=32, device="cpu").save(str(path))
    with pytest.raises(PolicyMismatchError) as exc:
        make_agent(f"ppo:path={path}")
    msg = str(exc.value)
    assert "\n" not in msg and "observation shape (4,) and 2 actions" in msg and str(path) in msg
