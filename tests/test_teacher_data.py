"""Search-agent games as imitation data (training/teacher.py, ``electrify teacher-data``): the
same file for any --jobs, the balance report's games, the loader's arrays against an independent
replay, solo play, arena files, and every bad input refused before a game is played (the Ray
backend's identical files: tests/test_ray_backend.py)."""
from __future__ import annotations

import json
import sys

import numpy as np
import pytest

from electrify_env.agents import AgentError
from electrify_env.agents import balance as B
from electrify_env import Game
from electrify_env import parallel as P
from electrify_env.cli import main as cli_main
from electrify_env.engine.layout import N_ACTIONS
from electrify_env.engine.observe import OBS_SIZE, obs_size
from electrify_env.validation import InvalidArgumentError
from electrify_env.training.teacher import (
    TEACHER_FORMAT, TeacherConfig, TeacherDataError, load_teacher_data, merge_teacher_files, run_teacher,
)


def _teacher(path, **kw):
    cfg = dict(agent="greedy", players=2, games=3, seed=5, progress=False)
    cfg.update(kw)
    return run_teacher(TeacherConfig(out=str(path), **cfg))


@pytest.fixture(scope="module")
def greedy_file(tmp_path_factory):
    """Three greedy mirror games, 2 players, played in this process."""
    path = tmp_path_factory.mktemp("teacher") / "greedy.jsonl"
    _teacher(path)
    return path


@pytest.fixture
def no_games(monkeypatch):
    """Make a run fail loudly if it starts playing: the checks must come first."""
    def refuse(*a, **k):
        raise AssertionError("a game was played before the input was checked")
    monkeypatch.setattr(P, "parallel_map", refuse)


# ---- the file ------------------------------------------------------------------------------------
def test_the_file_is_the_same_for_any_jobs_and_holds_the_balance_reports_games(greedy_file, tmp_path):
    two = _teacher(tmp_path / "jobs2.jsonl", jobs=2)
    assert (tmp_path / "jobs2.jsonl").read_bytes() == greedy_file.read_bytes()
    lines = greedy_file.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == TEACHER_FORMAT and header["agent"] == "greedy" and header["games"] == 3
    assert header["decisions"] == sum(len(r["actions"]) for r in two["records"])
    records = [json.loads(x) for x in lines[1:]]
    assert [r["index"] for r in records] == [0, 1, 2]
    assert all(r["lineup"] == ["greedy", "greedy"] and "seconds" not in r for r in records)
    # the same deals and agent seeds as `electrify balance --agents greedy --seed 5`
    bcfg = B.BalanceConfig(agents=["greedy"], players=2, games=3, seed=5, out=None, progress=False)
    bcfg.validate()
    tasks, _ = B.make_tasks(bcfg)
    assert [r["seed"] for r in records] == [t.game.seed for t in tasks]
    assert [r["agent_seeds"] for r in records] == [list(t.game.agent_seeds) for t in tasks]
    assert len({r["seed"] for r in records}) == 3                   # a mirror deals anew each game


def test_another_seed_plays_other_games(greedy_file, tmp_path):
    other = _teacher(tmp_path / "other.jsonl", seed=6)
    assert [r["seed"] for r in other["records"]] != [json.loads(x)["seed"]
                                                       for x in greedy_file.read_text().splitlines()[1:]]


def test_electrify_replay_reads_the_file(greedy_file, capsys):
    assert cli_main(["replay", str(greedy_file), "--game", "2", "--auto"]) == 0
    out = capsys.readouterr().out
    assert "seat 0 (greedy)" in out and "winner(s)" in out


