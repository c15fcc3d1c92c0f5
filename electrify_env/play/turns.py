"""The play table's log in players' words and its end-of-game summary, for any game.

The table records every decision of a game as a *step*; this module groups the steps into turns
(one line per player and round, the steps folded under it) and sums a finished game up (scores,
tie-break, points by source, score by round).  It knows no game: the words of a turn come from
the game's own describe code, handed in as a :class:`TurnWords` (Electrify's:
:data:`electrify_env.play.session.ELECTRIFY_WORDS`, over :mod:`electrify_env.describe`), and the
results from the Game protocol of :mod:`electrify_env.games` (``scores()``, ``winners()``,
``tiebreak_keys()``, ``points_by_source()``).

A step (the :class:`~electrify_env.play.session.LogEvent` of the session) offers:

* ``index`` (decision number), ``seat``, ``turn`` (the round the step belongs to), ``phase``
  (``"plan"`` for a step of a simultaneous step before the round's turns, such as Electrify's
  secret Plan pick, which joins its seat's turn of that round; else ``"turn"``), ``scores``
  (everybody's score after the step);
* ``step(for_seat)``: ``{"index", "kind", "text", "args", "facts", "hidden"}`` as ``for_seat``
  may see it (a hidden step has None for ``args`` and ``facts`` and a text that tells nothing).

:func:`group_turns` gives one entry per (round, seat), in the order the turns were played::

    {"round": 3, "player": 1, "who": "Player 1 (greedy)",
     "text": "Player 1 (greedy) chose Transmission; bought P37 Repowering Plant (5) onto ...",
     "steps": [{"index": 118, "kind": "boost", "text": "take the boost"}, ...], "done": True}

``done`` is False for a turn that may still get steps (the last one of a running game, or a
seat's secret pick while the Plan step is open).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

__all__ = ["TurnWords", "end_summary", "group_turns", "score_by_round"]


@dataclass(frozen=True)
class TurnWords:
    """A game's words for the table: all presentation, no rule.

    Attributes:
        before: ``before(game, action) -> dict``: the public facts of a decision about to be
            applied by the seat on turn; must hold ``turn`` (its round) and ``phase``.
        after: ``after(game, seat, facts) -> dict``: the facts completed once it is applied.
        turn_text: ``turn_text(steps) -> str``: a turn's line without its subject, from the steps
            a reader may see (:meth:`step` dicts), sub-decisions only through what they added up to.
        point_sources: ``points_by_source()`` keys -> words, in the order shown.
        tiebreak_names: the words of each column of ``tiebreak_keys()``.
    """

    before: Callable[[Any, int], dict]
    after: Callable[[Any, int, dict], dict]
    turn_text: Callable[[list[dict]], str]
    point_sources: Mapping[str, str] = field(default_factory=dict)
    tiebreak_names: Sequence[str] = ()


def _sentence(who: str, text: str) -> str:
    return (who[:1].upper() + who[1:]) + " " + text


def group_turns(steps: Sequence[Any], words: TurnWords, who: Callable[[int], str],
                for_seat: int | None = None, over: bool = False) -> list[dict[str, Any]]:
    """The turns of ``steps`` (oldest first) as ``for_seat`` may see them (None: everything),
    one entry per (round, seat) as the module docstring shows.  ``who(seat)`` names the subject
    of a line (``"You"``, ``"player 1 (greedy)"``); ``over``: the game has ended (every turn is
    done)."""
    groups: dict[tuple[int, int], list[Any]] = {}
    for st in steps:
        groups.setdefault((st.turn, st.seat), []).append(st)
    inf = float("inf")

    def order(key):
        evs = groups[key]
        first_turn = next((e.index for e in evs if e.phase != "plan"), inf)
        return (key[0], first_turn, evs[0].index)

    keys = sorted(groups, key=order)
    # a turn is done once a later round has begun, or another seat's turn of its round has
    # begun after it (a secret pick waits for its own seat's turn)
    done = [over] * len(keys)
    later_round, later_turn = -inf, {}
    for i in range(len(keys) - 1, -1, -1):
        rnd, seat = keys[i]
        has_turn = any(e.phase != "plan" for e in groups[keys[i]])
        done[i] = over or later_round > rnd or (has_turn and later_turn.get(rnd, False))
        later_round = max(later_round, rnd)
        later_turn[rnd] = later_turn.get(rnd, False) or has_turn
    out = []
    for i, key in enumerate(keys):
        seen = [e.step(for_seat) for e in groups[key]]
        name = who(key[1])
        out.append({"round": key[0], "player": key[1], "who": name[:1].upper() + name[1:],
                    "text": _sentence(name, words.turn_text(seen)),
                    "steps": [{"index": s["index"], "kind": s["kind"], "text": s["text"]} for s in seen],
                    "done": bool(done[i])})
    return out


def score_by_round(steps: Sequence[Any], start: Sequence[int], rounds: int) -> list[list[int]]:
    """Everybody's score at the end of each round 0..``rounds`` (0: ``start``, before the first
    step), read from the steps' ``scores``; a round not reached yet repeats the last known one."""
    out = [list(start)]
    k = 0
    last = list(start)
    for r in range(1, rounds + 1):
        while k < len(steps) and steps[k].turn <= r:
            last = list(steps[k].scores)
            k += 1
        out.append(list(last))
    return out


