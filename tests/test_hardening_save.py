"""Loading saves safely: every edited or malformed save is refused with
InvalidSaveError naming the field, before any jitted code sees the state; valid saves of every
kind round-trip.

The edits that crashed the interpreter before (a stack depth of 10**6, card id 300) are plain
in-process tests here: the loader refuses them before the engine runs.
"""
from __future__ import annotations

import copy

import numpy as np
import pytest

from electrify_env import Game, InvalidSaveError
from electrify_env.engine import layout as L
from electrify_env.savefile import MAX_COUNT, STATE_CHECKS, check_state, state_field

PB0 = L.S_PLAYERS
PB1 = L.S_PLAYERS + L.P_SIZE


def play(game: Game, decisions: int, seed: int = 0) -> Game:
    """``decisions`` uniform random legal actions (fewer if the game ends)."""
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if game.is_terminal:
            break
        legal = game.legal_actions()
        game.step(int(legal[rng.integers(len(legal))]))
    return game


def play_until_top(game: Game, frame_type: int, seed: int = 0, limit: int = 3000) -> Game:
    """Random play until ``frame_type`` is the pending decision."""
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if game.state[L.S_STACK + (game.state[L.S_SP] - 1) * L.FRAME] == frame_type:
            return game
        legal = game.legal_actions()
        game.step(int(legal[rng.integers(len(legal))]))
    raise AssertionError(f"no frame {frame_type} within {limit} decisions")


@pytest.fixture(scope="module")
def mid2() -> dict:
    """A 2-player save after 150 decisions (round 3 or so)."""
    return play(Game(2, seed=0), 150).to_dict()


@pytest.fixture(scope="module")
def early2() -> dict:
    """A 2-player save after 12 decisions (hands still full: random play discards them later)."""
    return play(Game(2, seed=0), 12).to_dict()


def edited(save: dict, **state_edits) -> dict:
    d = copy.deepcopy(save)
    for off, v in state_edits.items():
        d["state"][int(off)] = v
    return d


def refused(data, field: str, **kw) -> InvalidSaveError:
    """Loading ``data`` raises InvalidSaveError whose field contains ``field``."""
    with pytest.raises(InvalidSaveError) as exc:
        Game.from_dict(data, **kw)
    assert field in exc.value.field, (exc.value.field, str(exc.value))
    assert str(exc.value).startswith(exc.value.field)
    assert "\n" not in str(exc.value)
    return exc.value


# ---- the reproduction of the issue -------------------------------------------------------------
def test_huge_stack_depth_is_refused_not_a_segfault():
    d = Game(n_players=2, seed=0).to_dict()
    d["state"][L.S_SP] = 10 ** 6
    err = refused(d, "state[S_SP]")
    assert "0..64" in str(err) and "1000000" in str(err)


def test_error_class_is_a_value_error_exported_by_the_package():
    import electrify_env
    assert issubclass(electrify_env.InvalidSaveError, ValueError)


# ---- JSON shape --------------------------------------------------------------------------------
@pytest.mark.parametrize("data, field", [
    ([1, 2, 3], "save"),
    ("electrify-game", "save"),
    (None, "save"),
    ({"format": "chess"}, "format"),
    ({"format": "electrify-game"}, "save"),        # every other key missing
])
def test_non_save_shapes_are_refused(data, field):
    err = refused(data, field)
    if field == "save" and isinstance(data, dict):
        assert "missing keys" in str(err) and "'state'" in str(err)


