"""``python -m electrify_env.training.distill``: a network alone learns the distribution of a policy that plays
with greedy's prior, on the states the student itself reaches."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from electrify_env.envs import SEAT_ENV_ID, SOLO_ENV_ID
from electrify_env.envs._common import card_set_and_options
from electrify_env.training import distill
from electrify_env.agents.net import PolicyValueNet, deepen, load_policy, save_policy

CARDS, _ = card_set_and_options(None, ())


def _teacher(tmp_path, n_players: int = 2, name: str = "teacher.pt"):
    """A small network with greedy's prior (its head silent: the teacher is greedy's softmax)."""
    torch.manual_seed(0)
    net = PolicyValueNet(n_players, [16], prior="greedy")
    with torch.no_grad():
        net.pi.weight.zero_()
    return save_policy(net, tmp_path / name, CARDS.hash, SOLO_ENV_ID if n_players == 1 else SEAT_ENV_ID)


def _run(tmp_path, *extra, teacher=None):
    out = tmp_path / "out"
    distill.main(["--teacher", str(teacher or _teacher(tmp_path)), "--out", str(out), "--envs", "16", "--rollout", "1500",
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


def test_deepen_inserts_identity_layers_that_change_nothing_until_trained():
    """``deepen`` gives the same logits and values as the network it copies, whatever the input,
    for layers inserted after any layer; the inserted layers are identities; sizes that are not
    the old ones with such layers inserted are refused."""
    torch.manual_seed(3)
    src = PolicyValueNet(2, [24, 12])
    x = torch.randn(32, src.n_inputs) * 3
    mask = torch.rand(32, src.pi.out_features) < 0.5
    mask[:, 0] = True
    for hidden in ([24, 24, 12], [24, 12, 12], [24, 24, 24, 12, 12], [24, 12]):
        deep = deepen(src, hidden)
        assert deep.hidden == hidden and deep.prior == "none"
        for a, b in zip(src(x, mask), deep(x, mask)):
            assert torch.equal(a, b), hidden
    deep = deepen(src, [24, 24, 12])
    assert torch.equal(deep.trunk[2].weight, torch.eye(24)) and not deep.trunk[2].bias.any()
    for bad in ([24, 13, 12], [12, 24], [24], [24, 12, 24], [12, 12, 24, 12]):
        with pytest.raises(ValueError, match="cannot deepen"):
            deepen(src, bad)


def test_a_student_deepened_from_its_init_learns_and_is_saved_with_its_new_sizes(tmp_path):
    """``--init`` with deeper ``--hidden``: the run starts from the init's function (the same
    evaluation at 0 decisions, when the init plays as saved) and trains the inserted layer."""
    torch.manual_seed(1)
    init = save_policy(PolicyValueNet(2, [32]), tmp_path / "init.pt", CARDS.hash, SEAT_ENV_ID)
    teacher, _ = load_policy(_teacher(tmp_path))
    student, _ = distill.student_from(teacher, str(init), [32, 32])
    assert student.hidden == [32, 32]
    out, log = _run(tmp_path, "--init", str(init), "--hidden", "32", "32")
    evals = [r for r in log if "win_rate" in r]
    first, _ = load_policy(evals[0]["policy"])
    last, meta = load_policy(evals[-1]["policy"])
    assert first.hidden == last.hidden == [32, 32] and meta["arch"]["hidden"] == [32, 32]
    assert torch.equal(first.trunk[2].weight, torch.eye(32))
    assert not torch.equal(last.trunk[2].weight, torch.eye(32))


def test_bad_arguments_and_a_solo_teacher_are_refused(tmp_path):
    with pytest.raises(SystemExit):
        distill.main(["--explore", "2"])
    with pytest.raises(SystemExit):
        distill.main(["--rollout", "0"])
    with pytest.raises(SystemExit, match="solo policy"):
        distill.main(["--teacher", str(_teacher(tmp_path, 1)), "--out", str(tmp_path / "o"), "--no-progress"])


def test_the_teachers_critic_labels_the_decisions_it_takes_as_its_agent_plays_them():
    """``critic_picks``: the rows at an acquire decision (two or more legal actions) and, in each,
    the candidate the critic scores best among the teacher's three most likely actions, from the
    afterstates of one determinization of the mover's information set: the same afterstates
    (``mover_afterstate_observations``) and the same choice (``critic_choice``) as the agent that
    plays the file (scrub, then ``afterstate_observations``), row by row."""
    from electrify_env.agents.base import top_actions
    from electrify_env.decision import pending_frame_type
    from electrify_env.engine import layout as L
    from electrify_env.kernels.afterstate import afterstate_observations, mover_afterstate_observations
    from electrify_env.engine.infoset import scrub
    from electrify_env.engine.observe import OBS_SIZE
    from electrify_env.agents.net import compute_prior, critic_choice
    from electrify_env.training.selfplay import Games, greedy_act, greedy_weights

    torch.manual_seed(0)
    net = PolicyValueNet(2, [16], prior="greedy", critic={"frames": ["acquire"], "top_k": 3, "hidden": 8})
    with torch.no_grad():
        net.critic.mlp[2].weight.normal_()   # a critic with opinions of its own
    net.eval()
    n, n_in = 24, net.n_inputs
    games = Games(n, 2, *card_set_and_options(None, ()), None, np.arange(n, dtype=np.int64))
    rng, W = np.random.default_rng(0), greedy_weights()
    info, det, work, row = (np.empty(L.S_SIZE, np.int64), np.empty(L.S_SIZE, np.int64),
                            np.empty(L.S_SIZE, np.int64), np.zeros(OBS_SIZE, np.float32))
    checked, overruled = 0, 0
    for _step in range(120):
        m = games.masks.view(np.bool_)
        pr = compute_prior(net, games.States, games.T, np.arange(n), rng)
        with torch.inference_mode():
            tl = net(torch.from_numpy(games.obs[:, :n_in]), torch.from_numpy(m), torch.from_numpy(pr))[0].numpy()
        legal_n = m.sum(1)
        rows, picks = distill.critic_picks(net, games, tl, legal_n, np.random.default_rng(7))
        expected = [r for r in range(n) if pending_frame_type(games.States[r]) == L.FT_ACQUIRE and legal_n[r] >= 2]
        assert rows.tolist() == expected
        seeds = np.random.default_rng(7).integers(0, 1 << 62, rows.size, dtype=np.int64)
        for j, r in enumerate(rows):
            S = games.States[r]
            cands = top_actions(np.where(m[r], tl[r], -np.inf).astype(np.float32), 3)
            scrub(S, games.T, S[L.S_CUR], info)
            after = np.zeros((len(cands), n_in), np.float32)
            afterstate_observations(info, games.T, games.FF, S[L.S_CUR], seeds[j], cands, np.int64(len(cands)),
                                    np.int64(n_in), det, work, row, after)
            batch = np.zeros((1, 3, n_in), np.float32)
            mover_afterstate_observations(games.States, games.T, games.FF, rows[j:j + 1], cands[None].copy(),
                                          np.array([len(cands)], np.int64), seeds[j:j + 1], np.int64(n_in), batch)
            assert np.array_equal(batch[0, :len(cands)], after)
            with torch.inference_mode():
                assert picks[j] == cands[critic_choice(net, after, tl[r][cands], net.critic)]
            checked += 1
            overruled += int(picks[j] != cands[0])
        games.step(greedy_act(games, np.arange(n), W, rng))
    assert checked >= 40 and overruled >= 5


@pytest.mark.parametrize("weight", [0.6, 0.0])
def test_a_teacher_with_a_critic_labels_with_it_unless_its_weight_is_zero(tmp_path, weight):
    """The rounds count the decisions the teacher's critic labelled: some with ``--critic-weight``
    0.6 (the default), none with 0."""
    torch.manual_seed(0)
    net = PolicyValueNet(2, [16], prior="greedy", critic={"frames": ["acquire"], "top_k": 3, "hidden": 8})
    teacher = save_policy(net, tmp_path / "critic.pt", CARDS.hash, SEAT_ENV_ID)
    _, log = _run(tmp_path, "--critic-weight", str(weight), teacher=teacher)
    counts = [r["critic_decisions"] for r in log if "round_end" in r]
    assert len(counts) == 4 and (min(counts) > 0 if weight else max(counts) == 0)


def test_as_saved_is_the_network_its_file_plays(tmp_path):
    """``as_saved``: the weights ``save_policy`` stores (float16) and ``load_policy`` reads back,
    so an evaluation before saving plays what ships; the network itself is left as it was."""
    from electrify_env.agents.net import as_saved

    torch.manual_seed(3)
    net = PolicyValueNet(2, [64, 32], critic={"frames": ["acquire"], "top_k": 3, "hidden": 8})
    with torch.no_grad():
        net.critic.mlp[2].weight.normal_()
    before = {k: v.clone() for k, v in net.state_dict().items()}
    rounded = as_saved(net)
    loaded, _ = load_policy(save_policy(net, tmp_path / "n.pt", CARDS.hash, SEAT_ENV_ID))
    changed = 0
    for k, v in loaded.state_dict().items():
        assert torch.equal(rounded.state_dict()[k], v), k
        assert torch.equal(net.state_dict()[k], before[k]), k
        changed += int(not torch.equal(before[k], v))
    assert changed > 0


def test_the_critics_decisions_can_weigh_more_in_the_loss(tmp_path):
    """``--critic-loss-weight``: a seeded run repeats itself exactly; the same run with the
    critic's decisions counted 8 times trains to another student (the weights enter the loss),
    and a weight of 0 is refused."""
    torch.manual_seed(0)
    net = PolicyValueNet(2, [16], prior="greedy", critic={"frames": ["acquire"], "top_k": 3, "hidden": 8})
    teacher = save_policy(net, tmp_path / "critic.pt", CARDS.hash, SEAT_ENV_ID)
    students = []
    for i, w in enumerate(("1", "1", "8")):
        sub = tmp_path / f"{i}"
        sub.mkdir()
        _, log = _run(sub, "--critic-loss-weight", w, "--seed", "4", teacher=teacher)
        students.append(load_policy([r for r in log if "policy" in r][-1]["policy"])[0].state_dict())
    assert all(torch.equal(v, students[1][k]) for k, v in students[0].items())
    assert any(not torch.equal(v, students[2][k]) for k, v in students[0].items())
    with pytest.raises(SystemExit):
        distill.main(["--critic-loss-weight", "0"])
