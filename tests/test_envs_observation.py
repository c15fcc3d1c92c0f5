"""The observation vector (engine/observe.py): names, range, documentation, seat-relative order,
the pending decision, and R26 (no hidden information)."""
from pathlib import Path

import numpy as np
import pytest

from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.engine import observe as O
from electrify_env.engine.infoset import determinize, scrub

from positions import pb

DOC = Path(__file__).resolve().parents[1] / "docs" / "observation.md"


def random_states(n_players, seed, every=7, tech_packs=(), scenario=None):
    """Yield (game, decision index) at every ``every``-th decision of a random game."""
    g = Game(n_players=n_players, seed=seed, tech_packs=tech_packs, scenario=scenario)
    rng = np.random.default_rng(seed)
    k = 0
    while not g.is_terminal:
        if k % every == 0:
            yield g, k
        g.step(int(rng.choice(g.legal_actions())))
        k += 1
    yield g, k


def test_feature_names_unique_and_cover_the_vector():
    names = O.feature_names()
    assert len(names) == len(set(names)) == O.OBS_SIZE
    assert names[O.O_ROUND] == "round"
    assert names[O.O_PLAYERS] == "p0_depot_c0"
    assert names[O.O_PLAYERS + O.PL_SIZE] == "p1_depot_c0"
    assert names[O.O_PEND_REW] == "pending_reward_0_open"
    assert O.obs_size() == O.OBS_SIZE and O.obs_size(1) == O.O_PLAYERS + O.PL_SIZE


def test_observation_doc_is_generated_from_the_layout():
    """docs/observation.md holds the table that observation_markdown() prints (regenerate it with
    ``python -m electrify_env.engine.observe`` after a layout change)."""
    assert O.observation_markdown() in DOC.read_text()


@pytest.mark.parametrize("n_players,packs,scenario", [(2, (), None), (4, ("grid", "market"), None),
                                                      (1, (), "first_light"), (1, ("grid",), "net_zero")])
def test_every_entry_lies_in_0_1(n_players, packs, scenario):
    lo, hi = 1.0, 0.0
    for seed in range(3):
        for g, _ in random_states(n_players, seed, every=3, tech_packs=packs, scenario=scenario):
            for p in range(n_players):
                o = g.observe(p)
                assert o.dtype == np.float32 and o.shape == (O.OBS_SIZE,)
                assert np.isfinite(o).all()
                lo, hi = min(lo, o.min()), max(hi, o.max())
                # blocks of absent seats stay zero
                assert not o[O.obs_size(n_players):].any()
    assert lo >= 0.0 and hi <= 1.0


def test_players_are_seat_relative():
    g = Game(n_players=3, seed=4)
    S = g.state
    S[pb(2) + L.P_SCORE] = 30
    S[pb(1) + L.P_SCORE] = 10
    for p, expect in [(0, [0, 10, 30]), (1, [10, 30, 0]), (2, [30, 0, 10])]:
        o = g.observe(p)
        got = [round(float(o[O.O_PLAYERS + r * O.PL_SIZE + O.PL_SCORE]) * O.SC_SCORE) for r in range(3)]
        assert got == expect


def test_to_move_is_seat_relative_and_pending_only_for_the_mover():
    g = Game(n_players=3, seed=5)
    g.step(L.A_PLAN + 0)          # player 0 dialled; player 1 to choose
    o0, o1, o2 = (g.observe(p) for p in range(3))
    assert o1[O.O_TO_MOVE] == 1 and o0[O.O_TO_MOVE + 1] == 1 and o2[O.O_TO_MOVE + 2] == 1
    assert o1[O.O_FRAME + L.FT_PLAN] == 1
    assert not o0[O.O_FRAME:O.O_FRAME + L.N_FRAME_TYPES].any()
    assert not o2[O.O_FRAME:O.O_FRAME + L.N_FRAME_TYPES].any()
    assert o0[O.O_OWN_PLAN + 0] == 1 and not o1[O.O_OWN_PLAN:O.O_OWN_PLAN + 5].any()


def test_pending_reward_slots_describe_the_open_rewards():
    """A demand card being rewarded: its slots show kind and value; taken slots close."""
    rng = np.random.default_rng(0)
    seen = 0
    for seed in range(40):
        g = Game(n_players=2, seed=seed)
        while not g.is_terminal and seen < 3:
            t = L.S_STACK + (int(g.state[L.S_SP]) - 1) * L.FRAME
            if g.state[t] == L.FT_REWARD:
                o = g.observe(g.current_player)
                mask = g.legal_mask()
                for r in range(L.MAX_REWARDS):
                    is_open = o[O.O_PEND_REW + r * O.N_REW_SLOT] == 1
                    assert is_open == bool(mask[L.A_REWARD + r])
                assert o[O.O_PEND_REW_SRC:O.O_PEND_REW_SRC + 3].sum() == 1
                seen += 1
            g.step(int(rng.choice(g.legal_actions())))
    assert seen >= 3


