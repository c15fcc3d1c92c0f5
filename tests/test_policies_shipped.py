"""Every shipped policy (``policies/electrify-*.pt``) loads, fits this engine, is registered by
name, is small, has its model card, and beats the random agent in a few seeded games."""
from __future__ import annotations

import json

import numpy as np
import pytest

from electrify_env.agents import AGENTS, make_agent
from electrify_env.agents.arena import ArenaConfig, run_arena
from electrify_env.agents.registry import POLICY_DIR, SHIPPED, SHIPPED_KINDS
from electrify_env import Game
from electrify_env.agents.policy_meta import load_policy_metadata
from electrify_env.agents.net import load_policy

NAMES = {1: "trained_solo", 2: "trained_2p", 3: "trained_3p", 4: "trained_4p"}
PRESENT = {n: POLICY_DIR / f for n, f in SHIPPED.items() if (POLICY_DIR / f).is_file()}
PLAYERS = {"trained_solo": 1, "trained_2p": 2, "trained_2p_net": 2, "trained_3p": 3, "trained_4p": 4}
FILES = {name: POLICY_DIR / f for name, _, f, _ in SHIPPED_KINDS if (POLICY_DIR / f).is_file()}
MAX_BYTES = 5 * 1024 * 1024


def test_the_required_policies_are_shipped():
    """At least a 2-player, a 4-player and the solo policy are shipped."""
    assert {1, 2, 4} <= set(PRESENT), f"shipped: {sorted(PRESENT)}"


def test_every_policy_file_is_a_registered_agent():
    assert sorted(p.name for p in POLICY_DIR.glob("electrify-*.pt")) == sorted(p.name for p in FILES.values())
    assert set(FILES) <= set(PLAYERS)


@pytest.mark.parametrize("name", sorted(FILES))
def test_shipped_policy_fits_and_is_documented(name):
    path, players = FILES[name], PLAYERS[name]
    assert path.stat().st_size <= MAX_BYTES
    meta = load_policy_metadata(path)
    for key in ("obs_version", "obs_size", "card_set_hash", "env_id", "n_players", "steps", "imitation_steps",
                "train_seconds", "config", "learning_curve", "arch", "algorithm", "evaluation"):
        assert key in meta, key
    assert meta["n_players"] == players
    assert meta["card_set_hash"] == Game(2 if players == 1 else players).cards.hash
    net, _ = load_policy(path, card_set_hash=Game(2).cards.hash, n_players=players)
    assert net.n_players == players
    card = (POLICY_DIR / f"{path.name[:-3]}.md").read_text()     # its model card
    assert path.name in card and name in card
    # the card's description of the network is the file's
    assert f"hidden layers {meta['arch']['hidden']}" in card and f"over the {meta['n_actions']} action ids" in card
    assert name in AGENTS
    assert ("greedy prior" in AGENTS[name].doc) == (net.prior == "greedy")
    json.dumps(meta)   # plain JSON


@pytest.mark.parametrize("name", sorted(n for n in FILES if PLAYERS[n] > 1))
def test_shipped_policy_beats_random(name):
    players = PLAYERS[name]
    agents = [name] + ["random"] * (players - 1)
    res = run_arena(ArenaConfig(agents=agents, players=players, games=2 * players, seed=3, out=None,
                                progress=False))
    row = next(a for a in res["summary"]["agents"] if a["agent"] == name)
    assert row["win_rate"] >= 0.75, row
    assert row["ms_per_move"] < 20


@pytest.mark.skipif(1 not in PRESENT, reason="no shipped solo policy")
def test_shipped_solo_policy_beats_random():
    res = run_arena(ArenaConfig(agents=["trained_solo", "random"], solo=["first_light", "blackout"], games=3,
                                seed=3, out=None, progress=False))
    rows = res["summary"]["solo"]
    mine = np.mean([r["mean_final_score"] for r in rows if r["agent"] == "trained_solo"])
    rnd = np.mean([r["mean_final_score"] for r in rows if r["agent"] == "random"])
    assert mine > rnd + 5, (mine, rnd)


@pytest.mark.skipif(2 not in PRESENT, reason="no shipped 2-player policy")
def test_trained_picks_the_policy_of_the_player_count():
    agent = make_agent("trained")
    game = Game(2, seed=4)
    agent.reset(0)
    a = agent.act_in(game)
    assert game.legal_mask()[a]
    if 1 not in PRESENT:
        return
    solo = Game(seed=4, scenario="first_light")
    assert solo.legal_mask()[agent.act_in(solo)]
