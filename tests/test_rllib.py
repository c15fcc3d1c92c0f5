"""RLlib: the ``MultiAgentEnv`` adapter (``electrify_env/envs/rllib.py``), the RLlib
module around ``PolicyValueNet`` (``training/rllib_module.py``), ``RLlibConfig`` and a tiny
multi-agent PPO run (``training/rllib_selfplay.py``) whose exported policy plays an arena game.

The Ray tests run in the Ray venv (``.venv-ray``: ``pip install -e ".[test,ray]"``) and skip in the
default one; the config checks, the missing-Ray message and the no-Ray import path run in both.
"""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from electrify_env import IllegalActionError, InvalidArgumentError
from electrify_env.envs._common import card_set_and_options
from electrify_env.training.config import ConfigError, RLlibConfig, load_config

REPO = Path(__file__).resolve().parents[1]
RLLIB_CONFIG = REPO / "configs" / "rllib_2p.yaml"


@pytest.fixture(scope="module")
def rllib():
    """``electrify_env.envs.rllib`` (skips where Ray RLlib is not installed)."""
    pytest.importorskip("ray.rllib")
    from electrify_env.envs import rllib as module
    return module


def _legal(obs: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


# ----------------------------------------------------------------------------------------------
# The adapter
# ----------------------------------------------------------------------------------------------
def test_adapter_gives_the_acting_agent_only_a_masked_observation(rllib):
    env = rllib.ElectrifyRLlibEnv({"n_players": 3})
    assert env.possible_agents == ["player_0", "player_1", "player_2"] and env.agents == []
    obs, infos = env.reset(seed=7)
    assert list(obs) == ["player_0"] and set(infos) == {"player_0"}
    assert isinstance(infos["player_0"]["game_seed"], int)
    rng = np.random.default_rng(0)
    for _ in range(60):   # the secret Plan step (R4) and the first turns of round 1
        (agent, o), = obs.items()
        assert agent == env.aec_env.agent_selection == env.agents[env.game.current_player]
        assert set(o) == {"observations", "action_mask"}
        assert o["action_mask"].dtype == np.int8 and o["observations"].dtype == np.float32
        assert env.observation_spaces[agent].contains(o)
        assert np.array_equal(o["action_mask"], env.game.legal_mask().astype(np.int8))
        obs, rewards, terminateds, truncateds, infos = env.step({agent: _legal(o, rng)})
        assert agent in rewards and terminateds == {"__all__": False} and truncateds == {"__all__": False}
    assert set(env.action_spaces) == set(env.observation_spaces) == set(env.possible_agents)


@pytest.mark.parametrize("n_players,kw", [(2, {"reward_mode": "shaped"}),
                                          (4, {"tech_packs": ("grid", "market"), "reward_mode": "win"})],
                         ids=["2p-shaped", "4p-tech-win"])
def test_adapter_plays_the_aec_game_and_pays_the_same_returns(rllib, n_players, kw):
    """The same seed and actions through the adapter and the bare AEC env: same observations,
    actions, history and final scores; each agent's RLlib episode return (a MultiAgentEpisode fed
    with the adapter's dicts, as the env runner does) equals what the AEC env paid it."""
    from ray.rllib.env.multi_agent_episode import MultiAgentEpisode

    from electrify_env.envs.electrify_v0 import raw_env

    env = rllib.ElectrifyRLlibEnv({"n_players": n_players, **kw})
    aec = raw_env(n_players=n_players, **kw)
    obs, infos = env.reset(seed=11)
    aec.reset(seed=11)
    episode = MultiAgentEpisode(observation_space=env.observation_spaces, action_space=env.action_spaces)
    episode.add_env_reset(observations=obs, infos=infos)
    paid = dict.fromkeys(aec.possible_agents, 0.0)
    moves = dict.fromkeys(aec.possible_agents, 0)
    rng = np.random.default_rng(n_players)
    while True:
        (agent, o), = obs.items()
        assert agent == aec.agent_selection
        want = aec.observe(agent)
        assert np.array_equal(o["observations"], want["observation"])
        assert np.array_equal(o["action_mask"], want["action_mask"])
        a = _legal(o, rng)
        obs, rewards, terminateds, truncateds, infos = env.step({agent: a})
        aec.step(a)
        moves[agent] += 1
        for ag in paid:
            paid[ag] += aec.rewards[ag]
        episode.add_env_step(observations=obs, actions={agent: a}, rewards=rewards, infos=infos,
                             terminateds=terminateds, truncateds=truncateds)
        if terminateds["__all__"]:
            break
        assert len(obs) == 1
    assert all(aec.terminations.values()) and env.agents == []
    assert set(obs) == set(aec.possible_agents) and all(not o["action_mask"].any() for o in obs.values())
    assert terminateds == {**dict.fromkeys(aec.possible_agents, True), "__all__": True}
    assert truncateds == {"__all__": False}
    assert env.game.history == aec.history and list(env.game.scores()) == list(aec.game.scores())
    assert episode.is_done
    assert any(v != 0 for v in paid.values())
    for ag in aec.possible_agents:
        assert episode.agent_episodes[ag].get_return() == pytest.approx(paid[ag], abs=1e-9)
        assert len(episode.agent_episodes[ag]) == moves[ag]
    with pytest.raises(InvalidArgumentError, match="call reset"):
        env.step({agent: 0})


def test_adapter_refuses_bad_actions_and_config(rllib):
    env = rllib.ElectrifyRLlibEnv(n_players=2)
    obs, _ = env.reset(seed=3)
    (agent, o), = obs.items()
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0])
    for bad in (illegal, -1, 10**6, "x"):
        with pytest.raises(IllegalActionError):
            env.step({agent: bad})
    assert env.game.history == []   # nothing was applied
    other = "player_1" if agent == "player_0" else "player_0"
    with pytest.raises(InvalidArgumentError, match="^action_dict: must hold exactly the acting agent"):
        env.step({other: _legal(o, np.random.default_rng(0))})
    with pytest.raises(InvalidArgumentError, match="^action_dict"):
        env.step({})
    with pytest.raises(InvalidArgumentError, match="^env_config: unknown key 'players'"):
        rllib.ElectrifyRLlibEnv({"players": 2})
    with pytest.raises(InvalidArgumentError, match="n_players"):
        rllib.ElectrifyRLlibEnv({"n_players": 5})


