"""electrify's own PPO trainer (training/selfplay.py, agents/net.py, TrainConfig): config
checks, GAE along interleaved streams, the rewards, tiny end-to-end runs with their files and
resume, policy files (round trip, refusals), the ``net:path=`` agent, the ``electrify train``
command line and seeded determinism."""
from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from electrify_env.agents import make_agent
from electrify_env import Game
from electrify_env.engine.observe import OBS_VERSION
from electrify_env.envs import SEAT_ENV_ID, SOLO_ENV_ID
from electrify_env.envs._common import card_set_and_options
from electrify_env.agents.policy_meta import PolicyMismatchError, meta_path
from electrify_env.training.config import ConfigError, TrainConfig, load_config, parse_overrides
from electrify_env.agents.net import PolicyValueNet, load_policy, save_policy, transfer_weights
from electrify_env.training.selfplay import Trainer, potential, stream_gae, train, win_reward

REPO = Path(__file__).resolve().parents[1]
TRAIN_CONFIGS = sorted(p for p in (REPO / "configs").glob("electrify-*.yaml") if not p.stem.endswith("-expert"))  # PPO configs
CARDS, _ = card_set_and_options(None, ())


def tiny(tmp: Path, **kw) -> TrainConfig:
    """The smallest 2-player run that goes through every phase (imitation, PPO, evaluations)."""
    base = dict(n_players=2, num_envs=16, rollout=512, minibatch=256, bc_steps=512, total_steps=1024,
                eval_games=4, eval_every=512, output_dir=str(tmp), tensorboard=False, progress_bar=False,
                hidden=[32], snapshot_every=512)
    base.update(kw)
    return TrainConfig(**base)


# ----------------------------------------------------------------------------------------------
# TrainConfig
# ----------------------------------------------------------------------------------------------
BAD_FIELDS = [
    ("n_players", 0), ("n_players", 5), ("reward", "points"), ("total_steps", 0), ("num_envs", 0),
    ("rollout", -1), ("epochs", 0), ("snapshot_every", 0), ("max_snapshots", 0), ("bc_epochs", 0),
    ("kick_steps", 0), ("eval_every", 0), ("eval_games", 0), ("bc_steps", -1), ("minibatch", 1),
    ("bc_minibatch", 1), ("learning_rate", 0.0), ("bc_learning_rate", -1e-3), ("gamma", 0.0),
    ("gamma", 1.5), ("gae_lambda", 0.0), ("clip_range", 0.0), ("max_grad_norm", 0.0),
    ("ent_coef", -0.1), ("vf_coef", -1.0), ("points_scale", float("nan")), ("win_bonus", -1.0),
    ("p_self", -0.1), ("p_greedy", float("inf")), ("p_random", -1.0), ("pfsp_power", -1.0),
    ("kick_coef", -0.5), ("hidden", []), ("hidden", [64, 0]), ("torch_threads", -1), ("seed", -1),
    ("seed", 2**32), ("eval_seed", -1), ("eval_seed", 2**62), ("device", "tpu"), ("device", "auto"),
    ("output_dir", "  "), ("tech_packs", ["nosuchpack"]), ("tech_packs", ["grid", "grid"]),
    ("total_steps", "many"), ("resume", "yes"), ("hidden", "256"), ("scenario", "first_light"),
    ("init_policy", "no/such/policy.pt"), ("ema_decay", 1.0), ("ema_decay", -0.1),
    ("ema_decay", float("nan")), ("p_agent", -0.1), ("p_agent", float("nan")),
    ("league_agents", ["nosuchagent"]), ("league_agents", ["mcts:iters=0"]),
    ("league_agents", ["greedy", "greedy"]), ("value_warmup", -1), ("policy_temperature", 0.0),
    ("policy_temperature", float("inf")), ("anchor_coef", -1.0), ("anchor_coef", float("nan")),
]
FIELDS = {f.name for f in dataclasses.fields(TrainConfig)}


@pytest.mark.parametrize("name,value", [b for b in BAD_FIELDS if b[0] in FIELDS],
                         ids=lambda x: str(x)[:20])
def test_train_config_refuses_each_bad_field_by_name(name, value):
    with pytest.raises(ConfigError) as err:
        TrainConfig(**{name: value})
    msg = str(err.value)
    assert msg.startswith(f"{name}:") and "\n" not in msg, msg


def test_train_config_refuses_cross_field_mistakes():
    with pytest.raises(ConfigError, match=r"^p_greedy: .*must not all be 0"):
        TrainConfig(p_self=0.0, p_greedy=0.0, p_snapshot=0.0, p_random=0.0)
    TrainConfig(n_players=1, p_self=0.0, p_greedy=0.0, p_snapshot=0.0, p_random=0.0)  # solo: no league
    with pytest.raises(ConfigError, match=r"^league_agents: must name at least one agent when p_agent > 0"):
        TrainConfig(p_agent=0.1)
    with pytest.raises(ConfigError, match=r"^league_agents: applies to n_players 2-4 only"):
        TrainConfig(n_players=1, league_agents=["greedy"])
    assert TrainConfig(p_self=0.0, p_greedy=0.0, p_snapshot=0.0, p_agent=1.0,
                       league_agents=["mcts:iters=8"]).league_agents == ["mcts:iters=8"]
    with pytest.raises(ConfigError, match=r"^scenario: "):
        TrainConfig(n_players=1, scenario="no_such_scenario")
    assert TrainConfig(n_players=1, scenario="first_light").scenario == "first_light"
    with pytest.raises(ConfigError, match=r"^scenario_sampling: must be one of uniform, hard"):
        TrainConfig(n_players=1, scenario_sampling="hardest")
    with pytest.raises(ConfigError, match=r"^scenario_sampling: applies to n_players: 1 with scenario: null"):
        TrainConfig(n_players=2, scenario_sampling="hard")
    with pytest.raises(ConfigError, match=r"^scenario_sampling: applies to n_players: 1 with scenario: null"):
        TrainConfig(n_players=1, scenario="first_light", scenario_sampling="hard")
    with pytest.raises(ConfigError, match=r"unknown field 'totl_steps' \(did you mean 'total_steps'\?\)"):
        load_config(None, TrainConfig, {"totl_steps": 5})
    with pytest.raises(ConfigError, match="FIELD=VALUE"):
        parse_overrides(["total_steps"])
    cfg = load_config(None, TrainConfig, parse_overrides(["total_steps=3.0e+5", "hidden=[64, 32]"]))
    assert cfg.total_steps == 300_000 and isinstance(cfg.total_steps, int) and cfg.hidden == [64, 32]


