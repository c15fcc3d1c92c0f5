"""The policy-value network: one card encoder shared by every card slot, a torso, a policy head
whose pointing actions score their slot's card, and one value per seat.

Input: the game's flat observation (``Game.observe(seat)``) and its legal mask.  The
:class:`~.layout.NetworkLayout` cuts the observation into card slots and plain features:

1. every slot's card features go through one shared encoder (two layers, ``embed`` wide), its
   slot features and the group it lies in add a per-group term; empty slots (``present`` 0) are
   zeroed;
2. each group is pooled (the sum and the maximum over its slots) and joined with the plain
   features; two ``hidden``-wide layers make the torso state ``h``;
3. **policy**: a linear head over every action id, plus, for the ids that point at a slot, the
   product of a per-range query of ``h`` with that slot's embedding; illegal ids get
   ``-1e9``;
4. **value**: ``n_players`` sigmoid outputs, the expected utility (in [0, 1]) of each seat,
   seat-relative like the observation (0: the observer, 1: the next seat in play order, ...).

So a slot is read by the same weights wherever it lies, and the network's size does not grow
with the number of slots.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch
from torch import nn

from .layout import NetworkLayout

__all__ = ["PolicyValueNet", "ARCH"]

#: the architecture's name in a policy file
ARCH = "card-slots-v1"


class PolicyValueNet(nn.Module):
    """The network of the module docstring.

    Args:
        layout: the game's :class:`~.layout.NetworkLayout`.
        embed: the card embedding's width.
        hidden: the torso's widths (two or more layers).
    """

    def __init__(self, layout: NetworkLayout, embed: int = 64, hidden: Sequence[int] = (256, 256)) -> None:
        super().__init__()
        self.layout = layout
        self.embed, self.hidden = int(embed), tuple(int(h) for h in hidden)
        cw = layout.card_width
        self.card = nn.Sequential(nn.Linear(cw, self.embed), nn.ReLU(), nn.Linear(self.embed, self.embed))
        self.slot = nn.ModuleDict({g.name: nn.Linear(g.stride - cw, self.embed) if g.stride > cw else nn.Identity()
                                   for g in layout.groups})
        self.group_bias = nn.ParameterDict({g.name: nn.Parameter(torch.zeros(self.embed)) for g in layout.groups})
        self.register_buffer("flat_index", torch.as_tensor(layout.flat_index), persistent=False)
        width = layout.flat_index.size + 2 * self.embed * len(layout.groups)
        layers: list[nn.Module] = []
        for h in self.hidden:
            layers += [nn.Linear(width, h), nn.ReLU()]
            width = h
        self.torso = nn.Sequential(*layers)
        self.policy = nn.Linear(width, layout.n_actions)
        self.query = nn.ModuleList([nn.Linear(width, self.embed) for _ in layout.pointers])
        self.value = nn.Linear(width, layout.n_players)
        self._group_of = {g.name: i for i, g in enumerate(layout.groups)}

    def slots(self, obs: torch.Tensor) -> list[torch.Tensor]:
        """Each group's slot embeddings ``[B, count, embed]`` (empty slots zero).  The card
        encoder runs once, over the slots that hold a card."""
        cw, b = self.layout.card_width, obs.shape[0]
        xs = [obs[:, g.offset:g.end].reshape(b, g.count, g.stride) for g in self.layout.groups]
        feats = torch.cat([x[..., :cw] for x in xs], dim=1)           # [B, slots, cw]
        flat = feats.reshape(-1, cw)
        full = flat[:, 0] > 0                                          # present slots only
        cards = flat.new_zeros(flat.shape[0], self.embed).index_put((full,), self.card(flat[full]))
        cards = cards.reshape(b, -1, self.embed)
        out, at = [], 0
        for g, x in zip(self.layout.groups, xs):
            e = cards[:, at:at + g.count] + self.group_bias[g.name]
            at += g.count
            if g.stride > cw:
                e = e + self.slot[g.name](x[..., cw:])
            out.append(e * x[..., :1])                 # present
        return out

    def forward(self, obs: torch.Tensor, mask: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
        """Masked policy logits ``[B, n_actions]`` and seat-relative values ``[B, n_players]``."""
        emb = self.slots(obs)
        pooled = [torch.cat([e.sum(1), e.max(1).values], dim=1) for e in emb]
        h = self.torso(torch.cat([obs.index_select(1, self.flat_index)] + pooled, dim=1))
        logits = self.policy(h)
        if self.layout.pointers:
            extra = torch.zeros_like(logits)
            for q, p in zip(self.query, self.layout.pointers):
                e = emb[self._group_of[p.group]][:, p.start:p.start + p.count]
                extra[:, p.first:p.first + p.count] = torch.einsum("bd,bkd->bk", q(h), e) / self.embed ** 0.5
            logits = logits + extra
        if mask is not None:
            logits = logits.masked_fill(mask == 0, -1e9)
        return logits, torch.sigmoid(self.value(h))

    def config(self) -> dict:
        """The constructor arguments (with the layout as plain data) a policy file stores."""
        return {"arch": ARCH, "embed": self.embed, "hidden": list(self.hidden), "layout": self.layout.to_dict()}

    @torch.no_grad()
    def evaluate(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Numpy in, numpy out, no gradient: logits ``[B, n_actions]`` and values ``[B, n_players]``."""
        logits, values = self(torch.from_numpy(np.array(obs, dtype=np.float32)),
                              torch.from_numpy(np.array(mask, dtype=np.uint8)))
        return logits.numpy(), values.numpy()
