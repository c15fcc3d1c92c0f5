"""The Electrify rules engine: pure jitted functions over one int64 state array.

Modules, one per concern: ``layout`` (every offset and code), ``rng``, ``stack`` (pending
decisions), ``sectors`` (bumping, arrows), ``cards`` (hands, decks), ``research``, ``turn`` (plan,
boosts, reset), ``acquire``, ``charge``, ``discharge``, ``fulfill``, ``masks``, ``step``
(dispatcher), ``setup``, ``scoring``, ``observe``, ``playout``.
"""
