"""Random playouts with invariants, determinism, golden replays, jit/no-jit agreement and bad
input handling."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from electrify_env import Game
from electrify_env.cards import load_card_set
from electrify_env.engine import layout as L
from electrify_env.engine.invariants import INVARIANT_MESSAGES, checked_random_game
from electrify_env.soak import soak

GOLDEN = Path(__file__).resolve().parent / "golden"
sys.path.insert(0, str(GOLDEN))
from make_golden import AGENT_FEATURES, CASES, new_game, play, state_digest, trace  # noqa: E402

GOLDEN_FILES = sorted(GOLDEN.glob("replay_*.json"))


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_playouts_keep_invariants_after_every_step(n):
    res = soak(300, players=(n,), seed=10_000 * n, progress=False)
    assert res.ok, res.failures[:5]
    assert res.decisions > 300 * 100


@pytest.mark.parametrize("n", [2, 4])
def test_python_api_playout_keeps_invariants(n):
    g = Game(n_players=n, seed=n)
    rng = np.random.default_rng(n)
    steps = 0
    while not g.is_terminal:
        legal = g.legal_actions()
        assert len(legal) > 0
        b = g.state
        hand_sizes = [b[L.S_PLAYERS + p * L.P_SIZE + L.P_HAND_N] for p in range(n)]
        assert max(hand_sizes) <= 9
        g.step(int(rng.choice(legal)))
        g.check_invariants()
        steps += 1
    assert g.round == 12 and steps < 20_000


def test_invariant_checker_catches_a_lost_card():
    g = Game(2, seed=0)
    g.state[L.S_DECK_N] -= 1  # a card vanishes from the production deck
    with pytest.raises(AssertionError, match="created or lost"):
        g.check_invariants()


def test_checked_game_reports_codes():
    cards = load_card_set()
    S = np.zeros(L.S_SIZE, dtype=np.int64)
    mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
    code, k = checked_random_game(S, cards.table, np.zeros(L.SC_SIZE, np.int64), mask, np.int64(3), np.int64(5), np.int64(0), np.int64(50_000), True)
    assert code == 0 and k > 0
    code, _ = checked_random_game(S, cards.table, np.zeros(L.SC_SIZE, np.int64), mask, np.int64(3), np.int64(5), np.int64(0), np.int64(10), False)
    assert INVARIANT_MESSAGES[int(code)].startswith("the game did not end")


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_replay(path):
    """Replaying the recorded actions gives the recorded playthrough step by step (the first
    differing step is reported), the final state, scores, winners and rule counts."""
    data = json.loads(path.read_text())
    assert new_game(data).cards.hash == data["card_set_hash"], (
        "the card set changed; if intended, regenerate with python tests/golden/make_golden.py")
    g, lines, counts = trace(data)
    assert g.is_terminal
    same_state = state_digest(g) == data["final_state_sha256"]
    want = path.with_suffix(".txt").read_text().splitlines()
    for k, (got, exp) in enumerate(zip(lines, want)):
        if got != exp:
            why = ("the final state still matches: only the wording changed (if intended: "
                   "python tests/golden/make_golden.py --text)" if same_state else
                   "the game differs from here on (if a rule change is intended: "
                   "python tests/golden/make_golden.py)")
            pytest.fail(f"{path.with_suffix('.txt').name} line {k + 1} differs; {why}\n"
                        f"expected: {exp}\n     got: {got}")
    assert len(lines) == len(want)
    assert same_state
    assert g.scores().tolist() == data["scores"] and g.winners() == data["winners"]
    assert counts == data["features"]


def test_golden_agent_games_exercise_the_deep_rules():
    """The greedy and mcts replays reach what the random ones do not: priority rewards, arrow
    charges and chains, flips, clean tokens, breakthroughs, demands; solo stars and challenges;
    the tech packs' discard multiplier."""
    games = [json.loads(p.read_text()) for p in GOLDEN_FILES]
    agent_games = [d for d in games if d.get("agents")]
    assert len(agent_games) >= 6
    assert {d["n_players"] for d in agent_games} == {1, 2, 3, 4}
    assert any("mcts" in " ".join(d["agents"]) for d in agent_games)
    for d in agent_games:
        f = d["features"]
        assert all(f[k] > 0 for k in AGENT_FEATURES), (d["agents"], d["seed"], f)
        assert max(d["scores"]) >= 18
    assert sum(d["features"]["chains"] > 0 for d in agent_games) >= 4
    solo = [d for d in agent_games if d["scenario"]]
    assert len(solo) >= 2 and all(d["features"]["stars"] > 0 and d["features"]["challenges_met"] > 0
                                  for d in solo)
    tech = [d for d in agent_games if d["tech_packs"]]
    assert len(tech) >= 2 and sum(d["features"]["discard_multiplier_cards"] for d in tech) > 0
    random_games = [d for d in games if not d.get("agents")]
    assert max(max(d["scores"]) for d in random_games) <= 3   # why the agent games are needed