def test_adapter_reset_is_seeded(rllib):
    a, b = rllib.ElectrifyRLlibEnv(), rllib.ElectrifyRLlibEnv()
    assert a.reset(seed=5)[1] == b.reset(seed=5)[1]
    assert a.reset()[1] == b.reset()[1]          # the next game from the same generator
    assert a.reset(seed=6)[1] != b.reset(seed=5)[1]
    assert rllib.register_rllib_env() == rllib.RLLIB_ENV_NAME == "electrify_rllib_v0"


# ----------------------------------------------------------------------------------------------
# The RLlib module
# ----------------------------------------------------------------------------------------------
def test_rl_module_is_the_project_network_with_masked_logits(rllib):
    import torch
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from electrify_env.agents.net import MASKED_LOGIT, PolicyValueNet
    from electrify_env.training.rllib_module import ElectrifyRLModule

    env = rllib.ElectrifyRLlibEnv(n_players=2)
    spec = RLModuleSpec(module_class=ElectrifyRLModule, observation_space=env.observation_spaces["player_0"],
                        action_space=env.action_spaces["player_0"], model_config={"n_players": 2, "hidden": [16]})
    module = spec.build()
    assert isinstance(module.net, PolicyValueNet) and module.net.hidden == [16]
    rows, rng = [], np.random.default_rng(1)
    obs, _ = env.reset(seed=2)
    for _ in range(5):
        (agent, o), = obs.items()
        rows.append(o)
        obs = env.step({agent: _legal(o, rng)})[0]
    batch = {Columns.OBS: {k: torch.as_tensor(np.stack([r[k] for r in rows])) for k in ("observations", "action_mask")}}
    legal = batch[Columns.OBS]["action_mask"] != 0
    with torch.no_grad():
        logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
        train_out = module.forward_train(batch)
        values = module.compute_values(batch)
        want_logits, want_values = module.net(batch[Columns.OBS]["observations"], legal)
    assert logits.shape == (5, env.action_spaces["player_0"].n)
    assert torch.all(logits[~legal] == MASKED_LOGIT) and torch.all(logits[legal] > MASKED_LOGIT / 2)
    assert torch.equal(logits, want_logits) and torch.equal(train_out[Columns.ACTION_DIST_INPUTS], want_logits)
    assert values.shape == (5,) and torch.allclose(values, want_values)
    assert torch.allclose(module.compute_values(batch, embeddings=train_out[Columns.EMBEDDINGS]), want_values)
    probs = torch.softmax(logits, -1)
    assert torch.all(probs[~legal] == 0)