@pytest.mark.parametrize("key, value, field", [
    ("n_players", "2", "n_players"),
    ("n_players", 2.0, "n_players"),
    ("n_players", True, "n_players"),
    ("n_players", 5, "n_players"),
    ("n_players", 1, "n_players"),               # solo count without a scenario
    ("seed", -1, "seed"),
    ("seed", 1.5, "seed"),
    ("seed", 2 ** 62, "seed"),
    ("options", 2, "options"),                   # a tech-pack bit for a set without packs
    ("options", None, "options"),
    ("actions", "12", "actions"),
    ("actions", {"0": 1}, "actions"),
    ("state", "...", "state"),
    ("state", [], "state"),
    ("card_set", [], "card_set"),
    ("card_set", {"paths": [], "hash": "x"}, "card_set.paths"),
    ("card_set", {"paths": [7], "hash": "x"}, "card_set.paths[0]"),
    ("card_set", {"paths": ["base.yaml"], "hash": ""}, "card_set.hash"),
    ("card_set", {"paths": ["base.yaml"]}, "card_set"),
    ("card_set", {"paths": ["nosuch.yaml"], "hash": "x"}, "card_set.paths"),
    ("card_set", {"paths": ["base.yaml"], "hash": "0" * 64}, "card_set.hash"),
    ("scenario", "first_light", "scenario"),
    ("scenario", {"path": "first_light.yaml", "hash": "0" * 64}, "scenario.hash"),
    ("scenario", {"path": "nosuch.yaml", "hash": "x"}, "scenario.path"),
    ("scenario", {"path": "/dev/zero", "hash": "x"}, "scenario.path"),       # never read
    ("card_set", {"paths": ["/dev/zero"], "hash": "x"}, "card_set.paths[0]"),
    ("card_set", {"paths": ["base.yaml", "/"], "hash": "x"}, "card_set.paths[1]"),
    ("version", 2, "version"),
    ("state_version", True, "version"),
])
def test_wrong_types_and_values_at_the_top_level(mid2, key, value, field):
    d = copy.deepcopy(mid2)
    d[key] = value
    refused(d, field)


def test_unknown_and_missing_keys(mid2):
    d = copy.deepcopy(mid2)
    d["seeds"] = 3
    assert "'seeds'" in str(refused(d, "save"))
    d = copy.deepcopy(mid2)
    del d["options"]
    assert "'options'" in str(refused(d, "save"))


@pytest.mark.parametrize("value, why", [
    (3.0, "integer"), (True, "integer"), ("3", "integer"), (None, "integer"), (2 ** 63, "int64"),
])
def test_state_entries_must_be_int64_integers_not_cast(mid2, value, why):
    err = refused(edited(mid2, **{str(L.S_DEMAND + 2): value}), "state[S_DEMAND[2]]")
    assert why in str(err)


def test_state_length_and_array_dtype(mid2):
    d = copy.deepcopy(mid2)
    d["state"] = d["state"][:-1]
    assert "length" in str(refused(d, "state"))
    d = copy.deepcopy(mid2)
    d["state"] = np.asarray(d["state"], dtype=np.float64)
    refused(d, "state")
    d["state"] = np.asarray(mid2["state"], dtype=np.int64)      # an integer array is fine
    assert Game.from_dict(d).same_as(Game.from_dict(mid2))


@pytest.mark.parametrize("actions, field", [
    ([1.0], "actions[0]"), ([True], "actions[0]"), ([L.N_ACTIONS], "actions[0]"), ([-1], "actions[0]"),
    ([0, 2 ** 63], "actions[1]"),
])
def test_action_ids_in_a_save(mid2, actions, field):
    d = copy.deepcopy(mid2)
    d["actions"] = actions
    refused(d, field)


def test_actions_that_disagree_with_the_decision_count(mid2):
    d = copy.deepcopy(mid2)
    d["actions"] = d["actions"][:-1]
    assert "S_DECISIONS" in str(refused(d, "actions"))


def test_from_json_and_load_refuse_text_that_is_not_a_save(tmp_path):
    for text in ("{not json", "[]", "null", '"x"', "[" * 100_000):
        with pytest.raises(InvalidSaveError):
            Game.from_json(text)
    p = tmp_path / "bad.json"
    p.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(InvalidSaveError) as exc:
        Game.load(p)
    assert exc.value.field == "json"


