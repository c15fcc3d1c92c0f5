"""Regenerate the golden replay files (run only when a rule change is intended):

    python tests/golden/make_golden.py           # replay every case and rewrite its files
    python tests/golden/make_golden.py --text    # keep the actions, rewrite the playthroughs

Each case is one game: seeded random play (phase actions preferred) or a game between the
project's agents (greedy, mcts), in 2-4 player, solo and tech-pack set-ups.  Per case two files:

- ``replay_<name>.json``: the set-up (players, seed, scenario, tech packs, agents), the action
  list, and the expected outcome (sha256 of the final state, scores, winners, card-set hash) with
  counts of the rules the game exercised (``features``: priority rewards, charge chains, flips,
  clean tokens, ...);
- ``replay_<name>.txt``: an OpenSpiel-style playthrough, one line per decision (step, scores,
  the pending decision with its round and player, and the action taken, as ``Game.pending()``
  and ``Game.describe_action()`` word them), so a failing replay shows the first step that
  differs.

The tests only replay the recorded actions; the agents run only here, seeded, the mcts agent on
an iteration budget (``iters=``, never a time budget), so regenerating reproduces the same games
as long as the agents play as they did."""
from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from electrify_env import Game
from electrify_env.engine import layout as L

HERE = Path(__file__).resolve().parent
MCTS = "mcts:iters=36:top_k=3:horizon=2"


@dataclass(frozen=True)
class Case:
    """One golden game: ``agents`` None plays the seeded random player of :func:`play`."""

    name: str
    n_players: int
    seed: int
    agents: tuple[str, ...] | None = None
    scenario: str | None = None
    tech_packs: tuple[str, ...] = ()


CASES = [
    Case("2p_seed101", 2, 101),
    Case("3p_seed202", 3, 202),
    Case("4p_seed303", 4, 303),
    Case("mcts_greedy_2p_seed123", 2, 123, (MCTS, "greedy")),
    Case("mcts_greedy_4p_seed141", 4, 141, ("greedy", MCTS, "greedy", "greedy")),
    Case("greedy_solo_net_zero_seed153", 1, 153, ("greedy",), scenario="net_zero"),
    Case("mcts_solo_peak_load_seed161", 1, 161, (MCTS,), scenario="peak_load"),
    Case("greedy_tech_3p_seed243", 3, 243, ("greedy",) * 3, tech_packs=("grid", "market")),
    Case("greedy_mcts_tech_2p_seed124", 2, 124, ("greedy", MCTS), tech_packs=("grid", "market")),
]

# rules every agent game exercises (the random games score 0-3 points and reach few of them)
AGENT_FEATURES = ("priority_rewards", "arrow_charges", "flips", "clean_tokens", "breakthroughs",
                  "fulfilled")


def state_digest(game: Game) -> str:
    """sha256 of the state array's bytes."""
    return hashlib.sha256(game.state.astype("<i8").tobytes()).hexdigest()


def play(n: int, seed: int) -> Game:
    """A seeded random game whose action choices come from numpy's PCG64 (independent of the
    engine's own generator)."""
    g = Game(n_players=n, seed=seed)
    rng = np.random.default_rng(seed)
    while not g.is_terminal:
        legal = g.legal_actions()
        # prefer phase actions 3 times in 4 so games reach deeper positions than pure random
        phase = legal[legal < L.A_DISCARD] if rng.random() < 0.75 else legal
        g.step(int(rng.choice(phase if len(phase) else legal)))
    return g


def new_game(data: dict) -> Game:
    """The starting position of a golden file (or of :func:`setup` of a case)."""
    return Game(n_players=data["n_players"], seed=data["seed"], scenario=data.get("scenario"),
                tech_packs=tuple(data.get("tech_packs") or ()))


def setup(case: Case) -> dict:
    """The set-up part of a case's golden file."""
    return {"n_players": case.n_players, "seed": case.seed, "scenario": case.scenario,
            "tech_packs": list(case.tech_packs), "agents": list(case.agents) if case.agents else None}


def play_case(case: Case) -> Game:
    """Play a case's game: seeded random play, or its agents (seat k seeded with seed + k)."""
    if case.agents is None:
        return play(case.n_players, case.seed)
    from electrify_env.agents import make_agent  # the agents package is only needed to regenerate

    g = new_game(setup(case))
    seats = [make_agent(spec) for spec in case.agents]
    for k, agent in enumerate(seats):
        agent.reset(case.seed + k)
    while not g.is_terminal:
        g.step(seats[g.current_player].act_in(g))
    return g


def _top(S: np.ndarray) -> int:
    return L.S_STACK + (int(S[L.S_SP]) - 1) * L.FRAME


def _player(S: np.ndarray, p: int, off: int, n: int = 1) -> np.ndarray:
    b = L.S_PLAYERS + p * L.P_SIZE + off
    return S[b:b + n]


