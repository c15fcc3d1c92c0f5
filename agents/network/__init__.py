"""The one agent design: a policy-value network (:mod:`.model`) over a game's observation cut
into card slots (:mod:`.layout`), saved with its play-time search (:mod:`.policy_file`), played
alone or driving the determinized Gumbel search (:mod:`.agent`), trained by expert iteration
(:mod:`electrify_env.training.expert`)."""
from .agent import PolicyAgent, evaluator_of, shipped_path
from .layout import NetworkLayout, PointerRange, SlotGroup, layout_of
from .model import PolicyValueNet
from .policy_file import PolicyFileError, load, save

__all__ = ["PolicyAgent", "evaluator_of", "shipped_path", "NetworkLayout", "PointerRange", "SlotGroup",
           "layout_of", "PolicyValueNet", "PolicyFileError", "load", "save"]