def test_shipped_train_configs_load():
    shipped = {"electrify-2p": 2, "electrify-2p-net": 2, "electrify-3p": 3, "electrify-4p": 4,
               "electrify-solo": 1}
    assert {p.stem for p in TRAIN_CONFIGS} >= set(shipped)   # one config per shipped policy
    for stem in shipped:
        cfg = load_config(REPO / "configs" / f"{stem}.yaml", TrainConfig)
        assert cfg.init_policy == f"policies/{stem}.pt"
    players = {stem: n for stem in (p.stem for p in TRAIN_CONFIGS)
               for prefix, n in shipped.items() if stem.startswith(prefix)}
    outs = set()
    for path in TRAIN_CONFIGS:
        cfg = load_config(path, TrainConfig)
        assert cfg.n_players == players[path.stem], path
        outs.add(cfg.output_dir)
        assert cfg.to_dict() == dataclasses.asdict(cfg)
    assert len(outs) == len(TRAIN_CONFIGS)   # runs of different configs do not overwrite each other
    tune = load_config(REPO / "configs" / "electrify-2p-net-sharpen.yaml", TrainConfig)
    assert tune.n_players == 2 and tune.init_policy == "policies/electrify-2p-net.pt" and tune.bc_steps == 0
    assert tune.policy_temperature < 1 and tune.anchor_coef > 0
    mcts = load_config(REPO / "configs" / "electrify-2p-net-mcts.yaml", TrainConfig)
    assert mcts.init_policy == tune.init_policy and mcts.policy_temperature == tune.policy_temperature
    assert mcts.p_agent > 0 and mcts.league_agents == ["mcts:iters=36:top_k=3:horizon=2"]
    loose = load_config(REPO / "configs" / "electrify-2p-net-loose.yaml", TrainConfig)
    assert loose.init_policy == tune.init_policy and loose.league_agents == mcts.league_agents
    assert 0 < loose.anchor_coef < mcts.anchor_coef and loose.learning_rate > mcts.learning_rate
    assert loose.p_random > 0
    quarter = load_config(REPO / "configs" / "electrify-2p-net.yaml", TrainConfig)
    assert quarter.anchor_coef == loose.anchor_coef and quarter.p_agent == 0.25 > loose.p_agent
    assert quarter.ema_decay > 0


# ----------------------------------------------------------------------------------------------
# GAE along streams, rewards
# ----------------------------------------------------------------------------------------------
def test_stream_gae_matches_a_hand_computed_example():
    """Two interleaved streams A (0) and B (1) and an idle stream C (2).  A's game ends at t=2 and
    A goes on in a new game (t=4, bootstrapped with boot[A] = 0.7); B's last transition ends its
    game (t=5), so boot[B] is ignored.  gamma 0.9, lambda 0.8:

        t  stream  r     V     done   delta                    advantage
        0  A       1.0   0.5   0      1 + .9*.4 - .5  = .86    .86 + .72*1.6    = 2.012
        1  B       0.0   0.2   0      0 + .9*.3 - .2  = .07    .07 + .72*.088   = .13336
        2  A       2.0   0.4   1      2 - .4          = 1.6    1.6
        3  B       1.0   0.3   0      1 + .9*.6 - .3  = 1.24   1.24 + .72*-1.6  = .088
        4  A       0.5   0.1   0      .5 + .9*.7 - .1 = 1.03   1.03
        5  B      -1.0   0.6   1      -1 - .6         = -1.6   -1.6
    """
    rew = np.array([1.0, 0.0, 2.0, 1.0, 0.5, -1.0])
    val = np.array([0.5, 0.2, 0.4, 0.3, 0.1, 0.6])
    done = np.array([0.0, 0.0, 1.0, 0.0, 0.0, 1.0])
    stream = np.array([0, 1, 0, 1, 0, 1], dtype=np.int64)
    boot = np.array([0.7, 9.0, -5.0])
    adv = np.full(6, np.nan)
    stream_gae(rew, val, done, stream, boot, 0.9, 0.8, adv)
    np.testing.assert_allclose(adv, [2.012, 0.13336, 1.6, 0.088, 1.03, -1.6], atol=1e-12)
    assert list(boot) == [0.7, 9.0, -5.0]   # the caller's array is not consumed
    # gamma = lambda = 1: advantage + value is the undiscounted return to the end of the stream
    stream_gae(rew, val, done, stream, boot, 1.0, 1.0, adv)
    np.testing.assert_allclose(adv + val, [3.0, 0.0, 2.0, 0.0, 1.2, -1.0], atol=1e-12)
    # lambda = 0: one-step TD errors
    stream_gae(rew, val, done, stream, boot, 0.9, 0.0, adv)
    np.testing.assert_allclose(adv, [0.86, 0.07, 1.6, 1.24, 1.03, -1.6], atol=1e-12)


def test_potential_by_reward_mode():
    pts = np.array([[10, 4, 7, 0], [3, 9, 0, 0]])
    rows = np.array([0, 0, 1])
    seats = np.array([0, 2, 0])
    targets = np.zeros(2, dtype=np.int64)
    shaped = potential(TrainConfig(n_players=3, reward="shaped", points_scale=0.1), pts, rows, seats, targets)
    np.testing.assert_allclose(shaped, [1.0, 0.7, 0.3])
    margin = potential(TrainConfig(n_players=3, reward="margin", points_scale=0.1), pts, rows, seats, targets)
    np.testing.assert_allclose(margin, [0.3, -0.3, -0.6])   # own - best other (seats 0-2 only)
    assert not potential(TrainConfig(n_players=3, reward="win"), pts, rows, seats, targets).any()
    solo_pts = np.array([[12, 0, 0, 0], [30, 0, 0, 0]])
    solo_t = np.array([24, 0])
    z = np.zeros(2, dtype=np.int64)
    np.testing.assert_allclose(potential(TrainConfig(n_players=1), solo_pts, np.arange(2), z, solo_t),
                               [0.5, 30.0])   # own / target (a target of 0 counts as 1)
    assert not potential(TrainConfig(n_players=1, reward="win"), solo_pts, np.arange(2), z, solo_t).any()


