"""The Ray backend (electrify_env/parallel.py; ``--backend ray`` of ``electrify arena``, ``balance``
and ``teacher-data``): the arena, the balance report and the teacher data write the same files on
Ray as locally for the same seed, timings aside; a Ray already running is reused and left
running; an address joins a cluster; a run without one starts and stops its own Ray; and the
error paths (unknown backend, an address without the ray backend, Ray not installed) are refused
with one line before any game is played.

The tests that run Ray use the session fixture ``ray_local`` (tests/conftest.py: a local Ray with
2 CPUs) and skip where ``ray`` is not installed (the default venv); the error paths run in both
venvs.  In CI: ``.venv-ray/bin/python -m pytest -q -p no:xdist tests/test_ray_backend.py``.
"""
from __future__ import annotations

import csv
import json
import math
import operator
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from electrify_env.agents import arena as A
from electrify_env.agents import balance as B
from electrify_env import parallel as P
from electrify_env.cli import main as cli_main
from electrify_env.validation import InvalidArgumentError
from electrify_env.training.teacher import TeacherConfig, run_teacher

#: every field that holds a timing, and nothing else: the run's wall time (results.json), the
#: mean time per move of an agent (results.json, agents.csv) and each game record's seconds per
#: seat (games.jsonl)
TIMING_FIELDS = ("wall_seconds", "ms_per_move", "seconds")
REPO = Path(__file__).resolve().parents[1]


def _untimed(x):
    """``x`` without :data:`TIMING_FIELDS` (at any depth)."""
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k not in TIMING_FIELDS}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    return x


def _outputs(folder: Path) -> dict:
    """The names of the files in a run's folder, and its results.json, games.jsonl and every CSV
    parsed, timings removed; the folder is then emptied (the runs compared write to the same
    folder, which results.json names)."""
    out = {"files": sorted(p.name for p in folder.iterdir()),
           "results.json": _untimed(json.loads((folder / "results.json").read_text())),
           "games.jsonl": [_untimed(json.loads(x)) for x in (folder / "games.jsonl").read_text().splitlines()]}
    for path in sorted(folder.glob("*.csv")):
        with path.open(newline="") as f:
            out[path.name] = [_untimed(row) for row in csv.DictReader(f)]
    for path in folder.iterdir():
        path.unlink()
    return out


def _assert_same_outputs(local: dict, ray: dict) -> None:
    assert local.keys() == ray.keys() and {"results.json", "games.jsonl"} <= local.keys()
    for name in local:
        assert local[name] == ray[name], name
    assert len(local["games.jsonl"]) > 0


# ---- error paths (no Ray needed) ------------------------------------------------------------------
@pytest.fixture
def no_games(monkeypatch):
    """Make the arena and the balance report fail loudly if they start playing."""
    def refuse(*a, **k):
        raise AssertionError("a game was played before the input was checked")
    monkeypatch.setattr(A, "play_tasks", refuse)
    monkeypatch.setattr(B, "play_games", refuse)


@pytest.fixture
def no_ray(monkeypatch):
    """Make ``import ray`` fail, as where the package is not installed."""
    monkeypatch.setitem(sys.modules, "ray", None)


def _arena(**kw):
    cfg = dict(agents=["greedy", "random"], games=2, out=None, progress=False)
    cfg.update(kw)
    return A.run_arena(A.ArenaConfig(**cfg))


def _balance(**kw):
    cfg = dict(agents=["greedy"], games=2, out=None, progress=False)
    cfg.update(kw)
    return B.run_balance(B.BalanceConfig(**cfg))


@pytest.mark.parametrize("run", [_arena, _balance])
def test_unknown_backend_and_address_without_ray_are_refused_before_playing(run, no_games):
    with pytest.raises(InvalidArgumentError, match="backend must be one of local, ray, got 'dask'"):
        run(backend="dask")
    with pytest.raises(InvalidArgumentError, match="address: only the ray backend joins a cluster"):
        run(address="10.0.0.1:6379")


