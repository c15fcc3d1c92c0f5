"""Gizmos, the engine-building game for 2-4 players, as a game unit: the jitted rules engine
(:mod:`electrify_env.gizmos.engine`), the card set and its schema (:mod:`~electrify_env.gizmos.cards`),
the action codec (:mod:`~electrify_env.gizmos.actions`), the :class:`~electrify_env.gizmos.game.Game`
object, the position builder (:mod:`~electrify_env.gizmos.position`) and the decision view in
words (:mod:`~electrify_env.gizmos.decision`).  The rules are stated in ``docs/gizmos/rules.md``.
"""
from .game import Game  # noqa: E402

__all__ = ["Game"]
