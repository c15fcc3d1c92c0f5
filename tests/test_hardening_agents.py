"""Hostile inputs to the agents, the arena and the replays: every agent parameter finite and in range, the arena checks its
output folder, scenarios, tech packs and policies before the first game, scenario files work
in a solo arena, and folders or corrupt files give one-line errors naming the file."""
from __future__ import annotations

import inspect
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from electrify_env.agents import AGENTS, AgentError, describe_agents, make_agent, parse_spec
from electrify_env.agents import arena as A
from electrify_env.agents.arena import ArenaConfig, run_arena
from electrify_env.agents.mcts import MCTSAgent
from electrify_env.agents.replay import ReplayError, check_record, load_replay, replay_game
from electrify_env import Game
from electrify_env.cli import main as cli_main
from electrify_env.agents.policy_meta import (
    PolicyMismatchError, check_compatible, load_policy_metadata, meta_path, policy_metadata,
    policy_players,
)
from electrify_env.scenarios import SCENARIOS_DIR

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def no_games(monkeypatch):
    """Make the arena fail loudly if it starts playing: the checks must come first."""
    def refuse(*args, **kwargs):
        raise AssertionError("the arena started playing before refusing the configuration")

    monkeypatch.setattr(A, "play_tasks", refuse)


def _arena(**kw) -> dict:
    kw.setdefault("games", 2)
    kw.setdefault("progress", False)
    kw.setdefault("out", None)
    return run_arena(ArenaConfig(**kw))


# ---- defect 5: agent parameters ---------------------------------------------------------------
@pytest.mark.parametrize("spec", ["mcts:ms=inf", "mcts:ms=nan", "mcts:c=nan", "mcts:c=inf",
                                  "mcts:c=-inf", "mcts:skip_margin=nan", "mcts:explore=nan",
                                  "mcts:ms=1e400"])
def test_non_finite_agent_parameters_are_refused(spec):
    key = spec.split(":")[1].split("=")[0]
    with pytest.raises(AgentError, match=f"agent 'mcts': parameter {key}=.* must be a finite number"):
        parse_spec(spec)


@pytest.mark.parametrize("spec,msg", [
    ("mcts:iters=0", "iters=0 must lie in \\[1, 1000000\\]"),
    ("mcts:iters=99999999999999999999999", "must lie in \\[1, 1000000\\]"),
    ("mcts:ms=-1", "ms=-1.0 must lie in \\[0, 60000\\]"),
    ("mcts:ms=1e9", "ms=1000000000.0 must lie in \\[0, 60000\\]"),
    ("mcts:horizon=13", "horizon=13 must lie in \\[1, 12\\]"),
    ("mcts:top_k=0", "top_k=0 must lie in"),
    ("mcts:c=11", "c=11.0 must lie in \\[0, 10\\]"),
    ("mcts:explore=1.5", "explore=1.5 must lie in \\[0, 1\\]"),
    ("mcts:skip_margin=-0.5", "skip_margin=-0.5 must lie in"),
    ("mcts:search=deep", "search='deep' is not one of core, key, all"),
    ("ppo:deterministic=maybe", "deterministic='maybe' is not a valid bool"),
])
def test_agent_parameters_out_of_range_are_refused_by_the_registry(spec, msg):
    with pytest.raises(AgentError, match=msg):
        parse_spec(spec)


def test_every_numeric_parameter_has_a_finite_range():
    for name, kind in AGENTS.items():
        for key, p in kind.params.items():
            if p.type in (int, float):
                assert p.minimum is not None and p.maximum is not None, (name, key)
                assert np.isfinite([p.minimum, p.maximum]).all() and p.minimum <= p.maximum
                too_big = p.maximum + 1 if p.type is int else p.maximum * 2 + 1
                with pytest.raises(AgentError, match=f"parameter {key}="):
                    parse_spec(f"{name}:{key}={too_big}")


