"""Jitted bot kernels over the rules engine (:mod:`electrify_env.engine`): what bots compute
inside numba, never a rule of the game.

Modules: ``search`` (greedy's one-ply evaluation, its priors, the rollout searches of ``mcts``),
``afterstate`` (what a seat would see after a move, for afterstate critics), ``league`` (greedy
priors batched over many games) and ``batch`` (many games stepped together, with random, greedy
or mcts opponents played inside numba, for the vector envs).  They import the engine; the engine
never imports them.  Their compiled code is cached like the engine's
(:mod:`electrify_env._numba_cache`: one stamp over the sources of both folders).
"""
