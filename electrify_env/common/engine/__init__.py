"""The engine pieces both games' rules build on, in the engine layer; they import only numba,
numpy and each other.

Modules: ``rng`` (the xorshift128 generator whose four words a game keeps in its state, and the
seeds drawn from it), ``layouts`` (:class:`~.layouts.Layout`, the allocator of consecutive named
offset ranges, and the documentation tables of a game's layouts), ``legal`` (jitted helpers over
rows of legal-action masks: the legal id of a rank, a uniform random legal id per row, the first
illegal action of a batch).  Their jitted functions are cached like the engines' (under the same
source stamp, :mod:`electrify_env._numba_cache`)."""
