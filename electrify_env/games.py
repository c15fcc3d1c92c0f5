"""The games of electrify-env, by name: what a shared layer (arena, ladder, balance, search,
trainer, play table, CLI) needs to play any of them without importing a game's package.

A game is a package that provides a ``Game`` class.  A shared layer asks this registry for a
:class:`GameDef` by name (``get_game("gizmos")``) and plays through the ``Game`` protocol below;
it never imports a game by module name, so adding a game is adding an entry here.

**The Game protocol** (what every game's ``Game`` offers):

* ``Game(n_players=..., seed=..., card_set=...)``; attributes ``n_players``, ``history`` (the
  action ids applied), ``cards`` (with ``hash`` and ``table``), ``N_ACTIONS``;
* ``current_player``, ``is_terminal``; ``legal_mask()`` (uint8, ``N_ACTIONS`` long),
  ``legal_actions()``, ``step(action)`` (raises ``IllegalActionError``), ``copy()``;
* ``observe(seat)`` (float32, the seat's information set only) and ``seat_view(seat=None,
  observation=True, infoset=True)`` (an :class:`electrify_env.seatview.SeatView`);
* results: ``scores()``, ``tiebreak_keys()`` ((n_players, k), higher is better, compared in
  order), ``winners()`` (seats), ``points_by_source()`` (one dict per seat).

>>> from electrify_env.games import get_game
>>> g = get_game("gizmos").new_game(n_players=2, seed=3)
>>> g.n_players, g.is_terminal
(2, False)
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from typing import Any

from .validation import InvalidArgumentError

__all__ = ["GameDef", "GAMES", "DEFAULT_GAME", "get_game", "game_names", "game_def_of"]


@dataclass(frozen=True)
class GameDef:
    """One registered game.

    Attributes:
        name: the id used on the command line (``--game NAME``) and in records.
        title: the printed name.
        min_players / max_players: the player counts its ``Game`` accepts.
        module: the import path of the package whose ``Game`` class plays it.
        bots: the import path of the module whose ``agent_kinds()`` lists the game's own agent
            kinds for the agent registry (``""``: none beyond the registry's own).
        report: the import path of the module whose ``game_facts(game)`` gives what a balance
            report counts in a finished game (``""``: the game has no balance report of its own).
        demo: the import path of the module whose ``demo_text(players, seed, card_set)`` plays a
            random game and returns its result as text, for ``electrify demo --game NAME``
            (``""``: the CLI's own demo, Electrify's).
        network: the import path of the module whose ``network_layout(n_players)`` says where
            the cards lie in the game's observation, as plain data, for the policy-value network
            (:mod:`electrify_env.agents.network.layout`; ``""``: the game has none).
        play: the import path of the module that gives the game's pieces of the play table
            (the hooks listed in :mod:`electrify_env.play.table`: its words, options, views,
            end summary, default opponent, saves; ``""``: the game is not played at the table).
    """

    name: str
    title: str
    min_players: int
    max_players: int
    module: str
    bots: str = ""
    report: str = ""
    demo: str = ""
    network: str = ""
    play: str = ""

    @property
    def game_class(self) -> Any:
        """The game's ``Game`` class (imported on first use)."""
        return import_module(self.module).Game

    def agent_kinds(self) -> dict[str, dict]:
        """The game's own agent kinds, from its ``bots`` module's ``agent_kinds()`` (plain data:
        name -> ``{"target", "doc", "params"}``; empty when the game names no bots module)."""
        return dict(import_module(self.bots).agent_kinds()) if self.bots else {}

    def table(self) -> Any:
        """The game's play-table module (its ``play`` import path); InvalidArgumentError when
        the game names none."""
        if not self.play:
            raise InvalidArgumentError(f"{self.title} has no play-table module (its GameDef names none)")
        return import_module(self.play)

    def game_facts(self, game: Any) -> dict:
        """What a balance report counts in the finished ``game`` (its ``report`` module's
        ``game_facts``); InvalidArgumentError when the game names no report module."""
        if not self.report:
            raise InvalidArgumentError(f"{self.title} has no balance facts (its GameDef names no report module)")
        return dict(import_module(self.report).game_facts(game))

    def demo_text(self, players: int | None = None, seed: int = 0, card_set: Any = None) -> str:
        """A random game's result as text (its ``demo`` module's ``demo_text``);
        InvalidArgumentError when the game names no demo module."""
        if not self.demo:
            raise InvalidArgumentError(f"{self.title} has no demo module (its GameDef names none)")
        return str(import_module(self.demo).demo_text(players, seed, card_set))

    def new_game(self, n_players: int, seed: int = 0, card_set: Any = None, **options: Any) -> Any:
        """A new game at its start; ``options`` are the game's own (Electrify: ``tech_packs``,
        ``scenario``)."""
        if not self.min_players <= int(n_players) <= self.max_players:
            raise InvalidArgumentError(f"{self.title} takes {self.min_players}-{self.max_players} "
                                       f"players, got {n_players}")
        return self.game_class(n_players=int(n_players), seed=seed, card_set=card_set, **options)


#: every game, by name
GAMES: dict[str, GameDef] = {
    "electrify": GameDef("electrify", "Electrify", 1, 4, "electrify_env.game", network="electrify_env.network",
                         play="electrify_env.play.electrify"),
    "gizmos": GameDef("gizmos", "Gizmos", 2, 4, "electrify_env.gizmos.game", bots="electrify_env.gizmos.bots",
                      report="electrify_env.gizmos.report", demo="electrify_env.gizmos.demo",
                      network="electrify_env.gizmos.network", play="electrify_env.gizmos.table"),
}
#: the game a tool plays when none is named
DEFAULT_GAME = "electrify"


def game_names() -> list[str]:
    """The registered game names, in registration order."""
    return list(GAMES)


def get_game(name: str) -> GameDef:
    """The :class:`GameDef` called ``name``; a one-line error lists the names otherwise."""
    if isinstance(name, GameDef):
        return name
    try:
        return GAMES[str(name)]
    except KeyError:
        raise InvalidArgumentError(f"unknown game {name!r}; games: {', '.join(GAMES)}") from None


def game_def_of(game: Any) -> GameDef:
    """The :class:`GameDef` of a game object (by its ``game_name`` attribute)."""
    name = getattr(game, "game_name", None)
    if name is None:
        raise InvalidArgumentError(f"{type(game).__name__} is not a registered game (no game_name)")
    return get_game(name)
