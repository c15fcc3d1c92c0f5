"""The electrify command line: demo, cards validate, scenarios, soak, layout."""
import pytest

from electrify_env.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_demo_plays_a_full_game_and_names_the_winner(capsys):
    code, out, _ = run(capsys, "demo", "--players", "4", "--seed", "7")
    assert code == 0
    assert "round 12/12" in out and "game over" in out and "Winner:" in out
    assert "Final scores" in out


def test_demo_solo_and_tech_packs(capsys):
    code, out, _ = run(capsys, "demo", "--solo", "first_light", "--seed", "7")
    assert code == 0 and "Scenario first_light" in out and ("-> won" in out or "-> lost" in out)
    code, out, _ = run(capsys, "demo", "--players", "2", "--tech", "grid,market", "--seed", "1")
    assert code == 0 and "Winner:" in out


def test_demo_plays_gizmos(capsys):
    from electrify_env.gizmos.demo import play_random

    code, out, _ = run(capsys, "demo", "--game", "gizmos", "--players", "3", "--seed", "7")
    game = play_random(players=3, seed=7)
    assert code == 0 and game.done
    rows = out.splitlines()[1:4]
    assert [int(r.split()[2]) for r in rows] == list(game.scores())
    assert out.rstrip().endswith(f"Winner: player {game.winner()}")
    assert f"{len(game.history)} decisions" in out
    code, _, err = run(capsys, "demo", "--game", "gizmos", "--solo", "first_light")
    assert code == 2 and "--solo" in err and "Gizmos" in err
    code, _, err = run(capsys, "demo", "--game", "gizmos", "--players", "1")
    assert code == 2 and "Gizmos takes 2, 3 or 4 players, got 1" in err
    code, _, err = run(capsys, "demo", "--game", "gizmos", "--cards", "configs/cards/base.yaml")
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_demo_rejects_bad_input(capsys):
    code, _, err = run(capsys, "demo", "--players", "5")
    assert code == 2 and "n_players" in err
    code, _, err = run(capsys, "demo", "--tech", "nosuchpack")
    assert code == 2 and "unknown tech pack" in err
    code, _, err = run(capsys, "demo", "--solo", "nosuch")
    assert code == 2 and "first_light" in err


def test_cards_validate_base_pack_and_broken(capsys, tmp_path):
    code, out, _ = run(capsys, "cards", "validate", "configs/cards/base.yaml")
    assert code == 0 and "production 52" in out and "hash" in out
    code, out, _ = run(capsys, "cards", "validate", "configs/cards/tech_market.yaml")
    assert code == 0 and "Energy Market" in out
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ncolumns: [1, 2\n")
    code, _, err = run(capsys, "cards", "validate", str(bad))
    assert code == 1 and "YAML syntax error" in err and "bad.yaml" in err


def test_scenarios_list_and_describe(capsys):
    code, out, _ = run(capsys, "scenarios")
    assert code == 0 and "net_zero" in out and "first_light" in out
    code, out, _ = run(capsys, "scenarios", "blackout")
    assert code == 0 and "4 gears" in out


def test_soak_small_runs_clean(capsys):
    code, out, _ = run(capsys, "soak", "--games", "30", "--players", "2,4")
    assert code == 0 and "no invariant broken" in out
    code, out, _ = run(capsys, "soak", "--games", "16", "--solo", "all", "--tech", "grid")
    assert code == 0 and "no invariant broken" in out


def test_layout_prints_every_table(capsys):
    code, out, _ = run(capsys, "layout")
    assert code == 0
    for title in ("card table T", "scenario table SC", "player block", "state S", "action ids"):
        assert title in out


def test_unknown_command_exits_with_usage(capsys):
    with pytest.raises(SystemExit):
        main(["nosuch"])


def test_exploit_help_and_its_defaults(capsys):
    from dataclasses import fields

    from electrify_env.cli import EXPLOIT_DEFAULTS
    from electrify_env.training.exploit import ExploitConfig

    with pytest.raises(SystemExit) as exc:
        main(["exploit", "--help"])
    out = capsys.readouterr().out
    assert exc.value.code == 0 and "usage: electrify exploit" in out
    for opt in ("--steps", "--points", "--games", "--seed", "--jobs", "--out"):
        assert opt in out
    d = ExploitConfig(policy="")
    assert EXPLOIT_DEFAULTS == {f.name: getattr(d, f.name) for f in fields(ExploitConfig) if f.name != "policy"}


@pytest.mark.parametrize("argv, message", [
    (["exploit", "greedy"], "policy must be a shipped trained agent"),
    (["exploit", "trained_2p_net", "--steps", "0"], "steps must be a positive integer"),
    (["exploit", "trained_2p_net", "--steps", "3", "--points", "4"], "points must be at most steps"),
    (["exploit", "nobody"], "policy: "),
])
def test_exploit_refuses_bad_options_in_one_line(argv, message, capsys, tmp_path):
    code, out, err = run(capsys, *argv, "--out", str(tmp_path / "x"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("electrify exploit: error: ") and message in err
    assert not (tmp_path / "x").exists()


def test_exploit_refuses_a_malformed_number(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["exploit", "trained_2p_net", "--steps", "many"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.strip().splitlines()[-1] == \
        "electrify exploit: error: argument --steps: invalid int value: 'many'"
