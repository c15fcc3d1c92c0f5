"""The Gizmos information set (G25): the seat view, the scrubbed state and its samples, and an
attacker that reads every output a seat can reach."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.gizmos import Game
from electrify_env.gizmos.actions import encode
from electrify_env.gizmos.engine import gz_layout as L
from electrify_env.gizmos.engine.gz_energy import pbase
from electrify_env.gizmos.engine.gz_infoset import determinize, scrub
from electrify_env.gizmos.position import Position
from electrify_env.resolver import AgentError
from electrify_env.seatview import SeatView
from electrify_env.validation import InvalidArgumentError


def test_seat_view_holds_the_mask_the_scrubbed_state_and_the_card_set():
    g = Game(3, seed=5)
    for _ in range(2):
        g.step(int(g.legal_actions()[-1]))
    v = g.seat_view(observation=False)
    assert isinstance(v, SeatView) and v.seat == g.current_player and v.n_players == 3
    assert np.array_equal(v.mask, g.legal_mask()) and v.mask is not g.legal_mask()
    assert v.observation is None and v.table is g.cards.table and v.card_set_hash == g.cards.hash
    assert v.decision == len(g.history) == 2
    assert v.infoset.dtype == np.int64 and len(v.infoset) == L.S_SIZE
    assert (v.infoset[L.S_RNG:L.S_RNG + 4] == 0).all()
    assert np.array_equal(v.legal_actions, g.legal_actions())
    assert g.seat_view(observation=False, infoset=False).infoset is None


def test_seat_view_refuses_a_seat_off_turn_and_a_finished_game():
    g = Game(2, seed=1)
    with pytest.raises(AgentError, match="seat 1 is not on turn"):
        g.seat_view(1, observation=False)
    with pytest.raises(InvalidArgumentError, match="seat must be 0..1"):
        g.infoset(2)
    with pytest.raises(InvalidArgumentError, match="seat must be 0..1"):
        g.observe(-1)
    while not g.done:
        g.step(int(g.legal_actions()[0]))
    with pytest.raises(AgentError, match="the game is over"):
        g.seat_view(observation=False)


# ---- helpers ---------------------------------------------------------------------------------
def _points(n_players: int, seed: int, every: int = 7):
    """Games (copies) at every ``every``-th decision of a random game, the last one included."""
    rng = np.random.default_rng(seed)
    g = Game(n_players, seed=seed)
    k = 0
    while not g.done:
        if k % every == 0:
            yield g.copy()
        g.step(int(rng.choice(g.legal_actions())))
        k += 1


def _known(S: np.ndarray, seat: int, d: int) -> np.ndarray:
    n = int(S[L.S_DECK_N + d])
    bits = S[L.S_DECK_KNOWN + d * L.MAX_DECK:L.S_DECK_KNOWN + d * L.MAX_DECK + n]
    return (bits >> seat) & 1 == 1


def _perturb(g: Game, seat: int, rng: np.random.Generator) -> Game:
    """A copy of ``g`` whose hidden parts for ``seat`` are dealt anew (by this test, not by the
    engine): the deck cards ``seat`` does not know, the removed cards and another seat's
    researched cards are shuffled among the places of their level; new generator words and seed."""
    h = g.copy()
    S, T = h.state, h.cards.table
    places: dict[int, list[int]] = {1: [], 2: [], 3: []}
    for d in range(L.N_DECKS):
        known = _known(S, seat, d)
        places[d + 1] += [L.S_DECK + d * L.MAX_DECK + i for i in range(len(known)) if not known[i]]
    for i in range(int(S[L.S_BOX_N])):
        lv = int(T[L.T_LEVEL + S[L.S_BOX + i]])
        if lv:
            places[lv].append(L.S_BOX + i)
    if S[L.S_CUR] != seat:
        for i in range(int(S[L.S_RES_N])):
            places[int(S[L.S_RES_DECK]) + 1].append(L.S_RES + i)
    for at in places.values():
        S[at] = rng.permutation(S[at])
    S[L.S_RNG:L.S_RNG + 4] = rng.integers(1, 2**32, 4)
    h.seed = int(rng.integers(0, 2**40))
    return h


def _cards_once(S: np.ndarray, T: np.ndarray) -> None:
    """Every card of levels I-III is in exactly one place of the state."""
    where = []
    for p in range(int(S[L.S_NPLAYERS])):
        pb = pbase(p)
        where += list(S[pb + L.P_BUILT:pb + L.P_BUILT + S[pb + L.P_BUILT_N]])
        where += list(S[pb + L.P_ARCH:pb + L.P_ARCH + S[pb + L.P_ARCH_N]])
    for d in range(L.N_DECKS):
        where += list(S[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + S[L.S_DECK_N + d]])
    where += [c for c in S[L.S_DISPLAY:L.S_DISPLAY + L.N_DECKS * L.MAX_DISPLAY] if c >= 0]
    where += list(S[L.S_BOX:L.S_BOX + S[L.S_BOX_N]]) + list(S[L.S_RES:L.S_RES + S[L.S_RES_N]])
    if S[L.S_PHASE] == L.PH_PAY and S[L.S_PAY_SRC] == L.SRC_RESEARCH:
        where.append(S[L.S_PAY_CARD])
    where = [int(c) for c in where if T[L.T_LEVEL + c] > 0]
    assert sorted(where) == [c for c in range(int(T[L.T_N_CARDS])) if T[L.T_LEVEL + c] > 0]


def _sample(g: Game, seat: int, seed: int) -> np.ndarray:
    out = np.empty(L.S_SIZE, dtype=np.int64)
    assert determinize(g.infoset(seat), g.cards.table, np.int64(seat), np.int64(seed), out) == 0
    return out


def _game_at(g: Game, S: np.ndarray) -> Game:
    h = g.copy()
    h.state[:] = S
    return h


def _researched(seed: int = 0) -> Game:
    """Seat 0 put L2-10, L2-11, L2-12 under deck II (it knows them); seat 1 researches deck II."""
    g = Position(decks={2: [f"L2-{i}" for i in range(10, 20)]}, seed=seed).build()
    g.step(encode("research", level=2))
    g.step(encode("pass"))
    if g.phase == "chain":
        g.step(encode("pass"))
    g.step(encode("research", level=2))
    return g


# ---- scrub -----------------------------------------------------------------------------------
@pytest.mark.parametrize("n_players", [2, 4])
def test_scrub_of_states_that_differ_only_in_hidden_parts_is_equal(n_players):
    rng = np.random.default_rng(n_players)
    differed = 0
    for g in _points(n_players, seed=11 + n_players):
        for seat in range(n_players):
            h = _perturb(g, seat, rng)
            differed += not np.array_equal(g.state, h.state)
            assert np.array_equal(g.infoset(seat), h.infoset(seat))
    assert differed > 10


def test_scrub_hides_decks_removed_cards_other_draws_and_the_generator_but_keeps_known_places():
    g = _researched()
    S = g.state
    for seat in (0, 1):
        info = g.infoset(seat)
        assert (info[L.S_RNG:L.S_RNG + 4] == 0).all()
        assert (info[L.S_BOX:L.S_BOX + S[L.S_BOX_N]] == -2).all() and S[L.S_BOX_N] > 0
        assert np.array_equal(info[L.S_DECK_N:L.S_DECK_N + 3], S[L.S_DECK_N:L.S_DECK_N + 3])
        for d in range(3):
            n = int(S[L.S_DECK_N + d])
            deck, known = info[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + n], _known(S, seat, d)
            assert (deck[~known] == -2).all()
            assert np.array_equal(deck[known], S[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + n][known])
            assert (info[L.S_DECK + d * L.MAX_DECK + n:L.S_DECK + (d + 1) * L.MAX_DECK] == L.NO_CARD).all()
    # seat 1 researches now: it sees its cards, seat 0 sees that three are drawn, not which
    assert g.current_player == 1 and int(S[L.S_RES_N]) == 3
    assert np.array_equal(g.infoset(1)[L.S_RES:L.S_RES + 3], S[L.S_RES:L.S_RES + 3])
    assert (g.infoset(0)[L.S_RES:L.S_RES + 3] == -2).all() and g.infoset(0)[L.S_RES_N] == 3
    # seat 0's three known cards sit at the bottom of deck II, in its information set only
    ids = g.cards.ids
    assert [ids[int(c)] for c in g.infoset(0)[L.S_DECK + L.MAX_DECK:L.S_DECK + L.MAX_DECK + 3]] == ["L2-12", "L2-11", "L2-10"]
    assert (g.infoset(1)[L.S_DECK + L.MAX_DECK:L.S_DECK + L.MAX_DECK + 3] == -2).all()


# ---- determinize -----------------------------------------------------------------------------
@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_determinized_states_keep_the_information_set_and_play_legally_to_the_end(n_players):
    rng = np.random.default_rng(100 + n_players)
    points = list(_points(n_players, seed=n_players, every=11))
    for k, g in enumerate(points):
        seat = g.current_player
        S2 = _sample(g, seat, seed=k)
        # a fresh generator from the seed: the same sample for the same seed, not the game's own
        assert np.array_equal(S2, _sample(g, seat, seed=k))
        assert not np.array_equal(S2[L.S_RNG:L.S_RNG + 4], g.state[L.S_RNG:L.S_RNG + 4])
        assert not np.array_equal(S2[L.S_RNG:L.S_RNG + 4], _sample(g, seat, seed=k + 1)[L.S_RNG:L.S_RNG + 4])
        info2 = np.empty_like(S2)
        scrub(S2, g.cards.table, np.int64(seat), info2)
        assert np.array_equal(info2, g.infoset(seat))          # public fields and known cards kept
        _cards_once(S2, g.cards.table)
        h = _game_at(g, S2)
        assert np.array_equal(h.legal_mask(), g.legal_mask())
        if k % 3 == 0:                                          # play some of them to the end
            while not h.done:
                h.step(int(rng.choice(h.legal_actions())))   # step refuses an illegal id
                _cards_once(h.state, h.cards.table)
            assert h.round <= 100 and sorted(h.ranks().tolist()) == list(range(n_players))


def test_determinize_keeps_the_seats_known_cards_in_place_and_samples_the_rest():
    g = _researched()
    S, T = g.state, g.cards.table
    base = L.S_DECK + L.MAX_DECK
    n = int(S[L.S_DECK_N + 1])
    true_deck = S[base:base + n].copy()
    seat0_bottom, seat1_bottom, res_seen_by_0 = set(), [], set()
    for seed in range(20):
        a = _sample(g, 0, seed)                                  # seat 0, not on turn
        assert np.array_equal(a[base:base + 3], true_deck[:3])  # its known cards, at their places
        assert not np.array_equal(a[base:base + n], true_deck)
        res_seen_by_0.add(tuple(a[L.S_RES:L.S_RES + 3]))
        b = _sample(g, 1, seed)                                  # seat 1 researches: sees its cards
        assert np.array_equal(b[L.S_RES:L.S_RES + 3], S[L.S_RES:L.S_RES + 3])
        assert all(T[L.T_LEVEL + c] == 2 for c in a[L.S_RES:L.S_RES + 3])
        seat0_bottom.add(tuple(a[base + 3:base + n]))
        seat1_bottom.append(tuple(b[base:base + 3]))
    assert len(seat0_bottom) > 10 and len(set(seat1_bottom)) > 10 and len(res_seen_by_0) > 10
    # seat 1 does not know seat 0's cards under the deck: its samples put others there
    assert sum(t != tuple(true_deck[:3]) for t in seat1_bottom) >= 18


def test_the_determinized_deck_order_is_not_the_true_one():
    g = Game(3, seed=9)
    rng = np.random.default_rng(9)
    for _ in range(30):
        g.step(int(rng.choice(g.legal_actions())))
    S = g.state
    for d in range(3):
        n = int(S[L.S_DECK_N + d])
        true = S[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + n]
        same = [np.array_equal(_sample(g, g.current_player, seed)[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + n], true)
                for seed in range(20)]
        assert n > 5 and not any(same)
    boxes = {tuple(sorted(_sample(g, 0, seed)[L.S_BOX:L.S_BOX + S[L.S_BOX_N]])) for seed in range(20)}
    assert len(boxes) > 1 and tuple(sorted(S[L.S_BOX:L.S_BOX + S[L.S_BOX_N]])) not in boxes


def test_determinize_refuses_an_information_set_of_another_card_table():
    g = _researched()
    info = g.infoset(0)
    info[L.S_DECK + info[L.S_DECK_N]] = -2      # one hidden place more than unseen cards
    out = np.empty_like(info)
    assert determinize(info, g.cards.table, np.int64(0), np.int64(1), out) == -1


# ---- the attacker ----------------------------------------------------------------------------
try:                                    # the observation module, where the tree has it
    from electrify_env.gizmos.observation import observe as _observe   # noqa: F401
    HAS_OBSERVATION = True
except ImportError:                     # pragma: no cover
    HAS_OBSERVATION = False


def _reachable(g: Game, seat: int) -> dict:
    """Everything ``seat`` can get from the game: its information set, observation and public
    view; when it is on turn, its seat view and the decision in words; the game's repr."""
    out = {"infoset": g.infoset(seat).tolist(), "public_view": g.public_view(seat), "repr": repr(g)}
    if HAS_OBSERVATION:
        out["observation"] = g.observe(seat).tolist()
    if not g.done and seat == g.current_player:
        v = g.seat_view(observation=HAS_OBSERVATION)
        out["view"] = (v.seat, v.n_players, v.mask.tolist(), v.infoset.tolist(),
                       None if v.observation is None else v.observation.tolist(), v.card_set_hash, v.decision)
        d = g.decision()
        out["decision"] = (d.player, d.kind, d.context, [(o.id, o.kind, dict(o.args), o.text) for o in d.options])
    return out


