"""The Gizmos observation (electrify_env/gizmos/observation.py): its layout and names, its range,
seat-relative order, the card features read from the table, and G25 (a seat sees nothing hidden:
games that differ only in deck order, the cards removed at setup, the generator or another seat's
researched cards look the same to it)."""
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest
import yaml

from electrify_env.gizmos import Game
from electrify_env.gizmos import observation as O
from electrify_env.gizmos.cards import DEFAULT_CARDS, compile_card_set
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.engine.gz_energy import pbase
from electrify_env.validation import InvalidArgumentError


def _field(name: str) -> int:
    """The offset of the observation entry called ``name``."""
    return O.feature_names().index(name)


def _play(game: Game, rng: np.random.Generator, until=None, limit: int = 5000) -> bool:
    """Random legal moves until ``until(game)`` holds (True) or the game ends (False)."""
    for _ in range(limit):
        if until is not None and until(game):
            return True
        if game.done:
            return False
        game.step(int(rng.choice(game.legal_actions())))
    raise AssertionError("no end after the move limit")


def test_layout_names_every_entry_once_and_rows_are_contiguous():
    names = O.feature_names()
    assert len(names) == O.OBS_SIZE == len(set(names))
    assert len(O.card_feature_names()) == O.CF_SIZE
    for title, rows in O.observation_rows().items():
        at = 0
        for name, off, length, _ in rows:
            assert off == at, (title, name)
            at += length
    assert sum(r[2] for r in O.observation_rows()["observation"]) == O.OBS_SIZE
    assert "| `display` |" in O.observation_markdown()