def trace(data: dict) -> tuple[Game, list[str], dict]:
    """Replay a golden file's actions from its starting position.  Returns the final game, the
    playthrough lines and the counts of exercised rules (see the module docstring)."""
    g = new_game(data)
    S, T = g.state, g.cards.table
    lines = [f"# {json.dumps(setup_of(data))}"]
    counts = dict.fromkeys(("priority_rewards", "arrow_charges", "chains", "ongoing_follow_ups",
                            "discard_multiplier_cards", "any_time_actions"), 0)
    seen_discharge = set()
    for k, a in enumerate(data["actions"]):
        t = _top(S)
        frame, p = int(S[t]), g.current_player
        if frame == L.FT_DISCHARGE and (g.round, p) not in seen_discharge:
            # first discharge decision of the turn: the charges placed by Step 3 are all there
            seen_discharge.add((g.round, p))
            chosen = int(_player(S, p, L.P_CHOSEN)[0])
            charged = _player(S, p, L.P_CARD_CHARGED, L.N_SECTORS * L.MAX_SLOTS).reshape(L.N_SECTORS, -1)
            others = [s for s in range(L.N_SECTORS) if s != chosen and charged[s].any()]
            counts["arrow_charges"] += len(others) > 0
            counts["chains"] += len(others) > 1   # an arrow-charged card charged another sector
        if (frame == L.FT_REWARD and S[t + L.FR_A] == L.REW_SRC_DEMAND
                and L.A_REWARD <= a < L.A_REWARD + L.MAX_REWARDS
                and a - L.A_REWARD >= T[L.T_D_NREW + 2 * int(S[t + L.FR_B])]):
            counts["priority_rewards"] += 1
        counts["ongoing_follow_ups"] += a == L.A_ONGOING
        counts["discard_multiplier_cards"] += L.A_DISCARD_MULT <= a < L.A_DISCARD_MULT + L.MAX_HAND
        counts["any_time_actions"] += L.A_DISCARD <= a < L.A_DONATE + L.N_COLS
        lines.append(f"{k:4d} {g.scores().tolist()} {g.pending()} || {a}: {g.describe_action(a)}")
        g.step(a)
    n = g.n_players
    counts["flips"] = sum(int(_player(S, p, L.P_SEC_SIDE, L.N_SECTORS).sum()) for p in range(n))
    counts["clean_tokens"] = sum(int(_player(S, p, L.P_CLEAN)[0]) for p in range(n))
    counts["breakthroughs"] = sum(int(_player(S, p, L.P_BT, L.N_BT_SPACES).sum()) for p in range(n))
    counts["fulfilled"] = sum(int(_player(S, p, L.P_NFULFILLED)[0]) for p in range(n))
    if g.is_solo:
        r = g.solo_result()
        counts["stars"] = r["stars"]
        counts["challenges_met"] = int(S[L.S_CH_MET:L.S_CH_MET + int(S[L.S_SOLO_NCH])].sum())
        lines.append(f"# end: {json.dumps(r)}")
    lines.append(f"# end: scores {g.scores().tolist()} winners {g.winners()} "
                 f"tiebreak {g.tiebreak_keys().tolist()}")
    return g, lines, counts


def setup_of(data: dict) -> dict:
    """The set-up keys of a golden file (older files lack the optional ones)."""
    return {"n_players": data["n_players"], "seed": data["seed"], "scenario": data.get("scenario"),
            "tech_packs": list(data.get("tech_packs") or ()), "agents": data.get("agents")}


def write(name: str, data: dict) -> dict:
    """Replay ``data`` (set-up and actions), add the expected outcome and write both files."""
    g, lines, counts = trace(data)
    data = dict(data, card_set_hash=g.cards.hash, final_state_sha256=state_digest(g),
                scores=g.scores().tolist(), winners=g.winners(), features=counts)
    (HERE / f"replay_{name}.json").write_text(json.dumps(data))
    (HERE / f"replay_{name}.txt").write_text("\n".join(lines) + "\n")
    return data


def main(argv: list[str] | None = None) -> None:
    """Play every case and write its ``.json`` and ``.txt`` files.  ``--text`` keeps the
    recorded actions and rewrites only the playthroughs and features (after a change of the
    wording of ``pending()`` / ``describe_action()``, not of the rules)."""
    text_only = "--text" in (sys.argv[1:] if argv is None else argv)
    for case in CASES:
        if text_only:
            actions = json.loads((HERE / f"replay_{case.name}.json").read_text())["actions"]
        else:
            actions = play_case(case).history
        data = write(case.name, dict(setup(case), actions=actions))
        print(case.name, len(actions), data["scores"], data["features"], flush=True)


if __name__ == "__main__":
    main()