@pytest.mark.parametrize("run", [_arena, _balance])
def test_missing_ray_names_the_install_command_before_playing(run, no_games, no_ray):
    with pytest.raises(InvalidArgumentError, match=r'the ray backend needs the ray package, which is not '
                                                   r'installed; install it with: pip install -e "\.\[ray\]"'):
        run(backend="ray")


def test_parallel_map_checks_its_backend(no_ray):
    with pytest.raises(InvalidArgumentError, match="backend must be one of"):
        P.parallel_map(abs, [1], backend="threads")
    with pytest.raises(InvalidArgumentError, match="address: only the ray backend"):
        P.parallel_map(abs, [1], address="auto")
    with pytest.raises(InvalidArgumentError, match="address must be a Ray address"):
        P.check_backend("ray", " ")
    with pytest.raises(InvalidArgumentError, match=r'pip install -e "\.\[ray\]"'):
        P.parallel_map(abs, [1], backend="ray")
    assert P.parallel_map(abs, [-2, 1, -3], progress=False) == [2, 1, 3]   # local needs no Ray
    assert P.parallel_map(abs, [], progress=False) == []


def test_a_cluster_that_cannot_be_joined_is_one_line(monkeypatch):
    """Ray's own error (here from a stand-in ``ray`` module: no cluster is started) becomes one
    line naming the address."""
    def init(**kw):
        raise ConnectionError("Could not find any running Ray instance.\nPlease specify ...")

    fake = types.SimpleNamespace(is_initialized=lambda: False, init=init)
    monkeypatch.setitem(sys.modules, "ray", fake)
    with pytest.raises(InvalidArgumentError, match=r"^address: cannot join the Ray cluster at 'auto' "
                                                   r"\(Could not find any running Ray instance\.\)$"):
        P.parallel_map(abs, [1], backend="ray", address="auto", progress=False)


@pytest.mark.parametrize("cmd", ["arena", "balance"])
def test_cli_backend_errors(cmd, capsys, no_ray, no_games):
    base = [cmd, "--agents", "greedy,random", "--games", "2", "--out", "-", "--quiet"]
    assert cli_main(base + ["--address", "auto"]) == 2
    assert f"electrify {cmd}: error: argument --address: only --backend ray joins a cluster" in capsys.readouterr().err
    assert cli_main(base + ["--backend", "ray"]) == 2
    from electrify_env.extras import install_command

    # the extras check names the missing package before any work
    assert capsys.readouterr().err.strip() == (f"electrify {cmd}: needs ray, which is not installed; "
                                               f"install it with: {install_command(('ray',))}")
    with pytest.raises(SystemExit) as exit_:
        cli_main(base + ["--backend", "dask"])
    assert exit_.value.code == 2 and "invalid choice: 'dask'" in capsys.readouterr().err


