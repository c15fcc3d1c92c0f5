"""The Gizmos bots (electrify_env.gizmos.bots) and their place in the agent registry: greedy beats
random clearly, is reproducible from its seed, reads only its seat's view and takes the sensible
sub-decisions (it confirms a payment when it can, uses offered machines)."""
from __future__ import annotations

import numpy as np
import pytest

from electrify_env.agents import AgentError, describe_agents, make_agent
from electrify_env.agents.registry import agents_of
from electrify_env.games import get_game
from electrify_env.gizmos.bots import GreedyBot, agent_kinds
from electrify_env.gizmos.engine import gz_layout as L


def play(lineup, seed, watch=None):
    """One Gizmos game between the agent specs of ``lineup``; ``watch(game, seat, action)`` sees
    every decision.  Returns the finished game."""
    game = get_game("gizmos").new_game(n_players=len(lineup), seed=seed)
    agents = [make_agent(spec, game="gizmos") for spec in lineup]
    for i, agent in enumerate(agents):
        agent.reset(seed * 10 + i)
    while not game.is_terminal:
        p = game.current_player
        a = agents[p].act_in(game)
        if watch is not None:
            watch(game, p, a)
        game.step(a)
    return game


def test_the_gizmos_registry_holds_random_its_own_greedy_the_search_and_the_policy():
    assert list(agents_of("gizmos")) == ["random", "greedy", "gumbel", "policy"]
    assert set(agent_kinds()) == {"greedy"}
    assert isinstance(make_agent("greedy", game="gizmos"), GreedyBot)
    assert not isinstance(make_agent("greedy"), GreedyBot)          # Electrify's greedy
    text = describe_agents("gizmos")
    assert text.startswith("random: ") and "\ngreedy: one-ply heuristic" in text and "mcts" not in text
    with pytest.raises(AgentError, match=r"unknown agent 'mcts' of Gizmos \('mcts' plays electrify\); "
                                         r"known agents of Gizmos: random, greedy, gumbel, policy"):
        make_agent("mcts", game="gizmos")
    with pytest.raises(AgentError, match="greedy' has no parameter 'weights'"):
        make_agent("greedy:weights=x.yaml", game="gizmos")
    with pytest.raises(AgentError, match="unknown game 'chess'"):
        make_agent("random", game="chess")


def test_greedy_beats_random_in_seat_rotated_games():
    won = 0
    for i in range(12):
        lineup = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        game = play(lineup, seed=40 + i)
        won += game.winners() == [lineup.index("greedy")]
    assert won >= 11, f"greedy won {won} of 12 games against random"


def test_greedy_plays_three_and_four_seats_and_ends_by_g20():
    for n in (3, 4):
        game = play(["greedy"] * n, seed=n)
        assert game.is_terminal and not game.truncated
        built = [int(game.state[L.S_PLAYERS + p * L.P_SIZE + L.P_BUILT_N]) for p in range(n)]
        l3 = [int(game.state[L.S_PLAYERS + p * L.P_SIZE + L.P_N_L3]) for p in range(n)]
        assert max(built) >= 16 or max(l3) >= 4


def test_greedy_is_reproducible_from_its_seed():
    a = play(["greedy", "greedy"], seed=9).history
    assert play(["greedy", "greedy"], seed=9).history == a
    game = get_game("gizmos").new_game(n_players=2, seed=9)
    bot = GreedyBot()
    bot.reset(123)
    first = [bot.act(game.seat_view()) for _ in range(3)]
    bot.reset(123)
    assert [bot.act(game.seat_view()) for _ in range(3)] == first


def test_greedy_reads_only_the_seats_view():
    """It needs the information set and nothing else: a view without the observation plays, the
    same information set gives the same choice whatever the hidden cards are, and a view of
    another game is refused."""
    game = get_game("gizmos").new_game(n_players=2, seed=4)
    for _ in range(6):
        game.step(int(game.legal_actions()[-1]))
    other = game.copy()
    deck = slice(L.S_DECK, L.S_DECK + int(other.state[L.S_DECK_N]))
    other.state[deck] = other.state[deck][::-1].copy()          # another order of the hidden deck I
    other.state[L.S_RNG:L.S_RNG + 4] += 7
    bot = GreedyBot()
    assert bot.needs_infoset and not bot.needs_observation
    views = [g.seat_view(observation=False) for g in (game, other)]
    assert np.array_equal(views[0].infoset, views[1].infoset)
    bot.reset(1)
    a = bot.act(views[0])
    bot.reset(1)
    assert bot.act(views[1]) == a
    view = views[0]
    with pytest.raises(AgentError, match="needs the information-set view"):
        bot.act(type(view)(**{**view.__dict__, "infoset": None}))
    with pytest.raises(AgentError, match="not a Gizmos information set"):
        bot.act(type(view)(**{**view.__dict__, "infoset": np.zeros(10, dtype=np.int64)}))


def test_greedy_confirms_payments_uses_machines_and_values_research_without_the_drawn_cards():
    seen = {"confirm": 0, "use": 0}

    def watch(game, seat, a):
        if seat != 0:
            return
        mask = game.legal_mask()
        phase = game.phase
        if phase == "pay" and mask[L.A_CONFIRM]:
            assert a == L.A_CONFIRM
            seen["confirm"] += 1
        if phase == "chain" and mask[L.A_USE:L.A_USE + L.MAX_BUILT].any():
            assert a != L.A_PASS
            seen["use"] += 1
        if phase == "main" and mask[L.A_RESEARCH:L.A_RESEARCH + L.N_DECKS].any():
            bot = GreedyBot()
            vals = bot.values(game.seat_view(observation=False))
            hidden = game.copy()
            deck = slice(L.S_DECK, L.S_DECK + int(hidden.state[L.S_DECK_N]))
            hidden.state[deck] = hidden.state[deck][::-1].copy()
            again = GreedyBot().values(hidden.seat_view(observation=False))
            r = slice(L.A_RESEARCH, L.A_RESEARCH + L.N_DECKS)
            assert np.array_equal(vals[r], again[r])

    for seed in range(3):
        play(["greedy", "random"], seed=seed, watch=watch)
    assert seen["confirm"] > 10 and seen["use"] > 10


def test_the_resolver_passes_the_game_and_keeps_spec_only_resolvers_for_electrify(monkeypatch):
    import electrify_env.resolver as resolver
    from electrify_env.agent import resolve_agent as reexported

    assert reexported is resolver.resolve_agent
    monkeypatch.setattr(resolver, "_resolver", None)
    assert isinstance(resolver.resolve_agent("greedy", game="gizmos"), GreedyBot)   # the entry point
    asked = []

    def with_game(spec, game="electrify"):
        asked.append((spec, game))
        return make_agent(spec, game=game)

    resolver.set_agent_resolver(with_game)
    assert isinstance(resolver.resolve_agent("greedy", "opponents[1]", game="gizmos"), GreedyBot)
    resolver.resolve_agent("random")
    assert asked == [("greedy", "gizmos"), ("random", "electrify")]
    resolver.set_agent_resolver(lambda spec: make_agent(spec))
    assert not isinstance(resolver.resolve_agent("greedy"), GreedyBot)
    with pytest.raises(AgentError, match=r"^opponents: the agent resolver '<lambda>' takes no game "
                                         r"keyword, so it cannot build agents of 'gizmos'$"):
        resolver.resolve_agent("greedy", game="gizmos")
    resolver.set_agent_resolver(None)
