"""The environment pieces both games' envs build on, in the envs layer: ``wrappers``
(:class:`~.wrappers.TerminateIllegalAction`, the Gymnasium wrapper that ends an episode on an
illegal action, and :func:`~.wrappers.wrap_illegal_action`, which an env's entry point applies)."""