def _texts(r: dict) -> str:
    return " ".join([repr(r["public_view"]), r["repr"], repr(r.get("decision", ""))])


def _hidden_ids(g: Game, seat: int) -> list[str]:
    """The ids of the cards ``seat`` may not locate: unknown deck places, removed cards, another
    seat's researched cards."""
    S, ids = g.state, g.cards.ids
    out = []
    for d in range(L.N_DECKS):
        known = _known(S, seat, d)
        cards = S[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + len(known)]
        out += [ids[int(c)] for c in cards[~known]]
    out += [ids[int(c)] for c in S[L.S_BOX:L.S_BOX + S[L.S_BOX_N]]]
    if S[L.S_CUR] != seat:
        out += [ids[int(c)] for c in S[L.S_RES:L.S_RES + S[L.S_RES_N]]]
    return out


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_an_attacker_reads_nothing_hidden_from_anything_a_seat_can_get(n_players):
    import re
    rng = np.random.default_rng(7 * n_players)
    seed = 987_654_321 + n_players
    rng_words_seen, points, research_points = set(), 0, 0
    game_points = list(_points(n_players, seed=seed, every=3))
    for g in game_points:
        g.seed = seed
        research_points += g.phase == "research"
        for seat in range(n_players):
            r = _reachable(g, seat)
            h = _perturb(g, seat, rng)
            assert _reachable(h, seat) == r              # hidden parts change nothing it gets
            text = _texts(r)
            for cid in _hidden_ids(g, seat):
                assert not re.search(rf"(?<![\w-]){re.escape(cid)}(?![\w-])", text), (cid, text)
            for word in [str(seed)] + [str(int(w)) for w in g.state[L.S_RNG:L.S_RNG + 4]]:
                assert word not in text and "seed" not in text and "rng" not in text
            assert r["infoset"][L.S_RNG:L.S_RNG + 4] == [0, 0, 0, 0]
            rng_words_seen.add(tuple(g.state[L.S_RNG:L.S_RNG + 4]))
            points += 1
    assert points > 50 and len(rng_words_seen) > 10 and research_points > 0


