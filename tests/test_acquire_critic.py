"""Afterstate critics (``electrify_env.agents.net.AfterstateCritic``): the jitted afterstates
(``kernels.afterstate``), the network and its file, the agent that plays it, and the trainer
(``python -m electrify_env.training.acquire_critic collect`` / ``fit``)."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from electrify_env.agents import make_agent
from electrify_env.agents.base import seat_view
from electrify_env.decision import pending_frame_type
from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.kernels.afterstate import afterstate_observations
from electrify_env.engine.observe import OBS_SIZE, face_features, obs_size
from electrify_env.envs import SEAT_ENV_ID, SOLO_ENV_ID
from electrify_env.envs._common import card_set_and_options
from electrify_env.agents.policy_meta import PolicyMismatchError, load_policy_metadata, policy_needs_infoset
from electrify_env.training import acquire_critic
from electrify_env.agents.net import ARCH_CRITIC, AfterstateCritic, PolicyValueNet, critic_choice, load_policy, save_policy, transfer_weights

CARDS, _ = card_set_and_options(None, ())


def _critic_file(tmp_path, head: float = 0.0, name: str = "c.pt"):
    """A 2-player network with a greedy prior and an acquire critic whose output layer is
    ``head`` everywhere (0: silent), saved."""
    torch.manual_seed(0)
    net = PolicyValueNet(2, [16], prior="greedy", critic={"frames": ["acquire"], "top_k": 3, "hidden": 8})
    with torch.no_grad():
        net.critic.mlp[2].weight.fill_(head)
    return save_policy(net, tmp_path / name, CARDS.hash, SEAT_ENV_ID), net


@pytest.mark.parametrize("scenario", [None, "long_haul"])
def test_afterstates_are_what_the_mover_sees_after_the_real_move(scenario):
    """The mover's observation after a candidate in a determinization of its information set is
    its observation after that move in the real game: at the acquire decision nothing it cannot
    see enters its observation (R26), whatever the hidden cards were sampled as; in a 2-player
    game and in a solo scenario."""
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(3):
        game = Game(2, seed=seed) if scenario is None else Game(seed=seed, scenario=scenario)
        ff = face_features(game.cards.table)
        n_in = obs_size(game.n_players)
        det, work, row = np.empty(L.S_SIZE, np.int64), np.empty(L.S_SIZE, np.int64), np.zeros(OBS_SIZE, np.float32)
        while not game.is_terminal:
            view = seat_view(game)
            legal = np.flatnonzero(view.mask)
            if legal.size > 1 and pending_frame_type(view.infoset) == L.FT_ACQUIRE:
                cands = legal[:4].astype(np.int64)
                out = np.zeros((len(cands), n_in), np.float32)
                afterstate_observations(view.infoset, view.table, ff, np.int64(view.seat),
                                        np.int64(rng.integers(1 << 40)), cands, np.int64(len(cands)),
                                        np.int64(n_in), det, work, row, out)
                for j, a in enumerate(cands):
                    real = game.copy()
                    real.step(int(a))
                    assert np.array_equal(out[j], real.observe(view.seat)[:n_in]), (seed, int(a))
                    checked += 1
            game.step(int(rng.choice(legal)))
    assert checked >= (60 if scenario is None else 30)


def test_a_silent_critic_plays_exactly_as_its_policy(tmp_path):
    """An untrained critic scores every candidate 0, so the agent plays the policy's own choice
    (the candidates are the policy's most likely actions, best first); the same agent seed gives
    the same prior determinization."""
    path, net = _critic_file(tmp_path)
    plain = save_policy(transfer_weights(net, PolicyValueNet(2, [16], prior="greedy")), tmp_path / "plain.pt",
                        CARDS.hash, SEAT_ENV_ID)
    with_critic, without = make_agent(f"net:path={path}"), make_agent(f"net:path={plain}")
    assert with_critic.needs_infoset
    game, rng, acquired = Game(2, seed=5), np.random.default_rng(1), 0
    while not game.is_terminal:
        view = seat_view(game)
        without.reset(len(game.history))
        with_critic.reset(len(game.history))
        a = with_critic.act(view)
        assert a == without.act(view)
        acquired += pending_frame_type(view.infoset) == L.FT_ACQUIRE and int(view.mask.sum()) > 1
        game.step(int(rng.choice(np.flatnonzero(view.mask))) if rng.random() < 0.3 else a)
    assert acquired >= 10
    assert with_critic._nets[2]._warmed     # its compiled code was loaded with the policy (no draw)


def test_the_critic_warms_at_the_first_view_with_an_information_set(tmp_path):
    """A play session loads a seat's policy with a view that has no information set; the
    critic's code is loaded at the seat's first real view, not left to its first critic move."""
    from electrify_env.play.session import PlaySession
    path, _ = _critic_file(tmp_path)
    s = PlaySession(n_players=2, seats=[f"net:path={path}", "greedy"], seed=0)
    agent = s._agents[0]
    assert not getattr(agent._nets[2], "_warmed", False)
    while s.game.current_player != 0:
        s.step_bot()
    s.step_bot()
    assert agent._nets[2]._warmed


def test_the_critic_decides_at_its_decision_types_only(tmp_path):
    """A critic that scores a candidate by its logit gap alone (weights on the gap input only)
    changes choices at acquire decisions and nowhere else."""
    path, net = _critic_file(tmp_path, head=0.0, name="gap.pt")
    with torch.no_grad():
        net.critic.mlp[0].weight.zero_()
        net.critic.mlp[0].bias.fill_(1.0)
        net.critic.mlp[0].weight[:, -1] = -1.0      # prefers the candidate furthest below the best
        net.critic.mlp[2].weight.fill_(1.0)
    save_policy(net, path, CARDS.hash, SEAT_ENV_ID)
    agent = make_agent(f"net:path={path}")
    game, changed = Game(2, seed=2), {}
    while not game.is_terminal:
        view = seat_view(game)
        agent.reset(len(game.history))
        a = agent.act(view)
        logits = agent.logits(view)
        f = pending_frame_type(view.infoset)
        if a != int(np.argmax(logits)):
            changed[f] = changed.get(f, 0) + 1
        game.step(int(np.argmax(logits)))
    assert set(changed) == {L.FT_ACQUIRE}


def test_critic_file_round_trip_transfer_and_refusals(tmp_path):
    path, net = _critic_file(tmp_path, head=0.5)
    back, meta = load_policy(path, card_set_hash=CARDS.hash, n_players=2)
    assert meta["arch"]["arch"] == ARCH_CRITIC and meta["arch"]["critic"] == {"frames": ["acquire"], "top_k": 3, "hidden": 8}
    assert policy_needs_infoset(load_policy_metadata(path))
    for k, v in net.state_dict().items():
        assert torch.allclose(back.state_dict()[k], v.to(torch.float16).to(torch.float32))
    after = np.random.default_rng(0).random((3, back.n_inputs)).astype(np.float32)
    assert 0 <= critic_choice(back, after, np.array([2.0, 1.0, 0.5], np.float32)) < 3
    plain = transfer_weights(back, PolicyValueNet(3, [16], prior="greedy"))   # the critic stays behind
    assert plain.critic is None
    with pytest.raises(ValueError, match="no afterstate critic"):
        critic_choice(plain, after, np.zeros(3, np.float32))
    blob = torch.load(path, weights_only=True)
    blob["arch"]["arch"] = "mlp-critic-v9"
    torch.save(blob, path)
    with pytest.raises(PolicyMismatchError, match="architecture 'mlp-critic-v9'"):
        load_policy(path)
    with pytest.raises(ValueError, match="top_k >= 2"):
        AfterstateCritic(16, top_k=1)
    with pytest.raises(ValueError, match="unknown"):
        AfterstateCritic(16, frames=["shopping"])


def test_ship_keeps_the_critic_when_it_adds_a_prior(tmp_path):
    from electrify_env.training.ship import ship
    net = PolicyValueNet(2, [16], critic={"frames": ["acquire"], "top_k": 2, "hidden": 4})
    src = save_policy(net, tmp_path / "c.pt", CARDS.hash, SEAT_ENV_ID)
    back, meta = load_policy(ship(src, tmp_path / "shipped.pt", prior="greedy"))
    assert back.prior == "greedy" and meta["arch"]["critic"] == {"frames": ["acquire"], "top_k": 2, "hidden": 4}
    assert torch.allclose(back.critic.mlp[0].weight, net.critic.mlp[0].weight.to(torch.float16).float())


def test_collect_and_fit_save_a_policy_whose_critic_plays(tmp_path, capsys):
    out = tmp_path / "data"
    acquire_critic.main(["collect", "--out", str(out), "--games", "2", "--shard", "1", "--ndet", "2",
                         "--horizon", "1", "--seed", "3"])
    log = capsys.readouterr().out
    assert "2 games," in log
    files = sorted(out.glob("critic-s3-*.npz"))
    assert len(files) == 2
    d = np.load(files[0])
    n = len(d["game"])
    assert n >= 5 and d["after"].shape == (n, 3, obs_size(2)) and d["cand"].shape == (n, 3)
    ok = np.isfinite(d["value"])
    assert ok[:, :2].all() and ((d["value"][ok] >= 0) & (d["value"][ok] <= 1)).all()
    assert (np.diff(np.where(ok, d["logit"], -np.inf), axis=1) <= 0).all()   # candidates best first
    assert json.loads(str(d["info"]))["ndet"] == 2
    save = tmp_path / "p.pt"
    acquire_critic.main(["fit", str(out), "--epochs", "2", "--save", str(save)])
    log = capsys.readouterr().out
    assert "pass 0 (the policy's choice)" in log and "pass 2:" in log and "saved" in log
    meta = load_policy_metadata(save)
    assert meta["critic_training"]["data"]["games"] == 2 and meta["critic_training"]["critic_of"]["path"]
    assert meta["steps"] == load_policy_metadata("policies/electrify-2p.pt")["steps"]
    agent = make_agent(f"net:path={save}")
    game = Game(2, seed=11)
    rand = make_agent("random")
    rand.reset(1)
    agent.reset(2)
    while not game.is_terminal:
        view = seat_view(game)
        game.step(agent.act(view) if view.seat == 0 else rand.act(view))
    assert game.scores()[0] > game.scores()[1]


def test_shards_of_one_policy_written_two_ways_are_one_setting(tmp_path):
    """The policy of the shards is compared as a file: a relative and an absolute path to it
    are the same setting; a different file is not."""
    from pathlib import Path

    out = tmp_path / "data"
    rel = "policies/electrify-2p.pt"
    acquire_critic.main(["collect", "--out", str(out), "--games", "1", "--ndet", "1", "--horizon", "1",
                         "--seed", "1", "--policy", rel])
    acquire_critic.main(["collect", "--out", str(out), "--games", "1", "--ndet", "1", "--horizon", "1",
                         "--seed", "2", "--policy", str(Path(rel).resolve())])
    data, info = acquire_critic.load_shards(out)
    assert info["shards"] == 2 and info["games"] == 2
    acquire_critic.main(["collect", "--out", str(out), "--games", "1", "--ndet", "1", "--horizon", "1",
                         "--seed", "3", "--policy", "policies/electrify-2p-net.pt"])
    with pytest.raises(SystemExit, match="different settings"):
        acquire_critic.load_shards(out)


def test_fit_refuses_shards_collected_with_different_settings(tmp_path):
    out = tmp_path / "data"
    acquire_critic.main(["collect", "--out", str(out), "--games", "1", "--ndet", "1", "--horizon", "1", "--seed", "1"])
    acquire_critic.main(["collect", "--out", str(out), "--games", "1", "--ndet", "2", "--horizon", "1", "--seed", "2"])
    with pytest.raises(SystemExit, match="different settings"):
        acquire_critic.main(["fit", str(out), "--epochs", "1"])
    with pytest.raises(SystemExit, match="no critic-"):
        acquire_critic.main(["fit", str(tmp_path / "empty"), "--epochs", "1"])
    with pytest.raises(SystemExit, match="unknown scenario ids"):
        acquire_critic.main(["collect", "--policy", "policies/electrify-solo.pt", "--scenarios", "nowhere",
                             "--out", str(tmp_path / "solo")])
    for bad in (["fit", str(out), "--lr", "0"], ["collect", "--top-k", "1"], ["collect", "--frames", "shopping"]):
        with pytest.raises(SystemExit):
            acquire_critic.main(bad)


def test_a_solo_policy_gets_a_critic_over_the_scenarios_in_turn(tmp_path, capsys):
    """collect plays a solo policy's scenarios in turn (game i the i-th), fit adds the critic to
    the solo policy, and the agent plays solo games with it."""
    out = tmp_path / "solo"
    acquire_critic.main(["collect", "--policy", "policies/electrify-solo.pt", "--scenarios", "first_light,net_zero",
                         "--out", str(out), "--games", "2", "--ndet", "2", "--horizon", "1", "--seed", "4"])
    d = np.load(next(out.glob("critic-s4-*.npz")))
    info = json.loads(str(d["info"]))
    assert info["players"] == 1 and info["scenarios"] == ["first_light", "net_zero"]
    assert d["after"].shape[1:] == (3, obs_size(1)) and len(set(d["game"].tolist())) == 2
    save = tmp_path / "solo-critic.pt"
    acquire_critic.main(["fit", str(out), "--policy", "policies/electrify-solo.pt", "--epochs", "1", "--save", str(save)])
    assert "saved" in capsys.readouterr().out
    assert load_policy_metadata(save)["critic_training"]["data"]["scenarios"] == ["first_light", "net_zero"]
    agent = make_agent(f"net:path={save}")
    game = Game(seed=3, scenario="net_zero")
    agent.reset(0)
    while not game.is_terminal:
        game.step(agent.act_in(game))
    assert game.solo_result()["score"] > 0
    with pytest.raises(SystemExit, match="collected with a 1-player policy"):
        acquire_critic.main(["fit", str(out), "--epochs", "1"])


def test_fit_over_folders_of_other_decision_types_trains_one_critic_for_all(tmp_path, capsys):
    a, b = tmp_path / "buy", tmp_path / "place"
    acquire_critic.main(["collect", "--out", str(a), "--games", "1", "--ndet", "1", "--horizon", "1", "--seed", "1"])
    acquire_critic.main(["collect", "--out", str(b), "--games", "1", "--ndet", "1", "--horizon", "1", "--seed", "2",
                         "--frames", "place_sector,place_slot"])
    save = tmp_path / "both.pt"
    acquire_critic.main(["fit", str(a), str(b), "--epochs", "1", "--save", str(save)])
    assert "saved" in capsys.readouterr().out
    meta = load_policy_metadata(save)
    assert meta["arch"]["critic"]["frames"] == ["acquire", "place_sector", "place_slot"]
    assert meta["critic_training"]["data"]["games"] == 2
    agent, game, seen = make_agent(f"net:path={save}"), Game(2, seed=4), set()
    agent.reset(0)
    while not game.is_terminal:
        view = seat_view(game)
        if int(view.mask.sum()) > 1:
            seen.add(pending_frame_type(view.infoset))
        game.step(agent.act(view))
    assert {L.FT_ACQUIRE, L.FT_PLACE_SECTOR} <= seen
    assert set(agent._nets[2].critic.frame_codes) >= {L.FT_ACQUIRE, L.FT_PLACE_SECTOR, L.FT_PLACE_SLOT}


def _gap_critic(critic: AfterstateCritic) -> None:
    """Make ``critic`` score a candidate by its logit gap alone, preferring the candidate
    furthest below the best (so it departs from the policy wherever it decides)."""
    with torch.no_grad():
        critic.mlp[0].weight.zero_()
        critic.mlp[0].bias.fill_(1.0)
        critic.mlp[0].weight[:, -1] = -1.0
        critic.mlp[2].weight.fill_(1.0)


def test_several_critics_each_decide_at_their_own_types_and_round_trip(tmp_path):
    """A network with two critics (buying; placing) saves and loads both (ARCH_CRITICS), each
    decides at its own decision types only, and two critics for one type are refused."""
    from electrify_env.agents.net import ARCH_CRITICS
    torch.manual_seed(0)
    net = PolicyValueNet(2, [16], prior="greedy", critic=[{"frames": ["acquire"], "top_k": 3, "hidden": 8},
                                                          {"frames": ["place_sector"], "top_k": 2, "hidden": 4}])
    assert [c.frames for c in net.critics] == [["acquire"], ["place_sector"]]
    assert net.critic_for(L.FT_PLACE_SECTOR) is net.critics[1] and net.critic_for(L.FT_PLAN) is None
    _gap_critic(net.critics[1])          # the buying critic stays silent (the policy's choice)
    path = save_policy(net, tmp_path / "two.pt", CARDS.hash, SEAT_ENV_ID)
    back, meta = load_policy(path)
    assert meta["arch"]["arch"] == ARCH_CRITICS and "critic" not in meta["arch"]
    assert [c["frames"] for c in meta["arch"]["critics"]] == [["acquire"], ["place_sector"]]
    for k, v in net.state_dict().items():
        assert torch.allclose(back.state_dict()[k], v.to(torch.float16).to(torch.float32))
    from electrify_env.agents.registry import _how_it_plays
    assert _how_it_plays(path).endswith("afterstate critics on acquire; place_sector")
    agent = make_agent(f"net:path={path}")
    game, changed, placed = Game(2, seed=2), set(), 0
    while not game.is_terminal:
        view = seat_view(game)
        agent.reset(len(game.history))
        a, logits = agent.act(view), agent.logits(view)
        f = pending_frame_type(view.infoset)
        placed += f == L.FT_PLACE_SECTOR and int(view.mask.sum()) > 1
        if a != int(np.argmax(logits)):
            changed.add(f)
        game.step(int(np.argmax(logits)))
    assert placed >= 3 and changed == {L.FT_PLACE_SECTOR}
    with pytest.raises(ValueError, match="same decision types"):
        PolicyValueNet(2, [16], critic=[{"frames": ["acquire", "place_slot"]}, {"frames": ["place_slot"]}])


def test_fit_keep_critics_adds_a_critic_beside_the_policys_own(tmp_path, capsys):
    """``fit --keep-critics`` keeps the shipped 2-player file's buying critic unchanged, adds a
    placing critic beside it and records how both were trained; a new critic for a type the
    policy's critic already has is refused."""
    place = tmp_path / "place"
    acquire_critic.main(["collect", "--out", str(place), "--games", "1", "--ndet", "1", "--horizon", "1", "--seed", "2",
                         "--frames", "place_sector,place_slot"])
    save = tmp_path / "kept.pt"
    acquire_critic.main(["fit", str(place), "--epochs", "1", "--keep-critics", "--save", str(save)])
    assert "saved" in capsys.readouterr().out
    net, meta = load_policy(save)
    ship, ship_meta = load_policy("policies/electrify-2p.pt")
    assert [c.frames for c in net.critics] == [["acquire"], ["place_sector", "place_slot"]]
    for k, v in ship.critic.state_dict().items():
        assert torch.equal(net.critic.state_dict()[k], v)
    assert meta["critic_training"]["kept_critic_training"] == ship_meta["critic_training"]
    assert meta["critic_training"]["frames"] == ["place_sector", "place_slot"]
    buy = tmp_path / "buy"
    acquire_critic.main(["collect", "--out", str(buy), "--games", "1", "--ndet", "1", "--horizon", "1", "--seed", "1"])
    with pytest.raises(SystemExit, match="--keep-critics: two afterstate critics"):
        acquire_critic.main(["fit", str(buy), "--epochs", "1", "--keep-critics"])


@pytest.mark.parametrize("scenario, decides", [("first_light", True), ("long_haul", False)])
def test_a_critic_with_max_target_decides_only_in_solo_games_up_to_that_target(tmp_path, scenario, decides):
    """``max_target=20``: the placing critic decides in first_light (target 18), not in
    long_haul (target 33), where the policy's choice stands; the file keeps the field."""
    torch.manual_seed(0)
    net = PolicyValueNet(1, [16], prior="greedy", critic=[{"frames": ["place_sector"], "top_k": 2, "hidden": 4,
                                                          "max_target": 20}])
    _gap_critic(net.critic)
    path = save_policy(net, tmp_path / "solo.pt", CARDS.hash, SOLO_ENV_ID)
    back, meta = load_policy(path)
    # saved in the list format, so code that knows no max_target refuses the file by its id
    assert meta["arch"]["arch"] == "mlp-critics-v1" and "critic" not in meta["arch"]
    assert meta["arch"]["critics"][0]["max_target"] == 20 and back.critic.max_target == 20
    agent, game, changed, placed = make_agent(f"net:path={path}"), Game(seed=1, scenario=scenario), 0, 0
    while not game.is_terminal:
        view = seat_view(game)
        agent.reset(len(game.history))
        a, logits = agent.act(view), agent.logits(view)
        if pending_frame_type(view.infoset) == L.FT_PLACE_SECTOR and int(view.mask.sum()) > 1:
            placed += 1
            changed += a != int(np.argmax(logits))
        game.step(int(np.argmax(logits)))
    assert placed >= 3 and (changed == placed if decides else changed == 0)
    with pytest.raises(ValueError, match="max_target must be >= 0"):
        AfterstateCritic(16, max_target=-1)


def test_ship_keeps_every_critic(tmp_path):
    """Shipping (and adding a prior to) a network with two critics keeps both, limits included."""
    from electrify_env.training.ship import ship
    specs = [{"frames": ["acquire"], "top_k": 2, "hidden": 4}, {"frames": ["place_slot"], "top_k": 3, "hidden": 4, "max_target": 20}]
    net = PolicyValueNet(1, [16], critic=specs)
    src = save_policy(net, tmp_path / "c.pt", CARDS.hash, SOLO_ENV_ID)
    back, meta = load_policy(ship(src, tmp_path / "shipped.pt", prior="greedy"))
    assert back.prior == "greedy" and meta["arch"]["critics"] == specs
    assert torch.allclose(back.extra_critics[0].mlp[0].weight, net.extra_critics[0].mlp[0].weight.to(torch.float16).float())
