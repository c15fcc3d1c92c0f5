"""PPO training on the Electrify environments (sb3-contrib MaskablePPO).

* :mod:`training.config` -- typed configs filled from ``configs/*.yaml``;
* :mod:`training.train_solo` -- ``python -m training.train_solo --config configs/ppo_solo.yaml``;
* :mod:`training.train_seat` -- ``python -m training.train_seat --config configs/ppo_seat.yaml``;
* :mod:`training.ppo` -- the shared MaskablePPO loop (curve, final comparison, saving);
* :mod:`training.features` -- the policy's shared first layer over the observation;
* :mod:`training.evaluate` -- a trained policy against the random agent on the same games;
* :mod:`training.common` -- env building and batched evaluation.
"""
