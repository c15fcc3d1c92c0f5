"""Scripted style agents for strategy match-ups: ``research_rush`` and ``demand_rush``.

Each style is the greedy agent (:mod:`electrify_env.agents.greedy`: one-ply lookahead with the jitted evaluation
of :mod:`electrify_env.kernels.search`) with two changes:

* **tilted weights**: the greedy weights (``configs/agents/greedy.yaml``, or ``weights=PATH``)
  with some weights multiplied (:attr:`StyleAgent.tilt`), so the evaluation itself prefers the
  style's line where the rules leave a choice (which card to buy and where, which icon to use);
* **hard rules**: a bonus or malus (:data:`RULE`, far larger than any evaluation difference) on
  the actions that define the style, so the style is played whatever the evaluation says.  A
  malus never removes a legal action: where only disfavoured actions are legal (forced), the
  agent still takes the best of them.

=================  ==============================================================================
style              rules
=================  ==============================================================================
research_rush      plans Research & Development every round; always takes the collaboration boost;
                   uses every research icon use; covers a breakthrough space whenever one is due;
                   research weights x3, demand weights halved
demand_rush        fulfils a demand card whenever it can; never plans Research & Development;
                   forgoes the collaboration boost; never uses a research icon, never donates grid
                   cubes and never discards an infrastructure card for research (all unless
                   forced); demand, produce, develop and transmit weights raised, research
                   weights 0
=================  ==============================================================================

Measured (2 players against greedy, 400 games, seats swapped on every deal, per game of the style
agent; :func:`style_report`, ``python -m electrify_env.agents.styles --games 400 --seed 3``), on the base set of
2026-12-01:

=============  =============  =======  =====  ==========================
style          breakthroughs  demands  score  win share vs greedy
=============  =============  =======  =====  ==========================
research_rush  12.0           0.01     20.9   5.1% [3.4, 7.7]
demand_rush    0              2.08     7.2    0.3% [0.0, 1.4]
=============  =============  =======  =====  ==========================

(The greedy itself researches about 12 breakthroughs a game and fulfils 1.6 demands on that set.)
"""
from __future__ import annotations

import dataclasses
import functools

import numpy as np

from electrify_env.decision import frame_values
from electrify_env.engine import layout as L

from .base import SeatView
from .greedy import GreedyAgent, load_weights

RULE = 1000.0
"""Size of a hard rule's bonus or malus, in energy-point equivalents (the evaluation's values
differ by far less between two actions of one decision)."""

RESEARCH_SECTOR = 2
"""Index of the Research & Development sector (R2 order)."""


@functools.lru_cache(maxsize=32)
def _tilted_array(path: str, tilt: tuple[tuple[str, float], ...]) -> np.ndarray:
    """The greedy weights of ``path`` (default file for '') with each named weight multiplied."""
    base = load_weights(path or None)
    changed = {k: getattr(base, k) * f for k, f in tilt}
    return dataclasses.replace(base, **changed).to_array()


def pending_frame(view: SeatView) -> tuple[int, int]:
    """(frame type, first frame argument) of the decision pending in ``view`` (FT_NONE if none)."""
    fr = frame_values(view.infoset)
    return fr[L.FR_TYPE], fr[L.FR_A]


def hand_card_deck(view: SeatView, slot: int) -> int:
    """Deck of the card in the seat's hand slot ``slot`` (0 production, 1 infrastructure)."""
    pb = L.S_PLAYERS + view.seat * L.P_SIZE
    card = int(view.infoset[pb + L.P_HAND + slot])
    return int(view.table[L.T_IND_DECK + card])


class StyleAgent(GreedyAgent):
    """Greedy with tilted weights and hard style rules (subclasses set :attr:`tilt` and
    :meth:`bias`).

    Args:
        weights: the greedy weights file to tilt (default ``configs/agents/greedy.yaml``).
    """

    name = "style"
    #: (weight name, factor) pairs applied to the greedy weights
    tilt: tuple[tuple[str, float], ...] = ()

    def __init__(self, weights: str | None = None) -> None:
        super().__init__(weights)
        self.W = _tilted_array(self.weights_path, self.tilt)

    def bias(self, view: SeatView, a: int, frame: int, arg: int) -> float:
        """The style's bonus (> 0) or malus (< 0) for legal action ``a`` at a decision of frame
        type ``frame`` (``arg``: the frame's first argument)."""
        return 0.0

    def act(self, view: SeatView) -> int:
        """The legal action of highest one-ply value plus style bias (lowest id on ties)."""
        legal = np.flatnonzero(view.mask)
        if legal.size == 1:
            return int(legal[0])
        vals = self.values(view)
        frame, arg = pending_frame(view)
        best, bv = int(legal[0]), -np.inf
        for a in legal:
            v = vals[a]
            if not np.isfinite(v):   # an any-time action the greedy does not weigh here
                continue
            v += self.bias(view, int(a), frame, arg)
            if v > bv:
                best, bv = int(a), v
        return best


