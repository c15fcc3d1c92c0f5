"""The ``ppo`` agent: a saved MaskablePPO policy (sb3-contrib) played from the observation and
the legal-action mask.

A policy file ``x.zip`` saved by :func:`save_policy` has the sidecar ``x.meta.json``
(:func:`electrify_env.agents.policy_meta.save_policy_metadata`).  Loading checks it against this
engine (observation layout version and size, action count;
:func:`~electrify_env.agents.policy_meta.check_compatible`) and refuses, with a message naming every
difference, a policy saved for another layout; the card set and the mode of play (a solo policy
only in solo games, a seat policy only in multi-player games) are checked the first time the agent
acts in such a game (the arena checks them before it plays: :func:`check_policy_file`).

A plain MaskablePPO zip (``model.save("x.zip")`` with sb3-contrib, no sidecar) plays too: its
observation and action spaces are checked against this engine's (a one-line PolicyMismatchError
when they differ) and loading warns, in one line, that the card set and the observation version
cannot be checked.

    ppo:path=my_model.zip
"""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np

from electrify_env.engine import layout as L
from electrify_env.engine.observe import OBS_SIZE
from electrify_env.agents.policy_meta import (
    PolicyMismatchError, check_compatible, load_policy_metadata, meta_path, policy_metadata,
    save_policy_metadata,
)

from .base import Agent, AgentError, SeatView
from .registry import check_params


def save_policy(model, path: str | Path, card_set_hash: str, env_id: str, **extra) -> Path:
    """Save a MaskablePPO ``model`` to ``path`` (``.zip``) with its metadata sidecar; return the
    sidecar's path.  ``extra`` fields (players, scenario, training steps...) go into the sidecar."""
    path = Path(path)
    if path.suffix != ".zip":
        raise AgentError(f"a policy path must end in .zip, got {path}")
    model.save(str(path))
    return save_policy_metadata(path, policy_metadata(card_set_hash, env_id, **extra))


def check_policy_file(path: str | Path, n_players: int | None = None,
                      card_set_hash: str | None = None) -> dict | None:
    """Check a policy file without loading the model (no torch import): the file exists, its
    metadata sidecar reads and fits this engine's layout, and, if given, the card set and the
    player count (a solo policy only in solo play, a seat policy only in multi-player games).
    Returns the metadata, or None for a plain sb3-contrib zip without a sidecar (nothing more
    can be checked before loading it).  Raises AgentError or PolicyMismatchError (both
    ValueError) with a one-line message naming the file."""
    if not str(path):
        raise AgentError("agent 'ppo' needs a policy file: ppo:path=FILE.zip")
    p = Path(path)
    if not p.exists():
        raise AgentError(f"agent 'ppo': policy file {p} does not exist")
    if not p.is_file():
        raise AgentError(f"agent 'ppo': policy file {p} is not a file")
    if p.suffix == ".zip" and not meta_path(p).exists():
        return None
    meta = load_policy_metadata(p)
    check_compatible(meta, card_set_hash=card_set_hash, where=f"policy {p}", n_players=n_players)
    return meta


class PPOAgent(Agent):
    """Plays a saved MaskablePPO policy.

    Args:
        path: the policy ``.zip``: with its ``.meta.json`` sidecar (:func:`save_policy`), or a
            plain MaskablePPO save (played with a warning that nothing but its spaces is checked).
        deterministic: play the most likely legal action (default) instead of sampling one
            (sampled with the agent's own generator, seeded by ``reset``).

    Raises:
        AgentError: no path, the file does not exist, is not a file or does not load.
        PolicyMismatchError: the sidecar is malformed, the model's observation or action space
            is not this engine's, or the policy was saved for another observation layout or
            (when acting) card set or mode of play (a solo policy in a multi-player game, a
            seat policy in a solo game).
    """

    name = "ppo"
    needs_observation = True

    def __init__(self, path: str = "", deterministic: bool = True) -> None:
        super().__init__()
        v = check_params(self.name, path=str(path), deterministic=deterministic)
        self.meta = check_policy_file(v["path"])
        p = Path(v["path"])
        from sb3_contrib import MaskablePPO  # heavy import, only when a ppo agent is built

        try:
            self.model = MaskablePPO.load(str(p), device="cpu")
        except Exception as err:  # a corrupt zip fails in many ways inside sb3 / torch / zipfile
            msg = " ".join(str(err).split())[:200]
            raise AgentError(f"agent 'ppo': policy file {p} does not load as a MaskablePPO policy "
                             f"({err.__class__.__name__}: {msg})") from None
        obs_shape = tuple(getattr(self.model.observation_space, "shape", None) or ())
        n_act = getattr(self.model.action_space, "n", None)
        if obs_shape != (OBS_SIZE,) or n_act != L.N_ACTIONS:
            raise PolicyMismatchError(
                f"policy {p} has observation shape {obs_shape} and {n_act} actions; this engine "
                f"has ({OBS_SIZE},) and {L.N_ACTIONS}")
        if self.meta is None:
            warnings.warn(f"policy {p} has no metadata file {meta_path(p).name} (a plain sb3-contrib "
                          f"save): only its spaces are checked, not its card set or observation version",
                          stacklevel=2)
        self.path = p
        self.deterministic = v["deterministic"]
        self._checked: set[tuple[str, int]] = set()

    def _sample(self, view: SeatView) -> int:
        """Draw an action from the policy's masked distribution with this agent's own generator
        (``self.rng``, reseeded by :meth:`reset`), never torch's global one: two agents, or two
        copies of an env holding one, draw the same actions from the same seed whatever else
        uses torch in the process."""
        import torch

        obs, _ = self.model.policy.obs_to_tensor(view.observation)
        with torch.no_grad():
            dist = self.model.policy.get_distribution(obs, action_masks=view.mask.astype(bool)[None, :])
            probs = dist.distribution.probs[0].double().cpu().numpy()
        probs = np.where(view.mask.astype(bool), probs, 0.0)
        total = probs.sum()
        if not total > 0:
            raise AgentError(f"policy {self.path} gives no probability to any legal action")
        return int(self.rng.choice(len(probs), p=probs / total))

    def act(self, view: SeatView) -> int:
        """The policy's action for the seat's observation, restricted to the legal mask."""
        self._need(view)
        key = (view.card_set_hash, int(view.n_players))
        if self.meta is not None and key not in self._checked:
            check_compatible(self.meta, card_set_hash=view.card_set_hash or None,
                             where=f"policy {self.path}", n_players=key[1])
            self._checked.add(key)
        if self.deterministic:
            action, _ = self.model.predict(view.observation, action_masks=view.mask.astype(bool),
                                           deterministic=True)
            a = int(np.asarray(action).reshape(-1)[0])
        else:
            a = self._sample(view)
        if not view.mask[a]:  # a masked policy never does this; keep the game legal regardless
            raise AgentError(f"policy {self.path} chose illegal action {a}")
        return a