# ---- every state field in range ----------------------------------------------------------------
@pytest.mark.parametrize("off, value, field", [
    (L.S_VERSION, L.STATE_VERSION + 1, "S_VERSION"),
    (L.S_NPLAYERS, 3, "S_NPLAYERS"),               # n_players disagrees with the state
    (L.S_NPLAYERS, 5, "S_NPLAYERS"),
    (L.S_ROUND, 13, "S_ROUND"),
    (L.S_ROUND, -1, "S_ROUND"),
    (L.S_CUR, 2, "S_CUR"),
    (L.S_CUR, -1, "S_CUR"),
    (L.S_TERMINAL, 2, "S_TERMINAL"),
    (L.S_TERMINAL, 1, "S_ROUND"),                  # over before round 12
    (L.S_DECISIONS, -5, "S_DECISIONS"),
    (L.S_OPTIONS, 2, "S_OPTIONS"),
    (L.S_SOLO, 1, "S_SOLO"),
    (L.S_RNG + 1, 1 << 32, "S_RNG[1]"),
    (L.S_DECK_N, L.MAX_DECK + 1, "S_DECK_N[0]"),
    (L.S_DECK_N + 1, -1, "S_DECK_N[1]"),
    (L.S_DISC_N, 10 ** 9, "S_DISC_N[0]"),
    (L.S_DECK, 300, "S_DECK[0]"),                  # a card id outside the card table
    (L.S_DECK, -7, "S_DECK[0]"),
    (L.S_DECK + L.MAX_DECK - 1, 3, "S_DECK[127]"),  # padding must be -1
    (L.S_BASIC, 2, "S_BASIC[0]"),
    (L.S_DEMAND, 40, "S_DEMAND[0]"),
    (L.S_SOLO_TARGET, 5, "S_SOLO_TARGET"),
    (L.S_BAG, 5, "S_BAG[0]"),
    (L.S_STACK + 63 * L.FRAME, 1, "S_STACK[63].FR_TYPE"),   # above the top
    (PB0 + L.P_DEPOT + 2, -1, "S_PLAYERS[0].P_DEPOT[2]"),
    (PB1 + L.P_GRID, MAX_COUNT + 1, "S_PLAYERS[1].P_GRID[0]"),
    (PB0 + L.P_RESEARCH, 7, "S_PLAYERS[0].P_RESEARCH"),
    (PB0 + L.P_BT + 3, 2, "S_PLAYERS[0].P_BT[3]"),
    (PB0 + L.P_SCORE, -1, "S_PLAYERS[0].P_SCORE"),
    (PB0 + L.P_CLEAN, 10 ** 12, "S_PLAYERS[0].P_CLEAN"),
    (PB0 + L.P_FULFILLED, 3, "S_PLAYERS[0].P_FULFILLED[0]"),
    (PB0 + L.P_NFULFILLED, 7, "S_PLAYERS[0].P_NFULFILLED"),
    (PB0 + L.P_SEC_COL, 7, "S_PLAYERS[0].P_SEC_COL[0]"),
    (PB0 + L.P_SEC_SIDE + 4, 2, "S_PLAYERS[0].P_SEC_SIDE[4]"),
    (PB0 + L.P_SEC_N, 6, "S_PLAYERS[0].P_SEC_N[0]"),
    (PB0 + L.P_SEC_CHARGED, 3, "S_PLAYERS[0].P_SEC_CHARGED[0]"),
    (PB0 + L.P_CARD_CHARGED + 24, 1, "S_PLAYERS[0].P_CARD_CHARGED[24]"),
    (PB0 + L.P_HAND_N, 10, "S_PLAYERS[0].P_HAND_N"),
    (PB0 + L.P_HAND + 8, 5, "S_PLAYERS[0].P_HAND[8]"),
    (PB0 + L.P_PLAN, 5, "S_PLAYERS[0].P_PLAN"),
    (PB0 + L.P_CHOSEN, -1, "S_PLAYERS[0].P_CHOSEN"),
    (PB0 + L.P_BOOST, 3, "S_PLAYERS[0].P_BOOST"),
    (PB0 + L.P_RESEARCH_TOTAL, -1, "S_PLAYERS[0].P_RESEARCH_TOTAL"),
    (PB0 + L.P_SOLO_TOKEN, 1, "S_PLAYERS[0].P_SOLO_TOKEN[0]"),
    (L.S_PLAYERS + 2 * L.P_SIZE + L.P_SCORE, 4, "S_PLAYERS[2].P_SCORE"),   # an unused seat
    (L.S_SP, 0, "S_SP"),                                                     # no pending decision
    (L.S_SP, -1, "S_SP"),
    (L.S_SP, 65, "S_SP"),
])
def test_each_state_field_out_of_range_is_named(mid2, off, value, field):
    d = mid2 if off != L.S_SOLO_TARGET and off != L.S_BAG else _solo_mid()
    refused(edited(d, **{str(off): value}), f"state[{field}]")


_SOLO = {}


def _solo_mid() -> dict:
    if not _SOLO:
        _SOLO["d"] = play(Game(scenario="blackout", seed=2), 80).to_dict()
    return _SOLO["d"]


