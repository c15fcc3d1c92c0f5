"""Electrify at the play table: the game's own pieces that the shared session
(:class:`electrify_env.play.table.TableSession`) reaches through the ``play`` import path of
Electrify's :class:`~electrify_env.games.GameDef` (the hooks are listed in
:mod:`electrify_env.play.table`).

It sits in the play layer, beside the session, because two of its pieces need the agents layer:
the default opponent (``trained`` where a shipped policy fits the game) and the check that a
seat's policy fits the game before it starts.  The rest reads Electrify's core: the options and
their places on the board, the log's words (:mod:`electrify_env.describe`), the seat's view
(:func:`electrify_env.render.view.seat_view_dict`), the end summary's solo result, the game's save
(:mod:`electrify_env.savefile`) and the shipped tech packs.

``PlayOption.place`` names the board element an option belongs to, so a UI can put it there
(None: the option has no place and is shown in a list):

=========================  ======================================================================
place                      kinds
=========================  ======================================================================
``("sector", p, s)``       plan, place_sector, dis_sector, flip (sector ``s`` of player ``p``)
``("slot", p, s, k)``      place_slot (insert at slot k), dis_card, reorder (card at old slot k)
``("hand", h)``            card_hand, discard, discard_mult (hand slot ``h`` of the seat on turn)
``("basic", b, f)``        card_basic (face ``f`` of basic card ``b``)
``("depot", p, c)``        pay, produce, develop, transmit (column ``c`` of player ``p``'s depot)
``("grid", p, c)``         donate (a grid cube of column ``c``)
``("research", p)``        research (the marker of player ``p``)
``("breakthrough", k)``    bt (research breakthrough space ``k``)
``("demand", l)``          fulfill (the demand card of level ``l``)
``("deck", d)``            invest (draw from deck ``d``)
``("icon", i)``            icon (icon ``i`` of the item being discharged)
None                       pass, boost, plan_move, reward, ongoing, solo_swap
=========================  ======================================================================
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np

from .. import describe as _describe
from ..engine import layout as L
from ..game import Game
from ..render.view import seat_view_dict
from .turns import TurnWords

__all__ = ["SECRET_KINDS", "TERMINAL", "TERMINAL_FLAGS", "WORDS", "check_agents", "default_opponent", "describe", "end_details",
           "load_game", "options", "record_options", "restart", "same_state", "save_game",
           "setup_options", "shipped_policy_for", "summary_rounds", "table_view", "tech_pack_ids"]

FALLBACK_OPPONENT = "greedy"
#: the module that draws an Electrify table in the terminal (:mod:`electrify_env.play.terminal`)
TERMINAL = "electrify_env.play.electrify_terminal"
#: the options of ``electrify play`` that only Electrify takes: difficulty levels, solo, tech packs
TERMINAL_FLAGS = ("level", "solo", "tech")
#: the kinds whose choice other seats may not see: the Plan pick (R4)
SECRET_KINDS = ("plan",)

#: Electrify's words for the table's log and end screen (:mod:`electrify_env.describe`)
WORDS = TurnWords(before=_describe.step_facts, after=_describe.step_result,
                  turn_text=_describe.turn_text, point_sources=_describe.POINT_SOURCES,
                  tiebreak_names=_describe.TIEBREAK_NAMES)


def _place(kind: str, args: Mapping[str, int], p: int, context: Mapping[str, object]) -> tuple | None:
    """The board element of an option (see the module docstring's table)."""
    if kind in ("plan", "place_sector", "dis_sector", "flip"):
        return ("sector", p, args["sector"])
    if kind == "dis_card":
        return ("slot", p, args["sector"], args["slot"])
    if kind in ("place_slot", "reorder") and "sector" in context:
        return ("slot", p, int(context["sector"]), args["slot"])
    if kind in ("card_hand", "discard", "discard_mult"):
        return ("hand", args["hand_slot"])
    if kind == "card_basic":
        return ("basic", args["basic"], args["face"])
    if kind in ("pay", "produce", "develop", "transmit"):
        return ("depot", p, args["column"])
    if kind == "donate":
        return ("grid", p, args["column"])
    if kind == "research":
        return ("research", p)
    if kind == "bt":
        return ("breakthrough", args["space"])
    if kind == "fulfill":
        return ("demand", args["level"])
    if kind == "invest":
        return ("deck", args["deck"])
    if kind == "icon":
        return ("icon", args["icon"])
    return None


def options(game: Game) -> list[dict]:
    """The legal options of the seat on turn, ascending by action id, with their places."""
    if game.is_terminal:
        return []
    d = game.decision()
    return [{"action": o.id, "kind": o.kind, "args": dict(o.args), "text": o.text,
             "place": _place(o.kind, o.args, d.player, d.context), "any_time": o.any_time}
            for o in d.options]


def describe(game: Game, action: int) -> tuple[str, dict, str]:
    """``(kind, args, text)`` of the action id ``action`` at the pending decision."""
    from ..actions import decode
    act = decode(action)
    return act.kind, dict(act.args), game.describe_action(action)


def table_view(game: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` (-1: a spectator) may see (:func:`electrify_env.render.view.seat_view_dict`)."""
    return seat_view_dict(game, seat)


def summary_rounds(game: Game) -> int:
    """The rounds of a game's score-by-round chart: always 12."""
    return L.N_ROUNDS


def end_details(game: Game) -> dict[str, Any]:
    """The end summary's Electrify keys: ``solo``, the solo result (None with opponents)."""
    return {"solo": game.solo_result() if game.is_solo else None}


def restart(game: Game) -> Game:
    """A new game at the start of ``game``: the same players, seed, card set and scenario."""
    return Game(n_players=game.n_players, seed=game.seed, card_set=game.cards, scenario=game.scenario)


def save_game(game: Game) -> dict[str, Any]:
    """The engine's save of ``game`` (:meth:`Game.to_dict`)."""
    return game.to_dict()


def load_game(data: Any) -> Game:
    """The game of an engine save, checked completely (:mod:`electrify_env.savefile`;
    InvalidSaveError naming the field)."""
    return Game.from_dict(data)


def same_state(a: Game, b: Game) -> bool:
    """True when both games hold identical states."""
    return a.same_as(b)


def record_options(rec: Mapping[str, Any]) -> dict[str, Any]:
    """The set-up options of an arena record: its ``scenario`` and ``tech_packs``."""
    return {"scenario": rec.get("scenario"), "tech_packs": tuple(rec.get("tech_packs", []))}


def setup_options(game: Game) -> dict[str, Any]:
    """The set-up options that deal another game like ``game``: scenario id and tech packs."""
    return {"scenario": game.scenario.id if game.scenario else None, "tech_packs": tuple(tech_pack_ids(game))}


def shipped_policy_for(n_players: int, card_set_hash: str | None = None) -> Path | None:
    """The shipped policy that ``trained`` plays in an ``n_players`` game (1 = solo), or None
    when none is shipped or its metadata does not fit this engine, the card set
    (``card_set_hash``; None: the base set) or the player count.  Reads only the metadata
    sidecar, so it is cheap and imports no torch."""
    from electrify_env.agents.trained import shipped_policy

    from ..cards import load_card_set
    from electrify_env.agents.policy_meta import check_compatible, load_policy_metadata, policy_players
    try:
        path = shipped_policy(n_players)
        meta = load_policy_metadata(path)
        check_compatible(meta, card_set_hash=card_set_hash or load_card_set().hash, n_players=n_players)
    except ValueError:          # AgentError (none shipped), PolicyMismatchError
        return None
    return path if policy_players(meta) in (None, n_players) else None


def default_opponent(n_players: int, card_set_hash: str | None = None) -> str:
    """The bot for a seat nobody chose in the UIs: ``"trained"`` when a shipped policy fits an
    ``n_players`` game with the card set ``card_set_hash`` (None: the base set; see
    :func:`shipped_policy_for`), else ``"greedy"``."""
    return "trained" if shipped_policy_for(n_players, card_set_hash) is not None else FALLBACK_OPPONENT


def check_agents(game: Game, seats: Sequence[str], agents: Mapping[int, Any]) -> None:
    """Load the network of every seat played by a trained policy now, so that one that does not
    fit the game is refused (a ValueError naming the seat) before the game starts."""
    from electrify_env.agents import SeatView
    from electrify_env.agents.trained import NetAgent
    for i, agent in agents.items():
        if isinstance(agent, NetAgent):
            view = SeatView(i, game.n_players, np.zeros(L.N_ACTIONS, np.uint8), None, None,
                            np.zeros(0, np.int64), game.cards.hash, len(game.history))
            try:
                agent._net(view)        # loads and checks the policy for this player count and card set
            except ValueError as err:   # AgentError, PolicyMismatchError, a corrupt file
                raise ValueError(f"seats[{i}] ({seats[i]}): {err}") from None


@functools.lru_cache(maxsize=1)
def _shipped_pack_ids() -> dict[str, str]:
    from ..cards import load_card_set
    from ..game import resolve_tech_pack, tech_pack_names
    return {load_card_set(tech_packs=(resolve_tech_pack(n),)).pack_names[0]: n for n in tech_pack_names()}


def tech_pack_ids(game: Game) -> list[str]:
    """The shipped names (``"grid"``) of the tech packs in ``game``'s card set, to deal another
    game like it; a ValueError (the session's PlayError) for a pack that is not shipped (a
    pack file)."""
    from .table import PlayError
    ids = _shipped_pack_ids()
    missing = [n for n in game.cards.pack_names if n not in ids]
    if missing:
        raise PlayError(f"tech pack {missing[0]!r} is not a shipped pack")
    return [ids[n] for n in game.cards.pack_names]