# ---- merging chunks --------------------------------------------------------------------------------
def test_merge_joins_chunks_in_order_and_reindexes_them(greedy_file, tmp_path, capsys):
    _teacher(tmp_path / "b.jsonl", seed=6, games=2, agent="random")
    out = tmp_path / "all.jsonl"
    assert cli_main(["teacher-data", "--merge", f"{greedy_file},{tmp_path / 'b.jsonl'}", "--out", str(out)]) == 0
    assert "merged 2 files" in capsys.readouterr().out
    lines = out.read_text().splitlines()
    header, records = json.loads(lines[0]), [json.loads(x) for x in lines[1:]]
    parts = [[json.loads(x) for x in f.read_text().splitlines()[1:]] for f in (greedy_file, tmp_path / "b.jsonl")]
    assert [r["index"] for r in records] == [0, 1, 2, 3, 4]
    assert [r["seed"] for r in records] == [r["seed"] for part in parts for r in part]
    assert header["games"] == 5 and header["agent"] == "mixed" and header["seed"] == 5
    assert [(m["agent"], m["seed"], m["games"]) for m in header["merged"]] == [("greedy", 5, 3), ("random", 6, 2)]
    data = load_teacher_data(out)
    assert len(data) == header["decisions"] == sum(len(r["actions"]) for part in parts for r in part)
    assert set(data.games.tolist()) == {0, 1, 2, 3, 4}


