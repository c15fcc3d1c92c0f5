"""The ``greedy`` agent: one-ply lookahead with a hand-written state evaluation.

At each decision it samples the hidden information once (``determinize`` on its scrubbed view),
applies every candidate legal action to a copy, and keeps the action whose resulting state the
evaluation of :mod:`electrify_env.kernels.search` values most.  The evaluation counts points,
research progress, cubes, progress toward the demand cards it can reach, the hand, the engine
(icons of sector tiles and cards weighted by the multipliers of their columns, connected arrows),
the charges still to use this round and the decisions it still holds (a payment owed, a card to
place, rewards to take).  So it buys and places cards that strengthen its engine, positions
sectors for the clean / dirty tracks (the planned sector's charge and the reset are part of the
value), discharges produce before transmit, transmits the cubes its demands need, fulfils
demands and takes rewards, and uses the any-time discards and donations only where they pay.

The weights are a :class:`GreedyWeights` dataclass filled from ``configs/agents/greedy.yaml``
(``greedy:weights=PATH`` loads another file).
"""
from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
from electrify_env.paths import CONFIGS_DIR
from electrify_env.yamlio import read_yaml_mapping

from electrify_env.engine import layout as L
from electrify_env.kernels import search as SR
from electrify_env.engine.infoset import determinize

from .base import Agent, AgentError, SeatView

DEFAULT_WEIGHTS = CONFIGS_DIR / "agents" / "greedy.yaml"
SEED_LIMIT = 1 << 62


@dataclass(frozen=True)
class GreedyWeights:
    """Weights of the state evaluation, in energy-point equivalents (field order = the jitted
    array's order, ``electrify_env.kernels.search.WEIGHT_NAMES``)."""

    score: float = 1.0
    """An energy point."""
    research_step: float = 0.1647
    """One space of the research marker (six make a breakthrough)."""
    clean_token: float = 0.5484
    """Flat value of a clean token, beyond its effect on clean multipliers."""
    depot_base: float = 0.1913
    """A depot cube."""
    depot_col: float = 0.2501
    """Extra value of a depot cube per column to the right."""
    grid_base: float = 0.3031
    """A grid cube."""
    grid_col: float = 0.1499
    """Extra value of a grid cube per column to the right."""
    depot_cover: float = 0.3603
    """Share of a depot cube (against a grid cube) in a demand card's coverage."""
    demand: float = 0.6
    """Share of a demand card's reward value counted at full coverage."""
    demand_second: float = 0.4209
    """Weight of the second-best demand card."""
    demand_power: float = 2.1148
    """Exponent of the coverage (1 = linear, 2 = favour nearly complete cards)."""
    hand: float = 0.4
    """Future value of a hand card at the start of the game (falls to 0 by the end)."""
    hand_cost: float = 0.0358
    """Extra future value of a hand card per cost point."""
    engine: float = 0.5897
    """Weight of the board's icons per future charge."""
    arrow: float = 0.2547
    """An arrow that reaches a card, per future charge."""
    charged: float = 1.0
    """Weight of the icons still to be used this round."""
    u_produce: float = 0.0865
    """One produce use, on top of the produced cube's value."""
    u_develop: float = 0.5578
    """One develop use."""
    u_transmit: float = 0.5162
    """One transmit use."""
    u_research: float = 0.5164
    """One research use."""
    u_invest: float = 0.5143
    """One invest use."""
    u_plan: float = 0.1854
    """One plan use."""
    u_other: float = 0.1779
    """One use of any other icon (tech packs)."""
    owed: float = 0.2001
    """One point of a card's cost still to pay."""
    free_card: float = 0.3725
    """A free card (industry breakthrough), per cost point it may have."""
    rw_clean: float = 0.6296
    """A clean breakthrough reward."""
    rw_industry: float = 1.0079
    """An industry breakthrough reward, per cost point."""
    rw_sector: float = 2.3343
    """A sector breakthrough reward."""
    bt_pick: float = 0.8492
    """A research breakthrough space still to cover."""
    boost: float = 0.0421
    """A boost still to take (its effect is valued once taken)."""
    order: float = 0.02
    """Tie-break bonus that discharges produce and invest before develop and transmit."""
    value_scale: float = 3.0
    """Search only: the margin in points at which a rollout's value is 0.5 + tanh(1) / 2."""
    explore: float = 0.05
    """Search only: chance that a rollout step is a phase-first random action, for direct callers
    of the jitted searches (the ``mcts`` agent sets it from its own ``explore`` parameter)."""

    def to_array(self) -> np.ndarray:
        """The float64 weight array of the jitted evaluation (read-only)."""
        arr = np.array([getattr(self, n) for n in SR.WEIGHT_NAMES], dtype=np.float64)
        arr.flags.writeable = False
        return arr

    @classmethod
    def from_array(cls, arr) -> "GreedyWeights":
        """Weights from a jitted weight array."""
        if len(arr) != SR.N_WEIGHTS:
            raise AgentError(f"expected {SR.N_WEIGHTS} weights, got {len(arr)}")
        return cls(**{n: round(float(v), 4) for n, v in zip(SR.WEIGHT_NAMES, arr)})

    def to_dict(self) -> dict:
        """Field name -> value."""
        return dataclasses.asdict(self)

    def yaml_text(self) -> str:
        """The weights as the YAML of ``configs/agents/greedy.yaml``, with a comment per field."""
        docs = field_docs()
        lines = ["# Weights of the greedy agent's state evaluation (agents/greedy.py, GreedyWeights;",
                 "# the jitted evaluation is electrify_env/kernels/search.py), in energy-point",
                 "# equivalents.  The mcts agent evaluates its rollouts with the same weights."]
        for f in fields(self):
            doc = " ".join(docs.get(f.name, "").split())
            lines.append(f"{f.name}: {getattr(self, f.name)!r}    # {doc}")
        return "\n".join(lines) + "\n"