def test_the_default_paths_do_not_import_ray(tmp_path):
    """A local arena and a teacher run in a fresh interpreter never import ray."""
    code = ("import sys; from electrify_env.agents.arena import ArenaConfig, run_arena; "
            "from electrify_env.training.teacher import TeacherConfig, run_teacher; "
            "run_arena(ArenaConfig(agents=['random', 'random'], games=2, out=None, progress=False)); "
            f"run_teacher(TeacherConfig(agent='random', games=1, out={str(tmp_path / 't.jsonl')!r}, progress=False)); "
            "assert 'ray' not in sys.modules, 'ray was imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=REPO, timeout=120)


# ---- on Ray --------------------------------------------------------------------------------------
def test_parallel_map_on_ray_keeps_order_reraises_and_leaves_ray_running(ray_local):
    tasks = list(range(-40, 0))
    assert P.parallel_map(abs, tasks, backend="ray", jobs=2, progress=False) == [abs(t) for t in tasks]
    with pytest.raises(ValueError, match="math domain error"):
        P.parallel_map(math.sqrt, [4.0, -1.0, 9.0], backend="ray", progress=False)
    assert ray_local.is_initialized()           # the fixture's Ray was reused, not shut down


def test_ray_workers_play_with_one_thread(ray_local):
    assert P.parallel_map(os.getenv, ["OMP_NUM_THREADS"] * 2, backend="ray", progress=False) == ["1", "1"]
    torch = pytest.importorskip("torch")
    if not hasattr(operator, "call"):            # Python < 3.11
        pytest.skip("operator.call is new in Python 3.11")
    # torch is imported in the worker when the task arrives: it reads OMP_NUM_THREADS=1
    assert P.parallel_map(operator.call, [torch.get_num_threads] * 2, backend="ray", progress=False) == [1, 1]


ARENA_RUNS = {
    "2p": (dict(agents=["greedy", "random"], games=8, seed=4), ["--agents", "greedy,random", "--games", "8", "--seed", "4"]),
    "4p": (dict(agents=["greedy", "random", "random", "greedy"], players=4, games=4, seed=2),
           ["--agents", "greedy,random,random,greedy", "--players", "4", "--games", "4", "--seed", "2"]),
    "solo": (dict(agents=["random", "greedy"], solo=["first_light"], games=2, seed=9),
             ["--agents", "random,greedy", "--solo", "first_light", "--games", "2", "--seed", "9"]),
}


@pytest.mark.parametrize("name", list(ARENA_RUNS))
def test_arena_on_ray_writes_the_local_files(ray_local, tmp_path, name):
    kw, argv = ARENA_RUNS[name]
    A.run_arena(A.ArenaConfig(**kw, out=str(tmp_path), progress=False))
    local = _outputs(tmp_path)
    assert cli_main(["arena", *argv, "--backend", "ray", "--out", str(tmp_path), "--quiet"]) == 0
    _assert_same_outputs(local, _outputs(tmp_path))


def test_balance_on_ray_writes_the_local_files(ray_local, tmp_path):
    kw = dict(agents=["greedy", "random"], games=4, seed=3, tech_packs=["grid"], progress=False)
    B.run_balance(B.BalanceConfig(**kw, out=str(tmp_path)))
    local = _outputs(tmp_path)
    B.run_balance(B.BalanceConfig(**kw, out=str(tmp_path), backend="ray"))
    _assert_same_outputs(local, _outputs(tmp_path))


def test_teacher_data_on_ray_is_the_local_file(ray_local, tmp_path):
    for name, kw in (("2p", dict(agent="greedy", games=3, seed=1)),
                     ("solo", dict(agent="random", solo=["first_light"], games=2, seed=1))):
        run_teacher(TeacherConfig(**kw, out=str(tmp_path / f"{name}-local.jsonl"), progress=False))
        run_teacher(TeacherConfig(**kw, out=str(tmp_path / f"{name}-ray.jsonl"), progress=False,
                                  backend="ray"))
        assert (tmp_path / f"{name}-local.jsonl").read_bytes() == (tmp_path / f"{name}-ray.jsonl").read_bytes()


def _python(code: str) -> str:
    env = {**os.environ, "RAY_ADDRESS": ""}
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_an_address_joins_the_cluster_and_leaves_it_running(ray_local):
    address = ray_local.get_runtime_context().gcs_address
    out = _python("import ray; from electrify_env.parallel import parallel_map; "
                  f"print(parallel_map(abs, [-3, -1, -2], backend='ray', address={address!r}, progress=False), "
                  "ray.is_initialized())")
    assert out.split("\n")[0] == "[3, 1, 2] False"        # joined, then disconnected
    assert P.parallel_map(abs, [-5], backend="ray", progress=False) == [5]   # the cluster still runs


def test_without_an_address_a_local_ray_is_started_and_shut_down(ray_local):
    out = _python("import ray; from electrify_env.parallel import parallel_map; "
                  "print(parallel_map(abs, [-3, -1], backend='ray', jobs=1, progress=False), "
                  "ray.is_initialized())")
    assert out.split("\n")[0] == "[3, 1] False"
