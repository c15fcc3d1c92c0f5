"""Policies with a greedy logit prior (``policy_prior: greedy``): the jitted prior
(``kernels.search.greedy_prior``, ``kernels.league.greedy_priors``), the network that adds it
(``electrify_env.agents.net.PolicyValueNet(prior="greedy")``), its file, the trainer and the ``net`` agent."""
from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
import torch

from electrify_env.agents import make_agent
from electrify_env.agents.base import AgentError, seat_view
from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.kernels import search as SR
from electrify_env.kernels.league import greedy_priors
from electrify_env.envs import SEAT_ENV_ID
from electrify_env.envs._common import card_set_and_options
from electrify_env.agents.policy_meta import PolicyMismatchError
from electrify_env.training.config import ConfigError, TrainConfig
from electrify_env.agents.net import PolicyValueNet, compute_prior, load_policy, save_policy, transfer_weights
from electrify_env.training.selfplay import Games, greedy_weights, train

CARDS, OPTIONS = card_set_and_options(None, ())


def running_games(n: int = 24, n_players: int = 2, steps: int = 150, seed: int = 0) -> Games:
    """Greedy-played games stopped at different points."""
    rng = np.random.default_rng(seed)
    g = Games(n, n_players, CARDS, OPTIONS, None, rng.integers(0, 1 << 40, n))
    W = greedy_weights()
    from electrify_env.training.selfplay import greedy_act
    for _ in range(steps):
        g.step(greedy_act(g, np.arange(n), W, rng))
    return g


def test_greedy_prior_ranks_the_legal_actions_as_greedy_does():
    g = running_games()
    W = greedy_weights()
    T = g.T
    mask = np.zeros(L.N_ACTIONS, np.uint8)
    out = np.zeros(L.N_ACTIONS, np.float32)
    vals = np.zeros(L.N_ACTIONS)
    work, scratch = np.zeros(L.S_SIZE, np.int64), np.zeros(L.S_SIZE, np.int64)
    tally = np.zeros(SR.N_TALLY)
    checked = 0
    for i in range(g.n):
        S = g.States[i].copy()
        SR.greedy_prior(S, T, W, mask, out, vals, work, tally, scratch)
        legal = g.masks[i] != 0
        assert np.all(out[~legal] == 0) and np.all(out >= 0) and np.all(out <= SR.PRIOR_CLIP)
        if legal.sum() == 1:
            assert not out.any()
            continue
        pick = SR.greedy_pick(S, T, W, mask.copy(), np.int64(SR.ANYTIME_SOME), vals, work, tally, scratch)
        SR.greedy_prior(S, T, W, mask, out, vals, work, tally, scratch)
        assert out[pick] == out.max() == SR.PRIOR_CLIP          # greedy's pick on top
        valued = np.isfinite(vals) & legal
        gap = vals[pick] - vals[valued]
        assert np.allclose(out[valued], np.maximum(0.0, SR.PRIOR_CLIP - gap), atol=1e-4)
        assert np.all(out[legal & ~valued] == 0)               # any-time ids greedy skips here
        checked += 1
    assert checked >= 10


def test_batched_priors_match_one_state_at_a_time_and_hide_nothing():
    """``greedy_priors`` = ``infoset_prior`` on the mover's scrubbed information set with the
    same seed; the prior depends on the hidden cards only through the draw (R26)."""
    from electrify_env.engine.infoset import scrub
    g = running_games(seed=1)
    rows = np.arange(g.n, dtype=np.int64)
    seeds = np.arange(100, 100 + g.n, dtype=np.int64)
    out = np.zeros((g.n, L.N_ACTIONS), np.float32)
    greedy_priors(g.States, g.T, greedy_weights(), rows, seeds, out)
    b = dict(mask=np.zeros(L.N_ACTIONS, np.uint8), det=np.zeros(L.S_SIZE, np.int64),
             vals=np.zeros(L.N_ACTIONS), work=np.zeros(L.S_SIZE, np.int64),
             tally=np.zeros(SR.N_TALLY), scratch=np.zeros(L.S_SIZE, np.int64))
    info = np.zeros(L.S_SIZE, np.int64)
    one = np.zeros(L.N_ACTIONS, np.float32)
    for i in range(g.n):
        if (g.masks[i] != 0).sum() == 1:
            assert not out[i].any()
            continue
        scrub(g.States[i], g.T, g.States[i, L.S_CUR], info)
        SR.infoset_prior(info, g.T, greedy_weights(), seeds[i], one, b["mask"], b["det"], b["vals"],
                         b["work"], b["tally"], b["scratch"])
        assert np.array_equal(one, out[i])


