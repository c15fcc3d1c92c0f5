"""The Electrify rules engine: pure jitted functions over one int64 state array.

Modules, one per concern: ``layout`` (every offset and code), ``stack`` (pending decisions),
``sectors`` (bumping, arrows), ``cards`` (hands, decks), ``research``, ``turn`` (plan, boosts,
reset), ``acquire``, ``charge``, ``discharge``, ``fulfill``, ``masks``, ``step`` (dispatcher),
``setup``, ``scoring``, ``observe``, ``playout``, ``infoset`` (what a seat may know, R26),
``invariants``.  The random generator in the state (R25), the offset allocator and the mask
helpers are game-independent, in :mod:`electrify_env.common.engine`.  The bots' jitted kernels
(evaluation, priors, searches, batched play) live above the rules, in
:mod:`electrify_env.kernels`.

Ruling ids in the docstrings (R1-R26) refer to ``docs/rules.md``, the project's statement of every
rules decision the engine makes, with a pointer from each ruling to its functions and tests.
"""