def test_directly_constructed_agents_are_checked_like_specs():
    with pytest.raises(AgentError, match="ms=inf must be a finite number"):
        MCTSAgent(ms=float("inf"))
    with pytest.raises(AgentError, match="c=nan must be a finite number"):
        MCTSAgent(c=float("nan"))
    with pytest.raises(AgentError, match="iters=2.5 must be an int"):
        MCTSAgent(iters=2.5)
    with pytest.raises(AgentError, match="iters=True must be an int"):
        MCTSAgent(iters=True)
    with pytest.raises(AgentError, match="method='tree' is not one of paired, ucb"):
        MCTSAgent(method="tree")
    m = MCTSAgent(iters=np.int64(3), ms=np.float32(0), c=1)
    assert (m.iters, m.ms, m.c) == (3, 0.0, 1.0) and type(m.iters) is int


def test_registry_defaults_are_the_agent_signatures():
    """Each parameter's default has one home, the agent's signature; the registry's parameter
    list and the signature name the same parameters."""
    for name, kind in AGENTS.items():
        sig = inspect.signature(kind.load().__init__)
        names = [k for k in sig.parameters if k != "self"]
        assert sorted(names) == sorted(kind.params), name
        assert kind.defaults() == {k: sig.parameters[k].default for k in names}
    assert AGENTS["mcts"].defaults()["iters"] == 48
    text = describe_agents()
    assert "iters (int, default 48, range [1, 1000000])" in text
    assert "search (str, default 'key', one of core, key, all)" in text