# ----------------------------------------------------------------------------------------------
# A tiny PPO run: trains, exports a project policy, which plays an arena game
# ----------------------------------------------------------------------------------------------
def test_rllib_ppo_trains_exports_a_policy_and_it_plays_the_arena(ray_local, tmp_path, capsys):
    pytest.importorskip("ray.rllib")
    from ray.rllib.core.rl_module.rl_module import RLModule

    from electrify_env.agents.arena import ArenaConfig, run_arena
    from electrify_env.cli import main
    from electrify_env.agents.policy_meta import load_policy_metadata
    from electrify_env.agents.net import load_policy
    from electrify_env.training.rllib_selfplay import ALGORITHM, MODULE_ID

    out = tmp_path / "run"
    sets = {"iterations": 2, "num_env_runners": 1, "num_envs_per_env_runner": 1, "train_batch_size": 300,
            "minibatch_size": 100, "num_epochs": 1, "hidden": "[32]", "learning_rate": 0.001,
            "output_dir": str(out), "progress_bar": "false", "seed": 3}
    argv = ["train", "--backend", "rllib", str(RLLIB_CONFIG)] + [f"--set={k}={v}" for k, v in sets.items()]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "iter 2/2:" in text and "steps/s" in text

    policy = out / "policy.pt"
    cards, _ = card_set_and_options(None, ())
    net, meta = load_policy(policy, card_set_hash=cards.hash, n_players=2)
    assert meta == load_policy_metadata(policy)
    assert meta["algorithm"] == ALGORITHM == "RLlib PPO" and meta["env_id"] == "electrify_v0"
    assert meta["n_players"] == 2 and meta["config"]["hidden"] == [32] and meta["train_seconds"] > 0
    curve = meta["learning_curve"]
    assert [r["iteration"] for r in curve] == [1, 2]
    assert meta["steps"] == curve[-1]["env_steps_total"] >= 600
    assert all(r["samples_trained"] > 0 and r["policy_loss"] is not None for r in curve)
    assert (out / "curve.json").is_file()

    # the exported weights are the trained module's (the checkpoint's learner), float16-rounded
    trained = RLModule.from_checkpoint(out / "checkpoint" / "learner_group" / "learner" / "rl_module" / MODULE_ID)
    saved = net.state_dict()
    for k, v in trained.net.state_dict().items():
        assert torch_equal_half(v, saved[k]), k

    res = run_arena(ArenaConfig(agents=[f"net:path={policy}", "random"], players=2, games=2, seed=1,
                                out=None, progress=False))
    assert len(res["records"]) == 2
    for rec in res["records"]:
        seat = rec["lineup"].index(f"net:path={policy}")
        assert rec["moves"][seat] > 0 and rec["decisions"] > 0


def test_measure_throughput(ray_local):
    pytest.importorskip("ray.rllib")
    from electrify_env.training.rllib_selfplay import measure_throughput

    small = dict(num_envs_per_env_runner=1, train_batch_size=200, minibatch_size=100, num_epochs=1, hidden=[16])
    m = measure_throughput(RLLIB_CONFIG, num_env_runners=0, iterations=1, **small)
    assert m["num_env_runners"] == 0 and m["sample_env_steps"] >= 200 and m["train_env_steps"] >= 200
    assert m["sample_env_steps_per_s"] > 0 and m["train_env_steps_per_s"] > 0
    assert ray_local.is_initialized()   # the fixture's Ray is used, not shut down
    with pytest.raises(ConfigError, match="^num_env_runners: "):
        measure_throughput(RLLIB_CONFIG, num_env_runners=-1)


def test_measure_env_steps_per_second_is_the_training_rate(monkeypatch):
    """``benchmarks/ray_scaling.py`` calls ``measure_env_steps_per_second(CONFIG,
    num_env_runners=N, iterations=K)`` and prints a number: the training throughput."""
    from electrify_env.training import rllib_selfplay

    calls = []

    def fake(config, num_env_runners, iterations, **overrides):
        calls.append((config, num_env_runners, iterations, overrides))
        return {"train_env_steps_per_s": 123.4, "sample_env_steps_per_s": 999.0}

    monkeypatch.setattr(rllib_selfplay, "measure_throughput", fake)
    rate = rllib_selfplay.measure_env_steps_per_second("configs/rllib_2p.yaml", num_env_runners=2, iterations=3)
    assert rate == 123.4 and calls == [("configs/rllib_2p.yaml", 2, 3, {})]