@pytest.mark.parametrize("n_players", [2, 3, 4])
def test_known_places_follow_the_cards_in_random_games(n_players):
    """At every decision: a deck place is known to at most one seat and only below the deck's
    size; the cards a Research puts under are known to the researcher at the bottom, the places
    above keep what was known of them, and a draw from the top takes its knowledge along."""
    rng = np.random.default_rng(n_players)
    returned = 0
    for seed in range(4):
        g = Game(n_players, seed=seed)
        while not g.done:
            S = g.state
            old = {d: (S[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + S[L.S_DECK_N + d]].copy(),
                       S[L.S_DECK_KNOWN + d * L.MAX_DECK:L.S_DECK_KNOWN + d * L.MAX_DECK + S[L.S_DECK_N + d]].copy())
                   for d in range(L.N_DECKS)}
            researcher, res = g.current_player, [int(c) for c in S[L.S_RES:L.S_RES + S[L.S_RES_N]]]
            phase, a = g.phase, int(rng.choice(g.legal_actions()))
            g.step(a)
            kept = -1
            if phase == "research" and a != encode("pass"):
                kept = (a - L.A_RES_BUILD) % L.MAX_RESEARCH
            under = [c for i, c in enumerate(res) if i != kept] if phase == "research" else []
            for d in range(L.N_DECKS):
                n = int(S[L.S_DECK_N + d])
                cards = S[L.S_DECK + d * L.MAX_DECK:L.S_DECK + d * L.MAX_DECK + n]
                bits = S[L.S_DECK_KNOWN + d * L.MAX_DECK:L.S_DECK_KNOWN + (d + 1) * L.MAX_DECK]
                assert (bits[n:] == 0).all() and all(b & (b - 1) == 0 for b in bits[:n])
                k = len(under) if d == int(S[L.S_RES_DECK]) else 0
                assert n >= k
                assert cards[:k][::-1].tolist() == under[:k] and (bits[:k] == 1 << researcher).all()
                old_cards, old_bits = old[d]
                m = n - k                                     # places that were there before
                assert np.array_equal(cards[k:], old_cards[:m]) and np.array_equal(bits[k:n], old_bits[:m])
                returned += k
    assert returned > 20
