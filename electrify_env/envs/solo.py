"""``Electrify-Solo-v0``: one solo game of Electrify on a scenario (rulings R20-R23, ``docs/rules.md``)."""
from __future__ import annotations

from typing import Sequence

from ..kernels import batch as B
from ..scenarios import Scenario
from ._common import (
    DEFAULT_WIN_BONUS, SOLO_REWARD_MODES, card_set_and_options, check_float, check_render_mode,
    reward_code, scenario_list, scenario_table, with_observation_table,
)
from ._single import SingleGameEnv


@with_observation_table
class ElectrifySoloEnv(SingleGameEnv):
    """
    ## Description

    Solo *Electrify* (rulings R20-R23 of ``docs/rules.md``): one player, 12 rounds, a scenario with a target, bonus
    stars and challenges.  Every sub-decision of the rules is one step (R24): the sector dial,
    each card bought and each cube paid, each icon and each of its uses, each demand card and
    reward, and at every decision the any-time discards and donations (R13).  The rules run in
    the jitted engine (:mod:`electrify_env.engine`); this class is a thin adapter over
    :mod:`electrify_env.kernels.batch`.

    ## Action Space

    ``Discrete(N_ACTIONS)`` (247 ids in named ranges; ``electrify layout`` lists them).  Only the
    ids of the legal mask may be played: ``info["action_mask"]`` (int8) and
    :meth:`action_masks` (bool, for sb3-contrib's ``MaskablePPO``) give it at every step.
    **Illegal actions**: this class raises :class:`~electrify_env.IllegalActionError` (a
    ``ValueError``) naming the pending decision and the legal ids, and the game is unchanged.
    Through ``gymnasium.make("Electrify-Solo-v0")`` the env is wrapped in
    :class:`~electrify_env.envs.TerminateIllegalAction` instead: an illegal action ends the
    episode with reward ``illegal_reward`` (default -1) and ``info["illegal_action"] = True``
    (pass ``illegal_action="raise"`` to ``make`` to get the raising env).

    ## Observation Space

    ``Box(0, 1, (OBS_SIZE,), float32)``: the solo player's view (no hidden information, R26):
    round, deck and discard sizes, basic supply, demand cards (requirements, rewards, whether the
    player can fulfil each now), the pending decision (what is decided, the card, sector, icon,
    multiplier, uses left, reward slots), the hand, the board, the scenario's stars, challenges
    and boost tokens.  Every entry has a name (``electrify_env.engine.observe.feature_names()``);
    ``docs/observation.md`` lists every field.  The top-level fields:

    {obs_table}

    In solo play only ``p0`` is filled (the first ``obs_size(1)`` entries can be non-zero).

    ## Rewards

    ``reward_mode``:

    * ``"shaped"`` (default): at every step, the gain of (energy points + the scenario's points
      for the stars claimed) divided by the target; at the end, ``win_bonus`` (default 1) if the
      final score reaches the target.  The episode's return is final score / target (+ bonus).
    * ``"score"``: at the end only, final score / target.
    * ``"win"``: at the end only, +1 if the final score reaches the target, else -1.

    ## Starting State

    A new solo game (setup, R20) from a seed drawn from the env's generator (``info["seed"]``;
    ``Game(seed=info["seed"], scenario=info["scenario"])`` with the same actions replays it).
    The first decision is the optional swap of two sectors' starting columns.  (The seed in
    ``info`` is for replays and bookkeeping: it determines the hidden deck order, so a policy
    must act on the observation and mask only.)

    ## Episode End

    Terminated after round 12 (every game ends: R24 bounds the number of decisions, about 140
    for random play).  Never truncated.  The last ``info`` adds ``score`` (energy points),
    ``final_score`` (plus star points), ``won``, ``target``, ``seed``, ``scenario``,
    ``episode_length`` and ``episode_return``.

    ## Arguments

    * ``scenario``: a scenario id (``electrify scenarios``), a path, a
      :class:`~electrify_env.scenarios.Scenario`, a list of them (one drawn from each episode's
      seed), or None (default: every shipped scenario, one drawn per episode).
    * ``reward_mode``: ``"shaped"``, ``"score"`` or ``"win"``.
    * ``card_set``: a CardSet, a card-set YAML path, or None (the base set).
    * ``tech_packs``: tech packs to shuffle in (``"grid"``, ``"market"`` or paths).
    * ``win_bonus``: the ``"shaped"`` terminal bonus.
    * ``render_mode``: None, ``"ansi"`` (``render()`` returns the table as text), ``"human"``
      (prints it) or ``"rgb_array"`` (the board picture of :mod:`electrify_env.render.board` as an
      ``(H, W, 3)`` uint8 array, one size per episode: Gymnasium's ``RecordVideo`` records it).

    ## Version History

    * v0: initial version (observation version 2); ``render_mode="rgb_array"`` added.
    """

    def __init__(self, scenario: str | Scenario | Sequence[str | Scenario] | None = None,
                 reward_mode: str = "shaped", card_set=None, tech_packs: Sequence[str] = (),
                 win_bonus: float = DEFAULT_WIN_BONUS, render_mode: str | None = None) -> None:
        self.reward_mode = reward_mode
        rm = reward_code(reward_mode, SOLO_REWARD_MODES)
        self._cards, self._options = card_set_and_options(card_set, tech_packs)
        self._scenarios = scenario_list(scenario)
        self._SCS = scenario_table(self._scenarios)
        pick = 0 if len(self._scenarios) == 1 else -1
        self._C, self._F = B.new_config(B.MODE_SOLO, 1, self._options, rm, 0, pick, 0, 0,
                                        check_float("win_bonus", win_bonus), 0.0)
        self._setup(check_render_mode(render_mode, self.metadata["render_modes"]))

    @property
    def scenarios(self) -> list[Scenario]:
        """The scenarios an episode is drawn from."""
        return list(self._scenarios)

    @property
    def scenario(self) -> Scenario:
        """The scenario of the running episode."""
        return self._scenarios[max(int(self._E[B.E_SCEN]), 0)]

    def solo_result(self) -> dict:
        """The running game's :meth:`Game.solo_result` (final score, stars, target, won)."""
        return self.snapshot().solo_result()

    def _current_scenario(self):
        return self.scenario

    def _reset_info(self) -> dict:
        info = super()._reset_info()
        info["scenario"] = self.scenario.id
        info["target"] = self.scenario.target
        return info

    def _final_info(self) -> dict:
        info = super()._final_info()
        info["scenario"] = self._scenarios[int(self._FI[B.FI_SCEN])].id
        info["target"] = int(self._FI[B.FI_TARGET])
        return info
