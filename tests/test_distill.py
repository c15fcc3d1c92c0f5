"""``python -m training.distill``: a network alone learns the distribution of a policy that plays
with greedy's prior, on the states the student itself reaches."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from electrify_env.envs import SEAT_ENV_ID, SOLO_ENV_ID
from electrify_env.envs._common import card_set_and_options
from training import distill
from training.net import PolicyValueNet, load_policy, save_policy

CARDS, _ = card_set_and_options(None, ())


def _teacher(tmp_path, n_players: int = 2, name: str = "teacher.pt"):
    """A small network with greedy's prior (its head silent: the teacher is greedy's softmax)."""
    torch.manual_seed(0)
    net = PolicyValueNet(n_players, [16], prior="greedy")
    with torch.no_grad():
        net.pi.weight.zero_()
    return save_policy(net, tmp_path / name, CARDS.hash, SOLO_ENV_ID if n_players == 1 else SEAT_ENV_ID)


def _run(tmp_path, *extra):
    out = tmp_path / "out"
    distill.main(["--teacher", str(_teacher(tmp_path)), "--out", str(out), "--envs", "16", "--rollout", "1500",
                  "--decisions", "6000", "--eval-every", "6000", "--eval-games", "4", "--hidden", "32",
                  "--lr", "3e-3", "--no-progress", *extra])
    return out, [json.loads(line) for line in (out / "log.jsonl").read_text().splitlines()]


def test_the_student_learns_the_teachers_choices_and_is_saved_as_a_network_alone(tmp_path):
    """Over four rounds the student's agreement with the teacher at its own decisions rises from
    a fresh network's; the evaluated students are saved without a prior, with their lineage."""
    out, log = _run(tmp_path)
    rounds = [r for r in log if "round_end" in r]
    evals = [r for r in log if "win_rate" in r]
    assert len(rounds) == 4 and rounds[-1]["round_end"] >= 6000
    assert rounds[-1]["agreement"] > rounds[0]["agreement"] + 0.2
    assert rounds[-1]["ce"] < rounds[0]["ce"]
    assert [r["decisions"] for r in evals] == [0, rounds[-1]["round_end"]]
    net, meta = load_policy(evals[-1]["policy"])
    assert net.prior == "none" and not net.critics and net.hidden == [32]
    assert meta["distilled_from"]["path"].endswith("teacher.pt") and meta["steps"] == 0
    assert meta["imitation_steps"] == rounds[-1]["round_end"] and meta["env_steps"] >= meta["imitation_steps"]
    assert [(p["decisions"], p["win_rate"]) for p in meta["learning_curve"]] == [
        (r["decisions"], r["win_rate"]) for r in evals]
    assert meta["algorithm"].startswith("electrify distillation")


def test_a_student_started_from_a_policy_keeps_its_network_and_drops_its_prior(tmp_path):
    """``--init`` with a prior policy: the student starts as that network's head alone."""
    src, _ = load_policy(_teacher(tmp_path, name="init.pt"))
    student, path = distill.student_from(src, str(tmp_path / "init.pt"), None)
    assert path.endswith("init.pt") and student.prior == "none"
    for k, v in student.state_dict().items():
        assert torch.equal(v, src.state_dict()[k]), k


def test_bad_arguments_and_a_solo_teacher_are_refused(tmp_path):
    with pytest.raises(SystemExit):
        distill.main(["--explore", "2"])
    with pytest.raises(SystemExit):
        distill.main(["--rollout", "0"])
    with pytest.raises(SystemExit, match="solo policy"):
        distill.main(["--teacher", str(_teacher(tmp_path, 1)), "--out", str(tmp_path / "o"), "--no-progress"])


def test_agreement_benchmark_counts_the_students_decisions_by_type(tmp_path, capsys):
    """benchmarks/distill_agreement.py: a network against itself agrees everywhere; a fresh
    student does not, and the per-type lines add up to the total."""
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "distill_agreement.py"
    spec = importlib.util.spec_from_file_location("distill_agreement", path)
    distill_agreement = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(distill_agreement)

    torch.manual_seed(1)
    plain = save_policy(PolicyValueNet(2, [16]), tmp_path / "plain.pt", CARDS.hash, SEAT_ENV_ID)
    distill_agreement.main([str(plain), "--teacher", str(plain), "--games", "2"])
    first = capsys.readouterr().out.splitlines()
    assert "agreement 1.000" in first[0] and all("agreement 1.000" in line for line in first[1:])
    distill_agreement.main([str(plain), "--teacher", str(_teacher(tmp_path)), "--games", "2"])
    lines = capsys.readouterr().out.splitlines()
    total = int(lines[0].split(" decisions")[0].split(", ")[-1].replace(",", ""))
    assert total == sum(int(line.split()[1].replace(",", "")) for line in lines[1:]) > 0
    assert "agreement 1.000" not in lines[0]