class ResearchRushAgent(StyleAgent):
    """Research rush: charges Research & Development every round and takes every research step
    and breakthrough it can (see the module table)."""

    name = "research_rush"
    tilt = (("research_step", 3.0), ("u_research", 3.0), ("bt_pick", 2.0), ("demand", 0.5),
            ("demand_second", 0.5))

    def bias(self, view: SeatView, a: int, frame: int, arg: int) -> float:
        """Plan R&D, take the collaboration boost, use research icons, cover breakthroughs."""
        if frame == L.FT_PLAN:
            return RULE if a == L.A_PLAN + RESEARCH_SECTOR else 0.0
        if frame == L.FT_BOOST and arg == L.BOOST_COLLABORATION:
            return RULE if a == L.A_BOOST else 0.0
        if a == L.A_RESEARCH:
            return RULE
        if frame == L.FT_BT_PICK:
            return RULE if L.A_BT <= a < L.A_FULFILL else 0.0
        return 0.0


class DemandRushAgent(StyleAgent):
    """Demand rush: builds production and transmission to fulfil demand cards and never
    researches unless forced (see the module table)."""

    name = "demand_rush"
    tilt = (("research_step", 0.0), ("u_research", 0.0), ("bt_pick", 0.5), ("demand", 2.0),
            ("demand_second", 1.5), ("u_produce", 2.0), ("u_develop", 1.3), ("u_transmit", 1.3),
            ("grid_col", 1.5))

    def bias(self, view: SeatView, a: int, frame: int, arg: int) -> float:
        """Never plan R&D, forgo collaboration, never research, donate or discard for research;
        fulfil a demand card whenever one can be fulfilled."""
        if frame == L.FT_FULFILL and L.A_FULFILL <= a < L.A_REWARD:
            return RULE
        if frame == L.FT_PLAN:
            return -RULE if a == L.A_PLAN + RESEARCH_SECTOR else 0.0
        if frame == L.FT_BOOST and arg == L.BOOST_COLLABORATION:
            return -RULE if a == L.A_BOOST else 0.0
        if a == L.A_RESEARCH or L.A_DONATE <= a < L.A_DISCARD_MULT:
            return -RULE
        if L.A_DISCARD <= a < L.A_DONATE and hand_card_deck(view, a - L.A_DISCARD) == 1:
            return -RULE
        return 0.0


def style_report(style: str, games: int = 40, seed: int = 0, card_set=None) -> dict:
    """Play ``games`` 2-player games of ``style`` against greedy (seats alternating) and return
    per-game means for the style agent: breakthroughs, demands, score, win share."""
    from electrify_env import Game

    from .registry import make_agent

    agents = {"style": _build(style), "greedy": make_agent("greedy")}
    bt = dem = score = wins = 0.0
    for i in range(games):
        seats = ("style", "greedy") if i % 2 == 0 else ("greedy", "style")
        me = seats.index("style")
        for j, k in enumerate(seats):
            agents[k].reset(seed * 1_000 + 2 * i + j)
        g = Game(n_players=2, seed=seed * 100_000 + i // 2, card_set=card_set)
        while not g.is_terminal:
            p = g.current_player
            a = agents[seats[p]].act_in(g)
            if p == me and L.A_BT <= a < L.A_FULFILL:
                bt += 1
            if p == me and L.A_FULFILL <= a < L.A_REWARD:
                dem += 1
            g.step(a)
        score += g.scores()[me]
        w = g.winners()
        wins += (1.0 / len(w)) if me in w else 0.0
    return {"style": style, "games": games, "breakthroughs": bt / games, "demands": dem / games,
            "score": score / games, "win_share": wins / games}


_STYLES = {"research_rush": ResearchRushAgent, "demand_rush": DemandRushAgent}


def _build(style: str) -> StyleAgent:
    try:
        return _STYLES[style]()
    except KeyError:
        from .base import AgentError
        raise AgentError(f"unknown style {style!r}; styles: {', '.join(_STYLES)}") from None


def main(argv=None) -> int:
    """``python -m electrify_env.agents.styles [--games N] [--seed S]``: print each style's measured style."""
    import argparse

    ap = argparse.ArgumentParser(description="measure the style agents against greedy (2 players)")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cards", default=None, help="card-set YAML (default: the base set)")
    args = ap.parse_args(argv)
    for style in _STYLES:
        r = style_report(style, args.games, args.seed, args.cards)
        print(f"{style}: {r['breakthroughs']:.2f} breakthroughs, {r['demands']:.2f} demands, "
              f"score {r['score']:.1f}, win share vs greedy {r['win_share']:.2f} ({args.games} games)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
