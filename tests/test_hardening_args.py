"""Bad arguments at every entry point (and a tech pack string such as tech_packs="grid"):
player counts, game counts, seeds and action ids are checked by one set of functions
(:mod:`electrify_env.validation`) with one message each, in ``Game``, the CLI, soak runs and
the environments.  Pinned cases: ``electrify soak --players 5`` is refused (not run out of
bounds), ``Game.step(2**63)`` raises the documented error (not OverflowError), and
``Game(tech_packs="grid")`` names the string (not a pack ``g``)."""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from electrify_env import MAX_SEED, Game, IllegalActionError, InvalidArgumentError
from electrify_env.cli import main
from electrify_env.engine import layout as L
from electrify_env.soak import soak
from electrify_env.validation import check_action, check_players, check_seed


def message(fn, *a, **kw) -> str:
    with pytest.raises(InvalidArgumentError) as exc:
        fn(*a, **kw)
    return str(exc.value)


# ---- one definition --------------------------------------------------------------------------
def test_one_seed_range_everywhere():
    from electrify_env import game
    from electrify_env.kernels import batch
    assert MAX_SEED == 2 ** 62 - 1 == game.MAX_SEED == batch.MAX_SEED
    assert issubclass(InvalidArgumentError, ValueError) and issubclass(IllegalActionError, ValueError)
    assert check_seed(MAX_SEED) == MAX_SEED and check_seed(np.uint64(5)) == 5


# ---- Game ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, match", [
    (0, "2, 3 or 4"), (5, "2, 3 or 4"), (-1, "2, 3 or 4"), (1, "solo play"), (2 ** 64, "2, 3 or 4"),
    ("2", "integer"), (2.0, "integer"), (True, "integer"), (np.float64(3), "integer"),
])
def test_game_player_counts(n, match):
    assert match in message(Game, n_players=n)


def test_game_player_count_with_a_scenario():
    assert "must be 1" in message(Game, n_players=2, scenario="first_light")
    assert Game(scenario="first_light").n_players == 1 == Game(n_players=np.int64(1), scenario="first_light").n_players
    assert Game(n_players=np.int8(3)).n_players == 3


@pytest.mark.parametrize("seed", [-1, 2 ** 62, 2 ** 63, 2 ** 64, 1.5, 3.0, "7", None, True])
def test_game_seeds(seed):
    assert message(Game, 2, seed=seed).startswith("seed must be an integer")


@pytest.mark.parametrize("action", [2 ** 63, 2 ** 64, -2 ** 63 - 1, -1, L.N_ACTIONS, 10 ** 30])
def test_r24_step_refuses_ids_outside_the_action_space(action):
    g = Game(2, seed=0)
    before = g.state.copy()
    with pytest.raises(IllegalActionError, match="out of range"):
        g.step(action)
    with pytest.raises(IllegalActionError, match="out of range"):
        g.step_unchecked(action)
    assert np.array_equal(g.state, before) and g.history == []


@pytest.mark.parametrize("action", [3.0, float("nan"), "3", None, True, np.bool_(False), [3],
                                    np.array([3]), np.float32(3)])
def test_r24_step_refuses_non_integer_ids(action):
    g = Game(2, seed=0)
    with pytest.raises(IllegalActionError, match="integer id"):
        g.step(action)


def test_step_accepts_numpy_integers_and_0d_arrays():
    g = Game(2, seed=0)
    a = int(g.legal_actions()[0])
    g.step(np.uint8(a))
    b = int(g.legal_actions()[0])
    g.step(np.array(b))
    assert g.history == [a, b] and all(type(x) is int for x in g.history)


def test_describe_action_takes_what_step_takes():
    g = Game(2, seed=0)
    for bad in (None, 3.7, True, "3", [1], float("inf")):
        with pytest.raises(IllegalActionError, match="integer id"):
            g.describe_action(bad)
    assert "not an action id" in g.describe_action(2 ** 63)
    a = int(g.legal_actions()[0])
    assert g.describe_action(np.int64(a)) == g.describe_action(a)


