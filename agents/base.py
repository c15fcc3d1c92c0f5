"""The agent interface, as the agents package uses it: :class:`Agent`, :class:`SeatView` and
their helpers are the core's (:mod:`electrify_env.agent`, where what a seat may know is
defined); this module names them for the agents built on them."""
from electrify_env.agent import (Agent, AgentError, SeatView, check_legal, is_agent, seat_view,
                                 state_view, top_actions)

__all__ = ["Agent", "AgentError", "SeatView", "check_legal", "is_agent", "seat_view", "state_view",
           "top_actions"]