def test_two_sectors_in_one_column(mid2):
    d = copy.deepcopy(mid2)
    d["state"][PB1 + L.P_SEC_COL + 1] = d["state"][PB1 + L.P_SEC_COL]
    assert "column" in str(refused(d, "state[S_PLAYERS[1].P_SEC_COL[1]]"))


def holder(save: dict, cards: int = 2) -> int:
    """A seat holding at least ``cards`` hand cards."""
    s = save["state"]
    return next(p for p in range(save["n_players"])
                if s[L.S_PLAYERS + p * L.P_SIZE + L.P_HAND_N] >= cards)


def test_unsorted_or_duplicated_hand(early2):
    d = copy.deepcopy(early2)
    p = holder(d)
    off = L.S_PLAYERS + p * L.P_SIZE + L.P_HAND
    d["state"][off:off + 2] = d["state"][off:off + 2][::-1]
    assert "ascending" in str(refused(d, f"state[S_PLAYERS[{p}].P_HAND[1]]"))
    d["state"][off + 1] = d["state"][off]
    assert "ascending" in str(refused(d, f"state[S_PLAYERS[{p}].P_HAND[1]]"))


def test_wrong_deck_card_and_wrong_level_demand(mid2):
    s = mid2["state"]
    d = edited(mid2, **{str(L.S_DECK): s[L.S_DECK + L.MAX_DECK]})    # an infrastructure card in deck 0
    assert "belongs to deck 1" in str(refused(d, "state[S_DECK[0]]"))
    d = edited(mid2, **{str(L.S_DEMAND): s[L.S_DEMAND + 1]})
    assert "level" in str(refused(d, "state[S_DEMAND[0]]"))


def test_a_sector_card_outside_the_card_table(mid2):
    g = Game.from_dict(mid2)
    p, s = next((p, s) for p in range(2) for s in range(L.N_SECTORS)
                if g.state[L.S_PLAYERS + p * L.P_SIZE + L.P_SEC_N + s] > 0)
    off = L.S_PLAYERS + p * L.P_SIZE + L.P_SEC_CARD + s * L.MAX_SLOTS
    for face in (300, L.FACE_SECTOR, -3, L.FACE_BASIC + 2 * 24):
        refused(edited(mid2, **{str(off): face}), f"state[S_PLAYERS[{p}].P_SEC_CARD[{s * L.MAX_SLOTS}]]")


def test_zero_generator_is_refused(mid2):
    d = edited(mid2, **{str(L.S_RNG + i): 0 for i in range(4)})
    assert "not all be 0" in str(refused(d, "state[S_RNG"))


# ---- card conservation ---------------------------------------------------------------------------
def test_a_duplicated_card_is_refused(mid2):
    d = copy.deepcopy(mid2)
    s = d["state"]
    n = s[L.S_DECK_N]
    s[L.S_DECK + n] = s[L.S_DECK]              # the deck's bottom card also on top
    s[L.S_DECK_N] = n + 1
    err = refused(d, "card conservation")
    assert "found 2" in str(err) and "deck 0, deck 0" in str(err)


def test_a_lost_card_is_refused(mid2):
    d = copy.deepcopy(mid2)
    s = d["state"]
    n = s[L.S_DECK_N]
    s[L.S_DECK + n - 1] = -1
    s[L.S_DECK_N] = n - 1
    assert "nowhere" in str(refused(d, "card conservation"))


def test_a_hand_card_duplicated_in_another_hand(early2):
    d = copy.deepcopy(early2)
    s = d["state"]
    p = holder(d, 1)
    q = 1 - p
    card = s[L.S_PLAYERS + p * L.P_SIZE + L.P_HAND]
    qb = L.S_PLAYERS + q * L.P_SIZE
    n = s[qb + L.P_HAND_N]
    assert n < L.MAX_HAND
    s[qb + L.P_HAND:qb + L.P_HAND + n + 1] = sorted(s[qb + L.P_HAND:qb + L.P_HAND + n] + [card])
    s[qb + L.P_HAND_N] = n + 1
    assert "the hand of player 0, the hand of player 1" in str(refused(d, "card conservation"))


def test_options_must_agree_with_the_card_set():
    g = play(Game(2, seed=3, tech_packs="grid"), 40)
    d = g.to_dict()
    d["options"] = 0                           # the grid pack's cards would be out of play
    assert "Grid" in str(refused(d, "options"))
    d = g.to_dict()
    d["state"][L.S_OPTIONS] = 0
    refused(d, "state[S_OPTIONS]")


