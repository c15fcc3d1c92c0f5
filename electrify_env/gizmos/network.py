"""Where the cards lie in the Gizmos observation, for the policy-value network.

:func:`network_layout` is the game's ``network`` hook (:class:`electrify_env.games.GameDef`): the
card-slot groups of the observation (:mod:`.observation`) and the action ranges that point at
them, as plain data for :class:`electrify_env.agents.network.layout.NetworkLayout`.

| group | slots | slot width | pointed at by |
|---|---:|---|---|
| ``display`` | 12 | card features | ``file``, ``build`` (slot ``d*4+k``) |
| ``own_machine`` | 48 | card features + waiting, used, option 0 used, option 1 used | ``use`` (build order) |
| ``own_archive`` | 16 | card features | ``build_arch`` (filing order) |
| ``pay_card`` | 1 | card features | - |
| ``research`` | 16 | card features | ``res_build``, ``res_file`` (draw order) |
"""
from __future__ import annotations

from .actions import KINDS, N_ACTIONS
from .engine import gz_layout as L
from .engine import gz_observe as K

__all__ = ["network_layout"]

_SLOT = K.CF_SIZE
_GROUPS = (
    ("display", K.O_DISPLAY, L.N_DECKS * L.MAX_DISPLAY, _SLOT),
    ("own_machine", K.O_OWN_MACH, L.MAX_BUILT, K._OWN_SLOT),
    ("own_archive", K.O_OWN_ARCH, L.MAX_ARCHIVE, _SLOT),
    ("pay_card", K.O_PAY_CARD, 1, _SLOT),
    ("research", K.O_RES, L.MAX_RESEARCH, _SLOT),
)
_POINTS = {"file": "display", "build": "display", "use": "own_machine", "build_arch": "own_archive",
           "res_build": "research", "res_file": "research"}


def network_layout(n_players: int) -> dict:
    """The observation's card slots and pointing actions (the module's table) as plain data;
    the same for every player count (the observation has one size)."""
    by_kind = {r.kind: r for r in KINDS}
    return {
        "game": "gizmos", "obs_size": K.OBS_SIZE, "n_actions": N_ACTIONS, "n_players": int(n_players),
        "version": K.OBS_VERSION,
        "groups": [{"name": n, "offset": o, "count": c, "stride": s, "card_width": K.CF_SIZE}
                   for n, o, c, s in _GROUPS],
        "pointers": [{"first": by_kind[k].first, "count": by_kind[k].length, "group": g, "start": 0}
                     for k, g in _POINTS.items()],
    }
