"""Training on the Electrify environments.

electrify's own trainer (the one the shipped policies come from):

* :mod:`electrify_env.training.selfplay` -- PPO with self-play and an opponent league (learner, past snapshots,
  greedy, random), solo scenarios, imitation warm start of greedy and kickstarting;
  ``electrify train configs/electrify-2p-from-scratch.yaml`` (``python -m electrify_env.training.selfplay CONFIG``);
* :mod:`electrify_env.agents.net` -- the policy-value network and its file format (``.pt`` + ``.meta.json``);
* :mod:`electrify_env.training.config` -- typed configs filled from ``configs/*.yaml`` (``TrainConfig``,
  ``RLlibConfig``);
* :mod:`electrify_env.training.teacher` -- search-agent games as imitation data (``electrify teacher-data``,
  locally or on Ray) and their loader; the trainer imitates them with ``bc_data``;
* :mod:`electrify_env.training.acquire_critic` -- add an afterstate critic to a policy and train it toward a
  search's choice among the policy's best candidates (the card to buy, by default);
* :mod:`electrify_env.training.ship` -- copy a trained policy into ``policies/`` with its metadata.

On Ray RLlib (``pip install -e ".[ray]"``):

* :mod:`electrify_env.training.rllib_selfplay` -- multi-agent PPO with action masking on ``electrify_v0``
  (``electrify train --backend rllib configs/rllib_2p.yaml``), exported as a project policy;
* :mod:`electrify_env.training.rllib_module` -- the RLlib module around :class:`electrify_env.agents.net.PolicyValueNet`.

The sb3-contrib MaskablePPO baseline (kept for users who bring SB3):

* :mod:`electrify_env.training.train_solo` -- ``python -m electrify_env.training.train_solo --config configs/ppo_solo.yaml``;
* :mod:`electrify_env.training.train_seat` -- ``python -m electrify_env.training.train_seat --config configs/ppo_seat.yaml``;
* :mod:`electrify_env.training.ppo` -- the shared MaskablePPO loop (curve, final comparison, saving);
* :mod:`electrify_env.training.features` -- the policy's shared first layer over the observation;
* :mod:`electrify_env.training.evaluate` -- a trained policy against the random agent on the same games;
* :mod:`electrify_env.training.common` -- env building and batched evaluation.
"""