def test_a_basic_card_both_in_the_supply_and_on_a_sector():
    g = Game(2, seed=0)
    # find a state where a basic card was bought and placed
    rng = np.random.default_rng(5)
    for _ in range(3000):
        placed = [b for b in range(g.cards.n_basic) if g.state[L.S_BASIC + b] == 0]
        assert not g.is_terminal
        if placed and not any(
                g.state[L.S_STACK + i * L.FRAME] in (L.FT_PLACE_SECTOR, L.FT_PLACE_SLOT)
                for i in range(g.state[L.S_SP])):
            break
        legal = g.legal_actions()
        g.step(int(legal[rng.integers(len(legal))]))
    d = g.to_dict()
    d["state"][L.S_BASIC + placed[0]] = 1
    err = refused(d, "card conservation")
    assert f"basic card {placed[0]}" in str(err) and "the supply" in str(err)


# ---- the decision stack --------------------------------------------------------------------------
@pytest.fixture(scope="module")
def frames() -> dict[int, dict]:
    """Saves whose pending decision is each of several frame types (random 3-player game with
    both tech packs)."""
    out = {}
    g = Game(3, seed=0, tech_packs=("grid", "market"))
    for ft in (L.FT_BOOST, L.FT_PAY, L.FT_ITEM, L.FT_ICON, L.FT_BT_PICK, L.FT_REWARD, L.FT_PLACE_SLOT):
        play_until_top(g, ft)
        out[ft] = g.to_dict()
    return out


def top_offset(d: dict) -> int:
    return L.S_STACK + (d["state"][L.S_SP] - 1) * L.FRAME


@pytest.mark.parametrize("ft, fr, value, what", [
    (L.FT_BOOST, L.FR_A, 3, "FR_A"),
    (L.FT_BOOST, L.FR_E, 1, "FR_E"),                 # an unused argument
    (L.FT_PAY, L.FR_A, 300, "FR_A"),
    (L.FT_PAY, L.FR_B, 0, "FR_B"),
    (L.FT_PAY, L.FR_B, 99, "FR_B"),
    (L.FT_ITEM, L.FR_A, L.MAX_FACES, "FR_A"),
    (L.FT_ITEM, L.FR_B, 5, "FR_B"),
    (L.FT_ITEM, L.FR_C, 1 << L.MAX_ICONS, "FR_C"),
    (L.FT_ICON, L.FR_C, 4, "FR_C"),
    (L.FT_ICON, L.FR_D, -1, "FR_D"),
    (L.FT_ICON, L.FR_F, 63, "FR_F"),
    (L.FT_REWARD, L.FR_A, 3, "FR_A"),
    (L.FT_REWARD, L.FR_B, 99, "FR_B"),
    (L.FT_REWARD, L.FR_C, 1 << 7, "FR_C"),
    (L.FT_PLACE_SLOT, L.FR_C, 5, "FR_C"),
    (L.FT_PLACE_SLOT, L.FR_B, 2, "FR_B"),
    (L.FT_BT_PICK, L.FR_TYPE, 99, "FR_TYPE"),
    (L.FT_BT_PICK, L.FR_TYPE, L.FT_CHARGE, "FR_TYPE"),   # an automatic frame on top
])
def test_frame_arguments_out_of_range(frames, ft, fr, value, what):
    d = copy.deepcopy(frames[ft])
    t = top_offset(d)
    d["state"][t + fr] = value
    refused(d, f"state[S_STACK[{d['state'][L.S_SP] - 1}].{what}]")


def test_a_payment_frame_must_sit_on_its_card(frames):
    d = copy.deepcopy(frames[L.FT_PAY])
    below = top_offset(d) - L.FRAME
    d["state"][below + L.FR_B] = L.PLACE_FREE
    assert "FT_PLACE_SECTOR" in str(refused(d, "FR_TYPE"))


def test_an_item_frame_names_a_card_on_its_sector(frames):
    d = copy.deepcopy(frames[L.FT_ITEM])
    t = top_offset(d)
    face = d["state"][t + L.FR_A]
    if face < L.FACE_SECTOR:                  # a card: move it to another sector
        d["state"][t + L.FR_B] = (d["state"][t + L.FR_B] + 1) % L.N_SECTORS
    else:                                     # a sector tile: name another sector's face
        d["state"][t + L.FR_A] = L.FACE_SECTOR + (face - L.FACE_SECTOR + 2) % (2 * L.N_SECTORS)
    assert "sector" in str(refused(d, "state[S_STACK"))