def test_pending_icon_action_and_uses():
    rng = np.random.default_rng(1)
    checked = 0
    for seed in range(10):
        g = Game(n_players=2, seed=seed)
        while not g.is_terminal:
            t = L.S_STACK + (int(g.state[L.S_SP]) - 1) * L.FRAME
            if g.state[t] == L.FT_ICON:
                o = g.observe(g.current_player)
                assert o[O.O_PEND_ACT:O.O_PEND_ACT + len(O._ICON_ACTS)].sum() == 1
                assert o[O.O_PEND_NUM] == pytest.approx(min(g.state[t + L.FR_D] / O.SC_USES, 1.0))
                assert o[O.O_PEND_SECTOR + g.state[t + L.FR_B]] == 1
                checked += 1
            g.step(int(rng.choice(g.legal_actions())))
    assert checked > 10


# ---- R26: hidden information ------------------------------------------------------------------
def _perturbed(g: Game, p: int, rng) -> np.ndarray:
    """A copy of the state with hidden information changed for observer p: deck order reversed
    and shuffled, another player's hand card swapped with a deck card of the same deck, other
    players' dialled plans changed, the generator reseeded."""
    S = g.state.copy()
    T = g.cards.table
    for d in range(2):
        n = int(S[L.S_DECK_N + d])
        base = L.S_DECK + d * L.MAX_DECK
        S[base:base + n] = rng.permutation(S[base:base + n])
    for q in range(g.n_players):
        if q == p:
            continue
        b = pb(q)
        hn = int(S[b + L.P_HAND_N])
        if hn:
            h = int(rng.integers(hn))
            c = int(S[b + L.P_HAND + h])
            d = int(T[L.T_IND_DECK + c])
            n = int(S[L.S_DECK_N + d])
            if n:
                k = int(rng.integers(n))
                other = int(S[L.S_DECK + d * L.MAX_DECK + k])
                S[L.S_DECK + d * L.MAX_DECK + k] = c
                hand = sorted([other] + [int(x) for i, x in enumerate(S[b + L.P_HAND:b + L.P_HAND + hn]) if i != h])
                S[b + L.P_HAND:b + L.P_HAND + hn] = hand
        if S[b + L.P_PLAN] >= 0:
            S[b + L.P_PLAN] = (S[b + L.P_PLAN] + 1 + rng.integers(4)) % 5
    S[L.S_RNG:L.S_RNG + 4] = rng.integers(1, 2 ** 32, size=4)
    return S


@pytest.mark.parametrize("n_players,packs", [(2, ()), (3, ()), (4, ("grid", "market"))])
def test_r26_observation_ignores_hidden_information(n_players, packs):
    """Hands of others, deck order and contents, others' pending plan choices and the generator
    never change an observation: explicit perturbations and full re-samples of the hidden
    information (infoset.determinize) give the same vector."""
    rng = np.random.default_rng(n_players)
    checked = 0
    for seed in range(2):
        for g, _ in random_states(n_players, 100 + seed, every=5, tech_packs=packs):
            for p in range(n_players):
                ref = g.observe(p)
                h = g.copy()
                h.state[:] = _perturbed(g, p, rng)
                assert np.array_equal(h.observe(p), ref)
                scrubbed = np.zeros_like(g.state)
                scrub(g.state, g.cards.table, np.int64(p), scrubbed)
                determinize(scrubbed, g.cards.table, np.int64(p), np.int64(rng.integers(1 << 40)), h.state)
                assert np.array_equal(h.observe(p), ref)
                checked += 1
    assert checked > 50


def test_r04_secret_plan_during_the_plan_step():
    """While seats dial, a later seat's observation is the same whatever an earlier seat chose."""
    views = []
    for s in range(5):
        g = Game(n_players=4, seed=11)
        g.step(L.A_PLAN + s)
        g.step(L.A_PLAN + (s + 2) % 5)
        views.append([g.observe(p) for p in (2, 3)])
    for v in views[1:]:
        assert np.array_equal(v[0], views[0][0]) and np.array_equal(v[1], views[0][1])
