"""The best response of `electrify exploit` for policy-value files (training/best_response.py)."""
from __future__ import annotations

import json

import pytest
import torch

from electrify_env.agents.network.layout import layout_of
from electrify_env.agents.network.model import PolicyValueNet
from electrify_env.agents.network.policy_file import load, save
from electrify_env.cli import main
from electrify_env.gizmos import Game
from electrify_env.training.best_response import train_best_response
from electrify_env.training.exploit import ExploitConfig, ExploitError, policy_path, run_exploit

torch.set_num_threads(1)


def _file(tmp_path, name="frozen.pt", seed=0):
    torch.manual_seed(seed)
    net = PolicyValueNet(layout_of("gizmos", 2), embed=8, hidden=[16]).eval()
    return save(tmp_path / name, net, Game(2, seed=0).cards.hash)


def _states(path):
    return torch.load(path, weights_only=True)["state_dict"]


def test_the_learner_starts_from_the_files_weights_and_the_frozen_file_stays(tmp_path):
    src = _file(tmp_path)
    before = _states(src)
    frozen = f"policy:path={src}:simulations=0"
    kw = dict(envs=2, rollout=8, minibatch=8, log=lambda *_: None)
    still = train_best_response(src, frozen, "gizmos", 16, 1, tmp_path / "lr0", seed=1, lr=0.0, **kw)
    assert [p.name for p in still] == ["policy-16.pt"]
    assert all(torch.equal(_states(still[0])[k], before[k]) for k in before)     # lr 0: the file's weights
    moved = train_best_response(src, frozen, "gizmos", 32, 2, tmp_path / "a", seed=1, lr=1e-2, **kw)
    again = train_best_response(src, frozen, "gizmos", 32, 2, tmp_path / "b", seed=1, lr=1e-2, **kw)
    assert [p.name for p in moved] == ["policy-16.pt", "policy-32.pt"]
    a, b = _states(moved[-1]), _states(again[-1])
    assert all(torch.equal(a[k], b[k]) for k in a)                              # a function of its arguments
    assert any(not torch.equal(a[k], before[k]) for k in a)                     # training moved it
    assert all(torch.equal(_states(src)[k], before[k]) for k in before)          # the frozen file is untouched
    net, meta = load(moved[-1])
    assert meta["trainer"] == "best response (PPO)" and meta["frozen"] == frozen


def test_exploit_measures_a_policy_value_file_end_to_end(tmp_path):
    src = _file(tmp_path)
    cfg = ExploitConfig(policy=f"policy:path={src}:simulations=0", game="gizmos", steps=1000, points=1,
                        games=4, seed=7200, out=str(tmp_path / "ex"))
    report = run_exploit(cfg, log=lambda *_: None)
    (pt,) = report["points"]
    assert pt["games"] == 4 and 0.0 <= pt["win_rate"] <= 1.0 and pt["interval"][0] <= pt["win_rate"]
    assert "--game gizmos" in report["command"]
    assert json.loads((tmp_path / "ex" / "exploit.json").read_text())["points"] == report["points"]


def test_exploit_refuses_policy_value_specs_it_cannot_measure(tmp_path, capsys):
    with pytest.raises(ExploitError, match="does not exist"):
        policy_path(f"policy:path={tmp_path / 'none.pt'}", "gizmos")
    torch.manual_seed(0)
    three = save(tmp_path / "three.pt", PolicyValueNet(layout_of("gizmos", 3), embed=8, hidden=[16]),
                 Game(3, seed=0).cards.hash)
    with pytest.raises(ExploitError, match="plays 3-player games"):
        policy_path(f"policy:path={three}", "gizmos")
    with pytest.raises(ExploitError, match="policy-value files"):
        ExploitConfig(policy="greedy", game="gizmos").validate()
    assert main(["exploit", f"policy:path={tmp_path / 'none.pt'}", "--game", "gizmos"]) == 2
    assert capsys.readouterr().err.startswith("electrify exploit: error: policy: ")