def test_win_reward_shares_wins_and_ties():
    assert win_reward(2, np.array([1, 0, 0, 0]), 0) == 1.0
    assert win_reward(2, np.array([1, 0, 0, 0]), 1) == -1.0
    assert win_reward(3, np.array([1, 0, 1, 0]), 2) == 0.5          # a shared win: 1/k each
    assert win_reward(3, np.array([1, 0, 1, 0]), 1) == -1.0
    assert win_reward(4, np.array([0, 1, 1, 1]), 3) == pytest.approx(1 / 3)
    assert win_reward(4, np.array([0, 1, 1, 1]), 0) == -1.0
    assert win_reward(2, np.array([1, 1, 0, 0]), 0) == 0.0          # everybody ties: 0
    assert win_reward(4, np.array([1, 1, 1, 1]), 2) == 0.0
    assert win_reward(3, np.array([1, 1, 0, 1]), 0) == 0.5          # seats beyond n_players ignored
    assert win_reward(1, np.array([1, 0, 0, 0]), 0) == 1.0          # solo: target reached
    assert win_reward(1, np.array([0, 0, 0, 0]), 0) == 0.0


# ----------------------------------------------------------------------------------------------
# End-to-end runs
# ----------------------------------------------------------------------------------------------
RUN_FILES = ("policy.pt", "policy.meta.json", "checkpoint.pt", "curve.json", "curve.png")


def check_run(out: Path, summary: dict, cfg: TrainConfig) -> dict:
    """The files of a finished run agree with its summary; returns the policy metadata."""
    for name in RUN_FILES:
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not (out / "tb").exists()   # tensorboard: false
    curve = json.loads((out / "curve.json").read_text())
    assert curve["curve"] == summary["curve"] and curve["baseline"] == summary["baseline"]
    key = "win_rate" if cfg.n_players > 1 else "success_rate"
    assert all(0.0 <= p[key] <= 1.0 and p["games"] == cfg.eval_games for p in summary["curve"])
    decisions = [p["decisions"] for p in summary["curve"]]
    assert decisions == sorted(decisions) and summary["decisions"] == decisions[-1]
    assert summary["curve"][-1]["rl_steps"] >= cfg.total_steps
    assert Path(summary["policy"]) == out / "policy.pt"
    meta = json.loads((out / "policy.meta.json").read_text())
    assert meta["obs_version"] == OBS_VERSION and meta["card_set_hash"] == CARDS.hash
    assert meta["n_players"] == cfg.n_players
    assert meta["env_id"] == (SOLO_ENV_ID if cfg.n_players == 1 else SEAT_ENV_ID)
    assert meta["config"]["seed"] == cfg.seed and meta["config"]["hidden"] == cfg.hidden
    net, _ = load_policy(out / "policy.pt", card_set_hash=CARDS.hash, n_players=cfg.n_players)
    assert net.n_players == cfg.n_players and net.hidden == cfg.hidden
    return meta


def test_tiny_two_player_run_writes_its_files_and_resumes(tmp_path):
    out = tmp_path / "run"
    cfg = tiny(out)
    lines: list[str] = []
    first = train(cfg, log=lines.append)
    check_run(out, first, cfg)
    phases = [p["phase"] for p in first["curve"]]
    assert phases[0] == "imitation" and phases[-1] == "rl"
    assert first["curve"][0]["imitation"] >= cfg.bc_steps and first["env_steps"] > first["decisions"]
    assert any(line.startswith("[baseline]") for line in lines)
    blob = torch.load(out / "checkpoint.pt", map_location="cpu", weights_only=False)
    assert blob["steps"] == first["curve"][-1]["rl_steps"] and blob["bc_done"] >= cfg.bc_steps
    assert len(blob["league"]["snapshots"]) >= 1

    # resume: the counters, curve and baseline go on; no second imitation phase, no new baseline
    more = dataclasses.replace(cfg, total_steps=2048, resume=True)
    lines.clear()
    second = train(more, log=lines.append)
    check_run(out, second, more)
    n = len(first["curve"])
    assert second["curve"][:n] == first["curve"] and len(second["curve"]) > n
    assert all(p["phase"] == "rl" for p in second["curve"][n:])
    assert second["curve"][n]["rl_steps"] > first["curve"][-1]["rl_steps"]
    assert second["curve"][-1]["imitation"] == first["curve"][-1]["imitation"]
    assert second["baseline"] == first["baseline"]
    assert any(line.startswith("resumed from") for line in lines)
    assert not any(line.startswith("[baseline]") for line in lines)

    # a checkpoint of another network is refused by name, and a missing one too
    with pytest.raises(ConfigError, match="^resume: .*hidden"):
        train(dataclasses.replace(more, hidden=[16]), log=lines.append)
    with pytest.raises(ConfigError, match="^resume: no checkpoint"):
        train(dataclasses.replace(more, output_dir=str(tmp_path / "empty")), log=lines.append)


def test_weight_average_is_evaluated_saved_and_resumed(tmp_path):
    """ema_decay: the averaged network (start: the network RL starts from; then avg = d * avg +
    (1 - d) * learner after each update) is the one evaluated and saved; the learner is evaluated
    beside it; a resume goes on from the checkpointed average."""
    out = tmp_path / "ema"
    d = 0.5
    cfg = tiny(out, bc_steps=0, total_steps=1024, rollout=512, eval_every=512, ema_decay=d,
               keep_evaluated=True)
    tr = Trainer(cfg, log=lambda *_: None)
    start = {k: v.clone() for k, v in tr.net.state_dict().items()}
    summary = train(cfg, log=lambda *_: None)
    check_run(out, summary, cfg)
    # keep_evaluated: one saved network per evaluation, named by its decisions, each loadable
    kept = sorted((out / "evaluated").glob("policy-*.pt"), key=lambda f: int(f.stem.split("-")[1]))
    assert [int(f.stem.split("-")[1]) for f in kept] == [p["decisions"] for p in summary["curve"]]
    assert all(load_policy(f, card_set_hash=CARDS.hash, n_players=2)[0].hidden == cfg.hidden for f in kept)
    assert all("online_win_rate" in p and 0 <= p["online_win_rate"] <= 1 for p in summary["curve"])
    blob = torch.load(out / "checkpoint.pt", map_location="cpu", weights_only=False)
    avg, learner = blob["avg"], blob["net"]
    # the same seed gives the same network to start from; the average lies strictly between
    # that start and the learner after 2+ updates (it is neither)
    key = "pi.weight"
    assert torch.equal(Trainer(cfg, log=lambda *_: None).net.state_dict()[key], start[key])
    assert not torch.equal(avg[key], learner[key]) and not torch.equal(avg[key], start[key])
    # the saved policy is the average, in float16 (as every saved policy)
    net, _ = load_policy(out / "policy.pt", card_set_hash=CARDS.hash, n_players=2)
    assert torch.allclose(net.state_dict()[key], avg[key], atol=2e-3)
    # resume: the average is restored and moves on from there
    more = dataclasses.replace(cfg, total_steps=1536, resume=True)
    tr2 = Trainer(more, log=lambda *_: None)
    tr2.load_checkpoint()
    assert torch.equal(tr2.avg.state_dict()[key], avg[key])
    before = tr2.avg.state_dict()[key].clone()
    tr2.average()
    want = d * before + (1 - d) * tr2.acting.state_dict()[key]
    assert torch.allclose(tr2.avg.state_dict()[key], want)
    # off (the default): no average, the learner is what is saved
    assert Trainer(tiny(tmp_path / "off"), log=lambda *_: None).avg is None


