"""The Gizmos rules engine: pure jitted functions over one int64 state array.

Modules, one per concern (named ``gz_*`` so that their compiled caches never share a name with
another engine's): ``gz_layout`` (every offset and code), ``gz_energy`` (dispenser, row,
storage), ``gz_board`` (decks, display, archive, limits), ``gz_triggers`` (events), ``gz_pick``,
``gz_file``, ``gz_build``, ``gz_pay`` (payments and converters), ``gz_research``, ``gz_chain``
(waiting machines and their effects), ``gz_turn``, ``gz_setup``, ``gz_scoring``, ``gz_masks``,
``gz_step`` (dispatcher), ``gz_playout`` (random play), ``gz_infoset`` (a seat's information set
and its samples, G25), ``gz_api`` (the Python Game's entry points: the legal mask cached with the
state it belongs to).  The random generator in the state (G24), the offset allocator and the mask
helpers are game-independent, in :mod:`electrify_env.common.engine`.  Ruling ids (G1-G25) refer
to ``docs/gizmos/rules.md``.
"""
