"""Config files as a hostile user writes them: duplicate keys, YAML syntax and
encoding errors, and every training hyper-parameter out of range are refused at load with one line
naming the file (or the field), in the error class of whatever is being loaded."""
from __future__ import annotations

import contextlib
import io
import math
import re
from pathlib import Path

import pytest

from electrify_env.cards import CardSetError, load_card_set
from electrify_env.cards.loader import DEFAULT_CARD_SET, DEFAULT_CARDS_DIR
from electrify_env.scenarios import SCENARIOS_DIR, ScenarioError, load_scenario
from electrify_env.yamlio import read_yaml_mapping
from electrify_env.training.config import ConfigError, PPOSeatConfig, PPOSoloConfig, load_config, parse_overrides

BASE_TEXT = DEFAULT_CARD_SET.read_text(encoding="utf-8")
GRID_TEXT = (DEFAULT_CARDS_DIR / "tech_grid.yaml").read_text(encoding="utf-8")
SCENARIO_TEXT = (SCENARIOS_DIR / "first_light.yaml").read_text(encoding="utf-8")
SOLO_TEXT = Path("configs/ppo_solo.yaml").read_text(encoding="utf-8")


def _line_of(text: str, needle: str) -> int:
    """1-based number of the first line of ``text`` containing ``needle``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# ----------------------------------------------------------------------------------------------
# Duplicate keys
# ----------------------------------------------------------------------------------------------
def test_duplicate_key_in_a_card_is_refused(tmp_path):
    """``cost: 2, cost: 3`` on one card loaded silently with cost 3 before."""
    text = BASE_TEXT.replace("id: P07, name: \"Wood Pellet Mill\", cost: 2,",
                             "id: P07, name: \"Wood Pellet Mill\", cost: 2, cost: 3,")
    assert text != BASE_TEXT
    path = tmp_path / "dup.yaml"
    path.write_text(text, encoding="utf-8")
    line = _line_of(text, "Wood Pellet Mill")
    with pytest.raises(CardSetError) as info:
        load_card_set(path)
    msg = str(info.value)
    assert msg.startswith(f"{path}: line {line}: duplicate key 'cost'"), msg
    assert f"first at line {line}" in msg and "\n" not in msg


def test_duplicate_top_level_key_in_a_tech_pack_is_refused(tmp_path):
    text = GRID_TEXT.replace("pack: {name: Grid Modernization}\n",
                             "pack: {name: Grid Modernization}\npack: {name: Other}\n")
    path = tmp_path / "tech_dup.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(CardSetError, match=r"tech_dup\.yaml: line \d+: duplicate key 'pack' \(first at line \d+\)"):
        load_card_set(None, tech_packs=[path])


def test_duplicate_key_in_a_scenario_is_refused(tmp_path):
    """``target: 18`` then ``target: 30`` played to 30 before."""
    text = SCENARIO_TEXT.replace("target: 18\n", "target: 18\ntarget: 30\n")
    path = tmp_path / "dup.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    first = _line_of(text, "target: 18")
    assert str(info.value) == (f"{path}: line {first + 1}: duplicate key 'target' (first at line {first}); "
                               "a key may appear once per mapping")


def test_duplicate_key_in_a_training_config_is_refused(tmp_path):
    path = tmp_path / "ppo.yaml"
    path.write_text(SOLO_TEXT + "clip_range: 0.3\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"ppo\.yaml: line \d+: duplicate key 'clip_range' \(first at line \d+\)"):
        load_config(path)


def test_duplicate_key_in_a_nested_block_mapping_is_refused(tmp_path):
    path = tmp_path / "nested.yaml"
    path.write_text("a:\n  b: 1\n  c: 2\n  b: 3\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"nested\.yaml: line 4: duplicate key 'b' \(first at line 2\)"):
        read_yaml_mapping(path, ValueError)


def test_the_same_key_in_different_mappings_and_merge_overrides_are_accepted(tmp_path):
    """Only a key repeated inside one mapping is an error; an explicit key beside a ``<<`` merge
    overrides the merged one, as YAML specifies."""
    path = tmp_path / "ok.yaml"
    path.write_text("a: {x: 1}\nb: {x: 2}\nbase: &d {x: 1, y: 2}\nc:\n  <<: *d\n  x: 5\n", encoding="utf-8")
    assert read_yaml_mapping(path, ValueError) == {"a": {"x": 1}, "b": {"x": 2}, "base": {"x": 1, "y": 2},
                                                    "c": {"x": 5, "y": 2}}


def test_shipped_configs_have_no_duplicate_keys():
    """Every YAML file under configs/ reads through the strict reader."""
    files = sorted(Path("configs").rglob("*.yaml"))
    assert len(files) >= 14
    for f in files:
        assert isinstance(read_yaml_mapping(f, ValueError), dict)


# ----------------------------------------------------------------------------------------------
# Syntax and encoding errors: one line naming the file, in the loader's error class
# ----------------------------------------------------------------------------------------------
BAD_FILES = {
    "syntax": (b"name: [unclosed\n", r"YAML syntax error at line \d+, column \d+"),
    "tab_indent": (b"a:\n\tb: 1\n", r"YAML syntax error at line 2"),
    "latin1": ("name: Caf\u00e9\n".encode("latin-1"), r"not UTF-8 text \(byte 0xe9 at line 1\)"),
    "binary": (bytes(range(256)) * 4, r"not a text file \(it holds NUL bytes\)"),
    "control_char": (b"name: a\x01b\n", r"YAML syntax error at line 1, column 8: .*#x0001"),
    "empty": (b"", r"the file must hold a mapping \(got an empty file\)"),
    "comments_only": (b"# nothing here\n", r"the file must hold a mapping \(got an empty file\)"),
    "top_level_list": (b"- a\n- b\n", r"the file must hold a mapping \(got a list\)"),
    "scalar": (b"42\n", r"the file must hold a mapping \(got a number\)"),
    "bad_date": (b"name: 2020-13-45\n", r"YAML syntax error at line 1, column 7: .*month"),
    "non_text_key": (b"? [1, 2]\n: x\n", r"YAML syntax error at line 1.*unhashable"),
    "number_key": (b"1: x\n", r"line 1: key 1 must be a name"),
}


def _loaders():
    """(name, error class, function loading a path) for every YAML consumer of the project."""
    return [
        ("card_set", CardSetError, lambda p: load_card_set(p)),
        ("tech_pack", CardSetError, lambda p: load_card_set(None, tech_packs=[p])),
        ("scenario", ScenarioError, lambda p: load_scenario(p)),
        ("ppo_solo", ConfigError, lambda p: load_config(p, PPOSoloConfig)),
        ("ppo_seat", ConfigError, lambda p: load_config(p, PPOSeatConfig)),
    ]


@pytest.mark.parametrize("case", sorted(BAD_FILES))
@pytest.mark.parametrize("loader", _loaders(), ids=lambda x: x[0])
def test_bad_yaml_file_gives_one_line_naming_the_file(tmp_path, case, loader):
    _, error, load = loader
    data, pattern = BAD_FILES[case]
    path = tmp_path / f"{case}.yaml"
    path.write_bytes(data)
    with pytest.raises(error) as info:
        load(path)
    msg = str(info.value)
    assert type(info.value) is error
    assert msg.startswith(f"{path}: "), msg
    assert "\n" not in msg and len(msg) < 300, msg
    assert info.value.__cause__ is None, "traceback chained"
    assert info.value.__context__ is None or info.value.__suppress_context__, "traceback chained"
    assert re.search(pattern, msg), msg


def test_deeply_nested_yaml_gives_one_line(tmp_path):
    """Python's recursion limit stops PyYAML's composer: an error, not a crash (once, since the
    reader is shared and the scan takes about a second)."""
    path = tmp_path / "deep.yaml"
    path.write_bytes(b"a: " + b"[" * 1000 + b"]" * 1000 + b"\n")
    with pytest.raises(ScenarioError, match="^" + re.escape(str(path)) + ": YAML nested too deeply$"):
        load_scenario(path)


def test_a_folder_or_unreadable_path_gives_one_line(tmp_path):
    with pytest.raises(CardSetError, match=r": cannot read file \(Is a directory\)$"):
        load_card_set(tmp_path)
    with pytest.raises(ConfigError, match=r"missing\.yaml: file not found \(shipped configs: .*electrify-2p.*\)$"):
        load_config(tmp_path / "missing.yaml")


def test_a_shipped_config_is_found_by_name_from_any_folder(tmp_path, monkeypatch):
    """``electrify train electrify-2p`` (or ``configs/electrify-2p.yaml`` outside the repository, as from
    an installed wheel) reads the shipped config; a local file of that path wins."""
    from electrify_env.training.config import TrainConfig, resolve_config_path
    from electrify_env.paths import CONFIGS_DIR

    monkeypatch.chdir(tmp_path)
    for name in ("electrify-2p", "electrify-2p.yaml", "configs/electrify-2p.yaml"):
        assert resolve_config_path(name) == CONFIGS_DIR / "electrify-2p.yaml"
        assert load_config(name, TrainConfig).n_players == 2
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "electrify-2p.yaml").write_text("n_players: 4\n")
    assert load_config("configs/electrify-2p.yaml", TrainConfig).n_players == 4
    for bad in ("../configs/electrify-2p.yaml", "nope", "configs/nope.yaml"):
        with pytest.raises(ConfigError, match="file not found"):
            load_config(bad, TrainConfig)


def test_cards_validate_cli_reports_a_bad_file_in_one_line(tmp_path):
    from electrify_env.cli import main

    path = tmp_path / "bad.yaml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["cards", "validate", str(path)])
    assert rc == 1 and out.getvalue() == ""
    assert err.getvalue().count("\n") == 1 and err.getvalue().startswith(f"invalid card set: {path}: "), err.getvalue()


# ----------------------------------------------------------------------------------------------
# Training configs: every hyper-parameter range, names, unknown keys, at load
# ----------------------------------------------------------------------------------------------
BAD_VALUES = [
    ("clip_range", -1), ("clip_range", 0), ("clip_range", math.nan), ("clip_range", math.inf),
    ("learning_rate", 0), ("learning_rate", -3e-4), ("learning_rate", math.inf), ("learning_rate", math.nan),
    ("gamma", 0), ("gamma", 1.01), ("gamma", math.nan), ("gae_lambda", 0), ("gae_lambda", 1.5),
    ("n_steps", 0), ("n_steps", -1), ("n_steps", 1.5), ("n_steps", True),
    ("batch_size", 0), ("batch_size", 1), ("batch_size", 8192), ("batch_size", 500),
    ("n_epochs", 0), ("n_epochs", "10"),
    ("ent_coef", -0.01), ("ent_coef", math.inf), ("vf_coef", -0.5), ("vf_coef", math.nan),
    ("max_grad_norm", 0), ("max_grad_norm", -1), ("max_grad_norm", math.nan),
    ("torch_threads", -1), ("torch_threads", 2.5),
    ("total_timesteps", 0), ("total_timesteps", -100), ("total_timesteps", "many"),
    ("n_envs", 0), ("seed", -1), ("seed", 2**32), ("eval_seed", -1), ("eval_seed", 2**62),
    ("eval_every", -1), ("eval_episodes", 0), ("final_eval_episodes", 0),
    ("features_dim", 0), ("net_arch", [0]), ("net_arch", [1.5]), ("net_arch", "128"), ("net_arch", 128),
    ("vec_env", "subproc"), ("device", "gpu"), ("device", 0), ("output_dir", ""), ("output_dir", 5),
    ("tensorboard_log", 5), ("tensorboard_log", ""),
    ("progress_bar", "yes"), ("deterministic_eval", 1),
    ("tech_packs", "grid"), ("tech_packs", ["nope"]), ("tech_packs", [1]), ("tech_packs", ["grid", "grid"]),
    ("win_bonus", -1), ("win_bonus", math.nan),
]


@pytest.mark.parametrize("field,value", BAD_VALUES, ids=lambda v: repr(v)[:20])
@pytest.mark.parametrize("cls", [PPOSoloConfig, PPOSeatConfig])
def test_every_hyper_parameter_range_is_checked_at_load(cls, field, value):
    """``clip_range: -1`` (and every other out-of-range value) trained before."""
    with pytest.raises(ConfigError) as info:
        load_config(None, cls, {field: value})
    msg = str(info.value)
    assert msg.startswith(f"{field}: "), msg
    assert "\n" not in msg


@pytest.mark.parametrize("field,value", [("scenario", "nope"), ("scenario", ""), ("scenario", 3),
                                         ("reward_mode", "margin")])
def test_solo_config_fields_are_checked_at_load(field, value):
    with pytest.raises(ConfigError, match=f"^{field}: "):
        load_config(None, PPOSoloConfig, {field: value})


def test_unknown_scenario_lists_the_scenarios():
    with pytest.raises(ConfigError, match=r"^scenario: unknown scenario 'first_lite'; available: .*first_light"):
        load_config(None, PPOSoloConfig, {"scenario": "first_lite"})


def test_unknown_tech_pack_lists_the_packs():
    with pytest.raises(ConfigError, match=r"^tech_packs: unknown tech pack 'grd'; shipped packs: grid, market"):
        load_config(None, PPOSoloConfig, {"tech_packs": ["grd"]})


@pytest.mark.parametrize("field,value", [("n_players", 1), ("n_players", 5), ("n_players", 2.5), ("seat", 2),
                                         ("seat", -1), ("seat", True), ("points_scale", 0),
                                         ("points_scale", math.inf), ("reward_mode", "best")])
def test_seat_config_fields_are_checked_at_load(field, value):
    with pytest.raises(ConfigError, match=f"^{field}: "):
        load_config(None, PPOSeatConfig, {field: value})


def test_direct_construction_is_validated_too():
    with pytest.raises(ConfigError, match="^clip_range: must be > 0"):
        PPOSoloConfig(clip_range=-1)
    with pytest.raises(ConfigError, match="^scenario: unknown scenario"):
        PPOSoloConfig(scenario="nope")


def test_edge_values_and_pack_paths_are_accepted():
    cfg = load_config(None, PPOSoloConfig, {"gamma": 1, "gae_lambda": 1.0, "ent_coef": 0, "vf_coef": 0,
                                            "torch_threads": 0, "eval_every": 0, "net_arch": [],
                                            "tech_packs": ["grid", "configs/cards/tech_market.yaml"],
                                            "seed": 2**32 - 1, "device": "cuda:1", "batch_size": 4096})
    assert cfg.gamma == 1.0 and isinstance(cfg.gamma, float) and cfg.ent_coef == 0.0
    assert cfg.tech_packs == ["grid", "configs/cards/tech_market.yaml"]
    assert load_config("configs/ppo_seat.yaml", PPOSeatConfig, {"seat": 1}).seat == 1


def test_unknown_key_is_refused_with_a_suggestion(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("clip_rang: 0.3\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).startswith(f"{path}: unknown field 'clip_rang' (did you mean 'clip_range'?)")
    with pytest.raises(ConfigError, match=r"^overrides: unknown field 'n_player' \(did you mean 'n_players'\?\)"):
        load_config(None, PPOSeatConfig, {"n_player": 3})
    with pytest.raises(ConfigError, match=r"unknown field 'n_players'.*PPOSoloConfig"):
        load_config(None, PPOSoloConfig, {"n_players": 3})


def test_yaml_1_1_exponent_without_a_dot_gets_a_hint(tmp_path):
    """PyYAML reads ``3e-4`` as text (YAML 1.1 wants ``3.0e-4``): say so instead of "expected float"."""
    path = tmp_path / "lr.yaml"
    path.write_text("learning_rate: 3e-4\n", encoding="utf-8")
    hint = r"\(YAML 1.1 reads 3e-4 as text: write 3.0e-4\)"
    with pytest.raises(ConfigError, match=r"^learning_rate: expected float, got '3e-4' " + hint + "$"):
        load_config(path)


@pytest.mark.parametrize("item,pattern", [
    ("clip_range", r"^--set expects FIELD=VALUE, got 'clip_range'$"),
    ("clip_range=[", r"^--set clip_range=\[: YAML syntax error at line 1"),
    ("=3", r"^--set expects FIELD=VALUE, got '=3'$"),
])
def test_bad_command_line_overrides_give_one_line(item, pattern):
    with pytest.raises(ConfigError, match=pattern):
        parse_overrides([item])


def test_command_line_overrides_parse_yaml_values():
    assert parse_overrides(["net_arch=[16, 16]", "seat=null", " gamma = 0.9"]) == {
        "net_arch": [16, 16], "seat": None, "gamma": 0.9}
