"""Training on the Electrify environments.

electrify's own trainer (the one the shipped policies come from):

* :mod:`training.selfplay` -- PPO with self-play and an opponent league (learner, past snapshots,
  greedy, random), solo scenarios, imitation warm start of greedy and kickstarting;
  ``electrify train configs/train_2p.yaml`` (``python -m training.selfplay CONFIG``);
* :mod:`training.net` -- the policy-value network and its file format (``.pt`` + ``.meta.json``);
* :mod:`training.config` -- typed configs filled from ``configs/*.yaml`` (``TrainConfig``,
  ``RLlibConfig``);
* :mod:`training.teacher` -- search-agent games as imitation data (``electrify teacher-data``,
  locally or on Ray) and their loader; the trainer imitates them with ``bc_data``;
* :mod:`training.acquire_critic` -- add an afterstate critic to a policy and train it toward a
  search's choice among the policy's best candidates (the card to buy, by default);
* :mod:`training.ship` -- copy a trained policy into ``policies/`` with its metadata.

On Ray RLlib (``pip install -e ".[ray]"``):

* :mod:`training.rllib_selfplay` -- multi-agent PPO with action masking on ``electrify_v0``
  (``electrify train --backend rllib configs/rllib_2p.yaml``), exported as a project policy;
* :mod:`training.rllib_module` -- the RLlib module around :class:`training.net.PolicyValueNet`.

The sb3-contrib MaskablePPO baseline (kept for users who bring SB3):

* :mod:`training.train_solo` -- ``python -m training.train_solo --config configs/ppo_solo.yaml``;
* :mod:`training.train_seat` -- ``python -m training.train_seat --config configs/ppo_seat.yaml``;
* :mod:`training.ppo` -- the shared MaskablePPO loop (curve, final comparison, saving);
* :mod:`training.features` -- the policy's shared first layer over the observation;
* :mod:`training.evaluate` -- a trained policy against the random agent on the same games;
* :mod:`training.common` -- env building and batched evaluation.
"""
