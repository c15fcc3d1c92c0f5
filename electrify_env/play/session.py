"""Electrify at the play table: :class:`PlaySession` is the shared session
(:class:`electrify_env.play.table.TableSession`) with ``game="electrify"`` and Electrify's set-up
arguments, and this module keeps the names the Electrify front ends and scripts import.

    s = PlaySession(n_players=2, seats=["human", "greedy"], seed=None,   # None: a fresh one
                    scenario=None, tech_packs=(), card_set=None)

Everything else (options, moves, bots, the log in players' words, the end summary, undo, hints,
views, saves, replays of arena records) is :class:`~electrify_env.play.table.TableSession`'s; the
Electrify pieces it asks for (option places, words, views, default opponents, tech packs) are in
:mod:`electrify_env.play.electrify`.  A seat played by a trained policy loads it when the session
is made, so a policy that does not fit the game (another player count, card set or layout) is
refused then with a PlayError, not at its first move.
"""
from __future__ import annotations

from typing import Sequence

from ..games import get_game
from .electrify import WORDS as ELECTRIFY_WORDS, default_opponent, shipped_policy_for, tech_pack_ids
from .table import (HIDDEN_PLAN, HUMAN, SESSION_FORMAT, SESSION_VERSION, SPECTATOR, IllegalActionError,
                    LogEvent, PlayError, PlayOption, SeatError, TableSession, fresh_seed)

__all__ = ["ELECTRIFY_WORDS", "HIDDEN_PLAN", "HUMAN", "LogEvent", "PlayError", "PlayOption", "PlaySession",
           "SeatError", "SESSION_FORMAT", "SESSION_VERSION", "SPECTATOR", "IllegalActionError",
           "default_opponent", "fresh_seed", "shipped_policy_for", "tech_pack_ids"]


class PlaySession(TableSession):
    """A game of Electrify with a person or a bot in every seat.

    Args:
        n_players: 1 (with a scenario) to 4; default: ``len(seats)``, else 1 with a scenario
            and 2 without.
        seats: ``"human"`` or an agent spec for each seat; default: a person in seat 0 and
            ``greedy`` in the others.
        seed: the game seed (0..2**62-1); None (the default): a fresh unpredictable one
            (:mod:`secrets`), so no seat can rebuild the deal from it.  Views show the seed only
            once the game is over.
        scenario: a solo scenario id or path (then ``n_players`` is 1).
        tech_packs: tech packs to shuffle in (``"grid"``, ``"market"``, paths).
        card_set: a card-set path or CardSet, None for the base set.

    Raises:
        PlayError: a bad argument, named in the message (an InvalidArgumentError; both are
            ValueErrors).
    """

    def __init__(self, n_players: int | None = None, seats: Sequence[str] | None = None,
                 seed: int | None = None, scenario=None, tech_packs=(), card_set=None) -> None:
        if n_players is None:
            n_players = len(seats) if seats is not None and not isinstance(seats, (str, bytes)) \
                else (1 if scenario is not None else 2)
        if seats is None and isinstance(n_players, int) and not isinstance(n_players, bool):
            seats = [HUMAN] + ["greedy"] * (n_players - 1)
        super().__init__("electrify", n_players=n_players, seats=seats, seed=seed, card_set=card_set,
                         tech_packs=tech_packs, scenario=scenario)

    @classmethod
    def _new(cls, gdef, **kw) -> "PlaySession":
        if gdef is not get_game("electrify"):
            return TableSession._new(gdef, **kw)
        return super()._new(gdef, **kw)