def test_cli_arena_refuses_an_endless_time_budget_before_playing(no_games, capsys):
    assert cli_main(["arena", "--agents", "mcts:ms=inf,random", "--games", "2", "--out", "-",
                     "--quiet"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == "electrify: error: agent 'mcts': parameter ms=inf must be a finite number"


def test_weights_files_with_non_finite_weights_are_refused(tmp_path):
    text = (REPO / "configs" / "agents" / "greedy.yaml").read_text()
    bad = tmp_path / "w.yaml"
    bad.write_text(text.replace("score: 1.0", "score: .nan", 1))
    with pytest.raises(AgentError, match=f"{bad}: weight\\(s\\) score must be finite numbers"):
        make_agent(f"greedy:weights={bad}")
    with pytest.raises(AgentError, match="is not a file"):
        make_agent(f"greedy:weights={tmp_path}")
    bad.write_bytes(b"\xff\xfe\x00 binary")
    with pytest.raises(AgentError, match="not a text file"):
        make_agent(f"greedy:weights={bad}")


# ---- defect 7: the arena checks --out before the games ----------------------------------------
def test_arena_out_that_is_a_file_is_refused_before_any_game(tmp_path, no_games, capsys):
    f = tmp_path / "results"
    f.write_text("not a folder")
    with pytest.raises(ValueError, match=f"out: {f} is a file, not a folder"):
        _arena(agents=["random", "random"], out=str(f))
    with pytest.raises(ValueError, match=f"out: cannot write to the folder {f / 'sub'}"):
        _arena(agents=["random", "random"], out=str(f / "sub"))
    d = tmp_path / "d"
    (d / "games.jsonl").mkdir(parents=True)
    with pytest.raises(ValueError, match="games.jsonl is a folder"):
        _arena(agents=["random", "random"], out=str(d))
    assert cli_main(["arena", "--agents", "random,greedy", "--games", "2", "--out", str(f),
                     "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a file, not a folder" in err


def test_arena_refuses_bad_tech_packs_seeds_and_empty_solo_before_any_game(no_games):
    with pytest.raises(ValueError, match="nope"):
        _arena(agents=["random", "random"], tech_packs=["nope"])
    with pytest.raises(ValueError, match="seed must be an integer 0..2\\*\\*62-1"):
        _arena(agents=["random", "random"], seed=-1)
    with pytest.raises(ValueError, match="games must be a positive integer"):
        _arena(agents=["random", "random"], games=-4)
    with pytest.raises(ValueError, match="solo: give scenario ids"):
        _arena(agents=["random"], solo=[])
    with pytest.raises(AgentError, match="greedy weights file .* does not exist"):
        _arena(agents=["random", "greedy:weights=/nonexistent/w.yaml"])


# ---- defect 7: arena --solo FILE.yaml -------------------------------------------------------
def test_solo_arena_plays_a_scenario_file_and_replays_it(tmp_path, capsys):
    scen = tmp_path / "my_scenario.yaml"
    shutil.copy(SCENARIOS_DIR / "first_light.yaml", scen)
    out = tmp_path / "out"
    res = _arena(agents=["random"], solo=[str(scen)], games=2, out=str(out))
    rows = res["summary"]["solo"]
    assert [(r["scenario"], r["games"]) for r in rows] == [(str(scen.resolve()), 2)]
    ref = _arena(agents=["random"], solo=["first_light"], games=2)   # the same scenario by id
    assert [(r["seed"], r["actions"], r["scores"]) for r in res["records"]] == \
        [(r["seed"], r["actions"], r["scores"]) for r in ref["records"]]
    rec = load_replay(out / "games.jsonl", game=1)
    g = replay_game(rec)
    assert g.is_terminal and g.is_solo and list(g.scores()) == rec["scores"]
    # the CLI, as `demo --solo` and `soak --solo` take a file
    assert cli_main(["arena", "--agents", "random", "--solo", f"{scen}, first_light", "--games", "1",
                     "--out", "-", "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "my_scenario.yaml" in text and "first_light" in text
    missing = tmp_path / "nope.yaml"
    assert cli_main(["arena", "--agents", "random", "--solo", str(missing), "--games", "1",
                     "--out", "-", "--quiet"]) == 2
    assert "nope.yaml: file not found" in capsys.readouterr().err


# ---- defect 7: replays of folders and broken files -------------------------------------------
def test_replay_of_a_folder_gives_one_line_naming_it(tmp_path, capsys):
    assert cli_main(["replay", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"replay file {tmp_path} is a folder" in err
    (tmp_path / "games.jsonl").write_text("")
    with pytest.raises(ReplayError, match=f"did you mean {tmp_path / 'games.jsonl'}"):
        load_replay(tmp_path)


def test_broken_replay_files_give_errors_naming_the_file_and_field(tmp_path, capsys):
    res = _arena(agents=["random", "random"], games=2, seed=3, out=str(tmp_path / "out"))
    good = res["records"][0]
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\xfa")
    with pytest.raises(ReplayError, match=f"{binary}: cannot be read as UTF-8"):
        load_replay(binary)
    lines = tmp_path / "g.jsonl"
    lines.write_text(json.dumps(good) + "\n{oops\n")
    with pytest.raises(ReplayError, match=f"{lines}: line 2: not valid JSON"):
        load_replay(lines)
    cases = [({"seed": None}, "field 'seed' must be an integer"),
             ({"actions": good["actions"][:3] + ["x"]}, "field 'actions' entry 3 must be an action id"),
             ({"actions": [10 ** 9]}, "field 'actions' entry 0 must be an action id"),
             ({"lineup": ["random"]}, "field 'lineup' must be a list of 2 agent names"),
             ({"n_players": 7}, "field 'n_players' must be 1..4"),
             ({"scores": "high"}, "field 'scores' must be a list of 2 integers"),
             ({"scenario": "first_light"}, "field 'scenario' must be given exactly when")]
    for change, msg in cases:
        one = tmp_path / "one.json"
        one.write_text(json.dumps(dict(good, **change)))
        with pytest.raises(ReplayError, match=f"{one}: {msg}"):
            load_replay(one)
    del_seed = {k: v for k, v in good.items() if k != "seed"}
    with pytest.raises(ReplayError, match="field 'seed' is missing"):
        check_record(del_seed, "x")
    one.write_text(json.dumps(good))
    for delay in ("nan", "inf", "-1"):
        assert cli_main(["replay", str(one), "--auto", "--delay", delay]) == 2
        assert "delay must be a number of seconds 0..60" in capsys.readouterr().err


# ---- defect 7: policy sidecars and the mode of play ------------------------------------------
def _fake_policy(folder: Path, **meta) -> Path:
    """A policy path with a metadata sidecar (the zip itself is never loaded by these checks)."""
    path = folder / "policy.zip"
    path.write_bytes(b"PK not really a zip")
    meta_path(path).write_text(json.dumps(meta))
    return path


def test_corrupt_policy_sidecar_gives_one_line_naming_it(tmp_path, capsys):
    path = _fake_policy(tmp_path)
    side = meta_path(path)
    side.write_text("{not json")
    with pytest.raises(PolicyMismatchError, match=f"{side}: the policy metadata file is not valid JSON"):
        load_policy_metadata(path)
    with pytest.raises(PolicyMismatchError, match=f"{side}: the policy metadata file is not valid JSON"):
        make_agent(f"ppo:path={path}")
    side.write_text("[1, 2]")
    with pytest.raises(PolicyMismatchError, match=f"{side}: not an electrify policy metadata file"):
        load_policy_metadata(path)
    side.write_bytes(b"\xff\xfe")
    with pytest.raises(PolicyMismatchError, match=f"{side}: the policy metadata file cannot be read"):
        load_policy_metadata(path)
    with pytest.raises(AgentError, match=f"policy file {tmp_path} is not a file"):
        make_agent(f"ppo:path={tmp_path}")
    side.write_text("{not json")
    assert cli_main(["arena", "--agents", f"ppo:path={path},random", "--games", "2", "--out", "-",
                     "--quiet"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(side) in err


def test_solo_policy_is_refused_in_a_multiplayer_arena_and_seat_policy_in_solo(tmp_path, no_games):
    h2 = Game(2, seed=0).cards.hash
    (tmp_path / "solo").mkdir()
    solo = _fake_policy(tmp_path / "solo", **policy_metadata(h2, "Electrify-Solo-v0",
                                                             scenario="first_light", n_players=1))
    with pytest.raises(PolicyMismatchError, match="trained for solo play \\(scenario first_light\\); "
                                                  "it cannot play a 2-player game"):
        _arena(agents=[f"ppo:path={solo}", "random"])
    (tmp_path / "seat").mkdir()
    seat = _fake_policy(tmp_path / "seat", **policy_metadata(h2, "Electrify-v0", n_players=3, seat=0))
    with pytest.raises(PolicyMismatchError, match="trained for a seat of a 3-player game; it cannot "
                                                  "play a solo scenario"):
        _arena(agents=[f"ppo:path={seat}"], solo=["first_light"])
    with pytest.raises(PolicyMismatchError, match="card_set_hash"):
        _arena(agents=[f"ppo:path={seat}", "random"], tech_packs=["grid"])


def test_policy_mode_rules():
    m = policy_metadata("h", "Electrify-Solo-v0", scenario="x")
    assert policy_players(m) == 1                      # old sidecars: the env id says solo
    assert policy_players(policy_metadata("h", "Electrify-v0", n_players=4)) == 4
    assert policy_players(policy_metadata("h", "test-dummy-v0")) is None
    assert policy_players(policy_metadata("h", "Electrify-v0", n_players="2")) is None
    check_compatible(m, n_players=1)
    check_compatible(policy_metadata("h", "test-dummy-v0"), n_players=3)   # unknown: no claim
    check_compatible(policy_metadata("h", "Electrify-v0", n_players=2), n_players=4)
    with pytest.raises(PolicyMismatchError, match="cannot play a 4-player game"):
        check_compatible(m, n_players=4)


def test_ppo_agent_refuses_a_game_of_the_other_mode(tmp_path):
    """The check also guards the agent itself (the Gymnasium seat env's opponents use it)."""
    pytest.importorskip("sb3_contrib")
    from test_agents import _tiny_policy

    g = Game(2, seed=8)
    path = _tiny_policy(tmp_path, g.cards.hash)
    meta = json.loads(meta_path(path).read_text())
    meta.update(env_id="Electrify-Solo-v0", n_players=1, scenario="first_light")
    meta_path(path).write_text(json.dumps(meta))
    agent = make_agent(f"ppo:path={path}")
    agent.reset(0)
    with pytest.raises(PolicyMismatchError, match="cannot play a 2-player game"):
        agent.act_in(g)
    solo = Game(scenario="first_light", seed=1)
    assert solo.legal_mask()[agent.act_in(solo)]


def test_greedy_weights_file_with_a_duplicate_key_is_refused(tmp_path):
    """A weight written twice is refused (the last value no longer wins silently)."""
    from electrify_env.agents.greedy import DEFAULT_WEIGHTS, load_weights
    path = tmp_path / "greedy.yaml"
    path.write_text(DEFAULT_WEIGHTS.read_text(encoding="utf-8") + "\nscore: 2.0\n", encoding="utf-8")
    with pytest.raises(AgentError, match="duplicate key 'score'"):
        load_weights(path)