def test_tiny_solo_run(tmp_path):
    out = tmp_path / "solo"
    cfg = tiny(out, n_players=1, scenario="first_light", num_envs=8, bc_steps=256, total_steps=512,
               eval_every=256)
    summary = train(cfg, log=lambda *_: None)
    meta = check_run(out, summary, cfg)
    assert meta["scenario"] == "first_light"
    last = summary["curve"][-1]
    assert set(last["by_scenario"]) == {"first_light"} and "success_rate" in summary["baseline"]


def test_hard_scenario_sampling_plays_the_failed_scenario_most(tmp_path):
    """``scenario_sampling: hard``: the learner's success per scenario is recorded as its
    games end, the table of new games is rebuilt from it by the PFSP rule, and every running
    game's scenario is known (blackout: the one scenario of target 40)."""
    from electrify_env.engine import layout as L
    cfg = tiny(tmp_path, n_players=1, num_envs=32, rollout=12288, bc_steps=0, scenario_sampling="hard")
    tr = Trainer(cfg, log=lambda *_: None)
    tr.start_games()
    ids = [sc.id for sc in tr.scenarios]
    assert len(ids) == 8 and list(tr.scen_rows) == list(range(8))   # alike until a game ends
    np.testing.assert_allclose(tr.scenario_weights(), 1 / 8)
    for sid in ids:
        tr.league.win_rate[f"solo_{sid}"] = 0.0 if sid == "blackout" else 1.0
    w = tr.scenario_weights()
    np.testing.assert_allclose(w[ids.index("blackout")], 1.05 ** 2 / (1.05 ** 2 + 7 * 0.05 ** 2))
    tr.collect()   # rebuilds the table first, then plays: the games that end start new ones
    counts = np.bincount(tr.scen_rows, minlength=8)   # 1 + floor(120 w), 2 more by remainders
    assert counts.sum() == 16 * 8 and counts.min() == 1 and counts[ids.index("blackout")] == 119
    assert tr.games.SCS.shape[0] == 128
    target = tr.games.States[:, L.S_SOLO_TARGET]
    blackout = tr.game_scen == ids.index("blackout")
    assert np.array_equal(blackout, target == 40)          # the row's scenario is the one it plays
    assert blackout.sum() >= 16                            # was 1 in 8 of the first games
    # the finished games moved the rates (the learner rarely reaches blackout's 40)
    assert 0 < tr.league.win_rate["solo_first_light"] < 1.0
    # uniform sampling keeps the one-row-per-scenario table and records the rates all the same
    uni = Trainer(dataclasses.replace(cfg, scenario_sampling="uniform"), log=lambda *_: None)
    uni.start_games()
    uni.collect()
    assert uni.games.SCS.shape[0] == 8 and list(uni.scen_rows) == list(range(8))
    assert any(k.startswith("solo_") for k in uni.league.win_rate)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_tiny_run_on_cuda_keeps_training_after_saving(tmp_path):
    """Saving the policy between updates must not move the training network off the device."""
    out = tmp_path / "cuda"
    cfg = tiny(out, device="cuda", eval_every=256, total_steps=1536)
    summary = train(cfg, log=lambda *_: None)
    check_run(out, summary, cfg)


