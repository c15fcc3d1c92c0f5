"""The policy file of the one agent design: a policy-value network (:mod:`.model`) and,
optionally, the search it plays with.

``x.pt`` holds the weights (float16) and the network's configuration (its architecture and the
game's network layout); ``x.meta.json`` beside it holds what a user or a tool reads without
torch: the game, the player count, the observation version, the card-set hash, the play-time
search (``{"simulations", "determinizations", "considered"}``, or null for the network alone) and
how it was trained.  :func:`load` refuses a file whose layout differs from the game's layout now
(another observation version or action space) or whose card set is not the game's, with a
one-line message.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import torch

from electrify_env.validation import InvalidArgumentError

from .layout import NetworkLayout, layout_of
from .model import ARCH, PolicyValueNet

__all__ = ["FORMAT", "save", "load", "load_meta", "meta_path", "PolicyFileError"]

#: the ``format`` field of the metadata
FORMAT = "electrify-env-policy-value"


class PolicyFileError(InvalidArgumentError):
    """A policy file that is missing, corrupt, or made for another game layout or card set."""


def meta_path(path: str | Path) -> Path:
    """``x.pt`` -> ``x.meta.json``."""
    p = Path(path)
    return p.with_name(p.name.removesuffix(".pt") + ".meta.json")


def save(path: str | Path, net: PolicyValueNet, card_set_hash: str, search: dict | None = None,
         **info: Any) -> Path:
    """Write ``path`` (``.pt``) and its ``.meta.json``; ``info`` (trainer, config, steps, ...)
    goes into the metadata.  Returns the ``.pt`` path."""
    p = Path(path)
    if p.suffix != ".pt":
        raise PolicyFileError(f"a policy path must end in .pt, got {p}")
    p.parent.mkdir(parents=True, exist_ok=True)
    state = {k: v.detach().cpu().to(torch.float16) for k, v in net.state_dict().items()}
    torch.save({"format": FORMAT, "config": net.config(), "state_dict": state}, p)
    lay = net.layout
    meta = {"format": FORMAT, "arch": ARCH, "game": lay.game, "n_players": lay.n_players,
            "obs_version": lay.version, "obs_size": lay.obs_size, "n_actions": lay.n_actions,
            "card_set_hash": str(card_set_hash), "search": search, **info}
    meta_path(p).write_text(json.dumps(meta, indent=2, sort_keys=True) + "\n")
    return p


def load_meta(path: str | Path) -> dict:
    """The metadata beside ``path`` (PolicyFileError when missing or not ours)."""
    mp = meta_path(path)
    try:
        meta = json.loads(mp.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PolicyFileError(f"policy {path}: no metadata file {mp.name} beside it") from None
    except (OSError, json.JSONDecodeError) as err:
        raise PolicyFileError(f"policy {path}: metadata {mp.name} does not read ({err})") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise PolicyFileError(f"policy {path}: {mp.name} is not a policy-value file's metadata "
                              f"(format {meta.get('format') if isinstance(meta, dict) else None!r})")
    return meta


def load(path: str | Path, card_set_hash: str | None = None) -> tuple[PolicyValueNet, dict]:
    """The network (eval mode, float32) and metadata of ``path``.  PolicyFileError when the file
    is missing or corrupt, when the game's network layout differs from the file's, or when
    ``card_set_hash`` is given and differs from the file's."""
    p = Path(path)
    if not p.is_file():
        raise PolicyFileError(f"policy file {p} does not exist")
    meta = load_meta(p)
    if card_set_hash is not None and meta.get("card_set_hash") != card_set_hash:
        raise PolicyFileError(f"policy {p} was trained on card set {str(meta.get('card_set_hash'))[:12]}, "
                              f"not this game's {card_set_hash[:12]}")
    try:
        blob = torch.load(p, map_location="cpu", weights_only=True)
        cfg = blob["config"]
    except Exception as err:     # a corrupt file fails in many ways inside torch / zipfile
        raise PolicyFileError(f"policy file {p} does not load ({type(err).__name__})") from None
    if cfg.get("arch") != ARCH:
        raise PolicyFileError(f"policy {p} has architecture {cfg.get('arch')!r}; this code reads {ARCH!r}")
    saved = NetworkLayout.from_dict(cfg["layout"])
    now = layout_of(saved.game, saved.n_players)
    if saved != now:
        raise PolicyFileError(f"policy {p} was trained on {saved.game}'s observation version {saved.version} "
                              f"({saved.obs_size} floats, {saved.n_actions} actions); the game now has version "
                              f"{now.version} ({now.obs_size} floats, {now.n_actions} actions)")
    net = PolicyValueNet(now, cfg["embed"], cfg["hidden"])
    net.load_state_dict({k: v.to(torch.float32) for k, v in blob["state_dict"].items()})
    net.eval()
    return net, meta