def test_golden_files_exist():
    want = {f"replay_{c.name}{ext}" for c in CASES for ext in (".json", ".txt")}
    assert {p.name for p in GOLDEN.glob("replay_*")} == want


def test_jit_and_no_jit_runs_agree():
    """The slow path is the same code with NUMBA_DISABLE_JIT=1; both must give the same games."""
    code = ("import sys; sys.path.insert(0, %r); from make_golden import play, state_digest;"
            "print(*[state_digest(play(n, s)) for n, s in [(2, 7), (4, 8)]])") % str(GOLDEN)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == [state_digest(play(2, 7)), state_digest(play(4, 8))]


@pytest.mark.parametrize("bad", [0, 1, 5, -2, 2.0, "3", True])
def test_bad_player_counts_are_refused(bad):
    with pytest.raises(ValueError, match="n_players"):
        Game(n_players=bad)


@pytest.mark.parametrize("bad", [-1, 2 ** 62, 1.5, "7", None])
def test_bad_seeds_are_refused(bad):
    with pytest.raises(ValueError, match="seed"):
        Game(n_players=2, seed=bad)


def test_illegal_action_after_the_end_is_refused():
    g = play(2, 3)
    with pytest.raises(ValueError, match="over"):
        g.step(0)


def test_save_with_another_card_set_or_version_is_refused(tmp_path):
    g = Game(2, seed=1)
    data = g.to_dict()
    data["card_set"]["hash"] = "0" * 64
    with pytest.raises(ValueError, match="card set differs"):
        Game.from_dict(data)
    data = g.to_dict()
    data["state_version"] = 999
    with pytest.raises(ValueError, match="not supported"):
        Game.from_dict(data)
    with pytest.raises(ValueError, match="not an electrify game"):
        Game.from_dict({"format": "chess"})


def test_describe_every_legal_action_in_a_game():
    g = Game(3, seed=4)
    rng = np.random.default_rng(4)
    while not g.is_terminal:
        assert g.pending()
        for a in g.legal_actions():
            text = g.describe_action(int(a))
            assert text and "reserved" not in text and "not an action" not in text
        g.step(int(rng.choice(g.legal_actions())))
    assert "game over" in g.render()
    assert "not an action id" in g.describe_action(L.N_ACTIONS)


@pytest.mark.parametrize("source", ["random_4p", "replay_mcts_greedy_4p_seed141", "replay_greedy_tech_3p_seed243"])
def test_observation_shape_names_and_range(source):
    """Every seat's observation at every decision of a random game and of two agent games (deep
    positions: high scores, full sectors, flipped tiles) is a finite float32 vector of
    ``OBS_SIZE`` named entries clipped to [0, 1]."""
    names = Game.feature_names()
    assert len(names) == len(set(names)) == Game.OBS_SIZE
    if source == "random_4p":
        g, rng = Game(4, seed=2), np.random.default_rng(2)
        actions = None
    else:
        data = json.loads((GOLDEN / f"{source}.json").read_text())
        g, actions = new_game(data), data["actions"]
    lo, hi, k = np.inf, -np.inf, 0
    while not g.is_terminal:
        for p in range(g.n_players):
            o = g.observe(p)
            assert o.dtype == np.float32 and o.shape == (Game.OBS_SIZE,)
            assert np.isfinite(o).all()
            if o.min() < lo or o.max() > hi:
                lo, hi = min(lo, float(o.min())), max(hi, float(o.max()))
                assert 0.0 <= lo and hi <= 1.0, (k, p, names[int(np.argmin(o))], names[int(np.argmax(o))])
        g.step(int(rng.choice(g.legal_actions())) if actions is None else actions[k])
        k += 1
    assert lo == 0.0 and hi == 1.0   # clipped to [0, 1], and both ends are reached