@pytest.mark.parametrize("n_players,seed", [(2, 0), (3, 1), (4, 2)])
def test_random_games_stay_in_the_unit_box_and_visit_every_phase(n_players, seed):
    g = Game(n_players, seed=seed)
    rng = np.random.default_rng(seed)
    phases = set()
    while True:
        phases.add(g.phase)
        for s in range(n_players):
            obs = O.observe(g, s)
            assert obs.dtype == np.float32 and obs.shape == (O.OBS_SIZE,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            assert obs[_field(f"n_players.{n_players}")] == 1.0
            assert obs[_field(f"phase.{g.phase}")] == 1.0
        if g.done:
            break
        g.step(int(rng.choice(g.legal_actions())))
    assert {"main", "pay", "chain", "game_over"} <= phases
    assert O.observe(g, 0)[_field("status.over")] == 1.0


def test_player_blocks_are_seat_relative():
    g = Game(3, seed=4)
    g.state[pbase(1) + L.P_TOKENS] = 7
    for seat, block in ((1, "p0"), (0, "p1"), (2, "p2")):
        obs = O.observe(g, seat)
        assert obs[_field(f"player.{block}.tokens")] == pytest.approx(7 / O.SC_TOKENS)
        assert obs[_field(f"to_move.p{(0 - seat) % 3}")] == 1.0     # seat 0 moves first
    assert O.observe(g, 0)[_field("player.p3.present")] == 0.0     # no fourth seat


def test_card_features_come_from_the_card_table():
    g = Game(2, seed=9)
    T = g.cards.table
    obs = O.observe(g, 0)
    card = int(g.state[L.S_DISPLAY + 1 * L.MAX_DISPLAY + 2])          # level II, slot 2 (x = 6)
    assert obs[_field("display.6.present")] == 1.0
    assert obs[_field("display.6.cost")] == pytest.approx(min(1.0, T[L.T_COST + card] / O.SC_COST))
    assert obs[_field("display.6.points")] == pytest.approx(min(1.0, T[L.T_POINTS + card] / O.SC_POINTS))
    assert obs[_field("display.6.level.II")] == 1.0
    colour = ("red", "yellow", "blue", "black", "any", "none")[T[L.T_COLOUR + card]]
    assert obs[_field(f"display.6.colour.{colour}")] == 1.0
    assert obs[_field("display.3.present")] == (1.0 if T[L.T_DISPLAY] == 4 else 0.0)
    assert obs[_field("display.11.present")] == 0.0                     # level III shows 2 slots
    # the starting machine: a level-0 file machine, in the observer's first slot and in its sum
    assert obs[_field("own_machine.0.type.file")] == 1.0 and obs[_field("own_machine.0.level.0")] == 1.0
    assert obs[_field("player.p0.machine_sum.present")] == pytest.approx(1 / O.SC_BAG)


def _hide_differently(g: Game, rng: np.random.Generator) -> Game:
    """A copy of ``g`` that differs only where G25 hides from every seat: the order of the deck
    cards whose place no seat knows, which cards were removed at setup (swapped with such
    level-III deck cards) and the generator words."""
    h = g.copy()
    S = h.state
    unknown = []
    for d in range(L.N_DECKS):
        n = int(S[L.S_DECK_N + d])
        lo = L.S_DECK + d * L.MAX_DECK
        free = lo + np.flatnonzero(S[L.S_DECK_KNOWN + d * L.MAX_DECK:L.S_DECK_KNOWN + d * L.MAX_DECK + n] == 0)
        S[free] = rng.permutation(S[free])
        unknown.append(free)
    nbox = int(S[L.S_BOX_N])
    for i, at in enumerate(unknown[2][:nbox]):
        S[L.S_BOX + i], S[at] = S[at], S[L.S_BOX + i]
    S[L.S_RNG:L.S_RNG + 4] = rng.integers(1, 2**32, size=4)
    assert not np.array_equal(S, g.state)
    return h


@pytest.mark.parametrize("n_players,seed,moves", [(2, 3, 0), (3, 5, 40), (4, 8, 120)])
def test_g25_games_that_differ_only_in_hidden_parts_look_the_same(n_players, seed, moves):
    g = Game(n_players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        g.step(int(rng.choice(g.legal_actions())))
    h = _hide_differently(g, rng)
    for s in range(n_players):
        assert np.array_equal(O.observe(g, s), O.observe(h, s))


def test_g25_researched_cards_are_seen_by_the_researcher_only():
    g = Game(3, seed=11)
    assert _play(g, np.random.default_rng(11), until=lambda x: x.phase == "research" and x.state[L.S_RES_N] > 0)
    h = g.copy()
    S = h.state
    d = int(S[L.S_RES_DECK])
    lo = L.S_DECK + d * L.MAX_DECK
    assert S[L.S_DECK_N + d] > 0
    S[L.S_RES], S[lo] = S[lo], S[L.S_RES]      # a different first drawn card (the deck keeps its cards)
    assert S[L.S_RES] != g.state[L.S_RES]
    me = g.current_player
    for s in range(3):
        same = np.array_equal(O.observe(g, s), O.observe(h, s))
        assert same == (s != me), s
    obs = O.observe(g, me)
    assert obs[_field("research_card.0.present")] == 1.0
    assert obs[_field(f"research_deck.{('I', 'II', 'III')[d]}")] == 1.0
    other = O.observe(g, (me + 1) % 3)
    assert other[_field("research_card.0.present")] == 0.0
    assert other[_field("research_n")] == obs[_field("research_n")] > 0


def test_g25_cards_put_under_a_deck_are_known_to_the_researcher_only():
    g = Game(2, seed=6)
    rng = np.random.default_rng(6)
    assert _play(g, rng, until=lambda x: x.state[L.S_DECK_KNOWN:L.S_DECK_KNOWN + L.N_DECKS * L.MAX_DECK].any())
    bits = g.state[L.S_DECK_KNOWN:L.S_DECK_KNOWN + L.N_DECKS * L.MAX_DECK]
    for seat in range(2):
        mine = bits.reshape(L.N_DECKS, L.MAX_DECK) >> seat & 1
        obs = O.observe(g, seat)
        for d, lv in enumerate(("I", "II", "III")):
            assert obs[_field(f"known_under.{lv}.n")] == pytest.approx(min(1.0, mine[d].sum() / O.SC_KNOWN))
            assert (obs[_field(f"known_under.{lv}.present")] > 0) == bool(mine[d].any())


def test_pay_block_shows_the_card_being_built():
    g = Game(2, seed=2)
    assert _play(g, np.random.default_rng(2), until=lambda x: x.phase == "pay")
    obs = O.observe(g, g.current_player)
    card = int(g.state[L.S_PAY_CARD])
    assert obs[_field("pay_card.present")] == 1.0
    assert obs[_field("pay_card.cost")] == pytest.approx(min(1.0, g.cards.table[L.T_COST + card] / O.SC_COST))
    assert obs[_field("pay_owed")] > 0
    assert obs[[_field(f"pay_source.{s}") for s in ("display", "archive", "research")]].sum() == 1.0


def test_any_schema_valid_card_set_gives_the_same_size():
    """A different set (other costs, rules and display sizes) plays and observes in the same
    vector size: nothing is sized from the default set's cards."""
    data = yaml.safe_load(DEFAULT_CARDS.read_text())
    data["rules"].update({"display": [3, 2, 1], "storage": 6, "max_rounds": 30})
    data["cards"] = [c for c in data["cards"] if not str(c["id"]).endswith(("-03", "-07", "-11"))]
    for c in data["cards"]:
        if c["level"] == 3:
            c["cost"] = 9       # beyond the cost scale: clipped at 1
    cards = compile_card_set(data, "variant")
    g = Game(4, seed=1, card_set=cards)
    start = O.observe(g, 0)
    assert start[_field("display.8.cost")] == 1.0             # level III slot 0: cost 9 clips to 1
    assert start[_field("display.9.present")] == 0.0          # one level-III slot only
    assert start[_field("display.3.present")] == 0.0          # three level-I slots
    rng = np.random.default_rng(1)
    while not g.done:
        obs = O.observe(g, g.current_player)
        assert obs.shape == (O.OBS_SIZE,) and obs.min() >= 0.0 and obs.max() <= 1.0
        g.step(int(rng.choice(g.legal_actions())))
    assert g.round <= 30


def test_bad_seat_and_out_buffer_are_refused():
    g = Game(2, seed=0)
    with pytest.raises(InvalidArgumentError, match="seat must be 0..1"):
        O.observe(g, 2)
    with pytest.raises(InvalidArgumentError, match="seat must be an integer"):
        O.observe(g, 1.0)
    with pytest.raises(InvalidArgumentError, match="out must be a float32"):
        O.observe(g, 0, out=np.zeros(O.OBS_SIZE))
    out = np.full(O.OBS_SIZE, 5.0, dtype=np.float32)
    assert O.observe(g, 1, out=out) is out and np.array_equal(out, O.observe(g, 1))


def test_the_kernel_gives_the_same_vector_without_the_jit():
    """NUMBA_DISABLE_JIT=1 runs the same code as plain Python: the observations of every seat
    along a seeded random game are the same, bit for bit."""
    code = ("import sys, numpy as np\n"
            "from electrify_env.gizmos import Game\n"
            "from electrify_env.gizmos.observation import observe\n"
            "g = Game(3, seed=13); rng = np.random.default_rng(13); out = []\n"
            "for _ in range(150):\n"
            "    out.append(np.stack([observe(g, s) for s in range(3)]))\n"
            "    g.step(int(rng.choice(g.legal_actions())))\n"
            "np.save(sys.argv[1], np.stack(out))\n")
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for flag in ("0", "1"):
            path = os.path.join(tmp, f"obs{flag}.npy")
            env = dict(os.environ, NUMBA_DISABLE_JIT=flag)
            done = subprocess.run([sys.executable, "-c", code, path], env=env, capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, done.stderr[-2000:]
            runs.append(np.load(path))
    assert runs[0].shape == (150, 3, O.OBS_SIZE) and np.array_equal(runs[0], runs[1])
