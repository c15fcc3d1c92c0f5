"""What a balance report counts in a finished Gizmos game: the hook the shared balance report
(:mod:`electrify_env.agents.balance`) reaches through the ``report`` import path of the game's
:class:`~electrify_env.games.GameDef`, so it never imports this package by name.

:func:`game_facts` returns plain data: the rounds played, how the game ended (``"end
condition"``: G20's 16 machines or 4 of level III; ``"round cap"``: G22) and each seat's tableau
as the card effects of its built machines (the starting machine left out), labelled
``"type: effect"`` (``"build: two_picks"``, ``"upgrade: level2_discount"``,
``"converter: double"``, ``"file: tokens"``).

    >>> from electrify_env.gizmos import Game
    >>> g = Game(n_players=2, seed=7)
    >>> while not g.done:
    ...     g.step(int(g.legal_actions()[0]))
    >>> sorted(game_facts(g))
    ['ended_by', 'rounds', 'tableaux']
"""
from __future__ import annotations

from .cards import CONVERTER_NAME, EFFECT_NAME, SPECIAL_NAME, TYPE_NAME
from .engine import gz_layout as L
from .engine.gz_energy import pbase

__all__ = ["game_facts", "effect_label", "ENDINGS"]

#: the ways a game ends, in report order
ENDINGS = ("end condition", "round cap")


def effect_label(T, card: int) -> str:
    """``"type: effect"`` of ``card`` in the card table ``T``: an upgrade by its special (or
    ``limits`` when it only raises limits), a converter by its option kinds joined with ``+``."""
    ty = TYPE_NAME[int(T[L.T_TYPE + card])]
    ef = int(T[L.T_EFFECT + card])
    if ef == L.EF_UPGRADE:
        what = SPECIAL_NAME.get(int(T[L.T_UP_SPECIAL + card]), "limits")
    elif ef == L.EF_CONVERTER:
        what = "+".join(CONVERTER_NAME[int(T[L.T_CV_KIND + 2 * card + k])] for k in range(int(T[L.T_CV_N + card])))
    else:
        what = EFFECT_NAME.get(ef, "none")
    return f"{ty}: {what}"


def game_facts(game) -> dict:
    """The facts of a finished Gizmos ``game`` a balance report counts (module docstring):
    ``{"rounds": int, "ended_by": one of ENDINGS, "tableaux": [[label per machine] per seat]}``."""
    S, T = game.state, game.cards.table
    tableaux = []
    for p in range(game.n_players):
        pb = pbase(p)
        cards = [int(c) for c in S[pb + L.P_BUILT:pb + L.P_BUILT + S[pb + L.P_BUILT_N]]]
        tableaux.append([effect_label(T, c) for c in cards if T[L.T_LEVEL + c] > 0])
    return {"rounds": int(game.round), "ended_by": ENDINGS[1] if game.truncated else ENDINGS[0],
            "tableaux": tableaux}