def _tiebreak(keys: list[list[int]], winners: list[int], names: Sequence[str],
              who: Callable[[int], str]) -> dict[str, Any] | None:
    """How the tie-break keys decided among the players tied on the first key (None: no tie)."""
    n = len(keys)
    top = max(k[0] for k in keys)
    tied = [p for p in range(n) if keys[p][0] == top]
    if len(tied) < 2:
        return None
    rest, used = tied, []
    for j in range(1, len(keys[0])):
        best = max(keys[p][j] for p in rest)
        kept = [p for p in rest if keys[p][j] == best]
        if len(kept) < len(rest):
            used.append({"key": names[j] if j < len(names) else f"key {j}",
                         "values": {str(p): keys[p][j] for p in rest}, "kept": kept})
            rest = kept
        if len(rest) == 1:
            break
    first = (names[0] if names else "points")
    tied_text = " and ".join(who(p) for p in tied) + f" tied on {top} {first}"
    if not used:
        text = tied_text + " and on every tie-break key: they share the win"
    else:
        bits = [f"{u['key']} " + " to ".join(str(v) for v in u["values"].values()) for u in used]
        text = tied_text + "; " + " and ".join(who(p) for p in winners) + " won on " + ", then ".join(bits)
    return {"tied": tied, "winners": list(winners), "decided": bool(used), "steps": used, "text": text}


def end_summary(game: Any, steps: Sequence[Any], words: TurnWords, who: Callable[[int], str],
                start_scores: Sequence[int], rounds: int) -> dict[str, Any]:
    """What the end-of-game screen shows of the finished ``game``: ``scores``, ``winners``,
    ``ranking`` (``{player, who, score, place}``, best first; equal tie-break keys share a
    place), ``tiebreak`` (:func:`_tiebreak`'s dict when the top score is shared, else None),
    ``points_by_source`` (``sources``: ``[{key, label}]``, ``players``: one dict per seat, the
    engine's ``points_by_source()``), ``score_by_round`` (:func:`score_by_round`, one row per
    round 0..``rounds``), ``seed`` (the game is over: a replay needs it; ``seed_text``, the same
    as text, stays exact in JavaScript, whose numbers hold 53 bits) and ``decisions``."""
    scores = [int(x) for x in game.scores()]
    winners = [int(p) for p in game.winners()]
    keys = [[int(x) for x in row] for row in game.tiebreak_keys()]
    n = len(scores)
    order = sorted(range(n), key=lambda p: keys[p], reverse=True)
    ranking, place = [], 0
    for i, p in enumerate(order):
        if i == 0 or keys[p] != keys[order[i - 1]]:
            place = i + 1
        ranking.append({"player": p, "who": who(p), "score": scores[p], "place": place})
    by_source = [dict(row) for row in game.points_by_source()]
    present = [k for k in words.point_sources if any(k in row for row in by_source)]
    present += sorted({k for row in by_source for k in row} - set(present))
    return {"scores": scores, "winners": winners, "ranking": ranking,
            "tiebreak": None if n < 2 else _tiebreak(keys, winners, words.tiebreak_names, who),
            "points_by_source": {"sources": [{"key": k, "label": words.point_sources.get(k, k)} for k in present],
                                 "players": by_source},
            "score_by_round": score_by_round(steps, start_scores, rounds),
            "seed": int(game.seed), "seed_text": str(int(game.seed)), "decisions": len(game.history)}
