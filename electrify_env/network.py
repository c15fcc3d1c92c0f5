"""Where the cards lie in the Electrify observation, for the policy-value network.

:func:`network_layout` is Electrify's ``network`` hook (:class:`electrify_env.games.GameDef`): the
card-slot groups of the observation (:mod:`electrify_env.engine.observe`, every face written as
its face features) and the action ranges that point at them, as plain data for
:class:`electrify_env.agents.network.layout.NetworkLayout`.

| group | slots | pointed at by |
|---|---:|---|
| ``hand`` | 9 | ``card_hand``, ``discard``, ``discard_mult`` (hand slot) |
| ``pending`` | 1 | - (the face being placed or discharged) |
| ``cards_p0`` ... ``cards_p3`` | 25 each | ``dis_card`` points at the observer's (``s*5+slot``) |
| ``sectors_p0`` ... ``sectors_p3`` | 5 each | ``dis_sector`` points at the observer's |

Player blocks are seat-relative (``p0`` is the observer), as in the observation.
"""
from __future__ import annotations

from .actions import KINDS
from .engine import observe as O
from .engine.layout import MAX_HAND, MAX_PLAYERS, MAX_SLOTS, N_ACTIONS, N_SECTORS

__all__ = ["network_layout"]


def network_layout(n_players: int) -> dict:
    """The observation's card slots and pointing actions (the module's table) as plain data;
    the same for every player count (the observation has one size)."""
    groups = [{"name": "hand", "offset": O.O_HAND, "count": MAX_HAND, "stride": O.NF, "card_width": O.NF},
              {"name": "pending", "offset": O.O_PEND_FACE, "count": 1, "stride": O.NF, "card_width": O.NF}]
    for p in range(MAX_PLAYERS):
        base = O.O_PLAYERS + p * O.PL_SIZE
        groups.append({"name": f"cards_p{p}", "offset": base + O.PL_CARDS, "count": N_SECTORS * MAX_SLOTS,
                       "stride": O.NF, "card_width": O.NF})
        groups.append({"name": f"sectors_p{p}", "offset": base + O.PL_SEC_FACE, "count": N_SECTORS,
                       "stride": O.NF, "card_width": O.NF})
    by_kind = {r.kind: r for r in KINDS}
    points = {"card_hand": "hand", "discard": "hand", "discard_mult": "hand", "dis_card": "cards_p0",
              "dis_sector": "sectors_p0"}
    return {"game": "electrify", "obs_size": O.OBS_SIZE, "n_actions": N_ACTIONS, "n_players": int(n_players),
            "version": O.OBS_VERSION, "groups": groups,
            "pointers": [{"first": by_kind[k].first, "count": by_kind[k].length, "group": g, "start": 0}
                         for k, g in points.items()]}
