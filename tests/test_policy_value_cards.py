"""The shipped files of the policy-value design (``policies/<game>-<n>p.pt`` with a
``card-slots-v1`` network): each loads for its game, has a model card in the sections of a
Hugging Face card whose Evaluation table is the ``evaluation`` list of its ``.meta.json`` (Wilson
intervals, arena commands on seeds training never drew), is listed in ``policies/README.md`` and
rendered by ``docs/policies.md``, and plays as the registry's ``policy`` agent."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from electrify_env.agents.arena import wilson_interval
from electrify_env.agents.network import load
from electrify_env.agents.network.policy_file import FORMAT, load_meta
from electrify_env.agents.registry import POLICY_DIR, make_agent
from electrify_env.games import get_game
from electrify_env.training.expert.trainer import TRAINING_SEEDS

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = ["Model details", "Intended use", "How to load and play it", "Training procedure and compute",
            "Evaluation", "Limitations"]
ROW_KEYS = {"opponent", "agent", "players", "games", "seed", "win_rate", "ci_low", "ci_high", "command",
            "ms_per_move", "min_game_seed"}
ROW = re.compile(r"^\| `([^`]+)` \| `([^`]+)` \| (\d+) \| (\d+) \| (\d+) \| ([\d.]+)% \| \[([\d.]+), ([\d.]+)\] \| "
                 r"([\d.]+) \| `([^`]+)` \|$", re.M)


def _files() -> list[Path]:
    out = []
    for p in sorted(POLICY_DIR.glob("*.pt")):
        try:
            if load_meta(p).get("format") == FORMAT:
                out.append(p)
        except Exception:        # the older files of another format
            continue
    return out


FILES = _files()


def _section(text: str, title: str) -> str:
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.S | re.M)
    assert m, f"no '## {title}' section"
    return m.group(1)


def test_a_gizmos_policy_is_shipped():
    assert any(load_meta(p)["game"] == "gizmos" for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_file_loads_for_its_game_and_plays_as_policy(path):
    meta = load_meta(path)
    gdef = get_game(meta["game"])
    game = gdef.new_game(meta["n_players"], seed=2**31 + 5)
    net, _ = load(path, card_set_hash=game.cards.hash)
    assert path.name == f"{gdef.name}-{meta['n_players']}p.pt" and path.stat().st_size < 5 * 1024 * 1024
    for key in ("trainer", "config", "counts", "rounds", "search", "evaluation", "card_set_hash", "obs_version"):
        assert key in meta, key
    agent = make_agent("policy:simulations=0", game=gdef.name)      # the shipped file by default
    agent.reset(1)
    steps = 0
    while not game.is_terminal and steps < 200:
        game.step(int(agent.act_in(game)))
        steps += 1
    assert steps == 200 or game.is_terminal


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_card_has_the_sections_and_the_metadata_facts(path):
    meta = load_meta(path)
    card = path.with_suffix(".md").read_text(encoding="utf-8")
    assert card.startswith(f"# {path.stem}")
    for title in SECTIONS:
        _section(card, title)
    assert meta["card_set_hash"] in card and path.name in card
    assert f"hidden {meta['config']['hidden']}" in card and f"embed {meta['config']['embed']}" in card
    assert f"configs/{path.stem}-expert.yaml" in card


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_evaluation_table_is_the_metadata_and_consistent(path):
    meta = load_meta(path)
    rows = meta["evaluation"]
    table = ROW.findall(_section(path.with_suffix(".md").read_text(encoding="utf-8"), "Evaluation"))
    assert rows and len(table) == len(rows)
    for r, (agent, opp, players, games, seed, rate, lo, hi, ms, command) in zip(rows, table):
        assert set(r) == ROW_KEYS, r
        assert (agent, opp, int(players), int(games), int(seed), command) == \
               (r["agent"], r["opponent"], r["players"], r["games"], r["seed"], r["command"])
        assert (float(rate), float(lo), float(hi)) == (round(100 * r["win_rate"], 1), round(100 * r["ci_low"], 1),
                                                      round(100 * r["ci_high"], 1))
        assert float(ms) == round(r["ms_per_move"], 1)
        wl, wh = wilson_interval(r["win_rate"] * r["games"], r["games"])
        assert abs(wl - r["ci_low"]) < 0.0011 and abs(wh - r["ci_high"]) < 0.0011
        lineup = ",".join([r["agent"]] + [r["opponent"]] * (1 if r["players"] == 2 else r["players"] - 1))
        assert command.startswith(f"electrify arena --game {meta['game']} --agents {lineup} --players {r['players']} ")
        assert f" --games {r['games']} " in command and f" --seed {r['seed']} " in command
        assert r["min_game_seed"] >= TRAINING_SEEDS[1]      # no game training or screening played
        assert r["games"] >= 400


def test_the_index_and_the_docs_page_list_every_file():
    index = (POLICY_DIR / "README.md").read_text()
    page = (ROOT / "docs" / "policies.md").read_text()
    for p in FILES:
        assert sum(line.startswith(f"| [{p.stem}]({p.stem}.md) |") for line in index.splitlines()) == 1
        assert f'--8<-- "policies/{p.stem}.md"' in page
