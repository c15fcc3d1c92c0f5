"""Metadata saved beside a trained policy, so that a policy is never run on an observation
layout, action space or card set it was not trained for.

A policy file ``x.zip`` (MaskablePPO) or ``x.pt`` (electrify's own trainer, :mod:`electrify_env.agents.net`)
has a sidecar ``x.meta.json`` written by
:func:`save_policy_metadata`; :func:`load_policy_metadata` reads it and :func:`check_compatible`
refuses, with a message saying what differs, a policy saved for another layout, card set or
mode of play (solo / multi-player).
"""
from __future__ import annotations

import json
from pathlib import Path

from electrify_env.engine.layout import MAX_PLAYERS, N_ACTIONS, STATE_VERSION
from electrify_env.engine.observe import OBS_SIZE, OBS_VERSION

FORMAT = "electrify-policy"
VERSION = 1
SOLO_ENV_ID = "Electrify-Solo-v0"


class PolicyMismatchError(ValueError):
    """A saved policy does not fit this engine's observation layout, action space or card set."""


def meta_path(policy_path: str | Path) -> Path:
    """``x.zip`` or ``x.pt`` -> ``x.meta.json`` (any other name: name + ``.meta.json``)."""
    p = Path(policy_path)
    for suffix in (".zip", ".pt"):
        if p.name.endswith(suffix):
            return p.with_name(p.name[:-len(suffix)] + ".meta.json")
    return p.with_name(p.name + ".meta.json")


def policy_metadata(card_set_hash: str, env_id: str, **extra) -> dict:
    """The metadata of a policy trained now: layout versions and sizes, card-set hash, env id,
    plus any ``extra`` fields (scenario, players, training steps, ...)."""
    return {"format": FORMAT, "version": VERSION, "obs_version": OBS_VERSION, "obs_size": OBS_SIZE,
            "n_actions": N_ACTIONS, "state_version": STATE_VERSION, "card_set_hash": card_set_hash,
            "env_id": env_id, **extra}


def save_policy_metadata(policy_path: str | Path, meta: dict) -> Path:
    """Write the sidecar JSON of ``policy_path``; return its path."""
    path = meta_path(policy_path)
    path.write_text(json.dumps(meta, indent=2, sort_keys=True))
    return path


def load_policy_metadata(policy_path: str | Path) -> dict:
    """Read the sidecar of ``policy_path``.  A missing, unreadable, malformed or foreign file is
    a PolicyMismatchError whose one-line message names the file."""
    path = meta_path(policy_path)
    if not path.exists():
        raise PolicyMismatchError(f"{policy_path}: no metadata file {path.name} beside the policy; "
                                  "it was not saved by electrify's training code")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise PolicyMismatchError(f"{path}: the policy metadata file is not valid JSON "
                                  f"(line {err.lineno}, column {err.colno}: {err.msg})") from None
    except (OSError, UnicodeDecodeError) as err:
        raise PolicyMismatchError(f"{path}: the policy metadata file cannot be read as UTF-8 text "
                                  f"({err.__class__.__name__})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise PolicyMismatchError(f"{path}: not an electrify policy metadata file "
                                  f"(expected a JSON object with format {FORMAT!r})")
    return meta


def policy_players(meta: dict) -> int | None:
    """The player count a policy was trained for: 1 (a solo scenario), 2-4 (one seat of a
    multi-player game), or None if its metadata does not say."""
    n = meta.get("n_players")
    if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= MAX_PLAYERS:
        return n
    env_id = meta.get("env_id")
    if env_id == SOLO_ENV_ID:
        return 1
    return None


def policy_prior(meta: dict) -> str:
    """The logit prior a policy adds (``none`` or ``greedy``: ``electrify_env.agents.net.PRIORS``), from the
    architecture in its metadata."""
    return str((meta.get("arch") or {}).get("prior", "none"))


def policy_critics(meta: dict) -> list[dict]:
    """The fields (``frames``, ``top_k``, ``hidden``, ``max_target`` if set) of each afterstate
    critic of a policy (``electrify_env.agents.net.AfterstateCritic``; a file has none, one in
    ``arch["critic"]`` or several in ``arch["critics"]``), from the architecture in its metadata."""
    arch = meta.get("arch") or {}
    several = arch.get("critics")
    if isinstance(several, list):
        return [dict(c) for c in several if isinstance(c, dict)]
    critic = arch.get("critic")
    return [dict(critic)] if isinstance(critic, dict) else []


def policy_lookaheads(meta: dict) -> list[dict]:
    """The fields of each rollout lookahead of a policy (``electrify_env.agents.net.RolloutLookahead``:
    ``frames``, ``top_k``, ``rollouts``, ``horizon``, ``weights``, ``max_target`` if set), from
    the architecture in its metadata (``arch["lookaheads"]``); ``[]`` if it has none."""
    las = (meta.get("arch") or {}).get("lookaheads")
    return [dict(la) for la in las if isinstance(la, dict)] if isinstance(las, list) else []


def policy_needs_infoset(meta: dict) -> bool:
    """Whether an agent playing the policy reads the engine's information set of its seat: a
    greedy logit prior, an afterstate critic and a rollout lookahead are computed from it (R26)."""
    return policy_prior(meta) != "none" or bool(policy_critics(meta)) or bool(policy_lookaheads(meta))


def check_compatible(meta: dict, card_set_hash: str | None = None, where: str = "policy",
                     n_players: int | None = None) -> None:
    """Raise PolicyMismatchError naming every field in which ``meta`` differs from this engine
    (observation version and size, action count) and, if given, the card set; and, if
    ``n_players`` is given, refuse a solo policy in a multi-player game and a multi-player seat
    policy in a solo game."""
    want = {"obs_version": OBS_VERSION, "obs_size": OBS_SIZE, "n_actions": N_ACTIONS}
    if card_set_hash is not None:
        want["card_set_hash"] = card_set_hash
    bad = [f"{k}: saved {meta.get(k)!r}, this engine {v!r}" for k, v in want.items() if meta.get(k) != v]
    if bad:
        raise PolicyMismatchError(f"{where} was saved for another layout ({'; '.join(bad)}); "
                                  "retrain it or use the electrify-env version it was trained with")
    trained = policy_players(meta)
    if n_players is None or trained is None or (trained == 1) == (n_players == 1):
        return
    if trained == 1:
        scen = meta.get("scenario")
        raise PolicyMismatchError(f"{where} was trained for solo play"
                                  f"{f' (scenario {scen})' if scen else ''}; it cannot play a "
                                  f"{n_players}-player game")
    raise PolicyMismatchError(f"{where} was trained for a seat of a {trained}-player game; it "
                              "cannot play a solo scenario")