def test_a_network_with_a_prior_needs_it_and_adds_it():
    net = PolicyValueNet(2, [16], prior="greedy", prior_scale=3.0)
    obs = torch.zeros(2, net.n_inputs)
    mask = torch.ones(2, L.N_ACTIONS, dtype=torch.bool)
    with pytest.raises(ValueError, match="pass prior="):
        net(obs, mask)
    prior = torch.rand(2, L.N_ACTIONS)
    plain = PolicyValueNet(2, [16])
    plain.load_state_dict(net.state_dict())
    with torch.no_grad():
        assert torch.allclose(net(obs, mask, prior)[0], plain(obs, mask)[0] + 3.0 * prior)
    with pytest.raises(ValueError, match="prior must be one of"):
        PolicyValueNet(2, [16], prior="mcts")
    with pytest.raises(ValueError, match="prior_scale"):
        PolicyValueNet(2, [16], prior="greedy", prior_scale=0.0)
    assert "prior" not in plain.arch()          # files without a prior are saved as before


def test_prior_policy_file_round_trip_and_refusal(tmp_path):
    net = PolicyValueNet(2, [16], prior="greedy", prior_scale=1.5)
    net.prior_weights = net.prior_weights * 1.25       # weights saved with the file, not re-read
    path = save_policy(net, tmp_path / "p.pt", CARDS.hash, SEAT_ENV_ID)
    back, meta = load_policy(path, card_set_hash=CARDS.hash, n_players=2)
    assert (back.prior, back.prior_scale) == ("greedy", 1.5) and meta["arch"]["prior"] == "greedy"
    assert np.allclose(back.prior_weights, net.prior_weights)
    blob = torch.load(path, weights_only=True)
    blob["arch"]["prior"] = "oracle"
    torch.save(blob, path)
    with pytest.raises(PolicyMismatchError, match="logit prior 'oracle'"):
        load_policy(path)


def test_prior_agent_with_a_silent_head_plays_exactly_as_greedy(tmp_path):
    """A network whose own logits are all zero plays argmax(prior) = greedy's pick from the same
    determinization: the agent draws its determinization seeds as the greedy agent does."""
    net = PolicyValueNet(2, [16], prior="greedy")
    with torch.no_grad():
        net.pi.weight.zero_()
        net.pi.bias.zero_()
    path = save_policy(net, tmp_path / "g.pt", CARDS.hash, SEAT_ENV_ID)
    agent, greedy = make_agent(f"net:path={path}"), make_agent("greedy")
    assert agent.needs_infoset
    with pytest.raises(AgentError, match="information-set view"):
        agent.as_callable()
    agent.reset(7)
    greedy.reset(7)
    game = Game(n_players=2, seed=3)
    same = total = 0
    while not game.is_terminal and total < 400:
        view = seat_view(game, observation=True, infoset=True)
        if game.current_player == 0:
            a, b = agent.act(view), greedy.act(view)
            pr = agent._prior.out
            # equal, or a tie in the float32 prior of values greedy told apart by < 1e-5
            assert a == b or abs(float(pr[a]) - float(pr[b])) < 1e-5, (total, a, b)
            same += a == b
            total += 1
            game.step(b)
        else:
            game.step(int(np.flatnonzero(view.mask)[0]))
    assert total >= 100 and same >= 0.97 * total


def test_train_config_prior_fields():
    with pytest.raises(ConfigError, match="^policy_prior: must be one of none, greedy"):
        TrainConfig(policy_prior="mcts")
    with pytest.raises(ConfigError, match="^prior_scale: "):
        TrainConfig(policy_prior="greedy", prior_scale=0.0)


def test_tiny_run_with_a_greedy_prior_saves_it_and_resumes(tmp_path):
    out = tmp_path / "run"
    cfg = TrainConfig(n_players=2, num_envs=16, rollout=512, minibatch=256, bc_steps=256, total_steps=1024,
                      eval_games=4, eval_every=512, output_dir=str(out), tensorboard=False, progress_bar=False,
                      hidden=[32], snapshot_every=512, policy_prior="greedy", prior_scale=2.5)
    first = train(cfg, log=lambda *_: None)
    net, meta = load_policy(out / "policy.pt")
    assert (net.prior, net.prior_scale) == ("greedy", 2.5)
    assert meta["config"]["policy_prior"] == "greedy"
    blob = torch.load(out / "checkpoint.pt", weights_only=False)
    assert blob["league"]["snapshots"]
    more = dataclasses.replace(cfg, total_steps=2048, resume=True)
    second = train(more, log=lambda *_: None)
    assert second["curve"][-1]["rl_steps"] > first["curve"][-1]["rl_steps"]
    with pytest.raises(ConfigError, match="^resume: .*policy_prior"):
        train(dataclasses.replace(more, policy_prior="none"), log=lambda *_: None)


