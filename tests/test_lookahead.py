"""The rollout lookahead of a policy file (``electrify_env.agents.net.RolloutLookahead``): its fields and
file, where the agent that plays it searches, and ``python -m electrify_env.training.ship --lookahead``."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from electrify_env.agents import make_agent
from electrify_env.agents.base import seat_view, top_actions
from electrify_env.agents.mcts import MCTSAgent
from electrify_env.agents.registry import _how_it_plays
from electrify_env import Game
from electrify_env.decision import pending_frame_type
from electrify_env.engine import layout as L
from electrify_env.envs import SEAT_ENV_ID, SOLO_ENV_ID
from electrify_env.envs._common import card_set_and_options
from electrify_env.agents.policy_meta import load_policy_metadata, policy_lookaheads, policy_needs_infoset
from electrify_env.training import ship as ship_mod
from electrify_env.agents.net import ARCH_SEARCH, PolicyValueNet, RolloutLookahead, load_policy, save_policy

CARDS, _ = card_set_and_options(None, ())
PLACING = ["place_sector", "place_slot", "card_choice"]


def test_lookahead_is_the_reference_search_and_checks_its_fields():
    """Its default weights and budget are those of ``mcts:iters=36:top_k=3:horizon=2`` (the
    greedy weights with deterministic rollouts); bad fields are refused by name."""
    la = RolloutLookahead(PLACING)
    ref = MCTSAgent(iters=36, top_k=3, horizon=2)
    assert np.array_equal(la.weights, ref.W) and (la.top_k, la.rollouts, la.horizon) == (3, 36, 2)
    for bad, match in (({"top_k": 1}, "top_k"), ({"rollouts": 0}, "rollouts"), ({"horizon": 0}, "horizon"),
                       ({"max_target": -1}, "max_target"), ({"weights": [1.0, 2.0]}, "weights")):
        with pytest.raises(ValueError, match=match):
            RolloutLookahead(PLACING, **bad)
    with pytest.raises(ValueError, match="unknown decision type"):
        RolloutLookahead(["place_everywhere"])
    with pytest.raises(ValueError, match="at least one"):
        RolloutLookahead([])
    with pytest.raises(ValueError, match="same decision types"):
        PolicyValueNet(2, [16], critic={"frames": ["acquire", "place_slot"]}, lookahead={"frames": ["place_slot"]})


def test_lookahead_round_trips_and_searches_only_at_its_types(tmp_path):
    """A file with a lookahead saves and loads it (``ARCH_SEARCH``, weights kept), says it reads
    the information set, and its agent departs from the policy's most likely action only at the
    lookahead's decision types, always for one of the policy's ``top_k`` candidates, which is
    the one the search over those candidates picks."""
    torch.manual_seed(0)
    net = PolicyValueNet(2, [16], prior="greedy", lookahead={"frames": ["place_sector"], "top_k": 2, "rollouts": 8})
    path = save_policy(net, tmp_path / "la.pt", CARDS.hash, SEAT_ENV_ID)
    back, meta = load_policy(path)
    assert meta["arch"]["arch"] == ARCH_SEARCH and meta["arch"]["critics"] == []
    assert [back.lookahead.config()] == [net.lookahead.config()] == policy_lookaheads(meta)
    assert policy_needs_infoset(load_policy_metadata(path))
    assert _how_it_plays(path).endswith("rollout lookahead on place_sector")
    agent = make_agent(f"net:path={path}")
    game, changed, placed = Game(2, seed=3), set(), 0
    while not game.is_terminal:
        view = seat_view(game)
        k = len(game.history)
        agent.reset(k)
        a = agent.act(view)
        agent.reset(k)                    # the same draws: the logits act ranked
        logits = agent.logits(view)
        f = pending_frame_type(view.infoset)
        if f == L.FT_PLACE_SECTOR and int(view.mask.sum()) > 1:
            placed += 1
            cands = top_actions(logits, 2)
            agent.reset(k)
            agent.logits(view)            # the prior's draw, then the search's
            seed = int(agent.rng.integers(1 << 62))
            assert a == back.lookahead.choose(view.infoset, view.table, int(view.seat), cands, seed)
        if a != int(np.argmax(logits)):
            changed.add(f)
        game.step(a)
    assert placed >= 3 and changed == {L.FT_PLACE_SECTOR}


def test_lookahead_max_target_limits_it_to_small_solo_targets():
    """With ``max_target`` the lookahead decides in solo games of a target at most that only."""
    net = PolicyValueNet(1, [8], lookahead={"frames": PLACING, "max_target": 20})
    small = seat_view(Game(seed=0, scenario="first_light")).infoset     # target 18
    large = seat_view(Game(seed=0, scenario="long_haul")).infoset       # target 33
    assert net.lookahead_for(L.FT_PLACE_SLOT, small) is net.lookahead
    assert net.lookahead_for(L.FT_PLACE_SLOT, large) is None
    assert net.lookahead_for(L.FT_ACQUIRE, small) is None
    assert PolicyValueNet(1, [8], lookahead={"frames": PLACING}).lookahead_for(L.FT_PLACE_SLOT, large) is not None


def test_ship_lookahead_drops_the_critics_it_replaces(tmp_path, capsys):
    """``electrify_env.training.ship --lookahead`` keeps the weights and the critics of other decision types,
    drops a critic of the lookahead's types and records both; an unknown type is a one-line
    error."""
    torch.manual_seed(1)
    net = PolicyValueNet(1, [16], prior="greedy", critic=[{"frames": ["acquire"], "hidden": 8},
                                                         {"frames": PLACING, "hidden": 4, "max_target": 20}])
    src = save_policy(net, tmp_path / "solo.pt", CARDS.hash, SOLO_ENV_ID, scenario="all")
    dest = tmp_path / "solo-la.pt"
    assert ship_mod.main([str(src), str(dest), "--lookahead", ",".join(PLACING), "--lookahead-horizon", "1"]) == 0
    out, meta = load_policy(dest)
    assert [c.frames for c in out.critics] == [["acquire"]] and out.lookahead.horizon == 1
    [added] = meta["lookahead_added"]
    assert added["dropped_critics"][0]["frames"] == PLACING and added["lookahead"]["frames"] == PLACING
    src_net, _ = load_policy(src)
    for k, v in out.state_dict().items():
        assert torch.equal(v, src_net.state_dict()[k])
    assert ship_mod.main([str(src), str(tmp_path / "bad.pt"), "--lookahead", "place_everywhere"]) == 2
    assert "unknown decision type 'place_everywhere'" in capsys.readouterr().err


def test_fitting_a_critic_takes_its_types_from_the_lookahead(tmp_path, capsys):
    """``acquire_critic fit`` on a policy with a lookahead keeps the lookahead for the decision
    types the new critic does not take, and says which it took."""
    from electrify_env.training import acquire_critic

    src = tmp_path / "2p-la.pt"
    assert ship_mod.main(["policies/electrify-2p.pt", str(src), "--lookahead", "acquire,place_sector"]) == 0
    data = tmp_path / "buy"
    acquire_critic.main(["collect", "--out", str(data), "--games", "1", "--ndet", "1", "--horizon", "1", "--seed", "1"])
    save = tmp_path / "fit.pt"
    acquire_critic.main(["fit", str(data), "--policy", str(src), "--epochs", "1", "--save", str(save)])
    assert "the critic takes acquire from" in capsys.readouterr().out
    net, _ = load_policy(save)
    assert [c.frames for c in net.critics] == [["acquire"]] and net.lookahead.frames == ["place_sector"]


def test_a_second_lookahead_decides_its_own_types_in_small_targets(tmp_path, capsys):
    """``ship --lookahead ... --lookahead-max-target`` adds a second lookahead beside the first:
    each decides its own types (the second only in solo games of a small target), and a type
    that a lookahead has already is refused."""
    torch.manual_seed(2)
    net = PolicyValueNet(1, [16], prior="greedy", lookahead={"frames": PLACING})
    src = save_policy(net, tmp_path / "one.pt", CARDS.hash, SOLO_ENV_ID, scenario="all")
    dest = tmp_path / "two.pt"
    assert ship_mod.main([str(src), str(dest), "--lookahead", "plan,fulfill", "--lookahead-max-target", "20"]) == 0
    two, meta = load_policy(dest)
    assert [la.frames for la in two.lookaheads] == [PLACING, ["plan", "fulfill"]]
    assert [a["lookahead"]["max_target"] for a in meta["lookahead_added"]] == [20]
    small = seat_view(Game(seed=0, scenario="steady_current")).infoset     # target 20
    large = seat_view(Game(seed=0, scenario="long_haul")).infoset          # target 33
    assert two.lookahead_for(L.FT_PLAN, small) is two.lookaheads[1] and two.lookahead_for(L.FT_PLAN, large) is None
    assert two.lookahead_for(L.FT_PLACE_SLOT, large) is two.lookaheads[0]
    assert _how_it_plays(dest).endswith("rollout lookaheads on place_sector, place_slot, card_choice; "
                                        "plan, fulfill (solo targets up to 20)")
    assert ship_mod.main([str(dest), str(tmp_path / "three.pt"), "--lookahead", "place_slot"]) == 2
    assert "same decision types" in capsys.readouterr().err
