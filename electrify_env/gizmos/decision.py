"""The pending decision in words: who decides, what kind of decision, and every legal action
as id + kind + named arguments + a sentence (:meth:`Game.decision`).

    >>> from electrify_env.gizmos import Game
    >>> d = Game(n_players=2, seed=0).decision()
    >>> d.kind
    'main'
    >>> d.find("pick", colour=0).text
    'pick a red marble from the row'

Option kinds and arguments come from the action codec (:mod:`electrify_env.gizmos.actions`), so
``encode(option.kind, **option.args) == option.id``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

from .actions import decode, encode
from .cards import COLOURS
from .engine import gz_layout as L
from .engine.gz_energy import pbase

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game


@dataclass(frozen=True)
class Option:
    """One legal action: its id, kind, named arguments and a sentence."""

    id: int
    kind: str
    args: Mapping[str, int] = field(default_factory=dict)
    text: str = ""


@dataclass(frozen=True)
class Decision:
    """The pending decision: the deciding seat, the phase (``main``, ``pay``, ``research``,
    ``chain``, ``effect_pick``, ``effect_file``, ``effect_research``, ``free_build``,
    ``game_over``), a sentence of context and the legal options in id order."""

    player: int
    kind: str
    context: str
    options: tuple[Option, ...]

    def find(self, kind: str, **args: int) -> Option:
        """The legal option of ``kind`` with ``args``; ValueError listing the options if none."""
        for o in self.options:
            if o.kind == kind and all(o.args.get(k) == v for k, v in args.items()):
                return o
        raise ValueError(f"no legal option {kind} {args}; legal: " + "; ".join(o.text for o in self.options))

    def texts(self) -> list[str]:
        """Every option's sentence, in id order."""
        return [o.text for o in self.options]

    def has(self, kind: str, **args: int) -> bool:
        """Some legal option is ``kind`` with ``args``."""
        return any(o.kind == kind and all(o.args.get(k) == v for k, v in args.items()) for o in self.options)


def _card(game: "Game", card: int) -> str:
    return game.cards.ids[card]


def _text(game: "Game", a: int) -> tuple[str, dict]:
    S = game.state
    T = game.cards.table
    act = decode(a)
    pb = pbase(game.current_player)
    ph = int(S[L.S_PHASE])
    args = dict(act.args)
    k = act.kind
    if k == "pass":
        return {L.PH_MAIN: "pass (no action is possible)", L.PH_CHAIN: "end the turn",
                L.PH_RESEARCH: "take neither card (all go under the deck)",
                L.PH_EFFECT_PICK: "decline the second Pick"}.get(ph, "pass"), args
    if k in ("file", "build"):
        card = int(S[L.S_DISPLAY + (args["level"] - 1) * L.MAX_DISPLAY + args["slot"]])
        verb = "build for free" if ph == L.PH_FREE_BUILD else k
        return f"{verb} {_card(game, card)} from the display", args
    if k == "build_arch":
        card = int(S[pb + L.P_ARCH + args["index"]])
        verb = "build for free" if ph == L.PH_FREE_BUILD else "build"
        return f"{verb} {_card(game, card)} from the archive", args
    if k == "pick":
        return f"pick a {COLOURS[args['colour']]} marble from the row", args
    if k == "research":
        return f"research deck {'I' * args['level']}", args
    if k in ("res_build", "res_file"):
        card = int(S[L.S_RES + args["index"]])
        return f"{'build' if k == 'res_build' else 'file'} researched {_card(game, card)}", args
    if k == "use":
        card = int(S[pb + L.P_BUILT + args["machine"]])
        return f"use {game.cards.describe(card)}", args
    if k == "spend":
        return f"spend a {COLOURS[args['colour']]} marble", args
    if k == "convert":
        o = args["option"]
        card = int(S[pb + L.P_BUILT + S[L.S_OPT_MACH + o]])
        return f"apply converter {_card(game, card)} option {int(S[L.S_OPT_K + o]) + 1}", args
    return "pay with the marbles and converters chosen", args


def _context(game: "Game") -> str:
    S = game.state
    ph = int(S[L.S_PHASE])
    if ph == L.PH_PAY:
        m = ", ".join(f"{int(S[L.S_PAY_M + c])} {COLOURS[c]}" for c in range(4) if S[L.S_PAY_M + c])
        return (f"paying {int(S[L.S_PAY_COST])} for {_card(game, int(S[L.S_PAY_CARD]))}; spent so far: "
                f"{m or 'nothing'}")
    if ph == L.PH_RESEARCH:
        drawn = ", ".join(_card(game, int(S[L.S_RES + i])) for i in range(int(S[L.S_RES_N])))
        return f"researched deck {'I' * (int(S[L.S_RES_DECK]) + 1)}: {drawn or 'nothing'}"
    if ph == L.PH_EFFECT_PICK:
        return f"{int(S[L.S_EFF_LEFT])} Pick(s) left from a machine"
    return f"round {game.round}, player {game.current_player}"


def decision_of(game: "Game") -> Decision:
    """The :class:`Decision` pending in ``game``."""
    if game.done:
        return Decision(game.current_player, "game_over", "the game is over", ())
    opts = []
    for a in game.legal_actions():
        text, args = _text(game, int(a))
        kind = decode(int(a)).kind
        assert encode(kind, **args) == int(a)
        opts.append(Option(int(a), kind, args, text))
    return Decision(game.current_player, game.phase, _context(game), tuple(opts))