def test_observe_checks_the_player():
    g = Game(2, seed=0)
    assert "player must be 0..1" in message(g.observe, 2 ** 63)
    assert "integer" in message(g.observe, "0")
    assert "integer" in message(g.observe, 0.5)


def test_tech_packs_as_one_name_a_path_or_a_sequence():
    one = Game(2, seed=1, tech_packs="grid")
    assert one.cards.pack_names == Game(2, seed=1, tech_packs=("grid",)).cards.pack_names
    assert one.same_as(Game(2, seed=1, tech_packs=["grid"]))
    from electrify_env.cards import DEFAULT_CARDS_DIR
    assert Game(2, seed=1, tech_packs=DEFAULT_CARDS_DIR / "tech_market.yaml").cards.pack_names == \
        Game(2, seed=1, tech_packs="market").cards.pack_names
    assert "tech_packs" in message(Game, 2, tech_packs=5)
    assert "tech_packs" in message(Game, 2, tech_packs=["grid", 3])
    assert "card_set" in message(Game, 2, card_set=5)
    assert "scenario" in message(Game, scenario=5)
    assert message(Game, 2, tech_packs="gird").startswith("unknown tech pack 'gird'; shipped packs: grid")


def test_replay_takes_one_tech_pack_name():
    g = Game(2, seed=3, tech_packs="market")
    rng = np.random.default_rng(0)
    for _ in range(40):
        g.step(int(rng.choice(g.legal_actions())))
    assert Game.replay(g.history, 2, 3, tech_packs="market").same_as(g)


# ---- soak ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kw, match", [
    ({"games": 0}, "games must be a positive"),
    ({"games": -5}, "games must be a positive"),
    ({"games": 2, "players": (5,)}, "2, 3 or 4"),
    ({"games": 2, "players": (2, 0)}, "2, 3 or 4"),
    ({"games": 2, "players": 1}, "solo play"),
    ({"games": 2, "players": ()}, "players"),
    ({"games": 2, "seed": -1}, "seed must be"),
    ({"games": 2, "seed": MAX_SEED}, "stay below 2**62"),
    ({"games": 2.5}, "integer"),
])
def test_soak_refuses_bad_arguments_before_playing(kw, match):
    assert match in message(soak, progress=False, **kw)