def test_the_bottom_frame_is_the_plan_step_or_a_turn(mid2):
    d = edited(mid2, **{str(L.S_STACK): L.FT_SOLO_SWAP})
    assert "bottom frame" in str(refused(d, "state[S_STACK[0].FR_TYPE]"))


def test_an_icon_frame_sits_on_its_item(frames):
    d = copy.deepcopy(frames[L.FT_ICON])
    t = top_offset(d)
    d["state"][t - L.FRAME + L.FR_C] = 0          # the item below no longer marks the icon used
    assert "item frame" in str(refused(d, "FR_TYPE"))


def test_a_payment_needs_the_cubes_in_the_depot(frames):
    d = copy.deepcopy(frames[L.FT_PAY])
    pb = L.S_PLAYERS + d["state"][L.S_CUR] * L.P_SIZE
    d["state"][pb + L.P_DEPOT:pb + L.P_DEPOT + L.N_COLS] = [0] * L.N_COLS
    assert "still owed" in str(refused(d, "FR_B"))


def test_players_before_the_current_one_have_dialled():
    g = Game(3, seed=0)
    g.step(L.A_PLAN + 2)
    d = edited(g.to_dict(), **{str(PB0 + L.P_PLAN): -1})
    assert "dialled" in str(refused(d, "state[S_PLAYERS[0].P_PLAN]"))


def test_a_decision_the_engine_would_skip_is_refused(frames):
    """A discharge step with nothing left to discharge is dropped by the engine (advance); a
    save pending on it would wait for a decision that never comes."""
    d = copy.deepcopy(frames[L.FT_ITEM])
    s = d["state"]
    sp = s[L.S_SP]
    assert s[L.S_STACK + (sp - 2) * L.FRAME] == L.FT_DISCHARGE
    s[L.S_STACK + (sp - 1) * L.FRAME:L.S_STACK + sp * L.FRAME] = [0] * L.FRAME   # drop the item
    s[L.S_SP] = sp - 1
    pb = L.S_PLAYERS + s[L.S_CUR] * L.P_SIZE
    s[pb + L.P_SEC_CHARGED:pb + L.P_SEC_CHARGED + L.N_SECTORS] = [0] * L.N_SECTORS
    s[pb + L.P_CARD_CHARGED:pb + L.P_CARD_CHARGED + L.N_SECTORS * L.MAX_SLOTS] = [0] * 25
    assert "automatically" in str(refused(d, f"state[S_STACK[{sp - 2}].FR_TYPE]"))


def test_every_frame_save_loads_and_plays_on(frames):
    for d in frames.values():
        g = Game.from_dict(d, verify_actions=True)
        assert g.legal_actions().size > 0
        g.check_invariants()


# ---- solo fields -----------------------------------------------------------------------------------
def test_solo_fields_follow_the_scenario():
    d = _solo_mid()
    g = Game.from_dict(d)
    assert g.is_solo
    refused(edited(d, **{str(L.S_STAR_POINTS + 1): 99}), "state[S_STAR_POINTS[1]]")
    refused(edited(d, **{str(L.S_CH_COND): 0}), "state[S_CH_COND[0]]")
    refused(edited(d, **{str(PB0 + L.P_SOLO_TOKEN): 3}), "state[S_PLAYERS[0].P_SOLO_TOKEN[0]]")
    refused(edited(d, **{str(L.S_STAR_STATE): 0, str(L.S_ROUND): 12}), "state[S_")
    d2 = copy.deepcopy(d)
    d2["scenario"] = None
    refused(d2, "n_players")
    d3 = copy.deepcopy(d)
    d3["n_players"] = 2
    refused(d3, "n_players")


def test_solo_tokens_are_conserved():
    d = _solo_mid()
    s = d["state"]
    tok = s[PB0 + L.P_SOLO_TOKEN]
    flipped = L.TOKEN_COLLABORATION if tok == L.TOKEN_INNOVATION else L.TOKEN_INNOVATION
    assert "bag" in str(refused(edited(d, **{str(PB0 + L.P_SOLO_TOKEN): flipped}), "state[S_BAG"))