def test_transfer_into_a_prior_network_and_compute_prior():
    src = PolicyValueNet(2, [16])
    dst = transfer_weights(src, PolicyValueNet(2, [16], prior="greedy"))
    g = running_games(n=8, seed=2)
    rows = np.arange(8)
    pr = compute_prior(dst, g.States, g.T, rows, np.random.default_rng(0))
    assert pr.shape == (8, L.N_ACTIONS) and pr.dtype == np.float32 and pr.any()
    assert compute_prior(src, g.States, g.T, rows, np.random.default_rng(0)) is None
    a = dst.act(g.obs[rows], g.masks[rows], prior=pr)
    assert all(g.masks[i, a[i]] for i in rows)


def test_ship_adds_a_prior_to_a_network_trained_without_one(tmp_path):
    from electrify_env.training.ship import main as ship_main
    from electrify_env.training.ship import ship
    net = PolicyValueNet(3, [16])
    src = save_policy(net, tmp_path / "src.pt", CARDS.hash, SEAT_ENV_ID, steps=5)
    out = ship(src, tmp_path / "with.pt", prior="greedy", prior_scale=1.5)
    back, meta = load_policy(out)
    assert (back.prior, back.prior_scale) == ("greedy", 1.5) and meta["steps"] == 5
    assert meta["prior_added"] == {"prior": "greedy", "prior_scale": 1.5, "from": str(src)}
    assert meta["shipped_from"] == str(src)
    for k, v in net.state_dict().items():
        assert torch.equal(v.half().float(), back.state_dict()[k]), k
    with pytest.raises(ValueError, match="already adds"):
        ship(out, tmp_path / "again.pt", prior="greedy")
    assert ship_main([str(out), str(tmp_path / "again.pt"), "--prior", "greedy"]) == 2
    assert json.loads((tmp_path / "with.meta.json").read_text())["arch"]["prior_scale"] == 1.5


def test_teacher_data_replays_each_decisions_prior_and_a_prior_policy_imitates_it(tmp_path):
    """Stored games carry no engine states: their priors are computed on replay, from the
    deciding seat's information set; greedy's own games agree with their priors' argmax."""
    from electrify_env.training.selfplay import Trainer
    from electrify_env.training.teacher import TeacherConfig, load_teacher_data, run_teacher
    path = tmp_path / "greedy.jsonl"
    run_teacher(TeacherConfig(agent="greedy", players=2, games=2, seed=4, out=str(path), progress=False))
    plain = load_teacher_data(path, trim=True)
    assert plain.priors is None
    data = load_teacher_data(path, trim=True, prior_weights=greedy_weights(), prior_seed=1)
    assert data.priors.shape == (len(data), L.N_ACTIONS) and data.priors.dtype == np.float32
    choice = data.masks.sum(1) > 1
    assert not data.priors[~choice].any() and not data.priors[~data.masks].any()
    agree = (data.priors[choice].argmax(1) == data.actions[choice]).mean()
    assert agree >= 0.95, agree
    again = load_teacher_data(path, trim=True, prior_weights=greedy_weights(), prior_seed=1)
    assert np.array_equal(again.priors, data.priors)
    cfg = TrainConfig(n_players=2, hidden=[16], bc_data=str(path), bc_data_epochs=1, policy_prior="greedy",
                      output_dir=str(tmp_path / "run"), tensorboard=False, progress_bar=False)
    stats = Trainer(cfg, log=lambda *_: None).imitate_data()
    assert stats["samples"] == len(data) and stats["agreement"] >= 0.9   # the prior already plays greedy


def test_ship_keeps_the_evaluation_of_a_copy_and_drops_it_for_a_changed_network(tmp_path):
    """A plain copy still is the evaluated network; one with an added prior is not."""
    from electrify_env.training.ship import ship
    rows = [{"opponent": "greedy", "games": 10, "wins": 7}]
    src = save_policy(PolicyValueNet(3, [16]), tmp_path / "src.pt", CARDS.hash, SEAT_ENV_ID, steps=5,
                      evaluation=rows)
    assert load_policy(ship(src, tmp_path / "copy.pt"))[1]["evaluation"] == rows
    assert "evaluation" not in load_policy(ship(src, tmp_path / "prior.pt", prior="greedy"))[1]
