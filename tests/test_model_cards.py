"""The model cards: one ``policies/<name>.md`` per shipped policy, short, in the sections of a
Hugging Face / rl-baselines3-zoo card, naming the facts of its ``.meta.json`` (card-set hash,
observation version, architecture, size), with an evaluation table that is the ``evaluation``
list of the ``.meta.json``; ``policies/README.md`` is their index and the docs page
``docs/policies.md`` renders them.  (The cards' Python blocks run in ``tests/test_docs_site.py``,
which executes every block of the docs pages, snippet includes expanded.)"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from electrify_env.agents.arena import wilson_interval
from electrify_env.agents.policy_meta import load_policy_metadata
from electrify_env.agents.registry import POLICY_DIR, SHIPPED_KINDS

ROOT = Path(__file__).resolve().parents[1]
MAX_LINES = 150
SECTIONS = ["Model details", "Intended use", "How to load and play it", "Training procedure and compute",
            "Evaluation", "Limitations"]
ROW_KEYS = {"opponent", "players", "games", "seed", "win_rate", "ci_low", "ci_high", "command"}
# file stem -> agent name, for every shipped policy present
CARDS = {f[:-3]: name for name, _, f, _ in SHIPPED_KINDS if (POLICY_DIR / f).is_file()}
# a row of an Evaluation table: opponent (or scenario) | players | games | seed | rate | [lo, hi] | `command`
ROW = re.compile(r"^\| ([^|]+?) \| (\d+) \| (\d+) \| (\d+) \| ([\d.]+)% \| \[([\d.]+), ([\d.]+)\] \| `([^`]+)` \|$",
                 re.M)


def _card(stem: str) -> str:
    return (POLICY_DIR / f"{stem}.md").read_text(encoding="utf-8")


def _section(text: str, title: str) -> str:
    """The body of the ``## title`` section of a card."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.S | re.M)
    assert m, f"no '## {title}' section"
    return m.group(1)


def test_every_shipped_policy_has_a_card():
    assert set(CARDS) == {p.name[:-3] for p in POLICY_DIR.glob("electrify-*.pt")}
    assert sorted(p.stem for p in POLICY_DIR.glob("electrify-*.md")) == sorted(CARDS)


@pytest.mark.parametrize("stem", sorted(CARDS))
def test_card_is_short_and_has_the_sections(stem):
    text = _card(stem)
    assert len(text.splitlines()) <= MAX_LINES, f"{stem}.md: {len(text.splitlines())} lines"
    assert text.startswith(f"# {stem} (`{CARDS[stem]}`)\n")
    assert re.findall(r"^## (.+)$", text, flags=re.M) == SECTIONS


@pytest.mark.parametrize("stem", sorted(CARDS))
def test_card_names_the_facts_of_its_metadata(stem):
    """The card-set hash, the observation version and size, the architecture id and hidden
    layers, the action count, the player count and the file's size in bytes."""
    text = _section(_card(stem), "Model details")
    pt = POLICY_DIR / f"{stem}.pt"
    meta = load_policy_metadata(pt)
    assert meta["card_set_hash"] in text
    assert f"| observation version | {meta['obs_version']} (observation size {meta['obs_size']:,}" in text
    assert f"`{meta['arch']['arch']}`" in text and f"hidden layers {meta['arch']['hidden']}" in text
    assert f"over the {meta['n_actions']} action ids" in text
    assert f"| players | {meta['n_players']} " in text
    assert f"{pt.stat().st_size:,} bytes" in text
    assert f"`{meta['env_id']}`" in text


@pytest.mark.parametrize("stem", sorted(CARDS))
def test_card_training_compute_is_the_metadata_chain(stem):
    """Every stage of the ``init_from`` chain (and the file's own run) appears with its decisions
    and seconds, and the total is their sum."""
    text = _section(_card(stem), "Training procedure and compute")
    meta = load_policy_metadata(POLICY_DIR / f"{stem}.pt")
    runs, link = [], meta
    while link:
        runs.append(link)
        link = link.get("init_from")
    total = 0.0
    for run in runs:
        decisions = run["steps"] or run["imitation_steps"]
        assert f"| {decisions:,} | {run['train_seconds']:,.1f} s |" in text, (stem, decisions)
        total += run["train_seconds"]
    assert f"{total:,.1f} s" in text


@pytest.mark.parametrize("stem", sorted(CARDS))
def test_evaluation_rows_of_the_metadata_are_the_cards_table(stem):
    meta = json.loads((POLICY_DIR / f"{stem}.meta.json").read_text())
    rows = meta["evaluation"]
    assert rows and all(isinstance(r, dict) for r in rows)
    solo = meta["n_players"] == 1
    table = ROW.findall(_section(_card(stem), "Evaluation"))
    assert len(table) == len(rows), f"{stem}: the card's table has {len(table)} rows, the metadata {len(rows)}"
    for r, (first, players, games, seed, rate, lo, hi, command) in zip(rows, table):
        assert set(r) == ROW_KEYS | ({"scenario"} if solo else set()), r
        assert first == (r["scenario"] if solo else r["opponent"])
        assert (int(players), int(games), int(seed)) == (r["players"], r["games"], r["seed"]) == \
               (meta["n_players"], r["games"], r["seed"])
        assert (float(rate), float(lo), float(hi)) == (round(100 * r["win_rate"], 1), round(100 * r["ci_low"], 1),
                                                      round(100 * r["ci_high"], 1))
        assert command == r["command"]


@pytest.mark.parametrize("stem", sorted(CARDS))
def test_evaluation_rows_are_consistent(stem):
    """Each row's interval is the Wilson interval of its rate, and its command is the arena run
    of that agent, line-up, game count and seed."""
    meta = json.loads((POLICY_DIR / f"{stem}.meta.json").read_text())
    agent = CARDS[stem]
    for r in meta["evaluation"]:
        lo, hi = wilson_interval(r["win_rate"] * r["games"], r["games"])
        assert abs(lo - r["ci_low"]) < 0.0011 and abs(hi - r["ci_high"]) < 0.0011, r
        cmd = r["command"]
        assert cmd.startswith("electrify arena --agents ")
        assert f" --games {r['games']} " in cmd and f" --seed {r['seed']} " in cmd
        if meta["n_players"] == 1:
            assert r["opponent"] is None and cmd.startswith(f"electrify arena --agents {agent} --solo ")
            assert r["scenario"] in cmd.split(" --solo ")[1].split()[0].split(",") or " --solo all " in cmd
        else:
            assert f"--agents {agent},{r['opponent']} --players {r['players']} " in cmd


def test_the_index_lists_every_card_once():
    text = (POLICY_DIR / "README.md").read_text()
    assert len(text.splitlines()) <= 40
    for stem, agent in CARDS.items():
        rows = [line for line in text.splitlines() if line.startswith(f"| [{stem}]({stem}.md) |")]
        assert len(rows) == 1 and f"`{agent}`" in rows[0], stem


def test_the_docs_page_renders_every_card():
    text = (ROOT / "docs" / "policies.md").read_text()
    for stem in CARDS:
        assert f'--8<-- "policies/{stem}.md"' in text, stem
