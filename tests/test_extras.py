"""Every ``electrify`` command names its missing extra in one line before it does any work, in
the install form that fits the installation; ``electrify --version``."""
import json
import re
import tomllib
from pathlib import Path

import pytest

from electrify_env import cli, extras
from electrify_env.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]

#: a runnable command line per sub-command (the work itself is replaced, so nothing plays)
ARGV = {
    "demo": ["demo"], "cards": ["cards", "validate", "configs/cards/base.yaml"], "soak": ["soak", "--games", "1"],
    "scenarios": ["scenarios"], "layout": ["layout"], "replay": ["replay", "x.jsonl"], "agents": ["agents"],
    "teacher-data": ["teacher-data", "--games", "1"], "arena": ["arena", "--agents", "random,greedy"],
    "balance": ["balance", "--agents", "greedy"], "play": ["play"], "serve": ["serve"],
    "train": ["train", "electrify-2p"], "exploit": ["exploit", "trained_2p"],
    "ladder": ["ladder", "--games", "2"],
}
FUNCS = {"teacher-data": "_cmd_teacher_data"}


def subcommands() -> set[str]:
    """The sub-commands of the electrify parser."""
    for action in build_parser()._actions:
        if hasattr(action, "choices") and isinstance(action.choices, dict):
            return set(action.choices)
    raise AssertionError("no sub-commands")


def test_every_command_has_an_entry_and_its_extras_exist():
    assert subcommands() == set(extras.COMMAND_NEEDS) == set(ARGV)
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for need in [*extras.COMMAND_NEEDS.values(), extras.RAY_NEED, extras.RLLIB_NEED]:
        for extra in need.extras:
            assert extra in declared
        # the named extras install every module checked (pillow installs PIL)
        pkgs = {re.split(r"[<>=\[ ]", d)[0].lower() for e in need.extras for d in declared[e]}
        for m in need.modules:
            assert {"PIL": "pillow", "torch": "torch"}.get(m, m).lower() in pkgs, (need, m)


def test_the_all_extra_covers_the_commands():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names = lambda e: {re.split(r"[<>=\[ ]", d)[0].lower() for d in declared[e]}   # noqa: E731
    assert names("all") >= names("envs") | names("train") | names("arena") | names("web")
    assert [d for d in declared["all"] if d.startswith("torch")] == ["torch>=2.8,<2.14"]


@pytest.mark.parametrize("command", sorted(c for c, n in extras.COMMAND_NEEDS.items() if n.modules))
def test_a_missing_module_stops_the_command_in_one_line(command, monkeypatch, capsys):
    need = extras.COMMAND_NEEDS[command]
    gone = need.modules[-1]
    monkeypatch.setattr(extras, "find_spec", lambda name: None if name == gone else object())
    monkeypatch.setattr(extras, "editable_install", lambda: True)
    ran = []
    func = FUNCS.get(command, f"_cmd_{command}")
    monkeypatch.setattr(cli, func, lambda args: ran.append(args) or 0)
    assert main(ARGV[command]) == 2
    out = capsys.readouterr()
    assert out.out == "" and len(out.err.strip().splitlines()) == 1
    shown = "pillow" if gone == "PIL" else gone
    assert f"electrify {command}: needs {shown}" in out.err
    assert f'pip install -e ".[{",".join(need.extras)}]"' in out.err
    assert not ran


@pytest.mark.parametrize("argv, extra", [
    (["arena", "--agents", "random,greedy", "--backend", "ray"], "ray"),
    (["train", "--backend", "rllib", "configs/rllib_2p.yaml"], "ray"),
])
def test_a_backend_names_its_extra(argv, extra, monkeypatch, capsys):
    monkeypatch.setattr(extras, "find_spec", lambda name: None if name == "ray" else object())
    monkeypatch.setattr(extras, "editable_install", lambda: False)
    ran = []
    monkeypatch.setattr(cli, f"_cmd_{argv[0]}", lambda args: ran.append(args) or 0)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and f'pip install "electrify-env[{extra}]"' in err and not ran


def test_with_everything_installed_the_command_runs(monkeypatch, capsys):
    monkeypatch.setattr(extras, "find_spec", lambda name: object())
    ran = []
    monkeypatch.setattr(cli, "_cmd_arena", lambda args: ran.append(args) or 0)
    assert main(ARGV["arena"]) == 0 and len(ran) == 1


def test_the_install_command_fits_the_installation():
    assert extras.install_command(["arena"], editable=True) == 'pip install -e ".[arena]"'
    assert extras.install_command(["train", "arena"], editable=False) == 'pip install "electrify-env[train,arena]"'


class FakeDist:
    """A distribution whose direct_url.json is ``text``."""

    def __init__(self, text):
        self.text = text

    def read_text(self, name):
        return self.text if name == "direct_url.json" else None


@pytest.mark.parametrize("direct_url, editable", [
    ({"url": "file:///src/electrify", "dir_info": {"editable": True}}, True),
    ({"url": "file:///src/electrify", "dir_info": {}}, False),
    ({"url": "https://files.example/electrify_env-0.1.0-py3-none-any.whl", "archive_info": {}}, False),
])
def test_the_install_form_is_read_from_direct_url(direct_url, editable, monkeypatch):
    import importlib.metadata

    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: FakeDist(json.dumps(direct_url)))
    assert extras.editable_install() is editable
    assert extras.install_command(["web"]).startswith("pip install -e" if editable else 'pip install "electrify-env')


def test_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"electrify-env {version('electrify-env')}\n"
