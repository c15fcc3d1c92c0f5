"""The Gizmos observation: one float32 vector of what a seat may know (G25), every entry in [0, 1].

:func:`observe` (``Game.observe(seat)``) fills it with the jitted kernel :func:`observe_state`
(in ``electrify_env/gizmos/engine/gz_observe.py``, so that numba's cache of it is stamped with the
engine's sources), which reads the state ``S`` and the card table ``T`` only where the ruling G25
makes them public, plus the seat's own researched cards while it chooses among them and the cards
it put under a deck and still knows there.  It never reads the order of the rest of a deck, the
cards removed at setup (``S_BOX``), the generator words or another seat's researched cards, so
two games that differ only there give the same vector (``tests/test_gizmos_observation.py``).

**Card features.**  A card is written as ``CF_SIZE`` features computed from the card table, so
the vector has one size and one meaning for every schema-valid card set (no card id is coded
in):

| feature | length | meaning |
|---|---:|---|
| ``present`` | 1 | a card is there |
| ``level`` | 4 | level 0, I, II, III (one-hot) |
| ``type`` | 5 | upgrade, converter, file, pick, build (one-hot: the dashboard column) |
| ``colour`` | 6 | red, yellow, blue, black, any, none (one-hot) |
| ``cost`` | 1 | printed cost / 8, clipped at 1 |
| ``points`` | 1 | printed points / 8, clipped at 1 |
| ``effect`` | 9 | pick, tokens, draw, two_picks, file, research, free_build, upgrade, converter (one-hot) |
| ``effect_n`` | 1 | the effect's number N (tokens, marbles drawn) / 4, clipped |
| ``trigger`` | 4 | every File, colours, a level-II build, a build from the archive (one-hot; none for upgrades and converters) |
| ``trigger_colour`` | 4 | the trigger's colours, one bit each |
| ``upgrade`` | 3 | + storage, + archive, + research, each / 4, clipped |
| ``special`` | 7 | the upgrade's special (``UP_*`` one-hot, no_file ... score_tokens) |
| ``convert`` | 16 | per converter option k = 0, 1: kind double, wild, wild2, any (one-hot), then its colour X (one-hot) |

**Blocks** (in this order; :func:`observation_rows` gives every offset, :func:`feature_names`
names every entry).  Players are seat-relative: player block ``p0`` is the observer, ``p1`` the
next seat in play order, and so on; blocks of seats the game does not have stay zero.

| block | length | meaning |
|---|---:|---|
| ``n_players`` | 3 | 2, 3 or 4 players (one-hot) |
| ``round`` | 1 | round / the round cap (``rules.max_rounds``) |
| ``phase`` | 9 | phase of the pending decision (``PH_*`` one-hot) |
| ``to_move`` | 4 | the seat to move, seat-relative (one-hot; zero once the game is over) |
| ``status`` | 3 | the end is triggered (G20), the game is over, it was truncated (G22) |
| ``row`` | 4 | Energy Row marbles per colour / the row size |
| ``dispenser`` | 4 | dispenser marbles per colour / that colour's marbles in the game |
| ``deck`` | 3 | cards in decks I, II, III / 64 (their order is hidden) |
| ``display`` | 12 x CF | the face-up card of level d+1, slot k at ``d*4+k`` (the ``A_FILE``/``A_BUILD`` index); empty slots zero |
| ``p0`` ... ``p3`` | 4 x 149 | per player: present, points / 100, built / end_built, built / 48, level-III / end_level3, storage per colour / 10, storage used / its limit, tokens / 20, limits (storage / 10, archive / 16, research / 16), archive size / 16, turns / the round cap, upgrade specials held / 2 (7), waiting and used machines / 8, the sum of the card features of its machines / 16 and of its archive / 4 (each clipped at 1) |
| ``own_machine`` | 48 x (CF + 4) | the observer's machines in build order (the ``A_USE`` index): card features, waiting, used this turn, converter options 0 and 1 used this turn |
| ``own_archive`` | 16 x CF | the observer's archive in filing order (the ``A_BUILD_ARCH`` index) |
| ``pay`` | CF + 8 + 24 x 10 | phase ``pay`` only: the card being built, its source (display, archive, research), marbles owed / 8, marbles spent per colour / 8, then per entry of the payment's option list: present, applied, kind (4), colour (4) |
| ``known_under`` | 3 x (1 + CF) | per deck I, II, III: the cards the observer put under it (research) and still knows there, / 4, and the sum of their card features / 4, clipped |
| ``research`` | 4 + 16 x CF | phase ``research`` only: the deck drawn from (one-hot), cards drawn / 16 (public), then the drawn cards in draw order (the ``A_RES_BUILD``/``A_RES_FILE`` index), only when the observer is the researcher |
| ``effect`` | 2 | phase ``effect_pick`` only: picks left / 2, before the first pick |

Points count printed points, tokens and the end-game upgrades as :meth:`Game.scores` does; all
of it is public.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..common.engine.layouts import layout_tables, tables_markdown
from ..validation import InvalidArgumentError, as_int
from .engine import gz_observe as K
from .engine.gz_observe import CF_SIZE, OBS_SIZE, OBS_VERSION, observe_state

__all__ = ["OBS_SIZE", "OBS_VERSION", "CF_SIZE", "observe", "observe_state", "feature_names",
           "observation_rows", "card_feature_names", "observation_markdown"]

#: the scales of the module docstring (a count is divided by its scale and clipped at 1)
SC_COST, SC_POINTS, SC_TOKENS, SC_BAG, SC_KNOWN = K.SC_COST, K.SC_POINTS, K.SC_TOKENS, K.SC_BAG, K.SC_KNOWN
_LAYOUTS = (K._cf, K._pf, K._o)


def feature_names() -> list[str]:
    """The name of every entry of the observation, in order (``OBS_SIZE`` names, e.g.
    ``player.p1.tokens``, ``display.5.cost``)."""
    return list(K._o.names)


def card_feature_names() -> list[str]:
    """The names of the ``CF_SIZE`` card features."""
    return list(K._cf.names)


def observation_rows() -> dict[str, list[tuple[str, int, int, str]]]:
    """(name, offset, length, meaning) of every field of the card features, the player block and
    the observation."""
    return layout_tables(_LAYOUTS)


def observation_markdown() -> str:
    """The fields of :func:`observation_rows` as Markdown tables."""
    return tables_markdown(_LAYOUTS, first="field")


def observe(game: Any, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """The observation of ``seat`` in the Gizmos ``game`` (a :class:`~electrify_env.gizmos.Game`):
    a float32 array of ``OBS_SIZE`` entries in [0, 1] (``out`` when given, else a new array).

    Raises:
        InvalidArgumentError: ``seat`` is not a seat of the game, or ``out`` is not a float32
            array of ``OBS_SIZE`` entries.
    """
    seat = as_int(seat, "seat")
    if not 0 <= seat < game.n_players:
        raise InvalidArgumentError(f"seat must be 0..{game.n_players - 1}, got {seat}")
    if out is None:
        out = np.empty(OBS_SIZE, dtype=np.float32)
    elif not (isinstance(out, np.ndarray) and out.dtype == np.float32 and out.shape == (OBS_SIZE,)):
        raise InvalidArgumentError(f"out must be a float32 array of shape ({OBS_SIZE},)")
    observe_state(game.state, game.cards.table, np.int64(seat), out)
    return out
