"""The policy-value network of the one agent design: layout, model, policy file, agent, trainer."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from electrify_env.agents.network import (NetworkLayout, PolicyAgent, PolicyFileError, PolicyValueNet,
                                          layout_of, load, save)
from electrify_env.agents.network.agent import evaluator_of
from electrify_env.agents.registry import make_agent
from electrify_env.agents.search.evaluators import NetworkEvaluator
from electrify_env.games import get_game
from electrify_env.gizmos import Game
from electrify_env.gizmos.actions import encode
from electrify_env.training.config import ConfigError
from electrify_env.training.expert import ExpertConfig, load_expert_config, train
from electrify_env.validation import InvalidArgumentError

torch.set_num_threads(1)


def _net(seed: int = 0) -> PolicyValueNet:
    torch.manual_seed(seed)
    return PolicyValueNet(layout_of("gizmos", 2), embed=16, hidden=[32, 32]).eval()


def test_layout_refuses_overlaps_and_bad_pointers():
    base = layout_of("gizmos", 2).to_dict()
    bad = json.loads(json.dumps(base))
    bad["groups"][1]["offset"] = bad["groups"][0]["offset"] + 1
    with pytest.raises(InvalidArgumentError, match="overlaps"):
        NetworkLayout.from_dict(bad)
    bad = json.loads(json.dumps(base))
    bad["pointers"][0]["group"] = "nowhere"
    with pytest.raises(InvalidArgumentError, match="names no group 'nowhere'"):
        NetworkLayout.from_dict(bad)
    bad = json.loads(json.dumps(base))
    bad["pointers"][0]["start"] = 5
    with pytest.raises(InvalidArgumentError, match="points past"):
        NetworkLayout.from_dict(bad)
    with pytest.raises(InvalidArgumentError, match="needs game"):
        NetworkLayout.from_dict({"game": "gizmos"})
    with pytest.raises(InvalidArgumentError, match="unknown game"):
        layout_of("chess", 2)


def test_gizmos_layout_slots_hold_the_cards_where_the_observation_has_them():
    lay = layout_of("gizmos", 2)
    g = Game(2, seed=5)
    for _ in range(40):                       # some machines built and filed
        g.step(int(g.legal_actions()[-1]))
    obs = g.observe(g.current_player)
    groups = {x.name: x for x in lay.groups}
    present = {n: obs[x.offset:x.end].reshape(x.count, x.stride)[:, 0] for n, x in groups.items()}
    view = g.public_view(g.current_player)
    me = view["players"][g.current_player]
    assert int(present["display"].sum()) == sum(len(row) for row in view["display"]) == 9
    assert int(present["own_archive"].sum()) == len(me["archive"])
    assert int(present["own_machine"].sum()) == sum(len(col) for col in me["machines"].values()) \
        if isinstance(me["machines"], dict) else len(me["machines"])
    assert set(np.unique(np.concatenate(list(present.values())))) <= {0.0, 1.0}
    assert lay.flat_index.size + sum(x.count * x.stride for x in lay.groups) == lay.obs_size


def test_pointer_logits_follow_the_card_not_the_slot():
    """Swapping two display cards in the observation swaps their build and file logits and leaves
    the value unchanged: the network reads a card by its features wherever it lies."""
    net = _net(1)
    lay = net.layout
    g = Game(2, seed=9)
    obs = g.observe(0)
    disp = next(x for x in lay.groups if x.name == "display")
    a, b = disp.offset, disp.offset + 1 * disp.stride       # display slots 0 and 1
    swapped = obs.copy()
    swapped[a:a + disp.stride], swapped[b:b + disp.stride] = obs[b:b + disp.stride], obs[a:a + disp.stride]
    ones = np.ones((1, lay.n_actions), dtype=np.uint8)
    l1, v1 = net.evaluate(obs[None], ones)
    l2, v2 = net.evaluate(swapped[None], ones)
    b0, b1 = encode("build", level=1, slot=0), encode("build", level=1, slot=1)
    f0, f1 = encode("file", level=1, slot=0), encode("file", level=1, slot=1)
    # the pointer term moves with the card; the flat head's term belongs to the id, so compare
    # the pointer terms alone
    extra1 = l1[0] - (net.policy(net.torso(_torso_input(net, obs)))[0].detach().numpy())
    extra2 = l2[0] - (net.policy(net.torso(_torso_input(net, swapped)))[0].detach().numpy())
    np.testing.assert_allclose(extra1[[b0, f0]], extra2[[b1, f1]], atol=1e-5)
    np.testing.assert_allclose(extra1[[b1, f1]], extra2[[b0, f0]], atol=1e-5)
    np.testing.assert_allclose(v1, v2, atol=1e-6)
    assert not np.allclose(extra1[[b0, f0]], extra1[[b1, f1]])     # two different cards


def _torso_input(net, obs):
    x = torch.as_tensor(obs[None])
    emb = net.slots(x)
    pooled = [torch.cat([e.sum(1), e.max(1).values], dim=1) for e in emb]
    return torch.cat([x.index_select(1, net.flat_index)] + pooled, dim=1)


def test_masked_logits_and_value_range():
    net = _net()
    g = Game(2, seed=2)
    logits, values = net.evaluate(g.observe(0)[None], g.legal_mask()[None])
    assert (logits[0][g.legal_mask() == 0] <= -1e8).all()
    assert (logits[0][g.legal_mask() == 1] > -1e8).all()
    assert values.shape == (1, 2) and ((values > 0) & (values < 1)).all()


def test_seat_relative_values_turn_into_seat_order():
    g = Game(3, seed=1)
    while g.current_player == 0:
        g.step(int(g.legal_actions()[0]))
    cur = g.current_player

    def fn(obs, masks):
        return np.zeros((len(obs), g.N_ACTIONS)), np.tile(np.array([0.9, 0.5, 0.1], dtype=np.float32), (len(obs), 1))

    _, v = NetworkEvaluator(fn, seat_relative=True).evaluate([g])
    assert v[0, cur] == pytest.approx(0.9)
    assert v[0, (cur + 1) % 3] == pytest.approx(0.5)
    assert v[0, (cur + 2) % 3] == pytest.approx(0.1)


def test_policy_file_round_trip_and_refusals(tmp_path):
    net = _net(3)
    g = Game(2, seed=4)
    path = save(tmp_path / "p.pt", net, g.cards.hash, search={"simulations": 2, "determinizations": 1,
                                                              "considered": 4}, trainer="test")
    back, meta = load(path, card_set_hash=g.cards.hash)
    a, _ = net.evaluate(g.observe(0)[None], g.legal_mask()[None])
    b, _ = back.evaluate(g.observe(0)[None], g.legal_mask()[None])
    np.testing.assert_allclose(a, b, atol=2e-2)                   # float16 weights
    assert meta["game"] == "gizmos" and meta["search"]["simulations"] == 2 and meta["trainer"] == "test"
    with pytest.raises(PolicyFileError, match="card set"):
        load(path, card_set_hash="0" * 16)
    with pytest.raises(PolicyFileError, match="does not exist"):
        load(tmp_path / "none.pt")
    blob = torch.load(path, weights_only=True)
    blob["config"]["layout"]["version"] += 1
    torch.save(blob, tmp_path / "old.pt")
    (tmp_path / "old.meta.json").write_text((tmp_path / "p.meta.json").read_text())
    with pytest.raises(PolicyFileError, match="observation version"):
        load(tmp_path / "old.pt")
    (tmp_path / "bad.pt").write_bytes(b"not a torch file")
    (tmp_path / "bad.meta.json").write_text((tmp_path / "p.meta.json").read_text())
    with pytest.raises(PolicyFileError, match="does not load"):
        load(tmp_path / "bad.pt")


@pytest.mark.parametrize("sims", [0, 2])
def test_policy_agent_plays_a_whole_game(tmp_path, sims):
    g = Game(2, seed=11)
    path = save(tmp_path / "p.pt", _net(), g.cards.hash)
    agent = make_agent(f"policy:path={path}:simulations={sims}", game="gizmos")
    assert isinstance(agent, PolicyAgent) and agent.needs_infoset == (sims > 0)
    other = make_agent("random", game="gizmos")
    agent.reset(1)
    other.reset(2)
    steps = 0
    while not g.is_terminal and steps < 3000:
        who = agent if g.current_player == 0 else other
        g.step(int(who.act_in(g)))
        steps += 1
    assert g.is_terminal


def test_policy_agent_refuses_a_missing_file(tmp_path):
    agent = make_agent(f"policy:path={tmp_path / 'nothing.pt'}:simulations=0", game="gizmos")
    g = Game(2, seed=1)
    with pytest.raises(Exception, match="does not exist"):
        while True:
            g.step(int(agent.act_in(g)))


def _tiny(tmp_path, **kw) -> ExpertConfig:
    base = dict(out=str(tmp_path / "run"), embed=8, hidden=[16], warm_games=3, warm_epochs=1, batch=32,
                iterations=2, games_per_iteration=2, parallel=2, simulations=2, determinizations=1,
                considered=2, train_steps=3, eval_games=2, eval_every=1, snapshot_every=1,
                league={"self": 1, "greedy": 1, "snapshot": 1}, replay=5000, seed=3, play_search=None)
    base.update(kw)
    return ExpertConfig(**base)


def test_expert_iteration_runs_resumes_and_repeats(tmp_path):
    cfg = _tiny(tmp_path)
    path = train(cfg, log=lambda *_: None)
    rows = [json.loads(x) for x in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    assert [r["round"] for r in rows] == [0, 1, 2]
    assert rows[1]["samples"] > 0 and "screen_win_rate" in rows[2]
    net, meta = load(path)
    assert meta["trainer"] == "expert iteration" and meta["rounds"] == 2 and meta["search"] is None
    kept = sorted(p.name for p in (tmp_path / "run" / "rounds").glob("*.pt"))
    assert kept == ["policy-r0001.pt", "policy-r0002.pt"]            # every screened round
    # resuming a finished run trains no further round
    train(_tiny(tmp_path, iterations=2), log=lambda *_: None)
    assert len((tmp_path / "run" / "log.jsonl").read_text().splitlines()) == 3
    # resuming with more rounds continues from the checkpoint
    train(_tiny(tmp_path, iterations=3), log=lambda *_: None)
    assert [json.loads(x)["round"] for x in (tmp_path / "run" / "log.jsonl").read_text().splitlines()] == [0, 1, 2, 3]
    # the same config from scratch gives the same network
    other = train(_tiny(tmp_path, out=str(tmp_path / "again")), log=lambda *_: None)
    a = torch.load(path, weights_only=True)["state_dict"]
    b = torch.load(other, weights_only=True)["state_dict"]
    assert a.keys() == b.keys()


def test_expert_iteration_keeps_the_best_screened_network_and_stops_on_patience(tmp_path, monkeypatch):
    from electrify_env.training.expert import trainer as tr
    utilities = iter([0.5, 0.7, 0.6, 0.7, 0.4, 0.9])          # warm start, rounds 1, 2, 3, 4, 5

    def fake_screen(net, cfg, games, seed, opponent):
        u = next(utilities)
        return {"win_rate": u, "utility": u, "games": games}

    monkeypatch.setattr(tr, "screen", fake_screen)
    train(_tiny(tmp_path, iterations=6, patience=2), log=lambda *_: None)
    rows = [json.loads(x) for x in (tmp_path / "run" / "log.jsonl").read_text().splitlines()]
    # round 1 beat the warm start; rounds 2 and 3 did not beat it (a tie keeps the earlier): stop
    assert [r["round"] for r in rows] == [0, 1, 2, 3]
    assert [r.get("best_round") for r in rows[1:]] == [1, 1, 1]
    _, meta = load(tmp_path / "run" / "best.pt")
    assert meta["rounds"] == 1 and meta["screening"]["utility"] == 0.7
    # resuming a run its patience stopped trains no further round; more patience continues it
    # from the checkpoint's best
    train(_tiny(tmp_path, iterations=6, patience=2), log=lambda *_: None)
    assert len((tmp_path / "run" / "log.jsonl").read_text().splitlines()) == 4
    monkeypatch.setattr(tr, "screen", lambda *a: {"win_rate": 0.8, "utility": 0.8, "games": 2})
    train(_tiny(tmp_path, iterations=4, patience=3), log=lambda *_: None)
    _, meta = load(tmp_path / "run" / "best.pt")
    assert meta["rounds"] == 4 and meta["screening"]["utility"] == 0.8


def test_expert_iteration_is_a_function_of_its_config(tmp_path):
    p1 = train(_tiny(tmp_path, out=str(tmp_path / "a"), iterations=1), log=lambda *_: None)
    p2 = train(_tiny(tmp_path, out=str(tmp_path / "b"), iterations=1), log=lambda *_: None)
    a = torch.load(p1, weights_only=True)["state_dict"]
    b = torch.load(p2, weights_only=True)["state_dict"]
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_expert_config_errors(tmp_path):
    with pytest.raises(ConfigError, match="league"):
        ExpertConfig(league={"self": -1})
    with pytest.raises(ConfigError, match="takes 2-4 players"):
        ExpertConfig(players=5)
    with pytest.raises(ConfigError, match="unknown game"):
        ExpertConfig(game="chess")
    f = tmp_path / "c.yaml"
    f.write_text("game: gizmos\nsimulatons: 4\n")
    with pytest.raises(ConfigError, match="simulatons"):
        load_expert_config(f)
    assert load_expert_config("configs/gizmos-2p-expert.yaml").players == 2


def test_init_starts_a_four_player_network_from_a_two_player_file(tmp_path):
    from electrify_env.agents.network.policy_file import save
    from electrify_env.training.expert.trainer import init_from

    two = _net(seed=5)
    path = save(tmp_path / "two.pt", two, Game(2, seed=0).cards.hash)
    four = PolicyValueNet(layout_of("gizmos", 4), two.embed, list(two.hidden))
    fresh = init_from(four, str(path), "gizmos")
    assert fresh == ["value.weight", "value.bias"]               # the 4-seat value head starts fresh
    theirs = load(path)[0].state_dict()
    mine = four.state_dict()
    assert all(torch.equal(mine[k], theirs[k]) for k in mine if k not in fresh)
    with pytest.raises(PolicyFileError, match="plays 'gizmos', not 'electrify'"):
        init_from(four, str(path), "electrify")
    # the trainer takes it as a config field
    msgs = []
    train(_tiny(tmp_path, players=4, init=str(path), warm_games=0, iterations=1, embed=16, hidden=[32, 32]),
          log=msgs.append)
    assert any(m.startswith(f"network starts from {path} (fresh: value.weight, value.bias)") for m in msgs)


def test_value_targets_mix_the_result_with_the_search_root_value():
    from electrify_env.training.expert.selfplay import Samples

    s = Samples()
    row = (np.zeros(3), np.ones(2, np.uint8), np.array([1.0, 0.0]), 1, np.array([0.2, 0.6]))
    s.add_game([row], np.array([1.0, 0.0]), value_mix=0.25)
    s.add_game([row], np.array([1.0, 0.0]))                       # mix 0: the result alone
    s.add_game([row[:4]], np.array([1.0, 0.0]), value_mix=0.25)   # a teacher row has no root value
    np.testing.assert_allclose(s.value[0], [0.75 * 0 + 0.25 * 0.6, 0.75 * 1 + 0.25 * 0.2])
    np.testing.assert_allclose(s.value[1], [0.0, 1.0])
    np.testing.assert_allclose(s.value[2], [0.0, 1.0])
    with pytest.raises(ConfigError, match="value_mix must lie in"):
        ExpertConfig(value_mix=1.5)


def test_evaluator_of_a_network_serves_the_search():
    from electrify_env.agents.search.gumbel import GumbelSearch

    g = Game(2, seed=21)
    while g.legal_actions().size < 2:
        g.step(int(g.legal_actions()[0]))
    res = GumbelSearch(evaluator_of(_net()), simulations=4, determinizations=2, considered=4).search(g, seed=1)
    assert g.legal_mask()[res.action] and res.policy.sum() == pytest.approx(1.0, abs=1e-5)


def test_the_trainer_and_the_agent_take_electrify_too(tmp_path):
    """The network, trainer and agent are game-blind: Electrify trains and plays through the
    same code, from its own layout."""
    from electrify_env.game import Game as ElectrifyGame

    lay = layout_of("electrify", 2)
    assert lay.game == "electrify" and {p.group for p in lay.pointers} == {"hand", "cards_p0", "sectors_p0"}
    path = train(_tiny(tmp_path, game="electrify", iterations=1, league={"self": 1, "greedy": 1}),
                 log=lambda *_: None)
    agent = make_agent(f"policy:path={path}:simulations=0")
    g = ElectrifyGame(n_players=2, seed=5)
    other = make_agent("random")
    other.reset(1)
    while not g.is_terminal:
        g.step(int((agent if g.current_player == 0 else other).act_in(g)))
    with pytest.raises(PolicyFileError, match="not a policy-value file"):
        load("policies/electrify-2p.pt")


def _arena_out(tmp_path, agents, players, seed_of_games=2**40):
    out = tmp_path / f"arena-{len(list(tmp_path.glob('arena-*')))}"
    out.mkdir()
    cfg = {"game": "gizmos", "agents": agents, "players": players, "games": 402, "seed": 9, "jobs": 1}
    me = {"agent": agents[0], "games": 402, "win_rate": 0.5, "ci_low": 0.45, "ci_high": 0.55, "ms_per_move": 3.0}
    (out / "results.json").write_text(json.dumps({"config": cfg, "agents": [me]}))
    (out / "games.jsonl").write_text(json.dumps({"seed": seed_of_games}) + "\n")
    return out


def test_ship_records_two_agent_runs_and_line_ups_against_one_opponent(tmp_path):
    from electrify_env.training.expert.ship import record_evaluation
    path = train(_tiny(tmp_path, iterations=0), log=lambda *_: None)
    row = record_evaluation(path, _arena_out(tmp_path, ["policy", "greedy", "greedy"], 3))
    assert (row["opponent"], row["players"]) == ("greedy", 3)
    assert row["command"].startswith("electrify arena --game gizmos --agents policy,greedy,greedy --players 3 ")
    record_evaluation(path, _arena_out(tmp_path, ["policy", "greedy"], 2))
    assert [r["players"] for r in load(path)[1]["evaluation"]] == [3, 2]
    for agents in (["policy", "greedy", "random"], ["greedy", "greedy", "greedy"]):
        with pytest.raises(Exception, match="one opponent"):
            record_evaluation(path, _arena_out(tmp_path, agents, 3))
    with pytest.raises(Exception, match="inside the training range"):
        record_evaluation(path, _arena_out(tmp_path, ["policy", "greedy"], 2, seed_of_games=5))