# ---- actions -----------------------------------------------------------------------------------------
def test_verify_actions_replays_from_the_seed(mid2):
    assert Game.from_dict(mid2, verify_actions=True).same_as(Game.from_dict(mid2))
    d = copy.deepcopy(mid2)
    d["seed"] = 1                              # same actions, another seed
    err = refused(d, "actions", verify_actions=True)
    assert "seed 1" in str(err)
    d = copy.deepcopy(mid2)
    d["state"][PB0 + L.P_SCORE] += 1           # a state that the actions do not reach
    err = refused(d, "actions", verify_actions=True)
    assert "S_PLAYERS[0].P_SCORE" in str(err)
    Game.from_dict(d)                          # without the replay the edit is a legal position


def test_replay_checks_actions_before_and_while_stepping():
    g = play(Game(2, seed=4), 30)
    with pytest.raises(InvalidSaveError) as exc:
        Game.replay(g.history[:5] + [2.0], n_players=2, seed=4)
    assert exc.value.field == "actions[5]"
    with pytest.raises(InvalidSaveError) as exc:
        Game.replay(g.history[:5] + [L.N_ACTIONS + 3], n_players=2, seed=4)
    assert exc.value.field == "actions[5]"
    bad = next(a for a in range(L.N_ACTIONS) if a not in Game.replay(g.history[:7], 2, 4).legal_actions())
    with pytest.raises(InvalidSaveError) as exc:
        Game.replay(g.history[:7] + [bad], n_players=2, seed=4)
    assert exc.value.field == "actions[7]" and "not legal" in str(exc.value)
    with pytest.raises(InvalidSaveError):
        Game.replay(5, n_players=2, seed=4)
    assert Game.replay(np.array(g.history), n_players=2, seed=4).same_as(g)


# ---- valid saves round-trip ------------------------------------------------------------------------
@pytest.mark.parametrize("make, decisions", [
    (lambda: Game(2, seed=11), 150),
    (lambda: Game(4, seed=12), 300),
    (lambda: Game(scenario="net_zero", seed=13), 60),
    (lambda: Game(3, seed=14, tech_packs=("grid", "market")), 250),
    (lambda: Game(scenario="peak_load", seed=15, tech_packs="grid"), 60),
])
def test_valid_mid_game_saves_round_trip(tmp_path, make, decisions):
    g = play(make(), decisions, seed=decisions)
    assert not g.is_terminal
    path = tmp_path / "g.json"
    g.save(path)
    for h in (Game.load(path, verify_actions=True), Game.from_json(g.to_json()), Game.from_dict(g.to_dict())):
        assert h.same_as(g) and h.history == g.history and h.n_players == g.n_players
        assert h.cards.hash == g.cards.hash and (h.scenario is None) == (g.scenario is None)
    h = Game.load(path)
    play(g, 10_000, seed=1)
    play(h, 10_000, seed=1)
    assert g.is_terminal and h.same_as(g)
    Game.from_dict(g.to_dict(), verify_actions=True)     # a finished game loads too


def test_a_position_without_history_loads(mid2):
    d = copy.deepcopy(mid2)
    d["actions"] = []                          # as env snapshots save it
    assert Game.from_dict(d).same_as(Game.from_dict(mid2))


def test_every_state_of_random_games_passes_the_checks():
    """No false alarms: each state of a random 3-player tech-pack game and a solo game."""
    for g in (Game(3, seed=21, tech_packs=("grid", "market")), Game(scenario="long_haul", seed=22)):
        rng = np.random.default_rng(0)
        while True:
            check_state(g.state, g.cards, g.scenario, g.n_players, g.options)
            if g.is_terminal:
                break
            legal = g.legal_actions()
            g.step(int(legal[rng.integers(len(legal))]))


def test_the_checks_are_named_and_the_fields_readable():
    names = [n for n, _ in STATE_CHECKS]
    assert names[0] == "header" and "card conservation" in names and len(set(names)) == len(names)
    assert state_field(L.S_SP) == "S_SP"
    assert state_field(L.S_PLAYERS + L.P_SIZE + L.P_HAND + 2) == "S_PLAYERS[1].P_HAND[2]"
    assert state_field(L.S_STACK + 3 * L.FRAME + L.FR_B) == "S_STACK[3].FR_B"