def torch_equal_half(a, b) -> bool:
    """Whether ``b`` is ``a`` rounded to float16 (how policy files store weights)."""
    import torch

    return torch.equal(a.detach().to(torch.float16).to(torch.float32), b)


# ----------------------------------------------------------------------------------------------
# Config and command line (no Ray needed)
# ----------------------------------------------------------------------------------------------
BAD_FIELDS = [
    ("n_players", 1), ("n_players", 5), ("reward_mode", "points"), ("iterations", 0),
    ("num_env_runners", -1), ("num_envs_per_env_runner", 0), ("train_batch_size", 0), ("num_epochs", 0),
    ("minibatch_size", 1), ("minibatch_size", 10**9), ("learning_rate", 0.0), ("gamma", 0.0), ("gamma", 1.5),
    ("gae_lambda", 0.0), ("clip_param", 0.0), ("grad_clip", 0.0), ("entropy_coeff", -0.1),
    ("vf_loss_coeff", float("nan")), ("points_scale", -1.0), ("win_bonus", float("inf")), ("hidden", []),
    ("hidden", [64, 0]), ("seed", -1), ("seed", 2**32), ("address", " "), ("torch_threads", -1),
    ("output_dir", ""), ("tech_packs", ["nosuchpack"]), ("tech_packs", ["grid", "grid"]),
    ("iterations", "many"), ("progress_bar", "yes"), ("address", 6379),
]


def test_rllib_config_bad_fields_cover_every_field():
    assert {name for name, _ in BAD_FIELDS} == {f.name for f in dataclasses.fields(RLlibConfig)}


@pytest.mark.parametrize("name,value", BAD_FIELDS, ids=[f"{n}={v!r}" for n, v in BAD_FIELDS])
def test_rllib_config_refuses_each_bad_field_by_name(name, value):
    with pytest.raises(ConfigError) as err:
        RLlibConfig(**{name: value})
    assert str(err.value).startswith(f"{name}: ") and "\n" not in str(err.value)


def test_rllib_config_file_and_overrides():
    cfg = load_config(RLLIB_CONFIG, RLlibConfig, {"iterations": 3, "address": "auto"})
    assert cfg.n_players == 2 and cfg.iterations == 3 and cfg.address == "auto"
    with pytest.raises(ConfigError, match=r"unknown field 'num_env_runner' \(did you mean 'num_env_runners'\?\)"):
        load_config(RLLIB_CONFIG, RLlibConfig, {"num_env_runner": 1})


def test_train_backend_rllib_reports_config_errors_by_field(capsys):
    pytest.importorskip("ray.rllib")       # without Ray the extras check answers first
    from electrify_env.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["train", "--backend", "rllib", str(RLLIB_CONFIG), "--set", "minibatch_size=1"])
    assert exit_.value.code == 2
    assert "error: minibatch_size: must be at least 2" in capsys.readouterr().err


def test_train_backend_rllib_refuses_a_file_as_output_dir(tmp_path, capsys):
    pytest.importorskip("ray.rllib")
    from electrify_env.cli import main

    (tmp_path / "f").write_text("")
    assert main(["train", "--backend", "rllib", "--set", f"output_dir={tmp_path / 'f'}"]) == 2
    assert "error: output_dir: cannot create the folder" in capsys.readouterr().err


def test_train_backend_rllib_without_ray_is_one_line(monkeypatch, capsys):
    """Where ``ray`` cannot be imported (the default venv; simulated here so the test runs in
    both venvs) the command prints one line naming the extra to install and exits 2."""
    from electrify_env.cli import main

    monkeypatch.setitem(sys.modules, "ray", None)   # import ray -> ImportError
    assert main(["train", "--backend", "rllib", str(RLLIB_CONFIG)]) == 2
    err = capsys.readouterr().err.strip()
    from electrify_env.extras import install_command

    assert err == f"electrify train: needs ray, which is not installed; install it with: {install_command(('ray',))}"


def test_default_import_path_does_not_import_ray():
    code = ("import sys, electrify_env, electrify_env.envs, electrify_env.envs.electrify_v0, agents, "
            "electrify_env.agents.arena, electrify_env.training.config, electrify_env.agents.net, electrify_env.training.selfplay, electrify_env.training.rllib_selfplay; "
            "from electrify_env.cli import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))")
    res = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "[]"