@functools.lru_cache(maxsize=None)
def field_docs() -> dict[str, str]:
    """The attribute docstrings of :class:`GreedyWeights` (read from the source)."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(GreedyWeights))
    out: dict[str, str] = {}
    body = tree.body[0].body
    for node, nxt in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant):
            out[node.target.id] = str(nxt.value.value)
    return out


def load_weights(path: str | Path | None = None) -> GreedyWeights:
    """Load weights from a YAML file (default ``configs/agents/greedy.yaml``).  Every field must
    be present and numeric; unknown keys are refused with the list of known ones."""
    path = Path(path) if path is not None else DEFAULT_WEIGHTS
    if not path.exists():
        raise AgentError(f"greedy weights file {path} does not exist")
    if not path.is_file():
        raise AgentError(f"greedy weights file {path} is not a file")
    data = read_yaml_mapping(path, AgentError)  # one line per problem, duplicate keys refused
    known = [f.name for f in fields(GreedyWeights)]
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise AgentError(f"{path}: unknown weight(s) {', '.join(unknown)}; known: {', '.join(known)}")
    missing = [k for k in known if k not in data]
    if missing:
        raise AgentError(f"{path}: missing weight(s) {', '.join(missing)}")
    bad = [k for k, v in data.items() if isinstance(v, bool) or not isinstance(v, (int, float))]
    if bad:
        raise AgentError(f"{path}: weight(s) {', '.join(bad)} must be numbers")
    bad = [k for k, v in data.items() if not math.isfinite(v)]
    if bad:
        raise AgentError(f"{path}: weight(s) {', '.join(bad)} must be finite numbers")
    return GreedyWeights(**{k: float(v) for k, v in data.items()})


@functools.lru_cache(maxsize=16)
def _weights_array(path: str) -> np.ndarray:
    return load_weights(path or None).to_array()


class GreedyBuffers:
    """Work arrays of the jitted policy (one set per agent)."""

    def __init__(self) -> None:
        self.det = np.zeros(L.S_SIZE, dtype=np.int64)
        self.work = np.zeros(L.S_SIZE, dtype=np.int64)
        self.scratch = np.zeros(L.S_SIZE, dtype=np.int64)
        self.mask = np.zeros(L.N_ACTIONS, dtype=np.uint8)
        self.vals = np.zeros(L.N_ACTIONS, dtype=np.float64)
        self.tally = np.zeros(SR.N_TALLY, dtype=np.float64)


class GreedyAgent(Agent):
    """One-ply lookahead over the legal actions with the jitted state evaluation.

    Args:
        weights: a YAML weights file (default ``configs/agents/greedy.yaml``).
    """

    name = "greedy"
    needs_infoset = True

    def __init__(self, weights: str | None = None) -> None:
        super().__init__()
        self.weights_path = str(weights) if weights else ""
        self.W = _weights_array(self.weights_path)
        self.buf = GreedyBuffers()

    def sample(self, view: SeatView) -> np.ndarray:
        """One determinization of the seat's information set (the buffer is reused)."""
        self._need(view)
        determinize(view.infoset, view.table, np.int64(view.seat),
                    np.int64(self.rng.integers(SEED_LIMIT)), self.buf.det)
        return self.buf.det

    def values(self, view: SeatView) -> np.ndarray:
        """The one-ply value of every legal action (-inf for the others and for any-time
        actions skipped at this decision); a copy."""
        D = self.sample(view)
        b = self.buf
        b.mask[:] = view.mask
        SR.greedy_values(D, view.table, self.W, b.mask, np.int64(SR.ANYTIME_SOME), b.vals,
                         b.work, b.tally, b.scratch)
        return b.vals.copy()

    def act(self, view: SeatView) -> int:
        """The legal action of highest one-ply value."""
        legal = np.flatnonzero(view.mask)
        if legal.size == 1:
            return int(legal[0])
        D = self.sample(view)
        b = self.buf
        return int(SR.greedy_pick(D, view.table, self.W, b.mask, np.int64(SR.ANYTIME_SOME), b.vals,
                                  b.work, b.tally, b.scratch))


def main(argv=None) -> int:
    """``python -m electrify_env.agents.greedy --check FILE``: validate a weights file."""
    import argparse

    ap = argparse.ArgumentParser(description="validate a greedy weights file")
    ap.add_argument("--check", default=str(DEFAULT_WEIGHTS))
    args = ap.parse_args(argv)
    try:
        w = load_weights(args.check)
    except AgentError as err:
        print(f"invalid: {err}")
        return 1
    print(f"{args.check}: {len(w.to_dict())} weights, ok")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