# ---- check_invariants bounds-checks card ids ------------------------------------------------------
@pytest.mark.parametrize("where", ["hand", "deck", "sector", "players"])
def test_check_invariants_with_an_id_outside_the_table(where):
    g = Game(2, seed=0)
    s = g.state
    if where == "hand":
        s[PB0 + L.P_HAND + s[PB0 + L.P_HAND_N] - 1] = 300
    elif where == "deck":
        s[L.S_DECK] = 300
    elif where == "sector":
        s[PB0 + L.P_SEC_N] = 1
        s[PB0 + L.P_SEC_CARD] = 150              # below FACE_BASIC but no card of this set
    else:
        s[L.S_NPLAYERS] = 10 ** 6
    with pytest.raises(AssertionError, match="outside the card table"):
        g.check_invariants()


# ---- mutations ------------------------------------------------------------------------------------
def mutation_run(n: int, seed: int) -> dict[str, int]:
    """``n`` random edits of valid saves (2p after 20 decisions, 4p, 3p with both tech packs, solo
    with a tech pack; one to five entries each: +-1, small and huge values, swaps, copies of other
    entries).  Each must be refused with InvalidSaveError, or load and play to the end (random
    legal actions) with every invariant holding after every step.  Returns the counts."""
    rng = np.random.default_rng(seed)
    saves = []
    for g, k in ((Game(2, seed=1), 20), (Game(4, seed=2), 300),
                 (Game(3, seed=3, tech_packs=("grid", "market")), 200),
                 (Game(scenario="blackout", seed=4, tech_packs="grid"), 50)):
        saves.append(play(g, k, seed=k).to_dict())
    counts = {"edits": 0, "refused": 0, "played to the end": 0}
    for _ in range(n):
        d = copy.deepcopy(saves[int(rng.integers(len(saves)))])
        s = d["state"]
        nonzero = [i for i, v in enumerate(s) if v != 0]
        for _ in range(1 if rng.random() < 0.8 else int(rng.integers(2, 6))):
            off = int(rng.choice(nonzero)) if rng.random() < 0.6 else int(rng.integers(L.S_SIZE))
            r = rng.random()
            if r < 0.3:
                s[off] += int(rng.choice([-1, 1]))
            elif r < 0.5:
                s[off] = int(rng.integers(-3, 200))
            elif r < 0.6:
                s[off] = int(rng.choice([-1, 2, 7, 64, 160, 300, 10 ** 6, 2 ** 40, 2 ** 63 - 1, -2 ** 63]))
            elif r < 0.8:
                o2 = int(rng.integers(L.S_SIZE))
                s[off], s[o2] = s[o2], s[off]
            else:
                s[off] = s[int(rng.choice(nonzero))]
        counts["edits"] += 1
        try:
            g = Game.from_dict(d)
        except InvalidSaveError:
            counts["refused"] += 1
            continue
        for p in range(g.n_players):
            g.observe(p)
        g.render()
        while not g.is_terminal:
            legal = g.legal_actions()
            assert legal.size, "a loaded game in progress has no legal action"
            g.step(int(rng.choice(legal)))
            g.check_invariants()
        counts["played to the end"] += 1
    return counts


def test_mutated_saves_are_refused_or_play_to_the_end():
    """300 edits (the long run: ``python tests/test_hardening_save.py 100000``)."""
    counts = mutation_run(300, seed=2024)
    assert counts["refused"] + counts["played to the end"] == 300
    assert 10 < counts["played to the end"] < 200      # both outcomes are exercised


if __name__ == "__main__":  # the long run of the mutation test
    import sys
    import time
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    t0 = time.perf_counter()
    result = mutation_run(n, seed=int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    print(f"{result['edits']} edited saves: {result['refused']} refused (InvalidSaveError), "
          f"{result['played to the end']} loaded and played to the end with every invariant; "
          f"no crash ({time.perf_counter() - t0:.0f} s)")


def test_copied_games_keep_a_read_only_card_table_and_observe_alike():
    """pickle / deepcopy of a Game keep the card table read-only (numba compiles no second,
    writable-table version of the engine) and the copy observes what the original does."""
    import copy
    import pickle

    from electrify_env.engine.observe import observe as jit_observe
    g = Game(n_players=2, seed=3)
    for a in g.legal_actions()[:1]:
        g.step(int(a))
    before = len(jit_observe.signatures)
    g.observe(0)
    for c in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        assert not c.cards.table.flags.writeable
        np.testing.assert_array_equal(c.observe(0), g.observe(0))
    assert len(jit_observe.signatures) == max(before, 1)