@pytest.mark.parametrize("scenario", ["first_light", "steady_current", "green_shoots", "research_grant",
                                      "long_haul", "peak_load", "blackout", "net_zero"])
def test_solo_playouts_keep_invariants_and_star_accounting(scenario):
    res = soak(60, seed=7, scenarios=[scenario], progress=False)
    assert res.ok, res.failures[:5]


@pytest.mark.parametrize("packs", [("grid",), ("market",), ("grid", "market")])
def test_tech_pack_playouts_keep_invariants(packs):
    from electrify_env.game import resolve_tech_pack
    cards = load_card_set(None, tech_packs=tuple(resolve_tech_pack(p) for p in packs))
    res = soak(150, players=(2, 3, 4), seed=99, card_set=cards, progress=False)
    assert res.ok, res.failures[:5]


def test_star_accounting_check_catches_a_late_claim():
    from electrify_env.engine.invariants import check_star_transition
    g = Game(scenario="first_light", seed=0)
    S = g.state
    before = S[L.S_STAR_STATE:L.S_STAR_STATE + L.MAX_SCENARIO_STARS].copy()
    S[L.S_ROUND] = S[L.S_STAR_ROUND]          # the marker reached the first star
    S[L.S_STAR_STATE] = 1                     # and it is claimed now: too late
    assert check_star_transition(S, before) == 13
    before2 = before.copy()
    S[L.S_STAR_STATE] = 2
    S[L.S_ROUND] = 0
    assert check_star_transition(S, before2) == 14


def test_solo_games_save_load_and_replay(tmp_path):
    rng = np.random.default_rng(1)
    g = Game(scenario="peak_load", seed=4, tech_packs=("grid",))
    for _ in range(60):
        g.step(int(rng.choice(g.legal_actions())))
    assert not g.is_terminal
    g.save(tmp_path / "solo.json")
    h = Game.load(tmp_path / "solo.json")
    assert h.same_as(g) and h.scenario.id == "peak_load" and h.cards.pack_names == g.cards.pack_names
    while not g.is_terminal:
        a = int(rng.choice(g.legal_actions()))
        g.step(a)
        h.step(a)
    assert h.same_as(g) and h.solo_result() == g.solo_result()
    r = Game.replay(g.history, seed=4, scenario="peak_load", tech_packs=("grid",))
    assert r.same_as(g)


@pytest.mark.parametrize("players,packs,scenario", [(2, (), None), (4, ("grid", "market"), None),
                                                    (1, (), "net_zero")])
def test_points_by_source_add_up_to_the_score(players, packs, scenario):
    """The engine counts every energy point by its source as it is awarded: in greedy games the
    sources add up to each player's score, demand cards and the research track both score, and a
    solo game adds the star points to reach its final score."""
    from electrify_env.agents import make_agent

    agents = [make_agent("greedy") for _ in range(players)]
    for seed in range(2):
        g = Game(n_players=players, seed=seed, tech_packs=packs, scenario=scenario)
        while not g.is_terminal:
            g.step(agents[g.current_player].act_in(g))
        rows = g.points_by_source()
        for p, row in enumerate(rows):
            assert sum(row[k] for k in L.PTS_SOURCE_NAMES) == g.scores()[p]
        total = {k: sum(r[k] for r in rows) for k in L.PTS_SOURCE_NAMES}
        assert total["demand_basic"] + total["demand_priority"] > 0
        assert scenario or total["research_group"] > 0       # research scores only through group bonuses
        if scenario:
            assert rows[0]["solo_stars"] == g.solo_result()["star_points"]
