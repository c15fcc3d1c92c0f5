"""Game-independent code that every game's package imports, one sub-package per layer as in a
game package: ``common.engine`` (engine layer: the random generator kept in a state array, the
offset allocator of the flat arrays and its documentation tables, jitted helpers over legal-action
masks) and ``common.envs`` (envs layer: the Gymnasium wrapper that ends an episode on an illegal
action).  Nothing here imports a game's package (``tests/test_layers.py``)."""