# ----------------------------------------------------------------------------------------------
# Policy files and the net agent
# ----------------------------------------------------------------------------------------------
def positions(n_players: int, count: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of ``count`` decisions of random games."""
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    game = Game(n_players=n_players, seed=seed)
    while len(obs) < count:
        if game.is_terminal:
            game = Game(n_players=n_players, seed=int(rng.integers(1 << 30)))
        obs.append(game.observe(game.current_player))
        masks.append(game.legal_mask().copy())
        game.step(int(rng.choice(game.legal_actions())))
    return np.array(obs), np.array(masks)


def saved_policy(path: Path, n_players: int = 2, seed: int = 0) -> PolicyValueNet:
    """A small random network saved at ``path`` for the base card set."""
    torch.manual_seed(seed)
    net = PolicyValueNet(n_players, [24])
    with torch.no_grad():
        net.pi.weight.normal_(0.0, 0.5)   # a policy that is not near-uniform
    save_policy(net, path, CARDS.hash, SOLO_ENV_ID if n_players == 1 else SEAT_ENV_ID, steps=0)
    return net


def test_save_and_load_policy_round_trip(tmp_path):
    path = tmp_path / "p.pt"
    net = saved_policy(path)
    assert meta_path(path).is_file()
    back, meta = load_policy(path, card_set_hash=CARDS.hash, n_players=2)
    assert not back.training and meta["n_players"] == 2 and meta["arch"] == net.arch()
    for k, v in net.state_dict().items():   # stored as float16, loaded as float32
        w = back.state_dict()[k]
        assert w.dtype == torch.float32 and torch.equal(v.to(torch.float16).to(torch.float32), w), k
    obs, masks = positions(2, 300)
    a = net.act(obs, masks)
    b = back.act(obs, masks)
    assert np.mean(a == b) >= 0.98           # float16 weights change at most a near-tie here and there
    assert np.array_equal(b, back.act(obs, masks))
    assert all(masks[i, a[i]] for i in range(len(a)))
    assert len(set(a.tolist())) > 5
    with pytest.raises(ValueError, match="must end in .pt"):
        save_policy(net, tmp_path / "p.pth", CARDS.hash, SEAT_ENV_ID)


def edit_meta(path: Path, **changes) -> None:
    meta = json.loads(meta_path(path).read_text())
    meta.update(changes)
    meta_path(path).write_text(json.dumps(meta))


def test_load_policy_refuses_another_layout_card_set_or_player_count(tmp_path):
    path = tmp_path / "p.pt"
    saved_policy(path)
    edit_meta(path, obs_version=OBS_VERSION + 1)
    with pytest.raises(PolicyMismatchError, match="obs_version"):
        load_policy(path)
    saved_policy(path)
    with pytest.raises(PolicyMismatchError, match="card_set_hash"):
        load_policy(path, card_set_hash="0" * len(CARDS.hash))
    edit_meta(path, card_set_hash="f" * len(CARDS.hash))
    with pytest.raises(PolicyMismatchError, match="card_set_hash"):
        load_policy(path, card_set_hash=CARDS.hash)
    saved_policy(path)
    with pytest.raises(PolicyMismatchError, match="solo"):
        load_policy(path, n_players=1)
    solo = tmp_path / "solo.pt"
    saved_policy(solo, n_players=1)
    with pytest.raises(PolicyMismatchError, match="solo"):
        load_policy(solo, n_players=3)


def test_load_policy_refuses_a_seat_policy_of_another_player_count(tmp_path):
    """A 2-player policy reads the 2-player observation prefix: it is no 3- or 4-player policy
    (the ``net`` agent refuses it too, with an AgentError)."""
    path = tmp_path / "p.pt"
    saved_policy(path)
    load_policy(path, n_players=2)
    for n in (3, 4):
        with pytest.raises(PolicyMismatchError, match=f"2-player.*{n}-player"):
            load_policy(path, n_players=n)


def test_load_policy_names_a_corrupt_or_missing_file(tmp_path):
    path = tmp_path / "p.pt"
    saved_policy(path)
    good = path.read_bytes()
    for bad in (b"not a torch file at all", good[: len(good) // 2]):
        path.write_bytes(bad)
        with pytest.raises(ValueError, match=f"policy file {path} does not load") as err:
            load_policy(path)
        assert not isinstance(err.value, PolicyMismatchError) and "\n" not in str(err.value)
    with pytest.raises(ValueError, match="does not exist"):
        load_policy(tmp_path / "nope.pt")
    path.write_bytes(good)
    meta_path(path).unlink()
    with pytest.raises(PolicyMismatchError, match="no metadata file"):
        load_policy(path)


def test_net_agent_plays_a_complete_game_legally(tmp_path):
    path = tmp_path / "tiny.pt"
    net = saved_policy(path, seed=3)
    agent = make_agent(f"net:path={path}")
    other = make_agent("random")
    agent.reset(1)
    other.reset(2)
    game = Game(n_players=2, seed=5)
    mine = 0
    while not game.is_terminal and len(game.history) < 20_000:
        me = game.current_player == 0
        a = (agent if me else other).act_in(game)
        if me:
            mine += 1
            want = net.act(game.observe(0)[None, :], game.legal_mask()[None, :])[0]
            assert a == want   # deterministic: the network's most likely legal action
        game.step(a)           # raises on an illegal action
    assert game.is_terminal and mine > 50
    solo = Game(scenario="first_light", seed=1)
    with pytest.raises(ValueError):
        make_agent(f"net:path={path}").act_in(solo)


# ----------------------------------------------------------------------------------------------
# Command line and determinism
# ----------------------------------------------------------------------------------------------
def test_electrify_train_rejects_an_unknown_field_in_one_line(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "electrify_env.cli", "train", "--set", "bad_field=1",
                           "--set", f"output_dir={tmp_path / 'x'}"],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert proc.returncode == 2, proc.stderr
    errors = [line for line in proc.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "bad_field" in errors[0] and "Traceback" not in proc.stderr
    assert proc.stdout == "" and not (tmp_path / "x").exists()


def one_update(cfg: TrainConfig) -> tuple[Trainer, dict]:
    """A trainer of ``cfg`` after one imitation update and one league PPO update."""
    tr = Trainer(cfg, log=lambda *_: None)
    tr.start_games()
    for i in range(cfg.num_envs):
        tr.assign(i, teacher_all=True)
    tr.collect(teacher=True)
    tr.update(imitation=True)
    tr.bc_done += tr.buf.size
    tr.start_games()
    tr.league.add(tr.net, 0, cfg.max_snapshots)
    tr.set_lr()
    tr.collect()
    stats = tr.update()
    tr.steps += tr.buf.size
    return tr, stats


def test_the_same_seed_gives_the_same_first_updates(tmp_path):
    cfg = tiny(tmp_path, p_self=0.3, p_greedy=0.3, p_snapshot=0.3, p_random=0.1)
    a, sa = one_update(cfg)
    b, sb = one_update(cfg)
    assert sa == sb and a.buf.size == b.buf.size
    P = a.buf.size
    assert np.array_equal(a.buf.act[:P], b.buf.act[:P]) and np.array_equal(a.buf.rew[:P], b.buf.rew[:P])
    assert np.array_equal(a.ctrl, b.ctrl) and len(np.unique(a.ctrl[:, :2])) > 1
    for (k, va), vb in zip(a.net.state_dict().items(), b.net.state_dict().values()):
        assert torch.equal(va, vb), k
    c, _ = one_update(dataclasses.replace(cfg, seed=1))
    assert not all(torch.equal(x, y) for x, y in zip(a.net.parameters(), c.net.parameters()))


def test_ppo_updates_use_learning_rate_after_imitation(tmp_path):
    """Without annealing, the PPO updates after the imitation phase step with learning_rate, not
    bc_learning_rate."""
    cfg = tiny(tmp_path, anneal_lr=False, learning_rate=2e-4)
    tr, _ = one_update(cfg)
    assert [g["lr"] for g in tr.opt.param_groups] == [cfg.learning_rate]
    cfg = tiny(tmp_path, anneal_lr=True, learning_rate=2e-4)
    tr, _ = one_update(cfg)
    assert [g["lr"] for g in tr.opt.param_groups] == [cfg.learning_rate]   # set_lr at 0 RL steps


def test_value_warmup_trains_the_value_head_alone_then_everything(tmp_path):
    """value_warmup: while the learner's RL decisions are below it, an update moves the value
    head and nothing else (the policy plays exactly as before); from it on, the whole network."""
    cfg = tiny(tmp_path, bc_steps=0, value_warmup=600)
    tr = Trainer(cfg, log=lambda *_: None)
    tr.start_games()
    tr.set_lr()
    before = {k: v.clone() for k, v in tr.net.state_dict().items()}
    tr.collect()
    stats = tr.update()
    after = {k: v.clone() for k, v in tr.net.state_dict().items()}
    moved = {k for k in before if not torch.equal(before[k], after[k])}
    assert moved == {"v.weight", "v.bias"} and stats["value_loss"] > 0
    tr.steps = 600
    tr.collect()
    tr.update()
    moved = {k for k, v in tr.net.state_dict().items() if not torch.equal(after[k], v)}
    assert {"trunk.0.weight", "pi.weight", "v.weight"} <= moved


def test_policy_temperature_is_the_policy_rl_samples_and_trains(tmp_path):
    """policy_temperature: the learner's actions are sampled from softmax(logits / T) and the
    stored log-probabilities are that policy's, so at T = 0.05 the learner plays its most likely
    action far more often than at T = 1; the same games otherwise (same seed)."""
    def rollout(t):
        tr = Trainer(tiny(tmp_path / str(t), bc_steps=0, policy_temperature=t), log=lambda *_: None)
        with torch.no_grad():
            tr.net.pi.weight.normal_(0.0, 0.3)      # a policy that is neither uniform nor sure
        tr.start_games()
        tr.collect()
        P = tr.buf.size
        o, m = torch.from_numpy(tr.buf.obs[:P]), torch.from_numpy(tr.buf.mask[:P])
        with torch.no_grad():
            logits = tr.net(o, m)[0]
        act = torch.from_numpy(tr.buf.act[:P])
        lp = torch.log_softmax(logits / t, -1).gather(1, act[:, None]).squeeze(1).numpy()
        assert np.allclose(lp, tr.buf.logp[:P], atol=1e-5)
        return float((logits.argmax(-1) == act).float().mean())
    hot, cold = rollout(1.0), rollout(0.05)
    assert cold > hot + 0.2, (hot, cold)


def test_anchor_coef_holds_the_learner_near_the_network_rl_started_from(tmp_path):
    """anchor_coef: a KL(anchor || learner) penalty toward the network as RL starts; the same
    updates with a large weight end closer to it than without, and the anchor is checkpointed
    and restored on resume."""
    obs, masks = positions(2, 200, seed=5)
    o, m = torch.as_tensor(obs, dtype=torch.float32), torch.as_tensor(masks != 0)

    def run(coef, out):
        cfg = tiny(out, bc_steps=0, total_steps=2048, learning_rate=3e-3, anchor_coef=coef,
                   policy_temperature=0.5, ent_coef=0.0)
        tr = Trainer(cfg, log=lambda *_: None)
        with torch.no_grad():
            start = torch.log_softmax(tr.net(o, m)[0], -1)
        train(cfg, log=lambda *_: None)
        tr2 = Trainer(cfg.replace(resume=True) if hasattr(cfg, "replace") else
                      TrainConfig(**{**cfg.to_dict(), "resume": True}), log=lambda *_: None)
        tr2.load_checkpoint()
        with torch.no_grad():
            end = torch.log_softmax(tr2.net(o, m)[0], -1)
        kl = float((start.exp() * (start - end)).masked_fill(~m, 0.0).sum(-1).mean())
        return kl, tr2
    free, tr_free = run(0.0, tmp_path / "free")
    held, tr_held = run(20.0, tmp_path / "held")
    assert held < free * 0.7, (free, held)
    assert tr_free.anchor is None and tr_held.anchor is not None
    fresh = Trainer(tiny(tmp_path / "x", bc_steps=0, anchor_coef=20.0), log=lambda *_: None)
    assert all(torch.equal(a, b) for a, b in zip(tr_held.anchor.state_dict().values(),
                                                 fresh.net.state_dict().values()))   # the same seed's start


def test_kickstarting_labels_the_learners_own_states_with_greedys_choice(tmp_path):
    cfg = tiny(tmp_path, kick_coef=0.5, kick_steps=1000)
    tr = Trainer(cfg, log=lambda *_: None)
    tr.start_games()
    tr.steps = 250
    tr.collect(want_labels=True)
    P = tr.buf.size
    teach = tr.buf.teacher[:P]
    assert (teach >= 0).all() and all(tr.buf.mask[i, teach[i]] for i in range(P))
    assert (teach != tr.buf.act[:P]).any()   # the learner samples its own actions
    stats = tr.update()
    assert stats["kick_coef"] == pytest.approx(0.5 * 0.75) and stats["imitation_loss"] > 0
    carried = tr.buf.size             # the running streams' last transitions, labels kept
    assert 0 < carried < P
    added = tr.collect()
    assert tr.buf.size == carried + added
    assert (tr.buf.teacher[carried:tr.buf.size] == -1).all()   # no labels asked: none recorded


def test_every_finished_learner_game_delivers_its_outcome(tmp_path):
    """A stream's last transition is carried over rollout boundaries, so when a game ends, every
    learner seat still has its last transition open and the final reward and win bonus land on
    it (before the fix, about 11% of the learner's game endings lost their outcome)."""
    from electrify_env.training.selfplay import CTRL_LEARNER

    tr = Trainer(tiny(tmp_path, rollout=8, num_envs=8, minibatch=8), log=lambda *_: None)   # a boundary every step
    tr.start_games()
    seen = {"ended": 0, "lost": 0, "delivered": 0}
    finish = tr.finish_game

    def watch(i, teacher):
        n = tr.n
        for q in range(n):
            if tr.ctrl[i, q] == CTRL_LEARNER:
                seen["ended"] += 1
                li = tr.last_idx[i * n + q]
                if li < 0:
                    seen["lost"] += 1
                else:
                    before = tr.buf.done[li]
                    finish_ok = before == 0
                    seen["delivered"] += int(finish_ok)
        finish(i, teacher)

    tr.finish_game = watch
    while seen["ended"] < 8:
        tr.collect()
        tr.update()
    assert seen["lost"] == 0 and seen["delivered"] == seen["ended"]


def test_ship_keeps_the_metadata_and_the_algorithm(tmp_path):
    """``python -m electrify_env.training.ship`` copies a policy with its metadata; a policy trained by RLlib
    stays labelled as such."""
    from electrify_env.game import Game
    from electrify_env.agents.net import PolicyValueNet, load_policy, save_policy
    from electrify_env.training.ship import ship

    card_hash = Game(n_players=2, seed=0).cards.hash
    src = save_policy(PolicyValueNet(2, (8,)), tmp_path / "src.pt", card_hash, "electrify_v0",
                      algorithm="RLlib PPO", steps=123)
    out = ship(src, tmp_path / "shipped" / "p.pt")
    net, meta = load_policy(out, card_set_hash=card_hash, n_players=2)
    assert meta["algorithm"] == "RLlib PPO" and meta["steps"] == 123
    assert meta["shipped_from"] == str(src) and net.hidden == [8]


def test_ship_writes_paths_inside_the_repository_relative_to_it(tmp_path):
    """Shipped metadata names files as the docs' commands do: an absolute path inside the
    repository, or inside a folder it links to (``runs`` -> elsewhere), becomes relative; other
    paths and values stay as they are, in nested dicts and lists too."""
    from electrify_env.training.ship import portable_paths

    root, elsewhere = tmp_path / "repo", tmp_path / "scratch" / "runs"
    (root / "policies").mkdir(parents=True)
    elsewhere.mkdir(parents=True)
    (root / "runs").symlink_to(elsewhere, target_is_directory=True)
    meta = {"config": {"out": str(elsewhere / "dF"), "teacher": str(root / "policies" / "t.pt"),
                       "lr": 1e-4, "other": "/usr/lib/x"},
            "averaged_from": [str(root / "runs" / "a.pt"), "relative/b.pt"], "steps": 3}
    assert portable_paths(meta, root) == {
        "config": {"out": "runs/dF", "teacher": "policies/t.pt", "lr": 1e-4, "other": "/usr/lib/x"},
        "averaged_from": ["runs/a.pt", "relative/b.pt"], "steps": 3}


def test_bc_data_imitates_stored_teacher_games(tmp_path):
    """Expert iteration's warm start: a run with ``bc_data`` imitates stored search-agent games
    (``electrify teacher-data``) before anything else, and learns to agree with them."""
    from electrify_env.training.teacher import TeacherConfig, run_teacher

    data = tmp_path / "greedy.jsonl"
    run_teacher(TeacherConfig(agent="greedy", players=2, games=2, seed=3, out=str(data), progress=False))
    logs: list[str] = []
    cfg = tiny(tmp_path / "run", bc_data=str(data), bc_data_epochs=30, bc_steps=0, total_steps=512,
               learning_rate=1e-3, bc_learning_rate=3e-3, hidden=[64])
    train(cfg, log=logs.append)
    line = next(x for x in logs if x.startswith("[imitation of"))
    agreement = float(line.rsplit("agreement ", 1)[1])
    assert agreement > 0.8, line          # an untrained network agrees on about 1 in 10
    curve = json.loads((tmp_path / "run" / "curve.json").read_text())["curve"]
    assert curve[0]["phase"] == "imitation-data"
    with pytest.raises(ConfigError, match="bc_data"):
        train(tiny(tmp_path / "run3", n_players=3, bc_data=str(data)), log=logs.append)
    with pytest.raises(ConfigError, match="bc_data"):
        tiny(tmp_path / "x", bc_data=str(tmp_path / "missing.jsonl"))
    with pytest.raises(ConfigError, match="bc_data_epochs"):
        tiny(tmp_path / "x", bc_data_epochs=0)


# ----------------------------------------------------------------------------------------------
# Warm start from a saved policy (init_policy)
# ----------------------------------------------------------------------------------------------
def test_transfer_weights_lets_a_wider_network_play_exactly_as_the_narrow_one():
    torch.manual_seed(0)
    small = PolicyValueNet(2, [24])
    with torch.no_grad():
        small.pi.weight.normal_(0.0, 0.5)
    big = transfer_weights(small, PolicyValueNet(4, [24]))
    obs, masks = positions(4, 200)
    o, m = torch.as_tensor(obs, dtype=torch.float32), torch.as_tensor(masks != 0)
    with torch.no_grad():
        ls, vs = small(o, m)
        lb, vb = big(o, m)
    assert torch.allclose(ls, lb, atol=1e-5) and torch.allclose(vs, vb, atol=1e-5)
    assert np.array_equal(small.act(obs, masks), big.act(obs, masks))
    first = big.trunk[0].weight
    assert torch.count_nonzero(first[:, small.n_inputs:]) == 0          # the unseen seats start at zero
    back = transfer_weights(big, PolicyValueNet(2, [24]))                 # narrower: extra columns dropped
    assert all(torch.equal(v, small.state_dict()[k]) for k, v in back.state_dict().items())
    with pytest.raises(ValueError, match="hidden sizes"):
        transfer_weights(small, PolicyValueNet(4, [16]))


def test_init_policy_starts_a_run_from_a_saved_policy_of_another_player_count(tmp_path):
    src_path = tmp_path / "src.pt"
    src = saved_policy(src_path, n_players=2)
    cfg = tiny(tmp_path / "run4", n_players=4, hidden=[24], bc_steps=0, total_steps=512, num_envs=8,
               init_policy=str(src_path))
    tr = Trainer(cfg, log=lambda *_: None)
    tr.init_from(cfg.init_policy)
    obs, masks = positions(4, 100, seed=3)
    src16 = PolicyValueNet(2, [24])          # the saved file holds float16 weights
    src16.load_state_dict({k: v.to(torch.float16).to(torch.float32) for k, v in src.state_dict().items()})
    assert np.array_equal(tr.net.act(obs, masks), src16.act(obs, masks))

    lines: list[str] = []
    summary = train(cfg, log=lines.append)
    assert any(line.startswith(f"network initialised from {src_path}") for line in lines)
    assert summary["curve"][0]["phase"] == "rl" and summary["curve"][0]["imitation"] == 0
    meta = load_policy(summary["policy"], n_players=4)[1]
    assert meta["n_players"] == 4 and meta["init_from"] == {"path": str(src_path), "n_players": 2, "steps": 0}

    # another network, another card set: refused by the field's name, before anything is written
    with pytest.raises(ConfigError, match=r"^init_policy: .*hidden sizes"):
        train(dataclasses.replace(cfg, hidden=[16], output_dir=str(tmp_path / "x")), log=lines.append)
    edit_meta(src_path, card_set_hash="0" * 64)
    with pytest.raises(ConfigError, match=r"^init_policy: .*card_set_hash"):
        train(dataclasses.replace(cfg, output_dir=str(tmp_path / "y")), log=lines.append)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


def test_init_policy_finds_a_shipped_policy_from_any_folder(tmp_path, monkeypatch):
    from electrify_env.paths import DATA_ROOT
    from electrify_env.training.config import resolve_policy_path

    monkeypatch.chdir(tmp_path)
    cfg = TrainConfig(n_players=4, init_policy="policies/electrify-2p.pt")
    assert resolve_policy_path(cfg.init_policy) == DATA_ROOT / "policies" / "electrify-2p.pt"
    (tmp_path / "mine.pt").write_bytes(b"x")                      # a file here wins over a shipped one
    assert resolve_policy_path("mine.pt") == Path("mine.pt")
    with pytest.raises(ConfigError, match="^init_policy: "):
        TrainConfig(init_policy="policies/no-such.pt")


def test_league_agents_play_the_seats_drawn_for_them_from_their_own_view(tmp_path):
    """``p_agent``: a registered agent plays the other seat from the view the arena would give
    it (its own seat, its scrubbed information set, the pending mask), legally; the learner's
    win rate against it is recorded under ``agent:<spec>``."""
    from electrify_env.engine import layout as L
    from electrify_env.engine.infoset import scrub
    from electrify_env.training.selfplay import CTRL_AGENT, CTRL_LEARNER

    cfg = tiny(tmp_path, p_self=0.0, p_greedy=0.0, p_snapshot=0.0, p_agent=1.0,
               league_agents=["greedy", "mcts:iters=4:top_k=2:horizon=1"], bc_steps=0, num_envs=8)
    tr = Trainer(cfg, log=lambda *_: None)
    assert [a.spec for a in tr.agents] == cfg.league_agents
    tr.start_games()
    learners = (tr.ctrl[:, :2] == CTRL_LEARNER).sum(axis=1)
    assert (learners == 1).all() and set(np.unique(tr.ctrl[:, :2])) == {CTRL_LEARNER, CTRL_AGENT, CTRL_AGENT + 1}
    seen = []
    for agent in tr.agents:
        act = agent.act

        def spy(view, act=act):
            S = tr.games.States[np.flatnonzero(tr.games.movers == view.seat)]
            info = np.empty(L.S_SIZE, dtype=np.int64)
            match = False
            for row in S:   # the view is one of the rows whose mover is view.seat
                scrub(row, tr.games.T, np.int64(view.seat), info)
                match |= np.array_equal(info, view.infoset)
            seen.append((match, (view.infoset == -2).any()))
            return act(view)
        agent.act = spy
    while len(tr.league.win_rate) < 2:
        tr.collect()
        tr.update()
    assert set(tr.league.win_rate) == {"agent:greedy", "agent:mcts:iters=4:top_k=2:horizon=1"}
    assert seen and all(m for m, _ in seen) and any(h for _, h in seen)   # hidden cards stay hidden


def test_a_league_agent_that_cannot_play_the_runs_games_is_refused_before_training(tmp_path):
    with pytest.raises(ConfigError, match=r"^league_agents: trained_4p: .*4"):
        Trainer(tiny(tmp_path, p_agent=0.5, league_agents=["trained_4p"]), log=lambda *_: None)
    with pytest.raises(ConfigError, match=r"^league_agents: net:path=.*nope.pt"):
        Trainer(tiny(tmp_path, p_agent=0.5, league_agents=[f"net:path={tmp_path / 'nope.pt'}"]),
                log=lambda *_: None)
    tr = Trainer(tiny(tmp_path, p_agent=0.5, league_agents=["trained_2p"]), log=lambda *_: None)
    assert [a.spec for a in tr.agents] == ["trained_2p"]


def test_ship_averages_the_weights_of_several_checkpoints(tmp_path):
    """``python -m electrify_env.training.ship SRC DEST --average MORE...``: the shipped weights are the mean
    of the files' (as float16 stores it), the metadata is SRC's with ``averaged_from``; a file of
    another architecture or card set is refused with a one-line error."""
    from electrify_env.game import Game
    from electrify_env.agents.net import PolicyValueNet, load_policy, save_policy
    from electrify_env.training.ship import main as ship_main

    card_hash = Game(n_players=2, seed=0).cards.hash
    paths, states = [], []
    for i in range(3):
        torch.manual_seed(i)
        net = PolicyValueNet(2, [8])
        paths.append(save_policy(net, tmp_path / f"c{i}.pt", card_hash, "Electrify-v0", steps=10 * i))
        states.append(load_policy(paths[-1])[0].state_dict())
    assert ship_main([str(paths[2]), str(tmp_path / "avg.pt"), "--average", str(paths[0]), str(paths[1])]) == 0
    net, meta = load_policy(tmp_path / "avg.pt")
    for k, v in net.state_dict().items():
        mean = (states[0][k] + states[1][k] + states[2][k]) / 3
        assert torch.equal(v, mean.half().float()), k
    assert meta["steps"] == 20 and meta["averaged_from"] == [str(p) for p in (paths[2], paths[0], paths[1])]
    wide = save_policy(PolicyValueNet(2, [16]), tmp_path / "wide.pt", card_hash, "Electrify-v0")
    other_cards = save_policy(PolicyValueNet(2, [8]), tmp_path / "other.pt", "0" * 64, "Electrify-v0")
    for bad in (wide, other_cards):
        assert ship_main([str(paths[0]), str(tmp_path / "bad.pt"), "--average", str(bad)]) == 2
    assert not (tmp_path / "bad.pt").exists()


def test_config_base_chain(tmp_path):
    """``base: OTHER.yaml`` starts a config from another's fields (found beside the file, else a
    shipped config by name), the file's own fields over them, through a chain of bases; the
    shipped mcts configs set only what differs from the config before them."""
    tune = load_config(REPO / "configs" / "electrify-2p-net-sharpen.yaml", TrainConfig)
    (tmp_path / "a.yaml").write_text("base: electrify-2p-net-loose.yaml\nseed: 41\n", encoding="utf-8")
    (tmp_path / "b.yaml").write_text("base: a.yaml\nepochs: 3\noutput_dir: runs/b\n", encoding="utf-8")
    b = load_config(tmp_path / "b.yaml", TrainConfig, {"epochs": 4})
    loose = load_config(REPO / "configs" / "electrify-2p-net-loose.yaml", TrainConfig)
    assert (b.seed, b.epochs, b.output_dir) == (41, 4, "runs/b")
    assert b.anchor_coef == loose.anchor_coef == 0.05 and b.init_policy == tune.init_policy
    assert b.value_warmup == 100_000 != tune.value_warmup     # set by the middle file of the chain
    raw = (REPO / "configs" / "electrify-2p-net-loose.yaml").read_text(encoding="utf-8")
    assert "\nbase: electrify-2p-net-mcts.yaml\n" in raw and "\ninit_policy:" not in raw


@pytest.mark.parametrize("text, message", [
    ("base: 3\n", "base: must be a config file name, got 3"),
    ("base: nowhere.yaml\n", "nowhere.yaml: file not found"),
    ("base: loop.yaml\nseed: 1\n", "the chain of bases returns to this file"),
    ("base: electrify-2p-net-sharpen.yaml\nsede: 1\n", "unknown field 'sede' (did you mean 'seed'?)"),
])
def test_config_base_errors(tmp_path, text, message):
    (tmp_path / "loop.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=re.escape(message)) as err:
        load_config(tmp_path / "loop.yaml", TrainConfig)
    if "sede" in text:
        assert "loop.yaml" in str(err.value)     # the unknown key is named with the file that set it
