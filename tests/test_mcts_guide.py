"""``mcts:guide=...``: a trained policy picks the search's candidates (its top_k by logit) and
plays the unsearched moves; ``NetAgent.logits`` is what it ranks them by."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from electrify_env.agents import make_agent
from electrify_env.agents.base import AgentError, seat_view
from electrify_env import Game
from electrify_env.envs import SEAT_ENV_ID
from electrify_env.envs._common import card_set_and_options
from electrify_env.agents.net import PolicyValueNet, save_policy

CARDS, _ = card_set_and_options(None, ())


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    """A 2-player network without a prior (its logits are a function of the view alone), with
    logits large enough that its ranking is nothing like greedy's."""
    torch.manual_seed(0)
    net = PolicyValueNet(2, [16])
    with torch.no_grad():
        net.pi.weight.mul_(300.0)
    return save_policy(net, tmp_path_factory.mktemp("guide") / "g.pt", CARDS.hash, SEAT_ENV_ID)


def test_net_agent_logits_rank_what_it_plays(policy_file):
    agent = make_agent(f"net:path={policy_file}")
    game = Game(n_players=2, seed=4)
    for _ in range(120):
        view = seat_view(game, observation=True, infoset=True)
        lg = agent.logits(view)
        assert lg.shape == view.mask.shape and lg.dtype == np.float32
        assert np.all(np.isneginf(lg[view.mask == 0])) and np.all(np.isfinite(lg[view.mask != 0]))
        a = agent.act(view)
        assert a == int(np.argmax(lg))
        game.step(a)


def test_guided_mcts_searches_the_guides_top_k_and_plays_its_choice_elsewhere(policy_file):
    m = make_agent(f"mcts:iters=6:top_k=3:guide={policy_file}")
    assert m.needs_observation and m.needs_infoset and m.spec.endswith(f"guide={policy_file}")
    guide = make_agent(f"net:path={policy_file}")
    opp = make_agent("greedy")
    m.reset(1)
    opp.reset(2)
    seen: list[tuple[np.ndarray, np.ndarray]] = []
    search_among = m.search_among

    def spy(view, cands):
        seen.append((guide.logits(view), cands.copy()))
        return search_among(view, cands)

    m.search_among = spy
    game = Game(n_players=2, seed=8)
    unsearched = 0
    while not game.is_terminal:
        view = seat_view(game, observation=True, infoset=True)
        if game.current_player == 0:
            n_before = len(seen)
            a = m.act(view)
            assert view.mask[a]
            if len(seen) == n_before and np.count_nonzero(view.mask) > 1:
                assert a == int(np.argmax(guide.logits(view)))    # the guide's choice
                unsearched += 1
            game.step(a)
        else:
            game.step(opp.act(view))
    assert len(seen) >= 10 and unsearched >= 10
    for lg, cands in seen:
        legal = np.flatnonzero(np.isfinite(lg))
        top = legal[np.argsort(-lg[legal], kind="stable")][:3]
        assert list(cands) == list(top)


def test_guided_mcts_refuses_what_is_not_a_trained_policy(tmp_path):
    with pytest.raises(AgentError, match="not a trained policy"):
        make_agent("mcts:guide=greedy")
    with pytest.raises(AgentError, match="does not exist"):
        make_agent(f"mcts:guide={tmp_path / 'none.pt'}")
