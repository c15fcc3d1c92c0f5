"""Regenerate the golden replay files (run only when a rule change is intended):

    python tests/golden/make_golden.py

Each file holds a seed, the player count, the action list of a seeded random game, and the
expected outcome (sha256 of the final state, scores, winners, card-set hash)."""
import hashlib
import json
from pathlib import Path

import numpy as np

from electrify_env import Game
from electrify_env.engine import layout as L

HERE = Path(__file__).resolve().parent
CASES = [(2, 101), (3, 202), (4, 303)]


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


def main() -> None:
    for n, seed in CASES:
        g = play(n, seed)
        data = {"n_players": n, "seed": seed, "card_set_hash": g.cards.hash, "actions": g.history,
                "final_state_sha256": state_digest(g), "scores": g.scores().tolist(),
                "winners": g.winners()}
        (HERE / f"replay_{n}p_seed{seed}.json").write_text(json.dumps(data))
        print(n, seed, len(g.history), data["scores"])


if __name__ == "__main__":
    main()
