"""The scripted style agents (agents/styles.py): legal play, the hard style rules, the tilted
weights, and that each plays its style (breakthroughs and demands per game)."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.agents import AgentError, make_agent, seat_view
from electrify_env.agents.greedy import load_weights
from electrify_env.agents.styles import (
    RESEARCH_SECTOR, DemandRushAgent, ResearchRushAgent, StyleAgent, _build, pending_frame,
    style_report,
)
from electrify_env import Game
from electrify_env.engine import layout as L
from electrify_env.kernels import search as SR


def play_logged(game: Game, agents: list) -> list[tuple[int, int, int]]:
    """Play to the end (``game.step`` refuses an illegal action); return (seat, frame, action)
    for every decision."""
    log = []
    for _ in range(20_000):
        if game.is_terminal:
            return log
        p = game.current_player
        view = seat_view(game)
        frame, _ = pending_frame(view)
        a = agents[p].act(view)
        log.append((p, frame, a))
        game.step(a)
    raise AssertionError("game did not end")


def test_pending_frame_reads_the_plan_step_at_the_start():
    game = Game(n_players=2, seed=1)
    assert pending_frame(seat_view(game)) == (L.FT_PLAN, 0)


def test_tilted_weights_multiply_the_greedy_weights():
    base = load_weights().to_array()
    for cls in (ResearchRushAgent, DemandRushAgent):
        w = cls().W
        for name, factor in cls.tilt:
            i = SR.WEIGHT_NAMES.index(name)
            assert w[i] == pytest.approx(base[i] * factor)
        untouched = [SR.WEIGHT_NAMES.index(n) for n in SR.WEIGHT_NAMES
                     if n not in dict(cls.tilt)]
        assert np.array_equal(w[untouched], base[untouched])


def test_research_rush_plans_rd_and_takes_every_breakthrough():
    """Two 2-player games against greedy: every plan of the research rush is R&D, it never
    passes a breakthrough pick or a collaboration boost, and never skips a research use."""
    for seed, seat in ((3, 0), (4, 1)):
        game = Game(n_players=2, seed=seed)
        agents = [make_agent("greedy"), make_agent("greedy")]
        agents[seat] = ResearchRushAgent()
        for j, a in enumerate(agents):
            a.reset(seed * 10 + j)
        log = play_logged(game, agents)
        mine = [(f, a) for p, f, a in log if p == seat]
        plans = [a for f, a in mine if f == L.FT_PLAN]
        assert len(plans) == L.N_ROUNDS and set(plans) == {L.A_PLAN + RESEARCH_SECTOR}
        assert all(a != L.A_PASS for f, a in mine if f == L.FT_BT_PICK)
        assert sum(1 for f, a in mine if f == L.FT_BT_PICK) >= 5


def test_demand_rush_never_researches_and_fulfils_demands():
    """Two 2-player games against greedy: the demand rush never plans R&D, never uses a research
    icon, never donates a grid cube, never takes a breakthrough, and fulfils demand cards."""
    fulfilled = 0
    for seed, seat in ((1, 1), (8, 0)):
        game = Game(n_players=2, seed=seed)
        agents = [make_agent("greedy"), make_agent("greedy")]
        agents[seat] = DemandRushAgent()
        for j, a in enumerate(agents):
            a.reset(seed * 10 + j)
        log = play_logged(game, agents)
        mine = [a for p, f, a in log if p == seat]
        assert L.A_PLAN + RESEARCH_SECTOR not in mine
        assert L.A_RESEARCH not in mine
        assert not any(L.A_DONATE <= a < L.A_DISCARD_MULT for a in mine)
        assert not any(L.A_BT <= a < L.A_FULFILL for a in mine)
        fulfilled += sum(1 for a in mine if L.A_FULFILL <= a < L.A_REWARD)
    assert fulfilled >= 2


def test_style_rule_gives_way_when_only_disfavoured_actions_are_legal():
    """A malus never removes a legal action: with R&D the only legal plan, the demand rush
    takes it."""
    game = Game(n_players=2, seed=2)
    view = seat_view(game)
    mask = np.zeros_like(view.mask)
    mask[L.A_PLAN + RESEARCH_SECTOR] = 1
    mask[L.A_PLAN + 0] = 1
    only_rd = type(view)(**{**view.__dict__, "mask": mask})
    agent = DemandRushAgent()
    assert agent.act(only_rd) == L.A_PLAN + 0
    mask[L.A_PLAN + 0] = 0
    forced = type(view)(**{**view.__dict__, "mask": mask})
    assert agent.act(forced) == L.A_PLAN + RESEARCH_SECTOR


def test_style_report_measures_the_styles():
    """The report's figures show the styles: the research rush breaks through, the demand rush
    does not."""
    rr = style_report("research_rush", games=2, seed=1)
    dr = style_report("demand_rush", games=2, seed=1)
    assert rr["breakthroughs"] >= 5 and dr["breakthroughs"] == 0
    assert rr["games"] == dr["games"] == 2 and 0 <= rr["win_share"] <= 1


def test_unknown_style_is_refused():
    with pytest.raises(AgentError, match="unknown style 'chaos'; styles: research_rush, demand_rush"):
        _build("chaos")


def test_style_agent_base_has_no_bias():
    class Plain(StyleAgent):
        name = "plain"

    game = Game(n_players=2, seed=4)
    greedy, plain = make_agent("greedy"), Plain()
    greedy.reset(7)
    plain.reset(7)
    assert plain.act_in(game) == greedy.act_in(game)
