"""Progress bars that end at their total.

Training loops work in whole rollouts, so the last one may carry the count past the configured
budget (``total_steps`` rounded up to a rollout).  :func:`advance` moves a tqdm bar by what was
actually done and raises its total to match when a step passes it, so a finished bar reads
``n == total`` and both are the work done.
"""
from __future__ import annotations

__all__ = ["advance"]


def advance(bar, n: int) -> None:
    """Advance the tqdm ``bar`` by ``n``, raising its total first if ``n`` would pass it."""
    if bar is None:
        return
    if bar.total is not None and bar.n + n > bar.total:
        bar.total = bar.n + n
    bar.update(n)
