"""What one seat may see of a game, as a JSON-ready dict (no hidden information).

:func:`seat_view_dict` reads a :class:`~electrify_env.Game` and returns plain lists, dicts, ints
and strings: the public table (columns, every player's sectors with their cards in slot order,
depots, grids, research, breakthroughs, clean tokens, scores, demand cards and who fulfilled
them, deck and discard sizes, the basic supply, solo stars and challenges) plus what only the
seat itself knows (its own hand and its own secret Plan pick).  Hidden information never enters
the dict (R4, R26 of ``docs/rules.md``): other hands only as counts, no deck contents or order,
no other player's Plan pick before the reveal, no generator words.  The board picture
(:mod:`electrify_env.render.board`), the web app and the terminal UI all draw from this dict.

Faces (cards, basic faces, sector tiles) are dicts ``{"face", "name", "kind", "cost", "icons",
"arrows", "text"}``; each icon is ``{"action", "column", "mult", "text"}``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import schema as CS
from ..cards.loader import LEVEL_NAMES
from ..decision import FRAME_KINDS, pending_frame_type
from ..engine import layout as L

if TYPE_CHECKING:  # pragma: no cover
    from ..game import Game

__all__ = ["face_dict", "seat_view_dict", "SPECTATOR"]

#: the seat number of a spectator: sees only the public table (no hand at all)
SPECTATOR = -1

_ACT_NAME = {code: name for name, code in CS.ACT_CODE.items()}
_MULT_NAME = {code: name for name, code in CS.MULT_CODE.items()}
_REWARD_NAME = {code: name for name, code in CS.REWARD_CODE.items()}
_KIND_NAME = {L.KIND_PRODUCTION: "production", L.KIND_INFRASTRUCTURE: "infrastructure",
              L.KIND_BASIC: "basic", L.KIND_SECTOR: "sector"}


def _pb(p: int) -> int:
    return L.S_PLAYERS + p * L.P_SIZE


def face_dict(game: "Game", face: int) -> dict[str, Any]:
    """A face (industry card, basic face or sector side) as data read back from the card table."""
    T = game.cards.table
    cols = game.cards.column_names
    icons = []
    for i in range(int(T[L.T_F_NICONS + face])):
        k = face * L.MAX_ICONS + i
        act, arg = int(T[L.T_F_ICON_ACT + k]), int(T[L.T_F_ICON_ARG + k])
        mk, mv = int(T[L.T_F_ICON_MK + k]), int(T[L.T_F_ICON_MV + k])
        column = None
        if act == L.ACT_PRODUCE:
            column = "here" if arg == L.PRODUCE_HERE else cols[arg]
        mult: int | str = mv if mk == L.MULT_SIMPLE else _MULT_NAME.get(mk, "?")
        icons.append({"action": _ACT_NAME.get(act, "?"), "column": column, "mult": mult,
                      "text": game.cards.icon_text(face, i)})
    arrows = [name for name, bit in CS.ARROW_BIT.items() if T[L.T_F_ARROWS + face] & bit]
    kind = int(T[L.T_F_KIND + face])
    return {"face": int(face), "name": game.cards.face_names[face], "kind": _KIND_NAME.get(kind, "?"),
            "cost": int(T[L.T_F_COST + face]) if kind != L.KIND_SECTOR else None,
            "icons": icons, "arrows": arrows, "text": game.cards.describe_face(face)}


def _rewards(game: "Game", kind_off: int, val_off: int, arg_off: int, first: int, n: int) -> list[dict]:
    T = game.cards.table
    out = []
    for k in range(first, first + n):
        kind, val, arg = int(T[kind_off + k]), int(T[val_off + k]), int(T[arg_off + k])
        out.append({"kind": _REWARD_NAME.get(kind, "?"), "value": val,
                    "column": game.cards.column_names[arg] if kind == L.RW_PRODUCE else None,
                    "text": game.cards.reward_text(kind_off, val_off, arg_off, k)})
    return out


def _demand(game: "Game", level: int) -> dict[str, Any]:
    S, T = game.state, game.cards.table
    d = int(S[L.S_DEMAND + level])
    req = []
    for j in range(L.MAX_REQ):
        col = int(T[L.T_D_REQ_COL + d * L.MAX_REQ + j])
        if col >= 0:
            req.append({"column": col, "name": game.cards.column_names[col],
                        "count": int(T[L.T_D_REQ_N + d * L.MAX_REQ + j])})
    nb, npri = int(T[L.T_D_NREW + 2 * d]), int(T[L.T_D_NREW + 2 * d + 1])
    rew = _rewards(game, L.T_D_REW_KIND, L.T_D_REW_VAL, L.T_D_REW_ARG, d * L.MAX_REWARDS, nb + npri)
    bonus = bool(game.is_solo and (int(S[L.S_SOLO_BONUS]) >> level) & 1)
    return {"level": level, "level_name": LEVEL_NAMES[level], "card": d, "name": game.cards.demand_names[d],
            "requirements": req, "basic": rew[:nb], "priority": rew[nb:],
            "fulfilled_by": [p for p in range(game.n_players) if S[_pb(p) + L.P_FULFILLED + level]],
            "solo_bonus": bonus, "text": game.cards.describe_demand(d)}


def _research(game: "Game") -> dict[str, Any]:
    T = game.cards.table
    spaces = [{"space": k, "group": int(T[L.T_BT_GROUP + k]),
               "rewards": _rewards(game, L.T_BT_REW_KIND, L.T_BT_REW_VAL, L.T_BT_REW_ARG,
                                   k * L.MAX_BT_REWARDS, int(T[L.T_BT_NREW + k])),
               "covered_by": [p for p in range(game.n_players) if game.state[_pb(p) + L.P_BT + k]]}
              for k in range(L.N_BT_SPACES)]
    groups = [{"group": g, "rewards": _rewards(game, L.T_G_REW_KIND, L.T_G_REW_VAL, L.T_G_REW_ARG,
                                               g * L.MAX_BT_REWARDS, int(T[L.T_G_NREW + g]))}
              for g in range(L.N_BT_GROUPS)]
    return {"track": L.RESEARCH_TRACK, "spaces": spaces, "groups": groups}


def _player(game: "Game", p: int, seat: int) -> dict[str, Any]:
    S = game.state
    pb = _pb(p)
    sectors = []
    for s in range(L.N_SECTORS):
        side = int(S[pb + L.P_SEC_SIDE + s])
        cards = []
        for k in range(int(S[pb + L.P_SEC_N + s])):
            f = int(S[pb + L.P_SEC_CARD + s * L.MAX_SLOTS + k])
            cards.append({"slot": k, "charged": bool(S[pb + L.P_CARD_CHARGED + s * L.MAX_SLOTS + k]),
                          **face_dict(game, f)})
        sectors.append({"sector": s, "name": game.cards.sector_names[s], "column": int(S[pb + L.P_SEC_COL + s]),
                        "side": "AB"[side], "charged": bool(S[pb + L.P_SEC_CHARGED + s]),
                        "tile": face_dict(game, L.FACE_SECTOR + 2 * s + side), "cards": cards,
                        "solo_token": ({0: None, L.TOKEN_INNOVATION: "innovation",
                                        L.TOKEN_COLLABORATION: "collaboration"}[int(S[pb + L.P_SOLO_TOKEN + s])]
                                       if game.is_solo else None)})
    n_hand = int(S[pb + L.P_HAND_N])
    own = p == seat
    chosen = int(S[pb + L.P_CHOSEN])
    plan = int(S[pb + L.P_PLAN])
    return {
        "seat": p, "score": int(S[pb + L.P_SCORE]), "research": int(S[pb + L.P_RESEARCH]),
        "clean_tokens": int(S[pb + L.P_CLEAN]), "fulfilled": int(S[pb + L.P_NFULFILLED]),
        "depot": [int(x) for x in S[pb + L.P_DEPOT:pb + L.P_DEPOT + L.N_COLS]],
        "grid": [int(x) for x in S[pb + L.P_GRID:pb + L.P_GRID + L.N_COLS]],
        "breakthroughs": [k for k in range(L.N_BT_SPACES) if S[pb + L.P_BT + k]],
        "sectors": sectors, "hand_count": n_hand,
        "hand": ([{"hand_slot": h, **face_dict(game, int(S[pb + L.P_HAND + h]))} for h in range(n_hand)]
                 if own else None),
        # the secret pick only to its owner (R4); the revealed pick is public
        "plan": (plan if plan >= 0 else None) if own else None,
        "chosen": chosen if chosen >= 0 else None,
        "boost": {L.BOOST_NONE: None, L.BOOST_INNOVATION: "innovation",
                  L.BOOST_COLLABORATION: "collaboration"}.get(int(S[pb + L.P_BOOST])),
    }


def _solo(game: "Game") -> dict[str, Any] | None:
    if not game.is_solo:
        return None
    S = game.state
    sc = game.scenario
    chal = [{"text": sc.challenges[c][3] if sc else f"challenge {c}", "met": bool(S[L.S_CH_MET + c])}
            for c in range(int(S[L.S_SOLO_NCH]))]
    res = game.solo_result()
    return {"scenario": sc.id if sc else None, "name": sc.name if sc else None,
            "gears": sc.gears if sc else None, "target": res["target"], "stars": game.solo_stars(),
            "star_points": res["star_points"], "final_score": res["final_score"],
            "challenges": chal, "bag": [int(S[L.S_BAG]), int(S[L.S_BAG + 1])]}


def _pending_kind(game: "Game") -> str:
    """The decision kind of the top frame (``"plan"``, ``"pay"``...), ``"game_over"`` at the end."""
    if game.is_terminal:
        return "game_over"
    ft = pending_frame_type(game.state)
    return FRAME_KINDS.get(ft, f"frame {ft}")


def seat_view_dict(game: "Game", seat: int) -> dict[str, Any]:
    """Everything seat ``seat`` may see of ``game`` (``SPECTATOR``: the public table only).

    The pending decision appears as its owner and one line of text (public: it names the
    decision, never a hidden card); the legal options are added by the caller for the seat on
    turn only (:meth:`electrify_env.play.session.PlaySession.view`).  ``seed`` is None until the
    game is over: with the seed and the log a seat could replay the deal and read every hand."""
    S = game.state
    cols = game.cards.column_names
    T = game.cards.table
    over = game.is_terminal
    out: dict[str, Any] = {
        "seat": seat, "n_players": game.n_players, "round": game.round,
        # the seed determines every hand and the deck order: shown once the game is over only
        "seed": game.seed if over else None,
        "rounds": L.N_ROUNDS, "is_over": over, "decisions": len(game.history),
        "to_move": None if over else game.current_player,
        "pending": {"player": None if over else game.current_player, "kind": _pending_kind(game),
                    "text": game.pending()},
        "columns": [{"column": c, "name": cols[c], "depot_value": int(T[L.T_COL_DEPOT + c]),
                     "grid_value": int(T[L.T_COL_GRID + c]), "clean": int(T[L.T_COL_CLEAN + c]),
                     "dirty": int(T[L.T_COL_DIRTY + c])} for c in range(L.N_COLS)],
        "players": [_player(game, p, seat) for p in range(game.n_players)],
        "demand": [_demand(game, lv) for lv in range(L.N_LEVELS)],
        "research": _research(game),
        "decks": [{"deck": d, "name": ("production", "infrastructure")[d], "size": int(S[L.S_DECK_N + d]),
                   "discard_size": int(S[L.S_DISC_N + d]),
                   "discard_top": (face_dict(game, int(S[L.S_DISC + d * L.MAX_DECK + int(S[L.S_DISC_N + d]) - 1]))
                                   if S[L.S_DISC_N + d] > 0 else None)} for d in range(L.N_DECKS)],
        "basic": [{"basic": b, "faces": [face_dict(game, L.FACE_BASIC + 2 * b + f) for f in range(2)]}
                  for b in range(game.cards.n_basic) if S[L.S_BASIC + b]],
        "scores": [int(x) for x in game.scores()],
        "solo": _solo(game),
        "tech_packs": list(game.cards.pack_names),
    }
    if over:
        out["result"] = {"scores": out["scores"], "winners": game.winners()}
        if game.is_solo:
            out["result"]["solo"] = game.solo_result()
    return out