def test_merge_refuses_play_options_it_would_ignore(greedy_file, tmp_path, capsys):
    out = tmp_path / "m.jsonl"
    assert cli_main(["teacher-data", "--merge", str(greedy_file), "--games", "50", "--seed", "3",
                     "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "error: argument --merge: joins files and plays nothing; drop --games, --seed" in err
    assert not out.exists()
    assert cli_main(["teacher-data", "--merge", str(greedy_file), "--quiet", "--out", str(out)]) == 0


def test_merge_refuses_files_of_other_games_and_its_own_output(greedy_file, tmp_path, capsys):
    _teacher(tmp_path / "three.jsonl", players=3, games=1)
    with pytest.raises(TeacherDataError, match="field 'players' is 3"):
        merge_teacher_files([greedy_file, tmp_path / "three.jsonl"], tmp_path / "x.jsonl")
    with pytest.raises(TeacherDataError, match="one of the files to merge"):
        merge_teacher_files([greedy_file], greedy_file)
    arena = tmp_path / "games.jsonl"
    arena.write_text("\n".join(greedy_file.read_text().splitlines()[1:]) + "\n")
    with pytest.raises(TeacherDataError, match="no teacher header"):
        merge_teacher_files([arena], tmp_path / "y.jsonl")
    assert not (tmp_path / "x.jsonl").exists() and not (tmp_path / "y.jsonl").exists()
    assert cli_main(["teacher-data", "--merge", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "z.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err


# ---- the loader ------------------------------------------------------------------------------------
def test_loader_rows_agree_with_an_independent_replay(greedy_file):
    data = load_teacher_data(greedy_file)
    records = data.records
    assert len(data) == sum(len(r["actions"]) for r in records)
    assert data.observations.shape == (len(data), OBS_SIZE) and data.observations.dtype == np.float32
    assert data.masks.shape == (len(data), N_ACTIONS) and data.masks.dtype == np.bool_
    assert data.actions.dtype == np.int64 and data.seats.dtype == np.int64
    assert data.masks[np.arange(len(data)), data.actions].all()          # every action legal
    row = 0
    for rec in records:
        game = Game(n_players=2, seed=rec["seed"])
        for a in rec["actions"]:
            seat = game.current_player
            assert data.seats[row] == seat and data.actions[row] == a and data.games[row] == rec["index"]
            assert np.array_equal(data.observations[row], game.observe(seat))
            assert np.array_equal(data.masks[row], game.legal_mask().astype(bool))
            assert data.won[row] == (seat in rec["winners"])
            game.step(a)
            row += 1
        assert game.is_terminal and list(game.scores()) == rec["scores"]
    assert row == len(data)


def test_winners_only_trim_and_a_choice_of_games(greedy_file):
    full = load_teacher_data(greedy_file)
    win = load_teacher_data(greedy_file, winners_only=True, trim=True, games=[0, 2])
    keep = full.won & np.isin(full.games, [0, 2])
    assert win.won.all() and set(win.games.tolist()) == {0, 2} and len(win) == keep.sum()
    assert win.observations.shape[1] == obs_size(2)
    assert np.array_equal(win.observations, full.observations[keep][:, :obs_size(2)])
    assert not full.observations[:, obs_size(2):].any()        # trim drops zeros only
    assert np.array_equal(win.actions, full.actions[keep])


def test_solo_games(tmp_path):
    res = _teacher(tmp_path / "solo.jsonl", agent="random", solo=["first_light"], games=2)
    assert res["header"]["players"] == 1 and res["header"]["solo"] == ["first_light"]
    data = load_teacher_data(tmp_path / "solo.jsonl")
    assert (data.seats == 0).all() and data.masks[np.arange(len(data)), data.actions].all()
    for rec in data.records:
        assert data.won[data.games == rec["index"]].all() == rec["solo"]["won"]


def test_a_search_agent_and_four_players(tmp_path):
    """The default kind of teacher (a small mcts) and a 4-player mirror both load."""
    for name, kw in (("mcts", dict(agent="mcts:iters=4:top_k=2:horizon=1", games=1)),
                     ("four", dict(players=4, games=1))):
        res = _teacher(tmp_path / f"{name}.jsonl", **kw)
        data = load_teacher_data(tmp_path / f"{name}.jsonl")
        assert len(data) == res["header"]["decisions"]
        assert set(data.seats.tolist()) == set(range(kw.get("players", 2)))
        assert data.masks[np.arange(len(data)), data.actions].all()


def test_an_arena_games_file_loads(tmp_path):
    from electrify_env.agents.arena import ArenaConfig, run_arena

    run_arena(ArenaConfig(agents=["greedy", "random"], games=2, seed=1, out=str(tmp_path), progress=False))
    data = load_teacher_data(tmp_path / "games.jsonl")
    assert data.header == {} and len(data.records) == 2
    assert len(data) == sum(len(r["actions"]) for r in data.records)


# ---- bad files ------------------------------------------------------------------------------------
def _edit(src, dst, fn):
    lines = src.read_text().splitlines()
    dst.write_text("\n".join(fn(lines)) + "\n")
    return dst


def _set_action(lines, k, value):
    rec = json.loads(lines[1])
    rec["actions"][k] = value
    return [lines[0], json.dumps(rec), *lines[2:]]


def _set(lines, key, value):
    rec = json.loads(lines[1])
    rec[key] = value
    return [lines[0], json.dumps(rec), *lines[2:]]


def _illegal(lines):
    game = Game(n_players=2, seed=json.loads(lines[1])["seed"])
    return _set_action(lines, 0, int(np.flatnonzero(game.legal_mask() == 0)[0]))


@pytest.mark.parametrize("edit, msg", [
    (lambda ls: ls[:-1], "says 3, the file holds 2 game records"),
    (lambda ls: [ls[0], "{not json", *ls[1:]], "line 2: not valid JSON"),
    (lambda ls: [ls[0], '{"format": "other"}', *ls[1:]], "line 2: field 'format' must be"),
    (_illegal, "game 0: field 'actions': entry 0 .* is not legal"),
    (lambda ls: _set(ls, "scores", [0, 0]), "game 0: field 'scores': the replay ends with"),
    (lambda ls: _set(ls, "actions", json.loads(ls[1])["actions"][:-1]), "is not over after its"),
    (lambda ls: _set(ls, "seed", "x"), "field 'seed' must be an integer"),
    (lambda ls: _set(ls, "card_set_hash", "0" * 64), "field 'card_set_hash' is 000000000000"),
])
def test_bad_files_are_refused_naming_the_field(greedy_file, tmp_path, edit, msg):
    bad = _edit(greedy_file, tmp_path / "bad.jsonl", edit)
    with pytest.raises(TeacherDataError, match=msg):
        load_teacher_data(bad)


def test_missing_file_and_missing_game(greedy_file, tmp_path):
    with pytest.raises(TeacherDataError, match="does not exist"):
        load_teacher_data(tmp_path / "nothing.jsonl")
    with pytest.raises(TeacherDataError, match="no game with index 7"):
        load_teacher_data(greedy_file, games=[7])


# ---- bad input, refused before any game -------------------------------------------------------------
@pytest.mark.parametrize("kw, err, msg", [
    (dict(agent="greedy,random"), InvalidArgumentError, "agent: give one agent spec"),
    (dict(agent=""), InvalidArgumentError, "agent: give one agent spec"),
    (dict(agent="nobody"), AgentError, "unknown agent 'nobody'"),
    (dict(games=0), InvalidArgumentError, "games must be a positive integer"),
    (dict(players=5), InvalidArgumentError, "players must be 2, 3 or 4"),
    (dict(seed=-1), InvalidArgumentError, "seed must be an integer"),
    (dict(solo=["moon"]), ValueError, "unknown scenario"),
    (dict(backend="dask"), InvalidArgumentError, "backend must be one of local, ray"),
    (dict(address="127.0.0.1:6379"), InvalidArgumentError, "address: only the ray backend"),
    (dict(cards="no/such/cards.yaml"), ValueError, "cards.yaml"),
])
def test_bad_configurations_are_refused_before_playing(tmp_path, no_games, kw, err, msg):
    with pytest.raises(err, match=msg):
        _teacher(tmp_path / "t.jsonl", **kw)
    assert not (tmp_path / "t.jsonl").exists()


def test_bad_out_paths_are_refused_before_playing(tmp_path, no_games):
    with pytest.raises(InvalidArgumentError, match="out: the teacher file must end in .jsonl"):
        _teacher(tmp_path / "t.json")
    (tmp_path / "dir.jsonl").mkdir()
    with pytest.raises(InvalidArgumentError, match="is a folder"):
        _teacher(tmp_path / "dir.jsonl")


def test_missing_ray_is_named_with_the_install_command(tmp_path, no_games, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)          # `import ray` raises ImportError
    with pytest.raises(InvalidArgumentError, match=r'pip install -e "\.\[ray\]"'):
        _teacher(tmp_path / "t.jsonl", backend="ray")


# ---- the command ------------------------------------------------------------------------------------
def test_cli_writes_the_file_and_refuses_bad_options(tmp_path, capsys, monkeypatch):
    out = tmp_path / "cli.jsonl"
    assert cli_main(["teacher-data", "--agent", "greedy", "--players", "3", "--games", "1", "--seed", "2",
                     "--out", str(out), "--quiet"]) == 0
    text = capsys.readouterr().out
    assert "1 games of greedy (3 players)" in text and f"wrote {out}" in text
    assert json.loads(out.read_text().splitlines()[0])["players"] == 3
    assert cli_main(["teacher-data", "--agent", "greedy", "--address", "auto", "--out", str(out)]) == 2
    assert "argument --address: only --backend ray joins a cluster" in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "ray", None)
    assert cli_main(["teacher-data", "--agent", "greedy", "--backend", "ray", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("electrify teacher-data: needs ray, which is not installed") and ".[ray]" in err
    assert cli_main(["teacher-data", "--agent", "greedy", "--out", str(tmp_path / "x.txt")]) == 2
    assert "out: the teacher file must end in .jsonl" in capsys.readouterr().err


def test_teacher_file_has_ordinary_permissions(tmp_path):
    """The atomic write (a temp file, then rename) leaves a file readable like any other output
    (the process umask applies), not mkstemp's owner-only 0600."""
    import os
    import stat

    from electrify_env.training.teacher import write_teacher_file

    old = os.umask(0o022)
    try:
        out = write_teacher_file(tmp_path / "t.jsonl", {"format": "x"}, [])
    finally:
        os.umask(old)
    assert stat.S_IMODE(out.stat().st_mode) == 0o644