# ---- CLI -----------------------------------------------------------------------------------------
def cli(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


@pytest.mark.parametrize("argv, option, match", [
    (["soak", "--games", "10", "--players", "5"], "--players", "2, 3 or 4"),
    (["soak", "--games", "2", "--players", "0"], "--players", "2, 3 or 4"),
    (["soak", "--games", "2", "--players", "2,1"], "--players", "solo play"),
    (["soak", "--games", "-5"], "--games", "positive"),
    (["soak", "--games", "0"], "--games", "positive"),
    (["soak", "--games", "2", "--seed", "-1"], "--seed", "0..2**62-1, got -1"),
    (["soak", "--games", "2", "--seed", "9223372036854775808"], "--seed", "got 9223372036854775808"),
    (["soak", "--games", "3", "--seed", str(MAX_SEED - 1)], "--seed", "below 2**62"),
    (["demo", "--players", "1"], "--players", "solo play"),
    (["demo", "--players", "5"], "--players", "n_players must be 2, 3 or 4"),
    (["demo", "--solo", "first_light", "--players", "2"], "--players", "must be 1"),
    (["demo", "--seed", "-3"], "--seed", "got -3"),
    (["arena", "--agents", "random,random", "--players", "5"], "--players", "2, 3 or 4"),
    (["arena", "--agents", "random,random", "--games", "0"], "--games", "positive"),
    (["arena", "--agents", "random,random", "--jobs", "0"], "--jobs", "positive"),
    (["arena", "--agents", "random,random", "--seed", "-1"], "--seed", "got -1"),
])
def test_cli_numbers_give_one_argparse_style_line(capsys, argv, option, match):
    code, err = cli(capsys, *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"usage: electrify {argv[0]}")
    assert lines[-1].startswith(f"electrify {argv[0]}: error: argument {option}: ") and match in lines[-1]
    assert "Traceback" not in err


def test_cli_non_numbers_are_argparse_errors(capsys):
    for argv in (["soak", "--players", "two"], ["soak", "--games", "1e3"], ["demo", "--seed", "x"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert "error: argument" in capsys.readouterr().err


def test_cli_soak_players_5_exits_2_without_playing():
    """The console command of the issue, in its own process: exit status 2, one message."""
    p = subprocess.run([sys.executable, "-m", "electrify_env.cli", "soak", "--games", "10", "--players", "5"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2, p.stderr
    assert "argument --players: n_players must be 2, 3 or 4" in p.stderr
    assert "Traceback" not in p.stderr and p.stdout == ""


def test_cli_soak_still_runs_with_good_numbers(capsys):
    code = main(["soak", "--games", "4", "--players", "2,4", "--seed", str(MAX_SEED - 3)])
    out = capsys.readouterr().out
    assert code == 0 and "4 games" in out and "no invariant broken" in out


# ---- environments ---------------------------------------------------------------------------------
def test_envs_check_players_with_the_same_message():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from electrify_env.envs.electrify_v0 import raw_env
    from electrify_env.envs.seat import ElectrifyEnv
    from electrify_env.envs.vector import ElectrifyVectorEnv
    for n in (0, 1, 5, 2.0, True):
        want = message(check_players, n)
        assert message(Game, n_players=n) == want
        assert message(raw_env, n_players=n) == want
        assert message(ElectrifyEnv, n_players=n) == want
        assert message(ElectrifyVectorEnv, 2, "seat", n_players=n) == want


def test_envs_check_reset_seeds_with_the_same_message():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from electrify_env.envs.electrify_v0 import raw_env
    from electrify_env.envs.seat import ElectrifyEnv
    from electrify_env.envs.solo import ElectrifySoloEnv
    from electrify_env.envs.vector import ElectrifyVectorEnv
    for seed in (-1, 2 ** 62, 2 ** 63, 1.5, "3", True):
        want = message(check_seed, seed)
        assert message(Game, 2, seed=seed) == want
        for e in (raw_env(), ElectrifyEnv(), ElectrifySoloEnv(scenario="first_light"),
                  ElectrifyVectorEnv(2, "solo", scenario="first_light")):
            assert message(e.reset, seed=seed) == want, type(e).__name__
    venv = ElectrifyVectorEnv(3, "solo", scenario="first_light")
    assert "stay below 2**62" in message(venv.reset, seed=MAX_SEED - 1)
    _, info = venv.reset(seed=MAX_SEED - 2)
    assert info["seed"].tolist() == [MAX_SEED - 2, MAX_SEED - 1, MAX_SEED]
    assert message(venv.reset, seed=[1, 2.5, 3]).startswith("seeds[1] must be an integer")
    assert "3 integers" in message(venv.reset, seed=[1, 2])
    assert message(venv.reset, seed=object()).startswith("seed must be an integer")


def test_envs_take_one_tech_pack_name():
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from electrify_env.envs.electrify_v0 import raw_env
    from electrify_env.envs.solo import ElectrifySoloEnv
    want = Game(2, tech_packs="grid").cards.hash
    assert raw_env(tech_packs="grid")._cards.hash == want
    assert ElectrifySoloEnv(scenario="first_light", tech_packs="grid").card_set.hash == want
    assert "tech_packs" in message(raw_env, tech_packs=7)


def test_env_actions_use_the_same_check():
    pytest.importorskip("gymnasium")
    from electrify_env.envs.solo import ElectrifySoloEnv
    e = ElectrifySoloEnv(scenario="first_light")
    e.reset(seed=0)
    for bad in (2 ** 63, -1):
        with pytest.raises(IllegalActionError, match="out of range"):
            e.step(bad)
    for bad in (3.0, "3", True, None):
        with pytest.raises(IllegalActionError, match="integer id"):
            e.step(bad)
    assert check_action(np.int16(7)) == 7
